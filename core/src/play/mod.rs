//! A game against the computer as a state machine, for every kind of game the language says:
//! impartial under normal or misère play, games whose rules read the previous move, and
//! partizan games with the player as Left or Right. Turns, the computer's reply at its
//! strength, hints, slips, undo and the end are decided here once; a terminal, a notebook and a
//! web page drive the same machine and say what happens in their own way. Nothing here reads
//! input or writes text for a person.
//!
//! The computer plays perfectly (or, at a lower strength, sometimes at random): when winning
//! it hurries, when losing it delays, by remoteness.

mod judge;
mod pick;

use serde::Serialize;

use crate::rules::{Convention, Game, Move, Position};
use crate::solve::partizan::Heat;
use crate::solve::{Limits, SolveError};
use crate::vocab::Side;
use judge::{Best, Judge};
pub use pick::pick;

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
    pub(crate) fn other(self) -> Player {
        match self {
            Player::You => Player::Computer,
            Player::Computer => Player::You,
        }
    }

    /// `you` or `computer`, as answers write it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Player::You => "you",
            Player::Computer => "computer",
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
struct Random(u64);

impl Random {
    /// The next pseudo-random number; the same seed gives the same numbers.
    fn next_u64(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// What a position or a move means for a player with best play from there on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ForPlayer {
    /// The player wins.
    Win,
    /// The player loses.
    Lose,
    /// Neither can force a win (a loopy game).
    Draw,
    /// Too large to tell within the question's limits.
    Unknown,
}

impl ForPlayer {
    /// The same result seen by the other player.
    pub(crate) fn for_other(self) -> ForPlayer {
        match self {
            ForPlayer::Win => ForPlayer::Lose,
            ForPlayer::Lose => ForPlayer::Win,
            other => other,
        }
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

impl Kept {
    /// `win` or `draw`, as answers write it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kept::Win => "win",
            Kept::Draw => "draw",
        }
    }
}

/// One move made, for undo.
#[derive(Clone, Debug)]
struct Turn {
    before: Position,
    mover: Player,
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

/// What a hint advises.
#[derive(Clone, Debug)]
pub enum Advice {
    /// This move wins: it leaves the opponent, moving next, a loss (the quickest such move).
    Win(Move),
    /// No move wins, but this one keeps the draw.
    Draw(Move),
    /// Every move loses against best play. `play` is the move to make anyway (none when no
    /// move is left): in a partizan game one that `resists` where there is one, and among
    /// those the one that makes the game last longest.
    Lost {
        /// The move to make anyway.
        play: Option<Move>,
        /// Whether the opponent must still find a winning move after it: it leads where
        /// whoever moves first wins, so a slip there hands the win back (partizan games).
        resists: bool,
    },
    /// A partizan position too large to search: the hottest pile's best move (temperature
    /// theory's rule of thumb, advice and not a proof).
    ByTemperature(Move),
}

/// The hottest pile of a partizan sum: where moving first is worth the most.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hottest {
    /// Its index among the piles.
    pub index: usize,
    /// Its size.
    pub pile: u64,
    /// Its temperature, as a number or a fraction (`1/2`).
    pub temperature: String,
}

/// A hint: what to play, and in a partizan sum the hottest pile, where it could be searched.
#[derive(Clone, Debug)]
pub struct Hint {
    /// What to play.
    pub advice: Advice,
    /// The hottest pile, in a partizan sum of several piles.
    pub hottest: Option<Hottest>,
}

/// A game in progress between the player and the computer.
pub struct Play<'g> {
    game: &'g Game,
    judge: Judge<'g>,
    strength: Strength,
    random: Random,
    position: Position,
    to_move: Player,
    history: Vec<Turn>,
    slips: Vec<Slip>,
    your_moves: usize,
    by_temperature: bool,
}

impl<'g> Play<'g> {
    /// A game of `game` from `start`, `first` to move, the player as `side` in a partizan game
    /// (the computer is the other; an impartial game has no sides), the computer at
    /// `strength`, every question it asks the solver within `budget`.
    pub fn new(
        game: &'g Game,
        start: Position,
        first: Player,
        side: Side,
        strength: Strength,
        budget: &crate::solve::Budget,
    ) -> Self {
        Play::within(game, start, first, side, strength, budget.limits().clone())
    }

    /// As `new`, within the engine's limits.
    pub(crate) fn within(
        game: &'g Game,
        start: Position,
        first: Player,
        side: Side,
        strength: Strength,
        limits: Limits,
    ) -> Self {
        Play {
            game,
            judge: Judge::new(game, side, limits),
            strength,
            random: Random(strength.seed.max(1)),
            position: start,
            to_move: first,
            history: Vec::new(),
            slips: Vec::new(),
            your_moves: 0,
            by_temperature: false,
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

    /// In a partizan game, the side `player` plays; none in an impartial game.
    pub fn side(&self, player: Player) -> Option<Side> {
        self.judge.side(player)
    }

    /// The legal moves of the player to move.
    pub fn moves(&self) -> Result<Vec<Move>, SolveError> {
        self.judge.moves(&self.position, self.to_move)
    }

    /// Whether the game is over, and who won: the player to move has no move left, and has
    /// lost under normal play, won under misère play.
    pub fn status(&self) -> Result<Status, SolveError> {
        Ok(match self.winner_at(&self.position, self.to_move)? {
            Some(winner) => Status::Over { winner },
            None => Status::ToMove(self.to_move),
        })
    }

    /// Who has won at `position` with `mover` to move, once `mover` has no move left.
    fn winner_at(&self, position: &Position, mover: Player) -> Result<Option<Player>, SolveError> {
        if !self.judge.moves(position, mover)?.is_empty() {
            return Ok(None);
        }
        Ok(Some(if self.game.convention == Convention::Misere { mover } else { mover.other() }))
    }

    /// What `position` means for `mover`, who moves from it, with best play: over (a win or
    /// loss by the convention), or from the engine, `Unknown` where it is too large to tell.
    pub(crate) fn for_mover(&mut self, position: &Position, mover: Player) -> Result<ForPlayer, SolveError> {
        match self.winner_at(position, mover)? {
            Some(winner) if winner == mover => Ok(ForPlayer::Win),
            Some(_) => Ok(ForPlayer::Lose),
            None => self.judge.for_mover(position, mover),
        }
    }

    /// The moves left from `position` with best play, `mover` moving first, where the engine
    /// can count them.
    pub(crate) fn remoteness(&mut self, position: &Position, mover: Player) -> Result<Option<u64>, SolveError> {
        self.judge.remoteness(position, mover)
    }

    /// The position's value, written out: its Grundy value, or a partizan game's canonical
    /// form, where the engine can give it.
    pub(crate) fn value(&mut self, position: &Position) -> Result<Option<String>, SolveError> {
        self.judge.value(position)
    }

    /// A partizan position's mean and temperature, where the engine can give them.
    pub(crate) fn heat(&mut self, position: &Position) -> Result<Option<Heat>, SolveError> {
        self.judge.heat(position)
    }

    /// The position's outcome letter with best play: `P`, `N` or `D`, or for a partizan game
    /// `L`, `R`, `N` or `P`; none where it is too large to tell.
    pub(crate) fn outcome(&mut self) -> Result<Option<&'static str>, SolveError> {
        self.judge.outcome_letter(&self.position)
    }

    /// The first move where the player let a win (or a draw) go, among the moves not undone.
    pub fn slip(&self) -> Option<&Slip> {
        self.slips.first()
    }

    /// Whether the computer's last move was by temperature: the position was too large to
    /// search, and it played the hottest pile's best move.
    pub fn by_temperature(&self) -> bool {
        self.by_temperature
    }

    /// The player's move, which must be one of `moves()`; a slip is noted: a win let go (the
    /// computer is left a win or a draw), or a draw let go. Where either position is too large
    /// to tell, none is looked for.
    pub fn play(&mut self, m: &Move) -> Result<(), SolveError> {
        self.your_moves += 1;
        let was = self.for_mover(&self.position.clone(), Player::You)?;
        let now = self.for_mover(&m.to, Player::Computer)?;
        let kept = match (was, now) {
            (ForPlayer::Win, ForPlayer::Win | ForPlayer::Draw) => Some(Kept::Win),
            (ForPlayer::Draw, ForPlayer::Win) => Some(Kept::Draw),
            _ => None,
        };
        if let Some(kept) = kept {
            let better = match self.judge.best(&self.position, Player::You)? {
                Some(Best::Win(b)) if kept == Kept::Win => Some(b),
                Some(Best::Draw(b)) if kept == Kept::Draw => Some(b),
                _ => None,
            };
            if let Some(b) = better {
                self.slips.push(Slip {
                    number: self.your_moves,
                    from: self.position.clone(),
                    played: m.describe(),
                    better: b.describe(),
                    kept,
                });
            }
        }
        self.advance(m, Player::You);
        Ok(())
    }

    /// The computer chooses its move and makes it; `None` when it has no move (the game is
    /// over: a front end may ask in any state, and is told rather than failed). At its
    /// strength's rate the best move (`Best`), else any of its moves at random; the random
    /// draw comes first, so that a seed replays the same game whatever the position's size.
    pub fn computer_move(&mut self) -> Result<Option<Move>, SolveError> {
        let moves = self.judge.moves(&self.position, Player::Computer)?;
        if moves.is_empty() {
            return Ok(None);
        }
        let perfect = (self.random.next_u64() % 100) < u64::from(self.strength.percent);
        let best = if perfect { self.judge.best(&self.position, Player::Computer)? } else { None };
        self.by_temperature = matches!(best, Some(Best::ByTemperature(_)));
        let chosen = match best {
            Some(b) => b.into_move(),
            None => moves[(self.random.next_u64() % moves.len() as u64) as usize].clone(),
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

    /// What the player to move could play, and why: the computer's own choice at full
    /// strength, and in a partizan sum the hottest pile.
    pub fn hint(&mut self) -> Result<Hint, SolveError> {
        let position = self.position.clone();
        let advice = match self.judge.best(&position, self.to_move)? {
            Some(Best::Win(m)) => Advice::Win(m),
            Some(Best::Draw(m)) => Advice::Draw(m),
            Some(Best::Lost { play, resists }) => Advice::Lost { play: Some(play), resists },
            Some(Best::ByTemperature(m)) => return Ok(Hint { advice: Advice::ByTemperature(m), hottest: None }),
            None => Advice::Lost { play: None, resists: false },
        };
        Ok(Hint { advice, hottest: self.judge.hottest(&position)? })
    }

    /// True when `position` is a draw (for saying so when it comes round again).
    pub fn is_draw(&mut self, position: &Position) -> Result<bool, SolveError> {
        Ok(self.judge.for_mover(position, self.to_move)? == ForPlayer::Draw)
    }
}
