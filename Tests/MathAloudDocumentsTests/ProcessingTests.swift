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

@Suite("Documents: reading formulas")
struct ProcessingTests {
    @Test func speechAndLabels() {
        let read = processor().process(text: "Area: $\\pi r^2$ and $\\frac{1}{2}$.", format: .markdown)
        #expect(read.formulas.map(\.speech) == ["pi r squared", "one half"])
        #expect(read.formulas.map(\.label) == ["pi r squared", "one half"])
        #expect(read.formulas[0].mathML?.hasPrefix("<math") == true)
        #expect(read.diagnostics.isEmpty)
    }

    @Test func scratch() {
        let text = """
        \\begin{align}
        a &= b \\label{first} \\\\
        c &= d \\nonumber \\\\
        e &= f \\tag{$*$} \\label{star}
        \\end{align}
        See \\eqref{first} and \\ref{star}.
        """
        let read = processor().process(text: text, format: .markdown)
        print(read.formulas.map(\.numbers), read.formulas.map(\.label), read.formulas.map(\.drawnSource))
        print(read.references)
        print(read.formulas.map { $0.mathML ?? "" })
    }
}
