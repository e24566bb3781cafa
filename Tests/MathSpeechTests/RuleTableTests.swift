import Foundation
import Testing
import MathSemantics
@testable import MathSpeech

/// The compiled rule table: the value tests' results precomputed for the compact value forms are the
/// string test's.
@Suite struct RuleTableTests {
    /// The layouts the matching loop's cache behaviour was measured with (session 39): a candidate
    /// list is three whole cache lines and a condition half of one, so that with both tables on
    /// 64-byte boundaries no list's hot fields and no condition straddle two lines. A field added
    /// to either must keep these (or measure again).
    @Test func candidateListsAndConditionsKeepTheirCacheLineSizes() {
        #expect(MemoryLayout<RuleTable.CandidateList>.stride == 192)
        #expect(MemoryLayout<CompiledCondition>.stride == 32)
    }

    /// The shipped rule files, and conditions with mixed case and values that are not in NFC.
    static func styles() throws -> [SpeechStyle] {
        let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Rules/en")
        var styles: [SpeechStyle] = []
        for name in ["clearspeak", "simplespeak", "mathspeak", "literalspeak"] {
            let text = try String(contentsOf: rules.appendingPathComponent("\(name).rules"), encoding: .utf8)
            styles.append(SpeechStyle(files: [try RuleFile(parsing: text, file: "en/\(name).rules")], words: WordTable()))
        }
        let extra = #"""
        style Extra
        locale xx
        rule mixed for fraction
          when exponent-kind in Squared, CUBED and kind = FRACTION, \u{2126} and role = Numerator
          say a
        rule unstable for power
          when exponent-kind in e\u{301}, \u{212A} and kind = \u{212A}
          say b
        rule numbers for power
          when exponent-value in 007, -0, +1, 12, -3 and count < 3 and value > 1.5
          say c
        rule texts for identifier
          when text in x, X, \u{e9}, e\u{301}, \u{212A}, sin and not next.text = K
          say d
        """#
        styles.append(SpeechStyle(files: [try RuleFile(parsing: extra, file: "xx/extra.rules")], words: WordTable()))
        return styles
    }

    @Test func valueTestsArePrecomputedExactly() throws {
        for style in try Self.styles() {
            let table = style.table
            #expect(table.valueTests.count >= 3)
            for t in table.valueTests.elements {
                #expect(t.facts.onFlag == t.passes("true"))
                #expect(t.facts.onMissing == t.passes(nil))
                for atom in PropertyAtom.allCases { #expect(t.facts.atoms.contains(Int32(atom.rawValue)) == t.passes(atom.string), "\(t.values) \(atom)") }
                for kind in SemanticKind.allCases { #expect(t.facts.kinds.contains(kind) == t.passes(kind.rawValue), "\(t.values) \(kind)") }
                for role in SemanticRole.allCases {
                    #expect((t.facts.roles >> UInt64(role.rawValue) & 1 != 0) == t.passes(role.name), "\(t.values) \(role)")
                }
                for n in Int32(-20) ... 40 {
                    #expect(t.facts.passes(integer: n, table.integerValues.base) == t.passes(String(n)), "\(t.values) \(n)")
                }
                // `text = …` tests by text number: the string test's result for the values, the
                // vocabulary's names, other spellings of the values and texts no test names.
                if t.facts.byTextID {
                    let texts = t.values + t.values.map { $0.decomposedStringWithCanonicalMapping } + t.values.map { $0.uppercased() }
                        + PropertyAtom.allCases.map(\.string) + ["", "x", "K", "\u{212A}", "é", "e\u{301}", "sin", "unnamed"]
                    for text in texts {
                        let id = table.textIDTable[text] ?? -1
                        #expect(t.facts.passes(textID: id, table.textIDValues.base) == t.passes(text), "\(t.values) \(text)")
                    }
                }
            }
        }
    }
}

/// The shipped rule files name only properties and roles that the analysis writes (or the
/// pseudo-properties every node has): a misspelt name would never match and say nothing.
@Suite struct ShippedRuleNamesTests {
    @Test func everyNamedPropertyAndRoleExists() throws {
        for style in try RuleTableTests.styles().dropLast() {
            let unknown = style.table.extraPropertyNames.filter { PropertyReference.Pseudo(name: $0) == .none }
            #expect(unknown.isEmpty, "properties outside the vocabulary: \(unknown)")
            #expect(style.table.extraRoleNames.isEmpty, "roles outside the vocabulary: \(style.table.extraRoleNames)")
            // Kinds, which a condition would otherwise drop without a word.
            var kinds: [String] = []
            for rule in style.rules {
                kinds.append(rule.kind)
                for condition in rule.conditions {
                    switch condition {
                    case let .kind(_, k, _), let .parentKind(k, _), let .within(k, _): kinds += k
                    case let .withinThrough(k, through, _): kinds += k + through
                    default: break
                    }
                }
            }
            let unknownKinds = Set(kinds.filter { $0 != "*" && SemanticKind(rawValue: $0) == nil })
            #expect(unknownKinds.isEmpty, "kinds that do not exist: \(unknownKinds.sorted())")
        }
    }
}

/// The results a value test works out for the vocabulary's names when a style loads are those of
/// testing each name as a string (what a value of the tree would get), whatever its values are:
/// ASCII in either case, non-ASCII in NFC or not (`ê` decomposed), and the three characters whose
/// decomposition is ASCII (U+212A KELVIN SIGN is `K`).
@Suite struct CompiledValueTestTests {
    @Test func vocabularyResultsAreTheStringTestsResults() {
        let valueSets: [[String]] = [
            ["identifier", "NUMBER", "fraction"], ["e\u{0302}", "ë"], ["\u{212A}", "x"], ["\u{212A}"],
            ["ê", "Fenced", "true"], ["\u{037E}"], ["base", "e\u{0308}"], ["2", "0x", "−"],
        ]
        let names = VocabularyNames.shared
        for values in valueSets {
            for exact in [false, true] {
                var integers: [Int32] = [], ids = TextIDs()
                let compiled = CompiledValueTest(.oneOf(values), exact: exact, integers: &integers, textIDs: &ids)
                for (atom, name) in names.atoms {
                    #expect(compiled.facts.atoms.contains(Int32(atom.rawValue)) == compiled.passes(name), "\(values) exact \(exact): atom \(name)")
                }
                for (kind, name) in names.kinds {
                    #expect(compiled.facts.kinds.contains(kind) == compiled.passes(name), "\(values) exact \(exact): kind \(name)")
                }
                for (role, name) in names.roles {
                    #expect(((compiled.facts.roles >> UInt64(role.rawValue)) & 1 == 1) == compiled.passes(name), "\(values) exact \(exact): role \(name)")
                }
            }
        }
    }
}
