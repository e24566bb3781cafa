import Foundation
import Testing
import MathAloud
@testable import MathAloudRender

/// What an image says about itself: the label's language (SVG `lang`, PDF `/Lang`), element ids that
/// do not collide between images, and warnings for what it cannot draw (a character no font has,
/// `\begin{CD}`).
@Suite struct ImageLanguageAndDiagnosticsTests {
    let r = Renderers.text

    func renderer(locale: String, font: String = "latin-modern") throws -> Renderer {
        var o = RenderOptions()
        o.font = font
        return try Renderer(options: o, speaker: try Speaker(locale: LocaleTag(locale)))
    }

    @Test func languageTags() throws {
        // The image's language is its speaker's locale as LocaleTag.bcp47 gives it; a locale written
        // POSIX-style is read as its tag when parsed, so `zh_tw` is Taiwanese Chinese, zh-TW.
        #expect(try renderer(locale: "zh_tw").render(tex: "x").language == "zh-TW")
        #expect(try renderer(locale: "EN-gb").render(tex: "x").language == "en-GB")
        #expect(r.render(tex: "x").language == "en")
    }

    @Test func svgCarriesTheSpeechLanguage() throws {
        let german = try renderer(locale: "de")
        let svg = german.svg(german.render(tex: "x^2"))
        let inspector = try #require(SVGInspector.inspect(svg))
        #expect(inspector.rootAttributes["lang"] == "de" && inspector.rootAttributes["xml:lang"] == "de")
        #expect(svg.contains(#" lang="de" xml:lang="de"><title id=""#))
        let chinese = try renderer(locale: "zh-cn")
        #expect(chinese.render(tex: "x").language == "zh-CN")
        #expect(chinese.svg(chinese.render(tex: "x")).contains(#" lang="zh-CN" xml:lang="zh-CN"><title "#))
    }

    @Test func pdfCatalogCarriesTheSpeechLanguage() throws {
        let german = try renderer(locale: "de")
        let f = german.render(tex: #"\frac{1}{2}"#)
        let pdf = try german.pdf(f)
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.contains("<< /Type /Catalog\n   /Lang (de)\n"))
        #expect(pdfHexString(after: "/Alt ", in: pdf) == f.label)
        #expect(pdfCrossReferenceProblems(pdf) == [])
        // Without a language the catalog is cairo's.
        var unknown = f
        unknown.language = nil
        let plain = try german.pdf(unknown)
        #expect(!String(decoding: plain, as: UTF8.self).contains("/Lang"))
        #expect(pdfCrossReferenceProblems(plain) == [])
    }

    /// The id prefix of an SVG (`ma…` before `-title`).
    func idPrefix(_ svg: String) -> String {
        guard let r = svg.range(of: #"aria-labelledby=""#), let end = svg[r.upperBound...].range(of: "-title") else { return "" }
        return String(svg[r.upperBound..<end.lowerBound])
    }

    @Test func idsDifferBetweenLocalesAndFontsAndRepeatForTheSameImage() throws {
        let english = try renderer(locale: "en"), german = try renderer(locale: "de"), pagella = try renderer(locale: "en", font: "pagella")
        let tex = #"\frac{a}{b}"#
        let en = idPrefix(english.svg(english.render(tex: tex)))
        let de = idPrefix(german.svg(german.render(tex: tex)))
        let pg = idPrefix(pagella.svg(pagella.render(tex: tex)))
        #expect(en.hasPrefix("ma") && de.hasPrefix("ma") && pg.hasPrefix("ma"))
        #expect(Set([en, de, pg]).count == 3)
        // The same formula, label, language and font: the same ids (they define the same elements).
        #expect(idPrefix(english.svg(english.render(tex: tex))) == en)
        // Another label (a template) is another title: other ids.
        var o = RenderOptions()
        o.labelTemplate = "Math: {speech}"
        let templated = try Renderer(options: o, speaker: try Speaker(locale: "en"))
        #expect(idPrefix(templated.svg(templated.render(tex: tex))) != en)
        // A caller's prefix is used as it is; characters ids cannot hold become `_`.
        #expect(idPrefix(english.svg(english.render(tex: tex), idPrefix: "eq-1.a_b")) == "eq-1.a_b")
        let odd = english.svg(english.render(tex: tex), idPrefix: #"a"b <é>"#)
        #expect(idPrefix(odd) == "a_b____")
        #expect(SVGInspector.inspect(odd) != nil)
        #expect(Renderer.isValidIDPrefix("eq-1.a_b") && !Renderer.isValidIDPrefix("") && !Renderer.isValidIDPrefix("a b"))
        #expect(!Renderer.isValidIDPrefix(String(repeating: "a", count: 65)))
    }

    @Test func characterNoFontHasIsReportedOncePerCharacter() {
        // Latin Modern, its text fonts and DejaVu Serif have no CJK: blank space and one warning per
        // character, at the character.
        let tex = #"\text{数学} + \text{数}"#
        let f = r.render(tex: tex)
        let missing = f.diagnostics.filter { $0.id == .renderMissingGlyph }
        #expect(missing.map(\.range) == [SourceRange(6, 9), SourceRange(9, 12)])
        #expect(missing.map(\.message) == [
            "no font has '数' (U+6570 CJK UNIFIED IDEOGRAPH-6570); it is drawn as blank space",
            "no font has '学' (U+5B66 CJK UNIFIED IDEOGRAPH-5B66); it is drawn as blank space",
        ])
        #expect(missing.allSatisfy { $0.severity == .warning })
        #expect(DiagnosticID.renderMissingGlyph.info?.severity == .warning)
        // The document path (label already made) reports it too.
        let parsed = r.speaker.parser.parse(tex, notation: .tex)
        let again = r.render(parsed, display: false, label: "x", speech: "x")
        #expect(again.diagnostics.filter { $0.id == .renderMissingGlyph }.map(\.range) == [SourceRange(6, 9), SourceRange(9, 12)])
        // Nothing is missing: no warning.
        #expect(!r.render(tex: #"\text{abc} + x"#).diagnostics.contains { $0.id == .renderMissingGlyph })
    }

    @Test func cyrillicComesFromTheFallbackFontWhenInstalled() throws {
        let f = r.render(tex: #"\text{Жизнь} + Б"#)
        let glyphs = f.box.drawList(color: .black).compactMap { item -> GlyphRef? in
            if case let .glyph(g, _, _, _) = item { return g }
            return nil
        }
        if r.fonts.fallbackFace != nil {
            // Latin Modern has no Cyrillic: the fallback face draws all six letters, nothing is reported.
            #expect(glyphs.filter { $0.font == .textFallback && $0.glyph != 0 }.count == 6)
            #expect(!f.diagnostics.contains { $0.id == .renderMissingGlyph })
        } else {
            #expect(f.diagnostics.filter { $0.id == .renderMissingGlyph }.count == 6)
        }
    }

    @Test func commutativeDiagramIsReported() {
        let tex = #"\begin{CD} A @>a>> B \end{CD}"#
        let f = r.render(tex: tex)
        let warning = f.diagnostics.first { $0.id == "tex.unsupported-environment" }
        #expect(warning?.severity == .warning)
        #expect(warning?.range == SourceRange(0, 25))
        #expect(warning?.message == #"\begin{CD} (a commutative diagram) is not supported: its arrows are read and drawn as the characters '@', '>', 'V'…"#)
        // What is drawn and said is the body's characters, as before.
        #expect(f.label == "A at is greater than a is much greater than B")
        #expect(!f.diagnostics.contains { $0.severity == .error })
    }
}

/// Text-mode accents over dotless letters and letters the text font has no precomposed form of.
@Suite struct TextAccentTests {
    let r = Renderers.text

    /// The text glyphs of a formula: glyph, x, y (em) and the glyph's metrics.
    func glyphs(_ tex: String) -> [(glyph: GlyphRef, x: Double, y: Double, metrics: GlyphMetrics)] {
        r.render(tex: tex).box.drawList(color: .black).compactMap { item in
            guard case let .glyph(g, x, y, _) = item else { return nil }
            return (g, x, y, r.fonts.face(g.font).metrics(g.glyph))
        }
    }

    @Test func dotlessLetterKeepsItsAccentWhenNoPrecomposedFormExists() {
        // No j with acute exists: the dotless ȷ keeps the mark (a dotted j showed its dot under the
        // accent); where the two compose, the dotted letter is the composed one (í, ǰ).
        let parse = { (tex: String) in r.speaker.parser.parse(tex, notation: .tex).root.children.first }
        #expect(parse(#"\text{\'\j}"#)?.kind == .text("\u{237}\u{301}", variant: nil))
        #expect(parse(#"\text{\`{\j}}"#)?.kind == .text("\u{237}\u{300}", variant: nil))
        #expect(parse(#"\text{\'\i}"#)?.kind == .text("í", variant: nil))
        #expect(parse(#"\text{\v\j}"#)?.kind == .text("ǰ", variant: nil))
        // Drawn: the dotless j of the text font, and the acute's ink centred over its box.
        let g = glyphs(#"\text{\'\j}"#)
        let text = r.fonts.face(.text)
        #expect(g.count == 2)
        #expect(g.first?.glyph.glyph == text.glyph(for: 0x237))
        if g.count == 2 {
            let base = g[0], mark = g[1]
            let centre = mark.x + (mark.metrics.inkLeft + mark.metrics.inkRight) / 2 * mark.glyph.size
            #expect(abs(centre - (base.x + base.metrics.advance * base.glyph.size / 2)) < 1e-9)
            // Raised by what ȷ stands above the x-height (0.442 − 0.431 em), as TeX's \accent does.
            #expect(abs(mark.y - max(0, base.metrics.height - (text.xHeight ?? 0))) < 1e-9 && mark.y < 0.02)
        }
        #expect(!r.render(tex: #"\text{\'\j}"#).diagnostics.contains { $0.id == .renderMissingGlyph })
    }

    @Test func precomposedLetterTheTextFontLacksIsItsLetterAndMark() throws {
        // Latin Modern Roman has no Ȧ (U+0226) but has A and the combining dot: they are drawn from it (not
        // from the fallback face), the dot centred over the A and raised by A's height above the x-height.
        let text = r.fonts.face(.text)
        #expect(text.glyph(for: 0x226) == nil)
        let g = glyphs(#"\text{\.A}"#)
        #expect(g.map(\.glyph.font) == [.text, .text])
        #expect(g.first?.glyph.glyph == text.glyph(for: 0x41))
        if g.count == 2 {
            let base = g[0], mark = g[1]
            let centre = mark.x + (mark.metrics.inkLeft + mark.metrics.inkRight) / 2 * mark.glyph.size
            #expect(abs(centre - base.metrics.advance / 2) < 1e-9)
            let xHeight = try #require(text.xHeight)
            #expect(abs(mark.y - (base.metrics.height - xHeight)) < 1e-9)
        }
    }
}
