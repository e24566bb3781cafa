import MathMarkup
import MathSyntax
import Testing

@Suite("MathML reader: entities")
struct ReaderEntityTests {
    static let entities: [(String, String)] = [
        ("InvisibleTimes", "\u{2062}"), ("it", "\u{2062}"), ("ApplyFunction", "\u{2061}"), ("af", "\u{2061}"),
        ("InvisibleComma", "\u{2063}"), ("ic", "\u{2063}"), ("nbsp", "\u{A0}"), ("ne", "≠"), ("le", "≤"),
        ("ge", "≥"), ("times", "×"), ("minus", "−"), ("PlusMinus", "±"), ("int", "∫"), ("sum", "∑"),
        ("alpha", "α"), ("omega", "ω"), ("Alpha", "Α"), ("Omega", "Ω"), ("infin", "∞"), ("rarr", "→"),
        ("RightArrow", "→"), ("lt", "<"), ("gt", ">"), ("amp", "&"), ("quot", "\""), ("apos", "'"),
        ("ThinSpace", "\u{2009}"), ("DifferentialD", "ⅆ"), ("dd", "ⅆ"), ("ExponentialE", "ⅇ"), ("ee", "ⅇ"),
        ("ImaginaryI", "ⅈ"), ("ii", "ⅈ"), ("lang", "⟨"), ("rang", "⟩"), ("LeftAngleBracket", "⟨"),
        ("lfloor", "⌊"), ("rceil", "⌉"), ("Vert", "‖"), ("verbar", "|"), ("sdot", "⋅"), ("middot", "·"),
        ("prime", "′"), ("Prime", "″"), ("part", "∂"), ("nabla", "∇"), ("isin", "∈"), ("notin", "∉"),
        ("sub", "⊂"), ("sube", "⊆"), ("cup", "∪"), ("cap", "∩"), ("forall", "∀"), ("exist", "∃"),
        ("empty", "∅"), ("deg", "°"), ("hellip", "…"), ("ctdot", "⋯"), ("vellip", "⋮"), ("dtdot", "⋱"),
        ("Ropf", "ℝ"), ("Nopf", "ℕ"), ("ThickSpace", "\u{205F}\u{200A}"), ("eacute", "é"), ("Afr", "𝔄"),
    ]

    @Test func namedEntitiesDecode() {
        for (name, value) in Self.entities {
            let result = read("<mo>&\(name);</mo>")
            #expect(result.root.leafText == value, "&\(name);")
            #expect(result.diagnostics.isEmpty, "&\(name); \(result.diagnostics)")
        }
    }

    @Test func entitiesInAttributesAndMixedText() {
        let result = read("<mfenced open='&lang;' close='&rang;'><mi>a&InvisibleTimes;b</mi></mfenced>")
        #expect(result.root.strippingRanges() == node(.fenced(open: "⟨", close: "⟩"), mi("a\u{2062}b")))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func numericReferencesKept() {
        #expect(read("<mi>&#x3B1;&#946;</mi>").root.leafText == "αβ")
    }

    @Test func unknownEntityIsKeptLiterally() {
        let input = "<mi>&bogus;x</mi>"
        let result = read(input)
        #expect(result.root.strippingRanges() == mi("&bogus;x"))
        #expect(ids(result) == ["mathml.unknown-entity"])
        #expect(result.diagnostics.first?.range == SourceRange(4, 11))
    }

    @Test func bareAmpersandIsText() {
        let result = read("<mtext>a & b</mtext>")
        #expect(result.root.strippingRanges() == mtext("a & b"))
        #expect(ids(result) == ["mathml.unescaped-ampersand"])
    }

    @Test func entitiesNotDecodedInCDATAOrComments() {
        #expect(read("<mtext><![CDATA[&alpha;]]></mtext>").root.leafText == "&alpha;")
        #expect(read("<mrow><!-- &bogus; --><mi>x</mi></mrow>").diagnostics.isEmpty)
    }

    @Test func processingInstructionsAreDropped() {
        // swift-corelibs XMLParser crashes on a processing instruction without data.
        let result = read("<mrow><?pi?><mi>x</mi><?target data?></mrow>")
        #expect(result.root.strippingRanges() == row(mi("x")))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func invalidCharacterReference() {
        let result = read("<mi>&#0;</mi>")
        #expect(result.root.leafText == "\u{FFFD}")
        #expect(ids(result) == ["mathml.invalid-character"])
    }
}
