import MathSyntax

/// Language-independent tables the analysis consults: which names are functions, which symbols are
/// big operators, fences, accents and units. Values are keys for rule files and lexicons, never words.
enum Vocabulary {
    // Character tests switch on Unicode scalars: String equality on non-ASCII text normalises both
    // sides, which made these tables the hottest part of the analysis.

    // MARK: Functions

    /// `function-class` of a named function written as an identifier (`\sin`, `\log`, `\operatorname{…}`
    /// names that are not listed get `named`). ClearSpeak "Trigonometric Functions" and "Logarithms".
    static func functionClass(_ name: String) -> String? {
        switch name {
        case "sin", "cos", "tan", "sec", "csc", "cot", "cosec", "tg", "ctg", "cotg",
             "arcsin", "arccos", "arctan", "arcsec", "arccsc", "arccot", "arctg", "arcctg":
            return "trig"
        case "sinh", "cosh", "tanh", "sech", "csch", "coth", "sh", "ch", "th", "cth",
             "arsinh", "arcosh", "artanh", "arcsinh", "arccosh", "arctanh":
            return "hyperbolic"
        case "log", "lg", "lb": return "log"
        case "ln": return "ln"
        case "exp": return "exp"
        case "det", "dim", "ker", "gcd", "lcm", "deg", "arg", "hom", "Pr", "max", "min", "sup", "inf",
             "sgn", "sign", "tr", "Tr", "rank", "diag", "span", "Re", "Im", "mod", "erf", "Res", "var", "Var",
             "cov", "Cov", "id", "im", "coker", "End", "Aut", "Hom", "Ext", "Tor", "supp", "vol", "arg max",
             "arg min", "argmax", "argmin", "ess sup", "ess inf":
            return "named"
        default:
            return nil
        }
    }

    /// Whether an operator text (`lim`, `lim sup`, …) reads as a limit (ClearSpeak has no section;
    /// the corpus reads "the limit as x approaches 0 of").
    static func isLimitName(_ text: String) -> Bool {
        switch text {
        case "lim", "lim sup", "lim inf", "limsup", "liminf", "inj lim", "proj lim", "injlim", "projlim", "plim":
            return true
        default:
            return false
        }
    }

    // MARK: Big operators

    /// The `operator-name` of a large operator symbol and, for integrals, how many differentials it
    /// binds (0 for operators that are not integrals).
    static func bigOperator(_ text: String) -> (name: String, integrals: Int)? {
        guard let u = text.soleScalar else { return nil }
        switch u {
        case "∑", "⅀": return ("sum", 0)
        case "∏": return ("product", 0)
        case "∐": return ("coproduct", 0)
        case "⋃": return ("union", 0)
        case "⋂": return ("intersection", 0)
        case "⨁": return ("direct-sum", 0)
        case "⨂": return ("tensor-product", 0)
        case "⨀": return ("circled-dot", 0)
        case "⨄": return ("multiset-union", 0)
        case "⨆": return ("square-union", 0)
        case "⨅": return ("square-intersection", 0)
        case "⋁": return ("join", 0)
        case "⋀": return ("meet", 0)
        case "∫": return ("integral", 1)
        case "∬": return ("double-integral", 2)
        case "∭": return ("triple-integral", 3)
        case "⨌": return ("quadruple-integral", 4)
        case "∮": return ("contour-integral", 1)
        case "∯": return ("surface-integral", 2)
        case "∰": return ("volume-integral", 3)
        case "∱", "∲": return ("clockwise-integral", 1)
        case "∳": return ("counterclockwise-integral", 1)
        default: return nil
        }
    }

    // MARK: Fences

    /// Opening fence characters and the closing characters each may pair with (the first is the
    /// natural partner). `(` and `[` also take `]`/`)`: mismatched pairs are interval candidates
    /// (ClearSpeak "Parentheses", Paren_Interval).
    static func closers(of open: String) -> [Unicode.Scalar]? {
        guard let u = open.soleScalar else { return nil }
        switch u {
        case "(": return [")", "]"]
        case "[": return ["]", ")"]
        case "{": return ["}"]
        case "⟨", "\u{2329}", "\u{3008}": return ["⟩", "\u{232A}", "\u{3009}", "|"]
        case "⌊": return ["⌋"]
        case "⌈": return ["⌉"]
        case "⟦": return ["⟧"]
        case "⦃": return ["⦄"]
        case "⟪": return ["⟫"]
        case "|": return ["|", "⟩", "\u{232A}", "\u{3009}"]
        case "‖": return ["‖"]
        default: return nil
        }
    }

    /// Characters that close a fence.
    static func isCloser(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        switch u {
        case ")", "]", "}", "⟩", "\u{232A}", "\u{3009}", "⌋", "⌉", "⟧", "⦄", "⟫": return true
        default: return false
        }
    }

    /// Characters that open or close depending on context (`|x|`, `‖v‖`).
    static func isBar(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        return u == "|" || u == "‖"
    }

    /// Normalised angle bracket.
    static func isAngleOpen(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        return u == "⟨" || u == "\u{2329}" || u == "\u{3008}"
    }
    static func isAngleClose(_ text: String) -> Bool {
        guard let u = text.soleScalar else { return false }
        return u == "⟩" || u == "\u{232A}" || u == "\u{3009}"
    }

    // MARK: Accents

    /// The `accent-name` of an accent character over (`over == true`) or under a base. `stretchy`
    /// tells `\overline` (wide, stretchy ‾) from `\bar` (¯).
    static func accentName(_ text: String, over: Bool, stretchy: Bool) -> String? {
        // Every accent is one character: compare scalars, not strings (a string switch compares
        // each case by canonical equivalence, slowly for combining marks).
        guard let u = text.soleScalar else { return nil }
        if over {
            switch u {
            case "¯", "ˉ", "\u{0304}": return "bar"
            case "‾", "\u{0305}": return stretchy ? "overline" : "bar"
            case "^", "ˆ", "\u{0302}": return "hat"
            case "→", "\u{20D7}", "⟶": return "vector"
            case "←", "⟵": return "left-arrow"
            case "↔", "⟷": return "left-right-arrow"
            case "⇀": return "right-harpoon"
            case "↼": return "left-harpoon"
            case "˙", "\u{0307}", ".": return "dot"
            case "¨", "\u{0308}": return "double-dot"
            case "\u{20DB}": return "triple-dot"
            case "~", "˜", "\u{0303}", "∼": return "tilde"
            case "ˇ", "\u{030C}": return "check"
            case "˘", "\u{0306}": return "breve"
            case "´", "ˊ", "\u{0301}": return "acute"
            case "`", "ˋ", "\u{0300}": return "grave"
            case "˚", "\u{030A}", "∘": return "ring"
            case "⏞", "︷": return "overbrace"
            case "⎴": return "overbracket"
            case "⏜", "⌢": return "overparen"
            case "⏠": return "overgroup"
            default: return nil
            }
        } else {
            switch u {
            case "‾", "¯", "_", "\u{0332}": return "underline"
            case "~", "˜", "∼": return "under-tilde"
            case "←", "⟵": return "under-left-arrow"
            case "→", "⟶": return "under-right-arrow"
            case "↔", "⟷": return "under-left-right-arrow"
            case "⏟", "︸": return "underbrace"
            case "⎵": return "underbracket"
            case "⏝", "⌣": return "underparen"
            case "⏡": return "undergroup"
            case ".", "˙": return "under-dot"
            default: return nil
            }
        }
    }

    // MARK: Units

    /// The normalised key of a unit written as a symbol (`cm`, `kg`, `m/s`) or spelled out
    /// (`meters` → `m`). Keys are unit symbols; a lexicon turns them into words.
    static func unitKey(_ text: String, spelledOnly: Bool = false) -> String? {
        if !spelledOnly, let key = unitSymbols[text] { return key }
        let lower = text.lowercased()
        if let key = spelledUnits[lower] { return key }
        if lower.hasSuffix("s"), let key = spelledUnits[String(lower.dropLast())] { return key }
        if lower.hasSuffix("es"), let key = spelledUnits[String(lower.dropLast(2))] { return key }
        return nil
    }

    /// Unit symbols, mapped to their keys (the symbol itself, µ spellings folded).
    static let unitSymbols: SemanticProperties = {
        var table: SemanticProperties = [:]
        for symbol in [
            "m", "cm", "mm", "km", "nm", "pm", "dm", "in", "ft", "yd", "mi",
            "g", "kg", "mg", "t", "lb", "oz",
            "s", "ms", "ns", "min", "h", "hr", "d", "yr",
            "L", "l", "mL", "ml", "cL", "dL",
            "N", "kN", "J", "kJ", "MJ", "eV", "keV", "MeV", "GeV", "TeV", "cal", "kcal",
            "W", "kW", "MW", "GW", "mW", "Pa", "kPa", "MPa", "GPa", "hPa", "bar", "atm",
            "Hz", "kHz", "MHz", "GHz", "V", "kV", "mV", "A", "mA", "K", "mol", "mmol",
            "Ω", "C", "F", "T", "Wb", "H", "lm", "lx", "cd", "Bq", "Gy", "Sv", "dB", "rad", "sr",
            "m/s", "km/h", "mi/h", "mph", "m/s^2", "kWh", "ha",
        ] {
            table[symbol] = symbol
        }
        for (micro, key) in [("μm", "µm"), ("µm", "µm"), ("μs", "µs"), ("µs", "µs"), ("μg", "µg"), ("µg", "µg"),
                             ("μL", "µL"), ("µL", "µL"), ("μA", "µA"), ("µA", "µA")] {
            table[micro] = key
        }
        return table
    }()

    /// Spelled-out unit names (singular, lower case) and their keys.
    static let spelledUnits: SemanticProperties = [
        "meter": "m", "metre": "m", "centimeter": "cm", "centimetre": "cm", "millimeter": "mm", "millimetre": "mm",
        "kilometer": "km", "kilometre": "km", "nanometer": "nm", "inch": "in", "inche": "in", "foot": "ft", "feet": "ft",
        "yard": "yd", "mile": "mi", "gram": "g", "kilogram": "kg", "milligram": "mg", "tonne": "t", "pound": "lb",
        "ounce": "oz", "second": "s", "millisecond": "ms", "minute": "min", "hour": "h", "day": "d", "year": "yr",
        "liter": "L", "litre": "L", "milliliter": "mL", "millilitre": "mL", "newton": "N", "joule": "J",
        "watt": "W", "kilowatt": "kW", "pascal": "Pa", "hertz": "Hz", "volt": "V", "ampere": "A", "amp": "A",
        "kelvin": "K", "mole": "mol", "ohm": "Ω", "coulomb": "C", "calorie": "cal", "kilocalorie": "kcal",
        "degree": "deg", "radian": "rad",
    ]
}

extension String {
    /// The only Unicode scalar of a one-scalar string, nil otherwise.
    var soleScalar: Unicode.Scalar? {
        var it = unicodeScalars.makeIterator()
        guard let first = it.next(), it.next() == nil else { return nil }
        return first
    }
}
