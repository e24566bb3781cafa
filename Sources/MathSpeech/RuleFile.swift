import MathSyntax

/// A test on a value in a rule condition.
public enum ValueTest: Hashable, Sendable {
    /// The value is present (a flag is set).
    case present
    /// The value is one of these (case-insensitive).
    case oneOf([String])
    /// The value is a number less than / greater than this.
    case less(Double)
    case greater(Double)
}

/// One condition of a rule (`when …` lines in a rule file; see `Rules/README.md`).
public enum RuleCondition: Hashable, Sendable {
    /// A property of this node or of a child reached by roles (`numerator.simple`, `rows = 1`).
    case property(path: [String], name: String, test: ValueTest, negated: Bool)
    /// A preference value (`pref Fractions in Auto, Ordinal`).
    case preference(name: String, test: ValueTest, negated: Bool)
    /// The kind of this node's child with a role, or of this node itself (`numerator is number`).
    case kind(path: [String], kinds: [String], negated: Bool)
    /// The kind of the parent (`parent is big-operator`).
    case parentKind(kinds: [String], negated: Bool)
    /// The parent's role for this node (`role is exponent`).
    case role(roles: [String], negated: Bool)
    /// Something is spoken after this node inside its parent (`followed`).
    case followed(negated: Bool)
    /// This node is the first child of its parent (`first`).
    case first(negated: Bool)
    /// Some ancestor has one of these kinds (`within set-builder`).
    case within(kinds: [String], negated: Bool)
}

/// One part of a `say` template.
public enum TemplatePart: Hashable, Sendable {
    /// Literal words.
    case words(String)
    /// A pause (`,` short, `;` medium, `.` long).
    case pause(SpeechDescription.Pause)
    /// The children with a role, spoken (`{numerator}`), optionally formatted (`{denominator:ordinal}`).
    case child(role: String, format: String?)
    /// All children in order (`{children}`).
    case children
    /// The node's own text through the lexicon (`{text}`), or formatted (`{text:raw}`).
    case text(format: String?)
    /// A property's value (`{=rows}`, `{=nesting:ordinal}`, `{=open:word}`).
    case property(name: String, format: String?)
    /// Words from the word tables by key (`{@open-paren}`).
    case lookup(key: String)
    /// Joins the words before and after without a space, with this text between (`}-{` in a template:
    /// `{numerator:cardinal}-{denominator:denominator}` → "one-third").
    case joiner(String)
}

/// An inline example: TeX, preferences, and the speech the rule must produce.
public struct RuleExample: Hashable, Sendable {
    /// The TeX input.
    public let tex: String
    /// Preferences set for this example.
    public let preferences: [String: String]
    /// The expected speech (plain text).
    public let speech: String
    /// Where it is written.
    public let file: String
    public let line: Int
}

/// One rule: for a semantic kind, when conditions hold, say a template.
public struct SpeechRule: Hashable, Sendable {
    /// The rule's name (unique in its file).
    public let name: String
    /// The semantic kind it applies to (`fraction`), or `*` for any.
    public let kind: String
    /// All must hold.
    public let conditions: [RuleCondition]
    /// What to say.
    public let template: [TemplatePart]
    /// Inline examples.
    public let examples: [RuleExample]
    /// Where it is defined.
    public let file: String
    public let line: Int
}

/// A preference a style declares: its name, allowed values (the first is the default) and aliases.
public struct PreferenceDeclaration: Hashable, Sendable {
    /// The canonical name (`Fractions`).
    public let name: String
    /// Allowed values, canonical spelling; the first is the default.
    public let values: [String]
    /// Other accepted names (`Fraction`, `Caps`).
    public let aliases: [String]
}

/// A parsed rule file (`Rules/<locale>/<style>.rules`).
public struct RuleFile: Hashable, Sendable {
    /// The file name as given (e.g. `en/clearspeak.rules`).
    public let file: String
    /// `style NAME`.
    public var style: String = ""
    /// `locale TAG`.
    public var locale: String = ""
    /// `inherit PATH` lines: other rule files whose rules apply after this file's.
    public var inherits: [String] = []
    /// `words NAME` lines: word files of this style (`Rules/<locale>/NAME.words`).
    public var wordFiles: [String] = []
    /// Declared preferences.
    public var preferences: [PreferenceDeclaration] = []
    /// Rules in file order.
    public var rules: [SpeechRule] = []

    /// Parses rule-file text. All errors are reported together, each with file:line:column and rule.
    /// `examples: false` skips the inline examples (they are only needed by tests), which makes
    /// loading at start-up faster.
    public init(parsing text: String, file: String, examples includeExamples: Bool = true) throws(RuleFileErrors) {
        self.file = file
        var errors: [RuleFileError] = []
        var current: (name: String, kind: String, line: Int, conditions: [RuleCondition], template: [TemplatePart], examples: [RuleExample], said: Bool)? = nil
        var names: Set<String> = []

        func finish() {
            guard let c = current else { return }
            if !c.said {
                errors.append(RuleFileError(file: file, line: c.line, column: 1, rule: c.name, message: "rule has no 'say' line"))
            }
            rules.append(SpeechRule(name: c.name, kind: c.kind, conditions: c.conditions, template: c.template,
                                    examples: c.examples, file: file, line: c.line))
            current = nil
        }

        // Lines are split on bytes: rule files are read at every start-up.
        let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            var bytes = rawLine[...]
            if bytes.last == 0x0D { bytes = bytes.dropLast() }
            let indent = bytes.prefix { $0 == 0x20 || $0 == 0x09 }.count
            let content = bytes.dropFirst(indent)
            if content.isEmpty || content.first == 0x23 { continue }  // blank line or comment
            let body = stripComment(String(decoding: content, as: UTF8.self)).trimmingSpaces
            if body.isEmpty { continue }
            let column = indent + 1
            func fail(_ message: String, column c: Int? = nil) {
                errors.append(RuleFileError(file: file, line: lineNumber, column: c ?? column, rule: current?.name, message: message))
            }
            let (keyword, rest) = splitKeyword(body)
            if indent == 0 {
                finish()
                switch keyword {
                case "style": style = rest
                case "locale": locale = rest
                case "inherit": inherits.append(rest)
                case "words": wordFiles.append(rest)
                case "preference":
                    guard let colon = rest.firstIndex(of: ":") else {
                        fail("write 'preference Name: Value1 Value2 …' (the first value is the default)")
                        continue
                    }
                    var namePart = String(rest[..<colon]).trimmingSpaces
                    var aliases: [String] = []
                    if let open = namePart.firstIndex(of: "("), namePart.hasSuffix(")") {
                        aliases = namePart[namePart.index(after: open)..<namePart.index(before: namePart.endIndex)]
                            .split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
                        namePart = String(namePart[..<open]).trimmingSpaces
                    }
                    let values = rest[rest.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "," })
                        .map(String.init).filter { !$0.isEmpty }
                    if values.isEmpty { fail("preference \(namePart) has no values") }
                    preferences.append(PreferenceDeclaration(name: namePart, values: values, aliases: aliases))
                case "rule":
                    // rule NAME for KIND
                    let parts = rest.split(separator: " ").map(String.init)
                    guard parts.count == 3, parts[1] == "for" else {
                        fail("write 'rule NAME for KIND', e.g. 'rule common-fraction for fraction'")
                        continue
                    }
                    if names.contains(parts[0]) { fail("rule '\(parts[0])' is defined twice in this file") }
                    names.insert(parts[0])
                    current = (parts[0], parts[2], lineNumber, [], [], [], false)
                default:
                    fail("unknown line '\(keyword)'; expected style, locale, inherit, words, preference or rule")
                }
                continue
            }
            guard current != nil else {
                fail("an indented line must belong to a rule")
                continue
            }
            switch keyword {
            case "when":
                for part in splitAnd(rest) {
                    do { current!.conditions.append(try parseCondition(part)) } catch {
                        fail(error.message, column: column + body.distance(to: part))
                    }
                }
            case "say":
                do {
                    current!.template += try parseTemplate(rest)
                    current!.said = true
                } catch { fail(error.message) }
            case "example":
                guard includeExamples else { continue }
                do { current!.examples.append(try parseExample(rest, file: file, line: lineNumber)) } catch { fail(error.message) }
            default:
                fail("unknown rule line '\(keyword)'; expected when, say or example")
            }
        }
        finish()
        if !errors.isEmpty { throw RuleFileErrors(errors: errors, partial: nil) }
    }
}

struct RuleSyntaxError: Error { let message: String }

private func stripComment(_ s: String) -> String {
    // '#' starts a comment unless escaped as '\#' or inside an example's TeX (after 'example').
    if !s.utf8.contains(0x23) || s.hasPrefix("example") { return s }
    var out = ""
    var previous: Character = " "
    for c in s {
        if c == "#" && previous != "\\" { break }
        out.append(c)
        previous = c
    }
    return out
}

private func splitKeyword(_ s: String) -> (String, String) {
    guard let space = s.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (s, "") }
    return (String(s[..<space]), String(s[space...]).trimmingSpaces)
}

/// Splits a condition line on the word `and` (no Foundation search: this runs at every start-up).
private func splitAnd(_ s: String) -> [Substring] {
    var parts: [Substring] = []
    var current: [Substring] = []
    for word in s.split(separator: " ") {
        if word == "and" {
            parts.append(Substring(current.joined(separator: " ")))
            current = []
        } else {
            current.append(word)
        }
    }
    parts.append(Substring(current.joined(separator: " ")))
    return parts
}

private extension String {
    func distance(to sub: Substring) -> Int {
        guard let r = range(of: sub) else { return 0 }
        return self[..<r.lowerBound].count
    }
}

/// `not? (pref NAME | parent | role | followed | first | PATH) (is KINDS | = V | != V | in A, B | < N | > N)?`
func parseCondition(_ text: Substring) throws(RuleSyntaxError) -> RuleCondition {
    var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    var negated = false
    if words.first == "not" { negated = true; words.removeFirst() }
    guard let subject = words.first else { throw RuleSyntaxError(message: "empty condition") }
    words.removeFirst()

    func valueTest(_ words: [String]) throws(RuleSyntaxError) -> (ValueTest, Bool) {
        guard let op = words.first else { return (.present, false) }
        let rest = words.dropFirst().joined(separator: " ")
        let values = splitValues(rest)
        switch op {
        case "=", "in":
            guard !values.isEmpty else { throw RuleSyntaxError(message: "'\(op)' needs a value") }
            return (.oneOf(values), false)
        case "!=":
            guard !values.isEmpty else { throw RuleSyntaxError(message: "'!=' needs a value") }
            return (.oneOf(values), true)
        case "<", ">":
            guard let n = Double(rest.trimmingSpaces) else { throw RuleSyntaxError(message: "'\(op)' needs a number, not '\(rest)'") }
            return (op == "<" ? .less(n) : .greater(n), false)
        default:
            throw RuleSyntaxError(message: "expected =, !=, in, <, > or 'is' after '\(subject)', found '\(op)'")
        }
    }

    func kinds(_ words: [String]) -> [String] {
        splitValues(words.joined(separator: " "))
    }

    switch subject {
    case "pref":
        guard let name = words.first else { throw RuleSyntaxError(message: "'pref' needs a preference name") }
        let (test, flip) = try valueTest(Array(words.dropFirst()))
        return .preference(name: name, test: test, negated: negated != flip)
    case "followed": return .followed(negated: negated)
    case "within":
        guard !words.isEmpty else { throw RuleSyntaxError(message: "write 'within KIND'") }
        return .within(kinds: kinds(words), negated: negated)
    case "first": return .first(negated: negated)
    case "parent":
        guard words.first == "is" else { throw RuleSyntaxError(message: "write 'parent is KIND'") }
        var rest = Array(words.dropFirst())
        var neg = negated
        if rest.first == "not" { neg.toggle(); rest.removeFirst() }
        return .parentKind(kinds: kinds(rest), negated: neg)
    case "role":
        guard ["is", "=", "in"].contains(words.first) else { throw RuleSyntaxError(message: "write 'role is ROLE'") }
        var rest = Array(words.dropFirst())
        var neg = negated
        if rest.first == "not" { neg.toggle(); rest.removeFirst() }
        return .role(roles: kinds(rest), negated: neg)
    default:
        let path = subject.split(separator: ".").map(String.init)
        guard !path.isEmpty, !subject.hasPrefix("."), !subject.hasSuffix(".") else {
            throw RuleSyntaxError(message: "'\(subject)' is not a property or a path of roles such as numerator.simple")
        }
        if words.first == "is" {
            var rest = Array(words.dropFirst())
            var neg = negated
            if rest.first == "not" { neg.toggle(); rest.removeFirst() }
            guard !rest.isEmpty else { throw RuleSyntaxError(message: "'is' needs a kind") }
            return .kind(path: path, kinds: kinds(rest), negated: neg)
        }
        let (test, flip) = try valueTest(words)
        return .property(path: Array(path.dropLast()), name: path.last!, test: test, negated: negated != flip)
    }
}

/// Values separated by commas; `\,` is a literal comma and the escapes of word-file keys apply
/// (`\u{2062}`, `\#`, `\|`, `\s`).
func splitValues(_ text: String) -> [String] {
    var values: [String] = []
    var current = ""
    var escaped = false
    for c in text {
        if escaped { current.append("\\"); current.append(c); escaped = false; continue }
        if c == "\\" { escaped = true; continue }
        if c == "," { values.append(current); current = ""; continue }
        current.append(c)
    }
    if escaped { current.append("\\") }
    values.append(current)
    return values.map { $0.trimmingSpaces }.filter { !$0.isEmpty }.map { $0.contains("\\") ? (WordTable.unescapeKey($0) ?? $0) : $0 }
}

/// Words, `,` `;` `.` pauses, and `{…}` references.
func parseTemplate(_ text: String) throws(RuleSyntaxError) -> [TemplatePart] {
    var parts: [TemplatePart] = []
    var word = ""
    func flushWord() {
        let w = word.trimmingSpaces
        if !w.isEmpty {
            if case .words(let previous) = parts.last {
                parts[parts.count - 1] = .words(previous + " " + w)
            } else {
                parts.append(.words(w))
            }
        }
        word = ""
    }
    var chars = Array(text)[...]
    while let c = chars.first {
        chars = chars.dropFirst()
        switch c {
        case "-" where word.isEmpty && chars.first == "{" && parts.last.map({ if case .words = $0 { return false } else { return true } }) == true:
            parts.append(.joiner("-"))
        case "{":
            // A word written right before a reference is glued to it: arc{…} → "arctangent".
            let glued = !word.isEmpty && !word.hasSuffix(" ")
            flushWord()
            if glued { parts.append(.joiner("")) }
            guard let close = chars.firstIndex(of: "}") else { throw RuleSyntaxError(message: "'{' is not closed") }
            let inner = String(chars[..<close]).trimmingSpaces
            chars = chars[chars.index(after: close)...]
            parts.append(try parseReference(inner))
        case ",", ";":
            flushWord()
            parts.append(.pause(c == "," ? .short : .medium))
        case "\\":
            if let n = chars.first { word.append(n); chars = chars.dropFirst() }
        default:
            word.append(c)
        }
    }
    flushWord()
    return parts
}

private func parseReference(_ inner: String) throws(RuleSyntaxError) -> TemplatePart {
    guard !inner.isEmpty else { throw RuleSyntaxError(message: "empty {}") }
    if inner.contains(where: { $0 == " " || $0 == "{" || $0 == "\t" }) {
        throw RuleSyntaxError(message: "'{\(inner)}' is not a reference; write {role}, {role:format}, {=property}, {@key} or {text}")
    }
    var name = inner
    var format: String? = nil
    if let colon = inner.firstIndex(of: ":") {
        name = String(inner[..<colon]).trimmingSpaces
        format = String(inner[inner.index(after: colon)...]).trimmingSpaces
    }
    if name.hasPrefix("@") { return .lookup(key: String(name.dropFirst())) }
    if name.hasPrefix("=") { return .property(name: String(name.dropFirst()), format: format) }
    if name == "children" { return .children }
    if name == "text" { return .text(format: format) }
    if name == "." { return .pause(.long) }
    return .child(role: name, format: format)
}

/// `example [Pref=Value, …] TEX => SPEECH`
private func parseExample(_ text: String, file: String, line: Int) throws(RuleSyntaxError) -> RuleExample {
    var rest = Substring(text)
    var preferences: [String: String] = [:]
    if rest.hasPrefix("[") {
        guard let close = rest.firstIndex(of: "]") else { throw RuleSyntaxError(message: "'[' is not closed in example") }
        for pair in rest[rest.index(after: rest.startIndex)..<close].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard kv.count == 2 else { throw RuleSyntaxError(message: "write example preferences as [Name=Value, …]") }
            preferences[kv[0]] = kv[1]
        }
        rest = rest[rest.index(after: close)...]
    }
    var arrowIndex: Substring.Index? = nil
    var i = rest.startIndex
    while i < rest.endIndex {
        let next = rest.index(after: i)
        if rest[i] == "=", next < rest.endIndex, rest[next] == ">" { arrowIndex = i; break }
        i = next
    }
    guard let arrow = arrowIndex else { throw RuleSyntaxError(message: "write 'example TEX => speech'") }
    let tex = rest[..<arrow].trimmingSpaces
    let speech = rest[rest.index(arrow, offsetBy: 2)...].trimmingSpaces
    guard !tex.isEmpty else { throw RuleSyntaxError(message: "example has no TeX") }
    return RuleExample(tex: tex, preferences: preferences, speech: speech, file: file, line: line)
}
