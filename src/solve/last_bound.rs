//! Take-away games after Schwenk: one pile, a first move of its own, and after it "take from 1
//! up to f(last)". Whether a player who may take up to k from a pile of m wins depends only on
//! whether k reaches w(m), the smallest winning take from m:
//!   w(0) = ∞,  w(m) = min { t ≥ 1 : f(t) < w(m − t) },
//! so the positions (m, last) never need to be searched one by one.

use super::{Limits, Outcome, SolveError};
use crate::ast::CmpOp;
use crate::rules::expr::{Env, Expr, Var};
use crate::rules::{Amount, Board, Choice, Convention, Game, Position, RuleKind};

/// Above this many (pile, last) pairs, Grundy values of such games are not searched for.
const SMALL_SEARCH: u64 = 100_000;

pub fn search_is_small(pos: &Position) -> bool {
    let m = pos.piles.first().copied().unwrap_or(0);
    m.saturating_add(1).saturating_mul(m.saturating_add(1)) <= SMALL_SEARCH
}

pub struct LastBound {
    /// The bound expressions of the `move:` rules, each with what to add (−1 for `<`).
    bounds: Vec<(Expr, i64)>,
    /// `after[t]`: the most the next player may take after a move of t.
    after: Vec<i64>,
    /// `smallest_win[m]`: w(m) above; `u64::MAX` stands for ∞.
    smallest_win: Vec<u64>,
    steps: u64,
}

impl LastBound {
    /// The rules fit when, after the first move, every rule is "take 1 up to an expression of last".
    pub fn recognise(game: &Game) -> Option<LastBound> {
        if game.board != Board::OnePile
            || game.convention != Convention::Normal
            || !game.uses_last
            || game.first_moves.is_empty()
            || game.moves.is_empty()
        {
            return None;
        }
        let first_ok = game.first_moves.iter().all(|r| matches!(r.kind, RuleKind::Take { then_split: None, .. }));
        let mut bounds = Vec::new();
        for rule in &game.moves {
            let (expr, offset) = match rule.plain_take()? {
                Amount::Bound(CmpOp::Le, e) => (e, 0),
                Amount::Bound(CmpOp::Lt, e) => (e, -1),
                Amount::Choices(list) => match list.as_slice() {
                    [Choice::Range(lo, hi)] if lo.constant() == Some(1) => (hi, 0),
                    _ => return None,
                },
                _ => return None,
            };
            if expr.reads(Var::N) || expr.reads(Var::T) {
                return None;
            }
            bounds.push((expr.clone(), offset));
        }
        first_ok.then_some(LastBound { bounds, after: vec![0], smallest_win: vec![u64::MAX], steps: 0 })
    }

    /// f(t): the most the next player may take after a move of t.
    pub fn bound_after(&mut self, t: u64) -> Result<i64, SolveError> {
        while self.after.len() as u64 <= t {
            let last = self.after.len() as i64;
            let env = Env { n: None, t: None, last: Some(last) };
            let mut most = i64::MIN;
            for (e, offset) in &self.bounds {
                let v = e.int(&env).map_err(crate::rules::MoveError::from)?;
                most = most.max(v.saturating_add(*offset));
            }
            self.after.push(most);
        }
        Ok(self.after[t as usize])
    }

    fn extend(&mut self, upto: u64, limits: Limits) -> Result<(), SolveError> {
        if upto >= limits.max_states as u64 {
            return Err(SolveError::state_limit(limits));
        }
        let budget = limits.max_moves();
        while self.smallest_win.len() as u64 <= upto {
            let m = self.smallest_win.len() as u64;
            let mut w = u64::MAX;
            for t in 1..=m {
                self.steps += 1;
                if self.steps.is_multiple_of(4096) {
                    super::check_cancel(limits)?;
                }
                if self.steps > budget {
                    return Err(SolveError::work_limit(limits));
                }
                if self.wins_by(m, t)? {
                    w = t;
                    break;
                }
            }
            self.smallest_win.push(w);
        }
        Ok(())
    }

    /// Taking t from m leaves the opponent (m − t, may take up to f(t)): a loss for them
    /// exactly when f(t) falls short of their smallest winning take.
    fn wins_by(&mut self, m: u64, t: u64) -> Result<bool, SolveError> {
        let f = self.bound_after(t)?;
        let w = self.smallest_win[(m - t) as usize];
        Ok(f < 0 || (f as u64) < w)
    }

    pub fn outcome(&mut self, game: &Game, pos: &Position, limits: Limits) -> Result<Outcome, SolveError> {
        let m = pos.piles[0];
        self.extend(m, limits)?;
        let wins = match pos.last {
            Some(k) => {
                let f = self.bound_after(k)?;
                m > 0 && f >= 0 && (f as u64) >= self.smallest_win[m as usize]
            }
            None => {
                let mut any = false;
                for mv in game.moves(pos, limits.max_states)? {
                    if self.wins_by(m, m - mv.to.piles[0])? {
                        any = true;
                        break;
                    }
                }
                any
            }
        };
        Ok(if wins { Outcome::N } else { Outcome::P })
    }
}
