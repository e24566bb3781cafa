import MathSyntax

/// One node of the semantic tree: what a part of the formula *means*, independent of language
/// (DESIGN.md §4). Speech rules put words to these meanings; they never re-analyse the layout.
///
/// Children are addressed by role (``SemanticNode/Role``), so a rule can say `{numerator}` or
/// `{base}`. Properties carry the facts rules test (`common`, `simple`, `exponent-kind`…).
public struct SemanticNode: Hashable, Sendable {
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
    public let properties: [String: String]
    /// Where the node came from in the source (nil for nodes without one).
    public let range: SourceRange?

    /// Creates a node.
    public init(_ kind: SemanticKind, text: String = "", children: [SemanticNode] = [], role: Role = .none,
                properties: [String: String] = [:], range: SourceRange? = nil) {
        self.kind = kind
        self.text = text
        self.children = children
        self.role = role
        self.properties = properties
        self.range = range
    }

    /// The same node playing another role.
    public func withRole(_ role: Role) -> SemanticNode {
        SemanticNode(kind, text: text, children: children, role: role, properties: properties, range: range)
    }

    /// The first child with `role`.
    public func child(_ role: Role) -> SemanticNode? { children.first { $0.role == role } }

    /// Whether the flag property `name` is set.
    public func has(_ name: String) -> Bool { properties[name] != nil && properties[name] != "false" }

    /// The role a child plays in its parent. Rules name children by these raw values.
    public struct Role: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        public static let none: Role = ""
        /// An item of a row, list, sum or product (in order).
        public static let item: Role = "item"
        /// An operator between operands (`+`, `=`), kept as a leaf child so rules can speak it.
        public static let `operator`: Role = "operator"
        public static let numerator: Role = "numerator"
        public static let denominator: Role = "denominator"
        public static let base: Role = "base"
        public static let exponent: Role = "exponent"
        public static let `subscript`: Role = "subscript"
        public static let radicand: Role = "radicand"
        public static let index: Role = "index"
        /// The content inside fences, an absolute value, a norm…
        public static let content: Role = "content"
        public static let open: Role = "open"
        public static let close: Role = "close"
        /// The function of a function application (`f`, `sin`, `log`).
        public static let function: Role = "function"
        /// The argument of a function application or the operand of a prefix/postfix operator.
        public static let argument: Role = "argument"
        /// Lower and upper limits of a big operator, an integral, an interval, a limit.
        public static let lower: Role = "lower"
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
        public static let label: Role = "label"
        /// Rows and cells of matrices, cases and multi-line layouts.
        public static let row: Role = "row"
        public static let cell: Role = "cell"
        /// The whole number of a mixed number; the quantity and unit of a measurement.
        public static let whole: Role = "whole"
        public static let quantity: Role = "quantity"
        public static let unit: Role = "unit"
        /// Pre-subscript and pre-superscript (`{}_n C_k`).
        public static let presubscript: Role = "presubscript"
        public static let presuperscript: Role = "presuperscript"
    }
}

/// The meanings the semantic analysis recognises. Raw values are what rule files name.
public enum SemanticKind: String, Hashable, Sendable, CaseIterable {
    // Leaves
    /// A number as written (`42`, `3.14`, `1,000`). Properties: `integer`, `decimal`, `value` (integers
    /// below 10^9), `digits`.
    case number
    /// A letter or named identifier (`x`, `α`, `ℝ` with `variant`, `\mathrm{kg}`). Properties:
    /// `letter` (one letter), `greek`, `capital`, `variant` (MathML mathvariant), `set-name`
    /// (`naturals`, `integers`, `rationals`, `reals`, `complexes`) for double-struck N Z Q R C.
    case identifier
    /// A function name read as a word (`sin`, `log`, `ln`, `lim`, `\operatorname{rank}`). Properties:
    /// `function-class` = `trig` | `hyperbolic` | `log` | `ln` | `exp` | `limit` | `named`.
    case functionName = "function-name"
    /// An operator or relation symbol on its own (a child with role `operator`, or stray). Properties:
    /// `class` (`bin`, `rel`, `punct`, …).
    case `operator`
    /// Text (`\text{if }`), trimmed; `unit-name` when it names a unit.
    case text
    /// An ellipsis: `…` `⋯` `⋮` `⋱`. Property `direction`.
    case ellipsis
    /// Something the analysis could not understand (an unknown command, an error node). Property
    /// `command` for an unknown command's name.
    case unknown
    /// Nothing to say (an empty group, a phantom).
    case empty

    // Operations
    /// Operands joined by binary operators: children alternate `item` and `operator`
    /// (`a + b - c`). Property `operators` lists the distinct operator texts.
    case infix
    /// Terms joined by relations: children alternate `item` and `operator` (`a = b < c`).
    case relation
    /// Juxtaposed factors with no written operator (`3x`, `2(x+1)`, `ab`): children are `item`s.
    case impliedTimes = "implied-times"
    /// A unary prefix operator: `negative` (−), `positive` (+), `plus-minus` (±), `not` (¬), `nabla`.
    /// Child: `argument`. Property `operator` holds the text.
    case prefix
    /// A sequence separated by commas or semicolons (`1, 2, 3`): children alternate `item` and
    /// `operator` (punctuation).
    case list
    /// A row the analysis did not structure further: children are `item`s.
    case row

    // Fractions and scripts
    /// A fraction. Children: `numerator`, `denominator`. Properties: `common` (integer numerator and
    /// denominator, denominator 2…10 or numerator < denominator ≤ 100 — see analysis), `derivative`
    /// (`\frac{dy}{dx}`), `partial-derivative`, `order` (for `d^2y/dx^2`), `linethickness-zero`.
    case fraction
    /// A whole number and a common fraction (`3\frac{1}{4}`). Children: `whole`, `item` (the fraction).
    case mixedNumber = "mixed-number"
    /// A power. Children: `base`, `exponent`. Properties: `exponent-kind` = `squared` | `cubed` |
    /// `ordinal` (an integer ≥ 4 or 0/1… see analysis) | `letter` (one letter) | `negative-integer` |
    /// `simple` | `complex`; `exponent-value` for integers; `nested` when the exponent contains a power.
    case power
    /// A subscript. Children: `base`, `subscript`. Property `numeric` when the subscript is a number.
    case `subscript`
    /// Pre-scripts (`{}_n C_k`, `{}_{10}P_2`). Children: `presubscript`/`presuperscript`, `base`,
    /// `subscript`/`exponent`. Property `combination` or `permutation` when the base is C or P.
    case prescripts
    /// A square root (child `radicand`) or a root with `index`. Properties: `square`, `index-value`.
    case root
    /// Primes after a base: child `base`; property `count` (1, 2, 3, 4).
    case primes
    /// A factorial: child `argument`.
    case factorial
    /// Degrees (`30^\circ`): child `quantity`.
    case degrees
    /// Percent (`15\%`): child `quantity`.
    case percent
    /// A measurement: children `quantity`, `unit` (a text or identifier node with `unit-name`).
    /// Properties `unit-name` (normalised unit, e.g. `centimeter`), `singular` when the quantity is 1.
    case measurement

    // Fences
    /// Parentheses, brackets or braces around content. Children: `content`. Properties: `open`,
    /// `close` (the delimiter characters), `stretchy`, `nesting` (1 outermost… for nested parens),
    /// `items` (number of comma-separated items inside), `simple-content`.
    case fenced
    /// `|x|` — children `content`. (Cardinality/determinant readings are a rule's choice.)
    case absoluteValue = "absolute-value"
    /// `‖x‖`.
    case norm
    /// `⌊x⌋`.
    case floor
    /// `⌈x⌉`.
    case ceiling
    /// An interval-shaped pair `(a, b]` etc.: children `lower`, `upper`; properties `open`, `close`,
    /// `lower-closed`, `upper-closed`, `lower-infinite`, `upper-infinite`. Whether it is read as an
    /// interval, a point or parenthesised list is the rules' choice (ClearSpeak Paren preference).
    case interval
    /// A set written by listing: `\{1, 2, 3\}`; child `content` (a list or single item or empty).
    /// Property `empty` for `\{\}`.
    case set
    /// Set-builder notation `\{x \mid x > 0\}`: children `variable`, `condition`. Property
    /// `separator` (`|` or `:`).
    case setBuilder = "set-builder"
    /// `⟨a, b⟩`: child `content`.
    case angleBrackets = "angle-brackets"

    // Functions and big operators
    /// A function applied to an argument: children `function` (a function-name, identifier, or a
    /// power/subscript of one such as `\sin^2`, `\log_b`, `f^{-1}`) and `argument`. Properties:
    /// `function-class` (as on function-name, `generic` for letters like f, g, h),
    /// `argument-fenced` when the argument is in parentheses, `inverse` for `^{-1}`, `power` for
    /// `\sin^2` (exponent in property `power-value`), `log-base` present when `\log_b`.
    case application
    /// A large operator with optional limits and a body: children `operator` (the symbol leaf),
    /// `lower`, `upper`, `body`. Properties: `operator-name` = `sum` | `product` | `coproduct` |
    /// `union` | `intersection` | `integral` | `double-integral` | `triple-integral` |
    /// `contour-integral` | `direct-sum`…; for integrals the body is split and a `differential` child
    /// holds `d x` (property `differential`).
    case bigOperator = "big-operator"
    /// A limit: children `function` (lim / lim sup / …), `lower` (the `x → 0` part), `body`.
    case limit
    /// An evaluation bar `\left. f \right|_{a}^{b}`: children `body`, `lower`, `upper`.
    case evaluatedAt = "evaluated-at"
    /// A differential `d x` (`\mathrm{d}x`, `dx` inside an integral): child `variable`.
    case differential

    // Accents and decorations
    /// An accent over or under a base: children `base`, `accent`. Property `accent-name` = `bar` |
    /// `overline` | `hat` | `vector` | `dot` | `double-dot` | `tilde` | `check` | `breve` |
    /// `acute` | `grave` | `ring` | `underline` | `overbrace` | `underbrace` | `arrow` …
    case accent
    /// Something stacked over/under another (`\overset{?}{=}`, `\stackrel{def}{=}`, braces with labels):
    /// children `base`, `upper` and/or `lower`.
    case stacked
    /// Boxed, cancelled, struck: child `content`; property `notation`.
    case enclosed
    /// Colour or size: child `content`; the speech is the content's (a rule may mention colour).
    case styled

    // Tables
    /// A matrix or vector: children `row`s of `cell`s. Properties: `rows`, `columns`, `fence` =
    /// `parentheses` | `brackets` | `braces` | `bars` (a determinant) | `double-bars` | `none`.
    case matrix
    /// `\binom{n}{k}`: children `upper` (n), `lower` (k).
    case binomial
    /// `cases`: children `row`s, each with `cell`s (value, condition). Property `rows`.
    case cases
    /// Multi-line alignments (`aligned`, `align`, `gather`…): children `row`s of `cell`s; property
    /// `rows`, `environment`; a labelled row has a `label` child.
    case lines
    /// Any other table (`array`): `row`s of `cell`s.
    case table
    /// A table row; children `cell`s (and optional `label`).
    case tableRow = "table-row"
    /// A table cell; children are the cell's content as `item`s.
    case tableCell = "table-cell"

    // Other
    /// `a \pmod{n}` / `\bmod`: children `item` (left operand when present) and `argument` (modulus).
    case modulo
}
