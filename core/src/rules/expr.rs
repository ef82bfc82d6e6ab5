//! Checked expressions: names resolved, types known, parameters folded to constants.
//! Evaluation uses checked arithmetic; an overflow is an error pointing at the expression.

use crate::wording::{give, Argument};
use miette::Diagnostic;
use thiserror::Error;

use crate::vocab::{BinOp, CmpOp, Span, UnOp};

/// The words a rule can read while it is being evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Var {
    /// the size of the pile being moved on
    N,
    /// the amount being taken
    T,
    /// the amount taken by the previous move
    Last,
    /// the first and second named amounts of `take k from one pile and l from the other`
    First,
    Second,
}

impl Var {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Var::N => "n",
            Var::T => "t",
            Var::Last => "last",
            Var::First => "the first amount",
            Var::Second => "the second amount",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Func {
    Min,
    Max,
    Abs,
    Prime,
    Square,
    Even,
    Odd,
    PowerOfTwo,
}

impl Func {
    pub(crate) const ALL: [(&'static str, Func); 8] = [
        ("min", Func::Min),
        ("max", Func::Max),
        ("abs", Func::Abs),
        ("prime", Func::Prime),
        ("square", Func::Square),
        ("even", Func::Even),
        ("odd", Func::Odd),
        ("power_of_two", Func::PowerOfTwo),
    ];

    /// The names rules may call, as written.
    pub(crate) fn names() -> impl Iterator<Item = &'static str> {
        Func::ALL.iter().map(|(n, _)| *n)
    }

    pub(crate) fn lookup(name: &str) -> Option<Func> {
        Func::ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// True for the functions that answer yes or no.
    pub(crate) fn is_predicate(self) -> bool {
        matches!(self, Func::Prime | Func::Square | Func::Even | Func::Odd | Func::PowerOfTwo)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExprKind {
    Int(i64),
    Var(Var),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

/// Values of the words in scope during one evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Env {
    pub n: Option<i64>,
    pub t: Option<i64>,
    pub last: Option<i64>,
    /// the two named amounts of a move that takes from two piles
    pub pair: Option<(i64, i64)>,
}

/// A rule's arithmetic that failed while moves were generated.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum EvalError {
    #[error("arithmetic overflow")]
    #[diagnostic(
        code(takeaway::eval::overflow),
        help("the value left the range of 64-bit integers; rewrite the rule so its numbers stay smaller")
    )]
    /// A number left the range of 64-bit integers.
    Overflow {
        #[label("this overflows when {context}")]
        /// The expression that overflowed.
        span: Span,
        /// The position and values it was evaluated with.
        context: String,
    },
    #[error("division by zero")]
    #[diagnostic(
        code(takeaway::eval::division_by_zero),
        help("guard the division, for example with `where last > 0`, or divide by something that cannot be 0")
    )]
    /// A division by zero.
    DivisionByZero {
        #[label("this divides by zero when {context}")]
        /// The division.
        span: Span,
        /// The position and values it was evaluated with.
        context: String,
    },
    #[error("`{word}` has no value here")]
    #[diagnostic(
        code(takeaway::eval::unbound),
        help("`last` has no value before the first move; give the position a previous move with {last}", last = give(Argument::Last))
    )]
    /// A word with no value at this position (`last` before the first move).
    Unbound {
        #[label("no value for `{word}` when {context}")]
        /// Where the word is.
        span: Span,
        /// The word.
        word: &'static str,
        /// The position it was evaluated at.
        context: String,
    },
}

fn describe_env(env: &Env) -> String {
    let mut parts = Vec::new();
    if let Some(n) = env.n {
        parts.push(format!("n = {n}"));
    }
    if let Some(t) = env.t {
        parts.push(format!("t = {t}"));
    }
    if let Some(l) = env.last {
        parts.push(format!("last = {l}"));
    }
    if let Some((a, b)) = env.pair {
        parts.push(format!("the amounts are {a} and {b}"));
    }
    if parts.is_empty() {
        "evaluated".into()
    } else {
        parts.join(", ")
    }
}

impl Expr {
    pub(crate) fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }

    /// The value of an integer expression.
    pub(crate) fn int(&self, env: &Env) -> Result<i64, EvalError> {
        let overflow = || EvalError::Overflow { span: self.span, context: describe_env(env) };
        match &self.kind {
            ExprKind::Int(v) => Ok(*v),
            ExprKind::Var(v) => {
                let value = match v {
                    Var::N => env.n,
                    Var::T => env.t,
                    Var::Last => env.last,
                    Var::First => env.pair.map(|p| p.0),
                    Var::Second => env.pair.map(|p| p.1),
                };
                value.ok_or_else(|| EvalError::Unbound { span: self.span, word: v.word(), context: describe_env(env) })
            }
            ExprKind::Unary(UnOp::Neg, a) => a.int(env)?.checked_neg().ok_or_else(overflow),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (a.int(env)?, b.int(env)?);
                match op {
                    BinOp::Add => x.checked_add(y).ok_or_else(overflow),
                    BinOp::Sub => x.checked_sub(y).ok_or_else(overflow),
                    BinOp::Mul => x.checked_mul(y).ok_or_else(overflow),
                    // A negative power is not a whole number; a power past 64 bits overflows.
                    BinOp::Pow => u32::try_from(y).ok().and_then(|y| x.checked_pow(y)).ok_or_else(overflow),
                    BinOp::Div | BinOp::Rem => {
                        if y == 0 {
                            return Err(EvalError::DivisionByZero { span: self.span, context: describe_env(env) });
                        }
                        // Floor semantics so that a rule means the same for every sign.
                        if *op == BinOp::Div {
                            x.checked_div_euclid(y).ok_or_else(overflow)
                        } else {
                            x.checked_rem_euclid(y).ok_or_else(overflow)
                        }
                    }
                    _ => unreachable!("checked: {op:?} is not an integer operator"),
                }
            }
            ExprKind::Call(f, args) => {
                let vals = args.iter().map(|a| a.int(env)).collect::<Result<Vec<_>, _>>()?;
                match f {
                    Func::Min => Ok(*vals.iter().min().expect("checked: min has arguments")),
                    Func::Max => Ok(*vals.iter().max().expect("checked: max has arguments")),
                    Func::Abs => vals[0].checked_abs().ok_or_else(overflow),
                    _ => unreachable!("checked: {f:?} is not an integer function"),
                }
            }
            ExprKind::Unary(UnOp::Not, _) => {
                unreachable!("checked: a condition is not an integer")
            }
        }
    }

    /// The value of a condition.
    pub(crate) fn truth(&self, env: &Env) -> Result<bool, EvalError> {
        match &self.kind {
            ExprKind::Unary(UnOp::Not, a) => Ok(!a.truth(env)?),
            ExprKind::Binary(BinOp::And, a, b) => Ok(a.truth(env)? && b.truth(env)?),
            ExprKind::Binary(BinOp::Or, a, b) => Ok(a.truth(env)? || b.truth(env)?),
            ExprKind::Binary(BinOp::Cmp(op), a, b) => {
                let (x, y) = (a.int(env)?, b.int(env)?);
                Ok(match op {
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    CmpOp::Ge => x >= y,
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                })
            }
            ExprKind::Call(f, args) => {
                let x = args[0].int(env)?;
                Ok(match f {
                    Func::Prime => is_prime(x),
                    Func::Square => is_square(x),
                    Func::PowerOfTwo => x > 0 && x & (x - 1) == 0,
                    Func::Even => x.rem_euclid(2) == 0,
                    Func::Odd => x.rem_euclid(2) == 1,
                    _ => unreachable!("checked: {f:?} is not a predicate"),
                })
            }
            _ => unreachable!("checked: an integer is not a condition"),
        }
    }

    /// Which of n, t, last the expression reads.
    pub(crate) fn reads(&self, var: Var) -> bool {
        match &self.kind {
            ExprKind::Var(v) => *v == var,
            ExprKind::Int(_) => false,
            ExprKind::Unary(_, a) => a.reads(var),
            ExprKind::Binary(_, a, b) => a.reads(var) || b.reads(var),
            ExprKind::Call(_, args) => args.iter().any(|a| a.reads(var)),
        }
    }

    /// True when the expression reads no word that changes during play.
    pub(crate) fn is_fixed(&self) -> bool {
        ![Var::N, Var::T, Var::Last, Var::First, Var::Second].into_iter().any(|v| self.reads(v))
    }

    /// The constant value, when the expression reads no variable.
    pub(crate) fn constant(&self) -> Option<i64> {
        if !self.is_fixed() {
            return None;
        }
        self.int(&Env::default()).ok()
    }
}

pub(crate) fn is_prime(x: i64) -> bool {
    if x < 2 {
        return false;
    }
    if x < 4 {
        return true;
    }
    if x % 2 == 0 {
        return false;
    }
    let mut d = 3i64;
    while d.saturating_mul(d) <= x {
        if x % d == 0 {
            return false;
        }
        d += 2;
    }
    true
}

pub(crate) fn is_square(x: i64) -> bool {
    if x < 0 {
        return false;
    }
    let r = (x as f64).sqrt() as i64;
    (r.saturating_sub(1)..=r + 1).any(|c| c >= 0 && c.checked_mul(c) == Some(x))
}
