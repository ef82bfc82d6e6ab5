//! Helpers shared by the front ends' tests: running the built binary, from the project folder or
//! another, with a script on stdin, a scratch folder for the files they write, and a `takeaway
//! serve` to ask questions over HTTP.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

pub fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// The built binary started in the repository with `args`, its output piped, not waited for.
pub fn spawn(args: &[&str], stdin: std::process::Stdio) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(stdin)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs the built binary from the project folder, feeding it a file of `tests/` on stdin.
pub fn run_with_script(args: &[&str], script: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let dir = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{dir}/tests/{script}")).unwrap_or_else(|e| panic!("{script}: {e}"));
    // Files a script writes go to a scratch folder, never into the repository or its target.
    let input = text.replace("$SCRATCH", &scratch_dir().display().to_string()).into_bytes();
    let mut child = spawn(args, Stdio::piped());
    child.stdin.take().expect("stdin is piped").write_all(&input).expect("the script is written");
    child.wait_with_output().expect("the binary finishes")
}

/// What a run of the built binary printed, and its exit code.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the built binary from the project folder, without colour.
pub fn takeaway(args: &[&str]) -> Run {
    takeaway_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs the built binary from `dir`, without colour.
pub fn takeaway_in(dir: &std::path::Path, args: &[&str]) -> Run {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A folder of this test run's own, for files the tests write.
pub fn scratch_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("takeaway-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Where the server's stderr goes: kept for a failure to be read.
pub fn server_log() -> Stdio {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-serve.log");
    std::fs::File::create(&path).map_or_else(|_| Stdio::null(), Stdio::from)
}

/// `takeaway serve` on a free port of this machine, started once for the test binary.
pub fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    *ADDRESS.get_or_init(|| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_takeaway"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(server_log())
            .spawn()
            .expect("the server starts");
        let mut first = String::new();
        let mut stdout = child.stdout.take().expect("stdout");
        let mut byte = [0u8; 1];
        while stdout.read(&mut byte).map(|n| n == 1).unwrap_or(false) && byte[0] != b'\n' {
            first.push(byte[0] as char);
        }
        // "takeaway's page: http://127.0.0.1:PORT"
        let address = first.rsplit("http://").next().expect("the address").trim().to_string();
        // The server lives as long as the test binary, and no longer: a static is never
        // dropped, so the binary's exit (through libc's `exit`, after `main` or on a failure)
        // stops it, rather than leaving it to run on after the tests.
        SERVER_PID.store(child.id() as i32, std::sync::atomic::Ordering::SeqCst);
        // SAFETY: `stop_server` is an `extern "C"` function taking nothing, as `atexit` needs;
        // it only reads an atomic and sends a signal.
        unsafe { libc::atexit(stop_server) };
        std::mem::forget(child);
        address.parse().unwrap_or_else(|e| panic!("{first}: {e}"))
    })
}

/// The process of the server `server` started, 0 until it starts.
static SERVER_PID: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Stops the server as the test binary exits.
extern "C" fn stop_server() {
    let pid = SERVER_PID.load(std::sync::atomic::Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: a signal to the child this binary started; nothing else is touched.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
}

/// One POST of JSON to the server, over a plain socket: the status and the JSON body.
pub fn post(verb: &str, body: &Value) -> (u16, Value) {
    post_text(verb, &body.to_string())
}

/// One POST of a body sent as it is (JSON or not), as `post`.
pub fn post_text(verb: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(server()).expect("the server listens");
    let request = format!(
        "POST /api/{verb} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server(),
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("the request is sent");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap_or_else(|e| panic!("{verb} {body}: the answer is not read: {e}"));
    let response = String::from_utf8_lossy(&response);
    let (head, rest) = response.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
    // A chunked body: the chunks' sizes are lines of hexadecimal digits between the JSON.
    let json: String = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        let mut out = String::new();
        let mut lines = rest.split("\r\n");
        while let Some(size) = lines.next() {
            if usize::from_str_radix(size.trim(), 16).map_or(true, |n| n == 0) {
                break;
            }
            out.push_str(lines.next().unwrap_or(""));
        }
        out
    } else {
        rest.to_string()
    };
    (status, serde_json::from_str(&json).unwrap_or_else(|e| panic!("{verb}: not JSON ({e}): {json}")))
}

/// Runs the built binary from the project folder with `input` on stdin; what it printed.
pub fn run_stdin(args: &[&str], input: &str) -> String {
    let mut child = spawn(args, Stdio::piped());
    child.stdin.take().expect("stdin is piped").write_all(input.as_bytes()).expect("the input is written");
    let out = child.wait_with_output().expect("the binary finishes");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}
