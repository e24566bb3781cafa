import CESpeakNG
import Foundation
import MathAloud

/// The one owner of eSpeak-NG's process-wide state.
///
/// eSpeak-NG keeps its voice, parameters, callback and synthesis buffers in C globals: two threads
/// synthesising at once corrupt them (a double free). So the process has exactly one engine,
/// ``shared()``, and every call into eSpeak-NG — initialise, list voices, set voice, set parameters,
/// synthesise — runs while that engine's lock is held. Utterances are synthesised one at a time; callers
/// on other threads wait for the lock (synthesis runs several hundred times faster than real time, so
/// the wait is short). Nothing else in MathAloud calls eSpeak-NG.
///
/// eSpeak-NG runs in `AUDIO_OUTPUT_SYNCHRONOUS` mode: `espeak_Synth` returns when the utterance is
/// done, having handed every block of samples to a C callback, which appends them to a per-utterance
/// sink passed through `user_data`.
public final class VoiceEngine: @unchecked Sendable {
    /// Samples per second of the engine's audio (22,050 for eSpeak-NG).
    public let sampleRate: Int
    /// The installed voices (eSpeak-NG's `espeak_ListVoices`), MBROLA voices excluded (they need
    /// separately installed MBROLA databases).
    public let voices: [InstalledVoice]

    // Guarded by `lock`: what eSpeak-NG is currently set to, so unchanged settings are not re-sent.
    private let lock = NSLock()
    /// eSpeak-NG's functions, from the library opened at initialisation.
    private let api: mathaloud_espeak_api
    private var currentVoice: String?
    private var currentParameters: (rate: Int, pitch: Int, volume: Int)?

    /// An installed eSpeak-NG voice.
    public struct InstalledVoice: Sendable, Hashable {
        /// The voice's name (`English_(America)`).
        public let name: String
        /// Its file within `espeak-ng-data/voices` (`gmw/en-US`).
        public let identifier: String
        /// The languages it speaks, most preferred first (`en-us`, `en`).
        public let languages: [String]
    }

    private static let sharedEngine = Result { () throws(VoiceError) -> VoiceEngine in try VoiceEngine() }

    /// The engine, initialised on first use (about 3 ms); later calls return the same engine, or the same
    /// error if eSpeak-NG could not be initialised.
    public static func shared() throws(VoiceError) -> VoiceEngine { try sharedEngine.get() }

    private init() throws(VoiceError) {
        // Only reached once, through `sharedEngine` (Swift runs a static initialiser exactly once).
        let dataPath = ProcessInfo.processInfo.environment["ESPEAK_DATA_PATH"]
        if let dataPath, !FileManager.default.fileExists(atPath: dataPath + "/espeak-ng-data/phontab")
            && !FileManager.default.fileExists(atPath: dataPath + "/phontab") {
            throw .engineUnavailable("no eSpeak-NG data in ESPEAK_DATA_PATH=\(dataPath)")
        }
        // The library is opened here, on first use, not when the program starts (see CESpeakNG/shim.h).
        // MATHALOUD_ESPEAK_LIBRARY names the library file when it is not where the loader looks.
        var api = mathaloud_espeak_api()
        let libraryPath = ProcessInfo.processInfo.environment["MATHALOUD_ESPEAK_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 }
        let loadProblem = libraryPath.map { path in path.withCString { mathaloud_espeak_load(&api, $0) } }
            ?? mathaloud_espeak_load(&api, nil)
        if let problem = loadProblem {
            throw .engineUnavailable("cannot load the eSpeak-NG library (\(String(cString: problem))); install espeak-ng (Debian: libespeak-ng1)")
        }
        self.api = api
        let rate = api.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw .engineUnavailable("espeak_Initialize failed (is espeak-ng-data installed?)") }
        api.espeak_SetSynthCallback(voiceEngineSynthCallback)
        sampleRate = Int(rate)
        var list: [InstalledVoice] = []
        if var p = api.espeak_ListVoices(nil) {
            while let v = p.pointee {
                let identifier = v.pointee.identifier.map { String(cString: $0) } ?? ""
                if !identifier.hasPrefix("mb/") {
                    list.append(InstalledVoice(name: v.pointee.name.map { String(cString: $0) } ?? "", identifier: identifier,
                                               languages: VoiceEngine.languages(v.pointee.languages)))
                }
                p += 1
            }
        }
        voices = list
        guard !voices.isEmpty else { throw .engineUnavailable("eSpeak-NG lists no voices") }
    }

    /// `languages` is a list of (priority byte, NUL-terminated name) pairs ending with a zero byte.
    private static func languages(_ raw: UnsafePointer<CChar>?) -> [String] {
        guard var p = raw else { return [] }
        var out: [String] = []
        while p.pointee != 0 {
            p += 1  // the priority byte
            let name = String(cString: p)
            if !name.isEmpty { out.append(name) }
            p += name.utf8.count + 1
        }
        return out
    }

    /// The installed voice a name refers to: a voice name, an identifier (or its last part), or a
    /// language one voice speaks (case-insensitive), or nil.
    public func voice(named name: String) -> InstalledVoice? {
        let n = name.lowercased()
        guard !n.isEmpty else { return nil }
        if let v = voices.first(where: { $0.identifier.lowercased() == n || $0.name.lowercased() == n }) { return v }
        if let v = voices.first(where: { $0.identifier.split(separator: "/").last.map { $0.lowercased() } == n }) { return v }
        if let v = voices.first(where: { $0.languages.first?.lowercased() == n }) { return v }
        return voices.first(where: { $0.languages.contains { $0.lowercased() == n } })
    }

    /// The voice for a locale through ``VoiceTable`` (the locale's data in `resources`, by default the
    /// built-in locales).
    public func voice(forLocale locale: String, resources: SpeechResources? = nil) throws(VoiceError) -> InstalledVoice {
        let candidates = VoiceTable.candidates(forLocale: locale, resources: resources)
        for c in candidates { if let v = voice(named: c) { return v } }
        throw .noVoiceForLocale(locale, tried: candidates)
    }

    /// Up to three voice names close to `name` (sharing its language prefix), for error messages.
    func suggestions(for name: String) -> [String] {
        let prefix = name.lowercased().prefix(2)
        return Array(voices.compactMap { $0.languages.first }.filter { $0.lowercased().hasPrefix(prefix) }.sorted().prefix(3))
    }

    /// One utterance for the engine.
    struct Request: Sendable {
        /// What eSpeak-NG receives.
        let text: String
        /// Whether `text` is SSML (sent with `espeakSSML`) or plain text.
        let isSSML: Bool
        /// The voice identifier (``InstalledVoice/identifier``).
        let voice: String
        let rate: Int, pitch: Int, volume: Int
        let maximumSamples: Int
        let maximumDuration: Double
    }

    /// Synthesises one utterance (holding the lock for it).
    func synthesize(_ request: Request) throws(VoiceError) -> WAVAudio {
        try synthesize([request])[0].get()
    }

    /// Synthesises utterances in order while holding the lock once: the batch runs on one initialised
    /// engine without other callers interleaving, and voice and parameters are sent only when they change.
    func synthesize(_ requests: [Request]) -> [Result<WAVAudio, VoiceError>] {
        lock.lock()
        defer { lock.unlock() }
        return requests.map { r in Result { () throws(VoiceError) -> WAVAudio in try synthesizeLocked(r) } }
    }

    private func synthesizeLocked(_ r: Request) throws(VoiceError) -> WAVAudio {
        if currentVoice != r.voice {
            let status = r.voice.withCString { api.espeak_SetVoiceByName($0) }
            guard status == EE_OK else {
                currentVoice = nil
                throw .unknownVoice(r.voice, suggestions: [])
            }
            currentVoice = r.voice
            currentParameters = nil  // a new voice resets rate, pitch and volume
        }
        if currentParameters == nil || currentParameters! != (r.rate, r.pitch, r.volume) {
            _ = api.espeak_SetParameter(espeakRATE, Int32(r.rate), 0)
            _ = api.espeak_SetParameter(espeakPITCH, Int32(r.pitch), 0)
            _ = api.espeak_SetParameter(espeakVOLUME, Int32(r.volume), 0)
            currentParameters = (r.rate, r.pitch, r.volume)
        }
        let sink = SampleSink(limit: r.maximumSamples)
        let flags = UInt32(espeakCHARS_UTF8) | (r.isSSML ? UInt32(espeakSSML) : 0)
        let status = r.text.withCString { text in
            api.espeak_Synth(text, r.text.utf8.count + 1, 0, POS_CHARACTER, 0, flags, nil,
                      Unmanaged.passUnretained(sink).toOpaque())
        }
        if r.isSSML {
            // SSML can change the voice (<voice>, xml:lang) and prosody: send everything again next time.
            currentVoice = nil
            currentParameters = nil
        }
        if sink.overflowed { throw .audioTooLong(limitSeconds: r.maximumDuration) }
        guard status == EE_OK else { throw .synthesisFailed(code: Int(status.rawValue)) }
        return WAVAudio(samples: sink.samples, sampleRate: sampleRate)
    }
}

/// Receives the samples of one utterance from the synth callback (only touched under the engine lock).
final class SampleSink {
    var samples: [Int16] = []
    let limit: Int
    var overflowed = false
    init(limit: Int) { self.limit = limit }
}

/// eSpeak-NG's synth callback (a C function pointer, so a top-level function): appends the block of
/// samples to the sink passed as `user_data`. Returning 1 stops synthesis (when the sink is full).
private func voiceEngineSynthCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
                                      _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let user = events.pointee.user_data else { return 0 }
    let sink = Unmanaged<SampleSink>.fromOpaque(user).takeUnretainedValue()
    guard let wav, count > 0 else { return 0 }
    if sink.samples.count + Int(count) > sink.limit {
        sink.overflowed = true
        return 1
    }
    sink.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    return 0
}
