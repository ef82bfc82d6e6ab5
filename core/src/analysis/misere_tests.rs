//! The misère answers (tables, `explain`, quotients) of heap games, against the published
//! values and a search over whole positions: the engine's misère tests that go through
//! `analysis` live here, so that `solve` never imports it.

use crate::rules::Position;
use crate::solve::misere::brute::{agrees_with_the_search, game, octal_options, octal_rules};
use crate::solve::misere::Word;
use crate::solve::{Limits, MethodKind, Outcome, Solver};

#[test]
fn misere_kayles_has_the_published_misere_grundy_values_and_answers_big_sums_by_its_quotient() {
    let g = game("move: take 1..2, then split");
    let mut solver = Solver::within(&g, Limits::default());
    assert_eq!(solver.method(), MethodKind::MisereQuotient);
    let table = crate::analysis::table(&mut solver, 20, Default::default()).expect("table");
    let got: Vec<u64> = table.misere.expect("misère columns").grundy.iter().map(|g| g.unwrap()).collect();
    assert_eq!(got, [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0]);
    // Four piles of 20..35 against the search, and piles of 10^18 from the proven period.
    let mut search = Solver::generic(&g, Limits::states(20_000_000));
    let pos = Position::new(vec![3, 7, 9, 12]);
    assert_eq!(solver.value(&pos).unwrap().outcome, search.value(&pos).unwrap().outcome);
    let huge = Position::new(vec![1_000_000_000_000_000_000, 7, 3]);
    let reduced = Position::new(vec![71 + (1_000_000_000_000_000_000u64 - 71) % 12, 7, 3]);
    assert_eq!(solver.value(&huge).unwrap().outcome, solver.value(&reduced).unwrap().outcome);
    let period = solver.misere().unwrap().period().expect("Kayles' Φ is proven periodic");
    assert_eq!((period.preperiod, period.period), (71, 12));
}

#[test]
fn grundys_game_has_the_published_misere_grundy_values() {
    let g = game("move: split unequal");
    let mut solver = Solver::within(&g, Limits::default());
    let table = crate::analysis::table(&mut solver, 20, Default::default()).expect("table");
    let got: Vec<u64> = table.misere.expect("misère columns").grundy.iter().map(|g| g.unwrap()).collect();
    assert_eq!(got, [1, 1, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
}

#[test]
fn explain_applies_misere_nims_rule_where_every_pile_is_tame() {
    let g = game("move: take 1..3");
    let mut solver = Solver::within(&g, Limits::default());
    for a in 0..10u64 {
        for b in a..10 {
            let e = crate::analysis::explain_with(&mut solver, &Position::new(vec![a, b, 5]), false).unwrap();
            let crate::analysis::Explanation::Quotient { tame_values, .. } = e else { panic!("{e:?}") };
            let values: Vec<u64> = [a, b, 5].iter().filter(|&&p| p > 0).map(|p| p % 4).collect();
            assert_eq!(tame_values, Some(values), "{a} {b} 5");
        }
    }
    let kayles = game("move: take 1..2, then split");
    let mut solver = Solver::within(&kayles, Limits::default());
    let e = crate::analysis::explain_with(&mut solver, &Position::new(vec![5, 9]), false).unwrap();
    let crate::analysis::Explanation::Quotient { tame_values, .. } = e else { panic!("{e:?}") };
    assert_eq!(tame_values, None, "heap 5 of Kayles is wild");
}

/// 0.44 and 0.46 need Φ to heap 336 for the periodicity theorem: a quotient asked for without a
/// bound goes on until the period is proven, and its answers agree with a search over whole
/// positions on every sum of up to three heaps below 13 (and on one heap of each size to 40).
#[test]
fn quotients_of_0_44_and_0_46_are_proven_on_defaults_and_agree_with_the_search() {
    for code in [[0u8, 4, 4], [0, 4, 6]] {
        let g = game(&octal_rules(&code));
        let mut solver = Solver::within(&g, Limits::default());
        let report = crate::analysis::quotient(&mut solver, None).expect("a quotient");
        let proven = report.proven.unwrap_or_else(|| panic!("{code:?}: no period proven: {:?}", report.stopped));
        assert!(proven.needed <= report.computed, "{code:?}");
        assert_eq!((proven.preperiod, proven.period), (143, 24), "{code:?}");
        agrees_with_the_search(&format!("{code:?}"), &|n| octal_options(&code, n), &mut solver, 13);
    }
}

/// 0.56's quotient reaches heap 300 on the default limits with the published order, 66, and
/// answers sums of small heaps as a search over whole positions does.
#[test]
fn quotient_of_0_56_reaches_heap_300_on_defaults_and_agrees_with_the_search() {
    let code = [0u8, 5, 6];
    let g = game(&octal_rules(&code));
    let mut solver = Solver::within(&g, Limits::default());
    let report = crate::analysis::quotient(&mut solver, Some(300)).expect("a quotient");
    assert_eq!((report.computed, report.order, report.stopped), (300, 66, None));
    agrees_with_the_search("0.56", &|n| octal_options(&code, n), &mut solver, 14);
}

/// Grundy's game's quotient to heap 24 has the published order, 48, and P-portion, 7, and
/// answers sums of small heaps as a search over whole positions does.
#[test]
fn grundys_game_quotient_to_heap_24_has_order_48_and_agrees_with_the_search() {
    let g = game("move: split unequal");
    let mut solver = Solver::within(&g, Limits::default());
    let report = crate::analysis::quotient(&mut solver, Some(24)).expect("a quotient");
    assert_eq!((report.computed, report.order, report.p_portion.len(), report.stopped), (24, 48, 7, None));
    // Split a heap of n into two non-empty heaps of different sizes.
    let options = |n: u64| (1..n.div_ceil(2)).map(|a| vec![a, n - a]).collect::<Vec<Word>>();
    agrees_with_the_search("Grundy's game", &options, &mut solver, 14);
}

/// When the work allowed runs out after some heaps, the quotient of those is the answer, and the
/// reason names the heap and the budget.
#[test]
fn a_quotient_out_of_work_answers_with_the_heaps_it_has() {
    // A tenth of a second's work, counted: 0.56's quotient grows past it within a few hundred heaps.
    let g = game("move: octal 0.56");
    let mut solver = Solver::within(&g, Limits::default().within(0.1));
    let report = crate::analysis::quotient(&mut solver, None).expect("the heaps computed");
    let stopped = report.stopped.expect("a reason");
    assert!(stopped.starts_with(&format!("at heap {} the work allowed ran out", report.computed + 1)), "{stopped}");
    assert!(stopped.contains("it grows with `timeout`, now under a second"), "{stopped}");
    assert!(report.computed >= 8 && report.proven.is_none());
}

/// A misère table's outcome period is proven where the quotient proves Φ periodic.
#[test]
fn misere_kayles_outcome_period_is_proven_by_its_quotient() {
    let g = game("move: take 1..2, then split");
    let mut solver = Solver::within(&g, Limits::default());
    let table = crate::analysis::table(&mut solver, 1000, Default::default()).expect("table");
    let period = table.period.expect("a period");
    assert_eq!((period.of, period.preperiod, period.period), ("outcome", 21, 1));
    assert!(period.proven);
    assert_eq!(period.theorem, Some(crate::analysis::periods::MISERE_QUOTIENT_PROOF));
    // Against the search: no single row of 21 to 36 pins is a P-position.
    let mut search = Solver::generic(&g, Limits::states(20_000_000));
    for n in 21..=36 {
        assert_eq!(search.value(&Position::new(vec![n])).unwrap().outcome, Outcome::N, "{n}");
    }
}
