//! Reading a position as a user types it: pile sizes separated by spaces or commas.

use miette::Diagnostic;
use thiserror::Error;

use super::{Board, Game, Position};
use crate::vocab::Span;

/// Pile sizes go up to this, so that rule arithmetic on them (in 64-bit signed integers) is exact.
pub(super) const MAX_PILE: u64 = i64::MAX as u64;

/// Why a position could not be read.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum PositionError {
    #[error("no position given")]
    #[diagnostic(
        code(takeaway::position::empty),
        help("write the pile sizes as numbers separated by spaces or commas, for example: 41 163 13")
    )]
    /// Reported as “no position given”.
    Empty,

    #[error("`{text}` is not a pile size")]
    #[diagnostic(
        code(takeaway::position::not_a_number),
        help("a position is whole numbers separated by spaces or commas, for example: 41 163 13")
    )]
    /// Reported as “`{text}` is not a pile size”.
    NotANumber {
        #[label("expected a whole number")]
        /// Where in the text the problem is.
        span: Span,
        /// The text as written.
        text: String,
    },

    #[error("a pile cannot hold {text} counters")]
    #[diagnostic(code(takeaway::position::negative), help("pile sizes are 0 or more: a pile of 0 is an empty pile"))]
    /// Reported as “a pile cannot hold {text} counters”.
    Negative {
        #[label("a negative number")]
        /// Where in the text the problem is.
        span: Span,
        /// The text as written.
        text: String,
    },

    #[error("pile size {text} is too large")]
    #[diagnostic(
        code(takeaway::position::too_large),
        help("pile sizes go up to 9223372036854775807 (2^63 - 1); only one-pile games whose moves take up to a linear f(last), such as Fibonacci Nim, take larger piles (up to 1000 digits), and only in `solve`")
    )]
    /// Reported as “pile size {text} is too large”.
    TooLarge {
        #[label("larger than the largest pile size")]
        /// Where in the text the problem is.
        span: Span,
        /// The text as written.
        text: String,
    },

    #[error("Schwenk's sequence for this game grows too slowly to reach pile size {text}")]
    #[diagnostic(
        code(takeaway::position::beyond_sequence),
        help("a pile past 2^63 is written as a sum of terms of the sequence, and this one would need more than {terms} terms: ask about a smaller pile")
    )]
    /// Reported as “Schwenk's sequence for this game grows too slowly to reach pile size {text}”.
    BeyondSequence {
        #[label("needs more terms than are kept")]
        /// Where in the text the problem is.
        span: Span,
        /// The text as written.
        text: String,
        /// How many terms the sequence has.
        terms: usize,
    },

    #[error("{game} is played on exactly {expected}, but the position has {found}")]
    #[diagnostic(code(takeaway::position::wrong_count), help("{help}"))]
    /// Reported as “{game} is played on exactly {expected}, but the position has {found}”.
    WrongCount {
        #[label("{found} given here")]
        /// Where in the text the problem is.
        span: Span,
        /// The game's name.
        game: String,
        /// How many piles the game is played on, in words.
        expected: String,
        /// How many piles the position has.
        found: usize,
        /// What to do about it.
        help: String,
    },

    #[error("coins are numbered from 1, so there is no coin 0")]
    #[diagnostic(
        code(takeaway::position::no_coin_zero),
        help("a position of a coin game lists the coins showing heads, for example: 3 5 9")
    )]
    /// Reported as “coins are numbered from 1, so there is no coin 0”.
    NoCoinZero {
        #[label("not a coin")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("coin {coin} is listed twice")]
    #[diagnostic(code(takeaway::position::coin_twice), help("a coin shows heads or tails: list each heads coin once"))]
    /// Reported as “coin {coin} is listed twice”.
    CoinTwice {
        #[label("again here")]
        /// Where in the text the problem is.
        span: Span,
        /// The coin's number.
        coin: u64,
    },

    #[error("the cell has no second coordinate")]
    #[diagnostic(
        code(takeaway::position::half_cell),
        help("a position of a product game lists cells (x, y), each as two numbers: (3, 5) (2, 7), or 3,5 2,7")
    )]
    /// Reported as “the cell has no second coordinate”.
    HalfCell {
        #[label("x = {x}, and no y after it")]
        /// Where in the text the problem is.
        span: Span,
        /// The column.
        x: u64,
    },

    #[error("cell ({x}, {y}) is listed twice")]
    #[diagnostic(code(takeaway::position::cell_twice), help("a coin shows heads or tails: list each heads cell once"))]
    /// Reported as “cell ({x}, {y}) is listed twice”.
    CellTwice {
        #[label("again here")]
        /// Where in the text the problem is.
        span: Span,
        /// The column.
        x: u64,
        /// The row.
        y: u64,
    },

    #[error("row {row} (length {len}) is longer than the row below it (length {below})")]
    #[diagnostic(
        code(takeaway::position::rows_grow),
        help("a board is its row lengths from the bottom row up, each no longer than the one below: 5 5 3")
    )]
    /// Reported as “row {row} (length {len}) is longer than the row below it (length {below})”.
    RowsGrow {
        #[label("this row overhangs the row below")]
        /// Where in the text the problem is.
        span: Span,
        /// The row's number.
        row: usize,
        /// The row's length.
        len: u64,
        /// The length of the row below.
        below: u64,
    },
}

/// Reads `text` as a position of `game`.
pub(crate) fn parse_position(game: &Game, text: &str) -> Result<Position, PositionError> {
    let (piles, spans) = numbers(text)?;
    if let Board::Cells { coins } = game.board {
        return cells(piles, spans, coins);
    }
    let all = Span::new(spans[0].start, spans[spans.len() - 1].end);
    let expected = match game.board {
        Board::OnePile => Some((1, "give one number, the size of the pile")),
        Board::FixedPiles(k) => Some((k, "give one number for each pile")),
        _ => None,
    };
    if let Some((expected, help)) = expected {
        if piles.len() != expected {
            return Err(PositionError::WrongCount {
                span: all,
                game: game.name.clone(),
                expected: if expected == 1 { "one pile".into() } else { format!("{expected} piles") },
                found: piles.len(),
                help: help.to_string(),
            });
        }
    }
    if game.board == Board::Coins {
        for (i, (&coin, &span)) in piles.iter().zip(&spans).enumerate() {
            if coin == 0 {
                return Err(PositionError::NoCoinZero { span });
            }
            if piles[..i].contains(&coin) {
                return Err(PositionError::CoinTwice { span, coin });
            }
        }
    }
    if game.board == Board::Rows {
        for i in 1..piles.len() {
            if piles[i] > piles[i - 1] {
                return Err(PositionError::RowsGrow { span: spans[i], row: i + 1, len: piles[i], below: piles[i - 1] });
            }
        }
    }
    Ok(Position::new(piles))
}

/// The numbers of a position and where each is; at least one.
fn numbers(text: &str) -> Result<(Vec<u64>, Vec<Span>), PositionError> {
    let mut piles = Vec::new();
    let mut spans = Vec::new();
    for (start, word) in words(text) {
        let span = Span::new(start, start + word.len());
        if let Some(rest) = word.strip_prefix('-').or_else(|| word.strip_prefix('−')) {
            if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
                return Err(PositionError::Negative { span, text: word.to_string() });
            }
        }
        if !word.chars().all(|c| c.is_ascii_digit()) {
            return Err(PositionError::NotANumber { span, text: word.to_string() });
        }
        let value = match word.parse::<u64>() {
            Ok(v) if v <= MAX_PILE => v,
            _ => return Err(PositionError::TooLarge { span, text: word.to_string() }),
        };
        piles.push(value);
        spans.push(span);
    }
    if piles.is_empty() {
        return Err(PositionError::Empty);
    }
    Ok((piles, spans))
}

/// The numbers of a product game's position read as cells (x, y), two by two.
fn cells(numbers: Vec<u64>, spans: Vec<Span>, coins: bool) -> Result<Position, PositionError> {
    if numbers.len() % 2 == 1 {
        let last = numbers.len() - 1;
        return Err(PositionError::HalfCell { span: spans[last], x: numbers[last] });
    }
    if coins {
        for (i, pair) in numbers.chunks_exact(2).enumerate() {
            let span = spans[2 * i].to(spans[2 * i + 1]);
            if let Some(at) = pair.iter().position(|&c| c == 0) {
                return Err(PositionError::NoCoinZero { span: spans[2 * i + at] });
            }
            if numbers[..2 * i].chunks_exact(2).any(|earlier| earlier == pair) {
                return Err(PositionError::CellTwice { span, x: pair[0], y: pair[1] });
            }
        }
    }
    Ok(Position::of_cells(numbers))
}

/// The words of a position with their byte offsets; spaces, commas and brackets separate them,
/// so that a cell may be written (3, 5) or 3,5.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || c == ',' || c == '(' || c == ')';
        match (sep, start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}
