import Foundation
import MathAloud
import Testing
@testable import MathAloudServer

/// Every route answers on a real server on an ephemeral port.
@Suite("Routes", .serialized)
struct RouteTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    @Test func speech() throws {
        let r = try server.post("/v1/speech", #"{"id": 7, "tex": "\\frac{3}{4}+x^2"}"#)
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/json")
        #expect(r.text == #"{"diagnostics":[],"id":7,"speech":"three fourths plus x squared"}"#)
        #expect(r.headers["x-request-id"]?.count == 16)
    }

    @Test func speechSSMLLabelStyleAndPreferences() throws {
        let r = try server.post("/v1/speech", #"{"tex": "\\sqrt{x}", "format": "ssml", "template": "Math: {speech}"}"#)
        let o = try #require(r.json)
        #expect(o["label"] as? String == "Math: the square root of x")
        #expect((o["ssml"] as? String)?.hasPrefix("<speak version=\"1.1\"") == true)
        #expect(o["id"] is NSNull)
        let pref = try server.post("/v1/speech", #"{"tex": "\\frac{3}{4}", "preferences": {"Fractions": "Over"}}"#)
        #expect(pref.json?["speech"] as? String == "3 over 4")
        let ms = try server.post("/v1/speech", #"{"tex": "\\frac{a+b}{2}", "style": "mathspeak", "preferences": {"Verbosity": "Brief"}}"#)
        #expect(ms.json?["speech"] as? String == "StartFrac a plus b Over 2 EndFrac")
        let mathml = try server.post("/v1/speech", #"{"mathml": "<math><msup><mi>x</mi><mn>2</mn></msup></math>"}"#)
        #expect(mathml.json?["speech"] as? String == "x squared")
    }

    @Test func speechWithErrorsIsSpokenAndReported() throws {
        let r = try server.post("/v1/speech", #"{"tex": "\\frac{1}{2"}"#)
        #expect(r.status == 200)
        let d = try #require((r.json?["diagnostics"] as? [[String: Any]])?.first)
        #expect(d["id"] as? String == "tex.missing-brace")
        #expect((d["range"] as? [String: Any])?["line"] as? Int == 1)
    }

    @Test func labels() throws {
        let r = try server.post("/v1/labels", #"{"tex": "x^2", "template": "Math: {speech} ({latex})"}"#)
        #expect(r.status == 200)
        #expect(r.json?["label"] as? String == "Math: x squared (x^2)")
        let plain = try server.post("/v1/labels", #"{"tex": "x^2"}"#)
        #expect(plain.json?["label"] as? String == "x squared")
        #expect(plain.json?["speech"] as? String == "x squared")
        let prose = try server.post("/v1/speech", #"{"text": "The area is $\\pi r^2$."}"#)
        #expect(prose.json?["speech"] as? String == "The area is pi r squared.")
    }

    @Test func parse() throws {
        let m = try server.post("/v1/parse", #"{"tex": "\\sqrt[3]{x}"}"#)
        #expect((m.json?["mathml"] as? String)?.contains("<mroot><mi>x</mi><mn>3</mn></mroot>") == true)
        let t = try server.post("/v1/parse", #"{"tex": "x^2", "format": "json"}"#)
        let tree = try #require(t.json?["tree"] as? [String: Any])
        #expect(tree["kind"] as? String == "row")
        let dump = try server.post("/v1/parse", #"{"tex": "x^2", "format": "tree"}"#)
        #expect((dump.json?["tree"] as? String)?.hasPrefix("row @0..<3") == true)
        #expect(try server.post("/v1/parse", #"{"tex": "x^2", "format": "svg"}"#).status == 400)
        #expect(try server.post("/v1/parse", #"{"text": "a $x$ b"}"#).status == 400)
        let display = try server.post("/v1/parse", #"{"tex": "\\sum_a^b", "display": true}"#)
        #expect((display.json?["mathml"] as? String)?.contains("display=\"block\"") == true)
    }

    @Test func audio() throws {
        let r = try server.post("/v1/audio", #"{"tex": "\\frac{1}{2}", "rate": 200}"#)
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "audio/wav")
        #expect(r.body.prefix(4) == Data("RIFF".utf8))
        #expect(r.body.count > 10_000)
        #expect(r.headers["x-speech"] == "one half")
        let badVoice = try server.post("/v1/audio", #"{"tex": "x", "voice": "no-such-voice"}"#)
        #expect(badVoice.status == 400)
    }

    @Test func render() throws {
        let svg = try server.post("/v1/render", #"{"tex": "\\frac{1}{2}", "template": "Math: {speech}"}"#)
        #expect(svg.status == 200)
        #expect(svg.headers["content-type"] == "image/svg+xml")
        #expect(svg.text.contains("<title id=") && svg.text.contains("Math: one half</title>"))
        #expect(svg.headers["x-label"] == "Math: one half")
        let png = try server.post("/v1/render", #"{"tex": "x", "format": "png"}"#)
        #expect(png.headers["content-type"] == "image/png")
        #expect(png.body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let pdf = try server.call("POST", "/v1/render", json: #"{"tex": "x"}"#, headers: ["Accept": "application/pdf"])
        #expect(pdf.headers["content-type"] == "application/pdf")
        #expect(pdf.body.prefix(5) == Data("%PDF-".utf8))
        let refused = try server.call("POST", "/v1/render", json: #"{"tex": "x"}"#, headers: ["Accept": "text/html"])
        #expect(refused.status == 406)
        let font = try server.post("/v1/render", #"{"tex": "x", "font": "/etc/passwd"}"#)
        #expect(font.status == 400)
        #expect(!font.text.contains("/usr/share"))
    }

    /// The routes that answer an image or audio give the diagnostics in headers, as the speech routes
    /// give them in JSON.
    @Test func imageAndAudioCarryTheDiagnostics() throws {
        let clean = try server.post("/v1/render", #"{"tex": "x"}"#)
        #expect(clean.headers["x-diagnostics"] == "[]" && clean.headers["x-diagnostics-count"] == "0")
        let unknown = try server.post("/v1/render", #"{"tex": "\\foo"}"#)
        #expect(unknown.status == 200)
        #expect(unknown.headers["x-diagnostics"]
                == #"[{"id":"tex.unknown-command","message":"unknown command \\foo","range":{"column":1,"end":4,"line":1,"start":0},"severity":"error"}]"#)
        #expect(unknown.headers["x-diagnostics-count"] == "1")
        // A character no font has, in a PNG: percent-encoded UTF-8 in the message, decoded to the JSON array.
        let missing = try server.post("/v1/render", #"{"tex": "\\text{数}", "format": "png"}"#)
        #expect(missing.headers["content-type"] == "image/png")
        let text = try #require(missing.headers["x-diagnostics"]?.removingPercentEncoding)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(list.map { $0["id"] as? String } == ["render.missing-glyph"])
        #expect((list.first?["range"] as? [String: Int]) == ["start": 6, "end": 9, "line": 1, "column": 7])
        #expect((list.first?["message"] as? String)?.hasPrefix("no font has '数' (U+6570") == true)
        // An unknown preference: a warning without a range, on the image and on the audio.
        let body = #"{"tex": "x", "preferences": {"Nope": "1"}}"#
        for route in ["/v1/render", "/v1/audio"] {
            let r = try server.post(route, body)
            #expect(r.status == 200, "\(route)")
            let decoded = try #require(r.headers["x-diagnostics"]?.removingPercentEncoding)
            let records = try #require(try JSONSerialization.jsonObject(with: Data(decoded.utf8)) as? [[String: Any]])
            #expect(records.map { $0["id"] as? String } == ["speech.unknown-preference"], "\(route)")
            #expect(records.first?["severity"] as? String == "warning")
            #expect(r.headers["x-diagnostics-count"] == "1")
        }
    }

    @Test func diagnosticsHeaderHoldsWholeRecordsWithinItsLimit() throws {
        var records: [DiagnosticRecord] = []
        for k in 0..<200 {
            records.append(DiagnosticRecord(id: "tex.unknown-command", severity: .error, message: "unknown command \\c\(k) é",
                                            range: .init(start: k, end: k + 1, line: 1, column: k + 1)))
        }
        let header = HeaderText.diagnostics(records)
        #expect(header.utf8.count <= HeaderText.diagnosticsLimit)
        let decoded = try #require(header.removingPercentEncoding)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(decoded.utf8)) as? [[String: Any]])
        #expect(list.count > 10 && list.count < 200)
        #expect(list.last?["message"] as? String == "unknown command \\c\(list.count - 1) é")
    }

    /// A label longer than the header's limit is cut before a character, never inside one (the cut once
    /// split a Cyrillic letter's two bytes, and the header did not decode).
    @Test func aLongLabelIsCutBetweenCharacters() throws {
        let label = String(repeating: "а", count: 1500)   // two bytes each: 3,000 bytes
        let header = HeaderText.encode("x" + label, limit: 2048)
        let decoded = try #require(header.removingPercentEncoding)
        #expect(decoded == "x" + String(repeating: "а", count: 1023))
        #expect(HeaderText.encode("abc", limit: 2) == "ab")
        #expect(HeaderText.encode("a%é") == "a%25%C3%A9")
    }

    @Test func renderTakesAnIDPrefix() throws {
        let svg = try server.post("/v1/render", #"{"tex": "x", "idPrefix": "eq7"}"#)
        #expect(svg.text.contains(#"aria-labelledby="eq7-title""#) && svg.text.contains(#" lang="en" xml:lang="en"><title id="eq7-title">"#))
        let bad = try server.post("/v1/render", #"{"tex": "x", "idPrefix": "a\"b"}"#)
        #expect(bad.status == 400)
        #expect(bad.errorCode == "bad-field")
    }

    @Test func batch() throws {
        let lines = [#"{"id": 1, "tex": "x^2"}"#, "", #"{"id": "b", "tex": "\\frac{1}{2}", "style": "mathspeak"}"#,
                     "not json", #"{"id": 4}"#, #"{"id": 5, "mathml": "<math><mi>y</mi></math>"}"#]
        let r = try server.call("POST", "/v1/speech:batch", body: Array(lines.joined(separator: "\n").utf8),
                                contentType: "application/x-ndjson")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/x-ndjson")
        let out = r.text.split(separator: "\n").map(String.init)
        #expect(out == [
            #"{"diagnostics":[],"id":1,"speech":"x squared"}"#,
            #"{"diagnostics":[],"id":"b","speech":"one-half"}"#,
            #"{"error":"the line is not valid JSON: unexpected 'not' at column 1","id":null}"#,
            #"{"error":"the object needs a \"tex\", \"mathml\" or \"text\" string","id":4}"#,
            #"{"diagnostics":[],"id":5,"speech":"y"}"#,
        ])
        let empty = try server.call("POST", "/v1/speech:batch", body: [], contentType: "application/x-ndjson")
        #expect(empty.status == 200 && empty.body.isEmpty)
    }

    @Test func batchIsStreamedInPieces() throws {
        // 20,000 lines sent in small pieces (lines split across reads) come back one per line, in order.
        let c = try TestConnection(port: server.port)
        c.send("POST /v1/speech:batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n")
        var piece = ""
        for i in 0..<20_000 {
            piece += "{\"id\": \(i), \"tex\": \"x_{\(i % 97)}\"}\n"
            if piece.utf8.count > 3000 || i == 19_999 {
                let bytes = Array(piece.utf8)
                c.send(String(bytes.count, radix: 16) + "\r\n")
                c.send(bytes + [13, 10])
                piece = ""
            }
        }
        c.send("0\r\n\r\n")
        let r = try c.response()
        let out = r.text.split(separator: "\n")
        #expect(out.count == 20_000)
        #expect(out.last == #"{"diagnostics":[],"id":19999,"speech":"x sub 17"}"#)
        #expect(out.enumerated().allSatisfy { $0.element.contains("\"id\":\($0.offset),") })
    }

    /// Every answer whose body is in one language says which in `Content-Language` (the locale's BCP 47
    /// tag, as SSML's xml:lang and SVG's lang write it); a batch lists the languages its lines speak;
    /// trees, lists and errors (English whatever the locale) carry none.
    @Test func answersSayTheirLanguage() throws {
        func language(_ path: String, _ json: String, status: Int = 200) throws -> String? {
            let r = try server.post(path, json)
            #expect(r.status == status, "\(path) \(json)")
            return r.headers["content-language"]
        }
        #expect(try language("/v1/speech", #"{"tex": "x"}"#) == "en")
        #expect(try language("/v1/speech", #"{"tex": "x", "locale": "de", "format": "ssml"}"#) == "de")
        #expect(try language("/v1/speech", #"{"text": "Es sei $x$.", "locale": "de"}"#) == "de")
        // The tag in its conventional case, whatever case the request wrote.
        #expect(try language("/v1/speech", #"{"tex": "x", "locale": "zh-tw"}"#) == "zh-TW")
        #expect(try language("/v1/labels", #"{"tex": "x", "locale": "fr"}"#) == "fr")
        #expect(try language("/v1/audio", #"{"tex": "x", "locale": "de"}"#) == "de")
        #expect(try language("/v1/render", #"{"tex": "x", "locale": "de"}"#) == "de")
        #expect(try language("/v1/render", #"{"tex": "x", "locale": "es", "format": "png"}"#) == "es")
        #expect(try language("/v1/parse", #"{"tex": "x", "locale": "de"}"#) == nil)
        #expect(try language("/v1/speech", #"{"tex": "x", "locale": "xx"}"#, status: 400) == nil)
        #expect(try language("/v1/speech", #"{"tex": "\\frac{1}{2", "locale": "de", "strict": true}"#, status: 422) == nil)
        #expect(try server.call("GET", "/v1/locales").headers["content-language"] == nil)

        func batch(_ lines: [String]) throws -> ClientResponse {
            try server.call("POST", "/v1/speech:batch", body: Array(lines.joined(separator: "\n").utf8), contentType: "application/x-ndjson")
        }
        // Each language once, in the order of first use; a line answered with an error adds none.
        let mixed = try batch([#"{"tex": "x"}"#, #"{"tex": "y", "locale": "de"}"#, #"{"tex": "z", "locale": "EN"}"#,
                               #"{"locale": "fr"}"#, #"{"tex": "x", "locale": "xx"}"#, "oops"])
        #expect(mixed.status == 200 && mixed.text.split(separator: "\n").count == 6)
        #expect(mixed.headers["content-language"] == "en, de")
        #expect(try batch([#"{"tex": "y", "locale": "de"}"#]).headers["content-language"] == "de")
        #expect(try batch([#"{"locale": "de"}"#, "oops"]).headers["content-language"] == nil)
        #expect(try batch([]).headers["content-language"] == nil)
        // More tags than the list holds (each speaks with en's rules): none rather than a part of them.
        let many = (0...BatchStream.maxLanguages).map { #"{"tex": "x", "locale": "en-x-t\#($0)"}"# }
        let tooMany = try batch(many)
        #expect(tooMany.text.split(separator: "\n").allSatisfy { $0.contains(#""speech":"x""#) })
        #expect(tooMany.headers["content-language"] == nil)
        #expect(try batch(Array(many.dropFirst(2))).headers["content-language"]
                == (2...BatchStream.maxLanguages).map { "en-x-t\($0)" }.joined(separator: ", "))
    }

    @Test func localesAndStyles() throws {
        let l = try server.call("GET", "/v1/locales")
        let first = try #require((l.json?["locales"] as? [[String: Any]])?.first { $0["locale"] as? String == "en" })
        #expect(first["styles"] as? [String] == ["clearspeak", "literalspeak", "mathspeak", "simplespeak"])
        let s = try server.call("GET", "/v1/styles?locale=en")
        let styles = try #require(s.json?["styles"] as? [[String: Any]])
        let clearspeak = try #require(styles.first { $0["style"] as? String == "clearspeak" })
        let fractions = try #require((clearspeak["preferences"] as? [[String: Any]])?.first { $0["name"] as? String == "Fractions" })
        #expect((fractions["values"] as? [String])?.contains("Over") == true)
        #expect(fractions["default"] as? String == "Auto")
        #expect(try server.call("GET", "/v1/styles?locale=xx").status == 400)
    }

    @Test func openAPIDescribesEveryRoute() throws {
        let r = try server.call("GET", "/openapi.json")
        let doc = try #require(r.json)
        #expect(doc["openapi"] as? String == "3.1.0")
        let paths = try #require(doc["paths"] as? [String: Any])
        #expect(Set(paths.keys) == Set(server.service.routes.keys))
        // Content-Language is documented on every answer that carries it.
        for path in ["/v1/speech", "/v1/labels", "/v1/audio", "/v1/render", "/v1/speech:batch"] {
            let post = (paths[path] as? [String: Any])?["post"] as? [String: Any]
            let ok = (post?["responses"] as? [String: Any])?["200"] as? [String: Any]
            #expect((ok?["headers"] as? [String: Any])?["Content-Language"] != nil, "\(path)")
        }
    }

    @Test func healthReadinessMetrics() throws {
        #expect(try server.call("GET", "/healthz").text == #"{"status":"ok"}"#)
        #expect(try server.call("GET", "/readyz").text == #"{"status":"ready"}"#)
        _ = try server.post("/v1/speech", #"{"tex": "y"}"#)
        _ = try server.post("/v1/speech", #"{"tex": "y"}"#)
        usleep(100_000)   // an exchange is counted when libmicrohttpd reports it finished
        let m = try server.call("GET", "/metrics")
        #expect(m.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(m.text.contains(#"mathaloud_http_requests_total{route="/v1/speech",status="200"} 2"#))
        #expect(m.text.contains(#"mathaloud_http_request_duration_seconds_count{route="/v1/speech"} 2"#))
        #expect(m.text.contains("mathaloud_http_requests_in_flight 1"))
        #expect(m.text.contains("mathaloud_speech_cache_hits_total 1"))
        let head = try server.call("HEAD", "/healthz")
        #expect(head.status == 200)
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let c = try TestConnection(port: server.port)
        for i in 0..<50 {
            c.request("POST", "/v1/speech", headers: ["Content-Type": "application/json", "X-Request-Id": "req-\(i)"],
                      body: Array(#"{"tex": "x_\#(i)"}"#.utf8))
            let r = try c.response()
            #expect(r.status == 200)
            #expect(r.headers["x-request-id"] == "req-\(i)")
        }
    }
}
