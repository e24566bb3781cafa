import MathAloud

/// Plain text with TeX delimiters (``DocumentFormat/text``): the ``MathTextScanner`` with its defaults
/// (Markdown code spans and fences are not math).
struct TextSegmenter {
    let options: SegmenterOptions

    var scanner: MathTextScanner {
        var o = MathTextScanner.Options.prose
        o.dollarDelimiters = options.dollarDelimiters
        o.maxDiagnostics = options.maxDiagnostics
        o.maxInputBytes = options.maxInputBytes
        return MathTextScanner(options: o)
    }

    func segment(_ text: String, into collector: inout SegmentCollector, maps: [OffsetMap]) {
        let scan = scanner.scan(text)
        for fragment in scan.fragments { collector.add(fragment, maps: maps, embedding: .plain) }
        collector.add(scan.diagnostics, maps: maps)
        collector.addUnscanned(scan.codeRanges, maps: maps)
    }
}

/// What the Markdown segmenter found in a text (offsets into that text).
struct MarkdownScan {
    /// TeX formulas.
    var fragments: [MathFragment] = []
    /// Elements (`<math>`, `<img>`, `<svg>`, math scripts, Markdown images) and the formula each holds.
    var elements: [(element: MarkupElement, formula: ElementFormula?)] = []
    var diagnostics: [Diagnostic] = []
    /// What was not scanned for formulas: code, and what pass 2 excluded (comments, elements, images).
    var unscanned: [SourceRange] = []
    /// For a partial text: up to where the result is final, and where a later scan may resume.
    var settled: Int
    var resumeOffset: Int
    /// For a partial text: the bytes that can decide what is held (see ``MathTextScan/wakeBytes``).
    var wake = ByteSet.all
    /// For a partial text that ends in an open fenced code block both passes read alike: the block
    /// (``resumeOffset`` is then its last line, where a scan given its fence may start).
    var openCodeFence: OpenCodeFence?
}

/// The formula an element holds, its source taken byte for byte from `content`.
typealias ElementFormula = (notation: FormulaNotation, source: String, display: Bool, delimiter: FormulaDelimiter,
                            content: SourceRange, texAnnotation: String?)

/// CommonMark/GFM Markdown (``DocumentFormat/markdown``).
///
/// Math: `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, environments, ```` ```math ```` fences and `` $`…`$ ``, as
/// the ``MathTextScanner`` finds them with Markdown code (spans, fenced blocks) left alone; `\$` is a
/// dollar; a `$` before a digit after whitespace is money. The TeX is taken as written (as pandoc does:
/// no entity or backslash-escape decoding inside math).
///
/// Raw HTML outside code: comments are text that is never scanned; `<math>` elements are MathML
/// formulas; `<img>`, `<svg>` and Markdown images (`![alt](src "title")`, `![alt][ref]`) are element
/// segments whose `alt`, `src` and `title` have their ranges. No formula spans one of these.
struct MarkdownSegmenter {
    let options: SegmenterOptions

    var scanner: MathTextScanner {
        var o = MathTextScanner.Options.prose
        o.dollarDelimiters = options.dollarDelimiters
        o.doubledBackslashDelimiters = options.kramdownDelimiters
        o.maxDiagnostics = options.maxDiagnostics
        o.maxInputBytes = options.maxInputBytes
        return MathTextScanner(options: o)
    }

    func segment(_ text: String, into collector: inout SegmentCollector, maps: [OffsetMap], embedding: TextEmbedding = .plain,
                 whole: WholeText? = nil) {
        let found = scan(text, complete: true, whole: whole)
        for fragment in found.fragments { collector.add(fragment, maps: maps, embedding: embedding) }
        for (element, formula) in found.elements {
            collector.add(element, formula: formula, maps: maps, embedding: embedding)
        }
        collector.add(found.diagnostics, maps: maps)
        collector.addUnscanned(found.unscanned, maps: maps)
    }

    /// Scans Markdown text, which may go on when not `complete` (see
    /// ``MathTextScanner/scan(_:excluding:complete:startsLine:insideFence:)``). A `whole` text (a file or
    /// a notebook cell, not a stream's part) has its indented code blocks known (which needs the lines
    /// before them; a stream does not recognise them), and a file may start with YAML front matter.
    ///
    /// Blockquote markers (`>` at a line's start) are read as spaces: they are the quote's, not part of
    /// a formula (`> $$` / `> E = mc^2` / `> $$` is the formula `E = mc^2`).
    func scan(_ text: String, complete: Bool, startsLine: Bool = true, insideFence: CodeFence? = nil,
              whole: WholeText? = nil) -> MarkdownScan {
        let bytes = Array(text.utf8)
        let text = Self.withoutQuoteMarkers(text, bytes: bytes, startsLine: startsLine)
        // Pass 1: where the code is (nothing in code is HTML or math).
        let first = scanner.scan(text, excluding: [], complete: complete, startsLine: startsLine, insideFence: insideFence)
        var unsettled = complete ? bytes.count : first.settled
        var wake = first.wakeBytes
        /// Holds the reading from `p` on until one of `bytes` comes.
        func hold(_ p: Int, _ bytes: ByteSet) {
            if p < unsettled { unsettled = p; wake = bytes } else if p == unsettled { wake.formUnion(bytes) }
        }
        let code = first.codeRanges
        let tokenizer = HTMLTokenizer(bytes: bytes)
        var barriers: [SourceRange] = []
        var result = MarkdownScan(settled: 0, resumeOffset: 0)
        // The HTML and images outside code.
        var tags: [HTMLTag] = []
        var images: [(MarkupElement, Int)] = []
        var codeIndex = 0
        var i = 0
        let n = bytes.count
        // YAML front matter (a whole document's first line `---`, to a line `---` or `...`) is data.
        if let whole, complete {
            if whole == .file, let end = Self.frontMatterEnd(bytes) {
                barriers.append(SourceRange(0, end))
                i = end
            }
            barriers += Self.indentedCode(bytes, from: i, code: first.codeRanges)
        }
        let formulas = first.fragments.map(\.range)
        var formulaIndex = 0
        // A tag closes at a `>`: one that starts after the last `>` runs to the end unclosed, which in a
        // whole text changes nothing below, so it is not parsed (each parse of a name without white
        // space runs to the end: 100,000 `<ab:` took 44 s).
        let lastGreaterThan = bytes.lastIndex(of: 0x3E) ?? -1
        while i < n {
            // Code that began inside what this loop stepped over (a comment, a tag, an image) is not
            // code: what began first wins (`<!--\n\`\`\`-->\n<!--$h$-->` is two comments, the second
            // not hidden in a fence that opened inside the first).
            while codeIndex < code.count, code[codeIndex].lowerBound < i { codeIndex += 1 }
            if codeIndex < code.count, code[codeIndex].lowerBound == i { i = code[codeIndex].upperBound; continue }
            let b = bytes[i]
            if b == 0x5C { i += 2; continue }   // a backslash escape
            while formulaIndex < formulas.count, formulas[formulaIndex].upperBound <= i { formulaIndex += 1 }
            let inFormula = formulaIndex < formulas.count && formulas[formulaIndex].lowerBound < i
            if b == 0x3C, complete, i > lastGreaterThan { i += 1; continue }
            if b == 0x3C {   // '<'
                // An autolink (`<https://…>`) is a URL, not prose (`<ab:c>` inside a formula is TeX).
                switch inFormula ? nil : Self.autolink(at: i, bytes) {
                case .some(let end?):
                    barriers.append(SourceRange(i, end))
                    i = end
                    continue
                case .some(nil):
                    if !complete { hold(i, .all) }
                case nil:
                    break
                }
                if let tag = tokenizer.tag(at: i) {
                    let names = ["math", "svg", "img", "script"]
                    let interesting = tag.kind == .comment
                        || (tag.kind == .start || tag.kind == .end) && names.contains(tag.name)
                    if !complete, !tag.closed, !interesting {
                        // A tag cut off at the end may still become one that counts (`<ma`, `<!-`). Any
                        // name cut off may: only the part after its last colon counts, and more may come
                        // (`<ss!"` goes on as `<ss!":img $>`, an `img` tag).
                        let written = String(decoding: bytes[i..<n], as: UTF8.self).lowercased()
                        let nameCutOff = (tag.kind == .start || tag.kind == .end)
                            && !bytes[i..<n].contains(where: HTMLTokenizer.isSpace)
                        if nameCutOff || "<!--".hasPrefix(written) || "</".hasPrefix(written) {
                            hold(i, .all)
                        }
                    }
                    // Any other start tag's quoted attribute values are markup, not prose (`<span
                    // title="$x$">`): the tag is not scanned.
                    let plainName = i + 1 + tag.name.utf8.count <= n
                        && bytes[(i + 1)..<(i + 1 + tag.name.utf8.count)].allSatisfy { HTMLTokenizer.isLetter($0) || (0x30...0x39).contains($0) }
                    if !interesting, tag.kind == .start, plainName {
                        if tag.closed, tag.attributes.contains(where: { $0.quote != nil }) {
                            barriers.append(tag.range)
                            i = tag.range.upperBound
                            continue
                        }
                        // Unclosed, it may still gain a quoted attribute: held also when only white
                        // space has come after its name (`<h: ` then `"a $c$ b">`, a stream cut after the
                        // space, settled `$c$` as prose; found by the documents fuzzer).
                        if !complete, !tag.closed { hold(i, ByteSet(">")) }
                    }
                    if interesting {
                        if !tag.closed {
                            if !complete { hold(i, ByteSet(">")) }
                            i += 1
                            continue
                        }
                        tags.append(tag)
                        i = tag.range.upperBound
                        if tag.kind == .start, tag.name == "script", !tag.selfClosing {
                            if let end = tokenizer.rawTextEnd(of: "script", from: i), end.closed {
                                tags.append(end)
                                i = end.range.upperBound
                            } else if !complete {
                                hold(tag.range.lowerBound, ByteSet(">"))
                            }
                        }
                        continue
                    }
                } else if !complete, i + 12 > n {
                    hold(i, .all)   // `<!-` or `<mat` cut off
                }
                i += 1
                continue
            }
            if b == 0x21, i + 1 < n, bytes[i + 1] == 0x5B {   // "!["
                switch image(at: i, bytes: bytes, tokenizer: tokenizer) {
                case .image(let element):
                    images.append((element, i))
                    i = element.range.upperBound
                    continue
                case .incomplete:
                    if !complete { hold(i, .all) }
                case .none:
                    break
                }
            } else if b == 0x21, i + 1 == n, !complete {
                hold(i, .all)
            } else if b == 0x5D {   // "](": a link's destination and title are not prose
                if !inFormula, i + 1 < n, bytes[i + 1] == 0x28 {
                    switch destination(from: i + 1, bytes: bytes) {
                    case .end(let end, _, _):
                        barriers.append(SourceRange(i + 1, end))
                        i = end
                        continue
                    case .incomplete:
                        if !complete { hold(i, .all) }
                    case .none:
                        break
                    }
                } else if !inFormula, i + 1 == n, !complete {
                    hold(i, .all)
                }
            }
            i += 1
        }
        let ends = HTMLSegmenter.matchEnds(tags)
        var k = 0
        var items: [(MarkupElement, ElementFormula?)] = []
        while k < tags.count {
            let tag = tags[k]
            switch (tag.kind, tag.name) {
            case (.comment, _):
                barriers.append(tag.range)
            case (.start, "math") where !tag.selfClosing, (.start, "svg") where !tag.selfClosing:
                guard let e = ends[k] else {
                    if !complete { hold(tag.range.lowerBound, ByteSet(">")) }
                    break
                }
                let element = tag.element(end: tags[e])
                barriers.append(element.range)
                if tag.name == "math" {
                    let source = String(decoding: bytes[element.range.lowerBound..<element.range.upperBound], as: UTF8.self)
                    let display = element.attribute("display")?.value?.lowercased() == "block"
                    items.append((element, (.mathml, source, display, .mathElement, element.range,
                                            HTMLSegmenter.texAnnotation(in: element, tokenizer: tokenizer))))
                } else {
                    items.append((element, nil))
                }
                k = e
            case (.start, "img"), (.start, "svg"):
                barriers.append(tag.range)
                items.append((tag.element(end: nil), nil))
            case (.start, "script") where !tag.selfClosing:
                if k + 1 < tags.count, tags[k + 1].kind == .end, tags[k + 1].name == "script" {
                    let end = tags[k + 1]
                    let element = tag.element(end: end)
                    barriers.append(element.range)
                    if let type = tag.value(of: "type")?.lowercased(), type.hasPrefix("math/tex") {
                        let content = SourceRange(tag.range.upperBound, end.range.lowerBound)
                        let source = String(decoding: bytes[content.lowerBound..<content.upperBound], as: UTF8.self)
                        items.append((element, (.tex, source, type.contains("mode=display"), .scriptElement, content, nil)))
                    }
                    k += 1
                }
            default:
                break
            }
            k += 1
        }
        for (element, _) in images {
            barriers.append(element.range)
            items.append((element, nil))
        }
        // Pass 2: the math, with the HTML and images fenced off.
        let merged = HTMLSegmenter.merged(barriers)
        let second = merged.isEmpty ? first : scanner.scan(text, excluding: merged, complete: complete, startsLine: startsLine,
                                                            insideFence: insideFence)
        result.fragments = second.fragments
        result.diagnostics = second.diagnostics
        result.unscanned = second.codeRanges + merged
        result.elements = items.sorted { $0.0.range.lowerBound < $1.0.range.lowerBound }
        if !complete {
            hold(second.settled, second.wakeBytes)
            // A construct of pass 2 running over an undecided place (a comment not yet closed) may still
            // be cut by it: it waits too. A formula (`$a {x <!-- $b$ }--> c$`), and a code span, which
            // hides the formulas in it (`\`$x$i <!--\`b-->`: the backtick in the comment closes a code
            // span over `$x$` only until the comment closes). Neither point may fall inside an element
            // or comment: what follows must be scanned with the element's start in view.
            hold(Self.pulledBack(unsettled, outOf: second.spans + merged), wake)
            // The next scan must see everything that decided what follows its start: it may not start
            // inside an element or comment, nor inside anything either pass read as one construct
            // (``MathTextScan/spans``): not inside a formula or code span of pass 1, which decided where
            // the images are (`$![{\`$x$}![\`$]()`: pass 1's formula from the first `$` runs through the
            // backticks, so they make no code span and the image `![\`$]()` stands; a scan from the `!`
            // would read a code span there instead), nor inside a code span or a delimiter pair of pass
            // 2 (`<!--\`-->\`$\`$`, `$![]()$$$$"$`: a scan from the second `$` would not see the backtick
            // or the `$$` that opened what it is in). Each pass resumes cleanly at its own
            // `resumeOffset`, but the earlier of two such points may lie inside the other pass's span.
            // Nor inside a tag the loop above stepped over, a barrier or not (a self-closing `<script …/>`
            // hides the backtick in it from pass 1: `<script \`/>$x$<!-->\``; a scan from the backtick
            // would read a code span over `$x$`).
            // And never after a construct pass 1 still holds open (a fence, even one that opened inside a
            // comment the loop stepped over): it hides what follows from pass 1, and so decides which
            // backticks the loop takes for code (`<!--\n\`\`\`-->\n\`$x$<!--\`-->`: the fence keeps the
            // backtick before `$x$` from pairing with the one in the second comment, which therefore is a
            // comment; a scan from after the first comment would pair them and read no comment).
            let decided = merged + first.spans + second.spans + tags.map(\.range)
            let resume = Self.pulledBack(min(first.resumeOffset, second.resumeOffset, unsettled), outOf: decided)
            result.settled = unsettled
            result.wake = unsettled < n ? wake : .all
            result.resumeOffset = resume
            // Everything settled and a code block open to the end that both passes read alike, with no
            // construct around its start: a later scan may start at its last line.
            if unsettled == n, let open = first.openCodeFence, second.openCodeFence == open, resume == open.start {
                result.openCodeFence = open
                result.resumeOffset = open.lastLineStart
            }
        } else {
            result.settled = n
            result.resumeOffset = n
        }
        return result
    }

    /// `p`, moved back to the start of any of `ranges` it lies strictly inside, until it lies inside none.
    static func pulledBack(_ p: Int, outOf ranges: [SourceRange]) -> Int {
        var p = p
        var moved = true
        while moved {
            moved = false
            for r in ranges where r.lowerBound < p && p < r.upperBound { p = r.lowerBound; moved = true }
        }
        return p
    }

    /// A whole Markdown text, not a stream's part.
    enum WholeText {
        /// A file (it may start with front matter).
        case file
        /// A notebook's Markdown cell.
        case cell
    }

    enum ImageResult {
        case image(MarkupElement)
        case incomplete
        case none
    }

    /// A Markdown image at `i` (which holds `![`): `![alt](src "title")`, `![alt][ref]` or `![alt][]`.
    func image(at i: Int, bytes: [UInt8], tokenizer: HTMLTokenizer) -> ImageResult {
        let n = bytes.count
        // The alt text: brackets nest, backslash escapes, no blank line, at most 4 KiB.
        var j = i + 2
        var depth = 1
        let limit = min(n, i + 4096)
        while j < limit {
            let c = bytes[j]
            if c == 0x5C { j += 2; continue }
            if c == 0x5B { depth += 1 }
            if c == 0x5D { depth -= 1; if depth == 0 { break } }
            if c == 0x0A, isBlankLine(after: j, bytes) { return .none }
            j += 1
        }
        guard j < limit else { return j >= n ? .incomplete : .none }
        let alt = SourceRange(i + 2, j)
        let k = j + 1
        guard k < n else { return .incomplete }
        var attributes = [attribute("alt", alt, bytes, quote: nil, markdown: true)]
        if bytes[k] == 0x5B {   // [ref] or []
            var m = k + 1
            while m < n, bytes[m] != 0x5D, bytes[m] != 0x0A { m += 1 }
            guard m < n else { return .incomplete }
            guard bytes[m] == 0x5D else { return .none }
            let range = SourceRange(i, m + 1)
            return .image(MarkupElement(name: "img", syntax: .markdownImage, range: range, startTag: range, contentRange: nil,
                                        attributes: attributes, attributeInsertionOffset: nil))
        }
        guard bytes[k] == 0x28 else { return .none }   // '('
        switch destination(from: k, bytes: bytes) {
        case .none: return .none
        case .incomplete: return .incomplete
        case .end(let end, let source, let title):
            if let source, source.count > 0 { attributes.append(attribute("src", source, bytes, quote: nil, markdown: true)) }
            if let (range, quote) = title { attributes.append(attribute("title", range, bytes, quote: quote, markdown: true)) }
            let range = SourceRange(i, end)
            return .image(MarkupElement(name: "img", syntax: .markdownImage, range: range, startTag: range, contentRange: nil,
                                        attributes: attributes, attributeInsertionOffset: nil))
        }
    }

    enum DestinationResult {
        /// Just after the `)`; the destination and the title (and its quote), when there are.
        case end(Int, SourceRange?, (SourceRange, Character)?)
        case incomplete
        case none
    }

    /// A link's or image's `(destination "title")`, from its `(` at `start`.
    func destination(from start: Int, bytes: [UInt8]) -> DestinationResult {
        let n = bytes.count
        var k = start + 1
        func skipSpaces() { while k < n, bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0A { k += 1 } }
        skipSpaces()
        guard k < n else { return .incomplete }
        // The destination.
        let destination: SourceRange
        if bytes[k] == 0x3C {
            // No line break and no unescaped `<` inside (CommonMark), which also keeps the scan short.
            var m = k + 1
            while m < n, bytes[m] != 0x3E, bytes[m] != 0x0A, bytes[m] != 0x3C { m += bytes[m] == 0x5C ? 2 : 1 }
            guard m < n else { return .incomplete }
            guard bytes[m] == 0x3E else { return .none }
            destination = SourceRange(k + 1, m)
            k = m + 1
        } else {
            // Parentheses nest at most 32 deep (cmark's limit): a text of many `](` is not scanned to its
            // end from each of them.
            var m = k, parens = 0
            while m < n, bytes[m] > 0x20 {
                if bytes[m] == 0x5C { m += 2; continue }
                if bytes[m] == 0x28 { parens += 1; if parens > 32 { return .none } }
                if bytes[m] == 0x29 { if parens == 0 { break }; parens -= 1 }
                m += 1
            }
            m = min(m, n)
            destination = SourceRange(k, m)
            k = m
        }
        skipSpaces()
        guard k < n else { return .incomplete }
        var title: (SourceRange, Character)?
        if bytes[k] == 0x22 || bytes[k] == 0x27 || bytes[k] == 0x28 {
            let close: UInt8 = bytes[k] == 0x28 ? 0x29 : bytes[k]
            var m = k + 1
            while m < n, bytes[m] != close {
                // A title in parentheses holds no unescaped `(` (CommonMark).
                if close == 0x29, bytes[m] == 0x28 { return .none }
                if bytes[m] == 0x5C { m += 1 }
                m += 1
            }
            guard m < n else { return .incomplete }
            title = (SourceRange(k + 1, m), Character(Unicode.Scalar(bytes[k])))
            k = m + 1
            skipSpaces()
            guard k < n else { return .incomplete }
        }
        guard bytes[k] == 0x29 else { return .none }
        return .end(k + 1, destination, title)
    }

    /// An autolink at `i` (`<`): `<scheme:…>` (a scheme of 2 to 32 letters, digits, `+`, `.`, `-`
    /// starting with a letter; no space, `<` or `>` in the URL) — just after its `>`; `.some(nil)` when
    /// the text ends before it can be decided; nil when there is none.
    static func autolink(at i: Int, _ bytes: [UInt8]) -> Int?? {
        let n = bytes.count
        var k = i + 1
        guard k < n else { return .some(nil) }
        guard HTMLTokenizer.isLetter(bytes[k]) else { return nil }
        while k < n, k - i <= 33, HTMLTokenizer.isLetter(bytes[k]) || (0x30...0x39).contains(bytes[k])
                || bytes[k] == 0x2B || bytes[k] == 0x2E || bytes[k] == 0x2D { k += 1 }
        guard k < n else { return .some(nil) }
        guard bytes[k] == 0x3A, (3...33).contains(k - i) else { return nil }
        k += 1
        while k < n {
            let c = bytes[k]
            if c == 0x3E { return .some(k + 1) }
            if c <= 0x20 || c == 0x3C { return nil }
            k += 1
        }
        return .some(nil)
    }

    /// `text` with each blockquote marker (`>` after at most three spaces at a line's start, and the
    /// markers nested after it) replaced by a space: the same bytes and offsets otherwise.
    static func withoutQuoteMarkers(_ text: String, bytes: [UInt8], startsLine: Bool) -> String {
        guard bytes.contains(0x3E) else { return text }
        var out = bytes
        var changed = false
        var i = 0
        var lineStart = startsLine
        let n = bytes.count
        while i < n {
            if lineStart {
                lineStart = false
                var k = i
                while true {
                    var spaces = 0
                    while k < n, bytes[k] == 0x20, spaces < 3 { k += 1; spaces += 1 }
                    guard k < n, bytes[k] == 0x3E else { break }
                    out[k] = 0x20
                    changed = true
                    k += 1
                    if k < n, bytes[k] == 0x20 { k += 1 }
                }
                i = k
                continue
            }
            if bytes[i] == 0x0A { lineStart = true }
            i += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    /// The lines of indented code blocks (CommonMark §4.4: four spaces or a tab, after a blank line or
    /// another such line; not in a list, where such lines continue an item; not in fenced code), from
    /// `start`, each from its start to its end.
    static func indentedCode(_ bytes: [UInt8], from start: Int, code: [SourceRange]) -> [SourceRange] {
        var found: [SourceRange] = []
        var p = start
        var previousBlank = true, inBlock = false, inList = false
        var codeIndex = 0
        let n = bytes.count
        while p < n {
            var e = p
            while e < n, bytes[e] != 0x0A { e += 1 }
            // Indentation in columns, and whether the line is blank.
            var k = p, columns = 0
            while k < e, bytes[k] == 0x20 || bytes[k] == 0x09 { columns += bytes[k] == 0x09 ? 4 - columns % 4 : 1; k += 1 }
            let blank = k == e || (k == e - 1 && bytes[k] == 0x0D)
            while codeIndex < code.count, code[codeIndex].upperBound <= p { codeIndex += 1 }
            let inFence = codeIndex < code.count && code[codeIndex].lowerBound <= p
            if blank {
                previousBlank = true
            } else if inFence {
                previousBlank = false; inBlock = false
            } else if columns >= 4, previousBlank || inBlock, !inList {
                found.append(SourceRange(p, e))
                inBlock = true; previousBlank = false
            } else {
                // A list item's marker opens a list; a line at the margin that is not one closes it.
                var m = k
                if m < e, bytes[m] == 0x2D || bytes[m] == 0x2A || bytes[m] == 0x2B { m += 1 } else {
                    while m < e, m - k < 9, (0x30...0x39).contains(bytes[m]) { m += 1 }
                    if m > k, m < e, bytes[m] == 0x2E || bytes[m] == 0x29 { m += 1 } else { m = k }
                }
                let marker = m > k && (m == e || bytes[m] == 0x20 || bytes[m] == 0x09)
                if marker { inList = true } else if columns == 0 { inList = false }
                inBlock = false; previousBlank = false
            }
            p = e + 1
        }
        return found
    }

    /// The end of YAML front matter: the text's first line is `---` and a later line is `---` or `...`
    /// (just after that line); nil when there is none.
    static func frontMatterEnd(_ bytes: [UInt8]) -> Int? {
        func line(at start: Int) -> (text: ArraySlice<UInt8>, next: Int) {
            var e = start
            while e < bytes.count, bytes[e] != 0x0A { e += 1 }
            var t = bytes[start..<e]
            while let last = t.last, last == 0x0D || last == 0x20 || last == 0x09 { t.removeLast() }
            return (t, min(e + 1, bytes.count))
        }
        let dashes = Array("---".utf8), dots = Array("...".utf8)
        let (first, second) = line(at: 0)
        guard Array(first) == dashes, second < bytes.count else { return nil }
        var p = second
        while p < bytes.count {
            let (text, next) = line(at: p)
            if Array(text) == dashes || Array(text) == dots { return next }
            p = next
        }
        return nil
    }

    private func attribute(_ name: String, _ value: SourceRange, _ bytes: [UInt8], quote: Character?, markdown: Bool)
        -> MarkupAttribute {
        // Markdown text: backslash escapes of ASCII punctuation are removed (CommonMark §2.4).
        var out: [UInt8] = []
        var i = value.lowerBound
        while i < value.upperBound {
            if bytes[i] == 0x5C, i + 1 < value.upperBound, Self.isPunctuation(bytes[i + 1]) {
                out.append(bytes[i + 1])
                i += 2
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        let decoded = HTMLTokenizer.decode(out[...])
        return MarkupAttribute(name: name, value: decoded, range: value, nameRange: SourceRange(value.lowerBound, value.lowerBound),
                               valueRange: value, quote: quote)
    }

    static func isPunctuation(_ b: UInt8) -> Bool {
        (0x21...0x2F).contains(b) || (0x3A...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b)
    }

    private func isBlankLine(after newline: Int, _ bytes: [UInt8]) -> Bool {
        var k = newline + 1
        while k < bytes.count, bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0D { k += 1 }
        return k < bytes.count && bytes[k] == 0x0A
    }
}
