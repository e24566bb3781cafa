#!/usr/bin/env bash
# The main job: builds the release `mathaloud` tool and reads the quadratic formula aloud (as text,
# ClearSpeak and MathSpeak), then shows its MathML.
# Usage: scripts/demo.sh ['TEX']
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

echo "demo.sh: swift build -c release --static-swift-stdlib --product mathaloud"
swift build -c release --static-swift-stdlib --product mathaloud

bin_dir="$(swift build -c release --static-swift-stdlib --show-bin-path)"
default_tex='\frac{-b \pm \sqrt{b^2-4ac}}{2a}'
tex="${1:-$default_tex}"
echo "demo.sh: mathaloud speak '$tex'"
"$bin_dir/mathaloud" speak "$tex"
echo "demo.sh: mathaloud speak --style mathspeak '$tex'"
"$bin_dir/mathaloud" speak --style mathspeak "$tex"
echo "demo.sh: mathaloud parse --to mathml '$tex'"
"$bin_dir/mathaloud" parse --to mathml "$tex"
