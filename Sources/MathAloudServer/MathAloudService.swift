import Foundation
import MathAloud
import MathAloudRender
import MathAloudVoice

/// The MathAloud HTTP API (DESIGN.md §12): routes, authentication, rate limits, CORS, metrics and the
/// access log over an ``HTTPServer``. Stateless between requests but for bounded caches; every
/// engine is immutable and shared by the server's threads.
public final class MathAloudService: HTTPHandler, @unchecked Sendable {
    /// The configuration in force.
    public let configuration: ServerConfiguration
    /// Counters and histograms for `/metrics`.
    public let metrics = ServiceMetrics()
    let engines: EngineHolder
    let log: AccessLog
    let rateLimiter: RateLimiter?
    let cors: CORSPolicy
    let texOptions: TeXParserOptions
    private let lock = NSLock()
    private weak var server: HTTPServer?
    private var batchesRunning = 0
    /// Routes by path.
    let routes: [String: Route]

    /// A route: its path, methods, name for metrics, and how it answers.
    struct Route {
        enum Kind {
            case buffered((MathAloudService, HTTPRequest) throws -> HTTPResponse)
            case batch
        }
        let path: String
        let methods: [String]
        let kind: Kind
        /// The body's media types (POST routes).
        let accepts: [String]
    }

    /// Loads the engines (checking every rule file) and prepares the routes.
    public init(configuration: ServerConfiguration, logOutput: AccessLog.Output = .standardOutput) throws(SpeechLoadError) {
        self.configuration = configuration
        self.texOptions = {
            var o = TeXParserOptions()
            o.limits.maxInputBytes = configuration.maxFormulaBytes
            return o
        }()
        self.engines = EngineHolder(try SpeechEngines(rulesDirectory: configuration.rulesDirectory, texOptions: texOptions))
        self.log = AccessLog(format: configuration.logFormat, output: logOutput)
        self.rateLimiter = configuration.rateLimit > 0 ? RateLimiter(rate: configuration.rateLimit, burst: configuration.rateBurst) : nil
        self.cors = CORSPolicy(origins: configuration.corsOrigins)
        let json = ["application/json"]
        let list: [Route] = [
            Route(path: "/v1/speech", methods: ["POST"], kind: .buffered { try $0.speech($1) }, accepts: json),
            Route(path: "/v1/labels", methods: ["POST"], kind: .buffered { try $0.labels($1) }, accepts: json),
            Route(path: "/v1/parse", methods: ["POST"], kind: .buffered { try $0.parse($1) }, accepts: json),
            Route(path: "/v1/audio", methods: ["POST"], kind: .buffered { try $0.audio($1) }, accepts: json),
            Route(path: "/v1/render", methods: ["POST"], kind: .buffered { try $0.render($1) }, accepts: json),
            Route(path: "/v1/speech:batch", methods: ["POST"], kind: .batch,
                  accepts: ["application/x-ndjson", "application/jsonl", "application/json-lines", "application/json"]),
            Route(path: "/v1/locales", methods: ["GET", "HEAD"], kind: .buffered { try $0.locales($1) }, accepts: []),
            Route(path: "/v1/styles", methods: ["GET", "HEAD"], kind: .buffered { try $0.styles($1) }, accepts: []),
            Route(path: "/openapi.json", methods: ["GET", "HEAD"], kind: .buffered { s, _ in s.openAPI() }, accepts: []),
            Route(path: "/healthz", methods: ["GET", "HEAD"], kind: .buffered { s, _ in .json(200, "{\"status\":\"ok\"}") }, accepts: []),
            Route(path: "/readyz", methods: ["GET", "HEAD"], kind: .buffered { s, _ in s.readiness() }, accepts: []),
            Route(path: "/metrics", methods: ["GET", "HEAD"], kind: .buffered { s, _ in s.metricsText() }, accepts: []),
        ]
        self.routes = Dictionary(uniqueKeysWithValues: list.map { ($0.path, $0) })
    }

    /// Starts serving (the service answers on the server's threads until it is stopped or drained).
    public func start() throws(HTTPServerError) -> HTTPServer {
        let limits = HTTPServerLimits(threads: configuration.threads, connections: configuration.maxConnections,
                                      connectionsPerClient: configuration.maxConnectionsPerClient,
                                      idleTimeout: configuration.keepAliveTimeout, readTimeout: configuration.readTimeout,
                                      connectionMemory: 64 << 10)
        let server = try HTTPServer(address: configuration.address, port: configuration.port, limits: limits, handler: self)
        lock.lock()
        self.server = server
        lock.unlock()
        return server
    }

    /// Reloads the rules directory: new engines are loaded and checked before they replace the old
    /// ones, so a broken file keeps the rules in force. Returns the error (with file:line:column) when
    /// the new rules were refused.
    @discardableResult
    public func reloadRules() -> SpeechLoadError? {
        do {
            engines.replace(with: try SpeechEngines(rulesDirectory: configuration.rulesDirectory, texOptions: texOptions))
            metrics.recordReload("ok")
            log.event("rules-reloaded", ["rulesDir": configuration.rulesDirectory?.lastPathComponent ?? "(built-in)"])
            return nil
        } catch {
            metrics.recordReload("failed")
            log.event("rules-reload-failed", ["error": error.description, "kept": "the rules in force"])
            return error
        }
    }

    // MARK: HTTPHandler

    /// Decides what to do with a request from its head: route, method, draining, key, rate limit,
    /// media type, batch slots.
    public func plan(_ head: RequestHead) -> (plan: RequestPlan, route: String) {
        let discard = configuration.maxBodyBytes
        func reject(_ error: ServiceError, _ route: String) -> (plan: RequestPlan, route: String) {
            (.reject(error.response, discardBody: true, limit: discard), route)
        }
        guard let route = routes[head.path] else { return reject(.notFound, "unknown") }
        let name = route.path
        if head.method == "OPTIONS" {
            guard cors.isEnabled else { return reject(.methodNotAllowed(route.methods), name) }
            return (.reject(preflight(head, route), discardBody: true, limit: discard), name)
        }
        guard route.methods.contains(head.method) else { return reject(.methodNotAllowed(route.methods), name) }
        let always = ["/healthz", "/readyz", "/metrics"].contains(route.path)
        if !always, server?.isDraining == true {
            return reject(ServiceError(503, .draining, "the server is shutting down; retry on another instance",
                                       headers: [("Retry-After", "1")]), name)
        }
        var client = head.client
        if let keys = configuration.apiKeys, !configuration.openRoutes.contains(route.path) {
            guard let keyName = keys.name(forAuthorization: head.headers["authorization"]) else {
                return reject(ServiceError(401, .unauthorized, "send 'Authorization: Bearer KEY' with a valid key",
                                           headers: [("WWW-Authenticate", "Bearer realm=\"mathaloud\"")]), name)
            }
            client = keyName
        }
        if let limiter = rateLimiter, !always, let wait = limiter.take(client) {
            return reject(ServiceError(429, .rateLimited, "over the rate limit of \(configuration.rateLimit) requests per second",
                                       headers: [("Retry-After", String(max(1, Int(wait.rounded(.up)))))]), name)
        }
        if !route.accepts.isEmpty {
            let type = head.headers["content-type"].map {
                $0.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let type, route.accepts.contains(type) || (route.accepts.contains("application/json") && type.hasSuffix("+json")) else {
                return reject(.unsupportedMediaType(route.accepts[0]), name)
            }
        }
        switch route.kind {
        case .batch:
            lock.lock()
            let full = batchesRunning >= configuration.maxBatches
            if !full { batchesRunning += 1 }
            lock.unlock()
            if full {
                return reject(ServiceError(503, .overloaded, "too many batches at once; retry shortly", headers: [("Retry-After", "1")]), name)
            }
            return (.stream(BatchStream(service: self, engines: engines.current)), name)
        case .buffered:
            return (.buffer(limit: configuration.maxBodyBytes, tooLarge: ServiceError.tooLarge(configuration.maxBodyBytes).response), name)
        }
    }

    /// Answers a buffered request.
    public func respond(to request: HTTPRequest, route: String) -> HTTPResponse {
        guard let r = routes[request.path], case .buffered(let answer) = r.kind else { return ServiceError.notFound.response }
        do {
            return try answer(self, request)
        } catch let error as ServiceError {
            return error.response
        } catch {
            log.event("internal-error", ["route": route, "id": request.id])
            return ServiceError(500, .internalError, "the server failed to answer; the request id is in X-Request-Id").response
        }
    }

    /// The request id, and CORS headers when the policy allows the request's origin.
    public func commonHeaders(for head: RequestHead, status: Int) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("X-Request-Id", head.id)]
        if let origin = cors.allowedOrigin(head.headers["origin"]) {
            headers.append(("Access-Control-Allow-Origin", origin))
            // A browser page reads an image's label and an audio's speech from these headers too.
            headers.append(("Access-Control-Expose-Headers", "X-Request-Id, Retry-After, X-Label, X-Speech, X-Diagnostics, X-Diagnostics-Count"))
            if origin != "*" { headers.append(("Vary", "Origin")) }
        }
        return headers
    }

    /// Logs the exchange and counts it.
    public func finished(_ exchange: CompletedExchange) {
        metrics.record(route: exchange.route, status: exchange.status, seconds: exchange.seconds, completed: exchange.completed)
        log.request(exchange)
    }

    /// A stream for `/v1/speech:batch` outside the server (the fuzz harness feeds it directly; a
    /// server's batches get theirs from ``plan(_:)``). It takes a batch slot until it is released.
    public func batchStream() -> StreamingBody {
        lock.lock()
        batchesRunning += 1
        lock.unlock()
        return BatchStream(service: self, engines: engines.current)
    }

    /// A batch stream ended (its slot is free again).
    func batchEnded() {
        lock.lock()
        batchesRunning -= 1
        lock.unlock()
    }

    private func preflight(_ head: RequestHead, _ route: Route) -> HTTPResponse {
        // An origin the policy does not allow gets no CORS headers, so the browser refuses the call.
        guard cors.allowedOrigin(head.headers["origin"]) != nil else { return HTTPResponse(status: 204) }
        return HTTPResponse(status: 204, headers: [
            ("Access-Control-Allow-Methods", (route.methods + ["OPTIONS"]).joined(separator: ", ")),
            ("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, X-Request-Id"),
            ("Access-Control-Max-Age", "600"),
        ])
    }

    // MARK: Routes

    /// Reads a formula body and its speaker.
    func formula(_ request: HTTPRequest) throws(ServiceError) -> (RouteRequest, Speaker) {
        let body = try RouteRequest.decode(request.body, maxFormulaBytes: configuration.maxFormulaBytes)
        let speaker = try engines.current.speaker(for: body.request)
        return (body, speaker)
    }

    /// Answers 422 when strict mode was asked for and the diagnostics hold an error.
    func checkStrict(_ body: RouteRequest, _ diagnostics: [DiagnosticRecord]) throws(ServiceError) {
        if body.strict && diagnostics.contains(where: { $0.severity == .error }) {
            throw ServiceError(422, .inputErrors, "the formula has errors (strict mode)", diagnostics: diagnostics)
        }
    }

    /// Speech for a request (the batch processor's answer: one code path for batches and routes),
    /// within the per-request time limit.
    func speechResponse(_ body: RouteRequest) throws(ServiceError) -> SpeechResponse {
        let processor = SpeechBatchProcessor(speakers: engines.current.speakers)
        let (result, expired) = FormulaDeadline.run(seconds: configuration.requestTimeout) { processor.process(body.request) }
        if expired { throw ServiceError.timeout(configuration.requestTimeout) }
        switch result {
        case .failure(let error): throw ServiceError.badField(error.message)
        case .success(let response):
            try checkStrict(body, response.diagnostics)
            return response
        }
    }

    func speech(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let body = try RouteRequest.decode(request.body, maxFormulaBytes: configuration.maxFormulaBytes)
        if let format = body.request.format, format.kind != .speech {
            throw .badField("\"format\" must be \(OutputFormat.names(of: .speech)) for speech, not \(format)")
        }
        var response = HTTPResponse.json(200, try speechResponse(body).jsonText)
        response.setLanguage(engines.current.language(of: body.request))
        return response
    }

    func labels(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        var body = try RouteRequest.decode(request.body, maxFormulaBytes: configuration.maxFormulaBytes)
        if body.request.template == nil {
            var r = body.request
            r.template = LabelTemplate.speechOnly.template
            body = RouteRequest(request: r, strict: body.strict)
        }
        if let format = body.request.format, format.kind != .speech {
            throw .badField("\"format\" must be \(OutputFormat.names(of: .speech)) for labels, not \(format)")
        }
        var response = HTTPResponse.json(200, try speechResponse(body).jsonText)
        response.setLanguage(engines.current.language(of: body.request))
        return response
    }

    func parse(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let body = try RouteRequest.decode(request.body, maxFormulaBytes: configuration.maxFormulaBytes)
        _ = try body.formula(for: "parse")
        var options = texOptions
        options.displayMode = body.request.display ?? false
        let parser = FormulaParser(texOptions: options)
        let (result, expired) = FormulaDeadline.run(seconds: configuration.requestTimeout) {
            parser.response(to: body.request, format: .mathml)
        }
        if expired { throw ServiceError.timeout(configuration.requestTimeout) }
        switch result {
        case .failure(let error): throw ServiceError.badField(error.message)
        case .success(let response):
            try checkStrict(body, response.diagnostics)
            return .json(200, response.jsonText)
        }
    }

    func audio(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let body = try RouteRequest.decode(request.body, maxFormulaBytes: configuration.maxFormulaBytes)
        if let format = body.request.format, format.kind != .speech {
            throw .badField("\"format\" must be \(OutputFormat.names(of: .speech)) for audio, not \(format)")
        }
        var plain = body.request
        plain.format = nil
        plain.template = nil
        let spoken = try speechResponse(RouteRequest(request: plain, strict: body.strict))
        let speaker = try engines.current.speaker(for: body.request)
        var options = VoiceOptions()
        options.voice = body.request.voice
        if let rate = try body.number("rate", in: 80...450) { options.rate = Int(rate) }
        if let pitch = try body.number("pitch", in: 0...100) { options.pitch = Int(pitch) }
        if let scale = try body.number("pauseScale", in: 0...10) { options.pauseScale = scale }
        options.maximumDuration = 120
        // The structured speech (with its graded pauses) is what the voice reads; it is spoken again
        // here from the speaker's cache.
        let speech: SpeechDescription
        switch body.request.input {
        case .text(let text): speech = speaker.speech(forText: text).speech
        case .tex(let f), .mathml(let f): speech = speaker.speak(f, notation: body.request.input.notation!).speech
        }
        let recording: VoiceRecording
        do {
            let voice = try Voice(locale: speaker.locale, options: options)
            recording = try voice.synthesize(.speech(speech))
        } catch {
            throw ServiceError.voice(error)
        }
        var response = HTTPResponse(status: 200, contentType: "audio/wav", body: recording.audio.wavData())
        response.headers.append(("X-Speech", HeaderText.encode(spoken.speech)))
        response.setLanguage(speaker.locale.bcp47)
        response.addDiagnostics(spoken.diagnostics)
        return response
    }

    func render(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let (body, speaker) = try formula(request)
        let (source, notation) = try body.formula(for: "render")
        let format = try ImageFormat.negotiate(body.request.format, accept: request.header("accept"))
        var options = RenderOptions()
        if let font = try body.string("font") {
            guard MathFontFamily(rawValue: font) != nil else {
                throw .badField("\"font\" must be one of " + MathFontFamily.allCases.map(\.rawValue).joined(separator: ", "))
            }
            options.font = font
        }
        if let size = try body.number("size", in: 4...200) { options.size = size }
        if let scale = try body.number("scale", in: 0.25...8) { options.scale = scale }
        options.display = body.request.display ?? false
        for key in ["color", "background"] {
            if let text = try body.string(key) {
                guard let color = RGBAColor(text) else { throw .badField("\"\(key)\" must be a colour name, #rgb or #rrggbb") }
                if key == "color" { options.color = color } else { options.background = color }
            }
        }
        options.labelTemplate = body.request.template ?? LabelTemplate.speechOnly.template
        let idPrefix = try body.string("idPrefix")
        if let idPrefix, !Renderer.isValidIDPrefix(idPrefix) {
            throw .badField("\"idPrefix\" must be 1 to 64 ASCII letters, digits, '-', '_' or '.'")
        }
        let renderer: Renderer
        do { renderer = try Renderer(options: options, speaker: speaker) } catch {
            log.event("render-unavailable", ["error": "\(error)"])
            throw ServiceError(503, .unavailable, "typesetting is not available on this server (fonts or HarfBuzz missing)")
        }
        let (formula, expired) = FormulaDeadline.run(seconds: configuration.requestTimeout) {
            renderer.render(speaker.parser.parse(source, notation: notation), display: options.display ? true : nil)
        }
        if expired { throw ServiceError.timeout(configuration.requestTimeout) }
        let records = formula.diagnostics.map(DiagnosticRenderer(source: SourceText(source)).record)
        // A formula refused whole (a limit: too deep, too many expansions) draws nothing: a 400 with
        // its diagnostics, as the speech routes answer, not a blank image.
        if let rejection = formula.rejection {
            throw ServiceError(400, .badField, "nothing was drawn: \(rejection.message) [\(rejection.id)]", diagnostics: records)
        }
        try checkStrict(body, records)
        let data: Data
        do {
            switch format {
            case .svg: data = Data(renderer.svg(formula, idPrefix: idPrefix).utf8)
            case .png: data = try renderer.png(formula)
            case .pdf: data = try renderer.pdf(formula)
            }
        } catch {
            log.event("render-unavailable", ["error": "\(error)"])
            throw ServiceError(503, .unavailable, "\(format.rawValue.uppercased()) output is not available on this server (cairo missing)")
        }
        var response = HTTPResponse(status: 200, contentType: format.mediaType, body: data)
        response.headers.append(("X-Label", HeaderText.encode(formula.label)))
        response.setLanguage(formula.language)
        response.addDiagnostics(records)
        return response
    }

    func locales(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let resources = engines.current.resources
        let list = resources.locales.map { locale -> JSONValue in
            .object(["locale": .string(locale), "styles": .array(resources.styles(for: locale).map { .string($0) })])
        }
        return .json(200, JSONValue.object(["locales": .array(list)]).jsonText)
    }

    func styles(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let engines = self.engines.current
        let asked = request.query.split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == "locale" ? String(parts[1]) : nil
        }.first
        var out: [JSONValue] = []
        for locale in asked.map({ [$0] }) ?? engines.resources.locales {
            guard let styles = engines.styles[locale] else {
                throw .badField("unknown locale '\(locale)'; available: " + engines.resources.locales.joined(separator: ", "))
            }
            out += styles
        }
        return .json(200, JSONValue.object(["styles": .array(out)]).jsonText)
    }

    func readiness() -> HTTPResponse {
        if server?.isDraining == true {
            return ServiceError(503, .draining, "the server is shutting down").response
        }
        return .json(200, "{\"status\":\"ready\"}")
    }

    func metricsText() -> HTTPResponse {
        let cache = engines.current.speakers.cacheStatistics
        let text = metrics.exposition(inFlight: server?.requestsInFlight ?? 0, connections: server?.openConnections ?? 0,
                                      cache: cache, draining: server?.isDraining ?? false)
        return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Data(text.utf8))
    }

    func openAPI() -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: Data(engines.current.openAPI.utf8))
    }
}

extension ImageFormat {
    /// The media type of the format.
    var mediaType: String {
        switch self {
        case .svg: return "image/svg+xml"
        case .png: return "image/png"
        case .pdf: return "application/pdf"
        }
    }

    /// The request's `format` when given, else the first acceptable type of `Accept` (SVG when any).
    static func negotiate(_ format: OutputFormat?, accept: String?) throws(ServiceError) -> ImageFormat {
        if let format {
            guard let f = ImageFormat(format) else { throw .badField("\"format\" must be \(OutputFormat.names(of: .image)) for render, not \(format)") }
            return f
        }
        guard let accept, !accept.isEmpty else { return .svg }
        for part in accept.split(separator: ",") {
            let type = part.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
            if type == "*/*" || type == "image/*" || type == "application/json" { return .svg }
            if let f = allCases.first(where: { $0.mediaType == type }) { return f }
        }
        throw ServiceError(406, .notAcceptable, "this route answers image/svg+xml, image/png or application/pdf")
    }
}

/// Header values from text: ASCII printable characters as they are, others percent-encoded (UTF-8),
/// so a label in any language fits an HTTP header.
enum HeaderText {
    /// `text` (its first `limit` bytes, cut before a character, never inside one: a cut inside made the
    /// header invalid UTF-8 when decoded) with every byte outside printable ASCII, and `%`, percent-encoded.
    static func encode(_ text: String, limit: Int = 2048) -> String {
        var kept = 0
        if text.utf8.count > limit {
            for scalar in text.unicodeScalars {
                let width = UTF8.width(scalar)
                if kept + width > limit { break }
                kept += width
            }
        } else {
            kept = text.utf8.count
        }
        var out = ""
        for byte in text.utf8.prefix(kept) {
            if byte >= 0x20 && byte < 0x7F && byte != 0x25 {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// The most bytes of `X-Diagnostics` (clients and proxies commonly take header lines of 8 KB).
    static let diagnosticsLimit = 6144

    /// A JSON array of diagnostic records, as the speech routes' `diagnostics` field, percent-encoded
    /// as ``encode(_:limit:)`` does: whole records in order while they fit ``diagnosticsLimit`` bytes.
    static func diagnostics(_ records: [DiagnosticRecord]) -> String {
        var out = "["
        for record in records {
            let item = encode(record.json.jsonText, limit: .max)
            if out.utf8.count + item.utf8.count + 2 > diagnosticsLimit { break }
            if out.utf8.count > 1 { out += "," }
            out += item
        }
        return out + "]"
    }
}

extension HTTPResponse {
    /// The formula's diagnostics for a route whose body is not JSON (an image, audio): `X-Diagnostics`
    /// holds them as the speech routes' `diagnostics` field (``HeaderText/diagnostics(_:)``), and
    /// `X-Diagnostics-Count` how many there are (more than the header holds when they did not fit).
    mutating func addDiagnostics(_ records: [DiagnosticRecord]) {
        headers.append(("X-Diagnostics", HeaderText.diagnostics(records)))
        headers.append(("X-Diagnostics-Count", String(records.count)))
    }
}

extension HTTPResponse {
    /// `Content-Language` for a body in one language: `tag`, a BCP 47 tag in its conventional case
    /// (``LocaleTag/bcp47``, the tag SSML's `xml:lang` and SVG's `lang` carry); nothing when it is nil.
    /// Error bodies carry none: their messages are English whatever the request's locale, not in it.
    mutating func setLanguage(_ tag: String?) {
        guard let tag else { return }
        headers.append(("Content-Language", tag))
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

extension ServiceError {
    static func voice(_ error: VoiceError) -> ServiceError {
        switch error {
        case .engineUnavailable, .synthesisFailed:
            return ServiceError(503, .unavailable, "speech synthesis is not available on this server (eSpeak-NG missing)")
        default:
            return ServiceError(400, .badField, "\(error)")
        }
    }
}
