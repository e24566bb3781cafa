#!/usr/bin/env python3
"""Unit names for a locale from the Unicode CLDR unit display names (Debian package unicode-cldr-core).

    python3 scripts/cldr-units.py TAG [--cldr DIR] [--write]

Prints, in the format of Locales/<TAG>/units.txt, the CLDR long unit name of every unit symbol that
Locales/en/units.txt has and Locales/<TAG>/units.txt lacks; with --write, appends those lines to
Locales/<TAG>/units.txt under a dated comment header (existing lines are never changed). Units that
CLDR does not name, or names differently from the English entry, are printed as comments
(`# TODO KEY  english words`), the to-do list of the locale author; they are never written. The SI
prefixes the locale lacks are printed too (`# CLDR prefix: prefix.E  exa{unit}`, from CLDR's unit
prefix patterns), for the author to add beside the locale's own prefixes.

Which keys are looked at:
- only unit symbols: an English key counts when the engine takes it for a unit symbol
  (`UnitNames.isSymbol`, i.e. `UnitSymbols.writtenKey`: a symbol of the `prefixable`, `plain` or
  `abbreviations` tables of Sources/MathSemantics/UnitSymbols.swift, read from there, an SI prefix on
  a prefixable one, its square or cube, or a quotient of two). The English written-out names
  (`meter`, `liters`, `days`, `week`) and the templates `prefix.*`, `unit.*` are not symbols;
- a key the locale already speaks is skipped: one it has (exact key; µ and μ are one key, as the
  engine writes both as µ), or one the engine composes from the locale's own entries (an SI prefix
  `prefix.P` on a unit, `unit.²`/`unit.³` on a unit, `unit./` between units, `sec` as `s`);
- a key that is another way of writing a symbol the locale has (ALIASES: `ℓ` when it has `L`, `hr`
  when it has `h`, `kph` when it has `km/h`) takes the locale's own words, so one unit keeps one
  name; these lines are printed in a section of their own.

With --genders, prints instead the grammatical gender CLDR gives each unit the locale has an entry for
(`s  feminine`, from `<gender>` of the unit in CLDR), for the entries that name none, and CLDR's
square and cube patterns by gender (`# CLDR power2 feminine one: {0} carrée`), the forms the locale's
`unit.²`/`unit.³` templates take (`feminine:`, `feminine.plural:`, Locales/README.md); with --write,
adds ` | gender: G` to those entries in place (the other lines unchanged).

CLDR forms: the `long` unitLength of the locale's CLDR file, then its CLDR parents (`zh-cn` → zh,
`zh-tw` → zh_Hant, `nb`/`nn` → themselves, then `no`; never root, whose long names are the
symbols); the patterns without a grammatical case; `{0}` and the spaces around it (also U+00A0 and
U+202F) are removed. A pattern with words on both sides of the number (Japanese 時速 {0} キロメートル)
is not a name and is left out, and so is a name with an abbreviated word (Russian "амер. галлон"), a
digit or a slash (Vietnamese "dặm/giờ"), which a synthesizer reads as written. count="one" gives the main words and count="other" the `plural`; a
locale whose plural rules (`plural.CATEGORY` in locale.txt) have `few` (pl, ru) gets
`one: | few: | many: | plural:` as its units.txt writes them (`plural` is the `many` form, the
genitive plural); a locale without plural rules (ja, ko, vi, zh, id) gets the `other` form alone.
The `many` of French, Spanish, Italian and Portuguese (for millions: "un million de mètres") is not
written: their units.txt entries have none.
"""
import argparse
import datetime
import functools
import os
import re
import signal
import sys
import unicodedata
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# English unit key → CLDR unit type. A key is mapped only when the CLDR unit is the unit the English
# entry names; a key not listed here (or whose unit the locale's CLDR data lacks) is a TODO.
# Left out on purpose: B (bel, not byte), dr (the dram of mass; CLDR volume-dram is the fluid dram),
# Torr (not exactly a millimeter of mercury), u (CLDR names the same mass "dalton", not "atomic mass
# unit"), Wh (CLDR 41 has only the kilowatt hour), currencies (CLDR names them by country: "dollar des
# États-Unis"), and the units CLDR 41 lacks (Å, sr, T, F, C, S, Wb, H, Bq, Gy, Sv, kat, dB, Np, baud,
# erg, dyn, G, Mx, P, St, Ci, R, VA, var, mil, li, rd, ch, lea, cwt).
CLDR_UNITS = {
    # length
    "m": "length-meter", "km": "length-kilometer", "cm": "length-centimeter", "mm": "length-millimeter",
    "µm": "length-micrometer", "μm": "length-micrometer", "nm": "length-nanometer", "pm": "length-picometer",
    "in": "length-inch", "ft": "length-foot", "yd": "length-yard", "mi": "length-mile",
    "nmi": "length-nautical-mile", "ftm": "length-fathom", "fur": "length-furlong",
    "au": "length-astronomical-unit", "ly": "length-light-year", "ltyr": "length-light-year", "pc": "length-parsec",
    # area and volume
    "m²": "area-square-meter", "cm²": "area-square-centimeter", "km²": "area-square-kilometer",
    "ha": "area-hectare", "ac": "area-acre",
    "m³": "volume-cubic-meter", "cm³": "volume-cubic-centimeter",
    "L": "volume-liter", "l": "volume-liter", "ℓ": "volume-liter", "mL": "volume-milliliter", "ml": "volume-milliliter",
    "gal": "volume-gallon", "qt": "volume-quart", "pt": "volume-pint", "cup": "volume-cup",
    "tbsp": "volume-tablespoon", "tsp": "volume-teaspoon", "floz": "volume-fluid-ounce",
    # mass
    "g": "mass-gram", "kg": "mass-kilogram", "mg": "mass-milligram", "µg": "mass-microgram", "μg": "mass-microgram",
    "t": "mass-metric-ton", "lb": "mass-pound", "oz": "mass-ounce", "gr": "mass-grain", "ton": "mass-ton",
    "st": "mass-stone", "Da": "mass-dalton",
    # time
    "s": "duration-second", "sec": "duration-second", "ms": "duration-millisecond",
    "µs": "duration-microsecond", "μs": "duration-microsecond", "ns": "duration-nanosecond",
    "min": "duration-minute", "h": "duration-hour", "hr": "duration-hour", "d": "duration-day",
    "wk": "duration-week", "yr": "duration-year", "a": "duration-year",
    # speed and acceleration
    "m/s": "speed-meter-per-second", "km/h": "speed-kilometer-per-hour", "kph": "speed-kilometer-per-hour",
    "kmh": "speed-kilometer-per-hour", "mph": "speed-mile-per-hour", "m/s²": "acceleration-meter-per-square-second",
    # temperature and angle
    "K": "temperature-kelvin", "°C": "temperature-celsius", "℃": "temperature-celsius",
    "°F": "temperature-fahrenheit", "℉": "temperature-fahrenheit",
    "rad": "angle-radian", "°": "angle-degree", "deg": "angle-degree",
    "amin": "angle-arc-minute", "arcmin": "angle-arc-minute", "′": "angle-arc-minute",
    "asec": "angle-arc-second", "arcsec": "angle-arc-second", "″": "angle-arc-second",
    # mechanics, energy, pressure
    "N": "force-newton", "J": "energy-joule", "kJ": "energy-kilojoule", "cal": "energy-calorie",
    "kcal": "energy-kilocalorie", "eV": "energy-electronvolt", "kWh": "energy-kilowatt-hour",
    "W": "power-watt", "kW": "power-kilowatt",
    "Pa": "pressure-pascal", "kPa": "pressure-kilopascal", "atm": "pressure-atmosphere", "bar": "pressure-bar",
    "psi": "pressure-pound-force-per-square-inch", "mmHg": "pressure-millimeter-ofhg",
    # frequency and electricity
    "Hz": "frequency-hertz", "kHz": "frequency-kilohertz", "MHz": "frequency-megahertz", "GHz": "frequency-gigahertz",
    "V": "electric-volt", "A": "electric-ampere", "mA": "electric-milliampere", "Ω": "electric-ohm",
    # amount of substance, light, information
    "mol": "concentr-mole", "cd": "light-candela", "lm": "light-lumen", "lx": "light-lux",
    "bit": "digital-bit", "byte": "digital-byte",
}

# Symbols written for the same unit with the same English words: a locale lacking one says the words it
# has for another (its `L` for `ℓ`). Not `a` and `yr`: a locale may say the annum `a` as "annum".
ALIASES = [("L", "l", "ℓ"), ("mL", "ml"), ("°C", "℃"), ("°F", "℉"), ("°", "deg"), ("h", "hr"), ("s", "sec"),
           ("ly", "ltyr"), ("km/h", "kph", "kmh"), ("arcmin", "amin", "′"), ("arcsec", "asec", "″")]

# CLDR names left out in one locale, and why.
EXCLUDED = {
    ("hi", "gr"): "CLDR's डेढ़ रत्ती is \"one and a half ratti\", an approximation, not the grain",
}

# Locale tag → CLDR files, the locale's first (as scripts/cldr-symbols.py maps them). zh_Hant's CLDR
# parent is root, not zh: zh-tw takes no simplified characters from zh.
CLDR_CODES = {"zh-tw": ["zh_Hant"], "zh-cn": ["zh"], "nb": ["nb", "no"], "nn": ["nn", "no"]}

SPACES = " \u00a0\u202f\u2009"


def cldr_codes(tag: str) -> list[str]:
    return CLDR_CODES.get(tag.lower(), [tag.replace("-", "_"), tag.split("-")[0]])


@functools.lru_cache(maxsize=None)
def cldr_root(path: str) -> ET.Element:
    """A CLDR file's element tree, parsed once however many tables are read from it."""
    return ET.parse(path).getroot()


def long_unit_lengths(cldr: str, tag: str):
    """The `<unitLength type="long">` elements of a locale's CLDR files, its parents' first (so that the
    locale's own patterns, read last, win)."""
    for code in reversed(list(dict.fromkeys(cldr_codes(tag)))):
        path = os.path.join(cldr, "common", "main", code + ".xml")
        if os.path.exists(path):
            yield from (u for u in cldr_root(path).iter("unitLength") if u.get("type") == "long")


def long_units(cldr: str, tag: str, element: str):
    """The `element` elements (`unit`, `compoundUnit`) of the long unit lengths of a locale's CLDR files,
    its parents' first (``long_unit_lengths``): what every CLDR table here is read from."""
    for length in long_unit_lengths(cldr, tag):
        yield from length.iter(element)


def cldr_units(cldr: str, tag: str) -> dict[str, dict[str, str]]:
    """CLDR unit type → {count: pattern} of the long unit names of a locale and its CLDR parents."""
    units: dict[str, dict[str, str]] = {}
    for unit in long_units(cldr, tag, "unit"):
        for p in unit.findall("unitPattern"):
            if p.get("case") or p.get("draft") in ("unconfirmed", "provisional") or not p.text:
                continue
            units.setdefault(unit.get("type"), {})[p.get("count") or "other"] = p.text
    return units


def cldr_genders(cldr: str, tag: str) -> dict[str, str]:
    """CLDR unit type → the grammatical gender of the unit (`<gender>` in a long unit), for a locale and
    its CLDR parents."""
    genders: dict[str, str] = {}
    for unit in long_units(cldr, tag, "unit"):
        g = unit.find("gender")
        if g is not None and g.text:
            genders[unit.get("type")] = g.text.strip()
    return genders


def cldr_power_patterns(cldr: str, tag: str) -> list[str]:
    """CLDR's square and cube patterns of a locale by gender and count (`power2 feminine one: {0} carrée`),
    without a grammatical case."""
    out: dict[tuple, str] = {}
    for unit in long_units(cldr, tag, "compoundUnit"):
        if unit.get("type") not in ("power2", "power3"):
            continue
        for p in unit.findall("compoundUnitPattern1"):
            if p.get("case") or not p.text:
                continue
            out[(unit.get("type"), p.get("gender") or "-", p.get("count") or "other")] = p.text
    return [f"{t} {g} {c}: {w}" for (t, g, c), w in out.items()]


def genders(args) -> int:
    """--genders: the CLDR gender of each unit entry that names none (and the square and cube patterns)."""
    genders_of = cldr_genders(args.cldr, args.tag)
    target = os.path.join(ROOT, "Locales", args.tag, "units.txt")
    found: dict[str, str] = {}
    for key, words in read_entries(target):
        unit = CLDR_UNITS.get(micro(key)) or CLDR_UNITS.get(key.replace("µ", "μ"))
        if unit in genders_of and "gender" not in forms(words)[1]:
            found[key] = genders_of[unit]
    for key, gender in found.items():
        print(f"{key:<9} {gender}")
    for line in cldr_power_patterns(args.cldr, args.tag):
        print("# CLDR " + line)
    if args.write and found:
        with open(target, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            if line.strip().startswith("#") or not line.strip():
                continue
            key = line.split()[0]
            if key in found:
                body, sep, comment = line.partition("  #")
                lines[i] = body.rstrip() + f" | gender: {found.pop(key)}" + (("  " + sep.strip() + comment) if sep else "")
        tmp = target + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        os.replace(tmp, target)
        print(f"cldr-units: genders written to {target}", file=sys.stderr)
    return 0


def name(pattern: str) -> str | None:
    """The words of a unit pattern without the number, None when words stand on both sides of it."""
    if "{0}" not in pattern:
        return pattern.strip(SPACES) or None
    before, after = pattern.split("{0}", 1)
    before, after = before.strip(SPACES), after.strip(SPACES)
    if before and after:
        return None
    words = " ".join((before or after).split())
    return words or None


def _word_file_reader():
    """scripts/cldr-symbols.py's reader of word files (`read_keys`), loaded without writing bytecode."""
    import importlib.util
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("cldr_symbols", os.path.join(ROOT, "scripts", "cldr-symbols.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.read_keys


# (key as written, words) of a word file, in file order.
read_entries = _word_file_reader()


def forms(words: str) -> tuple[str, dict[str, str]]:
    """Main words and variants of an entry (`metre | plural: metres`)."""
    main, *rest = [p.strip() for p in words.split(" | ")]
    variants = {}
    for r in rest:
        label, _, w = r.partition(":")
        variants[label.strip()] = w.strip()
    return main, variants


def micro(key: str) -> str:
    return key.replace("μ", "µ")


class Symbols:
    """The unit-symbol tables of Sources/MathSemantics/UnitSymbols.swift, read from the source."""

    def __init__(self) -> None:
        path = os.path.join(ROOT, "Sources", "MathSemantics", "UnitSymbols.swift")
        with open(path, encoding="utf-8") as f:
            text = f.read()

        def table(name: str) -> list[str]:
            m = re.search(r"static let " + name + r":[^=]*=\s*\[(.*?)\]\s*\n", text, re.S)
            if not m:
                sys.exit(f"cldr-units: no table {name} in {path}")
            return re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))

        self.prefixes = table("prefixes")
        self.prefixable = set(table("prefixable"))
        self.plain = set(table("plain"))
        pairs = table("abbreviations")
        self.abbreviations = dict(zip(pairs[0::2], pairs[1::2]))
        self.annum = set(table("annumPrefixes"))

    def prefix_parts(self, key: str) -> tuple[str, str] | None:
        if key in self.prefixable or key in self.plain or key in self.abbreviations:
            return None
        for p in self.prefixes:
            if key.startswith(p) and len(key) > len(p):
                base = key[len(p):]
                if base == "a":
                    if p in self.annum:
                        return p, base
                    continue
                if base in self.prefixable:
                    return p, base
                if base in self.abbreviations:
                    return p, self.abbreviations[base]
        return None

    def key(self, written: str) -> bool:
        core = written[:-1] if written[-1:] in ("²", "³") else written
        return bool(core) and (core in self.prefixable or core in self.plain or core in self.abbreviations
                               or self.prefix_parts(core) is not None)

    def is_symbol(self, key: str) -> bool:
        """`UnitSymbols.writtenKey(key) != nil`."""
        if " " in key:
            return False
        if len(key) == 1 and unicodedata.category(key) == "Sc" or self.key(key):
            return True
        parts = key.split("/")
        return "/" in key and len(parts) == 2 and all(p and self.key(p) for p in parts)


def spoken(symbols: Symbols, have: set[str], key: str) -> bool:
    """Whether the engine says the key from the locale's entries (`Lexicon.unit`): its own entry, or
    composed by the locale's templates."""
    def entry(k: str) -> bool:
        return micro(k) in have

    def prefixed(k: str) -> bool:
        parts = symbols.prefix_parts(k)
        return parts is not None and entry(parts[1]) and entry("prefix." + parts[0])

    def abbreviated(k: str) -> bool:
        return k in symbols.abbreviations and entry(symbols.abbreviations[k])

    if entry(key):
        return True
    if "/" in key:
        parts = key.split("/")
        return entry("unit./") and all(p and spoken(symbols, have, p) for p in parts)
    if key[-1:] in ("²", "³"):
        core = key[:-1]
        return (entry(core) or prefixed(core) or abbreviated(core)) and entry("unit." + key[-1])
    return prefixed(key) or abbreviated(key)


def plural_categories(tag: str) -> set[str]:
    cats = set()
    for key, _ in read_entries(os.path.join(ROOT, "Locales", tag, "locale.txt")):
        if key.startswith("plural."):
            cats.add(key[len("plural."):])
    return cats


def entry_words(patterns: dict[str, str], cats: set[str]) -> tuple[str | None, str]:
    """units.txt words for a CLDR unit's patterns, as the locale's plural categories want them, or
    None and why not."""
    names = {count: name(p) for count, p in patterns.items()}
    if any(n is None for n in names.values()):
        return None, "CLDR puts words on both sides of the number: " + " / ".join(patterns.values())
    if any(w.endswith(".") for n in names.values() for w in n.split()):
        return None, "CLDR abbreviates a word, which a synthesizer reads as written: " + " / ".join(dict.fromkeys(names.values()))
    if any(c.isdigit() or c == "/" for n in names.values() for c in n):
        return None, "CLDR's name has a digit or a slash: " + " / ".join(dict.fromkeys(names.values()))
    other = names.get("other") or names.get("one")
    one = names.get("one") or other
    if not other:
        return None, "CLDR has no pattern"
    if not cats:
        return other, ""
    if "few" in cats:
        few = names.get("few") or other
        many = names.get("many") or other
        return f"{one} | one: {one} | few: {few} | many: {many} | plural: {many}", ""
    return (one if one == other else f"{one} | plural: {other}"), ""


# SI prefixes by CLDR's compound-unit type (the power of ten), as units.txt keys them (`prefix.E`).
SI_PREFIXES = {"10p30": "Q", "10p27": "R", "10p24": "Y", "10p21": "Z", "10p18": "E", "10p15": "P", "10p12": "T",
               "10p9": "G", "10p6": "M", "10p3": "k", "10p2": "h", "10p1": "da", "10p-1": "d", "10p-2": "c",
               "10p-3": "m", "10p-6": "u", "10p-9": "n", "10p-12": "p", "10p-15": "f", "10p-18": "a",
               "10p-21": "z", "10p-24": "y", "10p-27": "r", "10p-30": "q"}


def cldr_prefixes(cldr: str, tag: str) -> dict[str, str]:
    """The long unit prefix patterns of a locale (`exa{0}`) by units.txt key (`E`), as `…{unit}`."""
    out: dict[str, str] = {}
    for unit in long_units(cldr, tag, "compoundUnit"):
        pattern = unit.find("unitPrefixPattern")
        if unit.get("type") in SI_PREFIXES and pattern is not None and pattern.text:
            out[SI_PREFIXES[unit.get("type")]] = pattern.text.replace("{0}", "{unit}")
    return out


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tag")
    ap.add_argument("--cldr", default="/usr/share/unicode/cldr")
    ap.add_argument("--write", action="store_true", help="append the lines to Locales/<TAG>/units.txt")
    ap.add_argument("--genders", action="store_true", help="the CLDR gender of the locale's unit entries")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.cldr, "common", "main")):
        print(f"cldr-units: no CLDR locale data in {args.cldr} (apt-get install unicode-cldr-core)", file=sys.stderr)
        return 1
    if args.tag == "en" or not os.path.isdir(os.path.join(ROOT, "Locales", args.tag)):
        print(f"cldr-units: no locale {args.tag} to fill (a folder of Locales/ other than en)", file=sys.stderr)
        return 1
    if args.genders:
        return genders(args)
    symbols = Symbols()
    units = cldr_units(args.cldr, args.tag)
    cats = plural_categories(args.tag)
    target = os.path.join(ROOT, "Locales", args.tag, "units.txt")
    entries = read_entries(target)
    have = {micro(k) for k, _ in entries}
    english = read_entries(os.path.join(ROOT, "Locales", "en", "units.txt"))
    words_of = {micro(k): w for k, w in entries}
    from_cldr, from_own, todo = [], [], []
    for key, words in english:
        if key.startswith(("prefix.", "unit.")) or not symbols.is_symbol(key) or spoken(symbols, have, key):
            continue
        unit = CLDR_UNITS.get(key)
        group = next((g for g in ALIASES if key in g), ())
        shared = next((words_of[micro(k)] for k in group if micro(k) in words_of), None)
        cldr, why = entry_words(units[unit], cats) if unit in units else (None, "")
        if (args.tag, key) in EXCLUDED:
            cldr, why = None, EXCLUDED[(args.tag, key)]
        if shared:
            from_own.append(f"{key:<9} {shared}")
        elif cldr:
            from_cldr.append(f"{key:<9} {cldr}")
        else:
            todo.append(f"# TODO {key:<9} {words}" + (f"   ({why})" if why else ""))
            continue
        have.add(micro(key))  # µs/μs are one key; a later key may be composed from this one
        words_of.setdefault(micro(key), (shared or cldr))

    # SI prefixes the locale lacks (prefix.E …), from CLDR's unit prefix patterns: printed, for the author
    # to place beside the locale's own prefixes (units.txt keeps them together).
    prefixes = cldr_prefixes(args.cldr, args.tag)
    for key in SI_PREFIXES.values():
        if "prefix." + key not in have and key in prefixes:
            todo.append(f"# CLDR prefix: prefix.{key:<4} {prefixes[key]}")
    codes = ", ".join(c + ".xml" for c in dict.fromkeys(cldr_codes(args.tag))
                      if os.path.exists(os.path.join(args.cldr, "common", "main", c + ".xml")))
    lines = []
    if from_cldr:
        lines.append(f"# From the Unicode CLDR unit names (scripts/cldr-units.py), {datetime.date.today().isoformat()}: "
                     f"long names of common/main/{codes}.")
        lines += from_cldr
    if from_own:
        lines.append("# The same units as entries above, under another symbol (scripts/cldr-units.py): their words.")
        lines += from_own
    for line in lines + todo:
        print(line)
    if args.write and lines:
        with open(target, encoding="utf-8") as f:
            text = f.read()
        with open(target, "a", encoding="utf-8") as f:
            f.write(("" if text.endswith("\n") or not text else "\n") + "\n" + "\n".join(lines) + "\n")
        print(f"cldr-units: {len(from_cldr)} CLDR and {len(from_own)} shared entries appended to {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
