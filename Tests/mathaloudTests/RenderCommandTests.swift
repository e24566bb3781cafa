import Foundation
import Testing

/// `mathaloud render`: formats by extension, labels inside the files, options, batch and text modes.
@Suite(.serialized) struct RenderCommandTests {
    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func svgByExtensionWithLabel() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("eq.svg")
        let r = try runCLI(["render", #"\frac{3}{4}"#, "-o", file.path, "--template", "Math: {speech}"])
        #expect(r.status == 0)
        let svg = try String(contentsOf: file, encoding: .utf8)
        #expect(svg.hasPrefix("<svg "))
        #expect(svg.contains("role=\"img\""))
        #expect(svg.contains(">Math: three fourths</title>"))
        #expect(svg.contains(#"<desc id="#))
    }

    @Test func pngAndPdfByExtension() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("eq.png"), pdf = dir.appendingPathComponent("eq.pdf")
        #expect(try runCLI(["render", "x^2", "-o", png.path, "--scale", "2", "--color", "red"]).status == 0)
        #expect(try runCLI(["render", "x^2", "-o", pdf.path, "--font", "latin-modern", "--display"]).status == 0)
        let pngData = try Data(contentsOf: png)
        #expect(pngData.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(String(decoding: pngData, as: UTF8.self).contains("Description"))
        #expect(String(decoding: try Data(contentsOf: pdf), as: UTF8.self).hasPrefix("%PDF-"))
    }

    @Test func dumpPrintsTheBoxTree() throws {
        let r = try runCLI(["render", #"\sqrt{x}"#, "--dump"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("sqrt w="))
    }

    @Test func badInputStillRendersAndExitsOne() throws {
        let r = try runCLI(["render", #"\frac{1}{"#, "-o", "-"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("<svg "))
        #expect(r.stderr.contains("missing }"))
    }

    @Test func usageErrors() throws {
        #expect(try runCLI(["render", "x"]).status == 2)                            // no -o
        #expect(try runCLI(["render", "x", "-o", "-", "--size", "zero"]).status == 2)
        #expect(try runCLI(["render", "x", "-o", "-", "--color", "nocolour"]).status == 2)
        #expect(try runCLI(["render", "x", "-o", "-", "--font", "no-such-font"]).status == 2)   // not a family, not a file
    }

    /// Each manifest line gives the formula's box (TeX's width, height and depth, px) besides the image's
    /// size: the image is the box and its margins, wider where ink reaches past the box (a slanted V).
    @Test func manifestGivesTheBoxInTheImage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["render", "--batch", dir.path], stdin: Data((#"{"id":"x","tex":"x"}"# + "\n" + #"{"id":"V","tex":"V"}"#).utf8))
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"baseline":2.22,"box":{"depth":0.22,"height":8.84,"width":11.44},"diagnostics":[],"errors":[],"file":"x.svg","height":13.06,"id":"x","label":"x","tex":"x","verticalAlign":"-2.22px","width":15.44}"#,
            #"{"baseline":2.44,"box":{"depth":0.44,"height":13.66,"width":11.66},"diagnostics":[],"errors":[],"file":"V.svg","height":18.1,"id":"V","label":"V","tex":"V","verticalAlign":"-2.44px","width":18.38}"#,
        ])
    }

    /// A font file that cannot serve math layout: exit code 6 (the font could not be loaded), one line
    /// naming the file, what is wrong and the diagnostic id, nothing written.
    @Test func fontFilesThatAreRefused() throws {
        let fonts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MathAloudRenderTests/Fixtures/fonts")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("eq.svg")
        let noMath = fonts.appendingPathComponent("no-math-table.ttf").path
        let r = try runCLI(["render", "x^2", "-o", out.path, "--font", noMath])
        #expect(r.status == 6)
        #expect(r.stderr == "mathaloud: '\(noMath)' is a font without an OpenType MATH table (the constants, size variants and glyph "
                + "assemblies math layout needs): use a math font such as latinmodern-math.otf, or a family: latin-modern, pagella, "
                + "termes, bonum, schola, dejavu [render.font-without-math-table]\n")
        let notAFont = fonts.appendingPathComponent("not-a-font.otf").path
        let missing = dir.appendingPathComponent("missing.otf").path
        for (font, tail) in [(notAFont, "is not a font: an OpenType math font (.otf, .ttf) is needed [render.not-a-font]"),
                             (missing, "does not exist [render.font-unreadable]"),
                             (dir.path, "is a directory, not a font file [render.font-unreadable]")] {
            let r = try runCLI(["render", "x^2", "-o", out.path, "--font", font])
            #expect(r.status == 6, "\(font)")
            #expect(r.stderr.hasPrefix("mathaloud: ") && r.stderr.contains(font) && r.stderr.hasSuffix(tail + "\n"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func batchWritesImagesAndManifest() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var input = #"{"id": "a", "tex": "\\frac{1}{2}"}"# + "\n" + #"{"id": 2, "tex": "x^2", "display": true}"# + "\nnot json\n"
        // More lines than one chunk, to check the order across the parallel chunks.
        for i in 0..<600 { input += #"{"id": "n\#(i)", "tex": "x_{\#(i)}"}"# + "\n" }
        let r = try runCLI(["render", "--batch", dir.path], stdin: Data(input.utf8))
        #expect(r.status == 1)   // one bad line
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 603)
        #expect(lines[0].contains(#""label":"one half""#))
        #expect(lines[2].contains("not valid JSON"))
        for i in 0..<600 { #expect(lines[3 + i].contains(#""id":"n\#(i)""#)) }
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.svg").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("2.svg").path))
        let manifest = try String(contentsOf: dir.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        #expect(manifest.split(separator: "\n").count == 603)
    }

    @Test func batchKeepsEachLinesDiagnostics() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = #"{"id": "d", "tex": "\\sqrt{x}", "preferences": {"Nope": "1"}}"# + "\n" + #"{"id": 2, "tex": "y + \\foo"}"# + "\n"
            + #"{"id": 3, "tex": "z"}"# + "\n"
        let r = try runCLI(["render", "--batch", dir.path], stdin: Data(input.utf8))
        #expect(r.status == 1)   // line 2 has an error
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""diagnostics":[{"id":"speech.unknown-preference","message":"unknown preference 'Nope' for style ClearSpeak; "#))
        #expect(lines[1].contains(#""diagnostics":[{"id":"tex.unknown-command","message":"unknown command \\foo","range":{"column":5,"end":8,"line":1,"start":4},"severity":"error"}]"#))
        #expect(lines[2].contains(#""diagnostics":[],"#))
        let manifest = try String(contentsOf: dir.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        #expect(manifest.split(separator: "\n").map(String.init) == lines)
        // Standard error names each line and id, with the location in the formula.
        #expect(r.stderr.contains(#"line 1 (id "d"): warning: unknown preference 'Nope' for style ClearSpeak"#))
        #expect(r.stderr.contains("line 2 (id 2):1:5: error: unknown command \\foo [tex.unknown-command]\n  y + \\foo\n      ^~~~\n"))
        #expect(!r.stderr.contains("line 3"))
    }

    @Test func idPrefixOption() throws {
        let r = try runCLI(["render", "x", "-o", "-", "--id-prefix", "eq-2"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#"aria-labelledby="eq-2-title""#))
        #expect(try runCLI(["render", "x", "-o", "-", "--id-prefix", "a b"]).status == 2)
    }

    @Test func textModeOneImagePerFormula() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["render", "--text", "-o", dir.path, "--format", "png"],
                           stdin: Data(#"Take $a+b$ and $$\sum_i x_i$$ then \(y\)."#.utf8))
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 3)
        for i in 1...3 { #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("eq\(i).png").path)) }
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains(#"<img src="eq1.png" alt="a plus b""#))
        #expect(html.contains("Take "))
    }

    @Test func contactSheet() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sheet.png")
        let r = try runCLI(["render", "--sheet", "-o", file.path], stdin: Data("% comment\nx^2\n\\frac{1}{2}\n".utf8))
        #expect(r.status == 0)
        #expect(try Data(contentsOf: file).count > 100)
    }
}
