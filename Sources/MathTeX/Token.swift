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
    /// The control sequence name (without the backslash); empty for other kinds.
    let name: String
    /// The character, for character-like tokens.
    var scalar: Unicode.Scalar
    /// Where the token came from; tokens produced by a macro carry the macro call's range.
    var range: SourceRange

    init(_ kind: Kind, name: String = "", scalar: Unicode.Scalar = " ", range: SourceRange) {
        self.kind = kind
        self.name = name
        self.scalar = scalar
        self.range = range
        self.role = kind == .controlSequence ? ControlSequenceRole.of(name) : .other
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

/// The control sequences the expander and the parser's expression loop treat specially, so that
/// each stage switches on a small value instead of comparing the name with every special name.
/// One dictionary look-up when the token is made replaces those string comparisons.
enum ControlSequenceRole: UInt8, Sendable {
    /// Any other command (registry command, symbol, user macro or unknown).
    case other
    /// A name defined in ``BuiltinMacros`` (the expander looks it up in its macro table).
    case builtinMacro
    // Expander primitives.
    case def             // \def \gdef \edef \xdef
    case newCommand      // \newcommand \renewcommand \providecommand
    case `let`           // \let
    case declareOperator // \DeclareMathOperator
    case ignored         // \global \long \relax \/
    case changeCase      // \uppercase \lowercase
    case bgroup, egroup
    // Parser structure.
    case right, middle, end
    case lineBreak       // \\
    case crOrNewline     // \cr \newline
    case closeParen      // \)
    case infix           // \over \atop \choose \brace \brack \above
    case limits          // \limits \nolimits \displaylimits
    case noNumber        // \nonumber \notag

    static func of(_ name: String) -> ControlSequenceRole {
        // Most names have no role: skip hashing those whose first byte and length no role name has.
        let utf8 = name.utf8
        guard let first = utf8.first else { return .other }
        if first < 0x80, filter[Int(first)] & (1 << UInt32(min(utf8.count, 31))) == 0 { return .other }
        return table[name] ?? .other
    }

    /// For each ASCII first byte, bit `n` is set when a name with a role starts with that byte and
    /// has `n` bytes (31 for 31 or more).
    private static let filter: [UInt32] = {
        var filter = [UInt32](repeating: 0, count: 128)
        for name in table.keys {
            guard let first = name.utf8.first, first < 0x80 else { continue }
            filter[Int(first)] |= 1 << UInt32(min(name.utf8.count, 31))
        }
        return filter
    }()

    private static let table: [String: ControlSequenceRole] = {
        var table: [String: ControlSequenceRole] = [:]
        // Every name in the built-in macro source (a superset of BuiltinMacros.table, which skips
        // names the registry defines; a superset only costs a failed look-up). Read from the source
        // text, not from the table, whose tokens are made with this table.
        for line in BuiltinMacros.source.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard let space = trimmed.firstIndex(of: " ") else { continue }
            table[String(trimmed[..<space])] = .builtinMacro
        }
        let roles: [(ControlSequenceRole, [String])] = [
            (.def, ["def", "gdef", "edef", "xdef"]),
            (.newCommand, ["newcommand", "renewcommand", "providecommand"]),
            (.let, ["let"]),
            (.declareOperator, ["DeclareMathOperator"]),
            (.ignored, ["global", "long", "relax", "/"]),
            (.changeCase, ["uppercase", "lowercase"]),
            (.bgroup, ["bgroup"]), (.egroup, ["egroup"]),
            (.right, ["right"]), (.middle, ["middle"]), (.end, ["end"]),
            (.lineBreak, ["\\"]), (.crOrNewline, ["cr", "newline"]), (.closeParen, [")"]),
            (.infix, ["over", "atop", "choose", "brace", "brack", "above"]),
            (.limits, ["limits", "nolimits", "displaylimits"]),
            (.noNumber, ["nonumber", "notag"]),
        ]
        for (role, names) in roles {
            for name in names {
                precondition(table[name] == nil, "\\\(name) has two roles")
                table[name] = role
            }
        }
        return table
    }()
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
