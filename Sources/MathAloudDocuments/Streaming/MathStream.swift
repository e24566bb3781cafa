import Foundation
import MathAloud

/// A piece of a stream, emitted once it is final.
public enum StreamSegment: Sendable {
    /// Text (a run of text may come in several pieces, as it arrives); its range in the stream's bytes.
    case text(String, range: SourceRange)
    /// A formula, complete and read (spoken once).
    case formula(ProcessedFormula)

    /// The stream bytes it covers.
    public var range: SourceRange {
        switch self {
        case .text(_, let range): range
        case .formula(let f): f.segment.range
        }
    }
}

/// Math in a stream of text: chunks in (the tokens of a chat answer, lines of standard input),
/// segments out as soon as they are final.
///
/// ```swift
/// let stream = MathStream(processor: processor)
/// for token in ["The area is $\\pi", " r^2$.", " Done"] {
///     for segment in stream.append(token) { show(segment) }   // text, then the formula once "$" closes it
/// }
/// for segment in stream.finish() { show(segment) }
/// ```
///
/// - A formula is read (parsed and spoken) once, when its closing delimiter and what decides it
///   (`$x$` needs the next character: `$x$5` is money) have arrived; a partial formula is held, never
///   spoken early.
/// - Text is emitted as it comes, up to anything that could still open a formula (a `$`, a `\`, a
///   backtick, `<`, `![`).
/// - At the end (``finish()``) an unclosed `$$` or `\[` stays text (with the warning
///   `text.unclosed-math`).
/// - The segments are those of ``DocumentProcessor/process(text:format:)`` on the whole text: the stream
///   rescans only the part not yet final, and only when a byte that can decide something arrives, so
///   the work is proportional to the text (a stream fed one character at a time costs about what the
///   whole text costs at once). Equation numbers, labels and definitions carry through the stream;
///   a reference to a label that comes later stays unresolved.
/// - Inside a fenced code block still open, a chunk without a line break is text at once, and a scan
///   reads from the start of the last line, not from the block's start: a long code block streamed in
///   small pieces is scanned about once.
/// - Pending text is bounded by ``maxPendingBytes``: past it, what is held is decided as if the stream
///   ended there.
///
/// A stream is used from one task at a time (it is a class with state); the processor it reads with
/// can be shared.
public final class MathStream {
    /// The processor that reads the formulas.
    public let processor: DocumentProcessor
    /// The format of the text: ``DocumentFormat/text`` or ``DocumentFormat/markdown`` (HTML, LaTeX and
    /// notebooks are read as Markdown).
    public let format: DocumentFormat
    /// The most bytes held undecided (default 256 KiB).
    public var maxPendingBytes = 256 << 10
    /// Warnings so far (unclosed delimiters at the end, unresolved references), ranges in the stream.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Where each of ``diagnostics`` starts in the stream: line and column (Unicode scalars), as a
    /// whole text's diagnostics are located (a stream keeps no text to locate them later).
    public private(set) var diagnosticLocations: [SourceLocation] = []
    /// How many bytes the stream's scans have read in all (a measure of its work: about the length of
    /// the text however it was chunked, never its square).
    public private(set) var bytesScanned = 0

    /// The bytes from ``base`` on (earlier ones are final and dropped).
    private var buffer: [UInt8] = []
    /// The stream offset of `buffer[0]`.
    private var base = 0
    /// Everything before this stream offset has been emitted.
    private var emitted = 0
    /// Where the next scan starts (a clean state for the scanner), at most `emitted`.
    private var resume = 0
    /// Whether the last scan left everything final (no open construct).
    private var clean = true
    /// Where the last scan said the undecided part starts.
    private var lastSettled = 0
    /// The bytes that can decide what the last scan held.
    private var wake = ByteSet.all
    /// When `resume` is the start of a line inside an open fenced code block: its fence (the next scan
    /// starts there, in the block, rather than at the block's start).
    private var resumeFence: CodeFence?
    /// Where the text starts after a byte order mark (3 when the stream began with one, else 0): a line
    /// starts there, as ``DocumentSource`` reads the whole text without the mark.
    private var textStart = 0
    private var context: DocumentContext
    private var finished = false
    /// Line and column at `emitted`.
    private var line = 1, column = 1
    /// Line and column at `base`.
    private var baseLocation = SourceLocation(line: 1, column: 1)

    /// A stream read by `processor`.
    public init(processor: DocumentProcessor, format: DocumentFormat = .markdown) {
        self.processor = processor
        self.format = format == .text ? .text : .markdown
        self.context = DocumentContext(processor: processor, baseDefinitions: "")
    }

    /// Adds a chunk; returns the segments that became final.
    public func append(_ chunk: String) -> [StreamSegment] {
        guard !finished, !chunk.isEmpty else { return [] }
        let bytes = Array(chunk.utf8)
        let end = base + buffer.count
        // A byte order mark first: text of its own, and the text after it starts the first line (a fence
        // may open there), as for the whole text.
        if end == 0, textStart == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            buffer = [0xEF, 0xBB, 0xBF]
            emitted = 3
            resume = 3
            lastSettled = 3
            textStart = 3
            let rest = String(String.UnicodeScalarView(chunk.unicodeScalars.dropFirst()))
            return [.text("\u{FEFF}", range: SourceRange(0, 3))] + append(rest)
        }
        buffer += bytes
        // Inside an open fenced code block, a chunk with no line break cannot close it: code text, out at
        // once (the next scan starts at the line's start).
        if resumeFence != nil, emitted == end, !bytes.contains(0x0A) {
            return emitWhole(chunk, bytes, from: end)
        }
        // Plain prose while nothing is open: out at once, no scan.
        if clean, emitted == end, !bytes.contains(where: Self.mayOpen) {
            resume = end + bytes.count
            return emitWhole(chunk, bytes, from: end)
        }
        // Something is held: scan again only when a byte that can decide it has come.
        if !clean, !bytes.contains(where: wake.contains), base + buffer.count - emitted <= maxPendingBytes {
            return []
        }
        return scan(complete: base + buffer.count - emitted > maxPendingBytes)
    }

    /// Ends the stream: what is held is decided (unclosed delimiters stay text); returns the last
    /// segments.
    public func finish() -> [StreamSegment] {
        guard !finished else { return [] }
        let out = scan(complete: true)
        finished = true
        return out
    }

    /// Bytes that can open something (a formula, code, an element).
    private static func mayOpen(_ b: UInt8) -> Bool {
        b == 0x24 || b == 0x5C || b == 0x60 || b == 0x7E || b == 0x3C || b == 0x21 || b == 0x26
    }


    /// Scans from `resume`, emits what became final.
    private func scan(complete: Bool) -> [StreamSegment] {
        let start = resume - base
        // A fence is only at a line start: resume there when only spaces precede on the line.
        var k = start
        while k > 0, buffer[k - 1] == 0x20, start - k < 3 { k -= 1 }
        let startsLine = base + k == textStart || (k == 0 ? (base == 0 || lineStartAtBase) : buffer[k - 1] == 0x0A)
        let from = startsLine ? k : start
        let fence = resumeFence
        assert(fence == nil || (startsLine && from == start), "a scan inside a code block starts at a line start")
        let text = String(decoding: buffer[from...], as: UTF8.self)
        let offset = base + from
        bytesScanned += buffer.count - from
        var fragments: [MathFragment]
        var elements: [(element: MarkupElement, formula: ElementFormula?)] = []
        var found: [Diagnostic]
        var settled: Int, resumeOffset: Int
        var wakeBytes = ByteSet.all
        if format == .text {
            let s = TextSegmenter(options: processor.options.segmenter).scanner.scan(text, excluding: [], complete: complete,
                                                                                    startsLine: startsLine, insideFence: fence)
            fragments = s.fragments
            found = s.diagnostics
            settled = s.settled
            resumeOffset = s.openCodeFence?.lastLineStart ?? s.resumeOffset
            resumeFence = s.openCodeFence?.fence
            wakeBytes = s.wakeBytes
        } else {
            let s = MarkdownSegmenter(options: processor.options.segmenter).scan(text, complete: complete, startsLine: startsLine,
                                                                                insideFence: fence)
            fragments = s.fragments
            elements = s.elements
            found = s.diagnostics
            settled = s.settled
            resumeOffset = s.resumeOffset
            resumeFence = s.openCodeFence?.fence
            wakeBytes = s.wake
        }
        let settledAbs = offset + settled
        // The pieces, in order.
        struct Item { var range: SourceRange; var fragment: MathFragment?; var element: (MarkupElement, ElementFormula?)? }
        var items: [Item] = fragments.map { Item(range: $0.range, fragment: $0, element: nil) }
            + elements.map { Item(range: $0.element.range, fragment: nil, element: ($0.element, $0.formula)) }
        items.sort { $0.range.lowerBound < $1.range.lowerBound }
        var out: [StreamSegment] = []
        let shift = OffsetMap(shift: offset)
        for item in items {
            let lo = item.range.lowerBound + offset, hi = item.range.upperBound + offset
            guard hi <= settledAbs else { break }
            guard lo >= emitted else { continue }
            if lo > emitted { out.append(emitText(upTo: lo)) }
            let startLocation = SourceLocation(line: line, column: column)
            advance(over: buffer[(lo - base)..<(hi - base)])
            let endLocation = SourceLocation(line: line, column: column)
            emitted = hi
            var collector = SegmentCollector(source: DocumentSource(text: ""))
            if let fragment = item.fragment {
                collector.add(fragment, maps: [shift], embedding: .plain)
            } else if let (element, formula) = item.element {
                collector.add(element, formula: formula, maps: [shift], embedding: .plain)
            }
            guard let found = collector.items.first else { continue }
            let segment = DocumentSegment(kind: found.kind, range: found.range, start: startLocation, end: endLocation,
                                          formula: found.formula, element: found.element, embedding: .plain)
            if segment.isFormula {
                var plan = context.plan(segment)
                plan.originalText = String(decoding: buffer[(lo - base)..<(hi - base)], as: UTF8.self)
                plan = context.resolveReferences(in: plan)
                let read = processor.read(plan)
                diagnostics += read.diagnostics
                for d in read.diagnostics {
                    let p = min(max(d.range?.lowerBound ?? lo, lo), hi)
                    diagnosticLocations.append(Self.location(after: startLocation, over: buffer[(lo - base)..<(p - base)]))
                }
                out.append(.formula(read))
            } else {
                out.append(.text(String(decoding: buffer[(lo - base)..<(hi - base)], as: UTF8.self), range: segment.range))
            }
        }
        if settledAbs > emitted { out.append(emitText(upTo: settledAbs)) }
        var located: [Diagnostic] = []
        for d in found where complete || (d.range.map { $0.upperBound + offset <= settledAbs } ?? false) {
            var moved = d
            moved.range = d.range.map { SourceRange($0.lowerBound + offset, $0.upperBound + offset) }
            if moved.range.map({ $0.lowerBound >= reportedUpTo }) ?? true { located.append(moved) }
        }
        diagnostics += located
        diagnosticLocations += locations(of: located.map { $0.range?.lowerBound ?? base })
        reportedUpTo = max(reportedUpTo, settledAbs)
        resume = min(emitted, offset + resumeOffset)
        if resume != offset + resumeOffset { resumeFence = nil }
        lastSettled = settledAbs
        wake = wakeBytes
        clean = settledAbs == base + buffer.count && resume == settledAbs && resumeFence == nil
        compact()
        return out
    }

    /// Diagnostics up to here were reported.
    private var reportedUpTo = 0
    /// Whether `buffer[0]` starts a line.
    private var lineStartAtBase = true

    /// The chunk just appended (its `bytes`, from stream offset `start`, with everything before it
    /// emitted), out whole as text without a scan.
    private func emitWhole(_ chunk: String, _ bytes: [UInt8], from start: Int) -> [StreamSegment] {
        let range = SourceRange(start, start + bytes.count)
        advance(over: bytes[...])
        emitted = range.upperBound
        lastSettled = emitted
        compact()
        return [.text(chunk, range: range)]
    }

    private func emitText(upTo end: Int) -> StreamSegment {
        let range = SourceRange(emitted, end)
        let slice = buffer[(emitted - base)..<(end - base)]
        advance(over: slice)
        emitted = end
        return .text(String(decoding: slice, as: UTF8.self), range: range)
    }

    /// The location after `bytes`, from `start` (lines end at `\n`; columns count Unicode scalars).
    static func location(after start: SourceLocation, over bytes: ArraySlice<UInt8>) -> SourceLocation {
        var l = start
        for b in bytes {
            if b == 0x0A { l.line += 1; l.column = 1 } else if b & 0xC0 != 0x80 { l.column += 1 }
        }
        return l
    }

    /// The locations of stream offsets still in the buffer (an earlier one is located at the buffer's
    /// start), in one pass over it.
    private func locations(of offsets: [Int]) -> [SourceLocation] {
        guard !offsets.isEmpty else { return [] }
        var result = [SourceLocation](repeating: baseLocation, count: offsets.count)
        var at = baseLocation, position = base
        for k in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            let p = min(max(offsets[k], base), base + buffer.count)
            at = Self.location(after: at, over: buffer[(position - base)..<(p - base)])
            position = p
            result[k] = at
        }
        return result
    }

    private func advance(over bytes: ArraySlice<UInt8>) {
        let l = Self.location(after: SourceLocation(line: line, column: column), over: bytes)
        (line, column) = (l.line, l.column)
    }

    /// Drops the bytes before `resume` (what is final) once they are many.
    private func compact() {
        let drop = resume - base
        guard drop > 4096, drop * 2 > buffer.count else { return }
        lineStartAtBase = buffer[drop - 1] == 0x0A
        baseLocation = Self.location(after: baseLocation, over: buffer[0..<drop])
        buffer.removeFirst(drop)
        base = resume
    }
}

/// The plain speech of a stream as `speak --text --stream` prints it: prose as a listener hears it
/// (``MathTextScanner/spokenProse(_:)``), each formula's speech, and where a formula ends the marks
/// ``FormulaBoundary`` gives (its full stop, or a comma before prose words on its line), the same text
/// as ``Speaker/speak(text:scanner:)`` gives for the whole input. Spaces after a formula are held
/// until what follows them is known (the comma goes before them).
public struct SpokenStream: Sendable {
    private var pending: FormulaBoundary.Ending?
    private var held = ""

    /// A spoken stream.
    public init() {}

    /// The text of some segments (what can be printed now).
    public mutating func text(of segments: [StreamSegment]) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .text(let t, _):
                let prose = MathTextScanner.spokenProse(t)
                guard let ending = pending else { out += prose; continue }
                let after = held + prose
                if after.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" }) { held = after; continue }
                out += ending.plainText(before: after) + after
                pending = nil
                held = ""
            case .formula(let f):
                out += close()
                out += f.speech
                pending = FormulaBoundary.Ending(speech: f.speech, tex: f.segment.formula?.source ?? "")
            }
        }
        return out
    }

    /// What is left at the end of the stream.
    public mutating func finish() -> String { close() }

    private mutating func close() -> String {
        guard let ending = pending else { return "" }
        defer { pending = nil; held = "" }
        return ending.plainText(before: "") + held
    }
}
