// libFuzzer harness for the TeX parser (target MathTeX). Build and run with `scripts/fuzz.sh tex`.
//
// Each input is parsed as raw bytes (`parse(utf8:)`, which must cope with invalid UTF-8) and, when
// the bytes are not valid UTF-8, also as the leniently decoded string (`parse(_:)`; for valid UTF-8
// the two calls see the same bytes). Inputs of odd length are parsed in display mode, and inputs whose
// length is 2 or 3 modulo 4 with every trusted feature (TrustPolicy: \href, \htmlClass…). Each tree then
// goes through the MathML round trip (`MathMLWriter().write` → `MathMLReader().read` → write again).
// None of it may crash, hang or allocate without bound.
import MathMarkup
import MathSyntax
import MathTeX

private let parsers = [TeXParser(), TeXParser(options: TeXParserOptions(displayMode: true)),
                       TeXParser(options: TeXParserOptions(trust: .trusted)),
                       TeXParser(options: TeXParserOptions(displayMode: true, trust: .trusted))]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = parsers[size % 4]
    roundTrip(parser.parse(utf8: bytes).root)

    let text = String(decoding: bytes, as: UTF8.self)
    if !text.utf8.elementsEqual(bytes) {
        roundTrip(parser.parse(text).root)
    }
    return 0
}

private func roundTrip(_ root: MathNode) {
    let mathml = MathMLWriter().write(root)
    let back = MathMLReader().read(mathml)
    _ = MathMLWriter().write(back.root)
}
