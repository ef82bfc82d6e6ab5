//! The value of one pile: its options marked, by the plain scan of every split or by the
//! sparse-space method, and their mex.

use super::ahead::PileAhead;
use super::sparse::{sparse_value, PileSparse};
use super::values::{Marks, Parallel, Reach, Slot};
use super::{HeapRules, GONE, TWO_ANY, TWO_EQUAL, TWO_UNEQUAL};

/// The value of pile n from the stored values `g` (all of them, or a window's as `reach` says);
/// `None` when it needs a value the window dropped.
#[allow(clippy::too_many_arguments)] // the kernel's parts, borrowed apart
pub(super) fn next_value<T: Slot>(
    g: &[T],
    n: u64,
    reach: Reach,
    rules: &HeapRules,
    marks: &mut Marks,
    largest: u32,
    sparse: Option<&mut PileSparse>,
    threads: Parallel,
    block: Option<(&[u8], u64)>,
    ahead: Option<PileAhead>,
    taken_any: Option<&[u64]>,
    work: &mut u64,
) -> Option<u32> {
    let n_us = n as usize;
    if rules.two.is_empty() && reach.dropped() == 0 {
        return Some(takes_only_mex(g, n, rules, &mut marks.bytes, work));
    }
    marks.reset(largest);
    if n > 0 && rules.flag(n) & GONE != 0 {
        marks.mark(0);
    }
    // Every amount from 1 to n − 1 leaves a heap (`take any`): its options are the values of
    // every pile from 1 to n − 1, kept as a bitset by the kernel, read a word at a time.
    let every = n >= 2 && rules.one.len() >= n_us - 1 && rules.one[n_us - 2] == n - 1;
    match taken_any {
        Some(all) if every => {
            if marks.words.len() < all.len() {
                marks.words.resize(all.len(), 0);
            }
            for (word, &bits) in marks.words.iter_mut().zip(all) {
                *word |= bits;
            }
        }
        _ => {
            for &t in &rules.one {
                if t >= n {
                    break;
                }
                let at = reach.index(n_us - t as usize)?;
                // Pile n − 1 not stored yet: its option is settled once it is (see
                // `HeapRules::defers_last`).
                if t == 1 && at == g.len() && rules.defers_last() {
                    continue;
                }
                marks.mark(g[at].value());
            }
        }
    }
    // A take marked bit by bit costs about eight pairs of the byte-wide scan below. Read as a
    // bitset the takes cost less, but they are counted the same: the scan's pairs of large
    // values (a table past the first cache) cost more than the count says, and the estimates
    // made from this count stay on the safe side.
    *work += TAKE_COST * rules.one.len().min(n_us) as u64;
    for &(t, f) in &rules.two {
        if t + 2 > n {
            break;
        }
        let rest = (n - t) as usize;
        if f & TWO_EQUAL != 0 && rest.is_multiple_of(2) {
            marks.mark(0);
        }
    }
    match sparse {
        // A window starts only under the sparse-space method: every pile is stored.
        None => {
            // A byte a value rather than a bit: the stores in the scan do not depend on each
            // other (a bit set in one word after another is a chain of loads and stores). Two
            // values XOR below the power of two above the largest.
            let size = (largest.max(1) as usize + 1).next_power_of_two() * 2;
            let Marks { words, bytes: reached } = marks;
            // At least the table the slot's values index without a bounds check; only the
            // first `size` bytes are ever marked, so only they are cleared.
            if reached.len() < size.max(T::TABLE) {
                reached.resize(size.max(T::TABLE), 0);
            }
            // Splits with both parts below a block were scanned ahead: their table is the
            // start (copied, not cleared and merged: this is the first thread's share).
            match block {
                Some((ahead, _)) => {
                    reached[..ahead.len()].copy_from_slice(ahead);
                    reached[ahead.len()..size].fill(0);
                }
                None => reached[..size].fill(0),
            }
            // The marks so far stay bits (a take-any game marks every smaller pile's value, and
            // turning each into a byte cost a store a value): the mex reads both below.
            let pairs: usize = plain_splits(rules, n).map(|(_, top)| top).sum();
            *work += pairs as u64;
            match block {
                // The splits with a part in the block, now that its piles before n are known.
                Some((_, start)) => {
                    for (rest, top) in plain_splits(rules, n) {
                        let last = top.min(rest.saturating_sub(start as usize));
                        for a in 1..=last {
                            let v = (g[a].value() ^ g[rest - a].value()) as usize;
                            if v >= reached.len() {
                                reached.resize(v + 1, 0);
                            }
                            reached[v] = 1;
                        }
                    }
                }
                None => scan_splits(g, n, rules, reached),
            }
            Some(least_unmarked(words, reached) as u32)
        }
        Some(sparse) => sparse_value(g, n, reach, rules, marks, sparse, threads, ahead, work),
    }
}

/// The least value marked neither in `bits` (the takes' options) nor in `bytes` (the splits'):
/// the zero bits of each word, in order, are the only candidates for a byte to be read.
fn least_unmarked(bits: &[u64], bytes: &[u8]) -> usize {
    for (i, &word) in bits.iter().enumerate() {
        let mut free = !word;
        while free != 0 {
            let v = i * 64 + free.trailing_zeros() as usize;
            if bytes.get(v).is_none_or(|&b| b == 0) {
                return v;
            }
            free &= free - 1;
        }
    }
    let from = bits.len() * 64;
    match bytes.get(from..) {
        Some(rest) => from + rest.iter().position(|&b| b == 0).unwrap_or(rest.len()),
        None => from,
    }
}

/// Splits examined by the plain scan of pile n: for each, the rest and the largest smaller part.
pub(super) fn plain_splits(rules: &HeapRules, n: u64) -> impl Iterator<Item = (usize, usize)> + '_ {
    rules.two.iter().filter(move |&&(t, f)| t + 2 <= n && f & (TWO_ANY | TWO_UNEQUAL) != 0).map(move |&(t, f)| {
        let rest = (n - t) as usize;
        // An unequal split leaves out the middle pair.
        (rest, if f & TWO_ANY == 0 && rest.is_multiple_of(2) { rest / 2 - 1 } else { rest / 2 })
    })
}

/// Scans the piles of `piles` ahead: each one's splits whose parts are both among the values
/// stored (those below the block), into its table of `size` bytes.
pub(super) fn scan_ahead<T: Slot>(
    g: &[T],
    piles: std::ops::Range<u64>,
    rules: &HeapRules,
    tables: &mut [u8],
    size: usize,
) {
    // Every value stored is below the block.
    let start = g.len();
    // Marked in a table as large as the slot's marking wants, then copied: every XOR is below
    // `size`, so only that much is copied and cleared.
    let mut scratch = vec![0u8; size.max(T::TABLE)];
    for (m, table) in piles.zip(tables.chunks_exact_mut(size)) {
        for (rest, top) in plain_splits(rules, m) {
            // The partner rest − a is below the block when a > rest − start.
            let from = (rest + 1).saturating_sub(start).max(1);
            if from > top {
                continue;
            }
            T::mark_xors(&g[from..=top], &g[rest - top..=rest - from], &mut scratch);
        }
        table.copy_from_slice(&scratch[..size]);
        scratch[..size].fill(0);
    }
}

/// Marks the values of every split of pile n.
fn scan_splits<T: Slot>(g: &[T], n: u64, rules: &HeapRules, reached: &mut [u8]) {
    for (rest, top) in plain_splits(rules, n) {
        if top == 0 {
            continue;
        }
        // Parts a in 1..=top, partners rest − a: the loop has no test.
        let (low, high) = (&g[1..=top], &g[rest - top..rest]);
        T::mark_xors(low, high, reached);
    }
}

/// The mex of a game without splits: at most one option per amount, so the answer is at most
/// their number and larger values need no mark (the loop a person writes for a subtraction game).
// Kept out of `next_value`: inlined there, the same instructions ran 2.5× slower (take a
// prime to 10⁵: 0.92 s against 0.35 s, callgrind's counts equal), the loop placed badly.
/// What one take (an option marked in the bit set) costs, counted in pairs of the byte-wide
/// scan of splits: measured on Lasker's Nim against Splittles.
const TAKE_COST: u64 = 8;

#[inline(never)]
fn takes_only_mex<T: Slot>(g: &[T], n: u64, rules: &HeapRules, seen: &mut Vec<u8>, work: &mut u64) -> u32 {
    let count = rules.one.partition_point(|&t| t < n);
    let gone = n > 0 && rules.flag(n) & GONE != 0;
    let options = count + gone as usize;
    if seen.len() <= options {
        seen.resize(options + 1, 0);
    }
    let seen = &mut seen[..=options];
    seen[0] |= gone as u8;
    let n = n as usize;
    for &t in &rules.one[..count] {
        let v = g[n - t as usize].value() as usize;
        if v <= options {
            seen[v] = 1;
        }
    }
    *work += count as u64;
    let mex = seen.iter().position(|&b| b == 0).unwrap_or(options + 1);
    seen.fill(0);
    mex as u32
}
