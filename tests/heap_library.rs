//! Games of CGSuite's heap library shipped in `games/`: each file's `# expect grundy:` claim
//! against a brute force written here from the rules in words, not from takeaway's engine.

mod common;

use std::collections::HashSet;

fn claimed_grundy(file: &str) -> Vec<u64> {
    let text = std::fs::read_to_string(common::games_dir().join(file)).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix("# expect grundy:")).expect("a grundy claim");
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
