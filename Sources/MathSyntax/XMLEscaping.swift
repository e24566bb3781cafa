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
        escape(text, attribute: false, nbspAsReference: nbspAsReference)
    }

    /// Escapes a double-quoted attribute value (also `"` and white-space characters as references).
    public static func attribute(_ text: String) -> String {
        escape(text, attribute: true, nbspAsReference: false)
    }

    private static func escape(_ text: String, attribute: Bool, nbspAsReference: Bool) -> String {
        // Nearly every string needs nothing escaped: check the bytes and hand the string back.
        guard needsEscaping(text, attribute: attribute, nbspAsReference: nbspAsReference) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".utf8)
            case "<": out.append(contentsOf: "&lt;".utf8)
            case ">": out.append(contentsOf: "&gt;".utf8)
            case "\"" where attribute: out.append(contentsOf: "&quot;".utf8)
            case "\n" where attribute: out.append(contentsOf: "&#xA;".utf8)
            case "\r" where attribute: out.append(contentsOf: "&#xD;".utf8)
            case "\t" where attribute: out.append(contentsOf: "&#x9;".utf8)
            case "\u{A0}" where nbspAsReference: out.append(contentsOf: "&#xA0;".utf8)
            default:
                out.append(contentsOf: UTF8.encode(isXMLCharacter(scalar.value) ? scalar : "\u{FFFD}")!)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether any byte of `text` starts something ``escape(_:attribute:nbspAsReference:)`` changes:
    /// markup characters, control characters XML forbids, U+FFFE/U+FFFF (EF BF BE/BF), and in
    /// attributes quotes and white space; U+00A0 (C2 A0) when it is written as a reference.
    private static func needsEscaping(_ text: String, attribute: Bool, nbspAsReference: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for i in bytes.indices {
                let byte = bytes[i]
                if byte > 0x3E && byte < 0xA0 { continue }          // letters and most punctuation
                switch byte {
                case 0x26, 0x3C, 0x3E: return true                   // & < >
                case 0x22, 0x09, 0x0A, 0x0D: if attribute { return true }
                case 0x00..<0x20: return true
                case 0xA0: if nbspAsReference && i > 0 && bytes[i - 1] == 0xC2 { return true }
                case 0xBE, 0xBF: if i > 1 && bytes[i - 1] == 0xBF && bytes[i - 2] == 0xEF { return true }
                default: break
                }
            }
            return false
        }
    }
}
