import Foundation
import Testing
@testable import MathAloudAudit
import MathAloud

/// Excerpts of the public document set (Fixtures/README.md names their sources and licences): what the
/// audit reports on them, true positives and look-alikes.
@Suite struct RealWorldExcerptTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/real")

    func audit(_ name: String) -> FileAudit {
        let url = Self.directory.appendingPathComponent(name)
        return AuditFixtures.engine().audit(url: url, path: name, format: FileFormat.forExtension(url.pathExtension)!)
    }

    @Test func placeholderAlttextInAnEPUBTextbook() {
        let audit = audit("fcla-linear-algebra.xhtml")
        #expect(audit.findings.map(\.rule) == [.mathPlaceholderLabel, .mathPlaceholderLabel])
        #expect(audit.findings.allSatisfy { $0.fixLabel != nil && $0.message.contains("Alternative text not available") })
    }

    @Test func aFigureCaptionWithInlineTeXIsNotAFormulaImage() {
        let audit = audit("d2l-resnet-excerpt.md")
        #expect(!audit.findings.contains { $0.kind == .image }, "\(audit.findings.map(\.message))")
        #expect(audit.summary.formulas > 0)
    }

    @Test func macrosFromStyleFilesAreUnknownUntilConfigured() throws {
        let audit = audit("openlogic-excerpt.tex")
        #expect(audit.findings.map(\.rule).allSatisfy { $0 == .unknownCommand })
        #expect(audit.findings.contains { $0.formula.contains("\\Sat") })
        var configuration = AuditConfiguration()
        configuration.definitions = "\\newcommand{\\Sat}[2]{#1 \\vDash #2}\\newcommand{\\eq}{=}\\newcommand{\\Struct}[1]{\\mathfrak{#1}}"
        let url = Self.directory.appendingPathComponent("openlogic-excerpt.tex")
        let configured = AuditFixtures.engine(configuration).audit(url: url, path: "openlogic-excerpt.tex", format: .latex)
        #expect(configured.findings.isEmpty, "\(configured.findings.map(\.message))")
    }
}
