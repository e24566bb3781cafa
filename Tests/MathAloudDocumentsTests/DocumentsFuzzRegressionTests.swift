import Foundation
import MathAloud
import MathAloudDocuments
import Testing
import TestSupport

/// Inputs the documents fuzzer kept (Fuzz/regressions/documents): each, read as Markdown and as text,
/// streams to the same formulas as the whole text, in one-byte chunks and in the fuzzer's chunking
/// (sizes 1–7 taken from the input's bytes), and the stream covers every byte.
@Suite("Documents: fuzz regressions")
struct DocumentsFuzzRegressionTests {
    @Test func regressionsArePresent() { #expect(fuzzRegressionInputs("documents").count >= 5) }

    @Test(arguments: fuzzRegressionInputs("documents"))
    func streamsAsTheWholeText(_ path: String) throws {
        let bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
        let text = String(decoding: bytes, as: UTF8.self)
        let fuzzerChunks = bytes.isEmpty ? [1] : bytes.map { 1 + Int($0 % 7) }
        let p = processor()
        for format in [DocumentFormat.markdown, .text] {
            let whole = p.process(text: text, format: format).formulas.map(\.segment.range)
            for chunks in [[1], [2], [3], fuzzerChunks] {
                let out = streamed(text, chunks: chunks, processor: p, format: format).segments
                let formulas = out.compactMap { if case .formula(let f) = $0 { f.segment.range } else { nil } }
                #expect(formulas == whole, "\(format), chunks \(chunks.prefix(8))")
                var covered = 0
                for s in out {
                    #expect(s.range.lowerBound == covered, "\(format): a gap at \(covered)")
                    covered = s.range.upperBound
                }
                #expect(covered == text.utf8.count, "\(format): covers \(covered) of \(text.utf8.count) bytes")
            }
        }
    }
}
