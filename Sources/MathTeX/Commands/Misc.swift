import MathSyntax

extension ParserCore {
    /// amsmath's `\dots`, `\dotso` and `\dotsc` (with unicode-math, whose `\cdots` and `\ldots` are
    /// plain Inner atoms): `\dots` before a binary operator or relation character (`+ = < > - * :`) or
    /// `\not` is `\cdots`, centred on the axis; otherwise the low dots, followed by a thin space `\,`
    /// when what comes next closes: a right delimiter (`) ] \} \rangle \rceil \rfloor \right \bigr`…)
    /// or the end of the formula; `\dotso` also before `, ; .`, `\dotsc` before `; .` (amsmath's
    /// `\mdots@@`, `\dotso@`, `\extrap@` and `\dotsc`).
    mutating func amsDots(_ call: Invocation) -> MathNode? {
        let next = peekNonSpace()
        let name = next.kind == .controlSequence ? self.name(next) : ""
        if call.name == "dots", next.kind == .character, "+=<>-*:".unicodeScalars.contains(next.scalar) || name == "not" {
            return SymbolTable.math("cdots").map { leaf(SymbolLeaf($0), range: call.range) }
        }
        var closes = next.kind == .eof || next.kind == .mathShift || next.isCharacter(")") || next.isCharacter("]")
            || ["}", "rbrack", "rbrace", "rangle", "rceil", "rfloor", "rgroup", "rmoustache", "right", "bigr", "Bigr",
                "biggr", "Biggr"].contains(name)
        if next.kind == .character {
            switch call.name {
            case "dotso": closes = closes || ",;.".unicodeScalars.contains(next.scalar)
            case "dotsc": closes = closes || ";.".unicodeScalars.contains(next.scalar)
            default: break
            }
        }
        if closes {
            let entry = tables.entry(",")
            if entry >= 0 {
                let at = SourceRange(call.range.upperBound, call.range.upperBound)
                pushBack(Token(controlSequence: TokenName(rawValue: entry), tables: tables, range: at))
            }
        }
        return SymbolTable.math("ldots").map { leaf(SymbolLeaf($0), range: call.range) }
    }
}

/// Everything else with math meaning: `\tag`, `\substack`, `\mathchoice`, `\TextOrMath`, `\char`,
/// `\rule`, `\raisebox`, `\href \url`, `\htmlClass \htmlId \htmlStyle \htmlData`, `\TeX \LaTeX \KaTeX`,
/// `\label` (kept silent).
enum MiscCommands {
    static let all: [CommandDefinition] = [
        CommandDefinition(["tag"], [], modes: .math) { core, call in
            let star = core.next()
            let starred = star.isCharacter("*")
            if !starred { core.pushBack(star) }
            var invocation = call
            core.readArguments([.text], into: &invocation)
            let content = invocation.node(0)
            var items = [content]
            if !starred {
                if case .text(let label, let variant) = content.kind {
                    items = [MathNode(.text("(" + label + ")", variant: variant), range: content.range)]
                } else {
                    // A label of mathematics or several parts (`\tag{$+$hi}`, `\tag{\ref{…}}`) in its parentheses: a
                    // fenced group, which MathML writes and reads back as one (parentheses set as text alone are
                    // operators to the MathML reader, so the label would not read back as it was written).
                    items = [MathNode(.fenced(open: "(", close: ")"), [content], range: content.range)]
                }
            }
            if core.pendingTag != nil {
                core.error("tex.multiple-tags", "more than one \\tag in one row", at: invocation.range)
            }
            core.pendingTag = MathNode(.row, items, range: invocation.range)
            return nil
        },
        CommandDefinition(["eqno", "leqno"], [], modes: .math) { core, call in
            // Plain TeX: the rest of the formula is the equation number.
            let rest = core.parseRestOfGroup()
            core.pendingTag = MathNode(.row, rest, range: SourceRange.union(call.range, rest.last?.range))
            return nil
        },
        CommandDefinition(["label"], [.raw]) { _, _ in nil },
        // An index entry (`\N\index[symbols]{$\N$}`, as a book indexes the symbols its formulas introduce) prints nothing.
        CommandDefinition(["index"], [.optionalRaw, .raw], modes: .both) { _, _ in nil },
        // A table cell's or row's background (colortbl, nicematrix): nothing to hear, and not drawn.
        CommandDefinition(["cellcolor", "rowcolor"], [.optionalRaw, .raw], modes: .both) { _, _ in nil },
        CommandDefinition(["ref", "eqref"], [.raw], modes: .both) { _, call in
            let label = call.arguments[0].raw ?? ""
            return MathNode(.text(call.name == "eqref" ? "(\(label))" : label, variant: nil), range: call.range)
        },
        CommandDefinition(["ensuremath"], [.math], modes: .both) { _, call in call.node(0).withRange(call.range) },
        CommandDefinition(["smallskip", "medskip", "bigskip", "par", "noindent", "indent", "centering", "hfil",
                           "vfill", "vfil", "break", "linebreak", "pagebreak", "newpage", "displaybreak"], modes: .both) { _, _ in nil },
        // \hfill is glue that only stretches: in a formula set at its natural width (a box, an inline
        // formula) it has no width.
        CommandDefinition(["hfill"], modes: .both) { _, _ in nil },
        CommandDefinition(["dots", "dotso", "dotsc"]) { core, call in core.amsDots(call) },
        CommandDefinition(["substack"], []) { core, call in
            let open = core.nextNonSpace()
            guard open.kind == .beginGroup else {
                core.pushBack(open)
                core.error("tex.missing-argument", "\\substack needs {rows separated by \\\\}", at: call.range)
                return nil
            }
            guard core.enterNesting(at: open.range) else { core.skipToGroupEnd(); return nil }
            defer { core.depth -= 1 }
            var rows: [MathNode] = []
            var end = open.range.upperBound
            while true {
                let items = core.parseExpression(until: [.newline, .endGroup])
                let range = items.reduce(nil) { SourceRange.union($0, $1.range) }
                if !(items.isEmpty && !rows.isEmpty) {
                    rows.append(MathNode(.tableRow(labeled: false), [MathNode(.tableCell, items, range: range)], range: range))
                }
                let t = core.next()
                if t.kind == .controlSequence && (t.role == .lineBreak || core.name(t) == "cr") { continue }
                if t.kind == .endGroup { end = t.range.upperBound; break }
                core.pushBack(t)
                core.error("tex.missing-brace", "missing } for this {", at: open.range)
                break
            }
            return MathNode(.table(TableProperties(environment: "substack", columnAlignments: [.center])), rows,
                            range: SourceRange(call.range.lowerBound, end))
        },
        CommandDefinition(["mathchoice"], [.math, .math, .math, .math]) { core, call in
            core.options.displayMode ? call.node(0) : call.node(1)
        },
        CommandDefinition(["TextOrMath"], [.text, .math], modes: .both) { core, call in
            core.mode == .text ? call.node(0) : call.node(1)
        },
        CommandDefinition(["char"], [], modes: .both) { core, call in
            // \char"41, \char'101, \char65 or \char`A
            var digits = ""
            var radix = 10
            let first = core.nextNonSpace()
            var end = first.range.upperBound
            if first.isCharacter("\"") { radix = 16 } else if first.isCharacter("'") { radix = 8 }
            else if first.kind == .character, isASCIIDigit(first.scalar) { digits.unicodeScalars.append(first.scalar) }
            else {
                core.pushBack(first)
                core.error("tex.bad-argument", "\\char needs a character code such as \\char\"41", at: call.range)
                return nil
            }
            while true {
                let t = core.next()
                if t.kind == .character, t.scalar.properties.isASCIIHexDigit, Int(String(t.scalar), radix: radix) != nil {
                    digits.unicodeScalars.append(t.scalar)
                    end = t.range.upperBound
                    if digits.count > 8 { break }
                } else {
                    core.pushBack(t)
                    break
                }
            }
            guard let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value), value >= 0x20 else {
                core.error("tex.bad-argument", "\\char code '\(digits)' is not a character", at: call.range)
                return nil
            }
            let range = SourceRange(call.range.lowerBound, end)
            if core.mode == .text { return MathNode(.text(String(Character(scalar)), variant: nil), range: range) }
            return core.unicodeLeaf(scalar, range: range)
        },
        CommandDefinition(["rule"], [.optionalRaw, .raw, .raw], modes: .both) { core, call in
            guard let width = core.capSize(Dimension.parse(call.arguments[1].raw ?? ""), at: call.arguments[1].range) else {
                core.error("tex.bad-dimension", "\\rule width must be a dimension", at: call.arguments[1].range)
                return nil
            }
            var height = call.arguments[2].raw ?? ""
            if let h = Dimension.parse(height), let capped = core.capSize(h, at: call.arguments[2].range), capped != h {
                height = "\(capped)em"
            }
            return MathNode(.space(width: width), range: call.range, attributes: ["rule": height])
        },
        CommandDefinition(["raisebox"], [.raw, .text], modes: .both) { _, call in
            call.node(1).withRange(call.range)
        },
        // LaTeX's text boxes in a formula: `\makebox[width][pos]{text}` and `\parbox[pos][height][inner]{width}{text}`
        // say their text (set at its natural width: the box's width and position change where it stands,
        // not what it says); `\framebox` draws its frame as `\fbox` does. Books set a remark beside a step
        // of a derivation so (`\text{\scriptsize \parbox{110pt}{…}}`, APEX Calculus, session 54).
        CommandDefinition(["makebox"], [.optionalRaw, .optionalRaw, .text], modes: .both) { _, call in
            call.node(2).withRange(call.range)
        },
        CommandDefinition(["framebox"], [.optionalRaw, .optionalRaw, .text], modes: .both) { _, call in
            MathNode(.enclose(notation: "box"), [call.node(2)], range: call.range)
        },
        CommandDefinition(["parbox"], [.optionalRaw, .optionalRaw, .optionalRaw, .raw, .text], modes: .both) { _, call in
            call.node(4).withRange(call.range)
        },
        // graphicx's transformations keep their content, which is what is heard; it is set unrotated and
        // at its own size.
        CommandDefinition(["rotatebox"], [.optionalRaw, .raw, .content], modes: .both) { _, call in
            call.node(2).withRange(call.range)
        },
        CommandDefinition(["scalebox"], [.raw, .optionalRaw, .content], modes: .both) { _, call in
            call.node(2).withRange(call.range)
        },
        CommandDefinition(["resizebox"], [.raw, .raw, .content], modes: .both) { _, call in
            call.node(2).withRange(call.range)
        },
        CommandDefinition(["reflectbox"], [.content], modes: .both) { _, call in call.node(0).withRange(call.range) },
        // hyperref's link to a label with the text to show: the text is what is read.
        CommandDefinition(["hyperref"], [.optionalRaw, .text], modes: .both) { _, call in
            call.node(1).withRange(call.range)
        },
        // Layout that changes no content: vertical space, a length's setting (`\setlength{\arraycolsep}{0pt}`
        // before an array), permission to break a display, and amsthm's end-of-proof mark placed in the
        // last line of a proof's display (the proof's end is the prose's to say).
        CommandDefinition(["vspace"], [], modes: .both) { core, call in
            let star = core.next()
            if !star.isCharacter("*") { core.pushBack(star) }
            var invocation = call
            core.readArguments([.raw], into: &invocation)
            return nil
        },
        CommandDefinition(["setlength", "addtolength"], [.raw, .raw], modes: .both) { _, _ in nil },
        CommandDefinition(["allowdisplaybreaks"], [.optionalRaw], modes: .both) { _, _ in nil },
        CommandDefinition(["qedhere"], modes: .both) { _, _ in nil },
        CommandDefinition(["vcenter"], [.math]) { _, call in call.node(0).withRange(call.range) },
        // Links, HTML attributes and styles only under a trust policy that allows them (TrustPolicy,
        // as KaTeX's `trust`); refused, the math content stays and the link or attribute goes.
        CommandDefinition(["href"], [.raw, .math], modes: .both) { core, call in
            let content = call.node(1)
            let children = content.kind == .row ? Array(content.children) : [content]
            let url = call.arguments[0].raw ?? ""
            guard core.trusts(.links, call) , core.trusts(url: url, call) else { return MathNode(.row, children, range: call.range) }
            return MathNode(.row, children, range: call.range, attributes: ["href": url])
        },
        CommandDefinition(["url"], [.raw], modes: .both) { core, call in
            let url = call.arguments[0].raw ?? ""
            guard core.trusts(.links, call), core.trusts(url: url, call) else {
                return MathNode(.text(url, variant: .monospace), range: call.range)
            }
            return MathNode(.text(url, variant: .monospace), range: call.range, attributes: ["href": url])
        },
        CommandDefinition(["htmlClass", "htmlId", "htmlStyle", "htmlData"], [.raw, .math], modes: .both) { core, call in
            let key = ["htmlClass": "class", "htmlId": "id", "htmlStyle": "style", "htmlData": "data"][call.name]!
            let content = call.node(1)
            let children = content.kind == .row ? Array(content.children) : [content]
            guard core.trusts(call.name == "htmlStyle" ? .styles : .htmlAttributes, call) else {
                return MathNode(.row, children, range: call.range)
            }
            // A trusted style is still checked for URLs and script (TrustPolicy.styleProblem).
            if call.name == "htmlStyle", let problem = core.options.trust.styleProblem(call.arguments[0].raw ?? "") {
                core.warning(.texUntrustedCommand, "\\htmlStyle: the style \(problem)", at: call.range)
                return MathNode(.row, children, range: call.range)
            }
            return MathNode(.row, children, range: call.range, attributes: [key: call.arguments[0].raw ?? ""])
        },
        CommandDefinition(["TeX", "LaTeX", "KaTeX"], modes: .both) { _, call in
            MathNode(.text(call.name, variant: nil), range: call.range)
        },
        CommandDefinition(["verb"], [], modes: .both) { core, call in
            // The lexer reads a well-formed \verb|…| as one token; reaching here means it was not closed.
            core.error("tex.unclosed-verb", "\\verb needs a delimiter and text closed on the same line, e.g. \\verb|x|",
                       at: call.range)
            return nil
        },
        CommandDefinition(["includegraphics"], [.optionalRaw, .raw], modes: .both) { core, call in
            // An image inside math has no math meaning; keep its source and alt text for the reader.
            let src = call.arguments[1].raw ?? ""
            guard core.trusts(.images, call), core.trusts(url: src, call) else { return MathNode(.row, [], range: call.range) }
            var attributes = ["src": src]
            if let options = call.arguments[0].raw,
               let alt = options.split(separator: ",").first(where: { String($0).trimmingCharacters().hasPrefix("alt") }) {
                attributes["alt"] = alt.split(separator: "=", maxSplits: 1).last.map { String($0).trimmingCharacters() }
            }
            return MathNode(.row, [], range: call.range, attributes: attributes.isEmpty ? nil : attributes)
        },
    ]
}


/// Commands defined as TeX macros (DESIGN.md §3: a command that is only shorthand is one line of TeX).
/// Among them esvect's `\vv{AB}` (the vector from A to B, an arrow over its argument) and the references
/// of hyperref and cleveref (`\autoref`, `\cref`, `\Cref`, `\nameref`), read as `\ref` reads a label.
enum BuiltinMacros {
    static let source = #"""
    bra         \mathinner{\langle{#1}|}
    ket         \mathinner{|{#1}\rangle}
    braket      \mathinner{\langle{#1}\rangle}
    Bra         \left\langle#1\right|
    Ket         \left|#1\right\rangle
    set         \{#1\}
    Set         \left\{#1\right\}
    mathstrut   \vphantom{(}
    strut       \vphantom{(}
    iff         \;\Longleftrightarrow\;
    implies     \;\Longrightarrow\;
    impliedby   \;\Longleftarrow\;
    dfracslash  \frac
    plim        \mathop{\operatorname{plim}}
    lparen      (
    rparen      )
    lbrack      [
    rbrack      ]
    textdegree  \degree
    underbar    \underline{#1}
    colonapprox \vcentcolon\approx
    Colonapprox \dblcolon\approx
    colonsim    \vcentcolon\sim
    Colonsim    \dblcolon\sim
    ordinarycolon :
    Ldots       \ldots
    Cdots       \cdots
    Vdots       \vdots
    Ddots       \ddots
    Iddots      \iddots
    pounds      \mathsterling
    angln       \angl{n}
    Braket      \left\langle{#1}\right\rangle
    red         \textcolor{red}{#1}
    blue        \textcolor{blue}{#1}
    green       \textcolor{green}{#1}
    gray        \textcolor{gray}{#1}
    purple      \textcolor{purple}{#1}
    orange      \textcolor{orange}{#1}
    pink        \textcolor{pink}{#1}
    teal        \textcolor{teal}{#1}
    gold        \textcolor{gold}{#1}
    maroon      \textcolor{maroon}{#1}
    hdots       \ldots
    vv          \overrightarrow{#1}
    autoref     \ref{#1}
    cref        \ref{#1}
    Cref        \ref{#1}
    nameref     \ref{#1}
    """#

    /// The macros of ``source`` as (name, body), in source order, without the names the command
    /// registry or the symbol table defines (their definition is kept): the one list of built-in
    /// macro names, read by ``table`` and by ``ParserTables`` (which cannot read ``table``: that
    /// table is lexed with the parser tables).
    static let definitions: [(name: String, body: String)] = {
        // Read on bytes: splitting the source into `Character`s cost ~3 M instructions at every
        // start-up (BENCHMARKS.md session 8). A space byte is only ever a space.
        var definitions: [(name: String, body: String)] = []
        var source = BuiltinMacros.source
        source.withUTF8 { all in
            for (_, line) in ByteLines(all) {
                var i = line.lowerBound
                while i < line.upperBound, all[i] == 0x20 { i += 1 }
                let nameStart = i
                while i < line.upperBound, all[i] != 0x20 { i += 1 }
                guard i < line.upperBound, nameStart < i else { continue }  // a line without a space
                let name = String(decoding: UnsafeBufferPointer(rebasing: all[nameStart..<i]), as: UTF8.self)
                while i < line.upperBound, all[i] == 0x20 { i += 1 }
                if CommandRegistry.table[name] != nil || SymbolTable.math(name) != nil { continue }
                definitions.append((name, String(decoding: UnsafeBufferPointer(rebasing: all[i..<line.upperBound]), as: UTF8.self)))
            }
        }
        return definitions
    }()

    static let table: [String: Macro] = {
        var table: [String: Macro] = [:]
        for (name, body) in definitions { table[name] = Macro.fromSource(body) }
        return table
    }()
}

extension ParserCore {
    /// Whether the trust policy allows `feature` for this command; if not, reports
    /// `tex.untrusted-command` at the command.
    mutating func trusts(_ feature: TrustPolicy.Feature, _ call: Invocation) -> Bool {
        if options.trust.allows(feature) { return true }
        warning(.texUntrustedCommand,
              "\\\(call.name) is not allowed: it needs trust (\(feature.rawValue)); \(feature == .images ? "left out" : "its content is kept without it")",
              at: call.range)
        return false
    }

    /// Whether the trust policy allows this URL (relative, or a scheme in its list); if not, reports
    /// `tex.untrusted-command` at the command.
    mutating func trusts(url: String, _ call: Invocation) -> Bool {
        if options.trust.allows(url: url) { return true }
        warning(.texUntrustedCommand,
              "\\\(call.name): the URL scheme '\(TrustPolicy.scheme(of: url) ?? "")' is not allowed (allowed: \(options.trust.urlSchemes.sorted().joined(separator: ", ")))",
              at: call.range)
        return false
    }
}
