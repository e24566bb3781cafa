import Foundation

/// Counters and latency histograms for `GET /metrics`, in the Prometheus text exposition format
/// (version 0.0.4): requests by route and status, latency histograms by route, requests in flight,
/// open connections, speech-cache hits and misses, rule reloads. Thread-safe.
public final class ServiceMetrics: @unchecked Sendable {
    /// Histogram bucket bounds in seconds.
    public static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [UInt64](repeating: 0, count: ServiceMetrics.buckets.count)
        var sum = 0.0
        var count: UInt64 = 0
    }

    private struct RouteStatus: Hashable {
        let route: String
        let status: Int
    }

    private let lock = NSLock()
    private var requests: [RouteStatus: UInt64] = [:]
    private var latency: [String: Histogram] = [:]
    private var aborted: [String: UInt64] = [:]
    private var reloads: [String: UInt64] = [:]
    private var batchLines: UInt64 = 0
    private let started = Date()

    /// Creates empty metrics.
    public init() {}

    /// Records a finished request.
    public func record(route: String, status: Int, seconds: Double, completed: Bool) {
        lock.lock()
        defer { lock.unlock() }
        requests[RouteStatus(route: route, status: status), default: 0] += 1
        var h = latency[route] ?? Histogram()
        if let i = ServiceMetrics.buckets.firstIndex(where: { seconds <= $0 }) { h.counts[i] += 1 }
        h.sum += seconds
        h.count += 1
        latency[route] = h
        if !completed { aborted[route, default: 0] += 1 }
    }

    /// Records a reload of the rules (`ok` or `failed`).
    public func recordReload(_ outcome: String) {
        lock.lock()
        reloads[outcome, default: 0] += 1
        lock.unlock()
    }

    /// Records lines answered by `/v1/speech:batch`.
    public func recordBatchLines(_ n: Int) {
        lock.lock()
        batchLines += UInt64(n)
        lock.unlock()
    }

    /// The exposition text. `gauges` are added as they are (name → value, with HELP text).
    public func exposition(inFlight: Int, connections: Int, cache: (hits: Int, misses: Int), draining: Bool) -> String {
        lock.lock()
        let requests = self.requests, latency = self.latency, aborted = self.aborted, reloads = self.reloads
        let batchLines = self.batchLines
        lock.unlock()
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("mathaloud_http_requests_total", "counter", "HTTP requests answered, by route and status.")
        for (key, n) in requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
            out += "mathaloud_http_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(n)\n"
        }
        family("mathaloud_http_request_duration_seconds", "histogram", "Time from the request head to the end of the response.")
        for (route, h) in latency.sorted(by: { $0.key < $1.key }) {
            var cumulative: UInt64 = 0
            for (i, bound) in ServiceMetrics.buckets.enumerated() {
                cumulative += h.counts[i]
                out += "mathaloud_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "mathaloud_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(h.count)\n"
            out += "mathaloud_http_request_duration_seconds_sum{route=\"\(route)\"} \(h.sum)\n"
            out += "mathaloud_http_request_duration_seconds_count{route=\"\(route)\"} \(h.count)\n"
        }
        family("mathaloud_http_requests_aborted_total", "counter", "Requests whose response was not sent completely (client gone, timeout).")
        for (route, n) in aborted.sorted(by: { $0.key < $1.key }) {
            out += "mathaloud_http_requests_aborted_total{route=\"\(route)\"} \(n)\n"
        }
        family("mathaloud_http_requests_in_flight", "gauge", "Requests whose head has been read and whose response is not yet sent.")
        out += "mathaloud_http_requests_in_flight \(inFlight)\n"
        family("mathaloud_http_connections", "gauge", "Open connections.")
        out += "mathaloud_http_connections \(connections)\n"
        family("mathaloud_speech_cache_hits_total", "counter", "Formulas answered from a speaker's cache.")
        out += "mathaloud_speech_cache_hits_total \(cache.hits)\n"
        family("mathaloud_speech_cache_misses_total", "counter", "Formulas spoken afresh.")
        out += "mathaloud_speech_cache_misses_total \(cache.misses)\n"
        family("mathaloud_batch_lines_total", "counter", "Lines answered by /v1/speech:batch.")
        out += "mathaloud_batch_lines_total \(batchLines)\n"
        family("mathaloud_rule_reloads_total", "counter", "Reloads of the rules directory (SIGHUP), by outcome.")
        for outcome in ["ok", "failed"] {
            out += "mathaloud_rule_reloads_total{outcome=\"\(outcome)\"} \(reloads[outcome] ?? 0)\n"
        }
        family("mathaloud_draining", "gauge", "1 while the server drains before it stops.")
        out += "mathaloud_draining \(draining ? 1 : 0)\n"
        family("mathaloud_uptime_seconds", "gauge", "Seconds since the server started.")
        out += "mathaloud_uptime_seconds \(Date().timeIntervalSince(started))\n"
        return out
    }
}
