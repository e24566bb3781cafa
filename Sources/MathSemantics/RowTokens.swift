import MathSyntax

// Rows: flatten nested rows, merge a few multi-item patterns, match fences, turn items into tokens.
// The precedence parse over the tokens is in RowParser.swift.

/// One token of a row, ready for the precedence parse: a plain record of numbers (nodes of the tree
/// being built, fence groups and big-operator parts by their number in the analysis run).
struct Token {
    enum Kind: UInt8 {
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
    var node: Analyzer.NodeID
    /// The node whose text is the operator text of an operator token (-1: no text).
    var textNode: Analyzer.NodeID = -1
    /// An operand that came from a fence group: the group's number in ``Analyzer/groups`` (-1: none).
    var fence: Int32 = -1
    /// Big operator, limit or evaluation bar parts: their number in ``Analyzer/bigs`` (-1: none).
    var big: Int32 = -1
    /// Postfix kind.
    var postfix: Postfix? = nil
    /// Followed by U+2061: the next operand is its argument.
    var forcedFunction = false
    /// Properties a function head gives its application.
    var application = ApplicationFacts()
    /// For an identifier leaf's token: whether it is `d` or `ⅆ`, the mark of a differential (nil when
    /// the token does not know: ``Analyzer/isDifferentialMark(_:)`` then reads the tree).
    var isDifferentialMark: Bool? = nil

    init(_ kind: Kind, _ node: Analyzer.NodeID, text textNode: Analyzer.NodeID = -1) {
        self.kind = kind
        self.node = node
        self.textNode = textNode
    }

    enum Postfix { case factorial(Int), percent, primes(Int), degrees }
}

/// The properties an application gets from its function (ClearSpeak "Trigonometric functions",
/// "Logarithms", "Functions"): `function-class`, `log-base`, the power facts, `argument-fenced`.
struct ApplicationFacts {
    var functionClass: PropertyAtom = .named
    var logBase = false
    var power = PowerFacts()
    var argumentFenced = false
}

/// `inverse` for an exponent −1, otherwise `power` with `power-value` (integers) and `power-kind`
/// (Trig_TrigInverse, ClearSpeak "Trigonometric functions").
struct PowerFacts {
    var inverse = false
    var power = false
    var value: Int? = nil
    var kind: PropertyAtom? = nil
}

/// A fence group: its node, the plain `fenced` reading (for function arguments), and scripts
/// written on the closing fence (`(x+1)^2`). A plain record: the fences are kept as their sole
/// scalars (every fence the readings test is one character).
struct FenceGroup {
    var node: Analyzer.NodeID
    var plain: Analyzer.NodeID
    /// The opening and closing fences' sole scalars (nil for none, or for a longer text).
    var open: Unicode.Scalar?
    var close: Unicode.Scalar?
    /// No closing fence (`\left( … \right.`).
    var closeIsEmpty: Bool
    var scripts: Analyzer.Scripts? = nil
    var scriptsRange: SourceRange? = nil
    /// `(` or `[` with `)` or `]`.
    var parenLike: Bool
    /// Parentheses or brackets read as a plain group or interval: what can follow a function.
    var isArgumentLike: Bool
}

/// Parts of a big operator, a limit or an evaluation bar.
struct BigParts {
    var head: Analyzer.NodeID
    var lower: Analyzer.NodeID?
    var upper: Analyzer.NodeID?
    /// `operator-name` of a big operator.
    var name: PropertyAtom
    var integrals: Int
    var placement: PropertyAtom?
    var range: SourceRange?
}

/// An item of a flattened row, with its fence-matching state: a plain record (a raw item's node is
/// held unretained — the input tree outlives the analysis — so the row stacks copy items freely).
struct RowItem {
    enum Item {
        case raw(MathNode)
        case wideSpace(SourceRange?)
        /// An operand merged from several items (pre-scripts, a repeating decimal, a measurement).
        case operand(Analyzer.NodeID)
    }

    private enum Kind: UInt8 { case raw, wideSpace, operand }
    private let kind: Kind
    private let node: Unmanaged<MathNode>?
    private let operand: Analyzer.NodeID
    private let range: SourceRange?
    /// For an opening item, the index of its closing item; otherwise ``RowItem/unmatched``,
    /// ``RowItem/looseBar`` or ``RowItem/looseFence``.
    var match: Int32 = RowItem.unmatched

    init(_ item: Item) {
        switch item {
        case .raw(let m): (kind, node, operand, range) = (.raw, Unmanaged.passUnretained(m), -1, nil)
        case .wideSpace(let r): (kind, node, operand, range) = (.wideSpace, nil, -1, r)
        case .operand(let n): (kind, node, operand, range) = (.operand, nil, n, nil)
        }
    }

    /// What the item is.
    var item: Item {
        switch kind {
        case .raw: .raw(node!.takeUnretainedValue())
        case .wideSpace: .wideSpace(range)
        case .operand: .operand(operand)
        }
    }

    /// A raw item's presentation node.
    var raw: MathNode? { kind == .raw ? node!.takeUnretainedValue() : nil }

    /// `body` of a raw item's node, borrowed for the call (no reference counting); nil for other items.
    @inline(__always)
    func withRaw<R>(_ body: (MathNode) -> R) -> R? {
        guard kind == .raw else { return nil }
        return node!._withUnsafeGuaranteedRef(body)
    }

    /// Whether the item is an operand merged from several items.
    var isOperand: Bool { kind == .operand }

    static let unmatched: Int32 = -1, looseBar: Int32 = -2, looseFence: Int32 = -3
}

/// A row being spliced by ``Analyzer/flatten(_:from:)``: its nodes and the next one to take.
struct FlattenFrame {
    var nodes: [MathNode]
    var index: Int
    var end: Int
}

/// A fence still open while ``Analyzer/matchFences(from:_:)`` scans a row.
struct OpenFence {
    var index: Int
    var scalar: Unicode.Scalar
    var bar: Bool
}

extension Analyzer {
    // MARK: Entry

    /// The meaning of a sequence of presentation nodes (the items of a row, from `start`).
    mutating func sequence(_ nodes: [MathNode], from start: Int = 0, range: SourceRange?, _ ctx: Context) -> NodeID {
        // The row being analysed is opened here, so a self-contained group row is analysed as a row.
        var nodes = nodes
        var start = start
        while nodes.count - start == 1, case .row = nodes[start].kind {
            nodes = nodes[start].children
            start = 0
        }
        let base = items.count
        flatten(nodes, from: start)
        return row(from: base, range: range, ctx)
    }

    /// The meaning of a number or an identifier read as a row (nil for other nodes): one item that is
    /// not a fence, with nothing to merge or match, so its token decides (``oneTokenRow(_:range:_:)``).
    mutating func leafRow(_ m: MathNode, _ ctx: Context) -> NodeID? {
        // A number's token is an operand with the number's own range: the number itself.
        if let t = m.numberText { return number(t, range: m.range) }
        guard let (t, v) = m.identifierParts else { return nil }
        var row = ctx
        row.level += 1
        row.groupDepth = 0
        return oneTokenRow(identifierToken(t, v, range: m.range), range: m.range, row)
    }

    /// The meaning of one presentation node read as a row.
    mutating func sequence(single m: MathNode, range: SourceRange?, _ ctx: Context) -> NodeID {
        if case .row = m.kind { return sequence(m.children, range: range, ctx) }
        let base = items.count
        if Analyzer.staysAsItem(m) {
            items.push(RowItem(.raw(m)))
        } else {
            flatten([m], from: 0)
        }
        return row(from: base, range: range, ctx)
    }

    /// Analyses the row whose items are `items[base...]` and removes them.
    private mutating func row(from base: Int, range: SourceRange?, _ ctx: Context) -> NodeID {
        var ctx = ctx
        ctx.level += 1
        ctx.groupDepth = 0
        defer { items.truncate(to: base) }
        let count = items.count - base
        if count == 0 { return empty(range) }
        let tokenBase = tokens.count
        if count == 1, case .notFence = Analyzer.fenceRole(items[base]), case .raw(let m) = items[base].item {
            // One item that is not a fence character: no pattern to merge, no fence to match; its token
            // is the row's only token (``oneTokenRow(_:range:_:)``).
            if let t = classify(m, ctx) { return oneTokenRow(t, range: range, ctx) }
        } else {
            premerge(from: base, ctx)
            matchFences(from: base, ctx)
            tokenize(base..<items.count, ctx)
        }
        let result = parse(tokenBase..<tokens.count, range: range, ctx)
        tokens.truncate(to: tokenBase)
        if self.range(result) == nil, let range { return b.copy(result, range: range) }
        return result
    }

    /// The meaning of a row whose only token is `t` (`ctx` is the row's): an operand alone is the
    /// meaning itself unless it is a fence group or a differential mark.
    mutating func oneTokenRow(_ t: Token, range: SourceRange?, _ ctx: Context) -> NodeID {
        if t.kind == .operand, t.fence < 0, !isDifferentialMark(t) {
            if self.range(t.node) == nil, let range { return b.copy(t.node, range: range) }
            return t.node
        }
        let tokenBase = tokens.count
        if t.kind != .apply { tokens.push(t) }
        let result = parse(tokenBase..<tokens.count, range: range, ctx)
        tokens.truncate(to: tokenBase)
        if self.range(result) == nil, let range { return b.copy(result, range: range) }
        return result
    }

    // MARK: Flattening

    /// Splices nested rows, pass-through styles (display/script level, size), padding and
    /// `semantics` into one list of items on ``items``; drops thin spaces and blank text; keeps wide
    /// spaces (≥ 1 em) as separators. Iterative, so deep rows cost no stack.
    mutating func flatten(_ nodes: [MathNode], from start: Int) {
        let base = items.count
        // Most rows hold nothing to splice or drop: their items are the nodes.
        var simple = true
        for i in start..<nodes.count where !Analyzer.staysAsItem(nodes[i]) { simple = false; break }
        if simple {
            for i in start..<nodes.count { items.push(RowItem(.raw(nodes[i]))) }
            return
        }
        flattenFrames.truncate(to: 0)
        flattenFrames.push(FlattenFrame(nodes: nodes, index: start, end: nodes.count))
        while flattenFrames.count > 0 {
            let top = flattenFrames.count - 1
            if flattenFrames[top].index >= flattenFrames[top].end { flattenFrames.pop(); continue }
            let m = flattenFrames[top].nodes[flattenFrames[top].index]
            flattenFrames[top].index += 1
            if Analyzer.staysAsItem(m) { items.push(RowItem(.raw(m))); continue }
            switch m.kind {
            case .row:
                // A row that is one bracketed group by construction (`\bra{ψ}`, `\ket{ϕ}`, a macro's
                // "(#1,#2)") stays one item, so its brackets cannot pair with brackets outside it.
                if Analyzer.isSelfContainedGroup(m) { items.push(RowItem(.raw(m))); continue }
                if !m.children.isEmpty { flattenFrames.push(FlattenFrame(nodes: m.children, index: 0, end: m.children.count)) }
            case .semantics:
                if !m.children.isEmpty { flattenFrames.push(FlattenFrame(nodes: m.children, index: 0, end: 1)) }
            case .space(let w):
                if w >= 0.9, items.count > base {
                    if case .wideSpace = items[items.count - 1].item {} else { items.push(RowItem(.wideSpace(m.range))) }
                }
            case .text:
                continue    // blank text
            default:
                flattenFrames.push(FlattenFrame(nodes: m.children, index: 0, end: m.children.count))    // pass-through style, padding
            }
        }
        if items.count > base, case .wideSpace = items[items.count - 1].item { items.pop() }
    }

    /// Whether ``flatten(_:from:)`` keeps a node as one item as it is: anything but rows, pass-through
    /// styles (display/script level, size — colour is kept), padding, `semantics`, spaces and blank
    /// text, which it splices, drops or turns into separators.
    static func staysAsItem(_ m: MathNode) -> Bool {
        switch m.kind {
        case .row, .padded, .semantics, .space: return false
        case .style, .text: break
        default: return true
        }
        switch m.kind {
        case .style(let p): return p.color != nil || p.background != nil
        case .text(let t, _): return !t.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        default: return true
        }
    }

    /// A row of three or more items whose first item opens a bracket and whose last closes one.
    static func isSelfContainedGroup(_ m: MathNode) -> Bool {
        guard m.children.count >= 3, case .operator(let o, let op) = m.children[0].kind,
              case .operator(let c, let cp) = m.children[m.children.count - 1].kind,
              let u = o.soleScalar, Vocabulary.isOpener(u) else { return false }
        let opens = op.atomClass == .open || Vocabulary.isBar(u) || op.fence
        let v = c.soleScalar
        let closes = cp.atomClass == .close || v.map { Vocabulary.isBar($0) || Vocabulary.isCloser($0) } == true
        return opens && closes
    }

    // MARK: Multi-item patterns

    /// Merges patterns that span several items before fences are matched: pre-scripts
    /// (`{}_{n}C_{k}`), repeating decimals (`0.\overline{3}`) and measurements (`5\,\text{cm}`,
    /// `3\,\mathrm{m/s}`). Rewrites `items[base...]` in place.
    mutating func premerge(from base: Int, _ ctx: Context) {
        let end = items.count
        var w = base
        var i = base
        while i < end {
            guard items[i].withRaw(\.mayStartPattern) == true, let m = items[i].raw else {
                if w != i { items[w] = items[i] }
                w += 1
                i += 1
                continue
            }
            // Pre-scripts: scripts on an empty base followed by the base.
            if let pre = Analyzer.prescriptParts(m), i + 1 < end, case .raw(let next) = items[i + 1].item, !next.isOperatorLeaf {
                let n = prescripts(pre, next, range: SourceRange.union(m.range, next.range), ctx)
                items[w] = RowItem(.operand(n))
                w += 1
                i += 2
                continue
            }
            if case .number(let digits) = m.kind {
                // Repeating decimal: 0.\overline{3}, 0.1\overline{6}.
                if let (n, used) = repeatingDecimal(digits, m, i, end) {
                    items[w] = RowItem(.operand(n))
                    w += 1
                    i += used
                    continue
                }
            }
            if Analyzer.isQuantity(m), let (n, used) = measurement(m, i, end, ctx) {
                items[w] = RowItem(.operand(n))
                w += 1
                i += used
                continue
            }
            if w != i { items[w] = items[i] }
            w += 1
            i += 1
        }
        items.truncate(to: w)
    }

    /// Sub/superscripts on an empty base (`{}_{m}`), as (sub, sup).
    static func prescriptParts(_ m: MathNode) -> (MathNode?, MathNode?)? {
        switch m.kind {
        case .subscript where m.children.count == 2 && Analyzer.isNone(m.children[0]): return (m.children[1], nil)
        case .superscript where m.children.count == 2 && Analyzer.isNone(m.children[0]): return (nil, m.children[1])
        case .subSuperscript where m.children.count == 3 && Analyzer.isNone(m.children[0]): return (m.children[1], m.children[2])
        default: return nil
        }
    }

    /// `{}_{n}C_{k}` → ``SemanticKind/prescripts`` (`combination` for C, `permutation` for P).
    mutating func prescripts(_ pre: (MathNode?, MathNode?), _ next: MathNode, range: SourceRange?, _ ctx: Context) -> NodeID {
        let preSub = pre.0.map { node($0, ctx) }
        let preSup = pre.1.map { node($0, ctx) }
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
        let postSub = post.0.map { node($0, ctx) }
        let postSup = post.1.map { node($0, ctx) }
        return prescriptsNode(preSub: preSub, preSup: preSup, base: base, sub: postSub, sup: postSup, range: range)
    }

    /// A ``SemanticKind/prescripts`` node of analysed parts.
    mutating func prescriptsNode(preSub: NodeID?, preSup: NodeID?, base: NodeID, sub: NodeID?, sup: NodeID?,
                                 range: SourceRange?) -> NodeID {
        let mark = b.mark()
        if let preSub { b.add(child: preSub, .presubscript) }
        if let preSup { b.add(child: preSup, .presuperscript) }
        b.add(child: base, .base)
        if let sub { b.add(child: sub, .subscript) }
        if let sup { b.add(child: sup, .exponent) }
        if kind(base) == .identifier {
            let u = scalar(base)
            if u == "C" { b.flag(.combination) }
            if u == "P" { b.flag(.permutation) }
        }
        return b.finish(.prescripts, mark, range: range)
    }

    /// A number followed by an overlined (or barred) run of digits: the repeating decimal, as a
    /// ``SemanticKind/number`` with `repeating-decimal` (ClearSpeak "Repeating decimals").
    mutating func repeatingDecimal(_ digits: String, _ m: MathNode, _ i: Int, _ end: Int) -> (NodeID, Int)? {
        var j = i + 1
        var written = digits
        if j < end, case .raw(let dot) = items[j].item, case .operator(let t, _) = dot.kind, t == "." {
            written += "."
            j += 1
        }
        guard written.unicodeScalars.contains("."), j < end, case .raw(let over) = items[j].item, case .over = over.kind,
              over.children.count == 2, case .number(let rep) = over.children[0].kind,
              let (mark, _) = Analyzer.accentLeaf(over.children[1]),
              let name = Vocabulary.accentName(mark, over: true, stretchy: true), name == .overline || name == .bar
        else { return nil }
        let range = SourceRange.union(m.range, over.range)
        let head = number(written, range: m.range)
        let tail = number(rep, range: over.children[0].range)
        let all = written + rep
        let start = b.mark()
        b.add(child: head, .whole)
        b.add(child: tail, .item)
        b.add(Analyzer.numberProperties(all))
        b.flag(.repeatingDecimal)
        b.string(.repeatingDigits, rep)
        b.integer(.repeatingCount, rep.unicodeScalars.count)
        let n = b.finish(.number, start, text: all, range: range, rangeFromChildren: false)
        return (n, j - i + 1)
    }

    /// Whether a node can be the quantity of a measurement: a number, a power of ten or a numeric fraction.
    static func isQuantity(_ m: MathNode) -> Bool {
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

    /// A unit written after a quantity (its text, `unit-name` key, powers and range).
    struct Unit {
        var text: String
        var key: String
        var power: Int?
        var powerDenominator: Int?
        var range: SourceRange?
        var used: Int
    }

    /// A unit written after a quantity: upright identifiers (`\mathrm{kg}`), text (`\text{cm}`), their
    /// squares and cubes, and a quotient of two (`m/s`).
    static func unitAt(_ items: LentStack<RowItem>, _ start: Int, _ end: Int) -> Unit? {
        func single(_ k: Int) -> (text: String, key: String, power: Int?, range: SourceRange?)? {
            guard k < end, case .raw(let m) = items[k].item else { return nil }
            switch m.kind {
            case .text(let t, _):
                let tt = t.trimmingSpaces
                if let key = Vocabulary.unitKey(tt) { return (tt, key, nil, m.range) }
                return nil
            case .identifier(let t, let v):
                guard v == .normal || (v == nil && t.hasSeveralScalars) else { return nil }
                if let key = Vocabulary.unitKey(t) { return (t, key, nil, m.range) }
                return nil
            case .superscript where m.children.count == 2:
                guard case .number(let p) = m.children[1].kind, p == "2" || p == "3" else { return nil }
                let base: String
                switch m.children[0].kind {
                case .identifier(let t, let v) where v == .normal || (v == nil && t.hasSeveralScalars): base = t
                case .text(let t, _): base = t.trimmingSpaces
                default: return nil
                }
                guard let key = Vocabulary.unitKey(base) else { return nil }
                // Keys write powers as the lexicon does: cm², m/s².
                return (base + "^" + p, key + (p == "2" ? "²" : "³"), p == "2" ? 2 : 3, m.range)
            default:
                return nil
            }
        }
        guard let first = single(start) else { return nil }
        var unit = Unit(text: first.text, key: first.key, power: first.power, range: first.range, used: 1)
        if start + 2 < end, case .raw(let slash) = items[start + 1].item, case .operator(let s, _) = slash.kind,
           s == "/" || s == "∕", let second = single(start + 2) {
            unit.text += "/" + second.text
            unit.key += "/" + second.key
            unit.range = SourceRange.union(unit.range, second.range)
            unit.used = 3
            unit.powerDenominator = second.power
        }
        return unit
    }

    /// A quantity followed by a unit → ``SemanticKind/measurement``.
    mutating func measurement(_ m: MathNode, _ i: Int, _ end: Int, _ ctx: Context) -> (NodeID, Int)? {
        guard let u = Analyzer.unitAt(items, i + 1, end) else { return nil }
        let q = node(m, ctx)
        let unitMark = b.mark()
        if let p = u.power { b.integer(.unitPower, p) }
        if let p = u.powerDenominator { b.integer(.unitPowerDenominator, p) }
        b.string(.unitName, u.key)
        let unit = b.finish(.text, unitMark, text: u.text, range: u.range, rangeFromChildren: false)
        let mark = b.mark()
        b.add(child: q, .quantity)
        b.add(child: unit, .unit)
        b.string(.unitName, u.key)
        if let p = u.power { b.integer(.unitPower, p) }
        if let p = u.powerDenominator { b.integer(.unitPowerDenominator, p) }
        if kind(q) == .number && text(q) == "1" { b.flag(.singular) }
        return (b.finish(.measurement, mark), u.used + 1)
    }

    // MARK: Fence matching

    /// The fence character an item is, if any; for other items, whether they end an operand (so a
    /// following bar closes rather than opens).
    enum FenceRole {
        case notFence(endsOperand: Bool)
        case open(Unicode.Scalar)
        case close(Unicode.Scalar)
        case bar(Unicode.Scalar, scripted: Bool)
    }

    /// The fence character an item is, if any (fence operators, and fence operators carrying scripts).
    static func fenceRole(_ item: RowItem) -> FenceRole {
        item.withRaw(fenceRole(of:)) ?? .notFence(endsOperand: item.isOperand)
    }

    /// The fence role of a raw item's node.
    private static func fenceRole(of m: MathNode) -> FenceRole {
        if let (t, p) = m.operatorParts {
            let u = t.soleScalar
            if let u, let role = fenceRole(u, p, scripted: false) { return role }
            return .notFence(endsOperand: endsOperand(t, u, p))
        }
        if let t = m.identifierText {
            return .notFence(endsOperand: t.isOneScalar || (Vocabulary.functionClass(t) == nil && t != "mod"))
        }
        let scripted = m.isScripted
        if scripted || m.isUnderOver {
            guard let (t, p) = m.children[0].operatorParts else { return .notFence(endsOperand: true) }
            if scripted, let u = t.soleScalar, let role = fenceRole(u, p, scripted: true) { return role }
            return .notFence(endsOperand: p.atomClass == .close || p.atomClass == .ord)
        }
        return .notFence(endsOperand: true)
    }

    /// The fence role of an operator character (every fence character is one scalar), nil when it
    /// is none.
    private static func fenceRole(_ u: Unicode.Scalar, _ p: OperatorProperties, scripted: Bool) -> FenceRole? {
        if Vocabulary.isBar(u) {
            switch p.atomClass {
            case .rel: return nil
            case .open: return scripted ? nil : .open(u)
            case .close: return .close(u)
            default: return .bar(u, scripted: scripted)
            }
        }
        if p.atomClass == .rel || p.atomClass == .bin || p.atomClass == .punct { return nil }
        if !scripted, Vocabulary.isOpener(u) { return .open(u) }
        if Vocabulary.isCloser(u) { return .close(u) }
        return nil
    }

    /// Whether an operator (text `t`, sole scalar `u`) ends an operand: `!`, `%`, primes, ellipses,
    /// and ordinary symbols other than the invisible operators.
    private static func endsOperand(_ t: String, _ u: Unicode.Scalar?, _ p: OperatorProperties) -> Bool {
        if u == "!" || u == "%" { return true }
        if Analyzer.primeCount(t, u) != nil || Analyzer.isEllipsis(t, u) { return true }
        switch p.atomClass {
        case .bin, .rel, .punct, .open, .op: return false
        default:
            let first = u ?? t.unicodeScalars.first
            return !(first.map { (0x2061...0x2064).contains($0.value) } ?? false)
        }
    }

    /// Matches brackets over the items of one row (`items[base...]`) in a single pass with a stack.
    /// Parentheses and brackets pair with each other (`(0, 1]`, interval candidates); a bar closes the
    /// innermost open bar when an operand precedes it (`|a||b|`, `2|y|`) and otherwise opens; bars
    /// left over are relations (`a | b`, `\{x | x > 0\}`, `P(A | B)`), or evaluation bars when they
    /// carry scripts. The result is each item's ``RowItem/match``.
    mutating func matchFences(from base: Int, _ ctx: Context) {
        let end = items.count
        let maxNesting = max(0, min(Analyzer.maxGroupDepth - ctx.groupDepth, Analyzer.maxLevel - ctx.level))
        openFences.truncate(to: 0)
        var previousEnds = false
        for i in base..<end {
            switch Analyzer.fenceRole(items[i]) {
            case .notFence(let ends):
                previousEnds = ends
            case .open(let u):
                if openFences.count < maxNesting {
                    openFences.push(OpenFence(index: i, scalar: u, bar: false))
                } else {
                    items[i].match = RowItem.looseFence
                }
                previousEnds = false
            case .close(let t):
                // Prefer the nearest compatible opener that is not a bar (⟨a|b⟩), then a bar (|ψ⟩).
                var found = -1
                var k = openFences.count - 1
                while k >= 0 {
                    if !openFences[k].bar, Vocabulary.closes(openFences[k].scalar, t) { found = k; break }
                    k -= 1
                }
                if found < 0 {
                    k = openFences.count - 1
                    while k >= 0 {
                        if openFences[k].bar, Vocabulary.closes(openFences[k].scalar, t) { found = k; break }
                        k -= 1
                    }
                }
                if found >= 0 {
                    let opener = openFences[found].index
                    dropOpenFences(above: found + 1)
                    openFences.pop()
                    items[opener].match = Int32(i)
                } else {
                    items[i].match = RowItem.looseFence
                }
                previousEnds = true
            case .bar(let t, let scripted):
                if let top = openFences.last, top.bar, top.scalar == t, previousEnds {
                    openFences.pop()
                    items[top.index].match = Int32(i)
                    previousEnds = true
                } else if scripted {
                    items[i].match = RowItem.looseBar
                    previousEnds = true
                } else if openFences.count < maxNesting {
                    openFences.push(OpenFence(index: i, scalar: t, bar: true))
                    previousEnds = false
                } else {
                    items[i].match = RowItem.looseBar
                    previousEnds = false
                }
            }
        }
        // A bra ⟨ψ| at the end of the row: an angle bracket closed by a bar.
        let n = openFences.count
        if n >= 2, openFences[n - 1].bar, openFences[n - 1].index == end - 1, !openFences[n - 2].bar,
           Vocabulary.isAngleOpen(openFences[n - 2].scalar) {
            items[openFences[n - 2].index].match = Int32(openFences[n - 1].index)
            openFences.truncate(to: n - 2)
        }
        dropOpenFences(above: 0)
    }

    /// Marks the fences open above the first `k` as loose (bars, or other fence characters).
    private mutating func dropOpenFences(above k: Int) {
        while openFences.count > k {
            let e = openFences.pop()
            items[e.index].match = e.bar ? RowItem.looseBar : RowItem.looseFence
        }
    }
}

// Narrow views of a node's kind for the row passes, which look at every item: each copies only the
// payload it returns (a switch over the whole kind copies all of it).
extension MathNode {
    /// Whether the node is a single operator.
    var isOperatorLeaf: Bool {
        if case .operator = kind { return true }
        return false
    }

    /// An operator leaf's text and properties.
    @inline(__always)
    var operatorParts: (text: String, properties: OperatorProperties)? {
        if case .operator(let t, let p) = kind { return (t, p) }
        return nil
    }

    /// An identifier's text.
    var identifierText: String? {
        if case .identifier(let t, _) = kind { return t }
        return nil
    }

    /// An identifier's text and variant.
    @inline(__always)
    var identifierParts: (text: String, variant: MathVariant?)? {
        if case .identifier(let t, let v) = kind { return (t, v) }
        return nil
    }

    /// A number's digits as written.
    var numberText: String? {
        if case .number(let t) = kind { return t }
        return nil
    }

    /// Whether the node is a subscript, superscript or both.
    var isScripted: Bool {
        switch kind {
        case .subscript, .superscript, .subSuperscript: return true
        default: return false
        }
    }

    /// Whether the node is an under, over or under-over script.
    var isUnderOver: Bool {
        switch kind {
        case .under, .over, .underOver: return true
        default: return false
        }
    }

    /// Whether a multi-item pattern (pre-scripts, a repeating decimal, a measurement) can start at
    /// the node: scripts, a number or a fraction.
    var mayStartPattern: Bool {
        switch kind {
        case .subscript, .superscript, .subSuperscript, .number, .fraction: return true
        default: return false
        }
    }
}
