import Foundation
import MathAloud

/// A bounded, thread-safe cache of formulas read for documents and streams: speech, MathML and images
/// by (formula, options). When full, the entries stored longest ago make room. Hit and miss counts
/// are kept, so the rate is visible (`convert --stats`, ``statistics``).
public final class FormulaCache: Sendable {
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

    struct Key: Hashable, Sendable {
        let source: String
        let notation: FormulaNotation
        let display: Bool
        let definitions: Int
        let products: Int
        let errorColor: String?
    }

    private let maxSourceBytes: Int
    private let cache: BoundedCache<Key, FormulaResult>

    /// A cache of at most `capacity` formulas (0 turns it off); formulas longer than `maxSourceBytes`
    /// are not kept.
    public init(capacity: Int = 4096, maxSourceBytes: Int = 16 << 10) {
        cache = BoundedCache(capacity: capacity)
        self.maxSourceBytes = maxSourceBytes
    }

    /// The counts so far.
    public var statistics: Statistics {
        let s = cache.statistics
        return Statistics(hits: s.hits, misses: s.misses, entries: s.count, capacity: cache.capacity)
    }

    /// Forgets every entry and count.
    public func removeAll() { cache.removeAll() }

    func value(for key: Key) -> FormulaResult? { cache.value(for: key) }

    func store(_ value: FormulaResult, for key: Key) {
        guard key.source.utf8.count <= maxSourceBytes else { return }
        cache.store(value, for: key)
    }
}
