import MathAloud

/// How to voice speech. Ranges are eSpeak-NG's; a value outside them is a
/// ``VoiceError/invalidOption(_:)``, not clamped silently.
public struct VoiceOptions: Sendable, Hashable {
    /// An eSpeak-NG voice by name (`en-us`, `de`, `English_(Great_Britain)`, `gmw/en`); overrides the
    /// voice chosen from the locale (``VoiceTable``). `nil`: choose from the locale.
    public var voice: String?
    /// Speaking rate in words per minute, 80…450 (eSpeak-NG's default 175).
    public var rate: Int
    /// Base pitch, 0…100 (50 is the voice's normal pitch).
    public var pitch: Int
    /// Volume (amplitude), 0…200 (100 is normal).
    public var volume: Int
    /// Multiplier on every pause of a ``SpeechDescription`` (short 250 ms, medium 400 ms, long 700 ms),
    /// 0…10. 0 removes the breaks.
    public var pauseScale: Double
    /// Say superscripts with the pitch raised 15 % and subscripts lowered 15 % (SSML `<prosody
    /// pitch>` from ``SSMLRenderer``). Off by default: pitch changes inside a formula can confuse
    /// listeners who do not expect them.
    public var scriptProsody: Bool
    /// The largest text (UTF-8 bytes) sent to the engine; larger input is
    /// ``VoiceError/inputTooLarge(bytes:limit:)``. Default 256 KiB, as for TeX input.
    public var maximumInputBytes: Int
    /// The longest audio produced, in seconds; synthesis stops and reports
    /// ``VoiceError/audioTooLong(limitSeconds:)`` beyond it (e.g. for `<break time="99999s"/>`).
    /// Default 600 s (26 MB of samples).
    public var maximumDuration: Double

    /// Creates options; every argument has eSpeak-NG's normal value by default.
    public init(voice: String? = nil, rate: Int = 175, pitch: Int = 50, volume: Int = 100, pauseScale: Double = 1,
                scriptProsody: Bool = false, maximumInputBytes: Int = 256 * 1024, maximumDuration: Double = 600) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.pauseScale = pauseScale
        self.scriptProsody = scriptProsody
        self.maximumInputBytes = maximumInputBytes
        self.maximumDuration = maximumDuration
    }

    /// Checks every range.
    public func validate() throws(VoiceError) {
        guard (80...450).contains(rate) else { throw .invalidOption("rate must be 80…450 words per minute, not \(rate)") }
        guard (0...100).contains(pitch) else { throw .invalidOption("pitch must be 0…100 (50 is normal), not \(pitch)") }
        guard (0...200).contains(volume) else { throw .invalidOption("volume must be 0…200 (100 is normal), not \(volume)") }
        guard pauseScale.isFinite, (0...10).contains(pauseScale) else {
            throw .invalidOption("pause scale must be 0…10, not \(pauseScale)")
        }
        guard maximumInputBytes > 0 else { throw .invalidOption("maximum input must be positive") }
        guard maximumDuration.isFinite, maximumDuration > 0 else { throw .invalidOption("maximum duration must be positive") }
    }
}

/// Which eSpeak-NG voice speaks a locale.
///
/// The lookup for a locale tag such as `en-GB`: the voices its locale data names (`espeak-voice` in
/// `Locales/<tag>/locale.txt`, so a new locale brings its voice with it), then the table entry for the whole tag (case-insensitive,
/// `_` read as `-`), then the tag itself as an eSpeak-NG voice name, then the same for each shorter tag
/// (`en`), dropping the last subtag each time. The first candidate that is installed wins. There is no
/// fallback to another language: a locale without a voice is ``VoiceError/noVoiceForLocale(_:tried:)``.
///
/// | locale | voices tried |
/// |---|---|
/// | `en` | `en-us`, `en` (ClearSpeak, SimpleSpeak and MathSpeak are American styles) |
/// | `en-US` | `en-us` |
/// | `en-GB` | `en-gb`, `en` |
/// | `de` `es` `it` `fi` `sv` `nl` `ru` `hi` `ja` `ko` | the voice of that name |
/// | `fr` | `fr-fr`, `fr` |
/// | `pt` | `pt-br`, `pt` |
/// | `zh`, `cmn` | `cmn` (Mandarin) |
/// | `nb`, `no` | `nb` (Norwegian Bokmål) |
public enum VoiceTable {
    /// The table: lower-case locale tag → eSpeak-NG voice names in order of preference.
    public static let entries: [String: [String]] = [
        "en": ["en-us", "en"],
        "en-us": ["en-us"],
        "en-gb": ["en-gb", "en"],
        "de": ["de"], "es": ["es"], "it": ["it"], "fi": ["fi"], "sv": ["sv"], "nl": ["nl"], "ru": ["ru"],
        "hi": ["hi"], "ja": ["ja"], "ko": ["ko"],
        "fr": ["fr-fr", "fr"],
        "pt": ["pt-br", "pt"],
        "zh": ["cmn"], "cmn": ["cmn"],
        "nb": ["nb"], "no": ["nb"],
    ]

    /// The voice names tried for `locale`, in order, without duplicates: for the tag and then each
    /// shorter tag, the `espeak-voice` setting of its `locale.txt` when it has locale data (or its
    /// parents'; `resources`, by default the built-in locales overlaid by `MATHALOUD_RULES`), the
    /// table's entry, and the tag itself.
    public static func candidates(forLocale locale: String, resources: SpeechResources? = nil) -> [String] {
        var tag = locale.lowercased().replacingOccurrences(of: "_", with: "-")
        var out: [String] = []
        func add(_ name: String) { if !name.isEmpty, !out.contains(name) { out.append(name) } }
        let resources = resources ?? (try? SpeechResources.builtIn(overriddenBy: nil))
        let folders = resources?.locales ?? []
        while !tag.isEmpty {
            if let resources, let folder = folders.first(where: { LocaleTag($0) == LocaleTag(tag) }) {
                for name in resources.espeakVoices(for: LocaleTag(folder)) { add(name.lowercased()) }
            }
            for name in entries[tag] ?? [] { add(name) }
            add(tag)
            guard let dash = tag.lastIndex(of: "-") else { break }
            tag = String(tag[..<dash])
        }
        return out
    }
}
