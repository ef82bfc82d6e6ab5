//! Games of CGSuite's heap library shipped in `games/`: each file's `# expect grundy:` claim
//! against a brute force written here from the rules in words, not from takeaway's engine.

use crate::common;

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
        let game = common::loaded_with(&text, &[("r", r as i64)]);
        let table = common::table(&game, serde_json::json!({ "upto": 30 }));
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

/// Grundy values of every position of a row of `size` coins (bit i − 1 set: coin i shows heads),
/// by the coins themselves: a move turns over a set of coins allowed by `allowed` (given
/// ascending) whose rightmost shows heads.
fn coin_game_values(size: u32, allowed: &dyn Fn(&[u64]) -> bool) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for heads in 0u32..1 << size {
        let mut seen = HashSet::new();
        // Every set of coins, as a mask; its highest coin must show heads. Turning it gives a
        // smaller mask, whose value is known.
        for set in 1u32..1 << size {
            let top = 31 - set.leading_zeros();
            if heads & (1 << top) == 0 {
                continue;
            }
            let coins: Vec<u64> = (0..size).filter(|i| set & (1 << i) != 0).map(|i| i as u64 + 1).collect();
            if allowed(&coins) {
                seen.insert(g[(heads ^ set) as usize]);
            }
        }
        g.push(mex(&seen));
    }
    g
}

/// Every position of up to `size` coins: takeaway's value (a sum of single coins, by the
/// coin-turning theorem) is the brute force's; and one heads coin at n has the claimed value.
fn check_coin_game(text: &str, name: &str, size: u32, allowed: &dyn Fn(&[u64]) -> bool) {
    let game = takeaway_core::load(text, name, &[]).unwrap();
    let mut solver = takeaway_core::Solver::new(&game, &takeaway_core::Budget::new());
    let brute = coin_game_values(size, allowed);
    for (heads, &expected) in brute.iter().enumerate() {
        let coins: Vec<u64> = (0..size).filter(|i| heads & (1 << i) != 0).map(|i| i as u64 + 1).collect();
        let got = solver.value(&takeaway_core::Position::new(coins.clone())).unwrap().grundy;
        assert_eq!(got, Some(expected), "{name}: heads at {coins:?}");
    }
}

fn game_text(file: &str) -> String {
    std::fs::read_to_string(common::games_dir().join(file)).unwrap()
}

#[test]
fn mock_turtles_matches_the_coins_and_the_odious_numbers() {
    let claim = claimed_grundy("mock-turtles.game");
    let single = coin_game_values(12, &|s| s.len() <= 3);
    for (n, &value) in claim.iter().enumerate().skip(1).take(12) {
        assert_eq!(single[1 << (n - 1)], value, "coin {n}");
    }
    // Odious: the n-th number (from 1) with an odd number of 1s in binary.
    let odious: Vec<u64> = (0u64..).filter(|x| x.count_ones() % 2 == 1).take(claim.len() - 1).collect();
    assert_eq!(&claim[1..], &odious[..]);
    check_coin_game(&game_text("mock-turtles.game"), "mock-turtles.game", 10, &|s| s.len() <= 3);
}

#[test]
fn ruler_matches_the_coins_and_the_powers_of_two() {
    let consecutive = |s: &[u64]| s.windows(2).all(|w| w[1] == w[0] + 1);
    let claim = claimed_grundy("ruler.game");
    let single = coin_game_values(12, &consecutive);
    for (n, &value) in claim.iter().enumerate().skip(1) {
        assert_eq!(value, 1 << (n as u64).trailing_zeros(), "coin {n}: the largest power of 2 dividing it");
        if n <= 12 {
            assert_eq!(single[1 << (n - 1)], value, "coin {n}");
        }
    }
    check_coin_game(&game_text("ruler.game"), "ruler.game", 10, &consecutive);
}

#[test]
fn grunt_matches_the_coins_and_grundys_game() {
    let grunt = |s: &[u64]| s.len() == 4 && s[0] == 1 && s[1] + s[2] == s[3] + 1;
    let claim = claimed_grundy("grunt.game");
    let single = coin_game_values(12, &grunt);
    for (n, &value) in claim.iter().enumerate().skip(1).take(12) {
        assert_eq!(single[1 << (n - 1)], value, "coin {n}");
    }
    let grundy = takeaway_core::load(&game_text("grundys-game.game"), "grundys-game.game", &[]).unwrap();
    let mut solver = takeaway_core::Solver::new(&grundy, &takeaway_core::Budget::new());
    for (n, &value) in claim.iter().enumerate().skip(1) {
        let g = solver.value(&takeaway_core::Position::new(vec![n as u64 - 1])).unwrap().grundy;
        assert_eq!(g, Some(value), "coin {n} is worth G({})", n - 1);
    }
    check_coin_game(&game_text("grunt.game"), "grunt.game", 10, &grunt);
}

#[test]
fn every_coin_shape_matches_a_brute_force_over_the_coins() {
    let spaced = |s: &[u64]| s.windows(3).all(|w| w[1] - w[0] == w[2] - w[1]);
    let symmetric = |s: &[u64]| s.iter().zip(s.iter().rev()).all(|(a, b)| a + b == s[0] + s[s.len() - 1]);
    let span = |s: &[u64]| s[s.len() - 1] - s[0] + 1;
    type Allowed = Box<dyn Fn(&[u64]) -> bool>;
    let cases: Vec<(&str, Allowed)> = vec![
        ("turn 2 coins", Box::new(|s: &[u64]| s.len() == 2)),
        ("turn 3 coins, equally spaced", Box::new(move |s: &[u64]| s.len() == 3 && spaced(s))),
        ("turn 1..4 coins, equally spaced", Box::new(move |s: &[u64]| s.len() <= 4 && spaced(s))),
        ("turn 2..5 coins, symmetric", Box::new(move |s: &[u64]| (2..=5).contains(&s.len()) && symmetric(s))),
        ("turn any coins, symmetric, within 4", Box::new(move |s: &[u64]| symmetric(s) && span(s) <= 4)),
        ("turn 1..3 coins, within 3", Box::new(move |s: &[u64]| s.len() <= 3 && span(s) <= 3)),
        ("turn 2 or 3 coins, including the first", Box::new(|s: &[u64]| (2..=3).contains(&s.len()) && s[0] == 1)),
        ("turn any coins, consecutive, within 3", Box::new(move |s: &[u64]| span(s) == s.len() as u64 && s.len() <= 3)),
        ("turn 1..5 coins", Box::new(|s: &[u64]| s.len() <= 5)),
        ("turn 3 coins where t < n", Box::new(|s: &[u64]| s.len() == 3 && 3 < s[2])),
    ];
    for (rule, allowed) in cases {
        let text = format!("coins\nmove: {rule}\n");
        check_coin_game(&text, rule, 9, allowed.as_ref());
    }
}
