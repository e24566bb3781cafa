/// A table keyed by text for the hot look-ups of speaking (a node's text among the texts rules name,
/// a symbol among a locale's words), answering most look-ups without hashing a string.
///
/// Hashing and comparing non-ASCII strings is slow in Swift (both go through Unicode normalisation:
/// strings are equal when canonically equivalent). So: a one-byte ASCII text is found by its byte, a
/// text that is one non-ASCII Unicode scalar by its scalar value, and other ASCII text among the
/// ASCII keys only. Each shortcut gives what the `String`-keyed dictionary gives:
/// - a key with the same bytes or scalar is the dictionary's key for that text (two keys cannot be
///   canonically equivalent), so a hit is exact;
/// - ASCII text can only be equivalent to an ASCII key, except for keys holding one of the three
///   characters whose canonical decomposition is ASCII (U+037E ;, U+1FEF `, U+212A K); with such
///   keys the ASCII shortcuts are not used;
/// - a non-ASCII text not found by its scalar is looked up in the dictionary (it may be equivalent
///   to a key written differently, `=` + U+0338 and `≠`).
struct TextTable<Value: Sendable>: Sendable {
    /// Every key with its value.
    let dictionary: [String: Value]
    /// Whether ASCII text is decided among the ASCII keys alone (no key holds one of the three
    /// characters whose canonical decomposition is ASCII).
    let asciiKeysDecide: Bool
    /// Values of one-byte ASCII keys by byte (128 entries; empty when the ASCII shortcuts are off).
    private let oneByte: [Value?]
    private let ascii: [String: Value]
    private let scalars: [UInt32: Value]

    init(_ all: [String: Value]) {
        dictionary = all
        asciiKeysDecide = !all.keys.contains(where: Normalization.hasASCIIDecomposingScalar)
        var oneByte = [Value?](repeating: nil, count: asciiKeysDecide ? 128 : 0)
        var ascii: [String: Value] = [:]
        var scalars: [UInt32: Value] = [:]
        for (key, value) in all {
            if key.utf8.allSatisfy({ $0 < 0x80 }) {
                guard asciiKeysDecide else { continue }
                if key.utf8.count == 1 { oneByte[Int(key.utf8.first!)] = value } else { ascii[key] = value }
            } else if let scalar = key.soleScalarValue {
                scalars[scalar] = value
            }
        }
        self.oneByte = oneByte
        self.ascii = ascii
        self.scalars = scalars
    }


    @inline(__always)
    subscript(_ text: String) -> Value? {
        let utf8 = text.utf8
        if asciiKeysDecide, let first = utf8.first, first < 0x80 {
            if utf8.count == 1 { return oneByte[Int(first)] }
            if utf8.allSatisfy({ $0 < 0x80 }) { return ascii[text] }
        }
        if let scalar = text.soleScalarValue, let value = scalars[scalar] { return value }
        return dictionary[text]
    }
}
