import Foundation

// mathaloud: argument parsing and printing only; the work is done by the MathAloud library.
let usage = """
usage: mathaloud <command> [options]
commands:
  parse    TeX or MathML to a tree, MathML or JSON (mathaloud parse --help)
  speak    TeX or MathML to speech, SSML or a label (mathaloud speak --help)
  say      TeX or MathML to a WAV file through eSpeak-NG (mathaloud say --help)
  render   TeX or MathML to SVG, PNG or PDF with the spoken label inside (mathaloud render --help)
  convert  a document (Markdown, HTML, text, notebook) with every formula accessible (mathaloud convert --help)
  audit    find the formulas of a document set a listener cannot hear, report and fix them (mathaloud audit --help)
  serve    the HTTP API for speech, labels, audio and images (mathaloud serve --help)
  rules    check a locale's rules and words, run its examples and a corpus, count coverage (mathaloud rules --help)
  locale   start a new locale from an existing one (mathaloud locale --help)
  help     this text
"""

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
var exitCode: ExitCode = .success
do {
    switch command {
    case "parse":
        exitCode = try ParseCommand.run(arguments)
    case "speak":
        exitCode = try SpeakCommand.run(arguments)
    case "say":
        exitCode = try SayCommand.run(arguments)
    case "render":
        exitCode = try RenderCommand.run(arguments)
    case "convert":
        exitCode = try ConvertCommand.run(arguments)
    case "audit":
        exitCode = try AuditCommand.run(arguments)
    case "serve":
        exitCode = try ServeCommand.run(arguments)
    case "rules":
        exitCode = try RulesCommand.run(arguments)
    case "locale":
        exitCode = try LocaleCommand.run(arguments)
    case "help", "--help", "-h":
        print(usage)
    default:
        throw UsageError("unknown command '\(command)'")
    }
} catch {
    Output.error("mathaloud: \(error)\n\(usage)\n")
    exitCode = .usage
}
exit(exitCode.rawValue)
