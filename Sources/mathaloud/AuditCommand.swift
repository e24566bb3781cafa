import Foundation
import MathAloud
import MathAloudAudit

/// `mathaloud audit`: finds the formulas of a document set a listener cannot hear, reports them, fixes labels.
enum AuditCommand {
    static let usage = """
    usage: mathaloud audit [PATH…] [--format text|json|sarif|html] [-o FILE] [--fail-on error|warning|never]
                           [--config FILE] [--include GLOB]… [--exclude GLOB]… [--rule ID=off|note|warning|error]…
                           [--macros FILE]… [--macro '\\name=body']… [--locale L] [--style S] [--pref N=V]… [--template T]
                           [--fix [--dry-run] [--force]] [--shard I/N] [--jobs N] [--no-progress] [--brief] [--list-rules]
           mathaloud audit merge REPORT.json… [--format text|json|sarif|html] [-o FILE] [--fail-on …]
      PATH             directories (walked), files or globs; default: the current directory. Formats by extension:
                       .md .markdown .qmd .Rmd (Markdown), .html .htm .xhtml (HTML), .tex (LaTeX), .ipynb
                       (Jupyter), .epub (EPUB 3), .txt (text with TeX delimiters); a file named on the command
                       line is also recognised by its content
      --format F       text (default: compiler-style with caret excerpts), json (one finding per line, plus
                       documents and a summary; what `audit merge` reads), sarif (SARIF 2.1.0), html (a
                       self-contained report with charts and a sortable table)
      -o FILE          write the report to FILE (default: standard output)
      --fail-on L      exit 1 when a finding is at least this severe: error (default), warning, never
      --config FILE    the configuration (default: .mathaloud-audit.json in the first directory given, else here)
      --include/--exclude GLOB   audit only matching files / skip matching files (added to the configuration's)
      --rule ID=LEVEL  change a rule's severity or turn it off (see --list-rules)
      --macros FILE    TeX definitions (\\newcommand, \\def, \\DeclareMathOperator) every formula may use
      --locale, --style, --pref, --template   the speech of suggested labels (default en, clearspeak, {speech})
      --fix            write the missing labels (alt, alttext, aria-label); atomic; nothing is written when any
                       file could not be read or understood, unless --force
      --dry-run        with --fix: print a unified diff instead of writing
      --shard I/N      audit only shard I (1…N) of N: deterministic by path, for splitting a set across machines
      --jobs N         worker threads (default: every core)
      --no-progress    no progress bar (it is shown only when standard error is a terminal)
      --brief          text format: location, message and caret only
      --list-rules     print the rules with their ids and default severities
    exit codes: 0 no finding at the --fail-on level, 1 findings at that level (or --fix refused), 2 usage error,
                3 a path or the output could not be read or written, 4 rules could not be loaded
    """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        if arguments.first == "merge" { return try merge(Array(arguments.dropFirst())) }
        let args = try CommandLineArguments(arguments, valued: ["--format", "-o", "--fail-on", "--config", "--include", "--exclude", "--rule",
                                                                "--macros", "--macro", "--locale", "--style", "--pref", "--template",
                                                                "--shard", "--jobs", "--rules-dir"],
                                            flags: ["--fix", "--dry-run", "--force", "--no-progress", "--brief", "--list-rules", "--help", "-h"])
        if args.flag("--help") || args.flag("-h") { print(usage); return .success }
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
            do { configuration = try AuditConfiguration.load(contentsOf: configURL) } catch { throw UsageError(error.description) }
        }
        configuration.include += args.values("--include").map(Glob.init)
        configuration.exclude += args.values("--exclude").map(Glob.init)
        for rule in args.values("--rule") {
            let parts = rule.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = AuditRule(rawValue: parts[0]) else { throw UsageError("--rule needs ID=off|note|warning|error with a rule id from --list-rules") }
            switch parts[1] {
            case "off": configuration.severities[id] = .some(nil)
            case "note", "warning", "error": configuration.severities[id] = Diagnostic.Severity(rawValue: parts[1])!
            default: throw UsageError("--rule \(parts[0]): the level must be off, note, warning or error")
            }
        }
        for file in args.values("--macros") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw UsageError("cannot read the macro file \(file)") }
            configuration.definitions += text + "\n"
        }
        configuration.macros.merge(try args.texParserOptions().macros) { _, new in new }
        if let locale = args.value("--locale") { configuration.locale = locale }
        if let style = args.value("--style") { configuration.style = style }
        configuration.preferences.merge(try args.speechPreferences()) { _, new in new }
        if let template = args.value("--template") { configuration.labelTemplate = LabelTemplate(template) }

        var shard: (index: Int, count: Int)? = nil
        if let spec = args.value("--shard") {
            let parts = spec.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, i >= 1, i <= n else {
                throw UsageError("--shard needs I/N with 1 ≤ I ≤ N, e.g. --shard 2/4")
            }
            shard = (i, n)
        }
        let fix = args.flag("--fix") || args.flag("--dry-run")
        if (args.flag("--force")) && !fix { throw UsageError("--force goes with --fix") }

        let speaker: Speaker
        do {
            speaker = try Speaker(locale: LocaleTag(rawValue: configuration.locale), style: SpeechStyleName(rawValue: configuration.style),
                                  preferences: configuration.preferences, strictPreferences: true,
                                  rulesDirectory: args.value("--rules-dir").map { URL(fileURLWithPath: $0) }, cacheCapacity: 4096)
        } catch {
            if case .invalidPreferences(let problems) = error { throw UsageError(problems.map(\.description).joined(separator: "\n")) }
            Output.error("mathaloud: \(error)\n")
            return .rules
        }

        var files = AuditFileSet(inputs: inputs, configuration: configuration)
        for missing in files.missing { Output.error("mathaloud: \(missing): no such file or directory\n") }
        if !files.missing.isEmpty && files.items.isEmpty { return .io }
        if let shard { files.restrict(toShard: shard.index, of: shard.count) }

        var run = AuditRun(engine: AuditEngine(judge: FormulaJudge(speaker: speaker, configuration: configuration)))
        if let jobs = args.value("--jobs") {
            guard let n = Int(jobs), n >= 1 else { throw UsageError("--jobs needs a positive number") }
            run.threads = n
        }
        guard let (output, handle) = openOutput(args.value("-o"), dryRunDiffOnStdout: args.flag("--dry-run")) else { return .io }
        defer { try? handle?.close() }
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
        guard let format = AuditReportFormat(rawValue: value) else { throw UsageError("--format must be text, json, sarif or html") }
        return format
    }

    /// `--fail-on` (nil: never).
    static func failLevel(_ args: CommandLineArguments) throws(UsageError) -> Diagnostic.Severity? {
        switch args.value("--fail-on") ?? "error" {
        case "error": return .error
        case "warning": return .warning
        case "note": return .note
        case "never": return nil
        default: throw UsageError("--fail-on must be error, warning or never")
        }
    }

    static func exceeds(_ summary: AuditSummary, _ level: Diagnostic.Severity?) -> Bool {
        guard let level else { return false }
        return summary.findingsBySeverity.contains { $0.key >= level && $0.value > 0 }
    }

    /// The report's output: `-o FILE` or standard output; nil output (and no error) when a dry run
    /// prints its diff to standard output and no `-o` was given.
    static func openOutput(_ path: String?, dryRunDiffOnStdout: Bool) -> (ReportOutput?, FileHandle?)? {
        guard let path, path != "-" else {
            return dryRunDiffOnStdout ? (nil, nil) : (ReportOutput(handle: FileHandle.standardOutput), nil)
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            Output.error("mathaloud: cannot write \(path)\n")
            return nil
        }
        return (ReportOutput(handle: handle), handle)
    }

    /// `mathaloud audit merge`.
    static func merge(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try CommandLineArguments(arguments, valued: ["--format", "-o", "--fail-on"], flags: ["--brief", "--help", "-h"])
        if args.flag("--help") || args.flag("-h") { print(usage); return .success }
        guard !args.positionals.isEmpty else { throw UsageError("audit merge needs the JSON reports of the shards") }
        let format = try reportFormat(args)
        let failOn = try failLevel(args)
        guard let (output, handle) = openOutput(args.value("-o"), dryRunDiffOnStdout: false), let output else { return .io }
        defer { try? handle?.close() }
        var writers: [any AuditReportWriter] = [format.writer(to: output, color: false, verbose: !args.flag("--brief"))]
        do {
            let summary = try AuditMerge.merge(args.positionals.map { URL(fileURLWithPath: $0) }, writers: &writers)
            return exceeds(summary, failOn) ? .inputErrors : .success
        } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
    }
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
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    static func time(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
