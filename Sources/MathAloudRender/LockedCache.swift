import Foundation

/// A thread-safe memo of values computed from a font (outlines, SVG paths, size variants, assemblies,
/// script forms): looked up under a lock, computed outside it when missing (two threads may compute
/// the same value once each; both results are equal), then stored.
final class LockedCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    /// The value for `key`, computing and storing it with `make` the first time.
    func value(_ key: Key, _ make: () -> Value) -> Value {
        lock.lock()
        if let v = values[key] { lock.unlock(); return v }
        lock.unlock()
        let v = make()
        lock.lock()
        values[key] = v
        lock.unlock()
        return v
    }
}
