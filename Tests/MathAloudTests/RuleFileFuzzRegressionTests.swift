import Foundation
import Testing
@testable import MathAloud

/// Rule and word files the fuzzers found (Fuzz/regressions/rulefile): errors, never a crash.
@Suite struct RuleFileFuzzRegressionTests {
    static func inputs(file: String = #filePath) -> [String] {
        let dir = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions/rulefile")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map { dir.appendingPathComponent($0).path }
    }

    @Test(arguments: inputs())
    func ruleFile(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        _ = try? RuleFile(parsing: text, file: "fuzz.rules")
        _ = try? WordTable(parsing: text, file: "fuzz.words")
    }
}
