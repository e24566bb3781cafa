import Foundation
import Testing
@testable import MathAloud

/// The English conformance corpora (copied from the shared corpus) and the arXiv formulas.
@Suite struct CorpusSpeechTests {
    /// Lines whose expectation contradicts the ClearSpeak document; listed with the section.
    static let clearSpeakExceptions: [String: String] = [:]

    @Test func clearSpeakConformance() throws {
        let rate = try conformance("en-clearspeak.jsonl", title: "ClearSpeak conformance", dropSpaces: false) { line in
            let preferences = line["preferences"] as? [String: String] ?? [:]
            let speaker = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: preferences)
            return (speaker.speak(tex: line["tex"] as! String).text, line["expected"] as! String, "\(preferences)")
        }
        #expect(rate >= 0.97, "ClearSpeak \(rate)")
    }

    @Test(arguments: ["verbose", "brief", "superbrief"])
    func mathSpeakConformance(_ verbosity: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "mathspeak", preferences: ["Verbosity": verbosity])
        let rate = try conformance("en-mathspeak.jsonl", title: "MathSpeak \(verbosity)", dropSpaces: true) { line in
            (speaker.speak(tex: line["tex"] as! String).text, (line["expected"] as! [String: String])[verbosity]!, "")
        }
        #expect(rate >= 0.95, "MathSpeak \(verbosity) \(rate)")
    }

    /// Speaks every line of a conformance file, prints the score and the failures, returns the share
    /// that matched (normalised as the corpus README says).
    private func conformance(_ file: String, title: String, dropSpaces: Bool,
                             _ speak: ([String: Any]) throws -> (got: String, expected: String, note: String)) throws -> Double {
        let lines = try jsonLines(file)
        var passed = 0
        var failures: [String] = []
        for line in lines {
            let (got, expected, note) = try speak(line)
            if normalizedSpeech(got, dropSpaces: dropSpaces) == normalizedSpeech(expected, dropSpaces: dropSpaces) {
                passed += 1
            } else {
                failures.append("\(line["id"]!): \(line["tex"]!) \(note)\n    got:      \(got)\n    expected: \(expected)")
            }
        }
        let rate = Double(passed) / Double(lines.count)
        print("\(title): \(passed)/\(lines.count) = \(String(format: "%.1f", rate * 100)) %")
        for f in failures { print("  " + f) }
        return rate
    }
}
