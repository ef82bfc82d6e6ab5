//! Piles computed two at a time (see `HeapKernel`): the even one on the kernel's thread, the
//! odd one on the second thread (`pair`), or here beside it when there is none.

use super::super::ahead::AHEAD_PILES;
use super::super::mex::{next_value, plain_splits};
use super::super::pair::PairThread;
use super::super::sparse::{PileSparse, Sparse, RECOUNT_EVERY};
use super::super::values::{with_slots, FilledValue, Parallel};
use super::{HeapKernel, BLOCK_FROM_PAIRS};
use crate::solve::SolveError;

impl HeapKernel {
    /// Whether piles n and n + 1 are computed as a pair: from an even n, where the whole table
    /// is kept and the rules pair piles (`HeapRules::pairs_piles`) or let pile n + 1's option
    /// from pile n wait (`defers_at`). Under the sparse-space method always, each pile from the
    /// values below it less one, on one thread as on two (see `HeapKernel`); under the plain
    /// scan, which reads nothing but the values, only on two threads, once a pile's scan is long
    /// enough to share, and not from a power of two (the method may be tried again at the pile
    /// after it).
    pub(super) fn pairs_at(&mut self, n: u64) -> bool {
        let paired = n.is_multiple_of(2)
            && self.reach.dropped() == 0
            && self.recent == 0
            && self.rules.evaluate_to(n + 1).is_ok()
            && (self.rules.pairs_piles() || self.defers_at(n));
        let long = || {
            plain_splits(&self.rules, n).map(|(_, top)| top).sum::<usize>() >= self.parallel_from.min(BLOCK_FROM_PAIRS)
        };
        paired && (self.sparse.is_some() || (self.threads >= 2 && !n.is_power_of_two() && long()))
    }

    /// Whether the pair from pile n is computed with pile n + 1's option from pile n settled
    /// after (`HeapRules::defers_last`): under the sparse-space method, where the one heap left
    /// is a common value for the next pile whenever it is a common value for its own (the
    /// classes' two parities are equal), so that leaving its option out costs no search (0.6:
    /// in 7,000 piles to 3·10⁵, 23 took the option left out as their value and were computed
    /// again). Not from a multiple of `PAIRS_MEET`, where the method may change at pile n's
    /// store, between pile n + 1's computing and its settling: those two go one at a time.
    pub(super) fn defers_at(&self, n: u64) -> bool {
        self.rules.defers_last()
            && !n.is_multiple_of(PAIRS_MEET)
            && self.sparse.as_ref().is_some_and(|s| {
                let parity = s.classes().parity;
                parity[0] == parity[1]
            })
    }

    /// Pile m's value with the option pile m − 1 gives, where it was computed without it (see
    /// `defers_at`): the same unless that option is the value, when the pile is computed again
    /// with it, both computings counted. Pile m − 1 is stored.
    pub(super) fn settled(&mut self, computed: Computed) -> Computed {
        let Some((beside, targeted)) = computed.deferred else { return computed };
        let m = computed.n;
        if self.values.get(m as usize - 1) != computed.value {
            return Computed { deferred: None, ..computed };
        }
        #[cfg(test)]
        {
            self.settled_again += 1;
        }
        let again = self.compute_here(m, beside, targeted);
        Computed { work: computed.work + again.work, ..again }
    }

    /// Starts the pairs at pile n (even; after a stop, or where the kernel's tables may change
    /// at n: see `PAIRS_MEET`): piles n and n + 1, each from the values below n. Stores pile
    /// n's value.
    pub(super) fn start_pairs(&mut self, n: u64, work: &mut u64) -> Result<bool, SolveError> {
        // Whether the second piles go to the second thread, chosen again where no scratch
        // holds partners (see `Sparse::add`): after a recount, or with tables just made. The
        // partners a pile's search tries depend on when they were made, so the second piles
        // must keep one scratch between such points (here, or the second thread's), as they
        // do on one thread. Piles cheaper than a hand-over stay here (0.16's, proving its
        // period: two threads took 0.127 s where one took 0.106).
        let fresh = self.pair_decided != Some(self.sparse_generation);
        if self.sparse.is_some() && (n.is_multiple_of(RECOUNT_EVERY.into()) || fresh) {
            self.pair_thread_on = self.pile_work >= PAIR_THREAD_WORK;
            self.pair_decided = Some(self.sparse_generation);
        }
        let targeted = self.targeted_pair(n);
        if self.start_stretch(n, targeted[1]) {
            let first = self.compute_here(n, false, targeted[0]);
            *work += first.work;
            self.store(first);
            return Ok(true);
        }
        let asked = self.ask_pair_thread(n + 1, targeted[1]);
        let first = self.compute_here(n, false, targeted[0]);
        if !asked {
            self.asked = Some(Asked::Here(self.compute_here(n + 1, true, targeted[1])));
        }
        *work += first.work;
        self.store(first);
        Ok(true)
    }

    /// At pile q, the second of a pair: computes pile q + 1 here, while the pile after goes to
    /// the second thread if there is one (each from the values below it less one: see
    /// `HeapKernel`), and stores pile q's value.
    pub(super) fn go_on_pairs(&mut self, q: u64, work: &mut u64) -> Result<bool, SolveError> {
        let Some(asked) = self.asked.take() else {
            unreachable!("pile {q} is the one asked of the pair");
        };
        if let Asked::Stretch { .. } = asked {
            return self.go_on_stretch(q, asked, work);
        }
        if !(q + 1).is_multiple_of(PAIRS_MEET) && self.pairs_at(q + 1) {
            let targeted = self.targeted_pair(q + 1);
            let on_thread = self.ask_pair_thread(q + 2, targeted[1]);
            self.computed_ahead = Some(self.compute_here(q + 1, false, targeted[0]));
            let second = self.answer(q, asked);
            let second = self.settled(second);
            *work += second.work;
            self.store(second);
            if !on_thread {
                self.asked = Some(Asked::Here(self.compute_here(q + 2, true, targeted[1])));
            }
        } else {
            let second = self.answer(q, asked);
            let second = self.settled(second);
            *work += second.work;
            self.store(second);
        }
        Ok(true)
    }

    /// At pile q, odd, of a stretch: computes pile q + 1 here, while the second thread goes on
    /// with its piles by itself, and stores pile q's value once it has it. The stretch ends
    /// early where the pairs would (`pairs_at`).
    fn go_on_stretch(&mut self, q: u64, asked: Asked, work: &mut u64) -> Result<bool, SolveError> {
        let end = self.stretch.as_ref().map_or(0, |s| s.end);
        // The second thread computes the stretch under the method it started with: where the
        // kernel gave the sparse-space method up (at its first pile), the stretch ends.
        let method = self.sparse.as_ref().map(|_| self.sparse_generation);
        let same_method = self.stretch.as_ref().is_some_and(|s| s.method == method);
        let goes_on = q + 1 < end && same_method && self.pairs_at(q + 1);
        if goes_on {
            let targeted = self.sparse.as_mut().is_some_and(|s| s.targeted(q + 1));
            self.computed_ahead = Some(self.compute_here(q + 1, false, targeted));
            if q + 2 < end {
                let targeted = self.stretch.as_ref().is_some_and(|s| s.targeted(q + 2));
                self.asked = Some(Asked::Stretch { pile: q + 2, targeted });
            }
        }
        let second = self.answer(q, asked);
        let second = self.settled(second);
        *work += second.work;
        self.store(second);
        if !goes_on || q + 2 >= end {
            self.leave_stretch();
        }
        Ok(true)
    }

    /// Starts a stretch at pile n (even; see `stretch`): the second thread computes the odd
    /// piles up to the next multiple of `PAIRS_MEET` by itself, the first of them with its
    /// search as `targeted` says. False (nothing asked) where the pairs hand their piles over
    /// one at a time (a stretch of one pair, marks made ahead for them, or a run that asks for a
    /// window) or keep them on this thread (no second thread, or piles too cheap for it).
    fn start_stretch(&mut self, n: u64, targeted: bool) -> bool {
        let alone = self.sparse.is_some() && !self.pair_thread_on;
        if self.threads < 2 || self.pair_thread_failed || alone || self.window_asked {
            return false;
        }
        let end = (n / PAIRS_MEET + 1) * PAIRS_MEET;
        let classes = self.sparse.as_ref().map(Sparse::classes);
        // Marks made ahead go with each pile asked alone. (Rules that pair piles leave one heap,
        // so no witnesses are looked for ahead and none are made: see `witness_floor`.)
        let marked = classes.is_some_and(|c| {
            self.ahead.as_ref().and_then(|a| a.ready.as_ref()).is_some_and(|m| m.pile(n + 1, c).is_some())
        });
        if marked || end < n + 4 || self.rules.evaluate_to(end).is_err() {
            return false;
        }
        if self.pair_thread.is_none() {
            self.pair_thread = PairThread::start(self.rules.clone());
            self.pair_thread_failed = self.pair_thread.is_none();
        }
        // Each odd pile's way of searching, fixed within the stretch (the choice changes only
        // at a multiple of `PAIRS_MEET`, and pile n asked first).
        let mut flags = vec![targeted];
        flags.extend((n + 3..end).step_by(2).map(|o| self.sparse.as_mut().is_some_and(|s| s.targeted(o))));
        self.stretch_epoch += 1;
        let share = self.values.share();
        let tables = classes.map(|c| (c, self.sparse_generation));
        let Some(thread) = self.pair_thread.as_mut() else { return false };
        match thread.ask_stretch((n + 1, end), (share, self.stretch_epoch), tables, flags.clone()) {
            Some(id) => {
                let method = tables.map(|(_, generation)| generation);
                self.stretch = Some(Stretch { id, first: n + 1, end, buffer: self.values.buffer(), flags, method });
                self.asked = Some(Asked::Stretch { pile: n + 1, targeted });
                true
            }
            None => {
                self.pair_thread = None;
                self.pair_thread_failed = true;
                false
            }
        }
    }

    /// Ends the stretch, if one runs: the second thread has answered its last pile, or it is
    /// given up and this waits until the thread has left it.
    pub(super) fn leave_stretch(&mut self) {
        let Some(stretch) = self.stretch.take() else { return };
        if let Some(thread) = &self.pair_thread {
            thread.link().give_up(stretch.id);
        }
    }

    /// In a stretch, after a store: tells the second thread how many values are stored, and
    /// first, when they moved to a new buffer (they grew or widened), gives it a share of that.
    pub(super) fn publish_stored(&mut self) {
        let (Some(stretch), Some(thread)) = (&mut self.stretch, &self.pair_thread) else { return };
        let buffer = self.values.buffer();
        if buffer != stretch.buffer {
            stretch.buffer = buffer;
            self.stretch_epoch += 1;
            thread.link().rebase(self.stretch_epoch, self.values.share());
        }
        thread.link().publish(self.values.len());
    }

    /// Whether the piles n and n + 1 of a pair search for witnesses with the holders first,
    /// asked in order as piles computed one at a time would ask (n + 1 is odd, never the first
    /// pile of the choice's stretch).
    fn targeted_pair(&mut self, n: u64) -> [bool; 2] {
        match &mut self.sparse {
            Some(sparse) => [sparse.targeted(n), sparse.targeted(n + 1)],
            None => [false; 2],
        }
    }

    /// Asks the second thread for pile m (starting it the first time), from the values stored
    /// and its own; false when there is no second thread.
    fn ask_pair_thread(&mut self, m: u64, targeted: bool) -> bool {
        // A pile asked alone is not settled by the second thread, which would go on from its
        // value unsettled: where the rules defer an option, such piles stay here.
        let off = self.sparse.is_some() && !self.pair_thread_on;
        if self.threads < 2 || self.pair_thread_failed || off || self.rules.defers_last() {
            return false;
        }
        if self.pair_thread.is_none() {
            self.pair_thread = PairThread::start(self.rules.clone());
            self.pair_thread_failed = self.pair_thread.is_none();
        }
        let tables = self.sparse.as_ref().map(|s| (s.classes(), self.sparse_generation));
        let ahead = tables.and_then(|(c, _)| self.ahead.as_ref()?.ready.as_ref()?.pile(m, c));
        // Pile m's place, lent for its value: room for it first (room grows by doubling).
        let at = m as usize;
        self.values.reserve_more((at + 1).saturating_sub(self.values.len()));
        let lease = self.values.lease(at);
        let share = self.values.share();
        let sent = match self.pair_thread.as_mut() {
            Some(thread) => thread.ask(m, (share, lease), tables, targeted, ahead),
            None => Err(lease),
        };
        // A lease that never reached the thread comes back.
        let asked = sent.map_err(|lease| lease.into_iter().for_each(|l| self.values.give_back(l))).is_ok();
        if asked {
            self.asked = Some(Asked::Thread { pile: m, targeted });
        } else {
            self.pair_thread = None;
            self.pair_thread_failed = true;
        }
        asked
    }

    /// The value of pile q asked of the pair's second part, waiting for the second thread if
    /// it computes it; computed here if it could not.
    pub(super) fn answer(&mut self, q: u64, asked: Asked) -> Computed {
        match asked {
            Asked::Here(computed) if computed.n == q => computed,
            Asked::Thread { pile, targeted } if pile == q => {
                let mut answer = self.pair_thread.as_mut().and_then(PairThread::answer);
                // The place lent for the pile: filled with its value, or back unfilled.
                let filled = match answer.as_mut().and_then(|a| a.placed.take()) {
                    Some(Ok(filled)) => Some(filled),
                    Some(Err(lease)) => {
                        self.values.give_back(lease);
                        None
                    }
                    None => None,
                };
                match answer.and_then(|a| Some((a.found?, a))) {
                    Some((value, a)) => Computed {
                        n: q,
                        value,
                        work: a.work,
                        searched: a.searched,
                        filled,
                        written: false,
                        deferred: None,
                    },
                    None => {
                        // Only a bug stops the thread: go on without it, from the values below q,
                        // its search going the way it was asked to.
                        self.pair_thread = None;
                        self.pair_thread_failed = true;
                        self.compute_here(q, true, targeted)
                    }
                }
            }
            Asked::Stretch { pile, targeted } if pile == q => {
                let id = self.stretch.as_ref().map_or(0, |s| s.id);
                match self.pair_thread.as_mut().and_then(|t| t.stretch_answer(id, q)) {
                    Some(a) => {
                        // The line of the values the second thread just wrote this pile's value
                        // to, where this thread stores its next one: asked for now, so that its
                        // transfer overlaps the storing of this pile instead of stalling the
                        // next one's first reads (0.6 to 2^23 with the cores far apart: 8.3–8.8 s
                        // against 8.9–9.3 s; no change with them close).
                        self.values.prefetch_for_write(q as usize + 1);
                        // Taken as written only in the buffer the values are in: every move
                        // of the values is published with a new epoch (`publish_stored`), so
                        // the second check holds whenever the first does.
                        let here = self.stretch.as_ref().is_some_and(|s| s.buffer == self.values.buffer());
                        debug_assert!(here, "pile {q}: the values moved and the second thread was not told");
                        let written = a.written == Some(self.stretch_epoch) && here;
                        // The second thread settled the pile itself.
                        let (value, work, searched) = (a.value, a.work, a.searched);
                        Computed { n: q, value, work, searched, filled: None, written, deferred: None }
                    }
                    None => {
                        // Only a bug stops the thread: go on without it, as above.
                        self.pair_thread = None;
                        self.pair_thread_failed = true;
                        self.stretch = None;
                        self.compute_here(q, true, targeted)
                    }
                }
            }
            _ => unreachable!("pile {q} is the one asked of the pair"),
        }
    }

    /// Computes pile m on this thread, with the scratch of the pair's second part if `beside`,
    /// from the values stored (none missing).
    fn compute_here(&mut self, m: u64, beside: bool, targeted: bool) -> Computed {
        let marks = if beside { &mut self.beside_marks } else { &mut self.marks };
        let classes = self.sparse.as_ref().map(Sparse::classes);
        let ahead = classes.and_then(|c| self.ahead.as_ref()?.ready.as_ref()?.pile(m, c));
        let mut pile = self.sparse.as_mut().map(|sparse| {
            let Sparse { shared, scratch, beside: second, .. } = sparse;
            let scratch = if beside { second } else { scratch };
            PileSparse { shared, scratch, targeted, searched: None }
        });
        let (rules, largest, reach) = (&self.rules, self.largest, self.reach);
        // Each pile's own options are not shared further: the pair is the share.
        let one = Parallel { threads: 1, from: usize::MAX };
        let mut work = 0;
        let p = pile.as_mut();
        let found = with_slots!(&self.values, g => next_value(g, m, reach, rules, marks, largest, p, one, None, ahead, None, &mut work));
        // The whole table is kept: no value is missing.
        let Some(value) = found else {
            unreachable!("a pair of piles is computed only where every value is stored");
        };
        // Without pile m − 1's option, when it is not stored yet and the rules defer it.
        let deferred = (self.rules.defers_last() && self.values.len() as u64 + 1 == m).then_some((beside, targeted));
        let searched = pile.and_then(|p| p.searched);
        Computed { n: m, value, work, searched, filled: None, written: false, deferred }
    }
}

/// A pile's value computed ahead of its turn, with its work and what its search for
/// witnesses cost: stored, and counted, when its turn comes.
pub(super) struct Computed {
    pub(super) n: u64,
    pub(super) value: u32,
    pub(super) work: u64,
    pub(super) searched: Option<(bool, u64)>,
    /// the place the second thread wrote the value to, lent for it (see `Values::lease`)
    pub(super) filled: Option<FilledValue>,
    /// whether the second thread wrote it at its place in the values' buffer, in a stretch
    pub(super) written: bool,
    /// computed without pile n − 1's option (see `HeapKernel::defers_at`), with the scratch of
    /// the pair's second part or not and the way its search went: settled before it is stored
    pub(super) deferred: Option<(bool, bool)>,
}

/// A stretch running (see `stretch`): the second thread's number for it, its odd piles from
/// `first` below `end`, with the way each one's search goes, the buffer the values were in at
/// the last store, and the method.
pub(super) struct Stretch {
    id: u64,
    first: u64,
    end: u64,
    buffer: (usize, u8),
    flags: Vec<bool>,
    /// the generation of the sparse-space tables it computes from (`None`: the plain scan)
    method: Option<u64>,
}

impl Stretch {
    /// Whether odd pile o's search tries the holders first.
    fn targeted(&self, o: u64) -> bool {
        o.checked_sub(self.first).and_then(|i| self.flags.get((i / 2) as usize)).copied().unwrap_or(false)
    }
}

/// The pile of a pair's second part: asked of the second thread (with the way its search for
/// witnesses goes), or computed here.
pub(super) enum Asked {
    Thread {
        pile: u64,
        targeted: bool,
    },
    Here(Computed),
    /// a pile of the stretch running
    Stretch {
        pile: u64,
        targeted: bool,
    },
}

impl Asked {
    pub(super) fn pile(&self) -> u64 {
        match self {
            Asked::Thread { pile, .. } | Asked::Stretch { pile, .. } => *pile,
            Asked::Here(computed) => computed.n,
        }
    }
}

/// The pairs start again at each multiple of this (see `HeapKernel`): the kernel's tables and
/// choices may change only there (the work ahead's blocks, the witness choice's stretches, the
/// weighing of the method and the choice of its classes all fall on multiples of it).
const PAIRS_MEET: u64 = AHEAD_PILES;

/// The work a pile must take, on average over the latest ones, for the pair's second pile to go
/// to the second thread. A hand-over through channels costs about a microsecond, some thousands
/// of options; in a stretch a pile costs the other thread a transfer or two of a cache line
/// (0.161 to 2^22 on two threads: 2.26 s with a stretch from 1,024 options, 2.10–2.18 s from
/// 256).
const PAIR_THREAD_WORK: u64 = 256;
