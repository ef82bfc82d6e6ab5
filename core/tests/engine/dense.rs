//! The compiled grid (every position below a question valued bottom-up) against the reference
//! whole-position search, on random game texts written in the language: subtraction sets,
//! ranges, conditions, bounds by the previous move, the same amount from several piles, an
//! amount of its own from each, pairs, misère play. Values, outcomes and remoteness must agree,
//! and so must the winning moves; a game the grid does not take must still answer alike.

use crate::common;

use proptest::prelude::*;
use takeaway_core::internals::generic_solver as generic;
use takeaway_core::{Budget, MethodKind, Position, Solver};

fn budget() -> Budget {
    Budget::new().max_states(200_000)
}

/// An amount, written the ways the language allows, and a condition on it (or none).
fn amount() -> impl Strategy<Value = (String, &'static str)> {
    prop_oneof![
        proptest::collection::btree_set(1u64..7, 1..4).prop_map(|set| {
            let items: Vec<String> = set.iter().map(u64::to_string).collect();
            (format!("{{{}}}", items.join(", ")), "")
        }),
        (1u64..4, 0u64..4).prop_map(|(a, b)| (format!("{a}..{}", a + b), "")),
        Just(("any".to_string(), "")),
        Just(("any except 2".to_string(), "")),
        Just(("t".to_string(), " where even(t)")),
        Just(("t".to_string(), " where odd(t) or t = 2")),
        Just(("≤ 3".to_string(), "")),
    ]
}

/// A rule of a game on several piles (or one): from one pile, the same from several, its own
/// from each, or a pair whose amounts are related.
fn tuple_rule() -> impl Strategy<Value = String> {
    let from = prop_oneof![
        3 => Just(String::new()),
        1 => Just(" from one pile".to_string()),
        2 => (2usize..4).prop_map(|k| format!(" from {k} piles")),
        1 => Just(" from both piles".to_string()), // made `from 2 piles` below unless `piles 2`
        1 => (2usize..4).prop_map(|k| format!(" from each of up to {k} piles")),
    ];
    prop_oneof![
        6 => (amount(), from).prop_map(|((a, condition), from)| format!("move: take {a}{from}{condition}")),
        1 => (1i64..4).prop_map(|r| format!("move: take k from one pile and l from the other where k ≤ l < k + {r}")),
        1 => Just("move: take k from one pile and l from the other where k + l = 3".to_string()),
    ]
}

/// A game on a tuple of piles, and a position of it.
pub(crate) fn tuple_game() -> impl Strategy<Value = (String, Vec<u64>)> {
    (
        prop_oneof![Just(0usize), Just(2), Just(3)],
        proptest::collection::vec(tuple_rule(), 1..3),
        any::<bool>(),
        proptest::collection::vec(0u64..9, 3),
    )
        .prop_map(|(fixed, rules, misere, piles)| {
            let board = if fixed == 0 { "piles".to_string() } else { format!("piles {fixed}") };
            let count = if fixed == 0 { 1 + piles[0] as usize % 3 } else { fixed };
            let play = if misere { "play misère\n" } else { "" };
            let mut rules = rules.join("\n");
            if fixed != 2 {
                // `both piles` is refused unless the game has exactly two piles.
                rules = rules.replace("from both piles", "from 2 piles");
            }
            let text = format!("game \"random\"\n{board}\n{rules}\n{play}");
            (text, piles[..count].to_vec())
        })
}

/// A game on one pile whose moves read the previous one, and a position (with or without a
/// previous move).
pub(crate) fn history_game() -> impl Strategy<Value = (String, u64, Option<u64>)> {
    let first = prop_oneof![
        Just("first move: take any\n"),
        Just("first move: take 1..n-1\n"),
        Just("first move: take 1..3\n"),
    ];
    let later = prop_oneof![
        Just("move: take any where t ≥ last"),
        Just("move: take ≤ 2·last"),
        Just("move: take < 2·last"),
        Just("move: take ≤ last + 1"),
        Just("move: take t where t ≠ last"),
        Just("move: take {1, 2, 3} where t ≠ last"),
        Just("move: take t where t > last or t = 1"),
        Just("move: take 1..3"),
    ];
    (first, later, any::<bool>(), 0u64..16, proptest::option::of(1u64..6)).prop_map(
        |(first, later, misere, n, last)| {
            let play = if misere { "play misère\n" } else { "" };
            (format!("game \"random\"\npile\n{first}{later}\n{play}"), n, last)
        },
    )
}

/// The two solvers agree on a position: its value, its remoteness, its winning moves.
fn agree(text: &str, pos: &Position) -> Result<(), TestCaseError> {
    let Ok(game) = takeaway_core::load(text, "random", &[]) else {
        // Some combinations say nothing the checker accepts (a pair of piles on one pile).
        return Ok(());
    };
    let mut fast = Solver::new(&game, &budget());
    let mut reference = generic(&game, &budget());
    let (f, r) = (fast.value(pos), reference.value(pos));
    match (&f, &r) {
        (Ok(f), Ok(r)) => prop_assert_eq!(f, r, "values of {:?}\n{}", pos, text),
        // A rule that cannot evaluate where play reaches fails both ways.
        (Err(_), Err(_)) => return Ok(()),
        _ => prop_assert!(false, "one answers, one fails: {:?} / {:?}\n{}", f, r, text),
    }
    prop_assert_eq!(fast.remoteness(pos).ok(), reference.remoteness(pos).ok(), "remoteness of {:?}\n{}", pos, text);
    let canon = |moves: Vec<takeaway_core::Move>| {
        // Two rules may allow the same move: the positions reached are what must agree.
        let mut v: Vec<Position> = moves.iter().map(|m| game.canonical(&m.to)).collect();
        v.sort();
        v.dedup();
        v
    };
    prop_assert_eq!(
        canon(fast.winning_moves(pos).unwrap_or_default()),
        canon(reference.winning_moves(pos).unwrap_or_default()),
        "winning moves of {:?}\n{}",
        pos,
        text
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, .. ProptestConfig::default() })]

    #[test]
    fn the_grid_agrees_with_the_search_on_tuples_of_piles((text, piles) in tuple_game()) {
        agree(&text, &Position::new(piles))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn the_grid_agrees_with_the_search_after_a_previous_move((text, n, last) in history_game()) {
        agree(&text, &Position { piles: vec![n], last, cells: false })?;
    }
}

/// The shipped games the grid now answers, each asked from a box it must grow into: a
/// position, then a larger one, then a smaller one, against the search.
#[test]
fn the_shipped_games_the_grid_answers_agree_with_the_search() {
    for (file, positions) in [
        ("wythoff.game", vec![vec![4, 6], vec![9, 13], vec![3, 2]]),
        ("three-pile-wythoff.game", vec![vec![2, 3, 5], vec![4, 6, 7], vec![1, 1, 1]]),
        ("r-wythoff.game", vec![vec![4, 9], vec![12, 15], vec![0, 3]]),
        ("mem.game", vec![vec![10], vec![25], vec![7]]),
    ] {
        let game = common::game(file);
        let mut fast = Solver::new(&game, &budget());
        assert_eq!(fast.method(), MethodKind::Dense, "{file}");
        let mut reference = generic(&game, &budget());
        for piles in positions {
            let pos = Position::new(piles.clone());
            assert_eq!(fast.value(&pos).unwrap(), reference.value(&pos).unwrap(), "{file} {piles:?}");
            assert_eq!(fast.remoteness(&pos).unwrap(), reference.remoteness(&pos).unwrap(), "{file} {piles:?}");
        }
    }
    // Moore's Nim: outcomes from the theorem, Grundy values and remoteness from the grid.
    let game = common::game("moore-nim.game");
    let mut fast = Solver::new(&game, &budget());
    assert_eq!(fast.method(), MethodKind::Moore);
    let mut reference = generic(&game, &budget());
    for piles in [vec![3, 5, 6], vec![1, 2, 3], vec![4, 4, 7, 2], vec![9, 8]] {
        let pos = Position::new(piles.clone());
        assert_eq!(fast.value(&pos).unwrap(), reference.value(&pos).unwrap(), "Moore's Nim {piles:?}");
        assert_eq!(fast.remoteness(&pos).unwrap(), reference.remoteness(&pos).unwrap(), "Moore's Nim {piles:?}");
    }
    // Ten piles: past the grid's places, the search answers (each set of piles once).
    let game = common::game_text("game \"T\"\npiles\nmove: take 1..2 from 2 piles\nmove: take 1\n");
    let pos = Position::new(vec![1, 2, 1, 2, 1, 2, 1, 2, 1, 2]);
    assert_eq!(Solver::new(&game, &budget()).value(&pos).unwrap(), generic(&game, &budget()).value(&pos).unwrap());
    // Mem after a move of 4 (the file's own claim: N, Grundy value 2).
    let game = common::game("mem.game");
    let pos = Position { piles: vec![10], last: Some(4), cells: false };
    assert_eq!(Solver::new(&game, &budget()).value(&pos).unwrap().grundy, Some(2));
}
