import Foundation
import Testing
import TestSupport
import MathAloud

/// Inputs the batch fuzzer kept (Fuzz/regressions/batch): each line gets one response line that is a
/// JSON object with an `id`.
@Suite struct BatchFuzzRegressionTests {
    @Test(arguments: fuzzRegressionInputs("batch"))
    func batch(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let result = bytes.withUnsafeBufferPointer { FormulaRequest.read(line: $0) }
        let line: String
        switch result {
        case .success(let request): line = SpeechBatchProcessor().process(request).jsonLine
        case .failure(let error): line = error.jsonLine
        }
        #expect(try JSONValue.parse(line)["id"] != nil)
    }
}
