import Foundation
import MathAloud
import MathAloudVoice

/// `mathaloud say`: TeX, MathML or prose with inline math to a WAV file through eSpeak-NG.
enum SayCommand {
    static let spec = CommandSpec(
        name: "say", arguments: "[TEX] -o FILE",
        summary: "Speaks a formula (TeX, MathML, or prose with inline math) into a WAV file with eSpeak-NG.\n"
            + "Prints the speech as text on standard output (unless the WAV goes there) and what was written on\n"
            + "standard error.\n"
            + "  TEX    the formula (after -- when it starts with a dash and a letter: -- -x); read from --input\n         FILE or standard input when absent",
        options: [
            OptionSpec(["-o", "--output"], "FILE", "the WAV file to write (16-bit PCM mono); '-' writes it to standard output",
                       completion: .file),
        ] + SharedOptions.inputs + SharedOptions.speech + [
            OptionSpec(["--voice"], "NAME", "an eSpeak-NG voice by name (e.g. en-gb, de), instead of the locale's voice"),
            OptionSpec(["--rate"], "WPM", "words per minute, 80…450 (default 175)"),
            OptionSpec(["--pitch"], "P", "base pitch, 0…100 (default 50)"),
            OptionSpec(["--volume"], "V", "volume, 0…200 (default 100)"),
            OptionSpec(["--pause-scale"], "X", "multiply every pause (250/400/700 ms) by X, 0…10 (default 1)"),
            OptionSpec(["--script-prosody"], nil, "raise the pitch in superscripts and lower it in subscripts (off by default)"),
            OptionSpec(["--ssml-out"], "FILE", "also write the SSML sent to the engine ('-' for standard output)", completion: .file),
        ] + SharedOptions.tex + [
            OptionSpec(["--batch"], "DIR", "JSON Lines on standard input: {\"id\", \"tex\"|\"mathml\"|\"text\", \"locale\"?, \"style\"?, "
                       + "\"preferences\"?, \"voice\"?} per line → DIR/<id>.wav per line and DIR/index.jsonl with {\"diagnostics\", "
                       + "\"duration\", \"file\", \"id\", \"label\"} or {\"error\", \"id\"} per line, same order", completion: .directory),
            SharedOptions.maxLine,
            OptionSpec(["--list-voices"], nil, "list the installed eSpeak-NG voices (language, identifier, name)"),
            SharedOptions.help,
        ],
        notes: SharedOptions.exitCodes + "; 4 rules could not be loaded;\n"
            + "            5 eSpeak-NG or the voice is not available. Empty input (nothing to say) is 1.\n")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try spec.parse(arguments)
        if args.flag("--help") { print(spec.usage); return .success }
        if args.flag("--list-voices") { return listVoices() }

        let settings = try args.speechSettings()
        var options = VoiceOptions(voice: args.value("--voice"), rate: try args.integer("--rate", 175),
                                   pitch: try args.integer("--pitch", 50), volume: try args.integer("--volume", 100),
                                   scriptProsody: args.flag("--script-prosody"))
        if let v = args.value("--pause-scale") {
            guard let x = Double(v) else { throw args.usageError("--pause-scale needs a number, not '\(v)'") }
            options.pauseScale = x
        }
        do throws(VoiceError) { try options.validate() } catch { throw args.usageError(error.description) }
        let output = args.value("-o")

        if let directory = args.value("--batch") {
            if output != nil || !args.positionals.isEmpty || args.value("--input") != nil || args.flag("--text") {
                throw args.usageError("--batch reads JSON Lines from standard input and writes into DIR: no -o, TEX, --input or --text")
            }
            // The default speaker is loaded now (a rules error fails the command early) and is the pool's.
            guard let (speakers, _) = try settings.loadSpeakerPool() else { return .rules }
            return batch(into: URL(fileURLWithPath: directory), settings: settings, speakers: speakers, options: options,
                         maxLineBytes: try args.maxLineBytes())
        }
        guard let output else { throw args.usageError("say needs -o FILE (or -o - for standard output)") }
        if args.flag("--text") && args.flag("--mathml") { throw args.usageError("--text reads prose with TeX math; it cannot be combined with --mathml") }

        guard let speaker = try settings.loadSpeaker() else { return .rules }
        let voice: Voice
        do { voice = try Voice(locale: settings.locale, options: options, resources: try? SpeechResources.builtIn(overriddenBy: settings.rulesDirectory)) } catch {
            Output.error("mathaloud: \(error)\n")
            return .voice
        }
        var failure = ExitCode.success
        guard let (input, name) = try args.input(failure: &failure) else { return failure }

        // The speech, and its diagnostics.
        let speech: SpeechDescription
        var hadErrors = false
        if args.flag("--text") {
            let result = speaker.speech(forText: input)
            let renderer = DiagnosticRenderer(source: SourceText(input), inputName: name)
            for d in result.diagnostics { Output.error(renderer.terminal(d)) }
            hadErrors = result.diagnostics.containsError
            speech = result.speech
        } else {
            let spoken = speaker.speak(input, notation: args.notation(of: input))
            let renderer = DiagnosticRenderer(source: spoken.source, inputName: name)
            for d in spoken.diagnostics { Output.error(renderer.terminal(d)) }
            if let rejection = spoken.rejection {
                // Refused input is never voiced (a limit, malformed MathML): no WAV is written.
                Output.error("mathaloud: nothing was said: \(rejection.message) [\(rejection.id)]\n")
                return .inputErrors
            }
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

    /// Writes a file safely (``OutputFile``: a temporary file renamed into place, never through a
    /// link), or standard output for `-`; false after printing why it failed.
    static func write(_ data: Data, to path: String) -> Bool {
        if path == "-" {
            StandardStream.output.write(data)
            return true
        }
        do { try OutputFile.write(data, to: URL(fileURLWithPath: path)) } catch {
            Output.error("mathaloud: \(error)\n")
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

    /// `--batch DIR`: every line voiced (``VoiceBatchProcessor``), the manifest written safely as the
    /// lines finish (a temporary file renamed to `index.jsonl` at the end).
    static func batch(into directory: URL, settings: SpeechSettings, speakers: SpeakerPool, options: VoiceOptions, maxLineBytes: Int) -> ExitCode {
        do { try OutputFile.createDirectory(directory) } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        // Fail early, with the exit code, when eSpeak-NG or the default voice is missing.
        do { _ = try Voice(locale: settings.locale, options: options, resources: try? SpeechResources.builtIn(overriddenBy: settings.rulesDirectory)) } catch {
            Output.error("mathaloud: \(error)\n")
            return .voice
        }
        let processor = VoiceBatchProcessor(directory: directory, speakers: speakers, options: options)
        let manifest: OutputFile
        do { manifest = try OutputFile(processor.manifestURL) } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        var failed = 0, voiced = 0
        var reader = BatchRequestReader(maxLineBytes: maxLineBytes)
        // Lines are voiced in chunks of 32: each chunk holds the engine once; memory stays flat.
        do throws(OutputFileError) {
            while let chunk = reader.nextChunk(maxLines: 32) {
                let results = try processor.process(chunk)
                try manifest.append(results.map { $0.manifestLine + "\n" }.joined())
                for r in results {
                    if case .success = r.result { voiced += 1 }
                    if !r.succeeded { failed += 1 }
                }
            }
            try manifest.commit()
        } catch {
            manifest.discard()
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        Output.error("mathaloud: \(voiced) WAV files and index.jsonl in \(directory.path)"
                     + (failed > 0 ? "; \(failed) \(failed == 1 ? "line" : "lines") with errors\n" : "\n"))
        return failed > 0 ? .inputErrors : .success
    }
}
