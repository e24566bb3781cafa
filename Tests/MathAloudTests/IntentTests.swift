import Foundation
import Testing
@testable import MathAloud
@testable import MathSemantics

/// MathML 4 `intent`: an author's intent overrides what the analysis infers, in every style.
@Suite struct IntentTests {
    @Test(arguments: [
        ("transpose($m)", "concept transpose args 1"),
        ("index:silent($H,$n)", "concept index props silent args 2"),
        (":unit", "props unit"),
        ("_($x)", "literal  args 1"),
        ("$op($arg)", "reference op args 1"),
        ("open-interval($start, $end)", "concept open-interval args 2"),
        ("f:prefix(power($x, 2))", "concept f props prefix args 1"),
    ])
    func parses(_ c: (String, String)) throws {
        let e = try #require(IntentExpression(parsing: c.0))
        var d: [String] = []
        switch e.head {
        case .concept(let n)?: d.append("concept \(n)")
        case .literal(let n)?: d.append("literal \(n)")
        case .reference(let n)?: d.append("reference \(n)")
        case .number(let n)?: d.append("number \(n)")
        case nil: break
        }
        if !e.properties.isEmpty { d.append("props " + e.properties.joined(separator: " ")) }
        if let a = e.arguments { d.append("args \(a.count)") }
        #expect(d.joined(separator: " ") == c.1)
    }

    @Test(arguments: ["transpose(", "($x)", "a::b", "f(x,)", String(repeating: "f(", count: 40) + "x" + String(repeating: ")", count: 40)])
    func malformedIntentsAreIgnored(_ text: String) {
        #expect(IntentExpression(parsing: text) == nil)
    }

    /// The same intents in each style: the concept is said, the layout's own reading is not.
    @Test(arguments: ["clearspeak", "mathspeak"])
    func intentOverridesInference(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        func say(_ mathml: String) -> String { normalizedSpeech(speaker.speak(mathML: "<math>\(mathml)</math>").text, dropSpaces: false) }
        // A superscript T is a transpose when the author says so (not "to the T-th power").
        #expect(say("<msup intent='transpose($m)'><mi arg='m'>m</mi><mi>T</mi></msup>") == "transpose of m")
        // A silent identifier says nothing; silent with arguments says only them.
        #expect(say("<mn>2</mn><mi intent=':silent'>x</mi>") == "2")
        #expect(say("<msup intent='index:silent($H,$n)'><mi arg='H'>h</mi><mn arg='n'>2</mn></msup>") == "h 2")
        // A reference whose own intent names the concept.
        #expect(say("<msup intent='$op($arg)'><mi arg='arg'>x</mi><mi arg='op' intent='probability'>P</mi></msup>")
                == "probability of x")
        // Fixity.
        #expect(say("<mrow intent='dot-product:infix($a,$b)'><mi arg='a'>u</mi><mo>⋅</mo><mi arg='b'>v</mi></mrow>")
                == "u dot product v")
        #expect(say("<mrow intent='factorial:postfix($n)'><mi arg='n'>n</mi><mo>!</mo></mrow>") == "n factorial")
        // A concept on an operator replaces the operator's word.
        #expect(say("<mi>a</mi><mo intent='perpendicular-to'>⊥</mo><mi>b</mi>") == "a perpendicular to b")
        // Intervals named by intent.
        #expect(say("<mrow intent='open-interval($a,$b)'><mo>(</mo><mi arg='a'>c</mi><mo>,</mo><mi arg='b'>d</mi><mo>)</mo></mrow>")
                == "the open interval from c to d")
    }

    /// A concept named without arguments (arity 0, MathML 4 §5.1; "intent-core-concepts": a name not
    /// used as a function head has arity 0) says the concept, never the element's content, on a token,
    /// a row or a script alike; a locale without `concept.NAME` words says the name, hyphens as spaces.
    @Test(arguments: ["en", "de"])
    func conceptWithoutArgumentsSaysTheConcept(_ locale: String) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "simplespeak")
        func say(_ mathml: String) -> String { normalizedSpeech(speaker.speak(mathML: "<math>\(mathml)</math>").text, dropSpaces: false) }
        #expect(say("<mi intent='sine'>sin</mi>") == "sine")
        #expect(say("<mrow intent='greatest-common-divisor'><mi>g</mi><mi>c</mi><mi>d</mi></mrow>") == "greatest common divisor")
        #expect(say("<msup intent='transpose'><mi>A</mi><mi>T</mi></msup>") == "transpose")
        #expect(say("<mi intent='natural-numbers:function'>N</mi>") == "natural numbers")
        // It keeps the element's part in the row: a function's name, or a concept the author marks
        // `:function`, is still applied to the argument after it; a plain concept on a letter is not.
        let of = locale == "de" ? "von" : "of"
        #expect(say("<mi intent='sine'>sin</mi><mo>(</mo><mi>x</mi><mo>)</mo>") == "sine \(of) x")
        #expect(say("<mi intent='probability:function'>P</mi><mo>(</mo><mi>x</mi><mo>)</mo>") == "probability \(of) x")
        #expect(!say("<mi intent='probability'>P</mi><mo>(</mo><mi>x</mi><mo>)</mo>").contains(" \(of) "))
    }

    @Test func systemOfEquationsAndContinuedRows() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let text = speaker.speak(mathML: """
            <math><mtable intent=':system-of-equations'>
            <mtr><mtd><mi>x</mi></mtd><mtd><mo>=</mo></mtd><mtd><mi>y</mi></mtd></mtr>
            <mtr intent=':continued-row'><mtd/><mtd/><mtd><mrow><mo>+</mo><mn>1</mn></mrow></mtd></mtr>
            <mtr><mtd><mi>y</mi></mtd><mtd><mo>=</mo></mtd><mtd><mn>1</mn></mtd></mtr>
            </mtable></math>
            """).text
        #expect(normalizedSpeech(text, dropSpaces: false) == "2 equations equation 1 x equals y plus 1 equation 2 y equals 1")
    }

    /// A cell marked `intent="_"` says nothing (an empty cell without it is "blank"), and an operator
    /// marked `form="infix"` is a binary operator even first in its row ("plus e", not "positive e").
    @Test func silentCellsAndWrittenInfixOperators() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ mathml: String) -> String { normalizedSpeech(speaker.speak(mathML: mathml).text, dropSpaces: false) }
        func table(_ cell: String) -> String {
            "<math><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mo>=</mo></mtd><mtd><mi>b</mi></mtd></mtr>"
                + "<mtr>\(cell)\(cell)<mtd><mo form='infix'>+</mo><mi>e</mi><mo>−</mo><mi>f</mi></mtd></mtr></mtable></math>"
        }
        #expect(say(table("<mtd intent='_'></mtd>")) == "2 lines line 1 a equals b line 2 plus e minus f")
        #expect(say(table("<mtd></mtd>")) == "2 lines line 1 a equals b line 2 blank blank plus e minus f")
        #expect(say("<math><mo form='infix'>+</mo><mi>c</mi></math>") == "plus c")
        #expect(say("<math><mo>+</mo><mi>c</mi></math>") == "positive c")
        #expect(say("<math><mi>a</mi><mo>=</mo><mo form=' infix '>−</mo><mi>c</mi></math>") == "a equals minus c")
    }

    /// Words the author gave an element (`aria-label`, `exact-speech`, also on `<math>`) replace what
    /// its content would say, also on an accent mark; a text alternative (`alt`, `alttext`) does not; a
    /// string of glyphs says their names unquoted.
    @Test(arguments: ["clearspeak", "mathspeak"])
    func authorsWordsReplaceTheContent(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        func say(_ mathml: String) -> String { normalizedSpeech(speaker.speak(mathML: mathml).text, dropSpaces: false) }
        let arrow = "<mover><mi>AC</mi><mo stretchy='true'>↔</mo></mover>"
        #expect(say("<math alt='A C under line'><mi>x</mi></math>") == "x")
        #expect(say("<math alttext='x^2'><mi>x</mi></math>") == "x")
        #expect(say("<math exact-speech='A C under line'>\(arrow)</math>") == "a c under line")
        #expect(say("<math aria-label='line A C'>\(arrow)</math>") == "line a c")
        #expect(say("<math alt='  '><mi>x</mi></math>") == "x")
        #expect(say("<math><mover><mi>x</mi><mo aria-label='line'>↔</mo></mover></math>").hasSuffix("line"))
        #expect(say("<math><munder><mi>x</mi><mo exact-speech='segment'>_</mo></munder></math>").hasSuffix("segment"))
        #expect(say("<math><ms><mglyph src='g.png' alt='my glyph'/></ms></math>") == "my glyph")
    }
}
