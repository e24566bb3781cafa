import MathSyntax

/// Turns TeX source bytes into tokens (TeXbook ch. 7–8): control words swallow the spaces after
/// them, runs of white space become one space token, `%` comments are dropped.
/// Works on UTF-8 bytes; input decoded from a Swift `String` is always valid UTF-8. A known
/// control sequence's name is found in ``ParserTables`` from its bytes (no `String` is made for it).
///
/// The lexer reads the bytes in place: it must not outlive the buffer it is given, which is the
/// input of one parse (see ``TeXParser/parse(utf8:)``).
struct Lexer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let tables: ParserTables
    private(set) var position: Int
    /// The names of the tokens made that are not known control sequences.
    var names = TokenNames()

    init(bytes: UnsafeBufferPointer<UInt8>, tables: ParserTables) {
        self.bytes = bytes
        self.tables = tables
        self.position = 0
    }

    var isAtEnd: Bool { position >= bytes.count }

    @inline(__always)
    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x40  // a-z A-Z @
    }

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// Decodes the scalar starting at `i`; returns it and its byte length. Invalid bytes decode to U+FFFD.
    private func decodeScalar(at i: Int) -> (Unicode.Scalar, Int) {
        let b0 = bytes[i]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        var length = 0
        var value: UInt32 = 0
        if b0 & 0xE0 == 0xC0 { length = 2; value = UInt32(b0 & 0x1F) }
        else if b0 & 0xF0 == 0xE0 { length = 3; value = UInt32(b0 & 0x0F) }
        else if b0 & 0xF8 == 0xF0 { length = 4; value = UInt32(b0 & 0x07) }
        else { return ("\u{FFFD}", 1) }
        guard i + length <= bytes.count else { return ("\u{FFFD}", 1) }
        for k in 1..<length {
            let b = bytes[i + k]
            guard b & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            value = (value << 6) | UInt32(b & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The next token, or an `eof` token at the end. With `skippingSpaces`, runs of white space
    /// make no token (for readers that ignore space tokens anyway).
    ///
    /// Only the tokens of one byte and runs of white space, most tokens, are made here; control
    /// sequences, comments, parameters and non-ASCII characters in ``nextRare(at:)``, kept out of
    /// line so that this path needs few registers: with them inline, every token paid for saving and
    /// restoring six registers, ~20 of the ~60 instructions of a one-byte token (`MathAloudBench
    /// stages` under callgrind).
    mutating func next(skippingSpaces: Bool = false) -> Token {
        while position < bytes.count {
            let start = position
            let b = bytes[position]
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D:
                while position < bytes.count, Lexer.isSpace(bytes[position]) { position += 1 }
                if skippingSpaces { continue }
                return Token(.space, scalar: " ", range: range(start, position))
            case 0x7B: position += 1; return Token(.beginGroup, scalar: "{", range: range(start, position))
            case 0x7D: position += 1; return Token(.endGroup, scalar: "}", range: range(start, position))
            case 0x24: position += 1; return Token(.mathShift, scalar: "$", range: range(start, position))
            case 0x26: position += 1; return Token(.alignment, scalar: "&", range: range(start, position))
            case 0x5E: position += 1; return Token(.superscript, scalar: "^", range: range(start, position))
            case 0x5F: position += 1; return Token(.subscript, scalar: "_", range: range(start, position))
            case 0x7E: position += 1; return Token(.active, scalar: "~", range: range(start, position))
            case 0x5C, 0x25, 0x23:
                if let token = nextRare(at: start) { return token }
                continue  // a comment
            default:
                if b < 0x80 {  // ASCII, the common case: no decoding
                    position += 1
                    return Token(.character, scalar: Unicode.Scalar(b), range: range(start, position))
                }
                return nextRare(at: start)!
            }
        }
        return Token(.eof, range: range(bytes.count, bytes.count))
    }

    /// The token at `start` (the current position) that ``next(skippingSpaces:)`` does not make
    /// itself: a control sequence, a parameter or a non-ASCII character; nil after a `%` comment,
    /// which is skipped.
    @inline(never)
    private mutating func nextRare(at start: Int) -> Token? {
        let b = bytes[position]
        switch b {
        case 0x5C:  // backslash
            position += 1
            guard position < bytes.count else {
                return controlSequence(named: "", range: range(start, position))
            }
            if Lexer.isLetter(bytes[position]) {
                var end = position
                var hash = ParserTables.hashSeed
                while end < bytes.count, Lexer.isLetter(bytes[end]) {
                    hash = ParserTables.hash(hash, bytes[end])
                    end += 1
                }
                let token = controlSequence(UnsafeBufferPointer(rebasing: bytes[position..<end]), hash: hash,
                                            range: range(start, end))
                position = end
                if token.name.rawValue == tables.verb, let verbatim = lexVerbatim(start: start) { return verbatim }
                // TeX skips spaces after a control word (and one end of line).
                while position < bytes.count, Lexer.isSpace(bytes[position]) { position += 1 }
                return token
            }
            let (scalar, length) = decodeScalar(at: position)
            if Lexer.isSpace(bytes[position]) {
                // "\ " is a control space; swallow nothing further.
                position += 1
                return controlSequence(named: " ", range: range(start, position))
            }
            position += length
            if length == 1, bytes[position - 1] < 0x80 {
                let name = UnsafeBufferPointer(rebasing: bytes[(position - 1)..<position])
                return controlSequence(name, hash: ParserTables.hash(name), range: range(start, position))
            }
            return controlSequence(named: String(Character(scalar)), range: range(start, position))
        case 0x25:  // % comment to end of line, plus the leading spaces of the next line
            while position < bytes.count, bytes[position] != 0x0A { position += 1 }
            if position < bytes.count { position += 1 }
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            return nil
        case 0x23:  // # parameter
            position += 1
            if position < bytes.count, (bytes[position] >= 0x31 && bytes[position] <= 0x39) || bytes[position] == 0x23 {
                let digit = Unicode.Scalar(bytes[position])
                position += 1
                return Token(.parameter, scalar: digit, range: range(start, position))
            }
            return Token(.parameter, scalar: "0", range: range(start, position))
        default:
            let (scalar, length) = decodeScalar(at: position)
            position += length
            return Token(.character, scalar: scalar, range: range(start, position))
        }
    }

    /// The next byte after white space (which is skipped), or nil at the end.
    mutating func peekByteSkippingSpaces() -> UInt8? {
        while position < bytes.count, Lexer.isSpace(bytes[position]) { position += 1 }
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes one byte (one that makes a token by itself); returns its offset.
    mutating func skipByte() -> Int {
        position += 1
        return position - 1
    }

    /// After `\verb`: an optional `*`, a delimiter character, and raw text up to the same character
    /// on the same line. Nil (nothing consumed) when the text is not closed.
    private mutating func lexVerbatim(start: Int) -> Token? {
        var i = position
        var starred = false
        if i < bytes.count, bytes[i] == 0x2A { starred = true; i += 1 }
        guard i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D else { return nil }
        let (delimiter, length) = decodeScalar(at: i)
        i += length
        let contentStart = i
        while i < bytes.count {
            if bytes[i] == 0x0A { return nil }
            let (scalar, n) = decodeScalar(at: i)
            if scalar == delimiter {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<i]), as: UTF8.self)
                position = i + n
                return Token(verbatim: names.add(text), starred: starred, range: range(start, position))
            }
            i += n
        }
        return nil
    }

    /// A control sequence token for the name made of `name` (whose hash is `hash`): the table's
    /// entry for a known one, a new local name otherwise.
    @inline(__always)
    private mutating func controlSequence(_ name: UnsafeBufferPointer<UInt8>, hash: UInt32, range: SourceRange) -> Token {
        let entry = tables.entry(name, hash: hash)
        let tokenName = entry >= 0 ? TokenName(rawValue: entry) : names.add(String(decoding: name, as: UTF8.self))
        return Token(controlSequence: tokenName, tables: tables, range: range)
    }

    /// A control sequence token named `name`.
    private mutating func controlSequence(named name: String, range: SourceRange) -> Token {
        Token(controlSequence: tokenName(name), tables: tables, range: range)
    }

    /// The token name of `string`: a known control sequence's entry, or a new local name.
    mutating func tokenName(_ string: String) -> TokenName {
        let entry = tables.entry(string)
        return entry >= 0 ? TokenName(rawValue: entry) : names.add(string)
    }

    @inline(__always)
    private func range(_ a: Int, _ b: Int) -> SourceRange { SourceRange(a, b) }
}
