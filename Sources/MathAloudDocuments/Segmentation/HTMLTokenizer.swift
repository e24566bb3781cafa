import MathAloud

/// A tag-like construct of HTML or XML text: a start or end tag, a comment, a CDATA section, a
/// declaration (`<!DOCTYPE>`) or a processing instruction, as the HTML tokenizer (WHATWG HTML §13.2.5)
/// reads them. The one tag reader of the package: the documents layer and the audit (`package` access)
/// both read HTML with it.
package struct HTMLTag {
    /// What the construct is.
    package enum Kind { case start, end, comment, cdata, declaration, processingInstruction }

    /// What the construct is.
    package var kind: Kind
    /// From `<` to just after `>` (or to the end of the text when it is not closed).
    package var range: SourceRange
    /// The local name, lowercased (`math` for `m:math`); empty for comments and the like.
    package var name: String
    /// The attributes in order, with their byte ranges.
    package var attributes: [MarkupAttribute]
    /// `<… />`.
    package var selfClosing: Bool
    /// Just after the name or the last attribute.
    package var insertionOffset: Int
    /// Whether the construct ends with its `>` (or `-->`, `]]>`) before the end of the text.
    package var closed: Bool
}

/// Reads tags out of UTF-8 HTML/XML text, and decodes character references.
package struct HTMLTokenizer {
    /// The text, as UTF-8.
    package let bytes: [UInt8]

    /// A tokenizer over `bytes`.
    package init(bytes: [UInt8]) { self.bytes = bytes }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }

    /// The next construct starting at or after `from`.
    package func nextTag(from: Int) -> HTMLTag? {
        var i = from
        let n = bytes.count
        while i < n {
            guard bytes[i] == 0x3C, i + 1 < n else { i += 1; continue }   // '<'
            if let tag = tag(at: i) { return tag }
            i += 1
        }
        return nil
    }

    /// The construct at `i` (which holds `<`), nil when `<` there is text.
    func tag(at i: Int) -> HTMLTag? {
        let n = bytes.count
        guard i + 1 < n else { return nil }
        let b = bytes[i + 1]
        if b == 0x21 {   // '!'
            if starts(with: "<!--", at: i) {
                // `<!-->` and `<!--->` are empty comments.
                var j = i + 4
                if j < n, bytes[j] == 0x3E { return simple(.comment, i, j + 1, true) }
                if j + 1 < n, bytes[j] == 0x2D, bytes[j + 1] == 0x3E { return simple(.comment, i, j + 2, true) }
                while j < n {
                    if starts(with: "-->", at: j) { return simple(.comment, i, j + 3, true) }
                    if starts(with: "--!>", at: j) { return simple(.comment, i, j + 4, true) }
                    j += 1
                }
                return simple(.comment, i, n, false)
            }
            if starts(with: "<![CDATA[", at: i) {
                var j = i + 9
                while j < n, !starts(with: "]]>", at: j) { j += 1 }
                return j < n ? simple(.cdata, i, j + 3, true) : simple(.cdata, i, n, false)
            }
            return upToGreaterThan(.declaration, i)
        }
        if b == 0x3F { return upToGreaterThan(.processingInstruction, i) }   // '?'
        if b == 0x2F {   // '/'
            guard i + 2 < n else { return nil }
            if Self.isLetter(bytes[i + 2]) { return element(at: i, nameStart: i + 2, kind: .end) }
            if bytes[i + 2] == 0x3E { return simple(.comment, i, i + 3, true) }   // `</>` is dropped
            return upToGreaterThan(.comment, i)   // a bogus comment
        }
        if Self.isLetter(b) { return element(at: i, nameStart: i + 1, kind: .start) }
        return nil
    }

    private func simple(_ kind: HTMLTag.Kind, _ lo: Int, _ hi: Int, _ closed: Bool) -> HTMLTag {
        HTMLTag(kind: kind, range: SourceRange(lo, hi), name: "", attributes: [], selfClosing: false, insertionOffset: hi,
                closed: closed)
    }

    private func upToGreaterThan(_ kind: HTMLTag.Kind, _ i: Int) -> HTMLTag {
        var j = i + 2
        while j < bytes.count, bytes[j] != 0x3E { j += 1 }
        return j < bytes.count ? simple(kind, i, j + 1, true) : simple(kind, i, bytes.count, false)
    }

    func starts(with literal: StaticString, at i: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { word in
            for k in 0..<count where bytes[i + k] != word[k] { return false }
            return true
        }
    }

    /// Whether the bytes at `i` are `literal`, ASCII case-insensitively (`literal` in lower case).
    func startsCaseInsensitive(with literal: [UInt8], at i: Int) -> Bool {
        guard i + literal.count <= bytes.count else { return false }
        for k in 0..<literal.count {
            var c = bytes[i + k]
            if c >= 0x41 && c <= 0x5A { c |= 0x20 }
            if c != literal[k] { return false }
        }
        return true
    }

    /// A start or end tag whose name starts at `nameStart`.
    private func element(at i: Int, nameStart: Int, kind: HTMLTag.Kind) -> HTMLTag {
        let n = bytes.count
        var j = nameStart
        while j < n, !Self.isSpace(bytes[j]), bytes[j] != 0x2F, bytes[j] != 0x3E { j += 1 }
        var name = String(decoding: bytes[nameStart..<j], as: UTF8.self).lowercased()
        if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
        var attributes: [MarkupAttribute] = []
        var insertion = j
        var selfClosing = false
        while j < n {
            let c = bytes[j]
            if Self.isSpace(c) { j += 1; continue }
            if c == 0x3E {   // '>'
                return HTMLTag(kind: kind, range: SourceRange(i, j + 1), name: name, attributes: attributes,
                               selfClosing: selfClosing, insertionOffset: insertion, closed: true)
            }
            if c == 0x2F {   // '/'
                selfClosing = j + 1 < n && bytes[j + 1] == 0x3E
                j += 1
                continue
            }
            selfClosing = false
            // An attribute name: up to white space, '/', '>' or '=' (a first '=' belongs to the name).
            let attrStart = j
            j += 1
            while j < n, !Self.isSpace(bytes[j]), bytes[j] != 0x2F, bytes[j] != 0x3E, bytes[j] != 0x3D { j += 1 }
            let nameRange = SourceRange(attrStart, j)
            var k = j
            while k < n, Self.isSpace(bytes[k]) { k += 1 }
            var valueRange: SourceRange?
            var quote: Character?
            var end = j
            if k < n, bytes[k] == 0x3D {   // '='
                k += 1
                while k < n, Self.isSpace(bytes[k]) { k += 1 }
                if k < n, bytes[k] == 0x22 || bytes[k] == 0x27 {
                    let q = bytes[k]
                    var m = k + 1
                    while m < n, bytes[m] != q { m += 1 }
                    valueRange = SourceRange(k + 1, m)
                    quote = Character(Unicode.Scalar(q))
                    end = min(n, m + 1)
                } else {
                    var m = k
                    while m < n, !Self.isSpace(bytes[m]), bytes[m] != 0x3E { m += 1 }
                    valueRange = SourceRange(k, m)
                    end = m
                }
                j = end
            }
            let attrName = String(decoding: bytes[nameRange.lowerBound..<nameRange.upperBound], as: UTF8.self)
            attributes.append(MarkupAttribute(name: attrName, value: valueRange.map { decode($0) },
                                              range: SourceRange(attrStart, end), nameRange: nameRange,
                                              valueRange: valueRange, quote: quote))
            insertion = end
        }
        return HTMLTag(kind: kind, range: SourceRange(i, n), name: name, attributes: attributes, selfClosing: selfClosing,
                       insertionOffset: insertion, closed: false)
    }

    /// The end tag `</name…>` that closes the element whose start tag ends at `from`, counting nested
    /// elements of the same name (self-closing ones do not nest); nil when there is none.
    package func matchingEnd(of name: String, from: Int) -> HTMLTag? {
        var depth = 1
        var i = from
        while let t = nextTag(from: i) {
            if t.name == name {
                if t.kind == .start, !t.selfClosing { depth += 1 }
                if t.kind == .end { depth -= 1; if depth == 0 { return t } }
            }
            i = t.range.upperBound
        }
        return nil
    }

    /// The end tag of a raw-text element (`</script`, `</style`…: its content holds no tags), nil when
    /// it is missing.
    func rawTextEnd(of name: String, from: Int) -> HTMLTag? {
        let pattern = Array("</\(name)".utf8)
        var i = from
        let n = bytes.count
        while i < n {
            if bytes[i] == 0x3C, startsCaseInsensitive(with: pattern, at: i) {
                let after = i + pattern.count
                if after >= n || Self.isSpace(bytes[after]) || bytes[after] == 0x2F || bytes[after] == 0x3E {
                    return tag(at: i)
                }
            }
            i += 1
        }
        return nil
    }

    // MARK: Character references

    /// The text of `range` with character references decoded (named ones from the HTML/MathML table,
    /// decimal and hexadecimal ones); a reference that is not one stays as written.
    func decode(_ range: SourceRange) -> String {
        Self.decode(bytes[range.lowerBound..<range.upperBound])
    }

    package static func decode(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(0x26) else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var i = slice.startIndex
        while i < slice.endIndex {
            if slice[i] == 0x26, let (replacement, length) = reference(in: slice, at: i) {
                out.append(contentsOf: replacement)
                i += length
            } else {
                out.append(slice[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The replacement and length of the reference at `i` (which holds `&`).
    static func reference(in bytes: ArraySlice<UInt8>, at i: Int) -> ([UInt8], Int)? {
        guard let (reference, length) = CharacterReference.read(bytes, at: i, limit: bytes.endIndex,
                                                                maxNameLength: MathMLEntities.maxNameLength)
        else { return nil }
        switch reference {
        case .scalar(let scalar):
            return (Array(UTF8.encode(scalar)!), length)
        case .name(let range):
            if let byte = CharacterReference.xmlPredefined(bytes[range]) { return ([byte], length) }
            guard let value = MathMLEntities.value(of: String(decoding: bytes[range], as: UTF8.self)) else { return nil }
            return (Array(value.utf8), length)
        }
    }
}

extension HTMLTag {
    /// The element a start tag opens, given where it ends (its end tag, or nil for a void or
    /// self-closing element or one whose end is missing).
    func element(end: HTMLTag?) -> MarkupElement {
        let whole = SourceRange(range.lowerBound, end?.range.upperBound ?? range.upperBound)
        return MarkupElement(name: name, syntax: .markup, range: whole, startTag: range,
                             contentRange: end.map { SourceRange(range.upperBound, $0.range.lowerBound) },
                             attributes: attributes, attributeInsertionOffset: insertionOffset)
    }

    /// The value of an attribute (ASCII case-insensitive name), nil when absent.
    func value(of attribute: String) -> String? {
        attributes.first { $0.name.lowercased() == attribute }?.value
    }
}
