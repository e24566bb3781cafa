import Foundation
import MathSyntax

/// Turns a presentation tree (``MathNode``) into a semantic tree (``SemanticNode``): what the formula
/// means, independent of any language (DESIGN.md §4).
///
/// The analysis is total: every tree, including error nodes, trees read from MathML and huge or
/// deeply nested trees, yields a semantic tree. Recursion follows the input tree's own depth (plus
/// a bounded number of bracket levels inside one row); rows are analysed by a single pass that
/// matches fences and then parses operator precedence over an array of tokens.
///
/// ```swift
/// let tree = SemanticAnalyzer().analyze(TeXParser().parse(#"\frac{3}{4}"#).root)
/// tree.kind                 // .fraction
/// tree.has("common")        // true
/// ```
public struct SemanticAnalyzer: Sendable {
    /// Switches for the analysis. None yet: the struct leaves room for later ones without breaking
    /// callers.
    public struct Options: Sendable {
        /// The default options.
        public init() {}
    }

    /// The options this analyser was created with.
    public let options: Options

    /// Creates an analyser.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// The semantic tree of a presentation tree. Never fails; parts it cannot understand become
    /// ``SemanticKind/unknown`` or ``SemanticKind/row`` nodes.
    public func analyze(_ root: MathNode) -> SemanticNode {
        // The analysis recurses once per level of the input tree (a few frames each). Shallow trees —
        // nearly all formulas — run on the caller's stack; deep ones on a thread with a large stack,
        // so a 200-deep tree is safe even on a 512 KiB secondary thread.
        if root.nestingDepth(upTo: SemanticAnalyzer.callerStackDepth) < SemanticAnalyzer.callerStackDepth {
            return Analyzer().node(root, Context()).withRole(.none)
        }
        return LargeStack.run { Analyzer().node(root, Context()).withRole(.none) }
    }

    /// Trees at least this deep are analysed on a thread with a large stack.
    static let callerStackDepth = 24
}

/// Runs work on a thread with a large stack and waits for it.
enum LargeStack {
    /// Stack size for deep trees (address space only; pages are committed as they are touched).
    static let stackSize = 512 << 20

    /// The result slot: written once by the worker thread before it signals, read by the caller after
    /// the wait, so the semaphore orders every access (hence `@unchecked Sendable`).
    final class Box: @unchecked Sendable {
        var value: SemanticNode?
        let done = DispatchSemaphore(value: 0)
    }

    /// Runs `work` on a new thread with ``stackSize`` bytes of stack and returns its result. Blocks
    /// the calling thread meanwhile (only trees deeper than ``SemanticAnalyzer/callerStackDepth`` get here).
    static func run(_ work: @escaping @Sendable () -> SemanticNode) -> SemanticNode {
        let box = Box()
        let thread = Thread {
            box.value = work()
            box.done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        box.done.wait()
        return box.value ?? SemanticNode(.unknown)
    }
}

extension MathNode {
    /// The depth of the tree, counted up to `limit` (recursion stops there, so any depth is safe to measure).
    func nestingDepth(upTo limit: Int) -> Int {
        // Recursion stops at `limit` levels, so it is bounded whatever the tree's depth.
        guard limit > 1, !children.isEmpty else { return 1 }
        var deepest = 1
        for c in children {
            deepest = max(deepest, 1 + c.nestingDepth(upTo: limit - 1))
            if deepest >= limit { break }
        }
        return deepest
    }
}

/// What the analysis of one node needs to know about where it sits.
struct Context {
    /// How many parentheses or brackets enclose the node (ClearSpeak Paren_SpeakNestingLevel).
    var parenDepth = 0
    /// How many bracket groups of rows enclose the node (bounds recursion inside one row).
    var groupDepth = 0
    /// How many rows and bracket groups enclose the node in the whole analysis. Brackets nest as
    /// structure only while this stays below ``Analyzer/maxLevel``, so the recursion stays within a
    /// small multiple of the input tree's depth.
    var level = 0
}

/// The analysis proper. Stateless: each call gets its context.
struct Analyzer {
    /// Deepest bracket nesting analysed as structure inside one row; deeper brackets stay flat.
    static let maxGroupDepth = 48
    /// Deepest nesting of big-operator and limit bodies within one row.
    static let maxBodyDepth = 32
    /// Deepest nesting of rows and bracket groups together (see ``Context/level``).
    static let maxLevel = 320

    // MARK: Dispatch

    /// The meaning of any presentation node.
    func node(_ m: MathNode, _ ctx: Context) -> SemanticNode {
        switch m.kind {
        case .identifier, .number, .text:
            return sequence([m], range: m.range, ctx)
        case .fraction(let p):
            return fraction(m, p, ctx)
        case .squareRoot, .root:
            return root(m, ctx)
        case .table(let p):
            return table(m, p, ctx)
        case .enclose(let notation):
            let content = sequence(m.children, range: m.range, ctx)
            return .make(.enclosed, [content.withRole(.content)], props: ["notation": notation], range: m.range)
        case .style(let p) where p.color != nil || p.background != nil:
            let content = sequence(m.children, range: m.range, ctx)
            var props: SemanticProperties = [:]
            if let c = p.color { props["color"] = c }
            if let b = p.background { props["background"] = b }
            return .make(.styled, [content.withRole(.content)], props: props, range: m.range)
        case .phantom, .none, .space:
            return SemanticNode(.empty, range: m.range)
        case .error(let source):
            return unknown(source, range: m.range)
        case .semantics:
            guard let first = m.children.first else { return SemanticNode(.empty, range: m.range) }
            return node(first, ctx)
        case .tableRow, .tableCell:
            return sequence(m.children, range: m.range, ctx)
        default:
            return sequence([m], range: m.range, ctx)
        }
    }

    /// An ``SemanticKind/unknown`` node for an error node's source; `command` names an unknown command.
    func unknown(_ source: String, range: SourceRange?) -> SemanticNode {
        var props: SemanticProperties = [:]
        if source.hasPrefix("\\") {
            var name = ""
            for u in source.unicodeScalars.dropFirst() {
                if u.properties.isAlphabetic || (name.isEmpty && !u.properties.isWhitespace) { name.unicodeScalars.append(u) } else { break }
                if name.count == 1 && !u.properties.isAlphabetic { break }
            }
            if !name.isEmpty { props["command"] = name }
        }
        return SemanticNode(.unknown, text: source, properties: props, range: range)
    }

    // MARK: Leaves

    /// An identifier leaf (letters, Greek, double-struck set names).
    func identifier(_ text: String, _ variant: MathVariant?, range: SourceRange?) -> SemanticNode {
        SemanticNode(.identifier, text: text, properties: Facts.identifierProps(text, variant: variant), range: range)
    }

    /// A number leaf.
    func number(_ text: String, range: SourceRange?) -> SemanticNode {
        SemanticNode(.number, text: text, properties: Facts.numberProps(text), range: range)
    }

    /// An operator leaf with its class.
    func operatorLeaf(_ text: String, _ cls: AtomClass, range: SourceRange?) -> SemanticNode {
        SemanticNode(.operator, text: text, properties: ["class": cls.rawValue], range: range)
    }

    /// A function-name leaf (`sin`, `log`, `lim`, `\operatorname{rank}`).
    func functionName(_ text: String, range: SourceRange?) -> SemanticNode {
        let cls = Vocabulary.isLimitName(text) ? "limit" : (Vocabulary.functionClass(text) ?? "named")
        return SemanticNode(.functionName, text: text, properties: ["function-class": cls], range: range)
    }

    /// A text leaf, trimmed; `unit-name` when it spells out a unit (`meters`).
    func text(_ raw: String, range: SourceRange?) -> SemanticNode {
        let t = raw.trimmingSpaces
        if t.isEmpty { return SemanticNode(.empty, range: range) }
        var props: SemanticProperties = [:]
        if let key = Vocabulary.unitKey(t, spelledOnly: true) { props["unit-name"] = key }
        return SemanticNode(.text, text: t, properties: props, range: range)
    }

    /// An ellipsis leaf with its `direction`.
    func ellipsis(_ text: String, range: SourceRange?) -> SemanticNode {
        let direction: String
        switch text {
        case "⋮": direction = "vertical"
        case "⋱": direction = "diagonal"
        case "⋰": direction = "anti-diagonal"
        default: direction = "horizontal"
        }
        var props: SemanticProperties = ["direction": direction]
        if text == "⋯" { props["centered"] = "true" }
        return SemanticNode(.ellipsis, text: text, properties: props, range: range)
    }

    static func isEllipsis(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return text == "..." }
        return u == "…" || u == "⋯" || u == "⋮" || u == "⋱" || u == "⋰"
    }

    // MARK: Fractions and roots

    /// `mfrac` → ``SemanticKind/fraction`` with ClearSpeak's fraction facts (see ``Facts/fractionProps``).
    func fraction(_ m: MathNode, _ p: FractionProperties, _ ctx: Context) -> SemanticNode {
        let num = m.children.count > 0 ? node(m.children[0], ctx) : SemanticNode(.empty, range: m.range)
        let den = m.children.count > 1 ? node(m.children[1], ctx) : SemanticNode(.empty, range: m.range)
        let props = Facts.fractionProps(num, den, props: p)
        return .make(.fraction, [num.withRole(.numerator), den.withRole(.denominator)], props: props, range: m.range)
    }

    /// `msqrt`/`mroot` → ``SemanticKind/root``: `square`, `index-value` for an integer index,
    /// `nested` when the radicand holds another root (MathSpeak "NestedStartRoot").
    func root(_ m: MathNode, _ ctx: Context) -> SemanticNode {
        var children: [SemanticNode] = []
        var props: SemanticProperties = [:]
        let radicand: SemanticNode
        if case .squareRoot = m.kind {
            radicand = sequence(m.children, range: m.range, ctx)
            props["square"] = "true"
            children.append(radicand.withRole(.radicand))
        } else {
            radicand = m.children.count > 0 ? node(m.children[0], ctx) : SemanticNode(.empty, range: m.range)
            children.append(radicand.withRole(.radicand))
            if m.children.count > 1 {
                let index = node(m.children[1], ctx)
                if let v = index.integerValue {
                    props["index-value"] = String(v)
                    if v == 2 { props["square"] = "true" }
                }
                children.append(index.withRole(.index))
            }
        }
        let depth = Facts.rootDepth(radicand)
        if depth > 0 {
            props["root-depth"] = String(depth)
            props["nested"] = "true"
        }
        return .make(.root, children, props: props, range: m.range)
    }

    // MARK: Scripts

    /// Scripts after a base, analysed once and applied to whatever the base turns out to be.
    struct Scripts {
        var sub: SemanticNode?
        var sup: SemanticNode?
        var primes = 0
        var degrees = false
        var range: SourceRange?
        var isEmpty: Bool { sub == nil && sup == nil && primes == 0 && !degrees }
    }

    /// Analyses a subscript and a superscript: primes (`′`, `′′`, `\prime`) and degree rings (`∘`, `°`)
    /// at the start of the superscript are split off.
    func scripts(sub: MathNode?, sup: MathNode?, _ ctx: Context) -> Scripts {
        var s = Scripts()
        if let sub, !Analyzer.isNone(sub) {
            s.sub = node(sub, ctx)
            s.range = SourceRange.union(s.range, sub.range)
        }
        if let sup, !Analyzer.isNone(sup) {
            s.range = SourceRange.union(s.range, sup.range)
            var items = sup.children
            if case .row = sup.kind {} else { items = [sup] }
            var i = 0
            while i < items.count, case .operator(let t, _) = items[i].kind, let n = Analyzer.primeCount(t) {
                s.primes += n
                i += 1
            }
            if s.primes == 0, items.count == 1, case .operator(let t, _) = items[0].kind, let u = t.soleScalar, u == "∘" || u == "°" || u == "○" {
                s.degrees = true
                i = 1
            }
            if i == 0 {
                s.sup = node(sup, ctx)
            } else if i < items.count {
                s.sup = sequence(Array(items[i...]), range: nil, ctx)
            }
        }
        return s
    }

    /// How many primes an operator text stands for (`′` 1, `″` 2, `‴` 3, `⁗` 4, `'` 1).
    static func primeCount(_ text: String) -> Int? {
        guard let u = text.soleScalar else { return text == "''" ? 2 : nil }
        switch u {
        case "′", "'", "’": return 1
        case "″": return 2
        case "‴": return 3
        case "⁗": return 4
        default: return nil
        }
    }

    static func isNone(_ m: MathNode) -> Bool {
        if case .none = m.kind { return true }
        return m.isEmptyRow
    }

    /// Applies analysed scripts to an analysed base: subscript, then primes (a number with primes is a
    /// measurement in feet/inches or minutes/seconds — ClearSpeak Prime preference), then degrees, then
    /// the power.
    func apply(_ s: Scripts, to base: SemanticNode, range: SourceRange?) -> SemanticNode {
        var b = base
        let whole = SourceRange.union(base.range, range ?? s.range)
        if let sub = s.sub {
            var props: SemanticProperties = [:]
            if sub.kind == .number { props["numeric"] = "true" }
            b = .make(.subscript, [b.withRole(.base), sub.withRole(.subscript)], props: props,
                      range: SourceRange.union(b.range, sub.range))
        }
        if s.primes > 0 {
            if b.kind == .number && s.sup == nil {
                let mark = String(repeating: "′", count: s.primes)
                let unit = SemanticNode(.operator, text: mark, properties: ["class": "ord"], range: s.range)
                var props: SemanticProperties = ["prime-unit": String(s.primes), "unit-name": s.primes == 1 ? "ft" : "in"]
                if b.text == "1" { props["singular"] = "true" }
                b = .make(.measurement, [b.withRole(.quantity), unit.withRole(.unit)], props: props, range: whole)
            } else {
                b = .make(.primes, [b.withRole(.base)], props: ["count": String(s.primes)], range: s.sup == nil ? whole : nil)
            }
        }
        if s.degrees {
            b = .make(.degrees, [b.withRole(.quantity)], range: whole)
        }
        if let sup = s.sup {
            b = power(b, sup, range: whole)
        }
        if b.range == nil { return b.withRange(whole) }
        return b
    }

    /// A power with ClearSpeak's exponent facts.
    func power(_ base: SemanticNode, _ exp: SemanticNode, range: SourceRange?) -> SemanticNode {
        .make(.power, [base.withRole(.base), exp.withRole(.exponent)], props: Facts.exponentProps(exp),
              range: range ?? SourceRange.union(base.range, exp.range))
    }

    // MARK: Accents and stacking

    /// `mover`/`munder`/`munderover` that are not big operators or limits: accents, braces with labels,
    /// stacked symbols.
    func underOver(_ m: MathNode, base: SemanticNode, lower: MathNode?, upper: MathNode?, _ ctx: Context,
                   baseClass: AtomClass?) -> SemanticNode {
        let props: UnderOverProperties
        switch m.kind {
        case .under(let p), .over(let p), .underOver(let p): props = p
        default: props = UnderOverProperties()
        }
        // An accent: the script is one accent character.
        if lower == nil, let upper, let (text, stretchy) = Analyzer.accentLeaf(upper),
           let name = Vocabulary.accentName(text, over: true, stretchy: stretchy), baseClass != .rel, props.accent || baseClass == nil {
            let mark = SemanticNode(.operator, text: text, properties: ["class": "ord"], range: upper.range)
            var p: SemanticProperties = ["accent-name": name]
            if Analyzer.isLetterSequence(base) { p["base-letters"] = "true" }
            return .make(.accent, [base.withRole(.base), mark.withRole(.accent)], props: p, range: m.range)
        }
        if upper == nil, let lower, let (text, _) = Analyzer.accentLeaf(lower),
           let name = Vocabulary.accentName(text, over: false, stretchy: true), baseClass != .rel, props.accentUnder || baseClass == nil {
            let mark = SemanticNode(.operator, text: text, properties: ["class": "ord", "position": "under"], range: lower.range)
            return .make(.accent, [base.withRole(.base), mark.withRole(.accent)],
                         props: ["accent-name": name, "position": "under"], range: m.range)
        }
        // A brace with a label: the base is itself a brace accent.
        var children: [SemanticNode] = []
        var p: SemanticProperties = [:]
        var core = base
        if base.kind == .accent, let name = base.properties["accent-name"],
           ["overbrace", "underbrace", "overbracket", "underbracket", "overparen", "underparen"].contains(name),
           let inner = base.child(.base) {
            core = inner
            p["accent-name"] = name
        }
        children.append(core.withRole(.base))
        if let lower { children.append(node(lower, ctx).withRole(.lower)) }
        if let upper { children.append(node(upper, ctx).withRole(.upper)) }
        if let baseClass { p["base-class"] = baseClass.rawValue }
        return .make(.stacked, children, props: p, range: m.range)
    }

    /// Two or more letters, possibly with primes (`\overline{AB}`, `\overline{A'B'}`): ClearSpeak reads
    /// an overline on them as a line segment.
    static func isLetterSequence(_ n: SemanticNode) -> Bool {
        guard n.kind == .impliedTimes else { return false }
        let items = n.children.filter { $0.role == .item }
        return items.count >= 2 && items.allSatisfy { item in
            item.letter != nil || (item.kind == .primes && item.child(.base)?.letter != nil)
        }
    }

    /// The accent character of a script that is one operator (or one identifier such as `.`).
    static func accentLeaf(_ m: MathNode) -> (String, Bool)? {
        var n = m
        while case .row = n.kind, n.children.count == 1 { n = n.children[0] }
        switch n.kind {
        case .operator(let t, let p): return (t, p.stretchy)
        case .identifier(let t, _) where t.unicodeScalars.count == 1: return (t, false)
        case .text(let t, _) where t.unicodeScalars.count == 1: return (t, false)
        default: return nil
        }
    }

    // MARK: Tables

    /// Matrix environments (ClearSpeak "Matrices"), cases ("Multi-line Expressions": cases), line
    /// layouts (aligned, gather…) and other tables. The fence is added by the enclosing fence.
    func table(_ m: MathNode, _ p: TableProperties, _ ctx: Context) -> SemanticNode {
        var env = p.environment
        if env.hasSuffix("*") { env.removeLast() }
        var rows: [SemanticNode] = []
        var columns = 0
        var allSimple = true
        var labelled = false
        for r in m.children {
            var cells: [SemanticNode] = []
            var label: SemanticNode? = nil
            var cellNodes = r.children
            if case .tableRow(let hasLabel) = r.kind, hasLabel, !cellNodes.isEmpty {
                label = tagLabel(cellNodes[0], ctx).withRole(.label)
                labelled = true
                cellNodes.removeFirst()
            }
            for c in cellNodes {
                let items = c.kind == .tableCell ? c.children : [c]
                let content = sequence(items, range: c.range, ctx)
                if content.kind != .empty && !Facts.isSimple(content) { allSimple = false }
                let children = content.kind == .empty ? [] : [content.withRole(.item)]
                cells.append(SemanticNode(.tableCell, children: children, role: .cell, range: c.range))
            }
            columns = max(columns, cells.count)
            if let label { cells.insert(label, at: 0) }
            rows.append(SemanticNode(.tableRow, children: cells, role: .row, range: r.range))
        }
        var props: SemanticProperties = ["rows": String(rows.count), "columns": String(columns)]
        let kind: SemanticKind
        switch env {
        case "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix":
            kind = .matrix
            props["fence"] = "none"
            if allSimple { props["simple-cells"] = "true" }
        case "cases", "dcases", "rcases", "drcases":
            kind = .cases
        case "aligned", "align", "alignat", "alignedat", "gather", "gathered", "split", "multline", "equation",
             "eqnarray", "flalign", "subequations", "substack", "subarray":
            // An unnumbered single-line equation is just its content.
            if (env == "equation") && rows.count == 1 && columns == 1 && !labelled,
               let only = rows[0].children.first?.children.first {
                return only.withRole(.none)
            }
            kind = .lines
            props["environment"] = env
        default:
            kind = .table
            props["environment"] = env
            if allSimple { props["simple-cells"] = "true" }
        }
        return .make(kind, rows, props: props, range: m.range)
    }

    /// The label of a numbered row (`\tag{A}` → text `A`, property `parenthesised` when it is shown in
    /// parentheses). Labels that hold math are analysed as math.
    func tagLabel(_ cell: MathNode, _ ctx: Context) -> SemanticNode {
        var text = ""
        var allText = true
        cell.walk { n in
            switch n.kind {
            case .text(let t, _): text += t
            case .row, .tableCell: break
            default: allText = false
            }
        }
        guard allText else { return sequence(cell.children, range: cell.range, ctx) }
        var props: SemanticProperties = [:]
        let scalars = text.unicodeScalars
        if scalars.count >= 2, scalars.first == "(", scalars.last == ")" {
            text = String(String.UnicodeScalarView(scalars.dropFirst().dropLast()))
            props["parenthesised"] = "true"
        }
        return SemanticNode(.text, text: text.trimmingSpaces, properties: props, range: cell.range)
    }

    /// A table found between fences: a matrix with its fence, or cases after a lone brace.
    func fencedTable(_ t: SemanticNode, open: String, close: String, range: SourceRange?) -> SemanticNode {
        var props = t.properties
        if (open == "{" && close.isEmpty) || (open.isEmpty && close == "}") {
            props["fence"] = nil
            props["environment"] = nil
            props["simple-cells"] = nil
            if close == "}" { props["side"] = "right" }
            return SemanticNode(.cases, children: t.children, properties: props, range: range)
        }
        let fence: String
        switch (open, close) {
        case ("(", ")"): fence = "parentheses"
        case ("[", "]"): fence = "brackets"
        case ("{", "}"): fence = "braces"
        case ("|", "|"): fence = "bars"
        case ("‖", "‖"): fence = "double-bars"
        default: fence = "other"
        }
        props["fence"] = fence
        props["environment"] = nil
        if t.kind == .table, let simple = t.properties["simple-cells"] { props["simple-cells"] = simple }
        if fence == "other" { props["open"] = open; props["close"] = close }
        return SemanticNode(.matrix, children: t.children, properties: props, range: range)
    }
}

extension SemanticNode {
    /// The same node with another range.
    func withRange(_ r: SourceRange?) -> SemanticNode {
        SemanticNode(kind, text: text, children: children, role: role, properties: properties, range: r)
    }
}

extension String {
    /// The string without leading and trailing white space (no Foundation needed).
    var trimmingSpaces: String {
        let s = unicodeScalars
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi, s[lo].properties.isWhitespace { lo = s.index(after: lo) }
        while hi > lo, s[s.index(before: hi)].properties.isWhitespace { hi = s.index(before: hi) }
        return String(s[lo..<hi])
    }
}
