//! One step of a partizan game against the computer: the player is `side` (Left or Right), the
//! computer the other; each moves by its own side's rules. Outcomes, canonical values, means
//! and temperatures come from the partizan solver; where a sum is too large to search, the
//! computer plays in the hottest pile (`choose_partizan`).

use super::{
    chosen_move, listable, other_view, where_known, ForPlayer, PlayStep, PlayerMove, StepHint, StepHottest, StepMove,
    StepPosition, StepSlip,
};
use crate::api::request::PlayArgs;
use crate::api::{position_of, Failure, Loaded};
use crate::play::{choose_partizan, partizan_hint, PartizanAdvice, Random, Strength};
use crate::rules::{Convention, Move, Position};
use crate::solve::partizan::PartizanSolver;
use crate::solve::{Limits, SolveError};
use crate::vocab::Side;

/// The longest canonical form a step writes; a longer one is shown by its birthday.
const MOST_FORM_CHARS: usize = 60;

pub(super) fn step(loaded: &Loaded, args: &PlayArgs, limits: &Limits) -> Result<PlayStep, Failure> {
    let game = &loaded.game;
    let engine = |e: SolveError| Failure::one(e, Some(&loaded.source));
    let you = args.side;
    let them = you.other();
    let mut position = position_of(loaded, &args.position.0, args.last)?;
    let mut solver = PartizanSolver::within(game, limits.clone());
    // The winning moves (for a hint, a slip, the computer's choice) come from a solver of
    // their own: looked for in a sum too large for its values, they give the values up, and
    // each move listed would then be searched (and refused) instead (a hundred piles, the
    // computer moving: 75 s, against 1.6 s).
    let mut chooser = PartizanSolver::within(game, limits.clone());
    let mut random = Random(args.seed.max(1));
    let strength = Strength { percent: args.strength, seed: args.seed };
    let mut out = PlayStep::new(&game.name);
    out.side = Some(you.name());
    let mut to_move = if args.computer && args.to.is_none() { them } else { you };
    out.positions.push(figures(&mut solver, &position, to_move, you).map_err(engine)?);
    if args.hint {
        let hint = partizan_hint(&mut chooser, &position, you).map_err(engine)?;
        let hottest = hint.hottest.map(|(_, pile, temperature)| StepHottest { pile, temperature });
        let (kind, m) = match hint.advice {
            PartizanAdvice::Win(m) => ("win", Some(m)),
            PartizanAdvice::Lost { play, .. } => ("lost", play),
            PartizanAdvice::ByTemperature(m) => ("temperature", Some(m)),
        };
        out.hint = Some(StepHint { kind, words: m.as_ref().map(Move::describe), to: m.map(|m| m.to.piles), hottest });
    } else if let Some(chosen) = chosen_move(loaded, args, &solver.moves(&position, you).map_err(engine)?)? {
        // A slip: a win let go (from a position the player wins moving first, to one the
        // computer wins moving first). Where outcomes are too large to search, none is looked for.
        let could_win = where_known(solver.outcome(&position).map(Some)).map_err(engine)?;
        let they_win = where_known(solver.outcome(&chosen.to).map(Some)).map_err(engine)?;
        let mut slip = None;
        if let (Some(before), Some(after)) = (could_win, they_win) {
            if before.first_wins(you) && after.first_wins(them) {
                if let Some(b) = chooser.winning_moves(&position, you).map_err(engine)?.first() {
                    slip = Some(StepSlip { played: chosen.describe(), better: b.describe(), kept: "win" });
                }
            }
        }
        out.you = Some(PlayerMove { words: chosen.describe(), to: chosen.to.piles.clone(), slip });
        position = chosen.to;
        to_move = them;
        out.positions.push(figures(&mut solver, &position, to_move, you).map_err(engine)?);
        if let Some(m) =
            computer_move((&mut chooser, &mut solver), &position, them, strength, &mut random).map_err(engine)?
        {
            position = Position { piles: m.to.clone(), last: m.last, ..position };
            out.computer = Some(m);
            to_move = you;
            out.positions.push(figures(&mut solver, &position, to_move, you).map_err(engine)?);
        }
    } else if args.computer {
        if let Some(m) =
            computer_move((&mut chooser, &mut solver), &position, them, strength, &mut random).map_err(engine)?
        {
            position = Position { piles: m.to.clone(), last: m.last, ..position };
            out.computer = Some(m);
            to_move = you;
            out.positions.push(figures(&mut solver, &position, to_move, you).map_err(engine)?);
        }
    }
    out.position = position.piles.clone();
    out.last = position.last;
    let moves = solver.moves(&position, to_move).map_err(engine)?;
    if moves.is_empty() {
        // Under normal play the side that cannot move loses; under misère play, wins.
        let mover_wins = game.convention == Convention::Misere;
        out.over = true;
        out.winner = Some(if (to_move == you) == mover_wins { "you" } else { "computer" });
        return Ok(out);
    }
    out.to_move = Some(if to_move == you { "you" } else { "computer" });
    out.outcome = where_known(solver.outcome(&position).map(Some)).map_err(engine)?.map(|o| o.letter());
    if to_move == you {
        let moves = listable(moves)?;
        out.moves = moves.iter().map(|m| listed(&mut solver, m, you)).collect::<Result<_, _>>().map_err(engine)?;
    }
    Ok(out)
}

/// The computer's move as `side`, chosen by `chooser` and listed by `solver`; none when it has
/// no move.
fn computer_move(
    (chooser, solver): (&mut PartizanSolver, &mut PartizanSolver),
    position: &Position,
    side: Side,
    strength: Strength,
    random: &mut Random,
) -> Result<Option<StepMove>, SolveError> {
    match choose_partizan(chooser, position, side, strength, random)? {
        Some((m, _)) => Ok(Some(listed(solver, &m, side)?)),
        None => Ok(None),
    }
}

/// A move of `side` with what it means for `side`: the opponent moves first from where it
/// leads, and `side` wins exactly when the opponent, moving first, loses.
fn listed(solver: &mut PartizanSolver, m: &Move, side: Side) -> Result<StepMove, SolveError> {
    let result = match where_known(solver.outcome(&m.to).map(Some))? {
        Some(o) if o.first_wins(side.other()) => ForPlayer::Lose,
        Some(_) => ForPlayer::Win,
        // Too large to search: the thermograph's advice is no proof.
        None => ForPlayer::Unknown,
    };
    Ok(StepMove {
        words: m.describe(),
        to: m.to.piles.clone(),
        last: m.to.last,
        result,
        remoteness: None,
        value: form(solver, &m.to)?,
    })
}

/// The canonical form of a position, written out, where the engine can give it.
fn form(solver: &mut PartizanSolver, p: &Position) -> Result<Option<String>, SolveError> {
    if !solver.has_values() {
        return Ok(None);
    }
    match solver.value(p) {
        Ok(v) => Ok(Some(solver.show_short(v, MOST_FORM_CHARS))),
        Err(SolveError::FormsTooLarge { .. }) => Ok(None),
        Err(e) if e.kind() == crate::vocab::FailureKind::Refused => Ok(None),
        Err(e) => Err(e),
    }
}

/// A position's figures for the value history, `to_move` moving from it, seen by `you`.
fn figures(solver: &mut PartizanSolver, p: &Position, to_move: Side, you: Side) -> Result<StepPosition, SolveError> {
    let has_moves = !solver.moves(p, to_move)?.is_empty();
    let mover_result = if !has_moves {
        // The game is over: under normal play the mover has lost, under misère play won.
        if solver.game().convention == Convention::Misere {
            ForPlayer::Win
        } else {
            ForPlayer::Lose
        }
    } else {
        match where_known(solver.outcome(p).map(Some))? {
            Some(o) if o.first_wins(to_move) => ForPlayer::Win,
            Some(_) => ForPlayer::Lose,
            None => ForPlayer::Unknown,
        }
    };
    let for_you = if to_move == you { mover_result } else { other_view(mover_result) };
    let heat = if solver.has_values() { where_known(solver.heat(p).map(Some))? } else { None };
    Ok(StepPosition {
        position: p.piles.clone(),
        last: p.last,
        to_move: has_moves.then_some(if to_move == you { "you" } else { "computer" }),
        for_you,
        remoteness: None,
        value: form(solver, p)?,
        mean: heat.as_ref().map(|h| h.mean.clone()),
        temperature: heat.map(|h| h.temperature),
    })
}
