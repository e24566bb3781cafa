import Foundation
import MathSyntax
import MathTeX
import Testing

// MARK: - Helpers

/// A text segment.
private func text(_ string: String, _ lo: Int, _ hi: Int) -> MathTextSegment {
    .text(string, range: SourceRange(lo, hi))
}

/// A math segment whose TeX is the input in `content` (no entity decoding).
private func math(_ tex: String, _ delimiter: String, display: Bool = false,
                  _ lo: Int, _ hi: Int, content: (Int, Int)) -> MathTextSegment {
    .math(MathFragment(tex: tex, display: display, delimiter: delimiter, range: SourceRange(lo, hi),
                       contentRange: SourceRange(content.0, content.1)))
}

/// A diagnostic reduced to what the tests pin: id, severity and range.
private struct Expected: Hashable, CustomStringConvertible {
    var id: String
    var severity: Diagnostic.Severity
    var range: SourceRange?
    var description: String { "\(id)@\(range.map(\.description) ?? "-")" }

    init(_ id: String, _ severity: Diagnostic.Severity, _ lo: Int, _ hi: Int) {
        self.id = id
        self.severity = severity
        self.range = SourceRange(lo, hi)
    }

    init(_ diagnostic: Diagnostic) {
        id = diagnostic.id.rawValue
        severity = diagnostic.severity
        range = diagnostic.range
    }
}

private func unclosed(_ lo: Int, _ hi: Int) -> Expected { Expected("text.unclosed-math", .warning, lo, hi) }

/// The segments tile the input, text is never empty nor adjacent to text, and (without decoding) every
/// string is the input in its range.
private func checkInvariants(_ input: String, _ scan: MathTextScan, decoded: Bool = false,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let source = SourceText(input)
    var offset = 0
    var previousWasText = false
    for segment in scan.segments {
        #expect(segment.range.lowerBound == offset, "gap or overlap at \(offset)", sourceLocation: sourceLocation)
        offset = segment.range.upperBound
        switch segment {
        case .text(let string, let range):
            #expect(!previousWasText, "adjacent text segments at \(range)", sourceLocation: sourceLocation)
            #expect(range.count > 0, sourceLocation: sourceLocation)
            if !decoded { #expect(string == source[range], sourceLocation: sourceLocation) }
            previousWasText = true
        case .math(let fragment):
            #expect(fragment.range.lowerBound <= fragment.contentRange.lowerBound, sourceLocation: sourceLocation)
            #expect(fragment.contentRange.upperBound <= fragment.range.upperBound, sourceLocation: sourceLocation)
            if !decoded { #expect(fragment.tex == source[fragment.contentRange], sourceLocation: sourceLocation) }
            previousWasText = false
        }
    }
    #expect(offset == input.utf8.count, "segments end at \(offset)", sourceLocation: sourceLocation)
}

// MARK: - Table

struct ScannerCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var segments: [MathTextSegment]
    fileprivate var diagnostics: [Expected] = []
    var dollars = true
    var markdownCode = true
    var testDescription: String { name }
}

private let cases: [ScannerCase] = [
    // Plain text and the basic delimiters.
    ScannerCase(name: "empty input", input: "", segments: []),
    ScannerCase(name: "no math", input: "no math here", segments: [text("no math here", 0, 12)]),
    ScannerCase(name: "inline dollar alone", input: "$x$", segments: [math("x", "$", 0, 3, content: (1, 2))]),
    ScannerCase(name: "inline dollar in text", input: "a $x^2$ b",
                segments: [text("a ", 0, 2), math("x^2", "$", 2, 7, content: (3, 6)), text(" b", 7, 9)]),
    ScannerCase(name: "display dollars", input: #"$$\frac12$$"#,
                segments: [math(#"\frac12"#, "$$", display: true, 0, 11, content: (2, 9))]),
    ScannerCase(name: "inline parens", input: #"\(a+b\)"#,
                segments: [math("a+b", #"\("#, 0, 7, content: (2, 5))]),
    ScannerCase(name: "display brackets in text", input: #"see \[x\] now"#,
                segments: [text("see ", 0, 4), math("x", #"\["#, display: true, 4, 9, content: (6, 7)),
                           text(" now", 9, 13)]),
    ScannerCase(name: "two formulas and text between", input: #"$a$, \(b\)."#,
                segments: [math("a", "$", 0, 3, content: (1, 2)), text(", ", 3, 5),
                           math("b", #"\("#, 5, 10, content: (7, 8)), text(".", 10, 11)]),
    ScannerCase(name: "display then inline, touching", input: "$$x$$$y$",
                segments: [math("x", "$$", display: true, 0, 5, content: (2, 3)), math("y", "$", 5, 8, content: (6, 7))]),
    ScannerCase(name: "non-ASCII text around math", input: "é $α$ ü",
                segments: [text("é ", 0, 3), math("α", "$", 3, 7, content: (4, 6)), text(" ü", 7, 10)]),

    // Environments.
    ScannerCase(name: "equation environment kept whole", input: #"\begin{equation}E=mc^2\end{equation}"#,
                segments: [math(#"\begin{equation}E=mc^2\end{equation}"#, "equation", display: true, 0, 36, content: (0, 36))]),
    ScannerCase(name: "starred environment", input: #"\begin{align*}a&=b\end{align*}"#,
                segments: [math(#"\begin{align*}a&=b\end{align*}"#, "align*", display: true, 0, 30, content: (0, 30))]),
    ScannerCase(name: "nested same-name environments", input: #"\begin{array}{c}\begin{array}{c}x\end{array}\end{array}"#,
                segments: [math(#"\begin{array}{c}\begin{array}{c}x\end{array}\end{array}"#, "array", display: true,
                                0, 55, content: (0, 55))]),
    ScannerCase(name: "math environment gives its content, inline", input: #"\begin{math}x\end{math}"#,
                segments: [math("x", "math", 0, 23, content: (12, 13))]),
    ScannerCase(name: "displaymath environment gives its content", input: #"\begin{displaymath}y\end{displaymath}"#,
                segments: [math("y", "displaymath", display: true, 0, 37, content: (19, 20))]),
    ScannerCase(name: "environment inside dollars belongs to the dollars", input: #"$\begin{matrix}a\end{matrix}$"#,
                segments: [math(#"\begin{matrix}a\end{matrix}"#, "$", 0, 29, content: (1, 28))]),
    ScannerCase(name: "unclosed outer environment, closed inner one", input: #"\begin{x}\begin{x}y\end{x}"#,
                segments: [text(#"\begin{x}"#, 0, 9), math(#"\begin{x}y\end{x}"#, "x", display: true, 9, 26, content: (9, 26))],
                diagnostics: [unclosed(0, 9)]),
    ScannerCase(name: "environment names are letters and stars only", input: #"\begin{eq2}x\end{eq2}"#,
                segments: [text(#"\begin{eq2}x\end{eq2}"#, 0, 21)]),
    ScannerCase(name: "display environment may span a blank line", input: "\\begin{align}a\n\nb\\end{align}",
                segments: [math("\\begin{align}a\n\nb\\end{align}", "align", display: true, 0, 28, content: (0, 28))]),

    // Dollar heuristics.
    ScannerCase(name: "amounts of money", input: "costs $5 and $10", segments: [text("costs $5 and $10", 0, 16)]),
    ScannerCase(name: "escaped dollars stay as written", input: #"\$5 and \$10"#, segments: [text(#"\$5 and \$10"#, 0, 12)]),
    ScannerCase(name: "escaped dollar inside math", input: #"$a\$b$"#, segments: [math(#"a\$b"#, "$", 0, 6, content: (1, 5))]),
    ScannerCase(name: "opener followed by space is not an opener", input: "$ x$", segments: [text("$ x$", 0, 4)]),
    ScannerCase(name: "opener followed by a newline is not an opener", input: "$\nx$", segments: [text("$\nx$", 0, 4)]),
    ScannerCase(name: "closer preceded by space rejects the opener", input: "$x $y$",
                segments: [text("$x ", 0, 3), math("y", "$", 3, 6, content: (4, 5))]),
    ScannerCase(name: "closer followed by a digit rejects the opener", input: "$x$5", segments: [text("$x$5", 0, 4)]),
    ScannerCase(name: "money then math in the same sentence", input: "pay $5, or $x$",
                segments: [text("pay $5, or ", 0, 11), math("x", "$", 11, 14, content: (12, 13))]),
    ScannerCase(name: "dollar at the end", input: "a $", segments: [text("a $", 0, 3)]),
    ScannerCase(name: "dollars inside braces do not close", input: #"$\text{a $b$ c}$"#,
                segments: [math(#"\text{a $b$ c}"#, "$", 0, 16, content: (1, 15))]),
    ScannerCase(name: "lone dollar inside braces", input: #"$\text{$}$"#,
                segments: [math(#"\text{$}"#, "$", 0, 10, content: (1, 9))]),
    ScannerCase(name: "escaped braces do not count", input: #"$\{$ x $\}$"#,
                segments: [math(#"\{"#, "$", 0, 4, content: (1, 3)), text(" x ", 4, 7), math(#"\}"#, "$", 7, 11, content: (8, 10))]),
    ScannerCase(name: "a stray closing brace does not block the closer", input: "$a}$ b",
                segments: [math("a}", "$", 0, 4, content: (1, 3)), text(" b", 4, 6)]),
    // The warning names the brace as the cause (at the brace), and the `$` it kept from closing is not
    // warned about again as an opener.
    ScannerCase(name: "an unclosed brace blocks the closers after it", input: "${x$ and $y$",
                segments: [text("${x$ and ", 0, 9), math("y", "$", 9, 12, content: (10, 11))],
                diagnostics: [Expected("text.unclosed-brace", .warning, 1, 2)]),
    ScannerCase(name: "dollars off", input: #"$x$ and \(y\)"#,
                segments: [text("$x$ and ", 0, 8), math("y", #"\("#, 8, 13, content: (10, 11))], dollars: false),
    ScannerCase(name: "dollars off: double dollars are text too", input: "$$x$$", segments: [text("$$x$$", 0, 5)], dollars: false),

    // Blank lines and unclosed delimiters.
    ScannerCase(name: "a dollar never pairs across a blank line", input: "price $5 today\n\nNext paragraph $x$",
                segments: [text("price $5 today\n\nNext paragraph ", 0, 31), math("x", "$", 31, 34, content: (32, 33))]),
    ScannerCase(name: "inline dollar cut by a blank line", input: "$x\n\ny$", segments: [text("$x\n\ny$", 0, 6)],
                diagnostics: [unclosed(0, 1)]),
    ScannerCase(name: "inline dollar cut by a blank line with CRLF and spaces", input: "$x\r\n \t\r\ny$",
                segments: [text("$x\r\n \t\r\ny$", 0, 10)], diagnostics: [unclosed(0, 1)]),
    ScannerCase(name: "inline dollar may span one line break", input: "$a\nb$",
                segments: [math("a\nb", "$", 0, 5, content: (1, 4))]),
    ScannerCase(name: "inline parens cut by a blank line", input: "\\(x\n\ny\\)", segments: [text("\\(x\n\ny\\)", 0, 8)],
                diagnostics: [unclosed(0, 2)]),
    ScannerCase(name: "math environment cut by a blank line", input: "\\begin{math}x\n\ny\\end{math}",
                segments: [text("\\begin{math}x\n\ny\\end{math}", 0, 26)], diagnostics: [unclosed(0, 12)]),
    ScannerCase(name: "display dollars span a blank line", input: "$$x\n\ny$$",
                segments: [math("x\n\ny", "$$", display: true, 0, 8, content: (2, 6))]),
    ScannerCase(name: "display brackets span lines", input: "\\[\na\n=b\n\\]",
                segments: [math("\na\n=b\n", #"\["#, display: true, 0, 10, content: (2, 8))]),
    ScannerCase(name: "unclosed display dollars", input: "a $$x", segments: [text("a $$x", 0, 5)],
                diagnostics: [unclosed(2, 4)]),
    ScannerCase(name: "unclosed display dollars do not swallow later math", input: "$$x and \\(y\\)",
                segments: [text("$$x and ", 0, 8), math("y", #"\("#, 8, 13, content: (10, 11))], diagnostics: [unclosed(0, 2)]),
    ScannerCase(name: "unclosed brackets", input: #"\[x"#, segments: [text(#"\[x"#, 0, 3)], diagnostics: [unclosed(0, 2)]),
    ScannerCase(name: "unclosed environment", input: #"\begin{equation} x"#, segments: [text(#"\begin{equation} x"#, 0, 18)],
                diagnostics: [unclosed(0, 16)]),
    ScannerCase(name: "unclosed dollar, streaming", input: "The value is $x^2 + ",
                segments: [text("The value is $x^2 + ", 0, 20)], diagnostics: [unclosed(13, 14)]),
    ScannerCase(name: "several unclosed openers, in order", input: #"\( $x \["#,
                segments: [text(#"\( $x \["#, 0, 8)], diagnostics: [unclosed(0, 2), unclosed(3, 4), unclosed(6, 8)]),
    ScannerCase(name: "stray closers are text", input: #"x \) y \] z \end{equation}"#,
                segments: [text(#"x \) y \] z \end{equation}"#, 0, 26)]),
    ScannerCase(name: "escaped backslash before a parenthesis", input: #"\\(x\\)"#, segments: [text(#"\\(x\\)"#, 0, 7)]),

    // Empty math is text.
    ScannerCase(name: "four dollars", input: "$$$$", segments: [text("$$$$", 0, 4)]),
    ScannerCase(name: "blank display dollars", input: "a $$ $$ b", segments: [text("a $$ $$ b", 0, 9)]),
    ScannerCase(name: "empty parens", input: #"\(\)"#, segments: [text(#"\(\)"#, 0, 4)]),
    ScannerCase(name: "blank brackets", input: #"\[ \]"#, segments: [text(#"\[ \]"#, 0, 5)]),
    ScannerCase(name: "blank math environment", input: #"\begin{math} \end{math}"#, segments: [text(#"\begin{math} \end{math}"#, 0, 23)]),
    ScannerCase(name: "empty equation environment is still math", input: #"\begin{equation}\end{equation}"#,
                segments: [math(#"\begin{equation}\end{equation}"#, "equation", display: true, 0, 30, content: (0, 30))]),
    ScannerCase(name: "empty math then real math", input: "$$$$ $x$",
                segments: [text("$$$$ ", 0, 5), math("x", "$", 5, 8, content: (6, 7))]),

    // Markdown code.
    ScannerCase(name: "code span is not scanned", input: "`$x$` and $y$",
                segments: [text("`$x$` and ", 0, 10), math("y", "$", 10, 13, content: (11, 12))]),
    ScannerCase(name: "double-backtick span holding a single backtick", input: "`` a ` $x$ ``",
                segments: [text("`` a ` $x$ ``", 0, 13)]),
    ScannerCase(name: "unmatched backtick is literal", input: "`a $x$",
                segments: [text("`a ", 0, 3), math("x", "$", 3, 6, content: (4, 5))]),
    ScannerCase(name: "code span does not cross a blank line", input: "`a\n\nb` $x$",
                segments: [text("`a\n\nb` ", 0, 7), math("x", "$", 7, 10, content: (8, 9))]),
    ScannerCase(name: "escaped backtick opens nothing", input: #"\`$x$`"#,
                segments: [text(#"\`"#, 0, 2), math("x", "$", 2, 5, content: (3, 4)), text("`", 5, 6)]),
    ScannerCase(name: "fenced block is not scanned", input: "```\n$x$\n```\n$y$",
                segments: [text("```\n$x$\n```\n", 0, 12), math("y", "$", 12, 15, content: (13, 14))]),
    ScannerCase(name: "fenced block with info string and longer closing fence", input: "```tex\n$x$\n`````\n$y$",
                segments: [text("```tex\n$x$\n`````\n", 0, 17), math("y", "$", 17, 20, content: (18, 19))]),
    ScannerCase(name: "tilde fence", input: "~~~\n$x$\n~~~\n$y$",
                segments: [text("~~~\n$x$\n~~~\n", 0, 12), math("y", "$", 12, 15, content: (13, 14))]),
    ScannerCase(name: "indented fence (three spaces)", input: "   ```\n$x$\n   ```\n$y$",
                segments: [text("   ```\n$x$\n   ```\n", 0, 18), math("y", "$", 18, 21, content: (19, 20))]),
    ScannerCase(name: "unclosed fence runs to the end", input: "```tex\n$x$", segments: [text("```tex\n$x$", 0, 10)]),
    ScannerCase(name: "closing fence must be at least as long", input: "````\n$x$\n```\n$y$",
                segments: [text("````\n$x$\n```\n$y$", 0, 16)]),
    ScannerCase(name: "triple backticks inside a line are a code span", input: "a ```$x$``` $y$",
                segments: [text("a ```$x$``` ", 0, 12), math("y", "$", 12, 15, content: (13, 14))]),
    ScannerCase(name: "a code span holding the closer wins over the dollar", input: "$a `b$ c`",
                segments: [text("$a `b$ c`", 0, 9)]),
    ScannerCase(name: "math that closes after a code span runs through it", input: "$a `b` c$",
                segments: [math("a `b` c", "$", 0, 9, content: (1, 8))]),
    ScannerCase(name: "a price before code with dollars", input: "$10. Code `$x$` and $y$",
                segments: [text("$10. Code `$x$` and ", 0, 20), math("y", "$", 20, 23, content: (21, 22))]),
    ScannerCase(name: "markdown code off: backticks are LaTeX quotes", input: "``quoted'' $x$ ``again''",
                segments: [text("``quoted'' ", 0, 11), math("x", "$", 11, 14, content: (12, 13)), text(" ``again''", 14, 24)],
                markdownCode: false),

    // Markdown math (GitHub's syntax).
    ScannerCase(name: "math fence is display math", input: "a\n```math\nx^2\n```\nb",
                segments: [text("a\n", 0, 2), math("x^2\n", "```math", display: true, 2, 17, content: (10, 14)), text("\nb", 17, 19)]),
    ScannerCase(name: "tilde math fence", input: "~~~math\n\\frac12\n~~~",
                segments: [math("\\frac12\n", "~~~math", display: true, 0, 19, content: (8, 16))]),
    ScannerCase(name: "unclosed math fence runs to the end", input: "```math\nx",
                segments: [math("x", "```math", display: true, 0, 9, content: (8, 9))]),
    ScannerCase(name: "blank math fence is text", input: "```math\n\n```", segments: [text("```math\n\n```", 0, 12)]),
    ScannerCase(name: "other info strings stay code", input: "```mathematica\n$x$\n```",
                segments: [text("```mathematica\n$x$\n```", 0, 22)]),
    ScannerCase(name: "dollar-backtick inline math", input: "a $`x^2`$ b",
                segments: [text("a ", 0, 2), math("x^2", "$`", 2, 9, content: (4, 7)), text(" b", 9, 11)]),
    ScannerCase(name: "dollar-backtick with a dollar inside", input: "$`a$b`$",
                segments: [math("a$b", "$`", 0, 7, content: (2, 5))]),
    ScannerCase(name: "dollar then a code span without closing dollar", input: "$`x` and $y$",
                segments: [text("$`x` and ", 0, 9), math("y", "$", 9, 12, content: (10, 11))]),
]

// MARK: - Tests

@Suite("MathTextScanner")
struct MathTextScannerTests {
    @Test(arguments: cases)
    func segments(_ c: ScannerCase) {
        var options = MathTextScanner.Options()
        options.dollarDelimiters = c.dollars
        options.markdownCode = c.markdownCode
        let scan = MathTextScanner(options: options).scan(c.input)
        #expect(scan.segments == c.segments)
        #expect(scan.diagnostics.map(Expected.init) == c.diagnostics)
        checkInvariants(c.input, scan)
    }

    @Test func unclosedDiagnosticMessage() {
        let scan = MathTextScanner().scan("$x\n\ny$ and \\[z")
        #expect(scan.diagnostics.count == 2)
        #expect(scan.diagnostics.allSatisfy { $0.severity == .warning && $0.id == "text.unclosed-math" })
        #expect(scan.diagnostics[0].message == "math opened by `$` is not closed by `$` before a blank line; it is kept as text")
        #expect(scan.diagnostics[1].message == #"math opened by `\[` is not closed by `\]` before the end of the input; it is kept as text"#)
    }

    @Test func inputTooLarge() {
        var options = MathTextScanner.Options()
        options.maxInputBytes = 4
        let scan = MathTextScanner(options: options).scan("$x$ y")
        #expect(scan.segments == [text("$x$ y", 0, 5)])
        #expect(scan.diagnostics.map(Expected.init) == [Expected("text.input-too-large", .error, 0, 5)])
        // At the limit it is scanned.
        #expect(MathTextScanner(options: options).scan("$xy$").fragments.map(\.tex) == ["xy"])
    }

    @Test func fragmentsAndSegmentRanges() {
        let scan = MathTextScanner().scan(#"Solve $x^2 = 2$ for \(x\)."#)
        #expect(scan.fragments.map(\.tex) == ["x^2 = 2", "x"])
        #expect(scan.fragments.map(\.delimiter) == ["$", #"\("#])
        #expect(scan.segments.map(\.range) == [SourceRange(0, 6), SourceRange(6, 15), SourceRange(15, 20),
                                               SourceRange(20, 25), SourceRange(25, 26)])
    }

    @Test func sourceOffsetsWithoutDecoding() {
        let fragment = MathTextScanner().scan("ab $x+y$").fragments[0]
        #expect(fragment.contentRange == SourceRange(4, 7))
        #expect((0...3).map(fragment.sourceOffset(forTeXOffset:)) == [4, 5, 6, 7])
        #expect(fragment.sourceOffset(forTeXOffset: -5) == 4)
        #expect(fragment.sourceOffset(forTeXOffset: 99) == 7)
        #expect(fragment.sourceRange(forTeXRange: SourceRange(1, 2)) == SourceRange(5, 6))
    }
}

@Suite("MathTextScanner HTML entities")
struct MathTextScannerEntityTests {
    var decoding: MathTextScanner {
        var options = MathTextScanner.Options()
        options.decodeHTMLEntities = true
        return MathTextScanner(options: options)
    }

    @Test func decodesTextAndMathKeepingSourceRanges() throws {
        let input = "$a &lt; b$ &amp; c"
        let scan = decoding.scan(input)
        #expect(scan.segments.count == 2)
        let fragment = try #require(scan.fragments.first)
        #expect(fragment.tex == "a < b")
        #expect(fragment.range == SourceRange(0, 10))
        #expect(fragment.contentRange == SourceRange(1, 9))
        #expect(scan.segments[1] == text(" & c", 10, 18))
        checkInvariants(input, scan, decoded: true)
        // tex "a < b": a=0 ' '=1 '<'=2 ' '=3 b=4 end=5; input: a=1 ' '=2 '&lt;'=3..<7 ' '=7 b=8 end=9.
        #expect((0...5).map(fragment.sourceOffset(forTeXOffset:)) == [1, 2, 3, 7, 8, 9])
        #expect(fragment.sourceRange(forTeXRange: SourceRange(2, 3)) == SourceRange(3, 7))
        #expect(fragment.sourceRange(forTeXRange: SourceRange(0, 5)) == SourceRange(1, 9))
        #expect(fragment.sourceRange(forTeXRange: SourceRange(3, 3)) == SourceRange(7, 7))
    }

    @Test func withoutDecodingEntitiesStay() {
        let scan = MathTextScanner().scan("$a &lt; b$")
        #expect(scan.fragments.map(\.tex) == ["a &lt; b"])
    }

    @Test func noBreakSpaceIsASpaceInMath() throws {
        let scan = decoding.scan("&nbsp;$x&nbsp;y$")
        #expect(scan.segments.first == text("\u{A0}", 0, 6))
        let fragment = try #require(scan.fragments.first)
        #expect(fragment.tex == "x y")
        #expect(fragment.range == SourceRange(6, 16))
        #expect(fragment.contentRange == SourceRange(7, 15))
        #expect((0...3).map(fragment.sourceOffset(forTeXOffset:)) == [7, 8, 14, 15])
    }

    @Test func multiByteReplacementMapsToTheReferenceStart() throws {
        // U+2212 MINUS SIGN is 3 bytes in the TeX, 8 bytes (&#x2212;) in the input.
        let fragment = try #require(decoding.scan("$a&#x2212;b$").fragments.first)
        #expect(fragment.tex == "a\u{2212}b")
        #expect((0...5).map(fragment.sourceOffset(forTeXOffset:)) == [1, 2, 2, 2, 10, 11])
        #expect(fragment.sourceRange(forTeXRange: SourceRange(1, 4)) == SourceRange(2, 10))
        // Ranges touching part of the replacement cover the whole reference.
        #expect(fragment.sourceRange(forTeXRange: SourceRange(1, 2)) == SourceRange(2, 10))
        #expect(fragment.sourceRange(forTeXRange: SourceRange(2, 5)) == SourceRange(2, 11))
        #expect(fragment.sourceRange(forTeXRange: SourceRange(0, 1)) == SourceRange(1, 2))
    }

    @Test(arguments: [
        ("&lt;&gt;&amp;&quot;&apos;&#39;", "<>&\"''"),
        ("&#x2212;&#8722;&#X41;", "\u{2212}\u{2212}A"),
        ("&#xZZ; &bogus; &#0; &#xD800; &#x110000; &lt &amp", "&#xZZ; &bogus; &#0; &#xD800; &#x110000; &lt &amp"),
        ("&amp;lt;", "&lt;"),
        ("&#36;x&#36;", "$x$"),
    ])
    func references(_ input: String, _ decoded: String) {
        let scan = decoding.scan(input)
        #expect(scan.segments == [text(decoded, 0, input.utf8.count)], "delimiters are never decoded references")
    }
}

@Suite("MathTextScanner corpora and scale")
struct MathTextScannerCorpusTests {
    /// A file from `Tests/MathTeXTests/Fixtures`, found next to this source file (the fixtures are not
    /// bundled as resources).
    static func fixture(_ name: String, _ ext: String, file: String = #filePath) throws -> String {
        let url = URL(fileURLWithPath: file).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("\(name).\(ext)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Whether braces balance and never go negative (TeX lexing: a backslash pairs with the next byte).
    static func bracesBalance(_ tex: String) -> Bool {
        var depth = 0
        var escaped = false
        for b in tex.utf8 {
            if escaped { escaped = false; continue }
            switch b {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"): depth -= 1; if depth < 0 { return false }
            default: break
            }
        }
        return depth == 0
    }

    /// Whether the formula can be wrapped in delimiters and come back: balanced braces, and no trailing
    /// lone backslash (a few corpus formulas end in `\`, which escapes the closing delimiter).
    static func wrappable(_ tex: String) -> Bool {
        bracesBalance(tex) && tex.utf8.reversed().prefix(while: { $0 == UInt8(ascii: "\\") }).count % 2 == 0
    }

    @Test func arxivFormulasComeBackExactly() throws {
        let lines = try Self.fixture("arxiv-public", "txt").split(separator: "\n").map(String.init)
        #expect(lines.count == 4148)
        var unbalanced = 0
        for line in lines {
            let balanced = Self.wrappable(line)
            if !balanced { unbalanced += 1 }
            for (open, close, display) in [("$$", "$$", true), (#"\("#, #"\)"#, false)] {
                let input = "Formula: \(open)\(line)\(close), done."
                let scan = MathTextScanner().scan(input)
                checkInvariants(input, scan)
                if balanced {
                    #expect(scan.fragments.map(\.tex) == [line], "\(input)")
                    #expect(scan.fragments.first?.display == display)
                    #expect(scan.diagnostics.isEmpty)
                }
            }
        }
        // A handful of corpus formulas have unbalanced braces or end in a lone backslash; they must still
        // scan without crashing and with the segments tiling the input (checked above).
        #expect(unbalanced < 20)
    }

    @Test func arxivAsOneDocument() throws {
        let lines = try Self.fixture("arxiv-public", "txt").split(separator: "\n").map(String.init)
            .filter(Self.wrappable)
        let document = lines.enumerated().map { i, line in
            i % 2 == 0 ? "Paragraph \(i): we have $$\(line)$$ and so on.\n\n" : "Then \\(\(line)\\) holds.\n"
        }.joined()
        let scan = MathTextScanner().scan(document)
        checkInvariants(document, scan)
        #expect(scan.fragments.map(\.tex) == lines)
        #expect(scan.diagnostics.isEmpty)
    }

    struct KaTeXCase: Decodable {
        var name: String
        var tex: String
        var display: Bool
    }

    @Test func katexScreenshotterCasesComeBackExactly() throws {
        let data = try #require(try Self.fixture("katex-screenshotter", "json").data(using: .utf8))
        let katex = try JSONDecoder().decode([KaTeXCase].self, from: data)
        #expect(katex.count == 126)
        for c in katex {
            for (open, close) in c.display ? [("$$", "$$"), (#"\["#, #"\]"#)] : [("$$", "$$"), (#"\("#, #"\)"#)] {
                let input = "Case \(c.name): \(open)\(c.tex)\(close) end"
                let scan = MathTextScanner().scan(input)
                checkInvariants(input, scan)
                #expect(scan.fragments.map(\.tex) == [c.tex], "\(c.name) in \(open)…\(close)")
                #expect(scan.diagnostics.isEmpty, "\(c.name)")
            }
        }
    }

    @Test func oneMebibyteOfMixedText() {
        let paragraph = #"Text $x^2$ and \(y\) or $$\frac{a}{b}$$ costs $5. `code $z$` \begin{align}a&=b\end{align}"# + "\n\n"
        let repeats = (1 << 20) / paragraph.utf8.count + 1
        let input = String(repeating: paragraph, count: repeats)
        #expect(input.utf8.count > 1 << 20)
        let scan = MathTextScanner().scan(input)
        #expect(scan.fragments.count == 4 * repeats)
        #expect(scan.segments.count == 8 * repeats + 1)  // the "\n\n" ending one paragraph joins "Text " of the next
        #expect(scan.diagnostics.isEmpty)
        checkInvariants(input, scan)
    }

    @Test(arguments: [
        ("lone dollars", String(repeating: "$", count: 100_000), 0),
        ("dollar-letter pairs", String(repeating: "$a ", count: 100_000), 1),
        ("spaced dollars", String(repeating: "$ ", count: 100_000), 0),
        // Each warned `$` names its brace and silences the `$` after it: 1,000 warnings cover 2,000
        // openers, and 98,000 are counted in the note.
        ("unclosed braces", String(repeating: "${", count: 100_000), 99_000),
        ("unclosed parens", String(repeating: #"\({"#, count: 100_000), 100_000),
        ("unclosed environments", String(repeating: #"\begin{x}"#, count: 100_000), 100_000),
        ("unmatched backticks", String(repeating: "`a", count: 100_000), 0),
        ("backtick runs of every length", (1...1_000).map { String(repeating: "`", count: $0) + "x" }.joined(), 0),
    ])
    func adversarialInputStaysOneTextSegment(_ name: String, _ input: String, _ unclosed: Int) {
        let scan = MathTextScanner().scan(input)
        #expect(scan.segments == [text(input, 0, input.utf8.count)], "\(name)")
        // At most 1000 warnings (the default limit), then one note counting the rest.
        let warnings = scan.diagnostics.filter { $0.id == "text.unclosed-math" || $0.id == "text.unclosed-brace" }
        #expect(warnings.count == min(unclosed, 1000), "\(name)")
        let notes = scan.diagnostics.filter { $0.id == "text.too-many-diagnostics" }
        #expect(notes.count == (unclosed > 1000 ? 1 : 0), "\(name)")
        #expect(scan.diagnostics.count == warnings.count + notes.count)
        if unclosed > 1000 {
            #expect(notes.first?.message == "\(unclosed - 1000) more unclosed math delimiters were not reported")
            #expect(notes.first?.severity == .note)
        }
    }

    @Test func diagnosticLimitIsConfigurable() {
        var options = MathTextScanner.Options()
        options.maxDiagnostics = 2
        let scan = MathTextScanner(options: options).scan(#"\( \[ $x \begin{y}"#)
        #expect(scan.diagnostics.map(Expected.init) == [
            unclosed(0, 2), unclosed(3, 5), Expected("text.too-many-diagnostics", .note, 6, 7),
        ])
        #expect(scan.diagnostics.last?.message == "2 more unclosed math delimiters were not reported")
    }

    @Test func adversarialNestingStillFindsTheInnermostMath() {
        // `${${…${x$`: only the innermost `$x$` closes (each outer `$` waits for depth ≤ its own).
        let input = String(repeating: "${", count: 50_000) + "$x$"
        let scan = MathTextScanner().scan(input)
        #expect(scan.fragments.map(\.tex) == ["x"])
        #expect(scan.fragments.first?.range == SourceRange(100_000, 100_003))
        #expect(scan.diagnostics.count == 1001)
        // The first 1,000 warnings name a brace each and silence the `$` after it (2,000 openers).
        #expect(scan.diagnostics.last?.message == "48000 more unclosed math delimiters were not reported")
    }
}

// MARK: - Cross-check against a naive reference

/// The scanner's rules implemented the obvious way: every opener scans forward for its closer (quadratic
/// on hostile input, but easy to trust). Random inputs must give the same segments and diagnostics.
private struct NaiveScanner {
    let b: [UInt8]
    var segments: [MathTextSegment] = []
    var diagnostics: [Expected] = []
    var textStart = 0

    init(_ input: String) { b = Array(input.utf8) }

    static func ws(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
    static func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    func at(_ i: Int) -> UInt8? { i >= 0 && i < b.count ? b[i] : nil }
    func string(_ lo: Int, _ hi: Int) -> String { String(decoding: b[lo..<hi], as: UTF8.self) }

    /// Whether a blank line starts with the newline at `j`.
    func blankLineStarts(at j: Int) -> Bool {
        guard at(j) == 0x0A else { return false }
        var k = j + 1
        while let c = at(k), c == 0x20 || c == 0x09 || c == 0x0D { k += 1 }
        return at(k) == 0x0A
    }

    /// `\begin{name}` / `\end{name}` at `i`: (name, end).
    func token(_ i: Int, _ keyword: String) -> (String, Int)? {
        let word = Array(("\\" + keyword + "{").utf8)
        guard i + word.count <= b.count, Array(b[i..<(i + word.count)]) == word else { return nil }
        var j = i + word.count
        let start = j
        while let c = at(j), (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c == 0x2A { j += 1 }
        guard j > start, at(j) == 0x7D else { return nil }
        return (string(start, j), j + 1)
    }

    /// Forward scan from `from` for a closer at relative depth ≤ 0; `isCloser(j)` is asked at unescaped
    /// positions. Returns the closer, or nil at the end or (if `stopAtBlank`) at a blank line.
    func findCloser(from: Int, stopAtBlank: Bool, _ isCloser: (Int) -> Bool) -> (Int?, Bool) {
        var depth = 0, j = from
        while j < b.count {
            if depth <= 0, isCloser(j) { return (j, false) }
            if stopAtBlank, blankLineStarts(at: j) { return (nil, true) }
            switch b[j] {
            case 0x5C:
                if stopAtBlank, blankLineStarts(at: j + 1) { return (nil, true) }
                j += 2
            case 0x7B: depth += 1; j += 1
            case 0x7D: depth -= 1; j += 1
            default: j += 1
            }
        }
        return (nil, false)
    }

    mutating func emit(_ lo: Int, _ hi: Int, _ tlo: Int, _ thi: Int, _ display: Bool, _ delimiter: String) {
        if lo > textStart { segments.append(text(string(textStart, lo), textStart, lo)) }
        segments.append(math(string(tlo, thi), delimiter, display: display, lo, hi, content: (tlo, thi)))
        textStart = hi
    }

    func blank(_ lo: Int, _ hi: Int) -> Bool { b[lo..<hi].allSatisfy(Self.ws) }

    func lineStart(_ p: Int) -> Bool {
        var j = p, n = 0
        while j > 0, b[j - 1] == 0x20, n < 3 { j -= 1; n += 1 }
        return j == 0 || b[j - 1] == 0x0A
    }

    func fenceEnd(_ e: Int, _ ch: UInt8, _ len: Int) -> Int {
        var j = e
        while j < b.count, b[j] != 0x0A { j += 1 }
        while j < b.count {
            var k = j + 1, n = 0
            while k < b.count, b[k] == 0x20, n < 3 { k += 1; n += 1 }
            var m = k
            while m < b.count, b[m] == ch { m += 1 }
            var end = m
            while end < b.count, b[end] != 0x0A { end += 1 }
            if m - k >= len, b[m..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return end }
            j = end
        }
        return b.count
    }

    /// Whether a code span starting after `p` covers the closer at `c` (code spans bind tighter).
    func closerInCode(after p: Int, closer c: Int) -> Bool {
        var j = p + 1
        while j < c {
            var slashes = 0, k = j - 1
            while k >= 0, b[k] == 0x5C { slashes += 1; k -= 1 }
            guard b[j] == 0x60, slashes % 2 == 0 else { j += 1; continue }
            var e = j
            while e < b.count, b[e] == 0x60 { e += 1 }
            let len = e - j
            var m = e, found: Int?
            while m < b.count {
                if blankLineStarts(at: m) { break }
                if b[m] == 0x60 {
                    var r = m
                    while r < b.count, b[r] == 0x60 { r += 1 }
                    if r - m == len { found = m; break }
                    m = r
                } else { m += 1 }
            }
            guard let f = found else { j = e; continue }
            if f + len > c { return true }
            j = f + len
        }
        return false
    }

    mutating func run() {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == 0x5C {
                guard let next = at(i + 1) else { i += 1; continue }
                if next == 0x28 || next == 0x5B {
                    let display = next == 0x5B
                    let close: UInt8 = display ? 0x5D : 0x29
                    let (found, _) = findCloser(from: i + 2, stopAtBlank: !display) { self.b[$0] == 0x5C && self.at($0 + 1) == close }
                    guard let e = found else { diagnostics.append(unclosed(i, i + 2)); i += 2; continue }
                    if closerInCode(after: i + 1, closer: e) { i += 2; continue }
                    if !blank(i + 2, e) { emit(i, e + 2, i + 2, e, display, display ? "\\[" : "\\(") }
                    i = e + 2
                } else if let (name, end) = token(i, "begin") {
                    var depth = 1, j = end, closer: (Int, Int)?
                    while j < b.count {
                        if name == "math", blankLineStarts(at: j) || b[j] == 0x5C && blankLineStarts(at: j + 1) { break }
                        if b[j] == 0x5C {
                            if let (n2, e2) = token(j, "begin") { if n2 == name { depth += 1 }; j = e2; continue }
                            if let (n2, e2) = token(j, "end") {
                                if n2 == name { depth -= 1; if depth == 0 { closer = (j, e2); break } }
                                j = e2; continue
                            }
                            j += 2
                        } else { j += 1 }
                    }
                    guard let (es, ee) = closer else { diagnostics.append(unclosed(i, end)); i = end; continue }
                    if closerInCode(after: end - 1, closer: es) { i = end; continue }
                    if name == "math" || name == "displaymath" {
                        if !blank(end, es) { emit(i, ee, end, es, name != "math", name) }
                    } else {
                        emit(i, ee, i, ee, true, name)
                    }
                    i = ee
                } else { i += 2 }
            } else if c == 0x24 {
                if at(i + 1) == 0x24 {
                    let (found, _) = findCloser(from: i + 2, stopAtBlank: false) { self.b[$0] == 0x24 && self.at($0 + 1) == 0x24 }
                    guard let e = found else { diagnostics.append(unclosed(i, i + 2)); i += 2; continue }
                    if closerInCode(after: i + 1, closer: e) { i += 2; continue }
                    if !blank(i + 2, e) { emit(i, e + 2, i + 2, e, true, "$$") }
                    i = e + 2
                } else {
                    guard let next = at(i + 1), !Self.ws(next) else { i += 1; continue }
                    let (found, _) = findCloser(from: i + 1, stopAtBlank: true) { self.b[$0] == 0x24 }
                    guard let e = found else {
                        if !Self.digit(next) { diagnostics.append(unclosed(i, i + 1)) }
                        i += 1; continue
                    }
                    if Self.ws(b[e - 1]) || at(e + 1).map(Self.digit) == true { i += 1; continue }
                    if closerInCode(after: i, closer: e) { i += 1; continue }
                    emit(i, e + 1, i + 1, e, false, "$")
                    i = e + 1
                }
            } else if c == 0x60 {
                var e = i
                while e < b.count, b[e] == 0x60 { e += 1 }
                let len = e - i
                if len >= 3, lineStart(i), !b[e..<(b[e...].firstIndex(of: 0x0A) ?? b.count)].contains(0x60) {
                    i = fenceEnd(e, 0x60, len); continue
                }
                var j = e, found: Int?
                while j < b.count {
                    if blankLineStarts(at: j) { break }
                    if b[j] == 0x60 {
                        var k = j
                        while k < b.count, b[k] == 0x60 { k += 1 }
                        if k - j == len { found = j; break }
                        j = k
                    } else { j += 1 }
                }
                i = found.map { $0 + len } ?? e
            } else if c == 0x7E {
                var e = i
                while e < b.count, b[e] == 0x7E { e += 1 }
                i = e - i >= 3 && lineStart(i) ? fenceEnd(e, 0x7E, e - i) : e
            } else {
                i += 1
            }
        }
        if b.count > textStart { segments.append(text(string(textStart, b.count), textStart, b.count)) }
        diagnostics = bracesNamed(diagnostics)
    }

    /// An opener left unclosed because its first closer stands inside an open `{` is reported at that
    /// brace (`text.unclosed-brace`), and the would-be closer, read as an opener, is not reported again.
    func bracesNamed(_ warnings: [Expected]) -> [Expected] {
        var silenced = Set<Int>()
        var out: [Expected] = []
        for w in warnings {
            guard let range = w.range else { out.append(w); continue }
            let lo = range.lowerBound, hi = range.upperBound
            if silenced.remove(lo) != nil { continue }
            let opener = string(lo, hi)
            let closer: [UInt8]? = opener == "$" ? [0x24] : opener == "$$" ? [0x24, 0x24]
                : opener == "\\(" ? [0x5C, 0x29] : opener == "\\[" ? [0x5C, 0x5D] : nil
            guard let closer else { out.append(w); continue }
            let inline = opener == "$" || opener == "\\("
            var depth = 0, open: [Int] = [], j = hi, found: (Int, Int)?
            scan: while j < b.count {
                if j + closer.count <= b.count, Array(b[j..<(j + closer.count)]) == closer {
                    if depth > 0 { found = (open.last!, j); break scan }
                    if closer[0] == 0x24 { break scan }
                }
                if inline, blankLineStarts(at: j) { break }
                switch b[j] {
                case 0x5C:
                    if inline, blankLineStarts(at: j + 1) { break scan }
                    j += 2
                    continue
                case 0x7B: depth += 1; if depth > 0 { open.append(j) }
                case 0x7D: if depth > 0 { open.removeLast() }; depth -= 1
                default: break
                }
                j += 1
            }
            guard let (brace, at) = found else { out.append(w); continue }
            silenced.insert(at)
            out.append(Expected("text.unclosed-brace", .warning, brace, brace + 1))
        }
        return out
    }
}

@Suite("MathTextScanner cross-check")
struct MathTextScannerCrossCheck {
    static let pieces = [
        "$", "$", "$$", "\\", "{", "}", "\\(", "\\)", "\\[", "\\]", "a", "x", "1", " ", " ", "\n", "\n\n", "\n \n",
        "`", "``", "```", "~~~", "\\begin{x}", "\\end{x}", "\\begin{math}", "\\end{math}", "\\begin{y*}", "\\end{y*}",
        "\\$", "\\{", "\\}", "é", "\\text{", "&lt;",
    ]

    @Test(arguments: 0..<16)
    func randomInputsMatchTheNaiveScanner(_ seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<500 {
            let input = (0..<(1 + next(40))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
            // The naive scanner knows the dollar, bracket, environment and code rules, not Markdown math.
            var options = MathTextScanner.Options()
            options.markdownMath = false
            let scan = MathTextScanner(options: options).scan(input)
            var naive = NaiveScanner(input)
            naive.run()
            #expect(scan.segments == naive.segments, "\(input.debugDescription)")
            #expect(scan.diagnostics.map(Expected.init) == naive.diagnostics, "\(input.debugDescription)")
            checkInvariants(input, scan)
        }
    }
}
