import Foundation
import MathAloud

/// Voices JSON Lines batches into a directory: one WAV file per line and a manifest.
///
/// Each input line is a ``FormulaRequest`` (`{"id", "tex"|"mathml"|"text", "locale"?, "style"?,
/// "preferences"?: {name: value}, "voice"?}`; `text` is prose with inline math). Each line gives one
/// manifest line (`index.jsonl` in the directory), in input order: an ``AudioResponse`` (`{"diagnostics",
/// "duration", "file", "id", "label"}` — duration in seconds, file relative to the directory, label the
/// plain-text speech, diagnostics as `speak --batch` gives them) or a ``BatchError`` (`{"error", "id"}`)
/// when the line cannot be voiced (an unusable line, input refused as a whole, audio over the limits).
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
    public convenience init(directory: URL, locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak,
                            preferences: [String: String] = [:], options: VoiceOptions = VoiceOptions(), rulesDirectory: URL? = nil,
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
        /// The manifest entry.
        public let result: BatchResult<AudioResponse>
        /// The manifest line (without a newline).
        public var manifestLine: String { result.jsonLine }
        /// Whether the line was voiced without errors (false: the manifest line is an error, or the
        /// speech has error diagnostics).
        public var succeeded: Bool { !result.hasErrors }
    }

    private struct Job {
        let id: JSONValue
        var number = 0
        var outcome: Result<(label: String, diagnostics: [DiagnosticRecord], request: VoiceEngine.Request), BatchError>
    }

    /// Voices lines (in order), writing their WAV files; returns one result per line. A bad line fails
    /// alone. Throws only when a WAV file cannot be written.
    public func process(lines: [String]) throws -> [LineResult] {
        try process(lines.map { FormulaRequest.read(line: $0) })
    }

    /// Voices requests (or the errors of lines that could not be read), in order, writing their WAV
    /// files; one result per element. Throws only when a WAV file cannot be written.
    public func process(_ requests: [Result<FormulaRequest, BatchError>]) throws -> [LineResult] {
        lock.lock()
        defer { lock.unlock() }
        var jobs: [Job] = []
        var engineRequests: [VoiceEngine.Request] = []
        for request in requests {
            lineNumber += 1
            var job: Job
            switch request {
            case .success(let r): job = prepare(r)
            case .failure(let e): job = Job(id: e.id, outcome: .failure(e))
            }
            job.number = lineNumber
            if case .success(let s) = job.outcome { engineRequests.append(s.request) }
            jobs.append(job)
        }
        guard let engine = try? VoiceEngine.shared() else {
            return jobs.map { job in
                if case .failure(let e) = job.outcome { return LineResult(result: .failure(e)) }
                return LineResult(result: .failure(BatchError(id: job.id, message: "eSpeak-NG is not available")))
            }
        }
        var audio = engine.synthesize(engineRequests).makeIterator()
        var results: [LineResult] = []
        for job in jobs {
            switch job.outcome {
            case .failure(let e):
                results.append(LineResult(result: .failure(e)))
            case .success(let s):
                switch audio.next()! {
                case .failure(let e):
                    results.append(LineResult(result: .failure(BatchError(id: job.id, message: e.description))))
                case .success(let wav):
                    let file = fileNames.name(forID: job.id, line: job.number, extension: "wav")
                    try wav.wavData().write(to: directory.appendingPathComponent(file))
                    results.append(LineResult(result: .success(AudioResponse(id: job.id, file: file, duration: wav.duration,
                                                                             label: s.label, diagnostics: s.diagnostics))))
                }
            }
        }
        return results
    }

    private func prepare(_ request: FormulaRequest) -> Job {
        let id = request.id
        func fail(_ message: String) -> Job { Job(id: id, outcome: .failure(BatchError(id: id, message: message))) }
        let speaker: Speaker
        switch speakers.speaker(for: request) {
        case .success(let s): speaker = s
        case .failure(let e): return Job(id: id, outcome: .failure(e))
        }
        var options = self.options
        if let name = request.voice { options.voice = name }
        let speech: SpeechDescription
        let diagnostics: [Diagnostic]
        let source: SourceText
        switch request.input {
        case .text(let t):
            let spoken = speaker.speech(forText: t)
            (speech, diagnostics, source) = (spoken.speech, spoken.diagnostics, SourceText(t))
        case .tex(let f), .mathml(let f):
            let spoken = speaker.speak(f, notation: request.input.notation!)
            (speech, diagnostics, source) = (spoken.speech, spoken.diagnostics, spoken.source)
        }
        let renderer = DiagnosticRenderer(source: source)
        do {
            let voice = try self.voice(locale: speaker.locale, options: options)
            let engineRequest = try voice.request(for: .speech(speech))
            return Job(id: id, outcome: .success((speech.plainText, diagnostics.map(renderer.record), engineRequest)))
        } catch {
            return fail(error.description)
        }
    }

    private func voice(locale: LocaleTag, options: VoiceOptions) throws(VoiceError) -> Voice {
        let key = "\(locale.rawValue.lowercased())|\(options.voice ?? "")"
        if let v = voices[key] { return v }
        let v = try Voice(locale: locale, options: options)
        if voices.count >= 16 { voices.removeAll() }
        voices[key] = v
        return v
    }
}
