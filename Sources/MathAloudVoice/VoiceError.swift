/// Why speech could not be voiced. Every failure of the voice module is one of these values; bad input
/// never crashes or hangs the engine.
public enum VoiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// eSpeak-NG could not be initialised: its data directory (`espeak-ng-data`, Debian package
    /// `espeak-ng-data`, pulled in by `espeak-ng`) is missing or unreadable.
    case engineUnavailable(String)
    /// No installed eSpeak-NG voice has this name (`--voice`).
    case unknownVoice(String, suggestions: [String])
    /// No installed voice speaks this locale; `tried` lists the voice names looked for, in order.
    case noVoiceForLocale(String, tried: [String])
    /// There is nothing to say (empty text, or speech without words).
    case emptyInput
    /// The text sent to the engine is larger than ``VoiceOptions/maximumInputBytes``.
    case inputTooLarge(bytes: Int, limit: Int)
    /// The audio would be longer than ``VoiceOptions/maximumDuration`` seconds (synthesis was stopped).
    case audioTooLong(limitSeconds: Double)
    /// SSML input that is not well-formed SSML 1.1 (with what is wrong and where).
    case invalidSSML(String)
    /// An option outside its range (rate, pitch, volume, pause scale).
    case invalidOption(String)
    /// eSpeak-NG reported an error while synthesising (its `espeak_ERROR` code).
    case synthesisFailed(code: Int)
    /// Bytes that are not a 16-bit PCM mono WAV file (``WAVAudio/init(wavData:)``).
    case invalidWAV(String)

    /// A one-line message for people (what went wrong and, where it helps, what to do).
    public var description: String {
        switch self {
        case .engineUnavailable(let why):
            return "eSpeak-NG is not available: \(why) (install the Debian packages espeak-ng and libespeak-ng-dev: scripts/install-deps.sh)"
        case let .unknownVoice(name, suggestions):
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: ", "))?)"
            return "no installed eSpeak-NG voice named '\(name)'\(hint); `mathaloud say --list-voices` lists them"
        case let .noVoiceForLocale(locale, tried):
            return "no installed eSpeak-NG voice for locale '\(locale)' (tried \(tried.joined(separator: ", "))); choose one with --voice"
        case .emptyInput:
            return "nothing to say: the input is empty"
        case let .inputTooLarge(bytes, limit):
            return "the text for the engine is \(bytes) bytes; the limit is \(limit) bytes"
        case .audioTooLong(let limit):
            return "the audio would be longer than \(Int(limit)) s; synthesis was stopped"
        case .invalidSSML(let why):
            return "invalid SSML: \(why)"
        case .invalidOption(let why):
            return why
        case .synthesisFailed(let code):
            return "eSpeak-NG failed to synthesise (espeak_ERROR \(code))"
        case .invalidWAV(let why):
            return "not a 16-bit PCM mono WAV: \(why)"
        }
    }
}
