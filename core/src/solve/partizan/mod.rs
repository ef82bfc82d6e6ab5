//! Partizan games, where Left and Right have different moves: outcome classes (L, R, N, P)
//! and, under normal play, canonical values.
//!
//! The moves come from the compiled rules (`Game::moves_of`). Where a position is a sum of
//! independent piles, each pile's canonical value is computed once, smallest first, and a
//! position's value is the sum of its piles' values; otherwise whole positions are valued.
//! Under misère play canonical forms do not apply: outcomes come from a search of the game tree,
//! the same search the tests use to check the values under normal play.

pub(crate) mod atomic;
pub(crate) mod dyadic;
pub(crate) mod forms;
pub(crate) mod notation;
pub(crate) mod thermo;

use std::collections::{HashMap, HashSet};

use serde::Serialize;

pub(crate) use dyadic::Dyadic;
pub(crate) use forms::FormId;
pub(crate) use forms::Forms;
pub(crate) use thermo::{SumBounds, ThermalValue};

use super::{check_cancel, Limits, SolveError};
use crate::rules::{Board, Game, Move, Position, Side};
use crate::vocab::Convention;

/// Who wins a partizan position with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum PartizanOutcome {
    /// Left wins, whoever starts.
    L,
    /// Right wins, whoever starts.
    R,
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

impl PartizanOutcome {
    /// The outcome from whether each side wins moving first.
    pub(crate) fn from_wins(left_first_wins: bool, right_first_wins: bool) -> Self {
        match (left_first_wins, right_first_wins) {
            (true, true) => PartizanOutcome::N,
            (false, false) => PartizanOutcome::P,
            // Left wins moving first, and Right moving first loses: Left wins either way.
            (true, false) => PartizanOutcome::L,
            (false, true) => PartizanOutcome::R,
        }
    }

    /// The outcome's letter (L, R, N or P).
    pub fn letter(self) -> &'static str {
        match self {
            PartizanOutcome::L => "L",
            PartizanOutcome::R => "R",
            PartizanOutcome::N => "N",
            PartizanOutcome::P => "P",
        }
    }

    /// The outcome, in words.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            PartizanOutcome::L => "Left wins, whoever moves first",
            PartizanOutcome::R => "Right wins, whoever moves first",
            PartizanOutcome::N => "the player to move wins",
            PartizanOutcome::P => "the player to move loses",
        }
    }

    /// Whether `side`, moving first, wins.
    pub fn first_wins(self, side: Side) -> bool {
        match side {
            Side::Left => matches!(self, PartizanOutcome::L | PartizanOutcome::N),
            Side::Right => matches!(self, PartizanOutcome::R | PartizanOutcome::N),
        }
    }
}

/// Who wins moving first: (Left, Right).
type Wins = (bool, bool);

/// Whether the side moving first wins, and the moves left with best play.
#[derive(Clone, Copy, Debug)]
struct MovesLeft {
    wins: bool,
    moves: u64,
}

/// What a position costs a search besides its piles' numbers: its vector and the hash map's
/// share of it.
const POSITION_OVERHEAD: u64 = 112;

/// The bytes a search holds for a position it keeps.
fn held_bytes(p: &Position) -> u64 {
    p.piles.len() as u64 * 8 + POSITION_OVERHEAD
}

/// Moves of the work budget that one entry of canonical-forms work counts as: an entry is a
/// comparison of forms or more (L{1,3} R{2,3} to pile 300: about a second for 2.5·10⁶).
const FORMS_WORK_SHARE: u64 = 4;

/// A sum of two forms costs more than its pairs of parts (each pair is summed, made canonical
/// and compared): the estimate allows a sum whose pairs are at most this share of the budget.
const SUM_COST_SHARE: usize = 4;

/// What adding two forms costs the store, per pair of their parts: measured on sums of piles of
/// L{1,3} R{2,3}, 50 to 100 entries (each pair summed, simplified, compared).
const SUM_WORK_PER_PAIR: usize = 512;

/// Solves positions of a partizan game under a budget.
pub struct PartizanSolver<'g> {
    game: &'g Game,
    limits: Limits,
    /// Every form met so far: a position's value is an index into it.
    pub(crate) forms: Forms,
    /// Canonical values of single piles 0, 1, 2, … (games that are sums of piles).
    piles: Vec<FormId>,
    /// Canonical values of whole positions (other games), by canonical position.
    positions: HashMap<Position, FormId>,
    /// Who wins moving first, by canonical position, from a search of the game tree.
    searched: HashMap<Position, Wins>,
    /// Moves left with best play, Left moving first and Right moving first, by canonical
    /// position (the winner hurrying, the loser delaying).
    remote: HashMap<Position, (MovesLeft, MovesLeft)>,
    /// Set once the canonical forms grew past the limits: outcomes and winning moves then
    /// come from the search, which needs no values.
    values_given_up: bool,
    /// Thermographs of the forms, each computed once.
    thermal: thermo::Thermal,
    /// Thermal values of whole positions (canonical), from a search of the game tree: walls
    /// need no canonical form, so they go on where the forms have grown too large.
    thermals: HashMap<Position, ThermalValue>,
    /// Atomic weights of the all-small forms, each computed once.
    atomic: atomic::AtomicWeights,
    /// Reduced canonical forms, each computed once.
    reduced: atomic::ReducedForms,
}

/// How hot a position is (temperature theory): its stops, mean and temperature, its
/// thermograph and the numbers it is confused with, as exact numbers written `9/4`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Heat {
    /// Left's stop: where play ends, moving first, when both stop at a number.
    pub left_stop: String,
    /// Right's stop.
    pub right_stop: String,
    /// The mean value: where the thermograph's mast stands.
    pub mean: String,
    /// The temperature: how much moving first is worth (−1 for an integer, −1/2ⁿ for m/2ⁿ).
    pub temperature: String,
    /// The thermograph: `Thermograph(mean,[corners],[slopes],mean,[corners],[slopes])`, each
    /// wall's corners top down and the slopes dx/dt between them, read downwards.
    pub thermograph: String,
    /// The numbers x for which the position minus x is fuzzy (`[0, 1]`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confused_with: Option<String>,
}

impl Heat {
    /// A thermal value as the answers write it.
    pub(crate) fn of(v: &ThermalValue) -> Heat {
        Heat {
            left_stop: thermo::plain(v.left_stop()),
            right_stop: thermo::plain(v.right_stop()),
            mean: thermo::plain(v.thermograph.mean),
            temperature: thermo::plain(v.thermograph.temperature),
            thermograph: v.thermograph.to_string(),
            confused_with: v.confusion().map(|c| c.to_string()),
        }
    }
}

/// The pile a move of a sum changed, and what it left there (none, one pile, or the parts of
/// a split): the piles of `before` not in `after`, and those of `after` not in `before`.
fn changed_piles(before: &[u64], after: &[u64]) -> (Option<u64>, Vec<u64>) {
    let mut gone: Vec<u64> = before.iter().copied().filter(|&p| p > 0).collect();
    let mut new = Vec::new();
    for &p in after.iter().filter(|&&p| p > 0) {
        match gone.iter().position(|&q| q == p) {
            Some(i) => {
                gone.swap_remove(i);
            }
            None => new.push(p),
        }
    }
    (gone.first().copied(), new)
}

impl<'g> PartizanSolver<'g> {
    /// A solver of the partizan `game` for the questions of one budget.
    pub fn new(game: &'g Game, budget: &crate::solve::Budget) -> Self {
        PartizanSolver::within(game, budget.limits().clone())
    }

    /// A solver within the engine's limits.
    pub(crate) fn within(game: &'g Game, limits: Limits) -> Self {
        let mut forms = Forms::new(limits.max_states);
        forms.stop_with(limits.clone());
        PartizanSolver {
            game,
            forms,
            limits,
            piles: Vec::new(),
            positions: HashMap::new(),
            searched: HashMap::new(),
            remote: HashMap::new(),
            values_given_up: false,
            thermal: thermo::Thermal::default(),
            thermals: HashMap::new(),
            atomic: atomic::AtomicWeights::default(),
            reduced: atomic::ReducedForms::default(),
        }
    }

    /// The game it solves.
    pub(crate) fn game(&self) -> &'g Game {
        self.game
    }

    /// The moves of `side` from `pos` that are orthodox: they keep the mean at the position's
    /// temperature (normal play).
    pub(crate) fn orthodox_moves(&mut self, pos: &Position, side: Side) -> Result<Vec<Move>, SolveError> {
        let here = self.thermal_value(pos)?;
        let mut out = Vec::new();
        for m in self.moves(pos, side)? {
            let option = self.thermal_value(&m.to)?;
            if here.is_orthodox(&option, side == Side::Left) {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// In a sum of several piles: the hottest pile (its index, size and temperature, written
    /// `1/2`), where moving first is worth the most; `None` otherwise (or under misère play).
    pub(crate) fn hottest_pile(&mut self, pos: &Position) -> Result<Option<(usize, u64, String)>, SolveError> {
        if self.game.convention != Convention::Normal
            || !self.is_sum_of_piles()
            || pos.piles.iter().filter(|&&p| p > 0).count() < 2
        {
            return Ok(None);
        }
        let mut hottest: Option<(usize, u64, Dyadic)> = None;
        for (i, &n) in pos.piles.iter().enumerate() {
            let t = self.pile_thermal(n)?.thermograph.temperature;
            if hottest.is_none_or(|h| t > h.2) {
                hottest = Some((i, n, t));
            }
        }
        Ok(hottest.map(|(i, n, t)| (i, n, thermo::plain(t))))
    }

    /// The thermal value of a position under normal play: from its canonical value while the
    /// forms are within the limits, else from a search of its positions (the same walls).
    pub fn thermal_value(&mut self, pos: &Position) -> Result<ThermalValue, SolveError> {
        if self.has_values() {
            match self.value(pos) {
                Ok(v) => return Ok(self.thermal.value(&self.forms, v).clone()),
                // Cancelled or out of time: the question ends here, not in a search.
                Err(e @ (SolveError::Cancelled | SolveError::Timeout { .. })) => return Err(e),
                // Past the forms' limits: the search gives the same walls.
                Err(_) => {}
            }
        }
        self.position_thermal(pos)
    }

    /// The thermal value of one pile of `n` (sums of piles).
    pub(crate) fn pile_thermal(&mut self, n: u64) -> Result<ThermalValue, SolveError> {
        let pile = self.one_pile(n);
        self.thermal_value(&pile)
    }

    /// The thermal value of `pos` from a search of the positions it reaches, children first:
    /// each position's walls from its options' walls, no canonical form built.
    pub(crate) fn position_thermal(&mut self, pos: &Position) -> Result<ThermalValue, SolveError> {
        let start = self.game.canonical(pos);
        if let Some(t) = self.thermals.get(&start) {
            return Ok(t.clone());
        }
        let order = self.children_first(&start, &|p| self.thermals.contains_key(p))?;
        for (i, (p, left, right)) in order.into_iter().enumerate() {
            if i % 256 == 0 {
                check_cancel(&self.limits)?;
            }
            let v = {
                let l: Vec<&ThermalValue> = left.iter().map(|q| &self.thermals[q]).collect();
                let r: Vec<&ThermalValue> = right.iter().map(|q| &self.thermals[q]).collect();
                ThermalValue::from_options(&l, &r).above_zero()
            };
            self.thermals.insert(p, v);
        }
        Ok(self.thermals[&start].clone())
    }

    /// The atomic weight of the value `v` (a game, written out), when `v` is all-small: every
    /// position in it has moves for both players or for neither.
    pub(crate) fn atomic_weight(&mut self, v: FormId) -> Result<Option<String>, SolveError> {
        let size = self.forms.birthday(v) as u64;
        match self.atomic.weight(&mut self.forms, v) {
            Ok(w) => Ok(w.map(|w| self.show(w))),
            Err(_) => Err(self.forms_too_large(size)),
        }
    }

    /// The reduced canonical form of the value `v` (the simplest game infinitesimally close to
    /// it), written out; `None` when working it out passes the forms' limits.
    pub(crate) fn reduced_form(&mut self, v: FormId) -> Option<String> {
        let r = self.reduced.reduced(&mut self.forms, v).ok()?;
        Some(self.show(r))
    }

    /// The value `v` cooled by `t` (t ≥ 0), written out.
    pub(crate) fn cooled(&mut self, v: FormId, t: Dyadic) -> Result<String, SolveError> {
        let size = self.forms.birthday(v) as u64;
        match self.thermal.cooled(&mut self.forms, v, t) {
            Ok(c) => Ok(self.show(c)),
            Err(_) => Err(self.forms_too_large(size)),
        }
    }

    /// The thermograph of the value `v`.
    pub(crate) fn thermograph(&mut self, v: FormId) -> thermo::Thermograph {
        self.thermal.thermograph(&self.forms, v)
    }

    /// The temperature theory of a position (normal play): stops, mean, temperature,
    /// thermograph and confusion interval.
    pub(crate) fn heat(&mut self, pos: &Position) -> Result<Heat, SolveError> {
        Ok(Heat::of(&self.thermal_value(pos)?))
    }

    /// What temperature theory proves of a sum of piles from its piles' thermographs alone,
    /// for sums too large to search: the mean exactly, bounds on the stops and temperature.
    pub(crate) fn sum_bounds(&mut self, pos: &Position) -> Result<SumBounds, SolveError> {
        let mut sizes: Vec<u64> = pos.piles.iter().copied().filter(|&p| p > 0).collect();
        sizes.sort_unstable();
        // The piles' walls are searched smallest first, so a pile past the limits would be
        // found only after the others (548, 135136 and 563986 took 5 s and 1 GB before a pile
        // of 733124256 was refused): every pile is checked first, the largest first.
        let mut checked = sizes.clone();
        checked.dedup();
        for &n in checked.iter().rev() {
            let pile = self.game.canonical(&self.one_pile(n));
            if !self.thermals.contains_key(&pile) {
                crate::solve::reach::refuse_hopeless(self.game, &pile, &self.limits, held_bytes(&pile))?;
            }
        }
        let mut parts = Vec::with_capacity(sizes.len());
        for &n in &sizes {
            parts.push(self.pile_thermal(n)?);
        }
        let refs: Vec<&ThermalValue> = parts.iter().collect();
        Ok(SumBounds::of(&refs))
    }

    /// Hotstrat: `side`'s move in the hottest pile of a sum, the one that keeps the most of
    /// that pile's value at its temperature (an orthodox move there). Temperature theory's
    /// play for sums too large to search; `None` when `side` has no move.
    pub fn hot_move(&mut self, pos: &Position, side: Side) -> Result<Option<Move>, SolveError> {
        if !self.is_sum_of_piles() || self.game.convention != Convention::Normal {
            return Ok(None);
        }
        let moves = self.moves(pos, side)?;
        let mut best: Option<((Dyadic, Dyadic), Move)> = None;
        for m in moves {
            let (moved, parts) = changed_piles(&pos.piles, &m.to.piles);
            let Some(moved) = moved else { continue };
            let heat = self.pile_thermal(moved)?;
            let t = heat.thermograph.temperature.max(Dyadic::ZERO);
            let option = self.position_thermal(&Position::new(parts))?;
            // Left keeps the most with the option whose Right wall is highest at t; Right
            // the one whose Left wall is lowest.
            let kept = match side {
                Side::Left => option.thermograph.right.at(t),
                Side::Right => -option.thermograph.left.at(t),
            };
            let key = (heat.thermograph.temperature, kept);
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, m));
            }
        }
        Ok(best.map(|(_, m)| m))
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Canonical values exist under normal play only, and are used while they fit the limits.
    pub(crate) fn has_values(&self) -> bool {
        self.game.convention == Convention::Normal && !self.values_given_up
    }

    /// Stops using canonical values (after one ran past the limits): outcomes and winning
    /// moves come from the search from now on.
    pub fn give_up_values(&mut self) {
        self.values_given_up = true;
    }

    /// The canonical forms have cost more than the limits allow.
    fn over_budget(&self) -> bool {
        self.forms.work() > self.forms_budget()
    }

    /// Entries of forms work allowed: what memory allows (a position's worth each), and at
    /// most a share of the question's work (each entry costs a comparison or more).
    fn forms_budget(&self) -> usize {
        self.limits.max_states.min((self.limits.max_work / FORMS_WORK_SHARE) as usize)
    }

    fn forms_too_large(&self, pile: u64) -> SolveError {
        // A store stopped by the question's deadline or cancel token reports that.
        if self.forms.stopped() {
            if let Err(stop) = check_cancel(&self.limits) {
                return stop;
            }
        }
        let limit = self.forms_budget();
        let suggested = self.limits.seconds_for_work(4.0);
        SolveError::FormsTooLarge { limit, pile, suggested }
    }

    /// True when a position is the sum of its piles. Coins are not: two heads on one coin
    /// cancel in an impartial game only.
    pub(crate) fn is_sum_of_piles(&self) -> bool {
        self.game.is_heap_sum() && self.game.board != Board::Coins
    }

    /// The moves `side` may make from `pos`.
    /// The moves `side` may make from `pos`; a move that two rules allow is listed once.
    pub(crate) fn moves(&self, pos: &Position, side: Side) -> Result<Vec<Move>, SolveError> {
        let mut moves = self.game.moves_of(pos, side, self.limits.max_moves() as usize)?;
        let mut seen = HashSet::new();
        moves.retain(|m| seen.insert((m.kind.clone(), m.to.clone())));
        Ok(moves)
    }

    /// The position of one pile of `n` (on a board of a fixed number of piles, the others empty).
    pub(crate) fn one_pile(&self, n: u64) -> Position {
        match self.game.board {
            Board::FixedPiles(k) if k > 1 => {
                let mut piles = vec![0; k];
                piles[0] = n;
                Position::new(piles)
            }
            _ => Position::new(vec![n]),
        }
    }

    fn too_many(&self) -> SolveError {
        SolveError::state_limit(&self.limits)
    }

    /// The canonical value of `pos` (normal play).
    pub(crate) fn value(&mut self, pos: &Position) -> Result<FormId, SolveError> {
        if self.is_sum_of_piles() {
            let mut total = FormId::ZERO;
            let budget = self.forms_budget();
            for &n in &pos.piles {
                let v = self.pile_value(n)?;
                // Adding two forms sums every pair of their parts and compares the results: an
                // estimate from their sizes refuses at once a sum past the budget, where adding
                // would run for minutes before the store filled up.
                let cost = self.forms.size(total, budget).saturating_mul(self.forms.size(v, budget));
                let left = budget.saturating_sub(self.forms.work());
                // Adding to 0 costs nothing.
                let adding = total != FormId::ZERO && v != FormId::ZERO;
                if adding && (cost > budget / SUM_COST_SHARE || cost.saturating_mul(SUM_WORK_PER_PAIR) > left) {
                    return Err(self.forms_too_large(n));
                }
                total = self.forms.add(total, v).map_err(|_| self.forms_too_large(n))?;
            }
            return Ok(total);
        }
        self.position_value(pos)
    }

    /// The canonical value of one pile of `n`, computing every smaller pile first.
    pub(crate) fn pile_value(&mut self, n: u64) -> Result<FormId, SolveError> {
        if n as usize >= self.limits.max_states {
            return Err(self.too_many());
        }
        let mut last_check: Option<(u64, usize)> = None;
        while self.piles.len() as u64 <= n {
            let m = self.piles.len() as u64;
            if m.is_multiple_of(16) {
                check_cancel(&self.limits)?;
            }
            // At each doubling of the piles valued, the growth of the forms' work so far
            // estimates the rest: a pile whose values cannot be had is refused at once.
            if m >= 64 && m.is_power_of_two() {
                let now = (m, self.forms.work());
                if let Some((m0, w0)) = last_check.replace(now) {
                    let (m1, w1) = (now.0 as f64, now.1.max(1) as f64);
                    let growth = (w1 / (w0.max(1) as f64)).ln() / (m1 / m0 as f64).ln();
                    let estimate = w1 * (n as f64 / m1).powf(growth.max(1.0));
                    if estimate > 2.0 * self.forms_budget() as f64 {
                        return Err(self.forms_too_large(n));
                    }
                }
            }
            if self.over_budget() {
                return Err(self.forms_too_large(m));
            }
            let pile = Position::new(vec![m]);
            let mut sides = [Vec::new(), Vec::new()];
            for (i, side) in [Side::Left, Side::Right].into_iter().enumerate() {
                for mv in self.moves(&pile, side)? {
                    let mut v = FormId::ZERO;
                    for &part in &mv.to.piles {
                        // Parts are smaller than the pile they came from (moves never add).
                        let p = self.piles[part as usize];
                        v = self.forms.add(v, p).map_err(|_| self.forms_too_large(m))?;
                    }
                    sides[i].push(v);
                }
            }
            let [left, right] = sides;
            let v = self.forms.canonical(left, right).map_err(|_| self.forms_too_large(m))?;
            self.piles.push(v);
        }
        Ok(self.piles[n as usize])
    }

    /// The value of an option, as `explain` lists it.
    pub(crate) fn options_values(&mut self, pos: &Position, side: Side) -> Result<Vec<(Move, FormId)>, SolveError> {
        let moves = self.moves(pos, side)?;
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let v = self.value(&mv.to)?;
            out.push((mv, v));
        }
        Ok(out)
    }

    /// Values of whole positions, children first, without recursion (a long game would
    /// otherwise be a deep one).
    fn position_value(&mut self, pos: &Position) -> Result<FormId, SolveError> {
        let start = self.game.canonical(pos);
        if let Some(&v) = self.positions.get(&start) {
            return Ok(v);
        }
        let order = self.children_first(&start, &|p| self.positions.contains_key(p))?;
        for (i, (p, left, right)) in order.into_iter().enumerate() {
            if i % 64 == 0 && self.over_budget() {
                return Err(self.forms_too_large(p.piles.iter().sum()));
            }
            let l = left.iter().map(|q| self.positions[q]).collect();
            let r = right.iter().map(|q| self.positions[q]).collect();
            let v = self.forms.canonical(l, r).map_err(|_| self.forms_too_large(p.piles.iter().sum()))?;
            self.positions.insert(p, v);
        }
        Ok(self.positions[&start])
    }

    /// The positions reachable from `start` that `done` does not know, each after the
    /// positions it moves to, with the (canonical) positions Left and Right move to.
    #[allow(clippy::type_complexity)]
    fn children_first(
        &self,
        start: &Position,
        done: &dyn Fn(&Position) -> bool,
    ) -> Result<Vec<(Position, Vec<Position>, Vec<Position>)>, SolveError> {
        self.children_first_within(start, done, &self.limits)
    }

    /// As `children_first`, within `limits` (a smaller budget for the figures a move list
    /// shows beside the values).
    #[allow(clippy::type_complexity)]
    fn children_first_within(
        &self,
        start: &Position,
        done: &dyn Fn(&Position) -> bool,
        limits: &Limits,
    ) -> Result<Vec<(Position, Vec<Position>, Vec<Position>)>, SolveError> {
        // Refused at once when even a lower bound on the positions is past the limits, unless
        // every option is known already (the next row of a table): then there is one to value.
        if !done(start) {
            let mut options = self.moves(start, Side::Left)?;
            options.extend(self.moves(start, Side::Right)?);
            if !options.iter().all(|m| done(&self.game.canonical(&m.to))) {
                // Each option is kept (a position) until its own position is valued.
                crate::solve::reach::refuse_hopeless(self.game, start, limits, held_bytes(start))?;
            }
        }
        let mut out = Vec::new();
        let mut seen: HashSet<Position> = HashSet::new();
        let mut waiting: HashMap<Position, (Vec<Position>, Vec<Position>)> = HashMap::new();
        let mut stack = vec![(start.clone(), false)];
        // The memory the search holds, counted as it grows: each position keeps the positions
        // both players move to, which for many piles far outweighs the position itself.
        let budget = crate::solve::reach::held_memory(limits);
        let mut held = 0u64;
        let mut moves_examined = 0u64;
        while let Some((p, ready)) = stack.pop() {
            if ready {
                let (l, r) = waiting.remove(&p).expect("a position waits until its children are done");
                out.push((p, l, r));
                continue;
            }
            if done(&p) || seen.contains(&p) {
                continue;
            }
            if seen.len() >= limits.max_states {
                return Err(SolveError::state_limit(limits));
            }
            if seen.len().is_multiple_of(256) {
                check_cancel(limits)?;
            }
            seen.insert(p.clone());
            held += held_bytes(&p);
            let left: Vec<Position> =
                self.moves(&p, Side::Left)?.into_iter().map(|m| self.game.canonical(&m.to)).collect();
            let right: Vec<Position> =
                self.moves(&p, Side::Right)?.into_iter().map(|m| self.game.canonical(&m.to)).collect();
            moves_examined += (left.len() + right.len()) as u64;
            if moves_examined > limits.max_moves() {
                return Err(SolveError::work_limit(limits));
            }
            stack.push((p.clone(), true));
            held += held_bytes(&p) * 2;
            for q in left.iter().chain(&right) {
                held += held_bytes(q);
                if !done(q) && !seen.contains(q) {
                    stack.push((q.clone(), false));
                    held += held_bytes(q);
                }
            }
            if held > budget {
                return Err(SolveError::state_limit(limits));
            }
            waiting.insert(p, (left, right));
        }
        Ok(out)
    }

    /// Who wins moving first from `pos`, by a search of the game tree under the game's
    /// convention (under misère play a player with no move wins).
    pub(crate) fn searched_wins(&mut self, pos: &Position) -> Result<Wins, SolveError> {
        let start = self.game.canonical(pos);
        if let Some(&w) = self.searched.get(&start) {
            return Ok(w);
        }
        let misere = self.game.convention == Convention::Misere;
        let order = self.children_first(&start, &|p| self.searched.contains_key(p))?;
        for (p, left, right) in order {
            let left_wins = if left.is_empty() { misere } else { left.iter().any(|q| !self.searched[q].1) };
            let right_wins = if right.is_empty() { misere } else { right.iter().any(|q| !self.searched[q].0) };
            self.searched.insert(p, (left_wins, right_wins));
        }
        Ok(self.searched[&start])
    }

    /// Moves left from `pos` with `side` moving first and best play after (the winner hurrying,
    /// the loser delaying; a side with no move has none left), where a search within a smaller
    /// budget than the values' can count them: none past it.
    pub(crate) fn remoteness(&mut self, pos: &Position, side: Side) -> Result<Option<u64>, SolveError> {
        let start = self.game.canonical(pos);
        if !self.remote.contains_key(&start) {
            let limits = crate::solve::remoteness_limits(&self.limits);
            let order = match self.children_first_within(&start, &|p| self.remote.contains_key(p), &limits) {
                Ok(order) => order,
                Err(e) if e.kind() == crate::vocab::FailureKind::Refused => return Ok(None),
                Err(e) => return Err(e),
            };
            let misere = self.game.convention == Convention::Misere;
            for (p, left, right) in order {
                let left_first = self.moves_left(&left, Side::Left, misere);
                let right_first = self.moves_left(&right, Side::Right, misere);
                self.remote.insert(p, (left_first, right_first));
            }
        }
        let (left, right) = self.remote[&start];
        Ok(Some(if side == Side::Left { left.moves } else { right.moves }))
    }

    /// Who wins and in how many moves, `side` moving first to `options` (each already in
    /// `remote`): it wins where some option leaves the opponent, moving first, a loss, and
    /// then hurries; else it delays. With no option the mover loses under normal play, wins
    /// under misère play, and no move is left.
    fn moves_left(&self, options: &[Position], side: Side, misere: bool) -> MovesLeft {
        if options.is_empty() {
            return MovesLeft { wins: misere, moves: 0 };
        }
        let seen_by_opponent = |q: &Position| {
            let (l, r) = self.remote[q];
            if side == Side::Left {
                r
            } else {
                l
            }
        };
        let winning = options.iter().map(seen_by_opponent).filter(|o| !o.wins).map(|o| o.moves).min();
        match winning {
            Some(fastest) => MovesLeft { wins: true, moves: fastest + 1 },
            None => MovesLeft {
                wins: false,
                moves: options.iter().map(|q| seen_by_opponent(q).moves).max().unwrap_or(0) + 1,
            },
        }
    }

    /// The outcome class of `pos`: from its value under normal play, from a search under misère.
    pub fn outcome(&mut self, pos: &Position) -> Result<PartizanOutcome, SolveError> {
        if self.has_values() {
            let v = self.value(pos)?;
            return Ok(self.outcome_of(v));
        }
        let (l, r) = self.searched_wins(pos)?;
        Ok(PartizanOutcome::from_wins(l, r))
    }

    /// The outcome class of a value: compared with 0.
    pub(crate) fn outcome_of(&mut self, v: FormId) -> PartizanOutcome {
        let left_first = !self.forms.le(v, FormId::ZERO);
        let right_first = !self.forms.le(FormId::ZERO, v);
        PartizanOutcome::from_wins(left_first, right_first)
    }

    /// The moves with which `side`, moving first, wins: to a position the opponent, moving
    /// first, loses.
    pub(crate) fn winning_moves(&mut self, pos: &Position, side: Side) -> Result<Vec<Move>, SolveError> {
        let mut out = Vec::new();
        for mv in self.moves(pos, side)? {
            // An option's value may pass the forms' limits where the position's did not (a sum
            // of other piles): the values are given up, and the search answers.
            let value = if self.has_values() {
                match self.value(&mv.to) {
                    Ok(v) => Some(v),
                    Err(SolveError::FormsTooLarge { .. }) => {
                        self.give_up_values();
                        None
                    }
                    Err(e) => return Err(e),
                }
            } else {
                None
            };
            let wins = if let Some(v) = value {
                // Left wins moving second in G exactly when G ≥ 0.
                match side {
                    Side::Left => self.forms.ge(v, FormId::ZERO),
                    Side::Right => self.forms.le(v, FormId::ZERO),
                }
            } else {
                let (l, r) = self.searched_wins(&mv.to)?;
                match side {
                    Side::Left => !r,
                    Side::Right => !l,
                }
            };
            if wins {
                out.push(mv);
            }
        }
        Ok(out)
    }

    pub(crate) fn show(&mut self, v: FormId) -> String {
        notation::show(&mut self.forms, v)
    }

    /// The form in at most `budget` characters, or `{…}` with its birthday.
    pub(crate) fn show_short(&mut self, v: FormId, budget: usize) -> String {
        notation::show_within(&mut self.forms, v, budget)
            .unwrap_or_else(|| format!("{{…}} (born on day {})", self.forms.birthday(v)))
    }
}

#[cfg(test)]
mod tests;
