//! The second thread of the pairs of piles (see `HeapKernel`): it computes the odd piles
//! while the kernel's thread computes the even ones, from copies of its own.
//!
//! It keeps its own copy of the values, sent with each pile asked for (and its own last one),
//! and its own copy of the sparse-space method's tables, made by adding the same values in the
//! same order (or made again from its values when the kernel made its tables again): the
//! tables are a function of the classes and the values alone, so the copy is the kernel's own,
//! and the pile's search runs as it would on the kernel's thread. It never reads what that
//! thread writes.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use super::ahead::{receive_after, PileAhead};
use super::classes::Classes;
use super::mex::next_value;
use super::sparse::{PileSparse, Sparse};
use super::values::{with_slots, Marks, Parallel, Reach, Values};
use super::HeapRules;

/// Checks this many times for a message before sleeping until it comes: a pile takes from a
/// few microseconds to a few hundred, and a thread woken from sleep takes tens of microseconds
/// to run again (0.564 to 2^17: with 2^10 checks a thread slept 210 to 338 times, with 2^14
/// 10 to 76).
const SPINS_BEFORE_SLEEP: u32 = 1 << 14;

/// A pile for the second thread to compute.
struct Job {
    n: u64,
    /// the values stored since the last job, in order (the first `from` it holds already)
    values: Vec<u32>,
    from: usize,
    /// the kernel's sparse-space tables, made under these classes, the `generation`-th it made
    /// (`None`: the plain scan)
    tables: Option<(Classes, u64)>,
    /// whether the pile's search for witnesses tries the holders first
    targeted: bool,
    /// the options marked ahead for the pile, and every value below `known` they knew
    ahead: Option<(Vec<u8>, usize)>,
}

/// What the second thread found for a pile: its value, unless it could not compute it, the
/// work, what its search for witnesses cost, and the job's table and list of values to reuse
/// (no allocation a pile, nor memory freed by the other thread).
pub(super) struct Answer {
    pub(super) found: Option<u32>,
    pub(super) work: u64,
    pub(super) searched: Option<(bool, u64)>,
    spare: (Vec<u8>, Vec<u32>),
}

/// The second thread of the pairs, and what it holds.
pub(super) struct PairThread {
    jobs: Option<Sender<Job>>,
    answers: Receiver<Answer>,
    worker: Option<JoinHandle<()>>,
    /// how many values it holds
    sent: usize,
    /// a table of marks ahead and a list of values, sent back with an answer
    spare: (Vec<u8>, Vec<u32>),
}

impl PairThread {
    /// Starts the thread, which computes piles under `rules`; `None` when the system gives no
    /// thread (the kernel computes both piles itself).
    pub(super) fn start(rules: HeapRules) -> Option<PairThread> {
        let (jobs, inbox) = channel::<Job>();
        let (outbox, answers) = channel::<Answer>();
        let worker =
            std::thread::Builder::new().name("takeaway-pair".into()).spawn(move || serve(rules, inbox, outbox)).ok()?;
        Some(PairThread { jobs: Some(jobs), answers, worker: Some(worker), sent: 0, spare: Default::default() })
    }

    /// Asks for pile n, with the values stored so far (none missing), the kernel's classes and
    /// the generation of its tables (none under the plain scan), the way its search goes, and
    /// the marks made ahead for it. False when the thread is gone.
    pub(super) fn ask(
        &mut self,
        n: u64,
        values: &Values,
        tables: Option<(Classes, u64)>,
        targeted: bool,
        ahead: Option<PileAhead>,
    ) -> bool {
        let Some(jobs) = &self.jobs else { return false };
        let from = self.sent.min(values.len());
        let (mut table, mut sent) = std::mem::take(&mut self.spare);
        let ahead = ahead.map(|a| {
            table.clear();
            table.extend_from_slice(a.table);
            (table, a.known)
        });
        sent.clear();
        sent.extend((from..values.len()).map(|i| values.get(i)));
        let job = Job { n, values: sent, from, tables, targeted, ahead };
        if jobs.send(job).is_err() {
            self.jobs = None;
            return false;
        }
        self.sent = values.len();
        true
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
    let mut values = Values::default();
    let mut largest = 0;
    let mut tables: Option<(u64, Sparse)> = None;
    let mut marks = Marks::default();
    // The last pile it computed, whose value the kernel has not sent back yet.
    let mut last: Option<(usize, u32)> = None;
    while let Ok(job) = receive_after(&jobs, SPINS_BEFORE_SLEEP) {
        let answer = |found, work, searched, spare| Answer { found, work, searched, spare };
        let mut push = |v: u32, values: &mut Values, tables: &mut Option<(u64, Sparse)>| {
            if let Some((_, sparse)) = tables {
                sparse.add(values.len() as u32, v);
            }
            largest = largest.max(v);
            values.push(v);
        };
        // The values it lacks, in order: the kernel's since the last job (less those it holds),
        // then its own last one. Pile job.n needs every value below job.n − 1.
        let follows = job.from <= values.len();
        for (at, &v) in (job.from..).zip(&job.values) {
            if follows && at == values.len() {
                push(v, &mut values, &mut tables);
            }
        }
        if let Some((at, v)) = last.take() {
            if follows && at == values.len() {
                push(v, &mut values, &mut tables);
            }
        }
        // A job that does not follow on is answered with nothing, and the kernel computes its
        // piles alone.
        if !follows || values.len() as u64 + 1 != job.n || rules.evaluate_to(job.n).is_err() {
            let _ = answers.send(answer(None, 0, None, (Vec::new(), job.values)));
            continue;
        }
        let held = job.ahead;
        let ahead = held.as_ref().map(|(table, known)| PileAhead { table, known: *known, witnessed: None, floor: 0 });
        // Under the plain scan it needs only the values; under the sparse-space method, the
        // kernel's tables as they are for this pile.
        let mut pile = match job.tables {
            None => {
                tables = None;
                None
            }
            Some((classes, generation)) => {
                if tables.as_ref().is_none_or(|(made, _)| *made != generation) {
                    tables = Some((generation, classes.sparse(&values)));
                }
                tables.as_mut().map(|(_, sparse)| {
                    let Sparse { shared, beside, .. } = sparse;
                    PileSparse { shared, scratch: beside, targeted: job.targeted, searched: None }
                })
            }
        };
        let (one, mut work, n) = (Parallel { threads: 1, from: usize::MAX }, 0, job.n);
        let p = pile.as_mut();
        let found = with_slots!(&values, g => next_value(g, n, Reach::WHOLE, &rules, &mut marks, largest, p, one, None, ahead, None, &mut work));
        let searched = pile.and_then(|p| p.searched);
        last = found.map(|v| (job.n as usize, v));
        let spare = (held.map(|(table, _)| table).unwrap_or_default(), job.values);
        if answers.send(answer(found, work, searched, spare)).is_err() {
            return;
        }
    }
}
