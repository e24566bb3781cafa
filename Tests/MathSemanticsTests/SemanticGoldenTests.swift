import Testing
import TestSupport
import MathSyntax
import MathTeX
@testable import MathSemantics

/// Golden semantic dumps (Golden/*.txt): each `> TeX` line is parsed, analysed and dumped without
/// ranges. `corpus.txt` holds every input of the English ClearSpeak and MathSpeak conformance
/// corpora; the other files cover each kind and property family.
@Suite struct SemanticGoldenTests {
    static let families = [
        "corpus.txt", "operators.txt", "functions.txt", "fences.txt", "fractions.txt", "scripts.txt",
        "bigoperators.txt", "tables.txt", "units.txt", "decorations.txt", "robustness.txt",
    ]

    @Test(arguments: families)
    func family(_ name: String) throws {
        let golden = try GoldenFile(name)
        #expect(!golden.cases.isEmpty)
        var outputs: [String] = []
        let analyzer = SemanticAnalyzer()
        for c in golden.cases {
            let tree = analyzer.analyze(TeXParser().parse(c.input).root)
            let output = tree.dump()
            outputs.append(output)
            if !GoldenFile.recording {
                #expect(output == c.expected, "\(name):\(c.line): \(c.input)")
            }
        }
        if GoldenFile.recording { try golden.record(outputs) }
    }
}
