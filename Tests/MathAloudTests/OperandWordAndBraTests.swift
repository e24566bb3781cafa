import Testing
@testable import MathAloud

/// Readings of the analysis found by the second English textbook sweep (Dive into Deep Learning, the
/// Qiskit textbook) and after it, each with look-alikes that keep their reading.
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
        (#"\int f\,d\mu(x, y)"#, "the integral of f, d mu of, open paren, x comma y, close paren"),
        (#"\int f\,dx\,(1, 2)"#, "the integral of f, d x times, open paren, 1 comma 2, close paren"),
    ])
    func measureApplied(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }

    /// `∃!` is "there exists a unique", written as two operators or one, from TeX or MathML; the mark
    /// after an operand is still a factorial. A predicate or function applied after a quantifier's
    /// variable is the formula it binds, not a function of the variable.
    @Test(arguments: [
        (#"\exists! x\,(x > 0)"#, "there exists a unique x, open paren, x is greater than 0, close paren"),
        (#"\exists x (P(x))"#, "there exists x, open paren, P of x, close paren"),
        (#"\forall x (f(x))"#, "for all x, f of x"),
        (#"\exists x!"#, "there exists x factorial"),
        (#"n! \exists"#, "n factorial there exists"),
    ])
    func uniqueExistence(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }

    /// Quantified clauses one after another are a list, with a pause between them; a quantifier after a
    /// bare variable (nothing said of it) stays in its clause. The relation after a quantified variable
    /// qualifies it, without "is"; a relation in parentheses after it is a statement, with "is".
    @Test(arguments: [
        (#"\forall \epsilon > 0 \, \exists \delta > 0"#, "for all epsilon greater than 0, there exists delta greater than 0"),
        (#"\forall \epsilon > 0\; \exists N\; \forall n \ge N: |a_n| < \epsilon"#,
         "for all epsilon greater than 0, there exists N for all n greater than or equal to N colon the absolute value of a sub n, is less than epsilon"),
        (#"\forall x \exists y (x < y)"#, "for all x there exists y, open paren, x is less than y, close paren"),
    ])
    func quantifiedClauses(_ tex: String, _ expected: String) throws {
        try Self.expectClearSpeak(tex, expected)
    }

    @Test func uniqueExistenceFromMathML() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        for mathML in ["<math><mo>∃</mo><mo>!</mo><mi>x</mi></math>", "<math><mo>∃!</mo><mi>x</mi></math>"] {
            #expect(speaker.speak(mathML: mathML).text == speaker.speak(tex: #"\exists! x"#).text, "\(mathML)")
            #expect(speaker.speak(mathML: mathML).text == "there exists a unique x", "\(mathML)")
        }
    }
}
