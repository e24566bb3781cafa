import Foundation
@testable import MathAloudAudit
import MathAloud

/// A temporary directory of fixture files for one test.
final class FixtureDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-audit-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) -> URL { write(name, Array(text.utf8)) }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> URL {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(bytes).write(to: file)
        return file
    }

    func read(_ name: String) -> [UInt8] { [UInt8](try! Data(contentsOf: url.appendingPathComponent(name))) }
}

enum AuditFixtures {
    static let speaker: Speaker = try! Speaker(cacheCapacity: 0)

    static func engine(_ configuration: AuditConfiguration = AuditConfiguration()) -> AuditEngine {
        AuditEngine(judge: FormulaJudge(speaker: speaker, configuration: configuration))
    }

    /// Audits one file of `directory`.
    static func audit(_ directory: FixtureDirectory, _ name: String, configuration: AuditConfiguration = AuditConfiguration(),
                      planFixes: Bool = false) -> FileAudit {
        let url = directory.url.appendingPathComponent(name)
        let format = FileFormat.forExtension(url.pathExtension) ?? .text
        return engine(configuration).audit(url: url, path: name, format: format, planFixes: planFixes)
    }

    /// An EPUB built from (path, text) documents in the spine, with a container and a package document.
    static func epub(_ documents: [(String, String)], extra: [(String, [UInt8])] = []) -> [UInt8] {
        var writer = ZipWriter()
        try! writer.add(name: "mimetype", contents: Array("application/epub+zip".utf8), store: true)
        try! writer.add(name: "META-INF/container.xml", contents: Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """.utf8), store: false)
        let items = documents.enumerated().map { "<item id=\"d\($0.offset)\" href=\"\($0.element.0)\" media-type=\"application/xhtml+xml\"/>" }.joined()
        let spine = documents.indices.map { "<itemref idref=\"d\($0)\"/>" }.joined()
        try! writer.add(name: "OEBPS/package.opf", contents: Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">test</dc:identifier><dc:title>T</dc:title><dc:language>en</dc:language></metadata>
          <manifest>\(items)</manifest><spine>\(spine)</spine>
        </package>
        """.utf8), store: false)
        for (path, text) in documents { try! writer.add(name: "OEBPS/" + path, contents: Array(text.utf8), store: false) }
        for (path, bytes) in extra { try! writer.add(name: path, contents: bytes, store: false) }
        return try! writer.finish()
    }

    static func rules(_ audit: FileAudit) -> [String] { audit.findings.map(\.rule.rawValue) }
}
