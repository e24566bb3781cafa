import MathMarkup
import MathSyntax
import Testing

/// One reader case: MathML in, tree (ranges stripped) and diagnostic ids out.
struct ReaderCase: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    let expected: MathNode
    var diagnostics: [String] = []
    var testDescription: String { name }
}

private let ns = "http://www.w3.org/1998/Math/MathML"

let readerCases: [ReaderCase] = [
    // Tokens
    ReaderCase(name: "mi", input: "<mi>x</mi>", expected: mi("x")),
    ReaderCase(name: "mi variant", input: "<mi mathvariant='bold'>x</mi>", expected: mi("x", .bold)),
    ReaderCase(name: "single-letter mi normal kept", input: "<mi mathvariant='normal'>d</mi>", expected: mi("d", .normal)),
    ReaderCase(name: "multi-letter mi normal is kept", input: "<mi mathvariant='normal'>sin</mi>", expected: mi("sin", .normal)),
    ReaderCase(name: "multi-letter mi italic kept", input: "<mi mathvariant='italic'>ab</mi>", expected: mi("ab", .italic)),
    ReaderCase(name: "bad mathvariant kept as attribute", input: "<mi mathvariant='wobbly'>x</mi>",
               expected: mi("x", attributes: ["mathvariant": "wobbly"]), diagnostics: ["mathml.invalid-attribute"]),
    ReaderCase(name: "mn", input: "<mn>3.14</mn>", expected: mn("3.14")),
    ReaderCase(name: "token whitespace trimmed and collapsed", input: "<mtext>\n  a \t\n b  </mtext>", expected: mtext("a b")),
    ReaderCase(name: "nbsp is not collapsed", input: "<mtext>&#xA0;a</mtext>", expected: mtext("\u{A0}a")),
    ReaderCase(name: "mtext variant", input: "<mtext mathvariant='bold'>if</mtext>", expected: mtext("if", .bold)),
    ReaderCase(name: "ms quotes", input: "<ms>abc</ms>", expected: mtext("\"abc\"")),
    ReaderCase(name: "ms custom quotes", input: "<ms lquote='«' rquote='»'>abc</ms>", expected: mtext("«abc»")),
    ReaderCase(name: "mo dictionary defaults", input: "<mo>+</mo>", expected: mo("+")),
    ReaderCase(name: "mo stretchy override", input: "<mo stretchy='false'>(</mo>", expected: mo("(") { $0.stretchy = false }),
    ReaderCase(name: "mo flags", input: "<mo largeop='true' movablelimits='true' separator='true' fence='true'>x</mo>",
               expected: mo("x") { $0.largeOperator = true; $0.movableLimits = true; $0.separator = true; $0.fence = true }),
    ReaderCase(name: "mo size", input: "<mo minsize='1.2em' maxsize='1.2em'>(</mo>", expected: mo("(") { $0.size = 1.2 }),
    ReaderCase(name: "mo maxsize only", input: "<mo maxsize='2.4em'>|</mo>", expected: mo("|") { $0.size = 2.4 }),
    ReaderCase(name: "mo form prefix on fence", input: "<mo fence='true' form='prefix' stretchy='false'>|</mo>",
               expected: mo("|") { $0.fence = true; $0.stretchy = false; $0.atomClass = .open }),
    ReaderCase(name: "mo form postfix on fence", input: "<mo fence='true' form='postfix' stretchy='false'>|</mo>",
               expected: mo("|") { $0.fence = true; $0.stretchy = false; $0.atomClass = .close }),
    ReaderCase(name: "mo form on non-fence kept", input: "<mo form='prefix' fence='false'>-</mo>",
               expected: mo("-", attributes: ["form": "prefix"]) { $0.fence = false }),
    ReaderCase(name: "mo data-class", input: "<mo data-class='rel'>:</mo>", expected: mo(":") { $0.atomClass = .rel }),
    ReaderCase(name: "mo MathJax class", input: "<mo data-mjx-texclass='BIN'>x</mo>", expected: mo("x") { $0.atomClass = .bin }),
    ReaderCase(name: "mspace em", input: "<mspace width='0.5em'/>", expected: node(.space(width: 0.5))),
    ReaderCase(name: "mspace mu", input: "<mspace width='9mu'/>", expected: node(.space(width: 0.5))),
    ReaderCase(name: "mspace px", input: "<mspace width='8px'/>", expected: node(.space(width: 0.5))),
    ReaderCase(name: "mspace pt", input: "<mspace width='6pt'/>", expected: node(.space(width: 0.5))),
    ReaderCase(name: "mspace named", input: "<mspace width='thinmathspace'/>", expected: node(.space(width: 3.0 / 18))),
    ReaderCase(name: "mspace negative named", input: "<mspace width='negativethinmathspace'/>", expected: node(.space(width: -3.0 / 18))),
    ReaderCase(name: "mspace ex", input: "<mspace width='1ex'/>", expected: node(.space(width: 0.430555))),
    ReaderCase(name: "mspace no width", input: "<mspace height='1em'/>", expected: node(.space(width: 0), attributes: ["height": "1em"])),
    ReaderCase(name: "mspace percent kept", input: "<mspace width='50%'/>",
               expected: node(.space(width: 0), attributes: ["width": "50%"])),

    // Layout
    ReaderCase(name: "mrow", input: "<mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow>", expected: row(mi("a"), mo("+"), mi("b"))),
    ReaderCase(name: "mrow with one child kept", input: "<mrow><mi>a</mi></mrow>", expected: row(mi("a"))),
    ReaderCase(name: "empty mrow", input: "<mrow/>", expected: row()),
    ReaderCase(name: "whitespace between elements ignored", input: "<mrow>\n  <mi>a</mi>\n  <mi>b</mi>\n</mrow>", expected: row(mi("a"), mi("b"))),
    ReaderCase(name: "mfrac", input: "<mfrac><mn>1</mn><mn>2</mn></mfrac>", expected: node(.fraction(.init()), mn("1"), mn("2"))),
    ReaderCase(name: "mfrac linethickness 0", input: "<mfrac linethickness='0'><mi>n</mi><mi>k</mi></mfrac>",
               expected: node(.fraction(.init(lineThickness: 0)), mi("n"), mi("k"))),
    ReaderCase(name: "mfrac linethickness 0px", input: "<mfrac linethickness='0px'><mi>n</mi><mi>k</mi></mfrac>",
               expected: node(.fraction(.init(lineThickness: 0)), mi("n"), mi("k"))),
    // MathML Core: a negative thickness is 0 (no line), whether a length or a negative named space.
    ReaderCase(name: "mfrac negative linethickness is 0", input: "<mfrac linethickness='-1.23em'><mi>n</mi><mi>k</mi></mfrac>",
               expected: node(.fraction(.init(lineThickness: 0)), mi("n"), mi("k"))),
    ReaderCase(name: "mfrac negative named space linethickness is 0",
               input: "<mfrac linethickness='negativeverythinmathspace'><mi>n</mi><mi>k</mi></mfrac>",
               expected: node(.fraction(.init(lineThickness: 0)), mi("n"), mi("k"))),
    ReaderCase(name: "mfrac bevelled kept", input: "<mfrac bevelled='true'><mn>1</mn><mn>2</mn></mfrac>",
               expected: node(.fraction(.init()), mn("1"), mn("2"), attributes: ["bevelled": "true"])),
    ReaderCase(name: "mfrac numalign", input: "<mfrac numalign='left'><mn>1</mn><mn>2</mn></mfrac>",
               expected: node(.fraction(.init(numeratorAlign: "left")), mn("1"), mn("2"))),
    ReaderCase(name: "mfrac continued", input: "<mfrac data-continued='true'><mn>1</mn><mn>2</mn></mfrac>",
               expected: node(.fraction(.init(continued: true)), mn("1"), mn("2"))),
    ReaderCase(name: "dfrac via mstyle (KaTeX)", input: "<mstyle displaystyle='true' scriptlevel='0'><mfrac><mn>1</mn><mn>2</mn></mfrac></mstyle>",
               expected: node(.style(.init(displayStyle: true, scriptLevel: 0)), node(.fraction(.init()), mn("1"), mn("2")))),
    ReaderCase(name: "dfrac via displaystyle on mfrac", input: "<mfrac displaystyle='true'><mn>1</mn><mn>2</mn></mfrac>",
               expected: node(.fraction(.init(displayStyle: true)), mn("1"), mn("2"))),
    ReaderCase(name: "tfrac via displaystyle on mfrac", input: "<mfrac displaystyle='false'><mn>1</mn><mn>2</mn></mfrac>",
               expected: node(.fraction(.init(displayStyle: false)), mn("1"), mn("2"))),
    ReaderCase(name: "mstyle displaystyle alone is a style", input: "<mstyle displaystyle='true'><mfrac><mn>1</mn><mn>2</mn></mfrac></mstyle>",
               expected: node(.style(.init(displayStyle: true)), node(.fraction(.init()), mn("1"), mn("2")))),
    ReaderCase(name: "mfrac missing child", input: "<mfrac><mn>1</mn></mfrac>",
               expected: node(.fraction(.init()), mn("1"), row()), diagnostics: ["mathml.wrong-child-count"]),
    ReaderCase(name: "mfrac extra child", input: "<mfrac><mn>1</mn><mn>2</mn><mn>3</mn></mfrac>",
               expected: node(.fraction(.init()), mn("1"), row(mn("2"), mn("3"))), diagnostics: ["mathml.wrong-child-count"]),
    ReaderCase(name: "msqrt one child", input: "<msqrt><mi>x</mi></msqrt>", expected: node(.squareRoot, mi("x"))),
    ReaderCase(name: "msqrt inferred row", input: "<msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt>",
               expected: node(.squareRoot, row(mi("x"), mo("+"), mn("1")))),
    ReaderCase(name: "mroot", input: "<mroot><mi>x</mi><mn>3</mn></mroot>", expected: node(.root, mi("x"), mn("3"))),
    ReaderCase(name: "msub", input: "<msub><mi>x</mi><mn>1</mn></msub>", expected: node(.subscript, mi("x"), mn("1"))),
    ReaderCase(name: "msup", input: "<msup><mi>x</mi><mn>2</mn></msup>", expected: node(.superscript, mi("x"), mn("2"))),
    ReaderCase(name: "msubsup", input: "<msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup>",
               expected: node(.subSuperscript, mi("x"), mn("1"), mn("2"))),
    ReaderCase(name: "munder", input: "<munder><mo>lim</mo><mi>n</mi></munder>", expected: node(.under(.init()), mo("lim"), mi("n"))),
    ReaderCase(name: "mover accent", input: "<mover accent='true'><mi>x</mi><mo>^</mo></mover>",
               expected: node(.over(.init(accent: true)), mi("x"), mo("^"))),
    ReaderCase(name: "munder accentunder", input: "<munder accentunder='true'><mi>x</mi><mo>_</mo></munder>",
               expected: node(.under(.init(accentUnder: true)), mi("x"), mo("_"))),
    ReaderCase(name: "munderover", input: "<munderover><mo>∑</mo><mi>i</mi><mi>n</mi></munderover>",
               expected: node(.underOver(.init()), mo("∑"), mi("i"), mi("n"))),
    ReaderCase(name: "mmultiscripts", input: "<mmultiscripts><mi>X</mi><mi>a</mi><none/><mprescripts/><mi>b</mi><mi>c</mi></mmultiscripts>",
               expected: node(.multiscripts(prescriptPairs: 1), mi("X"), mi("a"), node(.none), mi("b"), mi("c"))),
    ReaderCase(name: "mmultiscripts post only", input: "<mmultiscripts><mi>X</mi><mi>a</mi><mi>b</mi></mmultiscripts>",
               expected: node(.multiscripts(prescriptPairs: 0), mi("X"), mi("a"), mi("b"))),
    ReaderCase(name: "mmultiscripts odd scripts padded", input: "<mmultiscripts><mi>X</mi><mi>a</mi></mmultiscripts>",
               expected: node(.multiscripts(prescriptPairs: 0), mi("X"), mi("a"), node(.none)), diagnostics: ["mathml.wrong-child-count"]),

    // Tables
    ReaderCase(name: "mtable", input: "<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>2</mn></mtd></mtr></mtable>",
               expected: node(.table(.init(environment: "mtable")), node(.tableRow(labeled: false), node(.tableCell, mn("1")), node(.tableCell, mn("2"))))),
    ReaderCase(name: "mtable attributes",
               input: "<mtable columnalign='left right' columnlines='solid' rowlines='dashed none' frame='solid' displaystyle='true' data-env='pmatrix' data-numbered='true' columnspacing='1em'><mtr><mtd/></mtr></mtable>",
               expected: node(.table(.init(environment: "pmatrix", columnAlignments: [.left, .right], columnLines: [.solid],
                                           rowLines: [.dashed, .none], frame: .solid, displayStyle: true, numbered: true)),
                              node(.tableRow(labeled: false), node(.tableCell)), attributes: ["columnspacing": "1em"])),
    ReaderCase(name: "mlabeledtr", input: "<mtable><mlabeledtr><mtd><mtext>(1)</mtext></mtd><mtd><mi>x</mi></mtd></mlabeledtr></mtable>",
               expected: node(.table(.init(environment: "mtable")), node(.tableRow(labeled: true), node(.tableCell, mtext("(1)")), node(.tableCell, mi("x"))))),
    ReaderCase(name: "mtd outside mtr", input: "<mtable><mtd><mi>x</mi></mtd></mtable>",
               expected: node(.table(.init(environment: "mtable")), node(.tableRow(labeled: false), node(.tableCell, mi("x")))),
               diagnostics: ["mathml.misplaced-element"]),

    // Enclosures, style, padding
    ReaderCase(name: "menclose", input: "<menclose notation='box  circle'><mi>x</mi></menclose>", expected: node(.enclose(notation: "box circle"), mi("x"))),
    ReaderCase(name: "menclose default", input: "<menclose><mn>3</mn></menclose>", expected: node(.enclose(notation: "longdiv"), mn("3"))),
    ReaderCase(name: "mstyle", input: "<mstyle mathcolor='red' mathbackground='#eee' displaystyle='false' scriptlevel='1' mathsize='1.44em'><mi>x</mi><mi>y</mi></mstyle>",
               expected: node(.style(.init(color: "red", background: "#eee", displayStyle: false, scriptLevel: 1, mathSize: 1.44)), mi("x"), mi("y"))),
    ReaderCase(name: "mstyle deprecated color", input: "<mstyle color='blue' background='yellow'><mi>x</mi></mstyle>",
               expected: node(.style(.init(color: "blue", background: "yellow")), mi("x"))),
    ReaderCase(name: "mstyle percent size", input: "<mstyle mathsize='200%'><mi>x</mi></mstyle>", expected: node(.style(.init(mathSize: 2)), mi("x"))),
    ReaderCase(name: "mstyle relative scriptlevel kept", input: "<mstyle scriptlevel='+1'><mi>x</mi></mstyle>",
               expected: node(.style(.init()), mi("x"), attributes: ["scriptlevel": "+1"])),
    ReaderCase(name: "mphantom", input: "<mphantom><mi>x</mi></mphantom>", expected: node(.phantom, mi("x"))),
    ReaderCase(name: "mpadded", input: "<mpadded width='0' height='0.5em' depth='0em' lspace='-1em' voffset='1em'><mi>x</mi></mpadded>",
               expected: node(.padded(.init(width: 0, height: 0.5, depth: 0, leftShift: -1)), mi("x"), attributes: ["voffset": "1em"])),
    ReaderCase(name: "mpadded lspace in widths", input: "<mpadded width='0' lspace='-1width'><mi>x</mi></mpadded>",
               expected: node(.padded(.init(width: 0, leftShiftWidths: -1)), mi("x"))),
    ReaderCase(name: "mpadded relative kept", input: "<mpadded width='+1em'><mi>x</mi></mpadded>",
               expected: node(.padded(.init()), mi("x"), attributes: ["width": "+1em"])),
    ReaderCase(name: "merror", input: "<merror><mtext>Unknown  \\foo</mtext></merror>", expected: node(.error("Unknown  \\foo"))),

    // Fences
    ReaderCase(name: "fenced convention", input: "<mrow><mo fence='true' stretchy='true'>(</mo><mi>x</mi><mo fence='true' stretchy='true'>)</mo></mrow>",
               expected: node(.fenced(open: "(", close: ")"), mi("x"))),
    ReaderCase(name: "fenced empty delimiter", input: "<mrow><mo fence='true' stretchy='true'></mo><mi>x</mi><mo fence='true' stretchy='true'>|</mo></mrow>",
               expected: node(.fenced(open: "", close: "|"), mi("x"))),
    ReaderCase(name: "fenced KaTeX style", input: "<mrow><mo fence='true'>[</mo><mi>x</mi><mo fence='true'>]</mo></mrow>",
               expected: node(.fenced(open: "[", close: "]"), mi("x"))),
    ReaderCase(name: "fenced MathJax style", input: "<mrow data-mjx-texclass='INNER'><mo data-mjx-texclass='OPEN'>(</mo><mi>x</mi><mo data-mjx-texclass='CLOSE'>)</mo></mrow>",
               expected: node(.fenced(open: "(", close: ")"), mi("x"))),
    ReaderCase(name: "plain parentheses stay a row", input: "<mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow>", expected: row(mo("("), mi("x"), mo(")"))),
    // MathJax 2's `\left\{ … \right.`: an opening fence, marked or not, and an empty `mo` last (a web page's
    // cases and systems); an operator that opens nothing before an empty `mo` stays a row.
    ReaderCase(name: "opener before an empty mo (MathJax 2)",
               input: "<mrow><mo>{</mo><mi>x</mi><mo fence='true' stretchy='true' symmetric='true'></mo></mrow>",
               expected: node(.fenced(open: "{", close: ""), mi("x"))),
    ReaderCase(name: "opener before an empty mo", input: "<mrow><mo>(</mo><mi>x</mi><mo></mo></mrow>",
               expected: node(.fenced(open: "(", close: ""), mi("x"))),
    ReaderCase(name: "no opener before an empty mo stays a row", input: "<mrow><mo>+</mo><mi>x</mi><mo></mo></mrow>",
               expected: row(mo("+"), mi("x"), mo(""))),
    ReaderCase(name: "stretchy false is not a fence group", input: "<mrow><mo fence='true' stretchy='false'>(</mo><mi>x</mi><mo fence='true' stretchy='false'>)</mo></mrow>",
               expected: row(mo("(") { $0.fence = true; $0.stretchy = false }, mi("x"), mo(")") { $0.fence = true; $0.stretchy = false })),
    ReaderCase(name: "mfenced", input: "<mfenced><mi>a</mi><mi>b</mi><mi>c</mi></mfenced>",
               expected: node(.fenced(open: "(", close: ")"), mi("a"), mo(",") { $0.separator = true }, mi("b"), mo(",") { $0.separator = true }, mi("c"))),
    ReaderCase(name: "mfenced attributes", input: "<mfenced open='[' close='}' separators=' ; , '><mi>a</mi><mi>b</mi><mi>c</mi><mi>d</mi></mfenced>",
               expected: node(.fenced(open: "[", close: "}"), mi("a"), mo(";") { $0.separator = true }, mi("b"), mo(",") { $0.separator = true }, mi("c"), mo(",") { $0.separator = true }, mi("d"))),
    ReaderCase(name: "mfenced no separators", input: "<mfenced open='|' close='|' separators=''><mi>a</mi><mi>b</mi></mfenced>",
               expected: node(.fenced(open: "|", close: "|"), mi("a"), mi("b"))),

    // Semantics, actions, unknown
    ReaderCase(name: "semantics", input: "<semantics><mi>x</mi><annotation encoding='application/x-tex'>x</annotation></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "application/x-tex", text: "x")]), mi("x"))),
    ReaderCase(name: "annotation-xml raw", input: "<semantics><mi>x</mi><annotation-xml encoding='MathML-Content'> <ci>x</ci> </annotation-xml></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "MathML-Content", text: "<ci>x</ci>")]), mi("x"))),
    // A `semantics` without its presentation child is read from an annotation of presentation MathML
    // (MathCAT's reading; SRE reads an `annotation-xml` alone too), never from another annotation.
    ReaderCase(name: "semantics read from its presentation annotation",
               input: "<semantics><annotation encoding='application/x-tex'>x_k</annotation><annotation-xml encoding='MathML-Presentation'><msub><mi>x</mi><mi>k</mi></msub></annotation-xml></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "application/x-tex", text: "x_k"),
                                                       Annotation(encoding: "MathML-Presentation", text: "<msub><mi>x</mi><mi>k</mi></msub>")]),
                              node(.subscript, mi("x"), mi("k")))),
    ReaderCase(name: "semantics read from an annotation-xml of no encoding",
               input: "<semantics><annotation-xml><mi>a</mi><mo>+</mo><mi>b</mi></annotation-xml></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "", text: "<mi>a</mi><mo>+</mo><mi>b</mi>")]),
                              row(mi("a"), mo("+"), mi("b")))),
    ReaderCase(name: "semantics with a text annotation alone reads nothing", input: "<semantics><annotation>something</annotation></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "", text: "something")])),
               diagnostics: ["mathml.wrong-child-count"]),
    ReaderCase(name: "semantics with a content annotation alone reads nothing",
               input: "<semantics><annotation-xml encoding='MathML-Content'><ci>x</ci></annotation-xml></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "MathML-Content", text: "<ci>x</ci>")])),
               diagnostics: ["mathml.wrong-child-count"]),
    ReaderCase(name: "presentation annotation after the presentation child stays raw",
               input: "<semantics><mi>y</mi><annotation-xml encoding='MathML-Presentation'><mfoo>x</mfoo></annotation-xml></semantics>",
               expected: node(.semantics(annotations: [Annotation(encoding: "MathML-Presentation", text: "<mfoo>x</mfoo>")]), mi("y"))),
    ReaderCase(name: "maction default first", input: "<maction actiontype='toggle'><mi>a</mi><mi>b</mi></maction>", expected: mi("a")),
    ReaderCase(name: "maction selection", input: "<maction actiontype='toggle' selection='2'><mi>a</mi><mi>b</mi></maction>", expected: mi("b")),
    ReaderCase(name: "unknown element", input: "<mfoo><mi>a</mi><mi>b</mi></mfoo>", expected: row(mi("a"), mi("b")),
               diagnostics: ["mathml.unknown-element"]),
    ReaderCase(name: "none", input: "<none/>", expected: node(.none)),
    ReaderCase(name: "attributes kept", input: "<mi intent='velocity' arg='v' id='m1' class='c'>v</mi>",
               expected: mi("v", attributes: ["intent": "velocity", "arg": "v", "id": "m1", "class": "c"])),
    ReaderCase(name: "links, styles and event handlers need trust", input: "<mi href='#x' style='color:red' onclick='f()' id='m'>v</mi>",
               expected: mi("v", attributes: ["id": "m"]),
               diagnostics: ["mathml.untrusted-attribute", "mathml.untrusted-attribute", "mathml.untrusted-attribute"]),
    ReaderCase(name: "stray text ignored", input: "<mrow>hello<mi>x</mi></mrow>", expected: row(mi("x")),
               diagnostics: ["mathml.unexpected-text"]),
    ReaderCase(name: "stray markup character ignored", input: "<msup><mi>a</mi><mrow>&gt;<mi>n</mi><mn>1</mn></mrow></msup>",
               expected: node(.superscript, mi("a"), row(mi("n"), mn("1"))),
               diagnostics: ["mathml.unexpected-text"]),
    ReaderCase(name: "stray text after the elements ignored", input: "<mrow><mi>x</mi> tail</mrow>", expected: row(mi("x")),
               diagnostics: ["mathml.unexpected-text"]),
    // Text that is all an element holds is read, so that `<math>x</math>` is not silent.
    ReaderCase(name: "text alone in a layout element read", input: "<msqrt>2</msqrt>", expected: node(.squareRoot, mtext("2")),
               diagnostics: ["mathml.unexpected-text"]),
    ReaderCase(name: "text in an unknown element read", input: "<h1>a</h1>", expected: row(mtext("a")),
               diagnostics: ["mathml.unknown-element", "mathml.unexpected-text"]),
    ReaderCase(name: "text of merror kept", input: "<merror>bad input</merror>", expected: node(.error("bad input")),
               diagnostics: []),
    ReaderCase(name: "CDATA in token", input: "<mtext><![CDATA[a<b]]></mtext>", expected: mtext("a<b")),
    ReaderCase(name: "HTML inside mtext absorbed", input: "<mtext>a <b>bold</b> c</mtext>", expected: mtext("a bold c")),
    ReaderCase(name: "comments ignored", input: "<mrow><!-- <mi>no</mi> --><mi>x</mi></mrow>", expected: row(mi("x"))),

    // The math element
    ReaderCase(name: "math with namespace", input: "<math xmlns='\(ns)'><mi>x</mi></math>", expected: mi("x")),
    ReaderCase(name: "math inferred row", input: "<math><mi>x</mi><mo>=</mo><mn>1</mn></math>", expected: row(mi("x"), mo("="), mn("1"))),
    ReaderCase(name: "empty math", input: "<math></math>", expected: row()),
    ReaderCase(name: "prefixed math", input: "<m:math xmlns:m='\(ns)'><m:mi>x</m:mi><m:mn>2</m:mn></m:math>", expected: row(mi("x"), mn("2"))),
    ReaderCase(name: "undeclared prefix", input: "<mml:math><mml:mi>x</mml:mi></mml:math>", expected: mi("x")),
    ReaderCase(name: "bare fragment", input: "<mi>x</mi><mo>+</mo><mn>1</mn>", expected: row(mi("x"), mo("+"), mn("1"))),
    ReaderCase(name: "XML declaration", input: "<?xml version='1.0' encoding='ISO-8859-1'?>\n<math><mi>é</mi></math>", expected: mi("é")),
    ReaderCase(name: "empty input", input: "", expected: row()),
]

@Suite("MathML reader: elements")
struct ReaderElementTests {
    @Test(arguments: readerCases)
    func readsElement(_ c: ReaderCase) {
        let result = read(c.input)
        let tree = result.root.strippingRanges()
        #expect(tree == c.expected, "\(c.name):\n got\n\(tree.treeDump(ranges: false)) expected\n\(c.expected.treeDump(ranges: false))")
        #expect(ids(result) == c.diagnostics, "\(c.name): \(result.diagnostics)")
    }

    @Test func displayAndMathAttributes() {
        let block = read("<math xmlns='\(ns)' display='block' alttext='x'><mi>x</mi></math>")
        #expect(block.display)
        #expect(block.mathAttributes == ["alttext": "x"])
        #expect(!read("<math display='inline'><mi>x</mi></math>").display)
        #expect(read("<math mode='display'><mi>x</mi></math>").display)
        #expect(!read("<mi>x</mi>").display)
    }

    @Test func annotationOutsideSemanticsIsDropped() {
        let result = read("<mrow><mi>x</mi><annotation>x</annotation></mrow>")
        #expect(result.root.strippingRanges() == row(mi("x")))
        #expect(ids(result) == ["mathml.misplaced-element"])
    }

    @Test func mglyphAltInToken() {
        #expect(read("<mi><mglyph src='a.png' alt='A'/></mi>").root.strippingRanges() == mi("A"))
    }

    @Test func realWorldKaTeXOutput() {
        // KaTeX's MathML for \frac{a}{b} + \left( x \right), with its TeX annotation.
        let input = """
        <math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mfrac><mi>a</mi><mi>b</mi></mfrac>\
        <mo>+</mo><mrow><mo fence="true">(</mo><mi>x</mi><mo fence="true">)</mo></mrow></mrow>\
        <annotation encoding="application/x-tex">\\frac{a}{b} + \\left( x \\right)</annotation></semantics></math>
        """
        let result = read(input)
        #expect(result.diagnostics.isEmpty)
        let expected = node(.semantics(annotations: [Annotation(encoding: "application/x-tex", text: "\\frac{a}{b} + \\left( x \\right)")]),
                            row(node(.fraction(.init()), mi("a"), mi("b")), mo("+"), node(.fenced(open: "(", close: ")"), mi("x"))))
        #expect(result.root.strippingRanges() == expected)
    }

    /// A sign written inside `mn` (hyphen-minus, minus, hyphens, figure or en dash) is the minus before the number,
    /// as publishers' tools write negative numbers and exponents; a sign alone is the operator `<mo>` makes (textbook
    /// sweep 17); a sign before no digit stays.
    @Test func signInsideNumberIsAMinus() {
        for sign in ["-", "\u{2212}", "\u{2013}", "\u{2012}", "\u{2011}"] {
            #expect(read("<mn>\(sign)5.2</mn>").root.strippingRanges() == row(mo("\u{2212}"), mn("5.2")), "\(sign)")
        }
        #expect(read("<mn>−</mn>").root.strippingRanges() == mo("−"))
        #expect(read("<mn>-x</mn>").root.strippingRanges() == mn("-x"))
        #expect(read("<mn>5-3</mn>").root.strippingRanges() == mn("5-3"))
    }

    /// A letter written as text under an accent or arrow is the upright letter; a word stays text.
    @Test func letterAsTextUnderAnAccentIsALetter() {
        let vector = read("<mover accent='true'><mtext>E</mtext><mo>→</mo></mover>").root.strippingRanges()
        #expect(vector == node(.over(UnderOverProperties(accent: true, accentUnder: false)), mi("E", .normal), mo("→")))
        let word = read("<mover><mtext>max</mtext><mo>→</mo></mover>").root.strippingRanges()
        #expect(word == node(.over(UnderOverProperties(accent: false, accentUnder: false)), mtext("max"), mo("→")))
    }

    /// An en or figure dash set as an operator is the minus sign, except between two numbers (a range).
    @Test func dashOperatorIsAMinus() {
        #expect(read("<mrow><mi>a</mi><mo>–</mo><mi>b</mi></mrow>").root.strippingRanges() == row(mi("a"), mo("\u{2212}"), mi("b")))
        #expect(read("<msup><mi>x</mi><mo>‒</mo></msup>").root.strippingRanges() == node(.superscript, mi("x"), mo("\u{2212}")))
        #expect(read("<mrow><mn>10</mn><mo>–</mo><mn>20</mn></mrow>").root.strippingRanges() == row(mn("10"), mo("–"), mn("20")))
    }

    /// A sentence's comma, semicolon, colon or question mark typed at the end of a one-word text in a row
    /// is a text of its own; a text with spaces, a mark alone and a text that is a script's stay whole.
    @Test func punctuationAfterAOneWordTextIsItsOwnText() {
        #expect(read("<mrow><mn>4</mn><mtext>N,</mtext></mrow>").root.strippingRanges() == row(mn("4"), mtext("N"), mtext(",")))
        #expect(read("<math><mn>3</mn><mtext>m/s?</mtext></math>").root.strippingRanges() == row(mn("3"), mtext("m/s"), mtext("?")))
        #expect(read("<mrow><mtext>if x,</mtext><mi>y</mi></mrow>").root.strippingRanges() == row(mtext("if x,"), mi("y")))
        // A comma set as text alone is the comma (sweep 10: digit groups, `<mn>131</mn><mtext>,</mtext><mn>072</mn>`).
        #expect(read("<mrow><mtext>,</mtext><mi>y</mi></mrow>").root.strippingRanges() == row(mo(","), mi("y")))
        #expect(read("<msub><mi>x</mi><mtext>a,</mtext></msub>").root.strippingRanges() == node(.subscript, mi("x"), mtext("a,")))
    }
}
