#!/usr/bin/env bash
# Checks that the working tree says exactly what another revision says: semantic trees (TeX and the
# same formulas read back from MathML), speech with items, diagnostics and --explain traces in six
# style settings, box trees with SVG and PNG hashes (render-dump), `speak --batch` JSON in three
# settings and `render --batch` SVG files, on the arXiv
# corpus, the KaTeX screenshot cases, the conformance inputs and deterministic random formulas
# (scripts/random-formulas.py). For changes meant to keep output (speed work, refactoring).
#
# Usage: scripts/check-equivalence.sh BASE_REV [RANDOM_COUNT]      (default 20000 random formulas)
#   BASE_EQUIV_REUSE=1   reuse the base build and dumps from the last run with the same BASE_REV
#   EQUIV_DIR=DIR        where the base worktree and the outputs go (default .build/equivalence; share one
#                        between worktrees to build the base once)
#
# The base revision is built in a git worktree under EQUIV_DIR (release) and its outputs go to
# EQUIV_DIR/base/; this tree's go to .build/equivalence-new/out/. Differences are listed per file.
# Exit status 0 when all agree.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
base_rev="${1:?usage: scripts/check-equivalence.sh BASE_REV [RANDOM_COUNT]}"
count="${2:-20000}"
work="${EQUIV_DIR:-$root/.build/equivalence}"     # the base: worktree, build, outputs
mine="$root/.build/equivalence-new"                   # this tree's inputs and outputs
mkdir -p "$work" "$mine"
base_sha="$(git rev-parse --verify "$base_rev^{commit}")"

# The inputs: one formula per line.
inputs="$mine/inputs.txt"
{
  cat Tests/MathTeXTests/Fixtures/arxiv-public.txt
  python3 - <<'EOF'
import json
for case in json.load(open("Tests/MathTeXTests/Fixtures/katex-screenshotter.json")):
    print(case["tex"].replace("\n", " "))
for f in ("Tests/MathAloudTests/Fixtures/en-clearspeak.jsonl", "Tests/MathAloudTests/Fixtures/en-mathspeak.jsonl"):
    for line in open(f):
        if line.strip():
            print(json.loads(line)["tex"].replace("\n", " "))
EOF
  python3 scripts/random-formulas.py "$count"
} | grep -av '^[[:space:]]*$' > "$inputs"
echo "check-equivalence: $(wc -l < "$inputs") formulas"

batch_json() {   # SETTINGS_JSON FORMULA_FILE → JSONL batch input on stdout ({"id": line index, "tex": …, settings})
  python3 -c '
import json, sys
prefs = json.loads(sys.argv[1])
for i, line in enumerate(open(sys.argv[2], encoding="utf-8")):
    line = line.rstrip("\n")
    entry = {"id": i, "tex": line}
    entry.update(prefs)
    print(json.dumps(entry))
' "$1" "$2"
}

# The MathAloudBench dump modes compared, each into MODE's file; a base that predates a mode
# (semantics-dump came after 688561d, render-dump later) skips that comparison.
dump_modes=(semantics-dump rules-dump render-dump)
dump_file() {   # MODE → its output file
  case "$1" in semantics-dump) echo semantics.txt ;; rules-dump) echo rules.txt ;; render-dump) echo render-dump.txt ;; esac
}
has_mode() {   # TREE MODE: whether that tree's MathAloudBench has the mode
  grep -q "\"$2\"" "$1/Sources/MathAloudBench/main.swift"
}

run_all() {   # BIN_DIR OUT_DIR TREE
  local bin="$1" out="$2" tree="$3"
  mkdir -p "$out"
  for mode in "${dump_modes[@]}"; do
    if has_mode "$tree" "$mode"; then
      "$bin/MathAloudBench" "$mode" --corpus "$inputs" > "$out/$(dump_file "$mode")"
    else
      echo "check-equivalence: $tree has no $mode; $(dump_file "$mode") is not compared" >&2
    fi
  done
  local n=0
  for settings in '{}' '{"style": "mathspeak", "preferences": {"Verbosity": "Brief"}}' \
                  '{"preferences": {"Fractions": "Over", "ImpliedTimes": "MoreImpliedTimes", "Paren": "Speak"}}'; do
    batch_json "$settings" "$inputs" | "$bin/mathaloud" speak --batch > "$out/batch-$n.jsonl" || true
    n=$((n + 1))
  done
  rm -rf "$out/render" && mkdir -p "$out/render"
  head -3000 "$inputs" > "$out/render-inputs.txt"
  batch_json '{}' "$out/render-inputs.txt" | "$bin/mathaloud" render --batch "$out/render" > "$out/render-stdout.txt" 2>&1 || true
}

build() {   # DIR → prints the bin dir
  (cd "$1" && swift build -c release --static-swift-stdlib --product MathAloudBench >&2 \
     && swift build -c release --static-swift-stdlib --product mathaloud >&2 \
     && swift build -c release --static-swift-stdlib --show-bin-path)
}

base_tree="$work/base-tree"
stamp="$base_sha $(md5sum < "$inputs" | cut -d' ' -f1)"
if [[ "${BASE_EQUIV_REUSE:-0}" == 1 && -f "$work/base/.sha" && "$(cat "$work/base/.sha")" == "$stamp" ]]; then
  echo "check-equivalence: reusing base outputs of $base_sha"
else
  if [[ -d "$base_tree" ]]; then
    git -C "$base_tree" checkout -q --detach "$base_sha"
  else
    git worktree add -q --detach "$base_tree" "$base_sha"
  fi
  echo "check-equivalence: building base $base_sha"
  base_bin="$(build "$base_tree")"
  rm -rf "$work/base"
  run_all "$base_bin" "$work/base" "$base_tree"
  echo "$stamp" > "$work/base/.sha"
fi
echo "check-equivalence: building the working tree"
new_bin="$(build "$root")"
rm -rf "$mine/out"
run_all "$new_bin" "$mine/out" "$root"

status=0
for f in semantics.txt rules.txt render-dump.txt batch-0.jsonl batch-1.jsonl batch-2.jsonl render-stdout.txt; do
  if [[ ! -f "$work/base/$f" ]]; then
    echo "skipped    $f (the base has no mode that writes it)"
    continue
  fi
  if cmp -s "$work/base/$f" "$mine/out/$f"; then
    echo "same       $f ($(wc -l < "$mine/out/$f") lines)"
  else
    echo "DIFFERENT  $f: diff $work/base/$f $mine/out/$f | head"
    diff "$work/base/$f" "$mine/out/$f" | head -20 || true
    status=1
  fi
done
if diff -rq "$work/base/render" "$mine/out/render" > /dev/null; then
  echo "same       render/ ($(ls "$mine/out/render" | wc -l) files)"
else
  echo "DIFFERENT  render/: diff -r $work/base/render $mine/out/render"
  status=1
fi
exit "$status"
