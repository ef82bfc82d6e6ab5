//! Record-length runs (`takeaway period`): the published periods of octal games, checkpoints
//! that resume to the same answer and refuse what is not theirs, and threads that never change
//! a value.

use crate::common;

use std::path::{Path, PathBuf};

use takeaway_core::internals::{fnv1a, FNV_START};

use common::{takeaway, takeaway_in, Run};

fn json(run: &Run) -> serde_json::Value {
    assert_eq!(run.code, 0, "failed:\n{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("JSON")
}

/// A folder of its own for each test's checkpoints.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("takeaway-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn the_published_periods_of_octal_games_are_proven() {
    // Gangolli and Plambeck (0.16, 0.56, 0.127) and Austin (0.165): (code, preperiod, period).
    for (code, preperiod, period) in
        [("0.16", 105_351, 149_459), ("0.56", 326_640, 144), ("0.127", 46_578, 4), ("0.165", 5_181, 1_550)]
    {
        let file = format!("games/octal-{code}.game");
        let report = json(&takeaway(&["period", &file, "--format", "json"]));
        assert_eq!(report["proven"], true, "{code}");
        assert_eq!(report["preperiod"], preperiod, "{code}");
        assert_eq!(report["period"], period, "{code}");
        // The run stops as soon as Guy and Smith's theorem holds: 2n₀ + 2p + t values.
        let t = code.len() as u64 - 2;
        assert_eq!(report["values_computed"], 2 * preperiod + 2 * period + t, "{code}");
        assert_eq!(report["bytes_per_value"], 1, "{code}: the values fit a byte each");
    }
}

#[test]
fn a_run_that_stops_short_says_what_the_values_suggest() {
    let run = takeaway(&["period", "games/octal-0.16.game", "--upto", "400000"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn games_without_a_theorem_are_refused_with_the_rules_named() {
    let grundy = takeaway(&["period", "games/grundys-game.game"]);
    assert_eq!(grundy.code, 1);
    insta::assert_snapshot!("no_theorem", grundy.stderr);
    let misere = takeaway(&["period", "games/misere-kayles.game"]);
    assert_eq!(misere.code, 1);
    assert!(misere.stderr.contains("takeaway::period::misere"), "{}", misere.stderr);
}

#[test]
fn a_run_stopped_by_its_time_limit_resumes_from_its_checkpoint_to_the_same_answer() {
    let dir = scratch("resume");
    let whole = dir.join("whole.ckpt");
    let stopped = dir.join("stopped.ckpt");
    // 0.376 to a million values: a few seconds, far past the time limit below.
    let (file, upto) = ("games/octal-0.376.game", "1000000");
    let uninterrupted =
        json(&takeaway(&["period", file, "--upto", upto, "--format", "json", "--checkpoint", path_str(&whole)]));

    // A time limit stops the run where the clock says, with the values so far in the
    // checkpoint. (Run in the scratch folder, so that the diagnostic names a short path.)
    let run = takeaway_in(
        &dir,
        &["period", &game_path(file), "--upto", upto, "--timeout", "0.2", "--checkpoint", "stopped.ckpt"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let at: u64 = run
        .stderr
        .split("stopped at pile ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("where the run stopped: {}", run.stderr));
    insta::assert_snapshot!("stopped", run.stderr.replace(&at.to_string(), "N"));
    let resumed =
        json(&takeaway(&["period", file, "--upto", upto, "--format", "json", "--checkpoint", path_str(&stopped)]));
    assert_eq!(resumed["resumed_at"], at);
    for key in ["values_computed", "largest_value"] {
        assert_eq!(resumed[key], uninterrupted[key], "{key}");
    }
    // Both end with the same values and the same state of the method, byte for byte.
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&stopped).unwrap());
}

#[test]
fn a_checkpoint_resumed_past_the_sparse_switch_matches_the_uninterrupted_run() {
    // Stopped at 200,000 values (the sparse-space method in use), then run to the proof.
    let dir = scratch("sparse");
    let (whole, part) = (dir.join("whole.ckpt"), dir.join("part.ckpt"));
    let file = "games/octal-0.16.game";
    let first = json(&takeaway(&["period", file, "--format", "json", "--checkpoint", path_str(&whole)]));
    let short =
        json(&takeaway(&["period", file, "--format", "json", "--upto", "200000", "--checkpoint", path_str(&part)]));
    assert_eq!(short["proven"], false);
    assert_eq!(short["method"], "sparse space");
    let rest = json(&takeaway(&["period", file, "--format", "json", "--checkpoint", path_str(&part)]));
    assert_eq!(rest["resumed_at"], 200_000);
    assert_eq!(
        (rest["preperiod"].clone(), rest["period"].clone()),
        (first["preperiod"].clone(), first["period"].clone())
    );
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&part).unwrap());
}

/// Writes a checkpoint of 0.165's first 5,000 values and returns its path and bytes.
fn a_checkpoint(dir: &Path) -> (PathBuf, Vec<u8>) {
    let path = dir.join("good.ckpt");
    let run = takeaway(&["period", "games/octal-0.165.game", "--upto", "5000", "--checkpoint", path_str(&path)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&path).expect("written");
    (path, bytes)
}

/// A game file of the project, as a path from anywhere.
fn game_path(relative: &str) -> String {
    format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"))
}

/// What `period` says about a checkpoint file `name` of `dir` with these bytes, for `game`
/// (run in `dir`, so that the diagnostic names the same short path everywhere).
fn refused(dir: &Path, name: &str, bytes: &[u8], game: &str) -> String {
    std::fs::write(dir.join(name), bytes).unwrap();
    let run = takeaway_in(dir, &["period", &game_path(game), "--checkpoint", name]);
    assert_eq!(run.code, 1, "{name}: refused\n{}", run.stdout);
    assert!(!run.stderr.contains("panicked"), "{name}");
    run.stderr
}

#[test]
fn bad_checkpoints_are_refused_never_used() {
    let dir = scratch("bad");
    let (_, good) = a_checkpoint(&dir);

    // Another game's.
    let other = refused(&dir, "other.ckpt", &good, "games/octal-0.16.game");
    insta::assert_snapshot!("other_game", other);

    // Cut short, anywhere.
    for cut in [good.len() - 1, good.len() / 2, 40, 3] {
        let said = refused(&dir, "cut.ckpt", &good[..cut], "games/octal-0.165.game");
        let code = if cut < 27 { "not_a_checkpoint" } else { "corrupt" };
        assert!(said.contains(&format!("takeaway::checkpoint::{code}")), "cut at {cut}: {said}");
    }
    insta::assert_snapshot!("truncated", refused(&dir, "cut.ckpt", &good[..good.len() / 2], "games/octal-0.165.game"));

    // One flipped byte, wherever it is: the header, the values, the method or the checksum.
    for at in [30, 60, good.len() / 2, good.len() - 20, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let said = refused(&dir, "flipped.ckpt", &bad, "games/octal-0.165.game");
        assert!(said.contains("takeaway::checkpoint::corrupt"), "byte {at}: {said}");
    }

    // Another version's, with a checksum of its own that holds.
    let version = env!("CARGO_PKG_VERSION");
    let at = good.windows(version.len()).position(|w| w == version.as_bytes()).expect("the version is written");
    let mut old = good.clone();
    old[at..at + version.len()].copy_from_slice(&"9".repeat(version.len()).into_bytes());
    let body = old.len() - 8;
    let sum = fnv1a(FNV_START, &old[..body]);
    old[body..].copy_from_slice(&sum.to_le_bytes());
    insta::assert_snapshot!("version", refused(&dir, "old.ckpt", &old, "games/octal-0.165.game"));

    // Not a checkpoint at all.
    let said = refused(&dir, "text.ckpt", b"# a game file, not a checkpoint\n", "games/octal-0.165.game");
    assert!(said.contains("takeaway::checkpoint::not_a_checkpoint"), "{said}");
}
