//! The typed API every front end uses: a game is loaded into a `Loaded`, a question is a
//! `Request`, and `ask` answers it with an `Answer` (plain data, serialisable) or a `Failure`
//! (miette diagnostics with their codes, spans and help, and what was computed before the
//! failure). The question's budget (limits, deadline, cancel token, progress sink) travels in
//! its `Limits`. Nothing here renders: `render` turns answers into text, JSON, CSV or SVG.

use std::path::{Path, PathBuf};

use miette::Diagnostic;
use serde::Serialize;
use thiserror::Error;

use crate::analysis::partizan::{PartizanExplanation, PartizanReport, PartizanTable};
use crate::analysis::period_search::{PeriodError, PeriodQuestion, PeriodReport};
use crate::analysis::{BigSolveReport, Comparison, Explanation, QuotientReport, SolveReport, Table, TableOptions};
use crate::check::{CheckError, Library, Lookup, SettingValue};
use crate::diagnostics::{render, Source};
use crate::rules::{parse_position, Game, Position, PositionError, Side};
use crate::solve::partizan::PartizanSolver;
use crate::solve::{Limits, Outcome, SolveError, Solver};

/// A checked game together with the text it came from, for diagnostics during solving.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub game: Game,
    pub source: Source,
}

/// A parameter's value given from outside the game text (`--set k=5`, `set k = 5`).
pub type Setting = (String, SettingValue);

/// One question about a loaded game.
#[derive(Clone, Debug)]
pub enum Request {
    /// Is the game right? (Its errors come as a `Failure` from loading.)
    Check,
    /// Outcome, value and winning moves of a position, written as its piles: `"41 163 13"`;
    /// with `remoteness`, also how long best play lasts (a search of whole positions, much
    /// slower than the value of a sum of piles).
    Solve { position: String, last: Option<u64>, remoteness: bool },
    /// How the answer for a position follows, in the terms of the theory.
    Explain { position: String, last: Option<u64>, all: bool },
    /// Every one-pile position up to `upto` (pairs for two-pile games).
    Table { upto: u64, options: TableOptions },
    /// The values to draw: a table, or every two-row board of a game on rows.
    Plot { upto: u64 },
    /// The misère quotient of heaps 0..=upto; with no bound, until its period is proven (from
    /// `analysis::QUOTIENT_HEAPS` heaps on, doubling up to `analysis::MOST_QUOTIENT_HEAPS`, within
    /// the question's budget).
    Quotient { upto: Option<u64> },
    /// One pile's values until a theorem proves their period.
    Period(PeriodQuestion),
    /// Where this game and `other` first differ on one pile, `other` read `shift` further on.
    Compare { other: Box<Loaded>, upto: u64, shift: u64 },
}

impl Request {
    /// The verb that asks this, as the command line and the REPL spell it.
    pub fn verb(&self) -> &'static str {
        match self {
            Request::Check => "check",
            Request::Solve { .. } => "solve",
            Request::Explain { .. } => "explain",
            Request::Table { .. } => "table",
            Request::Plot { .. } => "plot",
            Request::Quotient { .. } => "quotient",
            Request::Period(_) => "period",
            Request::Compare { .. } => "compare",
        }
    }
}

/// Every verb a front end offers, in one place (the CLI's commands and the REPL's words).
pub const VERBS: &[&str] = &["check", "solve", "explain", "table", "plot", "quotient", "period", "compare", "play"];

/// The answer to one `Request`.
// One answer is made per question, never held in bulk: boxing the large ones would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Answer {
    Check(CheckReport),
    Solve(SolveReport),
    /// A pile past 64 bits of a Schwenk game, answered in arbitrary-size integers.
    BigSolve(BigSolveReport),
    PartizanSolve(PartizanReport),
    Explain(Explanation),
    PartizanExplain(PartizanExplanation),
    Table(Table),
    PartizanTable(PartizanTable),
    Plot(Plot),
    Quotient(QuotientReport),
    Period(PeriodReport),
    Compare(Comparison),
}

/// What `check` says of a right game: for a partizan game, which rules are whose.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub game: String,
    pub partizan: bool,
    pub misere: bool,
    /// The move statements of a partizan game, in the order of the text.
    pub rules: Vec<RuleSide>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RuleSide {
    pub line: usize,
    pub statement: String,
    /// Whose move it is: `None` for both players'.
    pub side: Option<Side>,
}

/// The data a plot draws.
#[derive(Clone, Debug)]
pub enum Plot {
    /// Grundy values of one pile, or the P-positions of a two-pile game.
    Table(Box<Table>),
    /// Outcome classes of one pile of a partizan game.
    Partizan(PartizanTable),
    /// Every board of two rows of at most `upto` squares, for a game on rows (Chomp).
    TwoRows(TwoRowBoards),
}

#[derive(Clone, Debug, Serialize)]
pub struct TwoRowBoards {
    pub game: String,
    pub upto: u64,
    /// Indexed [bottom row][top row]; row 0 (no board) stays empty.
    pub grundy: Vec<Vec<Option<u64>>>,
    pub outcomes: Vec<Vec<Outcome>>,
}

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

/// Parses and checks game text, whose product statement (if any) names games of `library`.
pub fn load(
    source: Source,
    default_name: &str,
    settings: &[Setting],
    library: &dyn Library,
) -> Result<Loaded, Failure> {
    let source = Source { text: normalised(source.text), ..source };
    match crate::load_with(&source.text, default_name, settings, library) {
        Ok(game) => Ok(Loaded { game, source }),
        Err(e) => Err(Failure { source: Some(source), ..Failure::from(e) }),
    }
}

/// Reads, parses and checks a game file; a product's games are found beside it, or among
/// `session`'s games by name.
pub fn read_game(path: &Path, settings: &[Setting], session: Vec<&Loaded>) -> Result<Loaded, Failure> {
    // `games/nim` finds `games/nim.game`, as a product's names do.
    let with_extension = path.with_extension("game");
    let path = if !path.exists() && path.extension().is_none() && with_extension.is_file() {
        with_extension.as_path()
    } else {
        path
    };
    let text = read_text(path).map_err(|e| Failure::one(e, None))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "game".into());
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let library = Games { dir, session };
    load(Source::new(path.display().to_string(), text), &stem, settings, &library)
}

/// A game file's text: refused before reading when it is not a regular file (a device, a
/// FIFO, a folder) or is larger than a game file can need.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let shown = path.display().to_string();
    let read_error = |e: std::io::Error| {
        let (reason, help) = match e.kind() {
            std::io::ErrorKind::NotFound => ("no such file".to_string(), nearest_file(path)),
            std::io::ErrorKind::PermissionDenied => {
                ("permission denied".to_string(), "check the file's permissions".into())
            }
            std::io::ErrorKind::IsADirectory => {
                ("it is a folder".to_string(), "name a game file in it, such as games/nim.game".into())
            }
            _ => (e.to_string(), "check the file name; game files end in .game".into()),
        };
        FileError::Read { path: shown.clone(), reason, help }
    };
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if meta.is_dir() {
        return Err(FileError::Read {
            path: shown,
            reason: "it is a folder".into(),
            help: "name a game file in it, such as games/nim.game".into(),
        });
    }
    if !meta.is_file() {
        return Err(FileError::NotAFile { path: shown, what: file_kind(&meta).into() });
    }
    if meta.len() > MOST_GAME_FILE_BYTES {
        return Err(FileError::TooLarge { path: shown, bytes: meta.len(), most: MOST_GAME_FILE_BYTES });
    }
    use std::io::Read;
    let mut bytes = Vec::new();
    // The length may change between the look and the read: never read more than the most.
    std::fs::File::open(path)
        .and_then(|f| f.take(MOST_GAME_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(read_error)?;
    if bytes.len() as u64 > MOST_GAME_FILE_BYTES {
        return Err(FileError::TooLarge { path: shown, bytes: bytes.len() as u64, most: MOST_GAME_FILE_BYTES });
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotUtf8 { path: shown })
}

/// Game text as the parser and the diagnostics read it: without the byte-order mark editors on
/// Windows write first, and with a lone CR (old Mac line ends) made a line end the diagnostics
/// count too (CR → LF keeps every byte where it was, so spans stay true).
/// A game's text with its `move:` lines blanked (every character but line ends a space): what
/// `extend` checks new moves against, at the same byte offsets as in the whole text, so that
/// their spans and line numbers are those of the whole text. `None` when the text does not
/// parse.
pub fn without_moves(text: &str) -> Option<String> {
    let file = crate::syntax::parse(text).ok()?;
    let mut out = text.as_bytes().to_vec();
    for statement in &file.statements {
        if let crate::ast::Statement::Move(decl) = &statement.node {
            if !decl.first {
                let span = statement.span;
                for b in out.get_mut(span.start..span.end)? {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
        }
    }
    // Only ASCII spaces replace bytes, and whole statements: every character blanked is gone
    // whole, so the bytes are still UTF-8.
    String::from_utf8(out).ok()
}

/// The game `loaded` with `addition` (only `move:` lines) written after its text: the new
/// rules are checked against the game's other statements (`header`, from `without_moves`),
/// not against every rule again, so a definition typed line by line costs time linear in its
/// lines. `None` when the fast way does not apply (the addition is more than moves, the game
/// is a product) or finds a fault: then the whole text is loaded again, and any diagnostic
/// comes from that.
pub fn extend(
    loaded: &Loaded,
    header: &str,
    addition: &str,
    default_name: &str,
    settings: &[Setting],
    library: &dyn Library,
) -> Option<(Loaded, String)> {
    if loaded.game.product.is_some() || addition.contains(['\r', '\u{feff}']) {
        return None;
    }
    let added = crate::syntax::parse(addition).ok()?;
    let only_moves = !added.statements.is_empty()
        && added.statements.iter().all(|s| matches!(&s.node, crate::ast::Statement::Move(d) if !d.first));
    if !only_moves {
        return None;
    }
    let whole = format!("{}\n{}", loaded.source.text.trim_end(), addition.trim());
    let blank_header = format!("{}\n", header.get(..loaded.source.text.trim_end().len())?);
    let text = format!("{blank_header}{}", addition.trim());
    let new = crate::load_with(&text, default_name, settings, library).ok()?;
    let mut game = loaded.game.clone();
    game.moves.extend(new.moves);
    game.uses_last |= new.uses_last;
    // The one check across rules: a partizan game may not add counters (PartizanGrows). Where
    // the old rules and the new ones could meet in it, the whole text is checked instead.
    if game.is_partizan() && game.can_grow() {
        return None;
    }
    let blanked: String = addition.trim().bytes().map(|b| if b == b'\n' { '\n' } else { ' ' }).collect();
    let header = format!("{blank_header}{blanked}");
    Some((Loaded { game, source: Source { text: whole, ..loaded.source.clone() } }, header))
}

fn normalised(text: String) -> String {
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if !text.contains('\r') {
        return text;
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        out.push(if c == '\r' && bytes.get(i + 1) != Some(&b'\n') { '\n' } else { c });
    }
    out
}

fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() {
            return "it is a device";
        }
        if t.is_fifo() {
            return "it is a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "it is a socket";
        }
    }
    let _ = meta;
    "it is not a file of text"
}

/// The help for a file that is not there: the nearest game file in its folder, if one is close.
fn nearest_file(path: &Path) -> String {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let wanted = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().to_string()).collect())
        .unwrap_or_default();
    let close = names
        .iter()
        .filter(|n| n.ends_with(".game"))
        .map(|n| (strsim::damerau_levenshtein(&wanted, n), n))
        .filter(|(d, n)| *d <= 3 && *d * 2 < n.len())
        .min();
    match close {
        Some((_, name)) => format!("did you mean {}?", dir.join(name).display()),
        None => "check the file name; game files end in .game".into(),
    }
}

/// Where a product's games are found: a session's games by name, then game files, by path
/// from `dir` (`.game` may be left off).
pub struct Games<'a> {
    pub dir: PathBuf,
    pub session: Vec<&'a Loaded>,
}

impl Library for Games<'_> {
    fn find(&self, name: &str) -> Lookup {
        if let Some(found) = self.session.iter().find(|l| l.game.name == name) {
            return Lookup::Found {
                game: found.game.clone(),
                source_name: found.source.name.clone(),
                text: found.source.text.clone(),
            };
        }
        let mut paths = vec![self.dir.join(name)];
        if Path::new(name).extension().is_none() {
            paths.push(self.dir.join(format!("{name}.game")));
        }
        let Some(path) = paths.into_iter().find(|p| p.is_file()) else {
            return Lookup::Missing { help: self.missing_help(name) };
        };
        let shown = path.display().to_string();
        let text = match read_text(&path) {
            Ok(t) => t,
            Err(e) => return Lookup::Failed { rendered: render(&e, None, false) },
        };
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| name.to_string());
        // A product's games are loaded on their own: a product of products is refused.
        match load(Source::new(shown.clone(), text.clone()), &stem, &[], &crate::check::NoLibrary) {
            Ok(loaded) => Lookup::Found { game: loaded.game, source_name: shown, text },
            Err(failure) => Lookup::Failed { rendered: failure.render(false) },
        }
    }
}

impl Games<'_> {
    /// A close name, or where games are looked for with the names there are.
    fn missing_help(&self, name: &str) -> String {
        let mut files: Vec<String> = std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().to_string())
                    .filter(|n| n.ends_with(".game"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let wanted = name.trim_end_matches(".game");
        let close = files
            .iter()
            .map(|f| f.trim_end_matches(".game").to_string())
            .chain(self.session.iter().map(|l| l.game.name.clone()))
            .map(|known| (strsim::damerau_levenshtein(wanted, &known), known))
            .filter(|(d, known)| *d <= 2 && *d < known.len().max(wanted.len()))
            .min();
        if let Some((_, known)) = close {
            return format!("did you mean \"{known}\"?");
        }
        let dir = if self.dir.as_os_str().is_empty() { ".".to_string() } else { self.dir.display().to_string() };
        let mut help = String::new();
        if !self.session.is_empty() {
            let names: Vec<String> = self.session.iter().map(|l| format!("\"{}\"", l.game.name)).collect();
            help.push_str(&format!("the session's games are {}; ", names.join(", ")));
        }
        help.push_str(&format!("game files are looked for in {dir}"));
        if !files.is_empty() {
            const SHOWN: usize = 8;
            let more = if files.len() > SHOWN { ", …" } else { "" };
            files.truncate(SHOWN);
            help.push_str(&format!(", which has {}{more}", files.join(", ")));
        }
        help
    }
}

/// Answers one question about a loaded game, within `limits` (which carry its deadline, its
/// cancel token and its progress sink).
pub fn ask(loaded: &Loaded, request: &Request, limits: &Limits) -> Result<Answer, Failure> {
    let on_game = |e: Error| Failure { errors: vec![e], source: Some(loaded.source.clone()), partial: None };
    match request {
        Request::Check => Ok(Answer::Check(check_report(loaded))),
        Request::Solve { position, last, remoteness } => solve(loaded, position, *last, *remoteness, limits),
        Request::Explain { position, last, all } => {
            if loaded.game.is_partizan() {
                let e = analyse_partizan(loaded, position, *last, limits, crate::analysis::partizan::explain)?;
                return Ok(Answer::PartizanExplain(e));
            }
            let e = analyse(loaded, position, *last, limits, |s, p| crate::analysis::explain_with(s, p, *all))?;
            Ok(Answer::Explain(e))
        }
        Request::Table { upto, options } => table(loaded, *upto, *options, limits),
        Request::Plot { upto } => plot(loaded, *upto, limits).map(Answer::Plot).map_err(|e| on_game(e.into())),
        Request::Quotient { upto } => {
            refuse_partizan(loaded, "quotient", "misère quotients are for impartial heap games; `table` gives the outcomes of a partizan game under misère play")?;
            let mut solver = Solver::new(&loaded.game, limits.clone());
            crate::analysis::quotient(&mut solver, *upto).map(Answer::Quotient).map_err(|e| on_game(e.into()))
        }
        Request::Period(question) => {
            refuse_partizan(
                loaded,
                "period",
                "`table FILE --upto N` gives a partizan game's outcomes and values, with their period",
            )?;
            crate::analysis::period_search::period_search(&loaded.game, question, limits)
                .map(Answer::Period)
                .map_err(|e| on_game(e.into()))
        }
        Request::Compare { other, upto, shift } => {
            for g in [loaded, &**other] {
                refuse_partizan(
                    g,
                    "compare",
                    "compare reads Grundy values; compare the two games' `table` of outcomes and values instead",
                )?;
            }
            let (mut sa, mut sb) =
                (Solver::new(&loaded.game, limits.clone()), Solver::new(&other.game, limits.clone()));
            crate::analysis::compare(&mut sa, &mut sb, *upto, *shift)
                .map(Answer::Compare)
                .map_err(|e| Failure::one(e, None))
        }
    }
}

/// What `check` says of a right game: for a partizan game, which lines are whose.
fn check_report(loaded: &Loaded) -> CheckReport {
    let game = &loaded.game;
    let text = &loaded.source.text;
    let rules = if game.is_partizan() {
        game.first_moves
            .iter()
            .chain(&game.moves)
            .map(|rule| {
                let start = rule.span.start.min(text.len());
                RuleSide {
                    line: text[..start].matches('\n').count() + 1,
                    statement: text.get(rule.span.start..rule.span.end).unwrap_or("").trim().to_string(),
                    side: rule.side,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    CheckReport {
        game: game.name.clone(),
        partizan: game.is_partizan(),
        misere: game.convention == crate::vocab::Convention::Misere,
        rules,
    }
}

/// Reads a position for the game, with the previous move's size where given.
/// A position of the game from its text (`"41 163 13"`), and the last move where the rules read it.
pub fn position_of(loaded: &Loaded, position: &str, last: Option<u64>) -> Result<Position, Failure> {
    let game = &loaded.game;
    let mut pos =
        parse_position(game, position).map_err(|e| Failure::one(e, Some(&Source::new("position", position))))?;
    if let Some(l) = last {
        if !game.uses_last {
            return Err(Failure::one(RequestError::LastUnused { game: game.name.clone() }, None));
        }
        pos.last = Some(l);
    }
    Ok(pos)
}

/// Reads the position and runs one analysis on it.
fn analyse<T>(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    limits: &Limits,
    analyse: impl FnOnce(&mut Solver, &Position) -> Result<T, SolveError>,
) -> Result<T, Failure> {
    let pos = position_of(loaded, position, last)?;
    let mut solver = Solver::new(&loaded.game, limits.clone());
    analyse(&mut solver, &pos).map_err(|e| Failure::one(e, Some(&loaded.source)))
}

/// As `analyse`, for a partizan game.
fn analyse_partizan<T>(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    limits: &Limits,
    analyse: impl FnOnce(&mut PartizanSolver, &Position) -> Result<T, SolveError>,
) -> Result<T, Failure> {
    let pos = position_of(loaded, position, last)?;
    let mut solver = PartizanSolver::new(&loaded.game, limits.clone());
    analyse(&mut solver, &pos).map_err(|e| Failure::one(e, Some(&loaded.source)))
}

/// Refuses `verb` for a partizan game, pointing at the lines that make it partizan.
pub fn refuse_partizan(loaded: &Loaded, verb: &'static str, help: &'static str) -> Result<(), Failure> {
    if !loaded.game.is_partizan() {
        return Ok(());
    }
    let sides = loaded
        .game
        .side_rules()
        .map(|r| {
            let who = r.side.map(|s| s.name()).unwrap_or("one player");
            miette::LabeledSpan::new_with_span(Some(format!("only {who} may make this move")), r.span)
        })
        .collect();
    let error = RequestError::ImpartialOnly { verb, game: loaded.game.name.clone(), help, sides };
    Err(Failure::one(error, Some(&loaded.source)))
}

fn solve(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    remoteness: bool,
    limits: &Limits,
) -> Result<Answer, Failure> {
    if loaded.game.is_partizan() {
        return analyse_partizan(loaded, position, last, limits, crate::analysis::partizan::solve)
            .map(Answer::PartizanSolve);
    }
    if let Some(report) = big_pile(loaded, position, last)? {
        return Ok(Answer::BigSolve(report));
    }
    analyse(loaded, position, last, limits, |s, p| crate::analysis::solve_with(s, p, remoteness)).map(Answer::Solve)
}

/// A pile too large for 64 bits, answered in arbitrary-size integers where the game is one of
/// Schwenk's with a linear bound; `None` when the position is not such a pile, so that the
/// ordinary reading reports what is wrong with it.
fn big_pile(loaded: &Loaded, position: &str, last: Option<u64>) -> Result<Option<BigSolveReport>, Failure> {
    use crate::solve::big::{BigFailure, BigSchwenk, MOST_DIGITS};
    let game = &loaded.game;
    let Err(PositionError::TooLarge { span, text }) = parse_position(game, position) else {
        return Ok(None);
    };
    if text.len() > MOST_DIGITS || (last.is_some() && !game.uses_last) {
        return Ok(None);
    }
    let Some(mut schwenk) = BigSchwenk::recognise(game) else {
        return Ok(None);
    };
    let Some(pile) = num_bigint::BigUint::parse_bytes(text.as_bytes(), 10) else {
        return Ok(None);
    };
    match schwenk.answer(&pile, last) {
        Ok(answer) => Ok(Some(BigSolveReport::new(game, &pile, last, answer))),
        Err(BigFailure::SlowSequence { terms }) => {
            let error = PositionError::BeyondSequence { span, text, terms };
            Err(Failure::one(error, Some(&Source::new("position", position))))
        }
    }
}

fn table(loaded: &Loaded, upto: u64, options: TableOptions, limits: &Limits) -> Result<Answer, Failure> {
    if loaded.game.is_partizan() {
        if let Some(given) = options.piles.filter(|&k| k != 1) {
            let board = "one pile at a time in a partizan table (ask about sums with `solve`)".to_string();
            let e = crate::analysis::TableError::PilesFixed { game: loaded.game.name.clone(), given, board };
            return Err(Failure::one(e, Some(&loaded.source)));
        }
        let mut solver = PartizanSolver::new(&loaded.game, limits.clone());
        return crate::analysis::partizan::table(&mut solver, upto)
            .map(Answer::PartizanTable)
            .map_err(|e| Failure::one(e, Some(&loaded.source)));
    }
    let mut solver = Solver::new(&loaded.game, limits.clone());
    crate::analysis::table(&mut solver, upto, options).map(Answer::Table).map_err(|e| {
        // What was computed before a limit stopped it still goes to the output.
        let partial = match &e {
            crate::analysis::TableError::Incomplete { partial, .. } => {
                Some(Box::new(Answer::Table((**partial).clone())))
            }
            _ => None,
        };
        Failure { errors: vec![e.into()], source: Some(loaded.source.clone()), partial }
    })
}

fn plot(loaded: &Loaded, upto: u64, limits: &Limits) -> Result<Plot, crate::analysis::TableError> {
    if loaded.game.is_partizan() {
        let mut solver = PartizanSolver::new(&loaded.game, limits.clone());
        return Ok(Plot::Partizan(crate::analysis::partizan::table(&mut solver, upto)?));
    }
    if let crate::rules::Board::FixedPiles(piles @ 3..) = loaded.game.board {
        return Err(crate::analysis::TableError::TooManyPiles { game: loaded.game.name.clone(), piles });
    }
    let mut solver = Solver::new(&loaded.game, limits.clone());
    if loaded.game.board == crate::rules::Board::Rows && loaded.game.convention == crate::vocab::Convention::Normal {
        return Ok(Plot::TwoRows(two_row_boards(loaded, &mut solver, upto)?));
    }
    Ok(Plot::Table(Box::new(crate::analysis::table(&mut solver, upto, Default::default())?)))
}

/// Every board of two rows of at most `upto` squares (Chomp): refused before anything is
/// allocated when the picture's grid of boards passes the limit on positions.
fn two_row_boards(
    loaded: &Loaded,
    solver: &mut Solver,
    upto: u64,
) -> Result<TwoRowBoards, crate::analysis::TableError> {
    let limit = solver.limits().max_states;
    let cells = (upto as u128 + 1) * (upto as u128 + 1);
    if cells > limit as u128 {
        let largest = ((limit as f64).sqrt() as u64).saturating_sub(1);
        return Err(crate::analysis::TableError::TooLarge {
            upto,
            boards: crate::solve::approximately(cells as f64),
            limit,
            largest,
        });
    }
    let size = upto as usize + 1;
    // The largest box first: every smaller board is inside it, so the rest are look-ups.
    if upto > 0 {
        solver.value(&Position::new(vec![upto, upto]))?;
    }
    let mut grundy = vec![vec![None; size]; size];
    let mut outcomes = vec![vec![Outcome::N; size]; size];
    // Row 0 (no bottom row, so no board) stays blank.
    for a in 1..=upto {
        for b in 0..=a {
            let v = solver.value(&Position::new(vec![a, b]))?;
            grundy[a as usize][b as usize] = v.grundy;
            outcomes[a as usize][b as usize] = v.outcome;
        }
    }
    Ok(TwoRowBoards { game: loaded.game.name.clone(), upto, grundy, outcomes })
}

/// `NAME=VALUE`, as `--set` and the REPL's `set` take it.
pub fn parse_setting(s: &str) -> Result<Setting, String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}` is not NAME=VALUE; write it as k=5"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a parameter name"));
    }
    let value = value.trim();
    // A set parameter's value: `S={1,2,5}` (ranges written `1..3` are allowed inside).
    if let Some(inside) = value.strip_prefix('{') {
        let inside = inside
            .strip_suffix('}')
            .ok_or_else(|| format!("`{value}` has no closing `}}`: write a set as \"S={{1,2,5}}\" (quoted, so that the shell keeps the braces)"))?;
        let mut members = Vec::new();
        for item in inside.split(',').map(str::trim) {
            let number = |t: &str| {
                t.trim().parse::<i64>().map_err(|_| {
                    format!("`{}` is not a whole number (a set holds amounts such as {{1,2,5}})", t.trim())
                })
            };
            match item.split_once("..") {
                Some((lo, hi)) => {
                    let (lo, hi) = (number(lo)?, number(hi)?);
                    if hi.saturating_sub(lo) >= crate::check::MAX_SET_MEMBERS as i64 {
                        return Err(format!(
                            "`{item}` is too long a range for a set (at most {} members)",
                            crate::check::MAX_SET_MEMBERS
                        ));
                    }
                    members.extend(lo..=hi);
                }
                None => members.push(number(item)?),
            }
        }
        if members.is_empty() {
            return Err("an empty set leaves the rule nothing to take: give at least one amount, as in {1,2,5}".into());
        }
        members.sort_unstable();
        members.dedup();
        return Ok((name.to_string(), SettingValue::Set(members)));
    }
    let value = value.parse::<i64>().map_err(|_| {
        format!("`{value}` is not a whole number (parameters are integers; a set is written \"S={{1,2,5}}\")")
    })?;
    Ok((name.to_string(), SettingValue::Number(value)))
}
