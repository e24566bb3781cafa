import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// Layout rules checked as properties (TeXbook Appendix G on OpenType MATH constants).
@Suite struct RenderLayoutTests {
    let r = Renderers.text
    var c: MathConstants { r.fonts.math.constants }

    @Test func fontLoadsWithMathTable() throws {
        let font = r.fonts.math
        #expect(font.face.unitsPerEm == 1000)
        #expect(abs(c.axisHeight - 0.25) < 0.001)
        #expect(c.scriptPercentScaleDown == 0.7)
        #expect(c.scriptScriptPercentScaleDown == 0.5)
        // Outlines: Latin Modern Math is CFF (cubic).
        let x = try #require(font.face.glyph(for: 0x1D465))
        let outline = font.face.outline(x)
        #expect(outline.contains { if case .cubic = $0 { return true }; return false })
        // `(` has size variants and a three-part assembly; `∫` two variants and no assembly.
        let paren = try #require(font.face.glyph(for: 0x28))
        #expect(font.variants(paren, vertical: true).count >= 7)
        #expect(font.assembly(paren, vertical: true).count == 3)
        let integral = try #require(font.face.glyph(for: 0x222B))
        #expect(font.variants(integral, vertical: true).count == 2)
    }

    @Test func scriptSizeGlyphsComeFromSsty() throws {
        let font = r.fonts.math
        let nominal = try #require(font.glyph(for: 0x32, scriptLevel: 0))
        let script = try #require(font.glyph(for: 0x32, scriptLevel: 1))
        #expect(nominal != script, "ssty=1 gives a script-size form of '2'")
    }

    @Test func superscriptIsRaisedAndSmaller() throws {
        let box = r.render(tex: "x^2").box
        #expect(box.children.count == 2)
        let sup = box.children[1]
        #expect(sup.y >= c.superscriptShiftUp - 0.001)
        if case .glyph(let g) = sup.box.content { #expect(g.size == 0.7) } else { Issue.record("superscript is not a glyph") }
    }

    @Test func crampedDenominatorLowersItsSuperscript() {
        let numerator = r.render(tex: #"\frac{x^2}{1}"#).box.children[0].box
        let denominator = r.render(tex: #"\frac{1}{x^2}"#).box.children[1].box
        #expect(denominator.children[1].y < numerator.children[1].y)
    }

    @Test func displayFractionIsTallerThanText() {
        let text = r.render(tex: #"\frac{a}{b}"#).box
        let display = Renderers.display.render(tex: #"\frac{a}{b}"#).box
        #expect(display.height > text.height)
        #expect(display.depth > text.depth)
    }

    @Test func interAtomSpacing() {
        // Thick space around a relation, medium around a binary operator, none around a unary minus.
        let relation = r.render(tex: "a=b").box
        let binary = r.render(tex: "a+b").box
        let unary = r.render(tex: "-b").box
        #expect(relation.children[1].x - relation.children[0].box.width > 0.27)
        let medium = binary.children[1].x - binary.children[0].box.width
        #expect(abs(medium - 4.0 / 18) < 0.001)
        #expect(unary.children[1].x == unary.children[0].box.width)
        // No medium space in script style.
        let script = r.render(tex: "x^{a+b}").box.children[1].box
        #expect(script.children[1].x == script.children[0].box.width)
    }

    @Test func delimitersGrowWithContent() {
        let small = r.render(tex: #"\left( x \right)"#).box
        let big = r.render(tex: #"\left( \frac{\frac{a}{b}}{\frac{c}{d}} \right)"#).box
        let huge = r.render(tex: #"\left( \begin{matrix} 1 \\ 2 \\ 3 \\ 4 \\ 5 \\ 6 \end{matrix} \right)"#).box
        #expect(big.children[0].box.height + big.children[0].box.depth > small.children[0].box.height + small.children[0].box.depth)
        // Six rows need the three-part assembly.
        #expect(huge.children[0].box.dump().contains("assembly"))
        #expect(huge.children[0].box.height + huge.children[0].box.depth >= huge.children[1].box.height + huge.children[1].box.depth - 0.501)
    }

    @Test func bigDelimiterSizesIncrease() {
        let sizes = [#"\big("#, #"\Big("#, #"\bigg("#, #"\Bigg("#].map { tex -> Double in
            let b = r.render(tex: tex).box
            return b.height + b.depth
        }
        #expect(sizes == sizes.sorted())
        #expect(Set(sizes).count == 4)
    }

    @Test func radicalCoversRadicandWithGap() {
        let box = r.render(tex: #"\sqrt{x}"#).box
        let rule = box.children.first { if case .rule = $0.box.content { return true }; return false }!
        let radicand = box.children.last!
        #expect(rule.y >= radicand.box.height + c.radicalVerticalGap - 0.001)
        #expect(abs(rule.box.height - c.radicalRuleThickness) < 0.001)
        #expect(box.height >= rule.y + rule.box.height + c.radicalExtraAscender - 0.001)
    }

    @Test func displayOperatorsUseLargerVariantsAndLimits() {
        let text = r.render(tex: #"\sum_{i=1}^n"#).box
        let display = Renderers.display.render(tex: #"\sum_{i=1}^n"#).box
        #expect(display.height + display.depth > text.height + text.depth)
        #expect(display.dump().hasPrefix("limits"))
        #expect(text.dump().hasPrefix("scripts"))
        #expect(Renderers.display.render(tex: #"\sum\nolimits_{i}"#).box.dump().hasPrefix("scripts"))
        // (`\sum\limits` in text style: the parser keeps movablelimits, so it is set as scripts.)
    }

    @Test func accentSitsOnBase() throws {
        let box = r.render(tex: #"\hat{x}"#).box
        #expect(box.children.count == 2)
        #expect(box.height > r.render(tex: "x").box.height)
        let wide = r.render(tex: #"\widehat{xxxx}"#).box
        #expect(wide.children[1].box.width > box.children[1].box.width)
    }

    @Test func tablesAlignAndCentreOnAxis() {
        let box = r.render(tex: #"\begin{array}{lr} a & bbb \\ ccc & d \end{array}"#).box
        #expect(abs((box.height - box.depth) / 2 - c.axisHeight) < 0.001)
        let taggedBox = Renderers.display.render(tex: #"\begin{align} a &= b \tag{7} \end{align}"#).box
        #expect(taggedBox.dump().contains("tagged"))
    }

    @Test func textUsesTheTextFont() {
        let box = r.render(tex: #"\text{if}"#).box
        #expect(box.dump().contains("text"))
        #expect(box.dump().contains(" text "))
    }

    /// A text font's accent (`\mathbf{\hat{x}}`) is a combining mark whose ink lies left of its origin:
    /// it is drawn with its ink over the letter's middle, not at the middle (which set it half off the
    /// letter); the box keeps TeX's measures (the letter's width).
    @Test func textFontAccentInkIsCentred() throws {
        let accented = r.render(tex: #"\mathbf{\hat{x}}"#)
        let plain = r.render(tex: #"\mathbf{x}"#)
        #expect(abs(accented.box.width - plain.box.width) < 1e-9)
        let marks = accented.box.drawList(color: .black).compactMap { item -> Double? in
            if case let .glyph(g, x, _, _) = item, g.character == 0x302 { return x }
            return nil
        }
        let x = try #require(marks.first)
        #expect(x > accented.box.width / 2, "the mark's origin is right of the middle, so that its ink is centred")
    }

    @Test func colourBoxAndPhantom() {
        #expect(r.render(tex: #"\color{red}{x}"#).box.dump().contains("color #ff0000"))
        #expect(r.render(tex: #"\boxed{x}"#).box.dump().contains("frame"))
        let phantom = r.render(tex: #"\phantom{xyz}"#)
        #expect(phantom.box.width > 1)
        #expect(phantom.box.drawList(color: .black).isEmpty)
    }

    @Test func badInputRendersWhatParsed() {
        let broken = r.render(tex: #"\frac{1}{"#)
        #expect(broken.diagnostics.containsError)
        #expect(broken.box.width > 0)
        let unknown = r.render(tex: #"x + \nosuchcommand"#)
        #expect(unknown.diagnostics.containsError)
        #expect(unknown.box.dump().contains("color #cc0000"))
        // Huge and deep input stays bounded.
        let deep = String(repeating: #"\sqrt{"#, count: 150) + "x" + String(repeating: "}", count: 150)
        #expect(r.render(tex: deep).box.isFinite)
        let wide = String(repeating: "x+", count: 20_000) + "x"
        #expect(r.render(tex: wide).box.isFinite)
        // Nesting near the parser's depth limit (200) lays out on a test thread's stack.
        let fractions = String(repeating: #"\frac{"#, count: 190) + "x" + String(repeating: "}{y}", count: 190)
        #expect(r.render(tex: fractions).box.isFinite)
        let fences = String(repeating: #"\left("#, count: 190) + "x" + String(repeating: #"\right)"#, count: 190)
        #expect(r.render(tex: fences).box.isFinite)
        let tall = #"\left("# + String(repeating: #"\frac{1}{"#, count: 100) + "x" + String(repeating: "}", count: 100) + #"\right)"#
        #expect(r.render(tex: tall).box.isFinite)
    }

    @Test func selectableFonts() throws {
        for family in MathFontFamily.allCases {
            guard family.mathFontFiles.contains(where: { FileManager.default.fileExists(atPath: $0) }) else { continue }
            var o = RenderOptions()
            o.font = family.rawValue
            let renderer = try Renderer(options: o, speaker: r.speaker)
            let f = renderer.render(tex: #"\frac{\sqrt{x^2+1}}{\left(a+b\right)} \text{ ok}"#)
            #expect(f.box.width > 2, "\(family)")
            #expect(svgLabelProblems(renderer.svg(f), label: f.label, source: f.source).isEmpty)
        }
        #expect(throws: RendererError.self) {
            var o = RenderOptions()
            o.font = "no-such-font"
            _ = try Renderer(options: o, speaker: r.speaker)
        }
    }

    @Test func concurrentRenderingIsConsistent() async {
        let inputs = [#"\frac{a}{b}"#, #"\sqrt[3]{x}"#, #"\sum_{i}^{n} x_i"#, #"\left(\begin{matrix}1&2\\3&4\end{matrix}\right)"#]
        let expected = inputs.map { r.svg(r.render(tex: $0)) }
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<32 {
                group.addTask {
                    let tex = inputs[i % inputs.count]
                    let renderer = Renderers.text
                    return renderer.svg(renderer.render(tex: tex)) == expected[i % inputs.count]
                }
            }
            for await same in group { #expect(same) }
        }
    }
}
