//! The progress bar the front ends (command line and REPL) show on stderr during long work.

use std::io::IsTerminal;
use std::sync::Arc;

/// A progress bar on stderr for computations that take a while: only on a terminal, only after
/// the first half second (quick answers stay clean), and cleared before the answer prints.
pub struct ProgressBar {
    started: std::time::Instant,
    bar: std::sync::Mutex<Option<(takeaway_core::Stage, indicatif::ProgressBar)>>,
    /// Where the estimate says the limits stop a stage: the bar counts to there.
    stop: std::sync::Mutex<Option<(takeaway_core::Stage, u64, u64)>>,
}

impl ProgressBar {
    const DELAY: std::time::Duration = std::time::Duration::from_millis(500);

    /// A bar for one question, or `None` where stderr is no terminal (or NO_COLOR asks for
    /// plain output): a pipe or a log gets no bar.
    pub fn new() -> Option<Arc<Self>> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        Some(Arc::new(ProgressBar {
            started: std::time::Instant::now(),
            bar: std::sync::Mutex::new(None),
            stop: std::sync::Mutex::new(None),
        }))
    }

    /// Removes the bar from the screen, before the answer or a diagnostic is printed; a later
    /// report draws it again.
    pub fn clear(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some((_, bar)) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

impl takeaway_core::Reporter for ProgressBar {
    fn report(&self, stage: takeaway_core::Stage, done: u64, total: u64) {
        use takeaway_core::Stage;
        if self.started.elapsed() < Self::DELAY {
            return;
        }
        let Ok(mut slot) = self.bar.lock() else { return };
        // Moves examined are counted under every method; a bar that knows its end says more.
        if stage == Stage::Search && slot.as_ref().is_some_and(|(s, _)| *s != Stage::Search) {
            return;
        }
        if slot.as_ref().is_none_or(|(s, _)| *s != stage) {
            if let Some((_, old)) = slot.take() {
                old.finish_and_clear();
            }
            let target = indicatif::ProgressDrawTarget::stderr_with_hz(8);
            let bar = if total == 0 {
                let bar = indicatif::ProgressBar::with_draw_target(None, target);
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {msg}: {human_pos} moves examined ({elapsed})")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar
            } else {
                let bar = indicatif::ProgressBar::with_draw_target(Some(total), target);
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {human_pos}/{human_len} ({eta} left)")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                        .progress_chars("=> "),
                );
                bar
            };
            bar.set_message(stage_words(stage));
            // The bar appears when the work is well under way: its rate (and so the time left)
            // is measured from here, not from a jump of the whole first half second.
            bar.set_position(done);
            bar.reset_eta();
            *slot = Some((stage, bar));
        }
        // An estimate of where the limits stop the stage holds until the run passes it (the
        // estimate was too cautious) or a later one says the run fits: then the bar counts to
        // the end again, rather than creeping past a promised stop.
        let stop = self
            .stop
            .lock()
            .ok()
            .and_then(|s| *s)
            .filter(|(s, reachable, t)| *s == stage && *t == total && *reachable < total && done <= *reachable);
        if let Some((_, bar)) = slot.as_ref() {
            match stop {
                // The estimate ends the run early: count to there, and say so.
                Some((_, reachable, _)) => {
                    bar.set_length(reachable.max(done));
                    bar.set_message(format!("stops at the limits near {reachable} of {total}"));
                }
                None if total > 0 => {
                    bar.set_length(total);
                    bar.set_message(stage_words(stage));
                }
                None => {}
            }
            bar.set_position(done);
        }
    }

    fn limited(&self, stage: takeaway_core::Stage, reachable: u64, total: u64) {
        if let Ok(mut stop) = self.stop.lock() {
            *stop = Some((stage, reachable, total));
        }
    }
}

/// What a bar counts, in words.
fn stage_words(stage: takeaway_core::Stage) -> &'static str {
    use takeaway_core::Stage;
    match stage {
        Stage::PileValues => "Grundy values of one pile",
        Stage::TableRows => "table rows",
        Stage::Search => "searching (Ctrl-C stops)",
    }
}

impl Drop for ProgressBar {
    fn drop(&mut self) {
        self.clear();
    }
}
