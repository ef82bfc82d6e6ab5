//! The work ahead's search for witnesses (see `ahead`): for a pile of a block, among the pairs of
//! parts whose values were known a block before (both below `known`), the witnesses of the rare
//! values its options with a rare part leave missing, found as `sparse::find_witnesses` finds
//! them (a short scan, then the pile sizes holding the likeliest partner values, then every pair
//! left). Everything it reads is fixed by the values below `known`, so either thread gives the
//! same answer and counts the same work.

use super::sparse::{
    scan_pairs, scan_pairs_up, try_holders, Classes, HOLDERS_PER_VALUE, PARTNERS_TRIED, RECOUNT_EVERY, SHORT_SCAN,
    TARGETED_SHARE,
};
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

/// The targeted search's tables, made from the values below `known` alone: the first pile sizes
/// holding each value, and for each missing value the partner values likeliest to give it, from
/// how often each value occurs in the last whole stretch of `RECOUNT_EVERY` piles below `known`.
#[derive(Default)]
pub(super) struct AheadTables {
    holders: Vec<Vec<u32>>,
    /// the pile sizes `holders` has seen: 0 up to this; in a window only the prefix's, which
    /// every thread holds whenever it looks (`prefix`, 0 without a window)
    upto: usize,
    prefix: usize,
    /// the stretch `counted` counts, and the classes `partners` were made under
    stretch: usize,
    classes: Option<Classes>,
    counted: Vec<u32>,
    partners: Vec<Option<Vec<u32>>>,
    /// scratch: the rare values still needed, and the ways to split the pile at hand
    need: Vec<u8>,
    ways: Vec<Way>,
}

impl AheadTables {
    /// Brings the tables to the values below `known` (which only grows; in a window, below its
    /// prefix too), under `classes`, for tables of `size` values.
    fn update<T: Slot>(&mut self, g: &[T], known: usize, window: Option<Reach>, classes: Classes, size: usize) {
        let prefix = window.map_or(0, |w| w.prefix);
        if prefix != self.prefix {
            *self = AheadTables { prefix, ..AheadTables::default() };
        }
        let known = if prefix > 0 { known.min(prefix) } else { known };
        if self.holders.len() < size {
            self.holders.resize(size, Vec::new());
            self.counted.resize(size, 0);
            self.partners.clear();
            self.partners.resize(size, None);
        }
        // After a fresh start of the values (a new kernel's first block).
        if known < self.upto {
            *self = AheadTables { prefix, ..AheadTables::default() };
            return self.update(g, known, window, classes, size);
        }
        for (n, v) in g[self.upto..known].iter().enumerate() {
            let holders = &mut self.holders[v.value() as usize];
            if holders.len() < HOLDERS_PER_VALUE {
                holders.push((self.upto + n) as u32);
            }
        }
        self.upto = known;
        let stretch = known / RECOUNT_EVERY as usize;
        if stretch != self.stretch || self.classes != Some(classes) {
            self.stretch = stretch;
            self.classes = Some(classes);
            self.counted.iter_mut().for_each(|c| *c = 0);
            if stretch > 0 {
                let from = (stretch - 1) * RECOUNT_EVERY as usize;
                for v in &g[from..from + RECOUNT_EVERY as usize] {
                    self.counted[v.value() as usize] += 1;
                }
            }
            self.partners.iter_mut().for_each(|p| *p = None);
        }
    }

    /// Makes `partners[v]`, unless made since the last recount: the values c whose holders to
    /// try for the missing value v, best first: those common for some domain, seen in the
    /// stretch counted, with c XOR v the most frequent there.
    fn make_partners(&mut self, v: usize) {
        let Some(classes) = self.classes else { return };
        if self.partners[v].is_none() {
            let counted = &self.counted;
            let mut list: Vec<(u32, u32)> = (0..counted.len())
                .filter(|&c| {
                    counted[c] > 0
                        && (c ^ v) < counted.len()
                        && (classes.common(c as u32, 0) || classes.common(c as u32, 1))
                })
                .map(|c| (counted[c ^ v], c as u32))
                .filter(|&(count, _)| count > 0)
                .collect();
            list.sort_unstable_by(|a, b| b.cmp(a));
            list.truncate(PARTNERS_TRIED);
            self.partners[v] = Some(list.into_iter().map(|(_, c)| c).collect());
        }
    }
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
        let window = (floor > 0).then_some(reach);
        find(g, &mut ways, (known, window), classes, size, tables, &mut need, &mut missing, &mut searched.work);
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

/// The search itself: the short scan, the targeted search, then every pair left, until no
/// value is missing.
#[allow(clippy::too_many_arguments)]
fn find<T: Slot>(
    g: &[T],
    ways: &mut [Way],
    (known, window): (usize, Option<Reach>),
    classes: Classes,
    size: usize,
    tables: &mut AheadTables,
    need: &mut [u8],
    missing: &mut usize,
    work: &mut u64,
) {
    // Up from the smallest parts, then down from the middle.
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
    // The pile sizes holding the partner values likeliest to give each missing value, a
    // quarter as many as the pairs left at most (as in `sparse::find_witnesses_left`).
    tables.update(g, known, window, classes, size);
    let pairs_left: usize = ways.iter().map(|w| (w.down + 1).saturating_sub(w.up)).sum();
    let mut holders_left = pairs_left / TARGETED_SHARE;
    for (v, needed) in need.iter_mut().enumerate() {
        if *needed == 0 || holders_left == 0 {
            continue;
        }
        tables.make_partners(v);
        let partners = tables.partners[v].as_deref().unwrap_or_default();
        if targeted(g, v as u32, ways, partners, &tables.holders, &mut holders_left, work) {
            *needed = 0;
            *missing -= 1;
            if *missing == 0 {
                return;
            }
        }
    }
    // Every pair left.
    for way in ways.iter_mut() {
        if way.down >= way.up && scan_pairs(g, way.right, &mut way.down, way.up, need, missing, work) {
            return;
        }
    }
}

/// Looks for one pair of parts both below `known` reaching the rare value v, among the holders
/// of the partner values; as `sparse::targeted_witness`.
fn targeted<T: Slot>(
    g: &[T],
    v: u32,
    ways: &[Way],
    partners: &[u32],
    holders: &[Vec<u32>],
    holders_left: &mut usize,
    work: &mut u64,
) -> bool {
    for &c in partners {
        let want = c ^ v;
        let Some(holders) = holders.get(c as usize) else { continue };
        for way in ways {
            if try_holders(g, holders, (way.low, way.top), usize::MAX, (way.right, want), holders_left, work) {
                return true;
            }
            if *holders_left == 0 {
                return false;
            }
        }
    }
    false
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
