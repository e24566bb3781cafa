import Foundation
import MathSemantics

/// A compiled speech style: the rules of a style file and everything it inherits, its preferences
/// and its word overrides. Immutable and `Sendable`.
public struct SpeechStyle: Sendable {
    /// The style name (`clearspeak`, `mathspeak`).
    public let name: String
    /// The locale tag of its rule file.
    public let locale: String
    /// Declared preferences (own first, then inherited).
    public let preferences: [PreferenceDeclaration]
    /// All rules in priority order (own file first, then inherited files).
    public let rules: [SpeechRule]
    /// Word overrides of the style.
    public let words: WordTable
    private let byKind: [String: [Int]]
    private let anyKind: [Int]
    /// The rules as shared references, so matching does not copy them (hot path).
    let compiled: [CompiledRule]
    /// Per kind (raw value), the candidate lists split by node text.
    private let candidatesByKind: [String: KindCandidates]

    /// Compiles rule files: `files[0]` is the style's own file, the rest what it inherits (in order).
    public init(files: [RuleFile], words: WordTable) {
        name = files.first?.style ?? ""
        locale = files.first?.locale ?? ""
        var preferences: [PreferenceDeclaration] = []
        var seen: Set<String> = []
        for file in files {
            for p in file.preferences where !seen.contains(p.name.lowercased()) {
                seen.insert(p.name.lowercased())
                preferences.append(p)
            }
        }
        self.preferences = preferences
        rules = files.flatMap(\.rules)
        self.words = words
        var byKind: [String: [Int]] = [:]
        for (i, rule) in rules.enumerated() { byKind[rule.kind, default: []].append(i) }
        let any = byKind["*"] ?? []
        // Merge the `*` rules into every kind's list once, keeping file order.
        for (kind, list) in byKind where kind != "*" { byKind[kind] = (list + any).sorted() }
        self.byKind = byKind
        self.anyKind = any
        compiled = rules.map(CompiledRule.init)
        // Per rule: the node texts it can match when it has a `text = …` condition (nil = any text).
        let filters: [Set<String>?] = rules.map { rule in
            for condition in rule.conditions {
                if case let .property(path, name, .oneOf(values), negated) = condition, path.isEmpty, name == "text", !negated {
                    return Set(values)
                }
            }
            return nil
        }
        var split: [String: KindCandidates] = [:]
        for (kind, list) in byKind {
            let texts = Set(list.compactMap { filters[$0] }.flatMap { $0 })
            var byText: [String: [Int]] = [:]
            for text in texts { byText[text] = list.filter { filters[$0] == nil || filters[$0]!.contains(text) } }
            split[kind] = KindCandidates(byText: byText, other: list.filter { filters[$0] == nil })
        }
        candidatesByKind = split
    }

    /// The rules that may apply to a kind, in priority order (kind-specific and `*` rules).
    func candidates(for kind: String) -> [Int] {
        byKind[kind] ?? anyKind
    }

    /// Candidate lists of one kind: per node text, the rules whose `text = …` condition allows that
    /// text plus the rules without one; `other` for any other text. One look-up per node instead of a
    /// set test per rule (the hot path of speaking).
    struct KindCandidates: Sendable {
        let byText: [String: [Int]]
        let other: [Int]
    }

    /// The rules that may apply to a node of `kind` with `text`, in priority order.
    func candidates(for kind: String, text: String) -> [Int] {
        guard let split = candidatesByKind[kind] else { return anyKind }
        return split.byText[text] ?? split.other
    }

    /// Resolves user preferences (case-insensitive names, aliases and values) against the
    /// declarations; unknown names or values are reported and ignored. Undeclared preferences get
    /// their default (first) value.
    public func resolve(_ requested: [String: String]) -> (values: [String: String], problems: [String]) {
        var values: [String: String] = [:]
        for p in preferences { values[p.name] = p.values.first ?? "" }
        var problems: [String] = []
        for (rawName, rawValue) in requested {
            let key = rawName.lowercased()
            guard let declaration = preferences.first(where: { d in
                d.name.lowercased() == key || d.aliases.contains { $0.lowercased() == key }
                    || d.name.lowercased() == key + "s" || (key.hasSuffix("s") && d.name.lowercased() + "s" == key)
            }) else {
                problems.append("unknown preference '\(rawName)' for style \(name); known: \(preferences.map(\.name).joined(separator: ", "))")
                continue
            }
            guard let value = declaration.values.first(where: { $0.lowercased() == rawValue.lowercased() }) else {
                problems.append("unknown value '\(rawValue)' for preference \(declaration.name); allowed: \(declaration.values.joined(separator: ", "))")
                continue
            }
            values[declaration.name] = value
        }
        return (values, problems)
    }
}

/// A rule held by reference for matching: conditions compiled, template read in place.
final class CompiledRule: Sendable {
    let rule: SpeechRule
    /// The conditions as written (for `--explain`).
    let conditions: [RuleCondition]
    /// The same conditions in the form the matcher tests (same order).
    let tests: [CompiledCondition]
    let template: [TemplatePart]

    init(_ rule: SpeechRule) {
        self.rule = rule
        self.conditions = rule.conditions
        self.tests = rule.conditions.map(CompiledCondition.init)
        self.template = rule.template
    }
}

/// A condition prepared for matching (the hot path of speaking): role paths split into steps once,
/// kind names turned into kinds, property names into pseudo-property cases.
final class CompiledCondition: Sendable {
    /// One step of a path: a sibling, an ancestor, or the child with a role.
    enum Step: Sendable {
        case next, previous
        case parent(levels: Int)
        case child(SemanticNode.Role)
    }

    /// A property or one of the pseudo-properties computed from the node.
    enum Property: Sendable {
        case text, kind, role, count, scriptPath, position
        case other

        init(name: String) {
            switch name {
            case "text": self = .text
            case "kind": self = .kind
            case "role": self = .role
            case "count": self = .count
            case "script-path": self = .scriptPath
            case "position": self = .position
            default: self = .other
            }
        }
    }

    /// A set of kinds (`*` matches every kind).
    struct Kinds: Sendable {
        let kinds: [SemanticKind]
        let any: Bool
        init(_ names: [String]) {
            kinds = names.compactMap(SemanticKind.init(rawValue:))
            any = names.contains("*")
        }
        func contains(_ kind: SemanticKind) -> Bool { any || kinds.contains(kind) }
    }

    enum Test: Sendable {
        case property(steps: [Step], name: String, property: Property, test: ValueTest)
        case preference(name: String, test: ValueTest)
        case kind(steps: [Step], kinds: Kinds)
        case parentKind(Kinds)
        case role([SemanticNode.Role])
        case followed
        case first
        case within(Kinds)
    }

    let test: Test
    let negated: Bool

    init(_ condition: RuleCondition) {
        func steps(_ path: [String]) -> [Step] {
            var out: [Step] = []
            var rest = path[...]
            switch rest.first {
            case "parent":
                var levels = 0
                while rest.first == "parent" { levels += 1; rest = rest.dropFirst() }
                out.append(.parent(levels: levels))
            case "next": out.append(.next); rest = rest.dropFirst()
            case "previous": out.append(.previous); rest = rest.dropFirst()
            default: break
            }
            out += rest.map { .child(SemanticNode.Role(rawValue: $0)) }
            return out
        }
        switch condition {
        case let .property(path, name, t, negated):
            test = .property(steps: steps(path), name: name, property: Property(name: name), test: t)
            self.negated = negated
        case let .preference(name, t, negated):
            test = .preference(name: name, test: t)
            self.negated = negated
        case let .kind(path, kinds, negated):
            test = .kind(steps: steps(path), kinds: Kinds(kinds))
            self.negated = negated
        case let .parentKind(kinds, negated):
            test = .parentKind(Kinds(kinds))
            self.negated = negated
        case let .role(roles, negated):
            test = .role(roles.map { SemanticNode.Role(rawValue: $0) })
            self.negated = negated
        case let .followed(negated):
            test = .followed
            self.negated = negated
        case let .first(negated):
            test = .first
            self.negated = negated
        case let .within(kinds, negated):
            test = .within(Kinds(kinds))
            self.negated = negated
        }
    }
}
