import MathAloud

/// Draws formulas for documents. MathAloudDocuments does not typeset; a renderer does: the
/// `MathAloudDocumentsRender` module makes MathAloudRender's `Renderer` one (`renderer.documentImages`),
/// and any other drawing code can be one too.
public protocol FormulaImageMaker: Sendable {
    /// The image of a parsed formula, with `label` as its accessible name (an SVG's `<title>`, a PNG's
    /// `Description`); nil when it cannot be drawn (the formula then stays as written).
    func image(of formula: ParsedFormula, request: FormulaImageRequest) -> FormulaImage?
}

/// What a ``FormulaImageMaker`` is asked to draw.
public struct FormulaImageRequest: Sendable, Hashable {
    /// Display style.
    public var display: Bool
    /// The accessible name.
    public var label: String
    /// The speech (for formats that carry both).
    public var speech: String
    /// The colour of the parts that did not parse (a CSS colour), nil for the renderer's own.
    public var errorColor: String?
    /// Equation numbers at the left instead of the right.
    public var numbersOnLeft: Bool
    /// A prefix for the ids inside an SVG, unique in the page it goes into.
    public var idPrefix: String

    /// Creates a request.
    public init(display: Bool, label: String, speech: String, errorColor: String? = nil, numbersOnLeft: Bool = false,
                idPrefix: String) {
        self.display = display
        self.label = label
        self.speech = speech
        self.errorColor = errorColor
        self.numbersOnLeft = numbersOnLeft
        self.idPrefix = idPrefix
    }
}

/// A drawn formula.
public struct FormulaImage: Sendable, Hashable {
    /// The image's format.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// SVG (written inline in HTML, or as a file).
        case svg
        /// PNG.
        case png

        /// The media type.
        public var mediaType: String { self == .svg ? "image/svg+xml" : "image/png" }
    }

    /// The format.
    public let format: Format
    /// The file's bytes.
    public let data: [UInt8]
    /// Width and height in CSS pixels.
    public let width: Double
    public let height: Double
    /// The CSS `vertical-align` that puts the image on the text's baseline (`-3.2px`), as `render`
    /// writes it.
    public let verticalAlign: String

    /// Creates an image.
    public init(format: Format, data: [UInt8], width: Double, height: Double, verticalAlign: String) {
        self.format = format
        self.data = data
        self.width = width
        self.height = height
        self.verticalAlign = verticalAlign
    }
}
