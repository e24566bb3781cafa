import Foundation
import MathAloud
import MathAloudDocuments

/// `mathaloud speak`: TeX or MathML to speech text, SSML or a label.
enum SpeakCommand {
    static let spec = CommandSpec(
        name: "speak", arguments: "[TEX]",
        summary: "Reads a formula aloud as text, SSML or a label.\n"
            + "  TEX    the formula (after -- when it starts with a dash and a letter: -- -x); read from --input\n         FILE or standard input when absent",
        options: SharedOptions.inputs + SharedOptions.speech + [
            OptionSpec(["--ssml"], nil, "print SSML 1.1 (pauses as <break>) instead of plain text"),
            SharedOptions.template,
            OptionSpec(["--explain"], nil, "after the speech, list every node with the rule that spoke it and why"),
        ] + SharedOptions.tex + [
            OptionSpec(["--batch"], nil, "JSON Lines on standard input: {\"id\", \"tex\"|\"mathml\"|\"text\", \"locale\"?, \"style\"?, "
                       + "\"preferences\"?, \"format\"?: \"ssml\", \"template\"?} per line → {\"id\", \"speech\", \"ssml\"?, \"label\"?, "
                       + "\"diagnostics\"} or {\"id\", \"error\"} per line, same order"),
            OptionSpec(["--stream"], nil, "with --text: read standard input as it comes, print each part as soon as it is final"),
            SharedOptions.maxLine,
            OptionSpec(["--untranslated"], nil, "list the words of rules inherited from another language that the locale's phrase files "
                       + "do not translate (file:line: rule: phrase), then exit (1 if any)"),
            SharedOptions.help,
        ],
        notes: SharedOptions.exitCodes + "; 4 rules could not be loaded\n")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try spec.parse(arguments)
        if args.flag("--help") { print(spec.usage); return .success }
        let settings = try args.speechSettings()
        var out = Output()
        defer { out.flush() }

        if args.flag("--batch") {
            if !args.positionals.isEmpty || args.value("--input") != nil || args.flag("--text") {
                throw args.usageError("--batch reads JSON Lines from standard input: no TEX, --input or --text")
            }
            // Fail early, with the right exit code, when the default settings cannot load.
            guard let (speakers, _) = try settings.loadSpeakerPool() else { return .rules }
            let processor = SpeechBatchProcessor(speakers: speakers)
            var reader = BatchRequestReader(maxLineBytes: try args.maxLineBytes())
            var failed = false
            // Chunks of lines are spoken on all cores; output keeps input order and memory stays flat.
            while let chunk = reader.nextChunk(maxLines: 512) {
                for result in processor.process(chunk) {
                    failed = failed || result.hasErrors
                    out.line(result.jsonLine)
                }
            }
            return failed ? .inputErrors : .success
        }

        if args.flag("--text") && args.flag("--mathml") { throw args.usageError("--text reads prose with TeX math; it cannot be combined with --mathml") }
        if args.flag("--text") && args.flag("--explain") { throw args.usageError("--explain explains one formula; it cannot be combined with --text") }
        guard let speaker = try settings.loadSpeaker() else { return .rules }
        if args.flag("--untranslated") {
            for p in speaker.untranslatedPhrases { out.write("\(p.location): \(p.rule): \(p.phrase)\n") }
            return speaker.untranslatedPhrases.isEmpty ? .success : .inputErrors
        }
        if args.flag("--stream") {
            guard args.flag("--text"), args.positionals.isEmpty else { throw args.usageError("--stream goes with --text and reads standard input") }
            return streamText(speaker: speaker, settings: settings, out: &out)
        }
        var failure = ExitCode.success
        guard let (input, name) = try args.input(failure: &failure) else { return failure }

        let speech: SpeechDescription
        let diagnostics: [Diagnostic]
        let renderer: DiagnosticRenderer
        var spoken: SpokenFormula? = nil
        if args.flag("--text"), let nul = DocumentSource.binaryOffset(of: input.utf8) {
            // Binary data (an image, a zip) is no prose: one error, not pages of garbage and warnings.
            let at = DocumentSource(text: input).location(of: nul)
            Output.error("\(name):\(at.line):\(at.column): error: the input is binary data, not text (a NUL byte); nothing was spoken [document.binary]\n")
            return .inputErrors
        }
        if args.flag("--text") {
            let result = speaker.speech(forText: input)
            (speech, diagnostics) = (result.speech, result.diagnostics)
            renderer = DiagnosticRenderer(source: SourceText(input), inputName: name)
        } else {
            let formula = speaker.speak(input, notation: args.notation(of: input), explain: args.flag("--explain"))
            (speech, diagnostics) = (formula.speech, formula.diagnostics)
            renderer = DiagnosticRenderer(source: formula.source, inputName: name)
            spoken = formula
        }
        for d in diagnostics { Output.error(renderer.terminal(d)) }
        if let rejection = spoken?.rejection {
            // Refused input is never read out (a limit, malformed MathML): nothing on standard output.
            Output.error("mathaloud: nothing was spoken: \(rejection.message) [\(rejection.id)]\n")
            return .inputErrors
        }
        // Prose keeps its own lines and spacing; a formula's speech is one line.
        let text = args.flag("--text") ? speaker.speak(text: input).text : speech.plainText
        if args.flag("--ssml") {
            out.line(SSMLRenderer(locale: settings.locale).render(speech))
        } else if let template = args.value("--template") {
            out.line(LabelTemplate(template).fill(speech: text.trimmingCharacters(in: .newlines), latex: input))
        } else {
            out.write(text)
            if !text.hasSuffix("\n") { out.write("\n") }
        }
        if let spoken, args.flag("--explain") { out.write(speaker.explanation(of: spoken)) }
        return diagnostics.containsError ? .inputErrors : .success
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
        // The same text as the whole input gives (FormulaBoundary: a formula's full stop, a comma
        // where prose goes on after a long formula).
        var spoken = SpokenStream()
        func write(_ segments: [StreamSegment]) {
            for case .formula(let f) in segments where f.hasErrors { errors = true }
            out.write(spoken.text(of: segments))
            out.flush()
        }
        var reader = StandardInputChunks()
        while let chunk = reader.next() { write(stream.append(chunk)) }
        write(stream.finish())
        out.write(spoken.finish())
        out.flush()
        for (d, at) in zip(stream.diagnostics, stream.diagnosticLocations) {
            Output.error("<stdin>:\(at.line):\(at.column): \(d.severity): \(d.message) [\(d.id)]\n")
        }
        return errors ? .inputErrors : .success
    }
}
