//! Helpers shared by the integration tests: loading games and asking the solver.
#![allow(dead_code)]

pub mod octal;

use std::path::PathBuf;

use takeaway_core::rules::Position;
use takeaway_core::solve::{Limits, Outcome, Solver, Value};
use takeaway_core::Game;

pub fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Loads `games/<name>`, with `--set` style overrides.
pub fn game_with(name: &str, settings: &[(&str, i64)]) -> Game {
    let path = games_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let settings: Vec<(String, takeaway_core::check::SettingValue)> =
        settings.iter().map(|(n, v)| (n.to_string(), (*v).into())).collect();
    takeaway_core::load(&text, name, &settings).unwrap_or_else(|e| panic!("{name} does not load: {e:?}"))
}

pub fn game(name: &str) -> Game {
    game_with(name, &[])
}

/// Loads game text written in a test.
pub fn game_text(text: &str) -> Game {
    takeaway_core::load(text, "test", &[]).unwrap_or_else(|e| panic!("test game does not load: {e:?}\n{text}"))
}

pub fn solver(game: &Game) -> Solver<'_> {
    Solver::new(game, Limits::default())
}

pub fn value(solver: &mut Solver, piles: &[u64]) -> Value {
    solver.value(&Position::new(piles.to_vec())).unwrap_or_else(|e| panic!("{piles:?}: {e:?}"))
}

pub fn is_p(solver: &mut Solver, piles: &[u64]) -> bool {
    value(solver, piles).outcome == Outcome::P
}

/// The minimum excludant: the least natural number not among `values`.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<u32> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter().enumerate().find(|(i, v)| **v != *i as u32).map(|(i, _)| i as u32).unwrap_or(seen.len() as u32)
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
