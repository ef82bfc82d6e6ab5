//! `takeaway sweep` through the built binary: the rows as text, CSV and JSON lines, a rerun that
//! skips the games done, its diagnostics, and `--scheduler` handing the same request to Python.

use crate::common::{scratch_dir, takeaway};

#[test]
fn sweep_prints_a_line_a_game_and_a_summary() {
    let run = takeaway(&["sweep", "--codes", "0.77,0.137,0.6", "--upto", "4096"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("0.77") && l.contains("period 12 from 71")), "{}", run.stdout);
    assert!(lines.iter().any(|l| l.starts_with("0.137") && l.contains("period 34 from 52")), "{}", run.stdout);
    assert!(lines.iter().any(|l| l.starts_with("0.6") && l.contains("open to 4096 values")), "{}", run.stdout);
    assert_eq!(
        lines.last().copied(),
        Some("3 games: 2 proven, 1 open, 0 stopped, 0 refused; 0 with the same values as an earlier one")
    );
}

#[test]
fn sweep_rows_go_to_a_file_that_a_rerun_goes_on_from() {
    let dir = scratch_dir().join("sweep-rows");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let out = dir.join("rows.csv");
    let out_text = out.to_str().expect("a path");
    let first = takeaway(&["sweep", "--octal", "1", "--leading", "0", "--upto", "1024", "-o", out_text]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let csv = std::fs::read_to_string(&out).expect("the rows");
    assert!(csv.starts_with("game,status,preperiod,period,saltus,values_needed,values_computed,"));
    assert_eq!(csv.lines().count(), 8);
    assert!(csv.lines().any(|l| l.starts_with("0.4,proven,54,34,0,")), "{csv}");
    let again = takeaway(&["sweep", "--octal", "1", "--leading", "0", "--upto", "1024", "-o", out_text]);
    assert!(again.stdout.contains("(7 read from it, not run again)"), "{}", again.stdout);
    assert!(!again.stdout.contains("0.4 "), "no game run again: {}", again.stdout);
    let json = takeaway(&["sweep", "--codes", "0.77", "--upto", "1024", "--format", "json"]);
    let row: serde_json::Value = serde_json::from_str(json.stdout.trim()).expect("a JSON line");
    assert_eq!((row["preperiod"].as_u64(), row["period"].as_u64()), (Some(71), Some(12)));
}

#[test]
fn sweep_of_a_game_files_parameter() {
    let run = takeaway(&[
        "sweep",
        "games/subtraction-set.game",
        "--each",
        "S={1,2,5}",
        "--each",
        "S={1,3,4}",
        "--upto",
        "500",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // {1,3,4}: 0 1 0 1 2 3 2, then again: period 7 from 0 (Winning Ways).
    assert!(run.stdout.contains("S={1, 3, 4} period 7 from 0"), "{}", run.stdout);
}

#[test]
fn sweep_mistakes_are_diagnostics() {
    let run = takeaway(&["sweep", "--octal", "9"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("takeaway::query::invalid") && run.stderr.contains("give 1 to 6"), "{}", run.stderr);
    let run = takeaway(&["sweep"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("name the family"), "{}", run.stderr);
    let run = takeaway(&["sweep", "--codes", "0.77", "-o", "/"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("takeaway::sweep::not_a_file") && run.stderr.contains("it is a folder"),
        "{}",
        run.stderr
    );
    let run = takeaway(&["sweep", "--codes", "0.77", "-o", "/no/such/folder/rows.csv"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("takeaway::sweep::write"), "{}", run.stderr);
    let run = takeaway(&["sweep", "games/nim.game", "games/kayles.game", "--each", "k=1..3"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("exactly one file"), "{}", run.stderr);
}

#[test]
fn sweep_on_a_scheduler_hands_the_same_request_to_python() {
    // A stand-in interpreter that prints what it was given: the request in the engine's schema.
    let dir = scratch_dir().join("sweep-python");
    let _ = std::fs::create_dir_all(&dir);
    let fake = dir.join("python");
    std::fs::write(&fake, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n").expect("written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("executable");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .env("TAKEAWAY_PYTHON", &fake)
        .args(["sweep", "--octal", "2", "--upto", "4096", "--scheduler", "tcp://127.0.0.1:8786", "--timeout", "5"])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let args: Vec<&str> = said.lines().collect();
    // `-I` first: the current folder is not on the helper's import path (Python's test plants a
    // module there and sees it is not run).
    assert_eq!(&args[..7], ["-I", "-m", "takeaway._sweep", "--scheduler", "tcp://127.0.0.1:8786", "--format", "text"]);
    assert_eq!(args[7], "--request");
    let request: serde_json::Value = serde_json::from_str(args[8]).expect("JSON");
    assert_eq!(request, serde_json::json!({"octal": 2, "upto": 4096}));
    let budget: serde_json::Value = serde_json::from_str(args[10]).expect("JSON");
    assert_eq!(budget["timeout"], 5.0);
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .env("TAKEAWAY_PYTHON", dir.join("no-such-python"))
        .args(["sweep", "--octal", "2", "--scheduler", "tcp://127.0.0.1:8786"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("takeaway::sweep::no_python"));
}

#[test]
fn the_manual_shows_what_the_first_sweep_prints() {
    let chapter = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/atlas.md"))
        .expect("the chapter");
    let shown = chapter.split("```text\n").nth(1).and_then(|t| t.split("```").next()).expect("a text block");
    let run = takeaway(&["sweep", "--codes", "0.07,0.77,0.137", "--upto", "4096"]);
    assert_eq!(run.stdout, shown);
}
