/// The lines of UTF-8 text as byte ranges, for the data files read at every start-up (rule, word and
/// symbol files): numbered from 1, `\n` ends a line and a `\r` before it is left out. Text ending in
/// `\n` has a last, empty line.
package struct ByteLines<Bytes: RandomAccessCollection>: Sequence, IteratorProtocol
where Bytes.Element == UInt8, Bytes.Index == Int {
    private let bytes: Bytes
    private var start: Int
    private var number = 0

    /// The lines of `bytes`.
    package init(_ bytes: Bytes) {
        self.bytes = bytes
        self.start = bytes.startIndex
    }

    /// The next line's number and the range of its bytes (without the line end).
    package mutating func next() -> (number: Int, range: Range<Int>)? {
        guard start <= bytes.endIndex else { return nil }
        var end = start
        while end < bytes.endIndex, bytes[end] != 0x0A { end += 1 }
        var contentEnd = end
        if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        number += 1
        let line = (number, start..<contentEnd)
        start = end + 1
        return line
    }
}
