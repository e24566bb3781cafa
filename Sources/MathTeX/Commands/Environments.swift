import MathSyntax

/// One environment: its names and how its table is shaped (DESIGN.md §3: one definition per environment).
struct EnvironmentDefinition: Sendable {
    let names: [String]
    /// Builds the node; `parseTable` reads the body up to `\end{name}`.
    let build: @Sendable (inout ParserCore, EnvironmentCall) -> MathNode
}

/// A use of an environment: its name and the `\begin` token range.
struct EnvironmentCall: Sendable {
    let name: String
    let begin: Token
    var range: SourceRange
}

/// The environments: matrices, `array`, `cases`, the AMS alignments and display environments.
enum EnvironmentRegistry {
    private static let matrixDelimiters: [(String, String, String)] = [
        ("matrix", "", ""), ("pmatrix", "(", ")"), ("bmatrix", "[", "]"), ("Bmatrix", "{", "}"),
        ("vmatrix", "|", "|"), ("Vmatrix", "‖", "‖"),
    ]

    private static let niceDelimiters: [(String, String, String)] = [
        ("", "", ""), ("p", "(", ")"), ("b", "[", "]"), ("B", "{", "}"), ("v", "|", "|"), ("V", "‖", "‖"),
    ]

    static let definitions: [EnvironmentDefinition] = matrixDelimiters.flatMap { entry -> [EnvironmentDefinition] in
        let (name, open, close) = entry
        return [
            EnvironmentDefinition(names: [name]) { core, call in
                core.matrix(call, open: open, close: close, alignment: .center)
            },
            EnvironmentDefinition(names: [name + "*"]) { core, call in
                var alignment = ColumnAlignment.center
                if let raw = core.expander.readOptionalArgument() {
                    switch core.sourceText(raw).trimmingCharacters() {
                    case "l": alignment = .left
                    case "r": alignment = .right
                    case "c": alignment = .center
                    default: core.error("tex.bad-argument", "\\begin{\(name)*} alignment must be l, c or r", at: call.range)
                    }
                }
                return core.matrix(call, open: open, close: close, alignment: alignment)
            },
        ]
    } + niceDelimiters.flatMap { entry -> [EnvironmentDefinition] in
        // nicematrix's matrices and arrays (`\begin{bNiceMatrix}[first-row]…`, `\begin{bNiceArray}{ccc|cc}[margin]…`, as linear algebra
        // books set augmented matrices, textbook sweep 16): the matrix or the array with its delimiters. The options in brackets
        // change only how the package draws it (colours, dotted lines, margins) and are read and left.
        let (prefix, open, close) = entry
        return [
            EnvironmentDefinition(names: [prefix + "NiceMatrix"]) { core, call in
                _ = core.expander.readOptionalArgument()
                return core.matrix(call, open: open, close: close, alignment: .center)
            },
            EnvironmentDefinition(names: [prefix + "NiceArray"]) { core, call in
                ParserCore.delimited(core.arrayTable(call, optionsAfterSpec: true), open: open, close: close)
            },
        ]
    } + [
        EnvironmentDefinition(names: ["smallmatrix"]) { core, call in
            let table = core.parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [.center]))
            return MathNode(.style(StyleProperties(scriptLevel: 1)), [table], range: table.range)
        },
        EnvironmentDefinition(names: ["array", "darray", "subarray"]) { core, call in
            core.arrayTable(call, displayStyle: call.name == "darray")
        },
        EnvironmentDefinition(names: ["cases", "dcases", "rcases", "drcases"]) { core, call in
            let display = call.name.hasPrefix("d")
            let table = core.parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [.left, .left],
                                                                         displayStyle: display))
            let right = call.name.hasSuffix("rcases")
            return MathNode(.fenced(open: right ? "" : "{", close: right ? "}" : ""), [table], range: table.range)
        },
        // `flalign` is `align` spread to the line's full width: the same rows, columns and numbers.
        EnvironmentDefinition(names: ["aligned", "split", "align", "align*", "eqnarray", "eqnarray*", "flalign", "flalign*"]) { core, call in
            core.parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [.right, .left],
                                                              displayStyle: true, numbered: !call.name.hasSuffix("*") && call.name != "aligned" && call.name != "split"))
        },
        EnvironmentDefinition(names: ["alignedat", "alignat", "alignat*"]) { core, call in
            // The column-pair count argument is required; it does not change the layout here.
            let t = core.nextNonSpace()
            if t.kind == .beginGroup { core.skipToGroupEnd() } else {
                core.pushBack(t)
                core.error("tex.missing-argument", "\\begin{\(call.name)} needs the number of column pairs, e.g. {2}", at: call.range)
            }
            return core.parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [.right, .left],
                                                                     displayStyle: true, numbered: call.name == "alignat"))
        },
        // breqn's `dmath` is an equation its package breaks into lines where they are too long (a linear algebra book's, textbook
        // sweep 16): one equation, as `equation` is.
        EnvironmentDefinition(names: ["gathered", "gather", "gather*", "equation", "equation*", "multline", "multline*", "dmath", "dmath*"]) { core, call in
            core.parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [.center], displayStyle: true,
                                                              numbered: ["gather", "equation", "multline", "dmath"].contains(call.name)))
        },
        EnvironmentDefinition(names: ["CD"]) { core, call in
            // amscd's commutative diagram: its arrows (`@>>>`, `@VVV`, `@AaA`…) are not read; the body is
            // kept as a centred table of its characters, and the warning (over the environment) says so.
            let table = core.parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [.center],
                                                                          displayStyle: true))
            core.warning("tex.unsupported-environment",
                         "\\begin{CD} (a commutative diagram) is not supported: its arrows are read and drawn as the characters '@', '>', 'V'…",
                         at: table.range ?? call.range)
            return table
        },
    ]

    static let table: [String: EnvironmentDefinition] = {
        var table: [String: EnvironmentDefinition] = [:]
        for d in definitions { for n in d.names { table[n] = d } }
        return table
    }()
}

/// `\begin{…}` and the table commands outside it.
enum EnvironmentCommands {
    static let all: [CommandDefinition] = [
        CommandDefinition(["begin"]) { core, call in
            let name = core.readEnvironmentName(after: call.token)
            var envCall = EnvironmentCall(name: name, begin: call.token, range: call.range)
            guard core.enterNesting(at: call.range) else {
                return MathNode(.error("\\begin{\(name)}"), range: call.range)
            }
            defer { core.depth -= 1 }
            if let definition = EnvironmentRegistry.table[name] {
                return definition.build(&core, envCall)
            }
            core.error("tex.unknown-environment", "unknown environment '\(name)'", at: call.range)
            envCall.range = call.range
            return core.parseTable(envCall, properties: TableProperties(environment: name, columnAlignments: [.center]))
        },
        CommandDefinition(["hline", "hdashline", "toprule", "midrule", "bottomrule", "cmidrule"]) { core, call in
            core.error("tex.misplaced-hline", "\\\(call.name) is only allowed at the start of a table row", at: call.range)
            return nil
        },
    ]
}

extension ParserCore {
    mutating func matrix(_ call: EnvironmentCall, open: String, close: String, alignment: ColumnAlignment) -> MathNode {
        Self.delimited(parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: [alignment])), open: open, close: close)
    }

    /// The table between its delimiters; the table itself when there are none (`matrix`, `NiceArray`).
    static func delimited(_ table: MathNode, open: String, close: String) -> MathNode {
        if open.isEmpty && close.isEmpty { return table }
        return MathNode(.fenced(open: open, close: close), [table], range: table.range)
    }

    /// `array`'s table: its `{lc|r}` column specification, then its rows. With `optionsAfterSpec`, the `[…]` nicematrix takes after
    /// the specification is read and left.
    mutating func arrayTable(_ call: EnvironmentCall, displayStyle: Bool = false, optionsAfterSpec: Bool = false) -> MathNode {
        let spec = readColumnSpec(call)
        if optionsAfterSpec { _ = expander.readOptionalArgument() }
        return parseTable(call, properties: TableProperties(environment: call.name, columnAlignments: spec.alignments, columnLines: spec.lines,
                                                            leftLine: spec.left, rightLine: spec.right, displayStyle: displayStyle))
    }

    /// The `{lc|r}` column specification of `array`.
    mutating func readColumnSpec(_ call: EnvironmentCall)
        -> (alignments: [ColumnAlignment], lines: [TableLine], left: TableLine, right: TableLine) {
        let t = nextNonSpace()
        guard t.kind == .beginGroup else {
            pushBack(t)
            error("tex.missing-argument", "\\begin{\(call.name)} needs a column specification such as {lcr}", at: call.range)
            return ([.center], [], .none, .none)
        }
        let tokens = expander.readBalanced(opening: t)
        var alignments: [ColumnAlignment] = []
        var lines: [TableLine] = []
        var pendingLine = TableLine.none
        var left = TableLine.none
        var i = 0
        while i < tokens.count {
            let u = tokens[i]
            i += 1
            guard u.kind == .character else {
                if u.kind == .beginGroup { while i < tokens.count, tokens[i].kind != .endGroup { i += 1 }; i += 1 }
                continue
            }
            switch u.scalar {
            // `L`, `C`, `R`: the columns nicematrix and many preambles (`\newcolumntype{C}{…}`) define as l, c and r.
            case "l", "c", "r", "p", "m", "b", "L", "C", "R":
                if alignments.isEmpty { left = pendingLine } else { lines.append(pendingLine) }
                pendingLine = .none
                alignments.append(u.scalar == "c" || u.scalar == "C" ? .center : u.scalar == "r" || u.scalar == "R" ? .right : .left)
                if "pmb".unicodeScalars.contains(u.scalar), i < tokens.count, tokens[i].kind == .beginGroup {
                    while i < tokens.count, tokens[i].kind != .endGroup { i += 1 }
                    i += 1
                }
            case "|": pendingLine = .solid
            case ":": pendingLine = .dashed
            case "@", "!", "*":
                if i < tokens.count, tokens[i].kind == .beginGroup {
                    while i < tokens.count, tokens[i].kind != .endGroup { i += 1 }
                    i += 1
                }
            case " ": continue
            default:
                error("tex.bad-column-spec", "unknown column type '\(Character(u.scalar))' (use l, c, r, | or :)", at: u.range)
            }
        }
        if lines.allSatisfy({ $0 == .none }) { lines = [] }
        // A rule before the first column or after the last is an edge of the table.
        return (alignments.isEmpty ? [.center] : alignments, lines, left, alignments.isEmpty ? .none : pendingLine)
    }

    /// Skips an optional `[…]` argument, if one follows (a rule's width, a space's size).
    mutating func skipOptionalBracket() {
        if peekNonSpace().isCharacter("[") { _ = expander.readOptionalArgument() }
    }

    /// Reads rows and cells up to `\end{name}`: `&` separates cells, `\\` rows; `\hline`/`\hdashline`
    /// and booktabs's `\toprule`, `\midrule`, `\bottomrule` at a row start draw rules (`\cmidrule`, a rule
    /// under some columns, and `\addlinespace` are read and not drawn); `\tag` labels a row. amsmath's
    /// `\intertext{…}` (or `\shortintertext`) at a row start is prose between the rows, a row of its own
    /// whose one cell is the text: a derivation's "now multiply by $e^x$" (APEX Calculus, session 54).
    mutating func parseTable(_ call: EnvironmentCall, properties: TableProperties) -> MathNode {
        var properties = properties
        var rows: [MathNode] = []
        var linesAbove: [TableLine] = []  // the rule above each row (and one after the last)
        var finished = false
        var end = call.range.upperBound
        let savedTag = pendingTag
        pendingTag = nil
        var cellCount = 0
        var overflowReported = false
        rowLoop: while !finished {
            // Rules before the row.
            var line = TableLine.none
            while true {
                let t = peekNonSpace()
                if isControlSequence(t, "hline") || isControlSequence(t, "toprule") || isControlSequence(t, "midrule")
                    || isControlSequence(t, "bottomrule") {
                    _ = nextNonSpace()
                    skipOptionalBracket()  // booktabs's rule width: `\toprule[1pt]`
                    line = .solid
                    continue
                }
                if isControlSequence(t, "hdashline") { _ = nextNonSpace(); line = line == .solid ? .solid : .dashed; continue }
                if isControlSequence(t, "cmidrule") || isControlSequence(t, "addlinespace") {
                    _ = nextNonSpace()
                    skipOptionalBracket()
                    if isControlSequence(t, "cmidrule") {
                        // `\cmidrule(lr){2-3}`: the trim in parentheses, then the columns.
                        let open = peekNonSpace()
                        if open.isCharacter("(") {
                            _ = nextNonSpace()
                            while case let u = nextNonSpace(), u.kind != .eof, !u.isCharacter(")") {}
                        }
                        if peekNonSpace().kind == .beginGroup { _ = nextNonSpace(); skipToGroupEnd() }
                    }
                    continue
                }
                if t.kind == .controlSequence && t.role == .interText {
                    let command = nextNonSpace()
                    var invocation = Invocation(name: self.name(command), token: command, range: command.range)
                    readArguments([.text], into: &invocation)
                    cellCount += 1
                    guard cellCount <= texLimits.maxTableCells else { continue }
                    let text = invocation.node(0)
                    let range = SourceRange.union(invocation.range, text.range)
                    linesAbove.append(line)
                    line = .none
                    rows.append(MathNode(.tableRow(labeled: false), [MathNode(.tableCell, [text], range: range)], range: range))
                    continue
                }
                break
            }
            linesAbove.append(line)
            var cells: [MathNode] = []
            while true {
                let items = parseExpression(until: [.alignment, .newline, .end, .endGroup])
                cellCount += 1
                if cellCount <= texLimits.maxTableCells {
                    let range = items.reduce(nil) { SourceRange.union($0, $1.range) }
                    cells.append(MathNode(.tableCell, items, range: range))
                } else if !overflowReported {
                    overflowReported = true
                    error("tex.too-many-cells", "more than \(texLimits.maxTableCells) table cells; the rest are dropped", at: call.range)
                }
                let t = nextNonSpace()
                if t.kind == .alignment { continue }
                if t.kind == .controlSequence && t.role == .interText {
                    // The row ends before it, as amsmath's `\intertext` ends it; the next row reads it.
                    pushBack(t)
                    break
                }
                if t.kind == .controlSequence && (t.role == .lineBreak || t.role == .crOrNewline) {  // \\ \cr \newline
                    _ = readRowSpacing()
                    break
                }
                if isControlSequence(t, "end") {
                    let name = readEnvironmentName(after: t)
                    if name != call.name {
                        error("tex.mismatched-end", "\\begin{\(call.name)} ended by \\end{\(name)}", at: t.range)
                    }
                    end = t.range.upperBound
                    finished = true
                    break
                }
                pushBack(t)
                error("tex.missing-end", "\\begin{\(call.name)} has no \\end{\(call.name)}", at: call.begin.range,
                      fixIts: [.init(range: SourceRange(t.range.lowerBound, t.range.lowerBound), replacement: "\\end{\(call.name)}")])
                end = cells.last?.range?.upperBound ?? call.range.upperBound
                finished = true
                break
            }
            // A trailing \\ leaves an empty last row: drop it (but keep its rule).
            if finished, cells.count == 1, cells[0].children.isEmpty, !rows.isEmpty, pendingTag == nil { break rowLoop }
            if cells.isEmpty && cellCount > texLimits.maxTableCells { continue }
            let rowRange = cells.reduce(nil) { SourceRange.union($0, $1.range) }
            if let tag = pendingTag {
                pendingTag = nil
                rows.append(MathNode(.tableRow(labeled: true), [MathNode(.tableCell, [tag], range: tag.range)] + cells, range: rowRange))
            } else {
                rows.append(MathNode(.tableRow(labeled: false), cells, range: rowRange))
            }
        }
        pendingTag = savedTag
        // Rules: above the first row and after the last become the frame; the rest are row lines.
        if linesAbove.count > rows.count {
            let last = linesAbove.removeLast()
            if properties.frame == .none, last != .none { properties.frame = last }
        }
        if let first = linesAbove.first, first != .none { properties.frame = first }
        if linesAbove.count > 1 {
            let inner = Array(linesAbove.dropFirst())
            if inner.contains(where: { $0 != .none }) { properties.rowLines = inner }
        }
        return MathNode(.table(properties), rows, range: SourceRange(call.range.lowerBound, max(end, call.range.upperBound)))
    }
}
