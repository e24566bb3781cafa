/// One thing to paint, flattened from a box tree: absolute positions in em, y up from the baseline.
enum DrawItem {
    case glyph(GlyphRef, x: Double, y: Double, color: RGBAColor)
    case rect(x: Double, y: Double, width: Double, height: Double, color: RGBAColor)
    case line(x1: Double, y1: Double, x2: Double, y2: Double, thickness: Double, color: RGBAColor)
    case frame(x: Double, y: Double, width: Double, height: Double, thickness: Double, dashed: Bool, color: RGBAColor)
    case ellipse(x: Double, y: Double, width: Double, height: Double, thickness: Double, color: RGBAColor)
}

/// What receives a box tree's paint items one by one, in drawing order (a list for cairo, the SVG
/// writer directly).
protocol DrawSink: ~Copyable {
    mutating func draw(_ item: DrawItem)
}

extension Array: DrawSink where Element == DrawItem {
    mutating func draw(_ item: DrawItem) { append(item) }
}

extension Box {
    /// The box tree as a flat paint list, in drawing order (backgrounds first within their box).
    func drawList(color: RGBAColor) -> [DrawItem] {
        var out: [DrawItem] = []
        out.reserveCapacity(64)
        draw(into: &out, x: 0, y: 0, color: color)
        return out
    }

    /// Hands the box's paint items to `sink` in drawing order (backgrounds first within their box,
    /// nothing of a phantom), the box's reference point at (x, y).
    func draw<Sink: DrawSink & ~Copyable>(into sink: inout Sink, x: Double, y: Double, color: RGBAColor) {
        withUnsafePointer(to: self) { Box.draw($0, into: &sink, x: x, y: y, color: color) }
    }

    /// The walk itself, on boxes read in place (through pointers into their parents' child arrays), so
    /// no box is copied on the way.
    private static func draw<Sink: DrawSink & ~Copyable>(_ box: UnsafePointer<Box>, into sink: inout Sink, x: Double, y: Double,
                                                         color: RGBAColor) {
        var color = color
        let width = box.pointee.width, height = box.pointee.height, depth = box.pointee.depth
        let item: DrawItem?
        switch box.pointee.content {
        case .phantom: return
        case .glyph(let g): item = .glyph(g, x: x, y: y, color: color)
        case .rule: item = .rect(x: x, y: y - depth, width: width, height: height + depth, color: color)
        case let .line(x1, y1, x2, y2, t): item = .line(x1: x + x1, y1: y + y1, x2: x + x2, y2: y + y2, thickness: t, color: color)
        case let .frame(t, dashed): item = .frame(x: x, y: y - depth, width: width, height: height + depth, thickness: t, dashed: dashed, color: color)
        case let .ellipse(t): item = .ellipse(x: x, y: y - depth, width: width, height: height + depth, thickness: t, color: color)
        case .color(let c): color = c; item = nil
        case .background(let c): item = .rect(x: x, y: y - depth, width: width, height: height + depth, color: c)
        case .list: item = nil
        }
        if let item { sink.draw(item) }
        guard !box.pointee.children.isEmpty else { return }   // glyphs and rules: most of the boxes
        box.pointee.children.withUnsafeBufferPointer { placed in
            guard let first = placed.baseAddress else { return }
            for child in first..<first + placed.count {
                draw(child.pointer(to: \.box)!, into: &sink, x: x + child.pointee.x, y: y + child.pointee.y, color: color)
            }
        }
    }
}

/// A rectangle holding ink, em, y up (empty until something is added).
struct InkExtent: Equatable {
    private(set) var minX = Double.infinity, maxX = -Double.infinity
    private(set) var minY = Double.infinity, maxY = -Double.infinity

    /// Whether anything with ink was added.
    var isEmpty: Bool { minX > maxX }

    /// Adds the rectangle between two corners.
    @inline(__always) mutating func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        minX = min(minX, x0, x1); maxX = max(maxX, x0, x1)
        minY = min(minY, y0, y1); maxY = max(maxY, y0, y1)
    }

    /// Adds another extent moved by (x, y) (a child's, where the child is placed).
    @inline(__always) mutating func add(_ other: InkExtent, at x: Double, _ y: Double) {
        guard !other.isEmpty else { return }
        add(other.minX + x, other.minY + y, other.maxX + x, other.maxY + y)
    }
}
