//! `play`: a game against the computer. The computer plays perfectly (or, at a lower strength,
//! sometimes at random): when winning it hurries, when losing it delays, by remoteness. The
//! player may ask for a `hint`, `undo` a move, list the `moves`, or `quit`. At the end it says who
//! won and, if the player lost from a winning position, the move where the win slipped.
//!
//! The loop reads lines from any reader, so a whole game can be scripted and tested.

use std::io::Write;

use takeaway_core::errors::SolveError;
use takeaway_core::{
    Advice, Budget, Failure, Hint, Kept, Loaded, Move, Play, PlayArgs, Player, Position, Side, Status, Strength,
};

/// How a move is typed, as the start of a game says it.
const HOW_TO_MOVE: &str =
    "Type a move's number, the move as listed (take 3), or `to` and the position it leads to; also moves, hint, undo, quit.\n";

/// Writes to the player at once (a prompt may follow).
fn say(out: &mut dyn Write, text: String) {
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// What the player typed at their turn, once the commands every game shares are handled.
enum Typed {
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
fn your_turn(
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

/// The names the terminal gives the players: in a partizan game their sides.
struct Names {
    /// ` (Left)` after "your move", or nothing.
    you: String,
    /// ` (Right)` after "the computer", or nothing.
    computer: String,
    /// The computer's side, for hints: `Right`, or `your opponent`.
    them: String,
}

/// Plays one game from `start`, reading the player's lines from `next_line` (`None` ends the
/// game), over the engine's state machine, for every kind of game. Fails only when solving
/// itself fails.
pub fn play(
    request: &PlayRequest,
    next_line: &mut dyn FnMut() -> Option<String>,
    out: &mut dyn Write,
) -> Result<(), SolveError> {
    let game = &request.loaded.game;
    let mut play =
        Play::new(game, request.start.clone(), request.first, request.side, request.strength, &request.budget);
    let sides = play.side(Player::You).zip(play.side(Player::Computer));
    let names = match sides {
        Some((you, them)) => Names {
            you: format!(" ({})", you.name()),
            computer: format!(" ({})", them.name()),
            them: them.name().to_string(),
        },
        None => Names { you: String::new(), computer: String::new(), them: "your opponent".into() },
    };
    match sides {
        Some((you, them)) => {
            say(out, format!("{}: you are {}, the computer is {}. {HOW_TO_MOVE}", game.name, you.name(), them.name()))
        }
        None => say(out, format!("{}: you play against the computer. {HOW_TO_MOVE}", game.name)),
    }
    // The position last announced to the player, so that commands do not repeat it.
    let mut announced: Option<Position> = None;
    // Positions met in this game, so that a drawn game that comes round is pointed out once.
    let mut met: std::collections::HashSet<Position> = std::collections::HashSet::new();
    let mut told_circle = false;
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
                match play.side(play.to_move()) {
                    Some(side) => {
                        say(out, format!("position {}: {} has no move left.\n", position.piles_text(), side.name()))
                    }
                    None => say(out, format!("position {}: no move is left.\n", position.piles_text())),
                }
                match winner {
                    Player::You => say(out, format!("You{} win!\n", names.you)),
                    Player::Computer => {
                        say(out, format!("The computer{} wins.\n", names.computer));
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
                if play.by_temperature() {
                    say(out, "(too large to search: the computer moves in the hottest pile)\n".to_string());
                }
                say(
                    out,
                    format!(
                        "position {}: the computer{} plays {}, to {}\n",
                        position.piles_text(),
                        names.computer,
                        chosen.describe(),
                        chosen.to.piles_text()
                    ),
                );
            }
            Status::ToMove(Player::You) => {
                let moves = play.moves()?;
                match your_turn(out, next_line, &position, &moves, &names.you, &mut announced) {
                    Typed::Again => {}
                    Typed::Quit => return Ok(()),
                    Typed::Hint => say(out, hint_text(play.hint()?, sides.is_some(), &names.them)),
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

fn moves_list(moves: &[Move]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("  {}) {}, to {}\n", i + 1, m.describe(), m.to.piles_text()))
        .collect()
}

/// A hint in words: an impartial game's in terms of P-positions, a partizan game's in terms of
/// who wins moving first, with the hottest pile of a sum.
fn hint_text(hint: Hint, partizan: bool, them: &str) -> String {
    let mut out = String::new();
    // Where moving first is worth the most: the hottest pile (temperature theory's rule of
    // thumb, which the winning move may overrule).
    if let Some(h) = &hint.hottest {
        out.push_str(&format!(
            "the hottest pile is the pile of {}: temperature {}, so moving there first is worth the most\n",
            h.pile, h.temperature
        ));
    }
    let to = |m: &Move| format!("{}, to {}", m.describe(), m.to.piles_text());
    out.push_str(&match (hint.advice, partizan) {
        (Advice::Win(m), false) => format!(
            "hint: {}: it leaves a P-position, from which every move your opponent makes can be answered.\n",
            to(&m)
        ),
        (Advice::Win(m), true) => format!("hint: {}: from there {them}, moving first, loses.\n", to(&m)),
        (Advice::Draw(m), _) => format!(
            "hint: no move wins here, but {}, keeps the draw: your opponent cannot win from there either.\n",
            to(&m)
        ),
        (Advice::Lost { play: None, .. }, false) => "hint: this is a P-position, and no move is left.\n".into(),
        (Advice::Lost { play: None, .. }, true) => "hint: no move is left.\n".into(),
        (Advice::Lost { play: Some(m), .. }, false) => format!(
            "hint: this is a P-position: every move leaves your opponent a winning position. Make the game last: {}, keeps it going longest.\n",
            to(&m)
        ),
        (Advice::Lost { play: Some(m), resists: true }, true) => format!(
            "hint: no move wins here: whatever you play, {them} moving first from there wins with best play. Make it hard: {}, leaves {them} a winning move to find (from there whoever moves first wins).\n",
            to(&m)
        ),
        (Advice::Lost { play: Some(m), resists: false }, true) => format!(
            "hint: no move wins here: whatever you play, {them} wins from there, moving first or second. Make the game last: {}, keeps it going longest.\n",
            to(&m)
        ),
        (Advice::ByTemperature(m), _) => format!(
            "too large to search; by temperature: {} (the hottest pile's best move; advice, not a proof)\n",
            to(&m)
        ),
    });
    out
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
