import MathAloud

/// One formula as the audit sees it: where it is in a document, what it is written in, and the text
/// alternatives it already carries. Document adapters build sites from the segmenters of
/// `MathAloudDocuments` (DESIGN.md §13), so the audit judges exactly the formulas `convert` labels.
public struct FormulaSite: Sendable, Hashable {
    /// What kind of formula it is.
    public enum Kind: String, Sendable, Codable {
        /// TeX in text (`$…$`, `\[…\]`, environments, `<script type="math/tex">`).
        case tex
        /// A MathML `<math>` element.
        case mathML = "mathml"
        /// An image of a formula (`<img>`, a Markdown image).
        case image
        /// An inline `<svg>` of a formula.
        case svg
    }

    /// How a label's value is written in its file, so a fix can write a new one.
    public enum LabelSyntax: Sendable, Hashable {
        /// An HTML/XML attribute value between these quotes (`"` or `'`); `nil` for an unquoted value.
        case attribute(quote: UInt8?)
        /// The text between `![` and `](` of a Markdown image.
        case markdownAlt
        /// The text of an SVG `<title>` element.
        case elementText
    }

    /// A text alternative the formula already has.
    public struct Label: Sendable, Hashable {
        /// Where it comes from: `alt`, `alttext`, `aria-label`, `title` (an SVG `<title>`), `markdown-alt`.
        public var name: String
        /// The value, entities decoded.
        public var value: String
        /// The bytes of the value as written (inside the quotes), when it can be rewritten in place.
        public var valueRange: SourceRange?
        /// How the value is written.
        public var syntax: LabelSyntax

        /// Creates a label.
        public init(name: String, value: String, valueRange: SourceRange?, syntax: LabelSyntax) {
            self.name = name
            self.value = value
            self.valueRange = valueRange
            self.syntax = syntax
        }
    }

    /// The kind.
    public var kind: Kind
    /// The bytes of the whole formula in the document (delimiters or the element's tags included).
    public var range: SourceRange
    /// The TeX or MathML to read, entities decoded; for an image, its TeX when the file says it
    /// (`data-tex`, `data-latex`, a TeX alt, a TeX-rendering service URL). `nil` when unknown.
    public var source: String?
    /// The notation of ``source``.
    public var notation: FormulaNotation
    /// Where ``source`` is in the document, for pointing parser diagnostics at the right byte.
    public var sourceMap: OffsetMap?
    /// Display (block) math.
    public var display: Bool
    /// The labels it carries, in document order.
    public var labels: [Label]
    /// For elements: the offset just before the `>` (or `/>`) of the start tag, where a missing
    /// attribute can be inserted. `nil` when the format cannot hold one.
    public var attributeInsertionOffset: Int?
    /// The attribute names the start tag already has (lowercased), so a fix never duplicates one.
    public var attributeNames: Set<String>
    /// For images: the `src` (reported as the formula when no TeX is known).
    public var imageSource: String?
    /// Macros in force for this formula (LaTeX preamble, notebook macro cells, configuration files).
    public var macros: [String: String]

    /// Creates a site.
    public init(kind: Kind, range: SourceRange, source: String?, notation: FormulaNotation = .tex,
                sourceMap: OffsetMap? = nil, display: Bool = false, labels: [Label] = [],
                attributeInsertionOffset: Int? = nil, attributeNames: Set<String> = [], imageSource: String? = nil,
                macros: [String: String] = [:]) {
        self.kind = kind
        self.range = range
        self.source = source
        self.notation = notation
        self.sourceMap = sourceMap
        self.display = display
        self.labels = labels
        self.attributeInsertionOffset = attributeInsertionOffset
        self.attributeNames = attributeNames
        self.imageSource = imageSource
        self.macros = macros
    }

    /// The first label with one of these names.
    func label(_ names: String...) -> Label? { labels.first { names.contains($0.name) } }
}

/// Maps offsets in a decoded string (a formula's TeX after entity or JSON decoding) to offsets in
/// the document it came from: a sorted list of breakpoints, each saying "from this decoded offset
/// on, add this delta".
public struct OffsetMap: Sendable, Hashable {
    /// (decoded offset, document offset) pairs, sorted by decoded offset; the first is for offset 0.
    public var points: [Point]
    /// Maps applied after this one (a formula in a notebook cell: TeX → cell text → file).
    var then: [[Point]] = []

    /// One breakpoint.
    public struct Point: Sendable, Hashable {
        /// The offset in the decoded text.
        public var decoded: Int
        /// The offset in the document.
        public var document: Int
        /// Creates a breakpoint.
        public init(decoded: Int, document: Int) {
            self.decoded = decoded
            self.document = document
        }
    }

    /// A map that shifts every offset by `base` (the text was copied byte for byte).
    public init(base: Int) { points = [Point(decoded: 0, document: base)] }

    /// A map from breakpoints (sorted by decoded offset).
    public init(points: [Point]) { self.points = points.isEmpty ? [Point(decoded: 0, document: 0)] : points }

    /// This map, then `next`.
    public func followed(by next: OffsetMap) -> OffsetMap {
        var map = self
        map.then.append(next.points)
        map.then.append(contentsOf: next.then)
        return map
    }

    /// The document offset of a decoded offset.
    public func documentOffset(_ decoded: Int) -> Int {
        var offset = OffsetMap.apply(points, decoded)
        for next in then { offset = OffsetMap.apply(next, offset) }
        return offset
    }

    private static func apply(_ points: [Point], _ decoded: Int) -> Int {
        var lo = 0, hi = points.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if points[mid].decoded <= decoded { lo = mid } else { hi = mid - 1 }
        }
        return points[lo].document + (decoded - points[lo].decoded)
    }

    /// The document range of a decoded range.
    public func documentRange(_ range: SourceRange) -> SourceRange {
        SourceRange(documentOffset(range.lowerBound), documentOffset(range.upperBound))
    }
}
