//! The scans over the pairs of parts a pile splits into, crossing off the values they reach:
//! eight pairs at a time, down from the middle or up from the smallest parts.

use super::values::Slot;

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
