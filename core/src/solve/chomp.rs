//! The Chomp kernel: Grundy values of every board inside a box of R rows and C columns at once.
//!
//! A board is its row lengths a₁ ≥ a₂ ≥ … ≥ a_R (bottom first). Numbering the boards in
//! lexicographic order puts every bite before the board it came from (a bite shortens rows and
//! lengthens none), so one pass in that order computes them all, with no hash table: a board's
//! number is a sum of binomial coefficients, and a bite's number is found in constant time from
//! prefix sums.

use super::{check_cancel, Limits, SolveError};
use crate::rules::{Board, Convention, Game, Position, RuleKind};

pub(super) struct Chomp {
    /// the poisoned square that may not be chosen, if any
    except: Option<(u64, u64)>,
    rows: usize,
    columns: usize,
    /// `before[k][x]`: boards of k rows, each at most x long, that come before a row of x:
    /// C(k + x, k + 1)
    before: Vec<Vec<u64>>,
    values: Vec<u32>,
}

impl Chomp {
    pub(super) fn recognise(game: &Game) -> Option<Chomp> {
        let [rule] = game.moves.as_slice() else { return None };
        let RuleKind::Bite { except } = rule.kind else { return None };
        (game.board == Board::Rows
            && game.convention == Convention::Normal
            && game.first_moves.is_empty()
            && !game.uses_last
            && rule.condition.is_none())
        .then_some(Chomp { except, rows: 0, columns: 0, before: Vec::new(), values: Vec::new() })
    }

    /// The Grundy value of a board; `None` when its rows grow upwards (not a Chomp board), for
    /// the general search to answer.
    pub(super) fn value(&mut self, pos: &Position, limits: &Limits) -> Result<Option<u64>, SolveError> {
        let rows: Vec<u64> = pos.piles.iter().copied().filter(|&r| r > 0).collect();
        if rows.len() != pos.piles.iter().take_while(|&&r| r > 0).count() || rows.windows(2).any(|w| w[1] > w[0]) {
            return Ok(None);
        }
        if rows.is_empty() {
            // no square left: no move
            return Ok(Some(0));
        }
        let columns = rows.first().copied().unwrap_or(0);
        if rows.len() > self.rows || columns as usize > self.columns {
            self.compute(rows.len().max(self.rows), (columns as usize).max(self.columns), limits)?;
        }
        let mut padded = rows.clone();
        padded.resize(self.rows, 0);
        Ok(Some(self.values[self.rank(&padded)] as u64))
    }

    fn rank(&self, rows: &[u64]) -> usize {
        let r = self.rows;
        rows.iter().enumerate().map(|(i, &a)| self.before[r - 1 - i][a as usize]).sum::<u64>() as usize
    }

    fn compute(&mut self, rows: usize, columns: usize, limits: &Limits) -> Result<(), SolveError> {
        // C(rows + columns, rows) boards, refused before any allocation if over the limit.
        let mut total: u128 = 1;
        for i in 1..=rows as u128 {
            total = total * (columns as u128 + i) / i;
            if total > limits.max_states as u128 {
                return Err(SolveError::state_limit(limits));
            }
        }
        let binomial = |n: u64, k: u64| -> u64 {
            if k > n {
                return 0;
            }
            let mut c: u128 = 1;
            for i in 0..k as u128 {
                c = c * (n as u128 - i) / (i + 1);
            }
            c as u64
        };
        self.before =
            (0..rows as u64).map(|k| (0..=columns as u64).map(|x| binomial(k + x, k + 1)).collect()).collect();
        self.rows = rows;
        self.columns = columns;
        let total = total as usize;
        let mut values = vec![0u32; total];
        // column[v][i]: the sum over rows i' < i of before[R−1−i'][v], for bites that cut
        // rows i.. down to v.
        let column: Vec<Vec<u64>> = (0..=columns)
            .map(|v| {
                let mut sums = vec![0u64; rows + 1];
                for i in 0..rows {
                    sums[i + 1] = sums[i] + self.before[rows - 1 - i][v];
                }
                sums
            })
            .collect();
        let mut board = vec![0usize; rows];
        let mut prefix = vec![0u64; rows + 1];
        let mut tail = vec![0u64; rows + 1];
        let mut seen: Vec<u64> = Vec::new();
        for index in 0..total {
            if index % 65536 == 0 {
                check_cancel(limits)?;
            }
            for i in 0..rows {
                prefix[i + 1] = prefix[i] + self.before[rows - 1 - i][board[i]];
            }
            for i in (0..rows).rev() {
                tail[i] = tail[i + 1] + self.before[rows - 1 - i][board[i]];
            }
            seen.clear();
            seen.resize(4, 0);
            for r in 0..rows {
                // Bites in row r at column c (1-based) cut rows r.. to at most c − 1; rows
                // r..=j are at least that long and become exactly c − 1.
                let mut j = r;
                for c in (1..=board[r]).rev() {
                    if self.except == Some((c as u64, r as u64 + 1)) {
                        continue;
                    }
                    let cut = c - 1;
                    while j + 1 < rows && board[j + 1] >= cut {
                        j += 1;
                    }
                    let child = prefix[r] + column[cut][j + 1] - column[cut][r] + tail[j + 1];
                    let g = values[child as usize] as usize;
                    if g / 64 >= seen.len() {
                        seen.resize(g / 64 + 1, 0);
                    }
                    seen[g / 64] |= 1 << (g % 64);
                }
            }
            let mex = seen
                .iter()
                .enumerate()
                .find(|(_, w)| **w != u64::MAX)
                .map(|(i, w)| i * 64 + w.trailing_ones() as usize);
            values[index] = mex.unwrap_or(seen.len() * 64) as u32;
            // The next board in lexicographic order: raise the last row that can grow, empty
            // the rows above it.
            if let Some(i) = (0..rows).rev().find(|&i| board[i] < if i == 0 { columns } else { board[i - 1] }) {
                board[i] += 1;
                board[i + 1..].iter_mut().for_each(|x| *x = 0);
            }
        }
        self.values = values;
        Ok(())
    }
}
