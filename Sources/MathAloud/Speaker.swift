import Foundation

/// A formula spoken: the speech, its plain text, everything worth reporting, and (on request) which
/// rule spoke each node.
public struct SpokenFormula: Sendable {
    /// The structured speech.
    public let speech: SpeechDescription
    /// The speech as plain text (pauses as commas).
    public var text: String { speech.plainText }
    /// The speaker's preference warnings (``Speaker/preferenceProblems``: requested preferences the
    /// style could not use, which were ignored), then parse problems and missing words sorted by
    /// position (an unknown command, read by name, is a warning here).
    public let diagnostics: [Diagnostic]
    /// What speech itself reported (the speaker's preference warnings, missing words), without the
    /// parser's diagnostics.
    public let speechDiagnostics: [Diagnostic]
    /// Per node, the rule that fired (empty unless `explain` was asked for).
    public let trace: [RuleTrace]
    /// The semantic tree that was spoken.
    public let semanticTree: SemanticTree
    /// The semantic tree that was spoken, as linked nodes (built from ``semanticTree`` on each call).
    public var semantics: SemanticNode { semanticTree.root }
    /// The source text.
    public let source: SourceText

    /// The diagnostic that refused the input as a whole (nothing was spoken), if any.
    public var rejection: Diagnostic? { diagnostics.rejection }
}

/// Speaks formulas in one locale, style and set of preferences (DESIGN.md §5–§7).
///
/// A `Speaker` is immutable and `Sendable`: build it once and share it between threads. Loading
/// reads the built-in rules (embedded in the binary) and, when given, an override directory.
///
/// ```swift
/// let speaker = try Speaker(locale: "en", style: .clearSpeak)
/// speaker.speak(tex: #"\frac{3}{4}"#).text          // "three fourths"
/// speaker.label(tex: "x^2", template: "Math: {speech}") // "Math: x squared"
/// ```
public struct Speaker: Sendable {
    /// The locale asked for (`en-GB`); its rules and words may come from a shorter tag (``rulesLocale``).
    public let locale: LocaleTag
    /// The locale whose rules speak (`en` for `en-GB` until `Rules/en-GB/` exists).
    public let rulesLocale: LocaleTag
    /// The style (`clearspeak`, `simplespeak`, `mathspeak`, `literalspeak`).
    public let style: SpeechStyleName
    /// The preference values in force (every declared preference, defaults filled in).
    public let preferences: [String: String]
    /// Requested preferences the style cannot use (unknown names or values), which were ignored: the
    /// speaker speaks without them and reports each as a warning in every ``SpokenFormula``'s
    /// diagnostics (``preferenceDiagnostics``). With `strictPreferences` the initialiser throws them
    /// instead.
    public let preferenceProblems: [PreferenceProblem]
    /// Words of rules inherited from another language that the locale's phrase files do not translate
    /// (see `Rules/README.md`, "A new language from an existing one"): a locale author's to-do list.
    public let untranslatedPhrases: [UntranslatedPhrase]
    /// ``preferenceProblems`` as warnings (`speech.unknown-preference`,
    /// `speech.unknown-preference-value`; no source range).
    public let preferenceDiagnostics: [Diagnostic]
    /// Parses TeX and MathML.
    public let parser: FormulaParser
    /// The analysis, with the locale's unit names (``SemanticAnalyzer/Options/unitNames``).
    package let analyzer: SemanticAnalyzer
    private let engine: SpeechEngine
    /// The rules and words this speaker was loaded from: a pool loads its other speakers from them, so
    /// what they share is parsed and compiled once (``SpeakerPool/useAsDefault(_:)``).
    package let resources: SpeechResources
    private let cache: BoundedCache<SpeechCacheKey, SpokenFormula>

    /// Loads a speaker.
    /// - Parameters:
    ///   - locale: a locale tag; it resolves by fallback (`en-US`, `en-GB` → `en`).
    ///   - style: ``SpeechStyleName/clearSpeak`` (default), ``SpeechStyleName/simpleSpeak``,
    ///     ``SpeechStyleName/mathSpeak``, ``SpeechStyleName/literalSpeak``, or any style the rules have.
    ///   - verbosity: the `Verbosity` preference, which every shipped style declares (ClearSpeak and
    ///     SimpleSpeak: medium, terse, verbose; MathSpeak: verbose, brief, superbrief); a value the
    ///     style does not allow is a preference problem like any other.
    ///   - preferences: style preferences by name (case-insensitive; aliases such as `Fraction`, `Caps` accepted).
    ///     A preference the style does not know, or a value it does not allow, is ignored and reported
    ///     (``preferenceProblems``, and a warning with every spoken formula).
    ///   - strictPreferences: throw ``SpeechLoadError/invalidPreferences(_:)`` for an unknown preference
    ///     name or value instead of ignoring it.
    ///   - rulesDirectory: an override directory for rules and words (also `MATHALOUD_RULES`).
    ///   - texOptions: TeX parsing options (display mode, user macros, limits, trust).
    ///   - speechLimits: bounds on speaking one formula (rule steps, output bytes).
    ///   - cacheCapacity: how many spoken formulas to keep (0 turns the cache off).
    public init(locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak, verbosity: Verbosity? = nil,
                preferences: [String: String] = [:], strictPreferences: Bool = false,
                rulesDirectory: URL? = nil, texOptions: TeXParserOptions = TeXParserOptions(),
                speechLimits: SpeechLimits = SpeechLimits(), cacheCapacity: Int = 1024) throws(SpeechLoadError) {
        let directory = rulesDirectory ?? Speaker.environmentRulesDirectory
        let resources = try SpeechResources(builtIn: EmbeddedSpeechResources.files, overrideDirectory: directory)
        try self.init(resources: resources, locale: locale, style: style, verbosity: verbosity, preferences: preferences,
                      strictPreferences: strictPreferences, texOptions: texOptions, speechLimits: speechLimits,
                      cacheCapacity: cacheCapacity)
    }

    /// Loads a speaker from given rules and words (``SpeechResources``: built-in files, an override
    /// directory, or files made in memory), with the other parameters as
    /// ``init(locale:style:verbosity:preferences:strictPreferences:rulesDirectory:texOptions:speechLimits:cacheCapacity:)``.
    public init(resources: SpeechResources, locale: LocaleTag = .english, style: SpeechStyleName = .clearSpeak,
                verbosity: Verbosity? = nil, preferences: [String: String] = [:], strictPreferences: Bool = false,
                texOptions: TeXParserOptions = TeXParserOptions(), speechLimits: SpeechLimits = SpeechLimits(),
                cacheCapacity: Int = 1024) throws(SpeechLoadError) {
        let chain = try resources.lexiconChain(for: locale.rawValue)
        let compiled = try resources.style(style.rawValue, locale: locale.rawValue)
        var requested = preferences
        if let verbosity, compiled.preferences.contains(where: { $0.name == Verbosity.preferenceName }),
           !requested.keys.contains(where: { $0.lowercased() == Verbosity.preferenceName.lowercased() }) {
            requested[Verbosity.preferenceName] = verbosity.rawValue
        }
        let resolved = compiled.resolve(requested)
        if strictPreferences && !resolved.problems.isEmpty { throw .invalidPreferences(resolved.problems) }
        self.resources = resources
        self.locale = locale
        self.rulesLocale = LocaleTag(compiled.locale.isEmpty ? resources.rulesLocale(for: locale, style: style) ?? locale.rawValue
                                                             : compiled.locale)
        self.style = compiled.name.isEmpty ? style : SpeechStyleName(compiled.name)
        self.preferences = resolved.values
        self.preferenceProblems = resolved.problems
        self.preferenceDiagnostics = resolved.problems.map(\.diagnostic)
        self.untranslatedPhrases = compiled.untranslatedPhrases
        self.parser = FormulaParser(texOptions: texOptions)
        // Units written out in the markup are most often English (MathML generators, the corpora).
        let english = LocaleTag.english
        let markupUnits: (@Sendable () -> WordTable?)? = LocaleTag(chain.first?.tag ?? "").language == english.language ? nil
            : { @Sendable in (try? resources.wordTable("Locales/\(english.rawValue)/units.txt")) ?? nil }
        let lexicon = Lexicon(chain: chain, styleWords: compiled.words, markupUnits: markupUnits)
        self.analyzer = SemanticAnalyzer(options: .init(unitNames: lexicon.unitNames,
                                                        marksAppliedElsewhere: compiled.readsProperty("applied-elsewhere")))
        self.engine = SpeechEngine(style: compiled, lexicon: lexicon, preferences: resolved.values, limits: speechLimits)
        self.cache = BoundedCache(capacity: cacheCapacity)
    }

    /// The verbosity in force, when the style has the `Verbosity` preference.
    public var verbosity: Verbosity? { preferences[Verbosity.preferenceName].flatMap(Verbosity.init(name:)) }

    /// Speaks TeX math (without `$` delimiters). `explain` records which rule spoke each node.
    public func speak(tex: String, explain: Bool = false) -> SpokenFormula {
        speak(tex, notation: .tex, explain: explain)
    }

    /// Speaks MathML.
    public func speak(mathML: String, explain: Bool = false) -> SpokenFormula {
        speak(mathML, notation: .mathml, explain: explain)
    }

    /// Speaks a formula in either notation.
    public func speak(_ source: String, notation: FormulaNotation, explain: Bool = false) -> SpokenFormula {
        let key = SpeechCacheKey(source: source, notation: notation)
        if !explain, let cached = cache.value(for: key) { return cached }
        let spoken = speak(parsed: parser.parse(source, notation: notation), explain: explain)
        // A formula stopped by its time limit (FormulaDeadline) is partial, and a long one rarely comes
        // again: neither is kept.
        if !explain && !FormulaDeadline.isExpired && source.utf8.count <= 4096 { cache.store(spoken, for: key) }
        return spoken
    }

    /// Speaks a formula that is already parsed (e.g. one a renderer also lays out), so the TeX is read
    /// once. Not cached: the caller holds the tree.
    ///
    /// Input refused as a whole (over a limit, malformed MathML: ``Diagnostic/rejection``) is never read
    /// out: its speech is empty and its diagnostics say why; the same holds when the speech itself goes
    /// over its limits (``SpeechLimits``).
    public func speak(parsed: ParsedFormula, explain: Bool = false) -> SpokenFormula {
        if parsed.diagnostics.rejection != nil {
            return SpokenFormula(speech: SpeechDescription(), diagnostics: Speaker.merged(parsed.diagnostics, []), speechDiagnostics: [],
                                 trace: [], semanticTree: analyzer.tree(of: MathNode(.row, [])), source: parsed.source)
        }
        let tree = analyzer.tree(of: parsed.root)
        let output = engine.speak(tree, trace: explain)
        let refused = output.diagnostics.rejection != nil
        var diagnostics = Speaker.merged(parsed.diagnostics, output.diagnostics)
        var speechDiagnostics = output.diagnostics
        if !preferenceDiagnostics.isEmpty {
            diagnostics = preferenceDiagnostics + diagnostics
            speechDiagnostics = preferenceDiagnostics + speechDiagnostics
        }
        return SpokenFormula(speech: refused ? SpeechDescription() : output.description, diagnostics: diagnostics,
                             speechDiagnostics: speechDiagnostics, trace: output.trace, semanticTree: tree,
                             source: parsed.source)
    }

    /// The parser's diagnostics (as speech reads them, ``asSpoken(_:)``) and the speech engine's,
    /// sorted by position (a stable sort: at one position the parser's come first, each in its order).
    static func merged(_ parse: [Diagnostic], _ speech: [Diagnostic]) -> [Diagnostic] {
        if parse.isEmpty && speech.isEmpty { return [] }
        var diagnostics = parse.map(Speaker.asSpoken) + speech
        func position(_ d: Diagnostic) -> Int { d.range?.lowerBound ?? 0 }
        // Already in order, the usual case (one diagnostic, or a few in source order), stays as it is.
        if zip(diagnostics, diagnostics.dropFirst()).contains(where: { position($0) > position($1) }) {
            diagnostics.sort { position($0) < position($1) }
        }
        return diagnostics
    }

    /// The semantic tree of a parsed formula (for benchmarks that time each stage).
    package func analyze(_ parsed: ParsedFormula) -> SemanticTree { analyzer.tree(of: parsed.root) }

    /// Speech for a semantic tree (for benchmarks that time each stage).
    package func speak(semantics: SemanticTree) -> SpeechOutput {
        engine.speak(semantics, trace: false)
    }

    /// How a parse problem reads in speech: an unknown command is spoken by its name, so for speech it is
    /// a warning (the parser, which cannot know what it means, reports an error).
    static func asSpoken(_ d: Diagnostic) -> Diagnostic {
        guard d.id == .texUnknownCommand, d.severity == .error else { return d }
        var spoken = d
        spoken.severity = .warning
        spoken.message += "; read by name"
        return spoken
    }

    /// `MATHALOUD_RULES`, read once per process (the environment is not re-read on every load).
    static let environmentRulesDirectory: URL? = ProcessInfo.processInfo.environment["MATHALOUD_RULES"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    }

    /// A label for TeX from a template (`{speech}`, `{latex}`; default `{speech}`).
    public func label(tex: String, template: LabelTemplate = .speechOnly) -> String {
        template.fill(speech: speak(tex: tex).text, latex: tex)
    }

    /// A label for TeX from a template string such as `Math: {speech}`.
    public func label(tex: String, template: String) -> String {
        label(tex: tex, template: LabelTemplate(template))
    }

    /// A label for MathML from a template (`{speech}`; `{latex}` is the MathML source).
    public func label(mathML: String, template: LabelTemplate = .speechOnly) -> String {
        template.fill(speech: speak(mathML: mathML).text, latex: mathML)
    }

    /// A label for MathML from a template string such as `Math: {speech}`.
    public func label(mathML: String, template: String) -> String {
        label(mathML: mathML, template: LabelTemplate(template))
    }

    /// A label made by your own converter instead of the speech engine (e.g. a cloud service, or a
    /// fixed text); the closure receives the TeX.
    public func label(tex: String, converter: @Sendable (String) -> String) -> String {
        converter(tex)
    }

    /// A phrase of the locale's `locale.txt`, or of a parent's (the document phrases such as
    /// `document.equation-reference`); nil when no locale of the chain has it.
    public func localePhrase(_ key: String, variant: String? = nil) -> String? {
        for words in engine.lexicon.chain {
            if let phrase = words.settings.words(key, variant: variant) { return phrase }
        }
        return nil
    }

    /// How often this speaker's cache of spoken formulas answered (hits) and missed.
    public var cacheStatistics: (hits: Int, misses: Int) { let s = cache.statistics; return (s.hits, s.misses) }

    /// The preferences the style declares, with their allowed values (the first is the default).
    public var availablePreferences: [PreferenceDeclaration] { engine.style.preferences }
}

extension Speaker {
    /// The default speaker (English ClearSpeak, default preferences, built-in rules overlaid by
    /// `MATHALOUD_RULES` when set), loaded once per process on first use and shared.
    public static var shared: Speaker {
        get throws(SpeechLoadError) { try sharedSpeaker.get() }
    }

    private static let sharedSpeaker = Result { () throws(SpeechLoadError) -> Speaker in try Speaker() }

    /// One call: English ClearSpeak for TeX with default preferences, as plain text (the TeX itself
    /// if the default rules cannot be loaded).
    public static func speech(forTeX tex: String) -> String {
        switch sharedSpeaker {
        case .success(let speaker): return speaker.speak(tex: tex).text
        case .failure: return tex
        }
    }

    /// One call: a label for TeX from a template (`Math: {speech}`; default `{speech}`).
    public static func label(forTeX tex: String, template: String = "{speech}") -> String {
        LabelTemplate(template).fill(speech: speech(forTeX: tex), latex: tex)
    }
}

/// The key of a speaker's cache of spoken formulas.
struct SpeechCacheKey: Hashable, Sendable {
    let source: String
    let notation: FormulaNotation
}
