import Foundation
import MathAloud
import MathAloudAudit

/// `mathaloud audit`: finds the formulas of a document set a listener cannot hear, reports them, fixes labels.
enum AuditCommand {
    static let spec = CommandSpec(
        name: "audit", arguments: "[PATH…]",
        summary: "Finds the formulas of a document set a listener cannot hear, reports them, and fixes missing labels.\n"
            + "  PATH   directories (walked), files or globs; default: the current directory. Formats by extension:\n"
            + "         .md .markdown .qmd .Rmd (Markdown), .html .htm .xhtml (HTML), .tex (LaTeX), .ipynb (Jupyter),\n"
            + "         .epub (EPUB 3), .txt (text with TeX delimiters); a file named on the command line is also\n"
            + "         recognised by its content\n"
            + "  mathaloud audit merge REPORT.json… [--format F] [-o FILE] [--fail-on L] [--brief]   merges shards' JSON reports",
        options: [
            OptionSpec(["--format"], "F", "text (compiler-style with caret excerpts), json (one finding per line, plus documents and a "
                       + "summary; what `audit merge` reads), sarif (SARIF 2.1.0), html (a self-contained report)",
                       choices: AuditReportFormat.allCases.map(\.rawValue)),
            OptionSpec(["-o", "--output"], "FILE", "write the report to FILE (atomically, never through a link; default: standard output)",
                       completion: .file),
            OptionSpec(["--fail-on"], "L", "exit 1 when a finding is at least this severe (default error)", choices: ["error", "warning", "note", "never"]),
            OptionSpec(["--config"], "FILE", "the configuration (default: .mathaloud-audit.json in the first directory given, else here)",
                       completion: .file),
            OptionSpec(["--include"], "GLOB", "audit only matching files (repeatable; added to the configuration's)"),
            OptionSpec(["--exclude"], "GLOB", "skip matching files, also when a LaTeX file includes them (repeatable; added to the configuration's)"),
            OptionSpec(["--rule"], "ID=LEVEL", "change a rule's severity (off, note, warning, error; repeatable; see --list-rules)"),
            SharedOptions.macros, SharedOptions.macro, SharedOptions.locale, SharedOptions.style, SharedOptions.pref, SharedOptions.rulesDir,
            OptionSpec(["--template"], "T", "the label template of suggested labels: {speech} and {latex} are replaced (default {speech})"),
            OptionSpec(["--kramdown"], nil, "Markdown: \\\\(…\\\\) and \\\\[…\\\\] are math too (kramdown, Jekyll; also \"kramdown\": true "
                       + "in the configuration)"),
            OptionSpec(["--fix"], nil, "write the missing labels (alt, alttext, aria-label); atomic; nothing is written when any file "
                       + "could not be read or understood, unless --force"),
            OptionSpec(["--dry-run"], nil, "with --fix: print a unified diff instead of writing"),
            OptionSpec(["--force"], nil, "with --fix: fix the files that could be read even when others could not"),
            OptionSpec(["--shard"], "I/N", "audit only shard I (1…N) of N: deterministic by path, for splitting a set across machines"),
            OptionSpec(["--jobs"], "N", "worker threads (default: every core)"),
            OptionSpec(["--no-progress"], nil, "no progress bar (it is shown only when standard error is a terminal)"),
            OptionSpec(["--brief"], nil, "text format: location, message and caret only"),
            OptionSpec(["--list-rules"], nil, "print the rules with their ids and default severities"),
            SharedOptions.help,
        ],
        notes: """
        exit codes: 0 no finding at the --fail-on level, 1 findings at that level (or --fix refused), 2 usage error
                    (a mistake in the configuration file, a glob that matches no file), 3 a path, a macro file or
                    the output could not be read or written, 4 rules could not be loaded

        """)

    /// `audit merge`'s options.
    static let mergeSpec = CommandSpec(
        name: "audit merge", arguments: "REPORT.json…",
        summary: "Merges the JSON reports of shards (`audit --shard I/N --format json`) into one report.",
        options: [spec.option(named: "--format")!, spec.option(named: "-o")!, spec.option(named: "--fail-on")!,
                  spec.option(named: "--brief")!, SharedOptions.help],
        notes: "exit codes: 0 no finding at the --fail-on level, 1 findings at that level, 2 usage error, 3 a report could not be read or written\n")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        if arguments.first == "merge" { return try merge(Array(arguments.dropFirst())) }
        let args = try spec.parse(arguments)
        if args.flag("--help") { print(spec.usage); return .success }
        if args.flag("--list-rules") {
            for rule in AuditRule.allCases {
                print("\(rule.rawValue.padding(toLength: 26, withPad: " ", startingAt: 0)) \(rule.defaultSeverity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.title)")
            }
            return .success
        }
        let format = try reportFormat(args)
        let failOn = try failLevel(args)
        let inputs = args.positionals.isEmpty ? ["."] : args.positionals

        // Configuration: the file, then the flags.
        var configuration = AuditConfiguration()
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var configURL: URL? = args.value("--config").map { URL(fileURLWithPath: $0, relativeTo: cwd) }
        if configURL == nil {
            var isDirectory: ObjCBool = false
            let first = URL(fileURLWithPath: inputs[0], relativeTo: cwd)
            for candidate in [first, cwd] where FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && isDirectory.boolValue {
                let url = candidate.appendingPathComponent(".mathaloud-audit.json")
                if FileManager.default.fileExists(atPath: url.path) { configURL = url; break }
            }
        }
        if let configURL {
            // A mistake in the file is one line naming the file, line and column (exit 2, no usage text:
            // the command line was right); a file that cannot be read is an I/O error (exit 3).
            do { configuration = try AuditConfiguration.load(contentsOf: configURL) } catch {
                Output.error("mathaloud: \(error.description)\n")
                return error.isIO ? .io : .usage
            }
        }
        if args.flag("--kramdown") { configuration.kramdown = true }
        configuration.include += args.values("--include").map(Glob.init)
        configuration.exclude += args.values("--exclude").map(Glob.init)
        for rule in args.values("--rule") {
            let parts = rule.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = AuditRule(rawValue: parts[0]) else { throw args.usageError("--rule needs ID=off|note|warning|error with a rule id from --list-rules") }
            switch parts[1] {
            case "off": configuration.severities[id] = .some(nil)
            case "note", "warning", "error": configuration.severities[id] = Diagnostic.Severity(rawValue: parts[1])!
            default: throw args.usageError("--rule \(parts[0]): the level must be off, note, warning or error")
            }
        }
        let texOptions = try args.texParserOptions()
        configuration.definitions += texOptions.definitions
        configuration.macros.merge(texOptions.macros) { _, new in new }
        if let locale = args.value("--locale") { configuration.locale = locale }
        if let style = args.value("--style") { configuration.style = style }
        configuration.preferences.merge(try args.speechPreferences()) { _, new in new }
        if let template = args.value("--template") { configuration.labelTemplate = LabelTemplate(template) }

        var shard: (index: Int, count: Int)? = nil
        if let spec = args.value("--shard") {
            let parts = spec.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, i >= 1, i <= n else {
                throw args.usageError("--shard needs I/N with 1 ≤ I ≤ N, e.g. --shard 2/4")
            }
            shard = (i, n)
        }
        let fix = args.flag("--fix") || args.flag("--dry-run")
        if (args.flag("--force")) && !fix { throw args.usageError("--force goes with --fix") }

        let speaker: Speaker
        do {
            speaker = try Speaker(locale: LocaleTag(rawValue: configuration.locale), style: SpeechStyleName(rawValue: configuration.style),
                                  preferences: configuration.preferences, strictPreferences: true,
                                  rulesDirectory: args.value("--rules-dir").map { URL(fileURLWithPath: $0) }, cacheCapacity: 4096)
        } catch {
            if case .invalidPreferences(let problems) = error { throw args.usageError(problems.map(\.description).joined(separator: "\n")) }
            Output.error("mathaloud: \(error)\n")
            return .rules
        }

        var files = AuditFileSet(inputs: inputs, configuration: configuration)
        if !files.unmatchedGlobs.isEmpty {
            for glob in files.unmatchedGlobs { Output.error("mathaloud: '\(glob)' matches no file\n") }
            return .usage
        }
        for missing in files.missing { Output.error("mathaloud: \(missing): no such file or directory\n") }
        if !files.missing.isEmpty && files.items.isEmpty { return .io }
        if let shard { files.restrict(toShard: shard.index, of: shard.count) }

        var run = AuditRun(engine: AuditEngine(judge: FormulaJudge(speaker: speaker, configuration: configuration)))
        if let jobs = args.value("--jobs") {
            guard let n = Int(jobs), n >= 1 else { throw args.usageError("--jobs needs a positive number") }
            run.threads = n
        }
        guard let (output, reportFile) = openOutput(args.value("-o"), dryRunDiffOnStdout: args.flag("--dry-run")) else { return .io }
        var writers: [any AuditReportWriter] = []
        if let output {
            writers.append(format.writer(to: output, color: format == .text && args.value("-o") == nil && isatty(1) == 1, verbose: !args.flag("--brief")))
        }
        let bar = ProgressBar(enabled: !args.flag("--no-progress") && isatty(2) == 1)
        var plans: [FixPlan] = []
        let summary = run.run(files, shard: shard, writers: &writers, planFixes: fix, plans: { plans.append($0) },
                              progress: bar.enabled ? { bar.update($0) } : nil)
        bar.finish()
        output?.flush()
        if let reportFile, !reportFile.commit() { return .io }
        if output == nil {
            // The report was not printed (a dry run prints the diff): the totals go to standard error.
            Output.error(TextReportWriter.summaryText(summary))
        }
        var status: ExitCode = exceeds(summary, failOn) ? .inputErrors : .success
        if fix {
            let failed = plans.filter { $0.blocked != nil && !$0.isEmpty }
            let documentFailures = summary.failedDocuments
            if documentFailures > 0 && !args.flag("--force") {
                Output.error("mathaloud: --fix wrote nothing: \(documentFailures) file\(documentFailures == 1 ? "" : "s") could not be read or understood (see the document.* findings); use --force to fix the others\n")
                return .inputErrors
            }
            _ = failed
            var applier = FixApplier()
            var diff = Output()
            for plan in plans { applier.apply(plan, dryRun: args.flag("--dry-run"), diff: { diff.write($0) }) }
            diff.flush()
            for problem in applier.problems { Output.error("mathaloud: \(problem)\n") }
            let verb = args.flag("--dry-run") ? "would write" : "wrote"
            Output.error("mathaloud: \(verb) \(applier.edits) label\(applier.edits == 1 ? "" : "s") in \(applier.filesChanged) file\(applier.filesChanged == 1 ? "" : "s")\n")
            if !applier.problems.isEmpty { status = .io }
        }
        return status
    }

    /// `--format`.
    static func reportFormat(_ args: CommandLineArguments) throws(UsageError) -> AuditReportFormat {
        guard let value = args.value("--format") else { return .text }
        guard let format = AuditReportFormat(rawValue: value) else { throw args.usageError("--format must be text, json, sarif or html") }
        return format
    }

    /// `--fail-on` (nil: never).
    static func failLevel(_ args: CommandLineArguments) throws(UsageError) -> Diagnostic.Severity? {
        switch args.value("--fail-on") ?? "error" {
        case "error": return .error
        case "warning": return .warning
        case "note": return .note
        case "never": return nil
        default: throw args.usageError("--fail-on must be error, warning, note or never")
        }
    }

    static func exceeds(_ summary: AuditSummary, _ level: Diagnostic.Severity?) -> Bool {
        guard let level else { return false }
        return summary.findingsBySeverity.contains { $0.key >= level && $0.value > 0 }
    }

    /// The report's output: `-o FILE` (an ``OutputFile``: written to a temporary file and renamed into
    /// place; a symbolic link or a directory at that name is refused, ``OutputFile/LinkPolicy/refuse``)
    /// or standard output; nil output (and no error) when a dry run prints its diff to standard output
    /// and no `-o` was given.
    static func openOutput(_ path: String?, dryRunDiffOnStdout: Bool) -> (ReportOutput?, ReportFile?)? {
        guard let path, path != "-" else {
            return dryRunDiffOnStdout ? (nil, nil) : (ReportOutput(stream: .output), nil)
        }
        let file: OutputFile
        do throws(OutputFileError) {
            // As convert's output: a symbolic link or a directory at the name is refused.
            file = try OutputFile(URL(fileURLWithPath: path), shown: path, links: .refuse)
        } catch {
            Output.error("mathaloud: \(error)\n")
            return nil
        }
        let report = ReportFile(file)
        return (ReportOutput(sink: { report.append($0) }), report)
    }

    /// `mathaloud audit merge`.
    static func merge(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try mergeSpec.parse(arguments)
        if args.flag("--help") { print(mergeSpec.usage); return .success }
        guard !args.positionals.isEmpty else { throw args.usageError("audit merge needs the JSON reports of the shards") }
        let format = try reportFormat(args)
        let failOn = try failLevel(args)
        guard let (output, reportFile) = openOutput(args.value("-o"), dryRunDiffOnStdout: false), let output else { return .io }
        var writers: [any AuditReportWriter] = [format.writer(to: output, color: false, verbose: !args.flag("--brief"))]
        do {
            let summary = try AuditMerge.merge(args.positionals.map { URL(fileURLWithPath: $0) }, writers: &writers)
            output.flush()
            if let reportFile, !reportFile.commit() { return .io }
            return exceeds(summary, failOn) ? .inputErrors : .success
        } catch {
            reportFile?.discard()
            Output.error("mathaloud: \(error)\n")
            return .io
        }
    }
}

/// The `-o` file of a report: pieces are appended as the report is written; the first failure is kept
/// and reported when the file is committed (the target is then left as it was).
final class ReportFile {
    private let file: OutputFile
    private var failure: OutputFileError?

    init(_ file: OutputFile) { self.file = file }

    func append(_ data: Data) {
        guard failure == nil else { return }
        do { try file.append(data) } catch { failure = error }
    }

    /// Renames the report into place; false after printing why it could not be written.
    func commit() -> Bool {
        if let failure {
            file.discard()
            Output.error("mathaloud: \(failure)\n")
            return false
        }
        do { try file.commit() } catch {
            Output.error("mathaloud: \(error)\n")
            return false
        }
        return true
    }

    func discard() { file.discard() }
}

/// A progress bar on standard error: files, formulas, rate and time left; redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    let enabled: Bool
    private var last = Date.distantPast
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: AuditProgress) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.1 || p.filesDone == p.files else { return }
        last = now
        let width = 24
        let fraction = p.files == 0 ? 1 : Double(p.filesDone) / Double(p.files)
        let filled = Int(fraction * Double(width))
        let rate = p.elapsed > 0 ? Double(p.filesDone) / p.elapsed : 0
        let left = rate > 0 ? Double(p.files - p.filesDone) / rate : 0
        let mb = Double(p.bytes) / 1_048_576
        let line = String(format: "\r\u{1B}[K[%@%@] %d/%d files, %d formulas, %.1f MB/s, %@ left",
                          String(repeating: "#", count: filled), String(repeating: " ", count: width - filled),
                          p.filesDone, p.files, p.formulas, p.elapsed > 0 ? mb / p.elapsed : 0, Self.time(left))
        StandardStream.error.write(line)
        drawn = true
    }

    func finish() {
        if drawn { StandardStream.error.write("\r\u{1B}[K") }
    }

    static func time(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
