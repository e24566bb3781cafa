import Foundation
import MathAloud

/// `mathaloud parse`: TeX or MathML to a tree, MathML or JSON.
enum ParseCommand {
    static let usage = """
    usage: mathaloud parse [TEX] [--mathml] [--to tree|mathml|json] [--display] [--macro '\\name=body']…
                           [--text] [--batch]
      TEX            the formula; read from standard input when absent
      --mathml       the input is MathML
      --to FORMAT    tree (default), mathml or json
      --display      display math (limits above and below large operators)
      --macro M      define a macro, e.g. --macro '\\RR=\\mathbb{R}' (repeatable)
      --text         the input is prose with $…$, \\(…\\), \\[…\\], \\begin{…} math; each formula is parsed
      --entities     with --text: decode HTML entities (&lt; → <)
      --batch        JSONL: each input line {"id", "tex"|"mathml"}; one output line per input line
    exit codes: 0 ok, 1 the input had errors, 2 usage error, 3 I/O error
    """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try CommandLineArguments(arguments, valued: ["--to", "--macro"],
                                            flags: ["--mathml", "--display", "--text", "--batch", "--entities", "--help", "-h"])
        if args.flag("--help") || args.flag("-h") {
            print(usage)
            return .success
        }
        guard let format = TreeFormat(rawValue: args.value("--to") ?? "tree") else {
            throw UsageError("--to must be tree, mathml or json")
        }
        let texOptions = try args.texParserOptions()
        let parser = FormulaParser(texOptions: texOptions)
        let notation: FormulaNotation = args.flag("--mathml") ? .mathml : .tex
        var out = Output()
        defer { out.flush() }

        if args.flag("--batch") {
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                out.line(parser.batchLine(line, format: format))
            }
            return .success
        }

        let input = args.positionals.first ?? readStandardInput()
        if args.positionals.count > 1 { throw UsageError("give one formula (quote it), or none to read standard input") }

        if args.flag("--text") {
            var scanOptions = MathTextScanner.Options()
            scanOptions.decodeHTMLEntities = args.flag("--entities")
            let scan = MathTextScanner(options: scanOptions).scan(input)
            let source = SourceText(input)
            let renderer = DiagnosticRenderer(source: source, inputName: "<text>")
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
                    let formula = FormulaParser(texOptions: TeXParserOptions(displayMode: fragment.display, macros: texOptions.macros))
                        .parse(fragment.tex)
                    let fragmentRenderer = DiagnosticRenderer(source: formula.source, inputName: "<text>@\(fragment.contentRange.lowerBound)")
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

        let formula = parser.parse(input, notation: notation)
        let renderer = DiagnosticRenderer(source: formula.source, inputName: args.positionals.isEmpty ? "<stdin>" : "<formula>")
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
