//! Take-away games after Schwenk: one pile, a first move of its own, and after it "take from 1
//! up to f(last)". Whether a player who may take up to k from a pile of m wins depends only on
//! whether k reaches w(m), the smallest winning take from m:
//!   w(0) = ∞,  w(m) = min { t ≥ 1 : f(t) < w(m − t) },
//! so the positions (m, last) never need to be searched one by one.

use super::{Limits, Outcome, SolveError};
use crate::rules::expr::{Env, Expr, ExprKind, Var};
use crate::rules::{Amount, Board, Choice, Convention, Game, Move, Position, RuleKind};
use crate::vocab::{BinOp, CmpOp, UnOp};

/// The most terms of Schwenk's sequence H kept: it grows at least by one each step, and
/// geometrically once f(1) is passed, so only a bound f far above the pile needs more.
const MOST_H_TERMS: usize = 1 << 20;

/// Above this many (pile, last) pairs, Grundy values of such games are not searched for.
const SMALL_SEARCH: u64 = 100_000;

pub(crate) fn search_is_small(pos: &Position) -> bool {
    let m = pos.piles.first().copied().unwrap_or(0);
    m.saturating_add(1).saturating_mul(m.saturating_add(1)) <= SMALL_SEARCH
}

pub(crate) struct LastBound {
    /// The bound expressions of the `move:` rules, each with what to add (−1 for `<`).
    bounds: Vec<(Expr, i64)>,
    /// `after[t]`: the most the next player may take after a move of t.
    after: Vec<i64>,
    /// `smallest_win[m]`: w(m) above; `u64::MAX` stands for ∞.
    smallest_win: Vec<u64>,
    steps: u64,
    /// f as affine pieces (a, b) with f(x) = max of a·x + b, when every bound has that form.
    affine: Option<Vec<(i128, i128)>>,
    /// Schwenk's sequence H₁ = 1, H_{k+1} = H_k + H_m with m the least j where f(H_j) ≥ H_k,
    /// computed as far as needed, when f is non-decreasing with f(x) ≥ x.
    h: Vec<u128>,
    /// m for the last term of H: it never decreases, since f and H do not.
    h_step: usize,
}

impl LastBound {
    /// The rules fit when, after the first move, every rule is "take 1 up to an expression of last".
    pub(crate) fn recognise(game: &Game) -> Option<LastBound> {
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
            let (expr, offset) = take_bound(rule.plain_take()?)??;
            if expr.reads(Var::N) || expr.reads(Var::T) {
                return None;
            }
            bounds.push((expr.clone(), offset));
        }
        let affine: Option<Vec<(i128, i128)>> =
            bounds.iter().map(|(e, offset)| affine_in(e, Var::Last).map(|(a, b)| (a, b + *offset as i128))).collect();
        // Schwenk's theorem needs f non-decreasing and f(x) ≥ x: every piece with a ≥ 0, and
        // one with a ≥ 1 and a − 1 + b ≥ 0.
        let affine = affine.filter(|pieces| {
            pieces.iter().all(|&(a, _)| a >= 0) && pieces.iter().any(|&(a, b)| a >= 1 && a - 1 + b >= 0)
        });
        first_ok.then_some(LastBound {
            bounds,
            after: vec![0],
            smallest_win: vec![u64::MAX],
            steps: 0,
            affine,
            h: vec![1],
            h_step: 0,
        })
    }

    /// f as linear pieces (a, b), f(x) = the largest a·x + b, when Schwenk's theorem applies.
    pub(crate) fn pieces(&self) -> Option<&[(i128, i128)]> {
        self.affine.as_deref()
    }

    fn f_affine(&self, x: u128) -> u128 {
        let pieces = self.affine.as_ref().expect("called only when f is affine");
        pieces.iter().map(|&(a, b)| (a as u128).saturating_mul(x).saturating_add_signed(b)).max().unwrap_or(0)
    }

    /// Extends H past `m`; `false` when that would need more terms than are kept.
    fn extend_h(&mut self, m: u128) -> bool {
        while *self.h.last().expect("H starts with 1") <= m {
            if self.h.len() >= MOST_H_TERMS {
                return false;
            }
            let hk = *self.h.last().expect("H starts with 1");
            // The least j with f(H_j) ≥ H_k: H_k only grows, so the search goes on from the last one,
            // and stops at k at the latest, since f(H_k) ≥ H_k.
            while self.f_affine(self.h[self.h_step]) < hk {
                self.h_step += 1;
            }
            self.h.push(hk + self.h[self.h_step]);
        }
        true
    }

    /// w(m) through H: the smallest term of m written greedily as a sum of terms of H.
    fn smallest_win_by_sequence(&mut self, m: u64) -> Option<u64> {
        if m == 0 {
            return Some(u64::MAX);
        }
        if !self.extend_h(m as u128) {
            return None;
        }
        let mut rest = m as u128;
        let mut smallest = 0;
        for &term in self.h.iter().rev() {
            if term <= rest {
                rest -= term;
                smallest = term;
            }
        }
        Some(smallest as u64)
    }

    /// w(m), from the table where it reaches, through H beyond it.
    fn smallest_win(&mut self, m: u64, limits: &Limits) -> Result<u64, SolveError> {
        if (m as usize) < self.smallest_win.len() {
            return Ok(self.smallest_win[m as usize]);
        }
        if self.affine.is_some() {
            if let Some(w) = self.smallest_win_by_sequence(m) {
                return Ok(w);
            }
        }
        self.extend(m, limits)?;
        Ok(self.smallest_win[m as usize])
    }

    /// The most the first move may take from a pile of m, when the first-move rules are takes
    /// of 1 up to a bound (`take any`, `take 1..n-1`, `take ≤ n/2`).
    fn first_move_reach(game: &Game, m: u64) -> Option<u64> {
        FirstReach::Evaluated.at(game, m)
    }

    /// The winning moves from a pile too large to list every move: the takes that remove the
    /// smallest terms of m's representation (each leaves a pile whose smallest term is out of
    /// the opponent's reach), checked one by one. The flag says the list may be incomplete.
    pub(crate) fn winning_moves_large(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
    ) -> Result<Option<(Vec<Move>, bool)>, SolveError> {
        let m = pos.piles[0];
        if self.affine.is_none() || !self.extend_h(m as u128) {
            return Ok(None);
        }
        let reach = match pos.last {
            Some(k) => self.bound_after(k)?.max(0) as u64,
            None => match Self::first_move_reach(game, m) {
                Some(r) => r,
                None => return Ok(None),
            },
        };
        let mut terms = Vec::new();
        let mut rest = m as u128;
        for &term in self.h.iter().rev() {
            if term <= rest {
                rest -= term;
                terms.push(term as u64);
            }
        }
        let mut moves = Vec::new();
        let mut take = 0u64;
        for &term in terms.iter().rev() {
            take += term;
            if take > reach || take > m {
                break;
            }
            let left = m - take;
            let f = self.bound_after(take)?;
            let w = self.smallest_win(left, limits)?;
            if f < 0 || (f as u64) < w {
                let span = game.rules_for(pos).first().map(|r| r.span).unwrap_or_default();
                let kind = crate::rules::MoveKind::Take { pile: 0, from: m, amount: take, left: vec![left] };
                moves.push(Move {
                    rule: span,
                    kind,
                    to: Position { piles: vec![left], last: Some(take), cells: false },
                });
            }
        }
        Ok(Some((moves, true)))
    }

    /// f(t): the most the next player may take after a move of t.
    pub(crate) fn bound_after(&mut self, t: u64) -> Result<i64, SolveError> {
        // Small takes are remembered; a take of 10¹⁷ is evaluated on its own.
        const REMEMBERED: u64 = 1 << 20;
        if t >= REMEMBERED {
            return self.evaluate_bound(t);
        }
        while self.after.len() as u64 <= t {
            let most = self.evaluate_bound(self.after.len() as u64)?;
            self.after.push(most);
        }
        Ok(self.after[t as usize])
    }

    fn evaluate_bound(&self, t: u64) -> Result<i64, SolveError> {
        let env = Env { n: None, t: None, last: Some(t as i64), pair: None };
        let mut most = i64::MIN;
        for (e, offset) in &self.bounds {
            let v = e.int(&env).map_err(crate::rules::MoveError::from)?;
            most = most.max(v.saturating_add(*offset));
        }
        Ok(most)
    }

    fn extend(&mut self, upto: u64, limits: &Limits) -> Result<(), SolveError> {
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

    /// The outcomes of one pile of 0..=upto before any move, at once: w(m) for every m (through
    /// H in one step each where Schwenk's theorem applies, else by its definition), and the
    /// first move's reach as a line in n where its bound is one. `None` when the first move is
    /// not a take of 1 up to a bound.
    pub(crate) fn outcomes_upto(
        &mut self,
        game: &Game,
        upto: u64,
        limits: &Limits,
    ) -> Result<Option<Vec<Outcome>>, SolveError> {
        let Some(reach) = FirstReach::of(game) else { return Ok(None) };
        let size = upto as usize + 1;
        let smallest: Vec<u64> = if self.affine.is_some() && self.extend_h(upto as u128) {
            // The greedy representation of m is its largest term h ≤ m and that of m − h: its
            // smallest term is m itself when m is a term, else the smallest term of m − h.
            let mut w = vec![u64::MAX; size];
            // The terms up to the table's end (H passes it, so the last is above every m).
            let terms: Vec<usize> = self.h.iter().map(|&t| t.min(size as u128) as usize).collect();
            // H starts with 1 and grows by at least 1 a term: m passes at most one term a step.
            let (mut largest, mut next) = (terms[0], 1usize);
            for m in 1..size {
                if next < terms.len() && terms[next] <= m {
                    largest = terms[next];
                    next += 1;
                }
                w[m] = if largest == m { m as u64 } else { w[m - largest] };
            }
            w
        } else {
            self.extend(upto, limits)?;
            self.smallest_win[..size].to_vec()
        };
        // A bound that cannot be evaluated for some pile: the piles are answered one by one.
        Ok((0..size)
            .map(|m| {
                let wins = m > 0 && smallest[m] <= reach.at(game, m as u64)?;
                Some(if wins { Outcome::N } else { Outcome::P })
            })
            .collect())
    }

    pub(crate) fn outcome(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Outcome, SolveError> {
        let m = pos.piles[0];
        let wins = match pos.last {
            Some(k) => {
                let f = self.bound_after(k)?;
                m > 0 && f >= 0 && (f as u64) >= self.smallest_win(m, limits)?
            }
            None => match Self::first_move_reach(game, m) {
                // A first move of 1 up to some reach wins exactly when the smallest winning
                // take does.
                Some(reach) => m > 0 && self.smallest_win(m, limits)? <= reach,
                None => {
                    self.extend(m, limits)?;
                    let mut any = false;
                    for mv in game.moves(pos, limits.max_states)? {
                        if self.wins_by(m, m - mv.to.piles[0])? {
                            any = true;
                            break;
                        }
                    }
                    any
                }
            },
        };
        Ok(if wins { Outcome::N } else { Outcome::P })
    }
}

/// How far the first move reaches from a pile of m: a line a·m + b where every first-move
/// bound is one (for a table of every pile, which stays far below where the line and the
/// evaluated bound could part by overflow), else each bound evaluated.
enum FirstReach {
    Lines(Vec<(i128, i128)>),
    Evaluated,
}

impl FirstReach {
    fn of(game: &Game) -> Option<FirstReach> {
        let mut lines = Vec::new();
        for rule in &game.first_moves {
            match take_bound(rule.plain_take()?)? {
                None => lines.push((1, 0)),
                Some((e, offset)) => match affine_in(e, Var::N) {
                    Some((a, b)) => lines.push((a, b + offset as i128)),
                    None => return Some(FirstReach::Evaluated),
                },
            }
        }
        Some(FirstReach::Lines(lines))
    }

    /// The reach from a pile of m; `None` when a bound cannot be evaluated there.
    fn at(&self, game: &Game, m: u64) -> Option<u64> {
        match self {
            FirstReach::Lines(lines) => match lines.as_slice() {
                // One line (`take 1..n-1`): no iterator for each pile of a table.
                &[(a, b)] => Some((a * m as i128 + b).clamp(0, m as i128) as u64),
                _ => lines.iter().map(|&(a, b)| (a * m as i128 + b).clamp(0, m as i128) as u64).max(),
            },
            FirstReach::Evaluated => {
                let env = Env { n: Some(m as i64), t: None, last: None, pair: None };
                let mut most: Option<u64> = None;
                for rule in &game.first_moves {
                    let reach = match take_bound(rule.plain_take()?)? {
                        None => m,
                        Some((e, offset)) => e.int(&env).ok()?.saturating_add(offset).clamp(0, m as i64) as u64,
                    };
                    most = Some(most.map_or(reach, |x: u64| x.max(reach)));
                }
                most
            }
        }
    }
}

/// A take of 1 up to a bound, as (bound, what to add to it): `Some(None)` for `take any`, `None`
/// for any other amount.
pub(crate) fn take_bound(amount: &Amount) -> Option<Option<(&Expr, i64)>> {
    match amount {
        Amount::Any => Some(None),
        Amount::Bound(CmpOp::Le, e) => Some(Some((e, 0))),
        Amount::Bound(CmpOp::Lt, e) => Some(Some((e, -1))),
        Amount::Choices(list) => match list.as_slice() {
            [Choice::Range(lo, hi)] if lo.constant() == Some(1) => Some(Some((hi, 0))),
            _ => None,
        },
        _ => None,
    }
}

/// `expr` as a·x + b for the variable `var`, when it is built from whole numbers and `var` by
/// +, − and × by a constant.
pub(crate) fn affine_in(expr: &Expr, var: Var) -> Option<(i128, i128)> {
    let of = |e: &Expr| affine_in(e, var);
    match &expr.kind {
        ExprKind::Int(v) => Some((0, *v as i128)),
        ExprKind::Var(v) if *v == var => Some((1, 0)),
        ExprKind::Unary(UnOp::Neg, a) => of(a).map(|(a, b)| (-a, -b)),
        ExprKind::Binary(BinOp::Add, x, y) => {
            let ((a1, b1), (a2, b2)) = (of(x)?, of(y)?);
            Some((a1 + a2, b1 + b2))
        }
        ExprKind::Binary(BinOp::Sub, x, y) => {
            let ((a1, b1), (a2, b2)) = (of(x)?, of(y)?);
            Some((a1 - a2, b1 - b2))
        }
        ExprKind::Binary(BinOp::Mul, x, y) => match (of(x)?, of(y)?) {
            ((0, c), (a, b)) | ((a, b), (0, c)) => Some((a.checked_mul(c)?, b.checked_mul(c)?)),
            _ => None,
        },
        _ => None,
    }
}
