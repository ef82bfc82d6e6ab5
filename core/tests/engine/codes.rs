//! The full take-and-break notation (`code …`): each code against the same game in plain
//! words, and codes that leave three or more heaps against a brute force written here.

use crate::common;

use takeaway_core::Position;
use takeaway_core::{Budget, Solver};

const UPTO: u64 = 40;

fn values(text: &str, upto: u64) -> Vec<u64> {
    let game = common::game_text(text);
    let mut solver = Solver::new(&game, &Budget::new());
    (0..=upto).map(|n| solver.value(&Position::new(vec![n])).unwrap().grundy.expect("a Grundy value")).collect()
}

fn code(c: &str) -> Vec<u64> {
    values(&format!("game \"c\"\npiles\nmove: code {c}\n"), UPTO)
}

fn words(rules: &str) -> Vec<u64> {
    values(&format!("game \"w\"\npiles\n{rules}\n"), UPTO)
}

#[test]
fn codes_say_what_plain_words_say() {
    let cases = [
        ("4!.0", "move: split unequal"), // Grundy's game
        ("4?.0", "move: split unequal"), // two heaps not all equal are unequal
        ("4=.0", "move: split equal"),
        ("8.0", "move: split into 3"),
        ("0.[3]", "move: take any"), // Nim
        ("0.[7]", "move: take any, then split"),
        ("0.{0,1,2!}", "move: take 1, then split unequal"),
        ("0.77", "move: take 1..2, then split"), // Kayles, through the full notation's reader too
        ("0.[1]", "move: take any where t = n"),
        ("0.7007", "move: take 1 or 4, then split"), // Splittles {1, 4} // take a whole heap only
        ("4.0[3]", "move: split\nmove: take t where t ≥ 2"), // split, or take 2 or more
    ];
    for (c, w) in cases {
        assert_eq!(code(c), words(w), "code {c} against `{w}`");
    }
    let grundy = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0];
    assert_eq!(&code("4!.0")[..grundy.len()], grundy, "Grundy's game is 4!.0");
}

/// Every way to write `total` as `parts` non-empty parts, smallest first.
fn partitions(total: u64, parts: u64, min: u64, out: &mut Vec<Vec<u64>>, current: &mut Vec<u64>) {
    if parts == 0 {
        if total == 0 {
            out.push(current.clone());
        }
        return;
    }
    let mut p = min;
    while p * parts <= total {
        current.push(p);
        partitions(total - p, parts - 1, p, out, current);
        current.pop();
        p += 1;
    }
}

/// Grundy values when a move takes `t` and leaves the rest in a number of heaps `allowed` accepts.
fn brute(upto: u64, t: u64, allowed: impl Fn(u64) -> bool) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=upto {
        let mut seen = std::collections::HashSet::new();
        if n >= t && n > 0 {
            let rest = n - t;
            for k in 0..=rest {
                if !allowed(k) {
                    continue;
                }
                let mut all = Vec::new();
                partitions(rest, k, 1, &mut all, &mut Vec::new());
                for parts in all {
                    seen.insert(parts.iter().fold(0, |a, &p| a ^ g[p as usize]));
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

#[test]
fn codes_leaving_three_or_more_heaps_match_a_brute_force() {
    let upto = 30;
    let c = |text: &str| values(&format!("game \"c\"\npiles\nmove: code {text}\n"), upto);
    // f = 15: take 1, leave 0, 1, 2 or 3 heaps
    assert_eq!(c("0.f"), brute(upto, 1, |k| k <= 3));
    // v = 31: take 1, leave up to 4 heaps
    assert_eq!(c("0.v"), brute(upto, 1, |k| k <= 4));
    // 8 = three heaps exactly
    assert_eq!(c("0.8"), brute(upto, 1, |k| k == 3));
    assert_eq!(c("0.{2+}"), brute(upto, 1, |k| k >= 2));
    assert_eq!(c("0.*"), brute(upto, 1, |_| true));
    assert_eq!(c("0.{1,3}"), brute(upto, 1, |k| k == 1 || k == 3));
}

#[test]
fn three_unequal_heaps() {
    // 8!.0: split a heap into three unequal heaps, against `split into 3 unequal`.
    assert_eq!(code("8!.0"), words("move: split into 3 unequal"));
}
