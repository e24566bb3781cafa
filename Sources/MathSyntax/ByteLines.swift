/// The lines of UTF-8 text as byte ranges, for the data files read at every start-up (rule, word and
/// symbol files): numbered from 1, `\n` ends a line and a `\r` before it is left out. Text ending in
/// `\n` has a last, empty line. Over a buffer (not generic), so the loop costs no more than a
/// hand-written one in the modules that use it.
package struct ByteLines: Sequence, IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var start = 0
    private var number = 0

    /// The lines of `bytes` (valid while the caller's `withUTF8`/`withUnsafeBufferPointer` lasts).
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next line's number and the range of its bytes (without the line end).
    package mutating func next() -> (number: Int, range: Range<Int>)? {
        guard start <= bytes.count else { return nil }
        var end = start
        // Eight bytes at a time while eight are left: a word holds a `\n` where `word ^ 0x0A0A…` has a
        // zero byte, and the lowest byte the zero-byte test flags is the first zero (a byte loop cost
        // 5.4 instructions a byte, 2.2 M of 109 M instructions of `mathaloud speak 'x^2'` under
        // callgrind reading the rule and word files; session 43).
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end &+ 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
                let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                if zeros != 0 {
                    end &+= zeros.trailingZeroBitCount >> 3
                    break
                }
                end &+= 8
            }
        }
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        var contentEnd = end
        if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        number += 1
        let line = (number, start..<contentEnd)
        start = end + 1
        return line
    }
}
