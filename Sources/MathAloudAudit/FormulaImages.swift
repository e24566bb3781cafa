import Foundation

/// Which images show formulas, and their TeX when the page says it. An image is a formula when it
/// carries its TeX (`data-tex`, `data-latex`, `data-equation`), when its class or its `src` names math
/// (`class="math"`, `mwe-math-fallback-image`, `eq12.png`, `/math/`, `latex`), when it comes from a
/// TeX-rendering service (the TeX in its URL), or when its alt is TeX or MathML source.
public enum FormulaImages {
    /// Attribute names that hold an image's TeX.
    static let texAttributes = ["data-tex", "data-latex", "data-equation", "data-math", "data-formula"]
    /// Words in a class or a path that say an image is a formula.
    static let mathWords = ["math", "latex", "equation", "formula", "katex", "mathjax", "tex"]
    /// Services that render TeX from their URL: the host part, and the query key holding the TeX (nil:
    /// the whole query).
    static let services: [(host: String, key: String?)] = [
        ("latex.codecogs.com", nil), ("chart.googleapis.com", "chl"), ("mimetex", nil), ("mathtex", nil),
        ("quicklatex.com", nil), ("latex.artofproblemsolving.com", nil), ("i.upmath.me", nil), ("render.githubusercontent.com/render/math", "math"),
        ("wikimedia.org/api/rest_v1/media/math", nil),
    ]

    /// Whether an image shows a formula.
    public static func isFormula(src: String, alt: String?, attributes: [String: String]) -> Bool {
        if texAttributes.contains(where: { attributes[$0] != nil }) { return true }
        let classes = (attributes["class"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" })
        if classes.contains(where: { c in mathWords.contains(where: { c == $0 || c.hasPrefix($0) && c.count <= $0.count + 2 }) }) { return true }
        let lower = src.lowercased()
        if services.contains(where: { lower.contains($0.host) }) { return true }
        // A file or directory named for math: eq12.png, equation-3.svg, img/math/…, latex/….
        let path = lower.split(separator: "?").first.map(String.init) ?? lower
        for part in path.split(separator: "/") {
            let stem = part.split(separator: ".").first.map(String.init) ?? String(part)
            let letters = String(stem.prefix { $0.isLetter })
            let rest = stem.dropFirst(letters.count)
            if ["eq", "eqn", "equation", "math", "formula", "latex", "tex", "mathml"].contains(letters),
               rest.isEmpty || rest.first == "-" || rest.first == "_" || rest.first!.isNumber { return true }
        }
        if let alt {
            let kind = LabelText.classify(alt)
            if kind == .tex || kind == .mathML { return true }
        }
        return false
    }

    /// The TeX an image shows, when the page says it.
    public static func tex(src: String, alt: String?, attributes: [String: String]) -> String? {
        for name in texAttributes { if let tex = attributes[name], !tex.isEmpty { return tex } }
        let lower = src.lowercased()
        for service in services where lower.contains(service.host) && !service.host.contains("wikimedia") {
            guard let q = src.firstIndex(of: "?") else { continue }
            let query = String(src[src.index(after: q)...])
            if let key = service.key {
                for pair in query.split(separator: "&") where pair.hasPrefix(key + "=") {
                    return String(pair.dropFirst(key.count + 1)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                }
            } else {
                var tex = query.removingPercentEncoding ?? query
                // codecogs's editor writes a space as `&space;` and a plus as `&plus;` in its URLs
                // (`svg.latex?a&space;&plus;&space;ib`): they were read as TeX, "a s p a c e semicolon…".
                if service.host == "latex.codecogs.com" {
                    tex = tex.replacingOccurrences(of: "&space;", with: " ").replacingOccurrences(of: "&plus;", with: "+")
                }
                // codecogs puts rendering options first: \dpi{110}, \bg_white, \inline.
                for prefix in ["\\inline", "\\dpi{", "\\bg_white", "\\bg{white}", "\\large", "\\fn_cm"] {
                    while tex.hasPrefix(prefix) {
                        if prefix.hasSuffix("{"), let close = tex.firstIndex(of: "}") { tex = String(tex[tex.index(after: close)...]) } else { tex.removeFirst(prefix.count) }
                        tex = tex.trimmingCharacters(in: .whitespaces)
                    }
                }
                return tex.isEmpty ? nil : tex
            }
        }
        if let alt, LabelText.classify(alt) == .tex {
            var tex = alt.trimmingCharacters(in: .whitespacesAndNewlines)
            for (open, close) in [("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")] where tex.hasPrefix(open) && tex.hasSuffix(close) && tex.count > open.count + close.count {
                tex = String(tex.dropFirst(open.count).dropLast(close.count))
                break
            }
            return tex
        }
        return nil
    }
}
