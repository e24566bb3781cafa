import Foundation
import MathAloud

// mathaloud: argument parsing and printing only; the work is done by the MathAloud library.
let commands: [(spec: CommandSpec, run: ([String]) throws(UsageError) -> ExitCode)] = [
    (ParseCommand.spec, ParseCommand.run),
    (SpeakCommand.spec, SpeakCommand.run),
    (SayCommand.spec, SayCommand.run),
    (RenderCommand.spec, RenderCommand.run),
    (ConvertCommand.spec, ConvertCommand.run),
    (AuditCommand.spec, AuditCommand.run),
    (ServeCommand.spec, ServeCommand.run),
    (RulesCommand.spec, RulesCommand.run),
    (LocaleCommand.spec, LocaleCommand.run),
]

let usage = """
usage: mathaloud <command> [options]
commands:
  parse        TeX or MathML to a tree, MathML or JSON (mathaloud parse --help)
  speak        TeX or MathML to speech, SSML or a label (mathaloud speak --help)
  say          TeX or MathML to a WAV file through eSpeak-NG (mathaloud say --help)
  render       TeX or MathML to SVG, PNG or PDF with the spoken label inside (mathaloud render --help)
  convert      a document (Markdown, HTML, text, notebook) with every formula accessible (mathaloud convert --help)
  audit        find the formulas of a document set a listener cannot hear, report and fix them (mathaloud audit --help)
  serve        the HTTP API for speech, labels, audio and images (mathaloud serve --help)
  rules        check a locale's rules and words, run its examples and a corpus, count coverage (mathaloud rules --help)
  locale       start a new locale from an existing one (mathaloud locale --help)
  completion   print a shell completion script: mathaloud completion bash|zsh|fish
  help         this text, or a command's: mathaloud help speak
options:
  --version    print the version
"""

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
var exitCode: ExitCode = .success
do throws(UsageError) {
    if let entry = commands.first(where: { $0.spec.name == command }) {
        exitCode = try entry.run(arguments)
    } else {
        switch command {
        case "--version", "version":
            print("mathaloud \(MathAloudVersion.string)")
        case "help", "--help", "-h":
            if let name = arguments.first {
                guard let entry = commands.first(where: { $0.spec.name == name }) else {
                    throw UsageError("unknown command '\(name)'" + Suggestion.didYouMean(name, among: commands.map(\.spec.name)))
                }
                print(entry.spec.usage)
            } else {
                print(usage)
            }
        case "completion":
            guard arguments.count == 1, let shell = CompletionScript.Shell(rawValue: arguments[0]) else {
                throw UsageError("completion needs one shell: bash, zsh or fish")
            }
            print(CompletionScript.script(for: shell, commands: commands.map(\.spec)), terminator: "")
        default:
            throw UsageError("unknown command '\(command)'"
                             + Suggestion.didYouMean(command, among: commands.map(\.spec.name) + ["help", "completion"]))
        }
    }
} catch {
    Output.error("mathaloud: \(error)\n\n\(error.command?.usage ?? usage)\n")
    exitCode = .usage
}
exit(exitCode.rawValue)
