import Testing
import MathSyntax
import MathTeX
@testable import MathSemantics

/// The analysis of a TeX string.
func analyze(_ tex: String) -> SemanticNode {
    SemanticAnalyzer(options: .init(unitNames: SemanticGoldenTests.englishUnitNames)).analyze(TeXParser().parse(tex).root)
}

extension SemanticNode {
    /// The first node of `kind` in pre-order (self included).
    func first(_ kind: SemanticKind) -> SemanticNode? {
        if self.kind == kind { return self }
        for c in children { if let f = c.first(kind) { return f } }
        return nil
    }

    /// The children with role `item` (operands of an infix, implied times, list or relation).
    var items: [SemanticNode] { children.filter { $0.role == .item } }

    /// How many nodes of `kind` the tree holds.
    func count(_ kind: SemanticKind) -> Int {
        (self.kind == kind ? 1 : 0) + children.reduce(0) { $0 + $1.count(kind) }
    }
}

/// Targeted checks of the decisions rules depend on.
@Suite struct SemanticDecisionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let tex: String
        let kind: SemanticKind
        let props: [String: String]
        var testDescription: String { tex }
        init(_ tex: String, _ kind: SemanticKind, _ props: [String: String] = [:]) {
            self.tex = tex
            self.kind = kind
            self.props = props
        }
    }

    /// Function application versus implied times (ClearSpeak Functions_Auto).
    static let functions: [Case] = [
        Case("f(x)", .application, ["function-class": "generic", "argument-fenced": "true"]),
        Case("G(3t)", .application, ["function-class": "generic"]),
        Case("f'(x)", .application, ["function-class": "generic"]),
        Case("f^{-1}(y)", .application, ["inverse": "true"]),
        Case("P^{-1}(x)", .application, ["inverse": "true"]),
        Case("g^2(s)", .application, ["power": "true", "power-value": "2"]),
        Case("(g \\circ h)(t)", .application, ["function-class": "generic"]),
        Case("\\sin x", .application, ["function-class": "trig"]),
        Case("\\sin^2 x", .application, ["power-value": "2", "power-kind": "squared"]),
        Case("\\cos^{-1} t", .application, ["inverse": "true"]),
        Case("\\log_b x", .application, ["log-base": "true", "function-class": "log"]),
        Case("\\ln(x)", .application, ["function-class": "ln", "argument-fenced": "true"]),
        Case("\\sinh u", .application, ["function-class": "hyperbolic"]),
        Case("\\operatorname{rank}(A)", .application, ["function-class": "named"]),
        Case("\\max(a, b)", .application, ["function-class": "named"]),
        Case("k(5)", .impliedTimes, ["possible-function": "true"]),
        Case("a(b + c)", .impliedTimes, ["possible-function": "true"]),
        Case("P(A)", .impliedTimes, ["possible-function": "true"]),
        Case("E[X]", .impliedTimes, ["possible-function": "true"]),
        Case("3(x + 2)", .impliedTimes),
        Case("x^2(x + 1)", .impliedTimes),
        // A written invisible times says the parentheses hold a factor, not an argument.
        Case("t\u{2062}(x)", .impliedTimes),
        Case("f\u{2062}(x)", .impliedTimes),
        Case("\\mathrm{Dim}\\, M", .application, ["function-class": "named", "function-name": "Dim"]),
    ]

    @Test(arguments: functions)
    func functionApplication(_ c: Case) {
        let n = analyze(c.tex)
        #expect(n.kind == c.kind, "\(c.tex): \(n.dump())")
        for (k, v) in c.props { #expect(n.properties[k] == v, "\(c.tex): \(k)") }
        if c.kind == .impliedTimes && c.props.isEmpty { #expect(!n.has("possible-function")) }
    }

    @Test func functionArgumentExtent() {
        // \sin 2x takes 2x; \sin x + 1 takes x only; \sin x \cos y is two applications.
        let a = analyze("\\sin 2x")
        #expect(a.child(.argument)?.kind == .impliedTimes)
        let b = analyze("\\sin x + 1")
        #expect(b.kind == .infix && b.children[0].kind == .application)
        #expect(b.children[0].child(.argument)?.text == "x")
        let c = analyze("\\sin x \\cos y")
        #expect(c.kind == .impliedTimes && c.count(.application) == 2)
        let d = analyze("f(g(x))")
        #expect(d.count(.application) == 2)
        #expect(d.child(.argument)?.child(.content)?.kind == .application)
        let e = analyze("f(x)^2")
        #expect(e.kind == .power && e.child(.base)?.kind == .application)
    }

    /// Interval candidates versus plain fences and points (ClearSpeak Paren preference).
    static let fences: [Case] = [
        Case("(0, 1]", .interval, ["lower-closed": "", "upper-closed": "true"]),
        Case("[3, \\infty)", .interval, ["lower-closed": "true", "upper-infinite": "true"]),
        Case("(-\\infty, 4)", .interval, ["lower-infinite": "true"]),
        Case("(3, 7)", .interval, ["open": "(", "close": ")"]),
        Case("(1, 2, 3)", .fenced, ["items": "3"]),
        Case("(x = 1, y)", .fenced, ["items": "1"]),
        Case("(a)", .fenced, ["nesting": "1", "simple-content": "true", "content-kind": "letter"]),
        Case("(-4)", .fenced, ["content-kind": "negative-number"]),
        Case("|x|", .absoluteValue),
        Case("\\|v\\|", .norm),
        Case("\\lfloor x \\rfloor", .floor),
        Case("\\lceil x \\rceil", .ceiling),
        Case("\\langle u, v \\rangle", .angleBrackets),
        Case("\\{1, 2\\}", .set, ["items": "2"]),
        Case("\\{\\}", .set, ["empty": "true"]),
        Case("\\{x \\mid x > 0\\}", .setBuilder, ["separator": "∣"]),
        Case("\\{t : t > 0\\}", .setBuilder, ["separator": ":"]),
        Case("\\{x | x > 0\\}", .setBuilder, ["separator": "|"]),
        Case("\\binom{n}{k}", .binomial),
        Case("\\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix}", .matrix, ["fence": "bars", "rows": "2", "columns": "2"]),
        Case("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", .matrix, ["fence": "parentheses", "rows": "2", "columns": "1"]),
        Case("\\begin{cases} 1 & x > 0 \\end{cases}", .cases, ["rows": "1"]),
        Case("\\begin{aligned} a &= b \\end{aligned}", .lines, ["rows": "1", "environment": ""]),
        // Tables are classified by structure, not by their environment: a bare table is lines.
        Case("\\begin{matrix} a & b \\\\ c & d \\end{matrix}", .lines, ["rows": "2", "columns": "2"]),
        Case("\\begin{array}{cc} a & b \\end{array}", .lines, ["rows": "1", "columns": "2"]),
        Case("\\left[\\begin{array}{cc} a & b \\end{array}\\right]", .matrix, ["fence": "brackets"]),
    ]

    @Test(arguments: fences)
    func fence(_ c: Case) {
        let n = analyze(c.tex)
        #expect(n.kind == c.kind, "\(c.tex): \(n.dump())")
        for (k, v) in c.props {
            if v.isEmpty { #expect(n.properties[k] == nil, "\(c.tex): \(k) should be absent") } else {
                #expect(n.properties[k] == v, "\(c.tex): \(k)")
            }
        }
    }

    @Test func absoluteValuePairs() {
        let a = analyze("|a||b|")
        #expect(a.kind == .impliedTimes && a.items.map(\.kind) == [.absoluteValue, .absoluteValue])
        #expect(a.children[1].kind == .operator && a.children[1].text == "\u{2062}")
        let b = analyze("2|y|")
        #expect(b.kind == .impliedTimes && b.items.map(\.kind) == [.number, .absoluteValue])
        let c = analyze("| |x| - |y| |")
        #expect(c.kind == .absoluteValue && c.child(.content)?.count(.absoluteValue) == 2)
        let d = analyze("P(A \\mid B)")
        #expect(d.first(.relation)?.properties["operators"] == "∣")
        let e = analyze("a | b")
        #expect(e.kind == .relation && e.properties["operators"] == "|")
    }

    @Test func parenthesisNesting() {
        let n = analyze("((a + b) - c)^2")
        let outer = n.child(.base)!
        #expect(outer.properties["nesting"] == "1")
        #expect(outer.first(.infix)?.first(.fenced)?.properties["nesting"] == "2")
        // Paren_SpeakNestingLevel counts parentheses only: a bracket has no level and does not count.
        let m = analyze("2[3 - (x + 1)]")
        #expect(m.items[1].properties["nesting"] == nil)
        #expect(m.items[1].child(.content)?.children[2].properties["nesting"] == "1")
    }

    /// Common fractions (ClearSpeak Fractions_Auto: integer numerator 1–19, denominator 2–10).
    @Test(arguments: [("\\frac{3}{4}", true), ("\\frac{5}{2}", true), ("\\frac{13}{10}", true), ("\\frac{19}{2}", true),
                      ("\\frac{21}{4}", false), ("\\frac{5}{12}", false), ("\\frac{0}{7}", false), ("\\frac{1}{1}", false),
                      ("\\frac{1.5}{2}", false), ("\\frac{x}{2}", false)])
    func commonFraction(_ c: (String, Bool)) {
        let n = analyze(c.0)
        #expect(n.kind == .fraction)
        #expect(n.has("common") == c.1, "\(c.0)")
    }

    @Test func fractionSimplicity() {
        #expect(analyze("\\frac{3x}{4y}").has("simple"))
        #expect(analyze("\\frac{\\text{distance}}{\\text{time}}").has("simple"))
        #expect(analyze("\\frac{\\sin x}{x}").has("simple"))
        #expect(!analyze("\\frac{x + 2}{5}").has("simple"))
        #expect(!analyze("\\frac{1}{x^2}").has("simple"))
        #expect(!analyze("\\frac{6!}{4!}").has("simple"))
        let nested = analyze("\\frac{\\frac{1}{2}}{\\frac{3}{4}}")
        #expect(!nested.has("simple") && nested.has("simple-numerator") && nested.has("simple-denominator"))
        // Common fractions (read as words) and fractions in scripts do not count for MathSpeak's
        // nesting (Rules 7.1–7.3: "StartFraction six-halves Over 3 EndFraction").
        #expect(nested.has("contains-fraction") && nested.properties["fraction-depth"] == nil)
        #expect(analyze("\\frac{\\frac{1}{x}}{y}").properties["fraction-depth"] == "1")
        #expect(analyze("\\frac{a^{\\frac{1}{x}}}{y}").properties["fraction-depth"] == nil)
        let mixed = analyze("\\frac{\\frac{2}{5}x}{3}")
        #expect(mixed.has("simple-numerator") && mixed.has("contains-fraction"))
        #expect(!analyze("\\frac{1}{1 + \\frac{1}{n}}").has("simple-denominator"))
        #expect(analyze("\\frac{1}{1 + \\frac{1}{1 + \\frac{1}{x}}}").properties["fraction-depth"] == "2")
        #expect(analyze("3\\frac{1}{4}").kind == .mixedNumber)
        #expect(analyze("2\\frac{x}{3}").kind == .impliedTimes)
    }

    @Test(arguments: [("\\frac{dy}{dx}", "derivative", nil), ("\\frac{d^2 y}{dx^2}", "derivative", "2"),
                      ("\\frac{d}{dx}", "derivative", nil), ("\\frac{\\mathrm{d}y}{\\mathrm{d}x}", "derivative", nil),
                      ("\\frac{\\partial f}{\\partial x}", "partial-derivative", nil),
                      ("\\frac{\\partial^2 f}{\\partial x \\partial y}", "partial-derivative", "2")] as [(String, String, String?)])
    func derivatives(_ c: (String, String, String?)) {
        let n = analyze(c.0)
        #expect(n.has(c.1), "\(c.0)")
        #expect(n.properties["order"] == c.2, "\(c.0)")
    }

    /// Exponent kinds (ClearSpeak Exponents_Auto).
    @Test(arguments: [("w^2", "squared"), ("y^3", "cubed"), ("y^4", "ordinal"), ("9^0", "ordinal"), ("x^{-1}", "negative-integer"),
                      ("a^n", "letter"), ("e^x", "letter"), ("x^\\alpha", "letter"), ("x^{\\frac{1}{3}}", "simple"), ("7^{3.0}", "simple"),
                      ("e^{-t}", "simple"), ("2^{n - 1}", "simple"), ("5^{x^2}", "simple"), ("e^{-\\frac{1}{2}t^2}", "simple"),
                      ("2^{2^k}", "complex"), ("e^{x^2 + 1}", "complex"), ("A^T", "letter"), ("\\mathbb{Z}^+", "symbol"),
                      ("A^{\\dagger}", "symbol")])
    func exponentKind(_ c: (String, String)) {
        let n = analyze(c.0)
        #expect(n.kind == .power, "\(c.0)")
        #expect(n.properties["exponent-kind"] == c.1, "\(c.0): \(n.dump())")
    }

    @Test func integralsAndDifferentials() {
        let a = analyze("\\int_0^1 x^2 \\, dx")
        #expect(a.kind == .bigOperator && a.properties["operator-name"] == "integral")
        #expect(a.child(.body)?.kind == .power)
        #expect(a.child(.differential)?.child(.variable)?.text == "x")
        #expect(a.properties["differential"] == "x")
        let b = analyze("\\int x^2 + 1 \\, dx")
        #expect(b.child(.body)?.kind == .infix)
        let c = analyze("\\int_0^1 \\int_0^1 f(x, y)\\,dx\\,dy")
        #expect(c.properties["differential"] == "y" && c.child(.body)?.properties["differential"] == "x")
        let d = analyze("\\iint_D f(x, y)\\,dx\\,dy")
        #expect(d.properties["operator-name"] == "double-integral" && d.properties["differential"] == "x y")
        let e = analyze("\\int_0^\\infty e^{-x}\\,\\mathrm{d}x")
        #expect(e.child(.differential)?.has("upright") == true)
        let f = analyze("\\int_a^b f(x) dx + C")
        #expect(f.kind == .infix && f.children[0].kind == .bigOperator)
        let s = analyze("\\sum_i a_i + b")
        #expect(s.kind == .infix && s.children[0].child(.body)?.kind == .subscript)
        let t = analyze("\\sum_i x_i \\cdot y_i")
        #expect(t.child(.body)?.kind == .infix)
        let l = analyze("\\lim_{x \\to 0} \\frac{\\sin x}{x}")
        #expect(l.kind == .limit && l.child(.lower)?.kind == .relation && l.child(.body)?.kind == .fraction)
    }

    @Test func listsAndRelations() {
        let a = analyze("f(x) = 1, 2")
        #expect(a.kind == .relation && a.children.last?.kind == .list)
        let b = analyze("x = 1, y = 2")
        #expect(b.kind == .list && b.children.filter { $0.role == .item }.allSatisfy { $0.kind == .relation })
        let c = analyze("1, 3, 5, \\ldots, 99")
        #expect(c.kind == .list && c.count(.ellipsis) == 1)
        let d = analyze("\\{n \\in \\mathbb{N} \\mid n < 10\\}")
        #expect(d.kind == .setBuilder && d.child(.variable)?.kind == .relation && d.child(.condition)?.kind == .relation)
        let e = analyze("a + b \\cup c - d")
        #expect(e.kind == .infix && e.properties["operators"] == "+ ∪ −")
        let f = analyze("a - b \\times c")
        #expect(f.kind == .infix && f.children[2].kind == .infix)
        let g = analyze("-7")
        #expect(g.kind == .prefix && g.properties["operator"] == "negative")
        let h = analyze("g(x) \\stackrel{\\text{def}}{=} x^2")
        #expect(h.kind == .relation && h.children[1].kind == .stacked && h.children[1].properties["base-class"] == "rel")
    }

    /// A wide space between two operands separates them (a list, the space kept between the items for
    /// a pause), as a comma does; next to an operator or a relation, before `\pmod` and in a row with an
    /// integral it is layout.
    @Test func wideSpacesBetweenOperandsSeparate() {
        let a = analyze("a \\qquad b")
        #expect(a.kind == .list && a.children.map(\.role) == [.item, .operator, .item])
        let mixed = analyze("\\frac17 x + 1 \\qquad \\frac17 x - 2")
        #expect(mixed.kind == .list && mixed.count(.mixedNumber) == 0)
        let c = analyze("f(x) \\quad x \\in A")
        #expect(c.kind == .list && c.children.last?.kind == .relation)
        let d = analyze("x = 1 \\quad y = 2")
        #expect(d.kind == .list && d.children.map(\.role) == [.item, .operator, .item])
        #expect(analyze("x \\quad = \\quad 2").count(.empty) == 0)
        #expect(analyze("x \\quad + \\quad y").kind == .infix)
        #expect(analyze("17 \\equiv 2 \\pmod{5}").kind == .relation)
        #expect(analyze("\\int_0^1 f(x) \\quad dx").kind != .list)
        #expect(analyze("1 \\, \\frac12").kind == .mixedNumber)
    }

    /// Bars between operands inside square brackets separate columns (`[A|b]`, `[x_1|x_2|…|x_n]`): loose
    /// bars, not absolute values; with a bar first or last, or before an operator, they pair as before.
    @Test func barsBetweenColumnsOfBrackets() {
        #expect(analyze("[x_1 | x_2 | x_3]").count(.absoluteValue) == 0)
        #expect(analyze("\\left[\\mathbf x_1|\\mathbf x_2|\\ldots|\\mathbf x_n\\right]").count(.absoluteValue) == 0)
        #expect(analyze("[2|y| + 1]").count(.absoluteValue) == 1)
        #expect(analyze("[|x|]").count(.absoluteValue) == 1)
        #expect(analyze("(x_1 | x_2 | x_3)").count(.absoluteValue) == 1)
    }

    /// A name of two words (`\\limsup`, `\\operatorname{lim\\,sup}`, MathML `<mo>lim sup</mo>`) is the
    /// function's, with or without scripts; other words in one identifier or operator stay words.
    @Test func namesOfTwoWords() {
        #expect(analyze("\\limsup g").kind == .limit)
        #expect(analyze("\\operatorname{lim\\,sup} g").kind == .limit)
        #expect(analyze("\\liminf_{n} a_n").kind == .limit)
    }

    /// An evaluation written with a closing bracket and both limits (`\left. F(x) \right]_0^1`) is one,
    /// as `\left. F(x) \right|_0^1` and `[F(x)]_0^1` are; with one limit it stays a bracket with a script.
    @Test func evaluationClosedByABracket() {
        let e = analyze("\\left. F(x) \\right]_0^1")
        #expect(e.kind == .evaluatedAt && e.properties["close"] == "]" && e.child(.lower) != nil && e.child(.upper) != nil)
        #expect(analyze("\\left. x \\right]_a").kind != .evaluatedAt)
    }

    @Test func unitsPrimesAndPostfix() {
        let a = analyze("5\\,\\text{cm}")
        #expect(a.kind == .measurement && a.properties["unit-name"] == "cm" && !a.has("singular"))
        #expect(analyze("1\\,\\text{kg}").has("singular"))
        #expect(analyze("3\\,\\mathrm{m/s}").properties["unit-name"] == "m/s")
        let f = analyze("6'")
        #expect(f.kind == .measurement && f.properties["prime-unit"] == "1")
        let m = analyze("30^\\circ 15'")
        #expect(m.children.last?.properties["unit-name"] == "′")
        #expect(analyze("45^\\circ").kind == .degrees)
        #expect(analyze("5\\,\\mathrm{arcsec}").properties["unit-name"] == "arcsec")
        #expect(analyze("2\\,\\mathrm{arcsec}\\,x").kind != .measurement)
        #expect(analyze("3\\,\\mu\\mathrm{as}").properties["unit-name"] == "µas")
        #expect(analyze("15\\%").kind == .percent)
        #expect(analyze("n!").kind == .factorial)
        #expect(analyze("y''").properties["count"] == "2")
        let r = analyze("0.\\overline{3}")
        #expect(r.kind == .number && r.properties["repeating-digits"] == "3")
    }

    @Test func accentsAndScripts() {
        #expect(analyze("\\bar{x}").properties["accent-name"] == "bar")
        #expect(analyze("\\overline{AB}").properties["accent-name"] == "overline")
        #expect(analyze("\\vec{v}").properties["accent-name"] == "vector")
        #expect(analyze("\\overrightarrow{AB}").properties["accent-name"] == "vector")
        #expect(analyze("\\overbrace{a+b}^{n}").kind == .stacked)
        let p = analyze("{}_{m}C_{j}")
        #expect(p.kind == .prescripts && p.has("combination"))
        #expect(analyze("{}_{10}P_{2}").has("permutation"))
        // The total written above (ⁿPₖ) counts the same; it keeps the role it is written in.
        let above = analyze("{}^{n}P_{k}")
        #expect(above.has("permutation") && above.children.map(\.role) == [.presuperscript, .base, .subscript])
        #expect(analyze("{}^{n}C_{k}").has("combination"))
        // Look-alikes: both pre-scripts, a superscript after, another letter, no subscript (a nuclide).
        #expect(!analyze("{}^{n}_{m}P_{k}").has("permutation") && !analyze("{}^{n}P^{k}").has("permutation"))
        #expect(!analyze("{}^{n}Q_{k}").has("permutation") && !analyze("{}^{14}C").has("combination"))
        #expect(analyze("x_1").has("numeric"))
        #expect(analyze("\\sqrt[3]{x}").properties["index-value"] == "3")
        #expect(analyze("\\sqrt{x}").has("square"))
        #expect(analyze("\\mathbb{R}").properties["set-name"] == "reals")
    }

    @Test func rangesCoverTheSource() {
        for tex in ["x + y = 2", "\\frac{a}{b}", "|a||b|", "\\sum_{i=1}^n i", "f(x)", "5\\,\\text{cm}"] {
            let root = TeXParser().parse(tex).root
            let n = SemanticAnalyzer().analyze(root)
            #expect(n.range != nil, "\(tex)")
            func check(_ x: SemanticNode) {
                if let r = x.range, let whole = root.range {
                    #expect(r.lowerBound >= whole.lowerBound && r.upperBound <= whole.upperBound, "\(tex)")
                }
                x.children.forEach(check)
            }
            check(n)
        }
    }
}

/// Spaces inside a number only group its digits.
@Suite struct NumberGroupingTests {
    @Test func spacesInsideANumberAreDropped() {
        for written in ["1 234 567", "1\u{2009}234\u{2009}567", "1\u{A0}234\u{A0}567"] {
            let n = SemanticAnalyzer().analyze(MathNode(.number(written)))
            #expect(n.kind == .number && n.text == "1234567", "\(written)")
            #expect(n.properties["value"] == "1234567")
        }
        #expect(SemanticAnalyzer().analyze(MathNode(.number("3.14"))).text == "3.14")
    }
}

/// Unit names written out are a fact the analysis is given (the speaking locale's words), never one
/// it knows: without names `\text{meters}` is text, with German names `Meter` is the unit `m`.
@Suite struct UnitNameTests {
    @Test func writtenUnitsComeFromTheCaller() {
        let root = TeXParser().parse(#"5\text{ meters}"#).root
        #expect(SemanticAnalyzer().analyze(root).kind != .measurement)
        #expect(SemanticAnalyzer(options: .init(unitNames: SemanticGoldenTests.englishUnitNames)).analyze(root).kind == .measurement)
        let german = UnitNames([("Meter", "m"), ("Sekunden", "s")])
        let m = SemanticAnalyzer(options: .init(unitNames: german)).analyze(TeXParser().parse(#"5\text{ meter}"#).root)
        #expect(m.kind == .measurement && m.properties["unit-name"] == "m")
        #expect(UnitNames.isSymbol("km²") && UnitNames.isSymbol("m/s") && !UnitNames.isSymbol("meters"))
    }
}

/// One table (``UnitSymbols``) says which written symbols are units, unmarked ones after a quantity too:
/// an SI-prefixed annum is a unit from TeX as from the MathML of it, and look-alikes stay what they are.
@Suite struct UnitSymbolTableTests {
    @Test func prefixedSymbolsAreUnitsFromTeXAndMathML() {
        for (tex, key) in [(#"3\,\mathrm{Ga}"#, "Ga"), (#"5\,\mathrm{ka}"#, "ka"), (#"2\,\text{PA}"#, "PA"),
                           (#"4.5\,\text{mT}"#, "mT"), (#"3\,\mathrm{m/s^2}"#, "m/s²"), (#"7\,\mathrm{hPa}"#, "hPa")] {
            let n = analyze(tex)
            #expect(n.kind == .measurement && n.properties["unit-name"] == key, "\(tex)")
        }
        // The tree MathML `<mn>3</mn><mi mathvariant="normal">Ga</mi>` makes, as `parse --to mathml` writes it.
        let mathml = MathNode(.row, [MathNode(.number("3")), MathNode(.identifier("Ga", variant: .normal))])
        let m = SemanticAnalyzer().analyze(mathml)
        #expect(m.kind == .measurement && m.properties["unit-name"] == "Ga")
        #expect(UnitSymbols.writtenKey("μs") == "µs" && UnitSymbols.writtenKey("km/h") == "km/h")
        #expect(UnitSymbols.writtenKey("kWh") == "kWh" && UnitSymbols.writtenKey("meters") == nil)
        // A product with middle dots is the factors a space apart, a denominator in parentheses the product it holds; a dot
        // between words or a factor that is no unit is none.
        #expect(UnitSymbols.writtenKey("N·m") == "N m" && UnitSymbols.writtenKey("kW⋅h") == "kW h")
        #expect(UnitSymbols.writtenKey("J/(kg⋅°C)") == "J/kg °C" && UnitSymbols.writtenKey("kg·m/s^2") == "kg m/s²")
        #expect(UnitSymbols.writtenKey("a·b") == nil && UnitSymbols.writtenKey("N·") == nil && UnitSymbols.writtenKey("(kg)") == nil)
        // The bare annum is a unit symbol (a locale's `a` key, a marked unit) but not read as one unmarked.
        #expect(UnitSymbols.writtenKey("a") == "a" && UnitSymbols.unmarkedKey("a") == nil && UnitSymbols.unmarkedKey("Ga") == "Ga")
    }

    @Test func theMicroPrefixWrittenAsAGreekLetter() {
        for (tex, key) in [(#"5\,\mu\mathrm{m}"#, "µm"), (#"5\,\mathrm{\mu m}"#, "µm"), (#"5\,\mathrm{\mu}\mathrm{s}"#, "µs"),
                           (#"2\,\mu\mathrm{m}^2"#, "µm²"), (#"3\,\mu\mathrm{m}/\mathrm{s}"#, "µm/s")] {
            let n = analyze(tex)
            #expect(n.kind == .measurement && n.properties["unit-name"] == key, "\(tex)")
        }
        // μ times an italic m, μ alone, μm without a quantity.
        #expect(analyze(#"5\mu m"#).first(.measurement) == nil)
        #expect(analyze(#"5\mu"#).first(.measurement) == nil)
        #expect(analyze(#"\mu\mathrm{m}"#).first(.measurement) == nil)
    }

    @Test func lookAlikesAreNotUnits() {
        // A variable after a number, the mark of a differential, a transpose, an italic letter, the
        // letter or article a between numbers.
        #expect(analyze("2a").first(.measurement) == nil)
        #expect(analyze(#"3\,\mathrm{d}x"#).first(.measurement) == nil)
        #expect(analyze(#"\int 3\,\mathrm{d}x"#).first(.measurement) == nil)
        #expect(analyze(#"A^\mathrm{T}"#).first(.measurement) == nil)
        #expect(analyze("2Ga").first(.measurement) == nil)
        #expect(analyze(#"(1\text{ a }1)"#).first(.measurement) == nil)
        // A function's name before its argument (the hyperbolic cosine, not chains; with nothing after
        // it, `3\mathrm{ch}` is 3 chains), a one-letter name applied to an argument (probability, not
        // poise), a word between others in a text.
        #expect(analyze(#"3\mathrm{ch}\,x"#).first(.measurement) == nil)
        #expect(analyze(#"3\mathrm{ch}"#).first(.measurement)?.properties["unit-name"] == "ch")
        #expect(analyze(#"3\,\mathrm{P}(A)"#).first(.measurement) == nil)
        #expect(analyze(#"x = 2 \text{ at } t = 0"#).first(.measurement) == nil)
        // … while `min` and a text unit with a space after it stay units.
        #expect(analyze(#"3\,\mathrm{min}"#).first(.measurement)?.properties["unit-name"] == "min")
        #expect(analyze(#"5\,\text{cm }"#).first(.measurement)?.properties["unit-name"] == "cm")
    }
}
