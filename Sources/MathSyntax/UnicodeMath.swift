/// The styled letters and digits of Unicode's Mathematical Alphanumeric Symbols block
/// (U+1D400–U+1D7FF) and the Letterlike Symbols that fill its reserved holes.
///
/// A styled character such as `𝑥` is a plain letter (`x`) drawn from one alphabet
/// (``MathVariant/italic``). `decompose` splits a character into the two; `styled` puts them
/// back together. Both are computed from the block's regular layout (Unicode Standard §22.2,
/// "Mathematical Alphanumeric Symbols"): each alphabet is a run of 52 Latin letters, 58 Greek
/// letters or 10 digits at a fixed offset, and 24 reserved code points whose letters were encoded
/// earlier in Letterlike Symbols (ℎ ℬ ℰ ℱ ℋ ℐ ℒ ℳ ℛ ℯ ℊ ℴ ℭ ℌ ℑ ℜ ℨ ℂ ℍ ℕ ℙ ℚ ℝ ℤ).
///
/// The double-struck italic letters ⅅ ⅆ ⅇ ⅈ ⅉ (U+2145–U+2149) are deliberately not decomposed:
/// they stand for the differential d, e and i, not for a styled letter.
public enum UnicodeMath {
    /// Splits a styled mathematical letter or digit into its plain character and its alphabet.
    ///
    /// `𝑥` → (`x`, ``MathVariant/italic``), `ℝ` → (`R`, ``MathVariant/doubleStruck``),
    /// `𝜶` → (`α`, ``MathVariant/boldItalic``), `𝟙` → (`1`, ``MathVariant/doubleStruck``).
    /// Returns nil for every other character, including plain letters and reserved code points.
    public static func decompose(_ scalar: Unicode.Scalar) -> (base: Unicode.Scalar, variant: MathVariant)? {
        let value = scalar.value
        if let entry = Layout.shared.irregular[value] {
            return (entry.base, entry.variant)
        }
        guard value >= blockStart && value <= blockEnd else { return nil }
        if value < latinEnd {
            let offset = value - blockStart
            let alphabet = Int(offset / 52)
            let index = offset % 52
            let base = Unicode.Scalar(index < 26 ? 0x41 + index : 0x61 + index - 26)!
            let variant = latinAlphabets[alphabet]
            // A reserved code point: its letter lives in Letterlike Symbols.
            if Layout.shared.irregularStyled[Key(base: base.value, variant: variant)] != nil { return nil }
            return (base, variant)
        }
        if value >= greekStart && value < greekStart + 58 * UInt32(greekAlphabets.count) {
            let offset = value - greekStart
            return (Layout.shared.greek[Int(offset % 58)], greekAlphabets[Int(offset / 58)])
        }
        if value >= digitStart {
            let offset = value - digitStart
            return (Unicode.Scalar(0x30 + offset % 10)!, digitAlphabets[Int(offset / 10)])
        }
        return nil
    }

    /// The styled character for a plain letter or digit in an alphabet: (`x`, ``MathVariant/bold``)
    /// → `𝐱`, (`R`, ``MathVariant/doubleStruck``) → `ℝ`. The inverse of ``decompose(_:)``.
    ///
    /// ``MathVariant/normal`` returns the scalar unchanged. Returns nil where Unicode has no such
    /// character (e.g. a script digit or a fraktur Greek letter).
    public static func styled(_ scalar: Unicode.Scalar, _ variant: MathVariant) -> Unicode.Scalar? {
        if variant == .normal { return scalar }
        let value = scalar.value
        if let special = Layout.shared.irregularStyled[Key(base: value, variant: variant)] {
            return Unicode.Scalar(special)
        }
        switch value {
        case 0x41...0x5A, 0x61...0x7A:
            guard let alphabet = latinAlphabets.firstIndex(of: variant) else { return nil }
            let index = value <= 0x5A ? value - 0x41 : value - 0x61 + 26
            return Unicode.Scalar(blockStart + UInt32(alphabet) * 52 + index)
        case 0x30...0x39:
            guard let alphabet = digitAlphabets.firstIndex(of: variant) else { return nil }
            return Unicode.Scalar(digitStart + UInt32(alphabet) * 10 + value - 0x30)
        default:
            guard let index = Layout.shared.greekIndex[value],
                  let alphabet = greekAlphabets.firstIndex(of: variant) else { return nil }
            return Unicode.Scalar(greekStart + UInt32(alphabet) * 58 + UInt32(index))
        }
    }

    // MARK: - Layout of the block

    /// First code point of Mathematical Alphanumeric Symbols.
    private static let blockStart: UInt32 = 0x1D400
    /// Last code point of Mathematical Alphanumeric Symbols.
    private static let blockEnd: UInt32 = 0x1D7FF
    /// End (exclusive) of the thirteen Latin alphabets; the dotless i and j follow.
    private static let latinEnd: UInt32 = 0x1D6A4
    /// Start of the five Greek alphabets.
    private static let greekStart: UInt32 = 0x1D6A8
    /// Start of the five digit alphabets.
    private static let digitStart: UInt32 = 0x1D7CE

    /// The Latin alphabets in block order, 52 letters (A–Z, a–z) each from U+1D400.
    private static let latinAlphabets: [MathVariant] = [
        .bold, .italic, .boldItalic, .script, .boldScript, .fraktur, .doubleStruck, .boldFraktur,
        .sansSerif, .boldSansSerif, .sansSerifItalic, .sansSerifBoldItalic, .monospace,
    ]
    /// The Greek alphabets in block order, 58 characters each from U+1D6A8.
    private static let greekAlphabets: [MathVariant] = [
        .bold, .italic, .boldItalic, .boldSansSerif, .sansSerifBoldItalic,
    ]
    /// The digit alphabets in block order, 10 digits each from U+1D7CE.
    private static let digitAlphabets: [MathVariant] = [
        .bold, .doubleStruck, .sansSerif, .boldSansSerif, .monospace,
    ]

    /// The 58 plain characters of one Greek alphabet, in block order: capitals Α–Ω with ϴ in the
    /// place of the unused U+03A2, ∇, small α–ω (with final ς), ∂, then the symbol variants
    /// ϵ ϑ ϰ ϕ ϱ ϖ.
    private static let greekOrder = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡϴΣΤΥΦΧΨΩ∇αβγδεζηθικλμνξοπρςστυφχψω∂ϵϑϰϕϱϖ"

    /// The styled letters outside the regular runs, as pairs of plain letter and styled character,
    /// one alphabet per line. First the letters Letterlike Symbols (U+2100–U+214F) encoded before
    /// the block existed, which fill its 24 reserved holes, and the double-struck Greek letters,
    /// which have no place in the block at all; then the block's own odd ones: the italic dotless
    /// i and j (U+1D6A4, U+1D6A5) and the bold digammas (U+1D7CA, U+1D7CB).
    private static let irregularLetters = #"""
        italic          hℎ
        script          BℬEℰFℱHℋIℐLℒMℳRℛeℯgℊoℴ
        fraktur         CℭHℌIℑRℜZℨ
        double-struck   CℂHℍNℕPℙQℚRℝZℤ
        double-struck   γℽπℼΓℾΠℿ
        italic          ı𝚤ȷ𝚥
        bold            Ϝ𝟊ϝ𝟋
        """#

    /// A plain character in one alphabet.
    private struct Key: Hashable {
        var base: UInt32
        var variant: MathVariant
    }

    /// The tables derived once from the strings above.
    private struct Layout: Sendable {
        /// Styled character outside the regular runs → (plain letter, alphabet).
        var irregular: [UInt32: (base: Unicode.Scalar, variant: MathVariant)] = [:]
        /// (plain letter, alphabet) → styled character outside the regular runs; for a Latin letter
        /// this marks a reserved hole in the block.
        var irregularStyled: [Key: UInt32] = [:]
        /// Position in a Greek alphabet → plain character.
        var greek: [Unicode.Scalar] = []
        /// Plain Greek character → position in a Greek alphabet.
        var greekIndex: [UInt32: Int] = [:]

        /// Built once, on first use.
        static let shared = Layout()

        /// Derives the tables from ``UnicodeMath/greekOrder`` and ``UnicodeMath/irregularLetters``.
        init() {
            greek = Array(UnicodeMath.greekOrder.unicodeScalars)
            for (index, scalar) in greek.enumerated() { greekIndex[scalar.value] = index }
            for line in UnicodeMath.irregularLetters.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // A malformed line is skipped; the round-trip tests would miss its letters.
                guard fields.count == 2, let variant = MathVariant(rawValue: String(fields[0])) else { continue }
                let scalars = Array(fields[1].unicodeScalars)
                for pair in stride(from: 0, to: scalars.count - 1, by: 2) {
                    irregular[scalars[pair + 1].value] = (scalars[pair], variant)
                    irregularStyled[Key(base: scalars[pair].value, variant: variant)] = scalars[pair + 1].value
                }
            }
        }
    }
}
