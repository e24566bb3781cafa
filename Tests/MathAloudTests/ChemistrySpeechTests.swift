import Foundation
import MathAloud
import Testing

/// The examples of mhchem's manual (kept with the TeX tests: Tests/MathTeXTests/Fixtures/mhchem-manual.txt).
private let manualExamples: [String] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MathTeXTests/Fixtures/mhchem-manual.txt")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("%") && !$0.isEmpty }
}()

@Suite("Chemistry speech")
struct ChemistrySpeechTests {
    static let clearSpeak = try! Speaker(style: "clearspeak")
    static let mathSpeak = try! Speaker(style: "mathspeak")
    static let simpleSpeak = try! Speaker(style: "simplespeak")

    @Test(arguments: manualExamples)
    func everyManualExampleSpeaks(_ tex: String) {
        for speaker in [Self.clearSpeak, Self.mathSpeak, Self.simpleSpeak] {
            let spoken = speaker.speak(tex: tex)
            #expect(!spoken.text.isEmpty)
            #expect(!spoken.diagnostics.containsError, "\(spoken.diagnostics.map(\.message))")
            #expect(!spoken.diagnostics.contains { $0.id == "speech.missing-word" }, "\(spoken.text)")
        }
    }

    @Test(arguments: [
        (#"\ce{H2O}"#, "H 2 O"),
        (#"\ce{2 H2 + O2 -> 2 H2O}"#, "2 H 2 plus O 2 yields 2 H 2 O"),
        (#"\ce{Fe^3+}"#, "Fe 3 plus ion"),
        (#"\ce{A <=> B}"#, "A forms an equilibrium with B"),
        (#"\ce{Hg^2+ ->[I-] HgI2}"#, "Hg 2 plus ion yields, with I minus ion above the arrow, Hg I 2"),
        (#"\ce{CO3^2-_{(aq)}}"#, "C O 3 2 minus aqueous"),
        (#"\pu{123 kJ//mol}"#, "123 kilojoules per mole"),
    ])
    func readings(_ tex: String, _ expected: String) {
        #expect(Self.clearSpeak.speak(tex: tex).text == expected)
        // \pu's units are read by each style's own rules (MathSpeak says the fraction).
        if !tex.hasPrefix("\\pu") { #expect(Self.mathSpeak.speak(tex: tex).text == expected) }
        // SimpleSpeak says an equilibrium in MathCAT's words ("is in equilibrium with").
        #expect(Self.simpleSpeak.speak(tex: tex).text
                == expected.replacingOccurrences(of: "forms an equilibrium with", with: "is in equilibrium with"))
    }
}
