import Foundation
import MathAloud
import MathAloudDocuments
import Testing

/// `convert` on real public documents (Fixtures/README.md cites their sources and licences) and on
/// this project's README: every formula is labelled, and every byte outside the formulas (and the
/// references and `<math>` attributes the converter writes) is unchanged.
@Suite("Documents: real documents")
struct RealDocumentTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return Array(try Data(contentsOf: url))
    }

    static func readme() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        return Array(try Data(contentsOf: url))
    }

    func convert(_ bytes: [UInt8], _ format: DocumentFormat, scope: EquationNumbering.Scope = .ams) throws -> ConvertedDocument {
        var options = DocumentOptions()
        options.numbering.scope = scope
        let processor = DocumentProcessor(options: options, speaker: testSpeaker)
        let result = try DocumentConverter(processor: processor).convert(bytes: bytes, format: format)
        checkTextOutsideFormulasUnchanged(result)
        #expect(result.labelledCount == result.formulaCount)
        #expect(result.processed.formulas.allSatisfy { !($0.label ?? "").isEmpty })
        return result
    }

    @Test func markdownTextbookChapter() throws {
        let result = try convert(try Self.fixture("d2l-linear-regression.md"), .markdown)
        #expect(result.formulaCount >= 100)
        #expect(!result.processed.formulas.contains { $0.hasErrors })
        // Code blocks keep their dollars.
        let out = String(decoding: result.bytes, as: UTF8.self)
        #expect(out.contains("```{.python .input}"))
    }

    @Test func htmlPagesWithMathJaxDelimiters() throws {
        let page = try convert(try Self.fixture("mathjax-tex-mml.html"), .html)
        #expect(page.formulaCount >= 3)
        let refs = try convert(try Self.fixture("mathjax-equation-refs.html"), .html, scope: .all)
        #expect(refs.formulaCount >= 10)
        #expect(refs.processed.references.contains { $0.number != nil })
    }

    @Test func notebook() throws {
        let result = try convert(try Self.fixture("scipy-lecture.ipynb"), .notebook)
        #expect(result.formulaCount >= 30)
        _ = try JSONSerialization.jsonObject(with: Data(result.bytes))
    }

    @Test func thisReadme() throws {
        let result = try convert(try Self.readme(), .markdown)
        #expect(result.formulaCount >= 1)
    }
}
