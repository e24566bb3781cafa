import Foundation
import Testing
@testable import MathAloudServer

/// Keys, rate limits, CORS, the access log, reloading rules, draining, and clients that hold
/// connections.
@Suite("Operation", .serialized)
struct OperationTests {
    static let key = "0123456789abcdef-test-key"

    @Test func apiKeys() throws {
        let s = try TestServer { $0.apiKeys = try APIKeys(text: "# keys\nci \(OperationTests.key)\n") }
        let none = try s.post("/v1/speech", #"{"tex": "x"}"#)
        #expect(none.status == 401)
        #expect(none.errorCode == "unauthorized")
        #expect(none.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try s.post("/v1/speech", #"{"tex": "x"}"#, headers: ["Authorization": "Bearer wrong-key-wrong-key"]).status == 401)
        #expect(try s.post("/v1/speech", #"{"tex": "x"}"#, headers: ["Authorization": "Bearer \(OperationTests.key)"]).status == 200)
        #expect(try s.call("GET", "/healthz").status == 200)      // open by default
        #expect(try s.call("GET", "/readyz").status == 200)
        #expect(try s.call("GET", "/metrics").status == 401)      // not open unless listed
        #expect(throws: ConfigurationError.self) { try APIKeys(text: "short\n") }
        #expect(throws: ConfigurationError.self) { try APIKeys(text: "# nothing\n") }
        // The key is never logged; its name is not either (only the client address).
        #expect(!s.log.joined().contains(OperationTests.key))
    }

    @Test func openRoutesAreConfigurable() throws {
        let s = try TestServer {
            $0.apiKeys = try APIKeys(text: OperationTests.key)
            try $0.set("open-routes", "/healthz,/metrics")
        }
        #expect(try s.call("GET", "/metrics").status == 200)
        #expect(try s.call("GET", "/readyz").status == 401)
    }

    @Test func rateLimit() throws {
        let s = try TestServer { $0.rateLimit = 2; $0.rateBurst = 3 }
        let statuses = try (0..<6).map { _ in try s.post("/v1/speech", #"{"tex": "x"}"#) }
        #expect(statuses.prefix(3).allSatisfy { $0.status == 200 })
        let limited = try #require(statuses.last)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rate-limited")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(try s.call("GET", "/healthz").status == 200)   // probes are never limited
    }

    @Test func rateLimiterRefills() {
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        let limiter = RateLimiter(rate: 10, burst: 2) { clock.now }
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") != nil)
        #expect(limiter.take("b") == nil)     // per client
        clock.now = 0.1
        #expect(limiter.take("a") == nil)
    }

    @Test func corsIsOffByDefaultAndConfigurable() throws {
        let off = try TestServer()
        let plain = try off.post("/v1/speech", #"{"tex": "x"}"#, headers: ["Origin": "https://example.org"])
        #expect(plain.headers["access-control-allow-origin"] == nil)
        #expect(try off.call("OPTIONS", "/v1/speech", headers: ["Origin": "https://example.org"]).status == 405)

        let on = try TestServer { $0.corsOrigins = ["https://example.org"] }
        let pre = try on.call("OPTIONS", "/v1/speech", headers: ["Origin": "https://example.org", "Access-Control-Request-Method": "POST"])
        #expect(pre.status == 204)
        #expect(pre.headers["access-control-allow-origin"] == "https://example.org")
        #expect(pre.headers["access-control-allow-methods"]?.contains("POST") == true)
        let post = try on.post("/v1/speech", #"{"tex": "x"}"#, headers: ["Origin": "https://example.org"])
        #expect(post.headers["access-control-allow-origin"] == "https://example.org")
        #expect(post.headers["vary"] == "Origin")
        // A page may read an image's label and an audio's speech.
        #expect(post.headers["access-control-expose-headers"]?.contains("X-Label") == true)
        #expect(post.headers["access-control-expose-headers"]?.contains("X-Speech") == true)
        let other = try on.post("/v1/speech", #"{"tex": "x"}"#, headers: ["Origin": "https://evil.example"])
        #expect(other.headers["access-control-allow-origin"] == nil)
    }

    @Test func accessLogHasOneJSONLinePerRequestWithItsId() throws {
        let s = try TestServer()
        _ = try s.post("/v1/speech", #"{"tex": "x"}"#, headers: ["X-Request-Id": "abc-123"])
        _ = try s.call("GET", "/nope")
        usleep(100_000)
        let lines = s.log.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] == nil }
        let speech = try #require(lines.first { $0["id"] as? String == "abc-123" })
        #expect(speech["route"] as? String == "/v1/speech")
        #expect(speech["status"] as? Int == 200)
        #expect(speech["method"] as? String == "POST")
        #expect((speech["bytes"] as? Int ?? 0) > 0)
        #expect(speech["ms"] is Double)
        #expect(lines.contains { $0["status"] as? Int == 404 && $0["route"] as? String == "unknown" })
        // A request id that is not plain visible ASCII is replaced.
        let r = try s.call("GET", "/healthz", headers: ["X-Request-Id": "bad id\u{7F}"])
        #expect(r.headers["x-request-id"]?.count == 16)
    }

    @Test func reloadKeepsOldRulesWhenAFileIsBroken() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-reload-\(UUID().uuidString)")
        let words = dir.appendingPathComponent("Locales/en")
        try FileManager.default.createDirectory(at: words, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try TestServer { $0.rulesDirectory = dir }
        #expect(try s.post("/v1/speech", #"{"tex": "\\alpha"}"#).json?["speech"] as? String == "alpha")
        // A word override (see Locales/README.md): seen after the reload, without a restart.
        try "α  ALPHA WORD\n".write(to: words.appendingPathComponent("symbols.txt"), atomically: true, encoding: .utf8)
        #expect(s.service.reloadRules() == nil)
        #expect(try s.post("/v1/speech", #"{"tex": "\\alpha"}"#).json?["speech"] as? String == "ALPHA WORD")
        // A broken rule file: refused with file:line, and the rules in force stay.
        let rules = dir.appendingPathComponent("Rules/en")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try "this is not a rule\n".write(to: rules.appendingPathComponent("clearspeak.rules"), atomically: true, encoding: .utf8)
        let before = try s.post("/v1/speech", #"{"tex": "\\frac{1}{2}"}"#).text
        let error = try #require(s.service.reloadRules())
        #expect(error.description.contains("clearspeak.rules:1"))
        #expect(try s.post("/v1/speech", #"{"tex": "\\frac{1}{2}"}"#).text == before)
        usleep(50_000)
        #expect(s.log.contains { $0.contains("rules-reload-failed") && $0.contains("clearspeak.rules:1") })
        let metrics = try s.call("GET", "/metrics").text
        #expect(metrics.contains(#"mathaloud_rule_reloads_total{outcome="failed"} 1"#))
    }

    @Test func drainFinishesRequestsInFlightAndRefusesNewOnes() throws {
        let s = try TestServer { $0.requestTimeout = 5 }
        // A batch whose body is still arriving is in flight when the drain starts.
        let slow = try TestConnection(port: s.port)
        slow.send("POST /v1/speech:batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: 39\r\n\r\n{\"id\":1,\"tex\":\"x\"}\n")
        let idle = try TestConnection(port: s.port)
        idle.request("GET", "/healthz")
        #expect(try idle.response().status == 200)
        usleep(100_000)
        #expect(s.server.requestsInFlight == 1)
        let drained = DispatchSemaphore(value: 0)
        final class Result: @unchecked Sendable { var left = -1 }
        let result = Result()
        Thread { result.left = s.server.drain(grace: 10); drained.signal() }.start()
        usleep(200_000)
        // New requests on an open connection: 503 draining (nothing was done, safe to retry elsewhere);
        // readiness fails, liveness holds.
        idle.request("POST", "/v1/speech", headers: ["Content-Type": "application/json"], body: Array(#"{"tex":"x"}"#.utf8))
        let refused = try idle.response()
        #expect(refused.status == 503)
        #expect(refused.errorCode == "draining")
        #expect(refused.headers["connection"]?.lowercased() == "close")
        // New connections are refused: the listening socket is closed.
        #expect((try? TestConnection(port: s.port)) == nil)
        // The request in flight finishes.
        slow.send("{\"id\":2,\"tex\":\"y\"}\n\n")
        let finished = try slow.response()
        #expect(finished.status == 200)
        #expect(finished.text.split(separator: "\n").count == 2)
        drained.wait()
        #expect(result.left == 0)
    }

    @Test func batchSlotsAreLimited() throws {
        let s = try TestServer { $0.maxBatches = 1 }
        let first = try TestConnection(port: s.port)
        first.send("POST /v1/speech:batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: 20\r\n\r\n{\"tex\":\"x\"}")
        usleep(100_000)
        let second = try s.call("POST", "/v1/speech:batch", body: Array("{\"tex\":\"x\"}\n".utf8), contentType: "application/x-ndjson")
        #expect(second.status == 503)
        #expect(second.errorCode == "overloaded")
        first.send("\n        ")
        #expect(try first.response().status == 200)
        usleep(100_000)
        #expect(try s.call("POST", "/v1/speech:batch", body: Array("{\"tex\":\"x\"}\n".utf8), contentType: "application/x-ndjson").status == 200)
    }

    @Test func slowClientsAreCutOffAndOthersStillServed() throws {
        let s = try TestServer { $0.readTimeout = 1 }
        // One byte at a time, slower than the whole request may take.
        let trickle = try TestConnection(port: s.port)
        let head = Array("POST /v1/speech HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n".utf8)
        let start = Date()
        var cut = false
        for byte in head {
            trickle.send([byte])
            #expect(try s.call("GET", "/healthz").status == 200)
            if trickle.isClosed(within: 0.1) { cut = true; break }
        }
        #expect(cut)
        #expect(Date().timeIntervalSince(start) < 4)
        // A body that trickles is cut off too.
        let body = try TestConnection(port: s.port)
        body.send(head)
        body.send("{")
        #expect(body.isClosed(within: 3))
    }

    @Test func manyIdleConnectionsDoNotBlockOthers() throws {
        let s = try TestServer()
        let idle = try (0..<1000).map { _ in try TestConnection(port: s.port) }
        let start = Date()
        let r = try s.post("/v1/speech", #"{"tex": "x^2"}"#)
        #expect(r.status == 200)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(idle.count == 1000)
        // The server accepts connections as its loop reaches them: the last of the 1,000 may still be in the
        // listen backlog when the request above is answered (999 was seen under a loaded `.ci/run`), so the
        // count is awaited, for at most 5 s.
        let deadline = Date().addingTimeInterval(5)
        while s.server.openConnections < 1000 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(s.server.openConnections >= 1000)
    }

    @Test func configurationFromEnvironmentAndFlags() throws {
        var c = ServerConfiguration()
        try c.applyEnvironment(["MATHALOUD_PORT": "9001", "MATHALOUD_THREADS": "3", "MATHALOUD_CORS_ORIGINS": "https://a, https://b",
                                "MATHALOUD_LOG_FORMAT": "text", "MATHALOUD_REQUEST_TIMEOUT": "0.5"])
        #expect(c.port == 9001 && c.threads == 3 && c.corsOrigins == ["https://a", "https://b"] && c.logFormat == .text)
        #expect(c.requestTimeout == 0.5)
        #expect(throws: ConfigurationError.self) { try c.applyEnvironment(["MATHALOUD_PORT": "70000"]) }
        #expect(throws: ConfigurationError.self) { try c.set("log-format", "xml") }
        #expect(ServerConfiguration.settings.allSatisfy { $0.environmentVariable.hasPrefix("MATHALOUD_") })
    }
}
