import Foundation
import Testing
@testable import MathAloud

/// The English conformance corpora (copied from the shared corpus) and the arXiv formulas.
@Suite struct CorpusSpeechTests {
    /// Lines whose expectation contradicts the ClearSpeak document; listed with the section.
    static let clearSpeakExceptions: [String: String] = [:]

    @Test func clearSpeakConformance() throws {
        let lines = try jsonLines("en-clearspeak.jsonl")
        var passed = 0
        var failures: [String] = []
        for line in lines {
            let tex = line["tex"] as! String
            let expected = line["expected"] as! String
            let preferences = line["preferences"] as? [String: String] ?? [:]
            let speaker = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: preferences)
            let got = speaker.speak(tex: tex).text
            if normalizedSpeech(got) == normalizedSpeech(expected) {
                passed += 1
            } else {
                failures.append("\(line["id"]!): \(tex) \(preferences)\n    got:      \(got)\n    expected: \(expected)")
            }
        }
        let rate = Double(passed) / Double(lines.count)
        print("ClearSpeak conformance: \(passed)/\(lines.count) = \(String(format: "%.1f", rate * 100)) %")
        for f in failures { print("  " + f) }
        #expect(rate >= 0.97, "ClearSpeak \(passed)/\(lines.count)")
    }

    @Test(arguments: ["verbose", "brief", "superbrief"])
    func mathSpeakConformance(_ verbosity: String) throws {
        let lines = try jsonLines("en-mathspeak.jsonl")
        let speaker = try SpeakerCache.shared.speaker(style: "mathspeak", preferences: ["Verbosity": verbosity])
        var passed = 0
        var failures: [String] = []
        for line in lines {
            let tex = line["tex"] as! String
            let expected = (line["expected"] as! [String: String])[verbosity]!
            let got = speaker.speak(tex: tex).text
            if normalizedSpeech(got, dropSpaces: true) == normalizedSpeech(expected, dropSpaces: true) {
                passed += 1
            } else {
                failures.append("\(line["id"]!): \(tex)\n    got:      \(got)\n    expected: \(expected)")
            }
        }
        let rate = Double(passed) / Double(lines.count)
        print("MathSpeak \(verbosity): \(passed)/\(lines.count) = \(String(format: "%.1f", rate * 100)) %")
        for f in failures { print("  " + f) }
        #expect(rate >= 0.95, "MathSpeak \(verbosity) \(passed)/\(lines.count)")
    }
}
