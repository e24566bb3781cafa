/// The stable identifier of a kind of diagnostic, such as `tex.unknown-command` (DESIGN.md §3, §11:
/// one catalog of ids). Tools, tests and the service match on it; the message may change, the id does
/// not. Every id the project emits is listed in ``DiagnosticID/catalog`` (a test checks the sources).
///
/// The ids are strings on the wire, and a string literal is an id in Swift
/// (`d.id == "tex.missing-brace"`), so a stage can emit one without importing anything new; the
/// static constants name the ids code needs to test for.
public struct DiagnosticID: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible, Comparable {
    /// The id's text, `stage.kebab-case-name`.
    public let rawValue: String

    /// An id from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An id from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// An id from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The id's text.
    public var description: String { rawValue }
    /// The stage that reports it: the text before the first `.` (`tex`, `mathml`, `speech`…).
    public var stage: Substring { rawValue.prefix { $0 != "." } }

    /// Ordered by text.
    public static func < (a: DiagnosticID, b: DiagnosticID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes the id's text.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the id's text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// What the catalog says about this id (nil for an id outside the catalog).
    public var info: DiagnosticInfo? { DiagnosticID.catalog[self] }

    /// Whether a diagnostic with this id means the whole input was refused (a limit, or input that is
    /// not what it claims to be): nothing of it is spoken, drawn or voiced, and a batch line reports
    /// an error instead of a result.
    public var rejectsInput: Bool { info?.rejectsInput ?? false }
}

/// One entry of the diagnostic catalog.
public struct DiagnosticInfo: Sendable, Hashable {
    /// The id.
    public let id: DiagnosticID
    /// The severity it is reported with.
    public let severity: Diagnostic.Severity
    /// What it means, in a sentence.
    public let summary: String
    /// Whether the input is refused as a whole (see ``DiagnosticID/rejectsInput``).
    public let rejectsInput: Bool

    init(_ id: DiagnosticID, _ severity: Diagnostic.Severity, _ summary: String, rejectsInput: Bool = false) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.rejectsInput = rejectsInput
    }
}

extension DiagnosticID {
    // Ids code tests for.
    /// A command the TeX parser does not know (speech reads it by name).
    public static let texUnknownCommand: DiagnosticID = "tex.unknown-command"
    /// TeX input over the size limit.
    public static let texInputTooLarge: DiagnosticID = "tex.input-too-large"
    /// A command refused by the trust policy (`\href`, `\url`, `\htmlClass`…).
    public static let texUntrustedCommand: DiagnosticID = "tex.untrusted-command"
    /// MathML that is not well-formed XML.
    public static let mathMLMalformed: DiagnosticID = "mathml.malformed"
    /// An attribute dropped by the trust policy (event handlers, unsafe URLs, styles).
    public static let mathMLUntrustedAttribute: DiagnosticID = "mathml.untrusted-attribute"
    /// A word the locale does not have (read by a fallback name).
    public static let speechMissingWord: DiagnosticID = "speech.missing-word"
    /// A requested preference the style does not declare (ignored; the request is answered).
    public static let speechUnknownPreference: DiagnosticID = "speech.unknown-preference"
    /// A requested preference value the preference does not allow (ignored; the request is answered).
    public static let speechUnknownPreferenceValue: DiagnosticID = "speech.unknown-preference-value"
    /// A word found only in a parent locale of another language (spoken, and reported).
    public static let speechFallbackWord: DiagnosticID = "speech.fallback-word"
    /// The speech of one formula grew past its size limit.
    public static let speechOutputLimit: DiagnosticID = "speech.output-limit"
    /// Speaking one formula took more rule-evaluation steps than the limit.
    public static let speechStepLimit: DiagnosticID = "speech.step-limit"
    /// An image larger than the page limit (drawn smaller to fit).
    public static let renderPageTooLarge: DiagnosticID = "render.page-too-large"
    /// A character no loaded font has (drawn as blank space).
    public static let renderMissingGlyph: DiagnosticID = "render.missing-glyph"
    /// A font file that is a font but has no OpenType MATH table (refused).
    public static let renderFontWithoutMathTable: DiagnosticID = "render.font-without-math-table"
    /// A font file that is not a font.
    public static let renderNotAFont: DiagnosticID = "render.not-a-font"
    /// A font path that cannot be read (missing, a directory, a link loop, no permission).
    public static let renderFontUnreadable: DiagnosticID = "render.font-unreadable"
    /// A font name that is neither a family nor a file.
    public static let renderUnknownFont: DiagnosticID = "render.unknown-font"
    /// A font family whose files are not installed.
    public static let renderFontNotInstalled: DiagnosticID = "render.font-not-installed"
    /// HarfBuzz, which reads fonts, could not be loaded.
    public static let renderHarfBuzzUnavailable: DiagnosticID = "render.harfbuzz-unavailable"

    /// Every id the project emits, with its severity and meaning.
    public static let catalog: [DiagnosticID: DiagnosticInfo] = {
        let entries: [DiagnosticInfo] = [
            // TeX front end (MathTeX).
            .init("tex.ambiguous-infix", .error, "Two of \\over, \\atop, \\choose, \\above in one group."),
            .init("tex.bad-argument", .error, "An argument of the wrong form (e.g. a \\cfrac position other than l, c, r)."),
            .init("tex.bad-column-spec", .error, "An array column specification with an unknown column type."),
            .init("tex.bad-definition", .error, "A macro definition that cannot be read (\\def, \\newcommand, \\let, --macro)."),
            .init("tex.bad-dimension", .error, "Text that should be a TeX dimension (1em, 2pt) and is not."),
            .init("tex.diagnostics-truncated", .note, "More diagnostics than the limit for one formula; the rest are counted, not shown."),
            .init("tex.double-subscript", .error, "Two subscripts on one base."),
            .init("tex.double-superscript", .error, "Two superscripts on one base."),
            .init("tex.expansion-limit", .error, "Macro expansion went past its limit (a recursive macro).", rejectsInput: true),
            .init(.texInputTooLarge, .error, "The formula is larger than the input limit.", rejectsInput: true),
            .init("tex.invalid-character", .error, "A character that cannot appear in TeX input (a control character)."),
            .init("tex.macro-pattern", .error, "A macro use that does not match its delimited parameters."),
            .init("tex.mismatched-end", .error, "\\begin{a} closed by \\end{b}."),
            .init("tex.misplaced-alignment", .error, "& or \\\\ outside a table."),
            .init("tex.misplaced-hline", .error, "A table rule (\\hline, \\hdashline, booktabs's \\toprule…) not at the start of a row, or \\intertext outside a table."),
            .init("tex.misplaced-limits", .error, "\\limits or \\nolimits not after a large operator."),
            .init("tex.misplaced-math-shift", .error, "$ inside math."),
            .init("tex.misplaced-middle", .error, "\\middle outside \\left…\\right."),
            .init("tex.misplaced-parameter", .error, "# outside a macro definition."),
            .init("tex.missing-argument", .error, "A command without its required argument."),
            .init("tex.missing-brace", .error, "An unclosed {."),
            .init("tex.missing-bracket", .error, "An unclosed [ of an optional argument."),
            .init("tex.missing-delimiter", .error, "\\left, \\right, \\big… without a delimiter."),
            .init("tex.missing-end", .error, "\\begin{…} without its \\end{…}."),
            .init("tex.missing-environment-name", .error, "\\begin or \\end without a name in braces."),
            .init("tex.missing-right", .error, "\\left without a matching \\right."),
            .init("tex.missing-script", .error, "^ or _ with nothing after it."),
            .init("tex.multiple-tags", .error, "More than one \\tag in a row."),
            .init("tex.redefinition", .error, "\\newcommand of a command that exists."),
            .init("tex.script-in-text", .error, "^ or _ in text mode."),
            .init("tex.size-in-math", .warning, "A text size command (\\tiny … \\Huge) in math mode, where LaTeX ignores it."),
            .init("tex.size-capped", .warning, "A size larger than the maxSize limit, capped at the limit (\\rule, \\kern, \\hspace…)."),
            .init("tex.too-deep", .error, "Groups nested deeper than the limit.", rejectsInput: true),
            .init("tex.too-many-cells", .error, "A table with more cells than the limit.", rejectsInput: true),
            .init("tex.trailing-backslash", .warning, "A lone backslash at the end of the input."),
            .init("tex.unclosed-math", .error, "$ or \\( inside \\text{…} that is not closed."),
            .init("tex.unclosed-verb", .error, "\\verb without its closing delimiter."),
            .init("tex.unknown-color", .error, "A colour name or value that is not known."),
            .init(.texUnknownCommand, .error, "A command the parser does not know (speech reads it by name, as a warning)."),
            .init("tex.unknown-environment", .error, "An environment the parser does not know."),
            .init("tex.unsupported-environment", .warning, "An environment the parser knows but does not read (\\begin{CD}): its body is kept as a table of its characters."),
            .init("tex.unmatched-brace", .error, "A } without its {."),
            .init("tex.unmatched-end", .error, "\\end{…} without its \\begin{…}."),
            .init("tex.unmatched-right", .error, "\\right without a \\left."),
            .init(.texUntrustedCommand, .warning, "A command the trust policy refuses (links, classes, styles, images): its content is kept, the link or attribute dropped."),
            .init("tex.wrong-mode", .error, "A math-only command in text or a text-only command in math."),
            // Math in prose (the text scanner, MathTeX).
            .init("text.input-too-large", .error, "The text is larger than the scanner's input limit.", rejectsInput: true),
            .init("text.too-many-diagnostics", .warning, "Further problems in the text are not listed."),
            .init("text.unclosed-math", .warning, "A math delimiter in prose that is not closed (read as prose)."),
            .init("text.unclosed-brace", .warning, "A `{` left open in math in prose, so the delimiter after it does not close the math (kept as prose); the warning points at the brace."),
            // MathML reader (MathMarkup).
            .init("mathml.doctype", .error, "A DOCTYPE with an internal subset (entity declarations) is refused.", rejectsInput: true),
            .init("mathml.input-too-large", .error, "The MathML is larger than the input limit.", rejectsInput: true),
            .init("mathml.invalid-attribute", .warning, "An attribute value that is not valid for its element."),
            .init("mathml.invalid-character", .warning, "A character XML does not allow, replaced by U+FFFD."),
            .init(.mathMLMalformed, .error, "The input is not well-formed XML.", rejectsInput: true),
            .init("mathml.misplaced-element", .warning, "An element where it cannot be (e.g. <mtd> outside <mtr>)."),
            .init("mathml.too-deep", .error, "Elements nested deeper than the limit.", rejectsInput: true),
            .init("mathml.too-many-nodes", .error, "More elements than the limit.", rejectsInput: true),
            .init("mathml.undeclared-prefix", .warning, "A namespace prefix without a declaration."),
            .init("mathml.unescaped-ampersand", .warning, "An & that does not start a character reference."),
            .init("mathml.unexpected-children", .warning, "Children of an element that takes none."),
            .init("mathml.unexpected-text", .warning, "Text directly inside an element that holds elements: ignored in a MathML element, read as text elsewhere."),
            .init("mathml.unknown-element", .warning, "An element MathML does not have; its children are kept."),
            .init("mathml.unknown-entity", .warning, "A named entity that is not known; kept as text."),
            .init(.mathMLUntrustedAttribute, .warning, "An attribute dropped by the trust policy (event handler, unsafe URL, style)."),
            .init("mathml.wrong-child-count", .warning, "An element with the wrong number of children."),
            // Speech (MathSpeech).
            .init(.speechMissingWord, .warning, "A word the locale does not have, read by a fallback name."),
            .init(.speechUnknownPreference, .warning, "A requested preference the style does not declare; ignored, the formula is spoken."),
            .init(.speechUnknownPreferenceValue, .warning, "A requested preference value the preference does not allow; ignored, the formula is spoken."),
            .init(.speechFallbackWord, .warning, "A word found only in a parent locale of another language (spoken in that language)."),
            .init(.speechOutputLimit, .error, "The speech of one formula grew past its size limit.", rejectsInput: true),
            .init(.speechStepLimit, .error, "Speaking one formula took more rule steps than the limit.", rejectsInput: true),
            // Typesetting (MathAloudRender).
            .init(.renderPageTooLarge, .warning, "The image would be larger than the page limit; it is drawn smaller to fit."),
            .init(.renderMissingGlyph, .warning, "A character no loaded font has (Cyrillic or CJK in \\text{…} with a Latin font): it is drawn as blank space."),
            .init(.renderFontWithoutMathTable, .error, "A font file (--font, RenderOptions.font) that is a font but has no OpenType MATH table, "
                  + "so no constants, size variants or assemblies for math layout: refused (a text font would draw nonsense)."),
            .init(.renderNotAFont, .error, "A font file (--font) that is not an OpenType or TrueType font."),
            .init(.renderFontUnreadable, .error, "A font file (--font) that cannot be read: it does not exist, is a directory, a device "
                  + "or a FIFO, a loop of symbolic links, or not readable."),
            .init(.renderUnknownFont, .error, "A font name that is neither a family (latin-modern, pagella…) nor a font file."),
            .init(.renderFontNotInstalled, .error, "A math font family whose font files are not installed (its Debian package is named)."),
            .init(.renderHarfBuzzUnavailable, .error, "HarfBuzz, which reads fonts, could not be loaded (install libharfbuzz0b)."),
            // Documents (MathAloudDocuments).
            .init("document.binary", .error, "Input that is binary data (a NUL byte: a zip, an image), not text: nothing of it is read.",
                  rejectsInput: true),
            .init("document.include-cycle", .error, "An \\input or \\include that includes itself again."),
            .init("document.include-not-found", .error, "An \\input or \\include whose file cannot be read."),
            .init("document.include-too-deep", .error, "Includes nested deeper than the limit."),
            .init("document.input-too-large", .error, "A document larger than the size limit.", rejectsInput: true),
            .init("document.invalid-encoding", .error, "A document whose bytes are not text in any encoding tried."),
            .init("document.invalid-notebook", .error, "A notebook file that is not a Jupyter notebook's JSON."),
            .init("document.unclosed-element", .warning, "An HTML element left open at the end of the document."),
            // Outputs (the document commands).
            .init("output.symbolic-link", .error, "A symbolic link where a document command writes (its output, an image, a report, a fixed file, a folder on the way): refused, nothing written."),
            .init("document.unresolved-reference", .warning, "An \\eqref or \\ref in the text with no \\label of that name (left as written)."),
        ]
        return Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }()
}

extension Array where Element == Diagnostic {
    /// The first diagnostic that refuses the input as a whole (see ``DiagnosticID/rejectsInput``).
    public var rejection: Diagnostic? { first { $0.severity == .error && $0.id.rejectsInput } }
}
