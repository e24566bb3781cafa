import Foundation

extension Speaker {
    /// Speaks prose with inline math: the prose is kept, each formula found by the
    /// ``MathTextScanner`` is replaced by its speech. Diagnostics point into `text`. Where a formula
    /// ends and the prose goes on is marked as ``FormulaBoundary`` says (a sentence's full stop inside
    /// the formula kept; a comma after a formula of three words or more that prose words follow on
    /// its line), as ``speech(forText:scanner:)`` marks it with a pause.
    public func speak(text: String, scanner: MathTextScanner = MathTextScanner(options: .prose)) -> (text: String, diagnostics: [Diagnostic]) {
        var out = ""
        var pending: FormulaBoundary.Ending? = nil
        let diagnostics = walk(text, scanner: scanner, prose: { prose in
            if let ending = pending.take() { out += ending.plainText(before: prose) }
            out += prose
        }, formula: { spoken, fragment in
            if let ending = pending.take() { out += ending.plainText(before: "") }
            out += spoken.text
            pending = FormulaBoundary.Ending(speech: spoken.text, tex: fragment.tex)
        })
        if let ending = pending.take() { out += ending.plainText(before: "") }
        return (out, diagnostics)
    }

    /// Prose with inline math as one ``SpeechDescription`` (for a voice or SSML): prose words as they
    /// are, each formula's structured speech with its pauses; where a formula ends and prose goes on is
    /// marked as in ``speak(text:scanner:)``: the full stop inside it kept, a short pause after a
    /// formula of three words or more that prose words follow, and at a line break after a formula.
    /// Diagnostics point into `text`.
    public func speech(forText text: String, scanner: MathTextScanner = MathTextScanner(options: .prose))
        -> (speech: SpeechDescription, diagnostics: [Diagnostic]) {
        var speech = SpeechDescription()
        var pending: FormulaBoundary.Ending? = nil
        func close(before prose: String) {
            guard let ending = pending.take() else { return }
            if ending.fullStop { speech.join("", words: ".") }
            if ending.pause(before: prose) { speech.append(pause: .short) }
        }
        let diagnostics = walk(text, scanner: scanner, prose: { prose in
            close(before: prose)
            let words = prose.trimmingCharacters(in: .whitespacesAndNewlines)
            // Punctuation right after a formula ("$x$.") joins its last word, as in the plain text.
            if let first = prose.unicodeScalars.first, !first.properties.isWhitespace,
               let last = speech.items.last, case .words = last {
                speech.join("", words: words)
            } else {
                speech.append(words: words)
            }
        }, formula: { spoken, fragment in
            close(before: "")
            speech.append(spoken.speech)
            pending = FormulaBoundary.Ending(speech: spoken.text, tex: fragment.tex)
        })
        close(before: "")
        return (speech, diagnostics)
    }

    /// Walks prose with inline math in order: prose segments as written, each formula spoken; returns the
    /// scanner's and the formulas' diagnostics, moved into the text's coordinates.
    private func walk(_ text: String, scanner: MathTextScanner, prose: (String) -> Void,
                      formula: (SpokenFormula, MathFragment) -> Void) -> [Diagnostic] {
        let scan = scanner.scan(text)
        // The speaker's preference warnings once, not once per formula.
        var diagnostics = preferenceDiagnostics + scan.diagnostics
        for segment in scan.segments {
            switch segment {
            case .text(let s, _):
                prose(MathTextScanner.spokenProse(s))
            case .math(let fragment):
                let spoken = speak(tex: fragment.tex)
                formula(spoken, fragment)
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
    /// The settings a request gets when it names none.
    public struct Defaults: Sendable, Hashable {
        /// The locale.
        public var locale: LocaleTag
        /// The style.
        public var style: SpeechStyleName
        /// The preferences (a request's own are merged over them).
        public var preferences: [String: String]
        /// The verbosity, for styles that have the `Verbosity` preference.
        public var verbosity: Verbosity?
        /// Whether an unknown preference makes a request fail (instead of being ignored with a warning
        /// in the response's diagnostics, the default: MathCAT's clients send their own preferences with
        /// every request).
        public var strictPreferences: Bool

        /// Creates defaults.
        public init(locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak, verbosity: Verbosity? = nil,
                    preferences: [String: String] = [:], strictPreferences: Bool = false) {
            self.locale = locale
            self.style = style
            self.verbosity = verbosity
            self.preferences = preferences
            self.strictPreferences = strictPreferences
        }
    }

    /// The settings a request gets when it names none.
    public let defaults: Defaults
    private let rulesDirectory: URL?
    private let texOptions: TeXParserOptions
    /// How many spoken formulas each speaker of the pool keeps.
    package let cacheCapacity: Int
    private var pool: [String: Speaker] = [:]
    private var poolOrder: [String] = []
    private var defaultSpeakerCache: Speaker?
    /// The rules and words every speaker of the pool is loaded from, read when the first is loaded (or
    /// given): one ``SpeechResources`` keeps the rule files it parsed and the styles it compiled, so a
    /// second locale does not parse the English rules it inherits again, and other preferences for a
    /// locale and style compile nothing (a French line after an English one cost 104 M instructions
    /// under callgrind, as much as a cold start; session 44).
    private var sharedResources: SpeechResources?
    private let limit = 16
    private let lock = NSLock()

    /// A pool whose speakers read rules from `rulesDirectory` (when given) and TeX with `texOptions`.
    /// A request naming a preference or value its style does not know is answered, with a warning in
    /// its diagnostics (`speech.unknown-preference`, `speech.unknown-preference-value`); with
    /// `strictPreferences` it gets an error response instead.
    public init(locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak, verbosity: Verbosity? = nil,
                preferences: [String: String] = [:], strictPreferences: Bool = false, rulesDirectory: URL? = nil,
                texOptions: TeXParserOptions = TeXParserOptions(), cacheCapacity: Int = 256) {
        self.defaults = Defaults(locale: locale, style: style, verbosity: verbosity, preferences: preferences,
                                 strictPreferences: strictPreferences)
        self.rulesDirectory = rulesDirectory
        self.texOptions = texOptions
        self.cacheCapacity = cacheCapacity
    }

    /// A pool over rules and words already loaded (the service's, checked when it starts), with the
    /// other parameters as ``init(locale:style:verbosity:preferences:strictPreferences:rulesDirectory:texOptions:cacheCapacity:)``.
    package convenience init(resources: SpeechResources, locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak,
                             texOptions: TeXParserOptions = TeXParserOptions(), cacheCapacity: Int = 256) {
        self.init(locale: locale, style: style, texOptions: texOptions, cacheCapacity: cacheCapacity)
        sharedResources = resources
    }

    /// The pool's rules and words (called with the lock held): the override directory (or
    /// `MATHALOUD_RULES`) is read once, when the first speaker is loaded.
    private func resources() throws(SpeechLoadError) -> SpeechResources {
        if let sharedResources { return sharedResources }
        let loaded = try SpeechResources.builtIn(overriddenBy: rulesDirectory ?? Speaker.environmentRulesDirectory)
        sharedResources = loaded
        return loaded
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

    /// Cache hits and misses of the speakers in the pool now (speakers dropped from the pool no longer
    /// count).
    public var cacheStatistics: (hits: Int, misses: Int) {
        lock.lock()
        let speakers = Array(pool.values)
        lock.unlock()
        return speakers.reduce((0, 0)) { total, s in
            let c = s.cacheStatistics
            return (total.0 + c.hits, total.1 + c.misses)
        }
    }

    /// The speaker for these settings (loaded once, then shared). Loading happens under the pool's lock,
    /// so threads that ask for the same new settings at once load it once.
    public func speaker(locale: LocaleTag, style: SpeechStyleName, preferences: [String: String]) throws(SpeechLoadError) -> Speaker {
        let key = SpeakerPool.key(locale: locale, style: style, preferences: preferences)
        lock.lock()
        defer { lock.unlock() }
        if let s = pool[key] { return s }
        let s = try Speaker(resources: try resources(), locale: locale, style: style, verbosity: defaults.verbosity,
                            preferences: preferences, strictPreferences: defaults.strictPreferences,
                            texOptions: texOptions, cacheCapacity: cacheCapacity)
        add(s, key: key)
        return s
    }

    /// Takes `speaker` as the pool's speaker for the default settings: one loaded for them already
    /// (with the pool's rules directory, TeX options and cache capacity), as the command line does to
    /// fail early with the right exit code, is not loaded a second time (`speak --batch` loaded English
    /// ClearSpeak twice: ~80 M instructions, ~15 ms of its start; session 43).
    package func useAsDefault(_ speaker: Speaker) {
        let key = SpeakerPool.key(locale: defaults.locale, style: defaults.style, preferences: defaults.preferences)
        lock.lock()
        defer { lock.unlock() }
        defaultSpeakerCache = speaker
        if sharedResources == nil { sharedResources = speaker.resources }
        if pool[key] == nil { add(speaker, key: key) }
    }

    /// The pool's key for a speaker's settings.
    private static func key(locale: LocaleTag, style: SpeechStyleName, preferences: [String: String]) -> String {
        "\(locale.rawValue.lowercased())|\(style.rawValue)|"
            + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
    }

    /// Adds a speaker under `key`, dropping the oldest beyond ``limit`` (called with the lock held).
    private func add(_ speaker: Speaker, key: String) {
        if pool.count >= limit, let oldest = poolOrder.first {
            pool[oldest] = nil
            poolOrder.removeFirst()
        }
        pool[key] = speaker
        poolOrder.append(key)
    }

    /// The speaker for a request's settings (its locale, style and preferences over the defaults), or
    /// the error response when they cannot be loaded (an unknown locale, style or preference).
    public func speaker(for request: FormulaRequest) -> Result<Speaker, BatchError> {
        do throws(SpeechLoadError) {
            if request.locale == nil && request.style == nil && request.preferences == nil { return .success(try defaultSpeaker()) }
            var preferences = defaults.preferences
            for (k, v) in request.preferences ?? [:] { preferences[k] = v }
            return .success(try speaker(locale: request.locale ?? defaults.locale, style: request.style ?? defaults.style,
                                        preferences: preferences))
        } catch {
            return .failure(BatchError(id: request.id, message: error.description))
        }
    }
}

/// File names for the files a batch writes, one per line, from the line's `id`: a string id's text,
/// any other id's JSON text; characters other than letters, digits, `.`, `-`, `_` become `_` (at most
/// 64); lines without a usable id are `line-N`; a name already given gets `-2`, `-3`…, so no file
/// overwrites another.
package struct BatchFileNamer {
    private var used: Set<String> = []

    package init() {}

    /// A unique name for line `line` (1-based) with id `id`, ending in `.ext`.
    package mutating func name(forID id: JSONValue, line: Int, extension ext: String) -> String {
        var stem: String
        switch id {
        case .null: stem = ""
        case .string(let s): stem = s
        default: stem = id.jsonText
        }
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

/// Processes JSON Lines batches of formulas to speech with this contract: each input line a
/// ``FormulaRequest`` (`{"id", "tex"|"mathml"|"text", "locale"?, "style"?, "preferences"?: {name: value},
/// "format"?: "ssml", "template"?}`); each output line a ``SpeechResponse`` (`{"id", "speech", "ssml"?,
/// "label"?, "diagnostics": [{"id", "severity", "message", "range"}]}`), or a ``BatchError`` (`{"id",
/// "error"}`) when the line cannot be used or its input is refused as a whole (a limit, malformed
/// MathML). Speakers for other locales, styles and preferences are loaded on demand and kept in a small
/// bounded pool, so memory stays flat over millions of lines.
public final class SpeechBatchProcessor: Sendable {
    private let speakers: SpeakerPool

    /// Creates a processor whose lines default to these settings.
    public convenience init(locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak, preferences: [String: String] = [:],
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

    /// Results for many requests, in order, spoken on all cores.
    public func process(_ requests: [FormulaRequest]) -> [BatchResult<SpeechResponse>] {
        requests.concurrentMap { process($0) }
    }

    /// Results for many lines already read (``BatchRequestReader``): each request spoken, each error
    /// passed through; in order, on all cores.
    public func process(_ lines: [Result<FormulaRequest, BatchError>]) -> [BatchResult<SpeechResponse>] {
        lines.concurrentMap { line in
            switch line {
            case .success(let request): process(request)
            case .failure(let error): .failure(error)
            }
        }
    }

    /// One output line (without a newline) for one input line. Never throws.
    public func process(line: String) -> String {
        processLine(line).jsonLine
    }

    /// The result for one input line.
    public func processLine(_ line: String) -> BatchResult<SpeechResponse> {
        switch FormulaRequest.read(line: line) {
        case .success(let request): process(request)
        case .failure(let error): .failure(error)
        }
    }

    /// The response for one request: speech, SSML when its format is `ssml`, a label when it has a
    /// template; or the error response.
    public func process(_ request: FormulaRequest) -> BatchResult<SpeechResponse> {
        let speaker: Speaker
        switch speakers.speaker(for: request) {
        case .success(let s): speaker = s
        case .failure(let e): return .failure(e)
        }
        if let format = request.format, format.kind != .speech {
            return .failure(BatchError(id: request.id, message: "\"format\" must be \(OutputFormat.names(of: .speech)) for speech, not \(format)"))
        }
        let speech: SpeechDescription
        let diagnostics: [Diagnostic]
        let source: SourceText
        switch request.input {
        case .text(let text):
            let spoken = speaker.speech(forText: text)
            speech = spoken.speech
            diagnostics = spoken.diagnostics
            source = SourceText(text)
        case .tex(let formula), .mathml(let formula):
            let spoken = speaker.speak(formula, notation: request.input.notation!)
            speech = spoken.speech
            diagnostics = spoken.diagnostics
            source = spoken.source
        }
        let renderer = DiagnosticRenderer(source: source)
        if let rejection = request.input.rejection(in: diagnostics) {
            return .failure(BatchError(id: request.id, rejection: rejection, diagnostics: diagnostics.map(renderer.record)))
        }
        let text = speech.plainText
        return .success(SpeechResponse(
            id: request.id, speech: text,
            ssml: request.format == .ssml ? SSMLRenderer(locale: speaker.locale).render(speech) : nil,
            label: request.template.map { LabelTemplate($0).fill(speech: text, latex: request.input.source) },
            diagnostics: diagnostics.map(renderer.record)))
    }
}

/// Where a formula in prose ends and the prose goes on, for a listener (`speak --text`, its stream,
/// SSML, voices): the speech of a formula gives no sign of its end, so "$\frac{a}$ apples" was heard
/// "…and denominator apples", and "\[ … x_i. \]" lost its full stop (the TeX reader drops it).
///
/// - A formula whose TeX ends in a full stop (`x_i.`, not `\.`) is followed by that full stop.
/// - A formula of three words or more that prose words follow on its line is followed by a short
///   pause: a comma in plain text, `<break>` in SSML ("A equals Q R, where Q is orthogonal"). A
///   formula of one or two words is heard as a word of the sentence ("where Q is orthogonal").
/// - At a line break after a formula, plain text keeps the line break and SSML has a short pause.
/// - Punctuation after the formula ("$x$.") joins it, with no pause.
public enum FormulaBoundary {
    /// How a formula ends, waiting for the prose after it.
    public struct Ending: Sendable, Hashable {
        /// Whether the formula's TeX ends in a full stop the speech does not say.
        public var fullStop: Bool
        /// Whether the speech has three words or more.
        public var long: Bool

        /// The ending of a formula spoken `speech` from `tex`.
        public init(speech: String, tex: String) {
            fullStop = FormulaBoundary.endsInFullStop(tex) && !speech.hasSuffix(".")
            var words = 0
            for part in speech.split(whereSeparator: { $0 == " " || $0 == "\n" }) where part.contains(where: \.isLetter) || part.contains(where: \.isNumber) {
                words += 1
            }
            long = words >= 3
        }

        /// Whether a pause goes between the formula and `prose` (its text after the formula; empty:
        /// another formula or the end follows): prose words on its line after a long formula, or a line
        /// break; never after a full stop or before punctuation.
        public func pause(before prose: String) -> Bool {
            guard !fullStop else { return false }
            switch FormulaBoundary.next(prose) {
            case .word: return long
            case .lineBreak: return true
            case .punctuation, .nothing: return false
            }
        }

        /// What plain text writes after the formula before `prose`: the full stop, or a comma where a
        /// pause goes on the same line (a line break is kept as written).
        public func plainText(before prose: String) -> String {
            if fullStop { return "." }
            return FormulaBoundary.next(prose) == .word && long ? "," : ""
        }
    }

    /// What comes after a formula.
    enum Next { case word, lineBreak, punctuation, nothing }

    static func next(_ prose: String) -> Next {
        for c in prose.unicodeScalars {
            if c == "\n" || c == "\r" { return .lineBreak }
            if c == " " || c == "\t" { continue }
            return c.properties.isAlphabetic || c.properties.numericType != nil ? .word : .punctuation
        }
        return .nothing
    }

    /// Whether TeX ends in a full stop that is punctuation of the sentence (`x_i.`, `x .`), not `\.`.
    public static func endsInFullStop(_ tex: String) -> Bool {
        let bytes = Array(tex.utf8)
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0, bytes[end - 1] == 0x2E else { return false }
        var slashes = 0
        while end - 2 - slashes >= 0, bytes[end - 2 - slashes] == 0x5C { slashes += 1 }
        return slashes % 2 == 0
    }
}
