//! Using takeaway as a library: load a game, ask a table, a solve and an explain through the
//! typed API, and read the answers' fields. Run with `cargo run --example library`.

use serde_json::json;
use takeaway_core::{ask as ask_engine, load_game, Answer, Budget, Failure, NoLibrary, Request, Source};

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(failure) => {
            eprint!("{}", failure.render(false));
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Failure> {
    let text = "game \"Subtraction {1,2,3}\"\npiles\nmove: take 1..3\n";
    // Each question has a budget: the default allows what is estimated to take half a minute.
    let budget = Budget::new();
    let game = load_game(Source::new("tag.game", text), "tag", &[], &NoLibrary, &budget)?;
    // A request is a verb and its arguments, as the command line, the web API and Python send
    // them; what is left out takes the engine's default.
    let ask = |verb: &str, args: serde_json::Value| -> Result<Answer, Failure> {
        let serde_json::Value::Object(args) = args else { unreachable!("the arguments below are objects") };
        let request = Request::parse(verb, args).map_err(|e| Failure::one(e, None))?;
        ask_engine(&game, &request, &NoLibrary, &budget)
    };

    // The table: outcomes and Grundy values of one pile of 0..=12, and its period.
    let table = ask("table", json!({ "upto": 12 }))?;
    if let Answer::Table(t) = &table {
        let p: Vec<u64> = t.p_positions.iter().map(|pos| pos[0]).collect();
        println!("P-positions up to {}: {p:?}", t.upto);
        if let Some(p) = &t.period {
            println!("period {} from n = {} (proven: {})", p.period, p.preperiod, p.proven);
        }
    }

    // A position: its outcome, Grundy value and a winning move.
    let solved = ask("solve", json!({ "position": "7 9 3" }))?;
    if let Answer::Solve(s) = &solved {
        println!("7 9 3: outcome {}, Grundy value {:?}", s.outcome.letter(), s.grundy);
        for m in &s.winning_moves {
            println!("  winning move: {} (to {:?})", m.description, m.to);
        }
    }

    // Why: the explanation, as structured data and as the text a student reads.
    let why = ask("explain", json!({ "position": [7] }))?;
    print!("{}", takeaway_core::render::text(&why));

    // A mistake in the game text is a typed failure with a stable code and a place.
    let bad = load_game(Source::new("bad.game", "pile\nmove: tkae 1..3\n"), "bad", &[], &NoLibrary, &budget);
    if let Err(failure) = bad {
        println!("a bad game: {:?} at {:?}", failure.code(), failure.line_column());
    }
    Ok(())
}
