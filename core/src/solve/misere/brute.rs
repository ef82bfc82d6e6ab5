//! What the misère tests check the quotients against: a heap's options in an octal game, from
//! the code's definition, the misère outcome of a sum of heaps by search over whole positions,
//! and the solver against that search. The quotient's, the relative quotients', the solver's
//! and the misère answers' tests (in `analysis`) share them.

use std::collections::HashMap;

use super::monoid::Word;
use crate::rules::Position;
use crate::solve::{Outcome, Solver};

/// A misère game on any number of piles with the rules `rules`.
pub(crate) fn game(rules: &str) -> crate::rules::Game {
    crate::load(&format!("piles\n{rules}\nplay misère\n"), "g", &[]).expect("game loads")
}

/// The rule of the octal game whose digits after the point are `code[1..]`.
pub(crate) fn octal_rules(code: &[u8]) -> String {
    format!("move: octal 0.{}", code[1..].iter().map(|d| d.to_string()).collect::<String>())
}

/// One heap to 40, and every sum of two or three heaps below `below`: the solver (through its
/// quotient) against the search over whole positions.
pub(crate) fn agrees_with_the_search(name: &str, options: &dyn Fn(u64) -> Vec<Word>, solver: &mut Solver, below: u64) {
    let mut memo = HashMap::new();
    let mut check = |pos: Vec<u64>| {
        let expected = if brute_with(options, &pos, &mut memo) { Outcome::P } else { Outcome::N };
        assert_eq!(solver.value(&Position::new(pos.clone())).unwrap().outcome, expected, "{name} {pos:?}");
    };
    for n in 0..=40 {
        check(vec![n]);
    }
    for a in 1..below {
        for b in a..below {
            check(vec![a, b]);
            for c in b..below {
                check(vec![a, b, c]);
            }
        }
    }
}

/// Options of a heap of n in an octal game, as words.
pub(crate) fn octal_options(code: &[u8], n: u64) -> Vec<Word> {
    let mut out = Vec::new();
    for (t, &d) in code.iter().enumerate().skip(1) {
        let t = t as u64;
        if t > n {
            break;
        }
        let r = n - t;
        if d & 1 != 0 && r == 0 {
            out.push(vec![]);
        }
        if d & 2 != 0 && r > 0 {
            out.push(vec![r]);
        }
        if d & 4 != 0 {
            for a in 1..=r / 2 {
                if r - a >= 1 {
                    out.push(vec![a, r - a]);
                }
            }
        }
    }
    out
}

/// Misère outcome (true: P) of a sum of heaps, by search over whole positions.
pub(crate) fn brute_with(options: &dyn Fn(u64) -> Vec<Word>, pos: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key: Vec<u64> = pos.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&p) = memo.get(&key) {
        return p;
    }
    let mut any_move = false;
    let mut to_p = false;
    'all: for i in 0..key.len() {
        if i > 0 && key[i] == key[i - 1] {
            continue;
        }
        for o in options(key[i]) {
            any_move = true;
            let mut next: Vec<u64> = key[..i].iter().chain(&key[i + 1..]).copied().collect();
            next.extend(o);
            if brute_with(options, &next, memo) {
                to_p = true;
                break 'all;
            }
        }
    }
    let p = any_move && !to_p;
    memo.insert(key, p);
    p
}
