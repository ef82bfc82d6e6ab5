//! Periods found in a window: the latest values as the state of a machine, its first repeat
//! found by Brent's cycle detection (`period --window`), against the published periods and the
//! run that keeps every value.

use crate::common;

use takeaway_core::answers::PeriodReport;
use takeaway_core::errors::PeriodError;
use takeaway_core::{Answer, Error, PeriodArgs, Request};

const OCTAL_016: &str = "game \"0.16\"\npiles\nmove: octal 0.16\n";

fn window_run(
    text: &str,
    upto: u64,
    window: u64,
    checkpoint: Option<&std::path::Path>,
) -> Result<PeriodReport, String> {
    let game = common::loaded(text);
    let args = PeriodArgs { upto, checkpoint: checkpoint.map(|p| p.to_path_buf()), window: Some(window) };
    match common::ask(&game, &Request::Period(args)) {
        Ok(Answer::Period(report)) => Ok(report),
        Ok(other) => panic!("{other:?}"),
        Err(failure) => Err(format!("{failure:?}")),
    }
}

#[test]
fn a_window_finds_the_published_period_of_0_16() {
    // 0.16: period 149,459 from a preperiod of 105,351 (Flammenkamp's table), found here as the
    // first repeat of a window of 32,768 values, which starts at pile 98,302, before the
    // preperiod; and the run that keeps every value proves the same by Guy and Smith's theorem.
    let report = window_run(OCTAL_016, 1 << 30, 32_768, None).expect("found");
    assert_eq!(report.proven, Some((105_351, 149_459)));
    assert!(report.theorem.contains("Brent"), "{}", report.theorem);
    let window = report.window.as_ref().expect("a window's report");
    assert_eq!((window.window, window.prefix, window.rare, window.start), (32_768, 32_766, 52, 98_302));
    let game = common::loaded(OCTAL_016);
    let kept = match common::ask(&game, &Request::Period(PeriodArgs { upto: 1 << 20, checkpoint: None, window: None }))
    {
        Ok(Answer::Period(report)) => report,
        other => panic!("{other:?}"),
    };
    assert_eq!(kept.proven, report.proven);
}

#[test]
fn a_preperiod_before_the_machines_start_is_found_among_the_values_before_it() {
    // A window of 65,536 starts the machine at pile 196,606: its states repeat from its first,
    // and the preperiod comes from comparing the values before it with those a period later.
    let report = window_run(OCTAL_016, 1 << 30, 65_536, None).expect("found");
    assert_eq!(report.proven, Some((105_351, 149_459)));
    assert_eq!(report.window.as_ref().map(|w| w.start), Some(196_606));
}

#[test]
fn a_search_stopped_and_resumed_from_its_checkpoint_finds_the_same() {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("0.16.window");
    // Three stretches: to pile 200,000 (looking for the period), to 400,000, then to the end.
    let first = window_run(OCTAL_016, 200_000, 32_768, Some(&path)).expect("runs");
    assert_eq!(first.proven, None);
    assert!(first.computed >= 200_000 && first.computed < 200_000 + (1 << 16), "{}", first.computed);
    assert!(path.exists());
    let second = window_run(OCTAL_016, 400_000, 32_768, Some(&path)).expect("runs");
    assert_eq!(second.resumed_at, Some(first.computed));
    assert_eq!(second.proven, None);
    let last = window_run(OCTAL_016, 1 << 30, 32_768, Some(&path)).expect("found");
    assert_eq!(last.proven, Some((105_351, 149_459)));
    let whole = window_run(OCTAL_016, 1 << 30, 32_768, None).expect("found");
    assert_eq!(last.window.as_ref().map(|w| w.steps), whole.window.as_ref().map(|w| w.steps));
    // Another window's run refuses the checkpoint rather than use it.
    let other = window_run(OCTAL_016, 1 << 30, 40_000, Some(&path)).expect_err("refused");
    assert!(other.contains("Corrupt") && other.contains("window of 32768"), "{other}");
    // A byte changed is caught by the checksum.
    let mut bytes = std::fs::read(&path).expect("reads");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).expect("writes");
    let changed = window_run(OCTAL_016, 1 << 30, 32_768, Some(&path)).expect_err("refused");
    assert!(changed.contains("checksum"), "{changed}");
}

#[test]
fn a_window_too_short_for_a_witness_says_where_it_stopped() {
    // 0.16 needs witnesses deeper than a prefix of 16,381 by pile 55,290.
    let game = common::loaded(OCTAL_016);
    let args = PeriodArgs { upto: 1 << 30, checkpoint: None, window: Some(16_384) };
    let failure = common::ask(&game, &Request::Period(args)).expect_err("stopped");
    match failure.errors.first() {
        Some(Error::Period(PeriodError::WindowStuck { pile: 55_290, .. })) => {}
        other => panic!("{other:?}"),
    }
    // A rare value past the prefix: refused before any step.
    let args = PeriodArgs { upto: 1 << 30, checkpoint: None, window: Some(8_192) };
    let failure = common::ask(&game, &Request::Period(args)).expect_err("refused");
    match failure.errors.first() {
        Some(Error::Period(PeriodError::WindowStart { reason, .. })) => assert!(reason.contains("13,935"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_committed_search_of_0_106_found_flammenkamps_period() {
    // docs/records/octal-0.106.window is the finished state of the search for Flammenkamp's
    // largest period: a copy of it, read and checked against the game and the window, gives the
    // period and the preperiod he published (OEIS A071458), which the game file's header states.
    let text = std::fs::read_to_string(common::repository_file("docs/records/octal-0.106.game")).expect("the game");
    assert!(text.replace(',', "").contains("period 328226140474 from a preperiod of 465384263797"));
    let dir = tempfile::tempdir().expect("a folder");
    let copy = dir.path().join("0.106.window");
    std::fs::copy(common::repository_file("docs/records/octal-0.106.window"), &copy).expect("a copy");
    let report = window_run(&text, 1 << 40, 16_384, Some(&copy)).expect("read");
    assert_eq!(report.proven, Some((465_384_263_797, 328_226_140_474)));
    assert!(report.resumed_at.is_some_and(|at| at > 465_384_263_797), "{:?}", report.resumed_at);
    let window = report.window.expect("a window's report");
    assert_eq!((window.prefix, window.rare, window.start), (16_381, 15, 49_149));
}

#[test]
fn a_game_without_splits_needs_no_classes_and_one_without_a_bounded_take_is_refused() {
    // Take 1, 3 or 4: the values 0 1 0 1 2 3 2 3 … repeat with period 7 from 0, as the
    // subtraction-game theorem proves; the window's states repeat from the machine's start, and
    // the preperiod comes from the values before it.
    let report = window_run("game \"S\"\npiles\nmove: take {1, 3, 4}\n", 1 << 20, 16, None).expect("found");
    assert_eq!(report.proven, Some((0, 7)));
    let nim = window_run("game \"Nim\"\npiles\nmove: take 1..n\n", 1 << 20, 64, None).expect_err("refused");
    assert!(nim.contains("WindowStart") && nim.contains("fixed amount"), "{nim}");
}
