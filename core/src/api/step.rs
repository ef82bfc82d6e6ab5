//! `play` as a question: one step of a game against the computer, with no state kept between
//! steps. The front end sends the position (and the player's move, or asks for the computer's
//! move or a hint); the answer says what was played and where the game stands, with the
//! player's moves to choose from, each move and each position passed through marked with what
//! it means for the player (a win, a loss or a draw with best play), its remoteness and its
//! value. A terminal's game is a conversation over the same machine (`Play`); a web page or a
//! program asks step by step. Partizan games are played as `side` (`step_partizan`).

use serde::Serialize;

use super::request::PlayArgs;
use super::{position_of, Failure, Loaded, RequestError};
pub use crate::play::ForPlayer;
use crate::play::{Advice, Hint, Play, Player, Status, Strength};
use crate::rules::{Move, Position};
use crate::solve::{Limits, SolveError};
use crate::vocab::Side;

/// The most moves a step lists for the player to choose from.
pub(super) const MOST_LISTED_MOVES: usize = 2_000;

/// A move, as a step lists it: in words, the position it leads to, and what it means for the
/// one who makes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepMove {
    /// The move in words (`take 3 from the pile of 7`).
    #[serde(rename = "move")]
    pub words: String,
    /// The piles after it.
    pub to: Vec<u64>,
    /// The move's size, for games whose rules read the previous move (`last`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<u64>,
    /// What the move means for the one who makes it, with best play after it.
    pub result: ForPlayer,
    /// Moves left after it with best play (the winner hurrying, the loser delaying), where
    /// the engine can count them.
    pub remoteness: Option<u64>,
    /// The value of the position it leads to: its Grundy value, or a partizan game's
    /// canonical form.
    pub value: Option<String>,
}

/// A position the step passed through, as the value history shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepPosition {
    /// The piles.
    pub position: Vec<u64>,
    /// The previous move's size, for games whose rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<u64>,
    /// Who moves from it: `you` or `computer` (none once the game is over).
    pub to_move: Option<&'static str>,
    /// What it means for the player, with best play.
    pub for_you: ForPlayer,
    /// Moves left with best play, where the engine can count them.
    pub remoteness: Option<u64>,
    /// Its Grundy value, or a partizan game's canonical form.
    pub value: Option<String>,
    /// A partizan position's mean value (where its thermograph's mast stands).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<String>,
    /// A partizan position's temperature (what moving first is worth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<String>,
}

/// The player's move of a step, and whether it let a win (or a draw) go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerMove {
    /// The move in words.
    #[serde(rename = "move")]
    pub words: String,
    /// The piles after it.
    pub to: Vec<u64>,
    /// Where it let a win or a draw go: what was played, what was better, and what that kept.
    pub slip: Option<StepSlip>,
}

/// A move that let a win (or a draw) go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepSlip {
    /// The move played.
    pub played: String,
    /// A move that kept the win (or the draw).
    pub better: String,
    /// `win` or `draw`.
    pub kept: &'static str,
}

/// What a hint says: the move that wins (`win`) or keeps the draw (`draw`), that every move
/// loses (`lost`), or, for a partizan position too large to search, the hottest pile's best
/// move (`temperature`: advice, not a proof).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepHint {
    /// `win`, `draw`, `lost` or `temperature`.
    pub kind: &'static str,
    /// The move, in words: for `lost`, the one that makes the game last longest (impartial
    /// games; a partizan game's first move), none when no move is left.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub words: Option<String>,
    /// The piles after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Vec<u64>>,
    /// A partizan position's hottest pile, where moving first is worth the most (where the
    /// position could be searched).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hottest: Option<StepHottest>,
}

/// The hottest pile of a partizan position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepHottest {
    /// Its size.
    pub pile: u64,
    /// Its temperature, as a number or a fraction (`3/2`).
    pub temperature: String,
}

/// One step of a game against the computer, and where the game stands after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayStep {
    /// The game's name.
    pub game: String,
    /// In a partizan game, the player's side (`Left` or `Right`); the computer is the other.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
    /// The hint asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<StepHint>,
    /// The player's move, when one was made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<PlayerMove>,
    /// The computer's move, when it made one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<StepMove>,
    /// The position after the step.
    pub position: Vec<u64>,
    /// The previous move's size after the step, for games whose rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<u64>,
    /// Whether the game is over (no move is left).
    pub over: bool,
    /// Who won, once it is over: `you` or `computer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// Who moves next, while it goes on: `you` or `computer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_move: Option<&'static str>,
    /// The position's outcome with best play, while it goes on: `P`, `N` or `D`; for a
    /// partizan game `L`, `R`, `N` or `P`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    /// The moves from the position (none once it is over).
    pub moves: Vec<StepMove>,
    /// The positions of the step in order: where it started, and after each move made.
    pub positions: Vec<StepPosition>,
}

impl PlayStep {
    fn new(game: &str) -> PlayStep {
        PlayStep {
            game: game.to_string(),
            side: None,
            hint: None,
            you: None,
            computer: None,
            position: Vec::new(),
            last: None,
            over: false,
            winner: None,
            to_move: None,
            outcome: None,
            moves: Vec::new(),
            positions: Vec::new(),
        }
    }
}

/// The listed moves, refused past `MOST_LISTED_MOVES`.
fn listable(moves: Vec<Move>) -> Result<Vec<Move>, Failure> {
    if moves.len() > MOST_LISTED_MOVES {
        let error = RequestError::TooManyMoves { count: moves.len(), most: MOST_LISTED_MOVES };
        return Err(Failure::one(error, None));
    }
    Ok(moves)
}

/// The move of `moves` that leads to `to` however it is written (`0 1` and `1` among any number
/// of piles); a request error when none does.
fn chosen_move(loaded: &Loaded, args: &PlayArgs, moves: &[Move]) -> Result<Option<Move>, Failure> {
    let Some(to) = &args.to else { return Ok(None) };
    let target = position_of(loaded, &to.0, None)?;
    let game = &loaded.game;
    let wanted = game.canonical(&Position { last: None, ..target });
    let same = |m: &&Move| game.canonical(&Position { last: None, ..m.to.clone() }) == wanted;
    match moves.iter().find(same) {
        Some(m) => Ok(Some(m.clone())),
        None => Err(Failure::one(RequestError::NotAMove { from: args.position.0.clone(), to: to.0.clone() }, None)),
    }
}

/// One step of `play`, for every kind of game: the engine's `Play` makes the moves, and the
/// step writes down what they mean.
pub(super) fn step(loaded: &Loaded, args: &PlayArgs, limits: &Limits) -> Result<PlayStep, Failure> {
    let start = position_of(loaded, &args.position.0, args.last)?;
    let engine = |e: SolveError| Failure::one(e, Some(&loaded.source));
    // The computer moves first only when no move of the player's is given.
    let first = if args.computer && args.to.is_none() { Player::Computer } else { Player::You };
    let strength = Strength { percent: args.strength, seed: args.seed };
    let mut play = Play::within(&loaded.game, start, first, args.side, strength, limits.clone());
    let mut out = PlayStep::new(&loaded.game.name);
    out.side = play.side(Player::You).map(Side::name);
    out.positions.push(figures(&mut play).map_err(engine)?);
    if args.hint {
        out.hint = Some(step_hint(play.hint().map_err(engine)?));
    } else if let Some(chosen) = chosen_move(loaded, args, &play.moves().map_err(engine)?)? {
        play.play(&chosen).map_err(engine)?;
        let slip =
            play.slip().map(|s| StepSlip { played: s.played.clone(), better: s.better.clone(), kept: s.kept.name() });
        out.you = Some(PlayerMove { words: chosen.describe(), to: chosen.to.piles.clone(), slip });
        out.positions.push(figures(&mut play).map_err(engine)?);
        computer_move(&mut play, &mut out).map_err(engine)?;
    } else if args.computer {
        computer_move(&mut play, &mut out).map_err(engine)?;
    }
    out.position = play.position().piles.clone();
    out.last = play.position().last;
    match play.status().map_err(engine)? {
        Status::Over { winner } => {
            out.over = true;
            out.winner = Some(winner.name());
        }
        Status::ToMove(player) => {
            out.to_move = Some(player.name());
            out.outcome = play.outcome().map_err(engine)?;
            let moves = listable(play.moves().map_err(engine)?)?;
            // The moves' remoteness comes from the position's own count, which reaches them
            // all; where it is out of reach, so are theirs, and none is asked.
            let here = play.position().clone();
            let counted = play.remoteness(&here, player).map_err(engine)?.is_some();
            out.moves = moves
                .iter()
                .map(|m| listed(&mut play, m, player, counted))
                .collect::<Result<_, _>>()
                .map_err(engine)?;
        }
    }
    Ok(out)
}

/// A hint as a step writes it.
fn step_hint(hint: Hint) -> StepHint {
    let (kind, m) = match hint.advice {
        Advice::Win(m) => ("win", Some(m)),
        Advice::Draw(m) => ("draw", Some(m)),
        Advice::Lost { play, .. } => ("lost", play),
        Advice::ByTemperature(m) => ("temperature", Some(m)),
    };
    let hottest = hint.hottest.map(|h| StepHottest { pile: h.pile, temperature: h.temperature });
    StepHint { kind, words: m.as_ref().map(Move::describe), to: m.map(|m| m.to.piles), hottest }
}

/// The computer's move, made, as a listed move, with the position it leads to added to the
/// step's history; none when the computer is not to move.
fn computer_move(play: &mut Play, out: &mut PlayStep) -> Result<(), SolveError> {
    if play.status()? != Status::ToMove(Player::Computer) {
        return Ok(());
    }
    if let Some(m) = play.computer_move()? {
        out.computer = Some(listed(play, &m, Player::Computer, true)?);
        out.positions.push(figures(play)?);
    }
    Ok(())
}

/// A move of `mover` with what it means for `mover`: the opponent moves from where it leads.
/// Its remoteness is asked only where `counted`.
fn listed(play: &mut Play, m: &Move, mover: Player, counted: bool) -> Result<StepMove, SolveError> {
    let opponent = mover.other();
    Ok(StepMove {
        words: m.describe(),
        to: m.to.piles.clone(),
        last: m.to.last,
        result: play.for_mover(&m.to, opponent)?.for_other(),
        remoteness: if counted { play.remoteness(&m.to, opponent)? } else { None },
        value: play.value(&m.to)?,
    })
}

/// The position now, as the value history shows it, seen by the player.
fn figures(play: &mut Play) -> Result<StepPosition, SolveError> {
    let p = play.position().clone();
    let mover = play.to_move();
    let over = matches!(play.status()?, Status::Over { .. });
    let for_mover = play.for_mover(&p, mover)?;
    let heat = play.heat(&p)?;
    Ok(StepPosition {
        position: p.piles.clone(),
        last: p.last,
        to_move: (!over).then_some(mover.name()),
        for_you: if mover == Player::You { for_mover } else { for_mover.for_other() },
        remoteness: play.remoteness(&p, mover)?,
        value: play.value(&p)?,
        mean: heat.as_ref().map(|h| h.mean.clone()),
        temperature: heat.map(|h| h.temperature),
    })
}

impl PlayStep {
    /// The step as a terminal prints it.
    pub(crate) fn to_text(&self) -> String {
        let piles = |p: &[u64]| p.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let mut out = String::new();
        if let Some(h) = &self.hint {
            match (&h.words, &h.to) {
                (Some(m), Some(to)) if h.kind == "win" => {
                    out.push_str(&format!("hint: {m}, to {}: it leaves a P-position\n", piles(to)))
                }
                (Some(m), Some(to)) if h.kind == "draw" => {
                    out.push_str(&format!("hint: {m}, to {}: it keeps the draw\n", piles(to)))
                }
                (Some(m), Some(to)) => out.push_str(&format!(
                    "hint: every move loses against best play here; {m}, to {}, keeps the game going longest\n",
                    piles(to)
                )),
                _ => out.push_str("hint: every move loses against best play here\n"),
            }
        }
        if let Some(y) = &self.you {
            out.push_str(&format!("you play {}, to {}\n", y.words, piles(&y.to)));
            if let Some(s) = &y.slip {
                out.push_str(&format!("that let the {} go: {} would have kept it\n", s.kept, s.better));
            }
        }
        if let Some(c) = &self.computer {
            out.push_str(&format!("the computer plays {}, to {}\n", c.words, piles(&c.to)));
        }
        let side = self.side.map(|s| format!(" ({s})")).unwrap_or_default();
        match (self.winner, self.to_move) {
            (Some(w), _) => {
                let who = if w == "you" { "you win" } else { "the computer wins" };
                out.push_str(&format!("position {}: no move is left, {who}\n", piles(&self.position)));
            }
            (_, Some(t)) => {
                let who = if t == "you" { format!("your move{side}") } else { "the computer's move".to_string() };
                let outcome = self.outcome.map(|o| format!(" ({o})")).unwrap_or_default();
                out.push_str(&format!("position {}: {who}{outcome}\n", piles(&self.position)));
                for (i, m) in self.moves.iter().enumerate() {
                    let result = match m.result {
                        ForPlayer::Win => "wins",
                        ForPlayer::Lose => "loses",
                        ForPlayer::Draw => "draws",
                        ForPlayer::Unknown => "not known",
                    };
                    let remoteness = m.remoteness.map(|r| format!(" in {r}")).unwrap_or_default();
                    out.push_str(&format!("  {}. {}, to {} ({result}{remoteness})\n", i + 1, m.words, piles(&m.to)));
                }
            }
            _ => {}
        }
        out
    }
}
