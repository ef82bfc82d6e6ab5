//! `play` as a question: one step of a game against the computer, with no state kept between
//! steps. The front end sends the position (and the player's move, or asks for the computer's
//! move or a hint); the answer says what was played and where the game stands, with the
//! player's moves to choose from. A terminal's game is a conversation over the same machine
//! (`Play`); a web page or a program asks step by step.

use serde::Serialize;

use super::request::PlayArgs;
use super::{position_of, Failure, Loaded, RequestError};
use crate::play::{Hint, Kept, Play, Player, Status, Strength};
use crate::rules::{Move, Position};
use crate::solve::{Limits, Outcome, SolveError};

/// The most moves a step lists for the player to choose from.
pub const MOST_LISTED_MOVES: usize = 2_000;

/// A move, as a step lists it: in words, and the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepMove {
    /// The move in words (`take 3 from the pile of 7`).
    #[serde(rename = "move")]
    pub words: String,
    /// The piles after it.
    pub to: Vec<u64>,
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

/// What a hint says: the move that wins (`win`) or keeps the draw (`draw`), or that every
/// move loses (`lost`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepHint {
    /// `win`, `draw` or `lost`.
    pub kind: &'static str,
    /// The move, in words: for `lost`, the one that makes the game last longest (none when no
    /// move is left).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub words: Option<String>,
    /// The piles after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Vec<u64>>,
}

/// One step of a game against the computer, and where the game stands after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayStep {
    /// The game's name.
    pub game: String,
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
    /// Whether the game is over (no move is left).
    pub over: bool,
    /// Who won, once it is over: `you` or `computer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// Who moves next, while it goes on: `you` or `computer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_move: Option<&'static str>,
    /// The position's outcome with best play, while it goes on: `P`, `N` or `D`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The moves from the position (none once it is over).
    pub moves: Vec<StepMove>,
}

/// One step of `play`.
pub(super) fn step(loaded: &Loaded, args: &PlayArgs, limits: &Limits) -> Result<PlayStep, Failure> {
    super::refuse_partizan(
        loaded,
        "play",
        "the page plays impartial games; `takeaway play FILE` in a terminal plays a partizan game as Left or Right",
    )?;
    let start = position_of(loaded, &args.position.0, args.last)?;
    let engine = |e: SolveError| Failure::one(e, Some(&loaded.source));
    let first = if args.computer { Player::Computer } else { Player::You };
    let strength = Strength { percent: args.strength, seed: args.seed };
    let mut play = Play::within(&loaded.game, start, first, strength, limits.clone());
    let mut out = PlayStep {
        game: loaded.game.name.clone(),
        hint: None,
        you: None,
        computer: None,
        position: Vec::new(),
        over: false,
        winner: None,
        to_move: None,
        outcome: None,
        moves: Vec::new(),
    };
    if args.hint {
        out.hint = Some(match play.hint().map_err(engine)? {
            Hint::Win(m) => StepHint { kind: "win", words: Some(m.kind.describe()), to: Some(m.to.piles) },
            Hint::Draw(m) => StepHint { kind: "draw", words: Some(m.kind.describe()), to: Some(m.to.piles) },
            Hint::Lost(m) => {
                StepHint { kind: "lost", words: m.as_ref().map(|m| m.kind.describe()), to: m.map(|m| m.to.piles) }
            }
        });
    } else if let Some(to) = &args.to {
        let target = position_of(loaded, &to.0, None)?;
        let moves = play.moves().map_err(engine)?;
        // The same position however it is written: `0 1` and `1` among any number of piles.
        let game = &loaded.game;
        let wanted = game.canonical(&Position { last: None, ..target.clone() });
        let same = |m: &&Move| game.canonical(&Position { last: None, ..m.to.clone() }) == wanted;
        let Some(chosen) = moves.iter().find(same).cloned() else {
            let error = RequestError::NotAMove { from: args.position.0.clone(), to: to.0.clone() };
            return Err(Failure::one(error, None));
        };
        play.play(&chosen).map_err(engine)?;
        let slip = play.slip().map(|s| StepSlip {
            played: s.played.clone(),
            better: s.better.clone(),
            kept: match s.kept {
                Kept::Win => "win",
                Kept::Draw => "draw",
            },
        });
        out.you = Some(PlayerMove { words: chosen.kind.describe(), to: chosen.to.piles.clone(), slip });
        if !matches!(play.status().map_err(engine)?, Status::Over { .. }) {
            out.computer = play.computer_move().map_err(engine)?.map(|m| listed(&m));
        }
    } else if args.computer {
        out.computer = play.computer_move().map_err(engine)?.map(|m| listed(&m));
    }
    out.position = play.position().piles.clone();
    match play.status().map_err(engine)? {
        Status::Over { winner } => {
            out.over = true;
            out.winner = Some(name(winner));
        }
        Status::ToMove(player) => {
            out.to_move = Some(name(player));
            out.outcome = Some(play.outcome().map_err(engine)?);
            let moves = play.moves().map_err(engine)?;
            if moves.len() > MOST_LISTED_MOVES {
                let error = RequestError::TooManyMoves { count: moves.len(), most: MOST_LISTED_MOVES };
                return Err(Failure::one(error, None));
            }
            out.moves = moves.iter().map(listed).collect();
        }
    }
    Ok(out)
}

fn listed(m: &Move) -> StepMove {
    StepMove { words: m.kind.describe(), to: m.to.piles.clone() }
}

fn name(p: Player) -> &'static str {
    match p {
        Player::You => "you",
        Player::Computer => "computer",
    }
}

impl PlayStep {
    /// The step as a terminal prints it.
    pub fn to_text(&self) -> String {
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
        match (self.winner, self.to_move) {
            (Some(w), _) => {
                let who = if w == "you" { "you win" } else { "the computer wins" };
                out.push_str(&format!("position {}: no move is left, {who}\n", piles(&self.position)));
            }
            (_, Some(t)) => {
                let who = if t == "you" { "your move" } else { "the computer's move" };
                let outcome = self.outcome.map(|o| format!(" ({})", o.letter())).unwrap_or_default();
                out.push_str(&format!("position {}: {who}{outcome}\n", piles(&self.position)));
                for (i, m) in self.moves.iter().enumerate() {
                    out.push_str(&format!("  {}. {}, to {}\n", i + 1, m.words, piles(&m.to)));
                }
            }
            _ => {}
        }
        out
    }
}
