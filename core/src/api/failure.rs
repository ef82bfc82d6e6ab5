//! Why a question got no answer: the diagnostics of every stage in one `Failure`, their
//! kinds for front ends that answer each kind differently, and each diagnostic as data.

use miette::Diagnostic;
use serde::Serialize;
use thiserror::Error;

use super::Answer;
use crate::analysis::period_search::PeriodError;
use crate::check::CheckError;
use crate::diagnostics::{render, Source};
use crate::rules::PositionError;
use crate::solve::SolveError;

/// Why a question got no answer: each diagnostic, the text they point into, and what was
/// computed before the failure (a table's rows up to a limit).
#[derive(Debug)]
pub struct Failure {
    pub errors: Vec<Error>,
    pub source: Option<Source>,
    pub partial: Option<Box<Answer>>,
}

/// One diagnostic of a failed question, by the stage that found it.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    #[error(transparent)]
    #[diagnostic(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(#[from] crate::syntax::ParseError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Check(#[from] CheckError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Position(#[from] PositionError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Table(#[from] crate::analysis::TableError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Quotient(#[from] crate::analysis::QuotientError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Period(#[from] PeriodError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Compare(#[from] crate::analysis::CompareError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Request(#[from] RequestError),
}

/// A question that does not fit the game it is asked of.
#[derive(Debug, Error, Diagnostic)]
pub enum RequestError {
    #[error("a last move was given, but the rules of {game} never read `last`")]
    #[diagnostic(
        code(takeaway::query::last_unused),
        help("leave out the last move (--last, or last= in Python) for this game")
    )]
    LastUnused { game: String },

    #[error("`{verb}` is for impartial games, and {game} is partizan: Left and Right have different moves")]
    #[diagnostic(code(takeaway::query::impartial_only), help("{help}"))]
    ImpartialOnly {
        verb: &'static str,
        game: String,
        help: &'static str,
        #[label(collection, "only one player may make this move")]
        sides: Vec<miette::LabeledSpan>,
    },

    #[error("--format csv is for `table`: this answer is not a table")]
    #[diagnostic(code(takeaway::query::csv_is_for_tables), help("use --format text or --format json here"))]
    CsvIsForTables,
}

/// Why a game file could not be read (the codes are those the command line always had).
#[derive(Debug, Error, Diagnostic)]
pub enum FileError {
    #[error("cannot read {path}: {reason}")]
    #[diagnostic(code(takeaway::cli::read), help("{help}"))]
    Read { path: String, reason: String, help: String },

    #[error("{path} is not UTF-8 text")]
    #[diagnostic(code(takeaway::cli::not_utf8), help("save the game file as UTF-8 text"))]
    NotUtf8 { path: String },

    #[error("{path} is not a regular file: {what}")]
    #[diagnostic(code(takeaway::cli::not_a_file), help("name a game file, such as games/nim.game"))]
    NotAFile { path: String, what: String },

    #[error("{path} has {bytes} bytes, more than any game file needs (at most {most})")]
    #[diagnostic(
        code(takeaway::cli::too_large),
        help("a game file is a few lines of text; check that this is the file you meant")
    )]
    TooLarge { path: String, bytes: u64, most: u64 },
}

/// Why a question failed, in the terms a front end answers: the game (or its position) is
/// wrong, the question does not fit the game, the budget refused it, its time ran out, or it
/// was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// the game text, its file, a position, or the arithmetic of its rules
    Game,
    /// a question the game cannot answer (a quotient of a partizan game, `--last` unused, …)
    Question,
    /// the estimate or the count of work passed the limits
    Refused,
    /// the deadline passed
    Timeout,
    /// the question's cancel token was used
    Cancelled,
}

impl FailureKind {
    /// The kind of a diagnostic code (`takeaway::stage::name`).
    pub fn of_code(code: &str) -> FailureKind {
        let mut parts = code.split("::").skip(1);
        let (stage, name) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        match (stage, name) {
            ("solve", "cancelled") => FailureKind::Cancelled,
            ("solve", "timeout") => FailureKind::Timeout,
            ("parse" | "check" | "position" | "cli" | "eval", _) => FailureKind::Game,
            ("rules", "takes_nothing" | "in_product_game") => FailureKind::Game,
            ("solve", _) | ("rules", "too_many_moves") | ("period", "stopped") => FailureKind::Refused,
            ("table", "incomplete" | "too_large" | "too_many_rows") => FailureKind::Refused,
            _ => FailureKind::Question,
        }
    }
}

/// Diagnostics rendered for one failure: more would bury the first, which matter most.
pub const MOST_RENDERED: usize = 20;

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
    /// exception class in Python, an HTTP status on the web page): decided by the first
    /// diagnostic's stable code.
    pub fn kind(&self) -> FailureKind {
        FailureKind::of_code(self.code().as_deref().unwrap_or(""))
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
    pub code: Option<String>,
    pub message: String,
    pub help: Option<String>,
    /// The name of the text the labels point into (`game`, a file, `position`).
    pub source: Option<String>,
    pub labels: Vec<LabelData>,
}

/// Where one label points: from (line, column) to (end_line, end_column), counted from 1 in
/// characters, the end just past the last character marked.
#[derive(Clone, Debug, Serialize)]
pub struct LabelData {
    pub text: Option<String>,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

impl Failure {
    /// Every diagnostic as data, in the order of the text.
    pub fn data(&self) -> Vec<DiagnosticData> {
        self.diagnostics()
            .map(|d| {
                let labels = match (&self.source, d.labels()) {
                    (Some(source), Some(labels)) => labels
                        .map(|l| {
                            let (line, column) = crate::diagnostics::line_column(&source.text, l.offset());
                            let (end_line, end_column) =
                                crate::diagnostics::line_column(&source.text, l.offset() + l.len());
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
        };
        Failure { errors, source: None, partial: None }
    }
}
