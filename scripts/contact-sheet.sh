#!/usr/bin/env bash
# Regenerates docs/contact-sheet.png: every formula of docs/contact-sheet.txt typeset in display style
# (Latin Modern Math) above its spoken label, on white. The PNG's iTXt Description lists the labels.
# Usage: scripts/contact-sheet.sh [extra `mathaloud render` options, e.g. --font pagella]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product mathaloud >/dev/null
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/mathaloud"
"$bin" render --sheet --size 24 --background white -o docs/contact-sheet.png "$@" < docs/contact-sheet.txt
echo "contact-sheet: wrote docs/contact-sheet.png ($(grep -vc '^%' docs/contact-sheet.txt) formulas)"
