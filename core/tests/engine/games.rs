//! Every `games/*.game` file loads, and what its header says (`# expect …` lines) holds.
//!
//! Forms of a header claim:
//! - `# expect grundy: 0 1 2 …`            Grundy values of one pile of 0, 1, 2, …
//! - `# expect grundy after last K: 0 0 1 …` the same after a previous move of K (memory games)
//! - `# expect outcomes: P N N D`            outcomes of one pile of 0, 1, 2, … (D: a draw)
//! - `# expect values: 0 ∞(0) ∞`             Smith's generalised values of one pile, for loopy games
//! - `# expect p-positions to N: 0 4 8`    every P-position up to N (pairs as `a,b` for two piles)
//! - `# expect cells to N: 0 0 | 0 1`       a product game: Grundy values of one cell (x, y),
//!   x = 1..N (rows, separated by `|`) and y = 1..N
//! - `# expect misere-grundy: 1 0 2 …`     misère Grundy values G⁻ of one pile of 0, 1, 2, …
//! - `# expect quotient to N: order 40 p-portion 9 period 12 from 71`   the misère quotient of
//!   heaps up to N: its order, the size of its P-portion and, where one is proven, Φ's period
//!   (`… stops after 24` where the construction stops at its bounds before N)
//! - `# expect solve POSITION: N grundy 135 winning 41 36 13 | …`   outcome, Grundy value and the
//!   positions the winning moves lead to (`winning includes …` for some of them); the position
//!   may end with `--last K`
//! - `# expect period: 149459 from 105351`   the period and preperiod `takeaway period` proves
//! - `# expect refused POSITION: takeaway::…`   solving the position stops with this diagnostic
//!
//! For a partizan game (`left move:` / `right move:`):
//! - `# expect outcomes: P L N R`            outcome classes of one pile of 0, 1, 2, …
//! - `# expect values: 0 1 {1|0}`            canonical values of one pile of 0, 1, 2, …
//! - `# expect period: 3 from 0, Left weakly dominates`   the outcome sequence's proven period
//!   and the behaviour it shows
//! - `# expect solve POSITION: L value 1 left 2 4 | 0 4 right none`   outcome, value and the
//!   positions each player's winning moves lead to (the value is left out under misère play)

use crate::common;

use serde_json::json;
use takeaway_core::answers::{PartizanReport, PartizanTable, QuotientReport, SolveReport, Table};
use takeaway_core::{Answer, Budget, Failure, Games, Loaded, Outcome, Request};

fn outcome(word: &str) -> Outcome {
    match word {
        "P" => Outcome::P,
        "N" => Outcome::N,
        "D" => Outcome::D,
        w => panic!("unknown outcome {w}"),
    }
}

fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap_or_else(|_| panic!("not a number: {w}")))
        .collect()
}

/// One question, as every front end asks it: the verb and its arguments in JSON.
fn ask(game: &Loaded, verb: &str, args: serde_json::Value) -> Result<Answer, Failure> {
    let serde_json::Value::Object(args) = args else { panic!("arguments are an object") };
    let request = Request::parse(verb, args).unwrap_or_else(|e| panic!("{verb}: {e}"));
    let library = Games { dir: common::games_dir(), session: Vec::new() };
    takeaway_core::ask(game, &request, &library, &Budget::new())
}

fn table(file: &str, game: &Loaded, args: serde_json::Value) -> Table {
    match ask(game, "table", args) {
        Ok(Answer::Table(t)) => t,
        other => panic!("{file}: a table: {other:?}"),
    }
}

fn partizan_table(file: &str, game: &Loaded, upto: u64) -> PartizanTable {
    match ask(game, "table", json!({ "upto": upto })) {
        Ok(Answer::PartizanTable(t)) => t,
        other => panic!("{file}: a partizan table: {other:?}"),
    }
}

fn solved(file: &str, game: &Loaded, args: serde_json::Value) -> SolveReport {
    match ask(game, "solve", args) {
        Ok(Answer::Solve(r)) => r,
        other => panic!("{file}: a solve: {other:?}"),
    }
}

fn partizan_solved(file: &str, game: &Loaded, position: &str) -> PartizanReport {
    match ask(game, "solve", json!({ "position": position })) {
        Ok(Answer::PartizanSolve(r)) => r,
        other => panic!("{file}: a partizan solve: {other:?}"),
    }
}

fn quotient(file: &str, game: &Loaded, upto: u64) -> QuotientReport {
    match ask(game, "quotient", json!({ "upto": upto })) {
        Ok(Answer::Quotient(q)) => q,
        other => panic!("{file}: a quotient: {other:?}"),
    }
}

fn check_partizan_claim(file: &str, game: &Loaded, claim: &str) {
    let (head, body) = claim.split_once(':').unwrap_or_else(|| panic!("{file}: claim without ':': {claim}"));
    let head: Vec<&str> = head.split_whitespace().collect();
    let expected: Vec<&str> = body.split_whitespace().collect();
    match head.as_slice() {
        ["outcomes"] => {
            let table = partizan_table(file, game, expected.len() as u64 - 1);
            let got: Vec<&str> = table.rows.iter().map(|r| r.outcome.letter()).collect();
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["values"] => {
            let table = partizan_table(file, game, expected.len() as u64 - 1);
            let got: Vec<String> = table.rows.iter().map(|r| r.value.clone().expect("a value")).collect();
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["period"] => {
            let table = partizan_table(file, game, 0);
            let p = table.period.expect("a period");
            let got = format!("{} from {}, {}", p.period, p.preperiod, p.behaviour);
            assert!(got.starts_with(body.trim()), "{file}: {claim}: got {got}");
        }
        ["solve", position @ ..] => {
            let report = partizan_solved(file, game, &position.join(" "));
            let mut words = expected.into_iter().peekable();
            assert_eq!(Some(report.outcome.letter()), words.next(), "{file}: {claim}");
            while let Some(w) = words.next() {
                match w {
                    "value" => assert_eq!(report.value.as_deref(), words.next(), "{file}: {claim}"),
                    "left" | "right" => {
                        let mut rest = Vec::new();
                        while let Some(x) = words.next_if(|x| *x != "left" && *x != "right") {
                            rest.push(x);
                        }
                        let moves = if w == "left" { &report.left_winning_moves } else { &report.right_winning_moves };
                        let got: Vec<Vec<u64>> = moves.iter().map(|m| m.to.clone()).collect();
                        let want: Vec<Vec<u64>> = if rest == ["none"] {
                            Vec::new()
                        } else {
                            rest.join(" ").split('|').map(numbers).collect()
                        };
                        assert_eq!(got, want, "{file}: {claim}: {w}");
                    }
                    other => panic!("{file}: unknown word {other} in {claim}"),
                }
            }
        }
        _ => panic!("{file}: unknown partizan claim {claim}"),
    }
}

fn check_claim(file: &str, game: &Loaded, claim: &str) {
    if game.game.is_partizan() {
        return check_partizan_claim(file, game, claim);
    }
    let (head, body) = claim.split_once(':').unwrap_or_else(|| panic!("{file}: claim without ':': {claim}"));
    let head: Vec<&str> = head.split_whitespace().collect();
    match head.as_slice() {
        ["grundy"] => {
            let expected = numbers(body);
            let table = table(file, game, json!({ "upto": expected.len() - 1 }));
            let got: Vec<u64> = table.grundy[0].iter().map(|g| g.expect("Grundy value")).collect();
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["grundy", "after", "last", k] => {
            let k: u64 = k.parse().expect("a number after `last`");
            let expected = numbers(body);
            let upto = (expected.len() as u64 - 1).max(k);
            let table = table(file, game, json!({ "upto": upto, "by_last": true }));
            let grid = table.by_last.expect("a grid by last move");
            let got: Vec<u64> =
                grid.grundy.iter().take(expected.len()).map(|row| row[k as usize - 1].expect("Grundy value")).collect();
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["outcomes"] => {
            let expected: Vec<Outcome> = body.split_whitespace().map(outcome).collect();
            let table = table(file, game, json!({ "upto": expected.len() - 1 }));
            assert_eq!(table.outcomes[0], expected, "{file}: {claim}");
        }
        ["values"] => {
            let expected: Vec<&str> = body.split_whitespace().collect();
            let table = table(file, game, json!({ "upto": expected.len() - 1 }));
            let got = table.loopy_values.expect("a loopy game under normal play");
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["cells", "to", n] => {
            let upto: u64 = n.parse().expect("a number after `to`");
            let table = table(file, game, json!({ "upto": upto }));
            let expected: Vec<Vec<u64>> = body.split('|').map(numbers).collect();
            let got: Vec<Vec<u64>> =
                table.grundy.iter().map(|row| row.iter().map(|g| g.expect("Grundy value")).collect()).collect();
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["misere-grundy"] => {
            let expected = numbers(body);
            let table = table(file, game, json!({ "upto": expected.len() - 1 }));
            let got: Vec<u64> =
                table.misere.expect("misère columns").grundy.iter().map(|g| g.expect("G⁻ computed")).collect();
            assert_eq!(got, expected, "{file}: {claim}");
        }
        ["quotient", "to", n] => {
            let upto: u64 = n.parse().expect("a number after `to`");
            let report = quotient(file, game, upto);
            let words: Vec<&str> = body.split_whitespace().collect();
            let mut expected = format!("order {} p-portion {}", report.order, report.p_portion.len());
            if let Some(p) = report.proven {
                expected.push_str(&format!(" period {} from {}", p.period, p.preperiod));
            }
            if report.stopped.is_some() {
                expected.push_str(&format!(" stops after {}", report.computed));
            }
            assert_eq!(words.join(" "), expected, "{file}: {claim}");
        }
        ["p-positions", "to", n] => {
            let upto: u64 = n.parse().expect("a number after `to`");
            let table = table(file, game, json!({ "upto": upto }));
            let expected: Vec<Vec<u64>> = body
                .split_whitespace()
                .map(|item| item.split(',').map(|x| x.parse().expect("number")).collect())
                .collect();
            assert_eq!(table.p_positions, expected, "{file}: {claim}");
        }
        ["solve", position @ ..] => {
            let (position, last) = match position {
                [piles @ .., "--last", k] => (piles, Some(k.parse::<u64>().expect("a number after --last"))),
                piles => (piles, None),
            };
            let report = solved(file, game, json!({ "position": position.join(" "), "last": last }));
            let mut words = body.split_whitespace().peekable();
            assert_eq!(report.outcome, outcome(words.next().expect("an outcome")), "{file}: {claim}");
            while let Some(w) = words.next() {
                match w {
                    "grundy" => {
                        let g: u64 = words.next().expect("a value").parse().expect("number");
                        assert_eq!(report.grundy, Some(g), "{file}: {claim}");
                    }
                    "winning" => {
                        let includes = words.peek() == Some(&"includes");
                        if includes {
                            words.next();
                        }
                        let rest: Vec<&str> = words.by_ref().collect();
                        let expected: Vec<Vec<u64>> = rest.join(" ").split('|').map(numbers).collect();
                        let got: Vec<Vec<u64>> = report.winning_moves.iter().map(|m| m.to.clone()).collect();
                        if includes {
                            for e in &expected {
                                assert!(got.contains(e), "{file}: {claim}: {e:?} not among {got:?}");
                            }
                        } else {
                            assert_eq!(got, expected, "{file}: {claim}");
                        }
                    }
                    other => panic!("{file}: unknown word {other} in {claim}"),
                }
            }
        }
        ["period"] => {
            // `period 149459 from 105351`: the period proven by `takeaway period`.
            let Ok(Answer::Period(report)) = ask(game, "period", json!({ "upto": 1 << 24 })) else {
                panic!("{file}: {claim}: a period run")
            };
            let (pre, p) = report.proven.unwrap_or_else(|| panic!("{file}: {claim}: no period proven"));
            assert_eq!(format!("{p} from {pre}"), body.trim(), "{file}: {claim}");
        }
        ["refused", position @ ..] => {
            let Err(failure) = ask(game, "solve", json!({ "position": position.join(" ") })) else {
                panic!("{file}: {claim}: answered")
            };
            assert_eq!(failure.code().as_deref(), Some(body.trim()), "{file}: {claim}");
        }
        _ => panic!("{file}: unknown claim {claim}"),
    }
}

#[test]
fn every_game_file_loads_and_keeps_its_header_claims() {
    let mut files: Vec<_> = std::fs::read_dir(common::games_dir())
        .expect("games/ exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert!(files.len() >= 17, "the games of the theory ship in games/");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        // A product names other files of games/.
        let library = takeaway_core::Games { dir: common::games_dir(), session: Vec::new() };
        let source = takeaway_core::Source::new(name.clone(), text.clone());
        let loaded = takeaway_core::load_game(source, &name, &[], &library, &Budget::new())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let claims: Vec<&str> = text.lines().filter_map(|l| l.trim().strip_prefix("# expect ")).collect();
        assert!(!claims.is_empty(), "{name} states no `# expect` claim in its header");
        for claim in claims {
            check_claim(&name, &loaded, claim);
        }
    }
}

#[test]
fn the_games_the_foundation_names_all_ship() {
    for name in [
        "tag",
        "subtraction-1-3",
        "tag-misere",
        "take-at-most-last",
        "take-less-than-twice",
        "fibonacci-nim",
        "nim",
        "misere-nim",
        "restricted-nim",
        "grundys-game",
        "kayles",
        "dawsons-kayles",
        "wythoff",
        "chomp",
    ] {
        assert!(common::games_dir().join(format!("{name}.game")).exists(), "games/{name}.game is missing");
    }
}
