#!/usr/bin/env python3
"""Copies the reference suites (development half, ../shared/corpus/reference) into test fixtures.

Tests must not read ../shared at run time, so the suites are copied, compactly: every distinct MathML
input once (Tests/MathAloudTests/Fixtures/reference-inputs.jsonl, its line number is the input's
number), and per corpus one line per case naming its input by number, with the case's id, locale,
style, preferences, expected speech and category (Fixtures/reference/<corpus>.jsonl).

Every corpus of the folder is copied (every locale and style); the corpora that have no floor in
Fixtures/reference-floors.tsv are listed at the end (ReferenceScoreTests requires a floor for each
corpus of a shipped locale and style).

Run from the repository root: python3 scripts/refresh-reference-fixtures.py [../shared/corpus/reference]
"""
import glob
import json
import os
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join("..", "shared", "corpus", "reference")
fixtures = os.path.join("Tests", "MathAloudTests", "Fixtures")
os.makedirs(os.path.join(fixtures, "reference"), exist_ok=True)
inputs: list[str] = []
number: dict[str, int] = {}
corpora = sorted(glob.glob(os.path.join(src, "*.jsonl")))
written: list[str] = []
for path in corpora:
    cases = []
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        m = r["mathml"]
        if m not in number:
            number[m] = len(inputs)
            inputs.append(m)
        cases.append({"id": r["id"], "input": number[m], "locale": r["locale"], "style": r["style"],
                      "preferences": r.get("preferences") or {}, "expected": r["expected"],
                      "category": r.get("category", "")})
    if not cases:
        continue
    name = os.path.basename(path)
    written.append(name[:-6])
    with open(os.path.join(fixtures, "reference", name), "w", encoding="utf-8") as out:
        for c in cases:
            out.write(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n")
with open(os.path.join(fixtures, "reference-inputs.jsonl"), "w", encoding="utf-8") as out:
    for m in inputs:
        out.write(json.dumps({"mathml": m}, ensure_ascii=False) + "\n")
print(f"{len(inputs)} inputs, {len(corpora)} corpora")
# Corpora without a floor: ReferenceScoreTests requires one for every corpus of a shipped locale and style.
floors = set()
with open(os.path.join(fixtures, "reference-floors.tsv"), encoding="utf-8") as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            floors.add(line.split("\t")[0])
unfloored = [name for name in written if name not in floors]
if unfloored:
    print("without a floor in reference-floors.tsv (needed once the locale and style ship):", ", ".join(unfloored))
