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
}
