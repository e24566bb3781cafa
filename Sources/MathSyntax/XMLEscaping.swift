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
    /// byte that starts nothing escaped is copied as it is (a Unicode scalar at a time through
    /// `UTF8.encode` cost some 400 instructions a byte; `MathAloudBench render-svg-profile`, where
    /// one source in seventeen holds a `<`, `>` or `&`, session 12).
    private static func escape(_ text: String, attribute: Bool, nbspAsReference: Bool) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]   // U+FFFD
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case 0x26: out.append(contentsOf: "&amp;".utf8)
                case 0x3C: out.append(contentsOf: "&lt;".utf8)
                case 0x3E: out.append(contentsOf: "&gt;".utf8)
                case 0x22 where attribute: out.append(contentsOf: "&quot;".utf8)
                case 0x0A where attribute: out.append(contentsOf: "&#xA;".utf8)
                case 0x0D where attribute: out.append(contentsOf: "&#xD;".utf8)
                case 0x09 where attribute: out.append(contentsOf: "&#x9;".utf8)
                case 0x09, 0x0A, 0x0D: out.append(byte)
                case ..<0x20: out.append(contentsOf: replacement)         // control characters XML forbids
                case 0xC2 where nbspAsReference && i + 1 < bytes.count && bytes[i + 1] == 0xA0:
                    out.append(contentsOf: "&#xA0;".utf8)
                    i += 1
                case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                    out.append(contentsOf: replacement)                   // U+FFFE, U+FFFF
                    i += 2
                default: out.append(byte)
                }
                i += 1
            }
            return String(decoding: out, as: UTF8.self)
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
            // The bytes below 0x40 that are escaped: control characters (in element content not tab,
            // line feed or carriage return), `&`, `<`, `>`, and in attributes `"`.
            let markup: UInt64 = 1 << 0x26 | 1 << 0x3C | 1 << 0x3E
            let special: UInt64 = attribute ? 0xFFFF_FFFF | 1 << 0x22 | markup
                                            : 0xFFFF_FFFF & ~(1 << 0x09 | 1 << 0x0A | 1 << 0x0D) | markup
            /// Whether the byte at `i` starts something that is escaped.
            @inline(__always) func escapes(_ i: Int) -> Bool {
                let byte = bytes[i]
                if byte < 0x40 { return special >> byte & 1 != 0 }
                if byte < 0xA0 { return false }                                    // letters, most punctuation
                if byte == 0xA0 { return nbspAsReference && i > 0 && bytes[i - 1] == 0xC2 }     // U+00A0
                if byte == 0xBE || byte == 0xBF { return i > 1 && bytes[i - 1] == 0xBF && bytes[i - 2] == 0xEF }
                return false
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
