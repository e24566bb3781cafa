import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// The image holds all the ink while the box keeps TeX's measures: glyph ink past the box (an italic
/// capital's overhang at the end, a wide accent, `\smash`, a lap, a negative kern, `\raisebox`) widens
/// the image's margin on that side.
@Suite struct ImageEdgeTests {
    let r = Renderers.text

    /// The fixture's formulas: 35 arXiv formulas whose PNG lost ink at an edge, and one of each class.
    static let formulas: [String] = {
        let url = repositoryFixture("Tests/MathAloudRenderTests/Fixtures/ink-past-box.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("%") }
    }()

    @Test func fixtureHoldsEveryClass() {
        #expect(ImageEdgeTests.formulas.count == 65)
    }

    @Test(arguments: [1.0, 4.0])
    func noInkTouchesTheEdge(scale: Double) throws {
        for display in [false, true] {
            var o = RenderOptions()
            o.scale = scale
            o.display = display
            let renderer = try Renderer(options: o)
            for tex in ImageEdgeTests.formulas {
                let f = renderer.render(tex: tex)
                let decoded = try decodePNGEdgeInk(try renderer.png(f))
                #expect(decoded.edges == [0, 0, 0, 0], "\(tex) (scale \(scale), display \(display)): \(decoded.width)×\(decoded.height)")
            }
        }
    }

    @Test func boxKeepsTeXsMeasuresAndTheMarginGrows() {
        // 'x' has no ink past its box: the padding on every side, as before.
        let x = r.render(tex: "x")
        #expect(x.margins == ImageMargins(all: 0.1))
        #expect(abs(x.width - (x.box.width + 0.2) * 20) < 1e-9)
        // A slanted V reaches past its advance on the right: that margin grows by the overhang, the box
        // is the glyph's (width 0.583 em in Latin Modern Math), and the baseline stays where it was.
        let v = r.render(tex: "V")
        let ink = v.box.drawList(color: .black).compactMap { item -> Double? in
            guard case let .glyph(g, x, _, _) = item else { return nil }
            return x + r.fonts.face(g.font).metrics(g.glyph).inkRight * g.size
        }.max() ?? 0
        #expect(abs(v.box.width - 0.583) < 0.0005)
        #expect(ink > v.box.width + 0.05)
        #expect(abs(v.margins.right - (ink - v.box.width + 0.05)) < 1e-9)
        #expect(v.margins.left == 0.1 && v.margins.top == 0.1 && v.margins.bottom == 0.1)
        #expect(abs(v.baselineFromBottom - (v.box.depth + 0.1) * 20) < 1e-9)
        // A negative kern puts the x 3 em left of the box's origin: the left margin takes it in, the box
        // is what TeX makes of it (its width is the row's, kern included).
        let kerned = r.render(tex: #"\kern-3em x"#)
        #expect(abs(kerned.box.width - (-3 + 0.572)) < 0.0005)
        #expect(kerned.margins.left > 3 && kerned.width > 0)
        // \smash{\frac{a}{b}}: no height or depth, its ink above and below.
        let smashed = r.render(tex: #"\smash{\frac{a}{b}}"#)
        #expect(smashed.box.height == 0 && smashed.box.depth == 0)
        #expect(smashed.margins.top > 0.3 && smashed.margins.bottom > 0.3)
    }

    @Test func svgPlacesTheBoxInsideTheMargins() throws {
        let v = r.render(tex: "V")
        let svg = r.svg(v)
        let inspector = try #require(SVGInspector.inspect(svg))
        #expect(inspector.rootAttributes["width"] == String(format: "%g", (v.width * 100).rounded() / 100))
        #expect(svg.contains("transform=\"translate(2 "))     // 0.1 em at 20 px: the left margin is the padding
    }
}
