import Foundation
import MathAloud
import MathAloudDocuments
import Testing

/// What is not prose stays as written: references are resolved only where formulas are found, the
/// Markdown constructs that are not prose are not scanned, and the markup written into Markdown reads
/// as markup there.
@Suite("Documents: what is not prose")
struct StructureTests {
    /// `\eqref`/`\ref` in code, comments, attribute values, `\verb` and `%` comments stay as written
    /// (they became links, and inside `title="…"` broke the tag); in prose they are resolved.
    @Test func referencesOnlyWhereFormulasAreFound() throws {
        let markdown = "Code `\\eqref{a}` <!-- \\eqref{a} --> and <span title=\"\\eqref{a}\">t</span>\n\n"
            + "    \\eqref{a} indented\n\n$$x=1\\label{a}\\tag{1}$$ see \\eqref{a}.\n"
        let md = try converted(markdown)
        #expect(md.hasPrefix("Code `\\eqref{a}` <!-- \\eqref{a} --> and <span title=\"\\eqref{a}\">t</span>\n\n    \\eqref{a} indented\n\n<math"))
        #expect(md.hasSuffix(##"</math> see <a href="#mathaloud-eq-1" aria-label="equation 1">(1)</a>."## + "\n"))
        let read = processor().process(text: markdown, format: .markdown)
        #expect(read.references.map(\.range) == [SourceRange(126, 135)])
        #expect(read.diagnostics.filter { $0.id == "document.unresolved-reference" }.isEmpty)

        let html = "<p>$$x=1\\label{a}\\tag{1}$$</p><p><code>\\eqref{a}</code> <a title=\"\\eqref{a}\">t</a> <pre>\\ref{a}</pre> \\ref{a}</p>"
        let page = try converted(html, format: .html)
        #expect(page.hasSuffix(##"<p><code>\eqref{a}</code> <a title="\eqref{a}">t</a> <pre>\ref{a}</pre> <a href="#mathaloud-eq-1" aria-label="equation 1">1</a></p>"##))

        let tex = "See \\eqref{a}, \\verb|\\eqref{a}| and\n% \\eqref{a}\n\\begin{equation}x\\label{a}\\end{equation}\n"
        let latex = processor().process(text: tex, format: .latex)
        #expect(latex.references.map(\.range) == [SourceRange(4, 13)])
        #expect(latex.document.unscannedRanges == [SourceRange(15, 31), SourceRange(36, 47)])
    }

    /// A `\label` on a formula that numbering leaves unnumbered is not missing: the message says so.
    @Test func aLabelOnAnUnnumberedFormulaIsNamedAsSuch() {
        let read = processor().process(text: "$$x\\label{u}$$ and \\eqref{u}, \\eqref{v}", format: .markdown)
        let messages = read.diagnostics.filter { $0.id == "document.unresolved-reference" }.map(\.message)
        #expect(messages == ["\\label{u} is on a formula that has no number (the numbering (ams) does not number it; a \\tag{…} gives it one)",
                             "no \\label{v} for this reference"])
    }

    /// Indented code, link destinations, autolinks, tag attributes and YAML front matter are not
    /// scanned; a display formula in a blockquote is read without the `>` markers, which stay.
    @Test func markdownConstructsThatAreNotProse() throws {
        let text = "---\ntitle: \"Cost $x$\"\n---\nIntro.\n\n    indented code $y = mx + b$ here\n\n> $$\n> E = mc^2\n> $$\n\n"
            + "[link](http://example.com/$gamma$) and <http://example.com/?q=$x$> <span title=\"$t$\">$s$</span>\n\n"
            + "- item\n\n    $z$ continues the item\n"
        let read = processor().process(text: text, format: .markdown)
        #expect(read.formulas.map { $0.segment.formula!.source } == ["\n  E = mc^2\n  ", "s", "z"])
        #expect(read.formulas[0].speech == "E equals m c squared")
        let out = try converted(text)
        #expect(out.hasPrefix("---\ntitle: \"Cost $x$\"\n---\nIntro.\n\n    indented code $y = mx + b$ here\n\n> <math alttext=\"E equals m c squared\""))
        #expect(out.contains("</math>\n\n[link](http://example.com/$gamma$) and <http://example.com/?q=$x$> <span title=\"$t$\"><math"))
        // Front matter is only at a document's start; a math link text is prose.
        #expect(processor().process(text: "Top\n---\na: $b$\n---\n[$c$](u)", format: .markdown).formulas.count == 2)
        // A notebook's Markdown cell has its indented code too (and no front matter).
        let notebook = #"{"cells": [{"cell_type": "markdown", "source": ["---\n", "a: $b$\n", "---\n", "\n", "    code $x$\n", "\n", "$y$"]}]}"#
        #expect(processor().process(text: notebook, format: .notebook).formulas.map { $0.segment.formula!.source } == ["b", "y"])
        // `]` and `(` inside a formula are the formula's.
        #expect(processor().process(text: "$f[a](x)$ and $<ab:c>$", format: .markdown).formulas.map { $0.segment.formula!.source }
                == ["f[a](x)", "<ab:c>"])
    }

    /// In text and Markdown only math environments are formulas (`\begin{theorem}` was one); LaTeX
    /// sources keep their list of display environments, the same one.
    @Test func onlyMathEnvironmentsAreFormulas() {
        let text = "\\begin{theorem}For all $x$.\\end{theorem} \\begin{cases}a\\end{cases} \\begin{align}b\\end{align}"
        for format in [DocumentFormat.text, .markdown] {
            let read = processor().process(text: text, format: format)
            #expect(read.formulas.map { $0.segment.formula!.source } == ["x", "\\begin{cases}a\\end{cases}", "\\begin{align}b\\end{align}"])
        }
        #expect(SegmenterOptions().latexMathEnvironments == MathTextScanner.displayEnvironments)
        #expect(MathTextScanner.mathEnvironments.isSuperset(of: ["pmatrix", "cases", "aligned", "equation*", "dmath"]))
        #expect(!MathTextScanner.mathEnvironments.contains("theorem") && !MathTextScanner.mathEnvironments.contains("itemize"))
    }

    /// Link destinations are read in time linear in the text: a destination's parentheses nest at most
    /// 32 deep, `<…>` holds no `<`, a title in parentheses no `(` (CommonMark), so 50,000 `](` are not
    /// each scanned to the end (over two minutes; `![a](` repeated was as slow before links were read).
    @Test func linkDestinationsAreReadInLinearTime() {
        for unit in ["](", "![a](", "](<", "](x (", "[a]("] {
            let text = String(repeating: unit, count: 50_000)
            let started = Date()
            let doc = DocumentSegmenter().segment(text: text, as: .markdown)
            #expect(doc.formulas.isEmpty)
            #expect(Date().timeIntervalSince(started) < 10, "\(unit)")
        }
        let nested = "[a](" + String(repeating: "(", count: 33) + "x" + String(repeating: ")", count: 33) + ") $y$"
        #expect(DocumentSegmenter().segment(text: nested, as: .markdown).formulas.map { $0.formula!.source } == ["y"])
        #expect(DocumentSegmenter().segment(text: "[a](u/(($z$))) $y$", as: .markdown).formulas.map { $0.formula!.source } == ["y"])
    }

    /// Tag names that never end (`<ab:<ab:…`, no white space or `>`): each `<` is not parsed to the end
    /// again (100,000 took 44 s); a formula after them is still found. With a `>` later, HTML reads the
    /// whole run up to it as one start tag (its name `ab:<ab:`, attributes `$y$`, `<span`, `title`), as
    /// before: nothing in it is prose.
    @Test func unclosedTagNamesAreReadInLinearTime() {
        let text = "$x$ " + String(repeating: "<ab:", count: 100_000) + " $y$"
        let started = Date()
        let doc = DocumentSegmenter().segment(text: text, as: .markdown)
        #expect(doc.formulas.map { $0.formula!.source } == ["x", "y"])
        #expect(Date().timeIntervalSince(started) < 10)
        let closed = DocumentSegmenter().segment(text: "<ab:<ab: $y$ <span title=\"$z$\">", as: .markdown)
        #expect(closed.formulas.isEmpty)
    }

    /// MathML in Markdown: `|` (a table's cell separator even inside a tag), the characters Markdown
    /// reads (`*`, `_`, `\`, backtick…) and line breaks (a blank line ends an HTML block) are character
    /// references; the result is one line.
    @Test func markupInMarkdownReadsAsMarkup() throws {
        let table = try converted("| a | b |\n|---|---|\n| $\\lvert x \\rvert$ | $a \\mid b$ |\n")
        let row = table.split(separator: "\n")[2]
        #expect(row.filter { $0 == "|" }.count == 3)
        #expect(row.contains(#"<mo stretchy="false" form="prefix">&#124;</mo>"#))
        let star = try converted("$$\na = b\n\nc = d\n$$\n\nStars $a*b*c$ and $\\{a\\}$.")
        #expect(star.contains("<annotation encoding=\"application/x-tex\">&#10;a = b&#10;&#10;c = d&#10;</annotation>"))
        #expect(star.contains("<annotation encoding=\"application/x-tex\">a&#42;b&#42;c</annotation>"))
        #expect(star.contains("<annotation encoding=\"application/x-tex\">&#92;{a&#92;}</annotation>"))
        #expect(!star.contains("\n\n\n"))
        #expect(star.split(separator: "\n", omittingEmptySubsequences: false).count == 3)
        #expect(DocumentConverter.markdownSafe("<mi title=\"a|b\n\">x_1 `y`</mi>") == "<mi title=\"a&#124;b&#10;\">x&#95;1 &#96;y&#96;</mi>")
        // An HTML page is not Markdown: its MathML keeps the characters.
        #expect(try converted("<p>$a*b$</p>", format: .html).contains("<annotation encoding=\"application/x-tex\">a*b</annotation>"))
    }

    /// A Markdown image's alt escapes what Markdown would read there (`--label tex` wrote `![a*b*c]`,
    /// shown as "abc"; audit --fix's alts go through the same escaping).
    @Test func markdownAltsAreEscaped() throws {
        #expect(DocumentEdit.markdownAltText(#"a*b_c|d`e&f<g~h[i]\ j."#) == #"a\*b\_c\|d\`e\&f\<g\~h\[i\]\\ j."#)
        var md = ConversionOptions()
        md.target = .markdown
        var options = DocumentOptions()
        options.products = [.image]
        options.label = .tex
        let p = DocumentProcessor(options: options, speaker: testSpeaker, imageMaker: FakeImageMaker())
        let out = try DocumentConverter(processor: p, options: md).convert(bytes: Array("$a*b*c$".utf8), format: .markdown)
        #expect(String(decoding: out.bytes, as: UTF8.self).hasPrefix(#"![a\*b\*c](images/"#))
        let image = DocumentSegmenter().segment(text: "![old](x.png)", as: .markdown).elements[0].element!
        #expect(DocumentEdit.setting("alt", to: "x_1 * y", on: image)?.text == #"x\_1 \* y"#)
    }

    /// A Windows-1252 document whose formula needs a character the encoding lacks gets a character
    /// reference (it failed with "cannot be written in the document's encoding").
    @Test func charactersOutsideTheEncodingAreReferences() throws {
        let input: [UInt8] = Array("Caf".utf8) + [0xE9] + Array(" and $\\alpha \\to b$.".utf8)
        var options = DocumentOptions()
        options.products = [.mathML]
        let p = DocumentProcessor(options: options, speaker: testSpeaker)
        let result = try DocumentConverter(processor: p).convert(bytes: input, format: .markdown)
        #expect(result.processed.document.source.encoding == .windows1252)
        #expect(Array(result.bytes.prefix(4)) == [0x43, 0x61, 0x66, 0xE9])
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.contains("<mi>&#x3B1;</mi><mo>&#x2192;</mo>"), "\(text)")
        #expect(!result.bytes.contains { $0 >= 0x80 && $0 != 0xE9 })
        checkTextOutsideFormulasUnchanged(result)
    }
}
