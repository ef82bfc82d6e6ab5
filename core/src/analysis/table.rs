//! `table`: outcomes and Grundy values of every small position, and the P-positions among them.

use miette::Diagnostic;
use serde_json::{json, Value as Json};
use thiserror::Error;
use unicode_width::UnicodeWidthStr;

use super::periods::{self, Periodicity};
use crate::rules::{Board, Game, Position};
use crate::solve::{Limits, Outcome, SolveError, Solver};

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
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub game: String,
    pub upto: u64,
    pub shape: TableShape,
    /// One row for one-pile tables; a grid otherwise (indexed [a][b], or [r-1][c-1]).
    pub outcomes: Vec<Vec<Outcome>>,
    pub grundy: Vec<Vec<Option<u64>>>,
    pub p_positions: Vec<Vec<u64>>,
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
}

/// Misère columns of a one-pile table; `None` entries were not computed (too many positions
/// for the genus, or past the quotient).
#[derive(Debug, Clone, PartialEq)]
pub struct MisereColumns {
    pub grundy: Vec<Option<u64>>,
    pub genus: Vec<Option<String>>,
    pub tame: Vec<Option<bool>>,
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
pub struct TableOptions {
    /// a column of remoteness: how many moves the game lasts with best play
    pub remoteness: bool,
    /// a grid of one pile of n after a previous move of `last`, for memory games
    pub by_last: bool,
    /// how many values (from pile 0) are looked at for a period; `MIN_EXAMINED` by default
    pub period_values: Option<u64>,
}

/// Values of one pile of n = 0..=upto (rows) after a previous move of last = 1..=upto
/// (columns): a memory game's whole state.
#[derive(Debug, Clone, PartialEq)]
pub struct LastGrid {
    /// indexed [n][last - 1]
    pub outcomes: Vec<Vec<Outcome>>,
    pub grundy: Vec<Vec<Option<u64>>>,
}

#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum TableError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),

    /// A limit stopped the table partway: what was computed, and why it stopped.
    #[error("the table stops after n = {}", partial.upto)]
    #[diagnostic(code(takeaway::table::incomplete), help("the rows up to there are shown; {reason}"))]
    Incomplete {
        partial: Box<Table>,
        reason: String,
        #[diagnostic_source]
        cause: SolveError,
    },

    #[error("--by-last was given, but the rules of {game} never read `last`")]
    #[diagnostic(
        code(takeaway::table::last_unused),
        help("a table by last move is for memory games, whose rules read `last` (as in `take ≤ 2·last`)")
    )]
    LastUnused { game: String },

    #[error("--by-last shows one pile after each previous move, and {game} is not a one-pile game")]
    #[diagnostic(
        code(takeaway::table::by_last_needs_one_pile),
        help("ask about single positions instead: takeaway solve FILE 3 4 --last 2")
    )]
    ByLastNeedsOnePile { game: String },

    #[error("`table` shows one-pile positions or games on two piles, and {game} is played on {piles} piles")]
    #[diagnostic(
        code(takeaway::table::too_many_piles),
        help("ask about single positions instead: takeaway solve FILE 1 2 3")
    )]
    TooManyPiles { game: String, piles: usize },

    #[error("a table of rectangles up to {upto}×{upto} holds every board inside that box: {boards} boards, past the limit of {limit} positions")]
    #[diagnostic(
        code(takeaway::table::too_large),
        help("the boards inside an r×c box number C(r + c, r); tables up to --upto {largest} fit the limit (raise it with --max-states, or ask about one board with `solve`)")
    )]
    TooLarge { upto: u64, boards: String, limit: usize, largest: u64 },

    #[error("a table up to {upto} holds {positions} positions, past the limit of {limit}")]
    #[diagnostic(
        code(takeaway::table::too_many_rows),
        help("a table keeps every position it shows: ask for --upto {largest} or less (or raise the limit with --max-states), or ask about one position with `solve`")
    )]
    TooManyRows { upto: u64, positions: String, limit: usize, largest: u64 },
}

impl TableError {
    /// Refuses before anything is computed a table of more positions than the limit allows;
    /// `positions(k)` counts the positions of the table up to k.
    pub fn refuse_rows(upto: u64, limit: usize, positions: impl Fn(u64) -> u128) -> Result<(), TableError> {
        if positions(upto) <= limit as u128 {
            return Ok(());
        }
        // The largest --upto that fits, by bisection (the count grows with k).
        let (mut fits, mut over) = (0u64, upto);
        while over - fits > 1 {
            let mid = fits + (over - fits) / 2;
            if positions(mid) <= limit as u128 {
                fits = mid;
            } else {
                over = mid;
            }
        }
        let positions = crate::solve::approximately(positions(upto) as f64);
        Err(TableError::TooManyRows { upto, positions, limit, largest: fits })
    }
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

pub fn table(solver: &mut Solver, upto: u64, options: TableOptions) -> Result<Table, TableError> {
    let game: &Game = solver.game();
    let name = game.name.clone();
    if options.by_last && !game.uses_last {
        return Err(TableError::LastUnused { game: name });
    }
    if options.by_last && !matches!(game.board, Board::OnePile | Board::AnyPiles) {
        return Err(TableError::ByLastNeedsOnePile { game: name });
    }
    let shape = match game.board {
        Board::OnePile | Board::AnyPiles | Board::Coins => TableShape::OnePile,
        Board::FixedPiles(2) => TableShape::TwoPiles,
        Board::FixedPiles(k) => return Err(TableError::TooManyPiles { game: name, piles: k }),
        Board::Rows => TableShape::Rectangles,
        Board::Cells { .. } => TableShape::Cells,
    };
    // A table holds every position it shows: refuse at once one larger than the limit allows.
    let positions = |upto: u64| {
        let n = upto as u128 + 1;
        match shape {
            TableShape::OnePile if options.by_last => n * (n + 1),
            TableShape::OnePile => n,
            TableShape::TwoPiles => n * (n + 1) / 2,
            TableShape::Rectangles | TableShape::Cells => (n - 1) * (n - 1),
        }
    };
    TableError::refuse_rows(upto, solver.limits().max_states, positions)?;
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
    let Rows { outcomes, grundy, p_positions } = match shape {
        TableShape::OnePile => one_pile_rows(solver, upto, &name)?,
        TableShape::TwoPiles => two_pile_rows(solver, upto)?,
        TableShape::Rectangles | TableShape::Cells => grid_rows(solver, upto, shape)?,
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
    let missing = grundy.iter().flatten().any(|g| g.is_none());
    let grundy_note = match (missing, misere) {
        (false, _) => None,
        (true, false) if loopy => Some(
            "∞ is Smith's generalised value of a position from which play need not end; ∞(0,2) lists the values of its options that are not ∞",
        ),
        (true, true) => Some("Grundy values are not defined under misère play"),
        (true, false) => Some("Grundy values marked - were not computed: those positions are too large to search"),
    };
    let (mut period, mut no_period_to, mut period_not_looked, mut pattern) = (None, None, None, None);
    match shape {
        TableShape::OnePile => {
            let p: Vec<bool> = outcomes[0].iter().map(|o| *o == Outcome::P).collect();
            pattern = periods::one_pile_pattern(&p);
            // Looking past the table for a period is a bonus, bounded by a count of positions
            // (never by the clock, so that the same command prints the same bytes anywhere).
            // Asked for with --period-values, it may use the question's own limits.
            let look = options.period_values.unwrap_or(periods::MIN_EXAMINED).max(1);
            let given = solver.limits().clone();
            let bonus = match options.period_values {
                Some(_) => given.clone(),
                // A look past the table is a bonus: a small share of a question's work.
                None => Limits {
                    max_states: given.max_states.min(PERIOD_SEARCH_STATES),
                    max_work: given.max_work.min(PERIOD_SEARCH_WORK),
                    ..given.clone()
                },
            };
            solver.set_limits(bonus);
            let found = one_pile_period(solver, upto, look);
            solver.set_limits(given);
            match found {
                Ok(Some(found)) => period = Some(found),
                Ok(None) => no_period_to = Some(upto.max(look - 1)),
                // Looking further than the table asked for hit a limit: say so, and nothing more.
                Err(_) => period_not_looked = Some(upto.max(look - 1)),
            }
        }
        TableShape::TwoPiles => pattern = periods::two_pile_pattern(&p_positions, upto),
        TableShape::Rectangles | TableShape::Cells => {}
    }
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
    Ok(Table {
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
    })
}

/// Every position a table shows, with its outcome and Grundy value: one row for a one-pile
/// table, a row for each first pile (or row count) otherwise.
struct Rows {
    outcomes: Vec<Vec<Outcome>>,
    grundy: Vec<Vec<Option<u64>>>,
    p_positions: Vec<Vec<u64>>,
}

fn one_pile_rows(solver: &mut Solver, upto: u64, name: &str) -> Result<Rows, TableError> {
    let game: &Game = solver.game();
    let coins = game.board == Board::Coins;
    let mut p_positions = Vec::new();
    let (mut o, mut g) = (Vec::new(), Vec::new());
    // Ask for the last pile first: single-pile values then estimate the whole table's
    // work at once, and a hopeless table is refused within a second with the rows it
    // has, instead of growing row by row into the limit.
    let mut refused = None;
    if solver.method() == crate::solve::MethodKind::PileSum && upto > 0 {
        if let Err(e @ SolveError::TooMuchWork { .. }) = solver.value(&Position::new(vec![upto])) {
            refused = Some(e);
        }
    }
    // A loopy game's graph is labelled again each time it grows: the last pile first
    // (from which every smaller one is reached) builds and labels it once.
    if solver.method() == crate::solve::MethodKind::Loopy && upto > 0 {
        solver.value(&Position::new(vec![upto]))?;
    }
    for n in 0..=upto {
        if let (Some(SolveError::TooMuchWork { computed, .. }), true) = (&refused, n > 0) {
            if n > *computed {
                let cause = refused.take().expect("checked just above");
                let partial = one_pile_partial(name, n - 1, o, g, p_positions, coins);
                let reason = "ask for a smaller table (the estimate above says how far the limits reach)".to_string();
                return Err(TableError::Incomplete { partial: Box::new(partial), reason, cause });
            }
        }
        solver.limits().progress.report(crate::solve::progress::Stage::TableRows, n, upto + 1);
        // Rows of known piles cost nothing to solve: look for Ctrl-C between them too.
        let answer = if n % 4096 == 4095 {
            crate::solve::check_cancel(solver.limits()).and_then(|_| solver.value(&Position::new(vec![n])))
        } else {
            solver.value(&Position::new(vec![n]))
        };
        let v = match answer {
            Ok(v) => v,
            Err(cause) if n > 0 => {
                let partial = one_pile_partial(name, n - 1, o, g, p_positions, coins);
                let reason = match &cause {
                    SolveError::Timeout { .. } => "give it longer with --timeout".to_string(),
                    SolveError::StateLimit { suggested, .. } => {
                        format!("raise the limit with --max-states {suggested}")
                    }
                    SolveError::PileWorkLimit { .. } | SolveError::TooMuchWork { .. } => {
                        format!("raise the limit with --max-states {}", solver.limits().states_for_work(4.0))
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
    Ok(Rows { outcomes: vec![o], grundy: vec![g], p_positions })
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
        solver.limits().progress.report(crate::solve::progress::Stage::TableRows, a, upto + 1);
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
    Ok(Rows { outcomes, grundy, p_positions })
}

fn grid_rows(solver: &mut Solver, upto: u64, shape: TableShape) -> Result<Rows, TableError> {
    let (mut outcomes, mut grundy, mut p_positions) = (Vec::new(), Vec::new(), Vec::new());
    // r rows of c squares, or the cell (x, y) = (r, c)
    let position = |r: u64, c: u64| match shape {
        TableShape::Cells => Position::of_cells(vec![r, c]),
        _ => Position::new(vec![c; r as usize]),
    };
    for r in 1..=upto {
        solver.limits().progress.report(crate::solve::progress::Stage::TableRows, r, upto);
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
    Ok(Rows { outcomes, grundy, p_positions })
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
        solver.limits().progress.report(crate::solve::progress::Stage::TableRows, n, upto + 1);
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
fn sequence(solver: &mut Solver, last: u64) -> Result<(Vec<i64>, bool), SolveError> {
    // Schwenk's method knows outcomes only; its Grundy values would each need a search.
    if solver.method() == crate::solve::MethodKind::LastBound {
        let mut outcomes = Vec::new();
        for n in 0..=last {
            outcomes.push(if solver.outcome(&Position::new(vec![n]))? == Outcome::P { 0 } else { 1 });
        }
        return Ok((outcomes, false));
    }
    let mut values = Vec::new();
    let mut grundy = true;
    for n in 0..=last {
        let v = solver.value(&Position::new(vec![n]))?;
        grundy &= v.grundy.is_some();
        let outcome = match v.outcome {
            Outcome::P => 0,
            Outcome::N => 1,
            Outcome::D => 2,
        };
        values.push((v.grundy.map(|g| g as i64), outcome));
    }
    Ok((values.iter().map(|(g, o)| if grundy { g.unwrap_or(0) } else { *o }).collect(), grundy))
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
    let (mut values, mut grundy) = sequence(solver, examined - 1)?;
    if let (Some((pre, p, _)), Some(t)) = (periods::detect(&values, false), periods::octal_bound(solver.game())) {
        let needed = periods::octal_needs(pre as u64, p as u64, t);
        if needed > examined && needed <= 8 * examined {
            examined = needed;
            (values, grundy) = sequence(solver, examined - 1)?;
        }
    }
    let of = if grundy { "grundy" } else { "outcome" };
    let found = periods::detect(&values, false).or_else(|| if grundy { periods::detect(&values, true) } else { None });
    Ok(found.map(|(pre, p, saltus)| {
        let theorem = periods::proof(solver.game(), grundy, pre as u64, p as u64, saltus, examined);
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

fn grundy_text(g: Option<u64>) -> String {
    g.map(|g| g.to_string()).unwrap_or_else(|| "-".into())
}

impl Table {
    pub fn to_json(&self) -> Json {
        let outcomes: Vec<Vec<&str>> =
            self.outcomes.iter().map(|row| row.iter().map(|o| o.letter()).collect()).collect();
        match self.shape {
            TableShape::OnePile => {
                let mut one = json!({
                "game": self.game,
                "upto": self.upto,
                "outcomes": outcomes[0],
                "grundy": self.grundy[0],
                "p_positions": self.p_positions.iter().map(|p| p[0]).collect::<Vec<_>>(),
                "period": self.period,
                "pattern": self.pattern,
                "remoteness": self.remoteness,
                });
                if let (Some(m), Some(map)) = (&self.misere, one.as_object_mut()) {
                    map.insert("misere_grundy".into(), json!(m.grundy));
                    map.insert("genus".into(), json!(m.genus));
                    map.insert("tame".into(), json!(m.tame));
                    map.insert("phi".into(), json!(m.phi));
                    map.insert("misere_notes".into(), json!(m.notes));
                }
                if let (Some(values), Some(map)) = (&self.loopy_values, one.as_object_mut()) {
                    map.insert("generalised_grundy".into(), json!(values));
                }
                if let (Some(grid), Some(map)) = (&self.by_last, one.as_object_mut()) {
                    let outcomes: Vec<Vec<&str>> =
                        grid.outcomes.iter().map(|row| row.iter().map(|o| o.letter()).collect()).collect();
                    map.insert(
                        "by_last".into(),
                        json!({ "last_from": 1, "outcomes": outcomes, "grundy": grid.grundy }),
                    );
                }
                one
            }
            TableShape::TwoPiles => json!({
                "game": self.game,
                "upto": self.upto,
                "piles": 2,
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
                "pattern": self.pattern,
            }),
            TableShape::Rectangles => json!({
                "game": self.game,
                "upto": self.upto,
                "board": "rectangles",
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
            }),
            TableShape::Cells => json!({
                "game": self.game,
                "upto": self.upto,
                "board": "cells",
                "from": 1,
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
                "rule": self.cell_rule,
            }),
        }
    }

    /// One row per position, with the text table's columns, for a spreadsheet.
    pub fn to_csv(&self) -> String {
        let cell = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        let mut out = String::new();
        match self.shape {
            TableShape::OnePile => {
                let n = if self.coins { "coin" } else { "n" };
                // With --by-last, a column for the previous move: empty on the rows of the
                // game's start, then the grid of (n, last) rows.
                let n = if self.by_last.is_some() { format!("{n},last") } else { n.to_string() };
                match &self.misere {
                    Some(_) => out.push_str(&format!("{n},outcome,misere_grundy,genus,tame,phi")),
                    None => out.push_str(&format!("{n},outcome,grundy")),
                }
                if self.remoteness.is_some() {
                    out.push_str(",remoteness");
                }
                out.push('\n');
                let last_column = if self.by_last.is_some() { "," } else { "" };
                for (i, o) in self.outcomes[0].iter().enumerate() {
                    out.push_str(&format!("{i}{last_column},{}", o.letter()));
                    match &self.misere {
                        Some(m) => {
                            let tame = match m.tame[i] {
                                Some(true) => "tame",
                                Some(false) => "wild",
                                None => "",
                            };
                            out.push_str(&format!(
                                ",{},{},{tame},{}",
                                cell(m.grundy[i]),
                                m.genus[i].clone().unwrap_or_default(),
                                m.phi[i].clone().unwrap_or_default()
                            ));
                        }
                        None => match &self.loopy_values {
                            Some(values) => out.push_str(&format!(",{}", values[i])),
                            None => out.push_str(&format!(",{}", cell(self.grundy[0][i]))),
                        },
                    }
                    if let Some(r) = &self.remoteness {
                        out.push_str(&format!(",{}", cell(r[i])));
                    }
                    out.push('\n');
                }
                if let Some(grid) = &self.by_last {
                    let remoteness = if self.remoteness.is_some() { "," } else { "" };
                    for (i, row) in grid.outcomes.iter().enumerate() {
                        for (j, o) in row.iter().enumerate() {
                            let g = cell(grid.grundy[i][j]);
                            out.push_str(&format!("{i},{},{},{g}{remoteness}\n", j + 1, o.letter()));
                        }
                    }
                }
            }
            TableShape::TwoPiles | TableShape::Rectangles | TableShape::Cells => {
                let (a, b, first) = match self.shape {
                    TableShape::TwoPiles => ("a", "b", 0),
                    TableShape::Rectangles => ("rows", "columns", 1),
                    _ => ("x", "y", 1),
                };
                out.push_str(&format!("{a},{b},outcome,grundy\n"));
                for (i, row) in self.outcomes.iter().enumerate() {
                    for (j, o) in row.iter().enumerate() {
                        let g = self.grundy.get(i).and_then(|r| r.get(j)).copied().flatten();
                        out.push_str(&format!("{},{},{},{}\n", i + first, j + first, o.letter(), cell(g)));
                    }
                }
            }
        }
        out
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match self.shape {
            TableShape::OnePile => {
                out.push_str(&match self.coins {
                    true => format!("{}: one coin showing heads, at n = 1..{} (0: none)\n", self.game, self.upto),
                    false => format!("{}: one pile of n = 0..{}\n", self.game, self.upto),
                });
                let mut header = match self.misere {
                    Some(_) => vec!["n", "outcome", "G⁻", "genus", "tame", "Φ"],
                    None => vec!["n", "outcome", "Grundy"],
                };
                if self.remoteness.is_some() {
                    header.push("remoteness");
                }
                let row = |n: usize| {
                    let mut row = vec![n.to_string(), self.outcomes[0][n].letter().to_string()];
                    if let Some(m) = &self.misere {
                        let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
                        row.push(grundy_text(m.grundy[n]));
                        row.push(shown(&m.genus[n]));
                        row.push(match m.tame[n] {
                            Some(true) => "tame".into(),
                            Some(false) => "wild".into(),
                            None => "-".into(),
                        });
                        row.push(shown(&m.phi[n]));
                    } else {
                        row.push(match &self.loopy_values {
                            Some(values) => values[n].clone(),
                            None => grundy_text(self.grundy[0][n]),
                        });
                    }
                    if let Some(r) = &self.remoteness {
                        row.push(grundy_text(r[n]));
                    }
                    row
                };
                right_aligned(&header, self.outcomes[0].len(), row, &mut out);
                let ps: Vec<String> = self.p_positions.iter().map(|p| p[0].to_string()).collect();
                out.push_str(&format!("P-positions: {}\n", ps.join(", ")));
                let draws: Vec<String> = (0..self.outcomes[0].len())
                    .filter(|&n| self.outcomes[0][n] == Outcome::D)
                    .map(|n| n.to_string())
                    .collect();
                if !draws.is_empty() {
                    out.push_str(&format!("draws: {}\n", draws.join(", ")));
                }
                for note in self.misere.iter().flat_map(|m| &m.notes) {
                    out.push_str(&format!("{note}\n"));
                }
                if let Some(grid) = &self.by_last {
                    out.push_str(&grid.to_text());
                }
            }
            TableShape::TwoPiles => {
                out.push_str(&format!("{}: two piles, each of 0..{}\n", self.game, self.upto));
                let all_values = self.grundy.iter().flatten().all(Option::is_some);
                if self.upto <= 30 && all_values {
                    // The Grundy values themselves, as a teacher draws them: 0 at the P-positions.
                    out.push_str("Grundy values (0 marks a P-position):\n");
                    out.push_str(&value_grid("a\\b", &self.outcomes, &self.grundy, (0, 0), 30));
                } else if self.upto <= 30 {
                    out.push_str(&self.grid("a\\b", 0));
                }
                let ps: Vec<String> = self.p_positions.iter().map(|p| format!("({}, {})", p[0], p[1])).collect();
                out.push_str(&format!("P-positions (a ≤ b): {}\n", ps.join(", ")));
            }
            TableShape::Rectangles => {
                out.push_str(&format!(
                    "{}: rectangles of 1..{} rows (down) by 1..{} columns (across)\n",
                    self.game, self.upto, self.upto
                ));
                if self.upto <= 30 {
                    out.push_str(&self.grid("r\\c", 1));
                }
                let ps: Vec<String> = self.p_positions.iter().map(|p| format!("{}×{}", p[0], p[1])).collect();
                out.push_str(&format!("P-positions: {}\n", ps.join(", ")));
            }
            TableShape::Cells => {
                let what = if self.grundy_note.is_some() { "outcomes" } else { "Grundy values" };
                out.push_str(&format!(
                    "{}: one cell (x, y), x = 1..{} (down), y = 1..{} (across): {what}\n",
                    self.game, self.upto, self.upto
                ));
                if self.upto > 30 {
                    out.push_str("(the grid is shown up to 30; --format json gives all of it)\n");
                }
                out.push_str(&value_grid("x\\y", &self.outcomes, &self.grundy, (1, 1), 30));
                out.push_str("(0 or P marks a P-position: the player to move loses)\n");
                if let Some(rule) = &self.cell_rule {
                    out.push_str(&format!("rule: {rule}\n"));
                }
            }
        }
        if let Some(pattern) = &self.pattern {
            out.push_str(&format!("pattern: the P-positions are {pattern} (as far as the table goes)\n"));
        }
        if let Some(p) = &self.period {
            out.push_str(&format!("period: {}\n", period_text(p)));
        } else if let Some(to) = self.no_period_to {
            out.push_str(&format!("period: none found in the values of 0..{to}\n"));
        } else if let Some(to) = self.period_not_looked {
            out.push_str(&format!(
                "period: not looked for: looking through the values of 0..{to} passed the limits (set how far with --period-values N, or raise --max-states)\n"
            ));
        }
        if let Some(note) = self.grundy_note {
            out.push_str(note);
            out.push('\n');
        }
        out
    }

    /// A grid of outcomes, P (and D) marked and N shown as a dot so that the pattern stands out.
    fn grid(&self, corner: &str, first: u64) -> String {
        let mut header = vec![corner.to_string()];
        header.extend((0..self.outcomes.len() as u64).map(|i| (i + first).to_string()));
        let header: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
        let row = |i: usize| {
            let mut cells = vec![(i as u64 + first).to_string()];
            cells.extend(self.outcomes[i].iter().map(|o| match o {
                Outcome::N => "·".to_string(),
                other => other.letter().to_string(),
            }));
            cells
        };
        let mut out = String::new();
        right_aligned(&header, self.outcomes.len(), row, &mut out);
        out
    }
}

impl LastGrid {
    /// Grundy values, or outcome letters where a game has none (misère play).
    fn to_text(&self) -> String {
        let upto = self.outcomes.len().saturating_sub(1);
        let mut out = format!("\nafter a move of last = 1..{upto} (across), one pile of n (down): Grundy values\n");
        if upto > 30 {
            out.push_str("(the grid is shown up to 30; --format json gives all of it)\n");
        }
        out.push_str(&value_grid("n\\last", &self.outcomes, &self.grundy, (0, 1), 30));
        out.push_str("(0 marks a P-position: the player to move loses)\n");
        out
    }
}

/// A grid of Grundy values (outcome letters where there are none), rows numbered from
/// `first_row` and columns from 1, at most `shown` columns and rows past the first.
fn value_grid(
    corner: &str,
    outcomes: &[Vec<Outcome>],
    grundy: &[Vec<Option<u64>>],
    (first_row, first_column): (usize, usize),
    shown: usize,
) -> String {
    let columns = outcomes.first().map_or(0, |r| r.len()).min(shown);
    let mut header = vec![corner.to_string()];
    header.extend((first_column..first_column + columns).map(|l| l.to_string()));
    let header: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
    let rows = outcomes.len().min(shown + 1 - first_row);
    let row = |i: usize| {
        let mut cells = vec![(i + first_row).to_string()];
        cells.extend(outcomes[i].iter().zip(&grundy[i]).take(columns).map(|(o, g)| match g {
            Some(g) => g.to_string(),
            None => o.letter().to_string(),
        }));
        cells
    };
    let mut out = String::new();
    right_aligned(&header, rows, row, &mut out);
    out
}

fn period_text(p: &Periodicity) -> String {
    let what = if p.of == "grundy" { "Grundy values" } else { "outcomes" };
    let shape = if p.saltus == 0 {
        format!("{what} repeat with period {} from n = {} (preperiod {})", p.period, p.preperiod, p.preperiod)
    } else {
        format!(
            "{what} grow by {} every {} from n = {}: G(n + {}) = G(n) + {}",
            p.saltus, p.period, p.preperiod, p.period, p.saltus
        )
    };
    match p.theorem {
        Some(theorem) => format!("{shape}; proven by {theorem} (checked to {})", p.checked_to),
        None => format!("{shape}; apparent, checked to {}", p.checked_to),
    }
}

/// Columns aligned right under their headers, a space of padding each side of a cell, each
/// line's trailing spaces trimmed. Written out row by row rather than through a table crate,
/// which holds every cell of a million-row table as an object (a gigabyte) before printing.
fn right_aligned(header: &[&str], rows: usize, row: impl Fn(usize) -> Vec<String>, out: &mut String) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for n in 0..rows {
        for (w, cell) in widths.iter_mut().zip(row(n)) {
            *w = (*w).max(cell.width());
        }
    }
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let start = out.len();
        for (cell, w) in cells.zip(&widths) {
            out.push(' ');
            out.extend(std::iter::repeat_n(' ', w.saturating_sub(cell.width())));
            out.push_str(cell);
            out.push(' ');
        }
        let kept = out[start..].trim_end().len();
        out.truncate(start + kept);
        out.push('\n');
    };
    line(&mut header.iter().copied());
    for n in 0..rows {
        let cells = row(n);
        line(&mut cells.iter().map(String::as_str));
    }
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
    }
}
