import MathSyntax

// Chemistry: the meaning of a presentation tree marked as chemistry (`data-chem` attributes, which
// the TeX front end writes for mhchem's \ce and MathML may carry): species, their parts, charges and
// states, reaction arrows, bonds. The marks say what each part is; the analysis turns them into the
// chemical-* kinds of ``SemanticKind`` without looking at any spelling.

extension Analyzer {
    /// The chemistry mark of a node, when it is one the analysis reads as chemistry (not the
    /// quantities and units of `\pu`, which the measurement analysis reads).
    static func chemistryMark(_ m: MathNode) -> String? {
        guard let chem = m.attributes?["data-chem"], chem != "quantity", chem != "unit" else { return nil }
        return chem
    }

    /// The meaning of a node marked as chemistry.
    mutating func chemistry(_ m: MathNode, _ ctx: Context) -> NodeID {
        let a = m.attributes ?? [:]
        switch a["data-chem"] ?? "" {
        case "equation", "formula":
            let mark = b.mark()
            for child in m.children where !Analyzer.isSpacer(child) {
                b.add(child: chemicalPart(child, ctx), .item)
            }
            if a["data-chem-ion"] == "1" { b.flag(.ion) }
            return b.finish(a["data-chem"] == "equation" ? .chemicalEquation : .chemicalFormula, mark, range: m.range)
        default:
            return chemicalPart(m, ctx)
        }
    }

    static func isSpacer(_ m: MathNode) -> Bool {
        if case .space = m.kind { return true }
        return false
    }

    /// The node without its marks (analysed as ordinary mathematics).
    static func unmarked(_ m: MathNode) -> MathNode {
        MathNode(m.kind, children: m.children, range: m.range)
    }

    /// One part of a species or an equation.
    mutating func chemicalPart(_ m: MathNode, _ ctx: Context) -> NodeID {
        let a = m.attributes ?? [:]
        switch a["data-chem"] {
        case "equation", "formula":
            return chemistry(m, ctx)
        case "element":
            return b.leaf(.chemicalElement, text: m.leafText ?? "", range: m.range)
        case "coefficient", "variable", "count", "math", "subscript", "superscript":
            return node(Analyzer.unmarked(m), ctx)
        case "text":
            return text(m.leafText ?? "", range: m.range)
        case "plus", "minus", "equals", "plus-minus":
            guard case .operator(let t, let p) = m.kind else { return node(Analyzer.unmarked(m), ctx) }
            return operatorLeaf(t, p.atomClass, range: m.range)
        case "precipitate", "gas", "addition", "excited", "circa", "punctuation", "radical":
            let mark = b.mark()
            b.string(.mark, a["data-chem"]!)
            return b.finish(.chemicalMark, mark, text: m.leafText ?? "", range: m.range, rangeFromChildren: false)
        case "bond":
            let mark = b.mark()
            b.string(.bond, Analyzer.bondName(a["data-chem-bond"] ?? ""))
            return b.finish(.chemicalBond, mark, text: m.leafText ?? "", range: m.range, rangeFromChildren: false)
        case "charge":
            return charge(a["data-chem-charge"] ?? "", range: m.range)
        case "oxidation":
            let mark = b.mark()
            if let v = Int(a["data-chem-oxidation"] ?? "") { b.integer(.value, v) }
            return b.finish(.chemicalOxidation, mark, text: m.leafText ?? "", range: m.range, rangeFromChildren: false)
        case "state":
            let written = a["data-chem-state"] ?? ""
            let mark = b.mark()
            let word = written.trimmingSpaces
            let known = SemanticTree.Records.stateSymbols.contains(word)
            b.string(.state, known ? word : "other")
            // A state holding math or a list (aq,$\infty$) keeps it as content.
            if !known, m.children.count == 3 {
                b.add(child: chemicalPart(m.children[1], ctx), .content)
                return b.finish(.chemicalState, mark, text: word, range: m.range, rangeFromChildren: false)
            }
            return b.finish(.chemicalState, mark, text: word, range: m.range, rangeFromChildren: false)
        case "arrow":
            let mark = b.mark()
            b.string(.arrow, Analyzer.arrowName(a["data-chem-arrow"] ?? "->"))
            switch m.kind {
            case .over where m.children.count == 2:
                b.add(child: chemicalPart(m.children[1], ctx), .upper)
            case .under where m.children.count == 2:
                b.add(child: chemicalPart(m.children[1], ctx), .lower)
            case .underOver where m.children.count == 3:
                b.add(child: chemicalPart(m.children[2], ctx), .upper)
                b.add(child: chemicalPart(m.children[1], ctx), .lower)
            default:
                break
            }
            return b.finish(.chemicalArrow, mark, range: m.range, rangeFromChildren: false)
        case "isotope":
            guard case .multiscripts = m.kind, m.children.count == 3 else { return node(Analyzer.unmarked(m), ctx) }
            let mark = b.mark()
            b.add(child: chemicalPart(m.children[0], ctx), .base)
            if !Analyzer.isNone(m.children[2]) { b.add(child: chemicalPart(m.children[2], ctx), .presuperscript) }
            if !Analyzer.isNone(m.children[1]) { b.add(child: chemicalPart(m.children[1], ctx), .presubscript) }
            return b.finish(.chemicalIsotope, mark, range: m.range)
        case "group":
            guard m.children.count == 3, case .operator(let open, _) = m.children[0].kind,
                  case .operator(let close, _) = m.children[2].kind else { return node(Analyzer.unmarked(m), ctx) }
            let mark = b.mark()
            b.add(child: chemicalPart(m.children[1], ctx), .content)
            b.string(.open, open)
            b.string(.close, close)
            return b.finish(.chemicalGroup, mark, range: m.range)
        default:
            if a["data-chem-scripted"] == "1" {
                let mark = b.mark()
                switch m.kind {
                case .subscript where m.children.count == 2:
                    b.add(child: chemicalPart(m.children[0], ctx), .base)
                    b.add(child: chemicalPart(m.children[1], ctx), .subscript)
                case .superscript where m.children.count == 2:
                    b.add(child: chemicalPart(m.children[0], ctx), .base)
                    b.add(child: chemicalPart(m.children[1], ctx), .exponent)
                case .subSuperscript where m.children.count == 3:
                    b.add(child: chemicalPart(m.children[0], ctx), .base)
                    b.add(child: chemicalPart(m.children[1], ctx), .subscript)
                    b.add(child: chemicalPart(m.children[2], ctx), .exponent)
                default:
                    b.discard(mark)
                    return node(Analyzer.unmarked(m), ctx)
                }
                return b.finish(.chemicalScripted, mark, range: m.range)
            }
            return node(m, ctx)
        }
    }

    /// A charge written as mhchem writes it: `2+`, `-`, `n+`, `.-`, `(2.)-`, dots (Kröger–Vink
    /// positive), primes (negative), `x` (neutral). The `sign` property is the sign's character (`+`,
    /// `−`), so rules say it with the locale's words for it (`{=sign:word}`), or `neutral`.
    mutating func charge(_ written: String, range: SourceRange?) -> NodeID {
        let mark = b.mark()
        var body = Substring(written)
        var sign = "neutral"
        if body.hasSuffix("+") { sign = "+"; body.removeLast() } else if body.hasSuffix("-") { sign = "\u{2212}"; body.removeLast() }
        else if body.allSatisfy({ $0 == "." }) {
            // Kröger–Vink: each dot is a positive effective charge, each prime a negative one.
            sign = "+"; body = Substring(String(body.count))
        } else if body.hasSuffix("'") {
            sign = "\u{2212}"
            let primes = body.reversed().prefix { $0 == "'" }.count
            body.removeLast(primes)
            if body.isEmpty { body = Substring(String(primes)) }
        }
        else if body == "x" { body = "" }
        if body.hasPrefix("("), body.hasSuffix(")") { body = body.dropFirst().dropLast() }
        var dots = 0
        while body.hasSuffix(".") { body.removeLast(); dots += 1 }
        while body.hasPrefix(".") { body.removeFirst(); dots += 1 }
        if dots > 0 { b.integer(.count, dots) }
        b.string(.sign, sign)
        if let v = Int(body) { b.integer(.value, v) }
        return b.finish(.chemicalCharge, mark, text: String(body), range: range, rangeFromChildren: false)
    }

    /// The meaning of an mhchem arrow.
    static func arrowName(_ spelling: String) -> String {
        switch spelling {
        case "<-": "reverse"
        case "<->": "resonance"
        case "<-->": "reversible"
        case "<=>": "equilibrium"
        case "<=>>": "equilibrium-right"
        case "<<=>": "equilibrium-left"
        default: "yields"
        }
    }

    /// The meaning of an mhchem bond.
    static func bondName(_ order: String) -> String {
        switch order {
        case "1": "single"
        case "2": "double"
        case "3": "triple"
        case "...", "....": "dotted"
        case "->", "<-": "dative"
        default: "partial"
        }
    }
}
