import Foundation
import MathAloud

/// Buffered writing to standard output and standard error.
struct Output {
    private var buffer: [UInt8] = []

    mutating func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ s: String) { write(s); write("\n") }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStream.output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func error(_ s: String) {
        StandardStream.error.write(s)
    }
}

/// Exit codes of `mathaloud` (documented in the README).
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// The input had errors (error diagnostics); output was still written where possible.
    case inputErrors = 1
    /// The command line was wrong.
    case usage = 2
    /// A file could not be read or written.
    case io = 3
    /// Speech rules or words could not be loaded (bad rule file, unknown locale or style).
    case rules = 4
    /// eSpeak-NG (its library data) or the requested voice is not available (`say`).
    case voice = 5
    /// A font, or the library an image format needs (cairo for PNG and PDF), could not be loaded (render).
    case font = 6
    /// The HTTP server could not start (libmicrohttpd missing, address in use) (serve).
    case server = 7
}
