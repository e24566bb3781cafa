#!/usr/bin/env python3
"""Writes Sources/MathSyntax/UnicodeAlphabets.swift: every styled letter and digit of Unicode mapped to its
font (or enclosure) and its plain letter, digit or number, from the Unicode Character Database.

Usage: python3 scripts/generate-alphabets.py [OUTPUT]      (default Sources/MathSyntax/UnicodeAlphabets.swift)
       python3 scripts/generate-alphabets.py --check        (exit 1 when the committed file is out of date)

Where the data comes from (Python's `unicodedata`, i.e. UnicodeData.txt of the Unicode version printed
in the file's header):
- the base is the character's decomposition mapping, one step (`<font> 1D400` → `A`; `<circle> 0032
  0031` → `21`; `<compat> 0028 0061 0029` → `a` with the parentheses dropped; `<super>`, `<sub>`,
  `<square>`, `<wide>`). A character without a decomposition (NEGATIVE CIRCLED NUMBER ELEVEN,
  DINGBAT CIRCLED SANS-SERIF DIGIT ONE, SCRIPT CAPITAL P, TURNED CAPITAL F) takes its base from its
  name: the name of a base character in it (`LATIN CAPITAL LETTER A`, `DIGIT ONE`), `CAPITAL X` /
  `SMALL X`, or `NUMBER …` with the character's numeric value;
- the font is what the name says besides the base: `MATHEMATICAL SANS-SERIF BOLD ITALIC CAPITAL A` less
  the base's own name words is `SANS-SERIF BOLD ITALIC`; `DIGIT ONE FULL STOP` is `FULL STOP`. The tags
  `<super>`, `<sub>` and `<wide>` name the font themselves (superscript, subscript, fullwidth). The words
  are joined with hyphens in lower case; where MathML has a `mathvariant` for the same alphabet its
  name is used (`SANS-SERIF BOLD` → `bold-sans-serif`, the Letterlike `BLACK-LETTER` → `fraktur`), and
  `DINGBAT` and `MATHEMATICAL`, which say where a character is encoded, are dropped;
- the block's reserved code points (U+1D455 …) are filled by the Letterlike Symbols of the same letter
  and decomposition (Unicode Standard §22.2): PLANCK CONSTANT ℎ, whose name does not say its font, is
  the italic h because it fills the italic h's hole.
A character is kept only when its base is a Latin letter, a digit or number, a Greek letter (with the
symbol variants ϴ ϵ ϑ ϰ ϕ ϱ ϖ and digamma), dotless i/j, ∂, ∇ or ∑ — or a short run of Latin
capitals for the enclosed abbreviations (🄭 CIRCLED CD) — and when every font word is one of
STYLE_WORDS; the rest (ℹ INFORMATION SOURCE, ROMAN NUMERAL ONE, circled ideographs) are listed with
--report. A character is *canonical* when it is the one character of its (base, MathML mathvariant):
the block's own letters and the Letterlike letters that fill its holes, not ℓ (U+2113, the block has
𝓁) — the TeX and MathML front ends turn only canonical characters into a letter with a mathvariant.
"""
import sys
import unicodedata as ud

OUTPUT = "Sources/MathSyntax/UnicodeAlphabets.swift"

# The blocks scanned (everything else keeps its own words in Locales/<tag>/symbols.txt). Latin-1's
# ¹ ² ³ are left out: they are written for the exponents ("squared", "cubed"), not as super digits.
BLOCKS = [
    (0x02B0, 0x02FF),    # Spacing Modifier Letters: ʰ ʲ ʳ ʷ ʸ
    (0x1D2C, 0x1DBF),    # Phonetic Extensions: ᴬ ᵃ ᵢ …
    (0x2070, 0x209F),    # Superscripts and Subscripts
    (0x2100, 0x214F),    # Letterlike Symbols
    (0x2460, 0x24FF),    # Enclosed Alphanumerics
    (0x2776, 0x2793),    # Dingbats: circled digits
    (0x2C7C, 0x2C7D),    # Latin Extended-C: ⱼ ⱽ
    (0x3251, 0x325F),    # Enclosed CJK Letters and Months: circled numbers 21–35
    (0x32B1, 0x32BF),    # circled numbers 36–50
    (0xFF01, 0xFF5E),    # Halfwidth and Fullwidth Forms: the fullwidth ASCII
    (0x1D400, 0x1D7FF),  # Mathematical Alphanumeric Symbols
    (0x1F100, 0x1F1FF),  # Enclosed Alphanumeric Supplement
    (0x1FBF0, 0x1FBF9),  # Symbols for Legacy Computing: segmented digits
]

# Words of character names that name a font or an enclosure (all others disqualify a character).
STYLE_WORDS = {
    "BOLD", "ITALIC", "SCRIPT", "FRAKTUR", "BLACK-LETTER", "DOUBLE-STRUCK", "SANS-SERIF", "MONOSPACE",
    "CIRCLED", "NEGATIVE", "DOUBLE", "PARENTHESIZED", "FULL", "STOP", "COMMA", "SQUARED", "TURNED",
    "REVERSED", "SEGMENTED", "SQUARE", "TORTOISE", "SHELL", "BRACKETED", "REGIONAL", "INDICATOR", "SYMBOL",
}
# Words that only say where a character is encoded.
DROPPED_WORDS = {"MATHEMATICAL", "DINGBAT"}
# Fonts spelled as MathML spells the same alphabet.
MATHML_NAMES = {"sans-serif-bold": "bold-sans-serif", "black-letter": "fraktur", "square": "squared"}
MATHML_VARIANTS = {
    "bold", "italic", "bold-italic", "double-struck", "bold-fraktur", "script", "bold-script", "fraktur",
    "sans-serif", "bold-sans-serif", "sans-serif-italic", "sans-serif-bold-italic", "monospace",
}
TAG_FONTS = {"<super>": "superscript", "<sub>": "subscript", "<wide>": "fullwidth"}
# Words a name may have besides the base when the tag names the font (MODIFIER LETTER CAPITAL A).
TAG_WORDS = {"SUPERSCRIPT", "SUBSCRIPT", "MODIFIER", "FULLWIDTH"}

NUMBER_WORDS = {
    "ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN",
    "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN",
    "TWENTY", "THIRTY", "FORTY", "FIFTY",
}
BASE_SYMBOLS = {"∂", "∇", "∑", "ı", "ȷ", "ϴ", "ϵ", "ϑ", "ϰ", "ϕ", "ϱ", "ϖ", "Ϝ", "ϝ"}


def is_base_letter(ch):
    o = ord(ch)
    return (0x41 <= o <= 0x5A or 0x61 <= o <= 0x7A or 0x391 <= o <= 0x3A9 and o != 0x3A2
            or 0x3B1 <= o <= 0x3C9 or ch in BASE_SYMBOLS)


def plain_name_table():
    """Name → character for every possible base (LATIN CAPITAL LETTER A → A, DIGIT ONE → 1)."""
    table = {}
    for o in list(range(0x30, 0x3A)) + list(range(0x41, 0x5B)) + list(range(0x61, 0x7B)) + \
            list(range(0x391, 0x3AA)) + list(range(0x3B1, 0x3CA)):
        name = ud.name(chr(o), None)
        if name:
            table[name] = chr(o)
    for ch in BASE_SYMBOLS:
        table[ud.name(ch)] = ch
    return table


PLAIN = plain_name_table()


def base_from_decomposition(ch):
    """(tag, base) from the one-step decomposition, or None."""
    d = ud.decomposition(ch)
    if not d.startswith("<"):
        return None
    parts = d.split()
    tag, text = parts[0], "".join(chr(int(x, 16)) for x in parts[1:])
    if tag not in ("<font>", "<circle>", "<compat>", "<square>", "<super>", "<sub>", "<wide>"):
        return None
    if tag == "<wide>":
        return tag, text          # fullwidth punctuation keeps its ASCII base
    core = "".join(c for c in text if c.isdigit() or is_base_letter(c))
    rest = "".join(c for c in text if c not in core)
    # Enclosing punctuation may go: (a) 1. 0, 〔S〕; anything else disqualifies.
    if not core or any(c not in "().,〔〕" for c in rest):
        return None
    if not (core.isdigit() or len(core) == 1 or core.isascii() and core.isalpha() and core.isupper()):
        return None
    return tag, core


def base_from_name(name, ch):
    """The base a name spells, and the name's words that are not the base."""
    words = name.split()
    for i in range(len(words)):
        for j in range(len(words), i, -1):
            phrase = " ".join(words[i:j])
            if phrase in PLAIN:
                return PLAIN[phrase], words[:i] + words[j:]
    for i, w in enumerate(words):
        if w in ("CAPITAL", "SMALL") and i + 1 < len(words) and len(words[i + 1]) == 1:
            letter = words[i + 1]
            return (letter if w == "CAPITAL" else letter.lower()), words[:i] + words[i + 2:]
        if w == "LETTER" and i + 1 < len(words) and len(words[i + 1]) == 1:   # REGIONAL INDICATOR SYMBOL LETTER A
            return words[i + 1], words[:i] + words[i + 2:]
        if w in ("NUMBER", "DIGIT"):
            j = i + 1
            while j < len(words) and words[j] in NUMBER_WORDS:
                j += 1
            value = ud.numeric(ch, None)
            if j > i + 1 and value is not None and value == int(value):
                return str(int(value)), words[:i] + words[j:]
    return None, words


def font_of(words, base, tag):
    """The font key from the name's words that are not the base (None when a word is not a style word)."""
    base_words = set()
    for c in base:
        base_words |= set(ud.name(c, "").split())
    if base.isdigit():
        base_words |= {"DIGIT", "NUMBER"} | NUMBER_WORDS
    if len(base) > 1:
        base_words.add(base)        # CIRCLED CD
    words = [w for w in words if w not in DROPPED_WORDS and w not in base_words
             and w not in ("LATIN", "GREEK", "CAPITAL", "SMALL", "LETTER")]
    if tag in TAG_FONTS:
        # The tag names the font; the name must say nothing else (not TRADE MARK SIGN, RAISED MC SIGN).
        if any(w not in TAG_WORDS for w in words):
            return None
        return TAG_FONTS[tag]
    if not words or any(w not in STYLE_WORDS for w in words):
        return None
    key = "-".join(words).lower()
    return MATHML_NAMES.get(key, key)


def derive(ch):
    """(font, base) for one character, or (None, reason)."""
    name = ud.name(ch, None)
    if name is None:
        return None, "unassigned"
    decomposed = base_from_decomposition(ch)
    if decomposed:
        tag, base = decomposed
        name_words = name.split()
    else:
        if ud.decomposition(ch):
            return None, "decomposes to something else"
        tag = None
        base, name_words = base_from_name(name, ch)
        if base is None:
            return None, "no base in the name"
    font = font_of(name_words, base, tag)
    if font is None:
        return None, "name is not a font: " + name
    return font, base


def table():
    """Every styled character: code point → (font, base), with the block's holes filled."""
    entries, rejected = {}, []
    for lo, hi in BLOCKS:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            font, base = derive(ch)
            if font is None:
                if ud.name(ch, None):
                    rejected.append((cp, base))
                continue
            if ch == base:
                continue
            entries[cp] = (font, base)
    # Holes of the Mathematical Alphanumeric Symbols: a reserved code point between two letters of one
    # alphabet is that alphabet's letter in between; the Letterlike character decomposing to the same
    # letter fills it.
    for cp in range(0x1D401, 0x1D7FF):
        if ud.name(chr(cp), None) is not None:
            continue
        before, after = entries.get(cp - 1), entries.get(cp + 1)
        if not before or not after or before[0] != after[0]:
            continue
        letter = chr(ord(before[1]) + 1)
        if ord(after[1]) != ord(letter) + 1:
            continue
        fillers = [c for c in range(0x2100, 0x2150)
                   if base_from_decomposition(chr(c)) == ("<font>", letter)
                   and entries.get(c, (before[0],))[0] == before[0]]
        fillers = fillers or [c for c in range(0x2100, 0x2150) if base_from_decomposition(chr(c)) == ("<font>", letter)
                              and c not in entries]
        if len(fillers) != 1:
            sys.exit(f"U+{cp:04X}: no single Letterlike character fills this hole ({fillers})")
        entries[fillers[0]] = (before[0], letter)
        rejected = [r for r in rejected if r[0] != fillers[0]]
    # Canonical: the one character of a (base, mathvariant); the block's own first.
    canonical = {}
    for cp in sorted(entries, key=lambda c: (not 0x1D400 <= c <= 0x1D7FF, c)):
        font, base = entries[cp]
        # ∑ (⅀ DOUBLE-STRUCK N-ARY SUMMATION) is an operator, not a letter of an alphabet.
        if font in MATHML_VARIANTS and base != "∑" and (base, font) not in canonical:
            canonical[(base, font)] = cp
    return entries, set(canonical.values()), rejected


def swift_string(s):
    return '"' + "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else "\\u{%X}" % ord(c) for c in s) + '"'


def render():
    entries, canonical, _ = table()
    # An enclosed abbreviation is spelled (🄭 CIRCLED CD is "circled C D").
    entries = {cp: (f, " ".join(b) if len(b) > 1 and b.isalpha() else b) for cp, (f, b) in entries.items()}
    fonts = sorted({f for f, _ in entries.values()})
    multi = sorted({b for _, b in entries.values() if len(b) > 1})
    scalars, codes = [], []
    for cp in sorted(entries):
        font, base = entries[cp]
        value = ord(base) if len(base) == 1 else 0x200000 | multi.index(base)
        codes.append(value | fonts.index(font) << 22 | (1 << 31 if cp in canonical else 0))
        scalars.append(cp)

    def rows(values, width=8):
        return ",\n".join("        " + ", ".join(values[i:i + width]) for i in range(0, len(values), width))

    return f"""// Generated by scripts/generate-alphabets.py from the Unicode Character Database {ud.unidata_version}
// (decomposition mappings and character names); do not edit. See the script for how each character's
// font and base are derived, and UnicodeMath.swift for how the table is read.

extension UnicodeMath {{
    /// The fonts and enclosures, by number: MathML `mathvariant` names where MathML has the alphabet,
    /// else the character names' words in lower case, joined with hyphens.
    static let fontNames: [String] = [
{rows([swift_string(f) for f in fonts], 6)},
    ]

    /// Bases of more than one character (numbers above 9, enclosed abbreviations), by number.
    static let multipleBases: [String] = [
{rows([swift_string(b) for b in multi], 12)},
    ]

    /// The styled characters, in code point order ({len(scalars)} of them).
    static let styledScalars: [UInt32] = [
{rows(["0x%X" % s for s in scalars])},
    ]

    /// For each of ``styledScalars``: bits 0–20 the base scalar, or with bit 21 set the number of a
    /// ``multipleBases`` entry; bits 22–30 the number of the font in ``fontNames``; bit 31 set when the
    /// character is canonical (the one character of its base in its MathML alphabet).
    static let styledCodes: [UInt32] = [
{rows(["0x%08X" % c for c in codes])},
    ]
}}
"""


def main():
    args = sys.argv[1:]
    if "--report" in args:
        entries, canonical, rejected = table()
        for cp, reason in rejected:
            print(f"U+{cp:04X} {chr(cp)} {ud.name(chr(cp))}: {reason}")
        fonts = {}
        for cp, (f, b) in sorted(entries.items()):
            fonts.setdefault(f, []).append(chr(cp))
        for f, chars in sorted(fonts.items()):
            print(f"{f:32} {len(chars):4} {''.join(chars[:40])}")
        return
    text = render()
    if "--check" in args:
        with open(OUTPUT, encoding="utf-8") as f:
            current = f.read()
        made_from = current.split("\n", 1)[0].rsplit(" ", 1)[-1]
        if made_from != ud.unidata_version:
            print(f"{OUTPUT}: made from Unicode {made_from}, this Python has {ud.unidata_version}: not compared")
            return
        if current != text:
            sys.exit(f"{OUTPUT} is out of date: run python3 scripts/generate-alphabets.py")
        return
    path = args[0] if args else OUTPUT
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    import os
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
