//! A classroom's network, hostile: floods of expensive questions and idle connections, slow
//! clients, other sites' pages, a full queue. Each test starts a server in a process of its
//! own (this binary again, with `SERVER_ROLE` set) under the common limit of 1,024 open files,
//! and talks to it over plain sockets on this machine.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// Set in a child process: it serves, with the configuration in the variable's value.
const SERVER_ROLE: &str = "TAKEAWAY_TEST_SERVER";

/// The open files a server's process may have: the common default of `ulimit -n`.
const FILES: u64 = 1024;

fn main() {
    if let Ok(settings) = std::env::var(SERVER_ROLE) {
        return serve(&settings);
    }
    let tests: [(&str, fn()); 5] = [
        ("nim_answers_at_once_under_a_flood_of_expensive_questions_and_idle_connections", flood),
        ("a_full_slow_lane_answers_503_with_retry_after", full_queue),
        ("waiting_for_a_worker_counts_against_the_question_s_deadline", deadline_counts_the_wait),
        ("slow_and_idle_connections_are_closed_within_ten_seconds", slow_connections),
        ("other_sites_and_foreign_hosts_are_refused", cross_site),
    ];
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let chosen: Vec<_> = tests.iter().filter(|(name, _)| filter.iter().all(|f| name.contains(f.as_str()))).collect();
    println!("\nrunning {} tests", chosen.len());
    // Each test has a server of its own: they run side by side, as libtest would run them.
    let running: Vec<_> = chosen
        .iter()
        .map(|(name, test)| {
            let test = *test;
            (*name, std::thread::spawn(test))
        })
        .collect();
    let mut failed = Vec::new();
    for (name, handle) in running {
        let ok = handle.join().is_ok();
        println!("test {name} ... {}", if ok { "ok" } else { "FAILED" });
        if !ok {
            failed.push(name);
        }
    }
    if !failed.is_empty() {
        println!("\nfailures: {failed:?}");
        std::process::exit(101);
    }
    println!("\ntest result: ok. {} passed", chosen.len());
}

/// The server's side: `workers slow_waiting timeout`, then serve until killed.
fn serve(settings: &str) {
    let numbers: Vec<f64> = settings.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    let [workers, slow_waiting, timeout] = numbers[..] else { panic!("settings: {settings}") };
    let config = takeaway_web::Config {
        workers: workers as usize,
        slow_waiting: slow_waiting as usize,
        timeout,
        ..takeaway_web::Config::default()
    };
    takeaway_web::serve_blocking(
        "127.0.0.1:0".parse().expect("an address"),
        config,
        |bound| {
            println!("{bound}");
            let _ = std::io::stdout().flush();
        },
        || {},
    )
    .expect("the server runs");
}

/// A server in a process of its own, killed when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Server {
    fn start(workers: usize, slow_waiting: usize, timeout: f64) -> Server {
        let mut command = Command::new(std::env::current_exe().expect("this binary"));
        command.env(SERVER_ROLE, format!("{workers} {slow_waiting} {timeout}")).stdout(Stdio::piped());
        // SAFETY: setrlimit is async-signal-safe and touches only the child's limits.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: FILES, rlim_max: FILES };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = command.spawn().expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the address");
        let address = line.trim().parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
        Server { child, address }
    }

    /// Sends `body` to /api/`verb` on a new connection, without waiting for the answer.
    fn send(&self, verb: &str, body: &Value) -> TcpStream {
        let mut stream = TcpStream::connect(self.address).expect("the server listens");
        let body = body.to_string();
        let head = format!(
            "POST /api/{verb} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.address,
            body.len()
        );
        stream.write_all(format!("{head}{body}").as_bytes()).expect("the request is sent");
        stream
    }

    /// Asks a question and reads the answer: its status, headers and JSON.
    fn ask(&self, verb: &str, body: &Value) -> Answer {
        read_answer(self.send(verb, body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Answer {
    status: u16,
    head: String,
    json: Value,
}

fn read_answer(mut stream: TcpStream) -> Answer {
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("a timeout");
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).expect("the answer is read");
    let text = String::from_utf8_lossy(&bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("not HTTP: {text:?}"));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    Answer { status, head: head.to_ascii_lowercase(), json }
}

fn game(file: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{file}", env!("CARGO_MANIFEST_DIR"))).expect("a bundled game")
}

/// The test process's own limit of open files raised to its hard limit: it opens some 1,600
/// sockets. Returns that limit.
fn raise_own_files() -> u64 {
    // SAFETY: getrlimit and setrlimit read and write the struct given, nothing else.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        limit.rlim_cur
    }
}

fn nim_answers_135(server: &Server) -> Duration {
    let started = Instant::now();
    let answer = server.ask("solve", &json!({ "source": game("nim.game"), "position": "41 163 13" }));
    let took = started.elapsed();
    assert_eq!((answer.status, &answer.json["grundy"]), (200, &json!(135)), "{}", answer.json);
    took
}

/// 1,100 idle connections (more than the server's process may hold) and 500 expensive
/// questions at once, from one client: Nim 41 163 13 still answers 135 within 2 s, each time.
fn flood() {
    let files = raise_own_files();
    assert!(files >= 2000, "this test opens some 1,700 sockets; the hard limit of open files is {files}");
    let server = Server::start(2, 4, 30.0);
    let idle: Vec<TcpStream> = (0..1100).map(|_| TcpStream::connect(server.address).expect("a connection")).collect();
    let wythoff = game("three-pile-wythoff.game");
    let slow = game("octal-0.354.game");
    let mut expensive = Vec::new();
    for i in 0..500u64 {
        let stream = if i % 2 == 0 {
            server.send("period", &json!({ "source": slow }))
        } else {
            server.send("solve", &json!({ "source": wythoff, "position": format!("{} 130 140", 100 + i % 40) }))
        };
        expensive.push(stream);
        if i % 100 == 50 {
            assert!(nim_answers_135(&server) < Duration::from_secs(2), "Nim waited behind the flood");
        }
    }
    for _ in 0..5 {
        let took = nim_answers_135(&server);
        assert!(took < Duration::from_secs(2), "Nim took {took:?} under the flood");
        std::thread::sleep(Duration::from_millis(300));
    }
    drop(idle);
    drop(expensive);
}

/// One worker in each lane and one place in the slow lane's queue: of three slow questions at
/// once, one is refused at once with 503 and `Retry-After`, and says why.
fn full_queue() {
    let server = Server::start(1, 1, 30.0);
    let slow = game("octal-0.354.game");
    let started = Instant::now();
    let streams: Vec<TcpStream> =
        (0..3).map(|_| server.send("period", &json!({ "source": slow, "timeout": 4 }))).collect();
    let readers: Vec<_> =
        streams.into_iter().map(|s| std::thread::spawn(move || (read_answer(s), started.elapsed()))).collect();
    let answers: Vec<(Answer, Duration)> = readers.into_iter().map(|h| h.join().expect("an answer")).collect();
    let busy: Vec<&(Answer, Duration)> = answers.iter().filter(|(a, _)| a.status == 503).collect();
    assert_eq!(busy.len(), 1, "{:?}", answers.iter().map(|(a, t)| (a.status, *t)).collect::<Vec<_>>());
    let (answer, took) = busy[0];
    assert!(*took < Duration::from_secs(2), "the refusal took {took:?}");
    assert!(answer.head.contains("retry-after: "), "{}", answer.head);
    assert_eq!(answer.json["code"], "takeaway::web::busy");
    // The other two ran in turn to their timeout.
    let timeouts = answers.iter().filter(|(a, _)| a.status == 422 && a.json["kind"] == "timeout").count();
    assert_eq!(timeouts, 2);
}

/// A question that waits behind a slow one for the slow lane stops at its own deadline,
/// counted from its arrival: one second, not the other question's four plus its own one.
fn deadline_counts_the_wait() {
    let server = Server::start(1, 4, 30.0);
    let slow = game("octal-0.354.game");
    let first = server.send("period", &json!({ "source": slow, "timeout": 4 }));
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let second = server.ask("period", &json!({ "source": slow, "timeout": 1 }));
    let took = started.elapsed();
    assert_eq!((second.status, &second.json["kind"]), (422, &json!("timeout")), "{}", second.json);
    assert!(took < Duration::from_millis(2000), "the second question took {took:?}");
    assert_eq!(read_answer(first).json["kind"], "timeout");
}

/// A connection that sends a header a byte a second, one that sends nothing, one whose body
/// comes a byte a second, and one kept alive after its answer: the server closes each within
/// ten seconds of its last request's start.
fn slow_connections() {
    let server = Server::start(2, 4, 30.0);
    let address = server.address;
    let closed_within = |mut stream: TcpStream, trickle: &'static [u8]| {
        std::thread::spawn(move || {
            let started = Instant::now();
            stream.set_read_timeout(Some(Duration::from_millis(200))).expect("a timeout");
            let mut sent = 0;
            let mut buffer = [0u8; 4096];
            loop {
                if started.elapsed() > Duration::from_secs(20) {
                    return started.elapsed();
                }
                match stream.read(&mut buffer) {
                    Ok(0) => return started.elapsed(),
                    Ok(_) => {}
                    Err(e)
                        if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => return started.elapsed(),
                }
                let due = started.elapsed().as_secs() as usize;
                while sent < trickle.len() && sent <= due {
                    if stream.write_all(&trickle[sent..=sent]).is_err() {
                        return started.elapsed();
                    }
                    sent += 1;
                }
            }
        })
    };
    let header: &'static [u8] = b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    let body: &'static [u8] = b"{\"source\": \"pile\\nmove: take 1\"}";
    let slow_header = closed_within(TcpStream::connect(address).expect("a connection"), header);
    let silent = closed_within(TcpStream::connect(address).expect("a connection"), b"");
    let mut slow_body = TcpStream::connect(address).expect("a connection");
    let head = format!(
        "POST /api/check HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
    );
    slow_body.write_all(head.as_bytes()).expect("the head is sent");
    let slow_body = closed_within(slow_body, body);
    let mut kept = TcpStream::connect(address).expect("a connection");
    let request = format!(
        "POST /api/check HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        String::from_utf8_lossy(body)
    );
    kept.write_all(request.as_bytes()).expect("the request is sent");
    let kept = closed_within(kept, b"");
    for (what, handle) in
        [("slow header", slow_header), ("silent", silent), ("slow body", slow_body), ("kept alive", kept)]
    {
        let took = handle.join().expect("the reader");
        assert!(took < Duration::from_secs(10), "the {what} connection stayed open {took:?}");
    }
    // And the server still answers.
    nim_answers_135(&server);
}

/// A `text/plain` POST (what another site's page may send without asking), another site's
/// `Origin` and a foreign `Host` are refused before anything is computed; the page's own
/// requests are answered.
fn cross_site() {
    let server = Server::start(2, 4, 30.0);
    let raw = |head: String| {
        let body = json!({ "source": game("nim.game"), "position": "41 163 13" }).to_string();
        let mut stream = TcpStream::connect(server.address).expect("a connection");
        let request = format!("{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        stream.write_all(request.as_bytes()).expect("the request is sent");
        read_answer(stream)
    };
    let own = server.address;
    let post = |host: &str, kind: &str, origin: Option<&str>| {
        let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
        raw(format!("POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: {kind}\r\n{origin}"))
    };
    let plain = post(&own.to_string(), "text/plain", Some("http://evil.example"));
    assert_eq!((plain.status, &plain.json["code"]), (403, &json!("takeaway::web::foreign_origin")));
    let plain = post(&own.to_string(), "text/plain;charset=UTF-8", None);
    assert_eq!((plain.status, &plain.json["code"]), (415, &json!("takeaway::web::not_json")));
    let form = post(&own.to_string(), "application/x-www-form-urlencoded", None);
    assert_eq!(form.status, 415);
    let rebound = post(&format!("evil.example:{}", own.port()), "application/json", None);
    assert_eq!((rebound.status, &rebound.json["code"]), (403, &json!("takeaway::web::foreign_host")));
    let other_port = post(&format!("127.0.0.1:{}", own.port().wrapping_add(1)), "application/json", None);
    assert_eq!(other_port.status, 403);
    let page = raw(format!("GET / HTTP/1.1\r\nHost: evil.example:{}\r\n", own.port()));
    assert_eq!(page.status, 403);
    // The page's own requests: by address or by `localhost`, with its own origin or none.
    let origin = format!("http://{own}");
    for (host, origin) in [(own.to_string(), Some(origin.as_str())), (format!("localhost:{}", own.port()), None)] {
        let answer = post(&host, "application/json; charset=utf-8", origin);
        assert_eq!((answer.status, &answer.json["grundy"]), (200, &json!(135)), "{host}: {}", answer.json);
    }
}
