import Foundation
import MathSyntax
import Testing

/// A styled character and its parts.
private struct StyledCase: Sendable, CustomTestStringConvertible {
    let styled: Unicode.Scalar
    let base: Unicode.Scalar
    let variant: MathVariant
    var testDescription: String { "\(styled) = \(base) \(variant.rawValue)" }
}

private let knownStyled: [StyledCase] = [
    .init(styled: "𝑥", base: "x", variant: .italic),
    .init(styled: "ℝ", base: "R", variant: .doubleStruck),
    .init(styled: "𝐱", base: "x", variant: .bold),
    .init(styled: "𝔤", base: "g", variant: .fraktur),
    .init(styled: "𝟙", base: "1", variant: .doubleStruck),
    .init(styled: "𝜶", base: "α", variant: .boldItalic),
    .init(styled: "𝐀", base: "A", variant: .bold),
    .init(styled: "𝐳", base: "z", variant: .bold),
    .init(styled: "𝐴", base: "A", variant: .italic),
    .init(styled: "ℎ", base: "h", variant: .italic),
    .init(styled: "𝒜", base: "A", variant: .script),
    .init(styled: "ℬ", base: "B", variant: .script),
    .init(styled: "ℯ", base: "e", variant: .script),
    .init(styled: "ℊ", base: "g", variant: .script),
    .init(styled: "ℴ", base: "o", variant: .script),
    .init(styled: "𝓐", base: "A", variant: .boldScript),
    .init(styled: "ℭ", base: "C", variant: .fraktur),
    .init(styled: "ℌ", base: "H", variant: .fraktur),
    .init(styled: "ℑ", base: "I", variant: .fraktur),
    .init(styled: "ℜ", base: "R", variant: .fraktur),
    .init(styled: "ℨ", base: "Z", variant: .fraktur),
    .init(styled: "𝔸", base: "A", variant: .doubleStruck),
    .init(styled: "ℂ", base: "C", variant: .doubleStruck),
    .init(styled: "ℕ", base: "N", variant: .doubleStruck),
    .init(styled: "ℤ", base: "Z", variant: .doubleStruck),
    .init(styled: "𝕜", base: "k", variant: .doubleStruck),
    .init(styled: "𝕬", base: "A", variant: .boldFraktur),
    .init(styled: "𝖠", base: "A", variant: .sansSerif),
    .init(styled: "𝗔", base: "A", variant: .boldSansSerif),
    .init(styled: "𝘈", base: "A", variant: .sansSerifItalic),
    .init(styled: "𝘼", base: "A", variant: .sansSerifBoldItalic),
    .init(styled: "𝚊", base: "a", variant: .monospace),
    .init(styled: "𝚣", base: "z", variant: .monospace),
    .init(styled: "𝚤", base: "ı", variant: .italic),
    .init(styled: "𝚥", base: "ȷ", variant: .italic),
    .init(styled: "𝚨", base: "Α", variant: .bold),
    .init(styled: "𝚹", base: "ϴ", variant: .bold),
    .init(styled: "𝛁", base: "∇", variant: .bold),
    .init(styled: "𝛂", base: "α", variant: .bold),
    .init(styled: "𝛤", base: "Γ", variant: .italic),
    .init(styled: "𝜋", base: "π", variant: .italic),
    .init(styled: "𝜕", base: "∂", variant: .italic),
    .init(styled: "𝜖", base: "ϵ", variant: .italic),
    .init(styled: "𝜛", base: "ϖ", variant: .italic),
    .init(styled: "𝝏", base: "∂", variant: .boldItalic),
    .init(styled: "𝝎", base: "ω", variant: .boldItalic),
    .init(styled: "𝞈", base: "ω", variant: .boldSansSerif),
    .init(styled: "𝟂", base: "ω", variant: .sansSerifBoldItalic),
    .init(styled: "𝟊", base: "Ϝ", variant: .bold),
    .init(styled: "𝟋", base: "ϝ", variant: .bold),
    .init(styled: "𝟎", base: "0", variant: .bold),
    .init(styled: "𝟘", base: "0", variant: .doubleStruck),
    .init(styled: "𝟢", base: "0", variant: .sansSerif),
    .init(styled: "𝟬", base: "0", variant: .boldSansSerif),
    .init(styled: "𝟿", base: "9", variant: .monospace),
    .init(styled: "ℽ", base: "γ", variant: .doubleStruck),
    .init(styled: "ℿ", base: "Π", variant: .doubleStruck),
]

@Test(arguments: knownStyled)
private func decomposeKnownCharacters(_ expected: StyledCase) throws {
    let parts = try #require(UnicodeMath.decompose(expected.styled))
    #expect(parts.base == expected.base)
    #expect(parts.variant == expected.variant)
    #expect(UnicodeMath.styled(expected.base, expected.variant) == expected.styled)
}

/// Plain characters, the reserved holes, unassigned code points and letterlike symbols that are
/// not styled letters.
@Test(arguments: [
    "x", "A", "α", "1", "∞", "ℏ", "ℓ", "℘", "ⅅ", "ⅆ", "ⅇ", "ⅈ", "ⅉ", "⅀",
    "\u{1D455}", "\u{1D49D}", "\u{1D4A0}", "\u{1D506}", "\u{1D53A}", "\u{1D551}",
    "\u{1D6A6}", "\u{1D6A7}", "\u{1D7CC}", "\u{1D7CD}", "\u{1D800}", "\u{1D3FF}",
] as [Unicode.Scalar])
func decomposeRejects(_ scalar: Unicode.Scalar) {
    #expect(UnicodeMath.decompose(scalar) == nil)
}

@Test func wholeBlockRoundTrips() {
    var decomposed = 0
    for value in UInt32(0x1D400)...0x1D7FF {
        let scalar = Unicode.Scalar(value)!
        guard let parts = UnicodeMath.decompose(scalar) else { continue }
        decomposed += 1
        #expect(parts.variant != .normal)
        #expect(UnicodeMath.styled(parts.base, parts.variant) == scalar, "U+\(String(value, radix: 16))")
    }
    // 1024 code points less 24 reserved holes and 4 unassigned.
    #expect(decomposed == 996)
}

@Test func styledRoundTripsForEveryBaseAndVariant() {
    let latin = (0x41...0x5A).map { Unicode.Scalar($0)! } + (0x61...0x7A).map { Unicode.Scalar($0)! }
    let digits = (0x30...0x39).map { Unicode.Scalar($0)! }
    let greek = Array("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡϴΣΤΥΦΧΨΩ∇αβγδεζηθικλμνξοπρςστυφχψω∂ϵϑϰϕϱϖ".unicodeScalars)
    let others: [Unicode.Scalar] = ["ı", "ȷ", "Ϝ", "ϝ"]
    var produced = 0
    for base in latin + digits + greek + others {
        #expect(UnicodeMath.styled(base, .normal) == base)
        for variant in MathVariant.allCases where variant != .normal {
            guard let styled = UnicodeMath.styled(base, variant) else { continue }
            produced += 1
            let parts = UnicodeMath.decompose(styled)
            #expect(parts?.base == base && parts?.variant == variant, "\(base) \(variant)")
        }
    }
    // 13 Latin alphabets, 5 digit, 5 Greek, 2 dotless, 2 digamma, 4 double-struck Greek.
    #expect(produced == 13 * 52 + 5 * 10 + 5 * 58 + 2 + 2 + 4)
}

@Test func styledIsNilWhereUnicodeHasNoCharacter() {
    #expect(UnicodeMath.styled("1", .script) == nil)
    #expect(UnicodeMath.styled("1", .italic) == nil)
    #expect(UnicodeMath.styled("α", .fraktur) == nil)
    #expect(UnicodeMath.styled("α", .doubleStruck) == nil)
    #expect(UnicodeMath.styled("ı", .bold) == nil)
    #expect(UnicodeMath.styled("+", .bold) == nil)
    #expect(UnicodeMath.styled("é", .italic) == nil)
}

// MARK: - The whole table (`alphabet(of:)`), generated from Unicode data

@Test(arguments: [
    ("Ⓐ", "A", "circled"), ("ⓐ", "a", "circled"), ("⑲", "19", "circled"), ("㉑", "21", "circled"), ("㊿", "50", "circled"),
    ("⓫", "11", "negative-circled"), ("❶", "1", "negative-circled"), ("🅐", "A", "negative-circled"),
    ("➅", "6", "circled-sans-serif"), ("➑", "8", "negative-circled-sans-serif"), ("⓵", "1", "double-circled"),
    ("⑴", "1", "parenthesized"), ("⒜", "a", "parenthesized"), ("🄕", "F", "parenthesized"), ("⒉", "2", "full-stop"),
    ("⒛", "20", "full-stop"), ("🄆", "5", "comma"), ("🄳", "D", "squared"), ("🆂", "S", "negative-squared"),
    ("⁷", "7", "superscript"), ("ⁿ", "n", "superscript"), ("₁", "1", "subscript"), ("Ａ", "A", "fullwidth"),
    ("＋", "+", "fullwidth"), ("ℓ", "l", "script"), ("℘", "P", "script"), ("ℎ", "h", "italic"), ("ⅅ", "D", "double-struck-italic"),
    ("⅀", "∑", "double-struck"), ("𝐀", "A", "bold"), ("𝗔", "A", "bold-sans-serif"), ("𝝯", "∇", "bold-sans-serif"),
    ("ℭ", "C", "fraktur"), ("Ⅎ", "F", "turned"), ("🄭", "C D", "circled"),
] as [(Unicode.Scalar, String, String)])
func alphabetOfKnownCharacters(_ scalar: Unicode.Scalar, _ base: String, _ font: String) throws {
    let alphabet = try #require(UnicodeMath.alphabet(of: scalar))
    #expect(alphabet.base == base && alphabet.font == font)
}

@Test(arguments: ["x", "1", "α", "∂", "+", "ℏ", "ℹ", "™", "²", "ª", "Ω", "K", "\u{1D455}", "🆒", "中"] as [Unicode.Scalar])
func alphabetOfOtherCharacters(_ scalar: Unicode.Scalar) {
    #expect(UnicodeMath.alphabet(of: scalar) == nil)
}

/// Every entry agrees with the Unicode data of this Swift runtime: the character has a name, its
/// compatibility decomposition (NFKD, less the enclosing punctuation) is its base's, or — for the
/// characters without one — its name or numeric value says the base; and the words of its font
/// are words of its name (the tags' fonts superscript, subscript and fullwidth aside, and fraktur,
/// which Letterlike names BLACK-LETTER).
@Test func tableAgreesWithUnicodeData() {
    var checked = 0
    for value in UInt32(0x80)...0x1FFFF {
        guard let scalar = Unicode.Scalar(value), let alphabet = UnicodeMath.alphabet(of: scalar) else { continue }
        checked += 1
        let label = "U+\(String(value, radix: 16, uppercase: true)) \(scalar)"
        guard let name = scalar.properties.name else { Issue.record("\(label) has no name"); continue }
        let decomposed = String(Character(scalar)).decomposedStringWithCompatibilityMapping
            .unicodeScalars.filter { !"().,〔〕".unicodeScalars.contains($0) }
        // An enclosed abbreviation's base is spelled with spaces (🄭 is "C D").
        let base = alphabet.base.replacingOccurrences(of: " ", with: "").decomposedStringWithCompatibilityMapping
        if String(String.UnicodeScalarView(decomposed)) != base {
            // No decomposition: the name spells the base, or the numeric value is the number.
            let spelled = scalar.properties.numericValue.map { String(Int($0)) == alphabet.base }
                ?? (name.hasSuffix(" " + alphabet.base.uppercased()) || name.contains(alphabet.base.unicodeScalars.first!.properties.name ?? "?"))
            #expect(spelled, "\(label) \(name): base \(alphabet.base)")
        }
        if ["superscript", "subscript", "fullwidth"].contains(alphabet.font) { continue }
        let nameWords = Set(name.replacingOccurrences(of: "-", with: " ").split(separator: " ").map(String.init))
        for word in alphabet.font.split(separator: "-").map({ $0.uppercased() }) {
            let found = nameWords.contains(word) || (word == "FRAKTUR" && nameWords.contains("BLACK"))
                || (word == "SQUARED" && nameWords.contains("SQUARE"))
                || (word == "ITALIC" && alphabet.base == "h")   // ℎ PLANCK CONSTANT fills the italic h's hole
            #expect(found, "\(label) \(name): font \(alphabet.font)")
        }
    }
    #expect(checked > 1600)
}

/// Every letter and digit of the Mathematical Alphanumeric Symbols that decomposes to a letter or digit
/// is in the table, and every such character of the enclosed blocks.
@Test func tableCoversTheBlocks() {
    for range: ClosedRange<UInt32> in [0x1D400...0x1D7FF, 0x2460...0x24FF, 0x2776...0x2793, 0xFF01...0xFF5E] {
        for value in range {
            guard let scalar = Unicode.Scalar(value), scalar.properties.name != nil else { continue }
            let plain = String(Character(scalar)).decomposedStringWithCompatibilityMapping
                .unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0.isASCII }
            guard !plain.isEmpty, String(String.UnicodeScalarView(plain)) != String(Character(scalar)) else { continue }
            #expect(UnicodeMath.alphabet(of: scalar) != nil, "U+\(String(value, radix: 16, uppercase: true)) \(scalar)")
        }
    }
}

@Test func plainLettersAsTheFrontEndsReadThem() {
    #expect(UnicodeMath.plainLetters("𝐬𝐢𝐧")! == ("sin", .bold))
    #expect(UnicodeMath.plainLetters("𝟏𝟐.𝟓")! == ("12.5", .bold))
    #expect(UnicodeMath.plainLetters("ＡＢ")! == ("AB", nil))
    #expect(UnicodeMath.plainLetters("x") == nil)
    #expect(UnicodeMath.plainLetters("Ⓐ") == nil)            // enclosed: the semantic analysis reads it
    #expect(UnicodeMath.plainLetters("ℓ") == nil)            // not the script l of the block
    #expect(UnicodeMath.plainLetters("𝐱𝑦") == nil)          // two alphabets: kept as written
}

@Test func mathMLVariantSpellings() {
    #expect(MathVariant(mathML: " bold ") == .bold)
    #expect(MathVariant(mathML: "sans-serif-bold") == .boldSansSerif)
    #expect(MathVariant(mathML: "-tex-mathit") == .italic)
    #expect(MathVariant(mathML: "-tex-calligraphic") == nil)
    #expect(MathVariant(mathML: "fullwidth") == nil)
}
