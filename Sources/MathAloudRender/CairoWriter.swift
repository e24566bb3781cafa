import CCairo
import CZlib
import Foundation

/// Collects bytes written by cairo's stream functions.
private final class ByteSink {
    var data = Data()
}

private func appendBytes(_ closure: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
    Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
    return CAIRO_STATUS_SUCCESS
}

extension Renderer {
    /// Throws what ``png(_:)`` and ``pdf(_:)`` throw when cairo cannot be loaded (loading it on the
    /// first call), so that a caller about to make many images can find out before laying any out.
    package static func checkCairo() throws(ImageFormatError) {
        if let problem = CLibraries.cairoProblem { throw ImageFormatError(description: problem) }
    }

    /// The formula as a PNG image (RGBA, transparent unless a background is set), `scale` pixels per
    /// CSS pixel, drawn by cairo and encoded by ``PNGEncoder``. The label is stored in an `iTXt` chunk
    /// with keyword `Description` and the source in an `iTXt` chunk with keyword `Source` (PNG 1.2
    /// §11.3.4, UTF-8, uncompressed), placed right after `IHDR` so readers that stop early find them.
    ///
    /// Huge formulas are bounded: the image is scaled down to at most 40 megapixels (16,000 px a side).
    /// Throws when cairo cannot be loaded.
    public func png(_ formula: RenderedFormula) throws(ImageFormatError) -> Data {
        try Renderer.checkCairo()
        var scale = options.scale
        let area = max(1, formula.width * formula.height) * scale * scale
        if area > 40_000_000 { scale *= (40_000_000 / area).squareRoot() }
        scale = min(scale, 16_000 / max(1, formula.width), 16_000 / max(1, formula.height))
        let px = formula.fontSize * scale
        let width = Int32(max(1, min(16_000, (formula.width * scale).rounded(.up))))
        let height = Int32(max(1, min(16_000, (formula.height * scale).rounded(.up))))
        guard let surface = cairo.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return Data() }
        defer { cairo.cairo_surface_destroy(surface) }
        guard let cr = cairo.cairo_create(surface) else { return Data() }
        draw(formula, cr, unit: px)
        cairo.cairo_destroy(cr)
        cairo.cairo_surface_flush(surface)
        guard let pixels = cairo.cairo_image_surface_get_data(surface) else { return Data() }
        return PNGEncoder.encode(argb: pixels, width: Int(width), height: Int(height),
                                 stride: Int(cairo.cairo_image_surface_get_stride(surface)),
                                 text: [("Description", formula.label), ("Source", formula.source)])
    }

    /// The formula as a one-page tagged PDF (page size = image size, `size` points per em). The label is
    /// the document title (`/Title` in the info dictionary) and the alternate text (`/Alt`) of the
    /// `Figure` structure element that holds the drawing; the source is the subject (`/Subject`); the
    /// label's language (``RenderedFormula/language``) is the document's (`/Lang` in the catalog).
    /// Throws when cairo cannot be loaded.
    public func pdf(_ formula: RenderedFormula) throws(ImageFormatError) -> Data {
        try Renderer.checkCairo()
        let sink = ByteSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        guard let surface = cairo.cairo_pdf_surface_create_for_stream({ c, b, l in appendBytes(c, b, l) }, unmanaged.toOpaque(),
                                                                max(1, formula.width), max(1, formula.height)) else { return Data() }
        cairo.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, formula.label)
        cairo.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, formula.source)
        cairo.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "MathAloud")
        if let cr = cairo.cairo_create(surface) {
            // One Figure structure element around the drawing (a tagged PDF); cairo 1.16 has no
            // attribute for alternate text, so the label is added to that element afterwards.
            cairo.cairo_tag_begin(cr, "Figure", "")
            draw(formula, cr, unit: formula.fontSize)
            cairo.cairo_tag_end(cr, "Figure")
            cairo.cairo_show_page(cr)
            cairo.cairo_destroy(cr)
        }
        cairo.cairo_surface_finish(surface)
        cairo.cairo_surface_destroy(surface)
        return PDFAlternateText.insert(formula.label, language: formula.language, into: sink.data)
    }

    /// Paints the formula with cairo: `unit` device units per em.
    func draw(_ formula: RenderedFormula, _ cr: OpaquePointer, unit: Double) {
        let margins = formula.margins
        if let bg = options.background {
            cairo.cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
            cairo.cairo_paint(cr)
        }
        // User space: em, y up, origin on the baseline at the left of the box.
        cairo.cairo_translate(cr, margins.left * unit, (formula.box.height + margins.top) * unit)
        cairo.cairo_scale(cr, unit, -unit)
        for item in formula.box.drawList(color: options.color) {
            switch item {
            case let .glyph(g, x, y, color):
                let face = fonts.face(g.font)
                let s = g.size / face.unitsPerEm
                cairo.cairo_save(cr)
                cairo.cairo_translate(cr, x, y)
                cairo.cairo_scale(cr, s, s)
                cairo.cairo_new_path(cr)
                for c in face.outline(g.glyph) {
                    switch c {
                    case let .move(px, py): cairo.cairo_move_to(cr, Double(px), Double(py))
                    case let .line(px, py): cairo.cairo_line_to(cr, Double(px), Double(py))
                    case let .cubic(a, b, c2, d, px, py):
                        cairo.cairo_curve_to(cr, Double(a), Double(b), Double(c2), Double(d), Double(px), Double(py))
                    case .close: cairo.cairo_close_path(cr)
                    }
                }
                cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo.cairo_fill(cr)
                cairo.cairo_restore(cr)
            case let .rect(x, y, w, h, color):
                cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo.cairo_rectangle(cr, x, y, w, h)
                cairo.cairo_fill(cr)
            case let .line(x1, y1, x2, y2, t, color):
                cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo.cairo_set_line_width(cr, t)
                cairo.cairo_move_to(cr, x1, y1)
                cairo.cairo_line_to(cr, x2, y2)
                cairo.cairo_stroke(cr)
            case let .frame(x, y, w, h, t, dashed, color):
                cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo.cairo_set_line_width(cr, t)
                if dashed {
                    var dash = [3 * t]
                    cairo.cairo_set_dash(cr, &dash, 1, 0)
                }
                cairo.cairo_rectangle(cr, x + t / 2, y + t / 2, w - t, h - t)
                cairo.cairo_stroke(cr)
                cairo.cairo_set_dash(cr, nil, 0, 0)
            case let .ellipse(x, y, w, h, t, color):
                cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo.cairo_set_line_width(cr, t)
                cairo.cairo_save(cr)
                cairo.cairo_translate(cr, x + w / 2, y + h / 2)
                cairo.cairo_scale(cr, max((w - t) / 2, 0.001), max((h - t) / 2, 0.001))
                cairo.cairo_new_path(cr)
                cairo.cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
                cairo.cairo_restore(cr)
                cairo.cairo_stroke(cr)
            }
        }
    }
}

/// PNG text chunks (PNG 1.2 §11.3.4): cairo writes none, so they are inserted after `IHDR`.
public enum PNGText {
    /// Appends a PNG chunk to `out`: length, type, data, CRC-32 (zlib's) over type and data.
    static func appendChunk(_ type: String, _ body: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let length = UInt32(body.count)
        out += [UInt8(length >> 24), UInt8(length >> 16 & 255), UInt8(length >> 8 & 255), UInt8(length & 255)]
        let typeBytes = Array(type.utf8)
        out += typeBytes
        out += body
        var crc = typeBytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) }
        crc = body.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, uInt($0.count)) }
        out += [UInt8(crc >> 24 & 255), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)]
    }

    /// The text chunks (`tEXt` and uncompressed `iTXt`) of a PNG, keyword → text; chunks whose CRC
    /// does not match are skipped.
    public static func read(_ data: Data) -> [String: String] {
        let b = [UInt8](data)
        var result: [String: String] = [:]
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 0, i + 12 + length <= b.count else { break }
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = Array(b[(i + 8)..<(i + 8 + length)])
            let stored = UInt32(b[i + 8 + length]) << 24 | UInt32(b[i + 9 + length]) << 16 | UInt32(b[i + 10 + length]) << 8 | UInt32(b[i + 11 + length])
            if stored == crc32(Array(b[(i + 4)..<(i + 8 + length)])) {
                if type == "iTXt" || type == "tEXt", let nul = body.firstIndex(of: 0) {
                    let keyword = String(decoding: body[..<nul], as: UTF8.self)
                    if type == "tEXt" {
                        result[keyword] = String(decoding: body[(nul + 1)...], as: UTF8.self)
                    } else if body.count > nul + 2, body[nul + 1] == 0 {
                        // Skip flag, method, language tag and translated keyword.
                        var j = nul + 3
                        for _ in 0..<2 { while j < body.count, body[j] != 0 { j += 1 }; j += 1 }
                        if j <= body.count { result[keyword] = String(decoding: body[min(j, body.count)...], as: UTF8.self) }
                    }
                }
            }
            if type == "IEND" { break }
            i += 12 + length
        }
        return result
    }

    /// CRC-32 as PNG computes it (ISO 3309 / ITU-T V.42 polynomial), through zlib.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
    }
}

/// Adds alternate text to the `Figure` structure element of a PDF written by cairo, and the document's
/// language to its catalog (cairo 1.16 has no way to set `/Alt` or `/Lang`: its metadata are the info
/// dictionary's title, author, subject, keywords, creator and dates, and its tag attributes have no
/// language): each entry is inserted into its dictionary and the cross-reference table's offsets are
/// moved by what was inserted before them. Returns the PDF unchanged when its layout is not the one
/// expected (a classic `xref` table after the element and the catalog).
public enum PDFAlternateText {
    /// `pdf` with `/Alt` (UTF-16BE hex string) on its first `/S /Figure` element.
    public static func insert(_ text: String, into pdf: Data) -> Data {
        insert(text, language: nil, into: pdf)
    }

    /// `pdf` with `/Alt` (UTF-16BE hex string) on its first `/S /Figure` element and, when `language`
    /// is given (a BCP 47 tag of letters, digits and `-`), `/Lang` in its `/Type /Catalog` dictionary.
    public static func insert(_ text: String, language: String?, into pdf: Data) -> Data {
        let bytes = [UInt8](pdf)
        guard let figure = find(Array("/S /Figure".utf8), in: bytes, from: 0) else { return pdf }
        var entry = Array("\n   /Alt <FEFF".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for unit in text.utf16 {
            for shift: UInt16 in [12, 8, 4, 0] { entry.append(hex[Int(unit >> shift) & 15]) }
        }
        entry += Array(">".utf8)
        var insertions = [(at: figure + 10, bytes: entry)]
        if let language, !language.isEmpty,
           language.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || (0x30...0x39).contains($0) || $0 == 0x2D }) {
            guard let catalog = find(Array("/Type /Catalog".utf8), in: bytes, from: 0) else { return pdf }
            insertions.append((catalog + 14, Array("\n   /Lang (\(language))".utf8)))
            insertions.sort { $0.at < $1.at }
        }
        guard let xref = findLast(Array("\nxref\n".utf8), in: bytes), let last = insertions.last, xref > last.at,
              let startxref = findLast(Array("startxref\n".utf8), in: bytes), startxref > xref else { return pdf }
        /// An offset of the input in the output: moved by every insertion before it.
        func moved(_ offset: Int) -> Int {
            offset + insertions.reduce(0) { $0 + ($1.at < offset ? $1.bytes.count : 0) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + insertions.reduce(0) { $0 + $1.bytes.count })
        var from = 0
        for insertion in insertions {
            out += bytes[from..<insertion.at]
            out += insertion.bytes
            from = insertion.at
        }
        out += bytes[from..<(xref + 6)]
        // Rewrite the table: "first count" headers, then 20-byte entries "oooooooooo ggggg n\r\n".
        var i = xref + 6
        while i < startxref {
            guard let lineEnd = bytes[i..<startxref].firstIndex(of: 0x0A) else { return pdf }
            let line = Array(bytes[i..<lineEnd])
            if line.count >= 18, line[10] == 0x20, line[16] == 0x20, let offset = Int(String(decoding: line[0..<10], as: UTF8.self)) {
                let digits = String(moved(offset))
                guard digits.count <= 10 else { return pdf }
                out += Array((String(repeating: "0", count: 10 - digits.count) + digits).utf8) + Array(line[10...]) + [0x0A]
            } else {
                out += line + [0x0A]
            }
            i = lineEnd + 1
        }
        // startxref and its number.
        out += Array("startxref\n".utf8)
        var j = startxref + 10
        var number = 0
        while j < bytes.count, (0x30...0x39).contains(bytes[j]) { number = number * 10 + Int(bytes[j] - 0x30); j += 1 }
        out += Array(String(moved(number)).utf8)
        out += bytes[j...]
        return Data(out)
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var i = from
        while i + needle.count <= hay.count {
            if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func findLast(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var i = hay.count - needle.count
        while i >= 0 {
            if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }
}

/// A small PNG writer for cairo's ARGB32 surfaces: RGBA 8-bit, filter "Up" on every row, deflate at a
/// fast level; text chunks go right after `IHDR`. (cairo's own writer tries every filter on every row
/// with the default compression level, which took most of the PNG time.)
public enum PNGEncoder {
    /// Encodes premultiplied native-endian ARGB32 pixels.
    public static func encode(argb: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                              text: [(keyword: String, text: String)]) -> Data {
        // Filtered scanlines: one filter byte (2 = Up) and RGBA, un-premultiplied. One pass over the pixels,
        // through buffer pointers into `raw` and the row above (`previous`, unfiltered). With checked array
        // indexes and a row copy, this function's own work (zlib aside) took 429 k of the 2.6 M instructions
        // per formula of `png(_:)`, now 319 k (`MathAloudBench render-png-profile`, callgrind, the first 150
        // arXiv formulas). Every index stays in bounds: `base + 1 + 4 * x + 3 < (y + 1) * (rowBytes + 1)`
        // for `x < width`, `y < height`, and `4 * x + 3 < rowBytes`.
        let rowBytes = width * 4
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var previous = [UInt8](repeating: 0, count: rowBytes)
        argb.withMemoryRebound(to: UInt32.self, capacity: height * stride / 4) { pixels in
            raw.withUnsafeMutableBufferPointer { out in
                previous.withUnsafeMutableBufferPointer { above in
                    for y in 0..<height {
                        let row = pixels + y * stride / 4
                        let base = y * (rowBytes + 1)
                        out[base] = 2
                        for x in 0..<width {
                            let p = row[x]
                            let a = UInt32(p >> 24)
                            var r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255
                            if a != 0 && a != 255 { r = min(255, (r * 255 + a / 2) / a); g = min(255, (g * 255 + a / 2) / a); b = min(255, (b * 255 + a / 2) / a) }
                            let i = 4 * x, o = base + 1 + i
                            let r8 = UInt8(r), g8 = UInt8(g), b8 = UInt8(b), a8 = UInt8(a)
                            out[o] = r8 &- above[i]; out[o + 1] = g8 &- above[i + 1]
                            out[o + 2] = b8 &- above[i + 2]; out[o + 3] = a8 &- above[i + 3]
                            above[i] = r8; above[i + 1] = g8; above[i + 2] = b8; above[i + 3] = a8
                        }
                    }
                }
            }
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&compressed, &compressedLength, raw, uLong(raw.count), 3)
        guard status == Z_OK else { return Data() }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out.reserveCapacity(Int(compressedLength) + 256 + text.reduce(0) { $0 + $1.keyword.utf8.count + $1.text.utf8.count + 17 })
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        PNGText.appendChunk("IHDR", (be32(width) + be32(height) + [8, 6, 0, 0, 0])[...], to: &out)
        for (keyword, value) in text {
            // Keyword (1–79 Latin-1 characters), compression flag and method 0, empty language and
            // translated keyword, then the UTF-8 text.
            PNGText.appendChunk("iTXt", (Array(keyword.utf8.prefix(79)) + [0, 0, 0, 0, 0] + Array(value.utf8))[...], to: &out)
        }
        PNGText.appendChunk("IDAT", compressed[0..<Int(compressedLength)], to: &out)
        PNGText.appendChunk("IEND", [], to: &out)
        return Data(out)
    }
}
