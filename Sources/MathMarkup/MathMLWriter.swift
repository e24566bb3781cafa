import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MathSyntax

/// Writes a ``MathNode`` tree as presentation MathML.
///
/// Every kind of node maps to its MathML element, with the attributes needed for
/// ``MathMLReader`` to give the same tree back (`read(write(tree)).root.strippingRanges() ==
/// tree.strippingRanges()`). Where MathML has a standard way to say something, it is used; the
/// few properties MathML cannot express travel in `data-*` attributes, which MathML allows on
/// every element and renderers ignore.
///
/// Conventions:
/// - **Fenced groups** (``MathNode/Kind/fenced(open:close:)``) are written as an `mrow` whose first
///   and last children are `<mo fence="true" stretchy="true">` holding the open and close
///   delimiters (an absent delimiter, `\left.`, is an empty `mo`). The reader reads an `mrow` whose
///   first and last children are `mo` elements with an explicit `fence="true"` (and `stretchy`
///   not `false`) and no attributes other than `fence`, `stretchy` and `form` as a fenced group
///   (this also matches KaTeX's `\left…\right`; MathJax's `data-mjx-texclass="INNER"` rows with
///   `OPEN`/`CLOSE` delimiters are read as fenced groups too). When an ordinary row would look
///   like that, the writer adds a redundant `separator` attribute to its first `mo`, so it reads
///   back as a row.
/// - **Operators** (`mo`) get `fence`, `stretchy`, `separator`, `largeop` and `movablelimits`
///   only where they differ from `OperatorDictionary.properties(for:)`. An explicit size
///   (`\big`) is `minsize` = `maxsize` in em. A TeX atom class other than the dictionary's is
///   `form="prefix"` / `form="postfix"` for opening / closing fences, and otherwise
///   `data-class` (`ord`, `op`, `bin`, `rel`, `open`, `close`, `punct`, `inner`).
/// - **Forced fraction style** (`\dfrac`, `\tfrac`): `displaystyle` on the `mfrac` itself (a global
///   attribute in MathML Core), so a `\displaystyle` style around a `\frac` stays distinct. The
///   `<mstyle displaystyle="…" scriptlevel="0"><mfrac>` form KaTeX and MathJax write reads as a
///   style around a fraction. `linethickness`, and `numalign` for
///   ``FractionProperties/numeratorAlign``, are standard; `data-continued="true"` marks `\cfrac`.
/// - **Tables**: `columnalign`, `columnlines`, `rowlines`, `frame` and `displaystyle` are standard;
///   `data-env="pmatrix"` keeps the TeX environment (omitted for `mtable`) and
///   `data-numbered="true"` the equation numbering; `data-leftline`/`data-rightline` a rule on one
///   edge (`{|c|c|}`), which MathML's all-sides `frame` cannot say.
/// - Lengths are written in em with the shortest decimal that reads back exactly.
/// - `mtext` content: whitespace that MathML would trim or collapse (at the ends, runs, tabs,
///   newlines) is written as U+00A0 so that it still shows; a single inner space stays a space.
/// - ``MathNode/Kind/error(_:)`` is `<merror><mtext>…</mtext></merror>`; the reader keeps the
///   inner spacing of `merror` text (only the ends are trimmed).
/// - Annotations whose encoding is an XML format (contains `xml`, or starts with `MathML`) and
///   whose text is well-formed XML are written raw in `annotation-xml`; others are escaped text in
///   `annotation`.
/// - ``MathNode/attributes`` are written back; they win over computed attributes of the same name.
///
/// Normalisations the reader applies (trees built in code that differ in these ways do not come
/// back identical): token text is trimmed and inner whitespace collapsed (`merror` and annotation
/// text are only trimmed); a multi-letter identifier with variant `normal` reads back with variant
/// nil (the MathML default); attributes the reader does not model (`bevelled`, `columnspacing`,
/// `intent`…) are kept in ``MathNode/attributes``, while an `mstyle` shaped like a forced-style
/// fraction (see above) becomes the fraction.
public struct MathMLWriter: Sendable {
    /// How to write.
    public struct Options: Sendable {
        /// Write `display="block"` (otherwise `display="inline"`).
        public var display: Bool = false
        /// Indent nested elements, one element per line.
        public var pretty: Bool = false
        /// TeX source to add as `<annotation encoding="application/x-tex">` in a `semantics`
        /// element around the formula.
        public var includeAnnotation: String? = nil
        /// Write `xmlns="http://www.w3.org/1998/Math/MathML"` on the `math` element.
        public var namespace = true

        /// Creates the default options: inline, compact, no annotation, with the namespace.
        public init() {}
    }

    /// The MathML namespace URI.
    public static let namespaceURI = "http://www.w3.org/1998/Math/MathML"

    /// The options in force.
    public let options: Options

    /// Creates a writer.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// The `<math>` element for `node`.
    public func write(_ node: MathNode) -> String {
        var emitter = MathMLEmitter(pretty: options.pretty)
        var mathAttributes: [(String, String)] = []
        if options.namespace { mathAttributes.append(("xmlns", Self.namespaceURI)) }
        mathAttributes.append(("display", options.display ? "block" : "inline"))
        emitter.open("math", mathAttributes)
        if let tex = options.includeAnnotation {
            var annotations: [Annotation] = []
            var presentation = [node]
            var attributes: [String: String]?
            if case let .semantics(existing) = node.kind {
                annotations = existing
                presentation = Array(node.children)
                attributes = node.attributes
            }
            if !annotations.contains(where: { $0.encoding == "application/x-tex" }) {
                annotations.append(Annotation(encoding: "application/x-tex", text: tex))
            }
            emitter.open("semantics", merged([], attributes))
            for child in presentation { write(child, &emitter) }
            for annotation in annotations { write(annotation, &emitter) }
            emitter.close("semantics")
        } else if isPlainRow(node), node.children.count != 1 {
            // The math element is an inferred mrow.
            for child in node.children { write(child, &emitter) }
        } else {
            write(node, &emitter)
        }
        emitter.close("math")
        return emitter.output
    }

    // MARK: - Nodes

    private func write(_ node: MathNode, _ e: inout MathMLEmitter, extra: [(String, String)] = []) {
        let a = node.attributes
        switch node.kind {
        case .row:
            writeRow(node, &e)
        case let .identifier(text, variant):
            e.leaf("mi", merged(variant.map { [("mathvariant", $0.rawValue)] } ?? [], a), text)
        case let .number(text, variant):
            e.leaf("mn", merged(variant.map { [("mathvariant", $0.rawValue)] } ?? [], a), text)
        case let .operator(text, props):
            e.leaf("mo", merged(Self.operatorAttributes(text, props) + extra, a), text)
        case let .text(text, variant):
            e.leaf("mtext", merged(variant.map { [("mathvariant", $0.rawValue)] } ?? [], a),
                   Self.protectingSpaces(text), protectedSpaces: true)
        case let .space(width):
            e.empty("mspace", merged([("width", MathMLLength.formatEm(width))], a))
        case let .fraction(props):
            var attrs: [(String, String)] = []
            if let t = props.lineThickness { attrs.append(("linethickness", t == 0 ? "0" : MathMLLength.formatEm(t))) }
            if let align = props.numeratorAlign { attrs.append(("numalign", align)) }
            if props.continued { attrs.append((MathMLConvention.continued, "true")) }
            if let display = props.displayStyle { attrs.append(("displaystyle", display ? "true" : "false")) }
            container("mfrac", merged(attrs, a), node.children, &e)
        case .squareRoot:
            e.open("msqrt", merged([], a))
            if node.children.count == 1, isPlainRow(node.children[0]), node.children[0].children.count != 1 {
                for child in node.children[0].children { write(child, &e) } // inferred mrow
            } else {
                for child in node.children { write(child, &e) }
            }
            e.close("msqrt")
        case .root: container("mroot", merged([], a), node.children, &e)
        case .subscript: container("msub", merged([], a), node.children, &e)
        case .superscript: container("msup", merged([], a), node.children, &e)
        case .subSuperscript: container("msubsup", merged([], a), node.children, &e)
        case let .under(props): container("munder", merged(Self.accentAttributes(props), a), node.children, &e)
        case let .over(props): container("mover", merged(Self.accentAttributes(props), a), node.children, &e)
        case let .underOver(props):
            container("munderover", merged(Self.accentAttributes(props), a), node.children, &e)
        case let .multiscripts(prescriptPairs):
            e.open("mmultiscripts", merged([], a))
            let preCount = min(max(0, prescriptPairs * 2), max(0, node.children.count - 1))
            let preStart = node.children.count - preCount
            for (index, child) in node.children.enumerated() {
                if index == preStart, prescriptPairs > 0 { e.empty("mprescripts", []) }
                write(child, &e)
            }
            if prescriptPairs > 0, preStart >= node.children.count { e.empty("mprescripts", []) }
            e.close("mmultiscripts")
        case .none:
            e.empty("none", merged([], a))
        case let .fenced(open, close):
            let fence = [("fence", "true"), ("stretchy", "true")]
            e.open("mrow", merged([], a))
            e.leaf("mo", fence, open)
            for child in node.children { write(child, &e) }
            e.leaf("mo", fence, close)
            e.close("mrow")
        case let .table(props):
            container("mtable", merged(Self.tableAttributes(props), a), node.children, &e)
        case let .tableRow(labeled):
            container(labeled ? "mlabeledtr" : "mtr", merged([], a), node.children, &e)
        case .tableCell:
            container("mtd", merged([], a), node.children, &e)
        case let .enclose(notation):
            container("menclose", merged([("notation", notation)], a), node.children, &e)
        case let .style(props):
            var attrs: [(String, String)] = []
            if let color = props.color { attrs.append(("mathcolor", color)) }
            if let background = props.background { attrs.append(("mathbackground", background)) }
            if let display = props.displayStyle { attrs.append(("displaystyle", display ? "true" : "false")) }
            if let level = props.scriptLevel { attrs.append(("scriptlevel", String(level))) }
            if let size = props.mathSize { attrs.append(("mathsize", MathMLLength.formatEm(size))) }
            container("mstyle", merged(attrs, a), node.children, &e)
        case .phantom:
            container("mphantom", merged([], a), node.children, &e)
        case let .padded(props):
            var attrs: [(String, String)] = []
            if let w = props.width { attrs.append(("width", MathMLLength.formatEm(w))) }
            if let h = props.height { attrs.append(("height", MathMLLength.formatEm(h))) }
            if let d = props.depth { attrs.append(("depth", MathMLLength.formatEm(d))) }
            if let l = props.leftShift { attrs.append(("lspace", MathMLLength.formatEm(l))) }
            else if let w = props.leftShiftWidths { attrs.append(("lspace", MathMLLength.format(w) + "width")) }
            container("mpadded", merged(attrs, a), node.children, &e)
        case let .error(text):
            e.open("merror", merged([], a))
            e.leaf("mtext", [], text)
            e.close("merror")
        case let .semantics(annotations):
            e.open("semantics", merged([], a))
            for child in node.children { write(child, &e) }
            for annotation in annotations { write(annotation, &e) }
            e.close("semantics")
        }
    }

    private func container(_ name: String, _ attributes: [(String, String)], _ children: MathNode.Children,
                           _ e: inout MathMLEmitter) {
        if children.isEmpty {
            e.empty(name, attributes)
            return
        }
        e.open(name, attributes)
        for child in children { write(child, &e) }
        e.close(name)
    }

    /// An `mrow`. If its first and last children would be written as fence-marked `mo`s, the
    /// first gets a redundant `separator` attribute so that the row does not read back as fenced.
    private func writeRow(_ node: MathNode, _ e: inout MathMLEmitter) {
        let children = node.children
        if children.isEmpty {
            e.empty("mrow", merged([], node.attributes))
            return
        }
        var firstExtra: [(String, String)] = []
        if children.count >= 2,
           case let .operator(firstText, firstProps) = children[0].kind,
           case let .operator(lastText, lastProps) = children[children.count - 1].kind,
           Self.isFenceMarker(merged(Self.operatorAttributes(firstText, firstProps), children[0].attributes)),
           Self.isFenceMarker(merged(Self.operatorAttributes(lastText, lastProps), children[children.count - 1].attributes)) {
            firstExtra = [("separator", firstProps.separator ? "true" : "false")]
        }
        e.open("mrow", merged([], node.attributes))
        for (index, child) in children.enumerated() {
            write(child, &e, extra: index == 0 ? firstExtra : [])
        }
        e.close("mrow")
    }

    private func write(_ annotation: Annotation, _ e: inout MathMLEmitter) {
        let attrs = annotation.encoding.isEmpty ? [] : [("encoding", annotation.encoding)]
        let encoding = annotation.encoding.lowercased()
        if encoding.contains("xml") || encoding.hasPrefix("mathml"), Self.isWellFormedContent(annotation.text) {
            e.raw("annotation-xml", attrs, annotation.text)
        } else {
            e.leaf("annotation", attrs, annotation.text)
        }
    }

    private func isPlainRow(_ node: MathNode) -> Bool {
        if case .row = node.kind, node.attributes == nil { return true }
        return false
    }

    /// `computed`, with `extra` attributes (the node's own) replacing same-named ones and the
    /// rest appended in name order.
    private func merged(_ computed: [(String, String)], _ extra: [String: String]?) -> [(String, String)] {
        guard let extra, !extra.isEmpty else { return computed }
        var result = computed
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) {
            // Never an event handler, never a URL with a scheme outside the allow-list (TrustPolicy),
            // whatever a tree built in code holds.
            if TrustPolicy.isEventHandler(key) { continue }
            if TrustPolicy.urlAttributes.contains(key), !TrustPolicy.trusted.allows(url: value) { continue }
            if key == "style", TrustPolicy.trusted.styleProblem(value) != nil { continue }
            if let index = result.firstIndex(where: { $0.0 == key }) {
                result[index].1 = value
            } else {
                result.append((key, value))
            }
        }
        return result
    }

    // MARK: - Attribute sets

    /// The `mo` attributes that say how `props` differ from the dictionary's defaults for `text`.
    static func operatorAttributes(_ text: String, _ props: OperatorProperties) -> [(String, String)] {
        let defaults = OperatorDictionary.properties(for: text)
        var attrs: [(String, String)] = []
        func flag(_ name: String, _ value: Bool, _ defaultValue: Bool) {
            if value != defaultValue { attrs.append((name, value ? "true" : "false")) }
        }
        flag("fence", props.fence, defaults.fence)
        flag("stretchy", props.stretchy, defaults.stretchy)
        flag("separator", props.separator, defaults.separator)
        flag("largeop", props.largeOperator, defaults.largeOperator)
        flag("movablelimits", props.movableLimits, defaults.movableLimits)
        if props.atomClass != defaults.atomClass {
            if props.fence, props.atomClass == .open {
                attrs.append(("form", "prefix"))
            } else if props.fence, props.atomClass == .close {
                attrs.append(("form", "postfix"))
            } else {
                attrs.append((MathMLConvention.atomClass, props.atomClass.rawValue))
            }
        }
        if let size = props.size {
            attrs.append(("minsize", MathMLLength.formatEm(size)))
            attrs.append(("maxsize", MathMLLength.formatEm(size)))
        }
        return attrs
    }

    /// Whether an `mo` with these attributes marks a fenced group's delimiter (see the type's
    /// documentation).
    static func isFenceMarker(_ attributes: [(String, String)]) -> Bool {
        var fence = false
        for (key, value) in attributes {
            switch key {
            case "fence": fence = value == "true"
            case "stretchy": if value == "false" { return false }
            case "form": break
            default: return false
            }
        }
        return fence
    }

    private static func accentAttributes(_ props: UnderOverProperties) -> [(String, String)] {
        var attrs: [(String, String)] = []
        if props.accent { attrs.append(("accent", "true")) }
        if props.accentUnder { attrs.append(("accentunder", "true")) }
        return attrs
    }

    private static func tableAttributes(_ props: TableProperties) -> [(String, String)] {
        var attrs: [(String, String)] = []
        if !props.columnAlignments.isEmpty {
            attrs.append(("columnalign", props.columnAlignments.map(\.rawValue).joined(separator: " ")))
        }
        if !props.columnLines.isEmpty {
            attrs.append(("columnlines", props.columnLines.map(\.rawValue).joined(separator: " ")))
        }
        if !props.rowLines.isEmpty {
            attrs.append(("rowlines", props.rowLines.map(\.rawValue).joined(separator: " ")))
        }
        if props.frame != .none { attrs.append(("frame", props.frame.rawValue)) }
        if props.leftLine != .none { attrs.append((MathMLConvention.leftLine, props.leftLine.rawValue)) }
        if props.rightLine != .none { attrs.append((MathMLConvention.rightLine, props.rightLine.rawValue)) }
        if props.displayStyle { attrs.append(("displaystyle", "true")) }
        if props.environment != "mtable" { attrs.append((MathMLConvention.environment, props.environment)) }
        if props.numbered { attrs.append((MathMLConvention.numbered, "true")) }
        return attrs
    }

    // MARK: - Text

    /// `mtext` content with the whitespace MathML would trim or collapse turned into U+00A0.
    static func protectingSpaces(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\n" || s == "\r" }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if isSpace(scalar) {
                let keep = scalar == " " && index > 0 && index < scalars.count - 1
                    && !isSpace(scalars[index - 1]) && !isSpace(scalars[index + 1])
                result.append(keep ? scalar : "\u{A0}")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `text` is well-formed XML content (elements and text), so it can be written raw.
    static func isWellFormedContent(_ text: String) -> Bool {
        let scanner = MathMLSourceScanner(Array(text.utf8))
        guard !scanner.refused, scanner.diagnostics.isEmpty else { return false }
        let parser = XMLParser(data: Data(scanner.output))
        let sink = MathMLErrorSink()
        parser.delegate = sink
        let ok = parser.parse()
        parser.delegate = nil
        return ok && !sink.failed
    }
}

/// Records whether the XML parser reported any error.
private final class MathMLErrorSink: NSObject, XMLParserDelegate {
    var failed = false
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failed = true }
}

/// Writes elements, escaping text and attribute values, optionally indented.
struct MathMLEmitter {
    private(set) var output = ""
    let pretty: Bool
    private var depth = 0

    init(pretty: Bool) {
        self.pretty = pretty
    }

    private mutating func newline() {
        guard pretty, !output.isEmpty else { return }
        output += "\n"
        output += String(repeating: "  ", count: depth)
    }

    private mutating func startTag(_ name: String, _ attributes: [(String, String)], close: String) {
        output += "<" + name
        for (key, value) in attributes {
            output += " " + key + "=\"" + XMLEscaping.attribute(value) + "\""
        }
        output += close
    }

    mutating func open(_ name: String, _ attributes: [(String, String)]) {
        newline()
        startTag(name, attributes, close: ">")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        newline()
        output += "</" + name + ">"
    }

    mutating func empty(_ name: String, _ attributes: [(String, String)]) {
        newline()
        startTag(name, attributes, close: "/>")
    }

    mutating func leaf(_ name: String, _ attributes: [(String, String)], _ text: String,
                       protectedSpaces: Bool = false) {
        newline()
        startTag(name, attributes, close: ">")
        output += XMLEscaping.text(text, nbspAsReference: protectedSpaces)
        output += "</" + name + ">"
    }

    /// An element whose content is already XML.
    mutating func raw(_ name: String, _ attributes: [(String, String)], _ content: String) {
        newline()
        startTag(name, attributes, close: ">")
        output += content
        output += "</" + name + ">"
    }

}
