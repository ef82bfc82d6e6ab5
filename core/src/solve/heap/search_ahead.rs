//! The work ahead's search for witnesses (see `ahead`): for a pile of a block, among the pairs of
//! parts whose values were known a block before (both below `known`), the witnesses of the rare
//! values its options with a rare part leave missing, found as `sparse::find_witnesses` finds
//! them when it goes without the holders (a short scan, then every pair left). Everything it
//! reads is fixed by the values below `known`, so either thread gives the same answer and
//! counts the same work.

use super::classes::Classes;
use super::pairs::{scan_pairs, scan_pairs_up, SHORT_SCAN};
use super::values::{Reach, Slot};
use super::{TWO_ANY, TWO_UNEQUAL};

/// What a search ahead made of one pile.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Searched {
    /// the pairs of parts examined (and pile sizes tried)
    pub(super) work: u64,
    /// every rare value below this that the table leaves unmarked has no pair of parts both
    /// below `known`: only pairs with a later part can reach it
    pub(super) below: u32,
}

/// The search's scratch tables, kept from pile to pile: the rare values still needed, and the
/// ways to split the pile at hand.
#[derive(Default)]
pub(super) struct AheadTables {
    need: Vec<u8>,
    ways: Vec<Way>,
}

/// One way to split the pile: its pairs (a, rest − a) with rest − a below `known` (and in a
/// window, a in the prefix and rest − a at `floor` or above) are those with `low` ≤ a ≤ `top`;
/// pile rest − a is stored at `right` − a.
struct Way {
    right: usize,
    low: usize,
    top: usize,
    /// where the short scan stopped: up from `low` to `up` (not included), down from `top` to
    /// `down` (not included)
    up: usize,
    down: usize,
}

/// Searches ahead for pile m's witnesses: `table` holds the values its options with a rare part
/// below `known` reach; the rare values it misses below the first common value it misses are
/// looked for among the pairs of parts both below `known`, and those found are marked in
/// `table` too. `g` holds every value below `known` (and maybe more, which it does not read),
/// or in a window (`floor` > 0) those of its prefix and from `floor` to `known`, as `reach`
/// says.
#[allow(clippy::too_many_arguments)] // a pile's question and the tables to answer it
pub(super) fn search_ahead<T: Slot>(
    g: &[T],
    m: u64,
    (known, floor, reach): (usize, usize, Reach),
    splits: &[(u64, u8)],
    classes: Classes,
    table: &mut [u8],
    tables: &mut AheadTables,
) -> Searched {
    let size = table.len();
    let mut candidate = 0;
    while candidate < size && (table[candidate] != 0 || !classes.common(candidate as u32, m)) {
        candidate += 1;
    }
    let mut searched = Searched { work: 0, below: candidate as u32 };
    let mut need = std::mem::take(&mut tables.need);
    need.clear();
    need.resize(size, 0);
    let mut missing = 0;
    for v in 0..candidate {
        if table[v] == 0 {
            need[v] = 1;
            missing += 1;
        }
    }
    if missing > 0 {
        let mut ways = std::mem::take(&mut tables.ways);
        ways.clear();
        ways.extend(
            splits
                .iter()
                .filter(|(t, f)| t + 2 <= m && f & (TWO_ANY | TWO_UNEQUAL) != 0)
                .map(|&(t, f)| {
                    let rest = (m - t) as usize;
                    let (low, top) = ahead_range(rest, f, known, floor, reach);
                    Way { right: rest - reach.dropped(), low, top, up: low, down: top }
                })
                .filter(|w| w.low <= w.top),
        );
        find(g, &mut ways, &mut need, &mut missing, &mut searched.work);
        tables.ways = ways;
        for v in 0..candidate {
            if table[v] == 0 && need[v] == 0 {
                table[v] = 1;
            }
        }
    }
    tables.need = need;
    searched
}

/// The search itself: the short scan, up from the smallest parts and down from the middle,
/// then every pair left, up from where the first stopped, until no value is missing. Not the
/// pile sizes holding the likeliest partner values, which `sparse::find_witnesses` may try
/// first: here they cost more than they spared (Grundy's game to 2^20 on one thread, 2.18 s
/// with them and 2.03 s without; to 2·10⁶, 2.54 s and 2.31 s).
fn find<T: Slot>(g: &[T], ways: &mut [Way], need: &mut [u8], missing: &mut usize, work: &mut u64) {
    let mut budget = SHORT_SCAN / 2;
    for way in ways.iter_mut() {
        let stop = (way.low + budget).min(way.top + 1);
        let done = scan_pairs_up(g, way.right, &mut way.up, stop, need, missing, work);
        budget = budget.saturating_sub(way.up - way.low);
        if done {
            return;
        }
    }
    let mut budget = SHORT_SCAN / 2;
    for way in ways.iter_mut() {
        if budget == 0 {
            break;
        }
        if way.down < way.up {
            continue;
        }
        let start = way.down;
        // `scan_pairs` leaves `down` on the next pair to look at, one below the last it did.
        let stop = start.saturating_sub(budget - 1).max(way.up);
        let done = scan_pairs(g, way.right, &mut way.down, stop, need, missing, work);
        budget = budget.saturating_sub(start - way.down);
        if done {
            return;
        }
    }
    for way in ways.iter_mut() {
        if way.down >= way.up && scan_pairs_up(g, way.right, &mut way.up, way.down + 1, need, missing, work) {
            return;
        }
    }
}

/// The smaller parts a of a split of `rest` (`f` its kind) whose pairs the search ahead looks
/// at, as (low, top) (empty when low > top): the partner rest − a below `known`, and in a
/// window (`floor` > 0) a in the prefix and rest − a at `floor` or above.
pub(super) fn ahead_range(rest: usize, f: u8, known: usize, floor: usize, reach: Reach) -> (usize, usize) {
    let mut top = if f & TWO_ANY == 0 { (rest - 1) / 2 } else { rest / 2 };
    if floor > 0 {
        top = top.min(reach.prefix.saturating_sub(1)).min(rest.saturating_sub(floor));
    }
    ((rest + 1).saturating_sub(known).max(1), top)
}
