import MathAloud

/// A map from offsets in a derived text (the document decoded to UTF-8, a notebook cell's decoded JSON
/// strings) to offsets in the text it was derived from (the file's bytes, the JSON text), piece by piece.
///
/// The map is a list of breakpoints `(derived, original)`, both non-decreasing. Between two breakpoints
/// the bytes either correspond one to one (same length on both sides: offsets map linearly) or were
/// replaced (`&lt;` → `<`, a JSON escape, a UTF-16 code unit pair → UTF-8): an offset inside a
/// replacement maps to its start when rounding down and to its end when rounding up. Two breakpoints at
/// the same derived offset mark a gap in the original (the JSON between two strings of a cell's
/// source): rounding down maps to the end of the gap (the next piece), rounding up to its start.
struct OffsetMap: Hashable, Sendable {
    private(set) var derived: [Int] = []
    private(set) var original: [Int] = []

    /// Derived offset `d` is original offset `d + shift` everywhere.
    init(shift: Int) {
        derived = [0]
        original = [shift]
    }

    /// An empty map, to be built with ``add(derived:original:)``.
    init() {}

    /// Adds a breakpoint (both offsets at least those of the previous one).
    mutating func add(derived d: Int, original o: Int) {
        if let lastD = derived.last, let lastO = original.last {
            // A breakpoint that the previous piece already implies adds nothing.
            if derived.count >= 2 {
                let pd = derived[derived.count - 2], po = original[original.count - 2]
                if lastD - pd == lastO - po, d - lastD == o - lastO, lastD > pd, d > lastD {
                    derived[derived.count - 1] = d
                    original[original.count - 1] = o
                    return
                }
            }
            if lastD == d, lastO == o { return }
        }
        derived.append(d)
        original.append(o)
    }

    /// Whether derived and original offsets are equal up to a constant shift.
    var isShift: Bool { derived.count <= 1 }

    /// The original offset of derived offset `d` (see the type's rounding rules).
    func map(_ d: Int, roundingUp: Bool = false) -> Int {
        guard let first = derived.first else { return d }
        if derived.count == 1 || d <= first { return original[0] + (d - first) }
        if roundingUp {
            // The first breakpoint at or after d.
            var lo = 0, hi = derived.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if derived[mid] < d { lo = mid + 1 } else { hi = mid }
            }
            if lo == derived.count { return original[lo - 1] + (d - derived[lo - 1]) }
            if derived[lo] == d { return original[lo] }
            let k = lo - 1
            if derived[k + 1] - derived[k] == original[k + 1] - original[k] { return original[k] + (d - derived[k]) }
            return original[k + 1]
        }
        // The last breakpoint at or before d.
        var lo = 0, hi = derived.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if derived[mid] <= d { lo = mid + 1 } else { hi = mid }
        }
        let k = lo - 1
        if k == derived.count - 1 || derived[k + 1] - derived[k] == original[k + 1] - original[k] {
            return original[k] + (d - derived[k])
        }
        return original[k]
    }

    /// The original range of a derived range (the lower bound rounded down, the upper bound up).
    func map(_ range: SourceRange) -> SourceRange {
        let lower = map(range.lowerBound)
        return SourceRange(lower, max(lower, map(range.upperBound, roundingUp: range.count > 0)))
    }

    /// The derived offset of original offset `o`: the inverse, rounding down inside a replacement.
    func derivedOffset(of o: Int) -> Int {
        guard let first = original.first else { return o }
        if original.count == 1 || o <= first { return derived[0] + (o - first) }
        var lo = 0, hi = original.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if original[mid] <= o { lo = mid + 1 } else { hi = mid }
        }
        let k = lo - 1
        if k == original.count - 1 || derived[k + 1] - derived[k] == original[k + 1] - original[k] {
            return derived[k] + (o - original[k])
        }
        return derived[k]
    }
}

/// Maps applied one after the other (a cell's text → the notebook's JSON text → the file's bytes).
struct OffsetMapChain: Hashable, Sendable {
    var maps: [OffsetMap]

    func map(_ range: SourceRange) -> SourceRange {
        maps.reduce(range) { $1.map($0) }
    }

    func map(_ offset: Int) -> Int {
        maps.reduce(offset) { $1.map($0) }
    }
}
