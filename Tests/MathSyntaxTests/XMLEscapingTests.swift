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
}
