import Foundation
import MathAloud

// mathaloud: argument parsing and printing only; the work is done by the MathAloud library.
// Each command's spec is made only when asked for: building them all cost ~2 M instructions of every
// start-up (`serve`'s lists the server's settings), which `mathaloud parse 'x^2'` does not need
// (BENCHMARKS.md, session 8). `name` is the spec's name (checked where the spec is made).
let commands: [(name: String, spec: () -> CommandSpec, run: ([String]) throws(UsageError) -> ExitCode)] = [
    ("parse", { ParseCommand.spec }, ParseCommand.run),
    ("speak", { SpeakCommand.spec }, SpeakCommand.run),
    ("say", { SayCommand.spec }, SayCommand.run),
    ("render", { RenderCommand.spec }, RenderCommand.run),
    ("convert", { ConvertCommand.spec }, ConvertCommand.run),
    ("audit", { AuditCommand.spec }, AuditCommand.run),
    ("serve", { ServeCommand.spec }, ServeCommand.run),
    ("rules", { RulesCommand.spec }, RulesCommand.run),
    ("locale", { LocaleCommand.spec }, LocaleCommand.run),
]
/// Every command's spec, in order, each checked against its name.
@MainActor func allSpecs() -> [CommandSpec] {
    commands.map { entry in
        let spec = entry.spec()
        precondition(spec.name == entry.name, "command \(entry.name) has the spec of \(spec.name)")
        return spec
    }
}

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
    if let entry = commands.first(where: { $0.name == command }) {
        exitCode = try entry.run(arguments)
    } else {
        switch command {
        case "--version", "version":
            print("mathaloud \(MathAloudVersion.string)")
        case "help", "--help", "-h":
            if let name = arguments.first {
                guard let entry = commands.first(where: { $0.name == name }) else {
                    throw UsageError("unknown command '\(name)'" + Suggestion.didYouMean(name, among: commands.map(\.name)))
                }
                print(entry.spec().usage)
            } else {
                print(usage)
            }
        case "completion":
            guard arguments.count == 1, let shell = CompletionScript.Shell(rawValue: arguments[0]) else {
                throw UsageError("completion needs one shell: bash, zsh or fish")
            }
            print(CompletionScript.script(for: shell, commands: allSpecs()), terminator: "")
        default:
            throw UsageError("unknown command '\(command)'"
                             + Suggestion.didYouMean(command, among: commands.map(\.name) + ["help", "completion"]))
        }
    }
} catch {
    if error.exitCode == .usage {
        Output.error("mathaloud: \(error)\n\n\(error.command?.usage ?? usage)\n")
    } else {
        Output.error("mathaloud: \(error)\n")
    }
    exitCode = error.exitCode
}
exit(exitCode.rawValue)
