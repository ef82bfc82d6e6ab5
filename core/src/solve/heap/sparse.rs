//! The sparse-space method: the classes of common and rare values, the options with a rare
//! part, and the search for witnesses of the rare values below the answer.

use std::ops::Range;

use super::ahead::{marked_ahead, PileAhead};
use super::classes::Classes;
use super::pairs::{scan_pairs, scan_pairs_up, SHORT_SCAN};
use super::rare::{mark_rare, middle_of, plan_together, push_jobs, rare_below, stored_partners};
use super::search_ahead::ahead_range;
use super::values::{Marks, Parallel, Reach, Slot, Values};
use super::*;

/// How many pile sizes of each value are kept as witnesses for the targeted search: the first
/// ones, so that the list is a fixed prefix of the table and costs bounded memory.
const HOLDERS_PER_VALUE: usize = 4096;
/// Pile sizes between recounts of how often each value occurs, which orders the targeted search
/// (the recounts fall after piles 4096k − 1: the tables are made from pile 0 on).
pub(super) const RECOUNT_EVERY: u32 = 4096;
/// How many partner values the targeted search tries for one missing value.
const PARTNERS_TRIED: usize = 16;
/// The targeted search tries at most one holder per this many pairs the scan has left.
const TARGETED_SHARE: usize = 4;
/// The search for witnesses chooses again between the targeted search and the scan alone at
/// every stretch of this many piles (see `WitnessChoice`).
const CHOICE_EVERY: u64 = 4096;
/// The piles at the start of a stretch that go the way not chosen, to weigh it.
const CHOICE_SAMPLE: u64 = 32;
/// What a holder tried by the targeted search costs, in pairs of the scan, which reads eight
/// at a time in order where a holder's partner is a load from anywhere in the table.
const HOLDER_COST: u64 = 2;

/// The sparse-space classes. A pile's value is common when the parity of the bits it shares
/// with the mask is its domain's: piles of even and of odd size may differ (the "domain"
/// variant, for games such as 0.106 whose splits all take amounts of one parity), as long as
/// two common parts always XOR to a value rare for the pile they came from.
pub(super) struct Sparse {
    /// what every pile's search reads, and changes only as a pile is added
    pub(super) shared: Shared,
    /// whether the search for witnesses tries holders before the rest of the scan
    choice: WitnessChoice,
    /// the scratch tables of a pile, and of the pile computed beside it (see `HeapKernel`'s
    /// pairs of piles)
    pub(super) scratch: Scratch,
    pub(super) beside: Scratch,
}

/// The method's tables that a pile's search reads but does not change: two piles computed at
/// once share them.
pub(super) struct Shared {
    pub(super) mask: u32,
    /// the common parity of piles of even size, and of odd size (both 1 in the plain method)
    pub(super) parity: [u32; 2],
    /// pile sizes with a rare value, increasing, and their values
    rare: Vec<u32>,
    rare_value: Vec<u32>,
    /// `class[v]` has bit d set when v is common for piles of domain d (their size's parity):
    /// sized to hold any XOR of two values seen so far
    class: Vec<u8>,
    /// `holders[c]`: the first pile sizes whose value is c, increasing
    holders: Vec<Vec<u32>>,
    /// how often each value occurred since the last recount, and in the stretch before it
    counting: Vec<u32>,
    counted: Vec<u32>,
    /// the values counted in the stretch before the last recount, the most frequent first (ties
    /// in no particular order): the partners of a missing value are the first of these that
    /// pair with it, so that making them reads a few entries instead of every value's count
    by_count: Vec<u32>,
    since_recount: u32,
}

/// One pile's scratch tables.
#[derive(Default)]
pub(super) struct Scratch {
    /// values reached, and rare values still looked for
    seen: Vec<u8>,
    need: Vec<u8>,
    /// the second thread's table of values reached, and the rare piles' ranges to mark (with
    /// where their partners are stored from)
    other: Vec<u8>,
    jobs: Vec<(std::ops::Range<usize>, usize)>,
    /// the ranges of rare parts that every way to split pairs (see `plan_together`)
    together: Vec<Range<usize>>,
    /// the ways to split of the pile at hand, and where each one's scan stands
    sources: Vec<Source>,
    next: Vec<usize>,
    /// where each way to split's scan up from the smallest parts stands
    low: Vec<usize>,
    /// `partners[v]`: common values c whose holders to try for the missing value v, best first
    /// (c XOR v the most frequent), made when first needed after each recount: which ones
    /// depends on when they were made, so each pile of a pair keeps its own (see
    /// `HeapKernel`'s pairs)
    partners: Vec<Option<Vec<u32>>>,
}

impl Scratch {
    fn memory_bytes(&self) -> usize {
        let partners: usize = self.partners.iter().map(|p| p.as_ref().map_or(0, |p| p.capacity() * 4) + 24).sum();
        partners + self.seen.capacity() + self.need.capacity()
    }

    /// Finds the common values whose holders are likeliest to pair with a pile of value c XOR
    /// `v`, unless known since the last recount: the `PARTNERS_TRIED` common values c with a
    /// holder whose c XOR v was counted most often, the larger c first among equal counts.
    fn make_partners(&mut self, shared: &Shared, v: usize) {
        if self.partners[v].is_none() {
            // The values counted, the most frequent first, a run of equal counts at a time:
            // each run's partners in decreasing order, until enough are found. (Every value
            // counted and v are below the tables' size, a power of two: so is their XOR.)
            let usable = |c: usize| shared.class[c] != 0 && !shared.holders[c].is_empty();
            let mut chosen = Vec::with_capacity(PARTNERS_TRIED);
            let mut run = Vec::new();
            let mut rest = &shared.by_count[..];
            while let (Some(&first), true) = (rest.first(), chosen.len() < PARTNERS_TRIED) {
                let count = shared.counted[first as usize];
                let length = rest.iter().position(|&x| shared.counted[x as usize] != count).unwrap_or(rest.len());
                run.clear();
                run.extend(rest[..length].iter().map(|&x| x ^ v as u32).filter(|&c| usable(c as usize)));
                run.sort_unstable_by(|a, b| b.cmp(a));
                chosen.extend(run.iter().take(PARTNERS_TRIED - chosen.len()));
                rest = &rest[length..];
            }
            self.partners[v] = Some(chosen);
        }
    }

    /// Forgets the partners made since the last recount, and makes room for `size` values.
    fn forget_partners(&mut self, size: usize) {
        self.partners.clear();
        self.partners.resize(size, None);
    }
}

impl Sparse {
    /// The bytes its tables hold, but for `other`, which only a second thread fills, and the
    /// scratch of a pair's second pile, which the second thread holds when there is one (see
    /// `HeapKernel::memory_bytes`).
    pub(super) fn memory_bytes(&self) -> u64 {
        let s = &self.shared;
        let holders: usize = s.holders.iter().map(|h| h.capacity() * 4 + 24).sum();
        let lists = (s.rare.capacity()
            + s.rare_value.capacity()
            + s.counting.capacity()
            + s.counted.capacity()
            + s.by_count.capacity())
            * 4;
        (holders + lists + s.class.capacity() + self.scratch.memory_bytes()) as u64
    }

    pub(super) fn new(mask: u32, parity: [u32; 2]) -> Self {
        let mut s = Sparse {
            shared: Shared {
                mask,
                parity,
                rare: Vec::new(),
                rare_value: Vec::new(),
                class: Vec::new(),
                holders: Vec::new(),
                counting: Vec::new(),
                counted: Vec::new(),
                by_count: Vec::new(),
                since_recount: 0,
            },
            choice: WitnessChoice::default(),
            scratch: Scratch::default(),
            beside: Scratch::default(),
        };
        s.grow(0);
        s
    }

    /// The witness search's choice, for a checkpoint.
    pub(super) fn witness_choice(&self) -> WitnessChoice {
        self.choice
    }

    /// Restores the witness search's choice from a checkpoint.
    pub(super) fn set_witness_choice(&mut self, choice: WitnessChoice) {
        self.choice = choice;
    }

    /// Whether pile n's search for witnesses tries the holders first (see `WitnessChoice`):
    /// asked of every pile before it is computed, whether its search comes to that or not.
    pub(super) fn targeted(&mut self, n: u64) -> bool {
        self.choice.targeted(n)
    }

    /// Counts what pile n's search for witnesses cost, the way `targeted` said it went.
    pub(super) fn record(&mut self, targeted: bool, cost: u64) {
        self.choice.record(targeted, cost);
    }

    /// The pile sizes with a rare value, increasing, and their values.
    pub(super) fn rare_piles(&self) -> (&[u32], &[u32]) {
        (&self.shared.rare, &self.shared.rare_value)
    }

    /// The classes it sorts values into.
    pub(super) fn classes(&self) -> Classes {
        Classes { mask: self.shared.mask, parity: self.shared.parity }
    }

    /// Makes the tables hold every XOR of values up to `largest`, and one more value.
    fn grow(&mut self, largest: u32) {
        let size = (largest.max(1) + 1).next_power_of_two() as usize * 2;
        let s = &mut self.shared;
        if s.class.len() < size {
            let classes = Classes { mask: s.mask, parity: s.parity };
            let class_of = |v: u32| classes.common(v, 0) as u8 | (classes.common(v, 1) as u8) << 1;
            s.class = (0..size as u32).map(class_of).collect();
            s.holders.resize(size, Vec::new());
            s.counting.resize(size, 0);
            s.counted.resize(size, 0);
            self.scratch.forget_partners(size);
            self.beside.forget_partners(size);
        }
    }

    pub(super) fn add(&mut self, n: u32, value: u32) {
        // The tables hold twice the next power of two past every value: only a value past half
        // of them grows them.
        if value as usize >= self.shared.class.len() / 2 {
            self.grow(value);
        }
        let s = &mut self.shared;
        if !(Classes { mask: s.mask, parity: s.parity }.common(value, n as u64)) {
            s.rare.push(n);
            s.rare_value.push(value);
        }
        let holders = &mut s.holders[value as usize];
        if holders.len() < HOLDERS_PER_VALUE {
            holders.push(n);
        }
        s.counting[value as usize] += 1;
        s.since_recount += 1;
        if s.since_recount == RECOUNT_EVERY {
            s.since_recount = 0;
            std::mem::swap(&mut s.counting, &mut s.counted);
            let counted = &s.counted;
            s.by_count.clear();
            s.by_count.extend((0..counted.len() as u32).filter(|&x| counted[x as usize] > 0));
            s.by_count.sort_unstable_by(|&a, &b| counted[b as usize].cmp(&counted[a as usize]));
            s.counting.iter_mut().for_each(|c| *c = 0);
            let size = s.class.len();
            self.scratch.forget_partners(size);
            self.beside.forget_partners(size);
        }
    }
}
impl Classes {
    /// The method's tables for these classes, holding piles 0..values.len().
    pub(super) fn sparse(self, values: &Values) -> Sparse {
        let mut sparse = Sparse::new(self.mask, self.parity);
        for n in 0..values.len() {
            sparse.add(n as u32, values.get(n));
        }
        sparse
    }
}

/// The Walsh–Hadamard transform of counts indexed by value: at each mask, how many counted
/// values share an even number of bits with it less how many share an odd number.
fn walsh_hadamard(counts: Vec<usize>) -> Vec<i64> {
    let mut w: Vec<i64> = counts.into_iter().map(|c| c as i64).collect();
    let mut half = 1;
    while half < w.len() {
        for block in w.chunks_exact_mut(2 * half) {
            let (low, high) = block.split_at_mut(half);
            for (a, b) in low.iter_mut().zip(high) {
                (*a, *b) = (*a + *b, *a - *b);
            }
        }
        half *= 2;
    }
    w
}

/// The mask and domain parities under which the fewest recent pile sizes have a rare value, if
/// few enough do. `split_takes` are the amounts after which a pile may split in two; the
/// parities must make every XOR of two common parts rare for the pile split, whatever the
/// domains of the parts.
pub(super) fn choose_classes(values: &Values, split_takes: &[u64], takes_known: bool) -> Option<Classes> {
    classes_with_share(values, split_takes, takes_known, Some(SPARSE_MAX_RARE_SHARE))
}

/// The classes that leave the fewest of all the values rare, however many that is: the rare
/// values a run's figures count (Czajka's 52,923 of 0.06's first 2¹⁷, too many for the method).
pub(super) fn fewest_rare_classes(values: &Values, split_takes: &[u64], takes_known: bool) -> Option<Classes> {
    classes_with_share(values, split_takes, takes_known, None)
}

/// With `max_share`, the classes with the fewest rare values among the recent half (if at most
/// that share of it), ties broken by the older half: what the method computes with. Without,
/// the classes with the fewest rare values of all.
fn classes_with_share(
    values: &Values,
    split_takes: &[u64],
    takes_known: bool,
    max_share: Option<f64>,
) -> Option<Classes> {
    let len = values.len();
    let largest = (0..len).map(|n| values.get(n)).max().unwrap_or(0);
    // The method's tables hold values below 2^12; the figures' count of rare values looks at
    // masks of up to 16 bits (0.06 passes 4,095 at about 2^21 values).
    let most = if max_share.is_some() { 1 << 12 } else { 1 << 16 };
    if largest >= most || len > u32::MAX as usize {
        return None;
    }
    let bits = 32 - largest.leading_zeros();
    // Histograms of the recent half and of the older half, by domain.
    let mut histogram = [vec![0usize; 1 << bits], vec![0usize; 1 << bits]];
    let mut older = [vec![0usize; 1 << bits], vec![0usize; 1 << bits]];
    for n in 0..len {
        let h = if n >= len / 2 { &mut histogram } else { &mut older };
        h[n & 1][values.get(n) as usize] += 1;
    }
    let recent = len - len / 2;
    // The parities allowed: (1, 1) always (two odd parts XOR to an even value); others only
    // when every split take is known and each respects them.
    let allowed = |p: [u32; 2]| {
        p == [1, 1]
            || (takes_known
                && split_takes.iter().all(|&t| {
                    (0..2).all(|da: u64| {
                        (0..2).all(|db: u64| p[da as usize] ^ p[db as usize] != p[((da + db + t) % 2) as usize])
                    })
                }))
    };
    let parities: Vec<[u32; 2]> = [[1, 1], [0, 1], [1, 0], [0, 0]].into_iter().filter(|&p| allowed(p)).collect();
    // Per domain, how many values of a histogram have an even and an odd share of the mask,
    // for every mask at once: the Walsh–Hadamard transform of the histogram gives, at each
    // mask, the count of even shares less the count of odd ones.
    let spectra = |h: &[Vec<usize>; 2]| h.clone().map(|h| (h.iter().sum::<usize>() as i64, walsh_hadamard(h)));
    let (recent_spectra, older_spectra) = (spectra(&histogram), spectra(&older));
    let by_parity = |spectra: &[(i64, Vec<i64>); 2], mask: u32| {
        spectra.each_ref().map(|(total, w)| {
            let even = ((total + w[mask as usize]) / 2) as usize;
            [even, *total as usize - even]
        })
    };
    // Rare: the values whose parity is not the domain's common one.
    let rare = |counts: [[usize; 2]; 2], p: [u32; 2]| counts[0][(1 - p[0]) as usize] + counts[1][(1 - p[1]) as usize];
    // Fewest rare among the recent values, and on a tie among the older ones too: masks that
    // differ only on values seen rarely so far tie on the recent half (0.16 at 4096: masks 0x0e
    // and 0x1e, which leave 1,967 and 53 piles rare of the first 509,622).
    let (mut best_mask, mut best_parity, mut best_rare) = (0u32, [1, 1], (usize::MAX, usize::MAX));
    for mask in 1..(1u32 << bits) {
        let (recent_counts, older_counts) = (by_parity(&recent_spectra, mask), by_parity(&older_spectra, mask));
        for &p in &parities {
            let found = match max_share {
                Some(_) => (rare(recent_counts, p), rare(older_counts, p)),
                None => (rare(recent_counts, p) + rare(older_counts, p), 0),
            };
            if found < best_rare {
                (best_mask, best_parity, best_rare) = (mask, p, found);
            }
        }
    }
    let best_rare = best_rare.0;
    if max_share.is_some_and(|share| best_rare as f64 > share * recent as f64) {
        return None;
    }
    // Values grow slowly past those seen so far: their higher bits count like the highest seen.
    let high = !((1u32 << bits) - 1);
    let top = 1u32 << (bits - 1);
    let mask = if best_mask & top != 0 { best_mask | high } else { best_mask };
    Some(Classes { mask, parity: best_parity })
}
/// One pile's part of the method: the tables it shares with the pile computed beside it, its
/// own scratch, and the way its search for witnesses goes (`Sparse::targeted`, asked before
/// the pile is computed); what that search cost comes back in `searched`, for `Sparse::record`
/// once the pile is added.
pub(super) struct PileSparse<'a> {
    pub(super) shared: &'a Shared,
    pub(super) scratch: &'a mut Scratch,
    pub(super) targeted: bool,
    pub(super) searched: Option<(bool, u64)>,
}

#[allow(clippy::too_many_arguments)] // the kernel's parts, borrowed apart
#[inline(never)]
pub(super) fn sparse_value<T: Slot>(
    g: &[T],
    n: u64,
    reach: Reach,
    rules: &HeapRules,
    marks: &mut Marks,
    sparse: &mut PileSparse,
    threads: Parallel,
    ahead: Option<PileAhead>,
    work: &mut u64,
) -> Option<u32> {
    let splits = || rules.two.iter().filter(move |(t, f)| t + 2 <= n && f & (TWO_ANY | TWO_UNEQUAL) != 0);
    let dropped = reach.dropped();
    // Byte tables rather than bits: the stores do not depend on each other, and the scan below
    // tests a pair with two loads and no unpredictable branch.
    let Shared { rare, rare_value, class, .. } = sparse.shared;
    let Scratch { seen, need, other, jobs, together, .. } = &mut *sparse.scratch;
    let size = class.len();
    seen.clear();
    seen.resize(size, 0);
    marks.each_marked(|v| {
        if let Some(s) = seen.get_mut(v as usize) {
            *s = 1;
        }
    });
    // The options the second thread marked ahead (see `ahead`).
    if let Some(ahead) = ahead {
        for (s, a) in seen.iter_mut().zip(ahead.table) {
            *s |= a;
        }
        *work += ahead.witnessed.map_or(0, |s| s.work);
    }
    // Every option with a rare part: first the ranges of rare piles to pair, then the marks.
    jobs.clear();
    together.clear();
    // (Not below `first`: the rare parts 0 before it pair with nothing.)
    let first = usize::from(rare.first() == Some(&0));
    // Without a window or the second thread, on one thread, the rare parts that every way to
    // split pairs are marked in one pass for all of them (see `plan_together`).
    let planned = match (dropped, ahead) {
        (0, None) => match rules.ways {
            Some(ways) => plan_together(rare, n, first, ways, threads, together, jobs, work),
            None => None,
        },
        _ => None,
    };
    for &(t, f) in splits().filter(|_| planned.is_none()) {
        let rest = (n - t) as usize;
        let count = rare_below(rare, rest);
        let middle = middle_of(rare, rest, f & TWO_ANY == 0);
        // The rare parts the second thread marked, if it did: every one whose partner is stored
        // is, between these two.
        let (marked_from, marked_to) = match ahead {
            Some(ahead) => {
                let (lo, hi) = marked_ahead(rest, ahead.known);
                (rare_below(rare, lo), rare_below(rare, hi))
            }
            None => (count, count),
        };
        if dropped == 0 {
            // Every partner is stored, at rest − r: the common case, whose few ranges are worth
            // sparing the window's searches.
            push_jobs(jobs, first..count.min(marked_from), rest, middle);
            push_jobs(jobs, first.max(marked_to)..count, rest, middle);
            *work += count as u64;
            continue;
        }
        // Every part's partner must be stored, those the second thread marked too: it gives up
        // the ones whose partner was dropped, and so does this pile.
        for (range, top) in stored_partners(rare, rest, first..count, reach)? {
            push_jobs(jobs, range.start..range.end.min(marked_from), top, middle);
            push_jobs(jobs, range.start.max(marked_to)..range.end, top, middle);
        }
        *work += count as u64;
    }
    let options: usize = jobs.iter().map(|(range, _)| range.len()).sum();
    if let Some(planned) = planned {
        planned.mark(g, rare, rare_value, together, seen);
        mark_rare(g, rare, rare_value, jobs, 0..options, seen);
    } else if threads.share(options * 2) {
        // A rare option costs a random load, about twice a plain pair: each thread marks half
        // of the options into a table of its own.
        other.clear();
        other.resize(size, 0);
        let half = options / 2;
        let (rare, rare_value, jobs) = (&rare[..], &rare_value[..], &jobs[..]);
        rayon::join(
            || mark_rare(g, rare, rare_value, jobs, 0..half, seen),
            || mark_rare(g, rare, rare_value, jobs, half..options, other),
        );
        for (s, o) in seen.iter_mut().zip(other.iter()) {
            *s |= o;
        }
    } else {
        mark_rare(g, rare, rare_value, jobs, 0..options, seen);
    }
    jobs.clear();
    let (candidate, mut missing) = least_common_unseen(seen, class, need, n);
    if missing == 0 {
        return Some(candidate as u32);
    }
    let complete = ahead.and_then(|a| Some((a.witnessed?, a))).filter(|(s, _)| candidate <= s.below as usize);
    if let Some((_, ahead)) = complete {
        // The search ahead looked at every pair of parts from `ahead_range` for each value
        // missing (all below its `below`): the pairs left are the stored ones outside it, which
        // pair the smallest parts with the latest piles (and in a window, the prefix's last
        // parts with piles below the floor).
        for &(t, f) in splits() {
            let rest = (n - t) as usize;
            let (low, high) = ahead_range(rest, f, ahead.known, ahead.floor, reach);
            let mut stored = if f & TWO_ANY == 0 { (rest - 1) / 2 } else { rest / 2 };
            if dropped > 0 {
                stored = stored.min(reach.prefix - 1).min(rest.saturating_sub(reach.base));
            }
            let right = rest - dropped;
            for (mut a, stop) in [(1, low.min(stored + 1)), (low.max(high + 1), stored + 1)] {
                if a < stop && scan_pairs_up(g, right, &mut a, stop, need, &mut missing, work) {
                    return Some(candidate as u32);
                }
            }
        }
        // A value still missing has no option: the least is the answer. In a window, a pile
        // the prefix does not hold may still give one, with a partner among the recent piles:
        // the first piles of each value are kept as holders, which the search below tries.
        if dropped == 0 {
            return Some(need[..candidate].iter().position(|&x| x != 0).unwrap_or(candidate) as u32);
        }
    }
    // Options with two common parts reach rare values: look for the missing ones. Every option
    // with a rare part was marked above, so a missing value found here came from two common
    // parts. First a short scan, which finds the values many pairs reach: up from the smallest
    // parts, whose values are the most varied (0.676, whose values after its first 511 piles
    // repeat with period 442, has its witnesses there: proving its period took 149 million
    // instructions from the middle alone, 68 million so), then down from the middle, where
    // both parts are large (0.36 finds most there). In a window, the smaller part is one of
    // the prefix and the larger a recent pile.
    search_common_pairs(g, n, candidate, missing, (reach, rules), sparse, work)
}

/// The least value not seen among the options that is a common value of this pile's parity
/// (`class`), and the values below it not seen, marked in `need`, and their count.
#[inline]
fn least_common_unseen(seen: &[u8], class: &[u8], need: &mut Vec<u8>, n: u64) -> (usize, usize) {
    // The answer is this common value unless a rare value below it is missing.
    let domain = 1u8 << (n & 1);
    // A value's classes if it was not seen, none if it was: it is open when they hold the
    // pile's domain.
    let unseen_classes = |s: u8, c: u8| c & 0u8.wrapping_sub(u8::from(s == 0));
    let open = |s: u8, c: u8| unseen_classes(s, c) & domain != 0;
    // Whole runs of values first, with no branch a value (the answer is some hundreds on): their
    // unseen classes OR-ed together in bytes (which vectorizes) hold the domain when one is open.
    let mut candidate = 0;
    for (s, c) in seen.chunks_exact(RUN).zip(class.chunks_exact(RUN)) {
        if s.iter().zip(c).fold(0u8, |any, (&s, &c)| any | unseen_classes(s, c)) & domain != 0 {
            break;
        }
        candidate += RUN;
    }
    while !open(seen[candidate], class[candidate]) {
        candidate += 1;
    }
    need.clear();
    need.resize(class.len(), 0);
    let mut missing = 0;
    for (needed, &s) in need[..candidate].iter_mut().zip(&seen[..candidate]) {
        *needed = u8::from(s == 0);
        missing += usize::from(*needed);
    }
    (candidate, missing)
}

/// Values `least_common_unseen` looks at together.
const RUN: usize = 32;

/// Looks among options of two common parts for the `missing` values below `candidate` (see
/// `find_witnesses`), with each way to split pile `n` as a source of pairs.
#[inline]
fn search_common_pairs<T: Slot>(
    g: &[T],
    n: u64,
    candidate: usize,
    missing: usize,
    (reach, rules): (Reach, &HeapRules),
    sparse: &mut PileSparse,
    work: &mut u64,
) -> Option<u32> {
    let dropped = reach.dropped();
    let splits = rules.two.iter().filter(move |(t, f)| t + 2 <= n && f & (TWO_ANY | TWO_UNEQUAL) != 0);
    let mut sources = std::mem::take(&mut sparse.scratch.sources);
    let mut next = std::mem::take(&mut sparse.scratch.next);
    sources.clear();
    sources.extend(splits.map(|&(t, f)| {
        let rest = (n - t) as usize;
        let top = if f & TWO_ANY == 0 { (rest - 1) / 2 } else { rest / 2 };
        let stored = if dropped == 0 { top } else { top.min(reach.prefix - 1).min(rest.saturating_sub(reach.base)) };
        Source { rest, top, stored, right: rest - dropped, below: rest.saturating_sub(reach.base) }
    }));
    next.clear();
    next.extend(sources.iter().map(|s| s.stored));
    let found = find_witnesses(g, candidate, dropped, sparse, &sources, &mut next, missing, work);
    sparse.scratch.sources = sources;
    sparse.scratch.next = next;
    found
}

/// With `missing` rare values below `candidate` not reached by options with a rare part: the
/// candidate if pairs of common parts reach them all, else the smallest one they miss (`None`
/// when a window dropped piles that might reach it).
#[allow(clippy::too_many_arguments)]
fn find_witnesses<T: Slot>(
    g: &[T],
    candidate: usize,
    dropped: usize,
    sparse: &mut PileSparse,
    sources: &[Source],
    next: &mut [usize],
    mut missing: usize,
    work: &mut u64,
) -> Option<u32> {
    let mut low = std::mem::take(&mut sparse.scratch.low);
    low.clear();
    low.resize(sources.len(), 1);
    let mut budget = SHORT_SCAN / 2;
    for ((source, a), lo) in sources.iter().zip(next.iter_mut()).zip(low.iter_mut()) {
        let start = *lo;
        let stop = (start + budget).min(*a + 1);
        if scan_pairs_up(g, source.right, lo, stop, &mut sparse.scratch.need, &mut missing, work) {
            sparse.scratch.low = low;
            return Some(candidate as u32);
        }
        budget = budget.saturating_sub(*lo - start);
    }
    let mut budget = SHORT_SCAN / 2;
    for ((source, a), &lo) in sources.iter().zip(next.iter_mut()).zip(low.iter()) {
        let start = *a;
        if scan_pairs(
            g,
            source.right,
            a,
            start.saturating_sub(budget).max(lo),
            &mut sparse.scratch.need,
            &mut missing,
            work,
        ) {
            sparse.scratch.low = low;
            return Some(candidate as u32);
        }
        budget = budget.saturating_sub(start - *a);
    }
    // Each way to split has its pairs from `low` to `next` left. In a window the scan cannot
    // reach the dropped piles, and the holders are what spares starting again: there the
    // targeted search always goes first.
    let targeted = dropped > 0 || sparse.targeted;
    let (before, mut holders) = (*work, 0);
    let found = search_left(g, candidate, dropped, sparse, sources, next, &low, missing, targeted, &mut holders, work);
    if dropped == 0 {
        let pairs = *work - before - holders;
        sparse.searched = Some((targeted, pairs + holders * HOLDER_COST));
    }
    sparse.scratch.low = low;
    found
}

/// The search after the short scan: the targeted search first if `targeted` (counting the
/// holders it tries in `holders`), then the rest of the scan.
#[allow(clippy::too_many_arguments)]
fn search_left<T: Slot>(
    g: &[T],
    candidate: usize,
    dropped: usize,
    sparse: &mut PileSparse,
    sources: &[Source],
    next: &mut [usize],
    low: &[usize],
    mut missing: usize,
    targeted: bool,
    holders: &mut u64,
    work: &mut u64,
) -> Option<u32> {
    // The values still missing are reached by few pairs, and mostly through a scarce value:
    // go straight to the pile sizes holding the partner values likeliest to give them. A
    // holder tried costs a few pairs of the scan, and a value no pair reaches (the pile's own
    // rare value) is tried in vain: the search gives way to the scan once it has tried a
    // quarter as many holders as the scan has pairs left (in a window, never).
    let pairs_left: usize = next.iter().zip(low).map(|(&a, &lo)| (a + 1).saturating_sub(lo)).sum();
    let allowed = match (targeted, dropped) {
        (false, _) => 0,
        (true, 0) => pairs_left / TARGETED_SHARE,
        (true, _) => usize::MAX,
    };
    let mut holders_left = allowed;
    for v in 0..candidate {
        if sparse.scratch.need[v] == 0 {
            continue;
        }
        if holders_left == 0 {
            break;
        }
        sparse.scratch.make_partners(sparse.shared, v);
        let found = targeted_witness(g, v as u32, sources, sparse, &mut holders_left, work);
        if found {
            sparse.scratch.need[v] = 0;
            missing -= 1;
        }
        if found && missing == 0 {
            break;
        }
    }
    *holders += (allowed - holders_left) as u64;
    if missing == 0 {
        return Some(candidate as u32);
    }
    // The rest of the scan, up from where the short scan up stopped: the smallest parts pair
    // with the latest piles, whose values are the most varied (0.564 to 2^17, scanning up with
    // no holders: 0.88 billion pairs, against 3.12 billion pairs and holders with the holders
    // first and the rest down from the middle). It ends the search either way when every pile
    // is stored.
    let need = &mut sparse.scratch.need;
    for ((source, a), &lo) in sources.iter().zip(next.iter_mut()).zip(low) {
        let mut up = lo;
        if scan_pairs_up(g, source.right, &mut up, *a + 1, need, &mut missing, work) {
            return Some(candidate as u32);
        }
    }
    if dropped > 0 {
        // The pairs through dropped piles might reach the missing value.
        return None;
    }
    // Some rare value below the candidate has no option: it is the answer.
    Some(need.iter().position(|&x| x != 0).expect("a value is still missing") as u32)
}

/// Whether the search for witnesses tries holders before the rest of the scan: some games'
/// missing values are reached through a few scarce values, which the holders find at once
/// (0.376), others' by many pairs of the smallest parts with the latest piles, where the
/// holders are tried in vain (0.564, 0.416: up to eleven times the scan's cost). Every pile
/// goes the way chosen but the first `CHOICE_SAMPLE` of each stretch of `CHOICE_EVERY`,
/// which go the other; at each new stretch the way whose piles cost less on average is
/// chosen, from the costs so far, halved at each stretch so that the recent ones weigh most.
/// The choice depends on the work counted alone, so every run makes the same ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WitnessChoice {
    /// the stretch the costs run to
    stretch: u64,
    /// whether the piles outside the sample try the holders first
    targeted: bool,
    /// what the search cost on the piles that went each way (without holders, with them),
    /// and how many piles went
    cost: [u64; 2],
    piles: [u64; 2],
}

impl Default for WitnessChoice {
    fn default() -> Self {
        WitnessChoice { stretch: 0, targeted: true, cost: [0; 2], piles: [0; 2] }
    }
}

impl WitnessChoice {
    /// Whether pile n tries the holders first.
    fn targeted(&mut self, n: u64) -> bool {
        let stretch = n / CHOICE_EVERY;
        if stretch != self.stretch {
            self.stretch = stretch;
            if self.piles.iter().all(|&p| p > 0) {
                // The average costs, compared without dividing: the other way must cost a
                // quarter less, so that ways costing about the same do not swap on the noise
                // of a small sample (0.376's choice swapped once so: 9% more instructions to 2^17).
                let with = u128::from(self.cost[1]) * u128::from(self.piles[0]);
                let without = u128::from(self.cost[0]) * u128::from(self.piles[1]);
                let (chosen, other) = if self.targeted { (with, without) } else { (without, with) };
                if 4 * other < 3 * chosen {
                    self.targeted = !self.targeted;
                }
            }
            self.cost = self.cost.map(|c| c / 2);
            self.piles = self.piles.map(|p| p / 2);
        }
        self.targeted != (n % CHOICE_EVERY < CHOICE_SAMPLE)
    }

    fn record(&mut self, targeted: bool, cost: u64) {
        self.cost[usize::from(targeted)] += cost;
        self.piles[usize::from(targeted)] += 1;
    }

    /// The choice as numbers, for a checkpoint.
    pub(crate) fn to_words(self) -> [u64; 6] {
        let [c0, c1] = self.cost;
        let [p0, p1] = self.piles;
        [self.stretch, u64::from(self.targeted), c0, c1, p0, p1]
    }

    /// The choice from `to_words`.
    pub(crate) fn from_words([stretch, targeted, c0, c1, p0, p1]: [u64; 6]) -> Self {
        WitnessChoice { stretch, targeted: targeted != 0, cost: [c0, c1], piles: [p0, p1] }
    }
}

/// One way to split: the pairs (a, rest − a) for a from 1 to `top`.
struct Source {
    rest: usize,
    top: usize,
    /// the largest a whose pair is stored
    stored: usize,
    /// where pile rest − a is stored is `right − a`
    right: usize,
    /// the largest smaller part whose partner is stored (a window's recent piles)
    below: usize,
}

/// Looks for one pair of parts reaching the rare value `v`, among the pile sizes that hold the
/// partner values likeliest to give it. Finding none proves nothing: the full scan decides.
fn targeted_witness<T: Slot>(
    g: &[T],
    v: u32,
    sources: &[Source],
    sparse: &PileSparse,
    holders_left: &mut usize,
    work: &mut u64,
) -> bool {
    let partners = sparse.scratch.partners[v as usize].as_deref().unwrap_or_default();
    for &c in partners {
        let want = c ^ v;
        let holders = &sparse.shared.holders[c as usize];
        for source in sources {
            // Parts p from 1 up to rest − 1 whose partner is stored; an unequal split leaves out
            // the middle, where the smaller part would pass `top`.
            let last = (source.rest - 1).min(source.below);
            let middle = if 2 * source.top + 1 < source.rest { source.rest / 2 } else { usize::MAX };
            if try_holders(g, holders, (1, last), middle, (source.right, want), holders_left, work) {
                return true;
            }
            if *holders_left == 0 {
                return false;
            }
        }
    }
    false
}

/// Tries the holders p with `low` ≤ p ≤ `high` as a part, but `skip`, at most `*holders_left`
/// of them: true once the partner of one, stored at `right` − p, has the value `want`.
fn try_holders<T: Slot>(
    g: &[T],
    holders: &[u32],
    (low, high): (usize, usize),
    skip: usize,
    (right, want): (usize, u32),
    holders_left: &mut usize,
    work: &mut u64,
) -> bool {
    let (start, end) =
        (holders.partition_point(|&p| (p as usize) < low), holders.partition_point(|&p| p as usize <= high));
    let tried = &holders[start..end.max(start)];
    let tried = &tried[..tried.len().min(*holders_left)];
    let found = tried.iter().position(|&p| p as usize != skip && g[right - p as usize].value() == want);
    let examined = found.map_or(tried.len(), |i| i + 1);
    *work += examined as u64;
    *holders_left -= examined;
    found.is_some()
}

#[cfg(test)]
mod tests {
    use super::{fewest_rare_classes, walsh_hadamard, Values, WitnessChoice, CHOICE_EVERY, CHOICE_SAMPLE};
    use super::{Classes, PARTNERS_TRIED, RECOUNT_EVERY};

    /// The partners made from the values in order of their counts are those of the definition:
    /// of the common values c with a holder, the `PARTNERS_TRIED` whose c XOR v was counted
    /// most often, the larger c first among equal counts (values with many equal counts, a
    /// few more frequent, after one recount and after two).
    #[test]
    fn the_partners_of_a_missing_value_are_the_most_frequent_pairings() {
        let value = |n: u32| if n.is_multiple_of(5) { (n / 5) % 16 } else { (n * n * 31 + n * 7) % 251 };
        for recounts in [1, 2] {
            let mut values = Values::default();
            for n in 0..recounts * RECOUNT_EVERY + 100 {
                values.push(value(n));
            }
            let mut sparse = Classes { mask: 0x5, parity: [1, 1] }.sparse(&values);
            let shared = &sparse.shared;
            let size = shared.class.len();
            let mut ties = 0;
            for v in 0..size {
                let mut by_definition: Vec<(u32, u32)> = (0..size)
                    .filter(|&c| shared.class[c] != 0 && !shared.holders[c].is_empty())
                    .map(|c| (shared.counted[c ^ v], c as u32))
                    .filter(|&(count, _)| count > 0)
                    .collect();
                by_definition.sort_unstable_by(|a, b| b.cmp(a));
                by_definition.truncate(PARTNERS_TRIED);
                ties += by_definition.windows(2).filter(|w| w[0].0 == w[1].0).count();
                sparse.scratch.make_partners(shared, v);
                let made = sparse.scratch.partners[v].clone().expect("partners made");
                let expected: Vec<u32> = by_definition.iter().map(|&(_, c)| c).collect();
                assert_eq!(made, expected, "value {v} after {recounts} recounts");
            }
            assert!(ties > 1000, "equal counts are broken by the value: {ties}");
        }
    }

    /// The figures count rare values past 4,095 too: odd values common, every 97th pile's
    /// value even, values up to 16,382 (above the method's own limit of 2^12).
    #[test]
    fn the_figures_count_rare_values_among_wide_values() {
        let mut values = Values::default();
        for n in 0..8192u32 {
            values.push(if n % 97 == 0 { 2 * n } else { 2 * n + 1 });
        }
        let classes = fewest_rare_classes(&values, &[1], false).expect("classes for wide values");
        assert_eq!(classes.mask & 0x3fff, 1);
        assert_eq!(classes.rare_among(&values, 0..8192), 85);
    }

    /// Goes through the piles of stretch `stretch` as the search would, each way costing what
    /// `cost` says a pile, and returns the way most of the stretch went.
    fn run_stretch(choice: &mut WitnessChoice, stretch: u64, cost: impl Fn(bool) -> u64) -> bool {
        let mut targeted_piles = 0;
        for n in stretch * CHOICE_EVERY..(stretch + 1) * CHOICE_EVERY {
            let targeted = choice.targeted(n);
            targeted_piles += u64::from(targeted);
            choice.record(targeted, cost(targeted));
        }
        2 * targeted_piles > CHOICE_EVERY
    }

    /// The search starts with the holders, turns to the scan alone when it costs a quarter
    /// less on its sample piles, turns back when the holders do, and keeps its way between ways
    /// that cost about the same; the sample piles go the other way.
    #[test]
    fn the_witness_search_goes_the_way_that_costs_less() {
        let mut choice = WitnessChoice::default();
        assert!(!choice.targeted(0), "the first piles weigh the scan alone");
        assert!(choice.targeted(CHOICE_SAMPLE), "the others try the holders");
        let mut choice = WitnessChoice::default();
        assert!(run_stretch(&mut choice, 0, |t| if t { 100 } else { 30 }));
        assert!(!run_stretch(&mut choice, 1, |t| if t { 100 } else { 30 }), "the scan costs less");
        assert!(!run_stretch(&mut choice, 2, |t| if t { 90 } else { 100 }), "about the same: kept");
        assert!(!run_stretch(&mut choice, 3, |t| if t { 90 } else { 100 }), "still about the same");
        for stretch in 4..8 {
            run_stretch(&mut choice, stretch, |t| if t { 20 } else { 100 });
        }
        assert!(run_stretch(&mut choice, 8, |t| if t { 20 } else { 100 }), "the holders cost less again");
        let words = choice.to_words();
        assert_eq!(WitnessChoice::from_words(words), choice, "a checkpoint keeps the choice");
    }

    /// At each mask, the transform is the count of values sharing an even number of bits with
    /// it less the count sharing an odd number, as counted one value at a time.
    #[test]
    fn the_transform_counts_even_less_odd_shares_of_every_mask() {
        let counts: Vec<usize> = (0..64usize).map(|v| (v * 37 + 11) % 17).collect();
        let w = walsh_hadamard(counts.clone());
        for mask in 0..64u32 {
            let direct: i64 = counts
                .iter()
                .enumerate()
                .map(|(v, &c)| if (v as u32 & mask).count_ones().is_multiple_of(2) { c as i64 } else { -(c as i64) })
                .sum();
            assert_eq!(w[mask as usize], direct, "mask {mask:#x}");
        }
    }
}
