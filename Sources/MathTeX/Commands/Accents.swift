import MathSyntax

/// Accents over and under a base (`\hat`, `\widehat`, `\overline`, `\underline`, `\vec`…), the braces
/// `\overbrace`/`\underbrace` (a following `^`/`_` becomes their label), and stacking with
/// `\overset`, `\underset`, `\stackrel`.
enum AccentCommands {
    /// name → (accent character, stretchy, under)
    private static let accents: [(String, String, Bool, Bool)] = [
        ("hat", "^", false, false), ("widehat", "^", true, false),
        ("check", "ˇ", false, false), ("widecheck", "ˇ", true, false),
        ("tilde", "~", false, false), ("widetilde", "~", true, false),
        ("acute", "´", false, false), ("grave", "`", false, false),
        ("dot", "˙", false, false), ("ddot", "¨", false, false),
        ("dddot", "\u{20DB}", false, false), ("ddddot", "\u{20DC}", false, false),
        ("breve", "˘", false, false), ("bar", "¯", false, false), ("mathring", "˚", false, false),
        ("vec", "→", false, false),
        ("overline", "‾", true, false), ("underline", "‾", true, true),
        ("overrightarrow", "→", true, false), ("overleftarrow", "←", true, false),
        ("overleftrightarrow", "↔", true, false), ("Overrightarrow", "⇒", true, false),
        ("overleftharpoon", "↼", true, false), ("overrightharpoon", "⇀", true, false),
        ("overgroup", "⏠", true, false), ("undergroup", "⏡", true, true),
        ("overlinesegment", "⟷", true, false), ("underlinesegment", "⟷", true, true),
        ("underleftarrow", "←", true, true), ("underrightarrow", "→", true, true),
        ("underleftrightarrow", "↔", true, true), ("utilde", "~", true, true),
        ("underbar", "‾", true, true),
    ]

    /// The alphabets unicode-math takes from text fonts.
    private static let textAlphabets: Set<MathVariant> = [.normal, .bold, .italic, .sansSerif, .monospace]

    static let all: [CommandDefinition] = accents.map { entry in
        let (name, character, stretchy, under) = entry
        return CommandDefinition([name], [.content], modes: ["underline", "overline"].contains(name) ? .both : .math) { core, call in
            // The accent is in the alphabet in force when that is a text font (unicode-math's accents follow
            // \fam, and \mathrm, \mathbf, \mathit, \mathsf, \mathtt are text fonts): `\mathbf{\hat{a}}`.
            let font = core.font.flatMap { textAlphabets.contains($0) ? [MathNode.mathVariantAttribute: $0.rawValue] : nil }
            let mark = MathNode(.operator(character, OperatorProperties(atomClass: .ord, stretchy: stretchy)), range: call.token.range,
                                attributes: under ? nil : font)
            if under {
                return MathNode(.under(UnderOverProperties(accentUnder: true)), children: .init(call.node(0), mark), range: call.range)
            }
            return MathNode(.over(UnderOverProperties(accent: true)), children: .init(call.node(0), mark), range: call.range)
        }
    } + [
        CommandDefinition(["overbrace", "overbracket"], [.math], takesLimits: true) { _, call in
            let mark = MathNode(.operator(call.name == "overbrace" ? "⏞" : "⎴", OperatorProperties(atomClass: .ord, stretchy: true)),
                                range: call.token.range)
            return MathNode(.over(UnderOverProperties()), children: .init(call.node(0), mark), range: call.range)
        },
        CommandDefinition(["underbrace", "underbracket"], [.math], takesLimits: true) { _, call in
            let mark = MathNode(.operator(call.name == "underbrace" ? "⏟" : "⎵", OperatorProperties(atomClass: .ord, stretchy: true)),
                                range: call.token.range)
            return MathNode(.under(UnderOverProperties()), children: .init(call.node(0), mark), range: call.range)
        },
        CommandDefinition(["overset"], [.math, .math]) { _, call in
            binaryOrRelation(MathNode(.over(UnderOverProperties()), children: .init(withLimits(call.node(1)), call.node(0)),
                                      range: call.range))
        },
        CommandDefinition(["stackrel"], [.math, .math]) { _, call in
            // LaTeX: `\mathrel{\mathop{#2}\limits^{#1}}`, a relation whatever the base; a base of one letter
            // or digit is the Op atom's character, centred on the axis (Appendix G rule 13).
            var base = call.node(1)
            switch base.kind {
            case .operator:
                return MathNode(.over(UnderOverProperties()), children: .init(withLimits(asRelation(base)), call.node(0)),
                                range: call.range)
            case .identifier(let t, _), .number(let t, _):
                if t.unicodeScalars.count == 1 {
                    base = MathNode(.row, children: .init(base), range: base.range,
                                    attributes: [MathNode.atomClassAttribute: AtomClass.op.rawValue])
                }
            default: break
            }
            let stacked = MathNode(.over(UnderOverProperties()), children: .init(base, call.node(0)), range: call.range)
            return MathNode(.row, children: .init(stacked), range: call.range,
                            attributes: [MathNode.atomClassAttribute: AtomClass.rel.rawValue])
        },
        CommandDefinition(["underset"], [.math, .math]) { _, call in
            binaryOrRelation(MathNode(.under(UnderOverProperties()), children: .init(withLimits(call.node(1)), call.node(0)),
                                      range: call.range))
        },
        CommandDefinition(["stackbin"], [.math, .math]) { _, call in
            MathNode(.over(UnderOverProperties()), children: .init(call.node(1), call.node(0)), range: call.range)
        },
    ]

    /// amsmath sets the base of `\overset`, `\underset` and `\stackrel` as `\mathop{…}\limits`: the
    /// script stays above or below in every style, so an operator whose limits move to script positions
    /// in text style (`\underset{x}{\operatorname*{sup}}`, `\lim`) keeps them there, and an arrow keeps
    /// its width (`\underset{n\to\infty}{\rightarrow}` is not an extensible arrow).
    private static func withLimits(_ node: MathNode) -> MathNode {
        guard case .operator(let text, var p) = node.kind, p.movableLimits || p.stretchy else { return node }
        p.movableLimits = false
        p.stretchy = false
        return MathNode(.operator(text, p), children: node.children, range: node.range, attributes: node.attributes)
    }

    /// amsmath's `\overset`/`\underset` are `\binrel@{#2}\binrel@@{\mathop{\kern\z@#2}\limits…}`: a binary
    /// operator or relation as base makes the stack `\mathbin`/`\mathrel`; any other base leaves
    /// `\binrel@@` as `\relax`, so its braced argument is a group, an Ord atom (TeXbook Appendix G rule
    /// 16: `\underset{x}{\sup} f` has no thin space before f, `\underset{x}{\mathop{z}}` neither).
    private static func binaryOrRelation(_ stack: MathNode) -> MathNode {
        if case .operator(_, let p) = stack.children[0].kind, p.atomClass == .bin || p.atomClass == .rel { return stack }
        return MathNode(.row, children: .init(stack), range: stack.range,
                        attributes: [MathNode.atomClassAttribute: AtomClass.ord.rawValue])
    }

    /// `\stackrel` makes its base a relation.
    private static func asRelation(_ node: MathNode) -> MathNode {
        guard case .operator(let text, var p) = node.kind else { return node }
        p.atomClass = .rel
        return MathNode(.operator(text, p), range: node.range)
    }
}

/// Extensible arrows with text above and below: `\xrightarrow[below]{above}` and its relatives.
enum ArrowCommands {
    private static let arrows: [(String, String)] = [
        ("xleftarrow", "←"), ("xrightarrow", "→"), ("xLeftarrow", "⇐"), ("xRightarrow", "⇒"),
        ("xleftrightarrow", "↔"), ("xLeftrightarrow", "⇔"), ("xhookleftarrow", "↩"), ("xhookrightarrow", "↪"),
        ("xmapsto", "↦"), ("xrightharpoondown", "⇁"), ("xrightharpoonup", "⇀"), ("xleftharpoondown", "↽"),
        ("xleftharpoonup", "↼"), ("xrightleftharpoons", "⇌"), ("xleftrightharpoons", "⇋"), ("xlongequal", "="),
        ("xtwoheadrightarrow", "↠"), ("xtwoheadleftarrow", "↞"), ("xtofrom", "⇄"), ("xrightleftarrows", "⇄"),
        ("xrightequilibrium", "⇌"), ("xleftequilibrium", "⇋"),
    ]

    static let all: [CommandDefinition] = arrows.map { entry in
        let (name, arrow) = entry
        return CommandDefinition([name], [.optionalMath, .math]) { _, call in
            let op = MathNode(.operator(arrow, OperatorProperties(atomClass: .rel, stretchy: true)), range: call.token.range)
            let above = call.node(1)
            if let below = call.arguments[0].node {
                return MathNode(.underOver(UnderOverProperties()), children: .init(op, below, above), range: call.range)
            }
            return MathNode(.over(UnderOverProperties()), children: .init(op, above), range: call.range)
        }
    }
}
