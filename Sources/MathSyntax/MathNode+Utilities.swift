extension MathNode {
    /// The attribute that gives a row (or an operator) the TeX atom class it is spaced as, when it is
    /// not what its content says: `\mathop{\mathrm{dim}_H}` is an Op atom. MathML writes it as is
    /// (`<mrow data-class="op">`); the value is an ``AtomClass`` raw value.
    public static let atomClassAttribute = "data-class"

    /// The MathML attribute naming the alphabet of a node whose kind has no variant of its own (an
    /// accent's `mo` in `\mathbf{\hat{a}}`); the value is a ``MathVariant`` raw value.
    public static let mathVariantAttribute = "mathvariant"

    /// The atom class a row's ``atomClassAttribute`` gives it, if any.
    public var declaredAtomClass: AtomClass? {
        attributes?[MathNode.atomClassAttribute].flatMap { AtomClass(rawValue: $0) }
    }

    /// What a braced group of one item holds: the child of a row of one node without attributes (the
    /// TeX parser keeps `{=}` and `\mathrm{GeV}` so, as TeX sets them as groups), else the node itself.
    public var groupContent: MathNode {
        if case .row = kind, children.count == 1, attributes == nil { return children[0] }
        return self
    }

    /// A row of `children` spanning their ranges; a single child is returned unwrapped.
    public static func row(_ children: [MathNode], range: SourceRange? = nil) -> MathNode {
        row(Children(children), range: range)
    }

    /// ``row(_:range:)`` of children held as ``Children`` (the TeX parser's numerator and denominator).
    public static func row(_ children: Children, range: SourceRange? = nil) -> MathNode {
        if children.count == 1, range == nil || children[0].range == range { return children[0] }
        return MathNode(.row, children: children, range: range ?? children.reduce(nil) { SourceRange.union($0, $1.range) })
    }

    /// The same tree with every source range removed, for comparing shapes.
    public func strippingRanges() -> MathNode {
        placed(at: nil)
    }

    /// The same tree with every node's source range set to `range`: a tree read from a text whose
    /// offsets are not its document's (a TeX annotation of MathML, a chemical equation's source
    /// rebuilt by mhchem) is placed on the span that holds that text.
    public func placed(at range: SourceRange?) -> MathNode {
        MathNode(kind, children: Children(children.map { $0.placed(at: range) }), range: range, attributes: attributes)
    }

    /// The same node with another range.
    public func withRange(_ range: SourceRange?) -> MathNode {
        MathNode(kind, children: children, range: range, attributes: attributes)
    }

    /// The same node with other children.
    public func withChildren(_ children: [MathNode]) -> MathNode {
        MathNode(kind, children, range: range, attributes: attributes)
    }

    /// Whether this is an empty row.
    public var isEmptyRow: Bool {
        if case .row = kind { return children.isEmpty }
        return false
    }

    /// The text of a leaf (identifier, number, operator, text), nil for other kinds.
    public var leafText: String? {
        switch kind {
        case .identifier(let s, _), .number(let s, _), .operator(let s, _), .text(let s, _): return s
        default: return nil
        }
    }

    /// Calls `body` on this node and every descendant, parents before children.
    public func walk(_ body: (MathNode) -> Void) {
        body(self)
        for child in children { child.walk(body) }
    }

    /// Whether any node of the tree is an ``Kind/error`` node.
    public var containsError: Bool {
        if case .error = kind { return true }
        return children.contains { $0.containsError }
    }
}

extension String {
    /// Whether the string is a number in ASCII digits, with one decimal point or comma between digits
    /// (`800`, `1.5`, `0,25`; not `1.`, `.5`, `1.2.3`): a number publishers' MathML sets as text
    /// (`<mtext>800</mtext>`) or with a sign or symbol typed before it (`<mtext>−4</mtext>`, `<mn>∙5</mn>`).
    package var isDecimalNumeral: Bool {
        var digits = 0, points = 0, afterPoint = false
        for u in utf8 {
            if u >= 0x30 && u <= 0x39 { digits += 1; afterPoint = false; continue }
            guard u == 0x2E || u == 0x2C, digits > 0, points == 0 else { return false }
            points += 1
            afterPoint = true
        }
        return digits > 0 && !afterPoint
    }
}
