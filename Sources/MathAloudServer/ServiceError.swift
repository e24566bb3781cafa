import Foundation
import MathAloud

/// An error answer: `{"error": {"code", "message", "diagnostics"}}` with its HTTP status. Messages say
/// what was wrong with the request; they never carry a stack trace or a file path of the server.
public struct ServiceError: Error, Sendable {
    /// The HTTP status.
    public let status: Int
    /// A stable code (`bad-json`, `too-large`…), listed in the OpenAPI document.
    public let code: Code
    /// A sentence for people.
    public let message: String
    /// Diagnostics as a JSON array (strict mode's errors), already rendered.
    public let diagnosticsJSON: String
    /// Extra headers (`Allow`, `Retry-After`, `WWW-Authenticate`).
    public let headers: [(name: String, value: String)]

    /// The stable error codes.
    public enum Code: String, Sendable, CaseIterable {
        case badJSON = "bad-json"
        case badField = "bad-field"
        case badEncoding = "bad-encoding"
        case unauthorized
        case notFound = "not-found"
        case methodNotAllowed = "method-not-allowed"
        case notAcceptable = "not-acceptable"
        case tooLarge = "too-large"
        case unsupportedMediaType = "unsupported-media-type"
        case inputErrors = "input-errors"
        case rateLimited = "rate-limited"
        case timeout
        case internalError = "internal"
        case unavailable
        case draining
        case overloaded
    }

    /// Creates an error.
    public init(_ status: Int, _ code: Code, _ message: String, diagnostics: [DiagnosticRecord] = [],
                headers: [(name: String, value: String)] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.diagnosticsJSON = JSONValue.array(diagnostics.map(\.json)).jsonText
        self.headers = headers
    }

    /// The JSON body.
    public var json: String {
        "{\"error\":{\"code\":" + JSONString.quote(code.rawValue) + ",\"diagnostics\":" + diagnosticsJSON
            + ",\"message\":" + JSONString.quote(message) + "}}"
    }

    /// The response.
    public var response: HTTPResponse {
        var r = HTTPResponse.json(status, json)
        r.headers += headers
        return r
    }

    static func badJSON(_ why: String) -> ServiceError { ServiceError(400, .badJSON, why) }
    static func badField(_ why: String) -> ServiceError { ServiceError(400, .badField, why) }
    static let notFound = ServiceError(404, .notFound, "no such route; GET /openapi.json lists them")
    static func methodNotAllowed(_ allowed: [String]) -> ServiceError {
        ServiceError(405, .methodNotAllowed, "use " + allowed.joined(separator: " or "),
                     headers: [("Allow", allowed.joined(separator: ", "))])
    }
    static func tooLarge(_ limit: Int, what: String = "the body") -> ServiceError {
        ServiceError(413, .tooLarge, "\(what) is larger than the limit of \(limit) bytes")
    }
    static func timeout(_ seconds: Double) -> ServiceError {
        ServiceError(422, .timeout, "the formula took longer than the time limit of \(seconds) s and was stopped")
    }
    static func unsupportedMediaType(_ expected: String) -> ServiceError {
        ServiceError(415, .unsupportedMediaType, "send Content-Type: \(expected)")
    }
}
