import MathSyntax

// Rows: flatten nested rows, merge a few multi-item patterns, match fences, turn items into tokens.
// The precedence parse over the tokens is in RowParser.swift.

/// One token of a row, ready for the precedence parse.
struct Token {
    enum Kind {
        /// Something that stands for a value.
        case operand
        /// A relation (`=`, `<`, `\overset{?}{=}`, an unmatched `|`).
        case relation
        /// `,` `;` and the invisible separator.
        case punctuation
        /// A binary operator of the additive level (`+ − ± ∪ ∩ ⊕ ∘ …`): every binary operator that is
        /// not multiplicative.
        case additive
        /// `× ÷ ⋅ * /`.
        case multiplicative
        /// `mod` (`\bmod`, `\mod`, inside `\pmod`).
        case modulo
        /// `¬ ∀ ∃ ∄`: prefixes of one factor.
        case prefix
        /// `!` `%` `′` `°` after an operand.
        case postfix
        /// A large operator waiting for its body.
        case bigOperator
        /// `lim`, `max` with scripts… waiting for the body.
        case limit
        /// A named function waiting for its argument.
        case function
        /// A multi-letter identifier that is a function only when a parenthesised argument follows.
        case word
        /// `d x` inside an integral, `\mathrm{d}x` anywhere.
        case differential
        /// U+2061 FUNCTION APPLICATION.
        case apply
        /// `\Big|_{a}^{b}` after an expression.
        case evaluationBar
        /// A wide space (`\quad`): separates relations like a comma when there are several.
        case wideSpace
    }

    var kind: Kind
    var node: SemanticNode
    /// The operator text for operators.
    var text: String = ""
    /// An operand that came from a fence group.
    var fence: FenceGroup? = nil
    /// Properties a function head gives its application.
    var applicationProps: SemanticProperties = [:]
    /// Big operator or limit parts.
    var big: BigParts? = nil
    /// Postfix kind.
    var postfix: Postfix? = nil
    /// Followed by U+2061: the next operand is its argument.
    var forcedFunction = false

    enum Postfix { case factorial(Int), percent, primes(Int), degrees }

    /// A fence group: its node, the plain `fenced` reading (for function arguments), and scripts
    /// written on the closing fence (`(x+1)^2`).
    final class FenceGroup {
        var node: SemanticNode
        var plain: SemanticNode
        var open: String
        var close: String
        var scripts: Analyzer.Scripts? = nil
        var scriptsRange: SourceRange? = nil
        var parenLike: Bool { (open == "(" || open == "[") && (close == ")" || close == "]") }
        /// Parentheses or brackets read as a plain group or interval: what can follow a function.
        var isArgumentLike: Bool { parenLike && (node.kind == .fenced || node.kind == .interval) }

        init(node: SemanticNode, plain: SemanticNode, open: String, close: String) {
            self.node = node
            self.plain = plain
            self.open = open
            self.close = close
        }
    }

    /// Parts of a big operator or limit.
    final class BigParts {
        var head: SemanticNode
        var lower: SemanticNode?
        var upper: SemanticNode?
        var name: String
        var integrals: Int
        var placement: String?
        var range: SourceRange?

        init(head: SemanticNode, lower: SemanticNode?, upper: SemanticNode?, name: String, integrals: Int,
             placement: String?, range: SourceRange?) {
            self.head = head
            self.lower = lower
            self.upper = upper
            self.name = name
            self.integrals = integrals
            self.placement = placement
            self.range = range
        }
    }
}

/// An item of a flattened row.
enum RowItem {
    case raw(MathNode)
    case wideSpace(SourceRange?)
    indirect case token(Token)
}

/// Result of fence matching over a row's items: per item, its partner or whether it is a loose bar or
/// fence. One array, allocated only when the row has a fence at all (most rows have none).
struct FenceMatch {
    private var state: [Int] = []
    private let count: Int
    private static let none = -1, looseBarMark = -2, looseFenceMark = -3

    init(count: Int) { self.count = count }

    private mutating func set(_ i: Int, _ value: Int) {
        if state.isEmpty { state = Array(repeating: FenceMatch.none, count: count) }
        state[i] = value
    }

    /// For an opening item, the index of its closing item; -1 otherwise.
    func partner(_ i: Int) -> Int { state.isEmpty ? -1 : max(state[i], -1) }
    /// A bar that did not pair: a relation (`a | b`), or an evaluation bar when it carries scripts.
    func isLooseBar(_ i: Int) -> Bool { !state.isEmpty && state[i] == FenceMatch.looseBarMark }
    /// A fence character that did not pair: a plain symbol.
    func isLooseFence(_ i: Int) -> Bool { !state.isEmpty && state[i] == FenceMatch.looseFenceMark }

    mutating func pair(_ open: Int, _ close: Int) { set(open, close) }
    mutating func markLooseBar(_ i: Int) { set(i, FenceMatch.looseBarMark) }
    mutating func markLooseFence(_ i: Int) { set(i, FenceMatch.looseFenceMark) }
}

extension Analyzer {
    // MARK: Entry

    /// The meaning of a sequence of presentation nodes (the items of a row).
    func sequence(_ nodes: [MathNode], range: SourceRange?, _ ctx: Context) -> SemanticNode {
        // The row being analysed is opened here, so a self-contained group row is analysed as a row.
        var nodes = nodes
        while nodes.count == 1, case .row = nodes[0].kind { nodes = nodes[0].children }
        var ctx = ctx
        ctx.level += 1
        ctx.groupDepth = 0
        let flat = flatten(nodes)
        if flat.isEmpty { return SemanticNode(.empty, range: range) }
        // One operand alone (a letter in a script, a number in a numerator, a fraction in a cell): its
        // token is its meaning, so the row machinery (fences, precedence) has nothing to do. Not for a
        // fence character (unpaired, it reads differently) or a differential mark.
        if flat.count == 1, case .none = fenceRole(flat[0]), case .raw(let m) = flat[0], let t = classify(m, ctx),
           t.kind == .operand, t.fence == nil, !isDifferentialMark(t.node) {
            let result = t.node.withRole(.none)
            if result.range == nil, let range { return result.withRange(range) }
            return result
        }
        let items = premerge(flat, ctx)
        let match = matchFences(items, ctx)
        let tokens = tokenize(items, 0..<items.count, match, ctx)
        let result = parse(tokens, range: range, ctx)
        if result.range == nil, let range { return result.withRange(range) }
        return result
    }

    // MARK: Flattening

    /// Splices nested rows, pass-through styles (display/script level, size), padding and
    /// `semantics` into one list; drops thin spaces and blank text; keeps wide spaces (≥ 1 em) as
    /// separators. Iterative, so deep rows cost no stack.
    func flatten(_ nodes: [MathNode]) -> [RowItem] {
        // Most rows hold nothing to splice or drop: their items are the nodes.
        if nodes.allSatisfy(Analyzer.staysAsItem) { return nodes.map { .raw($0) } }
        var out: [RowItem] = []
        out.reserveCapacity(nodes.count)
        var stack: [(nodes: [MathNode], index: Int)] = [(nodes, 0)]
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].index >= stack[top].nodes.count { stack.removeLast(); continue }
            let m = stack[top].nodes[stack[top].index]
            stack[top].index += 1
            if Analyzer.staysAsItem(m) { out.append(.raw(m)); continue }
            switch m.kind {
            case .row:
                // A row that is one bracketed group by construction (`\bra{ψ}`, `\ket{ϕ}`, a macro's
                // "(#1,#2)") stays one item, so its brackets cannot pair with brackets outside it.
                if Analyzer.isSelfContainedGroup(m) { out.append(.raw(m)); continue }
                if !m.children.isEmpty { stack.append((m.children, 0)) }
            case .semantics:
                if let first = m.children.first { stack.append(([first], 0)) }
            case .space(let w):
                if w >= 0.9 {
                    if case .wideSpace = out.last {} else if !out.isEmpty { out.append(.wideSpace(m.range)) }
                }
            case .text:
                continue    // blank text
            default:
                stack.append((m.children, 0))    // pass-through style, padding
            }
        }
        if case .wideSpace = out.last { out.removeLast() }
        return out
    }

    /// Whether ``flatten(_:)`` keeps a node as one item as it is: anything but rows, pass-through
    /// styles (display/script level, size — colour is kept), padding, `semantics`, spaces and blank
    /// text, which it splices, drops or turns into separators.
    static func staysAsItem(_ m: MathNode) -> Bool {
        switch m.kind {
        case .row, .padded, .semantics, .space: return false
        case .style(let p): return p.color != nil || p.background != nil
        case .text(let t, _): return !t.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        default: return true
        }
    }

    /// A row of three or more items whose first item opens a bracket and whose last closes one.
    static func isSelfContainedGroup(_ m: MathNode) -> Bool {
        guard m.children.count >= 3, case .operator(let o, let op) = m.children[0].kind,
              case .operator(let c, let cp) = m.children[m.children.count - 1].kind else { return false }
        let opens = op.atomClass == .open || Vocabulary.isBar(o) || (Vocabulary.closers(of: o) != nil && op.fence)
        let closes = cp.atomClass == .close || Vocabulary.isBar(c) || Vocabulary.isCloser(c)
        return opens && closes && (Vocabulary.closers(of: o) != nil)
    }

    // MARK: Multi-item patterns

    /// Merges patterns that span several items before fences are matched: pre-scripts
    /// (`{}_{n}C_{k}`), repeating decimals (`0.\overline{3}`) and measurements (`5\,\text{cm}`,
    /// `3\,\mathrm{m/s}`).
    func premerge(_ items: [RowItem], _ ctx: Context) -> [RowItem] {
        // Built only when a pattern merges (most rows have none): until then the items stand.
        var out: [RowItem]? = nil
        func emit(_ item: RowItem, _ i: Int) {
            if out == nil {
                out = []
                out!.reserveCapacity(items.count)
                out!.append(contentsOf: items[..<i])
            }
            out!.append(item)
        }
        var i = 0
        while i < items.count {
            guard case .raw(let m) = items[i] else { out?.append(items[i]); i += 1; continue }
            // Pre-scripts: scripts on an empty base followed by the base.
            if let pre = prescriptParts(m), i + 1 < items.count, case .raw(let next) = items[i + 1], !next.isOperatorLeaf {
                emit(.token(Token(kind: .operand, node: prescripts(pre, next, range: SourceRange.union(m.range, next.range), ctx))), i)
                i += 2
                continue
            }
            if case .number(let digits) = m.kind {
                // Repeating decimal: 0.\overline{3}, 0.1\overline{6}.
                if let (node, used) = repeatingDecimal(digits, m, items, i) {
                    emit(.token(Token(kind: .operand, node: node)), i)
                    i += used
                    continue
                }
            }
            if isQuantity(m), let (node, used) = measurement(m, items, i, ctx) {
                emit(.token(Token(kind: .operand, node: node)), i)
                i += used
                continue
            }
            out?.append(items[i])
            i += 1
        }
        return out ?? items
    }

    /// Sub/superscripts on an empty base (`{}_{m}`), as (sub, sup).
    func prescriptParts(_ m: MathNode) -> (MathNode?, MathNode?)? {
        switch m.kind {
        case .subscript where m.children.count == 2 && Analyzer.isNone(m.children[0]): return (m.children[1], nil)
        case .superscript where m.children.count == 2 && Analyzer.isNone(m.children[0]): return (nil, m.children[1])
        case .subSuperscript where m.children.count == 3 && Analyzer.isNone(m.children[0]): return (m.children[1], m.children[2])
        default: return nil
        }
    }

    /// `{}_{n}C_{k}` → ``SemanticKind/prescripts`` (`combination` for C, `permutation` for P).
    func prescripts(_ pre: (MathNode?, MathNode?), _ next: MathNode, range: SourceRange?, _ ctx: Context) -> SemanticNode {
        var children: [SemanticNode] = []
        if let s = pre.0 { children.append(node(s, ctx).withRole(.presubscript)) }
        if let s = pre.1 { children.append(node(s, ctx).withRole(.presuperscript)) }
        var baseNode = next
        var post: (MathNode?, MathNode?) = (nil, nil)
        switch next.kind {
        case .subscript where next.children.count == 2: baseNode = next.children[0]; post = (next.children[1], nil)
        case .superscript where next.children.count == 2: baseNode = next.children[0]; post = (nil, next.children[1])
        case .subSuperscript where next.children.count == 3:
            baseNode = next.children[0]; post = (next.children[1], next.children[2])
        default: break
        }
        let base = node(baseNode, ctx)
        children.append(base.withRole(.base))
        if let s = post.0 { children.append(node(s, ctx).withRole(.subscript)) }
        if let s = post.1 { children.append(node(s, ctx).withRole(.exponent)) }
        var props: SemanticProperties = [:]
        if base.kind == .identifier {
            if base.text == "C" { props["combination"] = "true" }
            if base.text == "P" { props["permutation"] = "true" }
        }
        return .make(.prescripts, children, props: props, range: range)
    }

    /// A number followed by an overlined (or barred) run of digits: the repeating decimal, as a
    /// ``SemanticKind/number`` with `repeating-decimal` (ClearSpeak "Repeating decimals").
    func repeatingDecimal(_ digits: String, _ m: MathNode, _ items: [RowItem], _ i: Int) -> (SemanticNode, Int)? {
        var j = i + 1
        var written = digits
        if j < items.count, case .raw(let dot) = items[j], case .operator(".", _) = dot.kind {
            written += "."
            j += 1
        }
        guard written.unicodeScalars.contains("."), j < items.count, case .raw(let over) = items[j], case .over = over.kind,
              over.children.count == 2, case .number(let rep) = over.children[0].kind,
              let (mark, _) = Analyzer.accentLeaf(over.children[1]),
              let name = Vocabulary.accentName(mark, over: true, stretchy: true), name == "overline" || name == "bar"
        else { return nil }
        let range = SourceRange.union(m.range, over.range)
        let head = SemanticNode(.number, text: written, properties: Facts.numberProps(written), range: SourceRange.union(m.range, nil))
        let tail = SemanticNode(.number, text: rep, properties: Facts.numberProps(rep), range: over.children[0].range)
        var props = Facts.numberProps(written + rep)
        props["repeating-decimal"] = "true"
        props["repeating-digits"] = rep
        props["repeating-count"] = String(rep.unicodeScalars.count)
        let n = SemanticNode(.number, text: written + rep, children: [head.withRole(.whole), tail.withRole(.item)],
                             properties: props, range: range)
        return (n, j - i + 1)
    }

    /// Whether a node can be the quantity of a measurement: a number, a power of ten or a numeric fraction.
    func isQuantity(_ m: MathNode) -> Bool {
        switch m.kind {
        case .number: return true
        case .superscript:
            if case .number = m.children[0].kind, m.children.count == 2, !Analyzer.isPrimeOrRing(m.children[1]) { return true }
            return false
        case .fraction:
            if m.children.count == 2, case .number = m.children[0].kind, case .number = m.children[1].kind { return true }
            return false
        default: return false
        }
    }

    static func isPrimeOrRing(_ m: MathNode) -> Bool {
        var n = m
        while case .row = n.kind, let f = n.children.first { n = f }
        if case .operator(let t, _) = n.kind { return primeCount(t) != nil || t.soleScalar == "∘" || t.soleScalar == "°" }
        return false
    }

    /// A unit written after a quantity: upright identifiers (`\mathrm{kg}`), text (`\text{cm}`), their
    /// squares and cubes, and a quotient of two (`m/s`). Returns the unit node and how many items it used.
    func unitAt(_ items: [RowItem], _ start: Int) -> (SemanticNode, Int)? {
        func single(_ k: Int) -> (text: String, key: String, power: String?, range: SourceRange?)? {
            guard k < items.count, case .raw(let m) = items[k] else { return nil }
            switch m.kind {
            case .text(let t, _):
                let tt = t.trimmingSpaces
                if let key = Vocabulary.unitKey(tt) { return (tt, key, nil, m.range) }
                return nil
            case .identifier(let t, let v):
                guard v == .normal || (v == nil && t.unicodeScalars.count > 1) else { return nil }
                if let key = Vocabulary.unitKey(t) { return (t, key, nil, m.range) }
                return nil
            case .superscript where m.children.count == 2:
                guard case .number(let p) = m.children[1].kind, p == "2" || p == "3" else { return nil }
                let base: String
                switch m.children[0].kind {
                case .identifier(let t, let v) where v == .normal || (v == nil && t.unicodeScalars.count > 1): base = t
                case .text(let t, _): base = t.trimmingSpaces
                default: return nil
                }
                guard let key = Vocabulary.unitKey(base) else { return nil }
                // Keys write powers as the lexicon does: cm², m/s².
                return (base + "^" + p, key + (p == "2" ? "²" : "³"), p, m.range)
            default:
                return nil
            }
        }
        guard let first = single(start) else { return nil }
        var text = first.text, key = first.key, range = first.range
        var used = 1
        var props: SemanticProperties = [:]
        if let p = first.power { props["unit-power"] = p }
        if start + 2 < items.count, case .raw(let slash) = items[start + 1], case .operator(let s, _) = slash.kind,
           s == "/" || s == "∕", let second = single(start + 2) {
            text += "/" + second.text
            key += "/" + second.key
            range = SourceRange.union(range, second.range)
            used = 3
            if let p = second.power { props["unit-power-denominator"] = p }
        }
        props["unit-name"] = key
        return (SemanticNode(.text, text: text, properties: props, range: range), used)
    }

    /// A quantity followed by a unit → ``SemanticKind/measurement``.
    func measurement(_ m: MathNode, _ items: [RowItem], _ i: Int, _ ctx: Context) -> (SemanticNode, Int)? {
        guard let (unit, used) = unitAt(items, i + 1) else { return nil }
        let q = node(m, ctx)
        var props: SemanticProperties = [:]
        for k in ["unit-name", "unit-power", "unit-power-denominator"] { if let v = unit.properties[k] { props[k] = v } }
        if q.kind == .number && q.text == "1" { props["singular"] = "true" }
        let n = SemanticNode.make(.measurement, [q.withRole(.quantity), unit.withRole(.unit)], props: props)
        return (n, used + 1)
    }

    // MARK: Fence matching

    enum FenceRole { case none, open(String), close(String), bar(String, scripted: Bool) }

    /// The fence character an item is, if any (fence operators, and fence operators carrying scripts).
    func fenceRole(_ item: RowItem) -> FenceRole {
        guard case .raw(let m) = item else { return .none }
        var op = m
        var scripted = false
        switch m.kind {
        case .superscript, .subscript, .subSuperscript:
            op = m.children[0]
            scripted = true
        default: break
        }
        guard case .operator(let t, let p) = op.kind else { return .none }
        if Vocabulary.isBar(t) {
            switch p.atomClass {
            case .rel: return .none
            case .open: return scripted ? .none : .open(t)
            case .close: return .close(t)
            default: return .bar(t, scripted: scripted)
            }
        }
        if p.atomClass == .rel || p.atomClass == .bin || p.atomClass == .punct { return .none }
        if !scripted, Vocabulary.closers(of: t) != nil { return .open(t) }
        if Vocabulary.isCloser(t) { return .close(t) }
        return .none
    }

    /// Whether an item ends an operand (so a following bar closes rather than opens).
    func endsOperand(_ item: RowItem) -> Bool {
        switch item {
        case .wideSpace: return false
        case .token(let t): return t.kind == .operand
        case .raw(let m):
            switch m.kind {
            case .operator(let t, let p):
                if let u = t.soleScalar, u == "!" || u == "%" { return true }
                if Analyzer.primeCount(t) != nil || Analyzer.isEllipsis(t) { return true }
                switch p.atomClass {
                case .bin, .rel, .punct, .open, .op: return false
                default: return !(t.unicodeScalars.first.map { (0x2061...0x2064).contains($0.value) } ?? false)
                }
            case .identifier(let t, _):
                return t.unicodeScalars.count == 1 || (Vocabulary.functionClass(t) == nil && t != "mod")
            case .subscript, .superscript, .subSuperscript, .under, .over, .underOver:
                if case .operator(_, let p) = m.children[0].kind, p.atomClass != .close, p.atomClass != .ord { return false }
                return true
            default:
                return true
            }
        }
    }

    /// Matches brackets over the items of one row in a single pass with a stack. Parentheses and
    /// brackets pair with each other (`(0, 1]`, interval candidates); a bar closes the innermost open
    /// bar when an operand precedes it (`|a||b|`, `2|y|`) and otherwise opens; bars left over are
    /// relations (`a | b`, `\{x | x > 0\}`, `P(A | B)`), or evaluation bars when they carry scripts.
    func matchFences(_ items: [RowItem], _ ctx: Context) -> FenceMatch {
        let n = items.count
        let maxNesting = max(0, min(Analyzer.maxGroupDepth - ctx.groupDepth, Analyzer.maxLevel - ctx.level))
        var match = FenceMatch(count: n)
        var stack: [(index: Int, text: String, bar: Bool)] = []
        var previousEnds = false
        func drop(above k: Int) {
            while stack.count > k {
                let e = stack.removeLast()
                if e.bar { match.markLooseBar(e.index) } else { match.markLooseFence(e.index) }
            }
        }
        for i in 0..<n {
            switch fenceRole(items[i]) {
            case .none:
                previousEnds = endsOperand(items[i])
            case .open(let t):
                if stack.count < maxNesting { stack.append((i, t, false)) } else { match.markLooseFence(i) }
                previousEnds = false
            case .close(let text):
                let t: Unicode.Scalar = text.soleScalar ?? " "
                // Prefer the nearest compatible opener that is not a bar (⟨a|b⟩), then a bar (|ψ⟩).
                var found = -1
                var k = stack.count - 1
                while k >= 0 {
                    if !stack[k].bar, Vocabulary.closers(of: stack[k].text)?.contains(t) == true { found = k; break }
                    k -= 1
                }
                if found < 0 {
                    k = stack.count - 1
                    while k >= 0 {
                        if stack[k].bar, Vocabulary.closers(of: stack[k].text)?.contains(t) == true { found = k; break }
                        k -= 1
                    }
                }
                if found >= 0 {
                    let opener = stack[found].index
                    drop(above: found + 1)
                    stack.removeLast()
                    match.pair(opener, i)
                } else {
                    match.markLooseFence(i)
                }
                previousEnds = true
            case .bar(let t, let scripted):
                if let top = stack.last, top.bar, top.text == t, previousEnds {
                    stack.removeLast()
                    match.pair(top.index, i)
                    previousEnds = true
                } else if scripted {
                    match.markLooseBar(i)
                    previousEnds = true
                } else if stack.count < maxNesting {
                    stack.append((i, t, true))
                    previousEnds = false
                } else {
                    match.markLooseBar(i)
                    previousEnds = false
                }
            }
        }
        // A bra ⟨ψ| at the end of the row: an angle bracket closed by a bar.
        if stack.count >= 2, let top = stack.last, top.bar, top.index == n - 1, !stack[stack.count - 2].bar,
           Vocabulary.isAngleOpen(stack[stack.count - 2].text) {
            match.pair(stack[stack.count - 2].index, top.index)
            stack.removeLast(2)
        }
        drop(above: 0)
        return match
    }
}

extension MathNode {
    /// Whether the node is a single operator.
    var isOperatorLeaf: Bool {
        if case .operator = kind { return true }
        return false
    }
}
