//! What travels with one question besides its numeric limits: the token that cancels it and
//! the sink that hears how far it has got. Both belong to the question, never to the process,
//! so two questions in one process are cancelled and reported independently.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What is being counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Grundy values of single piles, computed bottom up: `done` of `total`
    PileValues,
    /// rows of a table: `done` of `total`
    TableRows,
    /// moves examined by a search, with no known end (`total` is 0)
    Search,
}

/// Hears about the progress of one question (a front end's progress bar, a notebook's).
pub trait Reporter: Send + Sync {
    /// Reports that `done` of `total` of a stage are done.
    fn report(&self, stage: Stage, done: u64, total: u64);

    /// The estimate says the limits will stop this stage near `reachable`, before `total`: a
    /// bar should count to there, not promise the end.
    fn limited(&self, _stage: Stage, _reachable: u64, _total: u64) {}

    /// Called each time the question looks at its cancel token (often: between steps of every
    /// long loop), so that a front end can cancel it from the same thread (Python looks for a
    /// Ctrl-C here). Keep it cheap.
    fn poll(&self) {}
}

/// Where one question's progress goes: nowhere unless a front end asked.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<dyn Reporter>>);

impl Progress {
    /// Progress reported to the given reporter.
    pub fn to(reporter: Arc<dyn Reporter>) -> Self {
        Progress(Some(reporter))
    }

    /// Callers report every thousand steps or so, not each.
    pub(crate) fn report(&self, stage: Stage, done: u64, total: u64) {
        if let Some(r) = &self.0 {
            r.report(stage, done, total);
        }
    }

    /// Lets the reporter look for a reason to cancel (see `Reporter::poll`).
    pub(crate) fn poll(&self) {
        if let Some(r) = &self.0 {
            r.poll();
        }
    }

    /// Tells the reporter that the limits will stop the stage near `reachable` of `total`.
    pub(crate) fn limited(&self, stage: Stage, reachable: u64, total: u64) {
        if let Some(r) = &self.0 {
            r.limited(stage, reachable, total);
        }
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Progress(reported)" } else { "Progress(silent)" })
    }
}

/// Cancels one question. Clones share the flag: the front end keeps one (a Ctrl-C handler, a
/// notebook's interrupt, a web request dropped) and the question carries the other.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token nobody has cancelled yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the question to stop with `SolveError::Cancelled` (safe from a signal handler).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for a handler that can only set a flag: a signal handler registered
    /// without a thread of its own (a thread would cost every short run its start).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }

    /// Forgets an earlier request, before the token is lent to a new question.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Why a question stopped before its answer: cancelled, or past its deadline. Reading a game
/// stops this way too, below the engines (`solve` words it as its own `SolveError`).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error, miette::Diagnostic)]
pub enum Stopped {
    /// The question's cancel token was set.
    #[error("the computation was cancelled")]
    #[diagnostic(
        code(takeaway::solve::cancelled),
        help("stopped as asked (by Ctrl-C, or by the program that asked): ask again to start over")
    )]
    Cancelled,
    /// The question's deadline passed.
    #[error("the computation ran out of time after {seconds} s")]
    #[diagnostic(code(takeaway::solve::timeout), help("give it longer, or ask a smaller question"))]
    Timeout {
        /// The time it was given.
        seconds: f64,
    },
}

/// What stops a question, as it travels with it: its cancel token, the progress sink it polls
/// and its deadline (with the time it was given).
#[derive(Clone, Default)]
pub(crate) struct Watch {
    pub(crate) cancel: CancelToken,
    pub(crate) progress: Progress,
    pub(crate) deadline: Option<(std::time::Instant, std::time::Duration)>,
}

impl Watch {
    /// Stops a question that was cancelled or is past its deadline.
    pub(crate) fn check(&self) -> Result<(), Stopped> {
        check_stop(&self.cancel, &self.progress, self.deadline)
    }
}

/// Stops a question that was cancelled or is past its deadline, its progress sink polled first
/// (the one check behind `Watch::check` and the engines' `check_cancel`, which reads the same
/// fields of its limits without copying them).
pub(crate) fn check_stop(
    cancel: &CancelToken,
    progress: &Progress,
    deadline: Option<(std::time::Instant, std::time::Duration)>,
) -> Result<(), Stopped> {
    progress.poll();
    if cancel.is_cancelled() {
        return Err(Stopped::Cancelled);
    }
    if let Some((deadline, given)) = deadline {
        if std::time::Instant::now() >= deadline {
            return Err(Stopped::Timeout { seconds: given.as_secs_f64() });
        }
    }
    Ok(())
}
