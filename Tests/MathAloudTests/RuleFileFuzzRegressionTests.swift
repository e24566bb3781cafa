import Foundation
import Testing
import TestSupport
@testable import MathAloud

/// Rule and word files the fuzzers found (Fuzz/regressions/rulefile): errors, never a crash, and a
/// file that parses speaks the harness's formulas (Fuzz/FuzzRuleFile.swift) without a crash.
@Suite struct RuleFileFuzzRegressionTests {
    /// The fuzz harness's formulas (`Fuzz/rulefile-formulas.txt`).
    static let trees: [SemanticTree] = {
        let parser = TeXParser()
        let analyzer = SemanticAnalyzer()
        return fuzzFormulas("rulefile").map { analyzer.tree(of: parser.parse($0).root) }
    }()

    static func speak(_ style: SpeechStyle, symbols: WordTable) throws {
        let locale = try LocaleWords(tag: "xx", settings: WordTable(), symbols: symbols, functions: WordTable(), units: WordTable(),
                                     numbers: WordTable())
        let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [locale]), preferences: [:],
                                  limits: SpeechLimits(maxRuleSteps: 100_000, maxOutputBytes: 1 << 16))
        for tree in trees { _ = engine.speak(tree).description.plainText }
    }

    @Test func theHarnessFormulasAreThere() {
        #expect(Self.trees.count == 5)
    }

    @Test(arguments: fuzzRegressionInputs("rulefile"))
    func ruleFile(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        if let rules = try? RuleFile(parsing: text, file: "xx/fuzz.rules") {
            try Self.speak(SpeechStyle(files: [rules], words: WordTable()), symbols: WordTable())
        }
        if let words = try? WordTable(parsing: text, file: "xx/symbols.txt") {
            try Self.speak(SpeechStyle(files: [], words: WordTable()), symbols: words)
        }
    }
}
