import MathAloud

/// How a formula's label (its `alttext`, `aria-label`, `alt` or SVG `<title>`) is made.
public enum LabelMode: Sendable {
    /// The speech through the label template (``DocumentOptions/labelTemplate``: `{speech}`, `{latex}`),
    /// followed by the formula's equation number in the locale's words (`…, equation 3`). The default.
    case speech
    /// The TeX source as written (for MathML, its TeX annotation, else its speech).
    case tex
    /// No label at all (the formula is shown; assistive technology finds nothing to read).
    case none
    /// Your own: the closure gets what is known of the formula and returns the label (nil: none).
    case custom(@Sendable (FormulaLabelRequest) -> String?)
}

/// What a ``LabelMode/custom(_:)`` closure is told about a formula.
public struct FormulaLabelRequest: Sendable {
    /// The formula as written (TeX without delimiters, or MathML).
    public let source: String
    /// Its notation.
    public let notation: FormulaNotation
    /// Whether it is display math.
    public let display: Bool
    /// Its speech.
    public let speech: String
    /// The equation numbers or tags it shows (empty for most formulas).
    public let numbers: [String]
    /// The label ``LabelMode/speech`` would give.
    public let defaultLabel: String
}

/// What a document shows for a formula that has errors (a parse error or an unknown command). Text
/// is never dropped.
public enum ErrorMode: Sendable, Hashable {
    /// The formula stays as it was written, delimiters and all (KaTeX's `throwOnError: false` without
    /// colour), and gets no label.
    case keepSource
    /// The error message is shown with the source (`<span class="mathaloud-error">` in HTML, inline
    /// code and the message in Markdown).
    case showError
    /// The formula is drawn as far as it parsed, the bad parts in this colour (a CSS colour, default
    /// `#cc0000`), and labelled like any other.
    case render(color: String = "#cc0000")
}

/// Which formulas are shown as display math.
public enum DisplayMode: String, Sendable, Codable, CaseIterable {
    /// As their delimiters say (`$$`, `\[`, environments are display; `$`, `\(` inline).
    case asWritten
    /// Every formula in display style.
    case display
    /// Every formula in text style.
    case inline
}

/// What to make for each formula.
public struct FormulaProducts: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates a set.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// MathML (for HTML output).
    public static let mathML = FormulaProducts(rawValue: 1)
    /// An image (SVG or PNG, through the ``FormulaImageMaker``).
    public static let image = FormulaProducts(rawValue: 2)
}

/// Options for reading the formulas of documents and streams.
public struct DocumentOptions: Sendable {
    /// What the segmenters recognise.
    public var segmenter = SegmenterOptions()
    /// How labels are made (default ``LabelMode/speech``).
    public var label: LabelMode = .speech
    /// The label template of ``LabelMode/speech``: `{speech}` and `{latex}` are replaced (default
    /// `{speech}`).
    public var labelTemplate = "{speech}"
    /// What shows for a formula with errors (default ``ErrorMode/keepSource``).
    public var errors: ErrorMode = .keepSource
    /// Equation numbering (default: amsmath's numbered environments, from 1, on the right).
    public var numbering = EquationNumbering()
    /// Macros for every formula of every document (`["\\RR": "\\mathbb{R}"]`).
    public var macros: [String: String] = [:]
    /// TeX definitions for every formula (`\newcommand{\R}{\mathbb{R}}`…).
    public var definitions = ""
    /// Whether a definition made in one formula (`$\newcommand{\R}{\mathbb{R}}$`) holds in the later
    /// formulas of the same document or stream, as in MathJax (default `true`). A LaTeX document's
    /// preamble definitions always hold.
    public var keepsDefinitions = true
    /// Which formulas are display math (default: as written).
    public var displayMode: DisplayMode = .asWritten
    /// Parser limits; `maxExpansions` is KaTeX's `maxExpand`, `maxSize` KaTeX's `maxSize`.
    public var limits = TeXLimits()
    /// Which of `\href`, `\url`, `\includegraphics`, `\htmlClass`… may act (KaTeX's `trust`; default
    /// none: an untrusted one gets the warning `tex.untrusted-command`, its content kept).
    public var trust: TrustPolicy = .untrusted
    /// What to make besides speech and labels (default MathML).
    public var products: FormulaProducts = [.mathML]
    /// Resolve `\eqref{key}` and `\ref{key}` in the text (default `true`).
    public var resolvesReferences = true
    /// Whether a `<math>` element's own words (`aria-label`, `exact-speech`) are what it says (default
    /// `true`); off to relabel a document whose labels may be wrong (`mathaloud convert --relabel`), so
    /// that its formulas are read from their MathML.
    public var readsAuthorLabels = true

    /// The defaults.
    public init() {}

    /// The TeX parser options for one formula.
    func texOptions(display: Bool, definitions: String) -> TeXParserOptions {
        var options = TeXParserOptions(displayMode: display, macros: macros, limits: limits)
        options.definitions = definitions
        options.trust = trust
        return options
    }
}
