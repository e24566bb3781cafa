import MathSyntax

/// Renders a ``SpeechDescription`` as SSML 1.1: `<speak>` with `<break time="…ms"/>` for pauses and,
/// optionally, `<prosody pitch>` around superscripts (+) and subscripts (−).
public struct SSMLRenderer: Sendable {
    /// Wrap words from scripts in prosody (off by default).
    public var scriptProsody: Bool
    /// Multiplier applied to every pause length.
    public var pauseScale: Double
    /// The `xml:lang` of the `<speak>` element.
    public var language: String

    /// Creates a renderer.
    public init(scriptProsody: Bool = false, pauseScale: Double = 1, language: String = "en") {
        self.scriptProsody = scriptProsody
        self.pauseScale = pauseScale
        self.language = language
    }

    /// Creates a renderer whose `xml:lang` is the speech locale's BCP 47 tag (``LocaleTag/bcp47``: `zh-TW`
    /// for `zh-tw`), or the locale as written when it has none.
    public init(scriptProsody: Bool = false, pauseScale: Double = 1, locale: LocaleTag) {
        self.init(scriptProsody: scriptProsody, pauseScale: pauseScale, language: Self.language(of: locale))
    }

    /// The `xml:lang` of a speech locale: its BCP 47 tag, or the locale as written when it has none.
    public static func language(of locale: LocaleTag) -> String { locale.bcp47 ?? locale.rawValue }

    /// The SSML document.
    public func render(_ speech: SpeechDescription) -> String {
        var out = "<speak version=\"1.1\" xmlns=\"http://www.w3.org/2001/10/synthesis\" xml:lang=\"\(XMLEscaping.attribute(language))\">"
        var openProsody: SpeechDescription.Prosody? = nil
        for item in speech.trimmed.items {
            switch item {
            case let .words(w, _, prosody):
                let wanted = scriptProsody ? prosody : nil
                if wanted != openProsody {
                    if openProsody != nil { out += "</prosody>" }
                    if let wanted { out += wanted == .superscript ? "<prosody pitch=\"+15%\">" : "<prosody pitch=\"-15%\">" }
                    openProsody = wanted
                }
                if !out.hasSuffix(">") { out += " " }
                out += XMLEscaping.text(w)
            case let .pause(p):
                if openProsody != nil { out += "</prosody>"; openProsody = nil }
                out += "<break time=\"\(Int((Double(p.milliseconds) * pauseScale).rounded()))ms\"/>"
            }
        }
        if openProsody != nil { out += "</prosody>" }
        return out + "</speak>"
    }
}

/// Fills a label template: `{speech}` and `{latex}` (also `<speech>` and `<latex>`) are replaced;
/// everything else is kept. Nothing is escaped: writers escape for their format.
public struct LabelTemplate: Hashable, Sendable {
    /// The template text, e.g. `Math: {speech}`.
    public let template: String
    /// The template read once: literal text and the two placeholders, in order.
    private let parts: [Part]

    private enum Part: Hashable, Sendable {
        case text(String)
        case speech
        case latex
    }

    /// The default template, `{speech}`.
    public static let speechOnly = LabelTemplate("{speech}")

    /// Creates a template.
    public init(_ template: String) {
        self.template = template
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(template)
        while let i = rest.firstIndex(where: { $0 == "{" || $0 == "<" }) {
            literal += rest[..<i]
            let tail = rest[i...]
            if tail.hasPrefix("{speech}") || tail.hasPrefix("<speech>") {
                if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
                parts.append(.speech)
                rest = tail.dropFirst(8)
            } else if tail.hasPrefix("{latex}") || tail.hasPrefix("<latex>") {
                if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
                parts.append(.latex)
                rest = tail.dropFirst(7)
            } else {
                literal.append(tail.first!)
                rest = tail.dropFirst()
            }
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    /// The label for a formula's speech and source.
    public func fill(speech: String, latex: String) -> String {
        if parts.count == 1, case .speech = parts[0] { return speech }
        var out = ""
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .speech: out += speech
            case .latex: out += latex
            }
        }
        return out
    }
}
