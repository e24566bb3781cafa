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
        var out = ""
        out.reserveCapacity(4096)
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        out += n(w) + "\" height=\"" + n(h) + "\" viewBox=\"0 0 " + n(w) + " " + n(h)
        out += "\" role=\"img\" aria-labelledby=\"" + prefix + "-title\" aria-describedby=\"" + prefix + "-desc\""
        out += " style=\"vertical-align:-" + n(formula.baselineFromBottom) + "px\""
        out += " data-baseline=\"" + n(top) + "\" data-depth=\"" + n(formula.baselineFromBottom) + "\" data-height=\"" + n(top) + "\">"
        out += "<title id=\"" + prefix + "-title\">" + XMLEscaping.text(formula.label) + "</title>"
        out += "<desc id=\"" + prefix + "-desc\">" + XMLEscaping.text(formula.source) + "</desc>"
        let items = box.drawList(color: options.color)
        // Glyph outlines once each in <defs>.
        var defined = Set<UInt64>()
        var defs = ""
        for item in items {
            guard case let .glyph(g, _, _, _) = item else { continue }
            let key = UInt64(g.font.rawValue) << 32 | UInt64(g.glyph)
            if defined.insert(key).inserted {
                let d = fonts.face(g.font).svgPath(g.glyph)
                defs += "<path id=\"" + prefix + "-" + glyphID(g) + "\" d=\"" + d + "\"/>"
            }
        }
        if let bg = options.background {
            out += "<rect width=\"100%\" height=\"100%\" fill=\"" + bg.hex + "\"" + opacity(bg, "fill-opacity") + "/>"
        }
        if !defs.isEmpty { out += "<defs>" + defs + "</defs>" }
        out += "<g fill=\"" + options.color.hex + "\"" + opacity(options.color, "fill-opacity") + " transform=\"translate(" + n(pad * fs) + " " + n(top) + ")\">"
        for item in items {
            switch item {
            case let .glyph(g, x, y, color):
                let upem = fonts.face(g.font).unitsPerEm
                out += "<use href=\"#" + prefix + "-" + glyphID(g) + "\" transform=\"translate(" + n(x * fs) + " " + n(-y * fs)
                out += ") scale(" + n4(g.size * fs / upem) + ")\""
                if color != options.color { out += " fill=\"" + color.hex + "\"" + opacity(color, "fill-opacity") }
                out += "/>"
            case let .rect(x, y, width, height, color):
                out += "<rect x=\"" + n(x * fs) + "\" y=\"" + n(-(y + height) * fs) + "\" width=\"" + n(width * fs)
                out += "\" height=\"" + n(height * fs) + "\""
                if color != options.color { out += " fill=\"" + color.hex + "\"" + opacity(color, "fill-opacity") }
                out += "/>"
            case let .line(x1, y1, x2, y2, t, color):
                out += "<line x1=\"" + n(x1 * fs) + "\" y1=\"" + n(-y1 * fs) + "\" x2=\"" + n(x2 * fs) + "\" y2=\"" + n(-y2 * fs)
                out += "\" stroke=\"" + color.hex + "\" stroke-width=\"" + n(t * fs) + "\"/>"
            case let .frame(x, y, width, height, t, dashed, color):
                out += "<rect x=\"" + n((x + t / 2) * fs) + "\" y=\"" + n(-(y + height - t / 2) * fs) + "\" width=\"" + n((width - t) * fs)
                out += "\" height=\"" + n((height - t) * fs) + "\" fill=\"none\" stroke=\"" + color.hex + "\" stroke-width=\"" + n(t * fs) + "\""
                if dashed { out += " stroke-dasharray=\"" + n(3 * t * fs) + "\"" }
                out += "/>"
            }
        }
        out += "</g></svg>"
        return out
    }

    private func glyphID(_ g: GlyphRef) -> String {
        g.font == .math ? String(g.glyph) : "\(g.font.rawValue)-\(g.glyph)"
    }

    private func opacity(_ c: RGBAColor, _ attribute: String) -> String {
        c.alpha >= 1 ? "" : " " + attribute + "=\"" + n(c.alpha) + "\""
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

/// A number with at most four decimals (scale factors).
@inline(__always) func n4(_ v: Double) -> String {
    let scaled = (v * 10000).rounded()
    let i = Int(scaled)
    var s = i < 0 ? "-" : ""
    let a = abs(i)
    s += String(a / 10000)
    var frac = a % 10000
    if frac != 0 {
        var digits = 4
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        let f = String(frac)
        s += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return s
}

/// FNV-1a hash of a string (stable id prefixes).
func fnv1a(_ s: String) -> UInt32 {
    var h: UInt32 = 2_166_136_261
    for b in s.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
    return h
}
