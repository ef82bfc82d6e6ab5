//! Helpers shared by the engine's tests: loading games and asking the solver.
#![allow(dead_code)]

pub mod mutate;
pub mod octal;

use std::path::PathBuf;

use takeaway_core::{Budget, Game, Outcome, Position, Solver, Value};

/// The repository's `games/` folder.
pub fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("games")
}

/// A file of the repository, by its path from the repository's root.
pub fn repository_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Loads `games/<name>`, with `--set` style overrides.
pub fn game_with(name: &str, settings: &[(&str, i64)]) -> Game {
    let path = games_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let settings: Vec<(String, takeaway_core::SettingValue)> =
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

/// Game text written in a test, loaded as a question takes it.
pub fn loaded(text: &str) -> takeaway_core::Loaded {
    let source = takeaway_core::Source::new("test.game", text);
    takeaway_core::load_game(source, "test", &[], &takeaway_core::NoLibrary, &Budget::new())
        .unwrap_or_else(|f| panic!("test game does not load: {f}\n{text}"))
}

/// Game text with values for its parameters, loaded as a question takes it.
pub fn loaded_with(text: &str, settings: &[(&str, i64)]) -> takeaway_core::Loaded {
    let settings: Vec<(String, takeaway_core::SettingValue)> =
        settings.iter().map(|(n, v)| (n.to_string(), (*v).into())).collect();
    let source = takeaway_core::Source::new("test.game", text);
    takeaway_core::load_game(source, "test", &settings, &takeaway_core::NoLibrary, &Budget::new())
        .unwrap_or_else(|f| panic!("test game does not load: {f}\n{text}"))
}

/// A game file of `games/`, loaded as a question takes it.
pub fn loaded_file(name: &str) -> takeaway_core::Loaded {
    let text = std::fs::read_to_string(games_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    loaded(&text)
}

/// The table of one question: `args` as the request schema takes them (upto, piles, …).
pub fn table(game: &takeaway_core::Loaded, args: serde_json::Value) -> takeaway_core::answers::Table {
    let serde_json::Value::Object(args) = args else { panic!("arguments are an object") };
    let request = takeaway_core::Request::parse("table", args).expect("a table's arguments");
    match ask(game, &request) {
        Ok(takeaway_core::Answer::Table(t)) => t,
        other => panic!("a table: {other:?}"),
    }
}

/// The report of one `solve`: `args` as the request schema takes them.
pub fn solve_report(game: &takeaway_core::Loaded, args: serde_json::Value) -> takeaway_core::answers::SolveReport {
    let serde_json::Value::Object(args) = args else { panic!("arguments are an object") };
    let request = takeaway_core::Request::parse("solve", args).expect("a solve's arguments");
    match ask(game, &request) {
        Ok(takeaway_core::Answer::Solve(r)) => r,
        other => panic!("a solve: {other:?}"),
    }
}

/// Asks one question on the default budget, with no other games to find.
pub fn ask(
    game: &takeaway_core::Loaded,
    request: &takeaway_core::Request,
) -> Result<takeaway_core::Answer, takeaway_core::Failure> {
    takeaway_core::ask(game, request, &takeaway_core::NoLibrary, &Budget::new())
}

/// A solver on the default budget.
pub fn solver(game: &Game) -> Solver<'_> {
    Solver::new(game, &Budget::new())
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
