//! Why a table could not be made, and the refusals made before any row is computed.

use crate::wording::{give, give_value, Argument};
use miette::Diagnostic;
use thiserror::Error;

use super::Table;
use crate::solve::{Limits, SolveError};

/// Why a table could not be made.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum TableError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Solving failed; the inner error says why.
    Solve(#[from] SolveError),

    /// A limit stopped the table partway: what was computed, and why it stopped.
    #[error("the table stops after n = {}", partial.upto)]
    #[diagnostic(code(takeaway::table::incomplete), help("the rows up to there are shown; {reason}"))]
    Incomplete {
        /// The rows computed before it stopped.
        partial: Box<Table>,
        /// Why it failed.
        reason: String,
        #[diagnostic_source]
        /// The error that stopped it.
        cause: SolveError,
    },

    #[error("{give_1} was given, but the rules of {game} never read `last`", give_1 = give(Argument::ByLast))]
    #[diagnostic(
        code(takeaway::table::last_unused),
        help("a table by last move is for memory games, whose rules read `last` (as in `take ≤ 2·last`)")
    )]
    /// Reported as “--by-last was given, but the rules of {game} never read `last`”.
    LastUnused {
        /// The game's name.
        game: String,
    },

    #[error("{give_1} shows one pile after each previous move, and {game} is not a one-pile game", give_1 = give(Argument::ByLast))]
    #[diagnostic(
        code(takeaway::table::by_last_needs_one_pile),
        help("ask about single positions instead: takeaway solve FILE 3 4 {give_1}", give_1 = give_value(Argument::Last, "2"))
    )]
    /// Reported as “--by-last shows one pile after each previous move, and {game} is not a one-pile game”.
    ByLastNeedsOnePile {
        /// The game's name.
        game: String,
    },

    #[error("`plot` draws one pile or two piles, and {game} is played on {piles} piles")]
    #[diagnostic(
        code(takeaway::table::too_many_piles),
        help(
            "`table` lists the positions of more piles and the P-positions among them: a `table` with {upto}",
            upto = give_value(Argument::Upto, 10)
        )
    )]
    /// Reported as “`plot` draws one pile or two piles, and {game} is played on {piles} piles”.
    TooManyPiles {
        /// The game's name.
        game: String,
        /// How many piles.
        piles: usize,
    },

    #[error("{give_1} was given, but {game} is played on {board}", give_1 = give_value(Argument::Piles, .given))]
    #[diagnostic(
        code(takeaway::table::piles_fixed),
        help("{give_1} chooses how many piles a table shows for games played on any number of piles (`piles` in the game file); leave it out here", give_1 = give(Argument::Piles))
    )]
    /// Reported as “--piles {given} was given, but {game} is played on {board}”.
    PilesFixed {
        /// The game's name.
        game: String,
        /// How many were given.
        given: usize,
        /// What the game is played on, in words.
        board: String,
    },

    #[error("{give_1} was given: a table lists positions of at most {most} piles", give_1 = give_value(Argument::Piles, .given))]
    #[diagnostic(
        code(takeaway::table::piles_too_many),
        help("ask about one position of many piles with `solve`; a table of K piles lists every multiset of K sizes")
    )]
    /// Reported as “--piles {given} was given: a table lists positions of at most {most} piles”.
    PilesTooMany {
        /// How many were given.
        given: usize,
        /// The most allowed.
        most: usize,
    },

    #[error("a plot up to {upto} would be a picture of about {megabytes} MB, more than a plot draws ({most} MB)")]
    #[diagnostic(
        code(takeaway::table::picture_too_large),
        help("plot up to {largest} at most; `table` lists the values without drawing them")
    )]
    /// Reported as “a plot up to {upto} would be a picture of about {megabytes} MB, more than a plot draws ({most} MB)”.
    PictureTooLarge {
        /// The largest pile asked for.
        upto: u64,
        /// The size of the picture, in words.
        megabytes: String,
        /// The most allowed.
        most: u64,
        /// The largest pile that fits.
        largest: u64,
    },

    #[error("{give_1} was given: a table needs at least one pile", give_1 = give_value(Argument::Piles, "0"))]
    #[diagnostic(code(takeaway::table::no_piles), help("{give_1} lists every position of three piles up to {give_2}", give_1 = give_value(Argument::Piles, "3"), give_2 = give(Argument::Upto)))]
    /// Reported as “--piles 0 was given: a table needs at least one pile”.
    NoPiles,

    #[error("a table of rectangles up to {upto}×{upto} holds every board inside that box: {boards} boards, past the limit of {limit} positions")]
    #[diagnostic(
        code(takeaway::table::too_large),
        help("the boards inside an r×c box number C(r + c, r); tables up to {give_1} fit the limit (raise it with {give_2}, or ask about one board with `solve`)", give_1 = give_value(Argument::Upto, .largest), give_2 = give(Argument::MaxStates))
    )]
    /// Reported as “a table of rectangles up to {upto}×{upto} holds every board inside that box: {boards} boards, past the limit of {limit} positions”.
    TooLarge {
        /// The largest pile asked for.
        upto: u64,
        /// How many boards it would take, in words.
        boards: String,
        /// The limit that was reached.
        limit: usize,
        /// The largest pile that fits.
        largest: u64,
    },

    #[error("a table up to {upto} holds {positions} positions, past the limit of {limit}")]
    #[diagnostic(
        code(takeaway::table::too_many_rows),
        help("a table keeps every position it shows: ask for {give_1} or less (or raise the limit with {give_2}), or ask about one position with `solve`; a one-pile table of outcomes and values in {give_3} or json is written as it is made, without this limit", give_1 = give_value(Argument::Upto, .largest), give_2 = give(Argument::MaxStates), give_3 = give_value(Argument::Format, "csv"))
    )]
    /// Reported as “a table up to {upto} holds {positions} positions, past the limit of {limit}”.
    TooManyRows {
        /// The largest pile asked for.
        upto: u64,
        /// How many positions it would take, in words.
        positions: String,
        /// The limit that was reached.
        limit: usize,
        /// The largest pile that fits.
        largest: u64,
    },

    #[error("a table up to {upto} is {rows} rows, which take {time} to write, past the budget of {budget}")]
    #[diagnostic(
        code(takeaway::table::too_long_to_write),
        help("ask for {give_1} or less, or give it the time with {give_2}", give_1 = give_value(Argument::Upto, .largest), give_2 = give_value(Argument::Timeout, .seconds))
    )]
    /// Reported as “a table up to {upto} is {rows} rows, which take {time} to write, past the budget of {budget}”.
    TooLongToWrite {
        /// The largest pile asked for.
        upto: u64,
        /// How many rows, in words.
        rows: String,
        /// How long writing them would take, in words.
        time: String,
        /// The question's time, in words.
        budget: String,
        /// The largest table written within it.
        largest: u64,
        /// The timeout that would let it be written.
        seconds: u64,
    },
}

/// Rows a streamed table writes per move of the budget (`WORK_PER_SECOND` moves a second):
/// measured at about 50 million rows a second in CSV and 20 million in JSON on one core of the
/// machine the benchmark ran on (`benches/tables.py`), counted at 10 million.
const ROWS_PER_MOVE: u64 = 2;

impl TableError {
    /// Refuses at once a table whose rows would take longer to write than the question may.
    pub(super) fn refuse_writing(upto: u64, limits: &Limits) -> Result<(), TableError> {
        let allowed = limits.estimate_moves().saturating_mul(ROWS_PER_MOVE);
        let rows = upto.saturating_add(1);
        if rows <= allowed {
            return Ok(());
        }
        let moves = (rows / ROWS_PER_MOVE) as f64;
        Err(TableError::TooLongToWrite {
            upto,
            rows: crate::solve::approximately(rows as f64),
            time: limits.time_of_moves(moves),
            budget: crate::solve::duration_in_words(limits.seconds()),
            largest: allowed.saturating_sub(1),
            seconds: (limits.seconds() * rows as f64 / allowed.max(1) as f64).ceil().clamp(1.0, 1e9) as u64,
        })
    }
}

impl TableError {
    /// What kind of failure this is: a table stopped or refused by a limit takes its cause's
    /// kind; the rest are questions that do not fit the game.
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        use crate::vocab::FailureKind;
        match self {
            TableError::Solve(e) | TableError::Incomplete { cause: e, .. } => e.kind(),
            TableError::TooLarge { .. }
            | TableError::TooManyRows { .. }
            | TableError::PictureTooLarge { .. }
            | TableError::TooLongToWrite { .. } => FailureKind::Refused,
            TableError::LastUnused { .. }
            | TableError::ByLastNeedsOnePile { .. }
            | TableError::TooManyPiles { .. }
            | TableError::PilesFixed { .. }
            | TableError::PilesTooMany { .. }
            | TableError::NoPiles => FailureKind::Question,
        }
    }
}

impl TableError {
    /// Refuses before anything is computed a table of more positions than the limit allows;
    /// `positions(k)` counts the positions of the table up to k.
    pub(crate) fn refuse_rows(upto: u64, limit: usize, positions: impl Fn(u64) -> u128) -> Result<(), TableError> {
        if positions(upto) <= limit as u128 {
            return Ok(());
        }
        // The largest --upto that fits, by bisection (the count grows with k).
        let (mut fits, mut over) = (0u64, upto);
        while over - fits > 1 {
            let mid = fits + (over - fits) / 2;
            if positions(mid) <= limit as u128 {
                fits = mid;
            } else {
                over = mid;
            }
        }
        let positions = crate::solve::approximately(positions(upto) as f64);
        Err(TableError::TooManyRows { upto, positions, limit, largest: fits })
    }
}
