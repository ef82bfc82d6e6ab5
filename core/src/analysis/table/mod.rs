//! `table`: outcomes and Grundy values of every small position, and the P-positions among them.

use super::periods::{self, Periodicity};
use crate::rules::{Board, Game, Position};
use crate::solve::{Limits, Outcome, PileColumn, SolveError, Solver, Value, Values};
use crate::wording::{give, give_value, Argument};

pub(crate) mod csv;
mod error;
mod many;

pub(crate) mod stream;

pub use error::TableError;
pub(crate) use stream::{StreamError, StreamedRows};

/// Which positions a table covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableShape {
    /// one pile of n, for n = 0..=upto
    OnePile,
    /// two piles (a, b), both at most upto
    TwoPiles,
    /// Chomp rectangles of r rows and c columns, 1 ≤ r, c ≤ upto
    Rectangles,
    /// one cell (x, y) of a product game, 1 ≤ x, y ≤ upto
    Cells,
    /// three or more piles, each at most upto, listed once in ascending order
    ManyPiles {
        /// How many piles.
        piles: usize,
    },
}

/// Values and P-positions of an impartial game, pile by pile.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The game's name.
    pub game: String,
    /// The largest pile asked for.
    pub upto: u64,
    /// What the rows are.
    pub shape: TableShape,
    /// One row for one-pile tables; a grid otherwise (indexed `[a][b]`, or `[r-1][c-1]`).
    pub outcomes: Vec<Vec<Outcome>>,
    /// The values, one list per pile count.
    pub grundy: Vec<Vec<Option<u64>>>,
    /// The P-positions, one list per pile count.
    pub p_positions: Vec<Vec<u64>>,
    /// Why values are missing, if some are.
    pub grundy_note: Option<&'static str>,
    /// A period of the one-pile values, where one was found.
    pub period: Option<Periodicity>,
    /// How far periods were looked for, when none was found.
    pub no_period_to: Option<u64>,
    /// Looking ahead this far for a period passed a limit: nothing is said about periods.
    pub period_not_looked: Option<u64>,
    /// A famous pattern of the P-positions, in words.
    pub pattern: Option<String>,
    /// Remoteness of one pile of 0..=upto, when asked for (`None` entries were too large to
    /// search, or are draws).
    pub remoteness: Option<Vec<Option<u64>>>,
    /// Smith's generalised Grundy values of one pile of 0..=upto, for loopy games.
    pub loopy_values: Option<Vec<String>>,
    /// For games that remember the last move: one pile of n after a move of `last`.
    pub by_last: Option<LastGrid>,
    /// A coin-turning game: row n is one heads coin at n.
    pub coins: bool,
    /// For a product game: the theorem its cells' values follow, where one does.
    pub cell_rule: Option<String>,
    /// For a misère heap game: misère Grundy value, genus, tameness and Φ of one pile.
    pub misere: Option<MisereColumns>,
    /// For three or more piles: the position of each entry of `outcomes[0]` and `grundy[0]`.
    pub positions: Vec<Vec<u64>>,
}

/// Misère columns of a one-pile table; `None` entries were not computed (too many positions
/// for the genus, or past the quotient).
#[derive(Debug, Clone, PartialEq)]
pub struct MisereColumns {
    /// The normal-play value of each pile.
    pub grundy: Vec<Option<u64>>,
    /// The genus of each pile.
    pub genus: Vec<Option<String>>,
    /// Whether each pile is tame.
    pub tame: Vec<Option<bool>>,
    /// The quotient element of each pile.
    pub phi: Vec<Option<String>>,
    /// Where a column stops short of the table, and why.
    pub notes: Vec<String>,
}

/// Positions, and moves, the search for a period past the table may examine.
const PERIOD_SEARCH_STATES: usize = 200_000;
const PERIOD_SEARCH_WORK: u64 = 1_000_000;

/// Positions the genus recursion may visit for one table.
const GENUS_POSITIONS: usize = 60_000;

/// Misère Grundy values, genera and Φ of piles 0..=upto.
fn misere_columns(solver: &mut Solver, upto: u64) -> Result<MisereColumns, SolveError> {
    use crate::solve::misere::presentation::Presentation;
    let game = solver.game();
    let limits = &solver.limits().clone();
    let misere = solver.misere();
    let phi: Vec<Option<u32>> = match misere {
        Some(m) => {
            let _ = m.extend(game, upto, limits);
            (0..=upto).map(|n| m.reduce(n).and_then(|h| m.quotient().phi(h))).collect()
        }
        None => vec![None; upto as usize + 1],
    };
    let words: Vec<Option<String>> = match solver.misere() {
        Some(m) => {
            let p = Presentation::of(m.quotient());
            phi.iter().map(|x| x.map(|x| p.word(x))).collect()
        }
        None => vec![None; upto as usize + 1],
    };
    let crate::solve::misere::genus::PileGenera { genus, tame } = crate::solve::misere::genus::pile_genera(
        upto as usize + 1,
        |n| crate::solve::misere::heap_options(game, n, limits),
        &phi,
        GENUS_POSITIONS,
    )?;
    let mut notes = Vec::new();
    if let Some(first) = genus.iter().position(|g| g.is_none()) {
        notes.push(format!(
            "G⁻ and genus are shown for n ≤ {}: past it they need a search over more than {GENUS_POSITIONS} sums of piles",
            first as i64 - 1
        ));
    }
    if let (Some(first), Some(m)) = (phi.iter().position(|x| x.is_none()), solver.misere()) {
        let why = m.quotient().stopped().map(|s| s.describe()).unwrap_or_else(|| "it was not computed".into());
        notes.push(format!("Φ is shown for n ≤ {}: the quotient stopped ({why})", first as i64 - 1));
    }
    Ok(MisereColumns {
        grundy: genus.iter().map(|g| g.as_ref().map(|g| g.misere_grundy())).collect(),
        genus: genus.iter().map(|g| g.as_ref().map(|g| g.symbol())).collect(),
        tame,
        phi: words,
        notes,
    })
}

/// What a table is asked to show besides outcomes and Grundy values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TableOptions {
    /// a column of remoteness: how many moves the game lasts with best play
    pub remoteness: bool,
    /// a grid of one pile of n after a previous move of `last`, for memory games
    pub by_last: bool,
    /// how many values (from pile 0) are looked at for a period; `MIN_EXAMINED` by default
    pub period_values: Option<u64>,
    /// for games on any number of piles: positions of this many piles (one by default)
    pub piles: Option<usize>,
}

/// Values of one pile of n = 0..=upto (rows) after a previous move of last = 1..=upto
/// (columns): a memory game's whole state.
#[derive(Debug, Clone, PartialEq)]
pub struct LastGrid {
    /// indexed [n][last - 1]
    pub outcomes: Vec<Vec<Outcome>>,
    /// The values by pile and previous move.
    pub grundy: Vec<Vec<Option<u64>>>,
}

/// Boards inside an r×c box of a bite game (row lengths that never grow upwards): C(r + c, r),
/// saturating.
fn boards_in_box(r: u64, c: u64) -> u128 {
    let mut total: u128 = 1;
    for i in 1..=r as u128 {
        total = total.saturating_mul(c as u128 + i) / i;
        if total >= u128::MAX / 1024 {
            return u128::MAX;
        }
    }
    total
}

pub(crate) fn table(solver: &mut Solver, upto: u64, options: TableOptions) -> Result<Table, TableError> {
    let (mut table, from_column) = build(solver, upto, options, false)?;
    if from_column {
        if let Some(column) = solver.pile_column(upto) {
            fill_rows(&mut table, column);
        }
    }
    Ok(table)
}

/// A table whose rows may be written as they are made: `Rows` when the one-pile values are all
/// known to the solver (stored, or from a proven period) and the table shows them alone.
pub(crate) enum TableStream<'s> {
    /// The rows come from the solver's values, made as they are written.
    Rows(StreamedRows<'s>),
    /// The table, held whole.
    Whole(Table),
}

/// `table`, with the rows of a one-pile table of outcomes and Grundy values left where the
/// solver keeps its values: the same table, written in the same bytes, in memory that does not
/// grow with its rows.
pub(crate) fn stream_table<'s>(
    solver: &'s mut Solver,
    upto: u64,
    options: TableOptions,
) -> Result<TableStream<'s>, TableError> {
    let (mut table, from_column) = build(solver, upto, options, true)?;
    let plain = table.shape == TableShape::OnePile
        && table.misere.is_none()
        && table.loopy_values.is_none()
        && table.remoteness.is_none()
        && table.by_last.is_none();
    let solver: &'s Solver = solver;
    match solver.pile_column(upto) {
        Some(column) if from_column && plain => {
            Ok(TableStream::Rows(StreamedRows::new(table, column, solver.limits())))
        }
        Some(column) if from_column => {
            fill_rows(&mut table, column);
            Ok(TableStream::Whole(table))
        }
        _ => Ok(TableStream::Whole(table)),
    }
}

/// The rows of a one-pile table, from the solver's values.
fn fill_rows(table: &mut Table, column: PileColumn) {
    let rows = column.last() as usize + 1;
    let (mut outcomes, mut grundy, mut p_positions) = (Vec::with_capacity(rows), Vec::with_capacity(rows), Vec::new());
    column.for_each_from(0, |n, g| {
        let v = Value::from_grundy(g);
        if v.outcome == Outcome::P {
            p_positions.push(vec![n]);
        }
        outcomes.push(v.outcome);
        grundy.push(v.grundy);
    });
    table.outcomes = vec![outcomes];
    table.grundy = vec![grundy];
    table.p_positions = p_positions;
}

/// The table, and whether its one-pile rows are left to be read from the solver's values
/// (`stream`: a table that could be written as it is made is not refused for its rows).
fn build(solver: &mut Solver, upto: u64, options: TableOptions, stream: bool) -> Result<(Table, bool), TableError> {
    let game: &Game = solver.game();
    let name = game.name.clone();
    if options.by_last && !game.uses_last {
        return Err(TableError::LastUnused { game: name });
    }
    if options.by_last && !matches!(game.board, Board::OnePile | Board::AnyPiles) {
        return Err(TableError::ByLastNeedsOnePile { game: name });
    }
    let shape = table_shape(game, options.piles)?;
    // A table holds every position it shows: refuse at once one larger than the limit allows.
    let positions = |upto: u64| {
        let n = upto as u128 + 1;
        match shape {
            TableShape::OnePile if options.by_last => n * (n + 1),
            TableShape::OnePile => n,
            TableShape::TwoPiles => n * (n + 1) / 2,
            TableShape::Rectangles | TableShape::Cells => (n - 1) * (n - 1),
            TableShape::ManyPiles { piles } => many::positions(piles, upto),
        }
    };
    let rows_allowed = match shape {
        TableShape::ManyPiles { .. } => solver.limits().max_states / many::SHARE_OF_STATES,
        _ => solver.limits().max_states,
    };
    // A one-pile table of outcomes and values alone may be written as its rows are made:
    // refused then only if its rows cannot come from the solver's values (see `one_pile_rows`).
    let streamable = shape == TableShape::OnePile
        && !options.by_last
        && !options.remoteness
        && game.convention == crate::vocab::Convention::Normal
        && !game.can_grow();
    let may_stream = stream && streamable;
    let refuse = |upto: u64| TableError::refuse_rows(upto, rows_allowed, positions);
    // A table too long to write is refused for that first, however it is asked for, so that
    // every front end gives the same answer to the same question.
    if streamable {
        TableError::refuse_writing(upto, solver.limits())?;
    }
    if !may_stream {
        refuse(upto)?;
    }
    // Bite games reach every board inside the largest rectangle: refuse at once a table whose
    // box could not be held, rather than after filling the boxes that can.
    let bites =
        !game.moves.is_empty() && game.moves.iter().all(|r| matches!(r.kind, crate::rules::RuleKind::Bite { .. }));
    if shape == TableShape::Rectangles && bites {
        let limit = solver.limits().max_states;
        let boards = boards_in_box(upto, upto);
        if boards > limit as u128 {
            let largest = (1..upto).take_while(|&k| boards_in_box(k, k) <= limit as u128).last().unwrap_or(0);
            let boards = crate::solve::approximately(boards as f64);
            return Err(TableError::TooLarge { upto, boards, limit, largest });
        }
    }
    let misere = game.convention == crate::vocab::Convention::Misere;
    let mut listed = Vec::new();
    let Rows { outcomes, grundy, p_positions, column } = match shape {
        TableShape::OnePile => one_pile_rows(solver, upto, &name, may_stream.then_some(&refuse))?,
        TableShape::TwoPiles => two_pile_rows(solver, upto)?,
        TableShape::Rectangles | TableShape::Cells => grid_rows(solver, upto, shape)?,
        TableShape::ManyPiles { piles } => {
            let (rows, positions) = many::many_pile_rows(solver, piles, upto)?;
            listed = positions;
            rows
        }
    };
    let loopy = game.can_grow() && !misere;
    let loopy_values = if loopy && shape == TableShape::OnePile {
        let mut values = Vec::new();
        for n in 0..=upto {
            values.push(solver.loopy_value(&Position::new(vec![n]))?.map(|v| v.to_string()).unwrap_or_default());
        }
        Some(values)
    } else {
        None
    };
    let grundy_note = grundy_note(&grundy, misere, loopy);
    let Patterns { period, no_period_to, period_not_looked, pattern } =
        patterns(solver, (shape, upto), options.period_values, (&outcomes, &p_positions, &listed), column);
    let cell_rule = if shape == TableShape::Cells { cell_rule(game) } else { None };
    let misere_columns =
        if misere && shape == TableShape::OnePile && solver.method() == crate::solve::MethodKind::MisereQuotient {
            Some(misere_columns(solver, upto)?)
        } else {
            None
        };
    let by_last = if options.by_last { Some(last_grid(solver, upto)?) } else { None };
    let remoteness = if options.remoteness && shape == TableShape::OnePile {
        let mut r = Vec::new();
        for n in 0..=upto {
            r.push(solver.remoteness(&Position::new(vec![n]))?);
        }
        Some(r)
    } else {
        None
    };
    let table = Table {
        game: name,
        upto,
        shape,
        outcomes,
        grundy,
        p_positions,
        grundy_note,
        period,
        no_period_to,
        period_not_looked,
        pattern,
        remoteness,
        loopy_values,
        by_last,
        coins: game.board == Board::Coins,
        cell_rule,
        misere: misere_columns,
        positions: listed,
    };
    Ok((table, column))
}

/// What a table says of its values that are missing: none where every one was computed.
fn grundy_note(grundy: &[Vec<Option<u64>>], misere: bool, loopy: bool) -> Option<&'static str> {
    let missing = grundy.iter().flatten().any(|g| g.is_none());
    match (missing, misere) {
        (false, _) => None,
        (true, false) if loopy => Some(
            "∞ is Smith's generalised value of a position from which play need not end; ∞(0,2) lists the values of its options that are not ∞",
        ),
        (true, true) => Some("Grundy values are not defined under misère play"),
        (true, false) => Some("Grundy values marked - were not computed: those positions are too large to search"),
    }
}

/// A table's rows as `patterns` reads them: the outcomes, the P-positions and the positions a
/// many-pile table lists.
type RowsMade<'a> = (&'a [Vec<Outcome>], &'a [Vec<u64>], &'a [Vec<u64>]);

/// The patterns a table finds in its rows, and for one pile a period looked for past them.
struct Patterns {
    period: Option<periods::Periodicity>,
    no_period_to: Option<u64>,
    period_not_looked: Option<u64>,
    pattern: Option<String>,
}

/// The patterns of a table of `shape` up to `upto`, from its rows (`outcomes`, `p_positions`
/// and the positions `listed` of a many-pile table); for one pile, a period looked for past
/// the rows with `period_values` values (by default a small share of the question's work).
fn patterns(
    solver: &mut Solver,
    (shape, upto): (TableShape, u64),
    period_values: Option<u64>,
    (outcomes, p_positions, listed): RowsMade,
    column: bool,
) -> Patterns {
    let mut found = Patterns { period: None, no_period_to: None, period_not_looked: None, pattern: None };
    match shape {
        TableShape::OnePile => {
            found.pattern = match solver.pile_column(upto).filter(|_| column) {
                Some(values) => periods::one_pile_pattern_of(upto, |n| values.get(n) == 0),
                None => periods::one_pile_pattern_of(upto, |n| outcomes[0][n as usize] == Outcome::P),
            };
            // Looking past the table for a period is a bonus, bounded by a count of positions
            // (never by the clock, so that the same command prints the same bytes anywhere).
            // Asked for with period values, it may use the question's own limits.
            let look = period_values.unwrap_or(periods::MIN_EXAMINED).max(1);
            let given = solver.limits().clone();
            let bonus = match period_values {
                Some(_) => given.clone(),
                // A look past the table is a bonus: a small share of a question's work.
                None => Limits {
                    max_states: given.max_states.min(PERIOD_SEARCH_STATES),
                    max_work: given.max_work.min(PERIOD_SEARCH_WORK),
                    ..given.clone()
                },
            };
            solver.set_limits(bonus);
            let looked = one_pile_period(solver, upto, look);
            solver.set_limits(given);
            match looked {
                Ok(Some(period)) => found.period = Some(period),
                Ok(None) => found.no_period_to = Some(upto.max(look - 1)),
                // Looking further than the table asked for hit a limit: say so, and nothing more.
                Err(_) => found.period_not_looked = Some(upto.max(look - 1)),
            }
        }
        TableShape::TwoPiles => found.pattern = periods::two_pile_pattern(p_positions, upto),
        TableShape::ManyPiles { piles } => found.pattern = many::column_rule(listed, &outcomes[0], piles),
        TableShape::Rectangles | TableShape::Cells => {}
    }
    found
}

/// Which positions a table of this game covers: its board decides, and for games on any
/// number of piles, `--piles`.
/// The most piles a table's positions have: as many as a game's board may declare.
pub(super) const MOST_TABLE_PILES: usize = 64;

fn table_shape(game: &Game, piles: Option<usize>) -> Result<TableShape, TableError> {
    // Boards whose piles are fixed take --piles only when it says what they have.
    let natural = |count: usize, board: String| match piles {
        Some(given) if given != count => Err(TableError::PilesFixed { game: game.name.clone(), given, board }),
        _ => Ok(()),
    };
    Ok(match game.board {
        Board::AnyPiles => match piles {
            Some(0) => return Err(TableError::NoPiles),
            Some(k) if k > MOST_TABLE_PILES => {
                return Err(TableError::PilesTooMany { given: k, most: MOST_TABLE_PILES })
            }
            None | Some(1) => TableShape::OnePile,
            Some(2) => TableShape::TwoPiles,
            Some(k) => TableShape::ManyPiles { piles: k },
        },
        Board::FixedPiles(k) => {
            natural(k, format!("exactly {k} piles"))?;
            match k {
                0 | 1 => TableShape::OnePile,
                2 => TableShape::TwoPiles,
                k => TableShape::ManyPiles { piles: k },
            }
        }
        Board::OnePile => natural(1, "one pile".into()).map(|_| TableShape::OnePile)?,
        Board::Coins => natural(1, "a row of coins".into()).map(|_| TableShape::OnePile)?,
        Board::Rows => natural(usize::MAX, "a Chomp board".into()).map(|_| TableShape::Rectangles)?,
        Board::Cells { .. } => natural(usize::MAX, "the cells of a product".into()).map(|_| TableShape::Cells)?,
    })
}

/// Every position a table shows, with its outcome and Grundy value: one row for a one-pile
/// table, a row for each first pile (or row count) otherwise.
struct Rows {
    outcomes: Vec<Vec<Outcome>>,
    grundy: Vec<Vec<Option<u64>>>,
    p_positions: Vec<Vec<u64>>,
    /// the rows are left empty: the solver knows every value of a one-pile table, and its
    /// column of values gives them (`Solver::pile_column`)
    column: bool,
}

fn one_pile_rows(
    solver: &mut Solver,
    upto: u64,
    name: &str,
    refuse: Option<&dyn Fn(u64) -> Result<(), TableError>>,
) -> Result<Rows, TableError> {
    let game: &Game = solver.game();
    let coins = game.board == Board::Coins;
    let mut p_positions = Vec::new();
    let (mut o, mut g) = (Vec::new(), Vec::new());
    // A table shows every value: a window of them (what `solve` keeps of a large pile's) would
    // be dropped values computed again from pile 0.
    let whole = Limits { table: crate::solve::Table::Whole, ..solver.limits().clone() };
    solver.set_limits(whole);
    // Ask for the last pile first: single-pile values then estimate the whole table's
    // work at once, and a hopeless table is refused within a second with the rows it
    // has, instead of growing row by row into the limit.
    let mut refused = None;
    let estimates =
        matches!(solver.method(), crate::solve::MethodKind::PileSum | crate::solve::MethodKind::MisereQuotient);
    if estimates && upto > 0 {
        if let Err(e @ (SolveError::TooMuchWork { .. } | SolveError::TooManyValues { .. })) =
            solver.value(&Position::new(vec![upto]))
        {
            refused = Some(e);
        }
    }
    // A loopy game's graph is labelled again each time it grows: the last pile first
    // (from which every smaller one is reached) builds and labels it once.
    if solver.method() == crate::solve::MethodKind::Loopy && upto > 0 {
        solver.value(&Position::new(vec![upto]))?;
    }
    // The last pile's answer computed every value below it (or proved their period): the rows
    // are read from the solver's values rather than asked for one by one.
    if refused.is_none() && solver.pile_column(upto).is_some() {
        return Ok(Rows {
            outcomes: vec![Vec::new()],
            grundy: vec![Vec::new()],
            p_positions: Vec::new(),
            column: true,
        });
    }
    // Asked for one by one, the rows are held: a table that was not refused for them at first
    // (it might have been written as it was made) is refused for them now.
    if let Some(refuse) = refuse {
        refuse(upto)?;
    }
    for n in 0..=upto {
        let reach = match &refused {
            Some(SolveError::TooMuchWork { computed, .. }) => Some(*computed),
            Some(SolveError::TooManyValues { limit, .. }) => Some(limit - 1),
            _ => None,
        };
        if let (Some(reach), true) = (reach, n > 0) {
            if n > reach {
                let cause = refused.take().expect("checked just above");
                let partial = one_pile_partial(name, n - 1, o, g, p_positions, coins);
                let reason = "ask for a smaller table (the estimate above says how far the limits reach)".to_string();
                return Err(TableError::Incomplete { partial: Box::new(partial), reason, cause });
            }
        }
        solver.limits().progress.report(crate::progress::Stage::TableRows, n, upto + 1);
        // Rows of known piles cost nothing to solve: look for Ctrl-C between them too.
        let answer = if n % 4096 == 4095 {
            crate::solve::check_cancel(solver.limits()).and_then(|_| solver.pile_value(n))
        } else {
            solver.pile_value(n)
        };
        let v = match answer {
            Ok(v) => v,
            Err(cause) if n > 0 => {
                let partial = one_pile_partial(name, n - 1, o, g, p_positions, coins);
                let reason = match &cause {
                    SolveError::Timeout { .. } => format!("give it longer with {}", give(Argument::Timeout)),
                    SolveError::StateLimit { suggested, .. } => {
                        format!("raise the limit with {}", give_value(Argument::MaxStates, suggested))
                    }
                    SolveError::PileWorkLimit { .. }
                    | SolveError::TooMuchWork { .. }
                    | SolveError::WorkLimit { .. } => {
                        format!(
                            "give it longer with {}",
                            give_value(Argument::Timeout, solver.limits().seconds_for_work(4.0))
                        )
                    }
                    _ => "see the cause below".to_string(),
                };
                return Err(TableError::Incomplete { partial: Box::new(partial), reason, cause });
            }
            Err(e) => return Err(e.into()),
        };
        if v.outcome == Outcome::P {
            p_positions.push(vec![n]);
        }
        o.push(v.outcome);
        g.push(v.grundy);
    }
    Ok(Rows { outcomes: vec![o], grundy: vec![g], p_positions, column: false })
}

fn two_pile_rows(solver: &mut Solver, upto: u64) -> Result<Rows, TableError> {
    let mut p_positions = Vec::new();
    let size = upto as usize + 1;
    let mut outcomes = vec![vec![Outcome::N; size]; size];
    let mut grundy = vec![vec![None; size]; size];
    // The far corner first: one search values the whole box (or is refused at once by
    // its estimate), and every cell after it is looked up.
    solver.value(&Position::new(vec![upto, upto]))?;
    for a in 0..=upto {
        solver.limits().progress.report(crate::progress::Stage::TableRows, a, upto + 1);
        for b in a..=upto {
            let v = solver.value(&Position::new(vec![a, b]))?;
            let (i, j) = (a as usize, b as usize);
            outcomes[i][j] = v.outcome;
            outcomes[j][i] = v.outcome;
            grundy[i][j] = v.grundy;
            grundy[j][i] = v.grundy;
            if v.outcome == Outcome::P {
                p_positions.push(vec![a, b]);
            }
        }
    }
    Ok(Rows { outcomes, grundy, p_positions, column: false })
}

fn grid_rows(solver: &mut Solver, upto: u64, shape: TableShape) -> Result<Rows, TableError> {
    let (mut outcomes, mut grundy, mut p_positions) = (Vec::new(), Vec::new(), Vec::new());
    // r rows of c squares, or the cell (x, y) = (r, c)
    let position = |r: u64, c: u64| match shape {
        TableShape::Cells => Position::of_cells(vec![r, c]),
        _ => Position::new(vec![c; r as usize]),
    };
    for r in 1..=upto {
        solver.limits().progress.report(crate::progress::Stage::TableRows, r, upto);
        let (mut o, mut g) = (Vec::new(), Vec::new());
        for c in 1..=upto {
            let v = solver.value(&position(r, c))?;
            if v.outcome == Outcome::P {
                p_positions.push(vec![r, c]);
            }
            o.push(v.outcome);
            g.push(v.grundy);
        }
        outcomes.push(o);
        grundy.push(g);
    }
    Ok(Rows { outcomes, grundy, p_positions, column: false })
}

/// The tartan theorem, by which the cells of a tartan product under normal play are computed
/// (tests/products.rs checks it against brute forces that do not use it).
fn cell_rule(game: &Game) -> Option<String> {
    let product = game.product.as_ref()?;
    if product.kind != crate::vocab::ProductKind::Tartan || game.convention != crate::vocab::Convention::Normal {
        return None;
    }
    let [first, second] = &product.parts;
    Some(format!(
        "G(x, y) = G₁(x) ⊗ G₂(y), the nim-product of the value of a heap of x in {} and of a heap of y in {} (the tartan theorem)",
        first.game.name, second.game.name
    ))
}

/// One pile of every n up to `upto`, after every previous move up to `upto`.
fn last_grid(solver: &mut Solver, upto: u64) -> Result<LastGrid, SolveError> {
    let mut grid = LastGrid { outcomes: Vec::new(), grundy: Vec::new() };
    for n in 0..=upto {
        solver.limits().progress.report(crate::progress::Stage::TableRows, n, upto + 1);
        let (mut o, mut g) = (Vec::new(), Vec::new());
        for last in 1..=upto {
            let v = solver.value(&Position { piles: vec![n], last: Some(last), cells: false })?;
            o.push(v.outcome);
            g.push(v.grundy);
        }
        grid.outcomes.push(o);
        grid.grundy.push(g);
    }
    Ok(grid)
}

/// The values of one pile of 0..=last: Grundy values where defined, outcomes (P = 0, N = 1,
/// D = 2) otherwise.
fn sequence(solver: &mut Solver, last: u64) -> Result<(Sequence, bool), SolveError> {
    // Schwenk's method knows outcomes only; its Grundy values would each need a search.
    if solver.method() == crate::solve::MethodKind::LastBound {
        let mut outcomes = Vec::new();
        for n in 0..=last {
            outcomes.push(if solver.outcome(&Position::new(vec![n]))? == Outcome::P { 0 } else { 1 });
        }
        return Ok((Sequence::Read(outcomes), false));
    }
    if let Some(values) = solver.already_known_piles(last) {
        return Ok((Sequence::Stored(values), true));
    }
    let mut values = Vec::new();
    let mut grundy = true;
    for n in 0..=last {
        let v = solver.pile_value(n)?;
        grundy &= v.grundy.is_some();
        let outcome = match v.outcome {
            Outcome::P => 0,
            Outcome::N => 1,
            Outcome::D => 2,
        };
        values.push((v.grundy.map(|g| g as i64), outcome));
    }
    Ok((Sequence::Read(values.iter().map(|(g, o)| if grundy { g.unwrap_or(0) } else { *o }).collect()), grundy))
}

/// The values a look for a period reads: the kernel's, stored as narrowly as it stores them,
/// or read pile by pile.
enum Sequence {
    Stored(Values),
    Read(Vec<i64>),
}

impl Sequence {
    fn detect(&self, arithmetic: bool) -> Option<crate::solve::period::Detected> {
        match self {
            Sequence::Stored(values) => values.detect_period(arithmetic),
            Sequence::Read(values) => periods::detect(values, arithmetic),
        }
    }
}

/// Looks for a period in the values of one pile, over at least `MIN_EXAMINED` of them, and
/// further where the octal theorem needs more values to prove one.
fn one_pile_period(solver: &mut Solver, upto: u64, look: u64) -> Result<Option<Periodicity>, SolveError> {
    // Looked at in rounds, each twice the last: a period proven early (Kayles' at 256) ends
    // the look there, however far `--period-values` allows.
    let mut examined = upto.max(look.min(periods::MIN_EXAMINED) - 1) + 1;
    loop {
        let found = period_in(solver, examined)?;
        let proven = found.as_ref().is_some_and(|p| p.proven);
        let last_round = examined > upto.max(look - 1);
        if proven || last_round {
            return Ok(found);
        }
        examined = examined.saturating_mul(2).min(upto.max(look - 1) + 1);
    }
}

/// The period the values of piles 0..examined show, and whether a theorem proves it.
fn period_in(solver: &mut Solver, mut examined: u64) -> Result<Option<Periodicity>, SolveError> {
    let octal = periods::octal_bound(solver.game());
    let (found, grundy) = match solver.proven_look().filter(|&(_, _, read)| read <= examined) {
        // The solver proved a period looking at fewer values than these: a look at these finds
        // the same (`Solver::proven_look`), and reads none of them (a table of 10⁸ rows).
        Some((pre, p, _)) => {
            if let Some(t) = octal {
                let needed = periods::octal_needs(pre, p, t);
                if needed > examined && needed <= 8 * examined {
                    examined = needed;
                }
            }
            (Some((pre as usize, p as usize, 0)), true)
        }
        None => {
            let (mut values, mut grundy) = sequence(solver, examined - 1)?;
            // The solver looked at the same values when they came from its table (a table of
            // 2^k rows, as it looks at each doubling): what it found stands.
            let seen = match values {
                Sequence::Stored(_) => solver.period_seen(examined),
                Sequence::Read(_) => None,
            };
            let mut plain = seen.unwrap_or_else(|| values.detect(false));
            if let (Some((pre, p, _)), Some(t)) = (plain, octal) {
                let needed = periods::octal_needs(pre as u64, p as u64, t);
                if needed > examined && needed <= 8 * examined {
                    examined = needed;
                    (values, grundy) = sequence(solver, examined - 1)?;
                    plain = values.detect(false);
                }
            }
            (plain.or_else(|| if grundy { values.detect(true) } else { None }), grundy)
        }
    };
    let of = if grundy { "grundy" } else { "outcome" };
    let quotient_period = match solver.misere() {
        Some(m) if !grundy => m.period(),
        _ => None,
    };
    Ok(found.map(|(pre, p, saltus)| {
        let mut theorem = periods::proof(solver.game(), grundy, pre as u64, p as u64, saltus, examined);
        // Under misère play a heap's outcome is whether Φ(n) lies in the P-portion, so once Φ
        // is proven periodic (period q from n₀), outcomes checked over a whole period of Φ
        // past both preperiods, shifted by their own period, hold for every heap.
        if let Some(phi) = quotient_period.filter(|_| theorem.is_none()) {
            let reach = (pre as u64).max(phi.preperiod) + phi.period + p as u64 - 1;
            if examined > reach {
                theorem = Some(periods::MISERE_QUOTIENT_PROOF);
            }
        }
        Periodicity {
            of,
            preperiod: pre as u64,
            period: p as u64,
            saltus,
            proven: theorem.is_some(),
            theorem,
            checked_to: examined - 1,
        }
    }))
}

/// The rows of a one-pile table computed before it stopped, as a table of their own.
fn one_pile_partial(
    game: &str,
    upto: u64,
    outcomes: Vec<Outcome>,
    grundy: Vec<Option<u64>>,
    p_positions: Vec<Vec<u64>>,
    coins: bool,
) -> Table {
    Table {
        game: game.to_string(),
        upto,
        shape: TableShape::OnePile,
        outcomes: vec![outcomes],
        grundy: vec![grundy],
        p_positions,
        grundy_note: None,
        period: None,
        no_period_to: None,
        period_not_looked: None,
        pattern: None,
        remoteness: None,
        loopy_values: None,
        by_last: None,
        coins,
        cell_rule: None,
        misere: None,
        positions: Vec::new(),
    }
}
