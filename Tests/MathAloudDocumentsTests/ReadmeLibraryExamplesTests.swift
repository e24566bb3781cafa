import Foundation
import MathAloud
import MathAloudDocuments
import Testing

/// The README's Swift examples for MathAloudDocuments, compiled and run (kept in step with README.md).
@Suite("README: documents library examples")
struct ReadmeLibraryExamplesTests {
    @Test func segmenterExample() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID()).md")
        try Data("Area: $\\pi r^2$.".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = SourceRange(0, 3)
        let doc = DocumentSegmenter().segment(bytes: Array(try Data(contentsOf: url)), as: .markdown)
        var seen = 0
        for segment in doc.segments where segment.isFormula {
            let formula = segment.formula!
            #expect(formula.notation == .tex)
            #expect(formula.source == "\\pi r^2")
            #expect(formula.delimiter == .dollar)
            #expect(segment.range == SourceRange(6, 15))
            #expect(segment.start == SourceLocation(line: 1, column: 7))
            #expect(formula.fileRange(ofSourceRange: r) == SourceRange(7, 10))
            seen += 1
        }
        #expect(seen == 1)
        #expect(doc.diagnostics.isEmpty)
        #expect(DocumentFormat(path: "notes.ipynb") == .notebook)
    }

    @Test func editExample() throws {
        let page = DocumentSegmenter().segment(text: #"<p><math><mi>x</mi></math></p>"#, as: .html)
        let math = page.formulas[0].element!
        let edit = DocumentEdit.setting("alttext", to: "x", on: math)!
        #expect(String(decoding: try page.source.applying([edit]), as: UTF8.self) == #"<p><math alttext="x"><mi>x</mi></math></p>"#)
    }

    @Test func documentAPIExample() throws {
        var options = DocumentOptions()
        options.numbering = EquationNumbering(scope: .ams, start: 1, side: .right)
        options.errors = .render(color: "#cc0000")
        options.label = .custom { request in "Formula: \(request.speech)" }
        options.trust = TrustPolicy(allowed: [.links])
        let processor = DocumentProcessor(options: options, speaker: try Speaker())
        let read = processor.process(text: "Area $\\pi r^2$.", format: .markdown)
        #expect(read.formulas[0].label == "Formula: pi r squared")
        #expect(read.references.isEmpty)

        let html = try DocumentConverter(processor: processor).convert(bytes: Array("Area $x$.".utf8), format: .markdown)
        #expect(String(decoding: html.bytes, as: UTF8.self).hasPrefix("Area <math"))
        #expect(html.edits.count == 1)

        let stream = MathStream(processor: processor, format: .text)
        var out: [StreamSegment] = []
        for token in ["The area is $\\pi", " r^2$."] { for segment in stream.append(token) { out.append(segment) } }
        for segment in stream.finish() { out.append(segment) }
        #expect(out.filter { if case .formula = $0 { true } else { false } }.count == 1)

        processor.preload([("x^2", false)])
        #expect(processor.cache.statistics.entries >= 2)
    }
}
