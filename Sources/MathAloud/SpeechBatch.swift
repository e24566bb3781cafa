import Foundation

extension Speaker {
    /// Speaks prose with inline math: the prose is kept, each formula found by the
    /// ``MathTextScanner`` is replaced by its speech. Diagnostics point into `text`.
    public func speak(text: String, scanner: MathTextScanner = MathTextScanner()) -> (text: String, diagnostics: [Diagnostic]) {
        let scan = scanner.scan(text)
        var out = ""
        var diagnostics = scan.diagnostics
        for segment in scan.segments {
            switch segment {
            case .text(let s, _):
                out += s
            case .math(let fragment):
                let spoken = speak(tex: fragment.tex)
                out += spoken.text
                diagnostics += spoken.diagnostics.map { d in
                    var moved = d
                    moved.range = d.range.map { fragment.sourceRange(forTeXRange: $0) }
                    return moved
                }
            }
        }
        return (out, diagnostics)
    }

    /// The `--explain` listing: one line per spoken node, indented by depth, with the rule that fired,
    /// where it is written, the conditions that held, and what the node said.
    public func explanation(of formula: SpokenFormula) -> String {
        var out = ""
        for t in formula.trace {
            out += String(repeating: "  ", count: t.depth)
            if !t.role.isEmpty { out += t.role + ": " }
            out += t.kind
            if !t.text.isEmpty { out += " \"\(t.text)\"" }
            if !t.properties.isEmpty {
                out += " {" + t.properties.sorted { $0.key < $1.key }
                    .map { $0.value == "true" ? $0.key : "\($0.key)=\($0.value)" }.joined(separator: " ") + "}"
            }
            if let r = t.range { out += " @\(r)" }
            if let rule = t.rule {
                out += " ← rule \(rule) (\(t.location ?? ""))"
                if !t.conditions.isEmpty { out += " when " + t.conditions.joined(separator: " and ") }
            } else {
                out += " ← default (no rule)"
            }
            out += ": \"\(t.speech)\"\n"
        }
        return out
    }
}

/// Processes JSON Lines batches of formulas to speech with this contract: each input line
/// `{"id", "tex"|"mathml", "locale"?, "style"?, "preferences"?: {name: value}}`; each output line
/// `{"id", "speech", "diagnostics": [{"id", "severity", "message", "range"}]}`, or `{"id", "error"}` when the
/// line cannot be used. Speakers for other locales, styles and preferences are loaded on demand and
/// kept in a small bounded pool, so memory stays flat over millions of lines.
public final class SpeechBatchProcessor: @unchecked Sendable {
    private let defaults: (locale: String, style: String, preferences: [String: String])
    private let rulesDirectory: URL?
    private let texOptions: TeXParserOptions
    private var pool: [String: Speaker] = [:]
    private var poolOrder: [String] = []
    private let poolLimit = 16
    private let lock = NSLock()

    /// Creates a processor whose lines default to these settings.
    public init(locale: String = "en", style: String = "clearspeak", preferences: [String: String] = [:],
                rulesDirectory: URL? = nil, texOptions: TeXParserOptions = TeXParserOptions()) {
        self.defaults = (locale, style, preferences)
        self.rulesDirectory = rulesDirectory
        self.texOptions = texOptions
    }

    private func speaker(locale: String, style: String, preferences: [String: String]) throws(SpeechLoadError) -> Speaker {
        let key = "\(locale)|\(style)|" + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
        lock.lock()
        if let s = pool[key] { lock.unlock(); return s }
        lock.unlock()
        let s = try Speaker(locale: locale, style: style, preferences: preferences, rulesDirectory: rulesDirectory,
                            texOptions: texOptions, cacheCapacity: 256)
        lock.lock()
        defer { lock.unlock() }
        if pool.count >= poolLimit, let oldest = poolOrder.first {
            pool[oldest] = nil
            poolOrder.removeFirst()
        }
        pool[key] = s
        poolOrder.append(key)
        return s
    }

    /// Output lines for many input lines, in input order, spoken on all cores (the processor is
    /// thread-safe). Give it a bounded chunk at a time (the CLI uses 512 lines) so memory stays flat.
    public func process(lines: [String]) -> [String] {
        guard lines.count > 1 else { return lines.map { process(line: $0) } }
        var results = [String](repeating: "", count: lines.count)
        let workers = min(lines.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let stride = (lines.count + workers - 1) / workers
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Each worker writes only its own slots.
                for i in (worker * stride)..<min(lines.count, (worker + 1) * stride) {
                    out[i] = process(line: lines[i])
                }
            }
        }
        return results
    }

    /// One output line (without a newline) for one input line. Never throws.
    public func process(line: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return "{\"error\":\"line is not a JSON object\",\"id\":null}"
        }
        let id = JSONText.encode(object["id"] ?? NSNull())
        func failure(_ message: String) -> String { "{\"error\":" + JSONString.quote(message) + ",\"id\":" + id + "}" }
        let source: String
        let notation: FormulaNotation
        if let t = object["tex"] as? String { source = t; notation = .tex }
        else if let m = object["mathml"] as? String { source = m; notation = .mathml }
        else { return failure("the object needs a \"tex\" or \"mathml\" string") }
        let locale = object["locale"] as? String ?? defaults.locale
        let style = object["style"] as? String ?? defaults.style
        var preferences = defaults.preferences
        if let p = object["preferences"] {
            guard let dictionary = p as? [String: Any] else { return failure("\"preferences\" must be an object of strings") }
            for (k, v) in dictionary { preferences[k] = "\(v)" }
        }
        let speaker: Speaker
        do { speaker = try self.speaker(locale: locale, style: style, preferences: preferences) } catch {
            return failure(error.description)
        }
        if !speaker.preferenceProblems.isEmpty { return failure(speaker.preferenceProblems.joined(separator: "; ")) }
        let spoken = speaker.speak(source, notation: notation)
        let renderer = DiagnosticRenderer(source: spoken.source)
        return "{\"diagnostics\":" + JSONText.encode(spoken.diagnostics.map(renderer.jsonObject))
            + ",\"id\":" + id + ",\"speech\":" + JSONString.quote(spoken.text) + "}"
    }
}
