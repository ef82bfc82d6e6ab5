#!/usr/bin/env bash
# The value histograms of a game of docs/records/ at every power of two up to UPTO values.
#
#     docs/records/histograms.sh octal-0.6 67108864
#
# Runs `takeaway sweep GAME.game --upto UPTO --histograms` on both cores (from nothing: no
# checkpoint is read or kept), its time and peak memory by `/usr/bin/time`, and writes
# histograms/GAME/N for each N = 2^k computed: one line `value count` for every value from 0 to
# the largest among the first N, as Rogalski publishes his (rogalski-wmii-uni-lodz-pl/octal,
# results/), so that the two compare with `diff`. The run's row (without its histograms) goes to
# histograms/GAME/row.json and its time to histograms/GAME/time.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
game="$1"
upto="$2"
takeaway="${TAKEAWAY:-$root/target/release/takeaway}"
if [ ! -x "$takeaway" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
out="$here/histograms/$game"
mkdir -p "$out"
rows="$(mktemp --suffix=.jsonl)"
clock="$(mktemp)"
trap 'rm -f "$rows" "$clock"' EXIT
rm -f "$rows"
/usr/bin/time -f "%e s %M KB" -o "$clock" \
    "$takeaway" sweep "$here/$game.game" --upto "$upto" --histograms --timeout 100000000 -o "$rows"
python3 -I - "$rows" "$out" <<'PY'
import json, sys
from pathlib import Path
row = json.loads(Path(sys.argv[1]).read_text().splitlines()[0])
out = Path(sys.argv[2])
for histogram in row.pop("histograms"):
    n = histogram["values"]
    if n & (n - 1) == 0:
        lines = "".join(f"{v} {c}\n" for v, c in enumerate(histogram["counts"]))
        (out / str(n)).write_text(lines)
(out / "row.json").write_text(json.dumps(row, indent=1) + "\n")
PY
cp "$clock" "$out/time"
echo "histograms in $out, the run's time in $out/time: $(cat "$clock")" >&2
