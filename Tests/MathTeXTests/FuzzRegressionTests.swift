import Foundation
import Testing
import TestSupport
@testable import MathTeX
import MathMarkup

/// Inputs the fuzzers found (Fuzz/regressions/tex): each must parse into a bounded result with a
/// diagnostic, and the tree must survive a MathML round trip.
@Suite struct FuzzRegressionTests {
    @Test(arguments: fuzzRegressionInputs("tex"))
    func tex(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let result = TeXParser().parse(utf8: bytes)
        #expect(result.root.nodeCount < 2_000_000)
        let back = MathMLReader().read(MathMLWriter().write(result.root))
        #expect(!back.diagnostics.contains { $0.id == "mathml.malformed" })
    }

    @Test func regressionsArePresent() { #expect(fuzzRegressionInputs("tex").count >= 3) }
}
