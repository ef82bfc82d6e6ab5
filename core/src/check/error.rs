//! The checker's diagnostics: every semantic mistake a game file can hold, each with a stable
//! code, a label on the text and a help line.

use crate::wording::{give_value, Argument};
use miette::Diagnostic;
use thiserror::Error;

use crate::ast::Span;

/// Why a game is not well formed.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum CheckError {
    #[error("unknown name `{name}`")]
    #[diagnostic(code(takeaway::check::unknown_name), help("{help}"))]
    /// Reported as “unknown name `{name}`”.
    UnknownName {
        #[label("not a parameter or a word of the game")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// What to do about it.
        help: String,
        /// The one known name close to it, which an editor may put in its place.
        fix: Option<String>,
    },

    #[error("`{word}` has no meaning here")]
    #[diagnostic(code(takeaway::check::word_not_here), help("{help}"))]
    /// Reported as “`{word}` has no meaning here”.
    WordNotHere {
        #[label("{reason}")]
        /// Where in the text the problem is.
        span: Span,
        /// The word as written.
        word: &'static str,
        /// Why it failed.
        reason: String,
        /// What to do about it.
        help: String,
    },

    #[error("`last` is used, but the first move has no previous move")]
    #[diagnostic(
        code(takeaway::check::last_without_first_move),
        help("add a rule for the first move, for example `first move: take 1..n-1`")
    )]
    /// Reported as “`last` is used, but the first move has no previous move”.
    LastWithoutFirstMove {
        #[label("`last` is the size of the previous move")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("unknown function `{name}`")]
    #[diagnostic(code(takeaway::check::unknown_function), help("{help}"))]
    /// Reported as “unknown function `{name}`”.
    UnknownFunction {
        #[label("no function of this name")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// What to do about it.
        help: String,
    },

    #[error("`{name}` takes {expected}, not {found}")]
    #[diagnostic(code(takeaway::check::wrong_arity), help("for example: {example}"))]
    /// Reported as “`{name}` takes {expected}, not {found}”.
    WrongArity {
        #[label("called with {found}")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
        /// An example of the right use.
        example: &'static str,
    },

    #[error("a number where a condition is expected")]
    #[diagnostic(
        code(takeaway::check::expected_condition),
        help("a condition is true or false: compare with = ≠ < ≤ > ≥, or use prime(t), even(t), odd(t), square(t)")
    )]
    /// Reported as “a number where a condition is expected”.
    ExpectedCondition {
        #[label("this is a number")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("a condition where a number is expected")]
    #[diagnostic(
        code(takeaway::check::expected_number),
        help("conditions (comparisons, and, or, not) go after `where`; here a number or an arithmetic expression is needed")
    )]
    /// Reported as “a condition where a number is expected”.
    ExpectedNumber {
        #[label("this is true or false, not a number")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("the number {text} is too large")]
    #[diagnostic(
        code(takeaway::check::number_too_large),
        help("numbers in rules go up to 9223372036854775807 (2^63 - 1)")
    )]
    /// Reported as “the number {text} is too large”.
    NumberTooLarge {
        #[label("does not fit in 64 bits")]
        /// Where in the text the problem is.
        span: Span,
        /// The text as written.
        text: String,
    },

    #[error("{what} can never be taken")]
    #[diagnostic(code(takeaway::check::impossible_amount), help("{help}"))]
    /// Reported as “{what} can never be taken”.
    ImpossibleAmount {
        #[label("{what}")]
        /// Where in the text the problem is.
        span: Span,
        /// What the problem concerns, in words.
        what: String,
        /// What to do about it.
        help: String,
    },

    #[error("this rule allows an amount of 0, which leaves the position as it was: play could go on forever")]
    #[diagnostic(code(takeaway::check::takes_nothing), help("amounts start at 1: write `1..3`, not `0..3`"))]
    /// Reported as “this rule allows an amount of 0, which leaves the position as it was: play could go on forever”.
    TakesNothing {
        #[label("includes 0")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("this rule can add without limit")]
    #[diagnostic(
        code(takeaway::check::unbounded_add),
        help("give the amount an upper bound, such as `add 1..2` or `add ≤ last`; to keep piles small, add a condition such as `where n + t ≤ 20`")
    )]
    /// Reported as “this rule can add without limit”.
    UnboundedAdd {
        #[label("{reason}")]
        /// Where in the text the problem is.
        span: Span,
        /// Why it failed.
        reason: &'static str,
    },

    #[error("{a}/{b} is not a whole number, and takeaway counts in whole numbers: it would be {whole}")]
    #[diagnostic(
        code(takeaway::check::inexact_fraction),
        help("to compare with a fraction, put the division at the end: `take ≤ {a}·last/{b}` rounds down once; or multiply out: `where {b}·t ≤ {a}·last`")
    )]
    /// Reported as “{a}/{b} is not a whole number, and takeaway counts in whole numbers: it would be {whole}”.
    InexactFraction {
        #[label("this would round down to {whole}")]
        /// Where in the text the problem is.
        span: Span,
        /// The numerator.
        a: i64,
        /// The denominator.
        b: i64,
        /// The whole number it would be rounded to.
        whole: i64,
    },

    #[error("{what} must be a fixed number")]
    #[diagnostic(
        code(takeaway::check::not_constant),
        help("it may use numbers and parameters, but not n, t or last, which change during play")
    )]
    /// Reported as “{what} must be a fixed number”.
    NotConstant {
        #[label("this changes during play")]
        /// Where in the text the problem is.
        span: Span,
        /// What the problem concerns, in words.
        what: &'static str,
    },

    #[error("{message}")]
    #[diagnostic(code(takeaway::check::bad_count), help("{help}"))]
    /// Reported as “{message}”.
    BadCount {
        #[label("{label}")]
        /// Where in the text the problem is.
        span: Span,
        /// The message, in words.
        message: String,
        /// What the label at the span says.
        label: String,
        /// What to do about it.
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(code(takeaway::check::board_mismatch), help("{help}"))]
    /// Reported as “{message}”.
    BoardMismatch {
        #[label("{label}")]
        /// Where in the text the problem is.
        span: Span,
        /// The message, in words.
        message: String,
        /// What the label at the span says.
        label: String,
        /// What to do about it.
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(
        code(takeaway::check::bad_octal),
        help("a code is one digit, a point and more digits, as in 0.77 (Kayles) or 4!.0 (Grundy's game); digit t says what taking t may leave: 1 = nothing, 2 = one heap, 4 = two heaps, 8 = three, 16 = four, added together (digits 0-9, then a-v for 10-31); `!` after a digit: the heaps unequal, `?`: not all equal, `=`: all equal; `[…]` at the end repeats; `{{1,2!}}` lists heap counts, `2+` is 2 or more, `*` any number")
    )]
    /// Reported as “{message}”.
    BadOctal {
        #[label("{label}")]
        /// Where in the text the problem is.
        span: Span,
        /// The message, in words.
        message: String,
        /// What the label at the span says.
        label: String,
    },

    #[error("this code adds counters, so a heap can grow for ever")]
    #[diagnostic(
        code(takeaway::check::loopy_code),
        help("digits before the last one before the point add counters; takeaway solves loopy games whose piles stay bounded: write the adding move in words, as in `move: add 1 where n + t ≤ 20`")
    )]
    /// Reported as “this code adds counters, so a heap can grow for ever”.
    LoopyCode {
        #[label("these digits add counters before splitting")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("a bite has no condition")]
    #[diagnostic(
        code(takeaway::check::condition_on_bite),
        help("to forbid a square, write `bite any square but (x, y)`")
    )]
    /// Reported as “a bite has no condition”.
    ConditionOnBite {
        #[label("not allowed here")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("a partizan game cannot add counters")]
    #[diagnostic(
        code(takeaway::check::partizan_grows),
        help("partizan values are for games that end; give the adding move to both players with `move:`, or drop it")
    )]
    /// Reported as “a partizan game cannot add counters”.
    PartizanGrows {
        #[label("this move adds counters, so play could go round in circles")]
        /// Where in the text the problem is.
        span: Span,
        #[label("and this line makes the game partizan")]
        /// The line that makes the game partizan.
        side: Span,
    },

    #[error("this game has no moves")]
    #[diagnostic(code(takeaway::check::no_moves), help("add a rule such as `move: take 1..3`"))]
    /// Reported as “this game has no moves”.
    NoMoves {
        #[label("no `move:` line in this game")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("the game text is empty")]
    #[diagnostic(
        code(takeaway::check::empty),
        help("a game needs at least what it is played on and one move, for example:\n  game \"TAG\"\n  pile\n  move: take 1..3")
    )]
    /// Reported as “the game text is empty”.
    Empty,

    #[error("the game does not say what it is played on")]
    #[diagnostic(
        code(takeaway::check::missing_board),
        help("add a line `pile` (one pile), `piles` (any number), `piles 2` (exactly two) or `rows` (a Chomp board)")
    )]
    /// Reported as “the game does not say what it is played on”.
    MissingBoard {
        #[label("in this game")]
        /// Where in the text the problem is.
        span: Span,
    },

    #[error("`{name}` cannot name an amount here: {reason}")]
    #[diagnostic(
        code(takeaway::check::amount_name),
        help("choose two new names, such as `take k from one pile and l from the other`")
    )]
    /// Reported as “`{name}` cannot name an amount here: {reason}”.
    AmountName {
        #[label("{reason}")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// Why it failed.
        reason: String,
    },

    #[error("{what} is given twice")]
    #[diagnostic(code(takeaway::check::duplicate), help("keep one of the two lines"))]
    /// Reported as “{what} is given twice”.
    Duplicate {
        #[label("again here")]
        /// Where in the text the problem is.
        span: Span,
        #[label("first here")]
        /// The first of the two.
        first: Span,
        /// What the problem concerns, in words.
        what: String,
    },

    #[error("parameter `{name}` has no value")]
    #[diagnostic(
        code(takeaway::check::param_without_value),
        help("give it a default, `param {name} = 3`, or a value on the command line: {give_1}", give_1 = give_value(Argument::Set, format!("{}=3", .name)))
    )]
    /// Reported as “parameter `{name}` has no value”.
    ParamWithoutValue {
        #[label("declared without a value")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
    },

    #[error("`{name}` was given {given}, but it holds {wanted}")]
    #[diagnostic(code(takeaway::check::setting_kind), help("give `{name}` {wanted}"))]
    /// Reported as “`{name}` was given {given}, but it holds {wanted}”.
    SettingKind {
        #[label("declared here")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// How many were given.
        given: String,
        /// What kind of value it holds, with an example.
        wanted: String,
    },

    #[error("this set has more than {most} members")]
    #[diagnostic(
        code(takeaway::check::set_too_large),
        help(
            "a set lists amounts one by one; for a long run of amounts write a range in the move, as in `take 1..1000`"
        )
    )]
    /// Reported as “this set has more than {most} members”.
    SetTooLarge {
        #[label("too many members")]
        /// Where in the text the problem is.
        span: Span,
        /// The most allowed.
        most: usize,
    },

    #[error("`{name}` is a set of amounts, not a number")]
    #[diagnostic(
        code(takeaway::check::set_as_number),
        help(
            "a set stands where amounts are listed: `take {name}`, `take any except {name}`, `take {name}, then split`"
        )
    )]
    /// Reported as “`{name}` is a set of amounts, not a number”.
    SetAsNumber {
        #[label("a set cannot be used in arithmetic or a comparison")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
    },

    #[error("the game has no parameter `{name}` to set")]
    #[diagnostic(code(takeaway::check::unknown_set), help("{help}"))]
    /// Reported as “the game has no parameter `{name}` to set”.
    UnknownSet {
        /// The name as written.
        name: String,
        /// What to do about it.
        help: String,
    },

    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Evaluating an expression failed; the inner error says why.
    Eval(#[from] crate::rules::expr::EvalError),

    #[error("there is no game or game file called `{name}`")]
    #[diagnostic(code(takeaway::check::unknown_game), help("{help}"))]
    /// Reported as “there is no game or game file called `{name}`”.
    UnknownGame {
        #[label("not found")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// What to do about it.
        help: String,
    },

    #[error("the game `{name}` has errors")]
    #[diagnostic(
        code(takeaway::check::game_has_errors),
        help("its own diagnostics follow; a product can be made once both its games are right")
    )]
    /// Reported as “the game `{name}` has errors”.
    GameHasErrors {
        #[label("named here")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// the game's diagnostics, rendered against its own text
        rendered: String,
    },

    #[error("{name} is not a heap game: {reason}")]
    #[diagnostic(code(takeaway::check::not_a_heap_game), help("{help}"))]
    /// Reported as “{name} is not a heap game: {reason}”.
    NotAHeapGame {
        #[label("a product needs a game on piles or coins here")]
        /// Where in the text the problem is.
        span: Span,
        /// The name as written.
        name: String,
        /// Why it failed.
        reason: String,
        /// What to do about it.
        help: String,
    },

    #[error("a product game takes its board and its moves from its two games")]
    #[diagnostic(
        code(takeaway::check::product_with_rules),
        help("remove this line, or put it into one of the games the product names")
    )]
    /// Reported as “a product game takes its board and its moves from its two games”.
    ProductWithRules {
        #[label("{what} in a product game")]
        /// Where in the text the problem is.
        span: Span,
        #[label("the product")]
        /// The product the game is.
        product: Span,
        /// What the problem concerns, in words.
        what: &'static str,
    },
}
