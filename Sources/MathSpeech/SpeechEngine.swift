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

/// Bounds on the work and output of speaking one formula, so that a rule file cannot make a run
/// explode (a rule that says `{children}` four times, on nested nodes, grows as 4ⁿ). Going over one
/// stops the run with `speech.step-limit` or `speech.output-limit`, naming the rule file and line;
/// the formula is then not spoken at all.
public struct SpeechLimits: Sendable, Hashable {
    /// Most nodes spoken in one run (a node spoken twice counts twice); default 1,000,000.
    public var maxRuleSteps: Int = 1_000_000
    /// Most UTF-8 bytes of words in one formula's speech; default 4 MiB.
    public var maxOutputBytes: Int = 4 << 20

    /// The defaults.
    public init(maxRuleSteps: Int = 1_000_000, maxOutputBytes: Int = 4 << 20) {
        self.maxRuleSteps = maxRuleSteps
        self.maxOutputBytes = maxOutputBytes
    }
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
///
/// ```swift
/// let engine = SpeechEngine(style: style, lexicon: lexicon)
/// let tree = SemanticAnalyzer().tree(of: TeXParser().parse(#"\frac{3}{4}"#).root)
/// engine.speak(tree).description.plainText      // "three fourths"
/// ```
public struct SpeechEngine: Sendable {
    /// The compiled style.
    public let style: SpeechStyle
    /// The locale's words.
    public let lexicon: Lexicon
    /// What runs read, shared by reference.
    private let core: Core

    /// What every run of an engine reads, made with the engine: a run copies one reference instead
    /// of the engine's parts.
    final class Core: Sendable {
        let table: RuleTable
        let rules: [SpeechRule]
        /// The style's default verbosity (``SpeechStyle/defaultVerbosity``).
        let defaultVerbosity: String?
        let lexicon: Lexicon
        let locale: String
        /// The preferences given when the engine was made, with every preference condition of the
        /// style already tested for them (empty when none were given).
        let preferences: RunPreferences
        /// Words for the variant of those preferences.
        let words: WordCache
        /// Numbers of the vocabulary that runs compare with (read once: an enum's raw value from
        /// another module is a call, and a static constant is checked for initialization on every read).
        let roleCount: Int
        /// How many kinds the vocabulary has (the root's entry in a parent-kind row is at this index).
        let kindCount: Int
        let propertyNameCount: Int
        let exponentRole: UInt16
        let subscriptRole: UInt16
        let commandProperty: UInt16
        /// ``PropertyName/letter``'s number: a variable named by a letter, in no contraction.
        let letterProperty: UInt16
        /// The bounds on one run.
        let limits: SpeechLimits
        /// The key prefix of script-level indicators (``SpeechStyle/levelWords``).
        let levelWords: String?
        /// The locale's words around a letter said as an ordinal ("n-th", "ke-n"), in no variant
        /// (``Lexicon/letterOrdinalAffixes(variants:)``), looked up once: a look-up per such letter cost 700
        /// instructions, 0.2 k a formula on the first 1000 arXiv formulas (`MathAloudBench stages`
        /// under callgrind, session 15).
        let letterOrdinal: LetterOrdinalAffixes?
        /// Word changes where parts of the speech meet (the locale's `contractions.txt`).
        let contractions: Contractions

        init(style: SpeechStyle, lexicon: Lexicon, preferences: RunPreferences, limits: SpeechLimits) {
            self.limits = limits
            table = style.table
            rules = style.compiledRules
            defaultVerbosity = style.defaultVerbosity
            self.lexicon = lexicon
            locale = style.locale
            self.preferences = preferences
            let contractions = Contractions(chain: lexicon.chain)
            self.contractions = contractions
            hasContractions = !contractions.isEmpty
            screensContractions = contractions.screens
            contractionScreen = contractions.screen
            words = WordCache(lexicon: lexicon, variant: preferences.variant, lookupKeys: style.table.lookupKeys,
                              countedKeys: style.table.countedKeys, screen: contractions.screens ? contractions.screen : nil)
            let texts = style.table.partTexts
            partMarks = FrozenArray(count: texts.count) { contractions.screens ? contractions.screen.marks(of: texts.base[$0]) : 0 }
            levelWords = style.levelWords
            letterOrdinal = lexicon.letterOrdinalAffixes()
            roleCount = SemanticRole.allCases.count
            kindCount = SemanticKind.allCases.count
            propertyNameCount = PropertyName.allCases.count
            exponentRole = SemanticRole.exponent.rawValue
            subscriptRole = SemanticRole.subscript.rawValue
            commandProperty = PropertyName.command.rawValue
            letterProperty = PropertyName.letter.rawValue
        }

        /// Whether ``contractions`` change anything (read once: reading the contractions through a run's
        /// unowned reference copied them, counting a reference per table; rules stage, session 9).
        let hasContractions: Bool
        /// Whether the speech builder screens items for ``contractions`` (``Contractions/screens``), and
        /// the tests it screens them with (read once, as ``hasContractions``).
        let screensContractions: Bool
        let contractionScreen: Contractions.Screen
        /// The marks of the rule table's part texts (``Contractions/Screen/marks(of:)``; 0 when the
        /// items are not screened), by text number: the builder notes a template's words without
        /// reading them.
        let partMarks: FrozenArray<UInt8>

        /// Applies ``contractions`` to speech items (read in place, through `self`).
        func applyContractions(to items: inout [SpeechDescription.Item], isVariable: (String, SourceRange) -> Bool) {
            contractions.apply(to: &items, isVariable: isVariable)
        }

        /// The words of counted key number `k` for count `n` (see ``TemplatePart/countedLookup(key:property:)``).
        func countedWords(_ k: Int, _ n: Int, variant: String?) -> String {
            Core.countedWords(table.countedKeys[k], n, lexicon: lexicon, variant: variant)
        }

        /// `KEY.N`, else `KEY.*` with its count placeholders filled in, of the locale; else of a style's
        /// word file of another language (``Lexicon/otherLanguageStyleWord(_:variants:)``); empty when none exists.
        static func countedWords(_ key: String, _ n: Int, lexicon: Lexicon, variant: String?) -> String {
            if let w = lexicon.symbol("\(key).\(n)", variant: variant) { return w.trimmingSpaces }
            // (The locale's `KEY.N` was looked up above: another language's only after the locale's `KEY.*`.)
            guard let pattern = lexicon.symbol("\(key).*", variant: variant) ?? lexicon.otherLanguageStyleWord("\(key).\(n)", variant: variant)
                    ?? lexicon.otherLanguageStyleWord("\(key).*", variant: variant) else { return "" }
            return fillCount(pattern, n).trimmingSpaces
        }

        /// Replaces `{n}`, `{n+K}`, `{n-K}` by the count (plus or minus K) and `{n:WORD}`, `{n+K:WORD}`
        /// by WORD repeated that many times, without spaces.
        static func fillCount(_ pattern: String, _ n: Int) -> String {
            var out = ""
            var rest = Substring(pattern)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                out += rest[..<open]
                let inner = rest[rest.index(after: open)..<close]
                let (expression, word) = inner.firstIndex(of: ":").map { (inner[..<$0], String(inner[inner.index(after: $0)...])) }
                    ?? (inner, nil)
                var count = n
                let e = expression.trimmingSpaces
                if e.hasPrefix("n+"), let k = Int(e.dropFirst(2)) { count = n + k }
                else if e.hasPrefix("n-"), let k = Int(e.dropFirst(2)) { count = n - k }
                else if e != "n" { out += rest[open...close]; rest = rest[rest.index(after: close)...]; continue }
                if let word { out += String(repeating: word, count: max(0, min(count, 64))) } else { out += String(count) }
                rest = rest[rest.index(after: close)...]
            }
            return out + rest
        }

        /// The indicator of the script level `path` (level-name numbers, outermost first; empty for the
        /// baseline): `PREFIX.base`, or `PREFIX.NAME.outer` for every level but the last and
        /// `PREFIX.NAME` for the last (MathSpeak "Super Subscript").
        func levelIndicator(_ path: [Int32], variant: String?) -> String {
            guard let prefix = levelWords else { return "" }
            if path.isEmpty { return lexicon.structureWord(prefix + ".base", variant: variant)?.trimmingSpaces ?? "" }
            var words: [String] = []
            for (i, l) in path.enumerated() {
                let name = prefix + "." + table.levelNames[Int(l)]
                // The locale's words first (its `NAME` before another language's `NAME.outer`).
                let w = i < path.count - 1
                    ? lexicon.symbol(name + ".outer", variant: variant) ?? lexicon.symbol(name, variant: variant)
                        ?? lexicon.otherLanguageStyleWord(name + ".outer", variant: variant) ?? lexicon.otherLanguageStyleWord(name, variant: variant)
                    : lexicon.structureWord(name, variant: variant)
                if let w, !w.isEmpty { words.append(w.trimmingSpaces) }
            }
            return words.joined(separator: " ")
        }
    }

    /// Creates an engine with the style's default preferences (every preference at its first value,
    /// as ``SpeechStyle/resolve(_:)`` gives them for no request).
    public init(style: SpeechStyle, lexicon: Lexicon) {
        self.init(style: style, lexicon: lexicon, preferences: style.resolve([:]).values)
    }

    /// Creates an engine for resolved preference values (see ``SpeechStyle/resolve(_:)``), spoken
    /// with by `speak(_:preferences:trace:)`: the style's preference conditions are tested
    /// here, once, instead of in every call.
    public init(style: SpeechStyle, lexicon: Lexicon, preferences: [String: String], limits: SpeechLimits = SpeechLimits()) {
        self.style = style
        self.lexicon = lexicon
        core = Core(style: style, lexicon: lexicon, preferences: RunPreferences(preferences, table: style.table,
                                                                               defaultVerbosity: style.defaultVerbosity, testAll: true),
                    limits: limits)
    }

    /// The bounds on one run.
    public var limits: SpeechLimits { core.limits }

    /// Speaks `tree` with the preferences the engine was made with, or with resolved preference
    /// values (see ``SpeechStyle/resolve(_:)``). `trace` records which rule spoke each node
    /// (``SpeechOutput/trace``).
    public func speak(_ tree: SemanticTree, preferences: [String: String]? = nil, trace: Bool = false) -> SpeechOutput {
        SpeechEngine.speak(tree, rootRole: SemanticRole.noRole.rawValue, core, runPreferences(preferences), trace: trace)
    }

    /// Speaks the tree of `root` (see ``SemanticTree/init(_:)``) as ``speak(_:preferences:trace:)``
    /// does; the root keeps its role.
    public func speak(_ root: SemanticNode, preferences: [String: String]? = nil, trace: Bool = false) -> SpeechOutput {
        var tree = SemanticTree(root)
        let role = tree.addRole(root.role.rawValue)
        return SpeechEngine.speak(tree, rootRole: role, core, runPreferences(preferences), trace: trace)
    }

    /// The room reserved for the items of a tree of `nodeCount` nodes: twice the nodes (a pause and
    /// words per node at most, in practice), except where the usual count — about one item per node,
    /// 0.96 at the median and 1.24 at the 90th percentile on the first 1000 arXiv formulas — fits in
    /// the largest block malloc hands out from its per-thread cache (1,032 bytes in glibc: 25 items).
    /// Allocating the items cost 275 instructions a run, 150 with this (two thirds of the runs get a
    /// cached block, against a third; 20 more of 4000 outgrow theirs): 0.33 k a formula
    /// (`MathAloudBench stages` under callgrind, session 15).
    static func itemCapacity(nodeCount: Int) -> Int {
        let cached = (1032 - 32) / MemoryLayout<SpeechDescription.Item>.stride  // less the array's header
        return nodeCount + nodeCount / 4 <= cached ? cached : 2 * nodeCount
    }

    /// The engine's preferences, or `preferences` with every preference condition tested for them.
    private func runPreferences(_ preferences: [String: String]?) -> RunPreferences {
        preferences.map { RunPreferences($0, table: core.table, defaultVerbosity: core.defaultVerbosity, testAll: false) } ?? core.preferences
    }

    private static func speak(_ tree: SemanticTree, rootRole: UInt16, _ core: Core, _ preferences: RunPreferences,
                              trace: Bool) -> SpeechOutput {
        // A tree still empty reads as its ``SemanticTree/root`` does: one empty node.
        guard tree.rootID >= 0 else { return speak(SemanticTree(tree.root), rootRole: rootRole, core, preferences, trace: trace) }
        let root = tree.rootID, nodeCount = tree.nodeCount
        // The run reads the tree's arrays in place, and works in memory on the stack.
        // The closures hold the engine's parts unowned: the caller holds them for the whole run.
        return TreeView.with(tree, vocabularyNames: core.propertyNameCount, vocabularyRoles: core.roleCount) {
            [unowned(unsafe) core, unowned(unsafe) preferences] view in
            SpeechRun.Scratch.with(core.table, nodeCount: nodeCount, stringCount: view.strings.count) { [unowned(unsafe) core, unowned(unsafe) preferences] scratch in
                var run = SpeechRun(core: core, tree: view, preferences: preferences, tracing: trace, scratch: scratch)
                var out = SpeechBuilder(capacity: SpeechEngine.itemCapacity(nodeCount: nodeCount), screen: core.contractionScreen,
                                        screened: core.screensContractions)
                run.speak(root, role: rootRole, parent: nil, index: 0, depth: 0, prosody: nil, into: &out)
                SpeechDescription.removeTrailingPauses(&out.items)
                // Items the builder screened and found no pair in are left as they are.
                if core.hasContractions && out.mayContract { run.contract(&out.items) }
                let (diagnostics, trace) = run.finish()
                return SpeechOutput(description: SpeechDescription(items: out.takeItems()), diagnostics: diagnostics, trace: trace)
            }
        }
    }
}

/// Preference values for speaking, with the results of the style's preference conditions
/// (``RuleTable/preferenceTests``): preferences are fixed for a whole run, so each condition is
/// tested at most once — when the engine is made (for all of them), or on first use in a run.
/// Shared by reference: a run copies one reference and, when it tests conditions itself, ``results``.
final class RunPreferences: Sendable {
    let values: [String: String]
    /// The word variant for the verbosity: its value in lower case (`brief`, `terse`), nil for the
    /// style's default verbosity or none.
    let variant: String?
    /// MathCAT's number preferences (``SpeechStyle/numberPreferences``), looked up once here rather than
    /// for every number the `decimal` format speaks.
    let decimalSeparators: String?, blockSeparators: String?
    /// Per preference test: 0 not tested yet, 1 fails, 2 holds.
    let results: [UInt8]
    /// The candidate rules; when every preference test was tested up front, without the rules whose
    /// preference tests fail (and the others' preference tests need no testing).
    let candidates: RuleTable.Candidates

    init(_ values: [String: String], table: RuleTable, defaultVerbosity: String?, testAll: Bool) {
        self.values = values
        let verbosity = RunPreferences.value("Verbosity", in: values)?.lowercased()
        variant = verbosity == nil || verbosity == defaultVerbosity?.lowercased() ? nil : verbosity
        decimalSeparators = values["DecimalSeparators"]
        blockSeparators = values["BlockSeparators"]
        guard testAll else {
            results = Array(repeating: 0, count: table.preferenceTests.count)
            candidates = table.candidates
            return
        }
        let results = table.preferenceTests.map { p in
            p.test.passes(RunPreferences.value(p.name, in: values)) ? UInt8(2) : 1
        }
        self.results = results
        candidates = table.candidates(keeping: { r in
            table.tests.elements[table.testStart.base[r] ..< table.testsAfterPreferences.base[r]].allSatisfy { test in
                guard case let .preference(slot) = test.test else { return true }
                return (results[slot] == 2) != test.negated
            }
        })
    }

    /// Whether preference test `slot` holds, with the results so far in `results` (a run's copy of
    /// ``results``).
    func holds(_ slot: Int, _ table: RuleTable, results: UnsafeMutablePointer<UInt8>) -> Bool {
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

/// ASCII case-insensitive equality (preference names and values, rule values) without allocating.
@inline(__always)
func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    a.withBytes { a in
        b.withBytes { b in
            guard a.count == b.count else { return false }
            for i in 0 ..< a.count where a[i] != b[i] {
                let x = a[i], y = b[i]
                let lx = (x >= 65 && x <= 90) ? x + 32 : x
                let ly = (y >= 65 && y <= 90) ? y + 32 : y
                if lx != ly { return false }
            }
            return true
        }
    }
}

/// An ASCII letter or digit (the letters are the ASCII characters with the Unicode Alphabetic property).
@inline(__always)
func isASCIILetterOrDigit(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
}
