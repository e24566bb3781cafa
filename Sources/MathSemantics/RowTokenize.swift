import MathSyntax

extension Analyzer {
    // MARK: Tokens

    /// Turns the items in `range` into tokens, appended to ``tokens``; matched fence pairs become one
    /// operand each, whose content is tokenised and parsed recursively (one level per bracket, bounded
    /// by ``Analyzer/maxGroupDepth``). A full stop at the end is sentence punctuation: it is left out of
    /// the tokens and returned.
    @discardableResult
    mutating func tokenize(_ range: Range<Int>, _ ctx: Context) -> NodeID? {
        let start = tokens.count
        let outerRowStart = rowStart
        rowStart = start
        defer { rowStart = outerRowStart }
        var i = range.lowerBound
        var sawIntegral = false
        var sawDifferentialMark = false
        while i < range.upperBound {
            let partner = Int(items[i].match)
            if partner > i, partner < range.upperBound {
                let t = groupToken(i, partner, ctx, argument: followsFunction(start))
                // A remark in parentheses after what it remarks on (`x + 2 (\text{add 18 to both sides})`, OpenStax's algebra
                // books' steps) is set apart as a wide space sets a list's items apart: it was a factor, "x plus 2 times add
                // 18 to both sides". After a letter it is an argument (`P(\text{two heads})`, `n(\text{cake and ice cream})`).
                if tokens.count > start, tokens[tokens.count - 1].kind == .operand || tokens[tokens.count - 1].kind == .postfix,
                   kind(tokens[tokens.count - 1].node) != .identifier, isRemark(t) {
                    tokens.push(Token(.wideSpace, empty(nil)))
                }
                tokens.push(t)
                i = partner + 1
                continue
            }
            let item = items[i]
            // A lone `{` before a table that ends the row is cases (MathML writes `<mo>{</mo><mtable>`
            // with no closing fence, or an empty one that the reader dropped), also when the sentence's
            // full stop or comma follows it (`<mrow><mrow><mo>{</mo><mtable>…</mtable></mrow><mo>.</mo></mrow>`:
            // OpenStax's algebra books end their systems of equations so, textbook sweep 11).
            if item.match == RowItem.looseFence, item.scalar == "{", i + 2 <= range.upperBound,
               i + 2 == range.upperBound || (i + 3 == range.upperBound && items[i + 2].kind == .operator
                                             && (items[i + 2].scalar == "." || items[i + 2].scalar == ",")),
               let table = items[i + 1].withRaw({ Analyzer.soleTable($0) }), let table {
                let t = node(table, ctx)
                if kind(t) == .lines {
                    let r = SourceRange.union(item.withRaw { $0.range } ?? nil, table.range)
                    tokens.push(Token(.operand, fencedTable(t, open: "{", close: "", range: r)))
                    i += 2
                    continue
                }
            }
            // A raw item's node is read borrowed: the input tree holds it throughout.
            if item.match == RowItem.looseBar || item.match == RowItem.looseFence, let t = item.withRaw({ m in
                item.match == RowItem.looseBar ? looseBarToken(m, ctx) : looseFenceToken(m, ctx)
            }) {
                tokens.push(t)
            } else if let seen = item.withRaw({ m -> (integral: Bool, differentialMark: Bool) in
                // The token is pushed here, where it is made: handed out of the closure (as `Token??`)
                // it was taken apart field by field and put together again, some 110 instructions a
                // token (`MathAloudBench stages` under callgrind, session 12).
                // An invisible separator between the scripted parts of a chemical formula (`H₂⁣O`,
                // `Fe^{II}⁣O_4`, as MathML of mhchem writes them) joins them as an invisible times does.
                if item.scalar == "\u{2063}", isSeparatorInFormula(i, range) { return (false, false) }
                guard var t = classify(m, item.kind, scalar: item.scalar, nameClass: item.nameClass, ctx) else {
                    if item.scalar == "\u{2062}", tokens.count > start { tokens[tokens.count - 1].explicitTimes = true }
                    return (false, false)
                }
                if t.kind == .additive, Analyzer.writtenInfix(m) == true { t.writtenInfix = true }
                if t.kind == .apply {
                    if tokens.count > start { tokens[tokens.count - 1].forcedFunction = true }
                    return (false, false)
                }
                let seen = (integral: t.kind == .bigOperator && bigs[Int(t.big)].integrals > 0,
                            differentialMark: t.kind == .operand && isDifferentialMark(t))
                tokens.push(t)
                // A blank between an operand and a sign stands for the relation or operator to fill in (`<mn>2</mn><mo>___</mo><mn>−20</mn>`,
                // "fill in <, > or =", as OpenStax's prealgebra sets 80 exercises, textbook sweep 16): the sign is the next number's, as
                // after a relation ("2 blank negative 20"; it was "2 blank minus 20", the blank a factor).
                if t.kind == .additive, !t.writtenInfix, tokens.count - start >= 3, tokens[tokens.count - 2].kind == .operand,
                   has(tokens[tokens.count - 2].node, .blank), Analyzer.prefixName(tokenScalar(t)) != nil,
                   tokens[tokens.count - 3].kind == .operand || tokens[tokens.count - 3].kind == .postfix {
                    tokens[tokens.count - 2].kind = .relation
                }
                // A word set as text before a minus and a number stands between clauses, as a relation does (`<mtext>Multiply
                // by</mtext><mn>−1</mn>`, `<mn>1</mn><mtext>and</mtext><mn>−1</mn>`, `\text{is }-4`: OpenStax's algebra books, textbook
                // sweep 17): the sign is the number's ("Multiply by negative 1"; it was "Multiply by minus 1", the words a
                // left operand). A word is such a text when it stands between an operand and the sign, or when it opens the
                // row (or follows its punctuation) spaced as prose, a space in it or at its edge. A word after a relation
                // names a quantity (`\text{net} = \text{gross income} - 1.5`), as a word alone before a sign does
                // (`\text{Profit} - 500`), and element symbols are a formula (`2\,\text{CuI} + 4\,\text{KCl}`): they stay operands.
                if t.kind == .operand, kind(t.node) == .number, tokens.count - start >= 3, case let sign = tokens[tokens.count - 2],
                   sign.kind == .additive, !sign.writtenInfix, Analyzer.prefixName(tokenScalar(sign)) == .negative,
                   case let word = tokens[tokens.count - 3], Analyzer.isWord(word, b.records),
                   case let written = text(word.node), SemanticTree.Records.elementRunCount(written.trimmingSpaces) == nil {
                    let before = tokens.count - start >= 4 ? tokens[tokens.count - 4].kind : nil
                    if before == .operand || before == .postfix
                        || isProse(written) && (before == nil || before == .punctuation || before == .wideSpace) {
                        tokens[tokens.count - 3].kind = .relation
                    }
                }
                // `<<` and `>>` written as two relations with nothing between them are ≪ and ≫.
                if t.kind == .relation, tokens.count - start >= 2, let u = tokenScalar(t), u == "<" || u == ">" {
                    let a = tokens[tokens.count - 2]
                    if a.kind == .relation, tokenScalar(a) == u {
                        let r = SourceRange.union(self.range(a.node), self.range(t.node))
                        tokens.truncate(to: tokens.count - 2)
                        let leaf = operatorLeaf(u == "<" ? "≪" : "≫", .rel, range: r)
                        tokens.push(Token(.relation, leaf, text: leaf))
                    }
                }
                // `\arg` right before `\min` or `\max`: one operator, arg min (limit-like with the scripts).
                if t.kind == .function || t.kind == .limit, tokens.count - start >= 2 { mergeArgExtremum() }
                // Three centred dots with nothing between them (`\cdot\cdot\cdot`) are an ellipsis, ⋯.
                if t.kind == .multiplicative, tokens.count - start >= 3, let u = tokenScalar(t), u == "⋅" || u == "·" {
                    let (a, b) = (tokens[tokens.count - 3], tokens[tokens.count - 2])
                    if a.kind == .multiplicative, b.kind == .multiplicative, tokenScalar(a) == u, tokenScalar(b) == u {
                        let r = SourceRange.union(self.range(a.node), self.range(t.node))
                        tokens.truncate(to: tokens.count - 3)
                        let n = ellipsis("⋯", range: r)
                        tokens.push(Token(.operand, n, text: n))
                    }
                }
                return seen
            }) {
                if seen.integral { sawIntegral = true }
                if seen.differentialMark { sawDifferentialMark = true }
            } else if item.kind == .wideSpace {
                tokens.push(Token(.wideSpace, empty(item.spaceRange)))
            } else if item.kind == .operand {
                tokens.push(Token(.operand, item.operand))
            }
            i += 1
        }
        if sawDifferentialMark { markDifferentials(from: start, afterIntegral: sawIntegral) }
        // ∩ S_i with nothing to its left (not in a script: V^{⊗n}), and ∪_{i=1}^{n} S_i after a relation
        // or another operator: the n-ary ⋂, ⋃ (its operand is its body, its scripts are its limits).
        if tokens.count - start > 1 {
            var k = start
            while k < tokens.count - 1 {
                if tokens[k].kind == .additive, let nary = Vocabulary.naryForm(tokenScalar(tokens[k])),
                   let limits = naryLimits(tokens[k]) {
                    let scripted = limits.lower != nil || limits.upper != nil
                    let after: Bool
                    switch tokens[k == start ? k : k - 1].kind {
                    case .relation, .punctuation, .additive, .multiplicative: after = true
                    default: after = false
                    }
                    if (k == start && !ctx.script) || (after && scripted) {
                        let leaf = operatorLeaf(String(nary), .op, range: self.range(tokens[k].textNode))
                        tokens[k] = bigOperatorToken(leaf, lower: limits.lower, upper: limits.upper,
                                                     placement: scripted ? .scripts : nil, range: self.range(tokens[k].node))
                    }
                }
                k += 1
            }
        }
        // A full stop at the end is sentence punctuation, not math.
        if tokens.count - start > 1, let last = tokens.last, last.kind == .operand, kind(last.node) == .operator,
           tokenText(last) == "." {
            tokens.pop()
            return last.node
        }
        return nil
    }

    /// The scripts of a binary operator's token (`∪_{i=1}^{n}`: the operator with a subscript, a
    /// superscript or both), as limits; nil when the token is something else (primes, a stacked
    /// operator).
    func naryLimits(_ t: Token) -> (lower: NodeID?, upper: NodeID?)? {
        if t.node == t.textNode { return (nil, nil) }
        var inner = t.node, upper: NodeID? = nil, lower: NodeID? = nil
        if kind(inner) == .power {
            guard let e = child(inner, .exponent), let b = child(inner, .base) else { return nil }
            upper = e
            inner = b
        }
        if kind(inner) == .subscript {
            guard let s = child(inner, .subscript), let b = child(inner, .base) else { return nil }
            lower = s
            inner = b
        }
        return inner == t.textNode ? (lower, upper) : nil
    }

    /// The table a node is, or wraps in rows of one child (MathML `<mrow><mtable>…</mtable></mrow>`).
    static func soleTable(_ m: MathNode) -> MathNode? {
        var n = m
        while case .row = n.kind, n.children.count == 1 { n = n.children[0] }
        if case .table = n.kind { return n }
        return nil
    }

    /// Two or more low lines (U+005F, or full-width U+FF3F) and nothing else but spaces.
    static func isBlankRun(_ t: String) -> Bool {
        // Every token of two scalars or more is asked: its first byte answers for nearly all (`_` is 0x5F,
        // U+FF3F begins with 0xEF; a space first is rare).
        guard let first = t.utf8.first, first == 0x5F || first == 0xEF || first == 0x20,
              let (u, count) = t.repeatedScalar else { return false }
        return count >= 2 && (u == "_" || u == "\u{FF3F}")
    }

    /// A ``SemanticKind/unit`` leaf for a unit as written.
    mutating func unitLeaf(_ written: String, key: String? = nil, range: SourceRange?) -> NodeID {
        let mark = b.mark()
        let key = key ?? UnitSymbols.markedKey(written)
        if !key.isEmpty {
            b.string(.unitName, key)
            if UnitSymbols.isCurrency(key) { b.flag(.currency) }
        }
        return b.finish(.unit, mark, text: written, range: range, rangeFromChildren: false)
    }

    /// A token's operator text.
    @inline(__always) func tokenText(_ t: Token) -> String { t.textNode < 0 ? "" : text(t.textNode) }

    /// The only scalar of a token's operator text, if it has exactly one.
    @inline(__always) func tokenScalar(_ t: Token) -> Unicode.Scalar? { t.textNode < 0 ? nil : scalar(t.textNode) }

    /// Whether a text is spaced as prose: a space (or a no-break space) in it or at its edge (`Multiply by`, `is `).
    func isProse(_ text: String) -> Bool {
        text.utf8.contains(0x20) || text.unicodeScalars.contains("\u{A0}")
    }

    /// A bar that did not pair: a relation (`|`: divides, such that, given — ClearSpeak VerticalLine),
    /// or with scripts an evaluation bar (`\Big|_{0}^{1}`, `\biggm|_0^1`, `\mid_{x=0}`).
    mutating func looseBarToken(_ m: MathNode, _ ctx: Context) -> Token {
        switch m.kind {
        case .subscript, .superscript, .subSuperscript:
            return evaluationBarToken(m, head: "|", ctx)
        default:
            let leaf = operatorLeaf(m.leafText ?? "|", .rel, range: m.range)
            return Token(.relation, leaf, text: leaf)
        }
    }

    /// A bar or a closing bracket with scripts that ends what precedes it as an evaluation, of which
    /// the scripts are the limits (``evaluated(_:_:)`` wraps the operand before it).
    private mutating func evaluationBarToken(_ m: MathNode, head text: String, _ ctx: Context) -> Token {
        let (sub, sup) = Analyzer.scriptChildren(m)
        let head = operatorLeaf(text, .ord, range: m.children[0].range)
        let lower = sub.map { node($0, ctx) }
        let upper = sup.map { node($0, ctx) }
        bigs.push(BigParts(head: head, lower: lower, upper: upper, name: .largeOperator, integrals: 0, placement: nil,
                             range: m.range))
        var t = Token(.evaluationBar, empty(m.range))
        t.big = Int32(bigs.count - 1)
        return t
    }

    /// A bracket that did not pair: a plain symbol; a closing square bracket with both limits (`F(x)
    /// \Big]_0^1`, the closing half of `\left. F(x) \right]_0^1` without its opening) an evaluation.
    mutating func looseFenceToken(_ m: MathNode, _ ctx: Context) -> Token {
        if case .subSuperscript = m.kind, m.children.count == 3, let (t, _, _) = m.children[0].operatorParts, t == "]" {
            let (sub, sup) = Analyzer.scriptChildren(m)
            if sub != nil && sup != nil { return evaluationBarToken(m, head: t, ctx) }
        }
        if case .operator(let t, let p) = m.kind {
            let leaf = operatorLeaf(t, p.atomClass, range: m.range)
            return Token(.operand, leaf, text: leaf)
        }
        let (sub, sup) = Analyzer.scriptChildren(m)
        let base: NodeID
        if let first = m.children.first {
            if case .operator(let t, let p) = first.kind { base = operatorLeaf(t, p.atomClass, range: first.range) } else { base = node(first, ctx) }
        } else {
            base = empty(m.range)
        }
        let s = scripts(sub: sub, sup: sup, ctx)
        return Token(.operand, apply(s, to: base, range: m.range))
    }

    /// (subscript, superscript) children of a script node.
    /// An empty script (`\sum_{}`, `x^{}`, `<mrow/>`) shows nothing and is none.
    static func scriptChildren(_ m: MathNode) -> (MathNode?, MathNode?) {
        let c = m.children
        @inline(__always) func at(_ i: Int) -> MathNode? { c.count > i && !c[i].isEmptyRow ? c[i] : nil }
        switch m.kind {
        case .subscript, .under: return (at(1), nil)
        case .superscript, .over: return (nil, at(1))
        case .subSuperscript, .underOver: return (at(1), at(2))
        default: return (nil, nil)
        }
    }

    // MARK: Fence groups

    /// `(` or `[` opening and `)` or `]` closing (fences given by their sole scalars).
    static func isParenLike(_ o: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
        (o == "(" || o == "[") && (c == ")" || c == "]")
    }

    /// A fence group's operand token (the group stored in ``groups``).
    mutating func groupToken(_ g: FenceGroup) -> Token {
        groups.push(g)
        var t = Token(.operand, g.node)
        t.fence = Int32(groups.count - 1)
        return t
    }

    /// Whether group token `t` is parentheses or brackets around prose alone: a text of two words or more (not a function's
    /// argument, `f(\text{time})`, nor a unit or a word with a formula, `3 (\text{mod } 5)`).
    func isRemark(_ t: Token) -> Bool {
        guard t.fence >= 0, groups[Int(t.fence)].parenLike, kind(t.node) == .fenced, let content = child(t.node, .content),
              kind(content) == .text, tree.property(content, .unitName) == nil else { return false }
        var words = 0, inWord = false
        for u in text(content).unicodeScalars {
            if u.properties.isAlphabetic { if !inWord { words += 1; inWord = true } } else if u == " " || u == "\u{A0}" { inWord = false }
        }
        return words >= 2
    }

    /// A matched pair of fence items and what lies between them; `argument`: the pair follows a function's
    /// name (``followsFunction(_:)``), so braces may be its argument's brackets.
    mutating func groupToken(_ open: Int, _ close: Int, _ ctx: Context, argument followsName: Bool = false) -> Token {
        guard let o = items[open].raw, let c = items[close].raw else {
            return Token(.operand, empty(nil))
        }
        // (A group with scripts, `\mathrm{diag}\{\tau_j\}_{j=1}^{p}`, is an indexed family: a set.)
        let argument: Bool
        switch c.kind {
        case .subscript, .superscript, .subSuperscript: argument = false
        default: argument = followsName
        }
        let openText = o.leafText ?? ""
        var closeNode = c
        var scriptsSpec: Scripts? = nil
        switch c.kind {
        case .subscript, .superscript, .subSuperscript:
            closeNode = c.children[0]
            let (sub, sup) = Analyzer.scriptChildren(c)
            scriptsSpec = scripts(sub: sub, sup: sup, ctx)
        default: break
        }
        let closeText = closeNode.leafText ?? ""
        // A matched item is one fence character, its scalar recorded in the item.
        let (os, cs) = (items[open].scalar, items[close].scalar)
        var inner = ctx
        if os == "(" && cs == ")" { inner.parenDepth += 1 }  // Paren_SpeakNestingLevel counts parentheses
        inner.groupDepth += 1
        inner.level += 1
        inner.soleFenceContent = close == open + 2
        let contentStart = tokens.count
        tokenize((open + 1)..<close, inner)
        var stretchy = false
        // Sized by \big… (the operator dictionary's default `stretchy` says nothing about the formula).
        if case .operator(_, let p) = o.kind, p.size != nil { stretchy = true }
        let range = SourceRange.union(o.range, closeNode.range)
        var group = fence(open: openText, os, close: closeText, cs, contentStart..<tokens.count, range: range, stretchy: stretchy,
                          argument: argument, inner)
        tokens.truncate(to: contentStart)
        group.scripts = scriptsSpec
        group.scriptsRange = c.range
        return groupToken(group)
    }

    /// A row kept whole because it is one bracketed group (``Analyzer/isSelfContainedGroup(_:)``):
    /// when its brackets pair, the token keeps the fence, so `f` before it is still applied.
    mutating func groupRowToken(_ m: MathNode, _ ctx: Context, argument: Bool = false) -> Token {
        var ctx = ctx
        ctx.level += 1
        ctx.groupDepth = 0
        let base = items.count
        defer { items.truncate(to: base) }
        flatten(m.children, from: 0)
        premerge(from: base, ctx)
        matchFences(from: base, ctx)
        if items.count > base && items[base].match == Int32(items.count - 1) {
            let t = groupToken(base, items.count - 1, ctx, argument: argument)
            if t.fence >= 0 { return t }
        }
        let tokenBase = tokens.count
        tokenize(base..<items.count, ctx)
        let n = parse(tokenBase..<tokens.count, range: m.range, ctx)
        tokens.truncate(to: tokenBase)
        return Token(.operand, n)
    }

    /// A `\left…\right` node (``MathNode/Kind/fenced``); `argument` as for ``groupToken(_:_:_:argument:)``.
    mutating func fencedGroup(_ m: MathNode, open: String, close: String, _ ctx: Context, argument: Bool = false) -> FenceGroup {
        let o = open.soleScalar, c = close.soleScalar
        var inner = ctx
        if o == "(" && c == ")" { inner.parenDepth += 1 }
        inner.level += 1
        inner.groupDepth = 0
        let base = items.count
        flatten(m.children, from: 0)
        let outerFenceContent = fenceContentBase
        fenceContentBase = base
        premerge(from: base, inner)
        fenceContentBase = outerFenceContent
        matchFences(from: base, inner)
        if o == "[" && c == "]" { markColumnBars(base ..< items.count) }
        inner.soleFenceContent = items.count == base + 1
        let tokenBase = tokens.count
        tokenize(base..<items.count, inner)
        let g = fence(open: open, o, close: close, c, tokenBase..<tokens.count, range: m.range, stretchy: true,
                      argument: argument, inner)
        tokens.truncate(to: tokenBase)
        items.truncate(to: base)
        return g
    }

    /// Whether angle brackets around `content` hold a vector's components, not the two vectors of an
    /// inner product: a list of three children (`⟨a, b⟩`: two items and their comma) of which one item
    /// is nothing an inner product takes (``innerProductOperand(_:depth:)``): a number or a signed one
    /// (`⟨1, 2⟩`, `⟨−2, 2 sin t⟩`, `⟨t, 1⟩`), a fraction (the gradient `⟨∂f/∂x, ∂f/∂y⟩`), a power
    /// (`⟨t, t²⟩`) or a named function or a coordinate applied (`⟨cos t, sin t⟩`, `⟨e^{−t} cos t, e^{−t} sin t⟩`,
    /// `⟨x(t), y(t)⟩`):
    /// a vector function's components, as calculus textbooks write them (OpenStax's Calculus volume 3,
    /// textbook sweeps 11 and 18). `⟨u, v⟩`, `⟨Ax, y⟩`, `⟨u + v, w⟩` and `⟨f, g⟩` stay inner products.
    func holdsComponents(_ content: NodeID) -> Bool {
        guard tree.kind(content) == .list, tree.childCount(content) == 3 else { return false }
        let first = tree.child(content, at: 0).node, last = tree.child(content, at: 2).node
        // Components are separated by a comma; a semicolon pairs (`⟨x²; y⟩`) unless a side is a number.
        if tree.soleScalar(tree.child(content, at: 1).node) == ";" {
            func signedNumber(_ n: NodeID) -> Bool {
                tree.kind(n) == .number || tree.kind(n) == .prefix && (tree.child(n, .argument).map { tree.kind($0) == .number } ?? false)
            }
            return signedNumber(first) || signedNumber(last)
        }
        return !innerProductOperand(first, depth: 0) || !innerProductOperand(last, depth: 0)
    }

    /// Whether `n` is a coordinate letter (x, y, z), primed or indexed: applied, a curve's component.
    func coordinate(_ n: NodeID) -> Bool {
        var n = n
        while tree.kind(n) == .primes || tree.kind(n) == .subscript, let base = child(n, .base) { n = base }
        guard tree.kind(n) == .identifier else { return false }
        let u = tree.soleScalar(n)
        return u == "x" || u == "y" || u == "z"
    }

    /// Whether `n` may be a vector (or a function) an inner product takes: a letter in any font, with
    /// accents, primes, indices, or a mark or a transpose's letter as a superscript (`u`, `\vec u`,
    /// `\mathbf{x}_i`, `f'`, `A^T`, `u^*`, `h^∨`), a placeholder dot (`⟨·, ·⟩`), an inverse (`A^{-1}`), a map
    /// applied (`F(x)`, `Φ(s)`), and a product, sum, difference or negation of those (`Ax`, `A^T y`,
    /// `u + v`, `−u`, `∇f`), in parentheses or not. Not a number, a fraction, a power (`t²`, `e^t`), a
    /// named function applied (`cos t`), a coordinate applied (`x(t)`, `y'(t)`) or anything else.
    func innerProductOperand(_ n: NodeID, depth: Int) -> Bool {
        guard depth < 8 else { return false }
        func items(_ n: NodeID, _ test: (NodeID) -> Bool) -> Bool {
            for i in 0 ..< tree.childCount(n) {
                let l = tree.child(n, at: i)
                guard l.role == SemanticRole.item.rawValue else { continue }
                if !test(l.node) { return false }
            }
            return true
        }
        switch tree.kind(n) {
        case .identifier:
            return true
        case .operator:
            // A placeholder dot (`⟨·, ·⟩`: the inner product as a function).
            let u = tree.soleScalar(n)
            return u == "⋅" || u == "·" || u == "∙"
        case .accent, .subscript, .primes:
            return child(n, .base).map { innerProductOperand($0, depth: depth + 1) } ?? false
        case .power:
            guard let base = child(n, .base), let e = child(n, .exponent),
                  innerProductOperand(base, depth: depth + 1) else { return false }
            // A mark (`u^*`, `h^∨`, `A^†`) or a transpose's letter (`A^T`, `A^t`, `A^H`).
            if kind(e) == .operator { return tree.soleScalar(e) != nil }
            if kind(e) == .identifier {
                let mark = tree.soleScalar(e)
                return Vocabulary.isAdjointMark(mark) || Vocabulary.isTransposeMark(mark) || mark == "t" || mark == "H"
            }
            // An inverse (`A^{-1}x`), not Euler's number's power.
            guard kind(e) == .prefix, let one = child(e, .argument), kind(one) == .number, tree.text(one) == "1",
                  !(kind(base) == .identifier && tree.soleScalar(base) == "e") else { return false }
            return true
        case .prefix:
            return child(n, .argument).map { kind($0) != .number && innerProductOperand($0, depth: depth + 1) } ?? false
        case .impliedTimes:
            // Not a coordinate applied (`⟨x(t), y(t)⟩`: a curve's components); a map applied is one
            // (`⟨Φ(s) e_j, e_k⟩`, `⟨r(g), r(s)⟩`).
            if has(n, .possibleFunction), tree.childCount(n) > 0 { return !coordinate(tree.child(n, at: 0).node) }
            return items(n) { innerProductOperand($0, depth: depth + 1) }
        case .infix:
            return Self.additive(tree.string(n, .operators)) && items(n) { innerProductOperand($0, depth: depth + 1) }
        case .fenced:
            return child(n, .content).map { innerProductOperand($0, depth: depth + 1) } ?? false
        case .styled:
            return child(n, .content).map { innerProductOperand($0, depth: depth + 1) } ?? false
        case .application:
            // A map applied (`⟨F(x^*), x − x^*⟩`), not a named function (`⟨cos t, sin t⟩`) nor a
            // coordinate's derivative (`⟨x'(t), y'(t)⟩`).
            return tree.string(n, .functionClass) == "generic" && !(child(n, .function).map(coordinate) ?? false)
        default:
            return false
        }
    }

    /// Dirac notation inside angle brackets: `⟨φ|ψ⟩` (one bar, `|` or `\mid`, at the top level of
    /// `content`) and `⟨φ|A|ψ⟩` (one bar pair there, which the fence matching made an absolute value),
    /// with something on both sides. Nil for anything else (`⟨a, b⟩`, `⟨|x|⟩`).
    mutating func braKet(_ content: Range<Int>, open: String, close: String, range: SourceRange?, stretchy: Bool,
                         _ inner: Context) -> NodeID? {
        var bar = -1
        for k in content {
            let t = tokens[k]
            let isBar: Bool
            switch t.kind {
            case .relation:
                let u = tokenScalar(t)
                isBar = u == "|" || u == "∣"
            case .operand: isBar = t.fence >= 0 && kind(t.node) == .absoluteValue
            default: isBar = false
            }
            if isBar {
                if bar >= 0 { return nil }
                bar = k
            }
        }
        guard bar > content.lowerBound, bar < content.upperBound - 1 else { return nil }
        let separator = tokens[bar].kind == .relation ? tokenText(tokens[bar]) : "|"
        let middle = tokens[bar].kind == .relation ? nil : child(tokens[bar].node, .content)
        if tokens[bar].kind != .relation && middle == nil { return nil }
        let bra = parse(content.lowerBound..<bar, range: nil, inner)
        let ket = parse((bar + 1)..<content.upperBound, range: nil, inner)
        let mark = b.mark()
        b.add(child: bra, .bra)
        if let middle { b.add(child: middle, .operator) }
        b.add(child: ket, .ket)
        b.string(.open, open)
        b.string(.close, close)
        b.string(.separator, separator)
        if stretchy { b.flag(.stretchy) }
        return b.finish(.braKet, mark, range: range)
    }

    /// The last two tokens `\arg` and `\min` or `\max` (a function, or a limit-like operator with its
    /// scripts) as one, named "arg min" or "arg max", a limit keeping its limits; other tokens as they are.
    /// Out of line: the tokenizer's loop stays small (inlined, it cost 150 instructions a formula).
    @inline(never)
    mutating func mergeArgExtremum() {
        let (a, t) = (tokens[tokens.count - 2], tokens[tokens.count - 1])
        guard let merged = argExtremum(a, t) else { return }
        tokens.truncate(to: tokens.count - 2)
        tokens.push(merged)
    }

    /// What ``mergeArgExtremum()`` makes of `\arg` (`a`) and the token after it (`t`), nil for others.
    mutating func argExtremum(_ a: Token, _ t: Token) -> Token? {
        guard a.kind == .function, kind(a.node) == .functionName, tokenText(a) == "arg" else { return nil }
        let head = t.kind == .limit ? bigs[Int(t.big)].head : t.node
        guard kind(head) == .functionName else { return nil }
        let name = text(head)
        guard name == "min" || name == "max" else { return nil }
        let range = SourceRange.union(self.range(a.node), self.range(head))
        if t.kind == .limit {
            let merged = functionName("arg " + name, range: range, nameClass: .limit)
            bigs[Int(t.big)].head = merged
            bigs[Int(t.big)].range = SourceRange.union(self.range(a.node), bigs[Int(t.big)].range)
            var token = Token(.limit, merged, text: merged)
            token.big = t.big
            return token
        }
        let nameClass = Vocabulary.nameClass("arg " + name)
        let merged = functionName("arg " + name, range: range, nameClass: nameClass)
        var token = Token(.function, merged, text: merged)
        token.application.functionClass = nameClass ?? .named
        return token
    }

    /// Whether the row's last token (the row's tokens start at `start`) is a function's name other than a
    /// transform's: braces after it may group its argument (``fence(open:_:close:_:_:range:stretchy:argument:_:)``).
    func followsFunction(_ start: Int) -> Bool {
        let last = tokens.count - 1
        return last >= start && tokens[last].kind == .function && tokens[last].application.functionClass != .transform
    }

    /// Whether braces whose content is `content` (tokens) group the argument of the function before them
    /// (`argument`: ``followsFunction(_:)`` held where the group began): no comma or set separator inside,
    /// and a function that takes no set (`\max\{a, b\}`, ``Vocabulary/takesSet(_:)``).
    @inline(never)
    func bracesGroupArgument(_ argument: Bool, _ content: Range<Int>) -> Bool {
        guard argument, !content.isEmpty, content.lowerBound > 0, !Vocabulary.takesSet(tokenText(tokens[content.lowerBound - 1])) else {
            return false
        }
        for k in content {
            let kind = tokens[k].kind
            if kind == .punctuation || (kind == .relation && Analyzer.isSetSeparator(tokenScalar(tokens[k]))) { return false }
        }
        return true
    }

    /// What a pair of fences around the tokens `content` means (ClearSpeak "Parentheses", "Absolute
    /// value", "Sets", "Intervals", "Matrices", "Combinations"): absolute value, norm, floor, ceiling,
    /// angle brackets, a bra, ket or bra-ket (``braKet(_:open:close:range:stretchy:_:)``), set or
    /// set-builder, interval candidate, binomial, matrix or cases around a table, `\pmod`, or a plain ``SemanticKind/fenced`` with its nesting level. `o` and `c` are the
    /// fences' sole scalars; `argument`: the pair follows a function's name (braces there may group its
    /// argument, ``bracesGroupArgument(_:_:)``).
    mutating func fence(open: String, _ o: Unicode.Scalar?, close: String, _ c: Unicode.Scalar?, _ content: Range<Int>,
                        range: SourceRange?, stretchy: Bool, argument: Bool = false, _ inner: Context) -> FenceGroup {
        let paren = (o == "(" || o == "[") && (c == ")" || c == "]")
        func group(_ n: NodeID, plain: NodeID? = nil) -> FenceGroup {
            let k = kind(n)
            return FenceGroup(node: n, plain: plain ?? n, open: o, close: c, closeIsEmpty: close.isEmpty, parenLike: paren,
                              isArgumentLike: paren && (k == .fenced || k == .interval))
        }
        // Braces: a set listed or built — except braces that group a function's argument (after its name,
        // with no comma or set separator inside: `\exp\{-x^2\}`), which are brackets like parentheses.
        if o == "{" && c == "}" && !bracesGroupArgument(argument, content) {
            var sep = -1
            for k in content where tokens[k].kind == .relation && Analyzer.isSetSeparator(tokenScalar(tokens[k])) {
                sep = k
                break
            }
            if sep > content.lowerBound {
                let variable = parse(content.lowerBound..<sep, range: nil, inner)
                let condition = parse((sep + 1)..<content.upperBound, range: nil, inner)
                let mark = b.mark()
                b.add(child: variable, .variable)
                b.add(child: condition, .condition)
                b.string(.separator, tokenText(tokens[sep]))
                b.string(.open, open)
                b.string(.close, close)
                return group(b.finish(.setBuilder, mark, range: range))
            }
            if content.isEmpty {
                let mark = b.mark()
                b.flag(.empty)
                b.string(.open, open)
                b.string(.close, close)
                return group(b.finish(.set, mark, range: range, rangeFromChildren: false))
            }
            let inside = parse(content, range: nil, inner)
            let k = kind(inside)
            if k == .lines || k == .cases {
                return group(fencedTable(inside, open: open, close: close, range: range))
            }
            let items = tree.itemCount(inside)
            let mark = b.mark()
            b.add(child: inside, .content)
            b.string(.open, open)
            b.string(.close, close)
            b.integer(.items, items)
            return group(b.finish(.set, mark, range: range))
        }
        if let o, let c, Vocabulary.isAngleOpen(o), Vocabulary.isAngleClose(c),
           let n = braKet(content, open: open, close: close, range: range, stretchy: stretchy, inner) {
            return group(n)
        }
        let inside: NodeID? = content.isEmpty ? nil : parse(content, range: nil, inner)
        if let inside {
            let k = kind(inside)
            if k == .lines || k == .cases {
                return group(fencedTable(inside, open: open, close: close, range: range))
            }
        }
        // Fences other than parentheses and brackets around content: their own kinds (the plain
        // reading is only ever needed for what can follow a function, parentheses and brackets).
        // Fences are one character each: compare scalars (a string switch compares by canonical
        // equivalence, slowly for anything but ASCII).
        if !paren, let inside, let o, let c {
            /// A node of `kind` around the content, with the fence's `open`, `close`, `stretchy`.
            /// The fences as a node of `kind` around `content` (the inside, unless given), with their
            /// characters (the written ones, unless given).
            func wrap(_ kind: SemanticKind, content: NodeID? = nil, open o: String? = nil, close c: String? = nil,
                      flag: PropertyName? = nil) -> FenceGroup {
                let mark = b.mark()
                b.add(child: content ?? inside, .content)
                b.string(.open, o ?? open)
                b.string(.close, c ?? close)
                if stretchy { b.flag(.stretchy) }
                if let flag { b.flag(flag) }
                return group(b.finish(kind, mark, range: range))
            }
            if o == "|" && Vocabulary.isAngleClose(c) { return wrap(.ket) }
            if Vocabulary.isAngleOpen(o) && c == "|" { return wrap(.bra) }
            if o == c && Vocabulary.isSingleBar(o) {
                // Two single bars each side (`||x||_2`, MathML's `<mo>|</mo><mo>|</mo>…`) are the double bar
                // of a norm, as authors type it: an absolute value holding only an absolute value.
                if kind(inside) == .absoluteValue, let norm = child(inside, .content) {
                    return wrap(.norm, content: norm, open: "‖", close: "‖")
                }
                return wrap(.absoluteValue)
            }
            if o == c && Vocabulary.isDoubleBar(o) { return wrap(.norm) }
            switch (o, c) {
            case ("⌊", "⌋"): return wrap(.floor)
            case ("⌈", "⌉"): return wrap(.ceiling)
            default: break
            }
            if Vocabulary.isAngleOpen(o) && Vocabulary.isAngleClose(c) {
                return wrap(.angleBrackets, flag: holdsComponents(inside) ? .components : nil)
            }
        }
        // Plain fenced reading (also the reading of a function argument).
        let plainMark = b.mark()
        b.string(.open, open)
        b.string(.close, close)
        if stretchy { b.flag(.stretchy) }
        if o == "(" && c == ")" { b.integer(.nesting, inner.parenDepth) }  // Paren_SpeakNestingLevel: parentheses only
        if let inside {
            b.add(child: inside, .content)
            b.integer(.items, tree.itemCount(inside))
            let simple = tree.isSimple(inside)
            if simple { b.flag(.simpleContent) }
            let kind = tree.contentKind(inside, simple: simple)
            b.atom(.contentKind, kind)
            // ClearSpeak Paren_Auto: with an exponent, parentheses are silent only around a positive
            // number or a common fraction ("1.5 cubed", "three fifths squared"; not "(-4)^2", "(ab)^4").
            if kind == .number || kind == .commonFraction { b.flag(.silentAsBase) }
        } else {
            b.integer(.items, 0)
            b.flag(.empty)
        }
        let plain = b.finish(.fenced, plainMark, range: range)
        guard let inside else { return group(plain) }
        let k = kind(inside)
        if o == "(" && c == ")" {
            // \binom, {n \choose k}: a fraction without a rule in parentheses.
            if k == .fraction, has(inside, .linethicknessZero),
               let num = child(inside, .numerator), let den = child(inside, .denominator) {
                let mark = b.mark()
                b.add(child: num, .upper)
                b.add(child: den, .lower)
                return group(b.finish(.binomial, mark, range: range), plain: plain)
            }
            // \pmod{n}: "( mod n )".
            if k == .modulo, child(inside, .item) == nil {
                let mark = b.mark()
                b.copyProperties(of: inside)
                b.add(.flag(.parenthesised), since: mark)
                return group(b.copy(inside, kind: .modulo, propertiesSince: mark, range: range), plain: plain)
            }
        }
        // Two comma-separated items between ( [ and ) ]: an interval candidate (ClearSpeak Paren_Interval,
        // Paren_CoordPoint; by default the rules read it as a fenced list).
        if paren, k == .list, tree.childCount(inside) == 3 {
            let first = tree.child(inside, at: 0), comma = tree.child(inside, at: 1), last = tree.child(inside, at: 2)
            if scalar(comma.node) == ",", first.role == SemanticRole.item.rawValue, last.role == SemanticRole.item.rawValue,
               kind(first.node) != .relation, kind(last.node) != .relation {
                let lower = first.node, upper = last.node
                let mark = b.mark()
                b.add(child: lower, .lower)
                b.add(child: upper, .upper)
                b.string(.open, open)
                b.string(.close, close)
                if stretchy { b.flag(.stretchy) }
                if o == "[" { b.flag(.lowerClosed) }
                if c == "]" { b.flag(.upperClosed) }
                if tree.isInfinite(lower) { b.flag(.lowerInfinite) }
                if tree.isInfinite(upper) { b.flag(.upperInfinite) }
                if inner.parenDepth > 0 { b.integer(.nesting, inner.parenDepth) }
                return group(b.finish(.interval, mark, range: range), plain: plain)
            }
        }
        return group(plain)
    }

    /// Separators of set-builder notation: `|`, `∣` (`\mid`), `:`.
    static func isSetSeparator(_ u: Unicode.Scalar?) -> Bool {
        u == "|" || u == "∣" || u == ":"
    }

    // MARK: Classifying one item

    /// An operator leaf's token of `kind`.
    @inline(__always) mutating func leafToken(_ kind: Token.Kind, _ text: String, _ cls: AtomClass, range: SourceRange?,
                                              postfix: Token.Postfix? = nil) -> Token {
        let leaf = operatorLeaf(text, cls, range: range)
        var t = Token(kind, leaf, text: leaf)
        t.postfix = postfix
        return t
    }

    /// The token for one presentation node, a row item of `kind` whose text's sole scalar is `scalar`
    /// (nil for invisible times and invisible plus, which add nothing).
    mutating func classify(_ m: MathNode, _ itemKind: RowItem.Kind, scalar: Unicode.Scalar?, nameClass: PropertyAtom?? = nil,
                           _ ctx: Context) -> Token? {
        // Chemistry is read as a whole.
        if m.attributes != nil, Analyzer.chemistryMark(m) != nil {
            let n = chemistry(m, ctx)
            return Token(.operand, n, text: n)
        }
        // A run of underscores in one token (`<mo>___</mo>`, `<mtext>______</mtext>`: a textbook's blank to
        // fill in, OpenStax's algebra and calculus books, textbook sweep 11) is an operand marked `blank`,
        // not operators said one by one ("underscore underscore underscore").
        if scalar == nil, let t = m.leafText, Self.isBlankRun(t) {
            let mark = b.mark()
            b.flag(.blank)
            let n = b.finish(.identifier, mark, text: t.trimmingSpaces, range: m.range, rangeFromChildren: false)
            return Token(.operand, n, text: n)
        }
        // A unit of measure marked in MathML (`class="MathML-Unit"`, `intent=":unit"`).
        if let attributes = m.attributes, Analyzer.isMarkedUnit(attributes), let t = m.leafText, !t.isEmpty {
            let n = unitLeaf(t.trimmingSpaces, range: m.range)
            return Token(.operand, n, text: n)
        }
        switch itemKind {
        case .operator:
            var (t, cls, large) = m.operatorParts!
            // An operator's name is its letters (`\mathop{\mathrm{\ Spec}}` is "Spec", as MathML reads it).
            // (`scalar` is the text's sole scalar: most operators need no look at the text.)
            if let scalar {
                if scalar.isSpace { return nil }  // a lone space trims to nothing
            } else if let first = t.unicodeScalars.first, let last = t.unicodeScalars.last,
               first.isSpace || last.isSpace {
                t = t.trimmingSpaces
            }
            if t.isEmpty { return nil }  // an empty MathML <mo/> (a placeholder) says nothing
            if scalar == nil, t.containsASCII(0x20), Vocabulary.nameClass(t) == nil {
                // Words (a glyph's alt text): said as words; a name of two words (`lim sup`, `arg max`,
                // `ess inf`: `\limsup`) is the function's, below.
                let n = text(t, range: m.range)
                return Token(.operand, n, text: n)
            }
            // A function name written as an operator (MathML `<mo>cos</mo>`, `<mo>lim</mo>`): as if an identifier.
            if scalar == nil, !large, cls != .bin, cls != .rel, t != "mod", t.unicodeScalars.count > 1, let nc = Vocabulary.nameClass(t) {
                return identifierToken(t, nil, sole: nil, nameClass: nc, range: m.range)
            }
            return operatorToken(t, cls, largeOperator: large, sole: scalar, range: m.range)
        case .identifier:
            let (t, v) = m.identifierParts!
            if t.isEmpty { return nil }  // an empty MathML <mi/> (a placeholder) says nothing
            return identifierToken(t, v, sole: scalar, nameClass: nameClass,
                                   font: m.attributes == nil ? nil : Analyzer.attributeFont(m), range: m.range)
        case .number:
            guard case .number(let t, let v) = m.kind else { return nil }
            if let n = plainNumber(t, variant: v, range: m.range) { return Token(.operand, n, text: n) }
            // Words in a number (MathML `<mn><mglyph alt="my glyph"/></mn>`) are said as words, as in
            // an identifier or an operator.
            if Self.numberIsWords(t) {
                let n = text(t.trimmingSpaces, range: m.range)
                return Token(.operand, n, text: n)
            }
            let n = number(t, variant: v, range: m.range)
            return Token(.operand, n, text: n)
        case .scripts, .underOver:
            return scriptToken(m, ctx)
        default:
            break
        }
        switch m.kind {
        case .text(let t, let v):
            // A degree sign set as text alone (`<mi>H</mi><mtext>°</mtext>`, OpenStax's chemistry sets ΔH° so: "Delta H °") is
            // the postfix degree sign TeX's `°` makes, where no scale's letter follows it (`°C` is joined before).
            if Self.isDegreeSignText(t) {
                return leafToken(.postfix, "°", .ord, range: m.range, postfix: .degrees)
            }
            // A scale's degree set as one text without a quantity (`<msub><mi>T</mi><mtext>°F</mtext></msub>`, OpenStax's chemistry:
            // "T sub °F") is the unit, as after a quantity. (Its first byte, 0xC2 of °, answers for nearly every text.)
            if t.utf8.first == 0xC2, let written = Self.degreeScale(t) {
                return Token(.operand, unitLeaf(written, range: m.range))
            }
            // A quotient of units set as one text without a quantity (`<mtext>m/s</mtext>` after a vector's components,
            // `(<mtext>N/m</mtext>)`, as OpenStax's physics writes units alone: "close paren, m/s") is the unit, as after a
            // quantity (textbook sweep 13).
            if t.containsASCII(0x2F), let (written, key) = Self.unitQuotient(t) {
                return Token(.operand, unitLeaf(written, key: key, range: m.range))
            }
            if let nameClass = Self.functionNameClass(ofText: t) {
                return identifierToken(t, nil, sole: nil, nameClass: nameClass, range: m.range)
            }
            let n = text(t, range: m.range, variant: v)
            if kind(n) == .empty { return nil }
            // A letter or a number (a text in a font may be one: `\textbf{x}`) is an operand as it is.
            if kind(n) != .text { return Token(.operand, n, text: n) }
            // A one-word text (`\text{sign}`, `\textrm{tr}`) is a function name when parentheses follow;
            // not a word written with spaces around it, which is prose (`\text{ on }[0, 1]`).
            if !has(n, .unitName), t.unicodeScalars.first.map({ !$0.isSpace }) ?? false,
               t.unicodeScalars.last.map({ !$0.isSpace }) ?? false {
                let scalars = text(n).unicodeScalars
                if scalars.count >= 2, scalars.allSatisfy({ $0.isAlphabeticScalar }) {
                    return Token(.word, n, text: n)
                }
            }
            return Token(.operand, n, text: n)
        case .fenced(let open, let close):
            return groupToken(fencedGroup(m, open: open, close: close, ctx, argument: followsFunction(rowStart)))
        case .multiscripts(let pre):
            return Token(.operand, multiscripts(m, prescriptPairs: pre, ctx))
        case .space:
            return nil
        case .row:
            return groupRowToken(m, ctx, argument: followsFunction(rowStart))
        default:
            return Token(.operand, node(m, ctx))
        }
    }

    /// A quotient of unit symbols set as one text (`m/s`, `N/m`, `kg/m`, as publishers' MathML writes a unit alone): as
    /// written, spaces trimmed, and its key; nil for any other text (a fraction `1/2`, words `melting/freezing`, one unit).
    static func unitQuotient(_ t: String) -> (written: String, key: String)? {
        let written = t.trimmingSpaces
        guard let key = UnitSymbols.unmarkedKey(written), key.containsASCII(0x2F) else { return nil }
        return (written, key)
    }

    /// A quotient of unit symbols set as one text (``unitQuotient(_:)``) raised to a unit's power `sup` (2 or 3): as written,
    /// its key with the power on the denominator (`m/s²`, as `\mathrm{m/s}^2` reads) and the power; nil otherwise.
    static func raisedUnitQuotient(_ t: String, _ sup: MathNode) -> (written: String, key: String, power: Int)? {
        guard t.containsASCII(0x2F), let p = Analyzer.unitPower(sup), p > 0, let (written, key) = unitQuotient(t) else { return nil }
        return (written, key + Analyzer.powerSign(p), p)
    }

    /// The class of a trigonometric, hyperbolic, logarithmic or exponential function's name written as
    /// text (`<mtext>sin</mtext>`, as publishers' MathML writes it: 1,890 of the formulas of OpenStax's
    /// University Physics against 21 in `mi`), which is read as that function, as `<mi>sin</mi>` is; nil for
    /// other texts (spaces around a word make it prose). The names are ``Vocabulary``'s, of three letters or
    /// more, and `ln`: the other two-letter ones, `th`, `ch`, `sh`, `tg`, `lg`, `lb`, are an ordinal's suffix
    /// and units as text.
    static func functionNameClass(ofText t: String) -> PropertyAtom? {
        guard t.utf8.count >= 3 || t == "ln", let nameClass = Vocabulary.nameClass(t) else { return nil }
        switch nameClass {
        case .trig, .hyperbolic, .log, .ln, .exp: return nameClass
        default: return nil
        }
    }

    /// The token of an identifier: `%`, the geometric prefixes, `mod`, function and limit names, words,
    /// primes written as identifiers, or an operand.
    /// `u` is the text's sole scalar.
    @inline(__always)
    mutating func identifierToken(_ t: String, _ v: MathVariant?, sole u: Unicode.Scalar?, nameClass: PropertyAtom?? = nil,
                                  font: PropertyAtom? = nil, range: SourceRange?) -> Token {
        // The commonest identifier, one ASCII letter in the default variant: an operand, a letter
        // (capital or not), `d` the mark of a differential (what the general path decides).
        if v == nil, font == nil, let c = u?.value, c < 0x80, (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A {
            let n = c >= 0x61 ? b.leaf(.identifier, text: t, range: range, .flag(.letter))
                : b.leaf(.identifier, text: t, range: range, .flag(.letter), .flag(.capital))
            var token = Token(.operand, n, text: n)
            token.isDifferentialMark = c == 0x64
            return token
        }
        return otherIdentifierToken(t, v, sole: u, nameClass: nameClass, font: font, range: range)
    }

    /// ``identifierToken(_:_:sole:nameClass:range:)`` of an identifier other than one ASCII letter in
    /// the default variant. `nameClass` is the name's ``Vocabulary/nameClass(_:)`` when it was looked
    /// up already (nil: not looked up).
    @inline(never)
    mutating func otherIdentifierToken(_ t: String, _ v: MathVariant?, sole u: Unicode.Scalar?, nameClass: PropertyAtom??,
                                       font: PropertyAtom? = nil, range: SourceRange?) -> Token {
        if let u {
            if u == "%" { return leafToken(.postfix, t, .ord, range: range, postfix: .percent) }
            if v == nil, font == nil, let parts = Analyzer.vulgarFraction(u) {
                let n = vulgarFractionNode(parts, range: range)
                return Token(.operand, n, text: n)
            }
            if u == "△" || u == "∠" || u == "▵" || u == "∡" || u == "#" { return leafToken(.prefix, t, .ord, range: range) }
        }
        if u == nil, t == "mod" { return leafToken(.modulo, t, .ord, range: range) }
        // Words in an identifier (MathML `<mi><mglyph alt="my glyph"/></mi>`) are said as words; a name
        // of two words (`lim sup`, `arg max`, `ess inf`) is the function's, below.
        if u == nil, t.containsASCII(0x20), (nameClass ?? Vocabulary.nameClass(t)) == nil {
            let n = text(t, range: range)
            return Token(.operand, n, text: n)
        }
        // A number of degrees written as one identifier (`<mi>30°</mi>`).
        if u == nil, t.unicodeScalars.last == "°" {
            let digits = String(t.unicodeScalars.dropLast())
            if !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }) {
                let quantity = number(digits, range: range)
                let mark = b.mark()
                b.add(child: quantity, .quantity)
                return Token(.operand, b.finish(.degrees, mark, range: range))
            }
        }
        if u == nil && !t.isEmpty {
            if let cls = nameClass ?? Vocabulary.nameClass(t) {
                let name = functionName(t, range: range, nameClass: cls)
                if cls == .limit {
                    return limitToken(name, lower: nil, upper: nil, placement: nil, range: range)
                }
                var token = Token(.function, name, text: name)
                token.application.functionClass = cls
                return token
            }
            if !t.unicodeScalars.allSatisfy({ $0.hasNumericType }) {
                let n = identifier(t, v, font: font, range: range, word: true)
                return Token(.word, n, text: n)
            }
        }
        if let u, let primes = Analyzer.primeCount(t, u), !u.properties.isAlphabetic {
            return leafToken(.postfix, t, .ord, range: range, postfix: .primes(primes))
        }
        let n = identifier(t, v, sole: u, font: font, range: range)
        var token = Token(.operand, n, text: n)
        token.isDifferentialMark = u == "d" || u == "ⅆ"
        return token
    }

    /// The arrow an `mover` of two harpoons drawn from pieces stands for: a harpoon with dashes (and
    /// spaces) under another with dashes, one pointing each way: `⇌` with the rightward one above, `⇋`
    /// with the leftward one above (MathJax's mhchem output for `<=>` and `<=>>`). Nil for anything else.
    static func stackedHarpoons(_ m: MathNode) -> String? {
        guard case .over = m.kind, m.children.count == 2 else { return nil }
        /// The one harpoon among dashes and spaces: true pointing right, false left; nil otherwise.
        func harpoon(_ n: MathNode) -> Bool? {
            var found: Bool? = nil
            var ok = true
            func visit(_ n: MathNode, _ depth: Int) {
                guard ok, depth < 8 else { ok = false; return }
                switch n.kind {
                case .row, .padded, .style: n.children.forEach { visit($0, depth + 1) }
                case .space: break
                case .operator(let t, _):
                    switch t {
                    case "⇀", "⇁": if found == nil { found = true } else { ok = false }
                    case "↽", "↼": if found == nil { found = false } else { ok = false }
                    case "-", "−", "–", "⎯", "―": break
                    default: ok = false
                    }
                default: ok = false
                }
            }
            visit(n, 0)
            return ok ? found : nil
        }
        guard let below = harpoon(m.children[0]), let above = harpoon(m.children[1]), below != above else { return nil }
        return above ? "⇌" : "⇋"
    }

    /// Whether the invisible separator at item `i` of `range` stands between two element symbols written
    /// as mathematics, one of them at least with scripts or both upright (``Analyzer/isElementPart(_:)``):
    /// `H₂⁣O`, `<mi mathvariant="normal">H</mi>⁣<mi mathvariant="normal">I</mi>`, not `C⁣H`; or between a
    /// part and its state in parentheses (`H₂⁣(g)`).
    mutating func isSeparatorInFormula(_ i: Int, _ range: Range<Int>) -> Bool {
        guard i > range.lowerBound, i + 1 < range.upperBound else { return false }
        let before = items[i - 1].withRaw { $0 }, after = items[i + 1].withRaw { $0 }
        guard Analyzer.isElementPart(before) else { return false }
        // Before the formula's state (`H₂⁣(g)`): "(", a state symbol, ")".
        func isState(_ m: MathNode?) -> Bool {
            guard case .identifier(let t, _)? = m?.kind else { return false }
            return SemanticTree.Records.stateSymbols.contains(t)
        }
        if i + 3 < range.upperBound, items[i + 1].scalar == "(", items[i + 3].scalar == ")", isState(items[i + 2].withRaw({ $0 })) {
            return true
        }
        if let g = after, case .row = g.kind, g.children.count == 3, case .operator("(", _) = g.children[0].kind,
           case .operator(")", _) = g.children[2].kind, isState(g.children[1]) {
            return true
        }
        guard Analyzer.isElementPart(after) else { return false }
        func upright(_ m: MathNode?) -> Bool {
            if case .identifier(_, let v)? = m?.kind { return v == .normal }
            return false
        }
        return !Analyzer.isUnmarkedElement(before) || !Analyzer.isUnmarkedElement(after) || (upright(before) && upright(after))
    }

    /// Whether an operand token's node is the mark of a differential (``SemanticTree/isDifferentialMark(_:)``).
    @inline(__always) func isDifferentialMark(_ t: Token) -> Bool {
        t.isDifferentialMark ?? tree.isDifferentialMark(t.node)
    }

    /// The token of an operator of class `cls` whose text `t` has the sole scalar `sole`.
    mutating func operatorToken(_ t: String, _ cls: AtomClass, largeOperator: Bool, sole: Unicode.Scalar?,
                                range: SourceRange?) -> Token? {
        if let u = sole {
            switch u {
            case "\u{2061}": return leafToken(.apply, t, cls, range: range)
            case "\u{2062}", "\u{2064}": return nil
            case "\u{2063}": return leafToken(.punctuation, t, .punct, range: range)
            case "!": return leafToken(.postfix, t, cls, range: range, postfix: .factorial(1))
            case "‼": return leafToken(.postfix, t, cls, range: range, postfix: .factorial(2))
            case "%": return leafToken(.postfix, t, cls, range: range, postfix: .percent)
            case "°": return leafToken(.postfix, t, cls, range: range, postfix: .degrees)
            case "¬", "∀", "∃", "∄", "∠", "∡", "△", "▵", "⊾", "#": return leafToken(.prefix, t, cls, range: range)
            case "×", "÷", "⋅", "·", "*", "∗", "/", "∕", "∙", "⨯":
                return leafToken(.multiplicative, t, .bin, range: range)
            default: break
            }
        } else if t == "mod" {
            return leafToken(.modulo, t, cls, range: range)
        } else if t == "!!" {
            return leafToken(.postfix, t, cls, range: range, postfix: .factorial(2))
        } else if t == "∃!" {
            // There exists a unique, written as one operator (`<mo>∃!</mo>`).
            return leafToken(.prefix, t, cls, range: range)
        }
        if let n = Analyzer.primeCount(t, sole) { return leafToken(.postfix, t, cls, range: range, postfix: .primes(n)) }
        if Analyzer.isEllipsis(t, sole) {
            let n = ellipsis(t, range: range)
            return Token(.operand, n, text: n)
        }
        if largeOperator || Vocabulary.bigOperator(sole) != nil {
            return bigOperatorToken(operatorLeaf(t, cls, range: range), lower: nil, upper: nil, placement: nil, range: range)
        }
        if cls == .op {
            let cls = Vocabulary.nameClass(t)
            let name = functionName(t, range: range, nameClass: cls)
            if cls == .limit {
                return limitToken(name, lower: nil, upper: nil, placement: nil, range: range)
            }
            var token = Token(.function, name, text: name)
            token.application.functionClass = cls ?? .named
            return token
        }
        switch cls {
        case .rel: return leafToken(.relation, t, cls, range: range)
        case .punct:
            if t == "," || t == ";" { return leafToken(.punctuation, t, cls, range: range) }
            // A colon written as punctuation (`\colon`, TeX's spacing for `f\colon A \to B`) is the colon
            // written `:` (a relation in TeX and MathML): the separator of set-builder notation
            // (`\{x \colon x > 0\}`) and of a function's name from its domain, not an operand.
            if sole == ":" { return leafToken(.relation, t, .rel, range: range) }
            return leafToken(.operand, t, cls, range: range)
        case .bin: return leafToken(.additive, t, cls, range: range)
        default: return leafToken(.operand, t, cls, range: range)
        }
    }

    mutating func bigOperatorToken(_ head: NodeID, lower: NodeID?, upper: NodeID?, placement: PropertyAtom?,
                                   range: SourceRange?) -> Token {
        let info = Vocabulary.bigOperator(scalar(head))
        bigs.push(BigParts(head: head, lower: lower, upper: upper, name: info?.name ?? .largeOperator,
                             integrals: info?.integrals ?? 0, placement: placement, range: range))
        var t = Token(.bigOperator, head, text: head)
        t.big = Int32(bigs.count - 1)
        return t
    }

    mutating func limitToken(_ head: NodeID, lower: NodeID?, upper: NodeID?, placement: PropertyAtom?,
                             range: SourceRange?) -> Token {
        bigs.push(BigParts(head: head, lower: lower, upper: upper, name: .limit, integrals: 0, placement: placement,
                             range: range))
        var t = Token(.limit, head, text: head)
        t.big = Int32(bigs.count - 1)
        return t
    }

    // MARK: Scripts

    /// A node with scripts: big operators and limits with their limits, functions with powers and
    /// bases (`\sin^2`, `\log_b`), stacked relations, fences with scripts, evaluation bars, accents, and
    /// ordinary powers and subscripts.
    mutating func scriptToken(_ m: MathNode, _ ctx: Context) -> Token {
        // (The base by subscript, which is inlined: `children.first` called the generic `first`, ~25
        // instructions a scripted item, `MathAloudBench stages` under callgrind, session 41.)
        guard !m.children.isEmpty else { return Token(.operand, empty(m.range)) }
        let rawBase = m.children[0]
        // A degree ring raised on nothing (`25\,^{\circ}C`, `{}^\circ F`: a space or an empty group
        // as its base) is the degree sign after what precedes it: the token `°` is.
        // (A base with a text shows something: no look at the scripts for that.)
        if !rawBase.isTextLeaf, Analyzer.degreeRingOnNothing(m) != nil {
            return leafToken(.postfix, "°", .ord, range: m.range, postfix: .degrees)
        }
        var base = rawBase
        // A row of one child, or a style that only sizes it (`<mstyle displaystyle="true"><mo>∑</mo></mstyle>`, as
        // publishers' MathML sets a big operator in a script's base), is what it holds: the sum takes its body.
        while base.children.count == 1 {
            if case .row = base.kind { base = base.children[0]; continue }
            if case .style(let p) = base.kind, p.color == nil, p.background == nil { base = base.children[0]; continue }
            break
        }
        let (sub, sup) = Analyzer.scriptChildren(m)
        let underOverKind: Bool
        switch m.kind {
        case .under, .over, .underOver: underOverKind = true
        default: underOverKind = false
        }
        let placement: PropertyAtom = underOverKind ? .underOver : .scripts
        switch base.kind {
        case .operator(let t, let p) where p.atomClass != .op && t.unicodeScalars.count > 1 && Vocabulary.nameClass(t) != nil:
            // A function name written as an operator with scripts (`<msup><mo>cos</mo><mn>2</mn></msup>`).
            let nameClass = Vocabulary.nameClass(t)!
            if !underOverKind && nameClass != .limit {
                return functionToken(functionName(t, range: base.range, nameClass: nameClass), sub: sub, sup: sup, range: m.range, ctx)
            }
            let name = functionName(t, range: base.range, nameClass: nameClass)
            let lower = sub.map { node($0, ctx) }
            let upper = sup.map { node($0, ctx) }
            return limitToken(name, lower: lower, upper: upper, placement: placement, range: m.range)
        case .operator(let t, let p):
            // ∩, ∪, ⊕… with limits under and over them are the n-ary operators ⋂, ⋃, ⨁…
            if underOverKind, p.atomClass == .bin, let nary = Vocabulary.naryForm(t.soleScalar) {
                let leaf = operatorLeaf(String(nary), .op, range: base.range)
                let lower = sub.map { node($0, ctx) }
                let upper = sup.map { node($0, ctx) }
                return bigOperatorToken(leaf, lower: lower, upper: upper, placement: placement, range: m.range)
            }
            if p.largeOperator || Vocabulary.bigOperator(t) != nil {
                let leaf = operatorLeaf(t, p.atomClass, range: base.range)
                let lower = sub.map { node($0, ctx) }
                let upper = sup.map { node($0, ctx) }
                return bigOperatorToken(leaf, lower: lower, upper: upper, placement: placement, range: m.range)
            }
            if p.atomClass == .op {
                let name = functionName(t, range: base.range)
                let lower = sub.map { node($0, ctx) }
                let upper = sup.map { node($0, ctx) }
                return limitToken(name, lower: lower, upper: upper, placement: placement, range: m.range)
            }
            if p.atomClass == .rel || p.atomClass == .bin {
                let leaf = operatorLeaf(t, p.atomClass, range: base.range)
                // Stacked over or under (`\stackrel`, `\xrightarrow`), or scripts after an embellished
                // operator (`+_2`, `=^n`, `+'`): still the operator of its row.
                let n = underOverKind ? underOver(m, base: leaf, lower: sub, upper: sup, ctx, baseClass: p.atomClass)
                    : apply(scripts(sub: sub, sup: sup, ctx), to: leaf, range: m.range)
                return Token(p.atomClass == .rel ? .relation : .additive, n, text: leaf)
            }
            if underOverKind {
                let leaf = operatorLeaf(t, p.atomClass, range: base.range)
                return Token(.operand, underOver(m, base: leaf, lower: sub, upper: sup, ctx, baseClass: p.atomClass))
            }
        case .identifier(let t, _) where t.utf8.count > 1 && t.hasSeveralScalars:
            // Function and limit names (none is one letter), looked up once.
            guard let nameClass = Vocabulary.nameClass(t) else { break }
            if !underOverKind && nameClass != .limit {
                return functionToken(functionName(t, range: base.range, nameClass: nameClass), sub: sub, sup: sup, range: m.range, ctx)
            }
            if !underOverKind {
                let name = functionName(t, range: base.range, nameClass: nameClass)
                let lower = sub.map { node($0, ctx) }
                let upper = sup.map { node($0, ctx) }
                return limitToken(name, lower: lower, upper: upper, placement: placement, range: m.range)
            }
            // \underset{x}{\arg}, \mathop{\rm max}\limits_x written as an identifier: a limit-like operator.
            if sub != nil && sup == nil && (nameClass == .limit || nameClass == .named) {
                let name = functionName(t, range: base.range, nameClass: nameClass)
                let lower = sub.map { node($0, ctx) }
                return limitToken(name, lower: lower, upper: nil, placement: placement, range: m.range)
            }
        case .text(let t, _):
            // A quotient of units set as one text raised without a quantity (`<msup><mrow><mtext>m/s</mtext></mrow><mn>2</mn></msup>`
            // alone, after a vector's components): the unit with its denominator raised, `m/s²`, as after a quantity.
            if !underOverKind, sub == nil, let sup, let (written, key, p) = Self.raisedUnitQuotient(t, sup) {
                return Token(.operand, unitLeaf(written + "^\(p)", key: key, range: m.range))
            }
            // `<msup><mtext>sin</mtext><mrow><mo>−</mo><mn>1</mn></mrow></msup>`: the inverse sine, as with `mi`.
            if !underOverKind, let nameClass = Self.functionNameClass(ofText: t) {
                return functionToken(functionName(t, range: base.range, nameClass: nameClass), sub: sub, sup: sup, range: m.range, ctx)
            }
            guard Vocabulary.nameClass(t.trimmingSpaces) == .limit else { break }
            // A limit name written as text under its limit (`<munder><mtext>lim</mtext>…`).
            let name = functionName(t.trimmingSpaces, range: base.range, nameClass: .limit)
            let lower = sub.map { node($0, ctx) }
            let upper = sup.map { node($0, ctx) }
            return limitToken(name, lower: lower, upper: upper, placement: placement, range: m.range)
        // The same with a space opening the raised base (`<msup><mrow><mspace/><mtext>m/sec</mtext></mrow><mn>2</mn></msup>`, as
        // OpenStax's calculus books set it), the unit's from what precedes it, as ``Analyzer/poweredUnit(_:names:)`` reads it.
        case .row where !underOverKind && sub == nil && base.children.count == 2:
            guard case .space = base.children[0].kind, case .text(let t, _) = base.children[1].kind, let sup,
                  let (written, key, p) = Self.raisedUnitQuotient(t, sup) else { break }
            return Token(.operand, unitLeaf(written + "^\(p)", key: key, range: m.range))
        case .fenced(let open, let close):
            if !underOverKind {
                let c = close.soleScalar
                // \left. f \right|_{a}^{b}, and with a bracket when both limits are written
                // (`\left. F(x) \right]_0^1`, as `[F(x)]_0^1` is read).
                let closingBracket = c == "]" && sub != nil && sup != nil
                if open.isEmpty && (c == "|" || c == "‖" || closingBracket) {
                    let g = fencedGroup(base, open: open, close: close, ctx)
                    let body = child(g.node, .content) ?? empty(base.range)
                    let lower = sub.map { node($0, ctx) }
                    let upper = sup.map { node($0, ctx) }
                    let mark = b.mark()
                    b.add(child: body, .body)
                    if closingBracket { b.string(.close, close) }
                    if let lower { b.add(child: lower, .lower); b.flag(.lower) }
                    if let upper { b.add(child: upper, .upper); b.flag(.upper) }
                    return Token(.operand, b.finish(.evaluatedAt, mark, range: m.range))
                }
                var g = fencedGroup(base, open: open, close: close, ctx)
                g.scripts = scripts(sub: sub, sup: sup, ctx)
                g.scriptsRange = m.range
                return groupToken(g)
            }
        case .row where !underOverKind && Analyzer.isSelfContainedGroup(base):
            // MathML writes (x+1)^2 as msup(mrow((, x+1, )), 2): the group keeps its fence.
            let t = groupRowToken(base, ctx)
            if t.fence >= 0 {
                let s = scripts(sub: sub, sup: sup, ctx)
                groups[Int(t.fence)].scripts = s
                groups[Int(t.fence)].scriptsRange = m.range
                return t
            }
        default:
            break
        }
        // Two harpoons stacked from pieces (MathJax's mhchem output for `<=>`: ↽ and a dash under a dash
        // and ⇀) are the equilibrium arrow they draw.
        if underOverKind, let arrow = Analyzer.stackedHarpoons(m) {
            return leafToken(.relation, arrow, .rel, range: m.range)
        }
        let baseNode = node(rawBase, ctx)
        if underOverKind {
            return Token(.operand, underOver(m, base: baseNode, lower: sub, upper: sup, ctx, baseClass: nil))
        }
        let s = scripts(sub: sub, sup: sup, ctx)
        return Token(.operand, apply(s, to: baseNode, range: m.range))
    }

    /// `\sin^2`, `\sin^{-1}`, `\log_b`: the function child of an application, with the properties the
    /// application gets (ClearSpeak "Trigonometric functions", "Logarithms"; Trig_TrigInverse).
    mutating func functionToken(_ name: NodeID, sub: MathNode?, sup: MathNode?, range: SourceRange?, _ ctx: Context) -> Token {
        let s = scripts(sub: sub, sup: sup, ctx)
        var facts = ApplicationFacts()
        facts.functionClass = atom(name, .functionClass) ?? .named
        if s.sub != nil && facts.functionClass == .log { facts.logBase = true }
        if let e = s.sup { facts.power = tree.powerFacts(e) }
        var t = Token(.function, apply(s, to: name, range: range), text: name)
        t.application = facts
        return t
    }

    /// MathML `mmultiscripts`: pre-scripts become ``SemanticKind/prescripts``; post-scripts a subscript
    /// and power. Several pairs on one side join: their subscripts are read together, as are their
    /// superscripts (`<none/>` left out).
    mutating func multiscripts(_ m: MathNode, prescriptPairs: Int, _ ctx: Context) -> NodeID {
        let c = m.children
        guard let baseRaw = c.first else { return empty(m.range) }
        let base = node(baseRaw, ctx)
        let postCount = max(0, (c.count - 1) / 2 - prescriptPairs)
        let preStart = 1 + postCount * 2
        /// The scripts at `start`, `start + 2`… (`count` of them) that are not `<none/>`.
        func present(_ start: Int, _ count: Int) -> [MathNode] {
            stride(from: start, to: min(start + 2 * count, c.count), by: 2).map { c[$0] }.filter { !Analyzer.isNone($0) }
        }
        let postSubs = present(1, postCount), postSups = present(2, postCount)
        let preSubs = present(preStart, prescriptPairs), preSups = present(preStart + 1, prescriptPairs)
        func part(_ nodes: [MathNode]) -> NodeID? {
            switch nodes.count {
            case 0: return nil
            case 1: return node(nodes[0], ctx)
            default:
                let range = nodes.reduce(nil as SourceRange?) { SourceRange.union($0, $1.range) }
                return sequence(MathNode.Children(nodes), range: range, ctx)
            }
        }
        if preSubs.isEmpty && preSups.isEmpty {
            if postSubs.count <= 1 && postSups.count <= 1 {
                return apply(scripts(sub: postSubs.first, sup: postSups.first, ctx), to: base, range: m.range)
            }
            var s = Scripts()
            s.sub = part(postSubs)
            s.sup = part(postSups)
            for n in postSubs + postSups { s.range = SourceRange.union(s.range, n.range) }
            return apply(s, to: base, range: m.range)
        }
        return prescriptsNode(preSub: part(preSubs), preSup: part(preSups), base: base, sub: part(postSubs), sup: part(postSups),
                              range: m.range)
    }

    // MARK: Differentials

    /// Whether a parenthesised group after a measure's letter holds what the measure is applied to:
    /// one simple item (`dp(x)`) or two variables (`d\mu(x, y)`, which the analysis reads as an interval).
    func isMeasureArgument(_ g: NodeID) -> Bool {
        switch kind(g) {
        case .fenced:
            guard let content = child(g, .content) else { return false }
            return tree.isSimple(content)
        case .interval:
            guard let lower = child(g, .lower), let upper = child(g, .upper) else { return false }
            return kind(lower) == .identifier && kind(upper) == .identifier
        default:
            return false
        }
    }

    /// Whether token `k` (of `tokens[..<end]`) ends an integral's terms: the row's end, punctuation, a
    /// relation, a plus or minus, a wide space.
    private func endsIntegrand(_ k: Int, _ end: Int) -> Bool {
        guard k < end else { return true }
        switch tokens[k].kind {
        case .punctuation, .relation, .additive, .wideSpace: return true
        default: return false
        }
    }

    /// Joins `d` and the variable after it into ``SemanticKind/differential`` tokens (the tokens from
    /// `start` on): after an integral sign in the same row, and for an upright `\mathrm{d}` or `ⅆ`
    /// anywhere.
    mutating func markDifferentials(from start: Int, afterIntegral: Bool) {
        let end = tokens.count
        var w = start
        var integralAt = -1          // where the last integral sign was written (in `tokens[start..<w]`); -1: none yet
        var i = start
        while i < end {
            let t = tokens[i]
            if t.kind == .bigOperator, bigs[Int(t.big)].integrals > 0 { integralAt = w }
            let integralSeen = integralAt >= 0
            if t.kind == .operand, t.fence < 0, isDifferentialMark(t), i + 1 < end,
               tokens[i + 1].kind == .operand, tokens[i + 1].fence < 0, tree.isDifferentialVariable(tokens[i + 1].node) {
                let isPower = kind(t.node) == .power
                let markNode = isPower ? child(t.node, .base)! : t.node
                let upright = atom(markNode, .variant) == .normal || scalar(markNode) == "ⅆ"
                // Outside an integral, a letter applied to a group (`\mathrm{d}f(x)`, `\mathrm{d}\varphi_t(s)`)
                // is what is differentiated, applied: the mark stays a letter before the application, as
                // a slanted d does, so that `\frac{\mathrm{d}f(x)}{\mathrm{d}x}` differentiates f of x
                // (joined, the differential took f alone and the derivative read "of x"). After an
                // integral the group is the integrand (`\int \mathrm{d}x\,(1 + x)`).
                let applied = !integralSeen && i + 2 < end && tokens[i + 2].kind == .operand && tokens[i + 2].fence >= 0
                if (integralSeen || upright) && !applied {
                    var v = tokens[i + 1].node
                    var taken = 2
                    // After an integrand, a letter applied to its variable in parentheses that end the
                    // integral is the function the integral is taken against (`\int x\,dp(x)`, `\int f\,dF(x)`:
                    // a Stieltjes integral, a measure): d of p of x. Its variables may be two (`d\mu(x, y)`, read
                    // as an interval). Right after the sign, or around more than variables (`\int f\,dx\,(1 + x)`),
                    // the group is a factor of the integrand.
                    if w > integralAt + 1, integralSeen, i + 2 < end, tokens[i + 2].kind == .operand,
                       tokens[i + 2].fence >= 0, tree.string(tokens[i + 2].node, .open) == "(", endsIntegrand(i + 3, end),
                       isMeasureArgument(tokens[i + 2].node) {
                        var facts = ApplicationFacts()
                        facts.functionClass = .generic
                        facts.argumentFenced = true
                        v = application(v, tokens[i + 2].node, facts)
                        taken = 3
                    }
                    let mark = b.mark()
                    // A raised mark (`d^4 x`, `\mathrm{d}^3 r`) keeps its power as the differential's
                    // `operator`, spoken as each style speaks powers ("d to the fourth power x", "d
                    // Superscript 4 Baseline x"); its order is noted for derivatives.
                    if isPower, let e = child(t.node, .exponent) {
                        let order = tree.integerValue(e).map(String.init) ?? text(e)
                        b.string(.order, order)
                        b.add(child: t.node, .operator)
                    }
                    b.add(child: v, .variable)
                    b.atom(.mark, .d)
                    if upright { b.flag(.upright) }
                    let d = b.finish(.differential, mark, text: text(markNode), range: SourceRange.union(range(t.node), range(tokens[i + taken - 1].node)))
                    tokens[w] = Token(.differential, d, text: markNode)
                    w += 1
                    i += taken
                    continue
                }
            }
            tokens[w] = t
            w += 1
            i += 1
        }
        tokens.truncate(to: w)
    }
}
