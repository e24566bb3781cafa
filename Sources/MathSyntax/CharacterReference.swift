/// An HTML/XML character reference read from UTF-8 bytes: `&#931;`, `&#x3A3;` (a code point) or
/// `&Sigma;` (a name, resolved by the caller, which knows its entity table). The one reader of the TeX
/// text scanner (entities in the math of Markdown/HTML) and the documents layer's HTML tokenizer;
/// the MathML source scanner checks references for the XML parser with diagnostics of its own.
public enum CharacterReference: Equatable, Sendable {
    /// A numeric reference to a Unicode scalar (never U+0000).
    case scalar(Unicode.Scalar)
    /// A named reference: the indices of the name (without `&` and `;`) in the bytes read.
    case name(Range<Int>)

    /// The reference that starts at `i` (which holds `&`) and ends with `;` before `limit`, with its
    /// length in bytes (from `&` to `;`); nil when the bytes there are no well-formed reference: no `;`
    /// within `maxNameLength` bytes, an empty name, digits that are not digits, or a code point that is
    /// 0 or no Unicode scalar (HTML's rule: such a reference is text).
    @inlinable
    public static func read<Bytes: RandomAccessCollection>(
        _ bytes: Bytes, at i: Int, limit: Int, maxNameLength: Int
    ) -> (reference: CharacterReference, length: Int)? where Bytes.Element == UInt8, Bytes.Index == Int {
        var j = i + 1
        let end = Swift.min(limit, bytes.endIndex, i + 2 + maxNameLength)
        while j < end, bytes[j] != 0x3B { j += 1 }   // ';'
        guard j < end, j > i + 1 else { return nil }
        let length = j + 1 - i
        guard bytes[i + 1] == 0x23 else { return (.name((i + 1)..<j), length) }   // '#'
        var k = i + 2
        let hex = k < j && bytes[k] | 0x20 == 0x78   // 'x' or 'X'
        if hex { k += 1 }
        // Seven digits hold every scalar (U+10FFFF is 1114111) and cannot overflow 32 bits.
        guard k < j, j - k <= 7 else { return nil }
        var value: UInt32 = 0
        while k < j {
            let d = bytes[k]
            if d >= 0x30 && d <= 0x39 {
                value = value * (hex ? 16 : 10) + UInt32(d - 0x30)
            } else if hex, d | 0x20 >= 0x61, d | 0x20 <= 0x66 {
                value = value * 16 + UInt32(d | 0x20 - 0x61 + 10)
            } else {
                return nil
            }
            k += 1
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return (.scalar(scalar), length)
    }

    /// The character of one of XML's five predefined entities (`lt`, `gt`, `amp`, `quot`, `apos`).
    @inlinable
    public static func xmlPredefined<Name: Collection>(_ name: Name) -> UInt8? where Name.Element == UInt8 {
        if name.elementsEqual("lt".utf8) { return 0x3C }
        if name.elementsEqual("gt".utf8) { return 0x3E }
        if name.elementsEqual("amp".utf8) { return 0x26 }
        if name.elementsEqual("quot".utf8) { return 0x22 }
        if name.elementsEqual("apos".utf8) { return 0x27 }
        return nil
    }
}
