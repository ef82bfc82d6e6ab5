//! Solving positions: outcome (P or N) and, where it is defined, the Grundy value.
//!
//! `Solver` picks a method from the shape of the checked rules, never from the game's name:
//! - `piles`: every move acts on one pile, normal play, no history: Sprague–Grundy values of
//!   single piles, and a position's value is their XOR;
//! - `last_bound`: one pile, and after the first move "take 1 up to f(last)": Schwenk's
//!   take-away games, solved through the smallest winning take of each pile size;
//! - `loopy`: rules that add counters, so that play can go round in circles: retrograde
//!   analysis gives P, N or D (a draw), and Smith's generalised Grundy values add over piles;
//! - `search`: everything else, by an iterative search over whole positions.
//!
//! All methods answer through the same calls, and tests compare them with each other.

pub(crate) mod big;
mod budget;
mod cells;
pub(crate) mod checkpoint;
mod chomp;
mod column;
pub(crate) mod cycle;
mod dense;
mod error;
pub(crate) mod fnv;
pub(crate) mod heap;
pub(crate) mod last_bound;
mod limits;
pub(crate) mod loopy;
pub(crate) mod misere;
pub(crate) mod moore;
pub(crate) mod partizan;
pub(crate) mod period;
pub(crate) mod period_run;
mod piles;
pub(crate) use crate::progress;
pub(crate) mod reach;
mod rolling;
mod search;
#[cfg(test)]
pub(crate) mod test_support;
pub(crate) mod window_run;

use serde::Serialize;

use crate::rules::{Board, Convention, Game, Move, Position, RuleKind};

pub use budget::Budget;
pub(crate) use column::PileColumn;
pub use error::SolveError;
pub(crate) use error::{approximately, search_memory};
pub(crate) use heap::Values;
pub use limits::SparseMode;
pub(crate) use limits::{check_cancel, duration_in_words, DEFAULT_MAX_STATES, DEFAULT_SECONDS};
pub(crate) use limits::{Limits, Table};
use limits::{Work, LISTED_PILE, PILE_SHARE, REMOTENESS_STATES};
pub(crate) use piles::MOST_WINNING_MOVES;

/// Which engines a kind of rule allows, decided here for every kind: the match has no
/// catch-all, so a new kind of rule does not compile until each engine has said whether it
/// can take it (instead of falling back to the general search unnoticed).
#[derive(Clone, Copy)]
struct RuleFit {
    /// acts on one pile alone (the position is a sum of its piles: Sprague–Grundy values, or
    /// the misère quotient)
    one_pile: bool,
    /// adds counters, so play may come back to a position (retrograde analysis)
    adds: bool,
    /// a take of one pile, which Schwenk's method for take ≤ f(last) may read
    plain_take: bool,
    /// a bite of a Chomp board
    bite: bool,
}

fn rule_fit(kind: &RuleKind) -> RuleFit {
    let none = RuleFit { one_pile: false, adds: false, plain_take: false, bite: false };
    match kind {
        RuleKind::Take { piles, then_split, .. } => {
            RuleFit { one_pile: piles.is_one(), plain_take: piles.is_one() && then_split.is_none(), ..none }
        }
        RuleKind::TakePair => none,
        RuleKind::Add { .. } => RuleFit { one_pile: true, adds: true, ..none },
        RuleKind::Split(_) | RuleKind::Octal { .. } | RuleKind::Code(_) | RuleKind::Turn { .. } => {
            RuleFit { one_pile: true, ..none }
        }
        RuleKind::Bite { .. } => RuleFit { bite: true, ..none },
    }
}

/// The engine a game is solved by, from the shape of its rules (never its name).
enum EngineChoice {
    Cells,
    Loopy,
    MisereQuotient,
    PileSum,
    LastBound(last_bound::LastBound),
    Chomp(chomp::Chomp),
    Moore(moore::Moore),
    Dense(dense::Dense),
    Search,
}

fn choose_engine(game: &Game) -> EngineChoice {
    let fits: Vec<RuleFit> = game.first_moves.iter().chain(&game.moves).map(|r| rule_fit(&r.kind)).collect();
    let misere = game.convention == Convention::Misere;
    if game.product.is_some() {
        // The tartan theorem is for normal play; misère products are searched.
        return if misere { EngineChoice::Search } else { EngineChoice::Cells };
    }
    if fits.iter().any(|f| f.adds) {
        return EngineChoice::Loopy;
    }
    let heap_sum = !game.tracks_history() && game.board != Board::Rows && fits.iter().all(|f| f.one_pile);
    debug_assert_eq!(heap_sum, game.is_heap_sum());
    if heap_sum && misere && matches!(game.board, Board::AnyPiles | Board::OnePile) {
        return EngineChoice::MisereQuotient;
    }
    if heap_sum && !misere {
        return EngineChoice::PileSum;
    }
    if let Some(k) = moore::Moore::recognise(game) {
        return EngineChoice::Moore(k);
    }
    if fits.iter().all(|f| f.plain_take) {
        if let Some(k) = last_bound::LastBound::recognise(game) {
            return EngineChoice::LastBound(k);
        }
    }
    if fits.iter().all(|f| f.bite) {
        if let Some(k) = chomp::Chomp::recognise(game) {
            return EngineChoice::Chomp(k);
        }
    }
    if let Some(d) = dense::Dense::recognise(game) {
        return EngineChoice::Dense(d);
    }
    EngineChoice::Search
}

/// The question's limits with the smaller bound on positions a remoteness search keeps where a
/// faster method found the value.
pub(crate) fn remoteness_limits(limits: &Limits) -> Limits {
    Limits { max_states: limits.max_states.min(REMOTENESS_STATES), ..limits.clone() }
}

/// Who wins with best play: the Previous player (the one who just moved) or the Next; in a
/// loopy game, neither (a Draw: best play goes on for ever).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// The previous player (who just moved) wins.
    P,
    /// The next player (who is to move) wins.
    N,
    /// Neither wins: with best play the game goes on for ever (a draw).
    D,
}

impl Outcome {
    /// One letter, as tables print it.
    pub fn letter(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::D => "D",
        }
    }

    /// The outcome in words, for someone who has not met the letters.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Outcome::P => "the player to move loses against best play",
            Outcome::N => "the player to move wins",
            Outcome::D => "a draw: neither player can force a win, so best play goes on for ever",
        }
    }
}

/// What the solver knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// Who wins.
    pub outcome: Outcome,
    /// The Sprague–Grundy value; `None` where it is not defined (misère play) or not computed.
    pub grundy: Option<u64>,
}

impl Value {
    /// The value of a position under normal play: P exactly when its Grundy value is 0.
    pub(crate) fn from_grundy(g: u64) -> Value {
        Value { outcome: if g == 0 { Outcome::P } else { Outcome::N }, grundy: Some(g) }
    }
}

/// Moore's Nim: whether the search for a Grundy value of `pos` fits the question's budget. It
/// values every position below `pos` (each pile from 0 to its size), each with at most as many
/// moves as `pos` has.
fn moore_search_fits(moore: &moore::Moore, pos: &Position, limits: &Limits) -> bool {
    let Some(positions) = positions_below(pos) else { return false };
    let moves = positions.saturating_mul(moore.move_count(&pos.piles));
    positions <= limits.max_states as u128 && moves <= limits.estimate_moves() as u128
}

/// Moore's Nim: whether the remoteness search from `pos` is small enough to try.
fn moore_search_is_small(pos: &Position) -> bool {
    positions_below(pos).is_some_and(|n| n <= 20_000)
}

/// How many positions lie at or below `pos`, pile by pile (each pile from 0 to its size), or
/// `None` past 128 bits.
fn positions_below(pos: &Position) -> Option<u128> {
    pos.piles.iter().try_fold(1u128, |acc, &p| acc.checked_mul(p as u128 + 1))
}

/// Moore's Nim positions with more moves than this get the one winning move of the theorem's
/// construction, rather than every winning move.
const MOORE_LISTED_MOVES: u128 = 200_000;

fn misere_search_is_small(pos: &Position) -> bool {
    pos.piles.iter().map(|&p| p as u128).sum::<u128>() <= 40
}

/// Which method a solver uses; shown to users so that they know how an answer was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodKind {
    /// Values pile by pile, combined by nim-sum.
    PileSum,
    /// Values by pile and size of the previous move.
    LastBound,
    /// A search over Young diagrams (chomp boards).
    Chomp,
    /// Retrograde analysis, for games that can go on for ever.
    Loopy,
    /// Values cell by cell, for coin-turning games.
    Cells,
    /// The misère quotient of the heap game.
    MisereQuotient,
    /// Moore's theorem, for Nim played on k piles at once.
    Moore,
    /// Every position below the question, numbered and valued bottom-up from rules compiled once.
    Dense,
    /// A search of the whole game tree.
    Search,
}

impl MethodKind {
    /// The method, in words.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            MethodKind::PileSum => "Sprague–Grundy values of single piles, added by XOR",
            MethodKind::LastBound => "Schwenk's method for take ≤ f(last) games",
            MethodKind::Chomp => "every Chomp board in the box, numbered in lexicographic order, in one pass",
            MethodKind::Loopy => {
                "retrograde analysis of every position play can reach, with Smith's generalised Grundy values"
            }
            MethodKind::Cells => {
                "the values of single cells, added by XOR (tartan products: the nim-product of the two games' values)"
            }
            MethodKind::MisereQuotient => {
                "the misère quotient of the game's sums (Plambeck and Siegel): each pile's element Φ, multiplied"
            }
            MethodKind::Moore => {
                "Moore's theorem (1910): P exactly when every binary column's count of 1s is a multiple of k + 1"
            }
            MethodKind::Dense => {
                "every position below the question, numbered and valued from the smallest up, with the rules' options compiled once"
            }
            MethodKind::Search => "search over whole positions",
        }
    }
}

enum Method<'g> {
    PileSum(piles::PileValues),
    LastBound(last_bound::LastBound),
    Chomp(chomp::Chomp),
    Loopy(Box<loopy::Loopy>),
    Cells(Box<cells::CellValues<'g>>),
    Misere(Box<misere::MisereHeaps>),
    /// Moore's theorem for outcomes, and the grid for Grundy values where it fits.
    Moore(moore::Moore, Box<Option<dense::Dense>>),
    Dense(Box<dense::Dense>),
    Search,
}

/// Solves positions of an impartial game under a budget.
pub struct Solver<'g> {
    game: &'g Game,
    limits: Limits,
    method: Method<'g>,
    search: search::Search,
    /// For remoteness under the fast methods, with its own smaller budget.
    remoteness_search: search::Search,
    /// For remoteness of a sum of single piles where the grid counts its positions (Nim):
    /// made when first asked (`None` inside: the grid does not count this game).
    remoteness_grid: Option<Option<dense::Dense>>,
}

impl<'g> Solver<'g> {
    /// A solver of `game` for the questions of one budget: what it computes (the values of
    /// single piles, the positions searched) stays known for every later question.
    pub fn new(game: &'g Game, budget: &Budget) -> Self {
        Solver::within(game, budget.limits().clone())
    }

    /// A solver within the engine's limits.
    pub(crate) fn within(game: &'g Game, limits: Limits) -> Self {
        let method = match choose_engine(game) {
            EngineChoice::Cells => match game.product.as_deref() {
                Some(product) => Method::Cells(Box::new(cells::CellValues::new(product, limits.clone()))),
                None => Method::Search,
            },
            EngineChoice::Loopy => Method::Loopy(Box::new(loopy::Loopy::new(game))),
            EngineChoice::MisereQuotient => Method::Misere(Box::default()),
            EngineChoice::PileSum => Method::PileSum(piles::PileValues::new(game)),
            EngineChoice::LastBound(k) => Method::LastBound(k),
            EngineChoice::Chomp(k) => Method::Chomp(k),
            EngineChoice::Moore(k) => Method::Moore(k, Box::new(dense::Dense::recognise(game))),
            EngineChoice::Dense(d) => Method::Dense(Box::new(d)),
            EngineChoice::Search => Method::Search,
        };
        Solver {
            game,
            limits,
            method,
            search: Default::default(),
            remoteness_search: Default::default(),
            remoteness_grid: None,
        }
    }

    /// The general engine alone, whatever the rules: the reference the fast methods are tested against.
    pub(crate) fn generic(game: &'g Game, limits: Limits) -> Self {
        Solver {
            game,
            limits,
            method: Method::Search,
            search: Default::default(),
            remoteness_search: Default::default(),
            remoteness_grid: None,
        }
    }

    /// The method it uses.
    pub fn method(&self) -> MethodKind {
        match self.method {
            Method::PileSum(_) => MethodKind::PileSum,
            Method::LastBound(_) => MethodKind::LastBound,
            Method::Chomp(_) => MethodKind::Chomp,
            Method::Loopy(_) => MethodKind::Loopy,
            Method::Cells(_) => MethodKind::Cells,
            Method::Misere(_) => MethodKind::MisereQuotient,
            Method::Moore(..) => MethodKind::Moore,
            Method::Dense(_) => MethodKind::Dense,
            Method::Search => MethodKind::Search,
        }
    }

    /// The misère quotient, for misère heap games.
    pub(crate) fn misere(&mut self) -> Option<&mut misere::MisereHeaps> {
        match &mut self.method {
            Method::Misere(m) => Some(m),
            _ => None,
        }
    }

    /// Whether single-pile values come from the sparse-space method (reported by the benchmark).
    pub fn uses_sparse_space(&self) -> bool {
        matches!(&self.method, Method::PileSum(v) if v.uses_sparse_space())
    }

    /// Whether a window dropped single-pile values to bound memory (`Table::Window`).
    pub fn table_windowed(&self) -> bool {
        matches!(&self.method, Method::PileSum(v) if v.windowed())
    }

    /// Whether single-pile values come from the compiled take-and-break kernel.
    pub fn uses_compiled_kernel(&self) -> bool {
        matches!(&self.method, Method::PileSum(v) if v.compiled())
    }

    /// What the solver's own look for a period found in the Grundy values of piles
    /// 0..examined (`period::detect`, plain), when its last look read exactly those.
    pub(crate) fn period_seen(&self, examined: u64) -> Option<Option<period::Detected>> {
        match &self.method {
            Method::PileSum(v) => v.period_seen(usize::try_from(examined).ok()?),
            _ => None,
        }
    }

    /// The proven (preperiod, period) of single-pile values, once the solver has found one.
    pub fn proven_period(&self) -> Option<(u64, u64)> {
        match &self.method {
            Method::PileSum(v) => v.period(),
            _ => None,
        }
    }

    /// The proven period of single-pile values with the values read by the look that found
    /// it, as (preperiod, period, values read): a look at as many or more finds the same.
    pub(crate) fn proven_look(&self) -> Option<(u64, u64, u64)> {
        match &self.method {
            Method::PileSum(v) => v.proven_look(),
            _ => None,
        }
    }

    /// The game it solves.
    pub(crate) fn game(&self) -> &'g Game {
        self.game
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Positions the whole-position search has valued so far (work, for tests of refusals).
    pub fn positions_searched(&self) -> usize {
        self.search.len()
    }

    /// Changes the limits of the questions that follow (what is already known stays known).
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Outcome and Grundy value of one pile of `n`: what `value` gives for the position
    /// `[n]`, without building it when the pile's value is already known.
    pub(crate) fn pile_value(&mut self, n: u64) -> Result<Value, SolveError> {
        if let Method::PileSum(values) = &self.method {
            if let Some(g) = values.already_known(n) {
                return Ok(Value::from_grundy(g));
            }
        }
        self.value(&Position::new(vec![n]))
    }

    /// The Grundy values of piles 0..=last as a table reads them, once they are all known
    /// (computed and kept, or past a proven period): `None` while some are not.
    pub(crate) fn pile_column(&self, last: u64) -> Option<PileColumn<'_>> {
        match &self.method {
            Method::PileSum(values) => values.column(last),
            _ => None,
        }
    }

    /// Whether the values of piles 0..=last are read without computing any: all computed and
    /// kept, or past a proven period.
    pub fn knows_piles(&self, last: u64) -> bool {
        self.pile_column(last).is_some()
    }

    /// The Grundy values of piles 0..=last when all of them are already computed and kept.
    pub(crate) fn already_known_piles(&self, last: u64) -> Option<Values> {
        match &self.method {
            Method::PileSum(values) => values.already_known_upto(last),
            _ => None,
        }
    }

    /// Outcome and Grundy value of a position.
    pub fn value(&mut self, pos: &Position) -> Result<Value, SolveError> {
        match &mut self.method {
            Method::PileSum(values) => {
                let g = values.position(self.game, pos, &self.limits)?;
                Ok(Value::from_grundy(g))
            }
            Method::LastBound(kernel) => {
                let outcome = kernel.outcome(self.game, pos, &self.limits)?;
                // The kernel finds outcomes only; the Grundy value comes from a search where that is small.
                let grundy = if last_bound::search_is_small(pos) {
                    self.search.value(self.game, pos, &self.limits).ok().and_then(|v| v.grundy)
                } else {
                    None
                };
                Ok(Value { outcome, grundy })
            }
            Method::Chomp(kernel) => match kernel.value(pos, &self.limits)? {
                Some(g) => Ok(Value::from_grundy(g)),
                None => self.search.value(self.game, pos, &self.limits),
            },
            Method::Loopy(loopy) => loopy.value(self.game, pos, &self.limits),
            Method::Cells(cells) => Ok(Value::from_grundy(cells.position(pos, &self.limits)?)),
            Method::Misere(quotient) => match quotient.outcome(self.game, pos, &self.limits) {
                Ok(outcome) => Ok(Value { outcome, grundy: None }),
                // Past the quotient, a search answers what is small enough to search.
                Err(SolveError::Misere(e)) if misere_search_is_small(pos) => {
                    let _ = e;
                    self.search.value(self.game, pos, &self.limits)
                }
                Err(e) => Err(e),
            },
            Method::Moore(moore, grid) => {
                let outcome = if moore.is_p(&pos.piles) { Outcome::P } else { Outcome::N };
                // The theorem gives outcomes only; Grundy values come from the grid of every
                // position below, where it fits the budget (else a search, where that is small).
                let grundy = match (**grid).as_mut().map(|g| g.value(self.game, pos, &self.limits)) {
                    Some(Ok(Some(v))) => v.grundy,
                    Some(Err(e @ (SolveError::Cancelled | SolveError::Timeout { .. }))) => return Err(e),
                    _ if moore_search_fits(moore, pos, &self.limits) => {
                        self.search.value(self.game, pos, &self.limits).ok().and_then(|v| v.grundy)
                    }
                    _ => None,
                };
                Ok(Value { outcome, grundy })
            }
            Method::Dense(dense) => match dense.value(self.game, pos, &self.limits)? {
                Some(v) => Ok(v),
                // An amount the grid could not evaluate somewhere in its box: the search
                // evaluates only what play reaches.
                None => self.search.value(self.game, pos, &self.limits),
            },
            Method::Search => self.search.value(self.game, pos, &self.limits),
        }
    }

    /// Moore's Nim's k, for games the theorem solves.
    pub(crate) fn moore(&self) -> Option<moore::Moore> {
        match self.method {
            Method::Moore(m, _) => Some(m),
            _ => None,
        }
    }

    /// For a tartan product under normal play: the two games' values of the cell's x and y,
    /// whose nim-product the cell is worth (the tartan theorem, by which it was computed).
    pub(crate) fn cell_factors(&mut self, x: u64, y: u64) -> Result<Option<(u64, u64)>, SolveError> {
        match &mut self.method {
            Method::Cells(cells) => cells.factors(x, y, &self.limits),
            _ => Ok(None),
        }
    }

    /// Smith's generalised Grundy value, for loopy games under normal play.
    pub fn loopy_value(&mut self, pos: &Position) -> Result<Option<loopy::LoopyValue>, SolveError> {
        match &mut self.method {
            Method::Loopy(loopy) => loopy.loopy_value(self.game, pos, &self.limits),
            _ => Ok(None),
        }
    }

    /// The moves to drawn positions: from a draw, those that keep it.
    pub(crate) fn drawing_moves(&mut self, pos: &Position) -> Result<Vec<Move>, SolveError> {
        let mut out = Vec::new();
        for m in self.game.moves(pos, self.limits.max_states)? {
            if self.outcome(&m.to)? == Outcome::D {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// For a drawn position of a loopy game: a line of play that keeps the draw and comes
    /// back to where it has been.
    pub fn draw_line(&mut self, pos: &Position) -> Result<Option<loopy::DrawLine>, SolveError> {
        let Method::Loopy(loopy) = &mut self.method else {
            return Ok(None);
        };
        if loopy.value(self.game, pos, &self.limits)?.outcome != Outcome::D {
            return Ok(None);
        }
        Ok(Some(loopy.draw_line(self.game, pos, &self.limits)?))
    }

    /// How many moves the game lasts from `pos` under best play, the winner hurrying and the
    /// loser delaying (Steinhaus). `None` when the whole-position search this needs is larger than
    /// the remoteness budget.
    pub fn remoteness(&mut self, pos: &Position) -> Result<Option<u64>, SolveError> {
        if let Method::Loopy(loopy) = &mut self.method {
            if !self.game.is_pile_sum() {
                return loopy.remoteness(self.game, pos, &self.limits);
            }
            // Values came from single piles; remoteness needs whole positions, which may be
            // too many: search them within a smaller budget.
            let small = remoteness_limits(&self.limits);
            return match loopy.remoteness(self.game, pos, &small) {
                Err(SolveError::LoopyTooLarge { .. } | SolveError::StateLimit { .. }) => Ok(None),
                other => other,
            };
        }
        let grid = match &mut self.method {
            Method::Dense(dense) => Some(&mut **dense),
            Method::Moore(_, grid) => (**grid).as_mut(),
            _ => None,
        };
        if let Some(grid) = grid {
            match grid.remoteness(self.game, pos, &self.limits) {
                Ok(Some(r)) => return Ok(Some(r)),
                Err(e @ (SolveError::Cancelled | SolveError::Timeout { .. })) => return Err(e),
                // Past the grid's budget a faster method's position is not searched either.
                Err(_) if !matches!(self.method, Method::Dense(_)) => return Ok(None),
                Err(e) => return Err(e),
                Ok(None) => {}
            }
        }
        if !matches!(self.method, Method::Search | Method::Dense(_)) && !self.remoteness_is_small(pos) {
            return Ok(None);
        }
        // A sum of single piles the grid counts (Nim, subtraction games): its box of sorted
        // piles is valued without a position built or hashed, several times faster than the
        // search below (small Nim positions asked one after another from Python spent most of
        // their time there).
        let small = remoteness_limits(&self.limits);
        if let Method::PileSum(_) = self.method {
            let game = self.game;
            let grid = self.remoteness_grid.get_or_insert_with(|| dense::Dense::recognise(game));
            if let Some(grid) = grid {
                match grid.remoteness(game, pos, &small) {
                    Ok(Some(r)) => return Ok(Some(r)),
                    Err(e @ (SolveError::Cancelled | SolveError::Timeout { .. })) => return Err(e),
                    // Past the grid's smaller budget, or an amount it cannot read: the search.
                    Ok(None) | Err(_) => {}
                }
            }
        }
        let (search, limits) = match self.method {
            Method::Search | Method::Dense(_) => (&mut self.search, self.limits.clone()),
            // The fast methods know no remoteness: search, but within a smaller budget.
            _ => (&mut self.remoteness_search, small),
        };
        match search.remoteness(self.game, pos, &limits) {
            Ok(r) => Ok(Some(r)),
            Err(SolveError::StateLimit { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// An estimate, before searching, of whether a position's whole-position search is small
    /// enough for remoteness when a faster method found its value: a failed attempt would cost
    /// seconds for nothing.
    fn remoteness_is_small(&self, pos: &Position) -> bool {
        const SMALL: u128 = 20_000;
        match self.method {
            Method::Search | Method::Loopy(_) | Method::Dense(_) => true,
            Method::Misere(_) => misere_search_is_small(pos),
            Method::Moore(..) => moore_search_is_small(pos),
            // (pile, last) pairs
            Method::LastBound(_) => last_bound::search_is_small(pos) && (pos.piles[0] as u128 + 1).pow(2) <= SMALL,
            // boards inside the position's box: few while it has few squares
            Method::Chomp(_) => pos.piles.iter().sum::<u64>() <= 24,
            // whole positions of cells: few while the cells are few and near the corner
            Method::Cells(_) => pos.cell_pairs().map(|(x, y)| x.saturating_mul(y)).sum::<u64>() <= 16,
            Method::PileSum(_) => {
                let splits = self.game.moves.iter().any(|r| {
                    matches!(&r.kind, RuleKind::Split(_) | RuleKind::Take { then_split: Some(_), .. })
                        || matches!(&r.kind, RuleKind::Octal { digits } if digits.iter().any(|d| d & 4 != 0))
                        || matches!(&r.kind, RuleKind::Code(_))
                });
                if splits {
                    // positions are partitions of at most the total: few while it is small
                    pos.piles.iter().map(|&p| p as u128).sum::<u128>() <= 30
                } else {
                    positions_below(pos).is_some_and(|n| n <= SMALL)
                }
            }
        }
    }

    /// Outcome only: cheaper than `value` where the method can skip Grundy values.
    pub fn outcome(&mut self, pos: &Position) -> Result<Outcome, SolveError> {
        match &mut self.method {
            Method::LastBound(kernel) => kernel.outcome(self.game, pos, &self.limits),
            Method::Moore(moore, _) => Ok(if moore.is_p(&pos.piles) { Outcome::P } else { Outcome::N }),
            _ => Ok(self.value(pos)?.outcome),
        }
    }

    /// The outcomes of one pile of 0, 1, …, upto (at the start of the game, for games that
    /// remember the last move), in one pass where the method has one: Schwenk's games and sums
    /// of single piles. Otherwise one question a pile.
    pub fn one_pile_outcomes(&mut self, upto: u64) -> Result<Vec<Outcome>, SolveError> {
        if let Method::LastBound(kernel) = &mut self.method {
            if upto >= self.limits.max_piles() as u64 {
                return Err(SolveError::state_limit(&self.limits));
            }
            if let Some(outcomes) = kernel.outcomes_upto(self.game, upto, &self.limits)? {
                return Ok(outcomes);
            }
        }
        (0..=upto).map(|n| self.outcome(&Position::new(vec![n]))).collect()
    }

    /// Every move to a P-position, one per resulting position (at most `MOST_WINNING_MOVES`).
    pub fn winning_moves(&mut self, pos: &Position) -> Result<Vec<Move>, SolveError> {
        Ok(self.winning_moves_listed(pos)?.0)
    }

    /// Moves to P-positions, and whether more exist than the list holds: a single huge pile
    /// can have more winning moves than anyone could read.
    pub fn winning_moves_listed(&mut self, pos: &Position) -> Result<(Vec<Move>, bool), SolveError> {
        if let Method::PileSum(values) = &mut self.method {
            return values.winning_moves(self.game, pos, &self.limits);
        }
        if let Method::Misere(quotient) = &mut self.method {
            match quotient.winning_moves(self.game, pos, &self.limits, MOST_WINNING_MOVES) {
                Err(SolveError::Misere(_)) if misere_search_is_small(pos) => {}
                other => return other,
            }
        }
        // Too many moves to list: the theorem's construction gives one.
        if let Method::Moore(moore, _) = &self.method {
            if moore.move_count(&pos.piles) > MOORE_LISTED_MOVES {
                return Ok((moore.winning_move(self.game, pos).into_iter().collect(), true));
            }
        }
        // A pile too large to list its moves: Schwenk's representation names the candidates.
        if let Method::LastBound(kernel) = &mut self.method {
            if pos.piles.first().is_some_and(|&m| m >= LISTED_PILE) {
                if let Some(found) = kernel.winning_moves_large(self.game, pos, &self.limits)? {
                    return Ok(found);
                }
            }
        }
        let moves = self.game.moves(pos, self.limits.max_states)?;
        let mut seen = std::collections::HashSet::new();
        let mut winning = Vec::new();
        for m in moves {
            if !seen.insert(self.game.canonical(&m.to)) {
                continue;
            }
            if self.outcome(&m.to)? == Outcome::P {
                winning.push(m);
            }
        }
        Ok((winning, false))
    }
}

/// The values of piles 0..upto computed by the take-and-break kernel with `threads` threads,
/// sharing every pile's work from `parallel_from` options on, the options it counted, and the
/// most memory it reported (looked at every 256 piles and at the end): for the tests that none
/// of them depends on the threads. `window`: (prefix, recent) of a window the kernel keeps once
/// it may. `None` for rules the kernel does not compile, or a pile that needs a value the window
/// dropped.
#[doc(hidden)]
pub fn kernel_values(
    game: &Game,
    upto: u64,
    threads: usize,
    parallel_from: usize,
    sparse: SparseMode,
    window: Option<(usize, usize)>,
) -> Option<(Vec<u32>, u64, u64)> {
    let mut kernel = heap::HeapKernel::new(heap::HeapRules::compile(game)?);
    kernel.set_threads(threads);
    kernel.set_parallel_from(parallel_from);
    kernel.set_sparse_mode(sparse);
    let mut work = 0;
    let mut values = Vec::with_capacity(upto as usize);
    let mut memory = 0;
    while (kernel.computed() as u64) < upto {
        if let Some((prefix, recent)) = window {
            kernel.start_window(prefix, recent);
        }
        if !kernel.push_next(&mut work).ok()? {
            return None;
        }
        values.push(kernel.value(values.len() as u64).expect("the pile just computed is kept"));
        if values.len().is_multiple_of(256) {
            memory = memory.max(kernel.memory_bytes());
        }
    }
    Some((values, work, memory.max(kernel.memory_bytes())))
}
