// libFuzzer harness for the MathML reader (target MathMarkup). Build and run with
// `scripts/fuzz.sh mathml`.
//
// Each input is decoded leniently (invalid UTF-8 becomes U+FFFD) and read; the tree is written back
// to MathML and read again. The reader promises never to throw or crash, and to bound its work.
import MathMarkup
import MathSyntax

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let result = MathMLReader().read(text)
    let written = MathMLWriter().write(result.root)
    _ = MathMLReader().read(written)
    return 0
}
