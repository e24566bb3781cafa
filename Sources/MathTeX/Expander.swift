import MathSyntax

/// A macro: its parameter text (TeXbook ch. 20: undelimited `#1`, or delimited by the tokens after it),
/// and its replacement text.
struct Macro: Sendable {
    /// The parameter text: parameter tokens (`#1`…) and literal delimiter tokens.
    var parameterText: [Token]
    /// How many parameters.
    var parameterCount: Int
    /// The replacement text, with `#n` parameter tokens to substitute.
    var body: [Token]
    /// `\newcommand{\x}[2][default]{…}`: the first argument is optional with this default.
    var optionalDefault: [Token]?
    /// The replacement text when the call has a star (`\abs*{x}`, ``Expander`` of `\DeclarePairedDelimiter`), nil for a
    /// macro without a starred form (the star is then the input's).
    var starredBody: [Token]? = nil
    /// The names of the body's unknown control sequences, for a macro lexed outside any parse (the
    /// built-in macros and those of the parser options); nil for one defined in the formula, whose
    /// tokens' names are the parse's own.
    var names: TokenNames?

    init(parameterCount: Int, body: [Token], optionalDefault: [Token]? = nil, names: TokenNames? = nil) {
        self.parameterCount = parameterCount
        self.parameterText = (0..<parameterCount).map {
            Token(.parameter, scalar: Unicode.Scalar(UInt8(0x31 + $0)), range: SourceRange(0, 0))
        }
        self.body = body
        self.optionalDefault = optionalDefault
        self.names = names
    }

    init(parameterText: [Token], body: [Token]) {
        self.parameterText = parameterText
        self.parameterCount = parameterText.filter { $0.kind == .parameter }.count
        self.body = body
        self.optionalDefault = nil
        self.names = nil
    }

    /// Lexes `text` into a macro whose parameter count is the highest `#n` in it.
    static func fromSource(_ text: String) -> Macro {
        var text = text
        return text.withUTF8 { bytes in
            var lexer = Lexer(bytes: bytes, tables: ParserTables.shared)
            var body: [Token] = []
            var count = 0
            while true {
                let t = lexer.next()
                if t.kind == .eof { break }
                if t.kind == .parameter, let d = Int(String(t.scalar)) { count = max(count, d) }
                body.append(t)
            }
            return Macro(parameterCount: count, body: body, names: lexer.names)
        }
    }
}

/// The macro expander ("TeX's mouth", TeXbook ch. 20): delivers tokens to the parser with macros
/// replaced by their expansions, handles the definition commands (`\def`, `\newcommand`, `\let`,
/// `\DeclareMathOperator`…) and enforces the expansion limits.
struct Expander {
    private var lexer: Lexer
    /// Tokens pushed back or produced by expansion; the next token is on top.
    private var pending: LentStack<Token>
    private(set) var macros: [String: Macro]
    private let limits: TeXLimits
    private var expansions = 0
    private var expandedTokens = 0
    /// The expansions and expanded tokens spent so far (``TeXParseResult/expansionsSpent``).
    package var spent: (expansions: Int, tokens: Int) { (expansions, expandedTokens) }

    /// Counts what a nested parse (math inside `\ce`) spent as spent here: one formula has one budget.
    package mutating func charge(expansions: Int, tokens: Int) {
        self.expansions += expansions
        expandedTokens += tokens
    }
    private var limitReported = false
    /// The delimiters of the next `\systeme`, from the formula's last `\sysdelim` (nil: `\{` and none).
    private var systemDelimiters: (open: [Token], close: [Token])? = nil
    /// Diagnostics found while expanding; the parser collects them.
    var diagnostics: [Diagnostic] = []
    /// The shared tables: which names are registry commands or symbols (for `\newcommand` vs
    /// `\renewcommand` checks).
    private let tables: ParserTables
    /// Whether `macros` may hold names other than the built-in macros (user macros from the options,
    /// or a definition in the formula). While false, only names whose role is
    /// ``ControlSequenceRole/builtinMacro`` need a look-up.
    private var hasOtherMacros: Bool

    /// An expander reading `bytes`, with `tokenMemory` for the tokens it holds back (it must outlive
    /// neither; see ``release()``).
    init(bytes: UnsafeBufferPointer<UInt8>, tables: ParserTables, macros: [String: Macro], hasUserMacros: Bool,
         limits: TeXLimits, tokenMemory: UnsafeMutableBufferPointer<Token>) {
        self.lexer = Lexer(bytes: bytes, tables: tables)
        self.pending = LentStack(memory: tokenMemory)
        self.macros = macros
        self.hasOtherMacros = hasUserMacros
        self.limits = limits
        self.tables = tables
    }

    /// Frees what the expander holds beyond the memory it was lent; call once, at the end of the parse.
    mutating func release() { pending.release() }

    // MARK: Names

    /// The name of a control sequence token, or the text of a verbatim token.
    @inline(__always)
    func name(_ t: Token) -> String { lexer.names.string(t.name, tables: tables) }

    /// Whether `t` is the control sequence `\name`.
    func isControlSequence(_ t: Token, _ name: String) -> Bool {
        t.kind == .controlSequence && self.name(t) == name
    }

    /// The tokens written back as TeX, trimming the trailing space a control word adds.
    func sourceText(_ tokens: [Token]) -> String { lexer.names.sourceText(tokens, tables: tables) }

    /// The token written back as TeX.
    func sourceText(_ t: Token) -> String { lexer.names.sourceText(t, tables: tables) }

    // MARK: Raw tokens

    /// The next token without expansion.
    mutating func nextRaw() -> Token {
        if let t = pending.popIfAny() { return t }
        return lexer.next()
    }

    /// The next byte of the input after white space, when no token is waiting to be delivered, so
    /// that the byte starts the next token; nil when a token is waiting or at the end. The white
    /// space is skipped (for math-mode readers, which ignore it); the byte is not consumed.
    ///
    /// For readers of runs of characters (digits, letters), which take a byte that makes a
    /// character token by itself (an ASCII letter or digit) with ``skipPlainByte()`` instead of
    /// making the token.
    mutating func peekPlainByte() -> UInt8? {
        pending.isEmpty ? lexer.peekByteSkippingSpaces() : nil
    }

    /// Consumes the byte ``peekPlainByte()`` returned; returns its offset.
    mutating func skipPlainByte() -> Int { lexer.skipByte() }

    /// Puts a token back; it is the next one delivered.
    mutating func pushBack(_ token: Token) { pending.push(token) }

    /// Puts tokens back so that `tokens[0]` is delivered first.
    mutating func pushBack(_ tokens: [Token]) { pending.pushReversed(tokens) }

    // MARK: Expanded tokens

    /// The next token after macro expansion and definitions; with `skippingSpaces`, the next one
    /// that is not a space (the lexer then makes no space tokens at all).
    mutating func next(skippingSpaces: Bool = false) -> Token {
        nextInline(skippingSpaces: skippingSpaces)
    }

    /// ``next(skippingSpaces:)`` inlined into its caller, with the lexer in it: for the parser's
    /// expression loop, which reads most tokens, a script's first token and a group's closing brace (a
    /// call for each token, with its register saves, cost ~1.4 M instructions of 2,000 whole speaks:
    /// 148.42 → 147.54 M for the loop, → 147.06 M for the other two, `MathAloudBench stages` under
    /// callgrind, session 38).
    @inline(__always)
    mutating func nextInline(skippingSpaces: Bool) -> Token {
        while true {
            let t = pending.popIfAny() ?? lexer.next(skippingSpaces: skippingSpaces)
            guard t.kind == .controlSequence else {
                if skippingSpaces && t.kind == .space { continue }
                return t
            }
            // An ordinary command (no role, and no macros but the built-in ones) goes straight out.
            if t.role == .other && !hasOtherMacros { return t }
            if let delivered = expandOrExecute(t) { return delivered }
        }
    }

    /// A control sequence that may be a macro or an expander primitive: expands or executes it
    /// (nil: read on) or returns the token to deliver. Kept out of ``next(skippingSpaces:)`` so
    /// that the path every token takes stays small.
    @inline(never)
    private mutating func expandOrExecute(_ t: Token) -> Token? {
        if t.role == .builtinMacro || hasOtherMacros, let macro = macro(named: self.name(t)) {
            expand(macro, call: t)
            return nil
        }
        switch t.role {
        case .def: define(t); return nil
        case .newCommand: newCommand(t); return nil
        case .let: letCommand(t); return nil
        case .declareOperator: declareOperator(t); return nil
        case .declarePairedDelimiter: declarePairedDelimiter(t); return nil
        case .documentCommand: documentCommand(t); return nil
        case .system: system(t); return nil
        case .systemDelimiters:
            guard let open = readArgument(), let close = readArgument() else {
                diagnostics.append(.error("tex.missing-argument", "\\sysdelim needs two delimiters", at: t.range))
                return nil
            }
            systemDelimiters = (open, close)
            return nil
        case .ignored: return nil
        case .changeCase: changeCase(t); return nil
        case .etoolbox: etoolbox(t); return nil
        case .bgroup: return Token(.beginGroup, scalar: "{", range: t.range)
        case .egroup: return Token(.endGroup, scalar: "}", range: t.range)
        default: return t
        }
    }

    /// The next expanded token, left in place.
    mutating func peek() -> Token {
        let t = next()
        pushBack(t)
        return t
    }

    // MARK: Expansion

    private mutating func expand(_ macro: Macro, call: Token) {
        expansions += 1
        // A formula past its time limit (FormulaDeadline, the service's per-request limit) expands
        // no more: the call is dropped and the parser reaches the end soon.
        if let deadline = FormulaDeadline.current, deadline.hasPassed {
            if !limitReported {
                limitReported = true
                diagnostics.append(deadline.diagnostic(at: call.range))
            }
            return
        }
        guard expansions <= limits.maxExpansions, expandedTokens <= limits.maxExpandedTokens else {
            if !limitReported {
                limitReported = true
                diagnostics.append(.error("tex.expansion-limit",
                    "too many macro expansions (limit \(limits.maxExpansions) expansions, \(limits.maxExpandedTokens) tokens); is a macro recursive?",
                    at: call.range))
            }
            return  // the call is dropped
        }
        var macro = macro
        if let starred = macro.starredBody {
            let t = nextRaw()
            if t.isCharacter("*") { macro.body = starred } else { pushBack(t) }
        }
        var args: [[Token]] = []
        args.reserveCapacity(macro.parameterCount)
        var patternIndex = 0
        if let def = macro.optionalDefault {
            args.append(readOptionalArgument() ?? localized(def, from: macro.names))
            patternIndex = 1
        }
        let pattern = macro.parameterText
        // Literal tokens before the first parameter must match the input.
        while patternIndex < pattern.count {
            let p = pattern[patternIndex]
            if p.kind == .parameter {
                // Delimited if the next pattern item is a literal token.
                var delimiter: [Token] = []
                var k = patternIndex + 1
                while k < pattern.count, pattern[k].kind != .parameter { delimiter.append(pattern[k]); k += 1 }
                if delimiter.isEmpty {
                    guard let arg = readArgument() else {
                        diagnostics.append(.error("tex.missing-argument",
                            "macro \\\(self.name(call)) expects \(macro.parameterCount) argument(s)", at: call.range))
                        args.append([])
                        patternIndex += 1
                        continue
                    }
                    args.append(arg)
                } else {
                    guard let arg = readDelimitedArgument(until: delimiter) else {
                        diagnostics.append(.error("tex.macro-pattern",
                            "use of \\\(self.name(call)) does not match its definition (delimiter \(self.sourceText(delimiter)) not found)",
                            at: call.range))
                        return
                    }
                    args.append(arg)
                    patternIndex = k
                    continue
                }
                patternIndex += 1
            } else {
                // A literal token that must come next.
                let t = nextRaw()
                if !sameToken(t, p) {
                    pushBack(t)
                    diagnostics.append(.error("tex.macro-pattern",
                        "use of \\\(self.name(call)) does not match its definition (expected \(self.sourceText(p)))", at: call.range))
                    return
                }
                patternIndex += 1
            }
        }
        // Check the size of the result before building it: an argument doubled at every expansion
        // must stop at the limit, not after allocating it.
        var size = 0
        for t in macro.body {
            if t.kind == .parameter, let n = Int(String(t.scalar)), n >= 1, n <= args.count { size += args[n - 1].count } else { size += 1 }
        }
        guard expandedTokens + size <= limits.maxExpandedTokens else {
            expandedTokens = limits.maxExpandedTokens + 1
            if !limitReported {
                limitReported = true
                diagnostics.append(.error("tex.expansion-limit",
                    "macro \\\(self.name(call)) would expand to more than \(limits.maxExpandedTokens) tokens", at: call.range))
            }
            return
        }
        // Substitute, from the end so pending stays in order.
        var produced = 0
        for t in macro.body.reversed() {
            if t.kind == .parameter {
                if t.scalar == "#" {
                    pending.push(Token(.parameter, scalar: "#", range: call.range))
                    produced += 1
                } else if let n = Int(String(t.scalar)), n >= 1, n <= args.count {
                    pending.pushReversed(args[n - 1])
                    produced += args[n - 1].count
                }
                continue
            }
            var copy = t
            copy.range = call.range
            if let names = macro.names, t.name.isLocal {
                // A name of a macro lexed outside this parse becomes one of this parse's names.
                copy.name = lexer.names.add(names.string(t.name, tables: tables))
            }
            pending.push(copy)
            produced += 1
        }
        expandedTokens += produced
    }

    /// Tokens lexed outside this parse (with `names`), their local names made this parse's own.
    private mutating func localized(_ tokens: [Token], from names: TokenNames?) -> [Token] {
        guard let names else { return tokens }
        return tokens.map { t in
            guard t.kind == .controlSequence, t.name.isLocal else { return t }
            var copy = t
            copy.name = lexer.names.add(names.string(t.name, tables: tables))
            return copy
        }
    }

    /// The macros that TeX definitions (`\newcommand`, `\def`, `\let`, `\DeclareMathOperator`…) in
    /// `text` leave behind, added to `macros`; everything else in `text` is read and dropped. The
    /// result's macros carry their own names (``Macro/names``), so any parse can use them.
    static func definitions(in text: String, adding macros: [String: Macro], limits: TeXLimits)
        -> (macros: [String: Macro], diagnostics: [Diagnostic]) {
        var text = text
        return text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Token.self, capacity: 16) { memory in
                var expander = Expander(bytes: bytes, tables: ParserTables.shared, macros: macros, hasUserMacros: true,
                                        limits: limits, tokenMemory: memory)
                defer { expander.release() }
                while expander.next(skippingSpaces: true).kind != .eof {}
                var result = expander.macros
                for (name, macro) in result where macro.names == nil {
                    var owned = macro
                    owned.names = expander.lexer.names
                    result[name] = owned
                }
                return (result, expander.diagnostics)
            }
        }
    }

    private func sameToken(_ a: Token, _ b: Token) -> Bool {
        if a.kind != b.kind { return false }
        switch a.kind {
        case .controlSequence:
            // Names are compared as strings when one is local: two tokens may keep the same
            // unknown name under two local numbers.
            return a.name == b.name || (!a.name.isKnown || !b.name.isKnown) && name(a) == name(b)
        case .character, .parameter: return a.scalar == b.scalar
        default: return true
        }
    }

    /// An undelimited argument: the next non-space token, or a balanced group without its braces.
    mutating func readArgument() -> [Token]? {
        var t = nextRaw()
        while t.kind == .space { t = nextRaw() }
        switch t.kind {
        case .eof:
            pushBack(t)
            return nil
        case .endGroup:
            pushBack(t)
            return nil
        case .beginGroup:
            return readBalanced(opening: t)
        default:
            return [t]
        }
    }

    /// The tokens up to the `}` matching an already-read `{` (the braces not included).
    /// At end of input, reports a missing brace and returns what was read.
    mutating func readBalanced(opening: Token) -> [Token] {
        var depth = 1
        var tokens: [Token] = []
        while true {
            let t = nextRaw()
            switch t.kind {
            case .beginGroup: depth += 1
            case .endGroup:
                depth -= 1
                if depth == 0 { return tokens }
            case .eof:
                pushBack(t)
                diagnostics.append(.error("tex.missing-brace", "missing } for this {", at: opening.range,
                                          fixIts: [.init(range: SourceRange(t.range.lowerBound, t.range.lowerBound), replacement: "}")]))
                return tokens
            default: break
            }
            tokens.append(t)
            if tokens.count > limits.maxExpandedTokens { return tokens }
        }
    }

    /// An optional `[…]` argument (brackets balanced with braces), or nil if none follows.
    mutating func readOptionalArgument() -> [Token]? {
        var t = nextRaw()
        var skipped: [Token] = []
        while t.kind == .space { skipped.append(t); t = nextRaw() }
        guard t.isCharacter("[") else {
            pushBack(t)
            pushBack(skipped)
            return nil
        }
        var depth = 0
        var tokens: [Token] = []
        while true {
            let u = nextRaw()
            switch u.kind {
            case .beginGroup: depth += 1
            case .endGroup: depth -= 1
            case .character where u.scalar == "]" && depth == 0: return tokens
            case .eof:
                pushBack(u)
                diagnostics.append(.error("tex.missing-bracket", "missing ] for this [", at: t.range))
                return tokens
            default: break
            }
            tokens.append(u)
        }
    }

    private mutating func readDelimitedArgument(until delimiter: [Token]) -> [Token]? {
        var tokens: [Token] = []
        var depth = 0
        while true {
            let t = nextRaw()
            if t.kind == .eof { pushBack(t); return nil }
            if t.kind == .beginGroup { depth += 1 }
            if t.kind == .endGroup {
                depth -= 1
                if depth < 0 { pushBack(t); return nil }
            }
            tokens.append(t)
            if depth == 0, tokens.count >= delimiter.count {
                let tail = tokens[(tokens.count - delimiter.count)...]
                if zip(tail, delimiter).allSatisfy({ sameToken($0, $1) }) {
                    tokens.removeLast(delimiter.count)
                    // A single group argument loses its braces.
                    if tokens.first?.kind == .beginGroup, tokens.last?.kind == .endGroup, isSingleGroup(tokens) {
                        tokens.removeFirst(); tokens.removeLast()
                    }
                    return tokens
                }
            }
            if tokens.count > limits.maxExpandedTokens { return nil }
        }
    }

    private func isSingleGroup(_ tokens: [Token]) -> Bool {
        var depth = 0
        for (i, t) in tokens.enumerated() {
            if t.kind == .beginGroup { depth += 1 }
            if t.kind == .endGroup { depth -= 1; if depth == 0 && i != tokens.count - 1 { return false } }
        }
        return true
    }

    // MARK: Definitions

    /// Reads the name of the command being defined: `\name` or `{\name}`.
    private mutating func readDefinedName(for command: Token) -> Token? {
        var t = nextRaw()
        while t.kind == .space { t = nextRaw() }
        if t.kind == .beginGroup {
            var inner = readBalanced(opening: t)
            inner.removeAll { $0.kind == .space }
            if inner.count == 1, inner[0].kind == .controlSequence || inner[0].kind == .active { return inner[0] }
            diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command)) expects a command name such as \\foo",
                                      at: t.range))
            return nil
        }
        if t.kind == .controlSequence || t.kind == .active { return t }
        pushBack(t)
        diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command)) expects a command name such as \\foo",
                                  at: command.range))
        return nil
    }

    private mutating func define(_ command: Token) {
        guard let name = readDefinedName(for: command) else { return }
        // Parameter text up to the body's `{`.
        var parameterText: [Token] = []
        while true {
            let t = nextRaw()
            if t.kind == .beginGroup {
                // \edef and \xdef expand their body at definition time; that is approximated by
                // storing it unexpanded, as \def does.
                let body = readBalanced(opening: t)
                store(name, Macro(parameterText: parameterText, body: body))
                return
            }
            if t.kind == .eof {
                pushBack(t)
                diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command))\\\(self.name(name)) has no body", at: command.range))
                return
            }
            if t.kind == .parameter, t.scalar == "0" || t.scalar == "#" {
                diagnostics.append(.error("tex.bad-definition", "parameters must be numbered #1, #2, …", at: t.range))
                continue
            }
            parameterText.append(t)
            if parameterText.count > 1000 { return }
        }
    }

    private mutating func newCommand(_ command: Token) {
        let starred = peekStar()
        _ = starred
        guard let name = readDefinedName(for: command) else { return }
        var count = 0
        if let countTokens = readOptionalArgument() {
            let text = self.sourceText(countTokens).trimmingCharacters()
            if let n = Int(text), (0...9).contains(n) {
                count = n
            } else {
                diagnostics.append(.error("tex.bad-definition", "the number of arguments must be 0 to 9, not '\(text)'",
                                          at: countTokens.first?.range ?? command.range))
            }
        }
        let optionalDefault = count > 0 ? readOptionalArgument() : nil
        guard let body = readArgument() else {
            diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command))\\\(self.name(name)) has no body", at: command.range))
            return
        }
        var exists = macro(named: self.name(name)) != nil
        if case .none = tables.meaning(name.entry) {} else { exists = true }
        switch self.name(command) {
        case "newcommand" where exists:
            diagnostics.append(.warning("tex.redefinition",
                "\\newcommand: \\\(self.name(name)) is already defined; use \\renewcommand to redefine it", at: name.range))
        case "renewcommand" where !exists:
            diagnostics.append(.warning("tex.redefinition",
                "\\renewcommand: \\\(self.name(name)) was not defined; use \\newcommand", at: name.range))
        case "providecommand" where exists:
            return
        default: break
        }
        store(name, Macro(parameterCount: count, body: body, optionalDefault: optionalDefault))
    }

    private mutating func letCommand(_ command: Token) {
        guard let name = readDefinedName(for: command) else { return }
        var t = nextRaw()
        while t.kind == .space { t = nextRaw() }
        if t.isCharacter("=") {
            t = nextRaw()
            if t.kind == .space { t = nextRaw() }
        }
        if t.kind == .eof {
            pushBack(t)
            diagnostics.append(.error("tex.bad-definition", "\\let\\\(self.name(name)) needs a token to copy", at: command.range))
            return
        }
        if t.kind == .controlSequence, let existing = macro(named: self.name(t)) {
            store(name, existing)
        } else {
            store(name, Macro(parameterCount: 0, body: [t]))
        }
    }

    private mutating func declareOperator(_ command: Token) {
        let starred = peekStar()
        guard let name = readDefinedName(for: command) else { return }
        guard let body = readArgument() else {
            diagnostics.append(.error("tex.bad-definition", "\\DeclareMathOperator\\\(self.name(name)) has no text", at: command.range))
            return
        }
        let r = SourceRange(0, 0)
        let expansion = [made("operatorname", r)] + (starred ? [Token(.character, scalar: "*", range: r)] : []) + Self.braced(body, r)
        store(name, Macro(parameterCount: 0, body: expansion))
    }

    /// `\DeclarePairedDelimiter\abs{\lvert}{\rvert}` (mathtools, as papers' and textbooks' preambles define `\abs` and `\norm`):
    /// `\abs{x}` is `x` between the delimiters as `\mathopen` and `\mathclose`, `\abs[\big]{x}` at that size, `\abs*{x}` between
    /// `\left` and `\right`. `\DeclarePairedDelimiterX\inner[2]{\langle}{\rangle}{#1, #2}` puts its arguments into a body of its
    /// own, in which `\delimsize` is the size (`\middle` in the starred form). The size is the macro's optional first argument.
    private mutating func declarePairedDelimiter(_ command: Token) {
        let extended = self.name(command) == "DeclarePairedDelimiterX"
        guard let name = readDefinedName(for: command) else { return }
        var count = 1
        if extended {
            count = 0
            if let countTokens = readOptionalArgument() {
                let text = self.sourceText(countTokens).trimmingCharacters()
                guard let n = Int(text), (0...8).contains(n) else {
                    diagnostics.append(.error("tex.bad-definition", "the number of arguments must be 0 to 8, not '\(text)'",
                                              at: countTokens.first?.range ?? command.range))
                    return
                }
                count = n
            }
        }
        guard let open = readArgument(), let close = readArgument() else {
            diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command))\\\(self.name(name)) needs two delimiters", at: command.range))
            return
        }
        let r = SourceRange(0, 0)
        func parameter(_ n: Int) -> Token { Token(.parameter, scalar: Unicode.Scalar(UInt8(0x30 + n)), range: r) }
        // The content: the one argument, or the body with its parameters one further on (the size is #1) and `\delimsize` the size.
        var content: [Token] = [parameter(2)], starredContent: [Token] = [parameter(2)]
        if extended {
            guard let body = readArgument() else {
                diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command))\\\(self.name(name)) has no body", at: command.range))
                return
            }
            let shifted = body.map { t -> Token in
                guard t.kind == .parameter, let n = Int(String(t.scalar)), (1...8).contains(n) else { return t }
                return parameter(n + 1)
            }
            let isSize = shifted.map { $0.kind == .controlSequence && self.name($0) == "delimsize" }
            func sized(_ size: [Token]) -> [Token] {
                zip(shifted, isSize).flatMap { t, delimsize -> [Token] in delimsize ? size : [t] }
            }
            content = sized([parameter(1)])
            starredContent = sized([made("middle", r)])
        }
        let body = [made("mathopen", r)] + Self.braced([parameter(1)] + open, r) + content
            + [made("mathclose", r)] + Self.braced([parameter(1)] + close, r)
        let starred = [made("left", r)] + open + starredContent + [made("right", r)] + close
        var macro = Macro(parameterCount: count + 1, body: body, optionalDefault: [])
        macro.starredBody = starred
        store(name, macro)
    }

    /// `\NewDocumentCommand{\Q}{}{\mathbb{Q}}`, `\DeclareDocumentCommand{\inner}{m m}{\langle #1, #2\rangle}` (xparse, now in LaTeX's
    /// kernel, as modern preambles define commands): a macro of that many mandatory arguments (`m`), the first optional when the
    /// specification begins with `o` (empty by default) or `O{default}`. Other argument types (a star `s`, delimited `r()`, …)
    /// are not read: the definition is reported and left.
    private mutating func documentCommand(_ command: Token) {
        guard let name = readDefinedName(for: command) else { return }
        guard let spec = readArgument(), let body = readArgument() else {
            diagnostics.append(.error("tex.bad-definition", "\\\(self.name(command))\\\(self.name(name)) needs an argument specification and a body",
                                      at: command.range))
            return
        }
        var count = 0
        var optionalDefault: [Token]? = nil
        var k = 0
        let items = spec.filter { $0.kind != .space }
        while k < items.count {
            let t = items[k]
            if t.isCharacter("m") {
                count += 1
            } else if count == 0, optionalDefault == nil, t.isCharacter("o") {
                optionalDefault = []
                count += 1
            } else if count == 0, optionalDefault == nil, t.isCharacter("O"), k + 1 < items.count, items[k + 1].kind == .beginGroup {
                // `O{default}`: the default's tokens up to the matching brace.
                var depth = 0, j = k + 1, value: [Token] = []
                while j < items.count {
                    if items[j].kind == .beginGroup { depth += 1; if depth == 1 { j += 1; continue } }
                    if items[j].kind == .endGroup { depth -= 1; if depth == 0 { break } }
                    value.append(items[j]); j += 1
                }
                optionalDefault = value
                count += 1
                k = j
            } else {
                diagnostics.append(.warning("tex.bad-definition",
                    "\\\(self.name(command))\\\(self.name(name)): argument type '\(self.sourceText([t]))' is not read; only m, o and O{…}",
                    at: t.range))
                return
            }
            k += 1
        }
        guard count <= 9 else {
            diagnostics.append(.error("tex.bad-definition", "the number of arguments must be 0 to 9", at: command.range))
            return
        }
        let exists = macro(named: self.name(name)) != nil
        if self.name(command) == "ProvideDocumentCommand", exists { return }
        store(name, Macro(parameterCount: count, body: body, optionalDefault: optionalDefault))
    }

    /// `\systeme{x+y=1, x-y=3}` (the systeme package, as linear algebra textbooks write their systems): the equations, split at the
    /// commas outside braces, as the rows of `\left\{\begin{array}{l}…\end{array}\right.`, the delimiters those of the formula's
    /// last `\sysdelim` (`\sysdelim..`: none). A row's comment after `@` follows its equation after a `\quad`. The star (no
    /// alignment of terms) and the unknowns in brackets (`\systeme[xyz]{…}`) change only how TeX aligns the terms, which a row
    /// of the array does not: they are read and left.
    private mutating func system(_ command: Token) {
        _ = peekStar()
        _ = readOptionalArgument()
        guard let argument = readArgument() else {
            diagnostics.append(.error("tex.missing-argument", "\\systeme needs its equations", at: command.range))
            return
        }
        let r = command.range
        func cs(_ s: String) -> Token { made(s, r) }
        func word(_ s: String) -> [Token] { Self.braced(s.unicodeScalars.map { Token(.character, scalar: $0, range: r) }, r) }
        var rows: [[Token]] = [[]]
        var depth = 0
        for t in argument {
            if t.kind == .beginGroup { depth += 1 }
            if t.kind == .endGroup { depth -= 1 }
            if depth == 0, t.isCharacter(",") { rows.append([]); continue }
            if depth == 0, t.isCharacter("@") { rows[rows.count - 1].append(cs("quad")); continue }
            rows[rows.count - 1].append(t)
        }
        rows.removeAll { $0.allSatisfy { $0.kind == .space } }
        if rows.isEmpty { return }
        let (open, close) = systemDelimiters ?? ([cs("{")], [Token(.character, scalar: ".", range: r)])
        // Without delimiters (`\sysdelim..`) the rows are an array alone, lines as `\left.` and `\right.` around them would not make them.
        func isNull(_ d: [Token]) -> Bool { d.count == 1 && d[0].isCharacter(".") }
        let fenced = !(isNull(open) && isNull(close))
        var out: [Token] = (fenced ? [cs("left")] + open : []) + [cs("begin")] + word("array") + word("l")
        for (i, row) in rows.enumerated() {
            if i > 0 { out.append(cs("\\")) }
            out.append(contentsOf: row)
        }
        out += [cs("end")] + word("array") + (fenced ? [cs("right")] + close : [])
        pushBack(out)
    }

    /// A control sequence a definition or a construct makes (`\operatorname`, `\mathopen`, `\left`…), at `range`.
    private mutating func made(_ name: String, _ range: SourceRange) -> Token {
        Token(controlSequence: lexer.tokenName(name), tables: tables, range: range)
    }

    /// `tokens` between braces, at `range`.
    private static func braced(_ tokens: [Token], _ range: SourceRange) -> [Token] {
        [Token(.beginGroup, scalar: "{", range: range)] + tokens + [Token(.endGroup, scalar: "}", range: range)]
    }

    /// `\uppercase{…}` / `\lowercase{…}`: the argument's letters with their case changed (TeXbook ch. 20).
    private mutating func changeCase(_ command: Token) {
        guard let tokens = readArgument() else {
            diagnostics.append(.error("tex.missing-argument", "\\\(self.name(command)) needs an argument", at: command.range))
            return
        }
        let upper = self.name(command) == "uppercase"
        pushBack(tokens.map { t in
            guard t.kind == .character, t.scalar.isASCII else { return t }
            var copy = t
            let s = String(Character(t.scalar))
            copy.scalar = (upper ? s.uppercased() : s.lowercased()).unicodeScalars.first!
            return copy
        })
    }

    private mutating func peekStar() -> Bool {
        let t = nextRaw()
        if t.isCharacter("*") { return true }
        pushBack(t)
        return false
    }

    /// etoolbox's booleans and toggles: `\newbool{name}` and `\newtoggle{name}` (false), `\providebool`,
    /// `\providetoggle`, `\setbool{name}{true}`, `\settoggle`, `\booltrue`, `\boolfalse`, `\toggletrue`,
    /// `\togglefalse`, and the tests `\ifbool{name}{yes}{no}`, `\notbool`, `\iftoggle`, `\nottoggle`, which
    /// expand to one branch (as a macro of two parameters, within the expansion limits). A value is kept
    /// among the macros under a name no formula can call (it holds `@`), so a document's preamble sets what
    /// its formulas test. As in etoolbox, whose booleans are `\newif`'s, `\ifbool` also tests TeX's own
    /// conditionals: `mmode` holds in a formula (APEX Calculus's `\primeskip` is
    /// `\ifbool{mmode}{\mkern1.35mu}{\kern.075em}`, in 244 of its formulas, session 54). A name never
    /// defined (`latexml`, `xetex`: set by the engine that typesets) is false, the branch a plain LaTeX
    /// run takes.
    private mutating func etoolbox(_ command: Token) {
        let name = self.name(command)
        let isToggle = name.hasSuffix("toggle")
        guard let flagTokens = readArgument() else {
            diagnostics.append(.error("tex.missing-argument", "\\\(name) needs the name of a \(isToggle ? "toggle" : "boolean")",
                                      at: command.range))
            return
        }
        let flag = sourceText(flagTokens).trimmingCharacters()
        let key = (isToggle ? "etoolbox@toggle@" : "etoolbox@bool@") + flag
        func set(_ value: Bool) {
            macros[key] = Macro(parameterCount: 0, body: value ? [Token(.character, scalar: "1", range: command.range)] : [])
        }
        switch name {
        case "newbool", "newtoggle": set(false)
        case "providebool", "providetoggle": if macros[key] == nil { set(false) }
        case "booltrue", "toggletrue": set(true)
        case "boolfalse", "togglefalse": set(false)
        case "setbool", "settoggle":
            guard let value = readArgument() else {
                diagnostics.append(.error("tex.missing-argument", "\\\(name){\(flag)} needs a value, true or false", at: command.range))
                return
            }
            set(sourceText(value).trimmingCharacters() == "true")
        default:
            var holds = macros[key].map { !$0.body.isEmpty } ?? (!isToggle && flag == "mmode")
            if name.hasPrefix("not") { holds.toggle() }
            let branch = Token(.parameter, scalar: holds ? "1" : "2", range: command.range)
            expand(Macro(parameterCount: 2, body: [branch]), call: command)
        }
    }

    /// The macro `name` names: one of the options or defined in the formula (``macros``), else a
    /// built-in one. ``BuiltinMacros/table`` is made on first use, not with every parser: most
    /// formulas use none, and making it cost every start-up ~6 M instructions (`BENCHMARKS.md`).
    private func macro(named name: String) -> Macro? { macros[name] ?? BuiltinMacros.table[name] }

    private mutating func store(_ name: Token, _ macro: Macro) {
        let key = name.kind == .active ? "~" : self.name(name)
        macros[key] = macro
        hasOtherMacros = true
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
