//! Any bytes through parse → check → solve of small positions: a panic is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use takeaway_core::rules::{Board, Position};
use takeaway_core::solve::{Limits, Solver};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(game) = takeaway_core::load(text, "fuzz", &[]) else { return };
    let mut solver = Solver::new(&game, Limits::states(5_000));
    for n in 0..6u64 {
        let piles = match game.board {
            Board::FixedPiles(k) => vec![n; k],
            Board::Rows => vec![n; 2],
            _ => vec![n],
        };
        let pos = Position::new(piles);
        let _ = solver.value(&pos);
        let _ = solver.winning_moves(&pos);
        let _ = takeaway_core::analysis::explain(&mut solver, &pos);
    }
    let _ = takeaway_core::analysis::table(&mut solver, 8, true);
});
