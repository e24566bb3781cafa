#!/usr/bin/env python3
"""A rough cycle estimate from a callgrind profile made with --cache-sim=yes --branch-sim=yes.

Usage: scripts/callgrind-cycles.py PROFILE [N]

Prints the whole profile's estimate and the N functions (default 40) that cost most by it, with their
instructions, L1 instruction misses, L1 data misses, last-level misses and mispredicted branches side
by side. The estimate weighs each event as a core of this class roughly pays for it: 1 per instruction,
10 per L1 miss (instruction, data read or data write), 100 per last-level miss, 15 per mispredicted
conditional or indirect branch. The weights are not a model of one CPU; they are why the wall time of
`speak(tex:)` is 1.36× `dbe6c18`'s when its instructions are 1.15× (BENCHMARKS.md, session 39): the
estimate of the two profiles comes to 1.35×. Callgrind's simulated branch predictor depends on where
code lies, so a change's mispredicts are read in the functions it touched, not in the total.
"""
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    out = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", sys.argv[1]],
                         capture_output=True, text=True, check=True).stdout
    events = None
    rows, total = [], None
    for line in out.splitlines():
        if line.startswith("Events shown:"):
            events = line.split(":", 1)[1].split()
            continue
        tokens = line.split()
        if not events or not tokens or "=>" in tokens or not (tokens[0][0].isdigit() or tokens[0] == "."):
            continue
        values, i = [], 0
        while i < len(tokens) and len(values) < len(events):
            t = tokens[i]
            if t == ".":
                values.append(0)
                i += 1
            elif re.fullmatch(r"[0-9,]+", t):
                values.append(int(t.replace(",", "")))
                i += 1
                while i < len(tokens) and (tokens[i].startswith("(") or tokens[i].endswith("%)")):
                    i += 1
            else:
                break
        if len(values) < len(events):
            continue
        e = dict(zip(events, values))
        misses1 = e.get("I1mr", 0) + e.get("D1mr", 0) + e.get("D1mw", 0)
        missesLL = e.get("ILmr", 0) + e.get("DLmr", 0) + e.get("DLmw", 0)
        mispredicts = e.get("Bcm", 0) + e.get("Bim", 0)
        cycles = e.get("Ir", 0) + 10 * misses1 + 100 * missesLL + 15 * mispredicts
        name = re.sub(r"\[.*?\]", "", " ".join(tokens[i:])).strip()
        row = (cycles, e.get("Ir", 0), e.get("I1mr", 0), e.get("D1mr", 0) + e.get("D1mw", 0), missesLL, mispredicts, name)
        if "PROGRAM TOTALS" in name:
            total = row
        else:
            rows.append(row)
    if events is None or not {"Ir", "I1mr", "D1mr", "Bcm"} <= set(events):
        print("callgrind-cycles: the profile needs --cache-sim=yes --branch-sim=yes", file=sys.stderr)
        return 1
    if total:
        print(f"estimated cycles {total[0] / 1e6:.1f} M, instructions {total[1] / 1e6:.1f} M, "
              f"L1 misses {(total[2] + total[3]) / 1e6:.2f} M, last-level {total[4] / 1e3:.0f} k, "
              f"mispredicts {total[5] / 1e6:.2f} M")
    print(f"{'cycles M':>9} {'Ir M':>8} {'I1mr k':>7} {'D1m k':>7} {'LLm k':>7} {'Bm k':>7}  function")
    for r in sorted(rows, reverse=True)[:n]:
        name = r[6].split(":", 1)[-1]
        print(f"{r[0] / 1e6:9.2f} {r[1] / 1e6:8.2f} {r[2] / 1e3:7.0f} {r[3] / 1e3:7.0f} {r[4] / 1e3:7.1f} {r[5] / 1e3:7.0f}  {name[-110:]}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)
