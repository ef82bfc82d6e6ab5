//! Why a move could not be listed or made: the rules stage's errors while play goes on, and
//! the text of another game a product's error points into.

use crate::wording::{give, Argument};
use miette::Diagnostic;
use thiserror::Error;

use super::expr::EvalError;
use crate::vocab::Span;

/// Why a move could not be listed or made.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum MoveError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Evaluating an expression failed; the inner error says why.
    Eval(#[from] EvalError),

    #[error("this move can take nothing, so play could go on forever")]
    #[diagnostic(
        code(takeaway::rules::takes_nothing),
        help("every move must change the position; make the amount at least 1, for example with `where t > 0`")
    )]
    /// Reported as “this move can take nothing, so play could go on forever”.
    TakesNothing {
        #[label("in position {position} this rule allows taking 0, which leaves the position as it was")]
        /// Where in the text the problem is.
        span: Span,
        /// The position, in words.
        position: String,
    },

    #[error("position {position} has more than {limit} moves")]
    #[diagnostic(
        code(takeaway::rules::too_many_moves),
        help("raise the limit with {max_states}, or ask about a smaller position", max_states = give(Argument::MaxStates))
    )]
    /// Reported as “position {position} has more than {limit} moves”.
    TooManyMoves {
        #[label("this rule allows too many moves there")]
        /// Where in the text the problem is.
        span: Span,
        /// The position, in words.
        position: String,
        /// The limit that was reached.
        limit: usize,
    },

    #[error(transparent)]
    #[diagnostic(transparent)]
    /// A move in one part of a product game failed.
    InPart(Box<PartError>),
}

impl MoveError {
    /// What kind of failure this is: the rules' arithmetic or a move that changes nothing is
    /// the game's fault; too many moves to list is a limit.
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        use crate::vocab::FailureKind;
        match self {
            MoveError::Eval(_) | MoveError::TakesNothing { .. } | MoveError::InPart(_) => FailureKind::Game,
            MoveError::TooManyMoves { .. } => FailureKind::Refused,
        }
    }
}

/// An error in the rules of one of a product's games, shown against that game's text.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
#[error("in {game}, one of the product's games: {message}")]
#[diagnostic(code(takeaway::rules::in_product_game), help("{help}"))]
pub struct PartError {
    /// The product's game that failed.
    pub game: String,
    /// What failed.
    pub message: String,
    /// What to do about it.
    pub help: String,
    #[source_code]
    /// That game's text.
    pub text: SourceText,
    #[label("{label}")]
    /// Where in it.
    pub span: Span,
    /// What the place is.
    pub label: String,
}

/// A game's text with its name, for diagnostics that point into another game than the one
/// being solved (comparable, unlike miette's own).
#[derive(Clone, Debug)]
pub struct SourceText(pub miette::NamedSource<String>);

impl From<miette::NamedSource<String>> for SourceText {
    fn from(source: miette::NamedSource<String>) -> Self {
        SourceText(source)
    }
}

impl PartialEq for SourceText {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name() && self.0.inner() == other.0.inner()
    }
}

impl miette::SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        self.0.read_span(span, context_lines_before, context_lines_after)
    }
}
