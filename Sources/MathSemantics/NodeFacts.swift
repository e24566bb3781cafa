import MathSyntax

// Building semantic nodes and the facts rules test on them (simple expressions, exponent kinds,
// common fractions). Each test cites the ClearSpeak section whose reading it enables.

extension SemanticNode {
    /// A node whose children already carry their roles; the range defaults to the union of the
    /// children's ranges.
    static func make(_ kind: SemanticKind, _ children: [SemanticNode], text: String = "",
                     props: SemanticProperties = [:], range: SourceRange? = nil) -> SemanticNode {
        var r = range
        if r == nil { for c in children { r = SourceRange.union(r, c.range) } }
        return SemanticNode(kind, text: text, children: children, properties: props, range: r)
    }

    /// A copy with other properties (merged over the existing ones).
    func adding(_ extra: SemanticProperties) -> SemanticNode {
        if extra.isEmpty { return self }
        var p = properties
        for (k, v) in extra { p[k] = v }
        return SemanticNode(kind, text: text, children: children, role: role, properties: p, range: range)
    }

    /// A copy with another kind and properties, the same children, text and range.
    func rebuilt(_ kind: SemanticKind, props: SemanticProperties) -> SemanticNode {
        SemanticNode(kind, text: text, children: children, role: role, properties: props, range: range)
    }

    /// The node's text when it is a plain integer numeral (digits only, no sign, no point).
    var integerValue: Int? {
        guard kind == .number, properties["integer"] != nil, let v = properties["value"] else { return nil }
        return Int(v)
    }

    /// The single letter of an identifier (`x`, `α`, `F`), nil otherwise.
    var letter: String? {
        kind == .identifier && properties["letter"] != nil ? text : nil
    }

    /// The identifier at the bottom of subscripts, primes and powers (`f` in `f_n'`), if any.
    var coreIdentifier: SemanticNode? {
        var n = self
        var steps = 0
        while steps < 8 {
            switch n.kind {
            case .identifier: return n
            case .subscript, .primes, .power, .accent:
                guard let b = n.child(.base) else { return nil }
                n = b
            default: return nil
            }
            steps += 1
        }
        return nil
    }

    /// Whether the tree below contains a node of `kind` (not counting `self`).
    func contains(_ kinds: Set<SemanticKind>) -> Bool {
        for c in children {
            if kinds.contains(c.kind) || c.contains(kinds) { return true }
        }
        return false
    }

    /// Whether this is a negative integer written with a prefix minus (`-1`).
    var negativeIntegerValue: Int? {
        guard kind == .prefix, properties["operator"] == "negative", let a = child(.argument),
              let v = a.integerValue else { return nil }
        return -v
    }
}

enum Facts {
    // MARK: Leaves

    /// Properties of a number: `integer`, `decimal`, `value` (integers below 10^9), `digits` (how
    /// many digits are written).
    static func numberProps(_ text: String) -> SemanticProperties {
        var digits = 0, points = 0, other = 0
        var value = 0, overflow = false
        for u in text.unicodeScalars {
            switch u.value {
            case 0x30...0x39:
                digits += 1
                if !overflow {
                    value = value * 10 + Int(u.value - 0x30)
                    if value >= 1_000_000_000 { overflow = true }
                }
            case 0x2E: points += 1                                  // .
            case 0x2C, 0x20, 0xA0, 0x2009, 0x202F, 0x27: break      // digit-group separators
            default: other += 1
            }
        }
        var p: SemanticProperties = [:]
        if digits > 0 { p["digits"] = String(digits) }
        if other == 0 && digits > 0 {
            if points == 0 {
                p["integer"] = "true"
                if !overflow { p["value"] = String(value) }
            } else if points == 1 {
                p["decimal"] = "true"
            }
        }
        return p
    }

    /// Properties of an identifier: `letter`, `greek`, `capital`, `variant`, `set-name`.
    static func identifierProps(_ text: String, variant: MathVariant?) -> SemanticProperties {
        // Fast path for the commonest identifiers, plain ASCII letters (shared dictionaries).
        if variant == nil, text.utf8.count == 1, let b = text.utf8.first {
            if b >= 0x61 && b <= 0x7A { return asciiLowercaseProps }
            if b >= 0x41 && b <= 0x5A { return asciiUppercaseProps }
        }
        var p: SemanticProperties = [:]
        let scalars = text.unicodeScalars
        if let v = variant { p["variant"] = v.rawValue }
        if scalars.count == 1, let u = scalars.first {
            if u.properties.isAlphabetic {
                p["letter"] = "true"
                if isGreek(u) { p["greek"] = "true" }
                if u.properties.isUppercase { p["capital"] = "true" }
            }
            // Double-struck N Z Q R C name number sets, whether written ℝ or \mathbb{R}.
            let doubleStruck: Unicode.Scalar? = variant == .doubleStruck ? u
                : UnicodeMath.decompose(u).flatMap { $0.variant == .doubleStruck ? $0.base : nil }
            switch doubleStruck {
            case "N": p["set-name"] = "naturals"
            case "Z": p["set-name"] = "integers"
            case "Q": p["set-name"] = "rationals"
            case "R": p["set-name"] = "reals"
            case "C": p["set-name"] = "complexes"
            default: break
            }
        }
        return p
    }

    private static let asciiLowercaseProps: SemanticProperties = ["letter": "true"]
    private static let asciiUppercaseProps: SemanticProperties = ["letter": "true", "capital": "true"]

    static func isGreek(_ u: Unicode.Scalar) -> Bool {
        (0x0391...0x03FF).contains(u.value) || (0x1D6A8...0x1D7CB).contains(u.value)
    }

    /// Whether `text` is one letter.
    static func isSingleLetter(_ text: String) -> Bool {
        let s = text.unicodeScalars
        return s.count == 1 && s.first!.properties.isAlphabetic
    }

    // MARK: ClearSpeak "simple"

    /// ClearSpeak's simple expression (Part 1, "Simple fractions" and Paren_Auto): a number, a letter
    /// (or Greek letter, or a text word), a negative number or letter, a number or letters followed by
    /// letters (`3x`, `2πr`, `ab`), a subscripted letter, a letter with primes, a common fraction,
    /// and a function applied to a simple argument (`\sin x`, `f(x)`). With `allowFractions`, fractions
    /// whose parts are simple also count as factors (ClearSpeak reads such a fraction "the fraction
    /// … over …"); with `strict`, no fraction counts (for the parts of a fraction).
    static func isSimple(_ n: SemanticNode, allowFractions: Bool = false, strict: Bool = false, depth: Int = 0) -> Bool {
        if depth > 6 { return false }
        switch n.kind {
        case .number, .identifier, .text, .functionName, .ellipsis:
            return true
        case .prefix:
            guard n.properties["operator"] == "negative", let a = n.child(.argument) else { return false }
            return a.kind == .number || a.kind == .identifier
        case .subscript:
            guard let b = n.child(.base), let s = n.child(.subscript) else { return false }
            return b.kind == .identifier && (s.kind == .number || s.kind == .identifier)
        case .primes:
            return n.child(.base)?.kind == .identifier
        case .fraction:
            if allowFractions { return n.has("common") || n.has("simple") }
            return !strict && n.has("common")
        case .impliedTimes:
            if n.has("possible-function") { return false }
            for (i, c) in n.children.enumerated() where c.role == .item {
                switch c.kind {
                case .number: if i != 0 { return false }
                case .identifier, .subscript, .primes:
                    if !isSimple(c, depth: depth + 1) { return false }
                case .fraction:
                    guard allowFractions, isSimple(c, allowFractions: true, depth: depth + 1) else { return false }
                default: return false
                }
            }
            return true
        case .application:
            guard let a = n.child(.argument) else { return true }
            if a.kind == .fenced, let inner = a.child(.content) { return isSimple(inner, strict: strict, depth: depth + 1) }
            return isSimple(a, strict: strict, depth: depth + 1)
        case .mixedNumber, .degrees, .measurement, .differential:
            return true
        default:
            return false
        }
    }

    /// The content class of a fence, for ClearSpeak Paren_Auto (parentheses are silent around simple
    /// content; with an exponent only around a positive number or a common fraction).
    static func contentKind(_ n: SemanticNode) -> String {
        switch n.kind {
        case .number: return "number"
        case .identifier: return n.has("letter") ? "letter" : "symbol"
        case .prefix:
            if n.properties["operator"] == "negative", let a = n.child(.argument) {
                if a.kind == .number { return "negative-number" }
                if a.kind == .identifier { return "negative-letter" }
            }
            return "other"
        case .fraction: return n.has("common") ? "common-fraction" : (n.has("simple") ? "simple-fraction" : "other")
        case .impliedTimes: return isSimple(n) ? "simple-product" : "other"
        default: return isSimple(n) ? "simple" : "other"
        }
    }

    // MARK: Exponents

    /// `exponent-kind` and `exponent-value` for an exponent (ClearSpeak "Exponents", Exponents_Auto):
    /// 2 → `squared`, 3 → `cubed`, another non-negative integer → `ordinal` ("to the fourth power",
    /// "to the 0 power"), a negative integer → `negative-integer`, one letter → `letter` ("to the n-th
    /// power"), an operator or symbol alone → `symbol`, a simple expression (a decimal, a negative
    /// letter, a fraction, a linear expression such as `n - 1`, something squared or cubed) →
    /// `simple` ("raised to the … power"), anything else → `complex` ("raised to the exponent, …, end
    /// exponent"). `nested` marks an exponent that contains a power.
    static func exponentProps(_ e: SemanticNode) -> SemanticProperties {
        var p: SemanticProperties = [:]
        if e.contains([.power]) || e.kind == .power { p["nested"] = "true" }
        if let v = e.integerValue {
            p["exponent-value"] = String(v)
            p["exponent-kind"] = v == 2 ? "squared" : v == 3 ? "cubed" : "ordinal"
            return p
        }
        if let v = e.negativeIntegerValue {
            p["exponent-value"] = String(v)
            p["exponent-kind"] = "negative-integer"
            return p
        }
        if e.letter != nil {
            p["exponent-kind"] = "letter"
            return p
        }
        if e.kind == .operator || (e.kind == .identifier && e.text.unicodeScalars.count == 1) {
            p["exponent-kind"] = "symbol"
            return p
        }
        p["exponent-kind"] = isSimpleExponent(e) ? "simple" : "complex"
        return p
    }

    /// ClearSpeak Exponents_Auto "raised to the … power": an exponent with no relation, big operator
    /// or table in it, fractions only with simple parts, and powers inside only when they are squared
    /// or cubed and the exponent is not a sum (`5^{x^2}`, `e^{-\frac12 t^2}` but not `e^{x^2+1}` or
    /// `2^{2^k}`).
    static func isSimpleExponent(_ e: SemanticNode) -> Bool {
        var sawPower = false
        var ok = true
        func visit(_ n: SemanticNode, _ depth: Int) {
            if !ok { return }
            if depth > 12 { ok = false; return }
            switch n.kind {
            case .relation, .list, .bigOperator, .limit, .matrix, .cases, .lines, .table, .evaluatedAt, .set,
                 .setBuilder, .binomial, .root:
                ok = false; return
            case .power:
                let k = n.properties["exponent-kind"]
                if k != "squared" && k != "cubed" { ok = false; return }
                sawPower = true
                if let b = n.child(.base) { visit(b, depth + 1) }
                return
            case .fraction:
                if !(n.has("common") || n.has("simple")) { ok = false; return }
                return
            default:
                for c in n.children { visit(c, depth + 1) }
            }
        }
        visit(e, 0)
        if !ok { return false }
        if sawPower {
            // A sum or difference with a power in it is "any other form".
            var top = e
            if top.kind == .prefix, let a = top.child(.argument) { top = a }
            if top.kind == .infix { return false }
        }
        return true
    }

    // MARK: Fractions

    /// Fraction properties (ClearSpeak "Fractions", Fractions_Auto): `common` when the numerator is an
    /// integer from 1 to 19 and the denominator an integer from 2 to 10 ("three fourths", "thirteen
    /// tenths"; "21 over 4", "5 over 12", "0 over 7"); `simple-numerator`/`simple-denominator` when a
    /// part is a simple expression in which simple fractions may be factors; `contains-fraction` when a
    /// part holds a fraction; `simple` when both parts are simple and hold no fraction ("3 x over 4 y";
    /// with fractions: "the fraction one half over three fourths"); `fraction-depth` (fractions nested
    /// inside, for MathSpeak's StartStartFraction); `derivative`/`partial-derivative` with `order`.
    static func fractionProps(_ num: SemanticNode, _ den: SemanticNode, props f: FractionProperties) -> SemanticProperties {
        var p: SemanticProperties = [:]
        let nv = num.integerValue, dv = den.integerValue
        if let nv { p["numerator-value"] = String(nv) }
        if let dv { p["denominator-value"] = String(dv) }
        if let nv, let dv, (1...19).contains(nv), (2...10).contains(dv) { p["common"] = "true" }
        // Simple parts may hold simple fractions; a fraction inside makes the whole "the fraction … over …"
        // (ClearSpeak: "the fraction one half over three fourths", "the fraction two fifths x over 3").
        let sn = isSimple(num, allowFractions: true), sd = isSimple(den, allowFractions: true)
        if sn { p["simple-numerator"] = "true" }
        if sd { p["simple-denominator"] = "true" }
        let depth = max(fractionDepth(num), fractionDepth(den))
        if depth > 0 {
            p["contains-fraction"] = "true"
            p["fraction-depth"] = String(depth)
        }
        if sn && sd && depth == 0 { p["simple"] = "true" }
        if let t = f.lineThickness, t == 0 { p["linethickness-zero"] = "true" }
        if f.continued { p["continued"] = "true" }
        if let d = derivative(num, den) {
            p[d.partial ? "partial-derivative" : "derivative"] = "true"
            if let o = d.order { p["order"] = o }
        }
        return p
    }

    /// How many levels of fractions a part holds (0 for none), read from the `fraction-depth` of the
    /// outermost fractions inside it.
    static func fractionDepth(_ n: SemanticNode) -> Int {
        if n.kind == .fraction { return (Int(n.properties["fraction-depth"] ?? "0") ?? 0) + 1 }
        var best = 0
        for c in n.children { best = max(best, fractionDepth(c)) }
        return best
    }

    /// How many levels of roots a radicand holds (0 for none), from the `root-depth` of the roots in it.
    static func rootDepth(_ n: SemanticNode) -> Int {
        if n.kind == .root { return (Int(n.properties["root-depth"] ?? "0") ?? 0) + 1 }
        var best = 0
        for c in n.children { best = max(best, rootDepth(c)) }
        return best
    }

    /// Recognises `\frac{dy}{dx}`, `\frac{d}{dx}`, `\frac{d^2y}{dx^2}`, `\frac{\partial f}{\partial x}`,
    /// `\frac{\partial^2 f}{\partial x \partial y}` (upright `\mathrm{d}` too).
    static func derivative(_ num: SemanticNode, _ den: SemanticNode) -> (partial: Bool, order: String?)? {
        guard let (mark, order) = leadingDifferential(num) else { return nil }
        guard let (dmark, _) = leadingDifferential(den), dmark == mark else { return nil }
        return (mark == "∂", order)
    }

    /// The differential mark (`d` or `∂`) a numerator or denominator starts with, and its order.
    private static func leadingDifferential(_ n: SemanticNode) -> (String, String?)? {
        func mark(_ x: SemanticNode) -> (String, String?)? {
            switch x.kind {
            case .identifier:
                if x.text == "d" || x.text == "ⅆ" { return ("d", nil) }
                if x.text == "∂" { return ("∂", nil) }
                return nil
            case .differential:
                return (x.properties["mark"] == "∂" ? "∂" : "d", x.properties["order"])
            case .power:
                guard let b = x.child(.base), let (m, _) = mark(b), let e = x.child(.exponent) else { return nil }
                return (m, e.integerValue.map(String.init) ?? (e.letter ?? "true"))
            default:
                return nil
            }
        }
        if let m = mark(n) { return m }
        if n.kind == .impliedTimes, let first = n.children.first { return mark(first) }
        if n.kind == .prefix, n.properties["operator"] == "nabla" { return nil }
        return nil
    }
}
