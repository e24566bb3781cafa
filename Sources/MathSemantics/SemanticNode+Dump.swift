import MathSyntax

extension SemanticNode {
    /// An indented, one-node-per-line dump of the tree for golden tests and `--explain`:
    /// `kind "text" role=… {key=value flag …}` with properties sorted by key; flags whose value is
    /// `true` print as the bare key. With `ranges`, each line ends with `@start..<end`.
    public func dump(ranges: Bool = false) -> String {
        // A tree thousands of levels deep (the analysis bounds nesting, a tree built in code need not)
        // is dumped without exhausting the call stack of the thread it runs on.
        var out = ""
        forEachInPreorder(self, children: \.children) { node, depth in node.dumpLine(into: &out, depth: depth, ranges: ranges) }
        return out
    }

    /// The node's own line.
    private func dumpLine(into out: inout String, depth: Int, ranges: Bool) {
        out += String(repeating: "  ", count: depth)
        out += kind.rawValue
        if !text.isEmpty { out += " " + DumpText.quote(text) }
        if role != .none { out += " role=" + role.rawValue }
        if !properties.isEmpty {
            out += " {"
            var first = true
            for key in properties.keys.sorted() {
                if !first { out += " " }
                first = false
                let value = properties[key]!
                out += value == "true" ? key : key + "=" + (SemanticNode.needsQuotes(value) ? DumpText.quote(value) : value)
            }
            out += "}"
        }
        if ranges, let range { out += " @\(range)" }
        out += "\n"
    }

    /// Values with spaces, `=`, braces or quotes (or empty ones) are quoted so the line stays parseable.
    private static func needsQuotes(_ v: String) -> Bool {
        v.isEmpty || v.unicodeScalars.contains { $0 == " " || $0 == "=" || $0 == "{" || $0 == "}" || $0 == "\"" || $0.value < 0x20 }
    }
}
