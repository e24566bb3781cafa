/// A BCP 47 language tag naming a locale (`en`, `en-GB`, `de-AT`). Tags compare case-insensitively
/// (`en-gb` is `en-GB`) and `_` is read as `-`, as BCP 47 and POSIX locales spell them.
///
/// A tag resolves by fallback (RFC 4647 §3.4, "lookup"): the tag itself, then each shorter tag made by
/// dropping the last subtag (`en-US-x-test` → `en-US` → `en`), so `en-GB` speaks with the `en` rules
/// until `Rules/en-GB/` exists, and `de-AT` with `de`'s. A locale's own `locale.txt` may still inherit
/// words from a parent (`parent = en`), which is a different chain: the words of a locale that exists.
public struct LocaleTag: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    /// The tag as given, with `_` turned into `-`.
    public let rawValue: String

    /// A tag from its text.
    public init(rawValue: String) {
        // No Foundation search for the usual tag without `_` (tags are compared while a speaker loads).
        self.rawValue = rawValue.utf8.contains(0x5F) ? String(decoding: rawValue.utf8.map { $0 == 0x5F ? 0x2D : $0 }, as: UTF8.self)
                                                     : rawValue
    }
    /// A tag from its text.
    public init(_ text: String) { self.init(rawValue: text) }
    /// A tag from a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// Decodes the tag's text.
    public init(from decoder: any Decoder) throws { self.init(rawValue: try decoder.singleValueContainer().decode(String.self)) }
    /// Encodes the tag's text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// English, the default.
    public static let english: LocaleTag = "en"

    /// The tag's text.
    public var description: String { rawValue }

    /// Equal ignoring case.
    public static func == (a: LocaleTag, b: LocaleTag) -> Bool {
        // ASCII tags (all real ones) without making lowercased strings.
        if a.rawValue.utf8.allSatisfy({ $0 < 0x80 }) && b.rawValue.utf8.allSatisfy({ $0 < 0x80 }) {
            return a.rawValue.utf8.elementsEqual(b.rawValue.utf8) { x, y in
                (x >= 65 && x <= 90 ? x + 32 : x) == (y >= 65 && y <= 90 ? y + 32 : y)
            }
        }
        return a.rawValue.lowercased() == b.rawValue.lowercased()
    }
    /// Hashes the lowercased tag.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue.lowercased()) }

    /// The tag as BCP 47 writes it, in its conventional case (RFC 5646 §2.1.1: language lower case,
    /// region upper case, script title case, all after a singleton lower case: `zh-tw` → `zh-TW`, `sr-latn-rs` → `sr-Latn-RS`; `en` and
    /// `pt-BR` as they are), the one form every output that names a language writes (SVG `lang` and
    /// `xml:lang`, PDF `/Lang`, SSML `xml:lang`). Nil unless the tag is letters and digits in subtags of
    /// 1–8 joined by `-`, starting with letters (so it can be written into XML and PDF as it is).
    public var bcp47: String? {
        let text = rawValue
        // The usual name (`en`, `de`) is its own tag: nothing to split.
        if (2...3).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) { return text }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        let parts = subtags
        guard parts.allSatisfy({ (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) } }),
              parts[0].utf8.allSatisfy(isLetter) else { return nil }
        // Subtags after a singleton (an extension, `x-` private use) are lower case, whatever their length.
        var afterSingleton = false
        return parts.enumerated().map { i, part in
            if part.count == 1 { afterSingleton = true }
            if i == 0 || afterSingleton { return part.lowercased() }
            if part.count == 2 { return part.uppercased() }
            if part.count == 4 { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            return part.lowercased()
        }.joined(separator: "-")
    }

    /// The primary language subtag, lower case (`de` for `de-AT`): locales of one language share it.
    public var language: String { subtags.first.map { $0.lowercased() } ?? "" }

    /// The subtags (`en`, `GB`).
    public var subtags: [Substring] { rawValue.split(separator: "-", omittingEmptySubsequences: false) }

    /// The lookup chain: this tag, then each shorter one (`en-US` → [`en-US`, `en`]). A single-letter
    /// subtag (an extension or private-use singleton such as `x`) is dropped together with what follows.
    public var fallbackChain: [LocaleTag] {
        var parts = subtags
        var chain: [LocaleTag] = []
        while !parts.isEmpty {
            chain.append(LocaleTag(parts.joined(separator: "-")))
            parts.removeLast()
            while let last = parts.last, last.count == 1 { parts.removeLast() }
        }
        return chain
    }
}

/// The name of a speech style: the stem of a rule file (`Rules/<locale>/<style>.rules`). Styles are
/// data, so this is an extensible string type rather than an enum: a locale author adds a style by
/// adding a rule file, and `SpeechStyleName("mystyle")` names it without a code change; the constants
/// name the styles the project ships. Names compare case-insensitively.
public struct SpeechStyleName: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    /// The name, lowercased (the rule file's stem).
    public let rawValue: String

    /// A style from its name (any case).
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    /// A style from its name (any case).
    public init(_ name: String) { self.init(rawValue: name) }
    /// A style from a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// Decodes the name.
    public init(from decoder: any Decoder) throws { self.init(rawValue: try decoder.singleValueContainer().decode(String.self)) }
    /// Encodes the name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// The name.
    public var description: String { rawValue }

    /// ClearSpeak (ETS, 2015), the default English style.
    public static let clearSpeak: SpeechStyleName = "clearspeak"
    /// MathSpeak (verbose, brief, superbrief).
    public static let mathSpeak: SpeechStyleName = "mathspeak"
    /// SimpleSpeak (MathCAT's plain style).
    public static let simpleSpeak: SpeechStyleName = "simplespeak"
    /// LiteralSpeak (MathCAT's literal style: what is written, symbol by symbol, with no inferred
    /// meaning; an author's intent is honoured).
    public static let literalSpeak: SpeechStyleName = "literalspeak"
}

/// How much a style says around structures: the `Verbosity` preference, which every shipped style
/// declares with its own values. MathSpeak's three levels ("StartFraction … Over … EndFraction",
/// "StartFrac … Over … EndFrac", "Frac … Over … EndFrac"): verbose (its default), brief, superbrief.
/// ClearSpeak's and SimpleSpeak's, as MathCAT defines them: medium (their default), terse ("square
/// root x", "sine x"), verbose. A value a style does not declare is a ``PreferenceProblem``.
public enum Verbosity: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Every structure announced in full (MathSpeak's default; ClearSpeak and SimpleSpeak add a little).
    case verbose
    /// Shorter announcements (MathSpeak).
    case brief
    /// The shortest announcements (MathSpeak).
    case superbrief
    /// ClearSpeak's and SimpleSpeak's default.
    case medium
    /// Fewer words where the structure is clear (ClearSpeak, SimpleSpeak).
    case terse

    /// The preference this sets.
    public static let preferenceName = "Verbosity"

    /// A verbosity from its name in any case (`Brief`, `brief`).
    public init?(name: String) { self.init(rawValue: name.lowercased()) }

    /// The name.
    public var description: String { rawValue }
}
