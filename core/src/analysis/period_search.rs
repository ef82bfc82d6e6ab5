//! `period`: a long run of one pile's values until a theorem proves their period, with
//! checkpoints to stop and resume it, and what it cost in memory. The run itself is
//! `solve::period_run`; this is the question and its report.

use crate::wording::{give, give_value, Argument};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use serde_json::json;
use thiserror::Error;

use crate::rules::Game;
use crate::solve::checkpoint::{self, CheckpointError};
use crate::solve::period_run::{NoRun, PeriodRun};
use crate::solve::{Limits, SolveError};
use crate::vocab::{grouped, Span};

/// Values between two checkpoints written on the way (besides the one written when a run
/// stops): about 4 MB of values each time.
pub(crate) const CHECKPOINT_EVERY: u64 = 1 << 22;

/// What `period` was asked.
#[derive(Debug, Clone)]
pub(crate) struct PeriodQuestion {
    /// compute at most the values of piles 0..upto
    pub upto: u64,
    pub checkpoint: Option<PathBuf>,
    /// compute the values of a game no theorem proves periodic, for their figures, rather than
    /// refuse it (a sweep's rows, a record run)
    pub without_theorem: bool,
}

/// What a run found.
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodReport {
    /// The game's name.
    pub game: String,
    /// (preperiod, period) when proven
    pub proven: Option<(u64, u64)>,
    /// The theorem that proves the period.
    pub theorem: &'static str,
    /// values the theorem needed for the proof (of the period as first found)
    pub needed: Option<u64>,
    /// when no period is proven: the one the values suggest, (preperiod, period, values the
    /// theorem would need)
    pub suggested: Option<(u64, u64, u64)>,
    /// values computed: piles 0 up to one less
    pub computed: u64,
    /// The largest pile computed.
    pub upto: u64,
    /// The pile size the search resumed at, if it resumed from a checkpoint.
    pub resumed_at: Option<u64>,
    /// Whether the sparse-space method ran.
    pub sparse_space: bool,
    /// The bytes per stored value.
    pub value_width: u8,
    /// The largest value met (a run in a window: among the values computed in full before its
    /// machine starts, since the machine keeps none of the others).
    pub largest_value: u32,
    /// The most memory the values took.
    pub peak_bytes: u64,
    /// The checkpoint written, if any.
    pub checkpoint: Option<String>,
    /// For a run in a window (`window`): how it went.
    pub window: Option<WindowReport>,
}

/// How a run in a window went: the machine of the latest values stepped by Brent's cycle
/// detection.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowReport {
    /// The latest values the machine keeps.
    pub window: u64,
    /// The first values it keeps for good, and how many of them are rare.
    pub prefix: u64,
    /// How many piles of the prefix have a rare value.
    pub rare: u64,
    /// The pile the machine started at: the values below it were computed in full.
    pub start: u64,
    /// The machine's steps over every run of the search, and in this one.
    pub steps: u64,
    /// The steps of this run.
    pub steps_now: u64,
    /// The deepest into the prefix a value's witness was found.
    pub deepest_witness: u64,
    /// Where an unfinished search stands, in words.
    pub phase: String,
}

/// The name of the proof a window's run gives.
pub(crate) const WINDOW_THEOREM: &str = "the window's first repeat (Brent's cycle detection)";

/// Why a period could not be searched for.
#[derive(Debug, Error, Diagnostic)]
pub enum PeriodError {
    #[error("no theorem proves the values of {game} periodic")]
    #[diagnostic(
        code(takeaway::period::no_theorem),
        help("`period` proves periods of octal games (Guy and Smith) and subtraction games; for an apparent period of any game, ask for a `table` with {upto} and {values}", upto = give_value(Argument::Upto, "N"), values = give_value(Argument::PeriodValues, "N"))
    )]
    /// Reported as “no theorem proves the values of {game} periodic”.
    NoTheorem {
        /// The game's name.
        game: String,
        #[label("these moves are not an octal or subtraction game's")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("{game} is played under the misère convention, where Grundy values do not give the outcomes")]
    #[diagnostic(
        code(takeaway::period::misere),
        help("`quotient FILE` gives the misère quotient; `period` is for normal play")
    )]
    /// Reported as “{game} is played under the misère convention, where Grundy values do not give the outcomes”.
    Misere {
        /// The game's name.
        game: String,
        #[label("under misère play these moves' Grundy values are not what wins")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("the values of {game} are not computed by the take-and-break kernel")]
    #[diagnostic(
        code(takeaway::period::not_compiled),
        help("a `table` with {upto} and {values} finds and proves a period of these rules at smaller sizes", upto = give_value(Argument::Upto, "N"), values = give_value(Argument::PeriodValues, "N"))
    )]
    /// Reported as “the values of {game} are not computed by the take-and-break kernel”.
    NotCompiled {
        /// The game's name.
        game: String,
        #[label("these moves")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error(transparent)]
    #[diagnostic(transparent)]
    /// The checkpoint failed; the inner error says why.
    Checkpoint(#[from] CheckpointError),

    #[error("the run stopped at pile {at}: {cause}")]
    #[diagnostic(code(takeaway::period::stopped), help("{resume}"))]
    /// Reported as “the run stopped at pile {at}: {cause}”.
    Stopped {
        /// The pile size where it stopped.
        at: u64,
        /// The error that stopped it.
        cause: SolveError,
        /// How to go on from here.
        resume: String,
    },

    #[error("a window of {window} values cannot start on {game}: {reason}")]
    #[diagnostic(code(takeaway::period::window_start), help("{help}"))]
    /// Reported as “a window of {window} values cannot start on {game}: {reason}”.
    WindowStart {
        /// The game's name.
        game: String,
        /// The window asked for.
        window: u64,
        /// Why not.
        reason: String,
        /// What to do.
        help: String,
        #[label("these moves")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("the window's run stopped at pile {pile}: {reason}")]
    #[diagnostic(code(takeaway::period::window_stuck), help("{help}"))]
    /// Reported as “the window's run stopped at pile {pile}: {reason}”.
    WindowStuck {
        /// The pile it could not give a value.
        pile: u64,
        /// Why.
        reason: String,
        /// What to do.
        help: String,
    },

    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Solving failed; the inner error says why.
    Solve(#[from] SolveError),
}

impl PeriodError {
    /// What kind of failure this is: a run stopped takes its cause's kind.
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        use crate::vocab::FailureKind;
        match self {
            PeriodError::Stopped { cause, .. } | PeriodError::Solve(cause) => cause.kind(),
            PeriodError::Checkpoint(_) => FailureKind::Question,
            PeriodError::NoTheorem { .. }
            | PeriodError::Misere { .. }
            | PeriodError::NotCompiled { .. }
            | PeriodError::WindowStart { .. }
            | PeriodError::WindowStuck { .. } => FailureKind::Question,
        }
    }
}

/// Runs a period search: from a checkpoint when its file exists, writing one on the way and
/// when a limit or Ctrl-C stops the run.
pub(crate) fn period_search(
    game: &Game,
    question: &PeriodQuestion,
    limits: &Limits,
) -> Result<PeriodReport, PeriodError> {
    let run = run_period(game, question, limits)?;
    let shown = question.checkpoint.as_ref().map(|p| p.display().to_string());
    Ok(report(game, &run, question.upto, shown))
}

/// The run behind `period_search`, kept for what a report leaves out (the values themselves,
/// for a sweep's checksum and rare values).
pub(crate) fn run_period(game: &Game, question: &PeriodQuestion, limits: &Limits) -> Result<PeriodRun, PeriodError> {
    let rules_span = game.moves.first().map_or(Span { start: 0, end: 0 }, |r| r.span);
    let no_run = |why: NoRun| match why {
        NoRun::NoTheorem => PeriodError::NoTheorem { game: game.name.clone(), span: rules_span },
        NoRun::Misere => PeriodError::Misere { game: game.name.clone(), span: rules_span },
        NoRun::NotCompiled => PeriodError::NotCompiled { game: game.name.clone(), span: rules_span },
    };
    let run = if question.without_theorem { PeriodRun::values_only(game) } else { PeriodRun::new(game) };
    let mut run = run.map_err(no_run)?;
    // Only a checkpoint needs the rules' fingerprint (which reads every amount up to the
    // largest take: 2³² of them took 19 s and 4 GB for a run of 1,000 values).
    let fingerprint = if question.checkpoint.is_some() { run.fingerprint() } else { 0 };
    // A checkpoint holding more values than asked for is read up to `upto`, and left as it is.
    let mut beyond_upto = false;
    if let Some(path) = question.checkpoint.as_deref().filter(|p| p.exists()) {
        let saved = checkpoint::read(path, &game.name, fingerprint)?;
        let values = if saved.values.len() as u64 > question.upto {
            beyond_upto = true;
            saved.values.prefix(question.upto as usize)
        } else {
            saved.values
        };
        if let Some((pile, stored, from_rules)) = run.first_wrong_in_sample(&values, limits)? {
            return Err(CheckpointError::Corrupt {
                path: path.display().to_string(),
                what: format!(
                    "it gives pile {pile} the value {stored}, where the rules give {from_rules} (a value was \
                     changed since it was written)"
                ),
            }
            .into());
        }
        run = run.resume(values, saved.method);
    }
    let writes = question.checkpoint.as_ref().filter(|_| !beyond_upto);
    let save = |run: &PeriodRun, path: &Path| {
        checkpoint::write(path, &game.name, fingerprint, run.values(), run.method_state())
    };
    let mut write_failed = None;
    let every = if writes.is_some() { CHECKPOINT_EVERY } else { 0 };
    let result = run.run(question.upto, limits, every, |run| {
        if let Some(path) = writes {
            if let Err(e) = save(run, path) {
                write_failed.get_or_insert(e);
            }
        }
    });
    if let Some(e) = write_failed {
        return Err(e.into());
    }
    let shown = question.checkpoint.as_ref().map(|p| p.display().to_string());
    if let Some(path) = writes {
        save(&run, path)?;
    }
    match result {
        Ok(_) => Ok(run),
        // The pace says the end is out of reach: a refusal of its own, whose help says how far
        // the budget goes; a checkpoint keeps what was computed.
        Err(cause @ SolveError::PeriodOutOfReach { .. }) => match &shown {
            Some(path) => Err(PeriodError::Stopped {
                at: run.computed(),
                resume: format!(
                    "the values so far are in the checkpoint {path}: ask again with a smaller {} or a longer {} to go \
                     on from pile {}",
                    give(Argument::Upto),
                    give(Argument::Timeout),
                    run.computed()
                ),
                cause,
            }),
            None => Err(cause.into()),
        },
        Err(cause @ (SolveError::Cancelled | SolveError::Timeout { .. } | SolveError::PileWorkLimit { .. })) => {
            let further = match &cause {
                SolveError::PileWorkLimit { .. } => {
                    format!("; {} lets one run examine four times as many moves", limits.more_moves(4.0))
                }
                _ => String::new(),
            };
            let resume = match &shown {
                Some(path) => format!(
                    "the values so far are in the checkpoint {path}: run the same command again to go on from pile {}{further}",
                    run.computed()
                ),
                None => format!(
                    "give {} to keep the values of a stopped run and go on from there{further}",
                    give_value(Argument::Checkpoint, "FILE")
                ),
            };
            Err(PeriodError::Stopped { at: run.computed(), cause, resume })
        }
        Err(e) => Err(e.into()),
    }
}

fn report(game: &Game, run: &PeriodRun, upto: u64, checkpoint: Option<String>) -> PeriodReport {
    let values = run.values();
    let proven = run.proven();
    PeriodReport {
        game: game.name.clone(),
        proven: proven.map(|p| (p.preperiod, p.period)),
        theorem: run.theorem().name(),
        needed: proven.map(|p| p.needed),
        suggested: run.candidate(),
        computed: run.computed(),
        upto,
        resumed_at: run.resumed_at(),
        sparse_space: run.uses_sparse_space(),
        value_width: values.width(),
        largest_value: values.largest_in(0..values.len()).map_or(0, |(v, _)| v),
        peak_bytes: run.peak_bytes(),
        checkpoint,
        window: None,
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / (1u64 << 20) as f64)
}

impl PeriodReport {
    /// The report as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        if let Some(w) = &self.window {
            return self.window_text(w);
        }
        let mut out = String::new();
        match self.proven {
            Some((pre, p)) => {
                out.push_str(&self.headline(pre, p));
                out.push_str(&format!(
                    "proven by {}, from the values of piles 0..{} ({} values were needed)\n",
                    self.theorem,
                    grouped(self.computed - 1),
                    grouped(self.needed.unwrap_or(self.computed))
                ));
            }
            None => {
                out.push_str(&format!(
                    "{}: no period proven in the values of piles 0..{}\n",
                    self.game,
                    grouped(self.computed.saturating_sub(1))
                ));
                match self.suggested {
                    Some((pre, p, needed)) => out.push_str(&format!(
                        "the values suggest period {} from n = {}: {} needs the values of piles 0..{} to prove it ({})\n",
                        grouped(p),
                        grouped(pre),
                        self.theorem,
                        grouped(needed - 1),
                        give_value(Argument::Upto, needed)
                    )),
                    None => out.push_str(&format!(
                        "no period shows in the latest values yet: raise {} to look further\n",
                        give(Argument::Upto)
                    )),
                }
            }
        }
        let method = if self.sparse_space { "the sparse-space method" } else { "the plain scan of every split" };
        out.push_str(&format!(
            "computed: {} values by {method}, the largest {}\n",
            grouped(self.computed),
            self.largest_value
        ));
        if let Some(at) = self.resumed_at {
            out.push_str(&format!("resumed from the checkpoint at pile {}\n", grouped(at)));
        }
        out.push_str(&format!(
            "memory: {} values at {} byte{} each, {} at the peak with the method's tables\n",
            grouped(self.computed),
            self.value_width,
            if self.value_width == 1 { "" } else { "s" },
            megabytes(self.peak_bytes)
        ));
        if let Some(path) = &self.checkpoint {
            out.push_str(&format!("checkpoint: {path}\n"));
        }
        out
    }

    /// The first line of a proven period.
    fn headline(&self, preperiod: u64, period: u64) -> String {
        format!(
            "{}: the Grundy values have period {} from n = {} (preperiod {})\n",
            self.game,
            grouped(period),
            grouped(preperiod),
            grouped(preperiod)
        )
    }

    /// A run in a window, as a reader sees it.
    fn window_text(&self, w: &WindowReport) -> String {
        let mut out = String::new();
        match self.proven {
            Some((pre, p)) => {
                out.push_str(&self.headline(pre, p));
                out.push_str(&format!("proven by {}, stepped to pile {}\n", self.theorem, grouped(self.computed)));
            }
            None => out.push_str(&format!(
                "{}: no period found yet, the values followed to pile {}: {}\n",
                self.game,
                grouped(self.computed),
                w.phase
            )),
        }
        out.push_str(&format!(
            "window: the latest {} values and the first {} ({} of them rare), from pile {}\n",
            grouped(w.window),
            grouped(w.prefix),
            w.rare,
            grouped(w.start)
        ));
        out.push_str(&format!(
            "steps: {} in all, {} in this run; witnesses found within the first {} piles\n",
            grouped(w.steps),
            grouped(w.steps_now),
            grouped(w.deepest_witness)
        ));
        if let Some(at) = self.resumed_at {
            out.push_str(&format!("resumed from the checkpoint at pile {}\n", grouped(at)));
        }
        if let Some(path) = &self.checkpoint {
            out.push_str(&format!("checkpoint: {path}\n"));
        }
        out
    }

    /// The report as JSON.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        json!({
            "game": self.game,
            "proven": self.proven.is_some(),
            "preperiod": self.proven.map(|p| p.0),
            "period": self.proven.map(|p| p.1),
            "theorem": self.proven.map(|_| self.theorem),
            "values_needed": self.needed,
            "suggested": self.suggested.map(|(pre, p, needed)| json!({"preperiod": pre, "period": p, "values_needed": needed})),
            "values_computed": self.computed,
            "upto": self.upto,
            "resumed_at": self.resumed_at,
            "method": if self.sparse_space { "sparse space" } else { "plain scan" },
            "bytes_per_value": self.value_width,
            "largest_value": self.largest_value,
            "peak_memory_bytes": self.peak_bytes,
            "checkpoint": self.checkpoint,
            "window": self.window.as_ref().map(|w| json!({
                "window": w.window,
                "prefix": w.prefix,
                "rare": w.rare,
                "start": w.start,
                "steps": w.steps,
                "steps_now": w.steps_now,
                "deepest_witness": w.deepest_witness,
                "phase": w.phase,
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Values;

    fn question(upto: u64, path: &Path) -> PeriodQuestion {
        PeriodQuestion { upto, checkpoint: Some(path.to_path_buf()), without_theorem: true }
    }

    #[test]
    fn a_checkpoint_past_upto_is_read_to_upto_and_left_as_it_is() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("g.ckpt");
        let game = crate::solve::test_support::game_text("game \"0.6\"\npiles\nmove: octal 0.6\n");
        let long = run_period(&game, &question(20_000, &path), &Limits::default()).expect("runs");
        assert_eq!(long.computed(), 20_000);
        let before = std::fs::read(&path).expect("written");
        let short = run_period(&game, &question(1_000, &path), &Limits::default()).expect("runs");
        assert_eq!(short.computed(), 1_000);
        let fresh = PeriodQuestion { upto: 1_000, checkpoint: None, without_theorem: true };
        let fresh = run_period(&game, &fresh, &Limits::default()).expect("runs");
        assert_eq!(short.values().len(), 1_000);
        assert!((0..1_000).all(|n| short.values().get(n) == fresh.values().get(n)));
        assert_eq!(std::fs::read(&path).expect("still there"), before, "the longer checkpoint is kept whole");
    }

    #[test]
    fn a_value_changed_in_a_checkpoint_with_its_checksum_made_to_match_is_caught() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("g.ckpt");
        for code in ["0.6", "0.644", "0.16", "0.165"] {
            let game = crate::solve::test_support::game_text(&format!("game \"{code}\"\npiles\nmove: octal {code}\n"));
            let _ = std::fs::remove_file(&path);
            let mut run = run_period(&game, &question(30_000, &path), &Limits::default()).expect("runs");
            let fingerprint = run.fingerprint();
            let saved = checkpoint::read(&path, &game.name, fingerprint).expect("reads");
            let values: Vec<u32> = (0..saved.values.len()).map(|n| saved.values.get(n)).collect();
            // Piles at the end, in the middle and near the start, one at a time: each changed by
            // one, and the file written again as a run would write it (its checksum matches).
            let len = values.len();
            assert!(len >= 1_000, "{code}: {len} values");
            for pile in [len - 1, len * 2 / 3, len / 2 + 1, len / 4 + 3, 40] {
                let mut forged = values.clone();
                forged[pile] ^= 1;
                let forged = Values::Wide(forged.into());
                checkpoint::write(&path, &game.name, fingerprint, &forged, saved.method).expect("written");
                let err = run_period(&game, &question(40_000, &path), &Limits::default()).err();
                let Some(PeriodError::Checkpoint(CheckpointError::Corrupt { what, .. })) = err else {
                    panic!("{code}: pile {pile} changed was not caught: {err:?}")
                };
                assert!(what.contains("where the rules give"), "{what}");
            }
        }
    }
}
