//! Record-length runs (`takeaway period`): the published periods of octal games, checkpoints
//! that resume to the same answer and refuse what is not theirs, and threads that never change
//! a value.

use crate::common;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use takeaway_core::analysis::period_search::{period_search, PeriodQuestion};
use takeaway_core::solve::fnv::{fnv1a, FNV_START};
use takeaway_core::solve::{kernel_values, Limits, SparseMode};

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
fn short_periods_are_proven_from_the_values_they_need() {
    // Dawson's chess (0.137: period 34 from 52) and Kayles (0.77: period 12 from 71, Guy and
    // Smith): the run looks for a period early, so it computes 2n₀ + 2p + t values, not thousands.
    for (code, preperiod, period) in [("0.137", 52u64, 34u64), ("0.77", 71, 12)] {
        let game = common::game_text(&format!("game \"{code}\"\npiles\nmove: octal {code}\n"));
        let question = PeriodQuestion { upto: 1 << 20, checkpoint: None };
        let report = period_search(&game, &question, &Limits::default()).expect("a run");
        assert_eq!(report.proven, Some((preperiod, period)), "{code}");
        let t = code.len() as u64 - 2;
        assert_eq!(report.computed, 2 * preperiod + 2 * period + t, "{code}");
    }
}

#[test]
fn a_subtraction_game_is_proven_by_its_window_theorem() {
    // Take 1, 3 or 4: the values 0 1 0 1 2 3 2 3 … repeat with period 7 from 0.
    let game = common::game_text("game \"S\"\npiles\nmove: take {1, 3, 4}\n");
    let question = PeriodQuestion { upto: 1 << 20, checkpoint: None };
    let report = period_search(&game, &question, &Limits::default()).expect("a run");
    assert_eq!(report.proven, Some((0, 7)));
    assert!(report.theorem.starts_with("the subtraction-game theorem"));
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
    let file = "games/octal-0.165.game";
    let uninterrupted = json(&takeaway(&["period", file, "--format", "json", "--checkpoint", path_str(&whole)]));

    // A time limit of 0 stops the run at its first look at the clock, after 1024 values. (Run in
    // the scratch folder, so that the diagnostic names a path of the same length everywhere.)
    let run = takeaway_in(&dir, &["period", &game_path(file), "--timeout", "0", "--checkpoint", "stopped.ckpt"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("stopped", run.stderr);
    let resumed = json(&takeaway(&["period", file, "--format", "json", "--checkpoint", path_str(&stopped)]));
    assert_eq!(resumed["resumed_at"], 1024);
    for key in ["preperiod", "period", "values_computed", "largest_value"] {
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

/// A random octal code of three digits, at least one of which splits.
fn octal_code() -> impl Strategy<Value = String> {
    (0u8..8, 0u8..8, 4u8..8, 0usize..3).prop_map(|(a, b, c, rotate)| {
        let mut digits = [a, b, c];
        digits.rotate_left(rotate);
        format!("0.{}{}{}", digits[0], digits[1], digits[2])
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn two_threads_give_the_values_of_one(code in octal_code(), mode in 0usize..2) {
        // Every pile's work is shared (from 1 option on), past the sparse-space switch at 4096.
        let game = common::game_text(&format!("game \"x\"\npiles\nmove: octal {code}\n"));
        let sparse = [SparseMode::Auto, SparseMode::Never][mode];
        let one = kernel_values(&game, 6000, 1, 1, sparse, None).expect("octal codes compile");
        let two = kernel_values(&game, 6000, 2, 1, sparse, None).expect("octal codes compile");
        prop_assert_eq!(one.0, two.0);
        prop_assert_eq!(one.1, two.1);
        // The memory a report states (the block of tables scanned ahead is the second thread's).
        prop_assert_eq!(one.2, two.2);
    }
}

/// Under the sparse-space method a second thread marks each block's rare options ahead (from
/// pile 4096 on, 256 piles a block): the values and the options counted (the budget's measure)
/// are those of one thread, over many blocks, across the mask's re-choice at 8192 and 16384.
#[test]
fn the_second_threads_marks_ahead_change_neither_values_nor_work() {
    for rules in ["move: split unequal", "move: octal 0.165", "move: octal 0.16", "move: octal 0.56"] {
        let game = common::game_text(&format!("game \"x\"\npiles\n{rules}\n"));
        let one = kernel_values(&game, 20000, 1, usize::MAX, SparseMode::Auto, None).expect("compiles");
        let two = kernel_values(&game, 20000, 2, usize::MAX, SparseMode::Auto, None).expect("compiles");
        assert_eq!(one.0, two.0, "{rules}: values");
        assert_eq!(one.1, two.1, "{rules}: options counted");
        assert_eq!(one.2, two.2, "{rules}: memory reported");
    }
}

/// The same in a window that keeps the piles below 4096 and the latest 4096 (dropping those
/// between from pile 12288 on), for two codes whose witnesses stay in such a window, and against
/// the definition: the mex over every move the code's digits allow.
#[test]
fn the_second_threads_marks_ahead_in_a_window_are_those_of_one_thread() {
    for code in [&[0u8, 5, 6][..], &[0, 6, 7, 6]] {
        let text = code.iter().skip(1).map(|d| d.to_string()).collect::<String>();
        let game = common::game_text(&format!("game \"x\"\npiles\nmove: octal 0.{text}\n"));
        let window = Some((4096, 4096));
        let one = kernel_values(&game, 16000, 1, usize::MAX, SparseMode::Auto, window).expect("the window holds");
        let two = kernel_values(&game, 16000, 2, usize::MAX, SparseMode::Auto, window).expect("the window holds");
        assert_eq!(one, two, "0.{text}");
        assert_eq!(two.0, by_definition(code, one.0.len(), false), "0.{text}");
    }
}

/// The values of piles 0..upto by the definition: the mex over every move the octal code's
/// digits allow (`unequal`: a split into two equal parts is not one).
fn by_definition(code: &[u8], upto: usize, unequal: bool) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(upto);
    let mut reached = vec![false; 1024];
    for n in 0..upto {
        reached.iter_mut().for_each(|r| *r = false);
        // (code[0] is the digit of taking nothing: only a split may, as in Grundy's game)
        for (t, &digit) in code.iter().enumerate().filter(|&(t, _)| t <= n) {
            let rest = n - t;
            if digit & 1 != 0 && rest == 0 && t > 0 {
                reached[0] = true;
            }
            if digit & 2 != 0 && rest > 0 && t > 0 {
                reached[values[rest] as usize] = true;
            }
            if digit & 4 != 0 {
                let top = if unequal { (rest.max(1) - 1) / 2 } else { rest / 2 };
                for a in 1..=top {
                    reached[(values[a] ^ values[rest - a]) as usize] = true;
                }
            }
        }
        values.push(reached.iter().position(|&r| !r).expect("values stay small") as u32);
    }
    values
}

/// Past pile 4096 under the sparse-space method, in games whose moves never leave one heap, the
/// witnesses of each block's rare values are looked for ahead, from the values below the block
/// before (by the second thread, or by this one for the piles it leaves): the values are those
/// of the definition, with one thread and with two, and so is the work counted.
#[test]
fn witnesses_found_ahead_give_the_values_of_the_definition() {
    for (rules, code, unequal) in [
        ("move: split unequal", &[4u8][..], true),
        ("move: octal 0.054", &[0, 0, 5, 4], false),
        ("move: octal 0.144", &[0, 1, 4, 4], false),
    ] {
        assert_one_and_two_threads_give_the_definition(rules, (code, unequal), 12000, None);
    }
}

/// The values of piles 0..upto with one thread and with two (in `window`, if given) are the
/// same, with the same work counted, and those of the definition.
fn assert_one_and_two_threads_give_the_definition(
    rules: &str,
    (code, unequal): (&[u8], bool),
    upto: u64,
    window: Option<(usize, usize)>,
) {
    let game = common::game_text(&format!("game \"x\"\npiles\n{rules}\n"));
    let one = kernel_values(&game, upto, 1, usize::MAX, SparseMode::Auto, window).expect("the window holds");
    let two = kernel_values(&game, upto, 2, usize::MAX, SparseMode::Auto, window).expect("the window holds");
    assert_eq!(one, two, "{rules}");
    assert_eq!(one.0, by_definition(code, upto as usize, unequal), "{rules}");
}

/// The same in windows that keep the piles below 4096 and at least the latest 4096, where
/// witnesses are looked for ahead once a block's partners stay among those and no pair of parts
/// both past the prefix is kept (from pile 16,640 on).
#[test]
fn witnesses_found_ahead_in_a_window_give_the_values_of_the_definition() {
    for (rules, code, unequal) in [
        ("move: octal 0.054", &[0u8, 0, 5, 4][..], false),
        ("move: octal 0.144", &[0, 1, 4, 4], false),
        ("move: octal 0.44", &[0, 4, 4], false),
    ] {
        assert_one_and_two_threads_give_the_definition(rules, (code, unequal), 30000, Some((4096, 4096)));
    }
}

/// Grundy's game in the window the solver would keep (its last rare pile is 82,860, so 88,000
/// recent piles hold every partner of a rare part): from pile 352,000 on a block's witnesses are
/// looked for ahead among pairs with a part in the prefix; the values are those of the whole
/// table, with one thread and with two, and so is the work counted.
#[test]
fn witnesses_found_ahead_in_grundys_games_window_give_the_values_of_the_whole_table() {
    let game = common::game_text("game \"x\"\npiles\nmove: split unequal\n");
    let whole = kernel_values(&game, 400_000, 1, usize::MAX, SparseMode::Auto, None).expect("compiles");
    let window = Some((8192, 88_000));
    let one = kernel_values(&game, 400_000, 1, usize::MAX, SparseMode::Auto, window).expect("the window holds");
    let two = kernel_values(&game, 400_000, 2, usize::MAX, SparseMode::Auto, window).expect("the window holds");
    assert_eq!(one, two);
    assert_eq!(one.0, whole.0);
}
