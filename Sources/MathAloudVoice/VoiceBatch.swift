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
    private let options: VoiceOptions
    private let speakers: SpeakerPool
    private var voices: [String: Voice] = [:]
    private var fileNames = BatchFileNamer()
    private var lineNumber = 0
    private let lock = NSLock()

    /// Creates a processor writing into `directory` (created if missing).
    public convenience init(directory: URL, locale: String = "en", style: String = "clearspeak", preferences: [String: String] = [:],
                options: VoiceOptions = VoiceOptions(), rulesDirectory: URL? = nil,
                texOptions: TeXParserOptions = TeXParserOptions()) {
        self.init(directory: directory, speakers: SpeakerPool(locale: locale, style: style, preferences: preferences,
                                                              rulesDirectory: rulesDirectory, texOptions: texOptions),
                  options: options)
    }

    /// Creates a processor writing into `directory` whose lines get their speakers from `speakers`.
    public init(directory: URL, speakers: SpeakerPool, options: VoiceOptions = VoiceOptions()) {
        self.directory = directory
        self.options = options
        self.speakers = speakers
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
                    let file = fileNames.name(forID: job.id, line: job.number, extension: "wav")
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
        BatchLineError(id: id, message: message).jsonLine
    }

    private func prepare(_ line: String) -> Job {
        let batchLine: BatchLine
        switch BatchLine.read(line, speakers: speakers) {
        case .success(let l): batchLine = l
        case .failure(let e): return Job(id: e.id, outcome: nil, error: e.message)
        }
        let id = batchLine.id
        func fail(_ message: String) -> Job { Job(id: id, outcome: nil, error: message) }
        var options = self.options
        if let v = batchLine.object["voice"] {
            guard let name = v as? String else { return fail("\"voice\" must be a string") }
            options.voice = name
        }
        let speaker = batchLine.speaker
        let speech: SpeechDescription
        if let (source, notation) = batchLine.formula { speech = speaker.speak(source, notation: notation).speech }
        else if let t = batchLine.object["text"] as? String { speech = speaker.speech(forText: t).speech }
        else { return fail("the object needs a \"tex\", \"mathml\" or \"text\" string") }
        do {
            let voice = try self.voice(locale: speaker.locale, options: options)
            let request = try voice.request(for: .speech(speech))
            return Job(id: id, outcome: .success((speech.plainText, request)))
        } catch {
            return Job(id: id, outcome: .failure(error))
        }
    }

    private func voice(locale: String, options: VoiceOptions) throws(VoiceError) -> Voice {
        let key = "\(locale)|\(options.voice ?? "")"
        if let v = voices[key] { return v }
        let v = try Voice(locale: locale, options: options)
        if voices.count >= 16 { voices.removeAll() }
        voices[key] = v
        return v
    }
}
