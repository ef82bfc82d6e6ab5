//! The words every stage shares: where a piece of text is (`Span`), the play convention, the
//! two players, the comparisons, how a split divides a pile, how two games make a product.
//! The syntax tree, the compiled rules and the engines all speak them; none of them owns them.

use std::fmt;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// The byte after the last.
    pub end: usize,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub(crate) fn len(&self) -> usize {
        self.end - self.start
    }

    /// The smallest span covering both.
    pub(crate) fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        miette::SourceSpan::new(span.start.into(), span.len())
    }
}

/// How two heap games combine into a game on cells (x, y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ProductKind {
    /// a move is a move of the first game on x, or of the second on y
    Acrostic,
    /// a move is a move of the first game on x together with one of the second on y
    Tartan,
}

impl ProductKind {
    /// The word the language uses for it.
    pub(crate) fn word(self) -> &'static str {
        match self {
            ProductKind::Acrostic => "acrostic",
            ProductKind::Tartan => "tartan",
        }
    }
}

/// Who wins when no move is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// Normal play: the last player to move wins.
    Normal,
    /// Misère play: the last player to move loses.
    Misere,
}

/// The two players of a partizan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// Left, who moves by `left move:` rules.
    #[serde(alias = "left")]
    Left,
    /// Right, who moves by `right move:` rules.
    #[serde(alias = "right")]
    Right,
}

impl Side {
    /// The side's name, `Left` or `Right`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "Left",
            Side::Right => "Right",
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SplitShape {
    /// all parts pairwise different
    Unequal,
    /// all parts the same size
    Equal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
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

/// A value with the span of the text it came from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub(crate) fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
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
pub(crate) enum UnOp {
    Neg,
    Not,
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

/// Why a question failed, in the terms a front end answers: the game (or its position) is
/// wrong, the question does not fit the game, the budget refused it, its time ran out, or it
/// was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// the game text, its file, a position, or the arithmetic of its rules
    Game,
    /// a question the game cannot answer (a quotient of a partizan game, `--last` unused, …)
    Question,
    /// the estimate or the count of work passed the limits
    Refused,
    /// the deadline passed
    Timeout,
    /// the question's cancel token was used
    Cancelled,
}

impl FailureKind {
    /// The kind's name, as the web API and Python's exceptions give it.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Game => "game",
            FailureKind::Question => "question",
            FailureKind::Refused => "refused",
            FailureKind::Timeout => "timeout",
            FailureKind::Cancelled => "cancelled",
        }
    }
}

/// A value given with `--set NAME=VALUE` (or `set` in the REPL): a number, or a set of amounts
/// written `{1, 2, 5}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingValue {
    /// A number, such as `k = 3`.
    Number(i64),
    /// A set of amounts, such as `S = {1, 3, 4}`.
    Set(Vec<i64>),
}

impl SettingValue {
    /// A set of amounts, as the rules read it: ascending, each once, however it was written.
    pub fn set(members: impl IntoIterator<Item = i64>) -> SettingValue {
        let mut members: Vec<i64> = members.into_iter().collect();
        members.sort_unstable();
        members.dedup();
        SettingValue::Set(members)
    }
}

impl std::fmt::Display for SettingValue {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SettingValue::Number(v) => write!(f, "{v}"),
            SettingValue::Set(members) => {
                let shown: Vec<String> = members.iter().map(|m| m.to_string()).collect();
                write!(f, "{{{}}}", shown.join(", "))
            }
        }
    }
}

impl From<i64> for SettingValue {
    fn from(v: i64) -> Self {
        SettingValue::Number(v)
    }
}

/// A count with thousands separated, as the published records write them: 100,000,000.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
