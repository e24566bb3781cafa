import Foundation

// One request type everywhere (DESIGN.md §11): the batch modes of the CLI (`parse`, `speak`, `say`,
// `render --batch`), the library's batch API and the HTTP service read ``FormulaRequest`` and write the
// responses below. Each type reads and writes itself through one pair of functions
// (``JSONRepresentable``: `init(json:)` and `json`), which its `Codable` conformance also uses, so a
// field added once is there in every wire format.

/// The output formats a request can ask for. One enum for all commands; each says which it accepts
/// (``kind``): speech as `text` or `ssml`, a tree as `tree`, `mathml` or `json`, an image as `svg`,
/// `png` or `pdf`.
public enum OutputFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Plain speech text.
    case text
    /// SSML 1.1 speech.
    case ssml
    /// The indented presentation-tree dump.
    case tree
    /// MathML.
    case mathml
    /// The presentation tree as JSON.
    case json
    /// An SVG image.
    case svg
    /// A PNG image.
    case png
    /// A PDF document.
    case pdf

    /// What a format is: speech, a tree, or an image.
    public enum Kind: Sendable { case speech, tree, image }

    /// What this format is.
    public var kind: Kind {
        switch self {
        case .text, .ssml: .speech
        case .tree, .mathml, .json: .tree
        case .svg, .png, .pdf: .image
        }
    }

    /// The name.
    public var description: String { rawValue }

    /// A format from its name in any case, or nil.
    public init?(name: String) { self.init(rawValue: name.lowercased()) }

    /// The names of the formats of one kind, for messages ("svg, png or pdf").
    public static func names(of kind: Kind) -> String {
        let names = allCases.filter { $0.kind == kind }.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

extension TreeFormat {
    /// The tree format an ``OutputFormat`` names (nil for speech and image formats).
    public init?(_ format: OutputFormat) {
        switch format {
        case .tree: self = .tree
        case .mathml: self = .mathml
        case .json: self = .json
        default: return nil
        }
    }
}

/// The image formats the renderer writes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// SVG with the label as `<title>`.
    case svg
    /// PNG with the label in an `iTXt` chunk.
    case png
    /// Tagged PDF with the label as `/Title` and `/Alt`.
    case pdf

    /// The image format an ``OutputFormat`` names (nil for speech and tree formats).
    public init?(_ format: OutputFormat) { self.init(rawValue: format.rawValue) }

    /// The image format of a file name's extension (`eq.PNG` → `.png`); nil for any other extension.
    public init?(pathExtension path: String) {
        let ext = (path as NSString).pathExtension.lowercased()
        self.init(rawValue: ext)
    }

    /// The name (also the file extension).
    public var description: String { rawValue }
}

/// What a request asks to be read: a TeX formula, a MathML formula, or prose with inline math.
public enum FormulaInput: Sendable, Hashable {
    /// TeX math (without `$` delimiters).
    case tex(String)
    /// MathML.
    case mathml(String)
    /// Prose with inline math (`$…$`, `\(…\)`, `\[…\]`, environments).
    case text(String)

    /// The source text.
    public var source: String {
        switch self { case .tex(let s), .mathml(let s), .text(let s): s }
    }

    /// The notation of a formula (nil for prose).
    public var notation: FormulaNotation? {
        switch self { case .tex: .tex; case .mathml: .mathml; case .text: nil }
    }

    /// The diagnostic that refuses this input as a whole: for a formula, any refusing diagnostic
    /// (``DiagnosticID/rejectsInput``); for prose, only the text's own (too large), since one bad
    /// formula in it never blanks the rest.
    public func rejection(in diagnostics: [Diagnostic]) -> Diagnostic? {
        switch self {
        case .tex, .mathml: diagnostics.rejection
        case .text: diagnostics.first { $0.severity == .error && $0.id.rejectsInput && $0.id.stage == "text" }
        }
    }

    /// The JSON field that carries it.
    public var field: String {
        switch self { case .tex: "tex"; case .mathml: "mathml"; case .text: "text" }
    }
}

/// A request: `{id, tex|mathml|text, locale, style, preferences, format, template, display, voice}`
/// (DESIGN.md §11). Every field but the input is optional; what a command does not use it ignores.
/// Fields the type does not know are kept in ``otherFields`` (a caller's own bookkeeping).
public struct FormulaRequest: JSONRepresentable, Sendable, Hashable {
    /// Any JSON value, echoed back as given (`null` when absent).
    public var id: JSONValue
    /// The formula or prose.
    public var input: FormulaInput
    /// The locale (default: the command's).
    public var locale: LocaleTag?
    /// The speech style (default: the command's).
    public var style: SpeechStyleName?
    /// Style preferences by name (merged over the command's).
    public var preferences: [String: String]?
    /// The output format (speech: `ssml` adds SSML to the response; parse: a tree format; render: an
    /// image format).
    public var format: OutputFormat?
    /// A label template (`Math: {speech}`): the response carries the label.
    public var template: String?
    /// Display math.
    public var display: Bool?
    /// An eSpeak-NG voice name (voice batches).
    public var voice: String?
    /// Members the request type does not define.
    public var otherFields: [String: JSONValue]

    /// The fields the type reads.
    public static let fields: Set<String> = ["id", "tex", "mathml", "text", "locale", "style", "preferences",
                                             "format", "template", "display", "voice"]

    /// Creates a request.
    public init(id: JSONValue = .null, input: FormulaInput, locale: LocaleTag? = nil, style: SpeechStyleName? = nil,
                preferences: [String: String]? = nil, format: OutputFormat? = nil, template: String? = nil,
                display: Bool? = nil, voice: String? = nil, otherFields: [String: JSONValue] = [:]) {
        self.id = id
        self.input = input
        self.locale = locale
        self.style = style
        self.preferences = preferences
        self.format = format
        self.template = template
        self.display = display
        self.voice = voice
        self.otherFields = otherFields
    }

    /// Reads a request object; the error names the field.
    public init(json: JSONValue) throws(JSONFieldError) {
        guard case .object(let o) = json else { throw JSONFieldError("the request must be a JSON object, not \(json.kindDescription)") }
        try self.init(members: o)
    }

    /// Reads a request from an object's members.
    public init(members o: [String: JSONValue]) throws(JSONFieldError) {
        func string(_ key: String) throws(JSONFieldError) -> String? {
            guard let v = o[key], !v.isNull else { return nil }
            guard case .string(let s) = v else { throw .type(key, expected: "a string", got: v) }
            return s
        }
        var inputs: [FormulaInput] = []
        if let t = try string("tex") { inputs.append(.tex(t)) }
        if let m = try string("mathml") { inputs.append(.mathml(m)) }
        if let t = try string("text") { inputs.append(.text(t)) }
        guard let input = inputs.first else { throw JSONFieldError("the object needs a \"tex\", \"mathml\" or \"text\" string") }
        guard inputs.count == 1 else {
            throw JSONFieldError("give one of \"tex\", \"mathml\", \"text\", not \(inputs.map { "\"\($0.field)\"" }.joined(separator: " and "))")
        }
        var preferences: [String: String]? = nil
        if let p = o["preferences"], !p.isNull {
            guard case .object(let members) = p else { throw .type("preferences", expected: "an object of strings", got: p) }
            var values: [String: String] = [:]
            for (name, value) in members {
                // A number or a Boolean is read as its text, as the CLI's --pref NAME=VALUE reads it.
                switch value {
                case .string(let s): values[name] = s
                case .number(let n): values[name] = n.text
                case .bool(let b): values[name] = b ? "true" : "false"
                default: throw .type("preferences.\(name)", expected: "a string", got: value)
                }
            }
            preferences = values
        }
        var format: OutputFormat? = nil
        if let f = try string("format") {
            guard let parsed = OutputFormat(name: f) else {
                throw JSONFieldError("\"format\" must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")), not \(JSONString.quote(f))")
            }
            format = parsed
        }
        var display: Bool? = nil
        if let d = o["display"], !d.isNull {
            guard case .bool(let b) = d else { throw .type("display", expected: "true or false", got: d) }
            display = b
        }
        let locale = try string("locale"), style = try string("style"), template = try string("template")
        let voice = try string("voice")
        let id: JSONValue = o["id"] ?? .null
        let others = o.filter { !FormulaRequest.fields.contains($0.key) }
        self.init(id: id, input: input, locale: locale.map { LocaleTag($0) }, style: style.map { SpeechStyleName($0) },
                  preferences: preferences, format: format, template: template, display: display, voice: voice,
                  otherFields: others)
    }

    /// The request as JSON.
    public var json: JSONValue {
        var o = otherFields
        o["id"] = id
        o[input.field] = .string(input.source)
        if let locale { o["locale"] = .string(locale.rawValue) }
        if let style { o["style"] = .string(style.rawValue) }
        if let preferences { o["preferences"] = .object(preferences.mapValues { .string($0) }) }
        if let format { o["format"] = .string(format.rawValue) }
        if let template { o["template"] = .string(template) }
        if let display { o["display"] = .bool(display) }
        if let voice { o["voice"] = .string(voice) }
        return .object(o)
    }

    /// Reads one batch line: a request, or the error response for the line (with the line's `id` when
    /// it could be read, and a message naming what is wrong and where).
    public static func read(line: String, limits: JSONLimits = BatchLimits.jsonLimits) -> Result<FormulaRequest, BatchError> {
        var line = line
        return line.withUTF8 { read(line: $0, limits: limits) }
    }

    /// Reads one batch line from UTF-8 bytes (see ``read(line:limits:)-(String,_)``).
    public static func read(line bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = BatchLimits.jsonLimits)
        -> Result<FormulaRequest, BatchError> {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            return .failure(BatchError(id: .null, message: "the line is empty"))
        }
        let parsed = JSONObjectLine(bytes, limits: limits)
        switch parsed.result {
        case .failure(let error):
            // The id, when it was read before the error, is echoed; the message names the field.
            let id = parsed.keyAtError == "id" ? JSONValue.null : parsed.membersBeforeError["id"] ?? .null
            if case .notAnObject = error.kind { return .failure(BatchError(id: .null, message: error.description)) }
            let field = parsed.keyAtError.map { "in \"\($0)\": " } ?? ""
            return .failure(BatchError(id: id, message: "the line is not valid JSON: " + field + error.description))
        case .success(let members):
            do { return .success(try FormulaRequest(members: members)) } catch {
                return .failure(BatchError(id: members["id"] ?? .null, message: error.description))
            }
        }
    }
}

/// Bounds on batch input.
public enum BatchLimits {
    /// JSON limits for one batch line: nesting 64 deep (a request needs 3), 16 MiB.
    public static let jsonLimits = JSONLimits()
    /// The default longest batch line, 1 MiB (a formula is at most 256 KiB; its JSON escaping can
    /// double it). Longer lines are an error line each; the batch goes on.
    public static let defaultMaxLineBytes = 1 << 20
    /// The default most bytes read from standard input or a file for one input, 16 MiB.
    public static let defaultMaxInputBytes = 16 << 20
}

/// The response for a request that could not be served: `{"error", "id"}`, plus `"diagnostics"` when
/// the input was read and refused as a whole (a limit, malformed MathML), so the line says why.
public struct BatchError: Error, JSONRepresentable, DiagnosticsCarrying, Sendable, Hashable, CustomStringConvertible {
    /// The request's `id` (`null` when it could not be read).
    public var id: JSONValue
    /// What is wrong.
    public var message: String
    /// The input's diagnostics, when it was read (omitted from JSON when empty).
    public var diagnostics: [DiagnosticRecord]

    /// Creates an error response.
    public init(id: JSONValue, message: String, diagnostics: [DiagnosticRecord] = []) {
        self.id = id
        self.message = message
        self.diagnostics = diagnostics
    }

    /// The error for a formula refused as a whole: the refusing diagnostic's message and id, and all
    /// the formula's diagnostics.
    public init(id: JSONValue, rejection: Diagnostic, diagnostics: [DiagnosticRecord]) {
        self.init(id: id, message: "\(rejection.message) [\(rejection.id)]", diagnostics: diagnostics)
    }

    /// The message.
    public var description: String { message }

    /// `{"error", "id"}` (and `"diagnostics"` when there are any).
    public var json: JSONValue {
        var o: [String: JSONValue] = ["error": .string(message), "id": id]
        if !diagnostics.isEmpty { o["diagnostics"] = .array(diagnostics.map(\.json)) }
        return .object(o)
    }

    /// Reads `{"error", "id", "diagnostics"?}`.
    public init(json: JSONValue) throws(JSONFieldError) {
        guard let message = json["error"]?.stringValue else { throw JSONFieldError("\"error\" must be a string") }
        self.init(id: json["id"] ?? .null, message: message, diagnostics: try json.diagnostics())
    }

    /// The output line (without a newline).
    public var jsonLine: String { json.jsonText }
}

/// A response or the error for one request, as one batch line.
public enum BatchResult<Response: JSONRepresentable & Sendable>: Sendable {
    /// The request was served.
    case success(Response)
    /// It was not.
    case failure(BatchError)

    /// The response or error as JSON.
    public var json: JSONValue {
        switch self {
        case .success(let r): r.json
        case .failure(let e): e.json
        }
    }

    /// The output line (without a newline).
    public var jsonLine: String { json.jsonText }

    /// Whether the line counts as failed for the exit status: an error response, or a response whose
    /// diagnostics hold an error.
    public var hasErrors: Bool {
        switch self {
        case .failure: true
        case .success(let r): (r as? any DiagnosticsCarrying)?.diagnostics.contains { $0.severity == .error } ?? false
        }
    }
}

/// A response that carries diagnostics.
public protocol DiagnosticsCarrying {
    /// The diagnostics.
    var diagnostics: [DiagnosticRecord] { get }
}

extension JSONValue {
    fileprivate func required<T>(_ key: String, _ expected: String, _ read: (JSONValue) -> T?) throws(JSONFieldError) -> T {
        guard let v = self[key] else { throw JSONFieldError("\"\(key)\" is missing") }
        guard let value = read(v) else { throw .type(key, expected: expected, got: v) }
        return value
    }

    fileprivate func diagnostics() throws(JSONFieldError) -> [DiagnosticRecord] {
        guard let list = self["diagnostics"] else { return [] }
        guard case .array(let items) = list else { throw .type("diagnostics", expected: "an array", got: list) }
        var out: [DiagnosticRecord] = []
        for item in items { out.append(try DiagnosticRecord(json: item)) }
        return out
    }
}

/// Speech for a request: `{"id", "speech", "ssml"?, "label"?, "diagnostics"}`.
public struct SpeechResponse: JSONRepresentable, DiagnosticsCarrying, Sendable, Hashable {
    /// The request's id.
    public var id: JSONValue
    /// The speech as plain text.
    public var speech: String
    /// The speech as SSML 1.1 (when the request's format is `ssml`).
    public var ssml: String?
    /// The label (when the request has a template).
    public var label: String?
    /// Parse problems and missing words.
    public var diagnostics: [DiagnosticRecord]

    /// Creates a response.
    public init(id: JSONValue, speech: String, ssml: String? = nil, label: String? = nil, diagnostics: [DiagnosticRecord]) {
        self.id = id
        self.speech = speech
        self.ssml = ssml
        self.label = label
        self.diagnostics = diagnostics
    }

    /// The response as JSON.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["id": id, "speech": .string(speech), "diagnostics": .array(diagnostics.map(\.json))]
        if let ssml { o["ssml"] = .string(ssml) }
        if let label { o["label"] = .string(label) }
        return .object(o)
    }

    /// Reads a response.
    public init(json: JSONValue) throws(JSONFieldError) {
        self.init(id: json["id"] ?? .null, speech: try json.required("speech", "a string") { $0.stringValue },
                  ssml: json["ssml"]?.stringValue, label: json["label"]?.stringValue, diagnostics: try json.diagnostics())
    }
}

/// A parsed formula for a request: `{"id", "diagnostics", "tree"|"mathml"}` (`tree` is the dump text
/// for the `tree` format and the JSON tree for `json`).
public struct ParseResponse: JSONRepresentable, DiagnosticsCarrying, Sendable, Hashable {
    /// The request's id.
    public var id: JSONValue
    /// The tree: a string (the dump) or an object (the JSON tree).
    public var tree: JSONValue?
    /// The MathML.
    public var mathml: String?
    /// Parse problems.
    public var diagnostics: [DiagnosticRecord]

    /// Creates a response.
    public init(id: JSONValue, tree: JSONValue? = nil, mathml: String? = nil, diagnostics: [DiagnosticRecord]) {
        self.id = id
        self.tree = tree
        self.mathml = mathml
        self.diagnostics = diagnostics
    }

    /// The response as JSON.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["id": id, "diagnostics": .array(diagnostics.map(\.json))]
        if let tree { o["tree"] = tree }
        if let mathml { o["mathml"] = .string(mathml) }
        return .object(o)
    }

    /// Reads a response.
    public init(json: JSONValue) throws(JSONFieldError) {
        self.init(id: json["id"] ?? .null, tree: json["tree"], mathml: json["mathml"]?.stringValue, diagnostics: try json.diagnostics())
    }
}

/// A voiced request, as a line of the `say --batch` manifest: `{"id", "file", "duration", "label",
/// "diagnostics"}` (the WAV file relative to the batch directory, seconds, the speech as text).
public struct AudioResponse: JSONRepresentable, DiagnosticsCarrying, Sendable, Hashable {
    /// The request's id.
    public var id: JSONValue
    /// The WAV file, relative to the batch directory.
    public var file: String
    /// Seconds of audio.
    public var duration: Double
    /// The speech as text.
    public var label: String
    /// Parse problems and missing words.
    public var diagnostics: [DiagnosticRecord]

    /// Creates a response.
    public init(id: JSONValue, file: String, duration: Double, label: String, diagnostics: [DiagnosticRecord]) {
        self.id = id
        self.file = file
        self.duration = duration
        self.label = label
        self.diagnostics = diagnostics
    }

    /// The response as JSON (the duration to the millisecond).
    public var json: JSONValue {
        .object(["id": id, "file": .string(file), "duration": .number(JSONNumber((duration * 1000).rounded() / 1000)),
                 "label": .string(label), "diagnostics": .array(diagnostics.map(\.json))])
    }

    /// Reads a response.
    public init(json: JSONValue) throws(JSONFieldError) {
        self.init(id: json["id"] ?? .null, file: try json.required("file", "a string") { $0.stringValue },
                  duration: try json.required("duration", "a number") { $0.numberValue?.doubleValue },
                  label: try json.required("label", "a string") { $0.stringValue }, diagnostics: try json.diagnostics())
    }
}

/// TeX's box of a formula in its image, CSS px: what the layout measures (the width, the height above
/// the baseline and the depth below it), as LaTeX's `\wd`, `\ht` and `\dp` of an `\hbox` of the formula
/// give them. The image holds the box with a margin on each side, wider where ink reaches past the box
/// (a slanted letter's overhang, an accent, `\smash`), so the image's size is not the box's.
public struct FormulaBox: Sendable, Hashable {
    /// Width, CSS px.
    public var width: Double
    /// Height above the baseline, CSS px.
    public var height: Double
    /// Depth below the baseline, CSS px.
    public var depth: Double

    /// Creates a box's measures.
    public init(width: Double, height: Double, depth: Double) {
        (self.width, self.height, self.depth) = (width, height, depth)
    }
}

/// A rendered request, as a line of the `render --batch`/`--text` manifest: the file, its label and
/// source, what an inline image needs to sit on the text's baseline (CSS px), the formula's box inside
/// it, and the formula's diagnostics as the speech responses give them.
public struct ImageResponse: JSONRepresentable, DiagnosticsCarrying, Sendable, Hashable {
    /// The request's id (the formula's number for `--text`).
    public var id: JSONValue
    /// The image file, relative to the output directory.
    public var file: String
    /// The label.
    public var label: String
    /// The source (TeX or MathML).
    public var tex: String
    /// Width, CSS px.
    public var width: Double
    /// Height, CSS px.
    public var height: Double
    /// Baseline above the image's bottom edge, CSS px.
    public var baseline: Double
    /// The CSS `vertical-align` that puts the image on the text's baseline (`-3.2px`).
    public var verticalAlign: String
    /// The messages of error diagnostics (the image shows what parsed).
    public var errors: [String]
    /// Every diagnostic of the formula (parse, speech, typesetting: an unknown command, a missing
    /// glyph), with its range, as in ``SpeechResponse/diagnostics``.
    public var diagnostics: [DiagnosticRecord]
    /// Display math (`--text` manifests).
    public var display: Bool?
    /// Where the formula sits in the text, bytes (`--text` manifests).
    public var range: SourceRange?
    /// The formula's box in the image (the image is larger by its margins).
    public var box: FormulaBox?

    /// Creates a response.
    public init(id: JSONValue, file: String, label: String, tex: String, width: Double, height: Double, baseline: Double,
                verticalAlign: String, errors: [String], diagnostics: [DiagnosticRecord] = [], display: Bool? = nil,
                range: SourceRange? = nil, box: FormulaBox? = nil) {
        self.id = id
        self.file = file
        self.label = label
        self.tex = tex
        self.width = width
        self.height = height
        self.baseline = baseline
        self.verticalAlign = verticalAlign
        self.errors = errors
        self.diagnostics = diagnostics
        self.display = display
        self.range = range
        self.box = box
    }

    /// The response as JSON.
    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "id": id, "file": .string(file), "label": .string(label), "tex": .string(tex),
            "width": .number(JSONNumber(width)), "height": .number(JSONNumber(height)), "baseline": .number(JSONNumber(baseline)),
            "verticalAlign": .string(verticalAlign), "errors": .array(errors.map { .string($0) }),
            "diagnostics": .array(diagnostics.map(\.json)),
        ]
        if let display { o["display"] = .bool(display) }
        if let range { o["range"] = .array([.number(JSONNumber(range.lowerBound)), .number(JSONNumber(range.upperBound))]) }
        if let box {
            o["box"] = .object(["width": .number(JSONNumber(box.width)), "height": .number(JSONNumber(box.height)),
                                "depth": .number(JSONNumber(box.depth))])
        }
        return .object(o)
    }

    /// Reads a response.
    public init(json: JSONValue) throws(JSONFieldError) {
        func number(_ k: String) throws(JSONFieldError) -> Double { try json.required(k, "a number") { $0.numberValue?.doubleValue } }
        var range: SourceRange? = nil
        if let r = json["range"]?.arrayValue, r.count == 2, let a = r[0].numberValue?.intValue, let b = r[1].numberValue?.intValue, a <= b {
            range = SourceRange(a, b)
        }
        self.init(id: json["id"] ?? .null, file: try json.required("file", "a string") { $0.stringValue },
                  label: try json.required("label", "a string") { $0.stringValue },
                  tex: try json.required("tex", "a string") { $0.stringValue },
                  width: try number("width"), height: try number("height"), baseline: try number("baseline"),
                  verticalAlign: try json.required("verticalAlign", "a string") { $0.stringValue },
                  errors: (json["errors"]?.arrayValue ?? []).compactMap(\.stringValue), diagnostics: try json.diagnostics(),
                  display: json["display"]?.boolValue, range: range,
                  box: json["box"].flatMap { b in
                      guard let w = b["width"]?.numberValue?.doubleValue, let h = b["height"]?.numberValue?.doubleValue,
                            let d = b["depth"]?.numberValue?.doubleValue else { return nil }
                      return FormulaBox(width: w, height: h, depth: d)
                  })
    }
}
