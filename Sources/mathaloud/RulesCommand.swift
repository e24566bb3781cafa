import Foundation
import MathAloud

/// `mathaloud rules lint|test|coverage`: the checks a locale author runs (docs/authoring-a-locale.md).
enum RulesCommand {
    /// The command's options, for parsing, help and shell completion.
    static let spec = CommandSpec(
        name: "rules", arguments: "lint|test|coverage",
        summary: "Checks a locale's rules and words, runs its examples and a corpus, counts coverage.\n"
            + "  lint       unknown kinds, roles, properties and preferences, unreachable rules, missing words,\n"
            + "             keys defined twice, failing examples (errors); words still to translate (warnings)\n"
            + "  test       the locale's inline examples, or a corpus, each failure as a word diff\n"
            + "  coverage   how often each rule fired, which words were missing and the inputs that needed them",
        options: [
            OptionSpec(["--locale"], "L", "the locale (repeatable for lint; every locale when absent)"),
            OptionSpec(["--corpus"], "FILE", "JSON Lines {\"tex\"|\"mathml\", \"expected\", \"style\"?, \"preferences\"?} per line, "
                       + "or one TeX formula per line (coverage)", completion: .file),
            OptionSpec(["--style"], "S", "only this style (default: every style of the locale)"),
            OptionSpec(["--explain"], nil, "for each failure, which rule spoke each node and why"),
            SharedOptions.rulesDir, SharedOptions.help,
        ],
        notes: "exit codes: 0 ok, 1 errors or failures, 2 usage error, 3 I/O error, 4 rules could not be loaded")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        var arguments = arguments
        let sub = arguments.isEmpty ? "--help" : arguments.removeFirst()
        let args = try spec.parse(arguments)
        if ["--help", "-h", "help"].contains(sub) || args.flag("--help") { print(spec.usage); return .success }
        guard ["lint", "test", "coverage"].contains(sub) else {
            throw args.usageError("unknown rules command '\(sub)'" + Suggestion.didYouMean(sub, among: ["lint", "test", "coverage"]))
        }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        let resources: SpeechResources
        do { resources = try SpeechResources.builtIn(overriddenBy: args.value("--rules-dir").map { URL(fileURLWithPath: $0) }) } catch {
            Output.error("mathaloud: \(error)\n")
            return .rules
        }
        var out = Output()
        defer { out.flush() }
        switch sub {
        case "lint":
            let locales = args.values("--locale").isEmpty ? resources.locales : args.values("--locale")
            var errors = 0, warnings = 0
            for locale in locales {
                for f in LocaleTools.lint(resources, locale: locale) {
                    out.line(f.description)
                    if f.severity == .error { errors += 1 } else { warnings += 1 }
                }
            }
            out.line("\(locales.joined(separator: ", ")): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
            return errors > 0 ? .inputErrors : .success
        case "test", "coverage":
            guard let locale = args.value("--locale") else { throw UsageError("rules \(sub) needs --locale L") }
            guard resources.locales.contains(locale) else {
                Output.error("mathaloud: unknown locale '\(locale)'; available: \(resources.locales.joined(separator: ", "))\n")
                return .rules
            }
            var styles = LocaleTools.styles(resources, locale: locale)
            if let style = args.value("--style") {
                guard styles.contains(style.lowercased()) else {
                    throw UsageError("no style '\(style)' for locale '\(locale)'; available: \(styles.joined(separator: ", "))")
                }
                styles = [style.lowercased()]
            }
            var cases: [LocaleTools.TestCase]
            if let path = args.value("--corpus") {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    Output.error("mathaloud: cannot read \(path)\n")
                    return .io
                }
                do { cases = try LocaleTools.corpus(text, name: path, locale: locale, defaultStyles: styles) } catch {
                    Output.error("mathaloud: \(error)\n")
                    return .inputErrors
                }
                cases = cases.filter { styles.contains($0.style) }
            } else if sub == "test" {
                cases = LocaleTools.examples(resources, locale: locale, styles: styles)
            } else {
                cases = LocaleTools.exampleInputs(resources, from: "en", styles: styles) + LocaleTools.examples(resources, locale: locale, styles: styles)
            }
            return sub == "test" ? test(cases, resources: resources, locale: locale, explain: args.flag("--explain"), out: &out)
                                 : coverage(cases, resources: resources, locale: locale, out: &out)
        default:
            throw UsageError("unknown rules command '\(sub)'; use lint, test or coverage")
        }
    }

    static func test(_ cases: [LocaleTools.TestCase], resources: SpeechResources, locale: String, explain: Bool, out: inout Output) -> ExitCode {
        let outcomes = LocaleTools.run(cases, resources: resources, locale: locale, explain: explain)
        var failed = 0, checked = 0
        for o in outcomes {
            guard o.testCase.expected != nil || o.problem != nil else { continue }
            checked += 1
            if o.passed { continue }
            failed += 1
            out.line("FAIL \(o.testCase.origin) [\(o.testCase.style)]: \(o.testCase.source)")
            if let problem = o.problem { out.line("  \(problem)"); continue }
            out.line("  expected: \(o.testCase.expected ?? "")")
            out.line("  got:      \(o.speech)")
            let expected = o.testCase.expected ?? ""
            if LocaleTools.matches(o.speech, expected, style: o.testCase.style) {
                out.line("  diff:     the words agree; the pauses (commas, semicolons) stand elsewhere ([Pauses=Exact])")
            } else {
                out.line("  diff:     \(LocaleTools.wordDiff(expected: expected, got: o.speech))")
            }
            if !o.explanation.isEmpty {
                for line in o.explanation.split(separator: "\n") { out.line("    " + line) }
            }
        }
        out.line("\(locale): \(checked - failed) of \(checked) passed")
        return failed > 0 ? .inputErrors : .success
    }

    static func coverage(_ cases: [LocaleTools.TestCase], resources: SpeechResources, locale: String, out: inout Output) -> ExitCode {
        for c in LocaleTools.coverage(cases, resources: resources, locale: locale) {
            let fired = c.rules.filter { $0.count > 0 }.count
            out.line("\(locale) \(c.style): \(c.inputs) inputs; \(fired) of \(c.rules.count) rules fired")
            for r in c.rules { out.line("\(String(repeating: " ", count: max(0, 7 - String(r.count).count)))\(r.count)  \(r.location) \(r.name)") }
            if !c.defaults.isEmpty {
                out.line("  no rule (said by the default), by kind: "
                         + c.defaults.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
            out.line("  missing words: \(c.missing.count)")
            for m in c.missing {
                out.line("    \(m.message)")
                for input in m.inputs { out.line("      needed by: \(input.count > 100 ? String(input.prefix(100)) + "…" : input)") }
            }
        }
        return .success
    }
}

/// `mathaloud locale new TAG [--from en] [--into DIR]`: a new locale to fill in.
enum LocaleCommand {
    /// The command's options, for parsing, help and shell completion.
    static let spec = CommandSpec(
        name: "locale", arguments: "new TAG",
        summary: "Starts a new locale from an existing one: DIR/Locales/TAG/ (from Locales/_template, every word of the\n"
            + "source listed as '# to-do:') and DIR/Rules/TAG/ (per style: a rule file inheriting the source's rules,\n"
            + "a phrase file listing every phrase to translate, the style's word files). Then run\n"
            + "mathaloud rules lint --locale TAG --rules-dir DIR",
        options: [
            OptionSpec(["--from"], "L", "the locale to start from (default en)"),
            OptionSpec(["--into"], "DIR", "where to write (default: the current folder)", completion: .directory),
            SharedOptions.rulesDir, SharedOptions.help,
        ],
        notes: "exit codes: 0 ok, 2 usage error, 3 a file could not be written, 4 rules could not be loaded")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        var arguments = arguments
        let sub = arguments.isEmpty ? "--help" : arguments.removeFirst()
        let args = try spec.parse(arguments)
        if ["--help", "-h", "help"].contains(sub) || args.flag("--help") { print(spec.usage); return .success }
        guard sub == "new" else { throw UsageError("unknown locale command '\(sub)'; use new") }
        guard args.positionals.count == 1 else { throw UsageError("locale new needs one TAG") }
        let resources: SpeechResources
        do { resources = try SpeechResources.builtIn(overriddenBy: args.value("--rules-dir").map { URL(fileURLWithPath: $0) }) } catch {
            Output.error("mathaloud: \(error)\n")
            return .rules
        }
        let folder = URL(fileURLWithPath: args.value("--into") ?? FileManager.default.currentDirectoryPath)
        do {
            let written = try LocaleTools.newLocale(args.positionals[0], from: args.value("--from") ?? "en", resources: resources, into: folder)
            var out = Output()
            for path in written { out.line("wrote \(path)") }
            out.flush()
            return .success
        } catch {
            Output.error("mathaloud: \(error)\n")
            return .io
        }
    }
}
