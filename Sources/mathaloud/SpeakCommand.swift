import Foundation
import MathAloud
import MathAloudDocuments

/// `mathaloud speak`: TeX or MathML to speech text, SSML or a label.
enum SpeakCommand {
    static let usage = """
    usage: mathaloud speak [TEX] [--mathml] [--locale L] [--style clearspeak|simplespeak|mathspeak] [--verbosity V]
                           [--pref NAME=VALUE]… [--ssml] [--template T] [--explain] [--text] [--batch]
                           [--rules-dir DIR] [--display] [--macro '\\name=body']…
      TEX              the formula; read from standard input when absent
      --mathml         the input is MathML
      --locale L       the language (default en)
      --style S        clearspeak (default), simplespeak or mathspeak
      --verbosity V    the style's Verbosity: medium (default), terse, verbose for ClearSpeak and SimpleSpeak;
                       verbose (default), brief, superbrief for MathSpeak
      --pref N=V       a style preference, e.g. --pref Fractions=Over (repeatable; names case-insensitive);
                       one the style does not know is a warning and is ignored
      --ssml           print SSML 1.1 instead of plain text
      --template T     print a label from a template: {speech} and {latex} are replaced (e.g. 'Math: {speech}')
      --explain        after the speech, list every node with the rule that spoke it and why
      --text           the input is prose with inline math; prose is kept and each formula spoken
      --stream         with --text: read standard input as it comes, print each part as soon as it is final
      --batch          JSON Lines: {"id", "tex"|"mathml", "locale"?, "style"?, "preferences"?} per line →
                       {"id", "speech", "diagnostics"} or {"id", "error"} per line, same order
      --rules-dir DIR  override rule and word files (also MATHALOUD_RULES); no rebuild needed
      --untranslated   list the words of rules inherited from another language that the locale's
                       phrase files do not translate (file:line: rule: phrase), then exit (1 if any)
    exit codes: 0 ok, 1 the input had errors, 2 usage error, 3 I/O error, 4 rules could not be loaded
    """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try CommandLineArguments(arguments, valued: ["--locale", "--style", "--verbosity", "--pref", "--template",
                                                                "--rules-dir", "--macro"],
                                            flags: ["--mathml", "--ssml", "--explain", "--text", "--stream", "--batch", "--display", "--untranslated",
                                                    "--help", "-h"])
        if args.flag("--help") || args.flag("-h") { print(usage); return .success }
        let settings = try args.speechSettings()
        var out = Output()
        defer { out.flush() }

        if args.flag("--batch") {
            let processor = SpeechBatchProcessor(speakers: settings.speakerPool)
            // Chunks of lines are spoken on all cores; output keeps input order and memory stays flat.
            var chunk: [String] = []
            chunk.reserveCapacity(512)
            func flushChunk() {
                for result in processor.process(lines: chunk) { out.line(result) }
                chunk.removeAll(keepingCapacity: true)
            }
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                chunk.append(line)
                if chunk.count == 512 { flushChunk() }
            }
            flushChunk()
            return .success
        }

        guard let speaker = try settings.loadSpeaker() else { return .rules }
        if args.flag("--untranslated") {
            for p in speaker.untranslatedPhrases { out.write("\(p.location): \(p.rule): \(p.phrase)\n") }
            return speaker.untranslatedPhrases.isEmpty ? .success : .inputErrors
        }
        if args.flag("--stream") {
            guard args.flag("--text"), args.positionals.isEmpty else { throw UsageError("--stream goes with --text and reads standard input") }
            return streamText(speaker: speaker, settings: settings, out: &out)
        }
        if args.positionals.count > 1 { throw UsageError("give one formula (quote it), or none to read standard input") }
        let input = args.positionals.first ?? readStandardInput()

        if args.flag("--text") {
            let result = speaker.speak(text: input)
            let renderer = DiagnosticRenderer(source: SourceText(input), inputName: "<text>")
            for d in result.diagnostics { Output.error(renderer.terminal(d)) }
            out.write(result.text)
            if !result.text.hasSuffix("\n") { out.write("\n") }
            return result.diagnostics.containsError ? .inputErrors : .success
        }

        let spoken = speaker.speak(input, notation: args.flag("--mathml") ? .mathml : .tex, explain: args.flag("--explain"))
        let renderer = DiagnosticRenderer(source: spoken.source, inputName: args.positionals.isEmpty ? "<stdin>" : "<formula>")
        for d in spoken.diagnostics { Output.error(renderer.terminal(d)) }
        if args.flag("--ssml") {
            out.line(SSMLRenderer(language: settings.locale.rawValue).render(spoken.speech))
        } else if let template = args.value("--template") {
            out.line(LabelTemplate(template).fill(speech: spoken.text, latex: input))
        } else {
            out.line(spoken.text)
        }
        if args.flag("--explain") { out.write(speaker.explanation(of: spoken)) }
        return spoken.diagnostics.containsError ? .inputErrors : .success
    }

    /// `speak --text --stream`: standard input read as it comes; prose printed as it arrives, each formula's
    /// speech once it is complete (MathAloudDocuments' MathStream, text format).
    static func streamText(speaker: Speaker, settings: SpeechSettings, out: inout Output) -> ExitCode {
        var options = DocumentOptions()
        options.products = []
        options.macros = settings.texOptions.macros
        let processor = DocumentProcessor(options: options, speaker: speaker, cache: FormulaCache(capacity: 1024))
        let stream = MathStream(processor: processor, format: .text)
        var errors = false
        func write(_ segments: [StreamSegment]) {
            for segment in segments {
                switch segment {
                case .text(let t, _): out.write(t)
                case .formula(let f):
                    out.write(f.speech)
                    if f.hasErrors { errors = true }
                }
            }
            out.flush()
        }
        var reader = StandardInputChunks()
        while let chunk = reader.next() { write(stream.append(chunk)) }
        write(stream.finish())
        for d in stream.diagnostics { Output.error("<stdin>: \(d.severity): \(d.message) [\(d.id)]\n") }
        return errors ? .inputErrors : .success
    }
}
