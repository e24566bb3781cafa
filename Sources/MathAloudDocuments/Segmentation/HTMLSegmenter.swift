import MathAloud

/// Elements whose content is raw text: no tags inside until their end tag (WHATWG HTML §13.1.2).
let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]

/// HTML and XHTML pages and fragments (``DocumentFormat/html``).
///
/// Formulas: `<math>` elements (MathML; `display="block"` or `mode="display"` is display math),
/// `<script type="math/tex">` (`; mode=display` for display) and `<script type="math/mml">`, and the
/// TeX delimiters MathJax and KaTeX's auto-render find in text (``SegmenterOptions/dollarDelimiters``
/// for `$`). Text is read with character references decoded (`&lt;` is `<` in a formula); tags,
/// comments, CDATA sections and the content of `<script>`, `<style>`, `<textarea>`, `<title>`, `<pre>`,
/// `<code>`, and of elements whose class is `mathjax_ignore` or `tex2jax_ignore` are never scanned for
/// TeX, and no formula spans a tag (as MathJax, which does not look across elements).
///
/// Elements: `<img>` and `<svg>`, and scripts in other math notations (`math/asciimath`), are element
/// segments with their attributes, for the audit; conversion leaves them alone.
struct HTMLSegmenter {
    let options: SegmenterOptions

    /// Elements whose text MathJax leaves alone (its `skipHtmlTags`), besides the raw-text ones.
    static let skippedElements: Set<String> = ["pre", "code", "annotation", "annotation-xml", "noscript"]
    /// Classes that make MathJax (3: `mathjax_ignore`; 2: `tex2jax_ignore`) skip an element.
    static let ignoreClasses: Set<String> = ["mathjax_ignore", "tex2jax_ignore"]

    func segment(_ bytes: [UInt8], into collector: inout SegmentCollector, maps: [OffsetMap]) {
        let tokenizer = HTMLTokenizer(bytes: bytes)
        let tags = Self.tags(of: tokenizer)
        let ends = Self.matchEnds(tags)
        var excluded: [SourceRange] = []
        var k = 0
        while k < tags.count {
            let tag = tags[k]
            excluded.append(tag.range)
            guard tag.kind == .start else { k += 1; continue }
            switch tag.name {
            case "math":
                if tag.selfClosing { k += 1; continue }
                guard let e = ends[k] else {
                    collector.add([.warning("document.unclosed-element", "<\(tag.name)> is not closed; it runs to the end",
                                            at: tag.range)], maps: maps)
                    let element = MarkupElement(name: tag.name, syntax: .markup, range: SourceRange(tag.range.lowerBound, bytes.count),
                                                startTag: tag.range, contentRange: SourceRange(tag.range.upperBound, bytes.count),
                                                attributes: tag.attributes, attributeInsertionOffset: tag.insertionOffset)
                    addMath(element, tokenizer: tokenizer, into: &collector, maps: maps)
                    excluded.append(SourceRange(tag.range.upperBound, bytes.count))
                    k = tags.count
                    continue
                }
                let element = tag.element(end: tags[e])
                addMath(element, tokenizer: tokenizer, into: &collector, maps: maps)
                excluded.append(SourceRange(tag.range.upperBound, tags[e].range.upperBound))
                k = e + 1
            case "svg":
                let end = tag.selfClosing ? nil : ends[k]
                let element = tag.element(end: end.map { tags[$0] })
                collector.add(element, formula: nil, maps: maps, embedding: .plain)
                if let e = end {
                    excluded.append(SourceRange(tag.range.upperBound, tags[e].range.upperBound))
                    k = e + 1
                } else {
                    k += 1
                }
            case "img":
                collector.add(tag.element(end: nil), formula: nil, maps: maps, embedding: .plain)
                k += 1
            case "script":
                // The tag list holds the script's end tag right after it (its content is raw text).
                let end = k + 1 < tags.count && tags[k + 1].kind == .end && tags[k + 1].name == "script" ? tags[k + 1] : nil
                let contentEnd = end?.range.lowerBound ?? bytes.count
                excluded.append(SourceRange(tag.range.upperBound, contentEnd))
                addScript(tag, end: end, contentEnd: contentEnd, bytes: bytes, into: &collector, maps: maps)
                k += end == nil ? 1 : 2
            default:
                let skipped = Self.skippedElements.contains(tag.name) || rawTextElements.contains(tag.name)
                    || (tag.value(of: "class").map { $0.split(separator: " ").contains { Self.ignoreClasses.contains(String($0)) } } ?? false)
                if skipped, !tag.selfClosing {
                    // The content's text is not scanned; elements inside it still count.
                    let end = ends[k].map { tags[$0].range.lowerBound } ?? bytes.count
                    excluded.append(SourceRange(tag.range.upperBound, end))
                }
                k += 1
            }
        }
        // TeX delimiters in the text between tags.
        var scannerOptions = MathTextScanner.Options()
        scannerOptions.decodeHTMLEntities = true
        scannerOptions.namedCharacterReference = { MathMLEntities.value(of: $0) }
        scannerOptions.markdownCode = false
        scannerOptions.markdownMath = false
        scannerOptions.dollarDelimiters = options.dollarDelimiters
        scannerOptions.maxDiagnostics = options.maxDiagnostics
        scannerOptions.maxInputBytes = options.maxInputBytes
        let text = String(decoding: bytes, as: UTF8.self)
        let unscanned = Self.merged(excluded)
        let scan = MathTextScanner(options: scannerOptions).scan(text, excluding: unscanned, complete: true)
        for fragment in scan.fragments { collector.add(fragment, maps: maps, embedding: .plain) }
        collector.add(scan.diagnostics, maps: maps)
        collector.addUnscanned(unscanned, maps: maps)
    }

    /// Every tag, comment and the like, in order, with the content of raw-text elements skipped (a
    /// raw-text element's end tag, when found, follows its start tag).
    static func tags(of tokenizer: HTMLTokenizer) -> [HTMLTag] {
        var tags: [HTMLTag] = []
        var i = 0
        while let tag = tokenizer.nextTag(from: i) {
            tags.append(tag)
            i = tag.range.upperBound
            if tag.kind == .start, !tag.selfClosing, rawTextElements.contains(tag.name) {
                if tag.name == "plaintext" { break }
                guard let end = tokenizer.rawTextEnd(of: tag.name, from: i) else { break }
                tags.append(end)
                i = end.range.upperBound
            }
        }
        return tags
    }

    /// For each start tag, the index of its end tag (same name, nesting counted), in one pass.
    static func matchEnds(_ tags: [HTMLTag]) -> [Int?] {
        var ends = [Int?](repeating: nil, count: tags.count)
        var open: [String: [Int]] = [:]
        for (k, t) in tags.enumerated() {
            if t.kind == .start, !t.selfClosing { open[t.name, default: []].append(k) }
            if t.kind == .end, let start = open[t.name]?.popLast() { ends[start] = k }
        }
        return ends
    }

    /// Sorted ranges, overlapping ones merged.
    static func merged(_ ranges: [SourceRange]) -> [SourceRange] {
        let sorted = ranges.filter { $0.count > 0 }.sorted { $0.lowerBound < $1.lowerBound }
        var out: [SourceRange] = []
        for r in sorted {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = SourceRange(last.lowerBound, max(last.upperBound, r.upperBound))
            } else {
                out.append(r)
            }
        }
        return out
    }

    /// A `<math>` element: a MathML formula (its markup is the source).
    func addMath(_ element: MarkupElement, tokenizer: HTMLTokenizer, into collector: inout SegmentCollector, maps: [OffsetMap]) {
        let source = String(decoding: tokenizer.bytes[element.range.lowerBound..<element.range.upperBound], as: UTF8.self)
        let display = element.attribute("display")?.value?.lowercased() == "block"
            || element.attribute("mode")?.value?.lowercased() == "display"
        collector.add(element, formula: (.mathml, source, display, .mathElement, element.range,
                                         Self.texAnnotation(in: element, tokenizer: tokenizer)),
                      maps: maps, embedding: .plain)
    }

    /// The text of the first `<annotation encoding="application/x-tex">` (or `TeX`) inside a `<math>`.
    static func texAnnotation(in element: MarkupElement, tokenizer: HTMLTokenizer) -> String? {
        guard let content = element.contentRange else { return nil }
        var i = content.lowerBound
        while let t = tokenizer.nextTag(from: i), t.range.upperBound <= content.upperBound {
            i = t.range.upperBound
            guard t.kind == .start, t.name == "annotation", !t.selfClosing,
                  let encoding = t.value(of: "encoding")?.lowercased(), encoding.contains("tex") else { continue }
            var j = i
            while let e = tokenizer.nextTag(from: j), e.range.upperBound <= content.upperBound {
                if e.kind == .end, e.name == "annotation" {
                    return HTMLTokenizer.decode(tokenizer.bytes[i..<e.range.lowerBound])
                }
                j = e.range.upperBound
            }
            return nil
        }
        return nil
    }

    /// `<script type="math/tex">` (TeX), `math/mml` (MathML), other `math/…` types (elements).
    func addScript(_ tag: HTMLTag, end: HTMLTag?, contentEnd: Int, bytes: [UInt8], into collector: inout SegmentCollector,
                   maps: [OffsetMap]) {
        guard let type = tag.value(of: "type")?.lowercased(), type.hasPrefix("math/") else { return }
        // Without its end tag, a script's raw text runs to the end of the document.
        let element = end != nil ? tag.element(end: end)
            : MarkupElement(name: tag.name, syntax: .markup, range: SourceRange(tag.range.lowerBound, contentEnd), startTag: tag.range,
                            contentRange: SourceRange(tag.range.upperBound, contentEnd), attributes: tag.attributes,
                            attributeInsertionOffset: tag.insertionOffset)
        var lo = tag.range.upperBound, hi = contentEnd
        // MathJax 2 accepts the content wrapped in a CDATA section (XHTML).
        var s = lo
        while s < hi, HTMLTokenizer.isSpace(bytes[s]) { s += 1 }
        if HTMLTokenizer(bytes: bytes).starts(with: "<![CDATA[", at: s) {
            var e = hi
            while e > s, HTMLTokenizer.isSpace(bytes[e - 1]) { e -= 1 }
            if e - s >= 12, bytes[e - 3] == 0x5D, bytes[e - 2] == 0x5D, bytes[e - 1] == 0x3E {
                lo = s + 9
                hi = e - 3
            }
        }
        let source = String(decoding: bytes[lo..<hi], as: UTF8.self)
        let display = type.contains("mode=display")
        if type.hasPrefix("math/tex") {
            collector.add(element, formula: (.tex, source, display, .scriptElement, SourceRange(lo, hi), nil),
                          maps: maps, embedding: .plain)
        } else if type.hasPrefix("math/mml") {
            collector.add(element, formula: (.mathml, source, display, .scriptElement, SourceRange(lo, hi), nil),
                          maps: maps, embedding: .plain)
        } else {
            collector.add(element, formula: nil, maps: maps, embedding: .plain)
        }
    }
}
