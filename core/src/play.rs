//! A game against the computer as a state machine: start, the legal moves, the player's move,
//! the computer's move, a hint, undo, and where the win slipped. A terminal, a notebook and a
//! web page drive the same machine and say what happens in their own way; nothing here reads
//! input or writes text for a person.
//!
//! The computer plays perfectly (or, at a lower strength, sometimes at random): when winning
//! it hurries, when losing it delays, by remoteness.

use serde::Serialize;

use crate::rules::{Convention, Game, Move, Position};
use crate::solve::partizan::{PartizanOutcome, PartizanSolver};
use crate::solve::{Limits, Outcome, SolveError, Solver};
use crate::vocab::{FailureKind, Side};

/// Who is to move in a game against the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Player {
    /// The person playing.
    You,
    /// The computer.
    Computer,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::You => Player::Computer,
            Player::Computer => Player::You,
        }
    }
}

/// How the computer chooses: the percentage of its moves that are perfect; the rest are random.
#[derive(Clone, Copy, Debug)]
pub struct Strength {
    /// How often the computer picks a best move, out of 100.
    pub percent: u8,
    /// The seed of its random choices.
    pub seed: u64,
}

/// A small deterministic generator, so that a game at a lower strength can be replayed.
#[derive(Clone, Debug)]
pub struct Random(pub u64);

impl Random {
    /// The next pseudo-random number; the same seed gives the same numbers.
    pub fn next_u64(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A move the player made from a winning position to a losing one (or from a draw to a loss).
#[derive(Clone, Debug, Serialize)]
pub struct Slip {
    /// The player's move number, from 1.
    pub number: usize,
    /// The position the move was made from.
    pub from: Position,
    /// The move made.
    pub played: String,
    /// A move that would have kept the win.
    pub better: String,
    /// What the better move keeps: a win, or a draw.
    pub kept: Kept,
}

/// What a slip threw away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Kept {
    /// A win.
    Win,
    /// A draw.
    Draw,
}

/// One move made, for undo.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The position before the move.
    pub before: Position,
    /// Who moved.
    pub mover: Player,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// `Player` is to move from the position.
    ToMove(Player),
    /// No move is left: the game is over.
    Over {
        /// Who won.
        winner: Player,
    },
}

/// What a hint says.
#[derive(Clone, Debug)]
pub enum Hint {
    /// This move leaves a P-position.
    Win(Move),
    /// No move wins, but this one keeps the draw.
    Draw(Move),
    /// A P-position: every move loses against best play; this move (none when no move is
    /// left) makes the game last longest, which is what the loser can still do.
    Lost(Option<Move>),
}

/// A game in progress between the player and the computer, on an impartial game.
pub struct Play<'g> {
    game: &'g Game,
    solver: Solver<'g>,
    strength: Strength,
    random: Random,
    position: Position,
    to_move: Player,
    history: Vec<Turn>,
    slips: Vec<Slip>,
    your_moves: usize,
    limit: usize,
}

impl<'g> Play<'g> {
    /// A game of `game` from `start`, `first` to move, the computer at `strength`, every
    /// question it asks the solver within `budget`.
    pub fn new(
        game: &'g Game,
        start: Position,
        first: Player,
        strength: Strength,
        budget: &crate::solve::Budget,
    ) -> Self {
        Play::within(game, start, first, strength, budget.limits().clone())
    }

    /// As `new`, within the engine's limits.
    pub(crate) fn within(game: &'g Game, start: Position, first: Player, strength: Strength, limits: Limits) -> Self {
        let limit = limits.max_states;
        Play {
            game,
            solver: Solver::within(game, limits),
            strength,
            random: Random(strength.seed.max(1)),
            position: start,
            to_move: first,
            history: Vec::new(),
            slips: Vec::new(),
            your_moves: 0,
            limit,
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Who is to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The legal moves from the position.
    pub fn moves(&self) -> Result<Vec<Move>, SolveError> {
        Ok(self.game.moves(&self.position, self.limit)?)
    }

    /// Whether the game is over, and who won.
    pub fn status(&self) -> Result<Status, SolveError> {
        if self.moves()?.is_empty() {
            // Under misère play whoever cannot move has won.
            let winner = if self.game.convention == Convention::Misere { self.to_move } else { self.to_move.other() };
            return Ok(Status::Over { winner });
        }
        Ok(Status::ToMove(self.to_move))
    }

    /// The position's outcome with best play (a draw only in loopy games).
    pub fn outcome(&mut self) -> Result<Outcome, SolveError> {
        self.solver.outcome(&self.position)
    }

    /// The first move where the player let a win (or a draw) go, among the moves not undone.
    pub fn slip(&self) -> Option<&Slip> {
        self.slips.first()
    }

    /// The player's move, which must be one of `moves()`; a slip is noted.
    pub fn play(&mut self, m: &Move) -> Result<(), SolveError> {
        self.your_moves += 1;
        let was = self.solver.outcome(&self.position)?;
        let now = self.solver.outcome(&m.to)?;
        // A slip: a win let go (the opponent is left a win or a draw), or a draw let go.
        if (was == Outcome::N && now != Outcome::P) || (was == Outcome::D && now == Outcome::N) {
            let better = match was {
                Outcome::N => self.solver.winning_moves(&self.position)?,
                _ => self.solver.drawing_moves(&self.position)?,
            };
            if let Some(b) = better.first() {
                self.slips.push(Slip {
                    number: self.your_moves,
                    from: self.position.clone(),
                    played: m.kind.describe(),
                    better: b.kind.describe(),
                    kept: if was == Outcome::N { Kept::Win } else { Kept::Draw },
                });
            }
        }
        self.advance(m, Player::You);
        Ok(())
    }

    /// The computer chooses its move and makes it; `None` when it has no move (the game is
    /// over: a front end may ask in any state, and is told rather than failed).
    pub fn computer_move(&mut self) -> Result<Option<Move>, SolveError> {
        let moves = self.moves()?;
        let Some(chosen) = choose(&mut self.solver, &moves, self.strength, &mut self.random)?.cloned() else {
            return Ok(None);
        };
        self.advance(&chosen, Player::Computer);
        Ok(Some(chosen))
    }

    fn advance(&mut self, m: &Move, mover: Player) {
        self.history.push(Turn { before: self.position.clone(), mover });
        self.position = m.to.clone();
        self.to_move = mover.other();
    }

    /// Back to the player's previous turn: the computer's moves since and the player's own
    /// taken back. False when the player has no move to take back.
    pub fn undo(&mut self) -> bool {
        let mut undone = false;
        while let Some(turn) = self.history.pop() {
            self.position = turn.before;
            if turn.mover == Player::You {
                undone = true;
                self.your_moves -= 1;
                break;
            }
        }
        self.to_move = Player::You;
        if undone {
            let kept = self.your_moves;
            self.slips.retain(|s| s.number <= kept);
        }
        undone
    }

    /// A move the person to move could make, and why.
    pub fn hint(&mut self) -> Result<Hint, SolveError> {
        let winning = self.solver.winning_moves(&self.position)?;
        if let Some(m) = winning.into_iter().next() {
            return Ok(Hint::Win(m));
        }
        if self.solver.outcome(&self.position)? == Outcome::D {
            if let Some(m) = self.solver.drawing_moves(&self.position)?.into_iter().next() {
                return Ok(Hint::Draw(m));
            }
        }
        let moves = self.moves()?;
        // The computer's own choice at full strength: when every move loses, the one that
        // delays longest (by remoteness).
        let delay = choose(&mut self.solver, &moves, Strength { percent: 100, seed: 0 }, &mut Random(0))?.cloned();
        Ok(Hint::Lost(delay))
    }

    /// True when `position` is a draw (for saying so when it comes round again).
    pub fn is_draw(&mut self, position: &Position) -> Result<bool, SolveError> {
        Ok(self.solver.outcome(position)? == Outcome::D)
    }
}

/// The computer's choice: perfect at its strength's rate, else at random. Perfect: move to a
/// P-position if there is one, hurrying; else keep a draw; else delay.
pub fn choose<'m>(
    solver: &mut Solver,
    moves: &'m [Move],
    strength: Strength,
    random: &mut Random,
) -> Result<Option<&'m Move>, SolveError> {
    if moves.is_empty() {
        return Ok(None);
    }
    if (random.next_u64() % 100) as u8 >= strength.percent {
        return Ok(moves.get((random.next_u64() % moves.len() as u64) as usize));
    }
    let rank = |o: Outcome| match o {
        Outcome::P => 0,
        Outcome::D => 1,
        Outcome::N => 2,
    };
    let mut best: Option<(&Move, u8, Option<u64>)> = None;
    for m in moves {
        let k = rank(solver.outcome(&m.to)?);
        let r = solver.remoteness(&m.to)?;
        let better = match best {
            None => true,
            Some((_, bk, br)) if k == bk => match k {
                // winning: the shortest; losing: the longest
                0 => matches!((r, br), (Some(r), Some(b)) if r < b),
                2 => matches!((r, br), (Some(r), Some(b)) if r > b),
                _ => false,
            },
            Some((_, bk, _)) => k < bk,
        };
        if better {
            best = Some((m, k, r));
        }
    }
    Ok(best.map(|b| b.0).or(moves.first()))
}

/// The computer's move as `side` of a partizan game: at its strength's rate a winning move
/// when it has one, else any of its moves at random. Where the position is too large to search,
/// the best move of its hottest pile (temperature theory's rule of thumb, not a proof); the flag
/// says so. `None` when `side` has no move.
pub fn choose_partizan(
    solver: &mut PartizanSolver,
    position: &Position,
    side: Side,
    strength: Strength,
    random: &mut Random,
) -> Result<Option<(Move, bool)>, SolveError> {
    let moves = solver.moves(position, side)?;
    if moves.is_empty() {
        return Ok(None);
    }
    // Drawn first, so that a seed replays the same game whatever the position's size.
    let perfect = (random.next_u64() % 100) < strength.percent as u64;
    let (best, by_temperature) = match winning_or_hot(solver, position, side)? {
        BestMoves::Winning(winning) => (winning.into_iter().next(), false),
        BestMoves::ByTemperature(m) => (Some(m), true),
    };
    Ok(Some(match (perfect, best) {
        (true, Some(m)) => (m, by_temperature),
        // No winning move, or a deliberate slip at a lower strength: any move.
        _ => (moves[(random.next_u64() % moves.len() as u64) as usize].clone(), false),
    }))
}

/// The moves that win for a side, or, where the position is too large to search, the hottest
/// pile's best move: what the computer's move and the hint both start from.
enum BestMoves {
    Winning(Vec<Move>),
    ByTemperature(Move),
}

/// `side`'s winning moves at `position`, or the move by temperature when the search is refused
/// (the refusal itself when there is no such move either).
fn winning_or_hot(solver: &mut PartizanSolver, position: &Position, side: Side) -> Result<BestMoves, SolveError> {
    match solver.winning_moves(position, side) {
        Ok(winning) => Ok(BestMoves::Winning(winning)),
        Err(e) if e.kind() == FailureKind::Refused => match solver.hot_move(position, side)? {
            Some(m) => Ok(BestMoves::ByTemperature(m)),
            None => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// What a partizan hint tells a side.
#[derive(Clone, Debug)]
pub enum PartizanAdvice {
    /// A winning move: from the position it leads to, the other side, moving first, loses.
    Win(Move),
    /// No move wins against best play.
    Lost {
        /// A move to play anyway, if there is one: where it can, one that `resists`.
        play: Option<Move>,
        /// Whether the opponent must still find a winning move after it: it leads where
        /// whoever moves first wins, so a slip there hands the win back.
        resists: bool,
    },
    /// The position is too large to search: the hottest pile's best move (temperature
    /// theory's rule of thumb, advice and not a proof).
    ByTemperature(Move),
}

/// A partizan hint: the advice, and where moving first is worth the most (the hottest pile's
/// index, size and temperature), where the position could be searched.
#[derive(Clone, Debug)]
pub struct PartizanHint {
    /// What to play.
    pub advice: PartizanAdvice,
    /// The hottest pile, as (index, size, temperature).
    pub hottest: Option<(usize, u64, String)>,
}

/// The hint for `side` at `position`, the same for the terminal's game and the one-step
/// `play` question.
pub fn partizan_hint(solver: &mut PartizanSolver, position: &Position, side: Side) -> Result<PartizanHint, SolveError> {
    let winning = match winning_or_hot(solver, position, side)? {
        BestMoves::Winning(winning) => winning,
        BestMoves::ByTemperature(m) => {
            return Ok(PartizanHint { advice: PartizanAdvice::ByTemperature(m), hottest: None })
        }
    };
    let advice = match winning.into_iter().next() {
        Some(m) => PartizanAdvice::Win(m),
        None => {
            let (play, resists) = resisting_move(solver, position, side)?;
            PartizanAdvice::Lost { play, resists }
        }
    };
    Ok(PartizanHint { advice, hottest: solver.hottest_pile(position)? })
}

/// `side`'s move where none wins: one to a position whoever moves first wins (outcome N), where
/// there is one, for there the opponent must still find a winning move, and a slip hands the
/// win back (true); else the first move (every move leads where the opponent wins whoever
/// starts).
fn resisting_move(
    solver: &mut PartizanSolver,
    position: &Position,
    side: Side,
) -> Result<(Option<Move>, bool), SolveError> {
    let moves = solver.moves(position, side)?;
    for m in &moves {
        match solver.outcome(&m.to) {
            Ok(PartizanOutcome::N) => return Ok((Some(m.clone()), true)),
            // A position too large to judge is passed over: the hint still names a move.
            Ok(_) => {}
            Err(e) if e.kind() == FailureKind::Refused => {}
            Err(e) => return Err(e),
        }
    }
    Ok((moves.into_iter().next(), false))
}

/// A move typed as its number in the list, as it is listed (`take 3`, `take 3 from the pile
/// of 5`: the start of one move's words is enough), or as `to` and the position it leads to
/// (several numbers are always a position: `3 7`). Words that fit several moves name them.
pub fn pick<'m>(game: &Game, moves: &'m [Move], line: &str) -> Result<&'m Move, String> {
    let not_a_move = || {
        format!(
            "`{line}` is not a move here: type the number of a move, the move as listed (take 3), or `to` and the position it leads to (to 3 7).\n"
        )
    };
    let target = match line.strip_prefix("to ") {
        Some(rest) => rest,
        None => {
            if let Ok(k) = line.parse::<usize>() {
                return (1..=moves.len()).contains(&k).then(|| &moves[k - 1]).ok_or_else(not_a_move);
            }
            let words = normalised(line);
            if words.chars().next().is_some_and(|c| c.is_alphabetic()) {
                let listed: Vec<(String, &Move)> = moves.iter().map(|m| (normalised(&m.kind.describe()), m)).collect();
                if let Some((_, m)) = listed.iter().find(|(d, _)| *d == words) {
                    return Ok(m);
                }
                let starting: Vec<&(String, &Move)> = listed
                    .iter()
                    .filter(|(d, _)| {
                        d.starts_with(&words) && matches!(d[words.len()..].chars().next(), Some(' ' | ','))
                    })
                    .collect();
                return match starting.as_slice() {
                    [] => Err(not_a_move()),
                    [(_, m)] => Ok(m),
                    several => {
                        let names: Vec<String> = several.iter().take(6).map(|(_, m)| m.kind.describe()).collect();
                        let more = if several.len() > 6 { ", …" } else { "" };
                        Err(format!(
                            "`{line}` fits {} moves ({}{more}): say which, or type its number.\n",
                            several.len(),
                            names.join("; ")
                        ))
                    }
                };
            }
            line
        }
    };
    let target = crate::rules::parse_position(game, target).map_err(|_| not_a_move())?;
    let wanted = game.canonical(&Position { last: None, ..target });
    moves.iter().find(|m| game.canonical(&Position { last: None, ..m.to.clone() }) == wanted).ok_or_else(not_a_move)
}

/// Lower case, single spaces, no full stop: how typed words are compared with a move's.
fn normalised(text: &str) -> String {
    text.trim().trim_end_matches('.').to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ")
}
