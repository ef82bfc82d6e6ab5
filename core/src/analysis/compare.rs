//! `compare`: the first pile size at which two games differ, or how far they agree.

use crate::wording::{give_value, Argument};
use serde::Serialize;

use crate::rules::{Board, Position};
use crate::solve::{Outcome, SolveError, Solver};

/// One game's figures at a pile where the two games part.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// The pile.
    pub n: u64,
    /// The game's outcome there.
    pub outcome: Outcome,
    /// Its Grundy value there, where it has one.
    pub grundy: Option<u64>,
}

/// Two games compared pile by pile.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The first game's name.
    pub a: String,
    /// The second game's name.
    pub b: String,
    /// The largest pile compared.
    pub upto: u64,
    /// the second game is read at n + shift
    pub shift: u64,
    /// `grundy` when both games have Grundy values, else `outcome`
    pub compared: &'static str,
    /// Whether the games agree on every pile compared.
    pub identical: bool,
    /// The outcomes of the first pile where the games differ, if any.
    pub first_difference: Option<(Side, Side)>,
}

/// Why two games could not be compared.
#[derive(Debug, thiserror::Error, miette::Diagnostic, Clone, PartialEq)]
pub enum CompareError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Solving failed; the inner error says why.
    Solve(#[from] SolveError),

    #[error("`compare` compares one pile of each game, and {game} is not played on one pile")]
    #[diagnostic(code(takeaway::compare::not_one_pile), help("compare games declared with `pile` or `piles`"))]
    /// Reported as “`compare` compares one pile of each game, and {game} is not played on one pile”.
    NotOnePile {
        /// The game's name.
        game: String,
    },

    #[error("{give_1} reads the second game at piles up to {upto} + {shift}, past the largest pile a game holds ({largest})", give_1 = give_value(Argument::Shift, .shift))]
    #[diagnostic(code(takeaway::compare::shift_too_large), help("give a shift of at most {fits} for {give_1}", give_1 = give_value(Argument::Upto, .upto)))]
    /// Reported as “--shift {shift} reads the second game at piles up to {upto} + {shift}, past the largest pile a game holds ({largest})”.
    ShiftTooLarge {
        /// The largest pile asked for.
        upto: u64,
        /// The shift asked for.
        shift: u64,
        /// The largest pile that fits.
        largest: u64,
        /// The largest amount that fits.
        fits: u64,
    },
}

impl CompareError {
    /// What kind of failure this is.
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        match self {
            CompareError::Solve(e) => e.kind(),
            CompareError::NotOnePile { .. } | CompareError::ShiftTooLarge { .. } => crate::vocab::FailureKind::Question,
        }
    }
}

/// The largest pile a rule can read: its amounts are evaluated in signed 64-bit arithmetic.
const LARGEST_PILE: u64 = i64::MAX as u64;

pub(crate) fn compare(a: &mut Solver, b: &mut Solver, upto: u64, shift: u64) -> Result<Comparison, CompareError> {
    for s in [&*a, &*b] {
        if !matches!(s.game().board, Board::OnePile | Board::AnyPiles | Board::Coins) {
            return Err(CompareError::NotOnePile { game: s.game().name.clone() });
        }
    }
    if upto.checked_add(shift).is_none_or(|top| top > LARGEST_PILE) {
        let fits = LARGEST_PILE.saturating_sub(upto);
        return Err(CompareError::ShiftTooLarge { upto, shift, largest: LARGEST_PILE, fits });
    }
    // Grundy values are compared while both games give them, else outcomes; the walk stops at
    // the first difference, so that games which part early answer at once however far --upto
    // reaches.
    let mut by_grundy = true;
    let mut first_difference = None;
    for n in 0..=upto {
        let va = a.value(&Position::new(vec![n]))?;
        let vb = b.value(&Position::new(vec![n + shift]))?;
        by_grundy &= va.grundy.is_some() && vb.grundy.is_some();
        let differs = if by_grundy { va.grundy != vb.grundy } else { va.outcome != vb.outcome };
        if differs {
            first_difference = Some((
                Side { n, outcome: va.outcome, grundy: va.grundy },
                Side { n: n + shift, outcome: vb.outcome, grundy: vb.grundy },
            ));
            break;
        }
    }
    Ok(Comparison {
        a: a.game().name.clone(),
        b: b.game().name.clone(),
        upto,
        shift,
        compared: if by_grundy { "grundy" } else { "outcome" },
        identical: first_difference.is_none(),
        first_difference,
    })
}

impl Comparison {
    /// The comparison as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        let what = if self.compared == "grundy" { "Grundy values" } else { "outcomes" };
        let b_at = if self.shift == 0 { "n".to_string() } else { format!("n + {}", self.shift) };
        match &self.first_difference {
            None => format!("{} at n and {} at {b_at}: identical {what} for n = 0..{}\n", self.a, self.b, self.upto),
            Some((x, y)) => {
                let side = |s: &Side| {
                    let o = s.outcome.letter();
                    match s.grundy {
                        Some(g) => format!("Grundy value {g} ({o})"),
                        None => o.to_string(),
                    }
                };
                format!(
                    "{} at n and {} at {b_at}: the {what} first differ at n = {}: {} has {} at {}, {} has {} at {}\n",
                    self.a,
                    self.b,
                    x.n,
                    self.a,
                    side(x),
                    x.n,
                    self.b,
                    side(y),
                    y.n
                )
            }
        }
    }
}
