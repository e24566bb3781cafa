import Foundation
import MathSemantics

/// The words of one locale (DESIGN.md §5): symbols, function names, units and number words, with a
/// parent to fall back to (`en-GB` → `en`).
public struct LocaleWords: Sendable {
    /// The locale tag (`en`).
    public let tag: String
    /// `locale.txt` settings (`name`, `parent`, `espeak-voice`, `number-words`).
    public let settings: WordTable
    /// Symbol words (`Locales/<tag>/symbols.txt`).
    public let symbols: WordTable
    /// Function and operator names (`functions.txt`).
    public let functions: WordTable
    /// Unit names (`units.txt`), with `plural` variants.
    public let units: WordTable
    /// Number words (`numbers.txt`): `cardinal.N`, `ordinal.N`, `denominator.N`, `root.N`, phrases.
    public let numbers: WordTable
    /// Word changes where parts of the speech meet (`contractions.txt`, see ``Contractions``).
    public let contractions: WordTable

    /// The parent locale's tag, if any.
    public var parent: String? { settings.words("parent").flatMap { $0.isEmpty ? nil : $0 } }

    /// Creates a locale from its tables.
    public init(tag: String, settings: WordTable, symbols: WordTable, functions: WordTable, units: WordTable, numbers: WordTable,
                contractions: WordTable = WordTable()) {
        self.contractions = contractions
        self.tag = tag
        self.settings = settings
        self.symbols = symbols
        self.functions = functions
        self.units = units
        self.numbers = numbers
    }
}

/// Looks words up through a chain: the style's own words, then the locale, then its parents.
/// Every miss that falls back to a readable name is reported once per key.
public struct Lexicon: Sendable {
    /// Most specific first.
    public let chain: [LocaleWords]
    /// The style's word overrides (e.g. MathSpeak's symbol names), looked up before the locale.
    public let styleWords: WordTable

    /// The tables `symbol`, `function` and `number` search, prepared for quick look-ups and held by
    /// reference, so a look-up does not copy the lexicon's tables.
    private let search: Search

    /// Creates a lexicon.
    public init(chain: [LocaleWords], styleWords: WordTable = WordTable()) {
        self.chain = chain
        self.styleWords = styleWords
        search = Search(chain: chain, styleWords: styleWords)
    }

    /// The tables in search order (empty ones left out).
    private final class Search: Sendable {
        let symbols: [SearchTable]
        let functions: [SearchTable]
        let numbers: [SearchTable]
        let styleFunctions: SearchTable?

        init(chain: [LocaleWords], styleWords: WordTable) {
            func tables(_ tables: [WordTable]) -> [SearchTable] { tables.filter { !$0.entries.isEmpty }.map(SearchTable.init) }
            symbols = tables([styleWords] + chain.map(\.symbols))
            functions = tables(chain.map(\.functions))
            numbers = tables(chain.map(\.numbers))
            styleFunctions = styleWords.entries.isEmpty ? nil : SearchTable(styleWords)
        }

        /// The words of the first table that has `key`.
        @inline(__always)
        static func words(_ key: String, variant: String?, in tables: [SearchTable]) -> String? {
            tables.withUnsafeBufferPointer { tables in
                for i in tables.indices { if let w = tables[i].words(key, variant: variant) { return w } }
                return nil
            }
        }
    }

    /// A word table with its ASCII keys apart. Most look-ups that miss are of ASCII text (a letter
    /// `x` in the symbols), and in a table of mostly non-ASCII keys every probe of a miss compares
    /// the text with a non-ASCII key, the slow path of string comparison; the ASCII keys alone
    /// answer such a miss quickly (a one-byte text by a bit). (``TextTable`` does more, but building
    /// one for the thousands of symbols costs more start-up time than it saves.)
    private struct SearchTable: Sendable {
        let table: WordTable
        let asciiKeys: Set<String>
        /// The one-byte ASCII keys as bits (a letter `x` is answered without hashing).
        let oneByteKeys: (UInt64, UInt64)
        /// False when a key is equal as a string to an ASCII text without being ASCII: the three
        /// characters whose canonical decomposition is ASCII (U+037E ;, U+1FEF `, U+212A K) make
        /// such keys. Then ASCII keys alone do not decide.
        let asciiKeysDecide: Bool

        init(_ table: WordTable) {
            self.table = table
            asciiKeys = Set(table.entries.keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } })
            var bits: (UInt64, UInt64) = (0, 0)
            for key in asciiKeys where key.utf8.count == 1 {
                let b = key.utf8.first!
                if b < 64 { bits.0 |= 1 << UInt64(b) } else { bits.1 |= 1 << UInt64(b - 64) }
            }
            oneByteKeys = bits
            asciiKeysDecide = !table.entries.keys.contains(where: Normalization.hasASCIIDecomposingScalar)
        }

        @inline(__always)
        func words(_ key: String, variant: String?) -> String? {
            if asciiKeysDecide {
                let utf8 = key.utf8
                if utf8.count == 1, let b = utf8.first, b < 0x80 {
                    let bit = b < 64 ? oneByteKeys.0 >> UInt64(b) : oneByteKeys.1 >> UInt64(b - 64)
                    if bit & 1 == 0 { return nil }
                } else if utf8.allSatisfy({ $0 < 0x80 }) && !asciiKeys.contains(key) {
                    return nil
                }
            }
            return table.words(key, variant: variant)
        }
    }

    /// Words for a symbol: style words (variant), then each locale's symbols.
    public func symbol(_ key: String, variant: String?) -> String? {
        Search.words(key, variant: variant, in: search.symbols)
    }

    /// The keys of the symbol tables that are one non-ASCII Unicode scalar, in search order (for
    /// ``WordCache``).
    func singleScalarSymbolKeys() -> [String] {
        search.symbols.flatMap { table in
            table.table.entries.keys.filter { key in (key.soleScalarValue ?? 0) >= 0x80 }
        }
    }

    /// Words for a function name.
    public func function(_ key: String, variant: String?) -> String? {
        if let styleFunctions = search.styleFunctions, let w = styleFunctions.words("fn." + key, variant: variant) { return w }
        return Search.words(key, variant: variant, in: search.functions)
    }

    /// Words for a unit key, singular or plural: the locale's entry for the key, else words composed
    /// from its parts by the locale's templates — a square or cube (`km²`: `unit.²` "square {unit}"),
    /// an SI prefix on a unit (`µs`: `prefix.µ` "micro{unit}") — so a locale lists base units and
    /// prefixes once instead of every combination.
    public func unit(_ key: String, plural: Bool) -> String? {
        if let w = unitEntry(key, plural: plural) { return w }
        var core = key
        var power: String? = nil
        if let last = key.unicodeScalars.last, last == "²" || last == "³" {
            power = String(last)
            core = String(String.UnicodeScalarView(key.unicodeScalars.dropLast()))
            if let w = unitEntry(core, plural: plural) ?? prefixed(core, plural: plural),
               let template = unitEntry("unit." + power!, plural: plural) {
                return Lexicon.fill(template, w)
            }
            return nil
        }
        return prefixed(core, plural: plural)
    }

    private func prefixed(_ key: String, plural: Bool) -> String? {
        guard let (prefix, base) = UnitSymbols.prefixParts(key), let w = unitEntry(base, plural: plural),
              let template = unitEntry("prefix." + prefix, plural: plural) else { return nil }
        return Lexicon.fill(template, w)
    }

    private func unitEntry(_ key: String, plural: Bool) -> String? {
        for locale in chain {
            if let entry = locale.units.entries[key] {
                return plural ? (entry.variants["plural"] ?? entry.words) : entry.words
            }
        }
        return nil
    }

    /// A template's `{unit}` replaced by words (the template itself when it has no `{unit}`).
    static func fill(_ template: String, _ words: String) -> String {
        guard let r = template.range(of: "{unit}") else { return template + words }
        return template.replacingCharacters(in: r, with: words)
    }

    /// A number-words entry (`cardinal.3`, `denominator.4`).
    public func number(_ key: String, variant: String? = nil) -> String? {
        Search.words(key, variant: variant, in: search.numbers)
    }

    /// A readable fallback for a character without words: its Unicode name in lower case.
    public static func readableName(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            if let name = scalar.properties.name { return name.lowercased() }
            return "character \(String(scalar.value, radix: 16))"
        }.joined(separator: " ")
    }
}

/// Number-to-words for a locale: the only Swift code per locale (DESIGN.md §5), kept in one table.
/// Words come from the locale's `numbers.txt`; the algorithm (how to combine them) is registered here.
public enum NumberWording {
    /// Algorithms by name (`number-words` in `locale.txt`; default `english`).
    public static let algorithms: [String: @Sendable (Int, Lexicon) -> String?] = [
        "english": englishCardinal,
    ]

    /// Cardinal words for `n` (nil when the locale lacks the words).
    public static func cardinal(_ n: Int, lexicon: Lexicon) -> String? {
        let algorithm = lexicon.chain.first?.settings.words("number-words") ?? "english"
        return (algorithms[algorithm] ?? englishCardinal)(n, lexicon)
    }

    /// Ordinal words for `n`: `ordinal.N` entries, else the cardinal with the last word made ordinal.
    public static func ordinal(_ n: Int, lexicon: Lexicon) -> String? {
        if let w = lexicon.number("ordinal.\(n)") { return w }
        guard n > 0, let cardinal = cardinal(n, lexicon: lexicon) else { return nil }
        // English-like: replace the last word by its ordinal (twenty-one → twenty-first).
        var words = cardinal.split(separator: " ").map(String.init)
        guard let last = words.last else { return nil }
        let lastParts = last.split(separator: "-").map(String.init)
        let lastWord = lastParts.last ?? last
        // Find the ordinal of the last word through the tables.
        for k in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000, 1_000_000, 1_000_000_000] {
            if lexicon.number("cardinal.\(k)") == lastWord, let o = lexicon.number("ordinal.\(k)") {
                var parts = lastParts
                parts[parts.count - 1] = o
                words[words.count - 1] = parts.joined(separator: "-")
                return words.joined(separator: " ")
            }
        }
        return nil
    }

    /// An ordinal written with digits: `ordinal-suffix.N` entries for the last digits (English: 1st,
    /// 2nd, 3rd, 11th…), else `ordinal-suffix.other`, else "th".
    public static func ordinalNumeral(_ n: Int, lexicon: Lexicon) -> String? {
        let suffix = lexicon.number("ordinal-suffix.\(n % 100)") ?? lexicon.number("ordinal-suffix.\(n % 10)")
            ?? lexicon.number("ordinal-suffix.other") ?? "th"
        return "\(n)\(suffix)"
    }

    static func englishCardinal(_ n: Int, _ lexicon: Lexicon) -> String? {
        if n < 0 { return englishCardinal(-n, lexicon).map { (lexicon.number("negative") ?? "negative") + " " + $0 } }
        if let w = lexicon.number("cardinal.\(n)"), n < 100 || n % 100 != 0 || n == 100 && false { return w }
        if n < 20 { return lexicon.number("cardinal.\(n)") }
        if n < 100 {
            guard let tens = lexicon.number("cardinal.\(n / 10 * 10)") else { return nil }
            if n % 10 == 0 { return tens }
            guard let ones = lexicon.number("cardinal.\(n % 10)") else { return nil }
            return tens + "-" + ones
        }
        let scales = [(1_000_000_000, "1000000000"), (1_000_000, "1000000"), (1000, "1000"), (100, "100")]
        for (value, key) in scales where n >= value {
            guard let head = englishCardinal(n / value, lexicon), let scale = lexicon.number("cardinal.\(key)") else { return nil }
            let rest = n % value
            if rest == 0 { return head + " " + scale }
            guard let tail = englishCardinal(rest, lexicon) else { return nil }
            return head + " " + scale + " " + tail
        }
        return nil
    }
}
