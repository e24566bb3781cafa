import Foundation
import MathAloud
import MathAloudDocuments

/// The edits `--fix` would make to one file, and whether it may be rewritten.
public struct FixPlan: Sendable {
    /// The file.
    public var url: URL
    /// Its path as reported.
    public var file: String
    /// Edits per document: `nil` key for the file itself, an entry name for an EPUB's documents.
    public var edits: [String?: [TextEdit]]
    /// Why the file must not be rewritten, if it must not (transcoded text, a failure).
    public var blocked: String?
    /// CRC-32 and size of the bytes the edits were planned on (a file changed since is not written).
    public var checksum: UInt32
    /// Its size.
    public var size: Int

    /// Whether there is anything to write.
    public var isEmpty: Bool { edits.values.allSatisfy(\.isEmpty) }
}

/// What the audit found in one file.
public struct FileAudit: Sendable {
    /// The counts.
    public var summary: DocumentSummary
    /// The findings in document order.
    public var findings: [Finding]
    /// The fix, when one was asked for.
    public var plan: FixPlan?
    /// LaTeX: the files its `\input`/`\include` commands load (and theirs), each audited once with its
    /// own path and locations, in reading order; ``AuditRun`` reports each after the including file,
    /// once per run.
    public var included: [IncludedFile] = []

    /// Creates a file's audit.
    public init(summary: DocumentSummary, findings: [Finding], plan: FixPlan?, included: [IncludedFile] = []) {
        self.summary = summary
        self.findings = findings
        self.plan = plan
        self.included = included
    }

    /// An included LaTeX file's audit.
    public struct IncludedFile: Sendable {
        /// Where it is.
        public var url: URL
        /// Its audit (reported by its path from the including file's directory as given).
        public var audit: FileAudit
    }
}

/// Audits files: reads them, cuts them into formula sites with the segmenters, and judges every site.
/// Immutable and `Sendable`: one engine serves every worker thread.
public struct AuditEngine: Sendable {
    /// The judge.
    public let judge: FormulaJudge
    /// The configuration.
    public var configuration: AuditConfiguration { judge.configuration }
    /// The largest file read, in bytes (larger files are a `document.unreadable` finding). Default 64 MiB.
    public var maxFileSize = 64 << 20

    /// Creates an engine.
    public init(judge: FormulaJudge) { self.judge = judge }

    /// Audits one file.
    /// - Parameters:
    ///   - url: where it is.
    ///   - path: how to report it (relative to the audited directory).
    ///   - format: its format.
    ///   - root: the folder the configuration's globs are matched from (``AuditFileSet/Item/root``): a
    ///     LaTeX file this one includes is not audited when an `exclude` glob matches its path from
    ///     there (``AuditConfiguration/excludes(included:from:)``); default: the file's folder.
    ///   - planFixes: whether to plan the `--fix` edits too.
    public func audit(url: URL, path: String, format: FileFormat, root: URL? = nil, planFixes: Bool = false) -> FileAudit {
        var summary = DocumentSummary(file: path, format: format.rawValue)
        var findings: [Finding] = []
        func fail(_ rule: AuditRule, _ message: String) -> FileAudit {
            if let severity = configuration.severity(of: rule) {
                let finding = Finding(rule: rule, severity: severity, message: message, file: path, range: SourceRange(0, 0),
                                      start: SourceLocation(line: 1, column: 1), end: SourceLocation(line: 1, column: 1),
                                      lineText: "", formula: "")
                summary.count(finding)
                findings.append(finding)
            }
            return FileAudit(summary: summary, findings: findings, plan: nil)
        }
        if format == .epub { return auditEPUB(url: url, path: path, planFixes: planFixes) }
        let bytes: [UInt8]
        switch AuditEngine.read(url, limit: maxFileSize) {
        case .success(let b): bytes = b
        case .failure(let error): return fail(.unreadable, error.description)
        }
        summary.bytes = bytes.count
        // Binary data (a PNG named fake.md) is one finding, not hundreds of text findings.
        if let nul = DocumentSource.binaryOffset(of: bytes) {
            return fail(.unreadable, "the file is binary data, not a text document (a NUL byte at byte \(nul)); it was not audited")
        }
        var edits: [TextEdit] = []
        let document = Segmenters.segment(bytes, format: format, url: url, kramdown: configuration.kramdown)
        let transcoded = judge(document, file: path, entry: nil, summary: &summary, findings: &findings, edits: &edits)
        var included: [FileAudit.IncludedFile] = []
        let globRoot = root ?? url.deletingLastPathComponent()
        for include in document.includes {
            let includedURL = url.deletingLastPathComponent().appendingPathComponent(include.path).standardizedFileURL
            // An excluded file is not audited, whoever includes it (its definitions still count: the
            // document includes them); the files it includes are, unless excluded too.
            if configuration.excludes(included: includedURL, from: globRoot) { continue }
            // Reported by its path from the including file's directory as given (`tex/ch/one.tex`).
            let directory = (path as NSString).deletingLastPathComponent
            let file = include.path.hasPrefix("/") || directory.isEmpty ? include.path : Self.normalized(directory + "/" + include.path)
            var includedSummary = DocumentSummary(file: file, format: FileFormat.latex.rawValue, bytes: include.document.text.bytes.count)
            includedSummary.includedBy = path
            var includedFindings: [Finding] = []
            var ignored: [TextEdit] = []
            judge(include.document, file: file, entry: nil, summary: &includedSummary, findings: &includedFindings, edits: &ignored)
            included.append(.init(url: includedURL, audit: FileAudit(summary: includedSummary, findings: includedFindings, plan: nil)))
        }
        var plan: FixPlan? = nil
        if planFixes {
            let failed = findings.contains { $0.rule.isDocumentFailure }
            plan = FixPlan(url: url, file: path, edits: [nil: edits],
                           blocked: transcoded ? "the file is not UTF-8; it is not rewritten" : failed ? "the file could not be audited" : nil,
                           checksum: Deflate.crc32(bytes), size: bytes.count)
        }
        return FileAudit(summary: summary, findings: findings, plan: plan, included: included)
    }

    /// Segments and judges one document's bytes, adding to the counts; returns whether the text was
    /// transcoded (not UTF-8).
    @discardableResult
    func judgeDocument(_ bytes: [UInt8], format: FileFormat, file: String, entry: String?, url: URL,
                       summary: inout DocumentSummary, findings: inout [Finding], edits: inout [TextEdit]) -> Bool {
        let document = Segmenters.segment(bytes, format: format, url: entry == nil ? url : nil, kramdown: configuration.kramdown)
        return judge(document, file: file, entry: entry, summary: &summary, findings: &findings, edits: &edits)
    }

    /// Judges one segmented document, adding to the counts; returns whether the text was transcoded.
    @discardableResult
    func judge(_ document: AuditDocument, file: String, entry: String?,
               summary: inout DocumentSummary, findings: inout [Finding], edits: inout [TextEdit]) -> Bool {
        let context = DocumentContext(file: file, entry: entry, text: document.text, usesAriaLabel: document.usesAriaLabel,
                                      parsers: judge.parsers(definitions: document.definitions))
        var local: [Finding] = []
        for problem in document.problems {
            guard let severity = configuration.severity(of: problem.rule) else { continue }
            let start = document.text.location(of: problem.range.lowerBound), end = document.text.location(of: problem.range.upperBound)
            local.append(Finding(rule: problem.rule, severity: severity, message: problem.message, file: file, entry: entry,
                                 range: problem.range, start: start, end: end,
                                 lineText: FormulaJudge.clippedLine(document.excerptLine(start.line), column: start.column),
                                 formula: document.text[problem.range]))
        }
        for site in document.sites {
            summary.formulas += 1
            let verdict = judge.judge(site, in: context)
            if verdict.good { summary.good += 1 }
            local.append(contentsOf: verdict.findings)
            edits.append(contentsOf: verdict.edits)
        }
        if document.encoding == .windows1252 {
            // The judge's excerpts are the file's bytes as UTF-8: decode them in the file's encoding.
            for k in local.indices where !local[k].lineText.isEmpty {
                local[k].lineText = FormulaJudge.clippedLine(document.excerptLine(local[k].start.line), column: local[k].start.column)
            }
        }
        local.sort { ($0.range.lowerBound, $0.rule) < ($1.range.lowerBound, $1.rule) }
        for finding in local { summary.count(finding) }
        findings.append(contentsOf: local)
        return document.transcoded
    }

    /// An EPUB: every spine document, read from the archive in place.
    func auditEPUB(url: URL, path: String, planFixes: Bool) -> FileAudit {
        var summary = DocumentSummary(file: path, format: FileFormat.epub.rawValue)
        var findings: [Finding] = []
        func fail(_ rule: AuditRule, _ message: String, entry: String? = nil) {
            guard let severity = configuration.severity(of: rule) else { return }
            let finding = Finding(rule: rule, severity: severity, message: message, file: path, entry: entry, range: SourceRange(0, 0),
                                  start: SourceLocation(line: 1, column: 1), end: SourceLocation(line: 1, column: 1), lineText: "", formula: "")
            summary.count(finding)
            findings.append(finding)
        }
        if let error = AuditEngine.checkRegularFile(url, limit: Int.max) {
            fail(.unreadable, error.description)
            return FileAudit(summary: summary, findings: findings, plan: nil)
        }
        let container: EPUBContainer
        do { container = try EPUBContainer(url: url) } catch {
            fail(error.description.hasPrefix("not an EPUB") || error.description.contains("package") ? .malformed : .unreadable, error.description)
            return FileAudit(summary: summary, findings: findings, plan: nil)
        }
        var edits: [String?: [TextEdit]] = [:]
        var transcodedAny = false
        for document in container.spine {
            let type = document.mediaType.lowercased()
            guard type.contains("html") || type.contains("xml") || type.isEmpty else { continue }
            guard let entry = container.archive.entry(named: document.path) else {
                fail(.malformed, "the spine names \(document.path), which is not in the archive", entry: document.path)
                continue
            }
            let bytes: [UInt8]
            do { bytes = try container.archive.contents(of: entry) } catch {
                fail(.unreadable, error.description, entry: document.path)
                continue
            }
            summary.bytes += bytes.count
            var documentEdits: [TextEdit] = []
            let transcoded = judgeDocument(bytes, format: .epub, file: path, entry: document.path, url: url, summary: &summary, findings: &findings,
                          edits: &documentEdits)
            transcodedAny = transcodedAny || transcoded
            if !documentEdits.isEmpty { edits[document.path] = documentEdits }
        }
        var plan: FixPlan? = nil
        if planFixes {
            let failed = findings.contains { $0.rule.isDocumentFailure }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            plan = FixPlan(url: url, file: path, edits: edits,
                           blocked: transcodedAny ? "a document of the EPUB is not UTF-8; it is not rewritten" : failed ? "the EPUB could not be audited" : nil,
                           checksum: 0, size: size)
        }
        return FileAudit(summary: summary, findings: findings, plan: plan)
    }

    /// A path with `.` and `dir/..` steps removed (`tex/ch/../main.tex` → `tex/main.tex`).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// An I/O problem.
    struct ReadError: Error, CustomStringConvertible { let description: String }

    /// Why a file cannot be opened, from `open`'s or `stat`'s errno: a symbolic link whose target does
    /// not exist says so (it was "permission denied").
    static func openProblem(_ path: String, errno code: Int32) -> ReadError {
        var info = stat()
        if code == ENOENT, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " (\($0))" } ?? ""
            return ReadError(description: "cannot read the file: it is a symbolic link whose target\(target) does not exist")
        }
        return ReadError(description: "cannot read the file (\(String(cString: strerror(code)).lowercased()))")
    }

    /// Whether `url` is a regular file of at most `limit` bytes (a problem when it is not).
    static func checkRegularFile(_ url: URL, limit: Int) -> ReadError? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return openProblem(url.path, errno: errno) }
        if info.st_mode & S_IFMT == S_IFDIR { return ReadError(description: "is a directory") }
        if Int(info.st_size) > limit {
            return ReadError(description: "the file is \(info.st_size) bytes, more than the limit of \(limit)")
        }
        return nil
    }

    /// The bytes of a file, at most `limit` of them.
    static func read(_ url: URL, limit: Int) -> Result<[UInt8], ReadError> {
        if let problem = checkRegularFile(url, limit: limit) { return .failure(problem) }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(openProblem(url.path, errno: errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if n < 0 { return .failure(ReadError(description: "cannot read the file (\(String(cString: strerror(errno)).lowercased()))")) }
            if n == 0 { return .success(bytes) }
            if bytes.count + n > limit { return .failure(ReadError(description: "the file is larger than the limit of \(limit) bytes")) }
            bytes.append(contentsOf: buffer[0..<n])
        }
    }
}
