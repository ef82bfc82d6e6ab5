//! Partizan games: outcomes from canonical values against a plain search of the game tree,
//! the laws of the canonical-form engine, the simplicity rule, and agreement with the
//! impartial theory where Left and Right have the same moves.

use crate::solve::test_support as common;

use crate::rules::{Position, Side};
use crate::solve::partizan::{Dyadic, FormId, PartizanOutcome, PartizanSolver};
use crate::solve::Limits;
use proptest::prelude::*;

fn set_text(set: &[u64]) -> String {
    set.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" or ")
}

fn subtraction(left: &[u64], right: &[u64], misere: bool) -> crate::rules::Game {
    let mut text =
        format!("game \"g\"\npiles\nleft move: take {}\nright move: take {}\n", set_text(left), set_text(right));
    if misere {
        text.push_str("play misère\n");
    }
    common::game_text(&text)
}

/// The outcome by a search that knows nothing of values.
fn searched(game: &crate::rules::Game, piles: &[u64]) -> PartizanOutcome {
    let mut s = PartizanSolver::within(game, Limits::default());
    s.give_up_values();
    let (l, r) = s.searched_wins(&Position::new(piles.to_vec())).expect("search");
    PartizanOutcome::from_wins(l, r)
}

fn a_set() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::btree_set(1u64..=5, 1..=3).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Piles and sums of two and three piles: the outcome read from the canonical value (its
    /// comparison with 0) is the outcome of the game tree.
    #[test]
    fn outcomes_from_values_agree_with_the_game_tree(
        left in a_set(), right in a_set(), a in 0u64..14, b in 0u64..10, c in 0u64..6,
    ) {
        let game = subtraction(&left, &right, false);
        let mut s = PartizanSolver::within(&game, Limits::default());
        for piles in [vec![a], vec![a, b], vec![a, b, c]] {
            let from_value = s.outcome(&Position::new(piles.clone())).expect("value");
            prop_assert_eq!(from_value, searched(&game, &piles), "{:?} L{:?} R{:?}", piles, left, right);
        }
    }

    /// Winning moves are exactly the moves to positions the opponent, moving first, loses.
    #[test]
    fn winning_moves_agree_with_the_game_tree(left in a_set(), right in a_set(), a in 0u64..12, b in 0u64..8) {
        let game = subtraction(&left, &right, false);
        let mut s = PartizanSolver::within(&game, Limits::default());
        let pos = Position::new(vec![a, b]);
        for side in [Side::Left, Side::Right] {
            let winning: Vec<Vec<u64>> = s.winning_moves(&pos, side).expect("moves").into_iter().map(|m| m.to.piles).collect();
            let by_search: Vec<Vec<u64>> = s
                .moves(&pos, side)
                .expect("moves")
                .into_iter()
                .filter(|m| !searched(&game, &m.to.piles).first_wins(side.other()))
                .map(|m| m.to.piles)
                .collect();
            prop_assert_eq!(winning, by_search);
        }
    }

    /// G − G = 0, G + H = H + G, (G + H) + K = G + (H + K), and ≤ is antisymmetric, on the
    /// values of piles of random partizan subtraction games.
    #[test]
    fn the_engine_keeps_the_laws_of_addition_and_order(
        left in a_set(), right in a_set(), a in 0u64..12, b in 0u64..12, c in 0u64..12,
    ) {
        let game = subtraction(&left, &right, false);
        let mut s = PartizanSolver::within(&game, Limits::default());
        let g = s.pile_value(a).unwrap();
        let h = s.pile_value(b).unwrap();
        let k = s.pile_value(c).unwrap();
        let f = &mut s.forms;
        prop_assert_eq!(f.sub(g, g).unwrap(), FormId::ZERO);
        prop_assert_eq!(f.add(g, h).unwrap(), f.add(h, g).unwrap());
        let gh = f.add(g, h).unwrap();
        let hk = f.add(h, k).unwrap();
        prop_assert_eq!(f.add(gh, k).unwrap(), f.add(g, hk).unwrap());
        prop_assert_eq!(f.le(g, h) && f.le(h, g), g == h);
        // G ≤ H exactly when H − G ≥ 0.
        let diff = f.sub(h, g).unwrap();
        prop_assert_eq!(f.le(g, h), f.le(FormId::ZERO, diff));
    }

    /// The simplicity rule: {a | b} with numbers a < b is the simplest number between them.
    #[test]
    fn a_game_between_two_numbers_is_the_simplest_number_between(
        a in -40i64..40, b in -40i64..40, ka in 0u32..4, kb in 0u32..4,
    ) {
        let (x, y) = (Dyadic::new(a, ka), Dyadic::new(b, kb));
        prop_assume!(x < y);
        let game = subtraction(&[1], &[1], false);
        let mut s = PartizanSolver::within(&game, Limits::default());
        let f = &mut s.forms;
        let (fx, fy) = (f.of_number(x).unwrap(), f.of_number(y).unwrap());
        let g = f.canonical(vec![fx], vec![fy]).unwrap();
        prop_assert_eq!(f.number(g), Some(simplest_between(x, y)));
    }

    /// With the same moves for both players, a pile's value is the nimber of its Grundy value.
    #[test]
    fn the_same_moves_for_both_give_nimbers(set in a_set(), n in 0u64..30) {
        let partizan = subtraction(&set, &set, false);
        let impartial = common::game_text(&format!("game \"g\"\npiles\nmove: take {}\n", set_text(&set)));
        let grundy = common::value(&mut common::solver(&impartial), &[n]).grundy.expect("Grundy value");
        let mut s = PartizanSolver::within(&partizan, Limits::default());
        let v = s.pile_value(n).unwrap();
        prop_assert_eq!(s.forms.number_nimber(v), Some((Dyadic::ZERO, grundy as u32)));
    }

    /// Under misère play the table's outcomes are the search's, and a player with no move wins.
    #[test]
    fn misere_outcomes_come_from_the_game_tree(left in a_set(), right in a_set(), a in 0u64..10, b in 0u64..8) {
        let game = subtraction(&left, &right, true);
        let mut s = PartizanSolver::within(&game, Limits::default());
        let o = s.outcome(&Position::new(vec![a, b])).unwrap();
        prop_assert_eq!(o, searched(&game, &[a, b]));
        prop_assert_eq!(s.outcome(&Position::new(vec![0])).unwrap(), PartizanOutcome::N);
    }
}

/// The simplest number strictly between x < y, by its definition: the integer of least
/// magnitude if there is one, else the dyadic with the smallest denominator.
fn simplest_between(x: Dyadic, y: Dyadic) -> Dyadic {
    let xf = x.to_f64();
    let yf = y.to_f64();
    if xf < 0.0 && yf > 0.0 {
        return Dyadic::ZERO;
    }
    for k in 0..20u32 {
        let scale = (1i64 << k) as f64;
        // Candidates m / 2^k strictly between, nearest zero first.
        let lo = (xf * scale).floor() as i64 + 1;
        let hi = (yf * scale).ceil() as i64 - 1;
        if lo <= hi {
            let m = if lo > 0 { lo } else { hi };
            return Dyadic::new(m, k);
        }
    }
    unreachable!("two distinct dyadics have a dyadic between them")
}

#[test]
fn kayles_with_the_same_moves_for_both_is_kayles() {
    let partizan =
        common::game_text("game \"k\"\npiles\nleft move: take 1..2, then split\nright move: take 1..2, then split\n");
    let kayles = common::game("kayles.game");
    let mut s = PartizanSolver::within(&partizan, Limits::default());
    let mut impartial = common::solver(&kayles);
    for n in 0..40 {
        let g = common::value(&mut impartial, &[n]).grundy.unwrap();
        let v = s.pile_value(n).unwrap();
        assert_eq!(s.forms.number_nimber(v), Some((Dyadic::ZERO, g as u32)), "Kayles pile {n}");
    }
}

#[test]
fn the_issues_example_is_an_l_position_with_its_published_form() {
    let game = subtraction(&[1, 3], &[2, 3], false);
    let mut s = PartizanSolver::within(&game, Limits::default());
    let v = s.value(&Position::new(vec![6])).unwrap();
    assert_eq!(s.show(v), "{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}");
    assert_eq!(s.outcome_of(v), PartizanOutcome::L);
    assert_eq!(searched(&game, &[6]), PartizanOutcome::L);
}

// ---- temperature theory without canonical forms ------------------------------------------

/// A game tree as written, options not simplified: dominated and reversible options stay.
#[derive(Clone, Debug)]
enum Tree {
    Number(Dyadic),
    Node(Vec<Tree>, Vec<Tree>),
}

fn a_tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        (-3i64..=3).prop_map(|n| Tree::Number(Dyadic::from(n))),
        (-7i64..=7, 1u32..=3).prop_map(|(m, k)| Tree::Number(Dyadic::new(m, k))),
        Just(Tree::Node(vec![], vec![])),
    ];
    leaf.prop_recursive(4, 40, 3, |inner| {
        (proptest::collection::vec(inner.clone(), 0..=3), proptest::collection::vec(inner, 0..=3))
            .prop_map(|(l, r)| Tree::Node(l, r))
    })
}

/// The thermal value read off the raw tree, option by option.
fn raw_thermal(t: &Tree) -> super::ThermalValue {
    match t {
        Tree::Number(x) => super::ThermalValue::of_number(*x),
        Tree::Node(l, r) => {
            let (l, r): (Vec<_>, Vec<_>) = (l.iter().map(raw_thermal).collect(), r.iter().map(raw_thermal).collect());
            let (l, r): (Vec<_>, Vec<_>) = (l.iter().collect(), r.iter().collect());
            super::ThermalValue::from_options(&l, &r)
        }
    }
}

fn canonical(f: &mut super::Forms, t: &Tree) -> FormId {
    match t {
        Tree::Number(x) => f.of_number(*x).unwrap(),
        Tree::Node(l, r) => {
            let l = l.iter().map(|o| canonical(f, o)).collect();
            let r = r.iter().map(|o| canonical(f, o)).collect();
            f.canonical(l, r).unwrap()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The walls, the number test and the infinitesimal sides read off any game tree, with
    /// its dominated and reversible options left in, are those of its canonical form: the
    /// thermograph of a position needs no canonical form.
    #[test]
    fn a_raw_game_tree_has_the_thermal_value_of_its_canonical_form(tree in a_tree()) {
        let mut f = super::Forms::new(1_000_000);
        let mut thermal = super::thermo::Thermal::default();
        let g = canonical(&mut f, &tree);
        let expected = thermal.value(&f, g).clone();
        // From t = 0 up: below 0 a thermograph is the canonical form's own.
        prop_assert_eq!(raw_thermal(&tree).above_zero(), expected.clone().above_zero());
        // The stops are the canonical form's, and so is the confusion interval.
        prop_assert_eq!((expected.left_stop(), expected.right_stop()), f.stops(g));
        let confused = |f: &mut super::Forms, x: Dyadic| {
            let x = f.of_number(x).unwrap();
            !f.le(g, x) && !f.le(x, g)
        };
        let (rs, ls) = (expected.right_stop(), expected.left_stop());
        match expected.confusion() {
            None => prop_assert!(!confused(&mut f, rs) && ls == rs),
            Some(c) => {
                prop_assert_eq!((c.low_in, c.high_in), (confused(&mut f, rs), confused(&mut f, ls)));
            }
        }
    }
}

/// Every partizan subtraction game with both sets inside {1, 2, 3, 4}: the thermal value of
/// each pile up to 24 and of each sum of two piles up to 10, searched over positions, is the
/// one of its canonical value; and a sum's bounds from its piles' walls hold the sum's own
/// thermograph (mean equal, temperature and stops inside).
#[test]
fn thermal_values_from_positions_agree_with_canonical_forms_and_sums_keep_their_bounds() {
    let set = |mask: u32| -> Vec<u64> { (1..=4).filter(|s| mask & (1 << (s - 1)) != 0).collect() };
    let mut sums_checked = 0;
    for l in 1..16 {
        for r in 1..16 {
            let game = subtraction(&set(l), &set(r), false);
            let mut by_forms = PartizanSolver::within(&game, Limits::default());
            let mut by_positions = PartizanSolver::within(&game, Limits::default());
            by_positions.give_up_values();
            let mut positions: Vec<Vec<u64>> = (0..=24).map(|n| vec![n]).collect();
            positions.extend((1..=10).flat_map(|a| (a..=10).map(move |b| vec![a, b])));
            for piles in positions {
                let pos = Position::new(piles.clone());
                let exact = by_forms.thermal_value(&pos).unwrap();
                let searched = by_positions.thermal_value(&pos).unwrap();
                assert_eq!(searched, exact.clone().above_zero(), "L{:?} R{:?} {piles:?}", set(l), set(r));
                if piles.len() == 2 {
                    let b = by_forms.sum_bounds(&pos).unwrap();
                    let what = format!("L{:?} R{:?} {piles:?}: {b:?}", set(l), set(r));
                    assert_eq!(b.mean, exact.thermograph.mean, "{what}");
                    assert!(exact.thermograph.temperature <= b.temperature_at_most, "{what}");
                    let (ls, rs) = (exact.left_stop(), exact.right_stop());
                    assert!(b.left_stop.0 <= ls && ls <= b.left_stop.1, "{what}: Left stop {ls}");
                    assert!(b.right_stop.0 <= rs && rs <= b.right_stop.1, "{what}: Right stop {rs}");
                    sums_checked += 1;
                }
            }
        }
    }
    assert_eq!(sums_checked, 225 * 55);
}

// ---- atomic weights -------------------------------------------------------------------------

/// Winning Ways' values: aw(↑) = 1, aw(⇑) = 2, aw(↓) = −1, aw(↑*) = 1, aw(*) = aw(*2) = 0;
/// a game with a number in it (other than 0) is not all-small and has none.
#[test]
fn atomic_weights_of_the_textbook_infinitesimals() {
    let mut f = super::Forms::new(100_000);
    let mut aw = super::atomic::AtomicWeights::default();
    let up = f.up().unwrap();
    let star = f.nimber(1).unwrap();
    let star2 = f.nimber(2).unwrap();
    let double_up = f.add(up, up).unwrap();
    let down = f.neg(up).unwrap();
    let up_star = f.add(up, star).unwrap();
    let triple_up_star = f.add(double_up, up_star).unwrap();
    for (g, w) in [(up, 1), (double_up, 2), (down, -1), (up_star, 1), (star, 0), (star2, 0), (triple_up_star, 3)] {
        let weight = aw.weight(&mut f, g).unwrap().unwrap();
        assert_eq!(f.number(weight), Some(Dyadic::from(w)), "{}", super::notation::show(&mut f, g));
    }
    let one = f.of_number(1.into()).unwrap();
    let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
    assert_eq!(aw.weight(&mut f, switch).unwrap(), None);
    assert_eq!(aw.weight(&mut f, one).unwrap(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// On the values of partizan subtraction games where both players may take 1 (so every
    /// position is all-small): atomic weight is additive, and the two-ahead rule holds (an
    /// atomic weight of 2 or more is a win for Left, −2 or less for Right).
    #[test]
    fn atomic_weights_add_and_keep_the_two_ahead_rule(
        left in a_set(), right in a_set(), a in 0u64..12, b in 0u64..12,
    ) {
        let with_one = |s: &[u64]| { let mut s = s.to_vec(); if !s.contains(&1) { s.insert(0, 1); } s };
        let game = subtraction(&with_one(&left), &with_one(&right), false);
        let mut s = PartizanSolver::within(&game, Limits::default());
        let (g, h) = (s.pile_value(a).unwrap(), s.pile_value(b).unwrap());
        let sum = s.forms.add(g, h).unwrap();
        let mut aw = super::atomic::AtomicWeights::default();
        let (wg, wh, ws) = (
            aw.weight(&mut s.forms, g).unwrap().unwrap(),
            aw.weight(&mut s.forms, h).unwrap().unwrap(),
            aw.weight(&mut s.forms, sum).unwrap().unwrap(),
        );
        prop_assert_eq!(s.forms.add(wg, wh).unwrap(), ws);
        let two = s.forms.of_number(2.into()).unwrap();
        let minus_two = s.forms.of_number((-2).into()).unwrap();
        if s.forms.le(two, ws) {
            prop_assert!(s.forms.lt(FormId::ZERO, sum));
        }
        if s.forms.le(ws, minus_two) {
            prop_assert!(s.forms.lt(sum, FormId::ZERO));
        }
    }
}

// ---- reduced canonical forms ------------------------------------------------------------------

/// Infinitesimals reduce to 0, a number plus one to the number, and a switch keeps its shape
/// while losing the infinitesimals on it: rcf(↑) = rcf(*) = 0, rcf(1*) = 1, rcf({1|0} + ↑) =
/// {1|0}, rcf({3‖2|1} + *) = {3‖2|1}.
#[test]
fn reduced_canonical_forms_of_the_textbook_games() {
    let mut f = super::Forms::new(100_000);
    let mut rf = super::atomic::ReducedForms::default();
    let n = |f: &mut super::Forms, x: i64| f.of_number(x.into()).unwrap();
    let (one, two, three) = (n(&mut f, 1), n(&mut f, 2), n(&mut f, 3));
    let up = f.up().unwrap();
    let star = f.nimber(1).unwrap();
    let one_star = f.add(one, star).unwrap();
    let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
    let switch_up = f.add(switch, up).unwrap();
    let two_one = f.canonical(vec![two], vec![one]).unwrap();
    let hot = f.canonical(vec![three], vec![two_one]).unwrap();
    let hot_star = f.add(hot, star).unwrap();
    for (g, expected) in
        [(up, FormId::ZERO), (star, FormId::ZERO), (one_star, one), (switch_up, switch), (hot_star, hot)]
    {
        assert_eq!(rf.reduced(&mut f, g).unwrap(), expected, "{}", super::notation::show(&mut f, g));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// On the values of partizan subtraction games: the reduced form differs from the value by
    /// an infinitesimal (both stops of the difference are 0), is its own reduced form, is born
    /// no later, and has the same thermograph from t = 0 up.
    #[test]
    fn a_reduced_form_is_infinitesimally_close_and_reduced(left in a_set(), right in a_set(), a in 0u64..14) {
        let game = subtraction(&left, &right, false);
        let mut s = PartizanSolver::within(&game, Limits::default());
        let g = s.pile_value(a).unwrap();
        let mut rf = super::atomic::ReducedForms::default();
        let r = rf.reduced(&mut s.forms, g).unwrap();
        let d = s.forms.sub(g, r).unwrap();
        prop_assert_eq!(s.forms.stops(d), (Dyadic::ZERO, Dyadic::ZERO));
        prop_assert_eq!(rf.reduced(&mut s.forms, r).unwrap(), r);
        prop_assert!(s.forms.birthday(r) <= s.forms.birthday(g));
        let mut thermal = super::thermo::Thermal::default();
        let (tg, tr) = (thermal.value(&s.forms, g).clone(), thermal.value(&s.forms, r).clone());
        if tg.thermograph.temperature > Dyadic::ZERO {
            prop_assert_eq!(tg.above_zero().thermograph, tr.above_zero().thermograph);
        }
    }
}
