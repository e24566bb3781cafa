import Foundation
import Testing
@testable import MathAloud

/// Issue 17 through the library: speech limits, the trust policy, option macros, safe files, bounded
/// line reading, refused input.
@Suite struct HardeningLibraryTests {
    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-lib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    // Defect 5: a rule file cannot explode output.
    @Test func explodingRulesStopAtTheirLimitNamingTheRule() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("en"), withIntermediateDirectories: true)
        try Data("""
        style ClearSpeak
        locale en
        inherit en/mathspeak

        rule bomb for root
          say {children} {children} {children} {children}
        """.utf8).write(to: dir.appendingPathComponent("en/clearspeak.rules"))
        let nested = String(repeating: #"\sqrt{"#, count: 15) + "x" + String(repeating: "}", count: 15)
        let steps = try Speaker(rulesDirectory: dir, speechLimits: SpeechLimits(maxRuleSteps: 20_000), cacheCapacity: 0)
        let spoken = steps.speak(tex: nested)
        #expect(spoken.text.isEmpty)
        let d = try #require(spoken.rejection)
        #expect(d.id == .speechStepLimit && d.message.contains("rule bomb (en/clearspeak.rules:5)"))
        let bytes = try Speaker(rulesDirectory: dir, speechLimits: SpeechLimits(maxOutputBytes: 10_000), cacheCapacity: 0)
        #expect(bytes.speak(tex: nested).rejection?.id == .speechOutputLimit)
        // The defaults leave real formulas alone.
        #expect(try Speaker().speak(tex: String(repeating: #"\sqrt{"#, count: 15) + "x" + String(repeating: "}", count: 15)).rejection == nil)
    }

    // Defect 3: the trust policy.
    @Test func trustPolicyReadsSchemesAsBrowsersDo() {
        #expect(TrustPolicy.scheme(of: " JaVa\tScRipt:alert(1)") == "javascript")
        #expect(TrustPolicy.scheme(of: "https://e.org") == "https")
        #expect(TrustPolicy.scheme(of: "/a/b:c") == nil)
        #expect(TrustPolicy.scheme(of: "a.html#x:y") == nil)
        #expect(TrustPolicy.untrusted.allows(url: "page.html") && !TrustPolicy.trusted.allows(url: "data:text/html,x"))
        #expect(TrustPolicy.isEventHandler("onClick") && TrustPolicy.isEventHandler("xlink:onload") && !TrustPolicy.isEventHandler("open"))
    }

    @Test func texAndMathMLApplyTheSamePolicy() {
        let untrusted = FormulaParser()
        let href = untrusted.parse(#"\href{https://e.org}{x}"#)
        #expect(href.diagnostics.map(\.id) == [.texUntrustedCommand] && href.root.children.first?.attributes == nil)
        let trusted = FormulaParser(texOptions: TeXParserOptions(trust: .trusted))
        #expect(trusted.parse(#"\href{https://e.org}{x}"#).root.children.first?.attributes == ["href": "https://e.org"])
        #expect(trusted.parse(#"\href{javascript:alert(1)}{x}"#).diagnostics.first?.id == .texUntrustedCommand)
        var links = TrustPolicy()
        links.allowed = [.links]
        let linkOnly = FormulaParser(texOptions: TeXParserOptions(trust: links))
        #expect(linkOnly.parse(#"\htmlStyle{color:red}{x}"#).diagnostics.first?.id == .texUntrustedCommand)
        let mathml = trusted.parse(#"<math><mi onmouseover="x" href="vbscript:y" style="color:red">x</mi></math>"#, notation: .mathml)
        #expect(mathml.root.firstLeaf?.attributes == ["style": "color:red"])
        // The writer never writes an event handler, whatever a tree built in code holds.
        let handBuilt = MathNode(.identifier("x", variant: nil), attributes: ["onclick": "x", "href": "javascript:y", "class": "c"])
        let written = MathMLWriter().write(handBuilt)
        #expect(!written.contains("onclick") && !written.contains("javascript") && written.contains(#"class="c""#))
    }

    // Defect 3, trusted styles: a style's url(…) is a URL like any other (only allowed schemes), and
    // what could hide one (CSS escapes, comments) or run script (expression, behavior) is refused.
    @Test func trustedStylesKeepOnlyAllowedURLs() {
        let policy = TrustPolicy.trusted
        #expect(policy.styleProblem("color:red; background:url('https://e.org/a.png')") == nil)
        #expect(policy.styleProblem("background:URL( \"JavaScript:alert(1)\" )") != nil)
        #expect(policy.styleProblem(#"background:u\72l(javascript:alert(1))"#) != nil)
        #expect(policy.styleProblem("background:url(/*x*/javascript:alert(1))") != nil)
        #expect(policy.styleProblem("width:expression(alert(1))") != nil)
        let trusted = FormulaParser(texOptions: TeXParserOptions(trust: .trusted))
        let tex = trusted.parse(#"\htmlStyle{background:url(javascript:alert(1))}{x}"#)
        #expect(tex.diagnostics.map(\.id) == [.texUntrustedCommand] && tex.root.children.first?.attributes == nil)
        #expect(trusted.parse(#"\htmlStyle{color:red}{x}"#).root.children.first?.attributes == ["style": "color:red"])
        let mathml = trusted.parse(#"<math><mi style="background:url(javascript:alert(1))">x</mi></math>"#, notation: .mathml)
        #expect(mathml.root.firstLeaf?.attributes?["style"] == nil && mathml.diagnostics.contains { $0.id == .mathMLUntrustedAttribute })
        let written = MathMLWriter().write(MathNode(.identifier("x", variant: nil), attributes: ["style": "background:url(vbscript:x)"]))
        #expect(!written.contains("vbscript"))
    }

    // Defect 8: macros of the options with names no input can call.
    @Test func badOptionMacroNamesAreReported() {
        #expect(TeXParserOptions.problem(withMacroName: #"\RR"#) == nil && TeXParserOptions.problem(withMacroName: "!") == nil)
        #expect(TeXParserOptions.problem(withMacroName: #"\a#1"#) != nil && TeXParserOptions.problem(withMacroName: #"\m1"#) != nil)
        let parser = TeXParser(options: TeXParserOptions(macros: [#"\m1"#: "x", #"\RR"#: #"\mathbb{R}"#]))
        let result = parser.parse(#"\RR"#)
        #expect(result.diagnostics.map(\.id) == ["tex.bad-definition"])
        #expect(result.diagnostics[0].message.contains(#"\m1"#))
    }

    // Fix-its suggest close names only.
    @Test func unknownCommandFixItsAreClose() {
        func fixIt(_ tex: String) -> String? {
            TeXParser().parse(tex).diagnostics.first { $0.id == .texUnknownCommand }?.fixIts.first?.replacement
        }
        #expect(fixIt(#"\foo x"#) == nil)
        #expect(fixIt(#"\frca{1}{2}"#) == #"\frac"#)
        #expect(fixIt(#"\alpah"#) == #"\alpha"#)
        #expect(fixIt(#"\rightarow"#) == #"\rightarrow"#)
        #expect(EditDistance.between(Array("breif"), Array("brief")) == 1)
        #expect(EditDistance.suggestions(for: "foo", among: ["Box", "for", "fox"]) == ["for", "fox"])
    }

    // Defect 1: the one writer every output goes through.
    @Test func outputFileReplacesLinksAndLeavesNothingBehind() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim")
        try Data("ORIG".utf8).write(to: victim)
        let target = dir.appendingPathComponent("out.txt")
        try FileManager.default.createSymbolicLink(at: target, withDestinationURL: victim)
        try OutputFile.write("new", to: target)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "ORIG")
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect(try FileManager.default.destinationOfSymbolicLinkSafe(target) == nil)
        // A streamed file appears only when committed; a discarded one never.
        let streamed = try OutputFile(dir.appendingPathComponent("s.jsonl"))
        try streamed.append("a\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.jsonl").path))
        try streamed.commit()
        #expect(try String(contentsOf: dir.appendingPathComponent("s.jsonl"), encoding: .utf8) == "a\n")
        let dropped = try OutputFile(dir.appendingPathComponent("d.jsonl"))
        dropped.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["out.txt", "s.jsonl", "victim"])
        // Errors say why.
        #expect(throws: OutputFileError(path: "/nonexistent-dir/x", operation: "create", reason: "No such file or directory")) {
            try OutputFile.write("x", to: URL(fileURLWithPath: "/nonexistent-dir/x"))
        }
    }

    // Defects 6 and 7: bounded lines, one result per line.
    @Test func boundedLineReader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("in")
        var data = Data("a\r\n\n".utf8) + Data(repeating: 0x7A, count: 300_000) + Data("\nb".utf8)
        try data.write(to: file)
        let fd = open(file.path, O_RDONLY)
        defer { close(fd) }
        var reader = BoundedLineReader(fileDescriptor: fd, limit: 1000)
        var lines: [BoundedLineReader.Line] = []
        while let l = reader.next() { lines.append(l) }
        #expect(lines == [.text(Array("a".utf8)), .text([]), .tooLong(bytes: 300_000), .text(Array("b".utf8))])
        data = Data()
    }

    /// A line that never ends (`speak --batch < /dev/zero`) stops the reader after the skip bound
    /// instead of reading forever; the lines before it are kept.
    @Test func endlessLineStopsTheReader() throws {
        let fd = open("/dev/zero", O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var reader = BoundedLineReader(fileDescriptor: fd, limit: 1000, maxSkipBytes: 1 << 20)
        var lines: [BoundedLineReader.Line] = []
        while let l = reader.next() { lines.append(l) }
        #expect(lines.count == 1)
        guard case .endless(let bytes)? = lines.first else { Issue.record("\(lines)"); return }
        #expect(bytes > 1 << 20 && bytes < 4 << 20)
    }

    @Test func refusedFormulasAreErrorResponses() {
        let processor = SpeechBatchProcessor()
        let out = processor.process(FormulaRequest(id: 1, input: .mathml("<math><mi>x</mi>")))
        guard case .failure(let e) = out else { Issue.record("\(out)"); return }
        #expect(e.message.contains("[mathml.malformed]") && e.diagnostics.first?.id == .mathMLMalformed)
        // In prose, one refused formula does not refuse the whole text.
        let prose = processor.process(FormulaRequest(id: 2, input: .text("a $\\def\\a{\\a x}\\a$ b")))
        guard case .success(let r) = prose else { Issue.record("\(prose)"); return }
        #expect(r.speech == "a b" && r.diagnostics.contains { $0.id == "tex.expansion-limit" })
    }
}

extension FileManager {
    /// The target of a symbolic link at `url`, or nil when it is not one.
    fileprivate func destinationOfSymbolicLinkSafe(_ url: URL) throws -> String? {
        (try? attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeSymbolicLink
            ? try destinationOfSymbolicLink(atPath: url.path) : nil
    }
}

extension MathNode {
    fileprivate var firstLeaf: MathNode? { children.isEmpty ? self : children.lazy.compactMap(\.firstLeaf).first }
}
