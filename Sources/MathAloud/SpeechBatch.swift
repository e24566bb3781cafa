import Foundation

extension Speaker {
    /// Speaks prose with inline math: the prose is kept, each formula found by the
    /// ``MathTextScanner`` is replaced by its speech. Diagnostics point into `text`.
    public func speak(text: String, scanner: MathTextScanner = MathTextScanner()) -> (text: String, diagnostics: [Diagnostic]) {
        var out = ""
        let diagnostics = walk(text, scanner: scanner, prose: { out += $0 }, formula: { out += $0.text })
        return (out, diagnostics)
    }

    /// Prose with inline math as one ``SpeechDescription`` (for a voice or SSML): prose words as they
    /// are, each formula's structured speech with its pauses. Diagnostics point into `text`.
    public func speech(forText text: String, scanner: MathTextScanner = MathTextScanner())
        -> (speech: SpeechDescription, diagnostics: [Diagnostic]) {
        var speech = SpeechDescription()
        let diagnostics = walk(text, scanner: scanner, prose: { prose in
            let words = prose.trimmingCharacters(in: .whitespacesAndNewlines)
            // Punctuation right after a formula ("$x$.") joins its last word, as in the plain text.
            if let first = prose.unicodeScalars.first, !first.properties.isWhitespace,
               let last = speech.items.last, case .words = last {
                speech.join("", words: words)
            } else {
                speech.append(words: words)
            }
        }, formula: { speech.append($0.speech) })
        return (speech, diagnostics)
    }

    /// Walks prose with inline math in order: prose segments as written, each formula spoken; returns the
    /// scanner's and the formulas' diagnostics, moved into the text's coordinates.
    private func walk(_ text: String, scanner: MathTextScanner, prose: (String) -> Void,
                      formula: (SpokenFormula) -> Void) -> [Diagnostic] {
        let scan = scanner.scan(text)
        // The speaker's preference warnings once, not once per formula.
        var diagnostics = preferenceDiagnostics + scan.diagnostics
        for segment in scan.segments {
            switch segment {
            case .text(let s, _):
                prose(s)
            case .math(let fragment):
                let spoken = speak(tex: fragment.tex)
                formula(spoken)
                diagnostics += spoken.diagnostics.dropFirst(preferenceDiagnostics.count).map { d in
                    var moved = d
                    moved.range = d.range.map { fragment.sourceRange(forTeXRange: $0) }
                    return moved
                }
            }
        }
        return diagnostics
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

/// Speakers for the settings batch lines ask for, loaded on demand and kept in a small bounded pool
/// (least recently added dropped first), so memory stays flat over millions of lines. Thread-safe.
public final class SpeakerPool: @unchecked Sendable {
    /// The settings a line gets when it names none.
    public let defaults: (locale: String, style: String, preferences: [String: String])
    private let rulesDirectory: URL?
    private let texOptions: TeXParserOptions
    private let cacheCapacity: Int
    private var pool: [String: Speaker] = [:]
    private var poolOrder: [String] = []
    private var defaultSpeakerCache: Speaker?
    private let limit = 16
    private let lock = NSLock()

    /// A pool whose speakers read rules from `rulesDirectory` (when given) and TeX with `texOptions`.
    public init(locale: String = "en", style: String = "clearspeak", preferences: [String: String] = [:],
                rulesDirectory: URL? = nil, texOptions: TeXParserOptions = TeXParserOptions(), cacheCapacity: Int = 256) {
        self.defaults = (locale, style, preferences)
        self.rulesDirectory = rulesDirectory
        self.texOptions = texOptions
        self.cacheCapacity = cacheCapacity
    }

    /// The speaker for the default settings (most lines name none): no key to build per line.
    public func defaultSpeaker() throws(SpeechLoadError) -> Speaker {
        lock.lock()
        let cached = defaultSpeakerCache
        lock.unlock()
        if let cached { return cached }
        let s = try speaker(locale: defaults.locale, style: defaults.style, preferences: defaults.preferences)
        lock.lock()
        defaultSpeakerCache = s
        lock.unlock()
        return s
    }

    /// The speaker for these settings (loaded once, then shared). Loading happens under the pool's lock,
    /// so threads that ask for the same new settings at once load it once.
    public func speaker(locale: String, style: String, preferences: [String: String]) throws(SpeechLoadError) -> Speaker {
        let key = "\(locale)|\(style)|" + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
        lock.lock()
        defer { lock.unlock() }
        if let s = pool[key] { return s }
        let s = try Speaker(locale: locale, style: style, preferences: preferences, rulesDirectory: rulesDirectory,
                            texOptions: texOptions, cacheCapacity: cacheCapacity)
        if pool.count >= limit, let oldest = poolOrder.first {
            pool[oldest] = nil
            poolOrder.removeFirst()
        }
        pool[key] = s
        poolOrder.append(key)
        return s
    }
}

/// One JSON Lines batch line, read the same way by every batch (speech, voice, render): an object with
/// an `id` (any JSON value), optional `locale`, `style` and `preferences` ({name: value}), and the
/// formula fields the batch knows.
public struct BatchLine {
    /// The `id` as JSON text (`null` when absent), ready to be written back.
    public let id: String
    /// The whole object, for the batch's own fields (`tex`, `mathml`, `voice`…).
    public let object: [String: Any]
    /// The speaker for the line's settings.
    public let speaker: Speaker

    /// The formula the line carries: `tex` or `mathml` (nil when it has neither string).
    public var formula: (source: String, notation: FormulaNotation)? {
        if let t = object["tex"] as? String { return (t, .tex) }
        if let m = object["mathml"] as? String { return (m, .mathml) }
        return nil
    }

    /// Reads a line; a line that cannot be used gives its error line (`{"error", "id"}`) instead.
    public static func read(_ line: String, speakers: SpeakerPool) -> Result<BatchLine, BatchLineError> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return .failure(BatchLineError(id: "null", message: "line is not a JSON object"))
        }
        let id = JSONText.encode(object["id"] ?? NSNull())
        func fail(_ message: String) -> Result<BatchLine, BatchLineError> { .failure(BatchLineError(id: id, message: message)) }
        let speaker: Speaker
        do {
            if object["locale"] == nil && object["style"] == nil && object["preferences"] == nil {
                speaker = try speakers.defaultSpeaker()
            } else {
                let locale = object["locale"] as? String ?? speakers.defaults.locale
                let style = object["style"] as? String ?? speakers.defaults.style
                var preferences = speakers.defaults.preferences
                if let p = object["preferences"] {
                    guard let dictionary = p as? [String: Any] else { return fail("\"preferences\" must be an object of strings") }
                    for (k, v) in dictionary { preferences[k] = "\(v)" }
                }
                speaker = try speakers.speaker(locale: locale, style: style, preferences: preferences)
            }
        } catch {
            return fail(error.description)
        }
        // Preferences the style cannot use do not fail the line: the speaker reports them as warnings
        // in the line's diagnostics.
        return .success(BatchLine(id: id, object: object, speaker: speaker))
    }
}

/// File names for the files a batch writes, one per line, from the line's `id` (its JSON text):
/// characters other than letters, digits, `.`, `-`, `_` become `_` (at most 64); lines without a usable
/// id are `line-N`; a name already given gets `-2`, `-3`…, so no file overwrites another.
package struct BatchFileNamer {
    private var used: Set<String> = []

    package init() {}

    /// A unique name for line `line` (1-based) with id `id` (JSON text), ending in `.ext`.
    package mutating func name(forID id: String, line: Int, extension ext: String) -> String {
        var stem = id
        if stem.hasPrefix("\"") && stem.hasSuffix("\"") && stem.count >= 2 { stem = String(stem.dropFirst().dropLast()) }
        stem = String(stem.unicodeScalars.map { s -> Character in
            let ok = (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_" || s == "."
            return ok ? Character(s) : "_"
        }.prefix(64))
        if stem.isEmpty || stem == "null" || stem.hasPrefix(".") { stem = "line-\(line)" }
        var name = stem + "." + ext
        var n = 2
        while used.contains(name) { name = "\(stem)-\(n).\(ext)"; n += 1 }
        used.insert(name)
        return name
    }
}

/// Why a batch line could not be used, with the line's id (JSON text).
public struct BatchLineError: Error, Sendable {
    /// The line's `id` as JSON text (`null` when it has none or is not an object).
    public let id: String
    /// What is wrong.
    public let message: String

    /// Creates an error for a line.
    public init(id: String, message: String) {
        self.id = id
        self.message = message
    }

    /// The output line `{"error", "id"}`.
    public var jsonLine: String { "{\"error\":" + JSONString.quote(message) + ",\"id\":" + id + "}" }
}

/// Processes JSON Lines batches of formulas to speech with this contract: each input line
/// `{"id", "tex"|"mathml", "locale"?, "style"?, "preferences"?: {name: value}}`; each output line
/// `{"id", "speech", "diagnostics": [{"id", "severity", "message", "range"}]}`, or `{"id", "error"}` when the
/// line cannot be used. Speakers for other locales, styles and preferences are loaded on demand and
/// kept in a small bounded pool, so memory stays flat over millions of lines.
public final class SpeechBatchProcessor: Sendable {
    private let speakers: SpeakerPool

    /// Creates a processor whose lines default to these settings.
    public convenience init(locale: String = "en", style: String = "clearspeak", preferences: [String: String] = [:],
                rulesDirectory: URL? = nil, texOptions: TeXParserOptions = TeXParserOptions()) {
        self.init(speakers: SpeakerPool(locale: locale, style: style, preferences: preferences, rulesDirectory: rulesDirectory,
                                        texOptions: texOptions))
    }

    /// Creates a processor whose lines get their speakers from `speakers`.
    public init(speakers: SpeakerPool) {
        self.speakers = speakers
    }

    /// Output lines for many input lines, in input order, spoken on all cores (the processor is
    /// thread-safe). Give it a bounded chunk at a time (the CLI uses 512 lines) so memory stays flat.
    public func process(lines: [String]) -> [String] {
        lines.concurrentMap { process(line: $0) }
    }

    /// One output line (without a newline) for one input line. Never throws.
    public func process(line: String) -> String {
        let batchLine: BatchLine
        switch BatchLine.read(line, speakers: speakers) {
        case .success(let l): batchLine = l
        case .failure(let e): return e.jsonLine
        }
        guard let (source, notation) = batchLine.formula else {
            return BatchLineError(id: batchLine.id, message: "the object needs a \"tex\" or \"mathml\" string").jsonLine
        }
        let spoken = batchLine.speaker.speak(source, notation: notation)
        let renderer = DiagnosticRenderer(source: spoken.source)
        return "{\"diagnostics\":" + JSONText.encode(spoken.diagnostics.map(renderer.jsonObject))
            + ",\"id\":" + batchLine.id + ",\"speech\":" + JSONString.quote(spoken.text) + "}"
    }
}
