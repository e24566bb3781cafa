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
    /// The rules as shared references (templates, and the conditions as written for `--explain`).
    let compiled: [CompiledRule]
    /// Every rule's conditions as plain values, with the candidate lists: what matching reads.
    let table: RuleTable

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
        compiled = rules.map(CompiledRule.init)
        table = RuleTable(rules)
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

/// A rule held by reference: its template compiled, its conditions as written (for `--explain`).
final class CompiledRule: Sendable {
    let rule: SpeechRule
    let conditions: [RuleCondition]
    let template: [CompiledPart]

    init(_ rule: SpeechRule) {
        self.rule = rule
        self.conditions = rule.conditions
        self.template = rule.template.map(CompiledPart.init)
    }
}

/// What matching reads (the hot path of speaking), built when the style loads: every rule's
/// conditions as ``CompiledCondition`` values in one array — plain numbers, so testing them is
/// integer comparisons and array indexing without reference counting — and per kind the candidate
/// rules. Names, paths, roles and value tests that conditions refer to are numbered here.
final class RuleTable: Sendable {
    /// Rule `r`'s conditions are `tests[testStart[r] ..< testStart[r + 1]]`, cheapest first: all must
    /// hold and none has side effects, so the order only changes how soon a failing rule is left.
    let testStart: [Int]
    let tests: [CompiledCondition]
    /// Paths of roles (`numerator` in `numerator.simple`, `parent.parent`), by number.
    let paths: [[CompiledCondition.Step]]
    /// Property names tested, by number, with the pseudo-property each one is.
    let propertyNames: [String]
    let properties: [CompiledCondition.Property]
    /// Value tests (`= squared`, `< 3`), by number.
    let valueTests: [CompiledValueTest]
    /// Role lists (`role is exponent, subscript`), by number.
    let roleLists: [[SemanticNode.Role]]
    /// The distinct preference tests (`pref Fractions = Over`), by number: preferences are fixed for a
    /// whole run, so a run evaluates each at most once.
    let preferenceTests: [PreferenceTest]
    /// Per rule, where its tests after the preference tests start (those come first).
    let testsAfterPreferences: [Int]
    /// The candidate rules per kind and node text.
    let candidates: Candidates

    /// A preference condition without its negation.
    struct PreferenceTest: Sendable {
        let name: String
        let test: CompiledValueTest
    }

    /// Candidate lists of one kind: per node text, the rules whose `text = …` condition allows that
    /// text plus the rules without one; `other` for any other text. One look-up per node instead of a
    /// set test per rule.
    struct KindCandidates: Sendable {
        let byText: TextTable<[Int]>
        let other: [Int]
    }

    /// Per kind (indexed by ``SemanticKind/number``), the candidate lists split by node text.
    struct Candidates: Sendable {
        let byKind: [KindCandidates]
        /// Whether the rules whose preference tests fail are left out (and the others' hold).
        let preferencesTested: Bool

        /// The rules that may apply to a node of `kind` with `text`, in priority order. A rule's own
        /// conditions still decide; this only leaves out rules that cannot match.
        @inline(__always)
        func rules(for kind: SemanticKind, text: String) -> [Int] {
            let split = byKind[kind.number]
            if split.byText.isEmpty { return split.other }
            return split.byText[text] ?? split.other
        }

        /// The lists without the rules `keep` rejects, for fixed preferences.
        func keeping(_ keep: (Int) -> Bool) -> Candidates {
            Candidates(byKind: byKind.map { k in
                KindCandidates(byText: k.byText.mapValues { $0.filter(keep) }, other: k.other.filter(keep))
            }, preferencesTested: true)
        }
    }

    init(_ rules: [SpeechRule]) {
        var builder = Builder()
        var testStart = [0]
        var testsAfterPreferences: [Int] = []
        var tests: [CompiledCondition] = []
        for rule in rules {
            let compiled = rule.conditions.map { builder.compile($0) }
            tests += compiled.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }.map(\.element)
            testsAfterPreferences.append(testStart.last! + compiled.filter { if case .preference = $0.test { true } else { false } }.count)
            testStart.append(tests.count)
        }
        self.testStart = testStart
        self.testsAfterPreferences = testsAfterPreferences
        self.tests = tests
        paths = builder.paths
        propertyNames = builder.propertyNames
        properties = builder.propertyNames.map(CompiledCondition.Property.init(name:))
        valueTests = builder.valueTests
        roleLists = builder.roleLists
        preferenceTests = builder.preferenceTests

        var byKind: [String: [Int]] = [:]
        for (i, rule) in rules.enumerated() { byKind[rule.kind, default: []].append(i) }
        let any = byKind["*"] ?? []
        // Per rule: the node texts it can match when it has a `text = …` condition (nil = any text).
        let filters: [Set<String>?] = rules.map { rule in
            for condition in rule.conditions {
                if case let .property(path, name, .oneOf(values), negated) = condition, path.isEmpty, name == "text", !negated {
                    return Set(values)
                }
            }
            return nil
        }
        // Per kind: its rules with the `*` rules merged in (file order), split by node text. A kind
        // without rules of its own gets the `*` rules, unsplit.
        SemanticKind.checkNumbering()
        candidates = Candidates(byKind: SemanticKind.allCases.map { kind in
            guard let own = byKind[kind.rawValue] else { return KindCandidates(byText: TextTable([:]), other: any) }
            let list = (own + any).sorted()
            let texts = Set(list.compactMap { filters[$0] }.flatMap { $0 })
            var byText: [String: [Int]] = [:]
            for text in texts { byText[text] = list.filter { filters[$0] == nil || filters[$0]!.contains(text) } }
            return KindCandidates(byText: TextTable(byText), other: list.filter { filters[$0] == nil })
        }, preferencesTested: false)
    }

    /// Whether value test `n` passes for `value` (the test is read in place, not copied).
    @inline(__always)
    func valueTest(_ n: Int, passes value: String?) -> Bool {
        valueTests.withUnsafeBufferPointer { $0[n].passes(value) }
    }

    /// Numbers what conditions refer to while they are compiled.
    private struct Builder {
        var paths: [[CompiledCondition.Step]] = []
        var propertyNames: [String] = []
        var valueTests: [CompiledValueTest] = []
        var roleLists: [[SemanticNode.Role]] = []
        var preferenceTests: [PreferenceTest] = []
        var pathNumbers: [[String]: Int] = [:]
        var propertyNumbers: [String: Int] = [:]
        var valueTestNumbers: [ValueTest: Int] = [:]
        var roleListNumbers: [[String]: Int] = [:]
        var preferenceNumbers: [PreferenceKey: Int] = [:]

        struct PreferenceKey: Hashable {
            let name: String
            let test: ValueTest
        }

        static func number<Key: Hashable, Value>(_ key: Key, _ numbers: inout [Key: Int], _ values: inout [Value],
                                                 _ make: () -> Value) -> Int {
            if let n = numbers[key] { return n }
            numbers[key] = values.count
            values.append(make())
            return values.count - 1
        }

        /// The path's number; -1 for the node itself (an empty path).
        mutating func path(_ path: [String]) -> Int {
            if path.isEmpty { return -1 }
            return Builder.number(path, &pathNumbers, &paths) {
                var out: [CompiledCondition.Step] = []
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
        }

        mutating func compile(_ condition: RuleCondition) -> CompiledCondition {
            switch condition {
            case let .property(path, name, t, negated):
                let name = Builder.number(name, &propertyNumbers, &propertyNames) { name }
                let test = Builder.number(t, &valueTestNumbers, &valueTests) { CompiledValueTest(t) }
                return CompiledCondition(.property(path: self.path(path), name: name, test: test), negated: negated)
            case let .preference(name, t, negated):
                let slot = Builder.number(PreferenceKey(name: name, test: t), &preferenceNumbers, &preferenceTests) {
                    PreferenceTest(name: name, test: CompiledValueTest(t))
                }
                return CompiledCondition(.preference(slot: slot), negated: negated)
            case let .kind(path, kinds, negated):
                return CompiledCondition(.kind(path: self.path(path), KindSet(kinds)), negated: negated)
            case let .parentKind(kinds, negated):
                return CompiledCondition(.parentKind(KindSet(kinds)), negated: negated)
            case let .role(roles, negated):
                let list = Builder.number(roles, &roleListNumbers, &roleLists) { roles.map { SemanticNode.Role(rawValue: $0) } }
                return CompiledCondition(.role(list), negated: negated)
            case let .followed(negated):
                return CompiledCondition(.followed, negated: negated)
            case let .first(negated):
                return CompiledCondition(.first, negated: negated)
            case let .within(kinds, negated):
                return CompiledCondition(.within(KindSet(kinds)), negated: negated)
            }
        }
    }
}

/// A condition prepared for matching: plain values only (numbers into the ``RuleTable``, kinds as a
/// bit set), so copying and testing one costs no reference counting.
struct CompiledCondition: Sendable {
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

    /// The tests; numbers refer to the ``RuleTable``'s lists, `path` -1 to the node itself.
    enum Test: Sendable {
        case property(path: Int, name: Int, test: Int)
        case preference(slot: Int)
        case kind(path: Int, KindSet)
        case parentKind(KindSet)
        case role(Int)
        case followed
        case first
        case within(KindSet)
    }

    let test: Test
    let negated: Bool

    init(_ test: Test, negated: Bool) {
        self.test = test
        self.negated = negated
    }

    /// How much testing costs, roughly: preferences are known after their first test in a run; a
    /// node's kind, role and position are at hand; properties need a look-up; `within` walks the
    /// ancestors.
    var cost: Int {
        switch test {
        case .preference: return 0
        case .first, .followed, .role, .parentKind: return 1
        case .kind(let path, _): return path < 0 ? 1 : 2
        case .property(let path, _, _): return path < 0 ? 3 : 4
        case .within: return 5
        }
    }
}

/// A set of kinds as bits by ``SemanticKind/number`` (`*` is every kind).
struct KindSet: Sendable {
    private var low: UInt64 = 0, high: UInt64 = 0

    init(_ names: [String]) {
        if names.contains("*") {
            low = ~0
            high = ~0
            return
        }
        for kind in names.compactMap(SemanticKind.init(rawValue:)) {
            let n = kind.number
            if n < 64 { low |= 1 << UInt64(n) } else { high |= 1 << UInt64(n - 64) }
        }
    }

    @inline(__always)
    func contains(_ kind: SemanticKind) -> Bool {
        let n = kind.number
        return (n < 64 ? low >> UInt64(n) : high >> UInt64(n - 64)) & 1 != 0
    }
}

/// A ``ValueTest`` prepared for matching: the values of `= a, b` know whether they are all ASCII, so
/// the usual test is a byte comparison. A struct read in place (an enum with an array payload is
/// copied, with reference counting, each time it is switched on).
struct CompiledValueTest: Sendable {
    enum Operation: Sendable { case present, oneOf, less, greater }
    let operation: Operation
    /// For `oneOf`.
    let values: [String]
    let allASCII: Bool
    /// For `less` and `greater`.
    let number: Double

    init(_ test: ValueTest) {
        var values: [String] = []
        var number = 0.0
        switch test {
        case .present: operation = .present
        case .oneOf(let v): operation = .oneOf; values = v
        case .less(let n): operation = .less; number = n
        case .greater(let n): operation = .greater; number = n
        }
        self.values = values
        self.number = number
        allASCII = values.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// Whether `value` passes: present and not `false` or empty; one of the values (ASCII
    /// case-insensitive, or equal as strings); a number below / above.
    func passes(_ value: String?) -> Bool {
        switch operation {
        case .present: return value != nil && value != "false" && value != ""
        case .oneOf:
            guard let value else { return false }
            return values.withUnsafeBufferPointer { values in
                for v in values where equalIgnoringASCIICase(v, value) { return true }
                // Strings that differ in bytes can still be equal as Swift strings (canonical
                // equivalence), but only when one of them is not ASCII.
                if allASCII && value.utf8.allSatisfy({ $0 < 0x80 }) { return false }
                return values.contains(value)
            }
        case .less: return value.flatMap(Double.init).map { $0 < number } ?? false
        case .greater: return value.flatMap(Double.init).map { $0 > number } ?? false
        }
    }
}

/// A template part prepared for speaking: role paths split into roles, formats and property names
/// into cases, once when the style loads.
enum CompiledPart: Sendable {
    case words(String)
    case pause(SpeechDescription.Pause)
    /// All children in order.
    case children
    /// The children with a role (all of them, in order).
    case child(SemanticNode.Role, format: ValueFormat?)
    /// The first node reached through a path of roles (`function.subscript`).
    case path([SemanticNode.Role], format: ValueFormat?)
    case text(format: ValueFormat?)
    case property(name: String, CompiledCondition.Property, format: ValueFormat?)
    case lookup(key: String)
    case joiner(String)

    init(_ part: TemplatePart) {
        switch part {
        case .words(let w): self = .words(w)
        case .pause(let p): self = .pause(p)
        case .children: self = .children
        case let .child(role, format) where role.utf8.contains(0x2E):  // a path: "function.subscript"
            self = .path(role.split(separator: ".").map { SemanticNode.Role(rawValue: String($0)) }, format: format.map(ValueFormat.init))
        case let .child(role, format): self = .child(SemanticNode.Role(rawValue: role), format: format.map(ValueFormat.init))
        case .text(let format): self = .text(format: format.map(ValueFormat.init))
        case let .property(name, format):
            self = .property(name: name, CompiledCondition.Property(name: name), format: format.map(ValueFormat.init))
        case .lookup(let key): self = .lookup(key: key)
        case .joiner(let text): self = .joiner(text)
        }
    }
}

/// The formats after a colon in a template reference (`{denominator:ordinal}`, see `Rules/README.md`).
/// An unknown name formats nothing (the part is spoken as if it had no format).
enum ValueFormat: Sendable {
    case raw, cardinal, ordinal, ordinalPlural, ordinalNumeral, denominator, denominatorPlural, rootIndex
    case word, function, unit, unitPlural, spell, power
    case unknown

    init(_ name: String) {
        switch name {
        case "raw": self = .raw
        case "cardinal": self = .cardinal
        case "ordinal": self = .ordinal
        case "ordinal-plural": self = .ordinalPlural
        case "ordinal-numeral": self = .ordinalNumeral
        case "denominator": self = .denominator
        case "denominator-plural": self = .denominatorPlural
        case "root-index": self = .rootIndex
        case "word": self = .word
        case "function": self = .function
        case "unit": self = .unit
        case "unit-plural": self = .unitPlural
        case "spell": self = .spell
        case "power": self = .power
        default: self = .unknown
        }
    }
}

extension SemanticKind {
    /// The kind's number, `0 ..< allCases.count` in declaration order, for indexing tables by kind
    /// without hashing: an enum without payloads is stored as its case number (checked by
    /// ``checkNumbering()`` when a style is compiled).
    @inline(__always)
    var number: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    /// Stops with a clear message if ``number`` does not give the case numbers (the enum got
    /// payloads), or if there are more kinds than a ``KindSet`` holds.
    static func checkNumbering() {
        precondition(MemoryLayout<SemanticKind>.size == 1 && allCases.count <= 128
                     && allCases.enumerated().allSatisfy { $0.offset == $0.element.number },
                     "SemanticKind is no longer stored as its case number; change SemanticKind.number")
    }
}
