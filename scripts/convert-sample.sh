#!/usr/bin/env bash
# Regenerates docs/convert-sample.html and docs/convert-sample.png: the sample lecture page of the
# document tests (Tests/MathAloudDocumentsTests/Fixtures/sample-page.html, MathJax delimiters, a MathML
# element, a math/tex script, a numbered equation and a reference) converted by `mathaloud convert`
# to MathML with alttext/aria-label, then photographed by headless Chromium (Debian's `chromium`,
# installed by scripts/install-deps.sh).
# Usage: scripts/convert-sample.sh [extra `mathaloud convert` options, e.g. --math-as svg]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product mathaloud >/dev/null
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/mathaloud"
"$bin" convert Tests/MathAloudDocumentsTests/Fixtures/sample-page.html -o docs/convert-sample.html "$@"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
  --window-size=900,760 --screenshot="$PWD/docs/convert-sample.png" "file://$PWD/docs/convert-sample.html" 2>/dev/null
echo "convert-sample: wrote docs/convert-sample.html and docs/convert-sample.png"
