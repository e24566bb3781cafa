// libFuzzer harness for the MathML reader (target MathMarkup). Build and run with
// `scripts/fuzz.sh mathml`.
//
// Each input is decoded leniently (invalid UTF-8 becomes U+FFFD) and read, untrusted for inputs of
// even length and trusted (TrustPolicy: href, style kept) for odd; the tree is written back to MathML
// and read again. The reader promises never to throw or crash, and to bound its work; the written
// MathML never carries an event-handler attribute or a URL with a scheme outside the allow-list.
import MathMarkup
import MathSyntax

private let readers: [MathMLReader] = [MathMLReader(), {
    var options = MathMLReader.Options()
    options.trust = .trusted
    return MathMLReader(options: options)
}()]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let reader = readers[size % 2]
    let result = reader.read(text)
    let written = MathMLWriter().write(result.root)
    let again = reader.read(written)
    check(again.root)
    return 0
}

/// No event handler and no URL outside the allow-list survives a write and a read.
private func check(_ node: MathNode) {
    for (name, value) in node.attributes ?? [:] {
        if TrustPolicy.isEventHandler(name) { fatalError("contract: event handler \(name) written") }
        if TrustPolicy.urlAttributes.contains(name), !TrustPolicy.trusted.allows(url: value) { fatalError("contract: URL \(value) written") }
    }
    for child in node.children { check(child) }
}
