//! `cargo bench --bench general`: the general engine (games no take-and-break kernel covers)
//! against a plain loop written here for each game, computing the same values, which are
//! compared. Each side runs once in this process for its time, and once in a child process
//! under callgrind (where valgrind is installed) for its instructions: compare the ratios, not
//! the times across runs.
//!
//! `--workload NAME ours|plain` runs one side of one game and prints a checksum of its values.

use std::process::Command;
use std::time::Instant;

use takeaway_core::{Budget, Position, Solver};

/// One game of the benchmark: its text, the box of positions it values (the question asked is
/// the box's largest position, whose value needs every position below it), and a plain loop.
struct Workload {
    name: &'static str,
    what: &'static str,
    text: &'static str,
    /// the largest position: every position below it is valued
    position: &'static [u64],
    /// the values of the box (and first the largest position's), in `ours`' order
    plain: fn() -> Vec<u32>,
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "wythoff",
        what: "Wythoff, every pair ≤ 400",
        text: "game \"W\"\npiles 2\nmove: take any from one pile\nmove: take any from both piles\n",
        position: &[400, 400],
        plain: || wythoff_plain(400, false),
    },
    Workload {
        name: "wythoff-2000",
        what: "Wythoff, every pair ≤ 2000, against a loop keeping each line's values",
        text: "game \"W\"\npiles 2\nmove: take any from one pile\nmove: take any from both piles\n",
        position: &[2000, 2000],
        plain: || wythoff_lines_plain(2000),
    },
    Workload {
        name: "misere-wythoff",
        what: "misère Wythoff, every pair ≤ 400 (outcomes)",
        text: "game \"W\"\npiles 2\nmove: take any from one pile\nmove: take any from both piles\nplay misère\n",
        position: &[400, 400],
        plain: || wythoff_plain(400, true),
    },
    Workload {
        name: "three-pile-wythoff",
        what: "three-pile Wythoff, every triple ≤ 60",
        text: "game \"W3\"\npiles 3\nmove: take any from one pile\nmove: take any from 2 piles\n",
        position: &[60, 60, 60],
        plain: three_pile_wythoff_plain,
    },
    Workload {
        name: "r-wythoff",
        what: "r-Wythoff with r = 2, every pair ≤ 300",
        text: "game \"R\"\npiles 2\nmove: take any from one pile\nmove: take k from one pile and l from the other where k ≤ l < k + 2\n",
        position: &[300, 300],
        plain: r_wythoff_plain,
    },
    Workload {
        name: "moore-3",
        what: "Moore's Nim k = 2 on three piles, take 1..3 (every triple ≤ 40)",
        text: "game \"M\"\npiles 3\nmove: take 1..3 from each of up to 2 piles\n",
        position: &[40, 40, 40],
        plain: moore_plain,
    },
    Workload {
        name: "same-from-three",
        what: "take any from one pile, or 1 or 2 from all three (every triple ≤ 50)",
        text: "game \"S\"\npiles 3\nmove: take any from one pile\nmove: take 1 or 2 from 3 piles\n",
        position: &[50, 50, 50],
        plain: same_from_three_plain,
    },
    Workload {
        name: "mem",
        what: "Mem (take at least the last move), every pile ≤ 700 after every move",
        text: "game \"Mem\"\npile\nfirst move: take any\nmove: take any where t ≥ last\n",
        position: &[700],
        plain: || history_plain(700, |_, last| last),
    },
    Workload {
        name: "not-the-last",
        what: "take anything but the last move's amount, every pile ≤ 700 after every move",
        text: "game \"N\"\npile\nfirst move: take any\nmove: take t where t ≠ last\n",
        position: &[700],
        plain: || history_plain(700, |_, _| 1),
    },
];

/// The grid's values of every position in the box, read back from the solver in the plain
/// loop's order.
fn ours(w: &Workload) -> Vec<u32> {
    let game = takeaway_core::load(w.text, w.name, &[]).expect("the benchmark's games load");
    let mut solver = Solver::new(&game, &Budget::new().within(1e9));
    let history = game.tracks_history();
    let misere = game.convention == takeaway_core::Convention::Misere;
    let read = |v: takeaway_core::Value| -> u32 {
        if misere {
            u32::from(v.outcome == takeaway_core::Outcome::N)
        } else {
            v.grundy.expect("normal play has Grundy values") as u32
        }
    };
    if history {
        // Every pile after every previous move, and the whole column before the first.
        let n = w.position[0];
        let top = solver.value(&Position::new(vec![n])).expect("solves");
        let mut out = vec![read(top)];
        for pile in 0..=n {
            for last in 1..=n {
                let pos = Position { piles: vec![pile], last: Some(last), cells: false };
                out.push(read(solver.value(&pos).expect("solves")));
            }
        }
        return out;
    }
    let top = solver.value(&Position::new(w.position.to_vec())).expect("solves");
    let mut out = vec![read(top)];
    let mut x = vec![0u64; w.position.len()];
    'cells: loop {
        out.push(read(solver.value(&Position::new(x.clone())).expect("solves")));
        for (place, c) in x.iter_mut().enumerate() {
            if *c < w.position[place] {
                *c += 1;
                continue 'cells;
            }
            *c = 0;
        }
        break;
    }
    out
}

fn mex(seen: &mut [bool]) -> u32 {
    let m = seen.iter().position(|s| !s).unwrap_or(seen.len());
    seen.iter_mut().for_each(|s| *s = false);
    m as u32
}

/// Wythoff's values (or misère outcomes: 1 for N) for every pair, place 0 fastest.
fn wythoff_plain(n: usize, misere: bool) -> Vec<u32> {
    let side = n + 1;
    let mut g = vec![0u32; side * side];
    let mut seen = vec![false; 3 * side + 2];
    for b in 0..side {
        for a in 0..side {
            let at = |a: usize, b: usize| g[b * side + a];
            let mut any = false;
            let mut to_p = false;
            let mut mark = |v: u32| {
                any = true;
                to_p |= v == 0;
                seen[v as usize] = true;
            };
            for t in 1..=a {
                mark(at(a - t, b));
            }
            for t in 1..=b {
                mark(at(a, b - t));
            }
            for t in 1..=a.min(b) {
                mark(at(a - t, b - t));
            }
            let m = mex(&mut seen);
            g[b * side + a] = if misere { u32::from(!any || to_p) } else { m };
        }
    }
    let top = g[side * side - 1];
    std::iter::once(top).chain(g).collect()
}

/// Wythoff's values as a hand-written loop computes them fast: the values seen on each row,
/// column and diagonal kept as bitsets, and a cell's value the least missing from their union.
fn wythoff_lines_plain(n: usize) -> Vec<u32> {
    let side = n + 1;
    let words = (2 * side) / 64 + 2;
    let mut row = vec![0u64; side * words];
    let mut column = vec![0u64; side * words];
    let mut diagonal = vec![0u64; 2 * side * words];
    let mut g = vec![0u32; side * side];
    for b in 0..side {
        for a in 0..side {
            let (r, c, d) = (b * words, a * words, (a + side - b) * words);
            let mut v = 0u32;
            for w in 0..words {
                let union = row[r + w] | column[c + w] | diagonal[d + w];
                if union != u64::MAX {
                    v = (w * 64) as u32 + (!union).trailing_zeros();
                    break;
                }
            }
            g[b * side + a] = v;
            let (w, bit) = (v as usize / 64, 1u64 << (v % 64));
            row[r + w] |= bit;
            column[c + w] |= bit;
            diagonal[d + w] |= bit;
        }
    }
    let top = g[side * side - 1];
    std::iter::once(top).chain(g).collect()
}

fn three_pile_wythoff_plain() -> Vec<u32> {
    let side = 61usize;
    let idx = |a: usize, b: usize, c: usize| (c * side + b) * side + a;
    let mut g = vec![0u32; side * side * side];
    let mut seen = vec![false; 6 * side];
    for c in 0..side {
        for b in 0..side {
            for a in 0..side {
                for t in 1..=a {
                    seen[g[idx(a - t, b, c)] as usize] = true;
                }
                for t in 1..=b {
                    seen[g[idx(a, b - t, c)] as usize] = true;
                }
                for t in 1..=c {
                    seen[g[idx(a, b, c - t)] as usize] = true;
                }
                for t in 1..=a.min(b) {
                    seen[g[idx(a - t, b - t, c)] as usize] = true;
                }
                for t in 1..=a.min(c) {
                    seen[g[idx(a - t, b, c - t)] as usize] = true;
                }
                for t in 1..=b.min(c) {
                    seen[g[idx(a, b - t, c - t)] as usize] = true;
                }
                g[idx(a, b, c)] = mex(&mut seen);
            }
        }
    }
    let top = *g.last().expect("cells");
    std::iter::once(top).chain(g).collect()
}

fn r_wythoff_plain() -> Vec<u32> {
    let side = 301usize;
    let mut g = vec![0u32; side * side];
    let mut seen = vec![false; 4 * side];
    for b in 0..side {
        for a in 0..side {
            for t in 1..=a {
                seen[g[b * side + a - t] as usize] = true;
            }
            for t in 1..=b {
                seen[g[(b - t) * side + a] as usize] = true;
            }
            // k from one pile and l from the other, k ≤ l < k + 2, either way round: |k − l| ≤ 1.
            for k in 1..=a {
                for l in k.saturating_sub(1).max(1)..=(k + 1).min(b) {
                    seen[g[(b - l) * side + a - k] as usize] = true;
                }
            }
            g[b * side + a] = mex(&mut seen);
        }
    }
    let top = *g.last().expect("cells");
    std::iter::once(top).chain(g).collect()
}

fn moore_plain() -> Vec<u32> {
    let side = 41usize;
    let idx = |x: [usize; 3]| (x[2] * side + x[1]) * side + x[0];
    let mut g = vec![0u32; side * side * side];
    let mut seen = vec![false; 64 * side];
    for c in 0..side {
        for b in 0..side {
            for a in 0..side {
                let x = [a, b, c];
                for i in 0..3 {
                    for t in 1..=3.min(x[i]) {
                        let mut y = x;
                        y[i] -= t;
                        seen[g[idx(y)] as usize] = true;
                        for j in i + 1..3 {
                            for u in 1..=3.min(x[j]) {
                                let mut z = y;
                                z[j] -= u;
                                seen[g[idx(z)] as usize] = true;
                            }
                        }
                    }
                }
                g[idx(x)] = mex(&mut seen);
            }
        }
    }
    let top = *g.last().expect("cells");
    std::iter::once(top).chain(g).collect()
}

fn same_from_three_plain() -> Vec<u32> {
    let side = 51usize;
    let idx = |a: usize, b: usize, c: usize| (c * side + b) * side + a;
    let mut g = vec![0u32; side * side * side];
    let mut seen = vec![false; 4 * side];
    for c in 0..side {
        for b in 0..side {
            for a in 0..side {
                for t in 1..=a {
                    seen[g[idx(a - t, b, c)] as usize] = true;
                }
                for t in 1..=b {
                    seen[g[idx(a, b - t, c)] as usize] = true;
                }
                for t in 1..=c {
                    seen[g[idx(a, b, c - t)] as usize] = true;
                }
                for t in 1..=2.min(a).min(b).min(c) {
                    seen[g[idx(a - t, b - t, c - t)] as usize] = true;
                }
                g[idx(a, b, c)] = mex(&mut seen);
            }
        }
    }
    let top = *g.last().expect("cells");
    std::iter::once(top).chain(g).collect()
}

/// One pile that remembers the last move: G(n, last) for last ≥ 1 from the takes of at least
/// `least(t, last)` (and, for the second game, not `last` itself), and the pile before the
/// first move (any take), in `ours`' order.
fn history_plain(n: usize, least: fn(usize, usize) -> usize) -> Vec<u32> {
    let not_last = least(0, 2) == 1;
    let cols = n + 1;
    let mut g = vec![0u32; (n + 1) * cols];
    let mut seen = vec![false; n + 2];
    for pile in 0..=n {
        for last in 1..=n {
            for t in least(0, last).max(1)..=pile {
                if !(not_last && t == last) {
                    seen[g[(pile - t) * cols + t] as usize] = true;
                }
            }
            g[pile * cols + last] = mex(&mut seen);
        }
    }
    for t in 1..=n {
        seen[g[(n - t) * cols + t] as usize] = true;
    }
    let top = mex(&mut seen);
    let mut out = vec![top];
    for pile in 0..=n {
        out.extend_from_slice(&g[pile * cols + 1..pile * cols + cols]);
    }
    out
}

/// Instructions of one side of one workload, counted by callgrind in a child process.
fn instructions(name: &str, side: &str) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--workload", name, side])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    let line = text.lines().find(|l| l.contains("Collected :"))?;
    line.rsplit(':').next()?.trim().replace(',', "").parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--workload") {
        let w = WORKLOADS.iter().find(|w| w.name == args[i + 1]).expect("a workload of the benchmark");
        // The question alone (the largest position, whose value needs the whole box), or the
        // plain loop alone: what each side costs, without reading the values back.
        let top = if args[i + 2] == "ours" {
            let game = takeaway_core::load(w.text, w.name, &[]).expect("loads");
            let mut solver = Solver::new(&game, &Budget::new().within(1e9));
            let v = solver.value(&Position::new(w.position.to_vec())).expect("solves");
            v.grundy.unwrap_or(u64::from(v.outcome == takeaway_core::Outcome::N))
        } else {
            (w.plain)()[0] as u64
        };
        println!("{top}");
        return;
    }
    let only = std::env::var("TAKEAWAY_BENCH_ONLY").ok();
    let callgrind = Command::new("valgrind").arg("--version").output().is_ok();
    println!("The general engine against a plain loop for the same game, one thread (ratio = ours / plain)");
    println!(
        "{:<72} {:>9} {:>9} {:>6} {:>14} {:>14} {:>6} {:>8}",
        "workload", "ours s", "plain s", "ratio", "ours instr", "plain instr", "ratio", "B/pos"
    );
    for w in WORKLOADS {
        if only.as_deref().is_some_and(|o| !w.name.contains(o)) {
            continue;
        }
        let start = Instant::now();
        let plain = (w.plain)();
        let plain_s = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let game = takeaway_core::load(w.text, w.name, &[]).expect("loads");
        let mut solver = Solver::new(&game, &Budget::new().within(1e9));
        let pos = Position::new(w.position.to_vec());
        solver.value(&pos).expect("solves");
        let ours_s = start.elapsed().as_secs_f64();
        let values = ours(w);
        assert_eq!(values.len(), plain.len(), "{}: as many values", w.name);
        assert!(values == plain, "{}: the values differ from the plain loop's", w.name);
        let (ours_i, plain_i) =
            if callgrind { (instructions(w.name, "ours"), instructions(w.name, "plain")) } else { (None, None) };
        let show = |i: Option<u64>| i.map_or("-".to_string(), |i| format!("{i}"));
        let ratio = match (ours_i, plain_i) {
            (Some(o), Some(p)) => format!("{:.2}", o as f64 / p as f64),
            _ => "-".into(),
        };
        println!(
            "{:<72} {:>9.3} {:>9.3} {:>6.2} {:>14} {:>14} {:>6} {:>8}",
            w.what,
            ours_s,
            plain_s,
            ours_s / plain_s,
            show(ours_i),
            show(plain_i),
            ratio,
            4
        );
    }
}
