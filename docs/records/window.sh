#!/usr/bin/env bash
# One stretch of the search for 0.106's period in a window, SECONDS long (default 3300),
# going on from docs/records/octal-0.106.window and writing it back (also every 2^31 steps).
#
#     docs/records/window.sh 3300
#
# The stretch's line (date, seconds, peak memory, the steps and the pile reached) is appended
# to octal-0.106.stretches; `python3 docs/records/make_records.py` puts the stretches in
# README.md. A stretch stopped by Ctrl-C keeps its checkpoint too, but adds no line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-3300}"
takeaway="${TAKEAWAY:-$root/target/release/takeaway}"
if [ ! -x "$takeaway" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
cd "$here"
clock="$(mktemp)"
report="$(mktemp)"
trap 'rm -f "$clock" "$report"' EXIT
started="$(date -u +%Y-%m-%dT%H:%M)"
# The run ends at its timeout with an error (exit 1) that says where it stands; its checkpoint is
# written first.
/usr/bin/time -f "%e %M" -o "$clock" \
    "$takeaway" period octal-0.106.game --window 16384 --upto 1152921504606846976 \
    --checkpoint octal-0.106.window --timeout "$seconds" --max-moves 10000000000000 \
    --format json > "$report" 2>&1 || true
python3 -I - "$clock" "$report" "$started" >> octal-0.106.stretches <<'PY'
import json, re, sys
seconds, kb = open(sys.argv[1]).read().split()[-2:]
# The report's JSON, then the same diagnostic rendered for a terminal (stderr goes to the same
# file): the first JSON value is the report.
report, _ = json.JSONDecoder().raw_decode(open(sys.argv[2]).read())
text = report["diagnostics"][0]["message"] + " " + (report["diagnostics"][0].get("help") or "") if "diagnostics" in report else json.dumps(report)
pile = re.search(r"stopped at pile (\d+)", text)
print(f"{sys.argv[3]}\t{float(seconds):.0f}\t{int(kb)}\t{pile.group(1) if pile else '?'}\t{text}")
PY
tail -1 octal-0.106.stretches >&2
