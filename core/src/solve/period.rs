//! Periods in the values of one pile, and the theorems that prove them. The solver uses a
//! proven period to answer any pile size at once; `table` reports it.
//!
//! - Subtraction games (a finite set of amounts, at most s): the value of n depends only on the
//!   s values before it, so once a window of s values repeats after p, everything repeats.
//! - Octal games (Guy and Smith): if G(n + p) = G(n) for n₀ ≤ n < 2n₀ + p + t, where t is the most
//!   a move takes, then G(n + p) = G(n) for every n ≥ n₀.
//! - Anything else, and arithmetic periodicity (G(n + p) = G(n) + s), is only apparent.

use crate::rules::{Amount, Board, Choice, Game, RuleKind};
use crate::vocab::CmpOp;

/// What `detect` finds: (preperiod, period, saltus).
pub(crate) type Detected = (usize, usize, i64);

/// The smallest period p (and for it the smallest preperiod) such that the sequence repeats,
/// adding a constant each period when `arithmetic`, over at least three whole periods and
/// half of the sequence at its end. Returns (preperiod, period, saltus).
pub(crate) fn detect<T: Copy + Into<i64>>(values: &[T], arithmetic: bool) -> Option<Detected> {
    let len = values.len();
    if len < 2 {
        return None;
    }
    let at = |i: usize| -> i64 { values[i].into() };
    // How far back from the end a shift by p matches, for every p at once (a Z-function of the
    // reversed sequence): linear time, where comparing each p separately is quadratic on
    // sequences that are nearly constant, such as the outcomes of Fibonacci Nim. The reversed
    // sequence is read in place: a table's look for a period runs on every doubling of its
    // piles, and copies of a million values cost more than the look.
    // Only shifts up to half the sequence are periods it looks at.
    let matched = if arithmetic {
        z_function(len - 1, len / 2, |k| at(len - 1 - k) - at(len - 2 - k))
    } else {
        z_function(len, len / 2, |k| at(len - 1 - k))
    };
    for p in 1..=len / 2 {
        let saltus = if arithmetic { at(len - 1) - at(len - 1 - p) } else { 0 };
        if arithmetic && saltus == 0 {
            continue;
        }
        // values[j + p] − values[j] = saltus for j ≥ start: the tail from start has this length.
        let tail = if arithmetic {
            (p + 1 + matched.get(p).map_or(0, |&z| z as usize)).min(len)
        } else {
            (p + matched[p] as usize).min(len)
        };
        let start = len - tail;
        // Three whole periods and half the sequence at least: sparse P-positions (powers of 2,
        // Fibonacci numbers) can repeat once at some distance by chance, and the gaps between
        // them are long runs of N, but never three times, nor half of what was examined.
        if tail >= 3 * p && tail >= len / 2 {
            return Some((start, p, saltus));
        }
    }
    None
}

/// `z[i]` for i ≤ `shifts`: the length of the longest common prefix of the sequence `s(0..n)`
/// and its suffix from i (`z[0]` is n). Each z[i] needs only those before it, so the shifts
/// past `shifts` are never computed. Lengths are u32, half the pages of usize to touch; past 2^32 values a
/// length is cut short, which may miss a period but never claims one (and starting a match
/// from a shorter known prefix only compares more).
fn z_function(n: usize, shifts: usize, s: impl Fn(usize) -> i64) -> Vec<u32> {
    let mut z = vec![0u32; shifts.min(n.saturating_sub(1)) + 1];
    if n == 0 {
        return z;
    }
    let short = |k: usize| k.min(u32::MAX as usize) as u32;
    z[0] = short(n);
    let (mut left, mut right) = (0, 0);
    for i in 1..z.len() {
        let mut k = if i < right { (z[i - left] as usize).min(right - i) } else { 0 };
        while i + k < n && s(k) == s(i + k) {
            k += 1;
        }
        z[i] = short(k);
        if i + k > right {
            left = i;
            right = i + k;
        }
    }
    z
}

/// Whether a theorem here can prove this game's values periodic from finitely many of them
/// (a finite subtraction game, or an octal game): otherwise every value may be needed.
pub(crate) fn has_theorem(game: &Game) -> bool {
    subtraction_bound(game).is_some() || octal_bound(game).is_some()
}

/// The largest amount of a subtraction game: one-pile moves that take a fixed, finite set of
/// amounts, with no condition, no split and no history. `None` for any other game.
pub(crate) fn subtraction_bound(game: &Game) -> Option<u64> {
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
pub(crate) fn octal_bound(game: &Game) -> Option<u64> {
    if game.convention != crate::vocab::Convention::Normal {
        return None;
    }
    octal_shape_bound(game)
}

/// The most a move takes where the rules are an octal game's, under either convention (the
/// misère quotient's periodicity theorem reads the same bound).
pub(crate) fn octal_shape_bound(game: &Game) -> Option<u64> {
    if game.tracks_history() || game.board != Board::AnyPiles {
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
pub(crate) fn octal_needs(preperiod: u64, period: u64, most_taken: u64) -> u64 {
    2 * preperiod + 2 * period + most_taken
}

/// The theorems as the reports name them.
pub(crate) const OCTAL_THEOREM: &str = "Guy and Smith's periodicity theorem for octal games";
pub(crate) const SUBTRACTION_THEOREM: &str =
    "the subtraction-game theorem: once a window as long as the largest take repeats, all repeats";

/// Whether a period found at (preperiod, period) over `values` is proven, and by what.
pub(crate) fn proof(
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
        if (grundy || game.convention == crate::vocab::Convention::Misere) && preperiod + s <= compared_to {
            return Some(SUBTRACTION_THEOREM);
        }
    }
    if let Some(t) = octal_bound(game) {
        if grundy && 2 * preperiod + period + t <= compared_to {
            return Some(OCTAL_THEOREM);
        }
    }
    None
}

#[cfg(test)]
#[path = "period_tests.rs"]
mod tests;
