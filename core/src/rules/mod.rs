//! The checked, compiled game: what a position is and which moves it has.
//!
//! `check` builds a `Game`; the solvers only ask it for moves. Positions keep the user's
//! pile order so that moves can be shown against what was typed; `Position::canonical`
//! forgets the order where the piles are interchangeable.

pub(crate) mod expr;
pub(crate) mod move_error;
mod moves;
mod position;
mod product;

pub use move_error::MoveError;
pub use moves::Move;
pub(crate) use moves::MoveKind;
pub(crate) use position::parse_position;
pub use position::PositionError;

pub(crate) use crate::vocab::Convention;
pub(crate) use crate::vocab::ProductKind;
pub(crate) use crate::vocab::Side;
use crate::vocab::{CmpOp, Span, SplitShape};
use expr::Expr;
pub(crate) use product::{nim_product, Part, Product};

/// What the game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// exactly one pile
    OnePile,
    /// any number of piles
    AnyPiles,
    /// exactly this many piles
    FixedPiles(usize),
    /// a Chomp board: row lengths, bottom row first
    Rows,
    /// a row of coins numbered from 1: a position lists the coins showing heads, and each
    /// heads coin is a game of its own (a heap of its number)
    Coins,
    /// the cells (x, y) of a product of two heap games, each cell a game of its own; `coins`
    /// when both games are coin games, so that a cell shows heads or tails and a move turns
    /// cells over, rather than leaving heaps
    Cells {
        /// Whether the cells are coins in a row.
        coins: bool,
    },
}

#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub name: String,
    pub value: i64,
    /// The members of a set parameter (`param S = {1, 3, 4}`); `value` is unused then.
    pub set: Option<Vec<i64>>,
}

/// A checked game: its name, what it is played on, its rules and its convention.
#[derive(Clone, Debug)]
pub struct Game {
    /// The name of its `game` line (or of its file, without one).
    pub name: String,
    pub(crate) params: Vec<Param>,
    /// What it is played on.
    pub board: Board,
    /// Rules for the first move of the game; when empty, `moves` apply to it too.
    pub(crate) first_moves: Vec<Rule>,
    pub(crate) moves: Vec<Rule>,
    /// Normal play (whoever cannot move loses) or misère play (whoever cannot move wins).
    pub convention: Convention,
    /// Some rule reads `last`, so positions carry the previous move's size.
    pub(crate) uses_last: bool,
    /// For a product of two games (board `Cells`): the games and how they combine; the moves
    /// come from them, and `moves` is empty.
    pub(crate) product: Option<Box<Product>>,
}

#[derive(Clone, Debug)]
pub(crate) struct Rule {
    /// The whole `move: …` statement, for diagnostics.
    pub span: Span,
    pub kind: RuleKind,
    pub condition: Option<Expr>,
    /// `left move:` / `right move:`: only that player may make the move; `None` for both.
    pub side: Option<Side>,
}

impl Rule {
    /// The amount of a plain take: from one pile, with no condition and nothing split after it.
    pub(crate) fn plain_take(&self) -> Option<&Amount> {
        match &self.kind {
            RuleKind::Take { amount, piles, then_split: None } if piles.is_one() && self.condition.is_none() => {
                Some(amount)
            }
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum RuleKind {
    /// Take an amount from one or several piles; optionally the rest of the pile may fall apart.
    Take { amount: Amount, piles: PileSelection, then_split: Option<SplitSpec> },
    /// Take from two piles at once, an amount from each that the condition relates (the
    /// condition reads them as `Var::First` and `Var::Second`, in either order).
    TakePair,
    /// Add an amount to one non-empty pile: play may then come back to a position it left.
    Add { amount: Amount },
    /// Split one pile without taking anything.
    Split(SplitSpec),
    /// A take-and-break code: `digits[t]` says how many heaps may be left after taking t.
    Octal { digits: Vec<u8> },
    /// The full take-and-break notation (digits past 7, `! ? =`, `[…]`, `{…}`), where a plain
    /// octal code is not enough.
    Code(TakeBreakCode),
    /// Chomp: choose a square; it and every square above and to the right go.
    Bite { except: Option<(u64, u64)> },
    /// Coin-turning: turn over `count` coins whose rightmost goes from heads to tails.
    Turn { count: Amount, shapes: CoinShapes },
}

/// Conditions on the set of coins one move turns over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CoinShapes {
    pub consecutive: bool,
    pub equally_spaced: bool,
    /// the set is its own mirror image about its middle
    pub symmetric: bool,
    /// coin 1 is among them
    pub includes_first: bool,
    /// leftmost to rightmost spans at most this many coins
    pub within: Option<u64>,
}

#[derive(Clone, Debug)]
pub(crate) enum Amount {
    /// 1 up to the whole pile
    Any,
    /// any amount except these
    AnyExcept(Vec<Choice>),
    /// an amount compared with a bound: `≤ 2·last`
    Bound(CmpOp, Expr),
    Choices(Vec<Choice>),
}

#[derive(Clone, Debug)]
pub(crate) enum Choice {
    Value(Expr),
    Range(Expr, Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PileSelection {
    /// fewest and most piles a move acts on
    pub min: usize,
    pub max: usize,
    /// each pile gets its own amount (otherwise the same amount comes from each)
    pub independent: bool,
}

impl PileSelection {
    pub(crate) const ONE: PileSelection = PileSelection { min: 1, max: 1, independent: false };

    pub(crate) fn is_one(&self) -> bool {
        self.max == 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SplitSpec {
    pub parts: usize,
    pub shape: Option<SplitShape>,
    /// the pile may also stay whole (take-and-break), rather than having to fall apart
    pub optional: bool,
}

/// A take-and-break code in the full notation: what taking t counters may leave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TakeBreakCode {
    /// For t = 0, 1, 2, …; past the end, the digits from `repeat_from` on repeat for ever
    /// (`0.[3]`), or nothing more may be taken.
    pub digits: Vec<CodeDigit>,
    pub repeat_from: Option<usize>,
}

/// The numbers of heaps one digit allows to be left, each with its shape.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct CodeDigit {
    pub counts: Vec<HeapCount>,
}

/// Leave at least `min` and at most `max` (no bound when `None`) non-empty heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeapCount {
    pub min: u32,
    pub max: Option<u32>,
    pub shape: Option<CodeShape>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CodeShape {
    /// `!`: the heaps left are pairwise unequal
    Unequal,
    /// `?`: not all the heaps left are equal
    NotAllEqual,
    /// `=`: all the heaps left are equal
    Equal,
}

impl TakeBreakCode {
    /// Which digit says what taking t may leave: past the end, the repeat's; `None` when the
    /// code allows taking t at all.
    pub(crate) fn digit_index(&self, t: u64) -> Option<usize> {
        code_digit_index(self.digits.len(), self.repeat_from, t)
    }

    /// An octal code's digits in the full notation: bit i of a digit, leave i heaps.
    pub(crate) fn from_octal(digits: &[u8]) -> TakeBreakCode {
        let digits = digits
            .iter()
            .map(|&d| CodeDigit {
                counts: (0..3)
                    .filter(|bit| d & (1 << bit) != 0)
                    .map(|bit| HeapCount { min: bit, max: Some(bit), shape: None })
                    .collect(),
            })
            .collect();
        TakeBreakCode { digits, repeat_from: None }
    }

    /// The digit for taking t, if the code allows taking t at all.
    pub(crate) fn digit(&self, t: u64) -> Option<&CodeDigit> {
        self.digits.get(self.digit_index(t)?)
    }

    /// The most a move takes, or `None` when a repeat lets it take any amount.
    pub(crate) fn most_taken(&self) -> Option<u64> {
        match self.repeat_from {
            Some(_) => None,
            None => Some(self.digits.len().saturating_sub(1) as u64),
        }
    }
}

/// Which of `len` digits, repeating from `repeat_from`, is taking t's (`None`: t may not be
/// taken). Kept apart from `TakeBreakCode` so that the kernel can keep only its own flags.
pub(crate) fn code_digit_index(len: usize, repeat_from: Option<usize>, t: u64) -> Option<usize> {
    let len = len as u64;
    if t < len {
        return Some(t as usize);
    }
    let start = repeat_from? as u64;
    Some((start + (t - start) % (len - start)) as usize)
}

/// A position: the piles as the user wrote them and, where the rules read it, the last move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Position {
    /// Pile sizes, coins, row lengths; for a product game, the cells' coordinates in pairs:
    /// x₁, y₁, x₂, y₂, …
    pub piles: Vec<u64>,
    /// The size of the previous move; `None` before the first move.
    pub last: Option<u64>,
    /// The numbers are cells (x, y) in pairs.
    pub cells: bool,
}

impl Position {
    /// A position of the given pile sizes.
    pub fn new(piles: Vec<u64>) -> Self {
        Position { piles, last: None, cells: false }
    }

    /// A position of a product game: its cells' coordinates in pairs.
    pub fn of_cells(coordinates: Vec<u64>) -> Self {
        Position { piles: coordinates, last: None, cells: true }
    }

    /// The numbers of `piles`, read as cells when `cells` says so.
    pub(crate) fn shown(piles: &[u64], cells: bool) -> String {
        Position { piles: piles.to_vec(), last: None, cells }.piles_text()
    }

    /// The cells of a product game's position.
    pub(crate) fn cell_pairs(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.piles.chunks_exact(2).map(|c| (c[0], c[1]))
    }

    /// The piles, written as a user types them.
    pub fn piles_text(&self) -> String {
        if self.piles.is_empty() {
            return if self.cells { "(no cells)".into() } else { "(no piles)".into() };
        }
        if self.cells {
            return self.cell_pairs().map(|(x, y)| format!("({x}, {y})")).collect::<Vec<_>>().join(" ");
        }
        self.piles.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
    }

    /// The piles for a message: long positions shortened to their start and their size.
    pub(crate) fn short_text(&self) -> String {
        const SHOWN: usize = 8;
        if self.piles.len() <= SHOWN + 2 {
            return self.piles_text();
        }
        if self.cells {
            let start = Position::shown(&self.piles[..SHOWN], true);
            return format!("{start} … ({} cells)", self.piles.len() / 2);
        }
        let start: Vec<String> = self.piles[..SHOWN].iter().map(|p| p.to_string()).collect();
        format!("{} … ({} piles)", start.join(" "), self.piles.len())
    }
}

impl Game {
    /// Its parameters and their values (a set parameter's members), in the order of the text.
    pub fn parameters(&self) -> Vec<(String, crate::vocab::SettingValue)> {
        self.params
            .iter()
            .map(|p| {
                let value = match &p.set {
                    Some(members) => crate::vocab::SettingValue::Set(members.clone()),
                    None => crate::vocab::SettingValue::Number(p.value),
                };
                (p.name.clone(), value)
            })
            .collect()
    }

    /// For a product of two games: how they combine (`tartan`, `acrostic`, …) and their names.
    pub fn product_of(&self) -> Option<(&'static str, &str, &str)> {
        let p = self.product.as_deref()?;
        Some((p.kind.word(), &p.parts[0].game.name, &p.parts[1].game.name))
    }

    /// True when the rules need to know whether a move is the first, or how big the last one was.
    pub fn tracks_history(&self) -> bool {
        self.uses_last || !self.first_moves.is_empty()
    }

    /// The rules that apply in this position.
    pub(crate) fn rules_for(&self, pos: &Position) -> &[Rule] {
        if pos.last.is_none() && !self.first_moves.is_empty() {
            &self.first_moves
        } else {
            &self.moves
        }
    }

    /// The form under which two positions are the same game: piles sorted where they are
    /// interchangeable, empty piles dropped where their number does not matter, and the
    /// history reduced to what the rules read.
    pub fn canonical(&self, pos: &Position) -> Position {
        let mut piles = pos.piles.clone();
        match self.board {
            Board::AnyPiles => {
                piles.retain(|&p| p > 0);
                piles.sort_unstable();
            }
            Board::FixedPiles(_) => piles.sort_unstable(),
            Board::OnePile => {}
            Board::Coins => {
                piles.retain(|&p| p > 0);
                piles.sort_unstable();
            }
            Board::Rows => {
                while piles.last() == Some(&0) {
                    piles.pop();
                }
            }
            Board::Cells { .. } => {
                // A cell with a coordinate 0 is an empty heap; the order of cells does not matter.
                let mut cells: Vec<(u64, u64)> = pos.cell_pairs().filter(|&(x, y)| x > 0 && y > 0).collect();
                cells.sort_unstable();
                piles = cells.into_iter().flat_map(|(x, y)| [x, y]).collect();
            }
        }
        let last = match pos.last {
            Some(l) if self.uses_last => Some(l),
            // Only "is this the first move?" matters: keep one marker value.
            Some(_) if !self.first_moves.is_empty() => Some(0),
            _ => None,
        };
        Position { piles, last, cells: pos.cells }
    }

    /// True when every rule acts on one pile alone and play is normal with no history, so that
    /// a position is the sum of its piles and Sprague–Grundy values add by XOR.
    pub fn is_pile_sum(&self) -> bool {
        self.convention == Convention::Normal && self.is_heap_sum()
    }

    /// True when a position is a sum of independent piles whatever the convention: every rule
    /// acts on one pile alone, with no history. Under misère play such a game has a misère
    /// quotient (coin games are not sums there: two heads cannot cancel).
    pub(crate) fn is_heap_sum(&self) -> bool {
        !self.tracks_history()
            && self.board != Board::Rows
            && self.product.is_none()
            && self.moves.iter().all(|r| match &r.kind {
                RuleKind::Take { piles, .. } => piles.is_one(),
                RuleKind::Add { .. }
                | RuleKind::Split(_)
                | RuleKind::Octal { .. }
                | RuleKind::Code(_)
                | RuleKind::Turn { .. } => true,
                RuleKind::Bite { .. } | RuleKind::TakePair => false,
            })
    }

    /// True when some rule adds counters, so that play may go round in a circle and a
    /// position may be a draw.
    pub fn can_grow(&self) -> bool {
        self.adding_rule().is_some()
    }

    /// The first rule that adds counters, for messages about games that grow.
    pub(crate) fn adding_rule(&self) -> Option<&Rule> {
        self.first_moves.iter().chain(&self.moves).find(|r| matches!(r.kind, RuleKind::Add { .. }))
    }

    /// True when some rule is only Left's or only Right's: the players' moves differ, so
    /// positions have outcome classes L, R, N, P and canonical values instead of Grundy values.
    pub fn is_partizan(&self) -> bool {
        self.first_moves.iter().chain(&self.moves).any(|r| r.side.is_some())
    }

    /// The rules that make the game partizan, for messages.
    pub(crate) fn side_rules(&self) -> impl Iterator<Item = &Rule> {
        self.first_moves.iter().chain(&self.moves).filter(|r| r.side.is_some())
    }
}
