//! Parsing: game text → `ast::GameFile`. The only module that touches pest `Pair`s.

mod complete;
mod error;
mod format;
mod outline;
mod phrasings;
mod symbols;
mod tokens;
mod words;

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use pest_derive::Parser;
use std::sync::OnceLock;

pub use complete::{complete, Completion, CompletionKind};
pub use error::ParseError;
pub use format::format;
use outline::by_line;
pub(crate) use outline::keywords;
pub use outline::{outline, Outline};
pub use symbols::{symbols, Symbol, SymbolKind};
pub use tokens::{tokens, Token, TokenKind};
pub use words::keyword_help;

use crate::ast::*;

#[derive(Parser)]
#[grammar = "../grammar/takeaway.pest"]
struct GameParser;

/// Deeper nesting than this is refused before pest sees it, so that no input can exhaust the stack.
pub(crate) const MAX_NESTING: usize = 64;

/// The most operators one expression may apply in a row, counting those inside its brackets:
/// every later stage walks expressions recursively, so their depth is bounded here.
pub(crate) const MAX_OPERATORS: usize = 200;

/// Parses a whole game text.
pub(crate) fn parse(text: &str) -> Result<GameFile, ParseError> {
    match parse_within(text, || Ok::<(), std::convert::Infallible>(())) {
        Ok(file) => Ok(file),
        Err(Interrupted::Parse(e)) => Err(e),
        Err(Interrupted::Stopped(never)) => match never {},
    }
}

/// Why `parse_within` gave no file: the text is wrong, or the question stopped it.
#[derive(Debug)]
pub(crate) enum Interrupted<E> {
    /// The text is wrong.
    Parse(ParseError),
    /// `between` said to stop.
    Stopped(E),
}

/// Text longer than this, in bytes, is parsed a piece of whole lines at a time, and `between`
/// is asked between pieces whether to go on: a megabyte's parse takes most of a second, too
/// long to go without reading a question's deadline. A statement never spans lines, so the
/// pieces give the statements, spans and errors of one parse.
const PIECE: usize = 1 << 16;

thread_local! {
    /// Where the piece being parsed starts in the whole text: its spans are moved by it.
    static PIECE_START: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Parses a whole game text as `parse` does, calling `between` between pieces of it (see
/// `PIECE`) and stopping with its error.
pub(crate) fn parse_within<E>(
    text: &str,
    mut between: impl FnMut() -> Result<(), E>,
) -> Result<GameFile, Interrupted<E>> {
    prescan(text).map_err(Interrupted::Parse)?;
    pest::set_error_detail(true);
    let mut statements = Vec::new();
    let mut start = 0;
    loop {
        let end = piece_end(text, start);
        parse_piece(text, start, end, &mut statements).map_err(Interrupted::Parse)?;
        if end >= text.len() {
            return Ok(GameFile { statements });
        }
        between().map_err(Interrupted::Stopped)?;
        start = end;
    }
}

/// Where the piece of whole lines from `start` ends: after the last newline within `PIECE`
/// bytes (or the first one past it, for a longer line), or at the end of the text.
fn piece_end(text: &str, start: usize) -> usize {
    if text.len() - start <= PIECE {
        return text.len();
    }
    let bytes = &text.as_bytes()[start..];
    match bytes[..PIECE].iter().rposition(|&b| b == b'\n') {
        Some(at) => start + at + 1,
        None => bytes.iter().position(|&b| b == b'\n').map_or(text.len(), |at| start + at + 1),
    }
}

/// Parses `text[start..end]` (whole lines) and adds its statements, with spans in `text`.
fn parse_piece(
    text: &str,
    start: usize,
    end: usize,
    statements: &mut Vec<Spanned<Statement>>,
) -> Result<(), ParseError> {
    let piece = &text[start..end];
    let mut pairs = GameParser::parse(Rule::file, piece).map_err(|e| error_from_pest(text, e, start))?;
    let file = pairs.next().expect("the file rule always yields one pair");
    PIECE_START.set(start);
    let within = expressions_within_limit(&file);
    if within.is_ok() {
        statements.extend(file.into_inner().filter(|p| !matches!(p.as_rule(), Rule::eol | Rule::EOI)).map(statement));
    }
    PIECE_START.set(0);
    within
}

/// The longest game text read, in bytes: a game is a few lines, and a text of megabytes is a
/// mistake (or an attack) whose parse would take seconds.
pub const MAX_TEXT: usize = 1 << 20;

/// Catches what pest would handle badly: texts past `MAX_TEXT`, strings left open and brackets
/// nested past the limit.
fn prescan(text: &str) -> Result<(), ParseError> {
    if text.len() > MAX_TEXT {
        let mut at = MAX_TEXT;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        return Err(ParseError::TooLong { span: (at, 0).into(), bytes: text.len(), limit: MAX_TEXT });
    }
    // A control character (an escape sequence's ESC, a BEL) in a name or a comment would reach
    // the terminals the text is printed to; tab, CR and LF are a text's own.
    if let Some((at, c)) = text.char_indices().find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        let name = match c {
            '\0' => "NUL: the file may not be text".to_string(),
            '\u{1b}' => "ESC".to_string(),
            '\u{7}' => "BEL".to_string(),
            _ => "which does not show".to_string(),
        };
        return Err(ParseError::ControlCharacter {
            span: (at, c.len_utf8()).into(),
            name: format!("U+{:04X}, {name}", c as u32),
        });
    }
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                while let Some(&(_, c)) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
            }
            '"' => {
                let mut closed = false;
                while let Some(&(_, c)) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                    if c == '"' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return Err(ParseError::UnterminatedString { span: (i, 1).into() });
                }
            }
            '(' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ParseError::TooDeep { span: (i, 1).into(), limit: MAX_NESTING });
                }
            }
            ')' | '}' => depth = depth.saturating_sub(1),
            '\n' => depth = 0,
            _ => {}
        }
    }
    Ok(())
}

/// Refuses an expression of the parsed `file` with more operators than `MAX_OPERATORS`.
fn expressions_within_limit(file: &Pair<Rule>) -> Result<(), ParseError> {
    // `flatten` walks the tree without recursion; each expression's walk recurses only into
    // brackets, which `prescan` bounds.
    file.clone()
        .into_inner()
        .flatten()
        .filter(|pair| matches!(pair.as_rule(), Rule::expr | Rule::arith))
        .try_for_each(|pair| operators_within_limit(pair, 0))
}

/// Counts the operators of an expression (and, through brackets and calls, of the expressions
/// inside it) on top of `outer`; refuses at the operator that passes `MAX_OPERATORS`.
fn operators_within_limit(pair: Pair<Rule>, outer: usize) -> Result<(), ParseError> {
    use Rule::*;
    let mut count = outer;
    for child in pair.into_inner() {
        match child.as_rule() {
            neg | not | add | sub | mul | div | rem | pow | le | ge | ne | eq | lt | gt | and | or => {
                count += 1;
                if count > MAX_OPERATORS {
                    let s = span_of(&child);
                    return Err(ParseError::TooManyOperators {
                        span: (s.start, s.end - s.start).into(),
                        limit: MAX_OPERATORS,
                    });
                }
            }
            paren | call => {
                for inner in child.into_inner().filter(|p| matches!(p.as_rule(), expr | arith)) {
                    operators_within_limit(inner, count)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let piece = PIECE_START.get();
    Span::new(piece + s.start(), piece + s.end())
}

/// The children of a pair, without the keyword tokens, which carry no information.
fn content(pair: Pair<Rule>) -> impl Iterator<Item = Pair<Rule>> {
    pair.into_inner().filter(|p| !is_keyword(p.as_rule()))
}

fn is_keyword(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        kw_game
            | kw_param
            | kw_pile
            | kw_piles
            | kw_rows
            | kw_first
            | kw_left
            | kw_right
            | kw_move
            | kw_play
            | kw_take
            | kw_add
            | kw_except
            | kw_from
            | kw_one
            | kw_a
            | kw_both
            | kw_the
            | kw_other
            | kw_each
            | kw_of
            | kw_up
            | kw_to
            | kw_then
            | kw_split
            | kw_into
            | kw_octal
            | kw_code
            | kw_bite
            | kw_turn
            | kw_coins
            | kw_coin
            | kw_within
            | kw_square
            | kw_but
            | kw_where
            | kw_or
            | kw_product
    )
}

fn statement(pair: Pair<Rule>) -> Spanned<Statement> {
    let span = span_of(&pair);
    let node = match pair.as_rule() {
        Rule::game_decl => {
            let s = content(pair).next().expect("game_decl has a string");
            let sp = span_of(&s);
            let text = s.as_str();
            Statement::Game(Spanned::new(text[1..text.len() - 1].to_string(), sp))
        }
        Rule::param_decl => {
            let mut it = content(pair);
            let name = it.next().expect("param_decl has a name");
            let default = it.next().map(|value| {
                if value.as_rule() == Rule::param_set {
                    let span = span_of(&value);
                    ParamDefault::Set(Spanned::new(value.into_inner().map(choice).collect(), span))
                } else {
                    ParamDefault::Number(expression(value))
                }
            });
            Statement::Param { name: Spanned::new(name.as_str().to_string(), span_of(&name)), default }
        }
        Rule::board_decl => {
            let inner = pair.into_inner().next().expect("board_decl has one child");
            Statement::Board(match inner.as_rule() {
                Rule::kw_pile => BoardDecl::OnePile,
                Rule::kw_piles => BoardDecl::AnyPiles,
                Rule::kw_rows => BoardDecl::Rows,
                Rule::kw_coins => BoardDecl::Coins,
                Rule::fixed_piles => {
                    let n = content(inner).next().expect("fixed_piles has a count");
                    // The grammar admits only digits; too many of them saturate and `check` reports it.
                    let count = n.as_str().parse::<u64>().unwrap_or(u64::MAX);
                    BoardDecl::FixedPiles(Spanned::new(count, span_of(&n)))
                }
                r => unreachable!("board_decl child {r:?}"),
            })
        }
        Rule::move_decl => {
            let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::colon);
            let head = it.next().expect("move_decl has a head");
            let head_kind = head.into_inner().next();
            let first = head_kind.as_ref().map(|p| p.as_rule()) == Some(Rule::first_move);
            let side = match head_kind {
                Some(p) if p.as_rule() == Rule::side_move => {
                    let word = p.into_inner().next().expect("side_move starts with left or right");
                    let side = if word.as_rule() == Rule::kw_left { Side::Left } else { Side::Right };
                    Some(Spanned::new(side, span_of(&word)))
                }
                _ => None,
            };
            let act = it.next().expect("move_decl has an action");
            let (action, inner_condition) = action(act);
            let outer_condition =
                it.next().map(|w| expression(content(w).next().expect("where_clause has an expression")));
            // Conditions before and after `, then split` both must hold.
            let condition = match (inner_condition, outer_condition) {
                (Some(a), Some(b)) => {
                    let span = a.span.to(b.span);
                    Some(Spanned::new(ExprKind::Binary(BinOp::And, Box::new(a), Box::new(b)), span))
                }
                (a, b) => a.or(b),
            };
            Statement::Move(MoveDecl { first, side, action, condition })
        }
        Rule::play_decl => {
            let conv = content(pair).next().expect("play_decl has a convention");
            let kw = conv.into_inner().next().expect("convention has a keyword");
            Statement::Play(if kw.as_rule() == Rule::kw_misere { Convention::Misere } else { Convention::Normal })
        }
        Rule::product_decl => {
            let mut it = content(pair);
            let kind = it.next().expect("product_decl has a kind");
            let kind = match kind.into_inner().next().map(|k| k.as_rule()) {
                Some(Rule::kw_acrostic) => ProductKind::Acrostic,
                _ => ProductKind::Tartan,
            };
            let mut it = it.filter(|p| p.as_rule() == Rule::string);
            let mut part = || {
                let s = it.next().expect("product_decl has two strings");
                let text = s.as_str();
                Spanned::new(text[1..text.len() - 1].to_string(), span_of(&s))
            };
            let first = part();
            let second = part();
            Statement::Product { kind, parts: [first, second] }
        }
        r => unreachable!("statement rule {r:?}"),
    };
    Spanned::new(node, span)
}

/// The action, and the condition written inside it (before `, then split`), if any.
fn action(pair: Pair<Rule>) -> (Spanned<Action>, Option<Expr>) {
    let span = span_of(&pair);
    let mut condition = None;
    let node = match pair.as_rule() {
        Rule::take => {
            let mut amount = None;
            let mut from = None;
            let mut then_split = None;
            for p in content(pair) {
                match p.as_rule() {
                    Rule::amount => amount = Some(build_amount(p)),
                    Rule::from_clause => {
                        let pc = content(p).next().expect("from_clause has a pile choice");
                        from = Some(pile_choice(pc));
                    }
                    Rule::where_clause => {
                        condition = Some(expression(content(p).next().expect("where_clause has an expression")));
                    }
                    Rule::then_split => {
                        let s = content(p).next().expect("then_split has a split");
                        let sp = span_of(&s);
                        then_split = Some(Spanned::new(build_split(s), sp));
                    }
                    r => unreachable!("take child {r:?}"),
                }
            }
            Action::Take(Take { amount: amount.expect("take has an amount"), from, then_split })
        }
        Rule::take_pair => {
            let mut names = content(pair).filter(|p| p.as_rule() == Rule::name).map(|p| {
                let sp = span_of(&p);
                Spanned::new(p.as_str().to_string(), sp)
            });
            let first = names.next().expect("take_pair names its first amount");
            let second = names.next().expect("take_pair names its second amount");
            Action::TakePair { first, second }
        }
        Rule::turn => {
            let mut count = None;
            let mut shapes = Vec::new();
            for p in content(pair) {
                match p.as_rule() {
                    Rule::amount => count = Some(build_amount(p)),
                    Rule::coin_shape => {
                        let sp = span_of(&p);
                        let inner = p.into_inner().next().expect("coin_shape has one child");
                        let shape = match inner.as_rule() {
                            Rule::kw_consecutive => CoinShape::Consecutive,
                            Rule::equally_spaced => CoinShape::EquallySpaced,
                            Rule::kw_symmetric => CoinShape::Symmetric,
                            Rule::including_first => CoinShape::IncludesFirst,
                            Rule::within => {
                                CoinShape::Within(expression(content(inner).next().expect("within has a number")))
                            }
                            r => unreachable!("coin_shape child {r:?}"),
                        };
                        shapes.push(Spanned::new(shape, sp));
                    }
                    r => unreachable!("turn child {r:?}"),
                }
            }
            Action::Turn { count: count.expect("turn has a count"), shapes }
        }
        Rule::put => {
            let amount = content(pair).find(|p| p.as_rule() == Rule::amount).expect("add has an amount");
            Action::Add { amount: build_amount(amount) }
        }
        Rule::split => Action::Split(build_split(pair)),
        Rule::octal => {
            let code = content(pair).next().expect("octal has a code");
            Action::Octal(Spanned::new(code.as_str().to_string(), span_of(&code)))
        }
        Rule::bite => {
            let except = content(pair).find(|p| p.as_rule() == Rule::square).map(|sq| {
                let sp = span_of(&sq);
                let nums: Vec<u64> = sq.into_inner().map(|n| n.as_str().parse::<u64>().unwrap_or(u64::MAX)).collect();
                Spanned::new((nums[0], nums[1]), sp)
            });
            Action::Bite { except }
        }
        r => unreachable!("action rule {r:?}"),
    };
    (Spanned::new(node, span), condition)
}

fn build_amount(pair: Pair<Rule>) -> Spanned<AmountSpec> {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("amount has one child");
    let node = match inner.as_rule() {
        Rule::kw_any => AmountSpec::Any,
        Rule::any_except => {
            AmountSpec::AnyExcept(content(inner).filter(|p| p.as_rule() == Rule::choice).map(choice).collect())
        }
        Rule::bound => {
            let mut it = inner.into_inner();
            let op = it.next().expect("bound has an operator");
            let op_span = span_of(&op);
            let op = cmp_op(op.as_rule());
            let e = expression(it.next().expect("bound has an expression"));
            AmountSpec::Bound(Spanned::new(op, op_span), e)
        }
        Rule::choice_set | Rule::choices => {
            AmountSpec::Choices(content(inner).filter(|p| p.as_rule() == Rule::choice).map(choice).collect())
        }
        r => unreachable!("amount child {r:?}"),
    };
    Spanned::new(node, span)
}

fn choice(pair: Pair<Rule>) -> ChoiceSpec {
    let inner = pair.into_inner().next().expect("choice has one child");
    match inner.as_rule() {
        Rule::range => {
            let mut it = inner.into_inner();
            let lo = expression(it.next().expect("range has a start"));
            let hi = expression(it.next().expect("range has an end"));
            ChoiceSpec::Range(lo, hi)
        }
        _ => ChoiceSpec::Value(expression(inner)),
    }
}

fn pile_choice(pair: Pair<Rule>) -> Spanned<PileChoice> {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("pile_choice has one child");
    let node = match inner.as_rule() {
        Rule::one_pile => PileChoice::One,
        Rule::both_piles => {
            let independent = content(inner).any(|p| p.as_rule() == Rule::each_of);
            PileChoice::Several { count: None, up_to: false, independent }
        }
        Rule::several_piles => {
            let mut independent = false;
            let mut up_to = false;
            let mut count = None;
            for p in content(inner) {
                match p.as_rule() {
                    Rule::each_of => independent = true,
                    Rule::up_to => up_to = true,
                    Rule::arith => count = Some(expression(p)),
                    r => unreachable!("several_piles child {r:?}"),
                }
            }
            PileChoice::Several { count, up_to, independent }
        }
        r => unreachable!("pile_choice child {r:?}"),
    };
    Spanned::new(node, span)
}

fn build_split(pair: Pair<Rule>) -> Split {
    let mut parts = None;
    let mut shape = None;
    for p in content(pair) {
        match p.as_rule() {
            Rule::arith => parts = Some(expression(p)),
            Rule::split_shape => {
                let kw = p.into_inner().next().expect("split_shape has a keyword");
                shape = Some(if kw.as_rule() == Rule::kw_unequal { SplitShape::Unequal } else { SplitShape::Equal });
            }
            r => unreachable!("split child {r:?}"),
        }
    }
    Split { parts, shape }
}

fn cmp_op(rule: Rule) -> CmpOp {
    match rule {
        Rule::lt => CmpOp::Lt,
        Rule::le => CmpOp::Le,
        Rule::gt => CmpOp::Gt,
        Rule::ge => CmpOp::Ge,
        Rule::eq => CmpOp::Eq,
        Rule::ne => CmpOp::Ne,
        r => unreachable!("comparison rule {r:?}"),
    }
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            // After the sign: -2^2 is -(2^2), as in mathematics; 2^3^2 is 2^(3^2).
            .op(Op::infix(Rule::pow, Assoc::Right))
    })
}

/// Builds an expression from an `expr` or `arith` pair (or a bare primary).
fn expression(pair: Pair<Rule>) -> Expr {
    match pair.as_rule() {
        Rule::expr | Rule::arith => pratt_expr(pair.into_inner()),
        _ => primary(pair),
    }
}

fn pratt_expr(pairs: Pairs<Rule>) -> Expr {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let span = span_of(&op).to(rhs.span);
            let op = if op.as_rule() == Rule::neg { UnOp::Neg } else { UnOp::Not };
            Spanned::new(ExprKind::Unary(op, Box::new(rhs)), span)
        })
        .map_infix(|lhs, op, rhs| {
            let span = lhs.span.to(rhs.span);
            let op = match op.as_rule() {
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                Rule::div => BinOp::Div,
                Rule::rem => BinOp::Rem,
                Rule::pow => BinOp::Pow,
                Rule::and => BinOp::And,
                Rule::or => BinOp::Or,
                r => BinOp::Cmp(cmp_op(r)),
            };
            // `k ≤ l < k + 2` reads as mathematics does: `k ≤ l and l < k + 2`.
            if let (BinOp::Cmp(_), Some(middle)) = (op, chain_end(&lhs)) {
                let next_span = middle.span.to(rhs.span);
                let next = Spanned::new(ExprKind::Binary(op, Box::new(middle.clone()), Box::new(rhs)), next_span);
                return Spanned::new(ExprKind::Binary(BinOp::And, Box::new(lhs), Box::new(next)), span);
            }
            Spanned::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span)
        })
        .parse(pairs)
}

/// The last operand of a comparison chain written without brackets (`l` in `k ≤ l`, `c` in
/// `a < b < c`), which the next comparison in the chain reads. Brackets widen a node's span
/// beyond its operands', which is how `(a < b) < c` stays a comparison of a condition.
fn chain_end(e: &Expr) -> Option<&Expr> {
    match &e.node {
        ExprKind::Binary(op, a, b) if e.span == a.span.to(b.span) => match op {
            BinOp::Cmp(_) => Some(b),
            BinOp::And if matches!(b.node, ExprKind::Binary(BinOp::Cmp(_), ..)) => chain_end(b),
            _ => None,
        },
        _ => None,
    }
}

/// The value of a number written as a word (the grammar's `number_word`).
fn number_word(word: &str) -> u64 {
    const WORDS: [&str; 11] =
        ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    WORDS.iter().position(|w| *w == word).map_or(0, |i| i as u64 + 2)
}

fn primary(pair: Pair<Rule>) -> Expr {
    let span = span_of(&pair);
    let node = match pair.as_rule() {
        Rule::integer => ExprKind::Int(pair.as_str().to_string()),
        Rule::number_word => ExprKind::Int(number_word(pair.as_str()).to_string()),
        Rule::name => ExprKind::Name(pair.as_str().to_string()),
        Rule::paren => {
            let inner = pair.into_inner().next().expect("paren has an expression");
            // Keep the brackets in the span: a diagnostic then points at what was written.
            return Spanned::new(expression(inner).node, span);
        }
        Rule::call => {
            let mut it = pair.into_inner();
            let name = it.next().expect("call has a name");
            let name = Spanned::new(name.as_str().to_string(), span_of(&name));
            ExprKind::Call(name, it.map(expression).collect())
        }
        Rule::expr | Rule::arith => return expression(pair),
        r => unreachable!("primary rule {r:?}"),
    };
    Spanned::new(node, span)
}

// ---- errors --------------------------------------------------------------------------------

/// What a rule that pest expected is, in words; `None` for rules that say nothing useful.
fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        eol => "the end of the line",
        colon => "`:`",
        EOI => "the end of the text",
        game_decl | kw_game => "`game`",
        param_decl | kw_param => "`param`",
        param_set => "a set of amounts such as {1, 3, 4}",
        board_decl | fixed_piles | kw_pile | kw_piles | kw_rows => "`pile`, `piles`, `rows` or `coins`",
        turn | kw_turn => "`turn`",
        kw_coins | kw_coin => "`coins`",
        coin_shape | kw_consecutive | equally_spaced | kw_equally | kw_spaced | kw_symmetric | including_first
        | kw_including | within | kw_within => {
            "a condition on the coins, such as `consecutive`, `equally spaced`, `symmetric`, `including the first` or `within 5`"
        }
        move_decl | move_head | kw_move => "`move:`",
        first_move | kw_first => "`first move:`",
        side_move | kw_left | kw_right => "`left move:` or `right move:`",
        play_decl | kw_play => "`play`",
        product_decl | product_kind | kw_acrostic | kw_tartan => "`acrostic product of` or `tartan product of`",
        kw_product => "`product`",
        convention | kw_misere | kw_normal => "`misère` or `normal`",
        take | take_pair | kw_take => "`take`",
        kw_the => "`the`",
        kw_other => "`other`",
        put | kw_add => "`add`",
        split | kw_split => "`split`",
        octal | kw_octal => "`octal`",
        kw_code => "`code`",
        bite | kw_bite => "`bite`",
        amount | any_except | kw_any | bound | choice_set | choices | choice | range => {
            "an amount such as `any`, `1..3`, `1 or 3` or `≤ 2·last`"
        }
        kw_except => "`except`",
        from_clause | kw_from => "`from`",
        pile_choice | one_pile | both_piles | several_piles | kw_one | kw_a | kw_both => {
            "which piles, such as `one pile`, `both piles` or `up to 2 piles`"
        }
        each_of | kw_each | kw_of => "`each of`",
        up_to | kw_up | kw_to => "`up to`",
        then_split | kw_then => "`, then split`",
        kw_into => "`into`",
        split_shape | kw_unequal | kw_equal => "`unequal` or `equal`",
        octal_code => "a take-and-break code such as 0.77 or 4!.0",
        kw_square => "`square`",
        kw_but => "`but`",
        square => "a square such as (1, 1)",
        where_clause | kw_where => "`where`",
        expr | arith | integer | name | call | paren | neg | not | kw_not => "a number or an expression",
        add | sub | mul | div | rem | le | ge | ne | eq | lt | gt | and | or | kw_and | kw_or => "an operator",
        string => "a name in double quotes",
        _ => return None,
    })
}

/// Punctuation that pest tried at the error position and that a user should be told about.
const PUNCTUATION: &[&str] = &["=", ":", "..", ",", "(", ")", "{", "}"];

/// The diagnostic of pest's error in the piece of `text` that starts at `piece`.
fn error_from_pest(text: &str, err: pest::error::Error<Rule>, piece: usize) -> ParseError {
    let pos = piece
        + match err.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        };
    let mut expected: Vec<&str> = Vec::new();
    let mut push = |w: &'static str| {
        if !expected.contains(&w) {
            expected.push(w);
        }
    };
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &err.variant {
        for r in positives {
            if let Some(w) = describe(*r) {
                push(w);
            }
        }
    }
    if let Some(attempts) = err.parse_attempts() {
        for tok in attempts.expected_tokens() {
            // The token type is not exported by pest; its text is enough here.
            let token = tok.to_string();
            {
                if let Some(p) = PUNCTUATION.iter().find(|p| **p == token) {
                    push(match *p {
                        "=" => "`=`",
                        ":" => "`:`",
                        ".." => "`..`",
                        "," => "`,`",
                        "(" => "`(`",
                        ")" => "`)`",
                        "{" => "`{`",
                        _ => "`}`",
                    });
                }
            }
        }
    }
    // Where a rule may start, so may a first move's and one player's: pest names only the
    // rule, and `Left: take 1 or 2` was told of `move:` alone.
    if expected.contains(&"`move:`") {
        for also in ["`first move:`", "`left move:` or `right move:`"] {
            if !expected.contains(&also) {
                expected.push(also);
            }
        }
    }
    // Drop what another entry already says.
    if expected.contains(&"a number or an expression") {
        expected.retain(|w| *w != "`(`");
    }
    if expected.contains(&"an operator") {
        expected.retain(|w| *w != "`=`");
    }
    // A code may start with `{`: the code's own description says so.
    if expected.contains(&"a take-and-break code such as 0.77 or 4!.0") {
        expected.retain(|w| *w != "`{`");
    }
    if expected.contains(&"`, then split`") {
        expected.retain(|w| *w != "`,`");
    }
    if expected.contains(&"the end of the line") {
        expected.retain(|w| *w != "the end of the text");
    }
    // "the end of the line" is true but unhelpful when something better is possible; say it last.
    expected.sort_by_key(|w| (w.starts_with("the end"), *w == "an operator"));
    let expected_text = join_or(&expected);
    let help = help_for(&expected);

    let rest = &text[pos.min(text.len())..];
    if rest_is_blank(rest) {
        let at = last_token_before(text, pos);
        return ParseError::Incomplete { span: at.into(), expected: expected_text, help };
    }
    let found_len = token_len(rest);
    let token = &rest[..found_len];
    let found = describe_found(token);
    let phrased = near_miss(text, pos, token).or_else(|| phrasing_help(line_at(text, pos)));
    let (help, fix) = match (phrased, nearest_word(token, &expected)) {
        (Some(phrase), _) => (phrase, None),
        (None, Some(word)) => {
            let fix = word.trim_end_matches(':').to_string();
            (format!("did you mean `{word}`? ({help})"), Some(fix))
        }
        (None, None) => (help, None),
    };
    ParseError::Unexpected { found, span: (pos, found_len).into(), expected: expected_text, help, fix }
}

/// The whole line of `text` that byte `pos` falls on.
pub(crate) fn line_at(text: &str, pos: usize) -> &str {
    let pos = pos.min(text.len());
    let pos = (0..=pos).rev().find(|&p| text.is_char_boundary(p)).unwrap_or(0);
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    &text[start..end]
}

pub(crate) use phrasings::phrasing_help;

/// The phrase to write for what a teacher would say in words: `t is square` is a call,
/// `split into two unequal heaps` needs no noun. Only for words the grammar cannot read at
/// that place.
fn near_miss(text: &str, pos: usize, token: &str) -> Option<String> {
    let line_start = text[..pos.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..pos.min(text.len())].trim_end();
    let last_word = before.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
    match token {
        "is" if !last_word.is_empty() => {
            let rest = text[pos + token.len()..].trim_start();
            let rest = rest.strip_prefix("a ").or_else(|| rest.strip_prefix("an ")).unwrap_or(rest);
            let property: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let call = if property.is_empty() { "square" } else { property.as_str() };
            Some(format!(
                "a property of a number is written as a call: `where {call}({last_word})` (and `not {call}({last_word})`); the functions are prime, square, power_of_two and the others the language reference lists"
            ))
        }
        "heaps" | "heap" | "piles" | "pile" | "parts" | "part" | "pieces" if before.contains("split") => {
            let statement = before.split_once(':').map_or(before, |(_, rule)| rule.trim());
            Some(format!("a split needs no noun after it: write `{statement}` (the parts are piles)"))
        }
        // `take 1 to 3`: the range is written with two dots.
        "to" | "through" | "thru" if last_word.chars().all(|c| c.is_ascii_digit()) && !last_word.is_empty() => {
            let rest = text[pos + token.len()..].trim_start();
            let upper: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let upper = if upper.is_empty() { "3".to_string() } else { upper };
            Some(format!(
                "a range is written with two dots: `{last_word}..{upper}` (as in `move: take {last_word}..{upper}`)"
            ))
        }
        _ => None,
    }
}

/// The expected keyword a misspelt word is closest to (`mvoe` → `move`, `tkae` → `take`), when
/// it is close: at most two edits, and fewer than half its letters.
fn nearest_word(token: &str, expected: &[&str]) -> Option<String> {
    if token.len() < 3 || !token.chars().all(char::is_alphabetic) {
        return None;
    }
    expected
        .iter()
        .flat_map(|e| e.split('`').skip(1).step_by(2))
        .filter(|w| w.trim_end_matches(':').chars().all(|c| c.is_alphabetic() || c == 'è'))
        .map(|w| (strsim::damerau_levenshtein(token, w.trim_end_matches(':')), w))
        .filter(|&(d, w)| d <= 2 && d * 2 < w.chars().count())
        .min()
        .map(|(_, w)| w.to_string())
}

fn rest_is_blank(rest: &str) -> bool {
    rest.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

/// The span of the last token before `pos`, for "expected … after this".
fn last_token_before(text: &str, pos: usize) -> (usize, usize) {
    let before = text[..pos.min(text.len())].trim_end();
    let end = before.len();
    let start =
        before.char_indices().rev().find(|(_, c)| c.is_whitespace()).map(|(i, c)| i + c.len_utf8()).unwrap_or(0);
    (start, end - start)
}

/// Length in bytes of the token at the start of `rest`: a word, a number, or one character.
fn token_len(rest: &str) -> usize {
    let mut chars = rest.char_indices();
    match chars.next() {
        None => 0,
        Some((_, c)) if c == '\n' || c == '\r' => c.len_utf8(),
        Some((_, c)) if c.is_alphanumeric() || c == '_' => {
            rest.char_indices().find(|(_, c)| !(c.is_alphanumeric() || *c == '_')).map(|(i, _)| i).unwrap_or(rest.len())
        }
        Some((_, c)) => c.len_utf8(),
    }
}

fn describe_found(token: &str) -> String {
    match token {
        "" => "end of the text".into(),
        "\n" | "\r" => "end of the line".into(),
        // A byte that prints as nothing (a NUL, a control character, an invisible space) is
        // named by its code: "unexpected ` `" would show nothing to fix.
        t if t.chars().count() == 1 && t.chars().all(|c| c.is_control() || c.is_whitespace() || is_invisible(c)) => {
            let c = t.chars().next().unwrap_or_default();
            format!("character U+{:04X} ({}), which does not show", c as u32, char_name(c))
        }
        t if t.chars().all(|c| c.is_ascii_digit()) => format!("number `{t}`"),
        t if t.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') => {
            format!("word `{t}`")
        }
        t => format!("`{t}`"),
    }
}

/// Characters that take no room on the screen.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}' | '\u{00ad}')
}

fn char_name(c: char) -> &'static str {
    match c {
        '\0' => "a NUL byte: the file may not be text",
        '\u{feff}' => "a byte-order mark, here in the middle of the text",
        '\u{00a0}' => "a no-break space",
        '\u{200b}' => "a zero-width space",
        '\t' => "a tab",
        c if c.is_control() => "a control character",
        _ => "an invisible character",
    }
}

fn join_or(words: &[&str]) -> String {
    match words {
        [] => "something else".into(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn help_for(expected: &[&str]) -> String {
    let has = |w: &str| expected.iter().any(|e| e.contains(w));
    if has("`game`") || has("`move:`") {
        "each line is one statement: `game \"Name\"`, `param k = 3`, `pile`/`piles`/`rows`/`coins`, `move: …`, `first move: …`, `left move: …`/`right move: …`, `play misère` or `tartan product of \"A\" and \"B\"`".into()
    } else if has("`take`") {
        "a move is `take …`, `add …`, `split …`, `octal 0.77`, `code 4!.0`, `bite any square but (1, 1)` or `turn 1..3 coins`".into()
    } else if has("an amount") {
        "say how many to take: `any`, a number, a range `1..3`, choices `1 or 3`, or a bound `≤ 2·last`".into()
    } else if has("`where`") && has("`from`") {
        "after the amount may come `from …` (which piles), `, then split`, or `where …` (a condition on t)".into()
    } else if has("`misère` or `normal`") {
        "write `play misère` (or `play misere`) for last-player-loses, `play normal` for last-player-wins".into()
    } else if has("a name in double quotes") {
        "a game's name goes in double quotes: game \"Kayles\"".into()
    } else if has("`:`") && expected.len() == 1 {
        "a rule is written with a colon: move: take 1..3".into()
    } else if has("`)`") {
        "every ( needs a matching )".into()
    } else if has("`}`") {
        "a set of amounts is written in braces: take {1, 3, 4}".into()
    } else if has("which piles") {
        "say which piles: `from one pile`, `from both piles`, `from 2 piles`, `from up to 2 piles`, `from each of up to 2 piles`".into()
    } else if has("a take-and-break code") {
        "a code is digits with a point, as in 0.77 (Kayles), 4.07 or 4!.0 (Grundy's game)".into()
    } else if has("a number or an expression") {
        "an expression is numbers and names (n, t, last, parameters) with + - × / % and brackets".into()
    } else {
        "the manual's language reference, docs/src/language.md, lists every statement and phrase".into()
    }
}

#[cfg(test)]
mod tests;
