import MathMarkup
import MathSyntax
import Testing

private let head = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"inline\">"

private func write(_ node: MathNode, _ configure: (inout MathMLWriter.Options) -> Void = { _ in }) -> String {
    var options = MathMLWriter.Options()
    configure(&options)
    return MathMLWriter(options: options).write(node)
}

@Suite("MathML writer: output")
struct WriterTests {
    @Test func identifier() {
        #expect(write(mi("x")) == head + "<mi>x</mi></math>")
        #expect(write(mi("x", .doubleStruck)) == head + "<mi mathvariant=\"double-struck\">x</mi></math>")
    }

    @Test func rootRowIsInferred() {
        #expect(write(row(mi("x"), mo("+"), mn("1"))) == head + "<mi>x</mi><mo>+</mo><mn>1</mn></math>")
        #expect(write(row(mi("x"))) == head + "<mrow><mi>x</mi></mrow></math>")
        #expect(write(row()) == head + "</math>")
    }

    @Test func displayWithoutNamespace() {
        let text = write(mi("x")) { $0.display = true; $0.namespace = false }
        #expect(text == "<math display=\"block\"><mi>x</mi></math>")
    }

    @Test func fractionForms() {
        #expect(write(node(.fraction(.init(displayStyle: true)), mn("1"), mn("2")))
            == head + "<mfrac displaystyle=\"true\"><mn>1</mn><mn>2</mn></mfrac></math>")
        #expect(write(node(.fraction(.init(lineThickness: 0, continued: true, numeratorAlign: "left")), mi("n"), mi("k")))
            == head + "<mfrac linethickness=\"0\" numalign=\"left\" data-continued=\"true\"><mi>n</mi><mi>k</mi></mfrac></math>")
    }

    @Test func fencedConvention() {
        #expect(write(node(.fenced(open: "(", close: ""), mi("x")))
            == head + "<mrow><mo fence=\"true\" stretchy=\"true\">(</mo><mi>x</mi><mo fence=\"true\" stretchy=\"true\"></mo></mrow></math>")
    }

    @Test func escaping() {
        #expect(write(MathNode(.text("a<b & \"c\"", variant: nil), attributes: ["id": "x\"y<"]))
            == head + "<mtext id=\"x&quot;y&lt;\">a&lt;b &amp; \"c\"</mtext></math>")
        #expect(write(mi("\u{0}")) == head + "<mi>\u{FFFD}</mi></math>")
    }

    @Test func textSpacesAreProtected() {
        #expect(write(mtext(" if  x ")) == head + "<mtext>&#xA0;if&#xA0;&#xA0;x&#xA0;</mtext></math>")
        #expect(write(mtext("for all")) == head + "<mtext>for all</mtext></math>")
    }

    @Test func table() {
        let table = node(.table(.init(environment: "pmatrix", columnAlignments: [.left, .center], rowLines: [.solid], numbered: true)),
                         node(.tableRow(labeled: false), node(.tableCell, mn("1")), node(.tableCell)))
        #expect(write(table) == head + "<mtable columnalign=\"left center\" rowlines=\"solid\" data-env=\"pmatrix\" data-numbered=\"true\">"
            + "<mtr><mtd><mn>1</mn></mtd><mtd/></mtr></mtable></math>")
    }

    @Test func spacesAndPadding() {
        #expect(write(node(.space(width: 0.5))) == head + "<mspace width=\"0.5em\"/></math>")
        #expect(write(node(.space(width: -3.0 / 18))) == head + "<mspace width=\"-0.16666666666666666em\"/></math>")
        #expect(write(node(.padded(.init(width: 0, leftShift: -1)), mi("x")))
            == head + "<mpadded width=\"0em\" lspace=\"-1em\"><mi>x</mi></mpadded></math>")
        #expect(write(node(.padded(.init(width: 0, leftShiftWidths: -0.5)), mi("x")))
            == head + "<mpadded width=\"0em\" lspace=\"-0.5width\"><mi>x</mi></mpadded></math>")
    }

    @Test func styleAndEnclose() {
        let style = node(.style(.init(color: "red", background: "#fff", displayStyle: false, scriptLevel: 1, mathSize: 1.2)), mi("x"))
        #expect(write(style) == head + "<mstyle mathcolor=\"red\" mathbackground=\"#fff\" displaystyle=\"false\" scriptlevel=\"1\" mathsize=\"1.2em\"><mi>x</mi></mstyle></math>")
        #expect(write(node(.enclose(notation: "box"), mi("x"))) == head + "<menclose notation=\"box\"><mi>x</mi></menclose></math>")
    }

    @Test func errorAndSqrt() {
        #expect(write(node(.error("\\foo"))) == head + "<merror><mtext>\\foo</mtext></merror></math>")
        #expect(write(node(.squareRoot, row(mi("x"), mo("+"), mn("1")))) == head + "<msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt></math>")
    }

    @Test func multiscripts() {
        let tree = node(.multiscripts(prescriptPairs: 1), mi("X"), mi("a"), node(.none), mi("b"), mi("c"))
        #expect(write(tree) == head + "<mmultiscripts><mi>X</mi><mi>a</mi><none/><mprescripts/><mi>b</mi><mi>c</mi></mmultiscripts></math>")
    }

    @Test func operatorAttributesOnlyWhenDifferent() {
        #expect(write(mo("+")) == head + "<mo>+</mo></math>")
        let defaults = OperatorDictionary.properties(for: "(")
        let changed = mo("(") { $0.stretchy.toggle(); $0.size = 1.2 }
        #expect(write(changed) == head + "<mo stretchy=\"\(!defaults.stretchy)\" minsize=\"1.2em\" maxsize=\"1.2em\">(</mo></math>")
        let relation = mo("x") { $0.atomClass = OperatorDictionary.properties(for: "x").atomClass == .rel ? .bin : .rel }
        #expect(write(relation).contains("data-class="))
    }

    @Test func annotationOption() {
        #expect(write(mi("x")) { $0.includeAnnotation = "x" }
            == head + "<semantics><mi>x</mi><annotation encoding=\"application/x-tex\">x</annotation></semantics></math>")
        #expect(write(row(mi("a"), mi("b"))) { $0.includeAnnotation = "a<b" }
            == head + "<semantics><mrow><mi>a</mi><mi>b</mi></mrow><annotation encoding=\"application/x-tex\">a&lt;b</annotation></semantics></math>")
        let xml = node(.semantics(annotations: [Annotation(encoding: "MathML-Content", text: "<ci>x</ci>")]), mi("x"))
        #expect(write(xml) == head + "<semantics><mi>x</mi><annotation-xml encoding=\"MathML-Content\"><ci>x</ci></annotation-xml></semantics></math>")
    }

    @Test func pretty() {
        let text = write(row(node(.fraction(.init()), mn("1"), mn("2")), mo("+"), mi("x"))) { $0.pretty = true }
        #expect(text == """
        \(head)
          <mfrac>
            <mn>1</mn>
            <mn>2</mn>
          </mfrac>
          <mo>+</mo>
          <mi>x</mi>
        </math>
        """)
    }

    @Test func attributesAreWrittenBack() {
        let tree = mi("v", attributes: ["intent": "velocity", "arg": "v"])
        #expect(write(tree) == head + "<mi arg=\"v\" intent=\"velocity\">v</mi></math>")
    }
}

@Suite("MathML writer: fenced-group disambiguation")
struct WriterFenceTests {
    @Test func rowThatLooksFencedGetsASeparatorAttribute() {
        // "/" is not a fence by default, so fence="true" must be written; the row must not read
        // back as a fenced group.
        let slash = mo("/") { $0.fence = true; $0.stretchy = true }
        let tree = row(row(slash, mi("x"), slash), mi("y"))
        let text = MathMLWriter().write(tree)
        #expect(text.contains("<mrow><mo fence=\"true\" stretchy=\"true\" separator=\"false\">/</mo>"), "\(text)")
        #expect(MathMLReader().read(text).root.strippingRanges() == tree)
    }

    @Test func concurrentReadsAndWrites() async {
        let input = "<math><mrow><mfrac><mi>a</mi><mn>2</mn></mfrac><mo>&plus;</mo><msqrt><mi>x</mi></msqrt></mrow></math>"
        let expected = MathMLReader().read(input).root
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var ok = true
                    for _ in 0..<50 {
                        let result = MathMLReader().read(input)
                        ok = ok && result.root == expected
                        ok = ok && MathMLReader().read(MathMLWriter().write(result.root)).root.strippingRanges() == expected.strippingRanges()
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
