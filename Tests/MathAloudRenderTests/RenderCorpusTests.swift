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
            // KaTeX's screenshots are made with `trust` on (\href, \htmlId, \includegraphics…).
            let speaker = try Speaker(texOptions: TeXParserOptions(displayMode: c.display ?? false, macros: c.macros ?? [:],
                                                                   trust: .trusted), cacheCapacity: 0)
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

    /// The SVG writer sizes the string's storage from its first look at the tree (SVGScan) and moves
    /// to memory of its own only when that bound is short: it never is on the corpora (every arXiv
    /// formula, plain and coloured on a background with an id prefix; every KaTeX screenshot case).
    @Test func svgSizeBoundHoldsOnTheCorpora() throws {
        let text = try String(contentsOf: repositoryFixture("Tests/MathTeXTests/Fixtures/arxiv-public.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        var coloured = RenderOptions()
        coloured.color = RGBAColor(red: 0.2, green: 0.4, blue: 0.6)
        coloured.background = RGBAColor(red: 1, green: 1, blue: 0.9, alpha: 0.5)
        let plain = Renderers.text, colour = try Renderer(options: coloured)
        var short: [String] = []
        func check(_ renderer: Renderer, _ f: RenderedFormula, idPrefix: String?, _ what: @autoclosure () -> String) {
            let (svg, bound, spilled) = renderer.svgAndBound(f, idPrefix: idPrefix)
            if spilled || svg.utf8.count > bound { short.append("\(what()): \(svg.utf8.count) > \(bound)") }
        }
        for (i, line) in lines.enumerated() {
            check(plain, plain.render(tex: line), idPrefix: nil, "arXiv line \(i + 1)")
            if i % 4 == 0 { check(colour, colour.render(tex: line), idPrefix: "formula-\(i)", "arXiv line \(i + 1), coloured") }
        }
        let data = try Data(contentsOf: repositoryFixture("Tests/MathTeXTests/Fixtures/katex-screenshotter.json"))
        for c in try JSONDecoder().decode([ScreenshotCase].self, from: data) where c.mode != "text" {
            // KaTeX's screenshots are made with `trust` on (\href, \htmlId, \includegraphics…).
            let speaker = try Speaker(texOptions: TeXParserOptions(displayMode: c.display ?? false, macros: c.macros ?? [:],
                                                                   trust: .trusted), cacheCapacity: 0)
            var o = coloured
            o.display = c.display ?? false
            var plainOptions = RenderOptions()
            plainOptions.display = o.display
            for options in [plainOptions, o] {
                let renderer = try Renderer(options: options, speaker: speaker)
                check(renderer, renderer.render(tex: c.tex), idPrefix: nil, "KaTeX \(c.name)")
            }
        }
        #expect(short.isEmpty, "\(short.prefix(10))")
    }
}
