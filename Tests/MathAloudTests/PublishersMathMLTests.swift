import Foundation
import MathAloud
import Testing

/// MathML as publishers' tools write it (OpenStax's books among them): function names as text, dashes
/// as minus signs, signs inside numbers. Each is read as the MathML a TeX converter writes is, in every
/// style that infers meaning, and the look-alikes stay as they are.
@Suite struct PublishersMathMLTests {
    static func pair(_ f: String) -> (text: String, identifier: String) {
        ("<math><mi>A</mi><mtext>\(f)</mtext><mo>(</mo><mi>k</mi><mi>x</mi><mo>)</mo><mo>+</mo><msup><mtext>\(f)</mtext><mn>2</mn></msup><mi>θ</mi>"
            + "<mo>+</mo><msup><mtext>\(f)</mtext><mrow><mo>−</mo><mn>1</mn></mrow></msup><mo>(</mo><mi>x</mi><mo>)</mo></math>",
         "<math><mi>A</mi><mi>\(f)</mi><mo>(</mo><mi>k</mi><mi>x</mi><mo>)</mo><mo>+</mo><msup><mi>\(f)</mi><mn>2</mn></msup><mi>θ</mi>"
            + "<mo>+</mo><msup><mi>\(f)</mi><mrow><mo>−</mo><mn>1</mn></mrow></msup><mo>(</mo><mi>x</mi><mo>)</mo></math>")
    }

    /// `<mtext>sin</mtext>` is the sine, as `<mi>sin</mi>` is: applied, squared and inverted alike.
    @Test(arguments: ["clearspeak", "simplespeak", "mathspeak"])
    func functionNamesWrittenAsText(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        for f in ["sin", "cos", "tan", "ln", "exp", "sinh"] {
            let (text, identifier) = Self.pair(f)
            #expect(speaker.speak(mathML: text).text == speaker.speak(mathML: identifier).text, "\(f) in \(style)")
        }
        let clear = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(clear.speak(mathML: Self.pair("tan").text).text.hasSuffix("the inverse tangent of x"))
        // An ordinal's suffix and a word with spaces around it stay text.
        #expect(clear.speak(mathML: "<math><mn>5</mn><mtext>th</mtext></math>").text == "5 th")
        #expect(clear.speak(mathML: "<math><mi>x</mi><mtext> sin </mtext><mi>y</mi></math>").text.contains("sin"))
    }

    /// An en dash set as an operator is the minus sign (negative before an operand); between numbers a range.
    @Test func dashesAreMinusSigns() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mo>(</mo><mo>–</mo><mi>E</mi><mo>)</mo><mo>+</mo><msup><mi>a</mi><mn>2</mn></msup><mo>–</mo><msup><mi>b</mi><mn>2</mn></msup></math>").text
            == "negative E plus a squared minus b squared")
        #expect(speaker.speak(mathML: "<math><mn>10</mn><mo>–</mo><mn>20</mn></math>").text == "10 dash 20")
    }

    /// A unit with the sentence's punctuation typed into its text is the unit, and the mark a pause.
    @Test func unitsWithTheSentencesPunctuation() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mn>4</mn><mtext>N,</mtext><mn>5</mn><mtext>N</mtext></math>").text == "4 newtons, 5 newtons")
        #expect(speaker.speak(mathML: "<math><mn>3</mn><mtext>m/s?</mtext></math>").text == "3 meters per second")
    }
}
