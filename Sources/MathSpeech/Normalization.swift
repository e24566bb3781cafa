/// Which one-scalar texts are in Unicode Normalization Form C, for deciding string equality without
/// normalizing.
///
/// Swift strings are equal when they are canonically equivalent, so comparing or hashing a
/// non-ASCII string normalizes it. Two strings already in NFC are equivalent only when their bytes
/// are equal; a text of one scalar is in NFC unless the scalar has the Full_Composition_Exclusion
/// property (UAX #15: those are the characters whose NFC_Quick_Check is No; a combining mark alone,
/// NFC_Quick_Check Maybe, stays as it is). Reading that property through
/// `Unicode.Scalar.Properties` costs a few hundred instructions, so its scalars are listed here; the
/// test suite checks the list against the standard library's Unicode data for every scalar.
enum Normalization {
    /// The Full_Composition_Exclusion scalars, as sorted, disjoint closed ranges.
    static let compositionExclusions: [ClosedRange<UInt32>] = [
        0x0340...0x0341, 0x0343...0x0344, 0x0374...0x0374, 0x037E...0x037E, 0x0387...0x0387, 0x0958...0x095F,
        0x09DC...0x09DD, 0x09DF...0x09DF, 0x0A33...0x0A33, 0x0A36...0x0A36, 0x0A59...0x0A5B, 0x0A5E...0x0A5E,
        0x0B5C...0x0B5D, 0x0F43...0x0F43, 0x0F4D...0x0F4D, 0x0F52...0x0F52, 0x0F57...0x0F57, 0x0F5C...0x0F5C,
        0x0F69...0x0F69, 0x0F73...0x0F73, 0x0F75...0x0F76, 0x0F78...0x0F78, 0x0F81...0x0F81, 0x0F93...0x0F93,
        0x0F9D...0x0F9D, 0x0FA2...0x0FA2, 0x0FA7...0x0FA7, 0x0FAC...0x0FAC, 0x0FB9...0x0FB9, 0x1F71...0x1F71,
        0x1F73...0x1F73, 0x1F75...0x1F75, 0x1F77...0x1F77, 0x1F79...0x1F79, 0x1F7B...0x1F7B, 0x1F7D...0x1F7D,
        0x1FBB...0x1FBB, 0x1FBE...0x1FBE, 0x1FC9...0x1FC9, 0x1FCB...0x1FCB, 0x1FD3...0x1FD3, 0x1FDB...0x1FDB,
        0x1FE3...0x1FE3, 0x1FEB...0x1FEB, 0x1FEE...0x1FEF, 0x1FF9...0x1FF9, 0x1FFB...0x1FFB, 0x1FFD...0x1FFD,
        0x2000...0x2001, 0x2126...0x2126, 0x212A...0x212B, 0x2329...0x232A, 0x2ADC...0x2ADC, 0xF900...0xFA0D,
        0xFA10...0xFA10, 0xFA12...0xFA12, 0xFA15...0xFA1E, 0xFA20...0xFA20, 0xFA22...0xFA22, 0xFA25...0xFA26,
        0xFA2A...0xFA6D, 0xFA70...0xFAD9, 0xFB1D...0xFB1D, 0xFB1F...0xFB1F, 0xFB2A...0xFB36, 0xFB38...0xFB3C,
        0xFB3E...0xFB3E, 0xFB40...0xFB41, 0xFB43...0xFB44, 0xFB46...0xFB4E, 0x1D15E...0x1D164, 0x1D1BB...0x1D1C0,
        0x2F800...0x2FA1D,
    ]

    /// The ranges' bounds, for searching without reference counting or a lazy global's check per
    /// look-up (``Table`` holds them; a run reads ``table`` once).
    private static let bounds = (lower: FrozenArray(compositionExclusions.map(\.lowerBound)),
                                 upper: FrozenArray(compositionExclusions.map(\.upperBound)))

    /// The scalars from U+0340 below ``bitsEnd`` (Greek, Cyrillic, arrows, operators: most non-ASCII
    /// text in formulas) as bits, set for the exclusions: read in a few instructions where the binary
    /// search took seven steps (0.31 M of 147.3 M instructions, `MathAloudBench stages` under
    /// callgrind, session 38).
    private static let bitsStart: UInt32 = 0x0340, bitsEnd: UInt32 = 0x2AE0
    private static let bits: FrozenArray<UInt64> = {
        var words = [UInt64](repeating: 0, count: Int(bitsEnd - bitsStart + 63) / 64)
        for range in compositionExclusions where range.lowerBound < bitsEnd {
            for scalar in range.lowerBound ... min(range.upperBound, bitsEnd - 1) {
                let i = Int(scalar - bitsStart)
                words[i >> 6] |= 1 << UInt64(i & 63)
            }
        }
        return FrozenArray(words)
    }()

    /// ``compositionExclusions`` as read by ``isNFC(_:)`` (pointers to memory never written after it
    /// is made, hence `@unchecked Sendable`).
    struct Table: @unchecked Sendable {
        fileprivate let lower: UnsafePointer<UInt32>
        fileprivate let upper: UnsafePointer<UInt32>
        fileprivate let count: Int
        /// ``Normalization/bits``.
        fileprivate let bits: UnsafePointer<UInt64>

        /// Whether the text of `scalar` alone is in NFC (its scalar is not Full_Composition_Exclusion).
        @inline(__always)
        func isNFC(_ scalar: UInt32) -> Bool {
            if scalar < Normalization.bitsStart { return true }
            if scalar < Normalization.bitsEnd {
                let i = Int(scalar &- Normalization.bitsStart)
                return bits[i &>> 6] &>> UInt64(i & 63) & 1 == 0
            }
            // The last range starting at or below the scalar.
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                if lower[middle] <= scalar { low = middle + 1 } else { high = middle }
            }
            return low == 0 || scalar > upper[low - 1]
        }
    }

    /// The table (its memory lives for the whole process).
    static let table = Table(lower: bounds.lower.base, upper: bounds.upper.base, count: bounds.lower.count, bits: bits.base)

    /// Whether the text of `scalar` alone is in NFC (its scalar is not Full_Composition_Exclusion).
    static func isNFC(_ scalar: UInt32) -> Bool { table.isNFC(scalar) }

    /// The scalar of a text of one non-ASCII scalar in NFC (nil for any other text).
    @inline(__always)
    static func nfcScalar(_ text: String) -> UInt32? {
        guard let scalar = text.withBytes(singleNonASCIIScalar), isNFC(scalar) else { return nil }
        return scalar
    }

    /// The scalar that UTF-8 `bytes` encode when they are one non-ASCII scalar.
    @inline(__always)
    static func singleNonASCIIScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard let lead = bytes.first, lead >= 0xC0 else { return nil }
        let count = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard bytes.count == count else { return nil }
        var scalar = UInt32(lead) & (0x7F >> count)
        for i in 1 ..< count { scalar = scalar << 6 | UInt32(bytes[i] & 0x3F) }
        return scalar
    }

    /// Whether `text` holds one of the three characters whose canonical decomposition is ASCII
    /// (U+037E ;, U+1FEF `, U+212A K): with such a key, ASCII text may equal a non-ASCII key.
    static func hasASCIIDecomposingScalar(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\u{037E}" || $0 == "\u{1FEF}" || $0 == "\u{212A}" }
    }

    /// Whether `text` is known to be in NFC without normalizing it: ASCII, or one scalar in NFC.
    @inline(__always)
    static func isKnownNFC(_ text: String) -> Bool {
        text.withBytes { bytes in
            if !bytes.contains(where: { $0 >= 0x80 }) { return true }
            guard let scalar = singleNonASCIIScalar(bytes) else { return false }
            return isNFC(scalar)
        }
    }
}

extension String {
    /// The value of the string's only Unicode scalar (nil when it has none or several).
    @inline(__always)
    var soleScalarValue: UInt32? {
        var scalars = unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first.value
    }

    /// Runs `body` on the string's UTF-8 bytes (in place for a native string; a small one is copied to
    /// the stack). Reading bytes this way is a few instructions; going through `utf8` is a call per step.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
