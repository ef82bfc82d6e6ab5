//! Tables of games on three or more piles: every position whose piles are each at most `upto`,
//! listed once with its piles in ascending order (the piles are interchangeable), and the
//! P-positions among them, with the rule of a column count they follow where one does.

use super::{Rows, TableError};
use crate::rules::Position;
use crate::solve::moore::column_counts;
use crate::solve::{progress::Stage, Outcome, Solver};

/// Positions of `piles` piles, each of 0..=upto, counted once whatever their order: the
/// multisets C(upto + piles, piles), saturating.
pub(super) fn positions(piles: usize, upto: u64) -> u128 {
    // C(upto + piles, piles) = C(upto + piles, upto): the loop runs over the smaller of the two,
    // so that a billion piles of at most 0 cost nothing to count.
    let (n, k) = (upto as u128 + piles as u128, (piles as u128).min(upto as u128));
    let mut total: u128 = 1;
    for i in 1..=k {
        total = match total.checked_mul(n - k + i) {
            Some(t) => t / i,
            None => return u128::MAX,
        };
    }
    total
}

/// A many-pile table keeps each position's piles beside its values: it holds fewer positions
/// than a search may remember by this factor.
pub(super) const SHARE_OF_STATES: usize = 16;

/// Every position in ascending order of its piles (a ≤ b ≤ c …), lexicographically, with its
/// outcome and Grundy value; the positions themselves are returned beside the rows.
pub(super) fn many_pile_rows(
    solver: &mut Solver,
    piles: usize,
    upto: u64,
) -> Result<(Rows, Vec<Vec<u64>>), TableError> {
    // The far corner first: a search from it values every position of the table at once (or
    // is refused at once by its estimate); every row after it is a look-up.
    solver.value(&Position::new(vec![upto; piles]))?;
    let (mut outcomes, mut grundy, mut p_positions, mut listed) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut position = vec![0u64; piles];
    loop {
        if position[1..].iter().all(|&p| p == 0) {
            solver.limits().progress.report(Stage::TableRows, position[0], upto + 1);
            crate::solve::check_cancel(solver.limits())?;
        }
        let v = solver.value(&Position::new(position.clone()))?;
        if v.outcome == Outcome::P {
            p_positions.push(position.clone());
        }
        outcomes.push(v.outcome);
        grundy.push(v.grundy);
        listed.push(position.clone());
        // The next non-decreasing tuple: raise the last pile that can grow, and set every
        // pile after it to the same size.
        let Some(i) = (0..piles).rev().find(|&i| position[i] < upto) else { break };
        let next = position[i] + 1;
        position[i..].iter_mut().for_each(|p| *p = next);
    }
    Ok((Rows { outcomes: vec![outcomes], grundy: vec![grundy], p_positions, column: false }, listed))
}

/// The P-positions' rule, where one holds over the whole table: P exactly when every binary
/// column's count of 1s is a multiple of m, for the smallest such m from 2 (Bouton's rule) to
/// the number of piles plus one (Moore's rule for k = m − 1).
pub(super) fn column_rule(listed: &[Vec<u64>], outcomes: &[Outcome], piles: usize) -> Option<String> {
    if outcomes.contains(&Outcome::D) {
        return None;
    }
    (2..=piles + 1).find_map(|m| {
        let holds = listed.iter().zip(outcomes).all(|(position, &outcome)| {
            let multiple = column_counts(position).iter().all(|c| c.is_multiple_of(m));
            multiple == (outcome == Outcome::P)
        });
        holds.then(|| match m {
            2 => "those of nim-sum 0, where every binary column has an even count of 1s, as Bouton's theorem says"
                .to_string(),
            m => format!(
                "those where every binary column's count of 1s is a multiple of {m}, as Moore's theorem for k = {} says",
                m - 1
            ),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_multisets() {
        // 0 ≤ a ≤ b ≤ c ≤ 2: C(5, 3) = 10
        assert_eq!(positions(3, 2), 10);
        assert_eq!(positions(2, 30), 31 * 32 / 2);
        assert_eq!(positions(4, u64::MAX), u128::MAX);
        assert_eq!(positions(1_000_000_000, 0), 1);
        assert_eq!(positions(1_000_000_000, 1), 1_000_000_001);
    }
}
