#!/usr/bin/env python3
"""Tables at memory speed: `takeaway table --format csv|json` beside a plain loop writing the
same bytes, counted by callgrind, and the memory a table takes at 10^7 and 10^8 rows.

    python3 benches/tables.py [--rows 10000000] [--big 100000000] [--games kayles,tag]
                              [--out target/tables.md]

The plain loop is `benches/baselines/plain_table.rs`, built here with `rustc -O` (no crates):
it computes the game's values by the definition and the period they show, and writes each row
with a hand-written number formatter through a buffered writer. Its bytes must equal takeaway's
(checked by hash, every run), so both do the same work; takeaway also reads and checks the game
file and proves the period. The JSON loop is given the text around the three lists, taken from
takeaway's own output, and writes the lists itself.

For each game and format, both programs run once under `valgrind --tool=callgrind` (the
instructions they execute, the same on every machine and under any load) writing to a file,
and the ratio is takeaway's count over the loop's (the aim: at most 1.5 in CSV, 2 in JSON).
The memory is the peak resident size (`/usr/bin/time`, in MB) of takeaway writing the table to
/dev/null, at `--rows` and `--big` rows.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAMES = {
    "kayles": "game \"Kayles\"\npiles\nmove: octal 0.77\n",
    "tag": (ROOT / "games" / "tag.game").read_text(),
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build(workdir: Path) -> tuple[Path, Path]:
    run(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    loop = workdir / "plain_table"
    run(["rustc", "-O", "--edition", "2021", "-o", str(loop), str(ROOT / "benches" / "baselines" / "plain_table.rs")])
    return ROOT / "target" / "release" / "takeaway", loop


def instructions(cmd: list[str], out: Path, workdir: Path) -> int:
    log = workdir / "callgrind.log"
    with open(out, "wb") as sink:
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={workdir / 'callgrind.out'}", *cmd],
            stdout=sink, stderr=open(log, "w"))
    found = re.search(r"Collected : (\d+)", log.read_text())
    if not found:
        sys.exit(f"callgrind gave no count for {cmd}")
    return int(found.group(1))


def digest(path: Path) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def json_frame(table: bytes) -> bytes:
    """The text around the three lists of takeaway's JSON, as the loop takes it."""
    pieces = []
    at = 0
    for name in ("outcomes", "grundy", "p_positions"):
        key = f'  "{name}": '.encode()
        start = table.index(key, at) + len(key)
        pieces.append(table[at:start])
        # a list is `[]`, or ends at the first line that closes it at depth 1
        at = start + 2 if table.startswith(b"[]", start) else table.index(b"\n  ]", start) + 4
    pieces.append(table[at:])
    return b"\0".join(pieces)


def peak_mb(cmd: list[str]) -> tuple[float, float]:
    """The peak resident memory in MB and the seconds of a run writing to /dev/null."""
    done = subprocess.run(["/usr/bin/time", "-f", "%M %e", *cmd], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True)
    kb, seconds = done.stderr.strip().splitlines()[-1].split()
    return int(kb) / 1024, float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--big", type=int, default=100_000_000)
    parser.add_argument("--games", default="kayles,tag")
    parser.add_argument("--out", default=str(ROOT / "target" / "tables.md"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        takeaway, loop = build(workdir)
        lines = [
            f"Rows 0..{args.rows - 1:,} of a one-pile table, takeaway beside a plain loop writing the same bytes "
            "(instructions counted by callgrind; ratio: takeaway's over the loop's).",
            "",
            "| game | format | bytes | takeaway | plain loop | ratio |",
            "|---|---|---|---|---|---|",
        ]
        for game in args.games.split(","):
            game_file = workdir / f"{game}.game"
            game_file.write_text(GAMES[game])
            for fmt in ("csv", "json"):
                ours_out, loop_out = workdir / f"ours.{fmt}", workdir / f"loop.{fmt}"
                cmd = [str(takeaway), "table", str(game_file), "--upto", str(args.rows - 1), "--format", fmt,
                       "--threads", "1"]
                ours = instructions(cmd, ours_out, workdir)
                loop_cmd = [str(loop), game, str(args.rows - 1), fmt]
                if fmt == "json":
                    frame = workdir / "frame"
                    frame.write_bytes(json_frame(ours_out.read_bytes()))
                    loop_cmd.append(str(frame))
                theirs = instructions(loop_cmd, loop_out, workdir)
                if digest(ours_out) != digest(loop_out):
                    sys.exit(f"{game} {fmt}: the loop's bytes differ from takeaway's")
                size = ours_out.stat().st_size
                lines.append(f"| {game} | {fmt} | {size:,} | {ours:,} | {theirs:,} | {ours / theirs:.2f}× |")
                ours_out.unlink()
                loop_out.unlink()
        lines += ["", "Peak memory of `takeaway table … > /dev/null` (resident, MB) and its seconds:", "",
                  "| game | format | rows | peak | seconds |", "|---|---|---|---|---|"]
        for game in args.games.split(","):
            game_file = workdir / f"{game}.game"
            for rows in (args.rows, args.big):
                for fmt in ("csv", "json"):
                    mb, seconds = peak_mb([str(takeaway), "table", str(game_file), "--upto", str(rows - 1),
                                           "--format", fmt, "--timeout", "600"])
                    lines.append(f"| {game} | {fmt} | {rows:,} | {mb:.1f} MB | {seconds:.2f} s |")
    text = "\n".join(lines) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
