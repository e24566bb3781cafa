import Foundation
import MathAloud

extension Renderer {
    /// The formula as a standalone SVG document.
    ///
    /// Accessibility: the root has `role="img"`, `aria-labelledby` pointing at a `<title>` holding the
    /// label (speech through the label template) and `aria-describedby` pointing at a `<desc>` holding
    /// the TeX source. Glyphs are paths defined once in `<defs>` and placed with `<use>`. The
    /// `style="vertical-align:…"` puts the image's baseline on the surrounding text's baseline when it
    /// is used inline; `data-baseline`, `data-depth` and `data-height` carry the metrics in px.
    /// The root carries the label's language (``RenderedFormula/language``) as `lang` and `xml:lang`
    /// (SVG 2 takes either on any element; HTML reads `lang` of inline SVG), so the `<title>` is in it.
    ///
    /// Element ids (the title, the description, the glyph outlines) start with a prefix, so several SVGs
    /// can share an HTML page: by default `ma` and a hash of everything the ids point at — the source,
    /// the label, its language and the font — so images of one formula in two locales or two fonts get
    /// different ids, and two images with the same prefix define the same elements. A page that shows the
    /// very same image twice and wants no id repeated passes its own prefix for each.
    /// - Parameter idPrefix: prefix for element ids; characters other than ASCII letters, digits, `-`,
    ///   `_` and `.` are written as `_`; default derived from the source, label, language and font.
    public func svg(_ formula: RenderedFormula, idPrefix: String? = nil) -> String {
        svgAndBound(formula, idPrefix: idPrefix).svg
    }

    /// ``svg(_:idPrefix:)`` with the bytes the writer sized the string's storage for and whether it
    /// had to move to memory of its own because the drawing outgrew them (tests check the bound).
    @inline(__always)
    func svgAndBound(_ formula: RenderedFormula, idPrefix: String? = nil) -> (svg: String, bound: Int, spilled: Bool) {
        let idPrefix = idPrefix.map(Renderer.idSafe)
        let hash = idPrefix == nil ? idHash(formula) : 0
        let prefixLength = idPrefix?.utf8.count ?? 2 + SVGBytes.base36Count(hash)
        // A first look at the tree: the glyphs drawn (each once, in the order they are first drawn:
        // their outlines go in <defs>) and how long the drawing can get.
        var scan = SVGScan(prefixLength: prefixLength, color: options.color, fonts: fonts)
        formula.box.draw(into: &scan, x: 0, y: 0, color: options.color)
        // Element content: `&`, `<`, `>` escaped, characters XML forbids replaced; tab, line feed and
        // carriage return stay as they are. Nearly always the string itself comes back.
        let label = XMLEscaping.text(formula.label)
        let source = XMLEscaping.text(formula.source)
        // Written straight into the string's storage, sized for the longest this SVG can be (numbers at
        // their longest); should the guess be short, the writer moves to memory of its own.
        let bound = SVGBytes.headerBound + 4 * prefixLength + label.utf8.count + source.utf8.count + scan.bound
            + (formula.language.map { 2 * $0.utf8.count + 22 } ?? 0)
        var spilled: String? = nil
        let text = String(unsafeUninitializedCapacity: bound) { buffer in
            var out = SVGBytes(lending: buffer)
            write(formula, label: label, source: source, idPrefix: idPrefix, hash: hash, glyphs: scan.glyphs, into: &out)
            if out.isLent { return out.count }
            spilled = out.string()
            return 0
        }
        return (spilled ?? text, bound, spilled != nil)
    }

    /// The default id prefix's hash: FNV-1a over what the ids point at (source, label, language, font),
    /// each followed by a 0 byte.
    private func idHash(_ formula: RenderedFormula) -> UInt32 {
        var h = fnv1a(formula.source, seed: 2_166_136_261)
        h = fnv1a(formula.label, seed: h)
        h = fnv1a(formula.language ?? "", seed: h)
        return fnv1a(options.font, seed: h)
    }

    /// Whether a caller's id prefix is 1–64 ASCII letters, digits, `-`, `_` or `.` (what the CLI and the
    /// service accept; ``svg(_:idPrefix:)`` itself writes other characters as `_`).
    public static func isValidIDPrefix(_ prefix: String) -> Bool {
        (1...64).contains(prefix.utf8.count) && idSafe(prefix) == prefix
    }

    /// A caller's id prefix with every character other than ASCII letters, digits, `-`, `_` and `.`
    /// written as `_` (it goes into attributes and `href` fragments as it is).
    static func idSafe(_ prefix: String) -> String {
        let ok = { (b: UInt8) -> Bool in (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || (0x30...0x39).contains(b) || b == 0x2D || b == 0x5F || b == 0x2E }
        if prefix.utf8.allSatisfy(ok) { return prefix }
        var out = ""
        for u in prefix.unicodeScalars { out.unicodeScalars.append(u.isASCII && ok(UInt8(u.value)) ? u : "_") }
        return out
    }

    private func write(_ formula: RenderedFormula, label: String, source: String, idPrefix: String?, hash: UInt32,
                       glyphs: [SVGScan.Glyph], into out: inout SVGBytes) {
        let fs = formula.fontSize
        let margins = formula.margins
        let box = formula.box
        let w = formula.width, h = formula.height
        let top = (box.height + margins.top) * fs
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        // Numbers written twice are formatted once and copied.
        let width = out.written { $0.number(w) }
        out += "\" height=\""
        let height = out.written { $0.number(h) }
        out += "\" viewBox=\"0 0 "; out.repeatBytes(width); out += " "; out.repeatBytes(height)
        out += "\" role=\"img\" aria-labelledby=\""
        // The id prefix and its hyphen are written once here; every later id copies these bytes.
        let prefixStart = out.count
        if let idPrefix { out.append(idPrefix) } else { out += "ma"; out.base36(hash) }
        out += "-"
        let prefix = prefixStart..<out.count
        out += "title\" aria-describedby=\""; out.repeatBytes(prefix); out += "desc\""
        out += " style=\"vertical-align:-"
        let depth = out.written { $0.number(formula.baselineFromBottom) }
        out += "px\" data-baseline=\""
        let baseline = out.written { $0.number(top) }
        out += "\" data-depth=\""; out.repeatBytes(depth)
        out += "\" data-height=\""; out.repeatBytes(baseline); out += "\""
        if let language = formula.language {
            out += " lang=\""; out.append(language); out += "\" xml:lang=\""; out.append(language); out += "\""
        }
        out += ">"
        out += "<title id=\""; out.repeatBytes(prefix); out += "title\">"; out.append(label); out += "</title>"
        out += "<desc id=\""; out.repeatBytes(prefix); out += "desc\">"; out.append(source); out += "</desc>"
        if let bg = options.background {
            out += "<rect width=\"100%\" height=\"100%\" fill=\""; out.color(bg); out += "\""; out.opacity(bg); out += "/>"
        }
        // Glyph outlines once each in <defs>, placed with <use>.
        if !glyphs.isEmpty {
            out += "<defs>"
            for g in glyphs {
                out += "<path id=\""; out.repeatBytes(prefix); out.glyphID(g.ref); out += "\" d=\""
                out.append(g.path); out += "\"/>"
            }
            out += "</defs>"
        }
        out += "<g fill=\""; out.color(options.color); out += "\""; out.opacity(options.color)
        out += " transform=\"translate("; out.number(margins.left * fs); out += " "; out.repeatBytes(baseline); out += ")\">"
        var painter = SVGPainter(out: out, fontSize: fs, mathScale: fs / fonts.math.face.unitsPerEm, color: options.color,
                                 prefix: prefix, fonts: fonts)
        box.draw(into: &painter, x: 0, y: 0, color: options.color)
        out = painter.take()
        out += "</g></svg>"
    }
}

/// The SVG writer's first look at a box tree: the glyphs it draws, each once, in the order they are
/// first drawn, with their outlines, and the most bytes its paint items can take as SVG elements.
struct SVGScan: DrawSink {
    /// A glyph to define in `<defs>`.
    struct Glyph {
        var ref: GlyphRef
        /// The outline as a path.
        var path: String
    }

    /// Each glyph (font and glyph id) once, in first-drawn order.
    private(set) var glyphs: [Glyph] = []
    /// The most bytes the `<defs>` entries and the paint items take.
    private(set) var bound = 0
    private let prefixLength: Int
    private let color: RGBAColor
    private let fonts: FontSet
    /// Open-addressed set of the glyphs' keys (key + 1; 0 marks an empty slot).
    private var slots = [UInt64](repeating: 0, count: 64)

    init(prefixLength: Int, color: RGBAColor, fonts: FontSet) {
        self.prefixLength = prefixLength
        self.color = color
        self.fonts = fonts
        glyphs.reserveCapacity(16)
    }

    // The longest elements (SVGPainter's): a number takes at most 14 bytes with 2 decimals and 18 with 6,
    // a glyph id 12, a fill colour other than the formula's 45 with its opacity; a dashed frame is the
    // longest of the other elements (219).
    private static let useBound = 112, fillBound = 45, otherBound = 224
    private static let pathBound = 32

    mutating func draw(_ item: DrawItem) {
        guard case let .glyph(g, _, _, itemColor) = item else { bound += SVGScan.otherBound; return }
        bound += SVGScan.useBound + prefixLength + (itemColor != color ? SVGScan.fillBound : 0)
        let key = (UInt64(g.font.rawValue) << 32 | UInt64(g.glyph)) &+ 1
        let mask = slots.count - 1
        var i = SVGScan.slot(key, mask)
        while slots[i] != 0 {
            if slots[i] == key { return }
            i = (i + 1) & mask
        }
        slots[i] = key
        let path = fonts.face(g.font).svgPath(g.glyph)
        bound += SVGScan.pathBound + prefixLength + path.utf8.count
        glyphs.append(Glyph(ref: g, path: path))
        if glyphs.count * 2 > slots.count { rehash() }
    }

    @inline(__always) private static func slot(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    private mutating func rehash() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for key in old where key != 0 {
            var i = SVGScan.slot(key, mask)
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = key
        }
    }
}

/// Writes a box tree's paint items as SVG elements (inside the `<g>` that sets the default fill and
/// moves the origin to the formula's top left).
struct SVGPainter: DrawSink, ~Copyable {
    private var out: SVGBytes
    /// Pixels per em.
    private let fs: Double
    /// Math-font units to pixels.
    private let mathScale: Double
    /// The formula's colour (set on the enclosing `<g>`; other colours are written per element).
    private let color: RGBAColor
    /// Where the id prefix and its hyphen sit in `out`.
    private let prefix: Range<Int>
    private let fonts: FontSet
    /// The text font last drawn from and its units to pixels (a text face is looked up under a lock).
    private var textRole: FontRole = .math
    private var textScale = 0.0
    /// The glyph scale last written and where (glyphs of one size share it).
    private var lastScale = Double.nan
    private var lastScaleBytes = 0..<0

    init(out: consuming SVGBytes, fontSize: Double, mathScale: Double, color: RGBAColor, prefix: Range<Int>, fonts: FontSet) {
        self.out = out
        self.fs = fontSize
        self.mathScale = mathScale
        self.color = color
        self.prefix = prefix
        self.fonts = fonts
    }

    /// The bytes written, handed back.
    consuming func take() -> SVGBytes { out }

    mutating func draw(_ item: DrawItem) {
        switch item {
        case let .glyph(g, x, y, color):
            let scale: Double
            if g.font == .math {
                scale = mathScale
            } else {
                if g.font != textRole { textRole = g.font; textScale = fs / fonts.face(g.font).unitsPerEm }
                scale = textScale
            }
            out += "<use href=\"#"; out.repeatBytes(prefix); out.glyphID(g); out += "\" transform=\"translate("
            out.number(x * fs); out.append(0x20); out.number(-y * fs); out += ") scale("
            let size = g.size * scale
            if size == lastScale {
                out.repeatBytes(lastScaleBytes)
            } else {
                let start = out.count
                out.number(size, decimals: 6)
                lastScale = size
                lastScaleBytes = start..<out.count
            }
            if color != self.color {
                out += ")\" fill=\""; out.color(color); out.append(0x22); out.opacity(color); out += "/>"
            } else {
                out += ")\"/>"
            }
        case let .rect(x, y, width, height, color):
            out += "<rect x=\""; out.number(x * fs); out += "\" y=\""; out.number(-(y + height) * fs); out += "\" width=\""
            out.number(width * fs); out += "\" height=\""; out.number(height * fs); out.append(0x22)
            if color != self.color { out += " fill=\""; out.color(color); out.append(0x22); out.opacity(color) }
            out += "/>"
        case let .line(x1, y1, x2, y2, t, color):
            out += "<line x1=\""; out.number(x1 * fs); out += "\" y1=\""; out.number(-y1 * fs); out += "\" x2=\""; out.number(x2 * fs)
            out += "\" y2=\""; out.number(-y2 * fs); out += "\" stroke=\""; out.color(color); out += "\" stroke-width=\""; out.number(t * fs); out += "\"/>"
        case let .frame(x, y, width, height, t, dashed, color):
            out += "<rect x=\""; out.number((x + t / 2) * fs); out += "\" y=\""; out.number(-(y + height - t / 2) * fs)
            out += "\" width=\""; out.number((width - t) * fs); out += "\" height=\""; out.number((height - t) * fs)
            out += "\" fill=\"none\" stroke=\""; out.color(color); out += "\" stroke-width=\""; out.number(t * fs); out.append(0x22)
            if dashed { out += " stroke-dasharray=\""; out.number(3 * t * fs); out.append(0x22) }
            out += "/>"
        case let .ellipse(x, y, width, height, t, color):
            out += "<ellipse cx=\""; out.number((x + width / 2) * fs); out += "\" cy=\""; out.number(-(y + height / 2) * fs)
            out += "\" rx=\""; out.number((width - t) / 2 * fs); out += "\" ry=\""; out.number((height - t) / 2 * fs)
            out += "\" fill=\"none\" stroke=\""; out.color(color); out += "\" stroke-width=\""; out.number(t * fs); out += "\"/>"
        }
    }
}

/// A UTF-8 byte buffer for writing SVG quickly (no intermediate strings for numbers).
///
/// It writes into memory lent by the caller (the storage of the string being made) or into memory
/// of its own from malloc, growing with realloc; when lent memory runs out it moves to memory of its
/// own. (Swift's allocation of pointers takes the slower aligned path of the C library.)
struct SVGBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0
    /// Whether `base` is lent (not ours to free or grow).
    private(set) var isLent: Bool

    /// An empty buffer of its own.
    init(capacity: Int = 8192) {
        self.capacity = Swift.max(16, capacity)
        guard let memory = malloc(self.capacity) else { fatalError("SVGBytes: out of memory") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        isLent = false
    }

    /// An empty buffer writing into `memory` until it is full.
    init(lending memory: UnsafeMutableBufferPointer<UInt8>) {
        if let start = memory.baseAddress, memory.count > 0 {
            base = start
            capacity = memory.count
            isLent = true
        } else {
            capacity = 16
            guard let own = malloc(capacity) else { fatalError("SVGBytes: out of memory") }
            base = own.assumingMemoryBound(to: UInt8.self)
            isLent = false
        }
    }

    deinit { if !isLent { free(base) } }

    @inline(__always) private mutating func ensure(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        if isLent {
            guard let memory = malloc(newCapacity) else { fatalError("SVGBytes: out of memory") }
            let own = memory.assumingMemoryBound(to: UInt8.self)
            own.initialize(from: base, count: count)
            base = own
            isLent = false
        } else {
            guard let memory = realloc(base, newCapacity) else { fatalError("SVGBytes: out of memory") }
            base = memory.assumingMemoryBound(to: UInt8.self)
        }
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        ensure(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        ensure(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a literal: its bytes are copied as they are, with no string machinery.
    @inline(__always) static func += (out: inout SVGBytes, s: StaticString) {
        s.withUTF8Buffer { out.append($0) }
    }

    /// Appends a string's UTF-8: read in place (a native string's bytes are contiguous), where a
    /// mutable copy for `withUTF8` retained and released each string appended (about fourteen a
    /// formula: the glyph outlines, the label, the source; MathAloudBench render-svg-profile, callgrind).
    mutating func append(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ append($0) }) != nil { return }
        var s = s
        s.withUTF8 { append($0) }
    }

    /// Where `write` puts what it writes.
    @inline(__always) mutating func written(_ write: (inout SVGBytes) -> Void) -> Range<Int> {
        let start = count
        write(&self)
        return start..<count
    }

    /// Appends again the bytes already written at `range` (an id prefix, a number used twice).
    @inline(__always) mutating func repeatBytes(_ range: Range<Int>) {
        ensure(range.count)
        (base + count).initialize(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// The text written.
    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// The most bytes the SVG writer's own header and footer take (literals and numbers; not the id
    /// prefix, label, source, definitions or drawing).
    static let headerBound = 640

    /// "00" … "99": two digits at a time.
    private static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// A number rounded to `decimals` places, without trailing zeros: 2 for coordinates and sizes in
    /// px, 1 for glyph outlines in font units, 6 for glyph scales (font units to px, ~0.01, so that a
    /// glyph's size is exact to 0.01 %); no other number of places is supported. At most 14 bytes
    /// with 2 decimals, 18 with 6. (Each has its own copy, with the powers of ten as constants.)
    @inline(__always) mutating func number(_ v: Double, decimals: Int = 2) {
        switch decimals {
        case 1: number1(v)
        case 2: number2(v)
        case 6: number6(v)
        default: preconditionFailure("SVG numbers take 1, 2 or 6 decimals, not \(decimals)")
        }
    }

    private mutating func number1(_ v: Double) { fixed(v, decimals: 1, scale: 10, unit: 10) }
    /// ``fixed(_:decimals:scale:unit:)`` with 2 decimals (the SVG's coordinates, most of its numbers),
    /// written out: the whole part up to 99 and the two decimals without loops.
    /// (MathAloudBench render-svg-profile, callgrind: number2 3.23 k to 2.73 k instructions a formula.)
    private mutating func number2(_ v: Double) {
        // (Not finite fails the comparison too.)
        guard abs(v) < 1e9 else { append(0x30); return }
        let i = SVGBytes.roundedHalfAway(v * 100)
        if i == 0 { append(0x30); return }
        // At most a sign, 9 integer digits, a point and 2 decimals.
        ensure(24)
        var p = base + count
        if i < 0 { p.pointee = 0x2D; p += 1 }
        let (whole, fraction) = i.magnitude.quotientAndRemainder(dividingBy: 100)
        let pairs = SVGBytes.digitPairs.utf8Start
        if whole < 10 {
            p.pointee = 0x30 &+ UInt8(truncatingIfNeeded: whole)
            p += 1
        } else if whole < 100 {
            p[0] = pairs[2 &* Int(whole)]
            p[1] = pairs[2 &* Int(whole) &+ 1]
            p += 2
        } else {
            p = SVGBytes.writeDigits(whole, count: SVGBytes.digitCount(whole), at: p)
        }
        if fraction != 0 {
            p.pointee = 0x2E
            let (tens, units) = fraction.quotientAndRemainder(dividingBy: 10)
            if units == 0 {
                p[1] = 0x30 &+ UInt8(truncatingIfNeeded: tens)
                p += 2
            } else {
                p[1] = pairs[2 &* Int(fraction)]
                p[2] = pairs[2 &* Int(fraction) &+ 1]
                p += 3
            }
        }
        count = p - base
    }
    private mutating func number6(_ v: Double) { fixed(v, decimals: 6, scale: 1e6, unit: 1_000_000) }

    /// `v` to `decimals` places, `scale` and `unit` being 10 to that power.
    @inline(__always) private mutating func fixed(_ v: Double, decimals: Int, scale: Double, unit: UInt) {
        guard v.isFinite, abs(v) < 1e9 else { append(0x30); return }
        let i = SVGBytes.roundedHalfAway(v * scale)
        if i == 0 { append(0x30); return }
        // At most a sign, 10 integer digits, a point and 6 decimals.
        ensure(24)
        var p = base + count
        if i < 0 { p.pointee = 0x2D; p += 1 }
        let (whole, fraction) = i.magnitude.quotientAndRemainder(dividingBy: unit)
        p = SVGBytes.writeDigits(whole, count: SVGBytes.digitCount(whole), at: p)
        if fraction != 0 {
            var frac = fraction, digits = decimals
            while frac % 10 == 0 { frac /= 10; digits &-= 1 }
            p.pointee = 0x2E
            p = SVGBytes.writeDigits(frac, count: digits, at: p + 1)
        }
        count = p - base
    }

    /// `x` rounded to the nearest integer, halves away from zero (as `Double.rounded()`), for
    /// |x| < 2⁶³: the truncation and the remainder are exact, so no library call is needed.
    @inline(__always) private static func roundedHalfAway(_ x: Double) -> Int {
        let t = Int(x)
        let r = x - Double(t)
        if r >= 0.5 { return t &+ 1 }
        if r <= -0.5 { return t &- 1 }
        return t
    }

    /// How many decimal digits a number has (1 for 0).
    @inline(__always) private static func digitCount(_ value: UInt) -> Int {
        var digits = 1, n = value
        while n >= 100 { digits &+= 2; n /= 100 }
        return n >= 10 ? digits &+ 1 : digits
    }

    /// The last `digits` decimal digits of `value` (all of them, or with leading zeros), two at a time,
    /// from `start`; returns the end.
    @inline(__always) private static func writeDigits(_ value: UInt, count digits: Int,
                                                      at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let pairs = SVGBytes.digitPairs.utf8Start
        let end = start + digits
        var p = end, n = value
        while p - start >= 2 {
            let (q, r) = n.quotientAndRemainder(dividingBy: 100)
            p -= 2
            p[0] = pairs[2 &* Int(r)]
            p[1] = pairs[2 &* Int(r) &+ 1]
            n = q
        }
        if p > start { start.pointee = 0x30 &+ UInt8(truncatingIfNeeded: n % 10) }
        return end
    }

    /// A non-negative integer in decimal.
    mutating func integer(_ value: Int) {
        let n = UInt(Swift.max(0, value))
        // Glyph ids, nearly all below 10,000: written without loops (MathAloudBench render-svg-profile,
        // callgrind: 1.58 k to 1.22 k instructions a formula).
        if n < 10_000 {
            ensure(4)
            let pairs = SVGBytes.digitPairs.utf8Start
            var p = base + count
            let (high, low) = n.quotientAndRemainder(dividingBy: 100)
            if high >= 10 {
                p[0] = pairs[2 &* Int(high)]; p[1] = pairs[2 &* Int(high) &+ 1]; p += 2
            } else if high > 0 {
                p.pointee = 0x30 &+ UInt8(truncatingIfNeeded: high); p += 1
            }
            if high > 0 || low >= 10 {
                p[0] = pairs[2 &* Int(low)]; p[1] = pairs[2 &* Int(low) &+ 1]; p += 2
            } else {
                p.pointee = 0x30 &+ UInt8(truncatingIfNeeded: low); p += 1
            }
            count = p - base
            return
        }
        let digits = SVGBytes.digitCount(n)
        ensure(digits)
        count = SVGBytes.writeDigits(n, count: digits, at: base + count) - base
    }

    /// How many digits an unsigned number has in base 36.
    static func base36Count(_ value: UInt32) -> Int {
        var n = value / 36, digits = 1
        while n > 0 { digits += 1; n /= 36 }
        return digits
    }

    /// An unsigned number in base 36, lowercase (as `String(_:radix: 36)`).
    mutating func base36(_ value: UInt32) {
        let digits = SVGBytes.base36Count(value)
        ensure(digits)
        var n = value
        var i = count + digits - 1
        repeat {
            let d = UInt8(truncatingIfNeeded: n % 36)
            base[i] = d < 10 ? 0x30 + d : 0x57 + d
            n /= 36
            i -= 1
        } while n > 0
        count += digits
    }

    mutating func glyphID(_ g: GlyphRef) {
        if g.font != .math { integer(Int(g.font.rawValue)); append(0x2D) }
        integer(Int(g.glyph))
    }

    /// A colour as `#rrggbb` (as ``RGBAColor/hex``, with its digits), written digit by digit.
    mutating func color(_ c: RGBAColor) {
        append(0x23)
        hexChannel(c.red)
        hexChannel(c.green)
        hexChannel(c.blue)
    }

    private mutating func hexChannel(_ channel: Double) {
        let (high, low) = RGBAColor.hexDigits(channel)
        append(high)
        append(low)
    }

    mutating func opacity(_ c: RGBAColor) {
        guard c.alpha < 1 else { return }
        self += " fill-opacity=\""
        number(c.alpha)
        self += "\""
    }
}

/// FNV-1a hash of a string's UTF-8 (stable id prefixes), continuing from `seed` and ending with a 0
/// byte when hashing several strings in a row.
func fnv1a(_ s: String, seed: UInt32? = nil) -> UInt32 {
    func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var h: UInt32 = seed ?? 2_166_136_261
        for b in bytes { h = (h ^ UInt32(b)) &* 16_777_619 }
        return h
    }
    // In place, as SVGBytes.append(_:) reads a string.
    var h: UInt32
    if let inPlace = s.utf8.withContiguousStorageIfAvailable(hash) {
        h = inPlace
    } else {
        var s = s
        h = s.withUTF8(hash)
    }
    if seed != nil { h = h &* 16_777_619 }
    return h
}
