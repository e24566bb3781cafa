import Foundation
import MathAloud

/// A route body: the one request type of every batch and the library (``FormulaRequest``, DESIGN.md
/// §11) plus the options only the service reads, which arrive among the request's other fields:
/// `strict` (answer 422 when the formula has errors), the voice's `rate`, `pitch`, `pauseScale`, the
/// image's `font`, `size`, `scale`, `color`, `background`.
struct RouteRequest {
    /// The request.
    let request: FormulaRequest
    /// Answer 422 when the formula has errors.
    let strict: Bool

    /// Reads a body: UTF-8 (else 400 bad-encoding), JSON within the batch limits (else 400 bad-json,
    /// naming the column), a request (else 400 bad-field, naming the field), a formula within
    /// `maxFormulaBytes` (else 413).
    static func decode(_ body: Data, maxFormulaBytes: Int) throws(ServiceError) -> RouteRequest {
        let parsed: Result<JSONValue, JSONParseError> = body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard String(validating: bytes, as: UTF8.self) != nil else {
                return .failure(JSONParseError(.invalidUTF8, at: 0))
            }
            do throws(JSONParseError) {
                return .success(try JSONValue.parse(bytes, limits: BatchLimits.jsonLimits))
            } catch {
                return .failure(error)
            }
        }
        let json: JSONValue
        switch parsed {
        case .success(let value): json = value
        case .failure(let error):
            if case .invalidUTF8 = error.kind { throw ServiceError(400, .badEncoding, "the body is not valid UTF-8") }
            throw .badJSON("the body is not valid JSON: \(error.description)")
        }
        guard json.objectValue != nil else { throw .badJSON("the body must be a JSON object, not \(json.kindDescription)") }
        let request: FormulaRequest
        do { request = try FormulaRequest(json: json) } catch { throw .badField(error.description) }
        if request.input.source.utf8.count > maxFormulaBytes {
            throw ServiceError(413, .tooLarge, "the \(request.input.field) is larger than the limit of \(maxFormulaBytes) bytes")
        }
        var strict = false
        if let s = request.otherFields["strict"], !s.isNull {
            guard let b = s.boolValue else { throw .badField("\"strict\" must be true or false") }
            strict = b
        }
        return RouteRequest(request: request, strict: strict)
    }

    /// The formula (`tex` or `mathml`); prose (`text`) is refused by the routes that need one formula.
    func formula(for route: String) throws(ServiceError) -> (source: String, notation: FormulaNotation) {
        guard let notation = request.input.notation else {
            throw .badField("\(route) takes \"tex\" or \"mathml\", not \"text\"")
        }
        return (request.input.source, notation)
    }

    /// A number option within a range.
    func number(_ key: String, in range: ClosedRange<Double>) throws(ServiceError) -> Double? {
        guard let v = request.otherFields[key], !v.isNull else { return nil }
        guard let n = v.numberValue?.doubleValue, range.contains(n) else {
            throw .badField("\"\(key)\" must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// A string option.
    func string(_ key: String) throws(ServiceError) -> String? {
        guard let v = request.otherFields[key], !v.isNull else { return nil }
        guard let s = v.stringValue else { throw .badField("\"\(key)\" must be a string") }
        return s
    }
}
