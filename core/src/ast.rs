//! The syntax tree of a game file, exactly as written, with byte spans into the source.
//!
//! Nothing here is checked: names may be unknown and types wrong. `check` gives it meaning.

use std::fmt;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        miette::SourceSpan::new(span.start.into(), span.len())
    }
}

/// A value with the span of the text it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameFile {
    pub statements: Vec<Spanned<Statement>>,
}

// One tree per file: the size of the larger variants costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `game "Name"`
    Game(Spanned<String>),
    /// `param k = 3`, `param S = {1, 3, 4}`, or `param k` with no default.
    Param { name: Spanned<String>, default: Option<ParamDefault> },
    /// `pile`, `piles`, `piles 2`, `rows`
    Board(Board),
    /// `move: …` or `first move: …`
    Move(MoveDecl),
    /// `play misère` / `play normal`
    Play(Convention),
    /// `acrostic product of "A" and "B"`: the two strings name heap games.
    Product { kind: ProductKind, parts: [Spanned<String>; 2] },
}

/// How two heap games combine into a game on cells (x, y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProductKind {
    /// a move is a move of the first game on x, or of the second on y
    Acrostic,
    /// a move is a move of the first game on x together with one of the second on y
    Tartan,
}

impl ProductKind {
    /// The word the language uses for it.
    pub fn word(self) -> &'static str {
        match self {
            ProductKind::Acrostic => "acrostic",
            ProductKind::Tartan => "tartan",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Board {
    OnePile,
    AnyPiles,
    FixedPiles(Spanned<u64>),
    Rows,
    /// a row of coins, numbered from 1; a position lists the coins showing heads
    Coins,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    Normal,
    Misere,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveDecl {
    pub first: bool,
    /// `left move:` / `right move:`: a move only that player may make (a partizan game).
    pub side: Option<Spanned<Side>>,
    pub action: Spanned<Action>,
    pub condition: Option<Expr>,
}

/// A parameter's value as written: a number, or a set of amounts.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamDefault {
    Number(Expr),
    Set(Spanned<Vec<Choice>>),
}

/// The two players of a partizan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "Left",
            Side::Right => "Right",
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Take(Take),
    /// `take k from one pile and l from the other`: two named amounts, one from each of two
    /// piles, which the condition may relate.
    TakePair {
        first: Spanned<String>,
        second: Spanned<String>,
    },
    /// `add 1..2`: put counters on one pile, so that play may come back to a position.
    Add {
        amount: Spanned<Amount>,
    },
    Split(Split),
    /// An octal (take-and-break) code such as `0.77`, as written.
    Octal(Spanned<String>),
    /// `turn 1..3 coins, consecutive, …`: the rightmost goes from heads to tails.
    Turn {
        count: Spanned<Amount>,
        shapes: Vec<Spanned<CoinShape>>,
    },
    /// `bite any square`, optionally `but (x, y)`.
    Bite {
        except: Option<Spanned<(u64, u64)>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Take {
    pub amount: Spanned<Amount>,
    pub from: Option<Spanned<PileChoice>>,
    pub then_split: Option<Spanned<Split>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Amount {
    /// `any`: 1 up to the whole pile.
    Any,
    /// `any except 2, 3`
    AnyExcept(Vec<Choice>),
    /// `≤ 2·last`, `< 5`, `≥ 2`, `> n/2`
    Bound(Spanned<CmpOp>, Expr),
    /// `1..3`, `1 or 3`, `{1, 3, 4}`, `t`
    Choices(Vec<Choice>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    Value(Expr),
    Range(Expr, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum PileChoice {
    /// `from one pile` (the default)
    One,
    /// `from both piles`, `from 2 piles`, `from up to k piles`, with `each of` for independent amounts
    Several { count: Option<Expr>, up_to: bool, independent: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    pub parts: Option<Expr>,
    pub shape: Option<SplitShape>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitShape {
    /// all parts pairwise different
    Unequal,
    /// all parts the same size
    Equal,
}

/// A condition on the set of coins a move turns.
#[derive(Clone, Debug, PartialEq)]
pub enum CoinShape {
    Consecutive,
    EquallySpaced,
    /// the set is its own mirror image about its middle
    Symmetric,
    /// the set includes coin 1
    IncludesFirst,
    /// from the leftmost to the rightmost coin turned spans at most this many coins
    Within(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// x ^ y, x to the power y
    Pow,
    Cmp(CmpOp),
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

pub type Expr = Spanned<ExprKind>;

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// The literal as written; it may not fit in 64 bits, which `check` reports.
    Int(String),
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Spanned<String>, Vec<Expr>),
}

impl fmt::Display for CmpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "≤",
            CmpOp::Gt => ">",
            CmpOp::Ge => "≥",
            CmpOp::Eq => "=",
            CmpOp::Ne => "≠",
        })
    }
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BinOp::Add => f.write_str("+"),
            BinOp::Sub => f.write_str("-"),
            BinOp::Mul => f.write_str("×"),
            BinOp::Div => f.write_str("/"),
            BinOp::Rem => f.write_str("%"),
            BinOp::Pow => f.write_str("^"),
            BinOp::Cmp(op) => op.fmt(f),
            BinOp::And => f.write_str("and"),
            BinOp::Or => f.write_str("or"),
        }
    }
}
