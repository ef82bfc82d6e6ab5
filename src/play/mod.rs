//! `play`: a game against the computer. The computer plays perfectly (or, at a lower strength,
//! sometimes at random): when winning it hurries, when losing it delays, by remoteness. The
//! player may ask for a `hint`, `undo` a move, list the `moves`, or `quit`. At the end it says who
//! won and, if the player lost from a winning position, the move where the win slipped.
//!
//! The loop reads lines from any reader, so a whole game can be scripted and tested.

use std::io::Write;

use takeaway_core::{Budget, Failure, Loaded, Move, PlayArgs, Position, Side};

mod partizan;
use takeaway_core::errors::SolveError;

use takeaway_core::{Hint, Kept, Play, Status};
pub use takeaway_core::{Player, Random, Strength, Turn};

/// `undo`: back to the player's previous turn, the computer's moves since and the player's own
/// taken back, said to the player. The position and the count of the player's moves follow;
/// true when a move of the player's was among those taken back.
pub(crate) fn take_back(
    out: &mut dyn Write,
    history: &mut Vec<Turn>,
    position: &mut Position,
    your_moves: &mut usize,
    announced: &mut Option<Position>,
) -> bool {
    let mut undone = false;
    while let Some(turn) = history.pop() {
        *position = turn.before;
        if turn.mover == Player::You {
            undone = true;
            *your_moves -= 1;
            break;
        }
    }
    *announced = None;
    say(out, if undone { "Your last move is taken back.\n" } else { "Nothing to undo.\n" }.into());
    undone
}

/// How a move is typed, as the start of a game says it.
const HOW_TO_MOVE: &str =
    "Type a move's number, the move as listed (take 3), or `to` and the position it leads to; also moves, hint, undo, quit.\n";

/// Writes to the player at once (a prompt may follow).
pub(crate) fn say(out: &mut dyn Write, text: String) {
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// What the player typed at their turn, once the commands every game shares are handled.
pub(crate) enum Typed {
    /// nothing to act on (an empty line, or `moves`, answered): ask again
    Again,
    /// `quit`, or the input ended: the game is left unfinished (already said)
    Quit,
    Hint,
    Undo,
    /// anything else: a move to pick from the list
    Move(String),
}

/// The player's turn: the position announced once (with its moves when they are few; `side`
/// names the player in a partizan game), then a line read and the shared commands handled.
pub(crate) fn your_turn(
    out: &mut dyn Write,
    next_line: &mut dyn FnMut() -> Option<String>,
    position: &Position,
    moves: &[Move],
    side: &str,
    announced: &mut Option<Position>,
) -> Typed {
    if announced.as_ref() != Some(position) {
        say(out, format!("position {}: your move{side}\n", position.piles_text()));
        if moves.len() <= 12 {
            say(out, moves_list(moves));
        }
        *announced = Some(position.clone());
    }
    let Some(line) = next_line() else {
        say(out, "Game left unfinished.\n".into());
        return Typed::Quit;
    };
    match line.trim() {
        "" => Typed::Again,
        "quit" | "q" | ":quit" => {
            say(out, "Game left unfinished.\n".into());
            Typed::Quit
        }
        "moves" => {
            say(out, moves_list(moves));
            Typed::Again
        }
        "hint" => Typed::Hint,
        "undo" => Typed::Undo,
        typed => Typed::Move(typed.to_string()),
    }
}

/// A whole game in the terminal: the game, where it starts, who moves first, the player's side
/// (in a partizan game), the computer's strength and the budget of its questions.
#[derive(Clone, Debug)]
pub struct PlayRequest {
    pub loaded: Loaded,
    pub start: Position,
    pub first: Player,
    pub side: Side,
    pub strength: Strength,
    pub budget: Budget,
}

impl PlayRequest {
    /// The game `args` (the request schema's `play`) asks for, from its position.
    pub fn new(loaded: Loaded, args: &PlayArgs, budget: &Budget) -> Result<PlayRequest, Failure> {
        let start = takeaway_core::position_of(&loaded, &args.position.0, args.last)?;
        Ok(PlayRequest {
            loaded,
            start,
            first: if args.computer { Player::Computer } else { Player::You },
            side: args.side,
            strength: Strength { percent: args.strength, seed: args.seed },
            budget: budget.clone(),
        })
    }
}

/// Plays one game from `start`, reading the player's lines from `next_line` (`None` ends the
/// game), over the engine's state machine. Fails only when solving itself fails.
pub fn play(
    request: &PlayRequest,
    next_line: &mut dyn FnMut() -> Option<String>,
    out: &mut dyn Write,
) -> Result<(), SolveError> {
    let game = &request.loaded.game;
    if game.is_partizan() {
        return partizan::play(request, next_line, out);
    }
    let mut play = Play::new(game, request.start.clone(), request.first, request.strength, &request.budget);
    // The position last announced to the player, so that commands do not repeat it.
    let mut announced: Option<Position> = None;
    // Positions met in this game, so that a drawn game that comes round is pointed out once.
    let mut met: std::collections::HashSet<Position> = std::collections::HashSet::new();
    let mut told_circle = false;
    say(out, format!("{}: you play against the computer. {HOW_TO_MOVE}", game.name));
    loop {
        let position = play.position().clone();
        if !met.insert(game.canonical(&position)) && !told_circle && play.is_draw(&position)? {
            told_circle = true;
            say(
                out,
                format!(
                    "position {} has come back: it is a draw, and with best play the game goes round for ever. Type quit to stop.\n",
                    position.piles_text()
                ),
            );
        }
        match play.status()? {
            Status::Over { winner } => {
                say(out, format!("position {}: no move is left.\n", position.piles_text()));
                match winner {
                    Player::You => say(out, "You win!\n".into()),
                    Player::Computer => {
                        say(out, "The computer wins.\n".into());
                        if let Some(s) = play.slip() {
                            let (what, would_have) = match s.kept {
                                Kept::Win => ("win", "won"),
                                Kept::Draw => ("draw", "kept the draw"),
                            };
                            say(
                                out,
                                format!(
                                    "The {what} slipped at your move {}: from {} you played {}, but {} would have {would_have}.\n",
                                    s.number,
                                    s.from.piles_text(),
                                    s.played,
                                    s.better,
                                ),
                            );
                        }
                    }
                }
                return Ok(());
            }
            Status::ToMove(Player::Computer) => {
                // The status said the computer is to move, so it has a move; if not, the next
                // status says the game is over.
                let Some(chosen) = play.computer_move()? else { continue };
                say(
                    out,
                    format!(
                        "position {}: the computer plays {}, to {}\n",
                        position.piles_text(),
                        chosen.describe(),
                        chosen.to.piles_text()
                    ),
                );
            }
            Status::ToMove(Player::You) => {
                let moves = play.moves()?;
                match your_turn(out, next_line, &position, &moves, "", &mut announced) {
                    Typed::Again => {}
                    Typed::Quit => return Ok(()),
                    Typed::Hint => say(out, hint_text(play.hint()?)),
                    Typed::Undo => {
                        let undone = play.undo();
                        announced = None;
                        say(out, if undone { "Your last move is taken back.\n" } else { "Nothing to undo.\n" }.into());
                    }
                    Typed::Move(line) => match takeaway_core::pick(game, &moves, &line) {
                        Ok(m) => {
                            play.play(m)?;
                            say(out, format!("you play {}, to {}\n", m.describe(), m.to.piles_text()));
                        }
                        Err(why) => say(out, why),
                    },
                }
            }
        }
    }
}

pub(crate) fn moves_list(moves: &[Move]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("  {}) {}, to {}\n", i + 1, m.describe(), m.to.piles_text()))
        .collect()
}

fn hint_text(hint: Hint) -> String {
    match hint {
        Hint::Win(m) => format!(
            "hint: {}, to {}: it leaves a P-position, from which every move your opponent makes can be answered.\n",
            m.describe(),
            m.to.piles_text()
        ),
        Hint::Draw(m) => format!(
            "hint: no move wins here, but {}, to {}, keeps the draw: your opponent cannot win from there either.\n",
            m.describe(),
            m.to.piles_text()
        ),
        Hint::Lost(Some(m)) => format!(
            "hint: this is a P-position: every move leaves your opponent a winning position. Make the game last: {}, to {}, keeps it going longest.\n",
            m.describe(),
            m.to.piles_text()
        ),
        Hint::Lost(None) => "hint: this is a P-position, and no move is left.\n".into(),
    }
}

// How a game against the computer is played, on the command line and in the REPL alike (a plain
// comment: see `verbs::Verb`). Left out, each takes the engine's default.
#[derive(clap::Args, Debug)]
pub struct PlayOptions {
    /// who moves first [default: you]
    #[arg(long, value_enum)]
    first: Option<First>,
    #[arg(long, help = format!(
        "the percentage of the computer's moves that are perfect (the rest are random) [default: {}]",
        takeaway_core::defaults::STRENGTH
    ))]
    strength: Option<u8>,
    #[arg(long, help = format!(
        "seed for the computer's random moves at a strength below 100 [default: {}]",
        takeaway_core::defaults::SEED
    ))]
    seed: Option<u64>,
    /// in a partizan game, the player you are (the computer is the other) [default: left]
    #[arg(long, value_enum)]
    side: Option<SideArg>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SideArg {
    Left,
    Right,
}

impl PlayOptions {
    /// The options given, as the request schema's arguments of `play`.
    pub fn arguments(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut out = serde_json::Map::new();
        if self.first == Some(First::Computer) {
            out.insert("computer".into(), true.into());
        }
        if let Some(s) = self.strength {
            out.insert("strength".into(), s.into());
        }
        if let Some(s) = self.seed {
            out.insert("seed".into(), s.into());
        }
        if let Some(side) = self.side {
            out.insert("side".into(), if side == SideArg::Left { "left" } else { "right" }.into());
        }
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum First {
    You,
    Computer,
}

impl First {
    pub fn player(self) -> Player {
        match self {
            First::You => Player::You,
            First::Computer => Player::Computer,
        }
    }
}
