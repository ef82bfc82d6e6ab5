//! A period found in a window: the values of one pile computed up to where a window's machine
//! can start (`cycle::OctalWindow`), then that machine stepped by Brent's cycle detection, in
//! the memory of a few windows, as far as it takes (10¹² values and more), resumable from a
//! small checkpoint.

use std::path::Path;
use std::sync::Arc;

use super::cycle::{
    self, CycleSearch, Machine, NoStart, OctalWindow, Paused, Phase, RunKey, SplitKind, Stuck, WindowRules,
};
use super::period_run::{NoRun, PeriodRun};
use super::{check_cancel, Limits, SolveError, Work};
use crate::rules::Game;

/// Steps between two looks at the budget and the deadline.
const STEPS_BETWEEN_LOOKS: u64 = 1 << 16;
/// Steps between two checkpoints written on the way (minutes of a run).
pub(crate) const CHECKPOINT_STEPS: u64 = 1 << 31;

/// What a window's search found, or how far it went.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct WindowOutcome {
    pub window: u64,
    /// the prefix's length, and how many of its piles have a rare value
    pub prefix: u64,
    pub rare: u64,
    /// the pile the machine started at (the values below it were computed in full)
    pub start: u64,
    /// (preperiod, period) of the values, when found
    pub found: Option<(u64, u64)>,
    /// what the search is doing when not done
    pub phase: WindowPhase,
    /// the furthest pile any copy of the machine reached
    pub furthest: u64,
    /// the machine's steps over all runs, and in this one
    pub steps: u64,
    pub steps_now: u64,
    /// the deepest into the prefix a witness was looked for
    pub deepest: u64,
    /// the pile the search went on from, when it resumed from a checkpoint
    pub resumed_at: Option<u64>,
    /// the largest value of the piles below the machine's start
    pub largest: u32,
}

/// Where an unfinished search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WindowPhase {
    /// looking for the period: no repeat of the window at `tortoise` in the `lam` steps since
    Period {
        tortoise: u64,
        lam: u64,
    },
    /// the period is known; the preperiod is looked for between `behind` and `behind + period`
    Preperiod {
        period: u64,
        behind: u64,
    },
    Done,
}

/// Why a window's search could not run or stopped.
#[derive(Debug)]
pub(crate) enum WindowError {
    NoRun(NoRun),
    NoStart(NoStart),
    /// the machine stuck at a pile (the values up to it are the game's)
    Stuck(Stuck),
    Checkpoint(super::checkpoint::CheckpointError),
    /// a limit, the deadline or Ctrl-C stopped it; the outcome says how far it went
    Stopped(SolveError, Box<WindowOutcome>),
    Solve(SolveError),
}

impl From<SolveError> for WindowError {
    fn from(e: SolveError) -> Self {
        WindowError::Solve(e)
    }
}

/// The piles of the start: the values computed in full, from which the machine starts.
struct Start {
    rules: Arc<WindowRules>,
    machine: OctalWindow,
    /// the values of piles 0..start, for the preperiod when it lies before the machine's start
    values: Vec<u8>,
    fingerprint: u64,
}

fn start_of(game: &Game, window: usize, limits: &Limits) -> Result<Start, WindowError> {
    // No theorem is needed (a repeat proves itself): only rules that take at most a fixed amount.
    let mut run = PeriodRun::values_only(game).map_err(WindowError::NoRun)?.without_proof();
    let fingerprint = run.fingerprint();
    let takes = run.fixed_takes().ok_or(WindowError::NoRun(NoRun::NoTheorem))?;
    let most_taken = takes.most();
    let prefix = window.saturating_sub(most_taken);
    let first = WindowRules::first_pile(window, prefix, most_taken);
    let one = takes.one;
    let two: Vec<(usize, SplitKind)> = takes
        .two
        .iter()
        .map(|&(t, how)| {
            (
                t,
                match how {
                    Some(true) => SplitKind::Any,
                    Some(false) => SplitKind::Unequal,
                    None => SplitKind::Equal,
                },
            )
        })
        .collect();
    run.run(first, limits, 0, |_| {})?;
    // Without splits every option is a one-heap one, in the window: one class holds every value.
    let classes = if two.is_empty() { Some((0, [0, 0])) } else { run.classes() };
    let (mask, parity) = classes.ok_or(WindowError::NoStart(NoStart::NotSparse))?;
    let values = run.values();
    let computed = values.len() as u64;
    let rules = WindowRules::new(window, prefix, one, two, mask, parity, computed, |n| values.get(n as usize))
        .map_err(WindowError::NoStart)?;
    // The run computed exactly the values below the machine's first pile.
    let all: Vec<u8> = (0..computed as usize).map(|n| values.get(n) as u8).collect();
    let rules = Arc::new(rules);
    let machine = OctalWindow::new(rules.clone(), computed, &all[computed as usize - window..]);
    Ok(Start { rules, machine, values: all, fingerprint })
}

/// Runs a window's search of the game's period as far as pile `upto`, from the checkpoint
/// at `checkpoint` when it exists, writing it on the way and when the run stops.
pub(crate) fn run_window(
    game: &Game,
    window: u64,
    upto: u64,
    checkpoint: Option<&Path>,
    limits: &Limits,
) -> Result<WindowOutcome, WindowError> {
    let window = window as usize;
    let start = start_of(game, window, limits)?;
    let key = RunKey {
        rules: start.fingerprint,
        window: window as u64,
        prefix: start.rules.prefix_len() as u64,
        start: start.machine.pile(),
        start_hash: start.machine.key_hash(),
    };
    let first = start.machine.pile();
    let (mut search, resumed_at) = match checkpoint.filter(|p| p.exists()) {
        Some(path) => {
            let search = cycle::read_search(path, &game.name, key, &start.rules).map_err(WindowError::Checkpoint)?;
            let at = first + search.furthest();
            (search, Some(at))
        }
        None => {
            let search = CycleSearch::new(start.machine.clone()).map_err(|e| match e {
                Paused::Stuck(s) => WindowError::Stuck(s),
                Paused::Stopped(never) => match never {},
            })?;
            (search, None)
        }
    };
    // The snapshots take a window each: at most 64 MB of them (0.106's 16 KB windows: 64).
    search.most_snapshots = (SNAPSHOT_BYTES / window.max(1)).clamp(4, cycle::MOST_SNAPSHOTS);
    let steps_before = search.steps;
    let cost = (start.rules.rare_count() + 16) as u64;
    let mut work = Work::default();
    let mut counted = search.steps;
    let mut next_checkpoint = search.steps + CHECKPOINT_STEPS;
    let mut write_failed = None;
    let save = |search: &CycleSearch<OctalWindow>| match checkpoint {
        Some(path) => cycle::write_search(path, &game.name, key, search),
        None => Ok(()),
    };
    // A search already at `upto` (a checkpoint read to see where it stands) takes no step.
    let already_there = first + search.furthest() >= upto && !matches!(search.phase, Phase::Found { .. });
    let result = if already_there {
        Err(Paused::Stopped(SolveError::Cancelled))
    } else {
        search.run(
            STEPS_BETWEEN_LOOKS,
            || start.machine.clone(),
            |s| {
                let furthest = first + s.furthest();
                let moves = (s.steps - counted) * cost / super::piles::KERNEL_OPTIONS_PER_MOVE;
                counted = s.steps;
                work.add_piles(moves as usize, limits, furthest, upto)?;
                limits.progress.report(super::progress::Stage::PileValues, furthest.min(upto), upto);
                if s.steps >= next_checkpoint {
                    next_checkpoint = s.steps + CHECKPOINT_STEPS;
                    if let Err(e) = save(s) {
                        write_failed.get_or_insert(e);
                    }
                }
                if furthest >= upto {
                    return Err(SolveError::Cancelled);
                }
                check_cancel(limits)
            },
        )
    };
    if let Some(e) = write_failed {
        return Err(WindowError::Checkpoint(e));
    }
    save(&search).map_err(WindowError::Checkpoint)?;
    let largest = start.values.iter().copied().max().unwrap_or(0) as u32;
    let mut outcome = WindowOutcome {
        window: window as u64,
        prefix: start.rules.prefix_len() as u64,
        rare: start.rules.rare_count() as u64,
        start: first,
        found: None,
        phase: phase_of(&search, first),
        furthest: first + search.furthest(),
        steps: search.steps,
        steps_now: search.steps - steps_before,
        deepest: search.figure,
        resumed_at,
        largest,
    };
    match result {
        Ok((mu, period)) => {
            let preperiod = if mu > 0 {
                // The window at step mu − 1 differs from the one a period later only in its
                // oldest value: the values repeat from that pile's successor.
                first + mu - window as u64
            } else {
                preperiod_before(&start, period, limits)?
            };
            outcome.found = Some((preperiod, period));
            outcome.furthest = outcome.furthest.max(first + mu + period);
            Ok(outcome)
        }
        Err(Paused::Stuck(stuck)) => Err(WindowError::Stuck(stuck)),
        // Reaching `upto` ends this run as asked: the outcome says how far it went.
        Err(Paused::Stopped(SolveError::Cancelled)) if outcome.furthest >= upto => Ok(outcome),
        Err(Paused::Stopped(e)) => Err(WindowError::Stopped(e, Box::new(outcome))),
    }
}

fn phase_of(search: &CycleSearch<OctalWindow>, first: u64) -> WindowPhase {
    match &search.phase {
        Phase::Period { tortoise_at, lam, .. } => WindowPhase::Period { tortoise: first + tortoise_at, lam: *lam },
        Phase::Preperiod { period, behind_at, .. } => {
            WindowPhase::Preperiod { period: *period, behind: first + behind_at }
        }
        Phase::Found { .. } => WindowPhase::Done,
    }
}

/// The most bytes of snapshots a window's search keeps (see `CycleSearch::most_snapshots`).
const SNAPSHOT_BYTES: usize = 64 << 20;

/// The most values kept to find a preperiod that lies before the machine's start.
const MOST_BEFORE: u64 = 1 << 30;

/// The preperiod when the machine's states repeat from its start: the values from the start's
/// window on repeat, and the preperiod is where the values before it stop doing so, found by
/// comparing each with the one a period later (the machine gives those past its start).
fn preperiod_before(start: &Start, period: u64, limits: &Limits) -> Result<u64, WindowError> {
    let begin = start.machine.pile() - start.rules.window() as u64;
    if period > MOST_BEFORE {
        return Err(WindowError::NoStart(NoStart::WindowTooShort(start.rules.window())));
    }
    let mut values = start.values.clone();
    let mut machine = start.machine.clone();
    while (values.len() as u64) < begin + period {
        // Up to 2^30 steps: the question's deadline and Ctrl-C are read on the way.
        if values.len().is_multiple_of(STEPS_BETWEEN_LOOKS as usize) {
            check_cancel(limits)?;
        }
        machine.step().map_err(WindowError::Stuck)?;
        values.push(machine.newest());
    }
    let mut preperiod = begin;
    while preperiod > 0 && values[preperiod as usize - 1] == values[(preperiod - 1 + period) as usize] {
        preperiod -= 1;
    }
    Ok(preperiod)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::test_support::game_text;

    /// The values a window's machine gives, one by one, against the kernel's, which keeps them
    /// all: the same from the machine's start to `upto`.
    fn machine_agrees_with_the_kernel(code: &str, window: usize, upto: u64) {
        let game = game_text(&format!("game \"{code}\"\npiles\nmove: octal {code}\n"));
        let start = start_of(&game, window, &Limits::default()).expect("the machine starts");
        let mut full = PeriodRun::new(&game).expect("octal").without_proof();
        full.run(upto, &Limits::default(), 0, |_| {}).expect("runs");
        let values = full.values();
        let mut machine = start.machine.clone();
        for n in machine.pile()..upto {
            machine.step().unwrap_or_else(|e| panic!("{code}: stuck at {n}: {e:?}"));
            assert_eq!(machine.newest() as u32, values.get(n as usize), "{code}: pile {n}");
        }
    }

    #[test]
    fn a_window_gives_the_kernels_values() {
        machine_agrees_with_the_kernel("0.106", 16384, 1 << 21);
        machine_agrees_with_the_kernel("0.16", 32768, 600_000);
        machine_agrees_with_the_kernel("0.1777", 4096, 1 << 20);
    }

    #[test]
    fn snapshots_written_and_read_back_find_0_16s_period_in_fewer_steps() {
        // 0.16's window of 32,768 (period 149,459 from a preperiod of 105,351, 39,817 steps past
        // the machine's start): the search keeping a snapshot every 2^13 steps, written to a
        // checkpoint and read back at every pause, finds what the search without them finds, in
        // fewer steps. The hare comes back to the snapshot at 5 · 2^13 (the first past the
        // preperiod) at 40,960 + 149,459 steps, where Brent's tortoise alone waits for the one at
        // 2^16 − 1; the preperiod is then looked for from the snapshot at 4 · 2^13, not from the
        // machine's start (the tortoise before the period's is too short a stretch).
        let game = game_text("game \"0.16\"\npiles\nmove: octal 0.16\n");
        let start = start_of(&game, 32_768, &Limits::default()).expect("the machine starts");
        let key = RunKey {
            rules: start.fingerprint,
            window: 32_768,
            prefix: start.rules.prefix_len() as u64,
            start: start.machine.pile(),
            start_hash: start.machine.key_hash(),
        };
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("0.16.window");
        let search = |snapshot_every: u64, kept: bool| -> (u64, u64, u64, usize) {
            let mut search = CycleSearch::new(start.machine.clone()).expect("the machine steps");
            search.snapshot_every = snapshot_every;
            let mut most_kept = 0;
            loop {
                let mut first = true;
                let paused = |_: &CycleSearch<OctalWindow>| if std::mem::take(&mut first) { Ok(()) } else { Err(()) };
                match search.run(1 << 15, || start.machine.clone(), paused) {
                    Ok((mu, lam)) => return (mu, lam, search.steps, most_kept),
                    Err(Paused::Stopped(())) if kept => {
                        cycle::write_search(&path, "0.16", key, &search).expect("written");
                        let mut back = cycle::read_search(&path, "0.16", key, &start.rules).expect("read");
                        assert_eq!(back.snapshots.len(), search.snapshots.len());
                        assert_eq!(back.furthest(), search.furthest());
                        most_kept = most_kept.max(back.snapshots.len());
                        back.snapshot_every = snapshot_every;
                        search = back;
                    }
                    Err(Paused::Stopped(())) => {}
                    Err(Paused::Stuck(stuck)) => panic!("{stuck:?}"),
                }
            }
        };
        let (mu, lam, plain_steps, _) = search(0, false);
        assert_eq!(lam, 149_459);
        assert_eq!(start.machine.pile() + mu - 32_768, 105_351);
        let (kept_mu, kept_lam, kept_steps, most_kept) = search(1 << 13, true);
        assert_eq!((kept_mu, kept_lam), (mu, lam));
        assert!(most_kept >= 16, "{most_kept}");
        // The hare's 190,419 steps, 2,003 for the copy a period ahead of 4 · 2^13 to reach it
        // from the snapshot at 22 · 2^13, and the two stepping together from there.
        assert!((190_419 + 2_003 + 2 * 7_049..=250_000).contains(&kept_steps), "{kept_steps}");
        // Without them: the hare to 2^16 − 1 + 149,459, the copy a period ahead of the start
        // stepped 149,459, and the two together to the preperiod.
        assert!(plain_steps >= (1 << 16) - 1 + 2 * 149_459 + 2 * 39_817, "{plain_steps}");
    }

    #[test]
    fn a_rare_value_past_the_prefix_is_refused() {
        // 0.16's last rare value is at 13,935: a window of 8,192 leaves no room for it.
        let game = game_text("game \"0.16\"\npiles\nmove: octal 0.16\n");
        match start_of(&game, 8192, &Limits::default()) {
            Err(WindowError::NoStart(NoStart::RareAfterPrefix(13_935))) => {}
            other => panic!("{:?}", other.err()),
        }
    }
}
