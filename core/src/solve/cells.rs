//! Product games under normal play: each cell (x, y) is a game of its own, so a position's
//! value is the XOR of its cells' values (Sprague–Grundy), as for piles.
//!
//! - tartan products: a cell is worth G₁(x) ⊗ G₂(y), the nim-product of the two games'
//!   values (the tartan theorem of Winning Ways), and those come from each game's own solver,
//!   so that a cell far out is answered as fast as its two heaps are;
//! - acrostic products know no such theorem: a cell's value is the mex of its options, each
//!   the XOR of the cells it leaves, computed over the cells below it without recursion.
//!
//! `Solver::generic` solves the same games by a search over whole positions; tests compare.

use std::collections::HashMap;

use super::{Limits, SolveError, Solver, Work};
use crate::rules::{nim_product, Position, Product};
use crate::vocab::ProductKind;

pub(super) struct CellValues<'g> {
    product: &'g Product,
    /// The two games' solvers, for the tartan theorem.
    first: Box<Solver<'g>>,
    second: Box<Solver<'g>>,
    /// Acrostic: the cells computed so far.
    memo: HashMap<(u64, u64), u64>,
    /// Acrostic: the heaps each move of the first game leaves from a heap of n, and of the second.
    first_options: HashMap<u64, HeapOptions>,
    second_options: HashMap<u64, HeapOptions>,
    /// Numbers the two caches hold: past `CACHED_NUMBERS` they are emptied and filled again.
    cached: usize,
    work: Work,
}

impl<'g> CellValues<'g> {
    pub(super) fn new(product: &'g Product, limits: Limits) -> Self {
        let [first, second] = &product.parts;
        CellValues {
            product,
            first: Box::new(Solver::within(&first.game, limits.clone())),
            second: Box::new(Solver::within(&second.game, limits)),
            memo: HashMap::new(),
            first_options: HashMap::new(),
            second_options: HashMap::new(),
            cached: 0,
            work: Work::default(),
        }
    }

    /// The Grundy value of a whole position: the XOR of its cells' values.
    pub(super) fn position(&mut self, pos: &Position, limits: &Limits) -> Result<u64, SolveError> {
        let mut total = 0;
        for (x, y) in pos.cell_pairs() {
            total ^= self.cell(x, y, limits)?;
        }
        Ok(total)
    }

    /// The value of one cell; a cell with a coordinate 0 is an empty heap.
    pub(super) fn cell(&mut self, x: u64, y: u64, limits: &Limits) -> Result<u64, SolveError> {
        if x == 0 || y == 0 {
            return Ok(0);
        }
        match self.product.kind {
            ProductKind::Tartan => {
                let (a, b) = self.heap_values(x, y, limits)?;
                Ok(nim_product(a, b))
            }
            ProductKind::Acrostic => self.acrostic(x, y, limits),
        }
    }

    /// For a tartan product: the first game's value of a heap of x and the second's of a heap
    /// of y, whose nim-product the cell (x, y) is worth.
    pub(super) fn factors(&mut self, x: u64, y: u64, limits: &Limits) -> Result<Option<(u64, u64)>, SolveError> {
        if self.product.kind != ProductKind::Tartan {
            return Ok(None);
        }
        Ok(Some(self.heap_values(x, y, limits)?))
    }

    /// The first game's value of a heap of x, and the second's of a heap of y.
    fn heap_values(&mut self, x: u64, y: u64, limits: &Limits) -> Result<(u64, u64), SolveError> {
        self.first.set_limits(limits.clone());
        self.second.set_limits(limits.clone());
        Ok((heap_value(&mut self.first, x)?, heap_value(&mut self.second, y)?))
    }

    /// The mex rule, over the cells a cell's options leave, smallest first.
    fn acrostic(&mut self, x: u64, y: u64, limits: &Limits) -> Result<u64, SolveError> {
        if let Some(&v) = self.memo.get(&(x, y)) {
            return Ok(v);
        }
        let mut stack = vec![(x, y)];
        while let Some(&(a, b)) = stack.last() {
            if self.memo.contains_key(&(a, b)) {
                stack.pop();
                continue;
            }
            if self.memo.len() + stack.len() >= limits.max_states {
                return Err(SolveError::state_limit(limits));
            }
            if self.cached > CACHED_NUMBERS {
                self.first_options.clear();
                self.second_options.clear();
                self.cached = 0;
            }
            let across = options(&mut self.first_options, &mut self.cached, &self.product.parts[0], a, limits)?;
            let down = options(&mut self.second_options, &mut self.cached, &self.product.parts[1], b, limits)?;
            // Every heap a move leaves is smaller than the heap moved, so cells are finished
            // before the cells that need them.
            let missing: Vec<(u64, u64)> = across
                .heaps
                .iter()
                .map(|&h| (h, b))
                .chain(down.heaps.iter().map(|&h| (a, h)))
                .filter(|c| !self.memo.contains_key(c))
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            self.work.add(across.len() + down.len(), limits)?;
            let memo = &self.memo;
            let xor = |cells: &mut dyn Iterator<Item = (u64, u64)>| cells.fold(0, |acc, c| acc ^ memo[&c]);
            let mut seen: Vec<u64> = across
                .iter()
                .map(|heaps| xor(&mut heaps.iter().map(|&h| (h, b))))
                .chain(down.iter().map(|heaps| xor(&mut heaps.iter().map(|&h| (a, h)))))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            let mex = seen.iter().enumerate().find(|&(i, &v)| v != i as u64).map_or(seen.len(), |(i, _)| i) as u64;
            self.memo.insert((a, b), mex);
            stack.pop();
            if self.memo.len().is_multiple_of(4096) {
                limits.progress.report(super::progress::Stage::PileValues, self.memo.len() as u64, 0);
            }
        }
        Ok(self.memo[&(x, y)])
    }
}

/// The Grundy value of one heap of n in one of the product's games.
fn heap_value(solver: &mut Solver, n: u64) -> Result<u64, SolveError> {
    let value = solver.value(&Position::new(vec![n]))?;
    // A product's games are heap games under normal play (the checker sees to it): their
    // positions have Grundy values.
    Ok(value.grundy.expect("a heap game under normal play has Grundy values"))
}

/// The most numbers the caches of heap options hold, 128 MiB of them: a heap's options are
/// listed again rather than kept without bound.
const CACHED_NUMBERS: usize = 16 << 20;

/// The heaps each move on one heap leaves, kept flat: option i is `heaps[ends[i - 1]..ends[i]]`.
#[derive(Default)]
struct HeapOptions {
    ends: Vec<usize>,
    heaps: Vec<u64>,
}

impl HeapOptions {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn iter(&self) -> impl Iterator<Item = &[u64]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.heaps[start..end])
    }
}

/// The heaps each move on a heap of n leaves, listed once and kept.
fn options<'a>(
    cache: &'a mut HashMap<u64, HeapOptions>,
    cached: &mut usize,
    part: &crate::rules::Part,
    n: u64,
    limits: &Limits,
) -> Result<&'a HeapOptions, SolveError> {
    match cache.entry(n) {
        std::collections::hash_map::Entry::Occupied(e) => Ok(e.into_mut()),
        std::collections::hash_map::Entry::Vacant(e) => {
            let mut options = HeapOptions::default();
            for (_, heaps) in part.heap_moves(n, limits.max_states)? {
                options.heaps.extend(heaps);
                options.ends.push(options.heaps.len());
            }
            *cached += options.heaps.len() + options.ends.len();
            Ok(e.insert(options))
        }
    }
}
