//! Why a position could not be solved: the solving stage's errors, their kinds and their
//! suggestions.

use crate::wording::{give_value, Argument};
use miette::Diagnostic;
use thiserror::Error;

use super::{misere, reach};
use crate::rules::MoveError;
use crate::vocab::Span;

/// Why a position could not be solved.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum SolveError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Listing the moves failed; the inner error says why.
    Move(#[from] MoveError),

    #[error("this needs more than {limit} {what}")]
    #[diagnostic(
        code(takeaway::solve::state_limit),
        help(
            "raise the limit with {give_1} (a search keeps about {memory} at that limit, and takes longer), or ask about a smaller position",
            give_1 = give_value(Argument::MaxStates, .suggested)
        )
    )]
    /// Reported as “this needs more than {limit} {what}”.
    StateLimit {
        /// The limit that was reached.
        limit: u64,
        /// What the problem concerns, in words.
        what: &'static str,
        /// A limit that would be enough.
        suggested: usize,
        /// The memory it would take, in words.
        memory: String,
    },

    #[error("this would examine more than the {limit} moves that {seconds} allow")]
    #[diagnostic(
        code(takeaway::solve::work_limit),
        help("give it longer with {give_1} (the moves a question may examine grow with its time), or ask about a smaller position", give_1 = give_value(Argument::Timeout, .suggested))
    )]
    /// Reported as “this would examine more than the {limit} moves that {seconds} allow”.
    WorkLimit {
        /// The limit that was reached.
        limit: String,
        /// The time budget, in words.
        seconds: String,
        /// A limit that would be enough.
        suggested: u64,
    },

    #[error("a pile of {needed} needs the value of every smaller pile: about {estimate} moves examined ({time}), past the budget of {budget}")]
    #[diagnostic(code(takeaway::solve::too_much_work), help("{advice}"))]
    /// Reported as “a pile of {needed} needs the value of every smaller pile: about {estimate} moves examined ({time}), past the budget of {budget}”.
    TooMuchWork {
        /// How many are needed.
        needed: u64,
        /// How many were computed before stopping.
        computed: u64,
        /// The estimated work, in words.
        estimate: String,
        /// The estimated time, in words.
        time: String,
        /// The budget, in words.
        budget: String,
        /// What to do about it.
        advice: String,
    },

    #[error("a pile of {needed} needs the value of every smaller pile, past the limit of {limit} piles")]
    #[diagnostic(
        code(takeaway::solve::too_many_values),
        help("no theorem can prove a period for this game, so no pile may be skipped: ask about a pile below {limit}, or raise the limit with {give_1} (memory and time grow with it)", give_1 = give_value(Argument::MaxStates, .suggested))
    )]
    /// Reported as “a pile of {needed} needs the value of every smaller pile, past the limit of {limit} piles”.
    TooManyValues {
        /// How many are needed.
        needed: u64,
        /// The limit that was reached.
        limit: u64,
        /// A limit that would be enough.
        suggested: u64,
    },

    #[error("computing the values of single piles up to {needed} reached the limit of {limit} moves examined at pile {computed}")]
    #[diagnostic(code(takeaway::solve::pile_work_limit), help("{advice}"))]
    /// Reported as “computing the values of single piles up to {needed} reached the limit of {limit} moves examined at pile {computed}”.
    PileWorkLimit {
        /// How many were computed before stopping.
        computed: u64,
        /// How many are needed.
        needed: u64,
        /// The limit that was reached.
        limit: String,
        /// What to do about it.
        advice: String,
    },

    #[error("no period shows in the values of the piles below {computed}, and they still grow (the largest, {largest}, at pile {largest_at}); {pace}")]
    #[diagnostic(code(takeaway::solve::period_out_of_reach), help("{advice}"))]
    /// Reported as “no period shows in the values of the piles below {computed}, and they still grow (the largest, {largest}, at pile {largest_at}); {pace}”.
    PeriodOutOfReach {
        /// How many values were computed when the run stopped.
        computed: u64,
        /// The largest value so far.
        largest: u32,
        /// The first pile with that value.
        largest_at: u64,
        /// What the rest would cost at this pace, past the budget, in words.
        pace: String,
        /// What to do about it: how far the budget reaches.
        advice: String,
    },

    #[error("the canonical values of this partizan game grow past the limit of {limit} entries of work (forms, comparisons and sums) by pile {pile}")]
    #[diagnostic(
        code(takeaway::solve::forms_too_large),
        help("outcomes and winning moves need no values and come from a search; for the values, give it longer with {give_1}", give_1 = give_value(Argument::Timeout, .suggested))
    )]
    /// Reported as “the canonical values of this partizan game grow past the limit of {limit} entries of work (forms, comparisons and sums) by pile {pile}”.
    FormsTooLarge {
        /// The limit that was reached.
        limit: usize,
        /// The pile size.
        pile: u64,
        /// A limit that would be enough.
        suggested: u64,
    },

    #[error("searching this position needs {at_least}: the search must value every position it reaches")]
    #[diagnostic(code(takeaway::solve::too_many_positions), help("{advice}"))]
    /// Reported as “searching this position needs {at_least}: the search must value every position it reaches”.
    TooManyPositions {
        /// A lower bound on the count, in words.
        at_least: String,
        /// What to do about it.
        advice: String,
    },

    #[error("the computation ran out of time after {seconds} s")]
    #[diagnostic(
        code(takeaway::solve::timeout),
        help("give it longer with {give_1}, or ask about a smaller position", give_1 = give_value(Argument::Timeout, "SECONDS"))
    )]
    /// Reported as “the computation ran out of time after {seconds} s”.
    Timeout {
        /// The time budget, in words.
        seconds: f64,
    },

    #[error("the computation was cancelled")]
    #[diagnostic(
        code(takeaway::solve::cancelled),
        help("stopped as asked (by Ctrl-C, or by the program that asked): ask again to start over, or about a smaller position to answer sooner")
    )]
    /// Reported as “the computation was cancelled”.
    Cancelled,

    #[error("this loopy game reaches more than {limit} positions from here")]
    #[diagnostic(
        code(takeaway::solve::loopy_too_large),
        help("a game that adds counters is solved over every position it can reach: bound the rule, as in `where n + t ≤ 20`, or raise the limit with {give_1}", give_1 = give_value(Argument::MaxStates, .suggested))
    )]
    /// Reported as “this loopy game reaches more than {limit} positions from here”.
    LoopyTooLarge {
        #[label("this rule adds counters, so piles can grow")]
        /// Where in the text the problem is.
        span: Span,
        /// The limit that was reached.
        limit: u64,
        /// A limit that would be enough.
        suggested: usize,
    },

    #[error(transparent)]
    #[diagnostic(transparent)]
    /// The misère solver failed; the inner error says why.
    Misere(#[from] misere::MisereError),

    #[error("play can go round in a circle: position {position} comes back")]
    #[diagnostic(
        code(takeaway::solve::cycle),
        help("every move must make the position smaller, or the game may never end")
    )]
    /// Reported as “play can go round in a circle: position {position} comes back”.
    Loop {
        #[label("this rule leads back to {position}")]
        /// Where in the text the problem is.
        span: Span,
        /// The position, in words.
        position: String,
    },
}

impl SolveError {
    /// What kind of failure this is: the game's rules go wrong, a limit refused the work, the
    /// deadline passed, or the question was cancelled.
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        use crate::vocab::FailureKind;
        match self {
            SolveError::Move(e) => e.kind(),
            SolveError::Timeout { .. } => FailureKind::Timeout,
            SolveError::Cancelled => FailureKind::Cancelled,
            SolveError::Loop { .. } => FailureKind::Game,
            SolveError::Misere(_)
            | SolveError::StateLimit { .. }
            | SolveError::WorkLimit { .. }
            | SolveError::TooMuchWork { .. }
            | SolveError::TooManyValues { .. }
            | SolveError::PileWorkLimit { .. }
            | SolveError::PeriodOutOfReach { .. }
            | SolveError::FormsTooLarge { .. }
            | SolveError::TooManyPositions { .. }
            | SolveError::LoopyTooLarge { .. } => FailureKind::Refused,
        }
    }
}

/// The memory a whole-position search holds at a limit of `positions`, in words.
pub(crate) fn search_memory(positions: usize) -> String {
    let mb = positions as f64 * reach::BYTES_PER_SEARCHED_POSITION as f64 / (1u64 << 20) as f64;
    if mb >= 1024.0 * 1024.0 {
        format!("{} TB", approximately(mb / (1024.0 * 1024.0)))
    } else if mb >= 1024.0 {
        format!("{:.1} GB", mb / 1024.0)
    } else {
        format!("{} MB", mb.ceil() as u64)
    }
}

/// A large count written for reading: exact below a million, else like 3.1·10¹⁵.
pub(crate) fn approximately(x: f64) -> String {
    if x < 1e6 {
        return format!("{}", x.round() as u64);
    }
    if !x.is_finite() || x >= 1e300 {
        return "more than 10³⁰⁰".into();
    }
    let exponent = x.log10().floor() as i32;
    let mantissa = x / 10f64.powi(exponent);
    let sup: String = exponent
        .to_string()
        .chars()
        .map(|c| match c {
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect();
    format!("{mantissa:.1}·10{sup}")
}
