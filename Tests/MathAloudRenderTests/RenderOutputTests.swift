import CCairo
import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// Every format carries the label: SVG title/desc, PNG iTXt chunks, PDF title.
@Suite struct RenderOutputTests {
    let r = Renderers.text

    static let samples = [#"\frac{1}{2}"#, #"x^2 + y^2 = z^2"#, #"a < b \text{ & } c > d"#, #"\sqrt[3]{\alpha}"#,
                          #"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}"#, #"\text{“quoted” é ü}"#]

    @Test(arguments: samples)
    func svgIsWellFormedAndLabelled(_ tex: String) {
        let f = r.render(tex: tex)
        let svg = r.svg(f)
        #expect(svgLabelProblems(svg, label: f.label, source: tex) == [])
        #expect(svg.contains("vertical-align:-"))
    }

    @Test func svgEscapingMatchesXMLEscaping() {
        // The label and the source are element content escaped by XMLEscaping.text: markup escaped,
        // forbidden characters replaced, tab and line feed kept as they are.
        for text in ["a < b & c > d", "tab\tnew\nline", "bell\u{7}", "\u{FFFE}\u{FFFF}ok", "é ∑ 𝑥 \"q\" 'a'", "\u{FFFD}\u{BF}\u{3FF}"] {
            let svg = r.svg(r.render(tex: text))
            #expect(svg.contains(">" + XMLEscaping.text(text) + "</desc>"), "\(Array(text.unicodeScalars))")
        }
        #expect(r.svg(r.render(tex: "a\tb\nc")).contains(">a\tb\nc</desc>"))
        let svg = r.svg(r.render(tex: #"a < b \text{ & } c"#))
        #expect(svg.contains("<desc id=\"") && svg.contains(">a &lt; b \\text{ &amp; } c</desc>"))
    }

    @Test func svgNumbersAsBefore() {
        // Rounded half away from zero, no trailing zeros, "0" for what rounds to zero.
        let cases: [(Double, Int, String)] = [(0, 2, "0"), (-0.004, 2, "0"), (0.005, 2, "0.01"), (-0.005, 2, "-0.01"),
                                              (12.5, 2, "12.5"), (1.999, 2, "2"), (100, 2, "100"), (0.0137, 6, "0.0137"),
                                              (-123.456789, 6, "-123.456789"), (1e9, 2, "0"), (.nan, 2, "0"),
                                              (999_999_999.999, 2, "1000000000"), (3.25, 1, "3.3"), (0.000001, 6, "0.000001")]
        for (value, decimals, text) in cases {
            var bytes = SVGBytes()
            bytes.number(value, decimals: decimals)
            #expect(bytes.string() == text, "\(value) to \(decimals) places")
        }
        var ids = SVGBytes(capacity: 1)
        ids.base36(0); ids.append(0x20); ids.base36(UInt32.max); ids.append(0x20); ids.integer(1_234_567)
        #expect(ids.string() == "0 " + String(UInt32.max, radix: 36) + " 1234567")
    }

    @Test func svgBytesMoveOutOfLentMemoryWhenItRunsOut() {
        let lent = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 8)
        defer { lent.deallocate() }
        var bytes = SVGBytes(lending: lent)
        bytes += "<svg>"
        let lentAtFirst = bytes.isLent
        for i in 0..<40 { bytes.integer(i); bytes.append(0x20) }
        let lentAtLast = bytes.isLent
        #expect(lentAtFirst && !lentAtLast)
        #expect(bytes.string() == "<svg>" + (0..<40).map { "\($0) " }.joined())
        #expect(String(decoding: lent.prefix(5), as: UTF8.self) == "<svg>")
    }

    @Test func svgDefinesEachOfManyGlyphsOnce() {
        // More glyphs than the writer's first table of them holds.
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let svg = r.svg(r.render(tex: letters + letters))
        #expect(svg.components(separatedBy: "<path ").count - 1 == 52)
        #expect(svg.components(separatedBy: "<use ").count - 1 == 104)
        let ids = svg.components(separatedBy: "<path id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(Set(ids).count == 52)
    }

    @Test func svgLabelFollowsTemplate() throws {
        var o = RenderOptions()
        o.labelTemplate = "Math: {speech} ({latex})"
        let renderer = try Renderer(options: o, speaker: r.speaker)
        let f = renderer.render(tex: #"\frac{3}{4}"#)
        #expect(f.label == #"Math: three fourths (\frac{3}{4})"#)
        #expect(svgLabelProblems(renderer.svg(f), label: f.label, source: f.source).isEmpty)
    }

    @Test func svgReusesGlyphDefinitions() {
        let svg = r.svg(r.render(tex: "xxxx"))
        #expect(svg.components(separatedBy: "<path ").count - 1 == 1)
        #expect(svg.components(separatedBy: "<use ").count - 1 == 4)
    }

    @Test func svgColourAndBackground() throws {
        var o = RenderOptions()
        o.color = RGBAColor("#336699")!
        o.background = .white
        let renderer = try Renderer(options: o, speaker: r.speaker)
        let svg = renderer.svg(renderer.render(tex: "x"))
        #expect(svg.contains("fill=\"#336699\""))
        #expect(svg.contains("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\""))
    }

    @Test(arguments: samples)
    func pngDecodesAndCarriesTextChunks(_ tex: String) throws {
        let f = r.render(tex: tex)
        let png = try r.png(f)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let text = PNGText.read(png)
        #expect(text["Description"] == f.label)
        #expect(text["Source"] == tex)
        // cairo decodes it.
        let (w, h) = try decodePNGSize(png)
        #expect(w == Int((f.width).rounded(.up)))
        #expect(h == Int((f.height).rounded(.up)))
    }

    @Test func pngScaleMultipliesPixels() throws {
        var o = RenderOptions()
        o.scale = 2
        let renderer = try Renderer(options: o, speaker: r.speaker)
        let f = renderer.render(tex: "x+y")
        let (w, _) = try decodePNGSize(try renderer.png(f))
        #expect(w == Int((f.width * 2).rounded(.up)))
    }

    @Test func pngHasInk() throws {
        let png = try r.png(r.render(tex: "x"))
        let ink = try decodePNGInk(png)
        #expect(ink > 10)
    }

    @Test func crcMatchesKnownValue() {
        // CRC-32 of "IEND" (the constant every PNG ends with).
        #expect(PNGText.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test(arguments: samples)
    func pdfOpensAndHasTitle(_ tex: String) throws {
        let f = r.render(tex: tex)
        let pdf = try r.pdf(f)
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-1."))
        #expect(text.contains("%%EOF"))
        #expect(text.contains("/Title"))
        #expect(text.contains("/Type /Page"))
        #expect(pdfTitle(pdf) == f.label)
        #expect(pdfHexString(after: "/Alt ", in: pdf) == f.label)
        #expect(pdfCrossReferenceProblems(pdf) == [])
    }

    @Test func mixedTextGivesOneImagePerFormula() {
        let text = #"Let $x^2$ be given. Then \[ \frac{a}{b} \] and $\sqrt{y}$ follow."#
        let images = r.renderText(text)
        #expect(images.count == 3)
        #expect(images.map(\.display) == [false, true, false])
        #expect(images[0].formula.label == "x squared")
        for image in images {
            #expect(image.formula.baselineFromBottom > 0)
            #expect(image.formula.baselineFromBottom < image.formula.height)
            let svg = r.svg(image.formula)
            #expect(svg.contains("vertical-align:-\(n(image.formula.baselineFromBottom))px"))
        }
    }

    /// Only math environments are formulas in prose (`render --text`, as `speak --text`): a theorem's
    /// words are not drawn as one formula; the formula inside it is.
    @Test func proseEnvironmentsAreNotFormulas() {
        let text = #"\begin{theorem} For all $x$, \begin{equation} x = x \end{equation} \end{theorem}"#
        let images = r.renderText(text)
        #expect(images.map(\.formula.label) == ["x", "x equals x"])
        #expect(images.map(\.display) == [false, true])
    }

    @Test func mathMLInputWithDisplayBlock() {
        let inline = r.render(mathML: "<math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>")
        let block = r.render(mathML: #"<math display='block'><mfrac><mi>a</mi><mi>b</mi></mfrac></math>"#)
        #expect(inline.label == "a over b")
        #expect(block.box.height > inline.box.height)
        #expect(svgLabelProblems(r.svg(block), label: block.label, source: block.source) == [])
    }

    @Test func contactSheetRenders() throws {
        let sheet = r.contactSheet([#"\frac{1}{2}"#, "x^2", #"\sqrt{y}"#, "a+b"], columns: 2)
        #expect(sheet.box.width == 30)
        #expect(sheet.label.contains("one half"))
        #expect(PNGText.read(try r.png(sheet))["Description"] == sheet.label)
    }
}

/// A UTF-16BE hex string (`<FEFF…>`) following `key`, decoded.
func pdfHexString(after key: String, in pdf: Data) -> String? {
    let text = String(decoding: pdf, as: UTF8.self)
    guard let range = text.range(of: key + "<FEFF") else { return nil }
    let hex = Array(text[range.upperBound...].prefix { $0 != ">" })
    var units: [UInt16] = []
    var i = 0
    while i + 4 <= hex.count, let u = UInt16(String(hex[i..<(i + 4)]), radix: 16) { units.append(u); i += 4 }
    return String(decoding: units, as: UTF16.self)
}

/// Checks a PDF's classic cross-reference table: `startxref` points at `xref`, and every in-use entry
/// points at `N 0 obj` of its own number. Returns the problems.
func pdfCrossReferenceProblems(_ pdf: Data) -> [String] {
    let bytes = [UInt8](pdf)
    let text = String(decoding: bytes, as: UTF8.self)
    guard let sx = text.range(of: "startxref\n", options: .backwards) else { return ["no startxref"] }
    let number = Int(text[sx.upperBound...].prefix { $0.isNumber }) ?? -1
    guard number >= 0, number + 4 <= bytes.count, String(decoding: bytes[number..<(number + 4)], as: UTF8.self) == "xref" else {
        return ["startxref does not point at xref"]
    }
    let lines = String(decoding: bytes[(number + 5)...], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let header = lines[0].split(separator: " ")
    guard header.count == 2, let first = Int(header[0]), let count = Int(header[1]) else { return ["bad xref header"] }
    var problems: [String] = []
    for k in 0..<count {
        let entry = Array(lines[1 + k].utf8)
        guard entry.count >= 18, entry[17] == UInt8(ascii: "n") else { continue }
        let offset = Int(String(decoding: entry[0..<10], as: UTF8.self)) ?? -1
        let expected = "\(first + k) 0 obj"
        if offset < 0 || offset + expected.utf8.count > bytes.count
            || String(decoding: bytes[offset..<(offset + expected.utf8.count)], as: UTF8.self) != expected {
            problems.append("object \(first + k) not at its offset")
        }
    }
    return problems
}

/// The title of a cairo PDF (literal or UTF-16BE hex string), nil when absent.
func pdfTitle(_ pdf: Data) -> String? {
    let text = String(decoding: pdf, as: UTF8.self)
    guard let range = text.range(of: "/Title ") else { return nil }
    let rest = text[range.upperBound...]
    if rest.hasPrefix("<") {
        let hex = rest.dropFirst().prefix { $0 != ">" }
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex, let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex) {
            if let b = UInt8(hex[i..<j], radix: 16) { bytes.append(b) }
            i = j
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            var units: [UInt16] = []
            for k in stride(from: 2, to: bytes.count - 1, by: 2) { units.append(UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1])) }
            return String(decoding: units, as: UTF16.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    if rest.hasPrefix("(") {
        var out = ""
        var escaped = false
        for ch in rest.dropFirst() {
            if escaped { out.append(ch); escaped = false; continue }
            if ch == "\\" { escaped = true; continue }
            if ch == ")" { break }
            out.append(ch)
        }
        return out
    }
    return nil
}

private final class PNGSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ data: Data) { bytes = [UInt8](data) }
}

private func decodeSurface(_ png: Data) throws -> OpaquePointer {
    let source = PNGSource(png)
    let unmanaged = Unmanaged.passRetained(source)
    defer { unmanaged.release() }
    let surface = cairo.cairo_image_surface_create_from_png_stream({ closure, data, length in
        let s = Unmanaged<PNGSource>.fromOpaque(closure!).takeUnretainedValue()
        let n = Int(length)
        guard s.offset + n <= s.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
        for i in 0..<n { data[i] = s.bytes[s.offset + i] }
        s.offset += n
        return CAIRO_STATUS_SUCCESS
    }, unmanaged.toOpaque())
    guard let surface, cairo.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
        struct DecodeError: Error {}
        throw DecodeError()
    }
    return surface
}

/// Width and height of a PNG decoded by cairo (throws when cairo cannot decode it).
func decodePNGSize(_ png: Data) throws -> (Int, Int) {
    let surface = try decodeSurface(png)
    defer { cairo.cairo_surface_destroy(surface) }
    return (Int(cairo.cairo_image_surface_get_width(surface)), Int(cairo.cairo_image_surface_get_height(surface)))
}

/// How many pixels of a decoded PNG have any alpha.
func decodePNGInk(_ png: Data) throws -> Int {
    let surface = try decodeSurface(png)
    defer { cairo.cairo_surface_destroy(surface) }
    let w = Int(cairo.cairo_image_surface_get_width(surface)), h = Int(cairo.cairo_image_surface_get_height(surface))
    let stride = Int(cairo.cairo_image_surface_get_stride(surface))
    guard let data = cairo.cairo_image_surface_get_data(surface) else { return 0 }
    var count = 0
    for y in 0..<h { for x in 0..<w where data[y * stride + x * 4 + 3] != 0 { count += 1 } }
    return count
}

/// Size of a decoded PNG and how many pixels with any alpha lie on each of its edges (top, bottom,
/// left, right).
func decodePNGEdgeInk(_ png: Data) throws -> (width: Int, height: Int, edges: [Int]) {
    let surface = try decodeSurface(png)
    defer { cairo.cairo_surface_destroy(surface) }
    let w = Int(cairo.cairo_image_surface_get_width(surface)), h = Int(cairo.cairo_image_surface_get_height(surface))
    let stride = Int(cairo.cairo_image_surface_get_stride(surface))
    guard let data = cairo.cairo_image_surface_get_data(surface) else { return (w, h, []) }
    func ink(_ x: Int, _ y: Int) -> Int { data[y * stride + x * 4 + 3] != 0 ? 1 : 0 }
    var edges = [0, 0, 0, 0]
    for x in 0..<w { edges[0] += ink(x, 0); edges[1] += ink(x, h - 1) }
    for y in 0..<h { edges[2] += ink(0, y); edges[3] += ink(w - 1, y) }
    return (w, h, edges)
}

/// A number with at most two decimals, no trailing zeros (SVG coordinates in px).
private func n(_ v: Double) -> String {
    let scaled = (v * 100).rounded()
    if scaled == 0 { return "0" }
    let i = Int(scaled)
    let negative = i < 0
    let a = abs(i)
    var s = negative ? "-" : ""
    s += String(a / 100)
    let frac = a % 100
    if frac != 0 {
        s += frac < 10 ? ".0" : "."
        s += frac % 10 == 0 ? String(frac / 10) : String(frac)
    }
    return s
}
