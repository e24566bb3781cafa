import Foundation
import MathAloud
import MathAloudDocuments
import Testing

/// Text and formulas of a stream, flattened: text runs merged, formulas as `[source]`.
func flatten(_ segments: [StreamSegment]) -> [String] {
    var out: [String] = []
    var text = ""
    for s in segments {
        switch s {
        case .text(let t, _): text += t
        case .formula(let f):
            if !text.isEmpty { out.append(text); text = "" }
            out.append("[\(f.segment.formula!.source)]")
        }
    }
    if !text.isEmpty { out.append(text) }
    return out
}

/// The same for a whole document read at once.
func flatten(_ read: ProcessedDocument) -> [String] {
    var out: [String] = []
    var text = ""
    var formulas = read.formulas.makeIterator()
    for s in read.document.segments {
        if s.isFormula {
            if !text.isEmpty { out.append(text); text = "" }
            out.append("[\(formulas.next()!.segment.formula!.source)]")
        } else {
            text += read.document.source[s.range]
        }
    }
    if !text.isEmpty { out.append(text) }
    return out
}

/// The text fed in chunks whose sizes (in characters) cycle through `chunks`.
func streamed(_ text: String, chunks: [Int], processor p: DocumentProcessor, format: DocumentFormat = .markdown)
    -> (segments: [StreamSegment], stream: MathStream) {
    let stream = MathStream(processor: p, format: format)
    var out: [StreamSegment] = []
    var rest = Substring(text)
    var k = 0
    while !rest.isEmpty {
        let n = max(1, chunks[k % chunks.count])
        out += stream.append(String(rest.prefix(n)))
        rest = rest.dropFirst(n)
        k += 1
    }
    out += stream.finish()
    return (out, stream)
}

/// Speech of a stream as `speak --text --stream` prints it (SpokenStream), fed a segment at a time.
func speech(_ segments: [StreamSegment]) -> String {
    var spoken = SpokenStream()
    return segments.map { spoken.text(of: [$0]) }.joined() + spoken.finish()
}

@Suite("Documents: streams")
struct StreamingTests {
    static let mixed = """
    The area is $\\pi r^2$. Costs $5 and $10. Code `$x$` and ``a`$b$`c`` and \\$y\\$.
    ```
    $not math$
    ```
    $$\\frac{1}{2}$$ then \\(a+b\\) and \\[c\\] and \\begin{align}d&=e\\label{d}\\end{align} see \\eqref{d}.
    <!-- $hidden$ --> ![plot $p$](p.png) <math><mi>m</mi></math> $`g^2`$

    ```math
    \\sqrt{2}
    ```
    Last $$unclosed
    """

    @Test func everyChunkingGivesTheWholeDocumentsSegments() {
        let p = processor()
        let whole = flatten(p.process(text: Self.mixed, format: .markdown))
        #expect(whole.filter { $0.hasPrefix("[") }.count == 8)
        for chunks in [[1], [2], [3], [5], [7], [64], [1, 4, 2, 9], [13, 1, 1], [Self.mixed.count]] {
            #expect(flatten(streamed(Self.mixed, chunks: chunks, processor: p).segments) == whole, "chunks \(chunks)")
        }
        let textWhole = flatten(p.process(text: Self.mixed, format: .text))
        #expect(flatten(streamed(Self.mixed, chunks: [1], processor: p, format: .text).segments) == textWhole)
    }

    /// A start tag cut off right after its name and a space may still gain a quoted attribute (which makes
    /// the whole tag markup, not prose): the stream holds it as the whole text reads it (the documents
    /// fuzzer's input, reduced).
    @Test func aTagCutAfterItsNameIsHeld() {
        let p = processor()
        for text in [#"<h: "a $c$ b" <s type="x">"#, #"<ab: $c$ <script type="math/tex">x"#, #"<span "a $c$" title="t"> $d$"#] {
            let whole = flatten(p.process(text: text, format: .markdown))
            for chunks in [[1], [3], [text.count]] {
                #expect(flatten(streamed(text, chunks: chunks, processor: p).segments) == whole, "\(text) chunks \(chunks)")
            }
        }
    }

    @Test func delimitersSplitAcrossChunks() {
        let p = processor()
        for chunks in [["$", "$x$", "$ end"], ["\\", "(a\\", ")", " end"], ["\\be", "gin{equa", "tion}x\\end{equation", "} end"],
                       ["`$x", "$` a $y", "$ end"], ["\\", "$5 and \\", "$ end"], ["$`a`", "$ end"]] {
            let stream = MathStream(processor: p)
            var out: [StreamSegment] = []
            for c in chunks { out += stream.append(c) }
            out += stream.finish()
            #expect(flatten(out) == flatten(p.process(text: chunks.joined(), format: .markdown)), "\(chunks)")
        }
    }

    @Test func aFormulaComesOutOnceItIsDecidedAndNotBefore() {
        let stream = MathStream(processor: processor())
        #expect(flatten(stream.append("The value $x")) == ["The value "])
        #expect(stream.append("^2").isEmpty)
        // `$x^2$` could still be `$x^2$5` (money): the next character decides.
        #expect(stream.append("$").isEmpty)
        let out = stream.append(" is")
        #expect(flatten(out) == ["[x^2]", " is"])
        if case .formula(let f) = out[0] { #expect(f.speech == "x squared") } else { Issue.record("no formula") }
        #expect(flatten(stream.append(" $$\\frac12")) == [" "])
        #expect(flatten(stream.finish()) == ["$$\\frac12"])
        #expect(stream.diagnostics.map(\.id) == ["text.unclosed-math"])
        #expect(stream.diagnostics[0].range == SourceRange(19, 21))
    }

    /// A `<script>` whose end comes much later makes everything up to it raw text (no formulas): the
    /// stream must not emit formulas it later finds inside it (found by the documents fuzzer).
    @Test func aLateElementEndTakesBackNothing() {
        let text = "<script>var a = [[$x$ and \\(y\\) <p>$z$</p> ```math\n $w$ </script> $v$ <math><mi>m</mi> $u$ </math> $t$"
        let p = processor()
        let whole = flatten(p.process(text: text, format: .markdown))
        #expect(whole.filter { $0.hasPrefix("[") } == ["[v]", "[<math><mi>m</mi> $u$ </math>]", "[t]"])
        for chunks in [[1], [2], [3, 1, 5], [11]] {
            #expect(flatten(streamed(text, chunks: chunks, processor: p).segments) == whole, "chunks \(chunks)")
        }
        // A formula that would run over a comment not yet closed waits for it (the comment cuts it).
        let comment = "$a {x <!-- $b$ }--> c$ and $d$"
        let commentWhole = flatten(p.process(text: comment, format: .markdown))
        #expect(commentWhole.filter { $0.hasPrefix("[") } == ["[d]"])
        #expect(flatten(streamed(comment, chunks: [1], processor: p).segments) == commentWhole)
    }

    @Test func codeAndEscapesStayText() {
        let p = processor()
        let (segments, _) = streamed("a `$x$` b \\$y\\$ c $5", chunks: [1], processor: p)
        #expect(flatten(segments) == ["a `$x$` b \\$y\\$ c $5"])
    }

    @Test func chatAnswerSpeechIsTheWholeAnswersSpeech() {
        let answer = """
        To solve $ax^2 + bx + c = 0$, use the quadratic formula:

        $$x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$

        For example, with $a = 1$, $b = -3$ and $c = 2$ the roots are $x = 1$ and $x = 2$. \
        The discriminant \\(b^2 - 4ac\\) tells how many real roots there are; it costs $0 to check.
        """
        let p = processor { $0.products = [] }
        let whole = testSpeaker.speak(text: answer).text
        for chunks in [[1], [3], [4, 1, 7], [20]] {
            #expect(speech(streamed(answer, chunks: chunks, processor: p, format: .text).segments) == whole, "chunks \(chunks)")
        }
        #expect(whole.contains("the fraction with numerator negative b plus or minus the square root of b squared minus 4 a c"))
    }

    /// 2,000 formulas fed one character at a time: each formula is read once, the segments are the
    /// whole document's, and the scans read about the text's length (the time ratio against reading
    /// the whole document at once is measured by `MathAloudBench documents`, see BENCHMARKS.md).
    @Test func twoThousandFormulasOneCharacterAtATime() {
        var text = ""
        for i in 0..<2000 {
            switch i % 4 {
            case 0: text += "Step \(i): $x_{\(i)} = \\frac{\(i)}{2}$ holds. "
            case 1: text += "Then $$\\sum_{k=1}^{\(i)} k^2$$\n"
            case 2: text += "and \\(a^{\(i)} + b\\), costing $\(i).\n"
            default: text += "so \\[\\sqrt{\(i)}\\] and `code $\(i)$`.\n\n"
            }
        }
        let p = processor { $0.products = [] }
        let cacheOff = DocumentProcessor(options: p.options, speaker: testSpeaker, cache: FormulaCache(capacity: 0))
        let (segments, stream) = streamed(text, chunks: [1], processor: cacheOff)
        let formulas = segments.filter { if case .formula = $0 { true } else { false } }.count
        #expect(formulas == 2000)
        #expect(cacheOff.statistics.formulasAnalysed == 2000)
        #expect(flatten(segments) == flatten(p.process(text: text, format: .markdown)))
        #expect(stream.bytesScanned <= 4 * text.utf8.count, "scanned \(stream.bytesScanned) for \(text.utf8.count)")
    }

    @Test func numbersAndDefinitionsCarryThroughTheStream() {
        let text = "$\\newcommand{\\Rb}{\\mathbb{R}}$ \\begin{equation}\\label{a}x\\in\\Rb\\end{equation} by \\eqref{a}"
        let (segments, _) = streamed(text, chunks: [2], processor: processor())
        let formulas = segments.compactMap { if case .formula(let f) = $0 { f } else { nil } }
        #expect(formulas.last?.label == "x is a member of the real numbers, equation 1")
    }

    /// Each diagnostic of a stream has the line and column the whole text's has (a stream printed
    /// "<stdin>: error: …" with no place), however the text is chunked, and after the stream has
    /// dropped the text before it.
    @Test func diagnosticsHaveTheWholeTextsLocations() {
        let prose = String(repeating: "some prose that is long enough to be dropped\n", count: 300)
        let text = "line one\nsecond $\\frac{a}$ b\n" + prose + "é then $$x"
        let whole = processor().process(text: text, format: .text)
        let expected = whole.diagnostics.map { whole.document.source.location(of: $0.range!.lowerBound) }
        #expect(expected == [SourceLocation(line: 2, column: 9), SourceLocation(line: 303, column: 8)])
        for chunk in [1, 7, 4096] {
            let stream = MathStream(processor: processor(), format: .text)
            var k = text.startIndex
            while k < text.endIndex {
                let next = text.index(k, offsetBy: chunk, limitedBy: text.endIndex) ?? text.endIndex
                _ = stream.append(String(text[k..<next]))
                k = next
            }
            _ = stream.finish()
            #expect(stream.diagnostics.map(\.id) == whole.diagnostics.map(\.id))
            #expect(stream.diagnosticLocations == expected, "chunks of \(chunk)")
        }
    }
}

/// Streams that run through fenced code blocks: a block still open is scanned from its last line, not
/// from its start, so a long block streamed in small pieces costs about one scan (it cost the square of
/// its length before), and the segments stay the whole text's.
@Suite("Documents: streams through code blocks")
struct StreamCodeBlockTests {
    @Test func aLongCodeBlockIsScannedAboutOnce() {
        var code = "Here is code:\n\n```python\n"
        for i in 0..<300 { code += "x\(i) = a[\(i)] * \\alpha + $y <b> `q` ~z!\n" }
        let p = processor { $0.products = [] }
        let texts = [code + "```\n\nDone $x$.", code, code + "``", code + "```\n$y$ <!-- ``` -->\n~~~\n$z$\n"]
        for text in texts {
            for format in [DocumentFormat.markdown, .text] {
                for chunks in [[1], [3], [7, 1, 40]] {
                    let (segments, stream) = streamed(text, chunks: chunks, processor: p, format: format)
                    #expect(flatten(segments) == flatten(p.process(text: text, format: format)), "\(format), chunks \(chunks)")
                    #expect(stream.bytesScanned <= 2 * text.utf8.count,
                            "\(format), chunks \(chunks): scanned \(stream.bytesScanned) for \(text.utf8.count)")
                }
            }
        }
    }

    /// Random texts of fences, comments, tags, dollars and backticks, some after a byte order mark (a
    /// fixed seed): every chunking streams the whole text's formulas.
    @Test func randomFencedTextsStreamAsTheWholeText() {
        let pieces = ["```", "~~~", "````", "\n", "\n\n", "  ", "$", "$$", "`", "x", "a b", "<!--", "-->", "<img src=q>",
                      "<math><mi>x</mi></math>", "\\(", "\\)", "math", "![a](b)", "-", "1"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let p = processor { $0.products = [] }
        for _ in 0..<300 {
            var text = next(5) == 0 ? "\u{FEFF}" : ""   // a byte order mark first, now and then
            for _ in 0..<(4 + next(24)) { text += pieces[next(pieces.count)] }
            for format in [DocumentFormat.markdown, .text] {
                let whole = p.process(text: text, format: format).formulas.map(\.segment.range)
                for chunks in [[1], [2, 5], [1 + next(9)]] {
                    let formulas = streamed(text, chunks: chunks, processor: p, format: format).segments
                        .compactMap { if case .formula(let f) = $0 { f.segment.range } else { nil } }
                    #expect(formulas == whole, "\(format), chunks \(chunks): \(text.debugDescription)")
                }
            }
        }
    }
}
