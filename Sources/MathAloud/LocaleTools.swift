import Foundation

/// The tools of a locale author (`mathaloud locale new`, `mathaloud rules lint|test|coverage`; see
/// docs/authoring-a-locale.md): checking a locale's files, running its examples and a corpus, counting
/// which rules fire and which words are missing, and starting a new locale from an existing one.
public enum LocaleTools {
    // MARK: Cases

    /// One input with the speech it must produce: an inline `example` line of a rule file, or a line of a
    /// JSONL corpus.
    public struct TestCase: Sendable, Hashable {
        /// Where it comes from (`Rules/de/clearspeak.rules:40 (rule fraction)`, `corpus.jsonl:12 (id)`).
        public let origin: String
        /// The formula: TeX, or MathML when `notation` is `.mathml`.
        public let source: String
        public let notation: FormulaNotation
        /// The style (`clearspeak`) and preferences it is spoken with.
        public let style: String
        public let preferences: [String: String]
        /// The expected speech; nil for an input with no expectation (coverage only).
        public let expected: String?
        /// Whether the expectation's pauses count (an example marked `[Pauses=Exact]`).
        public var exactPauses = false

        /// Creates a case.
        public init(origin: String, source: String, notation: FormulaNotation, style: String, preferences: [String: String] = [:],
                    expected: String?) {
            self.origin = origin
            self.source = source
            self.notation = notation
            self.style = style
            self.preferences = preferences
            self.expected = expected
        }
    }

    /// The styles that speak `locale`: those with rules in its folder, and those its fallback reaches.
    public static func styles(_ resources: SpeechResources, locale: String) -> [String] {
        var styles = Set(resources.styles(for: locale))
        for name in ["clearspeak", "simplespeak", "mathspeak", "literalspeak"]
        where resources.rulesLocale(for: LocaleTag(locale), style: SpeechStyleName(name)) != nil {
            styles.insert(name)
        }
        return styles.sorted()
    }

    /// The inline examples of the locale's own rule files (`Rules/<locale>/*.rules`), per style.
    public static func examples(_ resources: SpeechResources, locale: String, styles only: [String]? = nil) -> [TestCase] {
        var cases: [TestCase] = []
        for style in only ?? styles(resources, locale: locale) {
            guard let compiled = try? resources.style(style, locale: locale, examples: true) else { continue }
            let own = "\(locale)/\(style).rules"
            for rule in compiled.rules where rule.file == own {
                for e in rule.examples { cases.append(testCase(e, resources: resources, style: style, rule: rule.name)) }
            }
            if let file = try? RuleFile(parsing: resources.files["Rules/" + own] ?? "", file: own) {
                for e in file.examples { cases.append(testCase(e, resources: resources, style: style, rule: nil)) }
            }
        }
        return cases
    }

    private static func testCase(_ e: RuleExample, resources: SpeechResources, style: String, rule: String?) -> TestCase {
        var c = TestCase(origin: "\(resources.displayPath("Rules/" + e.file)):\(e.line)" + (rule.map { " (rule \($0))" } ?? ""),
                         source: e.tex, notation: .detected(in: e.tex), style: style,
                         preferences: e.preferences, expected: e.speech)
        c.exactPauses = e.exactPauses
        return c
    }

    /// Reads a corpus: JSON Lines with `tex` or `mathml`, `expected` (or `speech`), and optionally `id`,
    /// `style`, `locale` and `preferences`; or plain text with one TeX formula per line (no
    /// expectation: for coverage). Lines for another locale are left out; a line without a style is
    /// spoken in `defaultStyles` (every style of the locale).
    public static func corpus(_ text: String, name: String, locale: String, defaultStyles: [String]) throws(CorpusError) -> [TestCase] {
        var cases: [TestCase] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") && !line.hasPrefix("{") { continue }
            guard line.hasPrefix("{") else {
                for style in defaultStyles {
                    cases.append(TestCase(origin: "\(name):\(i + 1)", source: line, notation: .tex, style: style, expected: nil))
                }
                continue
            }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CorpusError(message: "\(name):\(i + 1): not a JSON object")
            }
            if let l = object["locale"] as? String, LocaleTag(l) != LocaleTag(locale) { continue }
            let source: String, notation: FormulaNotation
            if let tex = object["tex"] as? String { (source, notation) = (tex, .tex) } else if let m = object["mathml"] as? String {
                (source, notation) = (m, .mathml)
            } else {
                throw CorpusError(message: "\(name):\(i + 1): needs \"tex\" or \"mathml\"")
            }
            var preferences: [String: String] = [:]
            for (k, v) in object["preferences"] as? [String: Any] ?? [:] { preferences[k] = "\(v)" }
            let expected = object["expected"] as? String ?? object["speech"] as? String
            let id = (object["id"]).map { " (\($0))" } ?? ""
            for style in (object["style"] as? String).map({ [$0.lowercased()] }) ?? defaultStyles {
                cases.append(TestCase(origin: "\(name):\(i + 1)\(id)", source: source, notation: notation, style: style,
                                      preferences: preferences, expected: expected))
            }
        }
        return cases
    }

    /// A corpus that cannot be read.
    public struct CorpusError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    // MARK: Speaking

    /// Speakers per style and preferences, made once.
    final class Speakers: @unchecked Sendable {
        let resources: SpeechResources
        let locale: String
        private var speakers: [String: Result<Speaker, SpeechLoadError>] = [:]

        init(_ resources: SpeechResources, locale: String) {
            self.resources = resources
            self.locale = locale
        }

        func speaker(_ style: String, _ preferences: [String: String]) -> Result<Speaker, SpeechLoadError> {
            let key = style + "|" + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            if let s = speakers[key] { return s }
            let s = Result { () throws(SpeechLoadError) -> Speaker in
                try Speaker(resources: resources, locale: LocaleTag(locale), style: SpeechStyleName(style), preferences: preferences,
                            strictPreferences: true, cacheCapacity: 0)
            }
            speakers[key] = s
            return s
        }
    }

    /// The result of one case.
    public struct Outcome: Sendable {
        public let testCase: TestCase
        /// What was said (empty when the style could not be loaded).
        public let speech: String
        /// Whether it matches the expectation (true for a case without one).
        public let passed: Bool
        /// Why the case could not run (rules that do not load, unknown preferences), if so.
        public let problem: String?
        /// `--explain`'s listing of the spoken formula.
        public let explanation: String
    }

    /// Speaks every case in the locale; `explain` keeps, for failures, which rule spoke each node.
    public static func run(_ cases: [TestCase], resources: SpeechResources, locale: String, explain: Bool = false) -> [Outcome] {
        let speakers = Speakers(resources, locale: locale)
        return cases.map { c in
            switch speakers.speaker(c.style, c.preferences) {
            case .failure(let error):
                return Outcome(testCase: c, speech: "", passed: false, problem: error.description, explanation: "")
            case .success(let speaker):
                let spoken = speaker.speak(c.source, notation: c.notation, explain: explain)
                let passed = c.expected.map { matches(spoken.text, $0, style: c.style, pauses: c.exactPauses) } ?? true
                return Outcome(testCase: c, speech: spoken.text, passed: passed, problem: nil,
                               explanation: explain && !passed ? speaker.explanation(of: spoken) : "")
            }
        }
    }

    /// Whether speech matches an expectation as the project's corpora compare (case, hyphens, commas
    /// and other pauses ignored; MathSpeech also ignores spaces, since "StartFraction" and
    /// "Start Fraction" are one word to a listener). With `pauses`, the commas and semicolons must also
    /// stand where the expectation has them (an example marked `[Pauses=Exact]`).
    public static func matches(_ got: String, _ expected: String, style: String, pauses: Bool = false) -> Bool {
        let dropSpaces = style.lowercased() == "mathspeak"
        guard normalized(got, dropSpaces: dropSpaces) == normalized(expected, dropSpaces: dropSpaces) else { return false }
        return !pauses || pauseMarks(got) == pauseMarks(expected)
    }

    /// Where the pauses of speech stand: each comma or semicolon with the number of words before it.
    static func pauseMarks(_ s: String) -> [String] {
        var marks: [String] = [], words = 0, inWord = false
        for c in s {
            if c == "," || c == ";" {
                marks.append("\(words)\(c)")
                inWord = false
            } else if c.isWhitespace {
                inWord = false
            } else if !inWord {
                inWord = true
                words += 1
            }
        }
        return marks
    }

    /// The comparison form of speech (see ``matches(_:_:style:)``): camel case split, lower case,
    /// hyphens as spaces, `, ; :` and dots not between digits dropped, letters and digits apart.
    public static func normalized(_ s: String, dropSpaces: Bool = false) -> String {
        var chars: [Character] = []
        let input = Array(s)
        for (i, c) in input.enumerated() {
            if i > 0, c.isUppercase, input[i - 1].isLowercase { chars.append(" ") }
            chars.append(c)
        }
        let t = Array(String(chars).lowercased().replacingOccurrences(of: "-", with: " "))
        var out: [Character] = []
        for (i, c) in t.enumerated() {
            if c == "," || c == ";" || c == ":" { out.append(" "); continue }
            if c == "." {
                let before = i > 0 && t[i - 1].isNumber, after = i + 1 < t.count && t[i + 1].isNumber
                if !(before && after) { out.append(" "); continue }
            }
            if let last = out.last, (last.isLetter && c.isNumber) || (last.isNumber && c.isLetter) { out.append(" ") }
            out.append(c)
        }
        var words: [String] = []
        for w in String(out).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            if w.count == 3, w.hasSuffix("th"), w.first!.isLetter { words.append(String(w.first!)); words.append("th") } else { words.append(String(w)) }
        }
        let text = words.joined(separator: " ")
        return dropSpaces ? text.replacingOccurrences(of: " ", with: "") : text
    }

    /// The words of `got` against `expected` (both as written, split at spaces), with what is missing
    /// as `[-words-]` and what is extra as `{+words+}`, by a longest common subsequence of their
    /// normalised words.
    public static func wordDiff(expected: String, got: String) -> String {
        let a = expected.split(whereSeparator: \.isWhitespace).map(String.init)
        let b = got.split(whereSeparator: \.isWhitespace).map(String.init)
        func key(_ w: String) -> String { normalized(w) }
        let ka = a.map(key), kb = b.map(key)
        let n = a.count, m = b.count
        guard n * m <= 4_000_000 else { return "[-\(expected)-] {+\(got)+}" }
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = ka[i] == kb[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out: [String] = []
        var removed: [String] = [], added: [String] = []
        func flush() {
            if !removed.isEmpty { out.append("[-" + removed.joined(separator: " ") + "-]") }
            if !added.isEmpty { out.append("{+" + added.joined(separator: " ") + "+}") }
            removed = []; added = []
        }
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, ka[i] == kb[j] { flush(); out.append(b[j]); i += 1; j += 1 } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
                added.append(b[j]); j += 1
            } else {
                removed.append(a[i]); i += 1
            }
        }
        flush()
        return out.joined(separator: " ")
    }

    // MARK: Lint

    /// Every check of `mathaloud rules lint` for `locale`: the file checks of ``RuleLint`` and the
    /// inline examples of the locale's rule files (an example whose speech differs is an error at its
    /// line, with the word diff).
    public static func lint(_ resources: SpeechResources, locale: String) -> [LintFinding] {
        var findings = RuleLint.check(resources, locale: locale)
        guard !findings.contains(where: { $0.severity == .error && $0.line > 0 && $0.message.contains("no locale") }) else { return findings }
        for outcome in run(examples(resources, locale: locale), resources: resources, locale: locale) where !outcome.passed {
            let c = outcome.testCase
            // origin: "PATH:LINE (rule NAME)"
            let place = c.origin.split(separator: " ").first.map(String.init) ?? c.origin
            let colon = place.lastIndex(of: ":")
            let file = colon.map { String(place[..<$0]) } ?? place
            let line = colon.flatMap { Int(place[place.index(after: $0)...]) } ?? 0
            let rule = c.origin.range(of: "(rule ").map { String(c.origin[$0.upperBound...].dropLast()) }
            let message = outcome.problem.map { "example \(c.source) cannot be spoken: \($0)" }
                ?? "example \(c.source) says '\(outcome.speech)', not '\(c.expected ?? "")': \(wordDiff(expected: c.expected ?? "", got: outcome.speech))"
            findings.append(LintFinding(file: file, line: line, column: 3, severity: .error, message: message, rule: rule))
        }
        return findings
    }

    // MARK: Coverage

    /// What a corpus needed of a style: how often each rule fired, how often no rule did (by kind), and
    /// the words that were missing with the inputs that needed them.
    public struct Coverage: Sendable {
        public struct RuleCount: Sendable {
            /// `file:line` and name of the rule.
            public let location: String
            public let name: String
            public let count: Int
        }
        public let style: String
        /// Every rule of the style (own and inherited), in priority order, with how often it fired.
        public let rules: [RuleCount]
        /// Nodes no rule spoke, by kind (the built-in default spoke them).
        public let defaults: [String: Int]
        /// Missing or borrowed words (the diagnostic's message), with the inputs that needed them.
        public let missing: [(message: String, inputs: [String])]
        /// How many inputs were spoken.
        public let inputs: Int
    }

    /// Speaks every case with `--explain` and counts (cases of other styles are left out).
    public static func coverage(_ cases: [TestCase], resources: SpeechResources, locale: String) -> [Coverage] {
        var result: [Coverage] = []
        let speakers = Speakers(resources, locale: locale)
        for style in Set(cases.map(\.style)).sorted() {
            guard case .success(let base) = speakers.speaker(style, [:]),
                  let compiled = try? resources.style(style, locale: locale) else { continue }
            var counts: [String: Int] = [:]
            var defaults: [String: Int] = [:]
            var missing: [String: [String]] = [:]
            var order: [String] = []
            var n = 0
            for c in cases where c.style == style {
                let speaker = (try? speakers.speaker(style, c.preferences).get()) ?? base
                let spoken = speaker.speak(c.source, notation: c.notation, explain: true)
                n += 1
                for t in spoken.trace {
                    if let location = t.location { counts[location, default: 0] += 1 } else { defaults[t.kind, default: 0] += 1 }
                }
                for d in spoken.speechDiagnostics where d.id == .speechMissingWord || d.id == .speechFallbackWord {
                    if missing[d.message] == nil { order.append(d.message) }
                    if missing[d.message, default: []].count < 3 { missing[d.message, default: []].append(c.source) }
                }
            }
            let rules = compiled.rules.map { r in
                let location = "\(r.file):\(r.line)"
                return Coverage.RuleCount(location: location, name: r.name, count: counts[location] ?? 0)
            }
            result.append(Coverage(style: style, rules: rules, defaults: defaults,
                                   missing: order.map { ($0, missing[$0] ?? []) }, inputs: n))
        }
        return result
    }

    /// The inputs of the inline examples of every style of `source` (English by default): a corpus
    /// that reaches most rules, for coverage without one of your own.
    public static func exampleInputs(_ resources: SpeechResources, from source: String, styles: [String]) -> [TestCase] {
        var cases: [TestCase] = []
        var seen: Set<String> = []
        for style in styles {
            for c in examples(resources, locale: source, styles: [style]) where seen.insert(style + "|" + c.source).inserted {
                cases.append(TestCase(origin: c.origin, source: c.source, notation: c.notation, style: style,
                                      preferences: c.preferences, expected: nil))
            }
        }
        return cases
    }

    // MARK: A new locale

    /// A new locale can not be written.
    public struct ScaffoldError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes a new locale `tag` into `folder` (`folder/Locales/<tag>/`, `folder/Rules/<tag>/`): the
    /// files of `Locales/_template` with every word of locale `source` listed as a `# to-do:` line, and
    /// per style of `source` a rule file that inherits its rules with a phrase file listing every run of
    /// their words to translate (and a word file per word file they use). Nothing is overwritten; each
    /// file is written to a temporary file in its folder and renamed. Returns the paths written.
    public static func newLocale(_ tag: String, from source: String, resources: SpeechResources, into folder: URL) throws(ScaffoldError) -> [String] {
        guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }), !tag.hasPrefix("-") else {
            throw ScaffoldError(description: "'\(tag)' is not a language tag (letters, digits and '-', e.g. 'fr' or 'pt-BR')")
        }
        guard resources.files["Locales/\(source)/locale.txt"] != nil else {
            throw ScaffoldError(description: "no locale '\(source)' to start from; the locales are \(resources.locales.joined(separator: ", "))")
        }
        var files: [(path: String, text: String)] = []
        // Words: the template's explanations, then the source's entries to translate.
        let templateFiles = resources.files.keys.filter { $0.hasPrefix("Locales/_template/") }.sorted()
        for templatePath in templateFiles {
            let name = String(templatePath.dropFirst("Locales/_template/".count))
            var text = resources.files[templatePath]!
            if !text.hasSuffix("\n") { text += "\n" }
            if name == "locale.txt" {
                text += "\nname            \(tag)\nespeak-voice    \(tag)\nnumber-words    icu\n"
            } else if let sourceText = resources.files["Locales/\(source)/\(name)"] {
                let entries = sourceText.split(separator: "\n").filter { line in
                    let t = line.trimmingCharacters(in: .whitespaces)
                    return !t.isEmpty && !t.hasPrefix("#")
                }
                if !entries.isEmpty {
                    text += "\n# ── To do: the words of '\(source)'. Translate a line, then delete its '# to-do: ' (`rules lint` counts what is left). ──\n"
                    text += entries.map { "# to-do: " + $0 }.joined(separator: "\n") + "\n"
                }
            }
            files.append(("Locales/\(tag)/\(name)", text))
        }
        // Rules: inherit each style of the source, translate its phrases.
        for style in resources.styles(for: source) {
            var chain: [RuleFile] = []
            var queue = ["\(source)/\(style)"], visited: Set<String> = []
            while !queue.isEmpty {
                let next = queue.removeFirst()
                guard visited.insert(next).inserted, let text = resources.files["Rules/\(next).rules"],
                      let file = try? RuleFile(parsing: text, file: next + ".rules", examples: false) else { continue }
                chain.append(file)
                queue += file.inherits.map(\.path)
            }
            guard let first = chain.first else { continue }
            var phrases: [String] = []
            var seen: Set<String> = []
            for file in chain {
                for rule in file.rules {
                    for part in rule.template {
                        if case .words(let w) = part {
                            let phrase = w.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                            if seen.insert(phrase).inserted { phrases.append(phrase) }
                        }
                    }
                }
            }
            var wordFiles: [String] = []
            for file in chain {
                for w in file.wordFiles where !wordFiles.contains(w) { wordFiles.append(w) }
            }
            var rules = """
            # \(first.style) for '\(tag)': the rules of \(source)/\(style) with this language's words.
            # Rules whose grammar differs (word order, agreement) go here, before the inherited ones; see
            # docs/authoring-a-locale.md and Rules/README.md.
            style \(first.style)
            locale \(tag)
            inherit \(source)/\(style)
            phrases \(style)

            """
            for w in wordFiles { rules += "words \(w)\n" }
            files.append(("Rules/\(tag)/\(style).rules", rules))
            var phraseText = """
            # The words of the rules '\(tag)' inherits from \(source)/\(style), one run per line:
            #   PHRASE => TRANSLATION     (an empty translation says nothing)
            # Translate a line, then delete its '# to-do: ' (`rules lint` lists the phrases left).

            """
            phraseText += phrases.map { "# to-do: \($0) =>" }.joined(separator: "\n") + "\n"
            files.append(("Rules/\(tag)/\(style).phrases", phraseText))
            for w in wordFiles {
                let path = "Rules/\(tag)/\(w).words"
                guard !files.contains(where: { $0.path == path }) else { continue }
                let owner = chain.first { $0.wordFiles.contains(w) }?.locale ?? source
                let sourceText = resources.files["Rules/\(owner)/\(w).words"] ?? ""
                let entries = sourceText.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
                files.append((path, "# Words of the style (the words of \(owner)/\(w).words to translate).\n"
                              + entries.map { "# to-do: " + $0 }.joined(separator: "\n") + "\n"))
            }
        }
        // Write: never over an existing locale, never through a link.
        let fm = FileManager.default
        for dir in ["Locales/\(tag)", "Rules/\(tag)"] where fm.fileExists(atPath: folder.appendingPathComponent(dir).path) {
            throw ScaffoldError(description: "\(folder.appendingPathComponent(dir).path) exists; choose another tag or folder")
        }
        // The folder given is made as a whole (`--into new/dir`); below it, the locale's folders one by one.
        try? fm.createDirectory(at: folder, withIntermediateDirectories: true)
        var written: [String] = []
        for (path, text) in files {
            // The one policy of the document outputs (``OutputFile``): no folder on the way and no file
            // written through a symbolic link, each file atomic.
            let url = folder.appendingPathComponent(path)
            do throws(OutputFileError) {
                try OutputFile.prepareDirectories(of: url, under: folder)
                try OutputFile.write(text, to: url, links: .refuse)
            } catch {
                throw ScaffoldError(description: error.description)
            }
            written.append(path)
        }
        return written
    }
}
