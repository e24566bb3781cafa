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

/// Inputs the text-scanner fuzzer kept (Fuzz/regressions/textscanner): scanned with both option sets,
/// the segments tile the input.
@Suite struct TextScannerFuzzRegressionTests {
    @Test(arguments: fuzzRegressionInputs("textscanner"))
    func textscanner(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        var flipped = MathTextScanner.Options()
        flipped.decodeHTMLEntities = true
        flipped.dollarDelimiters = false
        flipped.markdownCode = false
        flipped.maxDiagnostics = 3
        for scanner in [MathTextScanner(), MathTextScanner(options: flipped)] {
            let scan = scanner.scan(text)
            #expect(scan.segments.last?.range.upperBound ?? 0 == text.utf8.count)
        }
    }
}
