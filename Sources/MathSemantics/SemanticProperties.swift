/// The properties of a semantic node: a few (usually fewer than eight) names with string values.
///
/// Stored as a short list searched in order rather than a hash table: building a node's properties
/// and reading them back is the analysis's and the speech rules' most frequent operation, and for
/// so few entries a scan of inline strings is several times cheaper than hashing every name.
/// Behaves like a `[String: String]` (subscript, iteration, order-independent equality).
public struct SemanticProperties: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    @usableFromInline struct Entry: Hashable, Sendable {
        @usableFromInline var key: String
        @usableFromInline var value: String
        @usableFromInline init(key: String, value: String) { self.key = key; self.value = value }
    }

    @usableFromInline var entries: [Entry]

    /// No properties.
    @inlinable public init() { entries = [] }

    /// The properties of a dictionary.
    public init(_ dictionary: [String: String]) {
        entries = dictionary.map { Entry(key: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        // A literal names each key once (as a dictionary literal must): no search needed.
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
        assert(Set(entries.map(\.key)).count == entries.count, "duplicate key in a properties literal")
    }

    /// Room for this many entries is made at the first one: analysis often adds a few properties to
    /// a node one by one, and growing 1 → 2 → 4 would allocate three times.
    @usableFromInline static let initialCapacity = 4

    /// The value of `key`; setting nil removes it.
    @inlinable public subscript(key: String) -> String? {
        get {
            for e in entries where e.key == key { return e.value }
            return nil
        }
        set {
            if let i = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                if entries.capacity == 0 { entries.reserveCapacity(SemanticProperties.initialCapacity) }
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// Whether there are no properties.
    @inlinable public var isEmpty: Bool { entries.isEmpty }
    /// How many properties there are.
    @inlinable public var count: Int { entries.count }
    /// The names, in the order they were first set.
    public var keys: [String] { entries.map(\.key) }
    /// The properties as a dictionary.
    public var dictionary: [String: String] {
        var d: [String: String] = [:]
        for e in entries { d[e.key] = e.value }
        return d
    }

    /// Adds `other`'s properties; for a name both have, `combine` picks the value (old, new).
    public mutating func merge(_ other: SemanticProperties, uniquingKeysWith combine: (String, String) -> String) {
        for e in other.entries {
            if let old = self[e.key] { self[e.key] = combine(old, e.value) } else { entries.append(e) }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: String)> {
        entries.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }

    /// Equal when they hold the same names with the same values, in any order.
    public static func == (a: SemanticProperties, b: SemanticProperties) -> Bool {
        guard a.entries.count == b.entries.count else { return false }
        for e in a.entries where b[e.key] != e.value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for e in entries.sorted(by: { $0.key < $1.key }) {
            hasher.combine(e.key)
            hasher.combine(e.value)
        }
    }

    public var description: String { dictionary.description }
}
