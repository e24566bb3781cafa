import Foundation
import Testing
import TestSupport
@testable import MathMarkup

/// Inputs the fuzzers found (Fuzz/regressions/mathml): read without crashing.
@Suite struct MathMLFuzzRegressionTests {
    @Test(arguments: fuzzRegressionInputs("mathml"))
    func mathml(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        _ = MathMLReader().read(text)
    }
}
