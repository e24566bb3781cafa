import Foundation
import MathAloud

/// How formulas are drawn and labelled.
public struct RenderOptions: Sendable {
    /// The math font: a ``MathFontFamily`` name (`latin-modern`, `pagella`, `termes`, `bonum`, `schola`,
    /// `dejavu`) or a path to an OpenType math font.
    public var font: String = MathFontFamily.latinModern.rawValue
    /// The font size: CSS pixels per em in SVG and PNG (before ``scale``), points per em in PDF.
    public var size: Double = 20
    /// The colour of the formula.
    public var color: RGBAColor = .black
    /// A background fill; nil leaves the image transparent.
    public var background: RGBAColor? = nil
    /// Display style (`\[…\]`) instead of text style (`$…$`).
    public var display: Bool = false
    /// Pixel density of PNG output (2 for a 2× image of the same CSS size).
    public var scale: Double = 1
    /// Space around the formula's box in em. Where glyph ink reaches past TeX's box (a slanted `f` or
    /// `V`, a wide accent, `\smash`, a negative kern), the image grows on that side so the ink stays at
    /// least half the padding inside it (``RenderedFormula/margins``); the box keeps TeX's measures.
    public var padding: Double = 0.1
    /// The label template: `{speech}` and `{latex}` are replaced (default `{speech}`).
    public var labelTemplate: String = "{speech}"
    /// The largest image side, in CSS px (SVG, PNG before ``scale``) or pt (PDF): a larger formula is
    /// drawn smaller to fit, with a `render.page-too-large` warning (default 14,400, the largest page
    /// PDF readers take; PNG is further held to 16,000 pixels a side and 40 megapixels).
    public var maxPageSize: Double = 14_400
    /// The colour of input that did not parse (default dark red).
    public var errorColor = RGBAColor(red: 0.8, green: 0, blue: 0)
    /// Equation numbers (`\tag`, numbered environments) at the left instead of the right.
    public var tagsOnLeft = false

    /// Default options: Latin Modern Math, 20 px, black on transparent, text style.
    public init() {}
}

/// The space between a formula's box and the image's edges, em.
public struct ImageMargins: Sendable, Hashable {
    /// Left of the box.
    public var left: Double
    /// Right of the box.
    public var right: Double
    /// Above the box's height.
    public var top: Double
    /// Below the box's depth.
    public var bottom: Double

    /// The same space on every side.
    public init(all: Double) { (left, right, top, bottom) = (all, all, all, all) }

    /// Margins from each side's space.
    public init(left: Double, right: Double, top: Double, bottom: Double) {
        (self.left, self.right, self.top, self.bottom) = (left, right, top, bottom)
    }
}

/// A laid-out formula with its label: what every writer (SVG, PNG, PDF) draws.
public struct RenderedFormula: Sendable {
    /// The source (TeX or MathML).
    public let source: String
    /// The box tree, in em.
    public let box: Box
    /// The label from the speech engine through the label template.
    public let label: String
    /// The speech text alone.
    public let speech: String
    /// Parse and speech diagnostics (the box shows what parsed; error nodes are drawn in red).
    public let diagnostics: [Diagnostic]
    /// The font size the formula is drawn at (px per em for SVG/PNG, pt per em for PDF).
    public let fontSize: Double
    /// Padding around the box, em (the least of ``margins``).
    public let padding: Double
    /// The space between the box and the image's edges, em: the padding, more on a side where the
    /// ink reaches past the box (so nothing drawn is cut off at the edge).
    public let margins: ImageMargins
    /// The language of the label as a BCP 47 tag (the speech locale's ``LocaleTag/bcp47``: `en`, `de`,
    /// `zh-CN`), written as `lang`/`xml:lang` on the SVG's `<title>` and as `/Lang` in the PDF's catalog;
    /// nil when unknown.
    public var language: String? = nil

    /// Image width in CSS pixels (box width plus margins).
    public var width: Double { (box.width + margins.left + margins.right) * fontSize }
    /// Image height in CSS pixels.
    public var height: Double { (box.height + box.depth + margins.top + margins.bottom) * fontSize }
    /// Distance from the image's bottom edge up to the formula's baseline, CSS pixels: the value for
    /// `vertical-align: -…px` that puts the image on the surrounding text's baseline.
    public var baselineFromBottom: Double { (box.depth + margins.bottom) * fontSize }
    /// The box's height above the baseline in ex-independent em.
    public var heightEm: Double { box.height }
    /// The box's depth below the baseline in em.
    public var depthEm: Double { box.depth }
    /// The box's width in em.
    public var widthEm: Double { box.width }
    /// The diagnostic that refused the input as a whole (nothing was laid out), if any.
    public var rejection: Diagnostic? { diagnostics.rejection }
}

/// Why a ``Renderer`` could not be made.
public enum RendererError: Error, Sendable, CustomStringConvertible {
    /// The font, or HarfBuzz, could not be loaded.
    case font(FontLoadError)
    /// The default speaker's rules could not be loaded.
    case speech(SpeechLoadError)

    /// What went wrong, with the fix.
    public var description: String {
        switch self {
        case .font(let e): e.description
        case .speech(let e): e.description
        }
    }
}

/// Typesets TeX or MathML with OpenType MATH fonts and writes SVG, PNG and PDF, each carrying the
/// spoken label. Immutable and `Sendable`: create one and share it; fonts are loaded once per process.
///
/// ```swift
/// let renderer = try Renderer()
/// let formula = renderer.render(tex: #"\frac{1}{2}"#)
/// let svg = renderer.svg(formula)     // <svg role="img" …><title>one half</title>…
/// ```
public final class Renderer: Sendable {
    /// The options in force.
    public let options: RenderOptions
    /// The fonts.
    public let fonts: FontSet
    /// The speech engine that makes labels (its parser parses the TeX once for layout and label).
    public let speaker: Speaker
    private let template: LabelTemplate

    /// Creates a renderer.
    /// - Parameters:
    ///   - options: font, size, colours, style and label template.
    ///   - speaker: the speech engine for labels (default: English ClearSpeak; its TeX options decide
    ///     macros, limits and trust).
    /// - Throws: ``RendererError/font(_:)`` when the font (or HarfBuzz) cannot be loaded,
    ///   ``RendererError/speech(_:)`` when the default speaker's rules cannot.
    public init(options: RenderOptions = RenderOptions(), speaker: Speaker? = nil) throws(RendererError) {
        self.options = options
        do { self.fonts = try FontSet.named(options.font) } catch { throw .font(error) }
        if let speaker {
            self.speaker = speaker
        } else {
            do { self.speaker = try Speaker(texOptions: TeXParserOptions(displayMode: options.display), cacheCapacity: 0) } catch {
                throw .speech(error)
            }
        }
        self.template = LabelTemplate(options.labelTemplate)
    }

    /// Parses, speaks and lays out TeX (without `$` delimiters).
    public func render(tex: String) -> RenderedFormula {
        render(speaker.parser.parse(tex, notation: .tex))
    }

    /// Parses, speaks and lays out MathML; `<math display="block">` (or `mode="display"`) sets display style.
    public func render(mathML: String) -> RenderedFormula {
        let parsed = speaker.parser.parse(mathML, notation: .mathml)
        return render(parsed, display: parsed.display ? true : nil)
    }

    /// Speaks and lays out a parsed formula (the tree is read once for both); `display` overrides the
    /// renderer's style, `speaker` the renderer's speaker for the label (a batch line's own locale,
    /// style and preferences).
    ///
    /// Input refused as a whole (a limit, malformed MathML: ``RenderedFormula/rejection``) is not laid
    /// out: the result has an empty box and label, and its diagnostics say why. A formula larger than
    /// ``RenderOptions/maxPageSize`` is drawn smaller to fit (``RenderedFormula/fontSize``), with a
    /// `render.page-too-large` warning.
    public func render(_ parsed: ParsedFormula, display: Bool? = nil, speaker: Speaker? = nil) -> RenderedFormula {
        let source = parsed.source.text
        if parsed.diagnostics.rejection != nil {
            return RenderedFormula(source: source, box: Box(width: 0, height: 0, depth: 0), label: "", speech: "",
                                   diagnostics: parsed.diagnostics, fontSize: options.size, padding: options.padding,
                                   margins: ImageMargins(all: options.padding))
        }
        // The renderer's own speaker is lent, not copied: `speaker ?? self.speaker` made a copy of the
        // struct for every formula (23 references retained, then released: MathAloudBench
        // render-svg-profile, callgrind).
        if let speaker { return render(parsed, display: display, labelledBy: speaker) }
        return render(parsed, display: display, labelledBy: self.speaker)
    }

    /// ``render(_:display:speaker:)`` of input that was not refused, labelled by `speaker`.
    private func render(_ parsed: ParsedFormula, display: Bool?, labelledBy speaker: borrowing Speaker) -> RenderedFormula {
        let source = parsed.source.text
        let (speech, label, speechDiagnostics) = spokenLabel(parsed, speaker: speaker)
        // The parser's diagnostics as they are (an unknown command, a warning for speech because it is
        // read by name, is drawn in red: an error in the image), then what the speech engine and the
        // layout add, in order of position (the sort is stable: a list already in order is kept as it is).
        let (box, laidOutDiagnostics, margins) = laidOut(parsed, display: display, errorColor: nil, tagsOnLeft: nil,
                                                         speechDiagnostics: speechDiagnostics)
        var diagnostics = laidOutDiagnostics
        func position(_ d: Diagnostic) -> Int { d.range?.lowerBound ?? 0 }
        if zip(diagnostics, diagnostics.dropFirst()).contains(where: { position($1) < position($0) }) {
            diagnostics.sort { position($0) < position($1) }
        }
        let (fontSize, pageDiagnostic) = pageFit(box, margins: margins)
        if let pageDiagnostic { diagnostics.append(pageDiagnostic) }
        return RenderedFormula(source: source, box: box, label: label, speech: speech, diagnostics: diagnostics,
                               fontSize: fontSize, padding: options.padding, margins: margins,
                               language: speaker.locale.bcp47)
    }

    /// The speech text, the label and what speech reported, of a formula that was not refused. The
    /// spoken formula (its semantic tree, its description) is given up here, so its memory is free
    /// again before the layout allocates its boxes (it was held until the formula was finished).
    private func spokenLabel(_ parsed: ParsedFormula, speaker: borrowing Speaker)
        -> (speech: String, label: String, diagnostics: [Diagnostic]) {
        let spoken = speaker.speak(parsed: parsed)
        // A formula with nothing to say (only rules or spaces) is labelled with its source rather than
        // left unlabelled.
        let text = spoken.text
        let source = parsed.source.text
        let speech = text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) ? source : text
        return (speech, template.fill(speech: speech, latex: source), spoken.speechDiagnostics)
    }

    /// The image's margins around a box: `padding` on each side, or, where the ink reaches past the box
    /// by more than half the padding, that overhang and half the padding (so the ink keeps a clear
    /// edge: a pixel at the default size and padding).
    func margins(_ box: Box, padding: Double) -> ImageMargins {
        let ink = box.ink
        guard !ink.isEmpty else { return ImageMargins(all: padding) }
        let clear = padding / 2
        func side(_ overhang: Double) -> Double { overhang.isFinite ? max(padding, overhang + clear) : padding }
        return ImageMargins(left: side(-ink.minX), right: side(ink.maxX - box.width),
                            top: side(ink.maxY - box.height), bottom: side(-ink.minY - box.depth))
    }

    /// The font size that keeps the image within ``RenderOptions/maxPageSize`` (the options' size when
    /// it fits), and the warning when it does not.
    func pageFit(_ box: Box, margins: ImageMargins) -> (fontSize: Double, diagnostic: Diagnostic?) {
        let size = options.size
        let width = (box.width + margins.left + margins.right) * size
        let height = (box.height + box.depth + margins.top + margins.bottom) * size
        let largest = max(width, height)
        guard largest > options.maxPageSize || !largest.isFinite else { return (size, nil) }
        let fitted = largest.isFinite ? size * options.maxPageSize / largest : 0
        func px(_ v: Double) -> String { v.isFinite ? String(Int(v.rounded())) : "∞" }
        return (fitted, .warning(.renderPageTooLarge,
                                 "the image would be \(px(width))×\(px(height)); drawn smaller to fit \(px(options.maxPageSize)) a side",
                                 at: nil))
    }

    /// Lays out a parsed formula whose speech and label are already made (a document's formula: its
    /// label carries its equation number), so the formula is spoken once. The label's language is taken
    /// to be the renderer's speaker's locale; characters no font has are reported as ``render(_:display:speaker:)``
    /// reports them.
    public func render(_ parsed: ParsedFormula, display: Bool?, label: String, speech: String,
                       errorColor: RGBAColor? = nil, tagsOnLeft: Bool? = nil) -> RenderedFormula {
        let (box, diagnostics, margins) = laidOut(parsed, display: display, errorColor: errorColor, tagsOnLeft: tagsOnLeft)
        return RenderedFormula(source: parsed.source.text, box: box, label: label, speech: speech, diagnostics: diagnostics,
                               fontSize: options.size, padding: options.padding, margins: margins,
                               language: speaker.locale.bcp47)
    }

    /// What both ways of rendering a parsed formula begin with: its box, its diagnostics (the parser's,
    /// then `speechDiagnostics`, then a `render.missing-glyph` warning for each character no font has)
    /// and the image's margins around the box's ink.
    private func laidOut(_ parsed: ParsedFormula, display: Bool?, errorColor: RGBAColor?, tagsOnLeft: Bool?,
                         speechDiagnostics: [Diagnostic] = []) -> (box: Box, diagnostics: [Diagnostic], margins: ImageMargins) {
        let (box, missing) = layout(parsed.root, display: display, errorColor: errorColor, tagsOnLeft: tagsOnLeft)
        var diagnostics = parsed.diagnostics
        if !speechDiagnostics.isEmpty { diagnostics += speechDiagnostics }
        if !missing.isEmpty { diagnostics += Renderer.missingGlyphDiagnostics(missing, in: parsed.root, source: parsed.source.text) }
        return (box, diagnostics, margins(box, padding: options.padding))
    }

    /// Lays out a presentation tree into a box tree (em units) in this renderer's style and font.
    public func layout(_ root: MathNode, display: Bool? = nil) -> Box {
        layout(root, display: display, errorColor: nil, tagsOnLeft: nil).box
    }

    /// The `render.missing-glyph` warnings for characters no font has, one per character: the range is
    /// the character's in the source, found in the first leaf (identifier, number, operator, text) that
    /// shows it; the leaf's range when the source spells it otherwise (an entity, a macro), none when no
    /// leaf shows it as it is (a letter drawn from a math alphabet).
    static func missingGlyphDiagnostics(_ scalars: [UInt32], in root: MathNode, source: String) -> [Diagnostic] {
        let bytes = Array(source.utf8)
        return scalars.map { value in
            let u = Unicode.Scalar(value) ?? "\u{FFFD}"
            let range = sourceRange(of: u, in: root, bytes: bytes)
            var code = String(value, radix: 16, uppercase: true)
            if code.count < 4 { code = String(repeating: "0", count: 4 - code.count) + code }
            let name = u.properties.name.map { " " + $0 } ?? ""
            return .warning(.renderMissingGlyph, "no font has '\(Character(u))' (U+\(code)\(name)); it is drawn as blank space", at: range)
        }
    }

    private static func sourceRange(of u: Unicode.Scalar, in node: MathNode, bytes: [UInt8]) -> SourceRange? {
        let text: String?
        switch node.kind {
        case let .identifier(t, _), let .number(t, _), let .operator(t, _), let .text(t, _), let .error(t): text = t
        default: text = nil
        }
        if let text, text.unicodeScalars.contains(u) {
            guard let r = node.range else { return nil }
            let needle = Array(String(Character(u)).utf8)
            let lo = max(0, min(r.lowerBound, bytes.count)), hi = max(lo, min(r.upperBound, bytes.count))
            var i = lo
            while i + needle.count <= hi {
                if bytes[i..<(i + needle.count)].elementsEqual(needle) { return SourceRange(i, i + needle.count) }
                i += 1
            }
            return r
        }
        for child in node.children {
            if let r = sourceRange(of: u, in: child, bytes: bytes) { return r }
        }
        return nil
    }

    /// The box tree and the characters no font had, each once.
    func layout(_ root: MathNode, display: Bool?, errorColor: RGBAColor?, tagsOnLeft: Bool?) -> (box: Box, missing: [UInt32]) {
        var engine = MathLayout(fonts: fonts)
        engine.errorColor = errorColor ?? options.errorColor
        engine.tagsOnLeft = tagsOnLeft ?? options.tagsOnLeft
        let d = display ?? (options.display || speaker.parser.tex.options.displayMode)
        var box = engine.layout(root, LayoutStyle(display: d, level: 0, cramped: false, sizeFactor: 1)).box
        // The formula is a box of TeX's horizontal list (\hbox, \sbox): its height and depth are never
        // negative (hpack starts both from zero), even when its only item is raised (`\mathop{z}`).
        box.height = max(0, box.height)
        box.depth = max(0, box.depth)
        if options.color != .black { box = box.wrapped(.color(options.color)) }
        return (box, engine.counter.missingScalars)
    }
}

/// One formula found in prose and rendered.
public struct RenderedTextFormula: Sendable {
    /// The formula, label and metrics.
    public let formula: RenderedFormula
    /// Whether it was display math (`\[…\]`, `$$…$$`).
    public let display: Bool
    /// Where it sits in the text (bytes, delimiters included).
    public let range: SourceRange
}

extension Renderer {
    /// Renders every formula the ``MathTextScanner`` finds in prose: one image each, with its own
    /// label and the baseline metrics that put an inline image on the text's baseline. By default only
    /// math environments are formulas (``MathTextScanner/Options/prose``: `\begin{theorem}` is prose).
    public func renderText(_ text: String, scanner: MathTextScanner = MathTextScanner(options: .prose)) -> [RenderedTextFormula] {
        scanner.scan(text).fragments.map { fragment in
            RenderedTextFormula(formula: render(speaker.parser.parse(fragment.tex, notation: .tex), display: fragment.display),
                                display: fragment.display, range: fragment.range)
        }
    }
}

extension Renderer {
    /// A contact sheet: formulas in a grid, each in display style above its label (wrapped, in the
    /// text font), as one formula-like result that ``png(_:)``, ``svg(_:idPrefix:)`` and ``pdf(_:)`` can
    /// write. The sheet's own label lists every formula's label.
    /// - Parameters:
    ///   - sources: TeX formulas.
    ///   - columns: cells per row.
    ///   - cellWidth: width of a cell in em.
    public func contactSheet(_ sources: [String], columns: Int = 3, cellWidth: Double = 15) -> RenderedFormula {
        let engine = MathLayout(fonts: fonts)
        let labelStyle = LayoutStyle(display: false, level: 0, cramped: false, sizeFactor: 0.5)
        let gray = RGBAColor(red: 0.3, green: 0.3, blue: 0.35)
        var cells: [Box] = []
        var labels: [String] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            let formula = render(speaker.parser.parse(source, notation: .tex), display: true)
            labels.append(formula.label)
            diagnostics += formula.diagnostics
            var f = formula.box
            let maxWidth = cellWidth - 1
            if f.width > maxWidth {
                // Too wide for the cell: shrink the whole formula.
                f = f.scaled(maxWidth / f.width)
            }
            // The label, wrapped greedily at the cell width.
            var lines: [Box] = []
            var line: [String] = []
            func flush() {
                if !line.isEmpty { lines.append(engine.textRun(line.joined(separator: " "), variant: nil, labelStyle).box) }
                line = []
            }
            for word in formula.label.split(separator: " ") {
                let trial = (line + [String(word)]).joined(separator: " ")
                if !line.isEmpty, engine.textRun(trial, variant: nil, labelStyle).box.width > maxWidth { flush() }
                line.append(String(word))
            }
            flush()
            var children = [Box.Placed(x: (cellWidth - f.width) / 2, y: 0, box: f)]
            var y = -f.depth - 0.5
            for l in lines {
                y -= l.height
                children.append(Box.Placed(x: (cellWidth - l.width) / 2, y: y, box: l.wrapped(.color(gray))))
                y -= l.depth + 0.12
            }
            cells.append(Box(width: cellWidth, height: f.height, depth: -y, content: .list("cell"), children: children))
        }
        var rows: [Box.Placed] = []
        var top = 0.0
        var index = 0
        while index < cells.count {
            let rowCells = Array(cells[index..<min(cells.count, index + columns)])
            let h = rowCells.map(\.height).max() ?? 0
            let d = rowCells.map(\.depth).max() ?? 0
            for (k, cell) in rowCells.enumerated() {
                rows.append(Box.Placed(x: Double(k) * cellWidth, y: top - h, box: cell))
            }
            top -= h + d + 0.8
            index += columns
        }
        let sheet = Box(width: Double(columns) * cellWidth, height: 0, depth: -top, content: .list("sheet"), children: rows)
        let sheetMargins = margins(sheet, padding: 0.5)
        let (fontSize, pageDiagnostic) = pageFit(sheet, margins: sheetMargins)
        if let pageDiagnostic { diagnostics.append(pageDiagnostic) }
        return RenderedFormula(source: sources.joined(separator: "\n"), box: sheet, label: labels.joined(separator: "; "),
                               speech: labels.joined(separator: "; "), diagnostics: diagnostics,
                               fontSize: fontSize, padding: 0.5, margins: sheetMargins,
                               language: speaker.locale.bcp47)
    }
}

extension Box {
    /// The box scaled uniformly (glyph sizes, positions and rule sizes).
    func scaled(_ f: Double) -> Box {
        var b = self
        b.width *= f; b.height *= f; b.depth *= f
        switch content {
        case .glyph(var g): g.size *= f; b.content = .glyph(g)
        case let .line(x1, y1, x2, y2, t): b.content = .line(x1: x1 * f, y1: y1 * f, x2: x2 * f, y2: y2 * f, thickness: t * f)
        case let .frame(t, d): b.content = .frame(thickness: t * f, dashed: d)
        case let .ellipse(t): b.content = .ellipse(thickness: t * f)
        default: break
        }
        b.children = children.map { Box.Placed(x: $0.x * f, y: $0.y * f, box: $0.box.scaled(f)) }
        return b
    }
}

extension Renderer {
    /// Renders many formulas on all cores, results in input order. Each element is (source, notation,
    /// display style or nil for the renderer's).
    public func render(many sources: [(source: String, notation: FormulaNotation, display: Bool?)],
                       threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> [RenderedFormula] {
        sources.concurrentMap(threads: threads) { item in
            let parsed = speaker.parser.parse(item.source, notation: item.notation)
            return render(parsed, display: item.display ?? (parsed.display ? true : nil))
        }
    }
}
