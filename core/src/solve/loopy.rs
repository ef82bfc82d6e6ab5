//! Loopy games, where a rule adds counters and play may come back to a position it left.
//!
//! The positions reachable from a question form a finite graph (or the question is refused
//! with a diagnostic). On it:
//! - retrograde analysis, as Gamesman does it, gives each position P, N or D (a draw: neither
//!   player can force a win, so best play goes on forever) and the remoteness of P and N;
//! - under normal play, Smith's generalised Sprague–Grundy function γ gives each position a
//!   value: a number, or ∞(K) where K is the set of the numbers among its options' values.
//!   γ adds over sums of piles as Grundy values do, which is how a position of several piles
//!   is solved from single piles.
//!
//! New questions extend the graph; since old positions never gain moves, extending it and
//! labelling the whole graph again gives old positions the same labels.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use super::{Limits, Outcome, SolveError, Value, Work};
use crate::rules::{Convention, Game, Move, Position};

/// A loopy game's position costs about this many of a search's in memory (it keeps its moves
/// and the moves into it), so the graph holds at most this fraction of `--max-states`: the
/// default then refuses an ever-growing game in about a second, in about 150 MB.
const LOOPY_STATE_COST: usize = 8;

/// Smith's generalised Sprague–Grundy value of a position of a loopy game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopyValue {
    /// A Grundy value, as in a game that always ends.
    Finite(u64),
    /// ∞(K): K holds the finite values among the options' values, in increasing order.
    Infinite(Vec<u64>),
}

impl LoopyValue {
    /// P when 0; N when some option has value 0; otherwise a draw.
    pub fn outcome(&self) -> Outcome {
        match self {
            LoopyValue::Finite(0) => Outcome::P,
            LoopyValue::Finite(_) => Outcome::N,
            LoopyValue::Infinite(k) if k.contains(&0) => Outcome::N,
            LoopyValue::Infinite(_) => Outcome::D,
        }
    }

    /// The value of a sum (Smith): numbers add by XOR, a number shifts the set of an ∞, and
    /// two ∞ make ∞(∅), a draw.
    pub(crate) fn sum(values: &[LoopyValue]) -> LoopyValue {
        let mut nim = 0u64;
        let mut infinite: Option<&Vec<u64>> = None;
        for v in values {
            match v {
                LoopyValue::Finite(g) => nim ^= g,
                LoopyValue::Infinite(k) => {
                    if infinite.is_some() {
                        return LoopyValue::Infinite(Vec::new());
                    }
                    infinite = Some(k);
                }
            }
        }
        match infinite {
            None => LoopyValue::Finite(nim),
            Some(k) => {
                let mut shifted: Vec<u64> = k.iter().map(|g| g ^ nim).collect();
                shifted.sort_unstable();
                LoopyValue::Infinite(shifted)
            }
        }
    }
}

impl fmt::Display for LoopyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyValue::Finite(g) => write!(f, "{g}"),
            LoopyValue::Infinite(k) if k.is_empty() => f.write_str("∞"),
            LoopyValue::Infinite(k) => {
                let list: Vec<String> = k.iter().map(|g| g.to_string()).collect();
                write!(f, "∞({})", list.join(","))
            }
        }
    }
}

/// The positions reachable from every question asked so far, with their moves and labels.
#[derive(Default)]
struct Graph {
    nodes: Vec<Position>,
    index: HashMap<Position, u32>,
    /// Distinct canonical options of each node.
    children: Vec<Vec<u32>>,
    /// Labels of nodes below `labelled`.
    labelled: usize,
    outcome: Vec<Outcome>,
    remoteness: Vec<Option<u64>>,
    value: Vec<LoopyValue>,
    work: Work,
}

impl Graph {
    /// The node of `root` (canonical), with everything reachable from it explored and labelled.
    fn node(&mut self, game: &Game, root: Position, limits: &Limits) -> Result<u32, SolveError> {
        if let Some(&i) = self.index.get(&root) {
            return Ok(i);
        }
        let explored = self.explore(game, root, limits).and_then(|i| {
            self.label(game.convention, limits)?;
            Ok(i)
        });
        if explored.is_err() {
            self.forget_unfinished();
        }
        explored
    }

    /// Adds `root` and every position reachable from it, breadth first.
    fn explore(&mut self, game: &Game, root: Position, limits: &Limits) -> Result<u32, SolveError> {
        let mut queue = VecDeque::new();
        let root_index = self.add(root, game, limits)?;
        queue.push_back(root_index);
        while let Some(i) = queue.pop_front() {
            let moves = game.moves(&self.nodes[i as usize], limits.max_states)?;
            self.work.add(moves.len(), limits)?;
            let mut kids = Vec::with_capacity(moves.len());
            for m in moves {
                let to = game.canonical(&m.to);
                let k = match self.index.get(&to) {
                    Some(&k) => k,
                    None => {
                        let k = self.add(to, game, limits)?;
                        queue.push_back(k);
                        k
                    }
                };
                kids.push(k);
            }
            kids.sort_unstable();
            kids.dedup();
            self.children[i as usize] = kids;
        }
        Ok(root_index)
    }

    fn add(&mut self, pos: Position, game: &Game, limits: &Limits) -> Result<u32, SolveError> {
        let most = (limits.max_states / LOOPY_STATE_COST).max(1);
        if self.nodes.len() >= most {
            return Err(SolveError::LoopyTooLarge {
                span: game.adding_rule().map(|r| r.span).unwrap_or_default(),
                limit: most as u64,
                suggested: limits.max_states.saturating_mul(4),
            });
        }
        let i = self.nodes.len() as u32;
        self.index.insert(pos.clone(), i);
        self.nodes.push(pos);
        self.children.push(Vec::new());
        Ok(i)
    }

    /// After a refused question, drops the positions whose moves were not all explored, so that
    /// the graph stays closed under moves.
    fn forget_unfinished(&mut self) {
        for pos in self.nodes.drain(self.labelled..) {
            self.index.remove(&pos);
        }
        self.children.truncate(self.labelled);
        self.outcome.truncate(self.labelled);
        self.remoteness.truncate(self.labelled);
        self.value.truncate(self.labelled);
    }

    fn label(&mut self, convention: Convention, limits: &Limits) -> Result<(), SolveError> {
        let parents = self.parents();
        let (outcome, remoteness) = retrograde(&self.children, &parents, convention);
        self.outcome = outcome;
        self.remoteness = remoteness;
        if convention == Convention::Normal {
            self.value = generalised_grundy(&self.children, &parents, limits)?;
        }
        self.labelled = self.nodes.len();
        Ok(())
    }

    fn parents(&self) -> Vec<Vec<u32>> {
        let mut parents = vec![Vec::new(); self.nodes.len()];
        for (i, kids) in self.children.iter().enumerate() {
            for &k in kids {
                parents[k as usize].push(i as u32);
            }
        }
        parents
    }
}

/// Outcomes and remoteness by retrograde analysis: from the positions where the game is over,
/// back along the moves. A position with a move to a P-position is N; one whose every move
/// leads to an N-position is P; what is never reached this way is a draw. Positions are
/// decided in order of remoteness, so the first P-option found is the quickest win and the
/// last N-option the longest loss.
fn retrograde(children: &[Vec<u32>], parents: &[Vec<u32>], convention: Convention) -> (Vec<Outcome>, Vec<Option<u64>>) {
    let n = children.len();
    let mut outcome = vec![Outcome::D; n];
    let mut remoteness: Vec<Option<u64>> = vec![None; n];
    let mut undecided_options: Vec<usize> = children.iter().map(|c| c.len()).collect();
    let mut queue = VecDeque::new();
    // Whoever cannot move has lost under normal play and won under misère play.
    let over = match convention {
        Convention::Normal => Outcome::P,
        Convention::Misere => Outcome::N,
    };
    for (i, kids) in children.iter().enumerate() {
        if kids.is_empty() {
            outcome[i] = over;
            remoteness[i] = Some(0);
            queue.push_back(i);
        }
    }
    while let Some(v) = queue.pop_front() {
        let r = remoteness[v].map(|r| r + 1);
        for &p in &parents[v] {
            let p = p as usize;
            if remoteness[p].is_some() {
                continue;
            }
            if outcome[v] == Outcome::P {
                outcome[p] = Outcome::N;
                remoteness[p] = r;
                queue.push_back(p);
            } else {
                undecided_options[p] -= 1;
                if undecided_options[p] == 0 {
                    outcome[p] = Outcome::P;
                    remoteness[p] = r;
                    queue.push_back(p);
                }
            }
        }
    }
    (outcome, remoteness)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Unlabelled,
    Finite(u64),
    Infinite,
}

/// Smith's generalised Sprague–Grundy function, by Fraenkel and Yesha's labelling in stages
/// i = 0, 1, 2, …: a position gets i when none of its options has i and every option that is
/// unlabelled or ∞ can move to an i; then every unlabelled position with no option labelled i
/// is ∞. Each stage is one pass over the moves with counters instead of a repeated sweep.
fn generalised_grundy(
    children: &[Vec<u32>],
    parents: &[Vec<u32>],
    limits: &Limits,
) -> Result<Vec<LoopyValue>, SolveError> {
    let n = children.len();
    let mut label = vec![Label::Unlabelled; n];
    let mut unlabelled = n;
    let mut stage = 0u64;
    let mut work = Work::default();
    while unlabelled > 0 {
        work.add(n + parents.iter().map(Vec::len).sum::<usize>(), limits)?;
        // has_option_i[v]: some option of v is labelled i (this stage).
        let mut has_option_i = vec![false; n];
        // blockers[u]: options of u that are unlabelled or ∞ and cannot yet move to an i.
        let mut blockers: Vec<usize> =
            children.iter().map(|kids| kids.iter().filter(|&&k| !is_finite(label[k as usize])).count()).collect();
        let mut ready: Vec<usize> = (0..n).filter(|&u| label[u] == Label::Unlabelled && blockers[u] == 0).collect();
        while let Some(u) = ready.pop() {
            if label[u] != Label::Unlabelled || has_option_i[u] || blockers[u] != 0 {
                continue;
            }
            label[u] = Label::Finite(stage);
            unlabelled -= 1;
            for &p in &parents[u] {
                let p = p as usize;
                // u no longer blocks p: it is labelled now (and had no option labelled i).
                blockers[p] -= 1;
                if has_option_i[p] {
                    continue;
                }
                has_option_i[p] = true;
                // p can now move to an i, so it stops blocking its own parents.
                if label[p] == Label::Unlabelled || label[p] == Label::Infinite {
                    for &q in &parents[p] {
                        let q = q as usize;
                        blockers[q] -= 1;
                        if blockers[q] == 0 && label[q] == Label::Unlabelled && !has_option_i[q] {
                            ready.push(q);
                        }
                    }
                }
            }
            // p's blockers may have reached 0 through u itself.
            for &p in &parents[u] {
                let p = p as usize;
                if blockers[p] == 0 && label[p] == Label::Unlabelled && !has_option_i[p] {
                    ready.push(p);
                }
            }
        }
        for u in 0..n {
            if label[u] == Label::Unlabelled && !has_option_i[u] {
                label[u] = Label::Infinite;
                unlabelled -= 1;
            }
        }
        stage += 1;
    }
    Ok((0..n)
        .map(|u| match label[u] {
            Label::Finite(g) => LoopyValue::Finite(g),
            _ => {
                let mut k: Vec<u64> = children[u]
                    .iter()
                    .filter_map(|&c| match label[c as usize] {
                        Label::Finite(g) => Some(g),
                        _ => None,
                    })
                    .collect();
                k.sort_unstable();
                k.dedup();
                LoopyValue::Infinite(k)
            }
        })
        .collect())
}

fn is_finite(label: Label) -> bool {
    matches!(label, Label::Finite(_))
}

/// The solver for games whose rules add counters.
pub(crate) struct Loopy {
    /// Whole positions: outcomes, remoteness, and values where piles do not add up.
    whole: Graph,
    /// Single piles, when a position is a normal-play sum of them: γ of each pile.
    piles: Option<Graph>,
}

impl Loopy {
    pub(crate) fn new(game: &Game) -> Self {
        let piles = game.is_pile_sum().then(Graph::default);
        Loopy { whole: Graph::default(), piles }
    }

    /// γ of a position (normal play only): from its piles where they add up, else from the
    /// graph of whole positions.
    pub(crate) fn loopy_value(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
    ) -> Result<Option<LoopyValue>, SolveError> {
        if game.convention != Convention::Normal {
            return Ok(None);
        }
        let canonical = game.canonical(pos);
        if let Some(piles) = &mut self.piles {
            let mut parts = Vec::new();
            for &p in canonical.piles.iter().filter(|&&p| p > 0) {
                let single = game.canonical(&Position::new(vec![p]));
                let i = piles.node(game, single, limits)?;
                parts.push(piles.value[i as usize].clone());
            }
            return Ok(Some(LoopyValue::sum(&parts)));
        }
        let i = self.whole.node(game, canonical, limits)?;
        Ok(Some(self.whole.value[i as usize].clone()))
    }

    pub(crate) fn value(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Value, SolveError> {
        if let Some(v) = self.loopy_value(game, pos, limits)? {
            let grundy = match v {
                LoopyValue::Finite(g) => Some(g),
                LoopyValue::Infinite(_) => None,
            };
            return Ok(Value { outcome: v.outcome(), grundy });
        }
        let i = self.whole.node(game, game.canonical(pos), limits)?;
        Ok(Value { outcome: self.whole.outcome[i as usize], grundy: None })
    }

    /// Moves the game lasts with best play; `None` for a draw, which never ends.
    pub(crate) fn remoteness(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
    ) -> Result<Option<u64>, SolveError> {
        let i = self.whole.node(game, game.canonical(pos), limits)?;
        Ok(self.whole.remoteness[i as usize])
    }

    /// For a drawn position: moves that keep the draw, from `pos` until play comes back to a
    /// position it has been in. Each player can always find one, since a draw has no move to a
    /// P-position and not every move goes to an N-position.
    pub(crate) fn draw_line(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<DrawLine, SolveError> {
        let mut seen: HashMap<Position, usize> = HashMap::new();
        let mut moves: Vec<Move> = Vec::new();
        let mut here = pos.clone();
        loop {
            let key = game.canonical(&here);
            if let Some(&circle_from) = seen.get(&key) {
                return Ok(DrawLine { moves, circle_from: Some(circle_from) });
            }
            seen.insert(key, moves.len());
            let mut next = None;
            for m in game.moves(&here, limits.max_states)? {
                if self.value(game, &m.to, limits)?.outcome == Outcome::D {
                    next = Some(m);
                    break;
                }
            }
            let Some(m) = next else {
                return Ok(DrawLine { moves, circle_from: None });
            };
            here = m.to.clone();
            moves.push(m);
        }
    }
}

/// One way a drawn game goes on for ever: `moves` from the position, and the index of the
/// move where the circle starts (the position before it comes back after the last move).
#[derive(Clone, Debug)]
pub struct DrawLine {
    /// The moves, each keeping the draw.
    pub moves: Vec<Move>,
    /// The move the circle starts at, where play comes back to a position it has been in.
    pub circle_from: Option<usize>,
}
