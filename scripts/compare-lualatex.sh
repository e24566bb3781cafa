#!/usr/bin/env bash
# Compares MathAloud's box sizes with LuaLaTeX (unicode-math, Latin Modern Math, 10pt article): each
# formula is boxed with \sbox and its \wd, \ht, \dp are written to the log; one `mathaloud render
# --batch` run gives the same three (each manifest line's box at 100 px per em; 1 em = 10 pt), as
# `render --dump` prints them (the image itself is larger where ink reaches past the box). A difference is relative to TeX's value (a
# dimension of almost zero is compared against 0.1 pt).
#
# Without --corpus: the reference list scripts/lualatex-formulas.txt ("t<TAB>TeX" or "d<TAB>TeX"),
# every formula printed. With --corpus FILE: one formula a line, all in text style (or all in display
# style with --display), optionally a random sample; only the summary and the worst cases are printed.
# Formulas with a cross-reference (\ref, \eqref, \cite: they print the document's labels, LuaLaTeX "??")
# are skipped and counted. Formulas LuaLaTeX itself rejects (an error on its line, a missing glyph, a box
# left open) are dropped and counted. Either way it prints the share within 1 % and within 3 % on width,
# height and depth, the median of each formula's largest difference, and the worst cases.
#
# Many formulas go into one LuaLaTeX run (one document, one \sbox0 and one \typeout a line); a run a
# formula breaks is split and run again, so one bad formula only costs its own measurement. Nothing is
# cached. Installs texlive-luatex and texlive-latex-recommended (Debian) when lualatex is missing.
#
# Usage: scripts/compare-lualatex.sh [--corpus FILE [--sample N] [--seed S] [--display]]
#                                    [--tolerance 0.03] [--worst 10] [--jobs 2] [--tsv FILE] [--build release|debug]
set -euo pipefail
cd "$(dirname "$0")/.."
tolerance=0.03
config=debug
corpus=""
sample=0
seed=1
display=0
worst=""
jobs=2
tsv=""
usage="usage: $0 [--corpus FILE [--sample N] [--seed S] [--display]] [--tolerance 0.03] [--worst N] [--jobs N] [--tsv FILE] [--build release|debug]"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tolerance) tolerance="$2"; shift 2 ;;
    --build) config="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --sample) sample="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --display) display=1; shift ;;
    --worst) worst="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --tsv) tsv="$2"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
if [[ -n "$corpus" && ! -f "$corpus" ]]; then echo "compare-lualatex: no such file: $corpus" >&2; exit 3; fi
if [[ -z "$corpus" && ( $display -eq 1 || $sample -ne 0 ) ]]; then echo "compare-lualatex: --display and --sample need --corpus" >&2; exit 2; fi
if ! command -v lualatex >/dev/null 2>&1 || ! kpsewhich unicode-math.sty >/dev/null 2>&1; then
  echo "compare-lualatex: installing texlive-luatex texlive-latex-recommended (Debian)"
  SUDO=(); [[ $(id -u) -eq 0 ]] || SUDO=(sudo)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends texlive-luatex texlive-latex-recommended fonts-lmodern
fi
if [[ $config == release ]]; then
  swift build -c release --static-swift-stdlib --product mathaloud >/dev/null
  bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/mathaloud"
else
  swift build -c "$config" --product mathaloud >/dev/null
  bin="$(swift build -c "$config" --show-bin-path)/mathaloud"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/compare_lualatex.py --binary "$bin" --work "$work" --tolerance "$tolerance" --jobs "$jobs" \
  ${corpus:+--corpus "$corpus"} --sample "$sample" --seed "$seed" ${worst:+--worst "$worst"} ${tsv:+--tsv "$tsv"} \
  $([[ $display -eq 1 ]] && echo --display) --listing scripts/lualatex-formulas.txt
