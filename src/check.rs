//! Meaning: names, types and rules that make sense together. Turns an `ast::GameFile` into a
//! `rules::Game`, or gives every semantic mistake it finds as a diagnostic.

use miette::Diagnostic;
use thiserror::Error;

use crate::ast::{self, BinOp, CmpOp, Span, Spanned, Statement, UnOp};
use crate::rules::expr::{Expr, ExprKind, Func, Var};
use crate::rules::{
    self, Amount, Board, Choice, CodeDigit, CodeShape, CoinShapes, Game, HeapCount, Param, PileSelection, Rule,
    RuleKind, SplitSpec, TakeBreakCode,
};

/// The most parts a split may make, so that splitting stays a human-sized rule.
pub const MAX_SPLIT_PARTS: i64 = 16;

#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum CheckError {
    #[error("unknown name `{name}`")]
    #[diagnostic(code(takeaway::check::unknown_name), help("{help}"))]
    UnknownName {
        #[label("not a parameter or a word of the game")]
        span: Span,
        name: String,
        help: String,
    },

    #[error("`{word}` has no meaning here")]
    #[diagnostic(code(takeaway::check::word_not_here), help("{help}"))]
    WordNotHere {
        #[label("{reason}")]
        span: Span,
        word: &'static str,
        reason: String,
        help: String,
    },

    #[error("`last` is used, but the first move has no previous move")]
    #[diagnostic(
        code(takeaway::check::last_without_first_move),
        help("add a rule for the first move, for example `first move: take 1..n-1`")
    )]
    LastWithoutFirstMove {
        #[label("`last` is the size of the previous move")]
        span: Span,
    },

    #[error("unknown function `{name}`")]
    #[diagnostic(code(takeaway::check::unknown_function), help("{help}"))]
    UnknownFunction {
        #[label("no function of this name")]
        span: Span,
        name: String,
        help: String,
    },

    #[error("`{name}` takes {expected}, not {found}")]
    #[diagnostic(code(takeaway::check::wrong_arity), help("for example: {example}"))]
    WrongArity {
        #[label("called with {found}")]
        span: Span,
        name: String,
        expected: &'static str,
        found: String,
        example: &'static str,
    },

    #[error("a number where a condition is expected")]
    #[diagnostic(
        code(takeaway::check::expected_condition),
        help("a condition is true or false: compare with = ≠ < ≤ > ≥, or use prime(t), even(t), odd(t), square(t)")
    )]
    ExpectedCondition {
        #[label("this is a number")]
        span: Span,
    },

    #[error("a condition where a number is expected")]
    #[diagnostic(
        code(takeaway::check::expected_number),
        help("conditions (comparisons, and, or, not) go after `where`; here a number or an arithmetic expression is needed")
    )]
    ExpectedNumber {
        #[label("this is true or false, not a number")]
        span: Span,
    },

    #[error("the number {text} is too large")]
    #[diagnostic(
        code(takeaway::check::number_too_large),
        help("numbers in rules go up to 9223372036854775807 (2^63 - 1)")
    )]
    NumberTooLarge {
        #[label("does not fit in 64 bits")]
        span: Span,
        text: String,
    },

    #[error("{what} can never be taken")]
    #[diagnostic(code(takeaway::check::impossible_amount), help("{help}"))]
    ImpossibleAmount {
        #[label("{what}")]
        span: Span,
        what: String,
        help: String,
    },

    #[error("this rule allows an amount of 0, which leaves the position as it was: play could go on forever")]
    #[diagnostic(code(takeaway::check::takes_nothing), help("amounts start at 1: write `1..3`, not `0..3`"))]
    TakesNothing {
        #[label("includes 0")]
        span: Span,
    },

    #[error("this rule can add without limit")]
    #[diagnostic(
        code(takeaway::check::unbounded_add),
        help("give the amount an upper bound, such as `add 1..2` or `add ≤ last`; to keep piles small, add a condition such as `where n + t ≤ 20`")
    )]
    UnboundedAdd {
        #[label("{reason}")]
        span: Span,
        reason: &'static str,
    },

    #[error("{a}/{b} is not a whole number, and takeaway counts in whole numbers: it would be {whole}")]
    #[diagnostic(
        code(takeaway::check::inexact_fraction),
        help("to compare with a fraction, put the division at the end: `take ≤ {a}·last/{b}` rounds down once; or multiply out: `where {b}·t ≤ {a}·last`")
    )]
    InexactFraction {
        #[label("this would round down to {whole}")]
        span: Span,
        a: i64,
        b: i64,
        whole: i64,
    },

    #[error("{what} must be a fixed number")]
    #[diagnostic(
        code(takeaway::check::not_constant),
        help("it may use numbers and parameters, but not n, t or last, which change during play")
    )]
    NotConstant {
        #[label("this changes during play")]
        span: Span,
        what: &'static str,
    },

    #[error("{message}")]
    #[diagnostic(code(takeaway::check::bad_count), help("{help}"))]
    BadCount {
        #[label("{label}")]
        span: Span,
        message: String,
        label: String,
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(code(takeaway::check::board_mismatch), help("{help}"))]
    BoardMismatch {
        #[label("{label}")]
        span: Span,
        message: String,
        label: String,
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(
        code(takeaway::check::bad_octal),
        help("a code is one digit, a point and more digits, as in 0.77 (Kayles) or 4!.0 (Grundy's game); digit t says what taking t may leave: 1 = nothing, 2 = one heap, 4 = two heaps, 8 = three, 16 = four, added together (digits 0-9, then a-v for 10-31); `!` after a digit: the heaps unequal, `?`: not all equal, `=`: all equal; `[…]` at the end repeats; `{{1,2!}}` lists heap counts, `2+` is 2 or more, `*` any number")
    )]
    BadOctal {
        #[label("{label}")]
        span: Span,
        message: String,
        label: String,
    },

    #[error("this code adds counters, so a heap can grow for ever")]
    #[diagnostic(
        code(takeaway::check::loopy_code),
        help("digits before the last one before the point add counters; takeaway solves loopy games whose piles stay bounded: write the adding move in words, as in `move: add 1 where n + t ≤ 20`")
    )]
    LoopyCode {
        #[label("these digits add counters before splitting")]
        span: Span,
    },

    #[error("a bite has no condition")]
    #[diagnostic(
        code(takeaway::check::condition_on_bite),
        help("to forbid a square, write `bite any square but (x, y)`")
    )]
    ConditionOnBite {
        #[label("not allowed here")]
        span: Span,
    },

    #[error("a partizan game cannot add counters")]
    #[diagnostic(
        code(takeaway::check::partizan_grows),
        help("partizan values are for games that end; give the adding move to both players with `move:`, or drop it")
    )]
    PartizanGrows {
        #[label("this move adds counters, so play could go round in circles")]
        span: Span,
        #[label("and this line makes the game partizan")]
        side: Span,
    },

    #[error("this game has no moves")]
    #[diagnostic(code(takeaway::check::no_moves), help("add a rule such as `move: take 1..3`"))]
    NoMoves {
        #[label("no `move:` line in this game")]
        span: Span,
    },

    #[error("the game text is empty")]
    #[diagnostic(
        code(takeaway::check::empty),
        help("a game needs at least what it is played on and one move, for example:\n  game \"TAG\"\n  pile\n  move: take 1..3")
    )]
    Empty,

    #[error("the game does not say what it is played on")]
    #[diagnostic(
        code(takeaway::check::missing_board),
        help("add a line `pile` (one pile), `piles` (any number), `piles 2` (exactly two) or `rows` (a Chomp board)")
    )]
    MissingBoard {
        #[label("in this game")]
        span: Span,
    },

    #[error("`{name}` cannot name an amount here: {reason}")]
    #[diagnostic(
        code(takeaway::check::amount_name),
        help("choose two new names, such as `take k from one pile and l from the other`")
    )]
    AmountName {
        #[label("{reason}")]
        span: Span,
        name: String,
        reason: String,
    },

    #[error("{what} is given twice")]
    #[diagnostic(code(takeaway::check::duplicate), help("keep one of the two lines"))]
    Duplicate {
        #[label("again here")]
        span: Span,
        #[label("first here")]
        first: Span,
        what: String,
    },

    #[error("parameter `{name}` has no value")]
    #[diagnostic(
        code(takeaway::check::param_without_value),
        help("give it a default, `param {name} = 3`, or a value on the command line: --set {name}=3")
    )]
    ParamWithoutValue {
        #[label("declared without a value")]
        span: Span,
        name: String,
    },

    #[error("the game has no parameter `{name}` to set")]
    #[diagnostic(code(takeaway::check::unknown_set), help("{help}"))]
    UnknownSet { name: String, help: String },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Eval(#[from] rules::expr::EvalError),

    #[error("there is no game or game file called `{name}`")]
    #[diagnostic(code(takeaway::check::unknown_game), help("{help}"))]
    UnknownGame {
        #[label("not found")]
        span: Span,
        name: String,
        help: String,
    },

    #[error("the game `{name}` has errors")]
    #[diagnostic(
        code(takeaway::check::game_has_errors),
        help("its own diagnostics follow; a product can be made once both its games are right")
    )]
    GameHasErrors {
        #[label("named here")]
        span: Span,
        name: String,
        /// the game's diagnostics, rendered against its own text
        rendered: String,
    },

    #[error("{name} is not a heap game: {reason}")]
    #[diagnostic(code(takeaway::check::not_a_heap_game), help("{help}"))]
    NotAHeapGame {
        #[label("a product needs a game on piles or coins here")]
        span: Span,
        name: String,
        reason: String,
        help: String,
    },

    #[error("a product game takes its board and its moves from its two games")]
    #[diagnostic(
        code(takeaway::check::product_with_rules),
        help("remove this line, or put it into one of the games the product names")
    )]
    ProductWithRules {
        #[label("{what} in a product game")]
        span: Span,
        #[label("the product")]
        product: Span,
        what: &'static str,
    },
}

/// Where the games a product statement names are found: the REPL session's games, or game
/// files beside the one being checked.
pub trait Library {
    fn find(&self, name: &str) -> Lookup;
}

/// What a library found under a name.
pub enum Lookup {
    Found {
        game: Game,
        source_name: String,
        text: String,
    },
    /// The game is there, but its text has errors: they come rendered against that text.
    Failed {
        rendered: String,
    },
    /// Nothing of that name; the help says where games are looked for.
    Missing {
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

/// Checks a parsed game. `default_name` names it when it has no `game` line;
/// `settings` are `--set NAME=VALUE` overrides of its parameters.
pub fn check(
    file: &ast::GameFile,
    default_name: &str,
    settings: &[(String, i64)],
    library: &dyn Library,
) -> Result<Game, Vec<CheckError>> {
    if file.statements.is_empty() {
        return Err(vec![CheckError::Empty]);
    }
    let mut c = Checker { errors: Vec::new(), params: Vec::new(), pair_names: None, set_params: Vec::new() };
    let mut game = c.game(file, default_name, settings);
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
        Err(c.errors)
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

struct Checker {
    errors: Vec<CheckError>,
    /// Parameters in order; `None` for one whose value failed (already reported), so that its
    /// uses fail quietly instead of causing more errors.
    params: Vec<(String, Option<i64>)>,
    /// While a `take k from one pile and l from the other` rule is checked: its two names.
    pair_names: Option<[String; 2]>,
    /// Parameters given a value by `--set` (or `set` in the REPL): name, that value, and the
    /// value the game's text gives, so that a rule the value makes impossible can say so.
    set_params: Vec<(String, i64, Option<String>)>,
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

impl Checker {
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
                        found.push(rules::Part { reference: reference.clone(), game, source_name, text });
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

    fn game(&mut self, file: &ast::GameFile, default_name: &str, settings: &[(String, i64)]) -> Game {
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
                        ast::Board::OnePile => Board::OnePile,
                        ast::Board::AnyPiles => Board::AnyPiles,
                        ast::Board::Rows => Board::Rows,
                        ast::Board::Coins => Board::Coins,
                        ast::Board::FixedPiles(k) => {
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
                    let set = settings.iter().find(|(n, _)| *n == pname.node).map(|(_, v)| *v);
                    if let Some(v) = set {
                        let own = default.as_ref().and_then(|e| match &e.node {
                            ast::ExprKind::Int(text) => Some(text.clone()),
                            _ => None,
                        });
                        self.set_params.push((pname.node.clone(), v, own));
                    }
                    let value = match (set, default) {
                        (Some(v), _) => Some(v),
                        (None, Some(e)) => self.constant(e, "a parameter's value"),
                        (None, None) => {
                            self.errors
                                .push(CheckError::ParamWithoutValue { span: pname.span, name: pname.node.clone() });
                            None
                        }
                    };
                    self.params.push((pname.node.clone(), value));
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
        for st in &file.statements {
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
            params: self.params.iter().map(|(n, v)| Param { name: n.clone(), value: v.unwrap_or_default() }).collect(),
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
            ast::Action::Take(take) => {
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
                    t: Access::No(
                        "`t` is the amount being chosen",
                        "use `t` after `where`, as in `take t where prime(t)`",
                    ),
                    last,
                };
                let amount = self.amount(&take.amount, amount_scope);
                let then_split = take.then_split.as_ref().map(|s| {
                    self.board_allows_split(board, s.span);
                    self.split_spec(&s.node, true)
                });
                (RuleKind::Take { amount, piles, then_split }, Scope { n, t: Access::Yes, last })
            }
            ast::Action::TakePair { first, second } => {
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
            ast::Action::Turn { count, shapes } => {
                if board != Board::Coins {
                    self.errors.push(CheckError::BoardMismatch {
                        span: action_span,
                        message: "`turn` is a move on a row of coins".into(),
                        label: "needs `coins`".into(),
                        help: "declare the board with `coins`; a position then lists the coins showing heads, numbered from 1".into(),
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
            ast::PileChoice::Several { count: None, independent, .. } => (2, 2, *independent),
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

    fn octal(&mut self, code: &Spanned<String>) -> Vec<u8> {
        let text = &code.node;
        let (before, after) = match text.split_once('.') {
            Some((b, a)) => (b, a),
            None => (text.as_str(), ""),
        };
        let bad = |this: &mut Self, offset: usize, len: usize, message: String, label: &str| {
            this.errors.push(CheckError::BadOctal {
                span: Span::new(code.span.start + offset, code.span.start + offset + len),
                message,
                label: label.to_string(),
            });
        };
        if before.len() != 1 {
            bad(
                self,
                0,
                before.len(),
                format!("octal code `{text}` has {} digits before the point", before.len()),
                "expected one digit",
            );
            return Vec::new();
        }
        let mut digits = Vec::new();
        for (i, ch) in before.chars().chain(after.chars()).enumerate() {
            let offset = if i == 0 { 0 } else { i + 1 };
            match ch.to_digit(10) {
                Some(d) if d <= 7 => digits.push(d as u8),
                _ => {
                    bad(
                        self,
                        offset,
                        ch.len_utf8(),
                        format!("`{ch}` is not an octal digit"),
                        "expected a digit from 0 to 7",
                    );
                    return Vec::new();
                }
            }
        }
        if digits[0] & 3 != 0 {
            bad(
                self,
                0,
                1,
                format!("the digit before the point is {}, but taking nothing can only split a heap", digits[0]),
                "only 0 or 4 can stand here",
            );
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        digits
    }

    /// A code in the full take-and-break notation, with every problem reported at its character.
    fn take_break_code(&mut self, code: &Spanned<String>) -> TakeBreakCode {
        let empty = TakeBreakCode { digits: Vec::new(), repeat_from: None };
        let text = code.node.as_str();
        let (before, after) = text.split_once('.').unwrap_or((text, ""));
        let at = |offset: usize, len: usize| Span::new(code.span.start + offset, code.span.start + offset + len);
        let parsed = CodeReader::new(before, 0, false)
            .units()
            .and_then(|(b, _)| CodeReader::new(after, before.len() + 1, true).units().map(|a| (b, a)));
        let (before_units, (after_units, repeat_from)) = match parsed {
            Ok(p) => p,
            Err(problem) => {
                self.errors.push(CheckError::BadOctal {
                    span: at(problem.offset, problem.len),
                    message: problem.message,
                    label: problem.label.into(),
                });
                return empty;
            }
        };
        if before_units.len() > 1 {
            let last = before_units[before_units.len() - 1].1;
            self.errors.push(CheckError::LoopyCode { span: at(0, last) });
            return empty;
        }
        let Some((d0, _, d0_len)) = before_units.into_iter().next() else {
            self.errors.push(CheckError::BadOctal {
                span: at(0, 1),
                message: format!("code `{text}` has no digit before the point"),
                label: "expected the digit for taking nothing, usually 0".into(),
            });
            return empty;
        };
        if d0.counts.iter().any(|c| c.min <= 1) {
            self.errors.push(CheckError::BadOctal {
                span: at(0, d0_len),
                message: "the digit before the point lets a move take nothing and leave one heap or none".into(),
                label: "taking nothing can only split a heap: only 0, 4, 8, … can stand here".into(),
            });
            return empty;
        }
        let mut digits = vec![d0];
        digits.extend(after_units.into_iter().map(|(d, _, _)| d));
        let mut repeat_from = repeat_from.map(|r| r + 1);
        if let Some(r) = repeat_from {
            if digits[r..].iter().all(|d| d.counts.is_empty()) {
                digits.truncate(r);
                repeat_from = None;
            }
        }
        if repeat_from.is_none() {
            while digits.len() > 1 && digits.last().is_some_and(|d| d.counts.is_empty()) {
                digits.pop();
            }
        }
        TakeBreakCode { digits, repeat_from }
    }

    fn amount(&mut self, amount: &Spanned<ast::Amount>, scope: Scope) -> Amount {
        match &amount.node {
            ast::Amount::Any => Amount::Any,
            ast::Amount::AnyExcept(list) => Amount::AnyExcept(self.choices(list, scope, false)),
            ast::Amount::Bound(op, e) => {
                let bound = self.expr(e, scope, Ty::Int);
                match bound {
                    Some(b) => Amount::Bound(op.node, b),
                    None => Amount::Any,
                }
            }
            ast::Amount::Choices(list) => {
                // `take t where …` names the amount instead of bounding it.
                if let [ast::Choice::Value(e)] = list.as_slice() {
                    if matches!(&e.node, ast::ExprKind::Name(n) if n == "t") {
                        return Amount::Any;
                    }
                }
                Amount::Choices(self.choices(list, scope, true))
            }
        }
    }

    fn choices(&mut self, list: &[ast::Choice], scope: Scope, taken: bool) -> Vec<Choice> {
        let mut out = Vec::new();
        for c in list {
            match c {
                ast::Choice::Value(e) => {
                    if let Some(v) = self.expr(e, scope, Ty::Int) {
                        if taken {
                            let before = self.errors.len();
                            self.check_taken_constant(&v, &v, e.span);
                            self.blame_settings(before, &[e]);
                            if self.errors.len() > before {
                                if let ast::ExprKind::Binary(ast::BinOp::Sub, x, y) = &e.node {
                                    if let (ast::ExprKind::Int(x), ast::ExprKind::Int(y)) = (&x.node, &y.node) {
                                        if let Some(CheckError::ImpossibleAmount { help, .. }) = self.errors.last_mut() {
                                            *help = format!("a range is written with two dots: `{x}..{y}` (`{x}-{y}` is a subtraction)");
                                        }
                                    }
                                }
                            }
                        }
                        out.push(Choice::Value(v));
                    }
                }
                ast::Choice::Range(a, b) => {
                    let (lo, hi) = (self.expr(a, scope, Ty::Int), self.expr(b, scope, Ty::Int));
                    if let (Some(lo), Some(hi)) = (lo, hi) {
                        if taken {
                            let before = self.errors.len();
                            self.check_taken_constant(&lo, &hi, a.span.to(b.span));
                            self.blame_settings(before, &[a, b]);
                        }
                        out.push(Choice::Range(lo, hi));
                    }
                }
            }
        }
        out
    }

    /// Where the amounts just reported impossible read a parameter given by `--set`, the
    /// diagnostic names the setting, since the game's text alone is not wrong.
    fn blame_settings(&mut self, before: usize, exprs: &[&ast::Expr]) {
        let mut names = Vec::new();
        let mut stack: Vec<&ast::Expr> = exprs.to_vec();
        while let Some(e) = stack.pop() {
            match &e.node {
                ast::ExprKind::Name(n) => names.push(n.clone()),
                ast::ExprKind::Unary(_, x) => stack.push(x),
                ast::ExprKind::Binary(_, x, y) => stack.extend([&**x, &**y]),
                ast::ExprKind::Call(_, args) => stack.extend(args.iter()),
                ast::ExprKind::Int(_) => {}
            }
        }
        let Some((name, value, own)) = self.set_params.iter().find(|(n, _, _)| names.contains(n)).cloned() else {
            return;
        };
        for error in &mut self.errors[before..] {
            if let CheckError::ImpossibleAmount { what, help, .. } = error {
                *what = format!("with {name} = {value} (given by --set {name}={value}), {what}");
                *help = match &own {
                    Some(own) => format!("this value of {name} leaves the rule nothing to take; the game's own value is {name} = {own}"),
                    None => format!("this value of {name} leaves the rule nothing to take: give {name} another value"),
                };
            }
        }
    }

    /// Amounts known before play: an empty range, a negative amount or 0 is a mistake.
    fn check_taken_constant(&mut self, lo: &Expr, hi: &Expr, span: Span) {
        let (Some(a), Some(b)) = (self.fold(lo), self.fold(hi)) else {
            if let Some(a) = lo.constant() {
                if a == 0 {
                    self.errors.push(CheckError::TakesNothing { span: lo.span });
                }
            }
            return;
        };
        if a > b {
            self.errors.push(CheckError::ImpossibleAmount {
                span,
                what: format!("the range {a}..{b}"),
                help: format!("a range goes from the smaller number to the larger: {b}..{a}"),
            });
        } else if b < 0 {
            self.errors.push(CheckError::ImpossibleAmount {
                span,
                what: if a == b { format!("the amount {a}") } else { format!("the range {a}..{b}") },
                help: "amounts are positive numbers of counters".into(),
            });
        } else if a <= 0 {
            self.errors.push(CheckError::TakesNothing { span });
        }
    }

    /// The value of an expression that reads no variable, reporting overflow or division by
    /// zero now rather than during play. `None` when it depends on play or fails.
    fn fold(&mut self, e: &Expr) -> Option<i64> {
        if !e.is_fixed() {
            return None;
        }
        match e.int(&Default::default()) {
            Ok(v) => Some(v),
            Err(err) => {
                self.errors.push(err.into());
                None
            }
        }
    }

    /// `3/2` between fixed numbers is 1 in whole numbers: someone who writes it means 1.5, so
    /// say so rather than play a different game. A division that reads n, t or last rounds
    /// down on purpose (`take ≤ n/2`).
    fn check_fraction(&mut self, a: &Expr, b: &Expr, span: Span) {
        let (Some(x), Some(y)) = (a.constant(), b.constant()) else { return };
        if y != 0 && x.checked_rem_euclid(y).is_some_and(|r| r != 0) {
            let whole = x.div_euclid(y);
            self.errors.push(CheckError::InexactFraction { span, a: x, b: y, whole });
        }
    }

    fn constant(&mut self, e: &ast::Expr, what: &'static str) -> Option<i64> {
        let before = self.errors.len();
        let checked = self.expr(e, Scope::CONSTANT, Ty::Int)?;
        if self.errors.len() > before {
            return None;
        }
        match checked.int(&Default::default()) {
            Ok(v) => Some(v),
            Err(rules::expr::EvalError::Unbound { .. }) => {
                self.errors.push(CheckError::NotConstant { span: e.span, what });
                None
            }
            Err(err) => {
                self.errors.push(err.into());
                None
            }
        }
    }

    fn expr(&mut self, e: &ast::Expr, scope: Scope, want: Ty) -> Option<Expr> {
        let (checked, ty) = self.infer(e, scope)?;
        if ty != want {
            self.errors.push(match want {
                Ty::Bool => CheckError::ExpectedCondition { span: e.span },
                Ty::Int => CheckError::ExpectedNumber { span: e.span },
            });
            return None;
        }
        Some(checked)
    }

    fn infer(&mut self, e: &ast::Expr, scope: Scope) -> Option<(Expr, Ty)> {
        let span = e.span;
        match &e.node {
            ast::ExprKind::Int(text) => match text.parse::<i64>() {
                Ok(v) => Some((Expr::new(ExprKind::Int(v), span), Ty::Int)),
                Err(_) => {
                    self.errors.push(CheckError::NumberTooLarge { span, text: text.clone() });
                    None
                }
            },
            ast::ExprKind::Name(name) => self.name(name, span, scope),
            ast::ExprKind::Unary(op, a) => {
                let want = if *op == UnOp::Neg { Ty::Int } else { Ty::Bool };
                let a = self.expr(a, scope, want)?;
                Some((Expr::new(ExprKind::Unary(*op, Box::new(a)), span), want))
            }
            ast::ExprKind::Binary(op, a, b) => {
                let (operand, result) = match op {
                    BinOp::And | BinOp::Or => (Ty::Bool, Ty::Bool),
                    BinOp::Cmp(_) => (Ty::Int, Ty::Bool),
                    _ => (Ty::Int, Ty::Int),
                };
                let a = self.expr(a, scope, operand);
                let b = self.expr(b, scope, operand);
                let (a, b) = (a?, b?);
                if *op == BinOp::Div {
                    self.check_fraction(&a, &b, span);
                }
                Some((Expr::new(ExprKind::Binary(*op, Box::new(a), Box::new(b)), span), result))
            }
            ast::ExprKind::Call(name, args) => {
                let Some(func) = Func::lookup(&name.node) else {
                    let names: Vec<&str> = Func::ALL.iter().map(|(n, _)| *n).collect();
                    self.errors.push(CheckError::UnknownFunction {
                        span: name.span,
                        name: name.node.clone(),
                        help: suggest(&name.node, &names, "the functions are"),
                    });
                    return None;
                };
                let (ok, expected, example) = match func {
                    Func::Min | Func::Max => (!args.is_empty(), "one or more numbers", "min(3, n)"),
                    _ if func.is_predicate() => (args.len() == 1, "one number", "prime(t)"),
                    _ => (args.len() == 1, "one number", "abs(n - last)"),
                };
                if !ok {
                    self.errors.push(CheckError::WrongArity {
                        span,
                        name: name.node.clone(),
                        expected,
                        found: match args.len() {
                            0 => "nothing".into(),
                            1 => "one argument".into(),
                            k => format!("{k} arguments"),
                        },
                        example,
                    });
                    return None;
                }
                let checked: Vec<Option<Expr>> = args.iter().map(|a| self.expr(a, scope, Ty::Int)).collect();
                let checked: Option<Vec<Expr>> = checked.into_iter().collect();
                let ty = if func.is_predicate() { Ty::Bool } else { Ty::Int };
                Some((Expr::new(ExprKind::Call(func, checked?), span), ty))
            }
        }
    }

    fn name(&mut self, name: &str, span: Span, scope: Scope) -> Option<(Expr, Ty)> {
        if let Some(names) = &self.pair_names {
            if let Some(i) = names.iter().position(|n| n == name) {
                let var = if i == 0 { Var::First } else { Var::Second };
                return Some((Expr::new(ExprKind::Var(var), span), Ty::Int));
            }
        }
        let var = match name {
            "n" => Some((Var::N, scope.n)),
            "t" => Some((Var::T, scope.t)),
            "last" => Some((Var::Last, scope.last)),
            _ => None,
        };
        if let Some((var, access)) = var {
            return match access {
                Access::Yes => Some((Expr::new(ExprKind::Var(var), span), Ty::Int)),
                Access::No(reason, help) => {
                    self.errors.push(CheckError::WordNotHere {
                        span,
                        word: var.word(),
                        reason: reason.into(),
                        help: help.into(),
                    });
                    None
                }
                Access::LastUndefined => {
                    self.errors.push(CheckError::LastWithoutFirstMove { span });
                    None
                }
            };
        }
        if let Some((_, v)) = self.params.iter().find(|(n, _)| n == name) {
            return v.map(|v| (Expr::new(ExprKind::Int(v), span), Ty::Int));
        }
        let mut known: Vec<&str> = vec!["n", "t", "last"];
        known.extend(self.params.iter().map(|(n, _)| n.as_str()));
        known.extend(self.pair_names.iter().flatten().map(|n| n.as_str()));
        let mut listed = std::collections::HashSet::new();
        known.retain(|n| listed.insert(*n));
        self.errors.push(CheckError::UnknownName {
            span,
            name: name.to_string(),
            help: suggest(name, &known, "the names here are"),
        });
        None
    }
}

/// A code the octal kernel and Guy and Smith's theorem know: one digit 0-7, a point, digits 0-7.
fn is_plain_octal(text: &str) -> bool {
    let (before, after) = text.split_once('.').unwrap_or((text, ""));
    let octal = |s: &str| s.chars().all(|c| ('0'..='7').contains(&c));
    before.len() == 1 && octal(before) && octal(after)
}

/// What went wrong in a code, at a character.
struct CodeProblem {
    offset: usize,
    len: usize,
    message: String,
    label: &'static str,
}

/// Reads the units of one side of a code's point: digits, `{…}` sets and `*`, each with an
/// optional `!`, `?` or `=`, and (after the point) one `[…]` repeat at the end.
struct CodeReader<'a> {
    text: &'a str,
    /// Where `text` starts in the whole code, for spans.
    base: usize,
    pos: usize,
    repeat_allowed: bool,
}

/// The most heaps a count in a set may name.
const MOST_HEAPS: u32 = 64;

impl<'a> CodeReader<'a> {
    fn new(text: &'a str, base: usize, repeat_allowed: bool) -> Self {
        CodeReader { text, base, pos: 0, repeat_allowed }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn problem(&self, message: String, label: &'static str) -> CodeProblem {
        let len = self.peek().map(|c| c.len_utf8()).unwrap_or(0).max(1);
        CodeProblem { offset: self.base + self.pos, len, message, label }
    }

    /// Each unit with its start and end offset in the whole code; and where a repeat starts.
    #[allow(clippy::type_complexity)]
    fn units(mut self) -> Result<(Vec<(CodeDigit, usize, usize)>, Option<usize>), CodeProblem> {
        let mut units = Vec::new();
        let mut repeat_from = None;
        let mut closed = false;
        while let Some(c) = self.peek() {
            if closed {
                return Err(self.problem(format!("`{c}` after the repeat"), "a repeat `[…]` ends the code"));
            }
            let start = self.base + self.pos;
            match c {
                '[' if self.repeat_allowed && repeat_from.is_none() => {
                    self.pos += 1;
                    repeat_from = Some(units.len());
                    continue;
                }
                ']' if repeat_from.is_some() => {
                    if repeat_from == Some(units.len()) {
                        return Err(self.problem("an empty repeat".into(), "put the repeating digits inside"));
                    }
                    self.pos += 1;
                    closed = true;
                    continue;
                }
                '{' => {
                    self.pos += 1;
                    let mut counts = Vec::new();
                    loop {
                        counts.push(self.set_item()?);
                        match self.peek() {
                            Some(',') => self.pos += 1,
                            Some('}') => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return Err(
                                    self.problem("the heap-count set is not closed".into(), "expected `,` or `}`")
                                )
                            }
                        }
                    }
                    let shape = self.shape();
                    for count in counts.iter_mut() {
                        count.shape = count.shape.or(shape);
                    }
                    units.push((CodeDigit { counts }, start, self.base + self.pos));
                }
                '*' => {
                    self.pos += 1;
                    let shape = self.shape();
                    units.push((
                        CodeDigit { counts: vec![HeapCount { min: 0, max: None, shape }] },
                        start,
                        self.base + self.pos,
                    ));
                }
                _ => {
                    let Some(value) = digit_value(c) else {
                        return Err(self.problem(
                            format!("`{c}` is not a digit of a code"),
                            "expected a digit 0-9 or a-v (10-31), `{`, `*` or `[`",
                        ));
                    };
                    self.pos += c.len_utf8();
                    let shape = self.shape();
                    let counts = (0..5)
                        .filter(|bit| value & (1 << bit) != 0)
                        .map(|bit| HeapCount { min: bit, max: Some(bit), shape })
                        .collect();
                    units.push((CodeDigit { counts }, start, self.base + self.pos));
                }
            }
        }
        if repeat_from.is_some() && !closed {
            return Err(CodeProblem {
                offset: self.base + self.text.len(),
                len: 1,
                message: "the repeat is not closed".into(),
                label: "expected `]`",
            });
        }
        Ok((units, repeat_from))
    }

    fn shape(&mut self) -> Option<CodeShape> {
        let shape = match self.peek()? {
            '!' => CodeShape::Unequal,
            '?' => CodeShape::NotAllEqual,
            '=' => CodeShape::Equal,
            _ => return None,
        };
        self.pos += 1;
        Some(shape)
    }

    /// `2`, `2+`, `2!`, `2+?` or `*` inside `{…}`.
    fn set_item(&mut self) -> Result<HeapCount, CodeProblem> {
        if self.peek() == Some('*') {
            self.pos += 1;
            return Ok(HeapCount { min: 0, max: None, shape: self.shape() });
        }
        let digits: String = self.text[self.pos..].chars().take_while(|c| c.is_ascii_digit()).collect();
        if digits.is_empty() {
            return Err(self.problem("expected a number of heaps".into(), "a number such as 2, or `*`"));
        }
        let count = digits.parse::<u32>().ok().filter(|&k| k <= MOST_HEAPS);
        let Some(count) = count else {
            return Err(CodeProblem {
                offset: self.base + self.pos,
                len: digits.len(),
                message: format!("{digits} heaps is too many"),
                label: "at most 64 heaps",
            });
        };
        self.pos += digits.len();
        let more = self.peek() == Some('+');
        if more {
            self.pos += 1;
        }
        Ok(HeapCount { min: count, max: if more { None } else { Some(count) }, shape: self.shape() })
    }
}

/// 0-9, then a-v (or A-V) for 10-31.
fn digit_value(c: char) -> Option<u32> {
    match c {
        '0'..='9' => c.to_digit(10),
        'a'..='v' => Some(c as u32 - 'a' as u32 + 10),
        'A'..='V' => Some(c as u32 - 'A' as u32 + 10),
        _ => None,
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

/// "did you mean `x`?" when a known word is close, else the list of known words.
fn suggest(word: &str, known: &[&str], intro: &str) -> String {
    let close = known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(word, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.len().max(word.len()))
        .min();
    match close {
        Some((_, k)) => format!("did you mean `{k}`?"),
        None => {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("{intro} {}", list.join(", "))
        }
    }
}
