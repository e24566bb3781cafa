import Foundation
import MathSemantics
import MathSyntax

/// The words of one locale (DESIGN.md §5): symbols, function names, units and number words, with a
/// parent to fall back to (`en-GB` → `en`).
public struct LocaleWords: Sendable {
    /// The locale tag (`en`).
    public let tag: String
    /// `locale.txt` settings (see ``LocaleSettings``).
    public let settings: WordTable
    /// The settings read and checked.
    public let parsedSettings: LocaleSettings
    /// Symbol words (`Locales/<tag>/symbols.txt`).
    public let symbols: WordTable
    /// Function and operator names (`functions.txt`).
    public let functions: WordTable
    /// Unit names (`units.txt`), with `plural` variants.
    public let units: WordTable
    /// Number words (`numbers.txt`): `cardinal.N`, `ordinal.N`, `denominator.N`, `root.N`, ending rules, phrases.
    public let numbers: WordTable
    /// Font and enclosure names (`fonts.txt`): `bold`, `double-struck`, `circled`, `full-stop`… (the
    /// `font` property of letters and numbers), with the variant `position: after` for a name said
    /// after the letter where no rule places it.
    public let fonts: WordTable
    /// Word changes where parts of the speech meet (`contractions.txt`, see ``Contractions``).
    public let contractions: WordTable
    /// The forms of words that contractions ask for (`forms.txt`: a word and its forms by name, such as
    /// its cases: `бесконечность  бесконечность | genitive: бесконечности`; see ``Contractions``).
    public let forms: WordTable

    /// The parent locale's tag, if any.
    public var parent: String? { parsedSettings.parent }

    /// Creates a locale from its tables; the settings are read by ``LocaleSettings/init(_:tag:)``.
    public init(tag: String, settings: WordTable, symbols: WordTable, functions: WordTable, units: WordTable, numbers: WordTable,
                fonts: WordTable = WordTable(), contractions: WordTable = WordTable(), forms: WordTable = WordTable()) throws(RuleFileErrors) {
        parsedSettings = try LocaleSettings(settings, tag: tag)
        self.contractions = contractions
        self.forms = forms
        self.tag = tag
        self.settings = settings
        self.symbols = symbols
        self.functions = functions
        self.units = units
        self.numbers = numbers
        self.fonts = fonts
    }

    /// The tables of the locale by file name (`symbols.txt` → its table).
    public var tables: [(file: String, table: WordTable)] {
        [("locale.txt", settings), ("symbols.txt", symbols), ("functions.txt", functions), ("units.txt", units),
         ("numbers.txt", numbers), ("fonts.txt", fonts), ("contractions.txt", contractions), ("forms.txt", forms)]
    }
}

/// A locale's settings (`locale.txt`), checked when the locale loads: an unknown setting or value is
/// an error with its file, line and column, never silently ignored.
///
/// | setting | value |
/// |---|---|
/// | `name` | the locale's name in its language |
/// | `parent` | the locale whose words and rules fill in what this one lacks (`de` for `de-AT`) |
/// | `espeak-voice` | eSpeak-NG voices, best first, separated by commas (`en-us, en`) |
/// | `number-words` | how numbers are spelled out: ``NumberSpelling`` (`icu`, `icu ID`, `table`) |
/// | `elision-initials` | the letters a `*V` contraction pattern matches (``Contractions``) |
/// | `final-letters` | the letters (decomposed: Hangul final consonants) a word ends in that a `*C` contraction pattern matches (``Contractions``) |
/// | `plural.CATEGORY` | a CLDR plural rule (``PluralRules``) |
/// | `unit-product-inflects` | which unit of a product takes the number and case a quantity asks: `last` (the default: "newton meters") or `first` (Spanish "newtons metro", as "años luz") |
/// | `document.numbered-label`, `document.equation-reference`, `document.list-and` | the phrases of numbered equations and references in documents (MathAloudDocuments reads them through `Speaker.localePhrase`) |
public struct LocaleSettings: Sendable, Hashable {
    /// The settings a `locale.txt` may have (besides `plural.CATEGORY`).
    public static let known = ["name", "parent", "espeak-voice", "number-words", "elision-initials", "final-letters",
                               "unit-product-inflects", "document.numbered-label", "document.equation-reference", "document.list-and"]

    /// `name`.
    public let name: String?
    /// `parent`.
    public let parent: String?
    /// `espeak-voice`, split at commas.
    public let espeakVoices: [String]
    /// `number-words`, nil when the locale does not set it (a regional locale takes its parent's).
    public let numberSpelling: NumberSpelling?
    /// `plural.CATEGORY` rules (empty when none).
    public let pluralRules: PluralRules
    /// `unit-product-inflects`: whether a product of units inflects its first unit (`first`) rather than its
    /// last (`last`); nil when the locale does not set it.
    public let unitProductInflectsFirst: Bool?

    /// The `parent` setting of a `locale.txt` text, read without checking the rest.
    static func parent(in text: String) -> String? { value("parent", in: text) }

    /// A setting of a `locale.txt` text, read without checking the rest.
    static func value(_ name: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingSpaces
            guard trimmed.hasPrefix(name), let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }),
                  trimmed[..<space] == name else { continue }
            return trimmed[space...].trimmingSpaces
        }
        return nil
    }

    /// Reads and checks the settings of locale `tag`.
    public init(_ table: WordTable, tag: String) throws(RuleFileErrors) {
        var errors: [RuleFileError] = []
        func fail(_ entry: WordTable.Entry, _ message: String) {
            errors.append(RuleFileError(file: entry.file, line: entry.line, column: 1, message: message))
        }
        var rules: [PluralRules.Rule] = []
        for (key, entry) in table.entries.sorted(by: { $0.value.line < $1.value.line }) {
            if key.hasPrefix("plural.") {
                let category = String(key.dropFirst("plural.".count))
                guard PluralRules.categories.contains(category), category != "other" else {
                    fail(entry, "unknown plural category '\(category)'; CLDR's are zero, one, two, few, many ('other' needs no rule)")
                    continue
                }
                do throws(PluralRuleError) {
                    rules.append(PluralRules.Rule(category: category, condition: try PluralRules.parseCondition(entry.words)))
                } catch {
                    fail(entry, "plural rule for '\(category)': \(error.message) (at character \(error.offset + 1) of the rule)")
                }
            } else if !LocaleSettings.known.contains(key) {
                fail(entry, "unknown setting '\(key)'; the settings are \(LocaleSettings.known.joined(separator: ", ")) and plural.CATEGORY")
            }
        }
        name = table.words("name")
        parent = table.words("parent").flatMap { $0.isEmpty ? nil : $0 }
        espeakVoices = (table.words("espeak-voice") ?? "").split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        if let value = table.entries["number-words"] {
            numberSpelling = NumberSpelling(setting: value.words, tag: tag)
            if numberSpelling == nil {
                fail(value, "unknown number-words '\(value.words)'; write \(NumberSpelling.accepted)")
            }
        } else {
            numberSpelling = nil
        }
        pluralRules = PluralRules(rules: rules)
        if let value = table.entries["unit-product-inflects"] {
            unitProductInflectsFirst = value.words == "first" ? true : value.words == "last" ? false : nil
            if unitProductInflectsFirst == nil { fail(value, "unknown unit-product-inflects '\(value.words)'; write first or last") }
        } else {
            unitProductInflectsFirst = nil
        }
        if !errors.isEmpty { throw RuleFileErrors(errors: errors.sorted { $0.line < $1.line }, partial: nil) }
    }
}

/// Looks words up through a chain: the style's own words, then the locale, then its parents, and the
/// words of a style of another language last. Every miss that falls back to a readable name is
/// reported once per key.
///
/// A parent of the same language (`de` for `de-AT`) fills in what a regional locale does not list, as
/// inheritance; a parent of another language is a stopgap, and a word found only there is reported
/// (``foreignWords(_:in:variant:)``). The style's words come from the word files of its rule files
/// (`Rules/de/mathspeak.words`, and `Rules/en/mathspeak.words` of the English rules it inherits): those of
/// the locale's language come before the locale's `symbols.txt`; those of another language (English
/// MathSpeak's "greater-than-or-slanted-equals" under a Dutch listener) only after every word of the locale
/// and its parents, and a speech run reports them (``otherLanguageStyleWord(_:variants:)``).
public struct Lexicon: Sendable {
    /// Most specific first.
    public let chain: [LocaleWords]
    /// The style's word overrides (e.g. MathSpeak's symbol names), as the style gives them: the words of
    /// the locale's language are looked up before the locale, those of another language last.
    public let styleWords: WordTable
    /// The entries of ``styleWords`` from a word file of another language than the locale's (see
    /// ``otherLanguageStyleWord(_:variants:)``); empty for a style of the locale's own language.
    public let otherLanguageStyleWords: WordTable

    /// The tables `symbol`, `function` and `number` search, prepared for quick look-ups and held by
    /// reference, so a look-up does not copy the lexicon's tables.
    let search: Search

    /// Unit names written out in the markup (`<mi class="MathML-Unit">ounces</mi>`) and the unit symbols
    /// they stand for: the locale's own names, and those of `markupUnits` (see ``init(chain:styleWords:markupUnits:)``).
    let ownUnitNames: UnitNames, markupUnitNames: UnitNames

    /// Creates a lexicon. `markupUnits` is the unit table of the language unit names are written in when
    /// a document marks them up in another language than the listener's (English, in the corpora and
    /// in MathML generators): a unit written out there (`ounces`, `square feet`) is said as the unit
    /// it names (`oz`, `ft²`), in the locale's words.
    /// `markupUnits` is asked for when a written unit is first looked up, so a locale loads no more
    /// than before.
    public init(chain: [LocaleWords], styleWords: WordTable = WordTable(), markupUnits: (@Sendable () -> WordTable?)? = nil) {
        self.chain = chain
        self.styleWords = styleWords
        let split = Lexicon.split(styleWords, language: chain.first.map { LocaleTag($0.tag).language })
        otherLanguageStyleWords = split.other
        search = Search(chain: chain, styleWords: split.own, otherStyleWords: split.other)
        let language = chain.first.map { LocaleTag($0.tag).language } ?? ""
        let own = chain.filter { LocaleTag($0.tag).language == language }.map(\.units)
        ownUnitNames = UnitNames(lazy: { Lexicon.unitNamePairs(own) })
        markupUnitNames = UnitNames(lazy: { markupUnits?().map { Lexicon.unitNamePairs([$0]) } ?? [] })
    }

    /// The tag of the locale that speaks (the chain's first).
    public var tag: String { chain.first?.tag ?? "" }

    /// The language of the word file an entry of a style's words comes from: the folder of its file
    /// (`en/mathspeak.words` → `en`; an override's `override:Rules/en/mathspeak.words` too); nil for a
    /// file named without a folder.
    public static func language(ofStyleWordFile file: String) -> String? {
        var path = Substring(file)
        if path.hasPrefix("override:") { path = path.dropFirst("override:".count) }
        if path.hasPrefix("Rules/") { path = path.dropFirst("Rules/".count) }
        guard let slash = path.firstIndex(of: "/"), slash > path.startIndex else { return nil }
        return LocaleTag(String(path[..<slash])).language
    }

    /// A style's words split into those of `language` (and of files without a folder) and those of
    /// another language. Without a language (no locale), all are the style's own.
    static func split(_ words: WordTable, language: String?) -> (own: WordTable, other: WordTable) {
        guard let language else { return (words, WordTable()) }
        // The files are few (one or two per style): each file's language is found once.
        var foreign: [String: Bool] = [:]
        func isForeign(_ file: String) -> Bool {
            if let known = foreign[file] { return known }
            let answer = Lexicon.language(ofStyleWordFile: file).map { $0 != language } ?? false
            foreign[file] = answer
            return answer
        }
        guard words.entries.values.contains(where: { isForeign($0.file) }) else { return (words, WordTable()) }
        var own = words, other = WordTable()
        for (key, entry) in words.entries where isForeign(entry.file) {
            own.remove(key)
            other.insert(entry, for: key)
        }
        return (own, other)
    }

    /// The tables in search order (empty ones left out).
    final class Search: Sendable {
        let symbols: [SearchTable]
        let functions: [SearchTable]
        let numbers: [SearchTable]
        let styleFunctions: SearchTable?
        /// The style's words of another language (``Lexicon/otherLanguageStyleWords``), nil when none.
        let otherStyleWords: SearchTable?
        /// The chain's locales of another language than the first, by table (see ``Lexicon``).
        let foreign: [(tag: String, symbols: WordTable, functions: WordTable, numbers: WordTable)]
        /// How numbers are spelled out (the first `number-words` setting of the chain; `table` when none).
        let spelled: SpelledNumbers
        /// The ending rules of each number form, by ``NumberForm/index`` (an array, not a dictionary
        /// keyed by the form: making that dictionary type at start-up costs a search of the
        /// program's conformances, about 0.4M instructions).
        let endings: [EndingRules]
        /// The plural rules (the first locale of the chain that has any).
        let pluralRules: PluralRules
        /// Whether a product of units inflects its first unit (the first `unit-product-inflects` of the chain).
        let productInflectsFirst: Bool

        init(chain: [LocaleWords], styleWords: WordTable, otherStyleWords: WordTable) {
            func tables(_ tables: [WordTable]) -> [SearchTable] { tables.filter { !$0.entries.isEmpty }.map(SearchTable.init) }
            let language = chain.first.map { LocaleTag($0.tag).language } ?? ""
            let own = chain.filter { LocaleTag($0.tag).language == language }
            symbols = tables([styleWords] + own.map(\.symbols))
            functions = tables(own.map(\.functions))
            numbers = tables(own.map(\.numbers))
            styleFunctions = styleWords.entries.isEmpty ? nil : SearchTable(styleWords)
            self.otherStyleWords = otherStyleWords.entries.isEmpty ? nil : SearchTable(otherStyleWords)
            foreign = chain.filter { LocaleTag($0.tag).language != language }.map { ($0.tag, $0.symbols, $0.functions, $0.numbers) }
            spelled = SpelledNumbers(own.lazy.compactMap(\.parsedSettings.numberSpelling).first ?? .table)
            endings = EndingRules.byForm(tables: own.map(\.numbers))
            pluralRules = own.lazy.map(\.parsedSettings.pluralRules).first { !$0.isEmpty } ?? PluralRules()
            productInflectsFirst = own.lazy.compactMap(\.parsedSettings.unitProductInflectsFirst).first ?? false
        }

        /// The words of the first table that has `key`.
        @inline(__always)
        static func words(_ key: String, variant: String?, in tables: [SearchTable]) -> String? {
            tables.withUnsafeBufferPointer { tables in
                for i in tables.indices { if let w = tables[i].words(key, variant: variant) { return w } }
                return nil
            }
        }

        /// The words of the first table that has `key`, in the first of `variants` its entry has.
        static func words(_ key: String, variants: [String], in tables: [SearchTable]) -> String? {
            for t in tables { if let entry = t.entry(key) { return entry.words(variants) } }
            return nil
        }
    }

    /// A word table with its ASCII keys apart. Most look-ups that miss are of ASCII text (a letter
    /// `x` in the symbols), and in a table of mostly non-ASCII keys every probe of a miss compares
    /// the text with a non-ASCII key, the slow path of string comparison; the ASCII keys alone
    /// answer such a miss quickly (a one-byte text by a bit). (``TextTable`` does more, but building
    /// one for the thousands of symbols costs more start-up time than it saves.)
    struct SearchTable: Sendable {
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
            if asciiKeysDecide && cannotHold(key) { return nil }
            return table.words(key, variant: variant)
        }

        /// The entry for `key`.
        func entry(_ key: String) -> WordTable.Entry? {
            if asciiKeysDecide && cannotHold(key) { return nil }
            return table.entries[key]
        }

        /// Whether the ASCII keys alone show that the table has no `key` (only when they decide).
        @inline(__always)
        private func cannotHold(_ key: String) -> Bool {
            do {
                let utf8 = key.utf8
                if utf8.count == 1, let b = utf8.first, b < 0x80 {
                    let bit = b < 64 ? oneByteKeys.0 >> UInt64(b) : oneByteKeys.1 >> UInt64(b - 64)
                    if bit & 1 == 0 { return true }
                } else if utf8.allSatisfy({ $0 < 0x80 }) && !asciiKeys.contains(key) {
                    return true
                }
            }
            return false
        }
    }

    /// Words for a symbol: the style's words of the locale's language (variant), then the symbols of each
    /// locale of the chain in that language. Not another language's (``foreignWords(_:in:variant:)``,
    /// ``otherLanguageStyleWord(_:variants:)``).
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
    /// A spelling of another language's schools without words of its own (`sen`, `lím`) has the words of the name
    /// it spells (`sin`, ``Vocabulary/name(spelled:)``).
    public func function(_ key: String, variant: String?) -> String? {
        if let styleFunctions = search.styleFunctions, let w = styleFunctions.words("fn." + key, variant: variant) { return w }
        if let w = Search.words(key, variant: variant, in: search.functions) { return w }
        return Vocabulary.name(spelled: key).flatMap { function($0, variant: variant) }
    }

    /// Words for a font or enclosure (a `font` property value: `bold`, `circled`): the style's
    /// `font.KEY` entry, then each locale's `fonts.txt`. Empty words make a font silent in a style.
    public func font(_ key: String, variant: String?) -> String? {
        if let styleFunctions = search.styleFunctions, let w = styleFunctions.words("font." + key, variant: variant) { return w }
        for locale in chain {
            if let w = locale.fonts.words(key, variant: variant) { return w }
        }
        return nil
    }

    /// Whether a font's name follows the letter (`position: after` in `fonts.txt`: "2 period").
    public func fontFollows(_ key: String) -> Bool {
        if let entry = styleWords.entries["font." + key] { return entry.variants["position"] == "after" }
        for locale in chain {
            if let entry = locale.fonts.entries[key] { return entry.variants["position"] == "after" }
        }
        return false
    }

    /// Words for a styled letter or digit that no rule speaks (inside a name, an operator): its font's
    /// words and its base's, in the order `fonts.txt` gives (`𝐱` → "bold x", `⒉` → "2 period"). Nil
    /// for a character that is not a styled letter or digit, or whose words are missing.
    public func styledCharacter(_ scalar: Unicode.Scalar, variant: String?) -> String? {
        guard let alphabet = UnicodeMath.alphabet(of: scalar), let font = font(alphabet.font, variant: variant) else { return nil }
        var base = symbol(alphabet.base, variant: variant)
        if base == nil, alphabet.base.utf8.allSatisfy({ $0 < 0x80 }) { base = alphabet.base }
        guard let base else { return nil }
        if font.isEmpty { return base }
        return fontFollows(alphabet.font) ? base + " " + font : font + " " + base
    }

    /// Words for a unit key in the first of `variants` that applies (`plural`, a plural category,
    /// a case): the locale's entry for the key, else words composed from its parts by the locale's
    /// templates — a square or cube (`km²`: `unit.²` "square {unit}"), an SI prefix on a unit (`µs`:
    /// `prefix.µ` "micro{unit}"), a quotient (`km/s`: `unit./` "{unit} per {denominator}") — and a
    /// product (`N m`, factors a space apart) from its factors' words in order, the last as asked,
    /// so a locale lists base units and prefixes once instead of every combination.
    public func unit(_ key: String, variants: [String]) -> String? {
        unit(key, variants: variants, names: true)
    }

    /// ``unit(_:variants:)``; `names`: a key the locale has no words for may be a unit's name
    /// (``written(_:_:)``), looked up once, not again for the unit it names.
    private func unit(_ key: String, variants: [String], names: Bool) -> String? {
        if let w = unitEntry(key, variants) { return w }
        // A quotient without an entry (`km/s`, `mg/L`, `kg/m³`): the first unit as asked, each one after
        // a `/` in the singular, joined by the locale's `unit./` template ("{unit} per {denominator}").
        // A locale whose "per" differs with the denominator names that quotient's template (Russian
        // `unit./h  {unit} в час` beside `unit./  {unit} на {denominator@accusative}`); the denominator
        // is asked in the form `{denominator@FORM}` names, its singular without one.
        if key.utf8.contains(0x2F) {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 2, var words = unit(String(parts[0]), variants: variants, names: names) else { return nil }
            let general = unitEntry("unit./", variants)
            for part in parts.dropFirst() {
                if let own = unitEntry("unit./" + part, variants) {
                    words = Lexicon.fill(own, words)
                    continue
                }
                guard let template = general else { return nil }
                let (slot, form) = Lexicon.denominatorSlot(template)
                guard let denominator = unit(String(part), variants: form.map { [$0] } ?? [], names: names) else { return nil }
                words = Lexicon.fill(template.replacingOccurrences(of: slot, with: denominator), words)
            }
            return words
        }
        // A product without an entry (`N m`, `kg m²`: factors a space apart, as the analysis writes a
        // product of unit symbols): each factor's words in order, the last as asked and the others in
        // the singular ("newton meters", "kilogram square meters"), or the first as asked where the
        // locale says so (`unit-product-inflects first`: Spanish "newtons metro"). A key whose parts are not all units
        // (a unit's name of two words, `square feet`) is no product, nor is a name written out that the
        // locale or the markup's language knows (`fl oz`, not femtoliter ounces).
        if key.utf8.contains(0x20) {
            if names, let w = written(key, variants) { return w }
            let factors = key.split(separator: " ")
            if factors.count >= 2 {
                var words: [String] = []
                let inflected = search.productInflectsFirst ? 0 : factors.count - 1
                for (i, factor) in factors.enumerated() {
                    guard let w = unit(String(factor), variants: i == inflected ? variants : [], names: false) else { break }
                    words.append(w)
                }
                if words.count == factors.count { return words.joined(separator: " ") }
            }
        }
        var core = key
        if let last = key.unicodeScalars.last, last == "²" || last == "³" {
            core = String(String.UnicodeScalarView(key.unicodeScalars.dropLast()))
            let own = unitEntry(core)
            if let w = own?.words(variants) ?? prefixed(core, variants) ?? abbreviated(core, variants),
               let template = unitEntry("unit." + String(last), agreeing(variants, with: genderEntry(core, own))) {
                return Lexicon.fill(template, w)
            }
            return nil
        }
        // A prefix on a unit only the locale names is the last guess, after a written name (`day` is
        // no deka-y).
        return prefixed(core, variants) ?? abbreviated(core, variants) ?? (names ? written(key, variants) : nil)
            ?? prefixed(core, variants, localeUnits: true)
    }

    /// Words for a unit written out in the markup (`ounces`, `square feet`) that the locale has no entry
    /// for: a name in the locale's own words is said as the author wrote it; a name in the markup's
    /// language (``markupUnitNames``) is said as the unit symbol it names (`oz`), in the locale's words.
    private func written(_ key: String, _ variants: [String]) -> String? {
        guard key.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) else { return nil }
        if ownUnitNames.key(key) != nil { return key }
        guard let symbol = markupUnitNames.key(key), symbol != key else { return nil }
        return unit(symbol, variants: variants, names: false)
    }

    /// The entry that gives a unit's grammatical gender (`gender: feminine` in `units.txt`: French
    /// `s  seconde | plural: secondes | gender: feminine`): the unit's own entry (`own`, already looked
    /// up) if it names one, else its base unit's (`ms`, a prefix on `s`; `sec`, an abbreviation of `s`).
    /// Nil when none names one.
    private func genderEntry(_ key: String, _ own: WordTable.Entry?) -> WordTable.Entry? {
        func named(_ entry: WordTable.Entry?) -> WordTable.Entry? {
            entry.flatMap { e in e.variants.keys.contains(where: { $0 == "gender" || $0.hasPrefix("gender.") }) ? e : nil }
        }
        if let entry = named(own) { return entry }
        if let (_, base) = UnitSymbols.prefixParts(key), let entry = named(unitEntry(base)) { return entry }
        return named(UnitSymbols.symbol(abbreviation: key).flatMap { unitEntry($0) })
    }

    /// The variants to ask of a template that agrees with a unit (`unit.²  {unit} carré | plural: {unit}
    /// carrés | feminine: {unit} carrée | feminine.plural: {unit} carrées`): the unit's gender as one more
    /// variant component, through ``variantCandidates(_:)`` as a rule's `@feminine@plural` is
    /// (`feminine.plural`, `feminine`, `plural`). A noun whose gender changes with number names its
    /// plural's (Italian `miglio | plural: miglia | gender: masculine | gender.plural: feminine`).
    private func agreeing(_ variants: [String], with unit: WordTable.Entry?) -> [String] {
        guard let unit, let gender = variants.lazy.compactMap({ unit.variants["gender." + $0] }).first ?? unit.variants["gender"]
        else { return variants }
        return variantCandidates([[gender], variants])
    }

    /// Words for an abbreviation of a unit the locale has no entry for: its symbol's (`sec` → `s`).
    private func abbreviated(_ key: String, _ variants: [String]) -> String? {
        UnitSymbols.symbol(abbreviation: key).flatMap { unitEntry($0, variants) }
    }

    /// Words for a unit key, singular or plural (``unit(_:variants:)`` with the `plural` variant).
    public func unit(_ key: String, plural: Bool) -> String? {
        unit(key, variants: plural ? ["plural"] : [])
    }

    /// Words for a prefixed unit (``UnitSymbols/prefixParts(_:alsoPrefixable:)``); with `localeUnits`, the
    /// locale's units take the SI prefixes too where no symbol names them (a unit marked in the markup:
    /// `nas`, a locale's `as` for the second of arc; `hu`, the atomic mass unit).
    private func prefixed(_ key: String, _ variants: [String], localeUnits: Bool = false) -> String? {
        guard let (prefix, base) = UnitSymbols.prefixParts(key, alsoPrefixable: localeUnits ? { unitEntry($0) != nil } : nil),
              let w = unitEntry(base, variants), let template = unitEntry("prefix." + prefix, variants) else { return nil }
        return Lexicon.fill(template, w)
    }

    private func unitEntry(_ key: String, _ variants: [String]) -> String? {
        unitEntry(key)?.words(variants)
    }

    /// The unit entry for `key` in the first locale of the chain, of the locale's language, that has one.
    private func unitEntry(_ key: String) -> WordTable.Entry? {
        for locale in chain where LocaleTag(locale.tag).language == LocaleTag(tag).language {
            if let entry = locale.units.entries[key] { return entry }
        }
        return nil
    }

    /// The unit names of the locale written out in words, for the analysis (``UnitNames``): every
    /// forms listed after `| written:` first (comma-separated), then each unit entry's words and
    /// variants (singular, plural, cases), in file order; only entries whose key is a unit symbol.
    /// Made when the analysis or the lexicon first looks a written name up (see ``UnitNames/init(lazy:)``),
    /// once for both.
    public var unitNames: UnitNames { ownUnitNames }

    /// The pairs of ``unitNames``, from the unit tables of the locale's language.
    private static func unitNamePairs(_ tables: [WordTable]) -> [(name: String, unit: String)] {
        var written: [(name: String, unit: String)] = []
        var words: [(name: String, unit: String)] = []
        for table in tables {
            for (key, entry) in table.entries.sorted(by: { $0.value.line < $1.value.line }) where UnitNames.isSymbol(key) {
                if let forms = entry.variants["written"] {
                    written += forms.split(separator: ",").map { ($0.trimmingSpaces, key) }
                }
                words.append((entry.words, key))
                for (name, form) in entry.variants.sorted(by: { $0.key < $1.key }) where name != "written" && !name.hasPrefix("gender") {
                    words.append((form, key))
                }
            }
        }
        return written + words
    }

    /// The denominator's place in a `unit./` template as written (`{denominator}`,
    /// `{denominator@accusative}`) and the form it names, if any.
    static func denominatorSlot(_ template: String) -> (slot: String, form: String?) {
        guard let start = template.range(of: "{denominator@"),
              let end = template[start.upperBound...].firstIndex(of: "}") else { return ("{denominator}", nil) }
        let form = String(template[start.upperBound..<end])
        return (String(template[start.lowerBound...end]), form.isEmpty ? nil : form)
    }

    /// A template's `{unit}` replaced by words (the template itself when it has no `{unit}`).
    /// A template glued to the unit's words (`Mikro{unit}`, `Quadrat{unit}`) makes one compound word,
    /// whose second part continues in small letters: German `Sekunden` gives "Mikrosekunden", not
    /// "MikroSekunden" (a capital only starts a word). A template with a space keeps the words as they are.
    static func fill(_ template: String, _ words: String) -> String {
        guard let r = template.range(of: "{unit}") else { return template + words }
        let before = r.lowerBound > template.startIndex ? template[template.index(before: r.lowerBound)] : nil
        return template.replacingCharacters(in: r, with: compoundPart(words, after: before))
    }

    /// `words` as the second part of one compound word after the character `last` (nil: none): after a
    /// letter, a capital that starts words of small letters continues in a small letter (German "Sekunde"
    /// after "Quadrat"); a capital alone (a letter's name) and words after a space stay. Unit templates
    /// (``fill(_:_:)``) and words a rule's template glues to a reference (``SpeechDescription``) both.
    static func compoundPart(_ words: String, after last: Character?) -> String {
        guard let last, last.isLetter, let first = words.first, first.isUppercase,
              words.dropFirst().first.map({ $0.isLowercase }) ?? false else { return words }
        return first.lowercased() + words.dropFirst()
    }

    /// A number-words entry (`cardinal.3`, `denominator.4`).
    public func number(_ key: String, variant: String? = nil) -> String? {
        Search.words(key, variant: variant, in: search.numbers)
    }

    /// A number-words entry in the first of `variants` it has.
    public func number(_ key: String, variants: [String]) -> String? {
        variants.isEmpty ? Search.words(key, variant: nil, in: search.numbers) : Search.words(key, variants: variants, in: search.numbers)
    }

    /// Words by key (`{@key}` in a template): the style's words and the locale's symbols, then its
    /// number words, in the first of `variants` the entry has.
    public func keyed(_ key: String, variants: [String]) -> String? {
        Search.words(key, variants: variants, in: search.symbols) ?? Search.words(key, variants: variants, in: search.numbers)
    }

    /// Words a style's word file of another language gives for `key` (English MathSpeak's name of a
    /// symbol, `ms.start-fraction` of its structure, `fn.ln`), in the first of `variants` the entry has,
    /// with the entry (its file and line): the last resort before a readable name, after the locale's
    /// own words and its parents' (``symbol(_:variant:)``, ``foreignWords(_:in:variant:)``). A speech run
    /// says them and reports a `speech.missing-word`; `rules lint` lists every such key.
    public func otherLanguageStyleWord(_ key: String, variants: [String]) -> (words: String, entry: WordTable.Entry)? {
        guard let table = search.otherStyleWords, let entry = table.entry(key) else { return nil }
        return (entry.words(variants), entry)
    }

    /// Words for a key that a rule's structure needs (a counted word `ms.start-fraction.2`, a level word
    /// `ms.level.super`): the locale's (``symbol(_:variant:)``), else a style's word file of another
    /// language (``otherLanguageStyleWord(_:variants:)``), so a structure is never silent; `rules lint`
    /// warns about the second.
    public func structureWord(_ key: String, variant: String?) -> String? {
        symbol(key, variant: variant) ?? otherLanguageStyleWord(key, variant: variant)
    }

    /// The words of ``otherLanguageStyleWord(_:variants:)`` for one variant (or none), without the entry:
    /// for a caller that has looked the locale's words up already.
    func otherLanguageStyleWord(_ key: String, variant: String?) -> String? {
        otherLanguageStyleWord(key, variants: variant.map { [$0] } ?? []).map(\.words)
    }

    /// Words that only a parent locale of another language has (see ``Lexicon``), with its tag: the
    /// symbols (`symbols`), function names (`functions`) or number words (`numbers`).
    public func foreignWords(_ key: String, in table: String, variant: String?) -> (words: String, locale: String)? {
        for locale in search.foreign {
            let t = table == "functions" ? locale.functions : table == "numbers" ? locale.numbers : locale.symbols
            if let w = t.words(key, variant: variant) { return (w, locale.tag) }
        }
        return nil
    }

    /// The words a locale gives a character it has no word for: its `unnamed-character` entry
    /// (`character {code}`, with `{code}` the code point in hexadecimal) for a character without a
    /// Unicode name. A character with a name is read by its Unicode name in lower case (and reported).
    public func readableName(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            if let name = scalar.properties.name { return name.lowercased() }
            let code = String(scalar.value, radix: 16)
            guard let template = symbol("unnamed-character", variant: nil) else { return code }
            return template.replacingOccurrences(of: "{code}", with: code)
        }.joined(separator: " ")
    }
}
