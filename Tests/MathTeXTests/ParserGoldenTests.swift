import Testing
import TestSupport
import MathSyntax
@testable import MathTeX

/// Golden tree dumps, one file per command family (Golden/*.txt). Each case also must parse
/// without error diagnostics unless the file is `errors.txt`.
@Suite struct ParserGoldenTests {
    static let families = [
        "symbols.txt", "scripts.txt", "fractions.txt", "roots.txt", "accents.txt", "arrows.txt", "delimiters.txt",
        "operators.txt", "fonts.txt", "text.txt", "styles.txt", "spacing.txt", "enclosures.txt", "environments.txt",
        "macros.txt", "unicode.txt", "misc.txt", "errors.txt",
    ]

    @Test(arguments: families)
    func family(_ name: String) throws {
        let golden = try GoldenFile(name)
        #expect(!golden.cases.isEmpty)
        var outputs: [String] = []
        // Trusted: the goldens show the trees of \href, \htmlClass… (untrusted, they are refused:
        // DiagnosticsAndLimitsTests, HardeningLibraryTests).
        let parser = TeXParser(options: TeXParserOptions(trust: .trusted))
        for c in golden.cases {
            let result = parser.parse(c.input)
            var output = result.root.treeDump(ranges: false)
            for d in result.diagnostics {
                output += "! \(d.severity.rawValue) \(d.id) @\(d.range.map(\.description) ?? "-")\n"
            }
            outputs.append(output)
            if !GoldenFile.recording {
                #expect(output == c.expected, "\(name):\(c.line): \(c.input)")
            }
            if name != "errors.txt" {
                #expect(!result.hasErrors, "\(name):\(c.line): \(c.input) has errors: \(result.diagnostics.map(\.message))")
            } else {
                #expect(!result.diagnostics.isEmpty, "\(name):\(c.line): \(c.input) should report a problem")
            }
        }
        if GoldenFile.recording { try golden.record(outputs) }
    }
}
