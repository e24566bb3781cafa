/// The properties of a semantic node: a few (usually fewer than eight) names with string values.
///
/// Stored as a short list searched in order rather than a hash table: building a node's properties
/// and reading them back is the analysis's and the speech rules' most frequent operation, and for
/// so few entries a scan of inline strings is several times cheaper than hashing every name.
/// Behaves like a `[String: String]` (subscript, iteration, order-independent equality).
public struct SemanticProperties: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// (name, value) pairs in the order they were first set. Plain tuples, so a literal's own
    /// argument array becomes the storage without a copy.
    @usableFromInline var entries: [(String, String)]

    /// No properties.
    @inlinable public init() { entries = [] }

    /// The properties of a dictionary.
    public init(_ dictionary: [String: String]) {
        entries = dictionary.map { ($0.key, $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        // A literal names each key once (as a dictionary literal must): no search needed.
        entries = elements
        assert(Set(entries.map(\.0)).count == entries.count, "duplicate key in a properties literal")
    }

    /// Room for this many entries is made at the first one: analysis often adds a few properties to
    /// a node one by one, and growing 1 → 2 → 4 would allocate three times.
    @usableFromInline static let initialCapacity = 4

    /// The value of `key`; setting nil removes it.
    @inlinable public subscript(key: String) -> String? {
        get {
            for e in entries where e.0 == key { return e.1 }
            return nil
        }
        set {
            if let i = entries.firstIndex(where: { $0.0 == key }) {
                if let newValue { entries[i].1 = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                if entries.capacity == 0 { entries.reserveCapacity(SemanticProperties.initialCapacity) }
                entries.append((key, newValue))
            }
        }
    }

    /// Whether there are no properties.
    @inlinable public var isEmpty: Bool { entries.isEmpty }
    /// How many properties there are.
    @inlinable public var count: Int { entries.count }
    /// The names, in the order they were first set.
    public var keys: [String] { entries.map(\.0) }
    /// The properties as a dictionary.
    public var dictionary: [String: String] {
        var d: [String: String] = [:]
        for e in entries { d[e.0] = e.1 }
        return d
    }

    /// Adds `other`'s properties; for a name both have, `combine` picks the value (old, new).
    public mutating func merge(_ other: SemanticProperties, uniquingKeysWith combine: (String, String) -> String) {
        for e in other.entries {
            if let old = self[e.0] { self[e.0] = combine(old, e.1) } else { entries.append(e) }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: String)> {
        entries.lazy.map { (key: $0.0, value: $0.1) }.makeIterator()
    }

    /// Equal when they hold the same names with the same values, in any order.
    public static func == (a: SemanticProperties, b: SemanticProperties) -> Bool {
        guard a.entries.count == b.entries.count else { return false }
        for e in a.entries where b[e.0] != e.1 { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for e in entries.sorted(by: { $0.0 < $1.0 }) {
            hasher.combine(e.0)
            hasher.combine(e.1)
        }
    }

    public var description: String { dictionary.description }
}
