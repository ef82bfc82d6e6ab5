//! The second thread of the pairs of piles (see `HeapKernel`): it computes the odd piles
//! while the kernel's thread computes the even ones, one job at a time, or a stretch of them by
//! itself (see `stretch`).
//!
//! It reads the kernel's values through a share (see `Slots`: no copy), and writes each pile's
//! value in the place the kernel lent it for that pile: the next pile it is asked for needs it
//! before the kernel has taken it, and the kernel then takes it as stored. It keeps its own copy
//! of the sparse-space method's tables, made by adding the same values in the same order (or
//! made again from the values when the kernel made its tables again): the tables are a function
//! of the classes and the values alone, so the copy is the kernel's own, and the pile's search
//! runs as it would on the kernel's thread.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::ahead::{receive_after, PileAhead};
use super::classes::Classes;
use super::mex::next_value;
use super::sparse::{PileSparse, Sparse};
use super::stretch::{StretchAnswer, StretchJob, StretchLink};
use super::values::{with_slots, FilledValue, Marks, Parallel, Reach, ValueLease, Values};
use super::HeapRules;

/// Checks this many times for a message before sleeping until it comes: a pile takes from a
/// few microseconds to a few hundred, and a thread woken from sleep takes tens of microseconds
/// to run again (0.564 to 2^17: with 2^10 checks a thread slept 210 to 338 times, with 2^14
/// 10 to 76).
const SPINS_BEFORE_SLEEP: u32 = 1 << 14;

/// What the second thread is asked: one pile, or a stretch of them.
enum Message {
    Pile(Job),
    Stretch(StretchJob),
}

/// A pile for the second thread to compute.
struct Job {
    n: u64,
    /// the kernel's values as they are at the ask: pile n needs every one below n − 1, the last
    /// of them (when the kernel has not stored it yet) the one this thread wrote
    values: Values,
    /// pile n's place in the values, lent for its value (`None`: the kernel stores it)
    lease: Option<ValueLease>,
    /// the kernel's sparse-space tables, made under these classes, the `generation`-th it made
    /// (`None`: the plain scan)
    tables: Option<(Classes, u64)>,
    /// whether the pile's search for witnesses tries the holders first
    targeted: bool,
    /// the options marked ahead for the pile, and every value below `known` they knew
    ahead: Option<(Vec<u8>, usize)>,
}

/// What the second thread found for a pile: its value, unless it could not compute it, the
/// work, what its search for witnesses cost, the pile's place filled with its value (or its
/// lease back unfilled), and the job's table to reuse (no allocation a pile, nor memory freed
/// by the other thread).
pub(super) struct Answer {
    pub(super) found: Option<u32>,
    pub(super) work: u64,
    pub(super) searched: Option<(bool, u64)>,
    pub(super) placed: Option<Result<FilledValue, ValueLease>>,
    spare: Vec<u8>,
}

/// The second thread of the pairs.
pub(super) struct PairThread {
    jobs: Option<Sender<Message>>,
    answers: Receiver<Answer>,
    worker: Option<JoinHandle<()>>,
    /// a table of marks ahead, sent back with an answer
    spare: Vec<u8>,
    /// what a stretch shares (see `stretch`)
    link: Arc<StretchLink>,
    /// the last stretch asked for
    stretches: u64,
}

impl PairThread {
    /// Starts the thread, which computes piles under `rules`; `None` when the system gives no
    /// thread (the kernel computes both piles itself).
    pub(super) fn start(rules: HeapRules) -> Option<PairThread> {
        let (jobs, inbox) = channel::<Message>();
        let (outbox, answers) = channel::<Answer>();
        let link = StretchLink::new();
        let theirs = Arc::clone(&link);
        let worker = std::thread::Builder::new()
            .name("takeaway-pair".into())
            .spawn(move || serve(rules, inbox, outbox, theirs))
            .ok()?;
        Some(PairThread { jobs: Some(jobs), answers, worker: Some(worker), spare: Vec::new(), link, stretches: 0 })
    }

    /// Asks for the odd piles from `first` below `end` as a stretch (see `stretch`): `values`
    /// is a share of the kernel's, every value below `first` − 1 stored, in the buffer the
    /// kernel numbers `epoch`, with the kernel's tables. The stretch's number; `None` when the
    /// thread is gone.
    pub(super) fn ask_stretch(
        &mut self,
        (first, end): (u64, u64),
        (values, epoch): (Values, u64),
        tables: Option<(Classes, u64)>,
        targeted: Vec<bool>,
    ) -> Option<u64> {
        let jobs = self.jobs.as_ref()?;
        self.stretches += 1;
        let id = self.stretches;
        self.link.open(epoch, values.len());
        let job = StretchJob { id, first, end, values, epoch, tables, targeted };
        if jobs.send(Message::Stretch(job)).is_err() {
            self.jobs = None;
            return None;
        }
        Some(id)
    }

    /// What the kernel and the thread share in a stretch.
    pub(super) fn link(&self) -> &StretchLink {
        &self.link
    }

    /// The answer to an odd pile of stretch `id`; `None` when the thread is gone or left the
    /// stretch without it.
    pub(super) fn stretch_answer(&mut self, id: u64, pile: u64) -> Option<StretchAnswer> {
        let answer = self.link.answer(id, pile);
        if answer.is_none() {
            debug_assert!(false, "the pair's second thread stopped");
            self.jobs = None;
        }
        answer
    }

    /// Asks for pile n, with a share of the values stored so far (none missing but the pile
    /// before n, which this thread computed), pile n's place lent, the kernel's classes and the
    /// generation of its tables (none under the plain scan), the way its search goes, and the
    /// marks made ahead for it. The lease back when the thread is gone.
    pub(super) fn ask(
        &mut self,
        n: u64,
        (values, lease): (Values, Option<ValueLease>),
        tables: Option<(Classes, u64)>,
        targeted: bool,
        ahead: Option<PileAhead>,
    ) -> Result<(), Option<ValueLease>> {
        let Some(jobs) = &self.jobs else { return Err(lease) };
        let mut table = std::mem::take(&mut self.spare);
        let ahead = ahead.map(|a| {
            table.clear();
            table.extend_from_slice(a.table);
            (table, a.known)
        });
        let job = Job { n, values, lease, tables, targeted, ahead };
        if let Err(std::sync::mpsc::SendError(message)) = jobs.send(Message::Pile(job)) {
            self.jobs = None;
            return Err(match message {
                Message::Pile(job) => job.lease,
                Message::Stretch(_) => None,
            });
        }
        Ok(())
    }

    /// The answer to the last pile asked for; `None` when the thread is gone.
    pub(super) fn answer(&mut self) -> Option<Answer> {
        let mut answer = self.receive()?;
        self.spare = std::mem::take(&mut answer.spare);
        Some(answer)
    }

    /// The answer to the last job; `None` when the thread is gone.
    fn receive(&mut self) -> Option<Answer> {
        match receive_after(&self.answers, SPINS_BEFORE_SLEEP) {
            Ok(answer) => Some(answer),
            Err(_) => {
                // Only a bug of its own ends its loop while the kernel lives: the kernel goes
                // on alone, and the tests fail.
                debug_assert!(false, "the pair's second thread stopped");
                self.jobs = None;
                None
            }
        }
    }
}

impl Drop for PairThread {
    fn drop(&mut self) {
        // Without jobs the thread's loop ends, once it leaves the stretch it may be in.
        self.link.stop();
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The second thread: answers each job with its pile's value, and computes each stretch's odd
/// piles.
fn serve(rules: HeapRules, jobs: Receiver<Message>, answers: Sender<Answer>, link: Arc<StretchLink>) {
    let _gone = link.alive_while();
    let mut worker =
        Worker { rules, largest: 0, tables: None, marks: Marks::default(), seen: 0, last: None, filled: None };
    while let Ok(message) = receive_after(&jobs, SPINS_BEFORE_SLEEP) {
        match message {
            Message::Pile(job) => {
                if answers.send(worker.pile(job)).is_err() {
                    return;
                }
            }
            Message::Stretch(job) => worker.stretch(job, &link),
        }
    }
}

/// What the second thread keeps from pile to pile.
struct Worker {
    rules: HeapRules,
    /// the largest value it has seen
    largest: u32,
    /// its copy of the kernel's sparse-space tables, with the generation they copy
    tables: Option<(u64, Sparse)>,
    marks: Marks,
    /// How many values it has seen (into `largest`, and its tables when it has them), the pile
    /// it computed last with its value, and the place it filled with it: the next pile needs
    /// that value before the kernel has stored it.
    seen: usize,
    last: Option<(usize, u32)>,
    filled: Option<FilledValue>,
}

impl Worker {
    /// Pile n's value, from `values` (every value below n − 1), its search going as `targeted`
    /// says, with the options marked ahead for it if any.
    fn compute(
        &mut self,
        values: &Values,
        n: u64,
        targeted: bool,
        held: Option<(&[u8], usize)>,
        asked_tables: Option<(Classes, u64)>,
    ) -> (Option<u32>, u64, Option<(bool, u64)>) {
        // Under the plain scan it needs only the values; under the sparse-space method, the
        // kernel's tables as they are for this pile.
        let fresh = match asked_tables {
            None => {
                self.tables = None;
                false
            }
            Some((_, generation)) => self.tables.as_ref().is_none_or(|(made, _)| *made != generation),
        };
        for at in self.seen..values.len() {
            let v = values.get(at);
            self.largest = self.largest.max(v);
            if let (false, Some((_, sparse))) = (fresh, &mut self.tables) {
                sparse.add(at as u32, v);
            }
        }
        self.seen = values.len();
        if let (true, Some((classes, generation))) = (fresh, asked_tables) {
            self.tables = Some((generation, classes.sparse(values)));
        }
        let ahead = held.map(|(table, known)| PileAhead { table, known, witnessed: None, floor: 0 });
        let mut pile = self.tables.as_mut().filter(|_| asked_tables.is_some()).map(|(_, sparse)| {
            let Sparse { shared, beside, .. } = sparse;
            PileSparse { shared, scratch: beside, targeted, searched: None }
        });
        let (one, mut work) = (Parallel { threads: 1, from: usize::MAX }, 0);
        let (rules, marks, largest) = (&self.rules, &mut self.marks, self.largest);
        let p = pile.as_mut();
        let found = with_slots!(values, g => next_value(g, n, Reach::WHOLE, rules, marks, largest, p, one, None, ahead, None, &mut work));
        (found, work, pile.and_then(|p| p.searched))
    }

    /// Forgets what it saw past `values`: in a stretch the kernel gave up (its method changed
    /// at the stretch's first pile), this thread may have gone on past the piles the kernel
    /// took. Its largest value is that of `values` again, and its tables are made anew (the
    /// kernel's are new too, or gone).
    fn catch_up(&mut self, values: &Values) {
        if values.len() < self.seen {
            self.largest = (0..values.len()).map(|n| values.get(n)).max().unwrap_or(0);
            self.seen = values.len();
            self.tables = None;
        }
    }

    /// The answer to one pile's job.
    fn pile(&mut self, job: Job) -> Answer {
        let Job { n, values, lease, tables: asked_tables, targeted, ahead: held } = job;
        // Pile n reads the values below n − 1: the kernel's, and this thread's last when the
        // kernel has not stored it yet, read where this thread wrote it. Where it could not write
        // it there (too wide for the values' width, or the values moved since), it reads a copy
        // of the values with it: that happens as often as the values widen or grow, a few times
        // a run.
        let values = if values.len() as u64 + 1 == n {
            Some(values)
        } else {
            let longer = match &self.filled {
                Some(f) => values.with_filled(f),
                None => Err(values),
            };
            match longer {
                Ok(longer) => Some(longer),
                Err(values) => self.last.filter(|&(at, _)| at == values.len() && at as u64 + 2 == n).map(|(_, v)| {
                    let mut copy = values.prefix(values.len());
                    copy.push(v);
                    copy
                }),
            }
        };
        if let Some(values) = &values {
            self.catch_up(values);
        }
        // A job that does not follow on (a bug), or whose rules do not reach pile n, is
        // answered with nothing, and the kernel computes its piles alone.
        let seen = self.seen;
        let follows = |v: &Values| v.len() as u64 + 1 == n && v.len() >= seen;
        let Some(values) = values.filter(follows).filter(|_| self.rules.evaluate_to(n).is_ok()) else {
            let placed = lease.map(Err);
            return Answer { found: None, work: 0, searched: None, placed, spare: Vec::new() };
        };
        let marks = held.as_ref().map(|(table, known)| (&table[..], *known));
        let (found, work, searched) = self.compute(&values, n, targeted, marks, asked_tables);
        // The value in its place; the lease back when there is none or it is too wide.
        let placed = lease.map(|lease| match found {
            Some(v) => lease.fill(v),
            None => Err(lease),
        });
        self.last = found.map(|v| (n as usize, v));
        self.filled = match &placed {
            Some(Ok(f)) => Some(f.clone()),
            _ => None,
        };
        drop(values);
        let spare = held.map(|(table, _)| table).unwrap_or_default();
        Answer { found, work, searched, placed, spare }
    }

    /// Computes a stretch's odd piles, each once the kernel has stored the values below it less
    /// one (see `stretch`), and leaves each one's answer.
    fn stretch(&mut self, job: StretchJob, link: &StretchLink) {
        let StretchJob { id, first, end, mut values, mut epoch, tables, targeted } = job;
        self.catch_up(&values);
        // The last pile this thread wrote is in the buffer it reads (at the start, pile
        // first − 2 is among the values stored).
        let mut own = true;
        let mut pile = first;
        // The kernel checked that the rules reach the stretch's last pile (and `catch_up` that
        // this thread has seen no value past the share).
        let follows = values.len() as u64 + 1 == first;
        while follows && pile < end {
            if !link.wait_stored((id, pile, false), &mut values, &mut epoch, &mut own) {
                break;
            }
            // Safety: the kernel has stored every value below pile − 2 (or below pile − 1) in
            // this buffer and published that after the writes, which `wait_stored` acquired;
            // pile − 2, when not among them, this thread wrote here itself. The kernel writes
            // only at its own length, at least pile − 2, and never pile − 2 while this thread's
            // value is there (it takes it as stored).
            unsafe { values.read_up_to(pile as usize - 1) };
            let i = ((pile - first) / 2) as usize;
            let flag = targeted.get(i).copied().unwrap_or(false);
            let (mut found, mut work, mut searched) = self.compute(&values, pile, flag, None, tables);
            // Where the rules defer pile − 1's option (the kernel's), the pile is settled here
            // once the kernel has stored it, as the kernel settles the piles it computes.
            if found.is_some() && self.rules.defers_last() {
                if !link.wait_stored((id, pile, true), &mut values, &mut epoch, &mut own) {
                    break;
                }
                // Safety: as above, with every value below the pile stored by the kernel.
                unsafe { values.read_up_to(pile as usize) };
                if found == Some(values.get(pile as usize - 1)) {
                    let again = self.compute(&values, pile, flag, None, tables);
                    (found, searched) = (again.0, again.2);
                    work += again.1;
                }
            }
            let Some(value) = found else { break };
            // Safety: the kernel's length is at most this pile until it takes this answer, and
            // it neither reads nor writes the place before then; no other handle writes it.
            own = unsafe { values.write_past(pile as usize, value) };
            self.last = Some((pile as usize, value));
            self.filled = None;
            link.answer_with(pile, value, work, searched, own.then_some(epoch));
            pile += 2;
        }
        drop(values);
        link.leave(id);
    }
}
