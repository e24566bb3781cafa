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

func streamed(_ text: String, chunks: [Int], processor p: DocumentProcessor, format: DocumentFormat = .markdown) -> [StreamSegment] {
    let stream = MathStream(processor: p, format: format)
    var out: [StreamSegment] = []
    var scalars = Array(text)
    var k = 0
    while !scalars.isEmpty {
        let n = min(scalars.count, max(1, chunks[k % chunks.count]))
        out += stream.append(String(scalars.prefix(n)))
        scalars.removeFirst(n)
        k += 1
    }
    out += stream.finish()
    return out
}

@Suite("Documents: streams")
struct StreamingTests {
    @Test func scratch() {
        let p = processor()
        let text = "The area is $\\pi r^2$. Costs $5 and $10. Code `$x$` and \\$y\\$. $$\\frac12$$ and \\[x"
        let whole = flatten(p.process(text: text, format: .markdown))
        for size in [1, 2, 3, 7, 100] {
            let s = flatten(streamed(text, chunks: [size], processor: p))
            #expect(s == whole, "chunks of \(size)")
        }
        print(whole)
    }
}
