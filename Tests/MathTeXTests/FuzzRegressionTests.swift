import Foundation
import Testing
@testable import MathTeX
import MathMarkup

/// Inputs the fuzzers found (Fuzz/regressions/tex): each must parse into a bounded result with a
/// diagnostic, and the tree must survive a MathML round trip.
@Suite struct FuzzRegressionTests {
    static func inputs(_ target: String, file: String = #filePath) -> [String] {
        let dir = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions/\(target)")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map { dir.appendingPathComponent($0).path }
    }

    @Test(arguments: inputs("tex"))
    func tex(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let result = TeXParser().parse(utf8: bytes)
        #expect(result.root.nodeCount < 2_000_000)
        let back = MathMLReader().read(MathMLWriter().write(result.root))
        #expect(!back.diagnostics.contains { $0.id == "mathml.malformed" })
    }

    @Test func regressionsArePresent() { #expect(Self.inputs("tex").count >= 3) }
}
