import MathSyntax

/// Limits that keep hostile or broken input bounded in time and memory. Exceeding one produces a
/// diagnostic (never a crash, a hang or an unbounded allocation).
public struct TeXLimits: Sendable, Hashable {
    /// Largest accepted input in UTF-8 bytes (default 256 KiB; real formulas are a few hundred bytes).
    public var maxInputBytes: Int = 256 * 1024
    /// Deepest nesting of groups, arguments and environments (default 200).
    public var maxDepth: Int = 200
    /// Most macro expansions in one parse (default 1,000, KaTeX's `maxExpand`), which stops
    /// `\def\a{\a\a}\a`. The longest formula of the arXiv corpus needs far fewer.
    public var maxExpansions: Int = 1_000
    /// Most tokens that macro expansion may produce in one parse (default 100,000: a thousand
    /// expansions of a hundred tokens each). A recursive macro with a long body otherwise turns a few
    /// hundred bytes into megabytes of tree (found by fuzzing; the arXiv corpus needs far fewer).
    public var maxExpandedTokens: Int = 100_000
    /// Most diagnostics reported for one formula (default 100); repeats are reported once, and a note
    /// `tex.diagnostics-truncated` counts the ones left out.
    public var maxDiagnostics: Int = 100
    /// Deepest nesting of `\ce` and `\pu` inside the math of one another (default 4): each level
    /// parses its text again, so a `\pu` nested in its own units as deep as groups may go (200) took
    /// seconds for one kilobyte (found by fuzzing, session 17); real formulas nest one level at most.
    public var maxChemistryNesting: Int = 4
    /// Most cells in one table (default 5,000).
    public var maxTableCells: Int = 5_000
    /// The largest size a formula may ask for, in em (`\rule`, `\kern`, `\hspace`, `\genfrac`'s rule
    /// thickness, a row's `\\[…]` spacing): larger ones, either sign, are capped with the warning
    /// `tex.size-capped` (KaTeX's `maxSize`). Default: no cap.
    public var maxSize: Double = .infinity

    /// The documented defaults.
    public init() {}
}


/// Options for parsing TeX.
public struct TeXParserOptions: Sendable, Hashable {
    /// Parse as display math (`$$…$$`): large operators take limits above and below.
    public var displayMode: Bool = false
    /// User macros, as TeX: `["\\RR": "\\mathbb{R}", "\\norm": "\\left\\|#1\\right\\|"]`. The number of
    /// parameters is the highest `#n` in the body. Names may be given with or without the backslash.
    public var macros: [String: String] = [:]
    /// The resource limits.
    public var limits = TeXLimits()
    /// How many `\ce`/`\pu` this parse is nested in (set by mhchem's reader for the math it parses).
    var chemistryNesting = 0
    /// What beyond mathematics the input may ask for: links, HTML attributes, styles, images
    /// (``TrustPolicy``; nothing by default).
    public var trust = TrustPolicy.untrusted
    /// TeX definitions read once, when the parser is made: a document's preamble or the definitions of
    /// its earlier formulas (`\newcommand{\R}{\mathbb{R}}`, `\def`, `\let`, `\DeclareMathOperator`…).
    /// The macros they define apply to every formula (after ``macros``); anything else in the text is
    /// read and dropped. Problems in it are ``TeXParser/definitionDiagnostics``, with ranges into it.
    public var definitions: String = ""

    /// Default options: inline math, no user macros, default limits, untrusted.
    public init(displayMode: Bool = false, macros: [String: String] = [:], limits: TeXLimits = TeXLimits(),
                trust: TrustPolicy = .untrusted) {
        self.displayMode = displayMode
        self.macros = macros
        self.limits = limits
        self.trust = trust
    }
}

extension TeXParserOptions {
    /// Why `name` cannot be a macro name (nil when it can): a name is a backslash (optional here) and
    /// either letters (`\RR`) or one character that is not a letter (`\!`), as TeX reads a control
    /// sequence (TeXbook ch. 3). Parameters go in the body as #1…#9, not in the name.
    public static func problem(withMacroName name: String) -> String? {
        let bare = name.hasPrefix("\\") ? name.dropFirst() : Substring(name)
        if bare.isEmpty { return "the name is empty; write '\\name=body'" }
        if bare.contains("#") { return "parameters are #1…#9 in the body, not in the name (write '\\name=body with #1')" }
        let isLetter = { (c: Character) in c.isASCII && c.isLetter }
        if bare.count == 1 { return nil }
        if bare.allSatisfy(isLetter) { return nil }
        return "'\\\(bare)' is not one command name: TeX reads a backslash and letters, or one other character"
    }
}

/// The result of parsing: a tree (always present, with error nodes where input was bad) and the
/// diagnostics, in source order.
public struct TeXParseResult: Sendable {
    /// The tree. A formula with errors still has a tree: each bad part is an ``MathNode/Kind/error`` node.
    public let root: MathNode
    /// Everything worth telling, errors first by position.
    public let diagnostics: [Diagnostic]
    /// The macro expansions and expanded tokens the parse spent (of ``TeXLimits/maxExpansions`` and
    /// ``TeXLimits/maxExpandedTokens``): a parse nested in another (math inside mhchem's `\ce`) spends
    /// its parent's budget, so nesting cannot multiply it.
    package var expansionsSpent = 0, expandedTokensSpent = 0

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.containsError }
}
