import Foundation
import Testing
@testable import MathAloudAudit
import MathAloud

/// LaTeX `\input`/`\include` in the audit: included files are audited with their own paths and
/// locations (the sweep's item 13: `\undefinedone` in an included chapter was never checked, and the
/// file scored 100), relative to the including file (then to the document's directory), `.tex` added;
/// a missing file and a cycle are findings at the command; a file included twice is reported once.
@Suite struct IncludeTests {
    /// Collects what a run reports, file by file.
    struct Collector: AuditReportWriter {
        var files: [FileAudit] = []
        mutating func begin(shard: (index: Int, count: Int)?) {}
        mutating func add(_ file: FileAudit) { files.append(file) }
        mutating func finish(_ summary: AuditSummary) {}
    }

    /// A temporary folder holding `files` (path, text), written in order.
    func folder(_ files: [(path: String, text: String)]) -> FixtureDirectory {
        let dir = FixtureDirectory()
        for file in files { dir.write(file.path, file.text) }
        return dir
    }

    /// The files `inputs` name, audited from `dir` as the current directory.
    func fileSet(_ dir: FixtureDirectory, _ inputs: [String], configuration: AuditConfiguration = AuditConfiguration()) -> AuditFileSet {
        AuditFileSet(inputs: inputs, configuration: configuration, directory: URL(fileURLWithPath: dir.url.path, isDirectory: true))
    }

    func run(_ dir: FixtureDirectory, _ inputs: [String], configuration: AuditConfiguration = AuditConfiguration()) -> [FileAudit] {
        var writers: [any AuditReportWriter] = [Collector()]
        AuditRun(engine: AuditFixtures.engine(configuration)).run(fileSet(dir, inputs, configuration: configuration), writers: &writers)
        return (writers[0] as! Collector).files
    }

    func lines(_ files: [FileAudit]) -> [String] {
        files.flatMap { file in
            ["\(file.summary.file): \(file.summary.formulas) formulas"]
                + file.findings.map { "  \($0.file):\($0.start.line):\($0.start.column) \($0.rule.rawValue)" }
        }
    }

    @Test func includedFilesAreAuditedWithTheirOwnPathsOnce() {
        let dir = folder([
            ("tex/main.tex", "\\newcommand{\\myreals}{\\mathbb{R}}\nMain $a$.\n\\input{ch/one}\n\\include{missing}\n\\input{ch/one.tex}\n"),
            // `two` is found beside `one` (relative to the including file); `\myreals` is main's.
            ("tex/ch/one.tex", "One $x\\in\\myreals$\nand $\\undefinedone$ \\input{two} \\input{../appendix}\n"),
            ("tex/ch/two.tex", "Two $\\undefinedtwo$\n"),
            ("tex/appendix.tex", "Appendix $c$\n"),
            // Another document including two.tex: it was reported after main.tex's chapter, once.
            ("tex/other.tex", "Other \\input{ch/two}\n"),
        ])
        let files = run(dir, ["tex"])
        #expect(lines(files) == [
            "tex/main.tex: 1 formulas",
            "  tex/main.tex:4:1 document.missing-include",
            "tex/ch/one.tex: 2 formulas",
            "  tex/ch/one.tex:2:6 math.unknown-command",
            "tex/ch/two.tex: 1 formulas",
            "  tex/ch/two.tex:1:6 math.unknown-command",
            "tex/appendix.tex: 1 formulas",
            "tex/other.tex: 0 formulas",
        ], "\(lines(files))")
        // Given alone, the chapter is audited on its own (main's \myreals is unknown there), its includes
        // reported by their paths from the current directory.
        #expect(lines(run(dir, ["tex/ch/one.tex"])) == [
            "tex/ch/one.tex: 2 formulas",
            "  tex/ch/one.tex:1:10 math.unknown-command",
            "  tex/ch/one.tex:2:6 math.unknown-command",
            "tex/ch/two.tex: 1 formulas",
            "  tex/ch/two.tex:1:6 math.unknown-command",
            "tex/appendix.tex: 1 formulas",
        ], "\(lines(run(dir, ["tex/ch/one.tex"])))")
    }

    /// A file included by an included file (a book's chapter `\input`s its sections) is read with the
    /// whole document's definitions, the root's preamble's among them, as TeX reads it: only the
    /// chapter's own were given, and every preamble macro of a section was an unknown command (session
    /// 54, APEX Calculus). A definition made in a section holds for the files read after it.
    @Test func nestedIncludesReadTheRootsDefinitions() {
        let dir = folder([
            ("book.tex", "\\documentclass{book}\n\\input{headers/macros}\n\\begin{document}\n\\include{part1}\n\\input{part2}\n\\end{document}\n"),
            ("headers/macros.tex", "\\newcommand{\\dd}{\\operatorname{d}\\!}\n"),
            ("part1.tex", "Part $\\dd y$ \\input{text/sec1}\n"),
            ("text/sec1.tex", "\\newcommand{\\fp}{f'}\nSection $\\int x \\dd x$ and $\\undefinedone$\n"),
            ("part2.tex", "Later $\\fp(x)$\n"),
        ])
        #expect(lines(run(dir, ["book.tex"])) == [
            "book.tex: 0 formulas",
            "headers/macros.tex: 0 formulas",
            "part1.tex: 1 formulas",
            "text/sec1.tex: 2 formulas",
            "  text/sec1.tex:2:29 math.unknown-command",
            "part2.tex: 1 formulas",
        ], "\(lines(run(dir, ["book.tex"])))")
    }

    /// A file the `exclude` globs match is not audited when another file includes it (the walk left it
    /// out, and `\input` brought it back into the report); its definitions still count for the file
    /// that includes it, and a file it includes is audited unless excluded too. The globs are matched
    /// from the folder given, as the walk matches them (`..` for a file outside it), and from the
    /// current directory for a file given by name, which is audited whatever the globs say.
    @Test func excludedFilesAreNotAuditedThroughAnInclude() {
        let dir = folder([
            ("book/main.tex", "Main $\\R$ \\input{vendor/defs} \\input{ch/one} \\input{../shared/notes}\n"),
            ("book/vendor/defs.tex", "\\newcommand{\\R}{\\mathbb{R}}\nDefs $\\undefinedv$ \\input{ch/two}\n"),
            ("book/ch/one.tex", "One $\\undefinedone$\n"),
            ("book/ch/two.tex", "Two $\\undefinedtwo$\n"),
            ("shared/notes.tex", "Notes $\\undefinedn$\n"),
        ])
        func excluding(_ globs: String...) -> AuditConfiguration {
            var configuration = AuditConfiguration()
            configuration.exclude = globs.map(Glob.init)
            return configuration
        }
        let book = run(dir, ["book"], configuration: excluding("vendor/", "../shared/**"))
        #expect(lines(book) == [
            "book/main.tex: 1 formulas",
            "book/ch/two.tex: 1 formulas",
            "  book/ch/two.tex:1:6 math.unknown-command",
            "book/ch/one.tex: 1 formulas",
            "  book/ch/one.tex:1:6 math.unknown-command",
        ], "\(lines(book))")
        // A glob of a file name matches at any depth, here inside and outside the folder given.
        #expect(lines(run(dir, ["book"], configuration: excluding("defs.tex", "notes.tex", "two.tex"))) == [
            "book/main.tex: 1 formulas",
            "book/ch/one.tex: 1 formulas",
            "  book/ch/one.tex:1:6 math.unknown-command",
        ])
        // A file given by name: its includes are matched from the current directory (`ch/one.tex`, with
        // a `/`, is anchored there and matches nothing); a file given by name beside it is audited,
        // excluded or not, on its own (where `ch/two` is not found).
        let named = run(dir, ["book/main.tex", "book/vendor/defs.tex"],
                        configuration: excluding("book/vendor/**", "shared/", "ch/one.tex", "book/ch/two.tex"))
        #expect(lines(named) == [
            "book/main.tex: 1 formulas",
            "book/ch/one.tex: 1 formulas",
            "  book/ch/one.tex:1:6 math.unknown-command",
            "book/vendor/defs.tex: 1 formulas",
            "  book/vendor/defs.tex:2:7 math.unknown-command",
            "  book/vendor/defs.tex:2:20 document.missing-include",
        ], "\(lines(named))")
    }

    /// Shards merge to the one run's report: an included file is reported after the file that
    /// includes it (`includedBy` in the JSON), in that file's shard, and a file that documents of two
    /// shards include is reported once.
    @Test func shardsMergeToTheOneRunsReport() throws {
        let dir = folder([
            ("a.tex", "A $a$ \\input{z/ch}\n"),
            ("b.tex", "B $b$ \\input{z/ch}\n"),
            ("n.tex", "N $\\undefinedn$\n"),
            ("m.tex", "M $m$\n"),
            ("z/ch.tex", "Ch $\\undefinedch$\n"),
        ])
        func json(_ shard: (Int, Int)?) -> Data {
            var set = fileSet(dir, ["."])
            if let shard { set.restrict(toShard: shard.0, of: shard.1) }
            let output = ReportOutput(stream: nil)
            var writers: [any AuditReportWriter] = [JSONReportWriter(output: output)]
            AuditRun(engine: AuditFixtures.engine()).run(set, shard: shard, writers: &writers)
            output.flush()
            return Data(output.collected)
        }
        let whole = json(nil)
        let text = String(decoding: whole, as: UTF8.self)
        #expect(text.contains(#""file":"z/ch.tex""#) && text.contains(#""includedBy":"a.tex""#), "\(text)")
        for count in 2...4 {
            var urls: [URL] = []
            for index in 1...count {
                let url = dir.url.appendingPathComponent("shard\(index).json")
                try json((index, count)).write(to: url)
                urls.append(url)
            }
            let output = ReportOutput(stream: nil)
            var writers: [any AuditReportWriter] = [JSONReportWriter(output: output)]
            try AuditMerge.merge(urls, writers: &writers)
            output.flush()
            #expect(String(decoding: output.collected, as: UTF8.self) == text, "\(count) shards")
        }
    }

    /// A file that includes itself, and two files that include each other: a finding at the command,
    /// no hang, each file once.
    @Test func cyclesAreFindingsAndEnd() {
        let dir = folder([
            ("loop.tex", "Loop $a$ \\input{loop}\n"),
            ("p.tex", "P $p$ \\input{q}\n"),
            ("q.tex", "Q $q$ \\input{p}\n"),
        ])
        let files = run(dir, ["."])
        #expect(lines(files) == [
            "loop.tex: 1 formulas",
            "  loop.tex:1:10 document.include-cycle",
            "p.tex: 1 formulas",
            "q.tex: 1 formulas",
            "  q.tex:1:7 document.include-cycle",
        ], "\(lines(files))")
        let message = files[0].findings.first?.message
        #expect(message == "'loop' (loop.tex) includes itself: an include cycle; not followed again")
    }
}
