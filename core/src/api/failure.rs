//! Why a question got no answer: the diagnostics of every stage in one `Failure`, their
//! kinds for front ends that answer each kind differently, and each diagnostic as data.

use crate::wording::{give, give_value, Argument};
use miette::Diagnostic;
use serde::Serialize;
use thiserror::Error;

use super::Answer;
use crate::analysis::period_search::PeriodError;
use crate::check::CheckError;
use crate::diagnostics::{render, Source};
use crate::rules::PositionError;
use crate::solve::SolveError;
use crate::vocab::FailureKind;

/// Why a question got no answer: each diagnostic, the text they point into, and what was
/// computed before the failure (a table's rows up to a limit).
#[derive(Debug)]
pub struct Failure {
    /// The errors, in the order found.
    pub errors: Vec<Error>,
    /// The text the errors point into, when they point into one.
    pub source: Option<Source>,
    /// What was answered before the failure, if anything.
    pub partial: Option<Box<Answer>>,
}

/// One diagnostic of a failed question, by the stage that found it.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Reading the game file failed; the inner error says why.
    File(#[from] FileError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Parsing the game text failed; the inner error says why.
    Parse(#[from] crate::syntax::ParseError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Checking the game failed; the inner error says why.
    Check(#[from] CheckError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Reading the position failed; the inner error says why.
    Position(#[from] PositionError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Solving failed; the inner error says why.
    Solve(#[from] SolveError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Making the table failed; the inner error says why.
    Table(#[from] crate::analysis::TableError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Computing the quotient failed; the inner error says why.
    Quotient(#[from] crate::analysis::QuotientError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// The period search failed; the inner error says why.
    Period(#[from] PeriodError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Comparing failed; the inner error says why.
    Compare(#[from] crate::analysis::CompareError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Reading the request failed; the inner error says why.
    Request(#[from] RequestError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// A sweep's rows file could not be used; the inner error says why.
    Sweep(#[from] crate::analysis::sweep::rows::RowsError),
}

/// A question that does not fit the game it is asked of.
#[derive(Debug, Error, Diagnostic)]
pub enum RequestError {
    #[error("a last move was given, but the rules of {game} never read `last`")]
    #[diagnostic(
        code(takeaway::query::last_unused),
        help("leave out the last move ({last}) for this game", last = give(Argument::Last))
    )]
    /// Reported as “a last move was given, but the rules of {game} never read `last`”.
    LastUnused {
        /// The game's name.
        game: String,
    },

    #[error("`{verb}` is for impartial games, and {game} is partizan: Left and Right have different moves")]
    #[diagnostic(code(takeaway::query::impartial_only), help("{help}"))]
    /// Reported as “`{verb}` is for impartial games, and {game} is partizan: Left and Right have different moves”.
    ImpartialOnly {
        /// The question asked (`solve`, `table`, ...).
        verb: &'static str,
        /// The game's name.
        game: String,
        /// What to do about it.
        help: &'static str,
        #[label(collection, "only one player may make this move")]
        /// The two rules that disagree.
        sides: Vec<miette::LabeledSpan>,
    },

    #[error("a thermograph is drawn for a partizan game under normal play, and {game} is {why}")]
    #[diagnostic(
        code(takeaway::query::no_thermograph),
        help("temperature theory is for games where Left and Right move differently (`left move:`, `right move:`), under normal play; `plot FILE` draws this game's values")
    )]
    /// Reported as “a thermograph is drawn for a partizan game under normal play, and {game} is {why}”.
    NoThermograph {
        /// The game's name.
        game: String,
        /// What it is instead: impartial, or under misère play.
        why: &'static str,
    },

    #[error("cooling is for a partizan game under normal play, and {game} is {why}")]
    #[diagnostic(
        code(takeaway::query::no_cooling),
        help("temperature theory is for games where Left and Right move differently (`left move:`, `right move:`), under normal play; leave out the temperature to cool by ({cool})", cool = give(Argument::Cool))
    )]
    /// Reported as “cooling is for a partizan game under normal play, and {game} is {why}”.
    NoCooling {
        /// The game's name.
        game: String,
        /// What it is instead: impartial, or under misère play.
        why: &'static str,
    },

    #[error("{csv} is for `table`: this answer is not a table", csv = give_value(Argument::Format, "csv"))]
    #[diagnostic(
        code(takeaway::query::csv_is_for_tables),
        help("use {text} or {json} here", text = give_value(Argument::Format, "text"), json = give_value(Argument::Format, "json"))
    )]
    /// Reported as “the CSV format is for `table`: this answer is not a table”.
    CsvIsForTables,

    #[error("no question called `{verb}`")]
    #[diagnostic(code(takeaway::query::unknown_verb), help("{help}"))]
    /// Reported as “no question called `{verb}`”.
    UnknownVerb {
        /// The question asked (`solve`, `table`, ...).
        verb: String,
        /// What to do about it.
        help: String,
    },

    #[error("the arguments of `{verb}` are not right: {reason}")]
    #[diagnostic(code(takeaway::query::arguments), help("{help}"))]
    /// Reported as “the arguments of `{verb}` are not right: {reason}”.
    Arguments {
        /// The question asked (`solve`, `table`, ...).
        verb: String,
        /// Why it failed.
        reason: String,
        /// What to do about it.
        help: String,
    },

    #[error("`{argument}` of {verb}: {reason}")]
    #[diagnostic(code(takeaway::query::invalid), help("see the command's help for what it takes"))]
    /// Reported as “`{argument}` of {verb}: {reason}”.
    Invalid {
        /// The question asked (`solve`, `table`, ...).
        verb: &'static str,
        /// The argument at fault.
        argument: &'static str,
        /// Why it failed.
        reason: String,
    },

    #[error("`{verb}` needs a position")]
    #[diagnostic(
        code(takeaway::query::missing_position),
        help("give the piles, separated by spaces or commas, as in 41 163 13 (a list such as [41, 163, 13] from a program)")
    )]
    /// Reported as “`{verb}` needs a position”.
    MissingPosition {
        /// The question asked (`solve`, `table`, ...).
        verb: &'static str,
    },

    #[error("no game called `{name}` to compare with")]
    #[diagnostic(code(takeaway::query::unknown_game), help("{help}"))]
    /// Reported as “no game called `{name}` to compare with”.
    UnknownGame {
        /// The name as written.
        name: String,
        /// What to do about it.
        help: String,
    },

    #[error("`play`: no move leads from {from} to {to}")]
    #[diagnostic(code(takeaway::query::not_a_move), help("choose one of the moves listed for the position"))]
    /// Reported as “`play`: no move leads from {from} to {to}”.
    NotAMove {
        /// The position moved from.
        from: String,
        /// The position moved to.
        to: String,
    },

    #[error("`play`: this position has {count} moves, more than can be listed ({most} at most)")]
    #[diagnostic(code(takeaway::query::too_many_moves), help("start from a position with at most {most} moves"))]
    /// Reported as “`play`: this position has {count} moves, more than can be listed ({most} at most)”.
    TooManyMoves {
        /// How many there are.
        count: usize,
        /// The most allowed.
        most: usize,
    },

    #[error("the game `{name}` to compare with has errors")]
    #[diagnostic(code(takeaway::query::other_game_has_errors), help("{rendered}"))]
    /// Reported as “the game `{name}` to compare with has errors”.
    OtherGameHasErrors {
        /// The name as written.
        name: String,
        /// The other game's diagnostics, rendered.
        rendered: String,
    },
}

impl RequestError {
    /// Whether the request itself is malformed (an argument unknown, of the wrong type or out of
    /// its range, a verb unknown), rather than a question that does not fit the game: a web
    /// server answers it 400.
    pub fn is_malformed(&self) -> bool {
        match self {
            RequestError::UnknownVerb { .. }
            | RequestError::Arguments { .. }
            | RequestError::Invalid { .. }
            | RequestError::MissingPosition { .. } => true,
            RequestError::LastUnused { .. }
            | RequestError::ImpartialOnly { .. }
            | RequestError::NoThermograph { .. }
            | RequestError::NoCooling { .. }
            | RequestError::CsvIsForTables
            | RequestError::UnknownGame { .. }
            | RequestError::NotAMove { .. }
            | RequestError::TooManyMoves { .. }
            | RequestError::OtherGameHasErrors { .. } => false,
        }
    }

    /// What kind of failure this is: a question that does not fit the game, or a file that
    /// cannot be read.
    pub(crate) fn kind(&self) -> FailureKind {
        match self {
            RequestError::LastUnused { .. }
            | RequestError::ImpartialOnly { .. }
            | RequestError::NoThermograph { .. }
            | RequestError::NoCooling { .. }
            | RequestError::CsvIsForTables
            | RequestError::UnknownVerb { .. }
            | RequestError::Arguments { .. }
            | RequestError::Invalid { .. }
            | RequestError::MissingPosition { .. }
            | RequestError::UnknownGame { .. }
            | RequestError::NotAMove { .. }
            | RequestError::TooManyMoves { .. } => FailureKind::Question,
            RequestError::OtherGameHasErrors { .. } => FailureKind::Game,
        }
    }
}

/// Why a game file could not be read.
#[derive(Debug, Error, Diagnostic)]
pub enum FileError {
    #[error("cannot read {path}: {reason}")]
    #[diagnostic(code(takeaway::file::read), help("{help}"))]
    /// Reported as “cannot read {path}: {reason}”.
    Read {
        /// The file's path.
        path: String,
        /// Why it failed.
        reason: String,
        /// What to do about it.
        help: String,
    },

    #[error("{path} is not UTF-8 text")]
    #[diagnostic(code(takeaway::file::not_utf8), help("save the game file as UTF-8 text"))]
    /// Reported as “{path} is not UTF-8 text”.
    NotUtf8 {
        /// The file's path.
        path: String,
    },

    #[error("{path} is not a regular file: {what}")]
    #[diagnostic(code(takeaway::file::not_a_file), help("name a game file, such as games/nim.game"))]
    /// Reported as “{path} is not a regular file: {what}”.
    NotAFile {
        /// The file's path.
        path: String,
        /// What the problem concerns, in words.
        what: String,
    },

    #[error("{path} has {bytes} bytes, more than any game file needs (at most {most})")]
    #[diagnostic(
        code(takeaway::file::too_large),
        help("a game file is a few lines of text; check that this is the file you meant")
    )]
    /// Reported as “{path} has {bytes} bytes, more than any game file needs (at most {most})”.
    TooLarge {
        /// The file's path.
        path: String,
        /// How many bytes.
        bytes: u64,
        /// The most allowed.
        most: u64,
    },
}

impl Error {
    /// What kind of failure this diagnostic is, from its type.
    pub(crate) fn kind(&self) -> FailureKind {
        match self {
            Error::File(_) | Error::Parse(_) | Error::Check(_) | Error::Position(_) => FailureKind::Game,
            Error::Solve(e) => e.kind(),
            Error::Table(e) => e.kind(),
            Error::Quotient(e) => e.kind(),
            Error::Period(e) => e.kind(),
            Error::Compare(e) => e.kind(),
            Error::Request(e) => e.kind(),
            Error::Sweep(e) => e.kind(),
        }
    }
}

/// Diagnostics rendered for one failure: more would bury the first, which matter most.
pub(super) const MOST_RENDERED: usize = 20;

/// The largest game file read: far more than any game needs, far less than memory.
pub const MOST_GAME_FILE_BYTES: u64 = 4 << 20;

impl Failure {
    /// One diagnostic, pointing into `source` where it has labels.
    pub fn one(error: impl Into<Error>, source: Option<&Source>) -> Self {
        Failure { errors: vec![error.into()], source: source.cloned(), partial: None }
    }

    /// Each diagnostic on its own, in the order of the text.
    pub fn diagnostics(&self) -> impl Iterator<Item = &dyn Diagnostic> {
        self.errors.iter().map(|e| e as &dyn Diagnostic)
    }

    /// The first diagnostic's stable code, such as `takeaway::check::unknown_name`.
    pub fn code(&self) -> Option<String> {
        self.errors.first().and_then(|e| e.code()).map(|c| c.to_string())
    }

    /// Every diagnostic rendered against the text it points into, as a terminal shows it; past
    /// `MOST_RENDERED`, a line says how many more there are.
    pub fn render(&self, color: bool) -> String {
        let mut out: String = self
            .errors
            .iter()
            .take(MOST_RENDERED)
            .map(|e| match e {
                // A product's game has its own diagnostics, rendered against its own text.
                Error::Check(CheckError::GameHasErrors { rendered, .. }) => {
                    format!("{}{rendered}", render(e, self.source.as_ref(), color))
                }
                e => render(e, self.source.as_ref(), color),
            })
            .collect();
        if self.errors.len() > MOST_RENDERED {
            let more = self.errors.len() - MOST_RENDERED;
            out.push_str(&format!("… and {more} more error{} like these\n", if more == 1 { "" } else { "s" }));
        }
        out
    }

    /// What kind of failure this is, for front ends that answer each kind differently (an
    /// exception class in Python, an HTTP status on the web page): the first diagnostic's.
    pub fn kind(&self) -> FailureKind {
        self.errors.first().map_or(FailureKind::Question, Error::kind)
    }

    /// Where the first diagnostic points: line and column (from 1) in the failure's text.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        let source = self.source.as_ref()?;
        let first = self.errors.first()?;
        let label = first.labels()?.next()?;
        Some(crate::diagnostics::line_column(&source.text, label.offset()))
    }
}

/// One diagnostic as data, for a front end that shows it its own way (a web page's editor, a
/// Python exception): its code, message and help, and where each label points in the text.
#[derive(Clone, Debug, Serialize)]
pub struct DiagnosticData {
    /// The stable code, such as `takeaway::check::unknown_name`.
    pub code: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// The name of the text the labels point into (`game`, a file, `position`).
    pub source: Option<String>,
    /// The places in the text it points at.
    pub labels: Vec<LabelData>,
}

/// Where one label points: from (line, column) to (end_line, end_column), counted from 1 in
/// characters, the end just past the last character marked.
#[derive(Clone, Debug, Serialize)]
pub struct LabelData {
    /// What the label says.
    pub text: Option<String>,
    /// The first line, counted from 1.
    pub line: usize,
    /// The first column, counted from 1 in characters.
    pub column: usize,
    /// The last line, counted from 1.
    pub end_line: usize,
    /// The column after the last, counted from 1.
    pub end_column: usize,
}

/// Diagnostics given as data for one failure: a page or a program needs the first ones, not
/// thousands (a text of 2,500 wrong rules).
pub(super) const MOST_DIAGNOSTICS: usize = 100;

impl Failure {
    /// The diagnostics as data (at most `MOST_DIAGNOSTICS` of them), in the order of the text.
    pub fn data(&self) -> Vec<DiagnosticData> {
        let index = self.source.as_ref().map(|s| crate::diagnostics::LineIndex::new(&s.text));
        self.diagnostics()
            .take(MOST_DIAGNOSTICS)
            .map(|d| {
                let labels = match (&index, d.labels()) {
                    (Some(index), Some(labels)) => labels
                        .map(|l| {
                            let (line, column) = index.line_column(l.offset());
                            let (end_line, end_column) = index.line_column(l.offset() + l.len());
                            LabelData { text: l.label().map(str::to_string), line, column, end_line, end_column }
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                DiagnosticData {
                    code: d.code().map(|c| c.to_string()),
                    message: d.to_string(),
                    help: d.help().map(|h| h.to_string()),
                    source: self.source.as_ref().map(|s| s.name.clone()),
                    labels,
                }
            })
            .collect()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Failure {}

impl From<crate::LoadError> for Failure {
    fn from(e: crate::LoadError) -> Self {
        let errors = match e {
            crate::LoadError::Parse(p) => vec![Error::Parse(p)],
            crate::LoadError::Check(errors) => errors.into_iter().map(Error::Check).collect(),
            crate::LoadError::Stopped(e) => vec![Error::Solve(e.into())],
        };
        Failure { errors, source: None, partial: None }
    }
}

/// The one sure fix of a diagnostic: the bytes `start..end` of the text it points into,
/// replaced by `replacement` (a misspelt word by the word it is close to).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// The first byte replaced.
    pub start: usize,
    /// The byte after the last replaced.
    pub end: usize,
    /// What goes in their place.
    pub replacement: String,
}

impl Failure {
    /// For each diagnostic, in the order of `diagnostics()`, its sure fix where it has one.
    pub fn fixes(&self) -> Vec<Option<Fix>> {
        self.errors
            .iter()
            .map(|e| match e {
                Error::Parse(crate::syntax::ParseError::Unexpected { span, fix: Some(word), .. }) => {
                    Some(Fix { start: span.offset(), end: span.offset() + span.len(), replacement: word.clone() })
                }
                Error::Check(CheckError::UnknownName { span, fix: Some(word), .. }) => {
                    Some(Fix { start: span.start, end: span.end, replacement: word.clone() })
                }
                _ => None,
            })
            .collect()
    }
}
