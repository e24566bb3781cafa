import Foundation
import Testing
import MathAloudVoice

/// `mathaloud say`: WAV files, standard output, SSML out, prose, batch, errors and exit codes.
@Suite(.serialized) struct SayCommandTests {
    static let quadratic = #"\frac{-b\pm\sqrt{b^2-4ac}}{2a}"#

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-say-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func quadraticFormulaToWAV() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("q.wav"), ssml = dir.appendingPathComponent("q.ssml")
        let r = try runCLI(["say", Self.quadratic, "-o", wav.path, "--ssml-out", ssml.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "the fraction with numerator negative b plus or minus the square root of b squared minus 4 a c, and denominator 2 a\n")
        let audio = try WAVAudio(wavData: Data(contentsOf: wav))
        #expect(audio.sampleRate == 22050 && audio.duration > 4)
        let sent = try String(contentsOf: ssml, encoding: .utf8)
        #expect(sent.contains(#"4 a c<break time="250ms"/>and denominator"#))
        // The pause between numerator and denominator is audible: a silence of ≥ 200 ms inside the audio.
        let inner = audio.silences(minimum: 0.2).filter { $0.lowerBound > 0.1 && $0.upperBound < audio.duration - 0.1 }
        #expect(!inner.isEmpty, "\(audio.silences(minimum: 0.05))")
        // sox reads it (when installed: scripts/install-deps.sh installs it).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
            p.arguments = ["--i", "-s", wav.path]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try launch(p)
            let samples = String(decoding: out.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            #expect(Int(samples.trimmingCharacters(in: .whitespacesAndNewlines)) == audio.samples.count)
        }
    }

    @Test func wavToStandardOutput() throws {
        let r = try runCLIData(["say", "x^2", "-o", "-"])
        #expect(r.status == 0)
        let audio = try WAVAudio(wavData: r.stdout)
        #expect(audio.duration > 0.5 && audio.rms() > 500)
    }

    @Test func optionsChangeTheAudio() throws {
        let normal = try WAVAudio(wavData: runCLIData(["say", "x+y", "-o", "-"]).stdout)
        let fast = try WAVAudio(wavData: runCLIData(["say", "x+y", "-o", "-", "--rate", "350"]).stdout)
        let high = try WAVAudio(wavData: runCLIData(["say", "x+y", "-o", "-", "--pitch", "90"]).stdout)
        let gb = try WAVAudio(wavData: runCLIData(["say", "x+y", "-o", "-", "--voice", "en-gb"]).stdout)
        #expect(fast.duration < normal.duration * 0.7)
        #expect(high != normal && gb != normal)
        let r = try runCLI(["say", "x^{n+1}", "-o", "/dev/null", "--script-prosody", "--ssml-out", "-"])
        #expect(r.stdout.hasPrefix("<speak"))
        #expect(r.stdout.contains("<prosody pitch=\"+15%\">"))
    }

    @Test func proseFromAFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("p.txt")
        try "The area is $\\pi r^2$, and half is $\\frac{1}{2}$.".write(to: text, atomically: true, encoding: .utf8)
        let r = try runCLI(["say", "--text", "--input", text.path, "-o", dir.appendingPathComponent("p.wav").path])
        #expect(r.status == 0)
        #expect(r.stdout == "The area is pi r squared, and half is one half.\n")
        #expect(try WAVAudio(wavData: Data(contentsOf: dir.appendingPathComponent("p.wav"))).duration > 2)
    }

    @Test func batchWritesOneWAVPerLineAndAManifest() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = [#"{"id": "half", "tex": "\\frac{1}{2}"}"#, #"{"id": 2, "mathml": "<math><mi>x</mi></math>"}"#,
                     "not json", #"{"id": "half", "text": "Area $\\pi r^2$.", "voice": "en-gb"}"#, #"{"id": "e", "tex": ""}"#,
                     #"{"tex": "y", "voice": "no-such-voice"}"#].joined(separator: "\n") + "\n"
        let r = try runCLI(["say", "--batch", dir.path], stdin: Data(input.utf8))
        #expect(r.status == 1, "some lines failed")
        let manifest = try String(contentsOf: dir.appendingPathComponent("index.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(manifest.count == 6)
        #expect(manifest.map { $0["file"] as? String } == ["half.wav", "2.wav", nil, "half-2.wav", nil, nil])
        #expect(manifest[0]["label"] as? String == "one half")
        #expect(manifest[3]["label"] as? String == "Area pi r squared.")
        #expect((manifest[2]["error"] as? String)?.contains("JSON") == true)
        #expect((manifest[4]["error"] as? String)?.contains("nothing to say") == true)
        #expect((manifest[5]["error"] as? String)?.contains("no-such-voice") == true)
        for entry in manifest {
            guard let file = entry["file"] as? String else { continue }
            let audio = try WAVAudio(wavData: Data(contentsOf: dir.appendingPathComponent(file)))
            #expect(abs(audio.duration - (entry["duration"] as? Double ?? 0)) < 0.001)
        }
    }

    @Test func errorsAndExitCodes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.wav").path
        // Nothing to say: exit 1, no file.
        let empty = try runCLI(["say", "", "-o", out])
        #expect(empty.status == 1 && empty.stderr.contains("nothing to say"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // Usage: exit 2.
        #expect(try runCLI(["say", "x"]).status == 2)
        #expect(try runCLI(["say", "x", "-o", out, "--rate", "fast"]).status == 2)
        #expect(try runCLI(["say", "x", "-o", out, "--rate", "1000"]).stderr.contains("80…450"))
        #expect(try runCLI(["say", "x", "-o", out, "--pause-scale", "-1"]).status == 2)
        // I/O: exit 3.
        #expect(try runCLI(["say", "x", "-o", "/nonexistent-dir/x.wav"]).status == 3)
        #expect(try runCLI(["say", "--text", "--input", "/nonexistent-file.txt", "-o", out]).status == 3)
        // A missing voice or missing eSpeak-NG data: exit 5 with a clear message.
        let voice = try runCLI(["say", "x", "-o", out, "--voice", "no-such-voice"])
        #expect(voice.status == 5 && voice.stderr.contains("no installed eSpeak-NG voice named 'no-such-voice'"))
        let library = try runCLI(["say", "x", "-o", out], environment: ["ESPEAK_DATA_PATH": dir.appendingPathComponent("none").path])
        #expect(library.status == 5 && library.stderr.contains("eSpeak-NG is not available"))
        #expect(try runCLI(["say", "--batch", dir.path], environment: ["ESPEAK_DATA_PATH": "/nonexistent"]).status == 5)
        // A missing eSpeak-NG library (loaded on first use): exit 5 from `say`; `speak` does not need it.
        let noLibrary = ["MATHALOUD_ESPEAK_LIBRARY": "/nonexistent/libespeak-ng.so.1"]
        let missing = try runCLI(["say", "x", "-o", out], environment: noLibrary)
        #expect(missing.status == 5 && missing.stderr.contains("cannot load the eSpeak-NG library"))
        #expect(try runCLI(["speak", "x^2"], environment: noLibrary).stdout == "x squared\n")
        // Input with errors still speaks (exit 1), huge input is refused cleanly.
        let bad = try runCLI(["say", #"\frac{1}{2"#, "-o", out])
        #expect(bad.status == 1 && FileManager.default.fileExists(atPath: out))
        let huge = try runCLI(["say", "-o", out], stdin: Data(String(repeating: "x+", count: 200_000).utf8))
        #expect(huge.status == 1)
    }

    @Test func listVoices() throws {
        let r = try runCLI(["say", "--list-voices"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("en-us\tgmw/en-US\t") })
    }
}

/// Like `runCLI`, keeping standard output as bytes (a WAV).
func runCLIData(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: Data) {
    let process = Process()
    process.executableURL = mathaloudURL()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try launch(process)
    if let stdin {
        ignoreSIGPIPE
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
    }
    let data = output.fileHandleForReading.readToEndRetrying()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}
