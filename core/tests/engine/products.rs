//! Products of two heap games (`acrostic product of "A" and "B"`, `tartan product of …`):
//! against brute forces written here from the definitions, over coins on a board and over
//! heaps, and against the tartan theorem (a cell is worth the nim-product of its games' values).

use crate::common;

use std::collections::{HashMap, HashSet};

use takeaway_core::Game;
use takeaway_core::Position;
use takeaway_core::{Budget, Outcome, Solver};
use takeaway_core::{Library, Lookup};

/// Games given as text, by name: the library a product finds its two games in.
struct Texts(Vec<(&'static str, &'static str)>);

impl Library for Texts {
    fn find(&self, name: &str) -> Lookup {
        match self.0.iter().find(|(n, _)| *n == name) {
            Some((n, text)) => match takeaway_core::load(text, n, &[]) {
                Ok(game) => Lookup::Found { game, source_name: n.to_string(), text: text.to_string() },
                Err(e) => Lookup::Failed { rendered: format!("{e:?}") },
            },
            None => Lookup::Missing { help: String::new() },
        }
    }
}

const TWINS: &str = "coins\nmove: turn 2 coins";
const RULER: &str = "coins\nmove: turn any coins, consecutive";
const MOCK_TURTLES: &str = "coins\nmove: turn 1..3 coins";
const NIM: &str = "piles\nmove: take any";
const KAYLES: &str = "piles\nmove: take 1..2, then split";
const SUBTRACTION_1_3: &str = "piles\nmove: take 1 or 3";
const GRUNDY: &str = "piles\nmove: split unequal";
const SPLITTLES: &str = "piles\nmove: take 1 or 4, then split";

fn product(kind: &str, first: &'static str, second: &'static str, misere: bool) -> Game {
    let library = Texts(vec![("first", first), ("second", second)]);
    let play = if misere { "\nplay misère" } else { "" };
    let text = format!("game \"product\"\n{kind} product of \"first\" and \"second\"{play}");
    let source = takeaway_core::Source::new("product", text.as_str());
    takeaway_core::load_game(source, "product", &[], &library, &Budget::new())
        .map(|loaded| loaded.game)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mex(seen: &HashSet<u64>) -> u64 {
    (0..).find(|v| !seen.contains(v)).unwrap()
}

// ---- coins on a board ----------------------------------------------------------------------------

/// The other coins a move of a one-row coin game may turn with coin x, written from the rules.
type CoinSets = fn(u64) -> Vec<Vec<u64>>;

fn twins_sets(x: u64) -> Vec<Vec<u64>> {
    (1..x).map(|m| vec![m]).collect()
}

fn ruler_sets(x: u64) -> Vec<Vec<u64>> {
    (0..x).map(|k| (x - k..x).collect()).collect()
}

fn mock_turtles_sets(x: u64) -> Vec<Vec<u64>> {
    let mut sets = vec![vec![]];
    for a in 1..x {
        sets.push(vec![a]);
        for b in a + 1..x {
            sets.push(vec![a, b]);
        }
    }
    sets
}

/// Every position of a board of coins (x, y), 1 ≤ x ≤ rows, 1 ≤ y ≤ columns (bit
/// (x − 1)·columns + y − 1 set: that coin shows heads), by the coins themselves: a move picks a
/// heads coin (x, y) and turns over a row set {x} ∪ A with y (acrostic, or a column set), or the
/// rectangle ({x} ∪ A) × ({y} ∪ B) (tartan). Grundy values, or misère outcomes (1 = N).
fn board_values(rows: u64, columns: u64, tartan: bool, first: CoinSets, second: CoinSets, misere: bool) -> Vec<u64> {
    let bit = |x: u64, y: u64| 1u32 << ((x - 1) * columns + y - 1);
    let mut g: Vec<u64> = Vec::new();
    for heads in 0u32..1 << (rows * columns) {
        let mut seen = HashSet::new();
        for x in 1..=rows {
            for y in 1..=columns {
                if heads & bit(x, y) == 0 {
                    continue;
                }
                let xs: Vec<Vec<u64>> = first(x).into_iter().map(|a| [vec![x], a].concat()).collect();
                let ys: Vec<Vec<u64>> = second(y).into_iter().map(|b| [vec![y], b].concat()).collect();
                let mut turns: Vec<u32> = Vec::new();
                if tartan {
                    for a in &xs {
                        for b in &ys {
                            turns.push(a.iter().flat_map(|&i| b.iter().map(move |&j| bit(i, j))).fold(0, |m, b| m ^ b));
                        }
                    }
                } else {
                    turns.extend(xs.iter().map(|a| a.iter().fold(0, |m, &i| m ^ bit(i, y))));
                    turns.extend(ys.iter().map(|b| b.iter().fold(0, |m, &j| m ^ bit(x, j))));
                }
                for t in turns {
                    seen.insert(g[(heads ^ t) as usize]);
                }
            }
        }
        g.push(if misere {
            // The player who cannot move has won: N exactly when no move or some move leads to a P.
            u64::from(seen.is_empty() || seen.contains(&0))
        } else {
            mex(&seen)
        });
    }
    g
}

/// The heads coins of a board position, as takeaway's cells.
fn heads_cells(heads: usize, columns: u64, size: u64) -> Position {
    let cells = (0..size).filter(|i| heads & (1 << i) != 0).flat_map(|i| [i / columns + 1, i % columns + 1]).collect();
    Position::of_cells(cells)
}

/// Every position of the board: takeaway's fast method and its search over whole positions
/// agree with the brute force.
fn check_board(kind: &str, first: (&'static str, CoinSets), second: (&'static str, CoinSets), rows: u64, columns: u64) {
    let game = product(kind, first.0, second.0, false);
    let brute = board_values(rows, columns, kind == "tartan", first.1, second.1, false);
    let mut fast = Solver::new(&game, &Budget::new());
    let mut search = takeaway_core::internals::generic_solver(&game, &Budget::new());
    for (heads, &expected) in brute.iter().enumerate() {
        let pos = heads_cells(heads, columns, rows * columns);
        assert_eq!(fast.value(&pos).unwrap().grundy, Some(expected), "{kind}: {}", pos.piles_text());
        assert_eq!(search.value(&pos).unwrap().grundy, Some(expected), "{kind} by search: {}", pos.piles_text());
    }
}

#[test]
fn acrostic_twins_is_nim_with_two_heaps_on_every_position_of_a_board() {
    check_board("acrostic", (TWINS, twins_sets), (TWINS, twins_sets), 4, 4);
    let game = product("acrostic", TWINS, TWINS, false);
    let mut solver = Solver::new(&game, &Budget::new());
    for x in 1..=12 {
        for y in 1..=12 {
            let g = solver.value(&Position::of_cells(vec![x, y])).unwrap().grundy;
            assert_eq!(g, Some((x - 1) ^ (y - 1)), "({x}, {y})");
        }
    }
}

#[test]
fn turning_corners_matches_the_coins_on_every_position_of_a_board() {
    check_board("tartan", (TWINS, twins_sets), (TWINS, twins_sets), 4, 4);
}

#[test]
fn products_of_other_coin_games_match_the_coins() {
    check_board("tartan", (RULER, ruler_sets), (MOCK_TURTLES, mock_turtles_sets), 3, 4);
    check_board("acrostic", (RULER, ruler_sets), (MOCK_TURTLES, mock_turtles_sets), 4, 3);
    check_board("acrostic", (MOCK_TURTLES, mock_turtles_sets), (TWINS, twins_sets), 3, 4);
    check_board("tartan", (MOCK_TURTLES, mock_turtles_sets), (RULER, ruler_sets), 3, 3);
}

#[test]
fn misere_products_match_the_coins() {
    for kind in ["acrostic", "tartan"] {
        let game = product(kind, TWINS, RULER, true);
        let brute = board_values(3, 3, kind == "tartan", twins_sets, ruler_sets, true);
        let mut solver = Solver::new(&game, &Budget::new());
        for (heads, &expected) in brute.iter().enumerate() {
            let pos = heads_cells(heads, 3, 9);
            let expected = if expected == 1 { Outcome::N } else { Outcome::P };
            assert_eq!(solver.value(&pos).unwrap().outcome, expected, "misère {kind}: {}", pos.piles_text());
        }
    }
}

// ---- heaps -----------------------------------------------------------------------------------

/// The heaps a move of a heap game leaves from a heap of n (empty heaps left out), from the rules.
type HeapMoves = fn(u64) -> Vec<Vec<u64>>;

fn nim_moves(n: u64) -> Vec<Vec<u64>> {
    (0..n).map(|m| if m == 0 { vec![] } else { vec![m] }).collect()
}

fn kayles_moves(n: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for t in 1..=2.min(n) {
        let rest = n - t;
        for a in 0..=rest / 2 {
            out.push([a, rest - a].into_iter().filter(|&h| h > 0).collect());
        }
    }
    out
}

fn subtraction_1_3_moves(n: u64) -> Vec<Vec<u64>> {
    [1, 3].into_iter().filter(|&t| t <= n).map(|t| if n == t { vec![] } else { vec![n - t] }).collect()
}

fn grundy_moves(n: u64) -> Vec<Vec<u64>> {
    (1..n.div_ceil(2)).map(|a| vec![a, n - a]).collect()
}

/// A cell (x, y) of a product of heap games, by the definition: the first game's move on x
/// leaving heaps A gives cells (a, y) for a in A (acrostic), or with the second's move on y
/// leaving B, every cell of ({x} ∪ A) × ({y} ∪ B) but (x, y) (tartan). A position's value is
/// the XOR of its cells'.
struct HeapProduct {
    tartan: bool,
    first: HeapMoves,
    second: HeapMoves,
    memo: HashMap<(u64, u64), u64>,
}

impl HeapProduct {
    fn cell(&mut self, x: u64, y: u64) -> u64 {
        if let Some(&v) = self.memo.get(&(x, y)) {
            return v;
        }
        let mut seen = HashSet::new();
        let (across, down) = ((self.first)(x), (self.second)(y));
        if self.tartan {
            for a in &across {
                for b in &down {
                    let xs: Vec<u64> = [vec![x], a.clone()].concat();
                    let ys: Vec<u64> = [vec![y], b.clone()].concat();
                    let mut value = 0;
                    for (i, &p) in xs.iter().enumerate() {
                        for (j, &q) in ys.iter().enumerate() {
                            if i + j > 0 {
                                value ^= self.cell(p, q);
                            }
                        }
                    }
                    seen.insert(value);
                }
            }
        } else {
            for a in &across {
                let value = a.iter().fold(0, |v, &p| v ^ self.cell(p, y));
                seen.insert(value);
            }
            for b in &down {
                let value = b.iter().fold(0, |v, &q| v ^ self.cell(x, q));
                seen.insert(value);
            }
        }
        let v = mex(&seen);
        self.memo.insert((x, y), v);
        v
    }
}

fn heap_values(moves: HeapMoves, upto: u64) -> Vec<u64> {
    let mut g = vec![0];
    for n in 1..=upto {
        let seen: HashSet<u64> = moves(n).iter().map(|hs| hs.iter().fold(0, |v, &h| v ^ g[h as usize])).collect();
        g.push(mex(&seen));
    }
    g
}

/// Nim-multiplication by its definition: a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b}.
fn nim_table(size: usize) -> Vec<Vec<u64>> {
    let mut m = vec![vec![0u64; size]; size];
    for a in 0..size {
        for b in 0..size {
            let mut seen = HashSet::new();
            for a2 in 0..a {
                for b2 in 0..b {
                    seen.insert(m[a2][b] ^ m[a][b2] ^ m[a2][b2]);
                }
            }
            m[a][b] = mex(&seen);
        }
    }
    m
}

#[test]
fn heap_products_match_the_definition_and_the_tartan_theorem() {
    let games: [(&'static str, HeapMoves); 4] =
        [(NIM, nim_moves), (KAYLES, kayles_moves), (SUBTRACTION_1_3, subtraction_1_3_moves), (GRUNDY, grundy_moves)];
    let upto = 9;
    let nim = nim_table(16);
    for &(first, first_moves) in &games {
        for &(second, second_moves) in &games {
            let (ga, gb) = (heap_values(first_moves, upto), heap_values(second_moves, upto));
            for kind in ["acrostic", "tartan"] {
                let game = product(kind, first, second, false);
                let mut solver = Solver::new(&game, &Budget::new());
                let mut brute = HeapProduct {
                    tartan: kind == "tartan",
                    first: first_moves,
                    second: second_moves,
                    memo: HashMap::new(),
                };
                for x in 1..=upto {
                    for y in 1..=upto {
                        let expected = brute.cell(x, y);
                        let got = solver.value(&Position::of_cells(vec![x, y])).unwrap().grundy;
                        assert_eq!(got, Some(expected), "{kind} of {first:?} and {second:?} at ({x}, {y})");
                        if kind == "tartan" {
                            assert_eq!(expected, nim[ga[x as usize] as usize][gb[y as usize] as usize]);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_search_over_whole_positions_agrees_with_the_cells() {
    for kind in ["acrostic", "tartan"] {
        let game = product(kind, KAYLES, SPLITTLES, false);
        let mut fast = Solver::new(&game, &Budget::new());
        let mut search = takeaway_core::internals::generic_solver(&game, &Budget::new());
        for cells in [vec![2, 3], vec![3, 3, 1, 2], vec![4, 2, 2, 4], vec![1, 1, 3, 2, 2, 1], vec![5, 2]] {
            let pos = Position::of_cells(cells);
            assert_eq!(fast.value(&pos).unwrap(), search.value(&pos).unwrap(), "{kind}: {}", pos.piles_text());
        }
    }
}

#[test]
fn acrostic_nim_is_one_more_than_a_nim_sum() {
    // Taking a whole heap removes the cell, so every cell has an option of value 0, and the
    // rest is two-heap Nim shifted by one: G(x, y) = 1 + ((x − 1) ⊕ (y − 1)).
    let game = product("acrostic", NIM, NIM, false);
    let mut solver = Solver::new(&game, &Budget::new());
    for x in 1..=10 {
        for y in 1..=10 {
            let g = solver.value(&Position::of_cells(vec![x, y])).unwrap().grundy;
            assert_eq!(g, Some(1 + ((x - 1) ^ (y - 1))), "({x}, {y})");
        }
    }
}

#[test]
fn a_tartan_cell_far_out_is_answered_through_the_theorem() {
    // Kayles' values are periodic with period 12 from n = 72 (Guy and Smith), so a cell a
    // trillion out is worth K(a) ⊗ K(b) with both values read from the period.
    let kayles = heap_values(kayles_moves, 83);
    let k = |n: u64| kayles[if n < 84 { n } else { 72 + (n - 72) % 12 } as usize];
    let game = product("tartan", KAYLES, KAYLES, false);
    let mut solver = Solver::new(&game, &Budget::new());
    // Kayles' values are below 16: their nim-products come from the definition's table.
    let nim = nim_table(16);
    for (x, y) in [(1_000_000_000_005, 999_999_999_999), (1 << 60, 77), (123_456_789_012, 3)] {
        let got = solver.value(&Position::of_cells(vec![x, y])).unwrap().grundy;
        assert_eq!(got, Some(nim[k(x) as usize][k(y) as usize]), "({x}, {y})");
    }
}

#[test]
fn game_files_of_products_keep_their_claims_against_the_brute_force() {
    // The header grids of the shipped files, read independently of tests/games.rs.
    for (file, expected) in [
        ("turning-corners.game", board_cell_values(true, twins_sets, twins_sets, 8)),
        ("acrostic-twins.game", board_cell_values(false, twins_sets, twins_sets, 6)),
    ] {
        let text = std::fs::read_to_string(common::games_dir().join(file)).unwrap();
        let line = text.lines().find_map(|l| l.split_once("# expect cells to ").map(|(_, rest)| rest)).unwrap();
        let (_, grid) = line.split_once(':').unwrap();
        let claimed: Vec<Vec<u64>> =
            grid.split('|').map(|row| row.split_whitespace().map(|w| w.parse().unwrap()).collect()).collect();
        assert_eq!(claimed, expected, "{file}");
    }
}

/// One heads coin at (x, y), 1 ≤ x, y ≤ size, by the coins: only moves of that coin matter,
/// and the cells they turn over are worth what single coins are.
fn board_cell_values(tartan: bool, first: CoinSets, second: CoinSets, size: u64) -> Vec<Vec<u64>> {
    let mut g = vec![vec![0u64; size as usize + 1]; size as usize + 1];
    for x in 1..=size {
        for y in 1..=size {
            let mut seen = HashSet::new();
            for a in first(x) {
                if tartan {
                    for b in second(y) {
                        let xs = [vec![x], a.clone()].concat();
                        let ys = [vec![y], b].concat();
                        let mut v = 0;
                        for (i, &p) in xs.iter().enumerate() {
                            for (j, &q) in ys.iter().enumerate() {
                                if i + j > 0 {
                                    v ^= g[p as usize][q as usize];
                                }
                            }
                        }
                        seen.insert(v);
                    }
                } else {
                    seen.insert(a.iter().fold(0, |v, &p| v ^ g[p as usize][y as usize]));
                }
            }
            if !tartan {
                for b in second(y) {
                    seen.insert(b.iter().fold(0, |v, &q| v ^ g[x as usize][q as usize]));
                }
            }
            g[x as usize][y as usize] = mex(&seen);
        }
    }
    g[1..].iter().map(|row| row[1..].to_vec()).collect()
}
