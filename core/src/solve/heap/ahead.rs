//! The sparse-space method's work ahead: for each block of piles, from the values below the
//! block before it, the options whose rare part and partner both lie below that (almost all of
//! a pile's options with a rare part), and the witnesses of the rare values those leave missing
//! found among such pairs (`search_ahead`). With a second thread it is made
//! while this thread computes the block before; without one, this thread makes it as the block
//! starts.
//!
//! The second thread reads a share of this thread's values as they were at the request (see
//! `Slots`: no copy, and nothing it reads is written after), and keeps its own copy of the rare
//! piles, sent a block at a time. A block's work ahead depends only on the values below its
//! `known`, so the values and the work counted never depend on which thread made it, only the
//! time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::classes::Classes;
use super::rare::{mark_rare, middle_of, push_jobs, rare_below, stored_partners};
use super::search_ahead::{search_ahead, AheadTables, Searched};
use super::values::{with_slots, Reach, Slot, Values};
use super::{TWO_ANY, TWO_UNEQUAL};

/// Piles a block of marks holds: one hand-over each way per block.
pub(super) const AHEAD_PILES: u64 = 256;
/// From this pile on the second thread marks ahead: below it a pile's rare options are too few
/// to pay for the hand-over.
pub(super) const AHEAD_FROM: u64 = 4096;
/// Nor while fewer piles than this have a rare value: a pile's options with a rare part are
/// then a few dozen, and the blocks' tables and searches cost more than they spare (one
/// thread, to 2^17: 0.454, 17 rare piles, 58 ms with the work ahead and 42 without; 0.404,
/// 369 of them, 287 and 236; 0.376, 0.416 and 0.264, 471 to 1,992 of them, and Grundy's
/// game to 2^20, the same either way).
pub(super) const AHEAD_RARE_FROM: usize = 512;

/// The rare parts r of a split of `rest` whose options the second thread marks, given every value
/// below `known`: those with rest − known < r < min(known, rest), whose partner is below `known`
/// too. This thread marks the others.
pub(super) fn marked_ahead(rest: usize, known: usize) -> (usize, usize) {
    (rest.saturating_sub(known) + 1, known.min(rest))
}

/// What the second thread is asked to mark, with what it needs since the last request.
struct Request {
    classes: Classes,
    /// this thread's values as they are at the request (dropped when the block is marked, so
    /// that this thread may write them in place again)
    values: Values,
    reach: Reach,
    /// the rare piles since the last request (every one, when `reset`), with their values
    rare: Vec<(u32, u32)>,
    reset: bool,
    /// the amounts after which a pile may split, with how (for piles up to the block's last)
    splits: Vec<(u64, u8)>,
    start: u64,
    /// the bytes of a pile's table: past every XOR of two values below the block before
    size: usize,
    /// whether witnesses are looked for too (with the window's floor, 0 without one; see
    /// `Want`): by the second thread from the block's first pile on, until this thread asks
    /// for the block (this thread looks for the rest)
    witnesses: Option<usize>,
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
    /// whether the tables hold the witnesses found ahead too (with the window's floor), and what
    /// each pile's search made, once it is made (by either thread)
    witnesses: Option<usize>,
    work: Vec<Option<Searched>>,
}

/// What the second thread made for one pile.
#[derive(Clone, Copy)]
pub(super) struct PileAhead<'a> {
    /// the values reached by the options it marked
    pub(super) table: &'a [u8],
    /// every value below this pile was known to it
    pub(super) known: usize,
    /// what the search for witnesses ahead made, if there was one, and the window's floor it
    /// kept to (0 without a window)
    pub(super) witnessed: Option<Searched>,
    pub(super) floor: usize,
}

impl Marked {
    /// What the second thread made for pile n, if this block holds it under these classes.
    pub(super) fn pile(&self, n: u64, classes: Classes) -> Option<PileAhead<'_>> {
        (classes == self.classes && self.start <= n && n < self.start + self.piles).then(|| {
            let i = (n - self.start) as usize;
            PileAhead {
                table: &self.tables[i * self.size..(i + 1) * self.size],
                known: self.known,
                witnessed: self.work[i].filter(|_| self.witnesses.is_some()),
                floor: self.witnesses.unwrap_or(0),
            }
        })
    }

    /// Whether this is the work ahead of the block starting at n, made as `want` says.
    fn fits(&self, n: u64, want: &Want) -> bool {
        self.start == n && self.classes == want.classes && self.witnesses == want.witnesses && self.size == want.size
    }
}

/// What the work ahead of a block must be to be used: made under these classes, with
/// witnesses or not, with tables of this size. Witnesses are looked for where the whole table
/// is kept (`Some(0)`), or in a window whose partners from a floor up stay stored while the
/// block is computed, and whose pairs with a part in the prefix are all it keeps (`Some(floor)`).
pub(super) struct Want {
    pub(super) classes: Classes,
    pub(super) witnesses: Option<usize>,
    pub(super) size: usize,
}

/// Makes the work ahead of the block of piles from `start`, from the values `g` stored as
/// `reach` says below `known` and the rare piles below it: this thread's way when there is no
/// second thread, or when the second thread's block does not fit.
#[allow(clippy::too_many_arguments)] // a request's parts
pub(super) fn make_here<T: Slot>(
    g: &[T],
    (rare, rare_value): (&[u32], &[u32]),
    classes: Classes,
    splits: &[(u64, u8)],
    (start, known, reach): (u64, usize, Reach),
    want: &Want,
    spare: Option<Marked>,
) -> Marked {
    let count = rare_below(rare, known);
    let (rare, rare_value) = (&rare[..count], &rare_value[..count]);
    let marking = Marking { start, splits, known, reach, size: want.size, witnesses: want.witnesses, classes };
    // Nothing is searched ahead here: each pile's search waits for `Ahead::witness_here`.
    marking.fill(g, (rare, rare_value), spare, None)
}

/// The second thread and what is on its way to and from it.
pub(super) struct Ahead {
    requests: Option<Sender<Request>>,
    answers: Receiver<Marked>,
    worker: Option<JoinHandle<()>>,
    in_flight: bool,
    /// the marks of the block being computed
    pub(super) ready: Option<Marked>,
    /// without a second thread, the last block's marks, done with: their table is reused
    pub(super) spare: Option<Marked>,
    /// set while this thread waits for the block the second thread works on: it then stops
    /// looking for witnesses and hands the block over, so that neither thread waits for long
    /// (this one for a pile's search at most, the second for the next block never while
    /// piles are left to search)
    wanted: Arc<AtomicBool>,
    /// this thread's tables for the search ahead of the piles it takes
    tables: AheadTables,
    /// what the second thread holds: this many rare piles under these classes
    sent_rare: usize,
    sent_classes: Option<Classes>,
}

impl Ahead {
    /// Starts the second thread; `None` when the system gives no thread (the kernel goes on
    /// alone).
    pub(super) fn start() -> Option<Ahead> {
        let (requests, inbox) = channel::<Request>();
        let (outbox, answers) = channel::<Marked>();
        let mut ahead = Ahead::alone_with(answers);
        let wanted = ahead.wanted.clone();
        let worker = std::thread::Builder::new()
            .name("takeaway-ahead".into())
            .spawn(move || serve(inbox, outbox, &wanted))
            .ok()?;
        ahead.requests = Some(requests);
        ahead.worker = Some(worker);
        Some(ahead)
    }

    /// Whether a second thread makes the work ahead.
    pub(super) fn has_thread(&self) -> bool {
        self.requests.is_some()
    }

    /// The work ahead with no second thread: each block's is made by this thread as it starts.
    pub(super) fn alone() -> Ahead {
        Ahead::alone_with(channel::<Marked>().1)
    }

    fn alone_with(answers: Receiver<Marked>) -> Ahead {
        Ahead {
            requests: None,
            answers,
            worker: None,
            in_flight: false,
            ready: None,
            spare: None,
            wanted: Arc::new(AtomicBool::new(false)),
            tables: AheadTables::default(),
            sent_rare: 0,
            sent_classes: None,
        }
    }

    /// At the first pile n of a block: takes the marks made for it (waiting for them if need
    /// be), and asks for the next block's, marked from every value below n. `values` and
    /// `reach` are this thread's, `rare` the method's rare piles and their values, `splits` the
    /// split amounts for piles up to the next block's last.
    #[allow(clippy::too_many_arguments)] // a request's parts
    pub(super) fn hand_over(
        &mut self,
        n: u64,
        (values, reach): (&Values, Reach),
        classes: Classes,
        (rare, rare_value): (&[u32], &[u32]),
        splits: Vec<(u64, u8)>,
        (want, next): (&Want, &Want),
    ) {
        let spare = self.ready.take();
        if std::mem::take(&mut self.in_flight) {
            // How far the second thread got with the witnesses sets how many are left to this
            // one: the answer, and so the values and the work counted, do not depend on it.
            self.wanted.store(true, Ordering::Release);
            let answer = receive(&self.answers);
            self.wanted.store(false, Ordering::Release);
            match answer {
                Ok(marked) => self.ready = marked.fits(n, want).then_some(marked),
                // The second thread is gone, which only a bug of its own does (its loop ends
                // with the kernel): this one goes on alone, and the tests fail.
                Err(_) => {
                    debug_assert!(false, "the second thread stopped");
                    self.requests = None
                }
            }
        }
        let Some(requests) = &self.requests else {
            self.spare = spare;
            return;
        };
        let reset = self.sent_classes != Some(classes);
        if reset {
            self.sent_rare = 0;
        }
        let request = Request {
            classes,
            values: values.share(),
            reach,
            rare: rare[self.sent_rare..].iter().zip(&rare_value[self.sent_rare..]).map(|(&r, &v)| (r, v)).collect(),
            reset,
            splits,
            start: n + AHEAD_PILES,
            size: next.size,
            witnesses: next.witnesses,
            spare,
        };
        if requests.send(request).is_err() {
            self.requests = None;
            return;
        }
        self.in_flight = true;
        self.sent_rare = rare.len();
        self.sent_classes = Some(classes);
    }
}

impl Ahead {
    /// Looks here for the witnesses ahead of pile n that the second thread left to this one.
    pub(super) fn witness_here<T: Slot>(
        &mut self,
        n: u64,
        classes: Classes,
        (g, reach): (&[T], Reach),
        splits: &[(u64, u8)],
    ) {
        let Some(marked) = &mut self.ready else { return };
        let Some(floor) = marked.witnesses else { return };
        if marked.classes != classes || n < marked.start || n >= marked.start + marked.piles {
            return;
        }
        let i = (n - marked.start) as usize;
        if marked.work[i].is_none() {
            let table = &mut marked.tables[i * marked.size..(i + 1) * marked.size];
            let at = (marked.known, floor, reach);
            marked.work[i] = Some(search_ahead(g, n, at, splits, classes, table, &mut self.tables));
        }
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

/// Checks this many times for a message before sleeping until it comes: at a hand-over each
/// thread waits for the other for a few microseconds, less than a sleeping thread takes to
/// wake. (Grundy's game to 2^22 hands over 16,368 blocks: sleeping at once, the second thread
/// waited 66 µs for each request, 1.09 s in all, and two threads took 5.0 s; checking 2^10
/// times first, 4.48 s, and 2^12 or 2^16 times, no less. Few checks, so that a machine busier
/// than its cores loses little to them.)
const SPINS_BEFORE_SLEEP: u32 = 1 << 10;

/// The next message, looked for without sleeping for a while first (see `SPINS_BEFORE_SLEEP`).
fn receive<T>(from: &Receiver<T>) -> Result<T, std::sync::mpsc::RecvError> {
    receive_after(from, SPINS_BEFORE_SLEEP)
}

/// The next message, looked for `spins` times before sleeping until it comes. Every 64th look
/// first yields the processor: two threads that share one (the system put them there, or
/// other work holds the other core) would otherwise each spin away its whole turn while the
/// one it waits for waits to run (0.564 to 4096 on two threads: 22 ms, against 7 ms on one).
pub(super) fn receive_after<T>(from: &Receiver<T>, spins: u32) -> Result<T, std::sync::mpsc::RecvError> {
    for i in 0..spins {
        match from.try_recv() {
            Ok(message) => return Ok(message),
            Err(std::sync::mpsc::TryRecvError::Disconnected) => return Err(std::sync::mpsc::RecvError),
            Err(std::sync::mpsc::TryRecvError::Empty) if i % 64 == 63 => std::thread::yield_now(),
            Err(std::sync::mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
        }
    }
    from.recv()
}

/// The second thread: answers each request with its block's marks, and the witnesses of as
/// many of its piles as it finds before `wanted` is set.
fn serve(requests: Receiver<Request>, answers: Sender<Marked>, wanted: &AtomicBool) {
    let (mut rare, mut rare_value): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    let mut search = AheadTables::default();
    while let Ok(request) = receive(&requests) {
        let values = request.values;
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
        let (start, classes) = (request.start, request.classes);
        let marking = Marking {
            start,
            splits: &request.splits,
            known,
            reach,
            size: request.size,
            witnesses: request.witnesses,
            classes,
        };
        let (rare, spare) = ((&rare[..], &rare_value[..]), request.spare);
        let marked = with_slots!(&values, g => marking.fill(g, rare, spare, Some((&mut search, wanted))));
        // Before the answer: once it is received, this thread's share is gone, and a window's
        // slide moves the values in place rather than into a new buffer.
        drop(values);
        if answers.send(marked).is_err() {
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
    witnesses: Option<usize>,
    classes: Classes,
}

impl Marking<'_> {
    /// The work ahead of this block, in the tables of `spare` (a block done with) if given:
    /// the marks, then, given the search's tables and a flag, the witnesses pile by pile until
    /// the flag is set.
    fn fill<T: Slot>(
        &self,
        g: &[T],
        (rare, rare_value): (&[u32], &[u32]),
        spare: Option<Marked>,
        witnesses_until: Option<(&mut AheadTables, &AtomicBool)>,
    ) -> Marked {
        let piles = AHEAD_PILES as usize;
        let (mut tables, mut work) = spare.map_or((Vec::new(), Vec::new()), |m| (m.tables, m.work));
        tables.clear();
        tables.resize(piles * self.size, 0);
        self.mark(g, rare, rare_value, &mut tables);
        work.clear();
        work.resize(piles, None);
        if let (Some(floor), Some((search, stop))) = (self.witnesses, witnesses_until) {
            let piles = tables.chunks_exact_mut(self.size);
            let at = (self.known, floor, self.reach);
            for ((m, table), w) in (self.start..).zip(piles).zip(work.iter_mut()) {
                if stop.load(Ordering::Acquire) {
                    break;
                }
                *w = Some(search_ahead(g, m, at, self.splits, self.classes, table, search));
            }
        }
        Marked {
            classes: self.classes,
            start: self.start,
            piles: AHEAD_PILES,
            known: self.known,
            size: self.size,
            tables,
            witnesses: self.witnesses,
            work,
        }
    }

    fn mark<T: Slot>(&self, g: &[T], rare: &[u32], rare_value: &[u32], tables: &mut [u8]) {
        let mut jobs = Vec::new();
        for (m, table) in (self.start..).zip(tables.chunks_exact_mut(self.size)) {
            let ways = self.splits.iter().filter(|&&(t, f)| t + 2 <= m && f & (TWO_ANY | TWO_UNEQUAL) != 0);
            for &(t, f) in ways {
                let rest = (m - t) as usize;
                let (lo, hi) = marked_ahead(rest, self.known);
                let from = rare_below(rare, lo);
                let to = rare_below(rare, hi).max(from);
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
