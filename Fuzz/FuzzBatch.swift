// libFuzzer harness for JSON Lines batch input (targets MathSyntax's JSONValue and the whole speech
// pipeline behind FormulaRequest). Build and run with `scripts/fuzz.sh batch`.
//
// Each input is one batch line, as bytes:
// - `JSONValue.parse`: on success the value written (`jsonText`) must read back as the same value;
// - `FormulaRequest.read(line:)`, then the request spoken (`SpeechBatchProcessor`) and parsed
//   (`FormulaParser.response`): the response line must itself be one JSON object with an `id`.
// None of it may crash, hang or allocate without bound.
import MathAloud

private let processor = SpeechBatchProcessor()
private let parser = FormulaParser()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let value = try? JSONValue.parse(bytes) {
        let text = value.jsonText
        guard let again = try? JSONValue.parse(text), again == value else { fatalError("contract: \(text) does not read back") }
    }
    let response: String
    switch FormulaRequest.read(line: bytes) {
    case .failure(let error):
        response = error.jsonLine
    case .success(let request):
        response = processor.process(request).jsonLine
        check(parser.response(to: request, format: size % 2 == 0 ? .tree : .json).jsonLine)
    }
    check(response)
    return 0
}

/// Responses nest as deep as the formula: a `json` tree of a TeX formula 200 levels deep (the parser's
/// limit) is several hundred levels of JSON, past the default 64 levels that requests are read with.
/// (Found by this harness: a nested `pmatrix` answered with a 65-level tree, valid JSON, refused by
/// the default limits. Kept in Fuzz/regressions/batch/deep-json-tree-response.)
private let responseLimits: JSONLimits = { var l = JSONLimits(); l.maxDepth = 4_096; l.maxBytes = 1 << 30; return l }()

/// A response line must be one JSON object that has an `id`.
private func check(_ line: String) {
    guard let value = try? JSONValue.parse(line, limits: responseLimits), value["id"] != nil else {
        fatalError("contract: not a response: \(line.prefix(200))")
    }
}
