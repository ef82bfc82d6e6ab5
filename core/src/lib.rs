//! takeaway-core: the engine of takeaway, a small language for combinatorial take-away games
//! and a solver for them, with no terminal in it.
//!
//! A game is text in the takeaway language (`game "TAG"`, `pile`, `move: take 1..3`), loaded
//! and checked into a [`Loaded`] game. A question about it is a [`Request`]: a verb and its
//! arguments, parsed from JSON with every default written once ([`Request::parse`]), the same
//! schema the command line, the REPL, the web page and Python use. [`ask`] answers it within
//! its [`Budget`] (its time, memory, cancel token and progress) with an [`Answer`] (plain data,
//! serialisable), or a [`Failure`] (diagnostics with stable codes, spans and help, and the
//! [`FailureKind`] a front end answers by). [`render`] turns both into text, JSON, CSV or SVG.
//!
//! ```no_run
//! use takeaway_core::{ask, read_game, Answer, Budget, NoLibrary, Request, SolveArgs};
//! let budget = Budget::new();
//! let game = read_game("games/nim.game".as_ref(), &[], Vec::new(), &budget)?;
//! let request = Request::Solve(SolveArgs { position: "41 163 13".into(), ..Default::default() });
//! if let Answer::Solve(s) = ask(&game, &request, &NoLibrary, &budget)? {
//!     assert_eq!(s.grundy, Some(135));
//! }
//! # Ok::<(), takeaway_core::Failure>(())
//! ```
//!
//! Inside, each stage owns its data and its errors: `syntax` (text → `ast`) → `check`
//! (meaning → `rules::Game`) → `solve` (outcomes and Grundy values, by the engine the rules'
//! shape chooses) → `analysis` (reports) → `api` (requests and answers under a budget) →
//! `render`. Only what the front ends and a library user need is public.
#![warn(missing_docs, unreachable_pub, unnameable_types)]
// A table's or a period run's error carries what was computed before it stopped and the
// diagnostic's text; it is built once per question, never on a hot path, so its size costs
// nothing worth a box at every site that builds or matches it.
#![allow(clippy::result_large_err)]

mod analysis;
mod api;
mod ast;
mod check;
pub mod defaults;
mod diagnostics;
mod files;
mod play;
pub mod render;
mod rules;
mod solve;
mod syntax;
mod vocab;
pub mod wording;

use miette::Diagnostic;
use thiserror::Error;

pub use analysis::sweep::SweepRow;
pub use api::MOST_GAME_FILE_BYTES;
pub use api::{
    ask, load_game, load_text, parse_count, parse_setting, position_of, read_game, read_game_text, Answer, Budget,
    BudgetArgs, CompareArgs, DiagnosticData, Error, ExplainArgs, Failure, FailureKind, GameText, Games, LabelData,
    Loaded, OtherGame, PeriodArgs, PlayArgs, PlotArgs, PositionText, QuotientArgs, Request, Setting, Settings,
    SolveArgs, TableArgs, BUDGET_ARGUMENTS, VERBS,
};
pub use api::{
    asked_of_family, checksum_of, in_family_order, mark_same_values, octal_codes, octal_game, sweep, sweep_game,
    RowStatus, RowsError, RowsFile, RowsFormat, SweepArgs, SweepGame, SweepReport,
};
pub use check::{Library, Lookup, NoLibrary, SettingValue};
pub use diagnostics::Source;
pub use files::write_file;
pub use play::{pick, Advice, ForPlayer, Hint, Hottest, Kept, Play, Player, Slip, Status, Strength};
pub use render::{write_table, TableFormat};
pub use rules::{Board, Game, Move, Position};
pub use solve::partizan::{PartizanOutcome, PartizanSolver};
pub use solve::progress::{CancelToken, Progress, Reporter, Stage};
pub use solve::{MethodKind, Outcome, Solver, Value};
pub use syntax::MAX_TEXT as MOST_GAME_TEXT_BYTES;
pub use vocab::{Convention, Side};

/// The data of each answer: what `solve`, `table`, `explain`, … found, field by field (the
/// same fields their JSON has).
pub mod answers {
    pub use crate::analysis::compare::Side as ComparedGame;
    pub use crate::analysis::explain::{
        Answer as ExplainedAnswer, CellOption, CellValue, Column, NimSumMove, OptionOutcome, OptionValue, Step,
    };
    pub use crate::analysis::heat::{Cooled, DrawnThermograph, SumHeat, ThermographPlot};
    pub use crate::analysis::partizan::{
        ExplainedOption, OutcomePeriod, PartizanExplanation, PartizanReport, PartizanRow, PartizanTable,
    };
    pub use crate::analysis::period_search::PeriodReport;
    pub use crate::analysis::periods::Periodicity;
    pub use crate::analysis::{
        BigSolveReport, BigWinningMove, Comparison, DrawLineReport, Explanation, LastGrid, MisereColumns,
        QuotientReport, SolveReport, Table, TableShape, WinningMove,
    };
    pub use crate::api::{
        CheckReport, ForPlayer, PlayStep, PlayerMove, Plot, RuleSide, StepHint, StepHottest, StepMove, StepPosition,
        StepSlip, TwoRowBoards,
    };
    pub use crate::solve::misere::presentation::Presentation;
    pub use crate::solve::misere::Proven;
    pub use crate::solve::partizan::Heat;
}

/// Every stage's diagnostics: one error type per stage, each a `miette::Diagnostic` with a
/// stable code named after its stage (`takeaway::check::unknown_name`) and a `kind()`.
pub mod errors {
    pub use crate::analysis::period_search::PeriodError;
    pub use crate::analysis::{CompareError, QuotientError, TableError};
    pub use crate::api::{FileError, RequestError};
    pub use crate::check::CheckError;
    pub use crate::rules::expr::EvalError;
    pub use crate::rules::move_error::{PartError, SourceText};
    pub use crate::rules::{MoveError, PositionError};
    pub use crate::solve::checkpoint::CheckpointError;
    pub use crate::solve::misere::MisereError;
    pub use crate::solve::SolveError;
    pub use crate::syntax::ParseError;
    pub use crate::vocab::Span;
    pub use crate::LoadError;
}

/// The language's words and the outline of a text, for editors and a REPL: what to complete,
/// whether a definition typed so far is finished, where its rules are, and how to add rules to
/// a game without checking every rule again.
pub mod text {
    pub use crate::api::{extend, without_moves};
    pub use crate::api::{rule_moves, Fix, RuleMoves};
    pub use crate::syntax::{
        complete, format, keyword_help, outline, symbols, tokens, Completion, CompletionKind, Outline, Symbol,
        SymbolKind, Token, TokenKind,
    };

    /// Every word of the language and every name a rule may read or call, for completion.
    pub fn words() -> Vec<&'static str> {
        let mut words = crate::syntax::keywords();
        words.extend(["n", "t", "last"]);
        words.extend(crate::rules::expr::Func::names());
        words
    }

    /// The language's keywords alone.
    pub fn keywords() -> Vec<&'static str> {
        crate::syntax::keywords()
    }
}

/// What the benchmark and the engine's own tests switch that a question never does: not part
/// of the API, and free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::solve::fnv::{fnv1a, FNV_START};
    pub use crate::solve::heap::values::Values;
    pub use crate::solve::loopy::{DrawLine, LoopyValue};
    pub use crate::solve::partizan::dyadic::Dyadic;
    pub use crate::solve::partizan::thermo::{ThermalValue, Thermograph, Wall};
    pub use crate::solve::{kernel_values, SparseMode};

    /// `budget` with the take-and-break kernel held to one sparse-space variant.
    pub fn with_sparse_mode(budget: crate::Budget, mode: SparseMode) -> crate::Budget {
        budget.map_limits(|l| crate::solve::Limits { sparse: mode, ..l })
    }

    /// `budget` keeping every pile's value, or a window of them from `from` on.
    pub fn with_window(budget: crate::Budget, from: u64, prefix: usize, recent: usize) -> crate::Budget {
        budget.map_limits(|l| crate::solve::Limits { table: crate::solve::Table::Window { from, prefix, recent }, ..l })
    }

    /// The general search alone, whatever the rules: the reference the fast methods are
    /// tested against.
    pub fn generic_solver<'g>(game: &'g crate::Game, budget: &crate::Budget) -> crate::Solver<'g> {
        crate::Solver::generic(game, budget.limits().clone())
    }

    /// The moves `budget` lets a question examine.
    pub fn moves_allowed(budget: &crate::Budget) -> u64 {
        budget.limits().max_work
    }

    /// The single piles whose values `budget` lets a question keep.
    pub fn piles_allowed(budget: &crate::Budget) -> usize {
        budget.limits().max_piles()
    }
}

/// Why game text could not be loaded: one parse error, every semantic error found, or the
/// question's budget stopped the reading.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum LoadError {
    /// The text does not parse: the first place it goes wrong.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(#[from] syntax::ParseError),
    /// The text parses, but these statements make no sense together.
    #[error("{} errors in the game", .0.len())]
    Check(Vec<check::CheckError>),
    /// The question's deadline passed, or it was cancelled, while the game was read.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Stopped(solve::SolveError),
}

impl LoadError {
    /// Each diagnostic on its own, in the order of the text.
    pub fn diagnostics(&self) -> Vec<&dyn Diagnostic> {
        match self {
            LoadError::Parse(e) => vec![e as &dyn Diagnostic],
            LoadError::Check(errors) => errors.iter().map(|e| e as &dyn Diagnostic).collect(),
            LoadError::Stopped(e) => vec![e as &dyn Diagnostic],
        }
    }
}

/// Parses and checks game text: the game, or every diagnostic. `default_name` names a game that
/// has no `game` line; `settings` give its parameters values. (A front end loads with
/// [`load_game`], which keeps the text for diagnostics and reads a question's budget.)
pub fn load(
    text: &str,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
) -> Result<Game, LoadError> {
    load_with(text, default_name, settings, &check::NoLibrary, &solve::Limits::default())
}

/// Parses and checks game text whose product statement (if any) names games in `library`,
/// within `limits` (its deadline and cancel token).
pub(crate) fn load_with(
    text: &str,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
    library: &dyn check::Library,
    limits: &solve::Limits,
) -> Result<Game, LoadError> {
    solve::check_cancel(limits).map_err(LoadError::Stopped)?;
    // A long text is parsed a piece at a time, the deadline read between pieces.
    let file = syntax::parse_within(text, || solve::check_cancel(limits)).map_err(|e| match e {
        syntax::Interrupted::Parse(e) => LoadError::from(e),
        syntax::Interrupted::Stopped(stop) => LoadError::Stopped(stop),
    })?;
    solve::check_cancel(limits).map_err(LoadError::Stopped)?;
    let checked = check::check(&file, default_name, settings, library, limits).map_err(|e| match e {
        check::CheckFailure::Errors(errors) => LoadError::Check(errors),
        check::CheckFailure::Stopped(stop) => LoadError::Stopped(stop),
    });
    let mut game = checked.map_err(|e| phrased(e, text))?;
    without_repeated_rules(&mut game.first_moves, text);
    without_repeated_rules(&mut game.moves, text);
    Ok(game)
}

/// An unknown name on a line written in a phrasing the language says another way (`take k
/// from both piles`, `take squares`): its help shows the language's way.
fn phrased(error: LoadError, text: &str) -> LoadError {
    match error {
        LoadError::Check(mut errors) => {
            for e in &mut errors {
                if let check::CheckError::UnknownName { span, help, fix, .. } = e {
                    if let Some(way) = syntax::phrasing_help(syntax::line_at(text, span.start)) {
                        *help = way;
                        *fix = None;
                    }
                }
            }
            LoadError::Check(errors)
        }
        other => other,
    }
}

/// A rule written again word for word allows the same moves as the first: it is kept once, so
/// that a file of thousands of copies of one rule costs what one rule does.
fn without_repeated_rules(rules: &mut Vec<rules::Rule>, text: &str) {
    let mut seen = std::collections::HashSet::new();
    rules.retain(|r| {
        let words: String =
            text.get(r.span.start..r.span.end).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
        seen.insert(words)
    });
}
