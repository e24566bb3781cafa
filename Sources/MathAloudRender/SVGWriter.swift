import MathAloud

extension Renderer {
    /// The formula as a standalone SVG document.
    ///
    /// Accessibility: the root has `role="img"`, `aria-labelledby` pointing at a `<title>` holding the
    /// label (speech through the label template) and `aria-describedby` pointing at a `<desc>` holding
    /// the TeX source. Glyphs are paths defined once in `<defs>` and placed with `<use>`. The
    /// `style="vertical-align:…"` puts the image's baseline on the surrounding text's baseline when it
    /// is used inline; `data-baseline`, `data-depth` and `data-height` carry the metrics in px.
    /// - Parameter idPrefix: prefix for element ids (unique per image when several SVGs share a page);
    ///   default derived from the source text.
    public func svg(_ formula: RenderedFormula, idPrefix: String? = nil) -> String {
        let fs = formula.fontSize
        let pad = formula.padding
        let box = formula.box
        let prefix = idPrefix ?? "ma" + String(fnv1a(formula.source), radix: 36)
        let w = formula.width, h = formula.height
        let top = (box.height + pad) * fs
        var out = SVGBytes()
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        out.number(w); out += "\" height=\""; out.number(h); out += "\" viewBox=\"0 0 "; out.number(w); out += " "; out.number(h)
        out += "\" role=\"img\" aria-labelledby=\""; out.append(prefix); out += "-title\" aria-describedby=\""; out.append(prefix); out += "-desc\""
        out += " style=\"vertical-align:-"; out.number(formula.baselineFromBottom); out += "px\""
        out += " data-baseline=\""; out.number(top); out += "\" data-depth=\""; out.number(formula.baselineFromBottom)
        out += "\" data-height=\""; out.number(top); out += "\">"
        out += "<title id=\""; out.append(prefix); out += "-title\">"; out.escaped(formula.label); out += "</title>"
        out += "<desc id=\""; out.append(prefix); out += "-desc\">"; out.escaped(formula.source); out += "</desc>"
        let items = box.drawList(color: options.color)
        if let bg = options.background {
            out += "<rect width=\"100%\" height=\"100%\" fill=\""; out.color(bg); out += "\""; out.opacity(bg); out += "/>"
        }
        // Glyph outlines once each in <defs>, placed with <use>.
        var defined: [UInt64] = []
        var first = true
        for item in items {
            guard case let .glyph(g, _, _, _) = item else { continue }
            let key = UInt64(g.font.rawValue) << 32 | UInt64(g.glyph)
            if defined.contains(key) { continue }
            defined.append(key)
            if first { out += "<defs>"; first = false }
            out += "<path id=\""; out.append(prefix); out += "-"; out.glyphID(g); out += "\" d=\""
            out.append(fonts.face(g.font).svgPath(g.glyph)); out += "\"/>"
        }
        if !first { out += "</defs>" }
        out += "<g fill=\""; out.color(options.color); out += "\""; out.opacity(options.color)
        out += " transform=\"translate("; out.number(pad * fs); out += " "; out.number(top); out += ")\">"
        let mathScale = fs / fonts.math.face.unitsPerEm
        for item in items {
            switch item {
            case let .glyph(g, x, y, color):
                let scale = g.font == .math ? mathScale : fs / fonts.face(g.font).unitsPerEm
                out += "<use href=\"#"; out.append(prefix); out += "-"; out.glyphID(g); out += "\" transform=\"translate("
                out.number(x * fs); out += " "; out.number(-y * fs); out += ") scale("; out.number(g.size * scale, decimals: 6); out += ")\""
                if color != options.color { out += " fill=\""; out.color(color); out += "\""; out.opacity(color) }
                out += "/>"
            case let .rect(x, y, width, height, color):
                out += "<rect x=\""; out.number(x * fs); out += "\" y=\""; out.number(-(y + height) * fs); out += "\" width=\""
                out.number(width * fs); out += "\" height=\""; out.number(height * fs); out += "\""
                if color != options.color { out += " fill=\""; out.color(color); out += "\""; out.opacity(color) }
                out += "/>"
            case let .line(x1, y1, x2, y2, t, color):
                out += "<line x1=\""; out.number(x1 * fs); out += "\" y1=\""; out.number(-y1 * fs); out += "\" x2=\""; out.number(x2 * fs)
                out += "\" y2=\""; out.number(-y2 * fs); out += "\" stroke=\""; out.color(color); out += "\" stroke-width=\""; out.number(t * fs); out += "\"/>"
            case let .frame(x, y, width, height, t, dashed, color):
                out += "<rect x=\""; out.number((x + t / 2) * fs); out += "\" y=\""; out.number(-(y + height - t / 2) * fs)
                out += "\" width=\""; out.number((width - t) * fs); out += "\" height=\""; out.number((height - t) * fs)
                out += "\" fill=\"none\" stroke=\""; out.color(color); out += "\" stroke-width=\""; out.number(t * fs); out += "\""
                if dashed { out += " stroke-dasharray=\""; out.number(3 * t * fs); out += "\"" }
                out += "/>"
            case let .ellipse(x, y, width, height, t, color):
                out += "<ellipse cx=\""; out.number((x + width / 2) * fs); out += "\" cy=\""; out.number(-(y + height / 2) * fs)
                out += "\" rx=\""; out.number((width - t) / 2 * fs); out += "\" ry=\""; out.number((height - t) / 2 * fs)
                out += "\" fill=\"none\" stroke=\""; out.color(color); out += "\" stroke-width=\""; out.number(t * fs); out += "\"/>"
            }
        }
        out += "</g></svg>"
        return out.string()
    }
}

/// A UTF-8 byte buffer for writing SVG quickly (no intermediate strings for numbers).
struct SVGBytes: ~Copyable {
    // A growable byte buffer of our own: appending is a capacity check and a copy (an [UInt8]
    // append costs several times more per call, and an SVG is a few hundred appends).
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 8192) {
        self.capacity = Swift.max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) private mutating func ensure(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        ensure(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        ensure(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a literal: its bytes are copied as they are, with no string machinery.
    static func += (out: inout SVGBytes, s: StaticString) {
        s.withUTF8Buffer { out.append($0) }
    }

    /// Appends a string's UTF-8.
    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    /// The text written.
    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// A number rounded to `decimals` places (1…9), without trailing zeros. Glyph scales (font units to
    /// px, ~0.01) take 6, so a glyph's size is exact to 0.01 %.
    mutating func number(_ v: Double, decimals: Int = 2) {
        let decimals = Swift.min(Swift.max(decimals, 1), 9)
        var unit = 1
        for _ in 0..<decimals { unit *= 10 }
        guard v.isFinite, abs(v) < 1e9 else { append(0x30); return }
        var i = Int((v * Double(unit)).rounded())
        if i == 0 { append(0x30); return }
        if i < 0 { append(0x2D); i = -i }
        integer(i / unit)
        var frac = i % unit
        guard frac != 0 else { return }
        append(0x2E)
        var digits = decimals
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(0x30 + (frac / divisor) % 10))
            divisor /= 10
        }
    }

    mutating func integer(_ value: Int) {
        if value >= 0 && value < 10 { append(UInt8(0x30 + value)); return }
        var n = value, digits = 0
        while n > 0 { digits += 1; n /= 10 }
        ensure(digits)
        n = value
        var i = count + digits - 1
        while n > 0 { base[i] = UInt8(0x30 + n % 10); n /= 10; i -= 1 }
        count += digits
    }

    /// Element content escaped as XML (``XMLEscaping/text(_:)``).
    mutating func escaped(_ s: String) {
        append(XMLEscaping.text(s))
    }

    mutating func glyphID(_ g: GlyphRef) {
        if g.font != .math { integer(Int(g.font.rawValue)); append(0x2D) }
        integer(Int(g.glyph))
    }

    /// A colour as `#rrggbb` (as ``RGBAColor/hex``), written digit by digit.
    mutating func color(_ c: RGBAColor) {
        append(0x23)
        hexChannel(c.red)
        hexChannel(c.green)
        hexChannel(c.blue)
    }

    private mutating func hexChannel(_ channel: Double) {
        let v = Int((Swift.max(0, Swift.min(1, channel)) * 255).rounded())
        append(SVGBytes.hexDigit(v >> 4))
        append(SVGBytes.hexDigit(v & 15))
    }

    @inline(__always) private static func hexDigit(_ d: Int) -> UInt8 { UInt8(d < 10 ? 0x30 + d : 0x57 + d) }

    mutating func opacity(_ c: RGBAColor) {
        guard c.alpha < 1 else { return }
        self += " fill-opacity=\""
        number(c.alpha)
        self += "\""
    }
}

/// FNV-1a hash of a string (stable id prefixes).
func fnv1a(_ s: String) -> UInt32 {
    var h: UInt32 = 2_166_136_261
    for b in s.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
    return h
}
