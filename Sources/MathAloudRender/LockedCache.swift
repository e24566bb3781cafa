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

/// A thread-safe memo of one value per glyph id (a slot per glyph of the font, no hashing): looked up
/// under a lock, computed outside it when missing, then stored, as ``LockedCache`` does. The slots
/// are memory of its own, read and written only under the lock.
final class LockedGlyphTable<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let slots: UnsafeMutablePointer<Value?>
    private let count: Int

    /// A table for glyph ids `0..<glyphCount` (larger ids are computed each time, never stored).
    init(glyphCount: Int) {
        count = max(0, glyphCount)
        slots = .allocate(capacity: max(1, count))
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The value stored for `glyph`, if any.
    func stored(_ glyph: UInt32) -> Value? {
        let i = Int(glyph)
        guard i < count else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return slots[i]
    }

    /// Stores (or replaces) the value for `glyph`.
    func store(_ value: Value, for glyph: UInt32) {
        let i = Int(glyph)
        guard i < count else { return }
        lock.lock()
        slots[i] = value
        lock.unlock()
    }

    /// The value for `glyph`, computing and storing it with `make` the first time.
    func value(_ glyph: UInt32, _ make: () -> Value) -> Value {
        let i = Int(glyph)
        guard i < count else { return make() }
        lock.lock()
        if let v = slots[i] { lock.unlock(); return v }
        lock.unlock()
        let v = make()
        lock.lock()
        slots[i] = v
        lock.unlock()
        return v
    }
}
