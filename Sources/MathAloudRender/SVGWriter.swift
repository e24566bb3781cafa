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
        out.bytes.reserveCapacity(8192)
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        out.number(w); out += "\" height=\""; out.number(h); out += "\" viewBox=\"0 0 "; out.number(w); out += " "; out.number(h)
        out += "\" role=\"img\" aria-labelledby=\""; out += prefix; out += "-title\" aria-describedby=\""; out += prefix; out += "-desc\""
        out += " style=\"vertical-align:-"; out.number(formula.baselineFromBottom); out += "px\""
        out += " data-baseline=\""; out.number(top); out += "\" data-depth=\""; out.number(formula.baselineFromBottom)
        out += "\" data-height=\""; out.number(top); out += "\">"
        out += "<title id=\""; out += prefix; out += "-title\">"; out.escaped(formula.label); out += "</title>"
        out += "<desc id=\""; out += prefix; out += "-desc\">"; out.escaped(formula.source); out += "</desc>"
        let items = box.drawList(color: options.color)
        if let bg = options.background {
            out += "<rect width=\"100%\" height=\"100%\" fill=\""; out += bg.hex; out += "\""; out.opacity(bg); out += "/>"
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
            out += "<path id=\""; out += prefix; out += "-"; out.glyphID(g); out += "\" d=\""
            out += fonts.face(g.font).svgPath(g.glyph); out += "\"/>"
        }
        if !first { out += "</defs>" }
        out += "<g fill=\""; out += options.color.hex; out += "\""; out.opacity(options.color)
        out += " transform=\"translate("; out.number(pad * fs); out += " "; out.number(top); out += ")\">"
        let mathScale = fs / fonts.math.face.unitsPerEm
        for item in items {
            switch item {
            case let .glyph(g, x, y, color):
                let scale = g.font == .math ? mathScale : fs / fonts.face(g.font).unitsPerEm
                out += "<use href=\"#"; out += prefix; out += "-"; out.glyphID(g); out += "\" transform=\"translate("
                out.number(x * fs); out += " "; out.number(-y * fs); out += ") scale("; out.number(g.size * scale, decimals: 4); out += ")\""
                if color != options.color { out += " fill=\""; out += color.hex; out += "\""; out.opacity(color) }
                out += "/>"
            case let .rect(x, y, width, height, color):
                out += "<rect x=\""; out.number(x * fs); out += "\" y=\""; out.number(-(y + height) * fs); out += "\" width=\""
                out.number(width * fs); out += "\" height=\""; out.number(height * fs); out += "\""
                if color != options.color { out += " fill=\""; out += color.hex; out += "\""; out.opacity(color) }
                out += "/>"
            case let .line(x1, y1, x2, y2, t, color):
                out += "<line x1=\""; out.number(x1 * fs); out += "\" y1=\""; out.number(-y1 * fs); out += "\" x2=\""; out.number(x2 * fs)
                out += "\" y2=\""; out.number(-y2 * fs); out += "\" stroke=\""; out += color.hex; out += "\" stroke-width=\""; out.number(t * fs); out += "\"/>"
            case let .frame(x, y, width, height, t, dashed, color):
                out += "<rect x=\""; out.number((x + t / 2) * fs); out += "\" y=\""; out.number(-(y + height - t / 2) * fs)
                out += "\" width=\""; out.number((width - t) * fs); out += "\" height=\""; out.number((height - t) * fs)
                out += "\" fill=\"none\" stroke=\""; out += color.hex; out += "\" stroke-width=\""; out.number(t * fs); out += "\""
                if dashed { out += " stroke-dasharray=\""; out.number(3 * t * fs); out += "\"" }
                out += "/>"
            case let .ellipse(x, y, width, height, t, color):
                out += "<ellipse cx=\""; out.number((x + width / 2) * fs); out += "\" cy=\""; out.number(-(y + height / 2) * fs)
                out += "\" rx=\""; out.number((width - t) / 2 * fs); out += "\" ry=\""; out.number((height - t) / 2 * fs)
                out += "\" fill=\"none\" stroke=\""; out += color.hex; out += "\" stroke-width=\""; out.number(t * fs); out += "\"/>"
            }
        }
        out += "</g></svg>"
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// A UTF-8 byte buffer for writing SVG quickly (no intermediate strings for numbers).
struct SVGBytes {
    var bytes: [UInt8] = []

    static func += (out: inout SVGBytes, s: String) {
        var s = s
        s.withUTF8 { out.bytes.append(contentsOf: $0) }
    }

    /// A number rounded to `decimals` places, without trailing zeros.
    mutating func number(_ v: Double, decimals: Int = 2) {
        let factor = decimals == 4 ? 10_000.0 : 100.0
        guard v.isFinite else { bytes.append(0x30); return }
        var i = Int((v * factor).rounded())
        if i == 0 { bytes.append(0x30); return }
        if i < 0 { bytes.append(0x2D); i = -i }
        let unit = decimals == 4 ? 10_000 : 100
        integer(i / unit)
        var frac = i % unit
        guard frac != 0 else { return }
        bytes.append(0x2E)
        var digits = decimals
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(0x30 + (frac / divisor) % 10))
            divisor /= 10
        }
    }

    mutating func integer(_ value: Int) {
        if value < 10 { bytes.append(UInt8(0x30 + value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value, count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while n > 0, count < 20 { buffer[count] = UInt8(0x30 + n % 10); n /= 10; count += 1 }
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[k]) }
        }
    }

    /// Element content escaped as XML (``XMLEscaping/text(_:)``).
    mutating func escaped(_ s: String) {
        self += XMLEscaping.text(s)
    }

    mutating func glyphID(_ g: GlyphRef) {
        if g.font != .math { integer(Int(g.font.rawValue)); bytes.append(0x2D) }
        integer(Int(g.glyph))
    }

    mutating func opacity(_ c: RGBAColor) {
        guard c.alpha < 1 else { return }
        self += " fill-opacity=\""
        number(c.alpha)
        self += "\""
    }
}

/// A number with at most two decimals, no trailing zeros (SVG coordinates in px).
@inline(__always) func n(_ v: Double) -> String {
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

/// FNV-1a hash of a string (stable id prefixes).
func fnv1a(_ s: String) -> UInt32 {
    var h: UInt32 = 2_166_136_261
    for b in s.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
    return h
}
