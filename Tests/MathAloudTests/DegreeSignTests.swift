import Foundation
import Testing
@testable import MathAloud

/// The one-character degree signs: `℃` takes the SI prefixes `°C` takes, and every shipped locale has
/// words for `℃` (no Unicode name, no missing-word warning). A degree ring raised on nothing (`25\,^\circ C`,
/// `{}^\circ C`, the spaced typesetting of "25 °C") is the degree sign, never a pre-superscript of the C, and
/// degrees Celsius read alike however they are written.
@Suite struct DegreeSignTests {
    @Test func prefixedDegreeCelsiusIsAUnit() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        let spoken = speaker.speak(mathML: #"<math><mn>1</mn><mi intent=":unit">p℃</mi><mo>,</mo><mn>2</mn><mi intent=":unit">m℃</mi></math>"#)
        #expect(spoken.text.contains("1 picodegree Celsius"))
        #expect(spoken.text.contains("2 millidegrees Celsius"))
    }

    @Test(arguments: VulgarFractionTests.locales)
    func everyLocaleNamesTheDegreeCelsiusSign(_ locale: String) throws {
        let speaker = try Speaker(locale: LocaleTag(locale), cacheCapacity: 0)
        let spoken = speaker.speak(tex: "20℃")
        #expect(!spoken.speechDiagnostics.contains { $0.id == "speech.missing-word" }, "\(locale): \(spoken.text)")
        #expect(!spoken.text.lowercased().contains("degree celsius") || locale == "en", "\(locale): \(spoken.text)")
    }

    @Test(arguments: VulgarFractionTests.locales)
    func aDegreeRingOnNothingIsTheDegreeSign(_ locale: String) throws {
        for style in ["clearspeak", "mathspeak"] {
            let speaker = try Speaker(locale: LocaleTag(locale), style: SpeechStyleName(style), cacheCapacity: 0)
            let joined = speaker.speak(tex: #"25^{\circ}C"#).text
            #expect(speaker.speak(tex: #"25\,^{\circ}C"#).text == joined, "\(locale) \(style)")
            #expect(speaker.speak(tex: #"25{}^{\circ}C"#).text == joined, "\(locale) \(style)")
            // The same formula as MathML: a thin space as the script's base.
            let mathML = #"<math><mn>25</mn><msup><mspace width="0.167em"/><mo>∘</mo></msup><mi>C</mi></math>"#
            #expect(speaker.speak(mathML: mathML).text == joined, "\(locale) \(style): MathML")
            #expect(speaker.speak(tex: #"{}^\circ C"#).text == speaker.speak(tex: "°C").text, "\(locale) \(style)")
            // Degrees Celsius however written: the ring and a letter, a text or an upright C, or the one sign.
            #expect(speaker.speak(tex: #"25\,℃"#).text == joined, "\(locale) \(style): ℃")
            #expect(speaker.speak(tex: #"25^\circ\text{C}"#).text == joined, "\(locale) \(style): text")
            #expect(speaker.speak(tex: #"25^\circ\mathrm{C}"#).text == joined, "\(locale) \(style): upright")
            // As publishers write MathML: the sign and the letter apart, in two texts, one text or identifiers.
            for apart in [#"<math><mn>25</mn><mtext>°</mtext><mtext>C</mtext></math>"#,
                          #"<math><mn>25</mn><mtext>° C</mtext></math>"#,
                          #"<math><mn>25</mn><mi>°</mi><mi mathvariant="normal">C</mi></math>"#] {
                #expect(speaker.speak(mathML: apart).text == joined, "\(locale) \(style): \(apart)")
            }
        }
    }

    @Test func lookAlikesStayPreScriptsAndTheKelvinScaleIsRead() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        #expect(speaker.speak(tex: #"25\,^{\circ}\mathrm{C}"#).text == "25 degrees Celsius")
        #expect(speaker.speak(tex: #"1^\circ F"#).text == "1 degree Fahrenheit")
        #expect(speaker.speak(tex: #"T = 300\,^\circ K"#).text == "T equals 300 degrees K")
        // A number or a letter raised on nothing before a letter is still a pre-superscript.
        #expect(speaker.speak(tex: #"{}^{14}C"#).text == "C with mass number 14")
        #expect(speaker.speak(tex: #"{}^{\bullet}C"#).text != speaker.speak(tex: #"C^{\bullet}"#).text)
    }
}
