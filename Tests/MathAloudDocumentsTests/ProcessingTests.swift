import Foundation
import MathAloud
import MathAloudDocuments
import Testing

/// One English ClearSpeak speaker for the tests.
let testSpeaker: Speaker = try! Speaker(locale: "en", style: "clearspeak")

func processor(_ configure: (inout DocumentOptions) -> Void = { _ in }) -> DocumentProcessor {
    var options = DocumentOptions()
    configure(&options)
    return DocumentProcessor(options: options, speaker: testSpeaker)
}

func converted(_ text: String, format: DocumentFormat = .markdown, options configure: (inout DocumentOptions) -> Void = { _ in },
               conversion: ConversionOptions = ConversionOptions(), imageMaker: (any FormulaImageMaker)? = nil) throws -> String {
    var options = DocumentOptions()
    configure(&options)
    options.products = DocumentConverter.products(for: conversion)
    let p = DocumentProcessor(options: options, speaker: testSpeaker, imageMaker: imageMaker)
    let converter = DocumentConverter(processor: p, options: conversion)
    return String(decoding: try converter.convert(bytes: Array(text.utf8), format: format).bytes, as: UTF8.self)
}

func markdownConversion() -> ConversionOptions {
    var c = ConversionOptions()
    c.target = .markdown
    return c
}

@Suite("Documents: labels")
struct LabelModeTests {
    @Test func speechIsTheDefaultLabel() {
        let read = processor().process(text: "Area: $\\pi r^2$ and $\\frac{1}{2}$.", format: .markdown)
        #expect(read.formulas.map(\.speech) == ["pi r squared", "one half"])
        #expect(read.formulas.map(\.label) == ["pi r squared", "one half"])
        #expect(read.diagnostics.isEmpty)
    }

    @Test func templates() {
        let read = processor { $0.labelTemplate = "Math: {speech} ({latex})" }.process(text: "$x^2$", format: .text)
        #expect(read.formulas[0].label == "Math: x squared (x^2)")
    }

    @Test func texLabels() {
        let read = processor { $0.label = .tex }.process(text: "$x^2$ <math><semantics><mi>y</mi><annotation encoding=\"application/x-tex\">y</annotation></semantics></math>", format: .markdown)
        #expect(read.formulas.map(\.label) == ["x^2", "y"])
        // Without the spaces inside the delimiters (sweep item 24: `\( y \)` was labelled " y "), in
        // the template's {latex} too.
        let spaced = processor { $0.label = .tex }.process(text: "\\( y \\) and $$\n  z^2\n$$", format: .markdown)
        #expect(spaced.formulas.map(\.label) == ["y", "z^2"])
        let templated = processor { $0.labelTemplate = "{speech} ({latex})" }.process(text: "\\( y \\)", format: .markdown)
        #expect(templated.formulas.map(\.label) == ["y (y)"])
    }

    @Test func noLabels() throws {
        let read = processor { $0.label = .none }.process(text: "$x^2$", format: .text)
        #expect(read.formulas[0].label == nil)
        let html = try converted("$x^2$", options: { $0.label = .none })
        #expect(!html.contains("aria-label"))
        #expect(html.hasPrefix("<math"))
    }

    @Test func customLabels() {
        let read = processor {
            $0.label = .custom { request in "[\(request.notation.rawValue) \(request.source) = \(request.speech); \(request.defaultLabel)]" }
        }.process(text: "$x^2$", format: .text)
        #expect(read.formulas[0].label == "[tex x^2 = x squared; x squared]")
    }

    @Test func numbersArePartOfTheLabel() {
        let read = processor().process(text: "\\begin{equation}E=mc^2\\end{equation}", format: .markdown)
        #expect(read.formulas[0].label == "E equals m c squared, equation 1")
        #expect(read.formulas[0].numbers == ["1"])
    }
}

@Suite("Documents: error modes")
struct ErrorModeTests {
    static let text = "Good $x$ and bad $\\foo{y}$ here."

    @Test func keepSourceLeavesTheFormulaAsWritten() throws {
        let read = processor().process(text: Self.text, format: .markdown)
        #expect(read.formulas[1].hasErrors)
        #expect(read.formulas[1].label == nil)
        let html = try converted(Self.text)
        #expect(html.contains(" and bad $\\foo{y}$ here."))
        #expect(html.hasPrefix("Good <math"))
    }

    @Test func showErrorShowsTheMessageAndTheSource() throws {
        let html = try converted(Self.text, options: { $0.errors = .showError })
        // In Markdown, `$` and `\` of the shown source are character references (Markdown would read them).
        #expect(html.contains(#"<span class="mathaloud-error" role="note"><code>&#36;&#92;foo{y}&#36;</code> <span>unknown command &#92;foo"#))
        let page = try converted("Bad $\\foo{y}$.", format: .html, options: { $0.errors = .showError })
        #expect(page.contains(#"<code>$\foo{y}$</code> <span>unknown command \foo"#))
        let markdown = try converted(Self.text, options: { $0.errors = .showError }, conversion: markdownConversion(),
                                     imageMaker: FakeImageMaker())
        #expect(markdown.contains("`$\\foo{y}$` (unknown command \\foo"))
    }

    @Test func renderDrawsTheErrorsInColour() throws {
        let html = try converted(Self.text, options: { $0.errors = .render(color: "#ff00aa") })
        #expect(html.contains(##"mathcolor="#ff00aa""##))
        #expect(html.contains(#"aria-label="foo y""#))
        #expect(!html.contains("$\\foo"))
    }

    @Test func textIsNeverDropped() throws {
        for mode in [ErrorMode.keepSource, .showError, .render()] {
            let html = try converted("a $\\frac{1}{2$ b $\\foo$ c", options: { $0.errors = mode })
            #expect(html.hasPrefix("a "))
            #expect(html.contains(" b "))
            #expect(html.hasSuffix(" c"))
        }
    }
}

@Suite("Documents: numbering and references")
struct NumberingTests {
    static let text = """
    \\begin{align}
    a &= b \\label{first} \\\\
    c &= d \\nonumber \\\\
    e &= f \\tag{$*$} \\label{star}
    \\end{align}
    \\begin{equation*} g \\end{equation*}
    \\begin{gather} h \\\\ i \\notag \\\\ j \\label{j} \\end{gather}
    $$k \\eqref{first}$$ See \\eqref{first}, \\ref{star}, \\eqref{j} and \\eqref{nowhere}.
    """

    @Test func amsNumbering() {
        let read = processor().process(text: Self.text, format: .markdown)
        #expect(read.formulas.map(\.numbers) == [["1", "$*$"], [], ["2", "3"], []])
        #expect(read.formulas[0].drawnSource.contains("\\begin{align*}"))
        #expect(read.formulas[0].drawnSource.contains("\\tag{1}"))
        #expect(read.formulas[2].label?.hasSuffix("equations 2 and 3") == true)
        // \eqref in a formula is resolved in its TeX.
        #expect(read.formulas[3].drawnSource == "k \\eqref{1}")
        #expect(read.references.map(\.shown) == ["(1)", "*", "(3)", "\\eqref{nowhere}"])
        #expect(read.references.map(\.spoken) == ["equation 1", "equation star", "equation 3", "nowhere"])
        #expect(read.diagnostics.map(\.id) == ["document.unresolved-reference"])
    }

    @Test func startAndScope() {
        let all = processor { $0.numbering = EquationNumbering(scope: .all, start: 7) }
            .process(text: "$$x$$ \\[y\\] $z$ \\begin{align*}w\\end{align*}", format: .markdown)
        #expect(all.formulas.map(\.numbers) == [["7"], ["8"], [], []])
        let none = processor { $0.numbering.scope = .none }.process(text: Self.text, format: .markdown)
        #expect(none.formulas.map(\.numbers) == [["$*$"], [], [], []])
    }

    @Test func referencesInConvertedText() throws {
        let html = try converted(Self.text)
        #expect(html.contains(##"See <a href="#mathaloud-eq-1" aria-label="equation 1">(1)</a>"##))
        #expect(html.contains("\\eqref{nowhere}"))
        #expect(html.contains(#"<math id="mathaloud-eq-1""#))
    }

    @Test func numbersOnTheLeftComeFirstInTheRow() {
        let read = processor { $0.numbering.side = .left }.process(text: "\\begin{equation}x\\end{equation}", format: .markdown)
        let mathML = read.formulas[0].mathML ?? ""
        #expect(mathML.contains("<mtr><mtd><mrow><mtext>(1)</mtext></mrow></mtd><mtd><mi>x</mi>"))
        #expect(mathML.contains(#"columnalign="left"#))
    }

    @Test func latexPreambleAndLabelsAcrossTheDocument() {
        let text = #"\newcommand{\R}{\mathbb{R}} \begin{document} \begin{equation}\label{e} x\in\R \end{equation} by \eqref{e}"#
        let read = processor().process(text: text, format: .latex)
        #expect(read.formulas[0].speech == "x is a member of the real numbers")
        #expect(read.formulas[0].label == "x is a member of the real numbers, equation 1")
        #expect(read.references.first?.spoken == "equation 1")
    }
}

@Suite("Documents: macros, display, limits")
struct MacroAndLimitTests {
    @Test func globalMacrosAndDefinitions() {
        let read = processor {
            $0.macros = ["\\RR": "\\mathbb{R}"]
            $0.definitions = "\\DeclareMathOperator{\\tr}{tr}"
        }.process(text: "$\\RR$ and $\\tr A$", format: .text)
        #expect(read.formulas.map(\.speech) == ["the real numbers", "trace of A"])
    }

    @Test func definitionsInAFormulaHoldForTheNextOnes() {
        let text = "$\\newcommand{\\Rb}{\\mathbb{R}}$ then $x\\in\\Rb$."
        #expect(processor().process(text: text, format: .markdown).formulas[1].speech == "x is a member of the real numbers")
        let local = processor { $0.keepsDefinitions = false }.process(text: text, format: .markdown)
        #expect(local.formulas[1].hasErrors)
    }

    @Test func displayModes() {
        let text = "$\\sum_{i=1}^n i$ and $$x$$"
        #expect(processor().process(text: text, format: .text).formulas.map(\.display) == [false, true])
        let display = processor { $0.displayMode = .display }.process(text: text, format: .text)
        #expect(display.formulas.map(\.display) == [true, true])
        #expect(display.formulas[0].mathML?.contains(#"display="block""#) == true)
        #expect(processor { $0.displayMode = .inline }.process(text: text, format: .text).formulas.map(\.display) == [false, false])
    }

    @Test func maxExpandAndMaxSize() {
        let expand = processor { $0.limits.maxExpansions = 50 }.process(text: "$\\def\\a{\\a x}\\a$", format: .text)
        #expect(expand.diagnostics.map(\.id).contains("tex.expansion-limit"))
        let size = processor { $0.limits.maxSize = 10 }.process(text: "$a\\rule{100em}{1em}\\kern-50em b\\hspace{3em}$", format: .text)
        #expect(size.diagnostics.map(\.id) == ["tex.size-capped", "tex.size-capped"])
        #expect(size.formulas[0].mathML?.contains(#"width="10em""#) == true)
        #expect(processor().process(text: "$\\rule{100em}{1em}$", format: .text).diagnostics.isEmpty)
    }

    /// KaTeX's `trust`: off by default, so an untrusted `\href{javascript:…}` is refused with a
    /// diagnostic and its content is still read; trusted links keep only the safe URL schemes.
    @Test func trustPolicy() throws {
        let text = "See $\\href{javascript:alert(1)}{x} + 1$."
        let read = processor().process(text: text, format: .markdown)
        #expect(read.diagnostics.map(\.id) == [.texUntrustedCommand])
        #expect(read.formulas[0].label == "x plus 1")
        #expect(read.formulas[0].mathML?.contains("href=") == false)
        let html = try converted(text)
        #expect(!html.contains(#"href="javascript"#) && html.contains(#"aria-label="x plus 1""#))
        // Trusted: an https link stays; javascript: is still refused.
        let trusted = try converted("$\\href{https://example.org}{x}$", options: { $0.trust = .trusted })
        #expect(trusted.contains(#"<mrow href="https://example.org">"#))
        let refused = processor { $0.trust = .trusted }.process(text: text, format: .markdown)
        #expect(refused.diagnostics.map(\.id) == [.texUntrustedCommand])
        #expect(refused.formulas[0].mathML?.contains("href=") == false)
        // Only the commands listed are trusted.
        let classes = processor { $0.trust = TrustPolicy(allowed: [.links]) }.process(text: "$\\htmlClass{a}{x}$", format: .markdown)
        #expect(classes.diagnostics.map(\.id) == [.texUntrustedCommand])
    }
}

/// An image maker for tests: a tiny SVG naming the label.
struct FakeImageMaker: FormulaImageMaker {
    func image(of formula: ParsedFormula, request: FormulaImageRequest) -> FormulaImage? {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"><title>\(request.label)</title></svg>"
        return FormulaImage(format: .svg, data: Array(svg.utf8), width: 10, height: 12, verticalAlign: "-2px")
    }
}

