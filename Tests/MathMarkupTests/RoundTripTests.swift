import MathMarkup
import MathSyntax
import Testing

/// The name of a kind, with an exhaustive switch: adding a case to `MathNode.Kind` fails to
/// compile here until the round-trip corpus covers it.
func kindName(_ kind: MathNode.Kind) -> String {
    switch kind {
    case .row: "row"
    case .identifier: "identifier"
    case .number: "number"
    case .operator: "operator"
    case .text: "text"
    case .space: "space"
    case .fraction: "fraction"
    case .squareRoot: "squareRoot"
    case .root: "root"
    case .subscript: "subscript"
    case .superscript: "superscript"
    case .subSuperscript: "subSuperscript"
    case .under: "under"
    case .over: "over"
    case .underOver: "underOver"
    case .multiscripts: "multiscripts"
    case .none: "none"
    case .fenced: "fenced"
    case .table: "table"
    case .tableRow: "tableRow"
    case .tableCell: "tableCell"
    case .enclose: "enclose"
    case .style: "style"
    case .phantom: "phantom"
    case .padded: "padded"
    case .error: "error"
    case .semantics: "semantics"
    }
}

let allKindNames: Set<String> = [
    "row", "identifier", "number", "operator", "text", "space", "fraction", "squareRoot", "root", "subscript",
    "superscript", "subSuperscript", "under", "over", "underOver", "multiscripts", "none", "fenced", "table",
    "tableRow", "tableCell", "enclose", "style", "phantom", "padded", "error", "semantics",
]

/// Hand-built trees covering every kind and property.
let roundTripTrees: [MathNode] = [
    mi("x"), mi("x", .normal), mi("sin"), mi("ab", .bold), mi("X", .sansSerifBoldItalic),
    mn("3.14"), mn("1,000"),
    mo("+"), mo("("), mo(")"), mo("∑"), mo("|"), mo(","),
    mo("(") { $0.stretchy.toggle() },
    mo("x") { $0.largeOperator.toggle(); $0.movableLimits.toggle(); $0.separator.toggle() },
    mo("(") { $0.size = 1.2 }, mo("]") { $0.size = 3 },
    mo("|") { $0.fence = true; $0.atomClass = .open }, mo("|") { $0.fence = true; $0.atomClass = .close },
    mo(":") { $0.atomClass = .rel }, mo("=") { $0.atomClass = .ord }, mo("∘") { $0.atomClass = .inner },
    mo("<"), mo("&"),
    mtext("if"), mtext("for all x"), mtext("bold", .bold), mtext("a<b&c"),
    node(.space(width: 0)), node(.space(width: 3.0 / 18)), node(.space(width: -3.0 / 18)), node(.space(width: 2)),
    node(.fraction(.init()), mn("1"), mn("2")),
    node(.fraction(.init(lineThickness: 0)), mi("n"), mi("k")),
    node(.fraction(.init(lineThickness: 0.1)), mi("n"), mi("k")),
    node(.fraction(.init(displayStyle: true)), mn("1"), mn("2")),
    node(.fraction(.init(displayStyle: false)), mn("1"), mn("2")),
    node(.fraction(.init(displayStyle: true, continued: true, numeratorAlign: "left")), mn("1"), mn("2")),
    node(.fraction(.init(numeratorAlign: "right")), mn("1"), mn("2")),
    node(.squareRoot, mi("x")), node(.squareRoot, row(mi("x"), mo("+"), mn("1"))), node(.squareRoot, row(mi("x"))),
    node(.squareRoot, row()),
    node(.root, mi("x"), mn("3")),
    node(.subscript, mi("x"), mn("1")), node(.superscript, mi("x"), mn("2")),
    node(.subSuperscript, mo("∫"), mn("0"), mn("1")),
    node(.under(.init()), mo("lim"), row(mi("n"), mo("→"), mi("∞"))),
    node(.over(.init(accent: true)), mi("x"), mo("^")),
    node(.under(.init(accentUnder: true)), mi("x"), mo("_")),
    node(.underOver(.init(accent: true, accentUnder: true)), mo("∑"), mi("i"), mi("n")),
    node(.multiscripts(prescriptPairs: 0), mi("X"), mi("a"), node(.none)),
    node(.multiscripts(prescriptPairs: 1), mi("X"), mi("a"), node(.none), node(.none), mi("c")),
    node(.multiscripts(prescriptPairs: 2), mi("X"), mi("a"), mi("b"), mi("c"), mi("d"), mi("e"), mi("f")),
    node(.none),
    node(.fenced(open: "(", close: ")"), mi("x")),
    node(.fenced(open: "", close: "|"), mi("x"), mo("=")),
    node(.fenced(open: "⟨", close: "⟩"), mi("a"), mo("|") { $0.fence = true; $0.stretchy = true }, mi("b")),
    node(.fenced(open: "[", close: "]")),
    node(.fenced(open: "{", close: "}"), row(mi("a"), mi("b"))),
    node(.table(.init(environment: "mtable")), node(.tableRow(labeled: false), node(.tableCell, mn("1")), node(.tableCell, mn("2")))),
    node(.table(.init(environment: "pmatrix", columnAlignments: [.left, .center, .right], columnLines: [.solid, .dashed],
                      rowLines: [.none, .solid], frame: .dashed, displayStyle: true, numbered: true)),
         node(.tableRow(labeled: true), node(.tableCell, mtext("(1)")), node(.tableCell, mi("x"), mo("="), mn("1")), node(.tableCell)),
         node(.tableRow(labeled: false))),
    node(.enclose(notation: "box")), node(.enclose(notation: "updiagonalstrike downdiagonalstrike"), mi("x"), mi("y")),
    node(.style(.init()), mi("x")),
    node(.style(.init(color: "red", background: "#00ff00", displayStyle: true, scriptLevel: 2, mathSize: 1.44)), mi("x"), mi("y")),
    node(.style(.init(displayStyle: false)), node(.fraction(.init()), mn("1"), mn("2"))),
    node(.phantom, mi("x")), node(.phantom),
    node(.padded(.init()), mi("x")),
    node(.padded(.init(width: 0, height: 0, depth: 0, leftShift: -0.5)), mi("x")),
    node(.padded(.init(height: 1.5)), mi("x"), mi("y")),
    node(.error("\\frac{1}")), node(.error("")), node(.error("a  b <c>")),
    node(.semantics(annotations: [Annotation(encoding: "application/x-tex", text: "x^2 < 1")]), node(.superscript, mi("x"), mn("2"))),
    node(.semantics(annotations: [Annotation(encoding: "MathML-Content", text: "<apply><power/><ci>x</ci><cn>2</cn></apply>"),
                                  Annotation(encoding: "application/mathml+xml", text: "a < b"),
                                  Annotation(encoding: "", text: "plain")]), mi("x")),
    node(.semantics(annotations: [])),
    // Attributes kept from input, on several kinds.
    mi("v", attributes: ["intent": "velocity", "arg": "v", "id": "m1"]),
    row(mi("a"), mi("b"), attributes: ["intent": "product($a,$b)"]),
    node(.fraction(.init(displayStyle: true)), mn("1"), mn("2"), attributes: ["id": "f"]),
    node(.fenced(open: "(", close: ")"), mi("x"), attributes: ["class": "paren"]),
    mo("+", attributes: ["form": "prefix"]) { $0.fence = false },
    // Rows that look like fenced groups must stay rows.
    row(mo("|") { $0.fence = true; $0.stretchy = true }, mi("x"), mo("|") { $0.fence = true; $0.stretchy = true }),
    row(mo("(") { $0.fence = true; $0.stretchy = true }, mo(")") { $0.fence = true; $0.stretchy = true }),
    row(row(mo("/") { $0.fence = true; $0.stretchy = true }, mi("x"), mo("/") { $0.fence = true; $0.stretchy = true }), mi("y")),
    node(.squareRoot, row(mo("/") { $0.fence = true }, mo("/") { $0.fence = true; $0.separator = true })),
    // Nesting.
    row(node(.fenced(open: "(", close: ")"), node(.fraction(.init()), row(mi("a"), mo("+"), mi("b")), mn("2"))), mo("="),
        node(.squareRoot, node(.subSuperscript, mi("x"), mi("i"), mn("2")))),
    row(), row(mi("x")), row(row(), row(mi("y"))),
]

@Suite("MathML round trips")
struct RoundTripTests {
    @Test func corpusCoversEveryKind() {
        var seen: Set<String> = []
        for tree in roundTripTrees { tree.walk { seen.insert(kindName($0.kind)) } }
        #expect(seen == allKindNames, "missing: \(allKindNames.subtracting(seen))")
    }

    @Test(arguments: 0..<roundTripTrees.count)
    func readWriteRead(_ index: Int) {
        let tree = roundTripTrees[index]
        for (pretty, namespace, display) in [(false, true, false), (true, false, true)] {
            var options = MathMLWriter.Options()
            options.pretty = pretty
            options.namespace = namespace
            options.display = display
            let text = MathMLWriter(options: options).write(tree)
            let result = MathMLReader().read(text)
            #expect(result.diagnostics.isEmpty, "\(text)\n\(result.diagnostics)")
            #expect(result.display == display)
            let back = result.root.strippingRanges()
            #expect(back == tree, "\(text)\n got\n\(back.treeDump(ranges: false)) expected\n\(tree.treeDump(ranges: false))")
        }
    }

    @Test func annotationWrapsTheTree() {
        let tree = row(mi("x"), mo("+"), mn("1"))
        var options = MathMLWriter.Options()
        options.includeAnnotation = "x+1"
        let back = MathMLReader().read(MathMLWriter(options: options).write(tree)).root.strippingRanges()
        #expect(back == node(.semantics(annotations: [Annotation(encoding: "application/x-tex", text: "x+1")]), tree))
    }

    @Test func readWriteReadOfForeignMathML() {
        // MathML from elsewhere: reading, writing and reading again is stable.
        let inputs = [
            "<math><mfenced open='[' close=')'><mi>a</mi><mi>b</mi></mfenced></math>",
            "<math><mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow><ms>s</ms><mspace width='thickmathspace'/></math>",
            "<math><mtable><mtd><mi>x</mi></mtd></mtable><maction selection='2'><mi>a</mi><mi>b</mi></maction></math>",
        ]
        for input in inputs {
            let first = MathMLReader().read(input).root.strippingRanges()
            let second = MathMLReader().read(MathMLWriter().write(first)).root.strippingRanges()
            #expect(first == second, "\(input)")
        }
    }
}
