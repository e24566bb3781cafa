import MathSyntax

/// Stretchy and sized delimiters: `\left … \middle … \right` and `\big \Big \bigg \Bigg` with their
/// `l`/`r`/`m` forms.
enum DelimiterCommands {
    private static let sizes: [(String, Double)] = [("big", 1.2), ("Big", 1.8), ("bigg", 2.4), ("Bigg", 3.0)]

    static let all: [CommandDefinition] = [
        CommandDefinition(["left"]) { core, call in core.parseLeftRight(call) },
    ] + sizes.flatMap { entry -> [CommandDefinition] in
        let (base, size) = entry
        return ["", "l", "r", "m"].map { suffix in
            CommandDefinition([base + suffix]) { core, call in
                guard let (text, range) = core.parseDelimiter(after: call.token) else { return nil }
                let atomClass: AtomClass
                let natural = OperatorDictionary.properties(for: text).atomClass
                switch suffix {
                case "l": atomClass = .open
                case "r": atomClass = .close
                case "m": atomClass = .rel
                default:
                    // amsmath's \big( is `{\hbox{$\left( … \right.$}}`, a group: an Ord atom, spaced as a
                    // letter (TeXbook Appendix G rule 16; `\log\big(` has a thin space). The character still
                    // says whether it opens or closes (`fence`).
                    atomClass = .ord
                }
                let fence = [.open, .close].contains(atomClass) || [.open, .close].contains(natural)
                let props = OperatorProperties(atomClass: atomClass, stretchy: true, fence: fence, size: size)
                return MathNode(.operator(text, props), range: call.range.union(range))
            }
        }
    }
}

extension ParserCore {
    /// After `\left`: the delimiter, content with `\middle` delimiters, and `\right`.
    mutating func parseLeftRight(_ call: Invocation) -> MathNode {
        let open = parseDelimiter(after: call.token)?.text ?? ""
        guard enterNesting(at: call.range) else {
            return MathNode(.error("\\left"), range: call.range)
        }
        defer { depth -= 1 }
        var items: [MathNode] = []
        var close = ""
        var end = call.range.upperBound
        while true {
            let part = parseExpression(until: [.right, .middle, .endGroup, .end, .alignment, .newline])
            if items.isEmpty { items = part } else { items.append(contentsOf: part) }
            let t = next()
            if t.kind == .controlSequence, t.role == .middle {
                if let (text, range) = parseDelimiter(after: t) {
                    items.append(MathNode(.operator(text, OperatorProperties(atomClass: .rel, stretchy: true, fence: true)),
                                          range: t.range.union(range)))
                }
                continue
            }
            if t.kind == .controlSequence, t.role == .right {
                if let (text, range) = parseDelimiter(after: t) {
                    close = text
                    end = range.upperBound
                } else {
                    end = t.range.upperBound
                }
            } else {
                pushBack(t)
                error("tex.missing-right", "\\left without a matching \\right", at: call.token.range,
                      fixIts: [.init(range: SourceRange(t.range.lowerBound, t.range.lowerBound), replacement: "\\right.")])
                end = items.last?.range?.upperBound ?? call.range.upperBound
            }
            break
        }
        return MathNode(.fenced(open: open, close: close), items, range: SourceRange(call.range.lowerBound, end))
    }
}
