import MathSyntax

/// Units of measure as they are written, independent of language: which symbols are units, the key a
/// lexicon looks their words up by, how a prefixed SI symbol splits (`km` = `k` + `m`), and which are
/// currencies. The words ("kilometers", "dollars") are each locale's (`Locales/<tag>/units.txt`).
package enum UnitSymbols {
    /// SI prefixes, longest first where one is the start of another (`da` before `d`).
    package static let prefixes: [String] = ["da", "Q", "R", "Y", "Z", "E", "P", "T", "G", "M", "k", "h", "d", "c", "m",
                                             "µ", "μ", "u", "n", "p", "f", "a", "z", "y", "r", "q"]

    /// The binary prefixes of IEC 80000-13 (kibi, mebi, … yobi).
    static let binaryPrefixes: [String] = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"]

    /// The SI prefixes of multiples (deca and above).
    static let multiplePrefixes: Set<String> = ["da", "h", "k", "M", "G", "T", "P", "E", "Z", "Y", "R", "Q"]

    /// The SI prefixes a publisher's MathML may write apart from their unit (`<mtext>k</mtext><mtext>Ω</mtext>`,
    /// `<mtext>μ</mtext><mtext>F</mtext>`): read with the unit after them as one prefixed unit, when the
    /// table knows that unit.
    package static let prefixesWrittenApart: Set<String> = ["k", "M", "G", "m", "μ", "µ", "n", "p"]

    /// Units that take SI prefixes (the unit symbols of the SI Brochure, 9th edition, tables 2 and 4,
    /// and the non-SI units accepted with prefixes, table 8; the annum `a` as ISO 80000-3 and the
    /// geosciences prefix it: `ka`, `Ma`, `Ga`; `℃`, the degree Celsius in one character, as `°C`).
    package static let prefixable: Set<String> = [
        "m", "g", "s", "A", "K", "mol", "cd", "N", "Pa", "J", "W", "C", "V", "F", "Ω", "S", "Wb", "T", "H", "Hz",
        "Bq", "Gy", "Sv", "lm", "lx", "kat", "L", "l", "ℓ", "eV", "Da", "B", "bit", "byte", "Np", "rad", "sr", "bar",
        "cal", "t", "baud", "Bd", "°C", "℃", "a",
    ]

    /// Units that take no prefix (customary units, time, angle, and others in common use; the milli- and
    /// microarcsecond as astronomy writes them, `mas` and `µas`, whose `as` alone is the attosecond).
    package static let plain: Set<String> = [
        "min", "h", "hr", "d", "yr", "wk", "°", "′", "″", "deg", "arcmin", "arcsec", "amin", "asec", "mas", "µas",
        "in", "ft", "yd", "mi", "mil", "li", "rd", "ch", "fur", "lea", "nmi", "ftm",
        "ac", "ha", "oz", "lb", "dr", "gr", "cwt", "ton", "st", "gal", "qt", "pt", "cup", "tbsp", "tsp", "floz",
        "°F", "℉", "au", "ly", "ltyr", "pc", "Å", "atm", "psi", "mmHg", "Torr", "dB", "mph", "kph", "kmh",
        "u", "Ci", "R", "G", "Mx", "dyn", "erg", "P", "St", "kWh", "Wh", "VA", "var", "rev",
    ]

    /// Abbreviations in common use for a prefixable unit besides its SI symbol, and the symbol they
    /// stand for: they take the SI prefixes as the symbol does (`µsec`, `msec`, `kgm`), and a locale
    /// without words of their own says the symbol's (`Locales/<tag>/units.txt`). `sek` is the second as
    /// German, the Scandinavian languages and Afrikaans abbreviate it (`µsek`, `nsek`).
    package static let abbreviations: [String: String] = [
        "sec": "s", "secs": "s", "sek": "s", "gm": "g", "gms": "g", "amp": "A", "amps": "A",
    ]

    /// The unit symbol an abbreviation stands for (`sec` → `s`), nil for any other key.
    package static func symbol(abbreviation key: String) -> String? { abbreviations[key] }

    /// Currency signs (Unicode category Sc) and the letters written for some currencies.
    package static func isCurrency(_ key: String) -> Bool {
        guard let u = key.soleScalar else { return false }
        return u.isCurrencySign
    }

    /// The written unit normalised: spaces trimmed, a full stop after an abbreviation dropped
    /// (`ft.` → `ft`), µ and μ both written as µ, `sq X` / `cu X` (`sq. ft.`, `cu in`) as `X²` / `X³`, and
    /// two primes or a double quote as the double prime `″` (a quote alone as the prime `′`).
    package static func normalized(_ written: String) -> String {
        // Nothing to change in a unit without a space, no-break space, final full stop or μ (most
        // are written so): it is returned as it is, without splitting it into words.
        var plain = written.utf8.last != 0x2E
        if plain {
            var previous: UInt8 = 0
            for b in written.utf8 {
                if b == 0x20 || (previous == 0xC2 && b == 0xA0) || (previous == 0xCE && b == 0xBC) { plain = false; break }
                previous = b
            }
        }
        if plain {
            // Primes typed as two single primes or as ASCII quotes are the prime and double prime.
            switch written {
            case "′′", "''", "\"": return "″"
            case "'": return "′"
            default: return written
            }
        }
        var words = written.split(whereSeparator: { $0 == " " || $0 == "\u{A0}" }).map { word -> String in
            var w = String(word)
            while w.count > 1, w.hasSuffix(".") { w.removeLast() }
            return w
        }
        var power = ""
        if words.count == 2, let first = words.first?.lowercased() {
            if first == "sq" { power = "²"; words.removeFirst() }
            if first == "cu" { power = "³"; words.removeFirst() }
        }
        var text = words.joined(separator: " ")
        text = text.replacingMicro()
        return text + power
    }

    /// The key of a written unit symbol: the symbol itself when it is a unit (known, or an SI prefix on
    /// a prefixable unit; powers written `m²`, `s³`), nil otherwise.
    package static func key(_ written: String) -> String? {
        let text = normalized(written)
        if text.isEmpty { return nil }
        var core = text
        if let last = core.unicodeScalars.last, last == "²" || last == "³" {
            core = String(String.UnicodeScalarView(core.unicodeScalars.dropLast()))
        }
        if prefixable.contains(core) || plain.contains(core) || abbreviations[core] != nil || prefixParts(core) != nil
            || isCurrency(core) { return text }
        return nil
    }

    /// The key of a unit symbol written in one piece after a quantity (`\text{km/h}`, `\mathrm{m/s^2}`):
    /// a symbol ``key(_:)`` knows, or a quotient of two whose parts it knows, a part's power written with
    /// a caret as the lexicon writes it (`m/s^2` → `m/s²`); nil otherwise. This table alone says which
    /// written symbols are units (`UnitNames.isSymbol` and the analysis of an unmarked unit ask it).
    package static func writtenKey(_ written: String) -> String? {
        if let k = key(written) { return k }
        // A product's middle dot (U+00B7, U+22C5) is two bytes, 0xC2 0xB7 or 0xE2 0x8B 0x85: told by its last byte first.
        let hasDot = written.utf8.contains { $0 == 0xB7 || $0 == 0x85 } && written.unicodeScalars.contains { $0 == "\u{B7}" || $0 == "\u{22C5}" }
        guard written.containsASCII(0x2F) || written.containsASCII(0x5E) || hasDot else { return nil }
        func part(_ p: Substring) -> String? {
            if p.hasSuffix("^2") || p.hasSuffix("^3") {
                guard let k = key(String(p.dropLast(2))) else { return nil }
                return k + (p.last == "2" ? "²" : "³")
            }
            return key(String(p))
        }
        // A product of symbols with middle dots (`N·m`, `kW⋅h`, as OpenStax's College Physics writes units in one text): the
        // factors' keys a space apart, as the analysis writes a product of unit symbols (`N m`).
        func product(_ p: Substring) -> String? {
            guard hasDot else { return part(p) }
            let factors = p.split(omittingEmptySubsequences: false) { $0 == "\u{B7}" || $0 == "\u{22C5}" }
            var keys: [String] = []
            for f in factors {
                guard let k = part(f) else { return nil }
                keys.append(k)
            }
            return keys.joined(separator: " ")
        }
        let parts = written.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        var keys: [String] = []
        for (i, p) in parts.enumerated() {
            // A denominator in parentheses (`J/(kg·°C)`) is the product they hold.
            let factors = i == 1 && p.count > 2 && p.first == "(" && p.last == ")" ? p.dropFirst().dropLast() : p
            guard let k = product(factors) else { return nil }
            keys.append(k)
        }
        return keys.joined(separator: "/")
    }

    /// Symbols that are units only when marked as units (or prefixed), never when read from the
    /// formula alone: the annum written bare is the letter or word `a` as often as it is the year
    /// (`1 a 1`, the indefinite article; `ka`, `Ga` are years); `at` is the word "at" set as text
    /// (`v = 0` `<mtext>at</mtext>` `t = 0`), not an attotonne, which no one weighs in.
    package static let onlyWhenMarked: Set<String> = ["a", "at"]

    /// Symbols that are units when set upright as a symbol (`3\,\mathrm{as}`, `<mi mathvariant="normal">as</mi>`) or
    /// marked, never when set as text: `<mtext>as</mtext>` is the word "as" (`U → 0` `<mtext>as</mtext>` `r → ∞`, `m·4`
    /// `<mtext>as</mtext>` `4m`: OpenStax's calculus and algebra books, textbook sweep 17), not the attosecond.
    package static let notWhenText: Set<String> = ["as"]

    /// The key of a unit symbol as an unmarked formula writes it (after a quantity, in `\mathrm{}` or
    /// `\text{}`): ``writtenKey(_:)`` but for the symbols in ``onlyWhenMarked``.
    package static func unmarkedKey(_ written: String) -> String? {
        onlyWhenMarked.contains(written) ? nil : writtenKey(written)
    }

    /// The key of a unit marked as one in MathML (`intent=":unit"`, `class="MathML-Unit"`): a unit
    /// whatever its symbol, so its key is the symbol itself (normalised) when no table knows it, and
    /// the locale's units may (Swedish `sek`).
    package static func markedKey(_ written: String) -> String {
        key(written) ?? normalized(written)
    }

    /// The prefixes the annum takes (`ka`, `Ma`, `Ga`, `Ta`), and the parsec, the year and the light year (`Mpc`, `Gyr`).
    static let annumPrefixes: Set<String> = ["k", "M", "G", "T"]

    /// An SI-prefixed symbol split into prefix and unit (`km` → `k`, `m`; `daN` → `da`, `N`; `GB` → `G`,
    /// `byte`), nil for a symbol that is not one (`min`, `m`). `alsoPrefixable` names more units that take
    /// the SI prefixes: a lexicon's units that no symbol here names (a locale's `as` for the second of
    /// arc: `nas`).
    package static func prefixParts(_ key: String, alsoPrefixable: ((String) -> Bool)? = nil) -> (prefix: String, base: String)? {
        if prefixable.contains(key) || plain.contains(key) { return nil }
        if abbreviations[key] != nil { return nil }
        // A prefix's first byte is compared first: no other character is canonically equivalent to a
        // prefix's first (ASCII letters other than K, µ, μ), so `hasPrefix` is false when they differ.
        let first = key.utf8.first
        for p in allPrefixes where p.utf8.first == first && key.hasPrefix(p) && key.count > p.count {
            if let base = prefixedUnit(p, String(key.dropFirst(p.count)), alsoPrefixable) { return (p, base) }
        }
        return nil
    }

    /// The SI prefixes, then the binary ones.
    static let allPrefixes = prefixes + binaryPrefixes

    /// The unit that prefix `p` on `base` makes, nil when it makes none: a prefixable unit or an
    /// abbreviation of one takes the SI prefixes, with these exceptions of use.
    /// - The annum takes only the prefixes geology and astronomy write (ka, Ma, Ga, Ta): `na`, `ma`, `Pa`
    ///   (the pascal) are not years.
    /// - B with deci is the bel (dB); with any other prefix, SI or binary, it is the byte (IEC 80000-13:
    ///   kB, GB, KiB).
    /// - b is the bit with a prefix of a multiple or a binary one (kb, Mib); mb is not a millibit.
    /// - The binary prefixes take the byte and the bit only.
    /// - The parsec, the year and the light year, which take no prefix in the SI, take the multiples
    ///   astronomy writes with them (kpc, Mpc, Gpc; kyr, Myr, Gyr; Mly), those of the annum.
    private static func prefixedUnit(_ p: String, _ base: String, _ alsoPrefixable: ((String) -> Bool)?) -> String? {
        let binary = binaryPrefixes.contains(p)
        switch base {
        case "B": return p == "d" ? base : "byte"
        case "byte", "bit": return base
        case "b": return binary || multiplePrefixes.contains(p) ? "bit" : nil
        case _ where binary: return nil
        case "a", "pc", "yr", "ly": return annumPrefixes.contains(p) ? base : nil
        default: return prefixable.contains(base) ? base : abbreviations[base] ?? (alsoPrefixable?(base) == true ? base : nil)
        }
    }
}

extension String {
    /// The string with MICRO SIGN and GREEK SMALL LETTER MU both written as MICRO SIGN.
    func replacingMicro() -> String {
        guard unicodeScalars.contains(where: { $0 == "μ" }) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0 == "μ" ? "µ" : $0 }))
    }
}

/// Unit names written out in words, as a language writes them (`meters`, `Meter`, `метров`), and the
/// unit symbols they stand for (`m`): a fact the analysis is given, never knows. The speech layer makes
/// it from the speaking locale's `units.txt` (each unit's singular, plural and `written` forms), so
/// the analysis stays language-independent (DESIGN.md §4). Written forms compare ignoring case.
public struct UnitNames: Sendable, Hashable {
    private let storage: Storage

    /// No names: only unit symbols are units.
    public init() { storage = Storage(names: [:]) }

    /// Names (any case) and the unit symbols they stand for; a name given twice keeps its first symbol.
    public init(_ pairs: [(name: String, unit: String)]) { storage = Storage(names: UnitNames.table(pairs)) }

    /// The names `pairs` gives, as ``init(_:)`` takes them, asked for when the analysis first looks a
    /// name up: a speaker loads its locale's names without going through every unit of `units.txt`,
    /// and a run of formulas without a written unit never does (2.2 M instructions of every start-up,
    /// BENCHMARKS.md session 10).
    public init(lazy pairs: @escaping @Sendable () -> [(name: String, unit: String)]) { storage = Storage(pairs) }

    private static func table(_ pairs: [(name: String, unit: String)]) -> [String: String] {
        var names: [String: String] = [:]
        for (name, unit) in pairs {
            let key = name.lowercased()
            if names[key] == nil, !key.isEmpty { names[key] = unit }
        }
        return names
    }

    /// The unit symbol a written name stands for.
    public func key(_ written: String) -> String? {
        let names = storage.names
        return names.isEmpty ? nil : names[written.lowercased()]
    }

    /// How many names there are.
    public var count: Int { storage.names.count }

    public static func == (a: UnitNames, b: UnitNames) -> Bool { a.storage === b.storage || a.storage.names == b.storage.names }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.names) }

    /// The names, made on first use when given lazily (shared by every analysis of a speaker, on any
    /// thread).
    private final class Storage: Sendable {
        private let made: LazyValue<[String: String]>
        private let pairs: (@Sendable () -> [(name: String, unit: String)])?

        init(names: [String: String]) { made = LazyValue(names); pairs = nil }
        init(_ pairs: @escaping @Sendable () -> [(name: String, unit: String)]) { made = LazyValue(); self.pairs = pairs }

        var names: [String: String] { made.value { UnitNames.table(pairs?() ?? []) } }
    }

    /// Whether `key` (a unit as written in a locale's `units.txt`) is a unit symbol rather than a
    /// written name: a known unit, an SI prefix on a prefixable unit, their squares and cubes, a
    /// currency sign, or a quotient of such.
    public static func isSymbol(_ key: String) -> Bool {
        // A key without a space byte has no space: the search is skipped (every unit key of the
        // speaking locale is tested at start-up).
        if key.utf8.contains(0x20), key.contains(" ") { return false }
        return UnitSymbols.writtenKey(key) != nil
    }
}
