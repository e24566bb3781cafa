#!/usr/bin/env bash
# Release build of `mathaloud` and `MathAloudBench` with the Swift runtime linked statically, as
# scripts/bench.sh and scripts/demo.sh build them; prints the directory of the binaries.
# Usage: scripts/build-release.sh [--ordered] [-j N]
#
# --ordered lays the code that speaking runs out together at link time (BENCHMARKS.md, session 47):
# every function in a section of its own (the frontend's -function-sections), a training run of
# `MathAloudBench stages` (the first 1,000 arXiv formulas, whole speech) and `render-svg-profile`
# (100 of them) under callgrind, the calls it made between functions written out by
# scripts/callgrind-order.py, and ld.lld's --call-graph-ordering-file (its cdsort) to place callers
# near their callees. The package itself is unchanged (no unsafe flags in Package.swift: it stays
# usable as a dependency); the build goes to .build-ordered, and the order files to
# .build-ordered/order (regenerated on every run, never committed: they name this build's symbols).
# Needs valgrind (apt `valgrind`) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

ordered=0
jobs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ordered) ordered=1 ;;
    -j) jobs=(-j "$2"); shift ;;
    *) echo "usage: scripts/build-release.sh [--ordered] [-j N]" >&2; exit 2 ;;
  esac
  shift
done

if [[ $ordered == 0 ]]; then
  flags=(-c release --static-swift-stdlib "${jobs[@]}")
  swift build "${flags[@]}" --product MathAloudBench >&2
  swift build "${flags[@]}" --product mathaloud >&2
  swift build "${flags[@]}" --show-bin-path
  exit 0
fi

command -v valgrind >/dev/null 2>&1 || { echo "build-release.sh: --ordered needs valgrind (apt-get install valgrind)" >&2; exit 3; }
scratch="${SCRATCH:-.build-ordered}"
flags=(-c release --static-swift-stdlib --scratch-path "$scratch" "${jobs[@]}"
       -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld)
# 1. Function sections, linked without an order: the training binary.
swift build "${flags[@]}" --product MathAloudBench >&2
bin="$(swift build "${flags[@]}" --show-bin-path)"
bench="$(realpath "$bin/MathAloudBench")"

# 2. Training: callgrind counts the calls of the timed loops only (--toggle-collect), with the
# symbols' own (mangled) names.
order="$scratch/order"
rm -rf "$order"; mkdir -p "$order"
head -n 1000 Tests/MathTeXTests/Fixtures/arxiv-public.txt > "$order/speech.txt"
head -n 100 Tests/MathTeXTests/Fixtures/arxiv-public.txt > "$order/render.txt"
train() {
  local name="$1" toggle="$2"; shift 2
  STAGES_ONLY=whole SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --demangle=no \
    --collect-atstart=no --toggle-collect="$toggle" --callgrind-out-file="$order/$name.callgrind" \
    "$bench" "$@" > "$order/$name.log" 2>&1 \
    || { echo "build-release.sh: training run $name failed (see $order/$name.log)" >&2; exit 4; }
}
train speech '*bestOf*' stages --corpus "$order/speech.txt" --repeat 1
train render '*profileLoop*' render-svg-profile --corpus "$order/render.txt" --repeat 1
python3 scripts/callgrind-order.py "$bench" "$order/symbols.txt" "$order/callgraph.txt" \
  "$order/speech.callgrind" "$order/render.callgrind" >&2

# 3. The same objects linked again with the order (only the link and the embedded resources run again;
# the binaries are removed first, since SwiftPM does not see a changed order file).
rm -f "$bin/MathAloudBench" "$bin/mathaloud"
# (The host tools SwiftPM links on the way, such as the resource embedder, have none of the symbols: no
# warnings.)
oflags=("${flags[@]}" -Xlinker "--call-graph-ordering-file=$(realpath "$order/callgraph.txt")" -Xlinker --no-warn-symbol-ordering)
swift build "${oflags[@]}" --product MathAloudBench >&2
swift build "${oflags[@]}" --product mathaloud >&2
echo "$bin"
