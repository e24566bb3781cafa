import Foundation
import Testing
import MathAloud

/// The shared request and response types (DESIGN.md §11).
@Suite struct RequestTests {
    @Test func readsEveryField() throws {
        let line = #"{"id": {"n": [1]}, "tex": "x^2", "locale": "en-GB", "style": "MathSpeak", "preferences": {"Fractions": "Over", "n": 2}, "format": "SSML", "template": "Math: {speech}", "display": true, "voice": "en-gb", "mine": 7}"#
        let r = try FormulaRequest.read(line: line).get()
        #expect(r.id == ["n": [1]])
        #expect(r.input == .tex("x^2"))
        #expect(r.locale == "en-gb" && r.style == .mathSpeak && r.format == .ssml && r.display == true && r.voice == "en-gb")
        #expect(r.preferences == ["Fractions": "Over", "n": "2"])
        #expect(r.otherFields == ["mine": 7])
        // Written back and read again: the same request.
        #expect(try FormulaRequest(json: JSONValue.parse(r.jsonText)) == r)
    }

    @Test func codableWithFoundation() throws {
        let r = FormulaRequest(id: "a", input: .mathml("<math><mi>x</mi></math>"), style: .clearSpeak, format: .png)
        let decoded = try JSONDecoder().decode(FormulaRequest.self, from: JSONEncoder().encode(r))
        #expect(decoded == r)
        let response = SpeechResponse(id: 3, speech: "x", diagnostics: [])
        #expect(try JSONDecoder().decode(SpeechResponse.self, from: JSONEncoder().encode(response)) == response)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FormulaRequest.self, from: Data(#"{"id":1}"#.utf8)) }
    }

    struct BadLine: Sendable, CustomStringConvertible {
        let line: String
        let output: String
        var description: String { line }
    }

    static let badLines: [BadLine] = [
        BadLine(line: #"{"id": 1e400, "tex": "x"}"#,
                output: #"{"error":"the line is not valid JSON: in \"id\": the number 1e400 is out of range at column 8 (a double holds at most ±1.8e308)","id":null}"#),
        BadLine(line: #"{"id": "a", "tex": "\ud800"}"#,
                output: #"{"error":"the line is not valid JSON: in \"tex\": lone surrogate \\ud800 in a string at column 21 (a \\uD800–\\uDBFF escape must be followed by a \\uDC00–\\uDFFF one)","id":"a"}"#),
        BadLine(line: #"{"id": "\udfff"}"#,
                output: #"{"error":"the line is not valid JSON: in \"id\": lone surrogate \\udfff in a string at column 9 (a \\uD800–\\uDBFF escape must be followed by a \\uDC00–\\uDFFF one)","id":null}"#),
        BadLine(line: #"{"id": 5, "tex": "x", "extra": "# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
                output: #"{"error":"the line is not valid JSON: in \"extra\": arrays and objects nested deeper than 64 levels at column 95","id":5}"#),
        BadLine(line: #"{"id": 2, "tex": "x", "mathml": "<math/>"}"#,
                output: #"{"error":"give one of \"tex\", \"mathml\", \"text\", not \"tex\" and \"mathml\"","id":2}"#),
        BadLine(line: #"{"id": 2, "tex": 5}"#, output: #"{"error":"\"tex\" must be a string, not a number","id":2}"#),
        BadLine(line: #"{"id": 2, "tex": "x", "preferences": {"Roots": []}}"#,
                output: #"{"error":"\"preferences.Roots\" must be a string, not an array","id":2}"#),
        BadLine(line: #"{"id": 2, "tex": "x", "format": "gif"}"#,
                output: #"{"error":"\"format\" must be one of text, ssml, tree, mathml, json, svg, png, pdf, not \"gif\"","id":2}"#),
        BadLine(line: "[1]", output: #"{"error":"the line is an array, not a JSON object","id":null}"#),
    ]

    @Test(arguments: badLines)
    func badLinesGetPreciseErrors(_ b: BadLine) {
        #expect(SpeechBatchProcessor().process(line: b.line) == b.output)
    }

    @Test func speechResponseCarriesSSMLAndLabelWhenAsked() {
        let out = SpeechBatchProcessor().process(line: #"{"id": 1, "tex": "x^2", "format": "ssml", "template": "Math: {speech}"}"#)
        #expect(out.hasPrefix(#"{"diagnostics":[],"id":1,"label":"Math: x squared","speech":"x squared","ssml":"<speak"#))
        // The SSML's language is the locale's BCP 47 form (LocaleTag.bcp47), as written into images.
        let chinese = SpeechBatchProcessor().process(line: #"{"id": 3, "tex": "x", "format": "ssml", "locale": "zh_cn"}"#)
        #expect(chinese.contains(#"xml:lang=\"zh-CN\">"#), "\(chinese)")
        let text = SpeechBatchProcessor().process(line: #"{"id": 2, "text": "Area is $\\pi r^2$."}"#)
        #expect(text == #"{"diagnostics":[],"id":2,"speech":"Area is pi r squared."}"#)
    }

    @Test func imageResponseCarriesTheFormulasBox() throws {
        let r = ImageResponse(id: .string("V"), file: "V.svg", label: "V", tex: "V", width: 18.38, height: 18.1, baseline: 2.44,
                              verticalAlign: "-2.44px", errors: [], box: FormulaBox(width: 11.66, height: 13.66, depth: 0.44))
        #expect(r.jsonText == #"{"baseline":2.44,"box":{"depth":0.44,"height":13.66,"width":11.66},"diagnostics":[],"errors":[],"file":"V.svg","height":18.1,"id":"V","label":"V","tex":"V","verticalAlign":"-2.44px","width":18.38}"#)
        #expect(try ImageResponse(json: JSONValue.parse(r.jsonText)) == r)
        // A manifest line without a box (written before it was added) still reads.
        #expect(try ImageResponse(json: JSONValue.parse(#"{"file":"a.svg","label":"a","tex":"a","width":1,"height":1,"baseline":0,"verticalAlign":"0px"}"#)).box == nil)
    }

    @Test func typedBatchAPI() throws {
        let processor = SpeechBatchProcessor()
        let results = processor.process([FormulaRequest(id: "a", input: .tex(#"\frac{1}{2}"#)),
                                         FormulaRequest(id: "b", input: .tex("x"), style: "nostyle")])
        guard case .success(let a) = results[0], case .failure(let b) = results[1] else { Issue.record("\(results)"); return }
        #expect(a.speech == "one half" && a.id == "a")
        #expect(b.id == "b" && b.message.contains("no style 'nostyle'"))
    }
}

/// Typed settings: styles, verbosity, locales with fallback, strict preferences.
@Suite struct SpeechSettingsTests {
    @Test func localeTagsFallBack() throws {
        #expect(LocaleTag("en-US-x-test").fallbackChain == ["en-US-x-test", "en-US", "en"])
        #expect(LocaleTag("de_AT").fallbackChain == ["de-AT", "de"])
        for tag: LocaleTag in ["en-US", "en-GB", "EN-gb", "en_AU"] {
            let speaker = try Speaker(locale: tag)
            #expect(speaker.locale == tag && speaker.rulesLocale == "en")
            #expect(speaker.speak(tex: "x^2").text == "x squared")
        }
        #expect(throws: SpeechLoadError.self) { try Speaker(locale: "xx-YY") }
    }

    @Test func stylesAndVerbosityAreTyped() throws {
        let ms = try Speaker(style: .mathSpeak, verbosity: .brief)
        #expect(ms.style == .mathSpeak && ms.verbosity == .brief)
        #expect(ms.speak(tex: #"\frac{a+b}{2}"#).text == "StartFrac a plus b Over 2 EndFrac")
        #expect(try Speaker(style: "MATHSPEAK").style == .mathSpeak)
        #expect(Verbosity(name: "Superbrief") == .superbrief)
    }

    @Test func strictPreferencesThrow() throws {
        let lenient = try Speaker(preferences: ["Fractionz": "Over"])
        #expect(lenient.preferenceProblems.count == 1)
        #expect(throws: SpeechLoadError.self) { try Speaker(preferences: ["Fractionz": "Over"], strictPreferences: true) }
        #expect(throws: SpeechLoadError.self) { try Speaker(preferences: ["Fractions": "Overr"], strictPreferences: true) }
        #expect(try Speaker(preferences: ["fraction": "over"], strictPreferences: true).speak(tex: #"\frac34"#).text == "3 over 4")
    }

    @Test func sharedSpeakerAndLabels() throws {
        #expect(try Speaker.shared.speak(tex: "x").text == "x")
        #expect(Speaker.speech(forTeX: #"\sqrt{x}"#) == "the square root of x")
        let speaker = try Speaker()
        #expect(speaker.label(mathML: "<math><msup><mi>x</mi><mn>2</mn></msup></math>", template: "Math: {speech}") == "Math: x squared")
    }
}
