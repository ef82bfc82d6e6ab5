//! The budget of one question, from the moment it arrives: the time it may take (a deadline
//! when one is given, and the bound its estimates are held to), the memory its searches may
//! keep, its threads, the token that cancels it and the sink that hears its progress. Built
//! once per question by a front end and carried through every stage: reading and checking the
//! game, estimating, solving, rendering.

use super::progress::{CancelToken, Progress};
use super::{reach, Limits, SolveError, Table};

/// What one question may spend. Built with `Budget::new()` and its setters (or from the
/// request's `BudgetArgs`); every stage of the question reads it.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    limits: Limits,
}

impl Budget {
    /// Seconds a question may take on defaults: an estimate past this is refused at once, with
    /// how long it would take; one within it runs (counted, not timed, so that the same
    /// question gives the same answer on any machine).
    pub const DEFAULT_SECONDS: f64 = super::DEFAULT_SECONDS;

    /// The positions a search may keep on defaults (about 670 MB).
    pub const DEFAULT_MAX_STATES: usize = super::DEFAULT_MAX_STATES;

    /// The default budget: `DEFAULT_SECONDS`, `DEFAULT_MAX_STATES`, the machine's threads (at
    /// most two), no deadline.
    pub fn new() -> Budget {
        Budget { limits: Limits::default() }
    }

    /// A deadline `seconds` from now (the question stops there with a timeout), and the bound
    /// its estimates are held to; `None` leaves the default bound and no deadline.
    pub fn timeout(mut self, seconds: Option<f64>) -> Budget {
        self.limits = self.limits.with_timeout(seconds);
        self
    }

    /// `seconds` of work, counted rather than timed: estimates past it are refused, and the
    /// work stops there, at the same place on every machine (no deadline is set).
    pub fn within(mut self, seconds: f64) -> Budget {
        self.limits = self.limits.within(seconds);
        self
    }

    /// At most `seconds` however it was asked: a server's own limit on every question. A
    /// question asked within it keeps its own budget (the default's counted work, the same as
    /// on the command line); the server's deadline stops it at the latest.
    pub fn at_most(mut self, seconds: f64) -> Budget {
        self.limits = self.limits.at_most(seconds);
        self
    }

    /// The most moves the question may examine, counted: its work (time grows with it), and
    /// the bound its estimates are held to. A deadline given by `timeout` still stops it.
    pub(crate) fn max_moves(mut self, moves: u64) -> Budget {
        self.limits = self.limits.with_max_moves(moves.max(1));
        self
    }

    /// The most positions a search may keep (memory grows with it).
    pub fn max_states(mut self, positions: usize) -> Budget {
        self.limits = self.limits.with_max_states(positions.max(1));
        self
    }

    /// The memory a search may keep, in MB: sets the most positions to about 7,500 a MB.
    pub(crate) fn memory(self, megabytes: u64) -> Budget {
        self.max_states(reach::positions_in_memory(megabytes))
    }

    /// Threads the take-and-break kernel may share one pile's work with (answers never depend
    /// on it).
    pub fn threads(mut self, threads: usize) -> Budget {
        self.limits.threads = threads.max(1);
        self
    }

    /// Keep every pile's value in memory: without it, a long run of a splitting game keeps a
    /// window of them (the values are the same).
    pub fn keep_table(mut self, keep: bool) -> Budget {
        self.limits.table = if keep { Table::Whole } else { Table::DEFAULT };
        self
    }

    /// The token that cancels this question (a clone stays with the front end).
    pub fn cancel(mut self, token: CancelToken) -> Budget {
        self.limits.cancel = token;
        self
    }

    /// Where this question's progress is reported.
    pub fn progress(mut self, progress: Progress) -> Budget {
        self.limits.progress = progress;
        self
    }

    /// The token that cancels this question.
    pub fn cancel_token(&self) -> &CancelToken {
        &self.limits.cancel
    }

    /// The seconds this question may take: its timeout, or the default bound on estimates.
    pub fn seconds(&self) -> f64 {
        self.limits.seconds()
    }

    /// The most positions a search may keep.
    pub fn positions(&self) -> usize {
        self.limits.max_states
    }

    /// Stops with the reason when the question was cancelled or its deadline passed.
    pub(crate) fn check(&self) -> Result<(), SolveError> {
        crate::solve::check_cancel(&self.limits)
    }

    /// The engine's limits within this budget.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The same budget with the engine's limits changed (for `internals`' switches).
    pub(crate) fn map_limits(self, change: impl FnOnce(Limits) -> Limits) -> Budget {
        Budget { limits: change(self.limits) }
    }
}
