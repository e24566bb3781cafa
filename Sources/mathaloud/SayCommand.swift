import Foundation
import MathAloud
import MathAloudVoice

/// `mathaloud say`: TeX, MathML or prose with inline math to a WAV file through eSpeak-NG.
enum SayCommand {
    static let usage = """
    usage: mathaloud say [TEX] -o FILE|- [--mathml] [--locale L] [--style S] [--verbosity V] [--pref NAME=VALUE]…
                         [--voice NAME] [--rate WPM] [--pitch P] [--volume V] [--pause-scale X] [--script-prosody]
                         [--ssml-out FILE] [--text FILE] [--batch DIR] [--list-voices]
                         [--rules-dir DIR] [--display] [--macro '\\name=body']…
      TEX               the formula; read from standard input when absent
      -o FILE           the WAV file to write (16-bit PCM mono); '-' writes it to standard output
      --mathml          the input is MathML
      --locale L        the language of the speech and of the voice (default en)
      --style S         clearspeak (default), simplespeak or mathspeak;  --verbosity V  the style's verbosity
      --pref N=V        a style preference (repeatable), as for `mathaloud speak`
      --voice NAME      an eSpeak-NG voice by name (e.g. en-gb, de), instead of the locale's voice
      --rate WPM        words per minute, 80…450 (default 175)
      --pitch P         base pitch, 0…100 (default 50)
      --volume V        volume, 0…200 (default 100)
      --pause-scale X   multiply every pause (250/400/700 ms) by X, 0…10 (default 1)
      --script-prosody  raise the pitch in superscripts and lower it in subscripts (off by default)
      --ssml-out FILE   also write the SSML sent to the engine ('-' for standard output)
      --text FILE       voice a file of prose with inline math ($…$, \\(…\\), …); prose is kept ('-': stdin)
      --batch DIR       JSON Lines on standard input: {"id", "tex"|"mathml"|"text", "locale"?, "style"?,
                        "preferences"?, "voice"?} per line → DIR/<id>.wav per line and DIR/index.jsonl with
                        {"duration", "file", "id", "label"} or {"error", "id"} per line, same order
      --list-voices     list the installed eSpeak-NG voices (language, identifier, name)
    Prints the speech as text on standard output (unless the WAV goes there) and what was written on
    standard error.
    exit codes: 0 ok, 1 the input had errors or nothing to say, 2 usage error, 3 I/O error,
                4 rules could not be loaded, 5 eSpeak-NG or the voice is not available
    """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try CommandLineArguments(arguments,
                                            valued: ["-o", "--output", "--locale", "--style", "--verbosity", "--pref", "--voice",
                                                     "--rate", "--pitch", "--volume", "--pause-scale", "--ssml-out", "--text",
                                                     "--batch", "--rules-dir", "--macro"],
                                            flags: ["--mathml", "--script-prosody", "--list-voices", "--display", "--help", "-h"])
        if args.flag("--help") || args.flag("-h") { print(usage); return .success }
        if args.flag("--list-voices") { return listVoices() }

        let settings = try args.speechSettings()
        func integer(_ name: String, _ fallback: Int) throws(UsageError) -> Int {
            guard let v = args.value(name) else { return fallback }
            guard let n = Int(v) else { throw UsageError("\(name) needs a whole number, not '\(v)'") }
            return n
        }
        var options = VoiceOptions(voice: args.value("--voice"), rate: try integer("--rate", 175),
                                   pitch: try integer("--pitch", 50), volume: try integer("--volume", 100),
                                   scriptProsody: args.flag("--script-prosody"))
        if let v = args.value("--pause-scale") {
            guard let x = Double(v) else { throw UsageError("--pause-scale needs a number, not '\(v)'") }
            options.pauseScale = x
        }
        do throws(VoiceError) { try options.validate() } catch { throw UsageError(error.description) }
        let output = args.value("-o") ?? args.value("--output")

        if let directory = args.value("--batch") {
            if output != nil || !args.positionals.isEmpty || args.value("--text") != nil {
                throw UsageError("--batch reads JSON Lines from standard input and writes into DIR: no -o, --text or TEX")
            }
            return batch(into: URL(fileURLWithPath: directory), settings: settings, options: options)
        }
        guard let output else { throw UsageError("say needs -o FILE (or -o - for standard output)") }
        if args.positionals.count > 1 { throw UsageError("give one formula (quote it), or none to read standard input") }
        if args.value("--text") != nil && !args.positionals.isEmpty { throw UsageError("give either TEX or --text FILE") }

        guard let speaker = try settings.loadSpeaker() else { return .rules }
        let voice: Voice
        do { voice = try Voice(locale: settings.locale, options: options, resources: try? SpeechResources.builtIn(overriddenBy: settings.rulesDirectory)) } catch {
            Output.error("mathaloud: \(error)\n")
            return .voice
        }

        // The speech, and its diagnostics.
        let speech: SpeechDescription
        var hadErrors = false
        if let textFile = args.value("--text") {
            let text: String
            if textFile == "-" { text = readStandardInput() } else {
                guard let data = FileManager.default.contents(atPath: textFile) else {
                    Output.error("mathaloud: cannot read \(textFile)\n")
                    return .io
                }
                text = String(decoding: data, as: UTF8.self)
            }
            let result = speaker.speech(forText: text)
            let renderer = DiagnosticRenderer(source: SourceText(text), inputName: textFile == "-" ? "<stdin>" : textFile)
            for d in result.diagnostics { Output.error(renderer.terminal(d)) }
            hadErrors = result.diagnostics.containsError
            speech = result.speech
        } else {
            let input = args.positionals.first ?? readStandardInput()
            let spoken = speaker.speak(input, notation: args.flag("--mathml") ? .mathml : .tex)
            let renderer = DiagnosticRenderer(source: spoken.source, inputName: args.positionals.isEmpty ? "<stdin>" : "<formula>")
            for d in spoken.diagnostics { Output.error(renderer.terminal(d)) }
            hadErrors = spoken.diagnostics.containsError
            speech = spoken.speech
        }

        let recording: VoiceRecording
        do { recording = try voice.synthesize(.speech(speech)) } catch {
            Output.error("mathaloud: \(error)\n")
            return isInputError(error) ? .inputErrors : .voice
        }
        if let ssmlOut = args.value("--ssml-out") {
            guard write(Data((recording.engineInput + "\n").utf8), to: ssmlOut) else { return .io }
        }
        guard write(recording.audio.wavData(), to: output) else { return .io }
        if output != "-" {
            var out = Output()
            out.line(speech.plainText)
            out.flush()
        }
        Output.error(String(format: "mathaloud: wrote %@ (%.2f s, %d Hz, voice %@)\n", output == "-" ? "WAV to standard output" : output,
                            recording.audio.duration, recording.audio.sampleRate, recording.voice))
        return hadErrors ? .inputErrors : .success
    }

    /// Errors that come from what was asked to be said rather than from the engine.
    static func isInputError(_ error: VoiceError) -> Bool {
        switch error {
        case .emptyInput, .inputTooLarge, .audioTooLong, .invalidSSML: return true
        default: return false
        }
    }

    static func write(_ data: Data, to path: String) -> Bool {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            return true
        }
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            Output.error("mathaloud: cannot write \(path): \(error.localizedDescription)\n")
            return false
        }
        return true
    }

    static func listVoices() -> ExitCode {
        let engine: VoiceEngine
        do { engine = try VoiceEngine.shared() } catch {
            Output.error("mathaloud: \(error)\n")
            return .voice
        }
        var out = Output()
        for v in engine.voices.sorted(by: { ($0.languages.first ?? "", $0.identifier) < ($1.languages.first ?? "", $1.identifier) }) {
            out.line("\(v.languages.first ?? "-")\t\(v.identifier)\t\(v.name)")
        }
        out.flush()
        return .success
    }

    static func batch(into directory: URL, settings: SpeechSettings, options: VoiceOptions) -> ExitCode {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            Output.error("mathaloud: cannot create \(directory.path): \(error.localizedDescription)\n")
            return .io
        }
        // Fail early, with the exit code, when eSpeak-NG or the default voice is missing.
        do { _ = try Voice(locale: settings.locale, options: options, resources: try? SpeechResources.builtIn(overriddenBy: settings.rulesDirectory)) } catch {
            Output.error("mathaloud: \(error)\n")
            return .voice
        }
        let processor = VoiceBatchProcessor(directory: directory, speakers: settings.speakerPool, options: options)
        _ = FileManager.default.createFile(atPath: processor.manifestURL.path, contents: nil)
        guard let manifest = FileHandle(forWritingAtPath: processor.manifestURL.path) else {
            Output.error("mathaloud: cannot write \(processor.manifestURL.path)\n")
            return .io
        }
        defer { try? manifest.close() }
        var failed = 0, voiced = 0
        var chunk: [String] = []
        func flush() -> Bool {
            guard !chunk.isEmpty else { return true }
            do {
                let results = try processor.process(lines: chunk)
                manifest.write(Data(results.map { $0.manifestLine + "\n" }.joined().utf8))
                for r in results {
                    if case .success = r.result { voiced += 1 }
                    if !r.succeeded { failed += 1 }
                }
            } catch {
                Output.error("mathaloud: cannot write a WAV file in \(directory.path): \(error.localizedDescription)\n")
                return false
            }
            chunk.removeAll(keepingCapacity: true)
            return true
        }
        // Lines are voiced in chunks of 32: each chunk holds the engine once; memory stays flat.
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            chunk.append(line)
            if chunk.count == 32, !flush() { return .io }
        }
        guard flush() else { return .io }
        Output.error("mathaloud: \(voiced) WAV files and index.jsonl in \(directory.path)" + (failed > 0 ? "; \(failed) \(failed == 1 ? "line" : "lines") failed\n" : "\n"))
        return failed > 0 ? .inputErrors : .success
    }
}
