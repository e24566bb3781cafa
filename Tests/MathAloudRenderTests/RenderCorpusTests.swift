import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// Real inputs: every math case of KaTeX's screenshot tests and the arXiv corpus render, and every
/// image carries its label (checked on the SVG, not by eye).
@Suite struct RenderCorpusTests {
    struct ScreenshotCase: Decodable, Sendable {
        let name: String
        let tex: String
        let display: Bool?
        let macros: [String: String]?
        let mode: String?
    }

    /// Cases that are not math input or deliberately invalid, with the reason.
    static let screenshotExceptions: [String: String] = [
        "UnsupportedCmds": "KaTeX's own test of undefined commands, marked noThrow: the errors are the point",
    ]

    @Test func katexScreenshotterRendersWithLabels() throws {
        let data = try Data(contentsOf: repositoryFixture("Tests/MathTeXTests/Fixtures/katex-screenshotter.json"))
        let cases = try JSONDecoder().decode([ScreenshotCase].self, from: data)
        #expect(cases.count == 126)
        var rendered = 0
        for c in cases where c.mode != "text" {
            let speaker = try Speaker(texOptions: TeXParserOptions(displayMode: c.display ?? false, macros: c.macros ?? [:]), cacheCapacity: 0)
            var o = RenderOptions()
            o.display = c.display ?? false
            let renderer = try Renderer(options: o, speaker: speaker)
            let f = renderer.render(tex: c.tex)
            let errors = f.diagnostics.filter { $0.severity == .error }
            if Self.screenshotExceptions[c.name] != nil {
                // Undefined commands are errors, drawn (in red, as KaTeX does) and read by name.
                #expect(!errors.isEmpty && errors.allSatisfy { $0.id == "tex.unknown-command" }, "\(c.name): \(errors.map(\.message))")
            } else {
                #expect(errors.isEmpty, "\(c.name): \(errors.map(\.message))")
            }
            #expect(f.box.isFinite && f.box.width > 0, "\(c.name)")
            #expect(svgLabelProblems(renderer.svg(f), label: f.label, source: c.tex) == [], "\(c.name)")
            rendered += 1
        }
        #expect(rendered == 126)  // every case renders labelled; UnsupportedCmds with its intended errors
    }

    @Test func arxivCorpusRendersWithLabels() throws {
        let text = try String(contentsOf: repositoryFixture("Tests/MathTeXTests/Fixtures/arxiv-public.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        #expect(lines.count == 4148)
        let renderer = Renderers.text
        var failures: [String] = []
        var unlabelled: [String] = []
        for (i, line) in lines.enumerated() {
            let f = renderer.render(tex: line)
            if f.diagnostics.containsError || !f.box.isFinite {
                failures.append("line \(i + 1): \(line)")
            }
            let svg = renderer.svg(f)
            // Full XML parsing of all 4,148 is slow in debug builds: check every 10th, the rest by markers.
            if i % 10 == 0 {
                if !svgLabelProblems(svg, label: f.label, source: line).isEmpty { unlabelled.append("line \(i + 1)") }
            } else if f.label.isEmpty || !svg.contains("role=\"img\"") || !svg.contains("<title id=") {
                unlabelled.append("line \(i + 1)")
            }
        }
        let rate = Double(lines.count - failures.count) / Double(lines.count)
        #expect(rate >= 0.995, "rendered \(lines.count - failures.count)/\(lines.count) without error: \(failures.prefix(10))")
        #expect(unlabelled.isEmpty, "\(unlabelled.prefix(10))")
    }
}
