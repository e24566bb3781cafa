import Foundation
import MathAloud
import MathAloudDocuments
import MathAloudDocumentsRender
import MathAloudRender

/// `mathaloud convert`: a document with every formula made accessible (MathAloudDocuments does the work).
enum ConvertCommand {
    /// The command's options, for parsing, help and shell completion.
    static let spec = CommandSpec(
        name: "convert", arguments: "[FILE|-]",
        summary: "Writes a document (Markdown, HTML, a notebook, or text as HTML) with every formula made accessible.\n"
            + "  FILE   the document (- or absent: standard input); its extension gives the format",
        options: [
            OptionSpec(["--to"], "T", "html (default: each formula as MathML with alttext and aria-label, inline SVG or <img>, "
                       + "the document's own format around it) or markdown (each formula a Markdown image with its alt)",
                       choices: ["html", "markdown"]),
            OptionSpec(["--math-as"], "S", "for --to html: mathml (default), svg (inline, role=img with <title>) or img (<img alt>)",
                       choices: ["mathml", "svg", "img"]),
            OptionSpec(["-o", "--output"], "OUT", "where to write (default standard output); image files go in --images; "
                       + "a symbolic link or a directory in the way is refused, nothing written", completion: .file),
            OptionSpec(["--format"], "F", "the input's format (default: from FILE's extension, else markdown); text is "
                       + "written as HTML (its prose escaped, its lines kept); LaTeX is refused (a .tex file cannot hold "
                       + "MathML: check it with mathaloud audit)",
                       choices: ["text", "markdown", "html", "latex", "notebook"]),
            OptionSpec(["--label"], "M", "speech (default: the speech and equation number), tex (the source) or none",
                       choices: ["speech", "tex", "none"]),
            SharedOptions.template,
            OptionSpec(["--errors"], "M", "a formula with errors: keep (default: as written), show (the message and the source), "
                       + "render (drawn, the bad parts in --error-color)", choices: ["keep", "show", "render"]),
            OptionSpec(["--error-color"], "C", "the colour of the bad parts with --errors render (default #cc0000)"),
            OptionSpec(["--numbering"], "N", "ams (default: numbered environments), all (every display formula), none",
                       choices: ["none", "ams", "all"]),
            OptionSpec(["--number-start"], "N", "the first equation number (default 1)"),
            OptionSpec(["--numbers-left"], nil, "equation numbers at the left"),
            OptionSpec(["--display-mode"], "M", "as-written (default), display, inline", choices: ["as-written", "display", "inline"]),
            SharedOptions.macro,
            OptionSpec(["--macros", "--definitions"], SharedOptions.macros.valueName, SharedOptions.macros.help, completion: .file),
            OptionSpec(["--max-expand"], "N", "most macro expansions per formula (default 1000)"),
            OptionSpec(["--max-size"], "EM", "the largest size in em"),
            OptionSpec(["--trust"], "T", "which of \\href, \\url, \\includegraphics, \\htmlClass, \\htmlId, \\htmlStyle, \\htmlData may act: "
                       + "none (default: content kept, link or attribute dropped, warning tex.untrusted-command), all, or names (href,url)"),
            OptionSpec(["--trust-protocols"], "P", "the URL schemes a trusted link or image may use (default http,https,mailto; "
                       + "a relative URL is always allowed)"),
            OptionSpec(["--image-format"], "F", "svg (default) or png, for --math-as img and --to markdown", choices: ["svg", "png"]),
            OptionSpec(["--images"], "DIR", "where image files go, relative to OUT (default images); each is named by its content's "
                       + "SHA-256, so documents converted into one folder keep their images", completion: .directory),
            OptionSpec(["--inline-images"], nil, "images as data: URIs"),
            OptionSpec(["--relabel"], nil, "replace the alttext/aria-label <math> elements already have (default: add what is missing)"),
            OptionSpec(["--kramdown"], nil, "Markdown: \\\\(…\\\\) and \\\\[…\\\\] are math too (kramdown, Jekyll: MathJax reads them "
                       + "after Markdown drops a backslash)"),
            OptionSpec(["--stream"], nil, "read standard input as it comes and write each part as soon as it is final (text or markdown)"),
            OptionSpec(["--stats"], nil, "print formulas, labels, time, peak memory and cache hits to standard error"),
            OptionSpec(["--font"], "F", "the math font for images"),
            OptionSpec(["--size"], "PX", "the font size for images, in px"),
        ] + SharedOptions.speech + [SharedOptions.help],
        notes: "exit codes: 0 ok, 1 some formulas had errors, 2 usage error, 3 I/O error, 4 rules could not be loaded,\n"
            + "            6 the font could not be loaded (svg, img, markdown)")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try spec.parse(arguments)
        if args.flag("--help") { print(spec.usage); return .success }
        let started = Date()
        guard args.positionals.count <= 1 else { throw UsageError("give one document (or none to read standard input)") }
        let path = args.positionals.first ?? "-"
        let format: DocumentFormat
        if let f = args.value("--format") {
            guard let v = DocumentFormat(rawValue: f) else { throw UsageError("--format must be text, markdown, html, latex or notebook") }
            format = v
        } else {
            format = path == "-" ? .markdown : DocumentFormat(path: path) ?? .markdown
        }
        if format == .latex {
            Output.error("mathaloud: \(ConversionError.unsupportedFormat(.latex))\n")
            return .usage
        }
        var conversion = ConversionOptions()
        if let t = args.value("--to") {
            guard let v = ConversionTarget(rawValue: t) else { throw UsageError("--to must be html or markdown") }
            // Markdown images belong in Markdown: an HTML, LaTeX or text page would show their syntax.
            guard v != .markdown || format == .markdown || format == .notebook else {
                throw UsageError("--to markdown writes Markdown images, for a Markdown document or notebook (this one is \(format.rawValue))")
            }
            conversion.target = v
        }
        if let m = args.value("--math-as") {
            guard let v = HTMLMathStyle(rawValue: m) else { throw UsageError("--math-as must be mathml, svg or img") }
            conversion.mathStyle = v
        }
        if let f = args.value("--image-format") {
            guard let v = FormulaImage.Format(rawValue: f) else { throw UsageError("--image-format must be svg or png") }
            conversion.imageFormat = v
        }
        if let d = args.value("--images") { conversion.imageDirectory = d }
        conversion.inlineImages = args.flag("--inline-images")
        conversion.relabelExisting = args.flag("--relabel")
        let texOptions = try args.texParserOptions()
        var options = try documentOptions(args, texOptions: texOptions)
        options.segmenter.kramdownDelimiters = args.flag("--kramdown")
        options.products = DocumentConverter.products(for: conversion)
        // Relabelling reads each `<math>` from its MathML, not from the label it is replacing.
        options.readsAuthorLabels = !conversion.relabelExisting

        let settings = try args.speechSettings(texOptions: texOptions)
        guard let speaker = try settings.loadSpeaker() else { return .rules }
        var imageMaker: RendererImageMaker?
        if options.products.contains(.image) {
            var renderOptions = RenderOptions()
            if let f = args.value("--font") { renderOptions.font = f }
            if let s = args.value("--size") {
                guard let v = Double(s), v > 0, v <= 10_000 else { throw UsageError("--size needs a positive number of px") }
                renderOptions.size = v
            }
            do {
                imageMaker = RendererImageMaker(renderer: try Renderer(options: renderOptions, speaker: speaker),
                                                format: conversion.imageFormat)
            } catch {
                Output.error("mathaloud: \(error)\n")
                return .font
            }
        }
        if format == .latex, path != "-" {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            options.segmenter.documentFileName = URL(fileURLWithPath: path).lastPathComponent
            options.segmenter.loadIncludedFile = { name in
                (try? Data(contentsOf: directory.appendingPathComponent(name))).map { Array($0) }
            }
        }
        let processor = DocumentProcessor(options: options, speaker: speaker, imageMaker: imageMaker)
        let converter = DocumentConverter(processor: processor, options: conversion)
        let output = args.value("-o") ?? args.value("--output")

        if args.flag("--stream") {
            guard path == "-" else { throw UsageError("--stream reads standard input (give no FILE or -)") }
            guard format == .text || format == .markdown else {
                throw UsageError("--stream reads text or Markdown (--format text or markdown), not \(format.rawValue)")
            }
            guard conversion.target == .html, conversion.mathStyle == .mathml || conversion.inlineImages else {
                throw UsageError("--stream writes MathML, or images as data: URIs (--inline-images)")
            }
            return stream(converter: converter, format: format, stats: args.flag("--stats"), started: started)
        }

        let bytes: [UInt8]
        if path == "-" {
            // As a FILE is read: whole (the converter needs the document at once; --stream is the way to bound it).
            do { bytes = Array(try InputFile.readStandardInput(limit: .max)) } catch {
                Output.error("mathaloud: \(error)\n")
                return .io
            }
        } else {
            do { bytes = Array(try InputFile.read(path, limit: .max)) } catch {
                Output.error("mathaloud: \(error)\n")
                return .io
            }
        }
        let converted: ConvertedDocument
        let inputName = path == "-" ? "<stdin>" : path
        do {
            converted = try converter.convert(bytes: bytes, format: format)
        } catch {
            // An edit that could not be made: where, in the input.
            if case .edit(let e) = error {
                let range: SourceRange
                switch e {
                case .overlapping(_, let r), .outOfRange(let r), .unencodable(let r): range = r
                }
                let at = DocumentSource(bytes: bytes).location(of: range.lowerBound)
                Output.error("\(inputName):\(at.line):\(at.column): error: \(e)\n")
            } else {
                Output.error("mathaloud: \(inputName): \(error)\n")
            }
            return .io
        }
        let source = converted.processed.document.source
        let renderer = DiagnosticRenderer(source: SourceText(source.text), inputName: inputName)
        for d in converted.processed.diagnostics {
            var moved = d
            moved.range = d.range.map {
                SourceRange(source.textOffset(ofFileOffset: $0.lowerBound), source.textOffset(ofFileOffset: $0.upperBound))
            }
            Output.error(renderer.terminal(moved))
        }
        if let output, output != "-" {
            // Every target is checked before anything is written: a link or a directory in the way
            // leaves all the files as they were.
            let target = URL(fileURLWithPath: output)
            let base = target.deletingLastPathComponent()
            // Paths in messages as the user wrote them.
            let shownBase = (output as NSString).deletingLastPathComponent
            let images = converted.assets.map {
                (url: base.appendingPathComponent($0.path), shown: shownBase.isEmpty ? $0.path : shownBase + "/" + $0.path, data: $0.data)
            }
            // The document commands' policy (OutputFile.LinkPolicy.refuse): a symbolic link in the way
            // is refused, never written through or replaced.
            do throws(OutputFileError) {
                if let problem = OutputFile.refusal(of: target, shown: output) { throw problem }
                try OutputFile.createDirectory(base)
                for image in images {
                    try OutputFile.prepareDirectories(of: image.url, under: base, shownBase: shownBase)
                    if let problem = OutputFile.refusal(of: image.url, shown: image.shown) { throw problem }
                }
                for image in images { try OutputFile.write(Data(image.data), to: image.url, shown: image.shown, links: .refuse) }
                try OutputFile.write(Data(converted.bytes), to: target, shown: output, links: .refuse)
            } catch {
                Output.error("mathaloud: \(error)\n")
                return .io
            }
        } else {
            guard converted.assets.isEmpty else {
                throw UsageError("image files need -o OUT (or --inline-images)")
            }
            StandardStream.output.write(converted.bytes)
        }
        if args.flag("--stats") {
            Output.error(statistics(formulas: converted.formulaCount, labelled: converted.labelledCount, bytes: bytes.count,
                                    processor: processor, started: started))
        }
        return converted.processed.formulas.contains(where: \.hasErrors) ? .inputErrors : .success
    }

    /// The document options from the command line.
    static func documentOptions(_ args: CommandLineArguments, texOptions: TeXParserOptions) throws(UsageError) -> DocumentOptions {
        var options = DocumentOptions()
        switch args.value("--label") ?? "speech" {
        case "speech": options.label = .speech
        case "tex": options.label = .tex
        case "none": options.label = .none
        default: throw UsageError("--label must be speech, tex or none")
        }
        if let t = args.value("--template") { options.labelTemplate = t }
        let color = args.value("--error-color") ?? "#cc0000"
        switch args.value("--errors") ?? "keep" {
        case "keep": options.errors = .keepSource
        case "show": options.errors = .showError
        case "render": options.errors = .render(color: color)
        default: throw UsageError("--errors must be keep, show or render")
        }
        if let n = args.value("--numbering") {
            guard let v = EquationNumbering.Scope(rawValue: n) else { throw UsageError("--numbering must be none, ams or all") }
            options.numbering.scope = v
        }
        if let s = args.value("--number-start") {
            guard let v = Int(s), v >= 0, v < 1_000_000_000 else { throw UsageError("--number-start needs a whole number") }
            options.numbering.start = v
        }
        if args.flag("--numbers-left") { options.numbering.side = .left }
        if let m = args.value("--display-mode") {
            switch m {
            case "as-written": options.displayMode = .asWritten
            case "display": options.displayMode = .display
            case "inline": options.displayMode = .inline
            default: throw UsageError("--display-mode must be as-written, display or inline")
            }
        }
        options.macros = texOptions.macros
        options.definitions = texOptions.definitions
        if let s = args.value("--max-expand") {
            guard let v = Int(s), v >= 0 else { throw UsageError("--max-expand needs a whole number") }
            options.limits.maxExpansions = v
        }
        if let s = args.value("--max-size") {
            guard let v = Double(s), v >= 0 else { throw UsageError("--max-size needs a size in em") }
            options.limits.maxSize = v
        }
        options.trust = try trust(args.value("--trust"), protocols: args.value("--trust-protocols"))
        return options
    }

    /// The commands `--trust` names, and the feature of ``TrustPolicy`` each needs.
    static let trustedCommands: [String: TrustPolicy.Feature] = [
        "href": .links, "url": .links, "includegraphics": .images,
        "htmlClass": .htmlAttributes, "htmlId": .htmlAttributes, "htmlData": .htmlAttributes, "htmlStyle": .styles,
    ]

    /// `--trust` and `--trust-protocols` as a policy (KaTeX's `trust`): `none`, `all`, or command names,
    /// each allowing its feature (``TrustPolicy/Feature``); a relative URL is always allowed.
    static func trust(_ commands: String?, protocols: String?) throws(UsageError) -> TrustPolicy {
        var trust = TrustPolicy.untrusted
        switch commands ?? "none" {
        case "none": break
        case "all": trust = .trusted
        case let list:
            let names = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingPrefix("\\") }.map(String.init))
            let unknown = names.filter { trustedCommands[$0] == nil }
            guard unknown.isEmpty else {
                throw UsageError("--trust takes none, all or names from \(trustedCommands.keys.sorted().joined(separator: ",")); not \(unknown.sorted().joined(separator: ","))")
            }
            trust.allowed = Set(names.compactMap { trustedCommands[$0] })
        }
        if let protocols {
            trust.urlSchemes = Set(protocols.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty && $0 != "_relative" })
        }
        return trust
    }

    /// `--stream`: standard input converted as it arrives.
    static func stream(converter: DocumentConverter, format: DocumentFormat, stats: Bool, started: Date) -> ExitCode {
        let stream = MathStream(processor: converter.processor, format: format == .text ? .text : .markdown)
        var formulas = 0, labelled = 0, errors = false, total = 0
        // Text becomes HTML as in one piece: escaped prose in a block that keeps its lines.
        let textAsHTML = format == .text && converter.options.target == .html
        if textAsHTML { StandardStream.output.write(DocumentConverter.textAsHTMLStart) }
        func write(_ segments: [StreamSegment]) {
            var out = ""
            for segment in segments {
                switch segment {
                case .text(let t, _): out += textAsHTML ? DocumentConverter.textProse(t) : t
                case .formula(let f):
                    formulas += 1
                    if f.hasErrors { errors = true }
                    let (markup, isLabelled) = converter.streamText(for: f, format: format)
                    out += markup
                    if isLabelled { labelled += 1 }
                }
            }
            if !out.isEmpty { StandardStream.output.write(out) }
        }
        var reader = StandardInputChunks()
        while let chunk = reader.next() {
            total += chunk.utf8.count
            write(stream.append(chunk))
        }
        write(stream.finish())
        if textAsHTML { StandardStream.output.write(DocumentConverter.textAsHTMLEnd) }
        for (d, at) in zip(stream.diagnostics, stream.diagnosticLocations) {
            Output.error("<stdin>:\(at.line):\(at.column): \(d.severity): \(d.message) [\(d.id)]\n")
        }
        if stats {
            Output.error(statistics(formulas: formulas, labelled: labelled, bytes: total, processor: converter.processor, started: started))
        }
        return errors ? .inputErrors : .success
    }

    /// The `--stats` lines.
    static func statistics(formulas: Int, labelled: Int, bytes: Int, processor: DocumentProcessor, started: Date) -> String {
        let seconds = Date().timeIntervalSince(started)
        return """
        mathaloud: \(formulas) formulas, \(labelled) labelled; \(bytes) bytes in \(String(format: "%.3f", seconds)) s; \
        peak RSS \(peakResidentKiB().map { "\($0 / 1024) MiB" } ?? "unknown"); \
        \(processor.statistics.formulasAnalysed) formulas analysed; cache \(processor.cache.statistics)

        """
    }

    /// The peak resident set size in KiB (Linux: `VmHWM` of `/proc/self/status`).
    static func peakResidentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }
}

/// Standard input in chunks as they arrive, cut at UTF-8 character boundaries.
struct StandardInputChunks {
    private var carry: [UInt8] = []
    private var done = false

    mutating func next() -> String? {
        while !done {
            // What has arrived, up to 64 KiB.
            let data = Descriptor.available(0)
            if data.isEmpty {
                done = true
                if carry.isEmpty { return nil }
                defer { carry = [] }
                return String(decoding: carry, as: UTF8.self)
            }
            var bytes = carry + data
            // Keep an unfinished UTF-8 sequence for the next chunk.
            var cut = bytes.count
            var k = bytes.count - 1
            var back = 0
            while k >= 0, back < 4, bytes[k] & 0xC0 == 0x80 { k -= 1; back += 1 }
            if k >= 0 {
                let lead = bytes[k]
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
                if length > 1, bytes.count - k < length { cut = k }
            }
            carry = Array(bytes[cut...])
            bytes.removeSubrange(cut...)
            if !bytes.isEmpty { return String(decoding: bytes, as: UTF8.self) }
        }
        return nil
    }
}
