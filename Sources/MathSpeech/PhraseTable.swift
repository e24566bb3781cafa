import MathSyntax

/// The phrases of a rule file inherited from another language, translated (DESIGN.md §5: a locale is
/// data, and structure is shared). A locale's rule file can inherit another language's rules whole —
/// `inherit en/clearspeak` — and give, in a phrase file (`phrases clearspeak` →
/// `Rules/<locale>/clearspeak.phrases`), the translation of every run of literal words in their
/// templates:
///
///     # English phrase => this locale's phrase
///     the square root of => die Quadratwurzel aus
///     [fraction-complex] and denominator => und Nenner      # only in the rule fraction-complex
///     end root =>                                            # nothing
///
/// The inherited rules are translated when the style loads (so speaking costs nothing more), their
/// English examples are dropped (the locale's own rules carry its examples), and a phrase without a
/// translation stays as it is and is listed in ``SpeechStyle/untranslatedPhrases``. Rules whose grammar differs — word order, agreement — are written in the
/// locale's own file, before the inherited ones.
public struct PhraseTable: Sendable, Hashable {
    /// Translations by phrase, and by `[rule] phrase` for a rule's own translation.
    public private(set) var entries: [String: String] = [:]
    /// The rules some entry is given for (`[rule] phrase`): only their words are looked up under
    /// their name, so translating an inherited rule makes no key string for the others.
    private var rulesWithOwnTranslations: Set<String> = []

    /// An empty table.
    public init() {}

    /// Parses a phrase file; every malformed line is reported with its file and line.
    public init(parsing text: String, file: String) throws(RuleFileErrors) {
        var errors: [RuleFileError] = []
        // On the file's UTF-8 bytes (a locale that inherits another language's rules reads its phrase
        // files at every start-up: split into lines and searched as characters, `speak 'x^2' --locale fr`
        // spent 13.8 M of its 133.5 M instructions under callgrind here; session 44). Space, tab, CR,
        // `#`, `=`, `>`, `[` and `]` are single bytes that never occur inside a multi-byte sequence.
        text.withBytes { bytes in
            func trimmed(_ from: Int, _ to: Int) -> Range<Int> { trimmedRange(bytes, from, to) }
            func string(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
            for (number, range) in ByteLines(bytes) {
                let line = trimmed(range.lowerBound, range.upperBound)
                if line.isEmpty || bytes[line.lowerBound] == 0x23 { continue }
                var arrow = line.lowerBound
                while arrow + 1 < line.upperBound, !(bytes[arrow] == 0x3D && bytes[arrow + 1] == 0x3E) { arrow += 1 }
                guard arrow + 1 < line.upperBound else {
                    errors.append(RuleFileError(file: file, line: number, column: 1, rule: nil,
                                                message: "write 'phrase => translation' (the translation may be empty)"))
                    continue
                }
                // The translation runs to a `#` (a comment) or the line's end.
                var valueEnd = arrow + 2
                while valueEnd < line.upperBound, bytes[valueEnd] != 0x23 { valueEnd += 1 }
                let value = string(trimmed(arrow + 2, valueEnd))
                var keyRange = trimmed(line.lowerBound, arrow)
                var rule = ""
                if !keyRange.isEmpty, bytes[keyRange.lowerBound] == 0x5B,
                   let close = keyRange.dropFirst().first(where: { bytes[$0] == 0x5D }) {
                    rule = string(trimmed(keyRange.lowerBound + 1, close))
                    keyRange = trimmed(close + 1, keyRange.upperBound)
                }
                let key = PhraseTable.normalized(string(keyRange))
                if key.isEmpty {
                    errors.append(RuleFileError(file: file, line: number, column: 1, rule: nil, message: "a phrase to translate is missing before '=>'"))
                    continue
                }
                let full = rule.isEmpty ? key : "[\(rule)] \(key)"
                if entries[full] != nil {
                    errors.append(RuleFileError(file: file, line: number, column: 1, rule: nil, message: "'\(full)' is translated twice"))
                }
                entries[full] = value
                if !rule.isEmpty { rulesWithOwnTranslations.insert(rule) }
            }
        }
        if !errors.isEmpty { throw RuleFileErrors(errors: errors, partial: nil) }
    }

    /// Entries of `other` that this table lacks are added (this table's win).
    public mutating func merge(_ other: PhraseTable) {
        for (k, v) in other.entries where entries[k] == nil { entries[k] = v }
        rulesWithOwnTranslations.formUnion(other.rulesWithOwnTranslations)
    }

    /// The translation of a phrase in a rule, nil when there is none.
    public func translation(of phrase: String, rule: String) -> String? {
        let key = PhraseTable.normalized(phrase)
        if rulesWithOwnTranslations.contains(rule), let own = entries["[\(rule)] \(key)"] { return own }
        return entries[key]
    }

    /// Words one space apart.
    static func normalized(_ phrase: String) -> String {
        // A phrase without a tab, two spaces in a row or a space at either end is its own normal form
        // (every space and tab character is such a byte): returned as it is, without splitting it into
        // characters (each inherited rule's words are looked up when a locale that inherits another
        // language's rules loads: 10.8 M of the 140.5 M instructions of `speak 'x^2' --locale fr`
        // under callgrind went to translating them; session 43).
        let isNormal = phrase.withBytes { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return bytes.isEmpty }
            var previous: UInt8 = 0
            for b in bytes {
                if b == 0x09 || (b == 0x20 && previous == 0x20) { return false }
                previous = b
            }
            return true
        }
        if isNormal { return phrase }
        return phrase.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}

/// A run of literal words in an inherited rule that the locale's phrase file does not translate.
public struct UntranslatedPhrase: Sendable, Hashable {
    /// The words.
    public let phrase: String
    /// The rule they are in.
    public let rule: String
    /// The rule's file and line (`en/clearspeak.rules:120`).
    public let location: String
}

extension SpeechRule {
    /// This rule with its literal words translated by `phrases` (and without its examples); the
    /// phrases with no translation are appended to `missing`, except those without a letter, which
    /// belong to no language (punctuation written in a template). Punctuation around words is kept
    /// around the words' translation (`with label (` is `merkinnällä (`).
    func translated(by phrases: PhraseTable, missing: inout [UntranslatedPhrase]) -> SpeechRule {
        var rule = self
        rule.translate(by: phrases, missing: &missing)
        return rule
    }

    /// ``translated(by:missing:)`` in place: a style translates the rules of every inherited file at
    /// start-up, and a copy of each rule made and the old one destroyed cost 1.2 M of the 101 M
    /// instructions of `mathaloud speak --locale fr 'x^2'` under callgrind (session 46).
    mutating func translate(by phrases: PhraseTable, missing: inout [UntranslatedPhrase]) {
        var template: [TemplatePart] = []
        // Room for every part at once (grown by appending, 1,827 reallocations for French, 0.7 M).
        template.reserveCapacity(self.template.count)
        for part in self.template {
            guard case .words(let w) = part else { template.append(part); continue }
            if let t = phrases.translation(of: w, rule: name) {
                if !t.isEmpty { template.append(.words(t)) }
            } else if !w.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) {
                // Words without a letter (the parentheses around a label, "(…)") belong to no language.
                template.append(part)
            } else if let (head, words, tail) = SpeechRule.punctuationAround(w), let t = phrases.translation(of: words, rule: name) {
                // Punctuation before or after the words (`with label ({text})`) stays as written around
                // their translation.
                template.append(.words(head + t + tail))
            } else {
                missing.append(UntranslatedPhrase(phrase: PhraseTable.normalized(w), rule: name, location: "\(file):\(line)"))
                template.append(part)
            }
        }
        // The rule itself with its words translated (every other field kept), without its examples,
        // which are English's.
        self.template = template
        examples = []
    }

    /// `w` split into the punctuation (and spaces) before its first letter, the words, and the
    /// punctuation after its last letter or digit; nil when there is no punctuation around the words.
    static func punctuationAround(_ w: String) -> (head: String, words: String, tail: String)? {
        let scalars = Array(w.unicodeScalars)
        func isWord(_ u: Unicode.Scalar) -> Bool { u.properties.isAlphabetic || u.properties.numericType != nil }
        guard let first = scalars.firstIndex(where: isWord), let last = scalars.lastIndex(where: isWord),
              first > 0 || last < scalars.count - 1 else { return nil }
        func string(_ s: ArraySlice<Unicode.Scalar>) -> String { String(String.UnicodeScalarView(s)) }
        return (string(scalars[..<first]), string(scalars[first...last]), string(scalars[(last + 1)...]))
    }
}
