import Foundation
import Testing
import MathSyntax
@testable import MathTeX

/// Diagnostics carry stable ids and exact positions; hostile input is bounded.
@Suite struct DiagnosticsTests {
    struct Expectation: Sendable, CustomStringConvertible {
        let tex: String
        let id: String
        let start: Int
        let end: Int
        var description: String { tex }
    }

    static let cases: [Expectation] = [
        .init(tex: #"\frac{1}{2"#, id: "tex.missing-brace", start: 8, end: 9),
        .init(tex: "x}", id: "tex.unmatched-brace", start: 1, end: 2),
        .init(tex: #"a + \foo"#, id: "tex.unknown-command", start: 4, end: 8),
        .init(tex: #"\left( x"#, id: "tex.missing-right", start: 0, end: 5),
        .init(tex: #"x \right)"#, id: "tex.unmatched-right", start: 2, end: 8),
        .init(tex: #"\begin{matrix} a"#, id: "tex.missing-end", start: 0, end: 6),
        .init(tex: #"\begin{matrix} a \end{pmatrix}"#, id: "tex.mismatched-end", start: 17, end: 21),
        .init(tex: "x^2^3", id: "tex.double-superscript", start: 3, end: 4),
        .init(tex: "x_1_2", id: "tex.double-subscript", start: 3, end: 4),
        .init(tex: "a & b", id: "tex.misplaced-alignment", start: 2, end: 3),
        .init(tex: #"\begin{foo} x \end{foo}"#, id: "tex.unknown-environment", start: 0, end: 6),
        .init(tex: #"\frac"#, id: "tex.missing-argument", start: 0, end: 5),
        .init(tex: #"x \\ \end{matrix}"#, id: "tex.unmatched-end", start: 5, end: 9),
        .init(tex: "α\u{0}β", id: "tex.invalid-character", start: 2, end: 3),
        .init(tex: #"\textcolor{nocolor}{x}"#, id: "tex.unknown-color", start: 11, end: 18),
    ]

    @Test(arguments: cases)
    func diagnosticPosition(_ c: Expectation) {
        let result = TeXParser().parse(c.tex)
        let match = result.diagnostics.first { $0.id.rawValue == c.id }
        #expect(match != nil, "\(c.tex): got \(result.diagnostics.map(\.id))")
        #expect(match?.range == SourceRange(c.start, c.end), "\(c.tex): range \(String(describing: match?.range))")
    }

    @Test func recoveryKeepsTheRest() {
        // One typo never loses the rest of the formula.
        let result = TeXParser().parse(#"\frac{a}{b} + \fo + \sqrt{x}"#)
        let dump = result.root.treeDump(ranges: false)
        #expect(dump.contains("mfrac"))
        #expect(dump.contains("msqrt"))
        #expect(dump.contains(#"merror "\\fo""#))
        #expect(result.diagnostics.count == 1)
    }

    @Test func unknownCommandSuggestsFix() {
        let result = TeXParser().parse(#"\fracc{1}{2}"#)
        let d = result.diagnostics.first
        #expect(d?.id == "tex.unknown-command")
        #expect(d?.fixIts.first?.replacement == #"\frac"#)
    }

    @Test func caretRendering() {
        let source = #"x + \foo"#
        let result = TeXParser().parse(source)
        let text = DiagnosticRenderer(source: SourceText(source), inputName: "f").terminal(result.diagnostics[0])
        #expect(text.hasPrefix("f:1:5: error: unknown command \\foo"))
        #expect(text.contains("  x + \\foo\n      ^~~~\n"))
    }

    @Test func jsonRendering() throws {
        let source = "x}"
        let result = TeXParser().parse(source)
        let json = DiagnosticRenderer(source: SourceText(source)).json(result.diagnostics)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(object?.first?["id"] as? String == "tex.unmatched-brace")
        let range = object?.first?["range"] as? [String: Any]
        #expect(range?["start"] as? Int == 1)
        #expect(range?["column"] as? Int == 2)
    }
}

/// Adversarial inputs: each yields a diagnostic, quickly and in bounded memory, never a crash.
@Suite struct LimitsTests {
    @Test func deeplyNestedBraces() {
        let tex = String(repeating: "{", count: 10_000) + "x" + String(repeating: "}", count: 10_000)
        let result = TeXParser().parse(tex)
        #expect(result.diagnostics.contains { $0.id == "tex.too-deep" })
    }

    @Test func deeplyNestedFractions() {
        let tex = String(repeating: #"\frac{"#, count: 5_000) + "x" + String(repeating: "}{y}", count: 5_000)
        let result = TeXParser().parse(tex)
        #expect(result.diagnostics.contains { $0.id == "tex.too-deep" })
    }

    @Test func deeplyNestedLeftRight() {
        let tex = String(repeating: #"\left("#, count: 5_000) + "x" + String(repeating: #"\right)"#, count: 5_000)
        #expect(TeXParser().parse(tex).diagnostics.contains { $0.id == "tex.too-deep" })
    }

    @Test func recursiveMacro() {
        for tex in [#"\def\a{\a\a}\a"#, #"\def\a{\a}\a"#, #"\newcommand{\b}{\b x}\b"#] {
            let result = TeXParser().parse(tex)
            #expect(result.diagnostics.contains { $0.id == "tex.expansion-limit" }, "\(tex)")
        }
    }

    /// A recursive macro whose body is full of unknown commands (a fuzzer's slow input) reports each
    /// problem once, not once per expansion; more distinct problems than the limit are counted in a note,
    /// and the refusing diagnostic is never cut.
    @Test func diagnosticsAreBoundedPerFormula() {
        let recursive = TeXParser().parse(#"\newcommand{\R}{\foo\bar x \R}\R"#)
        #expect(recursive.diagnostics.filter { $0.id == "tex.unknown-command" }.count <= 2)
        #expect(recursive.diagnostics.contains { $0.id == "tex.expansion-limit" })
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let names: [String] = (0..<150).map { (i: Int) -> String in "\\zz" + String(letters[i / 26]) + String(letters[i % 26]) }
        let many = TeXParser().parse(names.joined(separator: " "))
        #expect(many.diagnostics.count == 101)
        #expect(many.diagnostics.last?.id == "tex.diagnostics-truncated")
        #expect(many.diagnostics.last?.message.hasPrefix("50 more diagnostics") == true)
        var limits = TeXLimits()
        limits.maxDiagnostics = 3
        limits.maxExpansions = 50
        let refused = TeXParser(options: TeXParserOptions(limits: limits)).parse(names.joined(separator: " ") + #" \def\a{\a x}\a"#)
        #expect(refused.diagnostics.contains { $0.id == "tex.expansion-limit" })
        #expect(refused.diagnostics.filter { $0.id == "tex.unknown-command" }.count == 3)
    }

    @Test func macroBodyExplosion() {
        // Each expansion multiplies the token count by 10: bounded by the expanded-token limit.
        let tex = #"\def\a{xxxxxxxxxx}\def\b{\a\a\a\a\a\a\a\a\a\a}\def\c{\b\b\b\b\b\b\b\b\b\b}\def\d{\c\c\c\c\c\c\c\c\c\c}\d\d\d\d\d\d\d\d\d\d"#
        var limits = TeXLimits()
        limits.maxExpandedTokens = 50_000
        let result = TeXParser(options: TeXParserOptions(limits: limits)).parse(tex)
        #expect(result.diagnostics.contains { $0.id == "tex.expansion-limit" })
    }

    @Test func recursiveMacroWithALongBodyStaysSmall() {
        // Found by the tex fuzz target: a recursive \newcommand whose body is a few hundred tokens
        // made megabytes of tree from 250 bytes within the 1,000 expansions. The expanded-token limit
        // (100,000 by default) refuses it first, and the tree stays bounded.
        let tex = #"\newcommand{\R}{"# + String(repeating: "a_", count: 150) + #"\R} \R"#
        let result = TeXParser().parse(tex)
        #expect(result.diagnostics.contains { $0.id == "tex.expansion-limit" && $0.message.contains("100000 tokens") })
        var nodes = 0
        var stack = [result.root]
        while let node = stack.popLast() { nodes += 1; stack.append(contentsOf: node.children) }
        #expect(nodes <= 150_000)
    }

    @Test(arguments: [#"\sqrt"#, #"\mathop"#, #"\overline"#, #"\mathrm"#, #"x^\sqrt"#])
    func chainsOfUnbracedArgumentsAreNesting(_ command: String) {
        // `\sqrt\sqrt\sqrt…x`: each command takes the next as its argument without braces. The parser
        // recursed once per command without counting the depth, and 40,000 `\sqrt` (200 KB, under the
        // input limit) overflowed the stack; found by the tex fuzz target through a recursive macro.
        let tex = String(repeating: command, count: 200_000 / command.utf8.count) + "x"
        let result = TeXParser().parse(tex)
        #expect(result.diagnostics.contains { $0.id == "tex.too-deep" || $0.id == "tex.double-superscript" })
    }

    @Test func oneMebibyteFormula() {
        let tex = String(repeating: "x+", count: 512 * 1024)
        let result = TeXParser().parse(tex)
        #expect(result.diagnostics.map(\.id) == ["tex.input-too-large"])
    }

    @Test func largeFormulaWithinALargerLimit() {
        var limits = TeXLimits()
        limits.maxInputBytes = 2 << 20
        let tex = String(repeating: "x+", count: 512 * 1024)
        let result = TeXParser(options: TeXParserOptions(limits: limits)).parse(tex)
        #expect(!result.hasErrors)
        #expect(result.root.children.count == 1024 * 1024)
    }

    @Test func tenThousandCellArray() {
        let row = Array(repeating: "1", count: 100).joined(separator: "&")
        let tex = #"\begin{array}{c}"# + Array(repeating: row, count: 100).joined(separator: #"\\"#) + #"\end{array}"#
        let result = TeXParser().parse(tex)
        #expect(result.diagnostics.contains { $0.id == "tex.too-many-cells" })
        let cells = result.root.children.first?.children.reduce(0) { $0 + $1.children.count } ?? 0
        #expect(cells == TeXLimits().maxTableCells)
    }

    @Test func unbalancedLeft() {
        let result = TeXParser().parse(String(repeating: #"\left( "#, count: 100) + "x")
        #expect(result.diagnostics.contains { $0.id == "tex.missing-right" })
    }

    @Test func loneClosingBrace() {
        #expect(TeXParser().parse("}").diagnostics.map(\.id) == ["tex.unmatched-brace"])
    }

    @Test func matrixWithoutEnd() {
        #expect(TeXParser().parse(#"\begin{matrix} a & b \\ c"#).diagnostics.map(\.id) == ["tex.missing-end"])
    }

    @Test func invalidUTF8AndNul() {
        let bytes: [UInt8] = [0x78, 0xFF, 0xFE, 0x00, 0x2B, 0xC3, 0x28, 0x79]
        let result = TeXParser().parse(utf8: bytes)
        #expect(result.diagnostics.contains { $0.id == "tex.invalid-character" })
        #expect(result.root.treeDump(ranges: false).contains(#"mi "y""#))
    }

    @Test func manyErrorsAreCapped() {
        let result = TeXParser().parse(String(repeating: "}", count: 100_000))
        #expect(result.diagnostics.count <= 1000)
    }
}
