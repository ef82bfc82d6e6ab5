//! Misère play of heap games: the misère quotient of the game's sums (answers for positions of
//! any number of piles), and misère Grundy values and Conway's genus of single piles.

#[cfg(test)]
pub(crate) mod brute;
mod certify;
pub(crate) mod genus;
mod learn;
mod monoid;
pub(crate) mod presentation;
pub(crate) mod quotient;
mod relative;
mod step;
mod walk;

use crate::wording::{give, Argument};
use miette::Diagnostic;
use thiserror::Error;

use super::{check_cancel, period, Limits, Outcome, SolveError};
use crate::rules::{Game, Position};
pub(crate) use quotient::Word;
pub(crate) use quotient::{Bounds, Meter, NotAdded, Quotient};

/// Steps of the quotient's check and learner a question may spend per move of its work (about
/// what they take in the same time, measured on Dawson's Kayles and 0.56).
const STEPS_PER_MOVE: u64 = 100;

/// What listing one move of a heap costs the question's work (the move made, then its parts
/// sorted into a word and the words deduplicated): measured on a game of 20,000 rules.
const LISTED_MOVE_COST: usize = 2;

/// The share of a question's budget that growing the quotient may take on behalf of one
/// position (a table's rows, a solve, a game of play): the quotient is a means to the answer,
/// and a heap past its blow-up can take far longer than the answer is worth waiting for.
/// `quotient` itself takes the whole budget.
const POSITION_SHARE: f64 = 10.0;

/// Heaps past this are answered only through a proven period of the quotient.
const PERIOD_HUNT_FROM: u64 = 1 << 16;

/// The share of a question's budget that the look for a period may spend on behalf of a heap
/// past `PERIOD_HUNT_FROM`.
const PERIOD_HUNT_SHARE: f64 = 100.0;

/// Heaps are added to the quotient until a period is looked for at each doubling from here.
const FIRST_PERIOD_CHECK: u64 = 64;

/// Why a misère position could not be answered through the quotient.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum MisereError {
    #[error(
        "the misère quotient of this game stops at heap {computed} (order {order}), and this position needs heap {needed}"
    )]
    #[diagnostic(
        code(takeaway::solve::quotient_stopped),
        help("{reason}. Positions whose piles are all at most {computed} are answered by the quotient, and positions of at most 40 counters in all by a search over whole positions")
    )]
    /// The quotient stopped before the heap the position needs.
    Stopped {
        /// How many were computed before stopping.
        computed: u64,
        /// The size of the quotient when it stopped.
        order: usize,
        /// How many are needed.
        needed: u64,
        /// Why it failed.
        reason: String,
    },
}

/// Why the quotient stopped at `heap` when a question's work ran out there.
pub(crate) fn out_of_work(heap: u64, limits: &Limits) -> String {
    format!(
        "at heap {heap} the work allowed ran out (it grows with {}, now {})",
        give(Argument::Timeout),
        super::duration_in_words(limits.seconds())
    )
}

/// The misère quotient of a heap game, grown heap by heap as questions need it.
pub(crate) struct MisereHeaps {
    quotient: Quotient,
    /// (preperiod, period) of Φ, once the periodicity theorem proves it.
    period: Option<Proven>,
    next_period_check: u64,
    /// Steps of the check and the learner spent so far, over every question this solver asked:
    /// the allowance is the question's, not each call's.
    spent: u64,
    /// Why the last extension stopped for want of work, in words, when it did.
    work_note: Option<String>,
}

/// A proven period of Φ and the bound the theorem needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The heaps before the period starts.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// The theorem needs Φ up to here: 2·preperiod + 2·period + the most a move takes.
    pub needed: u64,
    /// How far Φ was computed when the period was proven.
    pub computed: u64,
}

impl Default for MisereHeaps {
    fn default() -> Self {
        Self::new()
    }
}

impl MisereHeaps {
    pub(crate) fn new() -> Self {
        MisereHeaps {
            quotient: Quotient::new(Bounds::default()),
            period: None,
            next_period_check: FIRST_PERIOD_CHECK,
            spent: 0,
            work_note: None,
        }
    }

    pub(crate) fn quotient(&self) -> &Quotient {
        &self.quotient
    }

    pub(crate) fn period(&self) -> Option<Proven> {
        self.period
    }

    /// Adds heaps up to `upto` (or until the quotient stops, or a period is proven).
    pub(crate) fn extend(&mut self, game: &Game, upto: u64, limits: &Limits) -> Result<(), SolveError> {
        let allowed = limits.max_work.saturating_mul(STEPS_PER_MOVE);
        let meter = Meter::within(allowed.saturating_sub(self.spent), limits);
        let result = self.extend_within(game, upto, limits, &meter);
        self.spent = self.spent.saturating_add(meter.used());
        result
    }

    fn extend_within(&mut self, game: &Game, upto: u64, limits: &Limits, meter: &Meter) -> Result<(), SolveError> {
        while self.quotient.heaps() <= upto && self.period.is_none() && self.quotient.stopped().is_none() {
            let n = self.quotient.heaps();
            if n as usize >= limits.max_states {
                return Err(SolveError::state_limit(limits));
            }
            check_cancel(limits)?;
            // Every heap: past the first few dozen a misère heap may take seconds.
            limits.progress.report(super::progress::Stage::PileValues, n, upto + 1);
            let before = limits.listed.load(std::sync::atomic::Ordering::Relaxed);
            let options = heap_options(game, n, limits)?;
            let listed = limits.listed.load(std::sync::atomic::Ordering::Relaxed).saturating_sub(before);
            // Where a theorem may prove a period, the heaps may stop long before `upto`.
            if !self.period_provable(game) {
                refuse_long_listing(n, upto, listed, limits)?;
            }
            match self.quotient.push(options, meter) {
                Ok(()) => {}
                Err(NotAdded::Stopped) => break,
                Err(NotAdded::OutOfWork) => {
                    // Cancelled or out of time within the heap: the quotient is as it was.
                    if let Some(stopped) = meter.stop() {
                        return Err(stopped);
                    }
                    self.work_note = Some(out_of_work(n, limits));
                    return Err(SolveError::state_limit(limits));
                }
            }

            if self.quotient.heaps() >= self.next_period_check {
                self.next_period_check *= 2;
                self.look_for_period(game);
            }
        }
        Ok(())
    }

    /// Looks for a proven period over every heap computed so far.
    pub(crate) fn finish_period(&mut self, game: &Game) {
        if self.period.is_none() {
            self.look_for_period(game);
        }
    }

    /// Why the heaps stopped where they did for want of work, in words.
    pub(crate) fn work_stop(&self, limits: &Limits) -> String {
        self.work_note.clone().unwrap_or_else(|| out_of_work(self.quotient.heaps(), limits))
    }

    /// Whether the periodicity theorem applies to the game (octal and subtraction games).
    fn period_provable(&self, game: &Game) -> bool {
        period::octal_shape_bound(game).or_else(|| period::subtraction_bound(game)).is_some()
    }

    /// Proves a period of Φ where the periodicity theorem applies (octal and subtraction games).
    fn look_for_period(&mut self, game: &Game) {
        if let Some(t) = period::octal_shape_bound(game).or_else(|| period::subtraction_bound(game)) {
            self.period = proven_period(&self.quotient, t);
        }
    }

    /// The heap whose Φ stands for heap n: itself, or its place in the period.
    pub(crate) fn reduce(&self, n: u64) -> Option<u64> {
        if n < self.quotient.heaps() {
            return Some(n);
        }
        let p = self.period?;
        Some(p.preperiod + (n - p.preperiod) % p.period)
    }

    /// Adds heaps up to `needed` for a question about that heap: when the work allowed runs out
    /// first, the error says how far the quotient got and why it stopped there.
    fn extend_for(&mut self, game: &Game, needed: u64, limits: &Limits) -> Result<(), SolveError> {
        // A heap far past any the quotient could list is answered only through a proven period:
        // the look for one gets a share of the budget, so that a hopeless one ends within a
        // second, saying how far the quotient got.
        if needed > PERIOD_HUNT_FROM && self.period.is_none() && !self.period_provable(game) {
            let computed = self.quotient.heaps().saturating_sub(1);
            let reason = format!(
                "no theorem proves a period of this game's quotient (it is not an octal or subtraction game), and \
                 only a period answers a heap past {PERIOD_HUNT_FROM}"
            );
            return Err(SolveError::Misere(MisereError::Stopped {
                computed,
                order: self.quotient.monoid().order(),
                needed,
                reason,
            }));
        }
        let share;
        let limits = if needed > PERIOD_HUNT_FROM && self.period.is_none() {
            share = limits.share(PERIOD_HUNT_SHARE);
            &share
        } else if needed >= self.quotient.heaps() && self.period.is_none() {
            share = limits.share(POSITION_SHARE);
            &share
        } else {
            limits
        };
        match self.extend(game, needed, limits) {
            Err(SolveError::StateLimit { .. } | SolveError::WorkLimit { .. })
                if self.quotient.heaps() > 1 && self.reduce(needed).is_none() =>
            {
                let reason = if needed > PERIOD_HUNT_FROM {
                    format!(
                        "no period of the quotient is proven by heap {}, and only a period answers heap {needed} (the \
                         look for one had {}, a share of the budget)",
                        self.quotient.heaps() - 1,
                        super::duration_in_words(limits.seconds())
                    )
                } else {
                    self.work_stop(limits)
                };
                let computed = self.quotient.heaps() - 1;
                let order = self.quotient.monoid().order();
                Err(SolveError::Misere(MisereError::Stopped { computed, order, needed, reason }))
            }
            other => other,
        }
    }

    /// Φ of a heap, computing the quotient as far as needed.
    pub(crate) fn phi(&mut self, game: &Game, n: u64, limits: &Limits) -> Result<u32, SolveError> {
        self.extend_for(game, n, limits)?;
        match self.reduce(n) {
            Some(h) => Ok(self.quotient.phi(h).expect("reduced heaps are computed")),
            None => Err(self.stopped_error(n)),
        }
    }

    fn stopped_error(&self, needed: u64) -> SolveError {
        let reason =
            self.quotient.stopped().map(|s| s.describe()).unwrap_or_else(|| "it has not been computed so far".into());
        let computed = self.quotient.heaps().saturating_sub(1);
        SolveError::Misere(MisereError::Stopped { computed, order: self.quotient.monoid().order(), needed, reason })
    }

    /// The element of a position (the product of its piles' Φ).
    pub(crate) fn element(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<u32, SolveError> {
        let largest = pos.piles.iter().copied().max().unwrap_or(0);
        self.extend_for(game, largest, limits)?;
        let mut x = 0;
        for &p in &pos.piles {
            let h = self.reduce(p).ok_or_else(|| self.stopped_error(p))?;
            x = self.quotient.monoid().mul(x, self.quotient.phi(h).expect("reduced heaps are computed"));
        }
        Ok(x)
    }

    pub(crate) fn outcome(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Outcome, SolveError> {
        let x = self.element(game, pos, limits)?;
        Ok(if self.quotient.monoid().in_p(x) { Outcome::P } else { Outcome::N })
    }
}

/// Piles up to this size have their moves listed; larger ones, under a proven period, are
/// answered through a representative pile.
pub(crate) const LISTED_PILE: u64 = 4096;

impl MisereHeaps {
    /// Every move to a P-position (one per resulting position, at most `most`), and whether
    /// more exist. A pile past `LISTED_PILE` under a proven period: its moves are those of a
    /// representative pile p′ ≡ p (mod the period) far enough past the preperiod that every
    /// split's larger part lies past it too, with the difference moved into that larger part;
    /// every part's Φ is unchanged, so the same moves win (one of each kind is listed).
    pub(crate) fn winning_moves(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
        most: usize,
    ) -> Result<(Vec<crate::rules::Move>, bool), SolveError> {
        let total = self.element(game, pos, limits)?;
        let mut winning = Vec::new();
        if self.quotient.monoid().in_p(total) {
            return Ok((winning, false));
        }
        let mut more = false;
        let mut seen = std::collections::HashSet::new();
        for (index, &p) in pos.piles.iter().enumerate() {
            if p == 0 || !seen.insert(p) {
                continue;
            }
            let mut rest = pos.clone();
            rest.piles.remove(index);
            let rest = self.element(game, &rest, limits)?;
            let (moves, shift) = match self.period {
                Some(pr) if p > LISTED_PILE && p >= pr.needed => {
                    // Past `needed`, every split's larger part lies past the preperiod.
                    let representative = pr.needed + (p - pr.needed) % pr.period;
                    more = true;
                    (game.moves(&Position::new(vec![representative]), limits.max_states)?, p - representative)
                }
                _ => (game.moves(&Position::new(vec![p]), limits.max_states)?, 0),
            };
            let mut kinds = std::collections::HashSet::new();
            for m in moves {
                let parts: Vec<u64> = m.to.piles.iter().copied().filter(|&q| q > 0).collect();
                let mut x = rest;
                for &q in &parts {
                    let y = self.phi(game, q, limits)?;
                    x = self.quotient.monoid().mul(x, y);
                }
                if !self.quotient.monoid().in_p(x) {
                    continue;
                }
                let mut sorted = parts.clone();
                sorted.sort_unstable();
                if !kinds.insert(sorted) {
                    continue;
                }
                let m = if shift == 0 { m } else { shifted(m, p, shift) };
                winning.push(m.on_pile_of(index, pos, game.board));
                if winning.len() > most {
                    winning.truncate(most);
                    return Ok((winning, true));
                }
            }
        }
        Ok((winning, more))
    }
}

/// A move on the representative pile, made on a pile `shift` larger: the difference goes into
/// the largest part left.
fn shifted(m: crate::rules::Move, from: u64, shift: u64) -> crate::rules::Move {
    use crate::rules::MoveKind;
    let grow = |parts: &mut Vec<u64>| {
        if let Some(largest) = parts.iter_mut().max() {
            *largest += shift;
        }
    };
    let mut to = m.to.clone();
    grow(&mut to.piles);
    let kind = match m.kind {
        MoveKind::Take { pile, amount, mut left, .. } => {
            grow(&mut left);
            MoveKind::Take { pile, from, amount, left }
        }
        MoveKind::Split { pile, mut parts, .. } => {
            grow(&mut parts);
            MoveKind::Split { pile, from, parts }
        }
        other => other,
    };
    crate::rules::Move { rule: m.rule, kind, to }
}

/// The options of one heap as words: what the rules leave of a pile of n.
pub(crate) fn heap_options(game: &Game, n: u64, limits: &Limits) -> Result<Vec<Word>, SolveError> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let moves = game.moves(&Position::new(vec![n]), limits.max_states)?;
    limits.charge(moves.len() * LISTED_MOVE_COST)?;
    let mut words: Vec<Word> = Vec::with_capacity(moves.len());
    for m in moves {
        let mut w: Word = m.to.piles.into_iter().filter(|&p| p > 0).collect();
        // Checked rules always leave smaller parts; a wrong answer would be worse than an error.
        if w.iter().any(|&p| p >= n) {
            return Err(SolveError::Loop { span: m.rule, position: n.to_string() });
        }
        w.sort_unstable();
        words.push(w);
    }
    words.sort();
    words.dedup();
    Ok(words)
}

/// Refuses at once heaps up to `upto` whose options would take far past the budget to list:
/// heap n's cost `listed` grows about linearly with the heap (its moves do), so the heaps still
/// to come cost about listed·(upto² − n²)/(2n) more.
fn refuse_long_listing(n: u64, upto: u64, listed: u64, limits: &Limits) -> Result<(), SolveError> {
    if n < 16 || upto <= n || !n.is_power_of_two() {
        return Ok(());
    }
    let (n, u, w) = (n as f64, upto as f64, listed as f64);
    let estimate = limits.listed.load(std::sync::atomic::Ordering::Relaxed) as f64 + w * (u * u - n * n) / (2.0 * n);
    let budget = limits.estimate_moves() as f64;
    if estimate <= budget * 1.25 {
        return Ok(());
    }
    let largest = ((budget * 2.0 * n / w.max(1.0)) + n * n).sqrt() as u64;
    Err(SolveError::TooMuchWork {
        needed: upto,
        computed: n as u64,
        estimate: super::approximately(estimate),
        time: limits.time_of_moves(estimate),
        budget: super::duration_in_words(limits.seconds()),
        advice: format!(
            "each heap's options are listed move by move ({} for heap {}), and a heap has more moves the larger it \
             is: heaps up to about {largest} are within the limits",
            super::approximately(w / LISTED_MOVE_COST as f64),
            n as u64
        ),
    })
}

/// The smallest period of Φ that the periodicity theorem (after Guy and Smith's for octal games,
/// as Plambeck carried it to misère quotients) proves over the heaps computed: Φ(n + p) = Φ(n)
/// for n₀ ≤ n with n + p computed, the heaps computed reach 2n₀ + 2p + t (t the most a move
/// takes), and the quotient stopped growing before n₀ + p.
pub(crate) fn proven_period(q: &Quotient, most_taken: u64) -> Option<Proven> {
    let phi = q.phis();
    let len = phi.len() as u64;
    for p in 1..=len / 3 {
        // The smallest n₀ from which Φ repeats with period p up to the end.
        let mut n0 = len - p;
        while n0 > 0 && phi[(n0 - 1) as usize] == phi[(n0 - 1 + p) as usize] {
            n0 -= 1;
        }
        // Past 2n₀ + 2p + t every option of a heap n + p is an option of n shifted by p in its
        // larger part, which lies past n₀ + p: the heap adds no new kind to the quotient.
        let needed = 2 * n0 + 2 * p + most_taken;
        if needed < len && q.order_after(n0 + p) == q.order_after(len - 1) {
            return Some(Proven { preperiod: n0, period: p, needed, computed: len - 1 });
        }
    }
    None
}

#[cfg(test)]
mod tests;
