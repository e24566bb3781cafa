import MathSyntax
import MathTeX
import Testing

@Suite("TeX definitions in the parser options")
struct DefinitionsTests {
    func dump(_ tex: String, definitions: String) -> String {
        var options = TeXParserOptions()
        options.definitions = definitions
        return TeXParser(options: options).parse(tex).root.treeDump(ranges: false)
    }

    @Test func preambleMacrosApplyToEveryFormula() {
        let preamble = #"\newcommand{\R}{\mathbb{R}} \DeclareMathOperator{\tr}{tr} \def\pair#1#2{(#1,#2)} \newcommand{\opt}[1][k]{#1^2}"#
        #expect(dump(#"x\in\R"#, definitions: preamble) == dump(#"x\in\mathbb{R}"#, definitions: ""))
        #expect(dump(#"\tr A"#, definitions: preamble) == dump(#"\operatorname{tr} A"#, definitions: ""))
        #expect(dump(#"\pair ab"#, definitions: preamble) == dump("(a,b)", definitions: ""))
        #expect(dump(#"\opt"#, definitions: preamble) == dump("k^2", definitions: ""))
        #expect(dump(#"\opt[z]"#, definitions: preamble) == dump("z^2", definitions: ""))
    }

    /// mathtools' paired delimiters and xparse's document commands, as textbooks' preambles define `\abs`, `\norm` and `\Q`
    /// (textbook sweep 16, an open linear algebra book: 110 of its formulas used them).
    @Test func pairedDelimitersAndDocumentCommands() {
        let preamble = #"""
            \DeclarePairedDelimiter\abs{\lvert}{\rvert} \DeclarePairedDelimiter{\norm}{\lVert}{\rVert}
            \DeclarePairedDelimiterX\inner[2]{\langle}{\rangle}{#1 \delimsize\vert #2}
            \NewDocumentCommand{\Q}{}{\mathbb{Q}} \DeclareDocumentCommand\pw{O{2} m}{#2^{#1}} \NewDocumentCommand\pair{m m}{(#1,#2)}
            """#
        #expect(dump(#"\abs{x}"#, definitions: preamble) == dump(#"\mathopen{\lvert}x\mathclose{\rvert}"#, definitions: ""))
        #expect(dump(#"\abs[\big]{x}"#, definitions: preamble) == dump(#"\mathopen{\big\lvert}x\mathclose{\big\rvert}"#, definitions: ""))
        #expect(dump(#"\abs*{\frac12}"#, definitions: preamble) == dump(#"\left\lvert\frac12\right\rvert"#, definitions: ""))
        #expect(dump(#"\norm{v}"#, definitions: preamble) == dump(#"\mathopen{\lVert}v\mathclose{\rVert}"#, definitions: ""))
        #expect(dump(#"\inner{u}{v}"#, definitions: preamble) == dump(#"\mathopen{\langle}u\vert v\mathclose{\rangle}"#, definitions: ""))
        #expect(dump(#"\inner*{u}{v}"#, definitions: preamble) == dump(#"\left\langle u\middle\vert v\right\rangle"#, definitions: ""))
        #expect(dump(#"\Q"#, definitions: preamble) == dump(#"\mathbb{Q}"#, definitions: ""))
        #expect(dump(#"\pw{x}+\pw[3]{y}"#, definitions: preamble) == dump("x^{2}+y^{3}", definitions: ""))
        #expect(dump(#"\pair ab"#, definitions: preamble) == dump("(a,b)", definitions: ""))
        // An argument type the reader does not take is reported, the command left undefined.
        var options = TeXParserOptions()
        options.definitions = #"\NewDocumentCommand\st{s m}{#2}"#
        #expect(TeXParser(options: options).definitionDiagnostics.map(\.id) == ["tex.bad-definition"])
    }

    /// The systeme package's systems, and primitives that make nothing in a formula.
    @Test func systemsAndPrimitivesOfNothing() {
        #expect(dump(#"\systeme{x+y=1, 2x-y=3}"#, definitions: "") == dump(#"\left\{\begin{array}{l}x+y=1\\2x-y=3\end{array}\right."#, definitions: ""))
        #expect(dump(#"\systeme[xy]{x=1,y=2 @\text{free}}"#, definitions: "")
                == dump(#"\left\{\begin{array}{l}x=1\\y=2 \quad\text{free}\end{array}\right."#, definitions: ""))
        #expect(dump(#"\sysdelim..\systeme*{x=1,y=2}"#, definitions: "") == dump(#"\begin{array}{l}x=1\\y=2\end{array}"#, definitions: ""))
        #expect(dump(#"\sysdelim[.\systeme{x=1,y=2}"#, definitions: "") == dump(#"\left[\begin{array}{l}x=1\\y=2\end{array}\right."#, definitions: ""))
        #expect(TeXParser().parse(#"\systeme"#).diagnostics.map(\.id) == ["tex.missing-argument"])
        #expect(dump(#"a\nonscript\:b\protect\alpha"#, definitions: "") == dump(#"a\:b\alpha"#, definitions: ""))
        #expect(dump(#"\text{hy\-phen}"#, definitions: "") == dump(#"\text{hyphen}"#, definitions: ""))
        #expect(dump(#"\mathbb{N}\index[symbols]{$\mathbb{N}$} = 1"#, definitions: "") == dump(#"\mathbb{N} = 1"#, definitions: ""))
        // nicematrix's matrices and arrays are the matrices and arrays, their options left; colortbl's colours are nothing.
        #expect(dump(#"\begin{bNiceMatrix}[first-row] 1 & 2 \\ 3 & 4\end{bNiceMatrix}"#, definitions: "")
                == dump(#"\begin{bmatrix} 1 & 2 \\ 3 & 4\end{bmatrix}"#, definitions: "").replacingOccurrences(of: "bmatrix", with: "bNiceMatrix"))
        #expect(TeXParser().parse(#"\begin{pNiceArray}{CC|C}[margin]\cellcolor{red} 1 & \Cdots & 3\end{pNiceArray}"#).diagnostics.isEmpty)
        // breqn's display is one equation.
        #expect(TeXParser().parse(#"\begin{dmath*} a = b + c \end{dmath*}"#).diagnostics.isEmpty)
    }

    @Test func definitionsMayUseEachOtherAndUnknownNames() {
        let preamble = #"\newcommand{\foo}{\bar y}\newcommand{\baz}{\foo+\qqq}"#
        var options = TeXParserOptions()
        options.definitions = preamble
        let result = TeXParser(options: options).parse(#"\baz"#)
        #expect(result.root.treeDump(ranges: false) == TeXParser().parse(#"\bar y+\qqq"#).root.treeDump(ranges: false))
        #expect(result.diagnostics.map(\.id) == ["tex.unknown-command"])
    }

    @Test func badDefinitionsAreReportedOnce() {
        var options = TeXParserOptions()
        options.definitions = #"\newcommand{\x}"#
        let parser = TeXParser(options: options)
        #expect(parser.definitionDiagnostics.map(\.id) == ["tex.bad-definition"])
        #expect(parser.parse("x").diagnostics.isEmpty)
    }

    @Test func recursiveDefinitionsStopAtTheLimit() {
        var options = TeXParserOptions()
        options.definitions = #"\def\a{\a\a}\a"#
        let parser = TeXParser(options: options)
        #expect(parser.definitionDiagnostics.map(\.id) == ["tex.expansion-limit"])
    }
}
