// Chemical formulas written as mathematics (`H_2O`, `[SO_4]^{2-}`): the juxtaposed element symbols
// with counts and charges that the analysis marks `chemical` so rules can read each element by its
// letters ("cap H sub 2 cap O") instead of as variables.

extension SemanticTree.Records {
    /// The states of matter a formula may be followed by in parentheses (IUPAC's symbols, the same in
    /// every language): aqueous, solid, liquid, gas, crystalline.
    static let stateSymbols: Set<String> = ["aq", "s", "l", "g", "cr"]

    /// The symbols of the chemical elements (IUPAC) in order of atomic number (H is 1, Og is 118).
    static let elementsByAtomicNumber: [String] = [
        "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar",
        "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br",
        "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te",
        "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm",
        "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn",
        "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr",
        "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og",
    ]

    /// The element symbols as bit sets (every symbol is a capital ASCII letter and at most one small
    /// one): bit `c` of `[26]` for the one-letter symbol of capital `c`, bit `s` of `[c]` for the
    /// two-letter symbol of capital `c` and small letter `s`. Tested on the text's bytes, so asking
    /// whether an identifier is an element hashes no string (``isElementSymbol(_:)``).
    static let elementBits: [UInt32] = {
        var bits = [UInt32](repeating: 0, count: 27)
        for symbol in elementsByAtomicNumber {
            let b = Array(symbol.utf8)
            if b.count == 1 { bits[26] |= 1 << UInt32(b[0] - 0x41) } else { bits[Int(b[0] - 0x41)] |= 1 << UInt32(b[1] - 0x61) }
        }
        return bits
    }()

    /// Whether `symbol` is the symbol of a chemical element (`H`, `Cl`; not `h`, `CL`, `Xx`, `HCl`).
    static func isElementSymbol(_ symbol: String) -> Bool { elementRunCount(symbol) == 1 }

    /// How many element symbols `text` spells as a run of them (`HCl` 2, `NaCl` 2, `Cl` 1; each symbol a
    /// capital and at most one small letter), or nil when it spells none (`Xy`, `ker`, `HCL`).
    static func elementRunCount(_ text: String) -> Int? {
        var count = 0
        var it = text.utf8.makeIterator()
        var next = it.next()
        while let capital = next {
            guard capital >= 0x41, capital <= 0x5A else { return nil }
            next = it.next()
            if let small = next, small >= 0x61, small <= 0x7A {
                guard elementBits[Int(capital - 0x41)] & (1 << UInt32(small - 0x61)) != 0 else { return nil }
                next = it.next()
            } else {
                guard elementBits[26] & (1 << UInt32(capital - 0x41)) != 0 else { return nil }
            }
            count += 1
        }
        return count > 0 ? count : nil
    }

    /// Whether `factors`, which a state of matter in parentheses follows (`HCl (aq)`, `2 H Cl (aq)`,
    /// `NaCl (s)`: MathJax's MathML for mhchem's `\ce{2HCl(aq)}`), are a formula without counts: after
    /// an optional positive integer coefficient, identifiers spelling element symbols, two or more in
    /// all, one identifier at least of two letters or more. A letter or one element before a state is
    /// mathematics as often (`H(s)`, `B(s)`, `Re(s)`: a function of s).
    func isStatedFormula<C: BidirectionalCollection>(_ factors: C) -> Bool where C.Element == NodeID {
        var rest = factors[...]
        if rest.count >= 2, let first = rest.first, let c = integerValue(first), c >= 1 { rest = rest.dropFirst() }
        guard let run = elementIdentifiers(rest) else { return false }
        return run.symbols >= 2 && run.longIdentifiers >= 1
    }

    /// The element symbols `factors` spell when each is an identifier spelling a run of them (`H`, `Cl`,
    /// `HCl`): how many symbols in all, how many identifiers of two letters or more, and how many
    /// identifiers that are one two-letter symbol. Nil when a factor is anything else.
    private func elementIdentifiers<C: Collection>(_ factors: C)
        -> (symbols: Int, longIdentifiers: Int, twoLetterSymbols: Int)? where C.Element == NodeID {
        var run = (symbols: 0, longIdentifiers: 0, twoLetterSymbols: 0)
        for f in factors {
            guard kind(f) == .identifier, let n = Self.elementRunCount(text(f)) else { return nil }
            let letters = text(f).utf8.count
            run.symbols += n
            if letters >= 2 { run.longIdentifiers += 1 }
            if n == 1 && letters == 2 { run.twoLetterSymbols += 1 }
        }
        return run
    }

    /// The atomic number of each element symbol.
    static let atomicNumbers: [String: Int] = Dictionary(
        uniqueKeysWithValues: elementsByAtomicNumber.enumerated().map { ($1, $0 + 1) })

    /// Whether `n` is a word of two element symbols or more written as one identifier or text (`SO` of
    /// `\mathrm{SO}_4`, `HCl`, MathJax 2's `<mtext>SO</mtext>`): a part of a formula as its symbols are,
    /// where a count or charge makes one.
    func isElementWord(_ n: NodeID) -> Bool {
        (kind(n) == .identifier && !has(n, .letter) || kind(n) == .text) && (Self.elementRunCount(text(n)) ?? 0) >= 2
    }

    /// Whether `n` is an element symbol written as an identifier (`H`, `Cl`).
    func isElement(_ n: NodeID) -> Bool {
        kind(n) == .identifier && Self.isElementSymbol(text(n))
    }

    /// Whether juxtaposed `factors` read as a chemical formula: at least two parts, each an element,
    /// an element or a bracketed formula with a count of 2 or more (`H_2`, `(SO_4)_3`) or a charge
    /// (`Na^+`), or a bracketed formula; at least one count or charge, so that a product of letters
    /// that happen to be element symbols (`C O`, `N P`) stays a product; and, besides counted single
    /// letters, a bare element, a two-letter symbol, a group or a charge, so that indexed variables
    /// (`P_1 V_1`, `P_2 V_2`, `x_2 y`) stay mathematics. Without counts, element symbols of which two
    /// or more have two letters (`Na Cl`) are a formula too (``isProductOfTwoLetterElements(_:)``).
    /// A positive integer coefficient may lead (`2H_2O`, as chemical equations write it) when at least
    /// two parts follow it, and the formula's state may end it (`Fe Cl_3 (aq)`: a ``SemanticKind/chemicalState``,
    /// which the row analysis makes of a state after a formula).
    func isChemicalFormula<C: BidirectionalCollection>(_ factors: C) -> Bool where C.Element == NodeID {
        if factors.count >= 3, let first = factors.first, let c = integerValue(first), c >= 1 {
            return isChemicalFormula(factors.dropFirst())
        }
        // A state is made only after what the analysis read as a formula (``SemanticTree/Records/isFormula(_:beforeState:)``).
        if let last = factors.last, kind(last) == .chemicalState { return factors.count >= 2 }
        guard factors.count >= 2 else { return false }
        var counted = false
        var distinctive = false
        for f in factors {
            guard let c = chemicalPart(f) else { return false }
            counted = counted || c
            if !distinctive {
                switch kind(f) {
                case .identifier: distinctive = true
                case .subscript:
                    // A counted element set as text is chemistry's, not an indexed variable (`<msub><mtext>N</mtext><mn>2</mn></msub>`).
                    if has(f, .chemical) { distinctive = true; break }
                    if let b = child(f, .base) { distinctive = kind(b) != .identifier || text(b).unicodeScalars.count > 1 }
                default: distinctive = true
                }
            }
        }
        return counted && distinctive || isProductOfTwoLetterElements(factors)
    }

    /// Whether `factors` are element symbols written as identifiers, two or more of them symbols of two
    /// letters each written as one identifier (`<mi>Na</mi><mi>Cl</mi>`, `\mathrm{Na}\mathrm{Cl}`): a
    /// salt or an alloy written without counts. Mathematics writes a product of variables as
    /// one-letter identifiers (`N a C l`), so two-letter symbols are evidence enough where one-letter
    /// ones are not (`C O` stays a product).
    private func isProductOfTwoLetterElements<C: BidirectionalCollection>(_ factors: C) -> Bool where C.Element == NodeID {
        guard let run = elementIdentifiers(factors) else { return false }
        return run.symbols == factors.count && run.twoLetterSymbols >= 2
    }

    /// Whether `factors`, which a state of matter in parentheses follows, are a chemical formula: one with
    /// counts or charges (``isChemicalFormula(_:)``), one without (``isStatedFormula(_:)``: `HCl (aq)`), or
    /// a compound written as one counted word (``isCountedCompound(_:)``: `\mathrm{CO}_2 (g)`). The one
    /// decision behind a state wherever the row analysis meets one: after a product's factors, and after a
    /// word or letter that would otherwise be applied to the parentheses.
    func isFormulaBeforeState<C: BidirectionalCollection>(_ factors: C) -> Bool where C.Element == NodeID {
        // One factor (every letter before parentheses asks): only a word of two element symbols or more
        // (what isStatedFormula holds for one factor) or a counted compound; answered without the
        // general tests' slices, and a single letter without reading its text (`MathAloudBench stages` under
        // callgrind: the general tests cost 135 instructions a formula, the text of every letter 60).
        if factors.count == 1, let n = factors.first {
            if kind(n) == .text { return isElementText(n) }
            if kind(n) == .power, has(n, .chemical) || isComplexIon(n) { return true }   // an ion (`Ba^{2+}(aq)`)
            // An element set as text with a count (`<msub><mtext>O</mtext><mn>2</mn></msub>(g)`).
            if kind(n) == .subscript, let b = child(n, .base), isElementText(b),
               let s = child(n, .subscript), integerValue(s) != nil { return true }
            guard kind(n) == .identifier else { return isCountedCompound(n) }
            return isElementWord(n)
        }
        return isChemicalFormula(factors) || isStatedFormula(factors)
    }

    /// Whether `n` is a compound written as one counted or charged word (`\mathrm{CO}_2`,
    /// `\mathrm{CaCO}_3`, `\mathrm{SO}_4^{2-}`): scripts whose base is an identifier spelling two
    /// element symbols or more, with a count of 2 or more or a charge. Alone it may be mathematics
    /// (`\mathrm{SO}_3`, a group); before a state of matter (`\mathrm{CO_2(g)}`) it is a formula.
    func isCountedCompound(_ n: NodeID) -> Bool {
        // A compound the analysis made alone (``isCompoundAlone(base:count:)``), its word already split.
        if kind(n) == .subscript, has(n, .chemical) { return true }
        guard kind(n) == .subscript || kind(n) == .power, let b = child(n, .base), kind(b) == .identifier || kind(b) == .text,
              let symbols = Self.elementRunCount(text(b)), symbols >= 2 else { return false }
        if kind(n) == .subscript {
            guard let s = child(n, .subscript), let count = integerValue(s) else { return false }
            return count >= 2
        }
        return child(n, .exponent).map(isCharge) == true
    }

    /// Whether a subscript of `count` on `base` is a compound even alone, outside any formula or equation:
    /// text of two letters or more spelling element symbols (`<msub><mtext>CO</mtext><mn>2</mn></msub>`,
    /// `<msub><mtext>Cl</mtext><mn>2</mn></msub>`, as publishers' MathML sets formulas), or an upright word
    /// spelling three or more, or two symbols of two
    /// letters among them (`\mathrm{KClO}_3`, `\mathrm{CaCO}_3`), with a count of 2 or more. Two one-letter
    /// symbols written upright stay mathematics (`\mathrm{SO}_3`, `\mathrm{SU}_2`: groups).
    func isCompoundAlone(base: NodeID, count: NodeID) -> Bool {
        let k = kind(base)
        guard k == .text || (k == .identifier && !has(base, .letter)), let c = integerValue(count), c >= 2 else { return false }
        let t = text(base)
        guard let symbols = Self.elementRunCount(t) else { return false }
        // A text of one letter is as often an upright variable (`<msub><mtext>B</mtext><mn>3</mn></msub>`); in a
        // formula it is read as the element (``chemicalPart``).
        if k == .text { return t.utf8.count > 1 }
        // Upright: three symbols or more, or two symbols of two letters (`\mathrm{CaCl}_2`); `\mathrm{NaN}_2` stays.
        return symbols >= 3 || (symbols == 2 && t.utf8.count == 4)
    }

    /// Whether text `n` spells element symbols (`KBr`, `Mg`, `<mtext>H</mtext>`) and is no function's name
    /// (`\text{Re}`): a formula before a state of matter (`<mtext>KBr</mtext>(s)`), where a letter or an
    /// identifier may be a function applied to `s`.
    func isElementText(_ n: NodeID) -> Bool {
        guard kind(n) == .text else { return false }
        let t = text(n)
        return Self.elementRunCount(t) != nil && Vocabulary.nameClass(t) == nil
    }

    /// Whether a word of element symbols set as text before a parenthesised group is a formula's part rather
    /// than a function applied to the group (`<mtext>Ca</mtext>` before `(OH)_2`, `Ag` before `(CN)_2^-`, `Co`
    /// before `(NH_3)_6`): the group in parentheses is a formula's part (element symbols set as one word, a
    /// formula, a compound or an ion the analysis read alone). A name before another argument stays a function
    /// (`Foo(x)`, `Li(x)`).
    func isFormulaBeforeGroup(_ word: NodeID, group: NodeID) -> Bool {
        // The group a formula's part, as ``chemicalPart(_:depth:)`` reads one in parentheses.
        kind(group) == .fenced && string(group, .open) == "(" && isElementText(word) && chemicalPart(group) != nil
    }

    /// Whether `n` is a counted or charged part of a formula (`H_2`, `(SO_4)_3`, `Na^+`, `Fe^{II}`).
    func chemicalPartOf(_ n: NodeID) -> Bool { chemicalPart(n) == true }

    /// Whether `n` is a part of a formula (nil if not), and whether it carries a count or charge.
    private func chemicalPart(_ n: NodeID, depth: Int = 0) -> Bool? {
        if depth > 4 { return nil }
        switch kind(n) {
        case .identifier:
            return isElement(n) || isElementWord(n) ? false : nil
        case .text:
            // An element or a word of them written as text (`\text{H}_2`, MathJax 2's mhchem `<mtext>SO</mtext>`).
            return Self.elementRunCount(text(n)) != nil ? false : nil
        case .subscript:
            guard let b = child(n, .base), let s = child(n, .subscript), let count = integerValue(s), count >= 2,
                  chemicalPart(b, depth: depth + 1) != nil else { return nil }
            return true
        case .power:
            guard let b = child(n, .base), let e = child(n, .exponent), isCharge(e) || kind(e) == .chemicalOxidation,
                  chemicalPart(b, depth: depth + 1) != nil else { return nil }
            return true
        case .fenced:
            guard let c = child(n, .content) else { return nil }
            if kind(c) == .impliedTimes, has(c, .chemical) { return true }
            // In parentheses, a group of element symbols set as one word (`(OH)`, `(CN)`: a part, as an element
            // is) or a compound or ion the analysis read alone (`(NH_3)`: a count; `P(C_2)` stays). Square brackets around a formula are as often its
            // concentration (`[CO][H_2O]`, a product), and `(x)` stays none.
            guard string(n, .open) == "(" else { return nil }
            if kind(c) == .text { return Self.elementRunCount(text(c)) != nil ? false : nil }
            if kind(c) == .identifier { return isElementWord(c) ? false : nil }
            return (kind(c) == .subscript || kind(c) == .power) && has(c, .chemical) ? true : nil
        case .impliedTimes:
            // A word's element symbols, split where the word was read as a compound (`\mathrm{KClO}_3`).
            return has(n, .chemical) ? false : nil
        default:
            return nil
        }
    }

    /// The value of an oxidation state written as IUPAC writes it, an upright Roman numeral from I to IX
    /// (`II` → 2), or nil.
    static func oxidationNumeral(_ text: String) -> Int? {
        // Most exponents on an element symbol (`P^x`, `C^2`) are no numeral: their bytes say so before
        // any string is compared.
        guard text.utf8.count <= 4, text.utf8.allSatisfy({ $0 == 0x49 || $0 == 0x56 || $0 == 0x58 }) else { return nil }
        return switch text {
        case "I": 1
        case "II": 2
        case "III": 3
        case "IV": 4
        case "V": 5
        case "VI": 6
        case "VII": 7
        case "VIII": 8
        case "IX": 9
        default: nil
        }
    }

    /// The oxidation state that superscript `e` on `base` writes (`Fe^{II}`, `Mn^{VII}`, as
    /// `\ce{Fe^{II}}` and IUPAC write it), or nil: the base an element symbol written as an identifier,
    /// the superscript an identifier that is a Roman numeral from I to IX. A numeral of one letter (`I`,
    /// `V`) is also a letter, so it counts only when upright (`mathvariant="normal"`, `\mathrm{V}`) on a
    /// symbol of two letters: `Y^{IV}`, `V^I` and `x^{II}` stay mathematics.
    func oxidationState(base: NodeID, exponent e: NodeID) -> Int? {
        guard kind(e) == .identifier else { return nil }
        let numeral = text(e)
        guard let v = Self.oxidationNumeral(numeral), isElement(base) else { return nil }
        if numeral.utf8.count == 1 {
            guard text(base).utf8.count == 2, atom(e, .variant) == .normal else { return nil }
        }
        return v
    }

    /// Whether a charge on `base` makes an ion written as mathematics (`\mathrm{Fe}^{3+}`, `\mathrm{SO}_4^{2-}`,
    /// `<msup><mi>Na</mi><mo>+</mo></msup>`): the base a symbol of two letters, a word of two element
    /// symbols or more, or such a word with a count (``isCountedCompound(_:)``'s base). A letter with a
    /// sign (`H^+`, a Hardy space as often as a proton; `x^+`, `C_2^+`) stays mathematics.
    func isIonBase(_ base: NodeID) -> Bool {
        switch kind(base) {
        case .identifier:
            // The text read once: every power's base asks (isElementWord and isElement would read it twice,
            // 0.17 M instructions per 2,000 speaks, callgrind).
            guard !has(base, .letter) else { return false }
            let t = text(base)
            guard let symbols = Self.elementRunCount(t) else { return false }
            return symbols >= 2 || t.utf8.count == 2
        case .text:
            // An element or a word of them set as text (`<msup><mtext>Ba</mtext><mn>2+</mn></msup>`, as
            // publishers' MathML writes an ion): text is no variable, so one letter is an element too.
            return Self.elementRunCount(text(base)) != nil
        case .subscript:
            if isCountedCompound(base) { return true }
            // An element set as text or upright with a count (`<msub><mtext>Hg</mtext><mn>2</mn></msub>`,
            // `\mathrm{O}_2^{2-}`, peroxide): text is no variable, and an upright letter is a symbol.
            guard let b = child(base, .base), kind(b) == .text || (kind(b) == .identifier && (!has(b, .letter) || atom(b, .variant) == .normal)),
                  Self.elementRunCount(text(b)) != nil,
                  let s = child(base, .subscript), let count = integerValue(s) else { return false }
            return count >= 2
        default: return false
        }
    }

    /// Whether `n` is a charge on a formula in brackets (`[Zn(CN)_4]^{2-}`, a complex ion): a species of a
    /// reaction and a formula before a state, as an ion alone is. The power is not marked `chemical` (a
    /// language reads a bracket's charge as it reads a power on brackets: `vi-chemical-charge`), but a charge
    /// written as one leaf on it is the count and the sign (``Analyzer/power(_:_:range:scriptedBase:)``).
    func isComplexIon(_ n: NodeID) -> Bool {
        guard kind(n) == .power, let b = child(n, .base), let e = child(n, .exponent) else { return false }
        return isBracketedFormula(b) && isCharge(e)
    }

    /// Whether `n` is a formula in brackets (`[Zn(CN)_4]`, a complex ion's).
    func isBracketedFormula(_ n: NodeID) -> Bool {
        guard kind(n) == .fenced, let c = child(n, .content) else { return false }
        return (kind(c) == .impliedTimes || kind(c) == .subscript || kind(c) == .power) && has(c, .chemical)
    }

    /// A charge: `+`, `−`, or a count before or after one (`2+`, `3-`, `+2`). A charge of one is written
    /// as its sign alone (`Cl^-`), so a sign before the count 1 is the power −1 (`S^{-1}BS`, a
    /// similarity transform, is no formula of sulfur and boron).
    func isCharge(_ e: NodeID) -> Bool {
        if isSign(e) || isChargeLeaf(e) { return true }
        let items = children(e).map(\.node)
        guard items.count == 2 || items.count == 3 else { return false }
        if items.count == 2, isSign(items[0]), integerValue(items[1]) == 1 { return false }
        return items.contains(where: isSign) && items.contains(where: { integerValue($0) != nil })
    }

    /// Whether `n` is a charge written as one number, text or operator, a count from 2 to 9 and its sign
    /// (`<mn>2+</mn>`, `<mtext>3−</mtext>`, `<mo>2−</mo>`, as publishers' MathML writes an ion's charge).
    /// A sign alone set as a number or text (`<mn>+</mn>`) is a charge so too.
    func isChargeLeaf(_ n: NodeID) -> Bool {
        let k = kind(n)
        guard k == .number || k == .text || k == .operator else { return false }
        return Self.isChargeText(text(n), signAlone: k != .operator)
    }

    /// Whether a leaf's text is a charge: a count from 2 to 9 and its sign (`2−`), or with `signAlone` a sign
    /// alone (`+`). The analysis's leaves (``isChargeLeaf(_:)``) and the row pass's scripts
    /// (``Analyzer/isChargeScript(_:)``) read a charge by this one test.
    static func isChargeText(_ t: String, signAlone: Bool) -> Bool {
        var it = t.unicodeScalars.makeIterator()
        guard let first = it.next() else { return false }
        if isChargeSign(first) { return signAlone && it.next() == nil }
        guard ("2" ... "9").contains(first), let sign = it.next(), it.next() == nil else { return false }
        return isChargeSign(sign)
    }

    /// The signs a charge is written with, as publishers type them: `+`, hyphen-minus, minus sign, en dash.
    static func isChargeSign(_ s: Unicode.Scalar) -> Bool { s == "+" || s == "-" || s == "\u{2212}" || s == "\u{2013}" }

    /// Whether `n` is a charge's sign: `+`, `-` or `−`.
    private func isSign(_ n: NodeID) -> Bool {
        guard let s = soleScalar(n) else { return false }
        return s == "+" || s == "-" || s == "\u{2212}"
    }

    /// A charge as an ion alone carries it: a sign, or a count and then its sign (`+`, `2-`, `3+`). A
    /// negative number (`\mathrm{GeV}^{-2}`) is a power.
    func isIonCharge(_ e: NodeID) -> Bool {
        if isSign(e) || isChargeLeaf(e) { return true }
        let items = children(e)
        guard items.count == 2 else { return false }
        return integerValue(items[0].node) != nil && isSign(items[1].node)
    }
}

extension SemanticTree.Records {
    // MARK: Nuclides, bonds and reactions written as mathematics

    /// Whether pre-scripts on `base` write a nuclide (`{}^{14}_{6}C`, `{}^{6}\mathrm{Li}`): the base an
    /// element symbol (as an identifier or a text), the pre-superscript a mass number A and the
    /// pre-subscript, when written, the element's own atomic number Z, with Z ≤ A ≤ 3Z + 10 (every
    /// known nuclide; `{}^{2}_{1}C`, `{}_{m}C_{j}` and `{}^{n}P` stay pre-scripts); or a particle that
    /// nuclear equations write the same way: the electron and positron `e` (Z = ∓1, A = 0) and the
    /// neutron `n` (Z = 0, A = 1).
    func isNuclide(preSub: NodeID?, preSup: NodeID?, base: NodeID) -> Bool {
        guard let preSup, kind(base) == .identifier || kind(base) == .text else { return false }
        let symbol = text(base)
        let a = integerValue(preSup)
        let z = preSub.flatMap { integerValue($0) ?? negativeIntegerValue($0) }
        if preSub != nil && z == nil { return false }
        switch symbol {
        case "e": return preSub != nil && a == 0 && (z == -1 || z == 1)
        case "n": return preSub != nil && a == 1 && z == 0
        default:
            guard let number = Self.atomicNumbers[symbol], let a, a >= number, a <= 3 * number + 10 else { return false }
            return z == nil || z == number
        }
    }

    /// Whether `items` joined by bonds (`CH_3−CH_2−OH`, `CH_2=CH_2`, `HC≡CH`) read as a structural
    /// formula: every item a part of a formula (a chemical formula, an element, element symbols side by
    /// side such as `OH`, a counted element such as `H_3`), and at least one a chemical formula with a
    /// count (``isChemicalFormula(_:)``), so that differences and equations of letters that happen to
    /// be element symbols (`C - H`, `N = O`, `P_2 - P_3`) stay mathematics.
    func isBondChain<C: Collection>(_ items: C) -> Bool where C.Element == NodeID {
        guard items.count >= 2 else { return false }
        var formula = false
        for n in items {
            if kind(n) == .impliedTimes && has(n, .chemical) { formula = true; continue }
            guard isFormulaPart(n) else { return false }
        }
        return formula
    }

    /// Whether `items` joined by a bond sign only chemistry draws read as a structural formula: the
    /// box-drawing lines publishers set for bonds (`HO─C═C─OH`, `H_2C═CH_2`: U+2500 a single bond,
    /// U+2550 a double bond; OpenStax's Organic Chemistry, textbook sweep 18), which mathematics never
    /// writes. Each item an element, a formula or a formula's part, element symbols set as text, a
    /// chain already read so, or the symbol of a group (`R`, `Ar`, `Nu`, `X`: a capital and at most two
    /// small letters, with a count: `R_2N─C`), or such parts side by side; no formula needed, as ``isBondChain(_:)`` needs one.
    func isDrawnBondChain<C: Collection>(_ items: C) -> Bool where C.Element == NodeID {
        guard items.count >= 2 else { return false }
        func groupSymbol(_ n: NodeID) -> Bool {
            guard kind(n) == .identifier || kind(n) == .text else { return false }
            let u = Array(text(n).unicodeScalars)
            return (1 ... 3).contains(u.count) && ("A" ... "Z").contains(u[0]) && u.dropFirst().allSatisfy { ("a" ... "z").contains($0) }
        }
        func part(_ n: NodeID, _ depth: Int) -> Bool {
            if isFormulaPart(n) || isElementText(n) || groupSymbol(n) { return true }
            guard depth < 4 else { return false }
            switch kind(n) {
            case .infix: return has(n, .chemical)
            case .impliedTimes:
                return has(n, .chemical) || children(n).allSatisfy { $0.role != SemanticRole.item.rawValue || part($0.node, depth + 1) }
            case .subscript, .power: return has(n, .chemical) || child(n, .base).map { part($0, depth + 1) } ?? false
            default: return false
            }
        }
        return items.allSatisfy { part($0, 0) }
    }

    /// An element, a counted or charged element (`H_3`, `Na^+`), or juxtaposed element symbols (`OH`).
    private func isFormulaPart(_ n: NodeID) -> Bool {
        if isElement(n) { return true }
        switch kind(n) {
        case .subscript, .power:
            return chemicalPartOf(n)
        case .impliedTimes:
            for link in children(n) where link.role == SemanticRole.item.rawValue {
                guard isElement(link.node) || chemicalPartOf(link.node) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// Whether a relation's `items` joined by reaction arrows read as a chemical equation: each side a
    /// species or a sum of species (a chemical formula, a nuclide, a counted element, an element, an electron, each
    /// with an integer coefficient or none), and at least one species a formula or a nuclide, so that
    /// arrows between letters (`N \to \infty`, `C \to C`) stay mathematics.
    func isReaction<C: Collection>(_ items: C, equilibrium: Bool = false) -> Bool where C.Element == NodeID {
        guard items.count >= 2 else { return false }
        var strong = false
        func species(_ n: NodeID) -> Bool {
            if kind(n) == .chemicalIsotope || (kind(n) == .prescripts && has(n, .nuclide)) || (kind(n) == .impliedTimes && has(n, .chemical)) { strong = true; return true }
            // A compound or an ion the analysis read alone (`<msub><mtext>BaSO</mtext><mn>4</mn></msub>`, `Ba^{2+}`).
            if (kind(n) == .subscript || kind(n) == .power) && has(n, .chemical) || isComplexIon(n) { strong = true; return true }
            // A formula set as text (`<mtext>KCl</mtext>`): a species, as an element symbol is.
            if isElementText(n) { return true }
            // The electron of a half-reaction (`e^-`, `2 e^-`), with a formula elsewhere.
            if kind(n) == .power, let b = child(n, .base), kind(b) == .identifier || kind(b) == .text, soleScalar(b) == "e",
               let e = child(n, .exponent), let sign = soleScalar(e), sign != "+", Self.isChargeSign(sign) { return true }
            if isElement(n) || ((kind(n) == .subscript || kind(n) == .power) && chemicalPartOf(n)) {
                // Between equilibrium arrows (which mathematics does not draw), a counted word of element
                // symbols is a compound (`2\mathrm{SO}_2 + \mathrm{O}_2 ⇌ 2\mathrm{SO}_3`).
                if equilibrium, kind(n) == .subscript, let b = child(n, .base), isElementWord(b) { strong = true }
                return true
            }
            // A coefficient before a species: `2 H_2 O`, `2 H_2`.
            guard kind(n) == .impliedTimes else { return false }
            let parts = children(n).filter { $0.role == SemanticRole.item.rawValue }.map(\.node)
            guard parts.count >= 2, let c = integerValue(parts[0]), c >= 1 else { return false }
            let rest = parts.dropFirst()
            if rest.count >= 2 {
                guard isChemicalFormula(rest) else { return false }
                strong = true
                return true
            }
            let one = rest[rest.startIndex]
            return kind(one) != .impliedTimes && species(one)
        }
        for side in items {
            if kind(side) == .infix {
                guard let ops = string(side, .operators), ops == "+" else { return false }
                for link in children(side) where link.role == SemanticRole.item.rawValue {
                    guard species(link.node) else { return false }
                }
            } else if !species(side) {
                return false
            }
        }
        return strong
    }
}
