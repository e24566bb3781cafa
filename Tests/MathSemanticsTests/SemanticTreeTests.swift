import Foundation
import Testing
import MathSyntax
import MathTeX
@testable import MathSemantics

/// The flat tree holds exactly what the object tree holds.
@Suite struct SemanticTreeTests {
    @Test func vocabularyNamesAreDistinctAndSpelledAsRuleFilesSpellThem() {
        #expect(Set(PropertyName.allCases.map(\.name)).count == PropertyName.allCases.count)
        #expect(Set(PropertyAtom.strings).count == PropertyAtom.allCases.count)
        #expect(Set(SemanticRole.allCases.map(\.name)).count == SemanticRole.allCases.count)
        #expect(PropertyName.setName.name == "set-name")
        #expect(PropertyName.class.name == "class")
        #expect(PropertyName.unitPowerDenominator.name == "unit-power-denominator")
        #expect(PropertyAtom.negativeInteger.string == "negative-integer")
        #expect(PropertyAtom.noFence.string == "none")
        #expect(PropertyAtom.underOver.string == "under-over")
        #expect(SemanticRole.noRole.name == "")
        #expect(SemanticRole.operator.name == "operator")
        for role in SemanticRole.allCases where role != .noRole {
            #expect(SemanticRole(name: role.name) == role)
        }
        // Every role the object tree names is in the vocabulary.
        let roles: [SemanticNode.Role] = [.none, .item, .operator, .numerator, .denominator, .base, .exponent, .subscript,
                                          .radicand, .index, .content, .open, .close, .function, .argument, .lower,
                                          .upper, .body, .differential, .variable, .condition, .accent, .label, .row,
                                          .cell, .whole, .quantity, .unit, .presubscript, .presuperscript]
        for role in roles { #expect(SemanticRole(name: role.rawValue) != nil, "\(role)") }
        // Every variant and atom class has its atom.
        for v in MathVariant.allCases { #expect(v.atom.string == v.rawValue) }
        for c in [AtomClass.ord, .op, .bin, .rel, .open, .close, .punct, .inner] { #expect(c.atom.string == c.rawValue) }
    }

    @Test(arguments: [
        ("0", 0), ("42", 42), ("-1", -1), ("2147483647", 2_147_483_647), ("-2147483648", -2_147_483_648),
    ] as [(String, Int32)])
    func canonicalIntegers(_ text: String, _ value: Int32) {
        #expect(SemanticTree.canonicalInteger(text) == value)
    }

    @Test(arguments: ["", "-", "007", "+1", "-0", "1.5", "2147483648", "1e3", " 1", "١"])
    func notCanonicalIntegers(_ text: String) {
        #expect(SemanticTree.canonicalInteger(text) == nil)
    }

    /// Object tree → flat tree → object tree gives the same tree for every corpus formula.
    @Test func roundTripOfTheCorpus() throws {
        let text = try String(contentsOf: texFixtureURL("arxiv-public.txt"), encoding: .utf8)
        let parser = TeXParser()
        let analyzer = SemanticAnalyzer()
        var nodes = 0
        for line in text.split(separator: "\n") {
            let node = analyzer.analyze(parser.parse(String(line)).root)
            let tree = SemanticTree(node)
            nodes += tree.nodeCount
            let back = tree.root
            #expect(back == node, "\(line)")
            #expect(back.dump(ranges: true) == node.dump(ranges: true))
        }
        #expect(nodes > 50_000)
    }

    /// A hand-built tree with roles, names and values outside the vocabulary keeps them.
    @Test func handBuiltNodesKeepEverything() {
        let leaf = SemanticNode(.identifier, text: "x", role: "my-role", properties: ["my-flag": "true", "letter": "true",
                                                                                     "count": "007", "value": "-12",
                                                                                     "class": "bin", "other": "false"])
        let root = SemanticNode(.row, children: [leaf, SemanticNode(.number, text: "2", role: .item)],
                                properties: ["operators": "+ −", "fence": "none"], range: SourceRange(1, 4))
        let tree = SemanticTree(root)
        #expect(tree.root == root)
        #expect(tree.extraNames.sorted() == ["my-flag", "other"])
        #expect(tree.extraRoles == ["my-role"])
        let x = tree.child(tree.rootID, at: 0).node
        #expect(tree.has(x, .letter))
        #expect(tree.property(x, .count)?.form == .string)
        #expect(tree.integer(x, .value) == -12)
        #expect(tree.atom(x, .class) == .bin)
        #expect(tree.atom(tree.rootID, .fence) == .noFence)
        #expect(tree.string(tree.rootID, .operators) == "+ −")
        #expect(tree.range(tree.rootID) == SourceRange(1, 4))
        #expect(tree.range(x) == nil)
    }

    /// A 5,000-deep tree converts both ways without exhausting the stack.
    @Test func deepTrees() {
        var node = SemanticNode(.identifier, text: "x")
        for _ in 0..<5000 { node = SemanticNode(.fenced, children: [node.withRole(.content)], properties: ["open": "("]) }
        let tree = SemanticTree(node)
        #expect(tree.nodeCount == 5001)
        #expect(tree.root.dump().count == node.dump().count)
    }
}
