#!/usr/bin/env python3
"""takeaway beside Rogalski's `octal`, the fastest public record program, side by side.

    python3 benches/rogalski.py [--octal PATH] [--n 4194304] [--codes 0.161,0.014,0.172,0.6]
                                [--runs 1] [--out target/rogalski.md]

PATH is a checkout of rogalski-wmii-uni-lodz-pl/octal (a Rust sparse-space solver that took
.167 to 2^40), which this script only builds (`cargo build --release`) and runs; nothing of it is
in this repository. Without --octal the script uses ~/.cache/takeaway-bench/octal, cloning it
there from GitHub first when it is not there yet (and the network allows).

For each code, each program computes the Grundy values of heaps 0..n-1 natively, one run after
another, under /usr/bin/time (wall-clock seconds and peak resident memory; the least of --runs
runs): Rogalski's `octal CODE n 0` (one thread: the program has no other), then
`takeaway sweep --codes CODE --upto n --histograms` with one worker thread and with two. The
values must agree: the frequency of every value among the n values (Rogalski's last
histogram, which his program prints at the end, and takeaway's at n) and the number of rare
values. The table goes to --out and to stdout, each time as a ratio to Rogalski's (below 1:
takeaway took less). The seconds depend on the machine and its load; the ratios are of runs
made side by side, seconds apart.

Two threads hand each other a pile's value every microsecond or so, so their gain depends on
how long a cache line takes to go from one core to the other: on a virtual machine the host may
move the two cores apart and back within minutes (this one's round trip went between 75 and
414 ns in one evening). Before each two-thread run the script measures that round trip (a
small program compiled with rustc: two threads passing a counter back and forth), and the table
gives the range.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = "https://github.com/rogalski-wmii-uni-lodz-pl/octal"
DEFAULT_CODES = ["0.161", "0.014", "0.172", "0.6"]


def checkout(path: str | None) -> Path:
    if path:
        return Path(path).resolve()
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "takeaway-bench" / "octal"
    if not cache.exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "--quiet", UPSTREAM, str(cache)], check=True)
    return cache


def build_rogalski(repo: Path) -> Path:
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=repo, check=True)
    return repo / "target" / "release" / "octal"


def build_takeaway() -> Path:
    binary = ROOT / "target" / "release" / "takeaway"
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "takeaway"], cwd=ROOT, check=True)
    return binary


PROBE = r"""
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
#[repr(align(128))]
struct Line(AtomicU64);
fn main() {
    const TRIPS: u64 = 200_000;
    let line = Arc::new(Line(AtomicU64::new(0)));
    let other = Arc::clone(&line);
    let echo = std::thread::spawn(move || {
        for i in 0..TRIPS {
            while other.0.load(Ordering::Acquire) != 2 * i + 1 { std::hint::spin_loop(); }
            other.0.store(2 * i + 2, Ordering::Release);
        }
    });
    let start = std::time::Instant::now();
    for i in 0..TRIPS {
        line.0.store(2 * i + 1, Ordering::Release);
        while line.0.load(Ordering::Acquire) != 2 * i + 2 { std::hint::spin_loop(); }
    }
    let nanos = start.elapsed().as_nanos() as f64 / TRIPS as f64;
    echo.join().unwrap();
    println!("{nanos:.0}");
}
"""


def build_probe(directory: Path) -> Path:
    """The round-trip probe, compiled into `directory`."""
    source = directory / "round_trip.rs"
    source.write_text(PROBE)
    binary = directory / "round_trip"
    subprocess.run(["rustc", "-O", "--edition", "2021", "-o", str(binary), str(source)], check=True)
    return binary


def round_trip_ns(probe: Path) -> float:
    """A cache line's round trip between two threads, in nanoseconds (the least of three)."""
    return min(float(subprocess.run([str(probe)], check=True, stdout=subprocess.PIPE, text=True).stdout)
               for _ in range(3))


def timed(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """Runs a command under /usr/bin/time: (seconds, peak MB, stdout)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as clock:
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", "-o", clock.name, *command],
            cwd=cwd,
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        )
        seconds, kilobytes = clock.read().split()[-2:]
    return float(seconds), int(kilobytes) / 1024, done.stdout


def least(runs: int, command: list[str], cwd: Path) -> tuple[float, float, str]:
    results = [timed(command, cwd) for _ in range(runs)]
    return min(results, key=lambda r: r[0])


def rogalski_figures(text: str, n: int) -> tuple[list[int], int]:
    """The last histogram the program printed (it must be of n values) and its rare count."""
    heads = list(re.finditer(r"^(\d+) freqs after", text, re.M))
    if not heads or int(heads[-1].group(1)) != n:
        raise SystemExit(f"octal printed no histogram of {n} values")
    start = text.index("[", heads[-1].end())
    frequencies = json.JSONDecoder().raw_decode(text[start:])[0]
    counts = [f["frequency"] for f in frequencies]
    while counts and counts[-1] == 0:
        counts.pop()
    rares = [int(m.group(1)) for m in re.finditer(r"rares=(\d+)", text)]
    # It counts (0, 0) among its rare values ("+1 for (0, 0)"); takeaway counts piles with a rare
    # value, pile 0 among them when 0 is rare.
    return counts, rares[-1] if rares else -1


def takeaway_figures(rows: Path) -> tuple[list[int], int]:
    row = json.loads(rows.read_text().splitlines()[0])
    return row["histograms"][-1]["counts"], row["rare_values"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--octal", help="a checkout of Rogalski's octal")
    parser.add_argument("--n", type=int, default=1 << 22)
    parser.add_argument("--codes", default=",".join(DEFAULT_CODES))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "target" / "rogalski.md"))
    args = parser.parse_args()
    if shutil.which("/usr/bin/time") is None:
        raise SystemExit("/usr/bin/time is needed (Debian: apt-get install time)")
    rogalski = build_rogalski(checkout(args.octal))
    takeaway = build_takeaway()
    probe_dir = tempfile.TemporaryDirectory()
    probe = build_probe(Path(probe_dir.name))
    lines = [
        f"Values of heaps 0..{args.n - 1}: wall-clock seconds and peak memory (MB), the least of {args.runs} run(s); "
        "ratios to Rogalski's octal (one thread); the second thread's gain (1 thread's seconds over 2 threads'), "
        "and the cores' round trip measured before each two-thread run.",
        "",
        "| code | octal s | octal MB | takeaway 1 thread s | MB | × octal | takeaway 2 threads s | MB | × octal "
        "| 2nd thread | round trip ns | values |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    differ = False
    for code in [c for c in args.codes.split(",") if c]:
        with tempfile.TemporaryDirectory() as work:
            cwd = Path(work)
            r_s, r_mb, r_out = least(args.runs, [str(rogalski), code, str(args.n), "0"], cwd)
            r_counts, r_rare = rogalski_figures(r_out, args.n)
            ours = []
            trips: list[float] = []
            for workers in (1, 2):
                rows = cwd / f"rows-{workers}.jsonl"
                command = [str(takeaway), "sweep", "--codes", code, "--upto", str(args.n), "--histograms",
                           "--workers", str(workers), "--timeout", "100000", "-o", str(rows)]
                best = None
                for _ in range(args.runs):
                    rows.unlink(missing_ok=True)
                    if workers == 2:
                        trips.append(round_trip_ns(probe))
                    result = timed(command, cwd)
                    if best is None or result[0] < best[0]:
                        best = result
                assert best is not None
                counts, rare = takeaway_figures(rows)
                ours.append((best[0], best[1], counts, rare))
            agree = all(c == r_counts for _, _, c, _ in ours)
            note = "equal histograms" if agree else "HISTOGRAMS DIFFER"
            rare_note = f", rare {ours[0][3]} (octal {r_rare})"
            row = (f"| {code} | {r_s:.2f} | {r_mb:.0f} | {ours[0][0]:.2f} | {ours[0][1]:.0f} | {ours[0][0] / r_s:.2f} "
                   f"| {ours[1][0]:.2f} | {ours[1][1]:.0f} | {ours[1][0] / r_s:.2f} | {ours[0][0] / ours[1][0]:.2f}× "
                   f"| {min(trips):.0f}–{max(trips):.0f} | {note}{rare_note} |")
            lines.append(row)
            print(row, flush=True)
            differ = differ or not agree
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"table in {args.out}", file=sys.stderr)
    if differ:
        raise SystemExit("the values differ")


if __name__ == "__main__":
    main()
