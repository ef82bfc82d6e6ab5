//! Two lanes of workers, so that a quick question never waits behind slow ones. Every question
//! starts in the quick lane; one still running after `QUICK` moves itself to the slow lane (from
//! the engine's own polls, between two steps of its work). When the quick lane is crowded its
//! newest question goes first, so that a burst of questions cannot hold up the ones that come
//! after it; the slow lane's queue is bounded, and a question past it ends with 503 and
//! `Retry-After`. Waiting counts against a question's deadline, which starts when it arrives.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use takeaway_core::{CancelToken, Reporter, Stage};
use tokio::sync::oneshot;

/// How long a question may run in the quick lane before it moves to the slow one: a question
/// about one position of a small game answers well within it (Nim 41 163 13 in under a
/// millisecond), a search that needs seconds leaves it soon.
pub const QUICK: Duration = Duration::from_millis(100);

/// Questions waiting for the quick lane at most; past it a question is refused with 503.
pub const MOST_QUICK_WAITING: usize = 1024;

/// How often a waiting question looks at its cancel token and its deadline.
const LOOK: Duration = Duration::from_millis(50);

/// The server is too busy for this question now.
#[derive(Debug)]
pub struct Busy;

/// Both lanes of one server.
pub struct Lanes {
    quick: Arc<Quick>,
    slow: Arc<Slow>,
}

impl Lanes {
    /// `workers` questions computing in each lane, and `slow_waiting` waiting for the slow one.
    pub fn new(workers: usize, slow_waiting: usize) -> Arc<Lanes> {
        Arc::new(Lanes {
            quick: Arc::new(Quick {
                state: Mutex::new(QuickState { free: workers.max(1), waiting: Vec::new() }),
                most_waiting: MOST_QUICK_WAITING,
            }),
            slow: Arc::new(Slow {
                state: Mutex::new(SlowState { free: workers.max(1), waiting: 0 }),
                freed: Condvar::new(),
                most_waiting: slow_waiting,
            }),
        })
    }

    /// Waits for a turn in the quick lane (newest first); `Busy` when too many wait already.
    pub async fn quick_turn(self: &Arc<Self>) -> Result<QuickPermit, Busy> {
        let waiter = {
            let mut state = lock(&self.quick.state);
            if state.free > 0 {
                state.free -= 1;
                return Ok(QuickPermit { lane: Some(self.quick.clone()) });
            }
            if state.waiting.len() >= self.quick.most_waiting {
                // Questions whose clients left, or whose time ran out, no longer wait.
                state.waiting.retain(|w| !w.is_closed());
                if state.waiting.len() >= self.quick.most_waiting {
                    return Err(Busy);
                }
            }
            let (tell, waiter) = oneshot::channel();
            state.waiting.push(tell);
            waiter
        };
        waiter.await.map_err(|_| Busy)
    }

    /// A question's turn, starting in the quick lane with `permit`: the question's progress
    /// sink, which moves it to the slow lane when it runs past `QUICK`.
    pub fn turn(self: &Arc<Self>, permit: QuickPermit, cancel: CancelToken, deadline: Instant) -> Arc<Turn> {
        Arc::new(Turn {
            lanes: self.clone(),
            started: Instant::now(),
            held: Mutex::new(Held::Quick(permit)),
            busy: AtomicBool::new(false),
            cancel,
            deadline,
            latest: Mutex::new(None),
        })
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves counts that are still whole numbers.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

struct Quick {
    state: Mutex<QuickState>,
    most_waiting: usize,
}

struct QuickState {
    free: usize,
    /// The newest waiter is last, and is served first.
    waiting: Vec<oneshot::Sender<QuickPermit>>,
}

/// A place in the quick lane, given back when dropped (to the newest question waiting).
pub struct QuickPermit {
    lane: Option<Arc<Quick>>,
}

impl Drop for QuickPermit {
    fn drop(&mut self) {
        let Some(lane) = self.lane.take() else { return };
        let mut state = lock(&lane.state);
        while let Some(waiter) = state.waiting.pop() {
            match waiter.send(QuickPermit { lane: Some(lane.clone()) }) {
                Ok(()) => return,
                // That waiter is gone: the permit goes to the next one, not back through Drop.
                Err(mut unsent) => unsent.lane = None,
            }
        }
        state.free += 1;
    }
}

struct Slow {
    state: Mutex<SlowState>,
    freed: Condvar,
    most_waiting: usize,
}

struct SlowState {
    free: usize,
    waiting: usize,
}

/// A place in the slow lane, given back when dropped.
struct SlowPermit {
    lane: Arc<Slow>,
}

impl Drop for SlowPermit {
    fn drop(&mut self) {
        lock(&self.lane.state).free += 1;
        self.lane.freed.notify_one();
    }
}

/// Why a question did not get into the slow lane.
enum Refused {
    Busy,
    GaveUp,
}

impl Slow {
    /// Waits (blocking: it runs on the question's own worker thread) for a place, until
    /// `give_up` says the question no longer needs one.
    fn enter(self: &Arc<Self>, give_up: impl Fn() -> bool) -> Result<SlowPermit, Refused> {
        let mut state = lock(&self.state);
        if state.free == 0 && state.waiting >= self.most_waiting {
            return Err(Refused::Busy);
        }
        state.waiting += 1;
        loop {
            if state.free > 0 {
                state.free -= 1;
                state.waiting -= 1;
                return Ok(SlowPermit { lane: self.clone() });
            }
            if give_up() {
                state.waiting -= 1;
                return Err(Refused::GaveUp);
            }
            state = self.freed.wait_timeout(state, LOOK).map_or_else(|p| p.into_inner().0, |(s, _)| s);
        }
    }
}

enum Held {
    Quick(#[allow(dead_code)] QuickPermit),
    Slow(#[allow(dead_code)] SlowPermit),
    Nothing,
}

/// One question's place in the lanes: the engine polls it between steps.
pub struct Turn {
    lanes: Arc<Lanes>,
    started: Instant,
    held: Mutex<Held>,
    busy: AtomicBool,
    cancel: CancelToken,
    deadline: Instant,
    /// The engine's latest report: stage, done, total (0 when unknown).
    latest: Mutex<Option<(Stage, u64, u64)>>,
}

impl Turn {
    /// How far the question has got, as the engine last reported it.
    pub fn latest(&self) -> Option<(Stage, u64, u64)> {
        *lock(&self.latest)
    }

    /// The question is over: its place goes to the next.
    pub fn finish(&self) {
        *lock(&self.held) = Held::Nothing;
    }

    /// The slow lane was full when the question needed it (it was cancelled for that).
    pub fn was_busy(&self) -> bool {
        self.busy.load(Ordering::Relaxed)
    }

    fn move_to_the_slow_lane(&self, held: &mut Held) {
        // Leave the quick lane first: a question waiting for the slow lane holds up nobody.
        *held = Held::Nothing;
        let give_up = || self.cancel.is_cancelled() || Instant::now() >= self.deadline;
        match self.lanes.slow.enter(give_up) {
            Ok(permit) => *held = Held::Slow(permit),
            Err(Refused::Busy) => {
                self.busy.store(true, Ordering::Relaxed);
                self.cancel.cancel();
            }
            // The engine's next look at its token or its deadline ends the question.
            Err(Refused::GaveUp) => {}
        }
    }
}

impl Reporter for Turn {
    fn report(&self, stage: Stage, done: u64, total: u64) {
        *lock(&self.latest) = Some((stage, done, total));
    }

    fn poll(&self) {
        if self.started.elapsed() < QUICK {
            return;
        }
        let mut held = lock(&self.held);
        if matches!(*held, Held::Quick(_)) {
            self.move_to_the_slow_lane(&mut held);
        }
    }
}
