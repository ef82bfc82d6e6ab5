//! The query verbs shared by the command line and the REPL (`check`, `solve`, `table`,
//! `explain`), so that
//! the same words give the same output in both. Answers and failures come back as text; a
//! failure is the rendered diagnostics.

use std::path::{Path, PathBuf};

use crate::check::{CheckError, Library, Lookup};
use crate::diagnostics::{render, Source};
use crate::rules::{parse_position, Game, Position};
use crate::solve::partizan::PartizanSolver;
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
    /// Comma-separated values, one row per position: `table` only.
    Csv,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("--format csv is for `table`: this answer is not a table")]
#[diagnostic(code(takeaway::query::csv_is_for_tables), help("use --format text or --format json here"))]
struct CsvIsForTables;

fn csv_refused(color: bool) -> String {
    render(&CsvIsForTables, None, color)
}

/// Parses and checks game text; on failure, every diagnostic rendered.
pub fn load(source: Source, default_name: &str, settings: &[(String, crate::check::SettingValue)], color: bool) -> Result<Loaded, String> {
    load_in(source, default_name, settings, color, &crate::check::NoLibrary)
}

/// Parses and checks game text whose product statement names games of `library`.
pub fn load_in(
    source: Source,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
    color: bool,
    library: &dyn Library,
) -> Result<Loaded, String> {
    match crate::load_with(&source.text, default_name, settings, library) {
        Ok(game) => Ok(Loaded { game, source }),
        Err(crate::LoadError::Check(errors)) => Err(errors
            .iter()
            .map(|e| match e {
                // The named game's own diagnostics follow the one that names it.
                CheckError::GameHasErrors { rendered, .. } => format!("{}{rendered}", render(e, Some(&source), color)),
                e => render(e, Some(&source), color),
            })
            .collect()),
        Err(err) => Err(err.diagnostics().into_iter().map(|d| render(d, Some(&source), color)).collect()),
    }
}

/// Where a product's games are found: the REPL session's games by name, then game files, by
/// path from `dir` (`.game` may be left off).
pub struct Games<'a> {
    pub dir: PathBuf,
    pub session: Vec<&'a Loaded>,
    pub color: bool,
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
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => return Lookup::Failed { rendered: format!("{shown}: {e}\n") },
        };
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| name.to_string());
        // A product's games are loaded on their own: a product of products is refused.
        match load(Source::new(shown.clone(), text.clone()), &stem, &[], self.color) {
            Ok(loaded) => Lookup::Found { game: loaded.game, source_name: shown, text },
            Err(rendered) => Lookup::Failed { rendered },
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
    analyse: impl FnOnce(&mut Solver, &Position) -> Result<T, crate::solve::SolveError>,
) -> Result<T, String> {
    let pos = position_of(loaded, position, last, color)?;
    let mut solver = Solver::new(&loaded.game, limits);
    analyse(&mut solver, &pos).map_err(|e| render(&e, Some(&loaded.source), color))
}

/// As `analyse_position`, for a partizan game.
fn analyse_partizan<T>(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    limits: Limits,
    color: bool,
    analyse: impl FnOnce(&mut PartizanSolver, &Position) -> Result<T, crate::solve::SolveError>,
) -> Result<T, String> {
    let pos = position_of(loaded, position, last, color)?;
    let mut solver = PartizanSolver::new(&loaded.game, limits);
    analyse(&mut solver, &pos).map_err(|e| render(&e, Some(&loaded.source), color))
}

/// What `check` says of a partizan game: which lines make it partizan. Impartial games get
/// nothing (`check` is silent when a game is right).
pub fn partizan_note(loaded: &Loaded) -> String {
    if !loaded.game.is_partizan() {
        return String::new();
    }
    let text = &loaded.source.text;
    let mut out = format!(
        "{} is partizan: Left and Right move differently, so positions have outcomes L, R, N, P and canonical values.\n",
        loaded.game.name
    );
    for rule in loaded.game.first_moves.iter().chain(&loaded.game.moves) {
        let start = rule.span.start.min(text.len());
        let line = text[..start].matches('\n').count() + 1;
        let statement = text.get(rule.span.start..rule.span.end).unwrap_or("").trim();
        let whose = match rule.side {
            Some(side) => format!("{}'s only", side.name()),
            None => "both players'".into(),
        };
        out.push_str(&format!("  line {line}: {statement} ({whose})\n"));
    }
    out
}

/// A verb of the impartial theory asked of a partizan game.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`{verb}` is for impartial games, and {game} is partizan: Left and Right have different moves")]
#[diagnostic(code(takeaway::query::impartial_only), help("{help}"))]
struct ImpartialOnly {
    verb: &'static str,
    game: String,
    help: &'static str,
    #[label(collection, "only one player may make this move")]
    sides: Vec<miette::LabeledSpan>,
}

/// Refuses `verb` for a partizan game, pointing at the lines that make it partizan.
pub fn refuse_partizan(loaded: &Loaded, verb: &'static str, help: &'static str, color: bool) -> Result<(), String> {
    if !loaded.game.is_partizan() {
        return Ok(());
    }
    let sides = loaded
        .game
        .side_rules()
        .map(|r| miette::LabeledSpan::new_with_span(Some(format!("only {} may make this move", r.side.map(|s| s.name()).unwrap_or("one player"))), r.span))
        .collect();
    let error = ImpartialOnly { verb, game: loaded.game.name.clone(), help, sides };
    Err(render(&error, Some(&loaded.source), color))
}

/// An answer as text, or as one JSON document.
fn show<T: serde::Serialize>(answer: &T, format: Format, text: fn(&T) -> String, color: bool) -> Result<String, String> {
    match format {
        Format::Text => Ok(text(answer)),
        Format::Json => Ok(json_text(&serde_json::to_value(answer).expect("answers serialise"))),
        Format::Csv => Err(csv_refused(color)),
    }
}

/// `explain`: how the answer for the position follows, in the terms of the theory; with `all`
/// (`--all`), a one-pile explanation lists the Grundy values of the smaller piles too.
pub fn explain(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    format: Format,
    limits: Limits,
    color: bool,
    all: bool,
) -> Result<String, String> {
    if loaded.game.is_partizan() {
        let e = analyse_partizan(loaded, position, last, limits, color, crate::analysis::partizan::explain)?;
        return show(&e, format, crate::analysis::partizan::PartizanExplanation::to_text, color);
    }
    let e = analyse_position(loaded, position, last, limits, color, |s, p| crate::analysis::explain_with(s, p, all))?;
    show(&e, format, crate::analysis::Explanation::to_text, color)
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
    if loaded.game.is_partizan() {
        let r = analyse_partizan(loaded, position, last, limits, color, crate::analysis::partizan::solve)?;
        return show(&r, format, crate::analysis::partizan::PartizanReport::to_text, color);
    }
    if let Some(report) = big_pile(loaded, position, last, color)? {
        return show(&report, format, crate::analysis::BigSolveReport::to_text, color);
    }
    let report = analyse_position(loaded, position, last, limits, color, crate::analysis::solve)?;
    show(&report, format, crate::analysis::SolveReport::to_text, color)
}

/// A pile too large for 64 bits, answered in arbitrary-size integers where the game is one of
/// Schwenk's with a linear bound; `None` when the position is not such a pile, so that the
/// ordinary reading reports what is wrong with it.
fn big_pile(
    loaded: &Loaded,
    position: &str,
    last: Option<u64>,
    color: bool,
) -> Result<Option<crate::analysis::BigSolveReport>, String> {
    use crate::rules::PositionError;
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
        Ok(answer) => Ok(Some(crate::analysis::BigSolveReport::new(game, &pile, last, answer))),
        Err(BigFailure::SlowSequence { terms }) => {
            let error = PositionError::BeyondSequence { span, text, terms };
            Err(render(&error, Some(&Source::new("position", position)), color))
        }
    }
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
    if loaded.game.is_partizan() {
        let mut solver = PartizanSolver::new(&loaded.game, limits);
        let table = crate::analysis::partizan::table(&mut solver, upto)
            .map_err(|e| Failure { partial: String::new(), rendered: render(&e, Some(&loaded.source), color), summary: None })?;
        return Ok(match format {
            Format::Text => table.to_text(),
            Format::Json => json_text(&serde_json::to_value(&table).expect("tables serialise")),
            Format::Csv => table.to_csv(),
        });
    }
    let mut solver = Solver::new(&loaded.game, limits);
    let show = |table: &crate::analysis::Table| match format {
        Format::Text => table.to_text(),
        Format::Json => json_text(&table.to_json()),
        Format::Csv => table.to_csv(),
    };
    match crate::analysis::table(&mut solver, upto, options) {
        Ok(table) => Ok(show(&table)),
        Err(e) => {
            let rendered = render(&e, Some(&loaded.source), color);
            match &e {
                // What was computed before a limit stopped it still goes to the output.
                crate::analysis::TableError::Incomplete { partial, cause, .. } => {
                    let summary = (*cause == crate::solve::SolveError::Cancelled).then(|| cancelled_summary(partial));
                    Err(Failure { partial: show(partial), rendered, summary })
                }
                _ => Err(Failure { partial: String::new(), rendered, summary: None }),
            }
        }
    }
}

/// `quotient`: the misère quotient of a heap game, heaps 0..=upto.
pub fn quotient(loaded: &Loaded, upto: u64, format: Format, limits: Limits, color: bool) -> Result<String, String> {
    refuse_partizan(loaded, "quotient", "misère quotients are for impartial heap games; `table` gives the outcomes of a partizan game under misère play", color)?;
    let mut solver = Solver::new(&loaded.game, limits);
    let report = crate::analysis::quotient(&mut solver, upto).map_err(|e| render(&e, Some(&loaded.source), color))?;
    match format {
        Format::Text => Ok(report.to_text()),
        Format::Json => Ok(json_text(&report.to_json())),
        Format::Csv => Err(csv_refused(color)),
    }
}

/// `period`: one pile's values until a theorem proves their period.
pub fn period(
    loaded: &Loaded,
    question: &crate::analysis::period_search::PeriodQuestion,
    format: Format,
    limits: Limits,
    color: bool,
) -> Result<String, String> {
    refuse_partizan(loaded, "period", "`table FILE --upto N` gives a partizan game's outcomes and values, with their period", color)?;
    if format == Format::Csv {
        return Err(csv_refused(color));
    }
    let report = crate::analysis::period_search::period_search(&loaded.game, question, limits)
        .map_err(|e| render(&e, Some(&loaded.source), color))?;
    Ok(match format {
        Format::Json => json_text(&report.to_json()),
        _ => report.to_text(),
    })
}

/// A failed answer: what could be computed before the failure, and the rendered diagnostics.
#[derive(Debug)]
pub struct Failure {
    pub partial: String,
    pub rendered: String,
    /// For a table stopped by Ctrl-C: a few lines instead of every row computed, for the REPL.
    pub summary: Option<String>,
}

/// The rows a table stopped by Ctrl-C shows in the REPL: how many there are, the last few, and
/// how to get them all.
const SUMMARY_ROWS: usize = 5;

fn cancelled_summary(partial: &crate::analysis::Table) -> String {
    let text = partial.to_text();
    let lines: Vec<&str> = text.lines().collect();
    let rows = (partial.upto + 1) as usize;
    let mut out = format!("stopped by Ctrl-C: {rows} rows computed, n = 0..{}", partial.upto);
    if partial.shape == crate::analysis::TableShape::OnePile && lines.len() >= rows + 2 {
        out.push_str("; the last of them:\n");
        out.push_str(lines[1]);
        out.push('\n');
        for line in &lines[2 + rows.saturating_sub(SUMMARY_ROWS)..2 + rows] {
            out.push_str(line);
            out.push('\n');
        }
    } else {
        out.push('\n');
    }
    out.push_str(&format!(
        "every row: `table {}` (it takes as long again), or `table {} --format csv` for a spreadsheet\n",
        partial.upto, partial.upto
    ));
    out
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
    for g in [a, b] {
        refuse_partizan(g, "compare", "compare reads Grundy values; compare the two games' `table` of outcomes and values instead", color)?;
    }
    let (mut sa, mut sb) = (Solver::new(&a.game, limits), Solver::new(&b.game, limits));
    let c = crate::analysis::compare(&mut sa, &mut sb, upto, shift).map_err(|e| render(&e, None, color))?;
    match format {
        Format::Text => Ok(c.to_text()),
        Format::Json => Ok(json_text(&serde_json::to_value(&c).expect("comparisons serialise"))),
        Format::Csv => Err(csv_refused(color)),
    }
}

/// `plot`: the SVG picture of a table: Grundy values of one pile, or a map of P-positions.
pub fn plot(loaded: &Loaded, upto: u64, limits: Limits, color: bool) -> Result<String, String> {
    if loaded.game.is_partizan() {
        let mut solver = PartizanSolver::new(&loaded.game, limits);
        let table =
            crate::analysis::partizan::table(&mut solver, upto).map_err(|e| render(&e, Some(&loaded.source), color))?;
        return Ok(crate::analysis::plot::partizan_outcomes(&table));
    }
    let mut solver = Solver::new(&loaded.game, limits);
    if loaded.game.board == crate::rules::Board::Rows && loaded.game.convention == crate::ast::Convention::Normal {
        return two_row_boards(loaded, &mut solver, upto).map_err(|e| render(&e, Some(&loaded.source), color));
    }
    let table = crate::analysis::table(&mut solver, upto, Default::default())
        .map_err(|e| render(&e, Some(&loaded.source), color))?;
    Ok(crate::analysis::plot::svg(&table))
}

/// The picture of a game on rows (Chomp): every board of two rows of at most `upto` squares.
fn two_row_boards(loaded: &Loaded, solver: &mut Solver, upto: u64) -> Result<String, crate::solve::SolveError> {
    let size = upto as usize + 1;
    let mut grundy = vec![vec![None; size]; size];
    let mut outcomes = vec![vec![crate::solve::Outcome::N; size]; size];
    // Row 0 (no bottom row, so no board) stays blank.
    for a in 1..=upto {
        for b in 0..=a {
            let v = solver.value(&Position::new(vec![a, b]))?;
            grundy[a as usize][b as usize] = v.grundy;
            outcomes[a as usize][b as usize] = v.outcome;
        }
    }
    Ok(crate::analysis::plot::two_row_chomp(&loaded.game.name, upto, &grundy, &outcomes))
}

/// `NAME=VALUE`, as `--set` and the REPL's `set` take it.
pub fn parse_setting(s: &str) -> Result<(String, crate::check::SettingValue), String> {
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
            .ok_or_else(|| format!("`{value}` has no closing `}}`: write a set as {{1,2,5}}"))?;
        let mut members = Vec::new();
        for item in inside.split(',').map(str::trim) {
            let number = |t: &str| {
                t.trim().parse::<i64>().map_err(|_| format!("`{}` is not a whole number (a set holds amounts such as {{1,2,5}})", t.trim()))
            };
            match item.split_once("..") {
                Some((lo, hi)) => {
                    let (lo, hi) = (number(lo)?, number(hi)?);
                    if hi.saturating_sub(lo) >= crate::check::MAX_SET_MEMBERS as i64 {
                        return Err(format!("`{item}` is too long a range for a set (at most {} members)", crate::check::MAX_SET_MEMBERS));
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
        return Ok((name.to_string(), crate::check::SettingValue::Set(members)));
    }
    let value = value
        .parse::<i64>()
        .map_err(|_| format!("`{value}` is not a whole number (parameters are integers; a set is written {{1,2,5}})"))?;
    Ok((name.to_string(), crate::check::SettingValue::Number(value)))
}

/// Why a game file could not be read (the codes are those the command line always had).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum FileError {
    #[error("cannot read {path}: {reason}")]
    #[diagnostic(code(takeaway::cli::read), help("{help}"))]
    Read { path: String, reason: String, help: String },

    #[error("{path} is not UTF-8 text")]
    #[diagnostic(code(takeaway::cli::not_utf8), help("save the game file as UTF-8 text"))]
    NotUtf8 { path: String },
}

/// Reads, parses and checks a game file; on failure, every problem rendered.
pub fn read_game(path: &Path, settings: &[(String, crate::check::SettingValue)], color: bool) -> Result<Loaded, String> {
    read_game_in(path, settings, color, Vec::new())
}

/// The same, where a product may also name games of a REPL session.
pub fn read_game_in(
    path: &Path,
    settings: &[(String, crate::check::SettingValue)],
    color: bool,
    session: Vec<&Loaded>,
) -> Result<Loaded, String> {
    // `games/nim` finds `games/nim.game`, as a product's names do.
    let with_extension = path.with_extension("game");
    let path = if !path.exists() && path.extension().is_none() && with_extension.is_file() {
        with_extension.as_path()
    } else {
        path
    };
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        let (reason, help) = match e.kind() {
            std::io::ErrorKind::NotFound => ("no such file".to_string(), nearest_file(path)),
            std::io::ErrorKind::PermissionDenied => ("permission denied".to_string(), "check the file's permissions".into()),
            std::io::ErrorKind::IsADirectory => ("it is a folder".to_string(), "name a game file in it, such as games/nim.game".into()),
            _ => (e.to_string(), "check the file name; game files end in .game".into()),
        };
        render(&FileError::Read { path: shown.clone(), reason, help }, None, color)
    })?;
    let text = String::from_utf8(bytes).map_err(|_| render(&FileError::NotUtf8 { path: shown.clone() }, None, color))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "game".into());
    // A product's games are found beside the file that names them.
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let library = Games { dir, session, color };
    load_in(Source::new(shown, text), &stem, settings, color, &library)
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
