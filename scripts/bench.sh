#!/usr/bin/env bash
# Runs MathAloud's benchmarks (release build) with their peers side by side in the same invocation.
# Peers: KaTeX (Debian package `katex`, run with node) and mathra (PyPI) for parse, speech and render;
# the espeak-ng command (Debian package `espeak-ng`, from scripts/install-deps.sh) for voice. Installs them if missing.
# Usage: [ORDERED=1] scripts/bench.sh [parse|speech|startup|voice|render|documents] [--repeat N]
#        scripts/bench.sh locales [RULES_DIR] — cold start per locale (hyperfine); RULES_DIR adds locales read from disk
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-parse}"
[[ $# -gt 0 ]] && shift
# Release builds with the Swift runtime linked statically, as shipped (scripts/demo.sh builds the same);
# ORDERED=1: with the hot code laid out together at link time (scripts/build-release.sh --ordered).
build() {
  if [[ ${ORDERED:-0} == 1 ]]; then
    bin="$(scripts/build-release.sh --ordered)"
    return
  fi
  swift build -c release --static-swift-stdlib --product MathAloudBench
  swift build -c release --static-swift-stdlib --product mathaloud
  bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
}
if [[ $what == documents ]]; then
  # Its peer is the one-shot reading of the same document, in the same invocation.
  build
  exec "$bin/MathAloudBench" documents "$@"
fi
if [[ $what == locales ]]; then
  # Cold start of `speak` in English (built in) beside `parse` (no speech loaded), and of each locale of
  # RULES_DIR (read from disk, then loaded when asked for): what loading one locale costs.
  command -v hyperfine >/dev/null 2>&1 || ${SUDO:-$( [[ $(id -u) -eq 0 ]] || echo sudo )} apt-get install -y -qq hyperfine
  swift build -c release --static-swift-stdlib --product mathaloud
  bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
  commands=("$bin/mathaloud parse 'x^2'" "$bin/mathaloud speak 'x^2'" "$bin/mathaloud speak --style mathspeak 'x^2'")
  if [[ $# -gt 0 ]]; then
    dir="$1"
    commands+=("$bin/mathaloud speak --rules-dir $dir 'x^2'")
    for l in $(ls "$dir/Locales" | grep -v '^_' | grep -v README); do
      commands+=("$bin/mathaloud speak --rules-dir $dir --locale $l 'x^2'")
    done
  fi
  exec hyperfine -N --warmup 3 --runs 30 --export-markdown /dev/stdout "${commands[@]}"
fi
if [[ $what == voice ]]; then
  ./scripts/install-deps.sh
  command -v hyperfine >/dev/null 2>&1 || ${SUDO:-$( [[ $(id -u) -eq 0 ]] || echo sudo )} apt-get install -y -qq hyperfine
  build
  exec "$bin/MathAloudBench" voice "$@"
fi

if ! command -v node >/dev/null 2>&1 || [[ ! -d /usr/share/nodejs/katex ]] || ! command -v hyperfine >/dev/null 2>&1; then
  echo "bench.sh: installing the KaTeX peer (Debian packages nodejs, katex)"
  ${SUDO:-$( [[ $(id -u) -eq 0 ]] || echo sudo )} apt-get update -qq
  ${SUDO:-$( [[ $(id -u) -eq 0 ]] || echo sudo )} apt-get install -y -qq nodejs katex hyperfine
fi
if ! python3 -c 'import mathra' >/dev/null 2>&1; then
  echo "bench.sh: installing the mathra peer (PyPI)"
  python3 -m pip install -q mathra || echo "bench.sh: mathra not installed; its peer column will be skipped"
fi
peers="../shared/bench"
[[ -d "$peers" ]] || { echo "bench.sh: peer scripts not found at $peers (the team's shared folder beside the repo)" >&2; exit 3; }

build
"$bin/MathAloudBench" "$what" --peers "$peers" "$@"
