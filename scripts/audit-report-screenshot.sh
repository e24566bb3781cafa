#!/usr/bin/env bash
# Makes docs/audit-report.png: the HTML audit report of examples/audit-sample, opened in headless
# Chromium (Debian's `chromium`, installed by scripts/install-deps.sh). Usage: scripts/audit-report-screenshot.sh [MATHALOUD]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/release/mathaloud}"
[[ -x "$bin" ]] || bin=".build/debug/mathaloud"
[[ -x "$bin" ]] || { swift build --product mathaloud; bin=".build/debug/mathaloud"; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$bin" audit examples/audit-sample --format html -o "$tmp/report.html" --fail-on never
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1400 --virtual-time-budget=3000 \
  --screenshot="$tmp/report.png" "file://$tmp/report.html#sort=1,descending" 2>/dev/null
cp "$tmp/report.png" docs/audit-report.png
echo "wrote docs/audit-report.png"
