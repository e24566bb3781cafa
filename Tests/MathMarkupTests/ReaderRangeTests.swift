import MathMarkup
import MathSyntax
import Testing

@Suite("MathML reader: source ranges")
struct ReaderRangeTests {
    @Test func elementRangesSpanStartToEndTag() {
        let input = "<math>\n  <mrow><mi>x</mi><mo>+</mo><mn>12</mn></mrow>\n</math>"
        let result = read(input)
        let root = result.root
        #expect(root.range == SourceRange(offset(of: "<mrow>", in: input)!, offset(of: "</mrow>", in: input)! + 7))
        let x = root.children[0]
        #expect(x.range == SourceRange(offset(of: "<mi>", in: input)!, offset(of: "</mi>", in: input)! + 5))
        let twelve = root.children[2]
        #expect(twelve.range?.lowerBound == offset(of: "<mn>", in: input))
    }

    @Test func rangesAfterEntitiesAndMultibyteText() {
        // Entities and non-ASCII text before an element must not shift its range.
        let input = "<mrow><mi>&alpha;&InvisibleTimes;é</mi><mo>&sum;</mo><mi mathvariant='bold'>𝑥</mi></mrow>"
        let result = read(input)
        let items = result.root.children
        #expect(items.count == 3)
        #expect(items[1].range == SourceRange(offset(of: "<mo>", in: input)!, offset(of: "</mo>", in: input)! + 5))
        #expect(items[2].range?.lowerBound == offset(of: "<mi mathvariant", in: input))
        #expect(items[2].range?.upperBound == input.utf8.count - 7)
    }

    @Test func emptyElementRange() {
        let input = "<mrow><mspace width='1em'/><none/></mrow>"
        let items = read(input).root.children
        #expect(items[0].range == SourceRange(6, 27))
        #expect(items[1].range == SourceRange(27, 34))
    }

    @Test func nestedRangesAndAttributesWithAngleBrackets() {
        let input = "<mfrac><mi title='a>b'>a</mi><msqrt><mn>2</mn></msqrt></mfrac>"
        let root = read(input).root
        #expect(root.range == SourceRange(0, input.utf8.count))
        #expect(root.children[0].range == SourceRange(7, offset(of: "<msqrt>", in: input)!))
        #expect(root.children[1].range?.lowerBound == offset(of: "<msqrt>", in: input))
        #expect(root.children[1].children[0].range?.lowerBound == offset(of: "<mn>", in: input))
    }

    @Test func everyNodeFromAnElementHasARange() {
        let input = """
        <math display="block"><mrow><msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mfrac><mi>x</mi><mn>2</mn></mfrac>\
        <mtable><mtr><mtd><mi>a</mi></mtd></mtr></mtable><mstyle mathcolor="red"><mi>c</mi></mstyle></mrow></math>
        """
        let root = read(input).root
        root.walk { #expect($0.range != nil, "\($0.kindDescription)") }
    }

    @Test func diagnosticRangesPointAtTheElement() {
        let input = "<mrow><mi>x</mi><mfoo><mi>y</mi></mfoo></mrow>"
        let result = read(input)
        #expect(result.diagnostics.first?.id == "mathml.unknown-element")
        #expect(result.diagnostics.first?.range == SourceRange(offset(of: "<mfoo>", in: input)!, offset(of: "<mfoo>", in: input)! + 6))
    }

    @Test func strayTextRange() {
        let input = "<mrow>  hello <mi>x</mi></mrow>"
        let result = read(input)
        #expect(result.diagnostics.first?.id == "mathml.unexpected-text")
        #expect(result.diagnostics.first?.range == SourceRange(8, 13))
    }

    @Test func prefixedAndDoctypeInputs() {
        let input = "<?xml version='1.0'?>\n<m:math xmlns:m='http://www.w3.org/1998/Math/MathML'><m:mi>x</m:mi></m:math>"
        let root = read(input).root
        #expect(root.range?.lowerBound == offset(of: "<m:mi>", in: input))
    }
}
