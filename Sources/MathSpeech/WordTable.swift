import MathSyntax

/// A problem in a rule or word file, with its location and (for rules) the rule name.
public struct RuleFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (as named in the rules directory, e.g. `en/clearspeak.rules`).
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column.
    public let column: Int
    /// The rule the line belongs to, if any.
    public let rule: String?
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, rule: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message
    }

    public var description: String {
        "\(file):\(line):\(column): error: \(message)" + (rule.map { " (in rule '\($0)')" } ?? "")
    }
}

/// Words for keys (symbols, function names, units, numbers), with variants such as `brief` and
/// `superbrief` or `plural`. Read from the word-file format documented in `Locales/README.md`:
/// `KEY  words | variant: words`, `#` comments, escapes `\#`, `\|`, `\s`, `\u{XXXX}` in keys.
public struct WordTable: Hashable, Sendable {
    /// An entry's default words and its variants.
    public struct Entry: Hashable, Sendable {
        /// The default words.
        public var words: String
        /// Variant name → words.
        public var variants: [String: String]
        /// The file it was defined in.
        public var file: String
        /// The 1-based line it was defined on.
        public var line: Int
        /// The 1-based column its key starts at.
        public var column: Int = 1
        /// Where it was defined (`file:line`), for `--explain` and diagnostics.
        public var origin: String { "\(file):\(line)" }
    }

    /// Key → entry.
    public private(set) var entries: [String: Entry] = [:]

    /// An empty table.
    public init() {}

    /// Parses a word file. Errors are collected; good lines are kept. Works on UTF-8 bytes: word files
    /// are read at every start-up, so this is on the cold-start path.
    public init(parsing text: String, file: String) throws(RuleFileErrors) {
        var errors: [RuleFileError] = []
        var text = text
        text.withUTF8 { bytes in
            entries.reserveCapacity(bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
            for (lineNumber, line) in ByteLines(bytes) {
                let lineStart = line.lowerBound, end = line.upperBound
                var i = lineStart
                while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
                if i >= end || bytes[i] == 0x23 { continue }  // blank or # comment
                let column = i - lineStart + 1
                // The key runs to the first unescaped space or tab.
                let keyStart = i
                var hasEscape = false
                while i < end, bytes[i] != 0x20, bytes[i] != 0x09 {
                    if bytes[i] == 0x5C { hasEscape = true; i += 1 }
                    i += 1
                }
                let keyEnd = min(i, end)
                func string(_ a: Int, _ b: Int) -> String {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)
                }
                // The key as written, for messages.
                var keyRaw: String { string(keyStart, keyEnd) }
                guard let key = hasEscape ? WordTable.unescapeKey(UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]))
                                          : string(keyStart, keyEnd) else {
                    errors.append(RuleFileError(file: file, line: lineNumber, column: column, message: "bad escape in key '\(keyRaw)'"))
                    continue
                }
                // Words, then `| variant: words` parts, read on the bytes (a `String` is made only of
                // what is kept).
                func isSpaceOrTab(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
                func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
                var words = ""
                var variants: [String: String] = [:]
                var bad = false
                var isFirst = true
                var partStart = keyEnd
                var j = keyEnd
                while j <= end {
                    if j == end || bytes[j] == 0x7C {
                        var a = partStart, b = j
                        while a < b, isSpaceOrTab(bytes[a]) { a += 1 }
                        while b > a, isSpaceOrTab(bytes[b - 1]) { b -= 1 }
                        partStart = j + 1
                        if isFirst {
                            isFirst = false
                            words = string(a, b)
                        } else {
                            var colon = a
                            while colon < b, bytes[colon] != 0x3A { colon += 1 }
                            if colon == b {
                                errors.append(RuleFileError(file: file, line: lineNumber, column: column,
                                                            message: "variant '\(string(a, b))' needs a name, e.g. 'brief: words'"))
                                bad = true
                            } else if (colon > a && bytes[colon - 1] >= 0x80) || (colon + 1 < b && bytes[colon + 1] >= 0x80) {
                                // A colon next to a non-ASCII character may be part of a larger
                                // character (a combining mark after it): split on characters.
                                let part = string(a, b)
                                if let colon = part.firstIndex(of: ":") {
                                    variants[String(part[..<colon]).trimmingSpaces] = String(part[part.index(after: colon)...]).trimmingSpaces
                                } else {
                                    errors.append(RuleFileError(file: file, line: lineNumber, column: column,
                                                                message: "variant '\(part)' needs a name, e.g. 'brief: words'"))
                                    bad = true
                                }
                            } else {
                                var na = a, nb = colon, wa = colon + 1, wb = b
                                while na < nb, isSpace(bytes[na]) { na += 1 }
                                while nb > na, isSpace(bytes[nb - 1]) { nb -= 1 }
                                while wa < wb, isSpace(bytes[wa]) { wa += 1 }
                                while wb > wa, isSpace(bytes[wb - 1]) { wb -= 1 }
                                variants[string(na, nb)] = string(wa, wb)
                            }
                        }
                    }
                    j += 1
                }
                if bad { continue }
                // One hash of the key: the entry is stored, and put back if the key was there.
                if let existing = entries.updateValue(Entry(words: words, variants: variants, file: file, line: lineNumber, column: column), forKey: key) {
                    entries[key] = existing
                    errors.append(RuleFileError(file: file, line: lineNumber, column: column,
                                                message: "'\(keyRaw)' is defined twice (first at \(existing.origin))"))
                    continue
                }
            }
        }
        if !errors.isEmpty {
            throw RuleFileErrors(errors: errors, partial: self)
        }
    }

    /// The words for `key` in `variant` (falling back to the default words), or nil.
    public func words(_ key: String, variant: String? = nil) -> String? {
        guard let entry = entries[key] else { return nil }
        if let variant, let w = entry.variants[variant] { return w }
        return entry.words
    }

    /// Removes the entry for `key`.
    mutating func remove(_ key: String) { entries[key] = nil }

    /// Adds or replaces the entry for `key`.
    mutating func insert(_ entry: Entry, for key: String) { entries[key] = entry }

    /// Adds or replaces entries from another table (used for overrides and inheritance).
    public mutating func merge(_ other: WordTable) {
        for (k, v) in other.entries { entries[k] = v }
    }

    /// ``unescapeKey(_:)`` of a key's UTF-8 bytes (valid UTF-8), on the bytes: word files are read
    /// at every start-up.
    static func unescapeKey(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        /// The end of the scalar starting at `k`.
        func scalarEnd(_ k: Int) -> Int {
            var e = k + 1
            while e < bytes.count, bytes[e] & 0xC0 == 0x80 { e += 1 }
            return e
        }
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x5C, i + 1 < bytes.count else {
                let e = scalarEnd(i)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<e]))
                i = e
                continue
            }
            let n = i + 1
            switch bytes[n] {
            case 0x73: out.append(0x20); i = n + 1  // \s
            case 0x75:  // \u{XXXX}
                guard n + 1 < bytes.count, bytes[n + 1] == 0x7B else { return nil }
                var close = n + 1
                while close < bytes.count, bytes[close] != 0x7D { close += 1 }
                guard close < bytes.count else { return nil }
                let hex = String(decoding: UnsafeBufferPointer(rebasing: bytes[(n + 2)..<close]), as: UTF8.self)
                guard let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else { return nil }
                out.append(contentsOf: String(Character(s)).utf8)
                i = close + 1
            default:
                let e = scalarEnd(n)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[n..<e]))
                i = e
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Unescapes a key: `\#`, `\|`, `\s` (space), `\\`, `\u{XXXX}`.
    static func unescapeKey(_ raw: String) -> String? {
        var out = ""
        var it = Array(raw.unicodeScalars)[...]
        while let c = it.first {
            it = it.dropFirst()
            guard c == "\\", let n = it.first else { out.unicodeScalars.append(c); continue }
            it = it.dropFirst()
            switch n {
            case "s": out += " "
            case "u":
                guard it.first == "{", let close = it.firstIndex(of: "}") else { return nil }
                let hex = String(String.UnicodeScalarView(it[it.index(after: it.startIndex)..<close]))
                guard let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else { return nil }
                out.unicodeScalars.append(s)
                it = it[it.index(after: close)...]
            default: out.unicodeScalars.append(n)
            }
        }
        return out
    }
}

/// Several errors from one file, with what could be read (`partial`) when that is useful.
public struct RuleFileErrors: Error, Sendable, CustomStringConvertible {
    /// The errors, in line order.
    public let errors: [RuleFileError]
    /// Anything that could be read despite the errors.
    public let partial: WordTable?
    /// For a rule file, the rules that could be read despite the errors (for `rules lint`).
    public var partialRules: RuleFile? = nil

    /// Errors, with what could be read.
    public init(errors: [RuleFileError], partial: WordTable?, partialRules: RuleFile? = nil) {
        self.errors = errors
        self.partial = partial
        self.partialRules = partialRules
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        // On UTF-8 bytes (rule and word files are read at every start-up): space, tab and CR are
        // single bytes that never occur inside a multi-byte sequence.
        let whole = Substring(self)
        let bytes = whole.utf8
        var start = bytes.startIndex, end = bytes.endIndex
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(whole[start..<end])
    }
}
