import Foundation
@testable import MathAloud

/// The corpus comparison of `Tests/MathAloudTests/Fixtures/README` (copied from the corpus README):
/// split camel case, lowercase, hyphens to spaces, drop , ; : and dots not between digits, space at
/// letter/digit boundaries, split one-letter + "th", collapse white space. MathSpeak also drops spaces.
func normalizedSpeech(_ s: String, dropSpaces: Bool = false) -> String {
    var chars: [Character] = []
    let input = Array(s)
    for (i, c) in input.enumerated() {
        if i > 0, c.isUppercase, input[i - 1].isLowercase { chars.append(" ") }
        chars.append(c)
    }
    var text = String(chars).lowercased().replacingOccurrences(of: "-", with: " ")
    var out: [Character] = []
    let t = Array(text)
    for (i, c) in t.enumerated() {
        if c == "," || c == ";" || c == ":" { out.append(" "); continue }
        if c == "." {
            let before = i > 0 && t[i - 1].isNumber
            let after = i + 1 < t.count && t[i + 1].isNumber
            if !(before && after) { out.append(" "); continue }
        }
        if let last = out.last, (last.isLetter && c.isNumber) || (last.isNumber && c.isLetter) { out.append(" ") }
        out.append(c)
    }
    text = String(out)
    // One-letter token followed by "th": "nth" → "n th".
    var words: [String] = []
    for w in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
        if w.count == 3, w.hasSuffix("th"), w.first!.isLetter { words.append(String(w.first!)); words.append("th") }
        else { words.append(String(w)) }
    }
    text = words.joined(separator: " ")
    return dropSpaces ? text.replacingOccurrences(of: " ", with: "") : text
}

/// A fixture file of this test target.
func fixtureURL(_ name: String, file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name)
}

/// Reads a JSONL fixture.
func jsonLines(_ name: String) throws -> [[String: Any]] {
    let text = try String(contentsOf: fixtureURL(name), encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
    }
}

/// Speakers are costly to load; share them per configuration.
final class SpeakerCache: @unchecked Sendable {
    static let shared = SpeakerCache()
    private let lock = NSLock()
    private var speakers: [String: Speaker] = [:]

    func speaker(locale: String = "en", style: String, preferences: [String: String] = [:]) throws -> Speaker {
        let key = "\(locale)|\(style)|" + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        lock.lock()
        if let s = speakers[key] { lock.unlock(); return s }
        lock.unlock()
        let s = try Speaker(locale: LocaleTag(locale), style: SpeechStyleName(style), preferences: preferences, cacheCapacity: 0)
        lock.lock(); speakers[key] = s; lock.unlock()
        return s
    }
}
