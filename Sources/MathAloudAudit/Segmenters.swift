import Foundation
import MathAloud

// Interim adapters from document bytes to formula sites. Markdown, plain text and LaTeX math are found
// by MathTeX's MathTextScanner; HTML elements by HTMLTagScanner. When MathAloudDocuments' segmenters
// land (issue 16), these functions become thin adapters over them (DESIGN.md §13: one segmenter per
// format), so the audit judges exactly the formulas `convert` labels.

enum Segmenters {
    /// The segmentation of `bytes` (UTF-8) read as `format` (not EPUB: see ``EPUBContainer``).
    static func segment(_ bytes: [UInt8], format: DocumentFormat, macros: [String: String]) -> SegmentedDocument {
        switch format {
        case .markdown: markdown(bytes, macros: macros)
        case .text: text(bytes, macros: macros)
        case .html, .epub: html(bytes, macros: macros)
        case .latex: latex(bytes, macros: macros)
        case .notebook: notebook(bytes, macros: macros)
        }
    }

    // MARK: Text formats

    /// TeX formulas in text, found by the scanner; `masked` has the same length as `bytes`, with what
    /// is not prose blanked out (newlines kept, so lines and blank lines stay where they are).
    static func texSites(masked: [UInt8], options: MathTextScanner.Options, macros: [String: String],
                         into document: inout SegmentedDocument) {
        let scan = MathTextScanner(options: options).scan(String(decoding: masked, as: UTF8.self))
        for fragment in scan.fragments {
            let map = options.decodeHTMLEntities ? entityMap(fragment) : OffsetMap(base: fragment.contentRange.lowerBound)
            document.sites.append(FormulaSite(kind: .tex, range: fragment.range, source: fragment.tex, notation: .tex,
                                              sourceMap: map, display: fragment.display, macros: macros))
        }
        for d in scan.diagnostics where d.id == "text.unclosed-math" {
            document.problems.append((.unclosedMath, "this math delimiter is never closed, so the formula is shown as text",
                                      d.range ?? SourceRange(0, 0)))
        }
    }

    /// The offset map of a fragment whose TeX had character references decoded.
    static func entityMap(_ fragment: MathFragment) -> OffsetMap {
        var points: [OffsetMap.Point] = [.init(decoded: 0, document: fragment.contentRange.lowerBound)]
        var previous = fragment.contentRange.lowerBound
        var decoded = 0
        for scalar in fragment.tex.unicodeScalars {
            let next = decoded + UTF8.width(scalar)
            let source = fragment.sourceOffset(forTeXOffset: next)
            if source - previous != next - decoded { points.append(.init(decoded: next, document: source)) }
            previous = source
            decoded = next
        }
        return OffsetMap(points: points)
    }

    static func text(_ bytes: [UInt8], macros: [String: String]) -> SegmentedDocument {
        var document = SegmentedDocument(text: SourceText(bytes: bytes))
        var options = MathTextScanner.Options()
        options.markdownCode = false
        texSites(masked: bytes, options: options, macros: macros, into: &document)
        return document
    }

    /// Markdown: math in the text (code spans and fences are not math; a ```` ```math ```` fence is),
    /// images `![alt](src)` of formulas, and raw HTML elements.
    static func markdown(_ bytes: [UInt8], macros: [String: String]) -> SegmentedDocument {
        var document = SegmentedDocument(text: SourceText(bytes: bytes))
        let code = markdownCode(bytes)
        var masked = bytes
        // Math fences are formulas; other code is masked so no HTML or image in it is read either.
        for block in code where block.mathFence {
            let content = block.content
            let tex = String(decoding: bytes[content.lowerBound..<content.upperBound], as: UTF8.self)
            document.sites.append(FormulaSite(kind: .tex, range: block.range, source: tex, sourceMap: OffsetMap(base: content.lowerBound),
                                              display: true, macros: macros))
        }
        for block in code { blank(&masked, block.range) }
        htmlElements(bytes, masked: &masked, macros: macros, into: &document)
        markdownImages(bytes, masked: masked, into: &document)
        var options = MathTextScanner.Options()
        options.markdownCode = false   // code is masked already
        texSites(masked: masked, options: options, macros: macros, into: &document)
        document.sites.sort { $0.range.lowerBound < $1.range.lowerBound }
        return document
    }

    struct CodeBlock { var range: SourceRange; var content: SourceRange; var mathFence: Bool }

    /// Fenced code blocks and code spans (CommonMark §4.5, §6.1).
    static func markdownCode(_ b: [UInt8]) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var i = 0
        let n = b.count
        var lineStart = true
        while i < n {
            if lineStart {
                var j = i, indent = 0
                while j < n, b[j] == 0x20, indent < 4 { j += 1; indent += 1 }
                if indent < 4, j < n, b[j] == UInt8(ascii: "`") || b[j] == UInt8(ascii: "~") {
                    let fence = b[j]
                    var k = j
                    while k < n, b[k] == fence { k += 1 }
                    let length = k - j
                    if length >= 3 {
                        var lineEnd = k
                        while lineEnd < n, b[lineEnd] != 0x0A { lineEnd += 1 }
                        let info = String(decoding: b[k..<lineEnd], as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
                        let contentStart = min(n, lineEnd + 1)
                        // Closing fence: a line of at least `length` fence characters.
                        var p = contentStart
                        var closeStart = n, closeEnd = n
                        while p < n {
                            var q = p, ind = 0
                            while q < n, b[q] == 0x20, ind < 4 { q += 1; ind += 1 }
                            var r = q
                            while r < n, b[r] == fence { r += 1 }
                            var e = r
                            while e < n, b[e] == 0x20 || b[e] == 0x09 || b[e] == 0x0D { e += 1 }
                            if r - q >= length, e >= n || b[e] == 0x0A { closeStart = p; closeEnd = e; break }
                            while p < n, b[p] != 0x0A { p += 1 }
                            p += 1
                        }
                        blocks.append(CodeBlock(range: SourceRange(i, closeEnd), content: SourceRange(contentStart, max(contentStart, closeStart)),
                                                mathFence: info == "math"))
                        i = closeEnd
                        lineStart = false
                        continue
                    }
                }
            }
            if b[i] == UInt8(ascii: "\\"), i + 1 < n { i += 2; lineStart = false; continue }
            if b[i] == UInt8(ascii: "`") {
                var k = i
                while k < n, b[k] == UInt8(ascii: "`") { k += 1 }
                let length = k - i
                // Find a closing run of exactly `length` backticks, not across a blank line.
                var p = k
                var found = -1
                while p < n {
                    if b[p] == 0x0A {
                        var q = p + 1
                        while q < n, b[q] == 0x20 || b[q] == 0x09 || b[q] == 0x0D { q += 1 }
                        if q >= n || b[q] == 0x0A { break }
                    }
                    if b[p] == UInt8(ascii: "`") {
                        var r = p
                        while r < n, b[r] == UInt8(ascii: "`") { r += 1 }
                        if r - p == length { found = r; break }
                        p = r
                        continue
                    }
                    p += 1
                }
                if found > 0 {
                    blocks.append(CodeBlock(range: SourceRange(i, found), content: SourceRange(k, found - length), mathFence: false))
                    i = found
                } else {
                    i = k
                }
                lineStart = false
                continue
            }
            lineStart = b[i] == 0x0A
            i += 1
        }
        return blocks
    }

    /// Markdown images `![alt](src "title")` whose source or alt says they show a formula.
    static func markdownImages(_ bytes: [UInt8], masked: [UInt8], into document: inout SegmentedDocument) {
        var i = 0
        let n = masked.count
        while i + 1 < n {
            guard masked[i] == UInt8(ascii: "!"), masked[i + 1] == UInt8(ascii: "["), i == 0 || masked[i - 1] != UInt8(ascii: "\\") else { i += 1; continue }
            // The alt: up to the matching ], brackets nested, escapes skipped.
            var j = i + 2, depth = 1
            while j < n, depth > 0, masked[j] != 0x0A || (j + 1 < n && masked[j + 1] != 0x0A) {
                if masked[j] == UInt8(ascii: "\\") { j += 2; continue }
                if masked[j] == UInt8(ascii: "[") { depth += 1 }
                if masked[j] == UInt8(ascii: "]") { depth -= 1; if depth == 0 { break } }
                j += 1
            }
            guard j + 1 < n, masked[j] == UInt8(ascii: "]"), masked[j + 1] == UInt8(ascii: "(") else { i += 2; continue }
            var k = j + 2
            while k < n, masked[k] != UInt8(ascii: ")"), masked[k] != 0x0A { k += 1 }
            guard k < n, masked[k] == UInt8(ascii: ")") else { i += 2; continue }
            let altRange = SourceRange(i + 2, j)
            let target = String(decoding: bytes[(j + 2)..<k], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            let src = String(target.split(separator: " ").first ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
            let altRaw = String(decoding: bytes[altRange.lowerBound..<altRange.upperBound], as: UTF8.self)
            let alt = unescapeMarkdown(altRaw)
            if FormulaImages.isFormula(src: src, alt: alt, attributes: [:]) {
                document.sites.append(FormulaSite(kind: .image, range: SourceRange(i, k + 1), source: FormulaImages.tex(src: src, alt: alt, attributes: [:]),
                                                  labels: [.init(name: "markdown-alt", value: alt, valueRange: altRange, syntax: .markdownAlt)],
                                                  imageSource: src))
            }
            i = k + 1
        }
    }

    static func unescapeMarkdown(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = ""
        var escaped = false
        for c in s {
            if escaped { if !(c.isPunctuation || c.isSymbol) { out.append("\\") }; out.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            out.append(c)
        }
        if escaped { out.append("\\") }
        return out
    }

    /// The offset of the first `needle` in `bytes` at or after `from`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var i = from
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    static func blank(_ bytes: inout [UInt8], _ range: SourceRange) {
        for i in range.lowerBound..<min(range.upperBound, bytes.count) where bytes[i] != 0x0A { bytes[i] = 0x20 }
    }

    // MARK: HTML

    static func html(_ bytes: [UInt8], macros: [String: String]) -> SegmentedDocument {
        var document = SegmentedDocument(text: SourceText(bytes: bytes))
        var masked = bytes
        htmlElements(bytes, masked: &masked, macros: macros, into: &document, maskTags: true)
        // MathJax and KaTeX read `$` only when configured to; the page's configuration says so.
        var options = MathTextScanner.Options()
        options.markdownCode = false
        options.decodeHTMLEntities = true
        options.dollarDelimiters = configuresDollars(bytes)
        texSites(masked: masked, options: options, macros: macros, into: &document)
        document.sites.sort { $0.range.lowerBound < $1.range.lowerBound }
        return document
    }

    /// Whether a page configures `$…$` as math (MathJax `inlineMath`, KaTeX auto-render `delimiters`).
    static func configuresDollars(_ bytes: [UInt8]) -> Bool {
        let quoted: [[UInt8]] = [Array("'$'".utf8), Array("\"$\"".utf8)]
        for key in ["inlineMath", "delimiters"] {
            let needle = Array(key.utf8)
            var search = 0
            while let at = find(needle, in: bytes, from: search) {
                let window = Array(bytes[(at + needle.count)..<min(bytes.count, at + needle.count + 200)])
                if quoted.contains(where: { find($0, in: window, from: 0) != nil }) { return true }
                search = at + needle.count
            }
        }
        return false
    }

    /// `<math>`, formula `<img>` and `<svg>`, and `<script type="math/tex">` elements; the elements and
    /// (with `maskTags`) every tag, comment and non-prose element are blanked in `masked`.
    static func htmlElements(_ bytes: [UInt8], masked: inout [UInt8], macros: [String: String],
                             into document: inout SegmentedDocument, maskTags: Bool = false) {
        var scanner = HTMLTagScanner(bytes: masked)
        var lastEnd = 0
        func maskGap(upTo offset: Int) {
            // Comments and doctypes between tags.
            if maskTags, lastEnd < offset {
                var i = lastEnd
                while i < offset {
                    if masked[i] == UInt8(ascii: "<"), i + 3 < offset, masked[i + 1] == UInt8(ascii: "!") {
                        let end = min(offset, scanner.skip(past: Array(masked[i + 1] == UInt8(ascii: "!") && masked[i + 2] == UInt8(ascii: "-") ? "-->".utf8 : ">".utf8), from: i + 2))
                        blank(&masked, SourceRange(i, end)); i = end; continue
                    }
                    i += 1
                }
            }
        }
        while let tag = scanner.next() {
            maskGap(upTo: tag.range.lowerBound)
            lastEnd = tag.range.upperBound
            if maskTags { blank(&masked, tag.range) }
            guard !tag.isEnd else { continue }
            switch tag.name {
            case "math":
                let end = tag.selfClosing ? (tag.range.upperBound, tag.range.upperBound) : (scanner.findEnd(of: "math", from: tag.range.upperBound) ?? (bytes.count, bytes.count))
                let range = SourceRange(tag.range.lowerBound, end.1)
                let source = String(decoding: bytes[range.lowerBound..<range.upperBound], as: UTF8.self)
                var labels: [FormulaSite.Label] = []
                for name in ["alttext", "aria-label"] {
                    if let a = tag.attribute(name) { labels.append(.init(name: name, value: a.value, valueRange: a.valueRange, syntax: .attribute(quote: a.quote))) }
                }
                if tag.attribute("aria-label") != nil { document.usesAriaLabel = true }
                document.sites.append(FormulaSite(kind: .mathML, range: range, source: source, notation: .mathml,
                                                  sourceMap: OffsetMap(base: range.lowerBound),
                                                  display: tag.attribute("display")?.value == "block", labels: labels,
                                                  attributeInsertionOffset: tag.insertionOffset, attributeNames: Set(tag.attributes.map(\.name)),
                                                  macros: macros))
                blank(&masked, range)
                scanner.position = end.1
                lastEnd = end.1
            case "img":
                let attributes = Dictionary(tag.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                let src = attributes["src"] ?? ""
                let alt = attributes["alt"]
                guard FormulaImages.isFormula(src: src, alt: alt, attributes: attributes) else { continue }
                var labels: [FormulaSite.Label] = []
                if let a = tag.attribute("alt") { labels.append(.init(name: "alt", value: a.value, valueRange: a.valueRange, syntax: .attribute(quote: a.quote))) }
                document.sites.append(FormulaSite(kind: .image, range: tag.range, source: FormulaImages.tex(src: src, alt: alt, attributes: attributes),
                                                  labels: labels, attributeInsertionOffset: tag.insertionOffset,
                                                  attributeNames: Set(tag.attributes.map(\.name)), imageSource: src, macros: macros))
            case "svg":
                let end = tag.selfClosing ? (tag.range.upperBound, tag.range.upperBound) : (scanner.findEnd(of: "svg", from: tag.range.upperBound) ?? (bytes.count, bytes.count))
                let range = SourceRange(tag.range.lowerBound, end.1)
                let attributes = Dictionary(tag.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                var inner = HTMLTagScanner(bytes: bytes)
                inner.position = tag.range.upperBound
                var title: (String, SourceRange)? = nil
                var desc: String? = nil
                while let t = inner.next(), t.range.lowerBound < end.0 {
                    if !t.isEnd, t.name == "title" || t.name == "desc", let close = inner.findEnd(of: t.name, from: t.range.upperBound) {
                        let text = HTMLEntities.decode(String(decoding: bytes[t.range.upperBound..<close.start], as: UTF8.self))
                        if t.name == "title", title == nil { title = (text, SourceRange(t.range.upperBound, close.start)) }
                        if t.name == "desc", desc == nil { desc = text }
                    }
                }
                let tex = attributes["data-tex"] ?? attributes["data-latex"] ?? desc.flatMap { LabelText.isTeX($0) ? $0 : nil }
                let classes = (attributes["class"] ?? "").lowercased()
                let isFormula = tex != nil || ["math", "formula", "equation", "latex"].contains { classes.contains($0) }
                if isFormula {
                    var labels: [FormulaSite.Label] = []
                    if let a = tag.attribute("aria-label") { labels.append(.init(name: "aria-label", value: a.value, valueRange: a.valueRange, syntax: .attribute(quote: a.quote))) }
                    if tag.attribute("aria-labelledby") != nil, let title { labels.append(.init(name: "aria-labelledby", value: title.0, valueRange: nil, syntax: .elementText)) }
                    if let title { labels.append(.init(name: "title", value: title.0, valueRange: title.1, syntax: .elementText)) }
                    document.sites.append(FormulaSite(kind: .svg, range: range, source: tex, labels: labels,
                                                      attributeInsertionOffset: tag.insertionOffset,
                                                      attributeNames: Set(tag.attributes.map(\.name)), macros: macros))
                }
                blank(&masked, range)
                scanner.position = end.1
                lastEnd = end.1
            case "script", "style", "pre", "code", "textarea", "kbd", "samp", "tt":
                guard !tag.selfClosing, let end = scanner.findEnd(of: tag.name, from: tag.range.upperBound) else { continue }
                let type = tag.attribute("type")?.value.lowercased() ?? ""
                if tag.name == "script", type.hasPrefix("math/tex") {
                    let content = SourceRange(tag.range.upperBound, end.start)
                    let raw = String(decoding: bytes[content.lowerBound..<content.upperBound], as: UTF8.self)
                    // A script's text is raw (no entities); CDATA wrappers in XHTML are stripped.
                    var tex = raw
                    var base = content.lowerBound
                    if let open = raw.range(of: "<![CDATA["), let close = raw.range(of: "]]>", options: .backwards), open.upperBound <= close.lowerBound {
                        base += raw.utf8.distance(from: raw.startIndex, to: open.upperBound)
                        tex = String(raw[open.upperBound..<close.lowerBound])
                    }
                    if !tex.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                        document.sites.append(FormulaSite(kind: .tex, range: SourceRange(tag.range.lowerBound, end.end), source: tex,
                                                          sourceMap: OffsetMap(base: base), display: type.contains("mode=display"), macros: macros))
                    }
                }
                blank(&masked, SourceRange(tag.range.lowerBound, end.end))
                scanner.position = end.end
                lastEnd = end.end
            default:
                continue
            }
        }
        maskGap(upTo: bytes.count)
    }

    // MARK: LaTeX

    /// The math environments of LaTeX and AMS (amsmath §3); other environments are prose.
    static let mathEnvironments: Set<String> = ["equation", "equation*", "align", "align*", "alignat", "alignat*", "gather", "gather*",
                                                "multline", "multline*", "flalign", "flalign*", "eqnarray", "eqnarray*", "math",
                                                "displaymath", "dmath", "dmath*"]

    static func latex(_ bytes: [UInt8], macros: [String: String]) -> SegmentedDocument {
        var document = SegmentedDocument(text: SourceText(bytes: bytes))
        var masked = bytes
        let n = bytes.count
        // Comments (TeXbook ch. 8: % to the end of the line, unless escaped).
        var i = 0
        while i < n {
            if masked[i] == UInt8(ascii: "\\") { i += 2; continue }
            if masked[i] == UInt8(ascii: "%") {
                var e = i
                while e < n, masked[e] != 0x0A { e += 1 }
                blank(&masked, SourceRange(i, e)); i = e; continue
            }
            i += 1
        }
        let text = String(decoding: masked, as: UTF8.self)
        var localMacros = macros
        // The preamble: its definitions apply to every formula; it is not prose.
        if let begin = text.range(of: "\\begin{document}") {
            let preambleEnd = text.utf8.distance(from: text.startIndex, to: begin.upperBound)
            localMacros.merge(MacroDefinitions.extract(String(text[..<begin.lowerBound]))) { _, new in new }
            blank(&masked, SourceRange(0, preambleEnd))
        } else {
            localMacros.merge(MacroDefinitions.extract(text)) { _, new in new }
        }
        // Verbatim-like environments and the arguments of commands that hold no math.
        for env in ["verbatim", "verbatim*", "lstlisting", "minted", "comment", "Verbatim"] {
            var search = masked.startIndex
            let open = Array("\\begin{\(env)}".utf8), close = Array("\\end{\(env)}".utf8)
            while let start = Segmenters.find(open, in: masked, from: search) {
                let end = Segmenters.find(close, in: masked, from: start + open.count).map { $0 + close.count } ?? n
                blank(&masked, SourceRange(start, end))
                search = end
            }
        }
        // Other environments are prose: their \begin/\end are blanked so the math inside is found.
        let tokenPattern = Array("\\begin{".utf8), endPattern = Array("\\end{".utf8)
        for pattern in [tokenPattern, endPattern] {
            var search = 0
            while let start = Segmenters.find(pattern, in: masked, from: search) {
                var e = start + pattern.count
                while e < n, masked[e] != UInt8(ascii: "}"), e - start < 64 { e += 1 }
                let name = String(decoding: masked[(start + pattern.count)..<min(e, n)], as: UTF8.self)
                if !mathEnvironments.contains(name) { blank(&masked, SourceRange(start, min(n, e + 1))) }
                search = min(n, e + 1)
            }
        }
        // \input and \include: a named file that is missing is reported.
        for command in ["\\input{", "\\include{"] {
            var search = 0
            let pattern = Array(command.utf8)
            while let start = Segmenters.find(pattern, in: masked, from: search) {
                var e = start + pattern.count
                while e < n, masked[e] != UInt8(ascii: "}") { e += 1 }
                let name = String(decoding: masked[(start + pattern.count)..<min(e, n)], as: UTF8.self)
                document.includes.append((name, SourceRange(start, min(n, e + 1))))
                search = min(n, e + 1)
            }
        }
        var options = MathTextScanner.Options()
        options.markdownCode = false
        texSites(masked: masked, options: options, macros: localMacros, into: &document)
        return document
    }

    // MARK: Notebooks

    /// Jupyter notebooks (nbformat 4): the Markdown cells, read in place in the JSON, so every range is
    /// a range of the file; a cell of only macro definitions (`$\newcommand…$`) defines macros for all.
    static func notebook(_ bytes: [UInt8], macros: [String: String]) -> SegmentedDocument {
        var document = SegmentedDocument(text: SourceText(bytes: bytes))
        document.editsInJSONStrings = true
        guard let cells = JSONStrings.markdownCells(bytes) else {
            document.problems.append((.malformed, "this notebook is not valid JSON with a \"cells\" list", SourceRange(0, min(1, bytes.count))))
            return document
        }
        var notebookMacros = macros
        for cell in cells {
            let text = String(decoding: cell.text, as: UTF8.self)
            if text.contains("\\newcommand") || text.contains("\\def") || text.contains("\\DeclareMathOperator") {
                notebookMacros.merge(MacroDefinitions.extract(text)) { _, new in new }
            }
        }
        for cell in cells {
            var inner = markdown(cell.text, macros: notebookMacros)
            for var site in inner.sites {
                site.range = cell.map.documentRange(site.range)
                // Escapes inside the JSON string shift offsets: map each label's range through the cell.
                site.labels = site.labels.map { label in
                    var l = label
                    l.valueRange = l.valueRange.map(cell.map.documentRange)
                    return l
                }
                site.attributeInsertionOffset = site.attributeInsertionOffset.map(cell.map.documentOffset)
                site.sourceMap = (site.sourceMap ?? OffsetMap(base: 0)).followed(by: cell.map)
                document.sites.append(site)
            }
            for problem in inner.problems { document.problems.append((problem.rule, problem.message, cell.map.documentRange(problem.range))) }
            inner.sites = []
        }
        return document
    }
}
