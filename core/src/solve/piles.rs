//! Sums of independent piles: the Grundy value of each pile size, bottom up, and XOR
//! (Sprague–Grundy). Used when every move acts on one pile under normal play.
//!
//! Rules the take-and-break kernel understands are computed there; others by listing each
//! pile's moves. Where a theorem proves the values periodic (subtraction and octal games), the
//! computation stops and every larger pile is answered from the period.

use super::column::{PileColumn, ValueSlice};
use super::heap::{HeapKernel, HeapRules, Values};
use super::{check_cancel, period, Limits, SolveError, Table, Work, PILE_SHARE};
use crate::rules::{Amount, Game, Move, MoveKind, Position};
use crate::vocab::Span;
use crate::wording::{give_value, Argument};

/// Values are looked at for a period each time their number doubles from here.
const FIRST_PERIOD_CHECK: usize = 64;

/// Options the kernel examines per move of the work budget: each costs a load and a bit set,
/// where a listed move allocates a position.
pub(crate) const KERNEL_OPTIONS_PER_MOVE: u64 = 256;

/// What one move listed for a pile's value costs of the single-pile budget.
const LISTED_MOVE_COST: usize = 2;

/// How many winning moves are listed at most: a pile of 10¹⁸ can have more than can be shown.
pub(crate) const MOST_WINNING_MOVES: usize = 100;

/// Grundy values of single piles 0, 1, 2, … as far as they have been needed.
pub(super) struct PileValues {
    engine: Engine,
    /// (preperiod, period), once a theorem proves it
    period: Option<(u64, u64)>,
    next_period_check: usize,
    work: Work,
    /// Set once a window proved too small: from then on every value is kept.
    keep_table: bool,
    /// (piles computed, moves examined) at the last period check, for the estimate.
    last_check: Option<(u64, u64)>,
    /// Whether a refusal was put off once already, for the sparse-space method's retry.
    waited_for_sparse: bool,
    /// How many values the last look for a period read, and what `period::detect` found in
    /// them: a table of as many rows looks at the same values again.
    last_look: Option<(usize, Option<period::Detected>)>,
}

/// The estimate is made once the values have cost this share of the budget (a small fraction
/// of a second at most), from how the cost grew over the last doubling of the piles.
const ESTIMATE_AFTER_SHARE: u64 = 1024;

/// The estimate is also made once this many moves are examined (a few milliseconds), however
/// large the budget.
const ESTIMATE_AFTER_WORK: u64 = 1 << 20;

/// A question is refused at once when its estimate passes the budget this many times over, while
/// the estimate rests on little work: the growth measured early may overstate (under the
/// sparse-space method the growth is taken as linear instead, which it becomes once the rare
/// values are found).
const ESTIMATE_MARGIN: f64 = 2.0;

/// Once a sixty-fourth of the budget is spent, the growth is measured well enough to refuse
/// what passes the budget by this much.
const MEASURED_MARGIN: f64 = 1.25;

enum Engine {
    /// Nim's heaps: every move takes any number of counters from one pile, so the options of a
    /// pile of n are the piles 0..n, and by induction its value is n (Bouton). Nothing is
    /// computed, at any size; `rule` is the rule a winning move is made by.
    Bouton {
        rule: Span,
    },
    Kernel(Box<HeapKernel>),
    /// Moves listed one pile size at a time, for rules that read n.
    Listing(Vec<u32>),
}

/// The rule of a game whose every move takes any number of counters from one pile, with no
/// condition, no split and no memory of the last move: Nim's heaps.
fn nim_heaps(game: &Game) -> Option<Span> {
    let only_any_takes = !game.moves.is_empty()
        && game.first_moves.is_empty()
        && !game.uses_last
        && game.product.is_none()
        && game.moves.iter().all(|r| r.side.is_none() && matches!(r.plain_take(), Some(Amount::Any)));
    only_any_takes.then(|| game.moves[0].span)
}

impl PileValues {
    pub(super) fn new(game: &Game) -> Self {
        let engine = if let Some(rule) = nim_heaps(game) {
            Engine::Bouton { rule }
        } else {
            match HeapRules::compile(game) {
                Some(rules) => Engine::Kernel(Box::new(HeapKernel::new(rules))),
                None => Engine::Listing(Vec::new()),
            }
        };
        PileValues {
            engine,
            period: None,
            next_period_check: FIRST_PERIOD_CHECK,
            work: Work::default(),
            keep_table: false,
            last_check: None,
            waited_for_sparse: false,
            last_look: None,
        }
    }

    /// Starts again from pile 0, keeping every value: a window dropped one that a question
    /// needs. The answers are the same; only the time is spent twice.
    fn keep_whole_table(&mut self, game: &Game) {
        *self = PileValues::new(game);
        self.keep_table = true;
    }

    /// Whether a window dropped values of the middle piles (for tests and the benchmark).
    pub(super) fn windowed(&self) -> bool {
        matches!(&self.engine, Engine::Kernel(k) if k.windowed())
    }

    /// Whether the compiled kernel computes the values (not the move-listing loop).
    pub(super) fn compiled(&self) -> bool {
        matches!(self.engine, Engine::Kernel(_))
    }

    /// The proven (preperiod, period) of the values, once found.
    pub(super) fn period(&self) -> Option<(u64, u64)> {
        self.period
    }

    fn computed(&self) -> usize {
        match &self.engine {
            Engine::Bouton { .. } => usize::MAX,
            Engine::Kernel(k) => k.computed(),
            Engine::Listing(v) => v.len(),
        }
    }

    fn stored(&self, n: u64) -> Option<u32> {
        match &self.engine {
            Engine::Bouton { .. } => u32::try_from(n).ok(),
            Engine::Kernel(k) => k.value(n),
            Engine::Listing(v) => v.get(n as usize).copied(),
        }
    }

    /// The value of a pile already computed or covered by the period; `None` for one a window
    /// dropped.
    fn known(&self, n: u64) -> Option<u64> {
        if let Engine::Bouton { .. } = self.engine {
            return Some(n);
        }
        let computed = self.computed() as u64;
        if n < computed {
            return self.stored(n).map(u64::from);
        }
        let (pre, p) = self.period.expect("piles past the computed ones are answered from a proven period");
        self.stored(pre + (n - pre) % p).map(u64::from)
    }

    /// The value of one pile when nothing is left to compute for it (already computed, or
    /// covered by a proven period): a table's rows ask for thousands of these in a row.
    pub(super) fn already_known(&self, n: u64) -> Option<u64> {
        if (n as u128) < self.computed() as u128 || self.period.is_some() {
            self.known(n)
        } else {
            None
        }
    }

    /// The values of piles 0..=last as a table reads them, when all of them are known: from
    /// the period past its first repeat, where one is proven (so a table of 10⁸ rows holds
    /// none of its own), else as they are stored.
    pub(super) fn column(&self, last: u64) -> Option<PileColumn<'_>> {
        fn stored(values: &Values, len: u64) -> ValueSlice<'_> {
            ValueSlice::of(values, len as usize)
        }
        match (&self.engine, self.period) {
            (Engine::Bouton { .. }, _) => Some(PileColumn::Nim { last }),
            (engine, Some((preperiod, period))) if last >= preperiod + period => {
                let end = preperiod + period;
                let head = match engine {
                    Engine::Kernel(k) if (end as usize) <= k.computed() => stored(k.values()?, end),
                    Engine::Listing(v) if end as usize <= v.len() => ValueSlice::Wide(&v[..end as usize]),
                    _ => return None,
                };
                Some(PileColumn::Periodic { head, preperiod, period, last })
            }
            (Engine::Kernel(k), _) if last < k.computed() as u64 => {
                Some(PileColumn::Stored(stored(k.values()?, last + 1)))
            }
            (Engine::Listing(v), _) if last < v.len() as u64 => {
                Some(PileColumn::Stored(ValueSlice::Wide(&v[..=last as usize])))
            }
            _ => None,
        }
    }

    /// The values of piles 0..=last when all of them are already computed and kept: a
    /// table's look for a period reads them all at once rather than one by one.
    pub(super) fn already_known_upto(&self, last: u64) -> Option<Values> {
        match &self.engine {
            Engine::Kernel(k) if last < k.computed() as u64 => Some(k.values()?.prefix(last as usize + 1)),
            Engine::Listing(v) if last < v.len() as u64 => Some(Values::Wide(v[..=last as usize].to_vec().into())),
            _ => None,
        }
    }

    /// The Grundy value of a whole position: the XOR of its piles' values.
    pub(super) fn position(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<u64, SolveError> {
        self.again_with_whole_table(game, |values| values.try_position(game, pos, limits))
    }

    /// What `attempt` finds, or, when a window dropped a value it needs, what it finds with
    /// every value kept.
    fn again_with_whole_table<T>(
        &mut self,
        game: &Game,
        mut attempt: impl FnMut(&mut Self) -> Result<Option<T>, SolveError>,
    ) -> Result<T, SolveError> {
        if let Some(found) = attempt(self)? {
            return Ok(found);
        }
        self.keep_whole_table(game);
        Ok(attempt(self)?.expect("the whole table holds every value"))
    }

    fn try_position(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Option<u64>, SolveError> {
        let largest = pos.piles.iter().copied().max().unwrap_or(0);
        // Past a proven period no value is computed, so none needs keeping.
        if let (Engine::Kernel(k), None) = (&mut self.engine, self.period) {
            for &p in &pos.piles {
                k.keep_value_of(p);
            }
        }
        if !self.extend(game, largest, limits)? {
            return Ok(None);
        }
        Ok(pos.piles.iter().try_fold(0u64, |acc, &p| Some(acc ^ self.known(p)?)))
    }

    /// Every move to a position of value 0, found pile by pile: a move on a pile of p wins
    /// exactly when it leaves that pile's part of the sum at g(p) XOR the whole value. At most
    /// `MOST_WINNING_MOVES` are listed; the flag says whether more were left out.
    pub(super) fn winning_moves(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
    ) -> Result<(Vec<Move>, bool), SolveError> {
        self.again_with_whole_table(game, |values| values.try_winning_moves(game, pos, limits))
    }

    /// The winning moves, unless a window dropped a value they need.
    fn try_winning_moves(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
    ) -> Result<Option<(Vec<Move>, bool)>, SolveError> {
        let total = self.position(game, pos, limits)?;
        let mut winning = Vec::new();
        if total == 0 {
            return Ok(Some((winning, false)));
        }
        let mut seen = std::collections::HashSet::new();
        for (index, &p) in pos.piles.iter().enumerate() {
            if p == 0 || !seen.insert(p) {
                continue;
            }
            let Some(value) = self.known(p) else {
                return Ok(None);
            };
            let target = value ^ total;
            let more = match &self.engine {
                // The one move of a pile of p to the value `target` takes p − target.
                Engine::Bouton { rule } => {
                    if target < p {
                        let left = if target == 0 { vec![] } else { vec![target] };
                        let kind = MoveKind::Take { pile: 0, from: p, amount: p - target, left };
                        let one = Move { rule: *rule, kind, to: Position::new(vec![target]) };
                        winning.push(one.on_pile_of(index, pos, game.board));
                    }
                    Some(false)
                }
                Engine::Kernel(k) => self.kernel_moves(game, k, p, index, pos, target, &mut winning, limits)?,
                Engine::Listing(_) => {
                    self.listed_moves(game, p, index, pos, target, &mut winning, limits)?.map(|()| false)
                }
            };
            let Some(more) = more else {
                return Ok(None);
            };
            if more || winning.len() > MOST_WINNING_MOVES {
                winning.truncate(MOST_WINNING_MOVES);
                return Ok(Some((winning, true)));
            }
        }
        Ok(Some((winning, false)))
    }

    /// The moves of one pile of `p`, listed by the rules, that leave its part of the sum at `target`.
    #[allow(clippy::too_many_arguments)] // the pile, where it sits, and what it must become
    fn listed_moves(
        &self,
        game: &Game,
        p: u64,
        index: usize,
        pos: &Position,
        target: u64,
        out: &mut Vec<Move>,
        limits: &Limits,
    ) -> Result<Option<()>, SolveError> {
        for m in game.moves(&Position::new(vec![p]), limits.max_states)? {
            let Some(value) = m.to.piles.iter().try_fold(0u64, |acc, &q| Some(acc ^ self.known(q)?)) else {
                return Ok(None);
            };
            if value == target {
                out.push(m.on_pile_of(index, pos, game.board));
            }
        }
        Ok(Some(()))
    }

    /// Winning moves on one pile of `p` under compiled rules, in the order the rules list
    /// them, without listing every option of a pile too large for that.
    #[allow(clippy::too_many_arguments)]
    fn kernel_moves(
        &self,
        game: &Game,
        kernel: &HeapKernel,
        p: u64,
        index: usize,
        pos: &Position,
        target: u64,
        out: &mut Vec<Move>,
        limits: &Limits,
    ) -> Result<Option<bool>, SolveError> {
        // Small piles: the general move list, which also describes the moves.
        if p <= 4096 {
            return Ok(self.listed_moves(game, p, index, pos, target, out, limits)?.map(|()| false));
        }
        // Past a proven period, parts beyond preperiod + 2 periods repeat earlier ones; otherwise
        // scan as far as the work budget allows.
        let (periodic_from, scan) = match self.period {
            Some((pre, q)) => (Some(pre), pre + 2 * q),
            None => (None, limits.max_moves()),
        };
        let Some((candidates, more)) = kernel.rules.winning_options(
            p,
            |q| self.known(q),
            target,
            MOST_WINNING_MOVES,
            periodic_from,
            scan,
            limits,
        )?
        else {
            return Ok(None);
        };
        for m in candidates {
            out.push(m.on_pile_of(index, pos, game.board));
        }
        Ok(Some(more))
    }

    /// Computes values up to pile `upto`; false when a window proved too small for it.
    fn extend(&mut self, game: &Game, upto: u64, limits: &Limits) -> Result<bool, SolveError> {
        if let Engine::Bouton { .. } = self.engine {
            return Ok(true);
        }
        // A window where no theorem needs the whole table to prove a period.
        let window = match limits.table {
            Table::Window { from, prefix, recent } if upto >= from && !self.keep_table => {
                (!period::has_theorem(game)).then_some((prefix, recent))
            }
            _ => None,
        };
        while (self.computed() as u64) <= upto && self.period.is_none() {
            let computed = self.computed();
            if computed >= limits.max_piles() {
                return Err(SolveError::state_limit(limits));
            }
            // Up to the next period check, or the pile asked about.
            let stop = (upto as usize + 1).min(self.next_period_check).min(limits.max_piles()).max(computed + 1);
            match &mut self.engine {
                Engine::Kernel(kernel) => {
                    kernel.set_sparse_mode(limits.sparse);
                    kernel.set_threads(limits.threads);
                    if let Some((prefix, recent)) = window {
                        kernel.start_window(prefix, recent);
                    }
                    // Up to 2^34 values: the largest table reserved at once (untouched pages
                    // cost nothing, a period may end the run early), or a window's worth.
                    let total = (upto as usize).saturating_add(1).min(limits.max_piles()).min(1 << 34);
                    kernel.reserve_total(window.map_or(total, |(prefix, recent)| total.min(prefix + 2 * recent)));
                    let mut options = 0u64;
                    for n in computed..stop {
                        if !kernel.push_next(&mut options)? {
                            return Ok(false);
                        }
                        if n % 1024 == 0 {
                            let moves = (options / KERNEL_OPTIONS_PER_MOVE) as usize;
                            self.work.add_piles(moves, limits, n as u64, upto)?;
                            options %= KERNEL_OPTIONS_PER_MOVE;
                            limits.progress.report(super::progress::Stage::PileValues, n as u64, upto + 1);
                        }
                    }
                    self.work.add_piles((options / KERNEL_OPTIONS_PER_MOVE) as usize, limits, stop as u64, upto)?;
                }
                Engine::Listing(values) => listing_extend(game, values, stop, upto + 1, limits, &mut self.work)?,
                Engine::Bouton { .. } => unreachable!("Nim's heaps need no computing"),
            }
            if self.computed() >= self.next_period_check {
                self.next_period_check *= 2;
                self.look_for_period(game);
                if self.period.is_none() {
                    let work_fits = self.refuse_hopeless(upto, limits)?;
                    // The work may fit a large budget where the piles do not fit the limit on
                    // memory (a window keeps fewer values, but counts them all against it):
                    // refused now, not after the hours it takes to reach it.
                    if work_fits && upto >= limits.max_piles() as u64 && !period::has_theorem(game) {
                        return Err(SolveError::TooManyValues {
                            needed: upto,
                            limit: limits.max_piles() as u64,
                            suggested: (limits.max_states as u64)
                                .saturating_mul(upto.div_ceil(limits.max_piles().max(1) as u64).next_power_of_two()),
                        });
                    }
                }
            }
        }
        Ok(true)
    }

    /// Refuses at once a pile whose values would cost far past the budget, estimated from how
    /// the cost grew over the last doubling of the piles computed. True when the estimate was
    /// made and the work fits.
    fn refuse_hopeless(&mut self, upto: u64, limits: &Limits) -> Result<bool, SolveError> {
        if matches!(&self.engine, Engine::Kernel(k) if k.may_turn_sparse()) {
            return Ok(false);
        }
        let now = (self.computed() as u64, self.work.moves);
        let before = self.last_check.replace(now);
        // The seconds allowed, counted as single-pile work.
        let budget = limits.estimate_moves().saturating_mul(PILE_SHARE);
        let (Some((c0, w0)), (c1, w1)) = (before, now) else { return Ok(false) };
        // A large budget is no reason to wait: the growth is measured well enough once a
        // fraction of a second's work is done, whatever the budget.
        let measured = (budget / ESTIMATE_AFTER_SHARE).min(ESTIMATE_AFTER_WORK);
        if upto <= c1 || w1 < measured || w0 == 0 || c0 == 0 {
            return Ok(false);
        }
        // Each pile costs at least about as much as the one before: the growth is at least
        // linear. Under the sparse-space method a pile costs what its rare partners do, which
        // grow far slower than the piles: the rare values found early make the cost of a
        // doubling look steeper than the rest will be, so linear growth is what it predicts.
        let sparse = matches!(&self.engine, Engine::Kernel(k) if k.uses_sparse_space());
        let measured_growth = ((w1 as f64 / w0 as f64).ln() / (c1 as f64 / c0 as f64).ln()).max(1.0);
        let growth = if sparse { 1.0 } else { measured_growth };
        let estimate = w1 as f64 * (upto as f64 / c1 as f64).powf(growth);
        // Early on the growth may overstate; once a sixty-fourth of the budget is spent it is
        // measured well enough to stop a run that will not finish before it shows a progress bar.
        let margin = if w1 < budget / 64 { ESTIMATE_MARGIN } else { MEASURED_MARGIN };
        let largest = (c1 as f64 * (budget as f64 / w1 as f64).powf(1.0 / growth)) as u64;
        if estimate <= budget as f64 * margin {
            // Allowed to try, but the estimate passes the budget: the progress bar counts to
            // where the limits should stop it, rather than promising the end.
            if estimate > budget as f64 && largest < upto {
                limits.progress.limited(super::progress::Stage::PileValues, largest, upto + 1);
            } else {
                // A later, better measured estimate fits: the bar counts to the end again.
                limits.progress.limited(super::progress::Stage::PileValues, upto + 1, upto + 1);
            }
            return Ok(true);
        }
        // The kernel tries the sparse-space method again further on, which may make the rest
        // nearly linear (0.014 to 2^20: refused at 32,768 for an estimated 106 s, done in 1.5 s
        // once the method came back): once a run, the piles up to the retry are computed first
        // where they cost a sixteenth of the budget, and the estimate is made again past it.
        // Once only, so that a game the method never pays for (0.564) is still refused in
        // about a second.
        if let Engine::Kernel(kernel) = &self.engine {
            if let Some(retry) = kernel.next_sparse_retry(upto).filter(|_| !self.waited_for_sparse) {
                let to_retry = w1 as f64 * (retry as f64 / c1 as f64).powf(growth);
                if to_retry <= budget as f64 / 16.0 {
                    self.waited_for_sparse = true;
                    return Ok(false);
                }
            }
        }
        let factor = estimate / budget as f64;
        let raise = if factor < 1e4 {
            format!(
                "; this one would need {} or so",
                give_value(Argument::Timeout, limits.seconds_for_work(factor * 1.25))
            )
        } else {
            String::new()
        };
        let how = if sparse {
            "each pile costs about as much as the last under the sparse-space method".to_string()
        } else {
            format!("each pile costs more than the last (the cost grows like n^{growth:.1})")
        };
        Err(SolveError::TooMuchWork {
            needed: upto,
            computed: c1,
            estimate: super::approximately(estimate),
            time: limits.time_of_pile_moves(estimate),
            budget: super::duration_in_words(limits.seconds()),
            advice: format!(
                "no period is proven in the values up to {c1} (none may exist), and {how}: piles up to about \
                 {largest} are within the limits{raise}"
            ),
        })
    }

    /// The proven (preperiod, period) with the number of values the look that found it read:
    /// `period::detect` over any longer stretch of these values finds the same (a shorter
    /// period would have matched first; past the proof the values repeat for ever).
    pub(super) fn proven_look(&self) -> Option<(u64, u64, u64)> {
        let (pre, p) = self.period?;
        match self.last_look {
            Some((examined, Some((a, b, 0)))) if (a as u64, b as u64) == (pre, p) => Some((pre, p, examined as u64)),
            _ => None,
        }
    }

    /// What `period::detect` (plain, not arithmetic) found in the values of piles
    /// 0..examined, if the last look for a period read exactly those.
    pub(super) fn period_seen(&self, examined: usize) -> Option<Option<period::Detected>> {
        self.last_look.filter(|&(seen, _)| seen == examined).map(|(_, found)| found)
    }

    /// Proves a period where a theorem applies, so that larger piles need no computing.
    fn look_for_period(&mut self, game: &Game) {
        if !period::has_theorem(game) {
            return;
        }
        // The values are read where they are stored: this runs at every doubling of the piles.
        let (found, examined) = match &self.engine {
            // No window starts where a theorem applies.
            Engine::Kernel(k) => match k.values() {
                Some(values) => (values.detect_period(false), values.len()),
                None => return,
            },
            Engine::Listing(v) => (period::detect(v, false), v.len()),
            Engine::Bouton { .. } => return,
        };
        self.last_look = Some((examined, found));
        if let Some((pre, p, 0)) = found {
            if period::proof(game, true, pre as u64, p as u64, 0, examined as u64).is_some() {
                self.period = Some((pre as u64, p as u64));
            }
        }
    }

    /// Whether the sparse-space method computes the values.
    pub(super) fn uses_sparse_space(&self) -> bool {
        matches!(&self.engine, Engine::Kernel(k) if k.uses_sparse_space())
    }
}

fn listing_extend(
    game: &Game,
    values: &mut Vec<u32>,
    stop: usize,
    total: u64,
    limits: &Limits,
    work: &mut Work,
) -> Result<(), SolveError> {
    let mut seen: Vec<bool> = Vec::new();
    while values.len() < stop {
        let n = values.len() as u64;
        let moves = game.moves(&Position::new(vec![n]), limits.max_states)?;
        // A move that leaves many piles (or turns many coins) costs as much as that many moves;
        // a listed move (a position built) costs about as much as two of the kernel's.
        let cost: usize = moves.iter().map(|m| m.to.piles.len().max(1)).sum();
        work.add_piles(cost.saturating_mul(LISTED_MOVE_COST), limits, n, total - 1)?;
        if n.is_multiple_of(256) {
            limits.progress.report(super::progress::Stage::PileValues, n, total);
        }
        seen.clear();
        seen.resize(moves.len() + 1, false);
        for m in &moves {
            let mut g = 0u64;
            for &part in &m.to.piles {
                if part >= n && part > 0 {
                    // Cannot happen for checked rules (every part is smaller), but a wrong
                    // answer would be worse than an error.
                    return Err(SolveError::Loop { span: m.rule, position: n.to_string() });
                }
                g ^= values[part as usize] as u64;
            }
            if (g as usize) < seen.len() {
                seen[g as usize] = true;
            }
        }
        let mex = seen.iter().position(|s| !s).unwrap_or(seen.len());
        values.push(mex as u32);
        if values.len().is_multiple_of(1024) {
            check_cancel(limits)?;
        }
    }
    Ok(())
}
