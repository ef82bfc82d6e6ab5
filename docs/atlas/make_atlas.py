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
    parser.add_argument("--times", default="", help="the sweeps' wall-clock times and cores, as a sentence for the summary")
    given = parser.parse_args()
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
    checked = 0 if given.no_recheck else recheck(given.takeaway, rows)
    print(f"re-checked {checked} proven periods by the theorem", file=sys.stderr)
    (HERE / "README.md").write_text(summary(rows, checked, given.times))


# The solved three-digit codes of the published record (Winning Ways; Gangolli and Plambeck 1989;
# Austin; Flammenkamp), as (preperiod, period).
PUBLISHED = {
    "0.07": (53, 34, "Winning Ways (Dawson's Kayles)"),
    "0.77": (71, 12, "Winning Ways (Kayles)"),
    "0.137": (52, 34, "Winning Ways (Dawson's chess)"),
    "0.127": (46578, 4, "Gangolli and Plambeck"),
    "0.16": (105351, 149459, "Gangolli and Plambeck"),
    "0.56": (326640, 144, "Gangolli and Plambeck"),
    "0.165": (5181, 1550, "Austin"),
    "0.376": (2268248, 4, "Gangolli and Plambeck"),
    "0.354": (10061916, 1180, "Flammenkamp"),
}


def summary(rows, checked: int, times: str) -> str:
    def digits(r):
        return len(r["game"].split(".")[1])

    def count(rs, status):
        return sum(1 for r in rs if r["status"] == status)

    out = ["# The atlas of octal games", ""]
    out.append(
        "Every octal code of up to four digits, `0.d₁…d_k` and `4.d₁…d_k` with the last digit not 0 "
        "(8,190 games), swept by `takeaway sweep`: each code's Grundy values computed until Guy "
        "and Smith's periodicity theorem proves their period, or to 2²⁰ values (codes of up to three "
        "digits) or 2¹⁷ (four digits). [`atlas.csv`](atlas.csv) has one row a code, with the columns "
        "of [the sweeps chapter](../src/atlas.md); the classroom page's Atlas tab searches it."
    )
    out += ["", "## What is proven, what is open", ""]
    out.append("| digits | codes | proven | open | stopped | refused | same values as an earlier code |")
    out.append("|---|---|---|---|---|---|---|")
    for k in (1, 2, 3, 4):
        rs = [r for r in rows if digits(r) == k]
        same = sum(1 for r in rs if r["same_values_as"])
        out.append(f"| {k} | {len(rs)} | {count(rs, 'proven')} | {count(rs, 'open')} | {count(rs, 'stopped')} | {count(rs, 'refused')} | {same} |")
    out.append(f"| all | {len(rows)} | {count(rows, 'proven')} | {count(rows, 'open')} | {count(rows, 'stopped')} | {count(rows, 'refused')} | {sum(1 for r in rows if r['same_values_as'])} |")
    out += [
        "",
        f"Every proven period ({checked} of them) was re-checked by the theorem from the values, "
        "which `takeaway table` printed for each code in a separate run: G(n + p) = G(n) for "
        "n₀ ≤ n < 2n₀ + p + t, the preperiod the smallest, and the checksum of G(0 … n₀ + p − 1) "
        "the row's (`make_atlas.py`). The tests re-check every proven period whose proof needs at most "
        "400 values from values computed by the octal code's definition.",
    ]
    by = {r["game"]: r for r in rows}
    out += ["", "## Against the published three-digit tables", ""]
    out.append("| code | published preperiod, period | source | here | values the proof needed |")
    out.append("|---|---|---|---|---|")
    for code, (pre, p, source) in PUBLISHED.items():
        r = by[code]
        here = f"{r['preperiod']:,}, {r['period']:,}" if r["status"] == "proven" else r["status"]
        needed = f"{r['values_needed']:,}" if r["values_needed"] else ""
        out.append(f"| {code} | {pre:,}, {p:,} | {source} | {here} | {needed} |")
    three_open = [r for r in rows if digits(r) <= 3 and r["status"] == "open"]
    three_proven = [r for r in rows if digits(r) <= 3 and r["status"] == "proven"]
    early = [r for r in three_proven if int(r["values_needed"]) <= 1000]
    late = sorted((r for r in three_proven if int(r["values_needed"]) > 1000), key=lambda r: int(r["values_needed"]))
    out += [
        "",
        f"Of the {len(three_proven)} codes of up to three digits proven here, {len(early)} fall to their first "
        f"thousand values; {len(late)} need more: "
        + ", ".join(f"{r['game']} ({r['preperiod']:,}, {r['period']:,})" for r in late)
        + ".",
        "",
        f"{len(three_open)} codes of up to three digits stay open at 2²⁰ values (the published tables, "
        "Flammenkamp's and Czajka's, also leave the hard ones open: 0.6, 0.04, 0.06, 0.007 among them). "
        "0.6 agrees with Czajka's published figures: 1,584 rare values, the last at 20,627. The "
        "published lists themselves are not on this machine, so the open and the trivial codes were "
        "not compared one by one. The two longest proofs, 0.376 and 0.354, were taken past 2²⁰ "
        "(`--upto 33554432`); every other code of up to three digits stops at its proof or at 2²⁰.",
        "",
        "Open at 2²⁰, with the largest value met: "
        + ", ".join(f"{r['game']} ({r['largest_value']})" for r in three_open)
        + ".",
    ]
    four = [r for r in rows if digits(r) == 4]
    longest = sorted((r for r in four if r["status"] == "proven"), key=lambda r: -int(r["values_needed"]))[:15]
    out += ["", "## New: the four-digit codes", ""]
    out.append(
        f"None of the 7,168 four-digit codes is in the published tables. {count(four, 'proven')} are proven "
        f"periodic within 2¹⁷ values ({sum(1 for r in four if r['status'] == 'proven' and not r['same_values_as'])} "
        "of them with values no earlier code has); the longest proofs:"
    )
    out += ["", "| code | preperiod | period | values the proof needed | largest value |", "|---|---|---|---|---|"]
    for r in longest:
        out.append(f"| {r['game']} | {r['preperiod']:,} | {r['period']:,} | {r['values_needed']:,} | {r['largest_value']} |")
    four_open = [r for r in four if r["status"] == "open"]
    fresh = [r for r in four_open if not r["same_values_as"]]
    out += [
        "",
        f"{len(four_open)} four-digit codes are open at 2¹⁷ values ({len(fresh)} with values no earlier code "
        "has); those whose values grow fastest:",
        "",
        "| code | largest value | at | apparent period | rare values (last) |",
        "|---|---|---|---|---|",
    ]
    for r in sorted(fresh, key=lambda r: -int(r["largest_value"] or 0))[:10]:
        apparent = f"{r['apparent_period']} (saltus {r['apparent_saltus']})" if r["apparent_period"] else ""
        rare = f"{r['rare_values']} ({r['last_rare']})" if r["rare_values"] is not None else ""
        out.append(f"| {r['game']} | {r['largest_value']} | {r['largest_at']} | {apparent} | {rare} |")
    out += ["", "## How it was made", ""]
    if times:
        out.append(times)
        out.append("")
    out += [
        "```sh",
        "takeaway sweep --octal 3 --upto 1048576 --timeout 3600 --checkpoints ckpt3 -o atlas3.jsonl",
        "takeaway sweep --codes 0.376,0.354 --upto 33554432 --max-states 100000000000 --checkpoints ckpt-long -o long3.jsonl",
        "takeaway sweep --octal 4 --at-least 4 --upto 131072 --timeout 3600 --checkpoints ckpt4 -o atlas4.jsonl",
        "python3 docs/atlas/make_atlas.py --three atlas3.jsonl --long long3.jsonl --four atlas4.jsonl",
        "```",
        "",
        "Each sweep can be stopped at any moment and run again to go on (`-o` keeps the rows, "
        "`--checkpoints` each game's values); `--scheduler tcp://HOST:8786` runs the same sweep on a "
        "Dask cluster.",
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    main()
