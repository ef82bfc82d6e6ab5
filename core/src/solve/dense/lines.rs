//! The closed form of "take any": a rule that may take every amount from a pile (or the same
//! every amount from each of some piles) reaches every cell before its position on a line of the
//! grid. Its options are then kept line by line as the grid is walked (the values seen on the
//! line as a bitset, the remoteness seen as two numbers), so that a cell reads a few words where
//! it would read every cell of the line, as a hand-written Wythoff loop keeps its rows, columns
//! and diagonals.

use rustc_hash::FxHashMap as HashMap;

/// A direction of the grid: the places a move takes the same amount from, and the step it makes.
pub(super) struct Line {
    pub(super) places: Vec<usize>,
    step: usize,
    /// several places: lines numbered by their first cell, as found
    numbered: HashMap<usize, u32>,
    /// one place: its stride and the one past it, by which lines are numbered in arithmetic
    single: Option<(usize, usize)>,
}

/// What one line holds of the cells walked on it so far.
#[derive(Clone, Default)]
pub(super) struct Seen {
    /// the Grundy values (under misère play: bit 0, a P-position)
    pub(super) values: Vec<u64>,
    /// the largest remoteness of any cell
    pub(super) most: u32,
    /// the smallest remoteness of a P-position (`u32::MAX`: none)
    pub(super) least_p: u32,
}

impl Line {
    pub(super) fn new(places: Vec<usize>, strides: &[usize], dims: &[u64]) -> Line {
        let step = places.iter().map(|&p| strides[p]).sum();
        let single = match places.as_slice() {
            [p] => Some((strides[*p], strides[*p] * (dims[*p] as usize + 1))),
            _ => None,
        };
        Line { places, step, numbered: HashMap::default(), single }
    }

    /// How many cells of the line lie before the cell at `x`: the amounts the rule may take.
    #[inline(always)]
    pub(super) fn before(&self, x: &[u32]) -> u32 {
        self.places.iter().map(|&p| x[p]).min().unwrap_or(0)
    }

    /// The number of the line through cell `idx` at `x`, numbering it if it is new.
    #[inline(always)]
    pub(super) fn number(&mut self, idx: usize, x: &[u32], seen: &mut Vec<Seen>) -> usize {
        if let Some((stride, next_stride)) = self.single {
            // The cells whose place is 0, numbered in order: below the place, and above it.
            let n = idx % stride + idx / next_stride * stride;
            if n >= seen.len() {
                seen.resize(n + 1, Seen { least_p: u32::MAX, ..Seen::default() });
            }
            return n;
        }
        let first = idx - self.before(x) as usize * self.step;
        let next = seen.len() as u32;
        let n = *self.numbered.entry(first).or_insert(next) as usize;
        if n == seen.len() {
            seen.push(Seen { least_p: u32::MAX, ..Seen::default() });
        }
        n
    }
}

impl Seen {
    /// Notes a value seen on the line.
    #[inline(always)]
    pub(super) fn add(&mut self, value: u32) {
        let word = value as usize / 64;
        if word >= self.values.len() {
            self.values.resize(word + 1, 0);
        }
        self.values[word] |= 1 << (value % 64);
    }
}

/// The least value not in `bits`.
#[inline(always)]
pub(super) fn least_missing(bits: &[u64]) -> u32 {
    for (i, &w) in bits.iter().enumerate() {
        if w != u64::MAX {
            return (i * 64) as u32 + (!w).trailing_zeros();
        }
    }
    (bits.len() * 64) as u32
}
