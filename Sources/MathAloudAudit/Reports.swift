import Foundation
import MathAloud

/// Where a report goes: bytes written in large blocks to standard output (or a sink, or memory).
public final class ReportOutput: @unchecked Sendable {
    private var buffer: [UInt8] = []
    private let stream: StandardStream?
    private let sink: ((Data) -> Void)?
    /// What was written, when collecting in memory.
    public private(set) var collected: [UInt8] = []

    /// Writes to `stream`; with `nil`, collects in memory (``collected``).
    public init(stream: StandardStream?) {
        self.stream = stream
        self.sink = nil
    }

    /// Hands each flushed piece to `sink` (e.g. a file written atomically).
    public init(sink: @escaping (Data) -> Void) {
        self.stream = nil
        self.sink = sink
    }

    /// Appends text.
    public func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        if let stream { stream.write(buffer) } else if let sink { sink(Data(buffer)) } else { collected.append(contentsOf: buffer) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A report format: it is told about the run, then each file in order, then the totals, and writes as
/// it goes (results are streamed: nothing but the per-document counts is kept).
public protocol AuditReportWriter {
    /// Starts the report. `shard` is (index, count) for a shard's report.
    mutating func begin(shard: (index: Int, count: Int)?)
    /// One file's results.
    mutating func add(_ file: FileAudit)
    /// The totals; ends the report.
    mutating func finish(_ summary: AuditSummary)
}

/// The report formats of `mathaloud audit --format`.
public enum AuditReportFormat: String, Sendable, CaseIterable {
    /// Compiler-style lines with a caret excerpt, then totals.
    case text
    /// One JSON document, one finding per line (mergeable with `audit merge`).
    case json
    /// SARIF 2.1.0.
    case sarif
    /// A self-contained HTML page.
    case html

    /// A writer of this format.
    public func writer(to output: ReportOutput, color: Bool = false, verbose: Bool = true) -> any AuditReportWriter {
        switch self {
        case .text: TextReportWriter(output: output, color: color, verbose: verbose)
        case .json: JSONReportWriter(output: output)
        case .sarif: SARIFReportWriter(output: output)
        case .html: HTMLReportWriter(output: output)
        }
    }
}

// MARK: - Text

/// `file:line:col: severity: message [rule]`, the source line with a caret, the formula, what it reads
/// as and the fix; then the totals by rule and severity and the score.
public struct TextReportWriter: AuditReportWriter {
    let output: ReportOutput
    let color: Bool
    let verbose: Bool

    /// Creates a writer.
    public init(output: ReportOutput, color: Bool = false, verbose: Bool = true) {
        self.output = output
        self.color = color
        self.verbose = verbose
    }

    public mutating func begin(shard: (index: Int, count: Int)?) {}

    public mutating func add(_ file: FileAudit) {
        for finding in file.findings { output.write(Self.render(finding, color: color, verbose: verbose)) }
    }

    /// One finding in the compiler style.
    public static func render(_ f: Finding, color: Bool = false, verbose: Bool = true) -> String {
        let (bold, red, yellow, cyan, reset) = color ? ("\u{1B}[1m", "\u{1B}[31m", "\u{1B}[33m", "\u{1B}[36m", "\u{1B}[0m") : ("", "", "", "", "")
        let tint = f.severity == .error ? red : f.severity == .warning ? yellow : cyan
        var out = "\(bold)\(f.displayPath):\(f.start.line):\(f.start.column):\(reset) \(tint)\(bold)\(f.severity.rawValue):\(reset) \(bold)\(f.message)\(reset) [\(f.rule.rawValue)]\n"
        if !f.lineText.isEmpty {
            // The excerpt may be clipped (a leading "…"): find the column within it.
            let scalars = Array(f.lineText.unicodeScalars)
            var caret = f.start.column - 1
            if scalars.first == "…" {
                // clippedLine starts the window at column − 60 (or earlier near the end of the line).
                caret = min(60, max(0, scalars.count - 1)) + 1
                if f.start.column - 1 < 60 { caret = f.start.column - 1 }
            }
            caret = max(0, min(caret, scalars.count))
            let length = f.start.line == f.end.line ? max(1, min(f.end.column - f.start.column, scalars.count - caret)) : max(1, scalars.count - caret)
            var line = ""
            line.unicodeScalars.append(contentsOf: scalars.map { $0 == "\t" ? " " : $0 })
            out += "  \(line)\n  \(String(repeating: " ", count: caret))\(tint)^\(String(repeating: "~", count: max(0, length - 1)))\(reset)\n"
        }
        if verbose {
            if !f.formula.isEmpty, f.kind != nil { out += "  formula: \(oneLine(f.formula, 200))\n" }
            if let speech = f.speech { out += "  reads as: \(oneLine(speech, 200))\n" }
            if let suggestion = f.suggestion { out += "  fix: \(oneLine(suggestion, 240))\n" }
        }
        return out
    }

    static func oneLine(_ s: String, _ limit: Int) -> String {
        let flat = s.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit)) + "…"
    }

    public mutating func finish(_ summary: AuditSummary) {
        output.write(Self.summaryText(summary))
        output.flush()
    }

    /// The totals as text.
    public static func summaryText(_ s: AuditSummary) -> String {
        var out = "\n\(s.documents) file\(s.documents == 1 ? "" : "s") (\(s.documentsWithMath) with math), \(s.formulas) formula\(s.formulas == 1 ? "" : "s"), \(s.good) good"
        if let score = s.score { out += ", accessibility score \(String(format: "%.1f", score))" }
        out += "\n"
        let errors = s.findingsBySeverity[.error] ?? 0, warnings = s.findingsBySeverity[.warning] ?? 0, notes = s.findingsBySeverity[.note] ?? 0
        out += "\(s.findings) finding\(s.findings == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\(notes > 0 ? ", \(notes) note\(notes == 1 ? "" : "s")" : "")\n"
        for (rule, n) in s.findingsByRule.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            out += "  \(String(n).leftPadded(7))  \(rule.rawValue)\n"
        }
        return out
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

// MARK: - JSON

/// The JSON report: one object, laid out so that each finding and each document is one line —
/// valid JSON for any reader, and a stream `audit merge` can join without holding it whole.
///
/// ```
/// {"report":"mathaloud-audit","version":1,"findings":[
/// {…finding…},
/// {…finding…}
/// ],"documents":[
/// {…document…}
/// ],"summary":{…}}
/// ```
public struct JSONReportWriter: AuditReportWriter {
    let output: ReportOutput
    private var documents: [DocumentSummary] = []
    private var first = true

    /// The report format's version (the `version` key).
    public static let version = 1

    /// Creates a writer.
    public init(output: ReportOutput) { self.output = output }

    public mutating func begin(shard: (index: Int, count: Int)?) {
        var head = "{\"report\":\"mathaloud-audit\",\"version\":\(Self.version)"
        if let shard { head += ",\"shard\":{\"count\":\(shard.count),\"index\":\(shard.index)}" }
        output.write(head + ",\"findings\":[")
    }

    public mutating func add(_ file: FileAudit) {
        for finding in file.findings {
            output.write(first ? "\n" : ",\n")
            first = false
            output.write(Self.encode(finding))
        }
        documents.append(file.summary)
    }

    public mutating func finish(_ summary: AuditSummary) {
        output.write("\n],\"documents\":[")
        for (i, d) in documents.enumerated() {
            output.write(i == 0 ? "\n" : ",\n")
            output.write(AuditJSON.encode(Self.object(d)))
        }
        output.write("\n],\"summary\":" + AuditJSON.encode(Self.object(summary)) + "}\n")
        output.flush()
    }

    /// A finding as one line of JSON, keys in sorted order (as ``object(_:)`` with sorted keys, written
    /// directly: the report writes one per finding).
    public static func encode(_ f: Finding) -> String {
        var out = "{"
        func key(_ k: String) { if out.count > 1 { out += "," }; out += "\"\(k)\":" }
        func string(_ k: String, _ v: String?) {
            guard let v else { return }
            key(k)
            // Most strings need no escaping: copy them whole.
            if v.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) { out += "\""; out += v; out += "\"" } else { JSONString.append(v, to: &out) }
        }
        func int(_ k: String, _ v: Int) { key(k); out += String(v) }
        int("column", f.start.column)
        string("diagnostic", f.diagnosticID)
        int("end", f.range.upperBound)
        int("endColumn", f.end.column)
        int("endLine", f.end.line)
        string("entry", f.entry)
        string("excerpt", f.lineText)
        string("file", f.file)
        string("fixLabel", f.fixLabel)
        string("formula", f.formula)
        string("kind", f.kind?.rawValue)
        int("line", f.start.line)
        string("message", f.message)
        string("rule", f.rule.rawValue)
        string("severity", f.severity.rawValue)
        string("speech", f.speech)
        int("start", f.range.lowerBound)
        string("suggestion", f.suggestion)
        return out + "}"
    }

    /// A finding as a JSON-ready dictionary.
    public static func object(_ f: Finding) -> [String: Any] {
        var o: [String: Any] = ["rule": f.rule.rawValue, "severity": f.severity.rawValue, "message": f.message, "file": f.file,
                                "line": f.start.line, "column": f.start.column, "endLine": f.end.line, "endColumn": f.end.column,
                                "start": f.range.lowerBound, "end": f.range.upperBound, "excerpt": f.lineText, "formula": f.formula]
        if let entry = f.entry { o["entry"] = entry }
        if let kind = f.kind { o["kind"] = kind.rawValue }
        if let id = f.diagnosticID { o["diagnostic"] = id }
        if let speech = f.speech { o["speech"] = speech }
        if let suggestion = f.suggestion { o["suggestion"] = suggestion }
        if let label = f.fixLabel { o["fixLabel"] = label }
        return o
    }

    /// A finding read back from ``object(_:)``.
    public static func finding(_ o: [String: Any]) -> Finding? {
        guard let rule = (o["rule"] as? String).flatMap(AuditRule.init(rawValue:)),
              let severity = (o["severity"] as? String).flatMap(Diagnostic.Severity.init(rawValue:)),
              let message = o["message"] as? String, let file = o["file"] as? String,
              let line = o["line"] as? Int, let column = o["column"] as? Int, let endLine = o["endLine"] as? Int,
              let endColumn = o["endColumn"] as? Int, let start = o["start"] as? Int, let end = o["end"] as? Int else { return nil }
        return Finding(rule: rule, severity: severity, message: message, file: file, entry: o["entry"] as? String,
                       range: SourceRange(start, end), start: SourceLocation(line: line, column: column),
                       end: SourceLocation(line: endLine, column: endColumn), lineText: o["excerpt"] as? String ?? "",
                       formula: o["formula"] as? String ?? "", kind: (o["kind"] as? String).flatMap(FormulaSite.Kind.init(rawValue:)),
                       diagnosticID: o["diagnostic"] as? String, speech: o["speech"] as? String,
                       suggestion: o["suggestion"] as? String, fixLabel: o["fixLabel"] as? String)
    }

    static func counts<K: RawRepresentable>(_ map: [K: Int]) -> [String: Int] where K.RawValue == String {
        Dictionary(uniqueKeysWithValues: map.map { ($0.key.rawValue, $0.value) })
    }

    /// A document's counts as a JSON-ready dictionary.
    public static func object(_ d: DocumentSummary) -> [String: Any] {
        var o: [String: Any] = ["file": d.file, "format": d.format, "bytes": d.bytes, "formulas": d.formulas, "good": d.good,
                                "findings": d.findings, "byRule": counts(d.findingsByRule), "bySeverity": counts(d.findingsBySeverity)]
        if let score = d.score { o["score"] = score }
        if let includedBy = d.includedBy { o["includedBy"] = includedBy }
        return o
    }

    /// A document's counts read back.
    public static func document(_ o: [String: Any]) -> DocumentSummary? {
        guard let file = o["file"] as? String, let format = o["format"] as? String else { return nil }
        var d = DocumentSummary(file: file, format: format, bytes: o["bytes"] as? Int ?? 0, formulas: o["formulas"] as? Int ?? 0,
                                good: o["good"] as? Int ?? 0)
        for (k, v) in o["byRule"] as? [String: Int] ?? [:] { if let rule = AuditRule(rawValue: k) { d.findingsByRule[rule] = v } }
        for (k, v) in o["bySeverity"] as? [String: Int] ?? [:] {
            if let severity = Diagnostic.Severity(rawValue: k) { d.findingsBySeverity[severity] = v }
        }
        d.includedBy = o["includedBy"] as? String
        return d
    }

    /// The totals as a JSON-ready dictionary.
    public static func object(_ s: AuditSummary) -> [String: Any] {
        var o: [String: Any] = ["documents": s.documents, "documentsWithMath": s.documentsWithMath, "bytes": s.bytes,
                                "formulas": s.formulas, "good": s.good, "findings": s.findings, "failedDocuments": s.failedDocuments,
                                "byRule": counts(s.findingsByRule), "bySeverity": counts(s.findingsBySeverity)]
        if let score = s.score { o["score"] = score }
        return o
    }
}

// MARK: - SARIF

/// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format): one run whose driver lists every
/// rule; results stream as files are audited. Files inside an EPUB are artifacts whose `parentIndex`
/// is the EPUB (SARIF §3.24.3). Columns count Unicode code points (`columnKind`, §3.14.17).
public struct SARIFReportWriter: AuditReportWriter {
    let output: ReportOutput
    private var first = true
    private var artifacts: [[String: Any]] = []
    private var artifactIndex: [String: Int] = [:]

    /// Creates a writer.
    public init(output: ReportOutput) { self.output = output }

    /// The tool's version as reported.
    public static let toolVersion = "0.1.0"

    public mutating func begin(shard: (index: Int, count: Int)?) {
        let rules: [[String: Any]] = AuditRule.allCases.map { rule in
            ["id": rule.rawValue, "name": rule.title.replacingOccurrences(of: " ", with: ""),
             "shortDescription": ["text": rule.title], "fullDescription": ["text": rule.explanation],
             "defaultConfiguration": ["level": rule.defaultSeverity.rawValue],
             "help": ["text": rule.explanation]]
        }
        let driver: [String: Any] = ["name": "MathAloud audit", "version": Self.toolVersion, "semanticVersion": Self.toolVersion,
                                     "informationUri": "https://github.com/mathaloud/mathaloud", "rules": rules]
        let head = "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
            + AuditJSON.encode(driver) + "},\"columnKind\":\"unicodeCodePoints\","
            + "\"originalUriBaseIds\":{\"SRCROOT\":{\"description\":{\"text\":\"The directory the audit ran in: every uri is relative to it.\"}}},\"results\":["
        output.write(head)
    }

    mutating func artifact(for f: Finding) -> [String: Any] {
        func index(_ key: String, _ make: () -> [String: Any]) -> Int {
            if let i = artifactIndex[key] { return i }
            artifacts.append(make())
            artifactIndex[key] = artifacts.count - 1
            return artifacts.count - 1
        }
        let fileURI = Self.uri(f.file)
        let fileIndex = index(f.file) { ["location": ["uri": fileURI, "uriBaseId": "SRCROOT"]] }
        guard let entry = f.entry else { return ["uri": fileURI, "uriBaseId": "SRCROOT", "index": fileIndex] }
        let entryIndex = index(f.file + "\u{0}" + entry) { ["location": ["uri": Self.uri(entry)], "parentIndex": fileIndex] }
        return ["uri": Self.uri(entry), "index": entryIndex]
    }

    /// A relative path as a URI reference (RFC 3986: characters outside the unreserved set and `/` are
    /// percent-encoded).
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/!$&'()*+,;=:@")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    public mutating func add(_ file: FileAudit) {
        for f in file.findings {
            var region: [String: Any] = ["startLine": f.start.line, "startColumn": f.start.column,
                                         "endLine": f.end.line, "endColumn": max(f.end.column, f.start.line == f.end.line ? f.start.column : 1)]
            if f.range.count > 0 { region["byteOffset"] = f.range.lowerBound; region["byteLength"] = f.range.count }
            if !f.lineText.isEmpty { region["snippet"] = ["text": f.lineText] }
            var message = f.message
            if let suggestion = f.suggestion { message += ". Fix: \(suggestion)" }
            var result: [String: Any] = [
                "ruleId": f.rule.rawValue, "ruleIndex": AuditRule.allCases.firstIndex(of: f.rule)!,
                "level": f.severity.rawValue, "message": ["text": message],
                "locations": [["physicalLocation": ["artifactLocation": artifact(for: f), "region": region]]],
            ]
            var properties: [String: Any] = [:]
            if !f.formula.isEmpty { properties["formula"] = f.formula }
            if let speech = f.speech { properties["speech"] = speech }
            if let label = f.fixLabel { properties["suggestedLabel"] = label }
            if !properties.isEmpty { result["properties"] = properties }
            output.write(first ? "\n" : ",\n")
            first = false
            output.write(AuditJSON.encode(result))
        }
    }

    public mutating func finish(_ summary: AuditSummary) {
        var properties: [String: Any] = ["documents": summary.documents, "formulas": summary.formulas, "goodFormulas": summary.good]
        if let score = summary.score { properties["accessibilityScore"] = score }
        output.write("\n],\"artifacts\":" + AuditJSON.encode(artifacts) + ",\"properties\":" + AuditJSON.encode(properties) + "}]}\n")
        output.flush()
    }
}

/// Compact, key-sorted JSON text for JSON-ready values (dictionaries, arrays, strings, numbers).
enum AuditJSON {
    static func encode(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]) else {
            return "null"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
