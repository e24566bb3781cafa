import Foundation
import MathAloudDocuments
import Testing
@testable import MathAloudAudit
import MathAloud

/// Every rule fires on a fixture of every format where it applies, and stays quiet on look-alikes.
@Suite struct AuditRuleTests {
    @Test func markdownRulesFireAndLookAlikesDoNot() {
        let dir = FixtureDirectory()
        dir.write("a.md", """
        Good: $x^2 + 1$ and $$\\frac{a}{b}$$.
        A price: it costs $5 and $10. Escaped: \\$x\\$.

        `$\\frac{code}{span$` and

        ```
        $\\frac{1}{2$ in a fence
        ```

        ```math
        \\sum_{i=1}^n i
        ```

        Parse error: $x}$. Unknown: $\\notacommand x$. Snowman: $☃$.
        Unclosed: \\(x + y

        Images: ![the graph of y equals x squared](plot.png) is a picture.
        ![equation](img/eq1.png) ![\\hat{y}](img/eq2.png) ![](img/eq3.png)
        ![x squared](img/eq4.png "x^2")
        """)
        let audit = AuditFixtures.audit(dir, "a.md")
        let rules = AuditFixtures.rules(audit)
        #expect(rules == ["math.parse-error", "math.unknown-command", "math.read-by-name", "math.unclosed-delimiter",
                          "image.placeholder-alt", "image.raw-source-alt", "image.empty-alt"], "\(audit.findings.map(\.message))")
        // x^2+1, a/b, the math fence, x}, \notacommand x, ☃ and the four formula images.
        #expect(audit.summary.formulas == 10, "\(audit.summary)")
        #expect(audit.summary.good == 4)
        let parse = audit.findings[0]
        #expect(parse.start.line == 14 && parse.start.column == 16)
        #expect(parse.diagnosticID == "tex.unmatched-brace")
        let unknown = audit.findings[1]
        #expect(unknown.start.line == 14 && unknown.start.column == 30 && unknown.end.column == 42)
        #expect(audit.findings[5].fixLabel == "y hat")
    }

    @Test func htmlRulesFireAndLookAlikesDoNot() {
        let dir = FixtureDirectory()
        dir.write("p.html", """
        <!DOCTYPE html><html><head><title>t</title>
        <script>var price = "$5"; var tex = "\\\\(x\\\\)";</script></head><body>
        <p><math alttext="x squared"><msup><mi>x</mi><mn>2</mn></msup></math> good</p>
        <p><math><mi>x</mi></math> no label</p>
        <p><math alttext="Equation 3"><mi>x</mi></math> placeholder</p>
        <p><math alttext="\\frac{a}{b}"><mfrac><mi>a</mi><mi>b</mi></mfrac></math> TeX label</p>
        <p><math aria-label="z plus one"><mi>x</mi><mo>+</mo><mn>1</mn></math> mismatch</p>
        <p><math><mi>x</mi><mo>+</mo></mrow></math> malformed</p>
        <p>\\(\\sqrt{2}\\) and <code>\\(\\frac{1}{2\\)</code> and a price of $5.</p>
        <p><img src="eq/eq9.png" data-tex="e^{i\\pi}"> <img class="math" src="a.png" alt="e to the i pi" data-tex="e^{i\\pi}"></p>
        <p><img src="photo.jpg" alt="The campus in spring"> <img src="logo.png"></p>
        <p><svg class="math" data-tex="x"><path d="M0 0"/></svg> <svg><title>A chart</title></svg></p>
        <script type="math/tex; mode=display">\\int_0^1 f</script>
        </body></html>
        """)
        let audit = AuditFixtures.audit(dir, "p.html")
        #expect(AuditFixtures.rules(audit) == ["mathml.missing-label", "mathml.placeholder-label", "mathml.raw-source-label",
                                               "mathml.label-mismatch", "mathml.missing-label", "math.parse-error", "image.missing-alt", "svg.missing-label"],
                "\(audit.findings.map(\.message))")
        #expect(audit.summary.formulas == 11)
        let missing = audit.findings[0]
        #expect(missing.start.line == 4 && missing.start.column == 4)
        #expect(missing.fixLabel == "x")
    }

    /// An SVG formula's `<title>` is its label and `<desc>` may hold its TeX: read with the one HTML
    /// tokenizer of the package (nested elements counted, every entity decoded).
    @Test func svgTitleAndDescAreRead() {
        let html = #"<p><svg class="math"><g><title>x squared &amp; more&#x21;</title></g><desc>x^{2}</desc><path d="M0 0"/></svg></p>"#
        let document = Segmenters.segment(Array(html.utf8), format: .html, url: nil)
        #expect(document.sites.count == 1)
        guard let site = document.sites.first else { return }
        #expect(site.source == "x^{2}")
        let title = site.labels.first { $0.name == "title" }
        #expect(title?.value == "x squared & more!")
        if let range = title?.valueRange {
            #expect(String(decoding: Array(html.utf8)[range.lowerBound..<range.upperBound], as: UTF8.self) == "x squared &amp; more&#x21;")
        }
    }

    @Test func latexRulesFireAndLookAlikesDoNot() {
        let dir = FixtureDirectory()
        dir.write("doc.tex", """
        \\documentclass{article}
        \\newcommand{\\RR}{\\mathbb{R}}
        \\DeclareMathOperator{\\tr}{tr}
        \\begin{document}
        % $\\frac{1}{2$ in a comment
        Costs \\$5. Fine: $f\\colon\\RR\\to\\RR$, $\\tr A$.
        \\begin{itemize}\\item $x_i$\\end{itemize}
        \\begin{verbatim}$\\broken{$\\end{verbatim}
        \\begin{align} a &= b \\\\ c &= d \\end{align}
        Bad: $\\undefinedmacro$.
        \\input{chapter-missing}
        \\end{document}
        """)
        let audit = AuditFixtures.audit(dir, "doc.tex")
        #expect(AuditFixtures.rules(audit) == ["math.unknown-command", "document.missing-include"], "\(audit.findings.map(\.message))")
        #expect(audit.summary.formulas == 5)
    }

    @Test func notebookRulesAndMacroCells() {
        let dir = FixtureDirectory()
        dir.write("n.ipynb", #"""
        {"cells": [
          {"cell_type": "markdown", "metadata": {}, "source": ["$\\newcommand{\\vect}[1]{\\mathbf{#1}}$"]},
          {"cell_type": "markdown", "metadata": {}, "source": ["Fine: $\\vect{x}$\n", "Bad: $\\frac{a}{b$ and \"quoted\" $\\nope$\n", "![\\alpha](eq_alpha.png)"]},
          {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, "source": ["s = '$\\nope$'"]}
        ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        """#)
        let audit = AuditFixtures.audit(dir, "n.ipynb")
        #expect(AuditFixtures.rules(audit) == ["math.unclosed-delimiter", "math.unknown-command", "image.raw-source-alt"], "\(audit.findings.map(\.message))")
        let unknown = audit.findings[1]
        // Points into the JSON file: line 3, at the backslash of \\nope inside the string.
        #expect(unknown.start.line == 3)
        #expect(String(decoding: dir.read("n.ipynb")[unknown.range.lowerBound..<unknown.range.upperBound], as: UTF8.self) == #"\\nope"#)

        dir.write("bad.ipynb", "{\"cells\": [")
        #expect(AuditFixtures.rules(AuditFixtures.audit(dir, "bad.ipynb")) == ["document.malformed"])
    }

    @Test func epubDocumentsAreAuditedInPlace() {
        let dir = FixtureDirectory()
        dir.write("book.epub", AuditFixtures.epub([
            ("ch1.xhtml", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p><math><mi>x</mi></math></p></body></html>"),
            ("ch2.xhtml", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p><math alttext=\"y\"><mi>y</mi></math></p></body></html>"),
        ]))
        let audit = AuditFixtures.audit(dir, "book.epub")
        #expect(AuditFixtures.rules(audit) == ["mathml.missing-label"])
        #expect(audit.findings[0].entry == "OEBPS/ch1.xhtml")
        #expect(audit.findings[0].displayPath == "book.epub!/OEBPS/ch1.xhtml")
        #expect(audit.summary.formulas == 2)

        dir.write("broken.epub", Array("PK\u{3}\u{4} not really a zip".utf8))
        #expect(AuditFixtures.rules(AuditFixtures.audit(dir, "broken.epub")) == ["document.unreadable"])
        var writer = ZipWriter()
        try! writer.add(name: "mimetype", contents: Array("application/epub+zip".utf8), store: true)
        dir.write("empty.epub", try! writer.finish())
        #expect(AuditFixtures.rules(AuditFixtures.audit(dir, "empty.epub")) == ["document.malformed"])
    }

    /// The audit finds the formulas convert labels: `$…$` in an HTML page is math for both (the audit
    /// read it only when the page configured MathJax's inlineMath, so a page scored 100 that convert
    /// then reported an error in).
    @Test func auditAndConvertFindTheSameFormulas() throws {
        let dir = FixtureDirectory()
        let page = "<p>A $\\bar$ b and \\(x\\) and $$y$$ costs $5 and $10</p>"
        dir.write("p.html", page)
        let audit = AuditFixtures.audit(dir, "p.html")
        let segmented = DocumentSegmenter().segment(text: page, as: .html)
        #expect(segmented.formulas.map { $0.formula!.source } == ["\\bar", "x", "y"])
        #expect(audit.summary.formulas == 3)
        #expect(audit.findings.map(\.rule.rawValue) == ["math.parse-error"])
        #expect(audit.findings.map(\.start) == [SourceLocation(line: 1, column: 7)])
    }

    /// A directory's files are reported under the directory as given, one directory as several were
    /// (`audit docs` printed `notes8.tex`, `audit two/a two/b` printed `two/a/n.md`): locations open from
    /// the current directory, SARIF uris are relative to it, a `--dry-run` diff applies with `patch -p1`.
    @Test func pathsAreRelativeToTheCurrentDirectory() throws {
        let dir = FixtureDirectory()
        dir.write("docs/sub/n.md", "$x$")
        dir.write("top.md", "$y$")
        func paths(_ inputs: [String]) -> [String] {
            AuditFileSet(inputs: inputs, configuration: AuditConfiguration(), directory: URL(fileURLWithPath: dir.url.path, isDirectory: true)).items.map(\.path)
        }
        #expect(paths(["docs"]) == ["docs/sub/n.md"])
        #expect(paths(["./docs/"]) == ["docs/sub/n.md"])
        #expect(paths(["docs/sub", "top.md"]) == ["docs/sub/n.md", "top.md"])
        #expect(paths(["."]) == ["docs/sub/n.md", "top.md"])
        #expect(paths([dir.url.path + "/docs"]) == [dir.url.path + "/docs/sub/n.md"])
    }

    @Test func unreadableFilesAreFindings() throws {
        let dir = FixtureDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("gone.md").path, withDestinationPath: "/nonexistent/x.md")
        #expect(AuditFixtures.rules(AuditFixtures.audit(dir, "gone.md")) == ["document.unreadable"])
        // The message says what is wrong (it said "permission denied").
        #expect(AuditFixtures.audit(dir, "gone.md").findings.map(\.message)
                == ["cannot read the file: it is a symbolic link whose target (/nonexistent/x.md) does not exist"])
        // Binary data (a PNG named .md) is one finding, not hundreds of text findings with binary excerpts.
        dir.write("fake.md", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D] + Array("$\\frac{ $x$ <math>".utf8))
        let binary = AuditFixtures.audit(dir, "fake.md")
        #expect(binary.findings.map(\.message) == ["the file is binary data, not a text document (a NUL byte at byte 8); it was not audited"])
        #expect(binary.findings.map(\.rule) == [.unreadable])
        var engine = AuditFixtures.engine()
        engine.maxFileSize = 10
        dir.write("big.md", "$x$ and more than ten bytes")
        let audit = engine.audit(url: dir.url.appendingPathComponent("big.md"), path: "big.md", format: .markdown)
        #expect(audit.findings.map(\.rule) == [.unreadable])
        #expect(audit.summary.score == 0)
    }

    @Test func configurationTurnsRulesOffAndChangesSeverities() throws {
        var configuration = AuditConfiguration()
        try configuration.apply(json: Data(#"{"rules": {"mathml.missing-label": "off", "image.empty-alt": "warning"}, "exclude": ["build/"]}"#.utf8),
                                name: "c.json", directory: URL(fileURLWithPath: "/"))
        #expect(configuration.severity(of: .mathMissingLabel) == nil)
        #expect(configuration.severity(of: .imageEmptyAlt) == .warning)
        #expect(!configuration.selects("build/x.md") && configuration.selects("src/build.md"))
        #expect(throws: AuditConfiguration.Problem.self) {
            try configuration.apply(json: Data(#"{"rules": {"math.no-such-rule": "off"}}"#.utf8), name: "c.json", directory: URL(fileURLWithPath: "/"))
        }
        let dir = FixtureDirectory()
        dir.write("m.html", "<math><mi>x</mi></math>")
        #expect(AuditFixtures.audit(dir, "m.html", configuration: configuration).findings.isEmpty)
    }

    @Test(arguments: [
        ("equation", LabelText.placeholder), ("Equation (3.2)", .placeholder), ("image of a formula", .placeholder), ("eq12.png", .placeholder),
        ("(4)", .placeholder), ("\\hat{y}", .tex), ("x^2", .tex), ("$a$", .tex), ("<math><mi>x</mi></math>", .mathML),
        ("x squared plus one", .words), ("a + b = c", .words), ("The campus in spring", .words), ("snake_case name", .words), ("  ", .empty),
    ])
    func labelsAreClassified(_ label: String, _ expected: LabelText) {
        #expect(LabelText.classify(label) == expected)
    }

    @Test func labelAgreement() {
        let tree = TeXParser().parse("x^2 + y_1").root
        let agreement = LabelAgreement(tree: tree)
        #expect(agreement.disagreement(with: "x squared plus y sub 1") == nil)
        #expect(agreement.disagreement(with: "a sum of squares") != nil)
        #expect(agreement.disagreement(with: "z squared") != nil)
        #expect(agreement.disagreement(with: "x squared plus y sub 7") != nil)
    }

    @Test(arguments: [
        ("*.md", "a/b/c.md", true), ("*.md", "c.markdown", false), ("docs/**/*.html", "docs/x/y/z.html", true),
        ("docs/**/*.html", "docs/z.html", true), ("docs/*.html", "docs/x/z.html", false), ("_build/", "_build/a/b.md", true),
        ("ch[0-9].tex", "src/ch3.tex", true), ("ch[!0-9].tex", "ch3.tex", false), ("/top.md", "sub/top.md", false),
    ])
    func globs(_ pattern: String, _ path: String, _ expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected)
    }
}
