import MathSyntax

// mhchem (the \ce and \pu of mhchem 4, as its manual defines them: https://mhchem.github.io/MathJax-mhchem/)
// read into the presentation tree. Chemistry is marked on the nodes it builds (attribute `data-chem`,
// written to MathML as such) so that the semantics reads the structure, never the spelling:
//
//   equation     a sequence with arrows or operators between species (the root of \ce when it has any)
//   formula      one species: its parts, counts, charge, state
//   element      an element symbol or a particle (n, e, p), upright
//   variable     an italic letter (a coefficient x, a count n)
//   coefficient  a stoichiometric number before a species (2, 0.5, 1/2, (1/2), n)
//   count        a subscript count (H₂)
//   charge       a charge superscript (2+, −, .−); `data-chem-charge` holds it in plain text
//   oxidation    an oxidation state superscript (II)
//   state        a state of aggregation or crystal system in parentheses ((aq), (s), ($c$))
//   arrow        a reaction arrow; `data-chem-arrow` is its mhchem spelling (->, <=>…)
//   bond         a bond; `data-chem-bond` is 1, 2, 3, ~, ~-, …, ->, <-
//   plus, minus, equals, plus-minus   operators between species
//   precipitate, gas                  the ↓ and ↑ marks (v, ^)
//   addition     the dot of an addition compound (KCr(SO4)2·12H2O)
//   isotope      mass and atomic number before an element
//   excited      the * of an excited state
//   radical      unpaired electrons (the dots of .−)
//   text         upright text ({Gluconic Acid})
//
// The reading is the manual's: spaces separate species and operators; digits after a symbol or a
// group count; digits before a species are its amount; + or − ending a species is its charge;
// ^ and _ take one token or a {group}; (…) after a species holding lowercase words or math is a state;
// - = # between symbols are bonds; * and . before an amount join an addition compound; {…} escapes
// text; $…$ is math (parsed as TeX, \ce inside allowed).

/// Reads the argument of `\ce` or `\pu`.
struct MhchemReader {
    /// The argument's source text.
    let bytes: [UInt8]
    /// Where `bytes[0]` is in the formula (for ranges); nil when the argument came from a macro
    /// (ranges then point at the command).
    let base: Int?
    /// The command's range (used when `base` is nil).
    let commandRange: SourceRange
    /// Options for math inside (`$…$`, commands).
    let options: TeXParserOptions
    /// How deep nested parses may still go.
    let depthLeft: Int
    var diagnostics: [Diagnostic] = []
    /// The formula's macro budget left when the reader began (expansions, expanded tokens), shared by
    /// every parse nested here, and what they spent of it: math in `\ce{$…$ $…$}` whose macros hold more
    /// `\ce` would otherwise get a fresh budget at each level and multiply it.
    let budget: (expansions: Int, tokens: Int)
    private(set) var spent = (expansions: 0, tokens: 0)

    init(text: String, base: Int?, commandRange: SourceRange, options: TeXParserOptions, depthLeft: Int,
         budget: (expansions: Int, tokens: Int)) {
        self.bytes = Array(text.utf8)
        self.base = base
        self.commandRange = commandRange
        self.options = options
        self.depthLeft = depthLeft
        self.budget = budget
    }

    // MARK: Small helpers

    func range(_ lo: Int, _ hi: Int) -> SourceRange {
        guard let base else { return commandRange }
        return SourceRange(base + lo, base + max(lo, hi))
    }

    func string(_ lo: Int, _ hi: Int) -> String { String(decoding: bytes[lo..<hi], as: UTF8.self) }

    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isLetter(_ b: UInt8) -> Bool { isUpper(b) || isLower(b) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    func marked(_ node: MathNode, _ chem: String, _ extra: [String: String] = [:]) -> MathNode {
        var attributes = node.attributes ?? [:]
        attributes["data-chem"] = chem
        for (k, v) in extra { attributes[k] = v }
        return MathNode(node.kind, children: node.children, range: node.range, attributes: attributes)
    }

    func leaf(_ kind: MathNode.Kind, _ lo: Int, _ hi: Int, chem: String? = nil, _ extra: [String: String] = [:]) -> MathNode {
        var attributes: [String: String]? = nil
        if let chem {
            attributes = extra
            attributes?["data-chem"] = chem
        }
        return MathNode(kind, [], range: range(lo, hi), attributes: attributes)
    }

    func op(_ text: String, _ cls: AtomClass, _ lo: Int, _ hi: Int, chem: String? = nil, stretchy: Bool = false,
            _ extra: [String: String] = [:]) -> MathNode {
        leaf(.operator(text, OperatorProperties(atomClass: cls, stretchy: stretchy)), lo, hi, chem: chem, extra)
    }

    /// The end of a balanced group opened at `i` by `open`, closed by `close` (backslash escapes and
    /// nested braces skipped); nil when unbalanced.
    func groupEnd(_ i: Int, _ hi: Int, open: UInt8, close: UInt8) -> Int? {
        var depth = 0, j = i
        while j < hi {
            let c = bytes[j]
            if c == 0x5C { j += 2; continue }
            if c == 0x24, open != 0x24 {   // skip $…$
                if let e = dollarEnd(j, hi) { j = e; continue }
            }
            if c == open { depth += 1 } else if c == close { depth -= 1; if depth == 0 { return j + 1 } }
            if open != 0x7B, c == 0x7B, let e = groupEnd(j, hi, open: 0x7B, close: 0x7D) { j = e; continue }
            j += 1
        }
        return nil
    }

    /// The end of `$…$` starting at `i` (just after the closing `$`), nil when unclosed.
    func dollarEnd(_ i: Int, _ hi: Int) -> Int? {
        var j = i + 1
        var depth = 0
        while j < hi {
            let c = bytes[j]
            if c == 0x5C { j += 2; continue }
            if c == 0x7B { depth += 1 } else if c == 0x7D { depth -= 1 } else if c == 0x24, depth <= 0 { return j + 1 }
            j += 1
        }
        return nil
    }

    /// Math (TeX) in `lo..<hi`, parsed on its own; its ranges moved into the formula.
    mutating func math(_ lo: Int, _ hi: Int, display: Bool = false) -> MathNode {
        let source = string(lo, hi)
        guard depthLeft > 1 else {
            diagnostics.append(.error("tex.too-deep", "\\ce nested too deeply", at: range(lo, hi)))
            return MathNode(.error(source), range: range(lo, hi))
        }
        var nested = options
        nested.displayMode = display
        nested.limits.maxDepth = depthLeft - 1
        nested.chemistryNesting += 1
        nested.limits.maxExpansions = max(0, budget.expansions - spent.expansions)
        nested.limits.maxExpandedTokens = max(0, budget.tokens - spent.tokens)
        let result = TeXParser(options: nested).parse(source)
        spent.expansions += result.expansionsSpent
        spent.tokens += result.expandedTokensSpent
        let shift = base.map { $0 + lo }
        for d in result.diagnostics {
            var moved = d
            moved.range = shift.map { s in d.range.map { SourceRange($0.lowerBound + s, $0.upperBound + s) } } ?? commandRange
            moved.fixIts = shift == nil ? [] : d.fixIts.map { .init(range: SourceRange($0.range.lowerBound + shift!, $0.range.upperBound + shift!), replacement: $0.replacement) }
            diagnostics.append(moved)
        }
        return result.root.shifted(by: shift, fallback: commandRange)
    }

    // MARK: \ce

    /// The whole argument of `\ce`.
    mutating func equation() -> MathNode {
        let items = sequence(0, bytes.count)
        let isEquation = items.contains { n in
            guard let c = n.attributes?["data-chem"] else { return false }
            return ["arrow", "plus", "minus", "equals", "plus-minus", "precipitate", "gas", "punctuation"].contains(c)
        }
        if !isEquation, items.count == 1, items[0].attributes?["data-chem"] == "formula" { return items[0] }
        return MathNode(.row, items, range: range(0, bytes.count), attributes: ["data-chem": isEquation ? "equation" : "formula"])
    }

    /// Set after a lone addition dot: the next number is an amount.
    var amountAfterAddition = false

    /// Species, amounts, operators and arrows separated by spaces, in `lo..<hi`.
    mutating func sequence(_ lo: Int, _ hi: Int) -> [MathNode] {
        var items: [MathNode] = []
        var i = lo
        var spaceBefore = true
        while i < hi {
            let c = bytes[i]
            if Self.isSpace(c) { i += 1; spaceBefore = true; continue }
            let wordEnd = self.wordEnd(i, hi)
            let spaceAfter = wordEnd >= hi || Self.isSpace(bytes[wordEnd])
            // An arrow, with its optional [above][below].
            if let (spelling, length) = arrow(at: i, hi) {
                var j = i + length
                var above: MathNode?, below: MathNode?
                if j < hi, bytes[j] == 0x5B, let e = groupEnd(j, hi, open: 0x5B, close: 0x5D) {
                    above = argument(j + 1, e - 1)
                    j = e
                    if j < hi, bytes[j] == 0x5B, let e2 = groupEnd(j, hi, open: 0x5B, close: 0x5D) {
                        below = argument(j + 1, e2 - 1)
                        j = e2
                    }
                }
                items.append(arrowNode(spelling, i, i + length, above: above, below: below, end: j))
                i = j
                spaceBefore = false
                continue
            }
            // Operators between species: a lone + - = \pm v ^ between spaces.
            if spaceBefore, spaceAfter || wordEnd == i + 1 {
                let word = string(i, wordEnd)
                let chem: String?
                let symbol: String
                switch word {
                case "+": chem = "plus"; symbol = "+"
                case "-": chem = "minus"; symbol = "\u{2212}"
                case "=": chem = "equals"; symbol = "="
                case "\\pm": chem = "plus-minus"; symbol = "±"
                case "v", "(v)": chem = "precipitate"; symbol = "\u{2193}"
                case "^", "(^)": chem = "gas"; symbol = "\u{2191}"
                case "*", ".": chem = "addition"; symbol = "\u{00B7}"
                default: chem = nil; symbol = ""
                }
                if let chem, spaceAfter {
                    let cls: AtomClass = chem == "equals" ? .rel : (chem == "precipitate" || chem == "gas" ? .ord : .bin)
                    if chem == "addition" { amountAfterAddition = true }
                    items.append(op(symbol, cls, i, wordEnd, chem: chem))
                    i = wordEnd
                    spaceBefore = false
                    continue
                }
            }
            // Math in dollars standing alone (an amount such as $n$, or any formula).
            if c == 0x24, let e = dollarEnd(i, hi), e == wordEnd {
                let m = math(i + 1, e - 1)
                items.append(marked(m, spaceAfter && !isOperatorNext(e, hi) ? "coefficient" : "math"))
                i = e
                spaceBefore = false
                continue
            }
            let parts = species(i, wordEnd, standalone: spaceBefore && spaceAfter, followedBySpecies: spaceAfter && !isOperatorNext(wordEnd, hi))
            // An amount standing alone is set off from its species by a thin space.
            if let last = items.last, last.attributes?["data-chem"] == "coefficient", !parts.isEmpty {
                items.append(MathNode(.space(width: 0.1667), [], range: nil))
            }
            items += parts
            i = wordEnd
            spaceBefore = false
        }
        return items
    }

    /// Whether what follows `i` (after spaces) is an operator or an arrow or the end (so a word
    /// before it is not an amount).
    func isOperatorNext(_ i: Int, _ hi: Int) -> Bool {
        var j = i
        while j < hi, Self.isSpace(bytes[j]) { j += 1 }
        if j >= hi { return true }
        if arrow(at: j, hi) != nil { return true }
        let e = wordEnd(j, hi)
        return ["+", "-", "=", "\\pm", "v", "^", "(v)", "(^)"].contains(string(j, e))
    }

    /// The end of the word at `i`: up to a space outside braces, brackets, parentheses and dollars.
    func wordEnd(_ i: Int, _ hi: Int) -> Int {
        var j = i
        while j < hi {
            let c = bytes[j]
            if Self.isSpace(c) { return j }
            if c == 0x5C { j = min(hi, j + 2); continue }
            if c == 0x7B, let e = groupEnd(j, hi, open: 0x7B, close: 0x7D) { j = e; continue }
            if c == 0x24, let e = dollarEnd(j, hi) { j = e; continue }
            if c == 0x28, let e = groupEnd(j, hi, open: 0x28, close: 0x29) { j = e; continue }
            if c == 0x5B, let e = groupEnd(j, hi, open: 0x5B, close: 0x5D) { j = e; continue }
            // An arrow inside a word (A->B) ends it.
            if j > i, arrow(at: j, hi) != nil { return j }
            j += 1
        }
        return hi
    }

    static let arrows: [(String, String)] = [
        ("<-->", "<-->"), ("<=>>", "<=>>"), ("<<=>", "<<=>"), ("<=>", "<=>"), ("<->", "<->"), ("->", "->"), ("<-", "<-"),
        ("\u{2192}", "->"), ("\u{27F6}", "->"), ("\u{2190}", "<-"), ("\u{27F5}", "<-"), ("\u{2194}", "<->"), ("\u{27F7}", "<->"),
        ("\u{21CC}", "<=>"), ("\u{21C4}", "<-->"),
    ]

    /// An arrow at `i`: its mhchem spelling and its length in bytes.
    func arrow(at i: Int, _ hi: Int) -> (String, Int)? {
        for (written, spelling) in Self.arrows {
            let w = Array(written.utf8)
            guard i + w.count <= hi, Array(bytes[i..<(i + w.count)]) == w else { continue }
            // `<-` followed by `-` is `<--` (not an arrow mhchem knows): take `<-->` only.
            return (spelling, w.count)
        }
        return nil
    }

    /// The presentation of an arrow: stretchy, with \ce text above and below.
    func arrowNode(_ spelling: String, _ lo: Int, _ hi: Int, above: MathNode?, below: MathNode?, end: Int) -> MathNode {
        let symbol: String
        switch spelling {
        case "->": symbol = "\u{2192}"
        case "<-": symbol = "\u{2190}"
        case "<->": symbol = "\u{2194}"
        case "<-->": symbol = "\u{21C4}"
        case "<=>": symbol = "\u{21CC}"
        case "<=>>": symbol = "\u{21C0}\u{0332}"   // drawn as ⇌ biased; see arrowSymbol
        case "<<=>": symbol = "\u{21BD}\u{0332}"
        default: symbol = "\u{2192}"
        }
        let drawn = spelling == "<=>>" || spelling == "<<=>" ? "\u{21CC}" : symbol
        let arrow = op(drawn, .rel, lo, hi, stretchy: true)
        let attributes = ["data-chem": "arrow", "data-chem-arrow": spelling]
        let whole = range(lo, end)
        switch (above, below) {
        case let (a?, b?): return MathNode(.underOver(UnderOverProperties()), [arrow, b, a], range: whole, attributes: attributes)
        case let (a?, nil): return MathNode(.over(UnderOverProperties()), [arrow, a], range: whole, attributes: attributes)
        case let (nil, b?): return MathNode(.under(UnderOverProperties()), [arrow, b], range: whole, attributes: attributes)
        default: return MathNode(arrow.kind, [], range: whole, attributes: attributes)
        }
    }

    /// An arrow's argument: \ce content (an empty one is nil).
    mutating func argument(_ lo: Int, _ hi: Int) -> MathNode? {
        guard hi > lo, !(lo..<hi).allSatisfy({ Self.isSpace(bytes[$0]) }) else { return nil }
        let items = sequence(lo, hi)
        if items.count == 1 { return items[0] }
        return MathNode(.row, items, range: range(lo, hi))
    }

    // MARK: Species

    /// One word: an amount, a formula, or both (`2H2O`), with punctuation after it.
    mutating func species(_ lo: Int, _ hi: Int, standalone: Bool, followedBySpecies: Bool) -> [MathNode] {
        var out: [MathNode] = []
        var end = hi
        // Punctuation ending the word.
        var punctuation: MathNode?
        if end > lo + 1 || standalone, bytes[end - 1] == 0x2C || bytes[end - 1] == 0x3B {
            punctuation = op(string(end - 1, end), .punct, end - 1, end, chem: "punctuation")
            end -= 1
        }
        var i = lo
        // A lone letter or amount standing before another species is its amount.
        if let (amount, next) = amount(i, end, whole: standalone && followedBySpecies) {
            out.append(amount)
            i = next
            if i < end { out.append(MathNode(.space(width: 0.1667), [], range: nil)) }
        }
        if i < end {
            let formula = self.formula(i, end)
            out.append(formula)
        }
        if let punctuation { out.append(punctuation) }
        return out
    }

    /// A stoichiometric amount at `i`: a number (2, 0.5, 0,5), a fraction (1/2, (1/2)), or a lone
    /// lowercase letter (n, x) — with `whole`, the word may be only the amount.
    mutating func amount(_ i: Int, _ hi: Int, whole: Bool) -> (MathNode, Int)? {
        guard i < hi else { return nil }
        var j = i
        // (1/2)
        if bytes[i] == 0x28, let e = groupEnd(i, hi, open: 0x28, close: 0x29), let (fraction, fe) = number(i + 1, e - 1, allowFraction: true),
           fe == e - 1, case .fraction = fraction.kind {
            let node = MathNode(.fenced(open: "(", close: ")"), [fraction], range: range(i, e), attributes: ["data-chem": "coefficient"])
            return (node, e)
        }
        if Self.isDigit(bytes[j]) {
            guard let (n, e) = number(i, hi, allowFraction: true) else { return nil }
            j = e
            // Digits running into a lowercase letter are not an amount (1s^2 is an orbital).
            if j < hi, Self.isLower(bytes[j]) { return nil }
            return (marked(n, "coefficient"), j)
        }
        // A single lowercase letter before an element (nH2O) or alone before a species (x Na…).
        if Self.isLower(bytes[j]), j + 1 <= hi {
            let next = j + 1 < hi ? bytes[j + 1] : 0x20
            if (j + 1 == hi && whole) || (j + 1 < hi && Self.isUpper(next)) {
                let v = leaf(.identifier(string(j, j + 1), variant: nil), j, j + 1, chem: "coefficient")
                return (v, j + 1)
            }
            // n/2
            if j + 2 < hi, next == 0x2F, let (d, e) = number(j + 2, hi, allowFraction: false) {
                let v = leaf(.identifier(string(j, j + 1), variant: nil), j, j + 1)
                return (MathNode(.fraction(FractionProperties()), [v, d], range: range(j, e), attributes: ["data-chem": "coefficient"]), e)
            }
        }
        return nil
    }

    /// A number at `i` (digits with a decimal point or comma; with `allowFraction`, `a/b`).
    func number(_ i: Int, _ hi: Int, allowFraction: Bool) -> (MathNode, Int)? {
        var j = i
        while j < hi, Self.isDigit(bytes[j]) { j += 1 }
        guard j > i else { return nil }
        if j + 1 < hi, bytes[j] == 0x2E || bytes[j] == 0x2C, Self.isDigit(bytes[j + 1]) {
            j += 1
            while j < hi, Self.isDigit(bytes[j]) { j += 1 }
        }
        let n = leaf(.number(string(i, j).replacingOccurrences(of: ",", with: ".")), i, j)
        if allowFraction, j + 1 < hi, bytes[j] == 0x2F, Self.isDigit(bytes[j + 1]) {
            var k = j + 1
            while k < hi, Self.isDigit(bytes[k]) { k += 1 }
            let d = leaf(.number(string(j + 1, k)), j + 1, k)
            return (MathNode(.fraction(FractionProperties()), [n, d], range: range(i, k)), k)
        }
        return (n, j)
    }

    /// A chemical formula in `lo..<hi` (no amount in front).
    mutating func formula(_ lo: Int, _ hi: Int) -> MathNode {
        var parts: [MathNode] = []
        var i = lo
        var pendingPrescripts: (sup: MathNode?, sub: MathNode?, start: Int)?
        /// Whether the next digits are an amount (after an addition dot) rather than a count.
        var amountNext = false
        /// `{}` seen: the next ^ belongs to what follows.
        var separated = false

        func attach(_ node: MathNode) {
            if let pre = pendingPrescripts {
                let none = MathNode(.none, [], range: nil)
                let scripted = MathNode(.multiscripts(prescriptPairs: 1), [node, pre.sub ?? none, pre.sup ?? none],
                                        range: range(pre.start, (node.range?.upperBound ?? 0) - (base ?? 0)),
                                        attributes: ["data-chem": "isotope"])
                parts.append(scripted)
                pendingPrescripts = nil
            } else {
                parts.append(node)
            }
        }

        while i < hi {
            let c = bytes[i]
            // Amount after an addition dot: 12 in ·12H2O.
            if amountNext, Self.isDigit(c), let (n, e) = number(i, hi, allowFraction: true) {
                parts.append(marked(n, "coefficient"))
                i = e
                amountNext = false
                continue
            }
            amountNext = false
            switch c {
            case _ where Self.isUpper(c):
                var j = i + 1
                while j < hi, Self.isLower(bytes[j]) { j += 1 }
                // mhchem: a symbol is an uppercase letter and at most two lowercase ones ("Uuo").
                if j - i > 3 { j = i + 3 }
                attach(leaf(.text(string(i, j), variant: nil), i, j, chem: "element"))
                i = j
                separated = false
            case _ where Self.isLower(c):
                var j = i + 1
                while j < hi, Self.isLower(bytes[j]) { j += 1 }
                let word = string(i, j)
                // A lone letter in a formula is a variable when a count or charge follows it as a
                // script (NO_x, Fe^n+): those come through ^ and _; here a lowercase run is upright
                // (pH, pKa, particles n, e, p; iPr, n-Pr).
                attach(leaf(.text(word, variant: nil), i, j, chem: "element"))
                i = j
                separated = false
            case _ where Self.isDigit(c):
                // A count of what precedes (a number when nothing does: 1s², an orbital).
                var j = i
                while j < hi, Self.isDigit(bytes[j]) { j += 1 }
                let n = leaf(.number(string(i, j)), i, j)
                if parts.isEmpty || separated { parts.append(n) } else { scriptLast(&parts, sub: n, sup: nil, chem: "count") }
                i = j
            case 0x28, 0x5B:   // ( [
                let close: UInt8 = c == 0x28 ? 0x29 : 0x5D
                guard let e = groupEnd(i, hi, open: c, close: close) else {
                    parts.append(op(string(i, i + 1), .open, i, i + 1))
                    i += 1
                    continue
                }
                if c == 0x28, !parts.isEmpty || (i == lo && e == hi), let state = state(i + 1, e - 1) {
                    parts.append(MathNode(.row, [op("(", .open, i, i + 1), state, op(")", .close, e - 1, e)], range: range(i, e),
                                          attributes: ["data-chem": "state", "data-chem-state": string(i + 1, e - 1)]))
                } else {
                    let inner = formula(i + 1, e - 1)
                    let open = c == 0x28 ? "(" : "["
                    let closeText = c == 0x28 ? ")" : "]"
                    attach(MathNode(.row, [op(open, .open, i, i + 1), inner, op(closeText, .close, e - 1, e)], range: range(i, e),
                                    attributes: ["data-chem": "group"]))
                }
                i = e
                separated = false
            case 0x5C:   // \
                if i + 1 < hi, bytes[i + 1] == 0x7B || bytes[i + 1] == 0x7D {
                    // \{ … \} braces of a group.
                    if bytes[i + 1] == 0x7B, let e = braceGroupEnd(i, hi) {
                        let inner = formula(i + 2, e - 2)
                        attach(MathNode(.row, [op("{", .open, i, i + 2), inner, op("}", .close, e - 2, e)], range: range(i, e),
                                        attributes: ["data-chem": "group"]))
                        i = e
                    } else {
                        parts.append(op(bytes[i + 1] == 0x7B ? "{" : "}", .ord, i, i + 2))
                        i += 2
                    }
                    continue
                }
                var j = i + 1
                while j < hi, Self.isLetter(bytes[j]) { j += 1 }
                if j == i + 1 { j = min(hi, i + 2) }
                let name = string(i + 1, j)
                if name == "bond", j < hi, bytes[j] == 0x7B, let e = groupEnd(j, hi, open: 0x7B, close: 0x7D) {
                    parts.append(bond(string(j + 1, e - 1), i, e))
                    i = e
                    continue
                }
                if name == "ca" {
                    parts.append(op("\u{223C}", .ord, i, j, chem: "circa"))
                    i = j
                    continue
                }
                // \frac inside \ce: its parts are \ce too.
                if ["frac", "dfrac", "tfrac"].contains(name), j < hi, bytes[j] == 0x7B, let n1 = groupEnd(j, hi, open: 0x7B, close: 0x7D),
                   n1 < hi, bytes[n1] == 0x7B, let n2 = groupEnd(n1, hi, open: 0x7B, close: 0x7D) {
                    let numerator = argument(j + 1, n1 - 1) ?? MathNode(.row, [], range: range(j, n1))
                    let denominator = argument(n1 + 1, n2 - 1) ?? MathNode(.row, [], range: range(n1, n2))
                    attach(MathNode(.fraction(FractionProperties(displayStyle: name == "dfrac" ? true : name == "tfrac" ? false : nil)),
                                    [numerator, denominator], range: range(i, n2)))
                    i = n2
                    continue
                }
                // A command and the groups right after it, read as TeX (\mu, \ce{…}).
                var e = j
                while e < hi, bytes[e] == 0x7B, let g = groupEnd(e, hi, open: 0x7B, close: 0x7D) { e = g }
                attach(math(i, e))
                i = e
            case 0x24:   // $…$
                guard let e = dollarEnd(i, hi) else {
                    diagnostics.append(.error("tex.unclosed-math", "$ without a closing $ in \\ce", at: range(i, i + 1)))
                    i += 1
                    continue
                }
                attach(math(i + 1, e - 1))
                i = e
            case 0x7B:   // {text} or {} separator
                guard let e = groupEnd(i, hi, open: 0x7B, close: 0x7D) else { i += 1; continue }
                if e == i + 2 {
                    separated = true
                } else {
                    attach(textNode(i + 1, e - 1))
                }
                i = e
            case 0x5E, 0x5F:   // ^ _
                let (script, e) = scriptArgument(i + 1, hi)
                let isSup = c == 0x5E
                let startOfSpecies = parts.isEmpty || separated
                // ^ or _ before a symbol: isotope numbers (also H^3HO: digits before an uppercase letter).
                if startOfSpecies || (isSup && script.isDigits && e < hi && (Self.isUpper(bytes[e]) || bytes[e] == 0x5F)) {
                    var pre = pendingPrescripts ?? (nil, nil, i)
                    let node = scriptNode(script, isSup: isSup, prescript: true)
                    if isSup { pre.sup = node } else { pre.sub = node }
                    pendingPrescripts = pre
                    i = e
                    separated = false
                    continue
                }
                let node = scriptNode(script, isSup: isSup, prescript: false)
                if isSup {
                    scriptLast(&parts, sub: nil, sup: node, chem: node.attributes?["data-chem"] ?? "superscript")
                } else {
                    scriptLast(&parts, sub: node, sup: nil, chem: script.isDigits ? "count" : "subscript")
                }
                i = e
            case 0x2B, 0x2D:   // + −: a charge at the end (or before a state), else a bond or hyphen
                let atEnd = i + 1 == hi || bytes[i + 1] == 0x28 || bytes[i + 1] == 0x5E || bytes[i + 1] == 0x5F
                    || bytes[i + 1] == 0x2C || bytes[i + 1] == 0x3B
                if c == 0x2D, i + 1 < hi, Self.isDigit(bytes[i + 1]), i > lo, Self.isDigit(bytes[i - 1]) {
                    // 1-2x (a site fraction): a minus sign.
                    parts.append(op("\u{2212}", .bin, i, i + 1))
                } else if atEnd || c == 0x2B {
                    let charge = chargeNode(c == 0x2B ? "+" : "-", i, i + 1)
                    scriptLast(&parts, sub: nil, sup: charge, chem: "charge")
                } else {
                    parts.append(bond("-", i, i + 1))
                }
                i += 1
            case 0x3D:   // = double bond
                parts.append(bond("=", i, i + 1))
                i += 1
            case 0x23:   // # triple bond
                parts.append(bond("#", i, i + 1))
                i += 1
            case 0x2A, 0x2E:   // * . : addition compound (before an amount or symbol), or ellipsis
                if c == 0x2E, i + 2 < hi, bytes[i + 1] == 0x2E, bytes[i + 2] == 0x2E {
                    var j = i
                    while j < hi, bytes[j] == 0x2E { j += 1 }
                    parts.append(bond(string(i, j), i, j))
                    i = j
                    continue
                }
                if i + 1 < hi, Self.isDigit(bytes[i + 1]) || Self.isUpper(bytes[i + 1]) || bytes[i + 1] == 0x20 {
                    parts.append(op("\u{00B7}", .bin, i, i + 1, chem: "addition"))
                    amountNext = true
                } else {
                    parts.append(op(c == 0x2A ? "\u{2217}" : ".", .ord, i, i + 1))
                }
                i += 1
            case 0x27:   // ' (Kröger–Vink: a negative effective charge)
                var j = i
                while j < hi, bytes[j] == 0x27 { j += 1 }
                let charge = leaf(.operator(String(repeating: "\u{2032}", count: j - i), OperatorProperties(atomClass: .ord)), i, j,
                                  chem: "charge", ["data-chem-charge": String(repeating: "'", count: j - i)])
                scriptLast(&parts, sub: nil, sup: charge, chem: "charge")
                i = j
            default:
                // Anything else is shown as it is (an operator such as / or ~, a Unicode symbol).
                var j = i + 1
                while j < hi, bytes[j] & 0xC0 == 0x80 { j += 1 }
                attach(math(i, j))
                i = j
            }
        }
        if let pre = pendingPrescripts {
            attach(MathNode(.none, [], range: range(pre.start, pre.start)))
        }
        if parts.count == 1, parts[0].attributes?["data-chem"] == "formula" { return parts[0] }
        let charged = parts.contains { ["charge"].contains($0.attributes?["data-chem"] ?? "") || $0.attributes?["data-chem-charged"] == "1" }
        var attributes = ["data-chem": "formula"]
        if charged { attributes["data-chem-ion"] = "1" }
        return MathNode(.row, parts, range: range(lo, hi), attributes: attributes)
    }

    /// The end of `\{ … \}` starting at `i`.
    func braceGroupEnd(_ i: Int, _ hi: Int) -> Int? {
        var depth = 0, j = i
        while j + 1 < hi {
            if bytes[j] == 0x5C, bytes[j + 1] == 0x7B { depth += 1; j += 2; continue }
            if bytes[j] == 0x5C, bytes[j + 1] == 0x7D { depth -= 1; j += 2; if depth == 0 { return j }; continue }
            j += 1
        }
        return nil
    }

    /// A state in parentheses: lowercase words (aq, s, l, g, cr), maybe with math, a comma list
    /// (aq,$\infty$), or math ($c$, \ca$c$); nil for anything else (a group).
    mutating func state(_ lo: Int, _ hi: Int) -> MathNode? {
        guard hi > lo else { return nil }
        let first = bytes[lo]
        guard Self.isLower(first) || first == 0x24 || first == 0x5C else { return nil }
        if Self.isLower(first) {
            var j = lo
            while j < hi, Self.isLower(bytes[j]) { j += 1 }
            // (aq), (aq,…): a word, then only a comma list.
            guard j == hi || bytes[j] == 0x2C else { return nil }
            if j == hi { return textNode(lo, hi) }
            var items = [textNode(lo, j), op(",", .punct, j, j + 1)]
            items.append(contentsOf: formulaOrMath(j + 1, hi))
            return MathNode(.row, items, range: range(lo, hi))
        }
        if first == 0x5C, !string(lo, hi).hasPrefix("\\ca") { return nil }
        return MathNode(.row, formulaOrMath(lo, hi), range: range(lo, hi))
    }

    mutating func formulaOrMath(_ lo: Int, _ hi: Int) -> [MathNode] {
        if bytes[lo] == 0x24, let e = dollarEnd(lo, hi), e == hi { return [math(lo + 1, hi - 1)] }
        return [formula(lo, hi)]
    }

    /// Upright text.
    func textNode(_ lo: Int, _ hi: Int) -> MathNode {
        leaf(.text(string(lo, hi), variant: nil), lo, hi, chem: "text")
    }

    /// What follows ^ or _: a {group}, $math$, a signed number, or one character.
    func scriptArgument(_ i: Int, _ hi: Int) -> (ScriptText, Int) {
        guard i < hi else { return (ScriptText(lo: i, hi: i, braced: false, math: false, bytes: []), i) }
        if bytes[i] == 0x7B, let e = groupEnd(i, hi, open: 0x7B, close: 0x7D) {
            return (ScriptText(lo: i + 1, hi: e - 1, braced: true, math: false, bytes: Array(bytes[(i + 1)..<(e - 1)])), e)
        }
        if bytes[i] == 0x24, let e = dollarEnd(i, hi) {
            return (ScriptText(lo: i + 1, hi: e - 1, braced: false, math: true, bytes: Array(bytes[(i + 1)..<(e - 1)])), e)
        }
        // Unbraced: a sign and digits (-1), digits and a sign (2-, 99+), letters and a sign (n+), dots
        // and a sign (.-), or one character.
        var j = i
        if j < hi, bytes[j] == 0x2D || bytes[j] == 0x2B, j + 1 < hi, Self.isDigit(bytes[j + 1]) { j += 1 }
        let start = j
        while j < hi, Self.isDigit(bytes[j]) || bytes[j] == 0x2E || (bytes[j] == 0x2C && j + 1 < hi && Self.isDigit(bytes[j + 1])) { j += 1 }
        if j == start {
            // A letter or a few of them (Fe^n+, ^x, ^{..}) or a single symbol.
            if j < hi, Self.isLetter(bytes[j]) { j += 1 } else if j < hi { j += 1 }
        }
        if j < hi, bytes[j] == 0x2B || bytes[j] == 0x2D, i != j,
           j + 1 == hi || !(Self.isDigit(bytes[j + 1]) || Self.isUpper(bytes[j + 1]) || bytes[j + 1] == 0x5C) { j += 1 }
        return (ScriptText(lo: i, hi: j, braced: false, math: false, bytes: Array(bytes[i..<j])), j)
    }

    struct ScriptText {
        var lo: Int, hi: Int
        var braced: Bool
        var math: Bool
        var bytes: [UInt8]
        var isDigits: Bool { !bytes.isEmpty && bytes.allSatisfy(MhchemReader.isDigit) }
    }

    /// The node of a script: a charge (2+, -, .-), an oxidation state (II), an excited state (*),
    /// a signed number, math, or \ce content.
    mutating func scriptNode(_ s: ScriptText, isSup: Bool, prescript: Bool) -> MathNode {
        let text = String(decoding: s.bytes, as: UTF8.self)
        if s.math { return math(s.lo, s.hi) }
        if s.bytes.isEmpty { return MathNode(.none, [], range: range(s.lo, s.hi)) }
        if isSup, !prescript {
            // A charge: digits or a letter, then + or −; or dots for unpaired electrons, then a sign.
            if let charge = charge(text, s.lo, s.hi) { return charge }
            if text == "*" { return op("*", .ord, s.lo, s.hi, chem: "excited") }
            if text.hasSuffix("'"), let c = charge(text, s.lo, s.hi) { return c }
            if text.allSatisfy({ "IVX".contains($0) }) {
                return leaf(.text(text, variant: nil), s.lo, s.hi, chem: "oxidation", ["data-chem-oxidation": String(Self.romanValue(text))])
            }
        }
        // A signed number (isotopes: ^0_-1n).
        if s.bytes.allSatisfy({ Self.isDigit($0) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 == 0x2C }),
           s.bytes.contains(where: Self.isDigit) {
            var digits = text
            var negative = false
            if digits.hasPrefix("-") { negative = true; digits.removeFirst() }
            if digits.hasPrefix("+") { digits.removeFirst() }
            if digits.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }) {
                let n = leaf(.number(digits), s.lo + (negative ? 1 : 0), s.hi)
                if negative {
                    return MathNode(.row, [op("\u{2212}", .ord, s.lo, s.lo + 1), n], range: range(s.lo, s.hi))
                }
                return n
            }
        }
        // Anything else: \ce content (subscripts of Kröger–Vink: Li,1-2x) read as math.
        if s.bytes.allSatisfy({ Self.isLetter($0) }) {
            // One letter is a variable (NO_x, Fe^n+); more are text (X_{red}).
            if s.bytes.count == 1 { return leaf(.identifier(text, variant: nil), s.lo, s.hi, chem: "variable") }
            return textNode(s.lo, s.hi)
        }
        if s.braced, s.bytes.first == 0x7B, s.bytes.last == 0x7D, groupEnd(s.lo, s.hi, open: 0x7B, close: 0x7D) == s.hi {
            return textNode(s.lo + 1, s.hi - 1)
        }
        // Anything else is \ce content (Kröger–Vink sites Li,1-2x; math in dollars; a state).
        let items = sequence(s.lo, s.hi)
        if items.count == 1 { return items[0] }
        return MathNode(.row, items, range: range(s.lo, s.hi))
    }

    /// A charge written as `2+`, `-`, `n+`, `.-`, `(2.)-`, `.`, `x` (Kröger–Vink neutral), nil otherwise.
    func charge(_ text: String, _ lo: Int, _ hi: Int) -> MathNode? {
        var body = Substring(text)
        guard let sign = body.last else { return nil }
        if sign == "'", body.dropLast().allSatisfy({ $0.isNumber }) {
            // Kröger–Vink: primes are negative effective charges (4' is four of them).
            return leaf(.operator(String(body.dropLast()) + "\u{2032}", OperatorProperties(atomClass: .ord)), lo, hi,
                        chem: "charge", ["data-chem-charge": text])
        }
        if sign == "." && body.allSatisfy({ $0 == "." }) {
            // Kröger–Vink: dots are positive effective charges.
            return leaf(.operator(String(repeating: "\u{2022}", count: body.count), OperatorProperties(atomClass: .ord)), lo, hi,
                        chem: "charge", ["data-chem-charge": text])
        }
        if text == "x" {
            return leaf(.identifier("x", variant: .normal), lo, hi, chem: "charge", ["data-chem-charge": "x"])
        }
        guard sign == "+" || sign == "-" else { return nil }
        body.removeLast()
        var dots = 0
        var amount = body
        if amount.hasPrefix("("), amount.hasSuffix(")") { amount = amount.dropFirst().dropLast() }
        while amount.hasSuffix(".") { amount.removeLast(); dots += 1 }
        while amount.hasPrefix(".") { amount.removeFirst(); dots += 1 }
        guard amount.isEmpty || amount.allSatisfy({ $0.isNumber }) || (amount.count == 1 && amount.first!.isLetter) else { return nil }
        var items: [MathNode] = []
        if dots > 0 {
            items.append(op(String(repeating: "\u{2022}", count: dots), .ord, lo, lo + dots, chem: "radical"))
        }
        if !amount.isEmpty {
            let a = String(amount)
            items.append(a.first!.isNumber ? leaf(.number(a), lo, hi - 1) : leaf(.identifier(a, variant: nil), lo, hi - 1))
        }
        items.append(op(sign == "+" ? "+" : "\u{2212}", .ord, hi - 1, hi))
        return MathNode(.row, items, range: range(lo, hi), attributes: ["data-chem": "charge", "data-chem-charge": text])
    }

    /// A bare + or − charge (H+, Cl-).
    func chargeNode(_ sign: String, _ lo: Int, _ hi: Int) -> MathNode {
        MathNode(.row, [op(sign == "+" ? "+" : "\u{2212}", .ord, lo, hi)], range: range(lo, hi),
                 attributes: ["data-chem": "charge", "data-chem-charge": sign])
    }

    /// A bond (\bond{…} or - = # ~ between symbols).
    func bond(_ spelling: String, _ lo: Int, _ hi: Int) -> MathNode {
        let symbol: String
        let order: String
        switch spelling {
        case "-", "1": symbol = "\u{2212}"; order = "1"
        case "=", "2": symbol = "="; order = "2"
        case "#", "3": symbol = "\u{2261}"; order = "3"
        case "~": symbol = "\u{223C}"; order = "~"
        case "~-": symbol = "\u{2243}"; order = "~-"
        case "~--", "~=": symbol = "\u{2245}"; order = spelling
        case "-~-": symbol = "\u{2242}"; order = "-~-"
        case "...": symbol = "\u{22EF}"; order = "..."
        case "....": symbol = "\u{22EF}\u{22C5}"; order = "...."
        case "->": symbol = "\u{2192}"; order = "->"
        case "<-": symbol = "\u{2190}"; order = "<-"
        default: symbol = spelling; order = spelling
        }
        return op(symbol, .ord, lo, hi, chem: "bond", ["data-chem-bond": order])
    }

    /// Attaches a subscript or superscript to the last part (a count, a charge), merging with one it
    /// already has (H₂⁺: one msubsup, so charge and count align).
    func scriptLast(_ parts: inout [MathNode], sub: MathNode?, sup: MathNode?, chem: String) {
        guard let last = parts.popLast() else {
            // Nothing to attach to: the script stands on an empty base.
            let empty = MathNode(.row, [], range: nil)
            if let sub { parts.append(MathNode(.subscript, [empty, sub], range: sub.range, attributes: ["data-chem": chem])) }
            if let sup { parts.append(MathNode(.superscript, [empty, sup], range: sup.range, attributes: ["data-chem": chem])) }
            return
        }
        var attributes = last.attributes ?? [:]
        let lastRange = last.range
        func marks(_ node: MathNode?, _ chem: String) -> MathNode? {
            guard let node else { return nil }
            if node.attributes?["data-chem"] != nil { return node }
            var a = node.attributes ?? [:]
            a["data-chem"] = chem
            return MathNode(node.kind, children: node.children, range: node.range, attributes: a)
        }
        let subNode = marks(sub, chem), supNode = marks(sup, chem)
        switch last.kind {
        case .subscript where sup != nil && last.attributes?["data-chem-scripted"] == "1":
            attributes["data-chem-charged"] = supNode?.attributes?["data-chem"] == "charge" ? "1" : attributes["data-chem-charged"]
            parts.append(MathNode(.subSuperscript, [last.children[0], last.children[1], supNode!],
                                  range: SourceRange.union(lastRange, sup?.range), attributes: attributes))
        case .superscript where sub != nil && last.attributes?["data-chem-scripted"] == "1":
            parts.append(MathNode(.subSuperscript, [last.children[0], subNode!, last.children[1]],
                                  range: SourceRange.union(lastRange, sub?.range), attributes: attributes))
        default:
            var a: [String: String] = ["data-chem-scripted": "1"]
            if supNode?.attributes?["data-chem"] == "charge" { a["data-chem-charged"] = "1" }
            if let subNode {
                parts.append(MathNode(.subscript, [last, subNode], range: SourceRange.union(lastRange, sub?.range), attributes: a))
            } else if let supNode {
                parts.append(MathNode(.superscript, [last, supNode], range: SourceRange.union(lastRange, sup?.range), attributes: a))
            }
        }
    }

    static func romanValue(_ text: String) -> Int {
        var total = 0, previous = 0
        for c in text.reversed() {
            let v = c == "I" ? 1 : c == "V" ? 5 : 10
            total += v < previous ? -v : v
            previous = max(previous, v)
        }
        return total
    }

    // MARK: \pu

    /// The argument of `\pu`: a number (decimal point or comma, e/E/x10^ exponents, an uncertainty in
    /// parentheses, ± a second number) and units, each unit upright and marked as a unit
    /// (`intent=":unit"`); a space, `*` or `.` multiplies units (thin space or ·), `/` divides (a
    /// slash), `//` makes a fraction; digits after a unit are its power (mm2, mol-1, mol^-1).
    mutating func physicalUnit() -> MathNode {
        let hi = bytes.count
        var i = 0
        while i < hi, Self.isSpace(bytes[i]) { i += 1 }
        var items: [MathNode] = []
        // The number.
        let numberStart = i
        var j = i
        if j < hi, bytes[j] == 0x2D || bytes[j] == 0x2B || bytes[j] == 0xE2 {   // sign (− is E2 88 92)
            if bytes[j] == 0xE2 { j += 3 } else { j += 1 }
        }
        while j < hi, Self.isDigit(bytes[j]) || bytes[j] == 0x2E || bytes[j] == 0x2C || bytes[j] == 0x28 || bytes[j] == 0x29
                || bytes[j] == 0x2F { j += 1 }
        if j > numberStart {
            items.append(contentsOf: puNumber(numberStart, j))
        }
        i = j
        // An exponent: e3, E3, x10^3, *10^3.
        var k = i
        while k < hi, Self.isSpace(bytes[k]) { k += 1 }
        if k + 1 < hi, (bytes[k] == 0x65 || bytes[k] == 0x45), Self.isDigit(bytes[k + 1]) || bytes[k + 1] == 0x2D {
            var e = k + 1
            if bytes[e] == 0x2D { e += 1 }
            while e < hi, Self.isDigit(bytes[e]) { e += 1 }
            items.append(op("\u{00D7}", .bin, k, k + 1))
            items.append(MathNode(.superscript, [leaf(.number("10"), k, k + 1), signedNumber(k + 1, e)], range: range(k, e)))
            i = e
        } else if k < hi, bytes[k] == 0x78 || bytes[k] == 0x2A, k + 3 < hi, string(k + 1, k + 3) == "10" || (bytes[k + 1] == 0x20) {
            var e = k + 1
            while e < hi, Self.isSpace(bytes[e]) { e += 1 }
            if e + 2 <= hi, string(e, e + 2) == "10" {
                var f = e + 2
                if f < hi, bytes[f] == 0x5E { f += 1 }
                let (s, g) = scriptArgument(f, hi)
                items.append(op("\u{00D7}", .bin, k, k + 1))
                items.append(MathNode(.superscript, [leaf(.number("10"), e, e + 2), scriptNode(s, isSup: true, prescript: true)],
                                      range: range(e, g)))
                i = g
            }
        }
        // ± another number.
        k = i
        while k < hi, Self.isSpace(bytes[k]) { k += 1 }
        if string(k, min(hi, k + 3)) == "\\pm" || (k + 1 < hi && bytes[k] == 0xC2 && bytes[k + 1] == 0xB1) {
            let signEnd = bytes[k] == 0x5C ? k + 3 : k + 2
            var e = signEnd
            while e < hi, Self.isSpace(bytes[e]) { e += 1 }
            let s = e
            while e < hi, Self.isDigit(bytes[e]) || bytes[e] == 0x2E || bytes[e] == 0x2C { e += 1 }
            items.append(op("±", .bin, k, signEnd))
            items.append(contentsOf: puNumber(s, e))
            i = e
        }
        // The units.
        let unitStart = i
        while i < hi, Self.isSpace(bytes[i]) { i += 1 }
        if i < hi {
            if unitStart < i || !items.isEmpty { items.append(MathNode(.space(width: 0.1667), [], range: nil)) }
            items.append(contentsOf: units(i, hi))
        }
        return MathNode(.row, items, range: range(0, hi), attributes: ["data-chem": "quantity"])
    }

    /// A number of \pu (decimal comma kept as written; an uncertainty (32) kept).
    func puNumber(_ lo: Int, _ hi: Int) -> [MathNode] {
        var text = string(lo, hi)
        var items: [MathNode] = []
        if text.hasPrefix("-") {
            items.append(op("\u{2212}", .ord, lo, lo + 1))
            text.removeFirst()
            return items + puNumber(lo + 1, hi)
        }
        if let slash = text.firstIndex(of: "/") {
            let split = lo + text.utf8.distance(from: text.utf8.startIndex, to: slash.samePosition(in: text.utf8)!)
            return [MathNode(.fraction(FractionProperties()), [leaf(.number(string(lo, split)), lo, split), leaf(.number(string(split + 1, hi)), split + 1, hi)],
                             range: range(lo, hi))]
        }
        return [leaf(.number(text), lo, hi)]
    }

    func signedNumber(_ lo: Int, _ hi: Int) -> MathNode {
        if lo < hi, bytes[lo] == 0x2D {
            return MathNode(.row, [op("\u{2212}", .ord, lo, lo + 1), leaf(.number(string(lo + 1, hi)), lo + 1, hi)], range: range(lo, hi))
        }
        return leaf(.number(string(lo, hi)), lo, hi)
    }

    /// Units in `lo..<hi`.
    mutating func units(_ lo: Int, _ hi: Int) -> [MathNode] {
        // `//` makes a fraction of the two sides.
        if let split = find("//", lo, hi) {
            let num = units(lo, split), den = units(split + 2, hi)
            return [MathNode(.fraction(FractionProperties()), [MathNode(.row, num, range: range(lo, split)),
                                                               MathNode(.row, den, range: range(split + 2, hi))],
                             range: range(lo, hi))]
        }
        var items: [MathNode] = []
        var i = lo
        while i < hi {
            let c = bytes[i]
            if Self.isSpace(c) || c == 0x2A || (c == 0x2E && i + 1 < hi && !Self.isDigit(bytes[i + 1])) {
                // Multiplication: a space is a thin space, * and . a centred dot.
                var j = i
                var dot = false
                while j < hi, Self.isSpace(bytes[j]) || bytes[j] == 0x2A || bytes[j] == 0x2E { if bytes[j] != 0x20 { dot = true }; j += 1 }
                if !items.isEmpty, j < hi {
                    items.append(dot ? op("\u{22C5}", .bin, i, j) : MathNode(.space(width: 0.1667), [], range: nil))
                }
                i = j
                continue
            }
            if c == 0x2F {
                items.append(op("/", .ord, i, i + 1))
                i += 1
                continue
            }
            if c == 0x5C {
                var j = i + 1
                while j < hi, Self.isLetter(bytes[j]) { j += 1 }
                // A backslash and its name; a lone backslash at the end is one byte (`\pu{1 m\`).
                let end = min(hi, max(j, i + 2))
                items.append(math(i, end))
                i = end
                continue
            }
            // A unit symbol: letters (and °, µ, Ω, Å…) up to a digit, sign, ^ or separator.
            var j = i
            while j < hi {
                let b = bytes[j]
                if Self.isSpace(b) || Self.isDigit(b) || b == 0x2D || b == 0x5E || b == 0x2A || b == 0x2F || b == 0x2E || b == 0x5C { break }
                j += 1
            }
            if j == i { j = i + 1 }
            let symbol = leaf(.identifier(string(i, j), variant: .normal), i, j, chem: "unit", ["intent": ":unit", "class": "MathML-Unit"])
            // A power: digits, -digits, ^digits.
            var k = j
            if k < hi, bytes[k] == 0x5E { k += 1 }
            let powerStart = k
            if k < hi, bytes[k] == 0x2D { k += 1 }
            while k < hi, Self.isDigit(bytes[k]) { k += 1 }
            if k > powerStart, Self.isDigit(bytes[k - 1]) {
                items.append(MathNode(.superscript, [symbol, signedNumber(powerStart, k)], range: range(i, k)))
                i = k
            } else {
                items.append(symbol)
                i = j
            }
        }
        return items
    }

    func find(_ literal: String, _ lo: Int, _ hi: Int) -> Int? {
        let w = Array(literal.utf8)
        var i = lo
        while i + w.count <= hi {
            if Array(bytes[i..<(i + w.count)]) == w { return i }
            i += 1
        }
        return nil
    }
}

extension MathNode {
    /// The node with every range moved by `shift` (nil: every range replaced by `fallback`,
    /// ``MathNode/placed(at:)``).
    func shifted(by shift: Int?, fallback: SourceRange) -> MathNode {
        guard let shift else { return placed(at: fallback) }
        return MathNode(kind, children.map { $0.shifted(by: shift, fallback: fallback) },
                        range: range.map { SourceRange($0.lowerBound + shift, $0.upperBound + shift) }, attributes: attributes)
    }
}
