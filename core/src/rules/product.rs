//! Products of two heap games: a game on cells (x, y), whose moves come from the first game's
//! moves on x and the second game's moves on y (the acrostic and tartan products).
//!
//! A heap game's move on a heap n leaves heaps (none, one, or several). In the product a cell
//! (x, y) is one heap; the acrostic product moves it by one of the two games, the tartan
//! product by both at once, and the heaps left are the cells the moves make:
//! - acrostic: the first game's move on x leaving heaps a₁, a₂, … leaves cells (aᵢ, y); the
//!   second game's move on y leaving b₁, b₂, … leaves cells (x, bⱼ);
//! - tartan: both moves together leave the cells of {x, a₁, …} × {y, b₁, …} other than (x, y).
//!
//! On coins this is turning over a set of coins in a row or a column (acrostic), or a whole
//! rectangle of them (tartan), the one at (x, y) going from heads to tails.

use miette::Diagnostic;

use super::{Board, Game, Move, MoveError, MoveKind, Position, ProductKind};
use crate::vocab::Span;

/// Two heap games and how they combine.
#[derive(Clone, Debug)]
pub(crate) struct Product {
    pub kind: ProductKind,
    /// The product statement: the rule every move of the product game names.
    pub span: Span,
    pub parts: [Part; 2],
}

/// One of the two games of a product.
#[derive(Clone, Debug)]
pub(crate) struct Part {
    pub game: Game,
    /// Where the game's text came from, and the text: its own rules' diagnostics point there.
    pub source_name: String,
    pub text: String,
}

/// One way to move one cell: what each game does, and the cells left (or turned over).
pub(crate) struct CellMove {
    pub first: Option<MoveKind>,
    pub second: Option<MoveKind>,
    pub leaves: Vec<(u64, u64)>,
}

impl Product {
    /// Every way to move the cell (x, y).
    pub(crate) fn cell_moves(&self, x: u64, y: u64, limit: usize) -> Result<Vec<CellMove>, MoveError> {
        let [first, second] = &self.parts;
        let across = first.heap_moves(x, limit)?;
        let down = second.heap_moves(y, limit)?;
        let mut out = Vec::new();
        let too_many = |out: &Vec<CellMove>| out.len() >= limit;
        match self.kind {
            ProductKind::Acrostic => {
                for (kind, heaps) in across {
                    if too_many(&out) {
                        return Err(self.too_many(x, y, limit));
                    }
                    out.push(CellMove {
                        first: Some(kind),
                        second: None,
                        leaves: heaps.iter().map(|&a| (a, y)).collect(),
                    });
                }
                for (kind, heaps) in down {
                    if too_many(&out) {
                        return Err(self.too_many(x, y, limit));
                    }
                    out.push(CellMove {
                        first: None,
                        second: Some(kind),
                        leaves: heaps.iter().map(|&b| (x, b)).collect(),
                    });
                }
            }
            ProductKind::Tartan => {
                for (a_kind, a_heaps) in &across {
                    for (b_kind, b_heaps) in &down {
                        if too_many(&out) {
                            return Err(self.too_many(x, y, limit));
                        }
                        let xs: Vec<u64> = std::iter::once(x).chain(a_heaps.iter().copied()).collect();
                        let ys: Vec<u64> = std::iter::once(y).chain(b_heaps.iter().copied()).collect();
                        let mut leaves = Vec::with_capacity(xs.len() * ys.len() - 1);
                        for (i, &a) in xs.iter().enumerate() {
                            for (j, &b) in ys.iter().enumerate() {
                                if i + j > 0 {
                                    leaves.push((a, b));
                                }
                            }
                        }
                        out.push(CellMove { first: Some(a_kind.clone()), second: Some(b_kind.clone()), leaves });
                    }
                }
            }
        }
        Ok(out)
    }

    fn too_many(&self, x: u64, y: u64, limit: usize) -> MoveError {
        MoveError::TooManyMoves { span: self.span, position: format!("({x}, {y})"), limit }
    }
}

impl Part {
    /// The moves of this game on one heap of n, each with the non-empty heaps it leaves.
    pub(crate) fn heap_moves(&self, n: u64, limit: usize) -> Result<Vec<(MoveKind, Vec<u64>)>, MoveError> {
        let moves = self.game.moves(&Position::new(vec![n]), limit).map_err(|e| self.error_here(e))?;
        Ok(moves
            .into_iter()
            .map(|m| {
                let heaps = m.to.piles.into_iter().filter(|&h| h > 0).collect();
                (m.kind, heaps)
            })
            .collect())
    }

    /// An error in this game's rules, shown against this game's text.
    fn error_here(&self, error: MoveError) -> MoveError {
        let (span, label) = error
            .labels()
            .and_then(|mut labels| labels.next())
            .map(|l| (Span::new(l.offset(), l.offset() + l.len()), l.label().unwrap_or("here").to_string()))
            .unwrap_or((Span::new(0, 0), "here".into()));
        MoveError::InPart(Box::new(super::move_error::PartError {
            game: self.game.name.clone(),
            message: error.to_string(),
            help: error.help().map(|h| h.to_string()).unwrap_or_default(),
            text: miette::NamedSource::new(&self.source_name, self.text.clone()).into(),
            span,
            label,
        }))
    }
}

impl Game {
    /// Every move of a product game's position: each distinct cell moved in every way.
    pub(super) fn product_moves(
        &self,
        product: &Product,
        pos: &Position,
        limit: usize,
    ) -> Result<Vec<Move>, MoveError> {
        let coins = matches!(self.board, Board::Cells { coins: true });
        let cells: Vec<(u64, u64)> = pos.cell_pairs().collect();
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (index, &(x, y)) in cells.iter().enumerate() {
            if x == 0 || y == 0 || !seen.insert((x, y)) {
                continue;
            }
            for cell_move in product.cell_moves(x, y, limit)? {
                if out.len() >= limit {
                    return Err(MoveError::TooManyMoves { span: product.span, position: pos.short_text(), limit });
                }
                let mut after = cells.clone();
                after.remove(index);
                if coins {
                    // A cell turned over that already showed heads goes back to tails.
                    for &cell in &cell_move.leaves {
                        match after.iter().position(|&c| c == cell) {
                            Some(i) => {
                                after.remove(i);
                            }
                            None => after.push(cell),
                        }
                    }
                } else {
                    after.extend(&cell_move.leaves);
                }
                let kind = MoveKind::Cell {
                    cell: (x, y),
                    first: cell_move.first.map(|k| (product.parts[0].game.name.clone(), Box::new(k))),
                    second: cell_move.second.map(|k| (product.parts[1].game.name.clone(), Box::new(k))),
                    leaves: cell_move.leaves,
                    coins,
                };
                let to = Position::of_cells(after.into_iter().flat_map(|(a, b)| [a, b]).collect());
                out.push(Move { rule: product.span, kind, to });
            }
        }
        Ok(out)
    }
}

/// The nim-product a ⊗ b: the multiplication of the field of nimbers, under which the value of
/// a cell of a tartan product is the product of its two games' values (the tartan theorem).
pub(crate) fn nim_product(a: u64, b: u64) -> u64 {
    nim_product_in(a, b, 64)
}

/// a ⊗ b for a, b < 2^bits, bits a power of 2. With F = 2^(bits/2), a Fermat 2-power,
/// F ⊗ F = F ⊕ F/2, and a number below F times F is an ordinary product.
fn nim_product_in(a: u64, b: u64, bits: u32) -> u64 {
    if a <= 1 || b <= 1 {
        return a * b;
    }
    let half = bits / 2;
    let f = 1u64 << half;
    let (a1, a0) = (a >> half, a & (f - 1));
    let (b1, b0) = (b >> half, b & (f - 1));
    let low = nim_product_in(a0, b0, half);
    let high = nim_product_in(a1, b1, half);
    let both = nim_product_in(a0 ^ a1, b0 ^ b1, half);
    // (a1·F + a0)(b1·F + b0) = a1b1·F² + (a1b0 + a0b1)·F + a0b0, and a1b0 + a0b1 = both + high + low.
    ((both ^ low) << half) ^ low ^ nim_product_in(high, f >> 1, half)
}

#[cfg(test)]
mod tests {
    use super::nim_product;

    #[test]
    fn nim_products_of_the_theory() {
        // Fermat 2-powers square to themselves and a half: 2⊗2 = 3, 4⊗4 = 6, 16⊗16 = 24.
        assert_eq!(nim_product(2, 2), 3);
        assert_eq!(nim_product(4, 4), 6);
        assert_eq!(nim_product(16, 16), 24);
        assert_eq!(nim_product(2, 3), 1);
        assert_eq!(nim_product(8, 8), 13);
        assert_eq!(nim_product(1 << 32, 1 << 32), (1 << 32) | (1 << 31));
    }

    /// Nim-products of 0..size by their definition: a ⊗ b = mex{a′⊗b ⊕ a⊗b′ ⊕ a′⊗b′}.
    fn nim_table(size: usize) -> Vec<Vec<u64>> {
        let mut m = vec![vec![0u64; size]; size];
        for a in 0..size {
            for b in 0..size {
                let mut seen = std::collections::HashSet::new();
                for a2 in 0..a {
                    for b2 in 0..b {
                        seen.insert(m[a2][b] ^ m[a][b2] ^ m[a2][b2]);
                    }
                }
                m[a][b] = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
            }
        }
        m
    }

    #[test]
    fn the_nim_product_is_the_field_multiplication_of_its_definition() {
        let table = nim_table(32);
        for a in 0..32u64 {
            for b in 0..32u64 {
                assert_eq!(nim_product(a, b), table[a as usize][b as usize], "{a} ⊗ {b}");
            }
        }
        // For Fermat 2-powers F, F ⊗ F = F ⊕ F/2.
        assert_eq!(nim_product(1 << 32, 1 << 32), (1 << 32) ^ (1 << 31));
        assert_eq!(nim_product(1 << 8, 1 << 8), (1 << 8) ^ (1 << 7));
    }
}
