import MathAloud

// The start tags of HTML/XHTML with the byte range of every attribute value: what a `--fix` writer
// needs to change one attribute and nothing else (DESIGN.md §13). Tags are found as the HTML
// tokenizer finds them (WHATWG HTML §13.2.5: tag open, attribute name, quoted and unquoted values);
// comments, CDATA sections, doctypes and processing instructions are skipped.

/// One attribute of a start tag.
struct HTMLAttribute: Sendable, Hashable {
    /// The name, lowercased.
    var name: String
    /// The value as written (entities not decoded); empty for a bare attribute.
    var raw: String
    /// The bytes of the value (inside the quotes); for a bare attribute, an empty range after the name.
    var valueRange: SourceRange
    /// The quote: `"`, `'`, or nil (unquoted or bare).
    var quote: UInt8?
    /// The value with character references decoded.
    var value: String { HTMLEntities.decode(raw) }
}

/// A start (or end) tag.
struct HTMLTag: Sendable {
    /// The element's local name, lowercased (`m:math` → `math`).
    var name: String
    /// Whether it is an end tag.
    var isEnd: Bool
    /// Whether it closes itself (`/>`).
    var selfClosing: Bool
    /// From `<` to after `>`.
    var range: SourceRange
    /// The offset where a new attribute is inserted: before `/>` or `>`, after the last attribute.
    var insertionOffset: Int
    /// The attributes in order.
    var attributes: [HTMLAttribute]

    func attribute(_ name: String) -> HTMLAttribute? { attributes.first { $0.name == name } }
}

/// Iterates over the tags of a document.
struct HTMLTagScanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
    private static func isNameStart(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// Finds `needle` from `from`; returns the offset after it, or the end.
    func skip(past needle: [UInt8], from: Int) -> Int {
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i + needle.count }
            i += 1
        }
        return bytes.count
    }

    /// The offset of the end tag `</name>` (case-insensitive, any prefix) at or after `from`, and the offset after it.
    func findEnd(of name: String, from: Int) -> (start: Int, end: Int)? {
        var scanner = HTMLTagScanner(bytes: bytes)
        scanner.position = from
        while let tag = scanner.next() {
            if tag.isEnd, tag.name == name { return (tag.range.lowerBound, tag.range.upperBound) }
        }
        return nil
    }

    /// The next tag, skipping text, comments, doctypes, CDATA and processing instructions.
    mutating func next() -> HTMLTag? {
        let n = bytes.count
        while position < n {
            guard bytes[position] == UInt8(ascii: "<") else {
                // Jump to the next '<'.
                if let i = bytes[position...].firstIndex(of: UInt8(ascii: "<")) { position = i } else { position = n }
                continue
            }
            let start = position
            guard start + 1 < n else { position = n; return nil }
            let c = bytes[start + 1]
            if c == UInt8(ascii: "!") {
                if bytes[start...].starts(with: Array("<!--".utf8)) { position = skip(past: Array("-->".utf8), from: start + 4) }
                else if bytes[start...].starts(with: Array("<![CDATA[".utf8)) { position = skip(past: Array("]]>".utf8), from: start + 9) }
                else { position = skip(past: [UInt8(ascii: ">")], from: start + 2) }
                continue
            }
            if c == UInt8(ascii: "?") { position = skip(past: [UInt8(ascii: ">")], from: start + 2); continue }
            var i = start + 1
            var isEnd = false
            if c == UInt8(ascii: "/") { isEnd = true; i += 1 }
            guard i < n, Self.isNameStart(bytes[i]) else { position = start + 1; continue }
            let nameStart = i
            while i < n, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/") { i += 1 }
            var name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
            var attributes: [HTMLAttribute] = []
            var insertion = i
            var selfClosing = false
            // Attributes (WHATWG 13.2.5.32–.39).
            while i < n {
                while i < n, Self.isSpace(bytes[i]) { i += 1 }
                guard i < n else { break }
                if bytes[i] == UInt8(ascii: ">") { break }
                if bytes[i] == UInt8(ascii: "/") {
                    if i + 1 < n, bytes[i + 1] == UInt8(ascii: ">") { selfClosing = true; break }
                    i += 1; continue
                }
                let attrStart = i
                i += 1
                while i < n, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: "=") { i += 1 }
                let attrName = String(decoding: bytes[attrStart..<i], as: UTF8.self).lowercased()
                var j = i
                while j < n, Self.isSpace(bytes[j]) { j += 1 }
                if j < n, bytes[j] == UInt8(ascii: "=") {
                    j += 1
                    while j < n, Self.isSpace(bytes[j]) { j += 1 }
                    if j < n, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                        let quote = bytes[j]
                        let valueStart = j + 1
                        var k = valueStart
                        while k < n, bytes[k] != quote { k += 1 }
                        attributes.append(HTMLAttribute(name: attrName, raw: String(decoding: bytes[valueStart..<k], as: UTF8.self),
                                                        valueRange: SourceRange(valueStart, k), quote: quote))
                        i = min(n, k + 1)
                    } else {
                        let valueStart = j
                        var k = j
                        while k < n, !Self.isSpace(bytes[k]), bytes[k] != UInt8(ascii: ">") { k += 1 }
                        attributes.append(HTMLAttribute(name: attrName, raw: String(decoding: bytes[valueStart..<k], as: UTF8.self),
                                                        valueRange: SourceRange(valueStart, k), quote: nil))
                        i = k
                    }
                } else {
                    attributes.append(HTMLAttribute(name: attrName, raw: "", valueRange: SourceRange(i, i), quote: nil))
                }
                insertion = i
            }
            let end = min(n, i + (selfClosing ? 2 : 1))
            position = end
            return HTMLTag(name: name, isEnd: isEnd, selfClosing: selfClosing, range: SourceRange(start, end),
                           insertionOffset: insertion, attributes: attributes)
        }
        return nil
    }
}

/// HTML character references in attribute values and text (the common named ones, decimal and hex).
enum HTMLEntities {
    static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
                                          "minus": "\u{2212}", "times": "×", "divide": "÷", "le": "≤", "ge": "≥", "ne": "≠",
                                          "pm": "±", "infin": "∞", "hellip": "…", "ndash": "–", "mdash": "—"]

    static func decode(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "&", let semi = s[i...].prefix(12).firstIndex(of: ";") {
                let body = s[s.index(after: i)..<semi]
                var decoded: String? = nil
                if body.hasPrefix("#x") || body.hasPrefix("#X") {
                    decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if body.hasPrefix("#") {
                    decoded = UInt32(body.dropFirst(1)).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = named[String(body)]
                }
                if let decoded { out += decoded; i = s.index(after: semi); continue }
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }
}
