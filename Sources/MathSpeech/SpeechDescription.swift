import MathSyntax

/// Structured speech: words with the source range and node they come from, and graded pauses
/// (DESIGN.md §5). Plain text, SSML, label templates and the voice all render from it.
public struct SpeechDescription: Hashable, Sendable {
    /// A graded pause.
    public enum Pause: Int, Hashable, Sendable, Comparable {
        /// A short pause (written as a comma in plain text).
        case short = 1
        /// A medium pause (a semicolon).
        case medium = 2
        /// A long pause (between lines or sentences).
        case long = 3
        public static func < (a: Pause, b: Pause) -> Bool { a.rawValue < b.rawValue }

        /// The pause length in milliseconds used for SSML breaks.
        public var milliseconds: Int {
            switch self { case .short: 250; case .medium: 400; case .long: 700 }
        }
    }

    /// A hint to a voice about how to say some words.
    public enum Prosody: String, Hashable, Sendable {
        /// Inside a superscript (a voice may raise pitch).
        case superscript
        /// Inside a subscript (a voice may lower pitch).
        case `subscript`
    }

    /// One item: words or a pause.
    public enum Item: Hashable, Sendable {
        /// Words, with where they come from.
        case words(String, range: SourceRange?, prosody: Prosody?)
        /// A pause.
        case pause(Pause)
    }

    /// The items in speaking order.
    public private(set) var items: [Item]

    /// An empty description.
    public init(items: [Item] = []) { self.items = items }

    /// Appends words (empty words are ignored).
    public mutating func append(words: String, range: SourceRange? = nil, prosody: Prosody? = nil) {
        SpeechDescription.append(words: words, range: range, prosody: prosody, to: &items)
    }

    /// Appends `text` and then `words` to the last words without spaces ("one" + "-" + "third").
    public mutating func join(_ text: String, words: String, range: SourceRange? = nil) {
        SpeechDescription.join(text, words: words, range: range, to: &items, from: 0)
    }

    /// Appends a pause; adjacent pauses merge into the longer one, and a leading pause is dropped.
    public mutating func append(pause: Pause) {
        SpeechDescription.append(pause: pause, to: &items, from: 0)
    }

    /// Appends another description.
    public mutating func append(_ other: SpeechDescription) {
        SpeechDescription.append(other.items[...], to: &items, from: 0)
    }

    /// The description without trailing pauses.
    public var trimmed: SpeechDescription {
        var copy = self
        copy.removeTrailingPauses()
        return copy
    }

    /// Removes the pauses at the end.
    mutating func removeTrailingPauses() { SpeechDescription.removeTrailingPauses(&items) }

    /// Removes the pauses at the end of `items`.
    static func removeTrailingPauses(_ items: inout [Item]) {
        while let last = items.last, case .pause = last { items.removeLast() }
    }

    /// Whether nothing is said.
    public var isEmpty: Bool { !items.contains { if case .words = $0 { return true } else { return false } } }

    /// Plain text: words separated by spaces; short pauses as commas, medium as semicolons, long as
    /// periods.
    public var plainText: String { SpeechDescription.plainText(items[...]) }

    // MARK: Building
    //
    // What the methods above do, on the items of a description being built, where the items from
    // index `start` on are a description of their own (a part of a template spoken alone before it
    // is joined to the words before it): a pause or join looks no further back than `start`.

    /// Whether words say nothing: empty, or only spaces, tabs and line feeds.
    @inline(__always)
    static func isBlank(_ words: String) -> Bool {
        words.withBytes { bytes in
            for b in bytes where b != 0x20 && b != 0x09 && b != 0x0A { return false }
            return true
        }
    }

    /// Appends words unless they are blank.
    @inline(__always)
    static func append(words: consuming String, range: SourceRange?, prosody: Prosody?, to items: inout [Item]) {
        guard !isBlank(words) else { return }
        items.append(.words(words, range: range, prosody: prosody))
    }

    /// Appends a pause after `items[start...]`: merged into a pause before it, dropped when nothing
    /// comes before it.
    @inline(__always)
    static func append(pause: Pause, to items: inout [Item], from start: Int) {
        guard items.count > start else { return }
        if case .pause(let p) = items[items.count - 1] {
            items[items.count - 1] = .pause(max(p, pause))
        } else {
            items.append(.pause(pause))
        }
    }

    /// Joins `text` and `words` onto the last words of `items[start...]` (appends the words when the
    /// last item there is not words). Words glued straight onto a word make one compound word, whose
    /// second part continues in small letters, as a unit template's do (``Lexicon/compoundPart(_:after:)``): German
    /// `Quadrat{base}` of "Sekunde" is "Quadratsekunde", not "QuadratSekunde" (a capital only starts a
    /// word; a capital alone, a letter's name, stays).
    static func join(_ text: String, words: String, range: SourceRange?, to items: inout [Item], from start: Int) {
        guard items.count > start, case let .words(w, r, p) = items[items.count - 1] else {
            append(words: words, range: range, prosody: nil, to: &items)
            return
        }
        let joined = text.isEmpty ? Lexicon.compoundPart(words, after: w.last) : words
        items[items.count - 1] = .words(w + text + joined, range: SourceRange.union(r, range), prosody: p)
    }

    /// Appends other items one by one, as ``append(words:range:prosody:)`` and ``append(pause:)`` do.
    static func append(_ other: ArraySlice<Item>, to items: inout [Item], from start: Int) {
        for item in other {
            switch item {
            case let .words(w, r, p): append(words: w, range: r, prosody: p, to: &items)
            case let .pause(p): append(pause: p, to: &items, from: start)
            }
        }
    }

    /// The plain text of some items (see ``plainText``).
    static func plainText(_ items: ArraySlice<Item>) -> String {
        // Written as UTF-8 bytes straight into the string: a label is read for every image. The items
        // are read in place (a copy of an item counted a reference to its words, twice per item: a
        // fifth of this function; `MathAloudBench render-svg-profile`, session 12).
        items.withUnsafeBufferPointer { items in
            var end = items.count
            while end > 0, case .pause = items[end - 1] { end -= 1 }
            var capacity = 0
            for i in 0 ..< end {
                if case .words(let w, _, _) = items[i] { capacity += w.utf8.count + 1 } else { capacity += 1 }
            }
            if capacity == 0 { return "" }
            return String(unsafeUninitializedCapacity: capacity) { bytes in
                var n = 0
                for i in 0 ..< end {
                    switch items[i] {
                    case .words(let w, _, _):
                        if n > 0, bytes[n - 1] != 0x20 {
                            bytes[n] = 0x20
                            n += 1
                        }
                        let copied = w.withBytes { source in
                            if let from = source.baseAddress { (bytes.baseAddress! + n).initialize(from: from, count: source.count) }
                            return source.count
                        }
                        n += copied
                    case .pause(let p):
                        bytes[n] = p == .short ? 0x2C : p == .medium ? 0x3B : 0x2E    // , ; .
                        n += 1
                    }
                }
                return n
            }
        }
    }
}
