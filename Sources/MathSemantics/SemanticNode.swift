import MathSyntax

/// One node of the semantic tree: what a part of the formula *means*, independent of language
/// (DESIGN.md §4). Speech rules put words to these meanings; they never re-analyse the layout.
///
/// Children are addressed by role (``SemanticNode/Role``), so a rule can say `{numerator}` or
/// `{base}`. Properties carry the facts rules test (`common`, `simple`, `exponent-kind`…).
///
/// A node is an immutable reference (a final class): speaking and analysing pass nodes around a
/// great deal, and sharing them costs one reference count instead of copying every field.
/// Equality and hashing are structural.
public final class SemanticNode: Hashable, Sendable {
    /// What the node means.
    public let kind: SemanticKind
    /// The text of a leaf (a number's digits, an identifier, an operator's character, a function name);
    /// empty for most composites.
    public let text: String
    /// The children, each with its role.
    public let children: [SemanticNode]
    /// The role this node plays in its parent (set by the parent's constructor).
    public let role: Role
    /// Facts about the node for rules to test: flags (`true`), names and numbers as strings.
    public let properties: SemanticProperties
    /// Where the node came from in the source (nil for nodes without one).
    public let range: SourceRange?

    /// Creates a node.
    public init(_ kind: SemanticKind, text: String = "", children: [SemanticNode] = [], role: Role = .none,
                properties: SemanticProperties = [:], range: SourceRange? = nil) {
        self.kind = kind
        self.text = text
        self.children = children
        self.role = role
        self.properties = properties
        self.range = range
    }

    public static func == (a: SemanticNode, b: SemanticNode) -> Bool {
        if a === b { return true }
        return a.kind == b.kind && a.text == b.text && a.role == b.role && a.range == b.range
            && a.properties == b.properties && a.children == b.children
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(text)
        hasher.combine(role)
        hasher.combine(range)
        hasher.combine(properties)
        hasher.combine(children)
    }

    /// The same node playing another role (the node itself when it already plays it).
    public func withRole(_ role: Role) -> SemanticNode {
        if role == self.role { return self }
        return SemanticNode(kind, text: text, children: children, role: role, properties: properties, range: range)
    }

    /// The first child with `role`.
    public func child(_ role: Role) -> SemanticNode? { children.first { $0.role == role } }

    /// Whether the flag property `name` is set.
    public func has(_ name: String) -> Bool { properties[name] != nil && properties[name] != "false" }

    /// The role a child plays in its parent. Rules name children by these raw values.
    public struct Role: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name rule files use.
        public let rawValue: String
        /// A role named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A role written as a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The role's name.
        public var description: String { rawValue }

        /// No role: the root, or a node not yet placed in a parent.
        public static let none: Role = ""
        /// An item of a row, list, sum or product (in order).
        public static let item: Role = "item"
        /// An operator between operands (`+`, `=`), kept as a leaf child so rules can speak it (and a
        /// differential's raised mark, `d^3` of `d^3 x`).
        public static let `operator`: Role = "operator"
        /// The numerator of a fraction.
        public static let numerator: Role = "numerator"
        /// The denominator of a fraction.
        public static let denominator: Role = "denominator"
        /// The base of a power, subscript, primes, accent, stacked node or pre-scripts.
        public static let base: Role = "base"
        /// The exponent of a power (and the post-superscript of pre-scripts).
        public static let exponent: Role = "exponent"
        /// The subscript of a subscript node or pre-scripts.
        public static let `subscript`: Role = "subscript"
        /// The radicand of a root.
        public static let radicand: Role = "radicand"
        /// The index of a root.
        public static let index: Role = "index"
        /// The content inside fences, an absolute value, a norm…
        public static let content: Role = "content"
        /// An opening delimiter kept as a child (reserved; delimiters are properties today).
        public static let open: Role = "open"
        /// A closing delimiter kept as a child (reserved; delimiters are properties today).
        public static let close: Role = "close"
        /// The function of a function application (`f`, `sin`, `log`).
        public static let function: Role = "function"
        /// The argument of a function application or the operand of a prefix/postfix operator.
        public static let argument: Role = "argument"
        /// Lower and upper limits of a big operator, an integral, an interval, a limit.
        public static let lower: Role = "lower"
        /// See ``lower``.
        public static let upper: Role = "upper"
        /// The summand of a big operator, the integrand of an integral, the expression of a limit.
        public static let body: Role = "body"
        /// The `d x` part of an integral or derivative.
        public static let differential: Role = "differential"
        /// The variable of a derivative, a set-builder, a limit.
        public static let variable: Role = "variable"
        /// The condition of a set-builder or a case.
        public static let condition: Role = "condition"
        /// The mark of an accent, the label of a brace.
        public static let accent: Role = "accent"
        /// The label of a brace (kept as `upper`/`lower` today) or of a numbered row (`\tag`).
        public static let label: Role = "label"
        /// Rows and cells of matrices, cases and multi-line layouts.
        public static let row: Role = "row"
        /// See ``row``.
        public static let cell: Role = "cell"
        /// The whole number of a mixed number (and the digits before the bar of a repeating decimal);
        /// the quantity and unit of a measurement (and the scale of degrees, `25°C`).
        public static let whole: Role = "whole"
        /// See ``whole``.
        public static let quantity: Role = "quantity"
        /// See ``whole``.
        public static let unit: Role = "unit"
        /// Pre-subscript and pre-superscript (`{}_n C_k`).
        public static let presubscript: Role = "presubscript"
        /// See ``presubscript``.
        public static let presuperscript: Role = "presuperscript"
        /// The two sides of a bra-ket (`⟨φ|ψ⟩`: `bra` φ, `ket` ψ).
        public static let bra: Role = "bra"
        /// See ``bra``.
        public static let ket: Role = "ket"
    }
}

/// The meanings the semantic analysis recognises. Raw values are what rule files name.
public enum SemanticKind: String, Hashable, Sendable, CaseIterable {
    // Leaves
    /// A number as written (`42`, `3.14`, `1,000`). Properties: `integer`, `decimal`, `grouped` (commas and
    /// no point: `1,000`, `1{,}5`; digits grouped by commas in a row, `25,164,858`, are one number), `value` (integers
    /// below 10^9, without group separators), `digits` (how many digits are written), `font` for digits
    /// in an alphabet or an enclosure (`\mathbf{12}`, `𝟏𝟐`, `<mn mathvariant="bold">`: text `12`, font
    /// `bold`; `⑲` 19 `circled`, `⒉` 2 `full-stop`, `⁷` 7 `superscript`; see ``identifier``); `capitals`
    /// for a number written in two or more capital letters and nothing else (`<mn>IV</mn>`, a Roman numeral).
    /// A repeating decimal (`0.\overline{3}`, ClearSpeak "repeating decimal") is one number whose text
    /// is all its digits (`0.3`), with `repeating-decimal`, `repeating-digits` (`3`) and
    /// `repeating-count` (how many digits repeat), and children `whole` (the part before the bar, `0.`)
    /// and `item` (the digits under the bar).
    case number
    /// A letter or named identifier (`x`, `α`, `ℝ` with `variant`, `\mathrm{kg}`). Properties:
    /// `letter` (one letter), `greek`, `capital`, `variant` (MathML mathvariant), `set-name`
    /// (`naturals`, `integers`, `rationals`, `reals`, `complexes`) for double-struck N Z Q R C;
    /// `word` for a name of several letters that is not applied as a function (`T_{\mathrm{eff}}`).
    ///
    /// `font`: the letter's alphabet or enclosure, whatever wrote it — `\mathbf{x}`, `𝐱` and
    /// `<mi mathvariant="bold">x</mi>` are all the text `x` with font `bold`; `Ⓐ` is `A` `circled`, `ℓ`
    /// is `l` `script`. The values are MathML's mathvariant names where MathML has the alphabet
    /// (`bold`, `italic`, `bold-italic`, `double-struck`, `fraktur`, `bold-fraktur`, `script`,
    /// `bold-script`, `sans-serif`, `bold-sans-serif`, `sans-serif-italic`, `sans-serif-bold-italic`,
    /// `monospace`, `normal`), else the Unicode names' words (`double-struck-italic`, `circled`,
    /// `negative-circled`, `double-circled`, `circled-sans-serif`, `parenthesized`, `full-stop`,
    /// `comma`, `squared`, `negative-squared`, `superscript`, `subscript`, `fullwidth`, `turned`, …;
    /// ``UnicodeMath/alphabet(of:)``), and MathJax's `calligraphic`, `bold-calligraphic`. Italic on a
    /// letter is how letters are set, no font: `\mathit{x}` and `𝑥` have none (`𝛻`, `\mathit{0}` do).
    /// `blank` on a run of underscores written as one token (`<mo>___</mo>`), a blank to fill in.
    case identifier
    /// A function name read as a word (`sin`, `log`, `ln`, `lim`, `\operatorname{rank}`). Properties:
    /// `function-class` = `trig` | `hyperbolic` | `log` | `ln` | `exp` | `limit` | `named`.
    case functionName = "function-name"
    /// An operator or relation symbol on its own (a child with role `operator`, or stray). Properties:
    /// `class` (`bin`, `rel`, `punct`, …).
    case `operator`
    /// Text (`\text{if }`), trimmed; `unit-name` when it spells out a unit (`meters` → `m`), or names one
    /// as the unit of a measurement.
    case text
    /// An ellipsis: `…` `⋯` `⋮` `⋱` `⋰`. Property `direction` = `horizontal` | `vertical` | `diagonal` |
    /// `anti-diagonal`; `centered` for `⋯`.
    case ellipsis
    /// Something the analysis could not understand (an unknown command, an error node). Property
    /// `command` for an unknown command's name (without the backslash); text: the source.
    case unknown
    /// Nothing to say (an empty group, a phantom).
    case empty

    // Operations
    /// Operands joined by binary operators: children alternate `item` and `operator`
    /// (`a + b - c`). Property `operators` lists the distinct operator texts, space-separated, in order
    /// of appearance. All binary operators of one level share one node: the additive level holds
    /// `+ − ± ∓` and every other binary operator (`∪ ∩ ∖ ⊕ ∘ ∧ …`); the multiplicative level
    /// `× ÷ ⋅ * /` is a nested `infix`. An operand may be missing at either end (`x +`).
    case infix
    /// Terms joined by relations: children alternate `item` and `operator` (`a = b < c`). Property
    /// `operators` as on ``infix``; `has-modulo` when an operand is a ``modulo`` (`a \equiv b \pmod{m}`:
    /// ≡ reads "is congruent to"). An operator child may be a ``stacked`` relation
    /// (`\stackrel{def}{=}`, `\xrightarrow{f}`). An operand may be missing (a cell `&= b`).
    case relation
    /// Juxtaposed factors with no written operator (`3x`, `2(x+1)`, `ab`): children are `item`s,
    /// with an `operator` leaf U+2062 INVISIBLE TIMES (class `bin`) between each two, so rules can say
    /// "times" where ClearSpeak ImpliedTimes wants it (before a spoken fence…). Property
    /// `possible-function` on a letter followed by parentheses that ClearSpeak may read as a function
    /// (`k(5)`, `P(A)`, `E[X]`: exactly the letter, the operator and the ``fenced`` group; rules choose
    /// "k of 5" or "a times (b + c)" from the group's properties; `one-argument` with it when the group holds
    /// one argument or a list of them: `s(t)`, `u(x, t)`, not `b(xy)`), and `applied-elsewhere` with it when the
    /// formula writes the same letter before brackets holding a sum or a product (`P(A) = P(A ∩ B)/P(B)`,
    /// where that one is an ``application``). An invisible times written in MathML
    /// is this same operator. Property `chemical` on a chemical formula (`H_2O`, `SO_4^{2-}`: element
    /// symbols with counts or charges, see `ChemicalFormulas.swift`).
    case impliedTimes = "implied-times"
    /// A unary prefix operator. Children: `operator` (the symbol leaf, first) and `argument`. Property
    /// `operator` names it: `negative` (−),
    /// `positive` (+), `plus-minus` (±), `minus-plus` (∓), `not` (¬), `nabla` (∇ before an operand),
    /// `for-all` (∀), `exists` (∃), `exists-unique` (∃!), `not-exists` (∄), `angle` (∠), `measured-angle` (∡), `triangle`
    /// (△), `right-angle` (⊾). −, +, ±, ∓ take the following product (`-\frac12 t^2`); ¬ ∀ ∃ one
    /// factor; ∠ △ the letters after them.
    case prefix
    /// A sequence separated by commas or semicolons (`1, 2, 3`): children alternate `item` and
    /// `operator` (punctuation; U+2063 INVISIBLE SEPARATOR too). Between relations a text word is the
    /// separator (`x = 2 \text{ or } x = -2`: its `operator` child is the ``text``), and a wide space
    /// (`\quad`) separates without an operator child. Precedence: a row whose comma-separated parts
    /// hold two or more relations is a list of relations (`x = 1, y = 2`); otherwise relations bind
    /// loosest and their operands may be lists (`f(x) = 1, 2`, `x_1, x_2 \in A`). A full stop ending
    /// a formula is sentence punctuation: the formula is then a list of one item and the stop.
    case list
    /// A row the analysis did not structure further: children are `item`s. Also words around one
    /// relation (`\text{if } x < 0` → text, relation).
    case row

    // Fractions and scripts
    /// A fraction. Children: `numerator`, `denominator`. Properties (ClearSpeak Fractions_Auto):
    /// `common` when the numerator is an integer 1…19 and the denominator an integer 2…10 ("three
    /// fourths", "thirteen tenths"; `21/4`, `5/12`, `0/7` are not); `numerator-value` and
    /// `denominator-value` when they are integers (for Fractions_Ordinal); `simple-numerator`,
    /// `simple-denominator` when the part is one of ClearSpeak's simple expressions (a number, a letter,
    /// a negative number or letter, numbers and letters multiplied `3x`, a subscripted or primed
    /// letter, a text word, a function of a simple argument), where a common or simple fraction may
    /// be a factor; `contains-fraction` when a part holds a fraction and `fraction-depth` (1 when the
    /// parts hold fractions, 2 when those hold fractions… — MathSpeak's StartStartFraction; absent for
    /// 0; common fractions and fractions inside scripts do not count, MathSpeak Rules 7.1–7.3); `simple` when both parts are simple and hold no fraction ("3 x over 4 y"; with
    /// `contains-fraction`: "the fraction one half over three fourths"); `derivative` (`\frac{dy}{dx}`,
    /// `\frac{d}{dx}`), `partial-derivative`, `order` (for `d^2y/dx^2`); `linethickness-zero`;
    /// `continued` when the denominator goes on as a continued fraction, ending (after what it adds)
    /// with an ellipsis or with such a fraction (MathSpeak Rule 7.6).
    case fraction
    /// A whole number and a common fraction (`3\frac{1}{4}`). Children: `whole`, `item` (the fraction).
    /// Made for an integer followed directly by a fraction of two integers (`2\frac{x}{3}` and
    /// `2.5\frac{1}{2}` stay implied times).
    case mixedNumber = "mixed-number"
    /// A power. Children: `base`, `exponent`. Properties (ClearSpeak Exponents_Auto): `exponent-kind` =
    /// `squared` (2) | `cubed` (3) | `ordinal` (any other non-negative integer: "to the fourth power",
    /// "to the 0 power") | `negative-integer` ("to the negative 1 power") | `letter` (one Latin or Greek
    /// letter: "to the n-th power") | `symbol` (an operator or symbol alone: `\mathbb{Z}^+`, `A^*`,
    /// `x^\infty`) | `simple` ("raised to the … power": a decimal, a negative letter, a fraction with
    /// simple parts, a linear expression such as `n - 1`, something squared or cubed such as `x^2` or
    /// `-\frac12 t^2`) | `complex` ("raised to the exponent, …, end exponent": nested powers other
    /// than squared/cubed, a sum holding a power, roots, big operators, relations) | `label` (a word, a
    /// text or a named function that labels the base: `T^{\text{eff}}`, `p_T^{\max}`; a group in parentheses
    /// or brackets, `A^{(0)}`; a Latin and a Greek letter, `u_b^{e\mu}`; marks with nothing before the
    /// first or after the last, `D^{*0}`, `E_1^{4-}`, `K^{+-}`, `V^{\otimes n}`); `exponent-value` for
    /// integers (`-1` for negative ones); `nested` when the exponent contains a power; `scripted-base`
    /// when the base is a subscript written apart from the superscript (`{x_a}^b`, MathML
    /// `<msup><mrow><msub>…</msub></mrow>…</msup>`, not `x_a^b`); `base-repeats` when the exponent is a
    /// letter T or ⊤ and a later factor of the same product is the base again, or a parenthesised
    /// argument that is (`x^T A x`, `p_i^T p_i`, `(x-\mu)^T \Sigma^{-1}(x-\mu)`: a transpose in a
    /// quadratic form, not a power).
    case power
    /// A subscript. Children: `base`, `subscript`. Property `numeric` when the subscript is a number
    /// written with digits (an integer or a decimal).
    /// (`x_i^2` is a power whose base is the subscript.)
    case `subscript`
    /// Pre-scripts (`{}_n C_k`, `{}^{14}_{6}C`, `{}_2F_1`, MathML `mmultiscripts`). Children:
    /// `presubscript` and/or `presuperscript`, `base` (carrying its own scripts: `F_1` is a
    /// ``subscript``). A combination or permutation — one pre-script (the total: `{}_nP_k` or ⁿPₖ)
    /// and a subscript on C or P, nothing else — has property `combination` or `permutation` and its
    /// subscript as a `subscript` child instead. A nuclide (an element symbol with its mass number and, if written, its own
    /// atomic number: `{}^{14}_{6}C`) has flag `nuclide`.
    case prescripts
    /// A square root (child `radicand`) or a root with `index`. Properties: `square` (also `\sqrt[2]`),
    /// `index-value` for an integer index, `nested` and `root-depth` (levels of roots inside the
    /// radicand, absent for 0 — MathSpeak's NestedStartRoot) when the radicand holds another root.
    case root
    /// Primes after a base: child `base`; property `count` (1, 2, 3, 4). A letter with primes before
    /// parentheses is a function (`f'(x)`: an ``application`` whose function is the primes node).
    case primes
    /// A factorial: child `argument` (the preceding factor: `n!`, `(n+1)!`). Property `count` = 2 for
    /// a double factorial `n!!`.
    case factorial
    /// Degrees (`30^\circ`): child `quantity`. On the kelvin scale written with a ring (`300^\circ\mathrm{K}`)
    /// also a `unit` child and property `scale` = `kelvin`; degrees Celsius and Fahrenheit
    /// (`25^\circ\mathrm{C}`, `25^\circ\text{F}`) are a ``measurement`` in the unit `°C` or `°F`, as `25\,℃` is.
    case degrees
    /// Percent (`15\%`): child `quantity`.
    case percent
    /// A measurement: children `quantity` (a number, a power of a number, a fraction of numbers), `unit`
    /// (a text node with `unit-name`, or the prime operator). Properties `unit-name` (a normalised unit
    /// *symbol* key for the lexicon: `cm`, `kg`, `m/s`, `km/h`, `min`, `µm`, with powers as
    /// superscripts `cm²`, `m/s²`; a product's factors a space apart, `N m`, `kg m²/s²`, `J/kg K`;
    /// spelled-out units map to their symbol, `meters` → `m`),
    /// `unit-power` / `unit-power-denominator` (the 2 of `cm^2`, `m/s^2`; the unit node of a written
    /// power also has `unit-base`, the key of the unit raised: `cm` for `cm^2`),
    /// `singular` when the quantity is exactly 1. A number with primes (`6'`, `5' 4''`) is a measurement
    /// with `prime-unit` = `1` | `2` and `unit-name` `ft` / `in`; after degrees (`30^\circ 15'`) it has
    /// `after-degrees` and `unit-name` `′` / `″`, the keys of the minute and second of a
    /// degrees-minutes-seconds angle (not `arcmin` / `arcsec`, the units written as such, which
    /// locales may name differently: "arcminute"); ClearSpeak's Prime preference: rules may choose
    /// the other reading from `prime-unit`.
    ///
    /// A unit marked in MathML (`class="MathML-Unit"`, `intent=":unit"`) after a number is a
    /// measurement too, its `unit` child a ``unit``; a currency written before its amount (`$5`) is one
    /// with `unit-first`; a measurement over a unit (`\frac{5\,\mathrm{m}}{\mathrm{s}}`) is one in the
    /// quotient (`m/s`).
    case measurement
    /// A unit of measure marked as one in MathML (`<mi class="MathML-Unit">km</mi>`,
    /// `<mi intent=":unit">s</mi>`), or the unit of a measurement. Text: as written. Properties
    /// `unit-name` (the key a lexicon looks its words up by: the symbol, a full stop dropped, `µ` for
    /// micro, `sq ft` → `ft²`; absent when the symbol is not a known unit), `currency` for a currency
    /// sign. Products, powers and fractions of units keep their usual kinds (`km^2`: a ``power`` whose
    /// base is a unit), so rules can say "square kilometers" and "miles per hour".
    case unit

    // Fences
    /// Parentheses, brackets or other delimiters around content. Children: `content` (absent when
    /// empty). Properties: `open`, `close` (the delimiter characters; `""` for none), `stretchy`
    /// (`\left…\right`, `\big`), `nesting` (parentheses and brackets only: 1 outermost, 2 inside one,
    /// … — ClearSpeak Paren_SpeakNestingLevel), `items` (number of comma-separated items inside; 0 and
    /// `empty` when empty), `simple-content` (ClearSpeak simple expression inside), `content-kind` =
    /// `number` | `negative-number` | `letter` | `negative-letter` | `symbol` | `common-fraction` |
    /// `simple-fraction` | `simple-product` | `simple` | `other` (ClearSpeak Paren_Auto: silent around
    /// simple content; with an exponent only around a positive number or a common fraction:
    /// `silent-as-base` marks those two).
    case fenced
    /// `|x|` — children `content`. (Cardinality/determinant readings are a rule's choice.) Bars pair by
    /// position: a bar after an operand closes the innermost open bar (`|a||b|`, `2|y|`); bars left
    /// unpaired are relations (`a | b`, `P(A | B)`). Properties `open`, `close`, `stretchy` as on
    /// ``fenced`` (also on ``norm``, ``floor``, ``ceiling``, ``angleBrackets``).
    case absoluteValue = "absolute-value"
    /// `‖x‖`, also typed as two single bars each side (`||x||`: an absolute value holding only an
    /// absolute value).
    case norm
    /// `⌊x⌋`.
    case floor
    /// `⌈x⌉`.
    case ceiling
    /// An interval-shaped pair `(a, b]` etc.: children `lower`, `upper`; properties `open`, `close`,
    /// `lower-closed`, `upper-closed`, `lower-infinite`, `upper-infinite`. Whether it is read as an
    /// interval, a point or parenthesised list is the rules' choice (ClearSpeak Paren preference).
    /// Made for two comma-separated items, neither a relation, between `(`/`[` and `)`/`]`; after a
    /// function (`f(a, b)`) the same group is a plain ``fenced`` argument. Also `nesting`, `stretchy`.
    case interval
    /// A set written by listing: `\{1, 2, 3\}`; child `content` (a list or single item; absent when
    /// empty). Properties `empty` for `\{\}`, `items`, `open`, `close`.
    case set
    /// Set-builder notation `\{x \mid x > 0\}`: children `variable`, `condition`. Property
    /// `separator` (`|`, `∣` for `\mid`, or `:`), `open`, `close`. The first separator at the top level
    /// of the braces splits (so `\{n \in \mathbb{N} \mid n < 10\}` has the relation `n ∈ ℕ` as variable).
    case setBuilder = "set-builder"
    /// `⟨a, b⟩`: child `content`. Property `components` when the content is a vector's components, not
    /// an inner product's two vectors: a list of three children (two items and their comma) with a
    /// number, or a prefix operator on a number, on one side (`⟨1, 2⟩`, `⟨−2, 2 sin t⟩`, `⟨t, 1⟩`), or a
    /// fraction first and a fraction or a prefix expression last (the gradient `⟨∂f/∂x, ∂f/∂y⟩`; not
    /// `⟨u, v⟩`).
    case angleBrackets = "angle-brackets"
    /// Dirac notation. A ket `|ψ⟩` and a bra `⟨φ|`: child `content`; properties `open`, `close`,
    /// `stretchy` as on ``fenced``.
    case ket
    /// See ``ket``.
    case bra
    /// A bra-ket `⟨φ|ψ⟩` (children `bra`, `ket`) or a matrix element `⟨φ|A|ψ⟩` (children `bra`,
    /// `operator`, `ket`). Made for angle brackets holding one bar (`|`, `\mid`) or one bar pair at
    /// their top level with something on both sides; `⟨a, b⟩` stays ``angleBrackets``. Properties
    /// `open`, `close`, `stretchy`, and `separator` (the bar).
    case braKet = "bra-ket"

    // Functions and big operators
    /// A function applied to an argument: children `function` (a function-name, identifier, or a
    /// power/subscript of one such as `\sin^2`, `\log_b`, `f^{-1}`) and `argument`. Properties:
    /// `function-class` (as on function-name, `generic` for letters like f, g, h),
    /// `argument-fenced` when the argument is in parentheses, `inverse` for `^{-1}`, `power` for
    /// `\sin^2` (integer exponent in property `power-value`, its exponent-kind in `power-kind`),
    /// `log-base` present when `\log_b`. Named functions take a parenthesised group right after them,
    /// otherwise the factors up to the next operator or function name (`\sin 2x`; `\sin x + 1` takes
    /// `x`). Single letters: f g h F G H (also subscripted), letters with primes and letters with `^{-1}`
    /// before parentheses are applications (`function-class` = `generic`), and so is such a letter with
    /// pre-scripts (`{}_2F_1(a, b; c; z)`); any other letter before
    /// parentheses makes an ``impliedTimes`` marked `possible-function` (ClearSpeak Functions_Auto),
    /// unless the parentheses hold a sum or product and the formula applies the same letter to one
    /// letter, number or list elsewhere (`u(x+1) = u(x)`, `T(n) = 2T(n/2) + n`): an application.
    /// U+2061 FUNCTION APPLICATION makes an application of whatever precedes it. Also
    /// `function-name` (the text of the function name or letter under any scripts: `sin`, `log`, `f`)
    /// and `simple-argument` when the argument (inside its parentheses) is a simple expression with no
    /// fraction ("sine x", "sine 2 x" but "the sine of pi over 4").
    case application
    /// A large operator with optional limits and a body: children `operator` (the symbol leaf),
    /// `lower`, `upper`, `body`. Properties: `operator-name` = `sum` | `product` | `coproduct` |
    /// `union` | `intersection` | `integral` | `double-integral` | `triple-integral` |
    /// `contour-integral` | `direct-sum`…; for integrals the body is split and a `differential` child
    /// holds `d x` (property `differential`).
    ///
    /// Also `tensor-product`, `circled-dot`, `join` (⋁), `meet` (⋀), `multiset-union`, `square-union`,
    /// `quadruple-integral`, `surface-integral`, `volume-integral`, `clockwise-integral`,
    /// `counterclockwise-integral`, and `large-operator` for others. The body of a sum is the following
    /// product (up to `+ −` or a relation; `×` and `⋅` stay inside); an integral's body runs to its
    /// differential (`\int x^2 + 1\,dx`), one `differential` child per `d x` it binds (up to 2 for ∬, 3
    /// for ∭); property `differential` lists their variables, space-separated. A differential written
    /// before the integrand (`\int dx\, f(x)`, physics' order) stays where it is written, the first
    /// factor of the body. `limits-placement` =
    /// `under-over` (`munderover`, display limits) | `scripts` (sub/superscripts). Flags `lower` and
    /// `upper` say which limit children exist (also on ``limit`` and ``evaluatedAt``).
    case bigOperator = "big-operator"
    /// A limit: children `function` (lim / lim sup / …), `lower` (the `x → 0` part), `body`.
    /// Also `\max_x`, `\sup_{t}`, `\operatorname*{argmax}_x` (function-name `function-class` =
    /// `named`) and `upper` when written. Properties `function-class`, `limits-placement`.
    case limit
    /// An evaluation bar `\left. f \right|_{a}^{b}`: children `body`, `lower`, `upper`. Property `bar`
    /// for a bare `\big|_a^b` after an expression (the body is the sum before it), `fence` = `brackets`
    /// for `[F(x)]_a^b` (with its brackets in `open` and `close`, for a literal reading).
    case evaluatedAt = "evaluated-at"
    /// A differential `d x` (`\mathrm{d}x`, `dx` inside an integral): child `variable`; text `d`.
    /// Properties `mark` (`d`), `upright` for `\mathrm{d}` and ⅆ (a differential anywhere; an italic
    /// `d` only after an integral sign), `order` with an `operator` child, the raised mark, for `d^3 x`.
    case differential

    // Accents and decorations
    /// An accent over or under a base: children `base`, `accent`. Property `accent-name` = `bar` |
    /// `overline` | `hat` | `vector` | `dot` | `double-dot` | `tilde` | `check` | `breve` |
    /// `acute` | `grave` | `ring` | `underline` | `overbrace` | `underbrace` | `arrow` …
    ///
    /// Exact names: over — `bar` (¯ and non-stretchy ‾), `overline` (stretchy ‾, `\overline`), `hat`,
    /// `vector` (→, `\vec` and `\overrightarrow`), `left-arrow`, `left-right-arrow`, `right-harpoon`,
    /// `left-harpoon`, `dot`, `double-dot`, `triple-dot`, `tilde`, `check`, `breve`, `acute`, `grave`,
    /// `ring`, `overbrace`, `overbracket`, `overparen`, `overgroup`; under (property `position` =
    /// `under`) — `underline`, `under-tilde`, `under-left-arrow`, `under-right-arrow`,
    /// `under-left-right-arrow`, `underbrace`, `underbracket`, `underparen`, `undergroup`, `under-dot`.
    /// `base-letters` when the base is two or more letters, possibly primed (`\overline{AB}`: ClearSpeak
    /// reads a line segment).
    case accent
    /// Something stacked over/under another (`\overset{?}{=}`, `\stackrel{def}{=}`, braces with labels):
    /// children `base`, `upper` and/or `lower`. Properties `base-class` (`rel`, `bin`) when the base is
    /// an operator — a stacked relation is an `operator` child of the enclosing ``relation`` — and
    /// `accent-name` (`overbrace`, `underbrace`, …) for a labelled brace, whose `base` is the braced
    /// expression.
    case stacked
    /// Boxed, cancelled, struck: child `content`; property `notation`.
    case enclosed
    /// An author's intent (MathML 4 `intent="concept(args)"`), which overrides the inferred meaning:
    /// text = the concept (`transpose`, `probability`; a literal's name; empty for `_`), children the
    /// arguments in order (role `argument`), property `fixity` = `function` (a concept applied to
    /// arguments: "transpose of M"), `prefix`, `postfix`, `infix`, `silent` (only the arguments are
    /// said: `index:silent($H,$n)`, `_($x)`) or `nofix`. A concept with no arguments says its name
    /// (`<mo intent="perpendicular-to">⊥</mo>`). The interval concepts (`open-interval`,
    /// `closed-interval`, `open-closed-interval`, `closed-open-interval`) are ``interval``s with
    /// `explicit`.
    case intent
    /// Colour: child `content`; properties `color`, `background`. Styles that only change display
    /// style, script level or size are passed through (their content joins the enclosing row).
    case styled

    // Tables
    /// A matrix or vector: a table between fences (TeX `pmatrix`, `\left[\begin{array}…\right]`, MathML
    /// `<mo>(</mo><mtable>…<mo>)</mo>`: the fences decide, never the environment's name). Children
    /// `row`s of `cell`s. Properties: `rows`, `columns`, `fence` = `parentheses` | `brackets` | `braces`
    /// | `bars` (a determinant) | `double-bars` | `other` (with `open`, `close`); `simple-cells` when
    /// every cell is a ClearSpeak simple expression (Matrix_Auto reads column numbers only otherwise);
    /// `token-cells` when every cell is one number or one identifier (MathSpeak reads such rows without
    /// column numbers); `zero-cells` when every cell is the number 0 (a zero matrix).
    /// A table of one cell between fences is a 1 by 1 matrix.
    case matrix
    /// `\binom{n}{k}`: children `upper` (n), `lower` (k).
    case binomial
    /// Cases: a table after a lone `{` (TeX `cases`, `\left\{ … \right.`, MathML `<mo>{</mo><mtable>`
    /// ending its row), or before a lone `}` (`rcases`: `side` = `right`). Children `row`s, each with
    /// `cell`s (value, condition). Properties `rows`, `columns`.
    case cases
    /// A table on its own, not between fences: multi-line layouts (`aligned`, `align`, `gather`…, a
    /// bare `matrix` or `array`, a MathML `mtable`) — ClearSpeak "Multi-line expressions". Children
    /// `row`s of `cell`s (an empty cell has no child); properties `rows`, `columns`, `simple-cells`; a
    /// labelled row has a `label` child. The label of `\tag{A}` is a ``text`` `A` with `parenthesised`
    /// when shown in parentheses. An unlabelled table of one cell (a one-line `equation`) is just its
    /// content.
    case lines
    /// A table of another kind, for trees built through the API; the analysis makes ``lines``,
    /// ``matrix`` or ``cases`` from the structure. `row`s of `cell`s; properties `rows`, `columns`.
    case table
    /// A table row; children `cell`s (and optional `label`, first).
    case tableRow = "table-row"
    /// A table cell; its child is the cell's analysed content with role `item` (no child when empty).
    case tableCell = "table-cell"

    // Other
    /// `a \pmod{n}` / `\bmod`: children `item` (left operand when present) and `argument` (modulus).
    /// Property `form` = `bmod` | `mod` | `pmod`; `parenthesised` for `\pmod`. Binds like
    /// multiplication (`23 \bmod 7 = 2`); `x \equiv 1 \pmod{5}` is `x ≡ modulo(1, 5)`.
    case modulo

    // Chemistry (mhchem's `\ce`: the presentation marks its parts with `data-chem`, see
    // Sources/MathTeX/Mhchem.swift; MathML input carrying the same marks reads the same).
    /// A reaction or a list of species: children `item`s (species, amounts, operators, arrows, marks).
    case chemicalEquation = "chemical-equation"
    /// One species: children `item`s (elements, groups, scripted parts, states, bonds). Flag `ion`
    /// when it carries a charge.
    case chemicalFormula = "chemical-formula"
    /// An element symbol or particle (`Fe`, `n`). Text: the symbol as written.
    case chemicalElement = "chemical-element"
    /// A part with its count and charge: children `base`, `subscript` (a count), `exponent` (a
    /// ``chemicalCharge``, ``chemicalOxidation``, a mark).
    case chemicalScripted = "chemical-scripted"
    /// A group in brackets: child `content`; properties `open`, `close`.
    case chemicalGroup = "chemical-group"
    /// A charge: properties `sign` (`plus`, `minus`, `neutral`), `value` (the amount when it is a
    /// number), `count` (unpaired-electron dots); text: the amount as written (`2`, `n`).
    case chemicalCharge = "chemical-charge"
    /// An oxidation state (`Fe^{II}`): text as written (`II`), `value` its number.
    case chemicalOxidation = "chemical-oxidation"
    /// A state of aggregation or crystal system: property `state` (`aq`, `s`, `l`, `g`, or `other`);
    /// text as written; a child `content` when it holds math.
    case chemicalState = "chemical-state"
    /// A reaction arrow: property `arrow` (`yields`, `reverse`, `resonance`, `reversible`,
    /// `equilibrium`, `equilibrium-right`, `equilibrium-left`); children `upper`, `lower` (what is
    /// written above and below it).
    case chemicalArrow = "chemical-arrow"
    /// A bond: property `bond` (`single`, `double`, `triple`, `partial`, `dotted`, `dative`).
    case chemicalBond = "chemical-bond"
    /// A mark: property `mark` (`precipitate`, `gas`, `addition`, `excited`, `circa`, `punctuation`).
    case chemicalMark = "chemical-mark"
    /// A nuclide: children `base`, `presuperscript` (mass number), `presubscript` (atomic number).
    case chemicalIsotope = "chemical-isotope"
}
