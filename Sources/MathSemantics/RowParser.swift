import MathSyntax

extension Analyzer {
    /// Parses the tokens `tokens[r]` of a row by precedence, lowest first: separated items (`,` `;`,
    /// words between relations, wide spaces), relations, additive operators, multiplicative operators,
    /// prefix operators, juxtaposition (implied times and function application), postfix operators.
    ///
    /// Commas and relations: a row where two or more comma-separated parts hold relations is a list of
    /// relations (`x = 1, y = 2`); otherwise relations bind loosest and their operands may be lists
    /// (`f(x) = 1, 2`, `i = 1, \ldots, n`, `x_1, x_2 \in A`).
    mutating func parse(_ r: Range<Int>, range: SourceRange?, _ ctx: Context) -> NodeID {
        if r.isEmpty { return empty(range) }
        // One look at the tokens for what the levels below look for: separators (punctuation, wide
        // spaces, words — which are texts), relations.
        // The kinds seen are bits of one word and a text is tested on every token's node, with no branch on
        // the token: a switch over the kinds, a jump a token, was mispredicted ~5 times a formula (every
        // token has a node of the tree being built, so the read is sound).
        var seen: UInt32 = 0
        var textSeen: UInt32 = 0
        let operandOrWord: UInt32 = 1 << UInt32(Token.Kind.operand.rawValue) | 1 << UInt32(Token.Kind.word.rawValue)
        for i in r {
            let bit: UInt32 = 1 << UInt32(tokens[i].kind.rawValue)
            seen |= bit
            textSeen |= kind(tokens[i].node) == .text ? bit : 0
        }
        let hasWideSpace = seen & 1 << UInt32(Token.Kind.wideSpace.rawValue) != 0
        let hasPunctuation = seen & 1 << UInt32(Token.Kind.punctuation.rawValue) != 0
        let hasRelation = seen & 1 << UInt32(Token.Kind.relation.rawValue) != 0
        let hasText = textSeen & operandOrWord != 0
        // Segments between separators.
        var hasSeparator = hasWideSpace || hasPunctuation
        if !hasSeparator && hasText {
            for i in r where Analyzer.isSeparator(tokens, tree, r, i) { hasSeparator = true; break }
        }
        if hasSeparator {
            var relational = 0
            var quantifierClause = false
            // A relation symbol alone between separators (`k_{\perp, s}`) names itself: it is an item
            // of the list, not a relation over what follows the comma.
            var loneRelation = false
            var start = r.lowerBound
            var i = r.lowerBound
            while true {
                let atEnd = i == r.upperBound
                if atEnd || Analyzer.isSeparator(tokens, tree, r, i) {
                    var relation = false
                    for k in start..<i where tokens[k].kind == .relation { relation = true; break }
                    if relation { relational += 1 }
                    if i == start + 1, tokens[start].kind == .relation { loneRelation = true }
                    // A clause after a comma that starts with a quantifier also makes a list
                    // (`\forall x \in A, \exists y`).
                    if start > r.lowerBound, start < i, tokens[start].kind == .prefix, isQuantifier(tokens[start]) {
                        quantifierClause = true
                    }
                    if atEnd { break }
                    start = i + 1
                }
                i += 1
            }
            if relational >= 2 || (relational == 1 && (quantifierClause || loneRelation)) {
                let mark = b.mark()
                var count = 0
                start = r.lowerBound
                i = r.lowerBound
                while true {
                    let atEnd = i == r.upperBound
                    if atEnd || Analyzer.isSeparator(tokens, tree, r, i) {
                        if start < i {
                            let item = relationSpan(start..<withoutFullStop(start..<i, before: i, r), ctx)
                            b.add(child: item, .item)
                            count += 1
                        }
                        // A wide space stays between the items it separates, for the pause a listener
                        // hears where a reader sees the gap (`x = 1 \quad y = 2`).
                        if !atEnd, tokens[i].kind != .wideSpace || isJuxtaposingSpace(i, r) {
                            b.add(child: tokens[i].node, .operator)
                            count += 1
                        }
                        if atEnd { break }
                        start = i + 1
                    }
                    i += 1
                }
                if count == 1 { return b.takeOnlyChild(mark) }
                return b.finish(.list, mark, range: range)
            }
        }
        // A wide space between two operands separates them (`a \qquad b`, `f(x) \quad x \in A`,
        // `\frac17 x + 1 \qquad \frac17 x - 2`): the parts are a list with the space between them, not a
        // product across the gap (`1 \qquad \frac17` is no mixed number). Next to an operator or a relation
        // (`x \quad = \quad 2`), next to a word (`\text{if }`, read with the words below) and in a row with a
        // large operator or a limit, whose body may run past it (`\int f \quad dx`), it is layout.
        if hasWideSpace, let cuts = juxtaposingSpaces(r), !cuts.isEmpty {
            let mark = b.mark()
            var start = r.lowerBound
            for cut in cuts + [r.upperBound] {
                let end = withoutFullStop(start..<cut, before: cut, r)
                let part = parse(start..<end, range: SourceRange.union(self.range(tokens[start].node), self.range(tokens[end - 1].node)), ctx)
                b.add(child: part, .item)
                if cut < r.upperBound { b.add(child: tokens[cut].node, .operator) }
                start = cut + 1
            }
            return b.finish(.list, mark, range: range)
        }
        // The tokens without wide spaces, copied above the row's when there are any.
        var rest = r
        if hasWideSpace {
            let start = tokens.count
            for k in r where tokens[k].kind != .wideSpace {
                let t = tokens[k]
                tokens.push(t)
            }
            rest = start..<tokens.count
        }
        defer { if hasWideSpace { tokens.truncate(to: rest.lowerBound) } }
        // Words around one relation (`\text{if } x < 0`, `x > 0 \text{ for all } y`): a row of the
        // pieces and the words.
        if hasText, hasRelation, rest.count > 1 {
            let mark = b.mark()
            var pieces = 0
            var start = rest.lowerBound
            for i in rest where Analyzer.isClauseWord(tokens, tree, rest, i) {
                if i > start {
                    let piece = relationSpan(start..<i, ctx)
                    b.add(child: piece, .item)
                }
                b.add(child: tokens[i].node, .item)
                pieces += 1
                start = i + 1
            }
            if pieces > 0 {
                if start < rest.upperBound {
                    let piece = relationSpan(start..<rest.upperBound, ctx)
                    b.add(child: piece, .item)
                }
                return b.finish(.row, mark, range: range)
            }
        }
        if !hasRelation { return listSpan(rest, hasPunctuation: hasPunctuation, ctx) }
        return relationSpan(rest, hasPunctuation: hasPunctuation, ctx)
    }

    /// The end of the list item `tokens[part]` without a full stop ending it before a wide space (`1.\quad \log_b(ac)`,
    /// `<mn>2.</mn><mspace width="2em"/>` numbering a step; `x = 2. \quad y = 3`): sentence punctuation, as a full
    /// stop ending the row is (``tokenize(_:_:)``); it was said "1 dot". Before any other separator it stays.
    func withoutFullStop(_ part: Range<Int>, before cut: Int, _ r: Range<Int>) -> Int {
        guard part.count > 1, cut < r.upperBound, tokens[cut].kind == .wideSpace else { return part.upperBound }
        let last = tokens[part.upperBound - 1]
        return last.kind == .operand && kind(last.node) == .operator && tokenText(last) == "." ? part.upperBound - 1 : part.upperBound
    }

    /// The wide spaces of `tokens[r]` that stand between two operands, where nothing else would join
    /// them but a product (``parse(_:range:_:)``); nil when the row has a large operator or a limit.
    func juxtaposingSpaces(_ r: Range<Int>) -> [Int]? {
        var cuts: [Int] = []
        for i in r {
            switch tokens[i].kind {
            case .bigOperator, .limit, .evaluationBar, .differential: return nil
            case .wideSpace: if isJuxtaposingSpace(i, r) { cuts.append(i) }
            default: continue
            }
        }
        return cuts
    }

    /// Whether the wide space `tokens[i]` stands between two operands of `tokens[r]` (not next to an
    /// operator, a relation or a word).
    func isJuxtaposingSpace(_ i: Int, _ r: Range<Int>) -> Bool {
        guard tokens[i].kind == .wideSpace, i > r.lowerBound, i + 1 < r.upperBound else { return false }
        let p = tokens[i - 1], n = tokens[i + 1]
        // A number and a full stop beginning the row (`<mn>10.</mn><mspace/><mn>−2</mn><mo>+</mo>…`, an exercise's number)
        // are set apart from anything after them, a sign too.
        if i == r.lowerBound + 2, kind(tokens[r.lowerBound].node) == .number, p.kind == .operand, kind(p.node) == .operator,
           tokenText(p) == "." {
            return true
        }
        let ends = p.kind == .operand || p.kind == .postfix
        let starts = n.kind == .operand || n.kind == .prefix || n.kind == .function
        // `17 \equiv 2 \pmod{5}`: TeX's \pmod sets its own space before the modulus it adds.
        return ends && starts && kind(p.node) != .text && kind(n.node) != .text && kind(n.node) != .modulo
    }

    /// A text of two or more letters that is not a unit: a word such as "if", "or", "for all".
    static func isWord(_ t: Token, _ tree: SemanticTree.Records) -> Bool {
        guard t.kind == .operand || t.kind == .word, tree.kind(t.node) == .text, tree.property(t.node, .unitName) == nil else {
            return false
        }
        var letters = 0
        for u in tree.text(t.node).unicodeScalars where u.isAlphabeticScalar {
            letters += 1
            if letters >= 2 { return true }
        }
        return false
    }

    /// Whether token `i` of the row `tokens[r]` separates items: punctuation, a wide space, or a text word
    /// standing between other tokens (`x = 2 \text{ or } x = -2`, ``isClauseWord(_:_:_:_:)``).
    static func isSeparator(_ tokens: LentStack<Token>, _ tree: SemanticTree.Records, _ r: Range<Int>, _ i: Int) -> Bool {
        switch tokens[i].kind {
        case .punctuation, .wideSpace: return true
        case .operand, .word: return i > r.lowerBound && isClauseWord(tokens, tree, r, i)
        default: return false
        }
    }

    /// Whether token `i` of `tokens[r]` is a text word between clauses (`\text{if } x < 0`, `x = 2 \text{ or }
    /// x = -2`), not the last token, before no group, and no operand of a relation or an operator next to
    /// it: a word after an operator, or before a relation, a multiplication or a plus, is an operand
    /// (`w \cdot \text{area} + v \cdot \text{age}`, `2\text{ apples} + 3\text{ pears}`; a minus after a
    /// word may be a sign: `2 \text{ or } -2`).
    static func isClauseWord(_ tokens: LentStack<Token>, _ tree: SemanticTree.Records, _ r: Range<Int>, _ i: Int) -> Bool {
        guard i < r.upperBound - 1, isWord(tokens[i], tree), tokens[i + 1].fence < 0 else { return false }
        if i > r.lowerBound {
            switch tokens[i - 1].kind {
            case .relation, .additive, .multiplicative: return false
            default: break
            }
        }
        let after = tokens[i + 1]
        switch after.kind {
        case .relation, .multiplicative: return false
        case .additive:
            // Not before a plus, nor before a bond drawn as a line (`HO─C═C─OH`: element symbols set as text).
            guard after.textNode >= 0 else { return true }
            let sign = tree.text(after.textNode)
            return sign != "+" && sign != "\u{2500}"
        default: return true
        }
    }

    /// Relations over operands that may be comma lists (`hasPunctuation` false when the tokens are
    /// known to hold no punctuation).
    mutating func relationSpan(_ r: Range<Int>, hasPunctuation: Bool = true, _ ctx: Context) -> NodeID {
        if r.isEmpty { return empty(nil) }
        // One look at the relations: whether there are any, and whether logical connectives join others
        // (``connectiveSpan(_:hasPunctuation:_:)``, called only then: most spans have none, and the call and
        // its own look cost ~80 instructions a span, `MathAloudBench stages` under callgrind, session 37).
        var relations = 0, connectives = 0
        for i in r where tokens[i].kind == .relation {
            relations += 1
            if Self.isConnective(tokenScalar(tokens[i])) { connectives += 1 }
        }
        guard relations > 0 else { return listSpan(r, hasPunctuation: hasPunctuation, ctx) }
        // Quantified clauses one after another (`\forall \epsilon > 0 \; \exists \delta > 0`): a quantifier
        // after a clause that holds a relation starts the next clause. The clauses are a list, said with a
        // pause between them as relations a wide space separates are (an empty operator between them), not
        // one chain of relations across them ("for all epsilon is greater than 0 there exists delta is
        // greater than 0" was one relation whose middle operand was "0 there exists delta").
        if tokens[r.lowerBound].kind == .prefix, isQuantifier(tokens[r.lowerBound]), let cuts = quantifiedClauseCuts(r) {
            let mark = b.mark()
            var start = r.lowerBound
            for cut in cuts + [r.upperBound] {
                // Between two clauses, an empty operator: the pause a wide space between items makes.
                if start > r.lowerBound { b.add(child: empty(nil), .operator) }
                b.add(child: relationSpan(start..<cut, hasPunctuation: hasPunctuation, ctx), .item)
                start = cut
            }
            return b.finish(.list, mark, range: SourceRange.union(range(tokens[r.lowerBound].node), range(tokens[r.upperBound - 1].node)))
        }
        if connectives > 0, connectives < relations, let joined = connectiveSpan(r, hasPunctuation: hasPunctuation, ctx) {
            return joined
        }
        let mark = b.mark()
        let operators = operatorTexts.count
        var hasModulo = false
        // Whether an item is a chemical formula (`impliedTimes` with `chemical`): a bond chain needs one.
        var chemicalItem = false
        var start = r.lowerBound
        for i in r where tokens[i].kind == .relation {
            if i > start {
                let item = listSpan(start..<i, hasPunctuation: hasPunctuation, ctx)
                if kind(item) == .modulo { hasModulo = true }
                if kind(item) == .impliedTimes && has(item, .chemical) { chemicalItem = true }
                b.add(child: item, .item)
            }
            let t = tokens[i]
            if kind(t.node) == .modulo { hasModulo = true }
            b.add(child: t.node, .operator)
            addOperatorText(t, since: operators)
            start = i + 1
        }
        if start < r.upperBound {
            let item = listSpan(start..<r.upperBound, hasPunctuation: hasPunctuation, ctx)
            if kind(item) == .modulo { hasModulo = true }
            if kind(item) == .impliedTimes && has(item, .chemical) { chemicalItem = true }
            b.add(child: item, .item)
        }
        let sole = addOperators(since: operators)
        // `17 \equiv 2 \pmod{5}`: rules read ≡ as "is congruent to" next to a modulus.
        if hasModulo { b.flag(.hasModulo) }
        var n = b.finish(.relation, mark)
        if sole == "=", let marked = vectorEquation(n) { n = marked }
        // Double and triple bonds of a structural formula (`CH_2=CH_2`) and the arrows of a chemical
        // equation written as mathematics (`2H_2 + O_2 → 2H_2O`, nuclides) read as chemistry.
        // A bond chain holds a chemical formula among its items: without one, the chain is not looked
        // for. One operator text of one scalar, the usual relation, is tested on that scalar.
        // `drawn`: a double bond drawn as a box-drawing line (U+2550), which only chemistry writes.
        var bonds = false, arrows = false, equilibrium = false, drawn = false
        if let u = sole {
            drawn = u == "\u{2550}"
            bonds = u == "=" || u == "\u{2261}" || drawn
            arrows = !bonds && Self.isReactionArrow(u)
            equilibrium = u == "⇌" || u == "⇋"
        } else if let ops = tree.string(n, .operators) {
            bonds = ops.unicodeScalars.allSatisfy { $0 == "=" || $0 == "\u{2261}" || $0 == "\u{2550}" || $0 == " " }
            drawn = bonds && ops.unicodeScalars.contains("\u{2550}")
            arrows = !bonds && ops.unicodeScalars.allSatisfy { Self.isReactionArrow($0) || $0 == " " }
        }
        if bonds ? chemicalItem || drawn : arrows {
            let items = tree.children(n).lazy.filter { $0.role == SemanticRole.item.rawValue }.map { $0.node }
            if bonds {
                // The element symbols of a drawn chain set as text read as elements, as in a reaction's species.
                if drawn ? tree.isDrawnBondChain(items) : tree.isBondChain(items) { return flagged(drawn ? elementsOfSpecies(n) : n, .chemical) }
            }
            else if tree.isReaction(items, equilibrium: equilibrium) { return flagged(elementsOfSpecies(n), .chemical) }
        }
        return n
    }

    /// An equation one side of which is a vector (a bold letter, a letter with a vector arrow, a vector
    /// function, a gradient, components in angle brackets, or a sum, multiple or quotient of such: `\mathbf{v} = ⟨x, y⟩`,
    /// `\mathbf{u} + \mathbf{v} = ⟨x_1 + x_2, y_1 + y_2⟩`, `⟨x, y⟩ = ⟨x, 0⟩ + ⟨0, y⟩`) has no inner
    /// product among its terms, which are numbers: angle brackets there hold a vector's components
    /// (OpenStax's Calculus volume 3 and College Algebra, textbook sweep 18). `relation` with those
    /// brackets marked ``PropertyName/components``, or nil when nothing changes.
    mutating func vectorEquation(_ relation: NodeID) -> NodeID? {
        // Most equations hold no vector: their links are looked at in place and copied only for one that does
        // (copying them for every equation cost 0.6 M instructions on the arXiv list, callgrind, session 53).
        guard tree.children(relation).contains(where: { $0.role == SemanticRole.item.rawValue && vectorValued($0.node, depth: 0) })
        else { return nil }
        let links = Array(tree.children(relation))
        var changed = false
        let mark = b.mark()
        for l in links {
            var node = l.node
            if l.role == SemanticRole.item.rawValue, let marked = componentsMarked(node, depth: 0) {
                node = marked
                changed = true
            }
            b.add(child: node, roleNumber: l.role)
        }
        b.copyProperties(of: relation)
        guard changed else { b.discard(mark); return nil }
        return b.finish(.relation, mark, text: tree.text(relation), range: range(relation))
    }

    /// An equation of vectors set across a table row's cells (`\mathbf{v} &= ⟨x_t − x_i, y_t − y_i⟩`, MathML
    /// cells `r(t)`, `=`, `⟨t, c⟩`), or a row going on with the equation of the row before it (its first
    /// cell empty or opening with the relation: `= ⟨a, b⟩`): the angle brackets of its cells hold a vector's components, as in one cell
    /// (``vectorEquation(_:)``). Marks them in `cells`; whether the next row may go on with it.
    mutating func vectorEquationRow(_ cells: inout [NodeID], continuing: Bool) -> Bool {
        func equals(_ n: NodeID) -> Bool {
            switch kind(n) {
            case .operator: return tree.text(n) == "="
            case .relation: return tree.string(n, .operators) == "="
            default: return false
            }
        }
        guard let first = cells.first, cells.contains(where: equals) else { return false }
        let goesOn = continuing && (kind(first) == .empty
            || kind(first) == .relation && tree.childCount(first) > 0 && tree.child(first, at: 0).role == SemanticRole.operator.rawValue)
        guard goesOn || cells.contains(where: { vectorValued($0, depth: 0) || relationWithVector($0) }) else { return false }
        for k in cells.indices {
            if let marked = componentsMarked(cells[k], depth: 0) { cells[k] = marked }
        }
        return true
    }

    /// A relation one of whose items is a vector (a cell `= ⟨1, 2⟩` going on with the cell before it).
    func relationWithVector(_ n: NodeID) -> Bool {
        kind(n) == .relation && tree.children(n).contains { $0.role == SemanticRole.item.rawValue && vectorValued($0.node, depth: 0) }
    }

    /// Whether `n` is a vector: see ``vectorEquation(_:)``.
    func vectorValued(_ n: NodeID, depth: Int) -> Bool {
        guard depth < 6 else { return false }
        func anyItem(_ n: NodeID) -> Bool {
            tree.children(n).contains { $0.role == SemanticRole.item.rawValue && vectorValued($0.node, depth: depth + 1) }
        }
        switch kind(n) {
        case .identifier: return tree.has(n, .font) && tree.string(n, .font)?.hasPrefix("bold") == true
        case .accent: return tree.string(n, .accentName) == "vector"
        case .angleBrackets: return has(n, .components)
        case .application: return child(n, .function).map { vectorValued($0, depth: depth + 1) } ?? false
        case .subscript, .primes: return child(n, .base).map { vectorValued($0, depth: depth + 1) } ?? false
        case .prefix:
            // A gradient (`∇g = ⟨x, y⟩`) is a vector, whatever its operand.
            if tree.string(n, .operator) == "nabla" { return true }
            return child(n, .argument).map { vectorValued($0, depth: depth + 1) } ?? false
        case .fenced: return child(n, .content).map { vectorValued($0, depth: depth + 1) } ?? false
        case .fraction: return child(n, .numerator).map { vectorValued($0, depth: depth + 1) } ?? false
        case .impliedTimes, .list: return anyItem(n)
        // The operators' string is read only for a sum holding a vector (most hold none).
        case .infix: return anyItem(n) && Self.additive(tree.string(n, .operators))
        default: return false
        }
    }

    /// Whether infix operators (``PropertyName/operators``) are only plus and minus signs.
    static func additive(_ operators: String?) -> Bool {
        operators.map { $0.unicodeScalars.allSatisfy { $0 == "+" || $0 == "−" || $0 == "-" || $0 == " " } } ?? false
    }

    /// Whether infix operators are only signs of multiplication (`r · ⟨x, y⟩`, a scalar multiple).
    static func multiplicative(_ operators: String?) -> Bool {
        operators.map { $0.unicodeScalars.allSatisfy { $0 == "⋅" || $0 == "·" || $0 == "×" || $0 == "∗" || $0 == " " } } ?? false
    }

    /// `n` with the angle brackets of two terms in it (itself, or a term of a sum, a product, a negation,
    /// a list, a relation, parentheses or a numerator) marked as a vector's components; nil when there are none.
    mutating func componentsMarked(_ n: NodeID, depth: Int) -> NodeID? {
        guard depth < 6 else { return nil }
        switch kind(n) {
        case .angleBrackets:
            guard !has(n, .components), let content = child(n, .content), kind(content) == .list, tree.childCount(content) == 3
            else { return nil }
            return flagged(n, .components)
        case .infix where Self.additive(tree.string(n, .operators)) || Self.multiplicative(tree.string(n, .operators)),
             .impliedTimes, .prefix, .fenced, .list, .fraction, .relation:
            let links = Array(tree.children(n))
            var marked: [NodeID?] = []
            for l in links {
                let inner = l.role == SemanticRole.operator.rawValue || l.role == SemanticRole.denominator.rawValue
                    ? nil : componentsMarked(l.node, depth: depth + 1)
                marked.append(inner)
            }
            guard marked.contains(where: { $0 != nil }) else { return nil }
            let mark = b.mark()
            for (l, m) in zip(links, marked) { b.add(child: m ?? l.node, roleNumber: l.role) }
            b.copyProperties(of: n)
            return b.finish(kind(n), mark, text: tree.text(n), range: range(n))
        default:
            return nil
        }
    }

    /// Logical connectives (⟺ ⇔ ⟹ ⇒ ⟸ ⇐: `\iff`, `\implies`, `\Rightarrow`…) bind looser than the relations
    /// they join: `\mathbf b \in C \iff A\mathbf x = \mathbf b` is a ``SemanticKind/relation`` of two relations, so
    /// that each clause is a whole (a language that puts the verb last says "b は C に属する" before the
    /// connective). Nil when the span has no connective or only connectives.
    mutating func connectiveSpan(_ r: Range<Int>, hasPunctuation: Bool, _ ctx: Context) -> NodeID? {
        var connectives = 0, others = 0
        for i in r where tokens[i].kind == .relation {
            if Self.isConnective(tokenScalar(tokens[i])) { connectives += 1 } else { others += 1 }
        }
        guard connectives > 0, others > 0 else { return nil }
        let mark = b.mark()
        let operators = operatorTexts.count
        var start = r.lowerBound
        for i in r where tokens[i].kind == .relation && Self.isConnective(tokenScalar(tokens[i])) {
            if i > start { b.add(child: relationSpan(start..<i, hasPunctuation: hasPunctuation, ctx), .item) }
            b.add(child: tokens[i].node, .operator)
            addOperatorText(tokens[i], since: operators)
            start = i + 1
        }
        if start < r.upperBound { b.add(child: relationSpan(start..<r.upperBound, hasPunctuation: hasPunctuation, ctx), .item) }
        addOperators(since: operators)
        return b.finish(.relation, mark)
    }

    static func isConnective(_ u: Unicode.Scalar?) -> Bool {
        switch u {
        case "\u{27FA}", "\u{21D4}", "\u{27F9}", "\u{21D2}", "\u{27F8}", "\u{21D0}": true
        default: false
        }
    }

    /// A reaction arrow (→ ⟶ ⇌ ⇄ ⇆ ⟷ ↔ ⇋) between the sides of a chemical equation.
    static func isReactionArrow(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "\u{2192}", "\u{27F6}", "\u{21CC}", "\u{21C4}", "\u{21C6}", "\u{27F7}", "\u{2194}", "\u{21CB}": true
        default: false
        }
    }

    /// Notes an operator's text for the `operators` of the node being built (texts noted since
    /// `start`), once per distinct text. The texts are kept as the nodes that hold them (-1: none,
    /// the empty text), so that no string is copied to note one.
    mutating func addOperatorText(_ t: Token, since start: Int) {
        let n = t.textNode
        let index = n < 0 ? -1 : tree.record(n).text
        for k in start..<operatorTexts.count {
            let other = operatorTexts[k]
            let otherIndex = other < 0 ? -1 : tree.record(other).text
            // The same string, or two leaves' equal texts.
            if otherIndex == index || (index >= 0 && otherIndex >= 0 && text(other) == text(n)) { return }
        }
        operatorTexts.push(n)
    }

    /// The text of a node noted by ``addOperatorText(_:since:)``.
    func operatorText(_ n: NodeID) -> String { n < 0 ? "" : text(n) }

    /// The operator texts noted since `start`, space-separated in order of appearance; removes them.
    mutating func takeOperatorTexts(since start: Int) -> String {
        defer { operatorTexts.truncate(to: start) }
        if operatorTexts.count - start == 1 { return operatorText(operatorTexts[start]) }
        var s = ""
        for k in start..<operatorTexts.count {
            if k > start { s += " " }
            s += operatorText(operatorTexts[k])
        }
        return s
    }

    /// Adds `operators`, the operator texts noted since `start` (``takeOperatorTexts(since:)``), to the
    /// node being built and removes them; returns the value's sole scalar. One text that
    /// ``SemanticTree/Builder/string(_:_:)`` would store as a string is stored as the string its leaf
    /// already holds (no copy, no search of the atoms and integers).
    @discardableResult
    mutating func addOperators(since start: Int) -> Unicode.Scalar? {
        if operatorTexts.count - start == 1, operatorTexts[start] >= 0 {
            let n = operatorTexts[start]
            let index = tree.record(n).text
            // Texts that may be `true`, an atom or an integer (a lower-case letter, a digit or `-` first)
            // take the general path.
            let first = index < 0 ? 0 : (text(n).utf8.withContiguousStorageIfAvailable { $0.first ?? 0 } ?? text(n).utf8.first ?? 0)
            if index >= 0, !(first >= 0x61 && first <= 0x7A), !(first >= 0x30 && first <= 0x39), first != 0x2D {
                operatorTexts.truncate(to: start)
                b.add(SemanticTree.Property(name: PropertyName.operators.rawValue, form: .string, payload: index))
                return scalar(n)
            }
        }
        let ops = takeOperatorTexts(since: start)
        b.string(.operators, ops)
        return ops.soleScalar
    }

    /// Items separated by `,` `;` (and words), each an expression (`hasPunctuation` false when the
    /// tokens are known to hold no punctuation).
    mutating func listSpan(_ r: Range<Int>, hasPunctuation: Bool = true, _ ctx: Context) -> NodeID {
        guard hasPunctuation, r.contains(where: { tokens[$0].kind == .punctuation }) else { return expression(r, ctx) }
        let mark = b.mark()
        var start = r.lowerBound
        for i in r where tokens[i].kind == .punctuation {
            if i > start {
                let item = expression(start..<i, ctx)
                b.add(child: item, .item)
            }
            b.add(child: tokens[i].node, .operator)
            start = i + 1
        }
        if start < r.upperBound {
            let item = expression(start..<r.upperBound, ctx)
            b.add(child: item, .item)
        }
        return b.finish(.list, mark)
    }

    /// An expression without relations or separators. Tokens the grammar cannot place (a stray
    /// relation inside a body, an orphan apply) are kept in a ``SemanticKind/row``.
    mutating func expression(_ r: Range<Int>, _ ctx: Context) -> NodeID {
        // One operand (`x` and `1` in `x = 1`): every level below takes it as it is, with the scripts
        // written on its closing fence.
        if r.count == 1, tokens[r.lowerBound].kind == .operand {
            let t = tokens[r.lowerBound]
            return t.fence >= 0 ? finishFence(groups[Int(t.fence)].node, t.fence) : t.node
        }
        var p = ExpressionParser(pos: r.lowerBound, end: r.upperBound)
        let mark = b.mark()
        var pieces = 0
        while p.pos < r.upperBound {
            let before = p.pos
            if let n = additive(&p) {
                b.add(child: n, .item)
                pieces += 1
            }
            if p.pos == before {
                // No progress: take the token as it is.
                b.add(child: tokens[p.pos].node, .item)
                pieces += 1
                p.pos += 1
            }
        }
        if pieces == 0 { return empty(nil) }
        if pieces == 1 { return b.takeOnlyChild(mark) }
        return b.finish(.row, mark)
    }
}

/// Where the precedence parse of one expression stands.
struct ExpressionParser {
    /// The next token (an index into ``Analyzer/tokens``).
    var pos: Int
    /// The end of the expression's tokens.
    let end: Int
    /// Integrals whose differential has not been read yet: a differential ends their body.
    var openIntegrals = 0
    /// Nesting of big-operator, limit and function bodies.
    var bodyDepth = 0
    /// Where the factors of the innermost run being read start on ``Analyzer/factors`` (a function's
    /// argument, a big operator's body and the expression itself are runs of their own).
    var runBase = 0
    /// Whether the innermost run is a function's argument (``Analyzer/juxtaposed(_:argumentRun:)``).
    var inArgumentRun = false

    init(pos: Int, end: Int) {
        self.pos = pos
        self.end = end
    }

    var atEnd: Bool { pos >= end }
}

extension Analyzer {
    // MARK: Levels

    /// Binary operators other than the multiplicative ones, all in one ``SemanticKind/infix``; an
    /// evaluation bar wraps what precedes it.
    mutating func additive(_ p: inout ExpressionParser) -> NodeID? {
        let first = term(&p)
        // Most calls find one operand and no operator: no node to build.
        if p.atEnd { return first }
        let next = tokens[p.pos].kind
        if next != .evaluationBar && next != .additive && !(next == .multiplicative && first == nil) { return first }
        let (mark, operators) = (b.mark(), operatorTexts.count)
        var count = beginInfix(first)
        while !p.atEnd {
            let t = tokens[p.pos]
            if t.kind == .evaluationBar {
                p.pos += 1
                let body = finishInfix(mark, count, operators: operators)
                let e = evaluated(body, t)
                b.add(child: e, .item)
                count = 1
                continue
            }
            guard t.kind == .additive || (t.kind == .multiplicative && count == 0) else { break }
            p.pos += 1
            let operand = term(&p)
            addOperation(t, operand, count: &count, operators: operators)
        }
        if count == 0 { return nil }
        return finishInfix(mark, count, operators: operators)
    }

    /// Adds the first operand (if any) of the infix node being built; the node's child count so far.
    mutating func beginInfix(_ first: NodeID?) -> Int {
        guard let first else { return 0 }
        b.add(child: first, .item)
        return 1
    }

    /// Adds an operator token and the operand after it (if any) to the infix node being built, which
    /// has `count` children so far (operator texts noted since `operators`).
    mutating func addOperation(_ t: Token, _ operand: NodeID?, count: inout Int, operators: Int) {
        b.add(child: t.node, .operator)
        count += 1
        addOperatorText(t, since: operators)
        if let operand {
            b.add(child: operand, .item)
            count += 1
        }
    }

    /// The ``SemanticKind/infix`` of the `count` children added since `mark` (the operator texts
    /// noted since `operators`); an operand alone, or an operator alone (`A^{\dagger}`, `x^{*}`), is
    /// itself.
    mutating func finishInfix(_ mark: SemanticTree.Builder.Mark, _ count: Int, operators: Int) -> NodeID {
        if count <= 1 {
            operatorTexts.truncate(to: operators)
            return count == 1 ? b.takeOnlyChild(mark) : empty(nil)
        }
        let sole = addOperators(since: operators)
        let n = b.finish(.infix, mark)
        // Single bonds between parts of a structural formula (`CH_3−CH_2−OH`) read as chemistry.
        // (Tested on the sole scalar: `==` with the non-ASCII "−" takes String's slow, normalising
        // comparison for every other operator text, ~75 instructions.)
        if sole == "\u{2212}" || sole == "-", tree.isBondChain(tree.children(n).lazy.filter { $0.role == SemanticRole.item.rawValue }.map { $0.node }) {
            return flagged(n, .chemical)
        }
        // A single bond drawn as a box-drawing line (`HO─C`): chemistry's alone.
        if sole == "\u{2500}", tree.isDrawnBondChain(tree.children(n).lazy.filter { $0.role == SemanticRole.item.rawValue }.map { $0.node }) {
            return flagged(elementsOfSpecies(n), .chemical)
        }
        return n
    }

    /// A reaction's species with their element symbols set as text read as elements (`<mtext>Zn</mtext>`,
    /// `2<mtext>Ag</mtext>`: "cap Z n", as in its formulas), through sums and coefficients, which are marked
    /// `chemical`; `n` when none is.
    mutating func elementsOfSpecies(_ n: NodeID) -> NodeID {
        switch kind(n) {
        case .text:
            return tree.isElementText(n) ? elementsOfWords(n) : n
        case .subscript, .power:
            // A counted or charged element set as text (`<msub><mtext>I</mtext><mn>2</mn></msub>`).
            guard let base = child(n, .base), tree.isElementText(base) else { return n }
            return elementsOfWords(n)
        case .relation, .infix, .impliedTimes:
            let links = Array(tree.children(n))
            var changed = false
            var parts: [NodeID] = []
            for link in links {
                let part = link.role == SemanticRole.item.rawValue ? elementsOfSpecies(link.node) : link.node
                changed = changed || part != link.node
                parts.append(part)
            }
            guard changed else { return n }
            // A sum of species or a coefficient before one is chemistry's, as a formula is: its elements read so.
            return rebuilt(n, children: parts, flag: kind(n) != .relation && !has(n, .chemical) ? .chemical : nil)
        default:
            return n
        }
    }

    /// A copy of `n` with other children, one for each of its links and in their roles, its properties, and the flag
    /// `flag` when given.
    mutating func rebuilt(_ n: NodeID, children parts: [NodeID], flag: PropertyName? = nil) -> NodeID {
        let mark = b.mark()
        for (link, part) in zip(tree.children(n), parts) { b.add(child: part, roleNumber: link.role) }
        b.copyProperties(of: n)
        if let flag { b.flag(flag) }
        return b.finish(kind(n), mark, text: text(n), range: range(n))
    }

    /// A copy of `n` with its properties and the flag `name`.
    mutating func flagged(_ n: NodeID, _ name: PropertyName) -> NodeID {
        let mark = b.mark()
        b.copyProperties(of: n)
        b.flag(name)
        return b.copy(n, kind: kind(n), propertiesSince: mark)
    }

    /// The evaluation (``SemanticKind/evaluatedAt``) of `body` at a bare bar's limits.
    mutating func evaluated(_ body: NodeID, _ bar: Token) -> NodeID {
        let big = bigs[Int(bar.big)]
        let mark = b.mark()
        b.add(child: body, .body)
        b.flag(.bar)
        // A closing bracket for the bar (`F(x) \Big]_0^1`), as `\left. F(x) \right]_0^1` has.
        if scalar(big.head) == "]" { b.string(.close, "]") }
        if let l = big.lower { b.add(child: l, .lower); b.flag(.lower) }
        if let u = big.upper { b.add(child: u, .upper); b.flag(.upper) }
        return b.finish(.evaluatedAt, mark, range: SourceRange.union(range(body), big.range))
    }

    /// A ``SemanticKind/measurement`` of `quantity` in degrees Celsius or Fahrenheit (`scale`: the unit's
    /// symbol, `°C` or `°F`), as a quantity followed by `℃` or `\text{°C}` makes; nil if the unit words do
    /// not know the symbol.
    mutating func temperatureMeasurement(_ quantity: NodeID, scale: String, range: SourceRange?) -> NodeID? {
        guard let key = Vocabulary.unitKey(scale, names: unitNames) else { return nil }
        return measurementNode(quantity, Unit(text: scale, key: key, power: nil, range: range, used: 0))
    }

    /// `× ÷ ⋅ * /` in one ``SemanticKind/infix``; `mod` makes a ``SemanticKind/modulo``.
    mutating func term(_ p: inout ExpressionParser) -> NodeID? {
        let first = unary(&p)
        if p.atEnd || (tokens[p.pos].kind != .modulo && tokens[p.pos].kind != .multiplicative) { return first }
        let (mark, operators) = (b.mark(), operatorTexts.count)
        var count = beginInfix(first)
        while !p.atEnd {
            let t = tokens[p.pos]
            if t.kind == .modulo {
                p.pos += 1
                let left: NodeID? = count == 0 ? nil : finishInfix(mark, count, operators: operators)
                let right = unary(&p)
                let modulo = b.mark()
                if let left { b.add(child: left, .item) }
                if let right { b.add(child: right, .argument) }
                b.atom(.form, atom(t.node, .class) == .bin ? .bmod : .mod)
                let r = SourceRange.union(SourceRange.union(left.flatMap(range), range(t.node)), right.flatMap(range))
                let m = b.finish(.modulo, modulo, range: r)
                b.add(child: m, .item)
                count = 1
                continue
            }
            guard t.kind == .multiplicative else { break }
            p.pos += 1
            let operand = unary(&p)
            addOperation(t, operand, count: &count, operators: operators)
        }
        if count == 0 { return nil }
        return finishInfix(mark, count, operators: operators)
    }

    /// Prefix `− + ± ∓` before a product: `negative`, `positive`, `plus-minus`, `minus-plus`
    /// (ClearSpeak: "negative 7", "the negative of"); not one the author marked `form="infix"`, which
    /// stays a binary operator with nothing on its left.
    mutating func unary(_ p: inout ExpressionParser) -> NodeID? {
        let first = p.pos
        while !p.atEnd, tokens[p.pos].kind == .additive, !tokens[p.pos].writtenInfix,
              Analyzer.prefixName(tokenScalar(tokens[p.pos])) != nil {
            p.pos += 1
        }
        var k = p.pos - 1
        var result = juxtaposition(&p)
        while k >= first {
            let t = tokens[k]
            if let r = result {
                let mark = b.mark()
                b.add(child: t.node, .operator)
                b.add(child: r, .argument)
                b.atom(.operator, Analyzer.prefixName(tokenScalar(t))!)
                result = b.finish(.prefix, mark, range: SourceRange.union(range(t.node), range(r)))
            } else {
                result = t.node
            }
            k -= 1
        }
        return result
    }

    /// Whether a MathML `mo` says `form="infix"`.
    static func writtenInfix(_ m: MathNode) -> Bool {
        m.attributes?["form"]?.trimmingSpaces == "infix"
    }

    static func prefixName(_ u: Unicode.Scalar?) -> PropertyAtom? {
        switch u {
        case "−", "-": return .negative
        case "+": return .positive
        case "±": return .plusMinus
        case "∓": return .minusPlus
        default: return nil
        }
    }

    /// Juxtaposed factors: ``SemanticKind/impliedTimes`` (after merging mixed numbers, `\pmod` and
    /// degrees-minutes), or the single factor.
    mutating func juxtaposition(_ p: inout ExpressionParser) -> NodeID? {
        // An operand followed by an operator or by the end: the one factor, taken as ``factor(_:)``
        // takes an operand with nothing after it that binds.
        if !p.atEnd, tokens[p.pos].kind == .operand, p.pos + 1 == p.end || Analyzer.endsFactors(tokens[p.pos + 1].kind) {
            let t = tokens[p.pos]
            p.pos += 1
            return t.fence >= 0 ? finishFence(groups[Int(t.fence)].node, t.fence) : t.node
        }
        let base = factors.count
        juxtaposed(&p, argumentRun: false)
        return product(from: base)
    }

    /// The factors from here to the next operator, pushed on ``factors``. In a function's argument
    /// run (`argumentRun`), a further function name, big operator or limit after a factor ends the run
    /// (`\sin x \cos y`).
    mutating func juxtaposed(_ p: inout ExpressionParser, argumentRun: Bool) {
        let base = factors.count
        let (outerRun, outerArgumentRun) = (p.runBase, p.inArgumentRun)
        p.runBase = base
        p.inArgumentRun = argumentRun
        defer { (p.runBase, p.inArgumentRun) = (outerRun, outerArgumentRun) }
        while !p.atEnd {
            let t = tokens[p.pos]
            switch t.kind {
            case .operand, .postfix:
                // In a function's argument, brackets holding a function or a number after a factor end the argument:
                // `\sin x(\cos x)`, `\tan^2\theta\left(\frac{1}{\sec^2\theta}\right)` and `\tan x(1)` are products of the
                // function and the brackets, as trigonometric identities are worked (OpenStax's precalculus books), not the
                // sine of x applied to cos x ("the sine of x of cosine x"). `\cos k(x - ct)` keeps its argument.
                if argumentRun, factors.count > base, t.fence >= 0, groupHoldsFunctionOrNumber(t.fence) { return }
                let f = factor(&p)
                factors.push(f)
            case .function, .word:
                if argumentRun && factors.count > base { return }
                let a = application(&p)
                factors.push(a)
            case .prefix:
                p.pos += 1
                var t = t
                // `∃!` (there exists a unique): the mark is the sign's, not a factorial of it.
                if tokenScalar(t) == "∃", !p.atEnd, tokens[p.pos].kind == .postfix, case .factorial(1)? = tokens[p.pos].postfix {
                    let r = SourceRange.union(range(t.node), range(tokens[p.pos].node))
                    let leaf = operatorLeaf("∃!", .ord, range: r)
                    t = Token(.prefix, leaf, text: leaf)
                    p.pos += 1
                }
                let u = tokenScalar(t)
                if Analyzer.isGeometric(u) {
                    // ∠ABC, △ABC: the letters after the sign name the figure.
                    let run = factors.count
                    juxtaposed(&p, argumentRun: true)
                    if let a = product(from: run) {
                        let n = quantified(t, a)
                        factors.push(n)
                    } else {
                        factors.push(t.node)
                    }
                } else if u == "#", factors.count > base || p.atEnd || tokens[p.pos].kind != .operand
                            || kind(tokens[p.pos].node) == .number {
                    // `#` after a factor is between two (`M \# N`, a connected sum), and before a number, a
                    // function or nothing it counts nothing (`\#3`): a symbol, not a count.
                    factors.push(t.node)
                } else if !p.atEnd, tokens[p.pos].kind == .operand || tokens[p.pos].kind == .function {
                    let a = tokens[p.pos].kind == .function ? application(&p) : factor(&p)
                    let n = quantified(t, a)
                    factors.push(n)
                } else {
                    factors.push(t.node)
                }
            case .bigOperator:
                if argumentRun && factors.count > base { return }
                let n = bigOperator(&p)
                factors.push(n)
            case .limit:
                if argumentRun && factors.count > base { return }
                let n = limit(&p)
                factors.push(n)
            case .differential:
                if p.openIntegrals > 0 { return }
                p.pos += 1
                factors.push(t.node)
            case .apply:
                p.pos += 1
            default:
                return
            }
        }
    }

    /// Whether a token of `kind` ends a run of juxtaposed factors (``juxtaposed(_:argumentRun:)``).
    static func endsFactors(_ kind: Token.Kind) -> Bool {
        switch kind {
        case .relation, .punctuation, .additive, .multiplicative, .modulo, .evaluationBar, .wideSpace: return true
        default: return false
        }
    }

    /// A prefix of one factor (¬ ∀ ∃ ∃! ∄, ∠ △ before letters, `#` before a set: its cardinality) applied
    /// to its argument.
    mutating func quantified(_ t: Token, _ argument: NodeID) -> NodeID {
        let mark = b.mark()
        b.add(child: t.node, .operator)
        b.add(child: argument, .argument)
        if let name = Analyzer.quantifierName(tokenScalar(t)) ?? (tokenText(t) == "∃!" ? .existsUnique : nil) {
            b.atom(.operator, name)
        } else {
            b.string(.operator, tokenText(t))
        }
        return b.finish(.prefix, mark, range: SourceRange.union(range(t.node), range(argument)))
    }

    static func isQuantifier(_ u: Unicode.Scalar?) -> Bool {
        u == "∀" || u == "∃" || u == "∄"
    }

    /// Whether a prefix token is a quantifier: ∀ ∃ ∄, or `∃!` written as one operator.
    func isQuantifier(_ t: Token) -> Bool {
        Analyzer.isQuantifier(tokenScalar(t)) || tokenText(t) == "∃!"
    }

    /// Where the quantified clauses of `tokens[r]` after the first begin (``relationSpan(_:hasPunctuation:_:)``):
    /// at each quantifier that follows an operand, when the clause before it holds a relation
    /// (`\forall x \exists y` stays one clause: the variable is bound, nothing is said of it). Nil when
    /// there is none.
    func quantifiedClauseCuts(_ r: Range<Int>) -> [Int]? {
        var cuts: [Int]? = nil
        var relation = false
        for i in r.dropFirst() {
            let t = tokens[i]
            if t.kind == .relation {
                relation = true
            } else if relation, t.kind == .prefix, isQuantifier(t), tokens[i - 1].kind == .operand || tokens[i - 1].kind == .postfix {
                cuts = (cuts ?? []) + [i]
                relation = false
            }
        }
        return cuts
    }

    static func isGeometric(_ u: Unicode.Scalar?) -> Bool {
        u == "∠" || u == "∡" || u == "△" || u == "▵" || u == "⊾"
    }

    static func quantifierName(_ u: Unicode.Scalar?) -> PropertyAtom? {
        switch u {
        case "¬": return .not
        case "∀": return .forAll
        case "∃": return .exists
        case "∄": return .notExists
        case "∠": return .angle
        case "∡": return .measuredAngle
        case "△", "▵": return .triangle
        case "⊾": return .rightAngle
        case "#": return .cardinality
        default: return nil
        }
    }

    // MARK: Factors

    /// One operand with what binds tighter than juxtaposition: scripts written on its closing fence,
    /// postfix operators, a parenthesised argument when it is a function (ClearSpeak "Functions"),
    /// ∇ before an operand.
    mutating func factor(_ p: inout ExpressionParser) -> NodeID {
        let t = tokens[p.pos]
        p.pos += 1
        if t.kind == .postfix { return t.node }       // a postfix with nothing before it
        var n = t.fence >= 0 ? finishFence(groups[Int(t.fence)].node, t.fence) : t.node
        n = postfixes(&p, n)
        // U+2061 FUNCTION APPLICATION: the next operand is the argument.
        if t.forcedFunction, !p.atEnd {
            let next = tokens[p.pos]
            if next.kind == .operand {
                p.pos += 1
                var facts = ApplicationFacts()
                facts.functionClass = kind(n) == .functionName ? (atom(n, .functionClass) ?? .named) : .generic
                let arg: NodeID
                if next.fence >= 0, groups[Int(next.fence)].isArgumentLike {
                    facts.argumentFenced = true
                    let app = application(n, groups[Int(next.fence)].plain, facts)
                    let fenced = finishFence(app, next.fence)
                    return postfixes(&p, fenced)
                } else if next.fence >= 0 {
                    let fenced = finishFence(groups[Int(next.fence)].node, next.fence)
                    arg = postfixes(&p, fenced)
                } else {
                    arg = postfixes(&p, next.node)
                }
                return application(n, arg, facts)
            }
            if next.kind == .function || next.kind == .word {
                let a = application(&p)
                var facts = ApplicationFacts()
                facts.functionClass = .generic
                return application(n, a, facts)
            }
        }
        // \Re z, \Im \lambda: the real or imaginary part of the operand after the letter, as ℜ(z) is
        // (``SemanticTree/Records/partFunctionName(_:)``); ℜ alone, raised (`\Re^n`, the reals) or before a
        // relation or an operator stays the letter.
        // The operand is a whole factor (`\Re \Pi_{lm}(\omega)`: the part of Π applied); one that is itself ℜ or
        // ℑ is not taken (a run of them would nest as deep as it is long).
        if !p.atEnd, tokens[p.pos].kind == .operand, tokens[p.pos].fence < 0, let name = tree.partFunctionName(n),
           tree.partFunctionName(tokens[p.pos].node) == nil {
            let argument = factor(&p)
            var facts = ApplicationFacts()
            facts.functionClass = .named
            return application(functionName(name, range: range(n), nameClass: .named), argument, facts)
        }
        if tree.isNabla(n), !p.atEnd {
            // ∇⋅F, ∇×F after another factor (κ∇⋅u, 2∇×E): the divergence or curl binds tighter than the
            // juxtaposition before it, as ∇ before an operand does. (∇ first in its term is not taken
            // here: term() makes the same infix of it.)
            let op = tokens[p.pos]
            if op.kind == .multiplicative, p.pos + 1 < p.end, tokens[p.pos + 1].kind == .operand,
               let u = tokenScalar(op), u == "⋅" || u == "·" || u == "×" {
                p.pos += 1
                let operand = factor(&p)
                let (mark, operators) = (b.mark(), operatorTexts.count)
                var count = beginInfix(n)
                addOperation(op, operand, count: &count, operators: operators)
                return finishInfix(mark, count, operators: operators)
            }
            // ∇ before an operand, also one in brackets (`\nabla(f - g)`: "the gradient of, open paren f
            // minus g, close paren", where it was "del times", a product with the bracket).
            if op.kind == .operand {
                let a = op.fence >= 0 ? finishFence(groups[Int(op.fence)].node, op.fence) : op.node
                p.pos += 1
                let argument = postfixes(&p, a)
                let mark = b.mark()
                b.add(child: n, .operator)
                b.add(child: argument, .argument)
                b.atom(.operator, .nabla)
                return b.finish(.prefix, mark, range: SourceRange.union(range(n), range(a)))
            }
        }
        // A letter before parentheses: f(x) is an application; k(5) may be one — unless an invisible
        // times is written between them (`t⁢(x)`: the author says it is a product).
        // A formula before a state of matter (`\mathrm{CO}_2(g)`) is a formula and its state (``product(from:)``).
        if !t.explicitTimes, !p.atEnd, tokens[p.pos].fence >= 0, groups[Int(tokens[p.pos].fence)].isArgumentLike,
           !tree.isFormula(CollectionOfOne(n), beforeState: groups[Int(tokens[p.pos].fence)].node),
           // In a quadratic form the matrix before the repeated vector is no function:
           // `(x-\mu)^T \Sigma^{-1} (x-\mu)`, `(x-\mu)^T A (x-\mu)` are Σ⁻¹ and A times (x−μ)
           // (``markQuadraticForms(_:)``).
           !repeatsTransposedFactor(tokens[p.pos].fence, p) {
            let g = tokens[p.pos].fence
            switch tree.functionLikeness(n) {
            case .generic(var facts):
                p.pos += 1
                facts.argumentFenced = true
                // ℜ(z), ℑ(z): the real or imaginary part (``SemanticTree/Records/partFunctionName(_:)``).
                let function = tree.partFunctionName(n).map { functionName($0, range: range(n), nameClass: .named) } ?? n
                let app = application(function, groups[Int(g)].plain, facts)
                let fenced = finishFence(app, g)
                return postfixes(&p, fenced)
            case .possible where p.inArgumentRun && groupHoldsFunctionOrNumber(g):
                // The argument of a function before brackets that hold a function or a number is no function itself: the
                // brackets end the argument (``juxtaposed(_:argumentRun:)``).
                break
            case .possible where tree.soleScalar(n) == "π" && child(groups[Int(g)].plain, .content).map({ kind($0) == .measurement }) == true:
                // π before a quantity in parentheses multiplies it (`2π(60 Hz) t`, `2π(0.175 m)`): no function
                // takes a physical quantity, and π is the constant (the prime-counting π(x) stays possible).
                break
            case .possible where tree.string(groups[Int(g)].plain, .open) == "[" && !has(n, .greek)
                && child(groups[Int(g)].plain, .content).map({ has($0, .chemical) }) == true:
                // A chemical formula in square brackets is its concentration: `k[NO_2]^m[CO]^n` is a rate constant times
                // the concentrations, not k applied ("rate equals k of, open bracket…": OpenStax's chemistry, English and
                // Spanish sweep 6, session 54). Δ[NH_3], the change of a concentration, stays Δ's.
                break
            case .possible where appliesElsewhere(n, groups[Int(g)].plain):
                // u(x+1) = u(x): a letter the formula applies to a simple argument elsewhere is a
                // function here too, whatever its parentheses hold.
                p.pos += 1
                var facts = ApplicationFacts()
                facts.functionClass = .generic
                facts.argumentFenced = true
                let app = application(n, groups[Int(g)].plain, facts)
                let fenced = finishFence(app, g)
                return postfixes(&p, fenced)
            case .possible:
                // P(A) = P(A ∩ B) / P(B): a letter the formula writes before a sum or a product elsewhere
                // (an application there, as this simple argument makes it) is marked `applied-elsewhere`,
                // so that a style reading a possible function's parentheses (SimpleSpeak) reads both alike;
                // searched for only when the style reads the mark (``SemanticAnalyzer/Options/marksAppliedElsewhere``).
                let elsewhere = marksAppliedElsewhere && appliedToMoreElsewhere(n, groups[Int(g)].plain)
                p.pos += 1
                let fenced = finishFence(groups[Int(g)].plain, g)
                let arg = postfixes(&p, fenced)
                let base = factors.count
                factors.push(n)
                factors.push(arg)
                defer { factors.truncate(to: base) }
                return impliedTimes(base..<factors.count, possibleFunction: true, appliedElsewhere: elsewhere,
                                    oneArgument: holdsOneArgument(arg))
            case .none:
                break
            }
        }
        // f|x|, g‖v‖: a function letter before bars is applied to the absolute value or norm.
        if !p.atEnd, tokens[p.pos].fence >= 0, case .generic(var facts) = tree.functionLikeness(n), kind(n) != .fenced {
            let g = tokens[p.pos].fence
            let groupKind = kind(groups[Int(g)].node)
            if groupKind == .absoluteValue || groupKind == .norm {
                p.pos += 1
                facts.argumentFenced = false
                let argument = postfixes(&p, finishFence(groups[Int(g)].node, g))
                return application(n, argument, facts)
            }
        }
        return n
    }

    /// Whether the brackets of group `g` hold a function's application (at any depth) or are a number alone.
    func groupHoldsFunctionOrNumber(_ g: Int32) -> Bool {
        let fenced = groups[Int(g)].plain
        return child(fenced, .content).map { kind($0) == .number } == true || tree.contains(.application, below: fenced)
    }

    /// `!`, `!!`, `%`, primes and `°` after an operand.
    mutating func postfixes(_ p: inout ExpressionParser, _ base: NodeID) -> NodeID {
        var n = base
        while !p.atEnd, tokens[p.pos].kind == .postfix, let kind = tokens[p.pos].postfix {
            let t = tokens[p.pos]
            p.pos += 1
            let r = SourceRange.union(range(n), range(t.node))
            switch kind {
            case .factorial(var count):
                // `n!!` written as two marks is the double factorial.
                while !p.atEnd, tokens[p.pos].kind == .postfix, case .factorial(let more)? = tokens[p.pos].postfix {
                    count += more
                    p.pos += 1
                }
                let mark = b.mark()
                b.add(child: n, .argument)
                if count > 1 { b.integer(.count, count) }
                n = b.finish(.factorial, mark, range: r)
            case .percent:
                let mark = b.mark()
                b.add(child: n, .quantity)
                n = b.finish(.percent, mark, range: r)
            case .degrees:
                let mark = b.mark()
                b.add(child: n, .quantity)
                n = b.finish(.degrees, mark, range: r)
            case .primes(let c):
                var s = Scripts()
                s.primes = c
                s.range = range(t.node)
                n = apply(s, to: n, range: r)
            }
        }
        return n
    }

    /// A named function and its argument: a parenthesised group right after it, otherwise the
    /// factors up to the next operator or function name (ClearSpeak "Trigonometric functions":
    /// `\sin 2x`, `\sin x + 1`).
    mutating func application(_ p: inout ExpressionParser) -> NodeID {
        let head = tokens[p.pos]
        p.pos += 1
        if !p.atEnd, tokens[p.pos].kind == .apply { p.pos += 1 }
        var facts = head.application
        if !p.atEnd, tokens[p.pos].fence >= 0 {
            let gi = tokens[p.pos].fence
            let g = groups[Int(gi)]
            // `HCl(aq)`, `NaCl(s)`, `\mathrm{CO_2(g)}`: a formula before a state of matter is a formula
            // and its state (``product(from:)``), no function and its argument.
            if tree.isFormula(CollectionOfOne(head.node), beforeState: g.node) {
                return postfixes(&p, head.node)
            }
            // `Ca(OH)_2`, `Ag(CN)_2^-` set as text: an element before a formula's group, no function.
            if head.kind == .word, tree.isFormulaBeforeGroup(head.node, group: g.plain) {
                return postfixes(&p, head.node)
            }
            if g.parenLike || (g.open == "(" && !g.closeIsEmpty) {
                p.pos += 1
                var function = head.node
                // A binomial, matrix or \pmod keeps its own reading as the argument.
                let argument = g.isArgumentLike ? g.plain : finishFence(g.node, gi)
                if head.kind == .word {
                    facts.functionClass = .named
                    function = functionName(text(head.node), range: range(head.node))
                }
                if !g.isArgumentLike {
                    let app = application(function, argument, facts)
                    return postfixes(&p, app)
                }
                facts.argumentFenced = true
                let app = application(function, argument, facts)
                let fenced = finishFence(app, gi)
                return postfixes(&p, fenced)
            }
        }
        if head.kind == .word {
            return postfixes(&p, head.node)
        }
        if p.bodyDepth >= Analyzer.maxBodyDepth { return head.node }
        p.bodyDepth += 1
        let base = factors.count
        juxtaposed(&p, argumentRun: true)
        p.bodyDepth -= 1
        guard let arg = product(from: base) else { return head.node }
        return application(head.node, arg, facts)
    }

    /// A big operator and its body: for sums and products the factors up to the next additive
    /// operator or relation; for integrals everything up to the differential, which becomes a
    /// `differential` child.
    mutating func bigOperator(_ p: inout ExpressionParser) -> NodeID {
        let head = tokens[p.pos]
        p.pos += 1
        guard head.big >= 0 else { return head.node }
        let big = bigs[Int(head.big)]
        // The differentials wait on the factor stack (the body's own factors come and go above them).
        let diffs = factors.count
        defer { factors.truncate(to: diffs) }
        var body: NodeID? = nil
        if p.bodyDepth < Analyzer.maxBodyDepth {
            p.bodyDepth += 1
            if big.integrals > 0 {
                if !p.atEnd, tokens[p.pos].kind == .differential {
                    // The measure written first (`\int d^4x\, \mathcal{L}`, physics' order) stays where it
                    // is written: the first factor of the body, read in every style where the author
                    // put it (moved to the end it read "integral f d x" in MathSpeak, which reads what is
                    // written).
                    body = term(&p)
                } else if Analyzer.differentialAhead(tokens, p) {
                    p.openIntegrals += 1
                    body = additive(&p)
                    p.openIntegrals -= 1
                    while !p.atEnd, tokens[p.pos].kind == .differential, factors.count - diffs < max(1, big.integrals) {
                        factors.push(tokens[p.pos].node)
                        p.pos += 1
                    }
                } else {
                    body = term(&p)
                }
            } else {
                body = term(&p)
            }
            p.bodyDepth -= 1
        }
        let mark = b.mark()
        var r = addParts(big, head: .operator, body: body, range: big.range ?? range(head.node))
        b.atom(.operatorName, big.name)
        if factors.count > diffs {
            var variables = ""
            for k in diffs..<factors.count {
                let d = factors[k]
                b.add(child: d, .differential)
                r = SourceRange.union(r, range(d))
                if k > diffs { variables += " " }
                // A measure's function applied (`dp(x)`) is named by the function.
                if var v = child(d, .variable) {
                    if kind(v) == .application, let f = child(v, .function) { v = f }
                    if let core = tree.coreIdentifier(v) { variables += text(core) }
                }
            }
            b.string(.differential, variables)
        }
        return b.finish(.bigOperator, mark, range: r)
    }

    /// Whether a differential follows before the end of this expression.
    static func differentialAhead(_ tokens: LentStack<Token>, _ p: ExpressionParser) -> Bool {
        var i = p.pos
        while i < p.end {
            if tokens[i].kind == .differential { return true }
            i += 1
        }
        return false
    }

    /// `\lim_{x \to 0}`, `\max_x`, `\limsup`: ``SemanticKind/limit`` with its body (the following
    /// factors, like a sum's).
    mutating func limit(_ p: inout ExpressionParser) -> NodeID {
        let head = tokens[p.pos]
        p.pos += 1
        guard head.big >= 0 else { return head.node }
        let big = bigs[Int(head.big)]
        var body: NodeID? = nil
        if p.bodyDepth < Analyzer.maxBodyDepth {
            p.bodyDepth += 1
            body = term(&p)
            p.bodyDepth -= 1
        }
        if big.lower == nil && big.upper == nil && body == nil { return big.head }
        let mark = b.mark()
        let r = addParts(big, head: .function, body: body, range: big.range ?? range(head.node))
        b.atom(.functionClass, atom(big.head, .functionClass) ?? .limit)
        return b.finish(.limit, mark, range: r)
    }

    /// Adds a big operator's or limit's head (with role `head`), limits and body to the node being
    /// built, with `limits-placement` and the `lower`/`upper` flags; returns `range` joined with the
    /// parts' ranges.
    mutating func addParts(_ big: BigParts, head: SemanticRole, body: NodeID?, range: SourceRange?) -> SourceRange? {
        var r = SourceRange.union(range, self.range(big.head))
        b.add(child: big.head, head)
        if let l = big.lower { b.add(child: l, .lower); r = SourceRange.union(r, self.range(l)) }
        if let u = big.upper { b.add(child: u, .upper); r = SourceRange.union(r, self.range(u)) }
        if let body { b.add(child: body, .body); r = SourceRange.union(r, self.range(body)) }
        if let placement = big.placement { b.atom(.limitsPlacement, placement) }
        if big.lower != nil { b.flag(.lower) }
        if big.upper != nil { b.flag(.upper) }
        return r
    }
}

extension Analyzer {
    /// How a node before a parenthesised group reads (ClearSpeak "Functions", Functions_Auto).
    enum FunctionLikeness {
        /// f, g, h, F, G, H (also subscripted), a letter with primes (`f'`), a letter with `^{-1}`:
        /// an application, with `function-class` = `generic` and power facts.
        case generic(ApplicationFacts)
        /// Another letter: implied times marked `possible-function` (rules choose "k of 5" or
        /// "a times (b + c)" from the argument).
        case possible
        case none
    }

    /// An ``SemanticKind/application``, with `function-name` (the name or letter of the function, for
    /// rules that speak it apart from its scripts) and `simple-argument` (ClearSpeak "Trigonometric
    /// functions", "Logarithms": "sine x" but "the sine of pi over 4").
    mutating func application(_ function: NodeID, _ argument: NodeID, _ facts: ApplicationFacts) -> NodeID {
        var core: NodeID? = function
        var steps = 0
        while let c = core, kind(c) != .functionName, kind(c) != .identifier, steps < 8 {
            core = child(c, .base)
            steps += 1
        }
        let inner = kind(argument) == .fenced ? (child(argument, .content) ?? argument) : argument
        let simple = tree.isSimple(inner)
        let mark = b.mark()
        b.add(child: function, .function)
        b.add(child: argument, .argument)
        b.atom(.functionClass, facts.functionClass)
        if facts.logBase { b.flag(.logBase) }
        addPowerProperties(facts.power)
        if facts.argumentFenced { b.flag(.argumentFenced) }
        if let c = core, kind(c) == .functionName || kind(c) == .identifier { b.string(.functionName, text(c)) }
        if simple { b.flag(.simpleArgument) }
        return b.finish(.application, mark)
    }

    /// The power facts of a function (`inverse`, or `power`, `power-value`, `power-kind`).
    mutating func addPowerProperties(_ power: PowerFacts) {
        if power.inverse { b.flag(.inverse) }
        if power.power { b.flag(.power) }
        if let v = power.value { b.integer(.powerValue, v) }
        if let k = power.kind { b.atom(.powerKind, k) }
    }

    /// Applies scripts written on a closing fence (of group `g`) to what the group became (`(x+1)^2`,
    /// `f(x)^2`, `|x|^2`); a bracket with both scripts, or with a condition under it, is an evaluation
    /// (`[F(x)]_a^b`, `[f(x)]_{x=0}`), with a subscript alone an index (`[A]_{ij}`, the entry of a matrix),
    /// as with a superscript that is an operator alone or an adjoint mark (`[A]_{ij}^\dagger`).
    mutating func finishFence(_ n: NodeID, _ g: Int32) -> NodeID {
        let group = groups[Int(g)]
        guard let s = group.scripts, !s.isEmpty else { return n }
        // An upper limit is never an operator alone nor an adjoint mark: `[A]_{ij}^{\dagger}`,
        // `[U]_{\mu\nu}^{*}`, `[M]_{ij}^{\top}` are the adjoint, conjugate or transpose of an entry.
        if group.open == "[" && group.close == "]", let sub = s.sub, s.sup != nil || kind(sub) == .relation,
           s.sup.map({ kind($0) != .operator && !Vocabulary.isAdjointMark(scalar($0)) }) ?? true, kind(n) != .application {
            let body = child(group.node, .content) ?? n
            let mark = b.mark()
            b.add(child: body, .body)
            b.atom(.fence, .brackets)
            b.string(.open, "[")
            b.string(.close, "]")
            if let l = s.sub { b.add(child: l, .lower); b.flag(.lower) }
            if let u = s.sup { b.add(child: u, .upper); b.flag(.upper) }
            return b.finish(.evaluatedAt, mark, range: SourceRange.union(range(n), group.scriptsRange))
        }
        return apply(s, to: n, range: SourceRange.union(range(n), group.scriptsRange))
    }

    /// Whether `n` is a text of a sentence's punctuation only (`.`, `;`, `:`, `,`, `!`, `?`).
    func isSentencePunctuation(_ n: NodeID) -> Bool {
        guard kind(n) == .text else { return false }
        let t = text(n)
        return !t.isEmpty && t.utf8.count <= 4
            && t.utf8.allSatisfy { $0 == 0x2E || $0 == 0x3B || $0 == 0x3A || $0 == 0x2C || $0 == 0x21 || $0 == 0x3F || $0 == 0x20 }
    }

    /// The factors `factors[base...]` as one node, removing them: mixed numbers (ClearSpeak "Mixed
    /// numbers": a whole number before a fraction of integers), `a \pmod{n}`, and minutes after
    /// degrees (ClearSpeak Prime_Auto: `30^\circ 15'` is 15 minutes); then
    /// ``SemanticKind/impliedTimes`` when several remain.
    mutating func product(from base: Int) -> NodeID? {
        // A sentence's punctuation set as text after a state (`<mi>g</mi><mtext>);</mtext>`, as OpenStax's chemistry ends an
        // equation inside a sentence: "H sub 2, of g"): the factors before it are one product, as without it, and the
        // punctuation follows that product.
        if factors.count - base >= 3, isSentencePunctuation(factors[factors.count - 1]) {
            var last = factors.count - 1
            while last > base, isSentencePunctuation(factors[last]) { last -= 1 }
            if last > base, tree.stateWord(factors[last]) != nil {
                let tail = factors.take(from: last + 1)
                if let inner = product(from: base) { factors.push(inner) }
                for t in tail { factors.push(t) }
            }
        }
        let end = factors.count
        defer { factors.truncate(to: base) }
        if end == base { return nil }
        if end - base == 1 { return factors[base] }
        var w = base
        for i in base..<end {
            let f = factors[i]
            // `Fe Cl_3 (aq)`: a state in parentheses after a chemical formula written as mathematics is
            // the formula's state, as mhchem's `\ce{FeCl3(aq)}` marks it.
            if i == end - 1, w - base >= 1, let word = tree.stateWord(f), tree.isFormula((base..<w).map { factors[$0] }, beforeState: f) {
                let mark = b.mark()
                b.string(.state, word)
                factors[w] = b.finish(.chemicalState, mark, text: word, range: range(f), rangeFromChildren: false)
                w += 1
                continue
            }
            if w > base {
                let last = factors[w - 1]
                if kind(last) == .number, has(last, .integer), tree.property(last, .repeatingDecimal) == nil,
                   kind(f) == .fraction, tree.property(f, .numeratorValue) != nil, tree.property(f, .denominatorValue) != nil {
                    let mark = b.mark()
                    b.add(child: last, .whole)
                    b.add(child: f, .item)
                    factors[w - 1] = b.finish(.mixedNumber, mark)
                    continue
                }
                // 1\frac{2}{3}\,kg: a whole number before a measurement of a fraction is a mixed number.
                if kind(last) == .number, has(last, .integer), tree.property(last, .repeatingDecimal) == nil,
                   kind(f) == .measurement, let q = child(f, .quantity), kind(q) == .fraction,
                   tree.property(q, .numeratorValue) != nil, tree.property(q, .denominatorValue) != nil {
                    let mixedMark = b.mark()
                    b.add(child: last, .whole)
                    b.add(child: q, .item)
                    let mixed = b.finish(.mixedNumber, mixedMark)
                    let mark = b.mark()
                    b.add(child: mixed, .quantity)
                    for link in tree.children(f) where link.role != SemanticRole.quantity.rawValue {
                        b.add(child: link.node, roleNumber: link.role)
                    }
                    b.copyProperties(of: f)
                    factors[w - 1] = b.finish(.measurement, mark)
                    continue
                }
                // 𝓛{f}, 𝓕{f}, 𝓩{x}: a script L, F or Z before braces is a transform applied to what the
                // braces hold (not a letter times a set).
                if kind(last) == .identifier, atom(last, .variant) == .script, kind(f) == .set,
                   let u = scalar(last), u == "L" || u == "F" || u == "Z", let content = child(f, .content) {
                    var facts = ApplicationFacts()
                    facts.functionClass = .transform
                    facts.argumentFenced = true
                    factors[w - 1] = application(last, content, facts)
                    continue
                }
                if kind(f) == .modulo, child(f, .item) == nil, has(f, .parenthesised) {
                    let mark = b.mark()
                    b.add(child: last, .item)
                    for link in tree.children(f) { b.add(child: link.node, roleNumber: link.role) }
                    b.copyProperties(of: f)
                    b.add(.atom(.form, .pmod), since: mark)
                    factors[w - 1] = b.finish(.modulo, mark)
                    continue
                }
                // 25^\circ\mathrm{C}: degrees on a temperature scale. Celsius and Fahrenheit are the units °C
                // and °F, as `25\,℃` and `25\,\text{°C}` are ("25 degrees Celsius" in every locale's unit
                // words); the scale's letter may be a text (`25^\circ\text{C}`). Kelvin has no degrees: `300^\circ K`
                // keeps its letter.
                if kind(last) == .degrees, tree.property(last, .scale) == nil, kind(f) == .identifier || kind(f) == .text {
                    let variant = tree.property(f, .variant)
                    let u = kind(f) == .text ? text(f).trimmingSpaces.soleScalar : scalar(f)
                    if u == "C" || u == "F", let quantity = child(last, .quantity), tree.childCount(last) == 1,
                       let degreesUnit = temperatureMeasurement(quantity, scale: u == "C" ? "°C" : "°F",
                                                                range: range(f)) {
                        factors[w - 1] = degreesUnit
                        continue
                    }
                    if kind(f) == .identifier, variant == nil || atom(f, .variant) == .normal, u == "K" {
                        let mark = b.mark()
                        for link in tree.children(last) { b.add(child: link.node, roleNumber: link.role) }
                        b.add(child: f, .unit)
                        b.atom(.scale, .kelvin)
                        factors[w - 1] = b.finish(.degrees, mark)
                        continue
                    }
                }
                if kind(f) == .measurement, tree.property(f, .primeUnit) != nil,
                   kind(last) == .degrees || has(last, .afterDegrees) {
                    let mark = b.mark()
                    b.copyProperties(of: f)
                    b.add(.flag(.afterDegrees), since: mark)
                    b.remove(.unitName, since: mark)
                    b.string(.unitName, tree.integer(f, .primeUnit) == 1 ? "′" : "″")
                    factors[w] = b.copy(f, kind: .measurement, propertiesSince: mark)
                    w += 1
                    continue
                }
            }
            factors[w] = f
            w += 1
        }
        if w - base == 1 { return factors[base] }
        return impliedTimes(base..<w, possibleFunction: false)
    }

    /// Whether `factors[r]` can be a chemical formula (``SemanticTree/Records/isChemicalFormula(_:)``), by
    /// the kind of each factor: an element symbol, a subscript, a power or a fenced group, after an
    /// optional leading number. A cheap look that spares most products the array that test needs.
    /// (Inlined: called out of line, a non-mutating method is handed a copy of the whole analyzer, see
    /// ``SemanticTree/Records/isNabla(_:)``.)
    @inline(__always)
    func mayBeChemicalFormula(_ r: Range<Int>) -> Bool {
        guard r.count >= 2 else { return false }
        var i = r.lowerBound
        if r.count >= 3, kind(factors[i]) == .number { i += 1 }
        while i < r.upperBound {
            let f = factors[i]
            switch kind(f) {
            case .identifier: if !tree.isElement(f) && !tree.isElementWord(f) { return false }
            // An element or a word of them set as text (`<msub><mtext>H</mtext><mn>2</mn></msub><mtext>S</mtext>`).
            case .text: if SemanticTree.Records.elementRunCount(tree.text(f)) == nil { return false }
            case .subscript, .power, .fenced: break
            case .chemicalState where i == r.upperBound - 1: break   // a formula's state ends it
            default: return false
            }
            i += 1
        }
        return true
    }

    /// Whether letter `n` (possibly a function: ``SemanticTree/functionLikeness(_:)``) before parentheses
    /// holding a sum or a product (`group`, not an argument the rules read "of" anyway) is applied to a
    /// simple argument elsewhere in the formula (`T(n) = 2T(n/2) + n`, `u(x+1) = u(x)`): read the same
    /// way in both places. The formula is searched once, and only when such a letter is met.
    mutating func appliesElsewhere(_ n: NodeID, _ group: NodeID) -> Bool {
        guard let content = child(group, .content), kind(content) == .infix || kind(content) == .impliedTimes,
              !isMeasureLetter(n), let letter = appliedLetterKey(n) else { return false }
        return appliedLetters.simple.contains(letter)
    }

    /// Whether letter `n`, before brackets (`group`) holding no sum or product, is written elsewhere in the
    /// formula before brackets holding more (three items or more, no list): ``appliesElsewhere(_:_:)``
    /// makes that place an application when it holds a sum or a product.
    mutating func appliedToMoreElsewhere(_ n: NodeID, _ group: NodeID) -> Bool {
        guard let content = child(group, .content), kind(content) != .infix, kind(content) != .impliedTimes,
              !isMeasureLetter(n), let letter = appliedLetterKey(n), let here = range(n) else { return false }
        // Another place than this one (`c(-\log ψ)` is no sum, but three items; a place without a
        // source range is no other place known).
        return appliedLetters.compound.contains { $0.letter == letter && $0.range != nil && $0.range != here }
    }

    /// The formula's ``AppliedLetters``, searched once, when first asked for.
    var appliedLetters: AppliedLetters {
        mutating get {
            if let found = lettersApplied { return found }
            let compound = marksAppliedElsewhere
            let found = root.map { r in r._withUnsafeGuaranteedRef { Analyzer.appliedLetters(in: $0, compound: compound) } } ?? AppliedLetters()
            lettersApplied = found
            return found
        }
    }

    /// A blackboard E or P, alone or with a subscript (`\mathbb{E}`, `\mathbb{P}_θ`): the expectation and the
    /// probability measure, which stay a possible function whatever the formula applies elsewhere, so that
    /// their readings (rule files: "the expected value of …") apply to every argument alike.
    func isMeasureLetter(_ n: NodeID) -> Bool {
        let core = kind(n) == .subscript ? child(n, .base) : n
        guard let core, kind(core) == .identifier, atom(core, .variant) == .doubleStruck else { return false }
        let u = tree.soleScalar(core)
        return u == "E" || u == "P"
    }

    /// The key of ``appliedLetters(in:)`` for node `n`: a letter's text (`u`), a
    /// letter with a letter or number as its subscript (`t_2`, `f_i`), or with an accent over it (`S^~`
    /// for S̃, keyed by the accent's character); nil for anything else.
    func appliedLetterKey(_ n: NodeID) -> String? {
        switch kind(n) {
        case .identifier:
            return text(n)
        case .subscript:
            guard let b = child(n, .base), kind(b) == .identifier, let s = child(n, .subscript),
                  kind(s) == .identifier || kind(s) == .number else { return nil }
            return text(b) + "_" + text(s)
        case .accent:
            guard tree.string(n, .position) != "under", let b = child(n, .base), kind(b) == .identifier,
                  let a = child(n, .accent), kind(a) == .operator || kind(a) == .identifier else { return nil }
            return text(b) + "^" + text(a)
        default:
            return nil
        }
    }

    /// What ``appliedLetters(in:)`` finds: the letters applied to a simple argument (`u(x)`) and the
    /// letters written before brackets holding three items or more (`u(x + 1)`), at most 16 each.
    struct AppliedLetters {
        var simple: [String] = []
        /// Each letter with the source range it is written at (a letter may be there more than once).
        var compound: [(letter: String, range: SourceRange?)] = []
    }

    /// The one-letter identifiers that `root` writes directly before parentheses or square brackets holding one
    /// identifier or number, or a list of them (`u(x)`, `T(n)`, `G(s, t)`, `E[X]`), in a row or as a fenced
    /// group, and such letters with a letter or number as subscript (`t_2(a)`, keyed `t_2`, as
    /// ``appliedLetterKey(_:)``) or an accent over them (`\tilde S(G)`); at most 16, searching at most 4,096 nodes (and 64 items after each
    /// letter). With `compound`, also the letters written so before brackets holding three items or more
    /// (`P(A \cap B)`; ``SemanticAnalyzer/Options/marksAppliedElsewhere``).
    static func appliedLetters(in root: MathNode, compound withCompound: Bool) -> AppliedLetters {
        var found: [String] = [], compound: [(letter: String, range: SourceRange?)] = []
        var stack = [root]
        var visited = 0
        func oneLetter(_ m: MathNode) -> String? {
            if case .identifier(let t, _) = m.kind, t.unicodeScalars.count == 1 { return t }
            return nil
        }
        /// The key of a letter, a letter with a subscript or a letter under a mark (``appliedLetterKey(_:)``;
        /// an over-script that the analysis does not take for an accent is a key never asked for).
        func letter(_ m: MathNode) -> String? {
            switch m.kind {
            case .identifier:
                return oneLetter(m)
            case .subscript:
                guard m.children.count == 2, let base = oneLetter(m.children[0]) else { return nil }
                switch m.children[1].kind {
                case .identifier(let t, _), .number(let t, _): return base + "_" + t
                default: return nil
                }
            case .over:
                guard m.children.count == 2, let base = oneLetter(m.children[0]) else { return nil }
                switch m.children[1].kind {
                case .operator(let a, _), .identifier(let a, _): return base + "^" + a
                default: return nil
                }
            default:
                return nil
            }
        }
        func isSimple(_ m: MathNode) -> Bool {
            switch m.kind {
            case .identifier, .number: return true
            case .subscript, .superscript: return m.children.first.map(isSimple) ?? false
            default: return false
            }
        }
        func isComma(_ m: MathNode) -> Bool {
            if case .operator(let t, _) = m.kind { return t == "," }
            return false
        }
        func isOperator(_ m: MathNode, _ text: String) -> Bool {
            if case .operator(let t, _) = m.kind { return t == text }
            return false
        }
        /// The closing bracket of an opening parenthesis or square bracket (an expectation `E[X]`, a
        /// sequence `x[n]` and a functional `S[φ]` apply as `u(x)` does); nil for anything else.
        func closer(_ open: String) -> String? { open == "(" ? ")" : open == "[" ? "]" : nil }
        func closer(_ m: MathNode) -> String? {
            guard case .operator(let t, _) = m.kind else { return nil }
            return closer(t)
        }
        /// Items `c[from..<to]` (or the one row they are) that may be a sum or a product: three or more, no
        /// separator, relation or bar among them (`A \cap B`, `x + 1`; not a list of arguments `(σ; λ, γ)` nor
        /// a condition `(A \mid B)`, `(y | x)`).
        func isCompound(_ c: MathNode.Children, _ from: Int, _ to: Int) -> Bool {
            if to - from == 1, case .row = c[from].kind { return isCompound(c[from].children, 0, c[from].children.count) }
            guard to - from >= 3 else { return false }
            for i in from..<to {
                if case .operator(let t, let o) = c[i].kind,
                   o.separator || o.atomClass == .rel || o.atomClass == .punct || t == "," || t == ";" || t == "|" {
                    return false
                }
            }
            return true
        }
        /// Items `c[from..<to]`: one simple item, or simple items separated by commas.
        func simpleList(_ c: MathNode.Children, _ from: Int, _ to: Int) -> Bool {
            guard from < to else { return false }
            var i = from
            while i < to {
                guard isSimple(c[i]) else { return false }
                i += 1
                if i < to { guard isComma(c[i]) else { return false }; i += 1; if i == to { return false } }
            }
            return true
        }
        while let m = stack.popLast(), visited < 4096, found.count < 16 {
            visited += 1
            let c = m.children
            for i in c.indices {
                if !c[i].children.isEmpty { stack.append(c[i]) }
                guard let l = letter(c[i]), i + 1 < c.count, withCompound || !found.contains(l) else { continue }
                let next = c[i + 1]
                // The bracketed items after the letter, when they are brackets.
                var inside: (MathNode.Children, Int, Int)? = nil
                if let close = closer(next), case .operator(let open, _) = next.kind {
                    // A simple argument list is short: the closing parenthesis is looked for among the
                    // next 64 items only (a row of thousands of letters and parentheses stays linear);
                    // the brackets it holds are skipped (`ρ(f_i(w), f(w))`).
                    var depth = 0
                    for k in (i + 2) ..< min(c.count, i + 66) {
                        guard case .operator(let t, _) = c[k].kind else { continue }
                        if t == close {
                            if depth == 0 { inside = (c, i + 2, k); break }
                            depth -= 1
                        } else if t == open {
                            depth += 1
                        }
                    }
                } else if case .fenced(let open, let closing) = next.kind, closer(open) == closing {
                    inside = (next.children, 0, next.children.count)
                } else if case .row = next.kind, let first = next.children.first, let last = next.children.last,
                          next.children.count >= 3, let close = closer(first), isOperator(last, close) {
                    inside = (next.children, 1, next.children.count - 1)
                }
                guard let (items, from, to) = inside else { continue }
                if simpleList(items, from, to) {
                    if !found.contains(l) { found.append(l) }
                } else if withCompound, compound.count < 16, isCompound(items, from, to) {
                    compound.append((letter: l, range: c[i].range))
                }
            }
        }
        return AppliedLetters(simple: found, compound: compound)
    }

    /// ``SemanticKind/impliedTimes`` over `factors[r]`, with an invisible-times operator leaf (U+2062,
    /// class `bin`) between each two so rules can speak "times" where ClearSpeak ImpliedTimes wants it.
    mutating func impliedTimes(_ r: Range<Int>, possibleFunction: Bool, appliedElsewhere: Bool = false,
                               oneArgument: Bool = false) -> NodeID {
        let chemical = !possibleFunction && mayBeChemicalFormula(r) && tree.isChemicalFormula(r.map { factors[$0] })
        if chemical { for i in r { factors[i] = elementsOfWords(factors[i]) } } else { markQuadraticForms(r) }
        let mark = b.mark()
        for i in r {
            let f = factors[i]
            if i > r.lowerBound {
                var gap: SourceRange? = nil
                if let a = range(factors[i - 1]), let c = range(f) { gap = SourceRange(a.upperBound, max(a.upperBound, c.lowerBound)) }
                let times = b.leaf(.operator, text: "\u{2062}", range: gap, .atom(.class, .bin))
                b.add(child: times, .operator)
            }
            b.add(child: f, .item)
        }
        if possibleFunction { b.flag(.possibleFunction) } else if chemical { b.flag(.chemical) }
        if appliedElsewhere { b.flag(.appliedElsewhere) }
        if oneArgument { b.flag(.oneArgument) }
        return b.finish(.impliedTimes, mark)
    }

    /// Whether parentheses or brackets hold one argument or a list of them: a letter, a number, or one
    /// scripted letter, fraction, root, accent or primed letter, not a row of them, or items separated by
    /// commas (`s(t)`, `J_n(x_1)`, `u(x, t)`; not `b(xy)`, `c(x + 1)`, `P(A | B)`, `P(r(t))`). MathCAT
    /// reads a name before such parentheses as a function (its documented heuristic): nothing else makes
    /// an author write them (SimpleSpeak's `one-argument` readings, textbook sweep 11).
    func holdsOneArgument(_ fenced: NodeID) -> Bool {
        guard tree.kind(fenced) == .fenced, let open = tree.string(fenced, .open), open == "(" || open == "[",
              let content = tree.child(fenced, .content) else { return false }
        switch tree.kind(content) {
        case .identifier, .number, .subscript, .power, .fraction, .root, .accent, .primes, .list: return true
        default: return false
        }
    }

    /// Marks `base-repeats` on a power of the letter T among `factors[r]` whose base one of the next
    /// few factors repeats, or takes as the parenthesised argument of a letter applied to it: `x^T A x`,
    /// `p_i^T R p_i`, `(x-\mu)^T \Sigma^{-1}(x-\mu)` — a quadratic form, in which the T transposes (a
    /// T-th power of x times A times x would be written x^{T+1} A). The loop over the factors asks only
    /// their kinds; a power is looked at out of line (every product passes here: with the look inlined,
    /// and a slice of the range, the analysis cost 230 instructions a formula more, `MathAloudBench
    /// stages` under callgrind, session 31).
    mutating func markQuadraticForms(_ r: Range<Int>) {
        var i = r.lowerBound
        while i < r.upperBound - 1 {
            if kind(factors[i]) == .power { markQuadraticForm(at: i, before: r.upperBound) }
            i += 1
        }
    }

    /// How many factors after a transposed one are looked at for its repetition: a quadratic form is
    /// short, and the bound keeps a long product of powers linear.
    static let quadraticFormReach = 8

    /// ``markQuadraticForms(_:)`` for the power `factors[i]`, the product's factors ending before `end`.
    @inline(never)
    mutating func markQuadraticForm(at i: Int, before end: Int) {
        let f = factors[i]
        guard let base = tree.transposedBase(f) else { return }
        for j in i + 1 ..< min(end, i + 1 + Analyzer.quadraticFormReach) {
            var later = factors[j]
            // A letter applied to the vector (`H(x-\mu)`, f, g, h and inverses are applied as functions);
            // a named function's argument (`(1+r)^T \ln(1+r)`) is no vector.
            if kind(later) == .application, atom(later, .functionClass) == .generic,
               let argument = child(later, .argument), kind(argument) == .fenced {
                later = argument
            }
            if tree.sameExpression(base, later) {
                factors[i] = flagged(f, .baseRepeats)
                return
            }
        }
    }

    /// Whether the factor right before the parenthesised group `g`, in the run being read, is a
    /// transposed power (``SemanticTree/Records/transposedBase(_:)``) whose base is that group, and
    /// nothing is attached to the group (a script or postfix would make it another factor, `f(x-y)^2`):
    /// then the letter before the group is no function (``markQuadraticForms(_:)`` reads the product).
    /// Given the group's number, not the group: a copy of the group for every letter before parentheses
    /// cost more than the test. (Inlined, for the copy of the analyzer a call hands over, see
    /// ``SemanticTree/Records/isNabla(_:)``.)
    @inline(__always)
    func repeatsTransposedFactor(_ g: Int32, _ p: ExpressionParser) -> Bool {
        guard factors.count > p.runBase, let f = factors.last, kind(f) == .power else { return false }
        return transposedBaseIs(g, f, p)
    }

    /// ``repeatsTransposedFactor(_:_:)`` past its first test, out of line.
    @inline(never)
    func transposedBaseIs(_ g: Int32, _ f: NodeID, _ p: ExpressionParser) -> Bool {
        guard let base = tree.transposedBase(f), kind(base) == .fenced, groups[Int(g)].scripts == nil else { return false }
        if p.pos + 1 < p.end, tokens[p.pos + 1].kind == .postfix { return false }
        return tree.sameExpression(base, groups[Int(g)].node)
    }

    /// A part of a chemical formula with each identifier that spells several element symbols (`SO` of
    /// `SO_4`, `HCl`, as MathML and `\mathrm` write a compound) made the symbols side by side, a formula of
    /// their own (marked `chemical`): the rules read a formula element by element ("cap S cap O sub 4"),
    /// and a word of symbols is those elements. The part itself when it has no such word (at its base).
    mutating func elementsOfWords(_ n: NodeID) -> NodeID {
        switch kind(n) {
        case .identifier, .text:
            guard kind(n) == .text || !has(n, .letter) else { return n }
            let t = text(n)
            guard let count = SemanticTree.Records.elementRunCount(t) else { return n }
            // One element set as text (`<mtext>N</mtext>`): the element's identifier, as the letters of a word are.
            if count == 1 && kind(n) == .text { return identifier(t, nil, range: range(n), word: t.utf8.count > 1) }
            guard count >= 2 else { return n }
            // Each symbol a capital and at most one small letter (``SemanticTree/Records/elementRunCount(_:)``).
            var symbols: [String] = []
            for u in t.unicodeScalars {
                if u.properties.isUppercase || symbols.isEmpty { symbols.append(String(u)) } else { symbols[symbols.count - 1].unicodeScalars.append(u) }
            }
            let whole = range(n)
            // Ranges of their own where the source spells the word byte for byte (TeX); else the word's.
            let exact = whole.map { $0.upperBound - $0.lowerBound == t.utf8.count } ?? false
            var start = whole?.lowerBound ?? 0
            var parts: [NodeID] = []
            for symbol in symbols {
                let r = exact ? SourceRange(start, start + symbol.utf8.count) : whole
                start += symbol.utf8.count
                parts.append(identifier(symbol, nil, range: r, word: symbol.utf8.count > 1))
            }
            let mark = b.mark()
            for (i, part) in parts.enumerated() {
                if i > 0 {
                    let times = b.leaf(.operator, text: "\u{2062}", range: nil, .atom(.class, .bin))
                    b.add(child: times, .operator)
                }
                b.add(child: part, .item)
            }
            b.flag(.chemical)
            return b.finish(.impliedTimes, mark, range: whole)
        case .subscript:
            guard let base = child(n, .base), let sub = child(n, .subscript) else { return n }
            let split = elementsOfWords(base)
            return split == base ? n : subscriptNode(split, sub)
        case .power:
            // An element or a word set as text under a charge (`<msup><mtext>Na</mtext><mo>+</mo></msup>`), or a
            // counted group so (`(CN)_2^-`).
            // A charge written as one leaf (`<mn>3−</mn>`) is the count and the sign, as on an ion alone.
            guard let base = child(n, .base), let e = child(n, .exponent) else { return n }
            let split = kind(base) == .text || kind(base) == .subscript ? elementsOfWords(base) : base
            let leaf = tree.isChargeLeaf(e)
            if split == base && !leaf { return n }
            return power(split, leaf ? chargeOfLeaf(e) : e, range: range(n))
        case .fenced:
            // A group of element symbols set as one word (`(OH)`, `(CN)`): its symbols, in the same brackets.
            guard let content = child(n, .content), kind(content) == .text || kind(content) == .identifier else { return n }
            let split = elementsOfWords(content)
            guard split != content else { return n }
            return rebuilt(n, children: tree.children(n).map { $0.node == content ? split : $0.node })
        default:
            return n
        }
    }
}

// Read-only tests of the tree that the row parser's mutating methods (`factor`, `product`,
// `application`, `markQuadraticForm`) ask: on the records view (four pointers, handed over in
// registers). As non-mutating methods of `Analyzer` called out of line, each call was handed a copy of
// the whole analyzer (536 bytes, a `memcpy` a call, ~11,000 for 2,000 whole speaks): 142.67 → 141.70 M
// instructions, D1 write misses −4 %, `MathAloudBench stages` under callgrind, session 41.
extension SemanticTree.Records {
    /// ∇, also written as a vector (`\vec\nabla`, `\vec{\nabla}`): the operator del, a prefix before an
    /// operand (the gradient) and the left side of ⋅ and × (divergence, curl) after another factor; the arrow
    /// stays its child, so a literal reading still says it.
    func isNabla(_ n: NodeID) -> Bool {
        switch kind(n) {
        case .identifier: return soleScalar(n) == "∇"
        case .accent:
            guard atom(n, .accentName) == .vector, let b = child(n, .base) else { return false }
            return kind(b) == .identifier && soleScalar(b) == "∇"
        default: return false
        }
    }

    /// Whether `factors` are a formula that `state`, a state of matter in parentheses, follows: one
    /// ``SemanticTree/Records/isFormulaBeforeState(_:)`` reads so, or one element after an optional
    /// coefficient (`Na`, `2 Na`, `H_2`, `HCl`: an element symbol or a word of them, with a count or not;
    /// several when each is written upright, `H I`) before a state that is written upright
    /// (`Na(\mathrm{s})`, `H_2(\mathrm{g})`, as mhchem sets it) or in two letters (`(aq)`): an italic
    /// letter there is as often an argument (`H_2(g)`, `B(s)`).
    func isFormula<C: BidirectionalCollection>(_ factors: C, beforeState state: NodeID) -> Bool where C.Element == NodeID {
        if isFormulaBeforeState(factors) { return stateWord(state) != nil }
        // After an optional coefficient (`2 Na(s)`).
        var rest = factors[...]
        if rest.count >= 2, let first = rest.first, let c = integerValue(first), c >= 1 { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 8 else { return false }
        // Several elements side by side only when each is written upright (`H I (g)` of MathJax's mhchem
        // output), not as italic letters (`H I(g)` may be a product and a function).
        var upright = true
        // Text (`<mtext>KCl</mtext>`, `<msub><mtext>O</mtext><mn>2</mn></msub>`) or a compound marked alone is
        // chemistry set as publishers' MathML sets it, whose state letters are italic (`<mi>s</mi>`).
        var set = false
        for n in rest {
            // A compound or an ion the analysis marked alone (`<msub><mtext>KClO</mtext><mn>3</mn></msub>`,
            // `<msup><mtext>Ba</mtext><mn>2+</mn></msup>`).
            if has(n, .chemical), kind(n) == .subscript || kind(n) == .power { set = true; continue }
            if isComplexIon(n) { set = true; continue }
            if isElementText(n) { set = true; continue }
            let element = kind(n) == .subscript ? child(n, .base) : n
            if let element, isElementText(element) {
                set = true
                if child(n, .subscript).flatMap({ integerValue($0) }) == nil { return false }
                continue
            }
            guard let element, isElement(element) || isElementWord(element) else { return false }
            if kind(n) == .subscript, child(n, .subscript).flatMap({ integerValue($0) }) == nil { return false }
            if atom(element, .variant) != .normal && !has(element, .word) { upright = false }
        }
        guard rest.count == 1 || upright else { return false }
        guard let word = stateWord(state), let c = child(state, .content) else { return false }
        return word.utf8.count > 1 || atom(c, .variant) == .normal || set
    }

    /// The state of matter a fenced factor names (`(aq)`, ``SemanticTree/Records/stateSymbols``), or nil.
    func stateWord(_ f: NodeID) -> String? {
        guard kind(f) == .fenced, string(f, .open) == "(", string(f, .close) == ")",
              let c = child(f, .content) else { return nil }
        let word: String
        switch kind(c) {
        case .identifier: word = text(c)
        // Set as text (`<mtext fontstyle="italic">aq</mtext>`, as OpenStax's chemistry sets some states).
        case .text: word = text(c).trimmingSpaces
        case .impliedTimes:
            // The state's letters set one by one (`<mi>a</mi><mi>q</mi>`, as publishers' MathML writes `(aq)`).
            var letters = ""
            for link in children(c) where link.role == SemanticRole.item.rawValue {
                guard kind(link.node) == .identifier, let u = soleScalar(link.node) else { return nil }
                letters.unicodeScalars.append(u)
            }
            word = letters
        default: return nil
        }
        return SemanticTree.Records.stateSymbols.contains(word) ? word : nil
    }

    /// The base of a power transposed by its exponent — the letter T (any font) or ⊤, ⊺, ᵀ — when the
    /// base is something a quadratic form can hold: not a number, nor a number in parentheses.
    func transposedBase(_ f: NodeID) -> NodeID? {
        guard let e = child(f, .exponent), kind(e) == .identifier || kind(e) == .operator,
              let s = soleScalar(e), Vocabulary.isTransposeMark(s), let base = child(f, .base) else { return nil }
        var inner = base
        while kind(inner) == .fenced, let content = child(inner, .content) { inner = content }
        return kind(inner) == .number ? nil : base
    }
}
