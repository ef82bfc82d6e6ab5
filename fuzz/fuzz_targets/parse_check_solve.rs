//! Any bytes through the public API: load (parse → check), then solve, explain and a table of
//! small positions, within a small budget. A panic is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use takeaway_core::{
    ask, load_game, Board, Budget, ExplainArgs, NoLibrary, Request, SolveArgs, Source, TableArgs,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Small in memory and in work, so that each input runs in milliseconds.
    let budget = Budget::new().within(0.01).max_states(5_000);
    let Ok(game) = load_game(Source::new("fuzz", text), "fuzz", &[], &NoLibrary, &budget) else { return };
    for n in 0..6u64 {
        let position = match game.game.board {
            Board::FixedPiles(k) => vec![n.to_string(); k].join(" "),
            Board::Rows => format!("{n} {n}"),
            _ => n.to_string(),
        };
        let solve = Request::Solve(SolveArgs { position: position.as_str().into(), ..Default::default() });
        let _ = ask(&game, &solve, &NoLibrary, &budget);
        let explain = Request::Explain(ExplainArgs { position: position.as_str().into(), all: true, ..Default::default() });
        let _ = ask(&game, &explain, &NoLibrary, &budget);
    }
    let _ = ask(&game, &Request::Table(TableArgs { upto: 8, ..Default::default() }), &NoLibrary, &budget);
});
