import Foundation
import MathAloud

/// The access log: one line per request (JSON by default) with the request id, method, path, route,
/// status, latency and bytes sent, plus lines for server events (start, reload, drain). Thread-safe;
/// each line is written with one `write`.
public final class AccessLog: @unchecked Sendable {
    /// Where lines go.
    public enum Output: Sendable {
        /// Standard output.
        case standardOutput
        /// Standard error.
        case standardError
        /// A closure (tests collect lines).
        case lines(@Sendable (String) -> Void)

        var isStandardOutput: Bool { if case .standardOutput = self { return true } else { return false } }
    }

    let format: ServerConfiguration.LogFormat
    let output: Output
    private let lock = NSLock()

    /// Creates a log.
    public init(format: ServerConfiguration.LogFormat, output: Output) {
        self.format = format
        self.output = output
    }

    /// Logs a finished request.
    func request(_ e: CompletedExchange) {
        switch format {
        case .off: return
        case .text:
            write("\(e.head.id) \(e.head.method) \(e.head.path) \(e.status) \(String(format: "%.3f", e.seconds * 1000))ms \(e.bytes)B"
                  + (e.completed ? "" : " incomplete"))
        case .json:
            var line = "{\"time\":" + JSONString.quote(AccessLog.timestamp())
            line += ",\"id\":" + JSONString.quote(e.head.id)
            line += ",\"method\":" + JSONString.quote(e.head.method)
            line += ",\"path\":" + JSONString.quote(String(e.head.path.prefix(256)))
            line += ",\"route\":" + JSONString.quote(e.route)
            line += ",\"status\":\(e.status)"
            line += ",\"ms\":" + String(format: "%.3f", e.seconds * 1000)
            line += ",\"bytes\":\(e.bytes)"
            line += ",\"client\":" + JSONString.quote(e.head.client)
            if !e.completed { line += ",\"completed\":false" }
            write(line + "}")
        }
    }

    /// Logs a server event with string fields.
    public func event(_ name: String, _ fields: [String: String] = [:]) {
        switch format {
        case .off, .text:
            // Events always reach standard error in text form, so a reload failure is seen.
            let text = "mathaloud serve: \(name)" + fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            if format == .text { write(text) } else { StandardStream.error.write(text + "\n") }
        case .json:
            var line = "{\"time\":" + JSONString.quote(AccessLog.timestamp()) + ",\"event\":" + JSONString.quote(name)
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) { line += "," + JSONString.quote(k) + ":" + JSONString.quote(v) }
            write(line + "}")
        }
    }

    private func write(_ line: String) {
        switch output {
        case .lines(let sink): sink(line)
        case .standardOutput, .standardError:
            // One write per line under the lock, so lines of concurrent requests never interleave.
            lock.lock()
            (output.isStandardOutput ? StandardStream.output : .error).write(line + "\n")
            lock.unlock()
        }
    }

    /// UTC time with milliseconds, RFC 3339.
    static func timestamp() -> String {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        var tm = tm()
        var seconds = t.tv_sec
        gmtime_r(&seconds, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday),
                      Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec), Int(t.tv_nsec / 1_000_000))
    }
}
