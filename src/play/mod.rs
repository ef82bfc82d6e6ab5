//! `play`: a game against the computer. The computer plays perfectly (or, at a lower strength,
//! sometimes at random): when winning it hurries, when losing it delays, by remoteness. The
//! player may ask for a `hint`, `undo` a move, list the `moves`, or `quit`. At the end it says who
//! won and, if the player lost from a winning position, the move where the win slipped.
//!
//! The loop reads lines from any reader, so a whole game can be scripted and tested.

use std::io::Write;

use takeaway_core::api::Loaded;
use takeaway_core::rules::{Convention, Move, Position, Side};

mod partizan;
use takeaway_core::solve::{Limits, Outcome, SolveError, Solver};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    You,
    Computer,
}

/// How the computer chooses: the percentage of its moves that are perfect; the rest are random.
#[derive(Clone, Copy, Debug)]
pub struct Strength {
    pub percent: u8,
    pub seed: u64,
}

/// A small deterministic generator, so that a game at a lower strength can be replayed.
pub(crate) struct Random(pub(crate) u64);

impl Random {
    pub(crate) fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A move the player made from a winning position to a losing one.
struct Slip {
    number: usize,
    from: Position,
    played: String,
    better: String,
    /// What the better move would have done: "won" or "kept the draw".
    would_have: &'static str,
}

pub(crate) struct Turn {
    pub(crate) before: Position,
    pub(crate) mover: Player,
}

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

pub(crate) fn other(p: Player) -> Player {
    match p {
        Player::You => Player::Computer,
        Player::Computer => Player::You,
    }
}

/// What the REPL asks its front end to run: a game from a position of a session's game.
#[derive(Clone, Debug)]
pub struct PlayRequest {
    pub loaded: Loaded,
    pub start: Position,
    pub first: Player,
    pub side: Side,
    pub strength: Strength,
    pub limits: Limits,
}

/// Plays one game from `start`, reading the player's lines from `next_line` (`None` ends the
/// game). Fails only when solving itself fails.
pub fn play(
    request: &PlayRequest,
    next_line: &mut dyn FnMut() -> Option<String>,
    out: &mut dyn Write,
) -> Result<(), SolveError> {
    let PlayRequest { loaded, start, first, strength, limits, .. } = request.clone();
    let game = &loaded.game;
    if game.is_partizan() {
        return partizan::play(request, next_line, out);
    }
    let mut solver = Solver::new(game, limits.clone());
    let mut random = Random(strength.seed.max(1));
    let mut position = start;
    let mut to_move = first;
    let mut history: Vec<Turn> = Vec::new();
    let mut slips: Vec<Slip> = Vec::new();
    let mut your_moves = 0usize;
    // The position last announced to the player, so that commands do not repeat it.
    let mut announced: Option<Position> = None;
    // Positions met in this game, so that a drawn game that comes round is pointed out once.
    let mut met: std::collections::HashSet<Position> = std::collections::HashSet::new();
    let mut told_circle = false;
    say(out, format!("{}: you play against the computer. {HOW_TO_MOVE}", game.name));

    loop {
        let moves = game.moves(&position, limits.max_states)?;
        if !met.insert(game.canonical(&position)) && !told_circle && solver.outcome(&position)? == Outcome::D {
            told_circle = true;
            say(
                out,
                format!(
                    "position {} has come back: it is a draw, and with best play the game goes round for ever. Type quit to stop.\n",
                    position.piles_text()
                ),
            );
        }
        if moves.is_empty() {
            let mover_wins = game.convention == Convention::Misere;
            let winner = if mover_wins { to_move } else { other(to_move) };
            say(out, format!("position {}: no move is left.\n", position.piles_text()));
            match winner {
                Player::You => say(out, "You win!\n".into()),
                Player::Computer => {
                    say(out, "The computer wins.\n".into());
                    if let Some(s) = slips.first() {
                        say(
                            out,
                            format!(
                                "The {} slipped at your move {}: from {} you played {}, but {} would have {}.\n",
                                if s.would_have == "won" { "win" } else { "draw" },
                                s.number,
                                s.from.piles_text(),
                                s.played,
                                s.better,
                                s.would_have
                            ),
                        );
                    }
                }
            }
            return Ok(());
        }
        match to_move {
            Player::Computer => {
                let chosen = computer_move(&mut solver, &moves, strength, &mut random)?;
                say(
                    out,
                    format!(
                        "position {}: the computer plays {}, to {}\n",
                        position.piles_text(),
                        chosen.kind.describe(),
                        chosen.to.piles_text()
                    ),
                );
                history.push(Turn { before: position.clone(), mover: Player::Computer });
                position = chosen.to.clone();
                to_move = Player::You;
            }
            Player::You => {
                match your_turn(out, next_line, &position, &moves, "", &mut announced) {
                    Typed::Again => {}
                    Typed::Quit => return Ok(()),
                    Typed::Hint => say(out, hint(&mut solver, &position)?),
                    Typed::Undo => {
                        if take_back(out, &mut history, &mut position, &mut your_moves, &mut announced) {
                            slips.retain(|s| s.number <= your_moves);
                        }
                        to_move = Player::You;
                    }
                    Typed::Move(line) => match pick(game, &moves, &line) {
                        Ok(m) => {
                            your_moves += 1;
                            let was = solver.outcome(&position)?;
                            let now = solver.outcome(&m.to)?;
                            // A slip: a win let go (the opponent is left a win or a draw), or a draw let go.
                            if (was == Outcome::N && now != Outcome::P) || (was == Outcome::D && now == Outcome::N) {
                                let better = match was {
                                    Outcome::N => solver.winning_moves(&position)?,
                                    _ => solver.drawing_moves(&position)?,
                                };
                                if let Some(b) = better.first() {
                                    slips.push(Slip {
                                        number: your_moves,
                                        from: position.clone(),
                                        played: m.kind.describe(),
                                        better: b.kind.describe(),
                                        would_have: if was == Outcome::N { "won" } else { "kept the draw" },
                                    });
                                }
                            }
                            say(out, format!("you play {}, to {}\n", m.kind.describe(), m.to.piles_text()));
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

pub(crate) fn moves_list(moves: &[Move]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("  {}) {}, to {}\n", i + 1, m.kind.describe(), m.to.piles_text()))
        .collect()
}

/// A move typed as its number in the list, as it is listed (`take 3`, `take 3 from the pile
/// of 5`: the start of one move's words is enough), or as `to` and the position it leads to
/// (several numbers are always a position: `3 7`). Words that fit several moves name them.
pub(crate) fn pick<'m>(game: &takeaway_core::rules::Game, moves: &'m [Move], line: &str) -> Result<&'m Move, String> {
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
    let target = takeaway_core::rules::parse_position(game, target).map_err(|_| not_a_move())?;
    let wanted = game.canonical(&Position { last: None, ..target });
    moves.iter().find(|m| game.canonical(&Position { last: None, ..m.to.clone() }) == wanted).ok_or_else(not_a_move)
}

/// Lower case, single spaces, no full stop: how typed words are compared with a move's.
fn normalised(text: &str) -> String {
    text.trim().trim_end_matches('.').to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ")
}

fn hint(solver: &mut Solver, position: &Position) -> Result<String, SolveError> {
    let winning = solver.winning_moves(position)?;
    if winning.is_empty() && solver.outcome(position)? == Outcome::D {
        if let Some(m) = solver.drawing_moves(position)?.first() {
            return Ok(format!(
                "hint: no move wins here, but {}, to {}, keeps the draw: your opponent cannot win from there either.\n",
                m.kind.describe(),
                m.to.piles_text()
            ));
        }
    }
    Ok(match winning.first() {
        Some(m) => format!(
            "hint: {}, to {}: it leaves a P-position, from which every move your opponent makes can be answered.\n",
            m.kind.describe(),
            m.to.piles_text()
        ),
        None => "hint: this is a P-position: every move leaves your opponent a winning position. Make the game last: play a move that keeps it going longest.\n".into(),
    })
}

fn computer_move<'m>(
    solver: &mut Solver,
    moves: &'m [Move],
    strength: Strength,
    random: &mut Random,
) -> Result<&'m Move, SolveError> {
    if (random.next() % 100) as u8 >= strength.percent {
        return Ok(&moves[(random.next() % moves.len() as u64) as usize]);
    }
    // Perfect: move to a P-position if there is one, hurrying; else keep a draw; else delay.
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
    Ok(best.expect("there is at least one move").0)
}

/// How a game against the computer is played, on the command line and in the REPL alike.
#[derive(clap::Args, Debug)]
pub struct PlayOptions {
    /// who moves first
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
    /// the percentage of the computer's moves that are perfect (the rest are random)
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(0..=100))]
    strength: u8,
    /// seed for the computer's random moves at a strength below 100
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// in a partizan game, the player you are (the computer is the other)
    #[arg(long, value_enum, default_value_t = SideArg::Left)]
    side: SideArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SideArg {
    Left,
    Right,
}

impl PlayOptions {
    pub fn first(&self) -> Player {
        self.first.player()
    }

    pub fn side(&self) -> Side {
        match self.side {
            SideArg::Left => Side::Left,
            SideArg::Right => Side::Right,
        }
    }

    pub fn strength(&self) -> Strength {
        Strength { percent: self.strength, seed: self.seed }
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
