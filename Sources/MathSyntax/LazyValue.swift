import Foundation

/// A value made on first use, under a lock: a part of a shared, immutable table that not every user
/// needs (the untested candidate lists of a rule table, a locale's written unit names). Read from any
/// thread.
package final class LazyValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Value?

    package init() {}

    /// A value already made.
    package init(_ value: Value) { made = value }

    /// The value, made by `make` on the first call.
    package func value(_ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
