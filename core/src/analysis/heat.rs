//! Answers of temperature theory beyond one position's heat: a value cooled, what the theory
//! proves of a sum too large to search, and thermographs drawn.

use serde::Serialize;

use super::partizan_values::{try_values, TABLE_FORM};
use super::WinningMove;
use crate::rules::{Position, Side};
use crate::solve::partizan::thermo::plain;
use crate::solve::partizan::{PartizanOutcome, PartizanSolver};
use crate::solve::SolveError;

/// A value cooled by a temperature: each move taxed by it, until the game is a number.
#[derive(Debug, Clone, Serialize)]
pub struct Cooled {
    /// The temperature cooled by.
    pub by: String,
    /// The cooled value.
    pub value: String,
}

/// What temperature theory proves of a sum of piles too large to search, from its piles'
/// thermographs: the mean exactly, bounds on the temperature and stops, and each side's
/// hotstrat move (in the hottest pile). The outcome it gives is proven; the moves are advice.
#[derive(Debug, Clone, Serialize)]
pub struct SumHeat {
    /// The mean: the sum of the piles' means (a theorem).
    pub mean: String,
    /// The temperature is at most the hottest pile's (a theorem).
    pub temperature_at_most: String,
    /// Left's stop lies between these two numbers.
    pub left_stop: [String; 2],
    /// Right's stop lies between these two numbers.
    pub right_stop: [String; 2],
    /// The hottest pile's size and its temperature.
    pub hottest_pile: (u64, String),
    /// Left's hotstrat move: an orthodox move in the hottest pile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_hot_move: Option<WinningMove>,
    /// Right's hotstrat move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_hot_move: Option<WinningMove>,
}

/// The bounds temperature theory proves of a sum of piles, and the outcome when they decide
/// it (a stop's bounds on one side of 0).
pub(crate) fn sum_heat(
    solver: &mut PartizanSolver,
    pos: &Position,
) -> Result<(Option<PartizanOutcome>, SumHeat), SolveError> {
    let bounds = solver.sum_bounds(pos)?;
    let outcome = match (bounds.left_first_wins(), bounds.right_first_wins()) {
        (Some(l), Some(r)) => Some(PartizanOutcome::from_wins(l, r)),
        _ => None,
    };
    let hottest = match solver.hottest_pile(pos)? {
        Some((_, n, t)) => (n, t),
        None => (pos.piles.iter().copied().max().unwrap_or(0), plain(bounds.temperature_at_most)),
    };
    let hot = |solver: &mut PartizanSolver, side| -> Result<Option<WinningMove>, SolveError> {
        Ok(solver.hot_move(pos, side)?.map(|m| WinningMove { description: m.kind.describe(), to: m.to.piles }))
    };
    let sum_heat = SumHeat {
        mean: plain(bounds.mean),
        temperature_at_most: plain(bounds.temperature_at_most),
        left_stop: [plain(bounds.left_stop.0), plain(bounds.left_stop.1)],
        right_stop: [plain(bounds.right_stop.0), plain(bounds.right_stop.1)],
        hottest_pile: hottest,
        left_hot_move: hot(solver, Side::Left)?,
        right_hot_move: hot(solver, Side::Right)?,
    };
    Ok((outcome, sum_heat))
}

/// Thermographs of positions of a partizan game, to draw overlaid (`plot --thermograph`).
#[derive(Debug, Clone, Serialize)]
pub struct ThermographPlot {
    /// The game's name.
    pub game: String,
    /// One thermograph a position, in the order asked.
    pub thermographs: Vec<DrawnThermograph>,
}

/// One position's thermograph as drawn: its walls' corners as exact numbers.
#[derive(Debug, Clone, Serialize)]
pub struct DrawnThermograph {
    /// The position.
    pub position: Vec<u64>,
    /// Its canonical value, shortened as a table shows it.
    pub value: String,
    /// The mean: where the mast stands.
    pub mean: String,
    /// The temperature: where the walls meet.
    pub temperature: String,
    /// Left's wall: its corners (t, x) from t = −1 up to the foot of the mast.
    pub left_wall: Vec<(String, String)>,
    /// Right's wall.
    pub right_wall: Vec<(String, String)>,
    #[serde(skip)]
    pub(crate) drawn: Drawn,
}

/// The same thermograph in floats, for the picture.
#[derive(Debug, Clone, Default)]
pub(crate) struct Drawn {
    pub(crate) left: Vec<(f64, f64)>,
    pub(crate) right: Vec<(f64, f64)>,
    pub(crate) mean: f64,
    pub(crate) temperature: f64,
}

/// The thermographs of `positions` (normal play).
pub(crate) fn thermographs(solver: &mut PartizanSolver, positions: &[Position]) -> Result<ThermographPlot, SolveError> {
    let mut out = Vec::new();
    for pos in positions {
        // The walls need no canonical form: past the forms' limits they come from a search
        // of the positions (drawn from t = 0 up, where they depend on the value alone).
        let value = match try_values(solver, pos)? {
            None => {
                let v = solver.value(pos)?;
                solver.show_short(v, TABLE_FORM)
            }
            Some(_) => "(its canonical form is past the limits)".to_string(),
        };
        let th = solver.thermal_value(pos)?.thermograph;
        let exact = |w: &crate::solve::partizan::thermo::Wall| -> Vec<(String, String)> {
            w.corners().into_iter().map(|(t, x)| (plain(t), plain(x))).collect()
        };
        let floats = |w: &crate::solve::partizan::thermo::Wall| -> Vec<(f64, f64)> {
            w.corners().into_iter().map(|(t, x)| (t.to_f64(), x.to_f64())).collect()
        };
        out.push(DrawnThermograph {
            position: pos.piles.clone(),
            value,
            mean: plain(th.mean),
            temperature: plain(th.temperature),
            left_wall: exact(&th.left),
            right_wall: exact(&th.right),
            drawn: Drawn {
                left: floats(&th.left),
                right: floats(&th.right),
                mean: th.mean.to_f64(),
                temperature: th.temperature.to_f64(),
            },
        });
    }
    Ok(ThermographPlot { game: solver.game().name.clone(), thermographs: out })
}
