import Foundation
import MathAloud

/// What to say: structured speech, plain text, or SSML.
public enum VoiceUtterance: Sendable, Hashable {
    /// A ``SpeechDescription``: rendered to SSML by ``SSMLRenderer``, its graded pauses becoming
    /// `<break>`s scaled by ``VoiceOptions/pauseScale`` (and scripts wrapped in `<prosody>` when
    /// ``VoiceOptions/scriptProsody`` is on).
    case speech(SpeechDescription)
    /// Plain text; markup in it is read aloud, not interpreted.
    case text(String)
    /// An SSML 1.1 document (`<speak>…</speak>`), checked before it reaches the engine.
    case ssml(String)
}

/// Audio for one utterance, with exactly what the engine was given.
public struct VoiceRecording: Sendable, Hashable {
    /// The audio (16-bit PCM mono at the engine's rate); ``WAVAudio/wavData()`` is the WAV file.
    public let audio: WAVAudio
    /// The text sent to eSpeak-NG (SSML for `.speech` and `.ssml` utterances).
    public let engineInput: String
    /// Whether ``engineInput`` was sent as SSML.
    public let isSSML: Bool
    /// The eSpeak-NG voice that spoke (its identifier, e.g. `gmw/en-US`).
    public let voice: String
}

/// Turns speech into audio with eSpeak-NG in one voice and one set of options.
///
/// A `Voice` is an immutable value and `Sendable`: share it between threads. All voices use the one
/// process-wide ``VoiceEngine``, which serialises every call into eSpeak-NG (its state is global), so
/// concurrent callers are safe and take turns.
///
/// ```swift
/// let speaker = try Speaker(locale: "en")
/// let voice = try Voice(locale: "en", options: VoiceOptions(rate: 160, pauseScale: 1.5))
/// let spoken = speaker.speak(tex: #"\frac{a}{b}"#)
/// let recording = try voice.synthesize(.speech(spoken.speech))
/// try recording.audio.wavData().write(to: URL(fileURLWithPath: "ab.wav"))
/// ```
public struct Voice: Sendable {
    /// The locale the voice was chosen for (and the language of the speech).
    public let locale: LocaleTag
    /// The options.
    public let options: VoiceOptions
    /// The eSpeak-NG voice: ``VoiceOptions/voice`` when given, otherwise chosen from the locale through
    /// ``VoiceTable``.
    public let installedVoice: VoiceEngine.InstalledVoice
    /// The engine (the process's one eSpeak-NG).
    public let engine: VoiceEngine

    /// Chooses the voice and checks the options.
    /// - Throws: ``VoiceError/engineUnavailable(_:)`` when eSpeak-NG cannot start,
    ///   ``VoiceError/unknownVoice(_:suggestions:)`` for a voice name that is not installed,
    ///   ``VoiceError/noVoiceForLocale(_:tried:)`` when no voice speaks the locale,
    ///   ``VoiceError/invalidOption(_:)`` for an option out of range.
    /// `resources` holds the locales whose `espeak-voice` settings name voices (by default the built-in
    /// ones overlaid by `MATHALOUD_RULES`; pass those of a rules directory to voice a locale there).
    public init(locale: LocaleTag = .english, options: VoiceOptions = VoiceOptions(), resources: SpeechResources? = nil) throws(VoiceError) {
        try options.validate()
        let engine = try VoiceEngine.shared()
        if let name = options.voice {
            guard let v = engine.voice(named: name) else {
                throw .unknownVoice(name, suggestions: engine.suggestions(for: name))
            }
            installedVoice = v
        } else {
            installedVoice = try engine.voice(forLocale: locale.rawValue, resources: resources)
        }
        self.locale = locale
        self.options = options
        self.engine = engine
    }

    /// Samples per second of the audio.
    public var sampleRate: Int { engine.sampleRate }

    /// The SSML sent to the engine for structured speech: ``SSMLRenderer`` with this voice's pause scale,
    /// script prosody and language (the voice's own, so eSpeak-NG keeps the chosen voice).
    public func ssml(for speech: SpeechDescription) -> String {
        SSMLRenderer(scriptProsody: options.scriptProsody, pauseScale: options.pauseScale,
                     language: installedVoice.languages.first ?? SSMLRenderer.language(of: locale)).render(speech)
    }

    /// Synthesises one utterance.
    /// - Throws: ``VoiceError/emptyInput``, ``VoiceError/inputTooLarge(bytes:limit:)``,
    ///   ``VoiceError/invalidSSML(_:)``, ``VoiceError/audioTooLong(limitSeconds:)`` and engine errors.
    public func synthesize(_ utterance: VoiceUtterance) throws(VoiceError) -> VoiceRecording {
        let request = try self.request(for: utterance)
        return try recording(engine.synthesize(request), request)
    }

    /// Synthesises many utterances on the one initialised engine, holding its lock once for the whole
    /// batch (no other caller interleaves; the voice is set once). One result per utterance, in order: a
    /// bad utterance fails alone.
    public func synthesize(_ utterances: [VoiceUtterance]) -> [Result<VoiceRecording, VoiceError>] {
        var requests: [VoiceEngine.Request] = []
        var results: [Result<VoiceRecording, VoiceError>?] = []
        for u in utterances {
            do throws(VoiceError) {
                requests.append(try request(for: u))
                results.append(nil)
            } catch {
                results.append(.failure(error))
            }
        }
        var audio = engine.synthesize(requests).makeIterator()
        var sent = requests.makeIterator()
        return results.map { r in
            if let r { return r }
            let request = sent.next()!
            return audio.next()!.map { recording($0, request) }
        }
    }

    /// Speaks TeX with `speaker` and voices the speech.
    public func synthesize(tex: String, speaker: Speaker) throws(VoiceError) -> (spoken: SpokenFormula, recording: VoiceRecording) {
        let spoken = speaker.speak(tex: tex)
        return (spoken, try synthesize(.speech(spoken.speech)))
    }

    func request(for utterance: VoiceUtterance) throws(VoiceError) -> VoiceEngine.Request {
        let text: String
        let isSSML: Bool
        switch utterance {
        case .speech(let speech):
            guard !speech.isEmpty else { throw .emptyInput }
            text = ssml(for: speech)
            isSSML = true
        case .text(let plain):
            guard plain.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0 != "\0" }) else { throw .emptyInput }
            text = plain.contains("\0") ? plain.replacingOccurrences(of: "\0", with: " ") : plain
            isSSML = false
        case .ssml(let document):
            guard document.utf8.count <= options.maximumInputBytes else {
                throw .inputTooLarge(bytes: document.utf8.count, limit: options.maximumInputBytes)
            }
            try SSMLValidator.validate(document)
            text = document
            isSSML = true
        }
        guard text.utf8.count <= options.maximumInputBytes else {
            throw .inputTooLarge(bytes: text.utf8.count, limit: options.maximumInputBytes)
        }
        return VoiceEngine.Request(text: text, isSSML: isSSML, voice: installedVoice.identifier, rate: options.rate,
                                   pitch: options.pitch, volume: options.volume,
                                   maximumSamples: Int(options.maximumDuration * Double(engine.sampleRate)),
                                   maximumDuration: options.maximumDuration)
    }

    private func recording(_ audio: WAVAudio, _ request: VoiceEngine.Request) -> VoiceRecording {
        VoiceRecording(audio: audio, engineInput: request.text, isSSML: request.isSSML, voice: request.voice)
    }
}

// MARK: - async

extension Voice {
    /// Synthesises one utterance without blocking the caller's thread: eSpeak-NG is one engine per
    /// process behind a lock (``VoiceEngine``), so the work waits its turn on a thread of its own and
    /// the task resumes when the audio is ready.
    public func synthesize(_ utterance: VoiceUtterance) async throws(VoiceError) -> VoiceRecording {
        try await Voice.offload { () throws(VoiceError) in try self.synthesize(utterance) }
    }

    /// Synthesises many utterances (one lock hold) without blocking the caller's thread.
    public func synthesize(_ utterances: [VoiceUtterance]) async -> [Result<VoiceRecording, VoiceError>] {
        await Voice.offload { () throws(Never) in self.synthesize(utterances) }
    }

    /// Speaks TeX with `speaker` and voices it, without blocking the caller's thread.
    public func synthesize(tex: String, speaker: Speaker) async throws(VoiceError) -> (spoken: SpokenFormula, recording: VoiceRecording) {
        try await Voice.offload { () throws(VoiceError) in try self.synthesize(tex: tex, speaker: speaker) }
    }

    /// Runs blocking work on a dispatch thread and resumes the task with its result (the concurrency
    /// pool's threads are not held while the engine's lock is waited for).
    static func offload<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(E) -> T in try work() })
            }
        }
        return try result.get()
    }
}
