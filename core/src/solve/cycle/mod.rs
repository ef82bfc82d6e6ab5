//! The period of a deterministic machine found in the memory of its state: Brent's cycle
//! detection, resumable, with the preperiod found exactly afterwards.
//!
//! A machine whose next state depends only on its state repeats from the first state it meets
//! twice, and a repeat proves everything after it (each step replays). Brent's method finds the
//! period λ keeping one earlier state (the "tortoise", moved to the running one at each power
//! of two) and comparing the running one (the "hare") with it at every step; states are compared
//! by fingerprint (a rolling hash the machine keeps) and, when those agree, in full. The
//! preperiod μ then comes from two copies λ steps apart, stepped together until they agree,
//! started from the latest tortoise known to lie before μ (one whose checked stretch was at
//! least λ long and held no repeat) or from the start.
//!
//! A long search also keeps the hare's state every `snapshot_every` steps. Once λ is known the
//! preperiod is looked for from the latest of these below the last tortoise, with the other
//! copy started from the latest one at most λ further: the two agree at once when the snapshot
//! lies past μ, and the one below is tried. 0.106 (μ ≈ 4.65·10¹¹, λ ≈ 3.28·10¹¹) then needs a
//! few times `snapshot_every` steps for its preperiod where the tortoise before would need
//! about 7.9·10¹¹.
//!
//! The hare is also compared with every snapshot behind it, as with the tortoise: the first
//! snapshot past μ comes back λ steps after it, at most `snapshot_every` + λ steps past μ,
//! where Brent's tortoise (moved at powers of two) may sit up to μ past it. For 0.106 the hare
//! stops at about 8.09·10¹¹ steps instead of 8.78·10¹¹.
//!
//! Memory is a few states, whatever the period: a machine of a window of values finds periods
//! of 10¹¹ values in tens of kilobytes.

mod octal;
mod store;
#[cfg(test)]
mod tests;

pub(crate) use octal::{NoStart, OctalWindow, SplitKind, Stuck, WindowRules};
pub(crate) use store::{read_search, write_search, RunKey};

/// A deterministic machine: `step` moves it to its next state, or says why it cannot.
pub(crate) trait Machine: Clone + Send {
    /// Why a step could not be taken.
    type Stuck: Send;
    fn step(&mut self) -> Result<(), Self::Stuck>;
    /// A hash of the state, equal for equal states.
    fn fingerprint(&self) -> u64;
    /// Whether two states are the same, in full.
    fn same_state(&self, other: &Self) -> bool;
    /// A figure of the steps this copy took, kept as the most over every copy (a window's
    /// deepest witness); 0 unless a machine has one.
    fn figure(&self) -> u64 {
        0
    }
}

fn same<M: Machine>(a: &M, b: &M) -> bool {
    a.fingerprint() == b.fingerprint() && a.same_state(b)
}

/// Where a search stands; every field a checkpoint keeps.
#[derive(Clone, Debug)]
pub(crate) enum Phase<M> {
    /// Looking for the period: `hare` is `lam` steps past `tortoise` (at step `tortoise_at`),
    /// and no state from `tortoise_at + 1` to there equals the tortoise's, nor any from a
    /// watched snapshot's step on equals the snapshot's (see `CycleSearch::watched_from`).
    Period {
        tortoise: M,
        tortoise_at: u64,
        hare: M,
        power: u64,
        lam: u64,
        /// The tortoise before, with the length of its stretch (checked without a repeat).
        previous: Option<(M, u64, u64)>,
    },
    /// The period is known: `behind` (at step `behind_at`) and `ahead` (at `ahead_at`, at most
    /// `period` steps further) are stepped until `ahead` is `period` past `behind` and the two
    /// agree; the first step where they do is the preperiod. No step up to `sure_until` lies
    /// past the preperiod; a `behind` past it (a snapshot) is compared first, and agreeing there
    /// says only that it lies at or past the preperiod: the snapshot below is tried.
    Preperiod { period: u64, behind: M, behind_at: u64, ahead: M, ahead_at: u64, sure_until: u64 },
    /// Done: states from step `preperiod` on repeat every `period` steps, and no earlier one does.
    Found { preperiod: u64, period: u64 },
}

/// A cycle search over the states of a machine from its start.
#[derive(Clone, Debug)]
pub(crate) struct CycleSearch<M> {
    pub phase: Phase<M>,
    /// Steps taken by every copy of the machine, over all runs (the work).
    pub steps: u64,
    /// The most `Machine::figure` of every copy so far.
    pub figure: u64,
    /// The hare's state at every multiple of `snapshot_every` steps it passed (step, state),
    /// in order; emptied once the search is done.
    pub snapshots: Vec<(u64, M)>,
    /// How many steps apart the snapshots are (a power of two; 0: none are kept). It changes
    /// only how many steps the preperiod takes, never what is found.
    pub snapshot_every: u64,
    /// The most snapshots kept: past it every other one goes and the spacing doubles, so that
    /// a search of any length with a window of any size keeps a bounded memory.
    pub most_snapshots: usize,
    /// The snapshots at or past this step have been compared with the hare at every step after
    /// theirs, so that the first that agrees with it gives the period (0 for a search that
    /// always compared them; a checkpoint of a build that did not says where it stood).
    pub watched_from: u64,
}

/// Bits of the filter that says which fingerprints a watched snapshot may have.
const FILTER_BITS: usize = 1 << 12;

/// Which fingerprints the watched snapshots have, as bits of a filter (an agreeing bit is then
/// checked in full), and the snapshots' fingerprints in order.
struct Watched {
    filter: Vec<u64>,
    prints: Vec<(u64, u64)>,
}

impl Watched {
    fn bit(print: u64) -> usize {
        // The top bits of a multiplicative hash: fingerprints whose own top bits are all alike
        // (a small machine's) still spread over the filter.
        (print.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - FILTER_BITS.trailing_zeros())) as usize
    }

    fn of<M: Machine>(snapshots: &[(u64, M)], from: u64) -> Watched {
        let mut watched = Watched { filter: vec![0; FILTER_BITS / 64], prints: Vec::new() };
        for (at, m) in snapshots.iter().filter(|(at, _)| *at >= from) {
            watched.add(m.fingerprint(), *at);
        }
        watched
    }

    fn add(&mut self, print: u64, at: u64) {
        let bit = Watched::bit(print);
        self.filter[bit / 64] |= 1 << (bit % 64);
        let place = self.prints.partition_point(|p| *p < (print, at));
        self.prints.insert(place, (print, at));
    }

    /// The steps of the watched snapshots whose fingerprint is `print`.
    fn maybe(&self, print: u64) -> impl Iterator<Item = u64> + '_ {
        let bit = Watched::bit(print);
        let hit = self.filter[bit / 64] >> (bit % 64) & 1 != 0;
        let from = if hit { self.prints.partition_point(|p| p.0 < print) } else { self.prints.len() };
        self.prints[from..].iter().take_while(move |p| p.0 == print).map(|p| p.1)
    }
}

/// The hare's state is kept every this many steps: 2^34 steps of 0.106's window take about
/// ten minutes of a core, and each state kept is its window (16 KB).
pub(crate) const SNAPSHOT_EVERY: u64 = 1 << 34;

/// The most snapshots kept unless the caller says fewer: 0.106's search needs about 50.
pub(crate) const MOST_SNAPSHOTS: usize = 64;

/// How far apart snapshots read back were kept: thinning doubles the spacing, and no two
/// snapshots lie further apart than it (two kept from three were at most two spacings apart,
/// and later ones are pushed a spacing apart). The widest gap, as a power of two, at least
/// `first`: never sparser than the search that wrote them, so that a spacing reset on reading
/// does not fill the snapshots anew at the first spacing.
pub(crate) fn spacing_of<M>(snapshots: &[(u64, M)], first: u64) -> u64 {
    let widest = snapshots.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap_or(0);
    let power = if widest == 0 { 0 } else { 1 << (63 - widest.leading_zeros()) };
    power.max(first)
}

/// Why a search paused or stopped.
#[derive(Debug)]
pub(crate) enum Paused<S, E> {
    /// The machine could not step (it says why).
    Stuck(S),
    /// The caller's `keep_going` said stop (a budget, a deadline, Ctrl-C).
    Stopped(E),
}

impl<M: Machine> CycleSearch<M> {
    /// A search from the machine's start (step 0).
    pub(crate) fn new(start: M) -> Result<Self, Paused<M::Stuck, std::convert::Infallible>> {
        let mut hare = start.clone();
        hare.step().map_err(Paused::Stuck)?;
        Ok(CycleSearch {
            figure: hare.figure(),
            phase: Phase::Period { tortoise: start, tortoise_at: 0, hare, power: 1, lam: 1, previous: None },
            steps: 1,
            snapshots: Vec::new(),
            snapshot_every: SNAPSHOT_EVERY,
            most_snapshots: MOST_SNAPSHOTS,
            watched_from: 0,
        })
    }

    /// The furthest step any copy of the machine has reached.
    pub(crate) fn furthest(&self) -> u64 {
        match &self.phase {
            Phase::Period { tortoise_at, lam, .. } => tortoise_at + lam,
            Phase::Preperiod { ahead_at, .. } => *ahead_at,
            Phase::Found { preperiod, period } => preperiod + period,
        }
    }

    /// Runs until the cycle is found, the machine is stuck, or `keep_going` (asked every
    /// `every` steps, with the steps so far) says stop; `start` gives the state at step 0 again
    /// when the preperiod must be looked for from there. A stopped search can go on with
    /// another call.
    pub(crate) fn run<E>(
        &mut self,
        every: u64,
        start: impl Fn() -> M,
        mut keep_going: impl FnMut(&Self) -> Result<(), E>,
    ) -> Result<(u64, u64), Paused<M::Stuck, E>> {
        let every = every.max(1);
        // A power of two, so that the hot loop tests a mask (0: never).
        let mut snapshot_mask = self.snapshot_every.checked_next_power_of_two().map_or(u64::MAX, |p| p.wrapping_sub(1));
        let mut watched = Watched::of(&self.snapshots, self.watched_from);
        loop {
            let mut left = every;
            match &mut self.phase {
                Phase::Found { preperiod, period } => {
                    self.snapshots = Vec::new();
                    return Ok((*preperiod, *period));
                }
                Phase::Period { tortoise, tortoise_at, hare, power, lam, previous } => {
                    self.figure = self.figure.max(hare.figure());
                    // The period, and a step the preperiod lies below.
                    let mut found = None;
                    while left > 0 {
                        if same(tortoise, hare) {
                            found = Some((*lam, *tortoise_at + 1));
                            break;
                        }
                        if lam == power {
                            *previous = Some((tortoise.clone(), *tortoise_at, *power));
                            *tortoise = hare.clone();
                            *tortoise_at += *power;
                            *power *= 2;
                            *lam = 0;
                        }
                        hare.step().map_err(Paused::Stuck)?;
                        *lam += 1;
                        self.steps += 1;
                        left -= 1;
                        let at = *tortoise_at + *lam;
                        let print = hare.fingerprint();
                        let back = watched.maybe(print).find(|&s| {
                            let place = self.snapshots.partition_point(|(step, _)| *step < s);
                            self.snapshots.get(place).is_some_and(|(step, m)| *step == s && m.same_state(hare))
                        });
                        if let Some(s) = back {
                            // The state at s comes back first here: the distance is the period,
                            // and s lies at or past the preperiod (the search starts below it).
                            found = Some((at - s, s));
                            break;
                        }
                        if at & snapshot_mask == 0 && self.snapshot_every != 0 {
                            self.snapshots.push((at, hare.clone()));
                            watched.add(print, at);
                            if self.snapshots.len() > self.most_snapshots.max(2) {
                                // Twice as far apart: every other one goes, the latest stays.
                                let last = self.snapshots.len() - 1;
                                let mut index = 0;
                                self.snapshots.retain(|_| {
                                    index += 1;
                                    (last + 1 - index).is_multiple_of(2)
                                });
                                self.snapshot_every = self.snapshot_every.saturating_mul(2);
                                snapshot_mask = snapshot_mask.saturating_mul(2) | 1;
                                watched = Watched::of(&self.snapshots, self.watched_from);
                            }
                        }
                    }
                    self.figure = self.figure.max(hare.figure());
                    if let Some((period, below)) = found {
                        // The previous tortoise, if its stretch was at least the period, saw no
                        // repeat: its state differs from the state a period later, so it and every
                        // step before it lie before the preperiod, and the search is sure up to
                        // it. Without one it is sure of nothing (the start may agree: μ = 0).
                        let sure_until = match previous.take() {
                            Some((state, at, stretch)) if stretch >= period => {
                                let place = self.snapshots.partition_point(|(s, _)| *s < at);
                                if self.snapshots.get(place).is_none_or(|(s, _)| *s != at) {
                                    self.snapshots.insert(place, (at, state));
                                }
                                at
                            }
                            _ => 0,
                        };
                        let (behind, behind_at, ahead, ahead_at) = pair_from(&self.snapshots, below, period, &start);
                        self.phase = Phase::Preperiod { period, behind, behind_at, ahead, ahead_at, sure_until };
                        continue;
                    }
                }
                Phase::Preperiod { period, behind, behind_at, ahead, ahead_at, sure_until } => {
                    while left > 0 && *ahead_at < *behind_at + *period {
                        ahead.step().map_err(Paused::Stuck)?;
                        *ahead_at += 1;
                        self.steps += 1;
                        left -= 1;
                    }
                    while left > 0 && *ahead_at == *behind_at + *period {
                        if *behind_at > *sure_until {
                            if same(behind, ahead) {
                                // A snapshot at or past the preperiod: try the one below.
                                let (b, b_at, a, a_at) = pair_from(&self.snapshots, *behind_at, *period, &start);
                                (*behind, *behind_at, *ahead, *ahead_at) = (b, b_at, a, a_at);
                                continue;
                            }
                            // Its state differs from the one a period later: it lies before.
                            *sure_until = *behind_at;
                        }
                        // The two copies step on a thread each, a stretch at a time.
                        let stretch = (left / 2).clamp(1, MOST_STRETCH);
                        left = left.saturating_sub(2 * stretch);
                        let found = lockstep(behind, ahead, stretch).map_err(Paused::Stuck)?;
                        self.figure = self.figure.max(ahead.figure()).max(behind.figure());
                        match found {
                            Some(offset) => {
                                // The stretch's steps, and those confirming the agreement.
                                self.steps += 2 * stretch + 2 * offset;
                                self.phase = Phase::Found { preperiod: *behind_at + offset, period: *period };
                                break;
                            }
                            None => {
                                *behind_at += stretch;
                                *ahead_at += stretch;
                                self.steps += 2 * stretch;
                                // The state before it lay before the preperiod: this one is at
                                // most the preperiod, and agreeing finds it.
                                *sure_until = *behind_at;
                            }
                        }
                    }
                }
            }
            if !matches!(self.phase, Phase::Found { .. }) {
                keep_going(self).map_err(Paused::Stopped)?;
            }
        }
    }
}

/// Where to look for the preperiod below step `below`: the latest snapshot under it (or the
/// start), and the copy to step a period ahead of it, started from the latest snapshot at most
/// a period further (or from that state itself).
fn pair_from<M: Clone>(snapshots: &[(u64, M)], below: u64, period: u64, start: &impl Fn() -> M) -> (M, u64, M, u64) {
    let under = snapshots.partition_point(|(s, _)| *s < below);
    let (behind, behind_at) = match under.checked_sub(1).map(|i| &snapshots[i]) {
        Some((at, state)) => (state.clone(), *at),
        None => (start(), 0),
    };
    let reach = behind_at.saturating_add(period);
    let (ahead, ahead_at) = match snapshots[..snapshots.partition_point(|(s, _)| *s <= reach)].last() {
        Some((at, state)) if *at > behind_at => (state.clone(), *at),
        _ => (behind.clone(), behind_at),
    };
    (behind, behind_at, ahead, ahead_at)
}

/// The most steps a stretch of `lockstep` takes (its fingerprints are kept: 512 KB a copy).
const MOST_STRETCH: u64 = 1 << 16;

/// Stretches shorter than this step both copies on this thread: starting a thread costs more
/// than it spares (a window's search asks for 2^15 steps at a time).
const PARALLEL_STRETCH: u64 = 1 << 12;

/// Steps two copies `stretch` times each, one on another thread, and gives the first offset
/// (from where they stood) at which their states are the same, if any: fingerprints are kept
/// for every offset, and an equal pair is confirmed in full from copies made before the stretch.
/// With no equal pair both end `stretch` steps further.
fn lockstep<M: Machine>(behind: &mut M, ahead: &mut M, stretch: u64) -> Result<Option<u64>, M::Stuck> {
    let (behind_before, ahead_before) = (behind.clone(), ahead.clone());
    let walk = |machine: &mut M| -> Result<Vec<u64>, M::Stuck> {
        let mut prints = Vec::with_capacity(stretch as usize);
        for _ in 0..stretch {
            prints.push(machine.fingerprint());
            machine.step()?;
        }
        Ok(prints)
    };
    let (mine, theirs) = if stretch < PARALLEL_STRETCH {
        (walk(behind), walk(ahead))
    } else {
        std::thread::scope(|scope| {
            let other = scope.spawn(|| walk(ahead));
            let mine = walk(behind);
            // A panic on the other thread is one of this one: the machine's invariants broke.
            (mine, other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        })
    };
    let (mine, theirs) = (mine?, theirs?);
    for (offset, _) in mine.iter().zip(&theirs).enumerate().filter(|(_, (a, b))| a == b) {
        let (mut b, mut a) = (behind_before.clone(), ahead_before.clone());
        for _ in 0..offset {
            b.step()?;
            a.step()?;
        }
        if b.same_state(&a) {
            return Ok(Some(offset as u64));
        }
    }
    Ok(None)
}
