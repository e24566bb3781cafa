import Foundation
import Testing
@testable import MathAloudServer

/// Every error status, with a JSON body `{error: {code, message, diagnostics}}` and never a path or a
/// stack trace.
@Suite("Errors and limits", .serialized)
struct ErrorTests {
    func expectError(_ r: ClientResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, sourceLocation: sourceLocation)
        #expect(r.errorCode == code, "\(r.text)", sourceLocation: sourceLocation)
        #expect(r.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        #expect(!r.text.contains("/work") && !r.text.contains(".swift") && !r.text.contains("/usr/"), sourceLocation: sourceLocation)
    }

    @Test func badRequests() throws {
        let s = try TestServer()
        expectError(try s.post("/v1/speech", "{bad"), 400, "bad-json")
        expectError(try s.post("/v1/speech", "[1, 2]"), 400, "bad-json")
        expectError(try s.post("/v1/speech", #"{"tex": 3}"#), 400, "bad-field")
        expectError(try s.post("/v1/speech", #"{"tex": "x", "mathml": "<mi>x</mi>"}"#), 400, "bad-field")
        expectError(try s.post("/v1/speech", #"{"id": 1}"#), 400, "bad-field")
        expectError(try s.post("/v1/speech", #"{"tex": "x", "style": "nope"}"#), 400, "bad-field")
        expectError(try s.post("/v1/speech", #"{"tex": "x", "locale": "xx"}"#), 400, "bad-field")
        // A preference value the style does not allow is a warning; the formula is answered (issue 12).
        let sideways = try s.post("/v1/speech", #"{"tex": "x", "preferences": {"Fractions": "Sideways"}}"#)
        #expect(sideways.status == 200 && sideways.text.contains("speech.unknown-preference-value"), "\(sideways.text)")
        expectError(try s.post("/v1/speech", #"{"tex": "x", "format": "mp3"}"#), 400, "bad-field")
        expectError(try s.post("/v1/render", #"{"tex": "x", "size": 1e9}"#), 400, "bad-field")
        expectError(try s.call("POST", "/v1/speech", body: Array(#"{"tex": "\#u{FF}"}"#.utf8) + [0xFF, 0xFE], contentType: "application/json"),
                    400, "bad-encoding")
        expectError(try s.call("POST", "/v1/speech", body: [0x7B, 0x22, 0x74, 0x65, 0x78, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D],
                               contentType: "application/json"), 400, "bad-encoding")
    }

    @Test func routingStatuses() throws {
        let s = try TestServer()
        expectError(try s.call("GET", "/v2/speech"), 404, "not-found")
        let m = try s.call("GET", "/v1/speech")
        expectError(m, 405, "method-not-allowed")
        #expect(m.headers["allow"] == "POST")
        expectError(try s.call("DELETE", "/healthz"), 405, "method-not-allowed")
        expectError(try s.call("POST", "/v1/speech", body: Array("tex=x".utf8), contentType: "application/x-www-form-urlencoded"),
                    415, "unsupported-media-type")
        expectError(try s.call("POST", "/v1/speech", body: Array(#"{"tex":"x"}"#.utf8)), 415, "unsupported-media-type")
        #expect(try s.call("POST", "/v1/speech", json: #"{"tex":"x"}"#, contentType: "application/json; charset=utf-8").status == 200)
        #expect(try s.call("POST", "/v1/speech", json: #"{"tex":"x"}"#, contentType: "application/vnd.example+json").status == 200)
    }

    @Test func sizeLimits() throws {
        let s = try TestServer { $0.maxBodyBytes = 4096; $0.maxFormulaBytes = 100 }
        // Declared too large: refused before the body is read, and the connection is closed.
        let c = try TestConnection(port: s.port)
        c.send("POST /v1/speech HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n")
        let r = try c.response()
        expectError(r, 413, "too-large")
        #expect(r.headers["connection"]?.lowercased() == "close")
        // Chunked, no length: refused when the limit is passed.
        let chunked = try TestConnection(port: s.port)
        chunked.send("POST /v1/speech HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<10 { chunked.send("400\r\n" + String(repeating: " ", count: 1024) + "\r\n") }
        chunked.send("0\r\n\r\n")
        expectError(try chunked.response(), 413, "too-large")
        // A formula over its own limit inside a small body.
        expectError(try s.post("/v1/speech", "{\"tex\": \"" + String(repeating: "x", count: 101) + "\"}"), 413, "too-large")
        #expect(try s.post("/v1/speech", "{\"tex\": \"" + String(repeating: "x", count: 100) + "\"}").status == 200)
        // A batch line over the line limit gives an error line; the lines around it are answered.
        let long = "{\"id\": 2, \"tex\": \"" + String(repeating: "y", count: 5000) + "\"}"
        let b = try s.call("POST", "/v1/speech:batch", body: Array(("{\"id\":1,\"tex\":\"x\"}\n" + long + "\n{\"id\":3,\"tex\":\"z\"}\n").utf8),
                           contentType: "application/x-ndjson")
        let lines = b.text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("longer than the limit"))
        #expect(lines[2].contains("\"id\":3"))
    }

    @Test func strictModeAnswers422WithDiagnostics() throws {
        let s = try TestServer()
        let r = try s.post("/v1/speech", #"{"tex": "\\frac{1}{2", "strict": true}"#)
        expectError(r, 422, "input-errors")
        let d = ((r.json?["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.first
        #expect(d?["id"] as? String == "tex.missing-brace")
        #expect(try s.post("/v1/speech", #"{"tex": "\\frac{1}{2}", "strict": true}"#).status == 200)
        expectError(try s.post("/v1/parse", #"{"tex": "x^", "strict": true}"#), 422, "input-errors")
        expectError(try s.post("/v1/render", #"{"tex": "x^", "strict": true}"#), 422, "input-errors")
        // A formula refused whole draws nothing: 400 with its diagnostic, not a blank image.
        let deep = String(repeating: "{", count: 300) + "x" + String(repeating: "}", count: 300)
        let refused = try s.post("/v1/render", #"{"tex": ""# + deep + #""}"#)
        expectError(refused, 400, "bad-field")
        #expect(((refused.json?["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func timeLimitStopsTheFormula() throws {
        // A macro that doubles its argument ten thousand times over: stopped by the 1 ms limit long
        // before the expansion limits, the answer is 422 timeout and the thread is free again.
        let s = try TestServer { $0.requestTimeout = 0.001 }
        let bomb = #"\\def\\a#1{#1#1}\\def\\b#1{\\a{\\a{\\a{\\a{#1}}}}}\\b{\\b{\\b{\\b{\\b{x}}}}}"#
        let start = Date()
        let r = try s.post("/v1/speech", "{\"tex\": \"\(bomb)\"}")
        expectError(r, 422, "timeout")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(try s.post("/v1/speech", #"{"tex": "x"}"#).status == 200)
        // A timed-out formula is not cached: the same request times out again.
        expectError(try s.post("/v1/speech", "{\"tex\": \"\(bomb)\"}"), 422, "timeout")
        let b = try s.call("POST", "/v1/speech:batch", body: Array("{\"id\": 9, \"tex\": \"\(bomb)\"}\n".utf8), contentType: "application/x-ndjson")
        #expect(b.text.hasPrefix(#"{"error":"stopped: the formula took longer"#))
        #expect(b.text.contains("\"id\":9"))
    }

    @Test func headerFloodIsRefused() throws {
        let s = try TestServer()
        let c = try TestConnection(port: s.port)
        var head = "GET /healthz HTTP/1.1\r\nHost: x\r\n"
        for i in 0..<5000 { head += "X-Flood-\(i): \(String(repeating: "a", count: 40))\r\n" }
        c.send(head + "\r\n")
        let r = try c.response()
        #expect(r.status == 431)
        #expect(try s.call("GET", "/healthz").status == 200)
    }
}
