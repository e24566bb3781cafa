import Foundation
import Testing
@testable import MathAloud

/// `rules lint` on every shipped locale, and the authoring tools on small locales made for the test.
@Suite struct LocaleToolsTests {
    static var builtIn: SpeechResources { SpeechResources(files: EmbeddedSpeechResources.files) }
    static var shippedLocales: [String] { builtIn.locales }

    /// Every shipped locale passes `rules lint` without an error (the file checks; its inline examples
    /// run in RuleFileTests). Warnings (words still to translate) are printed.
    @Test(arguments: shippedLocales)
    func shippedLocaleLintsClean(_ locale: String) {
        let findings = RuleLint.check(Self.builtIn, locale: locale)
        let warnings = findings.filter { $0.severity == .warning }
        if !warnings.isEmpty { print("  lint \(locale): \(warnings.count) warnings, e.g. \(warnings[0])") }
        let errors = findings.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(locale):\n\(errors.prefix(20).map(\.description).joined(separator: "\n"))")
    }

    /// The ratchet of issue 13 ("no English reaches a non-English listener"): no shipped locale leaves a
    /// phrase of an inherited rule untranslated or takes a word from another language's word file. A new
    /// rule in `Rules/en` fails here, naming each phrase to translate in every other locale's
    /// `Rules/<tag>/*.phrases` (or to give in its words files).
    @Test(arguments: shippedLocales)
    func shippedLocaleSaysNoWordOfAnotherLanguage(_ locale: String) {
        let foreign = RuleLint.check(Self.builtIn, locale: locale)
            .filter { $0.kind == .untranslatedPhrase || $0.kind == .foreignWord }
        #expect(foreign.isEmpty, """
            \(locale): \(foreign.count) phrases or words in another language (translate them):
            \(foreign.prefix(40).map(\.description).joined(separator: "\n"))
            """)
    }

    /// The lint tells an untranslated phrase and a foreign word from other findings, so the ratchet above
    /// can hold exactly those to zero.
    @Test func lintKindsNameUntranslatedPhrasesAndForeignWords() {
        let findings = RuleLint.check(Self.resources([
            "Rules/xx/clearspeak.rules": "style ClearSpeak\nlocale xx\ninherit en/clearspeak\nphrases clearspeak\n",
            "Rules/xx/clearspeak.phrases": "the square root of => la racine de\n",
            "Rules/xx/mathspeak.rules": "style MathSpeak\nlocale xx\ninherit en/mathspeak\n",
        ]), locale: "xx")
        let listing = findings.map(\.description).joined(separator: "\n")
        let untranslated = findings.filter { $0.kind == .untranslatedPhrase }
        #expect(!untranslated.isEmpty, "\(listing)")
        #expect(untranslated.allSatisfy { $0.severity == .warning && $0.message.hasPrefix("phrase '") && $0.rule != nil })
        #expect(!untranslated.contains { $0.message.contains("'the square root of'") }, "\(listing)")
        let foreign = findings.filter { $0.kind == .foreignWord }
        #expect(foreign.contains { $0.file.hasSuffix("en/mathspeak.rules") && $0.message.contains("en/mathspeak.words (en)") }, "\(listing)")
        #expect(foreign.contains { $0.file.hasSuffix("xx/fonts.txt") && $0.message.hasPrefix("no name for the fonts") }, "\(listing)")
        #expect(findings.filter { $0.kind == .other }.allSatisfy { !$0.message.hasPrefix("phrase '") })
    }

    /// A small locale `xx` inheriting English ClearSpeak, with the files given over it.
    static func resources(_ files: [String: String]) -> SpeechResources {
        var all = EmbeddedSpeechResources.files
        all["Locales/xx/locale.txt"] = "name  Test\nnumber-words  table\n"
        all["Locales/xx/symbols.txt"] = "+  plus\n=  equals\n"
        for (k, v) in files { all[k] = v }
        return SpeechResources(files: all)
    }

    /// A contraction whose key the engine cannot read (one word, four words, a pattern first) is an
    /// error at its line, where the engine would skip it silently; keys of two and three words pass.
    @Test func lintReportsContractionKeysItCannotRead() {
        let findings = RuleLint.check(Self.resources([
            "Rules/xx/clearspeak.rules": "style ClearSpeak\nlocale xx\ninherit en/clearspeak\n",
            "Locales/xx/contractions.txt": "de\\sle  du\nvon\\sdie\\s*en  von den\nvon  vom\n*V\\sle  l'\nvon\\sder\\sdie\\sx  y\n",
        ]), locale: "xx").filter { $0.file.hasSuffix("xx/contractions.txt") }
        #expect(findings.map(\.line) == [3, 4, 5], "\(findings.map(\.description))")
        #expect(findings.allSatisfy { $0.severity == .error })
        // A form no word has (a misspelt case) is a warning at its line; one forms.txt gives is none.
        let forms = RuleLint.check(Self.resources([
            "Rules/xx/clearspeak.rules": "style ClearSpeak\nlocale xx\ninherit en/clearspeak\n",
            "Locales/xx/contractions.txt": "от\\s*  от *@genitive\nк\\s*  к *@dativ\n",
            "Locales/xx/forms.txt": "множество  множество | genitive: множества\n",
        ]), locale: "xx").filter { $0.file.hasSuffix("xx/contractions.txt") }
        #expect(forms.map(\.line) == [2] && forms.allSatisfy { $0.severity == .warning && $0.message.contains("*@dativ") },
                "\(forms.map(\.description))")
    }

    @Test func lintFindsEachKindOfMistakeWithItsPlace() {
        let rules = """
        style ClearSpeak
        locale xx
        inherit en/clearspeak
        rule one for fraktion
          say a
        rule two for fraction
          when nominator.simple and numerator.simpel and pref Fractionz = Over and pref Fractions = Sideways
          say {nominator} {=simpel} {@no-such-word}
        rule three for power
          say b
          example x^2 => c
        rule four for power
          when exponent-kind = squared
          say d
        """
        let findings = LocaleTools.lint(Self.resources(["Rules/xx/clearspeak.rules": rules]), locale: "xx")
        func has(_ line: Int, _ text: String, severity: LintFinding.Severity = .error) -> Bool {
            findings.contains { $0.line == line && $0.message.contains(text) && $0.severity == severity }
        }
        let listing = findings.map(\.description).joined(separator: "\n")
        #expect(has(4, "unknown kind 'fraktion'"), "\(listing)")
        #expect(has(7, "unknown role 'nominator'"), "\(listing)")
        #expect(has(7, "unknown property 'simpel'"), "\(listing)")
        #expect(has(7, "unknown preference 'Fractionz'"), "\(listing)")
        #expect(has(7, "has no value 'Sideways'"), "\(listing)")
        #expect(has(8, "unknown role 'nominator'"), "\(listing)")
        #expect(has(8, "'no-such-word' is missing"), "\(listing)")
        #expect(has(12, "no input can reach this rule"), "\(listing)")
        #expect(has(11, "example x^2 says 'b', not 'c'"), "\(listing)")
        #expect(findings.first { $0.message.contains("fraktion") }?.description.hasPrefix("Rules/xx/clearspeak.rules:4:1: error:") == true, "\(listing)")
        // Column of a condition: `numerator.simpel` starts at column 29.
        #expect(findings.contains { $0.line == 7 && $0.column == 29 && $0.message.contains("simpel") }, "\(listing)")
    }

    /// A rule with `either` … `or` speaks a node when its `when` conditions and one choice hold (its
    /// examples run); lint reads each choice's conditions at their place, and reports a rule all of
    /// whose choices, or one choice, an earlier rule always takes first.
    @Test func lintAndExamplesReadEitherOrChoices() {
        let rules = """
        style ClearSpeak
        locale xx
        inherit en/clearspeak
        rule letter-x-or-y for identifier
          when not pref Meaning = Literal
          either text = x
          or text = y and role is numerator
          say chosen {text}
          example x + y => chosen x plus y
          example \\frac{y}{2} => chosen y over 2
        rule plain-x for identifier
          when text = x and not pref Meaning = Literal
          say never
        rule two-choices for identifier
          when not pref Meaning = Literal
          either text = x and role is numerator
          or text = z and simpel
          say also never
        """
        let findings = LocaleTools.lint(Self.resources(["Rules/xx/clearspeak.rules": rules]), locale: "xx")
        let listing = findings.map(\.description).joined(separator: "\n")
        func has(_ line: Int, _ text: String) -> Bool { findings.contains { $0.line == line && $0.message.contains(text) && $0.severity == .error } }
        #expect(!findings.contains { $0.line == 9 || $0.line == 10 }, "\(listing)")
        #expect(has(11, "no input can reach this rule: rule 'letter-x-or-y' (line 4)"), "\(listing)")
        #expect(has(16, "no input can reach this choice: rule 'letter-x-or-y' (line 4)"), "\(listing)")
        #expect(!has(17, "no input can reach"), "\(listing)")
        #expect(findings.contains { $0.line == 17 && $0.column == 19 && $0.message.contains("unknown property 'simpel'") }, "\(listing)")
    }

    /// A path begins with `parent` steps or with `next`/`previous` steps: one of them later in the path
    /// would name a child role and never match, so it is an error, where a well-formed path is none.
    @Test func lintFindsAStepThatCanOnlyBeginAPath() {
        let rules = """
        style ClearSpeak
        locale xx
        inherit en/clearspeak
        rule one for identifier
          when parent.parent.next is number and previous.previous.text = x and parent.parent.base is number
          say a
        """
        let findings = LocaleTools.lint(Self.resources(["Rules/xx/clearspeak.rules": rules]), locale: "xx")
        let listing = findings.map(\.description).joined(separator: "\n")
        #expect(findings.filter { $0.line == 5 && $0.severity == .error }.count == 1, "\(listing)")
        #expect(findings.contains { $0.line == 5 && $0.message.contains("'next' in 'parent.parent.next' can only begin a path") }, "\(listing)")
    }

    @Test func aKeyDefinedTwiceIsOneErrorAtItsLine() {
        let findings = LocaleTools.lint(Self.resources(["Locales/xx/functions.txt": "sin  sinus\nsin  sinus\n"]), locale: "xx")
        let twice = findings.filter { $0.message.contains("defined twice") }
        #expect(twice.count == 1 && twice[0].file == "Locales/xx/functions.txt" && twice[0].line == 2, "\(findings)")
    }

    /// A key run into its words (no space after `unnamed-character`) is an error at its line; a key
    /// that only begins like an English one (`minutes` after `minute`, a unit `sek`, a key of several words
    /// after an English one) is not.
    @Test func aKeyRunIntoItsWordsIsAnError() {
        let symbols = "+  plus\n=  equals\nunnamed-characterkarakter {code}\n"
        let findings = LocaleTools.lint(Self.resources(["Locales/xx/symbols.txt": symbols]), locale: "xx")
        let runIn = findings.filter { $0.message.contains("run into its words") }
        #expect(runIn.count == 1 && runIn.first?.file == "Locales/xx/symbols.txt" && runIn.first?.line == 3, "\(findings)")
        let units = "s  sekunde\nsek  sekunde\nminutes  minuten\nkilometer\\sper\\shour  km pro h\nkilometers\\sper\\shour  km pro h\n"
        let fine = LocaleTools.lint(Self.resources(["Locales/xx/units.txt": units]), locale: "xx")
        #expect(!fine.contains { $0.message.contains("run into its words") }, "\(fine)")
    }

    @Test func untranslatedPhrasesAndToDoWordsAreWarnings() {
        let rules = "style ClearSpeak\nlocale xx\ninherit en/clearspeak\nphrases clearspeak\n"
        let r = Self.resources(["Rules/xx/clearspeak.rules": rules,
                                "Rules/xx/clearspeak.phrases": "the square root of => la racine de\n",
                                "Locales/xx/units.txt": "# to-do: m  meter\n"])
        let findings = LocaleTools.lint(r, locale: "xx")
        #expect(!findings.contains { $0.severity == .error }, "\(findings.filter { $0.severity == .error })")
        #expect(findings.contains { $0.severity == .warning && $0.message.hasPrefix("phrase '") && $0.file == "Rules/en/clearspeak.rules" })
        #expect(!findings.contains { $0.message.contains("phrase 'the square root of'") })
        #expect(findings.contains { $0.severity == .warning && $0.file == "Locales/xx/units.txt" && $0.line == 1 && $0.message.contains("to-do") })
    }

    @Test func anUnknownLocaleIsAnError() {
        let findings = LocaleTools.lint(Self.builtIn, locale: "zz")
        #expect(findings.count == 1 && findings[0].severity == .error && findings[0].message.contains("no locale 'zz'"))
    }

    @Test func wordDiffMarksWhatDiffers() {
        #expect(LocaleTools.wordDiff(expected: "x squared plus one", got: "x to the second power plus one")
                == "x [-squared-] {+to the second power+} plus one")
        #expect(LocaleTools.wordDiff(expected: "a b", got: "a b") == "a b")
        #expect(LocaleTools.wordDiff(expected: "", got: "a") == "{+a+}")
    }

    /// Pauses are ignored unless an example asks for them (`[Pauses=Exact]`, no preference of the style).
    @Test func examplesMayCompareTheirPauses() throws {
        #expect(LocaleTools.matches("2 norm of x, plus 1", "2 norm of x plus, 1", style: "simplespeak"))
        #expect(!LocaleTools.matches("2 norm of x, plus 1", "2 norm of x plus, 1", style: "simplespeak", pauses: true))
        #expect(LocaleTools.matches("2 norm of x, plus 1", "2 Norm of x, plus 1", style: "simplespeak", pauses: true))
        let file = try RuleFile(parsing: """
        style ClearSpeak
        locale en
        rule a for fraction
          say {numerator} over {denominator}
          example [Pauses=Exact, Fractions=Over] \\frac{1}{2} => 1 over 2
          example \\frac{1}{3} => 1 over 3
        """, file: "en/clearspeak.rules")
        let examples = file.rules[0].examples
        #expect(examples[0].exactPauses && examples[0].preferences == ["Fractions": "Over"])
        #expect(!examples[1].exactPauses)
        #expect(throws: RuleFileErrors.self) {
            _ = try RuleFile(parsing: "style S\nlocale en\nrule a for fraction\n  say x\n  example [Pauses=Some] x => x\n", file: "en/s.rules")
        }
    }

    @Test func corpusLinesAndTheirStyles() throws {
        let text = """
        {"id": "a", "tex": "x^2", "expected": "x squared"}
        {"mathml": "<math><mi>y</mi></math>", "expected": "y", "style": "MathSpeak", "preferences": {"Verbosity": "Brief"}}
        {"tex": "z", "expected": "z", "locale": "de"}
        \\frac{1}{2}
        """
        let cases = try LocaleTools.corpus(text, name: "c.jsonl", locale: "en", defaultStyles: ["clearspeak", "mathspeak"])
        #expect(cases.map(\.style) == ["clearspeak", "mathspeak", "mathspeak", "clearspeak", "mathspeak"])
        #expect(cases[0].origin == "c.jsonl:1 (a)" && cases[2].notation == .mathml && cases[2].preferences == ["Verbosity": "Brief"])
        #expect(cases[3].expected == nil && cases[3].source == #"\frac{1}{2}"#)
        #expect(throws: LocaleTools.CorpusError.self) { _ = try LocaleTools.corpus("{oops", name: "c", locale: "en", defaultStyles: ["clearspeak"]) }
        let outcomes = LocaleTools.run(Array(cases.prefix(3)), resources: Self.builtIn, locale: "en")
        #expect(outcomes.map(\.passed) == [true, true, true], "\(outcomes.map(\.speech))")
    }

    @Test func coverageCountsRulesAndMissingWords() {
        let r = Self.resources(["Rules/xx/clearspeak.rules": "style ClearSpeak\nlocale xx\ninherit en/clearspeak\n"])
        let cases = [LocaleTools.TestCase(origin: "t", source: "x^2 + ∰", notation: .tex, style: "clearspeak", expected: nil)]
        let coverage = LocaleTools.coverage(cases, resources: r, locale: "xx")
        #expect(coverage.count == 1)
        #expect(coverage[0].rules.contains { $0.count > 0 && $0.name.contains("square") }, "\(coverage[0].rules.filter { $0.count > 0 }.map(\.name))")
        #expect(coverage[0].missing.contains { $0.message.contains("∰") && $0.inputs == ["x^2 + ∰"] }, "\(coverage[0].missing.map(\.message))")
    }

    /// `locale new` writes a locale that loads, lints without an error, and speaks; nothing is
    /// overwritten.
    @Test func newLocaleFromEnglish() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-locale-new-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try LocaleTools.newLocale("xx", from: "en", resources: Self.builtIn, into: folder)
        #expect(written.contains("Locales/xx/symbols.txt") && written.contains("Rules/xx/clearspeak.phrases") && written.contains("Rules/xx/mathspeak.words"))
        let symbols = try String(contentsOf: folder.appendingPathComponent("Locales/xx/symbols.txt"), encoding: .utf8)
        #expect(symbols.contains("# to-do: ≤"))
        let phrases = try String(contentsOf: folder.appendingPathComponent("Rules/xx/clearspeak.phrases"), encoding: .utf8)
        #expect(phrases.contains("# to-do: the square root of =>"))
        let r = try SpeechResources(builtIn: EmbeddedSpeechResources.files, overrideDirectory: folder)
        let findings = LocaleTools.lint(r, locale: "xx")
        #expect(!findings.contains { $0.severity == .error }, "\(findings.filter { $0.severity == .error }.prefix(10))")
        #expect(findings.contains { $0.severity == .warning && $0.message.contains("to-do") })
        let speaker = try Speaker(resources: r, locale: "xx", style: .clearSpeak)
        #expect(!speaker.speak(tex: "x^2").text.isEmpty)
        #expect(throws: LocaleTools.ScaffoldError.self) { _ = try LocaleTools.newLocale("xx", from: "en", resources: Self.builtIn, into: folder) }
        #expect(throws: LocaleTools.ScaffoldError.self) { _ = try LocaleTools.newLocale("../x", from: "en", resources: Self.builtIn, into: folder) }
    }

    /// An override folder is read as `Rules/<locale>/<file>` and `Locales/<locale>/<file>` only: a package
    /// checkout given as the folder (`--rules-dir .`) keeps its hidden build folder and deeper folders
    /// out (a file there that is not UTF-8 would otherwise stop the load), and a file too big to be a rule
    /// or word file is an error before it is read.
    @Test func overrideFolderReadsOnlyLocaleFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-override-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        for dir in ["Rules/en", ".build/x/Rules", "Locales/en/old", "Locales/.git"] {
            try fm.createDirectory(at: folder.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        let notUTF8 = Data([0x66, 0xFF, 0xFE, 0x0A])
        for junk in [".build/dump.txt", ".build/x/Rules/a.rules", "Locales/en/old/symbols.txt", "Locales/.git/x.txt", "Locales/en/.draft.txt"] {
            try notUTF8.write(to: folder.appendingPathComponent(junk))
        }
        try "∃         there is\n".write(to: folder.appendingPathComponent("Locales/en/symbols.txt"), atomically: true, encoding: .utf8)
        let r = try SpeechResources(builtIn: EmbeddedSpeechResources.files, overrideDirectory: folder)
        #expect(r.wordOverrides.keys.sorted() == ["Locales/en/symbols.txt"])
        #expect(!r.files.keys.contains { $0.contains(".build") || $0.contains("/old/") })
        let speaker = try Speaker(resources: r, locale: "en", style: .clearSpeak)
        #expect(speaker.speak(tex: #"\exists x"#).text == "there is x")
        let big = Data(repeating: 0x61, count: SpeechResources.maximumFileSize + 1)
        try big.write(to: folder.appendingPathComponent("Rules/en/clearspeak.words"))
        #expect(throws: SpeechLoadError.self) { _ = try SpeechResources(builtIn: EmbeddedSpeechResources.files, overrideDirectory: folder) }
    }

    /// A missing word falls back along the parent chain: inherited silently from a parent of the same
    /// language, said in a parent of another language with a `speech.fallback-word` warning, read by a
    /// name with `speech.missing-word` in a root locale — never silence.
    @Test func aMissingWordFallsBackAlongTheChain() throws {
        let r = Self.resources([
            "Locales/xx/locale.txt": "name  Test\nparent  en\nnumber-words  table\n",
            "Locales/xx-YY/locale.txt": "name  Test (YY)\nparent  xx\n",
            "Locales/zz/locale.txt": "name  Root\nnumber-words  table\n",
            "Locales/zz/symbols.txt": "+  pluss\n",
            "Rules/xx/clearspeak.rules": "style ClearSpeak\nlocale xx\ninherit en/clearspeak\n",
            "Rules/zz/clearspeak.rules": "style ClearSpeak\nlocale zz\nrule any for *\n  when kind = relation\n  say {children}\n",
        ])
        let regional = try Speaker(resources: r, locale: "xx-YY", style: .clearSpeak).speak(tex: "a + b")
        #expect(regional.text == "a plus b" && regional.speechDiagnostics.isEmpty, "\(regional.text) \(regional.speechDiagnostics)")
        let foreign = try Speaker(resources: r, locale: "xx", style: .clearSpeak).speak(tex: "a \\leq \\sin b")
        #expect(foreign.text.contains("less than or equal to") && foreign.text.contains("sine"), "\(foreign.text)")
        let ids = foreign.speechDiagnostics.map(\.id)
        #expect(ids.filter { $0 == .speechFallbackWord }.count == 2, "\(foreign.speechDiagnostics.map(\.message))")
        let root = try Speaker(resources: r, locale: "zz", style: .clearSpeak).speak(tex: "a \\leq b")
        #expect(root.text.contains("less-than or equal to") && root.speechDiagnostics.map(\.id) == [.speechMissingWord],
                "\(root.text) \(root.speechDiagnostics.map(\.message))")
    }

    /// The line of `key` in the built-in `Rules/en/mathspeak.words` (where the lint and the reports point).
    static func englishMathSpeakLine(_ key: String) throws -> Int {
        let text = try #require(EmbeddedSpeechResources.files["Rules/en/mathspeak.words"])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.hasPrefix(key + " ") }) + 1
    }

    /// A locale that inherits English MathSpeak says its own words before English MathSpeak's: its
    /// `mathspeak.words`, then its `symbols.txt` (⩾ was English's "greater-than-or-slanted-equals" in
    /// Dutch, Finnish, … where symbols.txt had a word), then a parent's; English MathSpeak's word is the last
    /// resort, said and reported as `speech.missing-word` with the English entry (∔, ℶ: a letter
    /// English MathSpeak names is said by that name, not as written). A structure word the locale lacks
    /// (the fraction's) keeps English's, never silence.
    @Test func aLocalesOwnWordsComeBeforeEnglishMathSpeaksWords() throws {
        let r = Self.resources([
            "Locales/xx/symbols.txt": "+  plus\n⩾  is at least | alone: at least\n",
            "Rules/xx/mathspeak.rules": "style MathSpeak\nlocale xx\ninherit en/mathspeak\nwords mathspeak\n",
            "Rules/xx/mathspeak.words": "+  pluss\n",
            "Locales/yy/locale.txt": "name  Child\nparent  zz\nnumber-words  table\n",
            "Locales/zz/locale.txt": "name  Parent\nnumber-words  table\n",
            "Locales/zz/symbols.txt": "⩾  gte\n",
            "Rules/yy/mathspeak.rules": "style MathSpeak\nlocale yy\ninherit en/mathspeak\n",
        ])
        let xx = try Speaker(resources: r, locale: "xx", style: .mathSpeak)
        let own = xx.speak(tex: #"a \geqslant b + c"#)
        #expect(own.text == "a is at least b pluss c" && own.speechDiagnostics.isEmpty, "\(own.text) \(own.speechDiagnostics)")
        let english = xx.speak(tex: #"a \dotplus \beth"#)
        #expect(english.text == "a dot-plus bet", "\(english.text)")
        #expect(english.speechDiagnostics.map(\.id) == [.speechMissingWord, .speechMissingWord])
        #expect(english.speechDiagnostics.map(\.message) == [
            "no xx word for '∔' (U+2214); read as 'dot-plus' (en/mathspeak.words:\(try Self.englishMathSpeakLine("∔")))",
            "no xx word for 'ℶ' (U+2136); read as 'bet' (en/mathspeak.words:\(try Self.englishMathSpeakLine("ℶ")))",
        ], "\(english.speechDiagnostics.map(\.message))")
        #expect(english.speechDiagnostics.map(\.range) == [SourceRange(2, 10), SourceRange(11, 16)],
                "\(english.speechDiagnostics.map(\.range))")
        // The structure words (a fraction's, the script levels') are English MathSpeak's until the locale
        // gives them.
        #expect(xx.speak(tex: #"\frac{a+1}{b}"#).text == "StartFraction a pluss 1 Over b EndFraction")
        #expect(xx.speak(tex: #"x^{2^{n}}"#).text == "x Superscript 2 Super Superscript n")
        // A parent's word (of another language: reported as such) comes before English MathSpeak's.
        let child = try Speaker(resources: r, locale: "yy", style: .mathSpeak).speak(tex: #"a \geqslant b"#)
        #expect(child.text == "a gte b" && child.speechDiagnostics.map(\.id) == [.speechFallbackWord],
                "\(child.text) \(child.speechDiagnostics.map(\.message))")
        // English's own chain is unchanged: its MathSpeak words first, silently.
        let en = try Speaker(resources: r, locale: "en", style: .mathSpeak).speak(tex: #"a \geqslant b \dotplus \beth"#)
        #expect(en.text == "a greater-than-or-slanted-equals b dot-plus bet" && en.speechDiagnostics.isEmpty, "\(en.text)")
        let enGB = try Speaker(resources: r, locale: "en-GB", style: .mathSpeak).speak(tex: #"a \geqslant b"#)
        #expect(enGB.text == "a greater-than-or-slanted-equals b" && enGB.speechDiagnostics.isEmpty, "\(enGB.text)")
        // `rules coverage` lists the English words with the inputs that needed them.
        let cases = try LocaleTools.corpus(#"a \dotplus b"#, name: "c.txt", locale: "xx", defaultStyles: ["mathspeak"])
        let coverage = try #require(LocaleTools.coverage(cases, resources: r, locale: "xx").first)
        #expect(coverage.missing.map(\.message) == [english.speechDiagnostics[0].message] && coverage.missing[0].inputs == [#"a \dotplus b"#],
                "\(coverage.missing)")
    }

    /// `rules lint` warns, at the key in `Rules/en/mathspeak.words`, about every key of English MathSpeak a
    /// locale says in English: one its `mathspeak.words` does not translate and its `symbols.txt` (or
    /// `functions.txt` for `fn.NAME`) does not have. Not an error, and not the ratchet's kind.
    @Test func lintListsTheEnglishMathSpeakWordsALocaleSaysInEnglish() throws {
        let r = Self.resources([
            "Locales/xx/symbols.txt": "+  plus\n⩾  is at least\n",
            "Locales/xx/functions.txt": "ln  natural log\n",
            "Rules/xx/mathspeak.rules": "style MathSpeak\nlocale xx\ninherit en/mathspeak\nwords mathspeak\n",
            "Rules/xx/mathspeak.words": "+  pluss\n",
        ])
        let findings = RuleLint.check(r, locale: "xx").filter { $0.kind == .otherLanguageStyleWord }
        #expect(findings.allSatisfy { $0.severity == .warning && $0.file == "Rules/en/mathspeak.words" && $0.column == 1 })
        let dotplus = try #require(findings.first { $0.line == (try? Self.englishMathSpeakLine("∔")) })
        #expect(dotplus.description == "Rules/en/mathspeak.words:\(try Self.englishMathSpeakLine("∔")):1: warning: mathspeak says '∔' in en ('dot-plus'): give it in Rules/xx/mathspeak.words or Locales/xx/symbols.txt")
        let fraction = try #require(findings.first { $0.line == (try? Self.englishMathSpeakLine("ms.start-fraction.*")) })
        #expect(fraction.message == "mathspeak says 'ms.start-fraction.*' in en ('{n+1:Start}Fraction'): give it in Rules/xx/mathspeak.words",
                "\(fraction.message)")
        let combining = try #require(findings.first { $0.line == (try? Self.englishMathSpeakLine(#"\u{0302}"#)) })
        #expect(combining.message.hasPrefix(#"mathspeak says '\u{0302}' in en"#), "\(combining.message)")
        // The locale's own words, its symbols and its function names are not listed.
        for key in ["+", "⩾", "fn.ln"] {
            let line = try Self.englishMathSpeakLine(key)
            #expect(!findings.contains { $0.line == line }, "\(key): \(findings.filter { $0.line == line })")
        }
        #expect(!RuleLint.check(r, locale: "xx").contains { $0.severity == .error }, "\(RuleLint.check(r, locale: "xx").filter { $0.severity == .error }.prefix(5))")
        // English itself says its own words.
        #expect(!RuleLint.check(Self.builtIn, locale: "en").contains { $0.kind == .otherLanguageStyleWord })
        // A key the locale's file lists as `# to-do:` (as `locale new` writes them) is that file's to-do warning,
        // not one of these.
        let todo = Self.resources([
            "Locales/xx/symbols.txt": "+  plus\n",
            "Rules/xx/mathspeak.rules": "style MathSpeak\nlocale xx\ninherit en/mathspeak\nwords mathspeak\n",
            "Rules/xx/mathspeak.words": "+  pluss\n# to-do: ∔         dot-plus\n",
        ])
        let todoFindings = RuleLint.check(todo, locale: "xx")
        #expect(!todoFindings.contains { $0.kind == .otherLanguageStyleWord && $0.message.contains("'∔'") })
        #expect(todoFindings.contains { $0.kind == .otherLanguageStyleWord && $0.message.contains("'ms.start-fraction.*'") })
        #expect(todoFindings.contains { $0.file.hasSuffix("Rules/xx/mathspeak.words") && $0.message.contains("still marked '# to-do:'") })
    }

    /// `{=function-name:function@arc}`, `{operator:word@article}` and `{=font:font@feminine}` say the
    /// entry's variant of that name, and its main words when it has none; `{text:decimal}` writes a
    /// number with the locale's `decimal-mark` and `group-mark` (Rules/README.md, "Formats").
    @Test func namedVariantsOfWordsFunctionsFontsAndTheDecimalMark() throws {
        let r = Self.resources([
            "Locales/xx/locale.txt": "name  Test\nparent  en\nnumber-words  table\n",
            "Locales/xx/functions.txt": "sin  sine | arc: arcsine\n",
            "Locales/xx/symbols.txt": "∫  integral | article: the integral\n",
            "Locales/xx/fonts.txt": "bold  bold | feminine: bolde\n",
            "Locales/xx/numbers.txt": "decimal-mark  ,\ngroup-mark  .\n",
            "Rules/xx/clearspeak.rules": """
                style ClearSpeak
                locale xx
                inherit en/clearspeak
                rule arc for application
                  when function-class = trig and inverse
                  say {=function-name:function@arc} {argument}
                rule integral for big-operator
                  say {operator:word@article} of {body}
                rule font-number for number
                  when font
                  say {=font:font@feminine} {text}
                rule decimal for number
                  when decimal
                  say {text:decimal}

                """,
        ])
        let speaker = try Speaker(resources: r, locale: "xx", style: .clearSpeak)
        #expect(try speaker.speak(tex: "\\sin^{-1} x").text == "arcsine x")
        #expect(try speaker.speak(tex: "\\cos^{-1} x").text == "cosine x", "an entry without the variant gives its main words")
        #expect(try speaker.speak(tex: "\\int f").text.hasPrefix("the integral of f"))
        #expect(try speaker.speak(tex: "\\mathbf{2}").text == "bolde 2")
        #expect(try speaker.speak(tex: "3.25").text == "3,25")
    }
}
