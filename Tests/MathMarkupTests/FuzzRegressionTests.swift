import Foundation
import Testing
@testable import MathMarkup

/// Inputs the fuzzers found (Fuzz/regressions/mathml): read without crashing.
@Suite struct MathMLFuzzRegressionTests {
    static func inputs(file: String = #filePath) -> [String] {
        let dir = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions/mathml")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map { dir.appendingPathComponent($0).path }
    }

    @Test(arguments: inputs())
    func mathml(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        _ = MathMLReader().read(text)
    }
}
