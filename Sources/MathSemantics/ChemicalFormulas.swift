// Chemical formulas written as mathematics (`H_2O`, `[SO_4]^{2-}`): the juxtaposed element symbols
// with counts and charges that the analysis marks `chemical` so rules can read each element by its
// letters ("cap H sub 2 cap O") instead of as variables.

extension SemanticTree.Records {
    /// The symbols of the chemical elements (IUPAC), by which a formula is recognised.
    static let elementSymbols: Set<String> = [
        "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar",
        "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br",
        "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te",
        "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm",
        "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn",
        "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr",
        "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og",
    ]

    /// Whether `n` is an element symbol written as an identifier (`H`, `Cl`).
    func isElement(_ n: NodeID) -> Bool {
        kind(n) == .identifier && Self.elementSymbols.contains(text(n))
    }

    /// Whether juxtaposed `factors` read as a chemical formula: at least two parts, each an element,
    /// an element or a bracketed formula with a count of 2 or more (`H_2`, `(SO_4)_3`) or a charge
    /// (`Na^+`), or a bracketed formula; at least one count or charge, so that a product of letters
    /// that happen to be element symbols (`C O`, `N P`) stays a product; and, besides counted single
    /// letters, a bare element, a two-letter symbol, a group or a charge, so that indexed variables
    /// (`P_1 V_1`, `P_2 V_2`, `x_2 y`) stay mathematics.
    func isChemicalFormula<C: Collection>(_ factors: C) -> Bool where C.Element == NodeID {
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
                    if let b = child(f, .base) { distinctive = kind(b) != .identifier || text(b).unicodeScalars.count > 1 }
                default: distinctive = true
                }
            }
        }
        return counted && distinctive
    }

    /// Whether `n` is a part of a formula (nil if not), and whether it carries a count or charge.
    private func chemicalPart(_ n: NodeID, depth: Int = 0) -> Bool? {
        if depth > 4 { return nil }
        switch kind(n) {
        case .identifier:
            return isElement(n) ? false : nil
        case .subscript:
            guard let b = child(n, .base), let s = child(n, .subscript), let count = integerValue(s), count >= 2,
                  chemicalPart(b, depth: depth + 1) != nil else { return nil }
            return true
        case .power:
            guard let b = child(n, .base), let e = child(n, .exponent), isCharge(e),
                  chemicalPart(b, depth: depth + 1) != nil else { return nil }
            return true
        case .fenced:
            guard let c = child(n, .content), kind(c) == .impliedTimes, has(c, .chemical) else { return nil }
            return true
        default:
            return nil
        }
    }

    /// A charge: `+`, `−`, or a count before or after one (`2+`, `3-`).
    func isCharge(_ e: NodeID) -> Bool {
        func sign(_ n: NodeID) -> Bool {
            guard let s = soleScalar(n) else { return false }
            return s == "+" || s == "-" || s == "\u{2212}"
        }
        if sign(e) { return true }
        let items = children(e).map(\.node)
        guard items.count == 2 || items.count == 3 else { return false }
        return items.contains(where: sign) && items.contains(where: { integerValue($0) != nil })
    }
}
