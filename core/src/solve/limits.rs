//! What a question may spend, and the state that travels with it: its limits, deadline,
//! cancellation and progress, the work counted against them, and their defaults.

use crate::wording::{give_value, Argument};
use std::time::{Duration, Instant};

use super::error::{approximately, search_memory};
use super::{progress, SolveError};

/// How much work a question may take before it is refused with a diagnostic, and the state
/// that travels with it: its deadline, the token that cancels it, where its progress goes.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    /// Positions a search may remember (and moves one position may have).
    pub max_states: usize,
    /// When the computation must stop, and the time it was given (for the message).
    pub deadline: Option<(Instant, Duration)>,
    /// How much of a long run's table of single-pile values stays in memory.
    pub table: Table,
    /// Moves a question may examine: its bound on time, counted so that the same question
    /// stops at the same place on every machine (the values of single piles may examine
    /// `PILE_SHARE` times as many, as a kernel's move is cheaper).
    pub max_work: u64,
    /// The seconds the question may take, which its estimates are held to.
    pub seconds: f64,
    /// Which sparse-space variants the take-and-break kernel may choose from (the benchmark
    /// compares its choice with each one forced; answers never depend on it).
    pub sparse: SparseMode,
    /// Threads the take-and-break kernel may share one pile's work with (the values never
    /// depend on it): the machine's cores, at most `MOST_THREADS`.
    pub threads: usize,
    /// Cancels this question (and only this one).
    pub cancel: progress::CancelToken,
    /// Moves listed so far by the parts of this question that keep no count of their own (the
    /// options of misère heaps): every clone of the question's limits shares it.
    pub listed: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Hears how far this question has got.
    pub progress: progress::Progress,
}

/// More threads than this share one pile's scans with too little each to pay.
pub(super) const MOST_THREADS: usize = crate::defaults::MOST_THREADS;

/// The threads the kernel uses unless told: every core, up to `MOST_THREADS`.
pub(super) fn default_threads() -> usize {
    // Read once per process: on Linux the answer comes from the cgroup files, a few tens of
    // microseconds that a library asking thousands of small questions would pay for each one.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    (*CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))).min(MOST_THREADS)
}

/// The sparse-space variants the take-and-break kernel may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SparseMode {
    /// The kernel chooses, from the values (the default).
    #[default]
    Auto,
    /// Never: every split is scanned (the plain O(n²) method).
    Never,
    /// Only one common parity for every pile (no domains by the pile's parity).
    OneDomain,
}

/// How much of the table of single-pile values a long run keeps. The sparse-space method reads
/// only the rare piles, which lie early, and the recent piles; past them a window is enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    /// Every value (`--keep-table`).
    Whole,
    /// For a pile of at least `from`, under the sparse-space method: the values of piles below
    /// `prefix` and the latest `recent` ones. A pile that needs a value outside them (a rare
    /// pile far back, a winning move through a dropped part, a second large pile asked about
    /// later) makes the run start again and keep everything, so the answers never change.
    Window { from: u64, prefix: usize, recent: usize },
}

impl Table {
    /// A window of 2¹⁸ + 2¹⁸ values (a few hundred KB) for piles from 2²¹ on.
    pub(crate) const DEFAULT: Table = Table::Window { from: 1 << 21, prefix: 1 << 18, recent: 1 << 18 };
}

pub(crate) const DEFAULT_MAX_STATES: usize = crate::defaults::MAX_STATES;

/// Seconds a question may take on defaults: estimates past it are refused at once.
pub(crate) const DEFAULT_SECONDS: f64 = crate::defaults::SECONDS;

/// Moves examined in a second, as the budget counts them: what a 2-core machine of 2026 does
/// in the engines' own measure (a move listed by a search; `PILE_SHARE` kernel moves), so
/// that an estimate of work reads as the seconds a user waits, and the same question stops at
/// the same place on every machine.
pub(super) const WORK_PER_SECOND: f64 = 5_000_000.0;

/// With a deadline given, the clock stops a question: the count of work only stops one that
/// passes the deadline's worth this many times over (a faster machine than the count's).
pub(super) const DEADLINE_WORK_MARGIN: f64 = 4.0;

/// From this pile size on, take ≤ f(last) games find winning moves through Schwenk's
/// representation instead of listing every move.
pub(super) const LISTED_PILE: u64 = 1 << 17;

/// Positions a remoteness search may visit for games solved by a faster method.
pub(super) const REMOTENESS_STATES: usize = 50_000;

/// How many moves of single-pile values count as one move of the budget.
pub(super) const PILE_SHARE: u64 = 2;

/// The seconds `moves` of work take, as the budget counts them, in words: "about 40 s".
pub(super) fn seconds_in_words(moves: f64) -> String {
    duration_in_words(moves / WORK_PER_SECOND)
}

/// A duration in words, rounded as an estimate: "about 40 s", "about 3 minutes".
pub(crate) fn duration_in_words(seconds: f64) -> String {
    if !seconds.is_finite() || seconds > 1e12 {
        return "far longer than anyone waits".into();
    }
    if seconds < 1.0 {
        return "under a second".into();
    }
    if seconds < 120.0 {
        return format!("about {} s", seconds.round() as u64);
    }
    let minutes = seconds / 60.0;
    if minutes < 120.0 {
        return format!("about {} minutes", minutes.round() as u64);
    }
    let hours = minutes / 60.0;
    if hours < 48.0 {
        return format!("about {} hours", hours.round() as u64);
    }
    let days = hours / 24.0;
    if days < 730.0 {
        return format!("about {} days", days.round() as u64);
    }
    format!("about {} years", approximately(days / 365.0))
}

impl Limits {
    /// At most `max_states` positions, on the default threads.
    pub(crate) fn states(max_states: usize) -> Self {
        Limits::states_on(max_states, default_threads())
    }

    /// At most `max_states` positions, on `threads` threads: a caller that was told how many
    /// does not read the machine's (the cgroup files cost every short run of the command).
    pub(crate) fn states_on(max_states: usize, threads: usize) -> Self {
        Limits {
            max_states,
            deadline: None,
            table: Table::DEFAULT,
            max_work: work_for(DEFAULT_SECONDS),
            seconds: DEFAULT_SECONDS,
            sparse: SparseMode::Auto,
            threads,
            cancel: progress::CancelToken::default(),
            listed: Default::default(),
            progress: progress::Progress::default(),
        }
    }

    /// The same limits, and a deadline `seconds` from now: the question may take that long
    /// (its estimates are held to it, and the clock stops it there). `None` changes nothing.
    pub(crate) fn with_timeout(self, seconds: Option<f64>) -> Self {
        let Some(s) = seconds.filter(|s| s.is_finite() && *s >= 0.0) else { return self };
        let s = s.min(1e9);
        let d = Duration::from_secs_f64(s);
        Limits {
            deadline: Some((Instant::now() + d, d)),
            seconds: s,
            max_work: work_for(s * DEADLINE_WORK_MARGIN),
            ..self
        }
    }

    /// The same limits, allowing `seconds` of work, counted (no deadline: the same question
    /// stops at the same place on every machine).
    pub(crate) fn within(self, seconds: f64) -> Self {
        let s = if seconds.is_finite() && seconds >= 0.0 { seconds.min(1e9) } else { DEFAULT_SECONDS };
        Limits { seconds: s, max_work: work_for(s), ..self }
    }

    /// These limits held to `seconds` at most: the earlier deadline, the shorter time for the
    /// estimates, and no more work than the deadline's worth.
    pub(crate) fn at_most(self, seconds: f64) -> Self {
        let asked = self.deadline.map(|(_, given)| given.as_secs_f64());
        if asked.is_some_and(|a| a <= seconds) {
            return self;
        }
        let capped = self.clone().with_timeout(Some(seconds));
        Limits {
            deadline: capped.deadline,
            seconds: self.seconds.min(capped.seconds),
            max_work: self.max_work.min(capped.max_work),
            ..self
        }
    }

    /// A share of these limits, for one part of a question: `1/parts` of its time and of its
    /// work (and the same deadline).
    pub(crate) fn share(&self, parts: f64) -> Self {
        let parts = parts.max(1.0);
        Limits { seconds: self.seconds / parts, max_work: (self.max_work as f64 / parts) as u64, ..self.clone() }
    }

    /// The same limits examining at most `moves` moves, and holding estimates to the seconds
    /// those moves take (a deadline, if any, stays).
    pub(crate) fn with_max_moves(self, moves: u64) -> Self {
        Limits { max_work: moves, seconds: moves as f64 / WORK_PER_SECOND, ..self }
    }

    /// The same limits with at most `max_states` positions.
    pub(crate) fn with_max_states(self, max_states: usize) -> Self {
        Limits { max_states, ..self }
    }

    /// Counts `moves` listed against the question's work (shared by every clone of these
    /// limits), and stops the question when they pass it.
    pub(crate) fn charge(&self, moves: usize) -> Result<(), SolveError> {
        check_cancel(self)?;
        let before = self.listed.fetch_add(moves as u64, std::sync::atomic::Ordering::Relaxed);
        if before + moves as u64 > self.max_work {
            return Err(SolveError::work_limit(self));
        }
        Ok(())
    }

    /// The seconds the question may take: its timeout, or `DEFAULT_SECONDS`.
    pub(crate) fn seconds(&self) -> f64 {
        self.seconds
    }

    pub(crate) fn max_moves(&self) -> u64 {
        self.max_work
    }

    /// Moves an estimate may come to and still run: the seconds allowed, counted as work.
    pub(crate) fn estimate_moves(&self) -> u64 {
        work_for(self.seconds)
    }

    /// Moves the values of single piles may cost.
    pub(crate) fn max_pile_moves(&self) -> u64 {
        self.max_work.saturating_mul(PILE_SHARE)
    }

    /// The seconds `moves` of a search would take, in words.
    pub(crate) fn time_of_moves(&self, moves: f64) -> String {
        seconds_in_words(moves)
    }

    /// The seconds `moves` of single-pile values would take, in words.
    pub(crate) fn time_of_pile_moves(&self, moves: f64) -> String {
        seconds_in_words(moves / PILE_SHARE as f64)
    }

    /// The --timeout that gives `factor` times the work allowed now, for advice in diagnostics.
    pub(crate) fn seconds_for_work(&self, factor: f64) -> u64 {
        (self.seconds * factor).ceil().clamp(1.0, 1e9) as u64
    }

    /// How to let the question examine `factor` times as many moves, as the command line says
    /// it: the moves themselves (`--max-moves`, counted), or the time they take (`--timeout`).
    pub(crate) fn more_moves(&self, factor: f64) -> String {
        let moves = (self.max_work as f64 * factor).min(u64::MAX as f64) as u64;
        format!(
            "{} (or {})",
            give_value(Argument::MaxMoves, moves),
            give_value(Argument::Timeout, self.seconds_for_work(factor))
        )
    }

    /// Single piles whose values may be kept (four bytes each: 320 MB at the default).
    pub(crate) fn max_piles(&self) -> usize {
        self.max_states.saturating_mul(PILES_PER_STATE)
    }
}

/// The moves examined in `seconds`, as the budget counts them.
pub(super) fn work_for(seconds: f64) -> u64 {
    (seconds * WORK_PER_SECOND).min(u64::MAX as f64 / 4.0) as u64
}

/// Single-pile values kept per position allowed.
pub(super) const PILES_PER_STATE: usize = 16;

impl Default for Limits {
    fn default() -> Self {
        Limits::states(DEFAULT_MAX_STATES)
    }
}

/// The errors the limits give, with the larger limit that would do.
impl SolveError {
    pub(crate) fn state_limit(limits: &Limits) -> Self {
        SolveError::StateLimit {
            limit: limits.max_states as u64,
            what: "positions",
            suggested: limits.max_states.saturating_mul(4),
            memory: search_memory(limits.max_states.saturating_mul(4)),
        }
    }

    pub(super) fn work_limit(limits: &Limits) -> Self {
        SolveError::WorkLimit {
            limit: approximately(limits.max_moves() as f64),
            seconds: duration_in_words(limits.seconds()),
            suggested: limits.seconds_for_work(4.0),
        }
    }
}

impl Limits {
    /// What stops a question under these limits, for the stages below the engines (reading
    /// a game): its cancel token, progress sink and deadline.
    pub(crate) fn watch(&self) -> crate::progress::Watch {
        crate::progress::Watch { cancel: self.cancel.clone(), progress: self.progress.clone(), deadline: self.deadline }
    }
}

impl From<crate::progress::Stopped> for SolveError {
    fn from(stop: crate::progress::Stopped) -> SolveError {
        match stop {
            crate::progress::Stopped::Cancelled => SolveError::Cancelled,
            crate::progress::Stopped::Timeout { seconds } => SolveError::Timeout { seconds },
        }
    }
}

/// Stops a computation that was cancelled or is past its deadline.
pub(crate) fn check_cancel(limits: &Limits) -> Result<(), SolveError> {
    crate::progress::check_stop(&limits.cancel, &limits.progress, limits.deadline).map_err(SolveError::from)
}

/// Counts the moves a computation examines, so that quadratic work on a large position ends
/// in a diagnostic instead of running for hours.
#[derive(Default)]
pub(super) struct Work {
    pub(super) moves: u64,
}

impl Work {
    /// Moves counted against the single-pile budget; the error says how far the piles got.
    pub(super) fn add_piles(
        &mut self,
        moves: usize,
        limits: &Limits,
        computed: u64,
        needed: u64,
    ) -> Result<(), SolveError> {
        check_cancel(limits)?;
        self.moves += moves as u64;
        if self.moves > limits.max_pile_moves() {
            return Err(SolveError::PileWorkLimit {
                computed,
                needed,
                limit: approximately(limits.max_pile_moves() as f64),
                advice: format!(
                    "ask about a pile below {computed}, or let it examine more moves with {}",
                    limits.more_moves(4.0)
                ),
            });
        }
        Ok(())
    }

    pub(super) fn add(&mut self, moves: usize, limits: &Limits) -> Result<(), SolveError> {
        check_cancel(limits)?;
        let before = self.moves;
        self.moves += moves as u64;
        // Each time another 2^16 moves have been examined.
        if before >> 16 != self.moves >> 16 {
            limits.progress.report(progress::Stage::Search, self.moves, 0);
        }
        if self.moves > limits.max_moves() {
            return Err(SolveError::work_limit(limits));
        }
        Ok(())
    }
}
