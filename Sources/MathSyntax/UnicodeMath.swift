/// The styled letters and digits of Unicode: the Mathematical Alphanumeric Symbols (U+1D400–U+1D7FF)
/// with the Letterlike Symbols that fill its reserved holes, the other letterlike letters (ℓ ℘ ⅅ ⅀),
/// enclosed letters and numbers (Ⓐ ⑴ ⒈ ❶ ⓵ 🄰 🅐 🅰 ㉑), superscripts and subscripts (⁷ ₁ ᵃ), the fullwidth
/// forms (Ａ ０ ＋) and a few more (segmented digits, turned capitals).
///
/// A styled character such as `𝑥` is a plain letter (`x`) drawn from one alphabet (`italic`). The
/// table is generated from the Unicode Character Database by `scripts/generate-alphabets.py` into
/// `UnicodeAlphabets.swift` (decomposition mappings `<font>`, `<circle>`, `<square>`, `<super>`,
/// `<sub>`, `<wide>`, `<compat>`, and the character names for the font; see the script): it is data,
/// not a hand list. ``alphabet(of:)`` gives any character's font and base; ``decompose(_:)`` and
/// ``styled(_:_:)`` convert between a letter in a MathML `mathvariant` and *the* character for it.
public enum UnicodeMath {
    /// Splits a styled mathematical letter or digit into its plain character and its alphabet.
    ///
    /// `𝑥` → (`x`, ``MathVariant/italic``), `ℝ` → (`R`, ``MathVariant/doubleStruck``),
    /// `𝜶` → (`α`, ``MathVariant/boldItalic``), `𝟙` → (`1`, ``MathVariant/doubleStruck``).
    /// Only *the* character of a letter in a MathML alphabet decomposes (``Alphabet/canonical``): the
    /// block's letters and digits, the Letterlike letters that fill its reserved holes (ℎ ℬ ℰ ℱ ℋ ℐ ℒ ℳ ℛ
    /// ℯ ℊ ℴ ℭ ℌ ℑ ℜ ℨ ℂ ℍ ℕ ℙ ℚ ℝ ℤ) and the double-struck Greek ℽ ℼ ℾ ℿ. ℓ and ℘ (the block has 𝓁 and 𝒫),
    /// the double-struck italic ⅅ ⅆ ⅇ ⅈ ⅉ (no MathML alphabet; they stand for the differential d, e and i)
    /// and ⅀ (an operator) are symbols of their own here; ``alphabet(of:)`` still gives their parts.
    /// Returns nil for every other character, including plain letters and reserved code points.
    public static func decompose(_ scalar: Unicode.Scalar) -> (base: Unicode.Scalar, variant: MathVariant)? {
        guard let i = index(of: scalar.value) else { return nil }
        let code = styledCodes[i]
        guard code & canonicalBit != 0, code & multipleBit == 0, let base = Unicode.Scalar(code & baseMask),
              let variant = fontVariants[Int(code >> fontShift & fontMask)] else { return nil }
        return (base, variant)
    }

    /// Whether a letter is set italic when no alphabet is given, as TeX sets math letters (and as
    /// MathAloud draws them): Latin letters, lowercase Greek with its variant forms (ϑ ϕ ϖ ϰ ϱ ϵ), ∂
    /// and the dotless ı ȷ. Greek capitals are upright. For these an italic styled character (`𝑥`,
    /// `𝜕`) is the plain letter; for others (`𝛤`, `𝛻`) italic is an alphabet of its own.
    public static func isItalicByDefault(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x3B1...0x3C9, 0x3D1, 0x3D5, 0x3D6, 0x3F0, 0x3F1, 0x3F5, 0x2202, 0x131, 0x237:
            return true
        default:
            return false
        }
    }

    /// Font number → MathML `mathvariant` (nil for fonts MathML lacks).
    private static let fontVariants: [MathVariant?] = fontNames.map(MathVariant.init(rawValue:))

    /// The styled character for a plain letter or digit in an alphabet: (`x`, ``MathVariant/bold``)
    /// → `𝐱`, (`R`, ``MathVariant/doubleStruck``) → `ℝ`. The inverse of ``decompose(_:)``.
    ///
    /// ``MathVariant/normal`` returns the scalar unchanged. Returns nil where Unicode has no such
    /// character (e.g. a script digit or a fraktur Greek letter).
    public static func styled(_ scalar: Unicode.Scalar, _ variant: MathVariant) -> Unicode.Scalar? {
        if variant == .normal { return scalar }
        return canonicalStyled[Key(base: scalar.value, variant: variant)].flatMap(Unicode.Scalar.init)
    }

    /// A styled character's parts: its font or enclosure and its plain letter, digit or number.
    public struct Alphabet: Hashable, Sendable {
        /// The plain letter, digit or number: `A` for `𝐀` and `Ⓐ`, `α` for `𝜶`, `21` for `㉑`, `+` for `＋`,
        /// `C D` (spelled) for `🄭`.
        public let base: String
        /// The font or enclosure: a MathML `mathvariant` name where MathML has the alphabet (`bold`,
        /// `double-struck`, `bold-sans-serif`, `script`, `italic`), else the character names' words
        /// (`circled`, `negative-circled`, `double-circled`, `circled-sans-serif`, `parenthesized`,
        /// `full-stop`, `comma`, `squared`, `negative-squared`, `double-struck-italic`, `superscript`,
        /// `subscript`, `fullwidth`, `turned`, …): see `UnicodeAlphabets.swift` for the list.
        public let font: String
        /// Whether the character is the one for its base in its MathML alphabet (`𝓁` is, `ℓ` is not:
        /// see ``decompose(_:)``).
        public let canonical: Bool
        /// The MathML `mathvariant` of the font, when MathML has the alphabet.
        public var variant: MathVariant? { MathVariant(rawValue: font) }
    }

    /// The font and base of any styled letter, digit or number of the table: `𝐀` → (`A`, `bold`),
    /// `Ⓐ` → (`A`, `circled`), `⒉` → (`2`, `full-stop`), `㉑` → (`21`, `circled`), `ℓ` → (`l`, `script`),
    /// `⁷` → (`7`, `superscript`), `Ａ` → (`A`, `fullwidth`). Nil for plain characters and symbols.
    public static func alphabet(of scalar: Unicode.Scalar) -> Alphabet? {
        guard let i = index(of: scalar.value) else { return nil }
        let code = styledCodes[i]
        let base = code & multipleBit != 0 ? multipleBases[Int(code & baseMask)]
            : String(Character(Unicode.Scalar(code & baseMask) ?? " "))
        return Alphabet(base: base, font: fontNames[Int(code >> fontShift & fontMask)], canonical: code & canonicalBit != 0)
    }

    /// A Latin letter and the accent TeX would set over it, for a letter written with a combining accent or as one
    /// precomposed character (`ŷ` is y and U+0302 by canonical decomposition): circumflex (hat), macron (bar),
    /// tilde, dot, diaeresis (double dot) and caron (check), as the spacing characters `\hat`, `\bar`, `\tilde`,
    /// `\dot`, `\ddot` and `\check` write over a letter. Nil for other text: letters with other marks (`é`) are
    /// letters of a language.
    package static func letterAndAccent(_ text: String) -> (String, String)? {
        // Most identifiers are ASCII: nothing to decompose.
        guard text.utf8.contains(where: { $0 >= 0x80 }), text.unicodeScalars.count <= 2 else { return nil }
        let scalars = Array(text.decomposedStringWithCanonicalMapping.unicodeScalars)
        guard scalars.count == 2, scalars[0].isASCII, scalars[0].properties.isAlphabetic else { return nil }
        let accent: String
        switch scalars[1] {
        case "\u{0302}": accent = "^"
        case "\u{0304}": accent = "\u{AF}"
        case "\u{0303}": accent = "~"
        case "\u{0307}": accent = "\u{2D9}"
        case "\u{0308}": accent = "\u{A8}"
        case "\u{030C}": accent = "\u{2C7}"
        default: return nil
        }
        return (String(scalars[0]), accent)
    }

    /// A leaf's text with its styled letters and digits made plain, as the front ends read them: the
    /// characters of one MathML alphabet become their plain letters and that alphabet (`𝐬𝐢𝐧` → `sin`,
    /// ``MathVariant/bold``; `𝟏𝟐` → `12`), and the fullwidth forms their ASCII characters (`Ａ` → `A`,
    /// `＋` → `+`: the same characters at the width of CJK text). Other characters, the enclosed and
    /// non-canonical ones (`Ⓐ`, `ℓ`) included, are kept. Nil when nothing changes, or when the styled
    /// characters are of several alphabets (kept as written); `variant` is nil when only fullwidth forms
    /// were narrowed.
    public static func plainLetters(_ text: String) -> (text: String, variant: MathVariant?)? {
        // Styled characters are all outside ASCII; the fullwidth forms and the alphabets start with a
        // lead byte of 0xEF or 0xF0.
        guard text.utf8.contains(where: { $0 >= 0xE2 }) else { return nil }
        var scalars = String.UnicodeScalarView()
        var variant: MathVariant? = nil
        var changed = false
        for u in text.unicodeScalars {
            if u.value >= 0xFF01 && u.value <= 0xFF5E {
                scalars.append(Unicode.Scalar(u.value - 0xFEE0)!)
                changed = true
            } else if let (base, v) = decompose(u) {
                if let variant, variant != v { return nil }
                variant = v
                scalars.append(base)
                changed = true
            } else {
                scalars.append(u)
            }
        }
        return changed ? (String(scalars), variant) : nil
    }

    /// The position of `value` in ``styledScalars`` (binary search), or nil.
    @inline(__always)
    private static func index(of value: UInt32) -> Int? {
        // Below the first styled character (¹ ² ³ ª) nothing is: most letters are answered here.
        if value < 0xAA { return nil }
        // Most other characters met (Greek letters, operators, arrows) are in a block of 256 with no
        // styled character: answered by one bit, without the search (`MathAloudBench stages` under
        // callgrind: the search cost ~70 instructions a styled-text check).
        let page = Int(value >> 8)
        if styledPages[page >> 6] & (1 << UInt64(page & 63)) == 0 { return nil }
        var low = 0, high = styledScalars.count
        while low < high {
            let mid = (low + high) >> 1
            let v = styledScalars[mid]
            if v == value { return mid }
            if v < value { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// One bit for each block of 256 code points, set when the block holds a character of
    /// ``styledScalars``.
    private static let styledPages: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 0x11_0000 >> 14)
        for v in styledScalars {
            let page = Int(v >> 8)
            bits[page >> 6] |= 1 << UInt64(page & 63)
        }
        return bits
    }()

    /// The fields of a ``styledCodes`` entry.
    private static let baseMask: UInt32 = 0x1F_FFFF
    private static let multipleBit: UInt32 = 1 << 21
    private static let fontShift: UInt32 = 22
    private static let fontMask: UInt32 = 0x1FF
    private static let canonicalBit: UInt32 = 1 << 31

    // MARK: - Tables derived from the generated data

    /// A plain character in one alphabet.
    private struct Key: Hashable {
        var base: UInt32
        var variant: MathVariant
    }

    /// (plain character, alphabet) → its canonical styled character, derived once from the generated
    /// arrays (on first use: only the renderer and tests ask).
    private static let canonicalStyled: [Key: UInt32] = {
        var table: [Key: UInt32] = [:]
        for (scalar, code) in zip(styledScalars, styledCodes) where code & canonicalBit != 0 && code & multipleBit == 0 {
            guard let variant = fontVariants[Int(code >> fontShift & fontMask)] else { continue }
            table[Key(base: code & baseMask, variant: variant)] = scalar
        }
        return table
    }()
}

extension UnicodeMath {
    /// The letters and digits MathType writes in the Private Use Area (its fonts predate the
    /// Mathematical Alphanumeric Symbols, and MathML it exports still carries them): each block is an
    /// alphabet in A–Z, a–z (or 0–9) order. `(first, last, variant, first base)`.
    private static let mathTypeAlphabets: [(UInt32, UInt32, MathVariant, UInt32)] = [
        (0xF000, 0xF019, .fraktur, 0x41), (0xF01A, 0xF033, .fraktur, 0x61),
        (0xF040, 0xF059, .boldFraktur, 0x41), (0xF05A, 0xF073, .boldFraktur, 0x61),
        (0xF080, 0xF099, .doubleStruck, 0x41), (0xF09A, 0xF0B3, .doubleStruck, 0x61),
        (0xF0C0, 0xF0C9, .doubleStruck, 0x30),
        (0xF100, 0xF119, .script, 0x41), (0xF11A, 0xF133, .script, 0x61),
        (0xF140, 0xF159, .boldScript, 0x41), (0xF15A, 0xF173, .boldScript, 0x61),
        (0xF180, 0xF199, .normal, 0x41),
    ]

    /// The Unicode character a MathType private-use letter or digit stands for: its alphabets above,
    /// and two runs laid out as the Mathematical Alphanumeric Symbols block is (U+F260–U+F2FB: bold,
    /// italic and bold italic Latin, U+1D400–U+1D49B; U+F300–U+F55F: sans-serif, monospace, dotless
    /// letters, the Greek alphabets and the digits, U+1D5A0–U+1D7FF). Nil for any other character.
    public static func mathTypePrivateUse(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let v = scalar.value
        guard v >= 0xF000 && v <= 0xF55F else { return nil }
        if v >= 0xF260 && v <= 0xF2FB { return Unicode.Scalar(v + 0xE1A0) }
        if v >= 0xF300 { return Unicode.Scalar(v + 0xE2A0) }
        for (first, last, variant, base) in mathTypeAlphabets where v >= first && v <= last {
            guard let plain = Unicode.Scalar(base + v - first) else { return nil }
            return styled(plain, variant)
        }
        return nil
    }
}
