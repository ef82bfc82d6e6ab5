"""The sweep's throughput: games a minute on one core, on every core of the machine, and on a
Dask cluster of two worker processes on loopback, each against the one-core run of the same
family in the same run (the speed-up).

    python python/benches/sweep.py [--every 16] [--upto 131072] [--out target/sweep-bench.md]

The family is every `--every`-th four-digit octal code (0.d₁d₂d₃d₄ and 4.d₁d₂d₃d₄, the last digit
not 0: 448 of the 7,168 with the default), each to `--upto` values or its proof, as the atlas
runs them. The three runs must give the same rows (but for the time). Only ratios within one run
are worth quoting: the machines are shared. Run it with nothing else on the machine.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import takeaway

MEASURED = ("seconds", "work", "resumed_at")


def comparable(rows):
    return [{k: v for k, v in r.items() if k not in MEASURED} for r in rows]


def timed(label, run):
    started = time.perf_counter()
    rows = run()
    seconds = time.perf_counter() - started
    return label, rows, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--every", type=int, default=16)
    parser.add_argument("--upto", type=int, default=1 << 17)
    parser.add_argument("--out", default="target/sweep-bench.md")
    given = parser.parse_args()
    codes = [c for c in takeaway.octal_codes(4) if len(c) == 6][:: given.every]
    cores = os.cpu_count() or 1
    results = [timed("one core", lambda: takeaway.sweep_rows(codes, upto=given.upto, workers=1)[0])]
    results.append(timed(f"all cores ({cores})", lambda: takeaway.sweep_rows(codes, upto=given.upto)[0]))
    from distributed import Client, LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, Client(cluster) as client:
        client.run(lambda: __import__("takeaway") and None)  # the workers load takeaway first
        results.append(
            timed("Dask, 2 workers", lambda: takeaway.sweep_rows(codes, upto=given.upto, client=client)[0])
        )
    base = comparable(results[0][1])
    for label, rows, _ in results[1:]:
        assert comparable(rows) == base, f"{label}: rows differ from the one-core run"
    one = results[0][2]
    lines = [
        f"{len(codes)} four-digit octal codes (every {given.every}th), each to {given.upto} values or its proof:",
        "",
        "| run | seconds | games a minute | speed-up against one core |",
        "|---|---|---|---|",
    ]
    for label, rows, seconds in results:
        lines.append(f"| {label} | {seconds:.1f} | {len(rows) * 60 / seconds:.0f} | {one / seconds:.2f}× |")
    text = "\n".join(lines) + "\n"
    print(text)
    Path(given.out).parent.mkdir(parents=True, exist_ok=True)
    Path(given.out).write_text(text)


if __name__ == "__main__":
    main()
