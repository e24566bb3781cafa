import Foundation
import MathAloud

/// What `convert` writes each formula as.
public enum ConversionTarget: String, Sendable, Codable, CaseIterable {
    /// HTML markup (MathML, inline SVG or `<img>`), in the document's own format around it: an HTML
    /// page stays HTML, Markdown stays Markdown (with inline HTML), a notebook stays a notebook.
    case html
    /// Markdown images: `![label](images/3f0c….svg)`.
    case markdown
}

/// How a formula is written in HTML.
public enum HTMLMathStyle: String, Sendable, Codable, CaseIterable {
    /// MathML with `alttext` and `aria-label` (and the TeX as an annotation). Needs no image maker.
    case mathml
    /// Inline SVG with `role="img"` and a `<title>` (needs an image maker).
    case svg
    /// `<img alt="…">` with the image in a file or a `data:` URI (needs an image maker).
    case img
}

/// Options for ``DocumentConverter``.
public struct ConversionOptions: Sendable {
    /// What formulas become (default HTML).
    public var target: ConversionTarget = .html
    /// How formulas are written in HTML (default MathML).
    public var mathStyle: HTMLMathStyle = .mathml
    /// The format of image files (`<img>` and Markdown images; default SVG).
    public var imageFormat: FormulaImage.Format = .svg
    /// Where image files go, relative to the converted document (default `images`).
    public var imageDirectory = "images"
    /// Write images as `data:` URIs instead of files.
    public var inlineImages = false
    /// Replace the `alttext` and `aria-label` a `<math>` element already has (default: keep them,
    /// only add what is missing).
    public var relabelExisting = false

    /// The defaults: HTML, MathML.
    public init() {}
}

/// An image file a conversion refers to.
public struct ConvertedAsset: Sendable, Hashable {
    /// The path relative to the converted document: the image directory and a name made of the first 20
    /// hex digits of the SHA-256 of the bytes (`images/3f0c9a…e1.svg`), so the same image always has
    /// the same name and two different images never share one (two documents converted into one folder
    /// keep their images apart; a formula used twice is one file).
    public let path: String
    /// The file's bytes.
    public let data: [UInt8]
}

/// A converted document.
public struct ConvertedDocument: Sendable {
    /// The document read.
    public let processed: ProcessedDocument
    /// The converted document's bytes (in the input's encoding).
    public let bytes: [UInt8]
    /// The image files it refers to.
    public let assets: [ConvertedAsset]
    /// The edits made to the input: every byte outside them is the input's.
    public let edits: [DocumentEdit]
    /// Formulas in the document, and how many now carry a label.
    public let formulaCount: Int
    public let labelledCount: Int
}

/// Why a conversion failed.
public enum ConversionError: Error, Sendable, CustomStringConvertible {
    /// SVG or `<img>` output was asked for without an image maker.
    case noImageMaker
    /// The output could not be written in the document's encoding.
    case edit(DocumentEditError)
    /// The input is no text document (a zip such as an EPUB, an image, other binary data): nothing is
    /// converted or written.
    case binary(offset: Int)
    /// A format conversion does not write: LaTeX (MathML or images in a `.tex` file would make it
    /// neither LaTeX nor HTML). Nothing is converted.
    case unsupportedFormat(DocumentFormat)

    public var description: String {
        switch self {
        case .noImageMaker: "images were asked for, but no image maker (renderer) was given"
        case .edit(let e): e.description
        case .binary(let offset): "the input is binary data, not a text document (a NUL byte at byte \(offset)); nothing was converted (an EPUB is audited and fixed with `mathaloud audit --fix`)"
        case .unsupportedFormat(let format): Self.unsupported(format)
        }
    }

    /// Why `format` is not converted, and what to do instead.
    static func unsupported(_ format: DocumentFormat) -> String {
        switch format {
        case .latex:
            "convert does not write LaTeX: MathML or images in a .tex file would make it neither LaTeX nor HTML; convert writes Markdown, HTML, notebooks and text (as HTML). Check a LaTeX document with `mathaloud audit`, or convert the HTML a LaTeX tool (make4ht, LaTeXML, pandoc) makes of it"
        default:
            "convert does not write \(format.rawValue)"        }
    }
}

/// Writes documents with every formula accessible (`mathaloud convert`): each TeX formula replaced by
/// MathML with `alttext` and `aria-label`, inline SVG with `role="img"` and `<title>`, `<img alt>`, or a
/// Markdown image with its alt; each `<math>` element given the `alttext` and `aria-label` it lacks;
/// `\eqref`/`\ref` in the text replaced by the number. Nothing else changes: the converted bytes are
/// the input's outside ``ConvertedDocument/edits``.
public struct DocumentConverter: Sendable {
    /// Reads the formulas.
    public let processor: DocumentProcessor
    /// The conversion's options.
    public var options: ConversionOptions

    /// Creates a converter. The processor's products are what the options need (MathML, images).
    public init(processor: DocumentProcessor, options: ConversionOptions = ConversionOptions()) {
        self.processor = processor
        self.options = options
    }

    /// The products a conversion with `options` needs from its processor.
    public static func products(for options: ConversionOptions) -> FormulaProducts {
        options.target == .html && options.mathStyle == .mathml ? [.mathML] : [.image]
    }

    /// Segments, reads and converts a file's bytes.
    public func convert(bytes: [UInt8], format: DocumentFormat) throws(ConversionError) -> ConvertedDocument {
        // A NUL byte is in no text document of the formats read (UTF-8, UTF-16 is decoded before:
        // its byte order mark is looked for first); a zip or an image has them early.
        if let nul = DocumentSource.binaryOffset(of: bytes) { throw .binary(offset: nul) }
        return try convert(processor.process(bytes: bytes, format: format))
    }

    /// Converts a document already read. LaTeX is refused (``ConversionError/unsupportedFormat(_:)``);
    /// text becomes HTML (``textAsHTMLStart``).
    public func convert(_ processed: ProcessedDocument) throws(ConversionError) -> ConvertedDocument {
        if processed.document.format == .latex { throw .unsupportedFormat(.latex) }
        let needsImages = options.target == .markdown || options.mathStyle != .mathml
        if needsImages, processor.imageMaker == nil { throw .noImageMaker }
        var edits: [DocumentEdit] = []
        // Text becomes HTML: its prose escaped (a `<b>` or `&` in it is shown, not read as markup),
        // in a block that keeps its lines.
        let textAsHTML = processed.document.format == .text && options.target == .html
        if textAsHTML {
            let source = processed.document.source, bytes = source.bytes
            let bom = source.byteOrderMarkLength
            edits.append(DocumentEdit(range: SourceRange(bom, bom), text: Self.textAsHTMLStart))
            for segment in processed.document.segments where segment.kind == .text {
                let prose = processed.document.source[segment.range]
                let escaped = Self.htmlText(prose)
                if escaped != prose { edits.append(DocumentEdit(range: segment.range, text: escaped)) }
            }
            // The end in the document's line ending (a CRLF file stays CRLF).
            let newline = source.lineEnding == .crlf ? "\r\n" : source.lineEnding == .cr ? "\r" : "\n"
            edits.append(DocumentEdit(range: SourceRange(bytes.count, bytes.count),
                                      text: String(Self.textAsHTMLEnd.dropLast()) + newline))
        }
        var assets: [ConvertedAsset] = []
        var labelled = 0
        let source = processed.document.source
        // HTML written into Markdown (a notebook's cells are Markdown) must read as HTML there.
        let inMarkdown = options.target == .html
            && (processed.document.format == .markdown || processed.document.format == .notebook)
        for formula in processed.formulas {
            let segment = formula.segment
            let embedding = segment.embedding
            if let element = segment.element, element.name == "math", formula.segment.formula?.notation == .mathml {
                // A MathML element: add the labels it lacks; nothing else about it changes.
                guard var label = formula.label else { continue }
                // A label the author gave is kept, and used for the attribute that is missing.
                if !options.relabelExisting,
                   let given = [element.attribute("aria-label"), element.attribute("alttext")].compactMap({ $0?.value }).first(where: { !$0.isEmpty }) {
                    label = given
                }
                var changed = false
                for name in ["alttext", "aria-label"] {
                    if !options.relabelExisting, element.attribute(name)?.value?.isEmpty == false { changed = true; continue }
                    if let edit = DocumentEdit.setting(name, to: label, on: element, embedding: embedding) {
                        edits.append(edit)
                        changed = true
                    }
                }
                if changed { labelled += 1 }
                continue
            }
            if formula.hasErrors {
                switch processor.options.errors {
                case .keepSource:
                    continue
                case .showError:
                    let markup = errorMarkup(formula, source: source)
                    edits.append(DocumentEdit(range: segment.range, text: inMarkdown ? Self.markdownSafe(markup) : markup, embedding: embedding))
                    continue
                case .render:
                    break
                }
            }
            guard var markup = markup(for: formula, assets: &assets) else { continue }
            if inMarkdown { markup = Self.markdownSafe(markup) }
            edits.append(DocumentEdit(range: segment.range, text: markup, embedding: embedding))
            if formula.label != nil { labelled += 1 }
        }
        for reference in processed.references {
            guard let number = reference.number else { continue }
            let segment = processed.document.segments.first { $0.range.lowerBound <= reference.range.lowerBound && reference.range.upperBound <= $0.range.upperBound }
            let text: String
            switch options.target {
            case .html:
                text = "<a href=\"#\(Self.anchor(number))\" aria-label=\"\(DocumentEdit.htmlAttributeValue(reference.spoken))\">\(Self.htmlText(reference.shown))</a>"
            case .markdown:
                text = reference.shown
            }
            edits.append(DocumentEdit(range: reference.range, text: text, embedding: segment?.embedding ?? .plain))
        }
        let bytes: [UInt8]
        do {
            // The formulas are markup in every format written: a character the encoding lacks (α in
            // a Windows-1252 page) is a character reference.
            bytes = try source.applying(edits, characterReferences: true)
        } catch {
            throw .edit(error)
        }
        return ConvertedDocument(processed: processed, bytes: bytes, assets: assets, edits: edits,
                                 formulaCount: processed.formulas.count, labelledCount: labelled)
    }

    /// What a formula of a stream becomes (``MathStream``): its markup (MathML or an inline image: a
    /// stream writes no files; made Markdown-safe as ``markdownSafe(_:)`` when the stream's `format` is
    /// Markdown), the error markup, or its text as written when it is kept; and whether it is labelled.
    public func streamText(for formula: ProcessedFormula, format: DocumentFormat = .text) -> (text: String, labelled: Bool) {
        let original = formula.segment.formula.map { _ in formula.originalText } ?? ""
        if let element = formula.segment.element, element.name == "math", let label = formula.label {
            // Add the labels the element lacks, to its own text.
            let source = DocumentSource(text: original)
            let shift = formula.segment.range.lowerBound
            let local = MarkupElement(name: element.name, syntax: element.syntax,
                                      range: SourceRange(element.range.lowerBound - shift, element.range.upperBound - shift),
                                      startTag: SourceRange(element.startTag.lowerBound - shift, element.startTag.upperBound - shift),
                                      contentRange: nil, attributes: element.attributes.map {
                                          MarkupAttribute(name: $0.name, value: $0.value,
                                                          range: SourceRange($0.range.lowerBound - shift, $0.range.upperBound - shift),
                                                          nameRange: SourceRange($0.nameRange.lowerBound - shift, $0.nameRange.upperBound - shift),
                                                          valueRange: $0.valueRange.map { SourceRange($0.lowerBound - shift, $0.upperBound - shift) },
                                                          quote: $0.quote)
                                      }, attributeInsertionOffset: element.attributeInsertionOffset.map { $0 - shift })
            let edits = ["alttext", "aria-label"].compactMap { name -> DocumentEdit? in
                if !options.relabelExisting, local.attribute(name)?.value?.isEmpty == false { return nil }
                return DocumentEdit.setting(name, to: label, on: local)
            }
            let bytes = (try? source.applying(edits)) ?? Array(original.utf8)
            return (String(decoding: bytes, as: UTF8.self), true)
        }
        if formula.hasErrors {
            switch processor.options.errors {
            case .keepSource: return (original, false)
            case .showError: return (errorMarkup(formula, source: DocumentSource(text: original), whole: true), false)
            case .render: break
            }
        }
        var assets: [ConvertedAsset] = []
        var inline = self
        inline.options.inlineImages = true
        guard let markup = inline.markup(for: formula, assets: &assets) else { return (original, false) }
        let markdown = options.target == .html && (format == .markdown || format == .notebook)
        return (markdown ? Self.markdownSafe(markup) : markup, formula.label != nil)
    }

    /// What a text document converted to HTML starts with: a block that keeps the text's lines and
    /// spaces (`white-space: pre-wrap`); the prose inside is escaped (``htmlText(_:)``).
    public static let textAsHTMLStart = "<div class=\"mathaloud-text\" style=\"white-space:pre-wrap\">"
    /// What it ends with.
    public static let textAsHTMLEnd = "</div>\n"

    /// Prose of a text document as HTML element content: `&`, `<`, `>` (and the control characters
    /// HTML forbids) escaped, as a stream of text writes it between its formulas.
    public static func textProse(_ text: String) -> String { htmlText(text) }

    /// HTML markup (a formula's MathML, SVG or `<img>`) that Markdown reads as written: in its text and
    /// attribute values, each character Markdown would act on (`\`, `` ` ``, `*`, `_`, `~`, `[`, `]`,
    /// `|`, which splits a table's cells even inside a tag, and `$`, which a math extension would read)
    /// and each line break (a blank line ends an HTML block, and `>` or `|` at a line's start would be
    /// read) is written as a character reference (`&#124;`), which HTML reads as the character. The
    /// markup becomes one line; tag and attribute names are left as they are.
    public static func markdownSafe(_ markup: String) -> String {
        var out = ""
        out.reserveCapacity(markup.utf8.count + markup.utf8.count / 8)
        var inTag = false
        var quote: Character?
        for c in markup {
            if inTag, quote == nil {
                if c == ">" { inTag = false } else if c == "\"" || c == "'" { quote = c }
                out.append(c)
                continue
            }
            if inTag, c == quote { quote = nil; out.append(c); continue }
            if !inTag, c == "<" { inTag = true; out.append(c); continue }
            switch c {
            case "\\", "`", "*", "_", "~", "[", "]", "|", "$", "\n", "\r", "\r\n":
                for scalar in c.unicodeScalars { out += "&#\(scalar.value);" }
            default:
                out.append(c)
            }
        }
        return out
    }

    /// The id of a numbered formula's element, for links from references.
    static func anchor(_ number: String) -> String {
        "mathaloud-eq-" + String(number.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" })
    }

    /// The markup that replaces a formula.
    func markup(for formula: ProcessedFormula, assets: inout [ConvertedAsset]) -> String? {
        let label = formula.label
        let id = formula.numbers.first.map { " id=\"\(Self.anchor($0))\"" } ?? ""
        switch (options.target, options.mathStyle) {
        case (.html, .mathml):
            guard var mathML = formula.mathML else { return nil }
            if let label {
                let escaped = DocumentEdit.htmlAttributeValue(label)
                mathML = "<math" + id + " alttext=\"\(escaped)\" aria-label=\"\(escaped)\"" + mathML.dropFirst(5)
            } else if !id.isEmpty {
                mathML = "<math" + id + mathML.dropFirst(5)
            }
            return mathML
        case (.html, .svg):
            guard let image = formula.image else { return nil }
            var svg = String(decoding: image.data, as: UTF8.self)
            if svg.hasPrefix("<?xml"), let end = svg.range(of: "?>") { svg = String(svg[end.upperBound...]).trimmingSpaces }
            if formula.display { return "<span class=\"mathaloud-display\"\(id) style=\"display:block;text-align:center\">\(svg)</span>" }
            if !id.isEmpty { return "<span\(id)>\(svg)</span>" }
            return svg
        case (.html, .img):
            guard let image = formula.image else { return nil }
            let src = imageSource(image, formula: formula, assets: &assets)
            // No label (`--label none`): no alt either (an empty one would mark the formula as
            // decoration), and the TeX as `data-tex`, so `audit` finds the image and reports it unlabelled.
            let alt = label.map { " alt=\"\(DocumentEdit.htmlAttributeValue($0))\"" }
                ?? " data-tex=\"\(DocumentEdit.htmlAttributeValue(formula.segment.formula?.source.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))\""
            let img = "<img\(id) src=\"\(DocumentEdit.htmlAttributeValue(src))\"\(alt) width=\"\(Self.number(image.width))\" height=\"\(Self.number(image.height))\" style=\"vertical-align:\(image.verticalAlign)\">"
            if formula.display { return "<span class=\"mathaloud-display\" style=\"display:block;text-align:center\">\(img)</span>" }
            return img
        case (.markdown, _):
            guard let image = formula.image else { return nil }
            let src = imageSource(image, formula: formula, assets: &assets)
            let alt = DocumentEdit.markdownAltText(label ?? "")
            let destination = src.contains(" ") || src.contains(")") ? "<\(src)>" : src
            return "![\(alt)](\(destination))"
        }
    }

    /// A file for the image (or a `data:` URI); its path or URI.
    func imageSource(_ image: FormulaImage, formula: ProcessedFormula, assets: inout [ConvertedAsset]) -> String {
        if options.inlineImages {
            return "data:\(image.format.mediaType);base64," + Data(image.data).base64EncodedString()
        }
        let directory = options.imageDirectory.isEmpty ? "" : options.imageDirectory + "/"
        let path = "\(directory)\(ContentHash.hex(image.data, count: 20)).\(image.format.rawValue)"
        if !assets.contains(where: { $0.path == path }) { assets.append(ConvertedAsset(path: path, data: image.data)) }
        return path
    }

    /// The markup for a formula with errors under ``ErrorMode/showError``: the source as code and the
    /// message.
    func errorMarkup(_ formula: ProcessedFormula, source: DocumentSource, whole: Bool = false) -> String {
        let original = whole ? source.text : source[formula.segment.range]
        let message = formula.errorMessage ?? ""
        switch options.target {
        case .html:
            return "<span class=\"mathaloud-error\" role=\"note\"><code>\(Self.htmlText(original))</code> <span>\(Self.htmlText(message))</span></span>"
        case .markdown:
            // A code span needs a fence of backticks longer than any run inside it.
            var longest = 0, run = 0
            for c in original { run = c == "`" ? run + 1 : 0; longest = max(longest, run) }
            let fence = String(repeating: "`", count: longest + 1)
            let pad = original.hasPrefix("`") || original.hasSuffix("`") ? " " : ""
            return "\(fence)\(pad)\(original)\(pad)\(fence) (\(message))"
        }
    }

    /// Element content for HTML: ``XMLEscaping/text(_:nbspAsReference:)``, the one statement of what is
    /// escaped (markup characters; control characters HTML and XML forbid become U+FFFD).
    static func htmlText(_ text: String) -> String { XMLEscaping.text(text) }

    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
