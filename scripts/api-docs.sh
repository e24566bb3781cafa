#!/usr/bin/env bash
# Makes the API reference from the doc comments (`///`) of the public API:
#   docs/API.md                       one Markdown page: every public type, function and property of the
#                                     library products with its declaration and the first paragraph of
#                                     its doc comment (read on GitHub or any Markdown viewer)
#   .build/api-docs/MathAloud.doccarchive   with --docc: the DocC archive (`docc preview` or any static host
#                                     after `docc process-archive transform-for-static-hosting`)
# Both are made from the symbol graphs `swift package dump-symbol-graph` writes, with the toolchain's own
# `swift-symbolgraph-extract` and `docc`; nothing is fetched.
#
# Usage: scripts/api-docs.sh [--docc] [--check]     (--check: fail when docs/API.md is out of date)
set -euo pipefail
cd "$(dirname "$0")/.."
docc=0; check=0
for a in "$@"; do
  case $a in
    --docc) docc=1 ;;
    --check) check=1 ;;
    *) echo "usage: scripts/api-docs.sh [--docc] [--check]" >&2; exit 2 ;;
  esac
done
modules=(MathSyntax MathTeX MathMarkup MathSemantics MathSpeech MathAloud MathAloudDocuments MathAloudVoice MathAloudRender)

echo "api-docs: swift package dump-symbol-graph" >&2
swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members >&2
graphs=$(find .build -type d -name symbolgraph -path '*/debug/*' -o -type d -name symbolgraph -path '*-unknown-*' | head -1)
[[ -n $graphs ]] || { echo "api-docs: no symbol graphs found under .build" >&2; exit 1; }

out=docs/API.md
[[ $check == 1 ]] && out=$(mktemp)
python3 scripts/symbolgraph-to-markdown.py "$graphs" "${modules[@]}" > "$out"
if [[ $check == 1 ]]; then
  if ! diff -q docs/API.md "$out" >/dev/null; then echo "api-docs: docs/API.md is out of date (run scripts/api-docs.sh)" >&2; rm -f "$out"; exit 1; fi
  rm -f "$out"; echo "api-docs: docs/API.md is up to date" >&2
else
  echo "api-docs: wrote $out ($(wc -c < "$out") bytes)" >&2
fi

if [[ $docc == 1 ]]; then
  dest=.build/api-docs
  rm -rf "$dest" && mkdir -p "$dest/graphs"
  for m in "${modules[@]}"; do cp "$graphs/$m".symbols.json "$graphs/$m"@*.symbols.json "$dest/graphs/" 2>/dev/null || true; done
  docc convert --additional-symbol-graph-dir "$dest/graphs" --fallback-display-name MathAloud \
    --fallback-bundle-identifier org.mathaloud.MathAloud --output-path "$dest/MathAloud.doccarchive" >&2
  echo "api-docs: wrote $dest/MathAloud.doccarchive" >&2
fi
