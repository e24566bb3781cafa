import Foundation
import MathAloud

/// What to audit and how: read from `.mathaloud-audit.json` (and overridden by command-line flags).
///
/// ```json
/// {
///   "include": ["**/*.md", "**/*.html"],
///   "exclude": ["_build/**", "vendor/**"],
///   "rules": {"mathml.missing-label": "off", "math.read-by-name": "error"},
///   "macros": ["macros.tex"],
///   "locale": "en", "style": "clearspeak", "preferences": {"Fractions": "Over"},
///   "labelTemplate": "{speech}",
///   "placeholders": ["Abbildung"]
/// }
/// ```
/// Every key is optional. Globs are matched against paths relative to the audited directory (``Glob``);
/// a file is audited when it matches an `include` (all supported files when there is none) and no
/// `exclude`; a LaTeX file an `exclude` matches is not audited either when another file includes it
/// (``excludes(included:from:)``). Macro files are read relative to the configuration file.
public struct AuditConfiguration: Sendable {
    /// Globs of files to audit (empty: every file of a supported format).
    public var include: [Glob] = []
    /// Globs of files to skip.
    public var exclude: [Glob] = []
    /// Severity overrides; `nil` turns a rule off.
    public var severities: [AuditRule: Diagnostic.Severity?] = [:]
    /// Macros every TeX formula may use (from the macro files and `--macro`).
    public var macros: [String: String] = [:]
    /// TeX definitions read from the macro files (`\newcommand`, `\def`, `\DeclareMathOperator`…).
    public var definitions: String = ""
    /// The speech locale for suggested labels.
    public var locale = "en"
    /// The speech style.
    public var style = "clearspeak"
    /// Style preferences.
    public var preferences: [String: String] = [:]
    /// The template suggested labels are made with.
    public var labelTemplate = LabelTemplate.speechOnly
    /// Words that make a label a placeholder.
    public var placeholders = PlaceholderWords.standard
    /// Markdown: kramdown's `\\(…\\)` and `\\[…\\]` are math too (``SegmenterOptions/kramdownDelimiters``;
    /// key `kramdown`, flag `--kramdown`).
    public var kramdown = false

    /// The default configuration.
    public init() {}

    /// The severity a rule reports with, or `nil` when it is turned off.
    public func severity(of rule: AuditRule) -> Diagnostic.Severity? {
        if let override = severities[rule] { return override }
        return rule.defaultSeverity
    }

    /// Whether a relative path is audited.
    public func selects(_ path: String) -> Bool {
        if exclude.contains(where: { $0.matches(path) }) { return false }
        return include.isEmpty || include.contains { $0.matches(path) }
    }

    /// Whether a file a LaTeX document includes is left out: an `exclude` glob matches its path from
    /// `root`, the folder the including document's globs are matched from (``AuditFileSet/Item/root``),
    /// as the walk of that folder would have matched it; a file outside the folder by its path with
    /// `..` (`../shared/macros.tex`). The `include` globs choose the documents, not what they include.
    public func excludes(included url: URL, from root: URL) -> Bool {
        guard !exclude.isEmpty else { return false }
        let path = Self.relativePath(of: url, from: root)
        return exclude.contains { $0.matches(path) }
    }

    /// `url`'s path from the folder `root` (both made standard first), with `..` for each folder of
    /// `root` it is not under.
    static func relativePath(of url: URL, from root: URL) -> String {
        let file = url.standardizedFileURL.pathComponents, base = root.standardizedFileURL.pathComponents
        var common = 0
        while common < min(file.count - 1, base.count), file[common] == base[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + file[common...]).joined(separator: "/")
    }

    /// A problem in a configuration file.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        /// What is wrong, with the file name and (for a mistake in it) the line and column of the key:
        /// `.mathaloud-audit.json:3:3: unknown key "bogus" (known: …)`.
        public let description: String
        /// Whether a file could not be read (the configuration, or a macro file it names), rather than
        /// a mistake in it.
        public var isIO = false

        /// A problem.
        public init(description: String, isIO: Bool = false) {
            self.description = description
            self.isIO = isIO
        }
    }

    /// Reads a configuration file. Unknown keys and bad values are errors (a typo in a rule id must not
    /// silently keep the rule on).
    public static func load(contentsOf url: URL) throws(Problem) -> AuditConfiguration {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw Problem(description: "\(url.path): cannot read the configuration: \(OutputFileError.reason(error))", isIO: true)
        }
        var configuration = AuditConfiguration()
        try configuration.apply(json: data, name: url.path, directory: url.deletingLastPathComponent())
        return configuration
    }

    /// Applies the keys of a configuration file's JSON.
    public mutating func apply(json data: Data, name: String, directory: URL) throws(Problem) {
        // A mistake is located at its key (the first `"key":` in the file, as written), else at the file.
        let source = String(decoding: data, as: UTF8.self)
        func fail(_ message: String, at key: String? = nil, isIO: Bool = false) -> Problem {
            Problem(description: "\(name)\(key.flatMap { Self.location(of: $0, in: source) } ?? ""): \(message)", isIO: isIO)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw fail("not a JSON object")
        }
        func strings(_ key: String) throws(Problem) -> [String] {
            guard let value = object[key] else { return [] }
            if let one = value as? String { return [one] }
            guard let list = value as? [String] else { throw fail("\"\(key)\" must be a string or a list of strings", at: key) }
            return list
        }
        func string(_ key: String) throws(Problem) -> String? {
            guard let value = object[key] else { return nil }
            guard let s = value as? String else { throw fail("\"\(key)\" must be a string", at: key) }
            return s
        }
        let known: Set<String> = ["include", "exclude", "rules", "macros", "locale", "style", "preferences", "labelTemplate", "placeholders",
                                  "kramdown"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("unknown key \"\(unknown)\" (known: \(known.sorted().joined(separator: ", ")))", at: unknown)
        }
        include += try strings("include").map(Glob.init)
        exclude += try strings("exclude").map(Glob.init)
        if let rules = object["rules"] {
            guard let rules = rules as? [String: Any] else { throw fail("\"rules\" must map rule ids to off|note|warning|error", at: "rules") }
            for (id, value) in rules {
                guard let rule = AuditRule(rawValue: id) else {
                    throw fail("unknown rule \"\(id)\" (rules: \(AuditRule.allCases.map(\.rawValue).joined(separator: ", ")))", at: id)
                }
                switch value as? String {
                case "off": severities[rule] = .some(nil)
                case "note": severities[rule] = .note
                case "warning": severities[rule] = .warning
                case "error": severities[rule] = .error
                default: throw fail("rule \"\(id)\": the value must be \"off\", \"note\", \"warning\" or \"error\"", at: id)
                }
            }
        }
        for file in try strings("macros") {
            let url = URL(fileURLWithPath: file, relativeTo: directory)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw fail("cannot read the macro file \(url.path)", at: "macros", isIO: true)
            }
            definitions += text + "\n"
        }
        if let locale = try string("locale") { self.locale = locale }
        if let style = try string("style") { self.style = style }
        if let preferences = object["preferences"] {
            guard let map = preferences as? [String: String] else { throw fail("\"preferences\" must map names to values", at: "preferences") }
            self.preferences.merge(map) { _, new in new }
        }
        if let template = try string("labelTemplate") { labelTemplate = LabelTemplate(template) }
        if let value = object["kramdown"] {
            guard let flag = value as? Bool else { throw fail("\"kramdown\" must be true or false", at: "kramdown") }
            kramdown = flag
        }
        let extra = try strings("placeholders")
        if !extra.isEmpty { placeholders = PlaceholderWords(words: placeholders.words.union(extra.map { $0.lowercased() })) }
    }
}

extension AuditConfiguration {
    /// `:line:column` of the first `"key"` followed by `:` in a JSON text; nil when it is not there.
    static func location(of key: String, in source: String) -> String? {
        let quoted = Array("\"\(key)\"".utf8), bytes = Array(source.utf8)
        guard !quoted.isEmpty, bytes.count >= quoted.count else { return nil }
        var line = 1, lineStart = 0, i = 0
        while i + quoted.count <= bytes.count {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            if bytes[i] == 0x22, Array(bytes[i..<(i + quoted.count)]) == quoted {
                var j = i + quoted.count
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
                if j < bytes.count, bytes[j] == 0x3A {
                    let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).unicodeScalars.count + 1
                    return ":\(line):\(column)"
                }
            }
            i += 1
        }
        return nil
    }
}

/// A path pattern as `.gitignore`-style tools write them: `*` any run of characters but `/`, `?` one
/// character but `/`, `[abc]`/`[a-z]`/`[!a]` a class, `**` any number of whole directories. A pattern
/// without `/` matches the file name in any directory (`*.md`); one with `/` is anchored at the root.
/// A pattern ending in `/` or naming a directory matches everything under it (`_build/`).
public struct Glob: Sendable, Hashable {
    /// The pattern as written.
    public let pattern: String
    private let segments: [String]

    /// Compiles a pattern.
    public init(_ pattern: String) {
        self.pattern = pattern
        var p = pattern
        if p.hasPrefix("./") { p.removeFirst(2) }
        if p.hasSuffix("/") { p += "**" }
        var parts = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 1, !pattern.hasPrefix("/") { parts.insert("**", at: 0) }
        segments = parts
    }

    /// Whether the relative path (with `/` separators) matches, or lies under a matching directory.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return Glob.match(segments[...], parts[...], prefix: true)
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>, prefix: Bool) -> Bool {
        guard let first = pattern.first else { return path.isEmpty || prefix }
        if first == "**" {
            let rest = pattern.dropFirst()
            var p = path
            while true {
                if match(rest, p, prefix: prefix) { return true }
                if p.isEmpty { return false }
                p = p.dropFirst()
            }
        }
        guard let segment = path.first, matchSegment(Array(first.unicodeScalars)[...], Array(segment.unicodeScalars)[...]) else { return false }
        return match(pattern.dropFirst(), path.dropFirst(), prefix: prefix)
    }

    private static func matchSegment(_ p: ArraySlice<Unicode.Scalar>, _ s: ArraySlice<Unicode.Scalar>) -> Bool {
        var p = p, s = s
        // Iterative wildcard matching with one backtrack point for `*` (linear in practice).
        var starP: ArraySlice<Unicode.Scalar>? = nil, starS: ArraySlice<Unicode.Scalar> = s
        while !s.isEmpty {
            if let c = p.first {
                if c == "*" { p = p.dropFirst(); starP = p; starS = s; continue }
                if c == "?" { p = p.dropFirst(); s = s.dropFirst(); continue }
                if c == "[", let (matched, rest) = matchClass(p, s.first!) {
                    if matched { p = rest; s = s.dropFirst(); continue }
                } else if c == "\\", p.count > 1, p.dropFirst().first == s.first {
                    p = p.dropFirst(2); s = s.dropFirst(); continue
                } else if c == s.first { p = p.dropFirst(); s = s.dropFirst(); continue }
            }
            guard let sp = starP else { return false }
            starS = starS.dropFirst()
            s = starS
            p = sp
        }
        return p.allSatisfy { $0 == "*" }
    }

    /// A `[…]` class at the start of `p`: whether `c` is in it, and the pattern after it (nil when the
    /// class is not closed: then `[` is a literal).
    private static func matchClass(_ p: ArraySlice<Unicode.Scalar>, _ c: Unicode.Scalar) -> (Bool, ArraySlice<Unicode.Scalar>)? {
        var i = p.index(after: p.startIndex)
        var negate = false
        if i < p.endIndex, p[i] == "!" || p[i] == "^" { negate = true; i += 1 }
        var matched = false
        var first = true
        while i < p.endIndex {
            if p[i] == "]" && !first { return (matched != negate, p[(i + 1)...]) }
            first = false
            if i + 2 < p.endIndex, p[i + 1] == "-", p[i + 2] != "]" {
                if p[i].value <= c.value && c.value <= p[i + 2].value { matched = true }
                i += 3
            } else {
                if p[i] == c { matched = true }
                i += 1
            }
        }
        return nil
    }
}

