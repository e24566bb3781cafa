import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MathSyntax

/// Reads presentation MathML into a ``MathNode`` tree.
///
/// The input is a `<math>` element (with or without the MathML namespace, or with a prefix such
/// as `m:` or `mml:`) or a bare fragment of presentation elements. Reading never throws and never
/// crashes: problems become ``Diagnostic`` values (ids `mathml.*`) and, when the input cannot be
/// read at all, the root is an ``MathNode/Kind/error(_:)`` node holding the raw text.
///
/// Work is bounded: the input size, element nesting depth and element count are limited by
/// ``Options``; DOCTYPE internal subsets (entity declarations) are refused, so entity expansion
/// attacks cannot run; the tree is built from SAX events with an explicit stack.
///
/// See ``MathMLWriter`` for the conventions (fenced groups, `data-*` attributes) that make
/// `read(write(tree))` give back the same tree.
public struct MathMLReader: Sendable {
    /// Limits on the input.
    public struct Options: Sendable {
        /// The largest input accepted, in UTF-8 bytes (default 1 MiB); larger inputs give
        /// `mathml.input-too-large`.
        public var maxInputBytes = 1 << 20
        /// The deepest element nesting accepted (default 200); deeper input gives `mathml.too-deep`.
        public var maxDepth = 200
        /// The most elements accepted (default 200,000); more give `mathml.too-many-nodes`.
        public var maxNodes = 200_000
        /// Which links, styles and URLs are kept (``TrustPolicy``; event handlers never are).
        public var trust = TrustPolicy.untrusted
        /// Whether the words an author gave the whole formula (`aria-label` or `exact-speech` on
        /// `<math>`) are kept on the root as its `aria-label`, so that they are what it says (default
        /// true). A checker that compares those words with the formula (the audit) turns this off.
        public var keepsFormulaLabel = true
        /// Reads the TeX of an `annotation` (encoding `application/x-tex`, `application/x-latex`, `TeX` or
        /// `LaTeX`) when a `semantics` has neither its presentation child nor an `annotation-xml` of
        /// presentation MathML, so that it is not silent: the TeX's tree and diagnostics. Nil (the
        /// default) reads no TeX and warns that the `semantics` says nothing; `FormulaParser` sets its
        /// TeX parser here. The tree's nodes and the diagnostics are placed on the annotation's range:
        /// offsets in the TeX are not offsets in the MathML.
        public var texAnnotationReader: (@Sendable (String) -> (root: MathNode, diagnostics: [Diagnostic]))?

        /// Creates options with the default limits.
        public init() {}
    }

    /// The limits in force.
    public let options: Options

    /// Creates a reader.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// Reads `mathml`. Ranges in the result are UTF-8 byte offsets into `mathml`.
    public func read(_ mathml: String) -> MathMLReadResult {
        let byteCount = mathml.utf8.count
        if byteCount > options.maxInputBytes {
            return .failure(mathml, [.error(
                "mathml.input-too-large",
                "the input has \(byteCount) bytes; the limit is \(options.maxInputBytes)",
                at: SourceRange(0, byteCount))])
        }
        let source = Array(mathml.utf8)
        let scanner = MathMLSourceScanner(source)
        if scanner.refused {
            return .failure(mathml, scanner.diagnostics)
        }

        let builder = MathMLTreeBuilder(source: source, tags: scanner.tags, options: options)
        let parser = XMLParser(data: Data(scanner.output))
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        _ = parser.parse() // its result is not reliable on all platforms; the builder tracks errors
        parser.delegate = nil

        var diagnostics = scanner.diagnostics + builder.diagnostics
        if let limit = builder.limitDiagnostic {
            diagnostics.append(limit)
            return .failure(mathml, diagnostics)
        }
        if let error = builder.parseError {
            let offset = Self.rewrittenOffset(of: error.line, error.column, in: scanner.output)
            let start = min(byteCount, scanner.offsets.originalOffset(offset))
            let end = min(byteCount, start + Self.scalarLength(at: start, in: source))
            diagnostics.append(.error(
                "mathml.malformed", "the input is not well-formed XML: \(Self.describe(error.code))",
                at: SourceRange(start, end)))
            return .failure(mathml, diagnostics)
        }
        guard let root = builder.root else {
            diagnostics.append(.error("mathml.malformed", "the input is not well-formed XML",
                                      at: SourceRange(0, byteCount)))
            return .failure(mathml, diagnostics)
        }
        return MathMLReadResult(root: root, diagnostics: Self.sorted(diagnostics),
                                display: builder.display, mathAttributes: builder.mathAttributes)
    }

    // MARK: - Error locations

    /// The byte offset in `bytes` of a 1-based line and 1-based column counted in characters, as
    /// the XML parser reports them (clamped to the text).
    static func rewrittenOffset(of line: Int, _ column: Int, in bytes: [UInt8]) -> Int {
        var offset = 0
        var currentLine = 1
        while currentLine < line, offset < bytes.count {
            if bytes[offset] == 0x0A { currentLine += 1 }
            offset += 1
        }
        var remaining = max(0, column - 1)
        while remaining > 0, offset < bytes.count, bytes[offset] != 0x0A {
            offset += 1
            while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            remaining -= 1
        }
        return offset
    }

    private static func scalarLength(at offset: Int, in bytes: [UInt8]) -> Int {
        guard offset < bytes.count else { return 0 }
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return end - offset
    }

    /// A description of a libxml2 error code (the codes `XMLParser` reports).
    static func describe(_ code: Int) -> String {
        let text: String
        switch code {
        case 4: text = "the document is empty"
        case 5: text = "unexpected content, or the input ends inside an element"
        case 6, 7, 8: text = "invalid character reference"
        case 9: text = "a character that XML does not allow"
        case 23, 24: text = "an entity reference without a name or ';'"
        case 26, 27: text = "an undeclared entity"
        case 38: text = "'<' inside an attribute value"
        case 39, 41: text = "an attribute without a value"
        case 40: text = "an unterminated attribute"
        case 42: text = "an attribute given twice"
        case 43, 44: text = "an attribute value without quotes, or an unterminated one"
        case 45: text = "an unterminated comment"
        case 46, 47: text = "an invalid processing instruction"
        case 63: text = "an unterminated CDATA section"
        case 68: text = "a name is missing"
        case 73: text = "'>' is missing"
        case 74: text = "'</' is missing"
        case 76: text = "the end tag does not match the start tag"
        case 77: text = "an unterminated tag"
        default: text = "XML error"
        }
        return "\(text) (libxml2 code \(code))"
    }

    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let x = a.element.range?.lowerBound ?? Int.max, y = b.element.range?.lowerBound ?? Int.max
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }
}

/// What ``MathMLReader/read(_:)`` returns: the tree, the diagnostics, and what the `<math>`
/// element said about the formula.
public struct MathMLReadResult: Sendable {
    /// The tree. A `<math>` element with one child gives that child; with several (an inferred
    /// `mrow`) a ``MathNode/Kind/row`` spanning the element; unreadable input an
    /// ``MathNode/Kind/error(_:)`` node with the raw text.
    public let root: MathNode
    /// Problems found, in source order.
    public let diagnostics: [Diagnostic]
    /// Whether the `<math>` element asked for display (block) layout: `display="block"` (or the
    /// MathML 1 `mode="display"`). False for fragments without `<math>`.
    public let display: Bool
    /// The other attributes of the `<math>` element (`alttext`, `id`, `intent`…), without
    /// `display` and namespace declarations. Empty for fragments without `<math>`.
    public let mathAttributes: [String: String]

    /// Creates a result.
    public init(root: MathNode, diagnostics: [Diagnostic], display: Bool = false,
                mathAttributes: [String: String] = [:]) {
        self.root = root
        self.diagnostics = diagnostics
        self.display = display
        self.mathAttributes = mathAttributes
    }

    static func failure(_ text: String, _ diagnostics: [Diagnostic]) -> MathMLReadResult {
        MathMLReadResult(root: MathNode(.error(text), range: SourceRange(0, text.utf8.count)),
                         diagnostics: MathMLReader.sorted(diagnostics))
    }
}
