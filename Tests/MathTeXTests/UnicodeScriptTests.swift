import Testing
import MathSyntax
@testable import MathTeX

/// Unicode superscript and subscript characters (`x²`, `10⁻³`, `aᵢⱼ`, `Aᵀ`) are the scripts they spell, as
/// unicode-math reads them: the same tree as `^{…}` and `_{…}`, a run of them one script.
@Suite struct UnicodeScriptTests {
    private func tree(_ tex: String) -> String {
        TeXParser().parse(tex).root.treeDump(ranges: false)
    }

    @Test(arguments: [
        ("x²", "x^{2}"), ("x⁴ + x₄", "x^{4} + x_{4}"), ("10⁻³", "10^{-3}"), ("xⁿ⁺¹", "x^{n+1}"),
        ("aᵢⱼ", "a_{ij}"), ("x₁₀", "x_{10}"), ("Aᵀ", "A^{T}"), ("Bᴴ", "B^{H}"), ("e⁽ⁱᵖ⁾", "e^{(ip)}"),
        ("yᵦ", "y_{β}"), ("x₁²", "x_{1}^{2}"), ("\\mathrm{m²}", "\\mathrm{m^{2}}"),
    ])
    func scriptCharactersAreScripts(_ unicode: String, _ tex: String) {
        #expect(tree(unicode) == tree(tex), "\(unicode)")
    }

    @Test func aScriptCharacterAfterAScriptIsADoubleScript() {
        let result = TeXParser().parse("x^2²")
        #expect(result.diagnostics.map(\.id) == ["tex.double-superscript"])
        // Text keeps the characters as they are.
        #expect(tree("\\text{x²}") != tree("\\text{x^{2}}"))
    }
}
