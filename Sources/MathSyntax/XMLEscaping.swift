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
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#xA;"
            case "\r" where attribute: out += "&#xD;"
            case "\t" where attribute: out += "&#x9;"
            case "\u{A0}" where nbspAsReference: out += "&#xA0;"
            default:
                if isXMLCharacter(scalar.value) { out.unicodeScalars.append(scalar) } else { out += "\u{FFFD}" }
            }
        }
        return out
    }
}
