import Foundation
import MathAloud

/// A route body read from JSON: the fields every formula route shares (`id`, `tex` | `mathml`,
/// `locale`, `style`, `preferences`, `format`, `template`, `strict`) and the route's own options
/// (kept as JSON values in `object`).
struct FormulaRequest {
    /// `id` as JSON text (`null` when absent), echoed in the answer.
    let id: String
    /// The formula and its notation.
    let source: String
    let notation: FormulaNotation
    let locale: String?
    let style: String?
    let preferences: [String: String]
    let format: String?
    let template: String?
    /// Answer 422 when the formula has errors.
    let strict: Bool
    /// The whole object, for the route's own fields.
    let object: [String: Any]

    /// Reads a body; `maxFormulaBytes` bounds `tex`/`mathml`.
    static func decode(_ body: Data, maxFormulaBytes: Int) throws(ServiceError) -> FormulaRequest {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw ServiceError(400, .badEncoding, "the body is not valid UTF-8")
        }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: body, options: []) } catch {
            throw .badJSON("the body is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else { throw .badJSON("the body must be a JSON object") }
        let id = object["id"].map { JSONText.encode($0) } ?? "null"
        let source: String
        let notation: FormulaNotation
        switch (object["tex"], object["mathml"]) {
        case (let tex as String, nil): (source, notation) = (tex, .tex)
        case (nil, let mathml as String): (source, notation) = (mathml, .mathml)
        case (nil, nil): throw .badField("give \"tex\" or \"mathml\" (a string)")
        case (.some, .some): throw .badField("give \"tex\" or \"mathml\", not both")
        default: throw .badField("\"tex\" and \"mathml\" must be strings")
        }
        if source.utf8.count > maxFormulaBytes {
            throw ServiceError(413, .tooLarge, "the formula is larger than the limit of \(maxFormulaBytes) bytes")
        }
        func string(_ key: String) throws(ServiceError) -> String? {
            guard let v = object[key], !(v is NSNull) else { return nil }
            guard let s = v as? String else { throw .badField("\"\(key)\" must be a string") }
            return s
        }
        var preferences: [String: String] = [:]
        if let p = object["preferences"], !(p is NSNull) {
            guard let dictionary = p as? [String: Any] else { throw .badField("\"preferences\" must be an object of strings") }
            for (k, v) in dictionary {
                guard let s = v as? String else { throw .badField("preference \"\(k)\" must be a string") }
                preferences[k] = s
            }
        }
        var strict = false
        if let s = object["strict"], !(s is NSNull) {
            guard let b = s as? Bool else {
                throw .badField("\"strict\" must be true or false")
            }
            strict = b
        }
        return FormulaRequest(id: id, source: source, notation: notation, locale: try string("locale"),
                              style: try string("style"), preferences: preferences, format: try string("format"),
                              template: try string("template"), strict: strict, object: object)
    }

    /// A number field within a range.
    func number(_ key: String, in range: ClosedRange<Double>) throws(ServiceError) -> Double? {
        guard let v = object[key], !(v is NSNull) else { return nil }
        guard let n = v as? Double ?? (v as? Int).map(Double.init), range.contains(n) else {
            throw .badField("\"\(key)\" must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// A boolean field.
    func bool(_ key: String) throws(ServiceError) -> Bool? {
        guard let v = object[key], !(v is NSNull) else { return nil }
        guard let b = v as? Bool else { throw .badField("\"\(key)\" must be true or false") }
        return b
    }

    /// A string field.
    func string(_ key: String) throws(ServiceError) -> String? {
        guard let v = object[key], !(v is NSNull) else { return nil }
        guard let s = v as? String else { throw .badField("\"\(key)\" must be a string") }
        return s
    }
}
