import Foundation
import Testing
import MathSyntax
@testable import MathTeX

/// Real inputs: every line of arxiv-public.txt and every math case of KaTeX's screenshot tests.
@Suite struct CorpusTests {
    /// Formulas of arxiv-public.txt that are allowed to report an error, each with the reason.
    /// (KaTeX 0.16 rejects every one of them too.)
    static let arxivExceptions: [String: String] = [:]

    @Test func arxivPublic() throws {
        let text = try String(contentsOf: fixtureURL("arxiv-public.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        #expect(lines.count == 4148)
        let parser = TeXParser()
        var failures: [(Int, String, String)] = []
        for (i, line) in lines.enumerated() {
            let result = parser.parse(line)
            if let error = result.diagnostics.first(where: { $0.severity == .error }) {
                failures.append((i + 1, line, "\(error.id): \(error.message)"))
            }
        }
        let unexplained = failures.filter { arxivExceptionsContains($0.1) == false }
        let rate = Double(lines.count - failures.count) / Double(lines.count)
        // Acceptance: ≥ 99.5 % parse without an error diagnostic.
        #expect(rate >= 0.995, "parsed \(lines.count - failures.count)/\(lines.count)")
        for f in unexplained.prefix(40) {
            Issue.record("arxiv-public.txt:\(f.0): \(f.2)\n  \(f.1)")
        }
    }

    private func arxivExceptionsContains(_ line: String) -> Bool {
        Self.arxivExceptions[line] != nil
    }

    struct ScreenshotCase: Decodable, Sendable, CustomStringConvertible {
        let name: String
        let tex: String
        let display: Bool?
        let macros: [String: String]?
        let mode: String?
        var description: String { name }
    }

    static func screenshotCases() throws -> [ScreenshotCase] {
        let data = try Data(contentsOf: fixtureURL("katex-screenshotter.json"))
        return try JSONDecoder().decode([ScreenshotCase].self, from: data)
    }

    /// Screenshot cases that are not math-mode input, with the reason they are skipped.
    static let screenshotExceptions: [String: String] = [
        "UnsupportedCmds": "KaTeX's own test of undefined commands (\\err, \\fracerr…), marked noThrow: it must report them",
    ]

    @Test func katexScreenshotter() throws {
        let cases = try Self.screenshotCases()
        #expect(cases.count == 126)
        for c in cases where c.mode != "text" && Self.screenshotExceptions[c.name] == nil {
            // KaTeX's screenshots are made with `trust` on (\href, \htmlId, \includegraphics…).
            let parser = TeXParser(options: TeXParserOptions(displayMode: c.display ?? false, macros: c.macros ?? [:], trust: .trusted))
            let result = parser.parse(c.tex)
            let errors = result.diagnostics.filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(c.name): \(errors.map { "\($0.id) \($0.message) @\($0.range.map(\.description) ?? "")" })\n\(c.tex)")
        }
    }
}
