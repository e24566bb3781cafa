import Foundation
import Testing

/// `mathaloud audit` end to end: exit codes, formats (SARIF checked against the official 2.1.0 schema,
/// the HTML report opened in headless Chromium), shards merged equal to one run, `--fix`.
@Suite(.serialized) final class AuditCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sample = repository.appendingPathComponent("examples/audit-sample").path
    static let fixtures = repository.appendingPathComponent("Tests/MathAloudAuditTests/Fixtures")
    /// The PyPI tools scripts/install-deps.sh installs (a virtual environment of the project's own).
    static let tools = repository.appendingPathComponent(".build/python-tools/bin")

    /// The directories a test made, removed when it ends (each test runs on an instance of its own).
    private var made: [URL] = []

    deinit {
        for url in made { try? FileManager.default.removeItem(at: url) }
    }

    func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-audit-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        made.append(url)
        return url
    }

    /// A set of 48 files: the sample's four, copied under several names and folders.
    func documentSet() throws -> URL {
        let dir = temporaryDirectory()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.sample).filter { !$0.hasPrefix(".") }.sorted()
        for i in 0..<12 {
            let sub = dir.appendingPathComponent(i % 3 == 0 ? "part\(i)" : "part\(i)/deep")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for name in names {
                try FileManager.default.copyItem(atPath: Self.sample + "/" + name, toPath: sub.appendingPathComponent("\(i)-\(name)").path)
            }
        }
        return dir
    }

    @Test func exitCodesFollowFailOn() throws {
        #expect(try runCLI(["audit", Self.sample, "--no-progress"]).status == 1)
        #expect(try runCLI(["audit", Self.sample, "--fail-on", "never"]).status == 0)
        let clean = temporaryDirectory()
        try "Only good math: $x^2$.\n".write(to: clean.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        let result = try runCLI(["audit", clean.path, "--fail-on", "warning"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("1 file (1 with math), 1 formula, 1 good, accessibility score 100.0"))
        #expect(try runCLI(["audit", "/nonexistent/dir"]).status == 3)
        #expect(try runCLI(["audit", Self.sample, "--format", "yaml"]).status == 2)
        #expect(try runCLI(["audit", Self.sample, "--rule", "math.nope=off"]).status == 2)
    }

    @Test func fourShardsMergeIntoTheUnshardedReport() throws {
        let set = try documentSet()
        let out = temporaryDirectory()
        let whole = try runCLI(["audit", set.path, "--format", "json", "--fail-on", "never", "-o", out.appendingPathComponent("whole.json").path])
        #expect(whole.status == 0, "\(whole.stderr)")
        var shardFiles: [String] = []
        var shardSizes: [Int] = []
        for i in 1...4 {
            let file = out.appendingPathComponent("shard-\(i).json").path
            let r = try runCLI(["audit", set.path, "--format", "json", "--fail-on", "never", "--shard", "\(i)/4", "-o", file])
            #expect(r.status == 0, "\(r.stderr)")
            shardFiles.append(file)
            shardSizes.append(try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\"format\":").count - 1)
        }
        #expect(shardSizes.reduce(0, +) == 48 && shardSizes.allSatisfy { $0 > 0 }, "documents per shard: \(shardSizes)")
        let merged = try runCLI(["audit", "merge", "--format", "json"] + shardFiles.reversed())
        let expected = try String(contentsOfFile: out.appendingPathComponent("whole.json").path, encoding: .utf8)
        #expect(merged.stdout == expected)
        // The merged text and SARIF reports equal the unsharded ones too.
        for format in ["text", "sarif"] {
            let a = try runCLI(["audit", set.path, "--format", format, "--no-progress"])
            let b = try runCLI(["audit", "merge", "--format", format] + shardFiles)
            #expect(a.stdout == b.stdout, "\(format)")
        }
        let incomplete = try runCLI(["audit", "merge"] + shardFiles.dropLast())
        #expect(incomplete.status == 3 && incomplete.stderr.contains("shard 4 of 4 missing"))
        // The JSON is one valid document.
        let object = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as! [String: Any]
        #expect((object["documents"] as! [Any]).count == 48)
    }

    @Test func sarifIsValidAgainstTheOfficialSchema() throws {
        let out = temporaryDirectory()
        let set = try documentSet()
        // An EPUB too, so nested artifacts (parentIndex) are checked.
        let epub = set.appendingPathComponent("book.epub")
        try runPython("""
        import zipfile, sys
        with zipfile.ZipFile(sys.argv[1], "w") as z:
            z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
            z.writestr("META-INF/container.xml", '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="p.opf" media-type="application/oebps-package+xml"/></rootfiles></container>', zipfile.ZIP_DEFLATED)
            z.writestr("p.opf", '<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c" href="c%201.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>', zipfile.ZIP_DEFLATED)
            z.writestr("c 1.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml"><body><math><mi>x</mi></math></body></html>', zipfile.ZIP_DEFLATED)
        """, arguments: [epub.path])
        let sarif = out.appendingPathComponent("audit.sarif").path
        let r = try runCLI(["audit", set.path, "--format", "sarif", "-o", sarif, "--fail-on", "never"])
        #expect(r.status == 0, "\(r.stderr)")
        let check = try runProcess(Self.tools.appendingPathComponent("python").path, ["-c", """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        log = json.load(open(sys.argv[2]))
        jsonschema.Draft4Validator.check_schema(schema)
        errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
        for e in errors[:5]: print("invalid:", list(e.path), e.message)
        results = log["runs"][0]["results"]
        print("results", len(results), "nested", sum(1 for a in log["runs"][0]["artifacts"] if "parentIndex" in a))
        sys.exit(1 if errors else 0)
        """, Self.fixtures.appendingPathComponent("sarif-schema-2.1.0.json").path, sarif])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("nested 1"))
    }

    @Test func htmlReportRendersInHeadlessChromium() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Issue.record("chromium is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let out = temporaryDirectory()
        let html = out.appendingPathComponent("report.html")
        let r = try runCLI(["audit", Self.sample, "--format", "html", "-o", html.path, "--fail-on", "never"])
        #expect(r.status == 0)
        let text = try String(contentsOf: html, encoding: .utf8)
        #expect(!text.contains("src=\"http") && !text.contains("href=\"http"), "the report must be self-contained")
        // Opened sorted by severity, descending (the URL fragment the page reads).
        let dom = try runProcess(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000", "--dump-dom",
                                            html.absoluteString + "#sort=1,descending"])
        #expect(dom.stdout.contains("data-ready=\"true\""), "the report's script did not run: \(dom.stderr.suffix(400))")
        #expect(dom.stdout.contains("aria-sort=\"descending\""))
        let severities = dom.stdout.components(separatedBy: "<span class=\"sev ").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(!severities.isEmpty && severities == severities.sorted { ($0 == "error" ? 2 : 1) > ($1 == "error" ? 2 : 1) })
        #expect(dom.stdout.contains("<math"))
        let shot = out.appendingPathComponent("report.png")
        let screenshot = try runProcess(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,900",
                                                   "--virtual-time-budget=3000", "--screenshot=\(shot.path)", html.absoluteString])
        let png = (try? Data(contentsOf: shot)) ?? Data()
        #expect(png.count > 20_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "screenshot: \(screenshot.stderr.suffix(300))")
    }

    @Test func kubernetesJobIsValid() throws {
        let job = Self.repository.appendingPathComponent("deploy/kubernetes/audit-job.yaml").path
        let r = try runProcess(Self.tools.appendingPathComponent("kubernetes-validate").path, ["--strict", job])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let text = try String(contentsOfFile: job, encoding: .utf8)
        #expect(text.contains("completionMode: Indexed") && text.contains("--shard \"$((JOB_COMPLETION_INDEX + 1))/8\"") && text.contains("completions: 8"))
    }

    @Test func fixRefusesWhenAFileFailsUnlessForced() throws {
        let dir = temporaryDirectory()
        try "<p><math><mi>x</mi></math></p>\n".write(to: dir.appendingPathComponent("a.html"), atomically: true, encoding: .utf8)
        try "{\"cells\": [".write(to: dir.appendingPathComponent("broken.ipynb"), atomically: true, encoding: .utf8)
        let refused = try runCLI(["audit", dir.path, "--fix"])
        #expect(refused.status == 1 && refused.stderr.contains("--fix wrote nothing"))
        #expect(try String(contentsOf: dir.appendingPathComponent("a.html"), encoding: .utf8) == "<p><math><mi>x</mi></math></p>\n")
        let dry = try runCLI(["audit", dir.path, "--fix", "--dry-run", "--force"])
        #expect(dry.stdout.contains("+<p><math alttext=\"x\"><mi>x</mi></math></p>"), "\(dry.stdout)")
        let forced = try runCLI(["audit", dir.path, "--fix", "--force", "--fail-on", "never"])
        #expect(forced.status == 0 && forced.stderr.contains("wrote 1 label in 1 file"), "\(forced.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("a.html"), encoding: .utf8) == "<p><math alttext=\"x\"><mi>x</mi></math></p>\n")
    }

    /// As `convert`'s output and `--fix`'s files: a symbolic link at the report's name is refused, not
    /// replaced (audit replaced it while convert refused), and its target is left alone.
    @Test func aLinkedReportIsRefused() throws {
        let dir = temporaryDirectory()
        try "<p><math><mi>x</mi></math></p>\n".write(to: dir.appendingPathComponent("a.html"), atomically: true, encoding: .utf8)
        let target = dir.appendingPathComponent("target.txt"), link = dir.appendingPathComponent("report.txt")
        try "keep".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let r = try runCLI(["audit", dir.appendingPathComponent("a.html").path, "-o", link.path, "--fail-on", "never"])
        #expect(r.status == 3)
        #expect(r.stderr == "mathaloud: cannot write \(link.path): it is a symbolic link (not written through or replaced)\n")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        // A dangling link: refused the same way, nothing created at its target.
        let dangling = dir.appendingPathComponent("dangling.txt"), absent = dir.appendingPathComponent("absent.txt")
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: absent)
        let d = try runCLI(["audit", dir.appendingPathComponent("a.html").path, "-o", dangling.path, "--fail-on", "never"])
        #expect(d.status == 3)
        #expect(d.stderr == "mathaloud: cannot write \(dangling.path): it is a symbolic link (not written through or replaced)\n")
        #expect(!FileManager.default.fileExists(atPath: absent.path))
    }

    @Test func configurationFileIsFound() throws {
        let dir = temporaryDirectory()
        try "<p><math><mi>x</mi></math> $\\RR$</p>\n".write(to: dir.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        try "\\newcommand{\\RR}{\\mathbb{R}}\n".write(to: dir.appendingPathComponent("macros.tex"), atomically: true, encoding: .utf8)
        #expect(try runCLI(["audit", dir.path, "--format", "json"]).stdout.contains("math.unknown-command"))
        try #"{"rules": {"mathml.missing-label": "off"}, "macros": ["macros.tex"], "exclude": ["*.tex"]}"#
            .write(to: dir.appendingPathComponent(".mathaloud-audit.json"), atomically: true, encoding: .utf8)
        let r = try runCLI(["audit", dir.path])
        #expect(r.status == 0 && r.stdout.contains("1 file (1 with math), 2 formulas, 2 good"), "\(r.stdout)\(r.stderr)")
    }

    /// A LaTeX file `--exclude` or the configuration's `exclude` matches is not audited when another file
    /// includes it (it was reported, its formulas judged, through the `\input`); its macros still count.
    @Test func excludedFilesStayOutWhenIncluded() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("vendor"), withIntermediateDirectories: true)
        try "Main $\\R$ \\input{vendor/defs}\n".write(to: dir.appendingPathComponent("main.tex"), atomically: true, encoding: .utf8)
        try "\\newcommand{\\R}{\\mathbb{R}}\nDefs $\\undefinedv$\n"
            .write(to: dir.appendingPathComponent("vendor/defs.tex"), atomically: true, encoding: .utf8)
        let all = try runCLI(["audit", dir.path, "--no-progress"])
        #expect(all.status == 1 && all.stdout.contains("\(dir.path)/vendor/defs.tex:2:7: error: unknown command \\undefinedv"), "\(all.stdout)")
        let clean = "1 file (1 with math), 1 formula, 1 good, accessibility score 100.0\n0 findings: 0 errors, 0 warnings\n"
        let flag = try runCLI(["audit", dir.path, "--no-progress", "--exclude", "vendor/"])
        #expect(flag.status == 0 && flag.stdout.hasSuffix(clean) && !flag.stdout.contains("defs.tex"), "\(flag.stdout)")
        try #"{"exclude": ["vendor/**"]}"#.write(to: dir.appendingPathComponent(".mathaloud-audit.json"), atomically: true, encoding: .utf8)
        let configured = try runCLI(["audit", dir.path, "--no-progress", "--format", "json"])
        #expect(configured.status == 0 && !configured.stdout.contains("defs.tex"), "\(configured.stdout)")
        #expect(configured.stdout.contains(#""documents":1,"#))
    }

    /// The sweep's item 26: a mistake in the configuration is one line with the file, line and column
    /// (it printed the 40-line usage); a macro file that cannot be read is an I/O error, exit 3 (it was
    /// 2); a glob that matches nothing is an error, exit 2 (it said "0 files" and exited 0, so CI
    /// passed); an excerpt of a Windows-1252 file is decoded (it showed U+FFFD); `--fail-on note` is
    /// accepted and its error names it.
    @Test func configurationMistakesGlobsAndLegacyExcerpts() throws {
        let dir = temporaryDirectory()
        let doc = dir.appendingPathComponent("a.md").path
        try "x $a$\n".write(toFile: doc, atomically: true, encoding: .utf8)
        let config = dir.appendingPathComponent("c.json")
        try "{\n  \"rules\": {},\n  \"bogus\": 1\n}\n".write(to: config, atomically: true, encoding: .utf8)
        let unknown = try runCLI(["audit", doc, "--config", config.path])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "mathaloud: \(config.path):3:3: unknown key \"bogus\" (known: exclude, include, kramdown, labelTemplate, locale, macros, placeholders, preferences, rules, style)\n")
        try #"{"rules": {"math.no-such-rule": "off"}}"#.write(to: config, atomically: true, encoding: .utf8)
        #expect(try runCLI(["audit", doc, "--config", config.path]).stderr.hasPrefix("mathaloud: \(config.path):1:12: unknown rule \"math.no-such-rule\""))
        try #"{"macros": "absent.tex"}"#.write(to: config, atomically: true, encoding: .utf8)
        let missingInConfig = try runCLI(["audit", doc, "--config", config.path])
        #expect(missingInConfig.status == 3)
        #expect(missingInConfig.stderr == "mathaloud: \(config.path):1:2: cannot read the macro file \(dir.appendingPathComponent("absent.tex").path)\n")
        let missingFlag = try runCLI(["audit", doc, "--macros", dir.appendingPathComponent("absent.tex").path])
        #expect(missingFlag.status == 3)
        #expect(missingFlag.stderr == "mathaloud: --macros: cannot read \(dir.appendingPathComponent("absent.tex").path): No such file or directory\n")
        let glob = try runCLI(["audit", dir.path + "/nomatch/*.md"])
        #expect(glob.status == 2)
        #expect(glob.stderr == "mathaloud: '\(dir.path)/nomatch/*.md' matches no file\n")
        #expect(glob.stdout.isEmpty)
        let legacy = dir.appendingPathComponent("l.md")
        try Data([0x43, 0x61, 0x66, 0xE9, 0x20] + Array("$\\undefinedx$".utf8) + [0x0A]).write(to: legacy)
        let excerpt = try runCLI(["audit", legacy.path, "--format", "json"])
        #expect(excerpt.stdout.contains(#""excerpt":"Café $\\undefinedx$""#), "\(excerpt.stdout)")
        let note = try runCLI(["audit", doc, "--fail-on", "nope"])
        #expect(note.status == 2 && note.stderr.hasPrefix("mathaloud: --fail-on must be error, warning, note or never"), "\(note.stderr)")
        #expect(try runCLI(["audit", doc, "--fail-on", "note"]).status == 0)
    }
}

@discardableResult
func runProcess(_ executable: String, _ arguments: [String]) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try launch(process)
    let errData = ErrorCollector(error.fileHandleForReading)
    let outData = output.fileHandleForReading.readToEndRetrying()
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData.wait(), as: UTF8.self))
}

@discardableResult
func runPython(_ script: String, arguments: [String]) throws -> CLIResult {
    try runProcess("/usr/bin/env", ["python3", "-c", script] + arguments)
}
