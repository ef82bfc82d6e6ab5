//! Long runs toward a proven period: the values of one pile computed by the take-and-break
//! kernel, a byte each while they fit, until a periodicity theorem proves their period (Guy and
//! Smith's for octal games, the window theorem for subtraction games) or the run reaches its end.
//!
//! The proof is looked for as the values grow. A candidate period p shows itself as a match of
//! the latest values with those p earlier; its preperiod n₀ is where the match starts, and the
//! theorem says how many values prove it (2n₀ + 2p + t for an octal game whose moves take at
//! most t). From then on each new value is compared with the one p before it, at no cost, and
//! the run stops the moment the theorem is satisfied. Candidates are found by a rolling hash
//! over the stored values (no table beside them), only when the values have grown by a sixteenth
//! since the last look.

use super::heap::{HeapKernel, HeapRules, MethodState, Values};
use super::rolling::RollingHash;
use super::{check_cancel, period, Limits, SolveError, Work};
use crate::rules::Game;
use crate::wording::{give_value, Argument};

/// Which theorem proves a period of the game's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Theorem {
    /// Guy and Smith: G(n + p) = G(n) for n₀ ≤ n < 2n₀ + p + t proves it for every n ≥ n₀.
    Octal { most_taken: u64 },
    /// A subtraction game's value depends on the `largest` values before it: a window of them
    /// that repeats proves the rest repeats.
    Subtraction { largest: u64 },
    /// None is known (Grundy's game): the run computes values and reports the period they
    /// suggest, never a proven one.
    Unknown,
}

impl Theorem {
    /// The theorem that proves a period of a game's Grundy values (under normal play, where
    /// they say who wins), if one does.
    pub(crate) fn of(game: &Game) -> Result<Theorem, NoRun> {
        if game.convention != crate::vocab::Convention::Normal {
            return Err(NoRun::Misere);
        }
        if let Some(largest) = period::subtraction_bound(game) {
            return Ok(Theorem::Subtraction { largest });
        }
        period::octal_bound(game).map(|most_taken| Theorem::Octal { most_taken }).ok_or(NoRun::NoTheorem)
    }

    /// How many values (piles 0 up to one less) prove a period p from preperiod n₀.
    pub(crate) fn values_needed(self, preperiod: u64, period: u64) -> u64 {
        match self {
            Theorem::Octal { most_taken } => period::octal_needs(preperiod, period, most_taken),
            Theorem::Subtraction { largest } => preperiod + period + largest,
            Theorem::Unknown => u64::MAX,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Theorem::Octal { .. } => period::OCTAL_THEOREM,
            Theorem::Subtraction { .. } => period::SUBTRACTION_THEOREM,
            Theorem::Unknown => "no theorem",
        }
    }
}

/// A period proven by a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Proven {
    pub preperiod: u64,
    pub period: u64,
    /// the values the theorem needed for the period as first found (a multiple of the
    /// smallest, or from a later start, before it was reduced)
    pub needed: u64,
}

/// A period the values suggest, being followed value by value.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    period: u64,
    preperiod: u64,
}

/// The most values whose room a run reserves at its start.
const RESERVED_AHEAD: u64 = 1 << 27;

/// The fewest values before a run's pace decides whether it can reach its end: fewer say
/// little of where the work per pile goes.
const FIRST_PROJECTION: u64 = 1 << 17;

/// How many times the piles computed the budget must reach for a run with no period in view
/// to go on (see `refuse_out_of_reach`).
const REACH_FACTOR: u64 = 4;

/// Values between the first looks for a candidate: small, since many codes are proven from a
/// few hundred values (0.137 from 175) and a look at a few thousand costs less than a value.
const FIRST_LOOK: u64 = 1 << 6;

/// A run of one pile's values toward a proven period.
pub(crate) struct PeriodRun {
    kernel: HeapKernel,
    theorem: Theorem,
    candidate: Option<Candidate>,
    next_look: u64,
    proven: Option<Proven>,
    /// the piles computed when the run was resumed from a checkpoint
    resumed_at: Option<u64>,
    /// the most memory the kernel held, in bytes, as counted at each look
    peak_bytes: u64,
    /// options the kernel scanned in this process (not those before a checkpoint it resumed)
    scanned: u64,
}

/// Why a game has no period run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoRun {
    /// No theorem proves its values periodic.
    NoTheorem,
    /// It is played under the misère convention: its Grundy values say nothing of who wins.
    Misere,
    /// Its rules are not ones the take-and-break kernel computes (a theorem applies, but the
    /// values come one listed move at a time: no record-length run).
    NotCompiled,
}

/// Options the plain scan may examine checking a checkpoint's sample (a fifth of a second).
const SAMPLE_WORK: u64 = 1 << 26;
/// Piles of a checkpoint checked however long their scans.
const SAMPLE_LEAST: u64 = 16;

impl PeriodRun {
    pub(crate) fn new(game: &Game) -> Result<PeriodRun, NoRun> {
        let theorem = Theorem::of(game)?;
        let rules = HeapRules::compile(game).ok_or(NoRun::NotCompiled)?;
        Ok(PeriodRun::with_kernel(HeapKernel::new(rules), theorem, None))
    }

    /// A run of the game's values whether or not a theorem can prove their period: a game with
    /// none (Grundy's game) computes its values all the same, for their figures (a sweep's
    /// row, a record run). Only rules whose moves take at most a fixed amount qualify, since a
    /// checkpoint names its game by their fingerprint.
    pub(crate) fn values_only(game: &Game) -> Result<PeriodRun, NoRun> {
        match PeriodRun::new(game) {
            Err(NoRun::NoTheorem) => {
                let mut rules = HeapRules::compile(game).ok_or(NoRun::NoTheorem)?;
                rules.fingerprint().ok_or(NoRun::NoTheorem)?;
                Ok(PeriodRun::with_kernel(HeapKernel::new(rules), Theorem::Unknown, None))
            }
            other => other,
        }
    }

    /// The same game's run, going on from the values and method of a checkpoint.
    pub(crate) fn resume(self, values: Values, method: MethodState) -> PeriodRun {
        let at = values.len() as u64;
        PeriodRun::with_kernel(HeapKernel::resume(self.kernel.rules, values, method), self.theorem, Some(at))
    }

    fn with_kernel(kernel: HeapKernel, theorem: Theorem, resumed_at: Option<u64>) -> PeriodRun {
        let computed = kernel.computed() as u64;
        PeriodRun {
            kernel,
            theorem,
            candidate: None,
            next_look: FIRST_LOOK.max(computed),
            proven: None,
            resumed_at,
            peak_bytes: 0,
            scanned: 0,
        }
    }

    pub(crate) fn theorem(&self) -> Theorem {
        self.theorem
    }

    /// How many values are computed: piles 0 up to one less.
    pub(crate) fn computed(&self) -> u64 {
        self.kernel.computed() as u64
    }

    /// The options the kernel scanned in this run (since the checkpoint it resumed from, if
    /// any): the work, counted the same on every machine.
    pub(crate) fn scanned(&self) -> u64 {
        self.scanned
    }

    /// The rare values under the sparse-space classes (the method's own when it ran, else those
    /// the values call for): how many piles have one, and the largest such pile.
    pub(crate) fn rare_values(&self) -> Option<(u64, Option<u64>)> {
        let (mask, parity) = self.kernel.rare_classes()?;
        let values = self.values();
        let (mut count, mut last) = (0u64, None);
        for n in 0..values.len() {
            if (values.get(n) & mask).count_ones() & 1 != parity[n & 1] {
                count += 1;
                last = Some(n as u64);
            }
        }
        Some((count, last))
    }

    pub(crate) fn resumed_at(&self) -> Option<u64> {
        self.resumed_at
    }

    pub(crate) fn proven(&self) -> Option<Proven> {
        self.proven
    }

    /// The values so far (a run keeps them all).
    pub(crate) fn values(&self) -> &Values {
        self.kernel.values().expect("a period run keeps every value")
    }

    pub(crate) fn method_state(&self) -> MethodState {
        self.kernel.method_state()
    }

    /// The most memory the run's values and tables held, in bytes (counted from what they
    /// allocate, so the same on every machine).
    pub(crate) fn peak_bytes(&self) -> u64 {
        self.peak_bytes.max(self.kernel.memory_bytes())
    }

    /// The period the values suggest and is followed, as (preperiod, period, values the theorem
    /// needs), while none is proven.
    pub(crate) fn candidate(&self) -> Option<(u64, u64, u64)> {
        let c = self.candidate.filter(|_| self.proven.is_none())?;
        Some((c.preperiod, c.period, self.theorem.values_needed(c.preperiod, c.period)))
    }

    /// The same run, computing values without looking for a period (a window's search starts
    /// from them and proves the period its own way).
    pub(crate) fn without_proof(mut self) -> PeriodRun {
        self.theorem = Theorem::Unknown;
        self
    }

    /// The amounts the game's moves take, when they take at most a fixed amount.
    pub(crate) fn fixed_takes(&mut self) -> Option<super::heap::FixedTakes> {
        self.kernel.rules.fixed_takes()
    }

    /// The sparse-space classes of the values so far, as (mask, parity for even and odd piles).
    pub(crate) fn classes(&self) -> Option<(u32, [u32; 2])> {
        self.kernel.rare_classes()
    }

    /// A hash of the game's rules as the kernel reads them (what every amount may leave): a
    /// checkpoint is for the games with the same one, whose values are the same.
    pub(crate) fn fingerprint(&mut self) -> u64 {
        // Both theorems need a largest take, so every amount's rules are known.
        self.kernel.rules.fingerprint().unwrap_or(0)
    }

    /// A pile of `values` (a checkpoint's) whose value the rules, by the plain scan, do not
    /// give: `(pile, stored, from the rules)`. A sample is checked: the last piles and others
    /// spread over the rest, as many as `SAMPLE_WORK` options allow (at least `SAMPLE_LEAST`
    /// piles), so that a value changed in the file (its checksum made to match) is caught
    /// before it is trusted, where it or a value that depends on it is in the sample.
    /// The question's deadline and cancel token are read before each pile: a pile of a
    /// record run's checkpoint (2³² values) is a scan of billions of options.
    pub(crate) fn first_wrong_in_sample(
        &mut self,
        values: &Values,
        limits: &Limits,
    ) -> Result<Option<(u64, u32, u32)>, SolveError> {
        let len = values.len() as u64;
        if len == 0 {
            return Ok(None);
        }
        let rules = &mut self.kernel.rules;
        let each = rules.plain_cost(len).max(1);
        let count = (SAMPLE_WORK / each).clamp(SAMPLE_LEAST, len);
        // The last piles, then a fixed spread (the same sample on every run: output never
        // depends on chance), each pile once.
        let last = (count / 4).max(1).min(len);
        let mut piles: Vec<u64> = (len - last..len).collect();
        let mut state = len ^ 0x9e37_79b9_7f4a_7c15;
        while (piles.len() as u64) < count {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            piles.push(state % len);
        }
        piles.sort_unstable();
        piles.dedup();
        let get = |n: u64| values.get(n as usize);
        for n in piles {
            check_cancel(limits)?;
            let from_rules = rules.plain_value(n, get).map_err(SolveError::from)?;
            if from_rules != get(n) {
                return Ok(Some((n, get(n), from_rules)));
            }
        }
        Ok(None)
    }

    /// Whether the sparse-space method computes the values.
    pub(crate) fn uses_sparse_space(&self) -> bool {
        self.kernel.uses_sparse_space()
    }

    /// Computes values until a period is proven or `upto` values are computed (piles below
    /// it). `pause` is called every `every` values, and every eighth more once past 8·`every` (for
    /// a checkpoint); a limit or Ctrl-C stops
    /// the run with its error, and the values so far stay for a checkpoint.
    pub(crate) fn run(
        &mut self,
        upto: u64,
        limits: &Limits,
        every: u64,
        mut pause: impl FnMut(&PeriodRun),
    ) -> Result<Option<Proven>, SolveError> {
        self.kernel.set_sparse_mode(limits.sparse);
        self.kernel.set_threads(limits.threads);
        // Room reserved ahead, up to 2²⁷ values (more would be a large allocation asked for
        // before the first value, on the word of --upto alone): past it the table grows.
        self.kernel.reserve_total(upto.min(RESERVED_AHEAD) as usize);
        if self.proven.is_none() {
            self.look(upto);
        }
        // The options the kernel scans, counted against the question's work as a table's are.
        let (mut options, mut work) = (0u64, Work::default());
        let mut next_pause = (self.computed() / every.max(1) + 1) * every;
        // The options scanned when each power of two was reached in this run, for the pace.
        let mut doublings: Vec<(u64, u64)> = Vec::new();
        while self.proven.is_none() && self.computed() < upto {
            let n = self.computed();
            // A window never starts here: nothing in a run asks for one.
            let before = options;
            let pushed = self.kernel.push_next(&mut options)?;
            self.scanned += options - before;
            debug_assert!(pushed, "a kernel without a window computes every pile");
            self.follow(n);
            let computed = n + 1;
            if computed.is_multiple_of(1024) {
                let moves = options / super::piles::KERNEL_OPTIONS_PER_MOVE;
                options %= super::piles::KERNEL_OPTIONS_PER_MOVE;
                work.add_piles(moves as usize, limits, computed, upto)?;
                limits.progress.report(super::progress::Stage::PileValues, computed, upto);
            }
            if computed.is_power_of_two() {
                doublings.push((computed, self.scanned));
                if computed >= FIRST_PROJECTION && computed < upto {
                    let spent = work.moves * super::piles::KERNEL_OPTIONS_PER_MOVE + options;
                    self.refuse_out_of_reach(&doublings, upto, limits, spent)?;
                }
            }
            if every > 0 && computed >= next_pause {
                pause(self);
                // Every `every` values, and past 8·every every eighth more: a checkpoint
                // rewrites all the values, so a fixed step would write a run of 2³² values
                // a thousand times over.
                next_pause = computed + every.max(computed / 8);
            }
            if computed >= self.next_look || self.candidate.is_some_and(|c| self.ready(c)) {
                self.look(upto);
            }
        }
        if self.proven.is_none() {
            self.look(upto);
        }
        Ok(self.proven)
    }

    /// Stops a run that cannot reach its end within the budget and shows no period that could
    /// end it sooner: no candidate in view, values still setting new highs in the last
    /// doubling (an eventually periodic sequence has its largest value before its period
    /// starts), and a budget that reaches less than `REACH_FACTOR` times the piles computed.
    /// It is a judgement, said as one: a proof could still come between 1.5n and the reach.
    /// The pace is the work per pile over the last two doublings, extrapolated as a
    /// power of the pile: the plain scan of every split grows as n, the sparse space flattens.
    fn refuse_out_of_reach(
        &self,
        doublings: &[(u64, u64)],
        upto: u64,
        limits: &Limits,
        spent: u64,
    ) -> Result<(), SolveError> {
        let [(quarter, s0), (half, s1), (n, s2)] = match doublings {
            [.., a, b, c] => [*a, *b, *c],
            _ => return Ok(()),
        };
        if half != 2 * quarter || n != 2 * half {
            return Ok(());
        }
        let (recent, before) = ((s2 - s1) as f64, (s1 - s0) as f64);
        if recent <= 0.0 || before <= 0.0 {
            return Ok(());
        }
        // Per pile, the last doubling's work over the one before (it covered half as many piles).
        let exponent = ((recent / 2.0) / before).log2().clamp(0.0, 3.0) + 1.0;
        let share = 1.0 - 0.5f64.powf(exponent);
        let to_reach = |x: f64| recent * ((x / n as f64).powf(exponent) - 1.0) / share;
        let budget =
            (limits.max_pile_moves() as f64 * super::piles::KERNEL_OPTIONS_PER_MOVE as f64 - spent as f64).max(0.0);
        let needed = to_reach(upto as f64);
        let reach = n as f64 * (1.0 + budget * share / recent).powf(1.0 / exponent);
        // A period not in view needs more than 1.5n values (a candidate shows once the latest
        // quarter repeats), so a run that reaches four times as far is let go on: 0.376's values
        // rise until 123,675 and its period is proven at 4,536,507, well within its reach.
        if needed <= budget || reach >= (REACH_FACTOR * n) as f64 {
            return Ok(());
        }
        let values = self.values();
        let (Some((largest, largest_at)), Some((below_half, _))) =
            (values.largest_in(0..n as usize), values.largest_in(0..half as usize))
        else {
            return Ok(());
        };
        if largest <= below_half || find_candidate(values).is_some() {
            return Ok(());
        }
        // Rounded down to two significant figures: a suggestion, not a measurement.
        let scale = 10f64.powi((reach.log10().floor() as i32 - 1).max(0));
        let reach = ((reach / scale).floor() * scale) as u64;
        let moves = needed / super::piles::KERNEL_OPTIONS_PER_MOVE as f64;
        Err(SolveError::PeriodOutOfReach {
            computed: n,
            largest,
            largest_at,
            pace: format!(
                "at this pace the values of piles up to {upto} need about {} moves examined ({}), past the budget of {}",
                super::approximately(moves),
                limits.time_of_pile_moves(moves),
                super::duration_in_words(limits.seconds())
            ),
            advice: format!(
                "within the budget the values reach about pile {reach}, not {REACH_FACTOR} times as far as now, and a \
                 period not in view yet needs more than {} values to be proven; give {} to look that far, \
                 or let it examine more moves with {}",
                n + n / 2,
                give_value(Argument::Upto, reach),
                limits.more_moves(4.0)
            ),
        })
    }

    /// Checks the candidate against the value just computed at n.
    fn follow(&mut self, n: u64) {
        if let Some(c) = self.candidate {
            if n >= c.preperiod + c.period {
                let values = self.values();
                if values.get(n as usize) != values.get((n - c.period) as usize) {
                    self.candidate = None;
                }
            }
        }
    }

    fn ready(&self, c: Candidate) -> bool {
        self.computed() >= self.theorem.values_needed(c.preperiod, c.period)
    }

    /// Proves the candidate if the values suffice, or looks for a new one.
    fn look(&mut self, upto: u64) {
        self.peak_bytes = self.peak_bytes.max(self.kernel.memory_bytes());
        let computed = self.computed();
        if self.candidate.is_none() || computed >= self.next_look {
            self.candidate = find_candidate(self.values());
            // A sixteenth more values before the next look: the looks cost a pass over the
            // values each, a sixteenth of what computing them did at least. With no theorem to
            // prove it, the suggested period is only reported at the end: twice the values.
            let grown = if self.theorem == Theorem::Unknown { computed } else { computed / 16 };
            self.next_look = (computed + grown).max(computed + FIRST_LOOK).min(upto.max(computed + 1));
        }
        if let Some(c) = self.candidate.filter(|&c| self.ready(c)) {
            let needed = self.theorem.values_needed(c.preperiod, c.period);
            let (preperiod, period) = smallest_period(self.values(), c.preperiod, c.period);
            self.proven = Some(Proven { preperiod, period, needed });
        }
    }
}

/// The period whose match with the latest values is longest, with where its match starts:
/// the smallest p such that the last quarter of the values equals the stretch p before it,
/// its match extended back as far as it goes.
fn find_candidate(values: &Values) -> Option<Candidate> {
    match values {
        Values::Byte(v) => candidate_by_sum(v).unwrap_or_else(|| candidate_in(v)),
        Values::Narrow(v) => candidate_by_sum(v).unwrap_or_else(|| candidate_in(v)),
        Values::Wide(v) => candidate_by_sum(v).unwrap_or_else(|| candidate_in(v)),
    }
}

/// `candidate_in`'s answer, found with the sum of a stretch's values for the first test instead
/// of a polynomial hash: a rolling sum costs an add and a subtract a step where the hash costs
/// two multiplications modulo a prime, and a stretch whose sum matches is compared value by
/// value, which almost always ends within a few values. (The looks were 4.9% of the samples of
/// 0.161 to 2^22 on two threads, a tenth of the kernel's thread, the other one waiting for them;
/// with the sums, 0.7%.) Values that make many
/// stretches match far into them would make that quadratic: past twice the values compared, it
/// gives up (`None`) and the hash looks instead.
fn candidate_by_sum<T: super::heap::Slot>(g: &[T]) -> Option<Option<Candidate>> {
    let len = g.len();
    let window = len / 4;
    if window < 16 {
        return Some(None);
    }
    let value = |i: usize| -> u64 { u64::from(g[i].value()) };
    let target_start = len - window;
    let target = &g[target_start..];
    let target_sum: u64 = (target_start..len).map(value).sum();
    let mut sum = target_sum;
    let mut compared = 0usize;
    // Stretches starting at target_start − p for p = 1, 2, …
    for start in (0..target_start).rev() {
        sum = sum - value(start + window) + value(start);
        if sum != target_sum {
            continue;
        }
        let stretch = &g[start..start + window];
        match stretch.iter().zip(target).position(|(a, b)| a != b) {
            Some(differs) => {
                compared += differs + 1;
                if compared > 2 * len {
                    return None;
                }
            }
            None => return Some(Some(extend_back(g, target_start, target_start - start))),
        }
    }
    Some(None)
}

/// The candidate of period p whose match holds at `target_start`: g(n) = g(n − p) from there,
/// the match extended back as far as it goes.
fn extend_back<T: super::heap::Slot>(g: &[T], target_start: usize, period: usize) -> Candidate {
    let mut from = target_start;
    while from > period && g[from - 1] == g[from - 1 - period] {
        from -= 1;
    }
    // From `from` on, g(n) = g(n − p): the values repeat from from − p.
    Candidate { period: period as u64, preperiod: (from - period) as u64 }
}

fn candidate_in<T: super::heap::Slot>(g: &[T]) -> Option<Candidate> {
    let len = g.len();
    let window = len / 4;
    if window < 16 {
        return None;
    }
    let value = |i: usize| -> u64 {
        let v: u32 = g[i].into();
        v as u64 + 1
    };
    // The window starting at i, oldest first from its far end: a step back drops its last value
    // and puts value(i − 1) in front as the newest.
    let rolling = RollingHash::new(window);
    let hash_at = |start: usize| rolling.of((0..window).rev().map(|k| value(start + k)));
    let target_start = len - window;
    let target = hash_at(target_start);
    let mut h = target;
    // Windows starting at target_start − p for p = 1, 2, …
    for start in (0..target_start).rev() {
        h = rolling.moved(h, value(start + window), value(start));
        if h == target && g[start..start + window] == g[target_start..] {
            // g(n) = g(n − p) for the n of the last quarter; the match runs back from there.
            return Some(extend_back(g, target_start, target_start - start));
        }
    }
    None
}

/// The smallest period and its preperiod, from a period p proven from n₀: the smallest divisor
/// q of p with g(n + q) = g(n) for n₀ ≤ n < n₀ + p − q, and the first n from which
/// g(n + q) = g(n) holds without a break.
///
/// That stretch suffices: for n₀ + p − q ≤ n < n₀ + p, g(n + q) = g(n + q − p) by the period p,
/// and g(n + q − p) = g(n) by q's steps within [n₀, n₀ + p), since q divides p − q. It reads
/// values below n₀ + p only, all computed whichever theorem proved p (the subtraction theorem
/// may stop at n₀ + p + the largest take, short of a second period).
fn smallest_period(values: &Values, preperiod: u64, period: u64) -> (u64, u64) {
    let g = |n: u64| values.get(n as usize);
    let q = (1..=period)
        .filter(|d| period.is_multiple_of(*d))
        .find(|&d| (preperiod..preperiod + period - d).all(|n| g(n + d) == g(n)))
        .unwrap_or(period);
    let mut start = preperiod;
    while start > 0 && g(start - 1 + q) == g(start - 1) {
        start -= 1;
    }
    (start, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: &[u8]) -> Values {
        Values::Byte(v.to_vec().into())
    }

    #[test]
    fn a_candidate_is_the_period_of_the_latest_values_from_where_it_starts() {
        // 5 values of noise, then 1 2 3 repeating.
        let mut v = vec![9, 8, 7, 9, 9];
        for i in 0..200 {
            v.push([1, 2, 3][i % 3]);
        }
        let c = find_candidate(&bytes(&v)).expect("a candidate");
        assert_eq!((c.preperiod, c.period), (5, 3));
    }

    #[test]
    fn a_proven_multiple_is_reduced_to_the_smallest_period_and_preperiod() {
        let mut v = vec![4, 4];
        for i in 0..100 {
            v.push([0, 1][i % 2]);
        }
        // Proven with period 6 from 10: the smallest is 2, from 2.
        assert_eq!(smallest_period(&bytes(&v), 10, 6), (2, 2));
    }

    #[test]
    fn the_sums_find_the_candidate_the_hash_finds() {
        // Noise (a linear congruential generator's top bits, few values so that many stretches'
        // sums match), then a repeat of period p from a preperiod; and the noise alone.
        let mut seed = 12345u64;
        let mut noise = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 62) as u8
        };
        for (pre, p, len) in [(0, 1, 64), (7, 3, 200), (100, 37, 1000), (1000, 250, 3000), (500, 600, 3000)] {
            let mut v: Vec<u8> = (0..pre).map(|_| noise()).collect();
            let cycle: Vec<u8> = (0..p).map(|_| noise()).collect();
            v.extend((0..len - pre).map(|i| cycle[i % p]));
            let by_sum = candidate_by_sum(&v).expect("few stretches match far");
            let by_hash = candidate_in(&v);
            assert_eq!(by_sum.map(|c| (c.preperiod, c.period)), by_hash.map(|c| (c.preperiod, c.period)));
            // Each repeat is in view: the last quarter and the stretch p before it lie in it (a
            // divisor of p shows where the noise of the cycle repeats itself).
            let c = by_hash.expect("the repeat is in view");
            assert!((p as u64).is_multiple_of(c.period) && c.preperiod <= pre as u64, "{pre} {p}: {c:?}");
        }
        let v: Vec<u8> = (0..4000).map(|_| noise()).collect();
        assert!(candidate_by_sum(&v).expect("noise").is_none());
        assert!(candidate_in(&v).is_none());
        // Zeros with a 1 at a third and at the end: the latest quarter ends in its only 1, and
        // the stretches that hold the other 1 match it up to there, ever further in; the sums
        // give up, and the hash finds the one that matches (ending at the third).
        let len = 1usize << 14;
        let v: Vec<u32> = (0..len).map(|i| u32::from(i == len / 3 || i == len - 1)).collect();
        assert!(candidate_by_sum(&v).is_none());
        let c = find_candidate(&Values::Wide(v.into())).expect("the hash's candidate");
        assert_eq!(c.period, (len - 1 - len / 3) as u64);
    }

    #[test]
    fn no_candidate_without_a_repeat() {
        let v: Vec<u8> = (0..=255).collect();
        assert!(find_candidate(&bytes(&v)).is_none());
    }
}
