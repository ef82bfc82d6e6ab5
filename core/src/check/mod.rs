//! Meaning: names, types and rules that make sense together. Turns an `ast::GameFile` into a
//! `rules::Game`, or gives every semantic mistake it finds as a diagnostic.

use crate::ast::{self, BinOp, CmpOp, Span, Spanned, Statement, UnOp};
use crate::rules::expr::{Expr, ExprKind, Func, Var};
use crate::rules::{
    self, Amount, Board, Choice, CodeDigit, CodeShape, CoinShapes, Game, HeapCount, Param, PileSelection, Rule,
    RuleKind, SplitSpec, TakeBreakCode,
};

mod codes;
mod error;
mod exprs;
mod params;

use codes::is_plain_octal;
pub use error::CheckError;
pub use params::SettingValue;
pub(crate) use params::MAX_SET_MEMBERS;

/// The most parts a split may make, so that splitting stays a human-sized rule.
pub(crate) const MAX_SPLIT_PARTS: i64 = 16;

/// Where the games a product statement names are found: the REPL session's games, or game
/// files beside the one being checked.
pub trait Library {
    /// Looks a game up by name.
    fn find(&self, name: &str) -> Lookup;
}

/// What a library found under a name.
pub enum Lookup {
    /// The game is known.
    Found {
        /// The game found.
        game: Game,
        /// The name of the text the game came from.
        source_name: String,
        /// The game's text.
        text: String,
    },
    /// The game is there, but its text has errors: they come rendered against that text.
    Failed {
        /// The game's diagnostics, rendered.
        rendered: String,
    },
    /// Nothing of that name; the help says where games are looked for.
    Missing {
        /// Names that are close.
        help: String,
    },
}

/// No games to find: for game text checked on its own.
pub struct NoLibrary;

impl Library for NoLibrary {
    fn find(&self, _name: &str) -> Lookup {
        Lookup::Missing { help: "a product names games of the REPL session or game files".into() }
    }
}

/// Why a parsed game was not made: every error found, or the question stopped the check.
#[derive(Debug)]
pub(crate) enum CheckFailure {
    /// The statements make no sense together: every error found.
    Errors(Vec<CheckError>),
    /// The question's deadline passed, or it was cancelled.
    Stopped(crate::progress::Stopped),
}

/// Checks a parsed game. `default_name` names it when it has no `game` line;
/// `settings` are `--set NAME=VALUE` overrides of its parameters.
/// The check reads `limits`' deadline and cancel token between rules: a text of thousands of
/// rules stops when its question does.
pub(crate) fn check(
    file: &ast::GameFile,
    default_name: &str,
    settings: &[(String, SettingValue)],
    library: &dyn Library,
    watch: &crate::progress::Watch,
) -> Result<Game, CheckFailure> {
    if file.statements.is_empty() {
        return Err(CheckFailure::Errors(vec![CheckError::Empty]));
    }
    let mut c = Checker {
        errors: Vec::new(),
        params: Vec::new(),
        pair_names: None,
        set_params: Vec::new(),
        sets: Vec::new(),
        watch,
        stopped: None,
    };
    let mut game = c.game(file, default_name, settings);
    if let Some(e) = c.stopped {
        return Err(CheckFailure::Stopped(e));
    }
    if let Some((kind, parts, span)) = product_statement(file) {
        if let Some(product) = c.product(file, kind, parts, span, library) {
            let coins = product.parts.iter().all(|p| p.game.board == Board::Coins);
            game.board = Board::Cells { coins };
            game.product = Some(Box::new(product));
        }
    }
    if c.errors.is_empty() {
        Ok(game)
    } else {
        Err(CheckFailure::Errors(c.errors))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Bool,
}

/// Whether a word may be read in an expression, and if not, why.
#[derive(Clone, Copy)]
enum Access {
    Yes,
    No(&'static str, &'static str),
    /// `last` in a game with no first-move rule
    LastUndefined,
}

#[derive(Clone, Copy)]
struct Scope {
    n: Access,
    t: Access,
    last: Access,
}

const FIXED: Access = Access::No("only numbers and parameters can be used here", "write a fixed number or a parameter");

impl Scope {
    const CONSTANT: Scope = Scope { n: FIXED, t: FIXED, last: FIXED };
}

struct Checker<'l> {
    errors: Vec<CheckError>,
    /// The question's deadline and cancel token, read between rules.
    watch: &'l crate::progress::Watch,
    /// Why the check stopped before the end, when it did.
    stopped: Option<crate::progress::Stopped>,
    /// Parameters in order; `None` for one whose value failed (already reported), so that its
    /// uses fail quietly instead of causing more errors.
    params: Vec<(String, Option<i64>)>,
    /// While a `take k from one pile and l from the other` rule is checked: its two names.
    pair_names: Option<[String; 2]>,
    /// Parameters given a value by `--set` (or `set` in the REPL): name, that value, and the
    /// value the game's text gives, so that a rule the value makes impossible can say so.
    set_params: Vec<(String, String, Option<String>)>,
    /// Set parameters (`param S = {1, 3, 4}`) and their members; `None` for one whose value
    /// failed (already reported).
    sets: Vec<(String, Option<Vec<i64>>)>,
}

/// The product statement of a file, if it has one (a second one is reported as a duplicate).
fn product_statement(file: &ast::GameFile) -> Option<(ast::ProductKind, &[Spanned<String>; 2], Span)> {
    file.statements.iter().find_map(|st| match &st.node {
        Statement::Product { kind, parts } => Some((*kind, parts, st.span)),
        _ => None,
    })
}

/// Why a game cannot be one of a product's two, and what to do: `None` when it can.
fn not_a_heap_game(game: &Game) -> Option<(String, &'static str)> {
    const HEAPS: &str = "name a game played on `pile`, `piles` or `coins`";
    let reason = match game.board {
        _ if game.product.is_some() => "it is a product itself".to_string(),
        Board::FixedPiles(k) => format!("it is played on exactly {k} piles"),
        Board::Rows => "it is played on the rows of a Chomp board".to_string(),
        _ if game.convention == ast::Convention::Misere => {
            return Some((
                "it is played misère".into(),
                "a product follows its own `play` line: name the normal-play game, and write `play misère` beside the product",
            ))
        }
        _ if game.tracks_history() => "its rules depend on the previous move".to_string(),
        _ if game.can_grow() => "it adds counters, so play could go round in circles".to_string(),
        _ if game.is_partizan() => {
            return Some((
                "it is partizan (Left and Right move differently)".into(),
                "products combine impartial games through their Grundy values: name games whose moves are `move:` lines",
            ))
        }
        _ if !game.is_pile_sum() => "some of its moves act on several piles at once".to_string(),
        _ => return None,
    };
    Some((reason, HEAPS))
}

impl Checker<'_> {
    /// The product a file's product statement describes, with both games found and fit for it.
    fn product(
        &mut self,
        file: &ast::GameFile,
        kind: ast::ProductKind,
        parts: &[Spanned<String>; 2],
        span: Span,
        library: &dyn Library,
    ) -> Option<rules::Product> {
        for st in &file.statements {
            let what = match &st.node {
                Statement::Board(_) => "a board",
                Statement::Move(_) => "a move",
                _ => continue,
            };
            self.errors.push(CheckError::ProductWithRules { span: st.span, product: span, what });
        }
        let mut found = Vec::new();
        for reference in parts {
            match library.find(&reference.node) {
                Lookup::Found { game, source_name, text } => {
                    if let Some((reason, help)) = not_a_heap_game(&game) {
                        self.errors.push(CheckError::NotAHeapGame {
                            span: reference.span,
                            name: game.name.clone(),
                            reason,
                            help: help.to_string(),
                        });
                    } else {
                        found.push(rules::Part { game, source_name, text });
                    }
                }
                Lookup::Failed { rendered } => self.errors.push(CheckError::GameHasErrors {
                    span: reference.span,
                    name: reference.node.clone(),
                    rendered,
                }),
                Lookup::Missing { help } => self.errors.push(CheckError::UnknownGame {
                    span: reference.span,
                    name: reference.node.clone(),
                    help,
                }),
            }
        }
        let [first, second]: [rules::Part; 2] = found.try_into().ok()?;
        Some(rules::Product { kind, span, parts: [first, second] })
    }

    fn game(&mut self, file: &ast::GameFile, default_name: &str, settings: &[(String, SettingValue)]) -> Game {
        let mut name: Option<&Spanned<String>> = None;
        let mut board: Option<(Board, Span)> = None;
        let mut convention: Option<(ast::Convention, Span)> = None;
        let mut declared: Vec<(String, Span)> = Vec::new();
        let mut product: Option<Span> = None;

        for st in &file.statements {
            match &st.node {
                Statement::Game(n) => match name {
                    Some(first) => self.duplicate("the game's name", st.span, first.span),
                    None => name = Some(n),
                },
                Statement::Board(b) => {
                    if let Some((_, first)) = board {
                        self.duplicate("what the game is played on", st.span, first);
                        continue;
                    }
                    let b = match b {
                        ast::BoardDecl::OnePile => Board::OnePile,
                        ast::BoardDecl::AnyPiles => Board::AnyPiles,
                        ast::BoardDecl::Rows => Board::Rows,
                        ast::BoardDecl::Coins => Board::Coins,
                        ast::BoardDecl::FixedPiles(k) => {
                            if k.node == 0 || k.node > 64 {
                                self.errors.push(CheckError::BadCount {
                                    span: k.span,
                                    message: format!("a game on {} piles", k.node),
                                    label: "must be 1 to 64".into(),
                                    help: "write `piles` for any number of piles".into(),
                                });
                                Board::AnyPiles
                            } else if k.node == 1 {
                                Board::OnePile
                            } else {
                                Board::FixedPiles(k.node as usize)
                            }
                        }
                    };
                    board = Some((b, st.span));
                }
                Statement::Play(conv) => match convention {
                    Some((_, first)) => self.duplicate("the play convention", st.span, first),
                    None => convention = Some((*conv, st.span)),
                },
                Statement::Param { name: pname, default } => {
                    if let Some((_, first)) = declared.iter().find(|(n, _)| *n == pname.node) {
                        self.duplicate(&format!("parameter `{}`", pname.node), pname.span, *first);
                        continue;
                    }
                    declared.push((pname.node.clone(), pname.span));
                    self.param(pname, default.as_ref(), settings);
                }
                Statement::Move(_) => {}
                Statement::Product { .. } => match product {
                    Some(first) => self.duplicate("the product", st.span, first),
                    None => product = Some(st.span),
                },
            }
        }
        for (set_name, _) in settings {
            if !declared.iter().any(|(n, _)| n == set_name) {
                let known: Vec<String> = declared.iter().map(|(n, _)| format!("`{n}`")).collect();
                let help = if known.is_empty() {
                    "this game declares no parameters".into()
                } else {
                    format!("its parameters are {}", known.join(", "))
                };
                self.errors.push(CheckError::UnknownSet { name: set_name.clone(), help });
            }
        }

        let whole = Span::new(0, 0);
        let first_statement = file.statements.first().map(|s| s.span).unwrap_or(whole);
        let board = match board {
            Some((b, _)) => b,
            // A product's board comes from its games.
            None if product.is_some() => Board::AnyPiles,
            None => {
                self.errors.push(CheckError::MissingBoard { span: name.map(|n| n.span).unwrap_or(first_statement) });
                Board::AnyPiles
            }
        };
        let has_first_rule = file.statements.iter().any(|s| matches!(&s.node, Statement::Move(m) if m.first));

        let mut first_moves = Vec::new();
        let mut moves = Vec::new();
        let mut uses_last = false;
        for (i, st) in file.statements.iter().enumerate() {
            if i % 64 == 63 {
                if let Err(e) = self.watch.check() {
                    self.stopped = Some(e);
                    break;
                }
            }
            if let Statement::Move(decl) = &st.node {
                let last = if decl.first {
                    Access::No(
                        "there is no previous move before the first move",
                        "the first move's rule cannot depend on `last`; give it a fixed bound such as `take 1..n-1`",
                    )
                } else if has_first_rule {
                    Access::Yes
                } else {
                    Access::LastUndefined
                };
                if let Some(rule) = self.rule(decl, st.span, board, last) {
                    uses_last |= rule_reads_last(&rule);
                    if decl.first {
                        first_moves.push(rule);
                    } else {
                        moves.push(rule);
                    }
                }
            }
        }
        // Canonical values and outcome classes are for games that end: a partizan game may
        // not add counters.
        let side_rule = first_moves.iter().chain(&moves).find(|r| r.side.is_some()).map(|r| r.span);
        let adding = first_moves.iter().chain(&moves).find(|r| matches!(r.kind, rules::RuleKind::Add { .. }));
        if let (Some(side), Some(adding)) = (side_rule, adding) {
            self.errors.push(CheckError::PartizanGrows { span: adding.span, side });
        }
        let any_move = file.statements.iter().any(|s| matches!(&s.node, Statement::Move(_)));
        if !any_move && product.is_none() {
            self.errors.push(CheckError::NoMoves { span: name.map(|n| n.span).unwrap_or(first_statement) });
        }

        Game {
            name: name.map(|n| n.node.clone()).unwrap_or_else(|| default_name.to_string()),
            params: self
                .params
                .iter()
                .map(|(n, v)| Param { name: n.clone(), value: v.unwrap_or_default(), set: None })
                .chain(self.sets.iter().map(|(n, m)| Param { name: n.clone(), value: 0, set: m.clone() }))
                .collect(),
            board,
            first_moves,
            moves,
            convention: convention.map(|(c, _)| c).unwrap_or(ast::Convention::Normal),
            uses_last,
            product: None,
        }
    }

    fn duplicate(&mut self, what: &str, span: Span, first: Span) {
        self.errors.push(CheckError::Duplicate { span, first, what: what.to_string() });
    }

    fn rule(&mut self, decl: &ast::MoveDecl, span: Span, board: Board, last: Access) -> Option<Rule> {
        let errors_before = self.errors.len();
        let action_span = decl.action.span;
        let (kind, cond_scope) = match &decl.action.node {
            ast::Action::Take(take) => self.take_rule(take, board, last),
            ast::Action::TakePair { first, second } => self.take_pair_rule(first, second, board, action_span, last),
            ast::Action::Add { amount } => {
                let scope = Scope {
                    n: Access::Yes,
                    t: Access::No("`t` is the amount being chosen", "use `t` after `where`, as in `add t where t < n`"),
                    last,
                };
                let checked = self.amount(amount, scope);
                let unbounded = match &checked {
                    Amount::Any => Some("`any` has no largest amount to add"),
                    Amount::AnyExcept(_) => Some("`any except …` has no largest amount to add"),
                    Amount::Bound(CmpOp::Ge | CmpOp::Gt | CmpOp::Ne, _) => {
                        Some("this sets no largest amount: a `where` condition is tested only on amounts already listed; write a range such as `2..9`")
                    }
                    _ => None,
                };
                if let Some(reason) = unbounded {
                    self.errors.push(CheckError::UnboundedAdd { span: amount.span, reason });
                }
                (RuleKind::Add { amount: checked }, Scope { n: Access::Yes, t: Access::Yes, last })
            }
            ast::Action::Split(split) => {
                self.board_allows_split(board, action_span);
                let spec = self.split_spec(split, false);
                let no_t = Access::No("a split takes nothing, so there is no `t`", "use `n`, the size of the pile");
                (RuleKind::Split(spec), Scope { n: Access::Yes, t: no_t, last })
            }
            ast::Action::Octal(code) => {
                let kind = if is_plain_octal(&code.node) {
                    let digits = self.octal(code);
                    if digits.iter().any(|d| d & 4 != 0) {
                        self.board_allows_split(board, action_span);
                    }
                    RuleKind::Octal { digits }
                } else {
                    let parsed = self.take_break_code(code);
                    let splits = parsed.digits.iter().flat_map(|d| &d.counts).any(|c| c.max.is_none_or(|m| m >= 2));
                    if splits {
                        self.board_allows_split(board, action_span);
                    }
                    RuleKind::Code(parsed)
                };
                (kind, Scope { n: Access::Yes, t: Access::Yes, last })
            }
            ast::Action::Turn { count, shapes } => self.turn_rule(count, shapes, board, action_span, last),
            ast::Action::Bite { except } => {
                if board != Board::Rows {
                    self.errors.push(CheckError::BoardMismatch {
                        span: action_span,
                        message: "`bite` is a move on a Chomp board".into(),
                        label: "needs `rows`".into(),
                        help: "declare the board with `rows`; the position is then the row lengths, bottom row first"
                            .into(),
                    });
                }
                if let Some(c) = &decl.condition {
                    self.errors.push(CheckError::ConditionOnBite { span: c.span });
                }
                (RuleKind::Bite { except: except.as_ref().map(|e| e.node) }, Scope::CONSTANT)
            }
        };
        if board == Board::Coins && !matches!(kind, RuleKind::Turn { .. }) {
            self.errors.push(CheckError::BoardMismatch {
                span: action_span,
                message: "a game on `coins` is played by turning coins over".into(),
                label: "not a move on a row of coins".into(),
                help: "write for example `move: turn 1..3 coins`, or declare `piles` for a game on piles".into(),
            });
        }
        if board == Board::Rows && !matches!(kind, RuleKind::Bite { .. }) {
            self.errors.push(CheckError::BoardMismatch {
                span: action_span,
                message: "a game on `rows` is played by biting squares".into(),
                label: "not a move on a Chomp board".into(),
                help: "write `move: bite any square but (1, 1)`, or declare `piles` for a game on piles".into(),
            });
        }
        // A bite's condition was reported above; there is nothing to check it against.
        let condition = match (&decl.condition, &kind) {
            (Some(_), RuleKind::Bite { .. }) | (None, _) => None,
            (Some(c), _) => self.expr(c, cond_scope, Ty::Bool),
        };
        self.pair_names = None;
        if self.errors.len() > errors_before {
            return None;
        }
        Some(Rule { span, kind, condition, side: decl.side.as_ref().map(|s| s.node) })
    }

    /// `take …`: the amount (read with n, the pile, but not t, which it chooses), the piles it
    /// takes from, and what may happen to the rest.
    fn take_rule(&mut self, take: &ast::Take, board: Board, last: Access) -> (RuleKind, Scope) {
        let piles = self.pile_selection(take.from.as_ref(), board);
        let several_same = !piles.is_one() && !piles.independent;
        let n = if several_same {
            Access::No(
                "`n` is the size of one pile, but this move takes the same amount from several",
                "use `from each of …` to give each pile its own amount, or bound the amount without `n`",
            )
        } else {
            Access::Yes
        };
        let amount_scope = Scope {
            n,
            t: Access::No("`t` is the amount being chosen", "use `t` after `where`, as in `take t where prime(t)`"),
            last,
        };
        let amount = self.amount(&take.amount, amount_scope);
        let then_split = take.then_split.as_ref().map(|s| {
            self.board_allows_split(board, s.span);
            self.split_spec(&s.node, true)
        });
        (RuleKind::Take { amount, piles, then_split }, Scope { n, t: Access::Yes, last })
    }

    /// `take k from one pile and l from the other`: the two amounts' names must be new.
    fn take_pair_rule(
        &mut self,
        first: &Spanned<String>,
        second: &Spanned<String>,
        board: Board,
        action_span: Span,
        last: Access,
    ) -> (RuleKind, Scope) {
        if matches!(board, Board::OnePile | Board::FixedPiles(1) | Board::Rows) {
            self.errors.push(CheckError::BoardMismatch {
                span: action_span,
                message: "this move takes from two piles, and the game has only one".into(),
                label: "takes from two piles".into(),
                help: "declare `piles 2` (or `piles` for any number of piles)".into(),
            });
        }
        for (i, name) in [first, second].into_iter().enumerate() {
            let reason = if ["n", "t", "last"].contains(&name.node.as_str()) {
                Some(format!("`{}` already means something in a rule", name.node))
            } else if self.params.iter().any(|(p, _)| *p == name.node) {
                Some("it is the name of a parameter".to_string())
            } else if Func::lookup(&name.node).is_some() {
                Some("it is the name of a function".to_string())
            } else if i == 1 && name.node == first.node {
                Some("the two amounts need different names".to_string())
            } else {
                None
            };
            if let Some(reason) = reason {
                self.errors.push(CheckError::AmountName { span: name.span, name: name.node.clone(), reason });
            }
        }
        self.pair_names = Some([first.node.clone(), second.node.clone()]);
        let scope = Scope {
            n: Access::No(
                "`n` would be the size of one pile, and this move takes from two",
                "relate the two amounts you named instead",
            ),
            t: Access::No("this move names its two amounts", "use the names it gives them"),
            last,
        };
        (RuleKind::TakePair, scope)
    }

    /// `turn … coins`: the count of coins turned, and the shapes the set must have.
    fn turn_rule(
        &mut self,
        count: &Spanned<ast::AmountSpec>,
        shapes: &[Spanned<ast::CoinShape>],
        board: Board,
        action_span: Span,
        last: Access,
    ) -> (RuleKind, Scope) {
        if board != Board::Coins {
            self.errors.push(CheckError::BoardMismatch {
                span: action_span,
                message: "`turn` is a move on a row of coins".into(),
                label: "needs `coins`".into(),
                help: "declare the board with `coins`; a position then lists the coins showing heads, numbered from 1"
                    .into(),
            });
        }
        let scope = Scope {
            n: Access::Yes,
            t: Access::No("`t` is the number of coins being chosen", "use `t` after `where`"),
            last,
        };
        let count = self.amount(count, scope);
        let mut checked = CoinShapes::default();
        for shape in shapes {
            match &shape.node {
                ast::CoinShape::Consecutive => checked.consecutive = true,
                ast::CoinShape::EquallySpaced => checked.equally_spaced = true,
                ast::CoinShape::Symmetric => checked.symmetric = true,
                ast::CoinShape::IncludesFirst => checked.includes_first = true,
                ast::CoinShape::Within(e) => {
                    let w = self.constant(e, "the span of coins").unwrap_or(1);
                    if w < 1 {
                        self.errors.push(CheckError::BadCount {
                            span: e.span,
                            message: format!("`within {w}` allows no coin at all"),
                            label: "must be at least 1".into(),
                            help: "`within s` keeps the coins turned among s neighbouring coins".into(),
                        });
                    }
                    checked.within = Some(w.max(1) as u64);
                }
            }
        }
        // In a condition, n is the coin going to tails and t the number of coins turned.
        (RuleKind::Turn { count, shapes: checked }, Scope { n: Access::Yes, t: Access::Yes, last })
    }

    fn board_allows_split(&mut self, board: Board, span: Span) {
        let problem = match board {
            Board::OnePile => Some("a game on one `pile`"),
            Board::FixedPiles(_) => Some("a game on a fixed number of piles"),
            _ => None,
        };
        if let Some(what) = problem {
            self.errors.push(CheckError::BoardMismatch {
                span,
                message: format!("splitting makes more piles, which {what} cannot have"),
                label: "this move splits a pile".into(),
                help: "declare the board as `piles` (any number of piles)".into(),
            });
        }
    }

    fn pile_selection(&mut self, from: Option<&Spanned<ast::PileChoice>>, board: Board) -> PileSelection {
        let Some(from) = from else {
            return PileSelection::ONE;
        };
        let (min, max, independent) = match &from.node {
            ast::PileChoice::One => return PileSelection::ONE,
            ast::PileChoice::Several { count: None, independent, .. } => {
                // "Both" says the game has two piles. On a board of any other count it
                // would quietly mean "any two", and a table of single piles then reads as
                // if Wythoff's game had no P-positions but 0.
                let refused = match board {
                    Board::OnePile => Some((
                        "this move needs 2 piles, but the game has 1".to_string(),
                        "declare `piles 2` for a game of two piles (Wythoff's game is one)",
                    )),
                    Board::FixedPiles(2) => None,
                    Board::FixedPiles(k) => Some((
                        format!("`both piles` says the game has two piles, but it has {k}"),
                        "declare `piles 2`, or write `from 2 piles` to take from any two of the piles",
                    )),
                    Board::AnyPiles => Some((
                        "`both piles` says the game has two piles, but `piles` allows any number".to_string(),
                        "declare `piles 2` for a game of two piles (Wythoff's game is one), or write \
                         `from 2 piles` to take from any two of the piles",
                    )),
                    _ => None,
                };
                if let Some((message, help)) = refused {
                    self.errors.push(CheckError::BoardMismatch {
                        span: from.span,
                        message,
                        label: "takes from both of two piles".into(),
                        help: help.into(),
                    });
                    return PileSelection::ONE;
                }
                (2, 2, *independent)
            }
            ast::PileChoice::Several { count: Some(e), up_to, independent } => {
                let k = self.constant(e, "the number of piles").unwrap_or(1);
                if !(1..=64).contains(&k) {
                    self.errors.push(CheckError::BadCount {
                        span: e.span,
                        message: format!("a move on {k} piles"),
                        label: "must be 1 to 64".into(),
                        help: "a move takes from at least one pile".into(),
                    });
                    return PileSelection::ONE;
                }
                let k = k as usize;
                (if *up_to { 1 } else { k }, k, *independent)
            }
        };
        let available = match board {
            Board::OnePile => Some(1),
            Board::FixedPiles(k) => Some(k),
            _ => None,
        };
        if let Some(have) = available {
            if min > have {
                self.errors.push(CheckError::BoardMismatch {
                    span: from.span,
                    message: format!("this move needs {min} piles, but the game has {have}"),
                    label: format!("takes from {min} piles"),
                    help: "declare more piles (`piles` for any number), or take from fewer".into(),
                });
            }
        }
        if board == Board::Rows {
            return PileSelection::ONE;
        }
        PileSelection { min, max, independent }
    }

    fn split_spec(&mut self, split: &ast::Split, optional: bool) -> SplitSpec {
        let parts = match &split.parts {
            None => 2,
            Some(e) => {
                let k = self.constant(e, "the number of parts").unwrap_or(2);
                if !(2..=MAX_SPLIT_PARTS).contains(&k) {
                    self.errors.push(CheckError::BadCount {
                        span: e.span,
                        message: format!("`split into {k}` cannot make a split"),
                        label: format!("must be 2 to {MAX_SPLIT_PARTS}"),
                        help: "a split makes at least two piles".into(),
                    });
                    2
                } else {
                    k as usize
                }
            }
        };
        SplitSpec { parts, shape: split.shape, optional }
    }
}

fn rule_reads_last(rule: &Rule) -> bool {
    let in_choices = |list: &[Choice]| {
        list.iter().any(|c| match c {
            Choice::Value(e) => e.reads(Var::Last),
            Choice::Range(a, b) => a.reads(Var::Last) || b.reads(Var::Last),
        })
    };
    let in_amount = match &rule.kind {
        RuleKind::Take { amount, .. } | RuleKind::Add { amount } => match amount {
            Amount::Any => false,
            Amount::AnyExcept(list) | Amount::Choices(list) => in_choices(list),
            Amount::Bound(_, e) => e.reads(Var::Last),
        },
        _ => false,
    };
    in_amount || rule.condition.as_ref().is_some_and(|c| c.reads(Var::Last))
}

/// The known word closest to `word`, when one is close.
fn close_word<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(word, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.len().max(word.len()))
        .min()
        .map(|(_, k)| k)
}

/// "did you mean `x`?" when a known word is close, else the list of known words.
fn suggest(word: &str, known: &[&str], intro: &str) -> String {
    match close_word(word, known) {
        Some(k) => format!("did you mean `{k}`?"),
        None => {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("{intro} {}", list.join(", "))
        }
    }
}
