#!/usr/bin/env bash
# Compares MathAloud's box sizes with LuaLaTeX (unicode-math, Latin Modern Math, 10pt article): each
# formula of scripts/lualatex-formulas.txt is boxed with \sbox and its \wd, \ht, \dp are printed;
# MathAloud's `render --dump` gives the same three in em (1 em = 10 pt). Prints every formula, the
# worst five, and how many are within 3 % on all three. Installs texlive-luatex and
# texlive-latex-recommended (Debian) when lualatex is missing.
# Usage: scripts/compare-lualatex.sh [--tolerance 0.03] [--build release|debug]
set -euo pipefail
cd "$(dirname "$0")/.."
tolerance=0.03
config=debug
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tolerance) tolerance="$2"; shift 2 ;;
    --build) config="$2"; shift 2 ;;
    *) echo "usage: $0 [--tolerance 0.03] [--build release|debug]" >&2; exit 2 ;;
  esac
done
if ! command -v lualatex >/dev/null 2>&1 || ! kpsewhich unicode-math.sty >/dev/null 2>&1; then
  echo "compare-lualatex: installing texlive-luatex texlive-latex-recommended (Debian)"
  SUDO=(); [[ $(id -u) -eq 0 ]] || SUDO=(sudo)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends texlive-luatex texlive-latex-recommended fonts-lmodern
fi
swift build -c "$config" --product mathaloud >/dev/null
bin="$(swift build -c "$config" --show-bin-path)/mathaloud"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "$work" "$tolerance" scripts/lualatex-formulas.txt <<'PY'
import re, subprocess, sys
binary, work, tolerance, listing = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
cases = []
for line in open(listing, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    style, tex = line.rstrip("\n").split("\t", 1)
    cases.append((style == "d", tex))
doc = [r"\documentclass[10pt]{article}", r"\usepackage{amsmath}", r"\usepackage{xcolor}", r"\usepackage{unicode-math}",
       r"\setmathfont{Latin Modern Math}", r"\begin{document}"]
for i, (display, tex) in enumerate(cases):
    body = (r"\displaystyle " if display else "") + tex
    doc.append(r"\sbox0{$" + body + r"$}\typeout{MEASURE " + str(i) + r" \the\wd0\space\the\ht0\space\the\dp0}")
doc.append(r"\end{document}")
open(f"{work}/m.tex", "w", encoding="utf-8").write("\n".join(doc) + "\n")
run = subprocess.run(["lualatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=work, capture_output=True, text=True)
tex = {}
for m in re.finditer(r"MEASURE (\d+) ([-\d.]+)pt\s*([-\d.]+)pt\s*([-\d.]+)pt", run.stdout):
    tex[int(m.group(1))] = tuple(float(m.group(k)) for k in (2, 3, 4))
if len(tex) != len(cases):
    sys.stderr.write(run.stdout[-3000:])
    sys.exit(f"compare-lualatex: LuaLaTeX measured {len(tex)} of {len(cases)} formulas")
rows = []
for i, (display, source) in enumerate(cases):
    args = [binary, "render", source, "--dump"] + (["--display"] if display else [])
    out = subprocess.run(args, capture_output=True, text=True).stdout.splitlines()[0]
    w, h, d = (float(re.search(k + r"=(-?[\d.]+)", out).group(1)) * 10 for k in ("w", "h", "d"))
    tw, th, td = tex[i]
    def rel(a, b):
        # Relative to TeX's value; a depth of (almost) zero is compared against 0.1 pt.
        return abs(a - b) / max(abs(b), 0.1)
    errs = (rel(w, tw), rel(h, th), rel(d, td))
    rows.append((max(errs), i, source, display, (w, h, d), (tw, th, td), errs))
print(f"{'#':>2} {'style':7} {'MathAloud w/h/d (pt)':>24} {'LuaLaTeX w/h/d (pt)':>24}  {'worst':>6}  formula")
for worst, i, source, display, ours, theirs, errs in rows:
    o = "/".join(f"{v:.2f}" for v in ours)
    t = "/".join(f"{v:.2f}" for v in theirs)
    print(f"{i + 1:>2} {'display' if display else 'text':7} {o:>24} {t:>24}  {100 * worst:5.1f}%  {source}")
within = sum(1 for r in rows if r[0] <= tolerance)
print(f"\nwithin {100 * tolerance:.0f}% on width, height and depth: {within} of {len(rows)}")
print("worst five:")
for worst, i, source, display, ours, theirs, errs in sorted(rows, reverse=True)[:5]:
    which = ["width", "height", "depth"][errs.index(max(errs))]
    print(f"  {100 * worst:5.1f}% ({which})  {source}{' [display]' if display else ''}")
PY
