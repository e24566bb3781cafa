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

    /// A JSON-ready dictionary: `id`, `severity`, `message`, `range` (`start`/`end` byte offsets and
    /// `line`/`column`), `notes`, `fixIts`.
    public func jsonObject(_ diagnostic: Diagnostic) -> [String: Any] {
        var object: [String: Any] = [
            "id": diagnostic.id,
            "severity": diagnostic.severity.rawValue,
            "message": diagnostic.message,
        ]
        if let range = diagnostic.range { object["range"] = rangeObject(range) }
        if !diagnostic.notes.isEmpty {
            object["notes"] = diagnostic.notes.map { note -> [String: Any] in
                var o: [String: Any] = ["message": note.message]
                if let r = note.range { o["range"] = rangeObject(r) }
                return o
            }
        }
        if !diagnostic.fixIts.isEmpty {
            object["fixIts"] = diagnostic.fixIts.map { ["range": rangeObject($0.range), "replacement": $0.replacement] }
        }
        return object
    }

    private func rangeObject(_ range: SourceRange) -> [String: Any] {
        let loc = source.location(of: range.lowerBound)
        return ["start": range.lowerBound, "end": range.upperBound, "line": loc.line, "column": loc.column]
    }

    /// The diagnostics as a JSON array (sorted keys, one line).
    public func json(_ diagnostics: [Diagnostic]) -> String {
        let objects = diagnostics.map(jsonObject)
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "[]"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
