//! The take-and-break kernel: Grundy values of single piles from rules compiled once into, for
//! each amount t, what a move taking t may leave: nothing, the rest as one heap, or the rest
//! split in two (any way, unequal, equal). Subtraction sets, octal codes, Grundy's game, splittles
//! and conditions on t all compile to this; rules that read n or split into three or more do not,
//! and use the general pile loop instead.
//!
//! Splits cost O(n) options per pile size. Where the values show the sparse-space phenomenon
//! (Gangolli–Plambeck, Flammenkamp) a mask splits values into a common class, closed under
//! nothing, and a rare one that few pile sizes take: XOR-ing two common values gives a rare one.
//! Then the common values reachable from n come only from pairs with a rare pile, which are few,
//! and the pairs of two common piles are needed only to show that each rare value below the
//! answer is reachable. A short scan finds most of those; for the few left, which few pairs
//! reach, the kernel tries the pile sizes holding a value whose partner is frequent, and scans
//! everything only when that fails. The result never depends on the mask or on the order of
//! the search; only the speed does.

use super::{SolveError, SparseMode};
use crate::rules::expr::{Env, Expr, Var};
use crate::rules::{
    code_digit_index, Amount, Board, Choice, CodeDigit, CodeShape, Game, Move, MoveError, MoveKind, Position, RuleKind,
};
use crate::vocab::{CmpOp, Span, SplitShape};

const GONE: u8 = 1;
const ONE: u8 = 2;
const TWO_ANY: u8 = 4;
const TWO_UNEQUAL: u8 = 8;
const TWO_EQUAL: u8 = 16;

/// The amounts a checkpoint's fingerprint of the rules reads at most.
const FINGERPRINT_AMOUNTS: u64 = 1 << 24;
/// Values start being computed with the sparse-space method from this pile size on, when the
/// values so far show the phenomenon.
const SPARSE_FROM: usize = 4096;
/// Or from this pile size, where the latest half of the values has almost no rare value (0.676,
/// whose 31 rare values all lie below 512).
const SPARSE_EARLY: usize = 1024;
/// "Almost no": at most one pile in this many of all so far has a rare value in the latest half,
/// and at most eight in this many in the first half. Measured by callgrind on tables to 16383:
/// 0.106 (2 rare values in 512..1024, 12 below) 59.4 million instructions late, 49.8 early;
/// 0.56 (4, 40) 110.5 and 97.0; 0.16 (10, 32) 85.0 and 82.2; 0.127 (29) 210.7 and 213.4, so not
/// that one; nor Lasker's Nim, whose best mask at 1024 leaves 1 rare value in the latest half
/// but every one of the first 512 (11.6 billion against 10.2).
const SPARSE_EARLY_RARE_SHARE: usize = 64;
/// The largest share of recent pile sizes with a rare value for which the method pays.
const SPARSE_MAX_RARE_SHARE: f64 = 0.25;
/// Piles per block over which the sparse-space method's cost is weighed against the plain scan.
const SPARSE_BLOCK: u64 = 4096;
/// Before this pile one block over three times the plain scan's cost gives the sparse-space
/// method up, after it two running over twice: the method gets cheaper as the rare values are
/// found (measured, in units of the plain scan: Grundy's game 1.8, 1.5, then 0.5–1; 0.140 and
/// 0.741 from 1.4–2.6 down to 0.3–1.2), and a block's cost varies more once it is cheap.
const SPARSE_WARM_UP: u64 = 16384;
/// How much the piles must grow after the sparse-space method was given up (or found no
/// classes) before it is tried again.
const SPARSE_RETRY_GROWTH: u64 = 4;
/// What one option examined by the sparse-space method costs, in options of the plain scan
/// (which reads them in order, sixteen at a time): the method is given up when it does more
/// than the plain scan would at this rate. Measured against the time of each method alone to
/// 10⁵: 2.3 on 0.564, 3.7 on 0.005, about 1.2 on 0.140 and 0.741 (whose options are cheaper
/// once their rare values are known).
const SPARSE_OPTION_COST: u64 = 3;

/// The kernel's flags for one digit of a code, or `None` when it may leave three or more heaps.
fn code_flags(digit: &CodeDigit) -> Option<u8> {
    let mut f = 0;
    for count in &digit.counts {
        if count.max != Some(count.min) {
            return None;
        }
        f |= match (count.min, count.shape) {
            (0, _) => GONE,
            (1, _) => ONE,
            // Two heaps not both equal are two unequal heaps.
            (2, Some(CodeShape::Unequal | CodeShape::NotAllEqual)) => TWO_UNEQUAL,
            (2, Some(CodeShape::Equal)) => TWO_EQUAL,
            (2, None) => TWO_ANY,
            _ => return None,
        };
    }
    Some(f)
}

/// Which amounts a rule allows, with its numbers evaluated once.
#[derive(Clone, Debug)]
enum AmountTest {
    Any,
    Except(Vec<(i64, i64)>),
    Bound(CmpOp, i64),
    Ranges(Vec<(i64, i64)>),
}

impl AmountTest {
    fn contains(&self, t: i64) -> bool {
        let inside = |r: &[(i64, i64)]| r.iter().any(|&(lo, hi)| lo <= t && t <= hi);
        match self {
            AmountTest::Any => t >= 1,
            AmountTest::Except(list) => t >= 1 && !inside(list),
            // `take = 0` takes nothing, and is reported as such.
            AmountTest::Bound(CmpOp::Eq, v) => t == *v,
            AmountTest::Bound(op, v) => {
                t >= 1
                    && match op {
                        CmpOp::Le => t <= *v,
                        CmpOp::Lt => t < *v,
                        CmpOp::Ge => t >= *v,
                        CmpOp::Gt => t > *v,
                        CmpOp::Eq => t == *v,
                        CmpOp::Ne => t != *v,
                    }
            }
            AmountTest::Ranges(list) => inside(list),
        }
    }

    /// The largest amount allowed, when there is one.
    fn most(&self) -> Option<i64> {
        match self {
            AmountTest::Ranges(list) => Some(list.iter().map(|r| r.1).max().unwrap_or(0)),
            AmountTest::Bound(CmpOp::Le, v) => Some(*v),
            AmountTest::Bound(CmpOp::Lt, v) => Some(v - 1),
            AmountTest::Bound(CmpOp::Eq, v) => Some(*v),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
enum Compiled {
    /// A take of an allowed amount; what is left may stay or, with `split`, fall in two.
    Take {
        amount: AmountTest,
        split: u8,
    },
    /// A split of the whole pile (t = 0).
    Split {
        split: u8,
    },
    Octal {
        digits: Vec<u8>,
    },
    /// A code in the full notation whose digits leave at most two heaps: each digit's flags,
    /// repeating from `repeat_from` where the code has a `[…]`.
    Code {
        flags: Vec<u8>,
        repeat_from: Option<usize>,
    },
}

#[derive(Clone, Debug)]
struct CompiledRule {
    span: Span,
    kind: Compiled,
    condition: Option<Expr>,
}

impl CompiledRule {
    fn flags(&self, t: u64) -> Result<u8, MoveError> {
        let ti = t as i64;
        let flags = match &self.kind {
            Compiled::Take { amount, split } if amount.contains(ti) => GONE | ONE | split,
            Compiled::Take { .. } => 0,
            Compiled::Split { split } if t == 0 => *split,
            Compiled::Split { .. } => 0,
            Compiled::Octal { digits } => match digits.get(t as usize) {
                Some(&d) => {
                    let mut f = 0;
                    if t > 0 && d & 1 != 0 {
                        f |= GONE;
                    }
                    if t > 0 && d & 2 != 0 {
                        f |= ONE;
                    }
                    if d & 4 != 0 {
                        f |= TWO_ANY;
                    }
                    f
                }
                None => 0,
            },
            Compiled::Code { flags, repeat_from } => {
                code_digit_index(flags.len(), *repeat_from, t).map_or(0, |i| flags[i])
            }
        };
        if flags == 0 {
            return Ok(0);
        }
        if let Some(c) = &self.condition {
            if !c.truth(&Env { n: None, t: Some(ti), last: None, pair: None })? {
                return Ok(0);
            }
        }
        Ok(flags)
    }
}

fn split_flag(parts: usize, shape: Option<SplitShape>) -> Option<u8> {
    (parts == 2).then_some(match shape {
        None => TWO_ANY,
        Some(SplitShape::Unequal) => TWO_UNEQUAL,
        Some(SplitShape::Equal) => TWO_EQUAL,
    })
}

/// The one-pile rules of a game, compiled: what each amount may leave.
#[derive(Clone, Debug)]
pub(crate) struct HeapRules {
    rules: Vec<CompiledRule>,
    /// `flags[t]` for every t evaluated so far
    flags: Vec<u8>,
    /// amounts that may leave the rest as one heap, increasing
    one: Vec<u64>,
    /// amounts after which the rest may split in two, increasing, with how
    two: Vec<(u64, u8)>,
    /// How the ways to split into two lie, when a pile's rare parts can pair with all of
    /// them at once (see `rare::plan_together`)
    ways: Option<rare::Ways>,
    /// The most any move takes, where that is finite.
    most_taken: Option<u64>,
    /// A take rule that allows 0: it would leave the position as it was.
    takes_nothing: Option<Span>,
}

impl HeapRules {
    /// Compiles the rules, or `None` when some rule needs what the kernel does not know (n,
    /// history, three-way splits): those games use the general pile loop.
    pub(super) fn compile(game: &Game) -> Option<HeapRules> {
        if game.tracks_history() || game.board == Board::Rows || !game.is_pile_sum() {
            return None;
        }
        let mut rules = Vec::new();
        let mut most: Option<u64> = Some(0);
        for rule in &game.moves {
            if rule.condition.as_ref().is_some_and(|c| c.reads(Var::N) || c.reads(Var::Last)) {
                return None;
            }
            let kind = match &rule.kind {
                RuleKind::Take { amount, piles, then_split } => {
                    if !piles.is_one() {
                        return None;
                    }
                    let split = match then_split {
                        None => 0,
                        Some(s) => split_flag(s.parts, s.shape)?,
                    };
                    let amount = compile_amount(amount)?;
                    most = match (most, amount.most()) {
                        (Some(m), Some(a)) => Some(m.max(a.max(0) as u64)),
                        _ => None,
                    };
                    Compiled::Take { amount, split }
                }
                RuleKind::Split(s) => Compiled::Split { split: split_flag(s.parts, s.shape)? },
                RuleKind::Octal { digits } => {
                    most = most.map(|m| m.max(digits.len() as u64 - 1));
                    Compiled::Octal { digits: digits.clone() }
                }
                RuleKind::Code(code) => {
                    most = match (most, code.most_taken()) {
                        (Some(m), Some(a)) => Some(m.max(a)),
                        _ => None,
                    };
                    let flags = code.digits.iter().map(code_flags).collect::<Option<Vec<u8>>>()?;
                    Compiled::Code { flags, repeat_from: code.repeat_from }
                }
                RuleKind::Bite { .. } | RuleKind::Add { .. } | RuleKind::TakePair | RuleKind::Turn { .. } => {
                    return None
                }
            };
            rules.push(CompiledRule { span: rule.span, kind, condition: rule.condition.clone() });
        }
        let mut compiled = HeapRules {
            rules,
            flags: Vec::new(),
            one: Vec::new(),
            two: Vec::new(),
            ways: None,
            most_taken: most,
            takes_nothing: None,
        };
        // t = 0 is evaluated at once: a take of nothing is an error on any non-empty pile.
        for rule in &compiled.rules {
            if matches!(rule.kind, Compiled::Take { .. }) && rule.flags(0).ok()? & GONE != 0 {
                compiled.takes_nothing = Some(rule.span);
            }
        }
        Some(compiled)
    }

    /// A hash of what every amount may leave, for rules whose moves take at most a fixed
    /// amount: two games with the same one have the same values (a checkpoint's game check).
    pub(super) fn fingerprint(&mut self) -> Option<u64> {
        let most = self.most_taken?;
        // Past 2²⁴ amounts the hash covers the first 2²⁴ and the largest take, not every amount
        // (reading 2³² of them held 4 GB).
        self.evaluate_to(most.min(FINGERPRINT_AMOUNTS)).ok()?;
        let hash = crate::solve::fnv::fnv1a(crate::solve::fnv::FNV_START, &self.flags);
        Some(if most > FINGERPRINT_AMOUNTS { crate::solve::fnv::fnv1a(hash, &most.to_le_bytes()) } else { hash })
    }

    /// For rules whose moves take at most a fixed amount: the amounts that may leave one heap,
    /// and those after which the rest may split in two, with how (`Some(true)`: any two heaps,
    /// `Some(false)`: unequal ones, `None`: equal ones). Every amount is evaluated first.
    pub(crate) fn fixed_takes(&mut self) -> Option<FixedTakes> {
        let most = self.most_taken?;
        self.evaluate_to(most).ok()?;
        let two = self
            .two
            .iter()
            .map(|&(t, f)| {
                let how = if f & TWO_ANY != 0 || f & (TWO_UNEQUAL | TWO_EQUAL) == TWO_UNEQUAL | TWO_EQUAL {
                    Some(true)
                } else if f & TWO_UNEQUAL != 0 {
                    Some(false)
                } else {
                    None
                };
                (t as usize, how)
            })
            .collect();
        Some(FixedTakes { one: self.one.iter().map(|&t| t as usize).collect(), two })
    }

    /// True when some amount evaluated so far may leave the rest as one heap.
    pub(super) fn leaves_one_heap(&self) -> bool {
        !self.one.is_empty()
    }

    /// True when the sparse-space method computes piles two at a time (see `HeapKernel`): some
    /// move leaves one heap, so the search ahead finds few witnesses (see `witness_floor`), and
    /// none from pile n + 1 leaves a heap of n, among the amounts evaluated so far (those to
    /// come take more), so that piles n and n + 1 need only the values below n.
    pub(super) fn pairs_piles(&self) -> bool {
        self.one.first().is_some_and(|&t| t >= 2) && self.splits_take()
    }

    /// True when pile n + 1 needs pile n only as the one heap that taking 1 leaves (0.6, 0.7):
    /// the sparse-space method may then compute it from the values below n without that
    /// option, and settle it once pile n is known (see `HeapKernel::settled`).
    pub(super) fn defers_last(&self) -> bool {
        self.one.first() == Some(&1) && self.splits_take()
    }

    /// True when every split takes at least one first, among the amounts evaluated so far:
    /// the parts of pile n + 1 are then below n.
    fn splits_take(&self) -> bool {
        self.two.iter().all(|&(t, f)| t >= 1 || f & (TWO_ANY | TWO_UNEQUAL) == 0)
    }

    /// True when the rules can split a heap in two, so that a pile's options grow with it.
    pub(super) fn splits(&self) -> bool {
        self.rules.iter().any(|r| match &r.kind {
            Compiled::Take { split, .. } | Compiled::Split { split } => *split != 0,
            Compiled::Octal { digits } => digits.iter().any(|d| d & 4 != 0),
            Compiled::Code { flags, .. } => flags.iter().any(|f| f & (TWO_ANY | TWO_UNEQUAL | TWO_EQUAL) != 0),
        })
    }

    /// The value of pile `n` by the plain scan of every option, from `value` of the smaller
    /// piles: a check of a stored value that shares nothing with the kernel's methods (a
    /// checkpoint's sample is checked with it).
    pub(super) fn plain_value(&mut self, n: u64, value: impl Fn(u64) -> u32) -> Result<u32, MoveError> {
        self.evaluate_to(n)?;
        let mut seen: Vec<bool> = Vec::new();
        let mut mark = |v: u32| {
            let v = v as usize;
            if v >= seen.len() {
                seen.resize(v + 1, false);
            }
            seen[v] = true;
        };
        if n > 0 && self.flag(n) & GONE != 0 {
            mark(0);
        }
        for &t in self.one.iter().take_while(|&&t| t < n) {
            mark(value(n - t));
        }
        for &(t, f) in self.two.iter().take_while(|&&(t, _)| t + 2 <= n) {
            let rest = n - t;
            for a in 1..=rest / 2 {
                let b = rest - a;
                let allowed = f & TWO_ANY != 0 || f & if a == b { TWO_EQUAL } else { TWO_UNEQUAL } != 0;
                if allowed {
                    mark(value(a) ^ value(b));
                }
            }
        }
        Ok(seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32)
    }

    /// The options the plain scan of pile `n` examines, about: what `plain_value` costs.
    pub(super) fn plain_cost(&self, n: u64) -> u64 {
        let splits = self.two.iter().filter(|&&(t, _)| t + 2 <= n).count() as u64;
        1 + self.one.len() as u64 + splits * (n / 2)
    }

    /// Evaluates what amounts 0..=upto may do (past the largest amount there is nothing to do).
    fn evaluate_to(&mut self, upto: u64) -> Result<(), MoveError> {
        let upto = match self.most_taken {
            Some(m) => upto.min(m),
            None => upto,
        };
        while self.flags.len() as u64 <= upto {
            let t = self.flags.len() as u64;
            let mut f = 0;
            for rule in &self.rules {
                f |= rule.flags(t)?;
            }
            if t == 0 {
                f &= !(GONE | ONE);
            }
            if f & ONE != 0 {
                self.one.push(t);
            }
            if f & (TWO_ANY | TWO_UNEQUAL | TWO_EQUAL) != 0 {
                self.two.push((t, f));
                self.ways = rare::Ways::of(&self.two);
            }
            self.flags.push(f);
        }
        Ok(())
    }

    /// The options of one pile of `p` whose parts' values XOR to `target`: at most `most` of
    /// them, and the flag says whether more exist. Splits are scanned up to `scan` for the
    /// smaller part: where the values are periodic from a preperiod e with period q, parts
    /// beyond e + 2q repeat what came before, so a pile of 10¹⁸ answers at once. `None` when
    /// a value the scan needs is not in the table any more (see `Table::Window`).
    #[allow(clippy::too_many_arguments)] // each bound is a separate question of the caller's
    pub(super) fn winning_options(
        &self,
        p: u64,
        value: impl Fn(u64) -> Option<u64>,
        target: u64,
        most: usize,
        periodic_from: Option<u64>,
        scan: u64,
        limits: &super::Limits,
    ) -> Result<Option<(Vec<Move>, bool)>, SolveError> {
        let mut out = Vec::new();
        let rule_for = |t: u64, flag: u8| -> Span {
            self.rules
                .iter()
                .find(|r| r.flags(t).is_ok_and(|f| f & flag != 0))
                .map(|r| r.span)
                .unwrap_or(Span { start: 0, end: 0 })
        };
        let take = |t: u64, left: Vec<u64>| -> Move {
            let kind = if t == 0 {
                MoveKind::Split { pile: 0, from: p, parts: left.clone() }
            } else {
                MoveKind::Take { pile: 0, from: p, amount: t, left: left.clone() }
            };
            let flag = match left.len() {
                0 => GONE,
                1 => ONE,
                _ => TWO_ANY | TWO_UNEQUAL | TWO_EQUAL,
            };
            Move { rule: rule_for(t, flag), kind, to: Position::new(left) }
        };
        // The options that are one per amount first, so that a long scan cannot hide them.
        if p > 0 && self.flag(p) & GONE != 0 && target == 0 {
            out.push(take(p, vec![]));
        }
        for &t in &self.one {
            if t >= p {
                break;
            }
            let Some(left) = value(p - t) else {
                return Ok(None);
            };
            if left == target {
                out.push(take(t, vec![p - t]));
            }
        }
        for &(t, f) in &self.two {
            let rest = p.saturating_sub(t);
            if t + 2 <= p && f & (TWO_ANY | TWO_EQUAL) != 0 && rest % 2 == 0 && target == 0 {
                out.push(take(t, vec![rest / 2, rest / 2]));
            }
        }
        let mut more = false;
        let mut examined = 0u64;
        for &(t, f) in &self.two {
            if t + 2 > p || f & (TWO_ANY | TWO_UNEQUAL) == 0 {
                continue;
            }
            let rest = p - t;
            let last = (rest - 1) / 2;
            for a in 1..=last.min(scan) {
                examined += 1;
                if examined.is_multiple_of(1 << 16) {
                    super::check_cancel(limits)?;
                }
                let (Some(x), Some(y)) = (value(a), value(rest - a)) else {
                    return Ok(None);
                };
                if x ^ y == target {
                    out.push(take(t, vec![a, rest - a]));
                    // A winning part in the periodic range comes back every period.
                    more |= last > scan && periodic_from.is_some_and(|e| a >= e);
                    if out.len() > most {
                        // Enough to show, and to know there are more.
                        break;
                    }
                }
            }
            // Without a period, parts past the scan are unknown: say there may be more.
            more |= last > scan && periodic_from.is_none();
            if out.len() > most {
                break;
            }
        }
        more |= out.len() > most;
        out.truncate(most);
        Ok(Some((out, more)))
    }

    fn flag(&self, t: u64) -> u8 {
        self.flags.get(t as usize).copied().unwrap_or(0)
    }
}

fn compile_amount(amount: &Amount) -> Option<AmountTest> {
    let constant = |e: &Expr| e.constant();
    let ranges = |list: &[Choice]| -> Option<Vec<(i64, i64)>> {
        list.iter()
            .map(|c| match c {
                Choice::Value(e) => constant(e).map(|v| (v, v)),
                Choice::Range(a, b) => Some((constant(a)?, constant(b)?)),
            })
            .collect()
    };
    Some(match amount {
        Amount::Any => AmountTest::Any,
        Amount::AnyExcept(list) => AmountTest::Except(ranges(list)?),
        Amount::Bound(op, e) => AmountTest::Bound(*op, constant(e)?),
        Amount::Choices(list) => AmountTest::Ranges(ranges(list)?),
    })
}

mod ahead;
mod classes;
mod kernel;
mod mex;
mod pair;
mod pairs;
mod rare;
mod search_ahead;
mod slots;
mod sparse;
mod stretch;
pub(crate) mod values;

pub(crate) use kernel::{HeapKernel, MethodState};

/// The amounts a game's moves take, for rules that take at most a fixed amount
/// (`HeapRules::fixed_takes`).
pub(crate) struct FixedTakes {
    pub one: Vec<usize>,
    /// with how the rest splits: `Some(true)` any two heaps, `Some(false)` unequal, `None` equal
    pub two: Vec<(usize, Option<bool>)>,
}

impl FixedTakes {
    /// The most any of the moves takes.
    pub(crate) fn most(&self) -> usize {
        self.one.iter().chain(self.two.iter().map(|(t, _)| t)).copied().max().unwrap_or(0)
    }
}
pub(crate) use sparse::WitnessChoice;
pub(crate) use values::Slot;
pub(crate) use values::Values;

#[cfg(test)]
mod fingerprint_tests {
    use super::*;

    /// A take of 2³² is not read amount by amount for a checkpoint's fingerprint (4 GB once):
    /// the hash covers the first 2²⁴ amounts and the largest take, so two games that differ
    /// only in it still differ.
    #[test]
    fn a_huge_take_is_fingerprinted_without_reading_every_amount() {
        let game = crate::solve::test_support::game_text("game \"s\"\npiles\nmove: take 1 or 4294967296\n");
        let mut rules = HeapRules::compile(&game).expect("a take compiles");
        let a = rules.fingerprint().expect("a largest take");
        assert!(rules.flags.len() as u64 <= FINGERPRINT_AMOUNTS + 1, "{}", rules.flags.len());
        let other = crate::solve::test_support::game_text("game \"s\"\npiles\nmove: take 1 or 4294967297\n");
        let b = HeapRules::compile(&other).expect("a take compiles").fingerprint().expect("a largest take");
        assert_ne!(a, b);
    }
}
