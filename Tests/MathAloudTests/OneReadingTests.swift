import Foundation
import Testing
@testable import MathAloud

/// One reading per formula, whatever its source (issue "speech quality", item 9): each TeX formula of
/// the corpora and the MathML that `mathaloud parse --to mathml` makes of it are spoken with the same
/// words, in every style. Semantics classifies by structure, never by TeX names, so they must agree.
@Suite struct OneReadingTests {
    static func formulas() throws -> [String] {
        var tex: [String] = []
        for file in ["en-clearspeak.jsonl", "en-mathspeak.jsonl"] {
            tex += try jsonLines(file).map { $0["tex"] as! String }
        }
        tex += try String(contentsOf: fixtureURL("arxiv-public.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        let katex = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtureURL("katex-screenshotter.json"))) as? [[String: Any]] ?? []
        tex += katex.compactMap { $0["tex"] as? String }
        return tex
    }

    @Test(arguments: ["clearspeak", "mathspeak"])
    func texAndItsMathMLSpeakAlike(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        let writer = MathMLWriter()
        var differing: [(String, String, String)] = []
        for tex in try Self.formulas() {
            let parsed = speaker.parser.parse(tex, notation: .tex)
            if parsed.hasErrors { continue }  // an error node has no MathML of its own to compare
            let fromTeX = speaker.speak(parsed: parsed).text
            let mathml = writer.write(parsed.root)
            let fromMathML = speaker.speak(mathML: mathml).text
            if fromTeX != fromMathML { differing.append((tex, fromTeX, fromMathML)) }
        }
        for d in differing.prefix(12) { print("  \(style) differs: \(d.0)\n    TeX:    \(d.1)\n    MathML: \(d.2)") }
        #expect(differing.isEmpty, "\(style): \(differing.count) formulas read differently from their MathML")
    }

    /// MathML as MathJax 2 writes `\begin{cases}` and `\left\{ … \right.` (an unmarked `{` and an empty
    /// closing `mo` with `symmetric`), as web pages hold it, reads as the TeX does: cases, not "open brace".
    @Test func mathJax2CasesReadAsTheTeX() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let tex = #"f(x) = \begin{cases} x & \text{if } x \ge 0 \\ -x & \text{otherwise} \end{cases}"#
        let mathJax2 = "<math><mi>f</mi><mo stretchy='false'>(</mo><mi>x</mi><mo stretchy='false'>)</mo><mo>=</mo>"
            + "<mrow><mo>{</mo><mtable columnalign='left left' rowspacing='4pt' columnspacing='1em'>"
            + "<mtr><mtd><mi>x</mi></mtd><mtd><mtext>if&#xA0;</mtext><mi>x</mi><mo>&#x2265;</mo><mn>0</mn></mtd></mtr>"
            + "<mtr><mtd><mo>&#x2212;</mo><mi>x</mi></mtd><mtd><mtext>otherwise</mtext></mtd></mtr></mtable>"
            + "<mo fence='true' stretchy='true' symmetric='true'></mo></mrow></math>"
        let fromTeX = speaker.speak(tex: tex).text
        #expect(fromTeX.contains("2 cases, case 1"))
        #expect(speaker.speak(mathML: mathJax2).text == fromTeX)
    }
}
