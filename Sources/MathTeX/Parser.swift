import Foundation
import MathSyntax

/// Parses TeX math into a ``MathNode`` tree.
///
/// Stages (DESIGN.md §3): ``Lexer`` → ``Expander`` (macros, definitions, limits) → parser (this file
/// and the command registry in `Commands/`). The parser recovers from errors: a bad part becomes an
/// error node with a diagnostic and parsing goes on. `TeXParser` is immutable and `Sendable`; each
/// `parse` call has its own state.
public struct TeXParser: Sendable {
    /// The options every parse uses.
    public let options: TeXParserOptions
    /// ``options`` shared with every parse by reference.
    private let sharedOptions: SharedParserOptions
    private let userMacros: [String: Macro]
    /// Whether the options define macros (beyond the built-in ones).
    private let hasUserMacros: Bool
    /// Macros of the options whose names no TeX input can call (`\a#1`, `\m1`): reported with every
    /// parse, since they define nothing.
    private let macroProblems: [Diagnostic]
    /// Problems in ``TeXParserOptions/definitions`` (ranges into it), found when the parser was made.
    public let definitionDiagnostics: [Diagnostic]

    /// Creates a parser. User macros and definitions in `options` are read once here.
    public init(options: TeXParserOptions = TeXParserOptions()) {
        self.options = options
        self.sharedOptions = SharedParserOptions(options)
        // The built-in macros are not copied in: the expander falls back to them (``BuiltinMacros/table``).
        var macros: [String: Macro] = [:]
        var problems: [Diagnostic] = []
        for (name, body) in options.macros.sorted(by: { $0.key < $1.key }) {
            if let problem = TeXParserOptions.problem(withMacroName: name) {
                problems.append(.error("tex.bad-definition", "the macro '\(name)' of the parser options defines nothing: \(problem)", at: nil))
                continue
            }
            let key = name.hasPrefix("\\") ? String(name.dropFirst()) : name
            macros[key] = Macro.fromSource(body)
        }
        if options.definitions.isEmpty {
            definitionDiagnostics = []
        } else {
            let defined = Expander.definitions(in: options.definitions, adding: macros, limits: options.limits)
            macros = defined.macros
            definitionDiagnostics = defined.diagnostics
        }
        self.userMacros = macros
        self.hasUserMacros = !options.macros.isEmpty || !options.definitions.isEmpty
        self.macroProblems = problems
    }

    /// Parses one formula (math mode, without `$` delimiters).
    public func parse(_ tex: String) -> TeXParseResult {
        var tex = tex
        let result = tex.withUTF8 { parse(bytes: $0) }
        return withMacroProblems(result)
    }

    /// Parses one formula given as UTF-8 bytes (invalid sequences read as U+FFFD).
    public func parse(utf8 bytes: [UInt8]) -> TeXParseResult {
        let result = bytes.withUnsafeBufferPointer { parse(bytes: $0) }
        return withMacroProblems(result)
    }

    /// `result` with the problems of the definitions first.
    private func withMacroProblems(_ result: TeXParseResult) -> TeXParseResult {
        if macroProblems.isEmpty { return result }
        var joined = TeXParseResult(root: result.root, diagnostics: macroProblems + result.diagnostics)
        joined.expansionsSpent = result.expansionsSpent
        joined.expandedTokensSpent = result.expandedTokensSpent
        return joined
    }

    /// Parses the formula in `bytes`, which the parse reads in place.
    private func parse(bytes: UnsafeBufferPointer<UInt8>) -> TeXParseResult {
        if bytes.count > options.limits.maxInputBytes {
            let range = SourceRange(0, bytes.count)
            let d = Diagnostic.error("tex.input-too-large",
                "the formula is \(bytes.count) bytes; the limit is \(options.limits.maxInputBytes)", at: range)
            return TeXParseResult(root: MathNode(.error(String(decoding: bytes.prefix(200), as: UTF8.self) + "…"), range: range),
                                  diagnostics: [d])
        }
        // The parser's stacks start in memory on the call stack, room for a typical formula.
        return withUnsafeTemporaryAllocation(of: MathNode.self, capacity: 64 + 3 * ParserCore.scriptSlots) { itemMemory in
            withUnsafeTemporaryAllocation(of: Token.self, capacity: 16) { tokenMemory in
                var core = ParserCore(bytes: bytes, macros: userMacros, hasUserMacros: hasUserMacros, options: sharedOptions,
                                      itemMemory: itemMemory, tokenMemory: tokenMemory)
                defer { core.release() }
                let root = core.parseTop()
                var result: TeXParseResult
                if core.diagnostics.isEmpty && core.expander.diagnostics.isEmpty {
                    result = TeXParseResult(root: root, diagnostics: [])
                } else {
                    var diagnostics = core.diagnostics + core.expander.diagnostics
                    diagnostics.sort { ($0.range?.lowerBound ?? 0) < ($1.range?.lowerBound ?? 0) }
                    result = TeXParseResult(root: root, diagnostics: Self.bounded(diagnostics, limit: options.limits.maxDiagnostics))
                }
                (result.expansionsSpent, result.expandedTokensSpent) = core.expander.spent
                return result
            }
        }
    }

    /// `diagnostics` with repeats dropped (the same id, message and range: a macro expanded a thousand
    /// times reports its unknown command once) and at most `limit` kept, followed by the note
    /// `tex.diagnostics-truncated` saying how many were left out. A diagnostic that refuses the input
    /// (`tex.expansion-limit`) is always kept, so the reason a formula was refused is never cut.
    static func bounded(_ diagnostics: [Diagnostic], limit: Int) -> [Diagnostic] {
        if diagnostics.count < 2 { return diagnostics }
        var seen = Set<Diagnostic>()
        var unique: [Diagnostic] = []
        unique.reserveCapacity(min(diagnostics.count, limit + 1))
        var omitted = 0
        var kept = 0
        for d in diagnostics where seen.insert(d).inserted {
            if kept < limit || d.id.rejectsInput {
                unique.append(d)
                kept += 1
            } else {
                omitted += 1
            }
        }
        if omitted > 0 {
            let range = unique.last?.range
            unique.append(Diagnostic(id: "tex.diagnostics-truncated", severity: .note,
                                     message: "\(omitted) more diagnostics not shown (limit \(limit) per formula)", range: range))
        }
        return unique
    }

    /// Whether `name` (without backslash) is a command, environment-free symbol or built-in macro
    /// this parser understands.
    public static func isKnownCommand(_ name: String) -> Bool {
        let tables = ParserTables.shared
        let entry = tables.entry(name)
        return entry >= 0 && tables.controlSequences[Int(entry)].role != .closeParen   // as allKnownCommands
    }

    /// Every command name the parser knows (registry, symbols, built-in macros and the structural
    /// commands), sorted.
    public static var knownCommands: [String] { allKnownCommands }

    /// The parser tables' names, sorted (the registry's, the symbol table's, the built-in macros',
    /// the roles' and `\verb`, which the lexer reads) but `\)`, which only closes `\(…\)` inside
    /// `\text{…}`.
    private static let allKnownCommands: [String] =
        ParserTables.shared.controlSequences.compactMap { $0.role == .closeParen ? nil : $0.name }.sorted()

    /// Whether `name` (without backslash) is a plain symbol of the symbol table.
    public static func isSymbol(_ name: String) -> Bool { SymbolTable.math(name) != nil }

    /// Every environment name the parser knows, sorted.
    public static var knownEnvironments: [String] { EnvironmentRegistry.table.keys.sorted() }
}

/// Which tokens end an expression being parsed.
struct StopSet: OptionSet, Sendable {
    let rawValue: UInt16
    static let endGroup = StopSet(rawValue: 1)
    static let right = StopSet(rawValue: 2)
    static let middle = StopSet(rawValue: 4)
    static let end = StopSet(rawValue: 8)
    static let alignment = StopSet(rawValue: 16)
    static let newline = StopSet(rawValue: 32)
    static let closeBracket = StopSet(rawValue: 64)
    static let mathShift = StopSet(rawValue: 128)
    static let closeParen = StopSet(rawValue: 256)   // \) for \text{\(…\)}
}

/// Parsing mode: math or text (inside `\text{…}`).
enum Mode: Sendable { case math, text }

/// How a large operator places its limits.
enum LimitsMode: Sendable { case auto, limits, noLimits }

/// An item of an expression as read, before any scripts: its node and how scripts attach to it.
struct Atom {
    var node: MathNode
    /// The range scripts extend (the node's, or the command's when the node has none).
    var range: SourceRange?
    /// Scripts go under/over by default (large operators with limits, `\overbrace`, `\lim`).
    var takesLimits: Bool = false
    /// Under/over scripts for `\underbrace`/`\overbrace` labels: the script goes to this side.
    var bracePosition: BracePosition = .none

    enum BracePosition { case none, over, under }
}

/// What an expression knows of the item it read last while scripts, primes and `\limits` may
/// still change it. The item's node is on top of the item stack; scripts are added to it only
/// when the next item starts or the expression ends, so an item without scripts (most of them)
/// is never touched again.
///
/// The item's subscript, superscript and primes wait on the parser's script stacks (``ParserCore/subs``,
/// ``ParserCore/sups``, ``ParserCore/primes``), where an expression's entries are on top whenever
/// it reads on (those of the expressions inside its scripts are gone by then): the item holds no
/// references, so it is made and dropped without reference counting (`MathAloudBench stages` under
/// callgrind: three releases an expression).
struct LastItem {
    /// Whether the expression has read an item since it began (or since an infix `\over`).
    var exists = false
    /// The item's range, extended by its scripts.
    var range: SourceRange?
    var takesLimits = false
    var bracePosition: Atom.BracePosition = .none
    var limits: LimitsMode = .auto
    /// The scripts waiting: bit 0 a subscript, bit 1 a superscript, the bits above the number of
    /// primes. One field, so that the test every item makes (``hasScripts``) is one comparison: the
    /// three tests of three fields cost ~4 instructions and a mispredicted branch in every 20 items
    /// (`MathAloudBench stages` under callgrind, session 39).
    private var scripts: UInt = 0
    /// A subscript waits on ``ParserCore/subs``.
    var hasSub: Bool {
        get { scripts & 1 != 0 }
        set { scripts = newValue ? scripts | 1 : scripts & ~1 }
    }
    /// A superscript waits on ``ParserCore/sups``.
    var hasSup: Bool {
        get { scripts & 2 != 0 }
        set { scripts = newValue ? scripts | 2 : scripts & ~2 }
    }
    /// The number of primes waiting on ``ParserCore/primes``.
    var primeCount: Int {
        get { Int(scripts >> 2) }
        set { scripts = UInt(newValue) << 2 | scripts & 3 }
    }

    /// Whether scripts or primes were attached.
    var hasScripts: Bool { scripts != 0 }

    /// Takes the scripts away (they have been attached).
    mutating func clearScripts() { scripts = 0 }
}

/// The parser's state for one parse. Command builders receive it `inout`.
struct ParserCore {
    var expander: Expander
    var diagnostics: [Diagnostic] = []
    /// The parser's options, held by reference: copying them into every parse cost their reference
    /// counts (`MathAloudBench stages` under callgrind).
    private let sharedOptions: SharedParserOptions
    var options: TeXParserOptions { sharedOptions.options }
    /// `options.limits`, read on the hot path (every group's nesting check).
    let texLimits: TeXLimits
    /// The formula's bytes, read in place.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The shared tables of control sequences and characters.
    let tables: ParserTables
    var mode: Mode = .math
    var depth = 0
    /// The math alphabet in force (`\mathbf{…}`), applied to letters as they are read.
    var font: MathVariant?
    /// Letters are merged into one identifier (upright text fonts and `\operatorname`).
    var mergeLetters = false
    /// The alphabet of digits under ``font``: upright digits are the default (nil), and TeX's bold
    /// symbols set digits bold upright (`\boldsymbol{2}`, `\bm{2}` are `\mathbf{2}`).
    var digitVariant: MathVariant? {
        switch font {
        case .normal?: return nil
        case .boldItalic?: return .bold
        default: return font
        }
    }
    /// The text font in force (`\textbf{…}`).
    var textFont: MathVariant?
    /// Text is set in small capitals (`\textsc{…}`).
    var textSmallCaps = false
    /// The text size a size command set in math mode (`\tiny` 0.5 …), for the rest of the group: it
    /// sizes nothing of the math, but the text font it selects sets `\text{…}` and the interword space
    /// of `~` and `\ ` (as LaTeX's `\@setfontsize` does after its "invalid in math mode" warning).
    var mathTextSize: Double?

    /// The width of `~`, `\ ` and `\nobreakspace` in math: the interword space of the text font, at
    /// the text size in force.
    var interwordSpace: Double {
        mathTextSize.map(StyleCommands.interwordSpace(size:)) ?? SpacingCommands.interwordSpace
    }
    /// `\tag{…}` seen in the current row or formula.
    var pendingTag: MathNode?
    var tableCellCount = 0
    /// The stop tokens of the innermost expression being parsed (so a switch such as `\small` inside
    /// `\sqrt[…]` stops at the `]`).
    var activeStops: StopSet = []
    /// Fix-it suggestions already computed for unknown command names.
    var suggestions: [String: String?] = [:]
    /// The items of the expressions being parsed, innermost last: each `parseItems` call adds its
    /// items above the count it started at and removes them when done, so one stack serves the
    /// whole parse instead of a new, growing array per group. (An expression's last item may still
    /// get scripts: see ``LastItem``.)
    var itemStack: LentStack<MathNode>
    /// The subscripts, superscripts and primes of the expressions' last items (see ``LastItem``).
    var subs: LentStack<MathNode>
    var sups: LentStack<MathNode>
    var primes: LentStack<MathNode>
    /// The room for each script stack at the end of the item memory a parser is lent.
    static let scriptSlots = 8

    /// A parser for the formula in `bytes`, which it reads in place, with memory for its stacks of
    /// items and tokens (it must outlive none of them; see ``release()``).
    init(bytes: UnsafeBufferPointer<UInt8>, macros: [String: Macro], hasUserMacros: Bool, options: SharedParserOptions,
         itemMemory: UnsafeMutableBufferPointer<MathNode>, tokenMemory: UnsafeMutableBufferPointer<Token>) {
        self.bytes = bytes
        self.sharedOptions = options
        self.texLimits = options.options.limits
        self.tables = ParserTables.shared
        self.expander = Expander(bytes: bytes, tables: tables, macros: macros, hasUserMacros: hasUserMacros,
                                 limits: texLimits, tokenMemory: tokenMemory)
        // The item memory's last slots hold the script stacks (when it has room for them).
        let slots = itemMemory.count >= 4 * ParserCore.scriptSlots ? ParserCore.scriptSlots : 0
        let itemCount = itemMemory.count - 3 * slots
        self.itemStack = LentStack(memory: UnsafeMutableBufferPointer(rebasing: itemMemory[0 ..< itemCount]))
        self.subs = LentStack(memory: UnsafeMutableBufferPointer(rebasing: itemMemory[itemCount ..< itemCount + slots]))
        self.sups = LentStack(memory: UnsafeMutableBufferPointer(rebasing: itemMemory[itemCount + slots ..< itemCount + 2 * slots]))
        self.primes = LentStack(memory: UnsafeMutableBufferPointer(rebasing: itemMemory[itemCount + 2 * slots ..< itemCount + 3 * slots]))
    }

    /// Frees what the parser holds beyond the memory it was lent; call once, at the end of the parse.
    mutating func release() {
        itemStack.release()
        subs.release()
        sups.release()
        primes.release()
        expander.release()
    }

    // MARK: Diagnostics

    mutating func error(_ id: DiagnosticID, _ message: String, at range: SourceRange?, fixIts: [Diagnostic.FixIt] = []) {
        // Bound the number of diagnostics so hostile input cannot allocate without limit.
        guard diagnostics.count < 1000 else { return }
        diagnostics.append(.error(id, message, at: range, fixIts: fixIts))
    }

    mutating func warning(_ id: DiagnosticID, _ message: String, at range: SourceRange?) {
        guard diagnostics.count < 1000 else { return }
        diagnostics.append(.warning(id, message, at: range))
    }

    func sourceText(_ range: SourceRange?) -> String {
        guard let range else { return "" }
        let lo = min(max(0, range.lowerBound), bytes.count), hi = min(max(lo, range.upperBound), bytes.count)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self)
    }

    // MARK: Tokens

    /// The name of a control sequence token, or the text of a verbatim token.
    @inline(__always)
    func name(_ t: Token) -> String { expander.name(t) }

    /// Whether `t` is the control sequence `\name`.
    @inline(__always)
    func isControlSequence(_ t: Token, _ name: String) -> Bool { expander.isControlSequence(t, name) }

    /// The token written back as TeX.
    func sourceText(_ t: Token) -> String { expander.sourceText(t) }

    /// The tokens written back as TeX, trimming the trailing space a control word adds.
    func sourceText(_ tokens: [Token]) -> String { expander.sourceText(tokens) }

    mutating func next() -> Token { expander.next() }
    mutating func peek() -> Token { expander.peek() }
    mutating func pushBack(_ t: Token) { expander.pushBack(t) }

    /// The next token that is not a space (math mode ignores spaces).
    mutating func nextNonSpace() -> Token {
        expander.next(skippingSpaces: true)
    }

    mutating func peekNonSpace() -> Token {
        let t = nextNonSpace()
        pushBack(t)
        return t
    }

    // MARK: Top level

    mutating func parseTop() -> MathNode {
        // Most formulas are read in one expression, whose items become the root's children as they
        // are (one to three need no array).
        var items: MathNode.Children
        switch parseItems(until: []) {
        case .one(let node): items = MathNode.Children(node)
        case .many(let nodes): items = nodes
        }
        // Anything left (a stray `}` etc.) was reported inside; drain to the end.
        var t = nextNonSpace()
        if t.kind != .eof {
            var all = Array(items)
            repeat {
                pushBack(t)
                all.append(contentsOf: parseExpression(until: []))
                t = nextNonSpace()
            } while t.kind != .eof
            items = MathNode.Children(all)
        }
        let range = SourceRange(0, bytes.count)
        if let tag = pendingTag {
            pendingTag = nil
            let row = MathNode(.tableRow(labeled: true), [
                MathNode(.tableCell, [tag], range: tag.range),
                MathNode(.tableCell, children: items, range: range),
            ], range: range)
            return MathNode(.table(TableProperties(environment: "equation", columnAlignments: [.center],
                                                   displayStyle: options.displayMode, numbered: true)), [row], range: range)
        }
        return MathNode(.row, children: items, range: range)
    }

    // MARK: Expressions

    /// Parses items until a token in `stop` (not consumed) or the end of input.
    mutating func parseExpression(until stop: StopSet) -> [MathNode] {
        switch parseItems(until: stop) {
        case .one(let node): return [node]
        case .many(let nodes): return Array(nodes)
        }
    }

    /// The items of an expression: one node is kept apart, so that a group of one item (`x_{1}`)
    /// is that node; more are a node's children (up to three without an array).
    enum Items {
        case one(MathNode)
        case many(MathNode.Children)

        var last: MathNode? {
            switch self {
            case .one(let node): return node
            case .many(let nodes): return nodes.last
            }
        }
    }

    /// ``parseExpression(until:)`` returning ``Items``.
    mutating func parseItems(until stop: StopSet) -> Items {
        let savedStops = activeStops
        activeStops = stop
        defer { activeStops = savedStops }
        let base = itemStack.count
        var last = LastItem()
        var infix: (token: Token, thickness: Double?)? = nil
        var numerator = MathNode.Children()
        loop: while true {
            // Math mode ignores spaces: they are skipped before they become tokens. (The expander and
            // the lexer are inlined here: see ``Expander/nextInline(skippingSpaces:)``.)
            let t = expander.nextInline(skippingSpaces: true)
            switch t.kind {
            case .eof:
                pushBack(t)
                break loop
            case .space:
                continue
            case .endGroup:
                if stop.contains(.endGroup) { pushBack(t); break loop }
                reportMisplaced(t)
                continue
            case .alignment:
                if stop.contains(.alignment) { pushBack(t); break loop }
                reportMisplaced(t)
                continue
            case .mathShift:
                if stop.contains(.mathShift) { pushBack(t); break loop }
                reportMisplaced(t)
                continue
            case .superscript, .subscript:
                attachScript(t, to: &last)
                continue
            case .parameter:
                reportMisplaced(t)
                continue
            case .character where t.scalar == "'":
                attachPrime(t, to: &last)
                continue
            case .character where t.scalar.value >= 0xB2 && mode == .math && ParserCore.unicodeScript(t.scalar) != nil:
                rewriteUnicodeScripts(first: t)
                continue
            case .character where t.scalar == "]" && stop.contains(.closeBracket):
                pushBack(t)
                break loop
            case .controlSequence:
                switch t.role {
                case .right:
                    if stop.contains(.right) { pushBack(t); break loop }
                    reportMisplaced(t)
                    continue
                case .middle:
                    if stop.contains(.middle) { pushBack(t); break loop }
                    reportMisplaced(t)
                    continue
                case .end:
                    if stop.contains(.end) { pushBack(t); break loop }
                    reportMisplaced(t)
                    continue
                case .lineBreak, .crOrNewline:
                    if stop.contains(.newline) { pushBack(t); break loop }
                    if t.role == .lineBreak { _ = readRowSpacing() }
                    continue  // a line break outside a table is ignored (as KaTeX does in inline math)
                case .closeParen:
                    if stop.contains(.closeParen) { pushBack(t); break loop }
                case .infix:
                    if infix != nil {
                        reportMisplaced(t)
                        continue
                    }
                    var thickness: Double? = nil
                    if self.name(t) == "above" { thickness = readDimensionTokens().map { $0 } ?? nil }
                    infix = (t, thickness)
                    numerator = finishItems(from: base, last: &last)
                    last.exists = false
                    continue
                case .limits:
                    if !last.exists {
                        reportMisplaced(t)
                    } else {
                        let name = self.name(t)
                        last.limits = name == "limits" ? .limits : name == "nolimits" ? .noLimits : .auto
                    }
                    continue
                case .noNumber:
                    continue
                case .interText:
                    // amsmath ends the row before `\intertext` (it starts a row of prose): a table reads it
                    // at its next row's start (``parseTable``); outside a table it is misplaced, and the
                    // text after it is read on.
                    if stop.contains(.newline) { pushBack(t); break loop }
                    error("tex.misplaced-hline", "\\\(self.name(t)) is only allowed between the rows of an environment such as align", at: t.range)
                    continue
                default:
                    break
                }
            default:
                break
            }
            if let atom = parseAtom(t) { append(consume atom, last: &last) }
        }
        if last.hasScripts { attachScripts(&last) }
        if infix == nil, itemStack.count == base + 1 {
            return .one(itemStack.pop())
        }
        let items = finishItems(from: base, last: &last)
        if let infix {
            return .one(buildInfix(infix.token, thickness: infix.thickness, numerator: numerator, denominator: items))
        }
        return .many(items)
    }

    /// Reports `t`, a token out of place in the expression being read: a `}`, `&` or `$` that ends
    /// nothing here, a parameter, `\right`, `\middle` or `\end` without what opens it (the delimiter or
    /// environment name after them is read), a second infix command, `\limits` after no item.
    ///
    /// (Out of line: with these reports in ``parseItems(until:)``, every expression set up their
    /// messages' strings before its loop, ~50 instructions, `MathAloudBench stages` under callgrind,
    /// session 36.)
    @inline(never)
    private mutating func reportMisplaced(_ t: Token) {
        switch t.kind {
        case .endGroup:
            error("tex.unmatched-brace", "unmatched }", at: t.range, fixIts: [.init(range: t.range, replacement: "")])
        case .alignment:
            error("tex.misplaced-alignment", "& is only allowed inside an environment such as aligned or matrix", at: t.range)
        case .mathShift:
            error("tex.misplaced-math-shift", "$ inside math; the formula is already math", at: t.range)
        case .parameter:
            error("tex.misplaced-parameter", "# is only allowed in macro definitions", at: t.range)
        case .controlSequence:
            switch t.role {
            case .right:
                error("tex.unmatched-right", "\\right without a matching \\left", at: t.range)
                _ = parseDelimiter(after: t)
            case .middle:
                error("tex.misplaced-middle", "\\middle is only allowed between \\left and \\right", at: t.range)
                _ = parseDelimiter(after: t)
            case .end:
                let name = readEnvironmentName(after: t)
                error("tex.unmatched-end", "\\end{\(name)} without a matching \\begin", at: t.range)
            case .infix:
                error("tex.ambiguous-infix", "only one \\\(self.name(t)) (or \\over, \\atop, \\choose) per group", at: t.range)
            case .limits:
                error("tex.misplaced-limits", "\\\(self.name(t)) must follow a large operator", at: t.range)
            default:
                break
            }
        default:
            break
        }
    }

    private mutating func buildInfix(_ token: Token, thickness: Double?, numerator: MathNode.Children,
                                     denominator: MathNode.Children) -> MathNode {
        let num = MathNode.row(numerator), den = MathNode.row(denominator)
        let range = SourceRange.union(SourceRange.union(num.range, den.range), token.range)
        let name = self.name(token)
        switch name {
        case "over": return MathNode(.fraction(FractionProperties()), [num, den], range: range)
        case "above": return MathNode(.fraction(FractionProperties(lineThickness: thickness)), [num, den], range: range)
        case "atop": return MathNode(.fraction(FractionProperties(lineThickness: 0)), [num, den], range: range)
        default:
            let (open, close) = name == "choose" ? ("(", ")") : name == "brace" ? ("{", "}") : ("[", "]")
            let frac = MathNode(.fraction(FractionProperties(lineThickness: 0)), [num, den], range: range)
            return MathNode(.fenced(open: open, close: close), [frac], range: range)
        }
    }

    /// Puts `atom` on the item stack as the expression's last item (`last`), after adding the
    /// scripts of the item before.
    /// (The atom is consumed and its node moved onto the stack: copying the node out of it cost a
    /// retain and a release an item, `MathAloudBench stages` under callgrind.)
    @inline(__always)
    private mutating func append(_ atom: consuming Atom, last: inout LastItem) {
        if last.hasScripts { attachScripts(&last) }
        last.exists = true
        last.range = atom.range
        last.takesLimits = atom.takesLimits
        last.bracePosition = atom.bracePosition
        last.limits = .auto
        itemStack.push((consume atom).node)
    }

    /// The items of the expression whose items are above `base` on the item stack and whose last
    /// item is `last`, in order; removes them.
    mutating func finishItems(from base: Int, last: inout LastItem) -> MathNode.Children {
        if last.hasScripts { attachScripts(&last) }
        return takeChildren(from: base)
    }

    /// The nodes above `start` on the item stack, in order, moved off it as a node's children: up to
    /// three without an array (see ``MathNode/Children``).
    @inline(__always)
    mutating func takeChildren(from start: Int) -> MathNode.Children {
        switch itemStack.count - start {
        case 0: return MathNode.Children()
        case 1: return MathNode.Children(itemStack.pop())
        case 2:
            let b = itemStack.pop()
            return MathNode.Children(itemStack.pop(), b)
        case 3:
            let c = itemStack.pop(), b = itemStack.pop()
            return MathNode.Children(itemStack.pop(), b, c)
        default: return MathNode.Children(itemStack.take(from: start))
        }
    }

    /// Replaces the node on top of the item stack by that node with the scripts of `last`, which
    /// are moved out of it: under/over or sub/sup, as the item's limits mode, `takesLimits` and brace
    /// position place them.
    ///
    /// (The scripts and primes are taken out of `last` without reference counting. The scripts are
    /// moved onto the item stack beside the node, and the two or three taken off together as the
    /// scripted node's children: an array literal of them copied each, a retain and a release,
    /// `MathAloudBench stages` under callgrind, session 36.)
    private mutating func attachScripts(_ last: inout LastItem) {
        let mark = itemStack.count - 1    // the node
        let hasSub = last.hasSub
        var hasSup = last.hasSup
        let primed = last.primeCount > 0
        if hasSub { itemStack.push(subs.pop()) }
        if primed {
            let combined = Self.combinedPrimes(self.primes.take(from: self.primes.count - last.primeCount))
            let row = MathNode.row(combined)
            if hasSup {
                let s = sups.pop()
                itemStack.push(MathNode(.row, combined + (s.kind == .row ? Array(s.children) : [s]),
                                        range: SourceRange.union(row.range, s.range)))
            } else {
                itemStack.push(row)
                hasSup = true
            }
        } else if hasSup {
            itemStack.push(sups.pop())
        }
        last.clearScripts()
        let range = SourceRange.union(SourceRange.union(last.range ?? itemStack[mark].range,
                                                        hasSub ? itemStack[mark + 1].range : nil),
                                      hasSup ? itemStack[itemStack.count - 1].range : nil)
        var underOver: Bool
        switch last.limits {
        case .limits: underOver = true
        case .noLimits: underOver = false
        case .auto: underOver = last.takesLimits
        }
        if last.bracePosition != .none { underOver = true }
        if primed && !hasSub && !last.takesLimits { underOver = false }
        // Explicit \limits: above and below in every style, so the limits no longer move to script
        // positions in text style.
        if underOver && last.limits == .limits, case .operator(let text, var properties) = itemStack[mark].kind,
           properties.movableLimits {
            properties.movableLimits = false
            let base = itemStack[mark]
            itemStack[mark] = MathNode(.operator(text, properties), children: base.children, range: base.range,
                                       attributes: base.attributes)
        }
        let kind: MathNode.Kind
        switch (hasSub, hasSup) {
        case (true, true): kind = underOver ? .underOver(UnderOverProperties()) : .subSuperscript
        case (true, false): kind = underOver ? .under(UnderOverProperties()) : .subscript
        case (false, true): kind = underOver ? .over(UnderOverProperties()) : .superscript
        case (false, false): return    // no scripts: the node stays as it is
        }
        // The children go straight into the node (a `Children` held in a variable first was copied
        // and destroyed, ~80 instructions a scripted node, `MathAloudBench stages` under callgrind, session 37).
        switch itemStack.count - mark {
        case 2:
            let b = itemStack.pop(), a = itemStack.pop()
            itemStack.push(MathNode(kind, children: MathNode.Children(a, b), range: range))
        case 3:
            let c = itemStack.pop(), b = itemStack.pop(), a = itemStack.pop()
            itemStack.push(MathNode(kind, children: MathNode.Children(a, b, c), range: range))
        default:
            itemStack.push(MathNode(kind, itemStack.take(from: mark), range: range))
        }
    }

    /// Primes typed as `'` (each a `′` operator) as unicode-math sets them: two, three or four are one
    /// character, the double, triple or quadruple prime (″ ‴ ⁗), narrower than primes side by side;
    /// more stay single primes. (`^{\prime\prime}` is two primes, as TeX sets it.)
    static func combinedPrimes(_ primes: [MathNode]) -> [MathNode] {
        guard (2...4).contains(primes.count) else { return primes }
        let range = primes.reduce(nil) { SourceRange.union($0, $1.range) }
        return [MathNode(.operator(["\u{2033}", "\u{2034}", "\u{2057}"][primes.count - 2], .ordinary), range: range)]
    }

    /// Attaches a script to the expression's last item (`last`).
    private mutating func attachScript(_ t: Token, to last: inout LastItem) {
        if !last.exists {
            // A script with no base (`^2`, `{}_a`) attaches to an empty base.
            append(Atom(node: MathNode(.row, [], range: SourceRange(t.range.lowerBound, t.range.lowerBound)),
                        range: t.range), last: &last)
        }
        // The script's own items are pushed and removed above ours, so the top item is ours again.
        guard let script = parseScriptArgument(after: t) else { return }
        if t.kind == .superscript {
            if last.hasSup {
                error("tex.double-superscript", "double superscript; use braces: x^{a^b} or {x^a}^b", at: t.range)
                append(Atom(node: MathNode(.row, [], range: t.range), range: t.range), last: &last)
                sups.push(script)
                last.hasSup = true
                return
            }
            sups.push(script)
            last.hasSup = true
        } else {
            if last.hasSub {
                error("tex.double-subscript", "double subscript; use braces: x_{a_b} or {x_a}_b", at: t.range)
                append(Atom(node: MathNode(.row, [], range: t.range), range: t.range), last: &last)
                subs.push(script)
                last.hasSub = true
                return
            }
            subs.push(script)
            last.hasSub = true
        }
        last.range = SourceRange.union(last.range, script.range)
    }

    /// A run of Unicode superscript or subscript characters (`x²`, `10⁻³`, `aᵢⱼ`, `x₁₀`) is the script it
    /// spells, as unicode-math reads it: the run is put back as `^{…}` or `_{…}` with the ASCII characters it
    /// stands for (each at its own place in the source), so that `x²` is the power `x^2`, not x times a
    /// character that happens to be read "squared".
    private mutating func rewriteUnicodeScripts(first: Token) {
        guard let (isSuper, ascii) = ParserCore.unicodeScript(first.scalar) else { return }
        var tokens = [Token(isSuper ? .superscript : .subscript, scalar: isSuper ? "^" : "_",
                            range: SourceRange(first.range.lowerBound, first.range.lowerBound)),
                      Token(.beginGroup, scalar: "{", range: SourceRange(first.range.lowerBound, first.range.lowerBound)),
                      Token(.character, scalar: ascii, range: first.range)]
        var end = first.range.upperBound
        // The run ends at the first token of another kind (a script of the other kind starts its own run).
        while true {
            let n = nextNonSpace()
            guard n.kind == .character, let (same, a) = ParserCore.unicodeScript(n.scalar), same == isSuper else {
                pushBack(n)
                break
            }
            tokens.append(Token(.character, scalar: a, range: n.range))
            end = n.range.upperBound
        }
        tokens.append(Token(.endGroup, scalar: "}", range: SourceRange(end, end)))
        expander.pushBack(tokens)
    }

    /// For a Unicode superscript or subscript character, whether it is a superscript and the character it
    /// raises or lowers (`⁷` → (true, "7"), `ᵢ` → (false, "i"), `ᵝ` → (true, "β"), `₋` → (false, "-")): the
    /// letters and digits from the Unicode data of the styled characters (``UnicodeMath/alphabet(of:)``, fonts
    /// `superscript` and `subscript`), the signs, parentheses and Latin-1's ¹ ² ³ here.
    static func unicodeScript(_ u: Unicode.Scalar) -> (Bool, Unicode.Scalar)? {
        switch u.value {
        case 0xB2: return (true, "2")
        case 0xB3: return (true, "3")
        case 0xB9: return (true, "1")
        case 0x207A...0x207E: return (true, scriptSigns[Int(u.value - 0x207A)])
        case 0x208A...0x208E: return (false, scriptSigns[Int(u.value - 0x208A)])
        default:
            guard let a = UnicodeMath.alphabet(of: u), a.font == "superscript" || a.font == "subscript",
                  let base = a.base.unicodeScalars.first, a.base.unicodeScalars.count == 1 else { return nil }
            return (a.font == "superscript", base)
        }
    }

    /// What ⁺ ⁻ ⁼ ⁽ ⁾ and ₊ ₋ ₌ ₍ ₎ raise or lower, in code point order.
    private static let scriptSigns: [Unicode.Scalar] = ["+", "-", "=", "(", ")"]

    /// Attaches a prime to the expression's last item (`last`).
    private mutating func attachPrime(_ t: Token, to last: inout LastItem) {
        if !last.exists {
            append(Atom(node: MathNode(.row, [], range: SourceRange(t.range.lowerBound, t.range.lowerBound)), range: t.range),
                   last: &last)
        }
        if last.hasSup {
            error("tex.double-superscript", "a prime after a superscript; write x'^2 rather than x^2'", at: t.range)
            return
        }
        primes.push(MathNode(.operator("′", .ordinary), range: t.range))
        last.primeCount += 1
        last.range = SourceRange.union(last.range, t.range)
    }

    /// The argument of `^` or `_`: a group, a symbol, or a command with its arguments.
    private mutating func parseScriptArgument(after scriptToken: Token) -> MathNode? {
        let t = expander.nextInline(skippingSpaces: true)
        switch t.kind {
        case .eof, .endGroup, .alignment, .superscript, .subscript:
            pushBack(t)
            error("tex.missing-script", "\(scriptToken.kind == .superscript ? "superscript" : "subscript") has nothing after it",
                  at: scriptToken.range)
            return MathNode(.error(""), range: scriptToken.range)
        case .character where t.scalar == "'":
            return MathNode(.operator("′", .ordinary), range: t.range)
        case .controlSequence where t.role.endsArgument:
            pushBack(t)
            error("tex.missing-script", "\(scriptToken.kind == .superscript ? "superscript" : "subscript") has nothing after it",
                  at: scriptToken.range)
            return MathNode(.error(""), range: scriptToken.range)
        case .character where isASCIIDigit(t.scalar):
            // A script without braces takes one token: x^23 is x² followed by 3.
            return MathNode(.number(tables.string(t.scalar), variant: digitVariant), range: t.range)
        default:
            // A command here may take arguments of its own without braces (`x^\sqrt\sqrt…`): each
            // is a level of nesting, or a long chain recurses until the stack overflows.
            guard enterNesting(at: t.range) else { return MathNode(.error(""), range: t.range) }
            // A script without braces is one token even among merged letters: `{\rm x_ab}` is x_a b (a
            // braced script, `\mathrm{V_{eff}}`, merges its letters as its group does).
            let savedMerge = mergeLetters
            if t.kind == .character { mergeLetters = false }
            defer { depth -= 1; mergeLetters = savedMerge }
            guard let atom = parseAtom(t) else { return MathNode(.row, [], range: t.range) }
            return atom.node
        }
    }

    // MARK: Atoms

    /// Parses one item starting with `t` (already read).
    ///
    /// Groups, characters and commands, nearly every item, go straight to their parsers; the rare
    /// kinds are made out of line (``parseRareAtom(_:)``), so that this dispatch saves no registers
    /// (`MathAloudBench stages` under callgrind: ~30 instructions an item).
    mutating func parseAtom(_ t: Token) -> Atom? {
        switch t.kind {
        case .beginGroup:
            let node = parseGroupContent(opening: t, keepingOrdGroup: true)
            return Atom(node: node, range: node.range)
        case .character:
            return parseCharacter(t)
        case .controlSequence:
            return parseCommand(t)
        case .active, .verbatim:
            return parseRareAtom(t)
        default:
            return nil
        }
    }

    /// ``parseAtom(_:)`` for `~` and `\verb`.
    @inline(never)
    private mutating func parseRareAtom(_ t: Token) -> Atom? {
        switch t.kind {
        case .active:
            // `~` is LaTeX's `\nobreakspace{}`: an interword space of the text font (3.33 pt in Latin Modern
            // Roman 10) and an empty group, an Ord atom, which spaces what follows (`,~\tan` has a thin space
            // on each side of the Ord). As one item: a group holding the space (spaced as that Ord).
            let space = MathNode(.space(width: interwordSpace), range: t.range)
            return Atom(node: MathNode(.row, [space], range: t.range), range: t.range)
        case .verbatim:
            let text = t.scalar == "*" ? self.name(t).replacingOccurrences(of: " ", with: "␣") : self.name(t)
            return Atom(node: MathNode(.text(text, variant: .monospace), range: t.range), range: t.range)
        default:
            return nil
        }
    }

    /// After an opening `{`: the group's content up to the matching `}` as one node.
    ///
    /// A group of one item is that item (as KaTeX and MathML's inferred rows treat it), except, with
    /// `keepingOrdGroup` (a group standing as an item of a list), where TeX's meaning differs: a braced
    /// group is an Ord atom whose nucleus is the group's list (TeXbook ch. 17 and Appendix G rule 16),
    /// and only a group of one Ord character without scripts is that character again (tex.web §1186).
    /// So `{=}`, `{+}` and `{\sum}` are ordinary symbols, spaced as letters, and `{10}^{14}` puts its
    /// exponent on a box (rule 18a), not on the last digit: those stay a row of one node.
    mutating func parseGroupContent(opening: Token, keepingOrdGroup: Bool = false) -> MathNode {
        guard enterNesting(at: opening.range) else {
            skipToGroupEnd()
            return MathNode(.error("{…}"), range: opening.range)
        }
        defer { depth -= 1 }
        let savedFont = font, savedMerge = mergeLetters, savedSize = mathTextSize
        let items = parseItems(until: .endGroup)
        font = savedFont
        mergeLetters = savedMerge
        mathTextSize = savedSize
        let close = expander.nextInline(skippingSpaces: false)
        var end = close.range.upperBound
        if close.kind != .endGroup {
            pushBack(close)
            error("tex.missing-brace", "missing } for this {", at: opening.range,
                  fixIts: [.init(range: SourceRange(close.range.lowerBound, close.range.lowerBound), replacement: "}")])
            end = items.last?.range?.upperBound ?? opening.range.upperBound
        }
        switch items {
        case .one(let node):
            if keepingOrdGroup, Self.differsAsOrdGroup(node) {
                return MathNode(.row, [node], range: SourceRange(opening.range.lowerBound, end))
            }
            return node
        case .many(let nodes):
            return MathNode(.row, children: nodes, range: SourceRange(opening.range.lowerBound, end))
        }
    }

    /// Whether a node set as the only item of a braced group is set differently as the group (an Ord
    /// atom around it) than alone: an operator of another class (a relation, a binary operator,
    /// punctuation, a large operator), a function name (`{\log}`), a number or word of several
    /// characters (scripts on it go on a box), or such a node with scripts.
    static func differsAsOrdGroup(_ node: MathNode) -> Bool {
        switch node.kind {
        case .operator(_, let p): return p.atomClass != .ord && !p.fence
        case .number(let text, _), .identifier(let text, _):
            // Two scalars or more: more UTF-8 bytes than the first scalar's, which its first byte gives
            // (no scalar iterator: ~25 instructions a group, `MathAloudBench stages` under callgrind, session 36).
            // One byte or none is one scalar at most, and more than four bytes are two at least: only
            // two to four need the first byte (its read is a call, ~15 instructions, for the single
            // letters and digits most groups hold, session 39).
            let utf8 = text.utf8
            let count = utf8.count
            if count <= 1 { return false }
            if count > 4 { return true }
            guard let lead = utf8.first else { return false }
            return count > (lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4)
        case .subscript, .superscript, .subSuperscript, .under, .over, .underOver:
            return node.children.first.map(differsAsOrdGroup) ?? false    // `{\log_{10}}`, `{\sum_i}`
        default: return false
        }
    }

    /// Enters one level of nesting, reporting when the limit is exceeded.
    @inline(__always)
    mutating func enterNesting(at range: SourceRange) -> Bool {
        depth += 1
        if depth > texLimits.maxDepth { return refuseNesting(at: range) }
        return true
    }

    /// ``enterNesting(at:)`` over the limit: reports it and leaves the level (kept out of line, so that
    /// the check costs its callers no registers).
    @inline(never)
    private mutating func refuseNesting(at range: SourceRange) -> Bool {
        depth -= 1
        error("tex.too-deep", "groups and arguments nested more than \(texLimits.maxDepth) deep", at: range)
        return false
    }

    /// Skips raw tokens up to and including the `}` that closes the current group (iteratively).
    mutating func skipToGroupEnd() {
        var level = 1
        while level > 0 {
            let t = expander.nextRaw()
            switch t.kind {
            case .beginGroup: level += 1
            case .endGroup: level -= 1
            case .eof: pushBack(t); return
            default: break
            }
        }
    }

    ///
    /// Digits, single letters and the ASCII symbols of the character table, most characters, are read
    /// here; the rest (merged letters, a decimal point, control characters, non-ASCII characters) by
    /// ``parseOtherCharacter(_:)``, out of line: with them inline, every character paid for a large
    /// frame with a stack protector (`MathAloudBench stages` under callgrind).
    private mutating func parseCharacter(_ t: Token) -> Atom? {
        let c = t.scalar
        if isASCIIDigit(c) {
            let node = parseNumber(first: t)
            return Atom(node: node, range: node.range)
        }
        if isASCIILetter(c) && !mergeLetters {
            return Atom(node: MathNode(.identifier(tables.string(c), variant: font), range: t.range), range: t.range)
        }
        if c.value > 0x20 && c.value < 0x7F && c != ".", let symbol = tables.character(c) {
            return Atom(node: leaf(symbol, range: t.range), range: t.range)
        }
        return parseOtherCharacter(t)
    }

    /// ``parseCharacter(_:)`` for the characters it does not read itself.
    @inline(never)
    private mutating func parseOtherCharacter(_ t: Token) -> Atom? {
        let c = t.scalar
        if c == "." {
            let after = peekNonSpace()
            if after.kind == .character, isASCIIDigit(after.scalar) {
                let node = parseNumber(first: t)
                return Atom(node: node, range: node.range)
            }
        }
        if isASCIILetter(c) {
            if mergeLetters {
                var text = ASCIIText(UInt8(c.value))
                var end = t.range.upperBound
                while true {
                    // Spaces are insignificant in math: \mathrm{k g} is "kg".
                    if let b = expander.peekPlainByte() {
                        if isASCIILetter(Unicode.Scalar(b)) {
                            end = expander.skipPlainByte() + 1
                            text.append(b)
                            continue
                        }
                        // Only a command (a macro) or a comment can hide a letter.
                        if b != UInt8(ascii: "\\") && b != UInt8(ascii: "%") { break }
                    }
                    let n = nextNonSpace()
                    if n.kind == .character, isASCIILetter(n.scalar) {
                        text.append(UInt8(n.scalar.value))
                        end = n.range.upperBound
                    } else {
                        pushBack(n)
                        break
                    }
                }
                // Letters merged by \mathrm keep their alphabet: `\mathrm{MeV}` is a word set in roman (an
                // Ord in TeX), not a function name such as `\sin` (which has none).
                let node = MathNode(.identifier(text.string(tables), variant: font),
                                    range: SourceRange(t.range.lowerBound, end))
                return Atom(node: node, range: node.range)
            }
            return Atom(node: MathNode(.identifier(tables.string(c), variant: font), range: t.range), range: t.range)
        }
        if c.value < 0x20 || c.value == 0x7F || c == "\u{FFFD}" {
            if c == "\t" || c == "\n" || c == "\r" { return nil }
            error("tex.invalid-character",
                  c == "\u{FFFD}" ? "invalid UTF-8 or replacement character" : "invalid character U+\(String(c.value, radix: 16, uppercase: true))",
                  at: t.range)
            return nil
        }
        if let symbol = tables.character(c) {
            return Atom(node: leaf(symbol, range: t.range), range: t.range)
        }
        if c.value >= 0x1D7CE, let (base, variant) = UnicodeMath.decompose(c), isASCIIDigit(base) {
            let node = parseStyledNumber(first: t, base, variant)
            return Atom(node: node, range: node.range)
        }
        let node = unicodeLeaf(c, range: t.range)
        var atom = Atom(node: node, range: t.range)
        if case .operator(_, let p) = node.kind, p.movableLimits { atom.takesLimits = true }
        return atom
    }

    /// A node for a Unicode character typed directly: the same node its TeX command makes.
    mutating func unicodeLeaf(_ c: Unicode.Scalar, range: SourceRange) -> MathNode {
        // A letter with a mathematical accent in one character (`ŷ`) is `\hat{y}`, as the MathML reader reads `<mi>ŷ</mi>`.
        if c.value >= 0xC0, c.value < 0x2000, let (letter, accent) = UnicodeMath.letterAndAccent(String(Character(c))) {
            // The mark as `\hat` and its kin make it (AccentCommands): an ordinary, not stretchy.
            let mark = MathNode(.operator(accent, OperatorProperties(atomClass: .ord, stretchy: false)), range: range)
            return MathNode(.over(UnderOverProperties(accent: true)), [MathNode(.identifier(letter, variant: nil), range: range), mark], range: range)
        }
        if let (base, variant) = UnicodeMath.decompose(c) {
            if isASCIIDigit(base) { return MathNode(.number(tables.string(base), variant: variant), range: range) }
            // Letters are italic by default (not Greek capitals, nor ∇).
            let plain = variant == .italic && UnicodeMath.isItalicByDefault(base)
            return MathNode(.identifier(tables.string(base), variant: plain ? nil : variant), range: range)
        }
        // A fullwidth form is its ASCII character at the width of CJK text (`Ａ` is `A`, `＋` is `+`).
        if c.value >= 0xFF01 && c.value <= 0xFF5E, let ascii = Unicode.Scalar(c.value - 0xFEE0) {
            if isASCIIDigit(ascii) { return MathNode(.number(tables.string(ascii), variant: digitVariant), range: range) }
            if isASCIILetter(ascii) { return MathNode(.identifier(tables.string(ascii), variant: font), range: range) }
            if let symbol = tables.character(ascii) { return leaf(symbol, range: range) }
        }
        if let symbol = SymbolTable.leaf(forText: String(Character(c))) {
            return leaf(symbol, range: range)
        }
        if let atomClass = OperatorDictionary.atomClass(for: c) {
            var props = OperatorDictionary.properties(for: String(Character(c)))
            props.atomClass = atomClass
            return MathNode(.operator(String(Character(c)), props), range: range)
        }
        if c.properties.numericType != nil, c.properties.generalCategory == .decimalNumber {
            return MathNode(.number(String(Character(c))), range: range)
        }
        return MathNode(.identifier(String(Character(c)), variant: font), range: range)
    }

    /// Styled digits typed directly (`𝟏𝟐`), read as one number in their alphabet, as `\mathbf{12}` is.
    private mutating func parseStyledNumber(first: Token, _ base: Unicode.Scalar, _ variant: MathVariant) -> MathNode {
        var text = String(Character(base))
        var end = first.range.upperBound
        while true {
            let t = next()
            if t.kind == .character, let (digit, v) = UnicodeMath.decompose(t.scalar), v == variant, isASCIIDigit(digit) {
                text.unicodeScalars.append(digit)
                end = t.range.upperBound
                continue
            }
            pushBack(t)
            break
        }
        return MathNode(.number(text, variant: variant), range: SourceRange(first.range.lowerBound, end))
    }

    /// Digits (and one decimal point, and `{,}` digit groups) read as one number.
    private mutating func parseNumber(first: Token) -> MathNode {
        var text = ASCIIText(UInt8(first.scalar.value))
        var end = first.range.upperBound
        var seenPoint = first.scalar == "."
        while true {
            // Digits straight from the input, without making tokens.
            if let b = expander.peekPlainByte() {
                if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                    end = expander.skipPlainByte() + 1
                    text.append(b)
                    continue
                }
                // Only a point, a `{,}` group, a command (a macro) or a comment can go on.
                if b != UInt8(ascii: ".") && b != UInt8(ascii: "{") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "%") {
                    break
                }
            }
            let t = nextNonSpace()
            if t.kind == .character {
                if isASCIIDigit(t.scalar) {
                    text.append(UInt8(t.scalar.value))
                    end = t.range.upperBound
                    continue
                }
                if t.scalar == ".", !seenPoint {
                    let after = peekNonSpace()
                    if after.kind == .character, isASCIIDigit(after.scalar) {
                        seenPoint = true
                        text.append(UInt8(ascii: "."))
                        end = t.range.upperBound
                        continue
                    }
                }
            }
            if t.kind == .beginGroup, !seenPoint, readDigitGroupSeparator(brace: t) {
                text.append(UInt8(ascii: ","))
                continue
            }
            pushBack(t)
            break
        }
        return MathNode(.number(text.string(tables), variant: digitVariant), range: SourceRange(first.range.lowerBound, end))
    }

    /// After `{` (given, and put back by the caller on failure): if the group is `{,}` followed by a
    /// digit, consumes the group and returns true; otherwise restores everything after the brace.
    private mutating func readDigitGroupSeparator(brace: Token) -> Bool {
        var taken: [Token] = []
        func nextSignificant(_ core: inout ParserCore) -> Token {
            var u = core.expander.nextRaw()
            taken.append(u)
            while u.kind == .space { u = core.expander.nextRaw(); taken.append(u) }
            return u
        }
        let comma = nextSignificant(&self)
        if comma.isCharacter(",") {
            let close = nextSignificant(&self)
            if close.kind == .endGroup {
                let digit = nextSignificant(&self)
                if digit.kind == .character, isASCIIDigit(digit.scalar) {
                    expander.pushBack(digit)
                    return true
                }
            }
        }
        expander.pushBack(taken)
        return false
    }

    /// A leaf for a symbol-table entry, in the math alphabet in force. (Inlined: a call would copy
    /// the parser's state, as for any method that does not change it.)
    @inline(__always)
    func leaf(_ symbol: SymbolLeaf, range: SourceRange?) -> MathNode {
        if let properties = symbol.operatorProperties { return MathNode(.operator(symbol.text, properties), range: range) }
        if let alphabet = symbol.alphabet { return MathNode(.identifier(alphabet.base, variant: alphabet.variant), range: range) }
        let variant = font == .italic && !symbol.takesItalic ? nil : font
        return MathNode(.identifier(symbol.text, variant: variant), range: range)
    }

    // MARK: Commands

    private mutating func parseCommand(_ t: Token) -> Atom? {
        let meaning = tables.meaning(t.entry)
        if case .command(let definition) = meaning {
            if !definition.modes.contains(mode == .math ? .math : .text) {
                error("tex.wrong-mode", "\\\(self.name(t)) is not allowed in \(mode == .math ? "math" : "text") mode", at: t.range)
            }
            var invocation = Invocation(name: self.name(t), token: t, range: t.range)
            readArguments(definition.arguments, into: &invocation)
            guard let node = definition.build(&self, invocation) else { return nil }
            var atom = Atom(node: node, range: node.range ?? invocation.range)
            atom.takesLimits = definition.takesLimits
            if case .operator(_, let p) = node.kind, p.movableLimits { atom.takesLimits = true }
            atom.bracePosition = definition.bracePosition
            return atom
        }
        if case .symbol(let symbol) = meaning {
            return Atom(node: leaf(symbol, range: t.range), range: t.range, takesLimits: symbol.takesLimits)
        }
        let name = self.name(t)
        if name.isEmpty {
            warning("tex.trailing-backslash", "a backslash at the end of the formula is ignored", at: t.range)
            return nil
        }
        if name == " " {
            // A control space is the text font's interword space, in math as in text (TeXbook ch. 18).
            return Atom(node: MathNode(.space(width: interwordSpace), range: t.range), range: t.range)
        }
        // Suggestions cost a scan of all names: compute each once, and for at most 20 names per parse.
        let suggestion: String?
        if let cached = suggestions[name] {
            suggestion = cached
        } else if suggestions.count < 20 {
            suggestion = CommandRegistry.suggestion(for: name)
            suggestions[name] = .some(suggestion)
        } else {
            suggestion = nil
        }
        error("tex.unknown-command", "unknown command \\\(name)" + (suggestion.map { "; did you mean \\\($0)?" } ?? ""),
              at: t.range, fixIts: suggestion.map { [.init(range: t.range, replacement: "\\" + $0)] } ?? [])
        return Atom(node: MathNode(.error("\\" + name), range: t.range), range: t.range)
    }

    /// Reads a command's declared arguments.
    mutating func readArguments(_ kinds: [ArgumentKind], into invocation: inout Invocation) {
        for kind in kinds {
            let argument = readArgument(kind, for: invocation)
            if let r = argument.range { invocation.range = invocation.range.union(r) }
            invocation.arguments.append(argument)
        }
    }

    mutating func readArgument(_ kind: ArgumentKind, for invocation: Invocation) -> Argument {
        switch kind {
        case .math:
            return .node(parseMathArgument(for: invocation))
        case .optionalMath:
            let t = peekNonSpace()
            guard t.isCharacter("[") else { return .absent }
            _ = nextNonSpace()
            guard enterNesting(at: t.range) else { return .absent }
            defer { depth -= 1 }
            let items = parseExpression(until: [.closeBracket, .endGroup])
            let close = next()
            if !close.isCharacter("]") {
                pushBack(close)
                error("tex.missing-bracket", "missing ] for this [", at: t.range)
            }
            if items.count == 1 { return .node(items[0]) }
            return .node(MathNode(.row, items, range: SourceRange(t.range.lowerBound, close.range.upperBound)))
        case .text:
            return .node(parseTextArgument(for: invocation))
        case .content:
            return .node(mode == .text ? parseTextArgument(for: invocation) : parseMathArgument(for: invocation))
        case .raw:
            let t = peekNonSpace()
            guard let tokens = expander.readArgument() else {
                error("tex.missing-argument", "\\\(invocation.name) needs an argument", at: invocation.range)
                return .raw("", t.range)
            }
            return .raw(self.sourceText(tokens), rangeOf(tokens, fallback: t.range))
        case .optionalRaw:
            let t = peekNonSpace()
            guard t.isCharacter("[") else { return .absent }
            guard let tokens = expander.readOptionalArgument() else { return .absent }
            return .raw(self.sourceText(tokens), rangeOf(tokens, fallback: t.range))
        }
    }

    func rangeOf(_ tokens: [Token], fallback: SourceRange) -> SourceRange {
        guard let first = tokens.first, let last = tokens.last else { return fallback }
        return first.range.union(last.range)
    }

    /// A math argument: a group, or a single symbol or command.
    mutating func parseMathArgument(for invocation: Invocation) -> MathNode {
        let t = nextNonSpace()
        switch t.kind {
        case .eof, .endGroup, .alignment:
            pushBack(t)
            error("tex.missing-argument", "\\\(invocation.name) needs an argument", at: invocation.range,
                  fixIts: [.init(range: SourceRange(invocation.range.upperBound, invocation.range.upperBound), replacement: "{}")])
            return MathNode(.error(""), range: SourceRange(invocation.range.upperBound, invocation.range.upperBound))
        case .beginGroup:
            return parseGroupContent(opening: t)
        case .superscript, .subscript:
            pushBack(t)
            error("tex.missing-argument", "\\\(invocation.name) needs an argument before \(self.sourceText(t))", at: invocation.range)
            return MathNode(.error(""), range: t.range)
        default:
            if t.kind == .controlSequence, t.role.endsArgument {
                pushBack(t)
                error("tex.missing-argument", "\\\(invocation.name) needs an argument", at: invocation.range)
                return MathNode(.error(""), range: t.range)
            }
            if t.kind == .character, isASCIIDigit(t.scalar) {
                // A single-token argument takes one digit: \frac12 is 1/2.
                return MathNode(.number(tables.string(t.scalar), variant: digitVariant), range: t.range)
            }
            // A command as the argument may take arguments of its own without braces
            // (`\sqrt\sqrt\sqrt…x`): each such argument is a level of nesting, or a long chain
            // recurses until the stack overflows (found by the tex fuzz target through a recursive macro).
            guard enterNesting(at: t.range) else { return MathNode(.error(""), range: t.range) }
            // A single-token argument is one token: `\mathrm d u` sets the d upright, not "du".
            let savedMerge = mergeLetters
            if t.kind == .character { mergeLetters = false }
            defer { depth -= 1; mergeLetters = savedMerge }
            guard let atom = parseAtom(t) else { return MathNode(.row, [], range: t.range) }
            return atom.node
        }
    }

    // MARK: Delimiters

    /// Reads a delimiter after `\left`, `\right`, `\middle`, `\big…`: a character, a symbol command, or `.`.
    mutating func parseDelimiter(after command: Token) -> (text: String, range: SourceRange)? {
        let t = nextNonSpace()
        switch t.kind {
        case .character:
            if t.scalar == "." { return ("", t.range) }
            if t.scalar == "<" { return ("⟨", t.range) }
            if t.scalar == ">" { return ("⟩", t.range) }
            if let symbol = tables.character(t.scalar) { return (symbol.text, t.range) }
            return (String(Character(t.scalar)), t.range)
        case .controlSequence:
            if case .symbol(let symbol) = tables.meaning(t.entry) { return (symbol.text, t.range) }
            let name = self.name(t)
            if name == "{" || name == "lbrace" { return ("{", t.range) }
            if name == "}" || name == "rbrace" { return ("}", t.range) }
            if name == "|" { return ("‖", t.range) }
            pushBack(t)
        default:
            pushBack(t)
        }
        error("tex.missing-delimiter", "\\\(self.name(command)) needs a delimiter such as ( [ \\{ | or .", at: command.range)
        return nil
    }

    // MARK: Environments and text helpers

    /// Reads `{name}` after `\begin` or `\end`.
    mutating func readEnvironmentName(after token: Token) -> String {
        let t = nextNonSpace()
        guard t.kind == .beginGroup else {
            pushBack(t)
            error("tex.missing-environment-name", "\\\(self.name(token)) needs an environment name in braces", at: token.range)
            return ""
        }
        var name = ""
        while true {
            let u = expander.nextRaw()
            if u.kind == .endGroup { break }
            if u.kind == .eof { pushBack(u); error("tex.missing-brace", "missing } for this {", at: t.range); break }
            if u.kind == .character { name.unicodeScalars.append(u.scalar) }
            if name.utf8.count > 100 { break }
        }
        return name
    }

    /// An optional `[dimen]` after `\\`.
    mutating func readRowSpacing() -> Double? {
        let t = next()
        guard t.isCharacter("[") else { pushBack(t); return nil }
        var text = ""
        while true {
            let u = expander.nextRaw()
            if u.isCharacter("]") || u.kind == .eof { if u.kind == .eof { pushBack(u) }; break }
            text += self.sourceText(u)
            if text.utf8.count > 100 { break }
        }
        return capSize(Dimension.parse(text), at: t.range)
    }

    /// A size the formula asked for, capped at ``TeXLimits/maxSize`` (with the warning
    /// `tex.size-capped`).
    mutating func capSize(_ value: Double?, at range: SourceRange?) -> Double? {
        guard let value, abs(value) > texLimits.maxSize else { return value }
        let limit = max(0, texLimits.maxSize)
        diagnostics.append(.warning("tex.size-capped",
            "the size \(value)em is larger than the limit of \(limit)em; \(limit)em is used", at: range))
        return value < 0 ? -limit : limit
    }

    /// A dimension written as tokens (`\above 2pt`, `\kern1em`): digits, a point and a unit.
    mutating func readDimensionTokens() -> Double? {
        var text = ""
        var t = nextNonSpace()
        if t.isCharacter("=") { t = nextNonSpace() }
        while t.kind == .character && (t.scalar == "-" || t.scalar == "+" || t.scalar == "." || t.scalar == ","
                                       || isASCIIDigit(t.scalar)) {
            text.unicodeScalars.append(t.scalar)
            t = next()
        }
        while t.kind == .space { t = next() }
        var unit = ""
        while t.kind == .character, isASCIILetter(t.scalar), unit.count < 2 {
            unit.unicodeScalars.append(t.scalar)
            if unit.count == 2 { break }
            t = next()
        }
        // The token after the dimension goes back once (a register such as \kern\fontdimen is not
        // supported and reads as a missing dimension).
        if unit.count < 2 { pushBack(t) }
        if text.isEmpty && unit.isEmpty { return nil }
        return capSize(Dimension.parse(text + unit), at: t.range)
    }
}

/// a-z A-Z: one comparison, with the case bit set (two ranges tested in turn mispredicted ~half the
/// time on the letters and digits of formulas, `MathAloudBench stages` under callgrind, session 39).
@inline(__always)
func isASCIILetter(_ c: Unicode.Scalar) -> Bool {
    (c.value | 0x20) &- 0x61 < 26
}

@inline(__always)
func isASCIIDigit(_ c: Unicode.Scalar) -> Bool {
    c.value >= 0x30 && c.value <= 0x39  // 0-9
}

/// ASCII text collected a byte at a time (the digits of a number, the letters of a name) without
/// the cost of appending to a `String` for each byte: up to 32 bytes are kept inline.
struct ASCIIText {
    private var inline: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The text once it is longer than `inline` holds.
    private var spilled = ""
    /// The number of bytes.
    private(set) var count = 0

    /// Text starting with the ASCII byte `first`.
    init(_ first: UInt8) { append(first) }

    /// Appends an ASCII byte.
    mutating func append(_ byte: UInt8) {
        if count < 32 {
            let index = count
            withUnsafeMutableBytes(of: &inline) { $0[index] = byte }
        } else {
            if count == 32 { spilled = inlineString(32) }
            spilled.unicodeScalars.append(Unicode.Scalar(byte))
        }
        count += 1
    }

    /// The text as a string (a shared one for a single character).
    func string(_ tables: ParserTables) -> String {
        if count == 1 { return tables.asciiStrings[Int(withUnsafeBytes(of: inline) { $0[0] })] }
        return count <= 32 ? inlineString(count) : spilled
    }

    private func inlineString(_ length: Int) -> String {
        withUnsafeBytes(of: inline) { String(decoding: $0.prefix(length), as: UTF8.self) }
    }
}

/// TeX dimensions converted to em (1em = 10pt at the default 10pt size, 18mu = 1em).
package enum Dimension {
    /// Parses `1.5em`, `-3mu`, `2pt`, `0.5ex`, `1cm` to em (at 10 pt); nil if malformed.
    package static func parse(_ text: String) -> Double? {
        let s = text.filter { $0 != " " }
        var numberPart = ""
        var unit = ""
        for ch in s {
            if unit.isEmpty, ch.isNumber || ch == "." || ch == "-" || ch == "+" || ch == "," { numberPart.append(ch == "," ? "." : ch) }
            else { unit.append(ch) }
        }
        guard let value = Double(numberPart.isEmpty ? "1" : numberPart) else { return nil }
        switch unit.lowercased() {
        case "em", "": return value
        case "ex": return value * 0.431
        case "mu": return value / 18
        case "pt": return value / 10
        case "bp": return value * 1.00375 / 10
        case "pc": return value * 12 / 10
        case "mm": return value * 2.84528 / 10
        case "cm": return value * 28.4528 / 10
        case "in": return value * 72.27 / 10
        case "px": return value / 16
        case "dd": return value * 1.07 / 10
        case "cc": return value * 12.84 / 10
        case "sp": return value / 65536 / 10
        default: return nil
        }
    }
}

/// A parser's options, shared by reference with its parses.
final class SharedParserOptions: Sendable {
    let options: TeXParserOptions
    init(_ options: TeXParserOptions) { self.options = options }
}
