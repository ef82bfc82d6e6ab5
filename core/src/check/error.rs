//! The checker's diagnostics: every semantic mistake a game file can hold, each with a stable
//! code, a label on the text and a help line.

use miette::Diagnostic;
use thiserror::Error;

use crate::ast::Span;

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

    #[error("`{name}` was given {given}, but it holds {wanted}")]
    #[diagnostic(code(takeaway::check::setting_kind), help("give `{name}` {wanted}"))]
    SettingKind {
        #[label("declared here")]
        span: Span,
        name: String,
        given: String,
        wanted: &'static str,
    },

    #[error("this set has more than {most} members")]
    #[diagnostic(
        code(takeaway::check::set_too_large),
        help(
            "a set lists amounts one by one; for a long run of amounts write a range in the move, as in `take 1..1000`"
        )
    )]
    SetTooLarge {
        #[label("too many members")]
        span: Span,
        most: usize,
    },

    #[error("`{name}` is a set of amounts, not a number")]
    #[diagnostic(
        code(takeaway::check::set_as_number),
        help(
            "a set stands where amounts are listed: `take {name}`, `take any except {name}`, `take {name}, then split`"
        )
    )]
    SetAsNumber {
        #[label("a set cannot be used in arithmetic or a comparison")]
        span: Span,
        name: String,
    },

    #[error("the game has no parameter `{name}` to set")]
    #[diagnostic(code(takeaway::check::unknown_set), help("{help}"))]
    UnknownSet { name: String, help: String },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Eval(#[from] crate::rules::expr::EvalError),

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
