import Foundation
import MathAloud

/// `mathaloud rules lint|test|coverage`: the checks a locale author runs (docs/authoring-a-locale.md).
enum RulesCommand {
    static let usage = """
    usage: mathaloud rules lint [--locale L]… [--rules-dir DIR]
           mathaloud rules test --locale L [--corpus FILE] [--style S] [--explain] [--rules-dir DIR]
           mathaloud rules coverage --locale L [--corpus FILE] [--style S] [--rules-dir DIR]
      lint       check a locale's files (every locale when --locale is absent): unknown kinds, roles,
                 properties and preferences, rules no input reaches, words the templates need that are
                 missing, word keys defined twice, inline examples whose speech differs (errors); words
                 and phrases still to translate (warnings). file:line:column; exit 1 on an error
      test       speak the locale's inline examples, or a corpus, and print each failure as a word diff
                 ([-expected-] {+said+}); exit 1 on a failure
      coverage   how often each rule fired and which words were missing, with the inputs that needed
                 them (default corpus: the inputs of the English rules' examples)
      --corpus F   JSON Lines: {"tex"|"mathml", "expected", "style"?, "preferences"?, "locale"?, "id"?}
                   per line; or one TeX formula per line (coverage)
      --style S    only this style (default: every style of the locale)
      --explain    for each failure, which rule spoke each node and why
      --rules-dir  the folder with your rule and word files (also MATHALOUD_RULES)
    exit codes: 0 ok, 1 errors or failures, 2 usage error, 3 I/O error, 4 rules could not be loaded
    """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        var arguments = arguments
        let sub = arguments.isEmpty ? "--help" : arguments.removeFirst()
        let args = try CommandLineArguments(arguments, valued: ["--locale", "--corpus", "--style", "--rules-dir"],
                                            flags: ["--explain", "--help", "-h"])
        if ["--help", "-h", "help"].contains(sub) || args.flag("--help") || args.flag("-h") { print(usage); return .success }
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
            out.line("  diff:     \(LocaleTools.wordDiff(expected: o.testCase.expected ?? "", got: o.speech))")
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
    static let usage = """
    usage: mathaloud locale new TAG [--from L] [--into DIR]
      new TAG      write DIR/Locales/TAG/ (from Locales/_template, every word of L listed as '# to-do:')
                   and DIR/Rules/TAG/ (per style of L: a rule file that inherits L's rules, a phrase file
                   listing every phrase to translate, a word file per word file L's rules use)
      --from L     the locale to start from (default en)
      --into DIR   where to write (default: the current folder); then run
                   mathaloud rules lint --locale TAG --rules-dir DIR
    """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        var arguments = arguments
        let sub = arguments.isEmpty ? "--help" : arguments.removeFirst()
        let args = try CommandLineArguments(arguments, valued: ["--from", "--into", "--rules-dir"], flags: ["--help", "-h"])
        if ["--help", "-h", "help"].contains(sub) || args.flag("--help") || args.flag("-h") { print(usage); return .success }
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
