import Foundation
import Testing
@testable import MathSyntax

/// `JSONValue`: reading with precise errors, writing in the batch outputs' form.
@Suite struct JSONValueTests {
    @Test func readsAndWritesWithSortedKeys() throws {
        let v = try JSONValue.parse(#" {"b": [1, 2.50, -0.5e3, true, null], "a": "x\/y\u00e9\n", "c": {}} "#)
        #expect(v.jsonText == #"{"a":"x/yé\n","b":[1,2.50,-0.5e3,true,null],"c":{}}"#)
        #expect(v["a"]?.stringValue == "x/yé\n")
        #expect(v["b"]?.arrayValue?[1].numberValue?.doubleValue == 2.5)
    }

    @Test func surrogatePairsDecode() throws {
        #expect(try JSONValue.parse(#""\ud835\udc65""#).stringValue == "𝑥")
    }

    struct Bad: Sendable, CustomStringConvertible {
        let text: String
        let kind: JSONParseError.Kind
        let offset: Int
        var description: String { text }
    }

    static let bad: [Bad] = [
        Bad(text: #"{"id": 1e400}"#, kind: .numberOutOfRange("1e400"), offset: 7),
        Bad(text: #"{"id": -1e309}"#, kind: .numberOutOfRange("-1e309"), offset: 7),
        Bad(text: #"{"id": "\ud800"}"#, kind: .loneSurrogate(#"\ud800"#), offset: 8),
        Bad(text: #"{"id": "\udc00x"}"#, kind: .loneSurrogate(#"\udc00"#), offset: 8),
        Bad(text: #"{"id": "\ud800\u0041"}"#, kind: .loneSurrogate(#"\ud800"#), offset: 8),
        Bad(text: String(repeating: "[", count: 65) + String(repeating: "]", count: 65), kind: .tooDeep(limit: 64), offset: 64),
        Bad(text: #"{"a": 1, "a": 2}"#, kind: .duplicateKey("a"), offset: 9),
        Bad(text: #"{"a": 01}"#, kind: .invalidNumber("01"), offset: 6),
        Bad(text: #"{"a": 1.}"#, kind: .invalidNumber("1."), offset: 6),
        Bad(text: #"{"a": "\x"}"#, kind: .invalidEscape(#"\x"#), offset: 7),
        Bad(text: "{\"a\": \"\u{1}\"}", kind: .controlCharacter(1), offset: 7),
        Bad(text: #"{"a": 1} x"#, kind: .trailingText, offset: 9),
        Bad(text: #"{"a": tru}"#, kind: .unexpectedCharacter("'tru}'"), offset: 6),
        Bad(text: #"{"a": 1"#, kind: .unexpectedEnd, offset: 7),
    ]

    @Test(arguments: bad)
    func preciseErrors(_ b: Bad) {
        #expect(throws: JSONParseError(b.kind, at: b.offset)) { try JSONValue.parse(b.text) }
    }

    @Test func invalidUTF8IsAnErrorWithItsOffset() {
        let bytes: [UInt8] = Array(#"{"a": "é"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError(.invalidUTF8, at: 9)) { try JSONValue.parse(bytes) }
    }

    @Test func deepNestingIsBoundedNotACrash() {
        let deep = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParseError(.tooDeep(limit: 64), at: 64)) { try JSONValue.parse(deep) }
    }

    @Test func aBadLineStillGivesTheIdAndTheField() {
        let line = JSONObjectLine(#"{"id": "a7", "tex": "\ud800"}"#)
        #expect(line.membersBeforeError["id"] == "a7")
        #expect(line.keyAtError == "tex")
        if case .failure(let e) = line.result { #expect(e.kind == .loneSurrogate(#"\ud800"#)) } else { Issue.record("parsed") }
        let notObject = JSONObjectLine("[1]")
        if case .failure(let e) = notObject.result { #expect(e.kind == .notAnObject("an array")) } else { Issue.record("parsed") }
    }

    @Test func messagesNameTheProblem() {
        #expect(JSONParseError(.numberOutOfRange("1e400"), at: 7).description
                == "the number 1e400 is out of range at column 8 (a double holds at most ±1.8e308)")
        #expect(JSONParseError(.tooDeep(limit: 64), at: 64).description == "arrays and objects nested deeper than 64 levels at column 65")
    }

    @Test func numbersFromDoublesAreWrittenAsJSONSerializationWroteThem() {
        #expect(JSONNumber(16.0).text == "16")
        #expect(JSONNumber(8.9).text == "8.9")
        #expect(JSONNumber(-2.22).text == "-2.22")
        #expect(JSONNumber(0.945).text == "0.945")
    }

    @Test func codableRoundTripThroughFoundation() throws {
        let v: JSONValue = ["id": [1, "x", nil, true], "s": "a\"b"]
        let data = try JSONEncoder().encode(v)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == v)
    }
}

/// The catalog of diagnostic ids (DESIGN.md §11): every id a source file emits is listed.
@Suite struct DiagnosticCatalogTests {
    @Test func everyIdInTheSourcesIsInTheCatalog() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        var missing: [String] = []
        var found = 0
        let pattern = try Regex(#""((tex|mathml|text|speech|render|voice|rules|batch|document|doc|http|audit|output)\.[a-z][a-z0-9-]*)""#)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("MathAloudBench") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("Diagnostic") || line.contains("error(") || line.contains("warning(")
                || line.contains("warn(") || line.contains("id:") || line.contains("DiagnosticID") || line.contains(".init(\"") {
                for match in line.matches(of: pattern) {
                    let id = String(match.output[1].substring!)
                    found += 1
                    if DiagnosticID(id).info == nil { missing.append("\(path): \(id)") }
                }
            }
        }
        #expect(found > 50)
        #expect(missing.isEmpty, "ids not in DiagnosticID.catalog: \(missing)")
    }

    @Test func catalogEntriesAreWellFormed() {
        for (id, info) in DiagnosticID.catalog {
            #expect(id == info.id)
            #expect(id.rawValue.contains(".") && !info.summary.isEmpty, "\(id)")
        }
        #expect(DiagnosticID.texInputTooLarge.rejectsInput)
        #expect(!DiagnosticID.texUnknownCommand.rejectsInput)
    }
}
