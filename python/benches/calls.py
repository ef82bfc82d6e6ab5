"""The cost of asking from Python: many small questions, and a research sweep, each against a
baseline measured in the same run.

    python python/benches/calls.py [--cli target/release/takeaway]

0. `solve` on defaults (with the remoteness) of 20,000 small Nim positions (three piles below
   8), and the same with `remoteness=False`.
1. `solve` on random Nim positions of three piles below 1000, through `takeaway.Game.solve`,
   against the bare native call (`Game._game.ask`), which is the engine and the call alone.
2. The periods of 400 subtraction games {1, a, b} (1 < a < b ≤ 30), through Python, against the
   same sweep through the command line (`takeaway period games/subtraction-set.game --set
   S={1,a,b}`, one process per set), whose answers must be the same.

Only ratios within one run are worth quoting: the machines are shared."""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import takeaway

ROOT = Path(__file__).resolve().parents[2]


def solves(count: int) -> None:
    nim = takeaway.Game.from_file(ROOT / "games" / "nim.game")
    rng = random.Random(50_000)
    positions = [tuple(rng.randrange(1000) for _ in range(3)) for _ in range(count)]
    texts = [" ".join(map(str, p)) for p in positions]
    native = nim._game
    started = time.perf_counter()
    for t in texts:
        native.ask("solve", {"position": t})
    bare = time.perf_counter() - started
    started = time.perf_counter()
    zeros = 0
    for p in positions:
        zeros += nim.solve(*p).grundy == 0
    full = time.perf_counter() - started
    print(f"solve, {count} Nim positions of 3 piles < 1000:")
    print(f"  Game.solve        {count / full:10,.0f} calls/s")
    print(f"  native ask only   {count / bare:10,.0f} calls/s   (Game.solve costs {full / bare:.2f}x)")
    print(f"  ({zeros} were P-positions)")


def small_solves(count: int) -> None:
    """A class's loop: `solve` on defaults (remoteness included) of small Nim positions, three
    piles below 8, against the same with `remoteness=False`."""
    nim = takeaway.Game.from_file(ROOT / "games" / "nim.game")
    rng = random.Random(20_000)
    positions = [tuple(rng.randrange(8) for _ in range(3)) for _ in range(count)]
    started = time.perf_counter()
    remote = sum(nim.solve(*p).remoteness for p in positions)
    defaults = time.perf_counter() - started
    started = time.perf_counter()
    for p in positions:
        nim.solve(*p, remoteness=False)
    without = time.perf_counter() - started
    print(f"solve on defaults, {count} Nim positions of 3 piles < 8 (remoteness summed: {remote}):")
    print(f"  on defaults       {defaults:8.3f} s   ({defaults / count * 1e6:.1f} us a call)")
    print(f"  remoteness=False  {without:8.3f} s   ({without / count * 1e6:.1f} us a call)")


def sweep_sets():
    return [(1, a, b) for b in range(3, 31) for a in range(2, b)][:400]


def sweep_python():
    family = 'game "S"\nparam S = {1, 2}\npiles\nmove: take S\n'
    out = {}
    for s in sweep_sets():
        r = takeaway.Game.from_source(family, S=list(s)).period()
        out[s] = (r.preperiod, r.period)
    return out


def sweep_cli(cli: str):
    out = {}
    pattern = re.compile(r"period (\d+) from n = \d+ \(preperiod (\d+)\)")
    for s in sweep_sets():
        text = subprocess.run(
            [cli, "period", str(ROOT / "games" / "subtraction-set.game"), "--set", "S={%d,%d,%d}" % s],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        m = pattern.search(text)
        if m is None:
            sys.exit(f"the command line's answer for {s} has no period:\n{text}")
        out[s] = (int(m.group(2)), int(m.group(1)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ROOT / "target" / "release" / "takeaway"))
    parser.add_argument("--solves", type=int, default=100_000)
    args = parser.parse_args()
    small_solves(20_000)
    solves(args.solves)
    started = time.perf_counter()
    by_python = sweep_python()
    python_time = time.perf_counter() - started
    started = time.perf_counter()
    by_cli = sweep_cli(args.cli)
    cli_time = time.perf_counter() - started
    if by_python != by_cli:
        sys.exit("the sweeps disagree")
    longest = max(by_python, key=lambda s: by_python[s][1])
    print(f"periods of {len(by_python)} subtraction sets {{1, a, b}}, b <= 30 (the same in both):")
    print(f"  Python            {python_time:8.3f} s")
    print(f"  command line      {cli_time:8.3f} s   ({cli_time / python_time:.1f}x Python's time)")
    print(f"  longest period: {longest} -> {by_python[longest][1]} (preperiod {by_python[longest][0]})")


if __name__ == "__main__":
    main()
