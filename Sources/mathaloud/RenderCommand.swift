import Foundation
import MathAloud
import MathAloudRender

/// `mathaloud render`: TeX or MathML to SVG, PNG or PDF with the spoken label inside the file.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render", arguments: "[TEX] -o FILE.svg|FILE.png|FILE.pdf",
        summary: "Typesets TeX (or MathML) and writes SVG, PNG or PDF with the spoken label inside the file.\n"
            + "  TEX    the formula (after -- when it starts with a dash and a letter: -- -x); read from --input\n         FILE or standard input when absent",
        options: [
            OptionSpec(["-o", "--output"], "FILE", "the image to write; its extension (.svg, .png, .pdf) picks the format, "
                       + "no extension means SVG ('-' writes SVG to standard output); with --text, the directory", completion: .file),
            OptionSpec(["--format"], "F", "the image format (overrides the extension)", choices: ImageFormat.allCases.map(\.rawValue)),
            OptionSpec(["--font"], "F", "the math font: \(MathFontFamily.allCases.map(\.rawValue).joined(separator: ", ")) "
                       + "(default latin-modern), or an OpenType font file with a MATH table", completion: .file),
            OptionSpec(["--size"], "PX", "font size in px per em (pt per em in PDF); default 20"),
            OptionSpec(["--color"], "C", "formula colour: a name (red), #rgb or #rrggbb; default black"),
            OptionSpec(["--background"], "C", "background fill; default transparent"),
            OptionSpec(["--scale"], "N", "PNG pixel density (2 = twice the pixels at the same CSS size); default 1"),
            OptionSpec(["--id-prefix"], "P", "SVG: the prefix of the image's element ids, 1–64 of A–Z a–z 0–9 - _ . "
                       + "(default: ma and a hash of the source, label, language and font)"),
            OptionSpec(["--max-page"], "PX", "the largest image side (px, pt in PDF); a larger formula is drawn smaller, with a warning (default 14400)"),
        ] + SharedOptions.inputs + SharedOptions.speech + [
            SharedOptions.template,
            OptionSpec(["--dump"], nil, "print the box tree (em units) instead of writing an image"),
            OptionSpec(["--sheet"], nil, "a contact sheet: the input holds one formula per line ('%' lines skipped); all are drawn "
                       + "in a grid, each above its label, into the -o file"),
        ] + SharedOptions.tex + [
            OptionSpec(["--batch"], "DIR", "JSON Lines on standard input ({\"id\", \"tex\"|\"mathml\", \"locale\"?, \"style\"?, "
                       + "\"preferences\"?, \"display\"?, \"format\"?}), one image per line into DIR (named by id; repeated ids get -2, -3…; "
                       + "format from --format, default svg) and DIR/manifest.jsonl", completion: .directory),
            SharedOptions.maxLine, SharedOptions.help,
        ],
        notes: """
        With --text, every formula of the prose becomes one image in the -o directory, with manifest.jsonl (label,
        baseline and size of each, and the formula's box in it) and index.html (the prose with every formula in place).
        """ + "\n" + SharedOptions.exitCodes + "; 4 rules could not be loaded;\n"
            + "            6 the font, or cairo for PNG and PDF, could not be loaded\n")

    typealias Format = ImageFormat

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try spec.parse(arguments)
        if args.flag("--help") { print(spec.usage); return .success }
        var options = RenderOptions()
        if let f = args.value("--font") {
            // A path goes to the font loader, which says what is wrong with the file (exit code 6).
            if MathFontFamily(name: f) == nil && !FontSet.isFilePath(f) {
                throw args.usageError("unknown font '\(f)'" + Suggestion.didYouMean(f, among: MathFontFamily.allCases.map(\.rawValue))
                                      + " (a family: \(MathFontFamily.allCases.map(\.rawValue).joined(separator: ", ")), or a font file)")
            }
            options.font = f
        }
        func number(_ name: String, _ range: ClosedRange<Double>) throws(UsageError) -> Double? {
            guard let s = args.value(name) else { return nil }
            guard let v = Double(s), range.contains(v), v > 0 else {
                throw args.usageError("\(name) needs a positive number up to \(Int(range.upperBound)), not '\(s)'")
            }
            return v
        }
        if let v = try number("--size", 0...10_000) { options.size = v }
        if let v = try number("--scale", 0...16) { options.scale = v }
        if let v = try number("--max-page", 0...1_000_000) { options.maxPageSize = v }
        if let c = args.value("--color") {
            guard let rgba = RGBAColor(c) else { throw args.usageError("unknown colour '\(c)' (a name such as red, #rgb or #rrggbb)") }
            options.color = rgba
        }
        if let c = args.value("--background") {
            guard let rgba = RGBAColor(c) else { throw args.usageError("unknown colour '\(c)' (a name such as red, #rgb or #rrggbb)") }
            options.background = rgba
        }
        let idPrefix = args.value("--id-prefix")
        if let idPrefix, !Renderer.isValidIDPrefix(idPrefix) {
            throw args.usageError("--id-prefix needs 1 to 64 ASCII letters, digits, '-', '_' or '.', not '\(idPrefix)'")
        }
        options.display = args.flag("--display")
        if let t = args.value("--template") { options.labelTemplate = t }
        let settings = try args.speechSettings()
        let format = args.value("--format").flatMap(Format.init(rawValue:))
        let output = args.value("-o")
        /// The format of an output file: --format, else its extension (SVG when it has none).
        func imageFormat(of path: String) throws(UsageError) -> Format {
            if let format { return format }
            let ext = (path as NSString).pathExtension
            if ext.isEmpty { return .svg }
            guard let f = Format(pathExtension: path) else {
                throw args.usageError("cannot tell the image format of '\(path)': use .svg, .png or .pdf, or --format")
            }
            return f
        }
        if args.value("--batch") != nil,
           !args.positionals.isEmpty || output != nil || args.value("--input") != nil || args.flag("--text") {
            throw args.usageError("--batch reads JSON Lines from standard input and writes into DIR: no -o, TEX, --input or --text")
        }
        if args.flag("--text") && args.flag("--mathml") { throw args.usageError("--text reads prose with TeX math; it cannot be combined with --mathml") }

        // A batch's pool takes the speaker loaded here as its default (not loaded a second time).
        let speakers: SpeakerPool?
        let speaker: Speaker
        if args.value("--batch") != nil {
            guard let loaded = try settings.loadSpeakerPool() else { return .rules }
            (speakers, speaker) = (loaded.pool, loaded.speaker)
        } else {
            guard let loaded = try settings.loadSpeaker() else { return .rules }
            (speakers, speaker) = (nil, loaded)
        }
        let renderer: Renderer
        do {
            renderer = try Renderer(options: options, speaker: speaker)
        } catch {
            Output.error("mathaloud: \(error)\n")
            return .font
        }

        if let dir = args.value("--batch") {
            let chosen = format ?? .svg
            if let missing = missingLibrary(for: chosen) { return missing }
            return batch(renderer, speakers: speakers ?? settings.speakerPool, directory: dir, format: chosen, maxLineBytes: try args.maxLineBytes())
        }
        var failure = ExitCode.success
        guard let (input, name) = try args.input(failure: &failure) else { return failure }

        if args.flag("--sheet") {
            guard let output else { throw args.usageError("--sheet needs -o FILE") }
            let sources = input.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("%") }
            let chosen = output == "-" ? (format ?? .svg) : try imageFormat(of: output)
            if let missing = missingLibrary(for: chosen) { return missing }
            let sheet = renderer.contactSheet(sources)
            return write(renderer, sheet, chosen, to: output == "-" ? .standardOutput : .file(URL(fileURLWithPath: output)),
                         idPrefix: idPrefix) ?? .success
        }
        if args.flag("--text") {
            guard let dir = output else { throw args.usageError("--text needs -o DIRECTORY") }
            let chosen = format ?? .svg
            if let missing = missingLibrary(for: chosen) { return missing }
            return text(renderer, input: input, directory: dir, format: chosen)
        }

        let formula = args.notation(of: input) == .mathml ? renderer.render(mathML: input) : renderer.render(tex: input)
        let diagnostics = DiagnosticRenderer(source: SourceText(input), inputName: name)
        for d in formula.diagnostics where d.severity != .note { Output.error(diagnostics.terminal(d)) }
        if let rejection = formula.rejection {
            Output.error("mathaloud: nothing was drawn: \(rejection.message) [\(rejection.id)]\n")
            return .inputErrors
        }
        if args.flag("--dump") {
            var out = Output()
            out.write(formula.box.dump())
            out.flush()
            return formula.diagnostics.containsError ? .inputErrors : .success
        }
        guard let output else { throw args.usageError("give an output file with -o (e.g. -o eq.svg), or --dump") }
        let chosen = output == "-" ? (format ?? .svg) : try imageFormat(of: output)
        // One image, already laid out (its diagnostics printed): a missing library shows when it is written.
        if let failed = write(renderer, formula, chosen, to: output == "-" ? .standardOutput : .file(URL(fileURLWithPath: output)),
                              idPrefix: idPrefix) {
            return failed
        }
        return formula.diagnostics.containsError ? .inputErrors : .success
    }

    static func encode(_ renderer: Renderer, _ formula: RenderedFormula, _ format: Format,
                       idPrefix: String? = nil) throws(ImageFormatError) -> Data {
        switch format {
        case .svg: return Data(renderer.svg(formula, idPrefix: idPrefix).utf8)
        case .png: return try renderer.png(formula)
        case .pdf: return try renderer.pdf(formula)
        }
    }

    /// Where an image goes: a file, or standard output (`-o -`).
    enum Destination { case file(URL), standardOutput }

    /// Exit code `font`, after the error is printed, when images of `format` cannot be made (PNG and
    /// PDF without cairo); nil when they can. Checked once before a batch, a contact sheet or
    /// `--text` lays anything out.
    static func missingLibrary(for format: Format) -> ExitCode? {
        guard format != .svg else { return nil }
        do { try Renderer.checkCairo() } catch { return failure(error) }
        return nil
    }

    /// The exit code for an image that cannot be made, after the error is printed.
    private static func failure(_ error: ImageFormatError) -> ExitCode {
        Output.error("mathaloud: \(error)\n")
        return .font
    }

    /// Writes one image (a file through ``OutputFile``: never through a link, never half-written); nil
    /// when written, else the exit code after the error is printed (`font` when the format's library is
    /// missing, `io` when the file cannot be written).
    static func write(_ renderer: Renderer, _ formula: RenderedFormula, _ format: Format, to destination: Destination,
                      idPrefix: String? = nil) -> ExitCode? {
        let data: Data
        do { data = try encode(renderer, formula, format, idPrefix: idPrefix) } catch { return failure(error) }
        switch destination {
        case .standardOutput:
            StandardStream.output.write(data)
        case .file(let url):
            do { try OutputFile.write(data, to: url) } catch {
                Output.error("mathaloud: \(error)\n")
                return .io
            }
        }
        return nil
    }

    /// A manifest entry: file, label, source, the metrics an inline image needs, and the formula's
    /// diagnostics (ranges in its source).
    static func manifestEntry(id: JSONValue, file: String, formula: RenderedFormula) -> ImageResponse {
        let source = DiagnosticRenderer(source: SourceText(formula.source))
        return ImageResponse(id: id, file: file, label: formula.label, tex: formula.source,
                             width: rounded(formula.width), height: rounded(formula.height),
                             baseline: rounded(formula.baselineFromBottom),
                             verticalAlign: "-\(rounded(formula.baselineFromBottom))px",
                             errors: formula.diagnostics.filter { $0.severity == .error }.map(\.message),
                             diagnostics: formula.diagnostics.map(source.record),
                             box: FormulaBox(width: rounded(formula.box.width * formula.fontSize),
                                             height: rounded(formula.box.height * formula.fontSize),
                                             depth: rounded(formula.box.depth * formula.fontSize)))
    }

    /// Prints a batch line's diagnostics to standard error as a single formula's are, named by the
    /// line's number and id (`line 3 (id "d"):1:7: warning: … [tex.unknown-command]`, the source line
    /// and a caret under the range).
    static func printDiagnostics(_ formula: RenderedFormula, line: Int, id: JSONValue) {
        let reported = formula.diagnostics.filter { $0.severity != .note }
        guard !reported.isEmpty else { return }
        let source = DiagnosticRenderer(source: SourceText(formula.source), inputName: "line \(line) (id \(id.jsonText))")
        for d in reported { Output.error(source.terminal(d)) }
    }

    static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// `--batch`: JSON Lines read as every batch reads them (``BatchRequestReader``, ``FormulaRequest``:
    /// `id`, `tex`|`mathml`, `locale`, `style`, `preferences`, `display`, and `format` to override the
    /// image format), one image per line named by ``BatchFileNamer``; chunks of 512 lines are rendered
    /// on all cores and written in input order; the manifest is written safely (a temporary file renamed
    /// to `manifest.jsonl` at the end) and each line is echoed as it finishes.
    static func batch(_ renderer: Renderer, speakers: SpeakerPool, directory: String, format: Format, maxLineBytes: Int) -> ExitCode {
        let dir = URL(fileURLWithPath: directory)
        let manifest: OutputFile
        do {
            try OutputFile.createDirectory(dir)
            manifest = try OutputFile(dir.appendingPathComponent("manifest.jsonl"))
        } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        var names = BatchFileNamer()
        var reader = BatchRequestReader(maxLineBytes: maxLineBytes)
        var failed = false
        var out = Output()
        defer { out.flush() }
        struct Job: Sendable { let source: String, notation: FormulaNotation, display: Bool?, speaker: Speaker }
        enum Item { case formula(id: JSONValue, line: Int, name: String, format: Format, job: Job); case bad(BatchError) }
        while let lines = reader.nextChunk(maxLines: 512) {
            var items: [Item] = []
            for (offset, line) in lines.enumerated() {
                let number = reader.lineNumber - lines.count + offset + 1
                let request: FormulaRequest
                switch line {
                case .failure(let e): items.append(.bad(e)); continue
                case .success(let r): request = r
                }
                let speaker: Speaker
                switch speakers.speaker(for: request) {
                case .failure(let e): items.append(.bad(e)); continue
                case .success(let s): speaker = s
                }
                guard let notation = request.input.notation else {
                    items.append(.bad(BatchError(id: request.id, message: "render --batch takes \"tex\" or \"mathml\" (for prose use render --text)")))
                    continue
                }
                var chosen = format
                if let f = request.format {
                    guard let image = ImageFormat(f) else {
                        items.append(.bad(BatchError(id: request.id, message: "\"format\" must be \(OutputFormat.names(of: .image)) for render, not \(f)")))
                        continue
                    }
                    if image != .svg, (try? Renderer.checkCairo()) == nil {
                        items.append(.bad(BatchError(id: request.id, message: "\(image) needs cairo, which could not be loaded")))
                        continue
                    }
                    chosen = image
                }
                let name = names.name(forID: request.id, line: number, extension: chosen.rawValue)
                items.append(.formula(id: request.id, line: number, name: name, format: chosen,
                                      job: Job(source: request.input.source, notation: notation, display: request.display, speaker: speaker)))
            }
            var jobs: [Job] = []
            for case let .formula(_, _, _, _, job) in items { jobs.append(job) }
            var rendered = jobs.concurrentMap { job in
                let parsed = job.speaker.parser.parse(job.source, notation: job.notation)
                return renderer.render(parsed, display: job.display ?? (parsed.display ? true : nil), speaker: job.speaker)
            }.makeIterator()
            var chunk = ""
            for item in items {
                let line: String
                switch item {
                case .bad(let error):
                    line = error.jsonLine
                    failed = true
                case let .formula(id, number, name, chosen, _):
                    guard let formula = rendered.next() else { continue }
                    printDiagnostics(formula, line: number, id: id)
                    if let rejection = formula.rejection {
                        let source = DiagnosticRenderer(source: SourceText(formula.source))
                        line = BatchError(id: id, rejection: rejection, diagnostics: formula.diagnostics.map(source.record)).jsonLine
                        failed = true
                    } else {
                        if let status = write(renderer, formula, chosen, to: .file(dir.appendingPathComponent(name))) {
                            manifest.discard()
                            return status
                        }
                        line = manifestEntry(id: id, file: name, formula: formula).jsonText
                        failed = failed || formula.diagnostics.containsError
                    }
                }
                chunk += line + "\n"
                out.line(line)
            }
            do { try manifest.append(chunk) } catch {
                manifest.discard()
                Output.error("mathaloud: \(error)\n")
                return .io
            }
        }
        do { try manifest.commit() } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        return failed ? .inputErrors : .success
    }

    /// `--text`: one image per formula of the prose, `manifest.jsonl` and `index.html`, every file
    /// written through ``OutputFile``. A formula refused as a whole gets an error line in the manifest
    /// and stays as its source text in `index.html`.
    static func text(_ renderer: Renderer, input: String, directory: String, format: Format) -> ExitCode {
        let dir = URL(fileURLWithPath: directory)
        do { try OutputFile.createDirectory(dir) } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        let images = renderer.renderText(input)
        var manifest = ""
        for (i, image) in images.enumerated() {
            let name = "eq\(i + 1).\(format.rawValue)"
            if let rejection = image.formula.rejection {
                let source = DiagnosticRenderer(source: SourceText(image.formula.source))
                manifest += BatchError(id: .number(JSONNumber(i + 1)), rejection: rejection,
                                       diagnostics: image.formula.diagnostics.map(source.record)).jsonLine + "\n"
                continue
            }
            if let failed = write(renderer, image.formula, format, to: .file(dir.appendingPathComponent(name))) { return failed }
            var entry = manifestEntry(id: .number(JSONNumber(i + 1)), file: name, formula: image.formula)
            entry.display = image.display
            entry.range = image.range
            manifest += entry.jsonText + "\n"
        }
        // index.html: the prose with each formula in place, sitting on the text's baseline.
        let bytes = Array(input.utf8)
        var html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>MathAloud</title></head><body><p>"
        var at = 0
        for (i, image) in images.enumerated() {
            let lower = max(at, min(bytes.count, image.range.lowerBound)), upper = max(lower, min(bytes.count, image.range.upperBound))
            html += XMLEscaping.text(String(decoding: bytes[at..<lower], as: UTF8.self)).replacingOccurrences(of: "\n\n", with: "</p>\n<p>")
            let f = image.formula
            if f.rejection != nil {
                html += XMLEscaping.text(String(decoding: bytes[lower..<upper], as: UTF8.self))
                at = upper
                continue
            }
            if image.display { html += "</p>\n<p style=\"text-align:center\">" }
            switch format {
            case .svg: html += renderer.svg(f, idPrefix: "eq\(i + 1)")
            case .png, .pdf:
                html += "<img src=\"eq\(i + 1).\(format.rawValue)\" alt=\"\(XMLEscaping.attribute(f.label))\" width=\"\(rounded(f.width))\" "
                html += "height=\"\(rounded(f.height))\" style=\"vertical-align:-\(rounded(f.baselineFromBottom))px\">"
            }
            if image.display { html += "</p>\n<p>" }
            at = upper
        }
        html += XMLEscaping.text(String(decoding: bytes[min(at, bytes.count)...], as: UTF8.self)) + "</p></body></html>\n"
        do {
            try OutputFile.write(manifest, to: dir.appendingPathComponent("manifest.jsonl"))
            try OutputFile.write(html, to: dir.appendingPathComponent("index.html"))
        } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
        print(manifest, terminator: "")
        return images.contains { $0.formula.diagnostics.containsError } ? .inputErrors : .success
    }
}
