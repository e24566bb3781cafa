import Foundation
import Testing
@testable import MathAloudAudit
import MathAloud

/// `--fix` round trips per format: labels are written, every byte outside the edited attributes is
/// unchanged, a second run changes nothing, a dry run writes nothing.
@Suite struct FixTests {
    /// Applies the plan of `name` and checks the untouched bytes: the old text between edits appears,
    /// byte for byte, in the new text between the replacements.
    func fixAndCheck(_ dir: FixtureDirectory, _ name: String) -> (old: [UInt8], new: [UInt8], edits: [TextEdit]) {
        let audit = AuditFixtures.audit(dir, name, planFixes: true)
        let plan = audit.plan!
        let edits = (plan.edits[nil] ?? []).sorted()
        let old = dir.read(name)
        var applier = FixApplier()
        applier.apply(plan, dryRun: false) { _ in }
        #expect(applier.problems.isEmpty, "\(applier.problems)")
        let new = dir.read(name)
        var oldCursor = 0, newCursor = 0
        for edit in edits {
            let kept = old[oldCursor..<edit.range.lowerBound]
            #expect(Array(new[newCursor..<(newCursor + kept.count)]) == Array(kept), "bytes before \(edit.range) changed")
            newCursor += kept.count
            let replacement = Array(edit.replacement.utf8)
            #expect(Array(new[newCursor..<(newCursor + replacement.count)]) == replacement)
            newCursor += replacement.count
            oldCursor = edit.range.upperBound
        }
        #expect(Array(new[newCursor...]) == Array(old[oldCursor...]), "bytes after the last edit changed")
        // Idempotent: a second run plans nothing.
        let again = AuditFixtures.audit(dir, name, planFixes: true)
        #expect(again.plan!.isEmpty, "second run: \(again.plan!.edits)")
        return (old, new, edits)
    }

    @Test func html() {
        let dir = FixtureDirectory()
        dir.write("p.html", """
        <html><body>\r
        <p><math><mi>x</mi><mo>+</mo><mn>1</mn></math> <math display='block' alttext='equation'><msup><mi>y</mi><mn>2</mn></msup></math></p>\r
        <p><img src="eq/eq1.png" alt="\\frac{1}{2}"> <img src='eq2.png' data-tex="a<b"/> <img class=math src=x.png alt=formula data-tex="\\sqrt{x}"></p>\r
        <p>Caf&eacute; &amp; <math alttext="z"><mi>z</mi></math></p>\r
        </body></html>\r
        """)
        let (_, new, edits) = fixAndCheck(dir, "p.html")
        #expect(edits.count == 6)
        let text = String(decoding: new, as: UTF8.self)
        #expect(text.contains(#"<math alttext="x plus 1"><mi>x</mi>"#))
        #expect(text.contains(#"alttext='y squared'"#))
        #expect(text.contains(#"alt="one half" data-tex="\frac{1}{2}">"#))
        #expect(text.contains(#"data-tex="a<b" alt="a is less than b"/>"#))
        #expect(text.contains(#"alt="the square root of x""#))
    }

    @Test func markdown() {
        let dir = FixtureDirectory()
        dir.write("m.md", "Intro $x$.\n\n![\\frac{a}{b}](eq1.png) and ![equation](eq2.png) and ![a over b](eq3.png).\n")
        let (_, new, edits) = fixAndCheck(dir, "m.md")
        #expect(edits.count == 1)   // eq2 has no known TeX: nothing to write
        #expect(String(decoding: new, as: UTF8.self).contains("![a over b](eq1.png)"))
    }

    @Test func notebook() throws {
        let dir = FixtureDirectory()
        dir.write("n.ipynb", #"""
        {
         "cells": [
          {"cell_type": "markdown", "metadata": {}, "source": ["Caf\u00e9: <img src=\"eq/eq1.png\" alt=\"x^2\">\n", "and <math><mi>\u03b1</mi></math>"]}
         ],
         "metadata": {}, "nbformat": 4, "nbformat_minor": 5
        }
        """#)
        let (_, new, edits) = fixAndCheck(dir, "n.ipynb")
        #expect(edits.count == 3)
        let object = try JSONSerialization.jsonObject(with: Data(new)) as! [String: Any]
        let source = ((object["cells"] as! [[String: Any]])[0]["source"] as! [String]).joined()
        #expect(source.contains(#"alt="x squared" data-tex="x^2""#))
        #expect(source.contains(#"<math alttext="alpha">"#))
    }

    @Test func epub() throws {
        let dir = FixtureDirectory()
        let chapter = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p><math><mi>x</mi></math></p></body></html>"
        let image = [UInt8](repeating: 7, count: 5000)
        dir.write("book.epub", AuditFixtures.epub([("ch1.xhtml", chapter), ("ch2.xhtml", "<html><body>no math</body></html>")],
                                                  extra: [("OEBPS/img.png", image)]))
        let before = try ZipArchive(url: dir.url.appendingPathComponent("book.epub"))
        let audit = AuditFixtures.audit(dir, "book.epub", planFixes: true)
        var applier = FixApplier()
        applier.apply(audit.plan!, dryRun: false) { _ in }
        #expect(applier.problems.isEmpty && applier.edits == 1)
        let after = try ZipArchive(url: dir.url.appendingPathComponent("book.epub"))
        // mimetype first, stored, uncompressed and without extra field (OCF §4.2.3).
        #expect(after.entries.first?.name == "mimetype" && after.entries.first?.method == 0)
        #expect(Array(dir.read("book.epub")[30..<58]) == Array("mimetypeapplication/epub+zip".utf8))
        #expect(after.entries.map(\.name) == before.entries.map(\.name))
        for entry in before.entries where entry.name != "OEBPS/ch1.xhtml" {
            #expect(try after.rawData(of: after.entry(named: entry.name)!) == before.rawData(of: entry), "\(entry.name) changed")
        }
        let fixed = String(decoding: try after.contents(of: after.entry(named: "OEBPS/ch1.xhtml")!), as: UTF8.self)
        #expect(fixed == chapter.replacingOccurrences(of: "<math>", with: "<math alttext=\"x\">"))
        #expect(AuditFixtures.audit(dir, "book.epub", planFixes: true).plan!.isEmpty)
    }

    @Test func dryRunWritesNothingAndPrintsAUnifiedDiff() {
        let dir = FixtureDirectory()
        dir.write("p.html", "<p>\n<math><mi>x</mi></math>\n</p>\n")
        let before = dir.read("p.html")
        let audit = AuditFixtures.audit(dir, "p.html", planFixes: true)
        var applier = FixApplier()
        var diff = ""
        applier.apply(audit.plan!, dryRun: true) { diff += $0 }
        #expect(dir.read("p.html") == before)
        #expect(diff == """
        --- a/p.html
        +++ b/p.html
        @@ -1,3 +1,3 @@
         <p>
        -<math><mi>x</mi></math>
        +<math alttext="x"><mi>x</mi></math>
         </p>

        """)
    }

    @Test func symbolicLinksAreNotWrittenThrough() throws {
        let dir = FixtureDirectory()
        let target = dir.write("real.html", "<math><mi>x</mi></math>")
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("link.html").path, withDestinationPath: target.path)
        let audit = AuditFixtures.audit(dir, "link.html", planFixes: true)
        var applier = FixApplier()
        applier.apply(audit.plan!, dryRun: false) { _ in }
        #expect(applier.problems == ["cannot write link.html: it is a symbolic link (not written through or replaced)"])
        #expect(String(decoding: dir.read("real.html"), as: UTF8.self) == "<math><mi>x</mi></math>")
    }

    /// The one link policy of the document commands (OutputFile.LinkPolicy.refuse), as `--fix` uses it:
    /// a link at the file (to a file, or dangling) and a link at a folder between a base and the file
    /// are each refused with the one error (id `output.symbolic-link`, one message) and nothing is
    /// written anywhere; a regular file is replaced atomically and keeps its permissions.
    @Test func oneLinkPolicyForDocumentOutputs() throws {
        let dir = FixtureDirectory()
        let target = dir.write("real.html", "keep")
        let link = dir.url.appendingPathComponent("link.html"), dangling = dir.url.appendingPathComponent("dangling.html")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: dir.url.appendingPathComponent("absent.html").path)
        for (url, name) in [(link, "link.html"), (dangling, "dangling.html")] {
            #expect(throws: OutputFileError.symbolicLink(name)) { try SafeFileWriter.replace(url, with: Array("new".utf8), shown: name) }
            #expect(throws: OutputFileError.symbolicLink(name)) { try OutputFile.write(Data("new".utf8), to: url, shown: name, links: .refuse) }
            #expect(throws: OutputFileError.symbolicLink(name)) { _ = try OutputFile(url, shown: name, links: .refuse) }
        }
        #expect(OutputFileError.symbolicLink("x").id == "output.symbolic-link")
        #expect(OutputFileError.symbolicLink("x").description == "cannot write x: it is a symbolic link (not written through or replaced)")
        #expect(String(decoding: dir.read("real.html"), as: UTF8.self) == "keep")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("absent.html").path))
        // A link as a folder between the base and the file.
        let elsewhere = dir.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("site").path, withDestinationPath: elsewhere.path)
        #expect(throws: OutputFileError.symbolicLink("out/site")) {
            try OutputFile.prepareDirectories(of: dir.url.appendingPathComponent("site/images/a.svg"), under: dir.url, shownBase: "out")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        // A regular file: replaced in one rename, keeping its permissions, no temporary file left.
        #expect(chmod(target.path, 0o640) == 0)
        try SafeFileWriter.replace(target, with: Array("new".utf8))
        #expect(String(decoding: dir.read("real.html"), as: UTF8.self) == "new")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["dangling.html", "elsewhere", "link.html", "real.html", "site"])
        // Checked again right before the rename: a link put at the name meanwhile is refused, and a
        // file removed meanwhile is not written anew (as SafeFileWriter's own check did).
        let file = try OutputFile(target, shown: "real.html", links: .refuse)
        try file.append(Data("newer".utf8))
        try FileManager.default.removeItem(at: target)
        try FileManager.default.createSymbolicLink(atPath: target.path, withDestinationPath: dir.url.appendingPathComponent("absent2.html").path)
        #expect(throws: OutputFileError.symbolicLink("real.html")) { try file.commit() }
        try FileManager.default.removeItem(at: target)
        dir.write("real.html", "again")
        let removed = try OutputFile(target, shown: "real.html", links: .refuse)
        try FileManager.default.removeItem(at: target)
        #expect(throws: OutputFileError(path: "real.html", operation: "write", reason: "it was removed while it was being written; it is not written anew")) {
            try removed.commit()
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["dangling.html", "elsewhere", "link.html", "site"])
    }

    @Test func zipRoundTrip() throws {
        var writer = ZipWriter()
        let big = Array(String(repeating: "abc ", count: 10_000).utf8)
        try writer.add(name: "a.txt", contents: big, store: false)
        try writer.add(name: "dir/é.txt", contents: Array("hé".utf8), store: true)
        let dir = FixtureDirectory()
        dir.write("z.zip", try writer.finish())
        let archive = try ZipArchive(url: dir.url.appendingPathComponent("z.zip"))
        #expect(archive.entries.map(\.name) == ["a.txt", "dir/é.txt"])
        #expect(try archive.contents(of: archive.entries[0]) == big)
        #expect(archive.entries[0].compressedSize < 1000)
        #expect(try archive.contents(of: archive.entries[1]) == Array("hé".utf8))
        archive.maxEntrySize = 1000
        #expect(throws: ZipError.self) { try archive.contents(of: archive.entries[0]) }
    }
}
