//! The JSON API over HTTP on localhost: every question, every error status, concurrent and
//! slow questions and a bounded load (the mutated requests are asked of `takeaway serve` in the
//! top-level tests, so that `cargo test` runs them).

mod common;

use std::time::Duration;

use serde_json::{json, Value};

use common::{game, server};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// POSTs `body` (sent as is) to /api/`verb`: the status and the JSON answer.
fn post_raw(verb: &str, body: &str) -> (u16, Value) {
    let url = format!("http://{}/api/{verb}", server());
    let mut response =
        agent().post(&url).header("Content-Type", "application/json").send(body).expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().with_config().limit(64 << 20).read_to_string().expect("a body");
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}")))
}

fn post(verb: &str, body: Value) -> (u16, Value) {
    post_raw(verb, &body.to_string())
}

#[test]
fn the_page_and_the_bundled_games_are_served() {
    let url = format!("http://{}/", server());
    let mut page = agent().get(&url).call().expect("the page");
    assert_eq!(page.status().as_u16(), 200);
    let html = page.body_mut().read_to_string().expect("text");
    assert!(html.contains("<textarea id=\"source\""));
    // Offline: nothing is fetched from another host.
    assert!(!html.contains("http://") && !html.contains("https://"), "the page loads nothing from outside");
    assert!(html.contains("<script src=\"/page.js\">"));
    let mut script = agent().get(&format!("http://{}/page.js", server())).call().expect("the script");
    assert_eq!(script.status().as_u16(), 200);
    assert!(script.headers().get("content-type").unwrap().to_str().unwrap().starts_with("text/javascript"));
    let script = script.body_mut().read_to_string().expect("text");
    // The only address in it is SVG's namespace, a name rather than a place to load from.
    let outside = script.replace("http://www.w3.org/2000/svg", "");
    assert!(!outside.contains("http://") && !outside.contains("https://"), "the script loads nothing from outside");
    let mut games = agent().get(&format!("http://{}/api/games", server())).call().expect("the games");
    let games: Value = games.body_mut().read_json().expect("JSON");
    let files: Vec<&str> = games["games"].as_array().unwrap().iter().map(|g| g["file"].as_str().unwrap()).collect();
    assert!(files.contains(&"nim.game") && files.contains(&"kayles.game"));
    let nim = games["games"].as_array().unwrap().iter().find(|g| g["file"] == "nim.game").unwrap();
    assert_eq!(nim["name"], "Nim");
    assert_eq!(nim["source"], game("nim.game"));
}

#[test]
fn every_question_answers_with_the_command_lines_json() {
    let nim = game("nim.game");
    let (status, solved) = post("solve", json!({ "source": nim, "position": "41 163 13" }));
    assert_eq!(status, 200);
    assert_eq!(solved["grundy"], 135);
    assert_eq!(solved["winning_moves"][0]["to"], json!([41, 36, 13]));
    assert_eq!(solved["winning_moves"][0]["move"], "take 127 from the pile of 163");

    let (status, checked) = post("check", json!({ "source": nim }));
    assert_eq!((status, checked["game"].as_str()), (200, Some("Nim")));

    let (status, explained) = post("explain", json!({ "source": nim, "position": "25 28 10", "format": "text" }));
    assert_eq!(status, 200);
    assert!(explained["text"].as_str().unwrap().contains("The nim-sum (XOR) is 15"));

    let tag = game("tag.game");
    let (status, table) = post("table", json!({ "source": tag, "upto": 12 }));
    assert_eq!(status, 200);
    assert_eq!(table["p_positions"], json!([0, 4, 8, 12]));
    assert_eq!(table["grundy"], json!([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]));
    assert_eq!(table["period"]["period"], 4);
    assert_eq!(table["period"]["proven"], true);

    let (status, plot) = post("plot", json!({ "source": game("kayles.game"), "upto": 30 }));
    assert_eq!(status, 200);
    assert!(plot["svg"].as_str().unwrap().starts_with("<svg"));

    let (status, quotient) = post("quotient", json!({ "source": game("misere-kayles.game") }));
    assert_eq!(status, 200);
    assert_eq!(quotient["order"], 40);

    let (status, period) = post("period", json!({ "source": game("kayles.game") }));
    assert_eq!(status, 200);
    assert_eq!((period["preperiod"].as_u64(), period["period"].as_u64()), (Some(71), Some(12)));

    // Settings, as --set gives them.
    let set = game("subtraction-set.game");
    let (status, table) = post("table", json!({ "source": set, "upto": 6, "settings": { "S": [1, 2, 3] } }));
    assert_eq!(status, 200);
    assert_eq!(table["grundy"], json!([0, 1, 2, 3, 0, 1, 2]));

    // Partizan values and outcome classes, as the command line gives them.
    let (status, partizan) = post("table", json!({ "source": game("partizan-one-or-two.game"), "upto": 5 }));
    assert_eq!(status, 200);
    let values: Vec<&str> = partizan["rows"].as_array().unwrap().iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["0", "1", "{1|0}", "0", "1", "{1|0}"]);
}

#[test]
fn play_is_one_step_per_request_and_notes_where_the_win_slipped() {
    let tag = game("tag.game");
    let (status, start) = post("play", json!({ "source": tag, "position": "10" }));
    assert_eq!(status, 200);
    assert_eq!(
        (start["position"].clone(), start["outcome"].clone(), start["over"].clone()),
        (json!([10]), json!("N"), json!(false))
    );
    assert_eq!(start["moves"].as_array().unwrap().len(), 3);
    let (_, hint) = post("play", json!({ "source": tag, "position": "10", "hint": true }));
    assert_eq!(hint["hint"]["to"], json!([8]));
    // 10 → 9 lets the win go (9 is N); the computer answers 9 → 8, a P-position for the player.
    let (status, step) = post("play", json!({ "source": tag, "position": "10", "to": "9" }));
    assert_eq!(status, 200);
    assert_eq!(step["you"]["slip"]["better"], "take 2 from the pile of 10");
    assert_eq!(step["computer"]["to"], json!([8]));
    assert_eq!(step["position"], json!([8]));
    let (_, hint) = post("play", json!({ "source": tag, "position": "8", "hint": true }));
    assert_eq!(hint["hint"]["kind"], "lost");
    // The last counters: the player takes 3 from 3 and wins.
    let (_, end) = post("play", json!({ "source": tag, "position": "3", "to": "0" }));
    assert_eq!((end["over"].clone(), end["winner"].clone()), (json!(true), json!("you")));
    assert!(end.get("computer").is_none());
    // The computer moves first when asked.
    let (_, first) = post("play", json!({ "source": tag, "position": "10", "computer": true }));
    assert_eq!(first["computer"]["to"], json!([8]));
    // A move that is not legal is refused, not played.
    let (status, wrong) = post("play", json!({ "source": tag, "position": "10", "to": "2" }));
    assert_eq!(status, 422);
    assert_eq!(wrong["code"], "takeaway::query::not_a_move");
}

#[test]
fn a_bad_game_is_422_with_the_diagnostic_as_data() {
    let (status, body) = post("check", json!({ "source": "game \"x\"\npiles\nmove: take 1..k\n" }));
    assert_eq!(status, 422);
    assert_eq!(body["kind"], "game");
    assert_eq!(body["code"], "takeaway::check::unknown_name");
    let d = &body["diagnostics"][0];
    assert_eq!(d["message"], "unknown name `k`");
    assert_eq!(d["help"], "the names here are `n`, `t`, `last`");
    assert_eq!((d["labels"][0]["line"].as_u64(), d["labels"][0]["column"].as_u64()), (Some(3), Some(15)));
    assert_eq!(d["labels"][0]["end_column"], 16);
    assert!(body["rendered"].as_str().unwrap().contains("move: take 1..k"));

    let (status, body) = post("solve", json!({ "source": game("nim.game"), "position": "3 x" }));
    assert_eq!((status, body["code"].as_str()), (422, Some("takeaway::position::not_a_number")));
    assert_eq!(body["diagnostics"][0]["source"], "position");

    let (status, body) = post("quotient", json!({ "source": game("nim.game") }));
    assert_eq!((status, body["kind"].as_str()), (422, Some("question")));
}

#[test]
fn malformed_oversized_and_unknown_requests_have_their_own_status() {
    let (status, body) = post_raw("solve", "{\"source\": ");
    assert_eq!((status, body["code"].as_str()), (400, Some("takeaway::web::malformed")));
    let (status, _) = post_raw("solve", "[1, 2]");
    assert_eq!(status, 400);
    let (status, body) = post("solve", json!({ "source": "pile\nmove: take 1", "positon": "3" }));
    assert_eq!(status, 400);
    assert!(body["diagnostics"][0]["message"].as_str().unwrap().contains("unknown field `positon`"));
    let (status, _) = post("solve", json!({ "position": "3" }));
    assert_eq!(status, 400);
    let big = "x".repeat(takeaway_web::MOST_BODY_BYTES + 1);
    let (status, body) = post("check", json!({ "source": big }));
    assert_eq!((status, body["code"].as_str()), (413, Some("takeaway::web::too_large")));
    let (status, body) = post("solev", json!({ "source": "pile\nmove: take 1" }));
    assert_eq!((status, body["code"].as_str()), (404, Some("takeaway::web::unknown_question")));
    // `compare` needs the other game: a bundled game's name, or its text.
    let (status, body) = post("compare", json!({ "source": "pile\nmove: take 1" }));
    assert_eq!((status, body["code"].as_str()), (400, Some("takeaway::query::invalid")));
    let (status, body) = post("table", json!({ "source": game("tag.game"), "upto": 1_000_000_000u64 }));
    assert_eq!((status, body["code"].as_str()), (422, Some("takeaway::table::too_long_to_write")));
    // A picture of every Chomp board to 1000 × 1000 is some 60 MB: refused from its size, before
    // anything is computed.
    let (status, body) = post("plot", json!({ "source": game("chomp.game"), "upto": 1000 }));
    assert_eq!((status, body["code"].as_str()), (422, Some("takeaway::table::picture_too_large")));
    // The server never writes a file a request names.
    let (status, body) = post("period", json!({ "source": game("tag.game"), "checkpoint": "/tmp/x" }));
    assert_eq!((status, body["code"].as_str()), (422, Some("takeaway::web::not_on_the_server")));
}

#[test]
fn hopeless_and_slow_questions_are_refused_not_left_running() {
    // Refused from the estimate, at once.
    let (status, body) = post("solve", json!({ "source": game("grundys-game.game"), "position": "1000000000000" }));
    assert_eq!((status, body["kind"].as_str()), (422, Some("refused")));
    assert_eq!(body["code"], "takeaway::solve::too_much_work");
    // Refused from the estimate of the request's own time (at most the server's): the grid of
    // 3·10⁷ positions below it cannot be valued in a fifth of a second.
    let wythoff = game("three-pile-wythoff.game");
    let (status, body) = post("solve", json!({ "source": wythoff, "position": "300 310 320", "timeout": 0.2 }));
    assert_eq!((status, body["kind"].as_str()), (422, Some("refused")), "{body}");
    // Stopped by it: a period run looks as far as its time allows.
    let (status, body) = post("period", json!({ "source": game("splittles.game"), "timeout": 0.2 }));
    assert_eq!((status, body["kind"].as_str()), (422, Some("timeout")), "{body}");
}

#[test]
fn a_slow_question_does_not_hold_up_quick_ones() {
    let (tx, rx) = std::sync::mpsc::channel();
    let slow = {
        let tx = tx.clone();
        std::thread::spawn(move || {
            // Runs to the server's timeout of 3 s.
            let (status, body) = post("period", json!({ "source": game("octal-0.354.game") }));
            tx.send(("slow", status, body["kind"].clone())).unwrap();
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..5 {
        let (status, body) = post("solve", json!({ "source": game("nim.game"), "position": "3 5 6" }));
        tx.send(("quick", status, body["outcome"].clone())).unwrap();
    }
    slow.join().unwrap();
    drop(tx);
    let order: Vec<_> = rx.iter().collect();
    assert_eq!(order.len(), 6);
    assert!(
        order[..5].iter().all(|(what, status, outcome)| *what == "quick" && *status == 200 && outcome == "P"),
        "{order:?}"
    );
    assert_eq!((order[5].0, order[5].1, order[5].2.as_str()), ("slow", 422, Some("timeout")));
}

#[test]
fn a_load_of_concurrent_requests_all_answer() {
    let nim = game("nim.game");
    let tag = game("tag.game");
    let workers: Vec<_> = (0..8)
        .map(|w| {
            let (nim, tag) = (nim.clone(), tag.clone());
            std::thread::spawn(move || {
                for i in 0..40u64 {
                    let (a, b, c) = (w * 7 + i, i * 3 + 1, w + 2 * i);
                    let (status, body) = match i % 4 {
                        0 => post("solve", json!({ "source": nim, "position": format!("{a} {b} {c}") })),
                        1 => post("table", json!({ "source": tag, "upto": i })),
                        2 => post("check", json!({ "source": nim })),
                        _ => post("play", json!({ "source": tag, "position": (i + 1).to_string() })),
                    };
                    assert_eq!(status, 200, "{body}");
                    if i % 4 == 0 {
                        assert_eq!(body["grundy"], a ^ b ^ c);
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("every request answered");
    }
}

/// The manual's `curl` example (docs/src/web.md) answers what the manual says it does.
#[test]
fn the_manual_curl_example_prints_what_it_says() {
    let readme =
        std::fs::read_to_string(format!("{}/../docs/src/web.md", env!("CARGO_MANIFEST_DIR"))).expect("the chapter");
    let mut lines = readme.lines().skip_while(|l| !l.starts_with("curl -s localhost:8080/api/solve"));
    let command = lines.next().expect("the curl line");
    let printed = lines.next().and_then(|l| l.strip_prefix("# ")).expect("what it prints");
    let body = command.split_once(" --json '").and_then(|(_, b)| b.strip_suffix('\'')).expect("a body in quotes");
    let (status, answer) = post_raw("solve", body);
    assert_eq!(status, 200);
    assert_eq!(answer, serde_json::from_str::<Value>(printed).expect("JSON in the chapter"));
}

/// POSTs a question and reads the whole body as text, with its status and content type.
fn post_text(verb: &str, body: Value) -> (u16, String, String) {
    let url = format!("http://{}/api/{verb}", server());
    let mut response = agent()
        .post(&url)
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .expect("the server answers");
    let status = response.status().as_u16();
    let kind =
        response.headers().get("content-type").map(|v| v.to_str().unwrap_or_default().to_string()).unwrap_or_default();
    (status, kind, response.body_mut().with_config().limit(64 << 20).read_to_string().expect("a body"))
}

#[test]
fn a_table_in_csv_is_the_command_lines_bytes() {
    let kayles = game("kayles.game");
    let (status, kind, csv) = post_text("table", json!({ "source": kayles, "upto": 500, "format": "csv" }));
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/csv"), "{kind}");
    let loaded = takeaway_core::load_game(
        takeaway_core::Source::new("kayles.game", &kayles),
        "kayles",
        &[],
        &takeaway_core::NoLibrary,
        &takeaway_core::Budget::new(),
    )
    .unwrap();
    let mut expected = Vec::new();
    let args = takeaway_core::TableArgs { upto: 500, ..Default::default() };
    takeaway_core::write_table(
        &loaded,
        &args,
        &takeaway_core::Budget::new(),
        takeaway_core::TableFormat::Csv,
        &mut expected,
    )
    .unwrap()
    .unwrap();
    assert_eq!(csv.as_bytes(), expected.as_slice());
    // Kayles (Guy–Smith): the values repeat with period 12 from 71, and 70 is an exception.
    let g = |n: usize| csv.lines().nth(n + 1).unwrap().split(',').nth(2).unwrap().to_string();
    assert!((71..=488).all(|n| g(n) == g(n + 12)));
    assert_ne!(g(70), g(82));
    // CSV is a table's format only.
    let (status, answer) = post("solve", json!({ "source": kayles, "position": "5", "format": "csv" }));
    assert_eq!(status, 400);
    assert_eq!(answer["code"], "takeaway::web::malformed");
}

#[test]
fn a_streamed_question_sends_the_engines_progress_then_its_answer() {
    let dawson = game("misere-dawsons-kayles.game");
    let (status, kind, body) =
        post_text("quotient", json!({ "source": dawson, "upto": 30, "stream": true, "timeout": 3 }));
    assert_eq!(status, 200);
    assert!(kind.starts_with("application/x-ndjson"), "{kind}");
    let lines: Vec<Value> = body.lines().map(|l| serde_json::from_str(l).expect("a line of JSON")).collect();
    let (last, progress) = lines.split_last().expect("lines");
    assert!(!progress.is_empty(), "progress before the answer: {body}");
    let mut before = 0;
    for p in progress {
        let p = &p["progress"];
        assert_eq!(p["stage"], "pile values");
        assert_eq!(p["total"], 31, "heaps 0..=30");
        let done = p["done"].as_u64().unwrap();
        assert!(done >= before && done <= 31, "counts go up: {body}");
        before = done;
    }
    // The last line: the status and body the question has unstreamed (here: done, or out of
    // the 3 s it was given).
    match last["status"].as_u64() {
        Some(200) => assert!(last["body"]["order"].is_u64() || last["body"].is_object(), "{last}"),
        Some(422) => assert_eq!(last["body"]["kind"], "timeout", "{last}"),
        other => panic!("status {other:?}: {last}"),
    }
    // A quick question streamed: no progress, the answer at once.
    let (_, _, body) =
        post_text("solve", json!({ "source": game("nim.game"), "position": "41 163 13", "stream": true }));
    let answer: Value = serde_json::from_str(body.lines().last().unwrap()).unwrap();
    assert_eq!((answer["status"].as_u64(), answer["body"]["grundy"].as_u64()), (Some(200), Some(135)));
    let (status, answer) = post("solve", json!({ "source": game("nim.game"), "position": "1", "stream": "yes" }));
    assert_eq!((status, answer["code"].as_str()), (400, Some("takeaway::web::malformed")));
}

/// An answer too large for the page is refused with the same status and body whether it is
/// streamed or not (the stream's last line carries them).
#[test]
fn an_answer_too_large_for_the_page_is_refused_alike_streamed_or_not() {
    let kayles = game("kayles.game");
    let question = json!({ "source": kayles, "upto": 4_000_000 });
    let (status, answer) = post("table", question.clone());
    assert_eq!((status, answer["code"].as_str()), (422, Some("takeaway::web::answer_too_large")));
    let mut streamed = question;
    streamed["stream"] = json!(true);
    let (status, _, body) = post_text("table", streamed);
    assert_eq!(status, 200);
    let last: Value = serde_json::from_str(body.lines().last().expect("a line")).expect("JSON");
    assert!(
        last == json!({ "status": 422, "body": answer }),
        "the last line differs: {}",
        &body[..body.len().min(500)]
    );
}

#[test]
fn about_gives_the_longest_time_and_no_address_on_loopback() {
    let mut about = agent().get(&format!("http://{}/api/about", server())).call().expect("about");
    let about: Value = about.body_mut().read_json().expect("JSON");
    // The tests' server: 3 s at most; on 127.0.0.1 nobody else can open it.
    assert_eq!(about["timeout"], 3.0);
    assert_eq!(about["default_timeout"], 3.0);
    assert_eq!(about["urls"], json!([]));
    assert_eq!(about["qr"], Value::Null);
    // The page's fields start at the engine's defaults.
    let defaults = json!({"table-upto": 30, "plot-upto": 60, "play-strength": 100});
    assert_eq!(about["defaults"], defaults);
    assert_eq!(takeaway_core::defaults::TABLE_UPTO, 30);
    // A server on every address names the machine's other addresses, each with the port.
    let everywhere: std::net::SocketAddr = "0.0.0.0:8123".parse().unwrap();
    for url in takeaway_web::urls(everywhere) {
        assert!(url.starts_with("http://") && url.ends_with(":8123/"), "{url}");
        assert!(!url.contains("127.0.0.1") && !url.contains("[::1]"), "{url}");
    }
    let qr = takeaway_web::qr_text("http://192.0.2.7:8080/").expect("a code");
    // Version 2 (25 modules) with a quiet zone of 4 on each side: 33 columns, two rows a line.
    assert_eq!(qr.lines().next().unwrap().chars().count(), 33);
}

#[test]
fn a_question_longer_than_the_socket_timeout_still_answers_and_an_idle_socket_still_closes() {
    // A server whose sockets wait at most 1 s for a byte: a question computing for seconds reads
    // nothing from its client all that time, and must still answer, streamed or not.
    let config = takeaway_web::Config { timeout: 60.0, socket_timeout: Duration::from_secs(1), ..Default::default() };
    let address = common::start("127.0.0.1:0", config);
    let dawson = game("misere-dawsons-kayles.game");
    let body = json!({ "source": dawson, "upto": 33, "timeout": 60 }).to_string();
    let started = std::time::Instant::now();
    let mut response = agent()
        .post(&format!("http://{address}/api/quotient"))
        .header("Content-Type", "application/json")
        .send(&body)
        .expect("an answer, not a closed connection");
    assert!(started.elapsed() > Duration::from_secs(1), "the question took longer than the socket timeout");
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = response.body_mut().read_json().expect("JSON");
    // Misère Dawson's Kayles to heap 33: a quotient of order 638 (as `takeaway quotient` says).
    assert_eq!(answer["order"], 638, "{}", answer["order"]);
    let streamed = json!({ "source": dawson, "upto": 33, "timeout": 60, "stream": true }).to_string();
    let mut response = agent()
        .post(&format!("http://{address}/api/quotient"))
        .header("Content-Type", "application/json")
        .send(&streamed)
        .expect("a streamed answer");
    let text = response.body_mut().with_config().limit(64 << 20).read_to_string().expect("the whole stream");
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!((last["status"].as_u64(), last["body"]["order"].as_u64()), (Some(200), Some(638)));
    // A connection that sends nothing is still closed, after the socket timeout.
    use std::io::Read;
    let mut idle = std::net::TcpStream::connect(address).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let started = std::time::Instant::now();
    let mut buf = [0u8; 16];
    let read = idle.read(&mut buf);
    assert!(matches!(read, Ok(0) | Err(_)), "closed: {read:?}");
    assert!(started.elapsed() < Duration::from_secs(6), "closed after {:?}", started.elapsed());
}
