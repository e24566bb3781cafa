import Foundation
import Testing

/// `mathaloud convert` and `speak --text --stream` as a user runs them (the options' effects are
/// tested in MathAloudDocumentsTests; these check the command line reaches them).
@Suite("CLI: convert")
struct ConvertCommandTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-convert-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let document = "# Notes\n\nArea $\\pi r^2$ costs $5.\n\n```\n$not math$\n```\n"

    @Test func markdownBecomesLabelledMathMLAndTheRestStays() throws {
        let r = try runCLI(["convert", "--format", "markdown"], stdin: Data(Self.document.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("# Notes\n\nArea <math alttext=\"pi r squared\" aria-label=\"pi r squared\""))
        #expect(r.stdout.hasSuffix("</math> costs $5.\n\n```\n$not math$\n```\n"))
    }

    @Test func fileToFileWithStatsAndImages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("notes.md"), output = dir.appendingPathComponent("out.md")
        try Data(Self.document.utf8).write(to: input)
        let r = try runCLI(["convert", input.path, "--to", "markdown", "-o", output.path, "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        let written = try String(contentsOf: output, encoding: .utf8)
        // The image is named by its content: 20 hex digits of its SHA-256.
        let name = try #require(written.firstMatch(of: /Area !\[pi r squared\]\(images\/([0-9a-f]{20})\.svg\) costs \$5\./)?.1)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("images/\(name).svg").path))
        #expect(r.stderr.contains("1 formulas, 1 labelled") || r.stderr.contains("1 formula, 1 labelled"), "\(r.stderr)")
        #expect(r.stderr.contains("peak RSS"))
    }

    /// Sweep item 22: text is written as HTML (its prose escaped, its lines kept), in one piece and as a
    /// stream alike; LaTeX is refused with one line saying why and what to do (it came out as LaTeX
    /// with `<math>` elements in it), exit 2, nothing written.
    @Test func textBecomesHTMLAndLatexIsRefused() throws {
        let input = Data("a <b> & $x$\nline 2\n".utf8)
        let whole = try runCLI(["convert", "--format", "text"], stdin: input)
        let streamed = try runCLI(["convert", "--format", "text", "--stream"], stdin: input)
        #expect(whole.status == 0 && streamed.status == 0)
        #expect(whole.stdout.hasPrefix("<div class=\"mathaloud-text\" style=\"white-space:pre-wrap\">a &lt;b&gt; &amp; <math alttext=\"x\""), "\(whole.stdout)")
        #expect(whole.stdout.hasSuffix("</math>\nline 2\n</div>\n"), "\(whole.stdout)")
        #expect(streamed.stdout == whole.stdout)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tex = dir.appendingPathComponent("paper.tex"), out = dir.appendingPathComponent("out.tex")
        try Data("Text $x$.\n".utf8).write(to: tex)
        let refused = try runCLI(["convert", tex.path, "-o", out.path])
        #expect(refused.status == 2)
        #expect(refused.stderr == "mathaloud: convert does not write LaTeX: MathML or images in a .tex file would make it neither LaTeX nor HTML; convert writes Markdown, HTML, notebooks and text (as HTML). Check a LaTeX document with `mathaloud audit`, or convert the HTML a LaTeX tool (make4ht, LaTeXML, pandoc) makes of it\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let help = try runCLI(["help", "convert"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("text is written as HTML (its prose escaped, its lines kept); LaTeX is refused"), "\(help)")
    }

    /// Sweep item 27: with `--label none` an SVG claimed a name it did not have (`role="img"` and an
    /// empty `<title>`) and an `<img>` was marked as decoration (`alt=""`); now neither claims a label,
    /// both carry their TeX, and `audit` reports them as unlabelled. Item 24: `--label tex` drops the
    /// spaces inside the delimiters.
    @Test func noLabelClaimsNoLabelAndAuditReportsIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Data("A \\( x \\).\n".utf8)
        let svg = dir.appendingPathComponent("svg.html"), img = dir.appendingPathComponent("img.html")
        #expect(try runCLI(["convert", "--format", "markdown", "--math-as", "svg", "--label", "none", "-o", svg.path], stdin: input).status == 0)
        #expect(try runCLI(["convert", "--format", "markdown", "--math-as", "img", "--label", "none", "-o", img.path], stdin: input).status == 0)
        let svgText = try String(contentsOf: svg, encoding: .utf8), imgText = try String(contentsOf: img, encoding: .utf8)
        #expect(!svgText.contains("role=\"img\"") && !svgText.contains("<title") && !svgText.contains("aria-labelledby"))
        #expect(svgText.contains(" data-tex=\"x\" ") && svgText.contains("<desc id=\"mathaloud-f1-desc\">"), "\(svgText.prefix(400))")
        #expect(try imgText.firstMatch(of: /^A <img src="images\/[0-9a-f]{20}\.svg" data-tex="x" width="[0-9.]+" height="[0-9.]+" style="vertical-align:-[0-9.]+px">\.\n$/) != nil, "\(imgText)")
        let audit = try runCLI(["audit", svg.path, img.path, "--format", "json", "--fail-on", "never"])
        #expect(audit.stdout.contains(#""rule":"svg.missing-label""#) && audit.stdout.contains(#""rule":"image.missing-alt""#), "\(audit.stdout)")
        let tex = try runCLI(["convert", "--format", "markdown", "--label", "tex"], stdin: input)
        #expect(tex.stdout.hasPrefix("A <math alttext=\"x\" aria-label=\"x\""), "\(tex.stdout)")
    }

    @Test func neverWritesThroughASymbolicLink() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.html"), link = dir.appendingPathComponent("link.html")
        try Data("keep".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let r = try runCLI(["convert", "-", "--format", "markdown", "-o", link.path], stdin: Data("$x$".utf8))
        #expect(r.status == 3)
        #expect(r.stderr == "mathaloud: cannot write \(link.path): it is a symbolic link (not written through or replaced)\n")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
        // A dangling link is refused too: nothing is created at its target.
        let dangling = dir.appendingPathComponent("dangling.html"), absent = dir.appendingPathComponent("absent.html")
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: absent)
        let d = try runCLI(["convert", "-", "--format", "markdown", "-o", dangling.path], stdin: Data("$x$".utf8))
        #expect(d.status == 3)
        #expect(d.stderr == "mathaloud: cannot write \(dangling.path): it is a symbolic link (not written through or replaced)\n")
        #expect(!FileManager.default.fileExists(atPath: absent.path))
    }

    /// Two documents converted into one folder keep their images (both wrote `images/f1.svg`, so the
    /// first page showed the second's formula under its own alt).
    @Test func twoDocumentsIntoOneFolderKeepTheirImages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Area $\\pi r^2$.\n".utf8).write(to: dir.appendingPathComponent("a.md"))
        try Data("Energy $E=mc^2$.\n".utf8).write(to: dir.appendingPathComponent("b.md"))
        for name in ["a", "b"] {
            let r = try runCLI(["convert", dir.appendingPathComponent("\(name).md").path, "--math-as", "img",
                                "-o", dir.appendingPathComponent("site/\(name).html").path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let images = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("site/images").path).sorted()
        #expect(images.count == 2)
        for (page, alt) in [("a", "pi r squared"), ("b", "E equals m c squared")] {
            let html = try String(contentsOf: dir.appendingPathComponent("site/\(page).html"), encoding: .utf8)
            let src = try #require(html.firstMatch(of: /src="images\/([0-9a-f]{20}\.svg)"/)?.1)
            #expect(images.contains(String(src)))
            #expect(html.contains("alt=\"\(alt)\""))
            // The image drawn for this page is the one it names (its SVG title is the page's label).
            let svg = try String(contentsOf: dir.appendingPathComponent("site/images/\(src)"), encoding: .utf8)
            #expect(svg.contains(alt), "\(svg.prefix(300))")
        }
    }

    /// A symbolic link at the images folder, at an image's name, or a directory at the output's name:
    /// refused with the reason, and nothing is written (images went into the link's target).
    @Test func linksAndDirectoriesInTheWayAreRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let elsewhere = dir.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("site"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("site/pictures"), withDestinationURL: elsewhere)
        let input = Data("Area $\\pi r^2$.\n".utf8)
        let linked = try runCLI(["convert", "--format", "markdown", "--math-as", "img", "--images", "pictures",
                                 "-o", dir.appendingPathComponent("site/a.html").path], stdin: input)
        #expect(linked.status == 3)
        #expect(linked.stderr == "mathaloud: cannot write \(dir.appendingPathComponent("site/pictures").path): it is a symbolic link (not written through or replaced)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("site/a.html").path))

        // A link at the image's own name (the image a first run wrote, replaced by a link).
        let first = try runCLI(["convert", "--format", "markdown", "--math-as", "img", "-o", dir.appendingPathComponent("site/b.html").path], stdin: input)
        #expect(first.status == 0)
        let image = try #require(FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("site/images").path).first)
        let imageURL = dir.appendingPathComponent("site/images/\(image)")
        try FileManager.default.removeItem(at: imageURL)
        try Data("keep".utf8).write(to: elsewhere.appendingPathComponent("target.svg"))
        try FileManager.default.createSymbolicLink(at: imageURL, withDestinationURL: elsewhere.appendingPathComponent("target.svg"))
        let again = try runCLI(["convert", "--format", "markdown", "--math-as", "img", "-o", dir.appendingPathComponent("site/c.html").path], stdin: input)
        #expect(again.status == 3)
        #expect(again.stderr == "mathaloud: cannot write \(imageURL.path): it is a symbolic link (not written through or replaced)\n")
        #expect(try String(contentsOf: elsewhere.appendingPathComponent("target.svg"), encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("site/c.html").path))

        // A directory as -o, and as the input: the reason, no NSCocoaErrorDomain text.
        let toDirectory = try runCLI(["convert", "--format", "markdown", "-o", elsewhere.path], stdin: input)
        #expect(toDirectory.status == 3)
        #expect(toDirectory.stderr == "mathaloud: cannot write \(elsewhere.path): it is a directory (give a file name)\n")
        let fromDirectory = try runCLI(["convert", elsewhere.path])
        #expect(fromDirectory.status == 3)
        #expect(fromDirectory.stderr == "mathaloud: cannot read \(elsewhere.path): Is a directory\n")
    }

    /// A non-UTF-8 (Windows-1252) document whose formula needs a character the encoding lacks is
    /// converted with character references (exit 3 and "the text of the edit at 27..<35 cannot be
    /// written", with no file or place, before).
    @Test func aLegacyEncodingGetsCharacterReferences() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("out.md")
        let r = try runCLI(["convert", "--format", "markdown", "-o", output.path], stdin: Data(Array("Caf".utf8) + [0xE9] + Array(" and $\\alpha$.".utf8)))
        #expect(r.status == 0, "\(r.stderr)")
        let written = try Data(contentsOf: output)
        #expect(written.prefix(4) == Data([0x43, 0x61, 0x66, 0xE9]))
        #expect(String(decoding: written, as: UTF8.self).contains("<mi>&#x3B1;</mi>"))
    }

    @Test func errorModesAndExitCode() throws {
        let text = Data("Bad $\\frac{1}{\\x}$ and good $x$.".utf8)
        let kept = try runCLI(["convert", "--format", "markdown"], stdin: text)
        #expect(kept.status == 1)
        #expect(kept.stdout.hasPrefix("Bad $\\frac{1}{\\x}$ and good <math"))
        let shown = try runCLI(["convert", "--format", "markdown", "--errors", "show"], stdin: text)
        #expect(shown.stdout.contains("mathaloud-error"))
        #expect(try runCLI(["convert", "--errors", "drop"], stdin: text).status == 2)
    }

    @Test func trustPolicy() throws {
        let text = Data("See $\\href{javascript:alert(1)}{x}$ and $\\href{https://example.org}{y}$.".utf8)
        let untrusted = try runCLI(["convert", "--format", "markdown"], stdin: text)
        #expect(untrusted.status == 0)
        #expect(!untrusted.stdout.contains("href=\""))
        #expect(untrusted.stderr.components(separatedBy: "[tex.untrusted-command]").count == 3, "\(untrusted.stderr)")
        let trusted = try runCLI(["convert", "--format", "markdown", "--trust", "href"], stdin: text)
        #expect(trusted.stdout.contains("<mrow href=\"https://example.org\">"))
        #expect(!trusted.stdout.contains("href=\"javascript"))
        #expect(trusted.stderr.contains("the URL scheme 'javascript' is not allowed"))
        #expect(try runCLI(["convert", "--trust", "script"], stdin: text).status == 2)
    }

    @Test func streamsReadStandardInput() throws {
        let answer = "The area is $\\pi r^2$, and $$\\sum_{k=1}^n k$$ then an open $$x"
        let streamed = try runCLI(["speak", "--text", "--stream"], stdin: Data(answer.utf8))
        let whole = try runCLI(["speak", "--text"], stdin: Data(answer.utf8))
        #expect(streamed.status == 0)
        #expect(streamed.stdout.hasPrefix("The area is pi r squared, and "))
        #expect(streamed.stdout.hasSuffix(" then an open $$x"))
        #expect(streamed.stdout.trimmingCharacters(in: .newlines) == whole.stdout.trimmingCharacters(in: .newlines))
        let converted = try runCLI(["convert", "--stream", "--format", "markdown"], stdin: Data(answer.utf8))
        let oneShot = try runCLI(["convert", "--format", "markdown"], stdin: Data(answer.utf8))
        #expect(converted.stdout == oneShot.stdout)
        #expect(try runCLI(["convert", "x.md", "--stream"]).status == 2)
        // Errors in a stream have the line and column the one-shot mode gives.
        let bad = Data("line one\nsecond $\\frac{a}$ b\n".utf8)
        let message = "<stdin>:2:9: error: \\frac needs an argument [tex.missing-argument]\n"
        #expect(try runCLI(["speak", "--text", "--stream"], stdin: bad).stderr == message)
        #expect(try runCLI(["convert", "--stream"], stdin: bad).stderr == message)
        #expect(try runCLI(["speak", "--text"], stdin: bad).stderr.hasPrefix(message))
        // Streaming reads text and Markdown only (a notebook or HTML page was written half-converted).
        let notebook = try runCLI(["convert", "--stream", "--format", "notebook"], stdin: Data("{}".utf8))
        #expect(notebook.status == 2 && notebook.stderr.contains("--stream reads text or Markdown"))
        // Markdown images in an HTML page would show their syntax.
        let html = try runCLI(["convert", "--format", "html", "--to", "markdown"], stdin: Data("<p>$x$</p>".utf8))
        #expect(html.status == 2 && html.stderr.contains("--to markdown"))
    }
}
