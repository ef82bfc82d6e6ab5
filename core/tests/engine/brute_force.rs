//! Independent brute forces for the theorems of `theory.rs`: each written here from the rules
//! alone, sharing no code with the solver.

// The brute forces index tables by pile size on purpose: they read like the recurrences.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;

use crate::common::mex;

/// Grundy values of a subtraction game with a finite set, for one pile of 0..=max.
pub(crate) fn brute_subtraction(set: &[u64], max: u64) -> Vec<u32> {
    let mut g = Vec::new();
    for n in 0..=max {
        g.push(mex(set.iter().filter(|&&s| s <= n).map(|&s| g[(n - s) as usize])));
    }
    g
}

/// P-positions of a one-pile subtraction game under misère play (the last mover loses).
pub(crate) fn brute_misere_subtraction_p(set: &[u64], max: u64) -> Vec<bool> {
    let mut p: Vec<bool> = Vec::new();
    for n in 0..=max {
        let options: Vec<u64> = set.iter().filter(|&&s| s <= n).map(|&s| n - s).collect();
        // No move: the opponent moved last and lost, so the player to move has won (N).
        let is_p = !options.is_empty() && options.iter().all(|&o| !p[o as usize]);
        p.push(is_p);
    }
    p
}

/// P-positions of a Schwenk take-away game for starting piles 0..=max: the first move takes
/// 1..n-1, after a take of x the next may take 1..=f(x). State (m, k): pile m, may take up to k.
pub(crate) fn brute_takeaway_p(max: u64, f: impl Fn(u64) -> u64) -> Vec<bool> {
    let size = max as usize + 1;
    // p[m][k] with k capped at m (taking more than the pile is impossible anyway)
    let mut p = vec![vec![false; size]; size];
    for m in 0..size {
        for k in 0..size {
            let top = k.min(m);
            p[m][k] = !(1..=top).any(|t| {
                let rest = m - t;
                p[rest][(f(t as u64) as usize).min(rest)]
            });
        }
    }
    (0..size).map(|n| !(1..n).any(|t| p[n - t][(f(t as u64) as usize).min(n - t)])).collect()
}

/// Outcome of normal-play Nim (or misère Nim) by plain search over sorted piles.
pub(crate) fn brute_nim_p(piles: &[u64], misere: bool, memo: &mut HashMap<(Vec<u64>, bool), bool>) -> bool {
    let mut key = piles.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&(key.clone(), misere)) {
        return v;
    }
    let mut any_move = false;
    let mut to_p = false;
    for i in 0..key.len() {
        for take in 1..=key[i] {
            any_move = true;
            let mut next = key.clone();
            next[i] -= take;
            if brute_nim_p(&next, misere, memo) {
                to_p = true;
            }
        }
    }
    let is_p = if !any_move { !misere } else { !to_p };
    memo.insert((key, misere), is_p);
    is_p
}

/// Grundy values of heaps 0..=max when a move splits a heap into two unequal non-empty heaps.
pub(crate) fn brute_grundys_game(max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        g.push(mex((1..n).filter(|&a| 2 * a < n).map(|a| g[a] ^ g[n - a])));
    }
    g
}

/// Kayles on a row of n pins: knock down one pin or two adjacent ones, at any place in the row.
pub(crate) fn brute_kayles(max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let mut options = Vec::new();
        for width in 1..=2usize {
            if width > n {
                continue;
            }
            for left in 0..=(n - width) {
                options.push(g[left] ^ g[n - width - left]);
            }
        }
        g.push(mex(options));
    }
    g
}

/// Dawson's Kayles (0.07): knock down exactly two adjacent pins, anywhere in the row.
pub(crate) fn brute_dawsons_kayles(max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let options = if n >= 2 { (0..=(n - 2)).map(|left| g[left] ^ g[n - 2 - left]).collect() } else { vec![] };
        g.push(mex(options));
    }
    g
}

/// Wythoff P-positions with both piles ≤ max, by search over the pairs.
pub(crate) fn brute_wythoff_p(max: usize) -> Vec<Vec<bool>> {
    let mut p = vec![vec![false; max + 1]; max + 1];
    for a in 0..=max {
        for b in 0..=max {
            let from_a = (1..=a).any(|t| p[a - t][b]);
            let from_b = (1..=b).any(|t| p[a][b - t]);
            let from_both = (1..=a.min(b)).any(|t| p[a - t][b - t]);
            p[a][b] = !(from_a || from_b || from_both);
        }
    }
    p
}

/// Chomp by search: rows are lengths bottom first; biting (x, y) cuts rows y.. to x - 1.
pub(crate) fn brute_chomp_p(rows: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&v) = memo.get(rows) {
        return v;
    }
    let mut to_p = false;
    'search: for y in 0..rows.len() {
        for x in 0..rows[y] {
            if x == 0 && y == 0 {
                continue; // the poisoned square
            }
            let mut next: Vec<u64> = rows.to_vec();
            for r in next.iter_mut().skip(y) {
                *r = (*r).min(x);
            }
            while next.last() == Some(&0) {
                next.pop();
            }
            if brute_chomp_p(&next, memo) {
                to_p = true;
                break 'search;
            }
        }
    }
    memo.insert(rows.to_vec(), !to_p);
    !to_p
}

pub(crate) fn fibonacci_upto(max: u64) -> Vec<u64> {
    let mut f = vec![1u64, 2];
    while f[f.len() - 1] + f[f.len() - 2] <= max {
        f.push(f[f.len() - 1] + f[f.len() - 2]);
    }
    f
}
