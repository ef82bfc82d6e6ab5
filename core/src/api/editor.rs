//! What an editor shows of a loaded game beside its text: the moves one rule allows, in the
//! words `explain` uses for moves.

use serde::Serialize;

use super::{position_of, Loaded};
use crate::rules::{Board, Rule};
use crate::vocab::Side;

/// The moves one rule of a game allows from a small position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleMoves {
    /// The rule as written.
    pub statement: String,
    /// Its first byte in the text.
    pub start: usize,
    /// The byte after its last.
    pub end: usize,
    /// `Some` when only one player may make the move.
    pub side: Option<Side>,
    /// The position the moves are shown from, as a position is written (`10`, `5 7`).
    pub position: String,
    /// The previous move's size assumed, for a rule that reads `last`.
    pub last: Option<u64>,
    /// Each move it allows there, as `explain` says it (`take 3 from the pile of 10`).
    pub moves: Vec<String>,
    /// How many moves it allows there in all (more than are listed, past `MOST_LISTED`).
    pub count: usize,
}

/// Moves listed at most in a hover.
const MOST_LISTED: usize = 12;

/// The rule whose statement holds byte `offset` of the game's text, with the moves it allows
/// from the first small position where it allows some.
pub fn rule_moves(loaded: &Loaded, offset: usize) -> Option<RuleMoves> {
    let game = &loaded.game;
    let text = &loaded.source.text;
    let rule: &Rule =
        game.first_moves.iter().chain(&game.moves).find(|r| r.span.start <= offset && offset <= r.span.end)?;
    let first = game.first_moves.iter().any(|r| std::ptr::eq(r, rule));
    let positions: &[&str] = match game.board {
        Board::OnePile | Board::AnyPiles => &["10", "7", "5", "3", "2", "1"],
        Board::FixedPiles(2) => &["5 7", "4 4", "3 9", "1 2"],
        Board::FixedPiles(_) => &["5 7 9", "4 4 4", "1 2 3"],
        Board::Rows => &["4 4 4", "3 2 1"],
        Board::Coins => &["1 3 4 7", "2 5 6", "1 2 3 4 5 6 7 8"],
        Board::Cells { .. } => &[],
    };
    // A rule that reads the previous move is shown after a move of 2 (the first move has none).
    let lasts: Vec<Option<u64>> = if game.uses_last && !first { vec![Some(2), Some(3)] } else { vec![None] };
    let statement = text.get(rule.span.start..rule.span.end).unwrap_or("").trim().to_string();
    for written in positions {
        for &last in &lasts {
            let Ok(position) = position_of(loaded, written, last) else { continue };
            let Ok(moves) = game.moves(&position, 1 << 12) else { continue };
            let mine: Vec<String> = moves.iter().filter(|m| m.rule == rule.span).map(|m| m.describe()).collect();
            if !mine.is_empty() {
                return Some(RuleMoves {
                    statement,
                    start: rule.span.start,
                    end: rule.span.end,
                    side: rule.side,
                    position: written.to_string(),
                    last,
                    count: mine.len(),
                    moves: mine.into_iter().take(MOST_LISTED).collect(),
                });
            }
        }
    }
    Some(RuleMoves {
        statement,
        start: rule.span.start,
        end: rule.span.end,
        side: rule.side,
        position: positions.first().unwrap_or(&"").to_string(),
        last: None,
        moves: Vec::new(),
        count: 0,
    })
}
