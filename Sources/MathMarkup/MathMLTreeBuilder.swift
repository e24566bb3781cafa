import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MathSyntax

/// Builds the ``MathNode`` tree from `XMLParser` SAX events with an explicit stack of open
/// elements (no recursion, so nesting depth costs no native stack). Positions come from the
/// tags recorded by ``MathMLSourceScanner``, matched to the events in document order.
final class MathMLTreeBuilder: NSObject, XMLParserDelegate {
    /// A built child, as its parent sees it.
    enum Item {
        /// A node; `marker` tells whether an `mo` marks a fenced group's open/close delimiter.
        case node(MathNode, marker: FenceMarker?)
        /// An `annotation` or `annotation-xml` child (meaningful inside `semantics`). `presentation` is
        /// the tree read from an `annotation-xml` of presentation MathML that a `semantics` may need
        /// (``Role/presentationAnnotation``), nil otherwise.
        case annotation(Annotation, range: SourceRange?, presentation: MathNode?)
        /// `mprescripts` (meaningful inside `mmultiscripts`).
        case prescripts(range: SourceRange?)
    }

    /// How an `mo` can mark the delimiters of a fenced group.
    enum FenceMarker {
        /// `fence="true"` (with `stretchy` not false) and no other attributes but `stretchy`/`form`.
        case explicit
        /// MathJax's `data-mjx-texclass="OPEN"` / `"CLOSE"`.
        case mathJaxOpen, mathJaxClose
    }

    enum Role {
        /// Children are elements; stray text is dropped, or read as a text node (``flushText(before:)``).
        case container
        /// A token element: collects its text, including that of child elements.
        case token
        /// An element inside a token or `annotation-xml`: contributes text only.
        case absorbed
        /// `annotation-xml`: its content is kept as raw source text.
        case annotationXML
        /// An `annotation-xml` of presentation MathML (or of no stated encoding) in a `semantics` with no
        /// presentation child before it: its content is kept as raw source text and also read as
        /// elements, the presentation the `semantics` lacks (as MathCAT reads it; SRE reads an
        /// `annotation-xml` alone as its content too).
        case presentationAnnotation
    }

    struct Frame {
        var name: String
        var attributes: [String: String]
        var role: Role
        var preserveSpace: Bool
        var start: Int?
        var startTagEnd: Int?
        var endTagStart: Int?
        var end: Int?
        var isEmpty = false
        var items: [Item] = []
        var text = ""
        /// The `alt` text of the `mglyph`s absorbed into ``text`` (a glyph is an image named by its alt).
        var glyphText = ""
        var textStart: Int?

        var range: SourceRange? {
            guard let start else { return nil }
            return SourceRange(start, end ?? startTagEnd ?? start)
        }
        var startTagRange: SourceRange? {
            guard let start else { return nil }
            return SourceRange(start, startTagEnd ?? start)
        }
        var contentRange: SourceRange? {
            guard let startTagEnd, let endTagStart else { return nil }
            return SourceRange(startTagEnd, endTagStart)
        }
    }

    static let tokenElements: Set<String> = ["mi", "mn", "mo", "mtext", "ms", "annotation"]
    /// The MathML elements that hold elements, not text (all but the tokens, `merror`, whose message
    /// is read, and the annotations): text directly inside one is not content.
    static let layoutElements: Set<String> = [
        "math", "mrow", "mfrac", "msqrt", "mroot", "msub", "msup", "msubsup", "munder", "mover", "munderover",
        "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mlabeledtr", "mtd", "menclose", "mstyle",
        "mphantom", "mpadded", "mfenced", "semantics", "maction", "mspace", "malignmark", "maligngroup",
    ]

    // Inputs
    let source: [UInt8]
    private let tags: [MathMLTag]
    let options: MathMLReader.Options

    // Outputs
    var diagnostics: [Diagnostic] = []
    private(set) var limitDiagnostic: Diagnostic?
    private(set) var parseError: (code: Int, line: Int, column: Int)?
    private(set) var root: MathNode?
    private(set) var display = false
    private(set) var mathAttributes: [String: String] = [:]

    // State
    private var stack: [Frame] = []
    private var textSink: Int?
    private var tagCursor = 0
    private var positionsValid = true
    private var lastTagEnd: Int?
    private var elementCount = 0
    private var stopped = false
    private var sawMath = false

    init(source: [UInt8], tags: [MathMLTag], options: MathMLReader.Options) {
        self.source = source
        self.tags = tags
        self.options = options
    }

    // MARK: - SAX events

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard !stopped else { return }
        if stack.isEmpty {
            // The synthetic wrapper added by the scanner.
            stack.append(Frame(name: "#fragment", attributes: [:], role: .container, preserveSpace: false))
            return
        }
        var tag: MathMLTag?
        if positionsValid, tagCursor < tags.count, tags[tagCursor].kind != .end, tags[tagCursor].name == elementName {
            tag = tags[tagCursor]
            tagCursor += 1
        } else {
            positionsValid = false
        }
        flushText(before: tag?.start, beforeElement: true)

        elementCount += 1
        if stack.count > options.maxDepth {
            stop(parser, .error("mathml.too-deep",
                                "elements are nested more than \(options.maxDepth) deep",
                                at: tag.map { SourceRange($0.start, $0.end) }))
            return
        }
        if elementCount > options.maxNodes {
            stop(parser, .error("mathml.too-many-nodes",
                                "the input has more than \(options.maxNodes) elements",
                                at: tag.map { SourceRange($0.start, $0.end) }))
            return
        }

        let name = Self.localName(elementName)
        let parent = stack[stack.count - 1]
        let role: Role
        switch parent.role {
        case .token, .absorbed, .annotationXML: role = .absorbed
        case .container, .presentationAnnotation:
            if name == "annotation-xml" {
                role = parent.name == "semantics" && Self.isPresentation(encoding: attributeDict["encoding"])
                    && !parent.items.contains(where: { if case .node = $0 { return true } else { return false } })
                    ? .presentationAnnotation : .annotationXML
            } else if Self.tokenElements.contains(name) { role = .token } else { role = .container }
        }
        var frame = Frame(name: name, attributes: attributeDict, role: role,
                          preserveSpace: parent.preserveSpace || name == "merror" || name == "annotation")
        if let tag {
            frame.start = tag.start
            frame.startTagEnd = tag.end
            frame.isEmpty = tag.kind == .empty
            if frame.isEmpty { frame.endTagStart = tag.end; frame.end = tag.end }
            lastTagEnd = tag.end
        }
        if role == .absorbed, name == "mglyph", let sink = textSink, let alt = attributeDict["alt"] {
            stack[sink].text += alt
            stack[sink].glyphText += alt
        }
        stack.append(frame)
        if role == .token || role == .annotationXML { textSink = stack.count - 1 }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard !stopped, !stack.isEmpty else { return }
        if stack.count == 1 {
            flushText(before: nil)
            let frame = stack.removeLast()
            finishFragment(frame)
            return
        }
        var frame = stack[stack.count - 1]
        if !frame.isEmpty {
            if positionsValid, tagCursor < tags.count, tags[tagCursor].kind == .end, tags[tagCursor].name == elementName {
                let tag = tags[tagCursor]
                tagCursor += 1
                flushText(before: tag.start)
                frame = stack[stack.count - 1]
                frame.endTagStart = tag.start
                frame.end = tag.end
                lastTagEnd = tag.end
            } else {
                positionsValid = false
                flushText(before: nil)
                frame = stack[stack.count - 1]
            }
        }
        stack.removeLast()
        if textSink == stack.count { textSink = nil }
        if frame.role == .absorbed { return }
        if let item = build(frame) {
            stack[stack.count - 1].items.append(item)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stopped, !stack.isEmpty else { return }
        if let sink = textSink {
            stack[sink].text += string
        } else {
            let top = stack.count - 1
            if stack[top].textStart == nil { stack[top].textStart = lastTagEnd }
            stack[top].text += string
        }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard !stopped else { return }
        let code = (parseError as NSError).code
        if (200..<300).contains(code) {
            // Namespace errors (an undeclared prefix): the element is still read.
            var range = lastTagEnd.map { SourceRange($0, $0) }
            if positionsValid, tagCursor < tags.count { range = SourceRange(tags[tagCursor].start, tags[tagCursor].end) }
            diagnostics.append(.warning("mathml.undeclared-prefix", "a namespace prefix is not declared", at: range))
            return
        }
        self.parseError = (code, parser.lineNumber, parser.columnNumber)
        stopped = true
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {}

    private func stop(_ parser: XMLParser, _ diagnostic: Diagnostic) {
        limitDiagnostic = diagnostic
        stopped = true
        parser.abortParsing()
    }

    // MARK: - Text

    /// Handles pending character data of the top (container) frame: whitespace alone is dropped, as
    /// MathML ignores whitespace between elements; other text beside the elements of a MathML element
    /// that holds elements (`<mrow>&gt;<mi>n</mi></mrow>`, ``layoutElements``) is not content and is
    /// dropped with the warning `mathml.unexpected-text`, never spoken. Text that is all such an
    /// element holds (`<math>x</math>`) is read as `<mtext>` with that warning, so that a formula
    /// written that way is not silent; so is text in an element MathML does not have (`<h1>a</h1>`)
    /// or outside any element. The text of `<merror>` (its message) is read.
    /// `beforeElement`: the text is followed by a child element (not by the element's end).
    private func flushText(before tagStart: Int?, beforeElement: Bool = false) {
        guard textSink == nil, let top = stack.indices.last else { return }
        let text = stack[top].text
        let textStart = stack[top].textStart
        stack[top].text = ""
        stack[top].textStart = nil
        let content = Self.collapse(text, preserve: stack[top].preserveSpace)
        guard !content.isEmpty else { return }
        var range: SourceRange?
        if positionsValid, let textStart, let tagStart, textStart <= tagStart {
            range = trimmedRange(textStart, tagStart)
        }
        let name = stack[top].name
        if Self.layoutElements.contains(name), beforeElement || !stack[top].items.isEmpty {
            diagnostics.append(.warning("mathml.unexpected-text", "text directly inside <\(name)> is ignored", at: range))
            return
        }
        if name != "merror" {
            diagnostics.append(.warning(
                "mathml.unexpected-text",
                "text directly inside <\(name == "#fragment" ? "math" : name)> is read as <mtext>",
                at: range))
        }
        stack[top].items.append(.node(MathNode(.text(content, variant: nil), range: range), marker: nil))
    }

    private func trimmedRange(_ start: Int, _ end: Int) -> SourceRange {
        var lo = start, hi = min(end, source.count)
        while lo < hi, Self.isXMLSpace(source[lo]) { lo += 1 }
        while hi > lo, Self.isXMLSpace(source[hi - 1]) { hi -= 1 }
        return SourceRange(lo, hi)
    }

    static func isXMLSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// MathML token content: leading and trailing XML whitespace removed and inner runs collapsed
    /// to one space (MathML 3 §2.1.7); with `preserve`, only the ends are trimmed. MathType's
    /// private-use letters and digits become the Unicode characters they stand for
    /// (``UnicodeMath/mathTypePrivateUse(_:)``).
    static func collapse(_ text: String, preserve: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false, ordinal = false
        var last: Unicode.Scalar = " "
        for var scalar in text.unicodeScalars {
            if scalar.value >= 0xF000 && scalar.value <= 0xF55F, let standard = UnicodeMath.mathTypePrivateUse(scalar) {
                scalar = standard
            }
            let isSpace = scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
            if isSpace && !preserve {
                pendingSpace = !scalars.isEmpty
                continue
            }
            // A soft hyphen (`<mn>&#xAD;2</mn>`, a word processor's hyphenation point, as one formula of OpenStax's chemistry has it)
            // shows nothing unless a line breaks there, which a token's text never does: MathSpeak said "soft hyphen".
            if scalar == "\u{AD}" { continue }
            // An invisible operator typed twice in a row (`<mo>⁢⁢</mo>`, as OpenStax's Polish physics sets 892 products of units,
            // `mol⁢⁢K`) is that operator once: twice it was no product's sign, and a word per character.
            // (The last scalar kept in a variable: `scalars.last` decodes the view backwards, +1 % of reading MathML,
            // callgrind on 8,000 OpenStax formulas, session 52.)
            if scalar.value &- 0x2061 < 4, last == scalar { continue }
            if pendingSpace { scalars.append(" "); pendingSpace = false }
            if scalar == "\u{BA}" { ordinal = true }
            scalars.append(scalar)
            last = scalar
        }
        var result = String(scalars)
        if preserve {
            result = result.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r"))
        }
        return ordinal ? degreeSignsTyped(result) : result
    }

    /// The masculine ordinal indicator typed for the degree sign (`<mn>75.0º</mn>`, `<mtext>º</mtext>`, `60.0 ºC`, as OpenStax's
    /// College Physics sets every degree of 750 formulas, a keyboard's º beside its 1): the degree sign, where it follows digits
    /// or a space after them or stands first, and ends the text or comes before a space or a scale's letter (C, F, K) that ends
    /// it, or before a scale's letter after no letter (`J/(kg⋅ºC)`). An ordinal's º (`2.º caso`) and the numero sign (`Nº 5`) stay.
    static func degreeSignsTyped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (k, u) in scalars.enumerated() {
            guard u == "\u{BA}" else { out.append(u); continue }
            var before = k - 1
            if before >= 0, scalars[before] == " " { before -= 1 }
            let afterDigits = before < 0 || ("0" ... "9").contains(scalars[before])
            var after = k + 1
            if after < scalars.count, scalars[after] == " " { after += 1 }
            let scale = after < scalars.count && "CFK".unicodeScalars.contains(scalars[after])
                && (after + 1 >= scalars.count || !scalars[after + 1].properties.isAlphabetic)
            let ends = after >= scalars.count || !scalars[after].properties.isAlphabetic
            // After digits (or first) before no letter, or before a scale's letter after anything but a letter (`kg⋅ºC`; `Nº 5` stays).
            let isDegree = (afterDigits && (ends || scale)) || (scale && (k == 0 || !scalars[k - 1].properties.isAlphabetic))
            out.append(isDegree ? "\u{B0}" : u)
        }
        return String(out)
    }

    static func localName(_ qualified: String) -> String {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: colon)...])
    }

    // MARK: - The fragment and <math>

    private func finishFragment(_ frame: Frame) {
        let nodes = collectNodes(frame)
        if nodes.count == 1 {
            root = nodes[0]
        } else {
            root = MathNode(.row, nodes, range: nodes.reduce(nil) { SourceRange.union($0, $1.range) })
        }
    }

    func warn(_ id: DiagnosticID, _ message: String, at range: SourceRange?) {
        diagnostics.append(.warning(id, message, at: range))
    }

    func error(_ id: DiagnosticID, _ message: String, at range: SourceRange?) {
        diagnostics.append(.error(id, message, at: range))
    }

    /// The node children of `frame`, with a warning for annotations and `mprescripts` out of place.
    func collectNodes(_ frame: Frame) -> [MathNode] {
        var markers: [FenceMarker?]? = nil
        return collectNodes(frame, markers: &markers)
    }

    /// The element nodes of `frame`, as ``collectNodes(_:)`` gives them, and each one's fence marker when
    /// `markers` is an array (a row's fences are read from them).
    func collectNodes(_ frame: Frame, markers: inout [FenceMarker?]?) -> [MathNode] {
        var nodes: [MathNode] = []
        nodes.reserveCapacity(frame.items.count)
        for item in frame.items {
            switch item {
            case let .node(node, marker):
                nodes.append(node)
                markers?.append(marker)
            case let .annotation(_, range, _):
                warn("mathml.misplaced-element", "an annotation outside <semantics> is ignored", at: range)
            case let .prescripts(range):
                warn("mathml.misplaced-element", "<mprescripts/> outside <mmultiscripts> is ignored", at: range)
            }
        }
        Self.dashesAsMinus(&nodes)
        return nodes
    }

    /// A decimal number set in pieces is one number: `<mn>0</mn><mo>.</mo><mn>62</mn>`, `<mn>0</mn><mn>.62</mn>` and
    /// `<mn>0.</mn><mn>62</mn>` are 0.62, and a point typed before digits where no number precedes it (`<mo>.</mo><mn>02</mn>`) is .02, as
    /// publishers' MathML writes some decimals (OpenStax's statistics books, ~300 formulas; they were "0 dot 62").
    /// Digits right before a power of digits are its base's (`<mn>1</mn><msup><mn>0</mn><mn>8</mn></msup>` is 10⁸, as a
    /// TeX `10^8` is set). Only plain digits join: a point between other items stays what it is.
    static func decimalsJoined(_ nodes: inout [MathNode]) {
        func plain(_ n: MathNode) -> String? { if case .number(let t, nil) = n.kind { t } else { nil } }
        func isDigits(_ t: String) -> Bool { !t.isEmpty && t.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        // A point set as an operator or as text alone (`<mtext>.</mtext>`, as OpenStax's College Physics sets 1,900 of its
        // decimals: `<mn>2</mn><mtext>.</mtext><mn>00</mn>`, which was "2, 00", a list's pause).
        func isPoint(_ n: MathNode) -> Bool {
            switch n.kind {
            case .operator(let t, _): t == "."
            case .text(let t, nil): t == "."
            default: false
            }
        }
        // A comma set as a number of its own (`<mn>41</mn><mn>,</mn><mn>2</mn>`, as OpenStax's Polish physics sets its decimal
        // commas, textbook sweep 17): between digits the decimal mark (also before three digits, `<mn>0</mn><mn>,</mn><mn>001</mn>`:
        // the one source that sets commas so writes its decimals so, where digit groups are typed into one token, `<mn>1,</mn>`,
        // below); elsewhere the list's comma `<mo>` makes (the reader of `mn` leaves it for this pass).
        func isCommaNumber(_ n: MathNode) -> Bool {
            if case .number(let t, nil) = n.kind { t.utf8.count == 1 && t.utf8.first == 0x2C } else { false }
        }
        // Digits that begin a row: an author's row (`<mn>2</mn><mtext>.</mtext><mrow><mtext>00</mtext><mo>×</mo>…`) or a token
        // the reader split (`<mn>0 m</mn>`, `<mtext>80 m/s</mtext>`): the row with `a` and a point put before them, or nil.
        func rowBegun(by a: String, _ start: MathNode, _ row: MathNode, depth: Int = 0) -> MathNode? {
            guard depth < 3, case .row = row.kind, let first = row.children.first else { return nil }
            var children = Array(row.children)
            let range = SourceRange.union(start.range, row.range)
            if let b = plain(first), isDigits(b) {
                children[0] = MathNode(.number(a + "." + b), range: SourceRange.union(start.range, first.range))
            } else if let inner = rowBegun(by: a, start, first, depth: depth + 1) {
                children[0] = inner
            } else {
                return nil
            }
            // A split token's parts keep its place (``isSplitToken(_:)``): the joined token's.
            if Self.isSplitToken(row) {
                children = children.map { MathNode($0.kind, Array($0.children), range: range, attributes: $0.attributes) }
            }
            return MathNode(.row, children, range: range, attributes: row.attributes)
        }
        // The decimal whose whole digits `a` are `start` (at `i`), its point and the rest in the nodes after it, and the index of
        // the last of them; nil when no point and digits follow.
        func decimal(after a: String, _ start: MathNode, at i: Int) -> (MathNode, end: Int)? {
            guard i + 1 < nodes.count else { return nil }
            if isPoint(nodes[i + 1]) || isCommaNumber(nodes[i + 1]) {
                // An empty row between the point and the digits is nothing (empty tokens, `<mtext>.</mtext><mi/><mtext>8 m/s</mtext>`,
                // are gone already: ``emptyTokensDropped(_:)``).
                var k = i + 2
                while k < nodes.count, case .row = nodes[k].kind, nodes[k].children.isEmpty { k += 1 }
                guard k < nodes.count else { return nil }
                if let b = plain(nodes[k]), isDigits(b) {
                    return (MathNode(.number(a + "." + b), range: SourceRange.union(start.range, nodes[k].range)), k)
                }
                if let row = rowBegun(by: a, start, nodes[k]) { return (row, k) }
                // Digits with scripts after the point (`<mn>41</mn><mn>,</mn><msup><mn>2</mn><mo>∘</mo></msup>`): the decimal with them.
                if case .superscript = nodes[k].kind, let base = nodes[k].children.first, let b = plain(base), isDigits(b) {
                    let joined = MathNode(.number(a + "." + b), range: SourceRange.union(start.range, base.range))
                    return (MathNode(.superscript, [joined] + nodes[k].children.dropFirst(), range: SourceRange.union(start.range, nodes[k].range),
                                     attributes: nodes[k].attributes), k)
                }
                // Digits and words after the point (`<mn>3</mn><mtext>.</mtext><mtext>28 feet</mtext>`): the text read again
                // with the whole digits and the point before it, as `<mtext>3.28 feet</mtext>` is.
                if case .text(let t, nil) = nodes[k].kind, let digit = t.utf8.first, digit >= 0x30 && digit <= 0x39,
                   let joined = reread(a + ".", t[...], start, nodes[k]) {
                    return (joined, k)
                }
            }
            if let token = textBegun(by: a, start, nodes[i + 1]) { return (token, i + 1) }
            // A point and digits set as a number of their own (`<mtext>.2</mtext>`) after a row's last digits.
            if let b = plain(nodes[i + 1]), b.utf8.first == 0x2E, isDigits(String(b.dropFirst())) {
                return (MathNode(.number(a + b), range: SourceRange.union(start.range, nodes[i + 1].range)), i + 1)
            }
            return nil
        }
        // An author's row `row` (at `i`) whose last item, or its last row's (three deep), is whole digits before a point and
        // digits after the row: the row with the decimal last, and the index of the decimal's last node.
        func rowEnded(_ row: MathNode, at i: Int, depth: Int = 0) -> (row: MathNode, end: Int)? {
            guard depth < 3, case .row = row.kind, let last = row.children.last else { return nil }
            var children = Array(row.children)
            if let a = plain(last), isDigits(a) {
                guard let (decimal, end) = decimal(after: a, last, at: i) else { return nil }
                children[children.count - 1] = decimal
                return (MathNode(.row, children, range: SourceRange.union(row.range, decimal.range), attributes: row.attributes), end)
            }
            guard let (inner, end) = rowEnded(last, at: i, depth: depth + 1) else { return nil }
            children[children.count - 1] = inner
            return (MathNode(.row, children, range: SourceRange.union(row.range, inner.range), attributes: row.attributes), end)
        }
        // A text that begins with a point and digits (`<mtext>.6 m/s</mtext>`, `<mtext>.0°</mtext>`), which a number before it
        // begins: read again joined to it (``textToken(_:variant:range:attributes:)``), as `<mtext>67.6 m/s</mtext>` is.
        func textBegun(by a: String, _ start: MathNode, _ text: MathNode) -> MathNode? {
            guard case .text(let t, nil) = text.kind, t.utf8.count >= 2, t.utf8.first == 0x2E,
                  let digit = t.utf8.dropFirst().first, digit >= 0x30 && digit <= 0x39 else { return nil }
            return reread(a + ".", t.dropFirst(), start, text)
        }
        // The text `digits` (the decimal's last digits and what follows them, in `text`) read again with `head` (the whole digits
        // and the point) before it, as one text token (``textToken(_:variant:range:attributes:)``). Read as text again only when no
        // letter follows the digits at once (`.3 m on dry concrete`, `.2-k`): `.247800x` (a coefficient and its variable) stays a piece.
        func reread(_ head: String, _ digits: Substring, _ start: MathNode, _ text: MathNode) -> MathNode? {
            guard case let .node(joined, nil) = Self.textToken(head + digits, variant: nil, range: SourceRange.union(start.range, text.range),
                                                               attributes: text.attributes) else { return nil }
            if case .text = joined.kind, !Self.digitsBeforeWords(digits.utf8) { return nil }
            return joined
        }
        // A power whose base is digits (`<msup><mn>0</mn><mn>8</mn></msup>`).
        func raisedDigits(_ n: MathNode) -> String? {
            guard case .superscript = n.kind, n.children.count == 2, let t = plain(n.children[0]), isDigits(t) else { return nil }
            return t
        }
        // A number and the comma typed after it in one token (`<mn>1,</mn>`, split by the reader into the number and a comma
        // of the same place): the number's text.
        func numberBeforeComma(_ n: MathNode) -> String? {
            guard Self.isSplitToken(n), n.children.count == 2, let t = plain(n.children[0]),
                  case .operator(",", _) = n.children[1].kind else { return nil }
            return t
        }
        // Most rows hold no point, no number with a point or a comma and no power of digits.
        guard nodes.contains(where: { isPoint($0) || raisedDigits($0) != nil || numberBeforeComma($0) != nil
                                      || plain($0)?.utf8.contains(where: { $0 == 0x2E || $0 == 0x2C }) == true
                                      || { if case .text(let t, nil) = $0.kind { t.utf8.first == 0x2E } else { false } }($0) })
        else { return }
        var out: [MathNode] = []
        out.reserveCapacity(nodes.count)
        var i = 0
        while i < nodes.count {
            let n = nodes[i]
            let next = i + 1 < nodes.count ? nodes[i + 1] : nil
            // The joined number is tried again with what follows (`<mtext>2</mtext><mo>.</mo><mtext>7</mtext><mn>0</mn>` is 2.70).
            func joined(_ text: String, through last: Int) {
                nodes[last] = MathNode(.number(text), range: SourceRange.union(n.range, nodes[last].range))
                i = last
            }
            // The decimal is tried again with what follows (`<mtext>2</mtext><mo>.</mo><mtext>7</mtext><mn>0</mn>` is 2.70; its row
            // may end in whole digits before another point).
            if let a = plain(n), isDigits(a), let (decimal, end) = decimal(after: a, n, at: i) {
                nodes[end] = decimal
                i = end
                continue
            }
            // The whole digits ending a row, the point and the rest after it (`<mrow>…<mo>=</mo><mn>2</mn></mrow>
            // <mtext>.</mtext><mn>0 m</mn>`, as OpenStax's College Physics breaks its rows; a text of signs and numbers read
            // before, `<mtext>.4 + 1</mtext><mtext>.6 + 1</mtext>`): the decimal ends the row.
            if case .row = n.kind, let ended = rowEnded(n, at: i) {
                nodes[ended.end] = ended.row
                i = ended.end
                continue
            }
            // Digit groups typed with their commas (`<mn>1,</mn><mn>000,</mn><mn>000</mn>`): one number, 1,000,000; a comma
            // before anything but a group of three digits stays the list's (`<mn>0,</mn><mn>18</mn>` is the point (0, 18)).
            if let a = numberBeforeComma(n), a.split(separator: ",", omittingEmptySubsequences: false).allSatisfy({ isDigits(String($0)) }), let next {
                let b = plain(next) ?? numberBeforeComma(next)
                if let b, b.utf8.count == 3, isDigits(b) {
                    let range = SourceRange.union(n.range, next.range)
                    let joined = MathNode(.number(a + "," + b), range: range)
                    nodes[i + 1] = plain(next) != nil ? joined : MathNode(.row, [joined, operatorLeaf(",", range: range)], range: range)
                    i += 1
                    continue
                }
            }
            // `<mn>1</mn><msup><mn>0</mn><mn>8</mn></msup>`: the digits before a raised number are its own, 10⁸ (as
            // OpenStax's books set some powers of ten; they were "1 0 to the eighth power").
            if let a = plain(n), isDigits(a), let next, let rest = raisedDigits(next) {
                let base = MathNode(.number(a + rest), range: SourceRange.union(n.range, next.children[0].range))
                out.append(MathNode(.superscript, [base, next.children[1]], range: SourceRange.union(n.range, next.range),
                                    attributes: next.attributes))
                i += 2
                continue
            }
            // Two numbers side by side that are one decimal or one number with digit groups, joined where one of them ends
            // (`<mn>0</mn><mn>.3</mn>`, `<mn>2.</mn><mn>85</mn>`, `<mn>2</mn><mn>0.25</mn>`, `<mtext>3,6</mtext><mn>00</mn>`, as OpenStax's algebra books
            // set some: "2 0.25" and "3.6 00" before). The joined number is tried again with the next (`<mtext>6</mtext><mn>0.</mn>
            // <mtext>197</mtext>` is 60.197).
            // Digits beside digits are not joined: `<msub><mi>b</mi><mrow><mn>1</mn><mn>1</mn></mrow></msub>` is b sub 1 1.
            if let a = plain(n), let next, let b = plain(next), !(isDigits(a) && isDigits(b)), Self.isNumeralPiece(a + b) {
                nodes[i + 1] = MathNode(.number(a + b), range: SourceRange.union(n.range, next.range))
                i += 1
                continue
            }
            // `.02` where no operand precedes the point.
            let afterOperand = out.last.map { if case .operator = $0.kind { false } else { true } } ?? false
            if isPoint(n), !afterOperand, let next, let b = plain(next), isDigits(b) {
                joined("." + b, through: i + 1)
                continue
            }
            out.append(isCommaNumber(n) ? operatorLeaf(",", range: n.range, attributes: n.attributes) : n)
            i += 1
        }
        nodes = out
    }

    /// Whether `text` is digits and then no letter at once (`28 feet`, `3 m on dry concrete`, `2-k`): a decimal's last digits
    /// before words or signs, not a coefficient before its variable (`247800x`).
    static func digitsBeforeWords(_ text: Substring.UTF8View) -> Bool {
        guard let end = text.firstIndex(where: { $0 < 0x30 || $0 > 0x39 }), end != text.startIndex else { return false }
        let u = text[end] | 0x20
        if text[end] < 0x80 { return !(u >= 0x61 && u <= 0x7A) }
        // A character beyond ASCII: no letter (a no-break space, a sign).
        return Substring(text[end...]).unicodeScalars.first.map { !$0.properties.isAlphabetic } ?? false
    }

    /// Digits with at most one decimal point or comma, which may end them (`20.25`, `3,600`, `60.`): a number or the first
    /// piece of one.
    static func isNumeralPiece(_ t: String) -> Bool {
        var digits = 0, points = 0
        for u in t.utf8 {
            if u >= 0x30 && u <= 0x39 { digits += 1; continue }
            guard u == 0x2E || u == 0x2C, points == 0 else { return false }
            points += 1
        }
        return digits > 0
    }

    /// The children of a row, with a sentence's punctuation typed at the end of a one-word text
    /// (`<mtext>N,</mtext>`, `<mtext>m/s;</mtext>`, `<mtext>kg?</mtext>`: some 500 formulas of OpenStax's
    /// University Physics, whose unit was then no unit, "4 N,") set apart as a text of its own: the word is
    /// read as what it is, and the punctuation as the pause it is. Only in rows, whose children can grow.
    func rowChildren(_ frame: Frame) -> [MathNode] { Self.rowNodes(collectNodes(frame)) }

    /// ``rowChildren(_:)`` of nodes already collected: the row's items as they are set (``rowItemsMended(_:)``),
    /// then the punctuation set apart.
    static func rowNodes(_ nodes: [MathNode]) -> [MathNode] {
        var nodes = nodes
        rowItemsMended(&nodes)
        return punctuationSetApart(nodes)
    }

    /// The items of a row — an `mrow`, a table cell's inferred row, the inside of a fenced row — as publishers
    /// set them in pieces or together: decimals set in pieces joined (``decimalsJoined(_:)``), list marks set in
    /// one text with an ellipsis split (``marksWithEllipsisSplit(_:)``). Only a row's children: the children of an
    /// element of fixed arity (`mfrac`, `msup`) are its parts, never one number.
    static func rowItemsMended(_ nodes: inout [MathNode]) {
        emptyTokensDropped(&nodes)
        bracketsSetApart(&nodes)
        decimalsJoined(&nodes)
        stopsAfterNumbersSplit(&nodes)
        marksWithEllipsisSplit(&nodes)
        barsBeforeEmptyScripts(&nodes)
    }

    /// A vertical bar followed by scripts on nothing (`<mo>|</mo><msub><mrow/><mrow><mi>x</mi><mo>=</mo><mn>1</mn></mrow></msub>`,
    /// as OpenStax's Spanish calculus books set 32 evaluation bars) is the bar with those scripts, as `<msub><mo>|</mo>…</msub>`
    /// is: the evaluation at x = 1 ("divides sub x equals 1" before, textbook sweep 17).
    static func barsBeforeEmptyScripts(_ nodes: inout [MathNode]) {
        guard nodes.count >= 2 else { return }
        var i = 0
        while i + 1 < nodes.count {
            defer { i += 1 }
            guard case .operator(let bar, _) = nodes[i].kind, bar.utf8.count == 1, bar.utf8.first == 0x7C else { continue }
            let s = nodes[i + 1]
            switch s.kind {
            case .subscript, .subSuperscript: break
            default: continue
            }
            guard let base = s.children.first, case .row = base.kind, base.children.isEmpty else { continue }
            nodes[i] = MathNode(s.kind, [nodes[i]] + s.children.dropFirst(), range: SourceRange.union(nodes[i].range, s.range), attributes: s.attributes)
            nodes.remove(at: i + 1)
        }
    }

    /// Tokens with nothing in them between a row's items (`<mtext>80 m</mtext><mi/><msup><mtext>/s</mtext><mn>2</mn></msup>`, as
    /// OpenStax's College Physics leaves them; `<mtext/>`) are nothing: the items beside them are read as beside each other (the
    /// unit's quotient was cut, "80 meters, /s squared"). A row of empty tokens alone keeps them.
    static func emptyTokensDropped(_ nodes: inout [MathNode]) {
        func isEmpty(_ n: MathNode) -> Bool {
            switch n.kind {
            case .identifier(let t, _), .text(let t, _), .number(let t, _): t.isEmpty
            default: false
            }
        }
        guard nodes.count > 1, nodes.contains(where: isEmpty), !nodes.allSatisfy(isEmpty) else { return }
        nodes.removeAll(where: isEmpty)
    }

    /// A bracket typed at the edge of an identifier or a text (`<mi>(1</mi><mo>+</mo><mi>tax rate)</mi>`, `<mtext>{m</mtext>`, as OpenStax's
    /// Contemporary Mathematics sets some groups) is the bracket, set apart, when its partner is in the row: the group is a group
    /// ("open paren 1 plus tax rate)" before). A token that holds both brackets (`<mi>f(x)</mi>`) stays whole; digits left alone
    /// are the number.
    static func bracketsSetApart(_ nodes: inout [MathNode]) {
        // Most rows have no word with a bracket at its edge: told on the first and last bytes, before anything else.
        guard nodes.contains(where: { n in
            switch n.kind {
            case .identifier(let t, _), .text(let t, _):
                guard let f = t.utf8.first, let l = t.utf8.last else { return false }
                return f == 0x28 || f == 0x5B || f == 0x7B || l == 0x29 || l == 0x5D || l == 0x7D
            default: return false
            }
        }) else { return }
        let pairs: [Unicode.Scalar: Unicode.Scalar] = ["(": ")", "[": "]", "{": "}"]
        func word(_ n: MathNode) -> String? {
            switch n.kind {
            case .identifier(let t, _), .text(let t, _): return t.unicodeScalars.count >= 2 ? t : nil
            default: return nil
            }
        }
        // The bracket a token opens with and does not close, and the one it closes with and does not open.
        func opening(_ t: String) -> Unicode.Scalar? {
            guard let u = t.unicodeScalars.first, let close = pairs[u], !t.unicodeScalars.contains(close) else { return nil }
            return u
        }
        func closing(_ t: String) -> Unicode.Scalar? {
            guard let u = t.unicodeScalars.last, let open = pairs.first(where: { $0.value == u })?.key,
                  !t.unicodeScalars.contains(open) else { return nil }
            return u
        }
        guard nodes.contains(where: { word($0).map { opening($0) != nil || closing($0) != nil } ?? false }) else { return }
        // Which brackets open before each item and close after it (bits by bracket: `(` 1, `[` 2, `{` 4), in one pass each way.
        func bit(_ u: Unicode.Scalar) -> UInt8 { u == "(" || u == ")" ? 1 : u == "[" || u == "]" ? 2 : 4 }
        func sole(_ n: MathNode) -> Unicode.Scalar? { if case .operator(let t, _) = n.kind { t.unicodeScalars.count == 1 ? t.unicodeScalars.first : nil } else { nil } }
        var openBefore = [UInt8](repeating: 0, count: nodes.count), closeAfter = [UInt8](repeating: 0, count: nodes.count)
        var seen: UInt8 = 0
        for i in nodes.indices {
            openBefore[i] = seen
            if let u = sole(nodes[i]) ?? word(nodes[i]).flatMap(opening), pairs[u] != nil { seen |= bit(u) }
        }
        seen = 0
        for i in nodes.indices.reversed() {
            closeAfter[i] = seen
            if let u = sole(nodes[i]) ?? word(nodes[i]).flatMap(closing), pairs.values.contains(u) { seen |= bit(u) }
        }
        var out: [MathNode] = []
        out.reserveCapacity(nodes.count + 2)
        for (i, n) in nodes.enumerated() {
            guard let t = word(n) else { out.append(n); continue }
            var scalars = Substring(t).unicodeScalars
            var before: MathNode? = nil, after: MathNode? = nil
            if let open = opening(t), closeAfter[i] & bit(open) != 0 {
                before = operatorLeaf(String(open), range: n.range)
                scalars.removeFirst()
            }
            if let close = closing(t), scalars.count >= 2, openBefore[i] & bit(close) != 0 {
                after = operatorLeaf(String(close), range: n.range)
                scalars.removeLast()
            }
            guard before != nil || after != nil else { out.append(n); continue }
            let rest = String(scalars)
            let middle: MathNode
            if let digits = numeralPiece(rest) {
                middle = MathNode(.number(digits), range: n.range, attributes: n.attributes)
            } else if case .identifier(_, let v) = n.kind {
                middle = MathNode(.identifier(rest, variant: v), range: n.range, attributes: n.attributes)
            } else if case .text(_, let v) = n.kind {
                middle = MathNode(.text(rest, variant: v), range: n.range, attributes: n.attributes)
            } else {
                middle = n
            }
            if let before { out.append(before) }
            out.append(middle)
            if let after { out.append(after) }
        }
        nodes = out
    }

    /// A number typed with a sentence's full stop after it (`<mn>36.</mn>` ending a row, 1,396 formulas of OpenStax's calculus
    /// and algebra books) or numbering a step (`<mn>2.</mn>` beginning a row, a space after it) is the number and the stop, as
    /// TeX's `36.` is set: the point was read as the number's ("36." said as written, "36," in German). Elsewhere the point is
    /// the number's: a physics book's `<mn>6770.</mn><mtext>km</mtext>` has four significant digits, and a decimal set in pieces
    /// (`<mn>2.</mn><mn>85</mn>`) was joined before (``decimalsJoined(_:)``).
    static func stopsAfterNumbersSplit(_ nodes: inout [MathNode]) {
        func stopped(_ n: MathNode) -> String? {
            guard case .number(let t, nil) = n.kind, t.utf8.last == 0x2E else { return nil }
            let body = String(t.dropLast())
            return MathMLTreeBuilder.isGroupedNumeral(body) ? body : nil
        }
        func isSpace(_ n: MathNode) -> Bool { if case .space = n.kind { true } else { false } }
        // The row's last item before any space after it; its first before a space that sets a step's number apart (at least
        // TeX's `\;`: OpenStax's exercises put 0.4em or 2em there; a quantity has a thinner one before its unit, `<mn>30.</mn>
        // <mspace width="0.2em"/><mtext>A</mtext>`, a physics book's two significant digits).
        guard let last = nodes.lastIndex(where: { !isSpace($0) }) else { return }
        let numbersStep: Bool
        if last > 0, case .space(let width) = nodes[1].kind { numbersStep = width >= MathNode.stepNumberSpace } else { numbersStep = false }
        for i in numbersStep ? [last, 0] : [last] {
            guard let body = stopped(nodes[i]) else { continue }
            let n = nodes[i]
            nodes.replaceSubrange(i ... i, with: [MathNode(.number(body), range: n.range, attributes: n.attributes),
                                                  operatorLeaf(".", range: n.range)])
        }
    }

    /// A text of list punctuation with an ellipsis (`<mtext>,…</mtext>`, `<mtext>,…,</mtext>`, as OpenStax's calculus
    /// books end and continue a list: `1, 2, 3<mtext>,…</mtext>`) is those marks as operators, one each, as
    /// `1, 2, 3, \ldots` is set: the commas separate and the ellipsis is one (it was said as the characters, ",…").
    static func marksWithEllipsisSplit(_ nodes: inout [MathNode]) {
        func isEllipsis(_ u: Unicode.Scalar) -> Bool { u == "\u{2026}" || u == "\u{22EF}" || u == "\u{22EE}" || u == "\u{22F1}" }
        func marks(_ n: MathNode) -> [Unicode.Scalar]? {
            guard case .text(let t, nil) = n.kind, t.unicodeScalars.contains(where: isEllipsis) else { return nil }
            let kept = t.unicodeScalars.filter { $0 != " " && $0 != "\u{A0}" }
            guard kept.count >= 2, kept.allSatisfy({ isEllipsis($0) || ",;.()".unicodeScalars.contains($0) }) else { return nil }
            return Array(kept)
        }
        guard nodes.contains(where: { marks($0) != nil }) else { return }
        nodes = nodes.flatMap { n -> [MathNode] in
            guard let marks = marks(n) else { return [n] }
            return marks.map { operatorLeaf(String($0), range: n.range) }
        }
    }

    /// The children of a row with a sentence's punctuation set apart (``rowChildren(_:)``); without `colon`, a colon
    /// stays its word's.
    static func punctuationSetApart(_ nodes: [MathNode], colon: Bool = true) -> [MathNode] {
        func mark(_ n: MathNode) -> (word: String, mark: String)? {
            guard let found = Self.trailingPunctuation(of: n), colon || found.mark != ":" else { return nil }
            return found
        }
        guard nodes.contains(where: { mark($0) != nil }) else { return nodes }
        var split: [MathNode] = []
        split.reserveCapacity(nodes.count + 1)
        for n in nodes {
            if let (word, mark) = mark(n), case let .text(_, variant) = n.kind {
                split.append(MathNode(.text(word, variant: variant), range: n.range, attributes: n.attributes))
                split.append(MathNode(.text(mark, variant: variant), range: n.range))
            } else {
                split.append(n)
            }
        }
        return split
    }

    /// A one-word text's word and the comma, semicolon, colon or question mark after it; nil for other nodes.
    static func trailingPunctuation(of n: MathNode) -> (word: String, mark: String)? {
        guard case let .text(t, _) = n.kind, let last = t.unicodeScalars.last, ",;:?".unicodeScalars.contains(last) else { return nil }
        let word = String(t.unicodeScalars.dropLast())
        guard let end = word.unicodeScalars.last, !",;:?".unicodeScalars.contains(end),
              !word.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else { return nil }
        return (word, String(last))
    }

    /// An en dash or a figure dash set as an operator is the minus sign: word processors and publishers'
    /// tools write `a – b` and `(–E)` so, which were read "a dash b", "dash E". Between two numbers it
    /// stays, a range (`10–20`).
    static func dashesAsMinus(_ nodes: inout [MathNode]) {
        func isDash(_ n: MathNode) -> Bool {
            if case .operator(let t, _) = n.kind { return t == "\u{2013}" || t == "\u{2012}" }
            return false
        }
        // A number, or a number with its sign set in one token (`<mn>45°</mn>`: ``MathMLTreeBuilder/numberAndSign(_:variant:range:attributes:)``,
        // as in a 45°–45°–90° triangle).
        func isNumber(_ n: MathNode) -> Bool {
            switch n.kind {
            case .number: return true
            case .row: return Self.isSplitToken(n) && n.children.count == 2 && isNumber(n.children[0])
            case .superscript: return n.children.count == 2 && isNumber(n.children[0]) && n.children[0].range == n.range
            default: return false
            }
        }
        for i in nodes.indices where isDash(nodes[i]) {
            if i > 0, i + 1 < nodes.count, isNumber(nodes[i - 1]), isNumber(nodes[i + 1]) { continue }
            nodes[i] = operatorLeaf("\u{2212}", range: nodes[i].range, attributes: nodes[i].attributes)
        }
    }

    /// Whether an `annotation` with this `encoding` holds TeX (compared without case).
    static func isTeX(encoding: String) -> Bool {
        switch encoding.trimmingCharacters(in: .whitespaces).lowercased() {
        case "application/x-tex", "application/x-latex", "tex", "latex", "text/x-tex", "text/x-latex": return true
        default: return false
        }
    }

    /// Whether an `annotation-xml` with this `encoding` holds presentation MathML: none stated, or one
    /// of the names MathML 3 §5.1.3 gives it (compared without case).
    static func isPresentation(encoding: String?) -> Bool {
        guard let encoding = encoding?.trimmingCharacters(in: .whitespaces).lowercased(), !encoding.isEmpty else { return true }
        return encoding == "mathml-presentation" || encoding == "application/mathml-presentation+xml"
    }

    /// Records the top-level `<math>` element's display mode and attributes.
    func noteMath(display: Bool, attributes: [String: String]) {
        guard stack.count == 1, !sawMath else { return }
        sawMath = true
        self.display = display
        self.mathAttributes = attributes
    }
}
