import Foundation
import MathAloud
import Testing

/// The shape of MathJax's mhchem output for a nuclide (`\ce{^{14}_{6}C}`): an `msubsup` of phantoms
/// that reserves the width of the widest script, a second `msubsup` on a zero-width phantom base
/// whose scripts are right-aligned by a zero-width phantom "2" and a `mpadded lspace="-1width"`,
/// then the element in its own `mrow`. Written here from the structure MathJax produces (MathML 4
/// §3.3.6 `mpadded`, §3.3.7 `mphantom`).
private func mhchemNuclide(_ mass: String, _ atomic: String, _ element: String) -> String {
    func number(_ n: String) -> String { n.hasPrefix("-") ? "<mo>&#x2212;</mo><mn>\(n.dropFirst())</mn>" : "<mn>\(n)</mn>" }
    let phantomBase = "<mrow><mrow><mpadded width='0'><mphantom><mi>A</mi></mphantom></mpadded></mrow></mrow>"
    let reserve = "<msubsup>\(phantomBase)"
        + "<mrow><mrow><mpadded height='0' depth='0'><mphantom>\(number(atomic))</mphantom></mpadded></mrow></mrow>"
        + "<mrow><mrow><mpadded height='0' depth='0'><mphantom>\(number(mass))</mphantom></mpadded></mrow></mrow></msubsup>"
    let shown = "<msubsup>\(phantomBase)"
        + "<mrow><mrow><mpadded width='0'><mphantom><mn>2</mn></mphantom></mpadded></mrow>"
        + "<mrow><mpadded width='0' lspace='-1width'><mrow><mpadded height='0'>\(number(atomic))</mpadded></mrow></mpadded></mrow></mrow>"
        + "<mrow><mrow><mpadded height='0'><mrow><mpadded width='0'><mphantom><mn>2</mn></mphantom></mpadded></mrow></mpadded></mrow>"
        + "<mrow><mpadded width='0' lspace='-1width'>\(number(mass))</mpadded></mrow></mrow></msubsup>"
    return reserve + "<mspace width='-0.083em'></mspace>" + shown + "<mrow><mi mathvariant='normal'>\(element)</mi></mrow>"
}

/// The same nuclide as plain `mmultiscripts`.
private func multiscriptsNuclide(_ mass: String, _ atomic: String, _ element: String) -> String {
    let a = atomic.hasPrefix("-") ? "<mrow><mo>&#x2212;</mo><mn>\(atomic.dropFirst())</mn></mrow>" : "<mn>\(atomic)</mn>"
    return "<mmultiscripts><mi mathvariant='normal'>\(element)</mi><mprescripts/>\(a)<mn>\(mass)</mn></mmultiscripts>"
}

@Suite("Nuclides written by mhchem, units with prefixes")
struct NuclideAndUnitSpeechTests {
    /// β decay as MathJax's mhchem writes it reads as the same reaction written with `mmultiscripts`
    /// and as `\ce{…}`, in every style: the phantoms that align the scripts say nothing.
    @Test(arguments: ["clearspeak", "simplespeak", "mathspeak", "literalspeak"])
    func mhchemBetaDecayReadsAsTheReaction(_ style: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: style)
        func reaction(_ nuclide: (String, String, String) -> String) -> String {
            "<math><mrow>" + nuclide("14", "6", "C") + "<mrow></mrow><mrow><mo stretchy='false'>&#x27F6;</mo></mrow><mrow></mrow>"
                + nuclide("14", "7", "N") + "<mrow></mrow><mo>+</mo><mrow></mrow>" + nuclide("0", "-1", "e") + "</mrow></math>"
        }
        let mhchem = speaker.speak(mathML: reaction(mhchemNuclide))
        let plain = speaker.speak(mathML: reaction(multiscriptsNuclide))
        #expect(!mhchem.diagnostics.containsError)
        #expect(mhchem.text == plain.text)
        #expect(!mhchem.text.lowercased().contains("raised"), "\(mhchem.text)")
        #expect(!mhchem.text.contains("2"), "the aligning phantom 2 is not read: \(mhchem.text)")
        if style == "clearspeak" {
            #expect(mhchem.text == "C with mass number 14 and atomic number 6 yields N with mass number 14 and atomic number 7 plus e with mass number 0 and atomic number negative 1")
        }
    }

    /// Digits grouped by commas are one number, read as TeX's `{,}` and MathML's `<mn>50,000</mn>` read
    /// (a unit after them stays a unit); lists, pairs and a leading zero stay as written.
    /// Scientific notation as publishers write it in MathML: the power of ten's base in a row of its own
    /// (`<msup><mrow><mn>10</mn></mrow>…`) and the exponent's sign inside `mn`; the unit after it is
    /// said as the unit, as from TeX, where it was "10 to the sixth power m" and "raised to the −5 power".
    @Test func publishersScientificNotationKeepsItsUnit() throws {
        let speaker = try Speaker()
        #expect(speaker.speak(mathML: "<math><mn>3.2</mn><mo>×</mo><msup><mrow><mn>10</mn></mrow><mn>6</mn></msup><mtext>m</mtext></math>").text
            == "3.2 times 10 to the sixth power meters")
        #expect(speaker.speak(tex: "3.2 \\times {10}^{6}\\,\\mathrm{m}").text == "3.2 times 10 to the sixth power meters")
        #expect(speaker.speak(mathML: "<math><mn>1.6</mn><mo>×</mo><msup><mn>10</mn><mn>−19</mn></msup><mtext>C</mtext></math>").text
            == speaker.speak(tex: "1.6 \\times 10^{-19}\\,\\mathrm{C}").text)
        #expect(speaker.speak(mathML: "<math><mi>T</mi><mo>=</mo><mn>–7</mn></math>").text == "T equals negative 7")
        // A prefix written apart from its unit, and a slash written as text, between units.
        #expect(speaker.speak(mathML: "<math><mn>10.0</mn><mtext>k</mtext><mtext>Ω</mtext><mo>+</mo><mn>2.0</mn><mi>μ</mi><mtext>F</mtext></math>").text
            == "10.0 kiloohms, plus 2.0 microfarads")
        #expect(speaker.speak(mathML: "<math><mn>5</mn><mtext>m</mtext><mtext>/</mtext><mtext>s</mtext></math>").text == "5 meters per second")
        // Units with a space between them are a product, not a prefixed unit (meter seconds, not milliseconds).
        #expect(speaker.speak(tex: "5\\,\\mathrm{m\\,s}").text == "5 meter seconds")
        #expect(speaker.speak(mathML: "<math><mn>5</mn><mtext>m</mtext><mspace width='0.2em'/><mtext>s</mtext></math>").text == "5 meter seconds")
        // μ with a text index is no prefix (a coefficient of friction), and a letter alone is no unit.
        #expect(speaker.speak(mathML: "<math><msub><mi>μ</mi><mtext>k</mtext></msub><mo>=</mo><mn>0.3</mn></math>").text == "mu sub k, equals 0.3")
    }

    @Test func digitsGroupedByCommasAreOneNumber() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(tex: "T = 13,000~\\mathrm{K}").text == speaker.speak(tex: "T = 13{,}000~\\mathrm{K}").text)
        #expect(speaker.speak(tex: "T = 13,000~\\mathrm{K}").text == "T equals 13,000 kelvins")
        #expect(speaker.speak(tex: "25,164,858 \\pm 12").text == "25,164,858 plus or minus 12")
        #expect(speaker.speak(tex: "x = 1,234.56").text == "x equals 1,234.56")
        #expect(speaker.speak(mathML: "<math><mi>x</mi><mo>=</mo><mn>50</mn><mo>,</mo><mn>000</mn></math>").text
            == speaker.speak(mathML: "<math><mi>x</mi><mo>=</mo><mn>50,000</mn></math>").text)
        // Look-alikes: a list with another comma, a pair in brackets, a leading zero, two digits.
        #expect(speaker.speak(tex: "N \\in \\{10, 100, 1000\\}").text.contains("10 comma 100 comma 1000"))
        #expect(speaker.speak(tex: "\\{100, 100, 100\\}").text == "the set 100 comma 100 comma 100")
        #expect(speaker.speak(tex: "1,000 + 2,500").text == "1,000 plus 2,500")
        // A comma that ends the row is punctuation; groups that are a `\\left(…\\right)` pair's whole content may be a pair.
        #expect(speaker.speak(tex: "N = 10,000,").text == "N equals 10,000 comma")
        #expect(speaker.speak(tex: "\\left(2,500\\right)").text.contains("2 comma 500"))
        // One comma not before three digits, or after a leading zero, is a decimal comma, in the analysis too.
        #expect(speaker.speak(tex: "p < 0{,}001").text == "p is less than 0.001")
        #expect(speaker.speak(tex: "\\frac{1{,}5}{2}").text == "1.5 over 2")
        #expect(speaker.speak(tex: "1{,}00{,}000").text == "1,00,000")
        // A currency before digit groups takes the whole amount.
        #expect(speaker.speak(tex: "\\$1,000 + \\$25,000").text == "1,000 dollars, plus 25,000 dollars")
        #expect(speaker.speak(tex: "f(1,000)").text.contains("1 comma 000"))
        #expect(speaker.speak(tex: "x = 0,125").text.contains("0 comma 125"))
        #expect(speaker.speak(tex: "x_1, 250").text.contains("comma 250"))
        #expect(speaker.speak(tex: "a = 1,00").text.contains("1 comma 00"))
        // German says the group mark its own way.
        let de = try SpeakerCache.shared.speaker(locale: "de", style: "clearspeak")
        #expect(de.speak(tex: "x = 1,234.5").text == "x ist gleich 1.234,5")
    }

    /// A phantom alone, scripts of phantoms only, and a phantom base with visible scripts.
    @Test func phantomsSayNothing() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(mathML: "<math><mi>x</mi><mphantom><mo>+</mo><mn>1</mn></mphantom></math>").text == "x")
        #expect(speaker.speak(mathML: "<math><mi>x</mi><msubsup><mphantom><mi>A</mi></mphantom><mphantom><mn>1</mn></mphantom><mphantom><mn>2</mn></mphantom></msubsup><mo>+</mo><mi>y</mi></math>").text == "x plus y")
        #expect(speaker.speak(tex: #"{}^{14}_{6}\mathrm{C}"#).text == speaker.speak(mathML: "<math>" + mhchemNuclide("14", "6", "C") + "</math>").text)
    }

    /// An element symbol after a number, followed by another element symbol, starts a chemical formula
    /// with its coefficient (`SiO₂ + 6 HF`), not a measurement ("6 henrys"); alone, or marked as a unit,
    /// it stays the unit.
    @Test func elementAfterANumberThatStartsAFormulaIsNoUnit() throws {
        let normal = #"<mi mathvariant="normal">"#
        let hf = "<math><mn>6</mn>\(normal)H</mi>\(normal)F</mi></math>"
        let water = "<math><mn>2</mn>\(normal)H</mi><msub>\(normal)O</mi><mn>2</mn></msub></math>"
        // An invisible separator between the two symbols (MathCAT's MathML of `\ce{2HI}`) changes nothing.
        let iodide = "<math><mn>2</mn><mo>&#x2062;</mo><mrow>\(normal)H</mi><mo>&#x2063;</mo>\(normal)I</mi></mrow></math>"
        for style in ["clearspeak", "mathspeak"] {
            let speaker = try SpeakerCache.shared.speaker(style: style)
            #expect(!speaker.speak(mathML: hf).text.contains("henr"), "\(style)")
            #expect(!speaker.speak(mathML: iodide).text.contains("henr"), "\(style)")
            #expect(!speaker.speak(mathML: water).text.contains("henr"), "\(style)")
            #expect(!speaker.speak(tex: #"3\,\mathrm{H}\,\mathrm{F}"#).text.contains("henr"), "\(style)")
            #expect(speaker.speak(tex: #"6\,\mathrm{H}"#).text == "6 henrys", "\(style)")
            #expect(speaker.speak(mathML: #"<math><mn>6</mn><mi class="MathML-Unit">H</mi><mi>F</mi></math>"#).text.contains("henrys"), "\(style)")
        }
    }

    /// A word spelling two element symbols or more before a state of matter (MathJax's MathML for
    /// `\ce{2HCl(aq)}`) is a formula and its state, not a function applied, read element by element;
    /// one element before a state written as an italic letter stays a function of it (`H(s)`, `Re(s)`).
    @Test func aFormulaBeforeItsStateIsNoFunction() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ body: String) -> String { speaker.speak(mathML: "<math>\(body)</math>").text }
        #expect(say("<mi>HCl</mi><mo>(</mo><mi>aq</mi><mo>)</mo>") == "cap H cap C l aqueous")
        #expect(say("<mn>2</mn><mi>NaCl</mi><mo>(</mo><mi>s</mi><mo>)</mo>") == "2 cap N a cap C l solid")
        #expect(say("<mi>H</mi><mo>(</mo><mi>s</mi><mo>)</mo>") == "H of s")
        #expect(say("<mi>Re</mi><mo>(</mo><mi>s</mi><mo>)</mo>") == "real part of s")
        #expect(say("<mi>Hom</mi><mo>(</mo><mi>g</mi><mo>)</mo>").contains("of"))
        // A compound written as one counted word (two element symbols or more, a count of 2 or more
        // or a charge) before a state is a formula too; before another argument, or with a count of 1,
        // it stays an application.
        #expect(speaker.speak(tex: #"\mathrm{CO_2(g)}"#).text == "cap C cap O sub 2 gas")
        #expect(speaker.speak(tex: #"\mathrm{SO}_3(g)"#).text == "cap S cap O sub 3 gas")
        #expect(speaker.speak(tex: #"\mathrm{SO}_3(x)"#).text == "SO sub 3, of x")
        #expect(speaker.speak(tex: #"\mathrm{CO}_1(g)"#).text.contains("of g"))
    }

    /// Scripts on nothing followed by more scripts on nothing (MathJax's mhchem output for SO₄²⁺: each
    /// script on a padded phantom after `SO`) are no pre-scripts: a pre-script needs a base that shows
    /// something; they are the scripts of `SO`, an ion (session 24). Pre-scripts before a visible base
    /// stay (`{}_nC_k`, a nuclide).
    @Test func scriptsOnNothingAfterAFormulaAreNoPrescripts() throws {
        func onPhantom(_ script: String, sup: Bool) -> String {
            let tag = sup ? "msup" : "msub"
            return "<\(tag)><mpadded width='0'><mphantom><mi>A</mi></mphantom></mpadded><mpadded height='0'>\(script)</mpadded></\(tag)>"
        }
        let sulfate = "<math><mi>SO</mi>" + onPhantom("<mn>4</mn>", sup: false) + onPhantom("<mrow><mn>2</mn><mo>+</mo></mrow>", sup: true) + "</math>"
        for style in ["clearspeak", "simplespeak", "mathspeak"] {
            let speaker = try SpeakerCache.shared.speaker(style: style)
            let text = speaker.speak(mathML: sulfate).text.lowercased()
            #expect(!text.contains("pre"), "\(style): \(text)")
            #expect(!speaker.speak(tex: "SO{}_4{}^{2+}").text.lowercased().contains("pre"), "\(style)")
        }
        let clearspeak = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(clearspeak.speak(mathML: sulfate).text == "cap S cap O sub 4 super 2 plus")
        #expect(clearspeak.speak(tex: "{}_nC_k + {}^{14}_{6}C").text == "n C k plus C with mass number 14 and atomic number 6")
    }

    /// Scripts on a base of no width right after an identifier (`H{}_2O`; MathJax's mhchem output for
    /// H₂O: `H`, `_2` on a phantom padded to width 0, `O`) are the identifier's scripts, read as
    /// `H_2O` is, in every style. Scripts on a space stay pre-scripts of what follows (the term symbol
    /// ⁴D in `3p~^{4}D`).
    @Test func scriptsOnNoWidthAfterAnIdentifierAreItsScripts() throws {
        let water = "<math><mi mathvariant='normal'>H</mi><msub><mrow><mpadded width='0'><mphantom><mi>A</mi></mphantom></mpadded></mrow>"
            + "<mrow><mpadded height='0'><mn>2</mn></mpadded></mrow></msub><mi mathvariant='normal'>O</mi></math>"
        for style in ["clearspeak", "simplespeak", "mathspeak"] {
            let speaker = try SpeakerCache.shared.speaker(style: style)
            let plain = speaker.speak(tex: #"\mathrm{H}_2\mathrm{O}"#).text
            #expect(speaker.speak(mathML: water).text == plain, "\(style)")
            #expect(speaker.speak(tex: "H{}_2O").text == speaker.speak(tex: "H_2O").text, "\(style)")
        }
        let clearspeak = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(clearspeak.speak(tex: "3p~^{4}D").text == "3 p, left super 4, D")
        #expect(clearspeak.speak(tex: "f{'}(x)").text == "f prime of x")
    }

    /// Every SI prefix on a unit's abbreviation (`sec` or `sek` for s) or its symbol, with the micro sign
    /// U+00B5 or the Greek mu U+03BC, reads as prefix and unit; no raw symbol reaches the speech.
    @Test(arguments: [
        ("µs", "2 microseconds"), ("μs", "2 microseconds"), ("µsec", "2 microseconds"), ("μsec", "2 microseconds"),
        ("msec", "2 milliseconds"), ("nsec", "2 nanoseconds"), ("ksec", "2 kiloseconds"), ("sec", "2 seconds"),
        ("psec", "2 picoseconds"), ("dasec", "2 dekaseconds"), ("Gsec", "2 gigaseconds"), ("µsecs", "2 microseconds"),
        ("gm", "2 grams"), ("kgm", "2 kilograms"), ("µamp", "2 microamperes"), ("μA", "2 microamperes"),
        ("Ma", "2 megayears"), ("Ga", "2 gigayears"), ("ka", "2 kiloyears"), ("fm", "2 femtometers"),
        ("kBd", "2 kilobauds"), ("am", "2 attometers"), ("ha", "2 hectares"),
        ("sek", "2 seconds"), ("nsek", "2 nanoseconds"), ("µsek", "2 microseconds"),
        // B with a prefix is the byte; the bel takes deci alone.
        ("GB", "2 gigabytes"), ("kB", "2 kilobytes"), ("dB", "2 decibels"), ("B", "2 bels"),
    ])
    func prefixedUnits(_ unit: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = speaker.speak(mathML: "<math><mn>2</mn><mi intent=':unit'>\(unit)</mi></math>").text
        #expect(spoken == expected)
        #expect(!spoken.contains("µ") && !spoken.contains("μ"))
    }

    /// German and Norwegian compose the prefix with their own words for the unit the abbreviation
    /// stands for.
    @Test func prefixedAbbreviationsInOtherLocales() throws {
        for locale in ["de", "nb"] {
            let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
            let abbreviation = speaker.speak(mathML: "<math><mn>2</mn><mi intent=':unit'>µsec</mi></math>").text
            let symbol = speaker.speak(mathML: "<math><mn>2</mn><mi intent=':unit'>µs</mi></math>").text
            #expect(abbreviation == symbol, "\(locale)")
            #expect(!abbreviation.contains("µ"))
        }
    }

    /// The prime and double prime as units (after degrees, or marked; written `″`, `′′` or `"`) are
    /// minutes and seconds of arc in every locale's words, never the symbol or its key.
    @Test(arguments: LocaleToolsTests.shippedLocales)
    func primesAsUnitsInEveryLocale(_ locale: String) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
        let spoken = [speaker.speak(tex: "30^\\circ 15' 10''").text]
            + ["″", "′′", "&quot;", "′"].map { speaker.speak(mathML: "<math><mn>2</mn><mi intent=':unit'>\($0)</mi></math>").text }
        for text in spoken {
            for raw in ["′", "″", "\""] { #expect(!text.contains(raw), "\(locale): \(text)") }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
            for key in ["arcmin", "arcsec"] { #expect(!words.contains(Substring(key)), "\(locale): \(text)") }
        }
    }

    /// Astronomy's prefixed parsecs and years (kpc, Mpc, Gyr; no SI prefix takes them otherwise) are
    /// units, and a unit raised to a negative power right after a quantity is the reciprocal unit,
    /// as MathML's marked unit is ("30 reciprocal centimeters"); a letter raised so stays a power.
    @Test func astronomyUnitsAndReciprocalUnitsAfterAQuantity() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ tex: String) -> String { speaker.speak(tex: tex).text }
        #expect(say(#"5\,\mathrm{kpc}"#) == "5 kiloparsecs")
        #expect(say(#"4.5\,\mathrm{Gyr}"#) == "4.5 gigayears")
        #expect(say(#"2\,\mathrm{mpc}"#) == "2 mpc")
        #expect(say(#"H_0 = 70\,\mathrm{km\,s^{-1}\,Mpc^{-1}}"#).hasSuffix("70 kilometers per second per megaparsec"))
        #expect(say(#"30\,\mathrm{cm}^{-1}"#) == "30 reciprocal centimeters")
        #expect(say(#"3\,\mathrm{in}^{-1}\,\mathrm{mm}^{-1}"#) == "3 reciprocal inches reciprocal millimeters")
        let marked = "<math><mn>30</mn><msup><mi intent=':unit'>cm</mi><mrow><mo>-</mo><mn>1</mn></mrow></msup></math>"
        #expect(speaker.speak(mathML: marked).text == say(#"30\,\mathrm{cm}^{-1}"#))
        #expect(say(#"2 x^{-1}"#) == "2 x to the negative 1 power")
        #expect(say(#"2\,m^{-1}"#) == "2 m to the negative 1 power")
    }

    /// Angles written as units: `arcmin` and `arcsec` are minutes and seconds of arc, not of time; the
    /// primes after degrees stay the minutes and seconds of the angle; astronomy's `mas` and `µas` are
    /// the milli- and microarcsecond; a function's name that is a unit's symbol is the unit where no
    /// argument follows it.
    @Test func anglesWrittenAsUnits() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ tex: String) -> String { speaker.speak(tex: tex).text }
        #expect(say(#"1\,\mathrm{arcmin}"#) == "1 arcminute")
        #expect(say(#"30\,\mathrm{arcmin}"#) == "30 arcminutes")
        #expect(say(#"45^\circ 10' 20''"#) == "45 degrees, 10 minutes, 20 seconds")
        #expect(say(#"\theta < 1\,\mathrm{arcsec}"#) == "theta is less than 1 arcsecond")
        #expect(say(#"2\,\mathrm{arcsec}\,x"#) == "2 arc secant x")
        #expect(say(#"5\,\mathrm{sec} < t"#) == "5 seconds, is less than t")
        #expect(say(#"\sigma = 59.2\,\mathrm{mas}"#) == "sigma equals 59.2 milliarcseconds")
        #expect(say(#"3\,\mu\mathrm{as}"#) == "3 microarcseconds")
        #expect(say(#"3\,\mathrm{as}"#) == "3 attoseconds")
        for locale in LocaleToolsTests.shippedLocales {
            let other = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
            for tex in [#"5\,\mathrm{mas}"#, #"5\,\mu\mathrm{as}"#, #"1\,\mathrm{arcsec}"#] {
                let spoken = other.speak(tex: tex)
                #expect(!spoken.diagnostics.contains { $0.id == "speech.missing-word" }, "\(locale): \(tex)")
                let words = spoken.text.split(whereSeparator: { $0 == " " || $0 == "," })
                for raw in ["mas", "µas", "as", "arcsec", "secant"] { #expect(!words.contains(Substring(raw)), "\(locale): \(spoken.text)") }
            }
        }
    }

    /// A marked unit whose symbol only the locale's units know (Scandinavian `sek`) is read by them
    /// wherever it stands: after a quantity and in a quotient of units alike.
    @Test func markedUnitsOnlyTheLocaleKnows() throws {
        for locale in ["sv", "nb"] {
            let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
            let perSecond = speaker.speak(mathML: "<math><mfrac><mi intent=':unit'>m</mi><mi intent=':unit'>sek</mi></mfrac></math>").text
            #expect(perSecond == "meter per sekund", "\(locale)")
            #expect(speaker.speak(mathML: "<math><mn>2</mn><mi intent=':unit'>sek</mi></math>").text == "2 sekunder", "\(locale)")
        }
    }

    /// A quotient of unit symbols typeset as a fraction after a quantity is the unit it writes, as
    /// `\mathrm{m/s}` is; a fraction of other upright names after a number stays a fraction.
    @Test(arguments: [
        ("en", "5\\,\\frac{\\mathrm{m}}{\\mathrm{s}}", "5 meters per second"),
        ("en", "1\\,\\frac{\\mathrm{m}}{\\mathrm{s}}", "1 meter per second"),
        ("en", "9.8\\,\\frac{\\mathrm{m}}{\\mathrm{s}^2}", "9.8 meters per second squared"),
        ("de", "100\\,\\frac{\\mathrm{km}}{\\mathrm{h}}", "100 Kilometer pro Stunde"),
        ("en", "2\\,\\frac{\\mathrm{sin}}{\\mathrm{s}}", "2 sine over s"),
        ("en", "5\\,\\frac{€}{\\mathrm{h}}", "5 euros per hour"),
        ("en", "5\\,{\\mathrm m \\atop \\mathrm s}", "5 m over s"),
        ("en", "3\\frac{\\mathrm{d}}{\\mathrm{d}t}", "3 the derivative with respect to t"),
    ])
    func unitFractionsAfterAQuantity(_ locale: String, _ tex: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
        #expect(speaker.speak(tex: tex).text == expected, "\(tex)")
    }

    /// The same quotient from MathML reads the same; units MathML marks inside a fraction keep the
    /// fraction's reading of marked units.
    @Test func unitFractionsFromMathML() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let plain = "<math><mn>5</mn><mfrac><mi mathvariant='normal'>m</mi><mi mathvariant='normal'>s</mi></mfrac></math>"
        #expect(speaker.speak(mathML: plain).text == "5 meters per second")
        let marked = "<math><mn>5</mn><mfrac><mi intent=':unit'>m</mi><mi intent=':unit'>s</mi></mfrac></math>"
        #expect(speaker.speak(mathML: marked).text.contains("per"))
    }

    /// A product or quotient of units written in one upright group (`\mathrm{kg\cdot m^2/s^2}`) is the
    /// unit the units written one by one make (`\mathrm{kg}\,\mathrm{m}^2\,\mathrm{s}^{-2}`), and a
    /// measurement over a unit (`\frac{5\,\mathrm{m}}{\mathrm{s}}`) the rate `5\,\mathrm{m/s}` is: factors
    /// after `\cdot`, a space or nothing, each with a power; one `/` before a unit or a product in
    /// parentheses. The words of a product are its factors' in order, the last one plural.
    @Test(arguments: [
        (#"1\,\mathrm{kg\cdot m^2/s^2}"#, "1 kilogram square meter per second squared"),
        (#"1\,\mathrm{kg}\,\mathrm{m}^2\,\mathrm{s}^{-2}"#, "1 kilogram square meter per second squared"),
        (#"1\,\mathrm{kg\cdot m^2\cdot s^{-2}}"#, "1 kilogram square meter per second squared"),
        (#"1\,\mathrm{kg}\cdot\mathrm{m}^2/\mathrm{s}^2"#, "1 kilogram square meter per second squared"),
        (#"3\,\mathrm{kg\,m^2}"#, "3 kilogram square meters"),
        (#"3\,\mathrm{kg}\,\mathrm{m}^2"#, "3 kilogram square meters"),
        (#"4\,\mathrm{N\cdot m}"#, "4 newton meters"),
        (#"4\,\mathrm{N}\cdot\mathrm{m}"#, "4 newton meters"),
        (#"4\,\mathrm{N~m}"#, "4 newton meters"),
        (#"1\,\mathrm{N\,m}"#, "1 newton meter"),
        (#"2\,\mathrm{J/(kg\,K)}"#, "2 joules per kilogram kelvin"),
        (#"2\,\mathrm{J}/(\mathrm{kg}\cdot\mathrm{K})"#, "2 joules per kilogram kelvin"),
        (#"5\,\mathrm{kg\,m/s^2}"#, "5 kilogram meters per second squared"),
        (#"5\,\mathrm{kg\,m\,s}^{-2}"#, "5 kilogram meters per second squared"),
        (#"5\,\mathrm{N\,m}^{-1}"#, "5 newtons per meter"),
        (#"10^{19}\mathrm{\,W}\mathrm{\,Hz}^{-1}"#, "10 to the nineteenth power watts per hertz"),
        (#"\frac{5\,\mathrm{m}}{\mathrm{s}}"#, "5 meters per second"),
        (#"\frac{1\,\mathrm{m}}{\mathrm{s}}"#, "1 meter per second"),
        (#"v = \frac{9.8\,\mathrm{m}}{\mathrm{s}^2}"#, "v equals 9.8 meters per second squared"),
        (#"\frac{2\,\mathrm{J}}{\mathrm{kg\,K}}"#, "2 joules per kilogram kelvin"),
    ])
    func compoundUnitsInOneGroup(_ tex: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(tex: tex).text == expected, "\(tex)")
    }

    /// Look-alikes of compound units keep their readings: a differential's d, Euler's e, chemistry, a
    /// product of variables or a word in roman, a unit times a variable, units in a fraction of
    /// non-units, a measurement over a measurement or over a variable.
    @Test(arguments: [
        (#"\mathrm{d}x"#, "d x"),
        (#"3\,\mathrm{m}\,\mathrm{d}x"#, "3 meters, d x"),
        (#"\mathrm{e}^{x}"#, "e to the x-th power"),
        (#"2\,\mathrm{H_2O}"#, "2 cap H sub 2 cap O"),
        (#"2\,\mathrm{NaCl}"#, "2 NaCl"),
        (#"2\,\mathrm{H}\,\mathrm{Cl}"#, "2 H Cl"),
        (#"3\,\mathrm{AB}"#, "3 AB"),
        (#"\mathrm{max}"#, "max"),
        (#"2\,\mathrm{m}\cdot x"#, "2 meters, times x"),
        (#"2\,\mathrm{m}\,\mathrm{P}(A)"#, "2 meters, P of A"),
        (#"5\,\mathrm{m}\,\sin x"#, "5 meters, sine x"),
        (#"\frac{x\,\mathrm{m/s}}{y}"#, "the fraction with numerator x m divided by s, and denominator y"),
        (#"\frac{5\,\mathrm{m}}{2\,\mathrm{s}}"#, "5 meters, over 2 seconds"),
        (#"\frac{5\,\mathrm{m}}{s}"#, "5 meters, over s"),
    ])
    func compoundUnitLookAlikes(_ tex: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(tex: tex).text == expected, "\(tex)")
    }

    /// Units MathML marks (`class="MathML-Unit"`, `intent=":unit"`) side by side or in a fraction stay
    /// the rules' to read, as before: no product or rate is made of them.
    @Test func markedUnitsKeepTheirRules() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let product = #"<math><mn>1</mn><mi class="MathML-Unit">kg</mi><mo>·</mo><msup><mi class="MathML-Unit">m</mi><mn>2</mn></msup></math>"#
        #expect(speaker.speak(mathML: product).text == "1 kilogram times square meters")
        let rate = #"<math><mfrac><mrow><mn>5</mn><mi intent=":unit">m</mi></mrow><mi intent=":unit">s</mi></mfrac></math>"#
        #expect(speaker.speak(mathML: rate).text == "5 meters, per second")
    }

    /// Every locale has words for a product of units and, by its template for a quotient (`unit./`),
    /// for a quotient of products too.
    @Test(arguments: LocaleToolsTests.shippedLocales)
    func compoundUnitsHaveWordsInEveryLocale(_ locale: String) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
        let inputs = [#"4\,\mathrm{N\cdot m}"#, #"3\,\mathrm{kg\,m^2}"#, #"\frac{5\,\mathrm{m}}{\mathrm{s}}"#,
                      #"1\,\mathrm{kg\cdot m^2/s^2}"#, #"2\,\mathrm{J/(kg\,K)}"#]
        for tex in inputs {
            let spoken = speaker.speak(tex: tex)
            #expect(!spoken.diagnostics.contains { $0.id == "speech.missing-word" }, "\(locale): \(tex)")
            for raw in ["kg", "m²", "N", "/"] {
                #expect(!spoken.text.split(separator: " ").contains(Substring(raw)), "\(locale): \(spoken.text)")
            }
        }
    }

    /// A square or cube agrees with the unit's grammatical gender (`gender:` in `units.txt`, from
    /// CLDR, and the `feminine` forms of `unit.²`/`unit.³`), in number too, also after a prefix and in
    /// the denominator of a quotient; a noun whose gender changes with its number (Italian miglio, plural
    /// miglia) takes each number's.
    @Test(arguments: [
        ("fr", "2\\,\\mathrm{s}^2", "2 secondes carrées"), ("fr", "1\\,\\mathrm{s}^2", "1 seconde carrée"),
        ("fr", "2\\,\\mathrm{m}^2", "2 mètres carrés"), ("fr", "9{,}8\\,\\mathrm{m/s^2}", "9,8 mètres par seconde carrée"),
        ("fr", "2\\,\\mathrm{ms}^2", "2 millisecondes carrées"),
        ("es", "3\\,\\mathrm{h}^2", "3 horas cuadradas"), ("es", "3\\,\\mathrm{mi}^3", "3 millas cúbicas"),
        ("es", "3\\,\\mathrm{cm}^3", "3 centímetros cúbicos"),
        ("ca", "1\\,\\mathrm{mi}^2", "1 milla quadrada"), ("ca", "2\\,\\mathrm{in}^3", "2 polzades cúbiques"),
        ("it", "1\\,\\mathrm{mi}^2", "1 miglio quadrato"), ("it", "3\\,\\mathrm{mi}^2", "3 miglia quadrate"),
        ("it", "3\\,\\mathrm{h}^2", "3 ore quadrate"), ("pt", "3\\,\\mathrm{h}^2", "3 horas quadradas"),
    ])
    func squaresAndCubesAgreeWithTheUnit(_ locale: String, _ tex: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
        #expect(speaker.speak(tex: tex).text == expected, "\(locale)")
    }

    /// A language whose "per" takes a case asks the denominator in it (`{denominator@accusative}`:
    /// Polish "na minutę", Russian "на милю"), and one whose preposition changes with the denominator
    /// names that quotient's template (Russian `unit./h  {unit} в час`); the number still agrees.
    @Test(arguments: [
        ("ru", #"5\,\mathrm{mi/h}"#, "5 миль в час"), ("ru", #"3\,\mathrm{L/min}"#, "3 литра в минуту"),
        ("ru", #"2\,\mathrm{mol/L}"#, "2 моля на литр"), ("ru", #"1\,\mathrm{g/mi}"#, "1 грамм на милю"),
        ("pl", #"5\,\mathrm{mi/h}"#, "5 mil na godzinę"), ("pl", #"3\,\mathrm{L/min}"#, "3 litry na minutę"),
        ("pl", #"9.8\,\mathrm{m/s^2}"#, "9,8 metra na sekundę do kwadratu"),
        ("en", #"5\,\mathrm{mi/h}"#, "5 miles per hour"),
    ])
    func quotientsTakeTheDenominatorsCase(_ locale: String, _ tex: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: locale, style: "clearspeak")
        #expect(speaker.speak(tex: tex).text == expected, "\(locale)")
    }
}

/// A unit written out in the markup (`<mi class="MathML-Unit">ounces</mi>`): in English it is said as
/// written, without a missing-word report; in another language it is said as the unit it names, in
/// that language's words, composed as the symbol would be ("square feet" is ft², "Quadratfuß").
@Suite struct WrittenUnitNamesTests {
    static func markup(_ units: [(Int, String)]) -> String {
        "<math>" + units.map { "<mn>\($0.0)</mn><mi class='MathML-Unit'>\($0.1)</mi>" }.joined(separator: "<mo>,</mo>") + "</math>"
    }

    @Test func englishSaysTheNameAsWritten() throws {
        let en = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = en.speak(mathML: Self.markup([(2, "ounces"), (3, "square feet"), (1, "cubic yard"), (5, "furlongs")]))
        #expect(spoken.text == "2 ounces, comma 3 square feet, comma 1 cubic yard comma 5 furlongs", "\(spoken.text)")
        #expect(!spoken.speechDiagnostics.contains { $0.id == .speechMissingWord }, "\(spoken.speechDiagnostics)")
    }

    @Test func anotherLanguageSaysTheUnitItNames() throws {
        let de = try SpeakerCache.shared.speaker(locale: "de", style: "clearspeak")
        let spoken = de.speak(mathML: Self.markup([(2, "ounces"), (3, "square feet"), (2, "fl oz"), (2, "Tbsp")]))
        #expect(spoken.text == "2 Unzen, Komma 3 Quadratfuß, Komma 2 Flüssigunzen, Komma 2 Esslöffel", "\(spoken.text)")
        #expect(!spoken.speechDiagnostics.contains { $0.id == .speechMissingWord }, "\(spoken.speechDiagnostics)")
        // A name that is no unit's stays as written and is reported.
        let unknown = de.speak(mathML: Self.markup([(2, "widgets")]))
        #expect(unknown.speechDiagnostics.contains { $0.id == .speechMissingWord })
    }

    /// siunitx's numbers, units and quantities read as what they print: a quantity's units as the same
    /// units written in `\mathrm` read ("9.81 meters per second squared"), a unit alone or a quantity's
    /// one unit as a marked unit (`\SI{2}{a}` is 2 years, where `2\,\mathrm{a}` may be the letter), exponents,
    /// uncertainties, angles; options in brackets left; in every locale the units' words.
    @Test func siunitxNumbersUnitsAndQuantities() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        func say(_ tex: String) -> String { speaker.speak(tex: tex).text }
        #expect(say(#"\SI{9.81}{\metre\per\second\squared}"#) == "9.81 meters per second squared")
        #expect(say(#"\SI{9.81}{\metre\per\second\squared}"#) == say(#"9.81\,\mathrm{m}\,\mathrm{s}^{-2}"#))
        #expect(say(#"\qty{3}{km/h}"#) == "3 kilometers per hour")
        #expect(say(#"\SI[per-mode=symbol]{2}{\mol\per\litre}"#) == "2 moles per liter")
        #expect(say(#"\SI{3}{\joule\per\mole\per\kelvin}"#) == "3 joules per mole per kelvin")
        #expect(say(#"\SI{5}{\atto\second}"#) == "5 attoseconds")
        #expect(say(#"\SI{2}{a}"#) == "2 years")
        #expect(say(#"\SI{10}{\kilo\ohm}"#) == "10 kiloohms")
        #expect(say(#"\SI{10}{\kohm}"#) == "10 kiloohms")
        #expect(say(#"\qty{2}{\umol}"#) == "2 micromoles")
        #expect(say(#"\SI{3}{\square\metre}"#) == "3 square meters")
        #expect(say(#"\SI{25}{\degreeCelsius}"#) == "25 degrees Celsius")
        #expect(say(#"\SI{5}{\percent}"#) == "5 percent")
        #expect(say(#"\SI{1.23(4)}{\kilo\gram}"#) == "1.23 plus or minus 0.04 kilograms")
        #expect(say(#"\SI{1.5 +- 0.2}{\metre}"#) == "1.5 plus or minus 0.2 meters")
        #expect(say(#"\num{1.23e-4}"#) == "1.23 times 10 to the negative 4 power")
        #expect(say(#"\num{12345,678}"#) == "12345.678")
        #expect(say(#"\num{1,5 \pm 0,25}"#) == "1.5 plus or minus 0.25")
        #expect(say(#"\ang{12;5;30}"#) == "12 degrees, 5 minutes, 30 seconds")
        #expect(say(#"\SI{3}{\arcsecond}"#) == "3 arcseconds")
        #expect(say(#"\si{\kilo\gram}"#) == "kilograms")
        #expect(say(#"\unit{km}"#) == "kilometers")
        #expect(say(#"5\,\mathrm{k\Omega}"#) == "5 kiloohms")
        let missing = speaker.speak(tex: #"\SI{3}"#)
        #expect(missing.diagnostics.contains { $0.id == "tex.missing-argument" })
        let de = try SpeakerCache.shared.speaker(locale: "de", style: "clearspeak")
        #expect(de.speak(tex: #"\SI{3}{\kilo\gram}"#).text == de.speak(tex: #"3\,\mathrm{kg}"#).text)
    }

    /// A text "as" between formulas is the word (`U → 0` as `r → ∞`), not the attosecond (which `\mathrm{as}` after a
    /// number is): the arrows around it approach (also to plus or minus infinity).
    @Test func theWordAsIsNoAttosecond() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let mathML = "<math><mi>U</mi><mo>→</mo><mn>0</mn><mspace width='0.2em'/><mtext>as</mtext><mspace width='0.2em'/>"
            + "<mi>r</mi><mo>→</mo><mo>±</mo><mi>∞</mi></math>"
        #expect(speaker.speak(mathML: mathML).text == "U approaches 0 as r approaches plus or minus infinity")
    }
}
