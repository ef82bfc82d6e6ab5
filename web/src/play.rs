//! `play` on the page, one step per request and no state on the server: the page sends the
//! position (and the player's move, or asks for the computer's move or a hint), the engine's
//! game machine (`takeaway_core::play::Play`) answers, and the page keeps the history for undo.

use serde_json::{json, Value};
use takeaway_core::api::{self, Failure, Loaded};
use takeaway_core::play::{Hint, Kept, Play, Player, Status, Strength};
use takeaway_core::rules::Move;
use takeaway_core::solve::{Limits, SolveError};

use crate::error::WebError;
use crate::questions::{Question, Refusal};

/// The most legal moves listed for the player to click; more are refused as too many to show.
const MOST_MOVES: usize = 2_000;

pub fn step(loaded: &Loaded, q: &Question, limits: &Limits) -> Result<Value, Refusal> {
    api::refuse_partizan(
        loaded,
        "play",
        "the page plays impartial games; `takeaway play FILE` in a terminal plays a partizan game as Left or Right",
    )?;
    let Some(position) = q.position.as_deref() else {
        return Err(WebError::Play {
            what: "a position".into(),
            help: "send the starting position, as in {\"position\": \"3 5 7\"}".into(),
        }
        .into());
    };
    let start = api::position_of(loaded, position, q.last)?;
    let engine = |e: SolveError| Refusal::Engine(Failure::one(e, Some(&loaded.source)));
    let first = if q.computer { Player::Computer } else { Player::You };
    let strength = Strength { percent: 100, seed: 1 };
    let mut play = Play::new(&loaded.game, start, first, strength, limits.clone());
    let mut out = serde_json::Map::new();
    if q.hint {
        let hint = match play.hint().map_err(engine)? {
            Hint::Win(m) => json!({ "kind": "win", "move": describe(&m), "to": m.to.piles }),
            Hint::Draw(m) => json!({ "kind": "draw", "move": describe(&m), "to": m.to.piles }),
            Hint::Lost => json!({ "kind": "lost" }),
        };
        out.insert("hint".into(), hint);
    } else if let Some(to) = q.to.as_deref() {
        let target = api::position_of(loaded, to, None)?;
        let moves = play.moves().map_err(engine)?;
        let Some(chosen) = moves.iter().find(|m| m.to.piles == target.piles).cloned() else {
            return Err(WebError::Play {
                what: format!("a legal move: no move leads from {position} to {to}"),
                help: "choose one of the moves the page lists".into(),
            }
            .into());
        };
        play.play(&chosen).map_err(engine)?;
        let slip = play.slip().map(|s| {
            let kept = match s.kept {
                Kept::Win => "win",
                Kept::Draw => "draw",
            };
            json!({ "played": s.played, "better": s.better, "kept": kept })
        });
        out.insert("you".into(), json!({ "move": describe(&chosen), "to": chosen.to.piles, "slip": slip }));
        if !over(&play, engine)? {
            reply(&mut play, &mut out, engine)?;
        }
    } else if q.computer {
        reply(&mut play, &mut out, engine)?;
    }
    state(&mut play, &mut out, engine)?;
    Ok(Value::Object(out))
}

fn over(play: &Play<'_>, engine: impl Fn(SolveError) -> Refusal) -> Result<bool, Refusal> {
    Ok(matches!(play.status().map_err(engine)?, Status::Over { .. }))
}

fn reply(
    play: &mut Play<'_>,
    out: &mut serde_json::Map<String, Value>,
    engine: impl Fn(SolveError) -> Refusal,
) -> Result<(), Refusal> {
    if let Some(m) = play.computer_move().map_err(engine)? {
        out.insert("computer".into(), json!({ "move": describe(&m), "to": m.to.piles }));
    }
    Ok(())
}

/// Where the game stands after the step: the position, who moves, the winner once it is over,
/// and the player's moves to click.
fn state(
    play: &mut Play<'_>,
    out: &mut serde_json::Map<String, Value>,
    engine: impl Fn(SolveError) -> Refusal + Copy,
) -> Result<(), Refusal> {
    out.insert("position".into(), json!(play.position().piles));
    match play.status().map_err(engine)? {
        Status::Over { winner } => {
            out.insert("over".into(), json!(true));
            out.insert("winner".into(), json!(name(winner)));
            out.insert("moves".into(), json!([]));
        }
        Status::ToMove(player) => {
            out.insert("over".into(), json!(false));
            out.insert("to_move".into(), json!(name(player)));
            let outcome = play.outcome().map_err(engine)?;
            out.insert("outcome".into(), json!(outcome.letter()));
            let moves = play.moves().map_err(engine)?;
            if moves.len() > MOST_MOVES {
                return Err(WebError::Play {
                    what: format!("a smaller position: this one has {} moves, more than the page lists", moves.len()),
                    help: format!("start from a position with at most {MOST_MOVES} moves"),
                }
                .into());
            }
            let listed: Vec<Value> = moves.iter().map(|m| json!({ "move": describe(m), "to": m.to.piles })).collect();
            out.insert("moves".into(), Value::Array(listed));
        }
    }
    Ok(())
}

fn describe(m: &Move) -> String {
    m.kind.describe()
}

fn name(p: Player) -> &'static str {
    match p {
        Player::You => "you",
        Player::Computer => "computer",
    }
}
