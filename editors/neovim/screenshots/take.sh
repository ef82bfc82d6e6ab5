#!/usr/bin/env bash
# Takes the manual's editor screenshots (docs/src/images/editor-*.png): Neovim in an xterm on
# a virtual X display, with `takeaway lsp` attached. Needs Debian's xvfb, xterm, x11-apps,
# imagemagick and neovim, and `takeaway` built (target/debug). Not run by the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
here="$root/editors/neovim/screenshots"
work="$(mktemp -d)"
trap 'pkill -f "Xvfb :99" || true; rm -rf "$work"' EXIT
cd "$work"
printf '# Subtraction {1, 2, 3}, with a mistake\ngame "Take one to three"\nparam k = 3\npiles\nmove: take 1..kk\nmove: take k where t ≤ n\n' > typo.game
printf '# Subtraction {1, 2, 3}\ngame "Take one to three"\nparam k = 3\npiles\nmove: take 1..k\n' > good.game
export DISPLAY=:99 TAKEAWAY="$root/target/debug/takeaway"
Xvfb :99 -screen 0 1300x600x24 >/dev/null 2>&1 &
sleep 1
# shoot FILE LINE COLUMN SCRIPT COLSxROWS CROP OUT
shoot() {
    LINE=$2 COL=$3 xterm -geometry "$5+0+0" -fa 'DejaVu Sans Mono' -fs 12 -bg '#1e1e2e' -fg '#dddddd' \
        -e nvim --clean -c "luafile $here/$4" "$1" &
    sleep 5
    xwd -root -silent | convert xwd:- -crop "$6+0+0" +repage "$root/docs/src/images/$7"
    kill $! || true
    sleep 0.5
}
shoot typo.game 5 15 diagnostic.lua 110x12 1000x250 editor-diagnostic.png
shoot good.game 5 7 hover.lua 110x17 1000x350 editor-hover-rule.png
shoot good.game 2 3 hover.lua 125x25 1140x510 editor-hover-values.png
