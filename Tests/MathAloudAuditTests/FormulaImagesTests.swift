import Testing
import MathAloudAudit

/// The TeX a formula image's URL holds.
@Suite struct FormulaImagesTests {
    /// codecogs's editor writes `&space;` and `&plus;` in its URLs (found on a real README by the
    /// documents sweep: "a plus i b" was reported as a parse error), after its rendering options.
    @Test func codecogsSpacesAndPluses() {
        let src = "https://latex.codecogs.com/svg.latex?\\dpi{110}&space;a&space;&plus;&space;ib"
        #expect(FormulaImages.isFormula(src: src, alt: nil, attributes: [:]))
        #expect(FormulaImages.tex(src: src, alt: nil, attributes: [:]) == "a + ib")
        #expect(FormulaImages.tex(src: "https://latex.codecogs.com/png.latex?x%5E2%2By", alt: nil, attributes: [:]) == "x^2+y")
    }

    @Test func aServiceWithAQueryKey() {
        let src = "https://chart.googleapis.com/chart?cht=tx&chl=x%5E2+%2B+1"
        #expect(FormulaImages.tex(src: src, alt: nil, attributes: [:]) == "x^2 + 1")
    }
}
