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
    /// Values of one-byte ASCII keys by byte (128 entries; empty when the ASCII shortcuts are off or
    /// no key is one byte: most tables of candidate lists have none, and 128 empty entries per kind
    /// were 0.7 MB of every start-up, BENCHMARKS.md session 10).
    private let oneByte: [Value?]
    private let ascii: [String: Value]
    /// The ASCII keys of 2–7 bytes without NUL by their bytes packed in an integer (``PackedText``):
    /// found without hashing a string (most node texts rules name are such: `sin`, `10`, `dx`).
    private let packed: PackedText.Map<Value>
    /// The keys of one non-ASCII scalar by their scalar (a ``ScalarMap``, found without hashing: as a
    /// `[UInt32: Value]`, each look-up ran SipHash; see ``lookUp(_:_:)``).
    private let scalars: ScalarMap<Value>
    /// Whether every non-ASCII key is one scalar in NFC: then a text of one non-ASCII scalar in NFC
    /// that ``scalars`` lacks has no key (an equivalent key would be that scalar), decided without
    /// hashing it (Greek letters against a table of texts rules name: 2,500 instructions a look-up;
    /// `MathAloudBench rules-profile` under callgrind, session 14).
    private let decidesNFCScalars: Bool

    init(_ all: [String: Value]) {
        dictionary = all
        asciiKeysDecide = !all.keys.contains(where: Normalization.hasASCIIDecomposingScalar)
        decidesNFCScalars = all.keys.allSatisfy { key in
            key.utf8.allSatisfy { $0 < 0x80 } || key.soleScalarValue.map(Normalization.isNFC) == true
        }
        let hasOneByteKey = asciiKeysDecide && all.keys.contains { $0.utf8.count == 1 && $0.utf8.first! < 0x80 }
        var oneByte = [Value?](repeating: nil, count: hasOneByteKey ? 128 : 0)
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
        var packed: [UInt64: Value] = [:]
        for (key, value) in ascii { if let k = PackedText.key(key) { packed[k] = value } }
        self.packed = PackedText.Map(packed)
        self.scalars = ScalarMap(scalars)
    }


    /// The value of `text` (``lookUp(_:_:)`` on this table).
    subscript(_ text: String) -> Value? {
        withUnsafePointer(to: self) { TextTable.lookUp($0, text) }
    }

    /// The value of `text` in the table at `table`. Read through the pointer a run holds, field by
    /// field: a subscript on the table read through it copied the whole table, with its dictionaries'
    /// and arrays' reference counts, on every look-up that reached a dictionary; with the scalars in a
    /// ``ScalarMap``, 0.30 M of 147.6 M instructions (`MathAloudBench stages` under callgrind, session 38).
    @inline(__always)
    static func lookUp(_ table: UnsafePointer<TextTable>, _ text: String) -> Value? {
        let utf8 = text.utf8
        if table.pointee.asciiKeysDecide, let first = utf8.first, first < 0x80 {
            if utf8.count == 1 { return Int(first) < table.pointee.oneByte.count ? table.pointee.oneByte[Int(first)] : nil }
            // Equal ASCII strings have equal bytes: the packed key decides among the ASCII keys.
            if let key = PackedText.key(text) { return table.pointee.packed[key] }
            if utf8.allSatisfy({ $0 < 0x80 }) { return asciiValue(table, text) }
        }
        if let scalar = text.soleScalarValue {
            if let value = table.pointee.scalars.reader[scalar] { return value }
            if table.pointee.decidesNFCScalars && scalar >= 0x80 && Normalization.isNFC(scalar) { return nil }
        }
        return value(table, text)
    }

    /// The look-ups that hash the text, out of line.
    @inline(never)
    private static func asciiValue(_ table: UnsafePointer<TextTable>, _ text: String) -> Value? { table.pointee.ascii[text] }

    @inline(never)
    private static func value(_ table: UnsafePointer<TextTable>, _ text: String) -> Value? { table.pointee.dictionary[text] }
}

/// ASCII texts of up to 7 bytes without NUL as one integer (byte `i` in bits `8i ..< 8i + 8`; the zero
/// bytes above the text tell its length), and a table keyed by them.
enum PackedText {
    /// The key of an ASCII text of 1–7 bytes without NUL; nil for any other text.
    @inline(__always)
    static func key(_ text: String) -> UInt64? {
        text.withBytes { bytes in
            guard bytes.count <= 7, !bytes.isEmpty else { return nil }
            var key: UInt64 = 0
            for i in 0 ..< bytes.count {
                let b = bytes[i]
                guard b != 0, b < 0x80 else { return nil }
                key |= UInt64(b) << UInt64(8 * i)
            }
            return key
        }
    }

    /// An open-addressing table from keys to values (keys are never 0: 0 marks an empty slot).
    struct Map<Value: Sendable>: Sendable {
        private let keys: [UInt64]
        private let values: [Value?]
        private let mask: Int

        init(_ dictionary: [UInt64: Value]) {
            var count = 1
            while count < 2 * max(dictionary.count, 1) { count <<= 1 }
            var keys = [UInt64](repeating: 0, count: count)
            var values = [Value?](repeating: nil, count: count)
            mask = count - 1
            for (key, value) in dictionary {
                var slot = Map.slot(key, mask)
                while keys[slot] != 0 { slot = (slot + 1) & mask }
                keys[slot] = key
                values[slot] = value
            }
            self.keys = keys
            self.values = values
        }

        @inline(__always)
        private static func slot(_ key: UInt64, _ mask: Int) -> Int {
            Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        }

        @inline(__always)
        subscript(_ key: UInt64) -> Value? {
            var slot = Map.slot(key, mask)
            while true {
                let k = keys[slot]
                if k == key { return values[slot] }
                if k == 0 { return nil }
                slot = (slot + 1) & mask
            }
        }
    }
}
