import MathSyntax

/// The control sequences the expander and the parser's expression loop treat specially, so that
/// each stage switches on a small value instead of comparing the name with every special name.
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
    case declarePairedDelimiter // \DeclarePairedDelimiter \DeclarePairedDelimiterX (mathtools)
    case documentCommand // \NewDocumentCommand \RenewDocumentCommand \ProvideDocumentCommand \DeclareDocumentCommand (xparse)
    case system          // \systeme (systeme)
    case systemDelimiters // \sysdelim (systeme)
    case ignored         // \global \long \relax \/ \nonscript \protect \-
    case changeCase      // \uppercase \lowercase
    case etoolbox        // \newbool \setbool \ifbool \newtoggle \iftoggle … (etoolbox)
    case bgroup, egroup
    // Parser structure.
    case right, middle, end
    case lineBreak       // \\
    case crOrNewline     // \cr \newline
    case closeParen      // \)
    case infix           // \over \atop \choose \brace \brack \above
    case limits          // \limits \nolimits \displaylimits
    case noNumber        // \nonumber \notag
    case interText       // \intertext \shortintertext (amsmath: prose between a table's rows)

    /// The names of each role but ``other`` and ``builtinMacro``: the expander's primitives and the
    /// parser's structural commands.
    static let names: [(ControlSequenceRole, [String])] = [
        (.def, ["def", "gdef", "edef", "xdef"]),
        (.newCommand, ["newcommand", "renewcommand", "providecommand"]),
        (.let, ["let"]),
        (.declareOperator, ["DeclareMathOperator"]),
        (.declarePairedDelimiter, ["DeclarePairedDelimiter", "DeclarePairedDelimiterX"]),
        (.documentCommand, ["NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand", "DeclareDocumentCommand"]),
        (.system, ["systeme"]), (.systemDelimiters, ["sysdelim"]),
        // `\nonscript` drops the glue after it in a script style only (TeXbook ch. 17); read as nothing, the glue stays. `\protect`
        // (LaTeX's fragile-command guard) and `\-` (a discretionary hyphen) make nothing in a formula.
        (.ignored, ["global", "long", "relax", "/", "nonscript", "protect", "-"]),
        (.changeCase, ["uppercase", "lowercase"]),
        (.etoolbox, ["newbool", "providebool", "setbool", "booltrue", "boolfalse", "ifbool", "notbool",
                     "newtoggle", "providetoggle", "settoggle", "toggletrue", "togglefalse", "iftoggle", "nottoggle"]),
        (.bgroup, ["bgroup"]), (.egroup, ["egroup"]),
        (.right, ["right"]), (.middle, ["middle"]), (.end, ["end"]),
        (.lineBreak, ["\\"]), (.crOrNewline, ["cr", "newline"]), (.closeParen, [")"]),
        (.infix, ["over", "atop", "choose", "brace", "brack", "above"]),
        (.limits, ["limits", "nolimits", "displaylimits"]),
        (.noNumber, ["nonumber", "notag"]),
        (.interText, ["intertext", "shortintertext"]),
    ]

    /// `\right`, `\middle`, `\end` and `\\` end the construct around them, so they cannot be
    /// an argument or a script.
    var endsArgument: Bool {
        switch self {
        case .right, .middle, .end, .lineBreak: return true
        default: return false
        }
    }
}

/// A control sequence name the parser knows, with everything the lexer, the expander and the
/// parser need to know about it.
struct ControlSequence: Sendable {
    /// The name without the backslash.
    let name: String
    /// Its special meaning to the expander or the parser's expression loop.
    let role: ControlSequenceRole
    /// The registry command or math symbol of that name, if any (the registry's when both exist).
    let meaning: Meaning

    /// What a name stands for in the command registry and the symbol table.
    enum Meaning: Sendable {
        case none
        case command(CommandDefinition)
        case symbol(SymbolLeaf)
    }
}

/// A symbol as the parser makes its leaf, prepared once: what an identifier symbol needs to take
/// the math alphabet in force, and whether an operator symbol takes limits. A class, so that taking
/// one out of a table costs one reference count rather than a copy of the symbol's fields.
final class SymbolLeaf: Sendable {
    /// The symbol's text.
    let text: String
    /// The properties of an operator symbol's node (``TeXSymbol/operatorProperties``); nil for an
    /// identifier.
    let operatorProperties: OperatorProperties?
    /// Whether `\mathit` draws the identifier italic: one character that is not an ASCII letter
    /// (a Greek letter, ∞) keeps its default style.
    let takesItalic: Bool
    /// A large operator whose limits go above and below in display style (`\sum`).
    let takesLimits: Bool
    /// A symbol that is a letter of a MathML alphabet (`\varGamma` 𝛤, `\Re` ℜ): its plain letter and
    /// alphabet, as the character typed directly gives them.
    let alphabet: (base: String, variant: MathVariant?)?

    init(_ symbol: TeXSymbol) {
        text = symbol.text
        operatorProperties = symbol.operatorProperties
        // (Styled letters are all at U+2100 or above: most symbols need no look-up.)
        if symbol.operatorProperties == nil, let u = symbol.text.unicodeScalars.first, u.value >= 0x2100,
           symbol.text.unicodeScalars.count == 1, let (base, variant) = UnicodeMath.decompose(u) {
            alphabet = (String(Character(base)), variant == .italic && UnicodeMath.isItalicByDefault(base) ? nil : variant)
        } else {
            alphabet = nil
        }
        let scalars = symbol.text.unicodeScalars
        takesItalic = !(scalars.count == 1 && !isASCIILetter(scalars.first!))
        if case .largeOperator(let limits) = symbol.symbolClass { takesLimits = limits } else { takesLimits = false }
    }
}

/// The tables every parse reads, built once: every known control sequence name, found from the
/// bytes of a name so that the lexer makes no `String` and the parser does no dictionary look-up
/// for a known command, and the math meaning and the one-character string of each ASCII character.
///
/// A parse keeps one reference to the shared instance, so that a look-up is an array access rather
/// than a global's initialisation check.
final class ParserTables: Sendable {
    /// The one instance.
    static let shared = ParserTables()

    /// The known control sequences; a token's ``Token/entry`` indexes this array.
    let controlSequences: [ControlSequence]
    /// The index of `\verb` in ``controlSequences``.
    let verb: Int32
    /// ``SymbolTable/character(_:)`` for each ASCII code, as a leaf (the symbol table's `[char]`
    /// section holds ASCII characters only: its parser reports any other as a problem).
    private let asciiSymbols: [SymbolLeaf?]
    /// The one-character string of each ASCII code. Every letter and digit of a formula needs one,
    /// and copying a small string costs far less than making one from a scalar.
    let asciiStrings: [String]

    /// An open-addressing hash table (linear probing, power-of-two size) of the names, each slot
    /// holding its name's first 16 bytes, its length and its index into ``controlSequences``, so that a
    /// look-up compares the name in the slot it reads: with the indices alone, each look-up read the
    /// slot, the name's start and its bytes, ~3 data cache misses and a mispredicted byte loop
    /// (`MathAloudBench stages` under callgrind, session 39).
    private let slots: [Slot]
    /// The names' UTF-8 bytes after their first 16, one after another; name `i` spans
    /// `nameStarts[i] ..< nameStarts[i + 1]` (most names are shorter, and span nothing).
    private let nameBytes: [UInt8]
    private let nameStarts: [Int32]

    /// A slot of ``slots``: a name's first 16 bytes (zero after its end), its length and its index,
    /// -1 for an empty slot.
    struct Slot {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var length: Int32 = 0
        var index: Int32 = -1

        /// The first 16 bytes of `name`, zero after its end, as a slot holds them: read as two words
        /// from overlapping loads within the name, each byte at its place (little-endian), where a copy
        /// into a zeroed key cost a call of `memcpy`, ~15 instructions a look-up (`MathAloudBench stages`
        /// under callgrind, session 39).
        @inline(__always)
        static func key(_ name: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
            let n = name.count
            guard let base = name.baseAddress, n > 0 else { return (0, 0) }
            let p = UnsafeRawPointer(base)
            if n >= 8 {
                let head = p.loadUnaligned(as: UInt64.self)
                if n >= 16 { return (head, p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
                // Bytes n - 8 ..< n, shifted so that byte 8 is the low one.
                return (head, p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) >> UInt64(8 * (16 - n)))
            }
            if n >= 4 {
                // Bytes 0 ..< 4 and n - 4 ..< n, each at its place (they overlap with equal bytes).
                let low = UInt64(p.loadUnaligned(as: UInt32.self))
                let high = UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
                return (low | high << UInt64(8 * (n - 4)), 0)
            }
            // Bytes 0, n / 2 and n - 1 (equal ones when n < 3).
            let middle = n >> 1
            return (UInt64(base[0]) | UInt64(base[middle]) << UInt64(8 * middle) | UInt64(base[n - 1]) << UInt64(8 * (n - 1)), 0)
        }
    }

    private init() {
        // Every name goes once into the hash table below as it comes (no dictionaries, sets or
        // sorting: those cost ~6 M instructions at every start-up, BENCHMARKS.md session 8). The
        // roles first, then the built-in macros, the symbols and the registry commands: a name keeps
        // the role it has and takes the registry's meaning over the symbol table's. The order of
        // ``controlSequences`` is the order names came in; ``TeXParser/knownCommands`` sorts.
        let symbols = SymbolTable.mathSymbols
        let registry = CommandRegistry.table
        let builtins = BuiltinMacros.definitions
        let most = ControlSequenceRole.names.reduce(0) { $0 + $1.1.count } + builtins.count + symbols.count + registry.count + 1
        var size = 1
        while size < most * 3 { size <<= 1 }
        var builder = Builder(size: size, capacity: most)

        for (role, names) in ControlSequenceRole.names {
            for name in names {
                let index = builder.index(of: name)
                precondition(builder.roles[index] == .other, "\\\(name) has two roles")
                builder.roles[index] = role
            }
        }
        // The names BuiltinMacros.table defines (those the registry and the symbol table do not).
        for (name, _) in builtins {
            let index = builder.index(of: name)
            if builder.roles[index] == .other { builder.roles[index] = .builtinMacro }
        }
        for (name, symbol) in symbols { builder.meanings[builder.index(of: name)] = .symbol(SymbolLeaf(symbol)) }
        for (name, definition) in registry { builder.meanings[builder.index(of: name)] = .command(definition) }
        verb = Int32(builder.index(of: "verb"))

        controlSequences = builder.names.indices.map {
            ControlSequence(name: builder.names[$0], role: builder.roles[$0], meaning: builder.meanings[$0])
        }
        nameBytes = builder.bytes
        nameStarts = builder.starts
        slots = builder.slots

        asciiSymbols = (0..<0x80).map { SymbolTable.character(Unicode.Scalar(UInt8($0))).map(SymbolLeaf.init) }
        asciiStrings = (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) }
    }

    /// The tables being made: the names so far in the hash table (``ParserTables/slots``), each with
    /// its role and meaning.
    private struct Builder {
        var names: [String] = []
        var roles: [ControlSequenceRole] = []
        var meanings: [ControlSequence.Meaning] = []
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        var slots: [Slot]

        init(size: Int, capacity: Int) {
            slots = [Slot](repeating: Slot(), count: size)
            names.reserveCapacity(capacity)
            roles.reserveCapacity(capacity)
            meanings.reserveCapacity(capacity)
            starts.reserveCapacity(capacity + 1)
            bytes.reserveCapacity(capacity * 8)
        }

        /// The index of `name`, added (with no role and no meaning) if it is not there yet.
        mutating func index(of name: String) -> Int {
            var utf8 = name
            return utf8.withUTF8 { new in
                let mask = slots.count - 1
                var slot = Int(ParserTables.hash(new)) & mask
                while true {
                    let index = Int(slots[slot].index)
                    if index < 0 { break }
                    if names[index].utf8.elementsEqual(new) { return index }
                    slot = (slot + 1) & mask
                }
                precondition(names.count < slots.count / 2, "the parser tables' hash table is too small")
                let (head, tail) = Slot.key(new)
                slots[slot] = Slot(head: head, tail: tail, length: Int32(new.count), index: Int32(names.count))
                names.append(name)
                roles.append(.other)
                meanings.append(.none)
                if new.count > 16 { bytes.append(contentsOf: new[16...]) }
                starts.append(Int32(bytes.count))
                return names.count - 1
            }
        }
    }

    /// The hash of a name's bytes (FNV-1a): ``hashSeed`` combined with each byte by ``hash(_:_:)``.
    @inline(__always)
    static func hash<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var h = hashSeed
        for b in bytes { h = hash(h, b) }
        return h
    }

    /// The hash of an empty name.
    static let hashSeed: UInt32 = 2_166_136_261

    /// The hash `h` of a name's first bytes combined with the next byte `b`.
    @inline(__always)
    static func hash(_ h: UInt32, _ b: UInt8) -> UInt32 { (h ^ UInt32(b)) &* 16_777_619 }

    /// The index in ``controlSequences`` of the name made of `bytes`, whose ``hash(_:)`` is
    /// `hash`, or -1 when the name is not known. (Inlined into the lexer: called, it saved and restored
    /// registers, ~20 instructions a look-up, `MathAloudBench stages` under callgrind, session 39.)
    @inline(__always)
    func entry(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) -> Int32 {
        let (head, tail) = Slot.key(bytes)
        let length = Int32(truncatingIfNeeded: bytes.count)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let s = slots[slot]
            if s.index < 0 { return -1 }
            // One test for the first 16 bytes and the length (most names have no more).
            if (s.head ^ head) | (s.tail ^ tail) | UInt64(UInt32(bitPattern: s.length ^ length)) == 0,
               bytes.count <= 16 || restMatches(Int(s.index), bytes) {
                return s.index
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether the bytes of `name` after its first 16 are those of name `index` (of the same length).
    @inline(never)
    private func restMatches(_ index: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(nameStarts[index])
        var k = 16
        while k < name.count, nameBytes[start + k - 16] == name[k] { k += 1 }
        return k == name.count
    }

    /// The index in ``controlSequences`` of `name`, or -1 when it is not known.
    func entry(_ name: String) -> Int32 {
        var name = name
        return name.withUTF8 { entry($0, hash: Self.hash($0)) }
    }

    /// The math meaning of a control sequence token's entry (``ControlSequence/Meaning/none`` for -1).
    @inline(__always)
    func meaning(_ entry: Int32) -> ControlSequence.Meaning {
        entry < 0 ? .none : controlSequences[Int(entry)].meaning
    }

    /// ``SymbolTable/character(_:)`` as a leaf, from an array: nil for every character above ASCII.
    @inline(__always)
    func character(_ c: Unicode.Scalar) -> SymbolLeaf? {
        c.value < 0x80 ? asciiSymbols[Int(c.value)] : nil
    }

    /// The one-character string of `c`.
    @inline(__always)
    func string(_ c: Unicode.Scalar) -> String {
        c.value < 0x80 ? asciiStrings[Int(c.value)] : String(Character(c))
    }
}
