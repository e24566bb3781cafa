import Foundation

/// The kinds of number words templates ask for (`{numerator:cardinal}`, `{index:root-index}`, see
/// Rules/README.md), each formed the same way in every locale from the locale's data (DESIGN.md §5:
/// one mechanism, no Swift per language):
///
/// - **cardinal**: the `cardinal.N` entry of `numbers.txt`, else the number spelled out by the
///   locale's `number-words` setting (ICU's rule-based spell-out through Foundation); a negative
///   number is the `negative` word before the cardinal of its absolute value.
/// - **ordinal**: the `ordinal.N` entry, else the cardinal with its ending changed by the first
///   `ordinal-ending.E` rule whose ending `E` it has (longest first; `*` matches any word).
/// - **denominator**, **root-index**: the `denominator.N` / `root.N` entry, else the ordinal changed
///   by the `denominator-ending.E` / `root-ending.E` rules (the ordinal as it is when there are none).
/// - **power**: only the `power.N` entries (`squared`).
///
/// A form with variants (`{n:cardinal@feminine}`, `{d:denominator@plural}`) takes the entry's or the
/// rule's variant of that name (Locales/README.md, "Variants"); `cardinal-ending.E` rules change each
/// word of a spelled-out cardinal into such a variant (Russian `пять` → genitive `пяти`).
public enum NumberForm: String, Sendable, CaseIterable {
    case cardinal, ordinal, denominator, rootIndex = "root", power

    /// The prefix of the form's entries (`cardinal.3`) and, with `-ending`, of its ending rules.
    var keyPrefix: String { rawValue }

    /// The form's place in ``allCases``.
    var index: Int {
        switch self {
        case .cardinal: 0
        case .ordinal: 1
        case .denominator: 2
        case .rootIndex: 3
        case .power: 4
        }
    }
}

/// How a locale spells out the integers its `numbers.txt` does not list (`number-words` in
/// `locale.txt`). Unknown values are an error when the locale loads.
public enum NumberSpelling: Sendable, Hashable {
    /// ICU's rule-based number spell-out (`NumberFormatter` with `.spellOut`) for an ICU locale
    /// identifier: `number-words  icu` uses the locale's tag, `number-words  icu zh-Hant` names one.
    case icu(String)
    /// Only the numbers `numbers.txt` lists (`number-words  table`): others have no words, and
    /// templates fall back to digits.
    case table

    /// The values the setting accepts, for messages.
    static let accepted = "'icu', 'icu ICU-LOCALE-ID' or 'table'"

    /// Reads the setting's value; nil when it is not one of ``accepted``.
    init?(setting: String, tag: String) {
        let words = setting.split(separator: " ").map(String.init)
        switch words.first {
        case "icu" where words.count == 1: self = .icu(tag)
        case "icu" where words.count == 2: self = .icu(words[1])
        case "table" where words.count == 1: self = .table
        default: return nil
        }
    }
}

/// ICU spell-out for one locale, shared by the engines of that locale: a formatter made on first use
/// (so a speaker that never spells out a number never loads ICU's rules), used under a lock (an ICU
/// formatter is not safe to share between threads), and the words of the numbers spelled so far
/// (bounded). Soft hyphens (U+00AD, which ICU puts between the parts of German, Finnish or Swedish
/// numbers) are removed.
final class SpelledNumbers: @unchecked Sendable {
    let spelling: NumberSpelling
    private let lock = NSLock()
    private var formatter: NumberFormatter? = nil
    private var cache: [Int: String] = [:]
    private static let cacheLimit = 4096

    init(_ spelling: NumberSpelling) { self.spelling = spelling }

    /// Whether spelling out needs ICU (false for `table`).
    var usesICU: Bool { if case .icu = spelling { true } else { false } }

    /// The spelled-out words of `n`, nil for `table` or when ICU has none.
    func words(_ n: Int) -> String? {
        guard case .icu(let identifier) = spelling else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[n] { return cached }
        let f: NumberFormatter
        if let formatter { f = formatter } else {
            f = NumberFormatter()
            f.numberStyle = .spellOut
            f.locale = Locale(identifier: identifier)
            formatter = f
        }
        guard var text = f.string(from: NSNumber(value: n)) else { return nil }
        text.unicodeScalars.removeAll { $0 == "\u{AD}" }
        if cache.count >= SpelledNumbers.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[n] = text
        return text
    }
}

/// Rules that change the ending of a word (`ordinal-ending.y  *ieth`: "twenty" → "twentieth"): the
/// longest ending that matches wins, `*` matches any word; in the rule's words `*` stands for the word
/// without its ending.
struct EndingRules: Sendable {
    /// (ending, entry), longest ending first, `*` last.
    let rules: [(ending: String, entry: WordTable.Entry)]

    /// The rules of each number form (by ``NumberForm/index``) of a chain of number tables, keys
    /// `FORM-ending.ENDING` (a more specific table's rule for an ending replaces its parent's). The
    /// tables' keys are read once for the five forms, each key's form found by the bytes before its
    /// first `-` (no form's name has one) and only then tested as a string: each key tested with
    /// `hasPrefix` per form (slow for a key that is not ASCII), and the rules sorted on lengths
    /// counted per comparison, took 6.4 M instructions for Polish's 109 rules (`mathaloud speak
    /// --locale pl 'x^2'` under callgrind).
    static func byForm(tables: [WordTable]) -> [EndingRules] {
        let heads = NumberForm.allCases.map { $0.keyPrefix + "-ending." }
        let names = NumberForm.allCases.map { Array($0.keyPrefix.utf8) }
        var byEnding = [[String: WordTable.Entry]](repeating: [:], count: heads.count)
        for table in tables {
            for (key, entry) in table.entries {
                var key = key
                let form = key.withUTF8 { bytes -> Int? in
                    guard let dash = bytes.firstIndex(of: 0x2D) else { return nil }
                    return names.firstIndex { $0.elementsEqual(bytes[..<dash]) }
                }
                guard let form, key.hasPrefix(heads[form]) else { continue }
                let ending = String(key.dropFirst(heads[form].count))
                if byEnding[form][ending] == nil { byEnding[form][ending] = entry }
            }
        }
        return byEnding.map(EndingRules.init)
    }

    /// The rules of one form, by their endings.
    private init(_ byEnding: [String: WordTable.Entry]) {
        // Sorted on each ending's length counted once, not per comparison.
        let sorted = byEnding.map { (isAny: $0.key == "*", length: $0.key.count, ending: $0.key) }.sorted { a, b in
            if a.isAny || b.isAny { return b.isAny && !a.isAny }
            return (a.length, a.ending) > (b.length, b.ending)
        }
        rules = sorted.map { ($0.ending, byEnding[$0.ending]!) }
    }

    var isEmpty: Bool { rules.isEmpty }

    /// `word` with its ending changed by the first rule that matches (its variant from `variants`),
    /// nil when none matches.
    func apply(_ word: String, variants: [String]) -> String? {
        for rule in rules where rule.ending == "*" || word.hasSuffix(rule.ending) {
            let stem = rule.ending == "*" ? word : String(word.dropLast(rule.ending.count))
            let template = rule.entry.words(variants)
            // An ASCII template (each byte a character) has its `*`s replaced on its bytes, without
            // Foundation (whose first use costs about a million instructions at start-up).
            guard template.utf8.allSatisfy({ $0 < 0x80 }) else { return template.replacingOccurrences(of: "*", with: stem) }
            var out: [UInt8] = []
            for byte in template.utf8 {
                if byte == 0x2A { out.append(contentsOf: stem.utf8) } else { out.append(byte) }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return nil
    }
}

extension WordTable.Entry {
    /// The words of the first of `variants` the entry has, else its main words.
    func words(_ variants: [String]) -> String {
        for v in variants { if let w = self.variants[v] { return w } }
        return words
    }
}

/// The variant names to try, most specific first, for variant components (`@feminine@genitive`):
/// every ordered selection of the components joined by `.`, longer before shorter and earlier
/// components first (`feminine.genitive`, `feminine`, `genitive`), each component taken in its
/// alternatives' order (a plural category `few` is tried as `few`, then as `plural`).
func variantCandidates(_ components: [[String]]) -> [String] {
    let k = components.count
    guard k > 0 else { return [] }
    var out: [String] = []
    // Subsets by size, descending; within a size, in lexicographic order of positions.
    for size in stride(from: k, through: 1, by: -1) {
        var positions = Array(0..<size)
        while true {
            var names = [""]
            for p in positions {
                names = names.flatMap { prefix in components[p].map { prefix.isEmpty ? $0 : prefix + "." + $0 } }
            }
            for n in names where !out.contains(n) { out.append(n) }
            // Next combination.
            var i = size - 1
            while i >= 0 && positions[i] == k - size + i { i -= 1 }
            if i < 0 { break }
            positions[i] += 1
            for j in (i + 1)..<size { positions[j] = positions[j - 1] + 1 }
        }
    }
    return out
}

extension Lexicon {
    /// The words of integer `n` in `form`, in the first of `variants` that applies (see
    /// ``NumberForm``); nil when the locale has none.
    public func numberWords(_ n: Int, _ form: NumberForm, variants: [String] = []) -> String? {
        var needsSpellOut = false
        return numberWords(n, form, variants: variants, spellOut: true, needsSpellOut: &needsSpellOut)
    }

    /// ``numberWords(_:_:variants:)``; with `spellOut` false, a number that needs spelling out has no
    /// words and sets `needsSpellOut` (so start-up never loads ICU).
    func numberWords(_ n: Int, _ form: NumberForm, variants: [String], spellOut: Bool, needsSpellOut: inout Bool) -> String? {
        if let w = number("\(form.keyPrefix).\(n)", variants: variants) { return w }
        switch form {
        case .power:
            return nil
        case .cardinal:
            if n < 0 {
                guard n != .min, let magnitude = numberWords(-n, .cardinal, variants: variants, spellOut: spellOut,
                                                             needsSpellOut: &needsSpellOut) else { return nil }
                if let minus = number("negative", variants: variants) { return minus + " " + magnitude }
            }
            guard search.spelled.usesICU else { return nil }
            guard spellOut else { needsSpellOut = true; return nil }
            guard let spelled = search.spelled.words(n) else { return nil }
            let rules = search.endings[NumberForm.cardinal.index]
            guard !variants.isEmpty, !rules.isEmpty else { return spelled }
            return spelled.split(separator: " ").map { word in rules.apply(String(word), variants: variants) ?? String(word) }
                .joined(separator: " ")
        case .ordinal:
            guard n >= 0, let cardinal = numberWords(n, .cardinal, variants: [], spellOut: spellOut, needsSpellOut: &needsSpellOut) else {
                return nil
            }
            return search.endings[NumberForm.ordinal.index].apply(cardinal, variants: variants)
        case .denominator, .rootIndex:
            let rules = search.endings[form.index]
            if rules.isEmpty { return numberWords(n, .ordinal, variants: variants, spellOut: spellOut, needsSpellOut: &needsSpellOut) }
            guard let ordinal = numberWords(n, .ordinal, variants: [], spellOut: spellOut, needsSpellOut: &needsSpellOut) else {
                return nil
            }
            return rules.apply(ordinal, variants: variants)
        }
    }

    /// An ordinal written with digits (MathSpeak's "1st", Chinese "第1"): `n` with the suffix
    /// `ordinal-suffix.N` for its last two digits, else its last digit, else `ordinal-suffix.other`, and
    /// the prefix `ordinal-prefix.N` chosen the same way; nil when the locale has neither.
    public func ordinalNumeral(_ n: Int, variants: [String] = []) -> String? {
        func affix(_ key: String) -> String? {
            number("\(key).\(n % 100)", variants: variants) ?? number("\(key).\(n % 10)", variants: variants)
                ?? number("\(key).other", variants: variants)
        }
        let suffix = affix("ordinal-suffix"), prefix = affix("ordinal-prefix")
        if suffix == nil && prefix == nil { return nil }
        return "\(prefix ?? "")\(n)\(suffix ?? "")"
    }

    /// What makes a letter an ordinal: the `ordinal-prefix` entry before it (Indonesian "ke-n", Chinese
    /// "第n") and the `ordinal-suffix` entry after it (English "n-th"); nil when the locale has neither.
    public func letterOrdinalAffixes(variants: [String] = []) -> LetterOrdinalAffixes? {
        let prefix = number("ordinal-prefix", variants: variants), suffix = number("ordinal-suffix", variants: variants)
        if prefix == nil && suffix == nil { return nil }
        return LetterOrdinalAffixes(prefix: prefix ?? "", suffix: suffix ?? "")
    }

    /// The plural category (`one`, `few`, `other`…) of a number written in digits, by the locale's
    /// `plural.CATEGORY` rules.
    public func pluralCategory(of number: String) -> String {
        search.pluralRules.category(of: number)
    }
}

/// The words around a letter said as an ordinal (``Lexicon/letterOrdinalAffixes(variants:)``).
public struct LetterOrdinalAffixes: Sendable {
    /// Written right before the letter ("ke-", "第"; empty when the language has none).
    public let prefix: String
    /// Written right after the letter ("-th"; empty when the language has none).
    public let suffix: String
}
