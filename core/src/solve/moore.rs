//! Moore's Nim (Nim_k): take any positive number from each of up to k piles, normal play.
//! Moore's theorem (1910): a position is P exactly when, in every binary column, the number of
//! piles with a 1 there is a multiple of k + 1. Bouton's theorem is the case k = 1.
//!
//! The theorem answers every position at once; a winning move follows its proof: going down
//! the columns, each column's count is brought to a multiple of k + 1 by lowering a 1 to 0 in
//! new piles (which may then take any lower bits) or by choosing the bits of the piles already
//! lowered. Grundy values have no such formula, so they come from a search where it is small.

use crate::rules::{Amount, Board, Convention, Game, Move, MoveKind, Position, RuleKind};

/// The game's k, recognised from its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Moore {
    /// the most piles one move may take from
    pub k: usize,
}

/// The binary columns a pile of 64 bits has.
const COLUMNS: u32 = 64;

impl Moore {
    /// The rules fit when, together, they allow exactly "take any positive amount from each of
    /// 1 up to k piles", with k ≥ 2 (k = 1 is Nim, whose Grundy values the pile method knows).
    pub(crate) fn recognise(game: &Game) -> Option<Moore> {
        let boards = matches!(game.board, Board::AnyPiles | Board::FixedPiles(_));
        if !boards || game.convention != Convention::Normal || game.tracks_history() || game.product.is_some() {
            return None;
        }
        let mut counts = Vec::new();
        for rule in &game.moves {
            if rule.side.is_some() || rule.condition.is_some() {
                return None;
            }
            match &rule.kind {
                RuleKind::Take { amount: Amount::Any, piles, then_split: None }
                    if piles.independent || piles.is_one() =>
                {
                    counts.extend(piles.min.max(1)..=piles.max);
                }
                _ => return None,
            }
        }
        counts.sort_unstable();
        counts.dedup();
        let k = *counts.last()?;
        // Every count from 1 to k, and nothing else.
        (k >= 2 && counts.len() == k && counts[0] == 1).then_some(Moore { k })
    }

    /// Moore's theorem: P exactly when every binary column's count of 1s is a multiple of k + 1.
    pub(crate) fn is_p(&self, piles: &[u64]) -> bool {
        column_counts(piles).iter().all(|c| c.is_multiple_of(self.k + 1))
    }

    /// A move to a P-position from an N-position (`None` from a P-position), changing at most
    /// k piles: the construction of the theorem's proof.
    pub(crate) fn winning_move(&self, game: &Game, pos: &Position) -> Option<Move> {
        let to = self.winning_piles(&pos.piles)?;
        let takes: Vec<(usize, u64, u64)> = pos
            .piles
            .iter()
            .zip(&to)
            .enumerate()
            .filter(|(_, (from, to))| from != to)
            .map(|(i, (&from, &to))| (i, from, from - to))
            .collect();
        // The rule that allows this many piles (the first that does).
        let rule = game
            .moves
            .iter()
            .find(|r| matches!(&r.kind, RuleKind::Take { piles, .. } if piles.min.max(1) <= takes.len() && takes.len() <= piles.max))?;
        let kind = match takes.as_slice() {
            [(pile, from, amount)] => {
                MoveKind::Take { pile: *pile, from: *from, amount: *amount, left: vec![from - amount] }
            }
            _ => MoveKind::TakeSeveral { takes },
        };
        Some(Move { rule: rule.span, kind, to: Position { piles: to, last: None, cells: pos.cells } })
    }

    /// The piles after a winning move, going down the binary columns.
    fn winning_piles(&self, piles: &[u64]) -> Option<Vec<u64>> {
        if self.is_p(piles) {
            return None;
        }
        let modulus = self.k + 1;
        let mut to = piles.to_vec();
        // Piles already lowered in a higher column: their lower bits are free to choose.
        let mut lowered = vec![false; piles.len()];
        for bit in (0..COLUMNS).rev() {
            let mask = 1u64 << bit;
            let ones = (0..piles.len()).filter(|&i| !lowered[i] && piles[i] & mask != 0).count();
            let free: Vec<usize> = (0..piles.len()).filter(|&i| lowered[i]).collect();
            let missing = (modulus - ones % modulus) % modulus;
            if missing <= free.len() {
                // Enough lowered piles to make up the column: a 1 in `missing` of them.
                for (j, &i) in free.iter().enumerate() {
                    to[i] = if j < missing { to[i] | mask } else { to[i] & !mask };
                }
            } else {
                // Then ones % modulus + free ≤ k: lower that many more piles from 1 to 0 here.
                let lower = ones % modulus;
                let chosen: Vec<usize> =
                    (0..piles.len()).filter(|&i| !lowered[i] && piles[i] & mask != 0).take(lower).collect();
                for i in chosen {
                    lowered[i] = true;
                    to[i] &= !mask;
                }
                for &i in &free {
                    to[i] &= !mask;
                }
            }
        }
        Some(to)
    }

    /// How many moves a position has: the sums of products of 1 up to k of its piles (the
    /// elementary symmetric polynomials), saturating.
    pub(crate) fn move_count(&self, piles: &[u64]) -> u128 {
        // e[j]: the sum over sets of j piles of their product
        let mut e = vec![0u128; self.k + 1];
        e[0] = 1;
        for &p in piles {
            for j in (1..=self.k).rev() {
                e[j] = e[j].saturating_add(e[j - 1].saturating_mul(p as u128));
            }
        }
        e[1..].iter().fold(0u128, |a, &b| a.saturating_add(b))
    }
}

/// For each binary column (bit 0 first), how many piles have a 1 there.
pub(crate) fn column_counts(piles: &[u64]) -> Vec<usize> {
    (0..COLUMNS).map(|bit| piles.iter().filter(|&&p| p >> bit & 1 == 1).count()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_construction_reaches_a_p_position_changing_at_most_k_piles() {
        for k in 2..=4 {
            let moore = Moore { k };
            for a in 0..9u64 {
                for b in 0..9 {
                    for c in 0..9 {
                        for d in [0u64, 5, 12] {
                            let piles = [a, b, c, d];
                            match moore.winning_piles(&piles) {
                                None => assert!(moore.is_p(&piles)),
                                Some(to) => {
                                    assert!(moore.is_p(&to), "{piles:?} → {to:?}");
                                    let changed = piles.iter().zip(&to).filter(|(x, y)| x != y).count();
                                    assert!((1..=k).contains(&changed));
                                    assert!(piles.iter().zip(&to).all(|(x, y)| y <= x));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
