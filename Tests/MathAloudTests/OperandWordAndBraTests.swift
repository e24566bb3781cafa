import Testing
@testable import MathAloud

/// Readings of the analysis found by the second English textbook sweep (Dive into Deep Learning, the
/// Qiskit textbook), each with look-alikes that keep their reading.
@Suite struct OperandWordAndBraTests {
    /// `tex` in English ClearSpeak says `expected`.
    static func expectClearSpeak(_ tex: String, _ expected: String) throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.speak(tex: tex).text == expected, "\(tex)")
    }

    /// A text word an operator stands next to is an operand of it, not a word between clauses: the
    /// sum goes on ("plus", not a sign); a word between two clauses still separates them.
    @Test(arguments: [
        (#"p = w \cdot \text{area} + v \cdot \text{age}"#, "p equals w times area plus v times age"),
        (#"p = 2\text{ apples} + 3\text{ pears}"#, "p equals 2 apples plus 3 pears"),
        (#"x = 2 \text{ or } x = -2"#, "x equals 2 or x equals negative 2"),
        (#"x = 2 \text{ or } -2"#, "x equals 2 or negative 2"),
        (#"f(x) = x^2 \text{ for } x > 0"#, "f of x equals x squared for x is greater than 0"),
    ])
    func wordsNextToOperatorsAreOperands(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }

    /// A bra that nothing after it closes is a bra before what follows it (a projector applied, `|0⟩⟨0|X`),
    /// as it is at the end of the row; a matrix element keeps its reading.
    @Test(arguments: [
        (#"|0\rangle\langle 0|X"#, "ket 0, bra 0, X"),
        (#"|0\rangle\langle 0|"#, "ket 0, bra 0"),
        (#"\langle 0|X|1\rangle"#, "bra 0, X, ket 1"),
        (#"\langle \psi | \phi \rangle"#, "bra psi, ket phi"),
    ])
    func braBeforeAnOperand(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }

    /// e is Euler's number, never a function: e^{-1} before parentheses is a power times the group, as
    /// e^2 is; a function letter's inverse is still applied.
    @Test(arguments: [
        (#"e^{-1}(1+x)"#, "e to the negative 1 power times, open paren, 1 plus x, close paren"),
        (#"e^{2}(1+x)"#, "e squared times, open paren, 1 plus x, close paren"),
        (#"f^{-1}(x)"#, "f inverse of x"),
    ])
    func eIsNoFunction(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }

    /// After an integrand, a letter applied to its variable in parentheses that end the integral is the
    /// measure the integral is taken against (d of p of x); right after the sign, or around more than a
    /// variable, the group is a factor of the integrand.
    @Test(arguments: [
        (#"\int x \, dp(x)"#, "the integral of x, d p of x"),
        (#"\int_\Omega f\,dP(\omega)"#, "the integral over Omega of f, d P of omega"),
        (#"\int f\,dx\,(1+x)"#, "the integral of f, d x times, open paren, 1 plus x, close paren"),
        (#"\int dx\,(1+x)"#, "the integral of d x, open paren, 1 plus x, close paren"),
        (#"\int g(x)\,dx"#, "the integral of g of x, d x"),
    ])
    func measureApplied(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }
}
