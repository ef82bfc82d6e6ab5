//! Sums of independent piles: the Grundy value of each pile size, bottom up, and XOR
//! (Sprague–Grundy). Used when every move acts on one pile under normal play.

use super::{Limits, SolveError, Work};
use crate::rules::{Game, Move, Position};

/// Grundy values of single piles 0, 1, 2, … as far as they have been needed.
#[derive(Default)]
pub struct PileValues {
    values: Vec<u32>,
    work: Work,
}

impl PileValues {
    /// The Grundy value of a whole position: the XOR of its piles' values.
    pub fn position(&mut self, game: &Game, pos: &Position, limits: Limits) -> Result<u64, SolveError> {
        let largest = pos.piles.iter().copied().max().unwrap_or(0);
        self.extend(game, largest, limits)?;
        Ok(pos.piles.iter().fold(0u64, |acc, &p| acc ^ self.values[p as usize] as u64))
    }

    /// Every move to a position of value 0, found pile by pile: a move on a pile of p wins
    /// exactly when it leaves that pile's part of the sum at g(p) XOR the whole value.
    pub fn winning_moves(&mut self, game: &Game, pos: &Position, limits: Limits) -> Result<Vec<Move>, SolveError> {
        let total = self.position(game, pos, limits)?;
        let mut winning = Vec::new();
        if total == 0 {
            return Ok(winning);
        }
        let mut seen = std::collections::HashSet::new();
        for (index, &p) in pos.piles.iter().enumerate() {
            if p == 0 || !seen.insert(p) {
                continue;
            }
            let target = self.values[p as usize] as u64 ^ total;
            for m in game.moves(&Position::new(vec![p]), limits.max_states)? {
                let value = m.to.piles.iter().fold(0u64, |acc, &q| acc ^ self.values[q as usize] as u64);
                if value == target {
                    winning.push(m.on_pile_of(index, pos));
                }
            }
        }
        Ok(winning)
    }

    fn extend(&mut self, game: &Game, upto: u64, limits: Limits) -> Result<(), SolveError> {
        if upto >= limits.max_states as u64 {
            return Err(SolveError::state_limit(limits));
        }
        let mut seen: Vec<bool> = Vec::new();
        while self.values.len() as u64 <= upto {
            let n = self.values.len() as u64;
            let moves = game.moves(&Position::new(vec![n]), limits.max_states)?;
            self.work.add(moves.len(), limits)?;
            seen.clear();
            seen.resize(moves.len() + 1, false);
            for m in &moves {
                let mut g = 0u64;
                for &part in &m.to.piles {
                    if part >= n && part > 0 {
                        // Cannot happen for checked rules (every part is smaller), but a wrong
                        // answer would be worse than an error.
                        return Err(SolveError::Loop { span: m.rule, position: n.to_string() });
                    }
                    g ^= self.values[part as usize] as u64;
                }
                if (g as usize) < seen.len() {
                    seen[g as usize] = true;
                }
            }
            let mex = seen.iter().position(|s| !s).unwrap_or(seen.len());
            self.values.push(mex as u32);
        }
        Ok(())
    }
}
