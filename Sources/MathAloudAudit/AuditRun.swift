import Foundation
import MathAloud

/// Progress of a run, for a progress bar.
public struct AuditProgress: Sendable {
    /// Files done and in all.
    public var filesDone = 0, files = 0
    /// Formulas found so far.
    public var formulas = 0
    /// Bytes read so far.
    public var bytes = 0
    /// Seconds since the start.
    public var elapsed: Double = 0
}

/// Audits a file set on every core and streams the results, in file order, to report writers.
public struct AuditRun: Sendable {
    /// The engine.
    public let engine: AuditEngine
    /// Worker threads (default: every core).
    public var threads = ProcessInfo.processInfo.activeProcessorCount

    /// Creates a run.
    public init(engine: AuditEngine) { self.engine = engine }

    /// Audits `files`, telling `writers` about each file in order, and returns the totals.
    /// `planFixes` collects every file's fix plan (small: edits only) through `plans`.
    @discardableResult
    public func run(_ files: AuditFileSet, shard: (index: Int, count: Int)? = nil, writers: inout [any AuditReportWriter],
                    planFixes: Bool = false, plans: ((FixPlan) -> Void)? = nil,
                    progress: ((AuditProgress) -> Void)? = nil) -> AuditSummary {
        for i in writers.indices { writers[i].begin(shard: shard) }
        var summary = AuditSummary()
        var state = AuditProgress()
        state.files = files.items.count
        let start = Date()
        let engine = self.engine
        let items = files.items
        // Each file is reported once: a LaTeX file included by two files (or given and included) is
        // reported after the first that includes it.
        var reported = Set<String>()
        OrderedPipeline.run(count: items.count, threads: threads, window: max(16, threads * 8), work: { i in
            engine.audit(url: items[i].url, path: items[i].path, format: items[i].format, root: items[i].root, planFixes: planFixes)
        }, consume: { i, audit in
            if reported.insert(items[i].url.standardizedFileURL.path).inserted {
                summary.add(audit.summary)
                for w in writers.indices { writers[w].add(audit) }
                if let plan = audit.plan { plans?(plan) }
            }
            for include in audit.included where reported.insert(include.url.path).inserted {
                summary.add(include.audit.summary)
                for w in writers.indices { writers[w].add(include.audit) }
                state.formulas += include.audit.summary.formulas
            }
            state.filesDone += 1
            state.formulas += audit.summary.formulas
            state.bytes += audit.summary.bytes
            state.elapsed = Date().timeIntervalSince(start)
            progress?(state)
        })
        for i in writers.indices { writers[i].finish(summary) }
        return summary
    }
}

/// Joins the JSON reports of the shards of one set into one report, as if the set had been audited in
/// one run: documents and their findings in path order, totals recomputed. Streams: each report is read
/// line by line (the layout ``JSONReportWriter`` writes), so memory stays flat.
public enum AuditMerge {
    /// A problem with a report.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        /// What is wrong.
        public let description: String
    }

    /// Line-by-line reader of one shard's report.
    final class ShardReader {
        let name: String
        private let handle: FileHandle
        private var buffer: [UInt8] = []
        private var position = 0
        private var eof = false
        var shard: (index: Int, count: Int)?

        init(url: URL) throws(Problem) {
            name = url.path
            guard let handle = FileHandle(forReadingAtPath: url.path) else { throw Problem(description: "\(url.path): cannot read") }
            self.handle = handle
        }

        deinit { try? handle.close() }

        func line() -> String? {
            while true {
                if let nl = buffer[position...].firstIndex(of: 0x0A) {
                    let s = String(decoding: buffer[position..<nl], as: UTF8.self)
                    position = nl + 1
                    return s
                }
                if eof {
                    guard position < buffer.count else { return nil }
                    let s = String(decoding: buffer[position...], as: UTF8.self)
                    position = buffer.count
                    return s
                }
                buffer.removeSubrange(0..<position)
                position = 0
                let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
                if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { eof = true }
            }
        }
    }

    static func parse(_ line: String, in name: String) throws(Problem) -> [String: Any] {
        var text = Substring(line)
        if text.hasSuffix(",") { text = text.dropLast() }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw Problem(description: "\(name): not a report written by `mathaloud audit --format json` (bad line)")
        }
        return object
    }

    /// One shard's report, read in two passes: findings, then documents.
    final class Shard {
        let findings: ShardReader
        let documents: ShardReader
        var pendingFinding: Finding?
        var nextDocument: DocumentSummary?
        var shard: (index: Int, count: Int)?
        let name: String

        init(url: URL) throws(Problem) {
            name = url.path
            findings = try ShardReader(url: url)
            documents = try ShardReader(url: url)
            guard let head = findings.line(), head.hasPrefix("{\"report\":\"mathaloud-audit\"") else {
                throw Problem(description: "\(name): not a report written by `mathaloud audit --format json`")
            }
            if let data = (head + "]}").data(using: .utf8), let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] {
                if let version = object["version"] as? Int, version != JSONReportWriter.version {
                    throw Problem(description: "\(name): report version \(version); this mathaloud reads version \(JSONReportWriter.version)")
                }
                if let s = object["shard"] as? [String: Int], let i = s["index"], let n = s["count"] { shard = (i, n) }
            }
            // Position the second reader at the documents.
            while let line = documents.line() { if line.hasPrefix("],\"documents\":[") { break } }
            try advanceDocument()
            try advanceFinding()
        }

        func advanceFinding() throws(Problem) {
            pendingFinding = nil
            guard let line = findings.line(), !line.hasPrefix("]") else { return }
            guard let finding = JSONReportWriter.finding(try AuditMerge.parse(line, in: name)) else {
                throw Problem(description: "\(name): a finding could not be read")
            }
            pendingFinding = finding
        }

        func advanceDocument() throws(Problem) {
            nextDocument = nil
            guard let line = documents.line(), !line.hasPrefix("]") else { return }
            guard let document = JSONReportWriter.document(try AuditMerge.parse(line, in: name)) else {
                throw Problem(description: "\(name): a document could not be read")
            }
            nextDocument = document
        }
    }

    /// Merges the reports at `urls` into `writers`; returns the totals. Shards must be of one set: the
    /// same count, each index once (a missing shard is an error, so a merged report is never silently short).
    @discardableResult
    public static func merge(_ urls: [URL], writers: inout [any AuditReportWriter]) throws(Problem) -> AuditSummary {
        var shards: [Shard] = []
        for url in urls { shards.append(try Shard(url: url)) }
        let declared = shards.compactMap(\.shard)
        if !declared.isEmpty {
            let counts = Set(declared.map(\.count))
            guard counts.count == 1, declared.count == shards.count else {
                throw Problem(description: "the reports are shards of different splits (or mix shards and whole runs)")
            }
            let count = counts.first!
            let indexes = declared.map(\.index)
            guard Set(indexes).count == indexes.count else { throw Problem(description: "a shard is given twice") }
            let missing = Set(1...count).subtracting(indexes).sorted()
            guard missing.isEmpty else {
                throw Problem(description: "shard\(missing.count > 1 ? "s" : "") \(missing.map(String.init).joined(separator: ", ")) of \(count) missing")
            }
        }
        for i in writers.indices { writers[i].begin(shard: nil) }
        var summary = AuditSummary()
        // A LaTeX file included by documents of two shards was audited in both: it is reported once.
        var reported = Set<String>()
        while true {
            // The shard whose next document comes first in path order.
            var best: Shard? = nil
            for shard in shards {
                guard let d = shard.nextDocument else { continue }
                if best == nil || d.file.utf8.lexicographicallyPrecedes(best!.nextDocument!.file.utf8) { best = shard }
            }
            guard let shard = best else { break }
            // The document, then the files it included (reported right after it, as in one run).
            repeat {
                guard let document = shard.nextDocument else { break }
                var findings: [Finding] = []
                while let f = shard.pendingFinding, f.file == document.file {
                    findings.append(f)
                    try shard.advanceFinding()
                }
                if reported.insert(document.file).inserted {
                    let audit = FileAudit(summary: document, findings: findings, plan: nil)
                    summary.add(document)
                    for i in writers.indices { writers[i].add(audit) }
                }
                try shard.advanceDocument()
            } while shard.nextDocument?.includedBy != nil
        }
        for shard in shards where shard.pendingFinding != nil {
            throw Problem(description: "\(shard.name): findings for a file that has no document line (\(shard.pendingFinding!.file))")
        }
        for i in writers.indices { writers[i].finish(summary) }
        return summary
    }
}
