//! Partizan games: outcomes from canonical values against a plain search of the game tree,
//! the laws of the canonical-form engine, the simplicity rule, and agreement with the
//! impartial theory where Left and Right have the same moves.

use crate::test_support as common;

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

#[test]
fn a_game_too_large_for_values_is_answered_by_search() {
    // The forms of this game grow with the pile; with a small limit the value is refused and
    // the outcome still comes (from the search), matching the search.
    let game = subtraction(&[1, 3], &[2, 3], false);
    let mut s = PartizanSolver::within(&game, Limits::states(20_000));
    let report = crate::analysis::partizan::solve(&mut s, &Position::new(vec![200])).unwrap();
    assert!(report.value.is_none());
    assert!(report.value_note.as_deref().unwrap().contains("grow past the limit"), "{report:?}");
    assert_eq!(report.outcome, searched(&game, &[200]));
}
