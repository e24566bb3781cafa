/// A JSON value (RFC 8259), as the batch lines and the service exchange them: an `id` echoed back as
/// it was given, a request read field by field with precise errors, a response written with its keys
/// sorted. Immutable and `Sendable`.
///
/// ``parse(_:limits:)`` reads UTF-8 bytes with bounded depth and size and says exactly what is wrong
/// (with the column) when it cannot: a number out of range, a lone surrogate, nesting too deep, a
/// duplicate key, invalid UTF-8. ``jsonText`` writes compact JSON with sorted keys, unescaped slashes,
/// and numbers as they were read. `JSONValue` is also `Codable`, so it travels inside any other
/// `Codable` type (Foundation's `JSONEncoder`/`JSONDecoder` included).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its text so it is echoed exactly.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (keys are unique; they are written sorted).
    case object([String: JSONValue])

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The Boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The number, if this is one.
    public var numberValue: JSONNumber? { if case .number(let n) = self { n } else { nil } }
    /// The object's members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// A member of an object (nil when absent or when this is not an object).
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// What kind of value this is, for messages ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number: its text as written (validated, finite as a `Double`), so an id such as `1.50` or
/// `12345678901234567890` comes back byte for byte.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text.
    public let text: String

    /// A number from an integer.
    public init(_ value: Int) { text = String(value) }

    /// A number from a finite double: integral values below 2^53 without a fraction (`16`), others
    /// in Swift's shortest round-trip form (`8.9`). Non-finite values (not JSON) are written as `0`.
    public init(_ value: Double) {
        if !value.isFinite {
            text = "0"
        } else if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            text = String(Int64(value))
        } else {
            text = value.description
        }
    }

    /// A number from already-valid JSON number text (the parser's own; not checked again).
    init(validatedText: String) { text = validatedText }

    /// The value as a double.
    public var doubleValue: Double { Double(text) ?? 0 }
    /// The value as an integer, when it is one that fits.
    public var intValue: Int? { Int(text) }
    /// The number's JSON text.
    public var description: String { text }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object value (a repeated key keeps its last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}

// MARK: - Writing

extension JSONValue {
    /// Compact JSON text: no spaces, keys sorted, `/` not escaped, control characters as `\n`, `\r`,
    /// `\t` or `\u00XX`, other characters as they are (the form of the batch outputs).
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.text
        case .string(let s): JSONString.append(s, to: &out)
        case .array(let elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += "," }
                e.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONString.append(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }
}

// MARK: - Reading

/// Bounds on what ``JSONValue/parse(_:limits:)`` accepts.
public struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and objects (default 64; a batch line needs 3).
    public var maxDepth: Int = 64
    /// Longest input in bytes (default 16 MiB).
    public var maxBytes: Int = 16 << 20
    /// Longest number text (default 400 characters).
    public var maxNumberLength: Int = 400

    /// The defaults.
    public init() {}
}

/// Why a JSON text could not be read, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The text ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedCharacter(String)
        /// Text after the value.
        case trailingText
        /// A backslash escape JSON does not have.
        case invalidEscape(String)
        /// A `\uD800`–`\uDFFF` escape without its partner.
        case loneSurrogate(String)
        /// A control character (below U+0020) written raw inside a string.
        case controlCharacter(UInt8)
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// A number a double cannot hold (its magnitude is beyond 1.8e308).
        case numberOutOfRange(String)
        /// A number that is not written as JSON writes numbers (`01`, `1.`, `.5`, `+1`).
        case invalidNumber(String)
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// Input longer than the limit.
        case tooLarge(bytes: Int, limit: Int)
        /// A key given twice in one object.
        case duplicateKey(String)
        /// A value other than the object that was expected (its kind: "an array").
        case notAnObject(String)
    }

    /// What went wrong.
    public let kind: Kind
    /// The byte offset in the input (0-based).
    public let offset: Int

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// A sentence naming the problem and its column (1-based byte column of a one-line input).
    public var description: String {
        let at = "at column \(offset + 1)"
        switch kind {
        case .unexpectedEnd: return "the JSON text ends too early (\(at))"
        case .unexpectedCharacter(let c): return "unexpected \(c) \(at)"
        case .trailingText: return "text after the JSON value \(at)"
        case .invalidEscape(let e): return "invalid escape \(e) in a string \(at)"
        case .loneSurrogate(let e): return "lone surrogate \(e) in a string \(at) (a \\uD800–\\uDBFF escape must be followed by a \\uDC00–\\uDFFF one)"
        case .controlCharacter(let b): return "control character U+\(String(b, radix: 16, uppercase: true).leftPadded(to: 4)) written raw in a string \(at) (escape it)"
        case .invalidUTF8: return "invalid UTF-8 \(at)"
        case .numberOutOfRange(let n): return "the number \(n.count > 40 ? String(n.prefix(40)) + "…" : n) is out of range \(at) (a double holds at most ±1.8e308)"
        case .invalidNumber(let n): return "invalid number \(n.count > 40 ? String(n.prefix(40)) + "…" : n) \(at)"
        case .tooDeep(let limit): return "arrays and objects nested deeper than \(limit) levels \(at)"
        case .tooLarge(let bytes, let limit): return "the JSON text is \(bytes) bytes, over the limit of \(limit)"
        case .duplicateKey(let k): return "the key \(JSONString.quote(k)) is given twice \(at)"
        case .notAnObject(let kind): return "the line is \(kind), not a JSON object"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension JSONValue {
    /// Reads one JSON value from UTF-8 text (leading and trailing white space allowed).
    public static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { bytes in Result { () throws(JSONParseError) -> JSONValue in try parse(bytes, limits: limits) } }
        return try result.get()
    }

    /// Reads one JSON value from UTF-8 bytes (leading and trailing white space allowed).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw JSONParseError(.tooLarge(bytes: bytes.count, limit: limits.maxBytes), at: 0) }
        var reader = JSONReader(bytes: bytes, limits: limits)
        return try reader.document()
    }

    /// Reads one JSON value from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { b in Result { () throws(JSONParseError) -> JSONValue in try parse(b, limits: limits) } }
        return try result.get()
    }
}

/// A line that should hold one JSON object, read: the object, or the error together with what was
/// read before it (so a batch can still echo the line's `id` and name the field that is wrong).
public struct JSONObjectLine: Sendable {
    /// The object's members, or why the line is not a JSON object.
    public let result: Result<[String: JSONValue], JSONParseError>
    /// The members of the outer object read before the error (all of them on success).
    public let membersBeforeError: [String: JSONValue]
    /// The member of the outer object whose value holds the error (nil when the error is elsewhere).
    public let keyAtError: String?

    /// Reads a line.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = JSONLimits()) {
        guard bytes.count <= limits.maxBytes else {
            result = .failure(JSONParseError(.tooLarge(bytes: bytes.count, limit: limits.maxBytes), at: 0))
            membersBeforeError = [:]
            keyAtError = nil
            return
        }
        var reader = JSONReader(bytes: bytes, limits: limits)
        do throws(JSONParseError) {
            reader.skipSpace()
            guard reader.at < bytes.count, bytes[reader.at] == UInt8(ascii: "{") else {
                let value = try reader.document()
                throw JSONParseError(.notAnObject(value.kindDescription), at: 0)
            }
            let value = try reader.document()
            result = .success(value.objectValue ?? [:])
            membersBeforeError = value.objectValue ?? [:]
            keyAtError = nil
        } catch {
            result = .failure(error)
            membersBeforeError = reader.topMembers
            keyAtError = reader.topKey
        }
    }

    /// Reads a line of text.
    public init(_ text: String, limits: JSONLimits = JSONLimits()) {
        var text = text
        self = text.withUTF8 { JSONObjectLine($0, limits: limits) }
    }
}

/// A recursive-descent reader over UTF-8 bytes; depth is bounded, so recursion is too.
private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    var at = 0
    var depth = 0
    /// The members of the outermost object read so far, and the key whose value is being read: what
    /// is known about a line when it turns out to be bad.
    var topMembers: [String: JSONValue] = [:]
    var topKey: String?

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        skipSpace()
        let value = try self.value()
        skipSpace()
        guard at == bytes.count else { throw JSONParseError(.trailingText, at: at) }
        return value
    }

    mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    func unexpected() -> JSONParseError {
        guard at < bytes.count else { return JSONParseError(.unexpectedEnd, at: at) }
        let b = bytes[at]
        let shown: String
        if b >= 0x21 && b < 0x7F { shown = "'" + String(UnicodeScalar(b)) + "'" }
        else if b < 0x80 { shown = "byte 0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
        else { shown = "non-ASCII character" }
        return JSONParseError(.unexpectedCharacter(shown), at: at)
    }

    mutating func value() throws(JSONParseError) -> JSONValue {
        guard at < bytes.count else { throw JSONParseError(.unexpectedEnd, at: at) }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw unexpected()
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = at
        for i in 0..<word.utf8CodeUnitCount {
            guard at < bytes.count, bytes[at] == word.utf8Start[i] else {
                guard at < bytes.count else { throw JSONParseError(.unexpectedEnd, at: at) }
                // Name the whole word that is there instead (`not`, `True`).
                var end = start
                while end < bytes.count, end - start < 20, let b = Optional(bytes[end]),
                      (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F { end += 1 }
                throw JSONParseError(.unexpectedCharacter("'" + String(decoding: bytes[start..<max(end, at + 1)], as: UTF8.self) + "'"), at: start)
            }
            at += 1
        }
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= limits.maxDepth else { throw JSONParseError(.tooDeep(limit: limits.maxDepth), at: at) }
    }

    mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; depth -= 1; return .object(members) }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw unexpected() }
            let keyStart = at
            let key = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw unexpected() }
            at += 1
            skipSpace()
            if depth == 1 { topKey = key }
            let value = try self.value()
            guard members.updateValue(value, forKey: key) == nil else { throw JSONParseError(.duplicateKey(key), at: keyStart) }
            if depth == 1 {
                topMembers[key] = value
                topKey = nil
            }
            skipSpace()
            guard at < bytes.count else { throw JSONParseError(.unexpectedEnd, at: at) }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            if bytes[at] == UInt8(ascii: "}") { at += 1; break }
            throw unexpected()
        }
        depth -= 1
        return .object(members)
    }

    mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        at += 1
        var elements: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; depth -= 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            guard at < bytes.count else { throw JSONParseError(.unexpectedEnd, at: at) }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            if bytes[at] == UInt8(ascii: "]") { at += 1; break }
            throw unexpected()
        }
        depth -= 1
        return .array(elements)
    }

    /// A number as JSON writes it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, finite as a double.
    mutating func number() throws(JSONParseError) -> JSONNumber {
        let start = at
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.at
            while r.at < r.bytes.count, r.bytes[r.at] >= 0x30, r.bytes[r.at] <= 0x39 { r.at += 1 }
            return r.at - s
        }
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        let intStart = at
        let intDigits = digits(&self)
        var valid = intDigits > 0 && !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0"))
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            if digits(&self) == 0 { valid = false }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            if digits(&self) == 0 { valid = false }
        }
        // A number runs into letters or more punctuation only when it is malformed (`1.2.3`, `0x1`).
        while at < bytes.count, let b = Optional(bytes[at]),
              (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2B || b == 0x2D {
            valid = false
            at += 1
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard valid else { throw JSONParseError(.invalidNumber(text), at: start) }
        guard text.utf8.count <= limits.maxNumberLength, let value = Double(text), value.isFinite else {
            throw JSONParseError(.numberOutOfRange(text), at: start)
        }
        return JSONNumber(validatedText: text)
    }

    /// A string: validates UTF-8, decodes escapes (pairing surrogates), refuses raw control characters.
    mutating func string() throws(JSONParseError) -> String {
        at += 1
        let start = at
        // Fast path: no escapes.
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") {
                let s = try validated(start..<at)
                at += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw JSONParseError(.controlCharacter(b), at: at) }
            at += 1
        }
        var out = try validated(start..<at)
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") { at += 1; return out }
            if b < 0x20 { throw JSONParseError(.controlCharacter(b), at: at) }
            if b != UInt8(ascii: "\\") {
                let runStart = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
                out += try validated(runStart..<at)
                continue
            }
            let escapeStart = at
            at += 1
            guard at < bytes.count else { throw JSONParseError(.unexpectedEnd, at: at) }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "\""): out += "\""
            case UInt8(ascii: "\\"): out += "\\"
            case UInt8(ascii: "/"): out += "/"
            case UInt8(ascii: "b"): out += "\u{08}"
            case UInt8(ascii: "f"): out += "\u{0C}"
            case UInt8(ascii: "n"): out += "\n"
            case UInt8(ascii: "r"): out += "\r"
            case UInt8(ascii: "t"): out += "\t"
            case UInt8(ascii: "u"):
                let unit = try hex4(escapeStart)
                if unit >= 0xD800 && unit <= 0xDBFF {
                    // A high surrogate must be followed by a low one.
                    guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                        throw JSONParseError(.loneSurrogate(escapeText(escapeStart)), at: escapeStart)
                    }
                    let lowStart = at
                    at += 2
                    let low = try hex4(lowStart)
                    guard low >= 0xDC00 && low <= 0xDFFF else {
                        throw JSONParseError(.loneSurrogate(escapeText(escapeStart)), at: escapeStart)
                    }
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    out.unicodeScalars.append(UnicodeScalar(scalar)!)
                } else if unit >= 0xDC00 && unit <= 0xDFFF {
                    throw JSONParseError(.loneSurrogate(escapeText(escapeStart)), at: escapeStart)
                } else {
                    out.unicodeScalars.append(UnicodeScalar(unit)!)
                }
            default:
                throw JSONParseError(.invalidEscape(escapeText(escapeStart)), at: escapeStart)
            }
        }
        throw JSONParseError(.unexpectedEnd, at: at)
    }

    /// Four hex digits after `\u` (the escape starting at `escapeStart`).
    mutating func hex4(_ escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard at < bytes.count else { throw JSONParseError(.unexpectedEnd, at: at) }
            let b = bytes[at]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw JSONParseError(.invalidEscape(escapeText(escapeStart)), at: escapeStart)
            }
            value = value << 4 | digit
            at += 1
        }
        return value
    }

    func escapeText(_ start: Int) -> String {
        String(decoding: bytes[start..<min(bytes.count, max(at, start + 2), start + 6)], as: UTF8.self)
    }

    /// The bytes of `range` as a string, or the offset of the first byte that is not UTF-8.
    func validated(_ range: Range<Int>) throws(JSONParseError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        var ascii = true
        for b in slice where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: slice, as: UTF8.self) }
        var decoder = UTF8()
        var iterator = slice.makeIterator()
        var consumed = 0
        var out = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                out.append(s)
                consumed += UTF8.width(s)
            case .emptyInput:
                return String(out)
            case .error:
                throw JSONParseError(.invalidUTF8, at: range.lowerBound + consumed)
            }
        }
    }
}

// MARK: - Codable

extension JSONValue: Codable {
    /// Decodes any JSON value (numbers arrive as the decoder gives them: integers, then doubles).
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let b = try? container.decode(Bool.self) { self = .bool(b) }
            else if let i = try? container.decode(Int.self) { self = .number(JSONNumber(i)) }
            else if let d = try? container.decode(Double.self) { self = .number(JSONNumber(d)) }
            else { self = .string(try container.decode(String.self)) }
        }
    }

    /// Encodes the value (a number as a double, or an integer when its text is one).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = n.intValue { try c.encode(i) } else { try c.encode(n.doubleValue) }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let elements):
            var c = encoder.unkeyedContainer()
            for e in elements { try c.encode(e) }
        case .object(let members):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in members { try c.encode(v, forKey: AnyKey(k)) }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A type that reads itself from a ``JSONValue`` and writes itself as one: the request and response
/// types of the batches and the service. Their `Codable` conformance goes through the same two
/// functions, so a field added once is there in every wire format.
public protocol JSONRepresentable: Codable {
    /// Reads the value; throws a message naming the field that is wrong.
    init(json: JSONValue) throws(JSONFieldError)
    /// The value as JSON.
    var json: JSONValue { get }
}

extension JSONRepresentable {
    /// Decodes through ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do { try self.init(json: value) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes through ``json``.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// The compact JSON text (one line, keys sorted).
    public var jsonText: String { json.jsonText }
}

/// A field of a JSON object with the wrong type or value.
public struct JSONFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence for people, naming the field.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }

    /// "`field` must be T, not …".
    public static func type(_ field: String, expected: String, got: JSONValue) -> JSONFieldError {
        JSONFieldError("\"\(field)\" must be \(expected), not \(got.kindDescription)")
    }
}
