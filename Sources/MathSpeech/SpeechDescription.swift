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
        guard !words.isEmpty, words.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A }) else { return }
        items.append(.words(words, range: range, prosody: prosody))
    }

    /// Appends `text` and then `words` to the last words without spaces ("one" + "-" + "third").
    public mutating func join(_ text: String, words: String, range: SourceRange? = nil) {
        guard let last = items.last, case let .words(w, r, p) = last else {
            append(words: words, range: range)
            return
        }
        items[items.count - 1] = .words(w + text + words, range: SourceRange.union(r, range), prosody: p)
    }

    /// Appends a pause; adjacent pauses merge into the longer one, and a leading pause is dropped.
    public mutating func append(pause: Pause) {
        guard let last = items.last else { return }
        if case .pause(let p) = last {
            items[items.count - 1] = .pause(max(p, pause))
        } else {
            items.append(.pause(pause))
        }
    }

    /// Appends another description.
    public mutating func append(_ other: SpeechDescription) {
        for item in other.items {
            switch item {
            case let .words(w, r, p): append(words: w, range: r, prosody: p)
            case let .pause(p): append(pause: p)
            }
        }
    }

    /// The description without trailing pauses.
    public var trimmed: SpeechDescription {
        var copy = self
        while let last = copy.items.last, case .pause = last { copy.items.removeLast() }
        return copy
    }

    /// Whether nothing is said.
    public var isEmpty: Bool { !items.contains { if case .words = $0 { return true } else { return false } } }

    /// Plain text: words separated by spaces; short pauses as commas, medium as semicolons, long as
    /// periods.
    public var plainText: String {
        // Built on UTF-8 bytes: a label is read for every image, and appending strings (with a
        // Unicode-aware suffix test per word) cost several times more than the words themselves.
        var end = items.count
        while end > 0, case .pause = items[end - 1] { end -= 1 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(end * 8)
        for item in items[..<end] {
            switch item {
            case .words(let w, _, _):
                if let last = bytes.last, last != 0x20 { bytes.append(0x20) }
                var w = w
                w.withUTF8 { bytes.append(contentsOf: $0) }
            case .pause(let p):
                bytes.append(p == .short ? 0x2C : p == .medium ? 0x3B : 0x2E)    // , ; .
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
