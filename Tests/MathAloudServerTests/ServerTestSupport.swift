import Foundation
import MathAloud
@testable import MathAloudServer
#if canImport(Glibc)
import Glibc
#endif

/// A response as the test client read it.
struct ClientResponse {
    var status = 0
    var headers: [String: String] = [:]
    var body = Data()
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    /// `error.code` of an error body.
    var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
}

/// A plain HTTP/1.1 client on a socket, so tests can send what a library would refuse to (bad bytes,
/// floods, trickles) and see exactly what comes back.
final class TestConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw TestError("connect failed") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends a request; `body` with Content-Length.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        send(Array(head.utf8) + (body ?? []))
    }

    private var buffer: [UInt8] = []

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// Whether the server has closed the connection (reads until end of stream or `seconds`).
    func isClosed(within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    /// Reads one response (Content-Length or chunked body; HEAD has none).
    func response(head: Bool = false) throws -> ClientResponse {
        var r = ClientResponse()
        while true {
            if let end = find([13, 10, 13, 10]) {
                let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
                buffer.removeFirst(end + 4)
                let parts = lines[0].split(separator: " ")
                r.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                for line in lines.dropFirst() {
                    if let colon = line.firstIndex(of: ":") {
                        r.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                }
                break
            }
            guard fill() else { throw TestError("connection closed before a response head") }
        }
        if head { return r }
        if let length = r.headers["content-length"].flatMap({ Int($0) }) {
            while buffer.count < length { guard fill() else { throw TestError("short body") } }
            r.body = Data(buffer[0..<length])
            buffer.removeFirst(length)
        } else if r.headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                var lineEnd = find([13, 10])
                while lineEnd == nil { guard fill() else { throw TestError("short chunk") }; lineEnd = find([13, 10]) }
                let size = Int(String(decoding: buffer[0..<lineEnd!], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                buffer.removeFirst(lineEnd! + 2)
                while buffer.count < size + 2 { guard fill() else { throw TestError("short chunk") } }
                r.body.append(contentsOf: buffer[0..<size])
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else {
            while fill() {}
            r.body = Data(buffer)
            buffer = []
        }
        return r
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for i in 0...(buffer.count - pattern.count) where buffer[i] == pattern[0] {
            if Array(buffer[i..<(i + pattern.count)]) == pattern { return i }
        }
        return nil
    }
}

struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A service started on a free port for one test, with its access log collected.
final class TestServer: @unchecked Sendable {
    let service: MathAloudService
    let server: HTTPServer
    /// The log's lines, kept apart from the test server: a line is written on a server thread, and a
    /// reference to the test server held there could make that thread the last owner, whose release would
    /// stop the server from one of its own threads (libmicrohttpd then aborts: "Failed to join a thread").
    private let lines: LineBox

    init(_ configure: (inout ServerConfiguration) throws -> Void = { _ in }) throws {
        var c = ServerConfiguration()
        c.port = 0
        c.threads = 2
        try configure(&c)
        let box = LineBox()
        service = try MathAloudService(configuration: c, logOutput: .lines { box.append($0) })
        server = try service.start()
        lines = box
    }

    deinit { server.stop() }

    var port: Int { server.port }

    /// The access log's lines so far.
    var log: [String] { lines.all }

    /// One request on a new connection.
    func call(_ method: String, _ path: String, json: String? = nil, body: [UInt8]? = nil, contentType: String? = nil,
              headers: [String: String] = [:]) throws -> ClientResponse {
        let c = try TestConnection(port: port)
        var h = headers
        if json != nil { h["Content-Type"] = contentType ?? "application/json" } else if let contentType { h["Content-Type"] = contentType }
        c.request(method, path, headers: h, body: json.map { Array($0.utf8) } ?? body)
        return try c.response(head: method == "HEAD")
    }

    func post(_ path: String, _ json: String, headers: [String: String] = [:]) throws -> ClientResponse {
        try call("POST", path, json: json, headers: headers)
    }
}

/// The access log's lines, appended on the server's threads.
final class LineBox: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func append(_ line: String) {
        lock.lock(); lines.append(line); lock.unlock()
    }
    var all: [String] {
        lock.lock(); defer { lock.unlock() }
        return lines
    }
}
