#!/usr/bin/env python3
"""Builds the atlas of octal games (docs/atlas/) from the rows of the sweeps that made it.

    python3 docs/atlas/make_atlas.py --three atlas3.jsonl [--long long3.jsonl] --four atlas4.jsonl
                                     [--takeaway target/release/takeaway] [--log3 sweep3.log --log4 sweep4.log]

`--three` holds every code of up to three digits (`takeaway sweep --octal 3 --upto 1048576`),
`--long` the rows of open three-digit codes taken further (`--codes … --upto 33554432`), which
replace theirs, and `--four` the four-digit codes (`takeaway sweep --octal 4 --at-least 4 --upto
131072`). It writes atlas.csv (every row, in the family's order: the three-digit codes, then the
four-digit ones, games with the same values marked across both) and re-checks every proven
period by Guy and Smith's theorem from the values, which `takeaway table` prints for each code
(a separate run of the engine; the theorem's test and the checksum are computed here).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def read_rows(path: Path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def fnv(values):
    h = 0xCBF29CE484222325
    for v in values:
        for byte in int(v).to_bytes(4, "little"):
            h ^= byte
            h = (h * 0x100000001B3) % (1 << 64)
    return f"{h:016x}"


def values_of(takeaway: str, code: str, upto: int, folder: Path):
    game = folder / f"{code}.game"
    game.write_text(f'game "{code}"\npiles\nmove: octal {code}\n')
    out = subprocess.run(
        [takeaway, "table", str(game), "--upto", str(upto - 1), "--format", "csv", "--timeout", "3600", "--max-states", "100000000000"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("n,outcome,grundy"), lines[0]
    return [int(line.split(",")[2]) for line in lines[1:]]


def recheck(takeaway: str, rows) -> int:
    """Every proven period, by Guy and Smith's theorem from the values: G(n + p) = G(n) for
    n₀ ≤ n < 2n₀ + p + t (t the most a move takes), and the checksum of G(0 … n₀ + p − 1)."""
    checked = 0
    with tempfile.TemporaryDirectory() as folder:
        for row in rows:
            if row["status"] != "proven":
                continue
            code = row["game"]
            pre, p = int(row["preperiod"]), int(row["period"])
            t = len(code.split(".")[1])
            need = 2 * pre + p + t
            g = values_of(takeaway, code, need + p, Path(folder))
            bad = next((n for n in range(pre, need) if g[n + p] != g[n]), None)
            assert bad is None, f"{code}: G({bad} + {p}) != G({bad})"
            assert pre == 0 or g[pre - 1] != g[pre - 1 + p], f"{code}: a shorter preperiod"
            assert fnv(g[: pre + p]) == row["checksum"], f"{code}: checksum"
            checked += 1
    return checked


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--three", type=Path, required=True)
    parser.add_argument("--long", type=Path)
    parser.add_argument("--four", type=Path, required=True)
    parser.add_argument("--takeaway", default=str(ROOT / "target" / "release" / "takeaway"))
    parser.add_argument("--no-recheck", action="store_true")
    given = parser.parse_args()
    sys.path.insert(0, str(ROOT / "python"))
    import takeaway  # the installed package: its native half orders and marks the rows

    three = {r["game"]: r for r in read_rows(given.three)}
    if given.long:
        for r in read_rows(given.long):
            three[r["game"]] = r
    four = {r["game"]: r for r in read_rows(given.four)}
    family = takeaway._native.sweep_family({"octal": 4})["games"]
    rows = takeaway._native.sweep_order(family, list(three.values()) + list(four.values()))
    assert len(rows) == 8190, len(rows)
    (HERE / "atlas.csv").write_text(takeaway._native.sweep_render(rows, "csv"))
    if not given.no_recheck:
        print(f"re-checked {recheck(given.takeaway, rows)} proven periods by the theorem", file=sys.stderr)


if __name__ == "__main__":
    main()
