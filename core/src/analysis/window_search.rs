//! `period` in a window: the question and its report for a run that keeps only the latest
//! values (`solve::window_run`), for periods past what memory holds (0.106's needs 10¹² values).

use crate::wording::{give, give_value, Argument};

use super::period_search::{PeriodError, PeriodQuestion, PeriodReport, WindowReport, WINDOW_THEOREM};
use crate::rules::Game;
use crate::solve::cycle::{NoStart, Stuck};
use crate::solve::period_run::NoRun;
use crate::solve::window_run::{run_window, WindowError, WindowOutcome, WindowPhase};
use crate::solve::{Limits, SolveError};
use crate::vocab::{grouped, Span};

pub(crate) fn window_search(
    game: &Game,
    question: &PeriodQuestion,
    window: u64,
    limits: &Limits,
) -> Result<PeriodReport, PeriodError> {
    let span = game.moves.first().map_or(Span { start: 0, end: 0 }, |r| r.span);
    let shown = question.checkpoint.as_ref().map(|p| p.display().to_string());
    match run_window(game, window, question.upto, question.checkpoint.as_deref(), limits) {
        Ok(outcome) => Ok(report(game, &outcome, question.upto, shown)),
        Err(e) => Err(failure(game, window, span, e, shown.as_deref(), limits)),
    }
}

fn phase_words(outcome: &WindowOutcome) -> String {
    match outcome.phase {
        WindowPhase::Period { tortoise, lam } => format!(
            "looking for the period (the window at pile {} has not come back in the {} piles after it)",
            grouped(tortoise),
            grouped(lam)
        ),
        WindowPhase::Preperiod { period, behind } => {
            format!("the period is {}; looking for where it starts, past pile {}", grouped(period), grouped(behind))
        }
        WindowPhase::Done => "done".to_string(),
    }
}

fn report(game: &Game, outcome: &WindowOutcome, upto: u64, checkpoint: Option<String>) -> PeriodReport {
    PeriodReport {
        game: game.name.clone(),
        proven: outcome.found,
        theorem: WINDOW_THEOREM,
        needed: outcome.found.map(|_| outcome.furthest),
        suggested: None,
        computed: outcome.furthest,
        upto,
        resumed_at: outcome.resumed_at,
        sparse_space: true,
        value_width: 1,
        largest_value: outcome.largest,
        // The start's values, and up to three copies of the machine's state (two windows each).
        peak_bytes: outcome.start + 6 * outcome.window,
        checkpoint,
        window: Some(WindowReport {
            window: outcome.window,
            prefix: outcome.prefix,
            rare: outcome.rare,
            start: outcome.start,
            steps: outcome.steps,
            steps_now: outcome.steps_now,
            deepest_witness: outcome.deepest,
            phase: phase_words(outcome),
        }),
    }
}

fn failure(
    game: &Game,
    window: u64,
    span: Span,
    e: WindowError,
    checkpoint: Option<&str>,
    limits: &Limits,
) -> PeriodError {
    let name = game.name.clone();
    let start =
        |reason: String, help: String| PeriodError::WindowStart { game: name.clone(), window, reason, help, span };
    match e {
        WindowError::NoRun(NoRun::Misere) => PeriodError::Misere { game: name, span },
        WindowError::NoRun(NoRun::NotCompiled) => PeriodError::NotCompiled { game: name, span },
        WindowError::NoRun(NoRun::NoTheorem) => start(
            "its moves do not take at most a fixed amount, so no window holds what a value needs".into(),
            "a window's run is for octal games and other rules whose takes are bounded".into(),
        ),
        WindowError::NoStart(NoStart::RareAfterPrefix(last)) => start(
            format!("pile {} has a rare value, past the prefix the window leaves room for", grouped(last)),
            format!("give a window longer than the last rare pile: {}", give_value(Argument::Window, (last + 1).next_power_of_two().max(window * 2))),
        ),
        WindowError::NoStart(NoStart::WindowTooShort(least)) => start(
            "it is too short for the prefix and the largest take".into(),
            format!("give at least {}", give_value(Argument::Window, least)),
        ),
        WindowError::NoStart(NoStart::NotSparse) => start(
            "its values have no sparse-space classes: a split into two common values can reach the next common one, so no window decides a value".into(),
            format!("leave out {} for the run that keeps every value", give(Argument::Window)),
        ),
        WindowError::NoStart(NoStart::TooLarge) => start(
            "a value passes 127, the most a window's run handles".into(),
            format!("leave out {} for the run that keeps every value", give(Argument::Window)),
        ),
        WindowError::Stuck(Stuck::NoWitness { pile, value }) => PeriodError::WindowStuck {
            pile,
            reason: format!(
                "no split with its smaller part among the first piles reaches the value {value}, and a split out of the window might"
            ),
            help: format!("every value up to it is the game's; a longer {} keeps more of them", give(Argument::Window)),
        },
        WindowError::Stuck(Stuck::TooLarge { pile }) => PeriodError::WindowStuck {
            pile,
            reason: "its value would pass 127, the most a window's run handles".into(),
            help: format!("leave out {} for the run that keeps every value", give(Argument::Window)),
        },
        WindowError::Checkpoint(e) => PeriodError::Checkpoint(e),
        WindowError::Stopped(cause, outcome) => {
            let further = match &cause {
                SolveError::PileWorkLimit { .. } => {
                    format!("; {} lets one run examine four times as many moves", limits.more_moves(4.0))
                }
                _ => String::new(),
            };
            let resume = match checkpoint {
                Some(path) => format!(
                    "the search so far is in the checkpoint {path} ({}): run the same command again to go on{further}",
                    phase_words(&outcome)
                ),
                None => format!(
                    "give {} to keep a stopped search and go on from there{further}",
                    give_value(Argument::Checkpoint, "FILE")
                ),
            };
            PeriodError::Stopped { at: outcome.furthest, cause, resume }
        }
        WindowError::Solve(e) => PeriodError::Solve(e),
    }
}
