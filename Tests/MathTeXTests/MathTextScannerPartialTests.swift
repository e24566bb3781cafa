import Foundation
import MathSyntax
import MathTeX
import Testing

// The scanner on text that may go on (`complete: false`, what `MathStream` uses) and with excluded
// regions (what the document segmenters use).

/// A segment reduced to its kind and range, clipped to `limit` (text clipped to nothing is dropped).
private struct Piece: Hashable, CustomStringConvertible {
    var math: Bool
    var range: SourceRange
    var tex: String?
    var description: String { "\(math ? "math" : "text")\(range)\(tex.map { " \($0.debugDescription)" } ?? "")" }
}

private func pieces(_ segments: [MathTextSegment], below limit: Int, shift: Int = 0) -> [Piece] {
    var out: [Piece] = []
    for s in segments {
        let r = SourceRange(s.range.lowerBound + shift, s.range.upperBound + shift)
        guard r.lowerBound < limit else { break }
        switch s {
        case .text:
            let clipped = SourceRange(r.lowerBound, min(r.upperBound, limit))
            if let last = out.last, !last.math, last.range.upperBound == clipped.lowerBound {
                out[out.count - 1].range = SourceRange(last.range.lowerBound, clipped.upperBound)
            } else {
                out.append(Piece(math: false, range: clipped))
            }
        case .math(let f):
            out.append(Piece(math: true, range: r, tex: f.tex))
        }
    }
    return out
}

/// Where a later scan resumes: `resume`, or the start of its line when only up to three spaces precede
/// it there (so a fence indented by spaces is still seen at a line start).
private func restart(_ bytes: [UInt8], _ resume: Int) -> (offset: Int, startsLine: Bool) {
    var k = resume
    while k > 0, bytes[k - 1] == 0x20, resume - k < 3 { k -= 1 }
    if k == 0 || bytes[k - 1] == 0x0A { return (k, true) }
    return (resume, false)
}

@Suite("MathTextScanner partial input")
struct MathTextScannerPartialTests {
    static let parts = [
        "$", "$", "$$", "\\", "{", "}", "\\(", "\\)", "\\[", "\\]", "a", "x", "1", " ", " ", "\n", "\n\n", "\n \n",
        "`", "``", "```", "~~~", "```math\n", "$`", "`$", "\\begin{x}", "\\end{x}", "\\begin{math}", "\\end{math}",
        "\\begin{equation}", "\\end{equation}", "\\$", "&lt;", "&alpha;", "é", "   ",
    ]

    static func random(_ seed: Int) -> (Int) -> Int {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 7
        return { n in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
    }

    /// Whatever follows a prefix, the segments before the prefix's `settled` offset are those of the whole
    /// text; and scanning the whole text again from `resumeOffset` gives the segments of the whole text
    /// after that offset.
    @Test(arguments: 0..<8)
    func settledSegmentsNeverChange(_ seed: Int) {
        let next = Self.random(seed)
        for round in 0..<50 {
            var options = MathTextScanner.Options()
            options.decodeHTMLEntities = round % 3 == 0
            options.namedCharacterReference = { $0 == "alpha" ? "α" : nil }
            options.environments = round % 4 == 1 ? ["equation", "math"] : nil
            let scanner = MathTextScanner(options: options)
            let input = (0..<(1 + next(30))).map { _ in Self.parts[next(Self.parts.count)] }.joined()
            let bytes = Array(input.utf8)
            let whole = scanner.scan(input)
            for cut in 0...bytes.count {
            let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
            guard prefix.utf8.count == cut, cut == 0 || bytes[cut - 1] < 0x80 else { continue }  // cut inside a character
            let partial = scanner.scan(prefix, excluding: [], complete: false)
            #expect(partial.settled <= cut && partial.resumeOffset <= partial.settled)
            #expect(pieces(partial.segments, below: partial.settled) == pieces(whole.segments, below: partial.settled),
                    "prefix \(prefix.debugDescription) of \(input.debugDescription), settled \(partial.settled)")
            // Resuming.
            let (start, startsLine) = restart(bytes, partial.resumeOffset)
            let rest = String(decoding: bytes[start...], as: UTF8.self)
            let again = scanner.scan(rest, excluding: [], complete: true, startsLine: startsLine)
            let expected = pieces(whole.segments, below: Int.max).filter { $0.range.lowerBound >= start }
            var got = pieces(again.segments, below: Int.max, shift: start)
            // The whole scan's text segment may begin before `start`: compare from `start` on.
            var expectedClipped = expected
            if let first = pieces(whole.segments, below: Int.max).first(where: { $0.range.upperBound > start }),
               !first.math, first.range.lowerBound < start {
                expectedClipped.insert(Piece(math: false, range: SourceRange(start, first.range.upperBound)), at: 0)
            }
            if got.first?.range.lowerBound != start { got = [] }
            #expect(got == expectedClipped, "resuming \(input.debugDescription) at \(start)")
            }
        }
    }

    @Test func unclosedOpenersWaitWithoutWarnings() {
        let scan = MathTextScanner().scan("The value is $x^2 + ", excluding: [], complete: false)
        #expect(scan.diagnostics.isEmpty)
        #expect(scan.settled == 13)
        let display = MathTextScanner().scan("a $$x\n\ny", excluding: [], complete: false)
        #expect(display.settled == 2)
    }

    @Test func aBlankLineSettlesAnInlineOpener() {
        let scan = MathTextScanner().scan("$x\n\nmore", excluding: [], complete: false)
        #expect(scan.settled == 8)
        #expect(scan.diagnostics.map(\.id) == ["text.unclosed-math"])
    }

    @Test func theByteAfterAClosingDollarDecides() {
        #expect(MathTextScanner().scan("a $x$", excluding: [], complete: false).settled == 2)
        #expect(MathTextScanner().scan("a $x$ ", excluding: [], complete: false).settled == 6)
        #expect(MathTextScanner().scan("a $", excluding: [], complete: false).settled == 2)
        #expect(MathTextScanner().scan("a \\", excluding: [], complete: false).settled == 2)
        #expect(MathTextScanner().scan("a \\begin{ali", excluding: [], complete: false).settled == 2)
        #expect(MathTextScanner().scan("a &lt", excluding: [], complete: false).settled == 5)
        var decoding = MathTextScanner.Options()
        decoding.decodeHTMLEntities = true
        #expect(MathTextScanner(options: decoding).scan("a &lt", excluding: [], complete: false).settled == 2)
    }

    @Test func anOpenCodeFenceIsSettledTextButResumesAtItsStart() {
        let scan = MathTextScanner().scan("a\n```\n$x$ code", excluding: [], complete: false)
        #expect(scan.settled == 14)
        #expect(scan.resumeOffset == 2)
        #expect(scan.fragments.isEmpty)
        let math = MathTextScanner().scan("a\n```math\nx^2", excluding: [], complete: false)
        #expect(math.settled == 2)
    }

    @Test func excludedRegionsAreNotScannedAndBlockMath() {
        let input = "$a <!-- $b$ --> c$ and $d$ <x $e$>"
        let bytes = Array(input.utf8)
        func range(of s: String) -> SourceRange {
            let needle = Array(s.utf8)
            for i in 0...(bytes.count - needle.count) where Array(bytes[i..<(i + needle.count)]) == needle {
                return SourceRange(i, i + needle.count)
            }
            fatalError()
        }
        let comment = range(of: "<!-- $b$ -->"), tag = range(of: "<x $e$>")
        let scan = MathTextScanner().scan(input, excluding: [comment, tag], complete: true)
        #expect(scan.fragments.map(\.tex) == ["d"])
        // The first `$` pairs with the `$` after `c`, past the comment: it stays text.
        #expect(scan.segments.first?.range.lowerBound == 0)
        if case .text = scan.segments.first! {} else { Issue.record("expected text first") }
    }

    @Test func environmentsCanBeLimitedToMathOnes() {
        var options = MathTextScanner.Options()
        options.environments = ["equation"]
        let input = "\\begin{itemize} \\item $x$ \\begin{equation}y\\end{equation}\\end{itemize}"
        let scan = MathTextScanner(options: options).scan(input)
        #expect(scan.fragments.map(\.tex) == ["x", "\\begin{equation}y\\end{equation}"])
    }

    @Test func namedReferencesThroughTheResolver() {
        var options = MathTextScanner.Options()
        options.decodeHTMLEntities = true
        options.namedCharacterReference = { $0 == "le" ? "≤" : nil }
        let scan = MathTextScanner(options: options).scan("$a &le; b &foo;$")
        #expect(scan.fragments.map(\.tex) == ["a ≤ b &foo;"])
        let f = scan.fragments[0]
        #expect(f.sourceRange(forTeXRange: SourceRange(2, 5)) == SourceRange(3, 7))
    }

    @Test func codeRangesAreReported() {
        let scan = MathTextScanner().scan("`a` and\n```\nb\n```\n$`c`$")
        #expect(scan.codeRanges == [SourceRange(0, 3), SourceRange(8, 17)])
        #expect(scan.fragments.map(\.tex) == ["c"])
    }
}
