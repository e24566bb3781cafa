import Foundation

/// Renders diagnostics for people (caret underline) and machines (JSON).
public struct DiagnosticRenderer: Sendable {
    /// The text the diagnostics point into.
    public let source: SourceText
    /// A name for the input shown before the location (e.g. a file name or `<stdin>`).
    public let inputName: String

    /// Creates a renderer over `source`.
    public init(source: SourceText, inputName: String = "<input>") {
        self.source = source
        self.inputName = inputName
    }

    /// The terminal form: `name:line:col: severity: message [id]`, the source line, and a caret
    /// underline under the range, followed by notes and fix-its.
    public func terminal(_ diagnostic: Diagnostic) -> String {
        var out = ""
        if let range = diagnostic.range {
            let loc = source.location(of: range.lowerBound)
            out += "\(inputName):\(loc.line):\(loc.column): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.id)]\n"
            out += underline(range)
        } else {
            out += "\(inputName): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.id)]\n"
        }
        for note in diagnostic.notes {
            if let r = note.range {
                out += "\(inputName):\(source.location(of: r.lowerBound)): note: \(note.message)\n"
            } else {
                out += "  note: \(note.message)\n"
            }
        }
        for fix in diagnostic.fixIts {
            out += "  fix-it: replace \(source.location(of: fix.range.lowerBound)) \"\(source[fix.range])\" with \"\(fix.replacement)\"\n"
        }
        return out
    }

    /// The source line of `range` with `^~~~` under it. Long lines are clipped around the range.
    public func underline(_ range: SourceRange) -> String {
        let start = source.location(of: range.lowerBound)
        let end = source.location(of: range.upperBound)
        var line = Array(source.lineText(start.line).unicodeScalars)
        var caretStart = start.column - 1
        var caretLength = max(1, (end.line == start.line ? end.column - start.column : line.count - caretStart))
        // Clip very long lines to a window around the caret.
        let window = 100
        var prefix = "", suffix = ""
        if line.count > window {
            let from = max(0, min(caretStart - 20, line.count - window))
            let to = min(line.count, from + window)
            prefix = from > 0 ? "…" : ""
            suffix = to < line.count ? "…" : ""
            line = Array(line[from..<to])
            caretStart = caretStart - from + (prefix.isEmpty ? 0 : 1)
            caretLength = min(caretLength, max(1, line.count + 1 - (caretStart - (prefix.isEmpty ? 0 : 1))))
        }
        var text = prefix
        text.unicodeScalars.append(contentsOf: line.map { $0 == "\t" ? " " : $0 })
        text += suffix
        let pad = String(repeating: " ", count: max(0, caretStart))
        return "  \(text)\n  \(pad)^\(String(repeating: "~", count: max(0, caretLength - 1)))\n"
    }

    /// The diagnostic as its wire record: `id`, `severity`, `message`, `range` (`start`/`end` byte offsets
    /// and `line`/`column`), `notes`, `fixIts`.
    public func record(_ diagnostic: Diagnostic) -> DiagnosticRecord {
        DiagnosticRecord(id: diagnostic.id, severity: diagnostic.severity, message: diagnostic.message,
                         range: diagnostic.range.map(location),
                         notes: diagnostic.notes.map { DiagnosticRecord.Note(message: $0.message, range: $0.range.map(location)) },
                         fixIts: diagnostic.fixIts.map { DiagnosticRecord.FixIt(range: location($0.range), replacement: $0.replacement) })
    }

    /// The diagnostic as JSON (its ``record(_:)``).
    public func jsonValue(_ diagnostic: Diagnostic) -> JSONValue { record(diagnostic).json }

    private func location(_ range: SourceRange) -> DiagnosticRecord.Location {
        let loc = source.location(of: range.lowerBound)
        return DiagnosticRecord.Location(start: range.lowerBound, end: range.upperBound, line: loc.line, column: loc.column)
    }

    /// The diagnostics as a JSON array (sorted keys, one line).
    public func json(_ diagnostics: [Diagnostic]) -> String {
        JSONValue.array(diagnostics.map(jsonValue)).jsonText
    }
}

/// A diagnostic as the batches, the service and `--to json` write it: the diagnostic with its range
/// resolved to lines and columns of its source.
public struct DiagnosticRecord: JSONRepresentable, Sendable, Hashable {
    /// A range: UTF-8 byte offsets and the 1-based line and column of its start.
    public struct Location: Sendable, Hashable {
        /// First byte.
        public var start: Int
        /// One past the last byte.
        public var end: Int
        /// Line of `start`, from 1.
        public var line: Int
        /// Column of `start` in Unicode scalars, from 1.
        public var column: Int

        /// Creates a location.
        public init(start: Int, end: Int, line: Int, column: Int) {
            self.start = start
            self.end = end
            self.line = line
            self.column = column
        }

        var json: JSONValue {
            .object(["start": .number(JSONNumber(start)), "end": .number(JSONNumber(end)),
                     "line": .number(JSONNumber(line)), "column": .number(JSONNumber(column))])
        }

        init(json: JSONValue, field: String) throws(JSONFieldError) {
            guard case .object(let o) = json else { throw .type(field, expected: "an object", got: json) }
            func int(_ k: String) throws(JSONFieldError) -> Int {
                guard let v = o[k]?.numberValue?.intValue else { throw JSONFieldError("\"\(field).\(k)\" must be an integer") }
                return v
            }
            self.init(start: try int("start"), end: try int("end"), line: try int("line"), column: try int("column"))
        }
    }

    /// A note.
    public struct Note: Sendable, Hashable {
        /// The note's text.
        public var message: String
        /// Where it points.
        public var range: Location?
    }

    /// A suggested edit.
    public struct FixIt: Sendable, Hashable {
        /// What to replace.
        public var range: Location
        /// The replacement.
        public var replacement: String
    }

    /// The stable id (``DiagnosticID/catalog``).
    public var id: DiagnosticID
    /// How serious it is.
    public var severity: Diagnostic.Severity
    /// The sentence for people.
    public var message: String
    /// Where it applies.
    public var range: Location?
    /// Further information (omitted from JSON when empty).
    public var notes: [Note]
    /// Suggested edits (omitted from JSON when empty).
    public var fixIts: [FixIt]

    /// Creates a record.
    public init(id: DiagnosticID, severity: Diagnostic.Severity, message: String, range: Location?,
                notes: [Note] = [], fixIts: [FixIt] = []) {
        self.id = id
        self.severity = severity
        self.message = message
        self.range = range
        self.notes = notes
        self.fixIts = fixIts
    }

    /// The JSON object (keys sorted when written).
    public var json: JSONValue {
        var o: [String: JSONValue] = ["id": .string(id.rawValue), "severity": .string(severity.rawValue), "message": .string(message)]
        if let range { o["range"] = range.json }
        if !notes.isEmpty {
            o["notes"] = .array(notes.map { n in
                var no: [String: JSONValue] = ["message": .string(n.message)]
                if let r = n.range { no["range"] = r.json }
                return .object(no)
            })
        }
        if !fixIts.isEmpty {
            o["fixIts"] = .array(fixIts.map { .object(["range": $0.range.json, "replacement": .string($0.replacement)]) })
        }
        return .object(o)
    }

    /// Reads a record.
    public init(json: JSONValue) throws(JSONFieldError) {
        guard case .object(let o) = json else { throw .type("diagnostic", expected: "an object", got: json) }
        guard let id = o["id"]?.stringValue else { throw JSONFieldError("\"id\" must be a string") }
        guard let s = o["severity"]?.stringValue, let severity = Diagnostic.Severity(rawValue: s) else {
            throw JSONFieldError("\"severity\" must be note, warning or error")
        }
        guard let message = o["message"]?.stringValue else { throw JSONFieldError("\"message\" must be a string") }
        var notes: [Note] = []
        for n in o["notes"]?.arrayValue ?? [] {
            guard let m = n["message"]?.stringValue else { throw JSONFieldError("\"notes[].message\" must be a string") }
            notes.append(Note(message: m, range: try n["range"].map { v throws(JSONFieldError) in try Location(json: v, field: "notes[].range") }))
        }
        var fixIts: [FixIt] = []
        for f in o["fixIts"]?.arrayValue ?? [] {
            guard let r = f["range"], let replacement = f["replacement"]?.stringValue else {
                throw JSONFieldError("\"fixIts[]\" must have a range and a replacement")
            }
            fixIts.append(FixIt(range: try Location(json: r, field: "fixIts[].range"), replacement: replacement))
        }
        self.init(id: DiagnosticID(id), severity: severity, message: message,
                  range: try o["range"].map { v throws(JSONFieldError) in try Location(json: v, field: "range") },
                  notes: notes, fixIts: fixIts)
    }
}
