//! The syntax tree of a game file, exactly as written, with byte spans into the source.
//!
//! Nothing here is checked: names may be unknown and types wrong. `check` gives it meaning.

pub(crate) use crate::vocab::{BinOp, CmpOp, Convention, Side, Span, SplitShape, UnOp};
pub(crate) use crate::vocab::{ProductKind, Spanned};

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GameFile {
    pub statements: Vec<Spanned<Statement>>,
}

// One tree per file: the size of the larger variants costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Statement {
    /// `game "Name"`
    Game(Spanned<String>),
    /// `param k = 3`, `param S = {1, 3, 4}`, or `param k` with no default.
    Param { name: Spanned<String>, default: Option<ParamDefault> },
    /// `pile`, `piles`, `piles 2`, `rows`
    Board(BoardDecl),
    /// `move: …` or `first move: …`
    Move(MoveDecl),
    /// `play misère` / `play normal`
    Play(Convention),
    /// `acrostic product of "A" and "B"`: the two strings name heap games.
    Product { kind: ProductKind, parts: [Spanned<String>; 2] },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BoardDecl {
    OnePile,
    AnyPiles,
    FixedPiles(Spanned<u64>),
    Rows,
    /// a row of coins, numbered from 1; a position lists the coins showing heads
    Coins,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MoveDecl {
    pub first: bool,
    /// `left move:` / `right move:`: a move only that player may make (a partizan game).
    pub side: Option<Spanned<Side>>,
    pub action: Spanned<Action>,
    pub condition: Option<Expr>,
}

/// A parameter's value as written: a number, or a set of amounts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ParamDefault {
    Number(Expr),
    Set(Spanned<Vec<ChoiceSpec>>),
}

#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Action {
    Take(Take),
    /// `take k from one pile and l from the other`: two named amounts, one from each of two
    /// piles, which the condition may relate.
    TakePair {
        first: Spanned<String>,
        second: Spanned<String>,
    },
    /// `add 1..2`: put counters on one pile, so that play may come back to a position.
    Add {
        amount: Spanned<AmountSpec>,
    },
    Split(Split),
    /// An octal (take-and-break) code such as `0.77`, as written.
    Octal(Spanned<String>),
    /// `turn 1..3 coins, consecutive, …`: the rightmost goes from heads to tails.
    Turn {
        count: Spanned<AmountSpec>,
        shapes: Vec<Spanned<CoinShape>>,
    },
    /// `bite any square`, optionally `but (x, y)`.
    Bite {
        except: Option<Spanned<(u64, u64)>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Take {
    pub amount: Spanned<AmountSpec>,
    pub from: Option<Spanned<PileChoice>>,
    pub then_split: Option<Spanned<Split>>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum AmountSpec {
    /// `any`: 1 up to the whole pile.
    Any,
    /// `any except 2, 3`
    AnyExcept(Vec<ChoiceSpec>),
    /// `≤ 2·last`, `< 5`, `≥ 2`, `> n/2`
    Bound(Spanned<CmpOp>, Expr),
    /// `1..3`, `1 or 3`, `{1, 3, 4}`, `t`
    Choices(Vec<ChoiceSpec>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ChoiceSpec {
    Value(Expr),
    Range(Expr, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PileChoice {
    /// `from one pile` (the default)
    One,
    /// `from both piles`, `from 2 piles`, `from up to k piles`, with `each of` for independent amounts
    Several { count: Option<Expr>, up_to: bool, independent: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Split {
    pub parts: Option<Expr>,
    pub shape: Option<SplitShape>,
}

/// A condition on the set of coins a move turns.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CoinShape {
    Consecutive,
    EquallySpaced,
    /// the set is its own mirror image about its middle
    Symmetric,
    /// the set includes coin 1
    IncludesFirst,
    /// from the leftmost to the rightmost coin turned spans at most this many coins
    Within(Expr),
}

pub(crate) type Expr = Spanned<ExprKind>;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExprKind {
    /// The literal as written; it may not fit in 64 bits, which `check` reports.
    Int(String),
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Spanned<String>, Vec<Expr>),
}
