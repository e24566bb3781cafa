import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd is opened when the first server starts (Sources/CMicroHTTPD/shim.h), so `mathaloud`
// runs its other commands where the library is absent.
enum MicroHTTPD {
    nonisolated(unsafe) static let loaded: (api: mathaloud_mhd_api, problem: String?) = {
        var api = mathaloud_mhd_api()
        let path = ProcessInfo.processInfo.environment["MATHALOUD_MICROHTTPD_LIBRARY"]
        let problem = path.withOptionalCString { mathaloud_mhd_load(&api, $0) }.map { String(cString: $0) }
        return (api, problem)
    }()

    /// Why the server cannot start, or nil when libmicrohttpd loaded.
    static var problem: String? {
        loaded.problem.map { "cannot load libmicrohttpd (\($0)); install libmicrohttpd12 (scripts/install-deps.sh does)" }
    }
}

extension Optional where Wrapped == String {
    func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let s): return s.withCString { body($0) }
        case .none: return body(nil)
        }
    }
}

/// The head of a request, read before its body.
public struct RequestHead: Sendable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path without the query.
    public let path: String
    /// The query string (without `?`).
    public let query: String
    /// Header values by lower-case name.
    public let headers: [String: String]
    /// The request id.
    public let id: String
    /// The client's numeric address.
    public let client: String
}

/// What to do with a request once its head is read.
public enum RequestPlan {
    /// Read the body (at most `limit` bytes: more is answered with `tooLarge` at once), then respond.
    case buffer(limit: Int, tooLarge: HTTPResponse)
    /// Hand the body to a stream as it arrives; its `finish` gives the response.
    case stream(StreamingBody)
    /// Answer with this response: at once when `discardBody` is false (the connection is closed if a
    /// body was sent), else after reading and dropping a body of at most `limit` bytes.
    case reject(HTTPResponse, discardBody: Bool, limit: Int)
}

/// One request and its answer, for the access log and metrics.
public struct CompletedExchange: Sendable {
    /// The head (nil when the connection ended before the head was read).
    public let head: RequestHead
    /// The status sent (0 when none was).
    public let status: Int
    /// Body bytes sent.
    public let bytes: UInt64
    /// Seconds from the head to the end of the response.
    public let seconds: Double
    /// Whether the response was sent completely.
    public let completed: Bool
    /// The route name the handler gave (for metrics labels).
    public let route: String
}

/// What the server asks of the application: plan, respond, and hear about finished exchanges. Called
/// on libmicrohttpd's pool threads, many at once.
public protocol HTTPHandler: AnyObject, Sendable {
    /// Decides what to do with a request whose head has arrived; `route` names it for the metrics.
    func plan(_ head: RequestHead) -> (plan: RequestPlan, route: String)
    /// The response to a buffered request.
    func respond(to request: HTTPRequest, route: String) -> HTTPResponse
    /// Headers every response gets (request id, CORS…), added by the server.
    func commonHeaders(for head: RequestHead, status: Int) -> [(name: String, value: String)]
    /// A request has finished (or its connection was lost).
    func finished(_ exchange: CompletedExchange)
}

/// Connection limits and timeouts of the HTTP layer.
public struct HTTPServerLimits: Sendable {
    /// Pool threads (each polls its connections and runs handlers for them).
    public var threads: Int
    /// Open connections at most; more are refused.
    public var connections: Int
    /// Connections per client address (0: no limit).
    public var connectionsPerClient: Int
    /// Seconds a connection may be idle (keep-alive, or a client that stops sending or reading).
    public var idleTimeout: Int
    /// Seconds a client may take to send a request head, however it trickles it (slowloris); a body
    /// must then arrive at 1 KiB/s or more over each such window. 0 turns it off.
    public var readTimeout: Double
    /// Bytes per connection for the request head and read buffer (a longer head gets 431).
    public var connectionMemory: Int

    /// Creates limits.
    public init(threads: Int, connections: Int = 4096, connectionsPerClient: Int = 0, idleTimeout: Int = 15,
                readTimeout: Double = 30, connectionMemory: Int = 64 * 1024) {
        self.threads = threads
        self.connections = connections
        self.connectionsPerClient = connectionsPerClient
        self.idleTimeout = idleTimeout
        self.readTimeout = readTimeout
        self.connectionMemory = connectionMemory
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String
}

/// An HTTP/1.1 server on libmicrohttpd: epoll and a pool of threads that run the handler, a deadline
/// for reading each request, and a graceful drain.
public final class HTTPServer: @unchecked Sendable {
    /// The port it listens on (the one chosen when 0 was asked for).
    public private(set) var port = 0
    let handler: HTTPHandler
    let limits: HTTPServerLimits
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    private var inFlight = 0
    private var draining = false
    private var stopped = false
    private var connections: [OpaquePointer: ConnectionRecord] = [:]
    private var reaper: Thread?

    /// Starts listening on `address` (numeric IPv4 or IPv6) and `port` (0: any free port).
    public init(address: String, port: Int, limits: HTTPServerLimits, handler: HTTPHandler) throws(HTTPServerError) {
        if let problem = MicroHTTPD.problem { throw HTTPServerError(description: problem) }
        guard (0...65535).contains(port) else { throw HTTPServerError(description: "port \(port) is out of range") }
        self.handler = handler
        self.limits = limits
        var api = MicroHTTPD.loaded.api
        var config = mathaloud_mhd_config()
        config.port = UInt16(port)
        config.threads = UInt32(max(1, limits.threads))
        config.connection_limit = UInt32(max(1, limits.connections))
        config.connection_timeout = UInt32(max(0, limits.idleTimeout))
        config.per_ip_limit = UInt32(max(0, limits.connectionsPerClient))
        config.connection_memory = max(8192, limits.connectionMemory)
        config.listen_backlog = 1024
        config.thread_stack = 8 << 20
        var message: UnsafePointer<CChar>?
        let me = Unmanaged.passUnretained(self).toOpaque()
        let started = address.withCString { addressPointer -> OpaquePointer? in
            config.address = addressPointer
            return mathaloud_mhd_start(&api, &config, accessCallback, me, completedCallback, me, notifyCallback, me, &message)
        }
        guard let started else {
            throw HTTPServerError(description: "cannot listen on \(address):\(port): " + (message.map { String(cString: $0) } ?? "unknown error"))
        }
        daemon = started
        self.port = Int(mathaloud_mhd_bound_port(&api, started))
        if limits.readTimeout > 0 {
            let thread = Thread { [weak self] in self?.reapSlowClients() }
            thread.name = "mathaloud-read-deadline"
            reaper = thread
            thread.start()
        }
    }

    /// Bytes per second a body must keep arriving at, averaged over each read-timeout window, once its
    /// first window has passed (a slower body is cut off).
    static let minimumBodyRate = 1024.0

    /// Bytes read and dropped after an error in the middle of a body before the connection is closed.
    static let discardLimit = 64 << 20

    /// Connections open now.
    public var openConnections: Int {
        lock.lock(); defer { lock.unlock() }
        return connections.count
    }

    /// Requests being handled now (head read, response not yet sent).
    public var requestsInFlight: Int {
        lock.lock(); defer { lock.unlock() }
        return inFlight
    }

    /// Whether ``drain(grace:)`` has begun.
    public var isDraining: Bool {
        lock.lock(); defer { lock.unlock() }
        return draining
    }

    /// Stops accepting connections, lets requests in flight finish for up to `grace` seconds, then
    /// closes every connection. Returns how many requests were still in flight when it gave up.
    @discardableResult
    public func drain(grace: Double) -> Int {
        lock.lock()
        draining = true
        let d = daemon
        lock.unlock()
        if let d {
            var api = MicroHTTPD.loaded.api
            let listener = api.MHD_quiesce_daemon(d)
            if listener >= 0 { close(listener) }
        }
        let deadline = Date().addingTimeInterval(grace)
        while requestsInFlight > 0 && Date() < deadline { usleep(10_000) }
        let left = requestsInFlight
        stop()
        return left
    }

    /// Closes every connection and stops the threads at once.
    public func stop() {
        lock.lock()
        let d = daemon
        daemon = nil
        stopped = true
        lock.unlock()
        if let d { MicroHTTPD.loaded.api.MHD_stop_daemon(d) }
    }

    deinit { stop() }

    // MARK: Slow clients

    private func reapSlowClients() {
        while true {
            usleep(100_000)
            let now = Date()
            lock.lock()
            if stopped { lock.unlock(); return }
            for record in connections.values where record.phase != .answering && !record.cutOff {
                guard now.timeIntervalSince(record.since) > limits.readTimeout else { continue }
                // A body that keeps arriving at a fair rate (a long streamed batch) has another window.
                if record.phase == .body && record.received - record.windowStart >= Int(HTTPServer.minimumBodyRate * limits.readTimeout) {
                    record.since = now
                    record.windowStart = record.received
                    continue
                }
                // The socket is still open: MHD closes it only after the CLOSED notification, which waits
                // for this lock. Shutting it down makes MHD see the end and close it.
                record.cutOff = true
                if record.descriptor >= 0 { shutdown(record.descriptor, Int32(SHUT_RDWR)) }
            }
            lock.unlock()
        }
    }

    // MARK: Callbacks

    fileprivate func connectionStarted(_ connection: OpaquePointer) {
        var api = MicroHTTPD.loaded.api
        let record = ConnectionRecord(descriptor: mathaloud_mhd_connection_fd(&api, connection))
        lock.lock()
        connections[connection] = record
        lock.unlock()
    }

    fileprivate func connectionClosed(_ connection: OpaquePointer) {
        lock.lock()
        connections[connection] = nil
        lock.unlock()
    }

    private func setPhase(_ connection: OpaquePointer, _ phase: ConnectionRecord.Phase, restart: Bool) {
        lock.lock()
        if let record = connections[connection] {
            record.phase = phase
            if restart { record.since = Date() }
        }
        lock.unlock()
    }

    fileprivate func handle(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = context.pointee else {
            return begin(connection, url: url, method: method, uploadSize: uploadSize.pointee, context: context)
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        if state.queued { uploadSize.pointee = 0; return MHD_Result.YES }
        let size = uploadSize.pointee
        if size > 0 {
            uploadSize.pointee = 0
            state.received += size
            lock.lock()
            connections[connection]?.received += size
            lock.unlock()
            // libmicrohttpd takes a response only before the body or after all of it: an error found
            // in the middle (a chunked body over the limit) is sent once the rest is read and dropped,
            // unless the client sends far more, when the connection is closed.
            if state.error != nil {
                return state.received > HTTPServer.discardLimit ? MHD_Result.NO : MHD_Result.YES
            }
            switch state.plan {
            case .buffer(let limit, let tooLarge):
                if state.received > limit {
                    state.error = tooLarge
                    state.body = Data()
                } else {
                    state.body.append(UnsafeRawPointer(upload!).assumingMemoryBound(to: UInt8.self), count: size)
                }
            case .stream(let stream):
                state.error = stream.append(UnsafeRawBufferPointer(start: upload, count: size))
            case .reject(let response, _, let limit):
                if state.received > limit { state.error = response }
            }
            return MHD_Result.YES
        }
        // The body is complete.
        setPhase(connection, .answering, restart: false)
        let response: HTTPResponse
        if let error = state.error { return queue(error, state: state, connection: connection, close: true) }
        switch state.plan {
        case .buffer:
            let request = HTTPRequest(method: state.head.method, path: state.head.path, query: state.head.query,
                                      headers: state.head.headers, body: state.body, id: state.head.id)
            state.body = Data()
            response = handler.respond(to: request, route: state.route)
        case .stream(let stream):
            response = stream.finish()
        case .reject(let r, _, _):
            response = r
        }
        return queue(response, state: state, connection: connection, close: isDraining)
    }

    private func begin(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                       uploadSize: Int, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        var api = MicroHTTPD.loaded.api
        var headers: [String: String] = [:]
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = api.MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, headerCallback, pointer)
        }
        let target = String(cString: url)
        // MHD gives the path without the query; the query's raw text is rebuilt for routes that want it.
        var query = ""
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = api.MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, queryCallback, pointer)
        }
        var client = [CChar](repeating: 0, count: 64)
        mathaloud_mhd_client_address(&api, connection, &client, client.count)
        let head = RequestHead(method: String(cString: method), path: target, query: query, headers: headers,
                               id: RequestID.make(from: headers["x-request-id"]),
                               client: String(decoding: client.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let (plan, route) = handler.plan(head)
        let state = RequestState(head: head, plan: plan, route: route)
        context.pointee = Unmanaged.passRetained(state).toOpaque()
        lock.lock()
        inFlight += 1
        if let record = connections[connection], record.phase == .waiting {
            record.phase = .body
            record.received = 0
            record.windowStart = 0
        }
        lock.unlock()
        // A declared body larger than the limit is refused before it is read.
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            switch plan {
            case .buffer(let limit, let tooLarge) where length > limit:
                return queue(tooLarge, state: state, connection: connection, close: true)
            case .reject(let response, _, let limit) where length > limit:
                return queue(response, state: state, connection: connection, close: true)
            default: break
            }
        }
        if case .reject(let response, false, _) = plan {
            return queue(response, state: state, connection: connection, close: uploadSize > 0 || headers["content-length"].map { $0 != "0" } ?? false
                         || headers["transfer-encoding"] != nil)
        }
        return MHD_Result.YES
    }

    private func queue(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer, close: Bool) -> MHD_Result {
        var api = MicroHTTPD.loaded.api
        state.queued = true
        state.status = response.status
        state.bytes = response.bodySize
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let data):
            mhdResponse = data.withUnsafeBytes { buffer in
                api.MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                                                    MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let fd, let size):
            mhdResponse = api.MHD_create_response_from_fd64(size, fd)
        }
        guard let mhdResponse else { return MHD_Result.NO }
        for (name, value) in response.headers + handler.commonHeaders(for: state.head, status: response.status) {
            _ = api.MHD_add_response_header(mhdResponse, name, value)
        }
        if close { _ = api.MHD_add_response_header(mhdResponse, "Connection", "close") }
        let result = api.MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        api.MHD_destroy_response(mhdResponse)
        return result
    }

    fileprivate func completed(_ connection: OpaquePointer?, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                               code: MHD_RequestTerminationCode) {
        guard let context, let raw = context.pointee else { return }
        context.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        lock.lock()
        inFlight -= 1
        if let connection, let record = connections[connection] {
            record.phase = .waiting
            record.since = Date()
        }
        lock.unlock()
        handler.finished(CompletedExchange(head: state.head, status: state.status, bytes: state.bytes,
                                           seconds: Date().timeIntervalSince(state.started),
                                           completed: code == MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK, route: state.route))
    }
}

/// A connection's phase, for the read deadline: waiting for (or reading) a request head, reading a
/// body, or answering (the handler runs or the response is being sent: no deadline).
final class ConnectionRecord {
    enum Phase { case waiting, body, answering }
    let descriptor: Int32
    var phase: Phase = .waiting
    var since = Date()
    var cutOff = false
    /// Body bytes received so far, and at the start of the current window.
    var received = 0
    var windowStart = 0
    init(descriptor: Int32) { self.descriptor = descriptor }
}

/// Per-request state between handler calls.
final class RequestState {
    let head: RequestHead
    let plan: RequestPlan
    let route: String
    let started = Date()
    var body = Data()
    var received = 0
    var queued = false
    var status = 0
    var bytes: UInt64 = 0
    /// An error found while the body was arriving, answered when it ends.
    var error: HTTPResponse?
    init(head: RequestHead, plan: RequestPlan, route: String) {
        self.head = head
        self.plan = plan
        self.route = route
    }
}

/// Request ids: the client's `X-Request-Id` when it is 1…128 visible ASCII characters, else 16 hex
/// digits — a random prefix drawn once per process and a counter, so ids are unique without a system
/// call per request.
enum RequestID {
    private static let prefix: UInt64 = UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_0000_0000
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counter: UInt64 = 0

    static func make(from header: String?) -> String {
        if let header, (1...128).contains(header.utf8.count), header.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            return header
        }
        lock.lock()
        counter &+= 1
        let value = prefix | (counter & 0xFFFF_FFFF)
        lock.unlock()
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

private func accessCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
                            _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ upload: UnsafePointer<CChar>?,
                            _ uploadSize: UnsafeMutablePointer<Int>?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadSize, let context else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, context: context)
}

private func completedCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                               _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode) {
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().completed(connection, context: context, code: code)
}

private func notifyCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                            _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode) {
    guard let cls, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if code == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED { server.connectionStarted(connection) } else { server.connectionClosed(connection) }
}

private func headerCallback(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                            _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return MHD_Result.YES }
    let headers = cls.assumingMemoryBound(to: [String: String].self)
    headers.pointee[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
    return MHD_Result.YES
}

private func queryCallback(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                           _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return MHD_Result.YES }
    let query = cls.assumingMemoryBound(to: String.self)
    if !query.pointee.isEmpty { query.pointee += "&" }
    query.pointee += String(cString: key)
    if let value { query.pointee += "=" + String(cString: value) }
    return MHD_Result.YES
}
