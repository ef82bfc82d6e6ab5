//! A partizan position's canonical value where its forms fit the limits, and how long a value
//! a table writes out: what the partizan answers and the temperature of sums share.

use crate::rules::Position;
use crate::solve::partizan::PartizanSolver;
use crate::solve::SolveError;
use crate::wording::{give, Argument};

/// The longest value a table writes out; `solve` writes longer ones.
pub(crate) const TABLE_FORM: usize = 60;

/// Computes the position's value where it fits the limits; where the forms grow past them,
/// the solver answers from the search instead, and the reason comes back.
pub(crate) fn try_values(solver: &mut PartizanSolver, pos: &Position) -> Result<Option<String>, SolveError> {
    if !solver.has_values() {
        return Ok(None);
    }
    match solver.value(pos) {
        Ok(_) => Ok(None),
        Err(e @ SolveError::FormsTooLarge { .. }) => {
            solver.give_up_values();
            Ok(Some(format!("{e}; {}", searched())))
        }
        Err(e) => Err(e),
    }
}

/// Where the outcome comes from once the values are given up.
pub(super) fn searched() -> String {
    format!(
        "the outcome and winning moves come from a search of the game tree ({} raises the limit)",
        give(Argument::MaxStates)
    )
}
