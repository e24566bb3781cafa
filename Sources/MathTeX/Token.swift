import MathSyntax

/// A TeX token: a control sequence or a character with its category (TeXbook ch. 7).
struct Token: Sendable {
    /// The token's category, as TeX's category codes classify characters.
    enum Kind: UInt8, Sendable {
        case controlSequence  // \name or \<char>; `name` holds the name without the backslash
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
        case verbatim         // \verb|…|: `name` holds the text, `scalar` is "*" for \verb*
        case eof
    }

    let kind: Kind
    /// What a control sequence means to the expander and the parser's expression loop; `.other`
    /// for other kinds. Found once, when the token is made. (Declared next to `kind`, so it takes
    /// no room of its own.)
    let role: ControlSequenceRole
    /// For a known control sequence, its index in ``ParserTables/controlSequences``; -1 for an
    /// unknown name and for other kinds.
    let entry: Int32
    /// The control sequence name (without the backslash); empty for other kinds.
    let name: String
    /// The character, for character-like tokens.
    var scalar: Unicode.Scalar
    /// Where the token came from; tokens produced by a macro carry the macro call's range.
    var range: SourceRange

    /// A token; a control sequence's name is looked up in ``ParserTables``.
    init(_ kind: Kind, name: String = "", scalar: Unicode.Scalar = " ", range: SourceRange) {
        if kind == .controlSequence {
            let tables = ParserTables.shared
            self.init(controlSequence: tables.entry(name), name: name, tables: tables, range: range)
        } else {
            self.init(kind: kind, role: .other, entry: -1, name: name, scalar: scalar, range: range)
        }
    }

    /// A control sequence whose name was already looked up (`entry` is its index in
    /// `tables.controlSequences`, or -1).
    @inline(__always)
    init(controlSequence entry: Int32, name: String, tables: ParserTables, range: SourceRange) {
        self.init(kind: .controlSequence, role: entry < 0 ? .other : tables.controlSequences[Int(entry)].role,
                  entry: entry, name: name, scalar: " ", range: range)
    }

    @inline(__always)
    private init(kind: Kind, role: ControlSequenceRole, entry: Int32, name: String, scalar: Unicode.Scalar,
                 range: SourceRange) {
        self.kind = kind
        self.role = role
        self.entry = entry
        self.name = name
        self.scalar = scalar
        self.range = range
    }

    func isControlSequence(_ n: String) -> Bool { kind == .controlSequence && name == n }
    func isCharacter(_ c: Unicode.Scalar) -> Bool { kind == .character && scalar == c }

    /// The token written back as TeX source (for error nodes and raw arguments).
    var sourceText: String {
        switch kind {
        case .controlSequence:
            if let first = name.unicodeScalars.first, name.unicodeScalars.count == 1,
               !(("a"..."z").contains(first) || ("A"..."Z").contains(first)) {
                return "\\" + name
            }
            return "\\" + name + " "
        case .character: return String(Character(scalar))
        case .beginGroup: return "{"
        case .endGroup: return "}"
        case .mathShift: return "$"
        case .alignment: return "&"
        case .parameter: return scalar == "0" ? "#" : "#" + String(Character(scalar))
        case .superscript: return "^"
        case .subscript: return "_"
        case .space: return " "
        case .active: return "~"
        case .verbatim: return "\\verb" + (scalar == "*" ? "*" : "") + "|" + name + "|"
        case .eof: return ""
        }
    }
}

extension Array where Element == Token {
    /// The tokens written back as TeX, trimming the trailing space a control word adds.
    var sourceText: String {
        var s = ""
        for t in self { s += t.sourceText }
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
