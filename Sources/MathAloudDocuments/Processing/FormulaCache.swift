import Foundation
import MathAloud

/// A bounded, thread-safe cache of formulas read for documents and streams: speech, MathML and images
/// by (formula, options). When full, the entries stored longest ago make room. Hit and miss counts
/// are kept, so the rate is visible (`convert --stats`, ``statistics``).
public final class FormulaCache: @unchecked Sendable {
    /// How the cache has done.
    public struct Statistics: Sendable, Hashable, CustomStringConvertible {
        /// Look-ups that found an entry.
        public var hits = 0
        /// Look-ups that did not.
        public var misses = 0
        /// Entries held now.
        public var entries = 0
        /// The most entries held.
        public var capacity = 0
        /// Hits over look-ups (0 when there were none).
        public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }

        public var description: String {
            "\(hits) hits, \(misses) misses (\(String(format: "%.1f", 100 * hitRate)) %), \(entries)/\(capacity) entries"
        }
    }

    struct Key: Hashable {
        let source: String
        let notation: FormulaNotation
        let display: Bool
        let definitions: Int
        let products: Int
        let errorColor: String?
    }

    private let capacity: Int
    private let maxSourceBytes: Int
    private let lock = NSLock()
    private var entries: [Key: FormulaResult] = [:]
    private var order: [Key] = []
    private var head = 0
    private var stats = Statistics()

    /// A cache of at most `capacity` formulas (0 turns it off); formulas longer than `maxSourceBytes`
    /// are not kept.
    public init(capacity: Int = 4096, maxSourceBytes: Int = 16 << 10) {
        self.capacity = max(0, capacity)
        self.maxSourceBytes = maxSourceBytes
        stats.capacity = self.capacity
    }

    /// The counts so far.
    public var statistics: Statistics {
        lock.lock(); defer { lock.unlock() }
        var s = stats
        s.entries = entries.count
        return s
    }

    /// Forgets every entry and count.
    public func removeAll() {
        lock.lock(); defer { lock.unlock() }
        entries = [:]
        order = []
        head = 0
        stats = Statistics()
        stats.capacity = capacity
    }

    func value(for key: Key) -> FormulaResult? {
        guard capacity > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        if let v = entries[key] {
            stats.hits += 1
            return v
        }
        stats.misses += 1
        return nil
    }

    func store(_ value: FormulaResult, for key: Key) {
        guard capacity > 0, key.source.utf8.count <= maxSourceBytes else { return }
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
}
