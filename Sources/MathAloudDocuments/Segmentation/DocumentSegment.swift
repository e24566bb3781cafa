import MathAloud

/// One piece of a segmented document: text, a formula, or an element that may carry one.
///
/// Segments tile the file: each starts where the previous one ends, from byte 0 (the byte order mark,
/// if any, is in the first) to the end. Ranges are the file's bytes (``DocumentSource``).
public struct DocumentSegment: Sendable, Hashable {
    /// What a segment is.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Prose, markup, code: everything that is not a formula (kept as it is by conversion).
        case text
        /// An inline formula (`$…$`, `\(…\)`, `<math>`, `<script type="math/tex">`).
        case inlineMath
        /// A display formula (`$$…$$`, `\[…\]`, environments, a math fence, `<math display="block">`).
        case displayMath
        /// An element that may show a formula but gives nothing to read as TeX or MathML: `<img>`,
        /// `<svg>`, a Markdown image, a `<script>` in a notation MathAloud does not read.
        case element
    }

    /// What this segment is.
    public let kind: Kind
    /// The file bytes it covers (for a formula: delimiters or the whole element included).
    public let range: SourceRange
    /// Where it starts: line and column (columns count Unicode scalars).
    public let start: SourceLocation
    /// Where it ends (the position just after its last character).
    public let end: SourceLocation
    /// The formula to read, for ``Kind/inlineMath`` and ``Kind/displayMath``.
    public let formula: DocumentFormula?
    /// The element, when the segment is one (a `<math>`, `<img>`, `<svg>` or `<script>`, a Markdown image).
    public let element: MarkupElement?
    /// How text written into this segment's range must be escaped (text inside a notebook's JSON strings
    /// must be written as JSON string content).
    public let embedding: TextEmbedding

    /// Whether the segment is a formula (inline or display math).
    public var isFormula: Bool { kind == .inlineMath || kind == .displayMath }

    /// Creates a segment.
    public init(kind: Kind, range: SourceRange, start: SourceLocation, end: SourceLocation,
                formula: DocumentFormula? = nil, element: MarkupElement? = nil, embedding: TextEmbedding = .plain) {
        self.kind = kind
        self.range = range
        self.start = start
        self.end = end
        self.formula = formula
        self.element = element
        self.embedding = embedding
    }
}

/// How text is stored where a segment lies.
public enum TextEmbedding: String, Sendable, Codable {
    /// As it is.
    case plain
    /// As the content of a JSON string (a notebook cell's `source`): quotes, backslashes and control
    /// characters escaped.
    case jsonString

    /// `text` escaped for this embedding.
    public func escape(_ text: String) -> String {
        switch self {
        case .plain: return text
        case .jsonString:
            var out = ""
            out.reserveCapacity(text.utf8.count)
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }
}

/// What delimited a formula in a document.
public enum FormulaDelimiter: Sendable, Hashable, Codable {
    /// `$…$`.
    case dollar
    /// `$$…$$`.
    case doubleDollar
    /// `\(…\)`.
    case parenthesis
    /// `\[…\]`.
    case bracket
    /// GitHub's `` $`…`$ ``.
    case dollarBacktick
    /// A Markdown fenced code block whose info string is `math`.
    case mathFence
    /// `\begin{name}…\end{name}` (`equation`, `align*`, `math`…).
    case environment(String)
    /// A MathML `<math>` element.
    case mathElement
    /// `<script type="math/tex">` (MathJax 2's form; `mode=display` for display).
    case scriptElement

    /// How the delimiter is written (`$`, `$$`, `\(`, `\[`, `` $` ``, ```` ```math ````, the environment's
    /// name, `<math>`, `<script>`).
    public var spelling: String {
        switch self {
        case .dollar: "$"
        case .doubleDollar: "$$"
        case .parenthesis: "\\("
        case .bracket: "\\["
        case .dollarBacktick: "$`"
        case .mathFence: "```math"
        case .environment(let name): name
        case .mathElement: "<math>"
        case .scriptElement: "<script>"
        }
    }

    /// The delimiter of a ``MathFragment`` found by the ``MathTextScanner``.
    init(scannerDelimiter d: String) {
        switch d {
        case "$": self = .dollar
        case "$$": self = .doubleDollar
        case "\\(": self = .parenthesis
        case "\\[": self = .bracket
        case "$`": self = .dollarBacktick
        case "```math", "~~~math": self = .mathFence
        default: self = .environment(d)
        }
    }
}

/// A formula found in a document: what to read, and where each part of it came from.
public struct DocumentFormula: Sendable, Hashable {
    /// The notation of ``source``.
    public let notation: FormulaNotation
    /// The formula: TeX without its delimiters (HTML references decoded in HTML text, JSON escapes
    /// decoded in a notebook), or the `<math>` element's markup for MathML.
    public let source: String
    /// Whether it is display math.
    public let display: Bool
    /// What delimited it.
    public let delimiter: FormulaDelimiter
    /// The file bytes ``source`` was taken from.
    public let contentRange: SourceRange
    /// For MathML: the TeX of an `<annotation encoding="application/x-tex">` inside it (KaTeX and
    /// MathJax write one), decoded; nil when there is none.
    public let texAnnotation: String?
    /// How offsets of ``source`` map to offsets of the text the formula was found in.
    let origin: Origin
    /// The found-in text's offsets → the file's.
    let maps: OffsetMapChain

    /// Where a formula's source came from in the text it was found in.
    enum Origin: Hashable, Sendable {
        /// Found by the text scanner (which may have decoded references).
        case fragment(MathFragment)
        /// Taken byte for byte, starting at this offset.
        case verbatim(start: Int)
    }

    init(notation: FormulaNotation, source: String, display: Bool, delimiter: FormulaDelimiter, contentRange: SourceRange,
         texAnnotation: String? = nil, origin: Origin, maps: OffsetMapChain) {
        self.notation = notation
        self.source = source
        self.display = display
        self.delimiter = delimiter
        self.contentRange = contentRange
        self.texAnnotation = texAnnotation
        self.origin = origin
        self.maps = maps
    }

    /// The file range of a range of UTF-8 offsets into ``source`` (a parser diagnostic's range, a spoken
    /// word's source range). A range that starts or ends inside a decoded reference or escape covers all
    /// of it.
    public func fileRange(ofSourceRange range: SourceRange) -> SourceRange {
        let count = source.utf8.count
        let clamped = SourceRange(min(max(0, range.lowerBound), count), min(max(0, range.upperBound), count))
        switch origin {
        case .fragment(let fragment):
            return maps.map(fragment.sourceRange(forTeXRange: clamped))
        case .verbatim(let start):
            return maps.map(SourceRange(clamped.lowerBound + start, clamped.upperBound + start))
        }
    }
}

/// An HTML or XML element (or a Markdown image, read as an `<img>`), with its attributes and where each
/// part of it is in the file, so that a writer can change one attribute and nothing else.
public struct MarkupElement: Sendable, Hashable {
    /// How the element is written.
    public enum Syntax: String, Sendable, Codable {
        /// HTML or XML tags.
        case markup
        /// A Markdown image, `![alt](src "title")`: its attributes are `alt`, `src` and `title`.
        case markdownImage
    }

    /// The element's local name, lowercased (`math` for `<m:math>`).
    public let name: String
    /// How it is written.
    public let syntax: Syntax
    /// The whole element: start tag to end tag (or the start tag alone for a void or self-closing
    /// element).
    public let range: SourceRange
    /// The start tag (for a Markdown image: the whole image).
    public let startTag: SourceRange
    /// The bytes between the start and end tags; nil for a void or self-closing element.
    public let contentRange: SourceRange?
    /// The attributes, in order.
    public let attributes: [MarkupAttribute]
    /// Where a new attribute may be inserted (just after the tag name or the last attribute, before
    /// `>` or `/>`); nil for a Markdown image, which cannot take more attributes.
    public let attributeInsertionOffset: Int?

    /// Creates an element.
    public init(name: String, syntax: Syntax, range: SourceRange, startTag: SourceRange, contentRange: SourceRange?,
                attributes: [MarkupAttribute], attributeInsertionOffset: Int?) {
        self.name = name
        self.syntax = syntax
        self.range = range
        self.startTag = startTag
        self.contentRange = contentRange
        self.attributes = attributes
        self.attributeInsertionOffset = attributeInsertionOffset
    }

    /// The first attribute with this name (ASCII case-insensitive).
    public func attribute(_ name: String) -> MarkupAttribute? {
        let lower = name.lowercased()
        return attributes.first { $0.name.lowercased() == lower }
    }
}

/// An attribute of a ``MarkupElement``.
public struct MarkupAttribute: Sendable, Hashable {
    /// The name as written.
    public let name: String
    /// The value with character references decoded; nil for an attribute written without one
    /// (`<math display>`).
    public let value: String?
    /// The whole attribute: name to closing quote.
    public let range: SourceRange
    /// The name.
    public let nameRange: SourceRange
    /// The value without its quotes; nil when there is no value.
    public let valueRange: SourceRange?
    /// The quote around the value (`"` or `'`), nil when unquoted or absent.
    public let quote: Character?

    /// Creates an attribute.
    public init(name: String, value: String?, range: SourceRange, nameRange: SourceRange, valueRange: SourceRange?,
                quote: Character?) {
        self.name = name
        self.value = value
        self.range = range
        self.nameRange = nameRange
        self.valueRange = valueRange
        self.quote = quote
    }
}
