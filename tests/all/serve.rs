//! `takeaway serve` under requests made from the bundled games by random cuts, swaps and junk
//! (a fixed seed, a few hundred requests): each answers with a status the API promises, never a
//! crash, and the server goes on answering.

use serde_json::json;

use crate::common::{games_dir, post, post_text};

fn game(file: &str) -> String {
    std::fs::read_to_string(games_dir().join(file)).expect("a bundled game")
}

#[test]
fn mutated_requests_never_crash_the_server() {
    let games: Vec<String> =
        ["nim.game", "kayles.game", "fibonacci-nim.game", "wythoff.game", "chomp.game", "misere-kayles.game"]
            .iter()
            .map(|f| game(f))
            .collect();
    let verbs = ["check", "solve", "explain", "table", "plot", "quotient", "period", "play"];
    let junk = ["..", "0", "99999999999999999999", "take", "\n", "{", "-", "split", "¼", "\u{0}", "last", "("];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..300 {
        let mut text: Vec<char> = games[next(games.len())].chars().collect();
        for _ in 0..1 + next(4) {
            let at = next(text.len().max(1));
            match next(3) {
                0 => {
                    text.truncate(at);
                }
                1 => text.splice(at..at, junk[next(junk.len())].chars()).for_each(drop),
                _ => {
                    let to = (at + next(8)).min(text.len());
                    text.drain(at..to);
                }
            }
        }
        let source: String = text.into_iter().collect();
        let position = ["3 4 5", "", "x", "1000000000000000000", "-1", "5,6", "(1, 2)", "2 2"][next(8)];
        // Each verb gets the arguments it takes (an argument it does not take is a 400).
        let verb = verbs[next(verbs.len())];
        let mut body = json!({ "source": source, "timeout": 0.5 });
        for (key, value) in [("position", json!(position)), ("upto", json!(next(40))), ("to", json!("1"))] {
            if takeaway_core::Request::arguments(verb).iter().any(|a| a == key) {
                body[key] = value;
            }
        }
        // A quarter of the requests are cut or spliced as JSON text (malformed: 400).
        let text = body.to_string();
        let (status, answer) = if next(4) == 0 {
            let mut text: Vec<char> = text.chars().collect();
            let at = next(text.len());
            if next(2) == 0 {
                text.truncate(at);
            } else {
                text.splice(at..at, junk[next(junk.len())].chars()).for_each(drop);
            }
            post_text(verb, &text.into_iter().collect::<String>())
        } else {
            post_text(verb, &text)
        };
        // 400 for an argument out of its range (a period to 0), 422 for a game or question that
        // does not answer.
        assert!([200, 400, 422].contains(&status), "{verb} status {status}: {answer}");
    }
    let (status, _) = post("solve", &json!({ "source": game("nim.game"), "position": "1 2 3" }));
    assert_eq!(status, 200);
}
