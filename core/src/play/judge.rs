//! What a game against the computer asks the engine, for either kind of game: the moves of the
//! player to move, what a position means for its mover, the best move (hurrying a win,
//! delaying a loss), remoteness, values and, for partizan sums, temperature. Each kind keeps
//! two solvers: one for the computer's choices and hints, one for the figures a front end
//! shows, so that asking for figures never changes what the computer would choose (a partizan
//! solver gives its values up when a sum grows past them, and searches from then on).

use super::{ForPlayer, Hottest, Player};
use crate::rules::{Game, Move, Position};
use crate::solve::partizan::{Heat, PartizanOutcome, PartizanSolver};
use crate::solve::{Limits, Outcome, SolveError, Solver};
use crate::vocab::{FailureKind, Side};

/// The longest canonical form a figure writes; a longer one is shown by its birthday.
const MOST_FORM_CHARS: usize = 60;

/// The best move for the player to move, and what it keeps.
pub(super) enum Best {
    /// It wins, and of the winning moves it wins soonest.
    Win(Move),
    /// No move wins; it keeps the draw.
    Draw(Move),
    /// Every move loses; this one makes it hardest (see `Advice::Lost`).
    Lost { play: Move, resists: bool },
    /// A partizan sum too large to search: the hottest pile's best move.
    ByTemperature(Move),
}

impl Best {
    pub(super) fn into_move(self) -> Move {
        match self {
            Best::Win(m) | Best::Draw(m) | Best::ByTemperature(m) | Best::Lost { play: m, .. } => m,
        }
    }
}

/// The engine of one game against the computer.
pub(super) enum Judge<'g> {
    Impartial { game: &'g Game, limit: usize, chooser: Box<Solver<'g>>, figures: Box<Solver<'g>> },
    Partizan { you: Side, chooser: Box<PartizanSolver<'g>>, figures: Box<PartizanSolver<'g>> },
}

/// A figure the engine may be unable to give within the question's limits: then there is none.
/// Running out of time or being cancelled still ends the question.
fn where_known<T>(figure: Result<T, SolveError>) -> Result<Option<T>, SolveError> {
    match figure {
        Err(e) if e.kind() == FailureKind::Refused => Ok(None),
        other => other.map(Some),
    }
}

impl<'g> Judge<'g> {
    pub(super) fn new(game: &'g Game, you: Side, limits: Limits) -> Judge<'g> {
        if game.is_partizan() {
            Judge::Partizan {
                you,
                chooser: Box::new(PartizanSolver::within(game, limits.clone())),
                figures: Box::new(PartizanSolver::within(game, limits)),
            }
        } else {
            Judge::Impartial {
                game,
                limit: limits.max_states,
                chooser: Box::new(Solver::within(game, limits.clone())),
                figures: Box::new(Solver::within(game, limits)),
            }
        }
    }

    pub(super) fn side(&self, player: Player) -> Option<Side> {
        match self {
            Judge::Impartial { .. } => None,
            Judge::Partizan { you, .. } => Some(if player == Player::You { *you } else { you.other() }),
        }
    }

    /// The side `mover` plays (any, in an impartial game: its moves are everyone's).
    fn side_of(&self, mover: Player) -> Side {
        self.side(mover).unwrap_or(Side::Left)
    }

    pub(super) fn moves(&self, position: &Position, mover: Player) -> Result<Vec<Move>, SolveError> {
        match self {
            Judge::Impartial { game, limit, .. } => Ok(game.moves(position, *limit)?),
            Judge::Partizan { chooser, .. } => chooser.moves(position, self.side_of(mover)),
        }
    }

    /// What `position` means for `mover` moving from it, from the engine (the caller has
    /// settled a position with no move).
    pub(super) fn for_mover(&mut self, position: &Position, mover: Player) -> Result<ForPlayer, SolveError> {
        let side = self.side_of(mover);
        match self {
            Judge::Impartial { figures, .. } => Ok(match figures.outcome(position)? {
                Outcome::N => ForPlayer::Win,
                Outcome::P => ForPlayer::Lose,
                Outcome::D => ForPlayer::Draw,
            }),
            Judge::Partizan { figures, .. } => Ok(match where_known(figures.outcome(position))? {
                Some(o) if o.first_wins(side) => ForPlayer::Win,
                Some(_) => ForPlayer::Lose,
                None => ForPlayer::Unknown,
            }),
        }
    }

    pub(super) fn remoteness(&mut self, position: &Position, mover: Player) -> Result<Option<u64>, SolveError> {
        let side = self.side_of(mover);
        match self {
            Judge::Impartial { figures, .. } => Ok(where_known(figures.remoteness(position))?.flatten()),
            Judge::Partizan { figures, .. } => figures.remoteness(position, side),
        }
    }

    pub(super) fn value(&mut self, position: &Position) -> Result<Option<String>, SolveError> {
        match self {
            Judge::Impartial { figures, .. } => {
                Ok(where_known(figures.value(position))?.and_then(|v| v.grundy).map(|g| g.to_string()))
            }
            Judge::Partizan { figures, .. } => {
                if !figures.has_values() {
                    return Ok(None);
                }
                match figures.value(position) {
                    Ok(v) => Ok(Some(figures.show_short(v, MOST_FORM_CHARS))),
                    Err(SolveError::FormsTooLarge { .. }) => Ok(None),
                    Err(e) if e.kind() == FailureKind::Refused => Ok(None),
                    Err(e) => Err(e),
                }
            }
        }
    }

    pub(super) fn heat(&mut self, position: &Position) -> Result<Option<Heat>, SolveError> {
        match self {
            Judge::Partizan { figures, .. } if figures.has_values() => where_known(figures.heat(position)),
            _ => Ok(None),
        }
    }

    pub(super) fn outcome_letter(&mut self, position: &Position) -> Result<Option<&'static str>, SolveError> {
        match self {
            Judge::Impartial { chooser, .. } => Ok(Some(chooser.outcome(position)?.letter())),
            Judge::Partizan { figures, .. } => Ok(where_known(figures.outcome(position))?.map(|o| o.letter())),
        }
    }

    pub(super) fn hottest(&mut self, position: &Position) -> Result<Option<Hottest>, SolveError> {
        match self {
            Judge::Impartial { .. } => Ok(None),
            Judge::Partizan { chooser, .. } => Ok(chooser
                .hottest_pile(position)?
                .map(|(index, pile, temperature)| Hottest { index, pile, temperature })),
        }
    }

    /// The best move of `mover` at `position`, none when it has no move: a win, the soonest
    /// (by remoteness); else a draw; else the move that makes the loss hardest. A partizan
    /// sum too large to search gets the hottest pile's best move.
    pub(super) fn best(&mut self, position: &Position, mover: Player) -> Result<Option<Best>, SolveError> {
        let side = self.side_of(mover);
        match self {
            Judge::Impartial { game, limit, chooser, .. } => {
                let moves = game.moves(position, *limit)?;
                impartial_best(chooser, moves)
            }
            Judge::Partizan { chooser, .. } => partizan_best(chooser, position, side),
        }
    }
}

/// The order of preference among moves: first by what they keep (a win, a draw, a loss), then
/// a win soonest and a loss latest; unknown remoteness comes after any known, and among equals
/// the first listed stays.
fn better(kept: u8, remoteness: Option<u64>, than: Option<(u8, Option<u64>)>) -> bool {
    match than {
        None => true,
        Some((k, r)) if k == kept => match kept {
            0 => matches!((remoteness, r), (Some(a), Some(b)) if a < b) || (remoteness.is_some() && r.is_none()),
            2 => matches!((remoteness, r), (Some(a), Some(b)) if a > b) || (remoteness.is_some() && r.is_none()),
            _ => false,
        },
        Some((k, _)) => kept < k,
    }
}

fn impartial_best(solver: &mut Solver, moves: Vec<Move>) -> Result<Option<Best>, SolveError> {
    let mut best: Option<(Move, u8, Option<u64>)> = None;
    for m in moves {
        // The opponent moves from where it leads: a P-position there is a win here.
        let kept = match solver.outcome(&m.to)? {
            Outcome::P => 0,
            Outcome::D => 1,
            Outcome::N => 2,
        };
        let r = solver.remoteness(&m.to)?;
        if better(kept, r, best.as_ref().map(|b| (b.1, b.2))) {
            best = Some((m, kept, r));
        }
    }
    Ok(best.map(|(m, kept, _)| match kept {
        0 => Best::Win(m),
        1 => Best::Draw(m),
        _ => Best::Lost { play: m, resists: false },
    }))
}

fn partizan_best(solver: &mut PartizanSolver, position: &Position, side: Side) -> Result<Option<Best>, SolveError> {
    let moves = solver.moves(position, side)?;
    if moves.is_empty() {
        return Ok(None);
    }
    let winning = match solver.winning_moves(position, side) {
        Ok(winning) => winning,
        Err(e) if e.kind() == FailureKind::Refused => {
            return match solver.hot_move(position, side)? {
                Some(m) => Ok(Some(Best::ByTemperature(m))),
                None => Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    let opponent = side.other();
    // The options' remoteness comes from the position's own search, which counts them all;
    // where that search is out of reach, so are theirs, and none is asked (each would be
    // refused only after a count of its own).
    let counted = solver.remoteness(position, side)?.is_some();
    let (candidates, kept) = if winning.is_empty() { (moves, 2) } else { (winning, 0) };
    // Losing, a move where whoever moves first wins resists: the opponent must still find a
    // winning move, and a slip hands the win back. Those come first.
    let mut best: Option<(Move, bool, u8, Option<u64>)> = None;
    for m in candidates {
        let resists = kept == 2 && matches!(where_known(solver.outcome(&m.to))?, Some(PartizanOutcome::N));
        let r = if counted { solver.remoteness(&m.to, opponent)? } else { None };
        let first = match &best {
            None => true,
            Some((_, b_resists, b_kept, b_r)) if resists == *b_resists => better(kept, r, Some((*b_kept, *b_r))),
            Some((_, b_resists, ..)) => resists && !b_resists,
        };
        if first {
            best = Some((m, resists, kept, r));
        }
    }
    Ok(best.map(|(m, resists, kept, _)| if kept == 0 { Best::Win(m) } else { Best::Lost { play: m, resists } }))
}
