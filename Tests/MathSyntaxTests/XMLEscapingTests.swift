import Testing
@testable import MathSyntax

@Suite struct XMLEscapingTests {
    @Test(arguments: [
        ("x + 1", "x + 1"),
        ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
        ("say \"hi\"\n", "say \"hi\"\n"),
        ("ℝ² → ∞", "ℝ² → ∞"),
        ("bad\u{1}char", "bad\u{FFFD}char"),
        ("non\u{FFFE}char\u{FFFF}", "non\u{FFFD}char\u{FFFD}"),
        ("nbsp\u{A0}kept", "nbsp\u{A0}kept"),
        ("", ""),
    ])
    func text(_ input: String, _ expected: String) {
        #expect(XMLEscaping.text(input) == expected)
    }

    @Test func attributesEscapeQuotesAndWhiteSpace() {
        #expect(XMLEscaping.attribute("a\"b\n\tc\r<&>") == "a&quot;b&#xA;&#x9;c&#xD;&lt;&amp;&gt;")
        #expect(XMLEscaping.attribute("plain text, 42") == "plain text, 42")
    }

    @Test func nonBreakingSpaceAsReference() {
        #expect(XMLEscaping.text("a\u{A0}b", nbspAsReference: true) == "a&#xA0;b")
        // U+00A0's second byte alone (inside another character) is not a non-breaking space.
        #expect(XMLEscaping.text("Ġ à", nbspAsReference: true) == "Ġ à")
    }

    @Test func charactersEndingInBEorBFAreKept() {
        // U+FFBE and U+0FBF end in the same bytes as U+FFFE/U+FFFF but are allowed.
        #expect(XMLEscaping.text("\u{FFBE}\u{0FBF}\u{FEFF}") == "\u{FFBE}\u{0FBF}\u{FEFF}")
    }

    /// The check that hands a string back unescaped: eight ASCII bytes at a time, then byte by byte;
    /// a special byte is found wherever it is (the SVG writer used to have its own copy of this loop).
    @Test func needsEscapingFindsEverySpecialByte() {
        let line = "0123456789 abcdefghij ABCDEFGHIJ {}[]()=+-*/^_|!?.,;:'\\~`@#$%"
        #expect(!XMLEscaping.needsEscaping(line, attribute: false, nbspAsReference: false))
        #expect(!XMLEscaping.needsEscaping("é ∑ 𝑥 \"q\" 'a' \u{FFFD}", attribute: false, nbspAsReference: false))
        #expect(XMLEscaping.needsEscaping("a < b", attribute: false, nbspAsReference: false))
        #expect(XMLEscaping.needsEscaping("\u{FFFF}", attribute: false, nbspAsReference: false))
        #expect(XMLEscaping.needsEscaping("x\u{7}", attribute: false, nbspAsReference: false))
        // (special, in element content, in attributes, in element content with nbsp as a reference)
        let cases: [(String, Bool, Bool, Bool)] = [
            ("&", true, true, true), ("<", true, true, true), (">", true, true, true), ("\u{0}", true, true, true),
            ("\u{1F}", true, true, true), ("\u{FFFE}", true, true, true), ("\t", false, true, false),
            ("\n", false, true, false), ("\r", false, true, false), ("\"", false, true, false),
            ("\u{A0}", false, false, true), ("é", false, false, false),
        ]
        for (special, inText, inAttribute, withNBSP) in cases {
            for at in [0, 7, 8, 15, 16, line.count] {
                var text = line
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: at))
                let what = "\(special.unicodeScalars.first!.value) at \(at)"
                #expect(XMLEscaping.needsEscaping(text, attribute: false, nbspAsReference: false) == inText, "\(what)")
                #expect(XMLEscaping.needsEscaping(text, attribute: true, nbspAsReference: false) == inAttribute, "\(what)")
                #expect(XMLEscaping.needsEscaping(text, attribute: false, nbspAsReference: true) == withNBSP, "\(what)")
                // What it says is what escaping does.
                #expect((XMLEscaping.text(text) != text) == inText, "\(what)")
                #expect((XMLEscaping.attribute(text) != text) == inAttribute, "\(what)")
            }
        }
    }

    /// The word-at-a-time check agrees with a byte-by-byte one on many mixed strings.
    @Test func needsEscapingAgreesWithByteByByte() {
        func reference(_ text: String, attribute: Bool, nbsp: Bool) -> Bool {
            let bytes = Array(text.utf8)
            for i in bytes.indices {
                let byte = bytes[i]
                switch byte {
                case 0x26, 0x3C, 0x3E: return true
                case 0x22, 0x09, 0x0A, 0x0D: if attribute { return true }
                case 0x00..<0x20: return true
                case 0xA0: if nbsp && i > 0 && bytes[i - 1] == 0xC2 { return true }
                case 0xBE, 0xBF: if i > 1 && bytes[i - 1] == 0xBF && bytes[i - 2] == 0xEF { return true }
                default: break
                }
            }
            return false
        }
        let pieces = ["a", "Z", " ", "0", "{", "~", "\\", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{1}", "\u{7F}",
                      "é", "\u{A0}", "Ġ", "∑", "𝑥", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{EFBF}", "abcdefgh"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<4000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59)
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Mostly plain letters, so that long ASCII words are common.
                let r = Int(state >> 33)
                text += r % 3 == 0 ? pieces[r / 3 % pieces.count] : "abc"
            }
            for (attribute, nbsp) in [(false, false), (true, false), (false, true)] {
                #expect(XMLEscaping.needsEscaping(text, attribute: attribute, nbspAsReference: nbsp)
                        == reference(text, attribute: attribute, nbsp: nbsp), "\(Array(text.unicodeScalars))")
            }
        }
    }

    /// Escaping on bytes agrees with escaping a Unicode scalar at a time (the way it was written
    /// first) on many strings mixing markup, controls, non-ASCII letters and U+FFFE/U+FFFF.
    @Test func escapingAgreesWithScalarByScalar() {
        func reference(_ text: String, attribute: Bool, nbsp: Bool) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"" where attribute: out += "&quot;"
                case "\n" where attribute: out += "&#xA;"
                case "\r" where attribute: out += "&#xD;"
                case "\t" where attribute: out += "&#x9;"
                case "\u{A0}" where nbsp: out += "&#xA0;"
                default: out.unicodeScalars.append(XMLEscaping.isXMLCharacter(scalar.value) ? scalar : "\u{FFFD}")
                }
            }
            return out
        }
        let pieces = ["a", "<", ">", "&", "\"", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "\u{A0}", "é", "Ġ",
                      "\u{FFFE}", "\u{FFFF}", "\u{FFBE}", "\u{FFFD}", "𝑥", "∑", " "]
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 2000 {
            let text = (0 ..< Int.random(in: 1 ... 12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(XMLEscaping.text(text) == reference(text, attribute: false, nbsp: false), "\(text.debugDescription)")
            #expect(XMLEscaping.text(text, nbspAsReference: true) == reference(text, attribute: false, nbsp: true), "\(text.debugDescription)")
            #expect(XMLEscaping.attribute(text) == reference(text, attribute: true, nbsp: false), "\(text.debugDescription)")
        }
    }
}
