import MathSyntax

/// Limits that keep hostile or broken input bounded in time and memory. Exceeding one produces a
/// diagnostic (never a crash, a hang or an unbounded allocation).
public struct TeXLimits: Sendable, Hashable {
    /// Largest accepted input in UTF-8 bytes (default 256 KiB; real formulas are a few hundred bytes).
    public var maxInputBytes: Int = 256 * 1024
    /// Deepest nesting of groups, arguments and environments (default 200).
    public var maxDepth: Int = 200
    /// Most macro expansions in one parse (default 10,000), which stops `\def\a{\a\a}\a`.
    public var maxExpansions: Int = 10_000
    /// Most tokens that macro expansion may produce in one parse (default 1,000,000).
    public var maxExpandedTokens: Int = 1_000_000
    /// Most cells in one table (default 5,000).
    public var maxTableCells: Int = 5_000
    /// The largest size a formula may ask for, in em (`\rule`, `\kern`, `\hspace`, `\genfrac`'s rule
    /// thickness, a row's `\\[…]` spacing): larger ones, either sign, are capped with the warning
    /// `tex.size-capped` (KaTeX's `maxSize`). Default: no cap.
    public var maxSize: Double = .infinity

    /// The documented defaults.
    public init() {}
}

/// Which commands that reach outside the formula may do so (KaTeX's `trust` option): links (`\href`,
/// `\url`), images (`\includegraphics`) and HTML attributes (`\htmlClass`, `\htmlId`, `\htmlStyle`,
/// `\htmlData`). Off by default: a command that is not trusted, or a link or image whose URL scheme is
/// not allowed, keeps its content (what it shows is still read) and loses what it would add, with the
/// warning `tex.untrusted-command` at the command.
public struct TeXTrust: Sendable, Hashable {
    /// The commands that reach outside the formula, without the backslash.
    public static let commandNames: Set<String> = ["href", "url", "includegraphics", "htmlClass", "htmlId", "htmlStyle", "htmlData"]
    /// The URL schemes ``all`` allows: `http`, `https`, `mailto` and relative URLs (`_relative`, as
    /// KaTeX names them). `javascript:`, `data:` and the rest are refused unless listed.
    public static let safeProtocols: Set<String> = ["http", "https", "mailto", "_relative"]

    /// The trusted commands (names without the backslash, from ``commandNames``).
    public var commands: Set<String>
    /// The URL schemes a trusted link or image may use (lower case; `_relative` for a URL without one).
    public var protocols: Set<String>

    /// A policy trusting `commands` with URLs of `protocols`.
    public init(commands: Set<String>, protocols: Set<String> = TeXTrust.safeProtocols) {
        self.commands = commands
        self.protocols = protocols
    }

    /// Nothing is trusted (the default).
    public static let none = TeXTrust(commands: [])
    /// Every command, with the safe URL schemes (``safeProtocols``).
    public static let all = TeXTrust(commands: commandNames)

    /// Whether `command` may act, given the URL it links to or loads (nil for the HTML-attribute commands).
    public func allows(command: String, url: String?) -> Bool {
        guard commands.contains(command) else { return false }
        guard let url else { return true }
        return protocols.contains(Self.urlProtocol(url))
    }

    /// A URL's scheme as a browser reads it (lower case), or `_relative`: ASCII whitespace and control
    /// characters are dropped first (browsers ignore them, so `java\tscript:` is `javascript:`), and a
    /// `:` after a `/`, `?` or `#` belongs to a relative URL (KaTeX's `protocolFromUrl`; WHATWG URL
    /// Standard, scheme state).
    public static func urlProtocol(_ url: String) -> String {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F { continue }
            switch scalar {
            case ":": return scheme.lowercased()
            case "/", "?", "#", "\\": return "_relative"
            default: scheme.unicodeScalars.append(scalar)
            }
        }
        return "_relative"
    }
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
    /// TeX definitions read once, when the parser is made: a document's preamble or the definitions of
    /// its earlier formulas (`\newcommand{\R}{\mathbb{R}}`, `\def`, `\let`, `\DeclareMathOperator`…).
    /// The macros they define apply to every formula (after ``macros``); anything else in the text is
    /// read and dropped. Problems in it are ``TeXParser/definitionDiagnostics``, with ranges into it.
    public var definitions: String = ""
    /// Which of `\href`, `\url`, `\includegraphics`, `\htmlClass`… may act (default: none; see ``TeXTrust``).
    public var trust: TeXTrust = .none

    /// Default options: inline math, no user macros, default limits.
    public init(displayMode: Bool = false, macros: [String: String] = [:], limits: TeXLimits = TeXLimits()) {
        self.displayMode = displayMode
        self.macros = macros
        self.limits = limits
    }
}

/// The result of parsing: a tree (always present, with error nodes where input was bad) and the
/// diagnostics, in source order.
public struct TeXParseResult: Sendable {
    /// The tree. A formula with errors still has a tree: each bad part is an ``MathNode/Kind/error`` node.
    public let root: MathNode
    /// Everything worth telling, errors first by position.
    public let diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.containsError }
}
