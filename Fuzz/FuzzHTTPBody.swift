// libFuzzer harness for the service's request bodies (target MathAloudServer). Build and run with
// `scripts/fuzz.sh httpbody`.
//
// The first byte of each input picks a route (speech, labels, parse, render as SVG, the streamed batch);
// the rest is the body, handed to the route as the server hands it after reading it (the batch in
// pieces of 1–64 bytes, as a network delivers them). Whatever the bytes, the answer must be a status
// the API documents, never a 5xx, with a JSON error body `{"error": {"code", …}}` when it is not 200,
// and the batch must answer exactly one line per non-blank input line. `Content-Language`, when there
// is one, is tags of ASCII letters, digits and `-` joined by ", " (nothing of the body reaches the
// header as it is), and an error answer has none.
import Foundation
import MathAloudServer

private let service: MathAloudService = {
    var configuration = ServerConfiguration()
    configuration.logFormat = .off
    configuration.requestTimeout = 1
    configuration.maxFormulaBytes = 4096
    do { return try MathAloudService(configuration: configuration, logOutput: .lines { _ in }) } catch {
        fatalError("the service could not load its rules: \(error)")
    }
}()

private let routes = ["/v1/speech", "/v1/labels", "/v1/parse", "/v1/render", "/v1/speech:batch"]
private let documented: Set<Int> = [200, 400, 406, 413, 415, 422]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let route = routes[Int(data[0]) % routes.count]
    let body = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let response: HTTPResponse
    if route == "/v1/speech:batch" {
        let stream = service.batchStream()
        var offset = 0
        var piece = Int(data[0] >> 3) % 64 + 1
        while offset < body.count {
            let n = min(piece, body.count - offset)
            precondition(stream.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(body)[offset..<(offset + n)])) == nil)
            offset += n
            piece = piece % 64 + 1
        }
        response = stream.finish()
        precondition(response.status == 200, "batch answered \(response.status)")
        let lines = Array(body).split(separator: 0x0A, omittingEmptySubsequences: false)
            .filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
        let out = response.bodyData.split(separator: 0x0A)
        precondition(out.count == lines.count, "batch answered \(out.count) lines for \(lines.count)")
        // The server hands a spooled answer to libmicrohttpd, which closes it; here it is closed now.
        if case .file(let descriptor, _) = response.body { close(descriptor) }
    } else {
        let request = HTTPRequest(method: "POST", path: route, headers: ["content-type": "application/json"], body: Data(body))
        response = service.respond(to: request, route: route)
        precondition(documented.contains(response.status), "\(route) answered \(response.status)")
        if response.status != 200 {
            let object = try? JSONSerialization.jsonObject(with: response.bodyData) as? [String: Any]
            precondition((object?["error"] as? [String: Any])?["code"] is String, "\(route): error body is not {error: {code}}")
        }
    }
    if let language = response.header("Content-Language") {
        precondition(response.status == 200, "\(route): an error answer names a language")
        let tags = language.components(separatedBy: ", ")
        precondition(tags.allSatisfy { tag in
            !tag.isEmpty && tag.utf8.allSatisfy { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        }, "\(route): Content-Language \(language)")
    }
    return 0
}
