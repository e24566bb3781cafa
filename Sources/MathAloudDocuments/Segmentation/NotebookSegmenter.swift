import MathAloud

/// Jupyter notebooks (``DocumentFormat/notebook``, nbformat 4, and 3's `worksheets`).
///
/// Each Markdown cell's `source` (a string, or an array of strings joined) is decoded from JSON and
/// segmented as ``DocumentFormat/markdown``; every range is then taken back through the JSON escapes to
/// the file's bytes, so a formula's range is where its bytes are in the `.ipynb` file, and writers know
/// (``TextEmbedding/jsonString``) that text written there must be JSON string content. A formula that
/// runs over two strings of an array covers the JSON between them. Code and raw cells, outputs and
/// metadata are text. A file that is not a JSON object is one text segment with the error
/// `document.invalid-notebook`.
struct NotebookSegmenter {
    let options: SegmenterOptions

    func segment(_ bytes: [UInt8], into collector: inout SegmentCollector, maps: [OffsetMap]) {
        var reader = JSONReader(bytes: bytes)
        let root: JSONReader.Value
        do {
            root = try reader.readDocument()
        } catch {
            collector.add([.error("document.invalid-notebook", "the notebook is not valid JSON: \(error.message)",
                                  at: SourceRange(error.offset, min(bytes.count, error.offset + 1)))], maps: maps)
            collector.addUnscanned([SourceRange(0, bytes.count)], maps: maps)
            return
        }
        var cells: [JSONReader.Value] = []
        if case .array(let list)? = root["cells"] {
            cells = list
        } else if case .array(let sheets)? = root["worksheets"] {
            for sheet in sheets { if case .array(let list)? = sheet["cells"] { cells += list } }
        } else {
            collector.add([.error("document.invalid-notebook", "the notebook has no \"cells\" array",
                                  at: SourceRange(0, min(bytes.count, 1)))], maps: maps)
            collector.addUnscanned([SourceRange(0, bytes.count)], maps: maps)
            return
        }
        let markdown = MarkdownSegmenter(options: options)
        // Only the Markdown cells' strings are scanned; the JSON around them, code and raw cells,
        // outputs and metadata are not.
        var scanned: [SourceRange] = []
        defer {
            var unscanned: [SourceRange] = []
            var position = 0
            for r in scanned.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if r.lowerBound > position { unscanned.append(SourceRange(position, r.lowerBound)) }
                position = max(position, r.upperBound)
            }
            if position < bytes.count { unscanned.append(SourceRange(position, bytes.count)) }
            collector.addUnscanned(unscanned, maps: maps)
        }
        for cell in cells {
            guard case .string(let type, _)? = cell["cell_type"], type.text == "markdown" else { continue }
            var text = JSONReader.DecodedString()
            switch cell["source"] {
            case .string(let s, let range)?:
                text = s
                scanned.append(range)
            case .array(let lines)?:
                for line in lines {
                    if case .string(let s, let range) = line { text.append(s); scanned.append(range) }
                }
            default:
                continue
            }
            markdown.segment(text.text, into: &collector, maps: [text.map] + maps, embedding: .jsonString, whole: .cell)
        }
    }
}

/// A small JSON reader that keeps where every string's characters are in the input (RFC 8259).
struct JSONReader {
    let bytes: [UInt8]
    var i = 0
    var depth = 0

    struct Failure: Error {
        var message: String
        var offset: Int
    }

    /// A decoded string: its text and the map from its UTF-8 offsets to the input's.
    struct DecodedString {
        var utf8: [UInt8] = []
        var map = OffsetMap()
        var text: String { String(decoding: utf8, as: UTF8.self) }

        /// Appends another string (a gap in the input between the two).
        mutating func append(_ other: DecodedString) {
            let shift = utf8.count
            utf8 += other.utf8
            for (d, o) in zip(other.map.derivedOffsets, other.map.originalOffsets) { map.add(derived: d + shift, original: o) }
        }
    }

    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(DecodedString, SourceRange)
        case other

        subscript(key: String) -> Value? {
            if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
            return nil
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func readDocument() throws(Failure) -> Value {
        skipSpaces()
        let value = try readValue()
        skipSpaces()
        guard i == bytes.count else { throw Failure(message: "unexpected text after the JSON value", offset: i) }
        return value
    }

    private mutating func skipSpaces() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private mutating func readValue() throws(Failure) -> Value {
        guard i < bytes.count else { throw Failure(message: "unexpected end of the file", offset: i) }
        switch bytes[i] {
        case 0x7B:
            depth += 1
            defer { depth -= 1 }
            guard depth <= 256 else { throw Failure(message: "nested more than 256 deep", offset: i) }
            i += 1
            var members: [(String, Value)] = []
            skipSpaces()
            if i < bytes.count, bytes[i] == 0x7D { i += 1; return .object(members) }
            while true {
                skipSpaces()
                guard i < bytes.count, bytes[i] == 0x22 else { throw Failure(message: "expected a member name", offset: i) }
                let key = try readString()
                skipSpaces()
                guard i < bytes.count, bytes[i] == 0x3A else { throw Failure(message: "expected ':'", offset: i) }
                i += 1
                skipSpaces()
                members.append((key.text, try readValue()))
                skipSpaces()
                guard i < bytes.count else { throw Failure(message: "unexpected end of the file", offset: i) }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x7D { i += 1; return .object(members) }
                throw Failure(message: "expected ',' or '}'", offset: i)
            }
        case 0x5B:
            depth += 1
            defer { depth -= 1 }
            guard depth <= 256 else { throw Failure(message: "nested more than 256 deep", offset: i) }
            i += 1
            var items: [Value] = []
            skipSpaces()
            if i < bytes.count, bytes[i] == 0x5D { i += 1; return .array(items) }
            while true {
                skipSpaces()
                items.append(try readValue())
                skipSpaces()
                guard i < bytes.count else { throw Failure(message: "unexpected end of the file", offset: i) }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x5D { i += 1; return .array(items) }
                throw Failure(message: "expected ',' or ']'", offset: i)
            }
        case 0x22:
            let start = i
            let s = try readString()
            return .string(s, SourceRange(start, i))
        default:
            // Numbers, true, false, null: read loosely (their value is not needed).
            let start = i
            while i < bytes.count, !(bytes[i] == 0x2C || bytes[i] == 0x5D || bytes[i] == 0x7D || bytes[i] <= 0x20) { i += 1 }
            let word = bytes[start..<i]
            let valid = word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8) || word.elementsEqual("null".utf8)
                || (!word.isEmpty && word.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 | 0x20 == 0x65 })
            guard valid else { throw Failure(message: "unexpected '\(String(decoding: word.prefix(20), as: UTF8.self))'", offset: start) }
            return .other
        }
    }

    /// Reads the string at `i` (which holds `"`).
    private mutating func readString() throws(Failure) -> DecodedString {
        let open = i
        i += 1
        var s = DecodedString()
        s.map.add(derived: 0, original: i)
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 {
                s.map.add(derived: s.utf8.count, original: i)
                i += 1
                return s
            }
            if b < 0x20 { throw Failure(message: "a control character in a string", offset: i) }
            if b != 0x5C { s.utf8.append(b); i += 1; continue }
            let escapeStart = i
            guard i + 1 < bytes.count else { break }
            var scalar: Unicode.Scalar
            switch bytes[i + 1] {
            case 0x22: scalar = "\""; i += 2
            case 0x5C: scalar = "\\"; i += 2
            case 0x2F: scalar = "/"; i += 2
            case 0x62: scalar = "\u{8}"; i += 2
            case 0x66: scalar = "\u{C}"; i += 2
            case 0x6E: scalar = "\n"; i += 2
            case 0x72: scalar = "\r"; i += 2
            case 0x74: scalar = "\t"; i += 2
            case 0x75:
                guard let u = hex4(at: i + 2) else { throw Failure(message: "a bad \\u escape", offset: i) }
                i += 6
                if u >= 0xD800, u < 0xDC00, i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75,
                   let v = hex4(at: i + 2), v >= 0xDC00, v < 0xE000 {
                    scalar = Unicode.Scalar(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00))!
                    i += 6
                } else {
                    scalar = Unicode.Scalar(u) ?? "\u{FFFD}"
                }
            default:
                throw Failure(message: "a bad escape", offset: i)
            }
            s.map.add(derived: s.utf8.count, original: escapeStart)
            UTF8.encode(scalar) { s.utf8.append($0) }
            s.map.add(derived: s.utf8.count, original: i)
        }
        throw Failure(message: "the string is not closed", offset: open)
    }

    private func hex4(at p: Int) -> UInt32? {
        guard p + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for k in p..<(p + 4) {
            let c = bytes[k] | 0x20
            if c >= 0x30 && c <= 0x39 { v = v * 16 + UInt32(c - 0x30) }
            else if c >= 0x61 && c <= 0x66 { v = v * 16 + UInt32(c - 0x61 + 10) }
            else { return nil }
        }
        return v
    }
}

extension OffsetMap {
    var derivedOffsets: [Int] { derived }
    var originalOffsets: [Int] { original }
}
