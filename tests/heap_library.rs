//! Games of CGSuite's heap library shipped in `games/`: each file's `# expect grundy:` claim
//! against a brute force written here from the rules in words, not from takeaway's engine.

mod common;

use std::collections::HashSet;

fn claimed_grundy(file: &str) -> Vec<u64> {
    claimed(file, "grundy")
}

/// The numbers of the header line `# expect {what}: …`.
fn claimed(file: &str, what: &str) -> Vec<u64> {
    let text = std::fs::read_to_string(common::games_dir().join(file)).unwrap();
    let prefix = format!("# expect {what}:");
    let line = text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).expect("a claim");
    line.split_whitespace().map(|w| w.parse().unwrap()).collect()
}

fn mex(seen: &HashSet<u64>) -> u64 {
    (0..).find(|v| !seen.contains(v)).unwrap()
}

#[test]
fn all_but_subtraction_matches_a_brute_force() {
    let claim = claimed_grundy("all-but-subtraction.game");
    let mut g: Vec<u64> = Vec::new();
    for n in 0..claim.len() {
        let seen: HashSet<u64> = (1..=n).filter(|t| ![2, 3, 7].contains(t)).map(|t| g[n - t]).collect();
        g.push(mex(&seen));
    }
    assert_eq!(g, claim);
}

#[test]
fn splittles_matches_a_brute_force() {
    let claim = claimed_grundy("splittles.game");
    let mut g: Vec<u64> = Vec::new();
    for n in 0..claim.len() {
        let mut seen = HashSet::new();
        for t in [1, 4] {
            if t > n {
                continue;
            }
            let rest = n - t;
            seen.insert(g[rest]);
            for a in 1..=rest / 2 {
                seen.insert(g[a] ^ g[rest - a]);
            }
        }
        g.push(mex(&seen));
    }
    assert_eq!(g, claim);
}

/// Mem's values over (pile, last move), by the rule in words: take a ≥ k after a move of k.
fn mem_values(size: usize) -> Vec<Vec<u64>> {
    // g[n][k]: a pile of n after a move of k; k = 0 stands for the first move (any a ≥ 1).
    let mut g: Vec<Vec<u64>> = Vec::new();
    for n in 0..=size {
        let row = (0..=size).map(|k| mex(&(k.max(1)..=n).map(|a| g[n - a][a]).collect())).collect();
        g.push(row);
    }
    g
}

#[test]
fn mem_matches_a_brute_force() {
    let g = mem_values(40);
    let start = claimed_grundy("mem.game");
    assert_eq!((0..start.len()).map(|n| g[n][0]).collect::<Vec<_>>(), start);
    let after_three = claimed("mem.game", "grundy after last 3");
    assert_eq!((0..after_three.len()).map(|n| g[n][3]).collect::<Vec<_>>(), after_three);
    // The theory in the file's header: after a move of k, the P-positions are exactly n < k.
    for (n, row) in g.iter().enumerate() {
        for (k, value) in row.iter().enumerate().skip(1) {
            assert_eq!(*value == 0, n < k, "pile {n} after a move of {k}");
        }
    }
}
