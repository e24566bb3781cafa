import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// The ink extent gathered as the box tree is built (``Box/ink``) is what a walk over the drawn items
/// finds: the walk the renderer made after layout until the extent was gathered on the way (`InkBounds`,
/// kept here as the reference), on formulas whose ink reaches past the box.
@Suite struct InkExtentTests {
    /// The old walk: every paint item of the finished tree, glyphs by their outline's bounding box.
    struct WalkedInk: DrawSink {
        var extent = InkExtent()
        let fonts: FontSet

        mutating func draw(_ item: DrawItem) {
            switch item {
            case let .glyph(g, x, y, _):
                let m = fonts.face(g.font).metrics(g.glyph)
                guard m.inkRight > m.inkLeft || m.inkTop > m.inkBottom else { return }
                extent.add(x + m.inkLeft * g.size, y + m.inkBottom * g.size, x + m.inkRight * g.size, y + m.inkTop * g.size)
            case let .rect(x, y, width, height, _):
                extent.add(x, y, x + width, y + height)
            case let .line(x1, y1, x2, y2, t, _):
                extent.add(min(x1, x2) - t / 2, min(y1, y2) - t / 2, max(x1, x2) + t / 2, max(y1, y2) + t / 2)
            case let .frame(x, y, width, height, _, _, _), let .ellipse(x, y, width, height, _, _):
                extent.add(x, y, x + width, y + height)
            }
        }
    }

    /// Ink past the box of every kind: accents (text-mode ones over a dotless j too), big operators
    /// with limits and scripts, `\not`, slanted letters' overhang (the italic correction), laps, smashes,
    /// raised boxes, negative kerns, and what covers a box (rules, frames, backgrounds, strokes).
    static let formulas: [String] = ImageEdgeTests.formulas + [
        #"\hat{f}"#, #"\vec{V}"#, #"\widetilde{W}"#, #"\acute{\jmath}"#, #"\text{\'\j}"#, #"\dot{\imath} + \ddot{y}"#,
        #"\mathbf{\hat{x}}"#, #"\overbrace{a+b}^{n} \underbrace{c}_{m}"#,
        #"\sum_{i=1}^{n} a_i"#, #"\int_0^1 f\,dx"#, #"\prod\limits_{k} \bigcup_{j} \oint"#, #"\iiint_V \rho \, dV"#,
        #"a \not= b"#, #"x \not\in A"#, #"\not\subset"#,
        #"f^2 + V_1 + P^{f} + \mathit{f}"#, #"T"#, #"\mathcal{A}^2"#,
        #"\rlap{xxx}a"#, #"\llap{yyy}b"#, #"\mathllap{V}x"#, #"\smash[b]{y_q}"#, #"\raisebox{1em}{z}"#, #"\kern-1em V"#,
        #"\phantom{V}W"#, #"\sqrt{V}"#, #"\sqrt[3]{f}"#, #"\overline{V} + \underline{f}"#, #"\frac{V}{f}"#,
        #"\rule{1em}{2pt}"#, #"\cfrac{\rule{1em}{1pt}}{x}"#, #"\boxed{V}"#, #"\fbox{f}"#, #"\colorbox{yellow}{V}"#,
        #"\cancel{x} \bcancel{y} \xcancel{z}"#, #"\left( \frac{a}{b} \right]"#, #"\xrightarrow{f} \overrightarrow{AB}"#,
        #"\begin{pmatrix} V & f \\ \hat{J} & 1 \end{pmatrix}"#, #"\begin{array}{|c|} \hline V \\ \hline \end{array}"#,
        #"\color{red}{V} \textcolor{blue}{f}"#, #"\text{f} \textit{ff} \textbf{V}"#, "",
    ]

    @Test(arguments: [false, true])
    func gatheredInkIsTheWalkedInk(display: Bool) {
        let r = display ? Renderers.display : Renderers.text
        for tex in InkExtentTests.formulas {
            let f = r.render(tex: tex)
            var walked = WalkedInk(fonts: r.fonts)
            f.box.draw(into: &walked, x: 0, y: 0, color: .black)
            let gathered = f.box.ink
            #expect(gathered.isEmpty == walked.extent.isEmpty, "\(tex)")
            guard !gathered.isEmpty, !walked.extent.isEmpty else { continue }
            // The same sums in another order (a child's offset added to its ink, not to its position):
            // equal to the last bits or within 1e-12 em.
            for (a, b) in [(gathered.minX, walked.extent.minX), (gathered.maxX, walked.extent.maxX),
                           (gathered.minY, walked.extent.minY), (gathered.maxY, walked.extent.maxY)] {
                #expect(abs(a - b) <= 1e-12, "\(tex): gathered \(gathered), walked \(walked.extent)")
            }
            // And the margins the image gets from it are the walk's.
            let clear = f.padding / 2
            func side(_ overhang: Double) -> Double { overhang.isFinite ? max(f.padding, overhang + clear) : f.padding }
            let e = walked.extent
            let expected = ImageMargins(left: side(-e.minX), right: side(e.maxX - f.box.width),
                                        top: side(e.maxY - f.box.height), bottom: side(-e.minY - f.box.depth))
            for (a, b) in [(f.margins.left, expected.left), (f.margins.right, expected.right),
                           (f.margins.top, expected.top), (f.margins.bottom, expected.bottom)] {
                #expect(abs(a - b) <= 1e-12, "\(tex): \(f.margins) vs \(expected)")
            }
            // So the image is the one the walk's margins made, byte for byte.
            let walkedFormula = RenderedFormula(source: f.source, box: f.box, label: f.label, speech: f.speech,
                                                diagnostics: f.diagnostics, fontSize: f.fontSize, padding: f.padding,
                                                margins: expected, language: f.language)
            #expect(r.svg(f) == r.svg(walkedFormula), "\(tex)")
        }
    }

    /// Classes whose ink is past the box, one by one: the extent says on which side.
    @Test func inkPastTheBoxIsGathered() {
        let r = Renderers.text
        // A slanted V overhangs its advance on the right.
        let v = r.render(tex: "V")
        #expect(v.box.ink.maxX > v.box.width + 0.05)
        // \llap puts its ink left of the origin; \rlap right of a zero-width box.
        #expect(r.render(tex: #"\llap{xxx}a"#).box.ink.minX < -0.5)
        // \llap's content ends at the origin and \clap's is centred on it, whatever its width (they
        // moved it by 1 em and ½ em); MathJax's MathML for them (`lspace="-1width"`) draws the same.
        let xxx = r.render(tex: "xxx").box.width
        #expect(abs(r.render(tex: #"\llap{xxx}"#).box.ink.maxX - (r.render(tex: "xxx").box.ink.maxX - xxx)) < 1e-9)
        #expect(abs(r.render(tex: #"\clap{xxx}"#).box.ink.minX - (r.render(tex: "xxx").box.ink.minX - xxx / 2)) < 1e-9)
        let mathML = r.render(mathML: "<math><mpadded width='0' lspace='-1width'><mi>x</mi><mi>x</mi><mi>x</mi></mpadded></math>")
        #expect(abs(mathML.box.ink.maxX - r.render(tex: #"\llap{xxx}"#).box.ink.maxX) < 1e-9)
        let rlap = r.render(tex: #"\rlap{xxx}"#)
        #expect(rlap.box.width == 0 && rlap.box.ink.maxX > 1)
        // \smash keeps the ink above and below a box of no height or depth.
        let smashed = r.render(tex: #"\smash{\frac{a}{b}}"#).box
        #expect(smashed.height == 0 && smashed.depth == 0 && smashed.ink.maxY > 0.3 && smashed.ink.minY < -0.3)
        // A phantom draws nothing: its ink is empty however large its box.
        let phantom = r.render(tex: #"\phantom{V}"#).box
        #expect(phantom.width > 0.5 && phantom.ink.isEmpty)
        // A box whose size changes after it is made (a \cfrac numerator is heightened to its strut)
        // covers its new size: the rule's ink follows its box.
        var rule = Box(width: 1, height: 0.1, depth: 0, content: .rule)
        rule.height = 0.5
        #expect(rule.ink == { var e = InkExtent(); e.add(0, 0, 1, 0.5); return e }())
    }
}
