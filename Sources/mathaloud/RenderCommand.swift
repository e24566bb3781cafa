import Foundation
import MathAloud
import MathAloudRender

/// `mathaloud render`: TeX or MathML to SVG, PNG or PDF with the spoken label inside the file.
enum RenderCommand {
    static let usage = """
    usage: mathaloud render [TEX] -o FILE.svg|FILE.png|FILE.pdf [--mathml] [--font F] [--size PX] [--color C]
                            [--background C] [--display] [--scale N] [--locale L] [--style S] [--template T]
                            [--format svg|png|pdf] [--dump] [--text] [--batch DIR]
      TEX              the formula; read from standard input when absent
      -o FILE          output file; the extension picks the format ('-' writes SVG to standard output)
      --format F       svg, png or pdf (overrides the extension)
      --font F         latin-modern (default), pagella, termes, bonum, schola, dejavu, or a font file path
      --size PX        font size in px per em (pt per em in PDF); default 20
      --color C        formula colour: a name (red), #rgb or #rrggbb; default black
      --background C   background fill; default transparent
      --display        display style (\\[…\\]) instead of text style
      --scale N        PNG pixel density (2 = twice the pixels at the same CSS size); default 1
      --locale, --style, --template   the label: speech locale, style and template ({speech}, {latex})
      --pref N=V, --verbosity V, --rules-dir DIR   speech preferences and rules for the label, as for `speak`
      --dump           print the box tree (em units) instead of writing an image
      --text           the input is prose with inline math: one image per formula into the directory
                       given by -o, manifest.jsonl with label, baseline and size of each, and index.html
                       with the prose and every formula in place on the text's baseline
      --sheet          a contact sheet: standard input (or TEX) holds one formula per line ('%' lines skipped);
                       all are drawn in a grid, each above its label, into the -o file
      --batch DIR      JSON Lines on standard input ({"id", "tex"|"mathml", "locale"?, "style"?, "preferences"?,
                       "display"?}), one image per line into DIR (named by id, repeated ids get -2, -3…;
                       format from --format, default svg), and DIR/manifest.jsonl
    exit codes: 0 ok, 1 the input had errors (the image shows what parsed), 2 usage error, 3 I/O error,
                4 rules could not be loaded, 6 the font could not be loaded
    """

    typealias Format = ImageFormat

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try CommandLineArguments(arguments, valued: ["-o", "--output", "--font", "--size", "--color", "--background",
                                                                "--scale", "--locale", "--style", "--template", "--format",
                                                                "--batch", "--macro", "--pref", "--verbosity", "--rules-dir"],
                                            flags: ["--display", "--mathml", "--dump", "--text", "--sheet", "--help", "-h"])
        if args.flag("--help") || args.flag("-h") { print(usage); return .success }
        var options = RenderOptions()
        if let f = args.value("--font") { options.font = f }
        if let s = args.value("--size") {
            guard let v = Double(s), v > 0, v <= 10_000 else { throw UsageError("--size needs a positive number of px") }
            options.size = v
        }
        if let s = args.value("--scale") {
            guard let v = Double(s), v > 0, v <= 16 else { throw UsageError("--scale needs a number between 0 and 16") }
            options.scale = v
        }
        if let c = args.value("--color") {
            guard let rgba = RGBAColor(c) else { throw UsageError("unknown colour '\(c)'") }
            options.color = rgba
        }
        if let c = args.value("--background") {
            guard let rgba = RGBAColor(c) else { throw UsageError("unknown colour '\(c)'") }
            options.background = rgba
        }
        options.display = args.flag("--display")
        if let t = args.value("--template") { options.labelTemplate = t }
        let settings = try args.speechSettings()
        var format: Format? = nil
        if let f = args.value("--format") {
            guard let v = Format(rawValue: f.lowercased()) else { throw UsageError("--format must be svg, png or pdf") }
            format = v
        }
        let output = args.value("-o") ?? args.value("--output")

        guard let speaker = try settings.loadSpeaker() else { return .rules }
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
            return batch(renderer, speakers: settings.speakerPool, directory: dir, format: chosen)
        }
        if args.positionals.count > 1 { throw UsageError("give one formula (quote it), or none to read standard input") }
        let input = args.positionals.first ?? readStandardInput()

        if args.flag("--sheet") {
            guard let output else { throw UsageError("--sheet needs -o FILE") }
            let sources = input.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("%") }
            let chosen = format ?? Format(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased()) ?? .png
            if let missing = missingLibrary(for: chosen) { return missing }
            let sheet = renderer.contactSheet(sources)
            return write(renderer, sheet, chosen, to: .file(URL(fileURLWithPath: output))) ?? .success
        }
        if args.flag("--text") {
            guard let dir = output else { throw UsageError("--text needs -o DIRECTORY") }
            let chosen = format ?? .svg
            if let missing = missingLibrary(for: chosen) { return missing }
            return text(renderer, input: input, directory: dir, format: chosen)
        }

        let formula = args.flag("--mathml") ? renderer.render(mathML: input) : renderer.render(tex: input)
        let diagnostics = DiagnosticRenderer(source: SourceText(input), inputName: args.positionals.isEmpty ? "<stdin>" : "<formula>")
        for d in formula.diagnostics where d.severity != .note { Output.error(diagnostics.terminal(d)) }
        if args.flag("--dump") {
            var out = Output()
            out.write(formula.box.dump())
            out.flush()
            return formula.diagnostics.containsError ? .inputErrors : .success
        }
        guard let output else { throw UsageError("give an output file with -o (e.g. -o eq.svg), or --dump") }
        let chosen = format ?? Format(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased()) ?? .svg
        // One image, already laid out (its diagnostics printed): a missing library shows when it is written.
        if let failed = write(renderer, formula, chosen, to: output == "-" ? .standardOutput : .file(URL(fileURLWithPath: output))) {
            return failed
        }
        return formula.diagnostics.containsError ? .inputErrors : .success
    }

    static func encode(_ renderer: Renderer, _ formula: RenderedFormula, _ format: Format) throws(ImageFormatError) -> Data {
        switch format {
        case .svg: return Data(renderer.svg(formula).utf8)
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

    /// Writes one image; nil when written, else the exit code after the error is printed (`font`
    /// when the format's library is missing, `io` when the file cannot be written).
    static func write(_ renderer: Renderer, _ formula: RenderedFormula, _ format: Format, to destination: Destination) -> ExitCode? {
        let data: Data
        do { data = try encode(renderer, formula, format) } catch { return failure(error) }
        switch destination {
        case .standardOutput:
            FileHandle.standardOutput.write(data)
        case .file(let url):
            do { try data.write(to: url) } catch {
                Output.error("mathaloud: cannot write \(url.path): \(error.localizedDescription)\n")
                return .io
            }
        }
        return nil
    }

    /// A manifest entry: file, label, source and the metrics an inline image needs.
    static func manifestEntry(id: JSONValue, file: String, formula: RenderedFormula) -> ImageResponse {
        ImageResponse(id: id, file: file, label: formula.label, tex: formula.source,
                      width: rounded(formula.width), height: rounded(formula.height),
                      baseline: rounded(formula.baselineFromBottom),
                      verticalAlign: "-\(rounded(formula.baselineFromBottom))px",
                      errors: formula.diagnostics.filter { $0.severity == .error }.map(\.message))
    }

    static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// `--batch`: JSON Lines read as every batch reads them (``FormulaRequest``: `id`, `tex`|`mathml`,
    /// `locale`, `style`, `preferences`, `display`, and `format` to override the image format), one image
    /// per line named by ``BatchFileNamer``; chunks of 512 lines are rendered on all cores and written in
    /// input order, the manifest as they finish.
    static func batch(_ renderer: Renderer, speakers: SpeakerPool, directory: String, format: Format) -> ExitCode {
        let dir = URL(fileURLWithPath: directory)
        let manifestURL = dir.appendingPathComponent("manifest.jsonl")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data().write(to: manifestURL)
        } catch {
            Output.error("mathaloud: cannot write in \(directory): \(error.localizedDescription)\n")
            return .io
        }
        guard let manifest = try? FileHandle(forWritingTo: manifestURL) else { return .io }
        defer { try? manifest.close() }
        var names = BatchFileNamer()
        var number = 0
        var status: ExitCode = .success
        var out = Output()
        defer { out.flush() }
        struct Job: Sendable { let source: String, notation: FormulaNotation, display: Bool?, speaker: Speaker }
        enum Item { case formula(id: JSONValue, name: String, format: Format, job: Job); case bad(BatchError) }
        var finished = false
        while !finished {
            var items: [Item] = []
            while items.count < 512 {
                guard let line = readLine(strippingNewline: true) else { finished = true; break }
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                number += 1
                let request: FormulaRequest
                switch FormulaRequest.read(line: line) {
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
                    if let missing = missingLibrary(for: image) { return missing }
                    chosen = image
                }
                let name = names.name(forID: request.id, line: number, extension: chosen.rawValue)
                items.append(.formula(id: request.id, name: name, format: chosen,
                                      job: Job(source: request.input.source, notation: notation, display: request.display, speaker: speaker)))
            }
            var jobs: [Job] = []
            for case let .formula(_, _, _, job) in items { jobs.append(job) }
            var rendered = jobs.concurrentMap { job in
                let parsed = job.speaker.parser.parse(job.source, notation: job.notation)
                return renderer.render(parsed, display: job.display ?? (parsed.display ? true : nil), speaker: job.speaker)
            }.makeIterator()
            var chunk = ""
            for item in items {
                switch item {
                case .bad(let error):
                    let line = error.jsonLine
                    chunk += line + "\n"; out.line(line); status = .inputErrors
                case let .formula(id, name, chosen, _):
                    guard let formula = rendered.next() else { continue }
                    if let failed = write(renderer, formula, chosen, to: .file(dir.appendingPathComponent(name))) { return failed }
                    let entry = manifestEntry(id: id, file: name, formula: formula).jsonText
                    chunk += entry + "\n"
                    out.line(entry)
                }
            }
            manifest.write(Data(chunk.utf8))
        }
        return status
    }

    static func text(_ renderer: Renderer, input: String, directory: String, format: Format) -> ExitCode {
        let dir = URL(fileURLWithPath: directory)
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch { return .io }
        let images = renderer.renderText(input)
        var manifest = ""
        for (i, image) in images.enumerated() {
            let name = "eq\(i + 1).\(format.rawValue)"
            if let failed = write(renderer, image.formula, format, to: .file(dir.appendingPathComponent(name))) { return failed }
            var entry = manifestEntry(id: .number(JSONNumber(i + 1)), file: name, formula: image.formula)
            entry.display = image.display
            entry.range = image.range
            manifest += entry.jsonText + "\n"
        }
        do { try Data(manifest.utf8).write(to: dir.appendingPathComponent("manifest.jsonl")) } catch { return .io }
        // index.html: the prose with each formula in place, sitting on the text's baseline.
        let bytes = Array(input.utf8)
        var html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>MathAloud</title></head><body><p>"
        var at = 0
        for (i, image) in images.enumerated() {
            let lower = max(at, min(bytes.count, image.range.lowerBound)), upper = max(lower, min(bytes.count, image.range.upperBound))
            html += XMLEscaping.text(String(decoding: bytes[at..<lower], as: UTF8.self)).replacingOccurrences(of: "\n\n", with: "</p>\n<p>")
            let f = image.formula
            if image.display { html += "</p>\n<p style=\"text-align:center\">" }
            switch format {
            case .svg: html += renderer.svg(f, idPrefix: "eq\(i + 1)")
            case .png, .pdf:
                html += "<img src=\"eq\(i + 1).\(format == .png ? "png" : "pdf")\" alt=\"\(XMLEscaping.attribute(f.label))\" width=\"\(rounded(f.width))\" "
                html += "height=\"\(rounded(f.height))\" style=\"vertical-align:-\(rounded(f.baselineFromBottom))px\">"
            }
            if image.display { html += "</p>\n<p>" }
            at = upper
        }
        html += XMLEscaping.text(String(decoding: bytes[min(at, bytes.count)...], as: UTF8.self)) + "</p></body></html>\n"
        do { try Data(html.utf8).write(to: dir.appendingPathComponent("index.html")) } catch { return .io }
        print(manifest, terminator: "")
        return images.contains { $0.formula.diagnostics.containsError } ? .inputErrors : .success
    }
}
