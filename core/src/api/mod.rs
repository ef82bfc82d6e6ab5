//! The typed API every front end uses: a game is loaded into a `Loaded`, a question is a
//! `Request`, and `ask` answers it with an `Answer` (plain data, serialisable) or a `Failure`
//! (miette diagnostics with their codes, spans and help, and what was computed before the
//! failure). The question's budget (limits, deadline, cancel token, progress sink) travels in
//! its `Limits`. Nothing here renders: `render` turns answers into text, JSON, CSV or SVG.

mod count;
mod editor;
mod failure;
mod games;
mod request;
mod step;
mod sweep;

use serde::Serialize;

pub use crate::solve::Budget;
pub use crate::vocab::FailureKind;
pub use count::parse_count;
pub use editor::{rule_moves, RuleMoves};
pub use failure::{DiagnosticData, Error, Failure, FileError, Fix, LabelData, RequestError, MOST_GAME_FILE_BYTES};
pub use games::{extend, load_game, parse_setting, read_game, read_text as read_game_text, without_moves, Games};
pub use request::{
    BudgetArgs, CompareArgs, ExplainArgs, GameText, OtherGame, PeriodArgs, PlayArgs, PlotArgs, PositionText,
    QuotientArgs, Request, Settings, SolveArgs, TableArgs, BUDGET_ARGUMENTS, VERBS,
};
pub use step::{ForPlayer, PlayStep, PlayerMove, StepHint, StepHottest, StepMove, StepPosition, StepSlip};
pub use sweep::{
    asked_of_family, checksum_of, in_family_order, mark_same_values, octal_codes, octal_game, sweep, sweep_game,
    RowStatus, RowsError, RowsFile, RowsFormat, SweepArgs, SweepGame, SweepReport,
};

use crate::analysis::partizan::{PartizanExplanation, PartizanReport, PartizanTable};
use crate::analysis::period_search::{PeriodQuestion, PeriodReport};
use crate::analysis::{BigSolveReport, Comparison, Explanation, QuotientReport, SolveReport, Table, TableOptions};
use crate::check::{Library, Lookup, SettingValue};
use crate::diagnostics::Source;
use crate::rules::{parse_position, Game, Position, PositionError, Side};
use crate::solve::partizan::PartizanSolver;
use crate::solve::{Limits, Outcome, SolveError, Solver};

/// A checked game together with the text it came from, for diagnostics during solving.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The checked game.
    pub game: Game,
    /// The text it was read from.
    pub source: Source,
}

/// A parameter's value given from outside the game text (`--set k=5`, `set k = 5`).
pub type Setting = (String, SettingValue);

/// The answer to one `Request`.
// One answer is made per question, never held in bulk: boxing the large ones would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Answer {
    /// The game is well formed.
    Check(CheckReport),
    /// Who wins an impartial position, its value and winning moves.
    Solve(SolveReport),
    /// A pile past 64 bits of a Schwenk game, answered in arbitrary-size integers.
    BigSolve(BigSolveReport),
    /// Who wins a partizan position and each side's winning moves.
    PartizanSolve(PartizanReport),
    /// Why an impartial position has its outcome.
    Explain(Explanation),
    /// Why a partizan position has its outcome.
    PartizanExplain(PartizanExplanation),
    /// Values of an impartial game, pile by pile.
    Table(Table),
    /// Outcomes of a partizan game, pile by pile.
    PartizanTable(PartizanTable),
    /// A picture of the values, in SVG.
    Plot(Plot),
    /// The misère quotient of a heap game.
    Quotient(QuotientReport),
    /// The period of a heap game's values.
    Period(PeriodReport),
    /// Two games compared.
    Compare(Comparison),
    /// One step of a game against the computer.
    Play(PlayStep),
}

/// What `check` says of a right game: for a partizan game, which rules are whose.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The game's name.
    pub game: String,
    /// Whether Left and Right have different moves.
    pub partizan: bool,
    /// Whether the last player to move loses.
    pub misere: bool,
    /// The move statements of a partizan game, in the order of the text.
    pub rules: Vec<RuleSide>,
}

/// A rule of a game, where it is written.
#[derive(Clone, Debug, Serialize)]
pub struct RuleSide {
    /// The rule's line, counted from 1.
    pub line: usize,
    /// The rule as written.
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
    /// Thermographs of positions of a partizan game, overlaid.
    Thermographs(crate::analysis::heat::ThermographPlot),
}

/// Outcomes of every board of two rows.
#[derive(Clone, Debug, Serialize)]
pub struct TwoRowBoards {
    /// The game's name.
    pub game: String,
    /// The longest row.
    pub upto: u64,
    /// Indexed [bottom row][top row]; row 0 (no board) stays empty.
    pub grundy: Vec<Vec<Option<u64>>>,
    /// The outcome of each pair of row lengths.
    pub outcomes: Vec<Vec<Outcome>>,
}

/// Answers one question about a loaded game within its budget; `library` finds the game a
/// `compare` names (a game file, a session's game, a bundled game).
pub fn ask(loaded: &Loaded, request: &Request, library: &dyn Library, budget: &Budget) -> Result<Answer, Failure> {
    let limits = budget.limits();
    budget.check().map_err(|e| Failure::one(e, None))?;
    let on_game = |e: Error| Failure { errors: vec![e], source: Some(loaded.source.clone()), partial: None };
    match request {
        Request::Check => Ok(Answer::Check(check_report(loaded))),
        Request::Solve(a) => solve(loaded, a, limits),
        Request::Explain(a) => {
            if loaded.game.is_partizan() {
                let e = analyse_partizan(loaded, &a.position.0, a.last, limits, crate::analysis::partizan::explain)?;
                return Ok(Answer::PartizanExplain(e));
            }
            let all = a.all;
            let e = analyse(loaded, &a.position.0, a.last, limits, |s, p| crate::analysis::explain_with(s, p, all))?;
            Ok(Answer::Explain(e))
        }
        Request::Table(a) => table(loaded, a.upto, table_options(a), limits),
        Request::Plot(a) if !a.thermograph.is_empty() => {
            thermograph_plot(loaded, &a.thermograph, limits).map(|p| Answer::Plot(Plot::Thermographs(p)))
        }
        Request::Plot(a) => plot(loaded, a.upto, limits).map(Answer::Plot).map_err(|e| on_game(e.into())),
        Request::Quotient(a) => {
            refuse_partizan(loaded, "quotient", "misère quotients are for impartial heap games; `table` gives the outcomes of a partizan game under misère play")?;
            let mut solver = Solver::within(&loaded.game, limits.clone());
            crate::analysis::quotient(&mut solver, a.upto).map(Answer::Quotient).map_err(|e| on_game(e.into()))
        }
        Request::Period(a) => {
            refuse_partizan(
                loaded,
                "period",
                "`table` gives a partizan game's outcomes and values up to a size, with their period",
            )?;
            let question = PeriodQuestion { upto: a.upto, checkpoint: a.checkpoint.clone(), without_theorem: false };
            match a.window {
                Some(window) => crate::analysis::window_search::window_search(&loaded.game, &question, window, limits),
                None => crate::analysis::period_search::period_search(&loaded.game, &question, limits),
            }
            .map(Answer::Period)
            .map_err(|e| on_game(e.into()))
        }
        Request::Compare(a) => {
            let other = other_game(&a.other, library, budget)?;
            for g in [loaded, &other] {
                refuse_partizan(
                    g,
                    "compare",
                    "compare reads Grundy values; compare the two games' `table` of outcomes and values instead",
                )?;
            }
            let (mut sa, mut sb) =
                (Solver::within(&loaded.game, limits.clone()), Solver::within(&other.game, limits.clone()));
            crate::analysis::compare(&mut sa, &mut sb, a.upto, a.shift)
                .map(Answer::Compare)
                .map_err(|e| Failure::one(e, None))
        }
        Request::Play(a) => step::step(loaded, a, limits).map(Answer::Play),
    }
}

/// `compare`'s other game, found by `library` or loaded from its text.
fn other_game(other: &OtherGame, library: &dyn Library, budget: &Budget) -> Result<Loaded, Failure> {
    match other {
        OtherGame::Named(name) => match library.find(name) {
            Lookup::Found { game, source_name, text } => Ok(Loaded { game, source: Source::new(source_name, text) }),
            Lookup::Missing { help } => Err(Failure::one(RequestError::UnknownGame { name: name.clone(), help }, None)),
            Lookup::Failed { rendered } => {
                Err(Failure::one(RequestError::OtherGameHasErrors { name: name.clone(), rendered }, None))
            }
        },
        OtherGame::Text(text) => load_text(text, library, budget),
    }
}

/// A game given as text, with its settings, loaded within the question's budget.
pub fn load_text(text: &GameText, library: &dyn Library, budget: &Budget) -> Result<Loaded, Failure> {
    let name = text.name.as_deref().unwrap_or("game");
    let settings: Vec<Setting> = text.settings.iter().map(|(n, v)| (n.clone(), v.clone())).collect();
    let stem = std::path::Path::new(name).file_stem().map_or("game".to_string(), |s| s.to_string_lossy().to_string());
    load_game(Source::new(name, text.source.as_str()), &stem, &settings, library, budget)
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
    let mut solver = Solver::within(&loaded.game, limits.clone());
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
    let mut solver = PartizanSolver::within(&loaded.game, limits.clone());
    analyse(&mut solver, &pos).map_err(|e| Failure::one(e, Some(&loaded.source)))
}

/// Refuses `verb` for a partizan game, pointing at the lines that make it partizan.
pub(crate) fn refuse_partizan(loaded: &Loaded, verb: &'static str, help: &'static str) -> Result<(), Failure> {
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

/// Why temperature theory does not apply to `game` (it is impartial, or under misère play);
/// `None` when it does.
fn outside_temperature_theory(game: &Game) -> Option<&'static str> {
    if !game.is_partizan() {
        Some("impartial")
    } else if game.convention == crate::vocab::Convention::Misere {
        Some("under misère play")
    } else {
        None
    }
}

fn solve(loaded: &Loaded, args: &SolveArgs, limits: &Limits) -> Result<Answer, Failure> {
    let (position, last, remoteness) = (args.position.0.as_str(), args.last, args.remoteness);
    let game = &loaded.game;
    // Validation has read the temperature already.
    let cool = args.cool.as_deref().and_then(crate::solve::partizan::Dyadic::parse);
    if let (Some(_), Some(why)) = (cool, outside_temperature_theory(game)) {
        return Err(Failure::one(RequestError::NoCooling { game: game.name.clone(), why }, None));
    }
    if game.is_partizan() {
        return analyse_partizan(loaded, position, last, limits, |s, p| crate::analysis::partizan::solve(s, p, cool))
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

pub(crate) fn table(loaded: &Loaded, upto: u64, options: TableOptions, limits: &Limits) -> Result<Answer, Failure> {
    if loaded.game.is_partizan() {
        if let Some(given) = options.piles.filter(|&k| k != 1) {
            let board = "one pile at a time in a partizan table (ask about sums with `solve`)".to_string();
            let e = crate::analysis::TableError::PilesFixed { game: loaded.game.name.clone(), given, board };
            return Err(Failure::one(e, Some(&loaded.source)));
        }
        let mut solver = PartizanSolver::within(&loaded.game, limits.clone());
        return crate::analysis::partizan::table(&mut solver, upto)
            .map(Answer::PartizanTable)
            .map_err(|e| Failure::one(e, Some(&loaded.source)));
    }
    let mut solver = Solver::within(&loaded.game, limits.clone());
    crate::analysis::table(&mut solver, upto, options).map(Answer::Table).map_err(|e| table_failure(loaded, e))
}

pub(crate) fn table_failure(loaded: &Loaded, e: crate::analysis::TableError) -> Failure {
    // What was computed before a limit stopped it still goes to the output.
    let partial = match &e {
        crate::analysis::TableError::Incomplete { partial, .. } => Some(Box::new(Answer::Table((**partial).clone()))),
        _ => None,
    };
    Failure { errors: vec![e.into()], source: Some(loaded.source.clone()), partial }
}

pub(crate) fn table_options(a: &TableArgs) -> TableOptions {
    TableOptions { remoteness: a.remoteness, by_last: a.by_last, period_values: a.period_values, piles: a.piles }
}

/// The largest picture a plot draws: past it no viewer shows the squares, and the file alone
/// takes longer to write than the values to compute.
pub(crate) const MOST_PLOT_BYTES: u64 = 16 << 20;

/// About what one value of a plot costs its SVG, in bytes: a bar of one pile (with its title), a
/// square of two piles, a square of a Chomp board (half of the grid is drawn).
fn plot_bytes(game: &Game, upto: u64) -> u128 {
    let n = upto as u128 + 1;
    match game.board {
        crate::rules::Board::FixedPiles(2) if !game.is_partizan() => n * n * 120,
        crate::rules::Board::Rows if !game.is_partizan() => n * n * 60,
        _ => n * 110,
    }
}

/// Refuses before anything is computed a plot whose picture would pass `MOST_PLOT_BYTES`.
fn refuse_a_plot_too_large(game: &Game, upto: u64) -> Result<(), crate::analysis::TableError> {
    if plot_bytes(game, upto) <= MOST_PLOT_BYTES as u128 {
        return Ok(());
    }
    let (mut fits, mut over) = (0u64, upto);
    while over - fits > 1 {
        let mid = fits + (over - fits) / 2;
        if plot_bytes(game, mid) <= MOST_PLOT_BYTES as u128 {
            fits = mid;
        } else {
            over = mid;
        }
    }
    let megabytes = crate::solve::approximately((plot_bytes(game, upto) >> 20) as f64);
    Err(crate::analysis::TableError::PictureTooLarge { upto, megabytes, most: MOST_PLOT_BYTES >> 20, largest: fits })
}

/// The thermographs of `positions` of a partizan game under normal play.
fn thermograph_plot(
    loaded: &Loaded,
    positions: &[PositionText],
    limits: &Limits,
) -> Result<crate::analysis::heat::ThermographPlot, Failure> {
    let game = &loaded.game;
    if let Some(why) = outside_temperature_theory(game) {
        return Err(Failure::one(RequestError::NoThermograph { game: game.name.clone(), why }, None));
    }
    let positions: Vec<Position> =
        positions.iter().map(|p| position_of(loaded, &p.0, None)).collect::<Result<_, Failure>>()?;
    let mut solver = PartizanSolver::within(game, limits.clone());
    crate::analysis::heat::thermographs(&mut solver, &positions).map_err(|e| Failure::one(e, Some(&loaded.source)))
}

fn plot(loaded: &Loaded, upto: u64, limits: &Limits) -> Result<Plot, crate::analysis::TableError> {
    refuse_a_plot_too_large(&loaded.game, upto)?;
    if loaded.game.is_partizan() {
        let mut solver = PartizanSolver::within(&loaded.game, limits.clone());
        return Ok(Plot::Partizan(crate::analysis::partizan::table(&mut solver, upto)?));
    }
    if let crate::rules::Board::FixedPiles(piles @ 3..) = loaded.game.board {
        return Err(crate::analysis::TableError::TooManyPiles { game: loaded.game.name.clone(), piles });
    }
    let mut solver = Solver::within(&loaded.game, limits.clone());
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
