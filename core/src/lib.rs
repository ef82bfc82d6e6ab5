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
// Outside tests, a bare `unwrap` hides which invariant it relies on: every place that cannot fail
// says why in an `expect` (or handles the failure), and clippy keeps it so.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod analysis;
mod api;
mod ast;
mod check;
pub mod defaults;
mod diagnostics;
mod files;
mod load;
mod play;
mod progress;
pub mod render;
mod rules;
mod solve;
mod syntax;
mod vocab;
pub mod wording;

pub use analysis::sweep::{Histogram, SweepRow};
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
pub use load::{load, LoadError};
pub use play::{pick, Advice, ForPlayer, Hint, Hottest, Kept, Play, Player, Slip, Status, Strength};
pub use progress::{CancelToken, Progress, Reporter, Stage, Stopped};
pub use render::{write_table, TableFormat};
pub use rules::{Board, Game, Move, Position};
pub use solve::partizan::{PartizanOutcome, PartizanSolver};
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
    pub use crate::analysis::period_search::{PeriodReport, WindowReport};
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
    pub use crate::load::LoadError;
    pub use crate::rules::expr::EvalError;
    pub use crate::rules::move_error::{PartError, SourceText};
    pub use crate::rules::{MoveError, PositionError};
    pub use crate::solve::checkpoint::CheckpointError;
    pub use crate::solve::misere::MisereError;
    pub use crate::solve::SolveError;
    pub use crate::syntax::ParseError;
    pub use crate::vocab::Span;
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
