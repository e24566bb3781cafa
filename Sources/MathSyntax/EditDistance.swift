/// How far apart two names are, for "did you mean" suggestions: the optimal-string-alignment distance
/// (Levenshtein with transpositions of neighbours, so `frca` is one edit from `frac`), and the rule
/// for what counts as a typo.
public enum EditDistance {
    /// The distance between two sequences, stopping early once it exceeds `limit` (then `limit + 1`).
    public static func between<C: Collection>(_ a: C, _ b: C, limit: Int = .max) -> Int where C.Element: Equatable {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return min(y.count, limit &+ 1) }
        if y.isEmpty { return min(x.count, limit &+ 1) }
        if abs(x.count - y.count) > limit { return limit &+ 1 }
        var before = [Int](repeating: 0, count: y.count + 1)     // row i-2
        var previous = Array(0...y.count)                         // row i-1
        var current = [Int](repeating: 0, count: y.count + 1)     // row i
        for i in 1...x.count {
            current[0] = i
            var rowMin = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return limit &+ 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[y.count]
    }

    /// The most edits a mistyped name of `length` characters may be from what was meant: 1, or 2 for
    /// names of 8 characters or more. A short name two edits away is a different name (`\foo` is not
    /// `\Box`).
    public static func typoLimit(forLength length: Int) -> Int { length >= 8 ? 2 : 1 }

    /// The candidates close enough to `word` to be what was meant (case-insensitive), closest first.
    public static func suggestions(for word: String, among candidates: some Sequence<String>) -> [String] {
        let target = Array(word.lowercased().unicodeScalars)
        let limit = typoLimit(forLength: target.count)
        var found: [(String, Int)] = []
        for candidate in candidates {
            let d = between(target, Array(candidate.lowercased().unicodeScalars), limit: limit)
            if d <= limit { found.append((candidate, d)) }
        }
        return found.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }
}
