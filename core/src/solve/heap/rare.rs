//! The options of a pile with a rare part, under the sparse-space method: which rare parts
//! pair with which partners for each way to split, and marking the values they reach.

use std::ops::Range;

use super::values::{Parallel, Reach, Slot};
use super::{TWO_ANY, TWO_UNEQUAL};

/// How many rare piles are below `bound`. Most games find their rare values early, and then
/// every pile's bounds lie past the last rare pile: no search then (0.454 to 2^17 spent a
/// third of its own time per pile in these searches).
#[inline]
pub(super) fn rare_below(rare: &[u32], bound: usize) -> usize {
    match rare.last() {
        Some(&last) if last as usize >= bound => rare.partition_point(|&r| (r as usize) < bound),
        _ => rare.len(),
    }
}

/// The indices in `rare` of the parts equal to rest / 2, as (first, past), for a split of `rest`
/// that must be unequal; (MAX, MAX), which `push_jobs` leaves nothing out for, otherwise.
pub(super) fn middle_of(rare: &[u32], rest: usize, unequal: bool) -> (usize, usize) {
    if unequal && rest.is_multiple_of(2) {
        let half = rest / 2;
        (rare_below(rare, half), rare_below(rare, half + 1))
    } else {
        (usize::MAX, usize::MAX)
    }
}

/// The rare parts with indices in `span`, by where their partners are stored, each with the
/// place `top` its partner is stored at, top − r: the recent piles (all of them without a
/// window) for r ≤ rest − base, at rest − dropped − r; a window's prefix for r > rest − prefix,
/// at rest − r. `None` when a partner in between was dropped.
pub(super) fn stored_partners(
    rare: &[u32],
    rest: usize,
    span: Range<usize>,
    reach: Reach,
) -> Option<[(Range<usize>, usize); 2]> {
    let recent_end = rare.partition_point(|&r| r as usize + reach.base <= rest).clamp(span.start, span.end);
    let prefix_from = rare.partition_point(|&r| r as usize + reach.prefix <= rest).clamp(span.start, span.end);
    (recent_end >= prefix_from)
        .then(|| [(span.start..recent_end, rest - reach.dropped()), (prefix_from..span.end, rest)])
}

/// Pushes the rare parts with indices in `range` (none when it is reversed) onto `jobs`, with
/// their partners stored at top − r: two ranges around the `middle` (from `middle_of`), so that
/// the marking loop itself has no test.
pub(super) fn push_jobs(
    jobs: &mut Vec<(Range<usize>, usize)>,
    range: Range<usize>,
    top: usize,
    middle: (usize, usize),
) {
    let (start, end) = (range.start, range.end.max(range.start));
    for part in [start..end.min(middle.0).max(start), middle.1.clamp(start, end)..end] {
        if !part.is_empty() {
            jobs.push((part, top));
        }
    }
}

/// How the options of the rare parts every way to split pairs are marked: `mark` with the
/// ways' partners at low_top + i − r for part r (see `plan_together`).
#[derive(Clone, Copy)]
pub(super) struct Together<T> {
    mark: MarkTogether<T>,
    low_top: usize,
}

impl<T: Slot> Together<T> {
    /// Marks the options of the parts in `together` (as planned) into `reached`.
    pub(super) fn mark(self, g: &[T], rare: &[u32], rare_value: &[u32], together: &[Range<usize>], reached: &mut [u8]) {
        (self.mark)(g, rare, rare_value, together, self.low_top, reached)
    }
}

type MarkTogether<T> = fn(&[T], &[u32], &[u32], &[Range<usize>], usize, &mut [u8]);

/// Plans the options with a rare part of pile n, on one thread, when its ways to split take
/// amounts within four of each other (every three-digit code's do): the rare parts below
/// every way's rest, less those some way must leave out (a middle part, when the split must
/// be unequal), go to `together`, whose parts the returned `mark` pairs with all the ways'
/// partners at once; the rest go to `jobs`, one way at a time. Loading a part and its value
/// once for all the ways, with the partners side by side, spares a third of the marking
/// (0.454's three ways: 103 million instructions down to 62). `None`, with nothing planned,
/// for other ways to split.
#[allow(clippy::too_many_arguments)] // the kernel's parts, borrowed apart
pub(super) fn plan_together<T: Slot>(
    rare: &[u32],
    n: u64,
    first: usize,
    ways: Ways,
    threads: Parallel,
    together: &mut Vec<Range<usize>>,
    jobs: &mut Vec<(Range<usize>, usize)>,
    work: &mut u64,
) -> Option<Together<T>> {
    // Below the largest amount plus two, not every way splits yet.
    let low_top = n.checked_sub(ways.most + 2)? as usize + 2;
    let mark: MarkTogether<T> = match ways.bits {
        0b11 => mark_ways::<T, 0b11>,
        0b101 => mark_ways::<T, 0b101>,
        0b111 => mark_ways::<T, 0b111>,
        0b1001 => mark_ways::<T, 0b1001>,
        0b1011 => mark_ways::<T, 0b1011>,
        0b1101 => mark_ways::<T, 0b1101>,
        0b1111 => mark_ways::<T, 0b1111>,
        _ => return None,
    };
    // Once every rare part lies below every way's rest (most piles, once the rare values are
    // found), each way pairs all of them: no search.
    let all = rare.last().is_none_or(|&r| (r as usize) < low_top);
    let below = |rest: usize| if all { rare.len() } else { rare_below(rare, rest) };
    let rests = (0..4).filter(|i| ways.bits & 1 << i != 0).map(|i| (low_top + i, ways.unequal & 1 << i != 0));
    let options: usize = rests.clone().map(|(rest, _)| below(rest)).sum();
    // On two threads the marks are shared between them instead.
    if threads.share(options * 2) {
        return None;
    }
    // The parts below every way's rest but the middle parts, which go one way at a time: two
    // at most, as the rests lie within four of each other and only even ones have a middle.
    let common = below(low_top).max(first);
    let (mut low, mut high) = (usize::MAX, usize::MAX);
    if ways.unequal != 0 {
        for (rest, unequal) in rests.clone() {
            let (middle, past) = middle_of(rare, rest, unequal);
            if middle < past && first <= middle && middle < common {
                if middle < low {
                    (low, high) = (middle, low);
                } else if middle != low {
                    high = high.min(middle);
                }
            }
        }
    }
    let mut start = first;
    for middle in [low, high] {
        let stop = middle.min(common);
        if start < stop {
            together.push(start..stop);
        }
        start = start.max(middle.saturating_add(1));
    }
    if start < common {
        together.push(start..common);
    }
    if !all || low != usize::MAX {
        for (rest, unequal) in rests {
            let middle = middle_of(rare, rest, unequal);
            for part in [low, high] {
                if part < common {
                    push_jobs(jobs, part..part + 1, rest, middle);
                }
            }
            push_jobs(jobs, common..below(rest), rest, middle);
        }
    }
    *work += options as u64;
    Some(Together { mark, low_top })
}

/// The ways a pile splits into two, worked out once from the rules: the amounts they take
/// (bit i: most − i), the largest, and which must split unequally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ways {
    bits: u8,
    most: u64,
    unequal: u8,
}

impl Ways {
    /// `None` when there are fewer than two, or they take amounts four or more apart.
    pub(super) fn of(two: &[(u64, u8)]) -> Option<Ways> {
        let splits = || two.iter().filter(|(_, f)| f & (TWO_ANY | TWO_UNEQUAL) != 0);
        let most = splits().map(|&(t, _)| t).max()?;
        let (mut bits, mut unequal) = (0u8, 0u8);
        for &(t, f) in splits() {
            let bit = 1u8.checked_shl((most - t).try_into().ok()?).filter(|&b| b < 16 && bits & b == 0)?;
            bits |= bit;
            if f & TWO_ANY == 0 {
                unequal |= bit;
            }
        }
        (bits.count_ones() >= 2).then_some(Ways { bits, most, unequal })
    }
}

/// Marks the options of the rare parts in `together` for the ways in `WAYS` (bit i: the
/// partner of part r is stored at low_top + i − r): the partners of a part lie side by side,
/// read through one slice whose length is known here, so the loop over them has no test.
fn mark_ways<T: Slot, const WAYS: u8>(
    g: &[T],
    rare: &[u32],
    rare_value: &[u32],
    together: &[Range<usize>],
    low_top: usize,
    reached: &mut [u8],
) {
    let span = 8 - WAYS.leading_zeros() as usize;
    for part in together {
        for (&r, &value) in rare[part.clone()].iter().zip(&rare_value[part.clone()]) {
            let base = low_top - r as usize;
            for (i, partner) in g[base..base + span].iter().enumerate() {
                if WAYS & (1 << i) != 0 {
                    reached[(value ^ partner.value()) as usize] = 1;
                }
            }
        }
    }
}

/// Marks the values of the options numbered `which` among the rare piles' ranges in `jobs`
/// (counted through the ranges in order): each rare pile r with its partner, stored at top − r.
pub(super) fn mark_rare<T: Slot>(
    g: &[T],
    rare: &[u32],
    rare_value: &[u32],
    jobs: &[(std::ops::Range<usize>, usize)],
    which: std::ops::Range<usize>,
    reached: &mut [u8],
) {
    let mut skipped = 0;
    for (range, top) in jobs {
        let (lo, hi) = (which.start.max(skipped), which.end.min(skipped + range.len()));
        if lo < hi {
            let part = range.start + lo - skipped..range.start + hi - skipped;
            let window = &g[..(*top).min(g.len())];
            for (&r, &value) in rare[part.clone()].iter().zip(&rare_value[part]) {
                reached[(value ^ window[top - r as usize].value()) as usize] = 1;
            }
        }
        skipped += range.len();
    }
}

#[cfg(test)]
mod tests {
    use super::{plan_together, rare_below, Parallel, Ways};
    use super::{TWO_ANY, TWO_UNEQUAL};

    #[test]
    fn the_plan_pairs_every_rare_part_with_every_way_once() {
        // Every (rare part, way) pair a pile's options need, each exactly once, between the
        // parts marked for all ways together and the jobs: with middles of unequal splits,
        // rare parts past some ways' rests, and a rare part 0 (which pairs with nothing).
        let rares: [&[u32]; 4] = [&[0, 3, 5, 8, 20, 21, 40], &[1, 2, 4, 9, 10, 11, 12, 30], &[], &[7]];
        let ways_tried: [&[(u64, u8)]; 5] = [
            &[(1, TWO_ANY), (2, TWO_ANY), (3, TWO_ANY)],
            &[(0, TWO_UNEQUAL), (2, TWO_UNEQUAL)],
            &[(1, TWO_UNEQUAL), (3, TWO_ANY)],
            &[(0, TWO_UNEQUAL), (1, TWO_UNEQUAL), (2, TWO_UNEQUAL), (3, TWO_UNEQUAL)],
            &[(0, TWO_ANY), (3, TWO_UNEQUAL)],
        ];
        for rare in rares {
            let first = usize::from(rare.first() == Some(&0));
            for two in ways_tried {
                let ways = Ways::of(two).expect("ways within four of each other");
                for n in 0..100u64 {
                    let (mut together, mut jobs, mut work) = (Vec::new(), Vec::new(), 0);
                    let one = Parallel { threads: 1, from: 0 };
                    let Some(plan) =
                        plan_together::<u8>(rare, n, first, ways, one, &mut together, &mut jobs, &mut work)
                    else {
                        assert!(n < ways.most + 2, "n = {n}: every way splits, so there is a plan");
                        continue;
                    };
                    let mut planned: Vec<(usize, usize)> = together
                        .iter()
                        .flat_map(|part| part.clone())
                        .flat_map(|i| two.iter().map(move |&(t, _)| (i, (n - t) as usize)))
                        .chain(jobs.iter().flat_map(|(part, top)| part.clone().map(move |i| (i, *top))))
                        .collect();
                    planned.sort_unstable();
                    let mut needed: Vec<(usize, usize)> = Vec::new();
                    for &(t, f) in two {
                        let rest = (n - t) as usize;
                        for (i, &r) in rare.iter().enumerate().take(rare_below(rare, rest)).skip(first) {
                            if !(f & TWO_ANY == 0 && 2 * r as usize == rest) {
                                needed.push((i, rest));
                            }
                        }
                    }
                    needed.sort_unstable();
                    assert_eq!(planned, needed, "rare {rare:?}, ways {two:?}, n = {n}");
                    assert_eq!(plan.low_top, (n - ways.most) as usize);
                    let options: usize = two.iter().map(|&(t, _)| rare_below(rare, (n - t) as usize)).sum();
                    assert_eq!(work, options as u64, "the work counted as a way at a time");
                }
            }
        }
    }
}
