import Foundation
import Testing
@testable import MathAloud
import MathSyntax

/// A vulgar fraction character (`½`, `¾`, `⅞`) is the fraction it writes, in TeX and in MathML, in every
/// shipped locale and style: it reads as `\frac{1}{2}` does, where it was read by a word only English has
/// (the other languages fell back to its Unicode name, "vulgar fraction one half").
@Suite struct VulgarFractionTests {
    static var locales: [String] { SpeechResources(files: EmbeddedSpeechResources.files).locales }

    @Test(arguments: locales)
    func readsAsTheFractionItWrites(_ locale: String) throws {
        for style in ["clearspeak", "mathspeak"] {
            let speaker = try Speaker(locale: LocaleTag(locale), style: SpeechStyleName(style), cacheCapacity: 0)
            for (character, tex) in [("½", #"\frac{1}{2}"#), ("¾", #"\frac{3}{4}"#), ("⅞", #"\frac{7}{8}"#)] {
                let typed = speaker.speak(tex: character + " + x")
                let written = speaker.speak(tex: tex + " + x")
                #expect(typed.text == written.text, "\(locale) \(style): \(character)")
                #expect(!typed.speechDiagnostics.contains { $0.id == "speech.missing-word" }, "\(locale) \(style): \(character)")
                #expect(!typed.text.lowercased().contains("fraction one"), "\(locale) \(style): \(typed.text)")
                let mathML = speaker.speak(mathML: "<math><mn>\(character)</mn><mo>+</mo><mi>x</mi></math>")
                #expect(mathML.text == written.text, "\(locale) \(style): <mn>\(character)</mn>")
            }
        }
    }

    /// The fraction's parts carry the character's place in the formula, and a mixed number reads as one.
    @Test func keepsItsRangeAndMakesMixedNumbers() throws {
        let speaker = try Speaker(cacheCapacity: 0)
        let spoken = speaker.speak(tex: "x + ½")
        #expect(spoken.text == "x plus one half")
        let ranges = spoken.speech.items.compactMap { item -> SourceRange? in
            if case .words(_, let range, _) = item { return range } else { return nil }
        }
        #expect(ranges.last == SourceRange(4, 6))   // ½ is two bytes of UTF-8
        #expect(speaker.speak(tex: "1½").text == "1 and one half")
    }
}
