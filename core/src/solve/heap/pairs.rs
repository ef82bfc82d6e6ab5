//! The scans over the pairs of parts a pile splits into, crossing off the values they reach:
//! eight pairs at a time, down from the middle or up from the smallest parts.

use super::values::Slot;
#[cfg(target_arch = "x86_64")]
use super::values::SlotsOf;

#[cfg(target_arch = "x86_64")]
mod wide;

/// Pairs examined before the search turns to particular values, half up from the smallest
/// parts and half down from the middle: a plain scan finds the common XORs at once, and the
/// targeted search the scarce ones.
pub(super) const SHORT_SCAN: usize = 1024;

/// Looks at the pairs (a, rest − a) for a from `*a` down to `stop`, crossing off the values
/// they reach; true once none is missing. Pile a is stored at a and rest − a at `right − a`.
/// Eight pairs at a time, so that the test is one branch per eight. `*a` is left where the
/// scan stopped.
pub(super) fn scan_pairs<T: Slot>(
    g: &[T],
    right: usize,
    a: &mut usize,
    stop: usize,
    need: &mut [u8],
    missing: &mut usize,
    work: &mut u64,
) -> bool {
    let start = *a;
    if wide_scan(g, right, a, stop, need, missing, Direction::Down) {
        *work += (start - *a) as u64;
        return true;
    }
    while *a >= stop + 8 {
        // The pairs (a − k, right − a + k), their values kept for the crossing off.
        let (low, high) = (&g[*a - 7..=*a], &g[right - *a..right - *a + 8]);
        let reached: [usize; 8] = std::array::from_fn(|k| (low[7 - k].value() ^ high[k].value()) as usize);
        if reached.iter().fold(0, |hit, &v| hit | need[v]) != 0 && cross_off_all(&reached, need, missing) {
            *work += (start - *a + 8) as u64;
            *a -= 8;
            return true;
        }
        *a -= 8;
    }
    while *a >= stop.max(1) {
        let done = cross_off(g, right, *a, need, missing);
        *a -= 1;
        if done {
            *work += (start - *a) as u64;
            return true;
        }
    }
    *work += (start - *a) as u64;
    false
}

/// Crosses off the value the pair (a, rest − a) reaches, if it is still needed; true once none
/// is missing.
#[inline(always)]
fn cross_off<T: Slot>(g: &[T], right: usize, a: usize, need: &mut [u8], missing: &mut usize) -> bool {
    let v = (g[a].value() ^ g[right - a].value()) as usize;
    if need[v] != 0 {
        need[v] = 0;
        *missing -= 1;
    }
    *missing == 0
}

/// Crosses off the values a block of pairs reaches, without a branch a value (which of them
/// are needed is unpredictable: the short scans hit in most blocks); true once none is missing.
#[inline(always)]
fn cross_off_all(reached: &[usize; 8], need: &mut [u8], missing: &mut usize) -> bool {
    for &v in reached {
        *missing -= usize::from(need[v]);
        need[v] = 0;
    }
    *missing == 0
}

/// Looks at the pairs (a, rest − a) for a from `*a` up to `stop` (not included), crossing off
/// the values they reach; true once none is missing, with `*a` past the pair (or the block of
/// eight) that found the last. Eight pairs at a time, as in `scan_pairs`.
pub(super) fn scan_pairs_up<T: Slot>(
    g: &[T],
    right: usize,
    a: &mut usize,
    stop: usize,
    need: &mut [u8],
    missing: &mut usize,
    work: &mut u64,
) -> bool {
    let start = *a;
    if wide_scan(g, right, a, stop, need, missing, Direction::Up) {
        *work += (*a - start) as u64;
        return true;
    }
    while *a + 8 <= stop {
        // The pairs (a + k, right − a − k), their values kept for the crossing off.
        let (low, high) = (&g[*a..*a + 8], &g[right - *a - 7..=right - *a]);
        let reached: [usize; 8] = std::array::from_fn(|k| (low[k].value() ^ high[7 - k].value()) as usize);
        if reached.iter().fold(0, |hit, &v| hit | need[v]) != 0 && cross_off_all(&reached, need, missing) {
            *a += 8;
            *work += (*a - start) as u64;
            return true;
        }
        *a += 8;
    }
    while *a < stop {
        let done = cross_off(g, right, *a, need, missing);
        *a += 1;
        if done {
            *work += (*a - start) as u64;
            return true;
        }
    }
    *work += (*a - start) as u64;
    false
}

/// Which way a scan goes.
#[derive(Clone, Copy)]
pub(super) enum Direction {
    Up,
    Down,
}

/// Pairs a scan must have left before it goes 32 at a time: reading the table of values needed
/// into a register costs a few chunks.
#[cfg(target_arch = "x86_64")]
const WIDE_FROM: usize = 128;

/// The scan over whole chunks of 32 pairs with vector instructions, where the machine has them
/// and the values are narrow enough (see `wide`): true once none is missing, as the scalar scan
/// would be at the same place; false with `*a` where the scalar scan goes on.
#[inline]
#[allow(unused_variables)] // without x86-64, nothing to do
fn wide_scan<T: Slot>(
    g: &[T],
    right: usize,
    a: &mut usize,
    stop: usize,
    need: &mut [u8],
    missing: &mut usize,
    direction: Direction,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let left = match direction {
            Direction::Up => stop.saturating_sub(*a),
            Direction::Down => a.saturating_sub(stop),
        };
        if wide_allowed() && left >= WIDE_FROM && wide::usable(need) {
            // SAFETY: `usable` found the instructions on this machine.
            return unsafe {
                match T::slots_of(g) {
                    SlotsOf::Byte(g) => wide::scan(g, right, a, stop, need, missing, direction),
                    SlotsOf::Narrow(g) => wide::scan(g, right, a, stop, need, missing, direction),
                    SlotsOf::Wide => false,
                }
            };
        }
    }
    false
}

#[cfg(all(target_arch = "x86_64", test))]
thread_local! {
    /// Whether this thread's scans may use `wide` (the tests compare them with the scalar scans).
    static WIDE_SCANS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether this thread's scans may use `wide`: always, but in the tests that compare the two.
#[cfg(target_arch = "x86_64")]
fn wide_allowed() -> bool {
    #[cfg(test)]
    return WIDE_SCANS.get();
    #[cfg(not(test))]
    true
}

#[cfg(test)]
mod tests {
    use super::{scan_pairs, scan_pairs_up, Slot};
    use proptest::prelude::*;

    /// A scan's answer, where it stopped, the values still needed and the work it counted.
    type Scanned = (bool, usize, Vec<u8>, usize, u64);

    /// One scan, up or down, with the vector scans allowed or not.
    fn scan<T: Slot>(g: &[T], right: usize, (a, stop): (usize, usize), need: &[u8], up: bool, wide: bool) -> Scanned {
        #[cfg(target_arch = "x86_64")]
        super::WIDE_SCANS.set(wide);
        #[cfg(not(target_arch = "x86_64"))]
        let _ = wide;
        let (mut a, mut need, mut work) = (a, need.to_vec(), 0);
        let mut missing = need.iter().filter(|&&x| x != 0).count();
        let done = if up {
            scan_pairs_up(g, right, &mut a, stop, &mut need, &mut missing, &mut work)
        } else {
            scan_pairs(g, right, &mut a, stop, &mut need, &mut missing, &mut work)
        };
        (done, a, need, missing, work)
    }

    /// Scans of random values (below `largest`) for random values needed, with and without the
    /// vector scans: the same answer, the same place, the same values crossed off, the same work.
    fn same_either_way<T: Slot>(values: &[T], largest: usize, (needed, up, at): (Vec<usize>, bool, usize)) {
        let size = largest.next_power_of_two();
        let mut need = vec![0u8; size];
        for v in needed {
            need[v % size] = 1;
        }
        let rest = values.len() - 1;
        let middle = rest / 2;
        let (a, stop) = if up { (1 + at % 64, middle + 1) } else { (middle - at % 64, 1 + at % 16) };
        let scalar = scan(values, rest, (a, stop), &need, up, false);
        let wide = scan(values, rest, (a, stop), &need, up, true);
        assert_eq!(scalar, wide);
    }

    proptest! {
        #[test]
        fn the_vector_scans_stop_where_the_scalar_ones_do_on_bytes(
            values in proptest::collection::vec(0u8..200, 300..3000),
            needed in proptest::collection::vec(0usize..256, 0..12),
            up: bool,
            at: usize,
        ) {
            same_either_way(&values, 256, (needed, up, at));
        }

        #[test]
        fn the_vector_scans_stop_where_the_scalar_ones_do_on_words(
            values in proptest::collection::vec(0u16..500, 300..3000),
            needed in proptest::collection::vec(0usize..512, 0..12),
            up: bool,
            at: usize,
        ) {
            same_either_way(&values, 512, (needed, up, at));
        }
    }

    /// Values that reach most of the values needed, in long runs of pairs that do not: the
    /// scans cross off in chunks with hits and pass over chunks without.
    #[test]
    fn the_vector_scans_cross_off_in_the_scalar_scans_order() {
        // Below 256 but one: no XOR reaches 300 or 1,000, and 511 only through the one.
        let mut values: Vec<u16> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u16).collect();
        values[2000] = 511;
        values[4095 - 2000] = 0;
        let mut need = vec![0u8; 1024];
        for v in [511usize, 7, 300, 1000] {
            need[v] = 1;
        }
        for up in [true, false] {
            let (a, stop) = if up { (1, 2048) } else { (2047, 1) };
            let scalar = scan(&values, 4095, (a, stop), &need, up, false);
            assert_eq!(scalar, scan(&values, 4095, (a, stop), &need, up, true));
            // Each value needed is crossed off when some pair reaches it (511 only through the
            // pair (2000, 2095); 300 and 1000 never).
            for v in [511usize, 7, 300, 1000] {
                let reached = (1..2048).any(|a| usize::from(values[a] ^ values[4095 - a]) == v);
                assert_eq!(scalar.2[v] == 0, reached, "value {v}");
            }
            assert_eq!((scalar.0, scalar.2[511], scalar.2[300], scalar.2[1000]), (false, 0, 1, 1));
        }
    }
}
