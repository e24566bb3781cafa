import Foundation
import MathAloud

/// `mathaloud parse`: TeX or MathML to a tree, MathML or JSON.
enum ParseCommand {
    static let spec = CommandSpec(
        name: "parse", arguments: "[TEX]",
        summary: "Turns TeX (or MathML) into MathAloud's presentation tree, MathML or JSON.\n"
            + "  TEX    the formula (after -- when it starts with a dash and a letter: -- -x); read from --input\n         FILE or standard input when absent",
        options: SharedOptions.inputs + [
            OptionSpec(["--to"], "FORMAT", "the output", choices: ["tree", "mathml", "json"]),
            OptionSpec(["--entities"], nil, "with --text: decode HTML entities (&lt; → <)"),
        ] + SharedOptions.tex + [
            OptionSpec(["--batch"], nil, "JSON Lines on standard input: {\"id\", \"tex\"|\"mathml\", \"format\"?} per line → "
                       + "{\"id\", \"tree\"|\"mathml\", \"diagnostics\"} or {\"id\", \"error\"} per line, same order"),
            SharedOptions.maxLine, SharedOptions.help,
        ],
        notes: SharedOptions.exitCodes)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try spec.parse(arguments)
        if args.flag("--help") { print(spec.usage); return .success }
        let format = TreeFormat(rawValue: args.value("--to") ?? "tree")!
        let texOptions = try args.texParserOptions()
        let parser = FormulaParser(texOptions: texOptions)
        var out = Output()
        defer { out.flush() }

        if args.flag("--batch") {
            if !args.positionals.isEmpty || args.value("--input") != nil || args.flag("--text") {
                throw args.usageError("--batch reads JSON Lines from standard input: no TEX, --input or --text")
            }
            var reader = BatchRequestReader(maxLineBytes: try args.maxLineBytes())
            var failed = false
            while let line = reader.next() {
                let result: BatchResult<ParseResponse>
                switch line {
                case .success(let request): result = parser.response(to: request, format: format)
                case .failure(let error): result = .failure(error)
                }
                failed = failed || result.hasErrors
                out.line(result.jsonLine)
            }
            return failed ? .inputErrors : .success
        }

        var failure = ExitCode.success
        guard let (input, name) = try args.input(failure: &failure) else { return failure }

        if args.flag("--text") {
            var scanOptions = MathTextScanner.Options()
            scanOptions.decodeHTMLEntities = args.flag("--entities")
            let scan = MathTextScanner(options: scanOptions).scan(input)
            let source = SourceText(input)
            let renderer = DiagnosticRenderer(source: source, inputName: name)
            var failed = scan.diagnostics.containsError
            for d in scan.diagnostics { Output.error(renderer.terminal(d)) }
            var jsonSegments: [JSONValue] = []
            for segment in scan.segments {
                switch segment {
                case let .text(text, range):
                    if format == .json {
                        jsonSegments.append(["text": .string(text), "range": [.number(JSONNumber(range.lowerBound)), .number(JSONNumber(range.upperBound))]])
                    } else {
                        out.line("text @\(range): \(text.debugDescription)")
                    }
                case let .math(fragment):
                    var fragmentOptions = texOptions
                    fragmentOptions.displayMode = fragment.display
                    let formula = FormulaParser(texOptions: fragmentOptions).parse(fragment.tex)
                    let fragmentRenderer = DiagnosticRenderer(source: formula.source, inputName: "\(name)@\(fragment.contentRange.lowerBound)")
                    for d in formula.diagnostics { Output.error(fragmentRenderer.terminal(d)) }
                    failed = failed || formula.hasErrors
                    if format == .json {
                        jsonSegments.append(["math": .string(fragment.tex), "display": .bool(fragment.display),
                                             "delimiter": .string(fragment.delimiter),
                                             "range": [.number(JSONNumber(fragment.range.lowerBound)), .number(JSONNumber(fragment.range.upperBound))],
                                             "tree": formula.root.jsonValue(),
                                             "diagnostics": .array(formula.diagnostics.map(fragmentRenderer.jsonValue))])
                    } else {
                        out.line("math \(fragment.display ? "display" : "inline") \(fragment.delimiter) @\(fragment.range):")
                        out.write(parser.write(formula, as: format, display: fragment.display))
                        if format == .mathml { out.write("\n") }
                    }
                }
            }
            if format == .json { out.line(JSONValue.array(jsonSegments).jsonText) }
            return failed ? .inputErrors : .success
        }

        let formula = parser.parse(input, notation: args.notation(of: input))
        let renderer = DiagnosticRenderer(source: formula.source, inputName: name)
        for d in formula.diagnostics { Output.error(renderer.terminal(d)) }
        if format == .json {
            out.line("{\"diagnostics\":" + renderer.json(formula.diagnostics) + ",\"tree\":" + formula.root.jsonText() + "}")
        } else {
            out.write(parser.write(formula, as: format, display: args.flag("--display")))
            if format == .mathml { out.write("\n") }
        }
        return formula.hasErrors ? .inputErrors : .success
    }
}
