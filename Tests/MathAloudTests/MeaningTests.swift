import Foundation
import Testing
@testable import MathAloud

/// Readings of meaning (derivatives, vector calculus, vector and matrix operations, inner products,
/// transforms, probability): inferred in ClearSpeak, the literal reading one preference away
/// (`Meaning=Literal`), and never fired by look-alikes.
@Suite struct MeaningTests {
    /// The ClearSpeak speaker the tests share, and its words for a TeX formula as the corpus compares them.
    func clearSpeak() throws -> (speaker: Speaker, say: (String) -> String) {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        return (speaker, { normalizedSpeech(speaker.speak(tex: $0).text) })
    }

    static let inferred: [(String, String)] = [
        (#"\frac{d}{dx} f(x)"#, "the derivative with respect to x of f of x"),
        (#"\frac{dy}{dx}"#, "the derivative of y with respect to x"),
        // An upright d before an applied letter differentiates the application (not only the letter).
        (#"\frac{\mathrm{d}f(x)}{\mathrm{d}x}"#, "the derivative of f of x with respect to x"),
        (#"\frac{\mathrm{d}\varphi_t(s)}{\mathrm{d}s}"#, "the derivative of phi sub t of s with respect to s"),
        (#"\frac{d^2 y}{dx^2}"#, "the second derivative of y with respect to x"),
        (#"\frac{\partial^2 u}{\partial t^2}"#, "the second partial derivative of u with respect to t"),
        (#"\nabla f"#, "the gradient of f"),
        (#"\nabla (f - g)"#, "the gradient of open paren f minus g close paren"),
        (#"\mid x \mid = 3"#, "the absolute value of x equals 3"),
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
        (#"\mathbb{P}(X \le x)"#, "the probability of open paren x is less than or equal to x close paren"),
        // A derivative's variable with an index or a mark (Wirtinger's z*, a coordinate x^μ).
        (#"\frac{\partial f}{\partial z^*}"#, "the partial derivative of f with respect to z star"),
        (#"\frac{\partial}{\partial x^{\mu}}"#, "the partial derivative with respect to x superscript mu"),
        // A variable squared where the numerator has no order (not an order written on the variable).
        (#"\frac{\partial f}{\partial x^2}"#, "the partial derivative of f with respect to x squared"),
        // The norm's double bar typed as two single bars.
        (#"||x - y||"#, "the norm of x minus y"),
        (#"\operatorname{Var}(X)"#, "the variance of x"),
        (#"(-3, 4, 0)^T"#, "open paren negative 3 comma 4 comma 0 close paren transpose"),
        (#"x^\top y"#, "x transpose y"),
        // T on a vector that the product repeats: a quadratic form (the matrix before the repeated
        // vector in parentheses no function).
        (#"x^T A x"#, "x transpose a x"),
        (#"p_i^T R p_i"#, "p sub i transpose r p sub i"),
        (#"(x-\mu)^T \Sigma^{-1} (x-\mu)"#, "open paren x minus mu close paren transpose sigma inverse times open paren x minus mu close paren"),
        (#"(x-\mu)^T A (x-\mu)"#, "open paren x minus mu close paren transpose a times open paren x minus mu close paren"),
        (#"(x-\mu)^T Q (x-\mu)"#, "open paren x minus mu close paren transpose q times open paren x minus mu close paren"),
        (#"M_y^T"#, "m sub y transpose"),
        // A capital with an accent (an estimate, a mean), subscripted or not.
        (#"\hat{A}^T"#, "a hat transpose"),
        (#"\widehat{V}_1^{T}"#, "v hat sub 1 transpose"),
        (#"L^2(\Omega)"#, "l 2 of omega"),
        // An order of derivative in parentheses on an applied letter (Taylor's f^{(n)}(a)).
        (#"f^{(5)}(x)"#, "the fifth derivative of f of x"),
        (#"g^{(n)}(t)"#, "the n th derivative of g of t"),
        // Any small Latin letter applied with a count in parentheses (y^{(4)}(t) in an equation of order 4).
        (#"y^{(4)}(t)"#, "the fourth derivative of y of t"),
        // The count sign before a set: the number of its elements.
        (##"\#\{i : x_i > 0\}"##, "the cardinality of the set of all i such that x sub i is greater than 0"),
        // A function's signature, with either colon.
        (#"f \colon A \to B"#, "f from a to b"),
        (#"\pi : \mathcal{X} \longrightarrow B"#, "pi from script x to b"),
    ]

    /// Formulas that look like the ones above but mean something else: read as written.
    static let lookAlikes: [(String, String)] = [
        (#"d + x"#, "d plus x"),
        // The divides sign pairs around an absolute value only where no operand follows the pair
        // (`\mid x \mid = 3`, publishers' `<mo>∣</mo>`): divisibility, a condition and set-builder stay.
        (#"a \mid b \mid c"#, "a divides b divides c"),
        (#"3 \mid 12"#, "3 divides 12"),
        // So do the parallel bars around a norm: a chain of parallels stays one.
        (#"AB \parallel CD \parallel EF"#, "a b is parallel to c d is parallel to e f"),
        (#"P(A \mid B \mid C)"#, "p of open paren a given b given c close paren"),
        (#"\{x \mid x > 0\}"#, "the set of all x such that x is greater than 0"),
        // A colon between numbers (a ratio), before an element, and in set-builder notation.
        (#"3 : 4"#, "3 colon 4"),
        (#"g : x \to x^2"#, "g colon x right arrow x squared"),
        (#"\{x \colon x > 0\}"#, "the set of all x such that x is greater than 0"),
        // Braces right after a function's name group its argument (no set); after a letter or holding a
        // list they stay a set.
        (#"\exp\{-x^2\}"#, "exp of open brace negative x squared close brace"),
        (#"f\{x\} + \exp\{x, y\}"#, "f the set x plus exp of the set x comma y"),
        // `#` between two factors (a connected sum of manifolds) and as a script.
        (##"M \# N"##, "m number sign n"),
        (##"H_\#"##, "h sub number sign"),
        (##"\#3 + \#\sin x"##, "number sign 3 plus number sign sine x"),
        // Braces after a function's name with scripts on them, or inside a fraction in its argument, stay a set.
        (#"\exp\{a\} + \left\{x\right\}^2"#, "exp of open brace a close brace plus the set x squared"),
        (#"\exp \frac{\left\{a\right\}}{2}"#, "exp of the fraction with numerator the set a and denominator 2"),
        (#"a \equiv b \mathrm{~mod~} n"#, "a is congruent to b mod n"),
        (#"\arg\min f"#, "arg min of f"),
        (#"\frac{d}{2}"#, "d over 2"),
        (#"\frac{dt}{t}"#, "d t over t"),
        (#"T^2"#, "t squared"),
        (#"x^T"#, "x to the t th power"),
        // T on a letter before other factors, on a number, or before another vector stays a power.
        (#"x^T y"#, "x to the t th power y"),
        (#"2^T 2"#, "2 to the t th power 2"),
        (#"x^T B y"#, "x to the t th power b y"),
        // The same vector only in a named function's argument, inside a function's argument, with a
        // power on it, in another font, or a number in parentheses: no quadratic form.
        (#"(1+r)^T \ln(1+r)"#, "open paren 1 plus r close paren to the t th power l n of open paren 1 plus r close paren"),
        (#"(x-y)^T \sin f(x-y)"#, "open paren x minus y close paren to the t th power the sine of f of open paren x minus y close paren"),
        (#"(x-y)^T f(x-y)^2"#, "open paren x minus y close paren to the t th power f of open paren x minus y close paren squared"),
        (#"x^T A \mathbf{x}"#, "x to the t th power a bold x"),
        (#"(2)^T (2)"#, "2 to the t th power times 2"),
        // A spectroscopic term is no count of permutations: its index is a fraction.
        (#"{}^4P_{3/2}"#, "left super 4 p right sub 3 divided by 2"),
        (#"\hat{x}^T"#, "x hat to the t th power"),
        (#"x^{-1}"#, "x to the negative 1 power"),
        (#"3 \times 4"#, "3 times 4"),
        // Angle brackets holding a power, a function applied or a letter applied are a vector's
        // components, and so are any in an equation with a vector: no inner product.
        (#"\langle \cos t, \sin t\rangle"#, "left angle bracket cosine t comma sine t right angle bracket"),
        (#"\langle t, t^2\rangle"#, "left angle bracket t comma t squared right angle bracket"),
        (#"\langle x(t), y(t)\rangle"#, "left angle bracket x of t comma y of t right angle bracket"),
        (#"\mathbf{v} = \langle x, y\rangle"#, "bold v equals left angle bracket x comma y right angle bracket"),
        (#"\vec{a} = \langle a_1, a_2\rangle"#, "vector a equals left angle bracket a sub 1 comma a sub 2 right angle bracket"),
        (#"a \cdot b"#, "a times b"),
        (#"E[X]"#, "e of x"),
        (#"\mathbb{P} + P(A)"#, "double struck p plus p of a"),
        // Two absolute values subtracted inside one.
        (#"||x| - |y||"#, "the absolute value of the absolute value of x minus the absolute value of y"),
        (#"\langle x \rangle"#, "left angle bracket x right angle bracket"),
        (#"L\{1, 2\}"#, "l the set 1 comma 2"),
        (#"(1 + r)^T"#, "open paren 1 plus r close paren to the t th power"),
        (#"\gamma_{lm}^{\mathrm{T}}"#, "gamma sub l m superscript t"),
        (#"f^2(x)"#, "f squared of x"),
        (#"e^{\beta\mu}"#, "e raised to the beta mu power"),
        (#"x^{ab}"#, "x raised to the a b power"),
        (#"\sum_{d|n} d"#, "the sum over d divides n of d"),
        // An entry's adjoint or transpose, not an evaluation from i j to the mark.
        (#"[A]_{ij}^{\dagger}"#, "open bracket a close bracket sub i j dagger"),
        // A superscript index in parentheses on a letter not applied (the i-th sample), and orders
        // that are no derivative's (not a whole number).
        (#"x^{(i)}"#, "x superscript open paren i close paren"),
        (#"f^{(5)}"#, "f superscript open paren 5 close paren"),
        (#"f^{(1/2)}(x)"#, "f superscript open paren 1 divided by 2 close paren of x"),
        // A label in parentheses on a capital or a letter in a font (the Hankel function H^{(1)}).
        (#"H^{(1)}(x)"#, "h superscript open paren 1 close paren of x"),
        (#"\mathcal{H}^{(2)}(a)"#, "script h superscript open paren 2 close paren of a"),
        // A Greek letter's count in parentheses (an order of approximation as often as a derivative), a
        // letter in parentheses, and a power before a sum in parentheses (Bernstein's x^n(1 - x)).
        (#"\omega^{(2)}(k)"#, "omega superscript open paren 2 close paren of k"),
        (#"x^{(i)}(t)"#, "x superscript open paren i close paren of t"),
        (#"x^n(1-x)"#, "x to the n th power times open paren 1 minus x close paren"),
    ]

    /// A letter the formula applies to a simple argument is a function wherever it stands before
    /// parentheses (`T(n) = 2T(n/2) + n`; with a subscript or an accent, `ψ_0(a) - ψ_0(a+b)`), from TeX
    /// and from MathML; a letter never so applied keeps the product reading (`a(b+c) = ab + ac`).
    /// SimpleSpeak reads a letter before one argument or a list of arguments as applied to them (MathCAT's
    /// heuristic), and speaks the parentheses after a letter before a sum, a product, a sign or a condition
    /// (MathCAT's reading), unless the formula writes the same letter before a sum or a product elsewhere,
    /// which is an application: then both places read "of".
    @Test func aLetterAppliedToASumElsewhereReadsAlikeInSimpleSpeak() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "simplespeak")
        func say(_ tex: String) -> String { normalizedSpeech(speaker.speak(tex: tex).text) }
        #expect(say(#"P(A) = P(A \cap B)"#) == "cap p of cap eigh is equal to cap p of open paren cap eigh intersection cap b close paren")
        #expect(say(#"y(t) = h_1 x(t) + h_2 x(t-1)"#)
                == "y of t is equal to h sub 1 x of t plus h sub 2 x of open paren t minus 1 close paren")
        // One argument or a list of them is applied anyway; a condition (`P(A \mid B)`) or the place itself
        // (`c(-\log \psi)` holds three items but no other place does) is not without such a place.
        #expect(say(#"P(A)P(B)"#) == "cap p of cap eigh cap p of cap b")
        #expect(say(#"P(A \mid B) = P(A)"#) == "cap p open paren cap eigh given cap b close paren is equal to cap p of cap eigh")
        #expect(say(#"\rho(f_i(w), f(w)) < 1"#) == "rho of open paren f sub i of w comma f of w close paren is less than 1")
        #expect(say(#"c(-\log \psi)"#) == "c open paren negative the log of psi close paren")
        // A product with a sum stays one.
        #expect(say(#"a(b+c) = ab + ac"#) == "eigh open paren b plus c close paren is equal to eigh b plus eigh c")
    }

    /// In a function's argument, brackets that hold a function or a number end the argument: trigonometric identities
    /// as textbooks work them (`\sin x(\cos x)`, `\tan^2\theta(\frac{1}{\sec^2\theta})`) multiply, where the letter
    /// was read as a function applied to the brackets ("the sine of x of cosine x"). The look-alikes keep their
    /// readings: a wave's `\cos k(x - ct)` (the argument's product), an angle that is a function of time
    /// (`\sin\theta(t)`), and a letter that is no function's argument.
    @Test func bracketsHoldingAFunctionEndAFunctionsArgument() throws {
        let clear = try SpeakerCache.shared.speaker(style: "clearspeak")
        let simple = try SpeakerCache.shared.speaker(style: "simplespeak")
        #expect(clear.speak(tex: #"\sin x(\cos x)"#).text == "sine x times cosine x")
        #expect(simple.speak(tex: #"\sin x(\cos x)"#).text == "sine of x times cosine of x")
        #expect(clear.speak(tex: #"\tan x(1)"#).text == "tangent x times 1")
        #expect(clear.speak(tex: #"\tan^2\theta\left(\frac{1}{\sec^2\theta}\right)"#).text
                == "tangent squared theta times, open paren, 1 over secant squared theta, close paren")
        // From MathML, as publishers set it: the same.
        #expect(clear.speak(mathML: "<math><mi>sin</mi><mi>x</mi><mo>(</mo><mi>cos</mi><mi>x</mi><mo>)</mo></math>").text == "sine x times cosine x")
        // Look-alikes.
        #expect(clear.speak(tex: #"\cos k(x - ct)"#).text == "the cosine of k times, open paren, x minus c t, close paren")
        #expect(clear.speak(tex: #"\sin\theta(t)"#).text == "the sine of theta of t")
        #expect(clear.speak(tex: #"x(\cos x)"#).text == "x of cosine x")
    }

    @Test func aLetterAppliedElsewhereIsAFunctionThroughout() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(normalizedSpeech(speaker.speak(tex: #"T(n) = 2T(n/2) + n"#).text)
                == "t of n equals 2 t of open paren n divided by 2 close paren plus n")
        let mathML = "<math><mi>u</mi><mo>(</mo><mi>x</mi><mo>+</mo><mn>1</mn><mo>)</mo><mo>=</mo>"
            + "<mi>u</mi><mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow></math>"
        #expect(normalizedSpeech(speaker.speak(mathML: mathML).text) == normalizedSpeech(speaker.speak(tex: #"u(x+1) = u(x)"#).text))
        #expect(normalizedSpeech(speaker.speak(tex: #"u(x+1) = u(x)"#).text)
                == "u of open paren x plus 1 close paren equals u of x")
        #expect(normalizedSpeech(speaker.speak(tex: #"a(b+c) = ab + ac"#).text)
                == "a times open paren b plus c close paren equals a b plus a c")
        #expect(normalizedSpeech(speaker.speak(tex: #"x(a+b) + y(c)"#).text).hasPrefix("x times"))
        // A letter with a subscript is keyed with it: ψ₀ applied to a is a function before a + b too,
        // a₁ never applied keeps the product.
        #expect(normalizedSpeech(speaker.speak(tex: #"\psi_0(a) - \psi_0(a+b)"#).text)
                == "psi sub 0 of a minus psi sub 0 of open paren a plus b close paren")
        #expect(normalizedSpeech(speaker.speak(tex: #"a_1(b+c) = a_1 b + a_1 c"#).text)
                == "a sub 1 times open paren b plus c close paren equals a sub 1 b plus a sub 1 c")
        // So is a letter with an accent over it (ρ̄ applied to t); x̂ never applied keeps the product.
        #expect(normalizedSpeech(speaker.speak(tex: #"\bar\rho(t + \Delta t) = e^{K \Delta t} \bar\rho(t)"#).text)
                .hasPrefix("rho bar of open paren t plus delta t close paren"))
        #expect(normalizedSpeech(speaker.speak(tex: #"\hat x(a+b) = c"#).text).hasPrefix("x hat times"))
        // Square brackets as well: E applied to X is applied to a product of two variables too
        // (`E[XY] - E[X]E[Y]`, a covariance), from TeX and from MathML; a letter never so applied keeps
        // the product (`a[b + c]`).
        #expect(normalizedSpeech(speaker.speak(tex: #"E[XY] - E[X]E[Y]"#).text)
                == "e of x y minus e of x e of y")
        let bracketsML = "<math><mi>E</mi><mo>[</mo><mi>X</mi><mi>Y</mi><mo>]</mo><mo>-</mo>"
            + "<mi>E</mi><mrow><mo>[</mo><mi>X</mi><mo>]</mo></mrow><mi>E</mi><mrow><mo>[</mo><mi>Y</mi><mo>]</mo></mrow></math>"
        #expect(normalizedSpeech(speaker.speak(mathML: bracketsML).text) == normalizedSpeech(speaker.speak(tex: #"E[XY] - E[X]E[Y]"#).text))
        #expect(normalizedSpeech(speaker.speak(tex: #"a[b+c] = ab + ac"#).text)
                == "a times open bracket b plus c close bracket equals a b plus a c")
    }

    /// The expectation and the probability measure (a blackboard E or P) apply to whatever their brackets
    /// hold, a sum too, alone or with a subscript; a plain E or P before a sum in parentheses, and the
    /// literal reading, keep the product.
    @Test func expectationAndProbabilityApplyToSums() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let literal = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: ["Meaning": "Literal"])
        func say(_ tex: String, _ s: Speaker? = nil) -> String { normalizedSpeech((s ?? speaker).speak(tex: tex).text) }
        #expect(say(#"\mathbb{E}[X+Y]"#) == "the expected value of open bracket x plus y close bracket")
        #expect(say(#"\mathbb{E}_x[f(x) + 1]"#) == "the expected value sub x of open bracket f of x plus 1 close bracket")
        #expect(say(#"\mathbb{P}(A \cup B)"#) == "the probability of open paren a union b close paren")
        // Look-alikes: a plain E (an energy), E with a subscript, and the literal reading.
        #expect(say(#"E(x+y)"#) == "e times open paren x plus y close paren")
        #expect(say(#"E_0(x+y)"#) == "e sub 0 times open paren x plus y close paren")
        #expect(say(#"\mathbb{E}[X+Y]"#, literal) == "double struck e times open bracket x plus y close bracket")
    }

    /// A relation whose first term a quantifier binds qualifies the variable, without the verb of a
    /// statement ("for all epsilon greater than 0", "for all x in A"), from TeX and from MathML; the same
    /// relation alone keeps its verb.
    @Test func aQuantifiedVariableIsQualified() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let tex = #"\forall \epsilon > 0 \; \exists \delta > 0"#
        #expect(normalizedSpeech(speaker.speak(tex: tex).text) == "for all epsilon greater than 0 there exists delta greater than 0")
        let mathML = "<math><mo>∀</mo><mi>ϵ</mi><mo>&gt;</mo><mn>0</mn><mspace width='0.278em'/>"
            + "<mo>∃</mo><mi>δ</mi><mo>&gt;</mo><mn>0</mn></math>"
        #expect(normalizedSpeech(speaker.speak(mathML: mathML).text) == normalizedSpeech(speaker.speak(tex: tex).text))
        #expect(normalizedSpeech(speaker.speak(tex: #"\exists N \, \forall n \geq N"#).text)
                == "there exists n for all n greater than or equal to n")
        #expect(normalizedSpeech(speaker.speak(tex: #"\forall x \in A"#).text) == "for all x in a")
        #expect(normalizedSpeech(speaker.speak(tex: #"x \in A"#).text) == "x is a member of a")
        #expect(normalizedSpeech(speaker.speak(tex: #"\epsilon > 0"#).text) == "epsilon is greater than 0")
    }

    /// The letters of asymptotic notation (O, o, Θ, Ω, ω) and Γ apply to what their parentheses hold, a
    /// product too (`O(n \log n)`, `Γ(1 + α)`), as f does; another letter before a product in parentheses still
    /// multiplies it (Functions_Auto; the parentheses around a product factor are said), and O without
    /// parentheses is a letter.
    @Test func landauLettersApplyToTheirArgument() throws {
        let say = try clearSpeak().say
        #expect(say(#"f(n) = O(n \log n)"#) == "f of n equals o of open paren n log n close paren")
        #expect(say(#"T(n) = \Theta(n^2 \log n)"#).hasSuffix("equals theta of open paren n squared log n close paren"))
        #expect(say(#"\Omega(n k)"#) == "omega of n k")
        #expect(say(#"o(1)"#) == "o of 1")
        #expect(say(#"b(xy)"#) == "b times open paren x y close paren")
        #expect(say(#"O + (n k)"#) == "o plus n k")
        // Γ of Euler's function and of a decay width applies to a sum or a product too.
        #expect(say(#"\Gamma(1 + \alpha)"#) == "gamma of open paren 1 plus alpha close paren")
        #expect(say(#"\Gamma(i y)"#) == "gamma of i y")
        #expect(say(#"\Gamma + (i y)"#) == "gamma plus i y")
    }

    /// A letter with a star or dagger before parentheses applies as the letter would (x^*(t), φ^*(x),
    /// e_i^*(e_j), a^†(t)); before a product in parentheses it still multiplies.
    @Test func starredLettersApplyAsTheirBase() throws {
        let say = try clearSpeak().say
        #expect(say(#"x^*(t)"#) == "x star of t")
        #expect(say(#"\phi^*(x)"#) == "phi star of x")
        #expect(say(#"e_i^*(e_j) = \delta_{ij}"#) == "e sub i star of e sub j equals delta sub i j")
        #expect(say(#"z^*(z+1)"#) == "z star times open paren z plus 1 close paren")
        #expect(say(#"T^*M"#) == "t star m")
    }

    /// A letter with an index as its superscript (P^θ, c^k, R_T^π, L^{(m)}) before parentheses applies as
    /// the letter alone would (the argument decides, Functions_Auto): "superscript", not a power, the
    /// same from TeX and MathML; a number as the exponent, T (a transpose) and e stay powers.
    @Test func indexedLettersApplyAsTheLetterAlone() throws {
        let (speaker, say) = try clearSpeak()
        #expect(say(#"P^{\theta}(0, T)"#) == "p superscript theta of open paren 0 comma t close paren")
        #expect(say(#"c^k(t)"#) == "c superscript k of t")
        #expect(say(#"R_T^{\pi}(\Theta)"#) == "r sub t superscript pi of theta")
        #expect(say(#"\chi_d^t(C(G))"#) == "chi sub d superscript t of open paren c of g close paren")
        #expect(say(#"L_s^{(m)}(W, w)"#) == "l sub s superscript open paren m close paren of open paren w comma w close paren")
        let mathML = "<math><msup><mi>P</mi><mi>θ</mi></msup><mo>(</mo><mn>0</mn><mo>,</mo><mi>T</mi><mo>)</mo></math>"
        #expect(normalizedSpeech(speaker.speak(mathML: mathML).text) == say(#"P^{\theta}(0, T)"#))
        #expect(say(#"x^2(x+1)"#) == "x squared times open paren x plus 1 close paren")
        #expect(say(#"\tilde{\sigma}^0(u, \theta)"#) == "sigma tilde superscript 0 of open paren u comma theta close paren")
        #expect(say(#"x^1(1-x)"#) == "x to the first power times open paren 1 minus x close paren")
        #expect(say(#"A^T(x)"#) == "a transpose times x")
        #expect(say(#"e^{i}(t)"#) == "e to the i th power times t")
        let none = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: ["Functions": "None"])
        #expect(normalizedSpeech(none.speak(tex: #"c^k(t)"#).text) == "c to the k th power times t")
    }

    /// One Latin letter set upright in a superscript (`\mathrm{r}`, `mathvariant="normal"`) is a label
    /// ("E superscript r"), as a word is; an italic letter stays an exponent, and `T` and `H` keep
    /// their transpose readings.
    @Test func uprightLetterSuperscriptsAreLabels() throws {
        let (speaker, say) = try clearSpeak()
        #expect(say(#"E^{\mathrm{r}} = 2"#) == "e superscript r equals 2")
        #expect(say(#"\varphi^{\rm R} - \varphi^{\rm L}"#) == "phi superscript r minus phi superscript l")
        #expect(say(#"f_k^{\mathrm{i}}(t)"#) == "f sub k superscript i of t")
        let mathML = #"<math><msup><mi>E</mi><mi mathvariant="normal">r</mi></msup></math>"#
        #expect(normalizedSpeech(speaker.speak(mathML: mathML).text) == "e superscript r")
        // Look-alikes: an italic letter, an upright Greek capital, the transpose and the conjugate transpose.
        #expect(say(#"E^{r}"#) == "e to the r th power")
        #expect(say(#"x^{\Delta}"#) == "x to the delta th power")
        #expect(say(#"x^{\mathrm{T}}"#) == "x transpose")
        #expect(say(#"A^{\mathrm{H}}"#) == "a conjugate transpose")
    }

    /// ℜ and ℑ (`\Re`, `\Im`, a Fraktur R or I) applied to an argument are the real and the imaginary
    /// part, as `\operatorname{Re}` is, from TeX and MathML, in every locale's words; alone, and in
    /// MathSpeak, they are the letters.
    @Test func realAndImaginaryParts() throws {
        let (speaker, say) = try clearSpeak()
        #expect(say(#"\Re(z+w)"#) == say(#"\operatorname{Re}(z+w)"#))
        #expect(say(#"\Re(z+w)"#) == "real part of open paren z plus w close paren")
        #expect(say(#"\Im[f]"#) == "imaginary part of f")
        #expect(normalizedSpeech(speaker.speak(mathML: "<math><mi>ℜ</mi><mo>(</mo><mi>z</mi><mo>)</mo></math>").text) == "real part of z")
        #expect(say(#"\Re = |D|^2"#) == "german r equals the absolute value of d squared")
        #expect(say(#"\mathfrak{g}(x)"#) == "german g of x")
        let mathspeak = try SpeakerCache.shared.speaker(style: "mathspeak")
        #expect(mathspeak.speak(tex: #"\Re(z)"#).text == "German Upper R left-parenthesis z right-parenthesis")
        let de = try SpeakerCache.shared.speaker(locale: "de", style: "clearspeak")
        #expect(de.speak(tex: #"\Re(z+w)"#).text.hasPrefix("Realteil von"))
    }

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
                               "transform", "expected value", "probability", "variance", "dot", "cross", "cardinality"]

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
        // A charge of one is its sign alone: a sign before the count 1 is the power −1, so a similarity
        // transform of letters that are element symbols stays mathematics; charges stay charges.
        let clear = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(clear.speak(tex: "A = S^{-1}BS").text == "A equals S inverse B S")
        #expect(clear.speak(tex: "C=S^{-1}BS").text == "C equals S inverse B S")
        #expect(normalizedSpeech(terse.speak(tex: #"\mathrm{SO}_4^{2-}"#).text) == "cap s cap o 4 2 minus")
        #expect(normalizedSpeech(terse.speak(mathML: "<math><msup><mi>Na</mi><mo>+</mo></msup><msup><mi>Cl</mi><mo>-</mo></msup></math>").text)
                .hasPrefix("cap n eigh"))
    }

    /// Without counts, two or more two-letter element symbols written each as one identifier are a
    /// formula (a salt, an alloy), from MathML and from TeX alike; a state in parentheses after a
    /// formula is its state, as mhchem's `\ce` marks it. One-letter symbols without counts (`C O`),
    /// identifiers that are no element (`Re Im`) and parentheses after mathematics stay mathematics.
    @Test func saltsAndStatesWithoutCounts() throws {
        let terse = try SpeakerCache.shared.speaker(style: "simplespeak", preferences: ["Verbosity": "Terse"])
        #expect(normalizedSpeech(terse.speak(mathML: "<math><mi>Na</mi><mi>Cl</mi></math>").text) == "cap n eigh cap c l")
        #expect(normalizedSpeech(terse.speak(tex: #"\mathrm{Na}\mathrm{Cl}"#).text) == "cap n eigh cap c l")
        let aqueous = "<math><mi>Fe</mi><msub><mi>Cl</mi><mn>3</mn></msub><mrow><mo>(</mo><mi>aq</mi><mo>)</mo></mrow></math>"
        #expect(normalizedSpeech(terse.speak(mathML: aqueous).text) == "cap f e cap c l 3 aqueous")
        #expect(normalizedSpeech(terse.speak(tex: #"\mathrm{Fe}\mathrm{Cl}_3(\mathrm{aq})"#).text) == "cap f e cap c l 3 aqueous")
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let lookAlikes: [(String, String)] = [
            ("C O", "c o"),
            (#"\mathrm{Re}\,\mathrm{Im}"#, "real part of imaginary part"),
            (#"x_2 y (\mathrm{s})"#, "x sub 2 y of s"),
            (#"\mathrm{Na}\, x"#, "na x"),
        ]
        for (tex, expected) in lookAlikes {
            #expect(normalizedSpeech(speaker.speak(tex: tex).text) == expected, "\(tex)")
        }
    }

    /// Structural formulas, nuclides and chemical equations written as mathematics (no mhchem) read as
    /// chemistry from their structure, the same from TeX as from MathML and as mhchem's `\ce` reads
    /// them; differences, equations, arrows and pre-scripts of letters that only look like element
    /// symbols stay mathematics, and Meaning=Literal reads the chemistry as mathematics too.
    @Test func chemistryWithoutMhchemAndItsLookAlikes() throws {
        let (speaker, say) = try clearSpeak()
        func sayML(_ mathML: String) -> String { normalizedSpeech(speaker.speak(mathML: mathML).text) }
        let ethanol = "<math><mi>C</mi><msub><mi>H</mi><mn>3</mn></msub><mo>−</mo><mi>C</mi><msub><mi>H</mi><mn>2</mn></msub><mo>−</mo><mi>O</mi><mi>H</mi></math>"
        // Element capitals are said ("cap"): read letter by letter, case is what tells Co from CO.
        #expect(sayML(ethanol) == "cap c cap h sub 3 single bond cap c cap h sub 2 single bond cap o cap h")
        #expect(say("CH_3 - CH_2 - OH") == sayML(ethanol))
        #expect(say("CH_2 = CH_2") == "cap c cap h sub 2 double bond cap c cap h sub 2")
        #expect(say(#"HC \equiv CH_3"#).contains("triple bond"))
        #expect(say(#"2H_2 + O_2 \to 2H_2O"#) == "2 cap h sub 2 plus cap o sub 2 yields 2 cap h sub 2 cap o")
        #expect(say(#"\mathrm{Co}O_2"#) == "cap c o cap o sub 2" && say("CO_2") == "cap c cap o sub 2")
        let carbon14 = "<math><mmultiscripts><mi>C</mi><mprescripts/><mn>6</mn><mn>14</mn></mmultiscripts></math>"
        #expect(sayML(carbon14) == "c with mass number 14 and atomic number 6")
        #expect(say("{}^{14}_{6}C") == sayML(carbon14))
        #expect(say("{}^{14}_{6}C") == say(#"\ce{^{14}_{6}C}"#))
        #expect(say(#"{}^{14}_{6}C \to {}^{14}_{7}N + {}^{0}_{-1}e"#).hasSuffix("yields n with mass number 14 and atomic number 7 plus e with mass number 0 and atomic number negative 1"))
        // Look-alikes: letters that are element symbols, without counts, formulas or nuclide numbers.
        let lookAlikes: [(String, String)] = [
            ("C - H", "c minus h"),
            ("N = O", "n equals o"),
            ("P_2 - P_3", "p sub 2 minus p sub 3"),
            ("x_2 y - C", "x sub 2 y minus c"),
            (#"N \to \infty"#, "n approaches infinity"),
            (#"C \to H_2"#, "c right arrow h sub 2"),
            ("{}_{m}C_{j}", "m c j"),
            ("{}^{2}_{1}C", "left sub 1 left super 2 c"),
            ("{}^{n}P", "left super n p"),
        ]
        for (tex, expected) in lookAlikes { #expect(say(tex) == expected, "\(tex)") }
        let literal = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: ["Meaning": "Literal"])
        let literalText = normalizedSpeech(literal.speak(mathML: ethanol).text)
        #expect(!literalText.contains("bond"), "\(literalText)")
        #expect(!normalizedSpeech(literal.speak(tex: #"2H_2 + O_2 \to 2H_2O"#).text).contains("yields"))
    }

    /// An oxidation state written as mathematics (a Roman numeral on an element symbol, `Fe^{II}`) reads
    /// as mhchem's `\ce{Fe^{II}}` does, from MathML and from TeX, alone and in a formula; letters past IX,
    /// numerals on letters and one-letter numerals on one-letter symbols stay mathematics, and
    /// Meaning=Literal reads the superscript as written.
    @Test func oxidationStatesWithoutMhchemAndTheirLookAlikes() throws {
        let (speaker, say) = try clearSpeak()
        func sayML(_ mathML: String) -> String { normalizedSpeech(speaker.speak(mathML: mathML).text) }
        #expect(sayML("<math><msup><mi>Fe</mi><mi>II</mi></msup></math>") == say(#"\ce{Fe^{II}}"#))
        #expect(say(#"\mathrm{Fe}^{\mathrm{II}}"#) == "fe oxidation state 2")
        #expect(sayML("<math><mmultiscripts><mi>Mn</mi><none/><mi>VII</mi></mmultiscripts></math>") == "mn oxidation state 7")
        #expect(sayML("<math><msup><mi>Cu</mi><mi mathvariant=\"normal\">I</mi></msup></math>") == "cu oxidation state 1")
        #expect(sayML("<math><msup><mi>Fe</mi><mi>III</mi></msup><msub><mi>Cl</mi><mn>3</mn></msub></math>")
                == "cap f e oxidation state 3 cap c l sub 3")
        let lookAlikes: [(String, String)] = [
            ("<math><msup><mi>Fe</mi><mi>X</mi></msup></math>", "fe to the x th power"),
            ("<math><msup><mi>x</mi><mi>II</mi></msup></math>", "x superscript ii"),
            ("<math><msup><mi>Y</mi><mi>V</mi></msup></math>", "y to the v th power"),
            ("<math><msup><mi>Cu</mi><mi>I</mi></msup></math>", "cu to the i th power"),
            ("<math><msup><mi>Xy</mi><mi>II</mi></msup></math>", "xy superscript ii"),
        ]
        for (mathML, expected) in lookAlikes { #expect(sayML(mathML) == expected, "\(mathML)") }
        let literal = try SpeakerCache.shared.speaker(style: "clearspeak", preferences: ["Meaning": "Literal"])
        #expect(normalizedSpeech(literal.speak(mathML: "<math><msup><mi>Fe</mi><mi>II</mi></msup></math>").text) == "fe superscript ii")
    }

    /// Ions, compounds written as one word and states written as mhchem sets them, without mhchem: an
    /// ion alone (`\mathrm{SO}_4^{2-}`, and MathJax's MathML of `\ce{SO4^2+}` with each script on a
    /// padded phantom) reads as in a formula, a word of element symbols element by element, and one
    /// element before an upright state (`2\mathrm{Na}(\mathrm{s})`) is a formula with its state.
    /// Negative powers of units (`\mathrm{GeV}^{-2}`), letters with a sign (`H^+`) and an italic state
    /// letter (`H_2(g)`, `B(s)`: arguments as often) stay mathematics.
    @Test func ionsWordsOfElementsAndStatesWithoutMhchem() throws {
        let (speaker, say) = try clearSpeak()
        func sayML(_ mathML: String) -> String { normalizedSpeech(speaker.speak(mathML: mathML).text) }
        #expect(say(#"\mathrm{SO}_4^{2-}"#) == "cap s cap o sub 4 super 2 minus")
        let phantom = "<mrow><mpadded width='0'><mphantom><mi>A</mi></mphantom></mpadded></mrow>"
        let mathJax = "<math><mi>SO</mi><msub>\(phantom)<mn>4</mn></msub><msup>\(phantom)<mrow><mn>2</mn><mo>+</mo></mrow></msup></math>"
        #expect(sayML(mathJax) == "cap s cap o sub 4 super 2 plus")
        #expect(sayML("<math><msup><mi>Na</mi><mo>+</mo></msup></math>") == "cap n a super plus")
        #expect(say(#"\mathrm{H_2SO_4}"#) == "cap h sub 2 cap s cap o sub 4")
        #expect(say(#"2\mathrm{Na}(\mathrm{s}) + \mathrm{H}_2(\mathrm{g})"#) == "2 cap n a solid plus cap h sub 2 gas")
        let lookAlikes: [(String, String)] = [
            (#"\mathrm{GeV}^{-2}"#, "ge v to the negative 2 power"),
            ("H^+", "h plus"),
            ("H_2(g)", "h sub 2 of g"),
            ("B(s)", "b of s"),
            (#"\mathrm{NaN}"#, "na n"),
            (#"x\,\mathrm{NaN}_2"#, "x na n sub 2"),
        ]
        for (tex, expected) in lookAlikes { #expect(say(tex) == expected, "\(tex)") }
        // MathJax's mhchem equilibrium: each species' parts and state joined by invisible separators,
        // the arrow two harpoons drawn from pieces.
        func upright(_ e: String) -> String { "<mi mathvariant='normal'>\(e)</mi>" }
        let gas = "<mrow><mo>(</mo>\(upright("g"))<mo>)</mo></mrow>"
        let arrow = "<mover><mrow><mo>↽</mo><mo>-</mo></mrow><mrow><mo>-</mo><mo>⇀</mo></mrow></mover>"
        let equilibrium = "<math><mmultiscripts>\(upright("H"))<mn>2</mn><none/></mmultiscripts><mo>&#x2063;</mo>\(gas)"
            + "<mo>+</mo><mmultiscripts>\(upright("I"))<mn>2</mn><none/></mmultiscripts><mo>&#x2063;</mo>\(gas)"
            + "\(arrow)<mn>2</mn><mrow>\(upright("H"))<mo>&#x2063;</mo>\(upright("I"))<mo>&#x2063;</mo>\(gas)</mrow></math>"
        #expect(sayML(equilibrium) == "cap h sub 2 gas plus cap i sub 2 gas forms an equilibrium with 2 cap h cap i gas")
        #expect(sayML("<math>\(arrow)</math>") == "right harpoon over left harpoon")
        #expect(sayML("<math><mover><mi>x</mi><mo>⇀</mo></mover></math>") == "x right harpoon with barb up")
        #expect(sayML("<math><mi>C</mi><mo>&#x2063;</mo><mi>H</mi></math>") == "c h")
        // Counted words of element symbols (also written as text, as MathJax 2 writes mhchem's) are
        // compounds between equilibrium arrows, which mathematics does not draw; not between others.
        #expect(say(#"2\mathrm{SO}_2 + \mathrm{O}_2 \rightleftharpoons 2\mathrm{SO}_3"#)
                == "2 so sub 2 plus cap o sub 2 forms an equilibrium with 2 so sub 3")
        #expect(say(#"2\text{SO}_2 + \text{O}_2 \rightleftharpoons 2\text{SO}_3"#).contains("forms an equilibrium with"))
        #expect(say(#"\mathrm{SO}_2 \to \mathrm{SO}_3"#) == "so sub 2 right arrow so sub 3")
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
