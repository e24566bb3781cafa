import Foundation
import MathAloud
import MathAloudDocuments
import MathAloudDocumentsRender
import MathAloudRender
import Testing

/// Every byte of the input outside the converter's edits (formulas, references, the attributes set on
/// `<math>` elements) is in the output, in order: the text outside formulas is unchanged.
func checkTextOutsideFormulasUnchanged(_ converted: ConvertedDocument, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let input = converted.processed.document.source.bytes
    let output = converted.bytes
    let edits = converted.edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
    var inPosition = 0, outPosition = 0
    let formulaRanges = converted.processed.formulas.map(\.segment.range) + converted.processed.references.map(\.range)
    for edit in edits {
        // Only formulas, references and insertions into a <math> start tag are edited (and, in text
        // written as HTML, the prose is escaped: ConversionTests.textBecomesHTML checks it).
        let allowed = formulaRanges.contains { $0.lowerBound <= edit.range.lowerBound && edit.range.upperBound <= $0.upperBound }
            || converted.processed.document.format == .text
        #expect(allowed, "edit at \(edit.range) is outside every formula", sourceLocation: sourceLocation)
        let unchanged = input[inPosition..<edit.range.lowerBound]
        #expect(Array(output[outPosition..<(outPosition + unchanged.count)]) == Array(unchanged),
                "text before \(edit.range) changed", sourceLocation: sourceLocation)
        outPosition += unchanged.count
        let written = converted.processed.document.source.encodeAsMarkup(edit.embedding.escape(edit.text))
        #expect(Array(output[outPosition..<(outPosition + written.count)]) == written, sourceLocation: sourceLocation)
        outPosition += written.count
        inPosition = edit.range.upperBound
    }
    #expect(Array(output[outPosition...]) == Array(input[inPosition...]), sourceLocation: sourceLocation)
}

func convert(_ text: String, _ format: DocumentFormat, conversion: ConversionOptions = ConversionOptions(),
             imageMaker: (any FormulaImageMaker)? = nil) throws -> ConvertedDocument {
    var options = DocumentOptions()
    options.products = DocumentConverter.products(for: conversion)
    let p = DocumentProcessor(options: options, speaker: testSpeaker, imageMaker: imageMaker)
    let result = try DocumentConverter(processor: p, options: conversion).convert(bytes: Array(text.utf8), format: format)
    checkTextOutsideFormulasUnchanged(result)
    return result
}

let sharedRenderer: Renderer = try! Renderer(options: RenderOptions(), speaker: testSpeaker)

@Suite("Documents: conversion")
struct ConversionTests {
    /// `--relabel` reads each `<math>` from its MathML: a wrong label is replaced by what the formula
    /// says, not copied into the attribute it lacked.
    @Test func relabellingReadsTheMathML() throws {
        let page = #"<p><math aria-label="y cubed"><msup><mi>x</mi><mn>2</mn></msup></math></p>"#
        var conversion = ConversionOptions()
        conversion.relabelExisting = true
        var options = DocumentOptions()
        options.readsAuthorLabels = false
        let p = DocumentProcessor(options: options, speaker: testSpeaker)
        let result = try DocumentConverter(processor: p, options: conversion).convert(bytes: Array(page.utf8), format: .html)
        let out = String(decoding: result.bytes, as: UTF8.self)
        #expect(out.contains(#"aria-label="x squared""#) && out.contains(#"alttext="x squared""#), "\(out)")
        // Without --relabel, the author's words stay and fill the attribute that is missing.
        let kept = String(decoding: try convert(page, .html).bytes, as: UTF8.self)
        #expect(kept.contains(#"alttext="y cubed""#), "\(kept)")
    }

    /// Binary input (a zip such as an EPUB, an image) is refused, with nothing converted.
    /// A LaTeX definition is not a formula (sweep item 12: the body of `\newcommand{\half}{$\frac12$}`
    /// was converted, and `#1` in a body gave a false error); only the document's math is read. And
    /// LaTeX is not converted (sweep item 22: the output was LaTeX with `<math>` elements in it).
    @Test func latexDefinitionsAreNotFormulasAndLatexIsNotConverted() throws {
        let input = "\\newcommand{\\half}{$\\frac12$}\n\\newcommand{\\sub}[1]{$_{#1}$}\nText $a$.\n"
        let processor = DocumentProcessor(options: DocumentOptions(), speaker: testSpeaker)
        let processed = processor.process(bytes: Array(input.utf8), format: .latex)
        #expect(processed.formulas.map(\.segment.range) == [SourceRange(input.utf8.count - 5, input.utf8.count - 2)])
        #expect(processed.diagnostics.isEmpty, "\(processed.diagnostics)")
        #expect(throws: ConversionError.self) { try DocumentConverter(processor: processor).convert(processed) }
        do {
            _ = try DocumentConverter(processor: processor).convert(processed)
        } catch {
            #expect(error.description.hasPrefix("convert does not write LaTeX: MathML or images in a .tex file would make it neither LaTeX nor HTML"))
        }
    }

    /// Text becomes HTML (sweep item 22: raw MathML went into plain text and the text's own `<b>` and
    /// `&` were not escaped, so the output was neither text nor HTML): the prose escaped, in a block
    /// that keeps its lines.
    @Test func textBecomesHTML() throws {
        let result = try convert("Plain <b>text</b> & $x$.\nLine 2\n", .text)
        let output = String(decoding: result.bytes, as: UTF8.self)
        #expect(output.hasPrefix("<div class=\"mathaloud-text\" style=\"white-space:pre-wrap\">Plain &lt;b&gt;text&lt;/b&gt; &amp; <math alttext=\"x\""), "\(output)")
        #expect(output.hasSuffix("</math>.\nLine 2\n</div>\n"), "\(output)")
    }

    @Test func binaryInputIsRefused() throws {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00] + Array("$x$".utf8)
        let p = DocumentProcessor(options: DocumentOptions(), speaker: testSpeaker)
        #expect(throws: ConversionError.self) {
            _ = try DocumentConverter(processor: p).convert(bytes: zip, format: .markdown)
        }
    }

    @Test func htmlPageWithMathJaxDelimitersAndMathElements() throws {
        let page = """
        <!DOCTYPE html><html><head><title>$t$</title><script>MathJax = {tex: {inlineMath: [['$', '$']]}};</script></head>
        <body><p>Let \\(x^2\\) and $y_1$.</p><pre>$not$</pre>
        <p><math display="block"><mfrac><mn>1</mn><mn>2</mn></mfrac></math> <math alttext="kept"><mi>z</mi></math></p>
        </body></html>
        """
        let result = try convert(page, .html)
        let out = String(decoding: result.bytes, as: UTF8.self)
        #expect(result.formulaCount == 4)
        #expect(result.labelledCount == 4)
        #expect(out.contains(#"<math alttext="x squared" aria-label="x squared""#))
        #expect(out.contains(#"<math alttext="y sub 1" aria-label="y sub 1""#))
        #expect(out.contains(#"<math display="block" alttext="one half" aria-label="one half"><mfrac>"#))
        #expect(out.contains(#"<math alttext="kept" aria-label="kept"><mi>z</mi></math>"#))
        #expect(out.contains("<pre>$not$</pre>"))
        #expect(out.contains("<title>$t$</title>"))
    }

    @Test func inlineSVGAndImages() throws {
        var svg = ConversionOptions()
        svg.mathStyle = .svg
        let maker = RendererImageMaker(renderer: sharedRenderer)
        let a = try convert("Let $x^2$ be.", .markdown, conversion: svg, imageMaker: maker)
        let out = String(decoding: a.bytes, as: UTF8.self)
        #expect(out.hasPrefix("Let <svg"))
        #expect(out.contains(#"role="img""#))
        #expect(out.contains("<title id=\"mathaloud-f1-title\">x squared</title>"))
        #expect(out.contains("vertical-align:-"))
        var img = ConversionOptions()
        img.mathStyle = .img
        let b = try convert("Let $x^2$ and $$y$$.", .markdown, conversion: img, imageMaker: maker)
        // Each image is named by its content's SHA-256 (ContentHashTests checks the digest); the names
        // are not written here, so that a change of what an SVG holds does not break this test.
        let paths = b.assets.map(\.path)
        #expect(paths.count == 2 && Set(paths).count == 2)
        #expect(paths.allSatisfy { $0.hasPrefix("images/") && $0.hasSuffix(".svg") && $0.utf8.count == 7 + 20 + 4 })
        let imgOut = String(decoding: b.bytes, as: UTF8.self)
        #expect(imgOut.contains(#"<img src="\#(paths.first ?? "")" alt="x squared" width="#))
        #expect(imgOut.contains(#"style="vertical-align:-"#))
        img.inlineImages = true
        let c = try convert("Let $x$.", .markdown, conversion: img, imageMaker: maker)
        #expect(c.assets.isEmpty)
        #expect(String(decoding: c.bytes, as: UTF8.self).contains("src=\"data:image/svg+xml;base64,"))
    }

    @Test func markdownImages() throws {
        var md = ConversionOptions()
        md.target = .markdown
        md.imageFormat = .png
        let result = try convert("A [link](x) and $a_{[1]}$ with `$code$`.", .markdown, conversion: md, imageMaker: FakeImageMaker())
        #expect(String(decoding: result.bytes, as: UTF8.self) == "A [link](x) and ![a sub, open bracket, 1, close bracket](images/152f347f5490de006e3c.svg) with `$code$`.")
        var options = DocumentOptions()
        options.products = [.image]
        options.labelTemplate = "[{speech}] \\ {latex}"
        let p = DocumentProcessor(options: options, speaker: testSpeaker, imageMaker: FakeImageMaker())
        let escaped = try DocumentConverter(processor: p, options: md).convert(bytes: Array("$x$".utf8), format: .markdown)
        #expect(String(decoding: escaped.bytes, as: UTF8.self) == "![\\[x\\] \\\\ x](images/70f6839baa1e166fca6d.svg)")
    }

    /// An image file is named by its content (the first 20 hex digits of its SHA-256): two documents
    /// converted into one folder never overwrite each other's images (they both wrote `images/f1.svg`),
    /// and a formula written twice is one file.
    @Test func imageFilesAreNamedByTheirContent() throws {
        var md = ConversionOptions()
        md.target = .markdown
        // The fake maker's SVG of "x" and "y": SHA-256 9b4c4f1f5f26de70599a… and 92e68bd57d6516a58e85…
        let a = try convert("$x$ and $x$.", .markdown, conversion: md, imageMaker: FakeImageMaker())
        let b = try convert("$y$.", .markdown, conversion: md, imageMaker: FakeImageMaker())
        #expect(String(decoding: a.bytes, as: UTF8.self) == "![x](images/9b4c4f1f5f26de70599a.svg) and ![x](images/9b4c4f1f5f26de70599a.svg).")
        #expect(a.assets.map(\.path) == ["images/9b4c4f1f5f26de70599a.svg"])
        #expect(b.assets.map(\.path) == ["images/92e68bd57d6516a58e85.svg"])
        #expect(String(decoding: a.assets[0].data, as: UTF8.self).contains("<title>x</title>"))
    }

    @Test func noImageMakerIsAnError() {
        var img = ConversionOptions()
        img.mathStyle = .img
        #expect(throws: ConversionError.self) { try convert("$x$", .markdown, conversion: img) }
    }

    @Test func notebooksStayValidJSON() throws {
        let notebook = #"""
        {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["Energy \"E\": $E=mc^2$\n", "$$\\frac{a}{b}$$"]},
                   {"cell_type": "code", "metadata": {}, "source": ["print('$x$')"], "outputs": [], "execution_count": null}],
         "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        """#
        let result = try convert(notebook, .notebook)
        let object = try JSONSerialization.jsonObject(with: Data(result.bytes)) as? [String: Any]
        let cells = object?["cells"] as? [[String: Any]]
        let markdown = (cells?[0]["source"] as? [String])?.joined() ?? ""
        #expect(markdown.hasPrefix("Energy \"E\": <math alttext=\"E equals m c squared\""))
        #expect(markdown.contains("alttext=\"a over b\""))
        #expect((cells?[1]["source"] as? [String]) == ["print('$x$')"])
    }

    @Test func crlfAndBOMAreKept() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a $x$\r\nb\r\n".utf8)
        var options = DocumentOptions()
        options.products = [.mathML]
        let result = try DocumentConverter(processor: DocumentProcessor(options: options, speaker: testSpeaker))
            .convert(bytes: bytes, format: .text)
        checkTextOutsideFormulasUnchanged(result)
        // Text is written as HTML: the block starts after the byte order mark and ends in CRLF.
        let start = Array(DocumentConverter.textAsHTMLStart.utf8)
        #expect(Array(result.bytes.prefix(5 + start.count)) == [0xEF, 0xBB, 0xBF] + start + [0x61, 0x20])
        #expect(Array(result.bytes.suffix(13)) == [0x0D, 0x0A, 0x62, 0x0D, 0x0A] + Array("</div>\r\n".utf8))
    }
}

@Suite("Documents: cache")
struct CacheTests {
    @Test func hitsMissesAndPreload() {
        let cache = FormulaCache(capacity: 100)
        var options = DocumentOptions()
        options.products = [.mathML]
        let p = DocumentProcessor(options: options, speaker: testSpeaker, cache: cache)
        p.preload([("x^2", false), ("\\frac12", true)])
        #expect(cache.statistics.misses == 2)
        let read = p.process(text: "$x^2$ $x^2$ $$\\frac12$$ $y$", format: .text)
        #expect(read.formulas.map(\.speech) == ["x squared", "x squared", "one half", "y"])
        let stats = cache.statistics
        #expect(stats.hits == 3)
        #expect(stats.misses == 3)
        #expect(stats.entries == 3)
        #expect(p.statistics.formulasAnalysed == 3)
        #expect(stats.description.contains("50.0 %"))
    }

    @Test func boundedAndThreadSafe() {
        let cache = FormulaCache(capacity: 8)
        var options = DocumentOptions()
        options.products = []
        let p = DocumentProcessor(options: options, speaker: testSpeaker, cache: cache)
        let texts = (0..<64).map { i in (0..<20).map { "$x_{\(($0 * 7 + i) % 30)}$" }.joined(separator: " ") }
        DispatchQueue.concurrentPerform(iterations: texts.count) { i in
            let read = p.process(text: texts[i], format: .text)
            precondition(read.formulas.count == 20)
        }
        let stats = cache.statistics
        #expect(stats.entries == 8)
        #expect(stats.hits + stats.misses == 64 * 20)
        #expect(p.process(text: "$x_{3}$", format: .text).formulas[0].speech == "x sub 3")
    }
}
