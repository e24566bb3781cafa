import MathSyntax

// The facts rules test on semantic nodes (simple expressions, exponent kinds, common fractions), read
// from the tree being built and written with its builder. Each test cites the ClearSpeak section
// whose reading it enables.

extension SemanticTree.Records {
    /// The only Unicode scalar of node `n`'s text, if it has exactly one.
    func soleScalar(_ n: NodeID) -> Unicode.Scalar? {
        let t = record(n).text
        return t < 0 ? nil : string(at: Int(t)).soleScalar
    }

    /// The node's value when it is a plain integer numeral (digits only, no sign, no point).
    func integerValue(_ n: NodeID) -> Int? {
        guard kind(n) == .number, property(n, .integer) != nil else { return nil }
        return integer(n, .value)
    }

    /// Whether `n` is a single letter (`x`, `α`, `F`): an identifier with `letter`.
    func isLetter(_ n: NodeID) -> Bool {
        kind(n) == .identifier && property(n, .letter) != nil
    }

    /// Whether `a` and `b` are the same expression: the same kinds and texts, letters and digits in the
    /// same font (`x` is not `\mathbf{x}`), fences of the same shape, and children of the same roles that
    /// are the same, at every level (the other properties follow from these and are not compared).
    /// Compares at most 64 nodes, so that a test on long expressions stays bounded; longer ones are
    /// not the same.
    func sameExpression(_ a: NodeID, _ b: NodeID) -> Bool {
        var budget = 64
        func same(_ a: NodeID, _ b: NodeID) -> Bool {
            if a == b { return true }
            budget -= 1
            guard budget >= 0 else { return false }
            let ra = record(a), rb = record(b)
            guard ra.kind == rb.kind, ra.childCount == rb.childCount else { return false }
            if ra.text != rb.text {
                guard ra.text >= 0, rb.text >= 0, string(at: Int(ra.text)) == string(at: Int(rb.text)) else { return false }
            }
            switch ra.kind {
            case .identifier, .number:
                guard atom(a, .variant) == atom(b, .variant) else { return false }
            case .fenced:
                guard string(a, .open) == string(b, .open), string(a, .close) == string(b, .close) else { return false }
            default: break
            }
            for i in 0 ..< Int(ra.childCount) {
                let la = link(at: Int(ra.firstChild) + i), lb = link(at: Int(rb.firstChild) + i)
                guard la.role == lb.role, same(la.node, lb.node) else { return false }
            }
            return true
        }
        return same(a, b)
    }

    /// The identifier at the bottom of subscripts, primes and powers (`f` in `f_n'`), if any.
    func coreIdentifier(_ n: NodeID) -> NodeID? {
        var c = n
        var steps = 0
        while steps < 8 {
            switch kind(c) {
            case .identifier: return c
            case .subscript, .primes, .power, .accent:
                guard let b = child(c, .base) else { return nil }
                c = b
            default: return nil
            }
            steps += 1
        }
        return nil
    }

    /// Whether the tree below `n` contains a node of `kind` (not counting `n`).
    func contains(_ kind: SemanticKind, below n: NodeID) -> Bool {
        for link in children(n) {
            if self.kind(link.node) == kind || contains(kind, below: link.node) { return true }
        }
        return false
    }

    /// Whether this is a negative integer written with a prefix minus (`-1`), and its value.
    func negativeIntegerValue(_ n: NodeID) -> Int? {
        guard kind(n) == .prefix, atom(n, .operator) == .negative, let a = child(n, .argument),
              let v = integerValue(a) else { return nil }
        return -v
    }

    /// `∞` or `−∞` (and `+∞`).
    func isInfinite(_ n: NodeID) -> Bool {
        if kind(n) == .identifier && soleScalar(n) == "∞" { return true }
        if kind(n) == .prefix, let a = child(n, .argument) { return kind(a) == .identifier && soleScalar(a) == "∞" }
        return false
    }

    /// How many comma-separated items a fence's content has.
    func itemCount(_ content: NodeID) -> Int {
        if kind(content) == .empty { return 0 }
        guard kind(content) == .list else { return 1 }
        var operators = 0
        for link in children(content) where link.role == SemanticRole.operator.rawValue { operators += 1 }
        return max(1, operators + 1)
    }

    // MARK: Differentials

    /// `d` (italic, upright or ⅆ) or `d^n`, the mark of a differential.
    func isDifferentialMark(_ n: NodeID) -> Bool {
        switch kind(n) {
        case .identifier:
            let u = soleScalar(n)
            return u == "d" || u == "ⅆ"
        case .power:
            guard let b = child(n, .base), kind(b) == .identifier else { return false }
            let u = soleScalar(b)
            return u == "d" || u == "ⅆ"
        default: return false
        }
    }

    /// Whether a node can be the variable of a differential: a letter, possibly bold, accented or
    /// subscripted (`x`, `\mathbf{r}`, `\vec r`, `x_1`, `\Omega`).
    func isDifferentialVariable(_ n: NodeID) -> Bool {
        switch kind(n) {
        case .identifier: return has(n, .letter)
        case .subscript, .accent: return child(n, .base).map { kind($0) == .identifier && has($0, .letter) } ?? false
        default: return false
        }
    }

    // MARK: Functions and letters

    /// f, g, h, F, G, H: the letters ClearSpeak reads as functions before parentheses.
    static func isGenericFunctionLetter(_ u: Unicode.Scalar?) -> Bool {
        switch u {
        case "f", "g", "h", "F", "G", "H": return true
        default: return false
        }
    }

    /// ℜ, ℑ (`\Re`, `\Im`: a Fraktur R or I, which the analysis keeps as the letter in its font):
    /// before an argument, the real and the imaginary part, a function whose words are the locale's
    /// `ℜ`/`ℑ` entries of functions.txt; alone, a letter (`\Re = |D_1/D_2|^2`). The function's name
    /// (nil for another node).
    func partFunctionName(_ n: NodeID) -> String? {
        guard kind(n) == .identifier, atom(n, .variant) == .fraktur else { return nil }
        switch soleScalar(n) {
        case "R": return "ℜ"
        case "I": return "ℑ"
        default: return nil
        }
    }

    /// The letters that apply to what parentheses hold whatever the argument, where another letter
    /// before a product in parentheses multiplies it (Functions_Auto): O, o, Θ, Ω, ω of asymptotic
    /// (Landau) notation and Θ of Heaviside's step (`O(n \log n)`, `o(1)`, `Θ(t - t_0)`), and Γ of
    /// Euler's function and of a decay width (`Γ(1 + α)`, `Γ(i y_f)`, `Γ(B → X_c e ν)`: all 20 `\Gamma(`
    /// of the public arXiv list). ω is also a frequency that can multiply (`\omega(\kappa(\omega - 3) +
    /// 1)`), but of the 14 `\omega(` of the public arXiv list 13 apply it (ω(e), ω(z, z′), ω(k∥), weights
    /// and forms).
    static func appliesWhateverItsArgument(_ u: Unicode.Scalar?) -> Bool {
        switch u {
        case "O", "o", "Θ", "Ω", "ω", "Γ": return true
        default: return false
        }
    }

    /// Greek letters side by side (`μν`, `μνλρ`): a tensor's indices.
    func isGreekIndices(_ e: NodeID) -> Bool {
        guard kind(e) == .impliedTimes else { return false }
        var items = 0
        for link in children(e) where link.role == SemanticRole.item.rawValue {
            guard has(link.node, .greek) else { return false }
            items += 1
        }
        return items >= 2
    }

    /// The letters that name function spaces and cohomology groups with an index as a superscript
    /// (L^p, H^s, W^{k,p}, C^k).
    static func isSpaceLetter(_ u: Unicode.Scalar?) -> Bool {
        switch u {
        case "L", "H", "W", "C": return true
        default: return false
        }
    }

    /// Whether an exponent can index a function space: a natural number, ∞, a letter or a list (`1, p`).
    func isSpaceIndex(_ e: NodeID) -> Bool {
        integerValue(e) != nil || (kind(e) == .identifier && (soleScalar(e) == "∞" || isLetter(e))) || kind(e) == .list
    }

    /// Whether exponent `e` indexes a letter rather than raising it to a power, before parentheses
    /// (``functionLikeness(_:)``): a letter other than T and H (a transpose, a conjugate transpose), a
    /// letter with a subscript (`n_c`), anything in parentheses (`^{(m)}`, `^{(k-1)}`: an order or a
    /// label, which parentheses set apart from a power), or 0 or 1, which raise to no power worth
    /// writing (`σ^0(u, θ, φ)`, `Ω^1(M)`: an unperturbed quantity, forms of degree 1).
    func isIndexSuperscript(_ e: NodeID) -> Bool {
        switch kind(e) {
        case .number:
            let v = integerValue(e)
            return v == 0 || v == 1
        case .identifier:
            let s = soleScalar(e)
            return isLetter(e) && s != "T" && s != "H"
        case .subscript:
            return child(e, .base).map { kind($0) == .identifier && isLetter($0) } == true
        case .fenced:
            return string(e, .open) == "(" && child(e, .content) != nil
        default:
            return false
        }
    }

    /// How node `n` reads before a parenthesised group (ClearSpeak "Functions", Functions_Auto).
    func functionLikeness(_ n: NodeID) -> Analyzer.FunctionLikeness {
        var facts = ApplicationFacts()
        facts.functionClass = .generic
        switch kind(n) {
        case .identifier, .subscript, .accent:
            // A letter, and a letter with a subscript or an accent (f_n(x), f̂(ξ), ẋ(t), x̂_i(t)), reads as
            // the letter does.
            guard let core = coreIdentifier(n) else { return .none }
            // A name of several letters with a subscript (`\operatorname{trad}_A(x)`, `\mathrm{prox}_f`
            // unknown to the vocabulary) applies as the name alone does (`\operatorname{trad}(x)`) —
            // not an element symbol with a count, a part of a chemical formula (`Al_2(SO_4)_3`).
            if kind(n) == .subscript, child(n, .base) == core, has(core, .word),
               !(isElement(core) && child(n, .subscript).map({ kind($0) == .number }) == true) {
                return .generic(facts)
            }
            if partFunctionName(n) != nil {
                facts.functionClass = .named
                return .generic(facts)
            }
            guard isLetter(core) else { return .none }
            let letter = soleScalar(core)
            // A letter under a vector's arrow before parentheses is a vector-valued function applied, whatever the
            // letter and whatever the parentheses hold: `\vec r(\pi/2)`, `\vec r(t+h)` (a calculus book's position, tangent
            // and normal vectors at a value: "vector r, times, open paren, pi divided by 2", APEX Calculus, session 54).
            if kind(n) == .accent, string(n, .accentName) == "vector" { return .generic(facts) }
            return SemanticTree.Records.isGenericFunctionLetter(letter) || SemanticTree.Records.appliesWhateverItsArgument(letter)
                ? .generic(facts) : .possible
        case .primes:
            guard let core = coreIdentifier(n), has(core, .letter) else { return .none }
            return .generic(facts)
        case .power:
            guard let b = child(n, .base), let e = child(n, .exponent) else { return .none }
            // A label as a superscript (G^{ret}(x, y), Θ_β^{hom}(y)) or Greek indices (T^{μν}(q, p)): applied
            // as the base is.
            // An adjoint mark alone (x^*(t), φ^*(x), Γ^*(M), f^†(x), ``Vocabulary/isAdjointMark(_:)``): a
            // conjugate, an optimum, a pull-back — another function named after the base, applied as the
            // base is (as a prime is). Not the transpose ⊤: a matrix transposed before parentheses
            // multiplies them (Y^⊤(W − WP), arXiv list).
            let mark = soleScalar(e)
            let adjointMark = (kind(e) == .operator || kind(e) == .identifier) && mark != "⊤" && Vocabulary.isAdjointMark(mark)
            if atom(n, .exponentKind) == .label || isGreekIndices(e) || adjointMark { return functionLikeness(b) }
            guard let core = coreIdentifier(b), isLetter(core) else { return .none }
            // A function space or a cohomology group before its domain (L^2(Ω), W_0^{1,p}(Ω), C^∞(M),
            // H^1(X)): the superscript indexes it, so the application is not of a power of a function.
            if kind(b) != .power, SemanticTree.Records.isSpaceLetter(soleScalar(core)), isSpaceIndex(e) {
                return .generic(facts)
            }
            let power = powerFacts(e)
            // e^{-1}(1 + x) is a power of Euler's number times the group, as e^2(1 + x) is: e is no function.
            if power.inverse && kind(b) == .identifier && soleScalar(core) == "e" { return .none }
            if power.inverse || SemanticTree.Records.isGenericFunctionLetter(soleScalar(core)) || kind(b) == .primes {
                facts.power = power
                return .generic(facts)
            }
            // A small Latin letter with a count in parentheses as its superscript (y^{(4)}(t)): a
            // derivative applied, as f^{(4)}(x) is. A letter in parentheses (x^{(i)}(t)) and a Greek
            // letter's count (ω^{(2)}(k), an order of approximation as often) are indices (below).
            if kind(b) == .identifier, !has(b, .capital), !has(b, .greek), kind(e) == .fenced,
               let c = child(e, .content), integerValue(c) != nil {
                facts.power = power
                return .generic(facts)
            }
            // Another letter (bare, subscripted or accented) with an index as its superscript before
            // parentheses (P^θ(0, T), c^k(t), R_T^π(Θ), L_s^{(m)}(W, w)): one of a family of functions,
            // which may apply as the letter alone may (the argument decides, Functions_Auto); a number
            // as the exponent is a power (x^2(x + 1)), T and H mark a transpose (A^T(x)), and e's
            // superscript is an exponential's (e^{i}(t)).
            if kind(b) == .identifier || kind(b) == .subscript || kind(b) == .accent, soleScalar(core) != "e",
               isIndexSuperscript(e) {
                return .possible
            }
            return .none
        case .prescripts:
            // ₂F₁(a, b; c; z): pre-scripts on a function letter (not a combination ₙCₖ).
            guard !has(n, .combination), !has(n, .permutation), let b = child(n, .base) else { return .none }
            if case .generic(let f) = functionLikeness(b) { return .generic(f) }
            return .none
        case .intent:
            // An author's concept named without arguments (arity 0, MathML 4 intent) before an argument is
            // a function when the author says so (`<mi intent="probability:function">P</mi>(x)`: "probability
            // of x") or it stands on a function's name (`<mi intent="sine">sin</mi>(x)`); else not.
            guard childCount(n) == 0, string(n, .fixity) == "function" else { return .none }
            return .generic(facts)
        case .fenced:
            // Functions combined: (g ∘ h)(t), (f + g)(x), (f ⋅ g)(x), (f/g)(x).
            if let c = child(n, .content), isFunctionCombination(c) { return .generic(facts) }
            return .none
        default:
            return .none
        }
    }

    /// Function letters combined by operations, as a group before an argument (`(f + g)(x)`,
    /// `(f \cdot g)(x)`, `(\frac{f}{g})(x)`, `(g \circ h)(t)`): every operand is a generic function letter.
    func isFunctionCombination(_ c: NodeID) -> Bool {
        func isFunctionLetter(_ n: NodeID) -> Bool {
            kind(n) == .identifier && SemanticTree.Records.isGenericFunctionLetter(soleScalar(n))
        }
        switch kind(c) {
        case .infix, .impliedTimes:
            var items = 0
            for link in children(c) where link.role == SemanticRole.item.rawValue {
                guard isFunctionLetter(link.node) else { return false }
                items += 1
            }
            return items >= 2
        case .fraction:
            guard let num = child(c, .numerator), let den = child(c, .denominator) else { return false }
            return isFunctionLetter(num) && isFunctionLetter(den)
        default:
            return false
        }
    }

    /// Two or more letters, possibly with primes (`\overline{AB}`, `\overline{A'B'}`): ClearSpeak reads
    /// an overline on them as a line segment.
    func isLetterSequence(_ n: NodeID) -> Bool {
        guard kind(n) == .impliedTimes else { return false }
        var items = 0
        for link in children(n) where link.role == SemanticRole.item.rawValue {
            items += 1
            let item = link.node
            guard isLetter(item) || (kind(item) == .primes && child(item, .base).map(isLetter) == true) else { return false }
        }
        return items >= 2
    }

    // MARK: ClearSpeak "simple"

    /// ClearSpeak's simple expression (Part 1, "Simple fractions" and Paren_Auto): a number, a letter
    /// (or Greek letter, or a text word), a negative number, letter or product, a number or letters
    /// followed by letters or words (`3x`, `2πr`, `ab`, `2\text{ miles}`), a subscripted letter, a letter with primes, a common fraction,
    /// and a function applied to a simple argument (`\sin x`, `f(x)`). With `allowFractions`, fractions
    /// whose parts are simple also count as factors (ClearSpeak reads such a fraction "the fraction
    /// … over …"); with `strict`, no fraction counts (for the parts of a fraction).
    func isSimple(_ n: NodeID, allowFractions: Bool = false, strict: Bool = false, depth: Int = 0) -> Bool {
        if depth > 6 { return false }
        switch kind(n) {
        case .number, .identifier, .text, .functionName, .ellipsis, .unit:
            return true
        case .prefix:
            // A negative number, letter or product of them (`-2x`).
            guard atom(n, .operator) == .negative, let a = child(n, .argument) else { return false }
            return kind(a) == .number || kind(a) == .identifier
                || (kind(a) == .impliedTimes && isSimple(a, depth: depth + 1))
        case .subscript:
            guard let b = child(n, .base), let s = child(n, .subscript) else { return false }
            return kind(b) == .identifier && (kind(s) == .number || kind(s) == .identifier
                || (kind(s) == .impliedTimes && isSimple(s, strict: true, depth: depth + 1)))
        case .primes:
            return child(n, .base).map { kind($0) == .identifier } ?? false
        case .fraction:
            if allowFractions { return has(n, .common) || has(n, .simple) }
            return !strict && has(n, .common)
        case .impliedTimes:
            if has(n, .possibleFunction) { return false }
            var i = 0
            for link in children(n) {
                defer { i += 1 }
                guard link.role == SemanticRole.item.rawValue else { continue }
                let c = link.node
                switch kind(c) {
                case .number: if i != 0 { return false }
                case .text: break  // a word after a count: "2 miles", "6 ways of rolling a 7"
                case .identifier, .subscript, .primes:
                    if !isSimple(c, depth: depth + 1) { return false }
                case .fraction:
                    // A common fraction leads a simple product ("3 fourths x"); with `allowFractions`
                    // simple fractions may be factors anywhere.
                    if i == 0 && !strict && has(c, .common) { break }
                    guard allowFractions, isSimple(c, allowFractions: true, depth: depth + 1) else { return false }
                default: return false
                }
            }
            return true
        case .application:
            guard let a = child(n, .argument) else { return true }
            if kind(a) == .fenced, let inner = child(a, .content) { return isSimple(inner, strict: strict, depth: depth + 1) }
            return isSimple(a, strict: strict, depth: depth + 1)
        case .mixedNumber, .degrees, .measurement, .differential:
            return true
        default:
            return false
        }
    }

    /// The content class of a fence, for ClearSpeak Paren_Auto (parentheses are silent around simple
    /// content; with an exponent only around a positive number or a common fraction).
    /// `simple` is ``isSimple(_:allowFractions:strict:depth:)`` of `n`.
    func contentKind(_ n: NodeID, simple: Bool) -> PropertyAtom {
        switch kind(n) {
        case .number: return .number
        case .identifier: return has(n, .letter) ? .letter : .symbol
        case .prefix:
            if atom(n, .operator) == .negative, let a = child(n, .argument) {
                if kind(a) == .number { return .negativeNumber }
                if kind(a) == .identifier { return .negativeLetter }
            }
            return .other
        case .fraction: return has(n, .common) ? .commonFraction : (has(n, .simple) ? .simpleFraction : .other)
        case .impliedTimes: return simple ? .simpleProduct : .other
        default: return simple ? .simple : .other
        }
    }

    // MARK: Exponents

    /// The facts of an exponent (ClearSpeak "Exponents", Exponents_Auto): its `exponent-kind` — 2 →
    /// `squared`, 3 → `cubed`, another non-negative integer → `ordinal` ("to the fourth power", "to
    /// the 0 power"), a negative integer → `negative-integer`, one letter → `letter` ("to the n-th
    /// power"), an operator or symbol alone → `symbol`, a simple expression (a decimal, a negative
    /// letter, a fraction, a linear expression such as `n - 1`, something squared or cubed) → `simple`
    /// ("raised to the … power"), any other exponent with no power in it → `simple` too, a nested one
    /// of any other form → `complex` ("raised to the exponent, …, end exponent"); its `exponent-value`
    /// for integers; `nested` when it contains a power.
    func exponentFacts(_ e: NodeID) -> (kind: PropertyAtom, value: Int?, nested: Bool) {
        let nested = kind(e) == .power || contains(.power, below: e)
        if let v = integerValue(e) {
            return (v == 2 ? .squared : v == 3 ? .cubed : .ordinal, v, nested)
        }
        if let v = negativeIntegerValue(e) {
            return (.negativeInteger, v, nested)
        }
        // A word, a text or a named function as a superscript labels the base (T^{eff}, p_T^{max}).
        // So does an oxidation state (`Fe^{II}`) where it is read as written (Meaning=Literal, MathSpeak).
        if kind(e) == .text || kind(e) == .functionName || has(e, .word) || kind(e) == .chemicalOxidation {
            return (.label, nil, nested)
        }
        // So does one Latin letter set upright on purpose (`mathvariant="normal"`, `\mathrm{r}`): a
        // variable is italic, a descriptive index upright (`E^{\mathrm{r}}`, "E superscript r").
        if isLetter(e) && atom(e, .font) == .normal, let u = soleScalar(e), u.isASCII {
            return (.label, nil, nested)
        }
        if isLetter(e) {
            return (.letter, nil, nested)
        }
        if kind(e) == .operator || (kind(e) == .identifier && text(e).soleScalar != nil) {
            return (.symbol, nil, nested)
        }
        // Exponents_Auto: "raised to the exponent … end exponent" is for nested exponents only; every
        // other exponent is "raised to the … power" ("t raised to the fraction with numerator b plus 1
        // and denominator 3 power").
        return (!nested || isSimpleExponent(e) ? .simple : .complex, nil, nested)
    }

    /// Whether a superscript on `base` labels or indexes it wherever it stands (`exponent-kind = label`),
    /// which the exponent alone does not tell (so ``exponentFacts(_:)`` cannot; ``isIndexSuperscript(_:)``
    /// is the wider test for a letter before parentheses): a group in parentheses or brackets
    /// (`A^{(0)}`, `L_2^{(Ca)}`, `T^{[t]}`: nobody writes x^{(2)} for x squared), a Latin letter beside a
    /// Greek one (`u_b^{e\mu}`, `F_2^{\gamma p}`: a tensor's or a process's indices), a symbol alone (the
    /// dual `Ω^∨`, `R^×`, `x^♭`; not ∞, whose readings depend on the base: `C^\infty(M)`, `ℝ^∞`). Never on
    /// a number or `e` (`2^{(n-1)}`, `e^{i\theta}` are powers), and not an order in parentheses on a small
    /// letter without a font (`f^{(5)}`, `y^{(n)}`), which the rules read as a derivative when the letter
    /// is applied; signs, stars, daggers and transposes as superscripts have readings of their own.
    func isLabelSuperscript(_ e: NodeID, base: NodeID) -> Bool {
        if kind(base) == .number || (kind(base) == .identifier && soleScalar(base) == "e") { return false }
        switch kind(e) {
        case .fenced:
            guard let open = string(e, .open), open == "(" || open == "[" else { return false }
            guard open == "(", let c = child(e, .content), has(c, .integer) || isLetter(c) else { return true }
            return !(kind(base) == .identifier && isLetter(base) && !has(base, .capital) && atom(base, .font) == nil)
        case .interval:
            // Two items in parentheses or brackets (`\phi^{(1,2)}`, `x_i^{(1,2)}`, `\sigma^{[a,b]}`): a pair of
            // indices, never an order of derivative nor, on a letter, a power.
            return true
        case .impliedTimes:
            var latin = 0, greek = 0
            for link in children(e) where link.role == SemanticRole.item.rawValue {
                guard isLetter(link.node) else { return false }
                if has(link.node, .greek) { greek += 1 } else { latin += 1 }
            }
            return latin == 1 && greek == 1
        case .operator, .identifier:
            // A small c on a Latin capital (`A^c`, `E^c`, `M^c(X)`): a set's complement or a label (a motive
            // with compact support), never in practice a power.
            if kind(e) == .identifier, soleScalar(e) == "c", atom(e, .font) == nil, kind(base) == .identifier,
               has(base, .capital), !has(base, .greek), isLetter(base) {
                return true
            }
            // Not ∞, which a space, a set or a range takes as its dimension or bound (C^∞(M), ℝ^∞,
            // {a_n}_{n=1}^∞), each with its own reading.
            guard let u = soleScalar(e), !isLetter(e), u != "∞" else { return false }
            return !"+−-±∓*∗⋆†‡⊤⊺ᵀ′″‴".unicodeScalars.contains(u)
        case .infix:
            // Marks with nothing before the first or after the last (`D^{*+}`, `D^{*0}`, `\Xi_c^{*0}`: a
            // particle's excitation and charge; `E_1^{4-}`: a spin and parity): an operation on nothing
            // is not an exponent.
            let links = children(e)
            if links.first?.role == SemanticRole.operator.rawValue { return true }
            guard links.last?.role == SemanticRole.operator.rawValue else { return false }
            // Not a charge on an element or a bracketed chemical group (`Fe^{3+}`, `O_4^{2-}`,
            // `[SO_4]^{2-}`), which each locale's chemistry reads as it reads a charge.
            let element = kind(base) == .subscript ? child(base, .base) : base
            if let element, isElement(element) { return false }
            return !(kind(base) == .fenced && child(base, .content).map { has($0, .chemical) } == true)
        case .prefix:
            // A sign on a sign (`K^{+-}`, `x^{++}`): marks, not a signed exponent.
            return child(e, .argument).map { kind($0) == .operator } ?? false
        default:
            return false
        }
    }

    /// ClearSpeak Exponents_Auto "raised to the … power": an exponent with no relation, big operator
    /// or table in it, fractions only with simple parts, and powers inside only when they are squared
    /// or cubed with a simple base and the exponent is not a sum (`5^{x^2}`, `e^{-\frac12 t^2}` but not
    /// `e^{x^2+1}`, `3^{(x+1)^2}` or `2^{2^k}`).
    func isSimpleExponent(_ e: NodeID) -> Bool {
        var sawPower = false
        var ok = true
        func visit(_ n: NodeID, _ depth: Int) {
            if !ok { return }
            if depth > 12 { ok = false; return }
            switch kind(n) {
            case .relation, .list, .bigOperator, .limit, .matrix, .cases, .lines, .table, .evaluatedAt, .set,
                 .setBuilder, .binomial, .root:
                ok = false; return
            case .power:
                let k = atom(n, .exponentKind)
                if k != .squared && k != .cubed { ok = false; return }
                // Only a simple base: `(x + 1)^2` in an exponent is "any other form".
                if let b = child(n, .base), !isSimple(b) { ok = false; return }
                sawPower = true
                if let b = child(n, .base) { visit(b, depth + 1) }
                return
            case .fraction:
                if !(has(n, .common) || has(n, .simple)) { ok = false; return }
                return
            default:
                for link in children(n) { visit(link.node, depth + 1) }
            }
        }
        visit(e, 0)
        if !ok { return false }
        if sawPower {
            // A sum or difference with a power in it is "any other form".
            var top = e
            if kind(top) == .prefix, let a = child(top, .argument) { top = a }
            if kind(top) == .infix { return false }
        }
        return true
    }

    /// The power facts of a function's exponent: `inverse` for −1, otherwise `power` with
    /// `power-value` (integers) and `power-kind` (ClearSpeak "Trigonometric functions", Trig_TrigInverse).
    func powerFacts(_ e: NodeID) -> PowerFacts {
        var p = PowerFacts()
        if negativeIntegerValue(e) == -1 {
            p.inverse = true
            return p
        }
        p.power = true
        p.value = integerValue(e)
        p.kind = exponentFacts(e).kind
        return p
    }

    // MARK: Fractions

    /// How many levels of fractions with indicators a part holds (0 for none), read from the
    /// `fraction-depth` of the outermost such fractions inside it. MathSpeak Rules 7.1–7.3 (after
    /// Nemeth §61): a common fraction, spoken as words, does not count ("StartFraction six-halves
    /// Over 3 EndFraction"), nor do fractions in a superscript or subscript.
    func fractionDepth(_ n: NodeID) -> Int {
        switch kind(n) {
        case .fraction: return has(n, .common) ? 0 : (integer(n, .fractionDepth) ?? 0) + 1
        case .power, .subscript, .prescripts: return child(n, .base).map { fractionDepth($0) } ?? 0
        default: break
        }
        var best = 0
        for link in children(n) { best = max(best, fractionDepth(link.node)) }
        return best
    }

    /// Whether a denominator goes on as a continued fraction (MathSpeak Rule 7.6): it ends, after
    /// what it adds, with an ellipsis or with a fraction that goes on so.
    func continuesFraction(_ n: NodeID) -> Bool {
        var n = n
        while true {
            switch kind(n) {
            case .ellipsis: return true
            case .fraction: return has(n, .continued)
            case .infix, .impliedTimes, .row, .list:
                let count = childCount(n)
                guard count > 0 else { return false }
                n = child(n, at: count - 1).node
            default: return false
            }
        }
    }

    /// Whether a part holds a fraction anywhere.
    func holdsFraction(_ n: NodeID) -> Bool {
        if kind(n) == .fraction { return true }
        for link in children(n) where holdsFraction(link.node) { return true }
        return false
    }

    /// How many levels of roots a radicand holds (0 for none), from the `root-depth` of the roots in it.
    func rootDepth(_ n: NodeID) -> Int {
        if kind(n) == .root { return (integer(n, .rootDepth) ?? 0) + 1 }
        var best = 0
        for link in children(n) { best = max(best, rootDepth(link.node)) }
        return best
    }

    /// Recognises `\frac{dy}{dx}`, `\frac{d}{dx}`, `\frac{d^2y}{dx^2}`, `\frac{\partial f}{\partial x}`,
    /// `\frac{\partial^2 f}{\partial x \partial y}` (upright `\mathrm{d}` too).
    func derivative(_ num: NodeID, _ den: NodeID) -> (partial: Bool, order: String?)? {
        guard let (mark, order) = leadingDifferential(num) else { return nil }
        guard let (dmark, _) = leadingDifferential(den), dmark == mark else { return nil }
        return (mark == "∂", order)
    }

    /// What a derivative's numerator differentiates: `y` of `d y`, `d^2 y`, `\mathrm{d}y`, `∂f`; nil when
    /// the numerator is the mark alone (the operator `d/dx`) or holds more than one factor after it.
    func differentiated(_ num: NodeID) -> NodeID? {
        if kind(num) == .differential { return child(num, .variable) }
        guard kind(num) == .impliedTimes else { return nil }
        let items = children(num).filter { $0.role == SemanticRole.item.rawValue }.map(\.node)
        return items.count == 2 ? items[1] : nil
    }

    /// The variables a derivative's denominator names: `x` of `d x`, `d x^2`, `∂x ∂y` (`x`, `y`). A
    /// power there is the order written on the variable (`x` of `∂^2 f/∂x^2`, `d^n y/dx^n`) only when the
    /// numerator has an order and the exponent is a number or that order; otherwise it is the variable
    /// (`∂f/∂z^*`, `∂f/∂x^μ`, `∂^2 f/∂x^μ ∂x^ν`: with respect to z star, x superscript μ).
    func derivativeVariables(_ den: NodeID, order: String?) -> [NodeID] {
        if kind(den) == .differential { return child(den, .variable).map { [$0] } ?? [] }
        guard kind(den) == .impliedTimes else { return [] }
        var variables: [NodeID] = []
        for link in children(den) where link.role == SemanticRole.item.rawValue {
            let item = link.node
            if isDifferentialMark(item) || soleScalar(item) == "∂" { continue }
            if kind(item) == .power, let base = child(item, .base), soleScalar(base) == "∂" { continue }
            if kind(item) == .differential, let v = child(item, .variable) { variables.append(v); continue }
            if kind(item) == .power, let order, let base = child(item, .base), let e = child(item, .exponent),
               integerValue(e) != nil || text(e) == order {
                variables.append(base)
                continue
            }
            variables.append(item)
        }
        return variables
    }

    /// The differential mark (`d` or `∂`) a numerator or denominator starts with, and its order.
    private func leadingDifferential(_ n: NodeID) -> (Unicode.Scalar, String?)? {
        func mark(_ x: NodeID) -> (Unicode.Scalar, String?)? {
            switch kind(x) {
            case .identifier:
                switch soleScalar(x) {
                case "d", "ⅆ": return ("d", nil)
                case "∂": return ("∂", nil)
                default: return nil
                }
            case .differential:
                // The analysis writes differentials (`\mathrm{d}x`) with the mark `d` only.
                return ("d", string(x, .order))
            case .power:
                // The order is a number or a letter (d^2, ∂^n); an expression as the order (∂^{n+1}) is
                // not read as a derivative, whose reading names its order as an ordinal: the fraction is
                // read literally rather than with a wrong order.
                guard let b = child(x, .base), let (m, _) = mark(b), let e = child(x, .exponent) else { return nil }
                if let n = integerValue(e) { return (m, String(n)) }
                return isLetter(e) ? (m, text(e)) : nil
            default:
                return nil
            }
        }
        if let m = mark(n) { return m }
        if kind(n) == .impliedTimes, childCount(n) > 0 { return mark(child(n, at: 0).node) }
        return nil
    }
}

extension Analyzer {
    // MARK: Leaves

    /// Properties of a number: `integer`, `decimal`, `value` (integers below 10^9), `digits` (how
    /// many digits are written).
    static func numberProperties(_ text: String) -> SemanticTree.LeafProperties {
        // ASCII numerals (nearly all) byte by byte, in place; others scalar by scalar.
        var (digits, points, other, commas, value, overflow) = (0, 0, 0, 0, 0, false)
        if let counts = asciiNumberCounts(text, spaces: true) {
            (digits, points, other, commas, value, overflow) = counts
        } else {
            for u in text.unicodeScalars {
                switch u.value {
                case 0x30...0x39:
                    digits += 1
                    if !overflow {
                        value = value * 10 + Int(u.value - 0x30)
                        if value >= 1_000_000_000 { overflow = true }
                    }
                case 0x2E: points += 1                                  // .
                case 0x2C: commas += 1                                  // ,
                case 0x20, 0xA0, 0x2009, 0x202F, 0x27: break            // digit-group separators
                default:
                    // Decimal digits of other scripts and forms (full-width `１`, Arabic-Indic…).
                    if u.properties.numericType == .decimal, let d = u.properties.numericValue {
                        digits += 1
                        if !overflow {
                            value = value * 10 + Int(d)
                            if value >= 1_000_000_000 { overflow = true }
                        }
                    } else {
                        other += 1
                    }
                }
            }
        }
        return numberProperties(text, digits: digits, points: points, other: other, commas: commas, value: value,
                                overflow: overflow)
    }

    /// ``numberProperties(_:)`` of a text of printable ASCII (no space, no control character), from one
    /// look at its bytes in place; nil for any other text (or one not stored contiguously).
    static func plainNumberProperties(_ text: String) -> SemanticTree.LeafProperties? {
        guard let (digits, points, other, commas, value, overflow) = asciiNumberCounts(text, spaces: false) else { return nil }
        return numberProperties(text, digits: digits, points: points, other: other, commas: commas, value: value,
                                overflow: overflow)
    }

    /// The digits, points, other characters and commas of a number written in ASCII, read byte by byte in
    /// place, with the value of its first nine digits (`overflow` past them); nil for a text with a byte
    /// outside ASCII, with a space or control character unless `spaces` (a space is then a digit-group
    /// separator), or not stored contiguously.
    @inline(__always)
    private static func asciiNumberCounts(_ text: String, spaces: Bool)
        -> (digits: Int, points: Int, other: Int, commas: Int, value: Int, overflow: Bool)? {
        var digits = 0, points = 0, other = 0, commas = 0
        var value = 0, overflow = false
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for c in bytes {
                switch c {
                case 0x30...0x39:
                    digits += 1
                    if !overflow {
                        value = value * 10 + Int(c - 0x30)
                        if value >= 1_000_000_000 { overflow = true }
                    }
                case 0x2E: points += 1                                  // .
                case 0x2C: commas += 1                                  // , (a digit-group separator)
                case 0x27: break                                        // a digit-group separator
                case 0x20 where spaces: break                           // a digit-group separator
                case ...0x20, 0x80...: return false
                default: other += 1
                }
            }
            return true
        } ?? false
        return ascii ? (digits, points, other, commas, value, overflow) : nil
    }

    /// The properties of a number of `digits` digits (whose first nine make `value`, unless `overflow`),
    /// `points` points, `commas` commas and `other` other characters.
    @inline(__always)
    private static func numberProperties(_ text: String, digits: Int, points: Int, other: Int, commas: Int, value: Int,
                                         overflow: Bool) -> SemanticTree.LeafProperties {
        var p = SemanticTree.LeafProperties()
        // `digits` and `value` fit in 32 bits: a text of 2^31 digits cannot be a formula's.
        if digits > 0 { p.append(.integer(.digits, Int32(truncatingIfNeeded: digits))) }
        // Capital letters only, two or more: a Roman numeral (MathSpeak rule 1.5, "UpperWord I V").
        if digits == 0 && other >= 2 && points == 0 && commas == 0, text.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) {
            p.append(.flag(.capitals))
        }
        if other == 0 && digits > 0 {
            if points == 0 && commas > 0 {
                // Commas between digits with no point (`grouped`, said with the listener's marks): groups of
                // three (`13,000`), an integer; one comma otherwise is a decimal comma (`1{,}5`, `0{,}001`);
                // several that are not groups (`1,00,000`) are written marks, neither.
                p.append(.flag(.grouped))
                if text.commasSeparateDigitGroups {
                    p.append(.flag(.integer))
                    if !overflow { p.append(.integer(.value, Int32(value))) }
                } else if commas == 1 {
                    p.append(.flag(.decimal))
                }
            } else if points == 0 {
                p.append(.flag(.integer))
                if !overflow { p.append(.integer(.value, Int32(value))) }
            } else if points == 1 {
                p.append(.flag(.decimal))
            }
        }
        return p
    }

    /// Properties of an identifier: `letter`, `greek`, `capital`, `variant`, `font`, `set-name` (`sole`:
    /// the text's sole scalar when known). `font` is the letter's alphabet: `font` when given (a styled
    /// character's), else the variant — except italic on letters, the way letters are set (MathML's
    /// single-character `mi`), which is no font of its own.
    static func identifierProperties(_ text: String, variant: MathVariant?, font: PropertyAtom? = nil,
                                     sole: Unicode.Scalar?? = nil) -> SemanticTree.LeafProperties {
        var p = SemanticTree.LeafProperties()
        // Fast path for the commonest identifiers, plain ASCII letters.
        if variant == nil, font == nil, text.utf8.count == 1, let c = text.utf8.first {
            if c >= 0x61 && c <= 0x7A { p.append(.flag(.letter)); return p }
            if c >= 0x41 && c <= 0x5A { p.append(.flag(.letter)); p.append(.flag(.capital)); return p }
        }
        if let v = variant { p.append(.atom(.variant, v.atom)) }
        if let f = font ?? variant.flatMap({ v in
            v == .italic && text.unicodeScalars.allSatisfy({ $0.isAlphabeticScalar }) ? nil : v.atom
        }) {
            p.append(.atom(.font, f))
        }
        guard let u = sole ?? text.soleScalar else { return p }
        if u.isASCII {
            // An ASCII letter (in a variant: `\mathrm{d}`, `\mathbb{R}`) or another ASCII character.
            let c = u.value
            let upper = c >= 0x41 && c <= 0x5A
            guard upper || (c >= 0x61 && c <= 0x7A) else { return p }
            p.append(.flag(.letter))
            if upper { p.append(.flag(.capital)) }
            if variant == .doubleStruck, let set = setName(u) { p.append(.atom(.setName, set)) }
            return p
        }
        if (0x0391...0x03A9).contains(u.value) || (0x03B1...0x03C9).contains(u.value), u.value != 0x03A2 {
            // A basic Greek letter (U+03A2 is unassigned): not double-struck in any way.
            p.append(.flag(.letter))
            p.append(.flag(.greek))
            if u.value <= 0x03A9 { p.append(.flag(.capital)) }
            return p
        }
        // The property tables cost ~320 instructions a look-up (`MathAloudBench semantics-profile` under
        // callgrind): the Greek symbol letters and the mathematical operators (∂ ∞ ∅ ∇) are answered here,
        // as the tables answer them (lower-case letters; no letters).
        switch u.value {
        case 0x03D1, 0x03D5, 0x03D6, 0x03F0, 0x03F1, 0x03F5:    // ϑ ϕ ϖ ϰ ϱ ϵ
            p.append(.flag(.letter))
            if Analyzer.isGreek(u) { p.append(.flag(.greek)) }
        case 0x2200...0x22FF:
            break
        default:
            if u.properties.isAlphabetic {
                p.append(.flag(.letter))
                if Analyzer.isGreek(u) { p.append(.flag(.greek)) }
                if u.properties.isUppercase { p.append(.flag(.capital)) }
            }
        }
        // Double-struck N Z Q R C name number sets, whether written ℝ or \mathbb{R}.
        let doubleStruck: Unicode.Scalar? = variant == .doubleStruck ? u
            : UnicodeMath.decompose(u).flatMap { $0.variant == .doubleStruck ? $0.base : nil }
        if let doubleStruck, let set = setName(doubleStruck) { p.append(.atom(.setName, set)) }
        return p
    }

    /// A leaf's text of styled characters the front ends leave as written (enclosed `Ⓐ ⑲ ⒈`, `ℓ`,
    /// superscripts `⁷`, fullwidth forms), all of one font: the plain letters, digits or number, and the
    /// font (`⑲` → `19`, `circled`). Nil for any other text (plain, or mixed fonts).
    static func styledText(_ text: String) -> (text: String, font: PropertyAtom)? {
        // Every styled character is outside ASCII; ¹ ² ³ (U+00B9, U+00B2, U+00B3) are the first.
        guard let first = text.utf8.withContiguousStorageIfAvailable({ $0.first }) ?? text.utf8.first, first >= 0xC2 else {
            return nil
        }
        var plain = ""
        var font: String? = nil
        for u in text.unicodeScalars {
            guard let a = UnicodeMath.alphabet(of: u), font == nil || font == a.font else { return nil }
            font = a.font
            plain += a.base
        }
        guard let font, let atom = PropertyAtom(string: font) else { return nil }
        return (plain, atom)
    }

    /// The font of an identifier whose MathML `mathvariant` names an alphabet MathML lacks: MathJax's
    /// `\mathcal`, `-tex-calligraphic` (also spelled `-tex-caligraphic`) and its bold forms. Nil otherwise.
    static func attributeFont(_ m: MathNode) -> PropertyAtom? {
        guard let value = m.attributes?["mathvariant"] else { return nil }
        switch value.trimmingSpaces {
        case "-tex-calligraphic", "-tex-caligraphic": return .calligraphic
        case "-tex-bold-calligraphic", "-tex-calligraphic-bold", "-tex-caligraphic-bold": return .boldCalligraphic
        default: return nil
        }
    }

    /// Text with its styled letters and digits made plain (`𝐓𝐞𝐱𝐭` → `Text`): a text's font is not spoken.
    static func plainText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0xC2 }) else { return text }
        var plain = String.UnicodeScalarView()
        var changed = false
        for u in text.unicodeScalars {
            if let a = UnicodeMath.alphabet(of: u) {
                plain.append(contentsOf: a.base.unicodeScalars)
                changed = true
            } else {
                plain.append(u)
            }
        }
        return changed ? String(plain) : text
    }

    /// `set-name` of a double-struck N Z Q R C (ClearSpeak reads ℝ as "the real numbers").
    static func setName(_ doubleStruck: Unicode.Scalar) -> PropertyAtom? {
        switch doubleStruck {
        case "N": .naturals
        case "Z": .integers
        case "Q": .rationals
        case "R": .reals
        case "C": .complexes
        default: nil
        }
    }

    static func isGreek(_ u: Unicode.Scalar) -> Bool {
        (0x0391...0x03FF).contains(u.value) || (0x1D6A8...0x1D7CB).contains(u.value)
    }

    // MARK: Exponents

    /// `exponent-kind`, `exponent-value` and `nested` of an exponent (see
    /// ``SemanticTree/exponentFacts(_:)``).
    mutating func addExponentProperties(_ e: NodeID, base: NodeID) {
        let facts = tree.exponentFacts(e)
        if facts.nested { b.flag(.nested) }
        if let v = facts.value { b.integer(.exponentValue, v) }
        b.atom(.exponentKind, facts.kind != .label && tree.isLabelSuperscript(e, base: base) ? .label : facts.kind)
    }

    // MARK: Fractions

    /// Fraction properties (ClearSpeak "Fractions", Fractions_Auto): `common` when the numerator is an
    /// integer from 1 to 19 and the denominator an integer from 2 to 10 ("three fourths", "thirteen
    /// tenths"; "21 over 4", "5 over 12", "0 over 7"); `simple-numerator`/`simple-denominator` when a
    /// part is a simple expression in which simple fractions may be factors; `contains-fraction` when a
    /// part holds a fraction; `simple` when both parts are simple and hold no fraction ("3 x over 4 y";
    /// with fractions: "the fraction one half over three fourths"); `fraction-depth` (fractions nested
    /// inside, for MathSpeak's StartStartFraction); `derivative`/`partial-derivative` with `order`.
    mutating func addFractionProperties(_ num: NodeID, _ den: NodeID, _ f: FractionProperties) {
        let nv = tree.integerValue(num), dv = tree.integerValue(den)
        if let nv { b.integer(.numeratorValue, nv) }
        if let dv { b.integer(.denominatorValue, dv) }
        if let nv, let dv, (1...19).contains(nv), (2...10).contains(dv) { b.flag(.common) }
        // Simple parts may hold simple fractions; a fraction inside makes the whole "the fraction … over …"
        // (ClearSpeak: "the fraction one half over three fourths", "the fraction two fifths x over 3").
        let sn = tree.isSimple(num, allowFractions: true), sd = tree.isSimple(den, allowFractions: true)
        if sn { b.flag(.simpleNumerator) }
        if sd { b.flag(.simpleDenominator) }
        let holds = tree.holdsFraction(num) || tree.holdsFraction(den)
        if holds { b.flag(.containsFraction) }
        let depth = max(tree.fractionDepth(num), tree.fractionDepth(den))
        if depth > 0 { b.integer(.fractionDepth, depth) }
        if sn && sd && !holds { b.flag(.simple) }
        if let t = f.lineThickness, t == 0 { b.flag(.linethicknessZero) }
        if tree.continuesFraction(den) { b.flag(.continued) }
        if let d = tree.derivative(num, den) {
            b.flag(d.partial ? .partialDerivative : .derivative)
            if let o = d.order { b.string(.order, o) }
            // What is differentiated (`function`, absent for the operator d/dx) and with respect to what
            // (`variable`s), as children besides the numerator and denominator, for readings of the
            // meaning ("the derivative of y with respect to x").
            if let f = tree.differentiated(num) { b.add(child: f, .function) }
            for v in tree.derivativeVariables(den, order: d.order) { b.add(child: v, .variable) }
        }
    }
}

package extension String {
    /// Whether this is one group of digits after a comma: three digits, then perhaps a decimal part
    /// (`000`, `858`, `234.5`).
    var isDigitGroup: Bool {
        let b = utf8
        guard b.count >= 3, b.prefix(3).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        if b.count == 3 { return true }
        let rest = b.dropFirst(3)
        return rest.count > 1 && rest.first == 0x2E && rest.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    }

    /// Whether the commas of a number's text separate groups of digits: one to three digits not led by a
    /// zero, then each comma followed by exactly three digits and a comma, a point or the end
    /// (`13,000`, `25,164,858`, `1,234.5`). `0,125`, `1,5` and `1,00,000` are not.
    var commasSeparateDigitGroups: Bool {
        let b = Array(utf8)
        guard let firstComma = b.firstIndex(of: 0x2C), firstComma >= 1, firstComma <= 3, b[0] != 0x30,
              b[..<firstComma].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        var i = firstComma
        while i < b.count, b[i] == 0x2C {
            var k = i + 1
            while k < b.count, b[k] >= 0x30 && b[k] <= 0x39 { k += 1 }
            guard k - i - 1 == 3 else { return false }
            i = k
        }
        return i == b.count || b[i] == 0x2E
    }
}
