#!/usr/bin/env python3
"""takeaway beside the specialist octal-game programs, counted by callgrind.

    python3 benches/peers.py --beling PATH --czajka PATH [--n 16384] [--codes 0.77,0.137,...|all]
                             [--methods rc2,rcs] [--records 0.16,0.127,0.56] [--out target/peers.md]
                             [--clock callgrind|cpu] [--runs 3] [--jobs 1]

PATH are checkouts of the peers, which this script only builds and runs (nothing of theirs is
in this repository): Piotr Beling's impartial-games (its `ogsolve`, built with cargo) and Tomek
Czajka's octal-games (the C++ program in `old/`, `analyze`, built with g++; it computes the values
of heaps below a power of two, so n must be one, and a copy of it is built whose bound on heaps
is n instead of 2^28). takeaway is `target/release/takeaway` (built if missing).

For each octal code, every program computes the Grundy values of heaps 0..n-1 on one thread under
`valgrind --tool=callgrind`, and the instructions it executed are counted (perf's counters are not
available on the machines this runs on; callgrind's counts do not depend on the machine's load).
The values must agree: takeaway's against ogsolve's printed values, one by one, and against the
largest value and where it first occurs, which analyze prints. The table goes to `--out` and to
stdout, with each peer's count as a ratio to takeaway's (above 1: takeaway executed fewer). Where
analyze stops at a period it proves, takeaway's `period`, which stops at its own proof, is run too
and must find the same preperiod and period; the table puts the two proofs side by side.

`--codes all` takes every three-digit code with a digit that splits (448 of them), and the
table ends with the codes where a peer did better. The sweep is left out with `--codes ''`. The records (`--records`, none with `--records ''`) are
runs that prove a published period: takeaway's `period` (one thread, a budget large enough for the
run) beside analyze built as published (heaps up to 2^28, a period looked for at each power of
two), both under callgrind, and both must find the same preperiod and period. 0.376 and 0.354
can be named too; under callgrind they take an hour or more.

`--jobs N` runs N codes of the sweep at once, each program still on one thread: with callgrind
the counts are the same (all 448 codes to 2^14 take about 80 minutes on one core), with
`--clock cpu` the seconds are of programs with a neighbour.

`--clock cpu` runs every program natively instead and counts its CPU seconds (user and system,
the least of `--runs` runs, three unless told, one after another): for runs too long for callgrind (the sweep to 2^17,
0.376 and 0.354), at the price of counts that depend on the machine and its load; the ratios are
of runs made side by side, minutes apart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Three-digit codes of the kinds the field compares on: plain takes, splits into two, and the
# hard ones the last round found slowest.
DEFAULT_CODES = [
    "0.007", "0.021", "0.035", "0.051", "0.077", "0.105", "0.106", "0.137", "0.156", "0.165",
    "0.247", "0.35", "0.36", "0.51", "0.515", "0.52", "0.544", "0.564", "0.6", "0.676", "0.677",
    "0.715", "0.725", "0.751", "0.757", "0.77",
]


# `--codes all`: every three-digit code 0.d1d2d3 with a digit that splits (448 codes).
ALL_CODES = [f"0.{a}{b}{c}" for a in range(8) for b in range(8) for c in range(8) if max(a, b, c) >= 4]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


# What `measure` counts: "callgrind" (instructions) or "cpu" (seconds), set from `--clock`.
CLOCK = "callgrind"
CPU_RUNS = 3


def measure(cmd) -> tuple[float, str]:
    """What `cmd` costs as `CLOCK` counts it, and its standard output."""
    return callgrind(cmd) if CLOCK == "callgrind" else cpu_seconds(cmd)


def cpu_seconds(cmd) -> tuple[float, str]:
    """The least CPU time (user and system, children included) of `CPU_RUNS` runs of `cmd`."""
    best = None
    for _ in range(CPU_RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, text=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if out.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
        spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = spent if best is None else min(best, spent)
    return best, out.stdout


def show(count: float) -> str:
    """A count as the tables print it: instructions with separators, seconds to the millisecond."""
    return f"{count:,}" if CLOCK == "callgrind" else f"{count:.3f} s"


def counted() -> tuple[str, str, str]:
    """What the tables count, how, and what a ratio above 1 says of takeaway."""
    if CLOCK == "callgrind":
        return "Instructions", "callgrind", "executed fewer"
    return "CPU seconds", f"user and system, the least of {CPU_RUNS} runs", "took less"


def callgrind(cmd) -> tuple[int, str]:
    """Instructions executed by `cmd` (its children too) and its standard output."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.%p", *cmd],
            text=True,
            capture_output=True,
        )
        if out.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
        counts = [int(c.replace(",", "")) for c in re.findall(r"Collected : ([\d,]+)", out.stderr)]
        if not counts:
            sys.exit(f"no count from callgrind for {' '.join(cmd)}:\n{out.stderr[-2000:]}")
        return sum(counts), out.stdout


def build_takeaway() -> Path:
    binary = ROOT / "target" / "release" / "takeaway"
    run(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    return binary


def build_ogsolve(checkout: Path) -> Path:
    run(["cargo", "build", "--release", "--quiet", "-p", "ogsolve"], cwd=checkout)
    return checkout / "target" / "release" / "ogsolve"


def build_analyze(checkout: Path, n: int | None, workdir: Path) -> Path:
    """A copy of Czajka's old/ whose bound on heaps is n (None: as published), built with its
    own flags."""
    copy = workdir / f"czajka-old-{n or 'published'}"
    shutil.copytree(checkout / "old" / "src", copy / "src")
    source = copy / "src" / "analyze_exec.cc"
    if n is not None:
        text = source.read_text()
        bounded = re.sub(r"constexpr uint64_t maxn = [^;]+;", f"constexpr uint64_t maxn = {n};", text)
        if bounded == text:
            sys.exit("analyze_exec.cc has no `maxn` bound to set: the peer changed")
        source.write_text(bounded)
    sources = [str(copy / "src" / f) for f in ("analyze_exec.cc", "game.cc", "game_util.cc", "hadamard.cc")]
    binary = copy / "analyze"
    run(["g++", "-O2", "-std=c++11", "-pthread", "-I", str(copy / "src"), *sources, "-o", str(binary)])
    return binary


def fresh_copy(binary: Path, workdir: Path) -> Path:
    """A copy of `binary`, which is what the sweep runs. The kernel keeps a file a linker has
    just written in small pieces and maps it with more page faults than the same bytes copied
    (takeaway's `period` of 0.724: 177 faults against 143, about a fifth of a run of a
    millisecond): every program runs from a copy, so that none is timed in that state."""
    copy = workdir / "copies" / f"{binary.parent.name}-{binary.name}"
    copy.parent.mkdir(exist_ok=True)
    shutil.copy2(binary, copy)
    return copy


def game_file(code: str, workdir: Path) -> Path:
    path = workdir / f"octal-{code}.game"
    path.write_text(f'game "{code}"\npiles\nmove: octal {code}\n')
    return path


def takeaway_values(binary: Path, code: str, n: int, workdir: Path) -> tuple[int, list[int]]:
    count, out = measure(
        [str(binary), "table", str(game_file(code, workdir)), "--upto", str(n - 1), "--format", "csv", "--threads", "1",
         "--max-states", "1000000000000"]
    )
    values = [int(line.split(",")[2]) for line in out.splitlines()[1:] if line]
    return count, values


def ogsolve_values(binary: Path, code: str, n: int, method: str) -> tuple[int, list[int]]:
    count, out = measure([str(binary), code, "-m", method, "-n", str(n - 1), "-p"])
    line = next(l for l in out.splitlines() if l.strip().startswith("nimbers:"))
    return count, [int(v) for v in line.split(":", 1)[1].split()]


def analyze_largest(binary: Path, code: str) -> tuple[int, int, int, int, tuple[int, int] | None]:
    """Instructions, heaps computed, the largest value with where it first occurs, and the
    (preperiod, period) it proved, if it stopped at one."""
    count, out = measure([str(binary), code])
    last = [l for l in out.splitlines() if l.startswith("n=2^")][-1]
    m = re.search(r"n=2\^(\d+) largest G\[(\d+)\]=(\d+)", last)
    if m is None:
        sys.exit(f"analyze printed no statistics for {code}:\n{out[-1000:]}")
    found = re.search(r"Found period start=(\d+) period=(\d+)", out)
    proven = (int(found.group(1)), int(found.group(2))) if found else None
    return count, 1 << int(m.group(1)), int(m.group(2)), int(m.group(3)), proven


def takeaway_record(binary: Path, code: str, workdir: Path) -> tuple[int, int, int, int]:
    """Instructions, values computed, preperiod and period of takeaway's proof."""
    count, out = measure(
        [str(binary), "period", str(game_file(code, workdir)), "--format", "json", "--threads", "1",
         "--max-states", "1000000000000"]
    )
    answer = json.loads(out)
    if not answer["proven"]:
        sys.exit(f"{code}: takeaway proved no period: {out}")
    return count, answer["values_computed"], answer["preperiod"], answer["period"]


def analyze_record(binary: Path, code: str) -> tuple[int, int, int, int]:
    """Instructions, values computed (a power of two), preperiod and period of analyze's proof."""
    count, out = measure([str(binary), code])
    found = re.search(r"Found period start=(\d+) period=(\d+)", out)
    if found is None:
        sys.exit(f"{code}: analyze found no period:\n{out[-1000:]}")
    computed = [int(m) for m in re.findall(r"^n=2\^(\d+)", out, re.MULTILINE)]
    return count, 1 << max(computed), int(found.group(1)), int(found.group(2))


def records_table(takeaway: Path, czajka: Path, codes: list[str], workdir: Path) -> list[str]:
    analyze = fresh_copy(build_analyze(czajka, None, workdir), workdir)
    rows = []
    for code in codes:
        ours, computed, preperiod, period = takeaway_record(takeaway, code, workdir)
        theirs, computed_c, preperiod_c, period_c = analyze_record(analyze, code)
        if (preperiod, period) != (preperiod_c, period_c):
            sys.exit(f"{code}: takeaway proved preperiod {preperiod} period {period}, analyze {preperiod_c} {period_c}")
        rows.append((code, preperiod, period, computed, ours, computed_c, theirs))
        print(f"{code:>7}  period {period:,} from {preperiod:,}  takeaway {show(ours):>16}  analyze {theirs / ours:6.2f}x", flush=True)
    what, how, less = counted()
    table = [
        f"{what} to prove each published period ({how}, one thread; analyze's count as a ratio",
        f"to takeaway's: above 1, takeaway {less}). Both found the same preperiod and period;",
        "analyze computes values to the next power of two past the proof.",
        "",
        f"| code | preperiod | period | takeaway: values | takeaway: {what.lower()} | analyze: values | analyze |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for code, preperiod, period, computed, ours, computed_c, theirs in rows:
        table.append(f"| {code} | {preperiod:,} | {period:,} | {computed:,} | {show(ours)} | {computed_c:,} | {theirs / ours:.2f}× |")
    return table


def main() -> None:
    global CLOCK, CPU_RUNS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beling", type=Path, required=True, help="a checkout of impartial-games")
    parser.add_argument("--czajka", type=Path, required=True, help="a checkout of octal-games")
    parser.add_argument("--n", type=int, default=1 << 14, help="heaps 0..n-1 (a power of two)")
    parser.add_argument("--codes", default=",".join(DEFAULT_CODES))
    parser.add_argument("--methods", default="rc2", help="ogsolve's methods; the fewest instructions counts")
    parser.add_argument("--records", default="0.16,0.127,0.56", help="codes whose published period is proven")
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "peers.md")
    parser.add_argument("--clock", choices=["callgrind", "cpu"], default="callgrind", help="what is counted")
    parser.add_argument("--runs", type=int, default=CPU_RUNS, help="with --clock cpu, the runs of which the least counts")
    parser.add_argument("--jobs", type=int, default=1, help="codes run at once (the sweep; the records run one by one)")
    args = parser.parse_args()
    CLOCK, CPU_RUNS = args.clock, max(1, args.runs)
    n = args.n
    if n & (n - 1):
        sys.exit("--n must be a power of two: analyze computes values to powers of two")
    if CLOCK == "callgrind" and shutil.which("valgrind") is None:
        sys.exit("needs valgrind (Debian's package valgrind)")
    codes = ALL_CODES if args.codes == "all" else [c.strip() for c in args.codes.split(",") if c.strip()]
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    records = [c.strip() for c in args.records.split(",") if c.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        takeaway = fresh_copy(build_takeaway(), workdir)
        rows = []
        if codes:
            ogsolve = fresh_copy(build_ogsolve(args.beling), workdir)
            analyze = fresh_copy(build_analyze(args.czajka, n, workdir), workdir)
        def sweep(code: str):
            ours, values = takeaway_values(takeaway, code, n, workdir)
            if len(values) != n:
                sys.exit(f"{code}: takeaway gave {len(values)} values, not {n}")
            best = None
            for method in methods:
                count, theirs = ogsolve_values(ogsolve, code, n, method)
                if theirs != values:
                    first = next(i for i, (a, b) in enumerate(zip(values, theirs)) if a != b)
                    sys.exit(f"{code}: ogsolve -m {method} differs at heap {first}: {theirs[first]} against {values[first]}")
                best = count if best is None else min(best, count)
            count_c, computed, where, largest, proven = analyze_largest(analyze, code)
            upto = values[:computed]
            expected = max(upto)
            if (where, largest) != (upto.index(expected), expected):
                sys.exit(f"{code}: analyze's largest G[{where}]={largest}, takeaway's G[{upto.index(expected)}]={expected}")
            # Where analyze stopped at a period it proved, takeaway's `period` stops at its own
            # proof: the two proofs side by side, which must find the same period.
            period_count = None
            if computed < n and proven is not None:
                period_count, _, preperiod, period = takeaway_record(takeaway, code, workdir)
                if (preperiod, period) != proven:
                    sys.exit(f"{code}: takeaway proved preperiod {preperiod} period {period}, analyze {proven}")
            return code, ours, best, count_c, computed, period_count

        # Codes run `--jobs` at a time (each program on one thread: callgrind's counts do not
        # change, CPU seconds do with a neighbour), their lines printed in order.
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for row in pool.map(sweep, codes):
                code, ours, best, count_c, computed, period_count = row
                rows.append(row)
                proof = "" if period_count is None else f"  (proofs: analyze {count_c / period_count:.2f}x takeaway `period`)"
                print(f"{code:>7}  takeaway {show(ours):>14}  ogsolve {best / ours:6.2f}x  analyze {count_c / ours:6.2f}x{proof}", flush=True)
        record_lines = records_table(takeaway, args.czajka, records, workdir) if records else []
    what, how, less = counted()
    table = [] if not rows else [
        f"{what} to compute the Grundy values of heaps 0..{n - 1} ({how}, one thread; the peers'",
        f"counts as a ratio to takeaway's: above 1, takeaway {less}). Values checked against",
        f"ogsolve's one by one and against analyze's largest value; ogsolve's method: the fewest of {', '.join(methods)}.",
        "",
        "Where analyze stopped at the period it proved, the last two columns put its count beside",
        "takeaway's `period`, which stops at its own proof of the same period.",
        "",
        "| code | takeaway | ogsolve | analyze (Czajka) | takeaway `period` | analyze beside it |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for code, ours, theirs, czajka, computed, period_count in rows:
        note = "" if computed >= n else f" (stopped at its period, {computed} heaps)"
        proof = "| | |" if period_count is None else f"| {show(period_count)} | {czajka / period_count:.2f}× |"
        table.append(f"| {code} | {show(ours)} | {theirs / ours:.2f}× | {czajka / ours:.2f}×{note} {proof}")
    # The codes where a peer did better: ogsolve, or analyze computing every heap, beside the
    # table; analyze stopping at its period, beside takeaway's own proof.
    behind = []
    for code, ours, theirs, czajka, computed, period_count in rows:
        czajka_ratio = czajka / ours if period_count is None else czajka / period_count
        if min(theirs / ours, czajka_ratio) < 1:
            behind.append(f"{code} ({min(theirs / ours, czajka_ratio):.2f}×)")
    if rows:
        table += ["", f"Behind a peer on {len(behind)} of {len(rows)} codes" + (": " + ", ".join(behind) if behind else ".")]
    if table and record_lines:
        table.append("")
    table += record_lines
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(table) + "\n"
    temporary = args.out.with_suffix(".tmp")
    temporary.write_text(text)
    os.replace(temporary, args.out)
    print()
    print(text)


if __name__ == "__main__":
    main()
