/// XML escaping shared by the writers (MathML, SSML, SVG): each writer escapes for its format; the
/// API returns plain strings (DESIGN.md §6).
public enum XMLEscaping {
    /// Whether a code point is allowed in XML 1.0 (`Char` production).
    public static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Escapes element content: `&`, `<`, `>`; characters XML forbids become U+FFFD; with
    /// `nbspAsReference`, U+00A0 is written `&#xA0;`.
    public static func text(_ text: String, nbspAsReference: Bool = false) -> String {
        // Nearly every string needs nothing escaped: check the bytes and hand the string back.
        needsEscaping(text, attribute: false, nbspAsReference: nbspAsReference)
            ? escape(text, attribute: false, nbspAsReference: nbspAsReference) : text
    }

    /// Escapes a double-quoted attribute value (also `"` and white-space characters as references).
    public static func attribute(_ text: String) -> String {
        needsEscaping(text, attribute: true, nbspAsReference: false) ? escape(text, attribute: true, nbspAsReference: false) : text
    }

    /// `text` escaped (the caller has found that something needs escaping), on its UTF-8 bytes: a
    /// byte that starts nothing escaped (``replacement(_:_:attribute:nbspAsReference:)``) is copied as it
    /// is (a Unicode scalar at a time through `UTF8.encode` cost some 400 instructions a byte;
    /// `MathAloudBench render-svg-profile`, where one source in seventeen holds a `<`, `>` or `&`,
    /// session 12).
    private static func escape(_ text: String, attribute: Bool, nbspAsReference: Bool) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            var i = 0
            while i < bytes.count {
                if let (written, length) = replacement(bytes, i, attribute: attribute, nbspAsReference: nbspAsReference) {
                    written.withUTF8Buffer { out.append(contentsOf: $0) }
                    i += length
                } else {
                    out.append(bytes[i])
                    i += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// What escaping writes for the character that starts at byte `i` of valid UTF-8 `bytes`, and how
    /// many bytes that character has; nil when it is kept as it is. The one statement of what is
    /// escaped: markup characters; control characters XML forbids (in element content all but tab,
    /// line feed and carriage return) and U+FFFE/U+FFFF become U+FFFD; in attributes quotes and white
    /// space are references; U+00A0 is one when `nbspAsReference`.
    @inline(__always)
    private static func replacement(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, attribute: Bool,
                                     nbspAsReference: Bool) -> (StaticString, Int)? {
        switch bytes[i] {
        case 0x26: return ("&amp;", 1)
        case 0x3C: return ("&lt;", 1)
        case 0x3E: return ("&gt;", 1)
        case 0x22: return attribute ? ("&quot;", 1) : nil
        case 0x0A: return attribute ? ("&#xA;", 1) : nil
        case 0x0D: return attribute ? ("&#xD;", 1) : nil
        case 0x09: return attribute ? ("&#x9;", 1) : nil
        case ..<0x20: return ("\u{FFFD}", 1)
        case 0xC2 where nbspAsReference && i + 1 < bytes.count && bytes[i + 1] == 0xA0: return ("&#xA0;", 2)
        case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
            return ("\u{FFFD}", 3)
        default: return nil
        }
    }

    /// Whether any byte of `text` starts something escaping changes:
    /// markup characters, control characters XML forbids, U+FFFE/U+FFFF (EF BF BE/BF), and in
    /// attributes quotes and white space; U+00A0 (C2 A0) when it is written as a reference. Tab, line
    /// feed and carriage return are left as they are in element content. ASCII is read eight bytes at
    /// a time; a word holding a control character, a markup character or a quote is looked at byte
    /// by byte, and so is everything from the first non-ASCII byte on.
    package static func needsEscaping(_ text: String, attribute: Bool, nbspAsReference: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            /// Whether the character at `i` is escaped (``replacement(_:_:attribute:nbspAsReference:)``).
            @inline(__always) func escapes(_ i: Int) -> Bool {
                replacement(bytes, i, attribute: attribute, nbspAsReference: nbspAsReference) != nil
            }
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            /// Whether any byte of an ASCII word is zero (exact: a borrow only ever follows a zero byte).
            @inline(__always) func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & highs != 0 }
            var i = 0
            while i + 8 <= count {
                let w = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if w & highs != 0 { break }   // not ASCII: byte by byte from here
                // A byte below 0x20, `<` or `>` (0x3C, 0x3E: 0x3E with bit 1 set), `"` or `&` (0x22,
                // 0x26: 0x26 with bit 2 set): these eight bytes one by one (a quote in element content
                // is looked at and kept).
                if (w &- 0x20 &* ones) & ~w & highs != 0 || hasZero((w | 0x02 &* ones) ^ 0x3E &* ones)
                    || hasZero((w | 0x04 &* ones) ^ 0x26 &* ones) {
                    for k in i..<i + 8 where escapes(k) { return true }
                }
                i += 8
            }
            while i < count {
                if escapes(i) { return true }
                i += 1
            }
            return false
        }
    }
}
