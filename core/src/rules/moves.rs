//! Move generation: every move a position has under the game's rules, with its description.

use super::expr::Env;
use super::move_error::MoveError;
use super::{
    Amount, Board, Choice, CodeShape, CoinShapes, Game, PileSelection, Position, Rule, RuleKind, Side, SplitSpec,
    TakeBreakCode,
};
use crate::vocab::{CmpOp, Span, SplitShape};

/// One move: which rule allowed it, what it does, and where it leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The rule that allows it.
    pub(crate) rule: Span,
    pub(crate) kind: MoveKind,
    /// The position it leads to.
    pub to: Position,
}

impl Move {
    /// The move in words, as a player reads it: `take 3 from the pile of 7`.
    pub fn describe(&self) -> String {
        self.kind.describe()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MoveKind {
    /// `amount` from the pile at index `pile` (which held `from`); what is left of it is `left`.
    Take {
        pile: usize,
        from: u64,
        amount: u64,
        left: Vec<u64>,
    },
    /// from several piles at once: (index, size before, amount)
    TakeSeveral {
        takes: Vec<(usize, u64, u64)>,
    },
    Split {
        pile: usize,
        from: u64,
        parts: Vec<u64>,
    },
    /// `amount` added to the pile at index `pile`, which held `from`.
    Add {
        pile: usize,
        from: u64,
        amount: u64,
    },
    /// coin `coin` turned from heads to tails, and with it the coins `others` (ascending)
    Turn {
        coin: u64,
        others: Vec<u64>,
    },
    /// column and row of the chosen square, from (1, 1) at the bottom left
    Bite {
        column: u64,
        row: u64,
    },
    /// a product game's move on the cell (x, y): the first game's move on x, the second's on
    /// y, or both (each with its game's name); the cells it leaves, or on coins turns over
    Cell {
        cell: (u64, u64),
        first: Option<(String, Box<MoveKind>)>,
        second: Option<(String, Box<MoveKind>)>,
        leaves: Vec<(u64, u64)>,
        coins: bool,
    },
}

impl Move {
    /// This move, found on a one-pile position, made on pile `index` of `pos` (a position on
    /// `board`) instead.
    pub(crate) fn on_pile_of(self, index: usize, pos: &Position, board: Board) -> Move {
        let piles = match &self.kind {
            // Coins turned that already showed heads go back to tails.
            MoveKind::Turn { others, .. } => turned(&pos.piles, index, others),
            _ => {
                let mut piles = pos.piles.clone();
                piles.splice(index..=index, self.to.piles.iter().copied());
                piles
            }
        };
        let kind = match self.kind {
            MoveKind::Take { from, amount, left, .. } => MoveKind::Take { pile: index, from, amount, left },
            MoveKind::Split { from, parts, .. } => MoveKind::Split { pile: index, from, parts },
            MoveKind::Add { from, amount, .. } => MoveKind::Add { pile: index, from, amount },
            other => other,
        };
        let mut to = Position { piles, last: self.to.last, cells: false };
        leave_no_empty_pile(board, pos, &mut to);
        Move { rule: self.rule, kind, to }
    }
}

/// Among any number of piles an emptied pile is no pile (`Game::canonical` drops it too): a
/// move leaves the piles that are left, so that it reads `to 1`, not `to 0 1`. A position of
/// one pile keeps it (`to 0`).
fn leave_no_empty_pile(board: Board, from: &Position, to: &mut Position) {
    if board == Board::AnyPiles && from.piles.len() > 1 {
        to.piles.retain(|&p| p > 0);
        if to.piles.is_empty() {
            to.piles.push(0);
        }
    }
}

impl MoveKind {
    /// The move in words, as a teacher would say it.
    pub(crate) fn describe(&self) -> String {
        match self {
            MoveKind::Take { from, amount, left, .. } => {
                let base = format!("take {amount} from the pile of {from}");
                if left.len() >= 2 {
                    format!("{base}, leaving {}", and_list(left))
                } else {
                    base
                }
            }
            MoveKind::TakeSeveral { takes } if takes.len() == 1 => {
                format!("take {} from the pile of {}", takes[0].2, takes[0].1)
            }
            MoveKind::TakeSeveral { takes } => {
                let same = takes.windows(2).all(|w| w[0].2 == w[1].2);
                if same {
                    let froms: Vec<u64> = takes.iter().map(|t| t.1).collect();
                    format!("take {} from each of the piles of {}", takes[0].2, and_list(&froms))
                } else {
                    let parts: Vec<String> =
                        takes.iter().map(|(_, from, a)| format!("{a} from the pile of {from}")).collect();
                    format!("take {}", join_and(&parts))
                }
            }
            MoveKind::Split { from, parts, .. } => {
                format!("split the pile of {from} into {}", and_list(parts))
            }
            MoveKind::Bite { column, row } => format!("bite the square ({column}, {row})"),
            MoveKind::Add { from, amount, .. } => format!("add {amount} to the pile of {from}"),
            MoveKind::Turn { coin, others } if others.is_empty() => format!("turn coin {coin} to tails"),
            MoveKind::Turn { coin, others } => {
                let word = if others.len() == 1 { "coin" } else { "coins" };
                format!("turn coin {coin} to tails, and {word} {} over", and_list(others))
            }
            MoveKind::Cell { cell: (x, y), first, second, leaves, coins } => {
                let by = |side: &Option<(String, Box<MoveKind>)>, axis: &str, at: u64| {
                    side.as_ref().map(|(game, kind)| format!("{game} on {axis} = {at} ({})", kind.describe()))
                };
                let how: Vec<String> = [by(first, "x", *x), by(second, "y", *y)].into_iter().flatten().collect();
                let cells: Vec<String> = leaves.iter().map(|(a, b)| format!("({a}, {b})")).collect();
                let result = match (coins, cells.is_empty()) {
                    (true, true) => format!("turns ({x}, {y}) to tails"),
                    (true, false) => format!("turns ({x}, {y}) to tails, and {} over", join_and(&cells)),
                    (false, true) => "leaves nothing".to_string(),
                    (false, false) => format!("leaves {}", join_and(&cells)),
                };
                format!("({x}, {y}) by {}: {result}", how.join(" with "))
            }
        }
    }
}

fn and_list(values: &[u64]) -> String {
    join_and(&values.iter().map(|v| v.to_string()).collect::<Vec<_>>())
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

/// The most pile sizes the moves of one position may hold together (512 MiB of them).
const MAX_NUMBERS_KEPT: usize = 64 << 20;

/// Collects moves and enforces the per-position limit.
struct Sink<'a> {
    out: Vec<Move>,
    limit: usize,
    pos: &'a Position,
    history: bool,
    /// Numbers held by the moves so far, counting each move's own bookkeeping as a few more:
    /// a move may leave more piles (or coins) than the position had.
    kept: usize,
    /// Amounts tried, kept or not: a rule with a condition may try many to keep a few, and
    /// the trying is the work.
    tried: std::cell::Cell<u64>,
    /// Whether a rule's amounts past the limit are cut off rather than refused (`some_moves`).
    truncate: bool,
}

/// What one move costs besides its numbers, in numbers (its vectors and description).
const MOVE_OVERHEAD: usize = 12;

impl Sink<'_> {
    fn push(&mut self, rule: &Rule, kind: MoveKind, piles: Vec<u64>, removed: u64) -> Result<(), MoveError> {
        let described = match &kind {
            MoveKind::Turn { others, .. } => others.len(),
            MoveKind::Take { left, .. } => left.len(),
            MoveKind::Split { parts, .. } => parts.len(),
            MoveKind::TakeSeveral { takes } => 3 * takes.len(),
            MoveKind::Add { .. } | MoveKind::Bite { .. } => 0,
            MoveKind::Cell { leaves, .. } => 2 * leaves.len(),
        };
        self.kept += piles.len() + described + MOVE_OVERHEAD;
        if self.out.len() >= self.limit || self.kept > MAX_NUMBERS_KEPT {
            return Err(MoveError::TooManyMoves {
                span: rule.span,
                position: self.pos.short_text(),
                // Where memory ran out first, the moves held then are the limit that applied.
                limit: self.out.len().min(self.limit),
            });
        }
        let last = if self.history { Some(removed) } else { None };
        self.out.push(Move { rule: rule.span, kind, to: Position { piles, last, cells: false } });
        Ok(())
    }

    /// More ways to split than the limit: the first ones are kept where the listing may stop
    /// short (`truncate`, for a lower bound), else the limit is the error.
    fn cut(&self, rule: &Rule) -> Result<(), MoveError> {
        if self.truncate {
            Ok(())
        } else {
            Err(self.too_many(rule))
        }
    }

    fn too_many(&self, rule: &Rule) -> MoveError {
        MoveError::TooManyMoves { span: rule.span, position: self.pos.short_text(), limit: self.limit }
    }
}

impl Game {
    /// Every move from `pos`. More than `limit` moves is an error rather than a huge allocation.
    pub fn moves(&self, pos: &Position, limit: usize) -> Result<Vec<Move>, MoveError> {
        self.moves_by(pos, limit, None).map(|(moves, _)| moves)
    }

    /// Every move from `pos`, and what listing them cost: the moves, and every amount tried
    /// (a condition such as `where t ≥ last` may try many amounts to keep a few).
    pub(crate) fn moves_counted(&self, pos: &Position, limit: usize) -> Result<(Vec<Move>, u64), MoveError> {
        self.moves_by(pos, limit, None)
    }

    /// The amounts `rule` (a take) allows where a pile or cap of `cap` is read with `env`, in
    /// increasing order after its condition: what the listing of moves tries, without a move
    /// built for each. `at` names the position in a failure's message. The compiled engines
    /// read their option sets through this, so that every amount means what it means here.
    pub(crate) fn rule_amounts(rule: &Rule, env: &Env, cap: u64, at: &Position) -> Result<Vec<u64>, MoveError> {
        let amount = match &rule.kind {
            RuleKind::Take { amount, .. } => amount,
            _ => return Ok(Vec::new()),
        };
        let sink = Sink {
            out: Vec::new(),
            limit: usize::MAX,
            pos: at,
            history: false,
            kept: 0,
            tried: Default::default(),
            truncate: false,
        };
        amounts(amount, rule, env, cap, &sink)
    }

    /// Whether `rule`, a pair take, allows `first` from one pile and `second` from the other
    /// (its condition read with the names either way round, as the listing reads it).
    pub(crate) fn pair_allowed(rule: &Rule, first: u64, second: u64, last: Option<i64>) -> Result<bool, MoveError> {
        let Some(c) = &rule.condition else { return Ok(true) };
        let read = |a: u64, b: u64| c.truth(&Env { pair: Some((a as i64, b as i64)), last, ..Env::default() });
        Ok(read(first, second)? || read(second, first)?)
    }

    /// The moves `side` may make from `pos` in a partizan game: its own and those of `move:`.
    pub(crate) fn moves_of(&self, pos: &Position, side: Side, limit: usize) -> Result<Vec<Move>, MoveError> {
        self.moves_by(pos, limit, Some(side)).map(|(moves, _)| moves)
    }

    /// The first moves from `pos`, at most `limit` of them (all, when fewer): for a lower bound
    /// that needs some moves, where listing every one would hold too much. Past the limit the
    /// listing stops instead of failing.
    /// In a partizan game, the moves of both players, Left's first.
    pub fn some_moves(&self, pos: &Position, limit: usize) -> Result<Vec<Move>, MoveError> {
        let sides: &[Option<Side>] = if self.is_partizan() { &[Some(Side::Left), Some(Side::Right)] } else { &[None] };
        let mut all = Vec::new();
        for &side in sides {
            match self.list_moves(pos, limit.saturating_sub(all.len()), side, true) {
                (Ok(()) | Err(MoveError::TooManyMoves { .. }), moves, _) => all.extend(moves),
                (Err(e), _, _) => return Err(e),
            }
        }
        Ok(all)
    }

    fn moves_by(&self, pos: &Position, limit: usize, side: Option<Side>) -> Result<(Vec<Move>, u64), MoveError> {
        let (listed, moves, cost) = self.list_moves(pos, limit, side, false);
        listed.map(|()| (moves, cost))
    }

    /// The moves listed, and whether the listing finished: past the limit it stops with the
    /// moves listed so far.
    fn list_moves(
        &self,
        pos: &Position,
        limit: usize,
        side: Option<Side>,
        truncate: bool,
    ) -> (Result<(), MoveError>, Vec<Move>, u64) {
        // Every move stores a whole position: bound the numbers kept, not only the moves.
        let per_move = pos.piles.len().max(1) + 1;
        let limit = limit.min((MAX_NUMBERS_KEPT / per_move).max(1));
        if let Some(product) = &self.product {
            return match self.product_moves(product, pos, limit) {
                Ok(moves) => {
                    let cost = moves.len() as u64;
                    (Ok(()), moves, cost)
                }
                Err(e) => (Err(e), Vec::new(), 0),
            };
        }
        let mut sink = Sink {
            out: Vec::new(),
            limit,
            pos,
            history: self.tracks_history(),
            kept: 0,
            tried: Default::default(),
            truncate,
        };
        let listed = self.list_into(pos, side, &mut sink);
        let cost = sink.tried.get().max(sink.out.len() as u64);
        for m in &mut sink.out {
            leave_no_empty_pile(self.board, pos, &mut m.to);
        }
        (listed, sink.out, cost)
    }

    fn list_into(&self, pos: &Position, side: Option<Side>, sink: &mut Sink) -> Result<(), MoveError> {
        let last = pos.last.map(|l| l as i64);
        // The piles a one-pile rule acts on, found once for every rule (a game may have
        // thousands of rules).
        let distinct = distinct_piles(&pos.piles, self.board);
        for rule in self.rules_for(pos) {
            if side.is_some() && rule.side.is_some() && rule.side != side {
                continue;
            }
            match &rule.kind {
                RuleKind::Bite { except } => self.bites(rule, *except, sink)?,
                RuleKind::Take { piles, .. } if !piles.is_one() => self.take_several(rule, *piles, last, sink)?,
                RuleKind::TakePair => self.take_pair(rule, last, sink)?,
                _ => {
                    for &(index, n) in &distinct {
                        self.one_pile_moves(rule, index, n, last, sink)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn one_pile_moves(
        &self,
        rule: &Rule,
        index: usize,
        n: u64,
        last: Option<i64>,
        sink: &mut Sink,
    ) -> Result<(), MoveError> {
        let base = Env { n: Some(n as i64), t: None, last, pair: None };
        let replace = |left: &[u64]| -> Vec<u64> {
            let mut piles = sink.pos.piles.clone();
            if left.is_empty() {
                piles[index] = 0;
            } else {
                piles.splice(index..=index, left.iter().copied());
            }
            piles
        };
        match &rule.kind {
            RuleKind::Take { amount, then_split, .. } => {
                for t in amounts(amount, rule, &base, n, sink)? {
                    let rest = n - t;
                    let mut lefts: Vec<Vec<u64>> = Vec::new();
                    lefts.push(if rest == 0 { vec![] } else { vec![rest] });
                    if let Some(spec) = then_split {
                        partitions(rest, spec, &mut lefts, sink.limit).or_else(|()| sink.cut(rule))?;
                    }
                    for left in lefts {
                        let piles = replace(&left);
                        let kind = MoveKind::Take { pile: index, from: n, amount: t, left };
                        sink.push(rule, kind, piles, t)?;
                    }
                }
            }
            RuleKind::Add { amount } => {
                // Bounded so that the new pile fits; the rule's own bound is what matters.
                let room = (i64::MAX as u64) - n;
                for t in amounts(amount, rule, &base, room, sink)? {
                    let piles = replace(&[n + t]);
                    sink.push(rule, MoveKind::Add { pile: index, from: n, amount: t }, piles, t)?;
                }
            }
            RuleKind::Split(spec) => {
                if let Some(c) = &rule.condition {
                    if !c.truth(&base)? {
                        return Ok(());
                    }
                }
                let mut all = Vec::new();
                partitions(n, spec, &mut all, sink.limit).or_else(|()| sink.cut(rule))?;
                for parts in all {
                    let piles = replace(&parts);
                    sink.push(rule, MoveKind::Split { pile: index, from: n, parts }, piles, 0)?;
                }
            }
            RuleKind::Octal { digits } => {
                self.code_moves(rule, &TakeBreakCode::from_octal(digits), index, n, &base, &replace, sink)?
            }
            RuleKind::Code(code) => self.code_moves(rule, code, index, n, &base, &replace, sink)?,
            RuleKind::Bite { .. } => unreachable!("bites are generated on rows"),
            RuleKind::TakePair => unreachable!("pair takes are generated on two piles"),
            RuleKind::Turn { count, shapes } => {
                let counts = amounts(count, rule, &base, n, sink)?;
                let pos = sink.pos;
                // One move turning more coins than the moves of a position may hold in all is
                // refused before its coins are listed.
                if counts.iter().any(|&c| c as usize > MAX_NUMBERS_KEPT / 2 && c <= n) {
                    return Err(sink.too_many(rule));
                }
                let (limit, span) = (sink.limit, rule.span);
                let too_many = || MoveError::TooManyMoves { span, position: pos.short_text(), limit };
                coin_sets(n, &counts, shapes, limit, &too_many, &mut |others| {
                    let piles = turned(&pos.piles, index, others);
                    let kind = MoveKind::Turn { coin: n, others: others.to_vec() };
                    sink.push(rule, kind, piles, others.len() as u64 + 1)
                })?;
            }
        }
        Ok(())
    }

    /// The moves a take-and-break code allows on the pile at `index`, of size `n`.
    #[allow(clippy::too_many_arguments)]
    fn code_moves(
        &self,
        rule: &Rule,
        code: &TakeBreakCode,
        index: usize,
        n: u64,
        base: &Env,
        replace: &dyn Fn(&[u64]) -> Vec<u64>,
        sink: &mut Sink,
    ) -> Result<(), MoveError> {
        let most = code.most_taken().map_or(n, |m| m.min(n));
        for t in 0..=most {
            let Some(digit) = code.digit(t) else { continue };
            if digit.counts.is_empty() {
                continue;
            }
            if let Some(c) = &rule.condition {
                if !c.truth(&Env { t: Some(t as i64), ..*base })? {
                    continue;
                }
            }
            let rest = n - t;
            let mut lefts: Vec<Vec<u64>> = Vec::new();
            for count in &digit.counts {
                let most_heaps = count.max.map_or(rest, |m| (m as u64).min(rest));
                for k in count.min as u64..=most_heaps {
                    match k {
                        0 if rest == 0 && t > 0 => lefts.push(vec![]),
                        1 if rest >= 1 && t > 0 => lefts.push(vec![rest]),
                        0 | 1 => {}
                        _ => {
                            let shape = match count.shape {
                                Some(CodeShape::Unequal) => Some(SplitShape::Unequal),
                                Some(CodeShape::Equal) => Some(SplitShape::Equal),
                                _ => None,
                            };
                            let spec = SplitSpec { parts: k as usize, shape, optional: false };
                            let from = lefts.len();
                            partitions(rest, &spec, &mut lefts, sink.limit).or_else(|()| sink.cut(rule))?;
                            if count.shape == Some(CodeShape::NotAllEqual) {
                                let kept: Vec<Vec<u64>> =
                                    lefts.drain(from..).filter(|p| p.windows(2).any(|w| w[0] != w[1])).collect();
                                lefts.extend(kept);
                            }
                        }
                    }
                }
            }
            // Two counts of a digit may leave the same heaps: keep the first, in the code's order.
            let mut seen = std::collections::HashSet::new();
            lefts.retain(|l| seen.insert(l.clone()));
            for left in lefts {
                let piles = replace(&left);
                let kind = if t == 0 {
                    MoveKind::Split { pile: index, from: n, parts: left }
                } else {
                    MoveKind::Take { pile: index, from: n, amount: t, left }
                };
                sink.push(rule, kind, piles, t)?;
            }
        }
        Ok(())
    }

    fn take_several(
        &self,
        rule: &Rule,
        sel: PileSelection,
        last: Option<i64>,
        sink: &mut Sink,
    ) -> Result<(), MoveError> {
        let RuleKind::Take { amount, .. } = &rule.kind else { unreachable!("take_several on a take") };
        let nonempty: Vec<usize> = (0..sink.pos.piles.len()).filter(|&i| sink.pos.piles[i] > 0).collect();
        let mut seen_sizes: Vec<Vec<u64>> = Vec::new();
        for size in sel.min..=sel.max.min(nonempty.len()) {
            for combo in combinations(&nonempty, size) {
                // Choosing piles of the same sizes again gives the same moves up to order.
                let mut sizes: Vec<u64> = combo.iter().map(|&i| sink.pos.piles[i]).collect();
                sizes.sort_unstable();
                if self.board != Board::Rows && seen_sizes.contains(&sizes) {
                    continue;
                }
                seen_sizes.push(sizes);
                if sel.independent {
                    let mut options: Vec<Vec<u64>> = Vec::new();
                    for &i in &combo {
                        let n = sink.pos.piles[i];
                        let env = Env { n: Some(n as i64), t: None, last, pair: None };
                        options.push(amounts(amount, rule, &env, n, sink)?);
                    }
                    if options.iter().any(|o| o.is_empty()) {
                        continue;
                    }
                    // Every combination of one amount per pile, counted like an odometer.
                    let mut choice = vec![0usize; combo.len()];
                    'combinations: loop {
                        let takes: Vec<(usize, u64, u64)> = combo
                            .iter()
                            .enumerate()
                            .map(|(k, &i)| (i, sink.pos.piles[i], options[k][choice[k]]))
                            .collect();
                        let mut piles = sink.pos.piles.clone();
                        let mut removed = 0u64;
                        for &(i, _, a) in &takes {
                            piles[i] -= a;
                            removed += a;
                        }
                        sink.push(rule, MoveKind::TakeSeveral { takes }, piles, removed)?;
                        let mut k = 0;
                        loop {
                            if k == choice.len() {
                                break 'combinations;
                            }
                            choice[k] += 1;
                            if choice[k] < options[k].len() {
                                break;
                            }
                            choice[k] = 0;
                            k += 1;
                        }
                    }
                } else {
                    let cap = combo.iter().map(|&i| sink.pos.piles[i]).min().unwrap_or(0);
                    let env = Env { n: None, t: None, last, pair: None };
                    for t in amounts(amount, rule, &env, cap, sink)? {
                        let mut piles = sink.pos.piles.clone();
                        let takes: Vec<(usize, u64, u64)> = combo.iter().map(|&i| (i, sink.pos.piles[i], t)).collect();
                        for &i in &combo {
                            piles[i] -= t;
                        }
                        let removed = t * combo.len() as u64;
                        sink.push(rule, MoveKind::TakeSeveral { takes }, piles, removed)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `take k from one pile and l from the other where …`: a from one pile and b from another,
    /// allowed when the condition holds with the names either way round.
    fn take_pair(&self, rule: &Rule, last: Option<i64>, sink: &mut Sink) -> Result<(), MoveError> {
        let piles = &sink.pos.piles;
        let allowed = |first: u64, second: u64| match &rule.condition {
            None => Ok(true),
            Some(c) => c.truth(&Env { pair: Some((first as i64, second as i64)), last, ..Env::default() }),
        };
        let mut seen_sizes: Vec<(u64, u64)> = Vec::new();
        for i in 0..piles.len() {
            for j in i + 1..piles.len() {
                let (x, y) = (piles[i].min(piles[j]), piles[i].max(piles[j]));
                if x == 0 || seen_sizes.contains(&(x, y)) {
                    continue;
                }
                seen_sizes.push((x, y));
                for a in 1..=piles[i] {
                    for b in 1..=piles[j] {
                        if !(allowed(a, b)? || allowed(b, a)?) {
                            continue;
                        }
                        let mut next = piles.clone();
                        next[i] -= a;
                        next[j] -= b;
                        let takes = vec![(i, piles[i], a), (j, piles[j], b)];
                        sink.push(rule, MoveKind::TakeSeveral { takes }, next, a + b)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn bites(&self, rule: &Rule, except: Option<(u64, u64)>, sink: &mut Sink) -> Result<(), MoveError> {
        let rows = &sink.pos.piles;
        for (r, &len) in rows.iter().enumerate() {
            let row = r as u64 + 1;
            for column in 1..=len {
                if except == Some((column, row)) {
                    continue;
                }
                let mut next = rows.clone();
                let mut removed = 0;
                for cell in next.iter_mut().skip(r) {
                    let keep = (*cell).min(column - 1);
                    removed += *cell - keep;
                    *cell = keep;
                }
                while next.last() == Some(&0) {
                    next.pop();
                }
                sink.push(rule, MoveKind::Bite { column, row }, next, removed)?;
            }
        }
        Ok(())
    }
}

/// Indices of the piles worth moving on: for interchangeable piles, one of each size.
/// The heads coins after coin `piles[index]` goes to tails and each of `others` turns over:
/// the symmetric difference of two sorted lists, in one pass (a move may turn a million coins).
fn turned(piles: &[u64], index: usize, others: &[u64]) -> Vec<u64> {
    let mut heads: Vec<u64> = piles.iter().enumerate().filter(|&(i, _)| i != index).map(|(_, &c)| c).collect();
    heads.sort_unstable();
    let mut turning = others.to_vec();
    turning.sort_unstable();
    let mut out = Vec::with_capacity(heads.len() + turning.len());
    let (mut i, mut j) = (0, 0);
    while i < heads.len() || j < turning.len() {
        match (heads.get(i), turning.get(j)) {
            (Some(h), Some(t)) if h == t => {
                i += 1;
                j += 1;
            }
            (Some(&h), Some(&t)) if h < t => {
                out.push(h);
                i += 1;
            }
            (Some(&h), None) => {
                out.push(h);
                i += 1;
            }
            (_, Some(&t)) => {
                out.push(t);
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while one list has items"),
        }
    }
    out
}

/// Every set of coins left of coin `n` that a turning move may take with it: `counts` coins in
/// all (n included), in the shapes asked for. Each set goes to `emit`, ascending.
fn coin_sets(
    n: u64,
    counts: &[u64],
    shapes: &CoinShapes,
    limit: usize,
    too_many: &dyn Fn() -> MoveError,
    emit: &mut dyn FnMut(&[u64]) -> Result<(), MoveError>,
) -> Result<(), MoveError> {
    // Choosing k of `len` coins, 0 < k < len, makes at least `len` sets: past the limit on
    // moves, refused before the coins to choose from are listed (a coin at 10¹² would list
    // 10¹² of them).
    let listable = |len: u64, k: u64| -> Result<(), MoveError> {
        if len > limit as u64 && k > 0 && k < len {
            return Err(too_many());
        }
        Ok(())
    };
    // The leftmost coin a set may reach.
    let lowest = match shapes.within {
        Some(w) => n.saturating_sub(w.saturating_sub(1)).max(1),
        None => 1,
    };
    if shapes.includes_first && lowest > 1 {
        return Ok(());
    }
    for &c in counts {
        if c == 1 {
            if !shapes.includes_first || n == 1 {
                emit(&[])?;
            }
            continue;
        }
        if c > n {
            continue;
        }
        if shapes.consecutive || shapes.equally_spaced {
            // Spacing d: coins n − (c−1)d, …, n − d; such a set is symmetric too.
            let widest = if shapes.consecutive { 1 } else { (n - 1) / (c - 1) };
            for d in 1..=widest {
                let low = n - (c - 1) * d;
                if low < lowest || (shapes.includes_first && low != 1) {
                    continue;
                }
                let others: Vec<u64> = (0..c - 1).map(|i| low + i * d).collect();
                emit(&others)?;
            }
        } else if shapes.symmetric {
            // Leftmost coin m; every coin x between has its mirror m + n − x.
            let lows = if shapes.includes_first { 1..=1 } else { lowest..=n - 1 };
            for m in lows {
                // Coins m+1 … below the middle, each chosen with its mirror.
                let slots = (n - m - 1) / 2;
                let centre = (m + n).is_multiple_of(2) && n - m >= 2;
                for with_centre in [false, true] {
                    if with_centre && !centre {
                        continue;
                    }
                    let Some(inner) = (c - 2).checked_sub(with_centre as u64) else { continue };
                    if !inner.is_multiple_of(2) || inner / 2 > slots {
                        continue;
                    }
                    listable(slots, inner / 2)?;
                    // Listed only when some are chosen, so that the work follows the moves made.
                    let left_slots: Vec<u64> = if inner == 0 { Vec::new() } else { (m + 1..=m + slots).collect() };
                    choose(&left_slots, (inner / 2) as usize, &mut |chosen| {
                        let mut others = vec![m];
                        others.extend(chosen.iter().flat_map(|&x| [x, m + n - x]));
                        if with_centre {
                            others.push((m + n) / 2);
                        }
                        others.sort_unstable();
                        emit(&others)
                    })?;
                }
            }
        } else if shapes.includes_first {
            listable(n.saturating_sub(2), c - 2)?;
            let rest: Vec<u64> = (2..n).collect();
            choose(&rest, (c - 2) as usize, &mut |chosen| {
                let mut others = vec![1];
                others.extend_from_slice(chosen);
                emit(&others)
            })?;
        } else {
            listable(n - lowest, c - 1)?;
            let rest: Vec<u64> = (lowest..n).collect();
            choose(&rest, (c - 1) as usize, emit)?;
        }
    }
    Ok(())
}

/// Every choice of `k` of `items`, in order, each passed to `emit`. Iterative: `k` may be large.
fn choose(items: &[u64], k: usize, emit: &mut dyn FnMut(&[u64]) -> Result<(), MoveError>) -> Result<(), MoveError> {
    let len = items.len();
    if k > len {
        return Ok(());
    }
    // The chosen indices, increasing; index i may go up to len - k + i.
    let mut at: Vec<usize> = (0..k).collect();
    let mut current: Vec<u64> = at.iter().map(|&i| items[i]).collect();
    loop {
        emit(&current)?;
        let Some(i) = (0..k).rev().find(|&i| at[i] < len - k + i) else { return Ok(()) };
        at[i] += 1;
        current[i] = items[at[i]];
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
            current[j] = items[at[j]];
        }
    }
}

fn distinct_piles(piles: &[u64], board: Board) -> Vec<(usize, u64)> {
    let non_empty = piles.iter().copied().enumerate().filter(|&(_, n)| n > 0);
    if board == Board::Rows {
        return non_empty.collect();
    }
    // A few piles are compared with each other; many go through a set.
    if piles.len() <= 16 {
        let mut out: Vec<(usize, u64)> = Vec::with_capacity(piles.len());
        for (i, n) in non_empty {
            if !out.iter().any(|&(_, m)| m == n) {
                out.push((i, n));
            }
        }
        return out;
    }
    let mut seen = std::collections::HashSet::new();
    non_empty.filter(|&(_, n)| seen.insert(n)).collect()
}

fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(items: &[usize], k: usize, start: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..items.len() {
            current.push(items[i]);
            go(items, k, i + 1, current, out);
            current.pop();
        }
    }
    if k > 0 {
        go(items, k, 0, &mut current, &mut out);
    }
    out
}

/// The amounts a rule allows from a pile of `cap` (for an add: at most `cap`), in increasing
/// order, after its condition.
fn amounts(amount: &Amount, rule: &Rule, env: &Env, cap: u64, sink: &Sink) -> Result<Vec<u64>, MoveError> {
    let cap_i = cap as i64;
    // Candidates may include 0 (a rule taking nothing) but never more than the pile.
    let mut candidates: Vec<i64> = Vec::new();
    let add_range = |lo: i64, hi: i64, out: &mut Vec<i64>| -> Result<(), MoveError> {
        let (lo, mut hi) = (lo.max(0), hi.min(cap_i));
        if lo > hi {
            return Ok(());
        }
        if sink.truncate {
            // The first amounts only, as many as the moves still to list.
            hi = hi.min(lo.saturating_add(sink.limit.saturating_sub(out.len()) as i64));
        }
        if (hi - lo) as u128 + out.len() as u128 > sink.limit as u128 {
            return Err(sink.too_many(rule));
        }
        out.extend(lo..=hi);
        Ok(())
    };
    match amount {
        Amount::Any => add_range(1, cap_i, &mut candidates)?,
        Amount::AnyExcept(list) => {
            let mut excluded = Vec::new();
            for c in list {
                match c {
                    Choice::Value(e) => excluded.push((e.int(env)?, e.int(env)?)),
                    Choice::Range(a, b) => excluded.push((a.int(env)?, b.int(env)?)),
                }
            }
            add_range(1, cap_i, &mut candidates)?;
            candidates.retain(|t| !excluded.iter().any(|(a, b)| a <= t && t <= b));
        }
        Amount::Bound(op, e) => {
            let v = e.int(env)?;
            match op {
                CmpOp::Le => add_range(1, v, &mut candidates)?,
                CmpOp::Lt => add_range(1, v.saturating_sub(1), &mut candidates)?,
                CmpOp::Ge => add_range(v.max(1), cap_i, &mut candidates)?,
                CmpOp::Gt => add_range(v.saturating_add(1).max(1), cap_i, &mut candidates)?,
                CmpOp::Eq => add_range(v, v, &mut candidates)?,
                CmpOp::Ne => {
                    add_range(1, cap_i, &mut candidates)?;
                    candidates.retain(|&t| t != v);
                }
            }
        }
        Amount::Choices(list) => {
            for c in list {
                match c {
                    Choice::Value(e) => {
                        let v = e.int(env)?;
                        add_range(v, v, &mut candidates)?;
                    }
                    Choice::Range(a, b) => {
                        let (lo, hi) = (a.int(env)?, b.int(env)?);
                        add_range(lo, hi, &mut candidates)?;
                    }
                }
            }
            candidates.sort_unstable();
            candidates.dedup();
        }
    }
    // A rule that allows nothing here still cost its evaluation: thousands of such rules make a
    // position expensive without a single move to show for it.
    sink.tried.set(sink.tried.get() + candidates.len().max(1) as u64);
    let mut out = Vec::with_capacity(candidates.len());
    for t in candidates {
        if let Some(c) = &rule.condition {
            if !c.truth(&Env { t: Some(t), ..*env })? {
                continue;
            }
        }
        if t == 0 {
            return Err(MoveError::TakesNothing { span: rule.span, position: sink.pos.short_text() });
        }
        out.push(t as u64);
    }
    Ok(out)
}

/// Appends every way to split `total` into `spec.parts` non-empty piles (as multisets,
/// smallest first) that fits the shape. Fails when there would be more than `limit`.
fn partitions(total: u64, spec: &SplitSpec, out: &mut Vec<Vec<u64>>, limit: usize) -> Result<(), ()> {
    let k = spec.parts as u64;
    if total < k {
        return Ok(());
    }
    match spec.shape {
        Some(SplitShape::Equal) => {
            if total.is_multiple_of(k) {
                out.push(vec![total / k; spec.parts]);
            }
            Ok(())
        }
        shape => {
            let strict = shape == Some(SplitShape::Unequal);
            let mut current = Vec::with_capacity(spec.parts);
            fill(total, spec.parts, 1, strict, &mut current, out, limit)
        }
    }
}

fn fill(
    remaining: u64,
    parts_left: usize,
    min: u64,
    strict: bool,
    current: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
    limit: usize,
) -> Result<(), ()> {
    if parts_left == 1 {
        if remaining >= min {
            if out.len() >= limit {
                return Err(());
            }
            current.push(remaining);
            out.push(current.clone());
            current.pop();
        }
        return Ok(());
    }
    // The smallest part is at most remaining / parts_left, or the rest could not be at least as big.
    let mut part = min;
    while part.saturating_mul(parts_left as u64) <= remaining {
        current.push(part);
        let next_min = if strict { part + 1 } else { part };
        fill(remaining - part, parts_left - 1, next_min, strict, current, out, limit)?;
        current.pop();
        part += 1;
    }
    Ok(())
}
