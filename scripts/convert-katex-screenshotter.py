#!/usr/bin/env python3
"""Convert KaTeX's screenshot test cases (YAML) into the JSON fixture the MathTeX tests read.

Re-run from the package root after updating the YAML:

    python3 -m pip install pyyaml          # once, if `import yaml` fails
    python3 scripts/convert-katex-screenshotter.py \
        ../shared/corpus/katex-screenshotter.yaml \
        Tests/MathTeXTests/Fixtures/katex-screenshotter.json

(both arguments are optional; those paths are the defaults, the output path relative to the package root).

Input: a YAML map of case name -> either a TeX string, or an object with `tex` plus optional keys
(`display`, `macros`, `noThrow`, `errorColor`, `nolatex`, `pre`, `post`, `styles`, `mode`).
Source: KaTeX test/screenshotter/ss_data.yaml (MIT licence, (c) Khan Academy and contributors).

Output: a JSON array sorted by name; every case is kept. Each element has
  - "name":    the case name
  - "tex":     the TeX source (YAML block scalars keep their trailing newline, as KaTeX sees them)
  - "display": true for display mode (`display: 1`), else false
  - "macros":  {"\\name": "expansion"} when the case defines macros (only then)
  - "mode":    "text" only if the YAML marks the case as text mode (none does today)
  - "noThrow": true when the case deliberately contains unsupported commands (KaTeX renders them
               in errorColor instead of throwing), so a parser is expected to report errors
  - "nolatex": KaTeX's note on why real LaTeX would not accept the case (only when present)
The HTML-only keys `pre`, `post`, `styles` and `errorColor` only place the screenshot and are dropped.
The script fails loudly on an unknown key so new KaTeX keys get a decision instead of vanishing.
"""
import json
import os
import sys

try:
    import yaml
except ImportError:
    sys.exit("PyYAML is missing: run `python3 -m pip install pyyaml`")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_IN = os.path.join(os.path.dirname(ROOT), "shared/corpus/katex-screenshotter.yaml")
DEFAULT_OUT = os.path.join(ROOT, "Tests/MathTeXTests/Fixtures/katex-screenshotter.json")

DROPPED = {"pre", "post", "styles", "errorColor"}
KNOWN = {"tex", "display", "macros", "noThrow", "nolatex", "mode"} | DROPPED


def truthy(value):
    return value not in (None, False, 0, "0", "false", "")


def convert(data):
    cases = []
    for name in sorted(data):
        value = data[name]
        if isinstance(value, str):
            value = {"tex": value}
        if not isinstance(value, dict) or not isinstance(value.get("tex"), str):
            sys.exit(f"case {name!r}: expected a string or an object with a string `tex`, got {value!r}")
        unknown = set(value) - KNOWN
        if unknown:
            sys.exit(f"case {name!r}: unknown keys {sorted(unknown)}; teach the converter about them")
        case = {"name": name, "tex": value["tex"], "display": truthy(value.get("display"))}
        if value.get("macros"):
            case["macros"] = {str(k): str(v) for k, v in value["macros"].items()}
        if value.get("mode") == "text":
            case["mode"] = "text"
        if truthy(value.get("noThrow")):
            case["noThrow"] = True
        if value.get("nolatex"):
            case["nolatex"] = str(value["nolatex"])
        cases.append(case)
    return cases


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_IN
    dst = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT
    with open(src, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        sys.exit(f"{src}: top level is not a map")
    cases = convert(data)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1)  # keys in insertion order: name first
        f.write("\n")
    display = sum(c["display"] for c in cases)
    text = sum(c.get("mode") == "text" for c in cases)
    print(f"wrote {dst}: {len(cases)} cases ({display} display, {len(cases) - display} inline, "
          f"{text} text-mode, {sum('macros' in c for c in cases)} with macros, "
          f"{sum(c.get('noThrow', False) for c in cases)} noThrow)")


if __name__ == "__main__":
    main()
