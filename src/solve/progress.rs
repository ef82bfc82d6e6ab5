//! How far a long computation has got, for a front end to show. The solver only reports;
//! whoever installed a `Reporter` (the command line, with a progress bar on a terminal)
//! decides what to show, so the library stays silent when nobody asked.

use std::sync::RwLock;

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

pub trait Reporter: Send + Sync {
    fn report(&self, stage: Stage, done: u64, total: u64);

    /// The estimate says the limits will stop this stage near `reachable`, before `total`: a
    /// bar should count to there, not promise the end.
    fn limited(&self, _stage: Stage, _reachable: u64, _total: u64) {}
}

static REPORTER: RwLock<Option<Box<dyn Reporter>>> = RwLock::new(None);

/// Installs (or with `None` removes) the reporter that hears about progress.
pub fn set_reporter(reporter: Option<Box<dyn Reporter>>) {
    if let Ok(mut slot) = REPORTER.write() {
        *slot = reporter;
    }
}

/// Tells the reporter, if there is one. Callers report every thousand steps or so, not each.
pub fn report(stage: Stage, done: u64, total: u64) {
    if let Ok(slot) = REPORTER.read() {
        if let Some(r) = slot.as_ref() {
            r.report(stage, done, total);
        }
    }
}

/// Tells the reporter that the limits will stop the stage near `reachable` of `total`.
pub fn limited(stage: Stage, reachable: u64, total: u64) {
    if let Ok(slot) = REPORTER.read() {
        if let Some(r) = slot.as_ref() {
            r.limited(stage, reachable, total);
        }
    }
}
