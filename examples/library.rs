//! Using takeaway as a library: load a game, ask a table, a solve and an explain through the
//! typed API, and read the answers' fields. Run with `cargo run --example library`.

use takeaway_core::api::{self, Answer, Request};
use takeaway_core::diagnostics::Source;
use takeaway_core::solve::Limits;

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(failure) => {
            eprint!("{}", failure.render(false));
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), api::Failure> {
    let text = "game \"Subtraction {1,2,3}\"\npiles\nmove: take 1..3\n";
    let game = api::load(Source::new("tag.game", text), "tag", &[], &takeaway_core::check::NoLibrary)?;
    let limits = Limits::default();

    // The table: outcomes and Grundy values of one pile of 0..=12, and its period.
    let table = api::ask(&game, &Request::Table { upto: 12, options: Default::default() }, &limits)?;
    if let Answer::Table(t) = &table {
        let p: Vec<u64> = t.p_positions.iter().map(|pos| pos[0]).collect();
        println!("P-positions up to {}: {p:?}", t.upto);
        if let Some(p) = &t.period {
            println!("period {} from n = {} (proven: {})", p.period, p.preperiod, p.proven);
        }
    }

    // A position: its outcome, Grundy value and a winning move.
    let solved = api::ask(&game, &Request::Solve { position: "7 9 3".into(), last: None, remoteness: true }, &limits)?;
    if let Answer::Solve(s) = &solved {
        println!("7 9 3: outcome {}, Grundy value {:?}", s.outcome.letter(), s.grundy);
        for m in &s.winning_moves {
            println!("  winning move: {} (to {:?})", m.description, m.to);
        }
    }

    // Why: the explanation, as structured data and as the text a student reads.
    let why = api::ask(&game, &Request::Explain { position: "7".into(), last: None, all: false }, &limits)?;
    print!("{}", takeaway_core::render::text(&why));

    // A mistake in the game text is a typed failure with a stable code and a place.
    let bad =
        api::load(Source::new("bad.game", "pile\nmove: tkae 1..3\n"), "bad", &[], &takeaway_core::check::NoLibrary);
    if let Err(failure) = bad {
        println!("a bad game: {:?} at {:?}", failure.code(), failure.line_column());
    }
    Ok(())
}
