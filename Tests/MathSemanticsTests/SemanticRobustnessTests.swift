import Foundation
import Testing
import MathSyntax
import MathTeX
@testable import MathSemantics

/// The analysis is total: real formulas, MathML-shaped trees, hostile shapes.
@Suite struct SemanticRobustnessTests {
    @Test func arxivFormulas() throws {
        let text = try String(contentsOf: texFixtureURL("arxiv-public.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4148)
        let parser = TeXParser()
        let trees = lines.map { parser.parse($0).root }
        let analyzer = SemanticAnalyzer()
        var unknown = 0, rows = 0, nodes = 0
        let start = Date()
        for t in trees {
            let n = analyzer.analyze(t)
            unknown += n.count(.unknown)
            rows += n.count(.row)
            nodes += n.nodeCount
        }
        let seconds = Date().timeIntervalSince(start)
        // The parser understands every command in this file; unstructured rows are rare.
        #expect(unknown == 0)
        #expect(rows < 20, "\(rows) unstructured rows")
        #expect(nodes > 50_000)
        print("arxiv: \(trees.count) formulas, \(nodes) semantic nodes, \(unknown) unknown, \(rows) rows, \(seconds)s")
    }

    /// Trees as the MathML reader builds them: invisible times, function application, invisible comma.
    @Test func mathMLShapes() {
        let mi = { (s: String) in MathNode(.identifier(s, variant: nil)) }
        let mn = { (s: String) in MathNode(.number(s)) }
        let mo = { (s: String) in MathNode(.operator(s, OperatorDictionary.properties(for: s))) }
        let analyzer = SemanticAnalyzer()
        // 2⁢x
        let a = analyzer.analyze(MathNode(.row, [mn("2"), mo("\u{2062}"), mi("x")]))
        #expect(a.kind == .impliedTimes && a.items.count == 2)
        // sin⁡x
        let b = analyzer.analyze(MathNode(.row, [mi("sin"), mo("\u{2061}"), mi("x")]))
        #expect(b.kind == .application && b.properties["function-class"] == "trig")
        // k⁡(5): the author says it is a function.
        let c = analyzer.analyze(MathNode(.row, [mi("k"), mo("\u{2061}"), MathNode(.row, [mo("("), mn("5"), mo(")")])]))
        #expect(c.kind == .application && c.has("argument-fenced"))
        // x_{i⁣j}
        let d = analyzer.analyze(MathNode(.subscript, [mi("x"), MathNode(.row, [mi("i"), mo("\u{2063}"), mi("j")])]))
        #expect(d.child(.subscript)?.kind == .list)
        // f(x) as mrow/mo, same as TeX.
        let e = analyzer.analyze(MathNode(.row, [mi("f"), MathNode(.row, [mo("("), mi("x"), mo(")")])]))
        #expect(e.kind == .application)
        // mfenced-like node and MathML semantics wrapper.
        let f = analyzer.analyze(MathNode(.semantics(annotations: []), [MathNode(.fenced(open: "|", close: "|"), [mi("x")])]))
        #expect(f.kind == .absoluteValue)
        // mmultiscripts with pre-scripts.
        let g = analyzer.analyze(MathNode(.multiscripts(prescriptPairs: 1), [mi("C"), mi("k"), MathNode(.none), mi("n"), MathNode(.none)]))
        #expect(g.kind == .prescripts && g.has("combination"))
        // An accent without the accent flag.
        let h = analyzer.analyze(MathNode(.over(UnderOverProperties()), [mi("x"), mo("¯")]))
        // (a stretchy macron is an overline: MathML writes \overline so)
        #expect(h.kind == .accent && ["bar", "overline"].contains(h.properties["accent-name"]))
        // 3⁤1/4: invisible plus before a fraction of integers.
        let i = analyzer.analyze(MathNode(.row, [mn("3"), mo("\u{2064}"), MathNode(.fraction(FractionProperties()), [mn("1"), mn("4")])]))
        #expect(i.kind == .mixedNumber)
    }

    @Test func deepAndWideTrees() {
        let analyzer = SemanticAnalyzer()
        // 200 nested fractions (the parser's depth limit) and a wide row of 20,000 items.
        var deep = MathNode(.identifier("x", variant: nil))
        for _ in 0..<200 { deep = MathNode(.fraction(FractionProperties()), [deep, MathNode(.number("2"))]) }
        #expect(analyzer.analyze(deep).kind == .fraction)
        // The parser's deepest trees, of every recursive shape, and a 1000-deep \left( nest.
        for (open, close) in [("x^{", "}"), ("\\sqrt{", "}"), ("\\frac{1}{", "}"), ("\\sin(", ")"), ("\\left(", "\\right)"),
                              ("\\sum_{i}", ""), ("{\\color{red}", "}"), ("\\left|", "\\right|"), ("\\overline{", "}")] {
            for n in [199, 1000] {
                let tex = String(repeating: open, count: n) + "x" + String(repeating: close, count: n)
                let tree = TeXParser().parse(tex).root
                #expect(analyzer.analyze(tree).kind != .unknown || tree.containsError, "\(open) × \(n)")
            }
        }
        var items: [MathNode] = []
        for i in 0..<5000 {
            items.append(MathNode(.identifier("x", variant: nil)))
            items.append(MathNode(.operator(i % 2 == 0 ? "+" : "=", OperatorDictionary.properties(for: i % 2 == 0 ? "+" : "="))))
            items.append(MathNode(.operator("(", .open)))
            items.append(MathNode(.operator("|", .ordinary)))
        }
        #expect(analyzer.analyze(MathNode(.row, items)).kind != .unknown)
        // Brackets nested far deeper than the group limit, in one flat row.
        let opens = Array(repeating: MathNode(.operator("(", .open)), count: 3000)
        let closes = Array(repeating: MathNode(.operator(")", .close)), count: 3000)
        let nested = analyzer.analyze(MathNode(.row, opens + [MathNode(.identifier("x", variant: nil))] + closes))
        #expect(nested.kind == .impliedTimes && nested.children.first?.kind == .fenced)
        // Long chains of prefixes, big operators, functions and primes.
        let chain = analyzer.analyze(TeXParser().parse(String(repeating: "-", count: 2000) + "x").root)
        #expect(chain.kind == .prefix)
        let sums = analyzer.analyze(TeXParser().parse(String(repeating: "\\sum_i ", count: 2000) + "x").root)
        #expect(sums.kind == .bigOperator)
        let sines = analyzer.analyze(TeXParser().parse(String(repeating: "\\sin ", count: 2000) + "x").root)
        #expect(sines.kind != .unknown && sines.count(.application) > 0)
        let bars = analyzer.analyze(TeXParser().parse(String(repeating: "|", count: 3001)).root)
        #expect(bars.kind != .unknown)
    }

    @Test func errorNodes() {
        let n = analyze("\\foo + 1")
        #expect(n.first(.unknown)?.properties["command"] == "foo")
        #expect(analyze("\\frac").kind == .fraction)
        #expect(analyze("").kind == .empty)
        #expect(SemanticAnalyzer().analyze(MathNode(.error(""))).kind == .unknown)
    }

    @Test func dumpFormat() {
        let d = analyze("x^2").dump()
        #expect(d == """
        power {exponent-kind=squared exponent-value=2}
          identifier "x" role=base {letter}
          number "2" role=exponent {digits=1 integer value=2}

        """)
        #expect(analyze("x").dump(ranges: true) == "identifier \"x\" {letter} @0..<1\n")
    }
}

extension SemanticNode {
    /// The number of nodes in the tree.
    var nodeCount: Int { 1 + children.reduce(0) { $0 + $1.nodeCount } }
}

/// MathML-shaped trees read the same as the TeX trees of the same formula.
@Suite struct MathMLEquivalenceTests {
    static func mi(_ s: String) -> MathNode { MathNode(.identifier(s, variant: nil)) }
    static func mn(_ s: String) -> MathNode { MathNode(.number(s)) }
    static func mo(_ s: String) -> MathNode { MathNode(.operator(s, OperatorDictionary.properties(for: s))) }
    static func row(_ c: [MathNode]) -> MathNode { MathNode(.row, c) }

    static var cases: [(String, MathNode)] { [
        ("f(x)^2", row([mi("f"), MathNode(.superscript, [row([mo("("), mi("x"), mo(")")]), mn("2")])])),
        ("(x+1)^2", MathNode(.superscript, [row([mo("("), row([mi("x"), mo("+"), mn("1")]), mo(")")]), mn("2")])),
        ("2x+1", row([row([mn("2"), mo("\u{2062}"), mi("x")]), mo("+"), mn("1")])),
        ("\\sin(x)", row([mi("sin"), mo("\u{2061}"), row([mo("("), mi("x"), mo(")")])])),
        ("|x|", row([mo("|"), mi("x"), mo("|")])),
        ("\\{1, 2\\}", row([mo("{"), row([mn("1"), mo(","), mn("2")]), mo("}")])),
        ("\\sum_{i=1}^{n} i", row([MathNode(.underOver(UnderOverProperties()), [mo("∑"), row([mi("i"), mo("="), mn("1")]), mi("n")]), mi("i")])),
        ("-x", row([mo("−"), mi("x")])),
    ] }

    @Test(arguments: 0..<cases.count)
    func sameAsTeX(_ i: Int) {
        let (tex, tree) = Self.cases[i]
        let fromTeX = analyze(tex).dump()
        let fromMathML = SemanticAnalyzer().analyze(tree).dump()
        #expect(fromTeX == fromMathML, "\(tex)")
    }
}
