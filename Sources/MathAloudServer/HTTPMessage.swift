import Foundation

/// An HTTP request as a route sees it: the head, and the whole body (buffered routes) or nothing
/// (streaming routes read theirs through a ``StreamingBody``).
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path without the query (`/v1/speech`).
    public let path: String
    /// The raw query string after `?` (empty when none).
    public let query: String
    /// Header values by lower-case name (the last value of a repeated header).
    public let headers: [String: String]
    /// The body (empty for streaming routes).
    public let body: Data
    /// The request id (the client's `X-Request-Id` when it is usable, else a new one).
    public let id: String

    /// Creates a request (tests and the fuzz harness build them by hand).
    public init(method: String, path: String, query: String = "", headers: [String: String] = [:], body: Data = Data(),
                id: String = "test") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.id = id
    }

    /// A header by name (case-insensitive).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The media type of `Content-Type` without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        header("content-type").map { $0.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased() }
    }
}

/// An HTTP response: status, headers and a body held in memory or in a file.
public struct HTTPResponse: Sendable {
    /// The body.
    public enum Body: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// An open file descriptor of `size` bytes from its start, handed to the server, which closes it
        /// (large streamed results are spooled to an unlinked file, so memory stays flat).
        case file(descriptor: Int32, size: UInt64)
    }

    /// The status code.
    public var status: Int
    /// Header fields in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body of `contentType`.
    public init(status: Int, contentType: String, body: Data) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: .bytes(body))
    }

    /// A JSON response from JSON text.
    public static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Data(text.utf8))
    }

    /// The body's size in bytes.
    public var bodySize: UInt64 {
        switch body {
        case .bytes(let d): return UInt64(d.count)
        case .file(_, let size): return size
        }
    }

    /// The first value of a header (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body as bytes (reads a file body; for tests).
    public var bodyData: Data {
        switch body {
        case .bytes(let d): return d
        case .file(let fd, let size):
            var data = Data(count: Int(size))
            let read = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(size), 0) }
            return read == Int(size) ? data : Data()
        }
    }
}

/// A request body read in pieces as it arrives (the batch route), so its size is not limited by memory.
public protocol StreamingBody: AnyObject {
    /// More bytes of the body, in order. Returns an error response to stop reading (the connection is
    /// then closed after it).
    func append(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse?
    /// The body is complete: the response.
    func finish() -> HTTPResponse
}
