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

    /// The notation an input given without one is in: MathML when, after white space, a byte-order
    /// mark and an XML declaration or comments, it opens a `math` element (`<math>`, `<math …>`,
    /// `<m:math …>` with any prefix); TeX otherwise. No TeX formula begins so (`<` then a letter is
    /// "less than" and a word), and a MathML document read as TeX is a page of "is less than m a t h".
    public static func detected(in input: some StringProtocol) -> FormulaNotation {
        var bytes = Substring(input).utf8[...]
        func skipSpace() { while let b = bytes.first, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { bytes.removeFirst() } }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        skipSpace()
        // An XML declaration or processing instruction, and comments, may come first.
        while bytes.starts(with: Array("<?".utf8)) || bytes.starts(with: Array("<!--".utf8)) {
            let close: [UInt8] = bytes.starts(with: Array("<?".utf8)) ? Array("?>".utf8) : Array("-->".utf8)
            guard let end = bytes.firstRange(of: close) else { return .tex }
            bytes = bytes[end.upperBound...]
            skipSpace()
        }
        guard bytes.first == UInt8(ascii: "<") else { return .tex }
        bytes.removeFirst()
        // The element's name: `math`, or a prefix (an XML name without a colon) and `:math`.
        var name = bytes.prefix { b in
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x2E || b == 0x3A
        }
        if let colon = name.lastIndex(of: 0x3A) {
            let prefix = name[..<colon]
            guard let first = prefix.first, first != 0x2D, first != 0x2E, !(first >= 0x30 && first <= 0x39), !prefix.contains(0x3A) else { return .tex }
            name = name[name.index(after: colon)...]
        }
        guard name.elementsEqual("math".utf8) else { return .tex }
        let after = bytes[name.endIndex...].first
        return after == nil || after == 0x3E || after == 0x2F || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D
            ? .mathml : .tex
    }
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

    /// Creates a parser with the given TeX options (display mode, user macros, limits, trust). The MathML
    /// reader takes `mathMLOptions`, or by default its own limits with the TeX options' trust policy;
    /// unless `mathMLOptions` has its own ``MathMLReader/Options/texAnnotationReader``, it reads the TeX
    /// annotation of a `semantics` that has nothing else to read with ``tex``.
    public init(texOptions: TeXParserOptions = TeXParserOptions(), mathMLOptions: MathMLReader.Options? = nil) {
        self.tex = TeXParser(options: texOptions)
        var reader = mathMLOptions ?? {
            var reader = MathMLReader.Options()
            reader.trust = texOptions.trust
            return reader
        }()
        // A `semantics` with nothing but a TeX annotation is read from its TeX by the TeX parser (its
        // limits and trust), unless the caller's options read it otherwise.
        if reader.texAnnotationReader == nil {
            let tex = self.tex
            reader.texAnnotationReader = { text in
                let result = tex.parse(text)
                return (result.root, result.diagnostics)
            }
        }
        self.mathML = MathMLReader(options: reader)
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
            if formula.notation == .tex { options.includeAnnotation = formula.source.text }
            return MathMLWriter(options: options).write(formula.root)
        case .json:
            return formula.root.jsonText()
        }
    }

    /// Processes one line of a JSONL batch: a ``FormulaRequest`` with `tex` or `mathml` in, one JSON line
    /// out: a ``ParseResponse`` (`{"id", "tree"|"mathml": …, "diagnostics": […]}`) or a ``BatchError``
    /// (`{"id", "error"}`) when the line itself is unusable. A request's `format` (`tree`, `mathml`,
    /// `json`) overrides `format`. Never throws; a bad line yields an error line.
    public func batchLine(_ line: String, format: TreeFormat) -> String {
        switch FormulaRequest.read(line: line) {
        case .success(let request): return response(to: request, format: format).jsonLine
        case .failure(let error): return error.jsonLine
        }
    }

    /// The response to a parse request (its `format`, when it names a tree format, overrides `format`).
    public func response(to request: FormulaRequest, format: TreeFormat) -> BatchResult<ParseResponse> {
        guard let notation = request.input.notation else {
            return .failure(BatchError(id: request.id, message: "parse takes \"tex\" or \"mathml\", not \"text\""))
        }
        var chosen = format
        if let f = request.format {
            guard let tree = TreeFormat(f) else {
                return .failure(BatchError(id: request.id, message: "\"format\" must be \(OutputFormat.names(of: .tree)) for parse, not \(f)"))
            }
            chosen = tree
        }
        let formula = parse(request.input.source, notation: notation)
        let renderer = DiagnosticRenderer(source: formula.source)
        var response = ParseResponse(id: request.id, diagnostics: formula.diagnostics.map(renderer.record))
        switch chosen {
        case .tree: response.tree = .string(formula.root.treeDump())
        case .mathml: response.mathml = write(formula, as: .mathml, display: request.display ?? false)
        case .json: response.tree = formula.root.jsonValue()
        }
        return .success(response)
    }
}
