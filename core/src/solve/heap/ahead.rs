//! The sparse-space method's second thread: while this thread computes one block of piles, it
//! marks the next block's options whose rare part and partner both lie below the block being
//! computed (almost all of a pile's options with a rare part), so that this thread marks only
//! the few left.
//!
//! The second thread keeps its own copy of the values as this thread stores them (a window's
//! too) and of the rare piles, sent a block at a time: it never reads what this thread writes.
//! The values and the work counted never depend on it, only the time.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use super::sparse::{mark_rare, middle_of, push_jobs, stored_partners, Classes};
use super::values::{Reach, Slot, Values};
use super::{TWO_ANY, TWO_UNEQUAL};

/// Piles a block of marks holds: one hand-over each way per block.
pub(super) const AHEAD_PILES: u64 = 256;
/// From this pile on the second thread marks ahead: below it a pile's rare options are too few
/// to pay for the hand-over.
pub(super) const AHEAD_FROM: u64 = 4096;

/// The rare parts r of a split of `rest` whose options the second thread marks, given every value
/// below `known`: those with rest − known < r < min(known, rest), whose partner is below `known`
/// too. This thread marks the others.
pub(super) fn marked_ahead(rest: usize, known: usize) -> (usize, usize) {
    (rest.saturating_sub(known) + 1, known.min(rest))
}

/// What the second thread is asked to mark, with what it needs since the last request.
struct Request {
    classes: Classes,
    /// the values this thread stores since the last request, in order; every one it stores,
    /// when `fresh` (after a window slid, or at the start)
    values: Vec<u32>,
    fresh: bool,
    reach: Reach,
    /// the rare piles since the last request (every one, when `reset`), with their values
    rare: Vec<(u32, u32)>,
    reset: bool,
    /// the amounts after which a pile may split, with how (for piles up to the block's last)
    splits: Vec<(u64, u8)>,
    start: u64,
    piles: u64,
    /// the last block's marks, done with: their table is reused
    spare: Option<Marked>,
}

/// The marks of a block of piles: for pile start + i, `tables[i·size..(i+1)·size]` holds the
/// values its options reach with a rare part r, r ≥ 1 and `marked_ahead`, and its partner stored
/// (the middle of an unequal split left out).
pub(super) struct Marked {
    classes: Classes,
    start: u64,
    piles: u64,
    known: usize,
    size: usize,
    tables: Vec<u8>,
}

/// What the second thread made for one pile.
#[derive(Clone, Copy)]
pub(super) struct PileAhead<'a> {
    /// the values reached by the options it marked
    pub(super) table: &'a [u8],
    /// every value below this pile was known to it
    pub(super) known: usize,
}

impl Marked {
    /// What the second thread made for pile n, if this block holds it under these classes.
    pub(super) fn pile(&self, n: u64, classes: Classes) -> Option<PileAhead<'_>> {
        (classes == self.classes && self.start <= n && n < self.start + self.piles).then(|| {
            let i = (n - self.start) as usize;
            PileAhead { table: &self.tables[i * self.size..(i + 1) * self.size], known: self.known }
        })
    }
}

/// The second thread and what is on its way to and from it.
pub(super) struct Ahead {
    requests: Option<Sender<Request>>,
    answers: Receiver<Marked>,
    worker: Option<JoinHandle<()>>,
    in_flight: bool,
    /// the marks of the block being computed
    pub(super) ready: Option<Marked>,
    /// what the second thread holds: this many values stored under this reach, this many rare
    /// piles under these classes
    sent_values: usize,
    sent_reach: Option<(usize, usize)>,
    sent_rare: usize,
    sent_classes: Option<Classes>,
}

impl Ahead {
    /// Starts the second thread; `None` when the system gives no thread (the kernel goes on
    /// alone).
    pub(super) fn start() -> Option<Ahead> {
        let (requests, inbox) = channel::<Request>();
        let (outbox, answers) = channel::<Marked>();
        let worker =
            std::thread::Builder::new().name("takeaway-ahead".into()).spawn(move || serve(inbox, outbox)).ok()?;
        Some(Ahead {
            requests: Some(requests),
            answers,
            worker: Some(worker),
            in_flight: false,
            ready: None,
            sent_values: 0,
            sent_reach: None,
            sent_rare: 0,
            sent_classes: None,
        })
    }

    /// At the first pile n of a block: takes the marks made for it (waiting for them if need
    /// be), and asks for the next block's, marked from every value below n. `values` and
    /// `reach` are this thread's, `rare` the method's rare piles and their values, `splits` the
    /// split amounts for piles up to the next block's last.
    pub(super) fn hand_over(
        &mut self,
        n: u64,
        (values, reach): (&Values, Reach),
        classes: Classes,
        (rare, rare_value): (&[u32], &[u32]),
        splits: Vec<(u64, u8)>,
    ) {
        let spare = self.ready.take();
        if std::mem::take(&mut self.in_flight) {
            match self.answers.recv() {
                Ok(marked) => self.ready = (marked.start == n).then_some(marked),
                // The second thread is gone, which only a bug of its own does (its loop ends
                // with the kernel): this one goes on alone, and the tests fail.
                Err(_) => {
                    debug_assert!(false, "the second thread stopped");
                    self.requests = None
                }
            }
        }
        let Some(requests) = &self.requests else { return };
        let reset = self.sent_classes != Some(classes);
        if reset {
            self.sent_rare = 0;
        }
        // A window's slide moves the values stored: all of them again then.
        let fresh = self.sent_reach != Some((reach.prefix, reach.base));
        if fresh {
            self.sent_values = 0;
        }
        let request = Request {
            classes,
            values: (self.sent_values..values.len()).map(|i| values.get(i)).collect(),
            fresh,
            reach,
            rare: rare[self.sent_rare..].iter().zip(&rare_value[self.sent_rare..]).map(|(&r, &v)| (r, v)).collect(),
            reset,
            splits,
            start: n + AHEAD_PILES,
            piles: AHEAD_PILES,
            spare,
        };
        if requests.send(request).is_err() {
            self.requests = None;
            return;
        }
        self.in_flight = true;
        self.sent_values = values.len();
        self.sent_reach = Some((reach.prefix, reach.base));
        self.sent_rare = rare.len();
        self.sent_classes = Some(classes);
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        // Without requests the second thread's loop ends.
        self.requests = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The second thread: answers each request with its block's marks.
fn serve(requests: Receiver<Request>, answers: Sender<Marked>) {
    let mut values = Values::default();
    let mut largest = 0u32;
    let (mut rare, mut rare_value): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    while let Ok(request) = requests.recv() {
        if request.fresh {
            values = Values::default();
        }
        for &v in &request.values {
            largest = largest.max(v);
            values.push(v);
        }
        if request.reset {
            rare.clear();
            rare_value.clear();
        }
        for &(r, v) in &request.rare {
            rare.push(r);
            rare_value.push(v);
        }
        let reach = request.reach;
        // Every pile below this one is known, stored or dropped.
        let known = values.len() + reach.dropped();
        // Every XOR of two values so far lies below this.
        let size = (largest.max(1) as usize + 1).next_power_of_two();
        let piles = request.piles as usize;
        // The last block's table again: a fresh one each block costs the system's time.
        let mut tables = request.spare.map(|m| m.tables).unwrap_or_default();
        tables.clear();
        tables.resize(piles * size, 0);
        let marking = Marking { start: request.start, splits: &request.splits, known, reach, size };
        match &values {
            Values::Byte(g) => marking.mark(g, &rare, &rare_value, &mut tables),
            Values::Narrow(g) => marking.mark(g, &rare, &rare_value, &mut tables),
            Values::Wide(g) => marking.mark(g, &rare, &rare_value, &mut tables),
        }
        let (start, classes) = (request.start, request.classes);
        if answers.send(Marked { classes, start, piles: request.piles, known, size, tables }).is_err() {
            return;
        }
    }
}

/// A block to mark, from values stored as `reach` says.
struct Marking<'a> {
    start: u64,
    splits: &'a [(u64, u8)],
    known: usize,
    reach: Reach,
    size: usize,
}

impl Marking<'_> {
    fn mark<T: Slot>(&self, g: &[T], rare: &[u32], rare_value: &[u32], tables: &mut [u8]) {
        let mut jobs = Vec::new();
        for (m, table) in (self.start..).zip(tables.chunks_exact_mut(self.size)) {
            let ways = self.splits.iter().filter(|&&(t, f)| t + 2 <= m && f & (TWO_ANY | TWO_UNEQUAL) != 0);
            for &(t, f) in ways {
                let rest = (m - t) as usize;
                let (lo, hi) = marked_ahead(rest, self.known);
                let from = rare.partition_point(|&r| (r as usize) < lo);
                let to = rare.partition_point(|&r| (r as usize) < hi).max(from);
                // A partner dropped is dropped for the other thread too, which then gives the
                // pile up: nothing to mark.
                let Some(parts) = stored_partners(rare, rest, from..to, self.reach) else {
                    continue;
                };
                let middle = middle_of(rare, rest, f & TWO_ANY == 0);
                jobs.clear();
                for (range, top) in parts {
                    push_jobs(&mut jobs, range, top, middle);
                }
                let options = jobs.iter().map(|(range, _)| range.len()).sum();
                mark_rare(g, rare, rare_value, &jobs, 0..options, table);
            }
        }
    }
}
