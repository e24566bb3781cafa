#!/usr/bin/env python3
"""Symbol names for a locale from the Unicode CLDR annotations (Debian package unicode-cldr-core).

    python3 scripts/cldr-symbols.py TAG [--cldr DIR] [--all]

Prints, in the format of Locales/<TAG>/symbols.txt, the CLDR text-to-speech name of every character
that Locales/en/symbols.txt has and Locales/<TAG>/symbols.txt lacks (with --all: every one, present or
not), each with a trailing comment naming its source. CLDR's names are names ("Pluszeichen"), not the
words said in a formula ("plus"): use them for the characters rarely spoken, and write the words of the
common ones from the language's school conventions. Characters CLDR does not name are listed as
comments (`# TODO KEY  english words`), the to-do list of the locale author.
"""
import argparse
import signal
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cldr_names(cldr: str, tag: str) -> dict[str, str]:
    """tts annotations of a locale and its CLDR parents (zh-tw → zh_Hant, then zh)."""
    candidates = {"zh-tw": ["zh_Hant", "zh"], "zh-cn": ["zh"], "nb": ["nb", "no"], "nn": ["nn", "no"]}.get(
        tag.lower(), [tag.replace("-", "_"), tag.split("-")[0]])
    names: dict[str, str] = {}
    for code in reversed(candidates):
        for sub in ("annotations", "annotationsDerived"):
            path = os.path.join(cldr, "common", sub, code + ".xml")
            if not os.path.exists(path):
                continue
            for a in ET.parse(path).getroot().iter("annotation"):
                if a.get("type") == "tts" and a.text and a.text.strip() != "↑↑↑":
                    names[a.get("cp")] = a.text.strip()
    return names


def read_keys(path: str) -> list[tuple[str, str]]:
    """(key as written, words) of a symbols file, in file order."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.split(None, 1)
            out.append((parts[0], parts[1] if len(parts) > 1 else ""))
    return out


def unescape(key: str) -> str:
    if key in ("\\#", "\\|"):
        return key[1]
    if key.startswith("\\u{") and key.endswith("}"):
        try:
            return chr(int(key[3:-1], 16))
        except ValueError:
            return key
    return key


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tag")
    ap.add_argument("--cldr", default="/usr/share/unicode/cldr")
    ap.add_argument("--all", action="store_true", help="list every character, also those the locale has")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.cldr, "common", "annotations")):
        print(f"cldr-symbols: no CLDR annotations in {args.cldr} (apt-get install unicode-cldr-core)", file=sys.stderr)
        return 1
    names = cldr_names(args.cldr, args.tag)
    have = {unescape(k) for k, _ in read_keys(os.path.join(ROOT, "Locales", args.tag, "symbols.txt"))}
    print(f"# {args.tag}: symbol names from Unicode CLDR annotations (unicode-cldr-core, Unicode license)")
    for key, english in read_keys(os.path.join(ROOT, "Locales", "en", "symbols.txt")):
        char = unescape(key)
        if char in have and not args.all:
            continue
        if char in names:
            print(f"{key:<9} {names[char]}")
        else:
            print(f"# TODO {key:<9} {english}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
