//! The kernel's state: its values, its method and their tables, pile after pile; a pile's own
//! value is found in `mex`, and piles computed two at a time in `paired`.

use super::ahead::{make_here, Ahead, Want, AHEAD_FROM, AHEAD_PILES, AHEAD_RARE_FROM};
use super::classes::Classes;
use super::mex::{next_value, plain_splits, scan_ahead};
use super::pair::PairThread;
use super::sparse::{choose_classes, fewest_rare_classes, PileSparse, Sparse, WitnessChoice};
use super::values::{set_bit, with_slots, Marks, Parallel, Reach, Values, PARALLEL_PAIRS};
use super::*;

mod paired;
use paired::{Asked, Computed, Stretch};
#[cfg(test)]
mod shared_tests;

/// Computes single-pile values with the compiled rules.
///
/// Where no move from pile n + 1 leaves a heap of n (`HeapRules::pairs_piles`: 0.564, 0.16),
/// pile n + 1 needs only the values below n, and piles are computed two at a time: the even
/// one here, the odd one on a second thread (`pair`) when there is one. Under the plain scan,
/// which reads only the values, that is all. The sparse-space method also reads its tables,
/// which change as each value is added, and its choice between two ways of searching: there
/// every pile is computed from the tables as they are with the values below it less one, and
/// with one thread as with two, so that the work counted (and with it every choice the method
/// makes) never depends on the threads. Each thread then needs only the other's pile before
/// its own last: while this one computes pile n + 1, the second computes n + 2 (from its own
/// copy of the tables), and one waits for the other only when the other falls more than a pile
/// behind. The pairs start again from every value at each multiple of `PAIRS_MEET`, where the
/// tables and the choices may change. (0.564 to 2^17: 1.7 times as fast on two threads.) Up to
/// that multiple the second thread computes its piles as a stretch (`stretch`), with nothing
/// handed over a pile but the values and each pile's answer; in a run that asks for a window
/// they go over one at a time (`pair`). (0.161 to 2^22: 1.26 times as fast on two threads one
/// at a time, 1.5 times as a stretch.)
///
/// Where pile n + 1 reads pile n only as the one heap that taking 1 leaves (0.6), the
/// sparse-space method computes it without that option and settles it once pile n is known
/// (`defers_at`, `settled`): such rules pair their piles too (the second thread takes them in
/// stretches only), each thread settling its own piles. (0.6 to 2^22: 1.75 times as fast on two
/// threads, where marking its rare options a block ahead gave 1.5.)
pub(crate) struct HeapKernel {
    pub rules: HeapRules,
    values: Values,
    largest: u32,
    marks: Marks,
    sparse: Option<Sparse>,
    /// whether the sparse-space method was considered already
    sparse_tried: bool,
    /// Which sparse-space variants may be chosen.
    sparse_mode: SparseMode,
    /// Over the current block of piles under the sparse-space method: its work, and what the
    /// plain scan would have examined (to give the method up where it does not pay).
    block_work: u64,
    block_plain: u64,
    /// blocks running in which the method cost more than twice the plain scan
    dear_blocks: u32,
    /// the pile at which the method was last given up or tried again (0: neither yet)
    sparse_retried: u64,
    reach: Reach,
    /// how many recent values a window keeps at least (0: the whole table is kept)
    recent: usize,
    /// piles asked about whose values must outlive the window, and those computed
    /// (ordered: piles are computed in order, so only the first can be the one just computed)
    wanted: std::collections::BTreeSet<u64>,
    kept: Vec<(u64, u32)>,
    /// threads one pile's scan may use
    threads: usize,
    /// options of one pile from which a second thread shares them
    parallel_from: usize,
    /// the plain scan's block of piles prepared by all the threads at once
    block: Option<Block>,
    /// the sparse-space method's work ahead, made by a second thread or by this one
    ahead: Option<Ahead>,
    /// the first pile of the latest block of `AHEAD_PILES`, and the largest value below it
    block_largest: (u64, u32),
    /// piles computed in pairs (see `HeapKernel`): a value computed ahead of its turn, and the
    /// pile asked of the pair's second part, with that part's marks when this thread computes it
    computed_ahead: Option<Computed>,
    asked: Option<Asked>,
    beside_marks: Marks,
    /// the second thread of the pairs, once started, or whether it could not be
    pair_thread: Option<PairThread>,
    pair_thread_failed: bool,
    /// the stretch of piles the second thread computes the odd ones of, and the number of the
    /// values' buffer as the second thread knows it (see `stretch`)
    stretch: Option<Stretch>,
    stretch_epoch: u64,
    /// how many piles computed without pile n − 1's option took it as their value and were
    /// computed again on this thread (see `settled`), for the tests
    #[cfg(test)]
    settled_again: u64,
    /// whether the run asked for a window (`start_window`), now or later
    window_asked: bool,
    /// how many times the sparse-space method's tables were made (the pairs' second thread
    /// makes its copy again when this changes)
    sparse_generation: u64,
    /// the work of the latest piles, on average (each one weighing an eighth), and whether the
    /// pairs' second piles go to the second thread under the tables made the `pair_decided`-th
    pile_work: u64,
    pair_thread_on: bool,
    pair_decided: Option<u64>,
    /// the values of piles 1, 2, … computed so far, as a bitset: where a rule takes every amount
    /// (`take any`), these are the options its takes leave, read in words instead of pile by pile
    taken_any: Vec<u64>,
}

/// Piles whose splits with a part below `start` were scanned ahead, by all the threads at once:
/// no pile's value is needed for them, so the piles of a block are independent. `tables[i]`
/// (`size` bytes each) holds the values reached from pile start + i that way; the few splits
/// with a part in the block are added as each pile comes.
struct Block {
    start: u64,
    piles: u64,
    size: usize,
    tables: Vec<u8>,
}

/// Piles a block holds: one hand-over to the other thread per block.
const BLOCK_PILES: u64 = 64;
/// The most a block's tables may hold, in bytes.
const BLOCK_BYTES: usize = 1 << 22;
/// Pairs of parts a pile's plain scan must examine before blocks are scanned ahead: a block is
/// then 64 × 4096 pairs, far more than its hand-over costs. (Sharing one pile's scan, under
/// the sparse-space method, waits for `PARALLEL_PAIRS`.) From 2^15, the first thread's part
/// of 0.564 to 10^5 was 11% of the instructions; from 2^12 it is 5%.
const BLOCK_FROM_PAIRS: usize = 1 << 12;

/// What a kernel knows besides its values: all a checkpoint keeps for a resumed run to go on as
/// the uninterrupted one would (the sparse-space tables are rebuilt from the values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MethodState {
    pub sparse_tried: bool,
    /// the sparse-space method's mask and domain parities, while it is in use
    pub sparse: Option<(u32, [u32; 2])>,
    pub block_work: u64,
    pub block_plain: u64,
    pub dear_blocks: u32,
    /// the pile at which the method was last given up or tried again (0: neither yet)
    pub sparse_retried: u64,
    /// the witness search's choice between its two ways, and what each has cost
    pub witness_choice: WitnessChoice,
}

impl HeapKernel {
    pub(crate) fn new(rules: HeapRules) -> Self {
        HeapKernel {
            rules,
            values: Values::default(),
            largest: 0,
            marks: Marks::default(),
            sparse: None,
            sparse_tried: false,
            sparse_mode: SparseMode::Auto,
            block_work: 0,
            block_plain: 0,
            dear_blocks: 0,
            sparse_retried: 0,
            reach: Reach::WHOLE,
            recent: 0,
            wanted: Default::default(),
            kept: Vec::new(),
            threads: 1,
            parallel_from: PARALLEL_PAIRS,
            block: None,
            ahead: None,
            block_largest: (0, 0),
            computed_ahead: None,
            asked: None,
            beside_marks: Marks::default(),
            pair_thread: None,
            pair_thread_failed: false,
            stretch: None,
            stretch_epoch: 0,
            #[cfg(test)]
            settled_again: 0,
            window_asked: false,
            sparse_generation: 0,
            pile_work: 0,
            pair_thread_on: false,
            pair_decided: None,
            taken_any: Vec::new(),
        }
    }

    /// Shares a pile's scans with the other threads from this many options on (tests lower it,
    /// so that small piles take the parallel path too).
    pub(crate) fn set_parallel_from(&mut self, options: usize) {
        self.parallel_from = options;
    }

    /// A kernel that goes on from the values of piles 0..values.len() and the method it used
    /// (from a checkpoint).
    pub(crate) fn resume(rules: HeapRules, values: Values, method: MethodState) -> Self {
        let mut kernel = HeapKernel::new(rules);
        kernel.largest = (0..values.len()).map(|n| values.get(n)).max().unwrap_or(0);
        kernel.sparse = method.sparse.map(|(mask, parity)| {
            let mut sparse = Classes { mask, parity }.sparse(&values);
            sparse.set_witness_choice(method.witness_choice);
            sparse
        });
        for n in 1..values.len() {
            set_bit(&mut kernel.taken_any, values.get(n));
        }
        kernel.values = values;
        kernel.sparse_tried = method.sparse_tried;
        kernel.block_work = method.block_work;
        kernel.block_plain = method.block_plain;
        kernel.dear_blocks = method.dear_blocks;
        kernel.sparse_retried = method.sparse_retried;
        kernel
    }

    /// The method's state, for a checkpoint.
    pub(crate) fn method_state(&self) -> MethodState {
        MethodState {
            sparse_tried: self.sparse_tried,
            sparse: self.sparse.as_ref().map(|s| (s.classes().mask, s.classes().parity)),
            block_work: self.block_work,
            block_plain: self.block_plain,
            dear_blocks: self.dear_blocks,
            sparse_retried: self.sparse_retried,
            witness_choice: self.sparse.as_ref().map_or_else(WitnessChoice::default, Sparse::witness_choice),
        }
    }

    /// The sparse-space classes of the values so far, as (mask, parity of even and odd piles):
    /// the method's own when it runs, else those the values call for (the classes the method
    /// would choose now), so that the rare values of a plain scan are counted the same way.
    pub(crate) fn rare_classes(&self) -> Option<(u32, [u32; 2])> {
        match &self.sparse {
            Some(s) => Some((s.classes().mask, s.classes().parity)),
            // Classes from a few thousand values say little: the method's own start is 4096.
            None if self.rules.splits() && self.values.len() >= 4096 => {
                let split_takes: Vec<u64> = self.rules.two.iter().map(|&(t, _)| t).collect();
                let takes_known = self.rules.most_taken.is_some_and(|m| m < self.values.len() as u64);
                fewest_rare_classes(&self.values, &split_takes, takes_known).map(|c| (c.mask, c.parity))
            }
            None => None,
        }
    }

    /// Every value so far, when the whole table is kept.
    pub(crate) fn values(&self) -> Option<&Values> {
        (self.reach.dropped() == 0).then_some(&self.values)
    }

    /// The threads one pile's scan may share its work with (1: this one alone). The values
    /// never depend on it.
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The bytes the kernel holds: its values and the sparse-space method's tables, counted
    /// from what is allocated (the same on every machine for the same run). Not what exists
    /// only for a second thread (the plain scan's block of tables scanned ahead, the
    /// sparse-space method's second table of marks, the pairs' second thread and its copy of
    /// the tables, or the scratch of a pair's second pile that it holds when it runs): the
    /// threads default to the machine's cores, and a report must not depend on the machine.
    /// (The values are one copy, which the second thread reads: see `Slots`.)
    pub(crate) fn memory_bytes(&self) -> u64 {
        let sparse = self.sparse.as_ref().map_or(0, |s| s.memory_bytes());
        let marks = self.marks.words.capacity() * 8 + self.marks.bytes.capacity();
        self.values.stored_bytes() + sparse + marks as u64
    }

    /// How many pile sizes have values: 0 up to this.
    pub(crate) fn computed(&self) -> usize {
        self.values.len() + self.reach.dropped()
    }

    /// The value of pile `n`, unless it is not computed yet or a window dropped it.
    pub(crate) fn value(&self, n: u64) -> Option<u32> {
        if n >= self.computed() as u64 {
            return None;
        }
        match self.reach.index(n as usize) {
            Some(i) => Some(self.values.get(i)),
            None => self.kept.iter().find(|&&(p, _)| p == n).map(|&(_, g)| g),
        }
    }

    /// Makes pile `n`'s value outlive a window, when it is still to be computed.
    pub(crate) fn keep_value_of(&mut self, n: u64) {
        if n >= self.computed() as u64 {
            self.wanted.insert(n);
        }
    }

    /// Room for the values of piles below `total` (a window's are stored closer together).
    pub(crate) fn reserve_total(&mut self, total: usize) {
        self.values.reserve_total(total.saturating_sub(self.reach.dropped()));
        // Each question reserves room for its piles, often between two piles of a stretch: where
        // that moved the values, the second thread must learn it before its next answer is taken
        // as written (it may have written that pile in the buffer the values left).
        self.publish_stored();
    }

    /// From here on keeps only the piles below `prefix` and at least the latest `recent`, when
    /// the sparse-space method is in use (the only one whose reads stay in such a window) and
    /// every amount taken is small next to the window.
    pub(crate) fn start_window(&mut self, prefix: usize, recent: usize) {
        // A window's slides move the values under a stretch's second thread: none is started
        // in a run that asks for one.
        self.window_asked = true;
        let small_takes = self.rules.most_taken.is_some_and(|m| m < recent as u64 / 2);
        if self.recent == 0
            && self.sparse.is_some()
            && small_takes
            && self.computed() >= prefix
            && prefix >= SPARSE_FROM
        {
            self.reach = Reach { prefix, base: prefix };
            self.recent = recent;
        }
    }

    /// Keeps count of what the sparse-space method costs against the plain scan, block by
    /// block, and gives it up for the plain scan where it does not pay: some games' values fit
    /// a mask well enough to choose the method, but their rare values need so many witnesses
    /// that scanning every split is faster. Only while every value is stored (a window's
    /// dropped values leave the plain scan nothing to read).
    fn weigh_sparse(&mut self, n: u64, work: u64) {
        if self.sparse_mode != SparseMode::Auto || self.reach.dropped() > 0 || self.recent > 0 {
            return;
        }
        self.block_work += work;
        self.block_plain += self
            .rules
            .two
            .iter()
            .filter(|(t, f)| t + 2 <= n && f & (TWO_ANY | TWO_UNEQUAL) != 0)
            .map(|(t, _)| (n - t) / 2)
            .sum::<u64>();
        if n.is_multiple_of(SPARSE_BLOCK) {
            // Before the warm-up ends, one full block over three times the plain scan's cost
            // gives the method up; after it, two running over twice. Games that pay later stay
            // under three at first (0.741: 2.6, 1.8, then 0.3–1.2; 0.140: 1.4, 1.6, then
            // 0.4–1.2), those that never pay pass it in their first full block (0.564 3.4,
            // 0.164 3.6, 0.346 4.1, 0.026 4.0) or stay over twice (0.005: 2.5–2.8, then
            // 2.1–2.5). The block ending where the method starts holds one pile, and does not
            // count.
            let warming = n < SPARSE_WARM_UP;
            let bound = if warming { 3 } else { 2 };
            let dear = self.block_work.saturating_mul(SPARSE_OPTION_COST) > bound * self.block_plain;
            let full = n > SPARSE_FROM as u64;
            self.dear_blocks = if dear && full { self.dear_blocks + 1 } else { 0 };
            if self.dear_blocks >= if warming { 1 } else { 2 } {
                self.sparse = None;
                self.sparse_retried = n;
            }
            self.block_work = 0;
            self.block_plain = 0;
        }
    }

    /// Tries the sparse-space method again where it was given up or never fitted, once the
    /// piles have grown fourfold since: the plain scan's cost per pile grows with the pile,
    /// the method's with its rare piles and its witnesses, so a method too dear at first often
    /// pays later (0.264, given up at 8,192 when a block cost 3.2 times the plain scan, costs
    /// 1.15 times at 32,768 and 0.3 past 10⁵). Just past a doubling, so that a block of its
    /// own judges it, with one dear block already counted: one more gives it up again. A
    /// game it never pays for spends one block at up to three times the plain cost per
    /// fourfold growth (under 7% of the plain scan's work from 16,384 on).
    fn try_sparse_again(&mut self, n: u64) {
        let after = n.saturating_sub(1);
        let due = self.sparse.is_none()
            && self.sparse_tried
            && after.is_power_of_two()
            && after >= SPARSE_WARM_UP
            && after >= SPARSE_RETRY_GROWTH * self.sparse_retried
            && self.sparse_mode != SparseMode::Never
            && self.reach.dropped() == 0
            && self.recent == 0
            && self.rules.splits();
        if !due {
            return;
        }
        self.sparse_retried = n;
        if let Some(classes) = self.classes_for(n) {
            self.sparse = Some(classes.sparse(&self.values));
            self.sparse_generation += 1;
            self.dear_blocks = 1;
            self.block_work = 0;
            self.block_plain = 0;
        }
    }

    /// Chooses the sparse-space classes again from every value so far, and takes the new ones
    /// when they leave a quarter fewer recent piles rare: the mask chosen from the first values
    /// may fit later ones badly (0.127, chosen at 4096 among values below 32, leaves 2,791 of
    /// its first 93,167 piles rare where another leaves 693). At each doubling of the piles
    /// computed, so that the choices cost linear time in all, and a run resumed from a
    /// checkpoint makes the same ones.
    fn choose_sparse_again(&mut self, n: u64) {
        let Some(current) = self.sparse.as_ref().map(Sparse::classes) else {
            return;
        };
        let Some(candidate) = self.classes_for(n) else {
            return;
        };
        let recent = self.values.len() / 2..self.values.len();
        let (now, then) =
            (candidate.rare_among(&self.values, recent.clone()), current.rare_among(&self.values, recent));
        if 4 * now < 3 * then {
            self.sparse = Some(candidate.sparse(&self.values));
            self.sparse_generation += 1;
        }
    }

    /// The sparse-space classes the values so far call for, with pile n next.
    fn classes_for(&self, n: u64) -> Option<Classes> {
        let split_takes: Vec<u64> = self.rules.two.iter().map(|&(t, _)| t).collect();
        // Every split take is known once the piles computed pass the largest take.
        let takes_known = self.rules.most_taken.is_some_and(|m| m < n) && self.sparse_mode == SparseMode::Auto;
        choose_classes(&self.values, &split_takes, takes_known)
    }

    /// Restricts the sparse-space variants the kernel may choose (before it chooses).
    pub(crate) fn set_sparse_mode(&mut self, mode: SparseMode) {
        self.sparse_mode = mode;
    }

    /// Whether a window dropped values.
    pub(crate) fn windowed(&self) -> bool {
        self.reach.dropped() > 0
    }

    /// Whether the kernel has yet to decide on the sparse-space method, which can turn a
    /// quadratic cost nearly linear: until then, the cost so far does not predict the rest.
    pub(crate) fn may_turn_sparse(&self) -> bool {
        !self.sparse_tried && self.sparse_mode != SparseMode::Never && self.rules.splits()
    }

    /// The pile at which the sparse-space method, given up or never fitted, is tried again
    /// (`try_sparse_again`), when that comes before pile `upto`: the plain scan's cost so far
    /// does not predict the piles past it.
    pub(crate) fn next_sparse_retry(&self, upto: u64) -> Option<u64> {
        let waits = self.sparse.is_none()
            && self.sparse_tried
            && self.sparse_mode != SparseMode::Never
            && self.reach.dropped() == 0
            && self.recent == 0
            && self.rules.splits();
        if !waits {
            return None;
        }
        let from = (self.values.len() as u64).max(SPARSE_WARM_UP).max(SPARSE_RETRY_GROWTH * self.sparse_retried);
        let retry = from.checked_next_power_of_two()? + 1;
        (retry < upto).then_some(retry)
    }

    /// Whether the sparse-space method is in use (for the benchmark's report).
    pub(crate) fn uses_sparse_space(&self) -> bool {
        self.sparse.is_some()
    }

    /// Scans the next block of piles ahead with every thread, when the plain scan of pile n is
    /// long enough to share and no block covers it.
    fn prepare_block(&mut self, n: u64) {
        let covered = self.block.as_ref().is_some_and(|b| b.start <= n && n < b.start + b.piles);
        // Rules that pair piles share the plain scan's piles two at a time instead (0.564 to
        // 32,768: 1.5 times as fast on two threads with blocks, 1.7 with pairs).
        let paired = self.rules.pairs_piles() && self.recent == 0;
        if covered || self.sparse.is_some() || self.reach.dropped() > 0 || self.threads < 2 || paired {
            if !covered {
                self.block = None;
            }
            return;
        }
        let pairs: usize = plain_splits(&self.rules, n).map(|(_, top)| top).sum();
        if pairs < self.parallel_from.min(BLOCK_FROM_PAIRS) {
            self.block = None;
            return;
        }
        // XORs of the values below n stay below this; a value of the block may raise it, and
        // its pile's table grows then.
        let size = (self.largest.max(1) as usize + 1).next_power_of_two() * 2;
        let piles = BLOCK_PILES.min((BLOCK_BYTES / size).max(2) as u64);
        // The rules of every amount the block may use, evaluated now: if one fails, the piles
        // are computed one by one and the error comes where it belongs.
        if self.rules.evaluate_to(n + piles).is_err() {
            self.block = None;
            return;
        }
        let mut block = self.block.take().unwrap_or(Block { start: 0, piles: 0, size: 0, tables: Vec::new() });
        block.start = n;
        block.piles = piles;
        block.size = size;
        // Every table is written whole by the scan: nothing to clear.
        block.tables.resize(piles as usize * size, 0);
        let half = (piles / 2) as usize * size;
        let middle = n + piles / 2;
        let (first, second) = block.tables.split_at_mut(half);
        let rules = &self.rules;
        with_slots!(&self.values, v => rayon::join(
            || scan_ahead(v, n..middle, rules, first, size),
            || scan_ahead(v, middle..n + piles, rules, second, size),
        ));
        self.block = Some(block);
    }

    /// At the first pile n of a block under the sparse-space method: takes the work ahead made
    /// for it (by the second thread, or here when it made none that fits), and asks the second
    /// thread, if there is one, for the next block's. The second thread starts the first time
    /// and stops with the kernel.
    fn hand_over_ahead(&mut self, n: u64) {
        if !n.is_multiple_of(AHEAD_PILES) {
            return;
        }
        // The largest value below the block before this one, which sizes this block's tables.
        let (at, largest) = std::mem::replace(&mut self.block_largest, (n, self.largest));
        let known = n.saturating_sub(AHEAD_PILES);
        let below = if at == known {
            largest
        } else {
            // After a resume: the values below `known`, where the whole table is kept.
            match self.reach.dropped() {
                0 => (0..known as usize).map(|i| self.values.get(i)).max().unwrap_or(0),
                _ => self.largest,
            }
        };
        let sparse = match &self.sparse {
            Some(s) if n >= AHEAD_FROM && s.rare_piles().0.len() >= AHEAD_RARE_FROM => s,
            _ => {
                if let Some(a) = &mut self.ahead {
                    a.ready = None;
                }
                return;
            }
        };
        // The split amounts of every pile up to the next block's last, evaluated now: if one
        // fails, the piles are computed alone and the error comes where it belongs.
        if self.rules.evaluate_to(n + 2 * AHEAD_PILES).is_err() {
            self.ahead = None;
            return;
        }
        // Piles computed in pairs take both threads; whether the next ones are may change with
        // the method's classes (see `defers_at`), and the second thread with it.
        let second = self.threads >= 2 && !self.rules.pairs_piles() && !self.defers_at(n + 1);
        if self.ahead.as_ref().is_none_or(|a| a.has_thread() != second) {
            self.ahead = Some(if second { Ahead::start().unwrap_or_else(Ahead::alone) } else { Ahead::alone() });
        }
        let classes = sparse.classes();
        let size_for = |largest: u32| (largest.max(1) as usize + 1).next_power_of_two();
        let want = Want { classes, witnesses: self.witness_floor(known), size: size_for(below) };
        let next = Want { classes, witnesses: self.witness_floor(n), size: size_for(self.largest) };
        let Some(ahead) = &mut self.ahead else { return };
        let last = n + 2 * AHEAD_PILES;
        let splits: Vec<(u64, u8)> = self.rules.two.iter().copied().filter(|&(t, _)| t + 2 <= last).collect();
        ahead.hand_over(n, (&self.values, self.reach), classes, sparse.rare_piles(), splits.clone(), (&want, &next));
        if ahead.ready.is_none() && want.witnesses.is_some() {
            let (rare, spare, reach) = (sparse.rare_piles(), ahead.spare.take(), self.reach);
            let part = (n, known as usize, reach);
            ahead.ready =
                Some(with_slots!(&self.values, g => make_here(g, rare, classes, &splits, part, &want, spare)));
        }
    }

    /// Whether the block whose work ahead is made from the values below `known` looks for
    /// witnesses ahead, and in a window from which partner up (see `Want`): with a window, once
    /// a block's partners from there up stay among the recent piles it keeps (at least `recent`
    /// of them) and its pairs whose smaller part is not in the prefix are all dropped (past
    /// 4 · `recent`, as the window keeps fewer than 2 · `recent`).
    ///
    /// Not where a move may leave one heap: the search ahead cannot see the options a recent
    /// heap gives, whose values would often be the first it takes for unreached, and it would
    /// look for too few values to spare this thread anything (0.56's record was 1.7 times
    /// slower on one thread with it).
    fn witness_floor(&self, known: u64) -> Option<usize> {
        if self.rules.leaves_one_heap() {
            return None;
        }
        if self.recent == 0 {
            return (self.reach.dropped() == 0).then_some(0);
        }
        let (known, recent) = (known as usize, self.recent);
        let floor = (known + 2 * AHEAD_PILES as usize).checked_sub(recent)?;
        (recent > 2 * AHEAD_PILES as usize && known >= 4 * recent && floor >= self.reach.prefix).then_some(floor)
    }

    /// Computes the next pile's value; `work` counts the options examined. False, with
    /// nothing computed, when the value needs piles a window dropped.
    pub(crate) fn push_next(&mut self, work: &mut u64) -> Result<bool, SolveError> {
        let n = self.computed() as u64;
        if let Some(computed) = self.computed_ahead.take_if(|c| c.n == n) {
            let computed = self.settled(computed);
            *work += computed.work;
            self.store(computed);
            return Ok(true);
        }
        if self.asked.as_ref().is_some_and(|a| a.pile() == n) {
            return self.go_on_pairs(n, work);
        }
        if let Some(asked) = self.asked.take() {
            // Not the pile asked (no caller skips one): collect it and forget it.
            self.answer(asked.pile(), asked);
            self.leave_stretch();
        }
        if n > 0 {
            if let Some(span) = self.rules.takes_nothing {
                return Err(MoveError::TakesNothing { span, position: n.to_string() }.into());
            }
        }
        self.rules.evaluate_to(n)?;
        let len = self.values.len();
        if !self.sparse_tried && (len == SPARSE_EARLY || len >= SPARSE_FROM) && self.rules.splits() {
            if self.sparse_mode != SparseMode::Never {
                let classes = self.classes_for(n);
                // Early only where the latest half of the values has almost no rare one: the
                // rare values are nearly all found, and the method pays from the start.
                let early = len < SPARSE_FROM;
                let few = |c: Classes| {
                    c.rare_among(&self.values, len / 2..len) * SPARSE_EARLY_RARE_SHARE <= len
                        && c.rare_among(&self.values, 0..len / 2) * SPARSE_EARLY_RARE_SHARE <= len * 8
                };
                if !early || classes.is_some_and(few) {
                    self.sparse_tried = true;
                    self.sparse = classes.map(|c| c.sparse(&self.values));
                    self.sparse_generation += 1;
                }
            } else {
                self.sparse_tried = len >= SPARSE_FROM;
            }
        }
        self.try_sparse_again(n);
        if self.sparse.is_some() && n > SPARSE_FROM as u64 && n.is_power_of_two() && self.reach.dropped() == 0 {
            self.choose_sparse_again(n);
        }
        let work_before = *work;
        self.prepare_block(n);
        self.hand_over_ahead(n);
        let classes = self.sparse.as_ref().map(Sparse::classes);
        if let (Some(a), Some(c)) = (&mut self.ahead, classes) {
            let two = &self.rules.two;
            with_slots!(&self.values, g => a.witness_here(n, c, (g, self.reach), two))
        }
        if self.pairs_at(n) {
            return self.start_pairs(n, work);
        }
        let ahead = match (&self.ahead, classes) {
            (Some(a), Some(c)) => a.ready.as_ref().and_then(|m| m.pile(n, c)),
            _ => None,
        };
        let block = self.block.as_ref().filter(|b| b.start <= n && n < b.start + b.piles).map(|b| {
            let i = (n - b.start) as usize;
            (&b.tables[i * b.size..(i + 1) * b.size], b.start)
        });
        let targeted = match &mut self.sparse {
            Some(s) if self.reach.dropped() == 0 => s.targeted(n),
            _ => false,
        };
        // The bitset holds the values of piles 1 to n − 1 exactly when every pile below n is stored.
        let every_pile_below = self.computed() as u64 == n;
        let (rules, marks, largest, reach) = (&self.rules, &mut self.marks, self.largest, self.reach);
        let mut sparse = self.sparse.as_mut().map(|s| PileSparse {
            shared: &s.shared,
            scratch: &mut s.scratch,
            targeted,
            searched: None,
        });
        let threads = Parallel { threads: self.threads, from: self.parallel_from };
        let pile = sparse.as_mut();
        let taken_any = every_pile_below.then_some(self.taken_any.as_slice());
        let found = with_slots!(&self.values, g => next_value(g, n, reach, rules, marks, largest, pile, threads, block, ahead, taken_any, work));
        let searched = sparse.and_then(|s| s.searched);
        let Some(g) = found else {
            return Ok(false);
        };
        let work = *work - work_before;
        self.store(Computed { n, value: g, work, searched, filled: None, written: false, deferred: None });
        Ok(true)
    }

    /// Adds a pile's value to the values and the method's tables.
    fn store(&mut self, Computed { n, value: g, work, searched, filled, written, deferred }: Computed) {
        debug_assert!(deferred.is_none(), "pile {n} is settled before it is stored");
        self.pile_work = (self.pile_work * 7 + work) / 8;
        if let Some(s) = &mut self.sparse {
            if let Some((targeted, cost)) = searched {
                s.record(targeted, cost);
            }
            self.weigh_sparse(n, work);
        }
        self.largest = self.largest.max(g);
        if n >= 1 {
            set_bit(&mut self.taken_any, g);
        }
        // Unless the weighing just gave the method up.
        if let Some(s) = &mut self.sparse {
            s.add(n as u32, g);
        }
        // The second thread of a pair wrote its pile's value in place already, unless the
        // values moved since.
        // Safety (`adopt_written`): in a stretch, `written` says the second thread wrote the
        // value at this place of this very buffer (the buffer's epoch is the one its answer
        // gave), and its answer, acquired, came after the write.
        let adopted =
            filled.is_some_and(|f| self.values.adopt(&f)) || (written && unsafe { self.values.adopt_written() });
        if !adopted {
            self.values.push(g);
        }
        self.publish_stored();
        while let Some(wanted) = self.wanted.first().copied().filter(|&w| w <= n) {
            self.wanted.pop_first();
            if wanted == n {
                self.kept.push((n, g));
            }
        }
        // Slide the window by `recent` values at a time: one move of the recent part per
        // `recent` piles.
        if self.recent > 0 && self.values.len() >= self.reach.prefix + 2 * self.recent {
            let from = self.reach.prefix;
            self.values.forget(from..from + self.recent);
            self.reach.base += self.recent;
        }
    }
}
