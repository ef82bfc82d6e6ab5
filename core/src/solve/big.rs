//! Piles too large for 64 bits, in the take ≤ f(last) games after Schwenk whose f is linear:
//! the outcome and the winning takes follow from writing the pile greedily as a sum of terms of
//! Schwenk's sequence H, so arbitrary-size integers need nothing else (Fibonacci Nim at 10¹⁰⁰ is
//! its Zeckendorf representation).

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use super::last_bound::{affine_in, take_bound, LastBound};
use super::Outcome;
use crate::rules::expr::Var;
use crate::rules::Game;

/// The most terms of H computed for one pile: a bound f far above the pile makes H grow slowly.
pub(crate) const MOST_TERMS: usize = 1 << 16;

/// The most winning takes listed.
const MOST_WINNING_MOVES: usize = 100;

/// The most digits a pile may have.
pub(crate) const MOST_DIGITS: usize = 1000;

/// a·x + b: one linear piece of a bound.
type Piece = (i128, i128);

/// A Schwenk game's rules, for piles of any size.
pub(crate) struct BigSchwenk {
    /// f(last) = the largest of these pieces at last
    after: Vec<Piece>,
    /// the first move's reach at n: the largest of these pieces at n, `None` for all of it
    first: Vec<Option<Piece>>,
    /// H₁ = 1, H₂, …: computed as far as the pile needs
    h: Vec<BigUint>,
    /// the least j with f(H_j) ≥ the last term of H
    h_step: usize,
}

/// What a pile of any size gives.
pub(crate) struct BigAnswer {
    pub outcome: Outcome,
    /// the pile written greedily in terms of H, largest first
    pub terms: Vec<BigUint>,
    /// winning takes and what each leaves
    pub winning: Vec<(BigUint, BigUint)>,
    /// true when more takes may win than were checked
    pub more: bool,
}

/// Why a pile of any size has no answer here.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BigFailure {
    /// H grows too slowly to reach the pile with the terms allowed
    SlowSequence { terms: usize },
}

impl BigSchwenk {
    /// The game's rules, when it is one of Schwenk's with f linear and a first move that takes
    /// 1 up to a linear bound in n (or anything).
    pub(crate) fn recognise(game: &Game) -> Option<BigSchwenk> {
        let bound = LastBound::recognise(game)?;
        let after = bound.pieces()?.to_vec();
        let mut first = Vec::new();
        for rule in &game.first_moves {
            let reach = match take_bound(rule.plain_take()?)? {
                None => None,
                Some((e, offset)) => affine_in(e, Var::N).map(|(a, b)| Some((a, b + offset as i128)))?,
            };
            first.push(reach);
        }
        Some(BigSchwenk { after, first, h: vec![BigUint::one()], h_step: 0 })
    }

    fn at(pieces: &[Piece], x: &BigUint) -> BigInt {
        let x = BigInt::from(x.clone());
        pieces.iter().map(|&(a, b)| BigInt::from(a) * &x + BigInt::from(b)).max().unwrap_or_else(BigInt::zero)
    }

    /// f(x), at least 0 (a bound below 0 allows no move, as a bound of 0 does).
    fn f(&self, x: &BigUint) -> BigUint {
        Self::at(&self.after, x).to_biguint().unwrap_or_default()
    }

    /// Extends H past `m`.
    fn extend_h(&mut self, m: &BigUint) -> Result<(), BigFailure> {
        while self.h.last().is_some_and(|last| last <= m) {
            if self.h.len() >= MOST_TERMS {
                return Err(BigFailure::SlowSequence { terms: MOST_TERMS });
            }
            let hk = self.h[self.h.len() - 1].clone();
            // f(H_k) ≥ H_k, so the search stops at k at the latest.
            while self.f(&self.h[self.h_step]) < hk {
                self.h_step += 1;
            }
            let next = hk + &self.h[self.h_step];
            self.h.push(next);
        }
        Ok(())
    }

    /// m written greedily as a sum of terms of H, largest first.
    fn terms(&mut self, m: &BigUint) -> Result<Vec<BigUint>, BigFailure> {
        self.extend_h(m)?;
        let mut rest = m.clone();
        let mut terms = Vec::new();
        for term in self.h.iter().rev() {
            if *term <= rest {
                rest -= term;
                terms.push(term.clone());
            }
        }
        Ok(terms)
    }

    /// The smallest winning take from m, `None` for m = 0 (no take wins there).
    fn smallest_win(&mut self, m: &BigUint) -> Result<Option<BigUint>, BigFailure> {
        Ok(self.terms(m)?.pop())
    }

    /// The most the player to move may take: f(last) after a move, the first move's reach before.
    fn reach(&self, m: &BigUint, last: Option<u64>) -> BigUint {
        match last {
            Some(k) => self.f(&BigUint::from(k)),
            None => self
                .first
                .iter()
                .map(|piece| match piece {
                    None => m.clone(),
                    Some(p) => Self::at(std::slice::from_ref(p), m).to_biguint().unwrap_or_default(),
                })
                .max()
                .unwrap_or_default(),
        }
        .min(m.clone())
    }

    /// The outcome of a pile of m and its winning takes: taking the sum of the smallest terms of
    /// m's representation, each checked to leave a pile whose smallest winning take is out of
    /// the opponent's reach.
    pub(crate) fn answer(&mut self, m: &BigUint, last: Option<u64>) -> Result<BigAnswer, BigFailure> {
        let terms = self.terms(m)?;
        let reach = self.reach(m, last);
        let wins = terms.last().is_some_and(|smallest| *smallest <= reach);
        let mut winning = Vec::new();
        if wins {
            let mut take = BigUint::zero();
            for term in terms.iter().rev() {
                take += term;
                if take > reach || winning.len() == MOST_WINNING_MOVES {
                    break;
                }
                let left = m - &take;
                let theirs = self.f(&take);
                if self.smallest_win(&left)?.is_none_or(|w| theirs < w) {
                    winning.push((take.clone(), left));
                }
            }
        }
        // Takes that are not a sum of the smallest terms are not checked: there may be more.
        Ok(BigAnswer { outcome: if wins { Outcome::N } else { Outcome::P }, terms, winning, more: wins })
    }
}

#[cfg(test)]
#[path = "big_tests.rs"]
mod tests;
