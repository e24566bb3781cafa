import MathSyntax

/// One tag found in the original input, in document order.
struct MathMLTag {
    enum Kind { case start, end, empty }
    /// Start tag, end tag or empty-element tag.
    var kind: Kind
    /// The qualified name as written (`m:mi`).
    var name: String
    /// Byte offset of `<` in the original input.
    var start: Int
    /// Byte offset one past `>` in the original input.
    var end: Int
}

/// Maps byte offsets of the rewritten text handed to the XML parser back to the original input.
struct MathMLOffsetMap {
    /// Anchors sorted by `rewritten`: from each anchor on, bytes correspond one to one when
    /// `exact`, or all map to `original` when the anchor starts a replacement.
    private var rewritten: [Int] = []
    private var original: [Int] = []
    private var exact: [Bool] = []

    mutating func anchor(rewritten r: Int, original o: Int, exact e: Bool) {
        if let last = rewritten.last, last == r {
            original[original.count - 1] = o
            exact[exact.count - 1] = e
            return
        }
        rewritten.append(r)
        original.append(o)
        exact.append(e)
    }

    /// The original offset of rewritten offset `r`.
    func originalOffset(_ r: Int) -> Int {
        guard !rewritten.isEmpty else { return r }
        var lo = 0, hi = rewritten.count - 1
        if r < rewritten[0] { return original[0] }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if rewritten[mid] <= r { lo = mid } else { hi = mid - 1 }
        }
        return exact[lo] ? original[lo] + (r - rewritten[lo]) : original[lo]
    }
}

/// The first pass over MathML input, on UTF-8 bytes, before the XML parser sees it:
///
/// - rewrites HTML/MathML named entities to numeric character references (the XML parser knows
///   only the five XML ones), unknown names and bare `&` to `&amp;` (kept literally), each with a
///   diagnostic;
/// - replaces characters XML forbids (NUL and other C0 controls, U+FFFE, U+FFFF) with U+FFFD;
/// - drops a leading BOM and XML declaration (the input is already decoded text) and a DOCTYPE
///   without an internal subset; a DOCTYPE with an internal subset (entity declarations, the
///   "billion laughs" attack) is refused;
/// - wraps the input in a synthetic root element so that fragments with several top-level
///   elements parse;
/// - records every tag with its byte range in the original input, so nodes get exact ranges
///   (the XML parser itself reports only approximate line/column positions).
///
/// Comments and CDATA sections are copied unchanged (entities are not recognised inside them in
/// XML); processing instructions are dropped.
struct MathMLSourceScanner {
    /// The synthetic root element's name.
    static let wrapperName = "mathaloud-fragment"
    private static let wrapperStart = Array(
        "<\(wrapperName) xmlns:m=\"http://www.w3.org/1998/Math/MathML\" xmlns:mml=\"http://www.w3.org/1998/Math/MathML\">".utf8)
    private static let wrapperEnd = Array("</\(wrapperName)>".utf8)

    /// The rewritten text for the XML parser.
    private(set) var output: [UInt8] = []
    /// Tags of the original input, in order.
    private(set) var tags: [MathMLTag] = []
    /// Rewritten → original offsets.
    private(set) var offsets = MathMLOffsetMap()
    /// Warnings and errors found.
    private(set) var diagnostics: [Diagnostic] = []
    /// Set when the input must not be parsed (a DOCTYPE with an internal subset).
    private(set) var refused = false

    private let src: [UInt8]
    private var i = 0

    /// Scans `source` (UTF-8 bytes of the input).
    init(_ source: [UInt8]) {
        src = source
        output.reserveCapacity(source.count + Self.wrapperStart.count + Self.wrapperEnd.count + 16)
        scan()
    }

    // MARK: - Driver

    private mutating func scan() {
        // A BOM and an XML declaration are dropped: the text is already decoded, and the
        // declaration's `encoding` must not make the parser re-decode it.
        if src.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if matches("<?xml"), i + 5 < src.count, isSpace(src[i + 5]) {
            if let end = find([0x3F, 0x3E], from: i + 5) { i = end + 2 }
        }
        output.append(contentsOf: Self.wrapperStart)
        offsets.anchor(rewritten: output.count, original: i, exact: true)
        while i < src.count {
            let b = src[i]
            if b == 0x3C { // <
                scanMarkup()
            } else if b == 0x26 { // &
                scanReference()
            } else {
                copyChar()
            }
            if refused { return }
        }
        offsets.anchor(rewritten: output.count, original: src.count, exact: false)
        output.append(contentsOf: Self.wrapperEnd)
    }

    private mutating func scanMarkup() {
        if matches("<!--") {
            copyVerbatim(until: Array("-->".utf8), from: i + 4)
        } else if matches("<![CDATA[") {
            copyVerbatim(until: Array("]]>".utf8), from: i + 9)
        } else if matchesCaseInsensitive("<!DOCTYPE") {
            scanDoctype()
        } else if matches("<?") {
            // Processing instructions mean nothing to MathML and are dropped: swift-corelibs
            // XMLParser crashes on one without data (`<?pi?>`). An unterminated one is copied so
            // the parser reports it.
            if let end = find([0x3F, 0x3E], from: i + 2) {
                replace(from: i, to: end + 2, with: [])
            } else {
                copyVerbatim(until: [0x3F, 0x3E], from: i + 2)
            }
        } else if matches("</") {
            scanTag(end: true)
        } else if i + 1 < src.count, isNameStart(src[i + 1]) {
            scanTag(end: false)
        } else {
            copyChar() // the parser reports the error
            // An empty comment keeps this stray '<' from joining whatever comes after a part we drop
            // (`<<?a?>?b?>` or a DOCTYPE would otherwise become the processing instruction `<?b?>`,
            // which crashes swift-corelibs XMLParser).
            output.append(contentsOf: Array("<!---->".utf8))
        }
    }

    // MARK: - Tags

    private mutating func scanTag(end: Bool) {
        let start = i
        var j = i + (end ? 2 : 1)
        let nameStart = j
        while j < src.count, !isSpace(src[j]), src[j] != 0x3E, src[j] != 0x2F, src[j] != 0x3C { j += 1 }
        let name = String(decoding: src[nameStart..<j], as: UTF8.self)
        // Copy the name, then the rest of the tag with entity processing inside quoted values.
        while i < j { copyChar() }
        var quote: UInt8 = 0
        while i < src.count {
            let b = src[i]
            if quote != 0 {
                if b == quote { quote = 0; copyChar() } else if b == 0x26 { scanReference() } else { copyChar() }
                continue
            }
            if b == 0x22 || b == 0x27 { quote = b; copyChar(); continue }
            if b == 0x3C { return } // malformed: a new tag starts; the parser will complain
            if b == 0x3E {
                copyChar()
                tags.append(MathMLTag(kind: end ? .end : .start, name: name, start: start, end: i))
                return
            }
            if b == 0x2F, i + 1 < src.count, src[i + 1] == 0x3E, !end {
                copyChar(); copyChar()
                tags.append(MathMLTag(kind: .empty, name: name, start: start, end: i))
                return
            }
            copyChar()
        }
    }

    // MARK: - DOCTYPE

    private mutating func scanDoctype() {
        let start = i
        var j = i + 9
        var quote: UInt8 = 0
        var internalSubset = false
        while j < src.count {
            let b = src[j]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == 0x22 || b == 0x27 {
                quote = b
            } else if b == 0x5B { // [
                internalSubset = true
                break
            } else if b == 0x3E {
                break
            }
            j += 1
        }
        if internalSubset {
            refused = true
            diagnostics.append(.error(
                "mathml.doctype",
                "a DOCTYPE with an internal subset (entity declarations) is not accepted",
                at: SourceRange(start, min(src.count, j + 1))))
            return
        }
        let end = min(src.count, j + 1)
        diagnostics.append(.warning(
            "mathml.doctype", "the DOCTYPE declaration is ignored", at: SourceRange(start, end)))
        i = end
        offsets.anchor(rewritten: output.count, original: i, exact: true)
    }

    // MARK: - References

    /// At `&`: numeric references are checked, the five XML entities kept, other known names
    /// rewritten to numeric references, anything else escaped as `&amp;`.
    private mutating func scanReference() {
        let start = i
        var j = i + 1
        if j < src.count, src[j] == 0x23 { // &#
            j += 1
            var hex = false
            if j < src.count, src[j] == 0x78 || src[j] == 0x58 { hex = true; j += 1 }
            let digitsStart = j
            var value: UInt32 = 0
            var overflow = false
            while j < src.count, j - digitsStart < 10 {
                let b = src[j]
                let digit: UInt32
                switch b {
                case 0x30...0x39: digit = UInt32(b - 0x30)
                case 0x61...0x66 where hex: digit = UInt32(b - 0x61 + 10)
                case 0x41...0x46 where hex: digit = UInt32(b - 0x41 + 10)
                default: digit = 99
                }
                if digit == 99 { break }
                let (m, o1) = value.multipliedReportingOverflow(by: hex ? 16 : 10)
                let (s, o2) = m.addingReportingOverflow(digit)
                overflow = overflow || o1 || o2
                value = s
                j += 1
            }
            if j > digitsStart, j < src.count, src[j] == 0x3B {
                let end = j + 1
                if overflow || !Self.isXMLChar(value) {
                    diagnostics.append(.warning(
                        "mathml.invalid-character",
                        "the character reference does not name a character XML allows; replaced by U+FFFD",
                        at: SourceRange(start, end)))
                    replace(from: start, to: end, with: Array("&#xFFFD;".utf8))
                } else {
                    while i < end { copyChar() }
                }
                return
            }
            escapeAmpersand(at: start)
            return
        }
        let nameStart = j
        while j < src.count, j - nameStart <= MathMLEntities.maxNameLength, isEntityNameChar(src[j]) { j += 1 }
        guard j > nameStart, j < src.count, src[j] == 0x3B, isASCIILetter(src[nameStart]) else {
            escapeAmpersand(at: start)
            return
        }
        let name = String(decoding: src[nameStart..<j], as: UTF8.self)
        let end = j + 1
        switch name {
        case "lt", "gt", "amp", "quot", "apos":
            while i < end { copyChar() }
        default:
            if let value = MathMLEntities.value(of: name) {
                var replacement = ""
                for scalar in value.unicodeScalars {
                    replacement += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                }
                replace(from: start, to: end, with: Array(replacement.utf8))
            } else {
                diagnostics.append(.warning(
                    "mathml.unknown-entity", "unknown entity '&\(name);' kept as text",
                    at: SourceRange(start, end)))
                replace(from: start, to: start + 1, with: Array("&amp;".utf8))
            }
        }
    }

    private mutating func escapeAmpersand(at start: Int) {
        diagnostics.append(.warning(
            "mathml.unescaped-ampersand", "'&' does not start a character reference; read as text",
            at: SourceRange(start, start + 1)))
        replace(from: start, to: start + 1, with: Array("&amp;".utf8))
    }

    // MARK: - Copying

    /// Replaces original bytes `from..<to` (starting at the cursor) by `bytes`.
    private mutating func replace(from: Int, to: Int, with bytes: [UInt8]) {
        offsets.anchor(rewritten: output.count, original: from, exact: false)
        output.append(contentsOf: bytes)
        i = to
        offsets.anchor(rewritten: output.count, original: to, exact: true)
    }

    /// Copies one character (one UTF-8 sequence), replacing characters XML forbids.
    private mutating func copyChar() {
        let b = src[i]
        if b < 0x20, b != 0x09, b != 0x0A, b != 0x0D {
            diagnostics.append(.error(
                "mathml.invalid-character",
                "control character U+\(String(repeating: "0", count: b < 0x10 ? 3 : 2))\(String(b, radix: 16, uppercase: true)) is not allowed in XML; replaced by U+FFFD",
                at: SourceRange(i, i + 1)))
            replace(from: i, to: i + 1, with: [0xEF, 0xBF, 0xBD])
            return
        }
        if b == 0xEF, i + 2 < src.count, src[i + 1] == 0xBF, src[i + 2] == 0xBE || src[i + 2] == 0xBF {
            diagnostics.append(.error(
                "mathml.invalid-character", "U+FFFE and U+FFFF are not allowed in XML; replaced by U+FFFD",
                at: SourceRange(i, i + 3)))
            replace(from: i, to: i + 3, with: [0xEF, 0xBF, 0xBD])
            return
        }
        output.append(b)
        i += 1
    }

    /// Copies from the cursor through the first `terminator` found at or after `from`
    /// (or to the end of the input), without entity processing.
    private mutating func copyVerbatim(until terminator: [UInt8], from: Int) {
        let end = find(terminator, from: from).map { $0 + terminator.count } ?? src.count
        while i < end { copyChar() }
    }

    // MARK: - Byte helpers

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, from < src.count else { return nil }
        var j = from
        while j + needle.count <= src.count {
            if src[j] == needle[0] {
                var k = 1
                while k < needle.count, src[j + k] == needle[k] { k += 1 }
                if k == needle.count { return j }
            }
            j += 1
        }
        return nil
    }

    private func matches(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= src.count else { return false }
        return text.withUTF8Buffer { buffer in
            for k in 0..<count where src[i + k] != buffer[k] { return false }
            return true
        }
    }

    private func matchesCaseInsensitive(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= src.count else { return false }
        return text.withUTF8Buffer { buffer in
            for k in 0..<count where src[i + k] | 0x20 != buffer[k] | 0x20 { return false }
            return true
        }
    }

    private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    private func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    private func isNameStart(_ b: UInt8) -> Bool { isASCIILetter(b) || b == 0x5F || b == 0x3A || b >= 0x80 }
    private func isEntityNameChar(_ b: UInt8) -> Bool { isASCIILetter(b) || (b >= 0x30 && b <= 0x39) }

    /// Whether `value` is a character XML 1.0 allows (production `Char`).
    static func isXMLChar(_ value: UInt32) -> Bool { XMLEscaping.isXMLCharacter(value) }
}
