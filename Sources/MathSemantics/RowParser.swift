import MathSyntax

extension Analyzer {
    /// Parses a row's tokens by precedence, lowest first: separated items (`,` `;`, words between
    /// relations, wide spaces), relations, additive operators, multiplicative operators, prefix
    /// operators, juxtaposition (implied times and function application), postfix operators.
    ///
    /// Commas and relations: a row where two or more comma-separated parts hold relations is a list of
    /// relations (`x = 1, y = 2`); otherwise relations bind loosest and their operands may be lists
    /// (`f(x) = 1, 2`, `i = 1, \ldots, n`, `x_1, x_2 \in A`).
    func parse(_ tokens: [Token], range: SourceRange?, _ ctx: Context) -> SemanticNode {
        if tokens.isEmpty { return SemanticNode(.empty, range: range) }
        // Segments between separators.
        var hasSeparator = false
        for i in tokens.indices where isSeparator(tokens, i) { hasSeparator = true; break }
        if hasSeparator {
            var segments: [(Range<Int>, Token?)] = []
            var start = 0
            for (i, t) in tokens.enumerated() where isSeparator(tokens, i) {
                segments.append((start..<i, t))
                start = i + 1
            }
            segments.append((start..<tokens.count, nil))
            let relational = segments.filter { seg in tokens[seg.0].contains { $0.kind == .relation } }.count
            // A clause after a comma that starts with a quantifier also makes a list
            // (`\forall x \in A, \exists y`).
            let clause = relational == 1 && segments.dropFirst().contains { seg in
                guard let first = seg.0.first else { return false }
                return tokens[first].kind == .prefix && ExpressionParser.isQuantifier(tokens[first].text)
            }
            if relational >= 2 || clause {
                var children: [SemanticNode] = []
                for (r, sep) in segments {
                    if !r.isEmpty {
                        children.append(relationSpan(tokens[r], ctx).withRole(.item))
                    }
                    if let sep, sep.kind != .wideSpace { children.append(sep.node.withRole(.operator)) }
                }
                if children.count == 1 { return children[0].withRole(.none) }
                return .make(.list, children, range: range)
            }
        }
        let rest = tokens.contains { $0.kind == .wideSpace } ? tokens.filter { $0.kind != .wideSpace } : tokens
        // Words around one relation (`\text{if } x < 0`, `x > 0 \text{ for all } y`): a row of the
        // pieces and the words.
        if rest.count > 1, rest.contains(where: { $0.kind == .relation }) {
            var pieces: [SemanticNode] = []
            var start = 0
            for (i, t) in rest.enumerated() where isWord(t) && i < rest.count - 1 && rest[i + 1].fence == nil
                && rest[i + 1].kind != .relation && (i == 0 || rest[i - 1].kind != .relation) {
                if i > start { pieces.append(relationSpan(rest[start..<i], ctx).withRole(.item)) }
                pieces.append(t.node.withRole(.item))
                start = i + 1
            }
            if !pieces.isEmpty {
                if start < rest.count { pieces.append(relationSpan(rest[start...], ctx).withRole(.item)) }
                return .make(.row, pieces, range: range)
            }
        }
        return relationSpan(rest[...], ctx)
    }

    /// A text of two or more letters that is not a unit: a word such as "if", "or", "for all".
    func isWord(_ t: Token) -> Bool {
        (t.kind == .operand || t.kind == .word) && t.node.kind == .text && t.node.properties["unit-name"] == nil
            && t.node.text.unicodeScalars.filter({ $0.properties.isAlphabetic }).count >= 2
    }

    /// Whether token `i` separates items: punctuation, a wide space, or a text word standing between
    /// other tokens (`x = 2 \text{ or } x = -2`).
    func isSeparator(_ tokens: [Token], _ i: Int) -> Bool {
        let t = tokens[i]
        switch t.kind {
        case .punctuation, .wideSpace: return true
        case .operand, .word:
            return i > 0 && i < tokens.count - 1 && isWord(t) && tokens[i + 1].fence == nil
                && tokens[i + 1].kind != .relation && tokens[i - 1].kind != .relation
        default: return false
        }
    }

    /// Relations over operands that may be comma lists.
    func relationSpan(_ tokens: ArraySlice<Token>, _ ctx: Context) -> SemanticNode {
        if tokens.isEmpty { return SemanticNode(.empty) }
        guard tokens.contains(where: { $0.kind == .relation }) else { return listSpan(tokens, ctx) }
        var children: [SemanticNode] = []
        var operators: [String] = []
        var start = tokens.startIndex
        for i in tokens.indices where tokens[i].kind == .relation {
            let t = tokens[i]
            if i > start { children.append(listSpan(tokens[start..<i], ctx).withRole(.item)) }
            children.append(t.node.withRole(.operator))
            if !operators.contains(t.text) { operators.append(t.text) }
            start = i + 1
        }
        if start < tokens.endIndex { children.append(listSpan(tokens[start...], ctx).withRole(.item)) }
        var props: SemanticProperties = ["operators": operators.joined(separator: " ")]
        // `17 \equiv 2 \pmod{5}`: rules read ≡ as "is congruent to" next to a modulus.
        if children.contains(where: { $0.kind == .modulo }) { props["has-modulo"] = "true" }
        return .make(.relation, children, props: props)
    }

    /// Items separated by `,` `;` (and words), each an expression.
    func listSpan(_ tokens: ArraySlice<Token>, _ ctx: Context) -> SemanticNode {
        guard tokens.contains(where: { $0.kind == .punctuation }) else { return expression(tokens, ctx) }
        var children: [SemanticNode] = []
        var start = tokens.startIndex
        for i in tokens.indices where tokens[i].kind == .punctuation {
            if i > start { children.append(expression(tokens[start..<i], ctx).withRole(.item)) }
            children.append(tokens[i].node.withRole(.operator))
            start = i + 1
        }
        if start < tokens.endIndex { children.append(expression(tokens[start...], ctx).withRole(.item)) }
        return .make(.list, children)
    }

    /// An expression without relations or separators. Tokens the grammar cannot place (a stray
    /// relation inside a body, an orphan apply) are kept in a ``SemanticKind/row``.
    func expression(_ tokens: ArraySlice<Token>, _ ctx: Context) -> SemanticNode {
        var parser = ExpressionParser(tokens: tokens, analyzer: self)
        var pieces: [SemanticNode] = []
        while parser.pos < tokens.endIndex {
            let before = parser.pos
            if let n = parser.additive() { pieces.append(n) }
            if parser.pos == before {
                // No progress: take the token as it is.
                pieces.append(tokens[parser.pos].node)
                parser.pos += 1
            }
        }
        if pieces.isEmpty { return SemanticNode(.empty) }
        if pieces.count == 1 { return pieces[0].withRole(.none) }
        return .make(.row, pieces.map { $0.withRole(.item) })
    }
}

/// The precedence parser over the tokens of one expression.
struct ExpressionParser {
    /// The tokens (a slice of the row's: indices start at `tokens.startIndex`).
    let tokens: ArraySlice<Token>
    let analyzer: Analyzer
    var pos: Int
    /// Integrals whose differential has not been read yet: a differential ends their body.
    var openIntegrals = 0
    /// Nesting of big-operator, limit and function bodies.
    var bodyDepth = 0

    init(tokens: ArraySlice<Token>, analyzer: Analyzer) {
        self.tokens = tokens
        self.analyzer = analyzer
        self.pos = tokens.startIndex
    }

    var atEnd: Bool { pos >= tokens.endIndex }

    // MARK: Levels

    /// Binary operators other than the multiplicative ones, all in one ``SemanticKind/infix``; an
    /// evaluation bar wraps what precedes it.
    mutating func additive() -> SemanticNode? {
        let first = term()
        // Most calls find one operand and no operator: no lists to build.
        if atEnd || (tokens[pos].kind != .evaluationBar && tokens[pos].kind != .additive
                     && !(tokens[pos].kind == .multiplicative && first == nil)) {
            return first?.withRole(.none)
        }
        var children: [SemanticNode] = []
        var operators: [String] = []
        if let t = first { children.append(t.withRole(.item)) }
        while !atEnd {
            let t = tokens[pos]
            if t.kind == .evaluationBar {
                pos += 1
                let body = finishInfix(children, operators)
                children = [evaluated(body, t).withRole(.item)]
                operators = []
                continue
            }
            guard t.kind == .additive || (t.kind == .multiplicative && children.isEmpty) else { break }
            pos += 1
            children.append(t.node.withRole(.operator))
            if !operators.contains(t.text) { operators.append(t.text) }
            if let n = term() { children.append(n.withRole(.item)) }
        }
        if children.isEmpty { return nil }
        return finishInfix(children, operators)
    }

    func finishInfix(_ children: [SemanticNode], _ operators: [String]) -> SemanticNode {
        // An operand alone, or an operator alone (`A^{\dagger}`, `x^{*}`).
        if children.count == 1 { return children[0].withRole(.none) }
        if children.isEmpty { return SemanticNode(.empty) }
        return .make(.infix, children, props: ["operators": operators.joined(separator: " ")])
    }

    func evaluated(_ body: SemanticNode, _ bar: Token) -> SemanticNode {
        var children = [body.withRole(.body)]
        var props: SemanticProperties = ["bar": "true"]
        if let l = bar.big?.lower { children.append(l.withRole(.lower)); props["lower"] = "true" }
        if let u = bar.big?.upper { children.append(u.withRole(.upper)); props["upper"] = "true" }
        return .make(.evaluatedAt, children, props: props, range: SourceRange.union(body.range, bar.big?.range))
    }

    /// `× ÷ ⋅ * /` in one ``SemanticKind/infix``; `mod` makes a ``SemanticKind/modulo``.
    mutating func term() -> SemanticNode? {
        let first = unary()
        if atEnd || (tokens[pos].kind != .modulo && tokens[pos].kind != .multiplicative) { return first?.withRole(.none) }
        var children: [SemanticNode] = []
        var operators: [String] = []
        if let u = first { children.append(u.withRole(.item)) }
        while !atEnd {
            let t = tokens[pos]
            if t.kind == .modulo {
                pos += 1
                let left = children.isEmpty ? nil : finishInfix(children, operators)
                let right = unary()
                var c: [SemanticNode] = []
                if let left { c.append(left.withRole(.item)) }
                if let right { c.append(right.withRole(.argument)) }
                let form = t.node.properties["class"] == "bin" ? "bmod" : "mod"
                let m = SemanticNode.make(.modulo, c, props: ["form": form],
                                          range: SourceRange.union(SourceRange.union(left?.range, t.node.range), right?.range))
                children = [m.withRole(.item)]
                operators = []
                continue
            }
            guard t.kind == .multiplicative else { break }
            pos += 1
            children.append(t.node.withRole(.operator))
            if !operators.contains(t.text) { operators.append(t.text) }
            if let u = unary() { children.append(u.withRole(.item)) }
        }
        if children.isEmpty { return nil }
        return finishInfix(children, operators)
    }

    /// Prefix `− + ± ∓` before a product: `negative`, `positive`, `plus-minus`, `minus-plus`
    /// (ClearSpeak: "negative 7", "the negative of").
    mutating func unary() -> SemanticNode? {
        var prefixes: [Token] = []
        while !atEnd, tokens[pos].kind == .additive, ExpressionParser.prefixName(tokens[pos].text) != nil {
            prefixes.append(tokens[pos])
            pos += 1
        }
        var result = juxtaposition()
        for p in prefixes.reversed() {
            if let r = result {
                let name = ExpressionParser.prefixName(p.text)!
                result = .make(.prefix, [p.node.withRole(.operator), r.withRole(.argument)], props: ["operator": name],
                               range: SourceRange.union(p.node.range, r.range))
            } else {
                result = p.node
            }
        }
        return result
    }

    static func prefixName(_ text: String) -> String? {
        guard let u = text.soleScalar else { return nil }
        switch u {
        case "−", "-": return "negative"
        case "+": return "positive"
        case "±": return "plus-minus"
        case "∓": return "minus-plus"
        default: return nil
        }
    }

    /// Juxtaposed factors: ``SemanticKind/impliedTimes`` (after merging mixed numbers, `\pmod` and
    /// degrees-minutes), or the single factor.
    mutating func juxtaposition() -> SemanticNode? {
        let factors = juxtaposed(argumentRun: false)
        return analyzer.product(factors)
    }

    /// The factors from here to the next operator. In a function's argument run (`argumentRun`), a
    /// further function name, big operator or limit after a factor ends the run (`\sin x \cos y`).
    mutating func juxtaposed(argumentRun: Bool) -> [SemanticNode] {
        var out: [SemanticNode] = []
        while !atEnd {
            let t = tokens[pos]
            switch t.kind {
            case .operand, .postfix:
                out.append(factor())
            case .function, .word:
                if argumentRun && !out.isEmpty { return out }
                out.append(application())
            case .prefix:
                pos += 1
                if ExpressionParser.isGeometric(t.text) {
                    // ∠ABC, △ABC: the letters after the sign name the figure.
                    let run = juxtaposed(argumentRun: true)
                    if let a = analyzer.product(run) {
                        out.append(.make(.prefix, [t.node.withRole(.operator), a.withRole(.argument)], props: ["operator": ExpressionParser.quantifierName(t.text)],
                                         range: SourceRange.union(t.node.range, a.range)))
                    } else {
                        out.append(t.node)
                    }
                } else if !atEnd, tokens[pos].kind == .operand || tokens[pos].kind == .function {
                    let a = tokens[pos].kind == .function ? application() : factor()
                    out.append(.make(.prefix, [t.node.withRole(.operator), a.withRole(.argument)], props: ["operator": ExpressionParser.quantifierName(t.text)],
                                     range: SourceRange.union(t.node.range, a.range)))
                } else {
                    out.append(t.node)
                }
            case .bigOperator:
                if argumentRun && !out.isEmpty { return out }
                out.append(bigOperator())
            case .limit:
                if argumentRun && !out.isEmpty { return out }
                out.append(limit())
            case .differential:
                if openIntegrals > 0 { return out }
                pos += 1
                out.append(t.node)
            case .apply:
                pos += 1
            default:
                return out
            }
        }
        return out
    }

    static func isQuantifier(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        return u == "∀" || u == "∃" || u == "∄"
    }

    static func isGeometric(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        return u == "∠" || u == "∡" || u == "△" || u == "▵" || u == "⊾"
    }

    static func quantifierName(_ text: String) -> String {
        switch text {
        case "¬": return "not"
        case "∀": return "for-all"
        case "∃": return "exists"
        case "∄": return "not-exists"
        case "∠": return "angle"
        case "∡": return "measured-angle"
        case "△", "▵": return "triangle"
        case "⊾": return "right-angle"
        default: return text
        }
    }

    // MARK: Factors

    /// One operand with what binds tighter than juxtaposition: scripts written on its closing fence,
    /// postfix operators, a parenthesised argument when it is a function (ClearSpeak "Functions"),
    /// ∇ before an operand.
    mutating func factor() -> SemanticNode {
        let t = tokens[pos]
        pos += 1
        if t.kind == .postfix { return t.node }       // a postfix with nothing before it
        var n: SemanticNode
        if let g = t.fence { n = analyzer.finishFence(g.node, g) } else { n = t.node }
        n = postfixes(n)
        // U+2061 FUNCTION APPLICATION: the next operand is the argument.
        if t.forcedFunction, !atEnd {
            let next = tokens[pos]
            if next.kind == .operand {
                pos += 1
                var props: SemanticProperties = ["function-class": n.kind == .functionName ? (n.properties["function-class"] ?? "named") : "generic"]
                let arg: SemanticNode
                if let g = next.fence, g.isArgumentLike {
                    props["argument-fenced"] = "true"
                    return postfixes(analyzer.finishFence(analyzer.application(n, g.plain, props), g))
                } else if let g = next.fence {
                    arg = postfixes(analyzer.finishFence(g.node, g))
                } else {
                    arg = postfixes(next.node)
                }
                return analyzer.application(n, arg, props)
            }
            if next.kind == .function || next.kind == .word {
                let a = application()
                return analyzer.application(n, a, ["function-class": "generic"])
            }
        }
        // ∇ before an operand.
        if n.kind == .identifier, n.text.soleScalar == "∇", !atEnd, tokens[pos].kind == .operand, tokens[pos].fence == nil {
            let a = tokens[pos].node
            pos += 1
            return .make(.prefix, [n.withRole(.operator), postfixes(a).withRole(.argument)], props: ["operator": "nabla"],
                         range: SourceRange.union(n.range, a.range))
        }
        // A letter before parentheses: f(x) is an application; k(5) may be one.
        if !atEnd, let g = tokens[pos].fence, g.isArgumentLike {
            switch analyzer.functionLikeness(n) {
            case .generic(let props):
                pos += 1
                var p = props
                p["argument-fenced"] = "true"
                let app = analyzer.application(n, g.plain, p)
                return postfixes(analyzer.finishFence(app, g))
            case .possible:
                pos += 1
                let arg = postfixes(analyzer.finishFence(g.plain, g))
                return analyzer.impliedTimes([n, arg], props: ["possible-function": "true"])
            case .none:
                break
            }
        }
        return n
    }

    /// `!`, `!!`, `%`, primes and `°` after an operand.
    mutating func postfixes(_ base: SemanticNode) -> SemanticNode {
        var n = base
        while !atEnd, tokens[pos].kind == .postfix, let kind = tokens[pos].postfix {
            let t = tokens[pos]
            pos += 1
            let range = SourceRange.union(n.range, t.node.range)
            switch kind {
            case .factorial(var count):
                // `n!!` written as two marks is the double factorial.
                while !atEnd, tokens[pos].kind == .postfix, case .factorial(let more)? = tokens[pos].postfix {
                    count += more
                    pos += 1
                }
                n = .make(.factorial, [n.withRole(.argument)], props: count > 1 ? ["count": String(count)] : [:], range: range)
            case .percent:
                n = .make(.percent, [n.withRole(.quantity)], range: range)
            case .degrees:
                n = .make(.degrees, [n.withRole(.quantity)], range: range)
            case .primes(let c):
                var s = Analyzer.Scripts()
                s.primes = c
                s.range = t.node.range
                n = analyzer.apply(s, to: n, range: range)
            }
        }
        return n
    }

    /// A named function and its argument: a parenthesised group right after it, otherwise the
    /// factors up to the next operator or function name (ClearSpeak "Trigonometric functions":
    /// `\sin 2x`, `\sin x + 1`).
    mutating func application() -> SemanticNode {
        let head = tokens[pos]
        pos += 1
        if !atEnd, tokens[pos].kind == .apply { pos += 1 }
        var props = head.applicationProps
        if !atEnd, let g = tokens[pos].fence, g.parenLike || (g.open == "(" && !g.close.isEmpty) {
            pos += 1
            var function = head.node
            // A binomial, matrix or \pmod keeps its own reading as the argument.
            let argument = g.isArgumentLike ? g.plain : analyzer.finishFence(g.node, g)
            if head.kind == .word {
                props["function-class"] = "named"
                function = analyzer.functionName(head.node.text, range: head.node.range)
            }
            if !g.isArgumentLike { return postfixes(analyzer.application(function, argument, props)) }
            props["argument-fenced"] = "true"
            let app = analyzer.application(function, argument, props)
            return postfixes(analyzer.finishFence(app, g))
        }
        if head.kind == .word {
            return postfixes(head.node)
        }
        if bodyDepth >= Analyzer.maxBodyDepth { return head.node }
        bodyDepth += 1
        let args = juxtaposed(argumentRun: true)
        bodyDepth -= 1
        guard let arg = analyzer.product(args) else { return head.node }
        return analyzer.application(head.node, arg, props)
    }

    /// A big operator and its body: for sums and products the factors up to the next additive
    /// operator or relation; for integrals everything up to the differential, which becomes a
    /// `differential` child.
    mutating func bigOperator() -> SemanticNode {
        let head = tokens[pos]
        pos += 1
        guard let big = head.big else { return head.node }
        var diffs: [SemanticNode] = []
        var body: SemanticNode? = nil
        if bodyDepth < Analyzer.maxBodyDepth {
            bodyDepth += 1
            if big.integrals > 0 {
                if !atEnd, tokens[pos].kind == .differential {
                    diffs.append(tokens[pos].node)
                    pos += 1
                    body = term()
                } else if differentialAhead() {
                    openIntegrals += 1
                    body = additive()
                    openIntegrals -= 1
                    while !atEnd, tokens[pos].kind == .differential, diffs.count < max(1, big.integrals) {
                        diffs.append(tokens[pos].node)
                        pos += 1
                    }
                } else {
                    body = term()
                }
            } else {
                body = term()
            }
            bodyDepth -= 1
        }
        var children = [big.head.withRole(.operator)]
        if let l = big.lower { children.append(l.withRole(.lower)) }
        if let u = big.upper { children.append(u.withRole(.upper)) }
        if let body { children.append(body.withRole(.body)) }
        var props: SemanticProperties = ["operator-name": big.name]
        if let p = big.placement { props["limits-placement"] = p }
        if big.lower != nil { props["lower"] = "true" }
        if big.upper != nil { props["upper"] = "true" }
        if !diffs.isEmpty {
            for d in diffs { children.append(d.withRole(.differential)) }
            props["differential"] = diffs.map { $0.child(.variable)?.coreIdentifier?.text ?? "" }.joined(separator: " ")
        }
        var range = big.range ?? head.node.range
        for c in children { range = SourceRange.union(range, c.range) }
        return .make(.bigOperator, children, props: props, range: range)
    }

    /// Whether a differential follows before the end of this expression.
    func differentialAhead() -> Bool {
        var i = pos
        while i < tokens.endIndex {
            if tokens[i].kind == .differential { return true }
            i += 1
        }
        return false
    }

    /// `\lim_{x \to 0}`, `\max_x`, `\limsup`: ``SemanticKind/limit`` with its body (the following
    /// factors, like a sum's).
    mutating func limit() -> SemanticNode {
        let head = tokens[pos]
        pos += 1
        guard let big = head.big else { return head.node }
        var body: SemanticNode? = nil
        if bodyDepth < Analyzer.maxBodyDepth {
            bodyDepth += 1
            body = term()
            bodyDepth -= 1
        }
        if big.lower == nil && big.upper == nil && body == nil { return big.head }
        var children = [big.head.withRole(.function)]
        if let l = big.lower { children.append(l.withRole(.lower)) }
        if let u = big.upper { children.append(u.withRole(.upper)) }
        if let body { children.append(body.withRole(.body)) }
        var props: SemanticProperties = ["function-class": big.head.properties["function-class"] ?? "limit"]
        if let p = big.placement { props["limits-placement"] = p }
        if big.lower != nil { props["lower"] = "true" }
        if big.upper != nil { props["upper"] = "true" }
        var range = big.range ?? head.node.range
        for c in children { range = SourceRange.union(range, c.range) }
        return .make(.limit, children, props: props, range: range)
    }
}

extension Analyzer {
    /// How a node before a parenthesised group reads (ClearSpeak "Functions", Functions_Auto).
    enum FunctionLikeness {
        /// f, g, h, F, G, H (also subscripted), a letter with primes (`f'`), a letter with `^{-1}`:
        /// an application, with `function-class` = `generic` and power facts.
        case generic(SemanticProperties)
        /// Another letter: implied times marked `possible-function` (rules choose "k of 5" or
        /// "a times (b + c)" from the argument).
        case possible
        case none
    }

    /// f, g, h, F, G, H: the letters ClearSpeak reads as functions before parentheses.
    static func isGenericFunctionLetter(_ l: String) -> Bool {
        guard let u = l.soleScalar else { return false }
        switch u {
        case "f", "g", "h", "F", "G", "H": return true
        default: return false
        }
    }

    func functionLikeness(_ n: SemanticNode) -> FunctionLikeness {
        var props: SemanticProperties = ["function-class": "generic"]
        switch n.kind {
        case .identifier:
            guard let l = n.letter else { return .none }
            return Analyzer.isGenericFunctionLetter(l) ? .generic(props) : .possible
        case .subscript:
            guard let b = n.child(.base), let l = b.letter else { return .none }
            return Analyzer.isGenericFunctionLetter(l) ? .generic(props) : .possible
        case .primes:
            guard let core = n.coreIdentifier, core.has("letter") else { return .none }
            return .generic(props)
        case .power:
            guard let b = n.child(.base), let e = n.child(.exponent), let core = b.coreIdentifier, let l = core.letter else {
                return .none
            }
            let pp = Analyzer.powerProps(e)
            if pp["inverse"] != nil || Analyzer.isGenericFunctionLetter(l) || b.kind == .primes {
                props.merge(pp) { a, _ in a }
                return .generic(props)
            }
            return .none
        case .fenced:
            // (g ∘ h)(t)
            if let c = n.child(.content), c.kind == .infix, c.properties["operators"] == "∘" { return .generic(props) }
            return .none
        default:
            return .none
        }
    }

    /// An ``SemanticKind/application``, with `function-name` (the name or letter of the function, for
    /// rules that speak it apart from its scripts) and `simple-argument` (ClearSpeak "Trigonometric
    /// functions", "Logarithms": "sine x" but "the sine of pi over 4").
    func application(_ function: SemanticNode, _ argument: SemanticNode, _ props: SemanticProperties) -> SemanticNode {
        var p = props
        var core: SemanticNode? = function
        var steps = 0
        while let c = core, c.kind != .functionName, c.kind != .identifier, steps < 8 {
            core = c.child(.base)
            steps += 1
        }
        if let c = core, c.kind == .functionName || c.kind == .identifier { p["function-name"] = c.text }
        let inner = argument.kind == .fenced ? (argument.child(.content) ?? argument) : argument
        if Facts.isSimple(inner, strict: true) { p["simple-argument"] = "true" }
        return .make(.application, [function.withRole(.function), argument.withRole(.argument)], props: p)
    }

    /// Applies scripts written on a closing fence to what the group became (`(x+1)^2`, `f(x)^2`,
    /// `|x|^2`); a bracket with a subscript is an evaluation (`[F(x)]_a^b`).
    func finishFence(_ n: SemanticNode, _ g: Token.FenceGroup) -> SemanticNode {
        guard let s = g.scripts, !s.isEmpty else { return n }
        if g.open == "[" && g.close == "]" && s.sub != nil && n.kind != .application {
            var children = [(g.node.child(.content) ?? n).withRole(.body)]
            var props: SemanticProperties = ["fence": "brackets"]
            if let l = s.sub { children.append(l.withRole(.lower)); props["lower"] = "true" }
            if let u = s.sup { children.append(u.withRole(.upper)); props["upper"] = "true" }
            return .make(.evaluatedAt, children, props: props, range: SourceRange.union(n.range, g.scriptsRange))
        }
        return apply(s, to: n, range: SourceRange.union(n.range, g.scriptsRange))
    }

    /// Juxtaposed factors as one node: mixed numbers (ClearSpeak "Mixed numbers": a whole number
    /// before a fraction of integers), `a \pmod{n}`, and minutes after degrees (ClearSpeak Prime_Auto:
    /// `30^\circ 15'` is 15 minutes); then ``SemanticKind/impliedTimes`` when several remain.
    func product(_ factors: [SemanticNode]) -> SemanticNode? {
        if factors.isEmpty { return nil }
        if factors.count == 1 { return factors[0] }
        var out: [SemanticNode] = []
        out.reserveCapacity(factors.count)
        for f in factors {
            if let last = out.last {
                if last.kind == .number, last.has("integer"), last.properties["repeating-decimal"] == nil,
                   f.kind == .fraction, f.properties["numerator-value"] != nil, f.properties["denominator-value"] != nil {
                    out[out.count - 1] = .make(.mixedNumber, [last.withRole(.whole), f.withRole(.item)])
                    continue
                }
                if f.kind == .modulo, f.child(.item) == nil, f.has("parenthesised") {
                    var children = [last.withRole(.item)]
                    children.append(contentsOf: f.children)
                    var props = f.properties
                    props["form"] = "pmod"
                    out[out.count - 1] = .make(.modulo, children, props: props)
                    continue
                }
                // 25^\circ\mathrm{C}: degrees on a temperature scale.
                if last.kind == .degrees, last.properties["scale"] == nil, f.kind == .identifier,
                   f.properties["variant"] == "normal" || f.properties["variant"] == nil,
                   let scale = f.text == "C" ? "celsius" : f.text == "F" ? "fahrenheit" : nil {
                    var children = last.children
                    children.append(f.withRole(.unit))
                    out[out.count - 1] = .make(.degrees, children, props: ["scale": scale])
                    continue
                }
                if f.kind == .measurement, f.properties["prime-unit"] != nil,
                   last.kind == .degrees || last.has("after-degrees") {
                    var props = f.properties
                    props["after-degrees"] = "true"
                    props["unit-name"] = props["prime-unit"] == "1" ? "arcmin" : "arcsec"
                    out.append(f.rebuilt(.measurement, props: props))
                    continue
                }
            }
            out.append(f)
        }
        if out.count == 1 { return out[0] }
        return impliedTimes(out)
    }

    /// ``SemanticKind/impliedTimes`` over `factors`, with an invisible-times operator leaf (U+2062,
    /// class `bin`) between each two so rules can speak "times" where ClearSpeak ImpliedTimes wants it.
    func impliedTimes(_ factors: [SemanticNode], props: SemanticProperties = [:]) -> SemanticNode {
        var children: [SemanticNode] = []
        children.reserveCapacity(factors.count * 2)
        for (i, f) in factors.enumerated() {
            if i > 0 {
                let gap: SourceRange? = factors[i - 1].range.flatMap { a in f.range.map { b in SourceRange(a.upperBound, max(a.upperBound, b.lowerBound)) } }
                children.append(SemanticNode(.operator, text: "\u{2062}", role: .operator, properties: ["class": "bin"], range: gap))
            }
            children.append(f.withRole(.item))
        }
        return .make(.impliedTimes, children, props: props)
    }
}
