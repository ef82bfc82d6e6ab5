//! Piles past 2^63 in Schwenk's take ≤ f(last) games, answered in arbitrary-size integers:
//! checked against the Zeckendorf theorem computed here independently, and against the 64-bit
//! solver where both reach.

use num_bigint::BigUint;

use super::BigSchwenk;
use crate::rules::Position;
use crate::solve::test_support as common;
use crate::solve::{Limits, Outcome, Solver};

/// Fibonacci numbers 1, 2, 3, 5, … past `limit`, in arbitrary-size integers.
fn fibonacci_past(limit: &BigUint) -> Vec<BigUint> {
    let mut f = vec![BigUint::from(1u32), BigUint::from(2u32)];
    while f[f.len() - 1] <= *limit {
        let next = &f[f.len() - 1] + &f[f.len() - 2];
        f.push(next);
    }
    f
}

/// The Zeckendorf representation by the greedy rule, largest term first.
fn zeckendorf(m: &BigUint) -> Vec<BigUint> {
    let mut rest = m.clone();
    let mut terms = Vec::new();
    for f in fibonacci_past(m).iter().rev() {
        if *f <= rest {
            rest -= f;
            terms.push(f.clone());
        }
    }
    terms
}

fn big(text: &str) -> BigUint {
    BigUint::parse_bytes(text.as_bytes(), 10).expect("a decimal number")
}

#[test]
fn fibonacci_nim_past_two_to_the_sixty_three_follows_zeckendorf() {
    let game = common::game("fibonacci-nim.game");
    let mut schwenk = BigSchwenk::recognise(&game).expect("Fibonacci Nim is one of Schwenk's games");
    let ten_to_the_hundred = big(&format!("1{}", "0".repeat(100)));
    let fib = fibonacci_past(&ten_to_the_hundred);
    // Every Fibonacci number from F(92) (the last below 2^63) to past 10^100 is a P-position:
    // the first move may not take the whole pile, and the smallest winning take is the pile.
    for f in &fib[90..] {
        let answer = schwenk.answer(f, None).unwrap();
        assert_eq!(answer.outcome, Outcome::P, "{f}");
        assert!(answer.winning.is_empty());
    }
    // Any other pile is an N-position, won by taking its smallest Zeckendorf term; a take
    // wins exactly when twice it falls short of the smallest term of what is left.
    let piles = [
        ten_to_the_hundred.clone(),
        &fib[120] + &fib[60] + &fib[3],
        &fib[200] + 1u32,
        big("18446744073709551616"),
        big("123456789012345678901234567890123456789"),
    ];
    for m in piles {
        let terms = zeckendorf(&m);
        let answer = schwenk.answer(&m, None).unwrap();
        assert_eq!(answer.terms, terms, "{m}");
        assert_eq!(answer.outcome, Outcome::N, "{m}");
        let smallest = terms.last().unwrap().clone();
        assert_eq!(answer.winning[0], (smallest.clone(), &m - &smallest), "{m}");
        for (take, left) in &answer.winning {
            assert_eq!(&(take + left), &m);
            let theirs: BigUint = take * 2u32;
            assert!(*left == BigUint::from(0u32) || theirs < *zeckendorf(left).last().unwrap(), "{m}: take {take}");
        }
    }
}

#[test]
fn after_a_move_the_previous_take_bounds_the_reply() {
    // With last = k the player may take up to 2k: N exactly when the smallest term is within it.
    let game = common::game("fibonacci-nim.game");
    let mut schwenk = BigSchwenk::recognise(&game).unwrap();
    let fib = fibonacci_past(&big(&format!("1{}", "0".repeat(40))));
    // fib[20] is F(22) = 17711, the smallest term of m
    let m = &fib[150] + &fib[20];
    let smallest = fib[20].clone();
    let need = u64::try_from(&smallest).unwrap().div_ceil(2);
    assert_eq!(schwenk.answer(&m, Some(need)).unwrap().outcome, Outcome::N);
    assert_eq!(schwenk.answer(&m, Some(need - 1)).unwrap().outcome, Outcome::P);
}

#[test]
fn the_big_answer_agrees_with_the_sixty_four_bit_solver() {
    // Where both reach, the arbitrary-size path and the solver give the same outcome and the
    // same first winning move, for several bounds f and first moves (piles up to 10^18, where
    // 4·last still fits the rules' 64-bit arithmetic).
    let games = [
        "game \"F\"\npile\nfirst move: take 1..n-1\nmove: take ≤ 2·last\n",
        "game \"T\"\npile\nfirst move: take 1..n-1\nmove: take ≤ 3·last\n",
        "game \"L\"\npile\nfirst move: take 1..n-1\nmove: take ≤ last\n",
        "game \"A\"\npile\nfirst move: take ≤ n/2 + 0\nmove: take ≤ 2·last + 1\n",
        "game \"Q\"\npile\nfirst move: take any\nmove: take < 4·last\n",
    ];
    for text in games {
        let game = common::game_text(text);
        let Some(mut schwenk) = BigSchwenk::recognise(&game) else {
            // `n/2` is not linear in the sense the big path reads: nothing to compare.
            assert!(text.contains("n/2"), "{text}");
            continue;
        };
        let mut solver = Solver::within(&game, Limits::default());
        for m in (1u64..400).chain([999_999_999_999, 1 << 60, 1_000_000_000_000_000_001]) {
            for last in [None, Some(1), Some(5)] {
                let pos = Position { piles: vec![m], last, cells: false };
                let expected = solver.value(&pos).unwrap().outcome;
                let answer = schwenk.answer(&BigUint::from(m), last).unwrap();
                assert_eq!(answer.outcome, expected, "{text} m = {m}, last = {last:?}");
                if expected == Outcome::N {
                    let moves = solver.winning_moves(&pos).unwrap();
                    let first = BigUint::from(moves[0].to.piles[0]);
                    // Both list the smallest winning take first.
                    assert_eq!(answer.winning[0].1, first, "{text} m = {m}, last = {last:?}");
                }
            }
        }
    }
}
