//! `play` for a partizan game: the user is Left or Right (`--side`), the computer the other.
//! Each turn the player to move makes one of their own side's moves; the computer plays a
//! winning move when it has one.

use std::io::Write;

use super::{say, take_back, your_turn, PlayRequest, Player, Random, Turn, Typed, HOW_TO_MOVE};
use takeaway_core::errors::SolveError;
use takeaway_core::PartizanSolver;
use takeaway_core::{choose_partizan, partizan_hint, pick, PartizanAdvice};
use takeaway_core::{Convention, FailureKind, Position};

pub fn play(
    request: &PlayRequest,
    next_line: &mut dyn FnMut() -> Option<String>,
    out: &mut dyn Write,
) -> Result<(), SolveError> {
    let PlayRequest { loaded, start, first, side: you, strength, budget } = request.clone();
    let game = &loaded.game;
    let mut solver = PartizanSolver::new(game, &budget);
    let mut random = Random(strength.seed.max(1));
    let them = you.other();
    let mut position = start;
    let mut to_move = first;
    let mut history: Vec<Turn> = Vec::new();
    // Your first move that let a win go: (your move number, from, played, a winning move).
    let mut slip: Option<(usize, Position, String, String)> = None;
    let mut your_moves = 0usize;
    let mut announced: Option<Position> = None;
    say(out, format!("{}: you are {}, the computer is {}. {HOW_TO_MOVE}", game.name, you.name(), them.name()));
    loop {
        let side = if to_move == Player::You { you } else { them };
        let moves = solver.moves(&position, side)?;
        if moves.is_empty() {
            // Under normal play the player who cannot move loses; under misère play, wins.
            let mover_wins = game.convention == Convention::Misere;
            let winner = if mover_wins { to_move } else { to_move.other() };
            say(out, format!("position {}: {} has no move left.\n", position.piles_text(), side.name()));
            match winner {
                Player::You => say(out, format!("You ({}) win!\n", you.name())),
                Player::Computer => {
                    say(out, format!("The computer ({}) wins.\n", them.name()));
                    if let Some((number, from, played, better)) = &slip {
                        say(
                            out,
                            format!(
                                "The win slipped at your move {number}: from {} you played {played}, but {better} would have won.\n",
                                from.piles_text()
                            ),
                        );
                    }
                }
            }
            return Ok(());
        }
        match to_move {
            Player::Computer => {
                let Some((chosen, by_temperature)) =
                    choose_partizan(&mut solver, &position, them, strength, &mut random)?
                else {
                    continue;
                };
                if by_temperature {
                    say(out, "(too large to search: the computer moves in the hottest pile)\n".to_string());
                }
                say(
                    out,
                    format!(
                        "position {}: the computer ({}) plays {}, to {}\n",
                        position.piles_text(),
                        them.name(),
                        chosen.describe(),
                        chosen.to.piles_text()
                    ),
                );
                history.push(Turn { before: position.clone(), mover: Player::Computer });
                position = chosen.to;
                to_move = Player::You;
            }
            Player::You => {
                let side = format!(" ({})", you.name());
                match your_turn(out, next_line, &position, &moves, &side, &mut announced) {
                    Typed::Again => {}
                    Typed::Quit => return Ok(()),
                    Typed::Hint => {
                        let hint = partizan_hint(&mut solver, &position, you)?;
                        // Where moving first is worth the most: the hottest pile (temperature
                        // theory's rule of thumb, which the winning move may overrule).
                        if let Some((_, n, t)) = &hint.hottest {
                            say(
                                out,
                                format!("the hottest pile is the pile of {n}: temperature {t}, so moving there first is worth the most\n"),
                            );
                        }
                        say(
                            out,
                            match hint.advice {
                                PartizanAdvice::Win(m) => format!(
                                    "hint: {}, to {}: from there {}, moving first, loses.\n",
                                    m.describe(),
                                    m.to.piles_text(),
                                    them.name()
                                ),
                                PartizanAdvice::Lost { play: Some(m), resists: true } => format!(
                                    "hint: no move wins here: whatever you play, {} moving first from there wins with best play. Make it hard: {}, to {}, leaves {} a winning move to find (from there whoever moves first wins).\n",
                                    them.name(),
                                    m.describe(),
                                    m.to.piles_text(),
                                    them.name()
                                ),
                                PartizanAdvice::Lost { play: None, .. } => "hint: no move is left.\n".into(),
                                PartizanAdvice::Lost { .. } => format!(
                                    "hint: no move wins here: whatever you play, {} wins from there, moving first or second.\n",
                                    them.name()
                                ),
                                PartizanAdvice::ByTemperature(m) => format!(
                                    "too large to search; by temperature: {}, to {} (the hottest pile's best move; advice, not a proof)\n",
                                    m.describe(),
                                    m.to.piles_text()
                                ),
                            },
                        );
                    }
                    Typed::Undo => {
                        if take_back(out, &mut history, &mut position, &mut your_moves, &mut announced)
                            && slip.as_ref().is_some_and(|s| s.0 > your_moves)
                        {
                            slip = None;
                        }
                        to_move = Player::You;
                    }
                    Typed::Move(line) => match pick(game, &moves, &line) {
                        Ok(m) => {
                            your_moves += 1;
                            // Where the outcomes are too large to search, no slip is looked for.
                            let (could_win, they_win_now) = match (solver.outcome(&position), solver.outcome(&m.to)) {
                                (Ok(a), Ok(b)) => (a.first_wins(you), b.first_wins(them)),
                                (Err(e), _) | (_, Err(e)) if e.kind() != FailureKind::Refused => return Err(e),
                                _ => (false, false),
                            };
                            if slip.is_none() && could_win && they_win_now {
                                if let Some(b) = solver.winning_moves(&position, you)?.first() {
                                    slip = Some((your_moves, position.clone(), m.describe(), b.describe()));
                                }
                            }
                            say(out, format!("you play {}, to {}\n", m.describe(), m.to.piles_text()));
                            history.push(Turn { before: position.clone(), mover: Player::You });
                            position = m.to.clone();
                            to_move = Player::Computer;
                        }
                        Err(why) => say(out, why),
                    },
                }
            }
        }
    }
}
