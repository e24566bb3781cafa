#!/usr/bin/env python3
"""Writes a Markdown API reference from Swift symbol graphs (scripts/api-docs.sh runs it).

Usage: symbolgraph-to-markdown.py GRAPH_DIR MODULE...   (Markdown on standard output)
Per module: its types (struct, class, enum, protocol, typealias) and free functions, each with its
declaration and the first paragraph of its doc comment, then its members (initialisers, methods,
properties, cases) the same way. Symbols without a doc comment are listed as "(no documentation)".
"""
import json, os, sys

KIND_ORDER = ["swift.protocol", "swift.struct", "swift.class", "swift.enum", "swift.typealias", "swift.func", "swift.var"]
MEMBER_ORDER = ["swift.enum.case", "swift.init", "swift.type.property", "swift.property", "swift.type.method", "swift.method",
                "swift.subscript", "swift.func.op", "swift.type.subscript", "swift.associatedtype"]

def declaration(symbol):
    return "".join(f["spelling"] for f in symbol.get("declarationFragments", [])).strip()

def summary(symbol):
    lines = [l["text"] for l in (symbol.get("docComment") or {}).get("lines", [])]
    para = []
    for l in lines:
        if not l.strip():
            if para: break
            continue
        if l.strip().startswith("```") or l.strip().startswith("- Parameter"): break
        para.append(l.strip())
    return " ".join(para)

def load(directory, module):
    symbols, relations = {}, []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".symbols.json"): continue
        base = name[: -len(".symbols.json")]
        if base != module and not base.startswith(module + "@"): continue
        with open(os.path.join(directory, name)) as f:
            graph = json.load(f)
        for s in graph.get("symbols", []):
            symbols[s["identifier"]["precise"]] = s
        relations += graph.get("relationships", [])
    return symbols, relations

def main():
    directory, modules = sys.argv[1], sys.argv[2:]
    out = ["# MathAloud API reference", "",
           "Made from the doc comments by `scripts/api-docs.sh` (do not edit). One section per module of the",
           "library products; in each, the public types with their members.", ""]
    out.append("Modules: " + ", ".join(f"[{m}](#{m.lower()})" for m in modules))
    out.append("")
    for module in modules:
        symbols, relations = load(directory, module)
        if not symbols: continue
        members = {}
        for r in relations:
            if r["kind"] == "memberOf" and r["source"] in symbols:
                members.setdefault(r["target"], []).append(r["source"])
        member_ids = {m for ms in members.values() for m in ms}
        top = [s for k, s in symbols.items() if k not in member_ids and s["kind"]["identifier"] in KIND_ORDER]
        # Extensions of types from other modules: their members grouped under the extended type's name.
        foreign = {}
        for target, ms in members.items():
            if target not in symbols:
                for m in ms:
                    path = symbols[m]["pathComponents"]
                    foreign.setdefault(".".join(path[:-1]), []).append(m)
        out += [f"## {module}", ""]
        def key(s):
            kind = s["kind"]["identifier"]
            return (KIND_ORDER.index(kind) if kind in KIND_ORDER else 99, ".".join(s["pathComponents"]))
        def write_members(ids, depth):
            ms = sorted((symbols[i] for i in ids), key=lambda s: (MEMBER_ORDER.index(s["kind"]["identifier"]) if s["kind"]["identifier"] in MEMBER_ORDER else 99, declaration(s)))
            for m in ms:
                text = summary(m) or "(no documentation)"
                out.append(f"{'  ' * depth}- `{declaration(m)}` — {text}")
                nested = members.get(m["identifier"]["precise"], [])
                if nested and m["kind"]["identifier"] in KIND_ORDER: write_members(nested, depth + 1)
        for s in sorted(top, key=key):
            name = ".".join(s["pathComponents"])
            out += [f"### {name}", "", "```swift", declaration(s), "```", "", summary(s) or "(no documentation)", ""]
            ids = members.get(s["identifier"]["precise"], [])
            # Nested types are listed with their members.
            if ids:
                write_members(ids, 0)
                out.append("")
        for name in sorted(foreign):
            out += [f"### extension {name}", ""]
            write_members(foreign[name], 0)
            out.append("")
    print("\n".join(out))

main()
