#!/usr/bin/env python3
"""Writes the table of docs/records/README.md from the record runs' rows and times.

    python3 docs/records/make_records.py

Each record GAME has its rows file GAME.jsonl (one row, as `takeaway sweep` writes it) and
GAME.time (`/usr/bin/time -f "%e s %M KB"` of the run that finished it: a run resumed from a
checkpoint counts only its own part), or GAME.note, the time cell in words where the README
says how it was measured. The table goes between the
README's `<!-- records -->` and `<!-- /records -->` lines.
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


def power(n: int) -> str:
    """A count, with its power of two when it is one."""
    return f"2^{n.bit_length() - 1} ({n:,})" if n > 0 and n & (n - 1) == 0 else f"{n:,}"


def main() -> None:
    lines = [
        "| game | values | largest value (first at) | rare values | last rare | checksum (FNV-1a) | time | peak memory |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for stem, name in NAMES.items():
        rows = HERE / f"{stem}.jsonl"
        if not rows.exists():
            continue
        row = json.loads(rows.read_text().splitlines()[0])
        timed = (HERE / f"{stem}.time").read_text().split() if (HERE / f"{stem}.time").exists() else []
        seconds, kb = (float(timed[0]), int(timed[2])) if len(timed) >= 4 else (row["seconds"], 0)
        resumed = f" (resumed at {row['resumed_at']:,})" if row.get("resumed_at") else ""
        note = HERE / f"{stem}.note"
        took = note.read_text().strip() if note.exists() else f"{seconds:,.0f} s{resumed}"
        memory = f"{kb / 1024:.0f} MB" if kb < 1 << 20 else f"{kb / (1 << 20):.1f} GB"
        lines.append(
            f"| {name} | {power(row['values_computed'])} "
            f"| {row['largest_value']:,} ({row['largest_at']:,}) | {row['rare_values']:,} | {row['last_rare']:,} "
            f"| `{row['checksum']}` | {took} | {memory} |"
        )
    readme = HERE / "README.md"
    text = readme.read_text()
    start, end = text.index("<!-- records -->\n") + len("<!-- records -->\n"), text.index("<!-- /records -->")
    readme.write_text(text[:start] + "\n".join(lines) + "\n" + text[end:])


if __name__ == "__main__":
    main()
