import MathSyntax

// The math-in-text scanner: finds the TeX mathematics in running text (Markdown, HTML-ish text, chat
// output, LaTeX-flavoured prose) and splits the text into text and math segments, so each formula can
// be handed to the TeX parser on its own. The rules are documented on `MathTextScanner` below.
//
// How it stays fast on any input: one pre-pass over the UTF-8 bytes records every delimiter candidate
// with its brace depth counted from the start of the input (`DelimiterIndex`); the closer of every
// possible opener is then found for all openers at once, right to left, with a monotonic stack (a
// binary search only when the nearest candidate is too deep). The text walk then meets openers left to
// right and looks their closers up, so nothing is ever rescanned: unclosed or adversarial input (`$`
// repeated, `${${${…`) costs O(n log n) at worst and O(n) in practice. Extra memory is proportional to
// the number of delimiter characters (about 30 bytes per `$` at worst), plus the segments.

/// Splits running text into plain-text and TeX-math segments.
///
/// ```swift
/// let scan = MathTextScanner().scan("Solve $x^2 = 2$ for \\(x\\).")
/// // scan.segments: .text("Solve "), .math(tex: "x^2 = 2"), .text(" for "), .math(tex: "x"), .text(".")
/// ```
///
/// A scanner is a value with no state of its own; one instance can scan any number of texts
/// concurrently.
///
/// ## Delimiters
/// Outside Markdown code:
/// - `$…$` inline and `$$…$$` display (unless ``Options/dollarDelimiters`` is off);
/// - `\(…\)` inline and `\[…\]` display;
/// - `\begin{env}…\end{env}` for any environment name made of ASCII letters and `*`, or only the
///   ``Options/environments`` given (``Options/prose``: ``mathEnvironments``, so `itemize`, `theorem`
///   and `proof` are prose scanned inside), with nested environments of the same name counted. Display, except `math`. The fragment's TeX is the whole
///   environment, `\begin` and `\end` included (so the TeX parser sees the environment), except for
///   `math` and `displaymath`, which give their content only.
///
/// ## Rules
/// In the spirit of pandoc's `tex_math_dollars` and KaTeX's auto-render:
/// - A backslash always pairs with the byte after it: `\$` is a literal dollar, and `\\(` is an
///   escaped backslash followed by a plain parenthesis. Text segments keep such escapes as written.
/// - Inside math, braces are counted: a closing delimiter only counts at brace depth ≤ 0 relative to the
///   opener, so `$\text{a $b$ c}$` is one formula. Escaped braces `\{` `\}` do not count.
/// - `$` opens inline math only when the next byte is not whitespace. The first `$` at depth ≤ 0 after
///   it decides: if that `$` is preceded by whitespace or followed by an ASCII digit, the opener is a
///   literal dollar (so "costs $5 and $10" stays text); otherwise it closes the formula.
/// - Inline math (`$`, `\(`, the `math` environment) never spans a blank line (a line holding nothing
///   but spaces, tabs or CR). Display math may span lines, blank ones included.
/// - An opener with no closer stays text and the scan goes on right after it, so it never swallows what
///   follows; the warning `text.unclosed-math` points at the opener. A `$` followed by a digit gets no
///   warning (it is most likely money), nor does a `$` rejected by the rules above.
/// - Math whose content is empty or only whitespace (`$$$$`, `\(\)`, `\[ \]`, an empty `math` or
///   `displaymath` environment) stays text, without a diagnostic: there is nothing to read aloud.
///   Other environments are always math, even when empty, since the environment itself is the content.
/// - Markdown code is not scanned (``Options/markdownCode``): a code span (a run of n backticks up to
///   the next run of exactly n backticks, not across a blank line) and a fenced code block (three or
///   more backticks or tildes at the start of a line, indented at most three spaces, up to a closing
///   fence at least as long or the end of the input) stay text. An unmatched backtick run is literal
///   text. Indented code blocks are not recognised. Code spans bind tighter than dollars (CommonMark:
///   code spans take precedence over other inline constructs): a `$` or `$$` whose closer lies inside a
///   code span that starts after it stays text (`$10, code \`$x$\``), and so does the opener of `\(`,
///   `\[` and environments whose closer does; math that opens before a code span and closes after it
///   runs through it (`$a \`b\` c$` is one formula).
///   With ``Options/markdownMath`` (the default), a fenced block whose info string is `math` is display
///   math (delimiter "```math" or "~~~math"; its lines are the TeX) and `` $`…`$ `` is inline math
///   (delimiter "$`"; the code span's content is the TeX), as on GitHub.
/// - Delimiters are found in the raw input. HTML character references are decoded (when asked) only in
///   the segments' strings, so `&#36;` is never a delimiter.
public struct MathTextScanner: Sendable {
    /// What the scanner recognises, and its limits.
    public struct Options: Sendable {
        /// Decode HTML character references in the segment texts (text and math): `&lt;` `&gt;` `&amp;`
        /// `&quot;` `&apos;` `&nbsp;`, decimal `&#39;` and hexadecimal `&#x2212;` (a reference must end in
        /// `;` and name a valid Unicode scalar; anything else stays as written). In math, a no-break space
        /// (U+00A0, `&nbsp;` or `&#160;`) becomes a plain space, which TeX ignores. Delimiters are still
        /// found in the raw input, and every range still refers to the raw input: use
        /// ``MathFragment/sourceOffset(forTeXOffset:)`` to map offsets in the decoded TeX back.
        /// Default `false`.
        public var decodeHTMLEntities = false
        /// Recognise `$…$` and `$$…$$`. When `false`, dollars are plain text and only `\(…\)`, `\[…\]`
        /// and environments are math. Default `true`.
        public var dollarDelimiters = true
        /// Leave Markdown code spans and fenced code blocks unscanned (their content stays text).
        /// Turn this off for LaTeX sources, where backticks are opening quotes (` ``like this'' `).
        /// Default `true`.
        public var markdownCode = true
        /// The largest input scanned, in UTF-8 bytes. A larger input comes back as one text segment with
        /// the error `text.input-too-large`. Default 16 MiB. (Inputs of 2 GiB or more are always too
        /// large: offsets are stored in 32 bits.)
        public var maxInputBytes = 16 << 20
        /// The most `text.unclosed-math` warnings reported for one input. Past it, one note
        /// `text.too-many-diagnostics` (range = the first unreported opener) counts the rest, so hostile
        /// input cannot make the diagnostics grow without bound. Default 1000.
        public var maxDiagnostics = 1000
        /// The environments that are math, by name (`equation`, `align*`…); nil (the default) makes every
        /// `\begin{name}…\end{name}` math. With a set (``prose`` has ``MathTextScanner/mathEnvironments``),
        /// any other environment is text, and the scan goes on inside it (so `\begin{itemize}` or
        /// `\begin{theorem}` is prose, and the math in it is found).
        public var environments: Set<String>? = nil
        /// Markdown math beyond the dollars (GitHub's and GitLab's syntax): a fenced code block whose info
        /// string is `math` is display math (its lines are the TeX), and `` $`…`$ `` (a code span between
        /// dollars) is inline math. Only with ``markdownCode``. Default `true`.
        public var markdownMath = true
        /// Dollars as TeX reads them (a LaTeX source, where a literal dollar is `\$`): every unescaped `$` is a math
        /// shift, so a formula may begin or end with a space (`$ x $`, `$\lim f = 2 $.`) and a digit may follow it
        /// (`$x$5`); the money rules of prose (a `$` before a space opens nothing, a `$` after a space or before a
        /// digit closes nothing) are off. A blank line still ends inline math, as it ends TeX's paragraph. Default
        /// `false`.
        public var texDollars = false
        /// Named character references beyond the six the scanner knows (`&alpha;`, `&le;`…), used when
        /// ``decodeHTMLEntities`` is on: the name without `&` and `;` → its replacement text, nil when
        /// unknown (the reference then stays as written). Names up to 40 bytes are looked up.
        public var namedCharacterReference: (@Sendable (String) -> String?)? = nil
        /// kramdown's math in Markdown (Jekyll sites): `\\(…\\)` and `\\[…\\]` are math as well, since
        /// Markdown turns `\\` into `\` and MathJax then reads `\(…\)` and `\[…\]` (a single backslash
        /// before a parenthesis is lost in Markdown). A run of exactly two backslashes before the
        /// parenthesis or bracket counts (`\\\\(` is two escaped backslashes); the delimiter is reported as
        /// `\(` or `\[`, the range covers both backslashes. Only prose is looked at, so a `\\` line
        /// break inside `$$…$$` or an environment stays part of its formula. Default `false`.
        public var doubledBackslashDelimiters = false
        /// The default options.
        public init() {}

        /// The options for prose (`speak --text`, documents in text and Markdown): the defaults, with
        /// only the ``MathTextScanner/mathEnvironments`` as math (`\begin{theorem}` is prose).
        public static var prose: Options {
            var o = Options()
            o.environments = MathTextScanner.mathEnvironments
            return o
        }
    }

    /// The options this scanner uses.
    public var options: Options

    /// Prose as a listener hears it: an escaped dollar (`\$5`) is a dollar, "$5" (text segments keep their
    /// escapes as written, for a document's bytes; a voice would say the backslash).
    public static func spokenProse(_ prose: String) -> String {
        prose.contains("\\$") ? prose.replacingOccurrences(of: "\\$", with: "$") : prose
    }

    /// LaTeX's display and math environments, as a LaTeX document has them outside math: amsmath's
    /// numbered ones and their starred forms, `math`, `displaymath` and breqn's `dmath` (the documents'
    /// LaTeX segmenter reads these as formulas, and every other environment as prose).
    public static let displayEnvironments: Set<String> = [
        "equation", "equation*", "align", "align*", "alignat", "alignat*", "xalignat", "xxalignat", "gather", "gather*",
        "multline", "multline*", "flalign", "flalign*", "eqnarray", "eqnarray*", "math", "displaymath", "dmath", "dmath*",
    ]

    /// The environments prose may hold as math (``Options/prose``): the
    /// ``displayEnvironments`` and every environment the TeX parser reads (`pmatrix`, `cases`,
    /// `aligned`…, which MathJax typesets in text too).
    public static let mathEnvironments: Set<String> = displayEnvironments.union(EnvironmentRegistry.table.keys)

    /// Creates a scanner.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// Splits `text` into text and math segments.
    ///
    /// The segments cover the input exactly, in order: each range starts where the previous one ends,
    /// the first starts at 0 and the last ends at `text.utf8.count`. Adjacent text is merged into one
    /// segment, and text segments are never empty (an empty input gives no segments). Without entity
    /// decoding a text segment's string is the input in its range, byte for byte.
    ///
    /// Diagnostics, in input order: the warning `text.unclosed-math` for each opener left unclosed
    /// (range = the opening delimiter; at most ``Options/maxDiagnostics`` of them, then one note
    /// `text.too-many-diagnostics`), and the error `text.input-too-large` (range = the whole input)
    /// when the input exceeds ``Options/maxInputBytes``.
    public func scan(_ text: String) -> MathTextScan {
        scan(text, excluding: [], complete: true)
    }

    /// Splits `text` into text and math segments, leaving `excluded` regions alone, and (when the text
    /// is not `complete`) telling how much of the result is final.
    ///
    /// - Parameters:
    ///   - excluded: regions that are not prose (HTML tags, comments, elements a document format reads
    ///     itself), sorted and not overlapping: they are never scanned (they end up in text segments),
    ///     and no math, code span or environment may span one: an opener whose closer lies past an
    ///     excluded region stays text. Ranges outside the input are ignored.
    ///   - complete: `false` when more text may follow (a stream): openers that could still be closed by
    ///     text to come are not reported, and ``MathTextScan/settled`` says up to where the segments
    ///     cannot change whatever follows, ``MathTextScan/resumeOffset`` where a later scan of the
    ///     longer text may start (the segments before it stay the same).
    ///   - startsLine: whether `text` starts at the start of a line (`false` when it is the rest of a line
    ///     whose beginning was scanned before: a fence can then not open at offset 0).
    ///   - insideFence: `text` starts at the start of a line inside a fenced code block opened by this
    ///     fence (a later scan resuming where ``MathTextScan/openCodeFence`` said): it is code up to the
    ///     block's closing line.
    public func scan(_ text: String, excluding excluded: [SourceRange], complete: Bool,
                     startsLine: Bool = true, insideFence: CodeFence? = nil) -> MathTextScan {
        let count = text.utf8.count
        if count > options.maxInputBytes || count >= Int(Int32.max) {
            let whole = SourceRange(0, count)
            let limit = min(options.maxInputBytes, Int(Int32.max) - 1)
            return MathTextScan(
                segments: [.text(text, range: whole)],
                diagnostics: [.error("text.input-too-large",
                                     "the input is \(count) bytes, more than the limit of \(limit); it was not scanned for math",
                                     at: whole)])
        }
        if count == 0 { return MathTextScan(segments: [], diagnostics: []) }
        var scanner = TextScan(bytes: Array(text.utf8), options: options, excluded: excluded, complete: complete,
                               startsLine: startsLine || insideFence != nil)
        scanner.run(insideFence: insideFence)
        let settled = complete ? count : min(count, scanner.unsettled)
        var scan = MathTextScan(segments: scanner.segments, diagnostics: scanner.diagnostics, codeRanges: scanner.codeRanges,
                                settled: settled, resumeOffset: min(settled, scanner.openFence?.start ?? count))
        if settled < count { scan.wakeBytes = scanner.wakeBytes }
        if settled == count, let open = scanner.openFence {
            let lastNewline = scanner.bytes.lastIndex(of: Byte.newline)
            scan.openCodeFence = OpenCodeFence(start: open.start, fence: open.fence,
                                               lastLineStart: lastNewline.map { $0 + 1 } ?? 0)
        }
        scan.spans = scanner.spans
        return scan
    }
}

/// The opening fence of a fenced code block: its character (a backtick or a tilde) and how many of
/// them; the block closes at a line of at least as many.
public struct CodeFence: Sendable, Hashable {
    /// The fence character (`` ` `` or `~`).
    public var character: UInt8
    /// How many of them opened the block.
    public var length: Int

    /// Creates a fence.
    public init(character: UInt8, length: Int) {
        self.character = character
        self.length = length
    }
}

/// A fenced code block left open at the end of a partial scan (``MathTextScan/openCodeFence``).
///
/// Everything in it is code text whatever follows, and only a line that ends can close it, so a scan
/// of the longer text may start at its last line, given the fence (``MathTextScanner/scan(_:excluding:complete:startsLine:insideFence:)``),
/// instead of at the block's start: a stream inside a long code block rescans one line, not the block.
public struct OpenCodeFence: Sendable, Hashable {
    /// Where the block starts (its opening fence; 0 for a scan that started inside it).
    public var start: Int
    /// The fence that opened it.
    public var fence: CodeFence
    /// The start of the input's last line, inside the block.
    public var lastLineStart: Int
}

/// A set of bytes.
public struct ByteSet: Sendable, Hashable {
    private var words: [UInt64] = [0, 0, 0, 0]

    /// The empty set.
    public init() {}

    /// The set of the bytes of `characters` (ASCII).
    public init(_ characters: String) {
        for b in characters.utf8 { insert(b) }
    }

    /// Every byte.
    public static let all: ByteSet = {
        var set = ByteSet()
        set.words = [.max, .max, .max, .max]
        return set
    }()

    /// Adds a byte.
    public mutating func insert(_ b: UInt8) { words[Int(b >> 6)] |= 1 << UInt64(b & 63) }

    /// Adds another set's bytes.
    public mutating func formUnion(_ other: ByteSet) {
        for k in 0..<4 { words[k] |= other.words[k] }
    }

    /// Whether the set holds `b`.
    public func contains(_ b: UInt8) -> Bool { words[Int(b >> 6)] & (1 << UInt64(b & 63)) != 0 }
}

/// The result of ``MathTextScanner/scan(_:)``: the segments, covering the input in order, and what was
/// noticed on the way.
public struct MathTextScan: Sendable {
    /// Text and math, in input order, covering the whole input.
    public let segments: [MathTextSegment]
    /// Warnings (`text.unclosed-math`), errors (`text.input-too-large`) and the note
    /// `text.too-many-diagnostics`, in input order.
    public let diagnostics: [Diagnostic]
    /// The Markdown code spans and fenced code blocks found (with ``MathTextScanner/Options/markdownCode``),
    /// in input order: each from its opening backticks or fence to the end of its closing ones. A math
    /// fence (` ```math `) is a formula, not code, and is not listed.
    public let codeRanges: [SourceRange]
    /// For a scan of text that may go on (`complete: false`): the segments up to this offset are final.
    /// A text segment that runs past it is final only up to it. For a complete scan, the input's length.
    public let settled: Int
    /// For a scan of text that may go on: where a scan of the longer text may start (at most
    /// ``settled``; before it when an open fenced code block began earlier, whose end is still to come).
    public let resumeOffset: Int
    /// For a scan of text that may go on: the bytes whose arrival can decide what is held at
    /// ``settled`` (a `$` waits for `$` or a line break; a `\[` for `]`); text without one of them
    /// changes nothing before ``settled``, so a stream need not scan again. All bytes when nothing is
    /// held, or when the next byte decides whatever it is.
    public var wakeBytes = ByteSet.all
    /// For a scan of text that may go on: the regions the scan read as one construct (a formula, a code
    /// span or fence, an escape such as `\$`, a delimiter pair that made no formula such as `$$$$` or
    /// whose closer lies across an excluded region), by their starts (they may overlap). A scan of the text started inside one would read it otherwise, so a caller that
    /// combines this scan with others and resumes at an offset of its own choosing must not resume
    /// inside one (``resumeOffset`` never is). Empty for a complete scan.
    public var spans: [SourceRange] = []
    /// For a scan of text that may go on and is settled to its end: the fenced code block still open at
    /// the end, if any (``resumeOffset`` is its start; a scan may instead resume at its last line).
    public var openCodeFence: OpenCodeFence?

    /// Creates a scan result.
    public init(segments: [MathTextSegment], diagnostics: [Diagnostic], codeRanges: [SourceRange] = [],
                settled: Int? = nil, resumeOffset: Int? = nil) {
        self.segments = segments
        self.diagnostics = diagnostics
        self.codeRanges = codeRanges
        let end = segments.last?.range.upperBound ?? 0
        self.settled = settled ?? end
        self.resumeOffset = resumeOffset ?? self.settled
    }

    /// The math segments only, in input order.
    public var fragments: [MathFragment] {
        segments.compactMap { if case .math(let fragment) = $0 { fragment } else { nil } }
    }
}

/// One piece of a scanned text.
public enum MathTextSegment: Sendable, Hashable {
    /// Plain text (entity-decoded if asked) and the input bytes it came from.
    case text(String, range: SourceRange)
    /// A formula.
    case math(MathFragment)

    /// The input bytes the segment covers (for math: delimiters included).
    public var range: SourceRange {
        switch self {
        case .text(_, let range): range
        case .math(let fragment): fragment.range
        }
    }
}

/// A formula found in text: the TeX to parse and where it came from.
///
/// **Mapping positions back.** Ranges are UTF-8 byte offsets into the scanned input. Without entity
/// decoding, `tex` is exactly the input in ``contentRange``, so an offset `t` into `tex` (for example a
/// parser diagnostic's range) is the input offset `contentRange.lowerBound + t`. With entity decoding,
/// use ``sourceOffset(forTeXOffset:)`` / ``sourceRange(forTeXRange:)``, which account for every decoded
/// reference; they also work without decoding.
public struct MathFragment: Sendable, Hashable {
    /// The TeX to parse: the content between the delimiters; for an environment other than `math` and
    /// `displaymath`, the whole `\begin{env}…\end{env}` text.
    public let tex: String
    /// Whether the formula is display math (`$$`, `\[`, environments other than `math`) rather than
    /// inline (`$`, `\(`, `math`).
    public let display: Bool
    /// What delimited it: `"$"`, `"$$"`, `"\\("`, `"\\["`, `` "$`" `` (GitHub's `` $`…`$ ``), `"```math"` or
    /// `"~~~math"` (a Markdown math fence), or the environment name (`"equation"`, `"align*"`, `"math"`…).
    public let delimiter: String
    /// The input bytes of the whole formula, delimiters included.
    public let range: SourceRange
    /// The input bytes `tex` was taken from (for a whole environment, equal to ``range``).
    public let contentRange: SourceRange
    /// Decoded character references in `tex`, in order (empty without decoding).
    let replacements: [EntityReplacement]

    /// Creates a fragment whose `tex` is the input in `contentRange`, byte for byte.
    public init(tex: String, display: Bool, delimiter: String, range: SourceRange, contentRange: SourceRange) {
        self.init(tex: tex, display: display, delimiter: delimiter, range: range, contentRange: contentRange,
                  replacements: [])
    }

    init(tex: String, display: Bool, delimiter: String, range: SourceRange, contentRange: SourceRange,
         replacements: [EntityReplacement]) {
        self.tex = tex
        self.display = display
        self.delimiter = delimiter
        self.range = range
        self.contentRange = contentRange
        self.replacements = replacements
    }

    /// The input offset of UTF-8 offset `offset` into ``tex``.
    ///
    /// Without decoded references this is `contentRange.lowerBound + offset`. Text after a decoded
    /// reference is shifted by the difference in length (`&lt;` is 4 bytes in the input, 1 in `tex`); an
    /// offset at or inside a reference's replacement maps to the start of the reference, and the offset
    /// just after it maps to just after the reference. `offset` is clamped to `0...tex.utf8.count`.
    public func sourceOffset(forTeXOffset offset: Int) -> Int {
        sourceOffset(forTeXOffset: offset, roundingUp: false)
    }

    /// The input range of a range of UTF-8 offsets into ``tex`` (see ``sourceOffset(forTeXOffset:)``).
    /// A range that starts or ends inside a decoded reference's replacement covers the whole reference.
    public func sourceRange(forTeXRange texRange: SourceRange) -> SourceRange {
        let lower = sourceOffset(forTeXOffset: texRange.lowerBound)
        let upper = sourceOffset(forTeXOffset: texRange.upperBound, roundingUp: true)
        return SourceRange(lower, max(lower, upper))
    }

    /// ``sourceOffset(forTeXOffset:)``, mapping an offset strictly inside a replacement to the end of the
    /// reference instead of its start when `roundingUp`.
    func sourceOffset(forTeXOffset offset: Int, roundingUp: Bool) -> Int {
        let t = min(max(0, offset), tex.utf8.count)
        // The last replacement starting at or before t.
        var lo = 0, hi = replacements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if replacements[mid].texOffset <= t { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return min(contentRange.upperBound, contentRange.lowerBound + t) }
        let r = replacements[lo - 1]
        if t == r.texOffset { return r.sourceOffset }
        if t < r.texOffset + r.texLength { return roundingUp ? r.sourceOffset + r.sourceLength : r.sourceOffset }
        return min(contentRange.upperBound, r.sourceOffset + r.sourceLength + (t - r.texOffset - r.texLength))
    }
}

/// One decoded character reference: `sourceLength` input bytes at `sourceOffset` became `texLength`
/// bytes at `texOffset` of the decoded string.
struct EntityReplacement: Hashable, Sendable {
    var texOffset: Int
    var sourceOffset: Int
    var texLength: Int
    var sourceLength: Int
}

// MARK: - Bytes

private enum Byte {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let hash: UInt8 = 0x23
    static let dollar: UInt8 = 0x24
    static let ampersand: UInt8 = 0x26
    static let leftParen: UInt8 = 0x28
    static let rightParen: UInt8 = 0x29
    static let star: UInt8 = 0x2A
    static let semicolon: UInt8 = 0x3B
    static let leftBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let rightBracket: UInt8 = 0x5D
    static let backtick: UInt8 = 0x60
    static let letterB: UInt8 = 0x62
    static let letterE: UInt8 = 0x65
    static let letterX: UInt8 = 0x78
    static let leftBrace: UInt8 = 0x7B
    static let rightBrace: UInt8 = 0x7D
    static let tilde: UInt8 = 0x7E

    /// ASCII whitespace: space, tab, LF, VT, FF, CR.
    static func isWhitespace(_ b: UInt8) -> Bool { b == space || (b >= 0x09 && b <= 0x0D) }
    /// Whitespace allowed on a blank line besides its newlines.
    static func isLineSpace(_ b: UInt8) -> Bool { b == space || b == tab || b == carriageReturn }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: UInt32(b - 0x30)
        case 0x41...0x46: UInt32(b - 0x41 + 10)
        case 0x61...0x66: UInt32(b - 0x61 + 10)
        default: nil
        }
    }
}

// MARK: - Delimiter index (the pre-pass)

/// A delimiter candidate: its byte offset and the brace depth there, counted from the start of the input
/// with TeX's lexing (a backslash pairs with the next byte; `{` +1, `}` −1).
private struct DelimiterEvent {
    var position: Int32
    var depth: Int32
}

/// Every delimiter candidate of an input, and for every possible opener its closer.
///
/// Backslash pairs are formed from the start of each run of backslashes, which is where the text scan
/// meets them too (it never resumes inside a run), so "escaped" means the same thing here and there; and
/// a closer at global depth ≤ the opener's is exactly a closer at relative depth ≤ 0.
private struct DelimiterIndex {
    var dollars: [DelimiterEvent] = []
    var doubleDollars: [DelimiterEvent] = []
    var parenOpens: [DelimiterEvent] = []
    var parenCloses: [DelimiterEvent] = []
    var bracketOpens: [DelimiterEvent] = []
    var bracketCloses: [DelimiterEvent] = []
    /// `\\(`, `\\)`, `\\[`, `\\]` (``MathTextScanner/Options/doubledBackslashDelimiters``).
    var doubledParenOpens: [DelimiterEvent] = []
    var doubledParenCloses: [DelimiterEvent] = []
    var doubledBracketOpens: [DelimiterEvent] = []
    var doubledBracketCloses: [DelimiterEvent] = []
    /// Blank lines: offsets of the newline that starts each and of the newline that ends it.
    var blankLineStarts: [Int32] = []
    var blankLineEnds: [Int32] = []
    /// `\begin{name}` offset → the matching `\end{name}` (same name, nesting counted).
    var environmentEnds: [Int32: (start: Int32, end: Int32)] = [:]

    /// Closer offsets (or −1) parallel to `dollars`, `doubleDollars`, `parenOpens`, `bracketOpens`.
    var dollarClosers: [Int32] = []
    var doubleDollarClosers: [Int32] = []
    var parenClosers: [Int32] = []
    var bracketClosers: [Int32] = []
    var doubledParenClosers: [Int32] = []
    var doubledBracketClosers: [Int32] = []

    init(bytes: UnsafeBufferPointer<UInt8>, dollars recordDollars: Bool, doubledBackslashes: Bool = false) {
        let n = bytes.count
        var depth: Int32 = 0
        var openEnvironments: [String: [Int32]] = [:]
        var i = 0
        while i < n {
            let b = bytes[i]
            switch b {
            case Byte.backslash:
                guard i + 1 < n else { i += 1; continue }
                let event = DelimiterEvent(position: Int32(i), depth: depth)
                if doubledBackslashes, bytes[i + 1] == Byte.backslash, i + 2 < n, i == 0 || bytes[i - 1] != Byte.backslash {
                    // `\\(` (a run of exactly two backslashes: the scan meets runs at their start too).
                    switch bytes[i + 2] {
                    case Byte.leftParen: doubledParenOpens.append(event); i += 3; continue
                    case Byte.rightParen: doubledParenCloses.append(event); i += 3; continue
                    case Byte.leftBracket: doubledBracketOpens.append(event); i += 3; continue
                    case Byte.rightBracket: doubledBracketCloses.append(event); i += 3; continue
                    default: break
                    }
                }
                switch bytes[i + 1] {
                case Byte.newline: recordBlankLine(startingAt: i + 1, in: bytes)  // `\` + newline ends no paragraph
                case Byte.leftParen: parenOpens.append(event)
                case Byte.rightParen: parenCloses.append(event)
                case Byte.leftBracket: bracketOpens.append(event)
                case Byte.rightBracket: bracketCloses.append(event)
                case Byte.letterB:
                    if let token = environmentToken(in: bytes, at: i, begin: true) {
                        openEnvironments[token.name, default: []].append(Int32(i))
                        i = token.end  // the token's braces balance: depth is unchanged
                        continue
                    }
                case Byte.letterE:
                    if let token = environmentToken(in: bytes, at: i, begin: false) {
                        if let begin = openEnvironments[token.name]?.popLast() {
                            environmentEnds[begin] = (Int32(i), Int32(token.end))
                        }
                        i = token.end
                        continue
                    }
                default: break
                }
                i += 2
            case Byte.leftBrace:
                depth += 1
                i += 1
            case Byte.rightBrace:
                depth -= 1
                i += 1
            case Byte.dollar:
                if recordDollars {
                    let event = DelimiterEvent(position: Int32(i), depth: depth)
                    dollars.append(event)
                    if i + 1 < n, bytes[i + 1] == Byte.dollar { doubleDollars.append(event) }
                }
                i += 1
            case Byte.newline:
                recordBlankLine(startingAt: i, in: bytes)
                i += 1
            default:
                i += 1
            }
        }
        dollarClosers = Self.firstClosers(for: dollars, among: dollars, gap: 1)
        doubleDollarClosers = Self.firstClosers(for: doubleDollars, among: doubleDollars, gap: 2)
        parenClosers = Self.firstClosers(for: parenOpens, among: parenCloses, gap: 2)
        bracketClosers = Self.firstClosers(for: bracketOpens, among: bracketCloses, gap: 2)
        doubledParenClosers = Self.firstClosers(for: doubledParenOpens, among: doubledParenCloses, gap: 3)
        doubledBracketClosers = Self.firstClosers(for: doubledBracketOpens, among: doubledBracketCloses, gap: 3)
    }

    /// Records the blank line that the newline at `i` starts, if any. Blank lines are found whatever
    /// precedes them (a backslash before the first newline does not hide the paragraph break).
    mutating func recordBlankLine(startingAt i: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var j = i + 1
        while j < bytes.count, Byte.isLineSpace(bytes[j]) { j += 1 }
        if j < bytes.count, bytes[j] == Byte.newline {
            blankLineStarts.append(Int32(i))
            blankLineEnds.append(Int32(j))
        }
    }

    /// For each opener, the offset of the first closer at least `gap` bytes after it whose depth is at
    /// most the opener's, or −1. Both lists are sorted by offset.
    ///
    /// Right to left, the candidate closers are kept on a stack whose depths never decrease from bottom
    /// to top (a closer hides every farther one that is deeper: whoever could use the farther one can use
    /// it first). The answer for an opener is the topmost entry not deeper than it: a binary search.
    static func firstClosers(for openers: [DelimiterEvent], among closers: [DelimiterEvent], gap: Int32) -> [Int32] {
        var answers = [Int32](repeating: -1, count: openers.count)
        guard !closers.isEmpty else { return answers }
        var stack: [Int32] = []
        var c = closers.count - 1
        var o = openers.count - 1
        while o >= 0 {
            let opener = openers[o]
            while c >= 0, closers[c].position >= opener.position + gap {
                let d = closers[c].depth
                while let top = stack.last, closers[Int(top)].depth > d { stack.removeLast() }
                stack.append(Int32(c))
                c -= 1
            }
            guard let top = stack.last else { o -= 1; continue }
            if closers[Int(top)].depth <= opener.depth {
                answers[o] = closers[Int(top)].position  // the usual case: the nearest closer
            } else {
                var lo = 0, hi = stack.count - 1
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if closers[Int(stack[mid])].depth <= opener.depth { lo = mid + 1 } else { hi = mid }
                }
                if lo > 0 { answers[o] = closers[Int(stack[lo - 1])].position }
            }
            o -= 1
        }
        return answers
    }

    /// The closer recorded for the opener at `position` in `openers`. `cursor` remembers where the
    /// previous look-up in the same list ended: the scan asks in increasing order of position.
    static func closer(at position: Int, openers: [DelimiterEvent], closers: [Int32], cursor: inout Int) -> Int? {
        let p = Int32(position)
        while cursor < openers.count, openers[cursor].position < p { cursor += 1 }
        guard cursor < openers.count, openers[cursor].position == p, closers[cursor] >= 0 else { return nil }
        return Int(closers[cursor])
    }

    /// Whether a blank line lies wholly between `start` and `end`.
    func blankLine(between start: Int, and end: Int) -> Bool {
        let s = Int32(start)
        var lo = 0, hi = blankLineStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if blankLineStarts[mid] <= s { lo = mid + 1 } else { hi = mid }
        }
        return lo < blankLineEnds.count && Int(blankLineEnds[lo]) < end
    }
}

/// `\begin{name}` or `\end{name}` at `i` (name: ASCII letters and `*`): the name and the offset after `}`.
private func environmentToken(in bytes: UnsafeBufferPointer<UInt8>, at i: Int, begin: Bool)
    -> (name: String, nameStart: Int, end: Int)?
{
    let keyword: StaticString = begin ? "begin{" : "end{"
    var j = i + 1
    let count = keyword.utf8CodeUnitCount
    guard j + count <= bytes.count else { return nil }
    let matches = keyword.withUTF8Buffer { word in
        for k in 0..<count where bytes[j + k] != word[k] { return false }
        return true
    }
    guard matches else { return nil }
    j += count
    let nameStart = j
    while j < bytes.count, Byte.isLetter(bytes[j]) || bytes[j] == Byte.star { j += 1 }
    guard j > nameStart, j < bytes.count, bytes[j] == Byte.rightBrace else { return nil }
    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<j]), as: UTF8.self)
    return (name, nameStart, j + 1)
}

// MARK: - The scan

/// One scan of one input: the text-mode walk that meets openers in order and consults the index.
private struct TextScan {
    let bytes: [UInt8]
    let options: MathTextScanner.Options
    let index: DelimiterIndex
    /// Regions left alone (sorted, disjoint, inside the input), and the first one not yet passed.
    let excluded: [SourceRange]
    var excludedCursor = 0
    /// Whether the input is all there is (false: a stream that may go on).
    let complete: Bool
    /// Whether offset 0 is the start of a line.
    let startsLine: Bool
    /// The first offset whose reading could change with more input (`Int.max`: none).
    var unsettled = Int.max
    /// The bytes that can change the reading at `unsettled`.
    var wakeBytes = ByteSet.all
    /// The fenced code block still open at the end of a partial input: where it starts, and its fence.
    var openFence: (start: Int, fence: CodeFence)?
    var codeRanges: [SourceRange] = []
    /// The regions read as one construct (recorded for a partial input only; ``MathTextScan/spans``).
    var spans: [SourceRange] = []
    var segments: [MathTextSegment] = []
    var diagnostics: [Diagnostic] = []
    /// Where the pending text segment starts.
    var textStart = 0
    /// Maximal backtick runs: length → start offsets (built on first use).
    var backtickRuns: [Int: [Int32]]?
    /// Every backtick run in order (built on first use).
    var sortedBacktickRuns: [(start: Int32, length: Int32)]?
    /// Positions in the index's opener lists reached so far (see ``DelimiterIndex/closer(at:openers:closers:cursor:)``).
    var dollarCursor = 0, doubleDollarCursor = 0, parenCursor = 0, bracketCursor = 0
    var doubledParenCursor = 0, doubledBracketCursor = 0
    /// Would-be closers that an open brace kept from closing math (already warned about at the brace):
    /// read as openers, they get no warning of their own.
    var silenced = Set<Int>()
    /// Unclosed openers past `Options.maxDiagnostics`, and the first of them.
    var unreported = 0
    var firstUnreported: SourceRange?

    init(bytes: [UInt8], options: MathTextScanner.Options, excluded: [SourceRange], complete: Bool, startsLine: Bool) {
        self.bytes = bytes
        self.options = options
        self.complete = complete
        self.startsLine = startsLine
        let n = bytes.count
        var regions: [SourceRange] = []
        for r in excluded where r.lowerBound >= 0 && r.upperBound <= n && r.count > 0 {
            if let last = regions.last, r.lowerBound < last.upperBound { continue }  // overlapping or unsorted
            regions.append(r)
        }
        self.excluded = regions
        index = bytes.withUnsafeBufferPointer {
            DelimiterIndex(bytes: $0, dollars: options.dollarDelimiters, doubledBackslashes: options.doubledBackslashDelimiters)
        }
    }

    /// Marks the reading from `p` on as one that more input could change, once one of `wake` comes.
    mutating func pending(_ p: Int, wake: ByteSet) {
        if p < unsettled {
            unsettled = p
            wakeBytes = wake
        } else if p == unsettled {
            wakeBytes.formUnion(wake)
        }
    }

    /// An opener at `q` whose closer (ending at `end`) lies across an excluded region or inside code:
    /// it stays text and the scan goes on at `next`. In a partial input the decision rests on the
    /// region up to `end` (an element or comment there may still change), so the whole pair is a
    /// span (``MathTextScan/spans``): a caller holds it while that region is undecided, and never
    /// resumes inside it (`$<math>$<script></math>`: the `</math>` that makes the element may turn
    /// out to be inside the script).
    mutating func rejected(_ q: Int, _ end: Int, next: Int) -> Int {
        if !complete, end > next { spans.append(SourceRange(q, end)) }
        return next
    }

    /// Whether an excluded region overlaps `lo..<hi`.
    func crossesExcluded(_ lo: Int, _ hi: Int) -> Bool {
        guard !excluded.isEmpty else { return false }
        var a = 0, b = excluded.count
        while a < b {
            let mid = (a + b) / 2
            if excluded[mid].upperBound <= lo { a = mid + 1 } else { b = mid }
        }
        return a < excluded.count && excluded[a].lowerBound < hi
    }

    mutating func run(insideFence: CodeFence? = nil) {
        let n = bytes.count
        var i = 0
        if let fence = insideFence {
            // The input starts on a line of an open fenced code block: code up to its closing line.
            let (end, closingLine) = fencedBlockEnd(afterLineEndingAt: -1, fence: fence.character, length: fence.length)
            if closingLine == nil, !complete { openFence = (0, fence) }
            if !complete, end > 1 { spans.append(SourceRange(0, end)) }
            if end > 0 { codeRanges.append(SourceRange(0, end)) }
            i = end
        }
        var nextExcluded = excluded.first?.lowerBound ?? Int.max
        while i < n {
            if i >= nextExcluded {
                // Skip the region (and any the walk jumped into).
                while excludedCursor < excluded.count, excluded[excludedCursor].upperBound <= i { excludedCursor += 1 }
                if excludedCursor < excluded.count, excluded[excludedCursor].lowerBound <= i {
                    i = excluded[excludedCursor].upperBound
                    excludedCursor += 1
                }
                nextExcluded = excludedCursor < excluded.count ? excluded[excludedCursor].lowerBound : Int.max
                continue
            }
            let start = i
            defer { if !complete, i > start + 1 { spans.append(SourceRange(start, i)) } }
            switch bytes[i] {
            case Byte.backslash:
                guard i + 1 < n else {
                    if !complete { pending(i, wake: .all) }   // `\(` or `\[` may be coming
                    i += 1
                    continue
                }
                if options.doubledBackslashDelimiters, bytes[i + 1] == Byte.backslash, i == 0 || bytes[i - 1] != Byte.backslash {
                    guard i + 2 < n else {
                        if !complete { pending(i, wake: .all) }   // `\\(` or `\\[` may be coming
                        i += 2
                        continue
                    }
                    if bytes[i + 2] == Byte.leftParen { i = delimited(at: i, display: false, doubled: true); continue }
                    if bytes[i + 2] == Byte.leftBracket { i = delimited(at: i, display: true, doubled: true); continue }
                    if bytes[i + 2] == Byte.rightParen || bytes[i + 2] == Byte.rightBracket { i += 3; continue }
                }
                switch bytes[i + 1] {
                case Byte.leftParen: i = delimited(at: i, display: false)
                case Byte.leftBracket: i = delimited(at: i, display: true)
                case Byte.letterB: i = environment(at: i)
                default: i += 2
                }
            case Byte.dollar where options.dollarDelimiters:
                i = i + 1 < n && bytes[i + 1] == Byte.dollar ? displayDollars(at: i) : inlineDollar(at: i)
            case Byte.backtick where options.markdownCode:
                i = backticks(at: i)
            case Byte.tilde where options.markdownCode:
                i = tildes(at: i)
            default:
                i += 1
            }
        }
        if !complete, options.decodeHTMLEntities {
            // A character reference cut off at the end decodes differently once it is whole.
            var j = n - 1
            let limit = max(0, n - 41)
            while j >= limit, bytes[j] != Byte.semicolon {
                if bytes[j] == Byte.ampersand { pending(j, wake: .all); break }
                j -= 1
            }
        }
        flushText(upTo: n)
        if unreported > 0 {
            diagnostics.append(Diagnostic(
                id: "text.too-many-diagnostics", severity: .note,
                message: "\(unreported) more unclosed math delimiters were not reported", range: firstUnreported))
        }
    }

    // MARK: Openers (each returns where the scan goes on)

    mutating func inlineDollar(at q: Int) -> Int {
        let n = bytes.count
        // TeX's dollars: a `$` that an unclosed `{` kept from closing the math before it (``warnUnclosed``) ends that
        // math in TeX's recovery ("Missing } inserted"), and opens none: `$\frac{1}{2$ and $x$` leaves ` and ` prose.
        if options.texDollars, silenced.contains(q) { return q + 1 }
        guard q + 1 < n else {
            if !complete { pending(q, wake: .all) }   // a second `$` may follow
            return q + 1
        }
        guard options.texDollars || !Byte.isWhitespace(bytes[q + 1]) else { return q + 1 }
        if options.markdownMath, options.markdownCode, bytes[q + 1] == Byte.backtick, let end = dollarBacktick(at: q) {
            return end
        }
        let closer = DelimiterIndex.closer(at: q, openers: index.dollars, closers: index.dollarClosers, cursor: &dollarCursor)
        guard let c = closer, !index.blankLine(between: q, and: c) else {
            if closer == nil, !complete, !index.blankLine(between: q, and: n) {
                pending(q, wake: ByteSet("$\n"))   // the closer may still come
                return q + 1
            }
            if options.texDollars || !Byte.isDigit(bytes[q + 1]) {
                warnUnclosed(q, q + 1, opener: "$", closer: "$", atBlankLine: closer != nil)
            }
            return q + 1
        }
        if !options.texDollars {
            if Byte.isWhitespace(bytes[c - 1]) { return q + 1 }            // "$5 and $10": a closer after a space
            if c + 1 == n, !complete { pending(q, wake: .all) }                        // the byte after the closer decides
            if c + 1 < n, Byte.isDigit(bytes[c + 1]) { return q + 1 }      // "$x$5": a closer before a digit
        }
        if crossesExcluded(q, c + 1) || closerInCode(after: q, closer: c, opener: q) { return rejected(q, c + 1, next: q + 1) }
        emitMath(q, c + 1, tex: q + 1, c, display: false, delimiter: "$")
        return c + 1
    }

    /// Whether the closer at `c` lies inside a Markdown code span that starts after `q` (the code span
    /// wins: CommonMark gives code spans precedence). At most 64 backtick runs between them are looked
    /// at (past that, the closer counts), so hostile input stays linear. In a partial input, a run with
    /// no closing run yet could still make a span over `c`: the opener waits.
    mutating func closerInCode(after q: Int, closer c: Int, opener: Int) -> Bool {
        guard options.markdownCode else { return false }
        let runs = allBacktickRuns()
        // The first run starting after q.
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(runs[mid].start) <= q { lo = mid + 1 } else { hi = mid }
        }
        var k = lo, looked = 0
        while k < runs.count, Int(runs[k].start) < c, looked < 64 {
            looked += 1
            let start = Int(runs[k].start), length = Int(runs[k].length)
            guard let closer = backtickRun(length: length, from: start + length),
                  !index.blankLine(between: start, and: closer) else {
                if !complete, !index.blankLine(between: start, and: bytes.count) { pending(opener, wake: ByteSet("`\n")) }
                k += 1
                continue
            }
            if closer + length >= bytes.count, !complete { pending(opener, wake: .all) }   // the closing run may grow
            if closer + length > c { return true }
            // Past this span: the next run after it.
            while k < runs.count, Int(runs[k].start) < closer + length { k += 1 }
        }
        return false
    }

    /// Every maximal backtick run, in order (built on first use).
    mutating func allBacktickRuns() -> [(start: Int32, length: Int32)] {
        if let runs = sortedBacktickRuns { return runs }
        var runs: [(start: Int32, length: Int32)] = []
        var i = 0
        let n = bytes.count
        while i < n {
            guard bytes[i] == Byte.backtick else { i += 1; continue }
            if backslashCount(before: i) % 2 == 1 {
                // An escaped backtick is literal; a run may start after it.
                i += 1
                continue
            }
            var e = i
            while e < n, bytes[e] == Byte.backtick { e += 1 }
            runs.append((Int32(i), Int32(e - i)))
            i = e
        }
        sortedBacktickRuns = runs
        return runs
    }

    /// The number of backslashes right before `i` (odd: the byte at `i` is escaped).
    func backslashCount(before i: Int) -> Int {
        var j = i - 1, count = 0
        while j >= 0, bytes[j] == Byte.backslash { count += 1; j -= 1 }
        return count
    }

    /// GitHub's `` $`…`$ ``: a code span right after a `$` and right before another is inline math (its
    /// content is the TeX). Nil when the code span is not closed by a `$`.
    mutating func dollarBacktick(at q: Int) -> Int? {
        let n = bytes.count
        var e = q + 1
        while e < n, bytes[e] == Byte.backtick { e += 1 }
        let length = e - q - 1
        if e == n { if !complete { pending(q, wake: .all) }; return nil }
        guard let closer = backtickRun(length: length, from: e), !index.blankLine(between: q, and: closer) else {
            if !complete, !index.blankLine(between: q, and: n) { pending(q, wake: ByteSet("`\n")) }
            return nil
        }
        let end = closer + length
        if end >= n { if !complete { pending(q, wake: .all) }; return nil }
        guard bytes[end] == Byte.dollar, !crossesExcluded(q, end + 1), !isBlank(e, closer) else { return nil }
        emitMath(q, end + 1, tex: e, closer, display: false, delimiter: "$`")
        return end + 1
    }

    mutating func displayDollars(at q: Int) -> Int {
        guard let c = DelimiterIndex.closer(at: q, openers: index.doubleDollars, closers: index.doubleDollarClosers,
                                             cursor: &doubleDollarCursor) else {
            if !complete { pending(q, wake: ByteSet("$")); return q + 2 }
            warnUnclosed(q, q + 2, opener: "$$", closer: "$$", atBlankLine: false)
            return q + 2
        }
        if crossesExcluded(q, c + 2) || closerInCode(after: q + 1, closer: c, opener: q) { return rejected(q, c + 2, next: q + 2) }
        if isBlank(q + 2, c) { return c + 2 }
        emitMath(q, c + 2, tex: q + 2, c, display: true, delimiter: "$$")
        return c + 2
    }

    /// `\(…\)` or `\[…\]`; `doubled`: kramdown's `\\(…\\)` or `\\[…\\]` (reported as `\(`, `\[`).
    mutating func delimited(at q: Int, display: Bool, doubled: Bool = false) -> Int {
        let closer: Int?
        switch (display, doubled) {
        case (true, false):
            closer = DelimiterIndex.closer(at: q, openers: index.bracketOpens, closers: index.bracketClosers, cursor: &bracketCursor)
        case (false, false):
            closer = DelimiterIndex.closer(at: q, openers: index.parenOpens, closers: index.parenClosers, cursor: &parenCursor)
        case (true, true):
            closer = DelimiterIndex.closer(at: q, openers: index.doubledBracketOpens, closers: index.doubledBracketClosers,
                                           cursor: &doubledBracketCursor)
        case (false, true):
            closer = DelimiterIndex.closer(at: q, openers: index.doubledParenOpens, closers: index.doubledParenClosers,
                                           cursor: &doubledParenCursor)
        }
        let width = doubled ? 3 : 2
        let opener = display ? "\\[" : "\\("
        guard let c = closer, display || !index.blankLine(between: q, and: c) else {
            if closer == nil, !complete, display || !index.blankLine(between: q, and: bytes.count) {
                pending(q, wake: ByteSet(display ? "]" : ")\n"))
                return q + width
            }
            warnUnclosed(q, q + width, opener: (doubled ? "\\" : "") + opener,
                         closer: (doubled ? "\\" : "") + (display ? "\\]" : "\\)"), atBlankLine: closer != nil)
            return q + width
        }
        if crossesExcluded(q, c + width) || closerInCode(after: q + width - 1, closer: c, opener: q) {
            return rejected(q, c + width, next: q + width)
        }
        if isBlank(q + width, c) { return c + width }
        emitMath(q, c + width, tex: q + width, c, display: display, delimiter: opener)
        return c + width
    }

    mutating func environment(at q: Int) -> Int {
        guard let token = bytes.withUnsafeBufferPointer({ environmentToken(in: $0, at: q, begin: true) }) else {
            if !complete, isBeginPrefixToTheEnd(q) { pending(q, wake: .all) }
            return q + 2
        }
        let name = token.name
        if let allowed = options.environments, !allowed.contains(name) { return token.end }
        let inline = name == "math"
        guard let end = index.environmentEnds[Int32(q)],
              !inline || !index.blankLine(between: q, and: Int(end.start)) else {
            let closed = index.environmentEnds[Int32(q)] != nil
            if !closed, !complete, !inline || !index.blankLine(between: q, and: bytes.count) {
                pending(q, wake: ByteSet(inline ? "}\n" : "}"))
                return token.end
            }
            warnUnclosed(q, token.end, opener: "\\begin{\(name)}", closer: "\\end{\(name)}", atBlankLine: closed)
            return token.end
        }
        let endStart = Int(end.start), endEnd = Int(end.end)
        if crossesExcluded(q, endEnd) || closerInCode(after: token.end - 1, closer: endStart, opener: q) {
            return rejected(q, endEnd, next: token.end)
        }
        if inline || name == "displaymath" {
            if isBlank(token.end, endStart) { return endEnd }
            emitMath(q, endEnd, tex: token.end, endStart, display: !inline, delimiter: name)
        } else {
            emitMath(q, endEnd, tex: q, endEnd, display: true, delimiter: name)
        }
        return endEnd
    }

    // MARK: Markdown code

    /// A run of backticks at `p`: a fence opener, a code span, or literal backticks.
    mutating func backticks(at p: Int) -> Int {
        let n = bytes.count
        var e = p
        while e < n, bytes[e] == Byte.backtick { e += 1 }
        if e == n, !complete { pending(p, wake: .all); return e }   // the run may grow
        let length = e - p
        if length >= 3, isAtLineStart(p) {
            // A backtick fence's info string may not contain a backtick (then it is a code span).
            var j = e
            while j < n, bytes[j] != Byte.newline, bytes[j] != Byte.backtick { j += 1 }
            if j == n, !complete { pending(p, wake: ByteSet("\n`")); return n }   // the fence's line is not finished
            if j == n || bytes[j] == Byte.newline { return fencedBlock(at: p, from: e, fence: Byte.backtick, length: length) }
        }
        if let closer = backtickRun(length: length, from: e), !index.blankLine(between: p, and: closer) {
            if closer + length == n, !complete { pending(p, wake: .all) }   // the closing run may grow
            if crossesExcluded(p, closer + length) { return rejected(p, closer + length, next: e) }   // no code span across an excluded region; while the region is undecided, the pair waits
            codeRanges.append(SourceRange(p, closer + length))
            return closer + length
        }
        if !complete, !index.blankLine(between: p, and: n) { pending(p, wake: ByteSet("`\n")) }   // the closing run may still come
        return e
    }

    mutating func tildes(at p: Int) -> Int {
        let n = bytes.count
        var e = p
        while e < n, bytes[e] == Byte.tilde { e += 1 }
        if e == n, !complete { pending(p, wake: .all); return e }
        if e - p >= 3, isAtLineStart(p) {
            if !complete, lineEnd(from: e) == n { pending(p, wake: ByteSet("\n")); return n }
            return fencedBlock(at: p, from: e, fence: Byte.tilde, length: e - p)
        }
        return e
    }

    /// Whether only up to three spaces stand between `p` and the start of its line.
    func isAtLineStart(_ p: Int) -> Bool {
        var j = p, spaces = 0
        while j > 0, bytes[j - 1] == Byte.space, spaces < 3 { j -= 1; spaces += 1 }
        return j == 0 ? startsLine : bytes[j - 1] == Byte.newline
    }

    /// A fenced block whose opening fence runs from `p` to `e`: code (text), or display math when its
    /// info string is `math` (``MathTextScanner/Options/markdownMath``). Returns where the scan goes on.
    mutating func fencedBlock(at p: Int, from e: Int, fence: UInt8, length: Int) -> Int {
        let n = bytes.count
        let (end, closingLine) = fencedBlockEnd(from: e, fence: fence, length: length)
        let infoEnd = lineEnd(from: e)
        if options.markdownMath, infoWord(e, infoEnd) == "math" {
            if closingLine == nil, !complete { pending(p, wake: ByteSet("\n")); return n }
            let contentStart = min(infoEnd + 1, n)
            let contentEnd = max(contentStart, closingLine ?? n)
            if isBlank(contentStart, contentEnd) { return end }
            let opener = String(repeating: Character(Unicode.Scalar(fence)), count: 3) + "math"
            emitMath(p, end, tex: contentStart, contentEnd, display: true, delimiter: opener)
            return end
        }
        if closingLine == nil, !complete, openFence == nil { openFence = (p, CodeFence(character: fence, length: length)) }
        codeRanges.append(SourceRange(p, end))
        return end
    }

    /// The first word of a fence's info string (bytes `lo..<hi`), lowercased.
    func infoWord(_ lo: Int, _ hi: Int) -> String {
        var i = lo
        while i < hi, Byte.isWhitespace(bytes[i]) { i += 1 }
        var j = i
        while j < hi, !Byte.isWhitespace(bytes[j]), bytes[j] != 0x7B { j += 1 }   // `math {.class}` too
        return String(decoding: bytes[i..<j], as: UTF8.self).lowercased()
    }

    /// Whether the input from `q` to its end is the beginning of `\begin{name` (a token cut off).
    func isBeginPrefixToTheEnd(_ q: Int) -> Bool {
        let keyword = Array("\\begin{".utf8)
        var k = 0, i = q
        while i < bytes.count, k < keyword.count {
            if bytes[i] != keyword[k] { return false }
            i += 1; k += 1
        }
        while i < bytes.count {
            if !(Byte.isLetter(bytes[i]) || bytes[i] == Byte.star) { return false }
            i += 1
        }
        return true
    }

    /// The end of a fenced block whose opening fence ends at `e`: the end of the closing fence's line
    /// (a line of at least `length` fence characters, indented at most three spaces, nothing but spaces
    /// after), or the end of the input; and where the closing line starts (nil: not closed). In a partial
    /// input, a closing line must be complete (end in a newline) to count.
    func fencedBlockEnd(from e: Int, fence: UInt8, length: Int) -> (end: Int, closingLine: Int?) {
        fencedBlockEnd(afterLineEndingAt: lineEnd(from: e), fence: fence, length: length)
    }

    /// The same, from the line after the line break at `lineBreak` (-1: from the first line).
    func fencedBlockEnd(afterLineEndingAt lineBreak: Int, fence: UInt8, length: Int) -> (end: Int, closingLine: Int?) {
        let n = bytes.count
        var j = lineBreak
        while j < n {
            var k = j + 1, spaces = 0
            while k < n, bytes[k] == Byte.space, spaces < 3 { k += 1; spaces += 1 }
            var m = k
            while m < n, bytes[m] == fence { m += 1 }
            let end = lineEnd(from: m)
            if m - k >= length, complete || end < n, (m..<end).allSatisfy({ Byte.isLineSpace(bytes[$0]) }) {
                return (end, j + 1)
            }
            j = end
        }
        return (n, nil)
    }

    func lineEnd(from i: Int) -> Int {
        var j = i
        while j < bytes.count, bytes[j] != Byte.newline { j += 1 }
        return j
    }

    /// The start of the first maximal run of exactly `length` backticks at or after `from`.
    mutating func backtickRun(length: Int, from: Int) -> Int? {
        if backtickRuns == nil {
            var runs: [Int: [Int32]] = [:]
            var i = 0
            let n = bytes.count
            while i < n {
                guard bytes[i] == Byte.backtick else { i += 1; continue }
                var e = i
                while e < n, bytes[e] == Byte.backtick { e += 1 }
                runs[e - i, default: []].append(Int32(i))
                i = e
            }
            backtickRuns = runs
        }
        guard let starts = backtickRuns?[length] else { return nil }
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(starts[mid]) < from { lo = mid + 1 } else { hi = mid }
        }
        return lo < starts.count ? Int(starts[lo]) : nil
    }

    // MARK: Output

    func isBlank(_ lo: Int, _ hi: Int) -> Bool {
        (lo..<hi).allSatisfy { Byte.isWhitespace(bytes[$0]) }
    }

    mutating func flushText(upTo end: Int) {
        guard end > textStart else { return }
        let (text, _) = decode(textStart, end, math: false)
        segments.append(.text(text, range: SourceRange(textStart, end)))
        textStart = end
    }

    mutating func emitMath(_ lo: Int, _ hi: Int, tex texLo: Int, _ texHi: Int, display: Bool, delimiter: String) {
        flushText(upTo: lo)
        let (tex, replacements) = decode(texLo, texHi, math: true)
        segments.append(.math(MathFragment(
            tex: tex, display: display, delimiter: delimiter, range: SourceRange(lo, hi),
            contentRange: SourceRange(texLo, texHi), replacements: replacements)))
        textStart = hi
    }

    /// The brace that keeps math opened at `q` from being closed, when there is one: the first closer
    /// (`closer`) after the opener stands inside a `{` still open (`$\frac{1}{2$ here`: the `$` after
    /// `2` is at depth 1, so it does not count). Returns that brace (the innermost open one) and where
    /// the would-be closer starts. Looks at most 16 KiB ahead and, for inline math, not past a blank
    /// line; braces are counted as the closer lookup counts them (a `}` may go below zero).
    func unclosedBrace(after start: Int, closer: [UInt8], inline: Bool) -> (brace: Int, closer: Int)? {
        let n = bytes.count, limit = min(n, start + (16 << 10))
        func blankLineStarts(_ j: Int) -> Bool {
            guard j < n, bytes[j] == Byte.newline else { return false }
            var k = j + 1
            while k < n, Byte.isLineSpace(bytes[k]) { k += 1 }
            return k < n && bytes[k] == Byte.newline
        }
        func closes(_ j: Int) -> Bool {
            guard j + closer.count <= n else { return false }
            for (k, c) in closer.enumerated() where bytes[j + k] != c { return false }
            return true
        }
        var depth = 0
        var open: [Int] = []
        var j = start
        while j < limit {
            if closes(j) {
                if depth > 0, let brace = open.last { return (brace, j) }
                if closer[0] == Byte.dollar { return nil }
            }
            if inline, blankLineStarts(j) { return nil }
            switch bytes[j] {
            case Byte.backslash:
                if inline, blankLineStarts(j + 1) { return nil }
                j += 2
                continue
            case Byte.leftBrace:
                depth += 1
                if depth > 0 { open.append(j) }
            case Byte.rightBrace:
                if depth > 0 { open.removeLast() }
                depth -= 1
            default: break
            }
            j += 1
        }
        return nil
    }

    /// Warns that the opener at `lo..<hi` is not closed: `text.unclosed-brace` at the brace when an open
    /// brace is why (``unclosedBrace(after:closer:inline:)``; the would-be closer then gets no warning of
    /// its own when it is read as an opener), else `text.unclosed-math` at the opener.
    mutating func warnUnclosed(_ lo: Int, _ hi: Int, opener: String, closer: String, atBlankLine: Bool) {
        if silenced.remove(lo) != nil { return }
        let closerBytes = Array(closer.utf8)
        if diagnostics.count < options.maxDiagnostics, opener == "$" || opener == "$$" || opener == "\\(" || opener == "\\[",
           let cause = unclosedBrace(after: hi, closer: closerBytes, inline: opener == "$" || opener == "\\(") {
            silenced.insert(cause.closer)
            diagnostics.append(.warning("text.unclosed-brace",
                "this `{` is not closed before the `\(closer)` after it, so that `\(closer)` does not end the math opened by `\(opener)`; the formula is kept as text",
                at: SourceRange(cause.brace, cause.brace + 1)))
            return
        }
        guard diagnostics.count < options.maxDiagnostics else {
            if unreported == 0 { firstUnreported = SourceRange(lo, hi) }
            unreported += 1
            return
        }
        let before = atBlankLine ? "a blank line" : "the end of the input"
        diagnostics.append(.warning(
            "text.unclosed-math",
            "math opened by `\(opener)` is not closed by `\(closer)` before \(before); it is kept as text",
            at: SourceRange(lo, hi)))
    }

    // MARK: Character references

    /// The bytes `lo..<hi` as a string, with character references decoded if the options ask for it.
    func decode(_ lo: Int, _ hi: Int, math: Bool) -> (String, [EntityReplacement]) {
        guard options.decodeHTMLEntities, bytes[lo..<hi].contains(Byte.ampersand) else {
            return (String(decoding: bytes[lo..<hi], as: UTF8.self), [])
        }
        var out: [UInt8] = []
        out.reserveCapacity(hi - lo)
        var replacements: [EntityReplacement] = []
        var i = lo, runStart = lo
        while i < hi {
            if bytes[i] == Byte.ampersand, let (replacement, length) = reference(at: i, limit: hi, math: math) {
                out.append(contentsOf: bytes[runStart..<i])
                replacements.append(EntityReplacement(texOffset: out.count, sourceOffset: i,
                                                      texLength: replacement.count, sourceLength: length))
                out.append(contentsOf: replacement)
                i += length
                runStart = i
            } else {
                i += 1
            }
        }
        out.append(contentsOf: bytes[runStart..<hi])
        return (String(decoding: out, as: UTF8.self), replacements)
    }

    /// The UTF-8 replacement and source length of the character reference at `i` (which holds `&`).
    func reference(at i: Int, limit: Int, math: Bool) -> ([UInt8], Int)? {
        let resolve = options.namedCharacterReference
        guard let (reference, length) = CharacterReference.read(bytes, at: i, limit: limit,
                                                                maxNameLength: resolve == nil ? 10 : 40)
        else { return nil }
        let noBreakSpace: [UInt8] = math ? [Byte.space] : [0xC2, 0xA0]
        switch reference {
        case .scalar(let scalar):
            if scalar.value == 0xA0 { return (noBreakSpace, length) }
            return (Array(UTF8.encode(scalar)!), length)
        case .name(let range):
            let name = bytes[range]
            if let byte = CharacterReference.xmlPredefined(name) { return ([byte], length) }
            if name.elementsEqual("nbsp".utf8) { return (noBreakSpace, length) }
            guard let resolve, name.allSatisfy({ Byte.isLetter($0) || Byte.isDigit($0) }),
                  let value = resolve(String(decoding: name, as: UTF8.self)), !value.isEmpty
            else { return nil }
            return (Array(value.utf8), length)
        }
    }
}
