//! How much a whole-position search must do, bounded from below before it starts, so that a
//! question far past the limits is refused at once instead of after minutes.
//!
//! The search values every position it can reach (it needs every option's Grundy value), so a
//! lower bound above the limits means the search cannot finish. The bound: each pile's own
//! moves (takes from that pile alone, which read nothing of the other piles) reach some set of
//! sizes, and moves on different piles combine freely, so every combination of those sizes is
//! reachable, and each has at least its piles' own moves; where piles are interchangeable, each
//! position is counted at most k! times among k piles' combinations.

use std::collections::{HashMap, HashSet};

use super::{approximately, Limits, SolveError};
use crate::rules::{Board, Game, Position};

/// Moves one bound may generate while counting the piles' sizes: the bound stays cheap, and
/// counting less only weakens it.
const COUNTING_MOVES: usize = 3_000_000;

/// Roughly what one remembered position costs the search (the position, its value and
/// remoteness, and the hash map's share), for saying limits in memory.
pub const BYTES_PER_SEARCHED_POSITION: u64 = 140;

/// The memory a search may hold besides its positions (the options it keeps): what the limit
/// on positions allows, and never less than `LEAST_HELD`, so that a small limit on positions
/// limits positions, not a few kilobytes of options.
pub fn held_memory(limits: &Limits) -> u64 {
    (limits.max_states as u64).saturating_mul(BYTES_PER_SEARCHED_POSITION).max(LEAST_HELD)
}

/// 64 MB.
const LEAST_HELD: u64 = 64 << 20;

/// The positions a search may keep in `mb` megabytes (`--memory MB`).
pub fn positions_in_memory(mb: u64) -> usize {
    (mb.saturating_mul(1 << 20) / BYTES_PER_SEARCHED_POSITION).max(1) as usize
}

/// What one pile's own moves reach: sizes, and the moves listed from the sizes expanded.
#[derive(Clone, Copy)]
struct PileReach {
    sizes: f64,
    moves: f64,
}

/// Refuses a search that will certainly pass the limit on positions or on moves examined.
pub fn refuse_hopeless(game: &Game, pos: &Position, limits: &Limits) -> Result<(), SolveError> {
    if game.tracks_history() || game.can_grow() || !matches!(game.board, Board::AnyPiles | Board::FixedPiles(_)) {
        return Ok(());
    }
    let piles: Vec<u64> = pos.piles.iter().copied().filter(|&p| p > 0).collect();
    if piles.is_empty() {
        return Ok(());
    }
    let mut budget = COUNTING_MOVES;
    let mut known: HashMap<u64, PileReach> = HashMap::new();
    let mut reach = Vec::new();
    for &p in &piles {
        let r = match known.get(&p) {
            Some(r) => *r,
            None => {
                let r = pile_reach(game, p, limits.max_states.saturating_add(1), &mut budget);
                known.insert(p, r);
                r
            }
        };
        reach.push(r);
    }
    // k! for k interchangeable piles.
    let orders: f64 = (1..=piles.len()).map(|i| i as f64).product();
    let positions: f64 = reach.iter().map(|r| r.sizes).product::<f64>() / orders;
    let moves: f64 = (0..reach.len())
        .map(|i| {
            reach[i].moves * reach.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, r)| r.sizes).product::<f64>()
        })
        .sum::<f64>()
        / orders;
    let mut sizes: Vec<String> = Vec::new();
    let mut distinct: Vec<u64> = piles.clone();
    distinct.sort_unstable();
    distinct.dedup();
    for p in distinct {
        let count = piles.iter().filter(|&&q| q == p).count();
        let reached = approximately(known[&p].sizes);
        sizes.push(if count == 1 {
            format!("{reached} sizes from the pile of {p}")
        } else {
            format!("{reached} sizes from each of the {count} piles of {p}")
        });
    }
    let (what, at_least, limit, setting) = if positions > limits.max_states as f64 {
        ("positions", positions, limits.max_states as f64, positions)
    } else if moves > limits.max_moves() as f64 {
        // The limit on moves examined is a fixed multiple of the one on positions.
        let per_state = limits.max_moves() as f64 / limits.max_states.max(1) as f64;
        ("moves examined", moves, limits.max_moves() as f64, moves / per_state)
    } else {
        return Ok(());
    };
    Err(SolveError::TooManyPositions {
        at_least: format!("{} {what}, past the limit of {}", approximately(at_least), approximately(limit)),
        advice: format!(
            "each pile's own moves reach {}, and moves on different piles combine; ask about smaller piles, or raise --max-states to {} (a search keeps about {} at that limit)",
            sizes.join(", "),
            approximately(setting.ceil()),
            super::search_memory(setting.max(positions).min(usize::MAX as f64) as usize)
        ),
    })
}

/// The sizes one pile of `p` reaches by moves that leave it a single pile (takes from it
/// alone), counted up to `enough`, and the moves listed on the way.
fn pile_reach(game: &Game, p: u64, enough: usize, budget: &mut usize) -> PileReach {
    let mut seen = HashSet::new();
    seen.insert(p);
    let mut frontier = vec![p];
    let mut moves_listed = 0usize;
    while let Some(n) = frontier.pop() {
        // Every size is expanded once, so that its moves count too, until the sizes alone
        // are enough to refuse or the counting budget is spent.
        if seen.len() >= enough || *budget == 0 {
            break;
        }
        let Ok(moves) = game.moves(&Position::new(vec![n]), (*budget).min(enough)) else { break };
        *budget = budget.saturating_sub(moves.len().max(1));
        let mut own = 0;
        for m in moves {
            if let [left] = m.to.piles.as_slice() {
                own += 1;
                if seen.insert(*left) {
                    frontier.push(*left);
                }
            }
        }
        moves_listed += own;
    }
    PileReach { sizes: seen.len() as f64, moves: moves_listed as f64 }
}
