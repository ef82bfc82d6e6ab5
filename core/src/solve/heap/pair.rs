//! The second thread of the pairs of piles (see `HeapKernel`): it computes the odd piles
//! while the kernel's thread computes the even ones.
//!
//! It reads the kernel's values through a share (see `Slots`: no copy), and writes each pile's
//! value in the place the kernel lent it for that pile: the next pile it is asked for needs it
//! before the kernel has taken it, and the kernel then takes it as stored. It keeps its own copy
//! of the sparse-space method's tables, made by adding the same values in the same order (or
//! made again from the values when the kernel made its tables again): the tables are a function
//! of the classes and the values alone, so the copy is the kernel's own, and the pile's search
//! runs as it would on the kernel's thread.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use super::ahead::{receive_after, PileAhead};
use super::classes::Classes;
use super::mex::next_value;
use super::sparse::{PileSparse, Sparse};
use super::values::{with_slots, FilledValue, Marks, Parallel, Reach, ValueLease, Values};
use super::HeapRules;

/// Checks this many times for a message before sleeping until it comes: a pile takes from a
/// few microseconds to a few hundred, and a thread woken from sleep takes tens of microseconds
/// to run again (0.564 to 2^17: with 2^10 checks a thread slept 210 to 338 times, with 2^14
/// 10 to 76).
const SPINS_BEFORE_SLEEP: u32 = 1 << 14;

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
    jobs: Option<Sender<Job>>,
    answers: Receiver<Answer>,
    worker: Option<JoinHandle<()>>,
    /// a table of marks ahead, sent back with an answer
    spare: Vec<u8>,
}

impl PairThread {
    /// Starts the thread, which computes piles under `rules`; `None` when the system gives no
    /// thread (the kernel computes both piles itself).
    pub(super) fn start(rules: HeapRules) -> Option<PairThread> {
        let (jobs, inbox) = channel::<Job>();
        let (outbox, answers) = channel::<Answer>();
        let worker =
            std::thread::Builder::new().name("takeaway-pair".into()).spawn(move || serve(rules, inbox, outbox)).ok()?;
        Some(PairThread { jobs: Some(jobs), answers, worker: Some(worker), spare: Vec::new() })
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
        if let Err(std::sync::mpsc::SendError(job)) = jobs.send(job) {
            self.jobs = None;
            return Err(job.lease);
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
        // Without jobs the thread's loop ends.
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The second thread: answers each job with its pile's value.
fn serve(mut rules: HeapRules, jobs: Receiver<Job>, answers: Sender<Answer>) {
    let mut largest = 0;
    let mut tables: Option<(u64, Sparse)> = None;
    let mut marks = Marks::default();
    // How many values it has seen (into `largest`, and its tables when it has them), the pile
    // it computed last with its value, and the place it filled with it: the next pile needs
    // that value before the kernel has stored it.
    let mut seen = 0;
    let mut last: Option<(usize, u32)> = None;
    let mut filled: Option<FilledValue> = None;
    while let Ok(job) = receive_after(&jobs, SPINS_BEFORE_SLEEP) {
        let Job { n, values, lease, tables: asked_tables, targeted, ahead: held } = job;
        // Pile n reads the values below n − 1: the kernel's, and this thread's last when the
        // kernel has not stored it yet, read where this thread wrote it. Where it could not write
        // it there (too wide for the values' width, or the values moved since), it reads a copy
        // of the values with it: that happens as often as the values widen or grow, a few times
        // a run.
        let values = if values.len() as u64 + 1 == n {
            Some(values)
        } else {
            let longer = match &filled {
                Some(f) => values.with_filled(f),
                None => Err(values),
            };
            match longer {
                Ok(longer) => Some(longer),
                Err(values) => last.filter(|&(at, _)| at == values.len() && at as u64 + 2 == n).map(|(_, v)| {
                    let mut copy = values.prefix(values.len());
                    copy.push(v);
                    copy
                }),
            }
        };
        // A job that does not follow on (a bug), or whose rules do not reach pile n, is
        // answered with nothing, and the kernel computes its piles alone.
        let follows = |v: &Values| v.len() as u64 + 1 == n && v.len() >= seen;
        let Some(values) = values.filter(follows).filter(|_| rules.evaluate_to(n).is_ok()) else {
            let placed = lease.map(Err);
            let _ = answers.send(Answer { found: None, work: 0, searched: None, placed, spare: Vec::new() });
            continue;
        };
        // Under the plain scan it needs only the values; under the sparse-space method, the
        // kernel's tables as they are for this pile.
        let fresh = match asked_tables {
            None => {
                tables = None;
                false
            }
            Some((_, generation)) => tables.as_ref().is_none_or(|(made, _)| *made != generation),
        };
        for at in seen..values.len() {
            let v = values.get(at);
            largest = largest.max(v);
            if let (false, Some((_, sparse))) = (fresh, &mut tables) {
                sparse.add(at as u32, v);
            }
        }
        seen = values.len();
        if let (true, Some((classes, generation))) = (fresh, asked_tables) {
            tables = Some((generation, classes.sparse(&values)));
        }
        let ahead = held.as_ref().map(|(table, known)| PileAhead { table, known: *known, witnessed: None, floor: 0 });
        let mut pile = tables.as_mut().filter(|_| asked_tables.is_some()).map(|(_, sparse)| {
            let Sparse { shared, beside, .. } = sparse;
            PileSparse { shared, scratch: beside, targeted, searched: None }
        });
        let (one, mut work) = (Parallel { threads: 1, from: usize::MAX }, 0);
        let p = pile.as_mut();
        let found = with_slots!(&values, g => next_value(g, n, Reach::WHOLE, &rules, &mut marks, largest, p, one, None, ahead, None, &mut work));
        let searched = pile.and_then(|p| p.searched);
        // The value in its place; the lease back when there is none or it is too wide.
        let placed = lease.map(|lease| match found {
            Some(v) => lease.fill(v),
            None => Err(lease),
        });
        last = found.map(|v| (n as usize, v));
        filled = match &placed {
            Some(Ok(f)) => Some(f.clone()),
            _ => None,
        };
        drop(values);
        let spare = held.map(|(table, _)| table).unwrap_or_default();
        if answers.send(Answer { found, work, searched, placed, spare }).is_err() {
            return;
        }
    }
}
