//! How much a whole-position search must do, bounded from below before it starts, so that a
//! question far past the limits is refused at once instead of after minutes.
//!
//! The search values every position it can reach (it needs every option's Grundy value), so a
//! lower bound above the limits means the search cannot finish. The bound: each pile's own
//! moves (takes from that pile alone, which read nothing of the other piles) reach some set of
//! sizes, and moves on different piles combine freely, so every combination of those sizes is
//! reachable, and each has at least its piles' own moves; where piles are interchangeable, each
//! position is counted at most k! times among k piles' combinations.

use crate::wording::{give_value, Argument};
use std::collections::{HashMap, HashSet};

use super::{approximately, Limits, SolveError};
use crate::rules::{Board, Game, Position};

/// Moves one bound may generate while counting the piles' sizes: the bound stays cheap, and
/// counting less only weakens it.
const COUNTING_MOVES: usize = 3_000_000;

/// The most moves of one size listed at once (a few MB of them).
const MOVES_PER_LISTING: usize = 1 << 15;

/// Roughly what one remembered position costs the search (the position, its value and
/// remoteness, and the hash map's share), for saying limits in memory.
pub(crate) const BYTES_PER_SEARCHED_POSITION: u64 = 140;

/// The memory a search may hold besides its positions (the options it keeps): what the limit
/// on positions allows, and never less than `LEAST_HELD`, so that a small limit on positions
/// limits positions, not a few kilobytes of options.
pub(crate) fn held_memory(limits: &Limits) -> u64 {
    (limits.max_states as u64).saturating_mul(BYTES_PER_SEARCHED_POSITION).max(LEAST_HELD)
}

/// 64 MB.
const LEAST_HELD: u64 = 64 << 20;

/// The positions a search may keep in `mb` megabytes (`--memory MB`).
pub(crate) fn positions_in_memory(mb: u64) -> usize {
    (mb.saturating_mul(1 << 20) / BYTES_PER_SEARCHED_POSITION).max(1) as usize
}

/// What one pile's own moves reach: sizes, and the moves listed from the sizes expanded.
#[derive(Clone, Copy)]
struct PileReach {
    sizes: f64,
    moves: f64,
    /// The counting stopped at its budget before every size was expanded.
    cut: bool,
    /// The smallest size reached, and how many sizes were expanded.
    lowest: u64,
    expanded: usize,
    /// Results of several non-empty piles among the moves listed (a split's two parts).
    parts: f64,
}

impl PileReach {
    /// Where the counting was cut short on a long chain of sizes (a pile of 10⁶ that takes a
    /// few at a time, splitting as it goes): the sizes the chain would go on to, down to 0 at
    /// the step seen so far, and as many split results for each as the sizes expanded had, an
    /// estimate rather than a bound. `None` where nothing is cut, or no chain was seen.
    fn extrapolated(&self, p: u64) -> Option<f64> {
        if !self.cut || self.expanded < 8 || self.lowest >= p {
            return None;
        }
        let step = (p - self.lowest) as f64 / (self.expanded - 1).max(1) as f64;
        let sizes = p as f64 / step.max(1.0);
        // Each split result of a size is reached from few other sizes (one per amount taken).
        let per_size = self.parts / self.expanded as f64;
        Some(sizes * (1.0 + per_size / SPLIT_SHARING))
    }
}

/// How many sizes' moves may lead to the same split result (one per amount a rule takes): the
/// extrapolation counts each result once per this many sizes.
const SPLIT_SHARING: f64 = 4.0;

/// Refuses a search that will certainly pass the limit on positions or on moves examined, or
/// on memory where it keeps `kept` bytes for every move it examines (a search that holds each
/// position's options until its value is known).
pub(crate) fn refuse_hopeless(game: &Game, pos: &Position, limits: &Limits, kept: u64) -> Result<(), SolveError> {
    if game.tracks_history() || game.can_grow() || !matches!(game.board, Board::AnyPiles | Board::FixedPiles(_)) {
        return Ok(());
    }
    let piles: Vec<u64> = pos.piles.iter().copied().filter(|&p| p > 0).collect();
    if piles.is_empty() {
        return Ok(());
    }
    // Each size of pile counts its reach on an equal share: the first pile must not spend what
    // the second needs to be counted at all (3000 and 4000 in Wythoff: the second was seen as
    // one size, and a search of 6·10⁶ positions ran for half a minute before its limit).
    let mut distinct = piles.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let share = COUNTING_MOVES / distinct.len();
    let mut known: HashMap<u64, PileReach> = HashMap::new();
    let mut reached_sizes: HashMap<u64, Vec<u64>> = HashMap::new();
    for &p in &piles {
        if let std::collections::hash_map::Entry::Vacant(slot) = known.entry(p) {
            let mut budget = share.max(1);
            let (r, sizes) = pile_reach(game, p, limits.max_states.saturating_add(1), &mut budget);
            slot.insert(r);
            reached_sizes.insert(p, sizes);
        }
    }
    let (positions, moves) = combined(&piles, &known);
    // Distinct piles: the count of multisets above divides by every order of the piles, which
    // for many piles of different sizes is far too weak; the sorted choices count better.
    let per_position = moves / positions.max(1.0);
    let positions = positions.max(sorted_choices(&piles, &reached_sizes));
    let moves = moves.max(positions * per_position);
    // A single pile cut short on a long chain of sizes: the estimate of where the chain goes.
    let extrapolated = match piles.as_slice() {
        [p] => known[p].extrapolated(*p),
        _ => None,
    };
    if let Some(estimate) = extrapolated.filter(|e| *e > positions && *e > limits.max_states as f64) {
        let p = piles[0];
        let r = known[&p];
        return Err(SolveError::TooManyPositions {
            at_least: format!(
                "about {} positions, past the limit of {}",
                approximately(estimate),
                approximately(limits.max_states as f64)
            ),
            advice: {
                let per_size = r.parts / r.expanded as f64;
                // "Splits in many ways" only where moves split: a subtraction game's piles
                // are a chain of sizes and nothing more.
                let splits = if per_size > 0.0 {
                    format!(
                        ", and each splits in many ways ({} on average among the moves listed)",
                        approximately(per_size)
                    )
                } else {
                    String::new()
                };
                format!(
                    "an estimate: the pile of {p} reaches smaller piles a few counters at a time (down to {} in {} \
                     steps){splits}; ask about a smaller pile",
                    r.lowest, r.expanded
                )
            },
        });
    }
    let mut sizes: Vec<String> = Vec::new();
    for p in distinct {
        let count = piles.iter().filter(|&&q| q == p).count();
        let reached = approximately(known[&p].sizes);
        sizes.push(if count == 1 {
            format!("{reached} sizes from the pile of {p}")
        } else {
            format!("{reached} sizes from each of the {count} piles of {p}")
        });
    }
    let held = moves * kept as f64;
    let (at_least, remedy) = if held > held_memory(limits) as f64 {
        let remedy = format!(
            "raise the limit with {} (the memory grows with it)",
            give_value(
                Argument::MaxStates,
                approximately((limits.max_states as f64 * held / held_memory(limits) as f64).ceil())
            )
        );
        let at_least = format!(
            "at least {} moves examined, each kept until its position is valued: {} or more, past the {} allowed",
            approximately(moves),
            megabytes(held),
            megabytes(held_memory(limits) as f64)
        );
        (at_least, remedy)
    } else if positions > limits.max_states as f64 {
        let limit = approximately(limits.max_states as f64);
        let remedy = format!(
            "raise the limit with {} (a search keeps about {} at that limit)",
            give_value(Argument::MaxStates, approximately(positions.ceil())),
            super::search_memory(positions.min(usize::MAX as f64) as usize)
        );
        (format!("at least {} positions, past the limit of {limit}", approximately(positions)), remedy)
    } else if moves > limits.estimate_moves() as f64 {
        // The moves a search examines take time: the estimate is held to the question's.
        let at_least = format!(
            "at least {} moves examined ({}), past the budget of {}",
            approximately(moves),
            limits.time_of_moves(moves),
            super::duration_in_words(limits.seconds())
        );
        let remedy = format!(
            "give it longer with {}",
            give_value(Argument::Timeout, limits.seconds_for_work(moves / limits.estimate_moves() as f64 * 1.25))
        );
        (at_least, remedy)
    } else {
        return Ok(());
    };
    Err(SolveError::TooManyPositions {
        at_least,
        advice: format!(
            "each pile's own moves reach {}, and moves on different piles combine; ask about smaller piles, or {remedy}",
            sizes.join(", "),
        ),
    })
}

/// Bytes in words, for a diagnostic: "670 MB", "12 GB".
fn megabytes(bytes: f64) -> String {
    let mb = bytes / (1u64 << 20) as f64;
    if mb >= 1024.0 {
        format!("{} GB", approximately((mb / 1024.0).ceil()))
    } else {
        format!("{} MB", mb.ceil() as u64)
    }
}

/// Lower bounds on the positions and the moves of a search over every combination of the
/// piles' own sizes. Piles of one size form a group: c piles with s sizes each give
/// C(s + c − 1, c) multisets, whose moves add up to c·C(s + c − 1, c)·(moves of a size, on
/// average), as every size is equally common among them; groups combine by their product, and
/// a position of k piles splits into groups of the sizes c₁, c₂, … in at most k!/(c₁!c₂!…)
/// ways. (Counting k! orders of every position instead would pass 20 piles of 7, 888,030
/// positions, as 1.)
fn combined(piles: &[u64], known: &HashMap<u64, PileReach>) -> (f64, f64) {
    let mut groups: Vec<(u64, u64)> = Vec::new();
    for &p in piles {
        match groups.iter_mut().find(|(q, _)| *q == p) {
            Some((_, c)) => *c += 1,
            None => groups.push((p, 1)),
        }
    }
    let ln_factorial = |n: u64| (1..=n).map(|i| (i as f64).ln()).sum::<f64>();
    // ln C(s + c − 1, c) = Σ_{i=1..c} ln((s − 1 + i) / i)
    let ln_multisets = |s: f64, c: u64| (1..=c).map(|i| ((s - 1.0 + i as f64) / i as f64).ln()).sum::<f64>();
    let mut ln_positions = -ln_factorial(piles.len() as u64);
    let mut moves_per_position = 0.0;
    for &(p, c) in &groups {
        let r = known[&p];
        ln_positions += ln_multisets(r.sizes, c) + ln_factorial(c);
        moves_per_position += c as f64 * r.moves / r.sizes.max(1.0);
    }
    let positions = ln_positions.exp().max(1.0);
    (positions, positions * moves_per_position)
}

/// The sizes one pile of `p` reaches by moves that leave it a single pile (takes from it
/// alone), counted up to `enough`, and the moves listed on the way.
fn pile_reach(game: &Game, p: u64, enough: usize, budget: &mut usize) -> (PileReach, Vec<u64>) {
    let mut seen = HashSet::new();
    seen.insert(p);
    let mut frontier = vec![p];
    let mut moves_listed = 0usize;
    let (mut cut, mut expanded, mut parts) = (false, 0usize, 0usize);
    while let Some(n) = frontier.pop() {
        // Every size is expanded once, so that its moves count too, until the sizes alone
        // are enough to refuse or the counting budget is spent.
        if seen.len() >= enough || *budget == 0 {
            cut = *budget == 0;
            break;
        }
        expanded += 1;
        // The first moves of a size only: listing all of a pile of 10^6 held 720 MB for a
        // bound that refuses the question anyway. Fewer moves listed only weaken the bound.
        let most = (*budget).min(enough).min(MOVES_PER_LISTING);
        let Ok(moves) = game.some_moves(&Position::new(vec![n]), most) else { break };
        *budget = budget.saturating_sub(moves.len().max(1));
        let mut own = 0;
        for m in moves {
            if let [left] = m.to.piles.as_slice() {
                own += 1;
                if seen.insert(*left) {
                    frontier.push(*left);
                }
            } else if m.to.piles.iter().filter(|&&q| q > 0).count() > 1 {
                parts += 1;
            }
        }
        moves_listed += own;
    }
    let lowest = seen.iter().copied().min().unwrap_or(p);
    let reach =
        PileReach { sizes: seen.len() as f64, moves: moves_listed as f64, cut, lowest, expanded, parts: parts as f64 };
    let mut sizes: Vec<u64> = seen.into_iter().collect();
    sizes.sort_unstable();
    (reach, sizes)
}

/// A lower bound on the positions a search of the sum of `piles` reaches, from the sizes each
/// pile reaches on its own (`sizes`, sorted): the sorted choices x₁ ≤ x₂ ≤ … of one reached
/// size per pile, the piles taken smallest first, are distinct positions, and every one is
/// reached (moves on different piles combine). Counted by a running sum over the sizes.
fn sorted_choices(piles: &[u64], sizes: &HashMap<u64, Vec<u64>>) -> f64 {
    let mut piles = piles.to_vec();
    piles.sort_unstable();
    let mut universe: Vec<u64> = piles.iter().flat_map(|p| sizes[p].iter().copied()).collect();
    universe.sort_unstable();
    universe.dedup();
    // ways[j]: the sorted choices for the piles so far whose last size is universe[j]; before
    // the first pile, one (empty) choice that every size may follow.
    let mut ways: Vec<f64> = vec![0.0; universe.len()];
    if let Some(w) = ways.first_mut() {
        *w = 1.0;
    }
    for p in &piles {
        let reached = &sizes[p];
        let mut at_or_below = 0.0f64;
        for (j, v) in universe.iter().enumerate() {
            at_or_below = (at_or_below + ways[j]).min(f64::MAX / 4.0);
            ways[j] = if reached.binary_search(v).is_ok() { at_or_below } else { 0.0 };
        }
    }
    ways.iter().sum::<f64>().max(1.0)
}

#[cfg(test)]
mod sorted_choices_tests {
    use super::*;

    /// Counted by hand: pairs a ≤ b with a ≤ 800 and b ≤ 900 are 801·901 − 800·801/2; two
    /// piles each reaching {0, 1, 2} give the 6 multisets of two of them; piles that reach
    /// only their own sizes give the one position.
    #[test]
    fn sorted_choices_count_the_distinct_positions() {
        let sizes = |pairs: &[(u64, Vec<u64>)]| pairs.iter().cloned().collect::<HashMap<u64, Vec<u64>>>();
        let s = sizes(&[(800, (0..=800).collect()), (900, (0..=900).collect())]);
        assert_eq!(sorted_choices(&[900, 800], &s), 401_301.0);
        let s = sizes(&[(2, vec![0, 1, 2])]);
        assert_eq!(sorted_choices(&[2, 2], &s), 6.0);
        let s = sizes(&[(5, vec![5]), (7, vec![7])]);
        assert_eq!(sorted_choices(&[7, 5], &s), 1.0);
    }
}
