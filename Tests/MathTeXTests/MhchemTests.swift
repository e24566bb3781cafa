import Foundation
import MathSyntax
import MathTeX
import Testing

/// The examples of mhchem's manual (Fixtures/mhchem-manual.txt).
let mhchemManualExamples: [String] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mhchem-manual.txt")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("%") && !$0.isEmpty }
}()

@Suite("mhchem")
struct MhchemTests {
    @Test func theManualHasItsExamples() { #expect(mhchemManualExamples.count >= 100) }

    @Test(arguments: mhchemManualExamples)
    func everyManualExampleParses(_ tex: String) {
        let result = TeXParser().parse(tex)
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.message))")
        var marked = false
        result.root.walk { if $0.attributes?["data-chem"] != nil { marked = true } }
        #expect(marked)
        var errors = false
        result.root.walk { if case .error = $0.kind { errors = true } }
        #expect(!errors)
    }

    func marks(_ tex: String) -> [String] {
        var out: [String] = []
        TeXParser().parse(tex).root.walk { n in if let c = n.attributes?["data-chem"] { out.append(c) } }
        return out
    }

    @Test func structure() {
        #expect(marks(#"\ce{H2O}"#) == ["formula", "element", "count", "element"])
        #expect(marks(#"\ce{2 H2 + O2 -> 2 H2O}"#) == ["equation", "coefficient", "formula", "element", "count", "plus", "formula",
                                                       "element", "count", "arrow", "coefficient", "formula", "element", "count", "element"])
        #expect(marks(#"\ce{Fe^3+}"#) == ["formula", "element", "charge"])
        #expect(marks(#"\ce{A ->[H2O] B}"#).contains("arrow"))
        #expect(marks(#"\ce{NaCl(aq)}"#) == ["formula", "element", "element", "state", "text"])
        #expect(marks(#"\ce{^{14}_{6}C}"#) == ["formula", "isotope", "element"])
        #expect(marks(#"\pu{123 kJ//mol}"#) == ["quantity", "unit", "unit"])
    }

    @Test func rangesPointIntoTheFormula() {
        let tex = #"x + \ce{SO4^2-}"#
        var ranges: [String: SourceRange] = [:]
        TeXParser().parse(tex).root.walk { n in
            if let c = n.attributes?["data-chem"], let r = n.range { ranges[c + (n.leafText ?? "")] = r }
        }
        let bytes = Array(tex.utf8)
        func text(_ r: SourceRange?) -> String { r.map { String(decoding: bytes[$0.lowerBound..<$0.upperBound], as: UTF8.self) } ?? "" }
        #expect(text(ranges["elementS"]) == "S")
        #expect(text(ranges["elementO"]) == "O")
        #expect(text(ranges["charge"]) == "2-")
    }

    @Test func fromAMacroItStillReads() {
        var options = TeXParserOptions()
        options.macros = ["\\water": "\\ce{H2O}"]
        let result = TeXParser(options: options).parse(#"\water"#)
        #expect(!result.hasErrors)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: #"\ce{$"#, count: 300) + "x" + String(repeating: "$}", count: 300)
        let result = TeXParser().parse(deep)
        #expect(result.diagnostics.contains { $0.id == "tex.too-deep" })
    }

    /// `\ce` and `\pu` nest in each other's math at most ``TeXLimits/maxChemistryNesting`` deep: each
    /// level parses its text again and moved the ranges of the levels inside it, so a unit nested as
    /// deep as groups may go was quadratic (the documents fuzzer's 1 KB input took 2.4 s). One level
    /// inside another still reads as chemistry.
    @Test func chemistryNestsInChemistryOnlyAFewLevelsDeep() {
        let limit = TeXLimits().maxChemistryNesting
        func nested(_ levels: Int) -> String {
            String(repeating: #"\ce{A $"#, count: levels) + "x" + String(repeating: "$}", count: levels)
        }
        let allowed = TeXParser().parse(nested(limit))
        #expect(!allowed.diagnostics.contains { $0.id == "tex.too-deep" })
        var identifiers: [MathNode] = []
        allowed.root.walk { if case .identifier("x", _) = $0.kind { identifiers.append($0) } }
        #expect(identifiers.count == 1)
        // The innermost math keeps its place in the formula.
        let opener = #"\ce{A $"#.utf8.count
        #expect(identifiers.first?.range == SourceRange(opener * limit, opener * limit + 1))
        let tooDeep = TeXParser().parse(nested(limit + 1))
        let errors = tooDeep.diagnostics.filter { $0.id == "tex.too-deep" }
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("\\ce nested in \\ce or \\pu more than \(limit) deep") == true)
        // At the innermost command, in the formula.
        #expect(errors.first?.range?.lowerBound == opener * limit)
        var options = TeXParserOptions()
        options.limits.maxChemistryNesting = limit + 1
        #expect(!TeXParser(options: options).parse(nested(limit + 1)).diagnostics.contains { $0.id == "tex.too-deep" })
    }

    /// Math inside `\ce` is parsed on its own, but with what is left of the formula's macro budget:
    /// a definition whose `\ce` holds the macro twice in math (`\newcommand{\b}{\ce{$\b$ $\b$}}`)
    /// doubled at each of ~200 levels, each with a fresh budget, and ran for hours (the documents
    /// fuzzer's 1 KB input took 1.8 GB and a minute per document); now the whole formula stops at the
    /// expansion limit.
    @Test func nestedMathSharesTheFormulasMacroBudget() {
        var options = TeXParserOptions()
        // As deep as groups may go, so that the budget, not the chemistry nesting limit, stops it.
        options.limits.maxChemistryNesting = options.limits.maxDepth
        options.definitions = #"\newcommand{\b}{\ce{$\b$ $\b$}}"#
        let result = TeXParser(options: options).parse(#"\b"#)
        #expect(result.diagnostics.contains { $0.id == "tex.expansion-limit" })
        #expect(result.expansionsSpent <= 2 * options.limits.maxExpansions)   // each parse past the limit counts the call it refused
    }

    @Test(arguments: [#"\ce{"#, #"\ce{$x}"#, #"\ce{(((}"#, #"\ce{^^^__}"#, #"\ce{A ->[[}"#, #"\ce{\bond{}}"#, #"\pu{}"#, #"\ce"#,
                      #"\pu{1e}"#, #"\ce{-}"#, #"\ce{1/}"#, #"\ce{{}}"#, #"\ce{\{}"#, "\\ce{\u{0}\u{FFFF}}"])
    func brokenInputNeverCrashes(_ tex: String) {
        _ = TeXParser().parse(tex)
    }
}
