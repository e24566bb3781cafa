import Foundation
import Testing
import MathAloud
@testable import MathAloudVoice

/// Shared speaker and voice for the voice tests (loading them once keeps the suites fast).
enum VoiceFixtures {
    static let speaker = Result { try Speaker(cacheCapacity: 0) }
    static func voice(_ options: VoiceOptions = VoiceOptions()) throws -> Voice { try Voice(locale: "en", options: options) }
    static func audio(tex: String, _ options: VoiceOptions = VoiceOptions()) throws -> WAVAudio {
        try voice(options).synthesize(tex: tex, speaker: speaker.get()).recording.audio
    }
    static let quadratic = #"\frac{-b\pm\sqrt{b^2-4ac}}{2a}"#
}

/// Synthesis through eSpeak-NG: durations, levels, pauses, prosody, voices. Serialised, as every suite
/// that touches eSpeak-NG (the engine serialises calls anyway; this keeps timings undisturbed).
@Suite(.serialized) struct VoiceSynthesisTests {
    @Test func wavOfAFormulaIsConsistent() throws {
        let audio = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic)
        #expect(audio.sampleRate == 22050)
        let data = audio.wavData()
        #expect(data.count == WAVAudio.headerSize + 2 * audio.samples.count)
        let back = try WAVAudio(wavData: data)
        #expect(back == audio)
        #expect(audio.duration > 3 && audio.duration < 15)
    }

    @Test func durationGrowsWithText() throws {
        let durations = try ["x", "x+y", "x+y+z+w", #"\frac{-b\pm\sqrt{b^2-4ac}}{2a}"#].map {
            try VoiceFixtures.audio(tex: $0).duration
        }
        for (a, b) in zip(durations, durations.dropFirst()) { #expect(a < b, "\(durations)") }
    }

    @Test func audioIsNotSilent() throws {
        let audio = try VoiceFixtures.audio(tex: "x^2 + 1")
        // eSpeak-NG speaks at RMS ≈ 2,000–4,000 of 32,768; silence is 0.
        #expect(audio.rms() > 500, "RMS \(audio.rms())")
        #expect(audio.samples.contains { abs(Int($0)) > 4000 })
    }

    /// The quadratic formula's one graded pause (between numerator and denominator) is a break the
    /// engine honours: scaling it lengthens the audio by the break's length, and a silence that long
    /// is found where it is.
    @Test func breaksMeasurablyLengthenAudio() throws {
        let none = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic, VoiceOptions(pauseScale: 0)).duration
        let normal = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic, VoiceOptions(pauseScale: 1)).duration
        let long = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic, VoiceOptions(pauseScale: 4)).duration
        // One short pause: 250 ms × scale (eSpeak-NG adds a little of its own around a break).
        #expect(normal - none > 0.15 && normal - none < 0.45, "\(none) → \(normal)")
        #expect(long - normal > 0.6 && long - normal < 0.95, "\(normal) → \(long)")

        let audio = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic, VoiceOptions(pauseScale: 4))
        let inner = audio.silences(minimum: 0.1).filter { $0.lowerBound > 0.05 && $0.upperBound < audio.duration - 0.05 }
        #expect(inner.contains { $0.upperBound - $0.lowerBound >= 0.9 }, "\(inner)")
    }

    @Test func ssmlBreaksLengthenAudio() throws {
        let voice = try VoiceFixtures.voice()
        let plain = try voice.synthesize(.ssml("<speak>one two</speak>")).audio.duration
        let broken = try voice.synthesize(.ssml(#"<speak>one <break time="1s"/> two</speak>"#)).audio.duration
        #expect(broken - plain > 0.8 && broken - plain < 1.3, "\(plain) → \(broken)")
    }

    @Test func scriptProsodyIsOffByDefaultAndChangesPitch() throws {
        let speaker = try VoiceFixtures.speaker.get()
        let speech = speaker.speak(tex: "x^{n+1}").speech
        let off = try VoiceFixtures.voice()
        let on = try VoiceFixtures.voice(VoiceOptions(scriptProsody: true))
        #expect(!off.ssml(for: speech).contains("<prosody"))
        #expect(on.ssml(for: speech).contains(#"<prosody pitch="+15%">"#))
        #expect(try on.synthesize(.speech(speech)).audio != off.synthesize(.speech(speech)).audio)
    }

    @Test func rateChangesDuration() throws {
        let slow = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic, VoiceOptions(rate: 120)).duration
        let fast = try VoiceFixtures.audio(tex: VoiceFixtures.quadratic, VoiceOptions(rate: 300)).duration
        #expect(fast < slow * 0.7, "\(slow) → \(fast)")
    }

    @Test func pitchAndVolumeChangeAudio() throws {
        let normal = try VoiceFixtures.audio(tex: "x")
        let quiet = try VoiceFixtures.audio(tex: "x", VoiceOptions(volume: 30))
        #expect(quiet.rms() < normal.rms() * 0.6)
        #expect(try VoiceFixtures.audio(tex: "x", VoiceOptions(pitch: 90)) != normal)
    }

    @Test func plainTextIsReadLiterally() throws {
        let voice = try VoiceFixtures.voice()
        let r = try voice.synthesize(.text("one <break time=\"2s\"/> two"))
        #expect(!r.isSSML)
        #expect(r.audio.duration > 0.5)
    }

    /// Every locale that has speech rules gets an installed voice through the documented table.
    @Test func everyLocaleWithRulesHasAnInstalledVoice() throws {
        let resources = try SpeechResources(builtIn: EmbeddedSpeechResources.files)
        let locales = resources.locales.filter { !resources.styles(for: $0).isEmpty }
        #expect(!locales.isEmpty)
        for locale in locales {
            let voice = try Voice(locale: LocaleTag(locale))
            // The voice speaks the locale's language, or is one the locale names (`espeak-voice`: nn is
            // voiced by nb, which eSpeak NG has; zh-cn and zh-tw by cmn).
            let named = try resources.lexiconChain(for: locale).first?.parsedSettings.espeakVoices ?? []
            let language = String(locale.split(separator: "-")[0])
            #expect(voice.installedVoice.languages.contains { $0.hasPrefix(locale) || $0 == language || named.contains($0) }
                    || named.contains { voice.installedVoice.identifier.hasSuffix("/" + $0) }, "\(locale) → \(voice.installedVoice)")
            #expect(try voice.synthesize(.text("one")).audio.duration > 0.2)
        }
    }

    @Test func voiceTableFallbacks() throws {
        #expect(VoiceTable.candidates(forLocale: "en") == ["en-us", "en"])
        #expect(VoiceTable.candidates(forLocale: "en_GB") == ["en-gb", "en", "en-us"])
        #expect(VoiceTable.candidates(forLocale: "en-AU") == ["en-au", "en-us", "en"])
        #expect(VoiceTable.candidates(forLocale: "zh-Hans") == ["zh-hans", "cmn", "zh"])
        let engine = try VoiceEngine.shared()
        #expect(try engine.voice(forLocale: "en").identifier == "gmw/en-US")
        #expect(try engine.voice(forLocale: "en-GB").languages.first == "en-gb")
        #expect(try engine.voice(forLocale: "en-AU").languages.first == "en-us")
        // The languages the table names are installed with espeak-ng.
        for locale in ["de", "fr", "es", "it", "zh", "ja", "ko", "hi", "sv", "nb", "fi"] {
            #expect((try? engine.voice(forLocale: locale)) != nil, "\(locale)")
        }
        #expect(throws: VoiceError.noVoiceForLocale("xx-YY", tried: ["xx-yy", "xx"])) { try Voice(locale: "xx-YY") }
    }

    @Test func voiceByNameOverridesTheLocale() throws {
        let gb = try Voice(locale: "en", options: VoiceOptions(voice: "en-gb"))
        #expect(gb.installedVoice.languages.first == "en-gb")
        #expect(gb.ssml(for: SpeechDescription(items: [.words("x", range: nil, prosody: nil)])).contains(#"xml:lang="en-gb""#))
        #expect(try Voice(options: VoiceOptions(voice: "gmw/de")).installedVoice.languages.first == "de")
        #expect(throws: VoiceError.self) { try Voice(options: VoiceOptions(voice: "no-such-voice")) }
    }

    @Test func batchMatchesSingleCallsAndFailsLineByLine() throws {
        let speaker = try VoiceFixtures.speaker.get()
        let voice = try VoiceFixtures.voice()
        let speeches = ["x", #"\sqrt{2}"#, "a_n"].map { speaker.speak(tex: $0).speech }
        let results = voice.synthesize([.speech(speeches[0]), .text(""), .speech(speeches[1]), .ssml("<speak>"), .speech(speeches[2])])
        #expect(results.count == 5)
        #expect(throws: VoiceError.emptyInput) { try results[1].get() }
        #expect(throws: VoiceError.self) { try results[3].get() }
        for (i, s) in [(0, 0), (2, 1), (4, 2)] {
            let batch = try results[i].get().audio
            let single = try voice.synthesize(.speech(speeches[s])).audio
            // eSpeak-NG's output varies by a few samples between calls.
            #expect(abs(batch.samples.count - single.samples.count) < 2000, "\(i)")
            #expect(batch.rms() > 500)
        }
    }

    @Test func proseWithInlineMath() throws {
        let speaker = try VoiceFixtures.speaker.get()
        let (speech, diagnostics) = speaker.speech(forText: "The area is $\\pi r^2$. Half is $\\frac{1}{2}$!")
        #expect(diagnostics.isEmpty)
        #expect(speech.plainText == "The area is pi r squared. Half is one half!")
        #expect(try VoiceFixtures.voice().synthesize(.speech(speech)).audio.duration > 2)
    }
}

/// Bad input gives a ``VoiceError``, never a crash or a hang.
@Suite(.serialized) struct VoiceInputErrorTests {
    @Test func emptyInput() throws {
        let voice = try VoiceFixtures.voice()
        #expect(throws: VoiceError.emptyInput) { try voice.synthesize(.text("")) }
        #expect(throws: VoiceError.emptyInput) { try voice.synthesize(.text(" \n\t\0")) }
        #expect(throws: VoiceError.emptyInput) { try voice.synthesize(.speech(SpeechDescription())) }
        #expect(throws: VoiceError.emptyInput) { try voice.synthesize(tex: "", speaker: VoiceFixtures.speaker.get()) }
    }

    @Test func hugeInputIsRefused() throws {
        let voice = try VoiceFixtures.voice()
        let huge = String(repeating: "one two three ", count: 30_000)
        #expect(throws: VoiceError.inputTooLarge(bytes: huge.utf8.count, limit: 256 * 1024)) { try voice.synthesize(.text(huge)) }
        #expect(throws: VoiceError.self) { try voice.synthesize(.ssml("<speak>" + huge + "</speak>")) }
    }

    @Test func overlongAudioIsStopped() throws {
        let voice = try VoiceFixtures.voice(VoiceOptions(maximumDuration: 1))
        #expect(throws: VoiceError.audioTooLong(limitSeconds: 1)) {
            try voice.synthesize(.ssml(#"<speak>a<break time="3s"/>b</speak>"#))
        }
        #expect(throws: VoiceError.audioTooLong(limitSeconds: 1)) {
            try voice.synthesize(.text(String(repeating: "one two three ", count: 100)))
        }
        // eSpeak-NG caps a single break itself; a huge one is no hang.
        #expect(try VoiceFixtures.voice().synthesize(.ssml(#"<speak>a<break time="100000s"/>b</speak>"#)).audio.duration < 600)
        // The engine is fine afterwards.
        #expect(try voice.synthesize(.text("fine")).audio.rms() > 500)
    }

    static let invalidSSML: [String] = [
        "", "plain words", "<speak>", "<speak>a</prosody></speak>", "<speak><break time=1s/></speak>",
        "<speak>a & b</speak>", "<speak>&bogus;</speak>", "<speak><audio src=\"file:///etc/passwd\"/></speak>",
        "<!DOCTYPE speak><speak/>", "<speak></speak><speak></speak>", "<p>x</p>", "<speak><blink>x</blink></speak>",
        "<speak><break time=\"1s\" time=\"2s\"/></speak>", "<speak a=\"<\"/>", "<speak><!-- x </speak>", "<speak>\u{0}",
        String(repeating: "<speak>", count: 10_000),
    ]

    @Test(arguments: invalidSSML) func invalidSSMLIsAnError(_ ssml: String) throws {
        let voice = try VoiceFixtures.voice()
        #expect(throws: VoiceError.self) { try voice.synthesize(.ssml(ssml)) }
    }

    @Test func validSSMLPasses() throws {
        let voice = try VoiceFixtures.voice()
        let ssml = #"<?xml version="1.0"?><speak version="1.1" xml:lang="en-us"><!-- c --><p><s>a &lt; b</s></p>"#
            + #"<prosody rate="slow" pitch="+10%">slow</prosody><say-as interpret-as="characters">ab</say-as>&#x3B1;</speak>"#
        #expect(try voice.synthesize(.ssml(ssml)).audio.rms() > 500)
    }

    @Test func optionsOutOfRange() throws {
        for options in [VoiceOptions(rate: 10), VoiceOptions(rate: 1000), VoiceOptions(pitch: -1), VoiceOptions(pitch: 101),
                        VoiceOptions(volume: 201), VoiceOptions(pauseScale: .nan), VoiceOptions(pauseScale: -1),
                        VoiceOptions(maximumDuration: 0)] {
            #expect(throws: VoiceError.self) { try Voice(options: options) }
        }
    }

    @Test func invalidWAVBytes() {
        for bytes in [Data(), Data("RIFF".utf8), Data(repeating: 0, count: 44),
                      WAVAudio(samples: [1, 2, 3], sampleRate: 8000).wavData().dropLast()] {
            #expect(throws: VoiceError.self) { try WAVAudio(wavData: Data(bytes)) }
        }
    }
}

/// The RIFF header, byte by byte.
@Suite struct WAVAudioTests {
    @Test func headerFields() throws {
        let audio = WAVAudio(samples: [0, 1, -1, Int16.max, Int16.min], sampleRate: 22050)
        let b = [UInt8](audio.wavData())
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        #expect(String(decoding: b[0..<4], as: UTF8.self) == "RIFF")
        #expect(u32(4) == b.count - 8)
        #expect(String(decoding: b[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(u32(16) == 16 && u16(20) == 1 && u16(22) == 1)
        #expect(u32(24) == 22050 && u32(28) == 44100 && u16(32) == 2 && u16(34) == 16)
        #expect(String(decoding: b[36..<40], as: UTF8.self) == "data")
        #expect(u32(40) == 10 && b.count == 54)
        #expect(b[44...] == [0, 0, 1, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x80])
        #expect(try WAVAudio(wavData: Data(b)) == audio)
    }

    @Test func silencesAndRMS() {
        var samples = [Int16](repeating: 0, count: 8000)
        for i in 2000..<4000 { samples[i] = i % 2 == 0 ? 3000 : -3000 }
        let audio = WAVAudio(samples: samples, sampleRate: 8000)
        #expect(audio.silences(minimum: 0.1) == [0.0...0.25, 0.5...1.0])
        #expect(audio.rms(in: 2000..<4000) == 3000)
    }
}
