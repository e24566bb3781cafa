import Foundation

/// A half-open range of UTF-8 byte offsets into the source text a node or diagnostic came from.
///
/// Offsets are bytes, not characters, so ranges are cheap to compute on the hot path; use
/// ``SourceText/location(of:)`` to turn an offset into a line and column for people.
public struct SourceRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The offset of the first byte.
    public var lowerBound: Int
    /// The offset one past the last byte.
    public var upperBound: Int

    /// Creates a range from `lowerBound` up to (not including) `upperBound`.
    public init(_ lowerBound: Int, _ upperBound: Int) {
        self.lowerBound = lowerBound
        self.upperBound = max(lowerBound, upperBound)
    }

    /// The number of bytes covered.
    public var count: Int { upperBound - lowerBound }

    /// The smallest range covering both `self` and `other`.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(lowerBound, other.lowerBound), max(upperBound, other.upperBound))
    }

    /// The smallest range covering both, where either may be absent.
    public static func union(_ a: SourceRange?, _ b: SourceRange?) -> SourceRange? {
        switch (a, b) {
        case let (a?, b?): return a.union(b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        default: return nil
        }
    }

    public var description: String { "\(lowerBound)..<\(upperBound)" }
}

/// A line and column (both 1-based; the column counts Unicode scalars) in a source text.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// Source text with a line index, for turning byte offsets into lines and columns.
public struct SourceText: Sendable {
    /// The UTF-8 bytes of the source (of a text made from a string, copied out of it when asked).
    public var bytes: [UInt8] { string.map { Array($0.utf8) } ?? storedBytes }
    /// The bytes of a text made from bytes (empty for one made from a string, which keeps them).
    ///
    /// (Every parsed formula makes a text from its string: copying the string's bytes into an array
    /// that speech never reads cost ~300 instructions a formula with its allocation and release,
    /// `MathAloudBench stages` under callgrind, session 36.)
    private let storedBytes: [UInt8]
    private let lineStarts: [Int]
    /// The text it was made from, when it was made from a string (``text`` need not decode it again).
    private let string: String?

    /// Indexes `text` for location look-ups.
    public init(_ text: String) {
        self.init(bytes: [], string: text)
    }

    /// The source as a string (invalid UTF-8 of a source made from bytes repaired, as
    /// `String(decoding:as:)` does).
    public var text: String { string ?? String(decoding: storedBytes, as: UTF8.self) }

    /// Indexes raw UTF-8 bytes (invalid sequences are tolerated) for location look-ups.
    public init(bytes: [UInt8]) {
        self.init(bytes: bytes, string: nil)
    }

    private init(bytes: [UInt8], string: String?) {
        self.storedBytes = bytes
        self.string = string
        // Every parsed formula makes one (speech keeps it for its diagnostics), and nearly all are one
        // line: the newlines are found with `memchr`, and a text without one shares a single index
        // array instead of allocating its own (`MathAloudBench stages` under callgrind: the byte loop
        // and the array were ~500 instructions a formula).
        var starts = SourceText.oneLine
        SourceText.withBytes(bytes, string) { buffer in
            guard let base = buffer.baseAddress else { return }
            var i = 0
            while i < buffer.count, let hit = memchr(base + i, 0x0A, buffer.count - i) {
                i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
                starts.append(i)
            }
        }
        lineStarts = starts
    }

    /// The line index of a text of one line.
    private static let oneLine = [0]

    /// Calls `body` with the UTF-8 bytes of `string` when there is one, else with `bytes`, in place.
    private static func withBytes<R>(_ bytes: [UInt8], _ string: String?,
                                     _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if var string { return string.withUTF8(body) }
        return bytes.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the source's UTF-8 bytes, in place.
    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        SourceText.withBytes(storedBytes, string, body)
    }

    /// The line and column of a byte offset (clamped to the text).
    public func location(of offset: Int) -> SourceLocation {
        withBytes { bytes in
            let offset = min(max(0, offset), bytes.count)
            var lo = 0, hi = lineStarts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
            }
            var column = 1
            var i = lineStarts[lo]
            while i < offset {
                // Count scalars: skip UTF-8 continuation bytes.
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            // A continuation byte at the offset itself means we are mid-scalar; count it as the scalar.
            return SourceLocation(line: lo + 1, column: column)
        }
    }

    /// The text of the line (1-based) without its line terminator.
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        return withBytes { bytes in
            let start = lineStarts[line - 1]
            var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
            if end > start, end <= bytes.count, end - 1 >= start, bytes[end - 1] == 0x0D { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(start, end)]), as: UTF8.self)
        }
    }

    /// The source text covered by `range` (clamped), decoded leniently.
    public subscript(range: SourceRange) -> String {
        withBytes { bytes in
            let lo = min(max(0, range.lowerBound), bytes.count)
            let hi = min(max(lo, range.upperBound), bytes.count)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self)
        }
    }
}
