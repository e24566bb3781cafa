import Foundation
import MathSyntax
import MathSemantics

/// Which rule spoke a node and why (for `--explain`).
public struct RuleTrace: Hashable, Sendable {
    /// Depth in the semantic tree (0 = root).
    public let depth: Int
    /// The node's kind and text.
    public let kind: String
    public let text: String
    /// The node's source range.
    public let range: SourceRange?
    /// The node's role in its parent and its properties (what rule conditions can test).
    public let role: String
    public let properties: [String: String]
    /// The rule that fired (nil when the built-in default spoke the node).
    public let rule: String?
    /// `file:line` of the rule.
    public let location: String?
    /// The conditions that held, as written.
    public let conditions: [String]
    /// What the node said.
    public var speech: String
}

/// The result of speaking a semantic tree.
public struct SpeechOutput: Sendable {
    /// The structured speech.
    public let description: SpeechDescription
    /// Missing words and other problems (warnings).
    public let diagnostics: [Diagnostic]
    /// Per node, the rule that fired (only when tracing was asked for).
    public let trace: [RuleTrace]
}

/// Applies a style's rules to a semantic tree (DESIGN.md §5). Immutable and `Sendable`; each call
/// has its own state.
public struct SpeechEngine: Sendable {
    /// The compiled style.
    public let style: SpeechStyle
    /// The locale's words.
    public let lexicon: Lexicon
    /// The preferences given when the engine was made, with every preference condition of the style
    /// already tested for them (empty when none were given).
    private let preferences: RunPreferences

    /// Creates an engine.
    public init(style: SpeechStyle, lexicon: Lexicon) {
        self.style = style
        self.lexicon = lexicon
        self.preferences = RunPreferences([:], table: style.table, testAll: false)
    }

    /// Creates an engine for resolved preference values (see ``SpeechStyle/resolve(_:)``), spoken
    /// with by ``speak(_:trace:)``: the style's preference conditions are tested here, once, instead
    /// of in every call.
    public init(style: SpeechStyle, lexicon: Lexicon, preferences: [String: String]) {
        self.style = style
        self.lexicon = lexicon
        self.preferences = RunPreferences(preferences, table: style.table, testAll: true)
    }

    /// Speaks `root` with resolved preference values (see ``SpeechStyle/resolve(_:)``).
    public func speak(_ root: SemanticNode, preferences: [String: String], trace: Bool = false) -> SpeechOutput {
        speak(root, RunPreferences(preferences, table: style.table, testAll: false), trace: trace)
    }

    /// Speaks `root` with the preferences the engine was made with.
    public func speak(_ root: SemanticNode, trace: Bool = false) -> SpeechOutput {
        speak(root, preferences, trace: trace)
    }

    private func speak(_ root: SemanticNode, _ preferences: RunPreferences, trace: Bool) -> SpeechOutput {
        var run = SpeechRun(engine: self, preferences: preferences, tracing: trace)
        var description = SpeechDescription()
        run.speak(root, parent: nil, index: 0, depth: 0, prosody: nil, into: &description)
        return SpeechOutput(description: description.trimmed, diagnostics: run.diagnostics, trace: run.trace)
    }
}

/// Preference values for speaking, with the results of the style's preference conditions
/// (``RuleTable/preferenceTests``): preferences are fixed for a whole run, so each condition is
/// tested at most once — when the engine is made, or on first use in a run.
struct RunPreferences: Sendable {
    let values: [String: String]
    /// The word variant for the verbosity (`brief`, `superbrief`; nil for verbose or none).
    let variant: String?
    /// Per preference test: 0 not tested yet, 1 fails, 2 holds.
    private var results: [UInt8]
    /// The candidate rules; when every preference test was tested up front, without the rules whose
    /// preference tests fail (and the others' preference tests need no testing).
    let candidates: RuleTable.Candidates

    init(_ values: [String: String], table: RuleTable, testAll: Bool) {
        self.values = values
        let verbosity = RunPreferences.value("Verbosity", in: values)?.lowercased()
        variant = verbosity == nil || verbosity == "verbose" ? nil : verbosity
        guard testAll else {
            results = Array(repeating: 0, count: table.preferenceTests.count)
            candidates = table.candidates
            return
        }
        let results = table.preferenceTests.map { p in
            p.test.passes(RunPreferences.value(p.name, in: values)) ? UInt8(2) : 1
        }
        self.results = results
        candidates = table.candidates.keeping { r in
            table.tests[table.testStart[r] ..< table.testsAfterPreferences[r]].allSatisfy { test in
                guard case let .preference(slot) = test.test else { return true }
                return (results[slot] == 2) != test.negated
            }
        }
    }

    /// Whether preference test `slot` holds.
    mutating func holds(_ slot: Int, _ table: RuleTable) -> Bool {
        if results[slot] == 0 {
            let p = table.preferenceTests[slot]
            results[slot] = p.test.passes(RunPreferences.value(p.name, in: values)) ? 2 : 1
        }
        return results[slot] == 2
    }

    /// A preference's value: by its exact name, else by a name that differs in ASCII case.
    static func value(_ name: String, in preferences: [String: String]) -> String? {
        preferences[name] ?? preferences.first { equalIgnoringASCIICase($0.key, name) }?.value
    }
}

/// The state of one speech run.
struct SpeechRun {
    /// What the run reads of the engine (not the whole engine: copying it would retain every part).
    let table: RuleTable
    let rules: [CompiledRule]
    let lexicon: Lexicon
    let locale: String
    var preferences: RunPreferences
    let tracing: Bool
    let variant: String?
    var diagnostics: [Diagnostic] = []
    var trace: [RuleTrace] = []
    /// The nodes above the one being spoken (root first).
    var ancestors: [SemanticNode] = []
    private var reported: Set<String> = []
    /// Properties of the node being matched, looked up once each by number (``RuleTable/propertyNames``):
    /// rules for one kind test the same properties again and again (`set-name = naturals`,
    /// `set-name = integers`…). Emptied for every node (its capacity is kept).
    private var lookedUp: [LookedUp] = []

    private struct LookedUp {
        let name: Int
        let value: String?
    }

    init(engine: SpeechEngine, preferences: RunPreferences, tracing: Bool) {
        table = engine.style.table
        rules = engine.style.compiled
        lexicon = engine.lexicon
        locale = engine.style.locale
        self.preferences = preferences
        self.tracing = tracing
        self.variant = preferences.variant
        ancestors.reserveCapacity(16)
        lookedUp.reserveCapacity(32)
    }

    // MARK: Nodes

    mutating func speak(_ node: SemanticNode, parent: SemanticNode?, index: Int, depth: Int,
                        prosody: SpeechDescription.Prosody?, into out: inout SpeechDescription) {
        let context = Context(node: node, parent: parent, index: index)
        var traceIndex: Int? = nil
        if tracing {
            traceIndex = trace.count
            trace.append(RuleTrace(depth: depth, kind: node.kind.rawValue, text: node.text, range: node.range,
                                   role: node.role.rawValue, properties: node.properties.dictionary,
                                   rule: nil, location: nil, conditions: [], speech: ""))
        }
        if let parent { ancestors.append(parent) }
        defer { if parent != nil { ancestors.removeLast() } }
        guard tracing else {
            if let rule = matchingRule(context) {
                render(rule.template, context: context, depth: depth, prosody: prosody, into: &out)
            } else {
                speakDefault(context, depth: depth, prosody: prosody, into: &out)
            }
            return
        }
        var local = SpeechDescription()
        if let rule = matchingRule(context) {
            if let t = traceIndex {
                trace[t] = RuleTrace(depth: depth, kind: node.kind.rawValue, text: node.text, range: node.range,
                                     role: node.role.rawValue, properties: node.properties.dictionary, rule: rule.rule.name,
                                     location: "\(rule.rule.file):\(rule.rule.line)",
                                     conditions: rule.conditions.map(describe), speech: "")
            }
            render(rule.template, context: context, depth: depth, prosody: prosody, into: &local)
        } else {
            speakDefault(context, depth: depth, prosody: prosody, into: &local)
        }
        if let t = traceIndex { trace[t].speech = local.plainText }
        out.append(local)
    }

    /// The first rule whose conditions hold. Rules with a `text = …` condition that cannot match the
    /// node's text are not candidates at all (see ``RuleTable/Candidates``).
    private mutating func matchingRule(_ context: Context) -> CompiledRule? {
        lookedUp.removeAll(keepingCapacity: true)
        // Read the tables in place (no reference counting per test).
        let match: Int? = table.testStart.withUnsafeBufferPointer { testStart in
            table.tests.withUnsafeBufferPointer { tests in
                let candidates = preferences.candidates
                let after = candidates.preferencesTested ? table.testsAfterPreferences : table.testStart
                rules: for r in candidates.rules(for: context.node.kind, text: context.node.text) {
                    for t in after[r] ..< testStart[r + 1] where !holds(tests[t], context, table) { continue rules }
                    return r
                }
                return nil
            }
        }
        return match.map { rules[$0] }
    }

    /// What is said when no rule matches: a leaf's words, or the children in order.
    private mutating func speakDefault(_ context: Context, depth: Int, prosody: SpeechDescription.Prosody?,
                                       into out: inout SpeechDescription) {
        let node = context.node
        if node.children.isEmpty {
            out.append(words: leafWords(node), range: node.range, prosody: prosody)
            return
        }
        for (i, child) in node.children.enumerated() {
            speak(child, parent: node, index: i, depth: depth + 1, prosody: childProsody(child, prosody), into: &out)
        }
    }

    private func childProsody(_ child: SemanticNode, _ inherited: SpeechDescription.Prosody?) -> SpeechDescription.Prosody? {
        switch child.role {
        case .exponent: return .superscript
        case .subscript: return .subscript
        default: return inherited
        }
    }

    // MARK: Words

    /// The words of a leaf: numbers as written, letters as themselves, symbols and names through the
    /// lexicon, with a readable fallback (reported once per character).
    mutating func leafWords(_ node: SemanticNode) -> String {
        let text = node.text
        switch node.kind {
        case .number, .text: return text
        case .empty: return ""
        case .unknown:
            if let command = node.properties["command"] { return command.hasPrefix("\\") ? String(command.dropFirst()) : command }
            return text.isEmpty ? "" : symbolWords(text, node: node)
        case .functionName:
            if let w = lexicon.function(text, variant: variant) { return w }
            return symbolWords(text, node: node)
        default:
            return symbolWords(text, node: node)
        }
    }

    /// Words for symbol text: the whole text, else character by character; ASCII letters and digits
    /// stand for themselves.
    mutating func symbolWords(_ text: String, node: SemanticNode?) -> String {
        if text.isEmpty { return "" }
        if let w = lexicon.symbol(text, variant: variant) { return w }
        if let w = lexicon.function(text, variant: variant) { return w }
        if text.utf8.allSatisfy(isASCIILetterOrDigit) {
            return text
        }
        var words: [String] = []
        for scalar in text.unicodeScalars {
            let s = String(Character(scalar))
            if let w = lexicon.symbol(s, variant: variant) {
                if !w.isEmpty { words.append(w) }
            } else if scalar.isASCII && isASCIILetterOrDigit(UInt8(scalar.value)) {
                words.append(s)
            } else if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.isWhitespace {
                continue
            } else {
                let name = Lexicon.readableName(s)
                words.append(name)
                if !reported.contains(s) {
                    reported.insert(s)
                    diagnostics.append(.warning("speech.missing-word",
                        "no \(locale) word for '\(s)' (U+\(String(scalar.value, radix: 16, uppercase: true))); read as '\(name)'",
                        at: node?.range))
                }
            }
        }
        return words.joined(separator: " ")
    }

    // MARK: Templates

    private mutating func render(_ template: [CompiledPart], context: Context, depth: Int,
                                 prosody: SpeechDescription.Prosody?, into out: inout SpeechDescription) {
        var pendingJoin: String? = nil
        for part in template {
            if let joiner = pendingJoin {
                // Render the next part alone, then glue its words onto what came before.
                pendingJoin = nil
                var piece = SpeechDescription()
                render(part, context: context, depth: depth, prosody: prosody, into: &piece)
                let words = piece.plainText
                if words.isEmpty { continue }
                out.join(joiner, words: words, range: context.node.range)
                continue
            }
            if case .joiner(let text) = part {
                pendingJoin = text
            } else {
                render(part, context: context, depth: depth, prosody: prosody, into: &out)
            }
        }
    }

    /// One part of a template (a joiner is handled by the template loop).
    private mutating func render(_ part: CompiledPart, context: Context, depth: Int,
                                 prosody: SpeechDescription.Prosody?, into out: inout SpeechDescription) {
        let node = context.node
        switch part {
        case .joiner:
            break
        case .words(let w):
            out.append(words: w, range: node.range, prosody: prosody)
        case .pause(let p):
            out.append(pause: p)
        case .children:
            for (i, child) in node.children.enumerated() {
                speak(child, parent: node, index: i, depth: depth + 1, prosody: childProsody(child, prosody), into: &out)
            }
        case let .path(roles, format):
            // A path of roles: speak the node it leads to.
            guard let last = roles.last else { return }
            var target: SemanticNode? = node
            for role in roles.dropLast() { target = target?.children.first { $0.role == role } }
            if let target, let index = target.children.firstIndex(where: { $0.role == last }) {
                speak(target.children[index], parent: target, index: index, format: format, depth: depth, prosody: prosody, into: &out)
            }
        case let .child(role, format):
            for (i, child) in node.children.enumerated() where child.role == role {
                speak(child, parent: node, index: i, format: format, depth: depth, prosody: prosody, into: &out)
            }
        case .text(let format):
            if let format, let words = formatted(node.text, format: format, node: node) {
                out.append(words: words, range: node.range, prosody: prosody)
            } else {
                out.append(words: leafWords(node), range: node.range, prosody: prosody)
            }
        case let .property(name, property, format):
            let value = propertyValue(name, property, of: node, isSelf: true, context: context) ?? ""
            if let format, let words = formatted(value, format: format, node: nil) {
                out.append(words: words, range: node.range, prosody: prosody)
            } else {
                out.append(words: value, range: node.range, prosody: prosody)
            }
        case .lookup(let key):
            let words = lexicon.symbol(key, variant: variant) ?? lexicon.number(key, variant: variant)
                ?? symbolWords(key, node: node)
            out.append(words: words.trimmingSpaces, range: node.range, prosody: prosody)
        }
    }

    /// A child named in a template (`{numerator}`, `{denominator:ordinal}`): a leaf with a format
    /// that applies says the formatted words, anything else is spoken.
    private mutating func speak(_ child: SemanticNode, parent: SemanticNode, index: Int, format: ValueFormat?, depth: Int,
                                prosody: SpeechDescription.Prosody?, into out: inout SpeechDescription) {
        if let format, child.children.isEmpty, let words = formatted(child.text, format: format, node: child) {
            out.append(words: words, range: child.range, prosody: childProsody(child, prosody))
        } else {
            speak(child, parent: parent, index: index, depth: depth + 1, prosody: childProsody(child, prosody), into: &out)
        }
    }

    /// Formats a value (see ``ValueFormat``). Nil when the format does not apply.
    mutating func formatted(_ value: String, format: ValueFormat, node: SemanticNode?) -> String? {
        let integer = Int(value)
        switch format {
        case .raw: return value
        case .cardinal: return integer.flatMap { NumberWording.cardinal($0, lexicon: lexicon) }
        case .ordinal:
            if let n = integer { return NumberWording.ordinal(n, lexicon: lexicon) }
            if let node, node.kind == .identifier, node.children.isEmpty {
                return symbolWords(value, node: node) + (lexicon.number("ordinal-suffix") ?? "-th")
            }
            return nil
        case .ordinalPlural:
            guard let n = integer, let o = NumberWording.ordinal(n, lexicon: lexicon) else { return nil }
            return lexicon.number("ordinal.\(n)", variant: "plural") ?? (o + "s")
        case .denominator:
            guard let n = integer else { return nil }
            return lexicon.number("denominator.\(n)") ?? NumberWording.ordinal(n, lexicon: lexicon)
        case .denominatorPlural:
            guard let n = integer else { return nil }
            return lexicon.number("denominator.\(n)", variant: "plural")
                ?? NumberWording.ordinal(n, lexicon: lexicon).map { $0 + "s" }
        case .rootIndex:
            if let n = integer { return lexicon.number("root.\(n)") ?? NumberWording.ordinal(n, lexicon: lexicon) }
            if let node, node.kind == .identifier, node.children.isEmpty {
                return symbolWords(value, node: node) + (lexicon.number("ordinal-suffix") ?? "-th")
            }
            return nil
        case .word: return lexicon.symbol(value, variant: variant) ?? symbolWords(value, node: node)
        case .function: return lexicon.function(value, variant: variant)
        case .unit: return lexicon.unit(value, plural: false)
        case .unitPlural: return lexicon.unit(value, plural: true)
        case .spell: return value.map { String($0) }.joined(separator: " ")
        case .ordinalNumeral: return integer.flatMap { NumberWording.ordinalNumeral($0, lexicon: lexicon) }
        case .power: return integer.flatMap { lexicon.number("power.\($0)") }
        case .unknown: return nil
        }
    }

    // MARK: Conditions

    struct Context {
        let node: SemanticNode
        let parent: SemanticNode?
        let index: Int
    }

    /// Follows a path of roles from the node; the first step may be `next`, `previous` (siblings)
    /// or `parent` (repeated: ancestors).
    private func resolve(_ path: [CompiledCondition.Step], context: Context) -> SemanticNode? {
        var current = context.node
        for step in path {
            switch step {
            case .child(let role):
                guard let next = current.children.first(where: { $0.role == role }) else { return nil }
                current = next
            case .parent(let levels):
                guard context.parent != nil, levels <= ancestors.count else { return nil }
                current = ancestors[ancestors.count - levels]
            case .next:
                guard let parent = context.parent, context.index + 1 < parent.children.count else { return nil }
                current = parent.children[context.index + 1]
            case .previous:
                guard let parent = context.parent, context.index > 0 else { return nil }
                current = parent.children[context.index - 1]
            }
        }
        return current
    }

    /// A property, or one of the pseudo-properties `text`, `kind`, `role`, `count`, `script-path`,
    /// `position` (the last two only of the node being spoken, `isSelf`).
    private func propertyValue(_ name: String, _ property: CompiledCondition.Property, of node: SemanticNode,
                               isSelf: Bool, context: Context) -> String? {
        if !node.properties.isEmpty, let v = node.properties[name] { return v }
        switch property {
        case .other: return nil
        case .text: return node.text
        case .kind: return node.kind.rawValue
        case .role: return node.role.rawValue
        case .count: return String(node.children.count)
        case .scriptPath:
            // The scripts this node sits in, outermost first: "super", "sub", "super.sub"…
            guard isSelf else { return nil }
            var path = ""
            for n in ancestors.dropFirst() { appendScript(n.role, to: &path) }
            appendScript(node.role, to: &path)
            return path
        case .position:
            guard isSelf, let parent = context.parent else { return nil }
            var same = 0
            for sibling in parent.children[..<context.index] where sibling.role == node.role { same += 1 }
            return String(same + 1)
        }
    }

    private func appendScript(_ role: SemanticNode.Role, to path: inout String) {
        let script = role == .exponent ? "super" : role == .subscript ? "sub" : nil
        guard let script else { return }
        if !path.isEmpty { path += "." }
        path += script
    }

    /// Whether a property of the node being matched passes value test `test`; the property is looked
    /// up once per node and name.
    private mutating func ownProperty(_ name: Int, passes test: Int, _ context: Context, _ table: RuleTable) -> Bool {
        let found: Bool? = lookedUp.withUnsafeBufferPointer { lookedUp in
            for i in lookedUp.indices where lookedUp[i].name == name {
                return table.valueTest(test, passes: lookedUp[i].value)
            }
            return nil
        }
        if let found { return found }
        let value = propertyValue(table.propertyNames[name], table.properties[name], of: context.node, isSelf: true, context: context)
        lookedUp.append(LookedUp(name: name, value: value))
        return table.valueTest(test, passes: value)
    }

    mutating func holds(_ condition: CompiledCondition, _ context: Context, _ table: RuleTable) -> Bool {
        let negated = condition.negated
        switch condition.test {
        case let .property(path, name, test):
            if path < 0 { return ownProperty(name, passes: test, context, table) != negated }
            guard let target = resolve(table.paths[path], context: context) else { return negated }
            let value = propertyValue(table.propertyNames[name], table.properties[name], of: target, isSelf: false, context: context)
            return table.valueTest(test, passes: value) != negated
        case let .preference(slot):
            return preferences.holds(slot, table) != negated
        case let .kind(path, kinds):
            guard let target = path < 0 ? context.node : resolve(table.paths[path], context: context) else { return negated }
            return kinds.contains(target.kind) != negated
        case let .parentKind(kinds):
            guard let parent = context.parent else { return negated }
            return kinds.contains(parent.kind) != negated
        case let .role(list):
            return table.roleLists[list].contains(context.node.role) != negated
        case .followed:
            guard let parent = context.parent else { return negated }
            return (context.index < parent.children.count - 1) != negated
        case .first:
            return (context.index == 0) != negated
        case let .within(kinds):
            return ancestors.contains { kinds.contains($0.kind) } != negated
        }
    }

    func describe(_ condition: RuleCondition) -> String {
        func t(_ t: ValueTest) -> String {
            switch t {
            case .present: return ""
            case .oneOf(let v): return v.count == 1 ? " = \(v[0])" : " in \(v.joined(separator: ", "))"
            case .less(let n): return " < \(n)"
            case .greater(let n): return " > \(n)"
            }
        }
        switch condition {
        case let .property(path, name, test, negated):
            return (negated ? "not " : "") + (path + [name]).joined(separator: ".") + t(test)
        case let .preference(name, test, negated): return (negated ? "not " : "") + "pref \(name)" + t(test)
        case let .kind(path, kinds, negated):
            return (path.isEmpty ? "self" : path.joined(separator: ".")) + (negated ? " is not " : " is ") + kinds.joined(separator: ", ")
        case let .parentKind(kinds, negated): return "parent" + (negated ? " is not " : " is ") + kinds.joined(separator: ", ")
        case let .role(roles, negated): return "role" + (negated ? " is not " : " is ") + roles.joined(separator: ", ")
        case let .followed(negated): return negated ? "not followed" : "followed"
        case let .first(negated): return negated ? "not first" : "first"
        case let .within(kinds, negated): return (negated ? "not " : "") + "within " + kinds.joined(separator: ", ")
        }
    }
}

/// ASCII case-insensitive equality (preference names and values, rule values) without allocating.
@inline(__always)
func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    var i = a.utf8.makeIterator(), j = b.utf8.makeIterator()
    while true {
        let x = i.next(), y = j.next()
        guard let x, let y else { return x == nil && y == nil }
        if x == y { continue }
        let lx = (x >= 65 && x <= 90) ? x + 32 : x
        let ly = (y >= 65 && y <= 90) ? y + 32 : y
        if lx != ly { return false }
    }
}

/// An ASCII letter or digit (the letters are the ASCII characters with the Unicode Alphabetic property).
@inline(__always)
func isASCIILetterOrDigit(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
}

