//! Periods in the values of one pile, proven where a theorem applies, and the famous patterns
//! that P-positions can follow.
//!
//! - Subtraction games (a finite set of amounts, at most s): the value of n depends only on the
//!   s values before it, so once a window of s values repeats after p, everything repeats.
//! - Octal games (Guy and Smith): if G(n + p) = G(n) for n₀ ≤ n < 2n₀ + p + t, where t is the most
//!   a move takes, then G(n + p) = G(n) for every n ≥ n₀.
//! - Anything else, and arithmetic periodicity (G(n + p) = G(n) + s), is reported as apparent.

use serde::Serialize;

use crate::ast::CmpOp;
use crate::rules::{Amount, Board, Choice, Game, RuleKind};

/// At least this many values are examined, so that a period shows itself several times.
pub const MIN_EXAMINED: u64 = 512;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Periodicity {
    /// `grundy` or `outcome`: which sequence repeats
    pub of: &'static str,
    pub preperiod: u64,
    pub period: u64,
    /// what is added each period: 0 for plain periodicity
    pub saltus: i64,
    pub proven: bool,
    /// the theorem that proves it, when one does
    pub theorem: Option<&'static str>,
    /// how far the values were computed and compared
    pub checked_to: u64,
}

/// The smallest period p (and for it the smallest preperiod) such that the sequence repeats,
/// adding a constant each period when `arithmetic`, over at least three whole periods and
/// half of the sequence at its end. Returns (preperiod, period, saltus).
pub fn detect(values: &[i64], arithmetic: bool) -> Option<(usize, usize, i64)> {
    let len = values.len();
    for p in 1..=len / 2 {
        let saltus = if arithmetic { values[len - 1] - values[len - 1 - p] } else { 0 };
        if arithmetic && saltus == 0 {
            continue;
        }
        let mut start = len - p;
        while start > 0 && values[start - 1 + p] - values[start - 1] == saltus {
            start -= 1;
        }
        // Three whole periods and half the sequence at least: sparse P-positions (powers of 2,
        // Fibonacci numbers) can repeat once at some distance by chance, and the gaps between
        // them are long runs of N, but never three times, nor half of what was examined.
        let tail = len - start;
        if tail >= 3 * p && tail >= len / 2 {
            return Some((start, p, saltus));
        }
    }
    None
}

/// The largest amount of a subtraction game: one-pile moves that take a fixed, finite set of
/// amounts, with no condition, no split and no history. `None` for any other game.
pub fn subtraction_bound(game: &Game) -> Option<u64> {
    if game.tracks_history() || game.board == Board::Rows {
        return None;
    }
    let mut most = 0;
    for rule in &game.moves {
        most = most.max(largest_fixed_amount(rule.plain_take()?)?);
    }
    Some(most)
}

fn largest_fixed_amount(amount: &Amount) -> Option<u64> {
    match amount {
        Amount::Choices(list) => list
            .iter()
            .map(|c| match c {
                Choice::Value(e) => e.constant(),
                // Both ends fixed: a range reaching to n is not a finite set.
                Choice::Range(lo, hi) => lo.constant().and(hi.constant()),
            })
            .try_fold(0i64, |m, v| v.map(|v| m.max(v)))
            .map(|v| v.max(0) as u64),
        Amount::Bound(CmpOp::Le, e) => e.constant().map(|v| v.max(0) as u64),
        Amount::Bound(CmpOp::Lt, e) => e.constant().map(|v| (v - 1).max(0) as u64),
        _ => None,
    }
}

/// The most an octal game's move takes: every rule an octal code, or a take of fixed amounts
/// that may leave the rest whole or split in two. `None` for any other game.
pub fn octal_bound(game: &Game) -> Option<u64> {
    if game.tracks_history() || game.board != Board::AnyPiles || game.convention != crate::ast::Convention::Normal {
        return None;
    }
    let mut most = 0;
    for rule in &game.moves {
        if rule.condition.is_some() {
            return None;
        }
        match &rule.kind {
            RuleKind::Octal { digits } => most = most.max(digits.len() as u64 - 1),
            RuleKind::Take { amount, piles, then_split } => {
                let plain_split = then_split.is_none_or(|s| s.parts == 2 && s.shape.is_none() && s.optional);
                if !piles.is_one() || !plain_split {
                    return None;
                }
                most = most.max(largest_fixed_amount(amount)?);
            }
            _ => return None,
        }
    }
    Some(most)
}

/// How many values the octal theorem needs for a period found at (preperiod, period).
pub fn octal_needs(preperiod: u64, period: u64, most_taken: u64) -> u64 {
    2 * preperiod + 2 * period + most_taken
}

/// Whether a period found at (preperiod, period) over `values` is proven, and by what.
pub fn proof(
    game: &Game,
    grundy: bool,
    preperiod: u64,
    period: u64,
    saltus: i64,
    examined: u64,
) -> Option<&'static str> {
    if saltus != 0 {
        return None;
    }
    // The values compared run from the preperiod to `examined - period`.
    let compared_to = examined.saturating_sub(period);
    if let Some(s) = subtraction_bound(game) {
        if (grundy || game.convention == crate::ast::Convention::Misere) && preperiod + s <= compared_to {
            return Some("the subtraction-game theorem: once a window as long as the largest take repeats, all repeats");
        }
    }
    if let Some(t) = octal_bound(game) {
        if grundy && 2 * preperiod + period + t <= compared_to {
            return Some("Guy and Smith's periodicity theorem for octal games");
        }
    }
    None
}

/// A famous pattern the P-positions of one pile follow over 0..=upto, in words.
pub fn one_pile_pattern(p: &[bool]) -> Option<String> {
    let upto = p.len().checked_sub(1)?;
    let count = p.iter().filter(|x| **x).count();
    if count < 4 || upto < 12 {
        return None;
    }
    for k in 2..=upto / 3 {
        for r in 0..k {
            if (0..=upto).all(|n| p[n] == (n % k == r)) {
                return Some(if r == 0 {
                    format!("the multiples of {k}")
                } else {
                    format!("the numbers n with n mod {k} = {r}")
                });
            }
        }
    }
    let without_zero = |set: &dyn Fn(usize) -> bool| (1..=upto).all(|n| p[n] == set(n));
    if without_zero(&|n: usize| n.is_power_of_two()) {
        return Some("the powers of 2".into());
    }
    let mut fib = vec![1usize, 2];
    while fib[fib.len() - 1] <= upto {
        fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
    }
    if without_zero(&|n: usize| fib.contains(&n)) {
        return Some("the Fibonacci numbers".into());
    }
    None
}

/// A famous pattern of two-pile P-positions (a ≤ b, both at most upto).
pub fn two_pile_pattern(p_positions: &[Vec<u64>], upto: u64) -> Option<String> {
    if p_positions.len() < 4 {
        return None;
    }
    if p_positions.iter().all(|p| p[0] == p[1]) && p_positions.len() as u64 == upto + 1 {
        return Some("the equal pairs (a, a)".into());
    }
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut beatty = Vec::new();
    for k in 0u64.. {
        let (a, b) = ((k as f64 * phi).floor() as u64, (k as f64 * phi * phi).floor() as u64);
        if b > upto {
            break;
        }
        beatty.push(vec![a, b]);
    }
    (beatty == p_positions).then(|| "Wythoff's pairs (⌊kφ⌋, ⌊kφ²⌋), φ the golden ratio".into())
}
