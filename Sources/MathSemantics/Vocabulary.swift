import MathSyntax

/// Language-independent tables the analysis consults: which names are functions, which symbols are
/// big operators, fences, accents and units. Values are keys for rule files and lexicons, never words.
package enum Vocabulary {
    // Character tests switch on Unicode scalars: String equality on non-ASCII text normalises both
    // sides, which made these tables the hottest part of the analysis.

    // MARK: Functions

    /// `function-class` of a named function written as an identifier (`\sin`, `\log`, `\operatorname{…}`
    /// names that are not listed get `named`). ClearSpeak "Trigonometric Functions" and "Logarithms".
    static func functionClass(_ name: String) -> PropertyAtom? {
        let c = nameClass(name)
        return c == .limit ? nil : c
    }

    /// Whether an operator text (`lim`, `lim sup`, …) reads as a limit (ClearSpeak has no section;
    /// the corpus reads "the limit as x approaches 0 of").
    static func isLimitName(_ text: String) -> Bool {
        nameClass(text) == .limit
    }

    /// ``functionClass(_:)`` and ``isLimitName(_:)`` in one lookup: `limit` for a limit name, the
    /// function class of a function name, nil for other names.
    static func nameClass(_ name: String) -> PropertyAtom? {
        guard let key = packed(name) else { return nil }
        return find(key, in: names)
    }

    /// The names of functions with their classes and the limit names (class `limit`), sorted by
    /// packed name (``packed(_:)``).
    private static let names: [(UInt64, PropertyAtom)] = table([
        (.trig, ["sin", "cos", "tan", "sec", "csc", "cot", "cosec", "tg", "ctg", "cotg",
                 "arcsin", "arccos", "arctan", "arcsec", "arccsc", "arccot", "arctg", "arcctg"]),
        (.hyperbolic, ["sinh", "cosh", "tanh", "sech", "csch", "coth", "sh", "ch", "th", "cth",
                       "arsinh", "arcosh", "artanh", "arcsinh", "arccosh", "arctanh"]),
        (.log, ["log", "lg", "lb"]),
        (.ln, ["ln"]),
        (.exp, ["exp"]),
        (.named, ["det", "dim", "Dim", "ker", "gcd", "lcm", "deg", "arg", "hom", "Pr", "max", "min", "sup", "inf",
                  "sgn", "sign", "tr", "Tr", "rank", "diag", "span", "Re", "Im", "mod", "erf", "Res", "var", "Var",
                  "cov", "Cov", "id", "im", "coker", "End", "Aut", "Hom", "Ext", "Tor", "supp", "vol", "arg max",
                  "arg min", "argmax", "argmin", "ess sup", "ess inf"]),
        (.limit, ["lim", "lim sup", "lim inf", "limsup", "liminf", "inj lim", "proj lim", "injlim", "projlim", "plim"]),
    ], spellings: spellings)

    /// The names other languages' schools spell otherwise, and the name each spelling is: the sine as Spanish,
    /// Portuguese, Catalan and Italian write it (`sen`, `senh`, `arcsen`; OpenStax's Spanish calculus books set 2,099
    /// of them, textbook sweep 17) and the limit with the accent the RAE writes (`lím`). The analysis classes each as
    /// its name (the table above takes them from here); a locale without words for the spelling says its words for the
    /// name (``Lexicon``).
    private static let spellings: [String: String] = [
        "sen": "sin", "arcsen": "arcsin", "senh": "sinh", "senoh": "sinh", "arcsenh": "arcsinh", "argsenh": "arsinh",
        "lím": "lim",
    ]

    /// The name `spelling` spells (``spellings``), nil for any other text.
    package static func name(spelled spelling: String) -> String? { spellings[spelling] }

    /// Whether a function of this name takes a set (`\max\{a, b\}`, `\inf\{x : f(x) > 0\}`): braces after
    /// it are a set, where after another function's name (`\exp\{-x^2\}`) they group its argument.
    static func takesSet(_ name: String) -> Bool {
        switch name {
        case "max", "min", "sup", "inf", "arg max", "arg min", "argmax", "argmin", "ess sup", "ess inf", "gcd", "lcm",
             "span", "card": return true
        default: return false
        }
    }

    /// The UTF-8 bytes of a short ASCII name (at most 8 bytes, no NUL) as one integer, so a table
    /// lookup compares integers instead of strings (an ASCII string equals another exactly when their
    /// bytes do). Nil for other strings, which no table holds.
    static func packed(_ s: String) -> UInt64? {
        let utf8 = s.utf8
        guard utf8.count <= 8 else { return nil }
        // The bytes in place: iterating the UTF-8 view costs several times more.
        return utf8.withContiguousStorageIfAvailable(packed) ?? Array(utf8).withUnsafeBufferPointer(packed)
    }

    /// ``packed(_:)`` of UTF-8 bytes (at most 8).
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var v: UInt64 = 0
        for c in bytes {
            guard c != 0 else { return nil }
            v = v << 8 | UInt64(c)
        }
        return v
    }

    /// A lookup table of names by packed name, sorted for ``find(_:in:)``.
    private static func table(_ groups: [(PropertyAtom, [String])], spellings: [String: String] = [:]) -> [(UInt64, PropertyAtom)] {
        var entries: [(UInt64, PropertyAtom)] = []
        for (atom, names) in groups {
            for name in names { entries.append((packed(name)!, atom)) }
            // A spelling of a name has the name's class.
            for (spelling, name) in spellings where names.contains(name) { entries.append((packed(spelling)!, atom)) }
        }
        return entries.sorted { $0.0 < $1.0 }
    }

    /// Binary search of a sorted table.
    private static func find(_ key: UInt64, in table: [(UInt64, PropertyAtom)]) -> PropertyAtom? {
        table.withUnsafeBufferPointer { entries in
            var lo = 0, hi = entries.count
            while lo < hi {
                let mid = (lo &+ hi) >> 1
                let k = entries[mid].0
                if k == key { return entries[mid].1 }
                if k < key { lo = mid &+ 1 } else { hi = mid }
            }
            return nil
        }
    }

    // MARK: Big operators

    /// The `operator-name` of a large operator symbol and, for integrals, how many differentials it
    /// binds (0 for operators that are not integrals).
    static func bigOperator(_ text: String) -> (name: PropertyAtom, integrals: Int)? {
        bigOperator(text.soleScalar)
    }

    /// The n-ary form of a binary operator written where a large operator belongs (with limits under and
    /// over it, or before its operand with nothing to its left): `∩` for `⋂`, `∪` for `⋃`, `⊕` for `⨁`…
    static func naryForm(_ u: Unicode.Scalar?) -> Unicode.Scalar? {
        switch u {
        case "∩": return "⋂"
        case "∪": return "⋃"
        case "⊕": return "⨁"
        case "⊗": return "⨂"
        case "⊙": return "⨀"
        case "⊎": return "⨄"
        case "⊔": return "⨆"
        case "⊓": return "⨅"
        case "∨": return "⋁"
        case "∧": return "⋀"
        default: return nil
        }
    }

    /// The `operator-name` and integral count of a large operator given by its sole scalar.
    static func bigOperator(_ u: Unicode.Scalar?) -> (name: PropertyAtom, integrals: Int)? {
        switch u {
        case "∑", "⅀": return (.sum, 0)
        case "∏": return (.product, 0)
        case "∐": return (.coproduct, 0)
        case "⋃": return (.union, 0)
        case "⋂": return (.intersection, 0)
        case "⨁": return (.directSum, 0)
        case "⨂": return (.tensorProduct, 0)
        case "⨀": return (.circledDot, 0)
        case "⨄": return (.multisetUnion, 0)
        case "⨆": return (.squareUnion, 0)
        case "⨅": return (.squareIntersection, 0)
        case "⋁": return (.join, 0)
        case "⋀": return (.meet, 0)
        case "∫": return (.integral, 1)
        case "∬": return (.doubleIntegral, 2)
        case "∭": return (.tripleIntegral, 3)
        case "⨌": return (.quadrupleIntegral, 4)
        case "∮": return (.contourIntegral, 1)
        case "∯": return (.surfaceIntegral, 2)
        case "∰": return (.volumeIntegral, 3)
        case "∱", "∲": return (.clockwiseIntegral, 1)
        case "∳": return (.counterclockwiseIntegral, 1)
        default: return nil
        }
    }

    // MARK: Fences

    /// Whether a character opens a fence (``closes(_:_:)`` says which characters close it).
    static func isOpener(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "(", "[", "{", "⟨", "\u{2329}", "\u{3008}", "⌊", "⌈", "⟦", "⦃", "⟪": return true
        default: return isBar(u)
        }
    }

    /// Whether `close` may close the fence `open` opened. `(` and `[` also take `]`/`)`: mismatched
    /// pairs are interval candidates (ClearSpeak "Parentheses", Paren_Interval).
    static func closes(_ open: Unicode.Scalar, _ close: Unicode.Scalar) -> Bool {
        switch open {
        case "(", "[": return close == ")" || close == "]"
        case "{": return close == "}"
        case "⟨", "\u{2329}", "\u{3008}": return close == "⟩" || close == "\u{232A}" || close == "\u{3009}" || close == "|"
        case "⌊": return close == "⌋"
        case "⌈": return close == "⌉"
        case "⟦": return close == "⟧"
        case "⦃": return close == "⦄"
        case "⟪": return close == "⟫"
        case "|": return close == "|" || close == "⟩" || close == "\u{232A}" || close == "\u{3009}"
        default: return isBar(open) && close == open
        }
    }

    /// Characters that close a fence.
    static func isCloser(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case ")", "]", "}", "⟩", "\u{232A}", "\u{3009}", "⌋", "⌉", "⟧", "⦄", "⟫": return true
        default: return false
        }
    }

    /// The superscripts that transpose what they follow: the letter T and the signs ⊤, ⊺, ᵀ (`A^T`, `M^\top`).
    static func isTransposeMark(_ u: Unicode.Scalar?) -> Bool {
        u == "T" || u == "⊤" || u == "⊺" || u == "ᵀ"
    }

    /// Marks written as a superscript for the adjoint, conjugate or transpose of what they follow
    /// (`A^\dagger`, `z^*`, `M^\top`): never a limit or an exponent to evaluate at.
    static func isAdjointMark(_ u: Unicode.Scalar?) -> Bool {
        u == "†" || u == "‡" || u == "*" || u == "∗" || u == "⋆" || u == "⊤"
    }

    /// Characters that open or close depending on context (`|x|`, `‖v‖`): the single bars | ｜ ¦
    /// and the double and triple bars ‖ ∥ ⫴ ⦀. A bar pairs only with the same character.
    static func isBar(_ u: Unicode.Scalar) -> Bool {
        isSingleBar(u) || isDoubleBar(u)
    }

    /// Bars that pair around an absolute value. The divides sign ∣ (`\mid`) is a relation unless it
    /// pairs, as publishers' MathML sets absolute values with it (`<mo>∣</mo><mi>x</mi><mo>∣</mo>`: it was
    /// "divides x divides").
    static func isSingleBar(_ u: Unicode.Scalar) -> Bool {
        u == "|" || u == "\u{FF5C}" || u == "\u{00A6}" || u == "\u{2223}"
    }

    /// Bars that are relations unless they pair: ∣ (divides, given) around an absolute value, ∥ and ⫴
    /// (parallel to) around a norm.
    static func isRelationBar(_ u: Unicode.Scalar) -> Bool {
        u == "\u{2223}" || u == "\u{2225}" || u == "\u{2AF4}"
    }

    /// Bars that pair around a norm.
    static func isDoubleBar(_ u: Unicode.Scalar) -> Bool {
        u == "‖" || u == "\u{2225}" || u == "\u{2AF4}" || u == "\u{2980}"
    }

    /// Normalised angle bracket.
    static func isAngleOpen(_ u: Unicode.Scalar) -> Bool {
        u == "⟨" || u == "\u{2329}" || u == "\u{3008}"
    }
    static func isAngleClose(_ u: Unicode.Scalar) -> Bool {
        u == "⟩" || u == "\u{232A}" || u == "\u{3009}"
    }

    // MARK: Accents

    /// The `accent-name` of an accent character over (`over == true`) or under a base. `stretchy`
    /// tells `\overline` (wide, stretchy ‾) from `\bar` (¯).
    static func accentName(_ text: String, over: Bool, stretchy: Bool) -> PropertyAtom? {
        // Every accent is one character: compare scalars, not strings (a string switch compares
        // each case by canonical equivalence, slowly for combining marks).
        guard let u = text.soleScalar else { return nil }
        if over {
            switch u {
            case "¯", "ˉ", "\u{0304}": return stretchy ? .overline : .bar  // MathML writes \overline with a stretchy ¯
            case "‾", "\u{0305}": return stretchy ? .overline : .bar
            case "^", "ˆ", "\u{0302}": return .hat
            case "→", "\u{20D7}", "⟶": return .vector
            case "←", "⟵": return .leftArrow
            case "↔", "⟷": return .leftRightArrow
            case "⇀": return .rightHarpoon
            case "↼": return .leftHarpoon
            case "˙", "\u{0307}", ".": return .dot
            case "¨", "\u{0308}": return .doubleDot
            case "\u{20DB}": return .tripleDot
            case "~", "˜", "\u{0303}", "∼": return .tilde
            case "ˇ", "\u{030C}": return .check
            case "˘", "\u{0306}": return .breve
            case "´", "ˊ", "\u{0301}": return .acute
            case "`", "ˋ", "\u{0300}": return .grave
            case "˚", "\u{030A}", "∘": return .ring
            case "⏞", "︷": return .overbrace
            case "⎴": return .overbracket
            case "⏜", "⌢": return .overparen
            case "⏠": return .overgroup
            default: return nil
            }
        } else {
            switch u {
            case "‾", "¯", "_", "\u{0332}": return .underline
            case "~", "˜", "∼": return .underTilde
            case "←", "⟵": return .underLeftArrow
            case "→", "⟶": return .underRightArrow
            case "↔", "⟷": return .underLeftRightArrow
            case "⏟", "︸": return .underbrace
            case "⎵": return .underbracket
            case "⏝", "⌣": return .underparen
            case "⏡": return .undergroup
            case ".", "˙": return .underDot
            default: return nil
            }
        }
    }

    // MARK: Units

    /// The normalised key of a unit written as a symbol (`cm`, `kg`, `m/s`: ``UnitSymbols/writtenKey(_:)``)
    /// or, by `names`, spelled out in the speaking language (`meters` → `m`). Keys are unit symbols; a
    /// lexicon turns them into words.
    static func unitKey(_ text: String, names: UnitNames) -> String? {
        UnitSymbols.unmarkedKey(text) ?? names.key(text)
    }

}

extension String {
    /// The only Unicode scalar of a one-scalar string, nil otherwise.
    @inline(__always)
    var soleScalar: Unicode.Scalar? {
        // Inline: a call cost a third of it in saved registers (`MathAloudBench stages` under callgrind).
        // The scalar iterator is the cheapest way into a short string (cheaper than its UTF-8 count).
        var it = unicodeScalars.makeIterator()
        guard let first = it.next(), it.next() == nil else { return nil }
        return first
    }

    /// Whether the string holds the ASCII character `byte` (looked for in its UTF-8 bytes, where an
    /// ASCII byte is always that character: no scalar is decoded).
    func containsASCII(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }

    /// Whether the string has two or more Unicode scalars.
    @inline(__always)
    var hasSeveralScalars: Bool {
        var it = unicodeScalars.makeIterator()
        return it.next() != nil && it.next() != nil
    }

    /// The one scalar the string repeats, spaces aside, and how many times (`"___"` is `_` three times, a
    /// line or a blank drawn with a character); nil for a string of spaces or of two different scalars.
    var repeatedScalar: (scalar: Unicode.Scalar, count: Int)? {
        var found: Unicode.Scalar?
        var count = 0
        for u in unicodeScalars where !u.isSpace {
            if let found, found != u { return nil }
            found = u
            count += 1
        }
        return found.map { ($0, count) }
    }
}

extension Unicode.Scalar {
    /// `properties.isWhitespace` (Unicode White_Space, PropList.txt: a fixed list of 25 code points),
    /// answered without the property tables: the table look-up cost ~320 instructions a call, 6 % of
    /// the semantics stage when every operator's text was tested (`MathAloudBench semantics-profile`,
    /// BENCHMARKS.md session 8).
    @inline(__always) var isSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// `properties.isAlphabetic`, answered for ASCII (the letters A–Z, a–z) without the property tables
    /// (~320 instructions a look-up).
    @inline(__always) var isAlphabeticScalar: Bool {
        value < 0x80 ? ((value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A) : properties.isAlphabetic
    }

    /// Whether `properties.numericType` is set, answered for ASCII (the digits) without the property tables.
    @inline(__always) var hasNumericType: Bool {
        value < 0x80 ? (value >= 0x30 && value <= 0x39) : properties.numericType != nil
    }

    /// Whether the scalar is a currency sign (Unicode general category Sc); in ASCII only `$` is.
    @inline(__always) var isCurrencySign: Bool {
        guard Unicode.Scalar.mayBeCurrencySign(value) else { return false }
        // Below U+0100 the test is exact (the dollar, cent, pound, currency and yen signs).
        return value < 0x100 || properties.generalCategory == .currencySymbol
    }

    /// ``isCurrencySign`` of the scalar `value` without the look-up of the property table: false where
    /// that is false, true where it would look. Exact below U+0100; Latin-1 and the Latin, Greek and
    /// Cyrillic letters before the first currency sign beyond it (֏ U+058F), general punctuation, the
    /// letterlike, arrow and operator blocks and the mathematical alphanumerics hold no currency sign
    /// (category Sc): the letters and operators of formulas skip the property table look-up (~180
    /// instructions, `MathAloudBench semantics-profile` under callgrind), and an operator (± × · ′ −) is
    /// not taken for a currency written before its amount.
    @inline(__always) static func mayBeCurrencySign(_ value: UInt32) -> Bool {
        if value < 0x100 { return value == 0x24 || (value >= 0xA2 && value <= 0xA5) }
        switch value {
        case 0x0100...0x058E, 0x2000...0x209F, 0x20D0...0x2BFF, 0x1D400...0x1D7FF: return false
        default: return true
        }
    }
}
