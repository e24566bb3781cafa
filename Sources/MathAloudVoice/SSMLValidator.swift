import MathAloud

/// Checks SSML before it reaches eSpeak-NG: well-formed XML (balanced elements, quoted attributes,
/// known entities), one `<speak>` root, and only the SSML 1.1 elements eSpeak-NG voices.
/// `<audio>` is refused (eSpeak-NG would try to fetch it) and so are DTDs and CDATA sections.
/// Works on UTF-8 bytes; linear in the input.
enum SSMLValidator {
    /// Elements passed to the engine.
    static let elements: Set<String> = ["speak", "voice", "prosody", "say-as", "mark", "s", "p", "break", "emphasis",
                                        "sub", "lang", "phoneme", "meta", "metadata"]

    static func validate(_ ssml: String) throws(VoiceError) {
        let b = Array(ssml.utf8)
        var i = 0
        var stack: [String] = []
        var sawRoot = false
        func fail(_ message: String) -> VoiceError {
            var line = 1, column = 1
            for c in b[..<min(i, b.count)] { if c == 0x0A { line += 1; column = 1 } else { column += 1 } }
            return .invalidSSML("\(line):\(column): \(message)")
        }
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
                || c == 0x3A || c == 0x2E || c >= 0x80
        }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        func starts(_ s: String) -> Bool {
            let n = s.utf8.count
            return i + n <= b.count && b[i..<i + n].elementsEqual(s.utf8)
        }
        func skip(past end: String) -> Bool {
            let n = end.utf8.count
            while i + n <= b.count {
                if b[i..<i + n].elementsEqual(end.utf8) { i += n; return true }
                i += 1
            }
            return false
        }
        func name() -> String {
            let s = i
            while i < b.count, isNameByte(b[i]) { i += 1 }
            return String(decoding: b[s..<i], as: UTF8.self)
        }
        /// An entity or character reference after `&`.
        func entity() throws(VoiceError) {
            let s = i
            i += 1
            while i < b.count, b[i] != 0x3B, i - s < 12 { i += 1 }
            guard i < b.count, b[i] == 0x3B else { i = s; throw fail("'&' must start an entity such as &amp;") }
            let body = String(decoding: b[s + 1..<i], as: UTF8.self)
            i += 1
            if ["amp", "lt", "gt", "quot", "apos"].contains(body) { return }
            // A character reference must name a character XML allows (the writers' rule, XMLEscaping).
            if body.hasPrefix("#x"), let v = UInt32(body.dropFirst(2), radix: 16), XMLEscaping.isXMLCharacter(v) { return }
            if body.hasPrefix("#"), let v = UInt32(body.dropFirst()), XMLEscaping.isXMLCharacter(v) { return }
            i = s
            throw fail("unknown entity &\(body);")
        }

        while i < b.count {
            let c = b[i]
            if c == 0x3C {  // <
                if starts("<!--") {
                    guard skip(past: "-->") else { throw fail("unterminated comment") }
                } else if starts("<?") {
                    guard skip(past: "?>") else { throw fail("unterminated processing instruction") }
                } else if starts("<!") {
                    throw fail("DTDs and CDATA sections are not accepted")
                } else if starts("</") {
                    i += 2
                    let n = name()
                    while i < b.count, isSpace(b[i]) { i += 1 }
                    guard i < b.count, b[i] == 0x3E else { throw fail("expected '>' after </\(n)") }
                    guard let open = stack.last else { throw fail("</\(n)> closes nothing") }
                    guard open == n else { throw fail("</\(n)> closes <\(open)>") }
                    stack.removeLast()
                    i += 1
                } else {
                    i += 1
                    let n = name()
                    guard !n.isEmpty else { throw fail("'<' must start an element (write &lt; for a less-than sign)") }
                    let local = n.split(separator: ":").last.map(String.init) ?? n
                    if stack.isEmpty {
                        guard !sawRoot else { throw fail("text after the </speak> root") }
                        guard local == "speak" else { throw fail("the root element must be <speak>, not <\(n)>") }
                        sawRoot = true
                    }
                    guard elements.contains(local) else {
                        throw fail(local == "audio" ? "<audio> is not supported" : "unknown SSML element <\(n)>")
                    }
                    var attributes: Set<String> = []
                    var selfClosing = false
                    while true {
                        let before = i
                        while i < b.count, isSpace(b[i]) { i += 1 }
                        guard i < b.count else { throw fail("unterminated <\(n)>") }
                        if b[i] == 0x3E { i += 1; break }
                        if b[i] == 0x2F {
                            guard i + 1 < b.count, b[i + 1] == 0x3E else { throw fail("expected '/>'") }
                            i += 2; selfClosing = true; break
                        }
                        guard i > before else { throw fail("expected a space before an attribute") }
                        let a = name()
                        guard !a.isEmpty else { throw fail("expected an attribute name in <\(n)>") }
                        guard attributes.insert(a).inserted else { throw fail("attribute \(a) given twice") }
                        while i < b.count, isSpace(b[i]) { i += 1 }
                        guard i < b.count, b[i] == 0x3D else { throw fail("attribute \(a) needs ='value'") }
                        i += 1
                        while i < b.count, isSpace(b[i]) { i += 1 }
                        guard i < b.count, b[i] == 0x22 || b[i] == 0x27 else { throw fail("the value of \(a) must be quoted") }
                        let quote = b[i]
                        i += 1
                        while i < b.count, b[i] != quote {
                            if b[i] == 0x3C { throw fail("'<' inside the value of \(a)") }
                            if b[i] == 0x26 { try entity() } else { i += 1 }
                        }
                        guard i < b.count else { throw fail("unterminated value of \(a)") }
                        i += 1
                    }
                    if !selfClosing { stack.append(n) }
                }
            } else if c == 0x26 {
                try entity()
            } else {
                if stack.isEmpty, !isSpace(c) { throw fail(sawRoot ? "text after the </speak> root" : "text before the <speak> root") }
                i += 1
            }
        }
        guard sawRoot else { throw fail("no <speak> element") }
        if let open = stack.last { throw fail("<\(open)> is not closed") }
    }
}
