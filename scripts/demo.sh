#!/usr/bin/env bash
# Builds the release `mathaloud` command-line tool and shows it turning the quadratic formula into MathML.
# Usage: scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

echo "demo.sh: swift build -c release --product mathaloud"
swift build -c release --product mathaloud

bin_dir="$(swift build -c release --show-bin-path)"
echo "demo.sh: mathaloud parse '\\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}' --to mathml"
"$bin_dir/mathaloud" parse '\frac{-b \pm \sqrt{b^2-4ac}}{2a}' --to mathml
