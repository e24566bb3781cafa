import Foundation
import Testing
import MathAloud
@testable import MathAloudVoice

/// 16 threads call the voice API at once (single utterances and batches, different options and voices)
/// for `MATHALOUD_VOICE_STRESS_SECONDS` seconds (default 2; the acceptance run uses 30): no crash, and
/// every WAV is valid and not silent.
@Suite(.serialized) struct VoiceConcurrencyTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var wavs = 0
        private(set) var problems: [String] = []
        func add(_ n: Int) { lock.lock(); wavs += n; lock.unlock() }
        func fail(_ s: String) { lock.lock(); if problems.count < 20 { problems.append(s) }; lock.unlock() }
    }

    @Test func sixteenThreadsAtOnce() throws {
        let seconds = ProcessInfo.processInfo.environment["MATHALOUD_VOICE_STRESS_SECONDS"].flatMap(Double.init) ?? 2
        let speaker = try VoiceFixtures.speaker.get()
        let formulas = ["x^2", #"\frac{1}{2}"#, VoiceFixtures.quadratic, #"\sum_{i=1}^n i"#, #"\sqrt{a_n}"#, "e^{i\\pi}+1=0"]
        let voices = try [VoiceOptions(), VoiceOptions(rate: 300, pauseScale: 2), VoiceOptions(voice: "en-gb", pitch: 70),
                          VoiceOptions(volume: 150, scriptProsody: true)].map { try Voice(locale: "en", options: $0) }
        let tally = Tally()
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for t in 0..<16 {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var i = t
                func check(_ audio: WAVAudio, _ what: String) {
                    guard let back = try? WAVAudio(wavData: audio.wavData()), back == audio, audio.samples.count > 2000,
                          audio.rms() > 300 else { tally.fail("thread \(t): \(what) gave an invalid or silent WAV"); return }
                }
                while Date() < deadline {
                    let voice = voices[i % voices.count]
                    let tex = formulas[i % formulas.count]
                    if i % 5 == 4 {
                        let batch = voice.synthesize(formulas.map { .speech(speaker.speak(tex: $0).speech) })
                        for (r, f) in zip(batch, formulas) {
                            switch r {
                            case .success(let rec): check(rec.audio, f)
                            case .failure(let e): tally.fail("thread \(t): batch \(f): \(e)")
                            }
                        }
                        tally.add(batch.count)
                    } else {
                        do {
                            check(try voice.synthesize(tex: tex, speaker: speaker).recording.audio, tex)
                            tally.add(1)
                        } catch { tally.fail("thread \(t): \(tex): \(error)") }
                    }
                    i += 1
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        print("voice stress: 16 threads, \(seconds) s, \(tally.wavs) valid WAVs, \(tally.problems.count) problems")
        #expect(tally.problems.isEmpty, "\(tally.problems)")
        #expect(tally.wavs >= 16)
    }
}
