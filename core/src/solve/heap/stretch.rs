//! Piles computed two at a time with no hand-over a pile (see `HeapKernel`): for a stretch of
//! piles up to the next multiple of `PAIRS_MEET`, the second thread computes every odd one by
//! itself while the kernel computes the even ones.
//!
//! A hand-over through channels costs about as much as one of 0.161's piles (a job and an
//! answer, each a few transfers of a cache line between the cores, 0.4 µs a round trip here).
//! In a stretch the two threads share only what each pile needs: the kernel publishes how many
//! values it has stored (`stored`), the second thread reads them where the kernel wrote them,
//! writes each of its values just past them in the same buffer (the kernel takes it as stored
//! without a write: `Values::adopt_written`), and leaves its work and its search's cost in the
//! pile's answer. Pile n needs every value below n − 1: the second thread's pile n waits only
//! for the kernel's pile n − 3, and the kernel's for the second thread's.
//!
//! The kernel's values may move to another buffer while a stretch runs (they grow past their
//! room, widen for a larger value, or a question reserves more room for them). It then raises
//! the buffer's `epoch` and leaves a share of the new buffer in `rebased` before it publishes the
//! length that first needs it; the second thread takes it there, and tells with each answer
//! which buffer its value went to, so that the kernel writes the value itself when it went to an
//! old one.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::classes::Classes;
use super::values::Values;

/// Odd piles a stretch holds at most (it ends at the next multiple of `PAIRS_MEET`, 256).
const STRETCH_ODD: usize = 128;

/// Looks this many times before sleeping between looks: within a stretch the other thread is
/// at work on a pile of a few microseconds, and only a run stopped from outside waits longer.
const SPINS_BEFORE_SLEEP: u32 = 1 << 14;

/// A value with a cache line of its own (two on the processors that fetch lines in pairs), so
/// that what one thread writes often never shares a line with what the other does.
#[repr(align(128))]
#[derive(Default)]
struct Own<T>(T);

/// One odd pile's answer: written by the second thread, `done` last, read by the kernel.
#[derive(Default)]
struct PileAnswer {
    /// the pile plus one (0: none yet)
    done: AtomicU64,
    value: AtomicU32,
    work: AtomicU64,
    /// what its search for witnesses cost (see `encode_searched`)
    searched: AtomicU64,
    /// the epoch of the buffer its value was written to (`NOT_WRITTEN`: none)
    written: AtomicU64,
}

/// An answer's value went to no buffer (too wide for the values, or past their room).
const NOT_WRITTEN: u64 = u64::MAX;

/// What one odd pile gave, as the kernel takes it.
pub(super) struct StretchAnswer {
    pub(super) value: u32,
    pub(super) work: u64,
    pub(super) searched: Option<(bool, u64)>,
    /// the epoch of the buffer the value was written to, if any
    pub(super) written: Option<u64>,
}

/// What the kernel and the second thread share for the stretches: made once, with the thread.
pub(super) struct StretchLink {
    /// how many values the kernel has stored, published after each store
    stored: Own<AtomicU64>,
    /// the values' buffer: raised, with a share of the new buffer in `rebased`, before the first
    /// length stored in it is published
    epoch: Own<AtomicU64>,
    rebased: Mutex<Option<(u64, Values)>>,
    /// the stretches numbered up to this are given up (the kernel stopped, or left them)
    given_up: AtomicU64,
    /// the last stretch the second thread left
    left: AtomicU64,
    /// false once the second thread's loop has ended
    alive: AtomicBool,
    answers: Box<[Own<PileAnswer>]>,
}

/// A stretch for the second thread: the odd piles from `first` (odd) below `end`.
pub(super) struct StretchJob {
    pub(super) id: u64,
    pub(super) first: u64,
    pub(super) end: u64,
    /// a share of the kernel's values, every one below `first` − 1 stored, in the buffer of
    /// this epoch
    pub(super) values: Values,
    pub(super) epoch: u64,
    /// the kernel's sparse-space classes and the generation of its tables (`None`: the plain
    /// scan)
    pub(super) tables: Option<(Classes, u64)>,
    /// for each odd pile, whether its search for witnesses tries the holders first
    pub(super) targeted: Vec<bool>,
}

impl StretchLink {
    pub(super) fn new() -> Arc<StretchLink> {
        Arc::new(StretchLink {
            stored: Own::default(),
            epoch: Own::default(),
            rebased: Mutex::new(None),
            given_up: AtomicU64::new(0),
            left: AtomicU64::new(0),
            alive: AtomicBool::new(true),
            answers: (0..STRETCH_ODD).map(|_| Own::default()).collect(),
        })
    }

    fn answer_of(&self, pile: u64) -> &PileAnswer {
        &self.answers[(pile / 2) as usize % STRETCH_ODD].0
    }

    // The kernel's side.

    /// Starts stretch `id` in the buffer of `epoch` (no share of an older one is left waiting).
    pub(super) fn open(&self, epoch: u64, stored: usize) {
        if let Ok(mut rebased) = self.rebased.lock() {
            *rebased = None;
        }
        self.epoch.0.store(epoch, Ordering::Release);
        self.stored.0.store(stored as u64, Ordering::Release);
    }

    /// The kernel's values moved to a new buffer, numbered `epoch`, of which `share` reads every
    /// value stored so far.
    pub(super) fn rebase(&self, epoch: u64, share: Values) {
        if let Ok(mut rebased) = self.rebased.lock() {
            *rebased = Some((epoch, share));
        }
        self.epoch.0.store(epoch, Ordering::Release);
    }

    /// The kernel has stored the values below `stored`.
    pub(super) fn publish(&self, stored: usize) {
        self.stored.0.store(stored as u64, Ordering::Release);
    }

    /// Waits for odd pile `pile`'s answer in stretch `id`; `None` when the second thread is
    /// gone, or left the stretch without it.
    pub(super) fn answer(&self, id: u64, pile: u64) -> Option<StretchAnswer> {
        let answer = self.answer_of(pile);
        let gone = || !self.alive.load(Ordering::Acquire) || self.left.load(Ordering::Acquire) >= id;
        let ready = wait_for(|| answer.done.load(Ordering::Acquire) == pile + 1, gone);
        ready.then(|| {
            let written = answer.written.load(Ordering::Relaxed);
            StretchAnswer {
                value: answer.value.load(Ordering::Relaxed),
                work: answer.work.load(Ordering::Relaxed),
                searched: decode_searched(answer.searched.load(Ordering::Relaxed)),
                written: (written != NOT_WRITTEN).then_some(written),
            }
        })
    }

    /// Gives stretch `id` up and waits until the second thread has left it (or is gone): its
    /// answers are forgotten, so that none is taken for a later stretch's.
    pub(super) fn give_up(&self, id: u64) {
        self.given_up.fetch_max(id, Ordering::AcqRel);
        wait_for(|| self.left.load(Ordering::Acquire) >= id, || !self.alive.load(Ordering::Acquire));
        for answer in self.answers.iter() {
            answer.0.done.store(0, Ordering::Relaxed);
        }
    }

    /// Gives every stretch up: the kernel is stopping.
    pub(super) fn stop(&self) {
        self.given_up.store(u64::MAX, Ordering::Release);
    }

    // The second thread's side.

    /// Marks the second thread gone when its loop ends, however it ends.
    pub(super) fn alive_while(self: &Arc<Self>) -> impl Drop {
        struct Gone(Arc<StretchLink>);
        impl Drop for Gone {
            fn drop(&mut self) {
                self.0.alive.store(false, Ordering::Release);
            }
        }
        Gone(Arc::clone(self))
    }

    /// Waits until every value below pile − 1 can be read in the buffer `values` reads (epoch
    /// `epoch`), taking a share of a new buffer when the kernel moved its values; false when the
    /// stretch is given up. `own` says whether this thread's last value (pile − 2) is in that
    /// buffer: then the kernel's values below pile − 2 are waited for, else (after a move) those
    /// below pile − 1, the kernel's store of pile − 2 among them. With `settle`, every value
    /// below the pile is waited for, the kernel's pile − 1 among them (see
    /// `HeapRules::defers_last`).
    pub(super) fn wait_stored(
        &self,
        (id, pile, settle): (u64, u64, bool),
        values: &mut Values,
        epoch: &mut u64,
        own: &mut bool,
    ) -> bool {
        wait_for(
            || {
                let stored = self.stored.0.load(Ordering::Acquire);
                if self.epoch.0.load(Ordering::Acquire) != *epoch {
                    if let Some((moved, share)) = self.rebased.lock().ok().and_then(|mut r| r.take()) {
                        // The new buffer holds every value below its length; this thread's
                        // last (pile − 2) is there only when it is below that.
                        *own = pile - 2 < share.len() as u64;
                        *values = share;
                        *epoch = moved;
                    }
                    return false;
                }
                let need = if settle {
                    pile
                } else if *own {
                    pile - 2
                } else {
                    pile - 1
                };
                stored >= need
            },
            || self.given_up.load(Ordering::Acquire) >= id,
        )
    }

    /// Leaves pile `pile`'s answer for the kernel.
    pub(super) fn answer_with(
        &self,
        pile: u64,
        value: u32,
        work: u64,
        searched: Option<(bool, u64)>,
        written: Option<u64>,
    ) {
        let answer = self.answer_of(pile);
        answer.value.store(value, Ordering::Relaxed);
        answer.work.store(work, Ordering::Relaxed);
        answer.searched.store(encode_searched(searched), Ordering::Relaxed);
        answer.written.store(written.unwrap_or(NOT_WRITTEN), Ordering::Relaxed);
        answer.done.store(pile + 1, Ordering::Release);
    }

    /// This thread has left stretch `id`.
    pub(super) fn leave(&self, id: u64) {
        self.left.fetch_max(id, Ordering::AcqRel);
    }
}

/// A search's cost in one word: 0 for none, else one more than the cost doubled, plus one when
/// it tried the holders first.
fn encode_searched(searched: Option<(bool, u64)>) -> u64 {
    searched.map_or(0, |(targeted, cost)| 1 + (cost << 1 | u64::from(targeted)))
}

fn decode_searched(word: u64) -> Option<(bool, u64)> {
    word.checked_sub(1).map(|w| (w & 1 == 1, w >> 1))
}

/// Looks until `ready` (true) or `stop` (then whether `ready`, once more): spinning, yielding
/// the processor every 64th look (two threads sharing one core would otherwise spin away each
/// other's turns), then sleeping a little between looks.
fn wait_for(mut ready: impl FnMut() -> bool, mut stop: impl FnMut() -> bool) -> bool {
    let mut looks = 0u32;
    loop {
        if ready() {
            return true;
        }
        if stop() {
            // What it waited for may have come just before the stop.
            return ready();
        }
        if looks < SPINS_BEFORE_SLEEP {
            if looks % 64 == 63 {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
            looks += 1;
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_searched, encode_searched};

    #[test]
    fn a_searchs_cost_comes_back_as_it_went() {
        for searched in [None, Some((false, 0)), Some((true, 0)), Some((true, 12_345)), Some((false, 1 << 40))] {
            assert_eq!(decode_searched(encode_searched(searched)), searched);
        }
    }
}
