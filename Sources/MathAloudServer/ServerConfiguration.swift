import Foundation

/// Everything `mathaloud serve` can be told, with its defaults. Each setting has a flag (`--port`) and
/// an environment variable (`MATHALOUD_PORT`): ``settings`` lists them, ``set(_:_:)`` reads one.
public struct ServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to listen on.
    public var address = "127.0.0.1"
    /// TCP port (0: any free port).
    public var port = 8080
    /// Pool threads that answer requests (default: the cores).
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Largest request body in bytes (the batch route has no body limit: it streams).
    public var maxBodyBytes = 1 << 20
    /// Largest formula (`tex` or `mathml`) in bytes, and largest batch line.
    public var maxFormulaBytes = 64 << 10
    /// Seconds one formula may take (parse, analysis, speech, layout); longer ones are stopped (504).
    public var requestTimeout = 2.0
    /// Open connections at most.
    public var maxConnections = 4096
    /// Connections per client address (0: no limit).
    public var maxConnectionsPerClient = 0
    /// Seconds an idle keep-alive connection is kept.
    public var keepAliveTimeout = 15
    /// Seconds a client may take to send a request head; a body must arrive at 1 KiB/s or more over
    /// each such window (slower clients are cut off).
    public var readTimeout = 30.0
    /// Batch requests at once (more are answered 503 overloaded).
    public var maxBatches = 2 * ProcessInfo.processInfo.activeProcessorCount
    /// Seconds a SIGTERM drain waits for requests in flight.
    public var drainGrace = 20.0
    /// A rules directory laid over the built-in rules (reloaded on SIGHUP).
    public var rulesDirectory: URL?
    /// The access log's format.
    public var logFormat: LogFormat = .json
    /// Bearer tokens (`--api-keys FILE`); nil: no authentication.
    public var apiKeys: APIKeys?
    /// Routes that need no key when keys are on.
    public var openRoutes: Set<String> = ["/healthz", "/readyz"]
    /// Requests per second per client (API key, or address without keys); 0: no limit.
    public var rateLimit = 0.0
    /// Burst allowance of the rate limit (default: one second's worth).
    public var rateBurst: Double?
    /// Origins allowed to call from a browser (CORS); empty: off.
    public var corsOrigins: [String] = []

    /// The access log's format.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// One JSON object per line.
        case json
        /// `id method path status ms bytes` per line.
        case text
        /// No access log.
        case off
    }

    /// Creates the defaults.
    public init() {}

    /// One setting: its flag name (without `--`), its value's shape, and what it means.
    public struct Setting: Sendable {
        /// The flag name without dashes (`port`).
        public let name: String
        /// The value's shape (`N`, `SECONDS`…).
        public let value: String
        /// What it means, with the default.
        public let help: String
        /// `MATHALOUD_` and the name in capitals with `_` for `-`.
        public var environmentVariable: String { "MATHALOUD_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
    }

    /// Every setting, in the order `--help` lists them.
    public static let settings: [Setting] = [
        Setting(name: "address", value: "ADDR", help: "numeric IPv4/IPv6 address to listen on (default 127.0.0.1; 0.0.0.0 or :: for all)"),
        Setting(name: "port", value: "N", help: "TCP port (default 8080; 0 picks a free one)"),
        Setting(name: "threads", value: "N", help: "threads answering requests (default: the cores)"),
        Setting(name: "max-body", value: "BYTES", help: "largest request body (default 1048576; the batch route streams and has none)"),
        Setting(name: "max-formula", value: "BYTES", help: "largest formula and batch line (default 65536)"),
        Setting(name: "request-timeout", value: "SECONDS", help: "time one formula may take before it is stopped (default 2)"),
        Setting(name: "max-connections", value: "N", help: "open connections at most (default 4096)"),
        Setting(name: "max-connections-per-client", value: "N", help: "connections per client address (default 0: no limit)"),
        Setting(name: "keep-alive", value: "SECONDS", help: "idle keep-alive connections are closed after this (default 15)"),
        Setting(name: "read-timeout", value: "SECONDS", help: "time a client may take to send a request head, and each such window of body at 1 KiB/s or more (default 30; slower clients are cut off)"),
        Setting(name: "max-batches", value: "N", help: "batch requests at once, more get 503 (default: twice the cores)"),
        Setting(name: "drain-grace", value: "SECONDS", help: "on SIGTERM, how long requests in flight may finish (default 20)"),
        Setting(name: "rules-dir", value: "DIR", help: "rules and words laid over the built-in ones; SIGHUP reloads them (also MATHALOUD_RULES)"),
        Setting(name: "log-format", value: "json|text|off", help: "access log on standard output (default json)"),
        Setting(name: "api-keys", value: "FILE", help: "require 'Authorization: Bearer KEY' with a key from FILE ('[NAME] KEY' per line)"),
        Setting(name: "open-routes", value: "PATHS", help: "comma-separated routes that need no key (default /healthz,/readyz)"),
        Setting(name: "rate-limit", value: "N", help: "requests per second per key (or per address without keys); 0: none (default)"),
        Setting(name: "rate-burst", value: "N", help: "requests a client may send at once (default: the rate)"),
        Setting(name: "cors-origins", value: "ORIGINS", help: "comma-separated origins allowed from browsers, or * (default: none, CORS off)"),
    ]

    /// Sets one setting from its text (a flag's or an environment variable's value).
    public mutating func set(_ name: String, _ value: String) throws(ConfigurationError) {
        func number(_ range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
            guard let n = Double(value), range.contains(n) else {
                throw ConfigurationError("--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return n
        }
        func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw ConfigurationError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return n
        }
        func list() -> [String] {
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        switch name {
        case "address": address = value
        case "port": port = try integer(0...65535)
        case "threads": threads = try integer(1...1024)
        case "max-body": maxBodyBytes = try integer(1024...(1 << 30))
        case "max-formula": maxFormulaBytes = try integer(16...(16 << 20))
        case "request-timeout": requestTimeout = try number(0.001...3600)
        case "max-connections": maxConnections = try integer(1...1_000_000)
        case "max-connections-per-client": maxConnectionsPerClient = try integer(0...1_000_000)
        case "keep-alive": keepAliveTimeout = try integer(1...3600)
        case "read-timeout": readTimeout = try number(0...3600)
        case "max-batches": maxBatches = try integer(1...100_000)
        case "drain-grace": drainGrace = try number(0...3600)
        case "rules-dir": rulesDirectory = value.isEmpty ? nil : URL(fileURLWithPath: value)
        case "log-format":
            guard let f = LogFormat(rawValue: value) else { throw ConfigurationError("--log-format must be json, text or off") }
            logFormat = f
        case "api-keys": apiKeys = value.isEmpty ? nil : try APIKeys(contentsOf: URL(fileURLWithPath: value))
        case "open-routes": openRoutes = Set(list())
        case "rate-limit": rateLimit = try number(0...1e9)
        case "rate-burst": rateBurst = try number(1...1e9)
        case "cors-origins": corsOrigins = list()
        default: throw ConfigurationError("unknown setting --\(name)")
        }
    }

    /// Applies the `MATHALOUD_*` environment variables that are set (flags given afterwards win).
    public mutating func applyEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) {
        for setting in ServerConfiguration.settings {
            if let value = environment[setting.environmentVariable] {
                do { try set(setting.name, value) } catch {
                    throw ConfigurationError("\(setting.environmentVariable): \(error.description)")
                }
            }
        }
    }
}
