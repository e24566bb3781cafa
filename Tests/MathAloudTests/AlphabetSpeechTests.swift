import Foundation
import Testing
@testable import MathAloud

/// Letters and digits in other alphabets and enclosures (issue 12, "Letters in other alphabets"):
/// every styled character of the alphabet blocks, and every MathML `mathvariant` on every letter,
/// is spoken with its font's words in every style — never with its Unicode character name, never
/// echoed — and TeX font commands speak as the MathML that says the same.
@Suite struct AlphabetSpeechTests {
    static let styles = ["clearspeak", "mathspeak"]

    /// The blocks of the issue: Mathematical Alphanumeric Symbols, Letterlike Symbols, Enclosed
    /// Alphanumerics (and their supplement, the circled numbers of the CJK block and the dingbat
    /// circled digits), the fullwidth ASCII forms, superscripts and subscripts.
    static let blocks: [ClosedRange<UInt32>] = [
        0x1D400...0x1D7FF, 0x2100...0x214F, 0x2460...0x24FF, 0x2776...0x2793, 0x3251...0x325F, 0x32B1...0x32BF,
        0xFF01...0xFF5E, 0x1F100...0x1F1FF, 0x2070...0x209F,
    ]

    /// Every character of the blocks that the alphabet table knows (its letters, digits and numbers).
    static let styledCharacters: [Unicode.Scalar] = blocks.flatMap { $0 }.compactMap(Unicode.Scalar.init)
        .filter { UnicodeMath.alphabet(of: $0) != nil }

    /// The built-in `Locales/en/fonts.txt`.
    static func englishFonts() throws -> WordTable {
        let resources = try SpeechResources(builtIn: EmbeddedSpeechResources.files, overrideDirectory: nil)
        return try #require(try resources.lexiconChain(for: "en").first?.fonts)
    }

    /// Words that only a Unicode character name would bring into speech.
    static let nameWords: Set<String> = ["mathematical", "latin", "greek", "letter", "digit", "capital", "negative",
                                         "dingbat", "black-letter", "double-struck", "modifier", "full stop"]

    /// What is wrong with `speech` for `scalar` (nil when nothing is).
    static func problem(_ speech: String, for scalar: Unicode.Scalar, diagnostics: [Diagnostic]) -> String? {
        if speech.unicodeScalars.contains(where: { !$0.isASCII }) { return "echoes a character outside ASCII" }
        if speech.trimmingCharacters(in: .whitespaces).isEmpty { return "says nothing" }
        let lowered = speech.lowercased()
        if let name = scalar.properties.name?.lowercased(), lowered.contains(name) { return "says the character's name" }
        let words = Set(lowered.split(separator: " ").map(String.init))
        if let word = nameWords.first(where: { words.contains($0) || ($0.contains(" ") && lowered.contains($0)) }) {
            return "says '\(word)', a word of a character name"
        }
        if diagnostics.contains(where: { $0.id == "speech.missing-word" }) { return "reports a missing word" }
        return nil
    }

    @Test(arguments: styles)
    func everyStyledCharacterIsSpokenWithItsFont(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        #expect(Self.styledCharacters.count > 1500)
        var failures: [String] = []
        for scalar in Self.styledCharacters {
            let text = String(Character(scalar)).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            for element in ["mi", "mn"] {
                let spoken = speaker.speak(mathML: "<math><\(element)>\(text)</\(element)></math>")
                if let problem = Self.problem(spoken.text, for: scalar, diagnostics: spoken.diagnostics) {
                    failures.append("U+\(String(scalar.value, radix: 16, uppercase: true)) \(scalar) <\(element)>: \(problem): \(spoken.text)")
                }
            }
            // Typed into TeX.
            let spoken = speaker.speak(tex: String(Character(scalar)))
            if !"#$%&\\^_{}~".unicodeScalars.contains(where: { UnicodeMath.alphabet(of: scalar)?.base == String(Character($0)) }),
               let problem = Self.problem(spoken.text, for: scalar, diagnostics: spoken.diagnostics) {
                failures.append("U+\(String(scalar.value, radix: 16, uppercase: true)) \(scalar) TeX: \(problem): \(spoken.text)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) characters:\n\(failures.prefix(40).joined(separator: "\n"))")
    }

    /// Plain letters and digits, Latin and Greek.
    static let bases: [String] = (Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        + Array("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρστυφχψω")).map(String.init)

    @Test(arguments: styles)
    func everyMathVariantOnEveryLetterIsSpoken(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        let fontWords = try Self.englishFonts()
        var failures: [String] = []
        for variant in MathVariant.allCases {
            for base in Self.bases {
                // ClearSpeak reads the double-struck N Z Q R C as sets of numbers.
                if style == "clearspeak" && variant == .doubleStruck && "NZQRC".contains(base) { continue }
                let element = base.first!.isNumber ? "mn" : "mi"
                let spoken = speaker.speak(mathML: "<math><\(element) mathvariant=\"\(variant.rawValue)\">\(base)</\(element)></math>")
                if let problem = Self.problem(spoken.text, for: base.unicodeScalars.first!, diagnostics: spoken.diagnostics) {
                    failures.append("\(variant.rawValue) \(base): \(problem): \(spoken.text)")
                    continue
                }
                // A font other than the letters' own (italic, upright) is said.
                let silent = variant == .normal || (variant == .italic && element == "mi")
                let words = try #require(fontWords.words(variant.rawValue))
                if !silent && !spoken.text.lowercased().contains(words.lowercased()) {
                    failures.append("\(variant.rawValue) \(base): the font is not said: \(spoken.text)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) letters:\n\(failures.prefix(40).joined(separator: "\n"))")
    }

    /// TeX font commands, the styled characters and MathML `mathvariant` say the same words, and so
    /// does the MathML MathAloud writes for the TeX.
    @Test(arguments: [
        (#"\mathbf{E}"#, #"<mi mathvariant="bold">E</mi>"#, "𝐄"),
        (#"\mathbb{a}"#, #"<mi mathvariant="double-struck">a</mi>"#, "𝕒"),
        (#"\mathcal{L}"#, #"<mi mathvariant="script">L</mi>"#, "ℒ"),
        (#"\mathscr{L}"#, #"<mi mathvariant="script">L</mi>"#, "ℒ"),
        (#"\mathfrak{g}"#, #"<mi mathvariant="fraktur">g</mi>"#, "𝔤"),
        (#"\mathsf{x}"#, #"<mi mathvariant="sans-serif">x</mi>"#, "𝗑"),
        (#"\mathtt{y}"#, #"<mi mathvariant="monospace">y</mi>"#, "𝚢"),
        (#"\boldsymbol{\alpha}"#, #"<mi mathvariant="bold-italic">α</mi>"#, "𝜶"),
        (#"\bm{x}"#, #"<mi mathvariant="bold-italic">x</mi>"#, "𝒙"),
        (#"\mathit{x}"#, #"<mi mathvariant="italic">x</mi>"#, "𝑥"),
        (#"\mathbb{R}"#, #"<mi mathvariant="double-struck">R</mi>"#, "ℝ"),
        (#"\mathfrak{R}"#, #"<mi mathvariant="fraktur">R</mi>"#, "ℜ"),
        (#"\mathbf{6}"#, #"<mn mathvariant="bold">6</mn>"#, "𝟔"),
        (#"\mathbb{1}"#, #"<mn mathvariant="double-struck">1</mn>"#, "𝟙"),
        (#"\mathbf{12}"#, #"<mn mathvariant="bold">12</mn>"#, "𝟏𝟐"),
        (#"\mathsf{\Gamma}"#, #"<mi mathvariant="sans-serif">Γ</mi>"#, "Γ"),
    ])
    func texAndMathMLSayTheSameFont(_ tex: String, _ mathML: String, _ typed: String) throws {
        for style in Self.styles {
            for caps in [[:], ["CapitalLetters": "SayCaps"]] where style == "clearspeak" || caps.isEmpty {
                let speaker = try SpeakerCache.shared.speaker(style: style, preferences: caps)
                let fromTeX = speaker.speak(tex: tex).text
                #expect(speaker.speak(mathML: "<math>\(mathML)</math>").text == fromTeX, "\(style) \(caps) \(tex)")
                // The MathML MathAloud writes for the TeX.
                let written = MathMLWriter().write(TeXParser().parse(tex).root)
                #expect(speaker.speak(mathML: written).text == fromTeX, "\(style) \(tex): \(written)")
                // The character typed, in TeX and in MathML (where Unicode has it).
                if typed != "Γ" {
                    let element = typed.unicodeScalars.allSatisfy({ UnicodeMath.alphabet(of: $0)?.base.first?.isNumber == true })
                        ? "mn" : "mi"
                    #expect(speaker.speak(tex: typed).text == fromTeX, "\(style) \(typed)")
                    #expect(speaker.speak(mathML: "<math><\(element)>\(typed)</\(element)></math>").text == fromTeX, "\(style) \(typed)")
                }
            }
        }
    }

    /// What the styles say (the readings the rule files' examples do not show).
    @Test(arguments: [
        ("clearspeak", "<mi>𝐂</mi>", "bold C"),
        ("clearspeak", "<mi>𝚹</mi>", "bold Theta"),
        ("clearspeak", "<mi>𝝇</mi>", "bold italic final sigma"),
        ("clearspeak", "<mn>𝟴</mn>", "sans serif bold 8"),
        ("clearspeak", "<mi>ℝ</mi>", "the real numbers"),
        ("clearspeak", "<mi>ℙ</mi>", "double struck P"),
        ("clearspeak", "<mi>Ⓜ</mi>", "circled cap M"),
        ("clearspeak", "<mi>🅝</mi>", "black circled cap N"),
        ("clearspeak", "<mi>🆂</mi>", "black squared cap S"),
        ("clearspeak", "<mi>⒟</mi>", "parenthesized d"),
        ("clearspeak", "<mn>⓬</mn>", "black circled 12"),
        ("clearspeak", "<mn>➅</mn>", "circled sans serif 6"),
        ("clearspeak", "<mn>⓶</mn>", "double circled 2"),
        ("clearspeak", "<mn>🄆</mn>", "5 comma"),
        ("clearspeak", "<mn>⁷</mn>", "super 7"),
        ("clearspeak", "<mn>₉</mn>", "sub 9"),
        ("clearspeak", "<mn>²</mn>", "squared"),
        ("clearspeak", "<mi>ｃ</mi>", "c"),
        ("clearspeak", "<mi>ℓ</mi>", "script l"),
        ("clearspeak", "<mi>ⅆ</mi>", "double struck italic d"),
        ("clearspeak", "<mi>𝚥</mi>", "dotless j"),
        ("clearspeak", "<mi mathvariant=\"sans-serif-bold\">A</mi>", "sans serif bold A"),
        ("clearspeak", "<mi mathvariant=\"-tex-calligraphic\">A</mi>", "calligraphic A"),
        ("clearspeak", "<mn mathvariant=\"italic\">0</mn>", "italic 0"),
        ("clearspeak", "<mi mathvariant=\"normal\">A</mi>", "A"),
        ("mathspeak", "<mi>𝕰</mi>", "bold German Upper E"),
        ("mathspeak", "<mi>𝚻</mi>", "bold Upper Tau"),
        ("mathspeak", "<mi>Ⓝ</mi>", "circled Upper N"),
        ("mathspeak", "<mi>𝛻</mi>", "italic nabla"),
        ("mathspeak", "<mn>⒔</mn>", "13 period"),
        ("mathspeak", "<mi>Ｙ</mi>", "Upper Y"),
        ("mathspeak", "<mi mathvariant=\"-tex-calligraphic-bold\">A</mi>", "calligraphic bold Upper A"),
    ])
    func readings(_ style: String, _ mathML: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        #expect(speaker.speak(mathML: "<math>\(mathML)</math>").text == expected)
    }

    /// A styled character no rule speaks (inside an operator or a name) still says its font and letter.
    @Test func styledCharactersOutsideLettersSayTheirFont() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = speaker.speak(mathML: "<math><mo>Ⓐ</mo><mo>⒈</mo><mi>𝐱Ⓐ</mi></math>")
        #expect(spoken.text == "circled A 1 period bold x circled A")
        #expect(!spoken.diagnostics.contains { $0.id == "speech.missing-word" })
    }

    /// Every font the alphabet table names has words in every locale, and a property value the rules
    /// can test.
    @Test func everyFontHasWords() throws {
        let fonts = try Self.englishFonts()
        let names = Set((0x20...0x1FFFF).compactMap(Unicode.Scalar.init).compactMap { UnicodeMath.alphabet(of: $0)?.font })
        for name in names.union(MathVariant.allCases.map(\.rawValue)).union(["calligraphic", "bold-calligraphic"]) {
            #expect(fonts.words(name) != nil, "no words for the font \(name)")
        }
    }
}
