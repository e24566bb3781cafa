import Foundation
import Testing

/// Regression tests for issue 17 (hardening): one test per defect, each failing on the code before
/// its fix (`MATHALOUD_TEST_BINARY=<old build>/mathaloud swift test --filter HardeningTests` shows it).
@Suite struct HardeningTests {
    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A file outside the output directory, and a symbolic link to it planted at `name` inside it.
    func plant(_ name: String, in dir: URL, victim: URL) throws {
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name), withDestinationURL: victim)
    }

    func isRegularFile(_ url: URL) throws -> Bool {
        let type = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
        return type == .typeRegular
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    // MARK: 1. Writes never follow planted symbolic links

    @Test func writesReplaceSymlinksInsteadOfFollowingThem() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let victim = root.appendingPathComponent("victim")
        try Data("ORIG\n".utf8).write(to: victim)
        // render --batch: an image and the manifest.
        let batch = root.appendingPathComponent("batch")
        try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: true)
        try plant("x.svg", in: batch, victim: victim)
        try plant("manifest.jsonl", in: batch, victim: victim)
        #expect(try runCLI(["render", "--batch", batch.path], stdin: Data(#"{"id":"x","tex":"a"}"#.utf8)).status == 0)
        // render --text: an image, the manifest and index.html.
        let text = root.appendingPathComponent("text")
        try FileManager.default.createDirectory(at: text, withIntermediateDirectories: true)
        for name in ["eq1.svg", "manifest.jsonl", "index.html"] { try plant(name, in: text, victim: victim) }
        #expect(try runCLI(["render", "--text", "-o", text.path], stdin: Data("a $x$ b".utf8)).status == 0)
        // render -o and say -o, --ssml-out.
        try plant("one.svg", in: root, victim: victim)
        #expect(try runCLI(["render", "x", "-o", root.appendingPathComponent("one.svg").path]).status == 0)
        try plant("one.wav", in: root, victim: victim)
        try plant("one.ssml", in: root, victim: victim)
        #expect(try runCLI(["say", "x", "-o", root.appendingPathComponent("one.wav").path,
                            "--ssml-out", root.appendingPathComponent("one.ssml").path]).status == 0)
        // say --batch: a WAV and the manifest.
        let voices = root.appendingPathComponent("voices")
        try FileManager.default.createDirectory(at: voices, withIntermediateDirectories: true)
        try plant("v.wav", in: voices, victim: victim)
        try plant("index.jsonl", in: voices, victim: victim)
        #expect(try runCLI(["say", "--batch", voices.path], stdin: Data(#"{"id":"v","tex":"x"}"#.utf8)).status == 0)

        #expect(try String(contentsOf: victim, encoding: .utf8) == "ORIG\n")
        for file in [batch.appendingPathComponent("x.svg"), batch.appendingPathComponent("manifest.jsonl"),
                     text.appendingPathComponent("eq1.svg"), text.appendingPathComponent("index.html"),
                     text.appendingPathComponent("manifest.jsonl"), root.appendingPathComponent("one.svg"),
                     root.appendingPathComponent("one.wav"), root.appendingPathComponent("one.ssml"),
                     voices.appendingPathComponent("v.wav"), voices.appendingPathComponent("index.jsonl")] {
            #expect(try isRegularFile(file), "\(file.lastPathComponent) is still a link")
        }
        // No temporary files are left behind.
        for dir in [root, batch, text, voices] {
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }

    // MARK: 2. say --batch reports broken audio; one exit-status rule for the four batches

    @Test func sayBatchCarriesDiagnosticsAndErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let matrix = #"\begin{pmatrix}"# + String(repeating: "1 & 2 \\\\ ", count: 30_000) + #"\end{pmatrix}"#
        let input = [#"{"id":"e2","tex":"\\def\\a{\\a x}\\a"}"#,
                     String(decoding: try JSONSerialization.data(withJSONObject: ["id": "big", "tex": matrix]), as: UTF8.self),
                     #"{"id":"ok","tex":"\\frac{1}{2"}"#].joined(separator: "\n")
        let r = try runCLI(["say", "--batch", dir.path], stdin: Data(input.utf8))
        #expect(r.status == 1)
        let manifest = try jsonLines(String(contentsOf: dir.appendingPathComponent("index.jsonl"), encoding: .utf8))
        try #require(manifest.count == 3)
        #expect((manifest[0]["error"] as? String)?.contains("tex.expansion-limit") == true)
        #expect(((manifest[0]["diagnostics"] as? [[String: Any]])?.map { $0["id"] as? String })?.contains("tex.expansion-limit") == true)
        #expect((manifest[1]["error"] as? String)?.contains("tex.input-too-large") == true)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("e2.wav").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("big.wav").path))
        // Voiced, with its error diagnostic in the manifest.
        #expect(manifest[2]["file"] as? String == "ok.wav")
        #expect((manifest[2]["diagnostics"] as? [[String: Any]])?.first?["id"] as? String == "tex.missing-brace")
    }

    @Test func batchExitStatusFollowsOneRule() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clean = Data(#"{"id":1,"tex":"x^2"}"#.utf8)
        let bad = Data((#"{"id":1,"tex":"x^2"}"# + "\n" + #"{"id":2,"tex":"\\frac{1}{"}"#).utf8)
        let commands: [[String]] = [["parse", "--batch"], ["speak", "--batch"], ["say", "--batch", dir.appendingPathComponent("s").path],
                                    ["render", "--batch", dir.appendingPathComponent("r").path]]
        for command in commands {
            #expect(try runCLI(command, stdin: clean).status == 0, "\(command) clean")
            #expect(try runCLI(command, stdin: bad).status == 1, "\(command) with errors")
            #expect(try runCLI(command + ["--no-such-option"], stdin: clean).status == 2, "\(command) usage")
        }
    }

    // MARK: 3. Unsafe markup does not pass through

    @Test func untrustedMarkupIsRefused() throws {
        // Refused with a warning: the content is read (and labelled), the link is not kept.
        let href = try runCLI(["parse", "--to", "mathml", #"\href{javascript:alert(1)}{x}"#])
        #expect(href.status == 0)
        #expect(!href.stdout.contains("href=") && href.stdout.contains("<mi>x</mi>"))
        #expect(href.stderr.contains("tex.untrusted-command"))
        for tex in [#"\url{https://example.org}"#, #"\htmlStyle{color:red}{x}"#, #"\htmlClass{c}{x}"#, #"\htmlId{i}{x}"#,
                    #"\includegraphics{https://e.org/x.png}"#] {
            let r = try runCLI(["parse", "--to", "mathml", tex])
            #expect(r.status == 0 && r.stderr.contains("tex.untrusted-command"), "\(tex)")
            #expect(!r.stdout.contains("href=") && !r.stdout.contains("style=") && !r.stdout.contains("class=") && !r.stdout.contains("src="), "\(tex)")
        }
        let mathml = try runCLI(["parse", "--mathml", "--to", "mathml",
                                 #"<math><mi onclick="alert(1)" style="background:url(javascript:alert(1))" href="javascript:x">x</mi></math>"#])
        #expect(!mathml.stdout.contains("onclick") && !mathml.stdout.contains("javascript") && !mathml.stdout.contains("style"))
        #expect(mathml.stderr.contains("mathml.untrusted-attribute"))
        // Trusted: links to allowed schemes are kept; javascript: and event handlers still are not.
        let trusted = try runCLI(["parse", "--trust", "--to", "mathml", #"\href{https://example.org}{x}\href{javascript:alert(1)}{y}"#])
        #expect(trusted.stdout.contains(#"href="https://example.org""#) && !trusted.stdout.contains(#"href="javascript"#))
        let handler = try runCLI(["parse", "--trust", "--mathml", "--to", "mathml", #"<math><mi ONCLICK="x" href="https://e.org">x</mi></math>"#])
        #expect(!handler.stdout.lowercased().contains("onclick") && handler.stdout.contains(#"href="https://e.org""#))
    }

    // MARK: 4. PDF output is capped

    @Test func hugePagesAreCappedInEveryFormat() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for ext in ["pdf", "png", "svg"] {
            let out = dir.appendingPathComponent("a.\(ext)")
            let r = try runCLI(["render", #"\rule{99999999pt}{99999999pt}"#, "-o", out.path])
            #expect(r.status == 0, "\(ext): \(r.stderr)")
            #expect(r.stderr.contains("render.page-too-large"), "\(ext)")
            #expect(FileManager.default.fileExists(atPath: out.path))
        }
        let pdf = try Data(contentsOf: dir.appendingPathComponent("a.pdf"))
        let text = String(decoding: pdf, as: UTF8.self)
        let box = try #require(text.firstMatch(of: #/MediaBox \[\s*0 0 ([0-9.]+) ([0-9.]+)/#))
        #expect(Double(box.1)! <= 14_400 && Double(box.2)! <= 14_400)
        let svg = try String(contentsOf: dir.appendingPathComponent("a.svg"), encoding: .utf8)
        let width = try #require(svg.firstMatch(of: #/width="([0-9.]+)/#))
        #expect(Double(width.1)! <= 14_400)
    }

    // MARK: 6. Unbounded input is capped; refused input is never read out

    @Test func standardInputAndBatchLinesAreCapped() throws {
        let big = Data(repeating: UInt8(ascii: "x"), count: 5_000)
        let r = try runCLI(["speak", "--max-input-bytes", "1000"], stdin: big)
        #expect(r.status == 1 && r.stdout.isEmpty && r.stderr.contains("over the limit of 1000"))
        // /dev/zero-like input: 17 MiB of NUL bytes is refused at the default 16 MiB.
        let zeros = try runCLI(["speak"], stdin: Data(count: 17 << 20))
        #expect(zeros.status == 1 && zeros.stderr.contains("over the limit"))
        let lines = #"{"id":1,"tex":"x"}"# + "\n" + #"{"id":2,"tex":""# + String(repeating: "y", count: 3_000) + "\"}\n" + #"{"id":3,"tex":"z"}"#
        let batch = try runCLI(["speak", "--batch", "--max-line-bytes", "2000"], stdin: Data(lines.utf8))
        #expect(batch.status == 1)
        let out = batch.stdout.split(separator: "\n")
        try #require(out.count == 3)
        #expect(out[1].contains("line 2 is 3017 bytes, over the limit of 2000"))
        #expect(out[2].contains(#""speech":"z""#))
        // A line of NUL bytes with no end at all: memory stays flat, the next line is read.
        let zeroLine = Data(count: 40 << 20) + Data("\n{\"id\":9,\"tex\":\"q\"}\n".utf8)
        let zeroBatch = try runCLI(["speak", "--batch"], stdin: zeroLine)
        #expect(zeroBatch.stdout.split(separator: "\n").count == 2)
        #expect(zeroBatch.stdout.contains(#""speech":"q""#))
    }

    /// `speak --batch < /dev/zero`: a line that never ends is reported as the last error line after
    /// 64 MiB and the command finishes (it used to read forever in flat memory).
    @Test func batchFromDevZeroFinishes() throws {
        let process = Process()
        process.executableURL = mathaloudURL()
        process.arguments = ["speak", "--batch"]
        process.standardInput = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try launch(process)
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: killer)
        let out = String(decoding: output.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
        process.waitUntilExit()
        killer.cancel()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 1 && out.contains("has no end after") && out.contains("not JSON Lines"), "\(out.prefix(300))")
    }

    @Test func refusedInputIsAnErrorNeverReadOut() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let malformed = "<math><mi>x</mi>" + String(repeating: "<mi>y</mi>", count: 20)
        for input in [malformed, #"<!DOCTYPE math [<!ENTITY a "b">]><math><mi>x</mi></math>"#] {
            let r = try runCLI(["speak", "--mathml"], stdin: Data(input.utf8))
            #expect(r.status == 1 && r.stdout.isEmpty, "\(r.stdout)")
            let wav = dir.appendingPathComponent("m.wav")
            let s = try runCLI(["say", "--mathml", "-o", wav.path], stdin: Data(input.utf8))
            #expect(s.status == 1 && !FileManager.default.fileExists(atPath: wav.path))
        }
        let huge = #"\begin{pmatrix}"# + String(repeating: "1 & 2 \\\\ ", count: 30_000) + #"\end{pmatrix}"#
        let wav = dir.appendingPathComponent("t.wav")
        let say = try runCLI(["say", "-o", wav.path], stdin: Data(huge.utf8))
        #expect(say.status == 1 && say.stdout.isEmpty && !FileManager.default.fileExists(atPath: wav.path))
        #expect(say.stderr.contains("tex.input-too-large"))
        let speak = try runCLI(["speak", "--batch"], stdin: Data(#"{"id":1,"mathml":"<math><mi>x</mi>"}"#.utf8))
        #expect(speak.stdout.contains(#""error":"#) && speak.stdout.contains("mathml.malformed"))
    }

    // MARK: 7. One output line per input line; precise errors for bad ids

    @Test func everyInputLineGetsOneOutputLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Data((#"{"id":1,"tex":"x"}"# + "\n\n   \n" + #"{"id":2,"tex":"y"}"# + "\n").utf8)
        let outputs = [try runCLI(["parse", "--batch"], stdin: input).stdout,
                       try runCLI(["speak", "--batch"], stdin: input).stdout,
                       try runCLI(["render", "--batch", dir.appendingPathComponent("r").path], stdin: input).stdout]
        _ = try runCLI(["say", "--batch", dir.appendingPathComponent("s").path], stdin: input)
        let manifest = try String(contentsOf: dir.appendingPathComponent("s/index.jsonl"), encoding: .utf8)
        for out in outputs + [manifest] {
            let lines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            try #require(lines.count == 4, "\(out)")
            #expect(lines[1] == #"{"error":"the line is empty","id":null}"# && lines[2] == lines[1], "\(out)")
        }
    }

    @Test func badIdsGetPreciseErrors() throws {
        let input = [#"{"id": 1e400, "tex": "x"}"#, #"{"id": "\ud800", "tex": "x"}"#,
                     #"{"id": "# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + #", "tex": "x"}"#]
        let r = try runCLI(["speak", "--batch"], stdin: Data(input.joined(separator: "\n").utf8))
        let lines = try jsonLines(r.stdout)
        try #require(lines.count == 3)
        #expect((lines[0]["error"] as? String)?.contains("the number 1e400 is out of range") == true)
        #expect((lines[1]["error"] as? String)?.contains(#"lone surrogate \ud800"#) == true)
        #expect((lines[2]["error"] as? String)?.contains("nested deeper than 64 levels") == true)
    }

    // MARK: 8. No silent fallbacks

    @Test func rulesOverridesThatCannotBeUsedAreErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("Rules/en")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try Data("style ClearSpeak\nlocale en\n# caf\u{E9}\n".utf8.map { $0 == 0xC3 ? 0xE9 : $0 }).write(to: rules.appendingPathComponent("clearspeak.rules"))
        let r = try runCLI(["speak", "--rules-dir", dir.path, "x"])
        #expect(r.status == 4 && r.stderr.contains("clearspeak.rules") && r.stderr.contains("not UTF-8"), "\(r.stderr)")
        try Data("style ClearSpeak\nlocale en\ninherit en/nothing\n".utf8).write(to: rules.appendingPathComponent("clearspeak.rules"))
        let inherit = try runCLI(["speak", "--rules-dir", dir.path, "x"])
        #expect(inherit.status == 4 && inherit.stderr.contains("en/clearspeak.rules:3") && inherit.stderr.contains("Rules/en/nothing.rules"),
                "\(inherit.stderr)")
    }

    @Test func mistakesAreReportedNotIgnored() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = try runCLI(["render", "x", "-o", dir.appendingPathComponent("x.gif").path])
        #expect(gif.status == 2 && gif.stderr.contains(".svg, .png or .pdf"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.gif").path))
        for macro in [#"\a#1=x"#, #"\m1=x"#] {
            let r = try runCLI(["speak", "--macro", macro, "x"])
            #expect(r.status == 2 && r.stderr.contains(macro), "\(macro): \(r.stderr)")
        }
        let unreadable = try runCLI(["speak", "--input", "/tmp"])
        #expect(unreadable.status == 3 && unreadable.stderr.contains("cannot read /tmp: Is a directory"))
        let missing = try runCLI(["speak", "--input", "/nonexistent-file"])
        #expect(missing.status == 3 && missing.stderr.contains("No such file or directory"))
        // ClearSpeak's Verbosity has its own levels: MathSpeak's 'brief' is a clear usage error naming them.
        let verbosity = try runCLI(["speak", "--verbosity", "brief", #"\frac{1}{2}"#])
        #expect(verbosity.status == 2 && verbosity.stderr.contains("unknown value 'brief' for preference Verbosity")
                && verbosity.stderr.contains("Medium, Terse, Verbose"), "\(verbosity.stderr)")
        let brief = try runCLI(["speak", "--style", "mathspeak", "--verbosity", "brief", #"\frac{a+1}{b}"#])
        #expect(brief.status == 0 && brief.stdout == "StartFrac a plus 1 Over b EndFrac\n", "\(brief.stderr)")
        let template = try runCLI(["speak", "--text", "--template", "Math: {speech}"], stdin: Data("Area $x^2$.".utf8))
        #expect(template.stdout == "Math: Area x squared.\n")
    }
}

/// The command line as users expect it: versions, suggestions, help, completion, `--text`.
@Suite struct CommandLineErgonomicsTests {
    @Test func version() throws {
        let r = try runCLI(["--version"])
        #expect(r.status == 0 && r.stdout.hasPrefix("mathaloud ") && r.stdout.split(separator: ".").count == 3)
    }

    @Test func mistypedOptionsAndValuesSuggestAndExit2() throws {
        let cases: [([String], String)] = [
            (["speak", "--verbosty", "brief", "x"], "did you mean '--verbosity'?"),
            (["speak", "--verbosity", "breif", "x"], "did you mean 'brief'?"),
            (["speak", "--style", "mathpeak", "x"], "did you mean 'mathspeak'?"),
            (["speak", "--pref", "Fractionz=Over", "x"], "did you mean 'Fractions'"),
            (["speak", "--pref", "Fractions=Ovr", "x"], "did you mean 'Over'?"),
            (["render", "x", "--format", "svgg"], "did you mean 'svg'?"),
            (["render", "x", "--font", "pagela", "-o", "-"], "did you mean 'pagella'?"),
            (["parse", "--to", "mathm", "x"], "did you mean 'mathml'?"),
            (["spek", "x"], "did you mean 'speak'?"),
        ]
        for (arguments, suggestion) in cases {
            let r = try runCLI(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains(suggestion), "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("usage: mathaloud"), "\(arguments)")
        }
    }

    /// A formula that starts with a minus is the formula, not an option, unless it is written as an
    /// option (`-x`): then the error says how to give it.
    @Test func formulasStartingWithAMinusAreFormulas() throws {
        for (formula, speech) in [("-x^2", "negative x squared"), ("-1", "negative 1"), (#"-\frac{1}{2}"#, "negative one half")] {
            let r = try runCLI(["speak", formula])
            #expect(r.status == 0 && r.stdout == speech + "\n", "\(formula): \(r.stderr)")
        }
        let letter = try runCLI(["speak", "-x"])
        #expect(letter.status == 2 && letter.stderr.contains("mathaloud speak -- '-x'"), "\(letter.stderr)")
        let separated = try runCLI(["speak", "--", "-x"])
        #expect(separated.status == 0 && separated.stdout == "negative x\n")
        let mistyped = try runCLI(["speak", "--locale=de", "-verbosity", "brief", "x"])
        #expect(mistyped.status == 2 && mistyped.stderr.contains("unknown option -verbosity"), "\(mistyped.stderr)")
    }

    @Test func helpListsEveryOption() throws {
        #expect(try runCLI(["render", "--help"]).stdout.contains("--macro"))
        #expect(try runCLI(["parse", "--help"]).stdout.contains("--entities"))
        #expect(try runCLI(["help", "say"]).stdout.contains("--list-voices"))
    }

    @Test func textMeansTheSameEverywhere() throws {
        let prose = Data("Area $x^2$.".utf8)
        #expect(try runCLI(["speak", "--text"], stdin: prose).stdout == "Area x squared.\n")
        #expect(try runCLI(["parse", "--text"], stdin: prose).stdout.contains("math inline $"))
        let say = try runCLIData(["say", "--text", "-o", "-"], stdin: prose)
        #expect(say.status == 0 && say.stdout.prefix(4) == Data("RIFF".utf8))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreValid(_ shell: String) throws {
        let r = try runCLI(["completion", shell])
        #expect(r.status == 0 && r.stdout.contains("verbosity") && r.stdout.contains("superbrief"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-completion-\(UUID().uuidString).\(shell)")
        try Data(r.stdout.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [shell, "-n", file.path]
        let err = Pipe()
        check.standardError = err
        try launch(check)
        let message = String(decoding: err.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "\(shell) -n: \(message)")
    }

    @Test func bashCompletionOffersOptionsAndValues() throws {
        let script = try runCLI(["completion", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-completion-\(UUID().uuidString).bash")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let probe = """
        source '\(file.path)'
        COMP_WORDS=(mathaloud render --form); COMP_CWORD=2; _mathaloud; echo "${COMPREPLY[*]}"
        COMP_WORDS=(mathaloud render --format ''); COMP_CWORD=3; _mathaloud; echo "${COMPREPLY[*]}"
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", probe]
        let out = Pipe()
        p.standardOutput = out
        try launch(p)
        let text = String(decoding: out.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text == "--format\nsvg png pdf\n")
    }
}
