//! A sweep over a family of games: one row per game with what the published tables of octal
//! games record (a proven period and preperiod with the values the proof needed; or how far the
//! values went, the largest, the rare ones), each game answered on its own budget so that one
//! game's failure is its row, never the sweep's end. Running the rows in parallel and keeping
//! them in a file are `api::sweep` and `rows`.

pub(crate) mod rows;

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::period_search::{run_period, PeriodError, PeriodQuestion};
use crate::rules::Game;
use crate::solve::period_run::PeriodRun;
use crate::solve::Values;
use crate::solve::{Limits, SolveError};

/// What became of one game of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowStatus {
    /// A theorem proved the period: the whole sequence is known.
    Proven,
    /// The values were computed as far as asked, and no period was proven in them.
    Open,
    /// The game's budget stopped the run first (its time or work): how far it got is in the row.
    Stopped,
    /// The question does not apply to this game (a misère or partizan game, rules no theorem
    /// covers) or the game text has an error: the row says why.
    Refused,
}

/// One game's row: the columns of the published tables of octal games, and what the run cost.
/// Every field but `seconds` is the same on every machine and every run (`work` and
/// `resumed_at` too, for a run not resumed from a checkpoint).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The game: its octal code, or its label in the family (a parameter's value, a file).
    pub game: String,
    /// What became of it.
    pub status: RowStatus,
    /// Where the proven period starts.
    pub preperiod: Option<u64>,
    /// The proven period.
    pub period: Option<u64>,
    /// What a period adds to the values: 0 for the periods the theorems prove.
    pub saltus: Option<i64>,
    /// The values the theorem needed (piles 0 up to one less).
    pub values_needed: Option<u64>,
    /// The values computed: piles 0 up to one less.
    pub values_computed: u64,
    /// The largest value computed.
    pub largest_value: Option<u32>,
    /// The first pile with the largest value.
    pub largest_at: Option<u64>,
    /// Piles whose value is rare in the sparse-space method's classes (when the method ran).
    pub rare_values: Option<u64>,
    /// The largest pile with a rare value.
    pub last_rare: Option<u64>,
    /// With no proof: the period the latest values show (not proven), its preperiod and
    /// saltus (non-zero: the values grow by it each period, arithmetic periodicity).
    pub apparent_preperiod: Option<u64>,
    /// The apparent period.
    pub apparent_period: Option<u64>,
    /// The apparent period's saltus.
    pub apparent_saltus: Option<i64>,
    /// `sparse space` or `plain scan`.
    pub method: Option<String>,
    /// FNV-1a (64 bits) of the values as 32-bit little-endian words: of piles 0 up to
    /// preperiod + period for a proven game (they fix every value), of all values computed
    /// otherwise.
    pub checksum: Option<String>,
    /// The first game of the family with the very same values, when there is one.
    pub same_values_as: Option<String>,
    /// `proven` (the same proven period and the same values up to it: the same game's values
    /// everywhere) or `to N` (the same N values computed, no more is known).
    pub same_values: Option<String>,
    /// The error's stable code, for a refused or stopped game.
    pub error_code: Option<String>,
    /// The error's message.
    pub error: Option<String>,
    /// The options the kernel scanned: the run's work, counted.
    pub work: u64,
    /// The run's wall-clock seconds (the one column that depends on the machine).
    pub seconds: f64,
    /// The pile a run went on from, when it resumed from a checkpoint.
    pub resumed_at: Option<u64>,
    /// What was asked of the game, as a checksum (FNV-1a of its text, settings and the values
    /// asked for): a rerun keeps a row only when the same is asked again. Rows written before
    /// this column have none, and are run again.
    #[serde(default)]
    pub asked: Option<String>,
    /// When asked for: how often each value occurs among the first 2^k values, for every power
    /// of two up to the values computed (and among all of them, when that is not one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub histograms: Option<Vec<Histogram>>,
}

/// How often each value occurs among the first `values` values (piles 0 up to one less).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// How many values were counted.
    pub values: u64,
    /// `counts[v]`: how many of them are v (up to the largest).
    pub counts: Vec<u64>,
}

/// The histograms of the first `len` values at every power of two up to `len`, and at `len`
/// when it is not one: one pass over the values.
pub(crate) fn histograms(values: &Values, len: usize) -> Vec<Histogram> {
    let len = len.min(values.len());
    let mut counts: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    for n in 0..len {
        let v = values.get(n) as usize;
        if v >= counts.len() {
            counts.resize(v + 1, 0);
        }
        counts[v] += 1;
        let seen = n + 1;
        if seen.is_power_of_two() || seen == len {
            out.push(Histogram { values: seen as u64, counts: counts.clone() });
        }
    }
    out
}

impl SweepRow {
    /// A row saying the game could not be run, and why.
    pub fn refused(game: &str, code: String, message: String) -> SweepRow {
        SweepRow {
            game: game.to_string(),
            status: RowStatus::Refused,
            preperiod: None,
            period: None,
            saltus: None,
            values_needed: None,
            values_computed: 0,
            largest_value: None,
            largest_at: None,
            rare_values: None,
            last_rare: None,
            apparent_preperiod: None,
            apparent_period: None,
            apparent_saltus: None,
            method: None,
            checksum: None,
            same_values_as: None,
            same_values: None,
            error_code: Some(code),
            error: Some(message),
            work: 0,
            seconds: 0.0,
            resumed_at: None,
            asked: None,
            histograms: None,
        }
    }

    /// The row without what depends on the machine or on how the run was split over
    /// processes: for comparing two sweeps of the same family.
    pub fn comparable(&self) -> SweepRow {
        SweepRow { seconds: 0.0, work: 0, resumed_at: None, ..self.clone() }
    }
}

/// Why a game's run ended without a row: the sweep itself was cancelled (Ctrl-C), and the
/// game is one of those in flight, which a rerun computes again.
#[derive(Debug)]
pub(crate) struct Cancelled;

/// One game's row: its values computed until a theorem proves their period or `upto` values,
/// within `limits`; with `checkpoint`, from and to that file (a run stopped by its budget
/// keeps its values there, and a rerun goes on from them).
pub(crate) fn sweep_row(
    label: &str,
    game: &Game,
    upto: u64,
    histograms: bool,
    checkpoint: Option<&Path>,
    limits: &Limits,
) -> Result<SweepRow, Cancelled> {
    let started = Instant::now();
    let question = PeriodQuestion { upto, checkpoint: checkpoint.map(Path::to_path_buf), without_theorem: true };
    let mut row = match run_period(game, &question, limits) {
        Ok(run) => {
            let mut row = row_of(label, &run);
            if histograms {
                row.histograms = Some(self::histograms(run.values(), run.values().len()));
            }
            row
        }
        Err(PeriodError::Stopped { cause: SolveError::Cancelled, .. } | PeriodError::Solve(SolveError::Cancelled)) => {
            return Err(Cancelled)
        }
        Err(e @ PeriodError::Stopped { at, .. })
        | Err(e @ PeriodError::Solve(SolveError::PeriodOutOfReach { computed: at, .. })) => {
            // Out of reach by its pace, a row stops early as one stopped by its budget does.
            let mut row = failed(label, &e);
            row.status = RowStatus::Stopped;
            row.values_computed = at;
            row
        }
        Err(e) => failed(label, &e),
    };
    row.seconds = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    Ok(row)
}

fn failed(label: &str, e: &PeriodError) -> SweepRow {
    let code = miette::Diagnostic::code(e).map(|c| c.to_string()).unwrap_or_else(|| "takeaway::period".into());
    SweepRow::refused(label, code, e.to_string())
}

/// The latest values an open row's apparent period is looked for in (periods up to a third of
/// them): the look holds a table of 4 bytes for every 2 of them, which must stay small beside a
/// record run's values (4 MB here; with 2^24 of them, 32 MB, it was a third of 0.6's peak
/// memory to 2^24).
const APPARENT_WINDOW: usize = 1 << 21;

fn row_of(label: &str, run: &PeriodRun) -> SweepRow {
    let values = run.values();
    let proven = run.proven();
    let best = values.largest_in(0..values.len());
    let (largest_value, largest_at) = (best.map(|b| b.0), best.map(|b| b.1));
    let (rare_values, last_rare) = match run.rare_values() {
        Some((count, last)) => (Some(count), last),
        None => (None, None),
    };
    // The apparent period of the latest values only: a look at all of a record run's 2³² would
    // hold a table of 2³¹ lengths.
    let from = values.len().saturating_sub(APPARENT_WINDOW);
    let apparent = if proven.is_none() {
        values.detect_period_from(from, true).or_else(|| values.detect_period_from(from, false))
    } else {
        None
    };
    let checked = match proven {
        Some(p) => (p.preperiod + p.period).min(values.len() as u64) as usize,
        None => values.len(),
    };
    SweepRow {
        game: label.to_string(),
        status: if proven.is_some() { RowStatus::Proven } else { RowStatus::Open },
        preperiod: proven.map(|p| p.preperiod),
        period: proven.map(|p| p.period),
        saltus: proven.map(|_| 0),
        values_needed: proven.map(|p| p.needed),
        values_computed: run.computed(),
        largest_value,
        largest_at,
        rare_values,
        last_rare,
        apparent_preperiod: apparent.map(|a| a.0 as u64),
        apparent_period: apparent.map(|a| a.1 as u64),
        apparent_saltus: apparent.map(|a| a.2),
        method: Some(if run.uses_sparse_space() { "sparse space" } else { "plain scan" }.to_string()),
        checksum: Some(format!("{:016x}", checksum(values, checked))),
        same_values_as: None,
        same_values: None,
        error_code: None,
        error: None,
        work: run.scanned(),
        seconds: 0.0,
        resumed_at: run.resumed_at(),
        asked: None,
        histograms: None,
    }
}

/// FNV-1a, 64 bits, over the first `len` values as 32-bit little-endian words: a checksum any
/// program can recompute from a list of values.
pub(crate) fn checksum(values: &Values, len: usize) -> u64 {
    checksum_of((0..len.min(values.len())).map(|n| values.get(n)))
}

/// FNV-1a, 64 bits, of values as 32-bit little-endian words.
pub fn checksum_of(values: impl IntoIterator<Item = u32>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for byte in v.to_le_bytes() {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// Marks the rows whose values equal an earlier row's: the same proven period, preperiod and
/// values up to them (the same values everywhere, proven), or the same values computed as far
/// (equal as far as known). `rows` are in the family's order; the first of each kind is the
/// one the others name.
pub fn mark_same_values(rows: &mut [SweepRow]) {
    use std::collections::HashMap;
    let mut first: HashMap<(bool, u64, u64, String), String> = HashMap::new();
    for row in rows.iter_mut() {
        row.same_values_as = None;
        row.same_values = None;
        let Some(sum) = row.checksum.clone() else { continue };
        let key = match (row.status, row.preperiod, row.period) {
            (RowStatus::Proven, Some(pre), Some(p)) => (true, pre, p, sum),
            (RowStatus::Open, _, _) => (false, row.values_computed, 0, sum),
            _ => continue,
        };
        let proven = key.0;
        match first.get(&key) {
            Some(name) => {
                row.same_values_as = Some(name.clone());
                row.same_values =
                    Some(if proven { "proven".to_string() } else { format!("to {}", row.values_computed) });
            }
            None => {
                first.insert(key, row.game.clone());
            }
        }
    }
}
