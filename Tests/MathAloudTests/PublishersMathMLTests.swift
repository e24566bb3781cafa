import Foundation
import MathAloud
import Testing

/// MathML as publishers' tools write it (OpenStax's books among them): function names as text, dashes
/// as minus signs, signs inside numbers. Each is read as the MathML a TeX converter writes is, in every
/// style that infers meaning, and the look-alikes stay as they are.
@Suite struct PublishersMathMLTests {
    static func pair(_ f: String) -> (text: String, identifier: String) {
        ("<math><mi>A</mi><mtext>\(f)</mtext><mo>(</mo><mi>k</mi><mi>x</mi><mo>)</mo><mo>+</mo><msup><mtext>\(f)</mtext><mn>2</mn></msup><mi>θ</mi>"
            + "<mo>+</mo><msup><mtext>\(f)</mtext><mrow><mo>−</mo><mn>1</mn></mrow></msup><mo>(</mo><mi>x</mi><mo>)</mo></math>",
         "<math><mi>A</mi><mi>\(f)</mi><mo>(</mo><mi>k</mi><mi>x</mi><mo>)</mo><mo>+</mo><msup><mi>\(f)</mi><mn>2</mn></msup><mi>θ</mi>"
            + "<mo>+</mo><msup><mi>\(f)</mi><mrow><mo>−</mo><mn>1</mn></mrow></msup><mo>(</mo><mi>x</mi><mo>)</mo></math>")
    }

    /// `<mtext>sin</mtext>` is the sine, as `<mi>sin</mi>` is: applied, squared and inverted alike.
    @Test(arguments: ["clearspeak", "simplespeak", "mathspeak"])
    func functionNamesWrittenAsText(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        for f in ["sin", "cos", "tan", "ln", "exp", "sinh"] {
            let (text, identifier) = Self.pair(f)
            #expect(speaker.speak(mathML: text).text == speaker.speak(mathML: identifier).text, "\(f) in \(style)")
        }
        let clear = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(clear.speak(mathML: Self.pair("tan").text).text.hasSuffix("the inverse tangent of x"))
        // An ordinal's suffix and a word with spaces around it stay text.
        #expect(clear.speak(mathML: "<math><mn>5</mn><mtext>th</mtext></math>").text == "5 th")
        #expect(clear.speak(mathML: "<math><mi>x</mi><mtext> sin </mtext><mi>y</mi></math>").text.contains("sin"))
    }

    /// An en dash set as an operator is the minus sign (negative before an operand); between numbers a range.
    @Test func dashesAreMinusSigns() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mo>(</mo><mo>–</mo><mi>E</mi><mo>)</mo><mo>+</mo><msup><mi>a</mi><mn>2</mn></msup><mo>–</mo><msup><mi>b</mi><mn>2</mn></msup></math>").text
            == "negative E plus a squared minus b squared")
        #expect(speaker.speak(mathML: "<math><mn>10</mn><mo>–</mo><mn>20</mn></math>").text == "10 dash 20")
    }

    /// A unit with the sentence's punctuation typed into its text is the unit, and the mark a pause.
    @Test func unitsWithTheSentencesPunctuation() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mn>4</mn><mtext>N,</mtext><mn>5</mn><mtext>N</mtext></math>").text == "4 newtons, 5 newtons")
        #expect(speaker.speak(mathML: "<math><mn>3</mn><mtext>m/s?</mtext></math>").text == "3 meters per second")
        // In a table's cell too (textbook sweep 13); a label keeps its text.
        #expect(speaker.speak(mathML: "<math><mtable><mtr><mtd><mi>v</mi><mo>=</mo><mn>158.11</mn><mtext>m/s,</mtext><mi>λ</mi><mo>=</mo>"
            + "<mn>4.44</mn><mtext>m,</mtext><mi>f</mi><mo>=</mo><mn>35.61</mn><mtext>Hz</mtext></mtd></mtr></mtable></math>").text
            == "v equals 158.11 meters per second, lambda equals 4.44 meters, f equals 35.61 hertz")
    }

    /// Numbers set as text: a negative exponent is the minus and the number; an amount and its unit in one
    /// text, or an amount alone before a unit text, is a measurement; words after an amount stay words.
    @Test func numbersSetAsText() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><msup><mn>10</mn><mtext>−4</mtext></msup></math>").text == "10 to the negative 4 power")
        #expect(speaker.speak(mathML: "<math><mtext>12.5 kJ</mtext></math>").text == "12.5 kilojoules")
        #expect(speaker.speak(mathML: "<math><mi>d</mi><mo>=</mo><mtext>3.0 g/mL</mtext></math>").text == "d equals 3.0 grams per milliliter")
        #expect(speaker.speak(mathML: "<math><mtext>800</mtext><mspace width=\"0.2em\"/><mtext>J</mtext></math>").text == "800 joules")
        #expect(speaker.speak(mathML: "<math><mtext>2 moles of gas</mtext></math>").text == "2 moles of gas")
        // A phrase with a footnote's mark stays the phrase; a minus before a function's name; a hydrate's dot.
        #expect(speaker.speak(mathML: "<math><msup><mtext>1 unit</mtext><mn>2</mn></msup></math>").text
            == speaker.speak(mathML: "<math><msup><mtext>one unit</mtext><mn>2</mn></msup></math>").text.replacingOccurrences(of: "one", with: "1"))
        #expect(speaker.speak(mathML: "<math><mtext>−log</mtext><mo>[</mo><mi>x</mi><mo>]</mo></math>").text
            == speaker.speak(mathML: "<math><mo>−</mo><mtext>log</mtext><mo>[</mo><mi>x</mi><mo>]</mo></math>").text)
        #expect(speaker.speak(mathML: "<math><msub><mtext>CuSO</mtext><mn>4</mn></msub><mn>∙5</mn><msub><mtext>H</mtext><mn>2</mn></msub><mtext>O</mtext></math>").text
            == "cap C u cap S cap O sub 4, dot 5 cap H sub 2 cap O")
        // The word "at" after an amount is no attotonne.
        #expect(speaker.speak(mathML: "<math><mi>v</mi><mo>=</mo><mn>0</mn><mspace width=\"0.2em\"/><mtext>at</mtext><mspace width=\"0.2em\"/><mi>t</mi><mo>=</mo><mn>0</mn></math>").text
            == "v equals 0 at t equals 0")
    }

    /// A quotient of units followed by a product of units continues its denominator, as physics writes a
    /// specific heat (J/kg·°C is J/(kg·°C)); a quotient with a power keeps its reading.
    @Test func quotientThenProductOfUnits() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mn>800</mn><mtext>J/kg</mtext><mo>·</mo><mtext>°</mtext><mtext>C</mtext></math>").text
            == "800 joules per kilogram degree Celsius")
        #expect(speaker.speak(tex: #"800\,\mathrm{J/kg\cdot K}"#).text == speaker.speak(tex: #"800\,\mathrm{J/(kg\,K)}"#).text)
        #expect(speaker.speak(tex: #"800\,\mathrm{J/(kg\cdot °C)}"#).text == "800 joules per kilogram degree Celsius")
        #expect(speaker.speak(tex: #"3\,\mathrm{m/s^2}\,\mathrm{kg}"#).text == "3 meters per second squared, kg")
    }

    /// Units as OpenStax's University Physics sets them (textbook sweep 13): a power in a row of its own, a quotient's
    /// slash typed at the end of the numerator's text or at the start of the denominator's, a product whose last factor is
    /// a quotient in one text, and a quotient in one text without a quantity (after a vector's components, alone). The
    /// look-alikes stay: a fraction or words with a slash, a slash before no unit.
    @Test func unitsSetAsPhysicsTextbooksWriteThem() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        let space = "<mspace width=\"0.2em\"/>"
        #expect(say("<mn>0.550</mn>\(space)<msup><mrow><mtext>m/s</mtext></mrow><mrow><mn>2</mn></mrow></msup>") == "0.550 meters per second squared")
        #expect(say("<mn>2.1</mn>\(space)<mrow><mtext>m/</mtext><mrow><msup><mtext>s</mtext><mn>2</mn></msup></mrow></mrow>")
            == "2.1 meters per second squared")
        #expect(say("<mn>1122</mn>\(space)<mtext>J/</mtext><mtext>°C</mtext>") == "1122 joules per degree Celsius")
        #expect(say("<mn>24.1</mn><mrow><mrow><mtext>m</mtext></mrow><mtext>/s</mtext></mrow>") == "24.1 meters per second")
        #expect(say("<mn>83.0</mn>\(space)<msup><mtext>cm</mtext><mn>3</mn></msup><mtext>/s</mtext>") == "83.0 cubic centimeters per second")
        #expect(say("<mn>6.67</mn>\(space)<mtext>N</mtext><mo>·</mo><msup><mtext>m</mtext><mn>2</mn></msup><msup><mrow><mtext>/kg</mtext></mrow><mn>2</mn></msup>")
            == "6.67 newton square meters per square kilogram")
        #expect(say("<mn>1.78</mn>\(space)<mtext>kg</mtext><mo>·</mo><mtext>m/s</mtext>") == "1.78 kilogram meters per second")
        #expect(say("<mn>1</mn>\(space)<mtext>kg</mtext><mo>·</mo><msup><mrow><mtext>m/s</mtext></mrow><mn>2</mn></msup>")
            == "1 kilogram meter per second squared")
        let hat = "<mstyle mathvariant=\"bold\"><mover accent=\"true\"><mi>i</mi><mo>^</mo></mover></mstyle>"
        #expect(say("<mo>(</mo><mn>4.0</mn>\(hat)<mo>)</mo><mrow><mtext>m/</mtext><mrow><msup><mtext>s</mtext><mn>2</mn></msup></mrow></mrow>")
            == "open paren, 4.0 bold i hat, close paren, meters per second squared")
        #expect(say("<mo>(</mo><mn>10</mn>\(hat)<mo>)</mo><mrow><mtext>m/s</mtext></mrow>") == "open paren, 10 bold i hat, close paren, meters per second")
        #expect(say("<msup><mrow><mtext>N/m</mtext></mrow><mn>2</mn></msup>") == "newtons per square meter")
        // A quotient alone before a product of units continues its denominator, as after a quantity (a value's uncertainty
        // in parentheses between them).
        #expect(say("<mn>8.314</mn><mo>(</mo><mn>15</mn><mo>)</mo><mtext>J/mol</mtext><mo>·</mo><mtext>K</mtext>")
            == "8.314, open paren, 15, close paren, joules per mole kelvin")
        #expect(say("<mo>=</mo><mrow><mo>(</mo><mtext>J/s</mtext><mo>)</mo></mrow>") == "equals joules per second")
        // A space opening the raised quotient (OpenStax's calculus books), a scale's degree and a prefix set apart before a
        // quotient's text: the one unit.
        #expect(say("<mi>x</mi><msup><mrow><mspace width=\"0.2em\"/><mtext>m/sec</mtext></mrow><mn>2</mn></msup>") == "x meters per second squared")
        #expect(say("<mn>0.00824</mn><mtext>°</mtext><mtext>F/min</mtext>") == "0.00824 degrees Fahrenheit per minute")
        #expect(say("<mn>30</mn><mi>μ</mi><msup><mtext>C/m</mtext><mn>2</mn></msup>") == "30 microcoulombs per square meter")
        #expect(say("<mn>5</mn><mi>μ</mi><mi>x</mi>") == "5 mu x")
        // A scale's degree before a quotient alone; a second slash after a quotient (the Hubble constant).
        #expect(say("<mo>(</mo><mtext>°</mtext><mtext>C/s</mtext><mo>)</mo>") == "degrees Celsius per second")
        #expect(say("<mtext>°</mtext><mi>x</mi>") == "degrees x")
        #expect(say("<mn>70</mn><mtext>km</mtext><mtext>/</mtext><mtext>s</mtext><mtext>/</mtext><mtext>Mpc</mtext>")
            == "70 kilometers per second per megaparsec")
        // Look-alikes: a fraction, words and a slash before no unit stay as written.
        #expect(say("<mtext>1/2</mtext>") == "1 divided by 2")
        #expect(say("<mtext>melting/freezing</mtext>") == "melting/freezing")
        #expect(say("<mn>2</mn><mtext>m/</mtext><mi>x</mi>") == "2 m/ x")
        #expect(say("<mn>2</mn><mtext>/x</mtext>") == "2 /x")
    }

    /// Infinity and three middle dots set as text alone (`<mtext>∞</mtext>`, `<mtext>···</mtext>`, OpenStax's University
    /// Physics, textbook sweep 13) are the identifier and the midline ellipsis, in every style; two dots are no ellipsis.
    @Test(arguments: ["clearspeak", "mathspeak"])
    func infinityAndEllipsisSetAsText(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        #expect(say("<mfrac><mn>1</mn><mtext>∞</mtext></mfrac>") == say("<mfrac><mn>1</mn><mi>∞</mi></mfrac>"))
        #expect(say("<mi>x</mi><mo>+</mo><mtext>···</mtext>") == say("<mi>x</mi><mo>+</mo><mo>⋯</mo>"))
        #expect(say("<mtext>··</mtext>") != say("<mo>⋯</mo>"))
    }

    /// Chemistry set as text, as publishers write it: element symbols as the formula's, states, ions whose
    /// charge is one number, equations; the same formula's look-alikes in mathematics stay mathematics.
    @Test func chemistrySetAsText() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><msub><mtext>KClO</mtext><mn>3</mn></msub></math>").text == "cap K cap C l cap O sub 3")
        #expect(speaker.speak(mathML: "<math><msub><mtext>N</mtext><mn>2</mn></msub><msub><mtext>O</mtext><mn>5</mn></msub></math>").text
            == "cap N sub 2 cap O sub 5")
        #expect(speaker.speak(mathML: "<math><mtext>KBr</mtext><mo>(</mo><mi>s</mi><mo>)</mo></math>").text == "cap K cap B r solid")
        #expect(speaker.speak(mathML: "<math><msup><mtext>Ba</mtext><mn>2+</mn></msup><mo>(</mo><mi>a</mi><mi>q</mi><mo>)</mo></math>").text
            == "cap B a super 2 plus aqueous")
        let equation = "<math><mn>2</mn><msub><mtext>KClO</mtext><mn>3</mn></msub><mo>(</mo><mi>s</mi><mo>)</mo><mo>⟶</mo><mn>2</mn><mtext>KCl</mtext>"
            + "<mo>(</mo><mi>s</mi><mo>)</mo><mo>+</mo><mn>3</mn><msub><mtext>O</mtext><mn>2</mn></msub><mo>(</mo><mi>g</mi><mo>)</mo></math>"
        #expect(speaker.speak(mathML: equation).text == "2 cap K cap C l cap O sub 3 solid yields 2 cap K cap C l solid plus 3 cap O sub 2 gas")
        #expect(speaker.speak(mathML: "<math><msub><mtext>B</mtext><mn>3</mn></msub></math>").text == "B sub 3")
        // The same as TeX writes a compound upright: three symbols or a two-letter one.
        #expect(speaker.speak(tex: #"\mathrm{KClO}_3"#).text == "cap K cap C l cap O sub 3")
        // Look-alikes: groups, indexed variables, a function of s, a letter before letters in parentheses.
        #expect(speaker.speak(tex: #"\mathrm{SO}_3"#).text == "SO sub 3")
        #expect(speaker.speak(tex: #"\mathrm{CaCl}_2"#).text == "cap C a cap C l sub 2")
        #expect(speaker.speak(tex: "P_1 V_1 = P_2 V_2").text == "P sub 1, V sub 1, equals P sub 2, V sub 2")
        #expect(speaker.speak(tex: #"\text{Re}(s)"#).text == "real part of s")
        #expect(speaker.speak(tex: "x(aq)").text == "x times, open paren, a q, close paren")
        #expect(speaker.speak(tex: "x^{2+}").text == "x superscript 2 plus")
    }

    /// Operators and numbers set in pieces, as publishers' statistics books write them: a relation, a bracket or a
    /// bar set as text alone is the operator, a text of only invisible characters is nothing, a sign in a style
    /// that only sizes it is the sign, and a decimal set in pieces is one number. Text with other words, the bar
    /// ∣ set as text and a point after a letter stay as written.
    @Test func operatorsAndNumbersSetInPieces() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ mathML: String) -> String { speaker.speak(mathML: "<math>" + mathML + "</math>").text }
        #expect(say("<mi>x</mi><mtext> = </mtext><mn>2</mn>") == "x equals 2")
        #expect(say("<mi>P</mi><mtext>(</mtext><mi>C</mi><mtext>|</mtext><mi>D</mi><mtext>)</mtext>") == "P of, open paren, C given D, close paren")
        #expect(say("<msup><mstyle displaystyle=\"true\"><mo>∑</mo></mstyle><mtext>&#x200B;</mtext></msup><msup><mi>x</mi><mn>2</mn></msup>")
            == "the sum of x squared")
        #expect(say("<munderover><mstyle displaystyle=\"true\"><mo>∑</mo></mstyle><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>x</mi><mi>i</mi></msub>")
            == "the sum from i equals 1 to n of x sub i")
        #expect(say("<mi>p</mi><mo>=</mo><mn>0</mn><mo>.</mo><mn>62</mn><mo>+</mo><mn>0</mn><mn>.3</mn><mo>+</mo><mo>.</mo><mn>02</mn>") == "p equals 0.62 plus 0.3 plus .02")
        #expect(say("<mn>72.</mn><mn>215</mn>") == "72.215")
        #expect(say("<mn>3.0</mn><mo>×</mo><mn>1</mn><msup><mn>0</mn><mn>8</mn></msup>") == "3.0 times 10 to the eighth power")
        // Only a row's children join: an element's parts stay its parts (2^{2^k}, 1/2^k, a power .5).
        #expect(say("<msup><mn>2</mn><msup><mn>2</mn><mi>k</mi></msup></msup>") == speaker.speak(tex: "2^{2^{k}}").text)
        #expect(say("<mfrac><mn>1</mn><msup><mn>2</mn><mi>k</mi></msup></mfrac>") == speaker.speak(tex: #"\frac{1}{2^k}"#).text)
        #expect(say("<msup><mn>1</mn><mn>.5</mn></msup>") == "1 raised to the .5 power")
        // A letter with an accent in one character is the letter under the accent, as TeX's \hat{y} is.
        #expect(say("<mi>ŷ</mi><mo>=</mo><mi>ȳ</mi><mo>+</mo><mi>x̄</mi>") == "y hat equals y bar plus x bar")
        #expect(say("<mi>ŷ</mi>") == speaker.speak(tex: #"\hat{y}"#).text)
        #expect(speaker.speak(tex: "ŷ").text == "y hat")
        // Look-alikes.
        #expect(say("<mi>é</mi>") == "é")
        // A sign set apart from words in one text is the operator, the words a name (``formulasOfNamesSetAsText()``).
        #expect(say("<mi>x</mi><mtext>= sample mean</mtext>") == "x equals sample mean")
        #expect(!say("<mtext>∣</mtext><mi>ψ</mi><msup><mtext>∣</mtext><mn>2</mn></msup>").contains("divides"))
        #expect(say("<mi>x</mi><mo>.</mo><mn>2</mn>") == "x dot 2")
        // A limit above only is said (`\sum^n`), in TeX as in MathML.
        #expect(speaker.speak(tex: #"\sum^{n} x_i"#).text == "the sum to n of x sub i")
    }

    /// Ions as publishers set them: a charge on nothing after a counted formula is its charge, a group in
    /// parentheses after an element set as text is the formula's, not a function's argument, and a charge
    /// on a formula in brackets makes a complex ion, a species of a reaction. Staggered scripts, names
    /// before arguments and products of concentrations stay what they were.
    @Test func ionsSetAsText() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ mathML: String) -> String { speaker.speak(mathML: "<math>" + mathML + "</math>").text }
        #expect(say("<msub><mrow><mtext>HPO</mtext></mrow><mn>4</mn></msub><mrow/><msup><mrow/><mo>2−</mo></msup>")
            == "cap H cap P cap O sub 4 super 2 minus")
        #expect(say("<msub><mtext>H</mtext><mn>2</mn></msub><msub><mtext>PO</mtext><mn>4</mn></msub><msup><mrow/><mo>−</mo></msup>")
            == "cap H sub 2 cap P cap O sub 4 super minus")
        #expect(say("<msub><mtext>O</mtext><mn>2</mn></msub><msup><mrow/><mn>2−</mn></msup>") == "cap O sub 2 super 2 minus")
        #expect(speaker.speak(tex: #"\mathrm{O}_2^{2-}"#).text == "cap O sub 2 super 2 minus")
        #expect(say("<mn>2</mn><mtext>Ca</mtext><msub><mrow><mo>(</mo><mtext>OH</mtext><mo>)</mo></mrow><mn>2</mn></msub>")
            == "2 cap C a, open paren, cap O cap H, close paren, sub 2")
        #expect(say("<msup><mrow><mo>[</mo><mtext>Zn</mtext><msub><mrow><mo>(</mo><mtext>CN</mtext><mo>)</mo></mrow><mn>4</mn></msub><mo>]</mo></mrow>"
                    + "<mn>2−</mn></msup><mo>+</mo><mn>2</mn><msup><mtext>e</mtext><mo>−</mo></msup><mo>⟶</mo><mtext>Zn</mtext>")
            == "open bracket, cap Z n, open paren, cap C cap N, close paren, sub 4, close bracket, super 2 minus plus 2 e minus, yields cap Z n")
        #expect(say("<mn>2</mn><msup><mrow><mo>[</mo><mtext>Ag</mtext><msub><mrow><mo>(</mo><mtext>CN</mtext><mo>)</mo></mrow><mn>2</mn></msub>"
                    + "<mo>]</mo></mrow><mtext>−</mtext></msup><mo>(</mo><mi>a</mi><mi>q</mi><mo>)</mo>")
            == "2, open bracket, cap A g, open paren, cap C cap N, close paren, sub 2, close bracket, super minus aqueous")
        // Look-alikes: staggered indices, a sign on nothing after an index, names applied, concentrations.
        #expect(speaker.speak(tex: "T_i{}^j").text == "T sub i, to the j-th power")
        #expect(say("<msub><mi>x</mi><mi>i</mi></msub><msup><mrow/><mo>+</mo></msup>") == "x sub i, plus")
        #expect(say("<mtext>Foo</mtext><mo>(</mo><mi>x</mi><mo>)</mo>") == "Foo of x")
        #expect(say("<mtext>Li</mtext><mo>(</mo><mi>x</mi><mo>)</mo>") == "Li of x")
        #expect(say("<mrow><mo>[</mo><mtext>CO</mtext><mo>]</mo></mrow><mrow><mo>[</mo><msub><mtext>H</mtext><mn>2</mn></msub><mtext>O</mtext><mo>]</mo></mrow>")
            == "open bracket, CO, close bracket, times, open bracket, cap H sub 2 cap O, close bracket")
        #expect(speaker.speak(tex: "P(C_2)").text == "P of C sub 2")
        // A coefficient set in one text with its formula (`<mtext>3Hg</mtext>`, `<msub><mtext>8HNO</mtext><mn>3</mn></msub>`):
        // the number and the formula, its count or charge the formula's; no unit ("4 henrys") is made of it.
        #expect(say("<mtext>3Hg</mtext><mo>(</mo><mi>l</mi><mo>)</mo><mo>+</mo><msub><mtext>8HNO</mtext><mn>3</mn></msub><mo>(</mo><mi>a</mi><mi>q</mi><mo>)</mo>"
                    + "<mo>⟶</mo><msub><mrow><mtext>4H</mtext></mrow><mn>2</mn></msub><mtext>O</mtext><mo>(</mo><mi>l</mi><mo>)</mo>")
            == "3 cap H g liquid plus 8 cap H cap N cap O sub 3 aqueous yields 4 cap H sub 2 cap O liquid")
        #expect(say("<mn>6</mn><msup><mtext>2F</mtext><mo>−</mo></msup><mo>+</mo><mi>x</mi>").contains("farad") == false)
        // In a reaction, an element set as text alone, counted or with a coefficient is the element, as in a formula.
        #expect(say("<mtext>Zn</mtext><mo>+</mo><mn>2</mn><msub><mtext>O</mtext><mn>2</mn></msub><mo>⟶</mo><msup><mtext>Zn</mtext><mn>2+</mn></msup><mo>+</mo><mn>2</mn><mtext>Ag</mtext>")
            == "cap Z n plus 2 cap O sub 2 yields cap Z n super 2 plus plus 2 cap A g")
        // Look-alikes: ordinals, a dimension, a measurement set as one text.
        #expect(say("<mtext>2nd</mtext><mo>,</mo><mtext>3D</mtext>") == "2nd comma 3D")
    }

    /// Calculus as publishers set it (OpenStax's calculus books): a style's `mathvariant` is its tokens', factorial signs,
    /// ellipses, primes and nabla set as text are the operators, a hyphen before a word is the word's, a minus typed
    /// before infinity is the minus, a bar closing a script's base evaluates it, and a space opening a script's base is
    /// before the scripts. Each reads as the same formula written in TeX does.
    @Test(arguments: ["clearspeak", "simplespeak"])
    func calculusSetAsPublishersWrite(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        func same(_ mathML: String, _ tex: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            #expect(speaker.speak(mathML: "<math>" + mathML + "</math>").text == speaker.speak(tex: tex).text, sourceLocation: sourceLocation)
        }
        same("<mstyle mathvariant=\"bold\" mathsize=\"normal\"><mtext>u</mtext></mstyle><mo>(</mo><mi>s</mi><mo>)</mo><mo>=</mo><mn>2</mn>"
             + "<mstyle mathvariant=\"bold\"><mi>j</mi></mstyle>", #"\mathbf{u}(s)=2\mathbf{j}"#)
        same("<mi>k</mi><mtext>!</mtext><mo>+</mo><mn>1</mn>", "k!+1")
        same("<mn>1</mn><mo>+</mo><mi>q</mi><mo>+</mo><mtext>⋯</mtext>", #"1+q+\cdots"#)
        same("<mi>m</mi><mo>=</mo><mn>0</mn><mo>,</mo><mn>1</mn><mtext>,…</mtext>", #"m=0,1,\ldots"#)
        same("<mi>z</mi><mtext>″</mtext><mo>(</mo><mi>s</mi><mo>)</mo>", "z''(s)")
        same("<mtext>∇</mtext><mi>g</mi><mo>+</mo><mo>∇</mo><mi>h</mi>", #"\nabla g+\nabla h"#)
        same("<mi>z</mi><mtext>-axis</mtext>", #"z\text{-axis}"#)
        same("<mi>t</mi><mo>→</mo><mi>–∞</mi><mo>,</mo><mi>u</mi><mo>→</mo><mtext>−∞</mtext>", #"t \to -\infty, u \to -\infty"#)
        same("<msubsup><mrow><mrow><mi>g</mi><mo>(</mo><mi>s</mi><mo>)</mo></mrow><mo>|</mo></mrow><mn>1</mn><mn>3</mn></msubsup>", #"\left.g(s)\right|_1^3"#)
        same("<msub><mrow><msup><mi>s</mi><mn>2</mn></msup><mo>|</mo></mrow><mrow><mi>s</mi><mo>=</mo><mn>4</mn></mrow></msub>", #"\left.s^2\right|_{s=4}"#)
        same("<mn>7</mn><msup><mrow><mspace width=\"0.2em\"/><mtext>mm</mtext></mrow><mn>2</mn></msup>", #"7\,\mathrm{mm}^2"#)
        // The same space typed inside TeX's upright unit: the unit's power.
        #expect(speaker.speak(tex: #"7\mathrm{\,mm}^2"#).text == speaker.speak(tex: #"7\,\mathrm{mm}^2"#).text)
        // Look-alikes: a bar of an absolute value, a minus sign before a function's name, a style's own tokens.
        same("<msup><mrow><mo>|</mo><mi>w</mi><mo>|</mo></mrow><mn>2</mn></msup>", "|w|^2")
        same("<mtext>−cos</mtext><mi>x</mi>", #"-\cos x"#)
        same("<mstyle mathvariant=\"bold\"><mi mathvariant=\"normal\">A</mi><mi>x</mi></mstyle>", #"\mathrm{A}\mathbf{x}"#)
        same("<mstyle mathvariant=\"italic\"><mi>x</mi></mstyle>", "x")
    }

    /// Numbers as OpenStax's algebra books set them (sweep 10): a degree, percent or prime sign typed into the number,
    /// digits set as text, a list in one number token, a currency sign and a digit group's comma set as text, a
    /// decimal typed in pieces of text and numbers, a comma typed after digits, and a minus set as an identifier or
    /// typed into one before letters. Each reads as the same formula written in TeX or in plain tokens.
    @Test(arguments: ["clearspeak", "simplespeak"])
    func numbersSetAsPublishersWrite(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        func say(_ mathML: String) -> String { speaker.speak(mathML: "<math>" + mathML + "</math>").text }
        func same(_ mathML: String, _ plain: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            #expect(say(mathML) == say(plain), sourceLocation: sourceLocation)
        }
        same("<mi>cos</mi><mn>135°</mn><mo>+</mo><mn>−60°</mn>", "<mi>cos</mi><mn>135</mn><mo>°</mo><mo>+</mo><mo>−</mo><mn>60</mn><mo>°</mo>")
        same("<mn>45%</mn>", "<mn>45</mn><mo>%</mo>")
        #expect(say("<mn>12′</mn>") == speaker.speak(tex: "12'").text)
        same("<msup><mi>x</mi><mtext>10</mtext></msup>", "<msup><mi>x</mi><mn>10</mn></msup>")
        same("<mo>(</mo><mn>1, 0</mn><mo>)</mo>", "<mo>(</mo><mn>1</mn><mo>,</mo><mn>0</mn><mo>)</mo>")
        same("<mtext>$</mtext><mn>25</mn>", "<mo>$</mo><mn>25</mn>")
        same("<mi>$</mi><mn>25</mn>", "<mo>$</mo><mn>25</mn>")
        same("<mn>131</mn><mtext>,</mtext><mn>072</mn><mi>a</mi>", "<mn>131,072</mn><mi>a</mi>")
        same("<mo>−</mo><mtext>1</mtext><mo>.</mo><mtext>981</mtext><mi>x</mi><mo>+</mo><mtext>6</mtext><mn>0.</mn><mtext>197</mtext>",
             "<mo>−</mo><mn>1.981</mn><mi>x</mi><mo>+</mo><mn>60.197</mn>")
        same("<mo>(</mo><mtext>3,6</mtext><mn>00</mn><mo>,</mo><mn>2</mn><mo>)</mo>", "<mo>(</mo><mn>3,600</mn><mo>,</mo><mn>2</mn><mo>)</mo>")
        same("<mo>[</mo><mn>0</mn><mo>,</mo><mtext>0</mtext><mtext>.01</mtext><mo>]</mo>", "<mo>[</mo><mn>0</mn><mo>,</mo><mn>0.01</mn><mo>]</mo>")
        // Commas typed after digits: a list's, or digit groups'.
        same("<mi>x</mi><mo>=</mo><mn>5,</mn><mi>y</mi>", "<mi>x</mi><mo>=</mo><mn>5</mn><mo>,</mo><mi>y</mi>")
        same("<mi>log</mi><mo>(</mo><mn>1,</mn><mn>000,</mn><mn>000</mn><mo>)</mo>", "<mi>log</mi><mo>(</mo><mn>1,000,000</mn><mo>)</mo>")
        same("<mo>(</mo><mn>0,</mn><mn>18</mn><mo>)</mo>", "<mo>(</mo><mn>0</mn><mo>,</mo><mn>18</mn><mo>)</mo>")
        // A minus set as an identifier, or typed before letters in an identifier or a number, is the minus sign.
        same("<mi>f</mi><mo>(</mo><mi>−</mi><mi>x</mi><mo>)</mo><mo>=</mo><mi>−</mi><mi>y</mi>", "<mi>f</mi><mo>(</mo><mo>−</mo><mi>x</mi><mo>)</mo><mo>=</mo><mo>−</mo><mi>y</mi>")
        same("<mi>f</mi><mo>(</mo><mi>−x</mi><mo>)</mo>", "<mi>f</mi><mo>(</mo><mo>−</mo><mi>x</mi><mo>)</mo>")
        #expect(say("<msub><mi>−log</mi><mi>b</mi></msub><mo>(</mo><mi>x</mi><mo>)</mo>") == speaker.speak(tex: #"-\log_b(x)"#).text)
        // Look-alikes: an index of two digits stays two, a range of angles stays a range, a number with a word stays text.
        #expect(say("<msub><mi>b</mi><mrow><mn>1</mn><mn>2</mn></mrow></msub>") != say("<msub><mi>b</mi><mn>12</mn></msub>"))
        #expect(say("<mn>45°</mn><mo>–</mo><mn>90°</mn>").contains("dash 90 degrees"))
        #expect(say("<mtext>2 apples</mtext>").contains("apples"))
        // Textbook sweep 11: a number and an ellipsis in one token; a repeating decimal's digits under a dash or a run of
        // dashes, as under a macron; a run of underscores is a blank, not the character said once per underscore.
        same("<mn>4</mn><mo>,</mo><mtext>5…</mtext>", "<mn>4</mn><mo>,</mo><mn>5</mn><mo>…</mo>")
        same("<mn>3.14...</mn>", "<mn>3.14</mn><mo>…</mo>")
        same("<mtext>180°</mtext><mo>−</mo><mtext>40°</mtext>", "<mn>180</mn><mo>°</mo><mo>−</mo><mn>40</mn><mo>°</mo>")
        same("<mtext>∠</mtext><mi>A</mi>", "<mo>∠</mo><mi>A</mi>")
        same("<mn>4</mn><mo>.</mo><mover accent=\"true\"><mrow><mn>16</mn></mrow><mtext>—</mtext></mover>",
             "<mn>4</mn><mo>.</mo><mover accent=\"true\"><mrow><mn>16</mn></mrow><mo>¯</mo></mover>")
        same("<mn>0</mn><mo>.</mo><mover accent=\"true\"><mn>271</mn><mtext>–––</mtext></mover>",
             "<mn>0</mn><mo>.</mo><mover accent=\"true\"><mn>271</mn><mo>¯</mo></mover>")
        #expect(say("<mn>1.9</mn><mover accent=\"true\"><mn>54</mn><mtext>—</mtext></mover>").contains("repeat"))
        #expect(!say("<mi>sin</mi><mo>(</mo><mo>___</mo><mo>)</mo>").contains("underscore"))
        #expect(say("<mi>x</mi><mo>=</mo><mtext>______</mtext>") == speaker.speak(tex: #"x = \underline{\qquad}"#).text)
        // A line of underscores under the last addend of a sum in columns is the underline, not a blank.
        same("<munder accentunder=\"true\"><mrow><mo>+</mo><mn>69</mn></mrow><mtext>____</mtext></munder>",
             "<munder accentunder=\"true\"><mrow><mo>+</mo><mn>69</mn></mrow><mo>_</mo></munder>")
        // A system of equations after a lone brace, ended by the sentence's full stop, is cases as without it.
        let system = "<mtable><mtr><mtd><mi>x</mi><mo>=</mo><mn>1</mn></mtd></mtr><mtr><mtd><mi>y</mi><mo>=</mo><mn>2</mn></mtd></mtr></mtable>"
        #expect(say("<mrow><mrow><mo>{</mo>" + system + "</mrow><mo>.</mo></mrow>").hasPrefix(say("<mo>{</mo>" + system)))
        #expect(say("<mo>{</mo>" + system + "<mo>.</mo>").hasPrefix(say("<mo>{</mo>" + system)))
        // Look-alikes: a number with a dash over it and no decimal point stays as written; one underscore stays.
        #expect(!say("<mover><mn>5</mn><mo>-</mo></mover>").contains("repeat"))
        #expect(say("<mi>a</mi><mo>_</mo><mi>b</mi>").contains("underscore"))
        // Textbook sweep 12: a currency sign and its amount in one token (a sentence's full stop, a minus with them), and a
        // currency sign set as an operator or text after an amount, read as the sign and the number are in TeX.
        same("<mtext>$100</mtext>", "<mo>$</mo><mn>100</mn>")
        same("<mn>$9.99</mn><mo>÷</mo><mn>3</mn>", "<mo>$</mo><mn>9.99</mn><mo>÷</mo><mn>3</mn>")
        same("<mtext>$1,000,000.</mtext>", "<mo>$</mo><mn>1,000,000</mn><mo>.</mo>")
        same("<mtext>−$25</mtext>", "<mo>−</mo><mo>$</mo><mn>25</mn>")
        same("<mn>$</mn><mn>42,888.18</mn>", "<mo>$</mo><mn>42,888.18</mn>")
        #expect(say("<mtext>$100</mtext>") == speaker.speak(tex: #"\$100"#).text)
        #expect(say("<mn>50</mn><mo>¢</mo>") == say("<mn>50</mn><mi>¢</mi>"))
        #expect(say("<mtext>50¢</mtext>") == speaker.speak(tex: "50¢").text)
        #expect(say("<mn>1</mn><mo>¢</mo>") == say("<mn>1</mn><mi>¢</mi>"))
        // Signs and numbers set as one text: each as it reads set alone, digits as the number, ∞ the identifier.
        same("<mtext>(−∞, ∞)</mtext>", "<mo>(</mo><mo>−</mo><mi>∞</mi><mo>,</mo><mi>∞</mi><mo>)</mo>")
        same("<mi>x</mi><mo>→</mo><mtext>−∞.</mtext>", "<mi>x</mi><mo>→</mo><mo>−</mo><mi>∞</mi><mtext>.</mtext>")
        same("<mtext>(</mtext><mi>t</mi><mo>=</mo><mn>0</mn><mtext>),</mtext>", "<mo>(</mo><mi>t</mi><mo>=</mo><mn>0</mn><mo>)</mo><mo>,</mo>")
        same("<mtext>$900, $1,600</mtext>", "<mo>$</mo><mn>900</mn><mo>,</mo><mo>$</mo><mn>1,600</mn>")
        same("<mn>5</mn><mtext>%,</mtext>", "<mn>5</mn><mo>%</mo><mo>,</mo>")
        same("<mn>1</mn><mo>,</mo><mn>2</mn><mtext>...</mtext>", "<mn>1</mn><mo>,</mo><mn>2</mn><mo>…</mo>")
        same("<mtext>“</mtext><mi>y</mi>", "<mo>“</mo><mi>y</mi>")
        #expect(!say("<mi>y</mi><mtext>.)</mtext>").contains(")"))
        // A degree sign set as text in a superscript is the degree ring; a full stop typed after a number's sign is the operator.
        same("<msup><mn>2800</mn><mtext>°</mtext></msup><mi>C</mi>", "<msup><mn>2800</mn><mo>°</mo></msup><mi>C</mi>")
        same("<mi>B</mi><mo>=</mo><mn>22°.</mn>", "<mi>B</mi><mo>=</mo><mn>22</mn><mo>°</mo><mo>.</mo>")
        // Look-alikes: a rate or a phrase with an amount in it stays text; so does a sign between two points, a run of low
        // lines (a blank) and a point that begins a decimal before the text.
        #expect(say("<mi>x</mi><mo>=</mo><mtext>__°</mtext>").contains("blank") || !say("<mi>x</mi><mo>=</mo><mtext>__°</mtext>").contains("_ _"))
        #expect(say("<mtext>1</mtext><mtext>.4 + 1</mtext>").contains(".4"))
        // A sign of arithmetic set as text alone is the operator in every style (MathSpeak read the text as written, "− infinity");
        // a hyphen set alone is a word's ("x-intercept").
        same("<mo>(</mo><mtext>−</mtext><mi>∞</mi><mo>,</mo><mn>0</mn><mo>]</mo>", "<mo>(</mo><mo>−</mo><mi>∞</mi><mo>,</mo><mn>0</mn><mo>]</mo>")
        same("<mi>x</mi><mtext>+</mtext><mn>1</mn>", "<mi>x</mi><mo>+</mo><mn>1</mn>")
        #expect(say("<mi>x</mi><mtext>-</mtext><mtext>intercept</mtext>").contains("-"))
        let mathSpeak = try SpeakerCache.shared.speaker(style: "mathspeak")
        #expect(mathSpeak.speak(mathML: "<math><mtext>−</mtext><mi>∞</mi></math>").text == mathSpeak.speak(tex: #"-\infty"#).text)
        // A degree sign set as text alone is the postfix degree sign; a scale's degree as one text is the unit without a quantity.
        #expect(say("<mtext>Δ</mtext><mi>H</mi><mtext>°</mtext><mo>=</mo><mn>−184.6</mn><mspace width=\"0.2em\"/><mtext>kJ</mtext>")
                == speaker.speak(tex: #"\Delta H° = -184.6\,\mathrm{kJ}"#).text)
        #expect(say("<msub><mi>T</mi><mtext>°F</mtext></msub>") == speaker.speak(tex: #"T_{\text{°F}}"#).text)
        #expect(say("<msub><mi>T</mi><mtext>°F</mtext></msub>").contains("Fahrenheit"))
        // A sentence's punctuation typed after a formula's state changes nothing before it.
        let hydrogen = "<msub><mtext>H</mtext><mn>2</mn></msub><mo>(</mo><mi>g</mi>"
        #expect(say(hydrogen + "<mtext>);</mtext>") == say(hydrogen + "<mo>)</mo>"))
        #expect(say(hydrogen + "<mo>)</mo><mtext>.</mtext>") == say(hydrogen + "<mo>)</mo>"))
        // Scripts on nothing after a bracketed group are the group's, as on its closing bracket.
        let nitrate = "<mtext>Ca</mtext><mrow><mo>(</mo><msub><mtext>NO</mtext><mn>3</mn></msub><mo>)</mo></mrow>"
        #expect(say(nitrate + "<msub><mrow/><mn>2</mn></msub><mo>(</mo><mi>a</mi><mi>q</mi><mo>)</mo>")
                == say("<mtext>Ca</mtext><msub><mrow><mo>(</mo><msub><mtext>NO</mtext><mn>3</mn></msub><mo>)</mo></mrow><mn>2</mn></msub><mo>(</mo><mi>a</mi><mi>q</mi><mo>)</mo>"))
        same("<mrow><mo>(</mo><mi>x</mi><mo>+</mo><mi>y</mi><mo>)</mo></mrow><msup><mrow/><mn>2</mn></msup>", "<msup><mrow><mo>(</mo><mi>x</mi><mo>+</mo><mi>y</mi><mo>)</mo></mrow><mn>2</mn></msup>")
        // Look-alike: before a base, scripts on nothing are its pre-scripts (a nuclear reaction's product).
        #expect(speaker.speak(tex: #"{}^7\mathrm{Be}(\alpha,p){}^{10}\mathrm{B}"#).text.contains("mass number 10"))
        // A state of matter set as text in parentheses is the state, as its letters set as identifiers are.
        #expect(say("<msub><mtext>H</mtext><mn>2</mn></msub><mtext>O</mtext><mo>(</mo><mtext fontstyle=\"italic\">l</mtext><mo>)</mo>")
                == say("<msub><mtext>H</mtext><mn>2</mn></msub><mtext>O</mtext><mo>(</mo><mi>l</mi><mo>)</mo>"))
        // A table row's label stays the text it is written as.
        let labeled = "<mtable><mlabeledtr><mtd><mtext>(3.1)</mtext></mtd><mtd><mi>a</mi></mtd></mlabeledtr></mtable>"
        #expect(say(labeled).contains("(3.1)"))
        #expect(say("<mtext>$15/h</mtext>").contains("$15/h"))
        #expect(say("<mtext>$1.2.3</mtext>").contains("$1.2.3"))
    }
    /// A number typed with a sentence's full stop (`<mn>36.</mn>`) is the number and the stop, as TeX's `36.` is; a number and a
    /// full stop beginning a row and set apart by a space (`<mn>2.</mn><mspace/>`, `2.\;`) number a step or an exercise.
    @Test func numbersTypedWithTheirStop() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        #expect(say("<mi>x</mi><mo>=</mo><mn>36.</mn>") == speaker.speak(tex: "x = 36.").text)
        #expect(say("<mi>x</mi><mo>=</mo><mn>36.</mn>") == "x equals 36")
        let german = try SpeakerCache.shared.speaker(locale: "de", style: "clearspeak")
        #expect(german.speak(mathML: "<math><mi>x</mi><mo>=</mo><mn>36.</mn></math>").text == german.speak(tex: "x = 36").text)
        // Joined to the digits after it, the point is the number's (a decimal set in pieces); before barred digits, a repeating decimal's.
        #expect(say("<mn>2.</mn><mn>85</mn>") == "2.85")
        #expect(say("<mn>0.</mn><mover><mn>3</mn><mo>–</mo></mover>") == speaker.speak(tex: #"0.\overline{3}"#).text)
        // A step's number: the stop is punctuation, and the number is set apart from what follows, a sign too.
        #expect(say("<mn>2.</mn><mspace width=\"0.4em\"/><mn>17</mn><mo>=</mo><mi>y</mi>") == "2, 17 equals y")
        #expect(say("<mn>10.</mn><mspace width=\"0.4em\"/><mn>−2</mn><mo>+</mo><mn>4</mn>") == "10, negative 2 plus 4")
        #expect(speaker.speak(tex: #"1.\quad \log x"#).text == "1, log x")
        #expect(speaker.speak(tex: #"x = 2. \quad y = 3"#).text == "x equals 2, y equals 3")
        #expect(say("<mi>x</mi><mo>=</mo><mn>36.</mn><mspace width=\"0.5em\"/>") == "x equals 36")
        // Look-alikes: a decimal before a thin space, a stop with no space after it, and a point inside a row (a physics book's
        // significant digits, before a unit after a thin space or none) stay as they are.
        #expect(speaker.speak(tex: #"0.5\,x"#).text == "0.5 x")
        #expect(speaker.speak(tex: "10. - 2").text == "10 dot minus 2")
        #expect(say("<mn>30.</mn><mspace width=\"0.2em\"/><mtext>A</mtext><mo>+</mo><mi>I</mi>").hasPrefix("30. amperes"))
        #expect(say("<mi>r</mi><mo>=</mo><mn>6770.</mn><mtext>km</mtext><mo>,</mo><mi>x</mi>") == "r equals 6770. kilometers, comma x")
    }

    /// A mark set as a number over a letter is an accent (`<mn>^</mn>`, OpenStax's statistics books' fitted values), and a tilde
    /// set as text alone is the operator `<mo>~</mo>` is.
    @Test func marksSetAsNumbersAndText() throws {
        for style in ["clearspeak", "mathspeak"] {
            let speaker = try SpeakerCache.shared.speaker(style: style)
            func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
            #expect(say("<msub><mover><mi>y</mi><mn>^</mn></mover><mi>j</mi></msub>") == say("<msub><mover><mi>y</mi><mo>^</mo></mover><mi>j</mi></msub>"))
            #expect(say("<msup><mi>P</mi><mo>′</mo></msup><mtext>~</mtext><mi>N</mi>") == say("<msup><mi>P</mi><mo>′</mo></msup><mo>~</mo><mi>N</mi>"))
            // Look-alike: a digit over a letter stays a digit.
            #expect(say("<mover><mi>x</mi><mn>2</mn></mover>").contains("2"))
        }
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mover><mi>y</mi><mn>^</mn></mover></math>").text == "y hat")
    }
    /// What OpenStax's Contemporary Mathematics sets in upright identifiers: amounts in pieces, brackets typed at a word's edge, a
    /// unit of one sign.
    @Test func identifiersAsContemporaryMathematicsSetsThem() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        func upright(_ t: String) -> String { "<mi mathvariant=\"normal\">\(t)</mi>" }
        #expect(say(upright("300") + upright(".00")) == "300.00")
        #expect(say(upright("price") + "<mo>×</mo>" + upright("(1") + "<mo>+</mo>" + upright("tax rate)"))
                == say(upright("price") + "<mo>×</mo><mo>(</mo><mn>1</mn><mo>+</mo>" + upright("tax rate") + "<mo>)</mo>"))
        #expect(say("<mi>U</mi><mo>=</mo><mtext>{a, b</mtext><mo>,</mo><mtext>c}</mtext>").contains("the set"))
        #expect(say("<mn>95</mn><mi mathvariant=\"normal\" class=\"MathML-Unit\">%</mi>") == "95 percent")
        // Look-alikes: a token holding both brackets, and a bracket whose partner is not in the row, stay as written.
        #expect(say("<mtext>(row total)(column total)</mtext>") == "(row total)(column total)")
        #expect(say("<mtext>(a</mtext><mo>+</mo><mi>b</mi>").hasPrefix("(a"))
    }
    /// A remark in parentheses after what it remarks on is set apart, not multiplied; after a letter it stays an argument.
    @Test func remarksInParentheses() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(tex: #"x + 2 (\text{add 18 to both sides})"#).text == "x plus 2, add 18 to both sides")
        #expect(speaker.speak(mathML: "<math><msub><mi>E</mi><mtext>net</mtext></msub><mo>=</mo><mn>0</mn><mo>(</mo><mtext>at points inside a conductor</mtext><mo>)</mo></math>").text
                == speaker.speak(tex: #"E_{\text{net}} = 0 (\text{at points inside a conductor})"#).text)
        // Look-alikes: a letter applied to words, a single word, and a formula with a word stay as they were.
        #expect(speaker.speak(tex: #"P(\text{two heads})"#).text == "P of two heads")
        #expect(speaker.speak(tex: #"f(\text{time})"#).text == "f of time")
        #expect(speaker.speak(tex: #"3 (\text{mod } 5)"#).text == "3 times, open paren, mod 5, close paren")
    }
    /// What OpenStax's College Physics sets in pieces: a decimal's point as text between its digits, the digits before it ending a
    /// row, the digits after it beginning a row or a text with the unit; the masculine ordinal º typed for the degree sign; a power
    /// on an amount and its unit set as one text; units in one text with middle dots; a sentence's stop typed into a token.
    @Test func decimalsAndDegreesAsCollegePhysicsSetsThem() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        #expect(say("<mn>2</mn><mtext>.</mtext><mn>00</mn><mtext>m</mtext>") == say("<mn>2.00</mn><mtext>m</mtext>"))
        #expect(say("<mn>2</mn><mtext>.</mtext><mrow><mtext>00</mtext><mo>×</mo><msup><mtext>10</mtext><mn>6</mn></msup></mrow><mtext>N</mtext>")
                == "2.00 times 10 to the sixth power newtons")
        #expect(say("<mrow><mi>x</mi><mo>=</mo><mn>2</mn></mrow><mtext>.</mtext><mn>0 m</mn><mo>−</mo><mn>6</mn><mtext>.</mtext><mn>0 m</mn>")
                == "x equals 2.0 meters, minus 6.0 meters")
        #expect(say("<mn>67</mn><mtext>.6 m/s</mtext>") == "67.6 meters per second")
        #expect(say("<mn>27</mn><mtext>.</mtext><mi/><mtext>8 m/s</mtext>") == "27.8 meters per second")
        #expect(say("<mn>3</mn><mtext>.</mtext><mtext>28 feet</mtext>") == "3.28 feet")
        #expect(say("<mn>9</mn><mtext>.</mtext><msup><mtext>80 m/s</mtext><mn>2</mn></msup>") == "9.80 meters per second squared")
        #expect(say("<mn>1</mn><mtext>.4 + 1</mtext><mtext>.6</mtext>") == "1.4 plus 1.6")
        #expect(say("<mi>cos</mi><mn>75.0º</mn>") == say("<mi>cos</mi><mn>75.0°</mn>"))
        #expect(say("<mn>60.0</mn><mtext>ºC</mtext>") == "60.0 degrees Celsius")
        #expect(say("<mtext>37.0ºC</mtext>") == "37.0 degrees Celsius")
        #expect(say("<mn>30</mn><mtext>º</mtext>") == "30 degrees")
        #expect(say("<mtext>9.2°C.</mtext>") == "9.2 degrees Celsius")
        // A product of units with middle dots in one text, a denominator in parentheses, and an empty token between a unit and
        // the rest of its quotient.
        #expect(say("<mn>16</mn><mtext>N·m</mtext>") == "16 newton meters")
        #expect(say("<mn>800</mn><mtext>J/(kg⋅ºC)</mtext>") == "800 joules per kilogram degree Celsius")
        #expect(say("<mtext>80 m</mtext><mi/><msup><mtext>/s</mtext><mn>2</mn></msup>") == "80 meters per second squared")
        // Amounts, units and signs set as one text are read as set as tokens; prose with a number stays text.
        #expect(say("<msub><mi>v</mi><mtext>max</mtext></msub><mtext>= 0.852 m/s</mtext>") == "v sub max, equals 0.852 meters per second")
        #expect(say("<mtext>40 kg + 50 kg = 90 kg</mtext>") == say("<mn>40</mn><mtext>kg</mtext><mo>+</mo><mn>50</mn><mtext>kg</mtext><mo>=</mo><mn>90</mn><mtext>kg</mtext>"))
        #expect(say("<mtext>–13 m/s.</mtext>") == "negative 13 meters per second")
        #expect(say("<mtext>25.1 m/s; 9.90 m/s</mtext>") == "25.1 meters per second, 9.90 meters per second")
        #expect(say("<mtext>g at 0.5 m/s</mtext>") == "g at 0.5 m/s")
        // No-break spaces between the pieces, and a decimal's pieces across such texts.
        #expect(say("<mtext>= 62</mtext><mtext>.8\u{A0}kJ\u{A0}+\u{A0}27</mtext><mtext>.0\u{A0}kJ</mtext>") == "equals 62.8 kilojoules, plus 27.0 kilojoules")
        #expect(say("<mtext>1 watt is 1 joule/second or 1 J/s</mtext>") == "1 watt is 1 joule/second or 1 J/s")
        // Letters set in italic with `fontstyle` are variables, a power on them the last one's; a state set so is still a state.
        #expect(say("<mn>3</mn><mstyle fontstyle=\"italic\"><mrow><mtext>kT</mtext></mrow></mstyle>") == "3 k T")
        #expect(say("<mi>F</mi><mo>=</mo><mi fontstyle=\"italic\">mg</mi>") == "F equals m g")
        #expect(say("<msup><mtext fontstyle=\"italic\">mv</mtext><mn>2</mn></msup>") == say("<mi>m</mi><msup><mi>v</mi><mn>2</mn></msup>"))
        #expect(say("<mi>NaCl</mi><mo>(</mo><mtext fontstyle=\"italic\">aq</mtext><mo>)</mo>").hasSuffix("aqueous"))
        #expect(say("<mtext fontstyle=\"italic\">net force</mtext>") == "net force")
        #expect(say("<mn>2</mn><mi>mg</mi>") == "2 milligrams")
        // A sentence's stop typed into a letter, set as an identifier, or typed with a closing bracket is the stop: silent at the end.
        #expect(say("<mi>v</mi><mo>=</mo><mi>r</mi><mi>ω.</mi>") == "v equals r omega")
        #expect(say("<mrow><mi>y</mi><mi>.</mi></mrow><mrow/>") == "y")
        #expect(say("<mi>f</mi><mo>(</mo><mi>x</mi><mo>),</mo><mi>y</mi>") == say("<mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo><mo>,</mo><mi>y</mi>"))
        #expect(say("<mo>(</mo><mn>2</mn><mo>)</mo><mo>(</mo><mn>0.200 T</mn><mo>).</mo>") == "2, times, 0.200 teslas")
        // Look-alikes: a sentence's stop after a number and before words, an ordinal's º after a word, a coefficient typed with its
        // variable after the point, and digits beside digits stay as they were.
        #expect(say("<mn>1</mn><mtext>.</mtext><mtext> The</mtext>") == "1, The")
        #expect(say("<mtext>2.º caso</mtext>") == "2.º caso")
        #expect(say("<mtext>Nº 5</mtext>") == "Nº 5")
        #expect(say("<mi>x.</mi><mi>y</mi>") == say("<mi>x</mi><mo>.</mo><mi>y</mi>"))
        #expect(say("<msup><mi>e</mi><mrow><mn>0</mn><mtext>.247800x</mtext></mrow></msup>").contains("0 .247800x"))
        #expect(say("<mn>36</mn><mtext>.</mtext>") == "36")
    }

    /// Formulas of named quantities set as one text, as OpenStax's Principles of Economics sets most of its formulas: the signs set
    /// apart by spaces are the operators, a number before one letter a coefficient, brackets set apart, a remark in parentheses
    /// kept; a script on a text the reader split is its last piece's. Prose with a dash stays text.
    @Test func formulasOfNamesSetAsText() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        #expect(say("<mtext>MPC + MPS = 1</mtext>") == "MPC plus MPS equals 1")
        #expect(say("<mtext>Qd = 16 – 2P</mtext>") == say("<mi>Qd</mi><mo>=</mo><mn>16</mn><mo>−</mo><mn>2</mn><mi>P</mi>"))
        #expect(say("<mtext>AE = 400 + 0.85(Y – T)</mtext>") == "AE equals 400 plus 0.85 times, open paren, Y minus T, close paren")
        #expect(say("<mtext>a = F/m</mtext>") == "a equals F divided by m")
        #expect(say("<mtext>60&#160;–&#160;P</mtext>") == "60 minus P")
        #expect(say("<mtext>Nominal GDP = Price Level (or GDP Deflator) × Real GDP</mtext>")
                == "Nominal GDP equals Price Level (or GDP Deflator) times Real GDP")
        #expect(say("<mi>y</mi><msub><mtext>= log</mtext><mn>10</mn></msub><mi>x</mi>") == "y equals the log, base 10, of x")
        #expect(say("<msub><mi>P</mi><mn>1</mn></msub><msub><mtext> + P</mtext><mn>2</mn></msub>") == "P sub 1, plus P sub 2")
        // Look-alikes: a dash between words in prose, one sign between words, and a bracket's script stay as they were.
        #expect(say("<mtext>this – that</mtext>") == "this – that")
        #expect(say("<mtext>price + tax</mtext>") == "price + tax")
        #expect(say("<msup><mtext>(1 + r)</mtext><mn>2</mn></msup>") == "open paren, 1 plus r, close paren, squared")
    }

    /// Textbook sweep 16 (OpenStax's prealgebra, elementary and intermediate algebra, 38,996 formulas): symbols, struck factors,
    /// negative infinity and signed amounts as the books set them, each said as the same formula set in plain tokens.
    @Test func symbolsStrikesAndSignsAsTheAlgebraBooksSetThem() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let mathSpeak = try SpeakerCache.shared.speaker(style: "mathspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        func sayMS(_ body: String) -> String { mathSpeak.speak(mathML: "<math>\(body)</math>").text }
        // A symbol alone as text is the symbol `<mo>` makes; the degree sign, infinity and the divides bar keep their readings.
        #expect(say("<mn>875</mn><mtext>✓</mtext>") == say("<mn>875</mn><mo>✓</mo>"))
        #expect(say("<mn>875</mn><mtext>✓</mtext>") == "875 check mark")
        #expect(say("<mtext>△</mtext><mi>A</mi><mi>B</mi><mi>C</mi>") == "triangle A B C")
        #expect(sayMS("<msub><mrow/><mtext>↘</mtext></msub>") == sayMS("<msub><mrow/><mo>↘</mo></msub>"))
        #expect(say("<mn>90</mn><mtext>°</mtext>") == "90 degrees")
        #expect(say("<mn>1</mn><mo>/</mo><mtext>∞</mtext>") == say("<mn>1</mn><mo>/</mo><mi>∞</mi>"))
        // A digit or a letter struck through with U+0338 is crossed out, as `\cancel` makes it; a relation so struck is negated.
        #expect(say("<mn>2̸</mn><mo>·</mo><mn>5</mn>") == speaker.speak(tex: "\\cancel{2} \\cdot 5").text)
        #expect(say("<mi>x̸</mi>") == speaker.speak(tex: "\\cancel{x}").text)
        #expect(speaker.speak(tex: "\\not x").text == speaker.speak(tex: "\\cancel{x}").text)
        #expect(say("<mi>a</mi><mo>≠</mo><mi>b</mi>") == "a is not equal to b")
        // Negative infinity typed as a number, and an arrow to it, to a negative number or to one side of a number: "approaches".
        #expect(say("<mo>(</mo><mn>−∞</mn><mo>,</mo><mn>5</mn><mo>]</mo>") == say("<mo>(</mo><mo>−</mo><mi>∞</mi><mo>,</mo><mn>5</mn><mo>]</mo>"))
        #expect(say("<mi>x</mi><mo>→</mo><mn>-∞</mn>") == "x approaches negative infinity")
        #expect(say("<mi>x</mi><mo>→</mo><msup><mn>2</mn><mo>−</mo></msup>") == "x approaches 2 minus")
        // A variable's opposite set as italic text is the minus and the variable.
        #expect(say("<mi>a</mi><mo>=</mo><mtext mathvariant=\"italic\">−b</mtext>") == "a equals negative b")
        // A plus typed before an amount and its unit, and a space before a temperature's scale.
        #expect(say("<mi>E</mi><mo>=</mo><mtext>+1.43 V</mtext>") == say("<mi>E</mi><mo>=</mo><mo>+</mo><mn>1.43</mn><mtext>V</mtext>"))
        #expect(say("<mn>2.00º C</mn>") == "2.00 degrees Celsius")
        #expect(say("<mtext>37° C</mtext>") == "37 degrees Celsius")
        // A blank between a number and a signed number stands for the relation to fill in: the sign is the number's. After a
        // relation the blank is an operand, and the sign after it the subtraction's.
        #expect(say("<mn>2</mn><mo>___</mo><mn>−20</mn>") == "2 blank negative 20")
        #expect(say("<mn>2</mn><mo>___</mo><mn>4</mn>") == "2 blank 4")
        #expect(say("<mi>x</mi><mo>=</mo><mo>___</mo><mo>−</mo><mn>3</mn>") == "x equals blank minus 3")
        // A soft hyphen in a token is nothing.
        #expect(sayMS("<msub><mtext>N</mtext><mn>\u{AD}2</mn></msub>") == sayMS("<msub><mtext>N</mtext><mn>2</mn></msub>"))
    }

    /// What OpenStax's Polish physics and Spanish calculus books set (textbook sweep 17), read as the same meaning set
    /// plainly: an invisible times typed twice, a unit's letters each an identifier, the degree sign and its scale under
    /// one power, the partial sign as an operator, a secant set as text before its argument, an evaluation bar before
    /// scripts on nothing; and a word set as text before a minus and a number.
    @Test func publishersPiecesOfUnitsDerivativesAndBars() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        #expect(say("<mn>8.31</mn><mi mathvariant='normal'>J</mi><mo>/</mo><mo>(</mo><mi>mol</mi><mo>\u{2062}\u{2062}</mo><mi mathvariant='normal'>K</mi><mo>)</mo>")
                == "8.31 joules per mole kelvin")
        #expect(say("<mn>25000.0</mn><mspace width='0.2em'/><mrow><mi mathvariant='normal'>k</mi><mi mathvariant='normal'>g</mi></mrow>")
                == "25000.0 kilograms")
        #expect(say("<mn>3</mn><mrow><mi mathvariant='normal'>d</mi><mi mathvariant='normal'>x</mi></mrow>") == "3 d x")
        #expect(say("<mn>2</mn><msup><mrow><mi>°</mi><mi mathvariant='normal'>C</mi></mrow><mrow><mo>−</mo><mn>1</mn></mrow></msup>")
                == "2 reciprocal degrees Celsius")
        #expect(say("<mfrac><mrow><mo>∂</mo><mi>f</mi></mrow><mrow><mo>∂</mo><mi>x</mi></mrow></mfrac>")
                == say("<mfrac><mrow><mi>∂</mi><mi>f</mi></mrow><mrow><mi>∂</mi><mi>x</mi></mrow></mfrac>"))
        #expect(say("<mn>4</mn><mtext>sec</mtext><mi>t</mi>") == "4 secant t")
        #expect(say("<mn>4</mn><mtext>sec</mtext>") == "4 seconds")
        #expect(say("<msup><mi>x</mi><mn>2</mn></msup><mo>|</mo><msub><mrow/><mrow><mi>x</mi><mo>=</mo><mn>1</mn></mrow></msub>")
                == "x squared, evaluated at x equals 1")
        #expect(say("<mtext>Multiply by</mtext><mspace width='0.2em'/><mn>−1</mn>") == "Multiply by negative 1")
        #expect(say("<mn>1</mn><mspace width='0.2em'/><mtext>and</mtext><mspace width='0.2em'/><mn>−1</mn>") == "1 and negative 1")
        #expect(say("<mtext>net</mtext><mo>=</mo><mtext>gross income</mtext><mo>−</mo><mn>1.5</mn>") == "net equals gross income minus 1.5")
        #expect(say("<mtext>Profit</mtext><mo>−</mo><mn>500</mn>") == "Profit minus 500")
        #expect(say("<mn>2</mn><mtext>CuI</mtext><mo>−</mo><mn>4</mn>").contains("minus 4"))
        // An operator or a separator typed alone as a number is the operator.
        #expect(say("<mi>x</mi><mn>,</mn><mi>y</mi><mn>/</mn><mi>z</mi>") == say("<mi>x</mi><mo>,</mo><mi>y</mi><mo>/</mo><mi>z</mi>"))
        #expect(say("<msup><mi>e</mi><mn>+</mn></msup>") == "e plus")
        // A non-breaking hyphen typed as a number's sign is its minus.
        #expect(say("<mn>\u{2011}10</mn><mo>+</mo><mi>x</mi>") == "negative 10 plus x")
        // The sine's Spanish spelling set as text, and the limit with the RAE's accent, are the function and the limit.
        #expect(say("<mtext>sen</mtext><mi>x</mi>") == say("<mi>sin</mi><mi>x</mi>"))
        #expect(say("<munder><mtext>lím</mtext><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder><msup><mi>x</mi><mn>2</mn></msup>")
                == "the limit as x approaches 0 of x squared")
    }
}
