//! Long runs of one pile's values: periods proven from the values they need, and threads and
//! windows that never change a value.

use crate::common;

use proptest::prelude::*;
use takeaway_core::answers::PeriodReport;
use takeaway_core::internals::{kernel_values, SparseMode};
use takeaway_core::{Answer, PeriodArgs, Request};

/// The period run of game text, to at most 2^20 values.
fn period_run(text: &str) -> PeriodReport {
    let game = common::loaded(text);
    match common::ask(&game, &Request::Period(PeriodArgs { upto: 1 << 20, checkpoint: None, window: None })) {
        Ok(Answer::Period(report)) => report,
        other => panic!("{other:?}"),
    }
}

#[test]
fn short_periods_are_proven_from_the_values_they_need() {
    // Dawson's chess (0.137: period 34 from 52) and Kayles (0.77: period 12 from 71, Guy and
    // Smith): the run looks for a period early, so it computes 2n₀ + 2p + t values, not thousands.
    for (code, preperiod, period) in [("0.137", 52u64, 34u64), ("0.77", 71, 12)] {
        let report = period_run(&format!("game \"{code}\"\npiles\nmove: octal {code}\n"));
        assert_eq!(report.proven, Some((preperiod, period)), "{code}");
        let t = code.len() as u64 - 2;
        assert_eq!(report.computed, 2 * preperiod + 2 * period + t, "{code}");
    }
}

#[test]
fn a_subtraction_game_is_proven_by_its_window_theorem() {
    // Take 1, 3 or 4: the values 0 1 0 1 2 3 2 3 … repeat with period 7 from 0.
    let report = period_run("game \"S\"\npiles\nmove: take {1, 3, 4}\n");
    assert_eq!(report.proven, Some((0, 7)));
    assert!(report.theorem.starts_with("the subtraction-game theorem"));
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
    let mut reached = vec![false; 4096];
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

/// Where no move from pile n + 1 leaves a heap of n (every take leaving one heap takes two or
/// more), piles are computed two at a time: under the plain scan on two threads (here from the
/// first pile that splits), and under the sparse-space method always, each pile from the
/// values below it less one, the second on a thread of its own when there is one. Past pile
/// 4096, across the witness choice's stretches, the recounts and the pairs' meeting points:
/// the values are those of the definition, with the same work and memory counted on one thread
/// and on two.
#[test]
fn piles_computed_two_at_a_time_give_the_values_of_the_definition() {
    for (rules, code) in [("move: octal 0.564", &[0u8, 5, 6, 4][..]), ("move: octal 0.16", &[0, 1, 6])] {
        let game = common::game_text(&format!("game \"x\"\npiles\n{rules}\n"));
        let upto = 20000;
        let definition = by_definition(code, upto as usize, false);
        for parallel_from in [1, usize::MAX] {
            let one = kernel_values(&game, upto, 1, parallel_from, SparseMode::Auto, None).expect("compiles");
            let two = kernel_values(&game, upto, 2, parallel_from, SparseMode::Auto, None).expect("compiles");
            assert_eq!(one, two, "{rules}, sharing from {parallel_from} options");
            assert_eq!(one.0, definition, "{rules}");
        }
    }
}

/// Grundy values of one pile under a subtraction set, by the definition (mex of the values a
/// take leaves), written here apart from the engine.
fn subtraction_values(takes: &[u64], upto: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(upto as usize + 1);
    for n in 0..=upto {
        g.push(common::mex(takes.iter().filter(|&&t| t <= n).map(|&t| g[(n - t) as usize])));
    }
    g
}

/// Every subtraction set of up to three takes of at most 30 (4,525 games): `period` proves the
/// period of the values a brute force computes, the smallest one from the first pile it holds,
/// and `table` reports the same values and period. 51 of these sets once stopped `period` with
/// an index out of bounds, reducing a period proven by the window theorem (n₀ + p + the largest
/// take values) with reads past its last value.
#[test]
fn every_subtraction_set_of_up_to_three_takes_to_30_has_the_brute_force_period() {
    let mut sets: Vec<Vec<u64>> = Vec::new();
    for a in 1..=30u64 {
        sets.push(vec![a]);
        for b in a + 1..=30 {
            sets.push(vec![a, b]);
            for c in b + 1..=30 {
                sets.push(vec![a, b, c]);
            }
        }
    }
    assert_eq!(sets.len(), 30 + 435 + 4060);
    for takes in &sets {
        let list = takes.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let text = format!("game \"S\"\npile\nmove: take {{{list}}}\n");
        let report = period_run(&text);
        let (preperiod, period) = report.proven.unwrap_or_else(|| panic!("{{{list}}}: no period proven: {report:?}"));
        let largest = *takes.last().expect("a take");
        let reach = preperiod + 2 * period + largest + 1;
        let g = subtraction_values(takes, reach);
        // Periodic from n₀ with period p, over a stretch past the window the theorem needs.
        for n in preperiod..=reach - period {
            assert_eq!(g[(n + period) as usize], g[n as usize], "{{{list}}}: G({}) ≠ G({n})", n + period);
        }
        // Not from one pile earlier, and no proper divisor of p repeats from n₀.
        if preperiod > 0 {
            let n = (preperiod - 1) as usize;
            assert_ne!(g[n + period as usize], g[n], "{{{list}}}: periodic from {} already", preperiod - 1);
        }
        for d in (1..period).filter(|d| period % d == 0) {
            assert!(
                (preperiod..preperiod + period).any(|n| g[(n + d) as usize] != g[n as usize]),
                "{{{list}}}: period {d} divides {period} and repeats"
            );
        }
        let table = common::table(
            &common::loaded(&text),
            serde_json::json!({ "upto": reach, "period_values": 4 * reach + 64 }),
        );
        let values: Vec<u32> = table.grundy[0].iter().map(|v| v.expect("a value") as u32).collect();
        assert_eq!(values, g, "{{{list}}}: the table's values");
        let found = table.period.unwrap_or_else(|| panic!("{{{list}}}: the table finds no period"));
        assert_eq!((found.preperiod, found.period), (preperiod, period), "{{{list}}}: the table's period");
    }
}

/// Splittles {1, 4} (0.7007): its values keep setting new highs, and each pile's work grows with
/// the pile. The pace of the first 2¹⁷ values says the default end (10⁸ piles) is out of reach,
/// so the run is refused there, naming the largest value so far, which is the kernel's; an end
/// within reach is run to its end and answered.
#[test]
fn a_run_whose_end_is_out_of_reach_is_refused_from_its_pace() {
    use takeaway_core::errors::{PeriodError, SolveError};
    use takeaway_core::Error;
    let text = "game \"Splittles\"\npiles\nmove: take 1 or 4, then split\n";
    let game = common::loaded(text);
    let failure = match common::ask(&game, &Request::Period(PeriodArgs::default())) {
        Err(failure) => failure,
        Ok(answer) => panic!("an answer: {answer:?}"),
    };
    let Some(Error::Period(PeriodError::Solve(SolveError::PeriodOutOfReach { computed, largest, largest_at, .. }))) =
        failure.errors.first()
    else {
        panic!("{failure:?}")
    };
    assert_eq!(*computed, 1 << 17);
    let (values, _, _) =
        kernel_values(&common::game_text(text), 1 << 17, 1, usize::MAX, SparseMode::Auto, None).expect("compiles");
    let most = *values.iter().max().expect("values");
    assert_eq!(*largest, most);
    assert_eq!(values.iter().position(|&v| v == most), Some(*largest_at as usize));
    // The highs are still rising: the largest is past the first half.
    assert!(*largest_at >= 1 << 16);
    let report =
        match common::ask(&game, &Request::Period(PeriodArgs { upto: 150_000, checkpoint: None, window: None })) {
            Ok(Answer::Period(report)) => report,
            other => panic!("{other:?}"),
        };
    assert_eq!((report.proven, report.computed), (None, 150_000));
}

/// A rule `period` takes, written as a teacher might, with the takes it allows (empty for an
/// octal code, whose values come from its digits).
fn period_rule() -> impl Strategy<Value = (String, Vec<u64>, Option<[u8; 4]>)> {
    let set = proptest::collection::btree_set(1u64..=40, 1..=5).prop_map(|s| s.into_iter().collect::<Vec<u64>>());
    prop_oneof![
        set.clone().prop_map(|t| {
            let list = t.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
            (format!("take {{{list}}}"), t, None)
        }),
        set.prop_map(|t| {
            let words = match t.as_slice() {
                [one] => one.to_string(),
                [init @ .., last] => {
                    format!("{} or {last}", init.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))
                }
                [] => unreachable!("at least one take"),
            };
            (format!("take {words}"), t, None)
        }),
        (1u64..=12, 0u64..=8).prop_map(|(a, len)| (format!("take {a}..{}", a + len), (a..=a + len).collect(), None)),
        (0u8..8, 0u8..8, 1u8..8).prop_map(|(a, b, c)| (format!("octal 0.{a}{b}{c}"), Vec::new(), Some([0, a, b, c]))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random rules of the language, as `period` takes them: never a panic, and a proven period
    /// holds in the values of the definition (subtraction sets, octal codes by their digits)
    /// past the stretch the theorem needs.
    #[test]
    fn random_rules_get_a_period_that_the_definition_keeps((rule, takes, digits) in period_rule()) {
        let text = format!("game \"x\"\npiles\nmove: {rule}\n");
        let game = common::loaded(&text);
        // To 2¹⁴ values: a splitting code whose values keep growing costs the square of that.
        let report = match common::ask(&game, &Request::Period(PeriodArgs { upto: 1 << 14, checkpoint: None, window: None })) {
            Ok(Answer::Period(report)) => report,
            Err(f) if f.kind() == takeaway_core::FailureKind::Refused => return Ok(()),
            other => panic!("{rule}: {other:?}"),
        };
        if let Some((preperiod, period)) = report.proven {
            let reach = preperiod + 2 * period + 64;
            let g: Vec<u32> = match digits {
                None => subtraction_values(&takes, reach),
                // Splitting codes cost the square of the piles by the definition: checked while small.
                Some(d) if reach <= 20_000 => by_definition(&d, reach as usize + 1, false),
                Some(_) => return Ok(()),
            };
            for n in preperiod..=reach - period {
                prop_assert_eq!(g[(n + period) as usize], g[n as usize], "{}: G({}) ≠ G({})", rule, n + period, n);
            }
        }
    }
}

#[test]
fn a_long_period_is_proven_by_the_record_runs_path() {
    // The records' runs are `takeaway sweep GAME --upto N` (docs/records/run.sh); 0.1152 is
    // the shortest of the atlas's long periods: period 1,706 from 61,205, proven by Guy and
    // Smith's theorem from 2·61,205 + 2·1,706 + 4 = 125,826 values, whose checksum the atlas
    // row gives.
    let serde_json::Value::Object(map) = serde_json::json!({ "codes": ["0.1152"], "upto": 1 << 20 }) else {
        unreachable!("an object")
    };
    let args = takeaway_core::SweepArgs::parse(map).expect("a good sweep");
    let report =
        takeaway_core::sweep(&args, &takeaway_core::BudgetArgs::default(), &takeaway_core::Budget::new(), &|_| {})
            .expect("the sweep runs");
    let row = &report.rows[0];
    assert_eq!(row.status, takeaway_core::RowStatus::Proven);
    assert_eq!((row.preperiod, row.period, row.saltus), (Some(61_205), Some(1_706), Some(0)));
    assert_eq!((row.values_needed, row.values_computed), (Some(125_826), 125_826));
    let atlas = std::fs::read_to_string(common::repository_file("docs/atlas/atlas.csv")).expect("the atlas");
    let line = atlas.lines().find(|l| l.starts_with("0.1152,")).expect("0.1152 in the atlas");
    assert!(line.contains(&format!(",{},", row.checksum.as_deref().unwrap_or("-"))), "{line}");
}

#[test]
fn the_committed_record_rows_prove_flammenkamps_largest_periods() {
    // docs/records/: each row is a `takeaway sweep` run's (docs/records/run.sh), and its proven
    // preperiod and period are Flammenkamp's, as the OEIS gives them (a last exception at n is
    // a preperiod of n + 1); the values the theorem needs are 2·(preperiod + period) + t.
    for (stem, preperiod, period) in [
        ("octal-0.104", 197_769_598u64, 11_770_282u64),
        ("octal-0.054", 193_235_616, 10_015_179),
        ("octal-0.056", 193_235_616, 10_015_179),
        ("octal-0.1777", 160_949_018, 60_620_715),
    ] {
        let path = common::repository_file(&format!("docs/records/{stem}.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let rows = takeaway_core::render::read_sweep_rows(&text, takeaway_core::RowsFormat::JsonLines)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let row = &rows[0];
        assert_eq!(row.status, takeaway_core::RowStatus::Proven, "{stem}");
        assert_eq!((row.preperiod, row.period), (Some(preperiod), Some(period)), "{stem}");
        let digits = stem.len() as u64 - "octal-0.".len() as u64;
        assert_eq!(row.values_needed, Some(2 * preperiod + 2 * period + digits), "{stem}");
        // The game file the row was made from says the same in its header.
        let game = std::fs::read_to_string(common::repository_file(&format!("docs/records/{stem}.game"))).unwrap();
        let said = game.replace(',', "");
        assert!(said.contains(&format!("period {period} from a preperiod of {preperiod}")), "{stem}");
    }
}
