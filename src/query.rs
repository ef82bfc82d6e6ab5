//! The query verbs shared by the command line and the REPL (`check`, `solve`, `table`,
//! `explain`), so that
//! the same words give the same output in both. Answers and failures come back as text; a
//! failure is the rendered diagnostics.

use crate::diagnostics::{render, Source};
use crate::rules::{parse_position, Game, Position};
use crate::solve::{Limits, Solver};

/// A checked game together with the text it came from, for diagnostics during solving.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub game: Game,
    pub source: Source,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Parses and checks game text; on failure, every diagnostic rendered.
pub fn load(source: Source, default_name: &str, settings: &[(String, i64)], color: bool) -> Result<Loaded, String> {
    match crate::load(&source.text, default_name, settings) {
        Ok(game) => Ok(Loaded { game, source }),
        Err(err) => Err(err.diagnostics().into_iter().map(|d| render(d, Some(&source), color)).collect()),
    }
}

/// Reads a position for the game, with the previous move's size where given.
fn position_of(loaded: &Loaded, position: &str, last: Option<u64>, color: bool) -> Result<Position, String> {
    let pos_source = Source::new("position", position);
    let game = &loaded.game;
    let mut pos = parse_position(game, position).map_err(|e| render(&e, Some(&pos_source), color))?;
    if let Some(l) = last {
        if !game.uses_last {
            return Err(render(&LastUnused { game: game.name.clone() }, None, color));
        }
        pos.last = Some(l);
    }
    Ok(pos)
}

/// Reads the position and runs one analysis on it; failures come back rendered.
fn analyse_position<T>(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    limits: Limits,
    color: bool,
    analyse: fn(&mut Solver, &Position) -> Result<T, crate::solve::SolveError>,
) -> Result<T, String> {
    let pos = position_of(loaded, position, last, color)?;
    let mut solver = Solver::new(&loaded.game, limits);
    analyse(&mut solver, &pos).map_err(|e| render(&e, Some(&loaded.source), color))
}

/// An answer as text, or as one JSON document.
fn show<T: serde::Serialize>(answer: &T, format: Format, text: fn(&T) -> String) -> String {
    match format {
        Format::Text => text(answer),
        Format::Json => json_text(&serde_json::to_value(answer).expect("answers serialise")),
    }
}

/// `explain`: how the answer for the position follows, in the terms of the theory.
pub fn explain(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    format: Format,
    limits: Limits,
    color: bool,
) -> Result<String, String> {
    let e = analyse_position(loaded, position, last, limits, color, crate::analysis::explain)?;
    Ok(show(&e, format, crate::analysis::Explanation::to_text))
}

/// `solve`: outcome, Grundy value and winning moves of the position written in `position`.
pub fn solve(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    format: Format,
    limits: Limits,
    color: bool,
) -> Result<String, String> {
    let report = analyse_position(loaded, position, last, limits, color, crate::analysis::solve)?;
    Ok(show(&report, format, crate::analysis::SolveReport::to_text))
}

/// `table`: every one-pile position up to `upto` (pairs for two-pile games).
pub fn table(
    loaded: &Loaded,
    upto: u64,
    options: crate::analysis::TableOptions,
    format: Format,
    limits: Limits,
    color: bool,
) -> Result<String, Failure> {
    let mut solver = Solver::new(&loaded.game, limits);
    let show = |table: &crate::analysis::Table| match format {
        Format::Text => table.to_text(),
        Format::Json => json_text(&table.to_json()),
    };
    match crate::analysis::table(&mut solver, upto, options) {
        Ok(table) => Ok(show(&table)),
        Err(e) => {
            let rendered = render(&e, Some(&loaded.source), color);
            match &e {
                // What was computed before a limit stopped it still goes to the output.
                crate::analysis::TableError::Incomplete { partial, .. } => {
                    Err(Failure { partial: show(partial), rendered })
                }
                _ => Err(Failure { partial: String::new(), rendered }),
            }
        }
    }
}

/// A failed answer: what could be computed before the failure, and the rendered diagnostics.
#[derive(Debug)]
pub struct Failure {
    pub partial: String,
    pub rendered: String,
}

fn json_text(value: &serde_json::Value) -> String {
    format!("{}\n", serde_json::to_string_pretty(value).expect("JSON values always serialise"))
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("--last was given, but the rules of {game} never read `last`")]
#[diagnostic(code(takeaway::query::last_unused), help("leave out --last for this game"))]
struct LastUnused {
    game: String,
}

/// `compare`: where two games first differ on one pile, the second read `shift` further on.
pub fn compare(
    a: &Loaded,
    b: &Loaded,
    upto: u64,
    shift: u64,
    format: Format,
    limits: Limits,
    color: bool,
) -> Result<String, String> {
    let (mut sa, mut sb) = (Solver::new(&a.game, limits), Solver::new(&b.game, limits));
    let c = crate::analysis::compare(&mut sa, &mut sb, upto, shift).map_err(|e| render(&e, None, color))?;
    Ok(match format {
        Format::Text => c.to_text(),
        Format::Json => json_text(&serde_json::to_value(&c).expect("comparisons serialise")),
    })
}

/// `plot`: the SVG picture of a table: Grundy values of one pile, or a map of P-positions.
pub fn plot(loaded: &Loaded, upto: u64, limits: Limits, color: bool) -> Result<String, String> {
    let mut solver = Solver::new(&loaded.game, limits);
    let table = crate::analysis::table(&mut solver, upto, Default::default())
        .map_err(|e| render(&e, Some(&loaded.source), color))?;
    Ok(crate::analysis::plot::svg(&table))
}
