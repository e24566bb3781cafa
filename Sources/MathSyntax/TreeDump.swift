import Foundation

extension MathNode {
    /// An indented, one-node-per-line dump of the tree, stable for golden tests:
    /// `kind "text" [properties] @start..<end`.
    public func treeDump(ranges: Bool = true) -> String {
        // A tree built in code may be deeper than the call stack of the thread it is dumped on allows
        // (the parsers bound their depth): walked without recursion.
        var out = ""
        forEachInPreorder(self, children: \.children) { node, depth in
            out += String(repeating: "  ", count: depth)
            out += node.kindDescription
            if let attributes = node.attributes, !attributes.isEmpty {
                out += " {" + attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "}"
            }
            if ranges, let range = node.range { out += " @\(range)" }
            out += "\n"
        }
        return out
    }

    /// A short description of the node's kind and properties (no children), as in ``treeDump(ranges:)``.
    public var kindDescription: String {
        switch kind {
        case .row: return "row"
        case let .identifier(s, v): return "mi \(quoted(s))" + (v.map { " \($0.rawValue)" } ?? "")
        case let .number(s, v): return "mn \(quoted(s))" + (v.map { " \($0.rawValue)" } ?? "")
        case let .operator(s, p):
            var parts = ["mo \(quoted(s))", p.atomClass.rawValue]
            if p.stretchy { parts.append("stretchy") }
            if p.largeOperator { parts.append("largeop") }
            if p.movableLimits { parts.append("movablelimits") }
            if p.fence { parts.append("fence") }
            if p.separator { parts.append("separator") }
            if let size = p.size { parts.append("size=\(format(size))") }
            return parts.joined(separator: " ")
        case let .text(s, v): return "mtext \(quoted(s))" + (v.map { " \($0.rawValue)" } ?? "")
        case let .space(w): return "mspace \(format(w))em"
        case let .fraction(p):
            var parts = ["mfrac"]
            if let t = p.lineThickness { parts.append("linethickness=\(format(t))") }
            if let d = p.displayStyle { parts.append(d ? "display" : "text") }
            if p.continued { parts.append("continued") }
            if let a = p.numeratorAlign { parts.append("numalign=\(a)") }
            return parts.joined(separator: " ")
        case .squareRoot: return "msqrt"
        case .root: return "mroot"
        case .subscript: return "msub"
        case .superscript: return "msup"
        case .subSuperscript: return "msubsup"
        case let .under(p): return "munder" + underOver(p)
        case let .over(p): return "mover" + underOver(p)
        case let .underOver(p): return "munderover" + underOver(p)
        case let .multiscripts(n): return "mmultiscripts prescripts=\(n)"
        case .none: return "none"
        case let .fenced(o, c): return "fenced \(quoted(o)) \(quoted(c))"
        case let .table(p):
            var parts = ["mtable \(p.environment)"]
            if !p.columnAlignments.isEmpty { parts.append("align=" + p.columnAlignments.map { String($0.rawValue.prefix(1)) }.joined()) }
            if !p.columnLines.isEmpty { parts.append("collines=" + p.columnLines.map(\.rawValue).joined(separator: ",")) }
            if !p.rowLines.isEmpty { parts.append("rowlines=" + p.rowLines.map(\.rawValue).joined(separator: ",")) }
            if p.frame != .none { parts.append("frame=\(p.frame.rawValue)") }
            if p.leftLine != .none { parts.append("leftline=\(p.leftLine.rawValue)") }
            if p.rightLine != .none { parts.append("rightline=\(p.rightLine.rawValue)") }
            if p.displayStyle { parts.append("display") }
            if p.numbered { parts.append("numbered") }
            return parts.joined(separator: " ")
        case let .tableRow(labeled): return labeled ? "mlabeledtr" : "mtr"
        case .tableCell: return "mtd"
        case let .enclose(n): return "menclose \(quoted(n))"
        case let .style(p):
            var parts = ["mstyle"]
            if let c = p.color { parts.append("color=\(c)") }
            if let b = p.background { parts.append("background=\(b)") }
            if let d = p.displayStyle { parts.append(d ? "display" : "nodisplay") }
            if let s = p.scriptLevel { parts.append("scriptlevel=\(s)") }
            if let m = p.mathSize { parts.append("size=\(format(m))") }
            return parts.joined(separator: " ")
        case .phantom: return "mphantom"
        case let .padded(p):
            var parts = ["mpadded"]
            if let w = p.width { parts.append("width=\(format(w))") }
            if let h = p.height { parts.append("height=\(format(h))") }
            if let d = p.depth { parts.append("depth=\(format(d))") }
            if let l = p.leftShift { parts.append("lspace=\(format(l))") }
            if let w = p.leftShiftWidths { parts.append("lspace=\(format(w))width") }
            return parts.joined(separator: " ")
        case let .error(s): return "merror \(quoted(s))"
        case let .semantics(a): return "semantics " + a.map { "\($0.encoding)=\(quoted($0.text))" }.joined(separator: " ")
        }
    }

    private func underOver(_ p: UnderOverProperties) -> String {
        (p.accent ? " accent" : "") + (p.accentUnder ? " accentunder" : "")
    }
}

func quoted(_ s: String) -> String { DumpText.quote(s) }

/// Quoting for the one-line-per-node dumps (tree dumps, semantic dumps, `--explain`): quotes,
/// backslashes and newlines escaped; control characters and the invisible operators U+2061–2064 as
/// `\u{…}` so a dump line shows every character.
public enum DumpText {
    /// `s` in double quotes with the escapes above.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || (0x2061...0x2064).contains(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

func format(_ d: Double) -> String {
    if d == d.rounded() && abs(d) < 1e9 { return String(Int(d)) }
    return String(format: "%.4g", d)
}

extension MathNode {
    /// The node's JSON fields: `kind` (the MathML-like element name), `text` for leaves, `props` (the
    /// remaining properties as in ``treeDump(ranges:)``), `attributes`, `range` ([start, end]).
    private func jsonFields() -> (kind: String, text: String?, props: String?) {
        let description = kindDescription
        let name = description.split(separator: " ", maxSplits: 1).first.map(String.init) ?? description
        var rest = Substring(description.dropFirst(name.count))
        while rest.first == " " { rest = rest.dropFirst() }
        if let text = leafText {
            let q = quoted(text)
            if rest.hasPrefix(q) { rest = rest.dropFirst(q.count) }
            while rest.first == " " { rest = rest.dropFirst() }
        }
        return (name, leafText, rest.isEmpty ? nil : String(rest))
    }

    /// The tree as JSON: `{"kind", "text"?, "props"?, "attributes"?, "range"?: [start, end],
    /// "children"?}`.
    public func jsonValue(ranges: Bool = true) -> JSONValue {
        var object: [String: JSONValue] = [:]
        let fields = jsonFields()
        object["kind"] = .string(fields.kind)
        if let text = fields.text { object["text"] = .string(text) }
        if let props = fields.props { object["props"] = .string(props) }
        if let attributes, !attributes.isEmpty { object["attributes"] = .object(attributes.mapValues { .string($0) }) }
        if ranges, let range { object["range"] = .array([.number(JSONNumber(range.lowerBound)), .number(JSONNumber(range.upperBound))]) }
        if !children.isEmpty { object["children"] = .array(children.map { $0.jsonValue(ranges: ranges) }) }
        return .object(object)
    }

    /// The same representation as ``jsonValue(ranges:)`` written directly as compact JSON text with
    /// sorted keys (fast for large trees).
    public func jsonText(ranges: Bool = true) -> String {
        var out = ""
        writeJSON(into: &out, ranges: ranges)
        return out
    }

    private func writeJSON(into out: inout String, ranges: Bool) {
        let fields = jsonFields()
        out += "{"
        if let attributes, !attributes.isEmpty {
            out += "\"attributes\":{"
            for (i, (k, v)) in attributes.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out += "," }
                JSONString.append(k, to: &out); out += ":"; JSONString.append(v, to: &out)
            }
            out += "},"
        }
        if !children.isEmpty {
            out += "\"children\":["
            for (i, child) in children.enumerated() {
                if i > 0 { out += "," }
                child.writeJSON(into: &out, ranges: ranges)
            }
            out += "],"
        }
        out += "\"kind\":"
        JSONString.append(fields.kind, to: &out)
        if let props = fields.props { out += ",\"props\":"; JSONString.append(props, to: &out) }
        if ranges, let range { out += ",\"range\":[\(range.lowerBound),\(range.upperBound)]" }
        if let text = fields.text { out += ",\"text\":"; JSONString.append(text, to: &out) }
        out += "}"
    }
}

/// JSON string escaping (RFC 8259), shared by the JSON writers.
public enum JSONString {
    /// Appends `s` as a quoted JSON string.
    public static func append(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// `s` as a quoted JSON string.
    public static func quote(_ s: String) -> String {
        var out = ""
        append(s, to: &out)
        return out
    }
}

/// Calls `visit` with each node of the tree under `root` and its depth (the root's is 0), parents
/// before their children and children in order, walking with a stack of its own rather than by
/// recursion, so that a tree of any depth is walked on any thread (dumps of trees built in code).
package func forEachInPreorder<Node, Children: BidirectionalCollection<Node>>(_ root: Node, children: (Node) -> Children,
                                                                             _ visit: (Node, Int) -> Void) {
    var pending: [(node: Node, depth: Int)] = [(root, 0)]
    while let (node, depth) = pending.popLast() {
        visit(node, depth)
        for child in children(node).reversed() { pending.append((child, depth + 1)) }
    }
}
