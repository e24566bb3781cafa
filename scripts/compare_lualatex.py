#!/usr/bin/env python3
"""The measuring half of scripts/compare-lualatex.sh (run that script, which builds mathaloud and
installs LuaLaTeX first): boxes formulas in LuaLaTeX and in `mathaloud render --batch` and compares
width, height and depth."""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

PREAMBLE = [r"\documentclass[10pt]{article}", r"\usepackage{amsmath}", r"\usepackage{xcolor}",
            r"\usepackage{unicode-math}", r"\setmathfont{Latin Modern Math}",
            # amsmath's \boldsymbol (and bm's \bm) switch to a bold math version, which Latin Modern Math
            # lacks: LuaLaTeX would set them in the regular weight. unicode-math's bold italic alphabet is
            # what they mean here, and what MathAloud draws.
            # amsmath's \pmb ("poor man's bold", the argument overprinted) means the same; MathAloud draws it so.
            # The bold math version's digits are bold upright (cmbx under pdfLaTeX); \symbfit's are the
            # regular ones, so digits inside are set to the bold upright alphabet (U+1D7CE…).
            r"\def\bolddigits{" + "".join(f"\\Umathcode`{d}=0 \\symoperators \"{0x1D7CE + d:X} " for d in range(10)) + "}",
            r"\renewcommand{\boldsymbol}[1]{\symbfit{\bolddigits #1}}", r"\providecommand{\bm}{}",
            r"\renewcommand{\bm}[1]{\symbfit{\bolddigits #1}}", r"\renewcommand{\pmb}[1]{\symbfit{\bolddigits #1}}",
            # LaTeX's old switch \cal is \mathcal without an argument, calligraphic to the end of the group;
            # unicode-math's \mathcal needs one, so \cal would do nothing: it is unicode-math's own switch.
            r"\ExplSyntaxOn",
            r"\cs_set_protected:Npn \cal { \tl_set:Nn \l__um_mathstyle_tl {cal} \__um_switch_to:n {cal} \__um_mathgroup_set:n {-1} }",
            r"\ExplSyntaxOff",
            # A character the font lacks is logged ("Missing character"): the formula is rejected.
            r"\tracinglostchars=1", r"\begin{document}", r"\typeout{LEVEL \the\currentgrouplevel}"]
# Cross-references print what the document defines (LuaLaTeX "??" for a label it does not know,
# MathAloud the label): a formula with one measures the document, not the typesetting. Skipped, counted.
CROSS_REFERENCE = re.compile(r"\\(eqref|ref|pageref|autoref|cref|Cref|cite)(?![A-Za-z])")
# Formulas a LuaLaTeX run takes; a run a formula breaks is split and run again.
CHUNK = 400
# Seconds one LuaLaTeX run may take (a formula that loops is split off and dropped).
TIMEOUT = 600


def braces_balance(tex):
    """Whether the braces of a formula pair up (`\\{` and `\\}` are not braces; `%` starts a comment)."""
    depth, i = 0, 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            i += 2
            continue
        if c == "%":
            break
        depth += (c == "{") - (c == "}")
        if depth < 0:
            return False
        i += 1
    return depth == 0


def lualatex_measure(cases, work, jobs):
    """(width, height, depth) in pt for each case LuaLaTeX sets without an error; the rest are left out.

    Each formula is one line `\\sbox0{$…$}\\typeout{MEASURE i …}`: an error reported on that line (with
    -file-line-error) after a clean formula rejects it; a missing measurement, a group left open, or an
    error after another formula broke the run sends the formula to a smaller run, down to one formula.
    """
    results, rejected = {}, set()
    counter = [0]

    def run(indices):
        counter[0] += 1
        folder = os.path.join(work, f"run{counter[0]}")
        os.makedirs(folder, exist_ok=True)
        lines = list(PREAMBLE)
        first_line = len(lines) + 1
        for i in indices:
            display, tex = cases[i]
            # Display style is a display equation's: amsmath's \everydisplay sets \if@display, which
            # \pmod and \mod read (18 mu before "mod" in a display, 8 or 12 mu inline).
            body = (r"\csname @displaytrue\endcsname\displaystyle " if display else "") + tex
            lines.append(r"\sbox0{$" + body + r"$}\typeout{MEASURE " + str(i) +
                         r" \the\wd0\space\the\ht0\space\the\dp0\space\the\currentgrouplevel}")
        lines.append(r"\end{document}")
        with open(os.path.join(folder, "m.tex"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        env = dict(os.environ, max_print_line="100000", error_line="254", half_error_line="238")
        try:
            subprocess.run(["lualatex", "-interaction=nonstopmode", "-file-line-error", "m.tex"], cwd=folder,
                           capture_output=True, timeout=TIMEOUT, env=env)
        except subprocess.TimeoutExpired:
            pass
        try:
            log = open(os.path.join(folder, "m.log"), encoding="utf-8", errors="replace").read()
        except OSError:
            log = ""
        level = re.search(r"^LEVEL (\d+)", log, re.M)
        base = level.group(1) if level else None
        measured = {}
        for m in re.finditer(r"^MEASURE (\d+) ([-\d.]+)pt\s*([-\d.]+)pt\s*([-\d.]+)pt\s*(\d+)", log, re.M):
            measured[int(m.group(1))] = (tuple(float(m.group(k)) for k in (2, 3, 4)), m.group(5) == base)
        bad_lines = {int(m.group(1)) for m in re.finditer(r"^\./m\.tex:(\d+): ", log, re.M)}
        # A missing character is logged while its formula is set, so before that formula's MEASURE line.
        lost = set()
        for m in re.finditer(r"^(Missing character: |MEASURE (\d+) )", log, re.M):
            if m.group(2) is None:
                lost.add("next")
            elif "next" in lost:
                lost.discard("next")
                lost.add(int(m.group(2)))
        clean, retry = [], []
        previous_clean = True
        for k, i in enumerate(indices):
            line = first_line + k
            got = measured.get(i)
            if i in lost and got and got[1] and line not in bad_lines:
                rejected.add(i)          # set without error, but with a character the font lacks
                previous_clean = True
                continue
            if got and got[1] and line not in bad_lines:
                clean.append(i)
                results[i] = got[0]
                previous_clean = True
                continue
            if line in bad_lines and previous_clean:
                rejected.add(i)          # its own error: LuaLaTeX rejects it
            else:
                retry.append(i)          # broken by an earlier formula, or no measurement: try again
            previous_clean = False
        return retry

    def settle(indices):
        pending = [indices]
        while pending:
            part = pending.pop()
            if not part:
                continue
            retry = run(part)
            if not retry:
                continue
            if len(part) == 1:
                rejected.update(retry)
            elif len(retry) < len(part):
                pending.append(retry)
            else:
                half = len(part) // 2
                pending.extend([part[:half], part[half:]])

    # A formula whose braces do not balance would take the rest of its run with it: it runs alone.
    balanced = [i for i in range(len(cases)) if braces_balance(cases[i][1])]
    alone = [[i] for i in range(len(cases)) if not braces_balance(cases[i][1])]
    chunks = [balanced[k:k + CHUNK] for k in range(0, len(balanced), CHUNK)] + alone
    # The first run alone builds LuaLaTeX's font cache; the others then share it.
    if chunks:
        settle(chunks[0])
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(settle, chunks[1:]))
    return results, rejected


def mathaloud_measure(binary, work, items):
    """{index: (width, height, depth) in pt} for [(index, display, tex)], from one `mathaloud render
    --batch` run: its manifest gives each formula's box in px at --size 100 (so to 0.001 pt). (A binary
    whose manifest has no box: the image's width, height and baseline less the padding, which a formula
    with no math at all gives; wrong where the image holds ink past the box.)"""
    size = 100.0
    lines = [json.dumps({"id": "padding", "tex": ""})]
    lines += [json.dumps({"id": i, "tex": tex, "display": display}) for i, display, tex in items]
    folder = os.path.join(work, "mathaloud")
    run = subprocess.run([binary, "render", "--batch", folder, "--size", str(size)], input="\n".join(lines) + "\n",
                         capture_output=True, text=True)
    found, boxes = {}, {}
    for line in run.stdout.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if "box" in row:
            box = row["box"]
            boxes[row["id"]] = (box["width"] / size, box["height"] / size, box["depth"] / size)
        if "width" in row:
            found[row["id"]] = (row["width"] / size, row["height"] / size, row["baseline"] / size)
    if "padding" not in found:
        sys.stderr.write(run.stderr[-3000:])
        sys.exit("compare-lualatex: mathaloud render --batch gave no manifest")
    pad = found["padding"][0] / 2
    result = {}
    for i, _, _ in items:
        if i in boxes:
            # The manifest's box: the image is larger where ink reaches past it (a slanted V at the end).
            result[i] = tuple(10 * v for v in boxes[i])
        elif i in found:
            w, h, b = found[i]
            depth = b - pad
            result[i] = tuple(10 * v for v in (w - 2 * pad, h - 2 * pad - depth, depth))
    return result


def relative(ours, theirs):
    # Relative to TeX's value; a dimension of (almost) zero is compared against 0.1 pt.
    return abs(ours - theirs) / max(abs(theirs), 0.1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--listing", required=True)
    p.add_argument("--corpus")
    p.add_argument("--sample", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--display", action="store_true")
    p.add_argument("--tolerance", type=float, default=0.03)
    p.add_argument("--worst", type=int)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--tsv")
    a = p.parse_args()

    cases = []
    if a.corpus:
        with open(a.corpus, encoding="utf-8") as f:
            formulas = [line.rstrip("\n") for line in f if line.strip()]
        total = len(formulas)
        if a.sample and a.sample < len(formulas):
            formulas = random.Random(a.seed).sample(formulas, a.sample)
        skipped = [tex for tex in formulas if CROSS_REFERENCE.search(tex)]
        cases = [(a.display, tex) for tex in formulas if not CROSS_REFERENCE.search(tex)]
    else:
        skipped, total = [], 0
        with open(a.listing, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                style, tex = line.rstrip("\n").split("\t", 1)
                cases.append((style == "d", tex))
    worst_count = a.worst if a.worst is not None else (5 if not a.corpus else 10)

    tex, rejected = lualatex_measure(cases, a.work, a.jobs)
    if not a.corpus and rejected:
        for i in sorted(rejected):
            sys.stderr.write(f"compare-lualatex: LuaLaTeX rejects reference formula {i + 1}: {cases[i][1]}\n")
        sys.exit("compare-lualatex: every formula of the reference list must be valid LaTeX")
    measured = sorted(tex)
    boxes = mathaloud_measure(a.binary, a.work, [(i, cases[i][0], cases[i][1]) for i in measured])
    ours = [boxes.get(i) for i in measured]

    rows = []
    for i, o in zip(measured, ours):
        t = tex[i]
        if o is None:
            o = (0.0, 0.0, 0.0)
        errs = tuple(relative(x, y) for x, y in zip(o, t))
        rows.append((max(errs), i, o, t, errs))
    if a.tsv:
        with open(a.tsv, "w", encoding="utf-8") as f:
            f.write("index\tstyle\tworst\tdimension\tours_w\tours_h\tours_d\ttex_w\ttex_h\ttex_d\tformula\n")
            for worst, i, o, t, errs in sorted(rows, reverse=True):
                which = ["width", "height", "depth"][errs.index(worst)]
                f.write(f"{i + 1}\t{'d' if cases[i][0] else 't'}\t{100 * worst:.3f}\t{which}\t" +
                        "\t".join(f"{v:.3f}" for v in o + t) + f"\t{cases[i][1]}\n")

    if not a.corpus:
        print(f"{'#':>3} {'style':7} {'MathAloud w/h/d (pt)':>24} {'LuaLaTeX w/h/d (pt)':>24}  {'worst':>6}  formula")
        for worst, i, o, t, errs in rows:
            print(f"{i + 1:>3} {'display' if cases[i][0] else 'text':7} {'/'.join(f'{v:.2f}' for v in o):>24} "
                  f"{'/'.join(f'{v:.2f}' for v in t):>24}  {100 * worst:5.1f}%  {cases[i][1]}")
        print()
    n = len(rows)
    source = a.corpus or a.listing
    style = ("display" if a.display else "text") + " style" if a.corpus else "text and display style as listed"
    sampled = f", a sample of {a.sample} (seed {a.seed})" if a.corpus and 0 < a.sample < total else ""
    crossrefs = (f"{len(skipped)} skipped (cross-references: \\ref, \\eqref, \\cite print the document's labels), "
                 if skipped else "")
    print(f"{source}{sampled}, {style}: {len(cases) + len(skipped)} formulas, {crossrefs}"
          f"{len(rejected)} rejected by LuaLaTeX, {n} compared")
    if n == 0:
        return
    shares = [0.01, 0.03] + ([a.tolerance] if a.tolerance not in (0.01, 0.03) else [])
    for tol in shares:
        within = sum(1 for r in rows if r[0] <= tol)
        print(f"within {100 * tol:g} % on width, height and depth: {within} of {n} ({100 * within / n:.2f} %)")
    for k, name in enumerate(("width", "height", "depth")):
        within = sum(1 for r in rows if r[4][k] <= 0.01)
        print(f"  {name} within 1 %: {within} of {n} ({100 * within / n:.2f} %)")
    print(f"median of each formula's largest difference: {100 * statistics.median(r[0] for r in rows):.3f} %")
    print(f"worst {min(worst_count, n)}:")
    for worst, i, o, t, errs in sorted(rows, reverse=True)[:worst_count]:
        which = ["width", "height", "depth"][errs.index(max(errs))]
        k = errs.index(max(errs))
        print(f"  {100 * worst:6.1f}% ({which} {o[k]:.2f} / {t[k]:.2f} pt)  {cases[i][1]}"
              f"{' [display]' if cases[i][0] and not a.corpus else ''}")
    if a.corpus is None:
        within = sum(1 for r in rows if r[0] <= a.tolerance)
        if within < n:
            sys.exit(1)


if __name__ == "__main__":
    main()
