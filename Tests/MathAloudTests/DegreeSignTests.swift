import Foundation
import Testing
@testable import MathAloud

/// The one-character degree signs: `℃` takes the SI prefixes `°C` takes, and every shipped locale has
/// words for `℃` (no Unicode name, no missing-word warning).
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
}
