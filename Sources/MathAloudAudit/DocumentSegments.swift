import Foundation
import MathAloud

/// The document formats the audit reads.
public enum DocumentFormat: String, Sendable, CaseIterable, Codable {
    /// CommonMark/GFM with math delimiters (`.md`, `.markdown`, `.qmd`, `.Rmd`).
    case markdown
    /// HTML or XHTML (`.html`, `.htm`, `.xhtml`).
    case html
    /// LaTeX (`.tex`, `.ltx`).
    case latex
    /// Jupyter notebooks (`.ipynb`).
    case notebook
    /// EPUB 3 (`.epub`).
    case epub
    /// Plain text with TeX delimiters (`.txt`).
    case text

    /// The format of a file, from its extension.
    public static func forExtension(_ ext: String) -> DocumentFormat? {
        switch ext.lowercased() {
        case "md", "markdown", "mdown", "mkd", "qmd", "rmd", "mdx": .markdown
        case "html", "htm", "xhtml", "xht", "shtml": .html
        case "tex", "ltx", "latex": .latex
        case "ipynb": .notebook
        case "epub": .epub
        case "txt", "text": .text
        default: nil
        }
    }

    /// The format of a file from its first bytes, for files without a known extension.
    public static func sniff(_ head: [UInt8]) -> DocumentFormat? {
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return head.count >= 58 && String(decoding: head[30..<min(head.count, 58)], as: UTF8.self).contains("epub") ? .epub : nil
        }
        let text = String(decoding: head.prefix(1024), as: UTF8.self).lowercased()
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{"), text.contains("\"cells\"") || text.contains("\"nbformat\"") { return .notebook }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || (trimmed.hasPrefix("<?xml") && text.contains("<html")) { return .html }
        if text.contains("\\documentclass") { return .latex }
        return nil
    }
}

/// A document cut into the formulas the audit judges: the text (UTF-8), the formula sites and the
/// problems found on the way.
struct SegmentedDocument: Sendable {
    /// The text the sites point into.
    var text: SourceText
    /// The formulas, in document order.
    var sites: [FormulaSite] = []
    /// Problems of the document itself (an unclosed delimiter, a malformed notebook).
    var problems: [(rule: AuditRule, message: String, range: SourceRange)] = []
    /// Whether `<math>` elements carry `aria-label` already.
    var usesAriaLabel = false
    /// Edits land inside JSON strings (notebooks): replacements are JSON-escaped.
    var editsInJSONStrings = false
    /// `\input`/`\include` names found in a LaTeX file, with where they are.
    var includes: [(name: String, range: SourceRange)] = []
}

/// Reads the bytes of a file as text: UTF-8 (a byte-order mark is kept, as a zero-width character);
/// UTF-16 with a byte-order mark and anything that is not UTF-8 (read as Windows-1252) are transcoded,
/// and then the file is not rewritten by `--fix` (its bytes would change outside the attributes).
enum TextDecoding {
    static func decode(_ bytes: [UInt8]) -> (text: [UInt8], transcoded: Bool) {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let big = bytes[0] == 0xFE
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 2
            while i + 1 < bytes.count {
                units.append(big ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
                i += 2
            }
            return (Array(String(decoding: units, as: UTF16.self).utf8), true)
        }
        if isValidUTF8(bytes) { return (bytes, false) }
        // Windows-1252 is what browsers read undeclared non-UTF-8 text as (WHATWG Encoding §5).
        let cp1252: [UInt32] = [0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152,
                                0x8D, 0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122,
                                0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178]
        var out = String.UnicodeScalarView()
        for b in bytes {
            let value = b >= 0x80 && b < 0xA0 ? cp1252[Int(b - 0x80)] : UInt32(b)
            out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return (Array(String(out).utf8), true)
    }

    /// Whether `bytes` is valid UTF-8 (the validation String's failable initialiser does).
    private static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }
}
