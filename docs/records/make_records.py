#!/usr/bin/env python3
"""Writes the table of docs/records/README.md from the record runs' rows and times.

    python3 docs/records/make_records.py

Each record GAME has its rows file GAME.jsonl (one row, as `takeaway sweep` writes it) and
GAME.time (`/usr/bin/time -f "%e s %M KB"` of the run that finished it: a run resumed from a
checkpoint counts only its own part), or GAME.note, the time cell in words where the README
says how it was measured. The table goes between the
README's `<!-- records -->` and `<!-- /records -->` lines, the re-proven periods' (rows whose
status is proven) between `<!-- periods -->` and `<!-- /periods -->`.
"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

NAMES = {
    "grundys-game": "Grundy's game",
    "octal-0.6": "0.6",
    "octal-0.04": "0.04",
    "octal-0.06": "0.06",
}

# How far others published each open game, and who.
FURTHEST = {
    "grundys-game": "2^35 (Flammenkamp)",
    "octal-0.6": "1.4·10^14 (Grossman)",
    "octal-0.04": "2^17 (Czajka); Flammenkamp's bound not known",
    "octal-0.06": "2^17 (Czajka); Flammenkamp's bound not known",
}

# The largest known periods, as Flammenkamp published them (the OEIS sequence that lists the
# values), re-proven here: the game's stem and name.
PERIODS = {
    "octal-0.104": ("0.104", "A071457", 197_769_598, 11_770_282),
    "octal-0.054": ("0.054", "A071454", 193_235_616, 10_015_179),
    "octal-0.056": ("0.056", "A071454", 193_235_616, 10_015_179),
    "octal-0.1777": ("0.1777", "A071509", 160_949_018, 60_620_715),
}


def power(n: int) -> str:
    """A count, with its power of two when it is one."""
    return f"2^{n.bit_length() - 1} ({n:,})" if n > 0 and n & (n - 1) == 0 else f"{n:,}"


def timing(stem: str, row: dict) -> "tuple[str, str]":
    """The time cell and the peak memory of the run that finished a row."""
    timed = (HERE / f"{stem}.time").read_text().split() if (HERE / f"{stem}.time").exists() else []
    seconds, kb = (float(timed[0]), int(timed[2])) if len(timed) >= 4 else (row["seconds"], 0)
    resumed = f" (resumed at {row['resumed_at']:,})" if row.get("resumed_at") else ""
    note = HERE / f"{stem}.note"
    took = note.read_text().strip() if note.exists() else f"{seconds:,.0f} s{resumed}"
    memory = f"{kb / 1024:.0f} MB" if kb < 1 << 20 else f"{kb / (1 << 20):.1f} GB"
    return took, memory


def replace_between(text: str, marker: str, lines: "list[str]") -> str:
    start = text.index(f"<!-- {marker} -->\n") + len(f"<!-- {marker} -->\n")
    end = text.index(f"<!-- /{marker} -->")
    return text[:start] + "\n".join(lines) + "\n" + text[end:]


def rows_of(stems: "list[str]") -> "list[tuple[str, dict, str, str]]":
    """Each stem's row (the first of GAME.jsonl) with its time cell and peak memory, for the
    stems whose run has finished."""
    found = []
    for stem in stems:
        rows = HERE / f"{stem}.jsonl"
        if rows.exists():
            row = json.loads(rows.read_text().splitlines()[0])
            found.append((stem, row, *timing(stem, row)))
    return found


def periods() -> "list[str]":
    """The table of the largest known periods, re-proven."""
    lines = [
        "| game | preperiod | period | published (Flammenkamp) | values the theorem needed | largest value | checksum (FNV-1a) | time | peak memory |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for stem, row, took, memory in rows_of(list(PERIODS)):
        name, oeis, preperiod, period = PERIODS[stem]
        lines.append(
            f"| {name} | {row['preperiod']:,} | {row['period']:,} "
            f"| {preperiod:,}, {period:,} ([{oeis}](https://oeis.org/{oeis})) "
            f"| {row['values_needed']:,} | {row['largest_value']} | `{row['checksum']}` | {took} | {memory} |"
        )
    return lines


def main() -> None:
    lines = [
        "| game | values | furthest published | largest value (first at) | rare values | last rare | checksum (FNV-1a) | time | peak memory |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for stem, row, took, memory in rows_of(list(NAMES)):
        lines.append(
            f"| {NAMES[stem]} | {power(row['values_computed'])} | {FURTHEST[stem]} "
            f"| {row['largest_value']:,} ({row['largest_at']:,}) | {row['rare_values']:,} | {row['last_rare']:,} "
            f"| `{row['checksum']}` | {took} | {memory} |"
        )
    readme = HERE / "README.md"
    text = replace_between(readme.read_text(), "records", lines)
    readme.write_text(replace_between(text, "periods", periods()))


if __name__ == "__main__":
    main()
