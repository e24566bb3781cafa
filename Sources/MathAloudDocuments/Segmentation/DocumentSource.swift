import Foundation
import MathAloud

/// How a document's bytes encode its text.
public enum TextEncoding: String, Sendable, Codable, CaseIterable {
    /// UTF-8 (with or without a byte order mark).
    case utf8
    /// UTF-16, little-endian (recognised by its byte order mark `FF FE`).
    case utf16LittleEndian = "utf16le"
    /// UTF-16, big-endian (recognised by its byte order mark `FE FF`).
    case utf16BigEndian = "utf16be"
    /// Windows-1252, the superset of ISO 8859-1 that browsers read for both: the fallback for bytes
    /// that are not valid UTF-8, or what a document declares.
    case windows1252 = "windows-1252"
}

/// The line ending a document uses.
public enum LineEnding: String, Sendable, Codable {
    /// `\n`.
    case lf
    /// `\r\n`.
    case crlf
    /// `\r` alone (old Mac files).
    case cr
    /// More than one kind.
    case mixed
    /// No line break at all.
    case none
}

/// A document's bytes, decoded: the text the segmenters read, and the way back from positions in that
/// text to the file's bytes, lines and columns.
///
/// Every range a segmenter reports is a range of the file's bytes (``bytes``), whatever the encoding:
/// for a UTF-16 file, ranges count UTF-16 bytes; a byte order mark is byte 0 to 2 or 3, before the
/// first segment's text. Lines end at `\n`, `\r\n` or a lone `\r`; columns count Unicode scalars from 1.
public struct DocumentSource: Sendable {
    /// The file as given.
    public let bytes: [UInt8]
    /// How ``bytes`` encode the text.
    public let encoding: TextEncoding
    /// The length of the byte order mark at the start of ``bytes`` (0 without one).
    public let byteOrderMarkLength: Int
    /// The line ending used.
    public let lineEnding: LineEnding
    /// Whether some bytes could not be decoded (they read as U+FFFD).
    public let hadDecodingErrors: Bool
    /// The decoded text, without the byte order mark.
    public let text: String
    /// ``text`` as UTF-8 (what the segmenters scan).
    let utf8: [UInt8]
    /// UTF-8 offsets of ``utf8`` → offsets of ``bytes``.
    let map: OffsetMap
    /// UTF-8 offsets where lines start.
    private let lineStarts: [Int]

    /// Decodes `bytes`: a byte order mark picks UTF-8 or UTF-16; without one, valid UTF-8 is UTF-8, and
    /// anything else is read as `fallback` (Windows-1252 by default), or as `declared` when the caller
    /// knows the encoding (an HTTP header, a `<meta charset>`).
    public init(bytes: [UInt8], declared: TextEncoding? = nil, fallback: TextEncoding = .windows1252) {
        self.bytes = bytes
        var encoding: TextEncoding
        var bom = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            encoding = .utf8; bom = 3
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian; bom = 2
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian; bom = 2
        } else if let declared {
            encoding = declared
        } else {
            encoding = Self.isValidUTF8(bytes) ? .utf8 : fallback
        }
        var map = OffsetMap()
        var utf8: [UInt8] = []
        var errors = false
        switch encoding {
        case .utf8:
            map = OffsetMap(shift: bom)
            utf8 = Array(bytes[bom...])
            if !Self.isValidUTF8(utf8) {
                // Invalid sequences become U+FFFD (3 bytes) each, as String(decoding:) does.
                errors = true
                utf8 = Self.repairUTF8(bytes, from: bom, map: &map)
            }
        case .utf16LittleEndian, .utf16BigEndian:
            utf8 = Self.decodeUTF16(bytes, from: bom, littleEndian: encoding == .utf16LittleEndian, map: &map, errors: &errors)
        case .windows1252:
            utf8 = Self.decodeWindows1252(bytes, map: &map)
        }
        self.encoding = encoding
        self.byteOrderMarkLength = bom
        self.utf8 = utf8
        self.map = map
        self.hadDecodingErrors = errors
        self.text = String(decoding: utf8, as: UTF8.self)
        var starts = [0]
        var lf = false, crlf = false, cr = false
        var i = 0
        while i < utf8.count {
            switch utf8[i] {
            case 0x0A:
                lf = true
                starts.append(i + 1)
            case 0x0D:
                if i + 1 < utf8.count, utf8[i + 1] == 0x0A {
                    crlf = true
                    i += 1
                } else {
                    cr = true
                }
                starts.append(i + 1)
            default: break
            }
            i += 1
        }
        lineStarts = starts
        switch (lf, crlf, cr) {
        case (false, false, false): lineEnding = .none
        case (true, false, false): lineEnding = .lf
        case (false, true, false): lineEnding = .crlf
        case (false, false, true): lineEnding = .cr
        default: lineEnding = .mixed
        }
    }

    /// A document that is this text (UTF-8, no byte order mark).
    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// The file offset of an offset into ``text``'s UTF-8 (rounding down inside a multi-byte unit).
    public func fileOffset(ofTextOffset offset: Int) -> Int { map.map(offset) }

    /// The file range of a range of ``text``'s UTF-8.
    public func fileRange(ofTextRange range: SourceRange) -> SourceRange { map.map(range) }

    /// The offset into ``text``'s UTF-8 of a file offset (rounding down inside a character).
    public func textOffset(ofFileOffset offset: Int) -> Int {
        min(max(0, map.derivedOffset(of: offset)), utf8.count)
    }

    /// The line and column of a file offset (clamped to the file).
    public func location(of fileOffset: Int) -> SourceLocation {
        location(ofTextOffset: textOffset(ofFileOffset: fileOffset))
    }

    /// The line and column of an offset into ``text``'s UTF-8.
    func location(ofTextOffset offset: Int) -> SourceLocation {
        let offset = min(max(0, offset), utf8.count)
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SourceLocation(line: lo + 1, column: 1 + scalarCount(lineStarts[lo], offset))
    }

    /// Locations of many text offsets, given in increasing order, in one pass.
    func locations(ofSortedTextOffsets offsets: [Int]) -> [SourceLocation] {
        var result: [SourceLocation] = []
        result.reserveCapacity(offsets.count)
        var line = 0
        var position = 0, column = 1
        for raw in offsets {
            let offset = min(max(0, raw), utf8.count)
            if offset < position { result.append(location(ofTextOffset: offset)); continue }
            var moved = false
            while line + 1 < lineStarts.count, lineStarts[line + 1] <= offset { line += 1; moved = true }
            if moved { position = lineStarts[line]; column = 1 }
            column += scalarCount(position, offset)
            position = offset
            result.append(SourceLocation(line: line + 1, column: column))
        }
        return result
    }

    private func scalarCount(_ lo: Int, _ hi: Int) -> Int {
        var n = 0
        var i = lo
        while i < hi {
            if utf8[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    /// The decoded text of a file range.
    public subscript(range: SourceRange) -> String {
        let lo = textOffset(ofFileOffset: range.lowerBound)
        let hi = max(lo, textOffset(ofFileOffset: range.upperBound))
        return String(decoding: utf8[lo..<hi], as: UTF8.self)
    }

    /// Where bytes show they are no text document: the offset of a NUL byte in the first 64 KiB (a zip
    /// such as an EPUB, an image, other binary data has them early; no text in UTF-8 or Windows-1252
    /// has one), nil for text. UTF-16 with a byte order mark is text. The one test of binary input for
    /// `convert`, `audit` and `speak --text` (the error `document.binary`).
    public static func binaryOffset(of bytes: some Collection<UInt8>) -> Int? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return nil }
        return bytes.prefix(1 << 16).firstIndex(of: 0).map { bytes.distance(from: bytes.startIndex, to: $0) }
    }

    /// `text` in this document's encoding, for writing into markup (HTML, XML, Markdown): a character
    /// the encoding cannot hold is written as a hexadecimal character reference (`α` as `&#x3B1;` in a
    /// Windows-1252 page), which every reader of the markup decodes to the character.
    public func encodeAsMarkup(_ text: String) -> [UInt8] {
        if let whole = encode(text) { return whole }
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            let one = String(scalar)
            out += encode(one) ?? Array("&#x\(String(scalar.value, radix: 16, uppercase: true));".utf8)
        }
        return out
    }

    /// `text` in this document's encoding, for writing into it; nil when the encoding cannot hold a
    /// character of it (Windows-1252 holds few).
    public func encode(_ text: String) -> [UInt8]? {
        switch encoding {
        case .utf8:
            return Array(text.utf8)
        case .utf16LittleEndian, .utf16BigEndian:
            var out: [UInt8] = []
            for unit in text.utf16 {
                let hi = UInt8(unit >> 8), lo = UInt8(unit & 0xFF)
                if encoding == .utf16LittleEndian { out += [lo, hi] } else { out += [hi, lo] }
            }
            return out
        case .windows1252:
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                if scalar.value < 0x80 || (scalar.value >= 0xA0 && scalar.value <= 0xFF) {
                    out.append(UInt8(scalar.value))
                } else if let i = Self.windows1252High.firstIndex(of: scalar.value) {
                    out.append(UInt8(0x80 + i))
                } else {
                    return nil
                }
            }
            return out
        }
    }

    // MARK: Decoding

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int, minimum: UInt32
            if b & 0xE0 == 0xC0 { length = 2; minimum = 0x80 }
            else if b & 0xF0 == 0xE0 { length = 3; minimum = 0x800 }
            else if b & 0xF8 == 0xF0 { length = 4; minimum = 0x10000 }
            else { return false }
            guard i + length <= n else { return false }
            var value = UInt32(b) & (0x7F >> length)
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return false }
                value = value << 6 | UInt32(c & 0x3F)
            }
            guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return false }
            i += length
        }
        return true
    }

    /// UTF-8 with every invalid sequence replaced by U+FFFD, mapped back to the file.
    private static func repairUTF8(_ bytes: [UInt8], from start: Int, map: inout OffsetMap) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count - start)
        map = OffsetMap()
        map.add(derived: 0, original: start)
        let n = bytes.count
        var i = start
        while i < n {
            let b = bytes[i]
            var length = 0
            if b < 0x80 { length = 1 }
            else if b & 0xE0 == 0xC0 { length = 2 }
            else if b & 0xF0 == 0xE0 { length = 3 }
            else if b & 0xF8 == 0xF0 { length = 4 }
            if length > 0, i + length <= n, isValidUTF8(Array(bytes[i..<(i + length)])) {
                out.append(contentsOf: bytes[i..<(i + length)])
                i += length
            } else {
                map.add(derived: out.count, original: i)
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                i += 1
                map.add(derived: out.count, original: i)
            }
        }
        map.add(derived: out.count, original: n)
        return out
    }

    private static func decodeUTF16(_ bytes: [UInt8], from start: Int, littleEndian: Bool, map: inout OffsetMap,
                                    errors: inout Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        map = OffsetMap()
        map.add(derived: 0, original: start)
        func unit(_ i: Int) -> UInt16 {
            littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
        }
        var i = start
        let n = bytes.count
        while i + 1 < n {
            let u = unit(i)
            var scalar: Unicode.Scalar
            var length = 2
            if u >= 0xD800 && u < 0xDC00, i + 3 < n, case let v = unit(i + 2), v >= 0xDC00 && v < 0xE000 {
                scalar = Unicode.Scalar(0x10000 + (UInt32(u - 0xD800) << 10) + UInt32(v - 0xDC00))!
                length = 4
            } else if let s = Unicode.Scalar(UInt32(u)) {
                scalar = s
            } else {
                scalar = "\u{FFFD}"
                errors = true
            }
            UTF8.encode(scalar) { out.append($0) }
            i += length
            map.add(derived: out.count, original: i)
        }
        if i < n {
            // An odd last byte.
            errors = true
            UTF8.encode("\u{FFFD}") { out.append($0) }
            map.add(derived: out.count, original: n)
        }
        return out
    }

    /// Windows-1252's characters for the bytes 0x80…0x9F (0 where the byte is undefined; it then reads
    /// as the C1 control of the same value, as browsers do).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    private static func decodeWindows1252(_ bytes: [UInt8], map: inout OffsetMap) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        map = OffsetMap()
        map.add(derived: 0, original: 0)
        for (i, b) in bytes.enumerated() {
            if b < 0x80 { out.append(b); continue }
            let value = b < 0xA0 ? windows1252High[Int(b - 0x80)] : UInt32(b)
            map.add(derived: out.count, original: i)
            UTF8.encode(Unicode.Scalar(value)!) { out.append($0) }
            map.add(derived: out.count, original: i + 1)
        }
        map.add(derived: out.count, original: bytes.count)
        return out
    }
}
