//! Every bad game file in `tests/bad/` fails `takeaway check` with exit code 1, and its
//! rendered diagnostic (what the user sees) is kept as a snapshot.

use std::process::Command;

fn check(relative: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(["check", relative])
        .output()
        .expect("the binary runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn every_bad_game_file_gets_a_rendered_diagnostic() {
    let mut count = 0;
    insta::glob!("bad/*.game", |path| {
        let name = path.file_name().unwrap().to_string_lossy();
        let (code, stderr) = check(&format!("tests/all/bad/{name}"));
        assert_eq!(code, 1, "{name}: `check` exits 1 on a bad game");
        assert!(stderr.contains("takeaway::"), "{name}: a diagnostic with a code");
        assert!(stderr.contains("help:"), "{name}: a diagnostic with a help line");
        assert!(!stderr.contains("panicked"), "{name}: no panic");
        insta::assert_snapshot!(stderr);
        count += 1;
    });
    assert!(count >= 12, "at least 12 distinct mistakes are covered");
}

#[test]
fn parse_errors_never_name_grammar_rules() {
    insta::glob!("bad/*.game", |path| {
        let name = path.file_name().unwrap().to_string_lossy();
        let (_, stderr) = check(&format!("tests/all/bad/{name}"));
        let words: Vec<&str> = stderr.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        for word in words {
            let rule_like = word.starts_with("kw_")
                || ["arith", "choice_set", "pile_choice", "EOI", "move_decl", "where_clause", "eol"].contains(&word);
            assert!(!rule_like, "{name}: the message names the grammar rule {word}");
        }
    });
}

#[test]
fn a_good_game_checks_silently() {
    let (code, stderr) = check("games/fibonacci-nim.game");
    assert_eq!(code, 0);
    assert_eq!(stderr, "");
}

/// The phrasings teachers write (the teacher's trial of the engine issue): each file's
/// diagnostic has help that shows the language's way to say it.
#[test]
fn each_teachers_phrasing_is_shown_the_languages_way() {
    for (name, way) in [
        ("square-number", "`take any where square(t)`"),
        ("squares", "`take any where square(t)`"),
        ("k-squared", "`take any where square(t)`"),
        ("dots", "the squares are `take any where square(t)`"),
        ("up-to", "`take ≤ 2*last`"),
        ("number-against-name", "`2*last`"),
        ("adjacent", "`take 1 or 2, then split`"),
        ("same-from-both", "`take any from both piles`"),
        ("k-from-both", "`take any from both piles`"),
        ("left-colon", "`left move: take 1 or 2`"),
        ("then-split-no-comma", "`take 1..2, then split`"),
        ("param-set", "`param S = {1, 3, 4}`"),
    ] {
        let (code, stderr) = check(&format!("tests/all/bad/phrasing-{name}.game"));
        assert_eq!(code, 1, "{name}");
        let help = stderr.split("help:").nth(1).unwrap_or_else(|| panic!("{name}: no help in {stderr}"));
        // The help is wrapped to the terminal's width: compared with its lines joined.
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(way), "{name}: {help}");
    }
    // Where a rule may start, a player's rule is among the words expected.
    let (_, stderr) = check("tests/all/bad/phrasing-left-colon.game");
    assert!(stderr.contains("`left move:` or `right move:`"), "{stderr}");
}
