#!/usr/bin/env bash
# One record run: the values of a game of docs/records/ to UPTO values, resumable.
#
#     docs/records/run.sh grundys-game 4294967296 [CHECKPOINTS]
#
# Runs `takeaway sweep` on docs/records/GAME.game with both cores (the game's run shares its
# piles' work between two threads), a timeout no run reaches, and its checkpoint in CHECKPOINTS
# (default records-checkpoints/, outside the repository: 2^32 values take 8.6 GB). Stopped
# (Ctrl-C, a machine's end) it keeps its values there: the same command goes on from them.
# The row goes to docs/records/GAME.jsonl, the time and peak memory of this run to
# docs/records/GAME.time (`/usr/bin/time`), and `python3 docs/records/make_records.py` makes
# the table of README.md from them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
game="$1"
upto="$2"
checkpoints="${3:-$root/records-checkpoints}"
takeaway="${TAKEAWAY:-$root/target/release/takeaway}"
if [ ! -x "$takeaway" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
cd "$here"
rows="$game.jsonl"
# A row of a shorter run is replaced: its game is run again (from its checkpoint) to UPTO.
if [ -f "$rows" ] && ! grep -q "\"values_computed\":$upto," "$rows"; then
    rm "$rows"
fi
/usr/bin/time -f "%e s %M KB" -o "$game.time" \
    "$takeaway" sweep "$game.game" --upto "$upto" --timeout 100000000 \
    --checkpoints "$checkpoints" -o "$rows"
