//! Golden tests of the command line through the built binary: what a user types and sees.

use crate::common;

use common::takeaway;

/// Runs a command that must succeed and returns its output.
pub(crate) fn ok(args: &[&str]) -> String {
    let run = takeaway(args);
    assert_eq!(run.code, 0, "{args:?} failed:\n{}", run.stderr);
    assert_eq!(run.stderr, "", "{args:?} wrote to stderr");
    run.stdout
}

/// Runs a command that must fail with `code` and returns what it said on stderr.
pub(crate) fn fails(code: i32, args: &[&str]) -> String {
    let run = takeaway(args);
    assert_eq!(run.code, code, "{args:?}: exit code\nstdout: {}\nstderr: {}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{args:?} panicked");
    run.stderr
}

pub(crate) fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("--format json prints one JSON document")
}

#[test]
fn solve_nim_text() {
    insta::assert_snapshot!(ok(&["solve", "games/nim.game", "41", "163", "13"]));
}

#[test]
fn solve_positions_may_be_separated_by_commas() {
    assert_eq!(ok(&["solve", "games/nim.game", "41,163,13"]), ok(&["solve", "games/nim.game", "41", "163", "13"]));
    assert_eq!(ok(&["solve", "games/nim.game", "41, 163, 13"]), ok(&["solve", "games/nim.game", "41 163 13"]));
}

#[test]
fn solve_nim_json() {
    let v = json(&["solve", "games/nim.game", "41", "163", "13", "--format", "json"]);
    assert_eq!(v["position"], serde_json::json!([41, 163, 13]));
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 135);
    assert_eq!(v["winning_moves"][0]["move"], "take 127 from the pile of 163");
    assert_eq!(v["winning_moves"][0]["to"], serde_json::json!([41, 36, 13]));
    insta::assert_snapshot!(serde_json::to_string_pretty(&v).unwrap());
}

#[test]
fn solve_a_p_position() {
    insta::assert_snapshot!(ok(&["solve", "games/nim.game", "1", "2", "3"]));
}

#[test]
fn solve_misere_has_no_grundy_value() {
    let v = json(&["solve", "games/misere-nim.game", "1", "1", "1", "--format", "json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], serde_json::Value::Null);
    insta::assert_snapshot!(ok(&["solve", "games/misere-nim.game", "2", "3"]));
}

#[test]
fn solve_grundys_game_and_kayles_show_splits() {
    insta::assert_snapshot!(ok(&["solve", "games/grundys-game.game", "8"]));
    insta::assert_snapshot!(ok(&["solve", "games/kayles.game", "7"]));
}

#[test]
fn solve_chomp() {
    insta::assert_snapshot!(ok(&["solve", "games/chomp.game", "3", "3", "3"]));
}

#[test]
fn solve_wythoff() {
    insta::assert_snapshot!(ok(&["solve", "games/wythoff.game", "4", "6"]));
}

#[test]
fn solve_fibonacci_nim_100000_answers() {
    let out = ok(&["solve", "games/fibonacci-nim.game", "100000"]);
    assert!(out.contains("outcome: N"));
    // 100000 = 75025 + 17711 + 6765 + 377 + 89 + 21 + 8 + 3 + 1: take the smallest term.
    assert!(out.contains("take 1 from the pile of 100000, to 99999"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn solve_fibonacci_nim_past_sixty_four_bits_in_arbitrary_size_integers() {
    // F(150) = 16130531424904581415797907386349 is a P-position; one more is won by taking 1.
    let out = ok(&["solve", "games/fibonacci-nim.game", "16130531424904581415797907386350"]);
    assert!(out.contains("outcome: N"), "{out}");
    assert!(
        out.contains("take 1 from the pile of 16130531424904581415797907386350, to 16130531424904581415797907386349")
    );
    insta::assert_snapshot!(out);
    let p = ok(&["solve", "games/fibonacci-nim.game", "16130531424904581415797907386349"]);
    assert!(p.contains("outcome: P"), "{p}");
    let v = json(&["solve", "games/fibonacci-nim.game", "10000000000000000000000000000000", "--format", "json"]);
    insta::assert_snapshot!(serde_json::to_string_pretty(&v).unwrap());
}

#[test]
fn a_bound_far_above_the_pile_makes_schwenks_sequence_too_slow_for_a_huge_pile() {
    // While its terms are below 100000, H grows by one a term: 2^16 terms do not reach 10^25.
    let dir = std::env::temp_dir().join(format!("takeaway-slow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("slow.game");
    std::fs::write(&path, "game \"slow\"\npile\nfirst move: take 1..n-1\nmove: take ≤ 100000·last\n").unwrap();
    insta::assert_snapshot!(fails(1, &["solve", path.to_str().unwrap(), "10000000000000000000000000"]));
}

#[test]
fn solve_with_a_previous_move() {
    // From 10 after the opponent took 1, at most 2 may be taken: 10 = 8 + 2, take 2 wins.
    let out = ok(&["solve", "games/fibonacci-nim.game", "10", "--last", "1"]);
    insta::assert_snapshot!(out);
    let stderr = fails(1, &["solve", "games/nim.game", "10", "--last", "1"]);
    insta::assert_snapshot!(stderr);
}

#[test]
fn coin_games_answer_in_coins_and_refuse_impossible_rows() {
    insta::assert_snapshot!(ok(&["solve", "games/mock-turtles.game", "3", "5", "9"]));
    insta::assert_snapshot!(ok(&["explain", "games/ruler.game", "3", "6", "12"]));
    insta::assert_snapshot!(fails(1, &["solve", "games/ruler.game", "3", "0"]));
    insta::assert_snapshot!(fails(1, &["solve", "games/ruler.game", "3", "4", "3"]));
}

#[test]
fn a_coin_rule_with_too_many_sets_is_refused_not_run_out_of_memory() {
    // Turning any set of coins: coin n has 2^(n-1) moves.
    let dir = std::env::temp_dir().join(format!("takeaway-coins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("any.game");
    std::fs::write(&file, "coins\nmove: turn any coins\n").unwrap();
    let stderr = fails(1, &["solve", file.to_str().unwrap(), "40", "--max-states", "100000"]);
    assert!(stderr.contains("takeaway::rules::too_many_moves"), "{stderr}");
    assert!(stderr.contains("turn any coins"), "{stderr}");
}

#[test]
fn set_overrides_a_parameter() {
    let v = json(&["table", "games/tag.game", "--upto", "12", "--set", "k=5", "--format", "json"]);
    assert_eq!(v["p_positions"], serde_json::json!([0, 6, 12]));
    insta::assert_snapshot!(fails(1, &["table", "games/tag.game", "--set", "q=5"]));
}

#[test]
fn check_is_silent_on_every_shipped_impartial_game_and_names_a_partizan_games_sides() {
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games")).unwrap() {
        let path = entry.unwrap().path();
        let rel = format!("games/{}", path.file_name().unwrap().to_string_lossy());
        let out = ok(&["check", &rel]);
        if rel.contains("partizan") {
            assert!(out.contains(" is partizan: ") && out.contains("(Left's only)"), "{rel}: {out}");
        } else {
            assert_eq!(out, "", "{rel}");
        }
    }
    insta::assert_snapshot!(ok(&["check", "games/partizan-subtraction.game"]));
}

// ---- partizan games ----------------------------------------------------------------------------

/// Temperature theory where canonical forms cannot go. L{1,3} R{2,3}: a pile's walls depend
/// only on the three piles below, so once three means and temperatures repeat they repeat for
/// ever; the brute force of `core/tests/engine/thermography.rs` checks piles to 30 (mean 1, ½,
/// 0 and temperature 0, ½, 0 for n ≡ 1, 2, 0 mod 3 from 4 on). The table to 10,000 keeps that
/// period to its end, past where the forms stop, and a sum of the 100 piles 9901..10000 has
/// the sum of their means: 34 piles of mean 1 and 33 of ½, 101/2.
#[test]
fn temperature_theory_goes_past_the_canonical_forms() {
    let csv = ok(&["table", "games/partizan-subtraction.game", "--upto", "10000", "--format", "csv"]);
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 10_001);
    let expected = |n: usize| match n % 3 {
        1 => ("1", "0"),
        2 => ("1/2", "1/2"),
        _ => ("0", "0"),
    };
    // The mean and temperature are the last two columns (a value may hold quoted commas).
    for (n, row) in rows.iter().enumerate().skip(4) {
        assert_eq!((row[row.len() - 2], row[row.len() - 1]), expected(n), "pile {n}: {row:?}");
    }
    assert_eq!(rows[10_000], ["10000", "L", "", "1", "0"], "the canonical forms stop long before 10,000");

    let v = json(&["solve", "games/partizan-subtraction.game", "10000", "--format", "json"]);
    assert_eq!((v["heat"]["mean"].as_str(), v["heat"]["temperature"].as_str()), (Some("1"), Some("0")));
    assert!(v.get("value").is_none());

    let piles: Vec<String> = (9901..=10000).map(|n: u32| n.to_string()).collect();
    let mut args = vec!["solve", "games/partizan-subtraction.game"];
    args.extend(piles.iter().map(String::as_str));
    args.extend(["--format", "json"]);
    let v = json(&args);
    let h = &v["sum_heat"];
    assert_eq!(h["mean"], "101/2");
    assert_eq!(h["temperature_at_most"], "1/2");
    // Proven an L-position: Right's stop is at least 101/2 − 1/2 > 0.
    assert_eq!(v["outcome"], "L");
    let low: f64 = {
        let (n, d) =
            h["right_stop"][0].as_str().unwrap().split_once('/').unwrap_or((h["right_stop"][0].as_str().unwrap(), "1"));
        n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
    };
    assert!(low >= 50.0, "{h}");
    // Each side's move by temperature is in a hottest pile (n ≡ 2 mod 3): Left takes 1 or 3,
    // Right 2 or 3.
    for (side, takes) in [("left_hot_move", ["take 1", "take 3"]), ("right_hot_move", ["take 2", "take 3"])] {
        let m = h[side]["move"].as_str().unwrap();
        let pile: u32 = m.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(pile % 3, 2, "{m}");
        assert!(takes.iter().any(|t| m.starts_with(t)), "{m}");
    }
    assert!(v["left_winning_moves"].as_array().unwrap().is_empty());
}

/// What a long value hides, from the definitions: {1|0} cooled by t is {1 − t | t} for t ≤ ½;
/// a pile of 8 of L{1,3} R{2,3} (temperature ½, stops 1 and 0) is {1|0} up to infinitesimals;
/// a pile of n ≥ 2 of Ups is (n − 1)·↑, of atomic weight n − 1; cooling an impartial game is
/// refused.
#[test]
fn cooling_reduced_forms_and_atomic_weights() {
    let v = json(&["solve", "games/partizan-subtraction.game", "2", "--cool", "1/4", "--format", "json"]);
    assert_eq!((v["value"].as_str(), v["cooled"]["value"].as_str()), (Some("{1|0}"), Some("{3/4|1/4}")));
    let v = json(&["solve", "games/partizan-subtraction.game", "2", "--cool", "1", "--format", "json"]);
    assert_eq!(v["cooled"]["value"], "½");
    let v = json(&["solve", "games/partizan-subtraction.game", "8", "--format", "json"]);
    assert_eq!(v["reduced"], "{1|0}");
    assert!(v["value"].as_str().unwrap().len() > 60);
    for n in 2..=8u32 {
        let v = json(&["solve", "games/partizan-ups.game", &n.to_string(), "--format", "json"]);
        assert_eq!(v["atomic_weight"], (n - 1).to_string(), "pile {n}: {}", v["value"]);
    }
    let v = json(&["solve", "games/partizan-ups.game", "3", "4", "--format", "json"]);
    assert_eq!(v["atomic_weight"], "5");
    // Not all-small: no atomic weight.
    let v = json(&["solve", "games/partizan-subtraction.game", "2", "--format", "json"]);
    assert!(v.get("atomic_weight").is_none());
    let err = fails(1, &["solve", "games/kayles.game", "5", "--cool", "1"]);
    assert!(err.contains("takeaway::query::no_cooling"), "{err}");
    let err = fails(1, &["solve", "games/partizan-subtraction.game", "5", "--cool", "1/3"]);
    assert!(err.contains("takeaway::query::invalid"), "{err}");
}

#[test]
fn the_impartial_verbs_refuse_a_partizan_game_and_point_at_its_sides() {
    insta::assert_snapshot!(fails(1, &["quotient", "games/partizan-kayles.game", "--upto", "10"]));
    insta::assert_snapshot!(fails(1, &["compare", "games/partizan-kayles.game", "games/kayles.game", "--upto", "10"]));
}

// ---- mistakes on the command line -------------------------------------------------------------

#[test]
fn bad_positions_point_at_the_position() {
    insta::assert_snapshot!("not_a_number", fails(1, &["solve", "games/nim.game", "3", "x4", "5"]));
    insta::assert_snapshot!("wrong_count", fails(1, &["solve", "games/wythoff.game", "3", "4", "5"]));
    insta::assert_snapshot!("rows_grow", fails(1, &["solve", "games/chomp.game", "3", "5"]));
    insta::assert_snapshot!("too_large", fails(1, &["solve", "games/nim.game", "99999999999999999999999"]));
    insta::assert_snapshot!("one_pile", fails(1, &["solve", "games/tag.game", "3", "4"]));
}

#[test]
fn usage_errors_exit_2() {
    fails(2, &["solve", "games/nim.game"]);
    fails(2, &["frobnicate"]);
    fails(2, &["table", "games/nim.game", "--upto", "many"]);
    let stderr = fails(2, &["table", "games/tag.game", "--set", "k=abc"]);
    assert!(stderr.contains("not a whole number"), "{stderr}");
}

#[test]
fn a_missing_file_is_a_diagnostic() {
    insta::assert_snapshot!(fails(1, &["check", "games/no-such-game.game"]));
}

#[test]
fn a_state_limit_is_a_diagnostic_not_a_crash() {
    // Refused before the search: its lower bound on the positions is past the limit.
    insta::assert_snapshot!(fails(
        1,
        &["solve", "games/three-pile-wythoff.game", "30", "30", "30", "--max-states", "1000"]
    ));
    // Chomp boards have no such bound: the search stops at the limit and says what it costs.
    insta::assert_snapshot!(fails(
        1,
        &["solve", "games/chomp.game", "9", "9", "9", "9", "9", "9", "9", "9", "--max-states", "1000"]
    ));
}

#[test]
fn a_rule_that_takes_nothing_is_reported_when_it_happens() {
    let dir = std::env::temp_dir().join(format!("takeaway-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("zero.game");
    std::fs::write(&file, "game \"Zero\"\npiles\nmove: take n-5\n").unwrap();
    let stderr = fails(1, &["solve", file.to_str().unwrap(), "5"]);
    assert!(stderr.contains("takeaway::rules::takes_nothing"), "{stderr}");
    assert!(stderr.contains("move: take n-5"), "{stderr}");
    let file = dir.join("overflow.game");
    std::fs::write(&file, "game \"Overflow\"\npiles\nmove: take 1..n*n*n*n*n*n*n*n\n").unwrap();
    let stderr = fails(1, &["solve", file.to_str().unwrap(), "1000"]);
    assert!(stderr.contains("takeaway::eval::overflow"), "{stderr}");
    let file = dir.join("latin1.game");
    std::fs::write(&file, b"game \"Mis\xe8re\"\npiles\nmove: take 1\n").unwrap();
    let stderr = fails(1, &["check", file.to_str().unwrap()]);
    assert!(stderr.contains("not UTF-8"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

// ---- the README and the manual stay true ------------------------------------------------------

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The README and every chapter of the manual (`docs/src/`), with their names.
fn documents() -> Vec<(String, String)> {
    let mut out = vec![("README.md".to_string(), readme())];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let mut chapters: Vec<_> = std::fs::read_dir(&dir)
        .expect("the manual")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    for path in chapters {
        let name = format!("docs/src/{}", path.file_name().expect("a name").to_string_lossy());
        out.push((name, std::fs::read_to_string(&path).expect("a chapter")));
    }
    out
}

/// The manual lists every chapter in its summary, and the README links to each.
#[test]
fn every_chapter_is_in_the_summary_and_linked_from_the_readme() {
    let documents = documents();
    let summary = &documents.iter().find(|(n, _)| n.ends_with("SUMMARY.md")).expect("a summary").1;
    let readme = readme();
    let chapters: Vec<&String> =
        documents.iter().map(|(n, _)| n).filter(|n| n.starts_with("docs/src/") && !n.ends_with("SUMMARY.md")).collect();
    assert!(chapters.len() >= 15, "{chapters:?}");
    for chapter in chapters {
        let file = chapter.trim_start_matches("docs/src/");
        assert!(summary.contains(&format!("]({file})")), "the summary misses {file}");
        assert!(readme.contains(&format!("]({chapter})")), "the README does not link {chapter}");
    }
    assert!(readme.lines().count() <= 250, "the README is {} lines", readme.lines().count());
}

#[test]
fn readme_first_screen_shows_what_the_example_prints() {
    let printed = ok(&["solve", "games/nim.game", "41", "163", "13"]);
    let start = documents().into_iter().filter(|(n, _)| n == "README.md" || n.ends_with("getting-started.md"));
    for (document, text) in start {
        let after = text.split("The first command prints:").nth(1).expect("the output is shown");
        let block = after.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
        assert_eq!(printed, block, "{document}");
        assert!(text.contains("cargo run --profile test -- solve games/nim.game 41 163 13"), "{document}");
        assert!(text.contains("cargo test"), "{document}");
    }
}

/// Every `takeaway …` command the README and the manual show (in shell blocks and inline), run
/// as written: it must succeed, and where its comment quotes the P-positions, print them.
#[test]
fn every_command_in_the_readme_and_the_manual_runs_and_prints_what_it_says() {
    let mut commands: Vec<(String, String, Option<String>)> = Vec::new();
    for (document, text) in documents() {
        let mut in_sh = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_sh = line.starts_with("```sh");
                continue;
            }
            if in_sh && line.starts_with("takeaway ") {
                let (command, comment) = match line.split_once('#') {
                    Some((c, comment)) => (c.trim().to_string(), Some(comment.trim().to_string())),
                    None => (line.trim().to_string(), None),
                };
                commands.push((document.clone(), command, comment));
            }
            for (i, piece) in line.split('`').enumerate() {
                if i % 2 == 1 && piece.starts_with("takeaway ") {
                    commands.push((document.clone(), piece.to_string(), None));
                }
            }
        }
    }
    let mut ran = 0;
    let mut from_readme = 0;
    for (document, command, comment) in commands {
        // Placeholders, sessions, files written, and the record runs (minutes, and checkpoint
        // files) are not run here: `tests/records.rs` runs the short ones.
        // The atlas's own sweeps (an hour) and a cluster's scheduler are not run either.
        let skip = [
            "…",
            "FILE",
            "repl",
            "<",
            " -o ",
            "16777216",
            "POSITION",
            "--checkpoint",
            "0.354",
            "0.376",
            "--scheduler",
            "1048576",
        ];
        if skip.iter().any(|s| command.contains(s)) {
            continue;
        }
        // As the shell reads it: a word in double quotes loses them ("S={1,2,5}").
        let args: Vec<&str> = command.split_whitespace().skip(1).map(|a| a.trim_matches('"')).collect();
        // Prose names a verb alone (`takeaway solve`): only whole commands are run.
        if !args.iter().any(|a| a.ends_with(".game")) && (args.first() != Some(&"sweep") || args.len() < 2) {
            continue;
        }
        let out = ok(&args);
        if let Some(p) = comment.as_deref().and_then(|c| c.strip_prefix("P-positions:")) {
            assert!(out.contains(&format!("P-positions:{p}\n")), "{document}: {command}: says P-positions:{p}\n{out}");
        }
        if let Some(period) = comment.as_deref().and_then(|c| c.strip_prefix("period ")) {
            let (length, from) = period.split_once(" from ").expect("period N from M");
            let from = from.split(',').next().expect("a start");
            let said = format!("period {length} from n = {from}");
            assert!(out.contains(&said), "{document}: {command}: says {said}\n{out}");
        }
        ran += 1;
        from_readme += usize::from(document == "README.md");
    }
    assert!(ran >= 15, "ran {ran} commands");
    assert!(from_readme >= 4, "ran {from_readme} README commands");
}

#[test]
fn every_move_line_in_the_readme_and_the_manual_checks() {
    let mut count = 0;
    for (document, text) in documents() {
        let mut in_code = false;
        // Python's rules are in strings, checked by the Python tests (python/tests/test_readme.py).
        let mut in_python = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_code = !in_code;
                in_python = in_code && line == "```python";
                continue;
            }
            // The web API's examples hold rules inside JSON strings (checked by web/tests/api.rs).
            if !in_code || in_python || line.starts_with("curl ") || line.starts_with("# {") {
                continue;
            }
            // a code line may hold two columns side by side; take each `move:` in it
            for part in line.split("move:").skip(1) {
                let rule = part.split('#').next().unwrap().trim();
                let rule = rule.split("  ").next().unwrap().trim();
                if rule.is_empty() || rule.contains('`') || rule.contains('|') {
                    continue;
                }
                let text = if rule.contains("bite") {
                    format!("rows\nmove: {rule}\n")
                } else if rule.contains("coins") {
                    format!("coins\nmove: {rule}\n")
                } else if rule.contains("from the other") {
                    format!("piles 2\nparam r = 2\nmove: {rule}\n")
                } else if rule.contains("last") {
                    format!("pile\nfirst move: take 1..n-1\nmove: {rule}\n")
                } else if rule.contains("both") {
                    format!("piles 2\nparam k = 3\nmove: {rule}\n")
                } else {
                    format!("piles\nparam k = 3\nmove: {rule}\n")
                };
                if let Err(e) = takeaway_core::load(&text, "readme", &[]) {
                    panic!("{document}: rule `{rule}` does not check: {e:?}");
                }
                count += 1;
            }
        }
    }
    assert!(count >= 10, "found {count} rules");
}

#[test]
fn a_timeout_is_a_diagnostic() {
    // A period run looks for its period as far as its time allows (Splittles' values have none
    // it can prove): the clock stops it, and a program reading JSON is told it was the time.
    let run = takeaway(&["period", "games/splittles.game", "--timeout", "0.3", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let failure: serde_json::Value = serde_json::from_str(&run.stdout).expect("the failure as JSON");
    assert_eq!(failure["kind"], "timeout", "{failure}");
    assert_eq!(failure["code"], "takeaway::period::stopped");
    assert!(run.stderr.contains("ran out of time after 0.3 s"), "{}", run.stderr);
    // The deadline covers reading the game too: one already past stops before the rules are read.
    let stderr = fails(1, &["solve", "games/nim.game", "3", "--timeout", "0"]);
    assert!(stderr.contains("takeaway::solve::timeout"), "{stderr}");
}

#[test]
fn a_missing_file_is_said_in_words_with_the_nearest_game_file() {
    let stderr = fails(1, &["solve", "games/nimm.game", "3"]);
    assert!(stderr.contains("cannot read games/nimm.game: no such file"), "{stderr}");
    assert!(stderr.contains("did you mean games/nim.game?"), "{stderr}");
    // The extension may be left out, as in a product's names.
    assert!(ok(&["solve", "games/nim", "3", "4"]).starts_with("Nim, position 3 4\n"));
}

#[test]
fn hopeless_questions_are_refused_from_an_estimate_with_what_would_help() {
    insta::assert_snapshot!(fails(1, &["solve", "games/lasker-nim.game", "1000000000000", "5"]));
    insta::assert_snapshot!(fails(1, &["table", "games/chomp.game", "--upto", "50"]));
}

#[test]
fn solve_a_draw_in_a_loopy_game() {
    insta::assert_snapshot!(ok(&["solve", "games/take-or-put-back.game", "5"]));
}

#[test]
fn solve_a_loopy_game_json_names_the_draw() {
    let v = json(&["solve", "games/take-or-put-back.game", "1", "2", "--format", "json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["grundy"], serde_json::Value::Null);
    assert_eq!(v["loopy_value"], "∞");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    assert!(!v["drawing_moves"].as_array().unwrap().is_empty());
}

#[test]
fn a_loopy_game_that_grows_for_ever_is_refused_with_the_rule_named() {
    let dir = std::env::temp_dir().join(format!("takeaway-grow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("grows.game");
    std::fs::write(&file, "game \"Grows\"\npile\nmove: take 1..2\nmove: add 1\n").unwrap();
    let file = file.to_string_lossy().into_owned();
    let err = fails(1, &["solve", &file, "5", "--max-states", "8000"]);
    let err = err.replace(&file, "grows.game");
    insta::assert_snapshot!(err);
}

#[test]
fn a_product_position_in_json_is_its_cells_in_pairs() {
    let v = json(&["solve", "games/acrostic-twins.game", "2,3", "4,4", "--format", "json"]);
    assert_eq!(v["cells"], true);
    assert_eq!(v["position"], serde_json::json!([2, 3, 4, 4]));
    // (2, 3) is worth 1 ⊕ 2 = 3 and (4, 4) is worth 0: moving (2, 3) to (2, 2) wins.
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["winning_moves"][0]["to"], serde_json::json!([4, 4, 2, 2]));
    let t = json(&["table", "games/turning-corners.game", "--upto", "4", "--format", "json"]);
    assert_eq!(t["board"], "cells");
    assert_eq!(t["grundy"][2], serde_json::json!([0, 2, 3, 1]));
}

#[test]
fn a_product_position_must_give_cells_whole() {
    let err = fails(1, &["solve", "games/turning-corners.game", "3,5", "4"]);
    assert!(err.contains("takeaway::position::half_cell"), "{err}");
    let err = fails(1, &["solve", "games/turning-corners.game", "3,5", "3,5"]);
    assert!(err.contains("takeaway::position::cell_twice"), "{err}");
    let err = fails(1, &["solve", "games/turning-corners.game", "0,5"]);
    assert!(err.contains("takeaway::position::no_coin_zero"), "{err}");
    // On heaps a cell may repeat, and a cell with a 0 is an empty heap.
    let out = ok(&["solve", "games/acrostic-nim.game", "2,3", "2,3", "0,5"]);
    assert!(out.contains("outcome: P"), "{out}");
}

#[test]
fn an_error_in_a_products_game_points_into_that_games_file() {
    let dir = std::env::temp_dir().join(format!("takeaway-product-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("over.game"), "game \"Overflowing\"\npiles\nmove: take any where n * n * n * n > 0\n")
        .unwrap();
    std::fs::write(dir.join("prod.game"), "acrostic product of \"over\" and \"over\"\n").unwrap();
    let prod = dir.join("prod.game").display().to_string();
    let err = fails(1, &["solve", &prod, "1000000,2"]);
    assert!(err.contains("takeaway::rules::in_product_game"), "{err}");
    assert!(err.contains("over.game:3:22"), "the label is in the game's own file: {err}");
    assert!(err.contains("this overflows when n = 1000000"), "{err}");
    // Small cells are fine.
    assert!(ok(&["solve", &prod, "3,2"]).contains("Grundy value: 4"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_set_parameter_is_given_another_set_with_set() {
    let v = json(&["table", "games/subtraction-set.game", "--upto", "12", "--set", "S={1,2,5}", "--format", "json"]);
    // {1, 2, 5}: every amount is 1 or 2 mod 3, so the P-positions are the multiples of 3.
    assert_eq!(v["p_positions"], serde_json::json!([0, 3, 6, 9, 12]));
    let v = json(&["table", "games/subtraction-set.game", "--upto", "8", "--set", "S={1..3}", "--format", "json"]);
    assert_eq!(v["p_positions"], serde_json::json!([0, 4, 8]));
    insta::assert_snapshot!(fails(1, &["table", "games/subtraction-set.game", "--set", "S=3"]));
    insta::assert_snapshot!(fails(1, &["table", "games/subtraction-set.game", "--set", "S={0,2}"]));
    insta::assert_snapshot!(fails(2, &["table", "games/subtraction-set.game", "--set", "S={1,x}"]));
}

#[test]
fn memory_in_megabytes_sets_the_search_limit() {
    // 1 MB is about 7,500 positions of a search: three-pile Wythoff 12 12 12 fits, and
    // 40 40 40 reaches at least 41³/3! = 11,487.
    ok(&["solve", "games/three-pile-wythoff.game", "12", "12", "12", "--memory", "1"]);
    let err = fails(1, &["solve", "games/three-pile-wythoff.game", "40", "40", "40", "--memory", "1"]);
    // The grid of every triple (68,921) is past 8 for each of them; the search, which values
    // each set of three piles once, is refused from its own bound.
    assert!(err.contains("past the limit of 7489"), "{err}");
    let err =
        fails(2, &["solve", "games/three-pile-wythoff.game", "3", "3", "3", "--memory", "1", "--max-states", "9"]);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn every_limit_diagnostic_is_rendered_with_what_would_help() {
    // The only limit that reads the clock: a deadline already past stops at the first check.
    insta::assert_snapshot!(fails(1, &["solve", "games/grundys-game.game", "1000000", "--timeout", "0.000001"]));
    // A partizan game's canonical forms past the work limit: the values stop, with the reason,
    // and the outcomes go on from the search.
    let out = ok(&["table", "games/partizan-subtraction.game", "--upto", "30", "--max-states", "2000"]);
    let stop = out.lines().find(|l| l.starts_with("values stop at")).expect("the table says where the values stop");
    insta::assert_snapshot!(stop);
    assert!(out.contains("\n30        L  \n") || out.contains("\n30        L\n"), "{out}");
}

#[test]
fn a_set_split_by_the_shell_is_named_with_its_quoted_form() {
    // What bash makes of an unquoted --set S={1,2,5}.
    let stderr = fails(2, &["table", "games/subtraction-set.game", "--set", "S=1", "S=2", "S=5"]);
    assert!(stderr.contains("takeaway::cli::split_set"), "{stderr}");
    assert!(stderr.contains("--set \"S={1,2,5}\""), "{stderr}");
    // Quoted, the set arrives whole: {1, 2, 5} has period 3, its P-positions the multiples of 3.
    let table = json(&["table", "games/subtraction-set.game", "--set", "S={1,2,5}", "--upto", "9", "--format", "json"]);
    assert_eq!(table["grundy"], serde_json::json!([0, 1, 2, 0, 1, 2, 0, 1, 2, 0]));
}

/// `serve` is a feature (in the default build): a build without it says how to build it.
#[cfg(not(feature = "serve"))]
#[test]
fn serve_without_the_feature_says_how_to_build_it() {
    let err = fails(1, &["serve", "--port", "0"]);
    assert!(err.contains("takeaway::serve::not_built"), "{err}");
    assert!(err.contains("cargo run --release --features serve -- serve"), "{err}");
}

/// A server whose stdout is closed (`serve | head -1`, or a reader gone) keeps serving: it
/// died of the broken pipe when it wrote its address.
#[test]
fn serve_keeps_serving_when_its_stdout_is_closed() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .args(["serve", "--port", &port.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    drop(child.stdout.take());
    let body = r#"{"source": "piles\nmove: take any\n", "position": "41 163 13"}"#;
    let mut answer = String::new();
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else { continue };
        let request = format!(
            "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).expect("the request is sent");
        let _ = stream.read_to_string(&mut answer);
        break;
    }
    let still_running = child.try_wait().expect("the server's state").is_none();
    child.kill().ok();
    child.wait().ok();
    assert!(still_running, "the server stopped");
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("\"grundy\":135"), "{answer}");
}

/// Ctrl-C stops `serve` within three seconds even while one client holds a half-sent request
/// and another waits for a slow question: it stops accepting, gives the slow question its grace
/// period, cancels it, and exits 0, saying it is stopping.
#[cfg(feature = "serve")]
#[test]
fn ctrl_c_stops_serve_within_three_seconds() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("the address");
    let address = first.rsplit("http://").next().expect("the address").trim().to_string();
    let mut half_sent = std::net::TcpStream::connect(&address).expect("a connection");
    half_sent.write_all(b"POST /api/solve HTTP/1.1\r\nHost: ").expect("half a request");
    let splittles = std::fs::read_to_string(common::games_dir().join("splittles.game")).expect("a game");
    let body = serde_json::json!({ "source": splittles }).to_string();
    let mut slow = std::net::TcpStream::connect(&address).expect("a connection");
    let request = format!(
        "POST /api/period HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    slow.write_all(request.as_bytes()).expect("the request is sent");
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(signalled.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the server's state") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().ok();
            panic!("serve still runs 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = started.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("stderr");
    assert!(took < Duration::from_secs(3), "serve took {took:?} to stop");
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("stopping"), "{stderr}");
}

/// A server whose questions could never answer is refused before it listens.
#[test]
fn serve_refuses_a_timeout_of_zero() {
    let err = fails(1, &["serve", "--timeout", "0"]);
    assert!(err.contains("takeaway::serve::timeout"), "{err}");
}

/// Ctrl-C (SIGINT) cancels the question: the run ends with its diagnostic and exit code 1,
/// where an uncaught signal would end the process with no word. The run takes seconds; the
/// signal comes a second in, long after the handler is set at start.
#[cfg(unix)]
#[test]
fn ctrl_c_cancels_a_run_with_a_diagnostic() {
    use std::process::{Command, Stdio};
    let args = ["period", "games/octal-0.354.game", "--max-states", "1000000000", "--threads", "1"];
    let child = common::spawn(&args, Stdio::null());
    std::thread::sleep(std::time::Duration::from_secs(1));
    let signalled = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(signalled.success());
    let out = child.wait_with_output().expect("the run ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("takeaway::period::stopped") && stderr.contains("cancelled"), "{stderr}");
}

/// Each verb's help opens with the verb's own line, the one `takeaway --help` lists for it.
/// The verbs build their arguments only when asked for, after their about is set: a doc comment
/// on an argument struct they flatten would take the about over (see `verbs::Verb`).
#[test]
fn each_verb_help_opens_with_its_own_line() {
    let listing = ok(&["--help"]);
    let verbs: Vec<(&str, &str)> = listing
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.trim().split_once(char::is_whitespace))
        .map(|(verb, about)| (verb, about.trim()))
        .filter(|(verb, _)| *verb != "help")
        .collect();
    assert!(verbs.len() >= 10, "{listing}");
    for (verb, about) in verbs {
        let help = ok(&[verb, "--help"]);
        assert_eq!(help.lines().next(), Some(about), "`takeaway {verb} --help`:\n{help}");
    }
}

// ---- the small words ----------------------------------------------------------------------

/// Among any number of piles an emptied pile is no pile: a move reads `to 2 3`, not `to 0 2 3`;
/// and a move to a position written either way is found (`to 0 2 3` and `to 2 3` are one).
#[test]
fn an_emptied_pile_is_left_out_of_where_a_move_leads() {
    let out = ok(&["explain", "games/nim.game", "1", "2", "3"]);
    assert!(out.contains("take 1 from the pile of 1, to 2 3"), "{out}");
    assert!(!out.contains("to 0 "), "{out}");
    let step = json(&["play", "games/nim.game", "1", "2", "3", "--to", "0 2 3", "--format", "json"]);
    assert_eq!(step["you"]["to"], serde_json::json!([2, 3]), "{step}");
    // A pile of its own keeps its 0, and so does a game of a fixed number of piles.
    let one = ok(&["solve", "games/nim.game", "5"]);
    assert!(one.contains("take 5 from the pile of 5, to 0"), "{one}");
}

/// A grid of outcomes says what its dot means.
#[test]
fn the_chomp_grid_has_a_legend() {
    let out = ok(&["table", "games/chomp.game", "--upto", "4"]);
    assert!(out.contains("(P: the player to move loses; ·: an N-position, the player to move wins)"), "{out}");
}

/// `hint` at a P-position names the move that makes the game last longest.
#[test]
fn a_hint_at_a_p_position_names_a_move() {
    let step = json(&["play", "games/tag.game", "8", "--hint", "--format", "json"]);
    assert_eq!(step["hint"]["kind"], "lost", "{step}");
    // TAG(3) from 8: every move loses, and 7, 6 and 5 each take 3 more moves; the first is named.
    assert_eq!(step["hint"]["to"], serde_json::json!([7]), "{step}");
    let text = ok(&["play", "games/tag.game", "8", "--hint"]);
    assert!(text.contains("take 1 from the pile of 8, to 7, keeps the game going longest"), "{text}");
}

/// `plot --thermograph`: each wall drawn through its exact corners, the same as the JSON's,
/// placed on the page by one scale for t and one for x (Left's side, larger x, on the left).
#[test]
fn a_thermograph_is_drawn_through_its_walls_corners() {
    let data = json(&["plot", "games/partizan-one-or-two.game", "--thermograph", "5", "--format", "json"]);
    let th = &data["thermographs"][0];
    // {1 | 0}: Left's wall from (t, x) = (−1, 2) to (½, ½), Right's from (−1, −1); the mast at ½.
    assert_eq!(th["left_wall"], serde_json::json!([["-1", "2"], ["1/2", "1/2"]]));
    assert_eq!(th["right_wall"], serde_json::json!([["-1", "-1"], ["1/2", "1/2"]]));
    assert_eq!((th["mean"].as_str(), th["temperature"].as_str()), (Some("1/2"), Some("1/2")));
    let svg = data["svg"].as_str().expect("the picture");
    let number = |s: &str| -> f64 {
        match s.split_once('/') {
            Some((p, q)) => p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap(),
            None => s.parse().unwrap(),
        }
    };
    let attribute = |line: &str, name: &str| -> String {
        line.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split('"').next()).unwrap_or_default().to_string()
    };
    // (t, x) and the pixel of every corner of both walls.
    let mut pairs: Vec<((f64, f64), (f64, f64))> = Vec::new();
    for line in svg.lines().filter(|l| l.starts_with("<polyline")) {
        let wall = attribute(line, "data-wall");
        let exact: Vec<(String, String)> = attribute(line, "data-corners")
            .split(' ')
            .map(|c| c.split_once(':').map(|(t, x)| (t.to_string(), x.to_string())).expect("t:x"))
            .collect();
        let expected: Vec<(String, String)> =
            serde_json::from_value(th[format!("{wall}_wall")].clone()).expect("corners");
        assert_eq!(exact, expected, "{wall}");
        let pixels: Vec<(f64, f64)> = attribute(line, "points")
            .split(' ')
            .map(|p| p.split_once(',').map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap())).expect("a point"))
            .collect();
        for ((t, x), pixel) in exact.iter().zip(pixels) {
            pairs.push(((number(t), number(x)), pixel));
        }
    }
    assert_eq!(pairs.len(), 4);
    // One scale each way: x grows to the left, t grows up the page.
    let ((t0, x0), (px0, py0)) = pairs[0];
    let ((_, x1), (px1, _)) = *pairs.iter().find(|p| p.0 .1 != x0).expect("two x");
    let ((t2, _), (_, py2)) = *pairs.iter().find(|p| p.0 .0 != t0).expect("two t");
    let (sx, sy) = ((px1 - px0) / (x1 - x0), (py2 - py0) / (t2 - t0));
    assert!(sx < 0.0 && sy < 0.0, "x to the left and t upwards: {sx} {sy}");
    for ((t, x), (px, py)) in pairs {
        assert!((px - (px0 + sx * (x - x0))).abs() < 0.02 && (py - (py0 + sy * (t - t0))).abs() < 0.02);
    }
    // An impartial game has no thermograph to draw.
    let err = fails(1, &["plot", "games/nim.game", "--thermograph", "5"]);
    assert!(err.contains("takeaway::query::no_thermograph"), "{err}");
}

/// Every count reads the way it is typed: `1e2`, `10^2` and `1_00`
/// give the same table as the digits, `--max-states 1e7` is a limit like `10000000`, and what
/// is not a whole number says how to write one.
#[test]
fn counts_read_as_a_user_types_them() {
    let digits = ok(&["table", "games/kayles.game", "--upto", "100", "--format", "csv"]);
    for typed in ["1e2", "10^2", "1_00", "100"] {
        assert_eq!(ok(&["table", "games/kayles.game", typed, "--format", "csv"]), digits, "{typed}");
    }
    let limited =
        |max: &str| json(&["solve", "games/wythoff.game", "30", "40", "--max-states", max, "--format", "json"]);
    assert_eq!(limited("1e7"), limited("10000000"));
    assert_eq!(limited("1e7")["outcome"], limited("1,000,000")["outcome"]);
    for (typed, said) in [("1.5", "is not a count"), ("1e-3", "has no fraction"), ("2^70", "past the largest count")] {
        let stderr = fails(2, &["table", "games/kayles.game", "--upto", typed]);
        assert!(stderr.contains(said), "{typed}: {stderr}");
        assert!(stderr.contains("1e6 or 10^6") || said == "past the largest count", "{typed}: {stderr}");
    }
    let stderr = fails(2, &["solve", "games/nim.game", "3", "--threads", "1e6"]);
    assert!(stderr.contains("past the largest count"), "{stderr}");
}
