//! The general engine: outcome, Grundy value and remoteness of whole positions by an iterative
//! depth-first search with memory. No recursion, so deep games cannot overflow the stack.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{Limits, Outcome, SolveError, Value, Work};
use crate::rules::{Convention, Game, Position};
use crate::vocab::Span;

#[derive(Default)]
pub(super) struct Search {
    memo: HashMap<Position, Node>,
    work: Work,
}

#[derive(Clone, Copy)]
struct Node {
    value: Value,
    /// How many moves the game lasts from here under best play (Steinhaus): the winner
    /// hurries, the loser delays.
    remoteness: u64,
}

struct Frame {
    pos: Position,
    children: Vec<(Position, Span)>,
    next: usize,
}

impl Search {
    /// Positions valued so far.
    pub(super) fn len(&self) -> usize {
        self.memo.len()
    }

    pub(super) fn value(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Value, SolveError> {
        Ok(self.node(game, pos, limits)?.value)
    }

    pub(super) fn remoteness(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<u64, SolveError> {
        Ok(self.node(game, pos, limits)?.remoteness)
    }

    fn node(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Node, SolveError> {
        let root = game.canonical(pos);
        if let Some(v) = self.memo.get(&root) {
            return Ok(*v);
        }
        if self.memo.len() >= limits.max_states {
            return Err(SolveError::state_limit(limits));
        }
        // With nothing valued yet, no option can be: the estimate comes before the root's
        // moves are listed (3 million of them, 576 MB, for Wythoff at 10^6 10^6).
        let fresh = self.memo.is_empty();
        if fresh {
            super::reach::refuse_hopeless(game, &root, limits, 0)?;
        }
        let first = frame(game, root.clone(), limits, &mut self.work)?;
        // Every option valued already (the rows of a table, one after another): nothing to
        // search, and nothing for the estimate to refuse.
        if first.children.iter().all(|(c, _)| self.memo.contains_key(c)) {
            let node = self.combine(game, &first.children);
            self.memo.insert(root, node);
            return Ok(node);
        }
        if !fresh {
            super::reach::refuse_hopeless(game, &root, limits, 0)?;
        }
        let mut on_stack: HashSet<Position> = HashSet::default();
        on_stack.insert(root.clone());
        let mut stack = vec![first];
        while let Some(top) = stack.last_mut() {
            if top.next < top.children.len() {
                let (child, rule) = top.children[top.next].clone();
                top.next += 1;
                if self.memo.contains_key(&child) {
                    continue;
                }
                if on_stack.contains(&child) {
                    return Err(SolveError::Loop { span: rule, position: child.piles_text() });
                }
                if self.memo.len() + stack.len() >= limits.max_states {
                    return Err(SolveError::state_limit(limits));
                }
                on_stack.insert(child.clone());
                let f = frame(game, child, limits, &mut self.work)?;
                stack.push(f);
            } else {
                let done = stack.pop().expect("the loop runs while the stack is not empty");
                on_stack.remove(&done.pos);
                let value = self.combine(game, &done.children);
                self.memo.insert(done.pos, value);
            }
        }
        Ok(self.memo[&game.canonical(pos)])
    }

    /// A position's value and remoteness from its children's.
    fn combine(&self, game: &Game, children: &[(Position, Span)]) -> Node {
        // Each child is looked up once: hashing whole positions is most of a search's time.
        let nodes: Vec<Node> = children.iter().map(|(c, _)| self.memo[c]).collect();
        let value = Self::combine_value(game, &nodes);
        let nodes = nodes.into_iter();
        let remoteness = match value.outcome {
            _ if children.is_empty() => 0,
            Outcome::N => 1 + nodes.filter(|n| n.value.outcome == Outcome::P).map(|n| n.remoteness).min().unwrap_or(0),
            // A search refuses games with circles, so it never meets a draw.
            Outcome::P | Outcome::D => 1 + nodes.map(|n| n.remoteness).max().unwrap_or(0),
        };
        Node { value, remoteness }
    }

    fn combine_value(game: &Game, children: &[Node]) -> Value {
        match game.convention {
            Convention::Normal => {
                let mut seen = vec![false; children.len() + 1];
                for c in children {
                    let g = c.value.grundy.expect("normal-play values have a Grundy value");
                    if (g as usize) < seen.len() {
                        seen[g as usize] = true;
                    }
                }
                let mex = seen.iter().position(|s| !s).unwrap_or(seen.len()) as u64;
                Value::from_grundy(mex)
            }
            Convention::Misere => {
                // Whoever cannot move has won: the opponent made the last move.
                let to_p = children.iter().any(|c| c.value.outcome == Outcome::P);
                let outcome = if children.is_empty() || to_p { Outcome::N } else { Outcome::P };
                Value { outcome, grundy: None }
            }
        }
    }
}

fn frame(game: &Game, pos: Position, limits: &Limits, work: &mut Work) -> Result<Frame, SolveError> {
    let (moves, cost) = game.moves_counted(&pos, limits.max_states)?;
    work.add(cost as usize, limits)?;
    let mut children: Vec<(Position, Span)> = moves.into_iter().map(|m| (game.canonical(&m.to), m.rule)).collect();
    children.sort_by(|a, b| a.0.cmp(&b.0));
    children.dedup_by(|a, b| a.0 == b.0);
    Ok(Frame { pos, children, next: 0 })
}
