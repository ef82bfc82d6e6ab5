//! The default of every argument a front end may leave out, and of every budget, written once.
//! The request schema fills in what a question left out from here; the front ends' help texts
//! and the classroom page's fields read their numbers from here too, and a test
//! (`tests/all/defaults.rs`) fails if a text of theirs says another.
//!
//! A module of its own below every stage, so that `analysis` and `solve` read their defaults
//! without importing the request schema that imports them.

/// `table`: piles 0..=30.
pub const TABLE_UPTO: u64 = 30;
/// `plot`: piles 0..=60.
pub const PLOT_UPTO: u64 = 60;
/// `compare`: piles 0..=100.
pub const COMPARE_UPTO: u64 = 100;
/// `period`: at most 10⁸ values (100 MB at a byte each), within the budget.
pub const PERIOD_UPTO: u64 = 100_000_000;
/// The largest `period --upto`: 2³⁴ values.
pub const MOST_PERIOD_UPTO: u64 = 1 << 34;
/// The largest `period --upto` of a run in a window (`--window`), which keeps no values: 2⁶⁰.
pub const MOST_WINDOW_UPTO: u64 = 1 << 60;
/// The window of `period --window`: at least this many values…
pub const LEAST_WINDOW: u64 = 16;
/// …and at most this many (2 MB a copy of the state; 0.106 needs 16,384).
pub const MOST_WINDOW: u64 = 1 << 20;
/// `play`: the percentage of the computer's moves that are perfect.
pub const STRENGTH: u8 = 100;
/// `play`: the seed of the computer's random moves below full strength.
pub const SEED: u64 = 1;
/// `sweep`: values computed for each game at most (2¹⁷, the atlas's four-digit codes).
pub const SWEEP_UPTO: u64 = 1 << 17;
/// `sweep`: the digits before the point of an octal family (1–3 play as 0, 5–7 as 4).
pub const SWEEP_LEADING: &[u8] = &[0, 4];
/// `solve`: how long best play lasts is searched for too.
pub const REMOTENESS: bool = true;
/// `table`: the values looked at for a period, from pile 0, past the table if need be (within
/// a small share of the limits), so that a period shows itself several times.
pub const PERIOD_VALUES: u64 = 512;
/// `quotient` without a bound: the heaps covered first; it goes on, doubling, while no period
/// is proven, up to `MOST_QUOTIENT_HEAPS`.
pub const QUOTIENT_HEAPS: u64 = 300;
/// `quotient` without a bound: the most heaps it goes to in search of its period.
pub const MOST_QUOTIENT_HEAPS: u64 = 4096;
/// `compare`: the second game is read at n + `SHIFT`.
pub const SHIFT: u64 = 0;
/// Every question: the seconds it may take (estimates past it are refused at once; the work
/// is counted, not timed).
pub const SECONDS: f64 = 30.0;
/// Every search: the positions it may keep (about 670 MB).
pub const MAX_STATES: usize = 5_000_000;
/// The language server: the seconds a hover that solves may take (the editor waits for it).
pub const EDITOR_HOVER_SECONDS: f64 = 2.0;
/// The language server: the seconds a text's check for its diagnostics may take (a megabyte of
/// rules takes about half a second).
pub const EDITOR_CHECK_SECONDS: f64 = 2.0;
/// The threads the take-and-break kernel shares a pile with: the machine's cores, at most this.
pub const MOST_THREADS: usize = 2;
