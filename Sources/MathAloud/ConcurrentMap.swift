import Foundation

extension Array where Element: Sendable {
    /// `map` spread over the cores in contiguous chunks, results in input order. The batches (speech,
    /// render) use it; `transform` must be safe to call from several threads at once.
    package func concurrentMap<T>(threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                                  _ transform: @Sendable (Element) -> T) -> [T] {
        let workers = Swift.max(1, Swift.min(threads, count))
        guard workers > 1 else { return map(transform) }
        var results = [T?](repeating: nil, count: count)
        let chunk = (count + workers - 1) / workers
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Each worker writes only its own slots.
                for i in (worker * chunk)..<Swift.min(count, (worker + 1) * chunk) { out[i] = transform(self[i]) }
            }
        }
        return results.map { $0! }
    }
}
