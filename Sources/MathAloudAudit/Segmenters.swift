import Foundation
import MathAloud
import MathAloudDocuments

// The audit's view of a document, made from MathAloudDocuments' segmenters (DESIGN.md §13: one
// segmenter per format; conversion, streaming, audit and --fix all sit on it, so a formula the audit
// finds is the one `convert` labels). This file only turns segments into formula sites: which
// elements are formulas (``FormulaImages``), their labels and where a fix writes.

/// The file formats the audit reads: the documents' formats, and EPUB 3 (a container of XHTML).
public enum FileFormat: String, Sendable, CaseIterable, Codable {
    /// CommonMark/GFM with math delimiters (`.md`, `.markdown`, `.qmd`, `.Rmd`).
    case markdown
    /// HTML or XHTML (`.html`, `.htm`, `.xhtml`).
    case html
    /// LaTeX (`.tex`, `.ltx`).
    case latex
    /// Jupyter notebooks (`.ipynb`).
    case notebook
    /// EPUB 3 (`.epub`): its spine documents are read as HTML.
    case epub
    /// Plain text with TeX delimiters (`.txt`).
    case text

    /// The format of a file, from its extension (LaTeX packages and classes, `.sty` and `.cls`, are not
    /// documents: they are given as macro files).
    public static func forExtension(_ ext: String) -> FileFormat? {
        let lower = ext.lowercased()
        if lower == "epub" { return .epub }
        if lower == "sty" || lower == "cls" { return nil }
        return DocumentFormat(pathExtension: lower).map(FileFormat.init)
    }

    init(_ format: DocumentFormat) {
        switch format {
        case .markdown: self = .markdown
        case .html: self = .html
        case .latex: self = .latex
        case .notebook: self = .notebook
        case .text: self = .text
        }
    }

    /// The segmenter's format (EPUB documents are HTML).
    var documentFormat: DocumentFormat {
        switch self {
        case .markdown: .markdown
        case .html, .epub: .html
        case .latex: .latex
        case .notebook: .notebook
        case .text: .text
        }
    }

    /// The format of a file from its first bytes, for files without a known extension.
    public static func sniff(_ head: [UInt8]) -> FileFormat? {
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return head.count >= 58 && String(decoding: head[30..<min(head.count, 58)], as: UTF8.self).contains("epub") ? .epub : nil
        }
        let text = String(decoding: head.prefix(1024), as: UTF8.self).lowercased()
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{"), text.contains("\"cells\"") || text.contains("\"nbformat\"") { return .notebook }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || (trimmed.hasPrefix("<?xml") && text.contains("<html")) { return .html }
        if text.contains("\\documentclass") { return .latex }
        return nil
    }
}

/// A document as the audit judges it: its text (for locations), the formula sites, and the problems
/// the segmenter noticed.
struct AuditDocument: Sendable {
    /// The file's bytes, indexed for lines and columns.
    var text: SourceText
    /// The formulas, in document order.
    var sites: [FormulaSite] = []
    /// Problems of the document itself (an unclosed delimiter, a malformed notebook, a missing include).
    var problems: [(rule: AuditRule, message: String, range: SourceRange)] = []
    /// Whether `<math>` elements carry `aria-label` already.
    var usesAriaLabel = false
    /// TeX definitions the document makes (LaTeX preamble and included files).
    var definitions = ""
    /// Whether the file is not UTF-8 (then `--fix` does not rewrite it).
    var transcoded = false
    /// The file's encoding (excerpts of a Windows-1252 file are decoded from it).
    var encoding: TextEncoding = .utf8
    /// LaTeX: the files its `\input`/`\include` commands load (and theirs), in reading order, each once,
    /// with its path relative to this document's directory.
    var includes: [(path: String, document: AuditDocument)] = []
}

extension AuditDocument {
    /// The text of a line (1-based) for an excerpt: decoded in the file's encoding (a Windows-1252
    /// file's "é" is shown as "é", not U+FFFD), one character per byte as the columns count them.
    func excerptLine(_ line: Int) -> String {
        guard encoding == .windows1252 else { return text.lineText(line) }
        let bytes = text.bytes
        var start = 0, current = 1
        while current < line, let newline = bytes[start...].firstIndex(of: 0x0A) { start = newline + 1; current += 1 }
        guard current == line, start <= bytes.count else { return "" }
        var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return DocumentSource(bytes: Array(bytes[start..<end]), declared: .windows1252).text
    }
}

enum Segmenters {
    /// Segments `bytes` as `format` and collects the formula sites. `url` locates LaTeX inclusions.
    static func segment(_ bytes: [UInt8], format: FileFormat, url: URL?, kramdown: Bool = false) -> AuditDocument {
        // The segmenter's options as convert has them (`$` is math in every format, SegmenterOptions):
        // a formula the audit finds is the one conversion labels.
        var options = SegmenterOptions()
        options.kramdownDelimiters = kramdown
        if format == .latex, let url { includeOptions(&options, url: url) }
        let segmented = DocumentSegmenter(options: options).segment(bytes: bytes, as: format.documentFormat)
        var document = self.document(segmented, bytes: bytes)
        // The included files, each once, in reading order (a file included twice is judged once). Each
        // is read with the definitions of the whole document, its root's (its preamble's and every
        // included file's), at any depth of inclusion: a book's chapter file that `\input`s its sections
        // gave them only the chapter's own definitions, and the preamble's macros were unknown commands
        // there (4,223 false errors in APEX Calculus's 21,093 formulas, session 54).
        let rootDefinitions = segmented.definitions
        var seen = Set<String>()
        func collect(_ segmented: SegmentedDocument) {
            for inclusion in segmented.inclusions {
                guard let index = inclusion.document, let path = inclusion.path else { continue }
                let included = segmented.includedDocuments[index]
                if seen.insert(path).inserted {
                    var judged = self.document(included, bytes: included.source.bytes)
                    judged.definitions = rootDefinitions
                    document.includes.append((path, judged))
                }
                collect(included)
            }
        }
        collect(segmented)
        return document
    }

    /// The options that follow a LaTeX file's `\input`/`\include` from `url`'s directory (files of at
    /// most 16 MiB; the file itself is a cycle).
    static func includeOptions(_ options: inout SegmenterOptions, url: URL) {
        let directory = url.deletingLastPathComponent()
        options.documentFileName = url.lastPathComponent
        options.loadIncludedFile = { name in
            let file = directory.appendingPathComponent(name)
            guard case .success(let bytes) = AuditEngine.read(file, limit: 16 << 20),
                  DocumentSource.binaryOffset(of: bytes) == nil else { return nil }
            return bytes
        }
    }

    /// The files a LaTeX file includes (and they include), as standardized paths.
    static func includedFiles(of url: URL) -> Set<String> {
        guard case .success(let bytes) = AuditEngine.read(url, limit: 16 << 20) else { return [] }
        var options = SegmenterOptions()
        includeOptions(&options, url: url)
        let segmented = DocumentSegmenter(options: options).segment(bytes: bytes, as: .latex)
        let directory = url.deletingLastPathComponent()
        var files = Set<String>()
        func collect(_ segmented: SegmentedDocument) {
            for inclusion in segmented.inclusions {
                guard let index = inclusion.document, let path = inclusion.path else { continue }
                files.insert(directory.appendingPathComponent(path).standardizedFileURL.path)
                collect(segmented.includedDocuments[index])
            }
        }
        collect(segmented)
        return files
    }

    /// The audit's view of one segmented document.
    static func document(_ segmented: SegmentedDocument, bytes: [UInt8]) -> AuditDocument {
        var document = AuditDocument(text: SourceText(bytes: bytes))
        document.definitions = segmented.definitions
        document.transcoded = segmented.source.encoding != .utf8
        document.encoding = segmented.source.encoding
        for d in segmented.diagnostics {
            let range = d.range ?? SourceRange(0, 0)
            switch d.id {
            case "text.unclosed-math":
                document.problems.append((.unclosedMath, "this math delimiter is never closed, so the formula is shown as text", range))
            case "text.unclosed-brace":
                document.problems.append((.unclosedMath, d.message, range))
            case "document.invalid-notebook", "document.input-too-large":
                document.problems.append((.malformed, d.message, range))
            case "document.include-not-found":
                document.problems.append((.missingInclude, d.message + "; its formulas were not audited", range))
            case "document.include-cycle", "document.include-too-deep":
                document.problems.append((.includeCycle, d.message, range))
            default:
                continue
            }
        }
        for segment in segmented.segments {
            guard let site = site(segment, bytes: bytes, document: &document) else { continue }
            // A formula that defines macros defines them for the formulas after it, as MathJax and
            // KaTeX (with a shared macro table) do: notebooks keep their macros in a cell of their own.
            if site.kind == .tex, let source = site.source, definesMacros(source) { document.definitions += source + "\n" }
            document.sites.append(site)
        }
        return document
    }

    /// The formula site of a segment, if it is one.
    static func site(_ segment: DocumentSegment, bytes: [UInt8], document: inout AuditDocument) -> FormulaSite? {
        let element = segment.element
        func labels(_ names: [String]) -> [FormulaSite.Label] {
            guard let element else { return [] }
            return names.compactMap { name in
                guard let a = element.attribute(name) else { return nil }
                let syntax: FormulaSite.LabelSyntax = element.syntax == .markdownImage
                    ? .markdownAlt : .attribute(quote: a.quote.flatMap { $0.asciiValue })
                return FormulaSite.Label(name: element.syntax == .markdownImage ? "markdown-alt" : name, value: a.value ?? "",
                                         valueRange: a.valueRange ?? (a.value == nil ? nil : a.range), syntax: syntax)
            }
        }
        let names = Set((element?.attributes ?? []).map { $0.name.lowercased() })
        if let formula = segment.formula {
            if formula.notation == .mathml {
                if element?.attribute("aria-label") != nil { document.usesAriaLabel = true }
                return FormulaSite(kind: .mathML, range: segment.range, source: formula.source, notation: .mathml,
                                   formula: formula, display: formula.display, labels: labels(["alttext", "aria-label"]),
                                   attributeInsertionOffset: element?.attributeInsertionOffset, attributeNames: names,
                                   embedding: segment.embedding)
            }
            return FormulaSite(kind: .tex, range: segment.range, source: formula.source, notation: .tex, formula: formula,
                               display: formula.display, embedding: segment.embedding)
        }
        guard let element else { return nil }
        let attributes = Dictionary(element.attributes.map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        switch element.name {
        case "img":
            let src = attributes["src"] ?? ""
            let alt = element.attribute("alt").map { $0.value ?? "" }
            guard FormulaImages.isFormula(src: src, alt: alt, attributes: attributes) else { return nil }
            return FormulaSite(kind: .image, range: segment.range, source: FormulaImages.tex(src: src, alt: alt, attributes: attributes),
                               labels: labels(["alt"]), attributeInsertionOffset: element.attributeInsertionOffset,
                               attributeNames: names, imageSource: src, embedding: segment.embedding)
        case "svg":
            var title: (String, SourceRange)? = nil
            var desc: String? = nil
            if let content = element.contentRange {
                let tags = HTMLTokenizer(bytes: bytes)
                var i = content.lowerBound
                while let t = tags.nextTag(from: i), t.range.lowerBound < content.upperBound {
                    i = t.range.upperBound
                    guard t.kind == .start, !t.selfClosing, t.name == "title" || t.name == "desc",
                          let close = tags.matchingEnd(of: t.name, from: t.range.upperBound) else { continue }
                    let inside = SourceRange(t.range.upperBound, close.range.lowerBound)
                    let text = HTMLTokenizer.decode(bytes[inside.lowerBound..<inside.upperBound])
                    if t.name == "title", title == nil { title = (text, inside) }
                    if t.name == "desc", desc == nil { desc = text }
                }
            }
            let tex = attributes["data-tex"] ?? attributes["data-latex"] ?? desc.flatMap { LabelText.isTeX($0) ? $0 : nil }
            let classes = (attributes["class"] ?? "").lowercased()
            guard tex != nil || ["math", "formula", "equation", "latex"].contains(where: { classes.contains($0) }) else { return nil }
            var svgLabels = labels(["aria-label"])
            if let title { svgLabels.append(.init(name: "title", value: title.0, valueRange: title.1, syntax: .elementText)) }
            return FormulaSite(kind: .svg, range: segment.range, source: tex, labels: svgLabels,
                               attributeInsertionOffset: element.attributeInsertionOffset, attributeNames: names, embedding: segment.embedding)
        default:
            return nil
        }
    }

    /// Whether TeX source defines macros (`\newcommand`, `\renewcommand`, `\def`, `\DeclareMathOperator`…).
    static func definesMacros(_ source: String) -> Bool {
        guard source.utf8.contains(UInt8(ascii: "\\")) else { return false }
        return ["\\newcommand", "\\renewcommand", "\\providecommand", "\\def", "\\gdef", "\\DeclareMathOperator", "\\let"]
            .contains { source.contains($0) }
    }
}
