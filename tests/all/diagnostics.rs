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
