/// One thing to paint, flattened from a box tree: absolute positions in em, y up from the baseline.
enum DrawItem {
    case glyph(GlyphRef, x: Double, y: Double, color: RGBAColor)
    case rect(x: Double, y: Double, width: Double, height: Double, color: RGBAColor)
    case line(x1: Double, y1: Double, x2: Double, y2: Double, thickness: Double, color: RGBAColor)
    case frame(x: Double, y: Double, width: Double, height: Double, thickness: Double, dashed: Bool, color: RGBAColor)
    case ellipse(x: Double, y: Double, width: Double, height: Double, thickness: Double, color: RGBAColor)
}

extension Box {
    /// The box tree as a flat paint list, in drawing order (backgrounds first within their box).
    func drawList(color: RGBAColor) -> [DrawItem] {
        var out: [DrawItem] = []
        out.reserveCapacity(64)
        collect(into: &out, x: 0, y: 0, color: color)
        return out
    }

    private func collect(into out: inout [DrawItem], x: Double, y: Double, color: RGBAColor) {
        var color = color
        switch content {
        case .phantom: return
        case .glyph(let g): out.append(.glyph(g, x: x, y: y, color: color))
        case .rule: out.append(.rect(x: x, y: y - depth, width: width, height: height + depth, color: color))
        case let .line(x1, y1, x2, y2, t): out.append(.line(x1: x + x1, y1: y + y1, x2: x + x2, y2: y + y2, thickness: t, color: color))
        case let .frame(t, dashed): out.append(.frame(x: x, y: y - depth, width: width, height: height + depth, thickness: t, dashed: dashed, color: color))
        case let .ellipse(t): out.append(.ellipse(x: x, y: y - depth, width: width, height: height + depth, thickness: t, color: color))
        case .color(let c): color = c
        case .background(let c): out.append(.rect(x: x, y: y - depth, width: width, height: height + depth, color: c))
        case .list: break
        }
        for child in children { child.box.collect(into: &out, x: x + child.x, y: y + child.y, color: color) }
    }
}
