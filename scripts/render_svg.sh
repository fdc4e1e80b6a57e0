#!/usr/bin/env bash
# Renders an SVG of `table` or `show --svg` to a PNG beside it with headless Chromium
# (Debian: apt-get install chromium), at the picture's own size.
# Usage: scripts/render_svg.sh FILE.svg [OUT.png]
set -euo pipefail
svg=$(realpath "$1")
png=${2:-${svg%.svg}.png}
size() { grep -o "$1=\"[0-9]*\"" "$svg" | head -1 | tr -dc 0-9; }
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size="$(size width),$(size height)" --screenshot="$png" "file://$svg" 2>/dev/null
echo "$png"
