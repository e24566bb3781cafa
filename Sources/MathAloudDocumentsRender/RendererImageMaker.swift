import Foundation
import MathAloud
import MathAloudDocuments
import MathAloudRender

/// MathAloudRender's ``Renderer`` as the image maker of documents: documents draw their formulas with
/// it, each with the label the document made (equation number included) and the speech read once.
///
/// ```swift
/// let maker = RendererImageMaker(renderer: try Renderer(), format: .svg)
/// var options = DocumentOptions()
/// options.products = [.image]
/// let processor = DocumentProcessor(options: options, speaker: try Speaker(), imageMaker: maker)
/// ```
public struct RendererImageMaker: FormulaImageMaker {
    /// The renderer (font, size, colours).
    public let renderer: Renderer
    /// SVG or PNG.
    public let format: FormulaImage.Format

    /// Creates an image maker.
    public init(renderer: Renderer, format: FormulaImage.Format = .svg) {
        self.renderer = renderer
        self.format = format
    }

    /// Draws the formula with the request's label (nil when PNG cannot be written: cairo missing).
    public func image(of formula: ParsedFormula, request: FormulaImageRequest) -> FormulaImage? {
        let rendered = renderer.render(formula, display: request.display, label: request.label, speech: request.speech,
                                       errorColor: request.errorColor.flatMap { RGBAColor($0) },
                                       tagsOnLeft: request.numbersOnLeft)
        let data: [UInt8]
        switch format {
        case .svg:
            let svg = renderer.svg(rendered, idPrefix: request.idPrefix)
            data = Array((request.label.isEmpty ? Self.withoutName(svg) : svg).utf8)
        case .png:
            guard let png = try? renderer.png(rendered) else { return nil }
            data = Array(png)
        }
        return FormulaImage(format: format, data: data, width: rendered.width, height: rendered.height,
                            verticalAlign: "-" + Self.pixels(rendered.baselineFromBottom) + "px")
    }

    /// An SVG drawn without a label (`--label none`) claims no name: its `role="img"`,
    /// `aria-labelledby` and empty `<title>` are taken out, and its TeX (the `<desc>`) is also given as
    /// `data-tex`, so the author's own label is what it gets and `audit` finds it as a formula and
    /// reports it unlabelled (`svg.missing-label`) until then.
    static func withoutName(_ svg: String) -> String {
        let claim = #" role="img" aria-labelledby=""#
        guard let start = svg.range(of: claim), let end = svg[start.upperBound...].firstIndex(of: "\"") else { return svg }
        let id = svg[start.upperBound..<end]
        let prefix = id.hasSuffix("title") ? id.dropLast(5) : id
        var tex = ""
        if let open = svg.range(of: "<desc id=\"\(prefix)desc\">"), let close = svg[open.upperBound...].range(of: "</desc>") {
            // The desc's text is escaped for element content; an attribute needs its quotes escaped too.
            tex = svg[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
        var out = svg
        out.replaceSubrange(start.lowerBound...end, with: " data-tex=\"\(tex)\"")
        if let title = out.range(of: "<title id=\"\(id)\"></title>") { out.removeSubrange(title) }
        return out
    }

    /// A length with at most two decimals, as `render` writes them.
    static func pixels(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var s = String(format: "%.2f", rounded)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}
