import MathSyntax
import Testing
@testable import MathTeX

/// The shared tables of the parser, the plain-data tokens and the parse's stacks.
@Suite struct ParserTablesTests {
    @Test func everyKnownNameIsFoundFromItsBytes() {
        let tables = ParserTables.shared
        for (index, entry) in tables.controlSequences.enumerated() {
            #expect(tables.entry(entry.name) == Int32(index), "\\\(entry.name)")
        }
        #expect(tables.entry("notACommandAnywhere") == -1)
        #expect(tables.entry("") == -1)
    }

    @Test func rolesAndMeaningsComeFromOneTable() throws {
        let tables = ParserTables.shared
        let over = try #require(tables.controlSequences.first { $0.name == "over" })
        #expect(over.role == .infix)
        guard case .command = try #require(tables.controlSequences.first { $0.name == "frac" }).meaning else {
            Issue.record("\\frac is a registry command")
            return
        }
        guard case .symbol(let alpha) = try #require(tables.controlSequences.first { $0.name == "alpha" }).meaning else {
            Issue.record("\\alpha is a symbol")
            return
        }
        #expect(alpha.text == "α" && alpha.operatorProperties == nil)
    }

    /// The commands the parser and the expander handle themselves are the names of the token roles,
    /// except `\)` (only the end of `\(…\)` in text), plus `\verb` (read by the lexer).
    @Test func structuralCommandsAreTheRoleNames() {
        for (role, names) in ControlSequenceRole.names where role != .closeParen {
            for name in names { #expect(TeXParser.isKnownCommand(name), "\\\(name)") }
        }
        #expect(TeXParser.isKnownCommand("verb"))
        #expect(!TeXParser.isKnownCommand(")"))
        #expect(!TeXParser.knownCommands.contains(")"))
    }

    /// The known names come from the parser tables: the registry's, the symbol table's, the built-in
    /// macros' (one list, BuiltinMacros.definitions) and the structural commands, as they did when
    /// each was collected on its own.
    @Test func knownCommandsAreTheTablesNames() {
        let structural = ControlSequenceRole.names.flatMap { $0.0 == .closeParen ? [] : $0.1 } + ["verb"]
        let expected = Set(CommandRegistry.table.keys).union(SymbolTable.allMathNames).union(BuiltinMacros.table.keys)
            .union(structural).sorted()
        #expect(TeXParser.knownCommands == expected)
        for name in expected { #expect(TeXParser.isKnownCommand(name), "\\\(name)") }
        #expect(Set(BuiltinMacros.definitions.map(\.name)) == Set(BuiltinMacros.table.keys))
        for (name, _) in BuiltinMacros.definitions {
            let entry = ParserTables.shared.controlSequences[Int(ParserTables.shared.entry(name))]
            #expect(entry.role != .other, "\\\(name)")
            if case .none = entry.meaning {} else { Issue.record("\\\(name) has a registry or symbol meaning") }
        }
    }

    /// The parser makes a symbol's operator node with the one symbol → operator mapping,
    /// `TeXSymbol.operatorProperties`.
    @Test func symbolLeavesUseTheSymbolTableMapping() {
        let parser = TeXParser()
        for entry in ParserTables.shared.controlSequences where entry.role == .other {
            guard case .symbol = entry.meaning, let symbol = SymbolTable.math(entry.name),
                  let properties = symbol.operatorProperties else { continue }
            let name = entry.name
            let root = parser.parse("\\" + name).root
            guard case .operator(let text, let made)? = root.children.first?.kind else {
                Issue.record("\\\(name) makes no operator")
                continue
            }
            #expect(text == symbol.text && made == properties, "\\\(name)")
        }
    }

    @Test func unknownNamesInOptionMacrosKeepTheirText() throws {
        let parser = TeXParser(options: TeXParserOptions(macros: ["\\foo": "\\zzqq + \\verb|a b| + \\qqzz"]))
        let result = parser.parse(#"\foo"#)
        let messages = result.diagnostics.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.first?.hasPrefix("unknown command \\zzqq") == true)
        #expect(messages.last?.hasPrefix("unknown command \\qqzz") == true)
        let children = result.root.children
        #expect(children.count == 5)
        #expect(children.first?.kind == .error("\\zzqq"))
        #expect(children.dropFirst(2).first?.kind == .text("a b", variant: .monospace))
        #expect(children.last?.kind == .error("\\qqzz"))
    }

    @Test func definitionsInTheFormulaKeepUnknownNames() {
        let result = TeXParser().parse(#"\def\mya{\zzqq}\mya \let\myb\mya \myb"#)
        #expect(result.diagnostics.count == 2)
        #expect(result.diagnostics.allSatisfy { $0.message.hasPrefix("unknown command \\zzqq") })
    }

    @Test func longFormulasOutgrowTheLentStacks() {
        let items = (0..<300).map { _ in "x" }.joined(separator: " ")
        #expect(TeXParser().parse(items).root.children.count == 300)
        let nested = String(repeating: "{a ", count: 150) + items + String(repeating: "}", count: 150)
        #expect(TeXParser().parse(nested).diagnostics.isEmpty)
        // A macro whose expansion holds many tokens back at once.
        let body = (0..<100).map { "y_{\($0 % 10)}" }.joined()
        let parser = TeXParser(options: TeXParserOptions(macros: ["\\many": body]))
        let root = parser.parse(#"\many\many"#).root
        #expect(root.children.count == 200)
        #expect(root.children.allSatisfy { $0.kind == .subscript })
    }

    @Test func numbersReadStraightFromTheInput() {
        let digits = String(repeating: "1234567890", count: 5)
        #expect(TeXParser().parse(digits).root.children.first?.kind == .number(digits))
        #expect(TeXParser().parse("1 234{,}567.89").root.children.first?.kind == .number("1234,567.89"))
        let parser = TeXParser(options: TeXParserOptions(macros: ["\\two": "2"]))
        #expect(parser.parse(#"1\two 3"#).root.children.first?.kind == .number("123"))
        // (A word in \mathrm is kept as its group: a row of one identifier.)
        #expect(TeXParser().parse(#"\mathrm{k g}\,\mathrm{m%"# + "\n" + "s}").root.children.map(\.groupContent.leafText)
                == ["kg", nil, "ms"])
    }

    /// An argument or a script without braces is one token, even where upright letters merge into a word:
    /// `\mathrm d u` is an upright d then an italic u, `{\rm x_ab}` is x_a then b.
    @Test func anUnbracedArgumentIsOneToken() {
        #expect(TeXParser().parse(#"\mathrm d u"#).root.children.map(\.kind)
                == [.identifier("d", variant: .normal), .identifier("u", variant: nil)])
        let rm = TeXParser().parse(#"{\rm x_ab}"#).root.children.first?.groupContent
        #expect(rm?.children.count == 2)
        #expect(rm?.children.last?.kind == .identifier("b", variant: .normal))
        #expect(TeXParser().parse(#"\mathrm{du}"#).root.children.first?.groupContent.leafText == "du")
    }

    /// `\mathit` (and the old `\it`) sets a multi-letter name in text italic: one identifier, as `\mathrm`
    /// makes one upright word (`\mathit{speed}`, `v_{\mathit{max}}`); math italic (`\mathnormal`, plain
    /// letters) stays a product of letters, and one letter is that letter.
    @Test func mathitSetsOneName() {
        #expect(TeXParser().parse(#"\mathit{speed}"#).root.children.first?.groupContent.kind == .identifier("speed", variant: .italic))
        #expect(TeXParser().parse(#"{\it max}"#).root.children.first?.groupContent.leafText == "max")
        #expect(TeXParser().parse(#"\mathnormal{ab}"#).root.children.first?.groupContent.children.count == 2)
        #expect(TeXParser().parse(#"\mathit{x}"#).root.children.first?.kind == .identifier("x", variant: .italic))
    }
}
