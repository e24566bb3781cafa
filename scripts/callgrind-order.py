#!/usr/bin/env python3
"""Link-time order files from a callgrind training run (scripts/build-release.sh --ordered).

Usage: scripts/callgrind-order.py BINARY SYMBOLS_OUT CALLGRAPH_OUT PROFILE...

Reads callgrind profiles (`valgrind --tool=callgrind --demangle=no`) of BINARY, adds them up and writes:
- SYMBOLS_OUT, for ld.lld's --symbol-ordering-file: the functions of BINARY the run executed, one mangled
  name a line, hottest (most instructions of their own) first;
- CALLGRAPH_OUT, for ld.lld's --call-graph-ordering-file: "caller callee calls" a line, the calls
  the run made between functions of BINARY.
Functions of other objects (libc, libm) are left out; callgrind's names are the symbols' (mangled) names.
"""
import collections
import re
import sys

NAMED = re.compile(r"^\((\d+)\)(?: (.*))?$")
RECURSION = re.compile(r"'\d+$")


def main() -> int:
    if len(sys.argv) < 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary, symbols_out, callgraph_out = sys.argv[1:4]

    own = collections.Counter()          # function -> instructions of its own
    object_of = {}                       # function -> object file
    calls = collections.Counter()        # (caller, callee) -> calls
    for profile in sys.argv[4:]:
        read(profile, own, object_of, calls)

    def mine(name: str) -> bool:
        # a demangled C++ name (a run without --demangle=no) is no symbol's name
        return object_of.get(name) == binary and not name.startswith("0x") and " " not in name and "(" not in name

    ordered = [name for name, n in own.most_common() if n > 0 and mine(name)]
    with open(symbols_out, "w") as out:
        for name in ordered:
            out.write(name + "\n")
    with open(callgraph_out, "w") as out:
        for (a, b), n in calls.most_common():
            if mine(a) and mine(b):
                out.write(f"{a} {b} {n}\n")
    print(f"{len(ordered)} functions, {sum(own[n] for n in ordered)} of {sum(own.values())} instructions "
          f"in {binary}", file=sys.stderr)
    return 0


def read(profile, own, object_of, calls) -> None:
    """Adds one profile's own instructions and calls (its names are numbered in the file)."""
    names = {"ob": {}, "fn": {}}

    def resolve(kind: str, value: str) -> str:
        m = NAMED.match(value)
        if not m:
            return value
        if m.group(2) is not None:
            # callgrind marks a recursion's levels name'2, name'3: one symbol
            names[kind][m.group(1)] = RECURSION.sub("", m.group(2)) if kind == "fn" else m.group(2)
        return names[kind].get(m.group(1), "")

    ob = fn = cob = cfn = None
    after_calls = False
    with open(profile, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line[0] == "#":
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                if after_calls:          # the inclusive cost of a call, not the caller's own
                    after_calls = False
                    continue
                parts = line.split()
                if fn is not None and len(parts) > 1:
                    own[fn] += int(parts[1])
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                ob = resolve("ob", value)
            elif key == "fn":
                fn = resolve("fn", value)
                object_of.setdefault(fn, ob)
                cob = None
            elif key == "cob":
                cob = resolve("ob", value)
            elif key == "cfn":
                cfn = resolve("fn", value)
                object_of.setdefault(cfn, cob if cob is not None else ob)
            elif key == "calls":
                count = int(value.split()[0])
                if fn is not None and cfn is not None and fn != cfn:
                    calls[(fn, cfn)] += count
                after_calls = True
                cob = None


if __name__ == "__main__":
    sys.exit(main())
