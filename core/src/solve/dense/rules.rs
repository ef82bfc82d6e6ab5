//! The rules compiled for the dense grid: each rule's amounts as a range or a list, found once
//! through the same listing the moves use (so an amount means here what it means there), and
//! read without a position built or a move described.

use crate::rules::expr::{Env, Expr, Var};
use crate::rules::{Amount, Choice, Game, MoveError, PileSelection, Position, Rule, RuleKind};

/// One set of amounts: `lo..=hi` (empty when lo > hi), or a stretch of the pool, ascending.
#[derive(Clone, Copy, Debug)]
pub(super) enum Set {
    Range(u32, u32),
    List(u32, u32),
}

/// Sets of amounts, and the pool their lists lie in.
#[derive(Default)]
pub(super) struct Sets {
    pool: Vec<u32>,
}

impl Sets {
    /// Keeps `amounts` (ascending) as a set: a range where they run without a gap.
    pub(super) fn keep(&mut self, amounts: &[u64]) -> Set {
        match (amounts.first(), amounts.last()) {
            (None, _) | (_, None) => Set::Range(1, 0),
            (Some(&lo), Some(&hi)) if (hi - lo) as usize + 1 == amounts.len() => Set::Range(lo as u32, hi as u32),
            _ => {
                let start = self.pool.len() as u32;
                self.pool.extend(amounts.iter().map(|&t| t as u32));
                Set::List(start, self.pool.len() as u32)
            }
        }
    }

    /// Calls `f` with every amount of `set` of at most `cap`, ascending.
    #[inline(always)]
    pub(super) fn each(&self, set: Set, cap: u32, mut f: impl FnMut(u32)) {
        match set {
            Set::Range(lo, hi) => {
                for t in lo..=hi.min(cap) {
                    f(t);
                }
            }
            Set::List(start, end) => {
                for &t in &self.pool[start as usize..end as usize] {
                    if t > cap {
                        break;
                    }
                    f(t);
                }
            }
        }
    }
}

/// Whether a rule's amount or condition reads `var`.
pub(super) fn reads(rule: &Rule, var: Var) -> bool {
    let choice = |c: &Choice| match c {
        Choice::Value(e) => e.reads(var),
        Choice::Range(a, b) => a.reads(var) || b.reads(var),
    };
    let amount = match &rule.kind {
        RuleKind::Take { amount, .. } => match amount {
            Amount::Any => false,
            Amount::AnyExcept(list) | Amount::Choices(list) => list.iter().any(choice),
            Amount::Bound(_, e) => e.reads(var),
        },
        _ => false,
    };
    amount || rule.condition.as_ref().is_some_and(|c: &Expr| c.reads(var))
}

/// The amounts one rule allows, by the size it reads (the pile's, or for the same amount from
/// several piles, the smallest chosen): one set for every size when the rule reads no `n`
/// (cut at the size where it is read), else a set for each size.
pub(super) enum Amounts {
    Fixed(Set),
    BySize(Vec<Set>),
}

impl Amounts {
    #[inline(always)]
    pub(super) fn set(&self, size: u32) -> Set {
        match self {
            Amounts::Fixed(set) => *set,
            Amounts::BySize(sets) => sets[size as usize],
        }
    }

    /// The amounts of `rule` for sizes up to `largest`, with `last` (and `n` where one pile is read).
    pub(super) fn compile(
        rule: &Rule,
        largest: u64,
        one_pile: bool,
        last: Option<i64>,
        sets: &mut Sets,
        at: &Position,
    ) -> Result<Amounts, MoveError> {
        if !one_pile || !reads(rule, Var::N) {
            let n = one_pile.then_some(largest as i64);
            let env = Env { n, t: None, last, pair: None };
            let all = Game::rule_amounts(rule, &env, largest, at)?;
            return Ok(Amounts::Fixed(sets.keep(&all)));
        }
        let mut by_size = Vec::with_capacity(largest as usize + 1);
        for n in 0..=largest {
            let env = Env { n: Some(n as i64), t: None, last, pair: None };
            by_size.push(sets.keep(&Game::rule_amounts(rule, &env, n, at)?));
        }
        Ok(Amounts::BySize(by_size))
    }
}

/// A rule on a tuple of piles, compiled for piles up to the grid's largest.
pub(super) enum TupleRule {
    /// An amount from one pile.
    One(Amounts),
    /// The same amount from each of some piles (`min..=max` of them), read by the smallest.
    Same { piles: PileSelection, amounts: Amounts },
    /// An amount of its own from each of some piles.
    Each { piles: PileSelection, amounts: Amounts },
    /// `a` from one pile and `b` from another: for each `a`, the `b` allowed, ascending.
    Pair { by_first: Vec<Vec<u32>> },
}

/// Whether the dense grid takes a game's rules: takes of whole amounts (from one pile or several,
/// or a pair), nothing split, added or bitten, on either convention, impartial.
pub(super) fn fits(rule: &Rule) -> bool {
    rule.side.is_none()
        && match &rule.kind {
            RuleKind::Take { then_split, .. } => then_split.is_none(),
            RuleKind::TakePair => true,
            _ => false,
        }
}

/// The evaluations compiling a pair rule for piles up to `largest` costs (the condition read
/// for every pair, either way round).
pub(super) fn pair_cost(largest: u64) -> u128 {
    2 * (largest as u128) * (largest as u128)
}

impl TupleRule {
    pub(super) fn compile(rule: &Rule, largest: u64, sets: &mut Sets, at: &Position) -> Result<TupleRule, MoveError> {
        match &rule.kind {
            RuleKind::Take { piles, .. } if piles.is_one() => {
                Ok(TupleRule::One(Amounts::compile(rule, largest, true, None, sets, at)?))
            }
            RuleKind::Take { piles, .. } if piles.independent => {
                Ok(TupleRule::Each { piles: *piles, amounts: Amounts::compile(rule, largest, true, None, sets, at)? })
            }
            RuleKind::Take { piles, .. } => {
                Ok(TupleRule::Same { piles: *piles, amounts: Amounts::compile(rule, largest, false, None, sets, at)? })
            }
            RuleKind::TakePair => {
                let mut by_first = vec![Vec::new(); largest as usize + 1];
                for (a, allowed) in by_first.iter_mut().enumerate().skip(1) {
                    for b in 1..=largest {
                        if Game::pair_allowed(rule, a as u64, b, None)? {
                            allowed.push(b as u32);
                        }
                    }
                }
                Ok(TupleRule::Pair { by_first })
            }
            _ => unreachable!("`fits` admits takes and pair takes only"),
        }
    }
}
