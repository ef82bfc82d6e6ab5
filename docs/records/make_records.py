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
import struct
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


# 0.106's search in a window: where its machine starts, and the stretches run so far.
WINDOW_START = 49_149
# The pile the hare reaches when the period shows, if Flammenkamp's figures are right: the hare
# comes back to the first snapshot past the machine's preperiod (28 · 2^34 steps) a period later.
PERIOD_SHOWS = WINDOW_START + 28 * 2**34 + 328_226_140_474


# The window's length, whose values the machine's first state holds.
WINDOW = 16_384


def window_figures() -> "tuple[int, int, int, tuple[int, int] | None]":
    """From octal-0.106.window: the machine's steps so far, the pile its furthest copy reached
    (while it looks for the period), the deepest a witness was looked for in the prefix, and once
    the search is done the values' preperiod and period (the file's layout is
    core/src/solve/cycle/store.rs's: magic, format, version, game, seven words, the phase)."""
    data = (HERE / "octal-0.106.window").read_bytes()
    at = len(b"takeaway window checkpoint\n") + 4
    for _ in range(2):
        (length,) = struct.unpack_from("<I", data, at)
        at += 4 + length
    words = struct.unpack_from("<7Q", data, at)
    steps, deepest = words[5], words[6]
    phase = data[at + 56]
    tortoise, _power, lam = struct.unpack_from("<3Q", data, at + 57) if phase == 0 else (0, 0, 0)
    found = None
    if phase == 1:
        # The period is known (the hare came back to a snapshot); the preperiod is being looked
        # for from the snapshot below it: (period, where the copy behind stands, as a pile).
        period, behind_at = struct.unpack_from("<2Q", data, at + 57)
        return steps, WINDOW_START + behind_at, deepest, ("period", period)
    if phase == 2:
        # The machine's states repeat from step mu: its window then lies past the values'
        # preperiod, which is where the window at step mu − 1 starts plus one (window_run.rs).
        mu, period = struct.unpack_from("<2Q", data, at + 57)
        found = (WINDOW_START + mu - WINDOW, period)
    return steps, WINDOW_START + tortoise + lam, deepest, found


def stretches() -> "list[str]":
    """The table of 0.106's stretches (octal-0.106.stretches: started, seconds, peak KB, the pile
    reached, a note), with the steps a second each made."""
    lines = [
        "| stretch started (UTC) | seconds | pile reached | steps a second | peak memory | how it ran |",
        "|---|---|---|---|---|---|",
    ]
    before = WINDOW_START
    total = 0.0
    rows = (HERE / "octal-0.106.stretches").read_text().splitlines()
    for line in rows:
        started, seconds, kb, pile, note = line.split("\t", 4)
        total += float(seconds)
        rate = (int(pile) - before) / float(seconds)
        # "?" where the stretch's peak was not kept.
        memory = f"{int(kb) / 1024:.1f} MB" if kb.isdigit() else "not kept"
        mantissa, exponent = f"{rate:.2e}".split("e")
        lines.append(
            f"| {started} | {float(seconds):,.0f} | {int(pile):,} | {mantissa}·10^{int(exponent)} | {memory} | {note} |"
        )
        before = int(pile)
    steps, furthest, _, found = window_figures()
    lines.append("")
    if found and found[0] == "period":
        lines.append(
            f"So far {steps:,} steps in {len(rows)} stretches, {total:,.0f} s in all: the period is found, "
            f"{found[1]:,} (the hare came back to a snapshot a period after it), and the preperiod is looked "
            f"for from pile {furthest:,} on."
        )
        return lines
    if found:
        preperiod, period = found
        lines.append(
            f"Done: {steps:,} steps in {len(rows)} stretches, {total:,.0f} s in all ({total / 3600:.1f} hours): "
            f"the values' preperiod is {preperiod:,} and their period {period:,}."
        )
        return lines
    share = (furthest - WINDOW_START) / (PERIOD_SHOWS - WINDOW_START)
    lines.append(
        f"So far {steps:,} steps, the hare at pile {furthest:,}: {share:.1%} of the way to where the period "
        "would show (below)."
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
    text = replace_between(text, "periods", periods())
    text = replace_between(text, "window", stretches())
    deepest = window_figures()[2]
    start = text.index("<!-- deepest -->") + len("<!-- deepest -->")
    text = text[:start] + f"{deepest:,}" + text[text.index("<!-- /deepest -->"):]
    readme.write_text(text)


if __name__ == "__main__":
    main()
