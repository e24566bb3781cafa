import Foundation

/// A bounded, thread-safe cache with hit and miss counts. When it is full, the entry stored longest
/// ago makes room (its keys are kept in a ring, so a store costs O(1)). A capacity of 0 turns it off.
/// It serves the speaker's cache of spoken formulas and the documents layer's `FormulaCache`.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// The most entries held.
    public let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: Value] = [:]
    private var order: [Key] = []
    private var head = 0
    private var hits = 0, misses = 0

    /// A cache of at most `capacity` entries.
    public init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The value stored for `key`, counted as a hit or a miss.
    public func value(for key: Key) -> Value? {
        guard capacity > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        let value = entries[key]
        if value != nil { hits &+= 1 } else { misses &+= 1 }
        return value
    }

    /// Stores a value unless the key is already there; when full, the oldest entry goes.
    public func store(_ value: Value, for key: Key) {
        guard capacity > 0 else { return }
        lock.lock(); defer { lock.unlock() }
        if entries[key] != nil { return }
        if order.count < capacity {
            order.append(key)
        } else {
            entries[order[head]] = nil
            order[head] = key
            head = (head + 1) % capacity
        }
        entries[key] = value
    }

    /// Hits, misses and the entries held now.
    public var statistics: (hits: Int, misses: Int, count: Int) {
        lock.lock(); defer { lock.unlock() }
        return (hits, misses, entries.count)
    }

    /// Forgets every entry and count.
    public func removeAll() {
        lock.lock(); defer { lock.unlock() }
        entries = [:]
        order = []
        head = 0
        hits = 0
        misses = 0
    }
}
