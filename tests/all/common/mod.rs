//! Helpers shared by the front ends' tests: running the built binary, from the project folder or
//! another, with a script on stdin, and a scratch folder for the files they write.
#![allow(dead_code)]

use std::path::PathBuf;

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
