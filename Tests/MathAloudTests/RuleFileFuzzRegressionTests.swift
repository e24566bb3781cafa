import Foundation
import Testing
import TestSupport
@testable import MathAloud

/// Rule and word files the fuzzers found (Fuzz/regressions/rulefile): errors, never a crash.
@Suite struct RuleFileFuzzRegressionTests {
    @Test(arguments: fuzzRegressionInputs("rulefile"))
    func ruleFile(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        _ = try? RuleFile(parsing: text, file: "fuzz.rules")
        _ = try? WordTable(parsing: text, file: "fuzz.words")
    }
}
