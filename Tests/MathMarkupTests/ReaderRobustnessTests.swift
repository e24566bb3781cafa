import MathMarkup
import MathSyntax
import Testing

@Suite("MathML reader: malformed input and limits")
struct ReaderRobustnessTests {
    static let malformed: [(String, Int)] = [
        // input, byte offset where the error is reported (approximately: at or after the problem)
        ("<mi>x</mo>", 6),
        ("<mrow><mi>x</mi>", 16),
        ("<mi a='1' a='2'>x</mi>", 10),
        ("<mi a=1>x</mi>", 6),
        ("<mi>x<", 6),
        ("<mrow><mi>x</mi></mrow></mrow>", 23),
        ("<mi>x</mi><!-- open", 19),
        ("<<<>>>", 0),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedInputGivesErrorNode(_ index: Int) {
        let (input, approximateOffset) = Self.malformed[index]
        let result = read(input)
        #expect(result.root.kind == .error(input), "\(input)")
        let diagnostic = result.diagnostics.first { $0.id == "mathml.malformed" }
        #expect(diagnostic != nil, "\(input): \(result.diagnostics)")
        #expect(diagnostic?.severity == .error)
        if let range = diagnostic?.range {
            #expect(range.lowerBound <= input.utf8.count)
            #expect(abs(range.lowerBound - approximateOffset) <= 8, "\(input): reported at \(range)")
        }
    }

    @Test func malformedLocationAccountsForEntities() {
        // Entities before the error change the length of the text the parser sees.
        let input = "<mrow><mi>&alpha;&alpha;&alpha;</mi>\n<mi>x</mo></mrow>"
        let result = read(input)
        let range = result.diagnostics.first { $0.id == "mathml.malformed" }?.range
        let mo = offset(of: "</mo>", in: input)!
        #expect(range.map { abs($0.lowerBound - mo) <= 6 } == true, "\(String(describing: range)) vs \(mo)")
    }

    @Test func deepNestingIsRefused() {
        let depth = 10_000
        let input = String(repeating: "<mrow>", count: depth) + "<mi>x</mi>" + String(repeating: "</mrow>", count: depth)
        let result = read(input)
        #expect(ids(result).contains("mathml.too-deep"))
        #expect(result.root.containsError)
        let range = result.diagnostics.first { $0.id == "mathml.too-deep" }?.range
        #expect(range == SourceRange(6 * 200, 6 * 201)) // the 201st element
    }

    @Test func nestingWithinLimitIsRead() {
        var options = MathMLReader.Options()
        options.maxDepth = 300
        let input = String(repeating: "<mrow>", count: 250) + "<mi>x</mi>" + String(repeating: "</mrow>", count: 250)
        let result = read(input, options: options)
        #expect(result.diagnostics.isEmpty)
        #expect(result.root.nodeCount == 251)
    }

    @Test func hugeInputIsRefused() {
        let input = "<mrow>" + String(repeating: "<mi>x</mi>", count: 2 * 1024 * 1024 / 10) + "</mrow>"
        #expect(input.utf8.count > 2 * 1024 * 1024)
        let result = read(input)
        #expect(ids(result) == ["mathml.input-too-large"])
        #expect(result.root.containsError)
    }

    @Test func tooManyNodes() {
        var options = MathMLReader.Options()
        options.maxNodes = 100
        let input = "<mrow>" + String(repeating: "<mi>x</mi>", count: 200) + "</mrow>"
        #expect(ids(read(input, options: options)) == ["mathml.too-many-nodes"])
    }

    @Test func entityBombIsRefused() {
        let input = """
        <?xml version="1.0"?>
        <!DOCTYPE math [
          <!ENTITY a "aaaaaaaaaa">
          <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
          <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
          <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
          <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
          <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
          <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
          <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
          <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
        ]>
        <math><mi>&i;</mi></math>
        """
        let result = read(input)
        #expect(ids(result) == ["mathml.doctype"])
        #expect(result.diagnostics.first?.severity == .error)
        #expect(result.diagnostics.first?.range?.lowerBound == offset(of: "<!DOCTYPE", in: input))
        #expect(result.root.containsError)
    }

    @Test func externalDoctypeIsIgnored() {
        let input = "<!DOCTYPE math PUBLIC \"-//W3C//DTD MathML 2.0//EN\" \"http://www.w3.org/Math/DTD/mathml2/mathml2.dtd\">\n<math><mi>&alpha;</mi></math>"
        let result = read(input)
        #expect(result.root.strippingRanges() == mi("α"))
        #expect(ids(result) == ["mathml.doctype"])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.root.range?.lowerBound == offset(of: "<mi>", in: input))
    }

    @Test func invalidUTF8IsReplaced() {
        let bytes: [UInt8] = Array("<mi>".utf8) + [0xFF, 0xC3, 0x28] + Array("</mi>".utf8)
        let result = read(String(decoding: bytes, as: UTF8.self))
        #expect(result.root.leafText == "\u{FFFD}\u{FFFD}(")
        #expect(result.diagnostics.isEmpty)
    }

    @Test func nulAndControlCharacters() {
        let result = read("<mi>a\u{0}b\u{1}</mi>")
        #expect(result.root.leafText == "a\u{FFFD}b\u{FFFD}")
        #expect(ids(result) == ["mathml.invalid-character", "mathml.invalid-character"])
        #expect(result.diagnostics.first?.range == SourceRange(5, 6))
    }

    @Test func garbageNeverCrashes() {
        let samples = ["<", ">", "&", "&;", "&#;", "&#x;", "<math", "</math>", "<math><", "<![CDATA[", "<!--", "<?", "<!DOCTYPE",
                       "<mi>\u{FFFF}</mi>", "<a:b:c/>", "<mi xmlns:='x'/>", "<mrow>" + String(repeating: "&alpha", count: 100),
                       "<mtable><mtr><mi>x</mi></mtr></mtable>", "<mmultiscripts><mprescripts/></mmultiscripts>",
                       "<semantics><annotation-xml><a><b/></a></annotation-xml></semantics>", "<mroot/>", "<msubsup><mi>x</mi></msubsup>"]
        for sample in samples {
            let result = read(sample)
            _ = result.root.treeDump()
        }
    }

    @Test func manyElementsInBoundedTime() {
        let input = "<math><mrow>" + String(repeating: "<mi>x</mi><mo>+</mo>", count: 20_000) + "</mrow></math>"
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = read(input) }
        #expect(elapsed < .seconds(20))
    }
}

@Suite("MathML reader: random input")
struct ReaderRandomInputTests {
    /// SplitMix64, so the inputs are the same on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "<math>", "</math>", "<mrow>", "</mrow>", "<mi>", "</mi>", "<mo>", "</mo>", "<mfrac>", "</mfrac>", "<msqrt>",
        "</msqrt>", "<mtable>", "<mtr>", "<mtd>", "</mtd>", "</mtr>", "</mtable>", "<none/>", "<mprescripts/>",
        "<mmultiscripts>", "</mmultiscripts>", "<semantics>", "<annotation>", "</annotation>", "<annotation-xml>",
        "</annotation-xml>", "</semantics>", "<mo fence='true' stretchy='true'>", "<mstyle displaystyle='true' scriptlevel='0'>",
        "</mstyle>", "x", " ", "\n", "&alpha;", "&bogus;", "&", "&#x0;", "&#65;", "<", ">", "'", "\"", "<!--", "-->",
        "<![CDATA[", "]]>", "<!DOCTYPE math>", "<?pi?>", "<?", "?>", "<?xml version='1.0'?>", "<!ENTITY x 'y'>",
        "<!DOCTYPE math [", "]>", " xmlns=''", " xmlns:a='u'", "<a:mi>", "</a:mi>", "<mo form='prefix' fence='true'>", "<mspace width='1em'/>",
        "<mi mathvariant='bold'>", "<mpadded lspace='-1em'>", "</mpadded>", "<mfenced>", "</mfenced>", "<maction>", "</maction>",
        "&#xFFFE;", "&#1114112;", "&InvisibleTimes;", "\u{FFFF}", "\u{FEFF}", "\u{0}", "é", "𝑥", "=", "/", "<mfoo>", "</mfoo>", "<merror>", "</merror>",
    ]

    @Test func randomInputsNeverCrash() {
        var generator = Generator(state: 42)
        for _ in 0..<1500 {
            let count = Int.random(in: 0..<40, using: &generator)
            var input = ""
            for _ in 0..<count { input += Self.pieces.randomElement(using: &generator)! }
            let result = MathMLReader().read(input)
            for diagnostic in result.diagnostics {
                if let range = diagnostic.range { #expect(range.upperBound <= input.utf8.count, "\(input)") }
            }
            result.root.walk { node in
                if let range = node.range { #expect(range.upperBound <= input.utf8.count, "\(input)") }
            }
            // Whatever was read writes and reads back without errors.
            if !result.root.containsError {
                let again = MathMLReader().read(MathMLWriter().write(result.root))
                #expect(!again.diagnostics.containsError, "\(input)\n\(again.diagnostics)")
            }
        }
    }
}
