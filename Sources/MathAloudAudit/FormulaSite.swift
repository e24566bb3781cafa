import MathAloud
import MathAloudDocuments

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
    /// The segmenter's formula, which maps offsets of ``source`` to file bytes (parser diagnostics).
    public var formula: DocumentFormula?
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
    /// How text written into the site's bytes is escaped (JSON string content in a notebook).
    public var embedding: TextEmbedding

    /// Creates a site.
    public init(kind: Kind, range: SourceRange, source: String?, notation: FormulaNotation = .tex,
                formula: DocumentFormula? = nil, display: Bool = false, labels: [Label] = [],
                attributeInsertionOffset: Int? = nil, attributeNames: Set<String> = [], imageSource: String? = nil,
                embedding: TextEmbedding = .plain) {
        self.kind = kind
        self.range = range
        self.source = source
        self.notation = notation
        self.formula = formula
        self.display = display
        self.labels = labels
        self.attributeInsertionOffset = attributeInsertionOffset
        self.attributeNames = attributeNames
        self.imageSource = imageSource
        self.embedding = embedding
    }

    /// The first label with one of these names.
    func label(_ names: String...) -> Label? { labels.first { names.contains($0.name) } }
}

