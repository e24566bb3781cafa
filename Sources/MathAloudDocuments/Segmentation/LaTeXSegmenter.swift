import Foundation
import MathAloud

/// What a LaTeX document adds to its segments.
struct LaTeXResult {
    var definitions = ""
    var inclusions: [SegmentedDocument.Inclusion] = []
    var documents: [SegmentedDocument] = []
    var diagnostics: [Diagnostic] = []
}

/// LaTeX sources (``DocumentFormat/latex``).
///
/// Math: `$…$`, `$$…$$`, `\(…\)`, `\[…\]` and the environments of
/// ``SegmenterOptions/latexMathEnvironments`` (`equation`, `align*`…; any other environment is prose and
/// is scanned inside, so the math in an `itemize` is found). Comments (`%` to the end of the line, not
/// `\%`), `\verb|…|` and the `verbatim`, `Verbatim`, `lstlisting`, `minted` and `comment` environments
/// are never scanned. Backticks are quotes, not code.
///
/// Outside math: `\newcommand`, `\renewcommand`, `\providecommand` (starred too), `\def`, `\gdef`,
/// `\edef`, `\xdef`, `\let`, `\DeclareMathOperator(*)`, `\DeclarePairedDelimiter(X)` and xparse's `\NewDocumentCommand` and its kin are collected, in reading order, into
/// ``SegmentedDocument/definitions``, and never scanned for formulas (a body's `$\frac12$` or `#1` is
/// not document math); `\input{name}`, `\input name`, `\include{name}` and
/// `\subfile{name}` are followed through ``SegmenterOptions/loadIncludedFile`` (depth and cycles
/// checked), and each included file is segmented on its own, its ranges into its own bytes.
struct LaTeXSegmenter {
    let segmenter: DocumentSegmenter

    static let verbatimEnvironments: Set<String> = ["verbatim", "verbatim*", "Verbatim", "Verbatim*", "lstlisting", "minted",
                                                    "comment", "BVerbatim", "LVerbatim"]
    static let definitionCommands: Set<String> = ["newcommand", "renewcommand", "providecommand", "def", "gdef", "edef", "xdef",
                                                  "let", "DeclareMathOperator", "DeclarePairedDelimiter", "DeclarePairedDelimiterX",
                                                  "NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand",
                                                  "DeclareDocumentCommand"]
    static let inclusionCommands: Set<String> = ["input", "include", "subfile"]

    func segment(_ source: DocumentSource, into collector: inout SegmentCollector, depth: Int, visited: inout Set<String>,
                 directory: String = "") -> LaTeXResult {
        let options = segmenter.options
        let bytes = source.utf8
        let excluded = Self.excludedRegions(bytes)
        var scannerOptions = MathTextScanner.Options()
        scannerOptions.markdownCode = false
        scannerOptions.markdownMath = false
        // TeX's dollars: `$\displaystyle \lim_{x\to 4} \sqrt{x} = 2 $.` is a formula (the prose rule "a `$` after a space
        // closes nothing" left it unclosed, APEX Calculus, session 54); a literal dollar in LaTeX is `\$`.
        scannerOptions.texDollars = true
        scannerOptions.environments = options.latexMathEnvironments
        scannerOptions.dollarDelimiters = options.dollarDelimiters
        scannerOptions.maxDiagnostics = options.maxDiagnostics
        scannerOptions.maxInputBytes = options.maxInputBytes
        let scanner = MathTextScanner(options: scannerOptions)
        // Comments are blanks to the scan (spaces of the same bytes, so every range stays), not excluded regions: TeX
        // drops a comment inside a formula (`$\norm{z}=200/\sqrt{17}%\approx 48.51` then `$ lb.` on the next line is one
        // formula), where a formula crossing an excluded region was refused and its closing `$` opened a formula of prose
        // (APEX Calculus, session 54). The formula's TeX then holds `%` and spaces where the comment was.
        let comments = excluded.filter { bytes[$0.lowerBound] == 0x25 }
        let scanned = excluded.filter { bytes[$0.lowerBound] != 0x25 }
        var text = source.text
        if !comments.isEmpty {
            var blanked = bytes
            // The `%` stays: a line holding a comment alone is no blank line, which would end inline math (TeX's comment
            // takes its line's end with it), and the parser reads the rest of the line as the comment it is.
            for comment in comments { for k in comment.lowerBound + 1 ..< comment.upperBound { blanked[k] = 0x20 } }
            text = String(decoding: blanked, as: UTF8.self)
        }
        var scan = scanner.scan(text, excluding: scanned, complete: true)
        // A definition's body (`\newcommand{\half}{$\frac12$}`, `#1` in it) is not document math: the
        // definitions that start in the prose are never scanned, like comments. A `$` in one may have
        // hidden a later definition inside a false formula, so this repeats until it settles.
        var definitions: [SourceRange] = []
        for _ in 0..<4 {
            let found = Self.definitionRanges(bytes, skipping: excluded + scan.fragments.map(\.range))
            guard found != definitions else { break }
            definitions = found
            // Nothing the scan found lies in a definition (the usual case): no second scan.
            let seen = scan.fragments.map(\.range) + scan.diagnostics.compactMap(\.range)
            let overlaps = seen.contains { r in found.contains { $0.lowerBound < r.upperBound && r.lowerBound < $0.upperBound } }
            if !overlaps { break }
            let merged = HTMLSegmenter.merged(scanned + definitions)
            scan = scanner.scan(text, excluding: merged, complete: true)
        }
        let maps = [source.map]
        for fragment in scan.fragments { collector.add(fragment, maps: maps, embedding: .plain) }
        collector.add(scan.diagnostics, maps: maps)
        // A comment inside a formula is the formula's (a text segment's unscanned part only outside math).
        // (Comments and fragments are both in order: one walk, not a search per comment, which took 105 s for a file of
        // 20,000 comments and 40,000 formulas.)
        var inMath = Set<SourceRange>(), f = 0
        let fragments = scan.fragments.map(\.range)
        for c in comments {
            while f < fragments.count, fragments[f].upperBound <= c.lowerBound { f += 1 }
            if f < fragments.count, fragments[f].lowerBound <= c.lowerBound, c.upperBound <= fragments[f].upperBound { inMath.insert(c) }
        }
        let unscanned = inMath.isEmpty ? excluded : excluded.filter { !inMath.contains($0) }
        collector.addUnscanned(HTMLSegmenter.merged(unscanned + definitions), maps: maps)

        // Definitions and inclusions: in the prose, outside comments, verbatim and math.
        var result = LaTeXResult()
        Self.forEachCommand(bytes, skipping: excluded + scan.fragments.map(\.range)) { name, i, j in
            if Self.definitionCommands.contains(name), let end = Self.definitionEnd(bytes, command: name, after: j) {
                result.definitions += String(decoding: bytes[i..<end], as: UTF8.self) + "\n"
                return end
            }
            if Self.inclusionCommands.contains(name), let (file, end) = Self.inclusionName(bytes, after: j) {
                let range = source.fileRange(ofTextRange: SourceRange(i, end))
                let (index, path) = include(file, range: range, depth: depth, visited: &visited, directory: directory, into: &result)
                result.inclusions.append(.init(range: range, name: file, path: path, document: index))
                if let index { result.definitions += result.documents[index].definitions }
                return end
            }
            return nil
        }
        return result
    }

    /// The definitions (``definitionCommands``) that start outside `skip` (sorted ranges), in order.
    static func definitionRanges(_ bytes: [UInt8], skipping: [SourceRange]) -> [SourceRange] {
        var ranges: [SourceRange] = []
        forEachCommand(bytes, skipping: skipping) { name, i, j in
            guard definitionCommands.contains(name), let end = definitionEnd(bytes, command: name, after: j) else { return nil }
            ranges.append(SourceRange(i, end))
            return end
        }
        return ranges
    }

    /// Calls `visit` with each control word (`\name`) of `bytes` outside the `skipping` ranges: its name,
    /// where its backslash is and where its name ends. `visit` returns where to go on (past what it
    /// took), or nil for right after the name.
    static func forEachCommand(_ bytes: [UInt8], skipping unsorted: [SourceRange],
                               _ visit: (_ name: String, _ start: Int, _ nameEnd: Int) -> Int?) {
        let skip = unsorted.sorted { $0.lowerBound < $1.lowerBound }
        var skipIndex = 0
        var i = 0
        let n = bytes.count
        while i < n {
            while skipIndex < skip.count, skip[skipIndex].upperBound <= i { skipIndex += 1 }
            if skipIndex < skip.count, skip[skipIndex].lowerBound <= i { i = skip[skipIndex].upperBound; continue }
            guard bytes[i] == 0x5C else { i += 1; continue }
            var j = i + 1
            while j < n, HTMLTokenizer.isLetter(bytes[j]) { j += 1 }
            guard j > i + 1 else { i += 2; continue }
            i = visit(String(decoding: bytes[(i + 1)..<j], as: UTF8.self), i, j) ?? j
        }
    }

    /// Loads and segments an included file: its index in `result.documents` and its path relative to the
    /// document's directory, or nil (with a diagnostic). The name is looked for relative to the
    /// including file's `directory` first, then to the document's, as written and then with `.tex`.
    private func include(_ name: String, range: SourceRange, depth: Int, visited: inout Set<String>, directory: String,
                         into result: inout LaTeXResult) -> (Int?, String?) {
        guard let load = segmenter.options.loadIncludedFile else { return (nil, nil) }
        guard depth < segmenter.options.maxIncludeDepth else {
            result.diagnostics.append(.warning("document.include-too-deep",
                "\\input of '\(name)' is nested more than \(segmenter.options.maxIncludeDepth) deep; not followed", at: range))
            return (nil, nil)
        }
        let hasExtension = name.split(separator: "/").last?.contains(".") ?? false
        var candidates: [String] = []
        for base in (directory.isEmpty || name.hasPrefix("/") ? [""] : [directory, ""]) {
            let joined = Self.normalized(base.isEmpty ? name : base + "/" + name)
            candidates.append(joined)
            if !hasExtension { candidates.append(joined + ".tex") }
        }
        for path in candidates where visited.contains(path) {
            result.diagnostics.append(.warning("document.include-cycle",
                "'\(name)' (\(path)) includes itself: an include cycle; not followed again", at: range))
            return (nil, path)
        }
        guard let (path, bytes) = candidates.lazy.compactMap({ path in load(path).map { (path, $0) } }).first else {
            result.diagnostics.append(.warning("document.include-not-found", "the included file '\(name)' was not found", at: range))
            return (nil, nil)
        }
        visited.insert(path)
        let inner = path.split(separator: "/").dropLast().joined(separator: "/")
        let document = segmenter.segment(DocumentSource(bytes: bytes), as: .latex, depth: depth + 1, visited: &visited,
                                         directory: inner)
        visited.remove(path)
        result.documents.append(document)
        return (result.documents.count - 1, path)
    }

    /// A relative path with `.` and `dir/..` steps removed (`./a/../b.tex` → `b.tex`); leading `..` kept.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Comments, `\verb` and verbatim environments, in order.
    static func excludedRegions(_ bytes: [UInt8]) -> [SourceRange] {
        var regions: [SourceRange] = []
        let n = bytes.count
        var i = 0
        // The end of the `tikzpicture` being read (0: none), where `($…$)` is a coordinate of TikZ's calc library, not math
        // (`\draw ($(\x,0)$) -- ($(A)!0.5!(B)$);`, as textbooks draw their figures: it was read as a formula with `\x` unknown).
        var tikzEnd = 0
        // Where the last `($` found no `$)` (its line's end): no later `($` before it finds one either, so none looks again (a line
        // of `($` alone stays linear).
        var unclosedUntil = 0
        while i < n {
            switch bytes[i] {
            case 0x28 where i < tikzEnd && i >= unclosedUntil && i + 1 < n && bytes[i + 1] == 0x24:   // `($` in a picture
                var j = i + 2
                while j + 1 < n, !(bytes[j] == 0x24 && bytes[j + 1] == 0x29), bytes[j] != 0x0A { j += 1 }
                guard j + 1 < n, bytes[j] == 0x24 else { unclosedUntil = j; i += 2; continue }
                regions.append(SourceRange(i, j + 2))
                i = j + 2
            case 0x25:   // '%': a comment to the end of the line
                var j = i
                while j < n, bytes[j] != 0x0A { j += 1 }
                regions.append(SourceRange(i, j))
                i = j
            case 0x5C:
                if starts(bytes, "\\verb", at: i), i + 5 < n, !HTMLTokenizer.isLetter(bytes[i + 5]) {
                    var d = i + 5
                    if bytes[d] == 0x2A { d += 1 }   // \verb*
                    guard d < n else { i = n; continue }
                    let delimiter = bytes[d]
                    var j = d + 1
                    while j < n, bytes[j] != delimiter, bytes[j] != 0x0A { j += 1 }
                    let end = j < n && bytes[j] == delimiter ? j + 1 : j
                    regions.append(SourceRange(i, end))
                    i = end
                    continue
                }
                if starts(bytes, "\\begin{", at: i) {
                    var j = i + 7
                    while j < n, bytes[j] != 0x7D, bytes[j] != 0x0A { j += 1 }
                    if j < n, bytes[j] == 0x7D {
                        let name = String(decoding: bytes[(i + 7)..<j], as: UTF8.self)
                        if name == "tikzpicture", tikzEnd <= i {
                            let closing = Array("\\end{tikzpicture}".utf8)
                            var k = j + 1
                            while k < n, !(bytes[k] == 0x5C && starts(bytes, closing, at: k)) { k += 1 }
                            tikzEnd = k
                        }
                        if verbatimEnvironments.contains(name) {
                            let closing = Array("\\end{\(name)}".utf8)
                            var k = j + 1
                            while k < n, !(bytes[k] == 0x5C && starts(bytes, closing, at: k)) { k += 1 }
                            let end = min(n, k + closing.count)
                            regions.append(SourceRange(i, end))
                            i = end
                            continue
                        }
                    }
                }
                i += 2
            default:
                i += 1
            }
        }
        return regions
    }

    static func starts(_ bytes: [UInt8], _ literal: String, at i: Int) -> Bool {
        starts(bytes, Array(literal.utf8), at: i)
    }

    static func starts(_ bytes: [UInt8], _ literal: [UInt8], at i: Int) -> Bool {
        guard i + literal.count <= bytes.count else { return false }
        for k in 0..<literal.count where bytes[i + k] != literal[k] { return false }
        return true
    }

    /// The end of a balanced `{…}` group starting at `i` (which holds `{`), nil when unbalanced.
    static func groupEnd(_ bytes: [UInt8], at i: Int) -> Int? {
        guard i < bytes.count, bytes[i] == 0x7B else { return nil }
        var depth = 0
        var j = i
        while j < bytes.count {
            switch bytes[j] {
            case 0x5C: j += 2; continue
            case 0x7B: depth += 1
            case 0x7D:
                depth -= 1
                if depth == 0 { return j + 1 }
            case 0x25:   // a comment inside the group
                while j < bytes.count, bytes[j] != 0x0A { j += 1 }
                continue
            default: break
            }
            j += 1
        }
        return nil
    }

    private static func skipSpaces(_ bytes: [UInt8], _ i: inout Int) {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    /// A control sequence at `i` (`\name` or `\c`); its end.
    private static func controlSequenceEnd(_ bytes: [UInt8], at i: Int) -> Int? {
        guard i + 1 < bytes.count, bytes[i] == 0x5C else { return nil }
        var j = i + 1
        if HTMLTokenizer.isLetter(bytes[j]) {
            while j < bytes.count, HTMLTokenizer.isLetter(bytes[j]) { j += 1 }
            return j
        }
        return j + 1
    }

    /// The end of a definition whose command name ends at `i`, nil when it is not well formed.
    static func definitionEnd(_ bytes: [UInt8], command: String, after start: Int) -> Int? {
        var i = start
        switch command {
        case "def", "gdef", "edef", "xdef":
            skipSpaces(bytes, &i)
            guard let nameEnd = controlSequenceEnd(bytes, at: i) else { return nil }
            i = nameEnd
            // The parameter text, up to the body's `{`.
            while i < bytes.count, bytes[i] != 0x7B {
                if bytes[i] == 0x0A, i + 1 < bytes.count, bytes[i + 1] == 0x0A { return nil }
                i += 1
            }
            return groupEnd(bytes, at: i)
        case "let":
            skipSpaces(bytes, &i)
            guard let nameEnd = controlSequenceEnd(bytes, at: i) else { return nil }
            i = nameEnd
            skipSpaces(bytes, &i)
            if i < bytes.count, bytes[i] == 0x3D { i += 1; skipSpaces(bytes, &i) }
            if let end = controlSequenceEnd(bytes, at: i) { return end }
            return i < bytes.count ? i + 1 : nil
        case "NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand", "DeclareDocumentCommand":
            // The name, the argument specification and the body.
            guard skipDefinedName(bytes, &i) else { return nil }
            for _ in 0 ..< 2 {
                skipSpaces(bytes, &i)
                guard i < bytes.count, bytes[i] == 0x7B, let end = groupEnd(bytes, at: i) else { return nil }
                i = end
            }
            return i
        case "DeclarePairedDelimiter", "DeclarePairedDelimiterX":
            // The name, `[n]` (X), the two delimiters and the body (X): each a group or one token.
            // A delimiter or the body: a group or a control sequence as a name is, or one character.
            func item() -> Bool {
                skipSpaces(bytes, &i)
                guard i < bytes.count else { return false }
                if bytes[i] != 0x7B && bytes[i] != 0x5C { i += 1; return true }
                return skipDefinedName(bytes, &i)
            }
            guard skipDefinedName(bytes, &i) else { return nil }
            if command == "DeclarePairedDelimiterX" {
                var j = i
                skipSpaces(bytes, &j)
                if j < bytes.count, bytes[j] == 0x5B {
                    guard let close = bytes[j...].firstIndex(of: 0x5D) else { return nil }
                    i = close + 1
                }
            }
            for _ in 0 ..< (command == "DeclarePairedDelimiterX" ? 3 : 2) { guard item() else { return nil } }
            return i
        default:   // \newcommand and friends, \DeclareMathOperator
            if i < bytes.count, bytes[i] == 0x2A { i += 1 }
            guard skipDefinedName(bytes, &i) else { return nil }
            if command != "DeclareMathOperator" {
                // [n] and [default]
                for _ in 0..<2 {
                    var j = i
                    skipSpaces(bytes, &j)
                    guard j < bytes.count, bytes[j] == 0x5B else { break }
                    var depth = 0
                    var k = j
                    while k < bytes.count {
                        if bytes[k] == 0x7B { depth += 1 }
                        if bytes[k] == 0x7D { depth -= 1 }
                        if bytes[k] == 0x5D, depth == 0 { break }
                        k += 1
                    }
                    guard k < bytes.count else { return nil }
                    i = k + 1
                }
            }
            skipSpaces(bytes, &i)
            return groupEnd(bytes, at: i)
        }
    }

    /// Moves `i` past the name a definition defines (`{\name}` or `\name`, after spaces); false when there is none.
    private static func skipDefinedName(_ bytes: [UInt8], _ i: inout Int) -> Bool {
        skipSpaces(bytes, &i)
        if i < bytes.count, bytes[i] == 0x7B {
            guard let end = groupEnd(bytes, at: i) else { return false }
            i = end
        } else {
            guard let end = controlSequenceEnd(bytes, at: i) else { return false }
            i = end
        }
        return true
    }

    /// The file name of `\input{name}` / `\input name` whose command ends at `i`, and the end.
    static func inclusionName(_ bytes: [UInt8], after start: Int) -> (String, Int)? {
        var i = start
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes[i] == 0x7B {
            guard let end = groupEnd(bytes, at: i) else { return nil }
            let name = String(decoding: bytes[(i + 1)..<(end - 1)], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : (name, end)
        }
        // `\input name`: up to white space (TeX's primitive syntax).
        guard i > start else { return nil }
        var j = i
        while j < bytes.count, bytes[j] > 0x20, bytes[j] != 0x5C, bytes[j] != 0x7D, bytes[j] != 0x25 { j += 1 }
        guard j > i else { return nil }
        return (String(decoding: bytes[i..<j], as: UTF8.self), j)
    }
}
