import MathAloud

/// The audit's rules: one stable id per kind of problem a listener meets (issue 15, "Findings").
///
/// Ids are part of the interface: configuration files, SARIF dashboards and `--fail-on` pipelines
/// match on them, so an id is never renamed. Severities are defaults; `.mathaloud-audit.json` can
/// change them or turn a rule off.
public enum AuditRule: String, CaseIterable, Sendable, Codable, Comparable {
    /// The formula does not parse: the parser reported an error (unclosed delimiter, unbalanced
    /// braces, a missing argument…). The message carries the parser's diagnostic.
    case parseError = "math.parse-error"
    /// The formula uses a command or macro the parser does not know; a renderer fails on it and
    /// speech can only spell its name.
    case unknownCommand = "math.unknown-command"
    /// A math delimiter (`$`, `\(`, `\[`, an environment) is opened and never closed.
    case unclosedMath = "math.unclosed-delimiter"
    /// The formula parses, but speech falls back to reading a symbol by its name (no word for it).
    case readByName = "math.read-by-name"
    /// An image of a formula has no `alt` attribute (or a Markdown image has no alt text).
    case imageMissingAlt = "image.missing-alt"
    /// An image of a formula has an empty alt: a screen reader skips it as decoration.
    case imageEmptyAlt = "image.empty-alt"
    /// An image's alt is TeX or MathML source: a screen reader spells out backslashes and tags.
    case imageRawSourceAlt = "image.raw-source-alt"
    /// An image's alt is a placeholder ("equation", "image", a file name): it says nothing of the math.
    case imagePlaceholderAlt = "image.placeholder-alt"
    /// An image's alt names other symbols than the formula it shows (known from its TeX source).
    case imageAltMismatch = "image.alt-mismatch"
    /// A `<math>` element has neither `alttext` nor `aria-label`: readers without MathML support say nothing.
    case mathMissingLabel = "mathml.missing-label"
    /// A `<math>` element's `alttext`/`aria-label` is a placeholder.
    case mathPlaceholderLabel = "mathml.placeholder-label"
    /// A `<math>` element's `alttext`/`aria-label` is TeX or MathML source, spelled out when read.
    case mathRawSourceLabel = "mathml.raw-source-label"
    /// A `<math>` element's `alttext`/`aria-label` names other symbols than its content.
    case mathLabelMismatch = "mathml.label-mismatch"
    /// An `<svg>` of a formula has no accessible name (`aria-label`, `<title>`) or a placeholder one.
    case svgMissingLabel = "svg.missing-label"
    /// A file could not be read (permissions, I/O error, a broken archive, too large).
    case unreadable = "document.unreadable"
    /// A file could be read but not understood as its format (a notebook that is not JSON, an EPUB
    /// without a package document): its formulas could not be audited.
    case malformed = "document.malformed"
    /// A LaTeX `\input`/`\include` names a file that is not there: its formulas were not audited.
    case missingInclude = "document.missing-include"
    /// A LaTeX `\input`/`\include` of a file already being read (an include cycle) or nested too deep:
    /// not followed again.
    case includeCycle = "document.include-cycle"

    /// The default severity.
    public var defaultSeverity: Diagnostic.Severity {
        switch self {
        case .parseError, .unknownCommand, .imageMissingAlt, .imageEmptyAlt, .imageRawSourceAlt,
             .imagePlaceholderAlt, .mathPlaceholderLabel, .svgMissingLabel, .unreadable, .malformed:
            .error
        case .unclosedMath, .readByName, .imageAltMismatch, .mathMissingLabel, .mathRawSourceLabel,
             .mathLabelMismatch, .missingInclude, .includeCycle:
            .warning
        }
    }

    /// Whether a finding of this rule means the document itself could not be audited (then `--fix`
    /// writes nothing unless forced).
    public var isDocumentFailure: Bool { self == .unreadable || self == .malformed }

    /// A short name (SARIF `name`, report headings).
    public var title: String {
        switch self {
        case .parseError: "Formula does not parse"
        case .unknownCommand: "Unknown command or macro"
        case .unclosedMath: "Unclosed math delimiter"
        case .readByName: "Symbol read by name"
        case .imageMissingAlt: "Formula image without alt"
        case .imageEmptyAlt: "Formula image with empty alt"
        case .imageRawSourceAlt: "Formula image alt is source code"
        case .imagePlaceholderAlt: "Formula image alt is a placeholder"
        case .imageAltMismatch: "Formula image alt disagrees with its formula"
        case .mathMissingLabel: "MathML without alttext or aria-label"
        case .mathPlaceholderLabel: "MathML label is a placeholder"
        case .mathRawSourceLabel: "MathML label is source code"
        case .mathLabelMismatch: "MathML label disagrees with its content"
        case .svgMissingLabel: "Formula SVG without an accessible name"
        case .unreadable: "File cannot be read"
        case .malformed: "File is not valid for its format"
        case .missingInclude: "Included file not found"
        case .includeCycle: "Include cycle"
        }
    }

    /// What the rule checks and why it matters (SARIF `fullDescription`, `--list-rules`).
    public var explanation: String {
        switch self {
        case .parseError: "The TeX or MathML has errors; renderers show an error box and speech reads only what could be understood."
        case .unknownCommand: "A command or macro is not defined; renderers fail and speech can only spell its name. Define it (a macro file in the configuration) or fix the spelling."
        case .unclosedMath: "A math delimiter is opened and never closed, so the formula is shown (and read) as raw text."
        case .readByName: "Speech has no word for a symbol and reads its Unicode name instead."
        case .imageMissingAlt: "An image of a formula has no alt text: a screen reader says the file name or nothing."
        case .imageEmptyAlt: "An empty alt marks an image as decoration; a formula image is content, so it is skipped."
        case .imageRawSourceAlt: "The alt text is TeX or MathML source; a screen reader spells out backslashes, braces and tags."
        case .imagePlaceholderAlt: "The alt text is a placeholder such as \"equation\" or a file name; it says nothing about the math."
        case .imageAltMismatch: "The alt text names symbols the formula does not have (or none it has)."
        case .mathMissingLabel: "A <math> element has no alttext or aria-label; readers and browsers without MathML support read nothing."
        case .mathPlaceholderLabel: "The alttext/aria-label is a placeholder such as \"equation\"; it says nothing about the math."
        case .mathRawSourceLabel: "The alttext/aria-label is TeX or MathML source; readers that use it spell it out."
        case .mathLabelMismatch: "The alttext/aria-label names symbols the MathML does not contain (or none it does)."
        case .svgMissingLabel: "An SVG of a formula has no accessible name (role=\"img\" with aria-label, or a <title>)."
        case .unreadable: "The file could not be read, so its formulas were not audited."
        case .malformed: "The file is not valid for its format, so its formulas were not audited."
        case .missingInclude: "A LaTeX \\input or \\include names a file that is not in the set; its formulas were not audited."
        case .includeCycle: "A LaTeX \\input or \\include of a file that is already being read (it includes itself, directly or through other files) or nested too deep: it is not followed again."
        }
    }

    /// Rules sort by id.
    public static func < (a: AuditRule, b: AuditRule) -> Bool { a.rawValue < b.rawValue }
}
