import MathSyntax

/// Named functions and operators: `\sin \log …` (upright identifiers), `\lim \max …` (limits),
/// `\operatorname(*)`, the class changers `\mathop \mathbin \mathrel \mathopen \mathclose \mathpunct
/// \mathinner \mathord`, `\not`, and the modulo family `\bmod \pmod \pod \mod`.
enum OperatorCommands {
    /// Functions read as upright names, with scripts as ordinary scripts.
    static let functionNames = [
        "arcsin", "arccos", "arctan", "arctg", "arcctg", "arg", "ch", "cos", "cosec", "cosh", "cot", "cotg", "coth",
        "csc", "ctg", "cth", "deg", "dim", "exp", "hom", "ker", "lg", "ln", "log", "sec", "sh", "sin", "sinh", "tan",
        "tanh", "tg", "th",
    ]
    /// Operators whose scripts go below (display) and that take arguments: `\lim_{x\to0}`.
    static let limitNames: [(String, String)] = [
        ("det", "det"), ("gcd", "gcd"), ("inf", "inf"), ("lim", "lim"), ("liminf", "lim inf"), ("limsup", "lim sup"),
        ("max", "max"), ("min", "min"), ("Pr", "Pr"), ("sup", "sup"), ("injlim", "inj lim"), ("projlim", "proj lim"),
        ("varliminf", "lim inf"), ("varlimsup", "lim sup"), ("varinjlim", "inj lim"), ("varprojlim", "proj lim"),
        ("argmax", "arg max"), ("argmin", "arg min"),
    ]

    static let all: [CommandDefinition] = functionNames.map { name in
        CommandDefinition([name]) { _, call in
            MathNode(.identifier(name, variant: nil), range: call.range)
        }
    } + limitNames.map { entry in
        let (name, text) = entry
        return CommandDefinition([name], takesLimits: true) { _, call in
            MathNode(.operator(text, OperatorProperties(atomClass: .op, movableLimits: true)), range: call.range)
        }
    } + [
        CommandDefinition(["operatorname", "operatornamewithlimits"]) { core, call in
            var starred = call.name == "operatornamewithlimits"
            let star = core.next()
            if star.isCharacter("*") { starred = true } else { core.pushBack(star) }
            let savedFont = core.font, savedMerge = core.mergeLetters
            core.font = .normal
            core.mergeLetters = true
            let content = core.parseMathArgument(for: call)
            core.font = savedFont
            core.mergeLetters = savedMerge
            let range = SourceRange.union(call.range, content.range)
            guard let name = flatText(content) else {
                return content.withRange(range)
            }
            if starred {
                return MathNode(.operator(name, OperatorProperties(atomClass: .op, movableLimits: true)), range: range)
            }
            return MathNode(.identifier(name, variant: name.unicodeScalars.count == 1 ? .normal : nil), range: range)
        },
        CommandDefinition(["mathop", "mathbin", "mathrel", "mathopen", "mathclose", "mathpunct", "mathinner", "mathord"], [.math]) { _, call in
            let atomClass: AtomClass = ["mathop": .op, "mathbin": .bin, "mathrel": .rel, "mathopen": .open,
                                        "mathclose": .close, "mathpunct": .punct, "mathinner": .inner, "mathord": .ord][call.name]!
            let content = call.node(0)
            if call.name == "mathord" || call.name == "mathinner" { return content.withRange(call.range) }
            // A letter or digit keeps its alphabet (`\mathop{z}` is an italic z) and text its font
            // (`\mathop{\textbf{z}}`): the row below says their class.
            let keepsContent: Bool
            switch content.kind {
            case .identifier(let t, _), .number(let t, _):
                keepsContent = t.unicodeScalars.count == 1 && t.unicodeScalars.first!.properties.isAlphabetic || Int(t) != nil && t.count == 1
            case .text: keepsContent = true
            default: keepsContent = false
            }
            guard !keepsContent, let text = flatText(content) else {
                // A list made an atom of a class (`\mathop{\mathrm{dim}_H}`, `\mathrel{\substack{…}}`): a row
                // whose class MathML writes as `data-class`, as for an operator, so it is spaced as that atom.
                return MathNode(.row, content.kind == .row && content.attributes == nil ? Array(content.children) : [content],
                                range: call.range, attributes: [MathNode.atomClassAttribute: atomClass.rawValue])
            }
            var props = OperatorProperties(atomClass: atomClass)
            if atomClass == .op {
                props.movableLimits = true
                props.largeOperator = text.unicodeScalars.count == 1
            }
            return MathNode(.operator(text, props), range: call.range)
        },
        CommandDefinition(["not"]) { core, call in
            let t = core.nextNonSpace()
            var base: MathNode? = nil
            switch t.kind {
            case .beginGroup:
                base = core.parseGroupContent(opening: t)   // \not{=} negates the relation itself
            case .character, .controlSequence:
                base = core.parseAtom(t)?.node
            default:
                core.pushBack(t)
            }
            guard let base else {
                core.error("tex.missing-argument", "\\not needs a symbol to negate", at: call.range)
                return MathNode(.operator("\u{0338}", .relation), range: call.range)
            }
            let range = SourceRange.union(call.range, base.range)
            // A letter or a digit struck through (`\not x`, `\not 2`): the strike `\cancel` makes, as MathML's `<mi>x̸</mi>` reads;
            // `\not` before a relation or another symbol negates it.
            if let struck = MathNode.struckOut(base, range: range) { return struck }
            if let text = base.leafText {
                let negated = SymbolTable.negated(text) ?? (text + "\u{0338}")
                var props = OperatorDictionary.properties(for: negated)
                props.atomClass = .rel
                return MathNode(.operator(negated, props), range: range)
            }
            return MathNode(.row, [MathNode(.operator("\u{0338}", .relation), range: call.range), base], range: range)
        },
        CommandDefinition(["bmod"]) { _, call in
            MathNode(.operator("mod", OperatorProperties(atomClass: .bin)), range: call.range)
        },
        CommandDefinition(["mod"], [.math]) { _, call in
            MathNode(.row, [
                MathNode(.space(width: 1), range: nil),
                MathNode(.identifier("mod", variant: nil), range: call.token.range),
                MathNode(.space(width: 0.3333), range: nil),
                call.node(0),
            ], range: call.range)
        },
        CommandDefinition(["pmod", "pod"], [.math]) { _, call in
            var items: [MathNode] = [MathNode(.space(width: 1), range: nil), MathNode(.operator("(", .open), range: nil)]
            if call.name == "pmod" {
                items.append(MathNode(.identifier("mod", variant: nil), range: call.token.range))
                items.append(MathNode(.space(width: 0.3333), range: nil))
            }
            items.append(call.node(0))
            items.append(MathNode(.operator(")", .close), range: nil))
            return MathNode(.row, items, range: call.range)
        },
    ]

    /// The text of a node made only of letters, digits and simple symbols (for `\operatorname{…}`).
    static func flatText(_ node: MathNode) -> String? {
        switch node.kind {
        case .identifier(let s, _), .number(let s, _), .text(let s, _): return s
        case .operator(let s, _): return s
        case .row:
            var out = ""
            for child in node.children {
                if case .space(let width) = child.kind {
                    // A thin space (`\operatorname{arg\,max}`) is the name's space, drawn as \, is; any other
                    // width (`\ `, `\quad`) keeps the list, so it keeps its width.
                    guard abs(width - 3.0 / 18) < 0.001 else { return nil }
                    out += " "
                    continue
                }
                guard let s = flatText(child) else { return nil }
                out += s
            }
            return out.isEmpty ? nil : out
        default: return nil
        }
    }
}
