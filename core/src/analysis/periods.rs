//! Periods in the values of one pile as a report (the theorems that prove them live in
//! `solve::period`, where the solver uses them too), and the famous patterns that P-positions
//! can follow.

use serde::Serialize;

pub(crate) use crate::solve::period::{detect, octal_bound, octal_needs, proof};

/// At least this many values are examined, so that a period shows itself several times.
pub(crate) const MIN_EXAMINED: u64 = crate::defaults::PERIOD_VALUES;

/// A period found in a sequence of values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Periodicity {
    /// `grundy` or `outcome`: which sequence repeats
    pub of: &'static str,
    /// Where the period starts.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// what is added each period: 0 for plain periodicity
    pub saltus: i64,
    /// Whether the period is proven, rather than observed.
    pub proven: bool,
    /// the theorem that proves it, when one does
    pub theorem: Option<&'static str>,
    /// how far the values were computed and compared
    pub checked_to: u64,
}

/// Why the outcomes of single heaps of a misère game repeat, when its quotient proves it.
pub(crate) const MISERE_QUOTIENT_PROOF: &str =
    "the misère quotient: Φ is proven periodic, and the outcomes repeat over a whole period of Φ past its preperiod";

/// A famous pattern the P-positions of one pile (the piles 0..=upto for which `is_p` holds)
/// follow, in words: a table of 10⁸ rows is read where its values are, never copied.
pub(crate) fn one_pile_pattern_of(upto: u64, is_p: impl Fn(u64) -> bool) -> Option<String> {
    if upto < 12 {
        return None;
    }
    // The first few P-positions: fewer than four is no pattern.
    let mut ps = (0..=upto).filter(|&n| is_p(n));
    let first: Vec<u64> = ps.by_ref().take(4).collect();
    if first.len() < 4 {
        return None;
    }
    // The P-positions as an arithmetic progression r, r + k, r + 2k, … through the table:
    // its first two terms name the only candidate.
    let (r, k) = (first[0], first[1] - first[0]);
    if k >= 2 && r < k && k <= upto / 3 && (0..=upto).all(|n| is_p(n) == (n % k == r)) {
        return Some(if r == 0 {
            format!("the multiples of {k}")
        } else {
            format!("the numbers n with n mod {k} = {r}")
        });
    }
    let without_zero = |set: &dyn Fn(u64) -> bool| (1..=upto).all(|n| is_p(n) == set(n));
    if without_zero(&|n: u64| n.is_power_of_two()) {
        return Some("the powers of 2".into());
    }
    let mut fib = vec![1u64, 2];
    while fib[fib.len() - 1] <= upto {
        fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
    }
    if without_zero(&|n: u64| fib.binary_search(&n).is_ok()) {
        return Some("the Fibonacci numbers".into());
    }
    None
}

/// A famous pattern of two-pile P-positions (a ≤ b, both at most upto).
pub(crate) fn two_pile_pattern(p_positions: &[Vec<u64>], upto: u64) -> Option<String> {
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
    if beatty == p_positions {
        return Some("Wythoff's pairs (⌊kφ⌋, ⌊kφ²⌋), φ the golden ratio".into());
    }
    // The second pair is (1, 1 + r): it says which r to try.
    let r = p_positions[1][1].checked_sub(1).filter(|&r| r >= 2 && p_positions[1][0] == 1)?;
    (fraenkel_pairs(r, upto) == p_positions).then(|| {
        format!("Fraenkel's pairs for r = {r}: (aₖ, aₖ + {r}k), aₖ the smallest number not in an earlier pair")
    })
}

/// The P-positions of r-Wythoff (Fraenkel 1982) with both piles at most `upto`: a_k is the
/// least number in no earlier pair, b_k = a_k + r·k.
fn fraenkel_pairs(r: u64, upto: u64) -> Vec<Vec<u64>> {
    let mut used = vec![false; upto as usize + 1];
    let mut pairs = Vec::new();
    let mut a = 0;
    for k in 0u64.. {
        while a <= upto && used[a as usize] {
            a += 1;
        }
        let b = a + r * k;
        if b > upto {
            break;
        }
        used[a as usize] = true;
        used[b as usize] = true;
        pairs.push(vec![a, b]);
    }
    pairs
}
