//! A move typed by the player: its number in the list, its words, or the position it leads to.

use crate::rules::{Game, Move, Position};

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
