import Foundation

/// Bearer tokens read from a file (`--api-keys FILE`): one key per line, optionally preceded by a name
/// and whitespace (`ci-bot 5f2c…`), `#` starts a comment. The name (or `key-N`) is what the access log
/// and the rate limiter use; a key itself is never logged.
public struct APIKeys: Sendable {
    /// Key → name.
    let names: [String: String]

    /// Reads the keys. Throws a message with the line when a line is unusable.
    public init(contentsOf url: URL) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigurationError("cannot read the API keys file \(url.lastPathComponent)")
        }
        try self.init(text: String(decoding: data, as: UTF8.self), file: url.lastPathComponent)
    }

    /// Reads keys from text (the file's contents).
    public init(text: String, file: String = "keys") throws(ConfigurationError) {
        var names: [String: String] = [:]
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count <= 2, let key = fields.last, key.count >= 16 else {
                throw ConfigurationError("\(file):\(number + 1): expected 'KEY' or 'NAME KEY' with a key of at least 16 characters")
            }
            names[String(key)] = fields.count == 2 ? String(fields[0]) : "key-\(names.count + 1)"
        }
        guard !names.isEmpty else { throw ConfigurationError("\(file): no API keys") }
        self.names = names
    }

    /// The key's name when `authorization` is `Bearer KEY` with a known key. Compares every known key
    /// in full, so the time taken does not tell how much of a key was right.
    public func name(forAuthorization authorization: String?) -> String? {
        guard let authorization, authorization.count > 7,
              authorization.prefix(7).lowercased() == "bearer " else { return nil }
        let given = Array(authorization.dropFirst(7).trimmingCharacters(in: .whitespaces).utf8)
        var found: String?
        for (key, name) in names {
            let k = Array(key.utf8)
            var difference = UInt8(k.count == given.count ? 0 : 1)
            for i in 0..<k.count { difference |= k[i] ^ (i < given.count ? given[i] : 0) }
            if difference == 0 { found = name }
        }
        return found
    }
}

/// A token bucket per client (API key name, or address when keys are off): `rate` requests per
/// second on average, bursts of `burst`. Thread-safe; forgets clients idle for a minute.
public final class RateLimiter: @unchecked Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// Requests per second per client.
    public let rate: Double
    /// Requests a client may send at once.
    public let burst: Double
    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]
    private var lastSweep = 0.0
    private let clock: @Sendable () -> Double

    /// Creates a limiter; `clock` gives seconds (tests pass their own).
    public init(rate: Double, burst: Double? = nil,
                clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.rate = rate
        self.burst = max(1, burst ?? rate)
        self.clock = clock
    }

    /// Takes a token for `client`: nil when allowed, else the seconds until the next token.
    public func take(_ client: String) -> Double? {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        if now - lastSweep > 60 {
            buckets = buckets.filter { now - $0.value.updated < 60 }
            lastSweep = now
        }
        var b = buckets[client] ?? Bucket(tokens: burst, updated: now)
        b.tokens = min(burst, b.tokens + (now - b.updated) * rate)
        b.updated = now
        if b.tokens >= 1 {
            b.tokens -= 1
            buckets[client] = b
            return nil
        }
        buckets[client] = b
        return (1 - b.tokens) / rate
    }
}

/// Cross-origin requests (CORS): off unless origins are given; `*` allows any origin.
public struct CORSPolicy: Sendable {
    /// Allowed origins (`https://example.org`), or `*`.
    public let origins: [String]

    /// Creates a policy.
    public init(origins: [String]) { self.origins = origins }

    /// Whether the policy is on.
    public var isEnabled: Bool { !origins.isEmpty }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`, or nil when not allowed.
    public func allowedOrigin(_ origin: String?) -> String? {
        guard let origin, isEnabled else { return nil }
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }
}

/// A configuration value that cannot be used (a flag, an environment variable, a keys file).
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
