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

    /// etoolbox's booleans and toggles, set in a preamble and tested in formulas; `\ifbool{mmode}` tests
    /// math mode, and a name never defined is false (APEX Calculus's preamble, session 54).
    @Test func etoolboxBooleansAndToggles() {
        let preamble = #"""
            \newtoggle{bsc}\newbool{early}\booltrue{early}\newtoggle{color}\settoggle{color}{true}
            \newcommand{\primeskip}{\ifbool{mmode}{\mkern1.35mu}{\kern.075em}\relax}
            \newcommand{\fp}{\ensuremath{f\primeskip'}}
            \ifbool{latexml}{\newcommand{\dd}{d}}{\newcommand{\dd}{\operatorname{d}\!}}
            """#
        #expect(dump(#"\fp(x)"#, definitions: preamble) == dump(#"\ensuremath{f\mkern1.35mu'}(x)"#, definitions: ""))
        #expect(dump(#"\int x\dd x"#, definitions: preamble) == dump(#"\int x\operatorname{d}\!x"#, definitions: ""))
        #expect(dump(#"\iftoggle{bsc}{a}{b}+\nottoggle{bsc}{c}{d}"#, definitions: preamble) == dump("b+c", definitions: ""))
        #expect(dump(#"\ifbool{early}{a}{b}\notbool{early}{c}{d}\iftoggle{color}{e}{f}"#, definitions: preamble) == dump("ade", definitions: ""))
        // Set in the formula itself, and a test that recurses stops at the expansion limit.
        #expect(dump(#"\newbool{q}\ifbool{q}{a}{b}\booltrue{q}\ifbool{q}{a}{b}"#, definitions: "") == dump("ba", definitions: ""))
        #expect(TeXParser().parse(#"\def\r{\ifbool{mmode}{\r\r}{}}\r"#).diagnostics.map(\.id).contains("tex.expansion-limit"))
        #expect(TeXParser().parse(#"\ifbool"#).diagnostics.map(\.id) == ["tex.missing-argument"])
    }

    /// What books set in formulas besides the math: text boxes, graphicx's transformations, references,
    /// layout that changes nothing, esvect's vectors, booktabs's rules, `\intertext` and `flalign`.
    @Test func boxesReferencesLayoutAndTableProse() {
        #expect(dump(#"a\makebox[2em][l]{and} b\parbox[t]{3cm}{so}"#, definitions: "") == dump(#"a\text{and} b\text{so}"#, definitions: ""))
        #expect(dump(#"\framebox{x}"#, definitions: "") == dump(#"\fbox{x}"#, definitions: ""))
        #expect(dump(#"\rotatebox{20}{\scalebox{2}{$\nearrow$}}\resizebox{1cm}{!}{y}"#, definitions: "")
                == dump(#"\text{$\nearrow$}y"#, definitions: ""))
        let references = TeXParser().parse(#"\text{by \autoref{thm:ftc} and \hyperref[eq:1]{the rule}}"#)
        #expect(references.diagnostics.isEmpty)
        #expect(references.root.treeDump(ranges: false).contains(#"mtext "thm:ftc""#) && references.root.treeDump(ranges: false).contains(#"mtext "the rule""#))
        #expect(dump(#"x=1.\vspace{-\baselineskip}\setlength{\arraycolsep}{0pt}\allowdisplaybreaks\qedhere"#, definitions: "") == dump("x=1.", definitions: ""))
        #expect(dump(#"\vv{PQ}"#, definitions: "") == dump(#"\overrightarrow{PQ}"#, definitions: ""))
        #expect(dump(#"\begin{array}{cc}\toprule a & b\\ \midrule c & d\\ \cmidrule(lr){1-2} e & f \\ \bottomrule\end{array}"#, definitions: "")
                == dump(#"\begin{array}{cc}\hline a & b\\ \hline c & d\\ e & f \\ \hline\end{array}"#, definitions: ""))
        let prose = TeXParser().parse(#"\begin{align*} 2y &= e^x \\ \intertext{now multiply by $e^x$} 2ye^x &= e^{2x} \end{align*}"#)
        #expect(prose.diagnostics.isEmpty, "\(prose.diagnostics)")
        #expect(prose.root.treeDump(ranges: false).contains("text \"now multiply by \""), "\(prose.root.treeDump(ranges: false))")
        // Without `\\` before it, `\intertext` ends the row all the same (amsmath inserts the `\\`).
        #expect(TeXParser().parse(#"\begin{align*} 2y &= e^x \intertext{now multiply} 2ye^x &= e^{2x} \end{align*}"#).root.treeDump(ranges: false)
                == TeXParser().parse(#"\begin{align*} 2y &= e^x \\ \intertext{now multiply} 2ye^x &= e^{2x} \end{align*}"#).root.treeDump(ranges: false))
        #expect(TeXParser().parse(#"\begin{flalign*} x &= 1 & \\ y &= 2 & \end{flalign*}"#).diagnostics.isEmpty)
        #expect(TeXParser().parse(#"\intertext{x}"#).diagnostics.map(\.id) == ["tex.misplaced-hline"])
    }
}
