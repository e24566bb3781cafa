import Foundation
import Testing

/// `mathaloud speak`: formats, explain, override directory, batch contract.
@Suite(.serialized) struct SpeakCommandTests {
    @Test func plainSpeech() throws {
        let r = try runCLI(["speak", #"\frac{3}{4}"#])
        #expect(r.status == 0)
        #expect(r.stdout == "three fourths\n")
    }

    /// MathML given without `--mathml` is read as MathML when it opens a `math` element (it was read as
    /// TeX: "is less than m a t h …"), also from standard input after an XML declaration; TeX that
    /// begins with `<` stays TeX.
    @Test func mathMLIsRecognisedWithoutTheFlag() throws {
        let prefixed = try runCLI(["speak", #"<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mi>x</m:mi><m:mo>+</m:mo><m:mn>1</m:mn></m:math>"#])
        #expect(prefixed.status == 0)
        #expect(prefixed.stdout == "x plus 1\n")
        let declared = try runCLI(["speak"], stdin: Data("<?xml version=\"1.0\"?>\n<!-- a page -->\n<math display=\"block\"><mfrac><mn>3</mn><mn>4</mn></mfrac></math>\n".utf8))
        #expect(declared.stdout == "three fourths\n")
        let tex = try runCLI(["speak", "<mathit x"])
        #expect(tex.status == 0)
        #expect(!tex.stdout.contains("x plus"))
    }

    /// Binary input to `speak --text` is one error (it printed 27 KB of garbage and 1,500 warnings).
    @Test func binaryTextIsOneError() throws {
        let r = try runCLI(["speak", "--text"], stdin: Data([0x89, 0x50, 0x4E, 0x0A, 0x47, 0x00, 0x24, 0x78, 0x24]))
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "<stdin>:2:2: error: the input is binary data, not text (a NUL byte); nothing was spoken [document.binary]\n")
    }

    /// Only math environments are math in prose: `theorem`, `itemize` and `proof` are prose and the math
    /// in them is read (the whole theorem was one formula, "F o r a l l x…", with four "$ inside math").
    @Test func proseEnvironmentsAreProse() throws {
        let r = try runCLI(["speak", "--text"], stdin: Data("Theorem \\begin{theorem}For all $x$, $x=x$.\\end{theorem} ok \\begin{pmatrix}a\\end{pmatrix}".utf8))
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout == "Theorem \\begin{theorem}For all x, x equals x.\\end{theorem} ok the 1 by 1 matrix with entry a\n")
    }

    /// `--macros FILE` (repeatable; `speak`, `say`, `render`, `parse`, `convert` and `audit` alike) reads
    /// a document's preamble once: its definitions hold in every formula, in a batch too. A definition TeX
    /// cannot read is a warning at its file, line and column (the others still hold); a file that cannot
    /// be read exits 3, without the usage.
    @Test func macroFilesHoldInEveryFormula() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-macros-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let preamble = dir.appendingPathComponent("preamble.tex"), more = dir.appendingPathComponent("more.tex")
        try Data("\\documentclass{book}\n\\usepackage{amsmath}\n\\newcommand{\\RR}{\\mathbb{R}}\n\\DeclareMathOperator{\\rank}{rank}\n".utf8).write(to: preamble)
        try Data("% more\n\\newcommand{\\abs}[1]{\\left|#1\\right|}\n\\newcommand{\\broken}[1{x}\n".utf8).write(to: more)

        let r = try runCLI(["speak", "--macros", preamble.path, "--macros", more.path, #"\rank A \le \abs{n} \in \RR"#])
        #expect(r.status == 0)
        #expect(r.stdout == "rank of A is less than or equal to the absolute value of n, is a member of the real numbers\n")
        #expect(r.stderr.hasPrefix("\(more.path):3:21: warning: missing ] for this [ [tex.missing-bracket]\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("error"))

        let batch = try runCLI(["speak", "--batch", "--macros", preamble.path], stdin: Data(#"{"id": "a", "tex": "\\rank A"}"#.utf8 + [0x0A]))
        #expect(batch.stdout.contains(#""speech":"rank of A""#), "\(batch.stdout)")

        let converted = try runCLI(["convert", "--to", "html", "--macros", preamble.path], stdin: Data("Let $x \\in \\RR$.\n".utf8))
        #expect(converted.status == 0)
        #expect(converted.stdout.contains("aria-label=\"x is a member of the real numbers\""), "\(converted.stdout)")

        // A later file may redefine an earlier file's macro: no warning that it "was not defined".
        let redo = dir.appendingPathComponent("redo.tex")
        try Data("\\renewcommand{\\RR}{\\mathbb{Q}}\n".utf8).write(to: redo)
        let redefined = try runCLI(["speak", "--macros", preamble.path, "--macros", redo.path, #"x \in \RR"#])
        #expect(redefined.stdout == "x is a member of the rational numbers\n")
        #expect(redefined.stderr.isEmpty, "\(redefined.stderr)")

        let missing = try runCLI(["speak", "--macros", dir.appendingPathComponent("absent.tex").path, "x"])
        #expect(missing.status == 3)
        #expect(missing.stderr == "mathaloud: --macros: cannot read \(dir.appendingPathComponent("absent.tex").path): No such file or directory\n")
    }

    @Test func labelTemplate() throws {
        let r = try runCLI(["speak", "x^2", "--template", "Math: {speech} ({latex}) <speech>"])
        #expect(r.stdout == "Math: x squared (x^2) x squared\n")
    }

    @Test func ssml() throws {
        let r = try runCLI(["speak", "--ssml", #"\frac{x+1}{2}"#])
        #expect(r.stdout.hasPrefix("<speak version=\"1.1\""))
        #expect(r.stdout.contains("<break time=\"250ms\"/>"))
    }

    /// On the command line a preference the style does not know is a usage error (a typo should stop).
    @Test func unknownPreferenceIsAUsageError() throws {
        let r = try runCLI(["speak", "x", "--pref", "Fractoins=Over"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown preference 'Fractoins'"))
        let v = try runCLI(["speak", "x", "--style", "mathspeak", "--verbosity", "terse"])
        #expect(v.status == 2 && v.stderr.contains("unknown value 'terse' for preference Verbosity"))
    }

    /// MathCAT sends its own preferences with every request: a batch line that carries them is
    /// answered, with one warning per preference the style cannot use.
    @Test func batchLineWithUnknownPreferencesIsAnswered() throws {
        let line = #"{"id": 1, "tex": "x^2", "preferences": {"Verbosity": "Medium", "NavMode": "Enhanced", "Roots": "Sideways"}}"#
        let r = try runCLI(["speak", "--batch"], stdin: Data((line + "\n").utf8))
        #expect(r.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(object?["speech"] as? String == "x squared")
        let ids = (object?["diagnostics"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == ["speech.unknown-preference", "speech.unknown-preference-value"])
    }

    @Test func preferenceAliasesAreCaseInsensitive() throws {
        let r = try runCLI(["speak", #"\frac{2}{3}"#, "--pref", "fraction=over"])
        #expect(r.stdout == "2 over 3\n")
    }

    @Test func mathSpeakVerbosity() throws {
        let r = try runCLI(["speak", "--style", "mathspeak", "--verbosity", "brief", #"\frac{p}{q}"#])
        #expect(r.stdout == "StartFrac p Over q EndFrac\n")
    }

    @Test func textMode() throws {
        let r = try runCLI(["speak", "--text"], stdin: Data("The area is $\\pi r^2$ square units.".utf8))
        // A formula of three words or more that prose words follow ends with a pause (FormulaBoundary):
        // "pi r squared square units" ran the formula into the prose.
        #expect(r.stdout == "The area is pi r squared, square units.\n")
    }

    /// Where a formula ends and prose goes on is heard, the same in plain text, SSML and a stream
    /// (sweep items 21 and 23): "$\\frac{a}$ apples" read "…and denominator apples"; SSML ran "x sub i"
    /// into "We have" across the line break after `\\]`, and the full stop inside `\\[ … x_i. \\]` was
    /// lost. A formula of one or two words is heard as a word of the sentence.
    @Test func formulaBoundariesAreHeard() throws {
        let input = Data("$\\frac{a}$ apples and $x$ pears, $A = QR$ where $Q$ is.\n\\[ \\mu = \\frac{1}{n}\\sum x_i. \\]\nWe have $$x^2$$\nnext\n".utf8)
        let plain = try runCLI(["speak", "--text"], stdin: input)
        #expect(plain.stdout == """
            the fraction with numerator a, and denominator, apples and x pears, A equals Q R, where Q is.
            mu equals 1 over n times the sum of x sub i.
            We have x squared
            next

            """)
        let streamed = try runCLI(["speak", "--text", "--stream"], stdin: input)
        #expect(streamed.stdout == plain.stdout)
        let ssml = try runCLI(["speak", "--text", "--ssml"], stdin: input)
        #expect(ssml.stdout == #"<speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en">the fraction with numerator a<break time="250ms"/>and denominator<break time="250ms"/>apples and x pears, A equals Q R<break time="250ms"/>where Q is. mu equals 1 over n times the sum of x sub i. We have x squared<break time="250ms"/>next</speak>"# + "\n")
    }

    /// An author changes a word and a rule in an override directory and sees the effect, with the rule
    /// that fired, without rebuilding.
    @Test func overrideDirectoryWithExplain() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-override-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Rules/en"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Locales/en"), withIntermediateDirectories: true)
        // A word: merged over the built-in symbols.
        try "≈  is about equal to\n".write(to: dir.appendingPathComponent("Locales/en/symbols.txt"), atomically: true, encoding: .utf8)
        // A rule: the built-in ClearSpeak file with "divides" changed.
        let builtIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Rules/en/clearspeak.rules")
        var rules = try String(contentsOf: builtIn, encoding: .utf8)
        rules = rules.replacingOccurrences(of: "  say divides\n  example 3 \\mid 12 => 3 divides 12",
                                           with: "  say is a factor of\n  example 3 \\mid 12 => 3 is a factor of 12")
        try rules.write(to: dir.appendingPathComponent("Rules/en/clearspeak.rules"), atomically: true, encoding: .utf8)

        let before = try runCLI(["speak", #"3 \mid 12 \approx 4"#])
        #expect(before.stdout.hasPrefix("3 divides 12 is approximately equal to 4"))
        let after = try runCLI(["speak", "--rules-dir", dir.path, "--explain", #"3 \mid 12 \approx 4"#])
        #expect(after.status == 0)
        let lines = after.stdout.split(separator: "\n")
        #expect(lines.first == "3 is a factor of 12 is about equal to 4")
        #expect(lines.contains { $0.contains("rule bar-divides (en/clearspeak.rules:") && $0.hasSuffix(": \"is a factor of\"") })
        // The same through the environment variable.
        let env = try runCLI(["speak", #"3 \mid 12"#], environment: ["MATHALOUD_RULES": dir.path])
        #expect(env.stdout == "3 is a factor of 12\n")
    }

    @Test func brokenOverrideReportsLocation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-broken-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("en"), withIntermediateDirectories: true)
        try "style ClearSpeak\nlocale en\nrule x for fraction\n  when pref Fractions oops\n  say y\n"
            .write(to: dir.appendingPathComponent("en/clearspeak.rules"), atomically: true, encoding: .utf8)
        let r = try runCLI(["speak", "--rules-dir", dir.path, "x"])
        #expect(r.status == 4)
        #expect(r.stderr.contains("en/clearspeak.rules:4:8: error:"))
        #expect(r.stderr.contains("(in rule 'x')"))
    }

    @Test func batchContract() throws {
        let input = """
        {"id": "a", "tex": "\\\\frac{1}{2}"}
        {"id": "b", "tex": "x^2", "style": "mathspeak", "preferences": {"Verbosity": "Brief"}}
        not json
        {"id": "d", "tex": "x", "locale": "xx"}
        {"id": "e", "mathml": "<mi>y</mi>"}
        {"id": "f", "tex": "\\\\foo"}
        """
        let r = try runCLI(["speak", "--batch"], stdin: Data(input.utf8))
        #expect(r.status == 1)   // some lines had errors (the batches' one exit rule)
        let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 6)
        #expect(lines[0]?["speech"] as? String == "one half")
        #expect(lines[1]?["speech"] as? String == "x squared")
        #expect(lines[2]?["error"] != nil)
        #expect((lines[3]?["error"] as? String)?.contains("unknown locale") == true)
        #expect(lines[4]?["speech"] as? String == "y")
        let diagnostics = lines[5]?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["id"] as? String == "tex.unknown-command")
        #expect(diagnostics?.first?["severity"] as? String == "warning")
        let keys = Set(diagnostics?.first?.keys.map { $0 } ?? [])
        #expect(keys.isSuperset(of: ["id", "severity", "message", "range"]))
    }

    @Test func unknownCommandIsAWarningForSpeech() throws {
        let r = try runCLI(["speak", #"\foo x + 1"#])
        #expect(r.status == 0)
        #expect(r.stdout == "foo x plus 1\n")
        #expect(r.stderr.contains("warning: unknown command \\foo"))
        #expect(r.stderr.contains("read by name"))
        // `parse` still reports it as an error: the tree cannot say what \foo means.
        #expect(try runCLI(["parse", #"\foo x"#]).status == 1)
    }
}
