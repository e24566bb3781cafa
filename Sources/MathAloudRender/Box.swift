import Foundation

/// A colour with alpha, components 0…1.
public struct RGBAColor: Hashable, Sendable {
    /// Components, 0…1.
    public var red: Double, green: Double, blue: Double, alpha: Double

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa`, `rrggbb` (as `\color[HTML]` writes it), `transparent` and
    /// the CSS/xcolor base names (`red`, `blue`, `darkgreen`…); nil when unknown.
    public init?(_ text: String) {
        var s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = RGBAColor.names[s] { s = named }
        if s == "transparent" || s == "none" { self.init(red: 0, green: 0, blue: 0, alpha: 0); return }
        if s.hasPrefix("#") { s.removeFirst() }
        guard s.allSatisfy(\.isHexDigit), [3, 6, 8].contains(s.count) else { return nil }
        if s.count == 3 { s = s.map { "\($0)\($0)" }.joined() }
        let v = UInt64(s, radix: 16) ?? 0
        if s.count == 8 {
            self.init(red: Double(v >> 24 & 255) / 255, green: Double(v >> 16 & 255) / 255,
                      blue: Double(v >> 8 & 255) / 255, alpha: Double(v & 255) / 255)
        } else {
            self.init(red: Double(v >> 16 & 255) / 255, green: Double(v >> 8 & 255) / 255, blue: Double(v & 255) / 255)
        }
    }

    /// `#rrggbb` (alpha not included).
    public var hex: String {
        var bytes: [UInt8] = [0x23]
        for channel in [red, green, blue] {
            let (high, low) = RGBAColor.hexDigits(channel)
            bytes.append(high)
            bytes.append(low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The two lowercase hex digits (ASCII) of a channel clamped to 0…1 and rounded to 0…255: the
    /// digits of ``hex`` and of the SVG writer's colours.
    @inline(__always) static func hexDigits(_ channel: Double) -> (UInt8, UInt8) {
        let v = Int((Swift.max(0, Swift.min(1, channel)) * 255).rounded())
        @inline(__always) func digit(_ d: Int) -> UInt8 { UInt8(truncatingIfNeeded: d < 10 ? 0x30 + d : 0x57 + d) }
        return (digit(v >> 4), digit(v & 15))
    }

    private static let names: [String: String] = [
        "black": "000000", "white": "ffffff", "red": "ff0000", "green": "00ff00", "blue": "0000ff",
        "cyan": "00ffff", "magenta": "ff00ff", "yellow": "ffff00", "gray": "808080", "grey": "808080",
        "lightgray": "bfbfbf", "darkgray": "404040", "orange": "ff8000", "purple": "bf0040", "violet": "800080",
        "brown": "bf8040", "olive": "808000", "teal": "008080", "lime": "bfff00", "pink": "ffbfbf",
        "darkgreen": "006400", "darkblue": "00008b", "darkred": "8b0000", "navy": "000080", "maroon": "800000",
        "gold": "ffd700", "silver": "c0c0c0", "aqua": "00ffff", "fuchsia": "ff00ff", "indigo": "4b0082",
    ]
}

/// Which font a glyph comes from: the math font, or one of the text fonts used for `\text`.
public enum FontRole: UInt8, Hashable, Sendable, CaseIterable {
    case math, text, textBold, textItalic, textBoldItalic
    /// Optical sizes of the text font for scripts (Latin Modern Roman 7 pt and 5 pt), as LaTeX uses.
    case textScript, textScriptBold, textScriptItalic, textScriptScript, textScriptScriptBold
    /// Sans-serif (`\textsf`), monospace (`\texttt`) and small capitals (`\textsc`), with the sans-serif and
    /// monospace optical sizes LaTeX uses for scripts (Latin Modern Sans and Mono 8 pt).
    case textSans, textSansBold, textSansItalic, textSansBoldItalic, textMono, textSmallCaps, textScriptSans, textScriptMono
    /// A font of wide coverage (DejaVu Serif) for characters neither the text nor the math font has
    /// (Cyrillic, Greek in `\text{…}` with Latin Modern).
    case textFallback
}

/// A glyph to draw: font, glyph id, size in em of the base size, and the character it shows (0 for
/// parts of an assembly) for dumps.
public struct GlyphRef: Hashable, Sendable {
    /// The font the glyph comes from.
    public var font: FontRole
    /// The glyph id in that font.
    public var glyph: UInt32
    /// The size in em of the base size (0.7 in scripts, 0.5 in scriptscripts, times size commands).
    public var size: Double
    /// The character shown (0 for assembly parts and shaped text), for dumps.
    public var character: UInt32
}

/// A horizontal list being built (``Box/hlist(_:_:kerns:)``): boxes one after the other on a shared
/// baseline, each shifted up by `shift` and preceded by an optional kern; its height and depth are
/// the largest of its boxes'.
struct HListBuilder {
    private var children: [Box.Placed] = []
    private var metrics = Metrics()

    /// Where the boxes of a list go and how large it gets, box by box.
    struct Metrics {
        /// The list's width so far.
        private(set) var x = 0.0
        private(set) var height = 0.0, depth = 0.0

        /// Places a box of these dimensions after the kern; returns its x.
        mutating func place(width: Double, height h: Double, depth d: Double, shift: Double = 0, kern: Double? = nil) -> Double {
            if let kern { x += kern }
            let at = x
            x += width
            height = max(height, h + shift)
            depth = max(depth, d - shift)
            return at
        }

        /// A container box of these dimensions named `name`.
        func box(_ name: String, children: [Box.Placed]) -> Box {
            Box(width: x, height: height, depth: depth, content: .list(name), children: children)
        }
    }

    init(capacity: Int) { children.reserveCapacity(capacity) }

    mutating func append(_ box: Box, shift: Double = 0, kern: Double? = nil) {
        let at = metrics.place(width: box.width, height: box.height, depth: box.depth, shift: shift, kern: kern)
        children.append(Box.Placed(x: at, y: shift, box: box))
    }

    /// The list as a container box named `name`.
    consuming func box(_ name: String) -> Box {
        metrics.box(name, children: children)
    }
}

/// A node of the box tree (TeX's boxes, glue already fixed): every box has a width, a height above
/// and a depth below its baseline, in em of the base font size, and children placed relative to its
/// reference point (left end of the baseline), y upwards.
public struct Box: Sendable {
    /// Horizontal extent.
    public var width: Double
    /// Extent above the baseline.
    public var height: Double
    /// Extent below the baseline.
    public var depth: Double
    /// What the box draws itself (children are drawn on top).
    public var content: Content
    /// Children and where their reference points sit (x right, y up).
    public var children: [Placed]
    /// The ink of the box's glyph outline or line stroke and of its children as they are placed, em,
    /// relative to the reference point: gathered as the box is made, from its children's ``ink``, so the
    /// image's margins need no walk over the finished tree. (What covers the box itself, a rule, frame,
    /// ellipse or background, follows the box's size, which may still change: ``ink`` adds it.) The
    /// layout never changes a box's children or content once it is made.
    private(set) var placedInk: InkExtent

    /// What a box draws.
    public enum Content: Sendable {
        /// Nothing: a container, named for dumps (`row`, `frac`, `sqrt`, `scripts`…).
        case list(String)
        /// One glyph at the reference point.
        case glyph(GlyphRef)
        /// A filled rectangle covering the box.
        case rule
        /// A stroked line from (x1, y1) to (x2, y2), relative to the reference point.
        case line(x1: Double, y1: Double, x2: Double, y2: Double, thickness: Double)
        /// A stroked rectangle around the box (inset by half the thickness), optionally dashed.
        case frame(thickness: Double, dashed: Bool)
        /// A stroked ellipse inscribed in the box (`menclose` `circle`).
        case ellipse(thickness: Double)
        /// Children drawn in this colour.
        case color(RGBAColor)
        /// A filled background behind the children.
        case background(RGBAColor)
        /// Children laid out but not drawn (`\phantom`).
        case phantom
    }

    /// A child box and its position.
    public struct Placed: Sendable {
        /// Offset of the child's reference point to the right, em.
        public var x: Double
        /// Offset of the child's baseline upwards, em.
        public var y: Double
        /// The child.
        public var box: Box
        /// Creates a placement.
        public init(x: Double, y: Double, box: Box) { self.x = x; self.y = y; self.box = box }
    }

    /// Creates a box.
    public init(width: Double, height: Double, depth: Double, content: Content = .list("box"), children: [Placed] = []) {
        self.width = width; self.height = height; self.depth = depth; self.content = content; self.children = children
        var ink = InkExtent()
        switch content {
        case .phantom:
            // Nothing of a phantom is drawn.
            placedInk = ink
            return
        case .glyph:
            // No font at hand: the glyph's box stands for its outline (the layout passes the outline's
            // extent, ``init(width:height:depth:glyph:metrics:)``).
            ink.add(0, -depth, width, height)
        case let .line(x1, y1, x2, y2, t):
            // A stroke reaches half its thickness past its ends and sides (at most, whatever its direction).
            ink.add(min(x1, x2) - t / 2, min(y1, y2) - t / 2, max(x1, x2) + t / 2, max(y1, y2) + t / 2)
        case .list, .rule, .frame, .ellipse, .color, .background:
            break
        }
        for child in children { ink.add(child.box.ink, at: child.x, child.y) }
        placedInk = ink
    }

    /// A glyph's box, its ink the glyph's outline (`metrics`: the glyph's at size 1; a glyph without
    /// ink, a space or a blank .notdef, has none).
    init(width: Double, height: Double, depth: Double, glyph: GlyphRef, metrics m: GlyphMetrics) {
        self.width = width; self.height = height; self.depth = depth; self.content = .glyph(glyph); self.children = []
        var ink = InkExtent()
        if m.inkRight > m.inkLeft || m.inkTop > m.inkBottom {
            ink.add(m.inkLeft * glyph.size, m.inkBottom * glyph.size, m.inkRight * glyph.size, m.inkTop * glyph.size)
        }
        placedInk = ink
    }

    /// The extent of what the box and its children draw, em, relative to the reference point: glyph
    /// outlines (their bounding boxes), rules, strokes with their thickness, frames, ellipses and
    /// backgrounds. It may reach past the box (an italic letter's overhang, an accent, a raised or
    /// smashed box, a negative kern); the image is made large enough to hold it (``RenderedFormula/margins``).
    var ink: InkExtent {
        switch content {
        case .rule, .frame, .ellipse, .background:
            var ink = placedInk
            ink.add(0, -depth, width, -depth + (height + depth))
            return ink
        case .list, .glyph, .line, .color, .phantom:
            return placedInk
        }
    }

    /// An empty box of a given size (kerns, struts, spaces).
    public static func empty(width: Double = 0, height: Double = 0, depth: Double = 0) -> Box {
        Box(width: width, height: height, depth: depth, content: .list("space"))
    }

    /// A horizontal list of boxes, each after the other on a shared baseline (with vertical shifts).
    static func hlist(_ name: String, _ items: [(box: Box, shift: Double)], kerns: [Double]? = nil) -> Box {
        var list = HListBuilder(capacity: items.count)
        for (i, item) in items.enumerated() {
            list.append(item.box, shift: item.shift, kern: kerns.flatMap { i < $0.count ? $0[i] : nil })
        }
        return list.box(name)
    }

    /// The box with extra width on the right.
    func padded(right: Double) -> Box {
        var b = self
        b.width += right
        return b
    }

    /// The box wrapped in a container with the same metrics.
    func wrapped(_ content: Content) -> Box {
        Box(width: width, height: height, depth: depth, content: content, children: [Placed(x: 0, y: 0, box: self)])
    }

    /// An indented, one-box-per-line dump with metrics to three decimals, stable for golden tests.
    public func dump() -> String {
        var out = ""
        dump(into: &out, depth: 0, x: 0, y: 0)
        return out
    }

    private func dump(into out: inout String, depth level: Int, x: Double, y: Double) {
        out += String(repeating: "  ", count: level)
        switch content {
        case .list(let name): out += name
        case .glyph(let g):
            out += "glyph"
            if g.character != 0, let u = Unicode.Scalar(g.character) {
                out += " '" + (u.properties.generalCategory == .control ? "?" : String(Character(u))) + "'"
            }
            out += " #\(g.glyph)"
            if g.font != .math { out += " \(g.font)" }
            if g.size != 1 { out += " size=\(f(g.size))" }
        case .rule: out += "rule"
        case let .line(x1, y1, x2, y2, t): out += "line (\(f(x1)),\(f(y1)))-(\(f(x2)),\(f(y2))) t=\(f(t))"
        case let .frame(t, dashed): out += "frame t=\(f(t))" + (dashed ? " dashed" : "")
        case let .ellipse(t): out += "ellipse t=\(f(t))"
        case .color(let c): out += "color \(c.hex)"
        case .background(let c): out += "background \(c.hex)"
        case .phantom: out += "phantom"
        }
        out += " w=\(f(width)) h=\(f(height)) d=\(f(depth))"
        if x != 0 || y != 0 { out += " at (\(f(x)),\(f(y)))" }
        out += "\n"
        for c in children { c.box.dump(into: &out, depth: level + 1, x: c.x, y: c.y) }
    }

    private func f(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return String(format: "%.3f", r == 0 ? 0 : r)
    }
}
