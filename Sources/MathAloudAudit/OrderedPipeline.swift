import Foundation

/// Runs `work` over `count` items on several threads and hands the results to `consume` in input
/// order, on the calling thread, keeping at most `window` results waiting: results are streamed and
/// memory stays flat whatever the number of items (issue 15, "Scale").
enum OrderedPipeline {
    static func run<T>(count: Int, threads: Int, window: Int, work: @escaping @Sendable (Int) -> T, consume: (Int, T) -> Void) {
        let threads = max(1, min(threads, count))
        if threads == 1 || count <= 1 {
            for i in 0..<count { consume(i, work(i)) }
            return
        }
        let state = PipelineState<T>(window: max(window, threads))
        for _ in 0..<threads {
            let thread = Thread {
                while let index = state.claim(limit: count) {
                    let result = work(index)
                    state.deliver(index, result)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for i in 0..<count { consume(i, state.take(i)) }
    }
}

/// The shared state of an ordered pipeline: the next index to claim, the finished results, and a
/// condition variable; a worker waits when it is `window` items ahead of the consumer.
private final class PipelineState<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var consumed = 0
    private var results: [Int: T] = [:]
    private let window: Int

    init(window: Int) { self.window = window }

    func claim(limit: Int) -> Int? {
        condition.lock(); defer { condition.unlock() }
        while next < limit && next - consumed >= window { condition.wait() }
        guard next < limit else { return nil }
        defer { next += 1 }
        return next
    }

    func deliver(_ index: Int, _ result: T) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    func take(_ index: Int) -> T {
        condition.lock(); defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        consumed = index + 1
        condition.broadcast()
        return results.removeValue(forKey: index)!
    }
}
