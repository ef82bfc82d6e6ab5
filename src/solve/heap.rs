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
use crate::ast::{CmpOp, Span, SplitShape};
use crate::rules::expr::{Env, Expr, Var};
use crate::rules::{
    code_digit_index, Amount, Board, Choice, CodeDigit, CodeShape, Game, Move, MoveError, MoveKind, Position, RuleKind,
};

const GONE: u8 = 1;
const ONE: u8 = 2;
const TWO_ANY: u8 = 4;
const TWO_UNEQUAL: u8 = 8;
const TWO_EQUAL: u8 = 16;

/// Values start being computed with the sparse-space method from this pile size on, when the
/// values so far show the phenomenon.
const SPARSE_FROM: usize = 4096;
/// The largest share of recent pile sizes with a rare value for which the method pays.
const SPARSE_MAX_RARE_SHARE: f64 = 0.25;
/// Piles per block over which the sparse-space method's cost is weighed against the plain scan.
const SPARSE_BLOCK: u64 = 4096;
/// Blocks ending before this pile are not weighed: the method starts dear for every game and
/// gets cheaper as the rare values are found (measured, in units of the plain scan: Grundy's
/// game about 1 at first, then 0.2; 0.140 and 0.741 from 1–3 down to 0.2; 0.346, 0.026 and
/// 0.164 stay at 3–4).
const SPARSE_WARM_UP: u64 = 16384;
/// What one option examined by the sparse-space method costs, in options of the plain scan
/// (which reads them in order, a byte each; measured about 1.6 on 0.346): the method is given
/// up when it does more than the plain scan would at this rate.
const SPARSE_OPTION_COST: u64 = 2;

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
pub struct HeapRules {
    rules: Vec<CompiledRule>,
    /// `flags[t]` for every t evaluated so far
    flags: Vec<u8>,
    /// amounts that may leave the rest as one heap, increasing
    one: Vec<u64>,
    /// amounts after which the rest may split in two, increasing, with how
    two: Vec<(u64, u8)>,
    /// The most any move takes, where that is finite.
    most_taken: Option<u64>,
    /// A take rule that allows 0: it would leave the position as it was.
    takes_nothing: Option<Span>,
}

impl HeapRules {
    /// Compiles the rules, or `None` when some rule needs what the kernel does not know (n,
    /// history, three-way splits): those games use the general pile loop.
    pub fn compile(game: &Game) -> Option<HeapRules> {
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

    /// True when the rules can split a heap in two, so that a pile's options grow with it.
    pub fn splits(&self) -> bool {
        self.rules.iter().any(|r| match &r.kind {
            Compiled::Take { split, .. } | Compiled::Split { split } => *split != 0,
            Compiled::Octal { digits } => digits.iter().any(|d| d & 4 != 0),
            Compiled::Code { flags, .. } => flags.iter().any(|f| f & (TWO_ANY | TWO_UNEQUAL | TWO_EQUAL) != 0),
        })
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
    pub fn winning_options(
        &self,
        p: u64,
        value: impl Fn(u64) -> Option<u64>,
        target: u64,
        most: usize,
        periodic_from: Option<u64>,
        scan: u64,
        limits: super::Limits,
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

/// Grundy values of piles 0, 1, 2, …, a byte each while they fit, then two, then four: most
/// take-and-break games keep their values small, and the table is the memory a long run needs.
#[derive(Debug)]
pub enum Values {
    Byte(Vec<u8>),
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for Values {
    fn default() -> Self {
        Values::Byte(Vec::new())
    }
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::Byte(v) => v.len(),
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    pub fn get(&self, n: usize) -> u32 {
        match self {
            Values::Byte(v) => v[n] as u32,
            Values::Narrow(v) => v[n] as u32,
            Values::Wide(v) => v[n],
        }
    }

    fn push(&mut self, g: u32) {
        match self {
            Values::Byte(v) if g <= u8::MAX as u32 => v.push(g as u8),
            Values::Byte(v) => {
                let mut wider: Vec<u16> = v.iter().map(|&x| x as u16).collect();
                wider.reserve(wider.len() / 2);
                *self = Values::Narrow(wider);
                self.push(g);
            }
            Values::Narrow(v) if g <= u16::MAX as u32 => v.push(g as u16),
            Values::Narrow(v) => {
                let mut wider: Vec<u32> = v.iter().map(|&x| x as u32).collect();
                wider.push(g);
                *self = Values::Wide(wider);
            }
            Values::Wide(v) => v.push(g),
        }
    }

    pub fn to_vec(&self) -> Vec<i64> {
        (0..self.len()).map(|n| self.get(n) as i64).collect()
    }

    /// Forgets the values stored at `range` (moving the later ones down): a window's slide.
    fn forget(&mut self, range: std::ops::Range<usize>) {
        match self {
            Values::Byte(v) => drop(v.drain(range)),
            Values::Narrow(v) => drop(v.drain(range)),
            Values::Wide(v) => drop(v.drain(range)),
        }
    }

    /// Room for `total` values in all, so that a long run's table is not doubled past its end.
    pub fn reserve_total(&mut self, total: usize) {
        let more = total.saturating_sub(self.len());
        match self {
            Values::Byte(v) => v.reserve_exact(more),
            Values::Narrow(v) => v.reserve_exact(more),
            Values::Wide(v) => v.reserve_exact(more),
        }
    }
}

/// The marks of one mex: a bitset that grows with the values.
#[derive(Default)]
struct Marks {
    words: Vec<u64>,
    /// scratch for the plain scan: a byte a value
    bytes: Vec<u8>,
}

impl Marks {
    fn reset(&mut self, largest: u32) {
        let words = largest as usize / 64 + 2;
        self.words.clear();
        self.words.resize(words, 0);
    }

    #[inline]
    fn mark(&mut self, v: u32) {
        // Values can exceed the largest seen by XOR: grow rather than lose a mark.
        let w = v as usize / 64;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (v % 64);
    }

    /// The marked values, increasing.
    fn marked(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    i as u32 * 64 + b
                })
            })
        })
    }
}

/// How many pile sizes of each value are kept as witnesses for the targeted search: the first
/// ones, so that the list is a fixed prefix of the table and costs bounded memory.
const HOLDERS_PER_VALUE: usize = 4096;
/// Pile sizes between recounts of how often each value occurs, which orders the targeted search.
const RECOUNT_EVERY: u32 = 4096;
/// Pairs examined from the middle before the search turns to particular values: a plain scan
/// finds the common XORs at once, and the targeted search the scarce ones.
const SHORT_SCAN: usize = 1024;
/// How many partner values the targeted search tries for one missing value.
const PARTNERS_TRIED: usize = 16;

/// The sparse-space classes. A pile's value is common when the parity of the bits it shares
/// with the mask is its domain's: piles of even and of odd size may differ (the "domain"
/// variant, for games such as 0.106 whose splits all take amounts of one parity), as long as
/// two common parts always XOR to a value rare for the pile they came from.
struct Sparse {
    mask: u32,
    /// the common parity of piles of even size, and of odd size (both 1 in the plain method)
    parity: [u32; 2],
    /// pile sizes with a rare value, increasing, and their values
    rare: Vec<u32>,
    rare_value: Vec<u32>,
    /// `class[v]` has bit d set when v is common for piles of domain d (their size's parity):
    /// sized to hold any XOR of two values seen so far
    class: Vec<u8>,
    /// scratch tables of the same size: values reached, and rare values still looked for
    seen: Vec<u8>,
    need: Vec<u8>,
    /// scratch: the ways to split of the pile at hand, and where each one's scan stands
    sources: Vec<Source>,
    next: Vec<usize>,
    /// `holders[c]`: the first pile sizes whose value is c, increasing
    holders: Vec<Vec<u32>>,
    /// how often each value occurred since the last recount, and in the stretch before it
    counting: Vec<u32>,
    counted: Vec<u32>,
    since_recount: u32,
    /// `partners[v]`: common values c whose holders to try for the missing value v, best first
    /// (c XOR v the most frequent), made when first needed after each recount
    partners: Vec<Option<Vec<u32>>>,
}

impl Sparse {
    fn new(mask: u32, parity: [u32; 2]) -> Self {
        let mut s = Sparse {
            mask,
            parity,
            rare: Vec::new(),
            rare_value: Vec::new(),
            class: Vec::new(),
            seen: Vec::new(),
            need: Vec::new(),
            sources: Vec::new(),
            next: Vec::new(),
            holders: Vec::new(),
            counting: Vec::new(),
            counted: Vec::new(),
            since_recount: 0,
            partners: Vec::new(),
        };
        s.grow(0);
        s
    }

    /// Whether v is a common value for a pile of size n.
    #[inline]
    fn common(&self, v: u32, n: u32) -> bool {
        (v & self.mask).count_ones() & 1 == self.parity[(n & 1) as usize]
    }

    /// The class bits of v: bit d when it is common for piles of domain d.
    fn class_of(&self, v: u32) -> u8 {
        self.common(v, 0) as u8 | (self.common(v, 1) as u8) << 1
    }

    /// Makes the tables hold every XOR of values up to `largest`, and one more value.
    fn grow(&mut self, largest: u32) {
        let size = (largest.max(1) + 1).next_power_of_two() as usize * 2;
        if self.class.len() < size {
            self.class = (0..size as u32).map(|v| self.class_of(v)).collect();
            self.holders.resize(size, Vec::new());
            self.counting.resize(size, 0);
            self.counted.resize(size, 0);
            self.partners.clear();
            self.partners.resize(size, None);
        }
    }

    fn add(&mut self, n: u32, value: u32) {
        self.grow(value);
        if !self.common(value, n) {
            self.rare.push(n);
            self.rare_value.push(value);
        }
        let holders = &mut self.holders[value as usize];
        if holders.len() < HOLDERS_PER_VALUE {
            holders.push(n);
        }
        self.counting[value as usize] += 1;
        self.since_recount += 1;
        if self.since_recount == RECOUNT_EVERY {
            self.since_recount = 0;
            std::mem::swap(&mut self.counting, &mut self.counted);
            self.counting.iter_mut().for_each(|c| *c = 0);
            self.partners.iter_mut().for_each(|p| *p = None);
        }
    }

    /// Finds the common values whose holders are likeliest to pair with a pile of value c XOR
    /// `v`, unless known since the last recount.
    fn make_partners(&mut self, v: usize) {
        if self.partners[v].is_none() {
            let mut list: Vec<(u32, u32)> = (0..self.class.len())
                .filter(|&c| self.class[c] != 0 && !self.holders[c].is_empty() && (c ^ v) < self.counted.len())
                .map(|c| (self.counted[c ^ v], c as u32))
                .filter(|&(count, _)| count > 0)
                .collect();
            list.sort_unstable_by(|a, b| b.cmp(a));
            list.truncate(PARTNERS_TRIED);
            self.partners[v] = Some(list.into_iter().map(|(_, c)| c).collect());
        }
    }
}

/// Which pile sizes the table still holds. The whole table while nothing is dropped; in a
/// window, the piles below `prefix` and those from `base` on, stored right after the prefix.
#[derive(Clone, Copy, Debug)]
struct Reach {
    prefix: usize,
    base: usize,
}

impl Reach {
    const WHOLE: Reach = Reach { prefix: 0, base: 0 };

    /// How many pile sizes are dropped between the prefix and the recent piles.
    fn dropped(self) -> usize {
        self.base - self.prefix
    }

    /// Where pile `q`'s value is stored, if it is.
    fn index(self, q: usize) -> Option<usize> {
        if q >= self.base {
            Some(q - self.dropped())
        } else if q < self.prefix {
            Some(q)
        } else {
            None
        }
    }
}

/// Computes single-pile values with the compiled rules.
pub struct HeapKernel {
    pub rules: HeapRules,
    values: Values,
    largest: u32,
    marks: Marks,
    sparse: Option<Sparse>,
    /// whether the sparse-space method was considered already
    sparse_tried: bool,
    /// Which sparse-space variants may be chosen.
    sparse_mode: SparseMode,
    /// Over the current block of piles under the sparse-space method: its work, and what the
    /// plain scan would have examined (to give the method up where it does not pay).
    block_work: u64,
    block_plain: u64,
    /// blocks running in which the method cost more than twice the plain scan
    dear_blocks: u32,
    reach: Reach,
    /// how many recent values a window keeps at least (0: the whole table is kept)
    recent: usize,
    /// piles asked about whose values must outlive the window, and those computed
    wanted: Vec<u64>,
    kept: Vec<(u64, u32)>,
}

impl HeapKernel {
    pub fn new(rules: HeapRules) -> Self {
        HeapKernel {
            rules,
            values: Values::default(),
            largest: 0,
            marks: Marks::default(),
            sparse: None,
            sparse_tried: false,
            sparse_mode: SparseMode::Auto,
            block_work: 0,
            block_plain: 0,
            dear_blocks: 0,
            reach: Reach::WHOLE,
            recent: 0,
            wanted: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// How many pile sizes have values: 0 up to this.
    pub fn computed(&self) -> usize {
        self.values.len() + self.reach.dropped()
    }

    /// The value of pile `n`, unless it is not computed yet or a window dropped it.
    pub fn value(&self, n: u64) -> Option<u32> {
        if n >= self.computed() as u64 {
            return None;
        }
        match self.reach.index(n as usize) {
            Some(i) => Some(self.values.get(i)),
            None => self.kept.iter().find(|&&(p, _)| p == n).map(|&(_, g)| g),
        }
    }

    /// Every value so far, in order, when the whole table is kept.
    pub fn all_values(&self) -> Option<Vec<i64>> {
        (self.reach.dropped() == 0).then(|| self.values.to_vec())
    }

    /// Makes pile `n`'s value outlive a window, when it is still to be computed.
    pub fn keep_value_of(&mut self, n: u64) {
        if n >= self.computed() as u64 && !self.wanted.contains(&n) {
            self.wanted.push(n);
        }
    }

    /// Room for the values of piles below `total` (a window's are stored closer together).
    pub fn reserve_total(&mut self, total: usize) {
        self.values.reserve_total(total.saturating_sub(self.reach.dropped()))
    }

    /// From here on keeps only the piles below `prefix` and at least the latest `recent`, when
    /// the sparse-space method is in use (the only one whose reads stay in such a window) and
    /// every amount taken is small next to the window.
    pub fn start_window(&mut self, prefix: usize, recent: usize) {
        let small_takes = self.rules.most_taken.is_some_and(|m| m < recent as u64 / 2);
        if self.recent == 0
            && self.sparse.is_some()
            && small_takes
            && self.computed() >= prefix
            && prefix >= SPARSE_FROM
        {
            self.reach = Reach { prefix, base: prefix };
            self.recent = recent;
        }
    }

    /// Keeps count of what the sparse-space method costs against the plain scan, block by
    /// block, and gives it up for the plain scan where it does not pay: some games' values fit
    /// a mask well enough to choose the method, but their rare values need so many witnesses
    /// that scanning every split is faster. Only while every value is stored (a window's
    /// dropped values leave the plain scan nothing to read).
    fn weigh_sparse(&mut self, n: u64, work: u64) {
        if self.sparse_mode != SparseMode::Auto || self.reach.dropped() > 0 || self.recent > 0 {
            return;
        }
        self.block_work += work;
        self.block_plain += self
            .rules
            .two
            .iter()
            .filter(|(t, f)| t + 2 <= n && f & (TWO_ANY | TWO_UNEQUAL) != 0)
            .map(|(t, _)| (n - t) / 2)
            .sum::<u64>();
        if n.is_multiple_of(SPARSE_BLOCK) {
            // The first blocks are dear for every game (few rare values are known yet): only
            // blocks from the warm-up on count, and only a cost twice the plain scan's, twice
            // running, gives the method up.
            let dear = self.block_work.saturating_mul(SPARSE_OPTION_COST) > 2 * self.block_plain;
            if n >= SPARSE_WARM_UP {
                self.dear_blocks = if dear { self.dear_blocks + 1 } else { 0 };
                if self.dear_blocks >= 2 {
                    self.sparse = None;
                }
            }
            self.block_work = 0;
            self.block_plain = 0;
        }
    }

    /// Restricts the sparse-space variants the kernel may choose (before it chooses).
    pub fn set_sparse_mode(&mut self, mode: SparseMode) {
        self.sparse_mode = mode;
    }

    /// Whether a window dropped values.
    pub fn windowed(&self) -> bool {
        self.reach.dropped() > 0
    }

    /// Whether the sparse-space method is in use (for the benchmark's report).
    pub fn uses_sparse_space(&self) -> bool {
        self.sparse.is_some()
    }

    /// Computes the next pile's value; `work` counts the options examined. False, with
    /// nothing computed, when the value needs piles a window dropped.
    pub fn push_next(&mut self, work: &mut u64) -> Result<bool, SolveError> {
        let n = self.computed() as u64;
        if n > 0 {
            if let Some(span) = self.rules.takes_nothing {
                return Err(MoveError::TakesNothing { span, position: n.to_string() }.into());
            }
        }
        self.rules.evaluate_to(n)?;
        if !self.sparse_tried && self.values.len() >= SPARSE_FROM && self.rules.splits() {
            self.sparse_tried = true;
            let split_takes: Vec<u64> = self.rules.two.iter().map(|&(t, _)| t).collect();
            // Every split take is known once the piles computed pass the largest take.
            let takes_known = self.rules.most_taken.is_some_and(|m| m < n) && self.sparse_mode == SparseMode::Auto;
            if self.sparse_mode != SparseMode::Never {
                self.sparse = choose_sparse(&self.values, &split_takes, takes_known);
            }
        }
        let work_before = *work;
        let (rules, marks, largest, reach, sparse) =
            (&self.rules, &mut self.marks, self.largest, self.reach, self.sparse.as_mut());
        let found = match &self.values {
            Values::Byte(v) => next_value(v, n, reach, rules, marks, largest, sparse, work),
            Values::Narrow(v) => next_value(v, n, reach, rules, marks, largest, sparse, work),
            Values::Wide(v) => next_value(v, n, reach, rules, marks, largest, sparse, work),
        };
        let Some(g) = found else {
            return Ok(false);
        };
        if self.sparse.is_some() {
            self.weigh_sparse(n, *work - work_before);
        }
        self.largest = self.largest.max(g);
        if let Some(s) = &mut self.sparse {
            s.add(n as u32, g);
        }
        self.values.push(g);
        if let Some(i) = self.wanted.iter().position(|&w| w == n) {
            self.wanted.swap_remove(i);
            self.kept.push((n, g));
        }
        // Slide the window by `recent` values at a time: one move of the recent part per
        // `recent` piles.
        if self.recent > 0 && self.values.len() >= self.reach.prefix + 2 * self.recent {
            let from = self.reach.prefix;
            self.values.forget(from..from + self.recent);
            self.reach.base += self.recent;
        }
        Ok(true)
    }
}

/// The mask and domain parities under which the fewest recent pile sizes have a rare value, if
/// few enough do. `split_takes` are the amounts after which a pile may split in two; the
/// parities must make every XOR of two common parts rare for the pile split, whatever the
/// domains of the parts.
fn choose_sparse(values: &Values, split_takes: &[u64], takes_known: bool) -> Option<Sparse> {
    let len = values.len();
    let largest = (0..len).map(|n| values.get(n)).max().unwrap_or(0);
    if largest >= 1 << 12 || len > u32::MAX as usize {
        return None;
    }
    let bits = 32 - largest.leading_zeros();
    // Histograms of the recent half, by domain.
    let mut histogram = [vec![0usize; 1 << bits], vec![0usize; 1 << bits]];
    for n in len / 2..len {
        histogram[n & 1][values.get(n) as usize] += 1;
    }
    let recent = len - len / 2;
    // The parities allowed: (1, 1) always (two odd parts XOR to an even value); others only
    // when every split take is known and each respects them.
    let allowed = |p: [u32; 2]| {
        p == [1, 1]
            || (takes_known
                && split_takes.iter().all(|&t| {
                    (0..2).all(|da: u64| {
                        (0..2).all(|db: u64| p[da as usize] ^ p[db as usize] != p[((da + db + t) % 2) as usize])
                    })
                }))
    };
    let parities: Vec<[u32; 2]> = [[1, 1], [0, 1], [1, 0], [0, 0]].into_iter().filter(|&p| allowed(p)).collect();
    let (mut best_mask, mut best_parity, mut best_rare) = (0u32, [1, 1], usize::MAX);
    for mask in 1..(1u32 << bits) {
        // Per domain, how many recent values have an even and an odd share of the mask.
        let mut by_parity = [[0usize; 2]; 2];
        for (d, h) in histogram.iter().enumerate() {
            for (v, c) in h.iter().enumerate() {
                by_parity[d][((v as u32 & mask).count_ones() & 1) as usize] += c;
            }
        }
        for &p in &parities {
            // Rare: the values whose parity is not the domain's common one.
            let rare = by_parity[0][(1 - p[0]) as usize] + by_parity[1][(1 - p[1]) as usize];
            if rare < best_rare {
                (best_mask, best_parity, best_rare) = (mask, p, rare);
            }
        }
    }

    if best_rare as f64 > SPARSE_MAX_RARE_SHARE * recent as f64 {
        return None;
    }
    // Values grow slowly past those seen so far: their higher bits count like the highest seen.
    let high = !((1u32 << bits) - 1);
    let top = 1u32 << (bits - 1);
    let mask = if best_mask & top != 0 { best_mask | high } else { best_mask };
    let mut sparse = Sparse::new(mask, best_parity);
    for n in 0..len {
        sparse.add(n as u32, values.get(n));
    }
    Some(sparse)
}

trait Slot: Copy {
    fn value(self) -> u32;
}
impl Slot for u8 {
    #[inline]
    fn value(self) -> u32 {
        self as u32
    }
}
impl Slot for u16 {
    #[inline]
    fn value(self) -> u32 {
        self as u32
    }
}
impl Slot for u32 {
    #[inline]
    fn value(self) -> u32 {
        self
    }
}

/// The value of pile n from the stored values `g` (all of them, or a window's as `reach` says);
/// `None` when it needs a value the window dropped.
#[allow(clippy::too_many_arguments)] // the kernel's parts, borrowed apart
fn next_value<T: Slot>(
    g: &[T],
    n: u64,
    reach: Reach,
    rules: &HeapRules,
    marks: &mut Marks,
    largest: u32,
    sparse: Option<&mut Sparse>,
    work: &mut u64,
) -> Option<u32> {
    let n_us = n as usize;
    marks.reset(largest);
    if n > 0 && rules.flag(n) & GONE != 0 {
        marks.mark(0);
    }
    for &t in &rules.one {
        if t >= n {
            break;
        }
        marks.mark(g[reach.index(n_us - t as usize)?].value());
    }
    *work += rules.one.len().min(n_us) as u64;
    for &(t, f) in &rules.two {
        if t + 2 > n {
            break;
        }
        let rest = (n - t) as usize;
        if f & TWO_EQUAL != 0 && rest.is_multiple_of(2) {
            marks.mark(0);
        }
    }
    match sparse {
        // A window starts only under the sparse-space method: every pile is stored.
        None => {
            // A byte a value rather than a bit: the stores in the scan do not depend on each
            // other (a bit set in one word after another is a chain of loads and stores). Two
            // values XOR below the power of two above the largest.
            let size = (largest.max(1) as usize + 1).next_power_of_two() * 2;
            let reached = &mut marks.bytes;
            reached.clear();
            reached.resize(size, 0);
            for v in marks.words.iter().enumerate().flat_map(|(i, &w)| {
                (0..64).filter(move |b| w >> b & 1 == 1).map(move |b| i * 64 + b)
            }) {
                if v >= reached.len() {
                    reached.resize(v + 1, 0);
                }
                reached[v] = 1;
            }
            for &(t, f) in &rules.two {
                if t + 2 > n || f & (TWO_ANY | TWO_UNEQUAL) == 0 {
                    continue;
                }
                let rest = (n - t) as usize;
                // An unequal split leaves out the middle pair: the loop has no test.
                let top = if f & TWO_ANY == 0 && rest.is_multiple_of(2) { rest / 2 - 1 } else { rest / 2 };
                let (low, high) = (&g[..=top], &g[rest - top..rest]);
                for (x, y) in low[1..].iter().zip(high.iter().rev()) {
                    reached[(x.value() ^ y.value()) as usize] = 1;
                }
                *work += rest as u64 / 2;
            }
            Some(reached.iter().position(|&b| b == 0).unwrap_or(reached.len()) as u32)
        }
        Some(sparse) => sparse_value(g, n, reach, rules, marks, sparse, work),
    }
}

fn sparse_value<T: Slot>(
    g: &[T],
    n: u64,
    reach: Reach,
    rules: &HeapRules,
    marks: &mut Marks,
    sparse: &mut Sparse,
    work: &mut u64,
) -> Option<u32> {
    let splits = || rules.two.iter().filter(move |(t, f)| t + 2 <= n && f & (TWO_ANY | TWO_UNEQUAL) != 0);
    let dropped = reach.dropped();
    // Byte tables rather than bits: the stores do not depend on each other, and the scan below
    // tests a pair with two loads and no unpredictable branch.
    let Sparse { rare, rare_value, class, seen, need, .. } = sparse;
    let size = class.len();
    seen.clear();
    seen.resize(size, 0);
    for v in marks.marked() {
        if let Some(s) = seen.get_mut(v as usize) {
            *s = 1;
        }
    }
    // Every option with a rare part.
    for &(t, f) in splits() {
        let rest = (n - t) as usize;
        // Parts from 1 to rest − 1, but for an unequal split not rest / 2: two ranges, so
        // that the loop itself has no test.
        let first = rare.partition_point(|&r| r == 0);
        let count = rare.partition_point(|&r| (r as usize) < rest);
        let (below, from) = if f & TWO_ANY == 0 && rest.is_multiple_of(2) {
            let half = rare.partition_point(|&r| (r as usize) < rest / 2);
            (half, rare.partition_point(|&r| (r as usize) <= rest / 2))
        } else {
            (count, count)
        };
        // The partner rest − r is a recent pile for r ≤ rest − base, and in the prefix for
        // r > rest − prefix; in between it was dropped.
        let recent_end = rare.partition_point(|&r| r as usize + reach.base <= rest).min(count);
        let prefix_from = rare.partition_point(|&r| r as usize + reach.prefix <= rest).max(first);
        if recent_end < prefix_from.min(count) {
            return None;
        }
        // Local slices: a byte store could alias the vectors' own fields, which would then be
        // read again on every pass.
        let reached = seen.as_mut_slice();
        let without_half = |start: usize, end: usize| {
            let end = end.max(start);
            [start..end.min(below).max(start), from.clamp(start, end)..end]
        };
        // Partners among the recent piles (all of them without a window) are stored at
        // rest − dropped − r, those in a window's prefix at rest − r.
        for (start, end, top) in [(first, recent_end, rest - dropped), (prefix_from, count, rest)] {
            let window = &g[..top.min(g.len())];
            for range in without_half(start, end) {
                for (&r, &value) in rare[range.clone()].iter().zip(&rare_value[range]) {
                    reached[(value ^ window[top - r as usize].value()) as usize] = 1;
                }
            }
        }
        *work += count as u64;
    }
    // The answer is this common value unless a rare value below it is missing.
    let domain = 1u8 << (n & 1);
    let mut candidate = 0;
    while seen[candidate] != 0 || class[candidate] & domain == 0 {
        candidate += 1;
    }
    need.clear();
    need.resize(size, 0);
    let mut missing = 0;
    for v in 0..candidate {
        if seen[v] == 0 {
            need[v] = 1;
            missing += 1;
        }
    }
    if missing == 0 {
        return Some(candidate as u32);
    }
    // Options with two common parts reach rare values: look for the missing ones. Every option
    // with a rare part was marked above, so a missing value found here came from two common
    // parts. First a short scan from the middle out, where both parts are large (small piles
    // are where the rare values gather): it finds the values many pairs reach. In a window,
    // the smaller part is one of the prefix and the larger a recent pile.
    let mut sources = std::mem::take(&mut sparse.sources);
    let mut next = std::mem::take(&mut sparse.next);
    sources.clear();
    sources.extend(splits().map(|&(t, f)| {
        let rest = (n - t) as usize;
        let top = if f & TWO_ANY == 0 { (rest - 1) / 2 } else { rest / 2 };
        let stored = if dropped == 0 { top } else { top.min(reach.prefix - 1).min(rest.saturating_sub(reach.base)) };
        Source { rest, top, stored, right: rest - dropped, below: rest.saturating_sub(reach.base) }
    }));
    next.clear();
    next.extend(sources.iter().map(|s| s.stored));
    let found = find_witnesses(g, candidate, dropped, sparse, &sources, &mut next, missing, work);
    sparse.sources = sources;
    sparse.next = next;
    found
}

/// With `missing` rare values below `candidate` not reached by options with a rare part: the
/// candidate if pairs of common parts reach them all, else the smallest one they miss (`None`
/// when a window dropped piles that might reach it).
#[allow(clippy::too_many_arguments)]
fn find_witnesses<T: Slot>(
    g: &[T],
    candidate: usize,
    dropped: usize,
    sparse: &mut Sparse,
    sources: &[Source],
    next: &mut [usize],
    mut missing: usize,
    work: &mut u64,
) -> Option<u32> {
    let mut budget = SHORT_SCAN;
    for (source, a) in sources.iter().zip(next.iter_mut()) {
        let start = *a;
        if scan_pairs(g, source.right, a, start.saturating_sub(budget).max(1), &mut sparse.need, &mut missing, work) {
            return Some(candidate as u32);
        }
        budget = budget.saturating_sub(start - *a);
    }
    // The values still missing are reached by few pairs, and mostly through a scarce value:
    // go straight to the pile sizes holding the partner values likeliest to give them.
    for v in 0..candidate {
        if sparse.need[v] == 0 {
            continue;
        }
        sparse.make_partners(v);
        if targeted_witness(g, v as u32, sources, sparse, work) {
            sparse.need[v] = 0;
            missing -= 1;
            if missing == 0 {
                return Some(candidate as u32);
            }
        }
    }
    // The rest of the scan, which ends the search either way when every pile is stored.
    let need = &mut sparse.need;
    for (source, a) in sources.iter().zip(next.iter_mut()) {
        if scan_pairs(g, source.right, a, 1, need, &mut missing, work) {
            return Some(candidate as u32);
        }
    }
    if dropped > 0 {
        // The pairs through dropped piles might reach the missing value.
        return None;
    }
    // Some rare value below the candidate has no option: it is the answer.
    Some(need.iter().position(|&x| x != 0).expect("a value is still missing") as u32)
}

/// One way to split: the pairs (a, rest − a) for a from 1 to `top`.
struct Source {
    rest: usize,
    top: usize,
    /// the largest a whose pair is stored
    stored: usize,
    /// where pile rest − a is stored is `right − a`
    right: usize,
    /// the largest smaller part whose partner is stored (a window's recent piles)
    below: usize,
}

/// Looks at the pairs (a, rest − a) for a from `*a` down to `stop`, crossing off the values
/// they reach; true once none is missing. Pile a is stored at a and rest − a at `right − a`.
/// Eight pairs at a time, so that the test is one branch per eight. `*a` is left where the
/// scan stopped.
fn scan_pairs<T: Slot>(
    g: &[T],
    right: usize,
    a: &mut usize,
    stop: usize,
    need: &mut [u8],
    missing: &mut usize,
    work: &mut u64,
) -> bool {
    let start = *a;
    let mut found = |a: usize, need: &mut [u8]| -> bool {
        let v = (g[a].value() ^ g[right - a].value()) as usize;
        if need[v] != 0 {
            need[v] = 0;
            *missing -= 1;
        }
        *missing == 0
    };
    while *a >= stop + 8 {
        let mut hit = 0;
        for k in 0..8 {
            hit |= need[(g[*a - k].value() ^ g[right - *a + k].value()) as usize];
        }
        if hit != 0 {
            for k in 0..8 {
                if found(*a - k, need) {
                    *work += (start - *a + k) as u64;
                    *a -= k + 1;
                    return true;
                }
            }
        }
        *a -= 8;
    }
    while *a >= stop.max(1) {
        let done = found(*a, need);
        *a -= 1;
        if done {
            *work += (start - *a) as u64;
            return true;
        }
    }
    *work += (start - *a) as u64;
    false
}

/// Looks for one pair of parts reaching the rare value `v`, among the pile sizes that hold the
/// partner values likeliest to give it. Finding none proves nothing: the full scan decides.
fn targeted_witness<T: Slot>(g: &[T], v: u32, sources: &[Source], sparse: &Sparse, work: &mut u64) -> bool {
    let partners = sparse.partners[v as usize].as_deref().unwrap_or_default();
    for &c in partners {
        let want = c ^ v;
        for source in sources {
            for &p in &sparse.holders[c as usize] {
                let p = p as usize;
                if p >= source.rest || p > source.below {
                    break;
                }
                *work += 1;
                // The pair (p, rest − p) is one of the options when its smaller part is at most `top`.
                if p > 0 && p.min(source.rest - p) <= source.top && g[source.right - p].value() == want {
                    return true;
                }
            }
        }
    }
    false
}
