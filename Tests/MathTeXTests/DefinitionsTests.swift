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
