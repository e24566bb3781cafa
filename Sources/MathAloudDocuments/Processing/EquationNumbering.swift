import MathAloud

/// How display formulas are numbered (amsmath's rules, as MathJax's `tags` option applies them).
public struct EquationNumbering: Sendable, Hashable {
    /// Which formulas get numbers.
    public enum Scope: String, Sendable, Codable, CaseIterable {
        /// None (`\tag{…}` still shows, and `\label` on it still resolves).
        case none
        /// The numbered environments: `equation`, `align`, `gather`, `multline`, `flalign`, `alignat`,
        /// `eqnarray`, not their starred forms; in the multi-line ones each line, unless it has
        /// `\nonumber` or `\notag` (MathJax's `tags: 'ams'`, LaTeX's behaviour).
        case ams
        /// Every display formula (`$$…$$` and `\[…\]` too; MathJax's `tags: 'all'`).
        case all
    }

    /// Which side the numbers go on.
    public enum Side: String, Sendable, Codable, CaseIterable {
        /// At the left margin (LaTeX's `leqno`).
        case left
        /// At the right margin (the default).
        case right
    }

    /// Which formulas get numbers (default ``Scope/ams``).
    public var scope: Scope = .ams
    /// The first number (default 1).
    public var start: Int = 1
    /// Where numbers go (default ``Side/right``).
    public var side: Side = .right

    /// The default: amsmath's numbered environments, from 1, on the right.
    public init(scope: Scope = .ams, start: Int = 1, side: Side = .right) {
        self.scope = scope
        self.start = start
        self.side = side
    }
}

/// The numbering facts of one display formula's TeX: its rows, their tags and labels (a lexical look
/// at the TeX, before parsing: `\\` at the top level separates rows; `\tag`, `\label`, `\nonumber`
/// and `\notag` are found in each).
struct NumberingScan {
    /// The environment the whole formula is (`align`), nil for `$$…$$` and the like.
    var environment: String?
    /// The rows (one for a formula that is not a multi-line environment).
    var rows: [Row] = []
    /// Where `\begin{env}`'s name and `\end{env}`'s name are (to make the environment starred).
    var environmentNameRanges: [SourceRange] = []

    struct Row {
        /// Where a `\tag{…}` for this row goes: before the `\\` or `\end` that ends it.
        var insertionPoint: Int
        /// The row's own `\tag{text}` (starred: shown without parentheses).
        var tag: String?
        var tagStarred = false
        var noNumber = false
        var labels: [String] = []
        /// Whether the row holds nothing but white space (a trailing `\\` leaves one).
        var isEmpty = true
    }

    /// The environments numbered line by line, and those numbered once.
    static let multiLine: Set<String> = ["align", "gather", "flalign", "alignat", "eqnarray", "xalignat"]
    static let singleNumber: Set<String> = ["equation", "multline", "dmath"]
    /// Numbered environments whose starred form the parser knows (numbers are then written as tags).
    static let starrable: Set<String> = ["align", "gather", "alignat", "eqnarray", "equation", "multline"]

    init(tex: String) {
        let bytes = Array(tex.utf8)
        var i = 0
        let n = bytes.count
        while i < n, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
        var contentStart = 0, contentEnd = n
        if let (name, nameRange, end) = Self.environmentToken(bytes, at: i, keyword: "begin") {
            // The whole formula is one environment when its matching \end is the last thing in it.
            var e = n
            while e > 0, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x0A || bytes[e - 1] == 0x09 || bytes[e - 1] == 0x0D { e -= 1 }
            let closing = Array("\\end{\(name)}".utf8)
            if e >= closing.count, Array(bytes[(e - closing.count)..<e]) == closing,
               Self.matchingEnd(bytes, name: name, from: end) == e - closing.count {
                environment = name
                contentStart = end
                contentEnd = e - closing.count
                environmentNameRanges = [nameRange, SourceRange(e - closing.count + 5, e - 1)]
            }
        }
        let splitsRows = environment.map { Self.multiLine.contains($0.hasSuffix("*") ? String($0.dropLast()) : $0) } ?? false
        var row = Row(insertionPoint: contentEnd)
        var depth = 0, nested = 0
        i = contentStart
        while i < contentEnd {
            let b = bytes[i]
            switch b {
            case 0x25:   // '%' comment
                while i < contentEnd, bytes[i] != 0x0A { i += 1 }
                continue
            case 0x7B: depth += 1; row.isEmpty = false
            case 0x7D: depth -= 1
            case 0x5C:
                guard i + 1 < contentEnd else { i += 1; continue }
                if bytes[i + 1] == 0x5C, depth == 0, nested == 0, splitsRows {
                    row.insertionPoint = i
                    rows.append(row)
                    row = Row(insertionPoint: contentEnd)
                    i += 2
                    // An optional [spacing] belongs to the separator.
                    continue
                }
                var j = i + 1
                while j < contentEnd, HTMLTokenizer.isLetter(bytes[j]) { j += 1 }
                let word = String(decoding: bytes[(i + 1)..<max(i + 2, j)], as: UTF8.self)
                switch word {
                case "begin": nested += 1
                case "end": nested = max(0, nested - 1)
                case "nonumber", "notag": row.noNumber = true; i = j; continue
                case "tag":
                    var k = j
                    var starred = false
                    if k < contentEnd, bytes[k] == 0x2A { starred = true; k += 1 }
                    while k < contentEnd, bytes[k] == 0x20 { k += 1 }
                    if let end = LaTeXSegmenter.groupEnd(bytes, at: k), end <= contentEnd {
                        row.tag = String(decoding: bytes[(k + 1)..<(end - 1)], as: UTF8.self)
                        row.tagStarred = starred
                        row.isEmpty = false
                        i = end
                        continue
                    }
                case "label":
                    var k = j
                    while k < contentEnd, bytes[k] == 0x20 { k += 1 }
                    if let end = LaTeXSegmenter.groupEnd(bytes, at: k), end <= contentEnd {
                        row.labels.append(String(decoding: bytes[(k + 1)..<(end - 1)], as: UTF8.self).trimmingSpaces)
                        i = end
                        continue
                    }
                default: break
                }
                row.isEmpty = false
                i = max(j, i + 2)
                continue
            case 0x20, 0x0A, 0x09, 0x0D: break
            default: row.isEmpty = false
            }
            i += 1
        }
        row.insertionPoint = contentEnd
        rows.append(row)
        // A trailing `\\` leaves an empty last row, which is neither shown nor numbered.
        if rows.count > 1, let last = rows.last, last.isEmpty, last.tag == nil, last.labels.isEmpty { rows.removeLast() }
    }

    /// `\begin{name}` or `\end{name}` at `i`: the name, its range and the end of the token.
    static func environmentToken(_ bytes: [UInt8], at i: Int, keyword: String) -> (String, SourceRange, Int)? {
        let prefix = Array("\\\(keyword){".utf8)
        guard i + prefix.count <= bytes.count, Array(bytes[i..<(i + prefix.count)]) == prefix else { return nil }
        var j = i + prefix.count
        while j < bytes.count, HTMLTokenizer.isLetter(bytes[j]) || bytes[j] == 0x2A { j += 1 }
        guard j < bytes.count, bytes[j] == 0x7D, j > i + prefix.count else { return nil }
        return (String(decoding: bytes[(i + prefix.count)..<j], as: UTF8.self), SourceRange(i + prefix.count, j), j + 1)
    }

    /// The start of the `\end{name}` matching a `\begin{name}` whose token ends at `from`.
    static func matchingEnd(_ bytes: [UInt8], name: String, from: Int) -> Int? {
        var depth = 1
        var i = from
        while i < bytes.count {
            if bytes[i] == 0x5C {
                if let (n, _, end) = environmentToken(bytes, at: i, keyword: "begin"), n == name { depth += 1; i = end; continue }
                if let (n, _, end) = environmentToken(bytes, at: i, keyword: "end"), n == name {
                    depth -= 1
                    if depth == 0 { return i }
                    i = end
                    continue
                }
                i += 2
                continue
            }
            i += 1
        }
        return nil
    }
}

/// Numbers and labels across a document: which formula rows get which numbers, what each `\label`
/// refers to, and the TeX to draw (with the numbers written as `\tag`s).
struct EquationNumberer {
    let numbering: EquationNumbering
    private(set) var next: Int
    /// `\label` key → the number or tag it names.
    private(set) var labels: [String: String] = [:]
    /// `\label` keys on formulas (rows) that have no number or tag.
    private(set) var unnumberedLabels: Set<String> = []

    init(numbering: EquationNumbering) {
        self.numbering = numbering
        self.next = numbering.start
    }

    /// What numbering does to one formula.
    struct Result {
        /// The numbers and tags shown, in row order (tags as written, numbers as digits).
        var numbers: [String] = []
        /// The TeX to draw: the source with each automatic number written as a `\tag` (and a numbered
        /// environment made starred, so nothing else numbers it); nil when nothing changed.
        var drawnTeX: String?
        /// Offsets of ``drawnTeX`` → offsets of the source.
        var map = OffsetMap(shift: 0)
    }

    /// Numbers a display formula (inline formulas are never numbered; their tags and labels still
    /// count).
    mutating func number(tex: String, display: Bool) -> Result {
        let scan = NumberingScan(tex: tex)
        var result = Result()
        var insertions: [(Int, String)] = []
        let base = scan.environment.map { $0.hasSuffix("*") ? String($0.dropLast()) : $0 }
        let starred = scan.environment?.hasSuffix("*") ?? false
        let numberedEnvironment = base.map { NumberingScan.multiLine.contains($0) || NumberingScan.singleNumber.contains($0) } ?? false
        let autoNumbers: Bool
        switch numbering.scope {
        case .none: autoNumbers = false
        case .ams: autoNumbers = display && numberedEnvironment && !starred
        case .all: autoNumbers = display && !starred && (scan.environment == nil || numberedEnvironment)
        }
        let singleNumber = scan.environment == nil || base.map { NumberingScan.singleNumber.contains($0) } ?? true
        for (index, row) in scan.rows.enumerated() {
            if let tag = row.tag {
                result.numbers.append(tag)
                for key in row.labels { labels[key] = tag }
                continue
            }
            // In a single-number formula, \nonumber anywhere stops the number.
            let suppressed = singleNumber ? scan.rows.contains { $0.noNumber } : row.noNumber
            guard autoNumbers, !suppressed, !(singleNumber && index > 0) else {
                unnumberedLabels.formUnion(row.labels)
                continue
            }
            let number = String(next)
            next += 1
            result.numbers.append(number)
            for key in (singleNumber ? scan.rows.flatMap(\.labels) : row.labels) { labels[key] = number }
            insertions.append((singleNumber ? scan.rows.last!.insertionPoint : row.insertionPoint, "\\tag{\(number)}"))
        }
        guard !insertions.isEmpty else { return result }
        // The TeX to draw: tags inserted, the environment starred (when the parser knows the starred
        // form; otherwise the drawing numbers it on its own).
        var edits = insertions
        if let env = scan.environment, NumberingScan.starrable.contains(env) {
            for r in scan.environmentNameRanges { edits.append((r.upperBound, "*")) }
        }
        edits.sort { $0.0 < $1.0 }
        var bytes = Array(tex.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16 * edits.count)
        var map = OffsetMap()
        map.add(derived: 0, original: 0)
        var position = 0
        for (at, text) in edits {
            out.append(contentsOf: bytes[position..<at])
            map.add(derived: out.count, original: at)
            out.append(contentsOf: Array(text.utf8))
            map.add(derived: out.count, original: at)
            position = at
        }
        out.append(contentsOf: bytes[position...])
        map.add(derived: out.count, original: bytes.count)
        bytes = []
        result.drawnTeX = String(decoding: out, as: UTF8.self)
        result.map = map
        return result
    }

    /// The number or tag a `\label` key names, nil when there is none (yet).
    func reference(_ key: String) -> String? { labels[key] }

    /// Whether a `\label` with this key stands on a formula without a number (and none with one).
    func labelsUnnumbered(_ key: String) -> Bool { labels[key] == nil && unnumberedLabels.contains(key) }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\n" || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\n" || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
