import CHarfBuzz
import Foundation

/// One drawing command of a glyph outline, in font units, y up (as the font stores it).
public enum OutlineCommand: Hashable, Sendable {
    /// Start a contour at (x, y).
    case move(Float, Float)
    /// A straight segment to (x, y).
    case line(Float, Float)
    /// A cubic Bézier: two control points, then the end point. Quadratic curves (TrueType) are
    /// converted to cubic when read, because cairo draws only cubics.
    case cubic(Float, Float, Float, Float, Float, Float)
    /// Close the contour.
    case close
}

/// What the layout needs to know about one glyph, in em (font units ÷ units per em).
public struct GlyphMetrics: Sendable {
    /// The horizontal advance.
    public var advance: Double
    /// Ink height above the baseline (0 when the ink lies below).
    public var height: Double
    /// Ink depth below the baseline (0 when the ink lies above).
    public var depth: Double
    /// Ink left edge.
    public var inkLeft: Double
    /// Ink right edge.
    public var inkRight: Double
    /// The MATH italic correction (0 when the font gives none).
    public var italicCorrection: Double
    /// The MATH top accent attachment (HarfBuzz gives half the advance when the font has none).
    public var topAccentAttachment: Double
    /// Ink top, signed (y up).
    public var inkTop: Double = 0
    /// Ink bottom, signed (y up): positive when the ink lies wholly above the baseline.
    public var inkBottom: Double = 0
}

/// A font file opened with HarfBuzz: glyph look-up, metrics and outlines, each read once and cached.
///
/// Immutable from the outside and safe to share between threads: the HarfBuzz font is made
/// immutable after loading (HarfBuzz allows concurrent reads of an immutable font), and the caches
/// are ``LockedGlyphTable``s.
public final class FontFace: @unchecked Sendable {
    /// The file the font was read from.
    public let path: String
    /// Units per em of the font.
    public let unitsPerEm: Double
    /// The x-height the font declares (OS/2 `sxHeight`), in em; nil when it declares none. TeX's
    /// `\fontdimen5` of an OpenType font is this value (luaotfload).
    public let xHeight: Double?
    let face: OpaquePointer
    let font: OpaquePointer
    /// The character map, read once at load (immutable: no lock on the hot path).
    private let characterMap: CharacterMap
    /// Metrics of every glyph, read once at load (immutable: no lock on the hot path).
    private let metricsTable: [GlyphMetrics]
    private let outlineCache: LockedGlyphTable<[OutlineCommand]>
    private let svgPathCache: LockedGlyphTable<String>

    /// Opens a font file; nil when it cannot be read or is not a font.
    public init?(path: String) {
        // Only a regular file: HarfBuzz reads a FIFO or a device (/dev/zero) without end.
        guard CLibraries.harfBuzz.problem == nil, FontFile.problem(at: path) == nil, let blob = hb.hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb.hb_blob_destroy(blob) }
        guard hb.hb_face_count(blob) > 0, let face = hb.hb_face_create(blob, 0) else { return nil }
        let upem = hb.hb_face_get_upem(face)
        guard upem > 0, let font = hb.hb_font_create(face) else { hb.hb_face_destroy(face); return nil }
        hb.hb_ot_font_set_funcs(font)
        hb.hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb.hb_face_make_immutable(face)
        hb.hb_font_make_immutable(font)
        self.path = path
        self.face = face
        self.font = font
        self.unitsPerEm = Double(upem)
        var xh: hb_position_t = 0
        self.xHeight = hb.hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_X_HEIGHT, &xh) != 0 && xh > 0 ? Double(xh) / Double(upem) : nil
        // cmap: every character the font maps.
        var map: [UInt32: UInt32] = [:]
        if let set = hb.hb_set_create() {
            hb.hb_face_collect_unicodes(face, set)
            var cp: hb_codepoint_t = UInt32.max // HB_SET_VALUE_INVALID
            while hb.hb_set_next(set, &cp) != 0 {
                var g: hb_codepoint_t = 0
                if hb.hb_font_get_nominal_glyph(font, cp, &g) != 0, g != 0 { map[cp] = g }
            }
            hb.hb_set_destroy(set)
        }
        self.characterMap = CharacterMap(map)
        let count = Int(hb.hb_face_get_glyph_count(face))
        var table: [GlyphMetrics] = []
        table.reserveCapacity(count)
        let scale = Double(upem)
        for g in 0..<UInt32(count) {
            table.append(FontFace.readMetrics(font, g, unitsPerEm: scale))
        }
        self.metricsTable = table
        self.outlineCache = LockedGlyphTable(slotCount: count)
        self.svgPathCache = LockedGlyphTable(slotCount: count)
    }

    private static func readMetrics(_ font: OpaquePointer, _ glyph: UInt32, unitsPerEm: Double) -> GlyphMetrics {
        func em(_ v: Int32) -> Double { Double(v) / unitsPerEm }
        var extents = hb_glyph_extents_t()
        let hasExtents = hb.hb_font_get_glyph_extents(font, glyph, &extents) != 0
        let top = hasExtents ? em(extents.y_bearing) : 0
        let bottom = hasExtents ? em(extents.y_bearing + extents.height) : 0
        // HarfBuzz gives half the advance when the font has no top accent attachment: kept as the default.
        return GlyphMetrics(advance: em(hb.hb_font_get_glyph_h_advance(font, glyph)), height: max(0, top), depth: max(0, -bottom),
                            inkLeft: hasExtents ? em(extents.x_bearing) : 0,
                            inkRight: hasExtents ? em(extents.x_bearing + extents.width) : 0,
                            italicCorrection: em(hb.hb_ot_math_get_glyph_italics_correction(font, glyph)),
                            topAccentAttachment: em(hb.hb_ot_math_get_glyph_top_accent_attachment(font, glyph)),
                            inkTop: top, inkBottom: bottom)
    }

    deinit {
        hb.hb_font_destroy(font)
        hb.hb_face_destroy(face)
    }

    /// Converts font units to em.
    @inline(__always) func em(_ units: Int32) -> Double { Double(units) / unitsPerEm }

    /// The nominal glyph for a character (cmap), nil when the font has none.
    @inline(__always) public func glyph(for scalar: UInt32) -> UInt32? {
        characterMap.glyph(for: scalar)
    }

    /// Metrics of a glyph (read at load; glyph ids past the end give empty metrics).
    @inline(__always) public func metrics(_ glyph: UInt32) -> GlyphMetrics {
        Int(glyph) < metricsTable.count ? metricsTable[Int(glyph)]
            : GlyphMetrics(advance: 0, height: 0, depth: 0, inkLeft: 0, inkRight: 0, italicCorrection: 0, topAccentAttachment: 0)
    }

    /// The outline of a glyph in font units, y up (cached).
    public func outline(_ glyph: UInt32) -> [OutlineCommand] {
        outlineCache.value(Int(glyph)) {
            let sink = OutlineSink()
            let unmanaged = Unmanaged.passRetained(sink)
            hb.draw_glyph(font, glyph, OutlineSink.funcs, unmanaged.toOpaque())
            unmanaged.release()
            return sink.commands
        }
    }

    /// The outline as an SVG path `d` attribute in font units with y pointing down (cached).
    public func svgPath(_ glyph: UInt32) -> String {
        svgPathCache.value(Int(glyph)) {
            // Coordinates to 0.1 font unit, written by the SVG writer's number formatter.
            var d = SVGBytes(capacity: 256)
            func point(_ x: Float, _ y: Float) {
                d.number(Double(x), decimals: 1); d.append(0x20); d.number(Double(-y), decimals: 1)
            }
            for c in outline(glyph) {
                switch c {
                case let .move(x, y): d.append(0x4D); point(x, y)                                     // M
                case let .line(x, y): d.append(0x4C); point(x, y)                                     // L
                case let .cubic(a, b, c2, d2, x, y):
                    d.append(0x43); point(a, b); d.append(0x20); point(c2, d2); d.append(0x20); point(x, y)  // C
                case .close: d.append(0x5A)                                                          // Z
                }
            }
            return d.string()
        }
    }

    /// Shapes a run of text (kerning, ligatures, features such as `ssty=1`) into glyphs and advances in em.
    /// With `mathScript`, the run is shaped as script `Zmth`, where math fonts register `ssty`.
    public func shape(_ text: String, features: String? = nil, mathScript: Bool = false) -> [(glyph: UInt32, xOffset: Double, yOffset: Double, advance: Double)] {
        guard let buffer = hb.hb_buffer_create() else { return [] }
        defer { hb.hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { c in
                hb.hb_buffer_add_utf8(buffer, c.baseAddress, Int32(c.count), 0, Int32(c.count))
            }
        }
        hb.hb_buffer_guess_segment_properties(buffer)
        hb.hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        if mathScript { hb.hb_buffer_set_script(buffer, HB_SCRIPT_MATH) }
        var feature = hb_feature_t()
        if let features, hb.hb_feature_from_string(features, -1, &feature) != 0 {
            hb.hb_shape(font, buffer, &feature, 1)
        } else {
            hb.hb_shape(font, buffer, nil, 0)
        }
        var count: UInt32 = 0
        guard let infos = hb.hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb.hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        var out: [(glyph: UInt32, xOffset: Double, yOffset: Double, advance: Double)] = []
        out.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            out.append((infos[i].codepoint, em(positions[i].x_offset), em(positions[i].y_offset), em(positions[i].x_advance)))
        }
        return out
    }

}

/// A font's character map as a two-level table: for each block of 256 code points, the glyphs of
/// the block, or nothing when the font maps none of them (a look-up is two array reads, no hashing).
struct CharacterMap: Sendable {
    /// For each block of 256 code points, where its glyphs start in `glyphs`, or -1.
    private let blocks: [Int32]
    /// 256 glyph ids per block that has any (0: not mapped).
    private let glyphs: [UInt32]

    init(_ map: [UInt32: UInt32]) {
        var blocks = [Int32](repeating: -1, count: 0x110000 >> 8)
        var glyphs: [UInt32] = []
        for scalar in map.keys.sorted() where scalar < 0x110000 {
            let block = Int(scalar >> 8)
            if blocks[block] < 0 {
                blocks[block] = Int32(glyphs.count)
                glyphs.append(contentsOf: repeatElement(0, count: 256))
            }
            glyphs[Int(blocks[block]) + Int(scalar & 0xFF)] = map[scalar]!
        }
        self.blocks = blocks
        self.glyphs = glyphs
    }

    /// The nominal glyph of a character; nil when the font has none.
    @inline(__always) func glyph(for scalar: UInt32) -> UInt32? {
        guard scalar < 0x110000 else { return nil }
        let start = blocks[Int(scalar >> 8)]
        guard start >= 0 else { return nil }
        let glyph = glyphs[Int(start) + Int(scalar & 0xFF)]
        return glyph == 0 ? nil : glyph
    }
}

/// Collects HarfBuzz draw callbacks into ``OutlineCommand``s.
final class OutlineSink {
    var commands: [OutlineCommand] = []

    nonisolated(unsafe) static let funcs: OpaquePointer = {
        let f = hb.hb_draw_funcs_create()!
        hb.hb_draw_funcs_set_move_to_func(f, { _, data, _, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().commands.append(.move(x, y))
        }, nil, nil)
        hb.hb_draw_funcs_set_line_to_func(f, { _, data, _, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().commands.append(.line(x, y))
        }, nil, nil)
        hb.hb_draw_funcs_set_quadratic_to_func(f, { _, data, st, cx, cy, x, y, _ in
            // Quadratic → cubic: each control point is 2/3 of the way from an end point to the quadratic one.
            let x0 = st!.pointee.current_x, y0 = st!.pointee.current_y
            let c1x = x0 + 2 / 3 * (cx - x0), c1y = y0 + 2 / 3 * (cy - y0)
            let c2x = x + 2 / 3 * (cx - x), c2y = y + 2 / 3 * (cy - y)
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().commands.append(.cubic(c1x, c1y, c2x, c2y, x, y))
        }, nil, nil)
        hb.hb_draw_funcs_set_cubic_to_func(f, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().commands.append(.cubic(c1x, c1y, c2x, c2y, x, y))
        }, nil, nil)
        hb.hb_draw_funcs_set_close_path_func(f, { _, data, _, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().commands.append(.close)
        }, nil, nil)
        hb.hb_draw_funcs_make_immutable(f)
        return f
    }()
}
