//! `cargo bench`: the solver's kernels against baselines written here, each workload run in a
//! child process of its own so that its peak memory can be read. Times are single runs on a
//! shared machine: compare ratios within one run, not times across runs.
//!
//! `TAKEAWAY_BENCH_FULL=1 cargo bench` adds Grundy's game to 2²⁴ and the record runs of 0.376
//! and 0.354 (minutes each).

use std::process::Command;
use std::time::Instant;

use takeaway_core::internals::{generic_solver, with_sparse_mode, SparseMode};
use takeaway_core::{
    ask, load_text, Answer, Budget, GameText, NoLibrary, Outcome, PeriodArgs, Position, QuotientArgs, Request, Solver,
    TableArgs,
};

fn load(text: &str) -> takeaway_core::Game {
    takeaway_core::load(text, "bench", &[]).expect("the benchmark's games load")
}

/// A question asked as every front end asks it: the answer, or the first diagnostic's code.
fn answer(text: &str, request: Request, budget: &Budget) -> Result<Answer, String> {
    let game = GameText { source: text.to_string(), name: Some("bench".into()), ..Default::default() };
    let loaded = load_text(&game, &NoLibrary, budget).map_err(|f| format!("{f:?}"))?;
    ask(&loaded, &request, &NoLibrary, budget).map_err(|f| {
        f.errors.first().and_then(|e| miette::Diagnostic::code(e).map(|c| c.to_string())).unwrap_or_default()
    })
}

const GRUNDY: &str = "game \"Grundy's game\"\npiles\nmove: split unequal\n";
const KAYLES: &str = "game \"Kayles\"\npiles\nmove: take 1..2, then split\n";
const CHOMP: &str = "game \"Chomp\"\nrows\nmove: bite any square but (1, 1)\n";
const FIBONACCI: &str = "game \"Fibonacci Nim\"\npile\nfirst move: take 1..n-1\nmove: take ≤ 2·last\n";
const PRIME: &str = "game \"take a prime\"\npiles\nmove: take t where prime(t)\n";
const SQUARE_SPLIT: &str = "game \"take a square, then split\"\npiles\nmove: take t where square(t), then split\n";

/// The default limits on memory, without the defaults' bound on work: a benchmark measures how
/// long the engine takes, however long that is.
fn unbounded() -> Budget {
    Budget::new().within(1e9)
}

fn big() -> Budget {
    Budget::new().max_states(usize::MAX / 1024)
}

/// Our solver: the value of every pile up to `upto` (the largest pile's value needs them all),
/// with the default limits: every workload shown here must run with them.
fn ours_piles(text: &str, upto: u64) -> String {
    let game = load(text);
    let mut solver = Solver::new(&game, &unbounded());
    let g = solver.value(&Position::new(vec![upto])).expect("solves").grundy.unwrap_or(0);
    let how = if solver.uses_sparse_space() {
        "sparse space"
    } else if solver.proven_period().is_some() {
        "proven period"
    } else {
        "kernel"
    };
    format!("g({upto}) = {g}, {how}")
}

/// `ours_piles` with the kernel's threads set.
fn ours_piles_threads(text: &str, upto: u64, threads: usize) -> String {
    ours_piles_with(text, upto, unbounded().threads(threads), threads)
}

/// `ours_piles` under these limits, saying how many threads and whether sparse space was used.
fn ours_piles_with(text: &str, upto: u64, budget: Budget, threads: usize) -> String {
    let game = load(text);
    let mut solver = Solver::new(&game, &budget);
    let g = solver.value(&Position::new(vec![upto])).expect("solves").grundy.unwrap_or(0);
    let how = if solver.uses_sparse_space() { ", sparse space" } else { "" };
    format!("g({upto}) = {g}, {threads} thread(s){how}")
}

/// A record run: the octal game's values until Guy and Smith's theorem proves their period.
fn record(code: &str, threads: usize) -> String {
    let request = Request::Period(PeriodArgs { upto: 1 << 26, checkpoint: None, window: None });
    let Ok(Answer::Period(report)) = answer(&octal_text(code), request, &unbounded().threads(threads)) else {
        return "the run failed".into();
    };
    match report.proven {
        Some((pre, p)) => format!("period {p} from {pre}, {} values", report.computed),
        None => "no period".into(),
    }
}

/// The least any sparse-space program does for Grundy's game to `upto`: for each pile, one
/// option per rare pile and the first common value they miss, over values already known (from
/// our solver, untimed). The time returned is that loop's alone: no witnesses for the rare
/// values, no table to build.
fn sparse_floor_grundy(upto: usize) -> (String, f64) {
    let game = load(GRUNDY);
    let mut solver = Solver::new(&game, &big());
    let mut value = |n: usize| solver.value(&Position::new(vec![n as u64])).expect("solves").grundy.unwrap_or(0);
    value(upto);
    let g: Vec<u32> = (0..=upto).map(|n| value(n) as u32).collect();
    let size = (*g.iter().max().unwrap_or(&0) as usize + 1).next_power_of_two() * 2;
    let rare_under = |mask: u32, n: usize| (g[n] & mask).count_ones().is_multiple_of(2);
    let mask = (1..size as u32 / 2)
        .min_by_key(|&mask| (upto / 2..=upto).filter(|&n| rare_under(mask, n)).count())
        .unwrap_or(1);
    let rare: Vec<u32> = (1..=upto).filter(|&n| rare_under(mask, n)).map(|n| n as u32).collect();
    // A byte a value, as they are this far: the XOR of two indexes a 256-entry table without
    // a bounds check.
    if size > 512 {
        return ("values past 255: the floor loop is written for bytes".into(), f64::NAN);
    }
    let table: Vec<u8> = g.iter().map(|&v| v as u8).collect();
    let rare_value: Vec<u8> = rare.iter().map(|&r| table[r as usize]).collect();
    let start = Instant::now();
    let mut sum = 0usize;
    for n in 4096..=upto {
        let mut seen = [0u8; 256];
        let below = rare.partition_point(|&r| (r as usize) < n);
        for (&r, &value) in rare[..below].iter().zip(&rare_value) {
            let r = r as usize;
            if 2 * r != n {
                seen[(value ^ table[n - r]) as usize] = 1;
            }
        }
        sum += (0..256).find(|&v| seen[v] == 0 && (v as u32 & mask).count_ones() % 2 == 1).unwrap_or(256);
    }
    let seconds = start.elapsed().as_secs_f64();
    (format!("g({upto}) = {}, {} rare piles, checksum {sum}", g[upto], rare.len()), seconds)
}

/// The plain O(n²) mex loop over every option, as one would write it by hand.
fn mex(seen: &[bool]) -> u32 {
    seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32
}

fn naive_grundy(upto: usize) -> String {
    let mut g = vec![0u32; upto + 1];
    let mut seen = vec![false; 4096];
    for n in 3..=upto {
        seen.iter_mut().for_each(|s| *s = false);
        for a in 1..n.div_ceil(2) {
            seen[(g[a] ^ g[n - a]) as usize] = true;
        }
        g[n] = mex(&seen);
    }
    format!("g({upto}) = {}", g[upto])
}

fn naive_kayles(upto: usize) -> String {
    let mut g = vec![0u32; upto + 1];
    let mut seen = vec![false; 4096];
    for n in 1..=upto {
        seen.iter_mut().for_each(|s| *s = false);
        for t in 1..=2.min(n) {
            let rest = n - t;
            for a in 0..=rest / 2 {
                seen[(g[a] ^ g[rest - a]) as usize] = true;
            }
        }
        g[n] = mex(&seen);
    }
    format!("g({upto}) = {}", g[upto])
}

fn naive_prime(upto: usize) -> String {
    let mut is_prime = vec![true; upto + 1];
    is_prime[0] = false;
    if upto >= 1 {
        is_prime[1] = false;
    }
    for i in 2..=upto {
        if is_prime[i] {
            let mut j = i * i;
            while j <= upto {
                is_prime[j] = false;
                j += i;
            }
        }
    }
    let primes: Vec<usize> = (2..=upto).filter(|&p| is_prime[p]).collect();
    let mut g = vec![0u32; upto + 1];
    let mut seen = vec![false; upto + 2];
    for n in 1..=upto {
        let mut used = 0;
        for &p in primes.iter().take_while(|&&p| p <= n) {
            seen[g[n - p] as usize] = true;
            used += 1;
        }
        g[n] = mex(&seen[..used + 1]);
        for &p in primes.iter().take_while(|&&p| p <= n) {
            seen[g[n - p] as usize] = false;
        }
    }
    format!("g({upto}) = {}", g[upto])
}

fn naive_square_split(upto: usize) -> String {
    let mut g = vec![0u32; upto + 1];
    let mut seen = vec![false; 8192];
    for n in 1..=upto {
        seen.iter_mut().for_each(|s| *s = false);
        let mut s = 1;
        while s * s <= n {
            let rest = n - s * s;
            seen[g[rest] as usize] = true;
            for a in 1..=rest / 2 {
                seen[(g[a] ^ g[rest - a]) as usize] = true;
            }
            s += 1;
        }
        g[n] = mex(&seen);
    }
    format!("g({upto}) = {}", g[upto])
}

fn ours_chomp(side: usize) -> String {
    let game = load(CHOMP);
    let mut solver = Solver::new(&game, &big());
    let board = Position::new(vec![side as u64; side]);
    let v = solver.value(&board).expect("solves");
    let first = solver.winning_moves(&board).expect("moves");
    format!("{:?}, Grundy {}, {} winning first move(s)", v.outcome, v.grundy.unwrap_or(0), first.len())
}

fn generic_chomp(side: usize) -> String {
    let game = load(CHOMP);
    let mut solver = generic_solver(&game, &big());
    let v = solver.value(&Position::new(vec![side as u64; side])).expect("solves");
    format!("{:?}, Grundy {}", v.outcome, v.grundy.unwrap_or(0))
}

fn ours_fibonacci(upto: u64) -> String {
    let game = load(FIBONACCI);
    let mut solver = Solver::new(&game, &big());
    let p = solver.one_pile_outcomes(upto).expect("solves").into_iter().filter(|&o| o == Outcome::P).count();
    format!("{p} P-positions")
}

/// Outcomes by the definition of w(m), the smallest winning take: w(m) = min t with
/// f(t) < w(m − t), a loop per pile.
fn naive_fibonacci(upto: usize) -> String {
    let mut w = vec![u64::MAX; upto + 1];
    let mut p = 1; // 0
    for m in 1..=upto {
        w[m] = (1..=m as u64).find(|&t| 2 * t < w[m - t as usize]).unwrap_or(u64::MAX);
        if w[m] as usize >= m {
            p += 1; // the first move may not take the whole pile
        }
    }
    format!("{p} P-positions")
}

fn ours_fibonacci_huge() -> String {
    let game = load(FIBONACCI);
    let mut solver = Solver::new(&game, &unbounded());
    let pos = Position::new(vec![1_000_000_000_000_000_000]);
    let o = solver.outcome(&pos).expect("solves");
    let m = solver.winning_moves(&pos).expect("moves");
    format!("{o:?}, take {}", 1_000_000_000_000_000_000 - m[0].to.piles[0])
}

fn ours_kayles_huge() -> String {
    let game = load(KAYLES);
    let mut solver = Solver::new(&game, &unbounded());
    let v = solver.value(&Position::new(vec![1_000_000_000_000_000_000])).expect("solves");
    format!("g(10^18) = {}, period {:?}", v.grundy.unwrap_or(0), solver.proven_period())
}

const MISERE_KAYLES: &str = "game \"misère Kayles\"\npiles\nmove: take 1..2, then split\nplay misère\n";
const MISERE_NIM: &str = "game \"misère Nim\"\npiles\nmove: take any\nplay misère\n";

/// A misère position's outcome through the quotient (or, with `generic`, the whole-position search).
fn misere(text: &str, piles: Vec<u64>, generic: bool) -> String {
    let game = load(text);
    let mut solver = if generic { generic_solver(&game, &big()) } else { Solver::new(&game, &unbounded()) };
    let v = solver.value(&Position::new(piles)).expect("solves");
    v.outcome.letter().to_string()
}

/// A hundred Kayles piles of up to 10^18 under misère play, spread over the residues.
fn misere_kayles_hundred() -> Vec<u64> {
    (0..100u64).map(|i| 1_000_000_000_000_000_000 - i * 7_919).collect()
}

/// `table` of misère Kayles to 1000, with G⁻, genus, tameness and Φ.
fn misere_table(upto: u64) -> String {
    let request = Request::Table(TableArgs { upto, ..Default::default() });
    let Ok(Answer::Table(table)) = answer(MISERE_KAYLES, request, &unbounded()) else {
        return "the table failed".into();
    };
    let Some(m) = table.misere else { return "no misère columns".into() };
    let genera = m.genus.iter().filter(|g| g.is_some()).count();
    format!("{} P-positions, genus of {genera} piles", table.p_positions.len())
}

/// The misère quotient of an octal game to `upto` heaps with the default limits: how far it got,
/// its order, and what stopped it.
fn misere_quotient(code: &str, upto: u64) -> String {
    // Grundy's game is not an octal game (its splits are unequal).
    let rule = if code == "grundy" { "split unequal".to_string() } else { format!("octal {code}") };
    let text = format!("game \"{code}\"\npiles\nmove: {rule}\nplay misère\n");
    match answer(&text, Request::Quotient(QuotientArgs { upto: Some(upto) }), &Budget::new()) {
        Ok(Answer::Quotient(q)) => {
            let stop = if q.stopped.is_some() { ", stopped there" } else { "" };
            format!("heaps to {}, order {}{stop}", q.computed, q.order)
        }
        Ok(_) => "another answer".into(),
        Err(code) => code,
    }
}

const WYTHOFF: &str = "game \"Wythoff\"\npiles 2\nmove: take any from one pile\nmove: take any from both piles\n";
const LASKER: &str = "game \"Lasker's Nim\"\npiles\nmove: take any\nmove: split into 2\n";

/// A hopeless question, refused from the estimate: what the refusal says (its code). With the
/// default limits, as a user meets it: without a bound on work these run until memory ends.
fn refused(text: &str, piles: Vec<u64>) -> String {
    let game = load(text);
    let mut solver = Solver::new(&game, &Budget::new());
    match solver.value(&Position::new(piles)) {
        Err(e) => miette::Diagnostic::code(&e).map(|c| c.to_string()).unwrap_or_default(),
        Ok(v) => format!("answered: {v:?}"),
    }
}

/// A Chomp table past what its box can hold, refused before it starts.
fn chomp_table_refused(upto: u64) -> String {
    match answer(CHOMP, Request::Table(TableArgs { upto, ..Default::default() }), &Budget::new()) {
        Err(code) => code,
        Ok(_) => "answered".into(),
    }
}

const PARTIZAN_SUBTRACTION: &str = "game \"L{1,3} R{2,3}\"\npiles\nleft move: take 1 or 3\nright move: take 2 or 3\n";
const PARTIZAN_KAYLES: &str =
    "game \"Partizan Kayles\"\npiles\nleft move: take 1, then split\nright move: take 2, then split\n";

/// Outcome classes of positions, through canonical values or by a plain game-tree search: the
/// counts of L, R, N and P as the answer, so the two can be compared.
fn partizan(text: &str, positions: Vec<Vec<u64>>, search: bool) -> String {
    use takeaway_core::{PartizanOutcome, PartizanSolver};
    let game = load(text);
    let mut solver = PartizanSolver::new(&game, &unbounded());
    if search {
        solver.give_up_values();
    }
    let mut counts = [0usize; 4];
    for piles in positions {
        let o = solver.outcome(&Position::new(piles)).expect("outcome");
        let i = [PartizanOutcome::L, PartizanOutcome::R, PartizanOutcome::N, PartizanOutcome::P]
            .iter()
            .position(|&x| x == o)
            .unwrap_or(0);
        counts[i] += 1;
    }
    format!("L {} R {} N {} P {}", counts[0], counts[1], counts[2], counts[3])
}

/// Temperature theory without canonical forms: the mean, temperature and thermograph of every
/// pile up to `upto` (each from the piles below), as `table` gives them; a checksum of the
/// means and the largest temperature.
fn thermal_piles(text: &str, upto: u64) -> String {
    use takeaway_core::PartizanSolver;
    let game = load(text);
    let mut solver = PartizanSolver::new(&game, &unbounded());
    solver.give_up_values();
    let (mut means, mut hottest, mut corners) = (0.0f64, f64::MIN, 0usize);
    for n in 0..=upto {
        let v = solver.thermal_value(&Position::new(vec![n])).expect("walls");
        means += v.thermograph.mean.to_f64();
        hottest = hottest.max(v.thermograph.temperature.to_f64());
        corners += v.thermograph.left.corners().len() + v.thermograph.right.corners().len();
    }
    format!("Σ means {means}, hottest {hottest}, {corners} corners")
}

/// The sum of 100 piles, 9901 to 10000: what temperature theory proves of it, asked as every
/// front end asks.
fn thermal_sum(text: &str) -> String {
    let piles: Vec<String> = (9901..=10000).map(|n: u64| n.to_string()).collect();
    let position = takeaway_core::PositionText(piles.join(" "));
    let request = Request::Solve(takeaway_core::SolveArgs { position, ..Default::default() });
    match answer(text, request, &Budget::new()) {
        Ok(Answer::PartizanSolve(r)) => {
            let h = r.sum_heat.expect("bounds");
            format!("{:?}: mean {}, temperature ≤ {}", r.outcome, h.mean, h.temperature_at_most)
        }
        other => format!("{other:?}"),
    }
}

/// How far hotstrat (move in the hottest pile, keeping the most of it) stays from perfect play
/// on sums small enough to search: over every partizan subtraction game with both sets inside
/// {1, 2, 3, 4} and every sum of two or three piles up to 9, from each position where the
/// side to move wins, the share of hotstrat's moves that keep the win.
fn hotstrat_against_perfect() -> String {
    use takeaway_core::{PartizanSolver, Side};
    let set = |mask: u32| -> Vec<String> {
        (1..=4).filter(|s| mask & (1 << (s - 1)) != 0).map(|s: u32| s.to_string()).collect()
    };
    let (mut winning, mut kept) = (0usize, 0usize);
    for l in 1..16 {
        for r in 1..16 {
            let text = format!(
                "game \"g\"\npiles\nleft move: take {}\nright move: take {}\n",
                set(l).join(" or "),
                set(r).join(" or ")
            );
            let game = load(&text);
            let mut solver = PartizanSolver::new(&game, &unbounded());
            for a in 1..=9u64 {
                for b in a..=9 {
                    for c in std::iter::once(0).chain(b..=9) {
                        let pos = Position::new(vec![a, b, c]);
                        for side in [Side::Left, Side::Right] {
                            if !solver.outcome(&pos).expect("outcome").first_wins(side) {
                                continue;
                            }
                            winning += 1;
                            let hot = solver.hot_move(&pos, side).expect("hotstrat").expect("a move");
                            if !solver.outcome(&hot.to).expect("outcome").first_wins(side.other()) {
                                kept += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    format!("{kept} of {winning} winning positions ({:.1}%) keep the win", 100.0 * kept as f64 / winning as f64)
}

fn piles_upto(n: u64) -> Vec<Vec<u64>> {
    (0..=n).map(|k| vec![k]).collect()
}

#[path = "../core/tests/engine/common/octal.rs"]
mod octal;
use octal::octal_by_definition;

fn octal_text(code: &str) -> String {
    format!("game \"{code}\"\npiles\nmove: octal {code}\n")
}

/// The kernel's time for every pile up to `upto` with one choice of method, and the last value
/// (`None` when it passed `cap` seconds).
fn kernel_run(code: &str, upto: u64, sparse: SparseMode, cap: Option<f64>) -> (f64, Option<u32>) {
    let game = load(&octal_text(code));
    let budget = with_sparse_mode(unbounded().timeout(cap), sparse);
    let mut solver = Solver::new(&game, &budget);
    let start = Instant::now();
    let v = solver.value(&Position::new(vec![upto])).ok().and_then(|v| v.grundy).map(|g| g as u32);
    (start.elapsed().as_secs_f64(), v)
}

/// The sweep of issue 21: every octal code 0.d₁d₂d₃ with a digit that splits and no period
/// proven by 10⁴, each to 10⁵ with the kernel's own choice and with each of its methods forced
/// (the plain scan, one common parity, and the kernel's choice including domains by parity).
/// Prints one line per code: code, chosen time, best forced time, ratio.
fn octal_sweep() -> String {
    let upto = 100_000u64;
    let mut lines = Vec::new();
    for code in 0..512u32 {
        let digits = [(code >> 6) as u8, ((code >> 3) & 7) as u8, (code & 7) as u8];
        if digits.iter().all(|d| d & 4 == 0) {
            continue;
        }
        let text = format!("0.{}{}{}", digits[0], digits[1], digits[2]);
        let game = load(&octal_text(&text));
        let mut solver = Solver::new(&game, &unbounded());
        solver.value(&Position::new(vec![10_000])).expect("solves");
        if solver.proven_period().is_some() {
            continue;
        }
        let (auto, value) = kernel_run(&text, upto, SparseMode::Auto, None);
        let (one, one_value) = kernel_run(&text, upto, SparseMode::OneDomain, Some(2.0 * auto + 0.05));
        let (plain, plain_value) = kernel_run(&text, upto, SparseMode::Never, Some(2.0 * auto + 0.05));
        // A forced method that passed its cap is more than twice as slow: it cannot be the best.
        let agree = [one_value, plain_value].iter().all(|v| v.is_none() || *v == value);
        let best = [Some(auto), one_value.map(|_| one), plain_value.map(|_| plain)]
            .into_iter()
            .flatten()
            .fold(f64::MAX, f64::min);
        lines.push(format!("{text}\t{auto}\t{best}\t{}\t{}", auto / best, if agree { "" } else { "values differ!" }));
    }
    lines.join("\n")
}

/// Runs one workload in this process and prints its answer, time and peak memory.
fn run(name: &str) {
    let start = Instant::now();
    let mut timed = None;
    let answer = match name {
        "grundy-17" => ours_piles(GRUNDY, 1 << 17),
        "grundy-17-naive" => naive_grundy(1 << 17),
        "grundy-17-floor" => {
            let (answer, seconds) = sparse_floor_grundy(1 << 17);
            timed = Some(seconds);
            answer
        }
        "grundy-20" => ours_piles(GRUNDY, 1 << 20),
        "grundy-24" => ours_piles(GRUNDY, 1 << 24),
        w if w.starts_with("grundy-") && w.contains("-t") => {
            // grundy-22-t2: Grundy's game to 2^22 with 2 threads
            let (exp, threads) = w["grundy-".len()..].split_once("-t").expect("grundy-E-tT");
            ours_piles_threads(GRUNDY, 1 << exp.parse::<u32>().expect("an exponent"), threads.parse().expect("threads"))
        }
        w if w.starts_with("plain-0.564-t") => {
            // The plain scan forced: the kernel's own choice turns to sparse space at 32,769.
            let threads = w["plain-0.564-t".len()..].parse().expect("threads");
            ours_piles_with(
                &octal_text("0.564"),
                100_000,
                with_sparse_mode(unbounded().threads(threads), SparseMode::Never),
                threads,
            )
        }
        w if w.starts_with("auto-0.564-t") => {
            // auto-0.564-t2: 0.564 to 2^17 with 2 threads
            ours_piles_threads(&octal_text("0.564"), 1 << 17, w["auto-0.564-t".len()..].parse().expect("threads"))
        }
        w if w.starts_with("record-") => {
            // record-0.16-t2
            let (code, threads) = w["record-".len()..].split_once("-t").expect("record-CODE-tT");
            record(code, threads.parse().expect("threads"))
        }
        "kayles-5" => ours_piles(KAYLES, 100_000),
        "kayles-5-naive" => naive_kayles(100_000),
        "kayles-18" => ours_kayles_huge(),
        "chomp-12" => ours_chomp(12),
        "chomp-9" => ours_chomp(9),
        "chomp-9-generic" => generic_chomp(9),
        "fibonacci-6" => ours_fibonacci(1_000_000),
        "fibonacci-6-naive" => naive_fibonacci(1_000_000),
        "fibonacci-18" => ours_fibonacci_huge(),
        "prime-5" => ours_piles(PRIME, 100_000),
        "prime-5-naive" => naive_prime(100_000),
        "square-split-3" => ours_piles(SQUARE_SPLIT, 3_000),
        "square-split-3-naive" => naive_square_split(3_000),
        "misere-kayles-small" => misere(MISERE_KAYLES, vec![8, 9, 10, 11], false),
        "misere-kayles-small-search" => misere(MISERE_KAYLES, vec![8, 9, 10, 11], true),
        "misere-kayles-four" => misere(MISERE_KAYLES, vec![20, 25, 30, 35], false),
        "misere-kayles-hundred" => misere(MISERE_KAYLES, misere_kayles_hundred(), false),
        "misere-nim-40" => misere(MISERE_NIM, vec![30; 40], false),
        "misere-table-1000" => misere_table(1000),
        w if w.starts_with("quotient-") => {
            // quotient-0.07-33
            let (code, upto) = w["quotient-".len()..].split_once('-').expect("quotient-CODE-N");
            misere_quotient(code, upto.parse().expect("heaps"))
        }
        "grundy-2m" => ours_piles(GRUNDY, 2_000_000),
        "prime-15-refused" => refused(PRIME, vec![1_000_000_000_000_000]),
        "lasker-12-refused" => refused(LASKER, vec![1_000_000_000_000, 5]),
        "chomp-table-50-refused" => chomp_table_refused(50),
        "wythoff-6-refused" => refused(WYTHOFF, vec![1_000_000, 1_000_000]),
        "wythoff-500-600-refused" => refused(WYTHOFF, vec![500, 600]),
        "partizan-values-300" => partizan(PARTIZAN_SUBTRACTION, piles_upto(300), false),
        "partizan-search-300" => partizan(PARTIZAN_SUBTRACTION, piles_upto(300), true),
        "thermal-10000" => thermal_piles(PARTIZAN_SUBTRACTION, 10_000),
        "thermal-search-10000" => partizan(PARTIZAN_SUBTRACTION, piles_upto(10_000), true),
        "thermal-sum-100" => thermal_sum(PARTIZAN_SUBTRACTION),
        "hotstrat" => hotstrat_against_perfect(),
        "partizan-kayles-sum" => partizan(PARTIZAN_KAYLES, vec![vec![8, 9, 10, 11], vec![12, 13, 14]], false),
        "partizan-kayles-sum-search" => partizan(PARTIZAN_KAYLES, vec![vec![8, 9, 10, 11], vec![12, 13, 14]], true),
        "octal-sweep" => {
            println!("{}", octal_sweep());
            "sweep".into()
        }
        w if w.starts_with("octal-kernel-") => {
            // octal-kernel-auto-0.106, octal-kernel-plain-0.106, octal-kernel-one-0.106
            let rest = &w["octal-kernel-".len()..];
            let (mode, code) = rest.split_once('-').expect("a mode and a code");
            let sparse = match mode {
                "plain" => SparseMode::Never,
                "one" => SparseMode::OneDomain,
                _ => SparseMode::Auto,
            };
            let (seconds, value) = kernel_run(code, 100_000, sparse, None);
            timed = Some(seconds);
            format!("g(100000) = {}", value.unwrap_or(0))
        }
        w if w.starts_with("octal-naive-") => {
            let code = &w["octal-naive-".len()..];
            let d: Vec<u8> = code[2..].bytes().map(|b| b - b'0').collect();
            let g = octal_by_definition([d[0], d[1], d[2]], 100_000);
            format!("g(100000) = {}", g[100_000])
        }
        other => panic!("no workload {other}"),
    };
    let seconds = timed.unwrap_or_else(|| start.elapsed().as_secs_f64());
    let peak_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string())
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .unwrap_or(0);
    println!("{seconds}\t{peak_kb}\t{answer}");
}

fn measure(name: &str) -> (f64, u64, String) {
    let exe = std::env::current_exe().expect("the benchmark knows where it is");
    let out = Command::new(exe).args(["--workload", name]).output().expect("the workload runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or_default();
    let mut parts = line.splitn(3, '\t');
    let seconds = parts.next().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN);
    let kb = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    (seconds, kb, parts.next().unwrap_or("(failed)").to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--workload") {
        run(&args[i + 1]);
        return;
    }
    let mut rows: Vec<(&str, &str, Option<&str>)> = vec![
        ("Grundy's game, all n ≤ 2^17", "grundy-17", Some("grundy-17-naive")),
        (
            "Grundy's game ≤ 2^17, the sparse-space floor: one option per rare pile, values given",
            "grundy-17-floor",
            Some("grundy-17-naive"),
        ),
        ("Grundy's game, all n ≤ 2^20, 2 threads (vs 1 thread)", "grundy-20-t2", Some("grundy-20-t1")),
        ("Grundy's game, all n ≤ 2^22, 2 threads (vs 1 thread)", "grundy-22-t2", Some("grundy-22-t1")),
        (
            "0.564, the plain scan (every split scanned), all n ≤ 10^5, 2 threads (vs 1 thread)",
            "plain-0.564-t2",
            Some("plain-0.564-t1"),
        ),
        (
            "0.564, the kernel's choice (sparse space from 32,769), all n ≤ 2^17, 2 threads (vs 1 thread)",
            "auto-0.564-t2",
            Some("auto-0.564-t1"),
        ),
        (
            "record: 0.16 proven (preperiod 105,351, period 149,459), 2 threads (vs 1 thread)",
            "record-0.16-t2",
            Some("record-0.16-t1"),
        ),
        (
            "record: 0.56 proven (preperiod 326,640, period 144), 2 threads (vs 1 thread)",
            "record-0.56-t2",
            Some("record-0.56-t1"),
        ),
        ("Kayles, all n ≤ 10^5", "kayles-5", Some("kayles-5-naive")),
        ("Kayles, n = 10^18", "kayles-18", None),
        ("Chomp 9×9: outcome, Grundy value, winning moves", "chomp-9", Some("chomp-9-generic")),
        ("Chomp 12×12: outcome, Grundy value, winning moves", "chomp-12", None),
        ("Fibonacci Nim, outcomes of all n ≤ 10^6", "fibonacci-6", Some("fibonacci-6-naive")),
        ("Fibonacci Nim, n = 10^18 and its winning move", "fibonacci-18", None),
        ("take a prime, all n ≤ 10^5", "prime-5", Some("prime-5-naive")),
        ("take a square, then split, all n ≤ 3000", "square-split-3", Some("square-split-3-naive")),
        (
            "misère Kayles 8 9 10 11 (quotient vs whole-position search)",
            "misere-kayles-small",
            Some("misere-kayles-small-search"),
        ),
        ("misère Kayles 20 25 30 35", "misere-kayles-four", None),
        ("misère Kayles, 100 piles near 10^18", "misere-kayles-hundred", None),
        ("misère Nim, 40 piles of 30", "misere-nim-40", None),
        ("table of misère Kayles to 1000 with G⁻, genus, Φ", "misere-table-1000", None),
        ("misère quotient of Kayles (0.77) to heap 169 (MisereSolver: 0.91 s)", "quotient-0.77-169", None),
        ("misère quotient of 0.15 to heap 155 (MisereSolver: 1.66 s)", "quotient-0.15-155", None),
        ("misère quotient of Grundy's game to heap 24 (MisereSolver: 0.74 s, order 48)", "quotient-grundy-24", None),
        ("misère quotient of 0.56 to heap 300 (MisereSolver: 0.76 s, order 66)", "quotient-0.56-300", None),
        (
            "misère quotient of Dawson's Kayles (0.07) to heap 33 (MisereSolver: 67 s, order 638)",
            "quotient-0.07-33",
            None,
        ),
        (
            "Grundy's game, n = 2,000,000 (the command line chapter's example) with the default limits",
            "grundy-2m",
            None,
        ),
        ("refused from the estimate: take a prime at 10^15", "prime-15-refused", None),
        ("refused from the estimate: Lasker's Nim at 10^12 5", "lasker-12-refused", None),
        ("refused before it starts: table of Chomp rectangles to 50", "chomp-table-50-refused", None),
        ("refused before the search: Wythoff at 10^6 10^6 (at least 5·10^11 positions)", "wythoff-6-refused", None),
        (
            "refused before the search: Wythoff at 500 600 (at least 8·10^7 moves examined)",
            "wythoff-500-600-refused",
            None,
        ),
        (
            "partizan L{1,3} R{2,3}: canonical values of piles ≤ 300 (vs outcomes by game-tree search)",
            "partizan-values-300",
            Some("partizan-search-300"),
        ),
        (
            "partizan L{1,3} R{2,3}: mean, temperature and thermograph of every pile ≤ 10,000, no canonical form (vs outcomes by game-tree search)",
            "thermal-10000",
            Some("thermal-search-10000"),
        ),
        ("partizan L{1,3} R{2,3}: the sum of 100 piles 9901..10000 from its piles' thermographs", "thermal-sum-100", None),
        ("hotstrat against perfect play: sums of 2 and 3 piles ≤ 9, every game with sets in {1..4}", "hotstrat", None),
        (
            "partizan Kayles 8 9 10 11 and 12 13 14: sums of canonical values (vs whole-position search)",
            "partizan-kayles-sum",
            Some("partizan-kayles-sum-search"),
        ),
    ];
    if std::env::var("TAKEAWAY_BENCH_FULL").is_ok_and(|v| v == "1") {
        rows.insert(2, ("Grundy's game, all n ≤ 2^24, 2 threads (vs 1 thread)", "grundy-24-t2", Some("grundy-24-t1")));
        rows.push(("record: 0.376 proven (preperiod 2,268,248, period 4)", "record-0.376-t2", None));
        rows.push(("record: 0.354 proven (preperiod 10,061,916, period 1,180)", "record-0.354-t2", None));
    }
    // TAKEAWAY_BENCH_ONLY=text: the rows whose label holds the text, alone.
    if let Ok(only) = std::env::var("TAKEAWAY_BENCH_ONLY") {
        rows.retain(|(label, _, _)| label.contains(only.as_str()));
    }
    println!("| work | takeaway | baseline (same run) | baseline ÷ takeaway | peak memory | answer |");
    println!("|---|---|---|---|---|---|");
    let rows_only = std::env::var("TAKEAWAY_BENCH_SWEEP").is_ok_and(|v| v == "only");
    let rows = if rows_only { Vec::new() } else { rows };
    for (label, ours, baseline) in rows {
        let (t, kb, answer) = measure(ours);
        let (base, ratio) = match baseline {
            Some(b) => {
                let (tb, _, answer_b) = measure(b);
                let agrees =
                    if answer_b.split(',').next() == answer.split(',').next() { "" } else { " (answers differ!)" };
                (format!("{tb:.3} s ({b}){agrees}"), format!("{:.2}×", tb / t))
            }
            None => ("—".into(), "—".into()),
        };
        println!("| {label} | {t:.3} s | {base} | {ratio} | {:.1} MB | {answer} |", kb as f64 / 1024.0);
    }
    // The sweep of every open three-digit octal code takes about twenty minutes: on request.
    if std::env::var("TAKEAWAY_BENCH_SWEEP").is_ok_and(|v| v == "1" || v == "only") {
        sweep();
    }
}

/// The octal sweep, run in its own process: the worst ten codes by the kernel's choice against
/// the best of its own methods, and for them the plain O(n²) loop written apart (same run).
fn sweep() {
    let exe = std::env::current_exe().expect("the benchmark knows where it is");
    let out = Command::new(&exe).args(["--workload", "octal-sweep"]).output().expect("the sweep runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut rows: Vec<(String, f64, f64, f64, String)> = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if f.len() != 5 {
                return None;
            }
            Some((f[0].to_string(), f[1].parse().ok()?, f[2].parse().ok()?, f[3].parse().ok()?, f[4].to_string()))
        })
        .collect();
    rows.sort_by(|a, b| b.3.total_cmp(&a.3));
    let worst = rows.first().map(|r| r.3).unwrap_or(0.0);
    let total: f64 = rows.iter().map(|r| r.1).sum();
    let differ = rows.iter().filter(|r| !r.4.is_empty()).count();
    println!();
    println!(
        "Octal sweep: {} codes 0.d1d2d3 with a split and no period proven by 10^4, each to 10^5: {:.1} s in all; worst ratio of the kernel's choice to the best of its methods {:.2}; values differ in {differ}",
        rows.len(),
        total,
        worst
    );
    println!();
    println!("| code | kernel's choice | best of its methods | ratio | plain O(n²) loop (same run) | loop ÷ kernel |");
    println!("|---|---|---|---|---|---|");
    for (code, auto, best, ratio, _) in rows.iter().take(10) {
        let (naive, _, answer) = measure(&format!("octal-naive-{code}"));
        println!(
            "| {code} | {auto:.3} s | {best:.3} s | {ratio:.2} | {naive:.3} s ({answer}) | {:.2}× |",
            naive / auto
        );
    }
    let mut slowest: Vec<&(String, f64, f64, f64, String)> = rows.iter().collect();
    slowest.sort_by(|a, b| b.1.total_cmp(&a.1));
    let names: Vec<String> = slowest.iter().take(10).map(|r| format!("{} {:.3} s", r.0, r.1)).collect();
    println!();
    println!("slowest ten by the kernel's choice: {}", names.join(", "));
}
