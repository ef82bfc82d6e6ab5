//! Any bytes through the typed API: load (parse → check), then solve, explain and a table of
//! small positions, within a small budget. A panic is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use takeaway_core::api::{self, Request};
use takeaway_core::check::NoLibrary;
use takeaway_core::diagnostics::Source;
use takeaway_core::rules::Board;
use takeaway_core::solve::Limits;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(game) = api::load(Source::new("fuzz", text), "fuzz", &[], &NoLibrary) else { return };
    // Small in memory and in work, so that each input runs in milliseconds.
    let limits = Limits { max_work: 50_000, ..Limits::states(5_000) };
    for n in 0..6u64 {
        let position = match game.game.board {
            Board::FixedPiles(k) => vec![n.to_string(); k].join(" "),
            Board::Rows => format!("{n} {n}"),
            _ => n.to_string(),
        };
        let _ = api::ask(&game, &Request::Solve { position: position.clone(), last: None, remoteness: true }, &limits);
        let _ = api::ask(&game, &Request::Explain { position, last: None, all: true }, &limits);
    }
    let _ = api::ask(&game, &Request::Table { upto: 8, options: Default::default() }, &limits);
});
