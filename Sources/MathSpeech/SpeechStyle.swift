import Foundation
import MathSyntax
import MathSemantics

/// A compiled speech style: the rules of a style file and everything it inherits, its preferences
/// and its word overrides. Immutable and `Sendable`.
public struct SpeechStyle: Sendable {
    /// Whether a rule of the style tests property `name` of some node (`parent.applied-elsewhere`): an
    /// analysis that only such a rule reads is asked of the analyzer only then
    /// (``MathSemantics/SemanticAnalyzer/Options/marksAppliedElsewhere``).
    package func readsProperty(_ name: String) -> Bool {
        // Compared as bytes: a rule file's names are not known to be ASCII, where `==` may compare with
        // normalization. The walk costs 0.47 M instructions a speaker (`mathaloud speak` under callgrind).
        let count = name.utf8.count
        func reads(_ c: RuleCondition) -> Bool {
            if case .property(_, let n, _, _) = c { return n.utf8.count == count && n.utf8.elementsEqual(name.utf8) }
            return false
        }
        return compiledRules.contains { r in r.conditions.contains(where: reads) || r.alternatives.contains { $0.contains(where: reads) } }
    }

    /// The style name (`ClearSpeak`, `SimpleSpeak`, `MathSpeak`: the `style` line of its rule file).
    public let name: String
    /// The locale tag of its rule file.
    public let locale: String
    /// The preferences the style offers (own first, then those of files inherited with their
    /// preferences).
    public let preferences: [PreferenceDeclaration]
    /// Preferences of files inherited `without preferences`: their rules see each at its default
    /// (first) value, and a request cannot change it.
    public let fixedPreferences: [PreferenceDeclaration]
    /// All rules in priority order (own file first, then inherited files).
    public let rules: [SpeechRule]
    /// Word overrides of the style.
    public let words: WordTable
    /// Literal words of rules inherited from another language that the locale's phrase files do not
    /// translate (see ``PhraseTable``); empty when nothing is inherited across languages.
    public var untranslatedPhrases: [UntranslatedPhrase] = []
    /// The key prefix of the script-level indicator words when the style tracks script levels
    /// (``RuleFile/levelWords``; the first file that declares one).
    public let levelWords: String?
    /// The rules compiled against the semantic tree's vocabulary: what matching and speaking read.
    let table: RuleTable
    /// The rules the table holds: ``rules`` with each choice of a rule's `either`/`or` lines as a rule of
    /// its own (``SpeechRule/compiled``); a trace lists the conditions of the choice that held.
    let compiledRules: [SpeechRule]

    /// Compiles rule files: `files[0]` is the style's own file, the rest what it inherits (in order).
    /// The preferences of the files named in `fixingPreferencesOf` (reached through `inherit …
    /// without preferences`) are not offered: their rules see the default values.
    public init(files: [RuleFile], words: WordTable, fixingPreferencesOf fixed: Set<String> = []) {
        name = files.first?.style ?? ""
        locale = files.first?.locale ?? ""
        var offered: [PreferenceDeclaration] = [], hidden: [PreferenceDeclaration] = []
        var seen: Set<String> = []
        // Offered declarations first, so that a style re-declaring an inherited preference offers it.
        for file in files where !fixed.contains(file.file) {
            for p in file.preferences where seen.insert(p.name.lowercased()).inserted { offered.append(p) }
        }
        for file in files where fixed.contains(file.file) {
            for p in file.preferences where seen.insert(p.name.lowercased()).inserted { hidden.append(p) }
        }
        preferences = offered
        fixedPreferences = hidden
        rules = files.flatMap(\.rules)
        self.words = words
        levelWords = files.lazy.compactMap(\.levelWords).first
        // A rule with `either`/`or` choices is compiled as one rule per choice, in its place (the first
        // whose conditions hold speaks; they say the same): matching keeps its per-rule rows.
        // A rule without choices is appended as it is: `flatMap(\.compiled)` made an array of one copy
        // per rule and copied it through the runtime's generic array copy (1.4 M of the 87.6 M
        // instructions of `mathaloud speak 'x^2'` under callgrind, session 46).
        if rules.contains(where: { !$0.alternatives.isEmpty }) {
            var compiled: [SpeechRule] = []
            compiled.reserveCapacity(rules.reduce(0) { $0 + max($1.alternatives.count, 1) })
            for rule in rules {
                if rule.alternatives.isEmpty { compiled.append(rule) } else { compiled += rule.compiled }
            }
            compiledRules = compiled
        } else {
            compiledRules = rules
        }
        table = RuleTable(compiledRules, fileOrder: files.map(\.file))
    }

    /// The default value of the style's `Verbosity` preference (nil when it declares none): words
    /// for any other verbosity are the word-file variant of that name (`| terse: …`).
    public var defaultVerbosity: String? {
        (preferences + fixedPreferences).first { equalIgnoringASCIICase($0.name, "Verbosity") }?.values.first
    }

    /// MathCAT's number preferences, which every style accepts: the characters the source writes as a
    /// decimal separator and between blocks of digits (`DecimalSeparators=,` and `BlockSeparators=.`
    /// for "1.234,56"). The `decimal` format reads them (``SpeechRun``); without them a number that
    /// writes both marks, a comma last, has a decimal comma.
    public static let numberPreferences = ["DecimalSeparators", "BlockSeparators"]

    /// Resolves user preferences (case-insensitive names, aliases and values) against the offered
    /// declarations; every preference (offered or fixed) starts at its default (first) value. A
    /// request the style cannot use — an unknown name, or a value the preference does not allow — is
    /// ignored and reported as a ``PreferenceProblem`` (a warning: the formula is still spoken).
    public func resolve(_ requested: [String: String]) -> (values: [String: String], problems: [PreferenceProblem]) {
        var values: [String: String] = [:]
        for p in fixedPreferences + preferences { values[p.name] = p.values.first ?? "" }
        var problems: [PreferenceProblem] = []
        // Sorted by name, so that the problems come out in the same order on every run.
        for (rawName, rawValue) in requested.sorted(by: { $0.key < $1.key }) {
            let key = rawName.lowercased()
            // The number preferences every style accepts (``numberPreferences``): any separator
            // characters (no letter or digit).
            if let number = Self.numberPreferences.first(where: { $0.lowercased() == key }) {
                if !rawValue.isEmpty, rawValue.unicodeScalars.allSatisfy({ !$0.properties.isAlphabetic && $0.properties.numericType == nil }) {
                    values[number] = rawValue
                } else {
                    problems.append(PreferenceProblem(.unknownValue, name: number, value: rawValue, style: name,
                                                      known: ["separator characters, e.g. '.' or ','"]))
                }
                continue
            }
            guard let declaration = preferences.first(where: { d in
                d.name.lowercased() == key || d.aliases.contains { $0.lowercased() == key }
                    || d.name.lowercased() == key + "s" || (key.hasSuffix("s") && d.name.lowercased() + "s" == key)
            }) else {
                problems.append(PreferenceProblem(.unknownName, name: rawName, value: rawValue, style: name,
                                                  known: preferences.map(\.name) + Self.numberPreferences))
                continue
            }
            guard let value = declaration.values.first(where: { $0.lowercased() == rawValue.lowercased() }) else {
                problems.append(PreferenceProblem(.unknownValue, name: declaration.name, value: rawValue, style: name,
                                                  known: declaration.values))
                continue
            }
            values[declaration.name] = value
        }
        return (values, problems)
    }
}

/// A requested preference a style cannot use: a name it does not declare (MathCAT sends `Verbosity`,
/// `Impairment`, `NavMode`… with every request, whatever the style), or a value the
/// preference does not allow. The request is answered without it; ``diagnostic`` reports it as a
/// warning.
public struct PreferenceProblem: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable {
        /// The style declares no preference of that name.
        case unknownName
        /// The preference does not allow that value.
        case unknownValue
    }

    /// What is wrong.
    public let kind: Kind
    /// The preference as requested (for an unknown value, its declared name).
    public let name: String
    /// The requested value.
    public let value: String
    /// The style that was asked.
    public let style: String
    /// What the style knows instead: its preference names, or the allowed values.
    public let known: [String]

    /// Creates a problem.
    public init(_ kind: Kind, name: String, value: String, style: String, known: [String]) {
        self.kind = kind
        self.name = name
        self.value = value
        self.style = style
        self.known = known
    }

    /// The diagnostic id: `speech.unknown-preference` or `speech.unknown-preference-value`.
    public var id: DiagnosticID {
        switch kind {
        case .unknownName: return .speechUnknownPreference
        case .unknownValue: return .speechUnknownPreferenceValue
        }
    }

    /// A sentence for people.
    public var description: String {
        switch kind {
        case .unknownName:
            return "unknown preference '\(name)' for style \(style); known: \(known.joined(separator: ", "))"
        case .unknownValue:
            return "unknown value '\(value)' for preference \(name); allowed: \(known.joined(separator: ", "))"
        }
    }

    /// The problem as a warning of a request that was answered without the preference (no source
    /// range: preferences are not part of the formula).
    public var diagnostic: Diagnostic { .warning(id, description + " (ignored)", at: nil) }
}

/// A property name or role as compiled rules refer to it: its number in the semantic tree's
/// vocabulary (``PropertyName``, ``SemanticRole``), or, from ``extraBase`` on, the index of a name
/// outside the vocabulary. Only a tree made from hand-built ``SemanticNode``s can hold such a name
/// (in its `extraNames` or `extraRoles`); a run looks those up in its tree, once.
typealias NameNumber = UInt16

extension NameNumber {
    /// Where the numbers of names outside the vocabulary start.
    static let extraBase: UInt16 = 0x8000
    /// No name of the tree (a name outside the vocabulary that the tree does not hold either).
    static let absent: UInt16 = .max
}

/// An immutable array in memory of its own, read through an unsafe pointer: the tables a speech run
/// reads many times per node are read without bounds checks or reference counting, and a field of
/// an element without copying the element. The memory lives as long as the object, so a holder
/// keeps the object and reads through ``base``.
final class FrozenArray<Element: Sendable>: @unchecked Sendable {
    /// The first element (valid while the object lives; never written after `init`).
    let base: UnsafePointer<Element>
    let count: Int

    init(_ array: [Element]) {
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: max(array.count, 1))
        if _isPOD(Element.self) {
            memory.initialize(from: array, count: array.count)
        } else {
            // Element by element: a whole array of elements that hold references was copied by the
            // runtime's generic copy, per element through the type's witnesses (a word cache's 1,307
            // scalars: 0.5 M of the 87.6 M instructions of `mathaloud speak 'x^2'`, session 46).
            for (i, element) in array.enumerated() { (memory + i).initialize(to: element) }
        }
        base = UnsafePointer(memory)
        count = array.count
    }

    /// `count` elements, element `i` being `element(i)`: made in place, without an array to copy
    /// (the candidate lists, 0.15 MB per table, were made in an array grown by appending and then
    /// copied: 1 MB of allocations at every start-up, BENCHMARKS.md session 10).
    convenience init(count: Int, _ element: (Int) -> Element) {
        self.init(count: count, alignment: MemoryLayout<Element>.alignment, element)
    }

    /// ``init(count:_:)`` in memory aligned to `alignment` bytes (a power of two): elements whose
    /// size is a multiple of a cache line then each start one (``RuleTable/CandidateList``).
    init(count: Int, alignment: Int, _ element: (Int) -> Element) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Element>.stride,
                                                      alignment: max(alignment, MemoryLayout<Element>.alignment))
            .bindMemory(to: Element.self, capacity: max(count, 1))
        for i in 0 ..< count { (memory + i).initialize(to: element(i)) }
        base = UnsafePointer(memory)
        self.count = count
    }

    deinit {
        let memory = UnsafeMutablePointer(mutating: base)
        memory.deinitialize(count: count)
        memory.deallocate()
    }

    /// The elements.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}

/// A set of ``PropertyName``s as bits by number (names numbered 128 and up are left out: a set is
/// used to rule out rules quickly, so leaving a name out only makes it rule out fewer).
struct NameSet: Sendable {
    private(set) var low: UInt64 = 0, high: UInt64 = 0

    init() {}

    @inline(__always)
    mutating func insert(_ number: UInt16) {
        if number < 64 { low |= 1 << UInt64(number) } else if number < 128 { high |= 1 << UInt64(number - 64) }
    }

    var isEmpty: Bool { low | high == 0 }

    /// Whether name number `n` is in the set.
    func contains(number n: Int) -> Bool { (n < 64 ? low >> UInt64(n) : n < 128 ? high >> UInt64(n - 64) : 0) & 1 != 0 }

    mutating func formUnion(_ other: NameSet) {
        low |= other.low
        high |= other.high
    }

    /// Whether every name of `self` is in `other`.
    @inline(__always)
    func isSubset(of other: NameSet) -> Bool { low & ~other.low | high & ~other.high == 0 }

    /// Whether `self` and `other` have a name in common.
    @inline(__always)
    func intersects(_ other: NameSet) -> Bool { low & other.low | high & other.high != 0 }

    /// The names of `self` not in `other`.
    @inline(__always)
    func subtracting(_ other: NameSet) -> NameSet {
        var d = NameSet()
        d.low = low & ~other.low
        d.high = high & ~other.high
        return d
    }

    /// Calls `body` with each name's number, in increasing order.
    @inline(__always)
    func forEachNumber(_ body: (Int) -> Void) {
        var l = low, h = high
        while l != 0 { body(l.trailingZeroBitCount); l &= l &- 1 }
        while h != 0 { body(64 + h.trailingZeroBitCount); h &= h &- 1 }
    }
}

/// Per name some rule of a candidate list requires (of the node, its parent or a child), the rules
/// of the list that require it, as a row of bits in ``RuleTable/Candidates/masks``: the rules that
/// require a name the node lacks are then cleared from the rules to visit with a mask per name it
/// lacks, instead of being visited one by one (``RuleTable/CandidateList/requirementRows``).
struct RequirementRows: Sendable {
    /// The names some rule of the list requires. Name number `n`'s row is at `start + n * blocks`:
    /// the rows run from the lowest name to the highest, one per number between them (the rows of
    /// names no rule requires are zero and never read), so a lacking name's row is found from its
    /// number alone. `start` may lie before the rows (and before the array) when the lowest name is
    /// not 0; with no name there are no rows.
    let names: NameSet
    let start: Int32

    static let none = RequirementRows(names: NameSet(), start: 0)

    /// Clears from `bits` (block `block` of a row of `blocks` words) the rules that require a name
    /// of ``names`` that `present` lacks.
    @inline(__always)
    func clear(_ bits: inout UInt64, block: Int, blocks: Int, present: NameSet, masks: UnsafePointer<UInt64>) {
        // Only the lacking names are visited, each row read by its number: walking every required
        // name to keep a running place cost 9 instructions a name, most of them lacking
        // (`MathAloudBench stages` under callgrind, session 13).
        // Wrapping arithmetic: the rows are in bounds when the lists are made (see ``SpeechRun``'s
        // matching, session 41).
        let lacking = names.subtracting(present)
        let first = Int(start) &+ block
        var l = lacking.low, h = lacking.high
        while l != 0 {
            bits &= ~masks[first &+ l.trailingZeroBitCount &* blocks]
            l &= l &- 1
        }
        while h != 0 {
            bits &= ~masks[first &+ (64 &+ h.trailingZeroBitCount) &* blocks]
            h &= h &- 1
        }
    }
}

/// The rules of a style prepared for the hot path of speaking, when the style loads: every rule's
/// conditions as plain values in one array, compiled against the vocabulary of ``SemanticTree``
/// (property names and roles as numbers, each value test precomputed for every form a value can
/// take), every rule's template as parts in another, and per kind the candidate rules. Testing a
/// condition is then integer comparisons and array indexing, without building or comparing strings
/// in the common case.
final class RuleTable: Sendable {
    /// Rule `r`'s conditions are `tests[testStart[r] ..< testStart[r + 1]]`, cheapest first: all must
    /// hold and none has side effects, so the order only changes how soon a failing rule is left.
    let testStart: FrozenArray<Int>
    let tests: FrozenArray<CompiledCondition>
    /// Per rule, where its tests after the preference tests start (those come first).
    let testsAfterPreferences: FrozenArray<Int>
    /// Per rule, as a candidate list holds it when the preferences are tested up front
    /// (``Candidates/preferencesTested``; ``candidates`` holds them untested).
    let testedEntries: [Candidate]
    /// Paths of conditions (`numerator` in `numerator.simple`, `parent.parent`), by number: path `p`
    /// is `pathSteps[pathStart[p] ..< pathStart[p + 1]]`.
    let pathStart: FrozenArray<Int>
    let pathSteps: FrozenArray<CompiledCondition.Step>
    /// How many paths, preference tests and names outside the vocabulary there are (read without
    /// touching the arrays: the room a run needs; at least 1 path).
    let pathCount: Int
    let preferenceTestCount: Int
    let extraPropertyNameCount: Int
    let extraNameCount: Int
    /// Properties that conditions test and templates say (`{=rows}`), by number.
    let properties: FrozenArray<PropertyReference>
    /// Value tests (`= squared`, `< 3`), by number; `integerValues` holds the integers of their
    /// ``CompiledValueTest/Facts/integers`` ranges.
    let valueTests: FrozenArray<CompiledValueTest>
    /// The value tests' ``CompiledValueTest/Facts``, by the same numbers.
    let valueFacts: FrozenArray<CompiledValueTest.Facts>
    let integerValues: FrozenArray<Int32>
    /// The numbers of the values of exact `oneOf` tests (see ``TextIDs``): by text, and each test's.
    let textIDTable: TextTable<Int32>
    /// The same table, read in place by a run (``Reader/textIDTable``): reading it from the table
    /// copied it, with a reference count per dictionary, per look-up (0.6 M of 153.7 M instructions,
    /// `MathAloudBench stages`, first 1,000 arXiv formulas, callgrind; session 10).
    let textIDTableFrozen: FrozenArray<TextTable<Int32>>
    let textIDValues: FrozenArray<Int32>
    /// The number of the empty text (-1 when no test names it).
    let emptyTextID: Int32
    /// Role sets (`role is exponent, subscript`), by number.
    let roleSets: FrozenArray<RoleSet>
    /// The kinds `within … through` conditions pass through, by number.
    let throughKinds: FrozenArray<KindSet>
    /// The distinct preference tests (`pref Fractions = Over`), by number: preferences are fixed for a
    /// whole run, so a run evaluates each at most once.
    let preferenceTests: [PreferenceTest]
    /// Property names and roles that rules name outside the vocabulary (see ``NameNumber``).
    let extraPropertyNames: [String]
    let extraRoleNames: [String]
    /// Rule `r`'s template is `parts[templateStart[r] ..< templateStart[r + 1]]`.
    let templateStart: FrozenArray<Int>
    let parts: FrozenArray<CompiledPart>
    /// The words of words parts and the texts of joiners, by the number the part holds.
    let partTexts: FrozenArray<String>
    /// Per part, whether it is a joiner (1), `{inherited}` (2) or anything else (0): the template loop
    /// reads this byte instead of matching each part against both cases, which copied the part (and
    /// counted a reference to its words) twice per part (session 10).
    let partTags: FrozenArray<UInt8>
    /// Role paths of templates (`{function.subscript}`): path `p` is
    /// `templatePathRoles[templatePathStart[p] ..< templatePathStart[p + 1]]`.
    let templatePathStart: FrozenArray<Int>
    let templatePathRoles: FrozenArray<NameNumber>
    /// Keys of `{@key}` look-ups, by number.
    let lookupKeys: [String]
    /// Per rule, the number of the first rule of a later file (the rules count when there is none):
    /// where `{inherited}` starts looking.
    let inheritedStart: FrozenArray<Int>
    /// Keys of `{@key[property]}` look-ups, by number.
    let countedKeys: [String]
    /// Names of script levels in `{role@level}` parts, by number.
    let levelNames: [String]
    /// The variants references name (`@genitive`, `@plural(quantity)`), by number.
    let variantSelectors: [VariantSelector]
    /// The arrays a run reads, as raw pointers.
    let reader: Reader

    /// The arrays of a ``RuleTable`` that a run reads, as raw pointers (valid while the table lives,
    /// into memory never written after it is made: hence `@unchecked Sendable`).
    struct Reader: @unchecked Sendable {
        let tests: UnsafePointer<CompiledCondition>
        let pathStart: UnsafePointer<Int>
        let pathSteps: UnsafePointer<CompiledCondition.Step>
        let properties: UnsafePointer<PropertyReference>
        let valueTests: UnsafePointer<CompiledValueTest.Facts>
        let stringTests: UnsafePointer<CompiledValueTest>
        let integerValues: UnsafePointer<Int32>
        let textIDValues: UnsafePointer<Int32>
        let textIDTable: UnsafePointer<TextTable<Int32>>
        let roleSets: UnsafePointer<RoleSet>
        let throughKinds: UnsafePointer<KindSet>
        let templateStart: UnsafePointer<Int>
        let parts: UnsafePointer<CompiledPart>
        let partTexts: UnsafePointer<String>
        let partTags: UnsafePointer<UInt8>
        let templatePathStart: UnsafePointer<Int>
        let templatePathRoles: UnsafePointer<NameNumber>
    }

    /// Per kind (by ``SemanticKind/number``), the numbers of its candidate rules in priority order:
    /// per node text that rules name, and for any other text. ``Candidates`` are made from them.
    let candidateLists: [(byText: [String: [Int]], other: [Int])]
    private let untestedCandidates = LazyValue<Candidates>()

    /// The candidate rules per kind and node text, with their preference tests untested (for
    /// preferences given per call): made on first use. A speaker with fixed preferences needs only the
    /// lists without the rules they rule out (``candidates(keeping:)``), so it never makes these
    /// (0.15 MB of candidates and their text tables at every start-up, BENCHMARKS.md session 10).
    var candidates: Candidates {
        untestedCandidates.value { [self] in
            Candidates(lists: candidateLists, entries: testedEntries.map { $0.testing(from: Int32(testStart.base[Int($0.probe.rule)])) },
                       preferencesTested: false)
        }
    }

    /// The candidate lists without the rules `keep` rejects, for fixed preferences (each rule's tests
    /// after its preference tests).
    func candidates(keeping keep: (Int) -> Bool) -> Candidates {
        // Each rule asked once (a rule is in many lists).
        let kept = (0 ..< testedEntries.count).map(keep)
        return Candidates(lists: candidateLists.map { lists in
            (byText: lists.byText.mapValues { $0.filter { kept[$0] } }, other: lists.other.filter { kept[$0] })
        }, entries: testedEntries, preferencesTested: true)
    }

    /// A preference condition without its negation.
    struct PreferenceTest: Sendable {
        let name: String
        let test: CompiledValueTest
    }

    /// A rule as a candidate list holds it: what the candidate loop reads (``probe``), and the filters
    /// folded into the list's rows when the lists are made (never read by a run).
    struct Candidate: Sendable {
        var probe: Probe
        /// The properties a node must have for the rule's conditions to hold (those it tests on the
        /// node itself with a test that fails when the property is missing): a node without one of
        /// them is not matched against the rule at all.
        let requires: NameSet
        /// The properties its parent must have, for the rule's conditions to hold (those tested on
        /// the parent that fail when the property is missing).
        let parentRequires: NameSet
        /// The properties its grandparent must have (tested through `parent.parent`, as
        /// ``parentRequires`` on the parent): `chemical-element-base` tried on every identifier in a
        /// base and failing, 2,000 calls of `holds` per 1,000 arXiv formulas (rules stage, session 14).
        let grandparentRequires: NameSet
        /// The rule's tests of an atom value of a property of the node itself (`exponent-kind = squared`,
        /// `function-class = trig`): the name and the atoms that pass (see ``CandidateList/atomRow``).
        let atomTests: AtomTests
        /// The rule's tests of the text of the node a path leads to (`exponent.text in T, ⊤`), by
        /// text number, and of its kind (`previous is fraction`), one per path and key (see
        /// ``CandidateList/keyRow``).
        let keyTests: [PathKeyTest]
        /// The properties one of the node's children must have (those tested on a child with a
        /// role, as ``parentRequires`` on the parent): a test of the names all children have.
        let childRequires: NameSet
        /// The vocabulary roles (bits by number) and parent kinds for which the rule's `role is …` and
        /// `parent is …` conditions fail, and whether they hold at the root (no parent): a node
        /// they rule out is not matched against the rule (a mask test in the candidate loop instead
        /// of testing conditions; rules stage, session 8).
        let excludedRoles: UInt64
        let parentKinds: KindSet
        let atRoot: Bool

        /// The fields of a candidate that a run's candidate loop reads, 48 bytes side by side, apart
        /// from the filters (``Candidate``): reading whole 128-byte candidates cost a data cache miss
        /// per few rules tried (`MathAloudBench speak-profile` under cachegrind, session 13).
        struct Probe: Sendable {
            let rule: Int32
            /// The tests to test, `tests[firstTest ..< endTest]` (after the preference tests when
            /// those are known). The rule's tests from `endTest` on are those the list decides (its
            /// role and parent rows, ``kindPath``), tested only for a node whose role is outside the
            /// vocabulary.
            var firstTest: Int32
            let endTest: Int32
            /// In its list, the tests from ``firstTest`` on (bit `i`: test `firstTest + i`, for the first
            /// 16) that need no testing because the list's rows decided them: ``skipPseudo`` those of a
            /// node's text (the `text = …` condition the lists are split by, which a rule in a list
            /// chosen by the node's text passes; the texts the list's text ``CandidateList/keyRow``
            /// decides) and of kinds at its key paths, when the `text` property is the pseudo-property;
            /// ``skipAlways`` the tests of kinds its rows decide whatever a tree's property names are.
            /// Tested, they were 10.3 k of the 92.5 k calls of `holds` in three passes of `MathAloudBench
            /// stages` over the first 1,000 arXiv formulas (the kinds of an operator's neighbours, mostly):
            /// 100.90 M → 100.01 M instructions, L1 instruction misses 827 k → 794 k, mispredicted
            /// branches 1.476 M → 1.470 M (callgrind, session 46).
            var skipAlways: UInt16 = 0
            var skipPseudo: UInt16 = 0
            /// The rule's first test of the kind of a node a path leads to (`previous is fraction`),
            /// tested in the candidate loop before the tests (path -1: none): the first test of most
            /// rules that fail (`implied-times-…`, `transpose-…`), without a call per test (rules
            /// stage, session 9).
            let kindPath: Int32
            /// In its list, the start in ``RuleTable/Candidates/masks`` of the rows of its
            /// ``kindPath`` (-1: none): per kind (by number) the node at the path may have, then for
            /// no node there, the list's rules testing that path whose kind test holds; then the row
            /// of all the list's rules that test it (see ``RuleTable/CandidateList``).
            var pathRow: Int32 = -1
            /// The roles (bits by number) of children the node must have for the rule's conditions
            /// to hold (those tested through a path that starts with a child, that fail when the path
            /// leads nowhere): a mask test in the candidate loop instead of following the path (rules
            /// stage, session 9). Its top four bits (above every role of the vocabulary) are the node's
            /// place its `first` and `followed` conditions need (``Candidate/positionBits``), tested by the
            /// same mask.
            let childRoles: UInt64
            let pathKinds: KindSet
        }

        /// The bits of ``Probe/childRoles`` that a rule's `first`, `not first`, `followed` and `not
        /// followed` conditions need (the node is its parent's first child, is not, has a next sibling,
        /// has none: `followed` fails at the root). A run sets those its node lacks in the mask of
        /// missing child roles (``CandidateList/needsPosition``), so a rule whose place fails is left
        /// in the candidate loop's first test, not by a call of `holds`: such calls were 15.4 k of the
        /// 82.2 k in three passes of `MathAloudBench stages` over the first 1,000 arXiv formulas,
        /// 9.5 k of them failing (`relation-alone-as-script`, `subscript-followed`, `case-end-comma`):
        /// 100.01 M → 99.52 M instructions, L1 data misses 970 k → 946 k, mispredicted branches
        /// 1.470 M → 1.457 M (indirect 148 k → 120 k), L1 instruction misses 794 k → 814 k (callgrind,
        /// session 46). Rows per place (another row read per node) saved as many calls but cost as
        /// many instructions and 19 k more data misses.
        /// (Constants, not `static let`s, which are read through their lazy initializers.)
        static var positionFirst: UInt64 { 1 << 60 }
        static var positionNotFirst: UInt64 { 1 << 61 }
        static var positionFollowed: UInt64 { 1 << 62 }
        static var positionNotFollowed: UInt64 { 1 << 63 }
        static var positionBits: UInt64 { 0xF << 60 }

        /// The same candidate with its tests from `first` on.
        func testing(from first: Int32) -> Candidate {
            var c = self
            // The text test's bit counted from the new first test (none past the sixteenth).
            let shift = Int(probe.firstTest - first)
            c.probe.skipPseudo = shift >= 0 && shift < 16 ? probe.skipPseudo << UInt16(shift) : 0
            c.probe.firstTest = first
            return c
        }
    }

    /// What a rule's `role is …` and `parent is …` conditions allow (see ``Candidate/excludedRoles``).
    private static func roleAndParentFilter(_ conditions: ArraySlice<CompiledCondition>, roleSets: [RoleSet])
        -> (excludedRoles: UInt64, parentKinds: KindSet, atRoot: Bool) {
        var allowed: UInt64 = ~0
        var parents = KindSet.all, atRoot = true
        for condition in conditions {
            switch condition.test {
            case .role(let set):
                // For a role of the vocabulary the test is its bit (names outside it are never one).
                let bits = roleSets[set].bits
                allowed &= condition.negated ? ~bits : bits
            case .parentKind(let kinds):
                // At the root the test fails, negated it holds.
                if condition.negated {
                    parents = parents.subtracting(kinds)
                } else {
                    parents = parents.intersection(kinds)
                    atRoot = false
                }
            default: break
            }
        }
        return (~allowed, parents, atRoot)
    }

    /// Candidate rules in priority order: a range of ``Candidates/rules``.
    ///
    /// What matching reads of every list it chooses comes first, in 60 bytes, and the list takes 192
    /// (``Candidates/lists`` on 64-byte boundaries, see ``FrozenArray/init(count:alignment:_:)``), so a
    /// node reads one cache line of its list: the fields in declaration order, with the rows of
    /// requirements between them, read three or four (46 k L1 data misses of 939 k a pass of
    /// `MathAloudBench stages` under callgrind, session 39).
    struct CandidateList: Sendable {
        /// ``rules``' bounds.
        private let ruleStart: Int32, ruleEnd: Int32
        /// How many words of 64 bits a row of the list has, and the bits of the list's rules in the last.
        let lastBlock: UInt64
        /// When every rule of the list requires some property (``Candidate/requires``), all the
        /// properties they require: a node with none of them matches no rule of the list. Empty
        /// otherwise.
        let needsOneOf: NameSet
        let blocks: Int32
        /// The list's decision rows in ``Candidates/masks`` (-1: none, every rule passes): per role of
        /// the vocabulary (``roleRow``), and per parent kind then the root (``parentRow``), the rules
        /// whose `role is …` and `parent is …` conditions hold, as bits by position in the list (in
        /// ``blocks`` words of 64 each). Matching visits only the rules in both rows, in list order.
        let roleRow: Int32
        let parentRow: Int32
        /// The property whose atom value the most rules of the list test (``Candidate/atomTests``;
        /// ``NameNumber/absent`` for none, or for fewer than two such rules), and where its rows start in
        /// ``Candidates/masks``: per atom (by raw value, up to ``atomRows`` - 1: the last row is every
        /// atom's from there on), the rules whose tests of that property pass. A node with that property as an atom visits only those (a power
        /// tried `power-squared`, `power-cubed`, `power-ordinal`… each failing on its `exponent-kind`:
        /// 2,000 calls of `holds` per 1,000 arXiv formulas; rules stage, session 14).
        let atomRow: Int32
        /// The path whose node's text, or kind (``keyIsKind``), the most rules of the list test
        /// (``Candidate/keyTests``; -1 for none, or for fewer than eight such rules), and where its rows
        /// start in ``Candidates/masks``: per text number (``RuleTable/textIDTable``) or kind number,
        /// then for no node at the path, then for a text none of the tests names (``keyRows`` rows in
        /// all), the rules whose tests of that text or kind pass. A node visits only those: a power
        /// tried `transpose-symbol`, `conjugate-transpose-bold`, `complement-superscript`… each failing
        /// on `exponent.text`, 7,700 calls of `holds` per 1,000 arXiv formulas; an operator's rules each
        /// tried the kind of its neighbour. Rows for the text saved 1.3 M of 154.2 M instructions, for
        /// the kind in lists with no such text another 0.5 M (`MathAloudBench stages` under callgrind,
        /// session 37).
        let keyPath: Int32
        let atomName: UInt16
        /// Whether some rule of the list requires a property (the node's names are needed).
        let requiresAny: Bool
        /// Whether some rule of the list requires children with roles, a property of a child, or a
        /// property of the parent (``Candidate/Probe/childRoles``, ``Candidate/childRequires``,
        /// ``Candidate/parentRequires``): only then are the children's roles, their names or the
        /// parent's names gathered for a node.
        let needsChildRoles: Bool
        let needsChildNames: Bool
        let needsParentNames: Bool
        let needsGrandparentNames: Bool
        let keyIsKind: Bool
        // Read only for a list that has them: the rows' sizes and starts.
        let atomRows: Int32
        let keyRow: Int32
        let keyRows: Int32
        /// Per property some rule of the list requires of the node, of its parent and of a child, the
        /// rules that require it (``Candidate/requires``, ``Candidate/parentRequires``,
        /// ``Candidate/childRequires``): matching clears the rules that require a name the node
        /// lacks with a mask per name, and visits only the others. An identifier's list visited eight
        /// rules a node, five of them ruled out by a property the node lacks (rules stage, session 12).
        let requirementRows: RequirementRows
        let parentRequirementRows: RequirementRows
        let grandparentRequirementRows: RequirementRows
        let childRequirementRows: RequirementRows
        /// The kinds of two more paths, keyed as ``keyPath`` is (the next most tested kinds, by the
        /// same measure; -1 for none, always without ``keyPath``, so read only for a list that has one),
        /// with their rows (``SemanticKind/allCases`` + 2 each): a node visits only the rules all the
        /// keys' rows keep. The invisible times's list (77 rules, 63 testing the kind of `previous`, 61
        /// of `next`, 15 of `next.content`) visited five rules a node, 20.5 k of the 52 k calls of `holds`
        /// per 1,000 arXiv formulas (`MathAloudBench stages`, session 41).
        let secondKeyPath: Int32
        let secondKeyRow: Int32
        let thirdKeyPath: Int32
        let thirdKeyRow: Int32
        /// Whether some rule of the list tests the node's place (``Candidate/positionBits``).
        let needsPosition: Bool
        /// Room that makes the list 192 bytes: three whole cache lines (see above).
        private let padding: UInt32 = 0

        /// The list's rules in ``Candidates/rules`` (bounds in order when made: not checked again).
        var rules: Range<Int> { Range(uncheckedBounds: (Int(ruleStart), Int(ruleEnd))) }

        /// The list at `rules` of rules `list` (numbers into `entries`), its decision rows added to
        /// `masks` (for a vocabulary of `roleCount` roles and `kindCount` kinds), and each rule's
        /// ``Candidate/Probe/pathRow`` in the list appended to `pathRows`.
        init(_ rules: Range<Int>, _ list: [Int], _ entries: [Candidate], masks: inout [UInt64], pathRows: inout [Int32],
             roleCount: Int, kindCount: Int, needsPosition: Bool) {
            ruleStart = Int32(rules.lowerBound)
            ruleEnd = Int32(rules.upperBound)
            let roleBits: UInt64 = roleCount >= 64 ? ~0 : (1 << UInt64(roleCount)) &- 1
            let allKinds = KindSet.first(kindCount)
            // What the list's rules need and rule out, in one reading of them (start-up).
            var needs = NameSet(), allRequire = true, parentNeeds = NameSet(), childNeeds = NameSet()
            var requiresAny = false, needsChildRoles = false, needsChildNames = false, needsParentNames = false
            var grandparentNeeds = NameSet()
            var excludesRoles = false, excludesParents = false
            for r in list {
                let c = entries[r]
                if c.requires.isEmpty { allRequire = false } else { needs.formUnion(c.requires) }
                parentNeeds.formUnion(c.parentRequires)
                grandparentNeeds.formUnion(c.grandparentRequires)
                childNeeds.formUnion(c.childRequires)
                requiresAny = requiresAny || !c.requires.isEmpty
                needsChildRoles = needsChildRoles || c.probe.childRoles & ~Candidate.positionBits != 0
                needsChildNames = needsChildNames || !c.childRequires.isEmpty
                needsParentNames = needsParentNames || !c.parentRequires.isEmpty
                excludesRoles = excludesRoles || c.excludedRoles & roleBits != 0
                excludesParents = excludesParents || !c.atRoot || !allKinds.isSubset(of: c.parentKinds)
            }
            needsOneOf = allRequire ? needs : NameSet()
            self.requiresAny = requiresAny
            self.needsChildRoles = needsChildRoles
            self.needsPosition = needsPosition
            self.needsChildNames = needsChildNames
            self.needsParentNames = needsParentNames
            needsGrandparentNames = !grandparentNeeds.isEmpty
            let count = rules.count, blocks = max((count + 63) >> 6, 1)
            let last: UInt64 = count & 63 == 0 && count > 0 ? ~0 : (1 << UInt64(count & 63)) &- 1
            self.blocks = Int32(blocks)
            lastBlock = last
            // A row is made only for a list with a rule it rules out somewhere; a rule's bit is
            // cleared in the rows of the roles and parent kinds it rules out. Each row of `width`
            // entries starts with every rule of the list.
            func newRows(_ width: Int) -> [UInt64] {
                if blocks == 1 { return [UInt64](repeating: last, count: width) }
                var rows = [UInt64](repeating: ~0, count: width * blocks)
                for entry in 0 ..< width { rows[entry * blocks + blocks - 1] = last }
                return rows
            }
            // Flips the `flipped` bits (per column) in the rows of every kind, the first `kindCount` rows of
            // `rows`: the kind rows of a rule that allows most kinds are written as their complement, each
            // bit of the fewer kinds (a rule's bit is in no other rule's place). Kind by kind, the kinds of
            // `parent is …` and of the tests at a path cost 2.2 M of the 99.5 M instructions of `mathaloud
            // speak --locale ko 'x^2'` under callgrind (session 54).
            func flipKindRows(_ rows: inout [UInt64], _ flipped: [UInt64]) {
                guard !flipped.isEmpty else { return }
                for k in 0 ..< kindCount { for column in 0 ..< blocks { rows[k * blocks + column] ^= flipped[column] } }
            }
            if excludesRoles {
                var rows = newRows(roleCount)
                for (j, r) in list.enumerated() {
                    let bit = ~(UInt64(1) << UInt64(j & 63)), column = j >> 6
                    var roles = entries[r].excludedRoles & roleBits
                    while roles != 0 {
                        rows[roles.trailingZeroBitCount * blocks + column] &= bit
                        roles &= roles &- 1
                    }
                }
                roleRow = Int32(masks.count)
                masks += rows
            } else {
                roleRow = -1
            }
            // Per required name, the rules that require it (``requirementRows``).
            func makeRequirementRows(_ requires: (Candidate) -> NameSet, _ names: NameSet) -> RequirementRows {
                if names.isEmpty { return .none }
                var lowest = Int.max, highest = 0
                names.forEachNumber { n in
                    lowest = min(lowest, n)
                    highest = max(highest, n)
                }
                var rows = [UInt64](repeating: 0, count: (highest - lowest + 1) * blocks)
                names.forEachNumber { n in
                    for (j, r) in list.enumerated() where requires(entries[r]).contains(number: n) {
                        rows[(n - lowest) * blocks + j >> 6] |= UInt64(1) << UInt64(j & 63)
                    }
                }
                let start = Int32(masks.count - lowest * blocks)
                masks += rows
                return RequirementRows(names: names, start: start)
            }
            // Per path whose kind some rule tests first (``Candidate/Probe/kindPath``), per kind of node there
            // (and none), the rules testing that path whose test fails: when one fails, so do they,
            // and they are not visited (the tests of the kind before `times` in a product rule out six
            // rules a node; rules stage, session 12).
            var rowsOfPath: [(path: Int32, start: Int32)] = []
            for r in list {
                let path = entries[r].probe.kindPath
                guard path >= 0 else { pathRows.append(-1); continue }
                if let known = rowsOfPath.first(where: { $0.path == path }) { pathRows.append(known.start); continue }
                let start = Int32(masks.count)
                rowsOfPath.append((path, start))
                var rows = [UInt64](repeating: 0, count: (kindCount + 2) * blocks)
                // A rule whose test allows most kinds (`variable is *`) has its bit set in the rows of the
                // kinds it does not allow, and flipped in every kind's row at the end (``flipKindRows``).
                var flipped: [UInt64] = []
                for (j, other) in list.enumerated() where entries[other].probe.kindPath == path {
                    let bit = UInt64(1) << UInt64(j & 63), column = j >> 6
                    rows[(kindCount + 1) * blocks + column] |= bit
                    let kinds = allKinds.intersection(entries[other].probe.pathKinds)
                    if kinds.count * 2 <= kindCount {
                        kinds.forEachNumber { rows[$0 * blocks + column] |= bit }
                    } else {
                        allKinds.subtracting(kinds).forEachNumber { rows[$0 * blocks + column] |= bit }
                        if flipped.isEmpty { flipped = [UInt64](repeating: 0, count: blocks) }
                        flipped[column] |= bit
                    }
                }
                flipKindRows(&rows, flipped)
                masks += rows
                pathRows.append(start)
            }
            requirementRows = makeRequirementRows({ $0.requires }, needs)
            parentRequirementRows = makeRequirementRows({ $0.parentRequires }, parentNeeds)
            grandparentRequirementRows = makeRequirementRows({ $0.grandparentRequires }, grandparentNeeds)
            // How many rules test each name (most lists have none: no allocation for them at start-up).
            var atomTesters: [(name: UInt16, rules: Int)] = []
            for r in list where !entries[r].atomTests.isEmpty {
                entries[r].atomTests.forEachName { name in
                    if let i = atomTesters.firstIndex(where: { $0.name == name }) {
                        atomTesters[i].rules += 1
                    } else {
                        atomTesters.append((name, 1))
                    }
                }
            }
            if let (name, testers) = atomTesters.max(by: { ($0.rules, $1.name) < ($1.rules, $0.name) }), testers >= 2 {
                // Each row starts with the rules that do not test the name; a rule that does is added to
                // the rows of the atoms that pass (a few), not cleared from the others (most).
                // Rows up to the highest atom some test passes, and one for every atom above it (the
                // rules that do not test the name): a run reads row min(atom, count - 1).
                var highest = 0
                for r in list { entries[r].atomTests.passing(name)?.forEach(below: 256) { highest = max(highest, $0) } }
                let atomCount = highest + 2
                var keep = newRows(1)
                for (j, r) in list.enumerated() where entries[r].atomTests.passing(name) != nil {
                    keep[j >> 6] &= ~(UInt64(1) << UInt64(j & 63))
                }
                var rows = [UInt64](repeating: 0, count: atomCount * blocks)
                for atom in 0 ..< atomCount { for column in 0 ..< blocks { rows[atom * blocks + column] = keep[column] } }
                for (j, r) in list.enumerated() {
                    guard let atoms = entries[r].atomTests.passing(name) else { continue }
                    let bit = UInt64(1) << UInt64(j & 63), column = j >> 6
                    atoms.forEach(below: atomCount) { rows[$0 * blocks + column] |= bit }
                }
                atomName = name
                atomRows = Int32(atomCount)
                atomRow = Int32(masks.count)
                masks += rows
            } else {
                atomName = NameNumber.absent
                atomRows = 0
                atomRow = -1
            }
            // The path whose text or kind the most rules test (most lists have none: no allocation for
            // them).
            var keyTesters: [(path: Int32, byKind: Bool, rules: Int)] = []
            for r in list {
                for test in entries[r].keyTests {
                    if let i = keyTesters.firstIndex(where: { $0.path == test.path && $0.byKind == test.byKind }) {
                        keyTesters[i].rules += 1
                    } else {
                        keyTesters.append((test.path, test.byKind, 1))
                    }
                }
            }
            // Per text (kind) at `path`, the list's rules whose tests of it pass: each row starts with
            // every rule of the list; a rule testing the path's text (kind) is cleared from the rows of
            // the texts (kinds) its tests fail. Returns the rows' count and where they start.
            func addKeyRows(_ path: Int32, _ byKind: Bool) -> (count: Int32, start: Int32) {
                let tests = list.map { r in entries[r].keyTests.first { $0.path == path && $0.byKind == byKind } }
                let rowCount = tests.lazy.compactMap { $0?.rows }.first!
                let all = newRows(1)
                var rows = [UInt64](repeating: 0, count: rowCount * blocks)
                for row in 0 ..< rowCount { for column in 0 ..< blocks { rows[row * blocks + column] = all[column] } }
                for (j, test) in tests.enumerated() {
                    guard let test else { continue }
                    let bit = ~(UInt64(1) << UInt64(j & 63)), column = j >> 6
                    // The failing rows by the bits of ``PathKeyTest/passing``: row by row cost 1.6 M of
                    // the 91 M instructions of `mathaloud speak 'x^2'` under callgrind (session 46).
                    for (w, passing) in test.passing.enumerated() {
                        var failing = ~passing
                        while failing != 0 {
                            let row = w << 6 | failing.trailingZeroBitCount
                            if row >= rowCount { break }
                            rows[row * blocks + column] &= bit
                            failing &= failing &- 1
                        }
                    }
                }
                let start = Int32(masks.count)
                masks += rows
                return (Int32(rowCount), start)
            }
            // A text before a kind: a kind test is mostly a rule's first, which ``Candidate/Probe/kindPath``
            // decides already (a power's kinds before its exponent's text gave back 1.2 M instructions of
            // the 1.3 M the text saves).
            let keyOrder: ((path: Int32, byKind: Bool, rules: Int), (path: Int32, byKind: Bool, rules: Int)) -> Bool = {
                ($1.byKind ? 1 : 0, $0.rules, $1.path) < ($0.byKind ? 1 : 0, $1.rules, $0.path)
            }
            if let (path, byKind, _) = keyTesters.filter({ $0.rules >= 8 }).max(by: keyOrder) {
                keyPath = path
                keyIsKind = byKind
                (keyRows, keyRow) = addKeyRows(path, byKind)
                // The next most tested kinds (``secondKeyPath``, ``thirdKeyPath``).
                let more = keyTesters.filter { $0.rules >= 8 && $0.byKind && ($0.path, $0.byKind) != (path, byKind) }
                    .sorted { keyOrder($1, $0) }
                secondKeyPath = more.count > 0 ? more[0].path : -1
                secondKeyRow = more.count > 0 ? addKeyRows(more[0].path, true).start : -1
                thirdKeyPath = more.count > 1 ? more[1].path : -1
                thirdKeyRow = more.count > 1 ? addKeyRows(more[1].path, true).start : -1
            } else {
                keyPath = -1
                keyIsKind = false
                keyRows = 0
                keyRow = -1
                secondKeyPath = -1
                secondKeyRow = -1
                thirdKeyPath = -1
                thirdKeyRow = -1
            }
            childRequirementRows = makeRequirementRows({ $0.childRequires }, childNeeds)
            if excludesParents {
                var rows = newRows(kindCount + 1)
                // A rule that rules out most parent kinds (`parent is relation`) has its bit cleared in
                // the rows of the kinds it allows, and flipped in every kind's row at the end.
                var flipped: [UInt64] = []
                for (j, r) in list.enumerated() {
                    let bit = ~(UInt64(1) << UInt64(j & 63)), column = j >> 6
                    if !entries[r].atRoot { rows[kindCount * blocks + column] &= bit }
                    let allowed = allKinds.intersection(entries[r].parentKinds)
                    if allowed.count * 2 >= kindCount {
                        allKinds.subtracting(allowed).forEachNumber { rows[$0 * blocks + column] &= bit }
                    } else {
                        allowed.forEachNumber { rows[$0 * blocks + column] &= bit }
                        if flipped.isEmpty { flipped = [UInt64](repeating: 0, count: blocks) }
                        flipped[column] |= ~bit
                    }
                }
                flipKindRows(&rows, flipped)
                parentRow = Int32(masks.count)
                masks += rows
            } else {
                parentRow = -1
            }
        }
    }

    /// The candidate rules of one kind: when some of its rules have a `text = …` condition, the
    /// lists are split by node text — per text a rule names, the rules whose `text = …` condition
    /// allows that text plus the rules without one; `other` for any other text. One look-up per
    /// node instead of a set test per rule.
    struct KindCandidates: Sendable {
        /// The list for texts no rule names (the whole list when the kind's lists are not split), by
        /// number in ``Candidates/lists``.
        let other: Int32
        /// Whether the lists are split by text.
        let split: Bool
        /// Which texts ``Candidates/byScalar`` decides (answering `other` when it has no list):
        /// one-byte ASCII texts when ASCII keys decide them (see ``TextTable``), longer ASCII texts
        /// when also no key is longer ASCII, and one non-ASCII scalar in NFC when every non-ASCII
        /// key is one scalar in NFC (then a key equal to such a text as a string has its bytes).
        let decidesOneByte: Bool
        let decidesASCII: Bool
        let decidesNFCScalars: Bool
        /// The list for the empty text (most inner nodes' text) when rules name it; otherwise
        /// ``other`` (``hasEmptyList`` false): decided without a look-up by text.
        let emptyList: Int32
        let hasEmptyList: Bool
        /// When ``decidesOneByte``, where the kind's 128 lists of one-byte texts start in
        /// ``Candidates/oneByte`` (-1 otherwise).
        let oneByteStart: Int32
    }

    /// Per kind (indexed by ``SemanticKind/number``), the candidate lists, split by node text.
    struct Candidates: Sendable {
        /// Every list's rules, one list after the other, as the candidate loop reads them.
        let rules: FrozenArray<Candidate.Probe>
        /// The lists' decision rows (``CandidateList/roleRow``, ``CandidateList/parentRow``).
        let masks: FrozenArray<UInt64>
        let byKind: FrozenArray<KindCandidates>
        /// All lists, by number: the tables below hold their numbers, and a run reads the list it
        /// chose in place (a list copied per node cost more than reading the few fields it needs).
        let lists: FrozenArray<CandidateList>
        /// The ``lists`` number of a kind and one-byte or one-scalar text that rules name,
        /// keyed by `kind number << 21 | scalar value`.
        let byScalar: ScalarMap<Int32>
        /// Per kind whose one-byte texts ``byScalar`` decides, the list of each one-byte text by its
        /// byte (-1: `other`), from ``KindCandidates/oneByteStart``: most leaves' text is one ASCII
        /// byte, and reading its list here costs less than the map's hash and probes (`MathAloudBench
        /// stages` under callgrind, session 13).
        let oneByte: FrozenArray<Int32>
        /// Per kind, all its text-named lists' numbers by text (for texts the other tables do not
        /// decide), read in place by a run (an element of an array is copied, with its dictionaries'
        /// reference counts, when read).
        let byTextFrozen: FrozenArray<TextTable<Int32>>
        /// Whether the rules whose preference tests fail are left out (and the others' hold).
        let preferencesTested: Bool
        /// The lists as a run reads them.
        let reader: Reader

        /// Reads ``Candidates`` through raw pointers (valid while the candidates live, into memory never
        /// written after it is made: hence `@unchecked Sendable`).
        struct Reader: @unchecked Sendable {
            let rules: UnsafePointer<Candidate.Probe>
            let masks: UnsafePointer<UInt64>
            let byKind: UnsafePointer<KindCandidates>
            let lists: UnsafePointer<CandidateList>
            let byScalar: ScalarMap<Int32>.Reader
            let oneByte: UnsafePointer<Int32>
            let byText: UnsafePointer<TextTable<Int32>>
        }

        /// Lists in the layout of ``Candidates``, from lists of rule numbers; `entries` holds each
        /// rule as a candidate.
        init(lists: [(byText: [String: [Int]], other: [Int])], entries: [Candidate], preferencesTested: Bool) {
            // The lists' rule numbers one after another; their candidates are made in place below.
            var order: [Int32] = []
            order.reserveCapacity(lists.reduce(0) { n, lists in
                lists.byText.values.reduce(n + lists.other.count) { $1 != lists.other ? $0 + $1.count : $0 }
            })
            var masks: [UInt64] = []
            var pathRows: [Int32] = []
            pathRows.reserveCapacity(order.capacity)
            let roleCount = SemanticRole.allCases.count, kindCount = SemanticKind.allCases.count
            var all: [CandidateList] = []
            func add(_ list: [Int]) -> Int32 {
                let start = order.count
                for r in list { order.append(Int32(truncatingIfNeeded: r)) }
                // Whether a rule tests the node's place, worked out here: in the list's making, which
                // reads each rule once, start-up took 99.24 M instructions, here 98.92 M (`mathaloud speak
                // 'x^2'` under callgrind, deterministic hashing, session 46).
                let needsPosition = list.contains { entries[$0].probe.childRoles & Candidate.positionBits != 0 }
                all.append(CandidateList(start ..< order.count, list, entries, masks: &masks, pathRows: &pathRows,
                                         roleCount: roleCount, kindCount: kindCount, needsPosition: needsPosition))
                return Int32(all.count - 1)
            }
            var byScalar: [UInt32: Int32] = [:]
            var oneByte: [Int32] = []
            var byKind: [KindCandidates] = []
            var byText: [TextTable<Int32>] = []
            for (kind, lists) in lists.enumerated() {
                var ranges: [String: Int32] = [:]
                // The lists of one-byte texts, by their byte (``oneByte``).
                var asciiLists: [(byte: Int, list: Int32)] = []
                // A text whose list is `other` (its rules left out for fixed preferences) needs none.
                for (text, list) in lists.byText where list != lists.other {
                    let range = add(list)
                    ranges[text] = range
                    if let scalar = text.soleScalarValue {
                        byScalar[UInt32(kind) << 21 | scalar] = range
                        if scalar < 0x80 { asciiLists.append((Int(scalar), range)) }
                    }
                }
                let table = TextTable(ranges)
                let keys = ranges.keys
                let nonASCII = keys.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
                let other = add(lists.other)
                let oneByteStart = !keys.isEmpty && table.asciiKeysDecide ? Int32(oneByte.count) : -1
                if oneByteStart >= 0 {
                    // What `byScalar` holds for each byte of the kind, without looking 128 bytes up.
                    oneByte.append(contentsOf: repeatElement(-1, count: 0x80))
                    for (byte, list) in asciiLists { oneByte[Int(oneByteStart) + byte] = list }
                }
                byKind.append(KindCandidates(
                    other: other, split: !keys.isEmpty, decidesOneByte: table.asciiKeysDecide,
                    decidesASCII: table.asciiKeysDecide && !keys.contains { $0.utf8.count > 1 && $0.utf8.allSatisfy { $0 < 0x80 } },
                    decidesNFCScalars: nonASCII.allSatisfy { Normalization.nfcScalar($0) != nil },
                    emptyList: ranges[""] ?? other, hasEmptyList: ranges[""] != nil, oneByteStart: oneByteStart))
                byText.append(table)
            }
            // Per list entry, the tests the list's rows decide (``Candidate/Probe/skipPseudo``): the rule's
            // text test, and its tests at the list's key paths. A kind key (or the second and third, read
            // only with the first) is read whatever the tree's names are when the first key is a kind; a
            // text key only when `text` is the pseudo-property. Packed: the tests skipped always, then
            // (<< 16) those skipped when `text` is the pseudo-property. Worked out here, after the lists,
            // for keyed lists only (the text test's bit is the rule's), with no arrays of tuples: in
            // ``CandidateList/init``, per entry, start-up took 99.44 M instructions, here 99.24 M
            // (`mathaloud speak 'x^2'` under callgrind, deterministic hashing; 98.61 M before the masks
            // and place bits, session 46).
            var skips = [UInt32](repeating: 0, count: order.count)
            for list in all where list.keyPath >= 0 {
                let keyPath = list.keyPath, keyIsKind = list.keyIsKind
                let secondKeyPath = list.secondKeyPath, thirdKeyPath = list.thirdKeyPath
                for j in list.rules {
                    let entry = Int(order[j])
                    let first = Int(entries[entry].probe.firstTest), end = Int(entries[entry].probe.endTest)
                    var always: UInt32 = 0, pseudo: UInt32 = 0
                    for test in entries[entry].keyTests {
                        guard test.path == keyPath && test.byKind == keyIsKind
                            || test.byKind && (test.path == secondKeyPath || test.path == thirdKeyPath) else { continue }
                        var bits: UInt32 = 0, back = test.tests
                        while back != 0 {
                            let i = end - 1 - back.trailingZeroBitCount - first
                            if i >= 0 && i < 16 { bits |= 1 << UInt32(i) }
                            back &= back &- 1
                        }
                        if keyIsKind { always |= bits } else { pseudo |= bits }
                    }
                    skips[j] = always | (pseudo | always) << 16
                }
            }
            self.rules = FrozenArray(count: order.count) {
                var probe = entries[Int(order[$0])].probe
                probe.pathRow = pathRows[$0]
                // The text test's bit is the rule's (``Candidate/testing(from:)``).
                probe.skipAlways = UInt16(truncatingIfNeeded: skips[$0])
                probe.skipPseudo |= UInt16(truncatingIfNeeded: skips[$0] >> 16)
                return probe
            }
            self.masks = FrozenArray(masks)
            self.byKind = FrozenArray(byKind)
            self.lists = FrozenArray(count: all.count, alignment: 64) { all[$0] }
            self.byScalar = ScalarMap(byScalar)
            self.oneByte = FrozenArray(oneByte.isEmpty ? [-1] : oneByte)
            byTextFrozen = FrozenArray(byText)
            self.preferencesTested = preferencesTested
            reader = Reader(rules: self.rules.base, masks: self.masks.base, byKind: self.byKind.base, lists: self.lists.base,
                            byScalar: self.byScalar.reader, oneByte: self.oneByte.base, byText: byTextFrozen.base)
        }
    }

    init(_ rules: [SpeechRule], fileOrder: [String]) {
        SemanticKind.checkNumbering()
        var builder = Builder()
        // Room for the numbers' keys up front (English ClearSpeak numbers 256 value tests, 85
        // preference tests, about 90 properties and 50 paths, some 300 texts): grown as they came, the tables were
        // rehashed, each time hashing their keys' strings again (0.9 M of the 91 M instructions of
        // `mathaloud speak 'x^2'` under callgrind, session 46).
        builder.valueTestNumbers.reserveCapacity(rules.count / 2)
        builder.preferenceNumbers.reserveCapacity(128)
        builder.propertyNumbers.reserveCapacity(128)
        builder.pathNumbers.reserveCapacity(128)
        builder.textIDs.ids.reserveCapacity(rules.count / 2)
        var testStart = [0]
        var testsAfterPreferences: [Int] = []
        var tests: [CompiledCondition] = []
        var templateStart = [0]
        var parts: [CompiledPart] = []
        var textTests: [Int] = []
        // Per rule, where its tests that the candidate lists decide start (``Candidate/Probe/endTest``),
        // and its first test of the kind at a path (``Candidate/Probe/kindPath``).
        var decidedStart: [Int] = []
        var kindTests: [(path: Int32, kinds: KindSet)] = []
        // The previous rule's conditions and template, compiled: the choices of a rule's `either`/`or`
        // lines are rules one after another with the same name, place and template, and conditions
        // they share (``SpeechRule/compiled``), each compiled once (English ClearSpeak's 105 choices
        // compiled whole cost 0.5 M instructions more at start-up, session 43). Kept as two arrays and
        // read from `rules` in place: a tuple holding the previous rule was copied through the
        // runtime's type metadata (+2 M instructions).
        var previousConditions: [CompiledCondition] = [], previousParts: [CompiledPart] = []
        for r in rules.indices {
            let rule = rules[r]
            let compiled: [CompiledCondition]
            let compiledParts: [CompiledPart]
            if r > 0, rules[r - 1].line == rule.line, rules[r - 1].name == rule.name, rules[r - 1].file == rule.file {
                let before = rules[r - 1].conditions
                compiled = rule.conditions.indices.map { k in
                    k < before.count && before[k] == rule.conditions[k] ? previousConditions[k] : builder.compile(rule.conditions[k])
                }
                compiledParts = rules[r - 1].template == rule.template ? previousParts : rule.template.map { builder.compile($0) }
            } else {
                compiled = rule.conditions.map { builder.compile($0) }
                compiledParts = rule.template.map { builder.compile($0) }
            }
            previousConditions = compiled
            previousParts = compiledParts
            let sorted = compiled.indices.sorted { (compiled[$0].cost, $0) < (compiled[$1].cost, $1) }
            // The tests a candidate list decides before any test is tested come last: `role is …` (by
            // the list's role row, for a role of the vocabulary), `parent is …` (by its parent row) and
            // the first test of the kind at a path (in the candidate loop). A run tests them only for a
            // node whose role is outside the vocabulary (rules stage, session 14: a fifth of the
            // conditions tested were these, each a call that always held).
            let kindTest = sorted.first { i in
                if case .kind(let path, _) = compiled[i].test, path >= 0, !compiled[i].negated { true } else { false }
            }
            @inline(__always)
            func decided(_ i: Int) -> Bool {
                switch compiled[i].test {
                case .role, .parentKind, .followed, .first: return true
                default: return i == kindTest
                }
            }
            let decidedCount = sorted.count(where: decided)
            let order = decidedCount == 0 ? sorted : sorted.filter { !decided($0) } + sorted.filter(decided)
            if let kindTest, case let .kind(path, kinds) = compiled[kindTest].test {
                kindTests.append((Int32(path), kinds))
            } else {
                kindTests.append((-1, KindSet.all))
            }
            let textTest = rule.conditions.firstIndex(where: RuleTable.isTextFilter)
            textTests.append(textTest.map { tests.count + order.firstIndex(of: $0)! } ?? -1)
            decidedStart.append(tests.count + order.count - decidedCount)
            tests += order.map { compiled[$0] }
            testsAfterPreferences.append(testStart.last! + compiled.filter { if case .preference = $0.test { true } else { false } }.count)
            testStart.append(tests.count)
            parts += compiledParts
            templateStart.append(parts.count)
        }
        // A property a rule tests on the node with a test a missing value fails (and no
        // pseudo-property stands in for) must be there.
        let requirements = (0 ..< rules.count).map { [builder] r in
            var required = NameSet()
            for condition in tests[testStart[r] ..< testStart[r + 1]] {
                guard case .property(path: -1, property: let property, test: let test) = condition.test, !condition.negated else { continue }
                let reference = builder.properties[property]
                if reference.pseudo == .none, reference.number < .extraBase, !builder.valueTests[test].facts.onMissing {
                    required.insert(reference.number)
                }
            }
            return required
        }
        // The tests of an atom value of a property of the node itself.
        let atomTests = (0 ..< rules.count).map { [builder] r -> AtomTests in
            var found = AtomTests()
            for condition in tests[testStart[r] ..< testStart[r + 1]] {
                guard case .property(path: -1, property: let property, test: let test) = condition.test, !condition.negated else { continue }
                let reference = builder.properties[property]
                if reference.pseudo == .none, reference.number < .extraBase {
                    found.append(reference.number, builder.valueTests[test].facts.atoms)
                }
            }
            return found
        }
        // The tests of the text of the node a path leads to, compared by text number, and of its kind:
        // per path and key, the rows (text or kind numbers, then no node, then a text no test names)
        // that every test of it passes.
        let textRowCount = builder.textIDs.ids.count + 2, kindCount = SemanticKind.allCases.count
        let pathKeyTests = (0 ..< rules.count).map { [builder, decidedStart] r -> [PathKeyTest] in
            var found: [PathKeyTest] = []
            for index in testStart[r] ..< testStart[r + 1] {
                let condition = tests[index]
                // No node there (and an unnamed text) fails the test, passes it negated.
                var passing: [UInt64]
                let path: Int, byKind: Bool, rows: Int
                switch condition.test {
                case let .property(p, property, test) where p >= 0 && builder.properties[property].pseudo == .text
                    && builder.valueTests[test].facts.byTextID:
                    (path, byKind, rows) = (p, false, textRowCount)
                    passing = [UInt64](repeating: condition.negated ? ~0 : 0, count: (rows + 63) >> 6)
                    for i in builder.valueTests[test].facts.textIDs {
                        let id = Int(builder.textIDs.values[i])
                        if condition.negated {
                            passing[id >> 6] &= ~(UInt64(1) << UInt64(id & 63))
                        } else {
                            passing[id >> 6] |= UInt64(1) << UInt64(id & 63)
                        }
                    }
                case let .kind(p, kinds) where p >= 0:
                    (path, byKind, rows) = (p, true, kindCount + 2)
                    // Per word, the set's bits of the kinds there (flipped when negated), the rows past the
                    // kinds as for no node: a kind at a time cost 0.9 M of the 91 M instructions of
                    // `mathaloud speak 'x^2'` under callgrind (session 46).
                    let fill: UInt64 = condition.negated ? ~0 : 0
                    passing = (0 ..< (rows + 63) >> 6).map { w in
                        let kindsHere = min(max(kindCount - w * 64, 0), 64)
                        let mask: UInt64 = kindsHere == 64 ? ~0 : (1 << UInt64(kindsHere)) &- 1
                        return (kinds.word(w) ^ fill) & mask | fill & ~mask
                    }
                default: continue
                }
                let back = decidedStart[r] - 1 - index
                let bit: UInt32 = back >= 0 && back < 32 ? 1 << UInt32(back) : 0
                if let k = found.firstIndex(where: { $0.path == Int32(path) && $0.byKind == byKind }) {
                    found[k] = found[k].and(passing, tests: bit)
                } else {
                    found.append(PathKeyTest(path: Int32(path), byKind: byKind, rows: rows, passing: passing, tests: bit))
                }
            }
            return found
        }
        // A test on the node's child with a role, or on a property of its parent, that fails when the
        // path leads nowhere or the property is missing (and no pseudo-property stands in for it),
        // needs that child or that property.
        let pathRequirements = (0 ..< rules.count).map { [builder] r in
            var childRoles: UInt64 = 0
            var parentNames = NameSet(), childNames = NameSet(), grandparentNames = NameSet()
            for condition in tests[testStart[r] ..< testStart[r + 1]] where !condition.negated {
                let path: Int
                switch condition.test {
                case .property(let p, _, _), .kind(let p, _): path = p
                default: continue
                }
                guard path >= 0 else { continue }
                let steps = builder.pathSteps[builder.pathStart[path] ..< builder.pathStart[path + 1]]
                switch steps.first {
                case .child(let role) where role < 64:
                    childRoles |= 1 << UInt64(role)
                    // A property of that child (`base.set-name = reals`): some child has it.
                    guard steps.count == 1, case .property(_, let property, let test) = condition.test else { continue }
                    let reference = builder.properties[property]
                    if reference.pseudo == .none, reference.number < .extraBase, !builder.valueTests[test].facts.onMissing {
                        childNames.insert(reference.number)
                    }
                case .parent(levels: let levels) where steps.count == 1 && levels <= 2:
                    guard case .property(_, let property, let test) = condition.test else { continue }
                    let reference = builder.properties[property]
                    if reference.pseudo == .none, reference.number < .extraBase, !builder.valueTests[test].facts.onMissing {
                        if levels == 1 { parentNames.insert(reference.number) } else { grandparentNames.insert(reference.number) }
                    }
                default: continue
                }
            }
            return (childRoles: childRoles, parentNames: parentNames, childNames: childNames, grandparentNames: grandparentNames)
        }
        // The place a rule's `first` and `followed` conditions need (``Candidate/positionBits``), above
        // every role's bit.
        precondition(SemanticRole.allCases.count <= 60, "roles share Candidate.Probe.childRoles with the place bits")
        let positionBits = (0 ..< rules.count).map { r in
            var bits: UInt64 = 0
            for condition in tests[testStart[r] ..< testStart[r + 1]] {
                switch condition.test {
                case .first: bits |= condition.negated ? Candidate.positionNotFirst : Candidate.positionFirst
                case .followed: bits |= condition.negated ? Candidate.positionNotFollowed : Candidate.positionFollowed
                default: break
                }
            }
            return bits
        }
        let roleFilters = (0 ..< rules.count).map { [builder] r in
            RuleTable.roleAndParentFilter(tests[testStart[r] ..< testStart[r + 1]], roleSets: builder.roleSets)
        }
        func entries(from first: [Int]) -> [Candidate] {
            var entries: [Candidate] = []
            entries.reserveCapacity(rules.count)
            for r in 0 ..< rules.count {
                let end: Int = decidedStart[r]
                let textBit = textTests[r] - first[r]
                let probe = Candidate.Probe(rule: Int32(r), firstTest: Int32(first[r]), endTest: Int32(end),
                                            skipPseudo: textTests[r] >= 0 && textBit >= 0 && textBit < 16 ? 1 << UInt16(textBit) : 0,
                                            kindPath: kindTests[r].path,
                                            childRoles: pathRequirements[r].childRoles | positionBits[r], pathKinds: kindTests[r].kinds)
                entries.append(Candidate(probe: probe, requires: requirements[r], parentRequires: pathRequirements[r].parentNames,
                                         grandparentRequires: pathRequirements[r].grandparentNames, atomTests: atomTests[r],
                                         keyTests: pathKeyTests[r],
                                         childRequires: pathRequirements[r].childNames,
                                         excludedRoles: roleFilters[r].excludedRoles, parentKinds: roleFilters[r].parentKinds,
                                         atRoot: roleFilters[r].atRoot))
            }
            return entries
        }
        testedEntries = entries(from: testsAfterPreferences)
        self.testStart = FrozenArray(testStart)
        self.testsAfterPreferences = FrozenArray(testsAfterPreferences)
        self.tests = FrozenArray(count: tests.count, alignment: 64) { tests[$0] }
        self.templateStart = FrozenArray(templateStart)
        self.parts = FrozenArray(parts)
        partTexts = FrozenArray(builder.partTexts)
        partTags = FrozenArray(parts.map { part -> UInt8 in
            switch part {
            case .joiner: return 1
            case .inherited: return 2
            default: return 0
            }
        })
        pathStart = FrozenArray(builder.pathStart)
        pathSteps = FrozenArray(builder.pathSteps)
        properties = FrozenArray(builder.properties)
        valueTests = FrozenArray(builder.valueTests)
        valueFacts = FrozenArray(builder.valueTests.map(\.facts))
        integerValues = FrozenArray(builder.integerValues)
        textIDTable = TextTable(builder.textIDs.ids)
        textIDTableFrozen = FrozenArray([textIDTable])
        textIDValues = FrozenArray(builder.textIDs.values)
        emptyTextID = builder.textIDs.ids[""] ?? -1
        roleSets = FrozenArray(builder.roleSets)
        throughKinds = FrozenArray(builder.throughKinds)
        preferenceTests = builder.preferenceTests
        extraPropertyNames = builder.extraPropertyNames
        extraRoleNames = builder.extraRoleNames
        pathCount = max(builder.pathStart.count - 1, 1)
        preferenceTestCount = builder.preferenceTests.count
        extraPropertyNameCount = builder.extraPropertyNames.count
        extraNameCount = builder.extraPropertyNames.count + builder.extraRoleNames.count
        templatePathStart = FrozenArray(builder.templatePathStart)
        templatePathRoles = FrozenArray(builder.templatePathRoles)
        lookupKeys = builder.lookupKeys
        // Rules come file by file (the style's own, then what it inherits, in `fileOrder`), except the
        // `early` rules of another language, which come first (``SpeechResources/style(_:locale:examples:)``):
        // `{inherited}` looks from the first later rule of a file after the rule's own in that order (the
        // rule after its file's run when nothing was moved).
        let order = Dictionary(fileOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var rank = [Int](repeating: 0, count: rules.count)
        var ranks = fileOrder.count
        for r in rules.indices {
            if let known = order[rules[r].file] { rank[r] = known; continue }
            // A file the order does not name ranks after every file it names.
            if r > 0 && rules[r - 1].file == rules[r].file { rank[r] = rank[r - 1] } else { rank[r] = ranks; ranks += 1 }
        }
        var starts = [Int](repeating: rules.count, count: rules.count)
        // nearest[k]: the first rule after the one looked at whose file ranks k (rules.count: none).
        var nearest = [Int](repeating: rules.count, count: ranks)
        for r in rules.indices.reversed() {
            starts[r] = nearest[(rank[r] + 1)...].min() ?? rules.count
            nearest[rank[r]] = r
        }
        inheritedStart = FrozenArray(starts)
        countedKeys = builder.countedKeys
        levelNames = builder.levelNames
        variantSelectors = builder.variantSelectors
        reader = Reader(tests: self.tests.base, pathStart: pathStart.base, pathSteps: pathSteps.base,
                        properties: properties.base, valueTests: valueFacts.base, stringTests: valueTests.base, integerValues: integerValues.base,
                        textIDValues: textIDValues.base, textIDTable: textIDTableFrozen.base,
                        roleSets: roleSets.base, throughKinds: throughKinds.base, templateStart: self.templateStart.base, parts: self.parts.base, partTexts: partTexts.base, partTags: partTags.base,
                        templatePathStart: templatePathStart.base, templatePathRoles: templatePathRoles.base)

        var byKind: [String: [Int]] = [:]
        for (i, rule) in rules.enumerated() { byKind[rule.kind, default: []].append(i) }
        let any = byKind["*"] ?? []
        // The node texts that `text = …` conditions name, numbered once (one number per class of equal
        // strings, as a set of strings compares them), and per rule the numbers of those it can match
        // (nil = any text). Testing each rule's set of strings for each text of its kind hashed
        // strings, most of them normalized for being non-ASCII, 6.3 M of 109 M instructions of
        // `mathaloud speak 'x^2'` under callgrind (session 43).
        var textNumbers: [String: Int] = [:]
        var texts: [String] = []
        let filters: [[Int]?] = rules.map { rule in
            guard let condition = rule.conditions.first(where: RuleTable.isTextFilter),
                  case let .property(_, _, .oneOf(values), _) = condition else { return nil }
            var numbers: [Int] = []
            numbers.reserveCapacity(values.count)
            for value in values {
                let n: Int
                if let known = textNumbers[value] {
                    n = known
                } else {
                    n = texts.count
                    textNumbers[value] = n
                    texts.append(value)
                }
                if !numbers.contains(n) { numbers.append(n) }
            }
            return numbers
        }
        // Per text (by number), where its rules are in `named` (-1: none in the kind's list yet).
        var slot = [Int](repeating: -1, count: texts.count)
        // Per kind: its rules with the `*` rules merged in (file order), split by node text. A kind
        // without rules of its own gets the `*` rules, split as well (unsplit, every node of such a
        // kind tested the `text = …` conditions of the `*` rules: a fifth of all tests on arXiv
        // formulas, rules stage, session 9).
        candidateLists = SemanticKind.allCases.map { kind in
            let list = ((byKind[kind.rawValue] ?? []) + any).sorted()
            let other = list.filter { filters[$0] == nil }
            // Per text a rule of the list names, those rules in list order.
            var named: [(text: Int, rules: [Int])] = []
            for r in list {
                guard let numbers = filters[r] else { continue }
                for t in numbers {
                    if slot[t] < 0 {
                        slot[t] = named.count
                        named.append((t, []))
                    }
                    named[slot[t]].rules.append(r)
                }
            }
            // Per text, the rules without a `text = …` condition and those whose condition allows the
            // text, in list order (a text's list always has a rule `other` lacks: one that names it).
            var byText: [String: [Int]] = [:]
            byText.reserveCapacity(named.count)
            for (t, rules) in named {
                slot[t] = -1
                var merged: [Int] = []
                merged.reserveCapacity(other.count + rules.count)
                var i = 0, j = 0
                while i < other.count || j < rules.count {
                    if j == rules.count || (i < other.count && other[i] < rules[j]) {
                        merged.append(other[i])
                        i += 1
                    } else {
                        merged.append(rules[j])
                        j += 1
                    }
                }
                byText[texts[t]] = merged
            }
            return (byText: byText, other: other)
        }
    }

    /// Whether a condition is a `text = …` test of the node itself, which candidate lists are split by.
    private static func isTextFilter(_ condition: RuleCondition) -> Bool {
        if case let .property(path, "text", .oneOf, negated) = condition { return path.isEmpty && !negated }
        return false
    }

    /// Numbers what conditions and templates refer to while they are compiled.
    private struct Builder {
        var pathStart = [0]
        var pathSteps: [CompiledCondition.Step] = []
        var properties: [PropertyReference] = []
        var valueTests: [CompiledValueTest] = []
        var integerValues: [Int32] = []
        var textIDs = TextIDs()
        var roleSets: [RoleSet] = []
        var throughKinds: [KindSet] = []
        var preferenceTests: [PreferenceTest] = []
        var extraPropertyNames: [String] = []
        var extraRoleNames: [String] = []
        var templatePathStart = [0]
        var templatePathRoles: [NameNumber] = []
        var lookupKeys: [String] = []
        var countedKeys: [String] = []
        var levelNames: [String] = []
        var partTexts: [String] = []
        var variantSelectors: [VariantSelector] = []
        var pathNumbers: [[String]: Int] = [:]
        var propertyNumbers: [String: Int] = [:]
        var valueTestNumbers: [ValueTestKey: Int] = [:]
        var roleSetNumbers: [[String]: Int] = [:]
        var preferenceNumbers: [PreferenceKey: Int] = [:]
        var templatePathNumbers: [[String]: Int] = [:]
        var lookupNumbers: [String: Int] = [:]
        var countedNumbers: [String: Int] = [:]
        var levelNumbers: [String: Int] = [:]

        struct PreferenceKey: Hashable {
            let name: String
            let test: ValueTest
        }

        /// The number of `key` in `numbers`; a new key gets the next number (`isNew`: what it numbers
        /// is to be made).
        static func number<Key: Hashable>(_ key: Key, _ numbers: inout [Key: Int]) -> (number: Int, isNew: Bool) {
            if let n = numbers[key] { return (n, false) }
            numbers[key] = numbers.count
            return (numbers.count - 1, true)
        }

        /// A role's number (a name outside the vocabulary gets the next extra number).
        mutating func role(_ name: String) -> NameNumber {
            if let r = SemanticRole(name: name) { return r.rawValue }
            if let i = extraRoleNames.firstIndex(of: name) { return .extraBase + UInt16(i) }
            extraRoleNames.append(name)
            return .extraBase + UInt16(extraRoleNames.count - 1)
        }

        /// The path's number; -1 for the node itself (an empty path).
        mutating func path(_ path: [String]) -> Int {
            if path.isEmpty { return -1 }
            let (n, isNew) = Builder.number(path, &pathNumbers)
            if isNew {
                let (first, rest) = CompiledCondition.Step.leading(path)
                if let first { pathSteps.append(first) }
                for name in rest { pathSteps.append(name == "last" ? .lastChild : name == "first" ? .firstChild : .child(role(name))) }
                pathStart.append(pathSteps.count)
            }
            return n
        }

        /// A property's number (one list for conditions and templates).
        mutating func property(_ name: String) -> Int {
            let (n, isNew) = Builder.number(name, &propertyNumbers)
            if isNew {
                var number: NameNumber
                if let p = PropertyName(name: name) {
                    number = p.rawValue
                } else {
                    number = .extraBase + UInt16(extraPropertyNames.count)
                    extraPropertyNames.append(name)
                }
                properties.append(PropertyReference(number: number, pseudo: PropertyReference.Pseudo(name: name)))
            }
            return n
        }

        /// A value test's number; `exact` for the `text` property, whose values compare exactly
        /// (`x` and `X` are different letters), where other values ignore ASCII case.
        mutating func valueTest(_ t: ValueTest, exact: Bool = false) -> Int {
            let (n, isNew) = Builder.number(ValueTestKey(test: t, exact: exact), &valueTestNumbers)
            if isNew { valueTests.append(CompiledValueTest(t, exact: exact, integers: &integerValues, textIDs: &textIDs)) }
            return n
        }

        struct ValueTestKey: Hashable {
            let test: ValueTest
            let exact: Bool
        }

        mutating func compile(_ condition: RuleCondition) -> CompiledCondition {
            switch condition {
            case let .property(path, name, t, negated):
                return CompiledCondition(.property(path: self.path(path), property: property(name), test: valueTest(t, exact: name == "text")), negated: negated)
            case let .preference(name, t, negated):
                let (slot, isNew) = Builder.number(PreferenceKey(name: name, test: t), &preferenceNumbers)
                if isNew { preferenceTests.append(PreferenceTest(name: name, test: CompiledValueTest(t, integers: &integerValues, textIDs: &textIDs))) }
                return CompiledCondition(.preference(slot: slot), negated: negated)
            case let .kind(path, kinds, negated):
                return CompiledCondition(.kind(path: self.path(path), KindSet(kinds)), negated: negated)
            case let .parentKind(kinds, negated):
                return CompiledCondition(.parentKind(KindSet(kinds)), negated: negated)
            case let .role(roles, negated):
                let (set, isNew) = Builder.number(roles, &roleSetNumbers)
                if isNew { roleSets.append(RoleSet(roles)) }
                return CompiledCondition(.role(set), negated: negated)
            case let .followed(negated):
                return CompiledCondition(.followed, negated: negated)
            case let .first(negated):
                return CompiledCondition(.first, negated: negated)
            case let .within(kinds, negated):
                return CompiledCondition(.within(KindSet(kinds)), negated: negated)
            case let .withinThrough(kinds, through, negated):
                throughKinds.append(KindSet(through))
                return CompiledCondition(.withinThrough(KindSet(kinds), through: throughKinds.count - 1), negated: negated)
            }
        }

        /// The number of a text of a part (``RuleTable/partTexts``).
        mutating func text(_ text: String) -> Int32 {
            partTexts.append(text)
            return Int32(partTexts.count - 1)
        }

        mutating func compile(_ part: TemplatePart) -> CompiledPart {
            switch part {
            case .words(let w):
                // Words that are all spaces say nothing (they keep their place before a joiner).
                return SpeechDescription.isBlank(w) ? .nothing : .words(text(w))
            case .pause(let p): return .pause(p)
            case .children: return .children
            case let .child(name, format) where name == "first" || name == "last":
                return .end(last: name == "last", format: format.map { compile($0) })
            case let .child(name, format) where name.utf8.contains(0x2E):  // a path: "function.subscript"
                return .path(templatePath(name.split(separator: ".").map(String.init)), format: format.map { compile($0) })
            case let .child(name, format): return .child(role(name), format: format.map { compile($0) })
            case .text(let format): return .text(format: format.map { compile($0) })
            case let .property(name, format):
                // Without a format name, variants are those of the value's words (an atom's `name.value` entry).
                return .property(property(name), format: format.map { compile($0) })
            case .inherited: return .inherited
            case let .lookup(key, variants):
                let (n, isNew) = Builder.number(key, &lookupNumbers)
                if isNew { lookupKeys.append(key) }
                return .lookup(n, selector: variants.isEmpty ? -1 : selector(variants))
            case .joiner(let joined): return .joiner(text(joined))
            case .levelMark: return .levelMark
            case .levelSilent: return .levelSilent
            case let .countedLookup(key, name):
                let (n, isNew) = Builder.number(key, &countedNumbers)
                if isNew { countedKeys.append(key) }
                return .countedLookup(n, property: property(name))
            case let .leveled(name, level):
                let (l, isNew) = Builder.number(level, &levelNumbers)
                if isNew { levelNames.append(level) }
                if name.utf8.contains(0x2E) { return .leveledPath(templatePath(name.split(separator: ".").map(String.init)), level: Int32(l)) }
                return .leveledChild(role(name), level: Int32(l))
            }
        }

        /// A template path's number (`function.subscript`).
        mutating func templatePath(_ roles: [String]) -> Int {
            let (path, isNew) = Builder.number(roles, &templatePathNumbers)
            if isNew {
                for r in roles { templatePathRoles.append(role(r)) }
                templatePathStart.append(templatePathRoles.count)
            }
            return path
        }

        /// A format: its kind, and the number of its variant selector when variants are written (the
        /// plural formats, `denominator-plural`, imply the variant `plural` first).
        mutating func compile(_ format: TemplateFormat) -> CompiledFormat {
            let kind = format.name.map(ValueFormat.init) ?? .none
            guard !format.variants.isEmpty else { return CompiledFormat(kind: kind, selector: -1) }
            let implied: [TemplateFormat.Variant] = kind.impliedVariant.map { [.named($0)] } ?? []
            return CompiledFormat(kind: kind, selector: Int32(selector(implied + format.variants)))
        }

        /// The number of a new variant selector.
        mutating func selector(_ variants: [TemplateFormat.Variant]) -> Int {
            let components = variants.map { variant -> VariantSelector.Component in
                switch variant {
                case .named(let name): return .named(name)
                case .plural(of: .text): return .plural(.text)
                case .plural(of: .property(let name)): return .plural(.property(property(name)))
                case .plural(of: .path(let roles)): return .plural(.path(templatePath(roles)))
                }
            }
            variantSelectors.append(VariantSelector(components: components))
            return variantSelectors.count - 1
        }
    }
}

/// A format as compiled (`{d:denominator@genitive}`): its kind and, when variants are written, the
/// number of its ``VariantSelector`` in ``RuleTable/variantSelectors`` (-1: none).
struct CompiledFormat: Sendable {
    let kind: ValueFormat
    let selector: Int32
}

/// The variants of a reference (`@feminine@genitive`, `@plural(quantity)`): which variant names of an
/// entry to try, most specific first (``variantCandidates(_:)``). Fixed names are listed once; a
/// plural category is found per node.
struct VariantSelector: Sendable {
    enum Component: Sendable {
        case named(String)
        case plural(CountSource)
    }

    /// Where the number of a plural category comes from: a property (a ``RuleTable/properties``
    /// number), the first node of a template path, or the node's own text.
    enum CountSource: Sendable {
        case property(Int)
        case path(Int)
        case text
    }

    let components: [Component]
    /// The candidates when every component is a fixed name.
    let fixed: [String]?

    init(components: [Component]) {
        self.components = components
        let names = components.compactMap { c -> String? in if case .named(let n) = c { n } else { nil } }
        fixed = names.count == components.count ? variantCandidates(names.map { [$0] }) : nil
    }
}

/// A property that rules name: its number (see ``NameNumber``) and, when a node has no property
/// of that name, the pseudo-property it stands for (`text`, `kind`, `role`, `count`, `position`,
/// `script-path`; Rules/README.md).
struct PropertyReference: Sendable {
    enum Pseudo: Sendable, Equatable {
        case text, kind, role, count, scriptPath, position
        /// No pseudo-property: a node without the property has no value.
        case none

        init(name: String) {
            switch name {
            case "text": self = .text
            case "kind": self = .kind
            case "role": self = .role
            case "count": self = .count
            case "script-path": self = .scriptPath
            case "position": self = .position
            default: self = .none
            }
        }
    }

    let number: NameNumber
    let pseudo: Pseudo
}

/// A condition prepared for matching: plain values only (numbers into the ``RuleTable``, kinds as a
/// bit set), so copying and testing one costs no reference counting.
struct CompiledCondition: Sendable {
    /// One step of a path: a sibling, an ancestor, or the first child with a role.
    enum Step: Sendable {
        /// A sibling: `offset` places after the node (before it when negative).
        case sibling(offset: Int)
        case parent(levels: Int)
        case child(NameNumber)
        /// The last child, whatever its role (`exponent.last`: the last factor of a product).
        case lastChild
        /// The first child, whatever its role (`{first} … {last}`: the two sides of a relation).
        case firstChild

        /// How a written path begins (`parent.parent.base`, `previous.previous.text`): its leading `parent`
        /// steps, or its leading `next`/`previous` steps, as one step (nil for neither), and the names after
        /// them, which are children (`first`, `last` or a role). The one reading of the path grammar, for the
        /// compiler (``SpeechStyle/Builder/path(_:)``) and for `rules lint`, which reports a `parent`, `next`
        /// or `previous` among the children (`parent.next` would name a child role and never match).
        static func leading(_ path: [String]) -> (step: Step?, children: ArraySlice<String>) {
            var rest = path[...]
            switch rest.first {
            case "parent":
                var levels = 0
                while rest.first == "parent" { levels += 1; rest = rest.dropFirst() }
                return (.parent(levels: levels), rest)
            case "next", "previous":
                // `previous.previous`: the sibling two before.
                var offset = 0
                while let step = rest.first, step == "next" || step == "previous" {
                    offset += step == "next" ? 1 : -1
                    rest = rest.dropFirst()
                }
                return (.sibling(offset: offset), rest)
            default:
                return (nil, rest)
            }
        }
    }

    /// The tests; numbers refer to the ``RuleTable``'s lists, `path` -1 to the node itself.
    enum Test: Sendable {
        case property(path: Int, property: Int, test: Int)
        case preference(slot: Int)
        case kind(path: Int, KindSet)
        case parentKind(KindSet)
        case role(Int)
        case followed
        case first
        case within(KindSet)
        /// `through`: the number of a kind set (``RuleTable/throughKinds``), not the set, which made
        /// every condition 40 bytes, not 32, so that many straddled two cache lines; with
        /// ``RuleTable/tests`` on 64-byte boundaries none does (L1 data read misses 912.7 k → 882.6 k
        /// a pass of `MathAloudBench stages` under callgrind, session 39).
        case withinThrough(KindSet, through: Int)
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
        case .within, .withinThrough: return 5
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
        for name in names { if let kind = SemanticKind(rawValue: name) { insert(kind) } }
    }

    /// No kind.
    init() {}

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Every kind.
    static let all = KindSet(low: ~0, high: ~0)

    func intersection(_ other: KindSet) -> KindSet { KindSet(low: low & other.low, high: high & other.high) }

    func subtracting(_ other: KindSet) -> KindSet { KindSet(low: low & ~other.low, high: high & ~other.high) }

    mutating func insert(_ kind: SemanticKind) {
        let n = kind.number
        if n < 64 { low |= 1 << UInt64(n) } else { high |= 1 << UInt64(n - 64) }
    }

    @inline(__always)
    func contains(_ kind: SemanticKind) -> Bool { contains(number: kind.number) }

    /// The set's bits of the kinds numbered `64 * w ..< 64 * w + 64` (0 past the set's 128).
    func word(_ w: Int) -> UInt64 { w == 0 ? low : w == 1 ? high : 0 }

    /// Whether the kind numbered `n` is in the set.
    @inline(__always)
    func contains(number n: Int) -> Bool { (n < 64 ? low >> UInt64(n) : high >> UInt64(n - 64)) & 1 != 0 }

    /// The kinds numbered below `count`.
    static func first(_ count: Int) -> KindSet {
        KindSet(low: count >= 64 ? ~0 : (1 << UInt64(count)) &- 1,
                high: count >= 128 ? ~0 : count <= 64 ? 0 : (1 << UInt64(count - 64)) &- 1)
    }

    /// Calls `body` with the number of each kind of the set, in increasing order.
    func forEachNumber(_ body: (Int) -> Void) {
        var bits = low
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        bits = high
        while bits != 0 {
            body(64 + bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
    }

    /// Whether every kind of `self` is in `other`.
    func isSubset(of other: KindSet) -> Bool { low & ~other.low | high & ~other.high == 0 }

    /// How many kinds the set has.
    var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }
}

/// A set of roles (`role is exponent, subscript`): the vocabulary's roles as bits by number, and the
/// names outside it, which only a hand-built tree's roles can have.
struct RoleSet: Sendable {
    let bits: UInt64
    let extraNames: [String]

    init(_ names: [String]) {
        var bits: UInt64 = 0
        var extra: [String] = []
        for name in names {
            if let r = SemanticRole(name: name) { bits |= 1 << UInt64(r.rawValue) } else { extra.append(name) }
        }
        self.bits = bits
        extraNames = extra
    }
}

/// A set of numbers 0–255 as 256 bits: a membership test is a shift, not a hash. Used for the
/// vocabulary's atoms (``AtomSet``) and for the last bytes of contraction words (``Contractions``),
/// both asked for every node or pair of items (`MathAloudBench stages`, rules stage).
struct BitSet256: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The empty set.
    init() {}

    /// Adds `n` (0–255; other values wrap to their low 8 bits).
    mutating func insert(_ n: Int) {
        let bit = UInt64(1) << UInt64(n & 63)
        switch (n >> 6) & 3 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    /// Whether `n` (0–255) is in the set.
    /// The word is chosen by selects, not a `switch`: the switch compiled to an indirect jump through
    /// a table, mispredicted on most calls (``Contractions`` asks once per spoken item; perf annotate of
    /// `MathAloudBench speak-profile`, session 13).
    @inline(__always)
    func contains(_ n: Int) -> Bool {
        let odd = n & 64 != 0
        let low = odd ? words.1 : words.0, high = odd ? words.3 : words.2
        return (n & 128 != 0 ? high : low) >> UInt64(n & 63) & 1 != 0
    }

    /// Calls `body` with each number of the set below `count`.
    func forEach(below count: Int, _ body: (Int) -> Void) {
        func each(_ word: UInt64, from start: Int) {
            guard start < count else { return }
            var bits = word & (count - start >= 64 ? ~0 : (1 << UInt64(count - start)) &- 1)
            while bits != 0 {
                body(start + bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
        each(words.0, from: 0)
        each(words.1, from: 64)
        each(words.2, from: 128)
        each(words.3, from: 192)
    }

    /// The numbers in both sets.
    func intersection(_ other: BitSet256) -> BitSet256 {
        var both = BitSet256()
        both.words = (words.0 & other.words.0, words.1 & other.words.1, words.2 & other.words.2, words.3 & other.words.3)
        return both
    }
}

/// A set of ``PropertyAtom``s as bits by number.
struct AtomSet: Sendable {
    private var bits = BitSet256()

    /// No atom.
    init() {}

    mutating func insert(_ atom: PropertyAtom) { bits.insert(Int(atom.rawValue)) }

    @inline(__always)
    func contains(_ atom: Int32) -> Bool { atom >= 0 && atom < 256 && bits.contains(Int(atom)) }

    /// Calls `body` with each atom's raw value below `count`.
    func forEach(below count: Int, _ body: (Int) -> Void) { bits.forEach(below: count, body) }

    /// The atoms in both sets.
    func intersection(_ other: AtomSet) -> AtomSet {
        var both = AtomSet()
        both.bits = bits.intersection(other.bits)
        return both
    }
}

/// A rule's tests of the text of the node path `path` leads to, or of its kind (`byKind`;
/// ``RuleTable/Candidate/keyTests``), as bits by row: per text number of ``RuleTable/textIDTable`` or
/// kind number, then for no node at the path, then for a text none of the tests names (`rows` in
/// all), whether every test of it passes.
struct PathKeyTest: Sendable {
    let path: Int32
    let byKind: Bool
    let rows: Int
    let passing: [UInt64]
    /// The rule's tests it stands for that come before ``RuleTable/Candidate/Probe/endTest``, as bits
    /// counted back from there (bit `i`: test `endTest - 1 - i`, for the last 32): those a list keyed
    /// by it need not test (``RuleTable/Candidate/Probe/skipPseudo``).
    let tests: UInt32

    func passes(row: Int) -> Bool { passing[row >> 6] >> UInt64(row & 63) & 1 != 0 }

    /// The tests of both (of the same path and key), the other's tests being `otherTests`.
    func and(_ other: [UInt64], tests otherTests: UInt32) -> PathKeyTest {
        PathKeyTest(path: path, byKind: byKind, rows: rows, passing: zip(passing, other).map { $0 & $1 }, tests: tests | otherTests)
    }
}

/// A rule's tests of an atom value of a property of the node itself, at most two (a rule with more
/// is filtered by two: the rest are tested), kept inline: a candidate is copied per list it is in
/// when the lists are made, and an array in it would be counted each time (start-up).
struct AtomTests: Sendable {
    private(set) var first: (name: UInt16, atoms: AtomSet)? = nil
    private(set) var second: (name: UInt16, atoms: AtomSet)? = nil

    var isEmpty: Bool { first == nil }

    mutating func append(_ name: UInt16, _ atoms: AtomSet) {
        if first == nil { first = (name, atoms) } else if second == nil { second = (name, atoms) }
    }

    /// Calls `body` with each name tested, once.
    func forEachName(_ body: (UInt16) -> Void) {
        guard let first else { return }
        body(first.name)
        if let second, second.name != first.name { body(second.name) }
    }

    /// Whether `name` is tested, and the atoms that pass every test of it.
    func passing(_ name: UInt16) -> AtomSet? {
        switch (first?.name == name ? first?.atoms : nil, second?.name == name ? second?.atoms : nil) {
        case let (a?, b?): return a.intersection(b)
        case let (a?, nil), let (nil, a?): return a
        case (nil, nil): return nil
        }
    }
}

/// The names of the vocabulary's atoms, kinds and roles (what value tests are precomputed for), read
/// once per process, also by their ASCII lower case.
struct VocabularyNames: Sendable {
    let atoms: [(PropertyAtom, String)]
    let kinds: [(SemanticKind, String)]
    let roles: [(SemanticRole, String)]
    let atomsByLowercase: [String: [PropertyAtom]]
    let kindsByLowercase: [String: [SemanticKind]]
    let rolesByLowercase: [String: [SemanticRole]]

    static let shared = VocabularyNames()

    private init() {
        precondition(PropertyAtom.allCases.count <= 256, "AtomSet holds 256 atoms")
        atoms = PropertyAtom.allCases.map { ($0, $0.string) }
        kinds = SemanticKind.allCases.map { ($0, $0.rawValue) }
        roles = SemanticRole.allCases.map { ($0, $0.name) }
        func byLowercase<T>(_ names: [(T, String)]) -> [String: [T]] {
            var table: [String: [T]] = [:]
            for (value, name) in names {
                guard let key = VocabularyNames.asciiLowercase(name) else { preconditionFailure("'\(name)' is not ASCII") }
                table[key, default: []].append(value)
            }
            return table
        }
        atomsByLowercase = byLowercase(atoms)
        kindsByLowercase = byLowercase(kinds)
        rolesByLowercase = byLowercase(roles)
    }

    /// `s` with ASCII letters in lower case (nil when it is not ASCII).
    static func asciiLowercase(_ s: String) -> String? {
        guard s.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        // A value with no upper-case letter (most) is its own lower case: an array of its bytes and a
        // new string per value cost 0.35 M of the 84.8 M instructions of `mathaloud speak 'x^2'` under
        // callgrind (session 46).
        guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
        return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

/// A ``ValueTest`` prepared for matching. The test is on a value's string (``passes(_:)``); for the
/// compact forms of ``SemanticTree`` values its result is worked out when the style loads, by
/// running that string test (so it is exact by construction): on `true` for a flag, on every atom's
/// string, on every kind's and role's name (the `kind` and `role` pseudo-properties), and for
/// integers the integers whose decimal string passes `= a, b` (or the comparison for `<`, `>`). Only
/// string values run the string test. A struct read in place (an enum with an array payload is
/// copied, with reference counting, each time it is switched on).
struct CompiledValueTest: Sendable {
    enum Operation: Sendable { case present, oneOf, less, greater }
    /// What a run reads of the test besides the string test (plain values).
    let facts: Facts
    /// The test on strings (the values of `oneOf`), made once.
    private let string: StringTest
    /// For `oneOf`.
    var values: [String] { string.values }

    /// Compiles `test`, appending the integers it accepts to `integerValues`, and for an exact
    /// `oneOf` the numbers of its values to `textIDs`.
    init(_ test: ValueTest, exact: Bool = false, integers integerValues: inout [Int32], textIDs: inout TextIDs) {
        var values: [String] = []
        var number = 0.0
        let operation: Operation
        switch test {
        case .present: operation = .present
        case .oneOf(let v): operation = .oneOf; values = v
        case .less(let n): operation = .less; number = n
        case .greater(let n): operation = .greater; number = n
        }
        let valuesKnownNFC = values.allSatisfy(Normalization.isKnownNFC)
        // Every precomputed result is the string test's.
        let string = StringTest(operation: operation, values: values, valuesKnownNFC: valuesKnownNFC, exact: exact, number: number)
        self.string = string
        let onFlag = string.passes("true")
        let onMissing = string.passes(nil)
        let names = VocabularyNames.shared
        var atoms = AtomSet(), kinds = KindSet(), roles: UInt64 = 0
        if operation == .oneOf {
            // The names are ASCII, so the test holds for one exactly when an ASCII value equals it
            // ignoring ASCII case, or (`exact`) has its bytes: look the values up by their lower case
            // instead of testing every name (the `text = …` tests of a style are many; cold start,
            // `BENCHMARKS.md`). A value that is not ASCII equals an ASCII name (canonically) only when
            // its decomposition is ASCII, which takes one of the three characters whose decomposition
            // is (``Normalization/hasASCIIDecomposingScalar(_:)``): only such values are tested on
            // every name. (Testing every name for every test with a value not known to be in NFC —
            // Afrikaans `text = ê, ë` — normalized both strings per comparison: 33 M instructions of
            // loading the Afrikaans speaker under callgrind, session 44.)
            var decomposingToASCII: [String] = []
            for v in values {
                guard let key = VocabularyNames.asciiLowercase(v) else {
                    if !valuesKnownNFC && Normalization.hasASCIIDecomposingScalar(v) { decomposingToASCII.append(v) }
                    continue
                }
                for a in names.atomsByLowercase[key] ?? [] where !exact || a.string == v { atoms.insert(a) }
                for k in names.kindsByLowercase[key] ?? [] where !exact || k.rawValue == v { kinds.insert(k) }
                for r in names.rolesByLowercase[key] ?? [] where !exact || r.name == v { roles |= 1 << UInt64(r.rawValue) }
            }
            if !decomposingToASCII.isEmpty {
                let test = StringTest(operation: .oneOf, values: decomposingToASCII, valuesKnownNFC: false, exact: exact, number: 0)
                for (atom, name) in names.atoms where test.passes(name) { atoms.insert(atom) }
                for (kind, name) in names.kinds where test.passes(name) { kinds.insert(kind) }
                for (role, name) in names.roles where test.passes(name) { roles |= 1 << UInt64(role.rawValue) }
            }
        } else if operation == .present {
            // The same for every `present` test (it reads no value of its own): worked out once.
            (atoms, kinds, roles) = CompiledValueTest.presentResults
        } else {
            // A `<` or `>` test passes only names that read as numbers (``StringTest/passes(_:)``): only
            // those are tested (testing every name of the vocabulary for each value test of a style
            // cost 4 M of 109 M instructions of `mathaloud speak 'x^2'` under callgrind, session 43).
            let candidates = CompiledValueTest.numericNames
            for (atom, name) in candidates.atoms where string.passes(name) { atoms.insert(atom) }
            for (kind, name) in candidates.kinds where string.passes(name) { kinds.insert(kind) }
            for (role, name) in candidates.roles where string.passes(name) { roles |= 1 << UInt64(role.rawValue) }
        }
        // The integers a `oneOf` can accept are those some value spells canonically: an integer's
        // string is ASCII digits (and `-`), which have no case and no canonically equivalent
        // spelling other than themselves.
        let start = integerValues.count
        for v in values {
            if let n = SemanticTree.canonicalInteger(v), !integerValues[start...].contains(n), string.passes(String(n)) {
                integerValues.append(n)
            }
        }
        let integers = start ..< integerValues.count
        // A `oneOf` that ignores ASCII case tests what an exact one does when no value has an ASCII
        // letter (`next.open = (`): a value then equals a string ignoring ASCII case only when it has
        // its bytes, and the string test's canonical equivalence is the numbering's. Such tests on
        // string properties (operators, fences) are tested by number too, not by comparing strings
        // per test (0.7 M of 156.0 M instructions, `MathAloudBench stages` under callgrind, session 36).
        let byTextID = operation == .oneOf
            && (exact || values.allSatisfy { !$0.utf8.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) })
        let textStart = textIDs.values.count
        if byTextID {
            for v in values {
                let id = textIDs.number(v)
                if !textIDs.values[textStart...].contains(id) { textIDs.values.append(id) }
            }
        }
        facts = Facts(operation: operation, number: number, onFlag: onFlag, onMissing: onMissing, atoms: atoms,
                      kinds: kinds, roles: roles, integers: integers, textIDs: textStart ..< textIDs.values.count,
                      byTextID: byTextID)
    }

    /// The atoms, kinds and vocabulary roles whose names a `present` test passes (the string test on
    /// each name, run once per process).
    private static let presentResults: (atoms: AtomSet, kinds: KindSet, roles: UInt64) = {
        let test = StringTest(operation: .present, values: [], valuesKnownNFC: true, exact: false, number: 0)
        let names = VocabularyNames.shared
        var atoms = AtomSet(), kinds = KindSet(), roles: UInt64 = 0
        for (atom, name) in names.atoms where test.passes(name) { atoms.insert(atom) }
        for (kind, name) in names.kinds where test.passes(name) { kinds.insert(kind) }
        for (role, name) in names.roles where test.passes(name) { roles |= 1 << UInt64(role.rawValue) }
        return (atoms, kinds, roles)
    }()

    /// The names of the vocabulary that read as numbers (`Double(name)`): the only ones a `<` or `>`
    /// test can pass.
    private static let numericNames: (atoms: [(PropertyAtom, String)], kinds: [(SemanticKind, String)], roles: [(SemanticRole, String)]) = {
        let names = VocabularyNames.shared
        return (names.atoms.filter { Double($0.1) != nil }, names.kinds.filter { Double($0.1) != nil },
                names.roles.filter { Double($0.1) != nil })
    }()

    /// Whether `value` passes: present and not `false` or empty; one of the values (equal as
    /// strings, or unless `exact` equal ignoring ASCII case); a number below / above.
    func passes(_ value: String?) -> Bool { string.passes(value) }

    /// ``passes(_:)`` of the test at `test`, read in place (called on a test read through a pointer,
    /// the test was copied, with a reference count of its values, per call; session 11).
    static func passes(_ test: UnsafePointer<CompiledValueTest>, _ value: String?) -> Bool {
        test.pointee.string.passes(value)
    }

    /// What a run reads of the test besides the string test: plain values only, so reading one from
    /// the table copies no array and counts no reference (``RuleTable/valueFacts``; the whole test
    /// was copied, with its values, on every pseudo-property test: rules stage, session 8).
    struct Facts: Sendable {
        let operation: Operation
        /// For `less` and `greater`.
        let number: Double
        /// The result for a flag (the string `true`) and for no value.
        let onFlag: Bool
        let onMissing: Bool
        /// The atoms, kinds and vocabulary roles whose strings pass.
        let atoms: AtomSet
        let kinds: KindSet
        let roles: UInt64
        /// For `oneOf`: the range of ``RuleTable/integerValues`` holding the integers whose decimal
        /// string passes.
        let integers: Range<Int>
        /// For an exact `oneOf` (the `text` tests), or one whose values have no ASCII letter: the range
        /// of ``RuleTable/textIDValues`` holding the numbers of its values among all such values
        /// (``TextIDs``); `byTextID` says it is one.
        let textIDs: Range<Int>
        let byTextID: Bool

        /// Whether an integer value passes (the test on its decimal string).
        @inline(__always)
        func passes(integer n: Int32, _ integerValues: UnsafePointer<Int32>) -> Bool {
            switch operation {
            case .present: return true
            case .oneOf:
                for i in integers where integerValues[i] == n { return true }
                return false
            case .less: return Double(n) < number
            case .greater: return Double(n) > number
            }
        }

        /// Whether a text with number `id` among ``TextIDs`` (-1: none of them) passes, for a test
        /// with ``byTextID``: the string test on it (`values.contains`: equal as strings, as the
        /// numbering's dictionary compares them, so one number per class of equal strings).
        @inline(__always)
        func passes(textID id: Int32, _ textIDValues: UnsafePointer<Int32>) -> Bool {
            for i in textIDs where textIDValues[i] == id { return true }
            return false
        }
    }

    /// The test on strings. `valuesKnownNFC` when each value is ASCII or one scalar in NFC
    /// (``Normalization``); `exact` compares strings exactly (for `text`) instead of ignoring ASCII case.
    private struct StringTest: Sendable {
        let operation: Operation
        let values: [String]
        let valuesKnownNFC: Bool
        let exact: Bool
        let number: Double

        func passes(_ value: String?) -> Bool {
            switch operation {
            case .present: return value != nil && value != "false" && value != ""
            case .oneOf:
                guard let value else { return false }
                if exact {
                    // Strings in NFC are equal only when their bytes are: compared without normalizing
                    // (the `text` tests' values are mostly non-ASCII symbols; each such test is asked
                    // about `true` and its integers when the style loads).
                    if valuesKnownNFC && Normalization.isKnownNFC(value) {
                        return value.withBytes { bytes in values.contains { $0.withBytes { $0.elementsEqual(bytes) } } }
                    }
                    return values.contains(value)
                }
                return values.withUnsafeBufferPointer { values in
                    for v in values where equalIgnoringASCIICase(v, value) { return true }
                    // Strings that differ in bytes can still be equal as Swift strings (canonical
                    // equivalence), but not when both are in NFC.
                    if valuesKnownNFC && Normalization.isKnownNFC(value) { return false }
                    return values.contains(value)
                }
            case .less: return value.flatMap(Double.init).map { $0 < number } ?? false
            case .greater: return value.flatMap(Double.init).map { $0 > number } ?? false
            }
        }
    }
}

/// The values of the exact `oneOf` tests of a style (the `text = …` tests) numbered, one number per
/// class of equal strings: a run finds a node's text among them once (``SpeechRun``'s text numbers)
/// and tests its number, instead of comparing strings in every test (rules stage, `BENCHMARKS.md`,
/// session 8).
struct TextIDs {
    var ids: [String: Int32] = [:]
    /// The numbers of every test's values, test after test (``CompiledValueTest/Facts/textIDs``).
    var values: [Int32] = []

    mutating func number(_ text: String) -> Int32 {
        if let id = ids[text] { return id }
        let id = Int32(ids.count)
        ids[text] = id
        return id
    }
}

/// A template part prepared for speaking: roles, property names and keys numbered, role paths
/// split, formats as cases, once when the style loads.
enum CompiledPart: Sendable {
    /// Words: a ``RuleTable/partTexts`` number (the part holds no reference, so reading one copies no
    /// counted reference and calls no outlined copy and destroy; session 11).
    case words(Int32)
    /// Words that say nothing (all spaces).
    case nothing
    case pause(SpeechDescription.Pause)
    /// All children in order.
    case children
    /// The children with a role (all of them, in order).
    case child(NameNumber, format: CompiledFormat?)
    /// The first node reached through a path of roles (`function.subscript`): a template path number.
    case path(Int, format: CompiledFormat?)
    /// The first or the last child, whatever its role (`{first} … {last}`: the sides of a relation).
    case end(last: Bool, format: CompiledFormat?)
    case text(format: CompiledFormat?)
    /// A property's value: a ``RuleTable/properties`` number.
    case property(Int, format: CompiledFormat?)
    /// Words by key: a ``RuleTable/lookupKeys`` number, and a ``RuleTable/variantSelectors`` number (-1: none).
    case lookup(Int, selector: Int)
    /// The first matching rule of a later file (``TemplatePart/inherited``).
    case inherited
    /// Words by key and count: a ``RuleTable/countedKeys`` number and the property giving the count.
    case countedLookup(Int, property: Int)
    /// The children with a role, or the node a template path leads to, spoken at a script level
    /// (a ``RuleTable/levelNames`` number).
    case leveledChild(NameNumber, level: Int32)
    case leveledPath(Int, level: Int32)
    /// Says the indicator of the current script level if the words before were on another.
    case levelMark
    /// Takes up the current script level without saying its indicator.
    case levelSilent
    /// Joins the next part's words onto the words before with a text: a ``RuleTable/partTexts`` number.
    case joiner(Int32)
}

/// The formats after a colon in a template reference (`{denominator:ordinal}`, see `Rules/README.md`).
/// An unknown name formats nothing (the part is spoken as if it had no format; `rules lint` reports it).
enum ValueFormat: Sendable {
    case raw, cardinal, ordinal, ordinalPlural, ordinalNumeral, denominator, denominatorPlural, rootIndex
    case word, function, unit, unitPlural, spell, power, concept, font, characters, punctuation, letters, name, notation, decimal
    case unknown
    /// No format name, only variants (`{=operator@genitive}`, `{@…}`).
    case none

    /// The format names, as templates write them.
    static let names: [String: ValueFormat] = [
        "raw": .raw, "cardinal": .cardinal, "ordinal": .ordinal, "ordinal-plural": .ordinalPlural,
        "ordinal-numeral": .ordinalNumeral, "denominator": .denominator, "denominator-plural": .denominatorPlural,
        "root-index": .rootIndex, "word": .word, "function": .function, "unit": .unit, "unit-plural": .unitPlural,
        "spell": .spell, "power": .power, "concept": .concept, "font": .font, "characters": .characters,
        "punctuation": .punctuation, "letters": .letters, "name": .name, "notation": .notation,
        "decimal": .decimal,
    ]

    init(_ name: String) { self = ValueFormat.names[name] ?? .unknown }

    /// The variant a format implies (`denominator-plural` is `denominator@plural`).
    var impliedVariant: String? {
        switch self {
        case .ordinalPlural, .denominatorPlural, .unitPlural: "plural"
        default: nil
        }
    }

    /// The number form of an integer format (nil for the others).
    var numberForm: NumberForm? {
        switch self {
        case .cardinal: .cardinal
        case .ordinal, .ordinalPlural: .ordinal
        case .denominator, .denominatorPlural: .denominator
        case .rootIndex: .rootIndex
        case .power: .power
        default: nil
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
    /// payloads), or if there are more kinds than a ``KindSet`` holds or more roles than a
    /// ``RoleSet`` holds.
    static func checkNumbering() {
        precondition(MemoryLayout<SemanticKind>.size == 1 && allCases.count <= 128
                     && allCases.enumerated().allSatisfy { $0.offset == $0.element.number },
                     "SemanticKind is no longer stored as its case number; change SemanticKind.number")
        precondition(SemanticRole.allCases.count <= 64, "more roles than a RoleSet and CompiledValueTest.roles hold (64 bits)")
    }
}
