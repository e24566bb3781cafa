import Foundation
#if os(Linux)
import Synchronization
#endif

/// A thread-safe memo of values computed from a font (outlines, SVG paths, size variants, assemblies,
/// script forms), one slot per glyph id (or per glyph and direction or level: the caller numbers the
/// slots), so a look-up is an index, not a hash. Looked up under a lock, computed outside it when
/// missing (two threads may compute the same value once each; both results are equal), then stored.
/// The slots are memory of its own, read and written only under the lock.
final class LockedGlyphTable<Value>: @unchecked Sendable {
    private let lock = GlyphTableLock()
    /// The slots, allocated when the first value is stored (many tables of a font are never used).
    private var slots: UnsafeMutablePointer<Value?>? = nil
    private let count: Int

    /// A table of slots `0..<slotCount` (larger slot numbers are computed each time, never stored).
    init(slotCount: Int) {
        count = max(0, slotCount)
    }

    deinit {
        guard let slots else { return }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The value stored in `slot`, if any.
    func stored(_ slot: Int) -> Value? {
        guard slot >= 0, slot < count else { return nil }
        return lock.withLock { slots?[slot] }
    }

    /// Stores (or replaces) the value in `slot`.
    func store(_ value: Value, in slot: Int) {
        guard slot >= 0, slot < count else { return }
        lock.withLock {
            if slots == nil {
                let memory = UnsafeMutablePointer<Value?>.allocate(capacity: count)
                memory.initialize(repeating: nil, count: count)
                slots = memory
            }
            slots![slot] = value
        }
    }

    /// The value in `slot`, computing and storing it with `make` the first time.
    func value(_ slot: Int, _ make: () -> Value) -> Value {
        if let v = stored(slot) { return v }
        let v = make()
        store(v, in: slot)
        return v
    }
}

/// The lock of a ``LockedGlyphTable``: taken about fifteen times per formula rendered to SVG (glyph
/// look-ups, script forms, outlines). On Linux the standard library's `Mutex` (an atomic compare and
/// exchange, the futex only when contended); `NSLock` there wraps an `NSCondition` around a pthread
/// mutex and cost 1.1 k instructions per formula (`MathAloudBench render-svg-profile` under callgrind,
/// session 12). Elsewhere `NSLock` (`Mutex` needs macOS 15; the package supports macOS 13).
private final class GlyphTableLock: Sendable {
    #if os(Linux)
    private let mutex = Mutex(())

    @inline(__always)
    func withLock<R>(_ body: () -> R) -> R {
        mutex.withLock { _ in body() }
    }
    #else
    private let lock = NSLock()

    @inline(__always)
    func withLock<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
    #endif
}
