import Foundation

/// Runs `first` and `second` at the same time, on the calling thread and one other, when the machine
/// has more than one core (one after the other when it has one), and returns both results. For the
/// independent parts of loading a speaker — the halves of a large rule file, a locale's words and its
/// style — which a cold start waits for (`BENCHMARKS.md`, session 44). The two must not share
/// mutable state.
package func bothAtOnce<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
    guard ProcessInfo.processInfo.activeProcessorCount > 1 else { return (first(), second()) }
    // Each slot is written by one of the two iterations only, and read after both have returned.
    let results = PairSlots<A, B>()
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            nonisolated(unsafe) let first = first, second = second
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                if k == 0 { results.first = first() } else { results.second = second() }
            }
        }
    }
    return (results.first!, results.second!)
}

/// The two results of ``bothAtOnce(_:_:)``.
private final class PairSlots<A, B>: @unchecked Sendable {
    var first: A?
    var second: B?
}

/// Work started on another thread when made, and waited for by ``wait()`` (called once): for a part of
/// loading a speaker that nothing else needs until the end (a locale's words, while its style is
/// compiled). Run on the calling thread at once when the machine has one core.
package final class WorkAside<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the work before it signals `done`, read after `wait()` has waited for it.
    private var result: T?

    /// Starts `work`.
    package init(_ work: @escaping @Sendable () -> T) {
        guard ProcessInfo.processInfo.activeProcessorCount > 1 else {
            result = work()
            done.signal()
            return
        }
        // A thread of its own, not a dispatch queue's: a speaker loaded on a queue's worker (a batch line
        // that names a new locale) would otherwise wait for a worker of the same pool.
        let thread = Thread {
            self.result = work()
            self.done.signal()
        }
        thread.start()
    }

    /// The work's result, once it has finished.
    package func wait() -> T {
        done.wait()
        return result!
    }
}
