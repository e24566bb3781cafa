import Foundation
import Testing
@testable import MathAloud

/// A MathML `semantics` whose presentation child is missing (MathML 3 §5.1.2 makes it the first) is
/// not silent when it holds something to read: an `annotation-xml` of presentation MathML (MathCAT's
/// reading), else its TeX annotation. Only with neither does it say nothing, and a warning says why.
@Suite struct SemanticsAnnotationTests {
    @Test func aPresentationAnnotationIsRead() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        let spoken = speaker.speak(mathML: """
            <math><semantics><annotation encoding="application/x-tex">x_k^i</annotation>\
            <annotation-xml encoding="MathML-Presentation"><msubsup><mi>x</mi><mi>k</mi><mi>i</mi></msubsup>\
            </annotation-xml></semantics></math>
            """)
        #expect(spoken.text == speaker.speak(tex: "x_k^i").text)
        #expect(spoken.diagnostics.isEmpty)
    }

    @Test func theTeXAnnotationIsReadWhenNothingElseCanBe() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        let source = #"<math><semantics><annotation encoding="application/x-tex">\frac{1}{x^2}</annotation></semantics></math>"#
        let spoken = speaker.speak(mathML: source)
        #expect(spoken.text == speaker.speak(tex: #"\frac{1}{x^2}"#).text)
        #expect(spoken.diagnostics.isEmpty)
        // A TeX error is reported on the annotation's range (offsets in the TeX are not the MathML's).
        let broken = #"<math><semantics><annotation encoding="TeX">\frac{1}{x</annotation></semantics></math>"#
        let bad = speaker.speak(mathML: broken)
        let annotation = try #require(broken.range(of: #"<annotation encoding="TeX">\frac{1}{x</annotation>"#))
        let lower = broken.utf8.distance(from: broken.startIndex, to: annotation.lowerBound)
        #expect(!bad.diagnostics.isEmpty)
        #expect(bad.diagnostics.allSatisfy { $0.range?.lowerBound == lower })
    }

    @Test func anAnnotationOfAnotherKindAloneSaysNothingAndWarns() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        for source in ["<math><semantics><annotation>something</annotation></semantics></math>",
                       "<math><semantics><annotation-xml encoding='MathML-Content'><ci>x</ci></annotation-xml></semantics></math>"] {
            let spoken = speaker.speak(mathML: source)
            #expect(spoken.text.isEmpty, "\(source)")
            #expect(spoken.diagnostics.map(\.id) == ["mathml.wrong-child-count"], "\(source)")
        }
    }

    @Test func thePresentationChildWinsOverEveryAnnotation() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        let spoken = speaker.speak(mathML: """
            <math><semantics><mi>y</mi><annotation encoding="application/x-tex">x</annotation>\
            <annotation-xml encoding="MathML-Presentation"><mi>x</mi></annotation-xml></semantics></math>
            """)
        #expect(spoken.text == "y")
    }
}
