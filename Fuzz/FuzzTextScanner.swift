// libFuzzer harness for the math-in-text scanner (target MathTeX). Build and run with
// `scripts/fuzz.sh textscanner`.
//
// Each input is decoded leniently and scanned twice: with the default options and with every option
// flipped (HTML references decoded, no dollar delimiters, no Markdown code, a small diagnostics cap).
// Besides not crashing, the scan must keep the contract documented on `MathTextScanner.scan(_:)`:
// the segments cover the input exactly and in order, text segments are never empty, and every range
// (and every range mapped back with `MathFragment.sourceRange(forTeXRange:)`) lies inside the input.
// A broken contract stops the fuzzer with a "contract:" message.
import MathSyntax
import MathTeX

private let defaultScanner = MathTextScanner()
private let flippedScanner: MathTextScanner = {
    var options = MathTextScanner.Options()
    options.decodeHTMLEntities = true
    options.dollarDelimiters = false
    options.markdownCode = false
    options.maxDiagnostics = 3
    return MathTextScanner(options: options)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    check(defaultScanner.scan(text), of: text, decoded: false)
    check(flippedScanner.scan(text), of: text, decoded: true)
    return 0
}

private func check(_ scan: MathTextScan, of text: String, decoded: Bool) {
    let count = text.utf8.count
    let bytes = Array(text.utf8)
    var offset = 0
    for segment in scan.segments {
        let range = segment.range
        contract(range.lowerBound == offset, "segment starts at \(range.lowerBound), expected \(offset)")
        contract(range.upperBound >= range.lowerBound && range.upperBound <= count, "segment range \(range) outside 0..<\(count)")
        if case let .text(string, _) = segment {
            contract(!string.isEmpty, "empty text segment at \(range)")
            if !decoded {
                let slice = String(decoding: bytes[range.lowerBound..<range.upperBound], as: UTF8.self)
                contract(slice == string, "text segment at \(range) is not the input in its range")
            }
        }
        offset = range.upperBound
    }
    contract(offset == count, "segments end at \(offset), input has \(count) bytes")
    for diagnostic in scan.diagnostics {
        if let r = diagnostic.range { contract(r.upperBound <= count, "diagnostic range \(r) outside the input") }
    }
    for fragment in scan.fragments {
        let texCount = fragment.tex.utf8.count
        contract(fragment.contentRange.lowerBound >= fragment.range.lowerBound
                     && fragment.contentRange.upperBound <= fragment.range.upperBound,
                 "content range \(fragment.contentRange) outside fragment range \(fragment.range)")
        for probe in [0, texCount / 2, texCount, texCount + 1, -1] {
            let mapped = fragment.sourceRange(forTeXRange: SourceRange(max(0, min(probe, texCount)), texCount))
            contract(mapped.lowerBound >= 0 && mapped.upperBound <= count, "mapped range \(mapped) outside the input")
            _ = fragment.sourceOffset(forTeXOffset: probe)
        }
    }
}

private func contract(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("contract: " + message()) }
}
