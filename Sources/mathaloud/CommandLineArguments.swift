import Foundation
import MathAloud

/// One option of a command: its names, its value (nil for a flag), its help line and, when its values
/// are a closed set, those values. The usage text, the checks ("did you mean"), and the shell
/// completion scripts are all made from these declarations, so they cannot drift apart.
struct OptionSpec: Sendable {
    /// What a shell should complete the value with.
    enum Completion: Sendable { case none, file, directory, choices }

    let names: [String]
    let valueName: String?
    let help: String
    let choices: [String]
    let completion: Completion

    init(_ names: [String], _ valueName: String? = nil, _ help: String, choices: [String] = [], completion: Completion? = nil) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.choices = choices
        self.completion = completion ?? (choices.isEmpty ? .none : .choices)
    }

    var takesValue: Bool { valueName != nil }
    var name: String { names.last! }
}

/// A subcommand: its name, what it does, its arguments and options, and notes for its usage text.
struct CommandSpec: Sendable {
    let name: String
    let arguments: String
    let summary: String
    let options: [OptionSpec]
    let notes: String

    /// The usage text: synopsis, summary, every option with its help, the notes.
    var usage: String {
        var out = "usage: mathaloud \(name) \(arguments) [options]\n\(summary)\n"
        let width = min(30, (options.map { label($0).count }.max() ?? 0) + 2)
        out += "options:\n"
        let indent = String(repeating: " ", count: width + 2)
        for option in options {
            let l = label(option)
            let help = option.help + (option.choices.isEmpty ? "" : " (\(option.choices.joined(separator: ", ")))")
            let lines = CommandSpec.wrap(help, width: 104 - indent.count)
            if l.count + 2 > width {
                out += "  \(l)\n" + lines.map { indent + $0 + "\n" }.joined()
            } else {
                out += "  " + l + String(repeating: " ", count: width - l.count) + lines[0] + "\n"
                out += lines.dropFirst().map { indent + $0 + "\n" }.joined()
            }
        }
        return out + notes
    }

    /// Words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }

    private func label(_ o: OptionSpec) -> String {
        o.names.joined(separator: ", ") + (o.valueName.map { " " + $0 } ?? "")
    }

    func option(named name: String) -> OptionSpec? { options.first { $0.names.contains(name) } }

    /// Whether an argument is written as an option: a dash and a letter, then letters, digits and dashes
    /// (`-h`, `-locale`, a mistyped option), or two dashes and such a name, with `=value` or not. Anything
    /// else that starts with a dash is a positional: a formula such as `-x^2`, `-1` or `-\frac{1}{2}`.
    static func isOptionLike(_ a: String) -> Bool {
        var scalars = Substring(a).unicodeScalars[...]
        guard scalars.first == "-" else { return false }
        scalars = scalars.dropFirst()
        let long = scalars.first == "-"
        if long { scalars = scalars.dropFirst() }
        guard let first = scalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        for u in scalars.dropFirst() {
            if long && u == "=" { return true }
            guard u.isASCII, u.properties.isAlphabetic || ("0"..."9").contains(u) || u == "-" else { return false }
        }
        return true
    }

    /// Reads the arguments: `--flag`, `--name value`, `--name=value`, positionals (`--` ends options; an
    /// argument that starts with a dash but is not written as an option, ``isOptionLike(_:)``, is a
    /// positional: `mathaloud speak '-x^2'`). An unknown option, a missing value or a value outside an
    /// option's choices is a usage error with a "did you mean" suggestion, and for a command that takes a
    /// formula, how to give one that looks like an option (`mathaloud speak -- -x`).
    func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
        var result = CommandLineArguments(spec: self)
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("-") || a == "-" || (a != "--" && !Self.isOptionLike(a)) {
                result.positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = a
            var value: String? = nil
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                name = String(a[..<eq])
                value = String(a[a.index(after: eq)...])
            }
            guard let option = option(named: name) else {
                let names = options.flatMap(\.names)
                let hint = arguments.contains("--") || !self.arguments.contains("TEX") ? ""
                    : "; a formula that starts with '-' goes after '--': mathaloud \(self.name) -- '\(name)'"
                throw UsageError("unknown option \(name)" + Suggestion.didYouMean(name, among: names) + hint, command: self)
            }
            if option.takesValue {
                if value == nil {
                    guard i < arguments.count else { throw UsageError("\(name) needs a value (\(option.valueName!))", command: self) }
                    value = arguments[i]
                    i += 1
                }
                var v = value!
                if !option.choices.isEmpty {
                    guard let match = option.choices.first(where: { $0.lowercased() == v.lowercased() }) else {
                        throw UsageError("\(option.name) must be \(Suggestion.list(option.choices)), not '\(v)'"
                                         + Suggestion.didYouMean(v, among: option.choices), command: self)
                    }
                    v = match
                }
                result.values[option.name, default: []].append(v)
            } else {
                guard value == nil else { throw UsageError("\(name) takes no value", command: self) }
                result.flags.insert(option.name)
            }
        }
        return result
    }
}

/// Close names for a mistyped one (``EditDistance``: one edit, two for long names, a transposition
/// counting one; a name the mistyped one begins, as `--form` begins `--format`, counts too).
enum Suggestion {
    /// The candidates close to `word`, closest first.
    static func closest(_ word: String, among candidates: [String]) -> [String] {
        var found = EditDistance.suggestions(for: word, among: candidates)
        if word.count >= 3 {
            for c in candidates where c.lowercased().hasPrefix(word.lowercased()) && !found.contains(c) { found.append(c) }
        }
        return found
    }

    /// "; did you mean X?" or nothing.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        let found = closest(word, among: candidates)
        guard !found.isEmpty else { return "" }
        return "; did you mean " + found.prefix(2).map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// "a, b or c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}

/// The arguments of one command, read against its ``CommandSpec``.
struct CommandLineArguments {
    let spec: CommandSpec
    var positionals: [String] = []
    fileprivate(set) var values: [String: [String]] = [:]
    fileprivate(set) var flags: Set<String> = []

    fileprivate init(spec: CommandSpec) { self.spec = spec }

    func flag(_ name: String) -> Bool { flags.contains(canonical(name)) }

    /// The notation of a formula: MathML with `--mathml` or when the input opens a `math` element
    /// (``FormulaNotation/detected(in:)``), TeX otherwise.
    func notation(of input: String) -> FormulaNotation { flag("--mathml") ? .mathml : FormulaNotation.detected(in: input) }
    func value(_ name: String) -> String? { values[canonical(name)]?.last }
    func values(_ name: String) -> [String] { values[canonical(name)] ?? [] }

    private func canonical(_ name: String) -> String { spec.option(named: name)?.name ?? name }

    /// A usage error for this command.
    func usageError(_ message: String) -> UsageError { UsageError(message, command: spec) }

    /// A whole-number option within a range.
    func integer(_ name: String, _ fallback: Int, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int {
        guard let v = value(name) else { return fallback }
        guard let n = Int(v), range.contains(n) else {
            throw usageError("\(name) needs a whole number" + (range == Int.min...Int.max ? "" : " from \(range.lowerBound) to \(range.upperBound)")
                             + ", not '\(v)'")
        }
        return n
    }
}

/// A mistake in how the command was called (exit code 2): the message and the command's usage.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    let command: CommandSpec?
    /// How the command exits: `.usage` (the message is followed by the usage), or `.io` for a file the
    /// command line names that cannot be read (the message alone).
    let exitCode: ExitCode
    init(_ description: String, command: CommandSpec? = nil, exitCode: ExitCode = .usage) {
        self.description = description
        self.command = command
        self.exitCode = exitCode
    }
}

// MARK: - Options several commands share

enum SharedOptions {
    static let help = OptionSpec(["-h", "--help"], nil, "print this help")
    static let mathml = OptionSpec(["--mathml"], nil, "the input is MathML (an input that opens a <math> element is read as MathML without it)")
    static let text = OptionSpec(["--text"], nil, "the input is prose with inline math ($…$, $$…$$, \\(…\\), \\[…\\], \\begin{env}…\\end{env})")
    static let input = OptionSpec(["-i", "--input"], "FILE", "read the input from FILE instead of TEX or standard input ('-': standard input)",
                                  completion: .file)
    static let maxInput = OptionSpec(["--max-input-bytes"], "N", "read at most N bytes of input (default \(BatchLimits.defaultMaxInputBytes))")
    static let maxLine = OptionSpec(["--max-line-bytes"], "N",
                                    "with --batch: longest input line; a longer line is an error line (default \(BatchLimits.defaultMaxLineBytes))")
    static let display = OptionSpec(["--display"], nil, "display math (large operators take limits above and below)")
    static let macro = OptionSpec(["--macro"], "'\\name=body'", "define a macro (repeatable), e.g. --macro '\\RR=\\mathbb{R}'; #1…#9 are parameters")
    static let macros = OptionSpec(["--macros"], "FILE", "TeX definitions every formula may use: \\newcommand, \\def, \\DeclareMathOperator… "
                                   + "(a document's preamble; the rest of the file is skipped; repeatable)", completion: .file)
    static let trust = OptionSpec(["--trust"], nil, "allow \\href, \\url, \\htmlClass, \\htmlId, \\htmlStyle, \\htmlData, \\includegraphics and MathML href/style (URLs still limited to http, https, mailto)")
    static let locale = OptionSpec(["--locale"], "L", "the language, a BCP 47 tag (default en; en-GB, en-US fall back to en)")
    static let style = OptionSpec(["--style"], "S", "the speech style: clearspeak (default), simplespeak, mathspeak, literalspeak, or a style of the rules")
    static let verbosity = OptionSpec(["--verbosity"], "V", "the style's Verbosity: medium (default), terse, verbose for ClearSpeak and SimpleSpeak; verbose (default), brief, superbrief for MathSpeak", choices: Verbosity.allCases.map(\.rawValue))
    static let pref = OptionSpec(["--pref"], "NAME=VALUE", "a style preference (repeatable), e.g. --pref Fractions=Over; one the style does not know is an error (in a batch line, a warning)")
    static let rulesDir = OptionSpec(["--rules-dir"], "DIR", "override rule and word files (also MATHALOUD_RULES)", completion: .directory)
    static let template = OptionSpec(["--template"], "T", "a label template: {speech} and {latex} are replaced, e.g. 'Math: {speech}'")

    static let tex: [OptionSpec] = [display, macro, macros, trust]
    static let speech: [OptionSpec] = [locale, style, verbosity, pref, rulesDir]
    static let inputs: [OptionSpec] = [mathml, text, input, maxInput]

    static let exitCodes = """
    exit codes: 0 ok; 1 the input had errors (or, with --batch, some line had errors); 2 usage error;
                3 a file could not be read or written
    """
}

extension CommandLineArguments {
    /// `--pref NAME=VALUE` (repeatable).
    func speechPreferences() throws(UsageError) -> [String: String] {
        var preferences: [String: String] = [:]
        for p in values("--pref") {
            guard let eq = p.firstIndex(of: "="), eq != p.startIndex else { throw usageError("--pref needs NAME=VALUE, not '\(p)'") }
            preferences[String(p[..<eq])] = String(p[p.index(after: eq)...])
        }
        return preferences
    }

    /// `--display`, `--macro NAME=BODY` (repeatable) and `--trust`. A macro name must be a backslash
    /// and letters (or one other character); its parameters are #1…#9 in the body.
    func texParserOptions() throws(UsageError) -> TeXParserOptions {
        var texOptions = TeXParserOptions(displayMode: flag("--display"), trust: flag("--trust") ? .trusted : .untrusted)
        for definition in values("--macro") {
            guard let eq = definition.firstIndex(of: "=") else { throw usageError("--macro needs '\\name=body', not '\(definition)'") }
            let name = String(definition[..<eq])
            if let problem = TeXParserOptions.problem(withMacroName: name) {
                throw usageError("--macro '\(definition)': \(problem)")
            }
            texOptions.macros[name] = String(definition[definition.index(after: eq)...])
        }
        texOptions.definitions = try macroFiles()
        return texOptions
    }

    /// `--macros FILE` (repeatable): the files' TeX definitions, one after the other. Each file's
    /// problems (a definition TeX cannot read) are printed as warnings with its name, line and column:
    /// the definitions that could be read still hold. Each file is read after the ones before it, as the
    /// parser reads them, so that it may redefine or use their macros. A file that cannot be read is an
    /// error that exits with `.io`.
    func macroFiles() throws(UsageError) -> String {
        var definitions = ""
        for file in values("--macros") {
            let text: String
            do { text = String(decoding: try InputFile.read(file), as: UTF8.self) } catch {
                throw UsageError("--macros: \(error)", exitCode: .io)
            }
            var options = TeXParserOptions()
            let offset = definitions.utf8.count
            options.definitions = definitions + text
            let renderer = DiagnosticRenderer(source: SourceText(text), inputName: file)
            for var diagnostic in TeXParser(options: options).definitionDiagnostics {
                // The earlier files' problems were reported with them; this file's ranges are moved into it.
                guard let range = diagnostic.range, range.lowerBound >= offset else { continue }
                diagnostic.range = SourceRange(range.lowerBound - offset, range.upperBound - offset)
                diagnostic.fixIts = diagnostic.fixIts.filter { $0.range.lowerBound >= offset }.map {
                    .init(range: SourceRange($0.range.lowerBound - offset, $0.range.upperBound - offset), replacement: $0.replacement)
                }
                diagnostic.severity = .warning
                Output.error(renderer.terminal(diagnostic) + "\n")
            }
            definitions += text + "\n"
        }
        return definitions
    }

    /// `--max-input-bytes`.
    func maxInputBytes() throws(UsageError) -> Int { try integer("--max-input-bytes", BatchLimits.defaultMaxInputBytes, in: 1...Int.max) }

    /// `--max-line-bytes`.
    func maxLineBytes() throws(UsageError) -> Int { try integer("--max-line-bytes", BatchLimits.defaultMaxLineBytes, in: 1...Int.max) }

    /// The speech options and the TeX options (`texOptions`, when the command has read them already:
    /// reading them twice would report a macro file's problems twice).
    func speechSettings(texOptions: TeXParserOptions? = nil) throws(UsageError) -> SpeechSettings {
        let texOptions = if let texOptions { texOptions } else { try texParserOptions() }
        return SpeechSettings(locale: LocaleTag(value("--locale") ?? "en"), style: SpeechStyleName(value("--style") ?? "clearspeak"),
                       verbosity: value("--verbosity").flatMap(Verbosity.init(name:)), preferences: try speechPreferences(),
                       rulesDirectory: value("--rules-dir").map { URL(fileURLWithPath: $0) }, texOptions: texOptions,
                       command: spec)
    }

    /// The input: the one TEX argument, or `--input FILE`, or standard input; at most
    /// `--max-input-bytes`. Nil after printing why it could not be read (the command exits with the
    /// code returned in `failure`).
    func input(failure: inout ExitCode) throws(UsageError) -> (text: String, name: String)? {
        if positionals.count > 1 { throw usageError("give one formula (quote it), or none to read standard input") }
        let file = value("--input")
        if file != nil && !positionals.isEmpty { throw usageError("give either TEX or --input FILE, not both") }
        let limit = try maxInputBytes()
        if let t = positionals.first {
            guard t.utf8.count <= limit else {
                Output.error("mathaloud: the input is \(t.utf8.count) bytes, over the limit of \(limit) (--max-input-bytes)\n")
                failure = .inputErrors
                return nil
            }
            return (t, "<formula>")
        }
        do {
            let data = (file == nil || file == "-") ? try InputFile.readStandardInput(limit: limit) : try InputFile.read(file!, limit: limit)
            return (String(decoding: data, as: UTF8.self), file.map { $0 == "-" ? "<stdin>" : $0 } ?? "<stdin>")
        } catch {
            Output.error("mathaloud: \(error)\n")
            failure = error.isLimit ? .inputErrors : .io
            return nil
        }
    }
}

/// What the speech options ask for (`--locale --style --pref --verbosity --rules-dir`, and the TeX
/// options), read once per command.
struct SpeechSettings {
    let locale: LocaleTag
    let style: SpeechStyleName
    let verbosity: Verbosity?
    let preferences: [String: String]
    let rulesDirectory: URL?
    let texOptions: TeXParserOptions
    let command: CommandSpec

    /// The speaker, or nil after printing why its rules could not be loaded (the command then exits
    /// with `.rules`). An unknown locale, style, preference or value is a usage error with a "did you
    /// mean".
    func loadSpeaker(cacheCapacity: Int = 0) throws(UsageError) -> Speaker? {
        // (A Result rather than do/catch: matching the cases of a typed-throws error in its catch
        // block crashes the Swift 6.3 debug build.)
        let loaded = Result { () throws(SpeechLoadError) -> Speaker in
            try Speaker(locale: locale, style: style, verbosity: verbosity, preferences: preferences,
                        rulesDirectory: rulesDirectory, texOptions: texOptions, cacheCapacity: cacheCapacity)
        }
        let speaker: Speaker
        switch loaded {
        case .success(let s):
            speaker = s
            // Each command loads one speaker and exits when done: the exit reclaims its memory at once,
            // where releasing it object by object when the command returns cost 2.6 M instructions,
            // 4 % of `speak 'x^2'` (BENCHMARKS.md session 10).
            KeptUntilExit.keep(s)
        case .failure(.unknownStyle(let s, let l, let available)):
            throw UsageError("no style '\(s)' for locale \(l)" + Suggestion.didYouMean(s, among: available)
                             + " (available: \(available.joined(separator: ", ")))", command: command)
        case .failure(.unknownLocale(let l, let available)):
            throw UsageError("unknown locale '\(l)'" + Suggestion.didYouMean(l, among: available)
                             + " (available: \(available.joined(separator: ", ")))", command: command)
        case .failure(let error):
            Output.error("mathaloud: \(error)\n")
            return nil
        }
        guard speaker.preferenceProblems.isEmpty else {
            // Strict on the command line (a typo there should stop the command; batch lines are
            // answered with a warning instead): each problem with the closest names.
            let lines = speaker.preferenceProblems.map { problem -> String in
                switch problem.kind {
                case .unknownName:
                    return "unknown preference '\(problem.name)' for style \(problem.style)"
                        + Suggestion.didYouMean(problem.name, among: problem.known) + " (known: \(problem.known.joined(separator: ", ")))"
                case .unknownValue:
                    return "unknown value '\(problem.value)' for preference \(problem.name)"
                        + Suggestion.didYouMean(problem.value, among: problem.known) + " (allowed: \(problem.known.joined(separator: ", ")))"
                }
            }
            throw UsageError(lines.joined(separator: "\n"), command: command)
        }
        return speaker
    }

    /// Speakers for batch lines, defaulting to these settings.
    var speakerPool: SpeakerPool {
        SpeakerPool(locale: locale, style: style, verbosity: verbosity, preferences: preferences, rulesDirectory: rulesDirectory,
                    texOptions: texOptions)
    }

    /// Speakers for batch lines with the default speaker loaded as ``loadSpeaker(cacheCapacity:)``
    /// loads it (the command fails early, with the same messages and exit code, when it cannot load),
    /// and not loaded again for the first line that uses it; nil after printing why it could not load.
    /// The speaker is returned with the pool, for a command that also uses it itself (`render --batch`).
    func loadSpeakerPool() throws(UsageError) -> (pool: SpeakerPool, speaker: Speaker)? {
        let pool = speakerPool
        guard let speaker = try loadSpeaker(cacheCapacity: pool.cacheCapacity) else { return nil }
        pool.useAsDefault(speaker)
        return (pool, speaker)
    }
}

/// A value kept alive until the process exits, never released: for what a command uses until it
/// returns and that the exit reclaims faster than a release would (see ``SpeechSettings/loadSpeaker()``).
final class KeptUntilExit<Value> {
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// Keeps `value` (one reference, deliberately never released).
    static func keep(_ value: Value) { _ = Unmanaged.passRetained(KeptUntilExit(value)) }
}
