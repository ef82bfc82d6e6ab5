//! Helpers for the engine's unit tests (the tests of its inner parts: misère monoids,
//! partizan forms, Schwenk's sequences); the tests through the public face are in `tests/`.

use std::path::PathBuf;

use crate::rules::{Game, Position};
use crate::solve::{Limits, Solver, Value};

/// The repository's `games/` folder.
pub(crate) fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("games")
}

/// Loads `games/<name>`.
pub(crate) fn game(name: &str) -> Game {
    let path = games_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    crate::load::load(&text, name, &[]).unwrap_or_else(|e| panic!("{name} does not load: {e:?}"))
}

/// Loads game text written in a test.
pub(crate) fn game_text(text: &str) -> Game {
    crate::load::load(text, "test", &[]).unwrap_or_else(|e| panic!("test game does not load: {e:?}\n{text}"))
}

/// A solver within the default limits.
pub(crate) fn solver(game: &Game) -> Solver<'_> {
    Solver::within(game, Limits::default())
}

pub(crate) fn value(solver: &mut Solver, piles: &[u64]) -> Value {
    solver.value(&Position::new(piles.to_vec())).unwrap_or_else(|e| panic!("{piles:?}: {e:?}"))
}
