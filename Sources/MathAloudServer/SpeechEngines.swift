import Foundation
import MathAloud

/// The speech engines the service shares between requests: a pool of speakers per locale, style and
/// preferences over one set of rules. Immutable; a rules reload (SIGHUP) builds a new one and swaps it
/// in (``EngineHolder``), so requests in flight finish on the rules they started with.
public final class SpeechEngines: Sendable {
    /// The rules and words (built-in, overlaid by the rules directory).
    public let resources: SpeechResources
    /// Speakers, loaded on demand and kept in a small bounded pool.
    public let speakers: SpeakerPool
    /// When these rules were loaded.
    public let loaded: Date
    /// `GET /openapi.json` for these rules (their locales and styles are listed in it).
    let openAPI: String
    /// `GET /v1/styles`: per locale, each style with its preferences, their values and defaults.
    let styles: [String: [JSONValue]]

    /// Loads the rules and checks every locale and style in them, so a broken file is found now (with
    /// its file:line:column) and not by the first request that needs it.
    public init(rulesDirectory: URL?, texOptions: TeXParserOptions) throws(SpeechLoadError) {
        let resources = try SpeechResources.builtIn(overriddenBy: rulesDirectory)
        var styles: [String: [JSONValue]] = [:]
        for locale in resources.locales {
            // Each locale is checked on resources of its own, dropped after it: what is loaded is not
            // all held at once (66 MB resident at the end of the check, against 34 MB).
            let checking = resources.forgettingLoaded()
            _ = try checking.lexiconChain(for: locale)
            for style in resources.styles(for: locale) {
                let compiled = try checking.style(style, locale: locale)
                let preferences = compiled.preferences.map { p -> JSONValue in
                    .object(["name": .string(p.name), "values": .array(p.values.map { .string($0) }),
                             "default": .string(p.values.first ?? ""), "aliases": .array(p.aliases.map { .string($0) })])
                }
                styles[locale, default: []].append(.object(["locale": .string(locale), "style": .string(style),
                                                            "preferences": .array(preferences)]))
            }
        }
        self.styles = styles
        // The pool loads its speakers from the files checked above (a file changed on disk since is read
        // at the next reload, not by the next new speaker), keeping only what its requests load.
        self.resources = resources
        self.speakers = SpeakerPool(resources: resources, texOptions: texOptions, cacheCapacity: 4096)
        self.loaded = Date()
        self.openAPI = OpenAPIDocument.json(locales: resources.locales,
                                            styles: Array(Set(resources.locales.flatMap { resources.styles(for: $0) })).sorted())
        // The default speaker is loaded now, so the first request does not wait for it.
        _ = try speakers.defaultSpeaker()
    }

    /// The language a request is answered in, as `Content-Language` names it: the BCP 47 tag
    /// (``LocaleTag/bcp47``) of its locale, or of the default locale when it names none: the locale of
    /// the speaker ``speaker(for:)`` gives it. Nil for a tag BCP 47 cannot write.
    func language(of request: FormulaRequest) -> String? {
        (request.locale ?? speakers.defaults.locale).bcp47
    }

    /// The speaker for a request's settings. Unknown locales, styles or preference names and values are
    /// a 400 that says which are available.
    public func speaker(for request: FormulaRequest) throws(ServiceError) -> Speaker {
        switch speakers.speaker(for: request) {
        case .success(let speaker): return speaker
        case .failure(let error): throw ServiceError.badField(error.message)
        }
    }
}

/// Holds the current ``SpeechEngines`` and swaps them on reload. Thread-safe.
public final class EngineHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var engines: SpeechEngines

    /// Holds `engines`.
    public init(_ engines: SpeechEngines) { self.engines = engines }

    /// The engines in force.
    public var current: SpeechEngines {
        lock.lock(); defer { lock.unlock() }
        return engines
    }

    /// Puts new engines in force.
    public func replace(with new: SpeechEngines) {
        lock.lock()
        engines = new
        lock.unlock()
    }
}
