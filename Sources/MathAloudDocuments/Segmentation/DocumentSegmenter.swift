import Foundation
import MathAloud

/// The document formats MathAloud segments.
public enum DocumentFormat: String, Sendable, Codable, CaseIterable {
    /// Plain text with TeX delimiters (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`, environments), Markdown code
    /// spans and fences left alone: a chat answer, a note.
    case text
    /// CommonMark/GFM Markdown: the text delimiters plus GitHub's ```` ```math ```` fences and
    /// `` $`…`$ ``, HTML comments, inline `<math>`, `<img>`, `<svg>` and Markdown images.
    case markdown
    /// An HTML or XHTML page or fragment: `<math>`, `<img>`, `<svg>`, `<script type="math/tex">`, and
    /// MathJax/KaTeX delimiters in the text (not in tags, comments, `<script>`, `<style>`, `<pre>`,
    /// `<code>`, `<textarea>` or elements of class `mathjax_ignore`/`tex2jax_ignore`).
    case html
    /// A LaTeX source: math delimiters and math environments, comments and verbatim left alone,
    /// `\input`/`\include` followed, definitions collected.
    case latex
    /// A Jupyter notebook (`.ipynb`): the Markdown cells, segmented as ``markdown``, with ranges into the
    /// JSON file's bytes.
    case notebook

    /// The format a file name's extension suggests (`md`, `html`, `tex`, `ipynb`, `txt`…), nil when it
    /// suggests none.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "md", "markdown", "mdown", "mkd", "mkdn", "mdwn", "rmd", "qmd": self = .markdown
        case "html", "htm", "xhtml", "xht", "shtml": self = .html
        case "tex", "ltx", "latex", "sty", "cls": self = .latex
        case "ipynb": self = .notebook
        case "txt", "text": self = .text
        default: return nil
        }
    }

    /// The format of a file, from its name's extension (nil when it does not say).
    public init?(path: String) {
        self.init(pathExtension: (path as NSString).pathExtension)
    }
}

/// What segmenters recognise, and their limits.
public struct SegmenterOptions: Sendable {
    /// Whether `$…$` and `$$…$$` are math (in every format; in HTML, MathJax's default is off but most
    /// pages turn it on). Default `true`.
    public var dollarDelimiters = true
    /// Markdown (and notebooks' Markdown cells): kramdown's `\\(…\\)` and `\\[…\\]` are math too (Jekyll
    /// sites such as cs231n's notes write them so that MathJax receives `\(…\)` after Markdown drops a
    /// backslash; ``MathTextScanner/Options/doubledBackslashDelimiters``). Only prose is looked at: a
    /// `\\` line break in `$$…$$` or an environment stays in its formula. Default `false`
    /// (`--kramdown`; the audit's configuration key `kramdown`).
    public var kramdownDelimiters = false
    /// The largest document segmented, in bytes; a larger one is one text segment with the error
    /// `document.input-too-large`. Default 64 MiB.
    public var maxInputBytes = 64 << 20
    /// At most this many `text.unclosed-math` warnings per document (the rest are counted in one note).
    public var maxDiagnostics = 1000
    /// LaTeX: reads a file an `\input{name}` or `\include{name}` names, given its path relative to the
    /// document's directory; nil when it does not exist. The segmenter asks for the name relative to the
    /// including file's directory first, then relative to the document's (where LaTeX, run in the
    /// document's directory, finds it), each as written and then with `.tex` added when it has no
    /// extension. Without a loader, inclusions are listed but not followed.
    public var loadIncludedFile: (@Sendable (String) -> [UInt8]?)? = nil
    /// LaTeX: the document's own file name (`main.tex`), so that an `\input` of the document itself is
    /// a `document.include-cycle` at once. Optional.
    public var documentFileName: String? = nil
    /// LaTeX: how deep `\input` may nest (default 16).
    public var maxIncludeDepth = 16
    /// LaTeX: environments that are math (the others are prose, scanned inside).
    public var latexMathEnvironments: Set<String> = MathTextScanner.displayEnvironments

    /// The default options.
    public init() {}
}

/// A document split into text and formulas.
public struct SegmentedDocument: Sendable {
    /// The document.
    public let source: DocumentSource
    /// Its format.
    public let format: DocumentFormat
    /// Text, formulas and elements, tiling the file in order.
    public let segments: [DocumentSegment]
    /// What was noticed (unclosed delimiters and elements, an unreadable notebook, a missing included
    /// file…), ranges in file bytes, in order of position.
    public let diagnostics: [Diagnostic]
    /// LaTeX: the definitions (`\newcommand`, `\def`, `\let`, `\DeclareMathOperator`…) made outside
    /// math, in reading order (this file's and those of the files it includes), as TeX text to give the
    /// parser (``TeXParserOptions/definitions``). Empty for other formats.
    public let definitions: String
    /// LaTeX: the `\input`/`\include` commands, in order.
    public let inclusions: [Inclusion]
    /// The file's bytes the format's segmenter never scanned for formulas, sorted and merged: code
    /// spans and blocks, comments, tags and the elements whose text is skipped, `\verb` and verbatim
    /// environments, a notebook's JSON outside its Markdown cells. They are text segments (or inside
    /// element segments); `\eqref`/`\ref` are resolved only outside them, where formulas are found.
    public let unscannedRanges: [SourceRange]
    /// LaTeX: the documents the inclusions loaded (``Inclusion/document`` indexes this).
    public let includedDocuments: [SegmentedDocument]

    /// An `\input{…}` or `\include{…}`.
    public struct Inclusion: Sendable, Hashable {
        /// The command, in this file's bytes.
        public let range: SourceRange
        /// The name as written.
        public let name: String
        /// The path of the file loaded, relative to the document's directory (`chapters/one.tex`); nil
        /// when nothing was loaded.
        public let path: String?
        /// The index of the loaded document in ``SegmentedDocument/includedDocuments``; nil when it was
        /// not loaded (no loader, not found, too deep, or a cycle: see the diagnostics).
        public let document: Int?
    }

    /// The formula segments, in order.
    public var formulas: [DocumentSegment] { segments.filter(\.isFormula) }

    /// The element segments and the formulas that are elements (`<math>`, `<script>`), in order.
    public var elements: [DocumentSegment] { segments.filter { $0.element != nil } }

    /// Every formula segment of this document and the documents it includes, in reading order (an
    /// included file's formulas where its `\input` stands), each with the document it belongs to.
    public var formulasInReadingOrder: [(document: SegmentedDocument, segment: DocumentSegment)] {
        var result: [(SegmentedDocument, DocumentSegment)] = []
        var nextInclusion = 0
        for segment in segments {
            while nextInclusion < inclusions.count, inclusions[nextInclusion].range.lowerBound < segment.range.upperBound,
                  segment.kind == .text {
                if let d = inclusions[nextInclusion].document { result += includedDocuments[d].formulasInReadingOrder }
                nextInclusion += 1
            }
            if segment.isFormula { result.append((self, segment)) }
        }
        while nextInclusion < inclusions.count {
            if let d = inclusions[nextInclusion].document { result += includedDocuments[d].formulasInReadingOrder }
            nextInclusion += 1
        }
        return result
    }
}

/// Splits documents into text and formulas: one segmenter per format (DESIGN.md §13), each reporting
/// exact byte ranges, lines and columns. Conversion, streaming and the audit all read documents through
/// it, so a formula the audit reports is the one `convert` labels.
///
/// ```swift
/// let doc = DocumentSegmenter().segment(DocumentSource(text: "Area: $\\pi r^2$."), as: .markdown)
/// for segment in doc.formulas { print(segment.range, segment.formula!.source) }   // 6..<15 \pi r^2
/// ```
///
/// A segmenter is an immutable value; one can segment any number of documents at once.
public struct DocumentSegmenter: Sendable {
    /// The options in force.
    public let options: SegmenterOptions

    /// Creates a segmenter.
    public init(options: SegmenterOptions = SegmenterOptions()) {
        self.options = options
    }

    /// Segments a document.
    public func segment(_ source: DocumentSource, as format: DocumentFormat) -> SegmentedDocument {
        var visited: Set<String> = []
        if format == .latex, let name = options.documentFileName { visited.insert(LaTeXSegmenter.normalized(name)) }
        return segment(source, as: format, depth: 0, visited: &visited)
    }

    /// Segments a file's bytes (decoded as ``DocumentSource/init(bytes:declared:fallback:)`` does).
    public func segment(bytes: [UInt8], as format: DocumentFormat) -> SegmentedDocument {
        segment(DocumentSource(bytes: bytes), as: format)
    }

    /// Segments text.
    public func segment(text: String, as format: DocumentFormat) -> SegmentedDocument {
        segment(DocumentSource(text: text), as: format)
    }

    func segment(_ source: DocumentSource, as format: DocumentFormat, depth: Int, visited: inout Set<String>,
                 directory: String = "") -> SegmentedDocument {
        if source.bytes.count > options.maxInputBytes {
            let whole = SourceRange(0, source.bytes.count)
            let d = Diagnostic.error("document.input-too-large",
                                     "the document is \(source.bytes.count) bytes, more than the limit of \(options.maxInputBytes); it was not segmented",
                                     at: whole)
            var unread = SegmentCollector(source: source)
            unread.unscanned = [whole]
            return finish(source, format, found: unread, extra: [d])
        }
        var collector = SegmentCollector(source: source)
        var latex = LaTeXResult()
        switch format {
        case .text:
            TextSegmenter(options: options).segment(source.text, into: &collector, maps: [source.map])
        case .markdown:
            MarkdownSegmenter(options: options).segment(source.text, into: &collector, maps: [source.map], whole: .file)
        case .html:
            HTMLSegmenter(options: options).segment(source.utf8, into: &collector, maps: [source.map])
        case .latex:
            latex = LaTeXSegmenter(segmenter: self).segment(source, into: &collector, depth: depth, visited: &visited,
                                                            directory: directory)
        case .notebook:
            NotebookSegmenter(options: options).segment(source.utf8, into: &collector, maps: [source.map])
        }
        return finish(source, format, found: collector, extra: [], latex: latex)
    }

    /// Sorts what the format's segmenter found, fills the gaps with text and adds lines and columns.
    private func finish(_ source: DocumentSource, _ format: DocumentFormat, found: SegmentCollector, extra: [Diagnostic],
                        latex: LaTeXResult = LaTeXResult()) -> SegmentedDocument {
        var items = found.items
        items.sort { $0.range.lowerBound < $1.range.lowerBound }
        // Offsets whose locations are needed, in order: each item's start and end, and the gaps'.
        var pieces: [(kind: DocumentSegment.Kind, range: SourceRange, item: FoundSegment?)] = []
        var position = 0
        for item in items where item.range.lowerBound >= position && item.range.upperBound <= source.bytes.count {
            if item.range.lowerBound > position {
                pieces.append((.text, SourceRange(position, item.range.lowerBound), nil))
            }
            pieces.append((item.kind, item.range, item))
            position = item.range.upperBound
        }
        if position < source.bytes.count { pieces.append((.text, SourceRange(position, source.bytes.count), nil)) }
        var offsets: [Int] = []
        offsets.reserveCapacity(pieces.count * 2)
        for p in pieces {
            offsets.append(source.textOffset(ofFileOffset: p.range.lowerBound))
            offsets.append(source.textOffset(ofFileOffset: p.range.upperBound))
        }
        let locations = source.locations(ofSortedTextOffsets: offsets)
        var segments: [DocumentSegment] = []
        segments.reserveCapacity(pieces.count)
        for (k, p) in pieces.enumerated() {
            segments.append(DocumentSegment(kind: p.kind, range: p.range, start: locations[2 * k], end: locations[2 * k + 1],
                                            formula: p.item?.formula, element: p.item?.element,
                                            embedding: p.item?.embedding ?? .plain))
        }
        var diagnostics = found.diagnostics + extra + latex.diagnostics
        if diagnostics.count > 1 {
            diagnostics = diagnostics.enumerated().sorted {
                let a = $0.element.range?.lowerBound ?? 0, b = $1.element.range?.lowerBound ?? 0
                return a != b ? a < b : $0.offset < $1.offset
            }.map(\.element)
        }
        if source.hadDecodingErrors {
            diagnostics.insert(.warning("document.invalid-encoding",
                                        "the document is not valid \(source.encoding.rawValue); undecodable bytes read as U+FFFD",
                                        at: nil), at: 0)
        }
        return SegmentedDocument(source: source, format: format, segments: segments, diagnostics: diagnostics,
                                 definitions: latex.definitions, inclusions: latex.inclusions,
                                 unscannedRanges: HTMLSegmenter.merged(found.unscanned), includedDocuments: latex.documents)
    }
}

/// A formula or element found by a format's segmenter, in file coordinates.
struct FoundSegment {
    var kind: DocumentSegment.Kind
    var range: SourceRange
    var formula: DocumentFormula?
    var element: MarkupElement?
    var embedding: TextEmbedding
}

/// What a format's segmenter found so far.
struct SegmentCollector {
    let source: DocumentSource
    var items: [FoundSegment] = []
    var diagnostics: [Diagnostic] = []
    /// The file ranges never scanned for formulas (``SegmentedDocument/unscannedRanges``).
    var unscanned: [SourceRange] = []

    init(source: DocumentSource) { self.source = source }

    /// Ranges of a text whose offsets `maps` take to the file, that the segmenter did not scan for
    /// formulas: the very ranges it excluded from the text scanner, and the code the scanner skipped.
    mutating func addUnscanned(_ ranges: [SourceRange], maps: [OffsetMap]) {
        let chain = OffsetMapChain(maps: maps)
        unscanned += ranges.map(chain.map)
    }

    /// A formula found by the text scanner in a text whose offsets `maps` take to the file.
    mutating func add(_ fragment: MathFragment, maps: [OffsetMap], embedding: TextEmbedding) {
        let chain = OffsetMapChain(maps: maps)
        let formula = DocumentFormula(notation: .tex, source: fragment.tex, display: fragment.display,
                                      delimiter: FormulaDelimiter(scannerDelimiter: fragment.delimiter),
                                      contentRange: chain.map(fragment.contentRange), origin: .fragment(fragment), maps: chain)
        items.append(FoundSegment(kind: fragment.display ? .displayMath : .inlineMath, range: chain.map(fragment.range),
                                  formula: formula, element: nil, embedding: embedding))
    }

    /// An element, its ranges in a text whose offsets `maps` take to the file; with the formula it
    /// holds, if any (its source taken byte for byte from `content`).
    mutating func add(_ element: MarkupElement, formula: (notation: FormulaNotation, source: String, display: Bool,
                                                          delimiter: FormulaDelimiter, content: SourceRange,
                                                          texAnnotation: String?)?,
                      maps: [OffsetMap], embedding: TextEmbedding) {
        let chain = OffsetMapChain(maps: maps)
        let mapped = element.mapped(by: chain)
        var documentFormula: DocumentFormula?
        if let f = formula {
            documentFormula = DocumentFormula(notation: f.notation, source: f.source, display: f.display, delimiter: f.delimiter,
                                              contentRange: chain.map(f.content), texAnnotation: f.texAnnotation,
                                              origin: .verbatim(start: f.content.lowerBound), maps: chain)
        }
        let kind: DocumentSegment.Kind = documentFormula == nil ? .element : (documentFormula!.display ? .displayMath : .inlineMath)
        items.append(FoundSegment(kind: kind, range: mapped.range, formula: documentFormula, element: mapped, embedding: embedding))
    }

    /// Diagnostics with ranges in a text whose offsets `maps` take to the file.
    mutating func add(_ found: [Diagnostic], maps: [OffsetMap]) {
        let chain = OffsetMapChain(maps: maps)
        for d in found {
            var moved = d
            moved.range = d.range.map(chain.map)
            moved.notes = d.notes.map { Diagnostic.Note($0.message, range: $0.range.map(chain.map)) }
            moved.fixIts = d.fixIts.map { Diagnostic.FixIt(range: chain.map($0.range), replacement: $0.replacement) }
            diagnostics.append(moved)
        }
    }
}

extension MarkupElement {
    /// The element with every range taken through `chain`.
    func mapped(by chain: OffsetMapChain) -> MarkupElement {
        MarkupElement(name: name, syntax: syntax, range: chain.map(range), startTag: chain.map(startTag),
                      contentRange: contentRange.map(chain.map),
                      attributes: attributes.map {
                          MarkupAttribute(name: $0.name, value: $0.value, range: chain.map($0.range), nameRange: chain.map($0.nameRange),
                                          valueRange: $0.valueRange.map(chain.map), quote: $0.quote)
                      },
                      attributeInsertionOffset: attributeInsertionOffset.map { chain.map($0) })
    }
}
