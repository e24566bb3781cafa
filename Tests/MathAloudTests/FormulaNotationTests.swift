import Testing
import MathAloud

/// ``FormulaNotation/detected(in:)``: the notation of an input given without one.
@Suite struct FormulaNotationTests {
    @Test(arguments: [
        "<math><mi>x</mi></math>",
        "  \n<math display=\"block\"><mi>x</mi></math>",
        "<math/>",
        "<m:math xmlns:m=\"http://www.w3.org/1998/Math/MathML\"><m:mi>x</m:mi></m:math>",
        "<mml:math\n  xmlns:mml=\"http://www.w3.org/1998/Math/MathML\"><mml:mi>x</mml:mi></mml:math>",
        "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?><!-- copied --><math><mn>1</mn></math>",
    ])
    func mathElementsAreMathML(_ input: String) {
        #expect(FormulaNotation.detected(in: input) == .mathml)
    }

    @Test(arguments: [
        "x < y", "<x", "<mathit", "<math-like>", "<:math>", "<1:math>", "<a:b:math>", "\\langle math \\rangle",
        "<!-- never closed <math>", "<?xml version=\"1.0\"", "", "<", "<mi>x</mi>",
    ])
    func everythingElseIsTeX(_ input: String) {
        #expect(FormulaNotation.detected(in: input) == .tex)
    }
}
