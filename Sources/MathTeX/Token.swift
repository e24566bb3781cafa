import MathSyntax

/// A TeX token: a control sequence or a character with its category (TeXbook ch. 7).
///
/// A token is plain data (no reference counting when it is copied): a control sequence's name is
/// a ``TokenName``, which the lexer that made the token turns back into a string.
struct Token: Sendable {
    /// The token's category, as TeX's category codes classify characters.
    enum Kind: UInt8, Sendable {
        case controlSequence  // \name or \<char>; `name` is the name without the backslash
        case character        // letter or other character (catcode 11/12)
        case beginGroup       // {
        case endGroup         // }
        case mathShift        // $
        case alignment        // &
        case parameter        // #n (`scalar` holds the digit), ## (`scalar` is "#"), or a lone # (`scalar` is "0")
        case superscript      // ^
        case `subscript`      // _
        case space            // a run of white space
        case active           // ~
        case verbatim         // \verb|…|: `name` is the text, `scalar` is "*" for \verb*
        case eof
    }

    let kind: Kind
    /// What a control sequence means to the expander and the parser's expression loop; `.other`
    /// for other kinds. Found once, when the token is made. (Declared next to `kind`, so it takes
    /// no room of its own.)
    let role: ControlSequenceRole
    /// The control sequence name (without the backslash) or the verbatim text; ``TokenName/none``
    /// for other kinds.
    var name: TokenName
    /// The character, for character-like tokens.
    var scalar: Unicode.Scalar
    /// Where the token came from; tokens produced by a macro carry the macro call's range.
    var range: SourceRange

    /// A token of a kind other than a control sequence.
    init(_ kind: Kind, scalar: Unicode.Scalar = " ", range: SourceRange) {
        self.init(kind: kind, role: .other, name: .none, scalar: scalar, range: range)
    }

    /// A control sequence token named `name`.
    @inline(__always)
    init(controlSequence name: TokenName, tables: ParserTables, range: SourceRange) {
        self.init(kind: .controlSequence, role: name.isKnown ? tables.controlSequences[Int(name.rawValue)].role : .other,
                  name: name, scalar: " ", range: range)
    }

    /// A `\verb` token whose text is `text`; `starred` for `\verb*`.
    init(verbatim text: TokenName, starred: Bool, range: SourceRange) {
        self.init(kind: .verbatim, role: .other, name: text, scalar: starred ? "*" : " ", range: range)
    }

    @inline(__always)
    private init(kind: Kind, role: ControlSequenceRole, name: TokenName, scalar: Unicode.Scalar, range: SourceRange) {
        self.kind = kind
        self.role = role
        self.name = name
        self.scalar = scalar
        self.range = range
    }

    /// For a known control sequence, its index in ``ParserTables/controlSequences``; -1 otherwise.
    var entry: Int32 { name.isKnown && kind == .controlSequence ? name.rawValue : -1 }

    func isCharacter(_ c: Unicode.Scalar) -> Bool { kind == .character && scalar == c }
}

/// The name of a control sequence token (or the text of a verbatim token), as a number: a known
/// control sequence's index in ``ParserTables/controlSequences``, or an index in the
/// ``TokenNames`` of the lexer that made the token.
struct TokenName: Hashable, Sendable {
    /// Non-negative for a known name; `-1 - i` for string `i` of a ``TokenNames``.
    let rawValue: Int32

    /// No name (tokens other than control sequences and verbatim text).
    static let none = TokenName(rawValue: Int32.min)

    /// A name of ``ParserTables``.
    var isKnown: Bool { rawValue >= 0 }
    /// A name kept by a ``TokenNames``.
    var isLocal: Bool { rawValue < 0 && rawValue != Int32.min }
}

/// The strings of the token names that are not known control sequences (unknown commands,
/// verbatim text), kept by the lexer that made the tokens, so that tokens stay plain data.
struct TokenNames: Sendable {
    private var strings: [String] = []

    /// Keeps `string` and returns its name.
    mutating func add(_ string: String) -> TokenName {
        strings.append(string)
        return TokenName(rawValue: -Int32(strings.count))
    }

    /// The string of a name: a known name's from `tables`, a local one from these names.
    func string(_ name: TokenName, tables: ParserTables) -> String {
        if name.isKnown { return tables.controlSequences[Int(name.rawValue)].name }
        if name == .none { return "" }
        return strings[Int(-1 - name.rawValue)]
    }
}

extension TokenNames {
    /// The token written back as TeX source (for error nodes and raw arguments).
    func sourceText(_ t: Token, tables: ParserTables) -> String {
        switch t.kind {
        case .controlSequence:
            let name = string(t.name, tables: tables)
            if let first = name.unicodeScalars.first, name.unicodeScalars.count == 1,
               !(("a"..."z").contains(first) || ("A"..."Z").contains(first)) {
                return "\\" + name
            }
            return "\\" + name + " "
        case .character: return String(Character(t.scalar))
        case .beginGroup: return "{"
        case .endGroup: return "}"
        case .mathShift: return "$"
        case .alignment: return "&"
        case .parameter: return t.scalar == "0" ? "#" : "#" + String(Character(t.scalar))
        case .superscript: return "^"
        case .subscript: return "_"
        case .space: return " "
        case .active: return "~"
        case .verbatim: return "\\verb" + (t.scalar == "*" ? "*" : "") + "|" + string(t.name, tables: tables) + "|"
        case .eof: return ""
        }
    }

    /// The tokens written back as TeX, trimming the trailing space a control word adds.
    func sourceText(_ tokens: [Token], tables: ParserTables) -> String {
        var s = ""
        for t in tokens { s += sourceText(t, tables: tables) }
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
