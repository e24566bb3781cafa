import Foundation
import MathAloud

/// Voices JSON Lines batches into a directory: one WAV file per line and a manifest.
///
/// Each input line is `{"id", "tex"|"mathml"|"text", "locale"?, "style"?, "preferences"?: {name: value},
/// "voice"?}` (`text` is prose with inline math). Each line gives one manifest line (`index.jsonl` in the
/// directory), in input order: `{"duration", "file", "id", "label"}` — duration in seconds, file relative
/// to the directory, label the plain-text speech — or `{"error", "id"}` when the line cannot be voiced.
/// File names come from the id (characters other than letters, digits, `.`, `-`, `_` become `_`;
/// duplicates get `-2`, `-3`…; lines without an id are `line-N.wav`).
///
/// ``process(lines:)`` synthesises a chunk of lines through one ``VoiceEngine`` lock hold. Speakers and
/// voices for other settings are loaded on demand and kept in small bounded pools.
public final class VoiceBatchProcessor: @unchecked Sendable {
    /// Where WAV files and the manifest go.
    public let directory: URL
    private let defaults: (locale: String, style: String, preferences: [String: String], options: VoiceOptions)
    private let rulesDirectory: URL?
    private let texOptions: TeXParserOptions
    private var speakers: [String: Speaker] = [:]
    private var voices: [String: Voice] = [:]
    private var usedNames: Set<String> = []
    private var lineNumber = 0
    private let lock = NSLock()

    /// Creates a processor writing into `directory` (created if missing).
    public init(directory: URL, locale: String = "en", style: String = "clearspeak", preferences: [String: String] = [:],
                options: VoiceOptions = VoiceOptions(), rulesDirectory: URL? = nil,
                texOptions: TeXParserOptions = TeXParserOptions()) {
        self.directory = directory
        self.defaults = (locale, style, preferences, options)
        self.rulesDirectory = rulesDirectory
        self.texOptions = texOptions
    }

    /// The manifest's URL, `index.jsonl` in the directory.
    public var manifestURL: URL { directory.appendingPathComponent("index.jsonl") }

    /// The outcome of one line.
    public struct LineResult: Sendable {
        /// The manifest line (without a newline).
        public let manifestLine: String
        /// Whether the line was voiced (false: the manifest line is an error).
        public let succeeded: Bool
    }

    private struct Job {
        let id: String
        var number = 0
        var outcome: Result<(label: String, request: VoiceEngine.Request), VoiceError>?
        var error: String?
    }

    /// Voices lines (in order), writing their WAV files; returns one result per line. A bad line fails
    /// alone. Throws only when a WAV file cannot be written.
    public func process(lines: [String]) throws -> [LineResult] {
        lock.lock()
        defer { lock.unlock() }
        var jobs: [Job] = []
        var requests: [VoiceEngine.Request] = []
        for line in lines {
            lineNumber += 1
            var job = prepare(line)
            job.number = lineNumber
            if case .success(let s)? = job.outcome { requests.append(s.request) }
            jobs.append(job)
        }
        guard let engine = try? VoiceEngine.shared() else {
            return jobs.map { LineResult(manifestLine: failure($0.id, $0.error ?? "eSpeak-NG is not available"), succeeded: false) }
        }
        var audio = engine.synthesize(requests).makeIterator()
        var results: [LineResult] = []
        for job in jobs {
            guard let outcome = job.outcome else {
                results.append(LineResult(manifestLine: failure(job.id, job.error ?? "unusable line"), succeeded: false))
                continue
            }
            switch outcome {
            case .failure(let e):
                results.append(LineResult(manifestLine: failure(job.id, e.description), succeeded: false))
            case .success(let s):
                switch audio.next()! {
                case .failure(let e):
                    results.append(LineResult(manifestLine: failure(job.id, e.description), succeeded: false))
                case .success(let wav):
                    let file = fileName(for: job.id, number: job.number)
                    try wav.wavData().write(to: directory.appendingPathComponent(file))
                    let manifest = "{\"duration\":" + String(format: "%.3f", wav.duration) + ",\"file\":" + JSONString.quote(file)
                        + ",\"id\":" + job.id + ",\"label\":" + JSONString.quote(s.label) + "}"
                    results.append(LineResult(manifestLine: manifest, succeeded: true))
                }
            }
        }
        return results
    }

    private func failure(_ id: String, _ message: String) -> String {
        "{\"error\":" + JSONString.quote(message) + ",\"id\":" + id + "}"
    }

    private func prepare(_ line: String) -> Job {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return Job(id: "null", outcome: nil, error: "line is not a JSON object")
        }
        let id = JSONText.encode(object["id"] ?? NSNull())
        func fail(_ message: String) -> Job { Job(id: id, outcome: nil, error: message) }
        let locale = object["locale"] as? String ?? defaults.locale
        let style = object["style"] as? String ?? defaults.style
        var preferences = defaults.preferences
        if let p = object["preferences"] {
            guard let dictionary = p as? [String: Any] else { return fail("\"preferences\" must be an object of strings") }
            for (k, v) in dictionary { preferences[k] = "\(v)" }
        }
        var options = defaults.options
        if let v = object["voice"] {
            guard let name = v as? String else { return fail("\"voice\" must be a string") }
            options.voice = name
        }
        let speaker: Speaker
        do { speaker = try self.speaker(locale: locale, style: style, preferences: preferences) } catch {
            return fail(error.description)
        }
        if !speaker.preferenceProblems.isEmpty { return fail(speaker.preferenceProblems.joined(separator: "; ")) }
        let speech: SpeechDescription
        if let t = object["tex"] as? String { speech = speaker.speak(tex: t).speech }
        else if let m = object["mathml"] as? String { speech = speaker.speak(mathML: m).speech }
        else if let t = object["text"] as? String { speech = speaker.speech(forText: t).speech }
        else { return fail("the object needs a \"tex\", \"mathml\" or \"text\" string") }
        do {
            let voice = try self.voice(locale: locale, options: options)
            let request = try voice.request(for: .speech(speech))
            return Job(id: id, outcome: .success((speech.plainText, request)))
        } catch {
            return Job(id: id, outcome: .failure(error))
        }
    }

    private func speaker(locale: String, style: String, preferences: [String: String]) throws(SpeechLoadError) -> Speaker {
        let key = "\(locale)|\(style)|" + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
        if let s = speakers[key] { return s }
        let s = try Speaker(locale: locale, style: style, preferences: preferences, rulesDirectory: rulesDirectory,
                            texOptions: texOptions, cacheCapacity: 256)
        if speakers.count >= 16 { speakers.removeAll() }
        speakers[key] = s
        return s
    }

    private func voice(locale: String, options: VoiceOptions) throws(VoiceError) -> Voice {
        let key = "\(locale)|\(options.voice ?? "")"
        if let v = voices[key] { return v }
        let v = try Voice(locale: locale, options: options)
        if voices.count >= 16 { voices.removeAll() }
        voices[key] = v
        return v
    }

    /// A unique file name for a line's id.
    private func fileName(for id: String, number: Int) -> String {
        var stem = id
        if stem.hasPrefix("\"") && stem.hasSuffix("\"") && stem.count >= 2 { stem = String(stem.dropFirst().dropLast()) }
        stem = String(stem.unicodeScalars.map { s -> Character in
            let ok = (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_" || s == "."
            return ok ? Character(s) : "_"
        }.prefix(64))
        if stem.isEmpty || stem == "null" || stem.hasPrefix(".") { stem = "line-\(number)" }
        var name = stem + ".wav"
        var n = 2
        while usedNames.contains(name) { name = "\(stem)-\(n).wav"; n += 1 }
        usedNames.insert(name)
        return name
    }
}
