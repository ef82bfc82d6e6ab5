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
# docs/records/GAME.time (`/usr/bin/time`), both when the run finishes (a stopped run leaves
# the published ones alone), and `python3 docs/records/make_records.py` makes the table of
# README.md from them.
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
if [ -f "$rows" ] && grep -q "\"values_computed\":$upto," "$rows"; then
    echo "$rows already holds the row to $upto values" >&2
    exit 0
fi
# The run writes its row and its time beside the published ones, which it replaces only when
# it finishes: a run stopped (to go on later from its checkpoint) leaves them as they were.
new_rows="$(mktemp --suffix=.jsonl ".$game.XXXXXX")"
new_time="$(mktemp ".$game.time.XXXXXX")"
trap 'rm -f "$new_rows" "$new_time"' EXIT
/usr/bin/time -f "%e s %M KB" -o "$new_time" \
    "$takeaway" sweep "$game.game" --upto "$upto" --timeout 100000000 \
    --checkpoints "$checkpoints" -o "$new_rows"
chmod 644 "$new_rows" "$new_time"
mv "$new_rows" "$rows"
mv "$new_time" "$game.time"
echo "the row is in docs/records/$rows, the time in docs/records/$game.time" >&2
