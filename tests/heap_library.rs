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

/// r-Wythoff's P-positions (a ≤ b ≤ upto) by the rule in words: from (x, y) take any amount from
/// one pile, or k ≥ 1 from one and l ≥ 1 from the other with |k − l| < r.
fn r_wythoff_p_positions(r: usize, upto: usize) -> Vec<Vec<u64>> {
    let mut p = vec![vec![false; upto + 1]; upto + 1];
    for x in 0..=upto {
        for y in 0..=upto {
            let one_pile = (0..x).any(|a| p[a][y]) || (0..y).any(|b| p[x][b]);
            let both = (1..=x).any(|k| (1..=y).any(|l| k.abs_diff(l) < r && p[x - k][y - l]));
            p[x][y] = !(one_pile || both);
        }
    }
    let mut pairs = Vec::new();
    for (x, row) in p.iter().enumerate() {
        for (y, &lost) in row.iter().enumerate().skip(x) {
            if lost {
                pairs.push(vec![x as u64, y as u64]);
            }
        }
    }
    pairs
}

#[test]
fn r_wythoff_matches_a_brute_force_and_fraenkels_pairs() {
    let text = std::fs::read_to_string(common::games_dir().join("r-wythoff.game")).unwrap();
    for r in 1..=4u64 {
        let game = takeaway::load(&text, "r-wythoff.game", &[("r".to_string(), r as i64)]).unwrap();
        let mut solver = takeaway::solve::Solver::new(&game, Default::default());
        let table = takeaway::analysis::table(&mut solver, 30, Default::default()).unwrap();
        let brute = r_wythoff_p_positions(r as usize, 30);
        assert_eq!(table.p_positions, brute, "r = {r}");
        // Fraenkel: the k-th pair is (a_k, a_k + r·k), a_k the least number not yet used.
        let mut used = std::collections::BTreeSet::new();
        for (k, pair) in brute.iter().enumerate() {
            let a = (0..).find(|x| !used.contains(x)).unwrap();
            assert_eq!(pair, &vec![a, a + r * k as u64], "r = {r}, pair {k}");
            used.insert(a);
            used.insert(a + r * k as u64);
        }
    }
}
