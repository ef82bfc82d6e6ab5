//! Errors of the parse stage, in words a user can act on (never grammar rule names).

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// Why a game text could not be parsed.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum ParseError {
    /// The text is wrong at `span`: no continuation of it can be right.
    #[error("unexpected {found}")]
    #[diagnostic(code(takeaway::parse::unexpected))]
    Unexpected {
        /// What was found.
        found: String,
        #[label("expected {expected}")]
        /// Where in the text the problem is.
        span: SourceSpan,
        /// What was expected.
        expected: String,
        #[help]
        /// What to do about it.
        help: String,
        /// The one word close to what was found, which an editor may put in its place.
        fix: Option<String>,
    },

    /// The text stops before a statement is finished: more input could make it right.
    #[error("the game text ends in the middle of a statement")]
    #[diagnostic(code(takeaway::parse::incomplete))]
    Incomplete {
        #[label("expected {expected} after this")]
        /// Where in the text the problem is.
        span: SourceSpan,
        /// What was expected.
        expected: String,
        #[help]
        /// What to do about it.
        help: String,
    },

    #[error("this string has no closing quote")]
    #[diagnostic(
        code(takeaway::parse::unterminated_string),
        help("a game name is written in double quotes on one line: game \"Kayles\"")
    )]
    /// Reported as “this string has no closing quote”.
    UnterminatedString {
        #[label("the string starts here")]
        /// Where in the text the problem is.
        span: SourceSpan,
    },

    #[error("brackets nested more than {limit} deep")]
    #[diagnostic(
        code(takeaway::parse::too_deep),
        help("write the expression with fewer brackets, or give a part of it a name with `param`")
    )]
    /// Reported as “brackets nested more than {limit} deep”.
    TooDeep {
        #[label("this bracket is too deep")]
        /// Where in the text the problem is.
        span: SourceSpan,
        /// The limit that was reached.
        limit: usize,
    },

    #[error("the game text has {bytes} bytes, more than the {limit} a game text may have")]
    #[diagnostic(
        code(takeaway::parse::too_long),
        help("a game is a few lines: `pile`, a `move:` line or two, perhaps `play misère`; is this the right file?")
    )]
    /// Reported as “the game text has {bytes} bytes, more than the {limit} a game text may have”.
    TooLong {
        #[label("the text goes on past here")]
        /// Where in the text the problem is.
        span: SourceSpan,
        /// How many bytes.
        bytes: usize,
        /// The limit that was reached.
        limit: usize,
    },

    #[error("the game text holds a control character ({name})")]
    #[diagnostic(
        code(takeaway::parse::control_character),
        help("a game file is plain text: delete the character (it does not show, and a terminal may act on it)")
    )]
    /// Reported as “the game text holds a control character”: anywhere, comments and strings
    /// too, since a game's name and lines are printed to terminals.
    ControlCharacter {
        #[label("here")]
        /// Where in the text the character is.
        span: SourceSpan,
        /// The character's code and name, such as `U+001B, escape`.
        name: String,
    },

    #[error("this expression applies more than {limit} operators in a row")]
    #[diagnostic(
        code(takeaway::parse::too_many_operators),
        help("an expression may apply at most {limit} operators, counting those inside its brackets; write it shorter (`- - x` is `x`, `not not c` is `c`)")
    )]
    /// Reported as “this expression applies more than {limit} operators in a row”.
    TooManyOperators {
        #[label("one operator too many")]
        /// Where in the text the problem is.
        span: SourceSpan,
        /// The limit that was reached.
        limit: usize,
    },
}

impl ParseError {
    /// True when more text could complete the input: the REPL then asks for another line.
    pub fn is_incomplete(&self) -> bool {
        matches!(self, ParseError::Incomplete { .. })
    }
}
