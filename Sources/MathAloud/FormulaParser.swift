import Foundation
import MathSyntax
import MathTeX
import MathMarkup

/// The notation a formula is written in.
public enum FormulaNotation: String, Sendable, CaseIterable {
    /// TeX math (without `$` delimiters).
    case tex
    /// MathML (a `<math>` element or a presentation fragment).
    case mathml
}

/// A parsed formula: the tree, the diagnostics and the source they point into.
public struct ParsedFormula: Sendable {
    /// The presentation tree (error nodes where the input was bad).
    public let root: MathNode
    /// Problems found, sorted by position.
    public let diagnostics: [Diagnostic]
    /// The source text, for rendering diagnostics with lines and columns.
    public let source: SourceText
    /// The notation it was parsed from.
    public let notation: FormulaNotation
    /// Display (block) layout: the TeX options' display mode, or MathML's `<math display="block">`.
    public let display: Bool

    /// A parsed formula.
    public init(root: MathNode, diagnostics: [Diagnostic], source: SourceText, notation: FormulaNotation,
                display: Bool = false) {
        self.root = root
        self.diagnostics = diagnostics
        self.source = source
        self.notation = notation
        self.display = display
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.containsError }
}

/// The ways a parsed tree can be written out.
public enum TreeFormat: String, Sendable, CaseIterable {
    /// The indented dump of ``MathNode/treeDump(ranges:)``.
    case tree
    /// MathML.
    case mathml
    /// JSON (``MathNode/jsonObject(ranges:)``).
    case json
}

/// Parses TeX or MathML into the presentation tree with one set of options; immutable and `Sendable`.
public struct FormulaParser: Sendable {
    /// The TeX parser used for TeX input.
    public let tex: TeXParser
    /// The MathML reader used for MathML input.
    public let mathML: MathMLReader

    /// Creates a parser with the given TeX options (display mode, user macros, limits).
    public init(texOptions: TeXParserOptions = TeXParserOptions(), mathMLOptions: MathMLReader.Options = .init()) {
        self.tex = TeXParser(options: texOptions)
        self.mathML = MathMLReader(options: mathMLOptions)
    }

    /// Parses `source` written in `notation`.
    public func parse(_ source: String, notation: FormulaNotation = .tex) -> ParsedFormula {
        switch notation {
        case .tex:
            let result = tex.parse(source)
            return ParsedFormula(root: result.root, diagnostics: result.diagnostics, source: SourceText(source), notation: .tex,
                                 display: tex.options.displayMode)
        case .mathml:
            let result = mathML.read(source)
            return ParsedFormula(root: result.root, diagnostics: result.diagnostics, source: SourceText(source), notation: .mathml,
                                 display: result.display)
        }
    }

    /// The tree written as `format`. MathML output carries the TeX source as an annotation when the
    /// input was TeX.
    public func write(_ formula: ParsedFormula, as format: TreeFormat, display: Bool = false) -> String {
        switch format {
        case .tree:
            return formula.root.treeDump()
        case .mathml:
            var options = MathMLWriter.Options()
            options.display = display || tex.options.displayMode
            if formula.notation == .tex { options.includeAnnotation = String(decoding: formula.source.bytes, as: UTF8.self) }
            return MathMLWriter(options: options).write(formula.root)
        case .json:
            return formula.root.jsonText()
        }
    }

    /// Processes one line of a JSONL batch: `{"id", "tex"|"mathml"}` in, one JSON line out:
    /// `{"id", "tree"|"mathml"|"json": …, "diagnostics": […]}` or `{"id", "error"}` when the line
    /// itself is unusable. Never throws; a bad line yields an error line.
    public func batchLine(_ line: String, format: TreeFormat) -> String {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any] else {
            return JSONText.encode(["id": NSNull(), "error": "line is not a JSON object"])
        }
        let id: Any = object["id"] ?? NSNull()
        let source: String
        let notation: FormulaNotation
        if let t = object["tex"] as? String {
            source = t
            notation = .tex
        } else if let m = object["mathml"] as? String {
            source = m
            notation = .mathml
        } else {
            return JSONText.encode(["id": id, "error": "the object needs a \"tex\" or \"mathml\" string"])
        }
        let formula = parse(source, notation: notation)
        let renderer = DiagnosticRenderer(source: formula.source)
        // Keys in sorted order, as JSONText writes them.
        var out = "{\"diagnostics\":" + JSONText.encode(formula.diagnostics.map(renderer.jsonObject))
        out += ",\"id\":" + JSONText.encode(id)
        switch format {
        case .tree: out += ",\"tree\":" + JSONString.quote(formula.root.treeDump())
        case .mathml: out += ",\"mathml\":" + JSONString.quote(write(formula, as: .mathml))
        case .json: out += ",\"tree\":" + formula.root.jsonText()
        }
        return out + "}"
    }
}

/// Compact, key-sorted JSON text for JSON-ready values.
public enum JSONText {
    /// Encodes a JSON-ready value (dictionaries, arrays, strings, numbers, NSNull) on one line.
    public static func encode(_ value: Any) -> String {
        if let s = value as? String { return JSONString.quote(s) }
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]) else {
            return "null"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
