import MathAloud

/// A change to a document's bytes: replace ``range`` with ``text`` (escaped for its ``embedding``,
/// encoded in the document's encoding). Writers (`convert`, the audit's `--fix`) make edits and apply
/// them all at once, so everything outside the edited ranges stays byte for byte.
public struct DocumentEdit: Sendable, Hashable {
    /// The file bytes replaced (an empty range inserts).
    public var range: SourceRange
    /// The new text, unescaped.
    public var text: String
    /// How the text must be escaped where it goes.
    public var embedding: TextEmbedding

    /// Creates an edit.
    public init(range: SourceRange, text: String, embedding: TextEmbedding = .plain) {
        self.range = range
        self.text = text
        self.embedding = embedding
    }

    /// The edit that gives `element` the attribute `name="value"`: the value of an existing attribute is
    /// replaced (the whole attribute when it has no quotes or no value), or the attribute is inserted at
    /// ``MarkupElement/attributeInsertionOffset``. For a Markdown image only `alt` and `title` can be set
    /// (nil for anything else, and for `title` when the image has none). The value is escaped for HTML
    /// (`&`, `"`, `<`) or Markdown (`\`, `[`, `]`, and the title's quote).
    public static func setting(_ name: String, to value: String, on element: MarkupElement,
                               embedding: TextEmbedding = .plain) -> DocumentEdit? {
        switch element.syntax {
        case .markup:
            let escaped = htmlAttributeValue(value)
            if let existing = element.attribute(name) {
                if let valueRange = existing.valueRange, existing.quote == "\"" {
                    return DocumentEdit(range: valueRange, text: escaped, embedding: embedding)
                }
                return DocumentEdit(range: existing.range, text: "\(existing.name)=\"\(escaped)\"", embedding: embedding)
            }
            guard let offset = element.attributeInsertionOffset else { return nil }
            return DocumentEdit(range: SourceRange(offset, offset), text: " \(name)=\"\(escaped)\"", embedding: embedding)
        case .markdownImage:
            guard let existing = element.attribute(name), let valueRange = existing.valueRange,
                  name.lowercased() == "alt" || name.lowercased() == "title" else { return nil }
            var escaped = ""
            for c in value {
                if markdownActive.contains(c) || (existing.quote.map { c == $0 || ($0 == "(" && c == ")") } ?? false) {
                    escaped.append("\\")
                }
                escaped.append(c)
            }
            return DocumentEdit(range: valueRange, text: escaped, embedding: embedding)
        }
    }

    /// The characters a Markdown image's alt text escapes with a backslash: those Markdown would act on
    /// there (`a*b*c` would be emphasis, shown as "abc"; `|` would split a table's cell; `&amp;` would be
    /// decoded). CommonMark lets a backslash escape any ASCII punctuation.
    static let markdownActive: Set<Character> = ["\\", "[", "]", "*", "_", "`", "<", "&", "~", "|"]

    /// `text` for a Markdown image's alt (``markdownActive`` characters escaped).
    public static func markdownAltText(_ text: String) -> String {
        var escaped = ""
        for c in text {
            if markdownActive.contains(c) { escaped.append("\\") }
            escaped.append(c)
        }
        return escaped
    }

    /// `value` escaped for a double-quoted HTML/XML attribute: ``XMLEscaping/attribute(_:)``, the one
    /// statement of what is escaped (markup characters and quotes; white space as references, so a
    /// line break in a label survives attribute-value normalisation).
    public static func htmlAttributeValue(_ value: String) -> String { XMLEscaping.attribute(value) }
}

/// Why edits could not be applied.
public enum DocumentEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Two edits change the same bytes.
    case overlapping(SourceRange, SourceRange)
    /// An edit lies outside the document.
    case outOfRange(SourceRange)
    /// The document's encoding cannot hold a character of an edit's text.
    case unencodable(SourceRange)

    public var description: String {
        switch self {
        case .overlapping(let a, let b): "the edits at \(a) and \(b) overlap"
        case .outOfRange(let r): "the edit at \(r) lies outside the document"
        case .unencodable(let r): "the text of the edit at \(r) cannot be written in the document's encoding"
        }
    }
}

extension DocumentSource {
    /// The file's bytes with `edits` applied (in any order; they must not overlap, two insertions at one
    /// offset are applied in the order given). Bytes outside the edits are unchanged. With
    /// `characterReferences` (edits that write HTML or Markdown), a character the document's encoding
    /// cannot hold is written as a character reference (``encodeAsMarkup(_:)``); without, it is the
    /// error ``DocumentEditError/unencodable(_:)``.
    public func applying(_ edits: [DocumentEdit], characterReferences: Bool = false) throws(DocumentEditError) -> [UInt8] {
        let ordered = edits.enumerated().sorted {
            $0.element.range.lowerBound != $1.element.range.lowerBound
                ? $0.element.range.lowerBound < $1.element.range.lowerBound : $0.offset < $1.offset
        }.map(\.element)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        var position = 0
        var previous: SourceRange?
        for edit in ordered {
            guard edit.range.lowerBound >= 0, edit.range.upperBound <= bytes.count else { throw .outOfRange(edit.range) }
            if let p = previous, edit.range.lowerBound < p.upperBound {
                throw .overlapping(p, edit.range)
            }
            let escaped = edit.embedding.escape(edit.text)
            guard let encoded = characterReferences ? encodeAsMarkup(escaped) : encode(escaped) else { throw .unencodable(edit.range) }
            out.append(contentsOf: bytes[position..<edit.range.lowerBound])
            out.append(contentsOf: encoded)
            position = edit.range.upperBound
            previous = edit.range
        }
        out.append(contentsOf: bytes[position...])
        return out
    }
}
