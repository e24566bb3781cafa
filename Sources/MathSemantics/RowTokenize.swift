import MathSyntax

extension Analyzer {
    // MARK: Tokens

    /// Turns the items in `range` into tokens; matched fence pairs become one operand each, whose
    /// content is tokenised and parsed recursively (one level per bracket, bounded by
    /// ``Analyzer/maxGroupDepth``).
    func tokenize(_ items: [RowItem], _ range: Range<Int>, _ match: FenceMatch, _ ctx: Context) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(range.count)
        var i = range.lowerBound
        var sawIntegral = false
        var sawDifferentialMark = false
        while i < range.upperBound {
            let partner = match.partner(i)
            if partner > i, partner < range.upperBound {
                tokens.append(groupToken(items, i, partner, match, ctx))
                i = partner + 1
                continue
            }
            switch items[i] {
            case .wideSpace(let r):
                tokens.append(Token(kind: .wideSpace, node: SemanticNode(.empty, range: r)))
            case .token(let t):
                tokens.append(t)
            case .raw(let m):
                if match.isLooseBar(i) {
                    tokens.append(looseBarToken(m, ctx))
                } else if match.isLooseFence(i) {
                    tokens.append(looseFenceToken(m, ctx))
                } else if let t = classify(m, ctx) {
                    if t.kind == .apply {
                        if !tokens.isEmpty { tokens[tokens.count - 1].forcedFunction = true }
                    } else {
                        if t.kind == .bigOperator, (t.big?.integrals ?? 0) > 0 { sawIntegral = true }
                        if t.kind == .operand, isDifferentialMark(t.node) { sawDifferentialMark = true }
                        tokens.append(t)
                    }
                }
            }
            i += 1
        }
        if sawDifferentialMark { markDifferentials(&tokens, afterIntegral: sawIntegral) }
        // A full stop at the end is sentence punctuation, not math.
        if tokens.count > 1, let last = tokens.last, last.kind == .operand, last.node.kind == .operator, last.text == "." {
            tokens.removeLast()
        }
        return tokens
    }

    /// A bar that did not pair: a relation (`|`: divides, such that, given — ClearSpeak VerticalLine),
    /// or with scripts an evaluation bar (`\Big|_{0}^{1}`).
    func looseBarToken(_ m: MathNode, _ ctx: Context) -> Token {
        switch m.kind {
        case .subscript, .superscript, .subSuperscript:
            let (sub, sup) = scriptChildren(m)
            var t = Token(kind: .evaluationBar, node: SemanticNode(.empty, range: m.range))
            t.big = Token.BigParts(head: operatorLeaf("|", .ord, range: m.children[0].range),
                                   lower: sub.map { node($0, ctx) }, upper: sup.map { node($0, ctx) },
                                   name: "evaluated-at", integrals: 0, placement: nil, range: m.range)
            return t
        default:
            let text = m.leafText ?? "|"
            return Token(kind: .relation, node: operatorLeaf(text, .rel, range: m.range), text: text)
        }
    }

    /// A bracket that did not pair: a plain symbol.
    func looseFenceToken(_ m: MathNode, _ ctx: Context) -> Token {
        if case .operator(let t, let p) = m.kind {
            return Token(kind: .operand, node: operatorLeaf(t, p.atomClass, range: m.range), text: t)
        }
        let (sub, sup) = scriptChildren(m)
        let base = m.children.first.map { b -> SemanticNode in
            if case .operator(let t, let p) = b.kind { return operatorLeaf(t, p.atomClass, range: b.range) }
            return node(b, ctx)
        } ?? SemanticNode(.empty, range: m.range)
        return Token(kind: .operand, node: apply(scripts(sub: sub, sup: sup, ctx), to: base, range: m.range))
    }

    /// (subscript, superscript) children of a script node.
    func scriptChildren(_ m: MathNode) -> (MathNode?, MathNode?) {
        let c = m.children
        switch m.kind {
        case .subscript, .under: return (c.count > 1 ? c[1] : nil, nil)
        case .superscript, .over: return (nil, c.count > 1 ? c[1] : nil)
        case .subSuperscript, .underOver: return (c.count > 1 ? c[1] : nil, c.count > 2 ? c[2] : nil)
        default: return (nil, nil)
        }
    }

    // MARK: Fence groups

    /// A matched pair of fence items and what lies between them.
    func groupToken(_ items: [RowItem], _ open: Int, _ close: Int, _ match: FenceMatch, _ ctx: Context) -> Token {
        guard case .raw(let o) = items[open], case .raw(let c) = items[close] else {
            return Token(kind: .operand, node: SemanticNode(.empty))
        }
        let openText = o.leafText ?? ""
        var closeNode = c
        var scriptsSpec: Scripts? = nil
        switch c.kind {
        case .subscript, .superscript, .subSuperscript:
            closeNode = c.children[0]
            let (sub, sup) = scriptChildren(c)
            scriptsSpec = scripts(sub: sub, sup: sup, ctx)
        default: break
        }
        let closeText = closeNode.leafText ?? ""
        var inner = ctx
        let paren = (openText == "(" || openText == "[") && (closeText == ")" || closeText == "]")
        if paren { inner.parenDepth += 1 }
        inner.groupDepth += 1
        inner.level += 1
        let content = tokenize(items, (open + 1)..<close, match, inner)
        var stretchy = false
        // Sized by \big… (the operator dictionary's default `stretchy` says nothing about the formula).
        if case .operator(_, let p) = o.kind, p.size != nil { stretchy = true }
        let range = SourceRange.union(o.range, closeNode.range)
        let group = fence(open: openText, close: closeText, content, range: range, stretchy: stretchy, inner)
        group.scripts = scriptsSpec
        group.scriptsRange = c.range
        return Token(kind: .operand, node: group.node, fence: group)
    }

    /// A row kept whole because it is one bracketed group (``Analyzer/isSelfContainedGroup(_:)``):
    /// when its brackets pair, the token keeps the fence, so `f` before it is still applied.
    func groupRowToken(_ m: MathNode, _ ctx: Context) -> Token {
        var ctx = ctx
        ctx.level += 1
        ctx.groupDepth = 0
        let items = premerge(flatten(m.children), ctx)
        let match = matchFences(items, ctx)
        if !items.isEmpty && match.partner(0) == items.count - 1 {
            let t = groupToken(items, 0, items.count - 1, match, ctx)
            if t.fence != nil { return t }
        }
        let tokens = tokenize(items, 0..<items.count, match, ctx)
        return Token(kind: .operand, node: parse(tokens, range: m.range, ctx))
    }

    /// A `\left…\right` node (``MathNode/Kind/fenced``).
    func fencedGroup(_ m: MathNode, open: String, close: String, _ ctx: Context) -> Token.FenceGroup {
        var inner = ctx
        let paren = (open == "(" || open == "[") && (close == ")" || close == "]")
        if paren { inner.parenDepth += 1 }
        inner.level += 1
        inner.groupDepth = 0
        let flat = flatten(m.children)
        let items = premerge(flat, inner)
        let match = matchFences(items, inner)
        let tokens = tokenize(items, 0..<items.count, match, inner)
        return fence(open: open, close: close, tokens, range: m.range, stretchy: true, inner)
    }

    /// What a pair of fences around `content` means (ClearSpeak "Parentheses", "Absolute value",
    /// "Sets", "Intervals", "Matrices", "Combinations"): absolute value, norm, floor, ceiling, angle
    /// brackets, set or set-builder, interval candidate, binomial, matrix or cases around a table,
    /// `\pmod`, or a plain ``SemanticKind/fenced`` with its nesting level.
    func fence(open: String, close: String, _ tokens: [Token], range: SourceRange?, stretchy: Bool,
               _ inner: Context) -> Token.FenceGroup {
        func group(_ n: SemanticNode, plain: SemanticNode? = nil) -> Token.FenceGroup {
            Token.FenceGroup(node: n, plain: plain ?? n, open: open, close: close)
        }
        let paren = (open == "(" || open == "[") && (close == ")" || close == "]")
        // Braces: a set listed or built.
        if open == "{" && close == "}" {
            if let sep = tokens.firstIndex(where: { $0.kind == .relation && Analyzer.isSetSeparator($0.text) }), sep > 0 {
                let variable = parse(Array(tokens[..<sep]), range: nil, inner)
                let condition = parse(Array(tokens[(sep + 1)...]), range: nil, inner)
                let n = SemanticNode.make(.setBuilder, [variable.withRole(.variable), condition.withRole(.condition)],
                                          props: ["separator": tokens[sep].text, "open": open, "close": close], range: range)
                return group(n)
            }
            if tokens.isEmpty {
                return group(SemanticNode(.set, properties: ["empty": "true", "open": open, "close": close], range: range))
            }
            let content = parse(tokens, range: nil, inner)
            if content.kind == .matrix || content.kind == .table || content.kind == .cases {
                return group(fencedTable(content, open: open, close: close, range: range))
            }
            var props: SemanticProperties = ["open": open, "close": close]
            props["items"] = String(Analyzer.itemCount(content))
            return group(.make(.set, [content.withRole(.content)], props: props, range: range))
        }
        let content = tokens.isEmpty ? nil : parse(tokens, range: nil, inner)
        if let content, content.kind == .matrix || content.kind == .table || content.kind == .cases {
            return group(fencedTable(content, open: open, close: close, range: range))
        }
        // Plain fenced reading (also the reading of a function argument).
        var props: SemanticProperties = ["open": open, "close": close]
        if stretchy { props["stretchy"] = "true" }
        if paren { props["nesting"] = String(inner.parenDepth) }
        if let content {
            props["items"] = String(Analyzer.itemCount(content))
            if Facts.isSimple(content) { props["simple-content"] = "true" }
            let kind = Facts.contentKind(content)
            props["content-kind"] = kind
            // ClearSpeak Paren_Auto: with an exponent, parentheses are silent only around a positive
            // number or a common fraction ("1.5 cubed", "three fifths squared"; not "(-4)^2", "(ab)^4").
            if kind == "number" || kind == "common-fraction" { props["silent-as-base"] = "true" }
        } else {
            props["items"] = "0"
            props["empty"] = "true"
        }
        let plain = SemanticNode.make(.fenced, content.map { [$0.withRole(.content)] } ?? [], props: props, range: range)
        guard let content else { return group(plain) }
        var p: SemanticProperties = ["open": open, "close": close]
        if stretchy { p["stretchy"] = "true" }
        // Fences are one character each: compare scalars (a string switch compares by canonical
        // equivalence, slowly for anything but ASCII).
        switch (open.soleScalar, close.soleScalar) {
        case ("|", "|"):
            return group(.make(.absoluteValue, [content.withRole(.content)], props: p, range: range), plain: plain)
        case ("‖", "‖"):
            return group(.make(.norm, [content.withRole(.content)], props: p, range: range), plain: plain)
        case ("⌊", "⌋"):
            return group(.make(.floor, [content.withRole(.content)], props: p, range: range), plain: plain)
        case ("⌈", "⌉"):
            return group(.make(.ceiling, [content.withRole(.content)], props: p, range: range), plain: plain)
        default: break
        }
        if Vocabulary.isAngleOpen(open) && Vocabulary.isAngleClose(close) {
            return group(.make(.angleBrackets, [content.withRole(.content)], props: p, range: range), plain: plain)
        }
        if open == "(" && close == ")" {
            // \binom, {n \choose k}: a fraction without a rule in parentheses.
            if content.kind == .fraction, content.has("linethickness-zero"),
               let num = content.child(.numerator), let den = content.child(.denominator) {
                return group(.make(.binomial, [num.withRole(.upper), den.withRole(.lower)], range: range), plain: plain)
            }
            // \pmod{n}: "( mod n )".
            if content.kind == .modulo, content.child(.item) == nil {
                return group(content.adding(["parenthesised": "true"]).withRange(range), plain: plain)
            }
        }
        // Two comma-separated items between ( [ and ) ]: an interval candidate (ClearSpeak Paren_Interval,
        // Paren_CoordPoint; by default the rules read it as a fenced list).
        if paren, content.kind == .list, content.children.count == 3, content.children[1].text == ",",
           content.children[0].role == .item, content.children[2].role == .item,
           content.children[0].kind != .relation, content.children[2].kind != .relation {
            let lower = content.children[0], upper = content.children[2]
            p["lower-closed"] = open == "[" ? "true" : nil
            p["upper-closed"] = close == "]" ? "true" : nil
            if Analyzer.isInfinite(lower) { p["lower-infinite"] = "true" }
            if Analyzer.isInfinite(upper) { p["upper-infinite"] = "true" }
            p["nesting"] = String(inner.parenDepth)
            return group(.make(.interval, [lower.withRole(.lower), upper.withRole(.upper)], props: p, range: range), plain: plain)
        }
        return group(plain)
    }

    /// Separators of set-builder notation: `|`, `∣` (`\mid`), `:`.
    static func isSetSeparator(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        return u == "|" || u == "∣" || u == ":"
    }

    /// How many comma-separated items a fence's content has.
    static func itemCount(_ content: SemanticNode) -> Int {
        if content.kind == .empty { return 0 }
        guard content.kind == .list else { return 1 }
        return max(1, content.children.filter { $0.role == .operator }.count + 1)
    }

    /// `∞` or `−∞` (and `+∞`).
    static func isInfinite(_ n: SemanticNode) -> Bool {
        if n.kind == .identifier && n.text.soleScalar == "∞" { return true }
        if n.kind == .prefix, let a = n.child(.argument) { return a.kind == .identifier && a.text.soleScalar == "∞" }
        return false
    }

    // MARK: Classifying one item

    /// The token for one presentation node (nil for invisible times and invisible plus, which add nothing).
    func classify(_ m: MathNode, _ ctx: Context) -> Token? {
        switch m.kind {
        case .operator(let t, let p):
            return operatorToken(t, p, range: m.range)
        case .identifier(let t, let v):
            if let u = t.soleScalar {
                if u == "%" { return Token(kind: .postfix, node: operatorLeaf(t, .ord, range: m.range), text: t, postfix: .percent) }
                if u == "△" || u == "∠" || u == "▵" || u == "∡" {
                    return Token(kind: .prefix, node: operatorLeaf(t, .ord, range: m.range), text: t)
                }
            }
            if t == "mod" { return Token(kind: .modulo, node: operatorLeaf(t, .ord, range: m.range), text: t) }
            let scalars = t.unicodeScalars.count
            if scalars > 1, Vocabulary.functionClass(t) != nil || Vocabulary.isLimitName(t) {
                if Vocabulary.isLimitName(t) {
                    return limitToken(functionName(t, range: m.range), lower: nil, upper: nil, placement: nil, range: m.range)
                }
                return Token(kind: .function, node: functionName(t, range: m.range), text: t,
                             applicationProps: ["function-class": Vocabulary.functionClass(t) ?? "named"])
            }
            if scalars > 1, !t.unicodeScalars.allSatisfy({ $0.properties.numericType != nil }) {
                return Token(kind: .word, node: identifier(t, v, range: m.range).adding(["word": "true"]), text: t)
            }
            if scalars == 1, let u = t.unicodeScalars.first, Analyzer.primeCount(t) != nil, !u.properties.isAlphabetic {
                return Token(kind: .postfix, node: operatorLeaf(t, .ord, range: m.range), text: t, postfix: .primes(Analyzer.primeCount(t)!))
            }
            return Token(kind: .operand, node: identifier(t, v, range: m.range), text: t)
        case .number(let t):
            return Token(kind: .operand, node: number(t, range: m.range), text: t)
        case .text(let t, _):
            let n = text(t, range: m.range)
            if n.kind == .empty { return nil }
            // A one-word text (`\text{sign}`, `\textrm{tr}`) is a function name when parentheses follow.
            if n.properties["unit-name"] == nil, n.text.unicodeScalars.count >= 2,
               n.text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) {
                return Token(kind: .word, node: n, text: n.text)
            }
            return Token(kind: .operand, node: n, text: n.text)
        case .fenced(let open, let close):
            let g = fencedGroup(m, open: open, close: close, ctx)
            return Token(kind: .operand, node: g.node, fence: g)
        case .subscript, .superscript, .subSuperscript, .under, .over, .underOver:
            return scriptToken(m, ctx)
        case .multiscripts(let pre):
            return Token(kind: .operand, node: multiscripts(m, prescriptPairs: pre, ctx))
        case .space:
            return nil
        case .row:
            return groupRowToken(m, ctx)
        default:
            let n = node(m, ctx)
            return Token(kind: .operand, node: n)
        }
    }

    /// The token of an operator character.
    func operatorToken(_ t: String, _ p: OperatorProperties, range: SourceRange?) -> Token? {
        let leaf = operatorLeaf(t, p.atomClass, range: range)
        if let u = t.soleScalar {
            switch u {
            case "\u{2061}": return Token(kind: .apply, node: leaf, text: t)
            case "\u{2062}", "\u{2064}": return nil
            case "\u{2063}": return Token(kind: .punctuation, node: operatorLeaf(t, .punct, range: range), text: t)
            case "!": return Token(kind: .postfix, node: leaf, text: t, postfix: .factorial(1))
            case "‼": return Token(kind: .postfix, node: leaf, text: t, postfix: .factorial(2))
            case "%": return Token(kind: .postfix, node: leaf, text: t, postfix: .percent)
            case "°": return Token(kind: .postfix, node: leaf, text: t, postfix: .degrees)
            case "¬", "∀", "∃", "∄", "∠", "∡", "△", "▵", "⊾": return Token(kind: .prefix, node: leaf, text: t)
            case "×", "÷", "⋅", "·", "*", "∗", "/", "∕", "∙", "⨯":
                return Token(kind: .multiplicative, node: operatorLeaf(t, .bin, range: range), text: t)
            default: break
            }
        } else if t == "mod" {
            return Token(kind: .modulo, node: leaf, text: t)
        } else if t == "!!" {
            return Token(kind: .postfix, node: leaf, text: t, postfix: .factorial(2))
        }
        if let n = Analyzer.primeCount(t) { return Token(kind: .postfix, node: leaf, text: t, postfix: .primes(n)) }
        if Analyzer.isEllipsis(t) { return Token(kind: .operand, node: ellipsis(t, range: range), text: t) }
        if p.largeOperator || Vocabulary.bigOperator(t) != nil {
            return bigOperatorToken(leaf, lower: nil, upper: nil, placement: nil, range: range)
        }
        if p.atomClass == .op {
            let name = functionName(t, range: range)
            if Vocabulary.isLimitName(t) {
                return limitToken(name, lower: nil, upper: nil, placement: nil, range: range)
            }
            return Token(kind: .function, node: name, text: t,
                         applicationProps: ["function-class": name.properties["function-class"] ?? "named"])
        }
        switch p.atomClass {
        case .rel: return Token(kind: .relation, node: leaf, text: t)
        case .punct:
            if t == "," || t == ";" { return Token(kind: .punctuation, node: leaf, text: t) }
            return Token(kind: .operand, node: leaf, text: t)
        case .bin: return Token(kind: .additive, node: leaf, text: t)
        default: return Token(kind: .operand, node: leaf, text: t)
        }
    }

    func bigOperatorToken(_ head: SemanticNode, lower: SemanticNode?, upper: SemanticNode?, placement: String?,
                          range: SourceRange?) -> Token {
        let info = Vocabulary.bigOperator(head.text)
        var t = Token(kind: .bigOperator, node: head, text: head.text)
        t.big = Token.BigParts(head: head, lower: lower, upper: upper, name: info?.name ?? "large-operator",
                               integrals: info?.integrals ?? 0, placement: placement, range: range)
        return t
    }

    func limitToken(_ head: SemanticNode, lower: SemanticNode?, upper: SemanticNode?, placement: String?,
                    range: SourceRange?) -> Token {
        var t = Token(kind: .limit, node: head, text: head.text)
        t.big = Token.BigParts(head: head, lower: lower, upper: upper, name: head.text, integrals: 0,
                               placement: placement, range: range)
        return t
    }

    // MARK: Scripts

    /// A node with scripts: big operators and limits with their limits, functions with powers and
    /// bases (`\sin^2`, `\log_b`), stacked relations, fences with scripts, evaluation bars, accents, and
    /// ordinary powers and subscripts.
    func scriptToken(_ m: MathNode, _ ctx: Context) -> Token {
        guard let rawBase = m.children.first else { return Token(kind: .operand, node: SemanticNode(.empty, range: m.range)) }
        var base = rawBase
        while case .row = base.kind, base.children.count == 1 { base = base.children[0] }
        let (sub, sup) = scriptChildren(m)
        let underOverKind: Bool
        switch m.kind {
        case .under, .over, .underOver: underOverKind = true
        default: underOverKind = false
        }
        let placement = underOverKind ? "under-over" : "scripts"
        switch base.kind {
        case .operator(let t, let p):
            if p.largeOperator || Vocabulary.bigOperator(t) != nil {
                let leaf = operatorLeaf(t, p.atomClass, range: base.range)
                return bigOperatorToken(leaf, lower: sub.map { node($0, ctx) }, upper: sup.map { node($0, ctx) },
                                        placement: placement, range: m.range)
            }
            if p.atomClass == .op {
                return limitToken(functionName(t, range: base.range), lower: sub.map { node($0, ctx) },
                                  upper: sup.map { node($0, ctx) }, placement: placement, range: m.range)
            }
            if p.atomClass == .rel || p.atomClass == .bin {
                let leaf = operatorLeaf(t, p.atomClass, range: base.range)
                let n = underOver(m, base: leaf, lower: sub, upper: sup, ctx, baseClass: p.atomClass)
                return Token(kind: p.atomClass == .rel ? .relation : .additive, node: n, text: t)
            }
            if underOverKind {
                let leaf = operatorLeaf(t, p.atomClass, range: base.range)
                return Token(kind: .operand, node: underOver(m, base: leaf, lower: sub, upper: sup, ctx, baseClass: p.atomClass))
            }
        case .identifier(let t, _) where !underOverKind && t.unicodeScalars.count > 1 && Vocabulary.functionClass(t) != nil:
            return functionToken(functionName(t, range: base.range), sub: sub, sup: sup, range: m.range, ctx)
        case .identifier(let t, _) where !underOverKind && Vocabulary.isLimitName(t):
            return limitToken(functionName(t, range: base.range), lower: sub.map { node($0, ctx) },
                              upper: sup.map { node($0, ctx) }, placement: placement, range: m.range)
        case .identifier(let t, _) where underOverKind && t.unicodeScalars.count > 1 && sub != nil && sup == nil:
            // \underset{x}{\arg}, \mathop{\rm max}\limits_x written as an identifier: a limit-like operator.
            if Vocabulary.isLimitName(t) || Vocabulary.functionClass(t) == "named" {
                return limitToken(functionName(t, range: base.range), lower: sub.map { node($0, ctx) },
                                  upper: nil, placement: placement, range: m.range)
            }
        case .fenced(let open, let close):
            if !underOverKind {
                if open.isEmpty && (close == "|" || close == "‖") {
                    // \left. f \right|_{a}^{b}
                    let g = fencedGroup(base, open: open, close: close, ctx)
                    let body = g.node.child(.content) ?? SemanticNode(.empty, range: base.range)
                    var children = [body.withRole(.body)]
                    var props: SemanticProperties = [:]
                    if let sub { children.append(node(sub, ctx).withRole(.lower)); props["lower"] = "true" }
                    if let sup { children.append(node(sup, ctx).withRole(.upper)); props["upper"] = "true" }
                    return Token(kind: .operand, node: .make(.evaluatedAt, children, props: props, range: m.range))
                }
                let g = fencedGroup(base, open: open, close: close, ctx)
                g.scripts = scripts(sub: sub, sup: sup, ctx)
                g.scriptsRange = m.range
                return Token(kind: .operand, node: g.node, fence: g)
            }
        case .row where !underOverKind && Analyzer.isSelfContainedGroup(base):
            // MathML writes (x+1)^2 as msup(mrow((, x+1, )), 2): the group keeps its fence.
            let t = groupRowToken(base, ctx)
            if let g = t.fence {
                g.scripts = scripts(sub: sub, sup: sup, ctx)
                g.scriptsRange = m.range
                return t
            }
        default:
            break
        }
        if underOverKind {
            let b = node(rawBase, ctx)
            return Token(kind: .operand, node: underOver(m, base: b, lower: sub, upper: sup, ctx, baseClass: nil))
        }
        let b = node(rawBase, ctx)
        let s = scripts(sub: sub, sup: sup, ctx)
        return Token(kind: .operand, node: apply(s, to: b, range: m.range))
    }

    /// `\sin^2`, `\sin^{-1}`, `\log_b`: the function child of an application, with the properties the
    /// application gets (ClearSpeak "Trigonometric functions", "Logarithms"; Trig_TrigInverse).
    func functionToken(_ name: SemanticNode, sub: MathNode?, sup: MathNode?, range: SourceRange?, _ ctx: Context) -> Token {
        let s = scripts(sub: sub, sup: sup, ctx)
        var props: SemanticProperties = ["function-class": name.properties["function-class"] ?? "named"]
        if s.sub != nil && props["function-class"] == "log" { props["log-base"] = "true" }
        if let e = s.sup { props.merge(Analyzer.powerProps(e)) { a, _ in a } }
        let n = apply(s, to: name, range: range)
        return Token(kind: .function, node: n, text: name.text, applicationProps: props)
    }

    /// `inverse` for an exponent −1, otherwise `power` with `power-value` (integers) and `power-kind`.
    static func powerProps(_ e: SemanticNode) -> SemanticProperties {
        if e.negativeIntegerValue == -1 { return ["inverse": "true"] }
        var p: SemanticProperties = ["power": "true"]
        if let v = e.integerValue { p["power-value"] = String(v) }
        if let k = Facts.exponentProps(e)["exponent-kind"] { p["power-kind"] = k }
        return p
    }

    /// MathML `mmultiscripts`: pre-scripts become ``SemanticKind/prescripts``; post-scripts a subscript
    /// and power.
    func multiscripts(_ m: MathNode, prescriptPairs: Int, _ ctx: Context) -> SemanticNode {
        let c = m.children
        guard let baseRaw = c.first else { return SemanticNode(.empty, range: m.range) }
        let base = node(baseRaw, ctx)
        let postCount = max(0, (c.count - 1) / 2 - prescriptPairs)
        var postSub: MathNode? = nil, postSup: MathNode? = nil
        if postCount > 0, c.count > 2 { postSub = c[1]; postSup = c[2] }
        var preSub: MathNode? = nil, preSup: MathNode? = nil
        let preStart = 1 + postCount * 2
        if prescriptPairs > 0, preStart + 1 < c.count { preSub = c[preStart]; preSup = c[preStart + 1] }
        if preSub == nil && preSup == nil {
            return apply(scripts(sub: postSub, sup: postSup, ctx), to: base, range: m.range)
        }
        var children: [SemanticNode] = []
        if let s = preSub, !Analyzer.isNone(s) { children.append(node(s, ctx).withRole(.presubscript)) }
        if let s = preSup, !Analyzer.isNone(s) { children.append(node(s, ctx).withRole(.presuperscript)) }
        children.append(base.withRole(.base))
        if let s = postSub, !Analyzer.isNone(s) { children.append(node(s, ctx).withRole(.subscript)) }
        if let s = postSup, !Analyzer.isNone(s) { children.append(node(s, ctx).withRole(.exponent)) }
        var props: SemanticProperties = [:]
        if base.kind == .identifier && base.text == "C" { props["combination"] = "true" }
        if base.kind == .identifier && base.text == "P" { props["permutation"] = "true" }
        return .make(.prescripts, children, props: props, range: m.range)
    }

    // MARK: Differentials

    /// `d` (italic, upright or ⅆ) or `d^n`, the mark of a differential.
    func isDifferentialMark(_ n: SemanticNode) -> Bool {
        switch n.kind {
        case .identifier: return n.text.soleScalar == "d" || n.text.soleScalar == "ⅆ"
        case .power: return n.child(.base).map { $0.kind == .identifier && ($0.text.soleScalar == "d" || $0.text.soleScalar == "ⅆ") } ?? false
        default: return false
        }
    }

    /// Whether a node can be the variable of a differential: a letter, possibly bold, accented or
    /// subscripted (`x`, `\mathbf{r}`, `\vec r`, `x_1`, `\Omega`).
    func isDifferentialVariable(_ n: SemanticNode) -> Bool {
        switch n.kind {
        case .identifier: return n.has("letter")
        case .subscript, .accent: return n.child(.base).map { $0.kind == .identifier && $0.has("letter") } ?? false
        default: return false
        }
    }

    /// Joins `d` and the variable after it into ``SemanticKind/differential`` tokens: after an integral
    /// sign in the same row, and for an upright `\mathrm{d}` or `ⅆ` anywhere.
    func markDifferentials(_ tokens: inout [Token], afterIntegral: Bool) {
        var out: [Token] = []
        out.reserveCapacity(tokens.count)
        var integralSeen = false
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            if t.kind == .bigOperator, (t.big?.integrals ?? 0) > 0 { integralSeen = true }
            if t.kind == .operand, t.fence == nil, isDifferentialMark(t.node), i + 1 < tokens.count,
               tokens[i + 1].kind == .operand, tokens[i + 1].fence == nil, isDifferentialVariable(tokens[i + 1].node) {
                let markNode = t.node.kind == .power ? t.node.child(.base)! : t.node
                let upright = markNode.properties["variant"] == "normal" || markNode.text == "ⅆ"
                if integralSeen || upright {
                    let v = tokens[i + 1].node
                    var props: SemanticProperties = ["mark": "d"]
                    if upright { props["upright"] = "true" }
                    var children = [v.withRole(.variable)]
                    if t.node.kind == .power, let e = t.node.child(.exponent) {
                        props["order"] = e.integerValue.map(String.init) ?? e.text
                        children.insert(e.withRole(.exponent), at: 0)
                    }
                    let d = SemanticNode.make(.differential, children, text: markNode.text, props: props,
                                              range: SourceRange.union(t.node.range, v.range))
                    out.append(Token(kind: .differential, node: d, text: markNode.text))
                    i += 2
                    continue
                }
            }
            out.append(t)
            i += 1
        }
        tokens = out
    }
}
