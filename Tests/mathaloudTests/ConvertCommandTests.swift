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
        #expect(written.contains("Area ![pi r squared](images/f1.svg) costs $5."))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("images/f1.svg").path))
        #expect(r.stderr.contains("1 formulas, 1 labelled") || r.stderr.contains("1 formula, 1 labelled"), "\(r.stderr)")
        #expect(r.stderr.contains("peak RSS"))
    }

    @Test func neverWritesThroughASymbolicLink() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.html"), link = dir.appendingPathComponent("link.html")
        try Data("keep".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let r = try runCLI(["convert", "-", "--format", "markdown", "-o", link.path], stdin: Data("$x$".utf8))
        #expect(r.status == 3)
        #expect(r.stderr.contains("symbolic link"))
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
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
        // Streaming reads text and Markdown only (a notebook or HTML page was written half-converted).
        let notebook = try runCLI(["convert", "--stream", "--format", "notebook"], stdin: Data("{}".utf8))
        #expect(notebook.status == 2 && notebook.stderr.contains("--stream reads text or Markdown"))
        // Markdown images in an HTML page would show their syntax.
        let html = try runCLI(["convert", "--format", "html", "--to", "markdown"], stdin: Data("<p>$x$</p>".utf8))
        #expect(html.status == 2 && html.stderr.contains("--to markdown"))
    }
}
