import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// A font given by path that cannot serve math layout is refused with a diagnostic of its own, naming
/// the file and what is wrong: a font without a MATH table, a file that is not a font, a missing file,
/// a directory, a loop of symbolic links, a FIFO (never read: HarfBuzz would wait on it for ever).
@Suite struct FontLoadingTests {
    static let fonts = repositoryFixture("Tests/MathAloudRenderTests/Fixtures/fonts")

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The error `FontSet.named` and `Renderer(options:)` give for a font name, or nil when it loads.
    func refusal(_ font: String) -> FontLoadError? {
        var fromSet: FontLoadError? = nil
        do { _ = try FontSet.named(font) } catch { fromSet = error }
        var o = RenderOptions()
        o.font = font
        do {
            _ = try Renderer(options: o, speaker: Renderers.text.speaker)
            #expect(fromSet == nil, "\(font): the renderer took what the font set refused")
        } catch {
            guard case .font(let e) = error else { Issue.record("\(font): \(error)"); return fromSet }
            #expect(e.id == fromSet?.id && e.message == fromSet?.message)
        }
        return fromSet
    }

    @Test func fontWithoutMathTableIsRefused() throws {
        let path = FontSet.fonts(FontLoadingTests.fonts, "no-math-table.ttf")
        #expect(FontFace(path: path) != nil)                  // a font HarfBuzz reads…
        let e = try #require(refusal(path))                   // …but not a math font
        #expect(e.id == .renderFontWithoutMathTable)
        #expect(e.message.hasPrefix("'\(path)' is a font without an OpenType MATH table (the constants, size variants and glyph assemblies math layout needs)"))
        #expect(e.description == e.message + " [render.font-without-math-table]")
        #expect(DiagnosticID.renderFontWithoutMathTable.info?.severity == .error)
    }

    @Test func fileThatIsNotAFontIsRefused() throws {
        let path = FontSet.fonts(FontLoadingTests.fonts, "not-a-font.otf")
        let e = try #require(refusal(path))
        #expect(e.id == .renderNotAFont)
        #expect(e.message == "'\(path)' is not a font: an OpenType math font (.otf, .ttf) is needed")
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty.ttf").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(refusal(empty)?.id == .renderNotAFont)
    }

    @Test func pathsThatCannotBeReadAreRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("missing.otf").path
        let loop = dir.appendingPathComponent("loop.otf").path, other = dir.appendingPathComponent("other.otf").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: other)
        try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: loop)
        let fifo = dir.appendingPathComponent("fifo.otf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let notADirectory = FontSet.fonts(FontLoadingTests.fonts, "not-a-font.otf") + "/x.otf"
        for (path, reason) in [(missing, "does not exist"), (dir.path, "is a directory, not a font file"),
                               (loop, "is a loop of symbolic links"), (fifo, "is not a regular file (a device, a FIFO or a socket)"),
                               (notADirectory, "does not exist (a part of its path is not a directory)"),
                               ("/dev/zero", "is not a regular file (a device, a FIFO or a socket)")] {
            let e = refusal(path)
            #expect(e?.id == .renderFontUnreadable, "\(path)")
            #expect(e?.message == "font file '\(path)' \(reason)")
            #expect(FontFace(path: path) == nil)
        }
        // A link to a font is the font.
        let link = dir.appendingPathComponent("link.ttf").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: FontSet.fonts(FontLoadingTests.fonts, "no-math-table.ttf"))
        #expect(refusal(link)?.id == .renderFontWithoutMathTable)
    }

    @Test func namesThatAreNeitherAFamilyNorAFile() {
        #expect(!FontSet.isFilePath("no-such-font") && FontSet.isFilePath("./x") && FontSet.isFilePath("font.otf"))
        let e = refusal("no-such-font")
        #expect(e?.id == .renderUnknownFont)
        #expect(e?.message == "unknown math font 'no-such-font': use one of latin-modern, pagella, termes, bonum, schola, dejavu, or a path to an OpenType math font")
        // A math font file loads.
        let lm = "/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf"
        if FileManager.default.fileExists(atPath: lm) { #expect(refusal(lm) == nil) }
    }

    @Test func everyFontErrorIsInTheCatalog() {
        for id: DiagnosticID in [.renderFontWithoutMathTable, .renderNotAFont, .renderFontUnreadable, .renderUnknownFont,
                                 .renderFontNotInstalled, .renderHarfBuzzUnavailable] {
            #expect(id.info?.severity == .error, "\(id)")
        }
    }
}

extension FontSet {
    /// A fixture font's path.
    static func fonts(_ dir: URL, _ name: String) -> String { dir.appendingPathComponent(name).path }
}
