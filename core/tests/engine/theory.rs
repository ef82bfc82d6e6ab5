//! The theorems of the theory, each over a range, checked three ways: the solver's answer on
//! the shipped game file, the theorem's formula, and a brute force written here from the rules
//! alone (sharing no code with the solver).

// The brute forces index tables by pile size on purpose: they read like the recurrences.
#![allow(clippy::needless_range_loop)]

use crate::brute_force::*;
use crate::common;

use std::collections::HashMap;

use common::{game, game_with, is_p, mex, solver, value};
use serde_json::json;
use takeaway_core::answers::SolveReport;
use takeaway_core::Outcome;
use takeaway_core::Position;

// ---- the theorems --------------------------------------------------------------------------

#[test]
fn tag_p_positions_are_multiples_of_k_plus_one() {
    for k in 1..=6u64 {
        let g = game_with("tag.game", &[("k", k as i64)]);
        let mut s = solver(&g);
        let set: Vec<u64> = (1..=k).collect();
        let brute = brute_subtraction(&set, 200);
        for n in 0..=200u64 {
            let p = is_p(&mut s, &[n]);
            assert_eq!(p, n % (k + 1) == 0, "TAG({k}), n = {n}: theorem");
            assert_eq!(p, brute[n as usize] == 0, "TAG({k}), n = {n}: brute force");
        }
    }
}

#[test]
fn subtraction_1_3_grundy_values_alternate() {
    let g = game("subtraction-1-3.game");
    let mut s = solver(&g);
    let brute = brute_subtraction(&[1, 3], 200);
    for n in 0..=200u64 {
        let v = value(&mut s, &[n]).grundy.unwrap();
        assert_eq!(v, n % 2, "n = {n}: theorem");
        assert_eq!(v, brute[n as usize] as u64, "n = {n}: brute force");
    }
}

#[test]
fn misere_tag_p_positions_are_one_mod_four() {
    let g = game("tag-misere.game");
    let mut s = solver(&g);
    let brute = brute_misere_subtraction_p(&[1, 2, 3], 200);
    for n in 0..=200u64 {
        let p = is_p(&mut s, &[n]);
        assert_eq!(p, n % 4 == 1, "n = {n}: theorem");
        assert_eq!(p, brute[n as usize], "n = {n}: brute force");
        assert_eq!(value(&mut s, &[n]).grundy, None, "no Grundy value under misère play");
    }
}

/// A Schwenk take-away game: for piles 1..=200 the solver, the theorem and a brute force agree.
fn assert_takeaway_game(file: &str, f: impl Fn(u64) -> u64, theorem: impl Fn(u64) -> bool) {
    let g = game(file);
    let mut s = solver(&g);
    let brute = brute_takeaway_p(200, f);
    for n in 1..=200u64 {
        let p = is_p(&mut s, &[n]);
        assert_eq!(p, theorem(n), "{file}, n = {n}: theorem");
        assert_eq!(p, brute[n as usize], "{file}, n = {n}: brute force");
    }
}

#[test]
fn take_at_most_last_p_positions_are_powers_of_two() {
    assert_takeaway_game("take-at-most-last.game", |x| x, |n| n.is_power_of_two());
}

#[test]
fn take_less_than_twice_p_positions_are_powers_of_two() {
    assert_takeaway_game("take-less-than-twice.game", |x| 2 * x - 1, |n| n.is_power_of_two());
}

#[test]
fn fibonacci_nim_p_positions_are_fibonacci_numbers() {
    let fib = fibonacci_upto(200);
    assert_takeaway_game("fibonacci-nim.game", |x| 2 * x, |n| fib.contains(&n));
}

/// The smallest term of the Zeckendorf representation: greedy largest Fibonacci numbers.
fn smallest_zeckendorf_term(mut n: u64) -> u64 {
    let fib = fibonacci_upto(n);
    let mut smallest = n;
    for &f in fib.iter().rev() {
        if f <= n {
            n -= f;
            smallest = f;
        }
    }
    smallest
}

#[test]
fn fibonacci_nim_winning_move_removes_the_smallest_zeckendorf_term() {
    let g = game("fibonacci-nim.game");
    let mut s = solver(&g);
    let fib = fibonacci_upto(2000);
    for n in (4..=2000u64).filter(|n| !fib.contains(n)) {
        let wins: Vec<u64> =
            s.winning_moves(&Position::new(vec![n])).unwrap().iter().map(|m| n - m.to.piles[0]).collect();
        let z = smallest_zeckendorf_term(n);
        assert!(wins.contains(&z), "n = {n}: taking {z} wins, found {wins:?}");
    }
}

#[test]
fn fibonacci_nim_at_100000_answers_without_deep_recursion() {
    let g = game("fibonacci-nim.game");
    let mut s = solver(&g);
    // 100000 = 75025 + 17711 + 6765 + 377 + 89 + 21 + 8 + 3 + 1: not a Fibonacci number.
    assert_eq!(value(&mut s, &[100_000]).outcome, Outcome::N);
    assert!(is_p(&mut s, &[75_025]));
    assert!(is_p(&mut s, &[121_393]));
}

#[test]
fn bouton_nim_is_p_exactly_when_the_xor_is_zero() {
    let g = game("nim.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for a in 0..=15u64 {
        for b in a..=15 {
            for c in b..=15 {
                let v = value(&mut s, &[a, b, c]);
                assert_eq!(v.grundy, Some(a ^ b ^ c), "{a} {b} {c}: Grundy value is the XOR");
                let brute = brute_nim_p(&[a, b, c], false, &mut memo);
                assert_eq!(v.outcome == Outcome::P, a ^ b ^ c == 0, "{a} {b} {c}: Bouton");
                assert_eq!(v.outcome == Outcome::P, brute, "{a} {b} {c}: brute force");
            }
        }
    }
}

#[test]
fn bouton_winning_move_from_the_theory_example() {
    // (25, 28, 10): the highest odd column is 2^3; the theory's move leaves (25, 28, 5).
    let report = common::solve_report(&common::loaded_file("nim.game"), json!({ "position": "25 28 10" }));
    let tos: Vec<Vec<u64>> = report.winning_moves.iter().map(|m| m.to.clone()).collect();
    assert!(tos.contains(&vec![25, 28, 5]));
    for to in &tos {
        assert_eq!(to.iter().fold(0, |x, p| x ^ p), 0, "a winning move leaves nim-sum 0");
    }
    let report = common::solve_report(&common::loaded_file("nim.game"), json!({ "position": "41 163 13" }));
    assert_eq!(report.winning_moves.len(), 1);
    assert_eq!(report.winning_moves[0].description, "take 127 from the pile of 163");
    assert_eq!(report.winning_moves[0].to, vec![41, 36, 13]);
}

/// Nim's heaps are answered by Bouton's theorem without computing a value (pile n is worth n):
/// the same outcomes, values and winning moves, in the same words and order, as the same game
/// written `take 1..n`, whose values are computed pile by pile; and piles far past anything
/// computable answer at once.
#[test]
fn nim_by_boutons_theorem_agrees_with_the_computed_values() {
    let computed = common::loaded("piles\nmove: take 1..n\n");
    let nim = common::loaded_file("nim.game");
    for a in 0..=12u64 {
        for b in a..=12 {
            for c in 0..=12 {
                let pos = Position::new(vec![a, b, c]);
                let position = json!({ "position": pos.piles, "remoteness": false });
                let x = common::solve_report(&nim, position.clone());
                let y = common::solve_report(&computed, position);
                assert_eq!((x.outcome, x.grundy), (y.outcome, y.grundy), "{a} {b} {c}");
                let moves = |r: &SolveReport| {
                    r.winning_moves.iter().map(|m| (m.description.clone(), m.to.clone())).collect::<Vec<_>>()
                };
                assert_eq!(moves(&x), moves(&y), "{a} {b} {c}");
            }
        }
    }
    let big = common::solve_report(&nim, json!({ "position": [1u64 << 62, 5, 7], "remoteness": false }));
    assert_eq!(big.grundy, Some((1 << 62) ^ 2));
    assert_eq!(big.winning_moves.len(), 1);
    assert_eq!(big.winning_moves[0].to, vec![2, 5, 7]);
}

#[test]
fn misere_nim_follows_boutons_misere_rule() {
    let g = game("misere-nim.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for a in 0..=15u64 {
        for b in a..=15 {
            for c in b..=15 {
                let piles = [a, b, c];
                let xor = a ^ b ^ c;
                let small = piles.iter().all(|&p| p <= 1);
                let theorem = (small && xor == 1) || (!small && xor == 0);
                let p = is_p(&mut s, &piles);
                assert_eq!(p, theorem, "{a} {b} {c}: theorem");
                assert_eq!(p, brute_nim_p(&piles, true, &mut memo), "{a} {b} {c}: brute force");
            }
        }
    }
}

#[test]
fn restricted_nim_pile_values_are_n_mod_k_plus_one() {
    for k in [1i64, 2, 3, 5] {
        let g = game_with("restricted-nim.game", &[("k", k)]);
        let mut s = solver(&g);
        let set: Vec<u64> = (1..=k as u64).collect();
        let brute = brute_subtraction(&set, 200);
        for n in 0..=200u64 {
            let v = value(&mut s, &[n]).grundy.unwrap();
            assert_eq!(v, n % (k as u64 + 1), "k = {k}, n = {n}: theorem");
            assert_eq!(v, brute[n as usize] as u64, "k = {k}, n = {n}: brute force");
        }
        for a in 0..=15u64 {
            for b in a..=15 {
                let expected = (a % (k as u64 + 1)) ^ (b % (k as u64 + 1));
                assert_eq!(value(&mut s, &[a, b]).grundy, Some(expected), "k = {k}: {a} {b}");
            }
        }
    }
}

#[test]
fn grundys_game_values_match_grundy_1939() {
    let table = common::table(&common::loaded_file("grundys-game.game"), json!({ "upto": 200 }));
    let got: Vec<u64> = table.grundy[0].iter().map(|v| v.unwrap()).collect();
    let known = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2];
    assert_eq!(&got[..18], &known);
    let brute = brute_grundys_game(200);
    assert_eq!(got, brute.iter().map(|&v| v as u64).collect::<Vec<_>>());
}

#[test]
fn kayles_values_match_and_become_periodic_after_71() {
    let table = common::table(&common::loaded_file("kayles.game"), json!({ "upto": 200 }));
    let got: Vec<u64> = table.grundy[0].iter().map(|v| v.unwrap()).collect();
    assert_eq!(&got[..16], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]);
    let brute = brute_kayles(200);
    assert_eq!(got, brute.iter().map(|&v| v as u64).collect::<Vec<_>>());
    // Guy and Smith: period 12 from n = 71 on (70 is the last exception).
    for n in 71..=188 {
        assert_eq!(got[n], got[n + 12], "Kayles period 12 at n = {n}");
    }
    assert_ne!(got[70], got[82], "n = 70 is the last exception");
}

#[test]
fn kayles_in_words_and_octal_0_77_are_the_same_game() {
    let words = game("kayles.game");
    let code = common::game_text("game \"0.77\"\npiles\nmove: octal 0.77\n");
    let (mut a, mut b) = (solver(&words), solver(&code));
    for n in 0..=120u64 {
        assert_eq!(value(&mut a, &[n]), value(&mut b, &[n]), "n = {n}");
    }
}

#[test]
fn dawsons_kayles_values_match() {
    let table = common::table(&common::loaded_file("dawsons-kayles.game"), json!({ "upto": 200 }));
    let got: Vec<u64> = table.grundy[0].iter().map(|v| v.unwrap()).collect();
    assert_eq!(&got[..16], &[0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0]);
    let brute = brute_dawsons_kayles(200);
    assert_eq!(got, brute.iter().map(|&v| v as u64).collect::<Vec<_>>());
}

#[test]
fn octal_0_137_is_dawsons_kayles_shifted_by_one() {
    // Dawson's chess (0.137) on n counters plays like Dawson's Kayles (0.07) on n + 1.
    let a = common::game_text("piles\nmove: octal 0.137\n");
    let b = game("dawsons-kayles.game");
    let (mut sa, mut sb) = (solver(&a), solver(&b));
    for n in 0..=150u64 {
        assert_eq!(value(&mut sa, &[n]).grundy, value(&mut sb, &[n + 1]).grundy, "n = {n}");
    }
}

#[test]
fn wythoff_p_positions_are_the_beatty_pairs() {
    let g = game("wythoff.game");
    let mut s = solver(&g);
    let max = 60usize;
    let brute = brute_wythoff_p(max);
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut beatty = Vec::new();
    for k in 0.. {
        let (a, b) = ((k as f64 * phi).floor() as usize, (k as f64 * phi * phi).floor() as usize);
        if b > max {
            break;
        }
        beatty.push((a, b));
    }
    for a in 0..=max {
        for b in a..=max {
            let p = is_p(&mut s, &[a as u64, b as u64]);
            assert_eq!(p, beatty.contains(&(a, b)), "({a}, {b}): theorem");
            assert_eq!(p, brute[a][b], "({a}, {b}): brute force");
        }
    }
    let table = common::table(&common::loaded_file("wythoff.game"), json!({ "upto": 13 }));
    assert_eq!(table.p_positions, vec![vec![0, 0], vec![1, 2], vec![3, 5], vec![4, 7], vec![6, 10], vec![8, 13]]);
}

#[test]
fn chomp_rectangles_larger_than_one_square_are_n() {
    let g = game("chomp.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for rows in 1..=6u64 {
        for cols in 1..=6u64 {
            let board = vec![cols; rows as usize];
            let p = is_p(&mut s, &board);
            assert_eq!(p, rows == 1 && cols == 1, "{rows}×{cols}: strategy stealing");
            assert_eq!(p, brute_chomp_p(&board, &mut memo), "{rows}×{cols}: brute force");
        }
    }
}

#[test]
fn chomp_square_is_won_by_the_square_2_2() {
    let g = game("chomp.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for n in 2..=7u64 {
        let board = vec![n; n as usize];
        let wins = s.winning_moves(&Position::new(board)).unwrap();
        let mut l_shape = vec![n];
        l_shape.extend(std::iter::repeat_n(1, n as usize - 1));
        assert!(wins.iter().any(|m| m.to.piles == l_shape), "{n}×{n}: (2, 2) leaves an L with equal arms");
        assert!(brute_chomp_p(&l_shape, &mut memo), "{n}×{n}: the equal L is P by brute force");
    }
}

#[test]
fn chomp_two_rows_are_won_by_the_top_right_square() {
    let g = game("chomp.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for n in 2..=25u64 {
        let wins = s.winning_moves(&Position::new(vec![n, n])).unwrap();
        let tos: Vec<Vec<u64>> = wins.iter().map(|m| m.to.piles.clone()).collect();
        assert_eq!(tos, vec![vec![n, n - 1]], "2×{n}: the top-right square is the winning move");
        if n <= 12 {
            assert!(brute_chomp_p(&[n, n - 1], &mut memo), "2×{n}: brute force");
        }
    }
}

#[test]
fn lasker_nim_values_follow_the_four_cycle() {
    let g = game("lasker-nim.game");
    let mut s = solver(&g);
    // Brute force: options of n are n - t (t ≥ 1) and every split a + b = n.
    let mut brute: Vec<u32> = Vec::new();
    for n in 0..=200usize {
        let takes = (0..n).map(|m| brute[m]);
        let splits = (1..n).filter(|a| 2 * a <= n).map(|a| brute[a] ^ brute[n - a]);
        brute.push(mex(takes.chain(splits)));
    }
    // Past the brute force, the theorem alone: values into the thousands, whose marks from the
    // takes fill many words of the kernel's bitset.
    for n in 0..=3000u64 {
        let v = value(&mut s, &[n]).grundy.unwrap();
        let theorem = match n % 4 {
            0 if n == 0 => 0,
            0 => n - 1,
            3 => n + 1,
            _ => n,
        };
        assert_eq!(v, theorem, "n = {n}: theorem");
        if n <= 200 {
            assert_eq!(v, brute[n as usize] as u64, "n = {n}: brute force");
        }
    }
}

#[test]
fn moore_nim_is_p_when_every_column_counts_a_multiple_of_three() {
    let g = game("moore-nim.game");
    let mut s = solver(&g);
    // Brute force over sorted triples: a move lowers one or two piles.
    let mut memo: HashMap<Vec<u64>, bool> = HashMap::new();
    fn brute(p: Vec<u64>, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
        let mut key = p.clone();
        key.sort_unstable();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut to_p = false;
        'outer: for i in 0..3 {
            for a in 0..=key[i] {
                for j in i..3 {
                    let top = if j == i { 0 } else { key[j] };
                    for b in 0..=top {
                        let mut next = key.clone();
                        next[i] = a;
                        if j != i {
                            next[j] = b;
                        }
                        if next == key {
                            continue;
                        }
                        if brute(next, memo) {
                            to_p = true;
                            break 'outer;
                        }
                    }
                }
            }
        }
        memo.insert(key, !to_p);
        !to_p
    }
    for a in 0..=9u64 {
        for b in a..=9 {
            for c in b..=9 {
                let theorem = (0..4).all(|bit| [a, b, c].iter().filter(|p| (*p >> bit) & 1 == 1).count() % 3 == 0);
                let p = is_p(&mut s, &[a, b, c]);
                assert_eq!(p, theorem, "{a} {b} {c}: theorem");
                assert_eq!(p, brute(vec![a, b, c], &mut memo), "{a} {b} {c}: brute force");
            }
        }
    }
}

#[test]
fn moore_nim_by_the_theorem_agrees_with_the_search_for_every_k() {
    use takeaway_core::{Budget, MethodKind};
    for k in 2..=3u64 {
        let g = common::game_text(&format!("game \"Nim_{k}\"\npiles\nmove: take any from each of up to {k} piles\n"));
        let mut theorem = solver(&g);
        assert_eq!(theorem.method(), MethodKind::Moore);
        let mut search = takeaway_core::internals::generic_solver(&g, &Budget::new());
        for a in 0..=6u64 {
            for b in a..=6 {
                for c in b..=6 {
                    for d in [0u64, 3, 5] {
                        let pos = Position::new(vec![a, b, c, d]);
                        let v = theorem.value(&pos).unwrap();
                        let w = search.value(&pos).unwrap();
                        assert_eq!(v.outcome, w.outcome, "k = {k}, {a} {b} {c} {d}");
                        // Grundy values of small positions still come from a search (and
                        // positions of many moves get none rather than a wrong one).
                        if a + b + c + d <= 12 || v.grundy.is_some() {
                            assert_eq!(v.grundy, w.grundy, "k = {k}, {a} {b} {c} {d}");
                        }
                        let mut moves: Vec<Vec<u64>> =
                            theorem.winning_moves(&pos).unwrap().into_iter().map(|m| m.to.piles).collect();
                        let mut expected: Vec<Vec<u64>> =
                            search.winning_moves(&pos).unwrap().into_iter().map(|m| m.to.piles).collect();
                        moves.sort();
                        expected.sort();
                        assert_eq!(moves, expected, "k = {k}, {a} {b} {c} {d}");
                    }
                }
            }
        }
    }
}

#[test]
fn moore_nim_answers_large_positions_with_a_move_the_theorem_checks() {
    let g = game("moore-nim.game");
    let mut s = solver(&g);
    let columns_ok = |p: &[u64]| (0..64).all(|bit| p.iter().filter(|&&x| (x >> bit) & 1 == 1).count() % 3 == 0);
    assert!(is_p(&mut s, &[1000, 1000, 1000]));
    for piles in [vec![1000, 999, 1000], vec![123456789, 987654321, 555555555, 31], vec![u64::MAX, 1, 2, 3, 4]] {
        assert!(!columns_ok(&piles));
        let v = value(&mut s, &piles);
        assert_eq!(v.outcome, Outcome::N);
        let moves = s.winning_moves(&Position::new(piles.clone())).unwrap();
        assert_eq!(moves.len(), 1, "{piles:?}");
        let to = &moves[0].to.piles;
        assert!(columns_ok(to), "{piles:?} → {to:?}");
        let lowered = piles.iter().zip(to).filter(|(a, b)| b < a).count();
        assert!((1..=2).contains(&lowered) && piles.iter().zip(to).all(|(a, b)| b <= a), "{piles:?} → {to:?}");
    }
}

#[test]
fn tables_of_three_and_four_piles_list_the_p_positions_bouton_and_moore_predict() {
    use takeaway_core::answers::TableShape;
    let columns_multiple =
        |p: &[u64], m: usize| (0..64).all(|bit| p.iter().filter(|&&x| (x >> bit) & 1 == 1).count() % m == 0);
    for (file, piles, upto, modulus, rule) in [
        ("nim.game", 3, 9, 2, "Bouton"),
        ("nim.game", 4, 5, 2, "Bouton"),
        ("moore-nim.game", 3, 9, 3, "Moore's theorem for k = 2"),
        ("moore-nim.game", 4, 5, 3, "Moore's theorem for k = 2"),
    ] {
        let table = common::table(&common::loaded_file(file), json!({ "upto": upto, "piles": piles }));
        assert_eq!(table.shape, TableShape::ManyPiles { piles });
        // Every multiset of piles once, in ascending order: C(upto + piles, piles) of them.
        let mut expected_positions = Vec::new();
        let mut expected_p = Vec::new();
        let mut each = |p: Vec<u64>| {
            if columns_multiple(&p, modulus) {
                expected_p.push(p.clone());
            }
            expected_positions.push(p);
        };
        for a in 0..=upto {
            for b in a..=upto {
                for c in b..=upto {
                    if piles == 3 {
                        each(vec![a, b, c]);
                    } else {
                        for d in c..=upto {
                            each(vec![a, b, c, d]);
                        }
                    }
                }
            }
        }
        assert_eq!(table.positions, expected_positions, "{file} {piles}");
        assert_eq!(table.p_positions, expected_p, "{file} {piles}");
        let pattern = table.pattern.unwrap_or_default();
        assert!(pattern.contains(rule), "{file} {piles}: {pattern}");
    }
    // A game on exactly three piles gets this table without --piles; its P-positions follow no
    // column rule, and the table says none.
    let table = common::table(&common::loaded_file("three-pile-wythoff.game"), json!({ "upto": 5 }));
    assert_eq!(table.shape, TableShape::ManyPiles { piles: 3 });
    assert_eq!(table.positions.len(), 56);
    assert_eq!(table.pattern, None);
}

// ---- periods and patterns ------------------------------------------------------------------------

fn period_of(file: &str, settings: &[(&str, i64)], upto: u64) -> Option<takeaway_core::answers::Periodicity> {
    let text = std::fs::read_to_string(common::games_dir().join(file)).expect("the game file");
    common::table(&common::loaded_with(&text, settings), json!({ "upto": upto })).period
}

#[test]
fn kayles_has_preperiod_71_and_period_12_proven() {
    for upto in [30, 100, 1000] {
        let p = period_of("kayles.game", &[], upto).expect("a period");
        assert_eq!((p.preperiod, p.period, p.saltus, p.proven), (71, 12, 0, true), "upto {upto}");
        assert_eq!(p.theorem, Some("Guy and Smith's periodicity theorem for octal games"));
        // the theorem needs G(n + 12) = G(n) for 71 ≤ n < 2·71 + 12 + 2 = 156
        assert!(p.checked_to >= 156 + 12);
    }
}

#[test]
fn dawsons_kayles_has_period_34_proven() {
    // Dawson's chess (0.137) has its last exception at 51; Dawson's Kayles (0.07) is that
    // shifted by one, so its values repeat with period 34 from 53 on.
    let p = period_of("dawsons-kayles.game", &[], 100).expect("a period");
    assert_eq!((p.preperiod, p.period, p.proven), (53, 34, true));
}

#[test]
fn subtraction_games_have_their_periods_proven() {
    let p = period_of("subtraction-1-3.game", &[], 30).unwrap();
    assert_eq!((p.preperiod, p.period, p.proven), (0, 2, true));
    for k in 2..=6i64 {
        let p = period_of("tag.game", &[("k", k)], 30).unwrap();
        assert_eq!((p.preperiod, p.period, p.proven), (0, k as u64 + 1, true), "TAG({k})");
        let p = period_of("restricted-nim.game", &[("k", k)], 30).unwrap();
        assert_eq!((p.preperiod, p.period, p.proven), (0, k as u64 + 1, true), "restricted Nim, k = {k}");
    }
    // misère play: the outcomes repeat, and the same window argument proves it
    let p = period_of("tag-misere.game", &[], 30).unwrap();
    assert_eq!((p.of, p.preperiod, p.period, p.proven), ("outcome", 0, 4, true));
}

#[test]
fn lasker_nim_is_arithmetic_periodic() {
    let p = period_of("lasker-nim.game", &[], 30).unwrap();
    assert_eq!((p.preperiod, p.period, p.saltus, p.proven), (1, 4, 4, false));
    let p = period_of("nim.game", &[], 30).unwrap();
    assert_eq!((p.preperiod, p.period, p.saltus), (0, 1, 1));
}

#[test]
fn games_without_a_known_period_show_none() {
    for file in ["grundys-game.game", "fibonacci-nim.game", "take-at-most-last.game", "take-less-than-twice.game"] {
        for upto in [30, 700, 1500] {
            assert_eq!(period_of(file, &[], upto), None, "{file} up to {upto}");
        }
    }
}

#[test]
fn famous_patterns_of_p_positions_are_recognised() {
    let pattern = |file: &str, upto: u64| common::table(&common::loaded_file(file), json!({ "upto": upto })).pattern;
    assert_eq!(pattern("tag.game", 40).as_deref(), Some("the multiples of 4"));
    assert_eq!(pattern("tag-misere.game", 40).as_deref(), Some("the numbers n with n mod 4 = 1"));
    assert_eq!(pattern("take-at-most-last.game", 100).as_deref(), Some("the powers of 2"));
    assert_eq!(pattern("take-less-than-twice.game", 100).as_deref(), Some("the powers of 2"));
    assert_eq!(pattern("fibonacci-nim.game", 100).as_deref(), Some("the Fibonacci numbers"));
    assert!(pattern("wythoff.game", 30).unwrap().starts_with("Wythoff's pairs"));
    assert_eq!(pattern("kayles.game", 40), None);
    let two_pile_nim = common::loaded("piles 2\nmove: take any from one pile\n");
    assert_eq!(common::table(&two_pile_nim, json!({ "upto": 20 })).pattern.as_deref(), Some("the equal pairs (a, a)"));
}

// ---- remoteness (Steinhaus) ---------------------------------------------------------------------

/// Remoteness by plain search: 0 when no move is possible; from an N-position the winner
/// hurries (1 + the least remoteness of a P option), from a P-position the loser delays
/// (1 + the largest remoteness of any option). Returns (is P, remoteness).
fn brute_remoteness(
    pos: Vec<u64>,
    moves: &dyn Fn(&[u64]) -> Vec<Vec<u64>>,
    misere: bool,
    memo: &mut HashMap<Vec<u64>, (bool, u64)>,
) -> (bool, u64) {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let children: Vec<(bool, u64)> =
        moves(&pos).into_iter().map(|c| brute_remoteness(c, moves, misere, memo)).collect();
    let result = if children.is_empty() {
        (!misere, 0)
    } else if children.iter().any(|c| c.0) {
        (false, 1 + children.iter().filter(|c| c.0).map(|c| c.1).min().unwrap())
    } else {
        (true, 1 + children.iter().map(|c| c.1).max().unwrap())
    };
    memo.insert(pos, result);
    result
}

#[test]
fn remoteness_of_tag_is_two_per_round() {
    for k in 1..=5u64 {
        let g = game_with("tag.game", &[("k", k as i64)]);
        let mut s = solver(&g);
        let sub = |p: &[u64]| (1..=k.min(p[0])).map(|t| vec![p[0] - t]).collect::<Vec<_>>();
        let mut memo = HashMap::new();
        for n in 0..=120u64 {
            let r = s.remoteness(&Position::new(vec![n])).unwrap().unwrap();
            let formula = 2 * (n / (k + 1)) + u64::from(n % (k + 1) != 0);
            assert_eq!(r, formula, "TAG({k}), n = {n}: formula");
            assert_eq!(r, brute_remoteness(vec![n], &sub, false, &mut memo).1, "TAG({k}), n = {n}: brute force");
        }
    }
}

#[test]
fn remoteness_matches_brute_force_in_misere_nim_wythoff_and_chomp() {
    let nim_moves = |p: &[u64]| {
        let mut out = Vec::new();
        for i in 0..p.len() {
            for t in 1..=p[i] {
                let mut c = p.to_vec();
                c[i] -= t;
                c.sort_unstable();
                out.push(c);
            }
        }
        out
    };
    let g = game("misere-nim.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for a in 0..=6u64 {
        for b in a..=6 {
            for c in b..=6 {
                let r = s.remoteness(&Position::new(vec![a, b, c])).unwrap().unwrap();
                assert_eq!(r, brute_remoteness(vec![a, b, c], &nim_moves, true, &mut memo).1, "misère {a} {b} {c}");
            }
        }
    }
    let wythoff_moves = |p: &[u64]| {
        let mut out = nim_moves(p);
        for t in 1..=p[0].min(p[1]) {
            let mut c = vec![p[0] - t, p[1] - t];
            c.sort_unstable();
            out.push(c);
        }
        out
    };
    let g = game("wythoff.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for a in 0..=12u64 {
        for b in a..=12 {
            let r = s.remoteness(&Position::new(vec![a, b])).unwrap().unwrap();
            assert_eq!(r, brute_remoteness(vec![a, b], &wythoff_moves, false, &mut memo).1, "Wythoff {a} {b}");
        }
    }
    let chomp_moves = |rows: &[u64]| {
        let mut out = Vec::new();
        for y in 0..rows.len() {
            for x in 0..rows[y] {
                if x == 0 && y == 0 {
                    continue;
                }
                let mut next = rows.to_vec();
                for r in next.iter_mut().skip(y) {
                    *r = (*r).min(x);
                }
                while next.last() == Some(&0) {
                    next.pop();
                }
                out.push(next);
            }
        }
        out
    };
    let g = game("chomp.game");
    let mut s = solver(&g);
    let mut memo = HashMap::new();
    for rows in 1..=4u64 {
        for cols in 1..=4u64 {
            let board = vec![cols; rows as usize];
            let r = s.remoteness(&Position::new(board.clone())).unwrap().unwrap();
            assert_eq!(r, brute_remoteness(board, &chomp_moves, false, &mut memo).1, "Chomp {rows}×{cols}");
        }
    }
}

#[test]
fn subtracting_powers_of_two_gives_n_mod_3_and_powers_are_written_with_a_caret() {
    // Every power of 2 is 1 or 2 mod 3, so from a multiple of 3 every move leaves a non-multiple,
    // and from n ≢ 0 one of 1, 2 reaches a multiple: G(n) = n mod 3 (the mex over the
    // reachable residues). Written with the predicate, and as the set 2^0..2^k through `^`.
    let game = common::game_text("piles\nmove: take t where power_of_two(t)\n");
    let mut s = common::solver(&game);
    let brute: Vec<u32> = {
        let set: Vec<u64> = (0..7).map(|k| 1u64 << k).collect();
        brute_subtraction(&set, 100)
    };
    for n in 0..=100u64 {
        assert_eq!(common::value(&mut s, &[n]).grundy, Some(n % 3), "n = {n}");
        assert_eq!(brute[n as usize] as u64, n % 3, "brute force, n = {n}");
    }
    // 2^3^2 is 2^(3^2) = 512, and -2^2 is -(2^2): take 1..2^3^2 - 510 is TAG(2), and
    // take 1..0 - -2^2 is TAG(4).
    for (rules, k) in [("move: take 1..2^3^2 - 510", 2u64), ("move: take 1..0 - -2^2", 4)] {
        let game = common::game_text(&format!("pile\n{rules}\n"));
        let mut s = common::solver(&game);
        for n in 0..=20u64 {
            assert_eq!(common::is_p(&mut s, &[n]), n % (k + 1) == 0, "{rules}: n = {n}");
        }
    }
    // take 1..2^k is TAG(2^k): P-positions are the multiples of 2^k + 1.
    let tag = common::game_text("param k = 3\npile\nmove: take 1..2^k\n");
    let mut s = common::solver(&tag);
    for n in 0..=40u64 {
        assert_eq!(common::is_p(&mut s, &[n]), n % 9 == 0, "n = {n}");
    }
}

// ---- phrases as teachers write them ----------------------------------------------------------

/// A subtraction game's values by the definition: g(n) = mex{g(n − s) : s ∈ S, s ≤ n}.
fn subtraction_values(set: &[u64], upto: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        g.push(common::mex(set.iter().filter(|&&s| s <= n).map(|&s| g[(n - s) as usize])));
    }
    g
}

#[test]
fn lists_written_with_commas_are_the_subtraction_sets_they_say() {
    let by_definition = subtraction_values(&[1, 2, 5], 60);
    for rule in ["take 1, 2 or 5", "take 1, 2, or 5", "take 1, 2, 5", "take 1 or 2 or 5", "take {1, 2, 5}"] {
        let game = common::game_text(&format!("piles\nmove: {rule}\n"));
        let mut solver = common::solver(&game);
        for (n, &g) in by_definition.iter().enumerate() {
            assert_eq!(common::value(&mut solver, &[n as u64]).grundy, Some(g as u64), "{rule}: pile {n}");
        }
    }
    // A comma before `then split` still starts the split.
    let kayles = common::game_text("piles\nmove: take 1, 2, then split\n");
    assert_eq!(common::value(&mut common::solver(&kayles), &[7]).grundy, Some(2), "Kayles' G(7) = 2");
}

#[test]
fn small_numbers_may_be_words_where_a_count_is_expected() {
    for (words, digits, piles) in [
        ("take any from two piles", "take any from 2 piles", vec![3, 5, 6]),
        ("take 1..3 from each of up to three piles", "take 1..3 from each of up to 3 piles", vec![2, 4, 4, 7]),
        ("split into three", "split into 3", vec![9]),
        ("take 1, then split into two unequal", "take 1, then split into 2 unequal", vec![12]),
    ] {
        let (a, b) = (
            common::game_text(&format!("piles\nmove: {words}\n")),
            common::game_text(&format!("piles\nmove: {digits}\n")),
        );
        let (va, vb) = (common::value(&mut common::solver(&a), &piles), common::value(&mut common::solver(&b), &piles));
        assert_eq!(va, vb, "{words} / {digits} at {piles:?}");
    }
}

#[test]
fn near_misses_are_answered_with_the_phrase_to_write() {
    let help = |rule: &str| match takeaway_core::load(&format!("piles\nmove: {rule}\n"), "test", &[]) {
        Ok(_) => panic!("{rule} loaded"),
        Err(e) => miette::Diagnostic::help(&e).map(|h| h.to_string()).unwrap_or_default(),
    };
    assert!(help("take t where t is square").contains("`where square(t)`"));
    assert!(help("take t where t is a prime").contains("`where prime(t)`"));
    assert!(help("split into two unequal heaps").contains("write `split into two unequal`"));
    assert!(help("take 1, then split into two parts").contains("write `take 1, then split into two`"));
}

/// Moore's Nim_3 on three piles: every pile may drop at once, so the theorem gives the outcome
/// but not the Grundy value, which comes from the search over positions. Up to (7, 7, 7) it is
/// computed within the default budget, and equals the mex written out here.
#[test]
fn moore_nim_grundy_values_of_three_piles_match_a_brute_force_mex() {
    fn brute(p: [u64; 3], memo: &mut std::collections::HashMap<[u64; 3], u64>) -> u64 {
        let mut key = p;
        key.sort();
        if let Some(&g) = memo.get(&key) {
            return g;
        }
        let mut seen = std::collections::HashSet::new();
        for i in 0..=p[0] {
            for j in 0..=p[1] {
                for k in 0..=p[2] {
                    if (i, j, k) != (p[0], p[1], p[2]) {
                        seen.insert(brute([i, j, k], memo));
                    }
                }
            }
        }
        let g = (0..).find(|g| !seen.contains(g)).unwrap_or(0);
        memo.insert(key, g);
        g
    }
    let nim3 = common::loaded("game \"Nim_3\"\npiles\nmove: take any from each of up to 3 piles\n");
    let mut memo = std::collections::HashMap::new();
    for (a, b, c) in [(1, 2, 3), (3, 5, 6), (4, 4, 7), (7, 7, 7)] {
        let report = common::solve_report(&nim3, json!({ "position": [a, b, c], "remoteness": false }));
        assert_eq!(report.grundy, Some(brute([a, b, c], &mut memo)), "{a} {b} {c}");
    }
    assert_eq!(brute([7, 7, 7], &mut memo), 21);
}

/// Normal-play sums of single piles (Nim, a subtraction game on any number of piles) take their
/// remoteness from the grid: equal to the brute force on every triple of piles up to 7, asked
/// largest first and then smallest first (the grid grows between questions and is reused).
#[test]
fn remoteness_of_sums_of_piles_matches_brute_force() {
    let takes = |amounts: Vec<u64>| {
        move |p: &[u64]| {
            let mut out = Vec::new();
            for i in 0..p.len() {
                for &t in amounts.iter().filter(|&&t| t <= p[i]) {
                    let mut c = p.to_vec();
                    c[i] -= t;
                    c.sort_unstable();
                    out.push(c);
                }
            }
            out
        }
    };
    let text = |rule: &str| format!("game \"x\"\npiles\nmove: {rule}\n");
    for (rule, amounts) in [("take any", (1..=7).collect::<Vec<u64>>()), ("take 1, 3 or 4", vec![1, 3, 4])] {
        let g = common::game_text(&text(rule));
        let moves = takes(amounts);
        let mut memo = HashMap::new();
        let triples: Vec<[u64; 3]> =
            (0..=7u64).flat_map(|a| (a..=7).flat_map(move |b| (b..=7).map(move |c| [a, b, c]))).collect();
        for order in [triples.iter().rev().collect::<Vec<_>>(), triples.iter().collect()] {
            let mut s = solver(&g);
            for &&[a, b, c] in &order {
                let r = s.remoteness(&Position::new(vec![c, a, b])).unwrap().unwrap();
                assert_eq!(r, brute_remoteness(vec![a, b, c], &moves, false, &mut memo).1, "{rule}: {a} {b} {c}");
            }
        }
    }
}
