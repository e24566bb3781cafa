import Foundation
import Testing
@testable import MathAloud

/// Readings of meaning (derivatives, vector calculus, vector and matrix operations, inner products,
/// transforms, probability): inferred in ClearSpeak, the literal reading one preference away
/// (`Meaning=Literal`), and never fired by look-alikes.
@Suite struct MeaningTests {
    static let inferred: [(String, String)] = [
        (#"\frac{d}{dx} f(x)"#, "the derivative with respect to x of f of x"),
        (#"\frac{dy}{dx}"#, "the derivative of y with respect to x"),
        (#"\frac{d^2 y}{dx^2}"#, "the second derivative of y with respect to x"),
        (#"\frac{\partial^2 u}{\partial t^2}"#, "the second partial derivative of u with respect to t"),
        (#"\nabla f"#, "the gradient of f"),
        (#"\nabla \cdot \mathbf{E}"#, "the divergence of bold e"),
        (#"\nabla \times \mathbf{E}"#, "the curl of bold e"),
        (#"\nabla^2 u"#, "the laplacian of u"),
        (#"\vec a \cdot \vec b"#, "vector a dot vector b"),
        (#"\vec a \times \vec b"#, "vector a cross vector b"),
        (#"\mathbf{x}^T A \mathbf{x}"#, "bold x transpose a bold x"),
        (#"A^{-1}"#, "a inverse"),
        (#"A^\dagger"#, "a conjugate transpose"),
        (#"\langle u, v \rangle"#, "the inner product of u and v"),
        (#"\mathcal{L}\{f\}(s)"#, "the laplace transform of f evaluated at s"),
        (#"\mathbb{E}[X]"#, "the expected value of x"),
        (#"\Pr(A)"#, "the probability of a"),
        (#"\operatorname{Var}(X)"#, "the variance of x"),
    ]

    /// Formulas that look like the ones above but mean something else: read as written.
    static let lookAlikes: [(String, String)] = [
        (#"d + x"#, "d plus x"),
        (#"\frac{d}{2}"#, "d over 2"),
        (#"\frac{dt}{t}"#, "d t over t"),
        (#"T^2"#, "t squared"),
        (#"x^T"#, "x to the t th power"),
        (#"x^{-1}"#, "x to the negative 1 power"),
        (#"3 \times 4"#, "3 times 4"),
        (#"a \cdot b"#, "a times b"),
        (#"E[X]"#, "e of x"),
        (#"\langle x \rangle"#, "left angle bracket x right angle bracket"),
        (#"L\{1, 2\}"#, "l the set 1 comma 2"),
    ]

    @Test(arguments: inferred)
    func inferredReading(_ c: (String, String)) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(normalizedSpeech(speaker.speak(tex: c.0).text) == c.1, "\(c.0)")
    }

    @Test(arguments: lookAlikes)
    func lookAlikesAreLeftAlone(_ c: (String, String)) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(normalizedSpeech(speaker.speak(tex: c.0).text) == c.1, "\(c.0)")
    }

    static let meaningWords = ["derivative", "gradient", "divergence", "curl", "laplacian", "transpose", "inverse", "inner product",
                               "transform", "expected value", "probability", "variance", "dot", "cross"]

    /// SimpleSpeak reads the same meanings (its own words around them), leaves the look-alikes alone,
    /// and has the literal reading one preference away too.
    @Test(arguments: inferred)
    func inferredReadingInSimpleSpeak(_ c: (String, String)) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "simplespeak")
        let text = normalizedSpeech(speaker.speak(tex: c.0).text)
        for word in Self.meaningWords where c.1.contains(word) { #expect(text.contains(word), "\(c.0): \(text)") }
        let literal = try SpeakerCache.shared.speaker(style: "simplespeak", preferences: ["Meaning": "Literal"])
        let literalText = normalizedSpeech(literal.speak(tex: c.0).text)
        for word in Self.meaningWords where !c.0.contains("Pr") && !c.0.contains("Var") {
            #expect(!literalText.contains(word), "\(c.0) with Meaning=Literal: \(literalText)")
        }
    }

    @Test(arguments: lookAlikes)
    func lookAlikesAreLeftAloneInSimpleSpeak(_ c: (String, String)) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "simplespeak")
        let text = normalizedSpeech(speaker.speak(tex: c.0).text)
        for word in Self.meaningWords { #expect(!text.contains(word), "\(c.0): \(text)") }
    }

    /// Chemical formulas (element symbols with counts or charges) read each element letter by letter
    /// and their counts without "sub" in Terse SimpleSpeak; formulas that only look like them (a count
    /// of 1, letters that are no element) stay mathematics, and Meaning=Literal reads them so too.
    @Test func chemicalFormulasAndTheirLookAlikes() throws {
        let terse = try SpeakerCache.shared.speaker(style: "simplespeak", preferences: ["Verbosity": "Terse"])
        let ferricChloride = "<math><mi>Fe</mi><msub><mi>Cl</mi><mn>3</mn></msub></math>"
        #expect(normalizedSpeech(terse.speak(mathML: ferricChloride).text) == "cap f e cap c l 3")
        #expect(normalizedSpeech(terse.speak(tex: "H_2O").text) == "cap h 2 cap o")
        let medium = try SpeakerCache.shared.speaker(style: "simplespeak")
        for lookAlike in ["<math><mi>Fe</mi><msub><mi>Cl</mi><mn>1</mn></msub></math>",
                          "<math><mi>Fe</mi><msub><mi>Xy</mi><mn>3</mn></msub></math>"] {
            let text = normalizedSpeech(medium.speak(mathML: lookAlike).text)
            #expect(text.hasPrefix("fe "), "\(lookAlike): \(text)")
        }
        let literal = try SpeakerCache.shared.speaker(style: "simplespeak", preferences: ["Meaning": "Literal"])
        #expect(normalizedSpeech(literal.speak(mathML: ferricChloride).text).hasPrefix("fe cl"))
    }

    /// With Meaning=Literal nothing of the inferred vocabulary is said (a named function, `\Pr` or
    /// `\operatorname{Var}`, still says its own name).
    @Test(arguments: inferred.filter { !$0.0.contains("Pr") && !$0.0.contains("Var") })
    func literalReadingIsOnePreferenceAway(_ c: (String, String)) throws {
        let literal = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: ["Meaning": "Literal"])
        let text = normalizedSpeech(literal.speak(tex: c.0).text)
        for word in ["derivative", "gradient", "divergence", "curl", "laplacian", "transpose", "inverse", "inner product",
                     "transform", "expected value", "probability", "variance"] {
            #expect(!text.contains(word), "\(c.0) with Meaning=Literal: \(text)")
        }
    }
}
