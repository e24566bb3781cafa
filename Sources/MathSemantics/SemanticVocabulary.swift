import MathSyntax

// The numbered vocabulary of the flat semantic tree (``SemanticTree``): roles, property names and the
// fixed property values the analysis writes. Rule files name them by their strings; the tree and the
// compiled rules store the numbers, so matching compares integers instead of strings.

/// A role (``SemanticNode/Role``) as a number: the roles the analysis gives, in a fixed order. A role
/// outside this list (only in a tree built by hand) is numbered per tree, after these.
package enum SemanticRole: UInt16, CaseIterable, Sendable {
    case noRole, item, `operator`, numerator, denominator, base, exponent, `subscript`, radicand, index, content
    case open, close, function, argument, lower, upper, body, differential, variable, condition, accent, label
    case row, cell, whole, quantity, unit, presubscript, presuperscript, bra, ket

    /// The role's name as rule files and ``SemanticNode/Role`` spell it.
    package var name: String { SemanticRole.names[Int(rawValue)] }

    /// The role named `name`, if it is one of these.
    package init?(name: String) {
        guard let n = SemanticRole.numbers[name] else { return nil }
        self = n
    }

    private static let names: [String] = allCases.map(\.spelled)
    /// The role's name, spelled out (a switch, not `"\(role)"`: reflection costs every start-up
    /// ~1 M instructions, `BENCHMARKS.md`).
    private var spelled: String {
        switch self {
        case .noRole: ""
        case .item: "item"
        case .`operator`: "operator"
        case .numerator: "numerator"
        case .denominator: "denominator"
        case .base: "base"
        case .exponent: "exponent"
        case .`subscript`: "subscript"
        case .radicand: "radicand"
        case .index: "index"
        case .content: "content"
        case .open: "open"
        case .close: "close"
        case .function: "function"
        case .argument: "argument"
        case .lower: "lower"
        case .upper: "upper"
        case .body: "body"
        case .differential: "differential"
        case .variable: "variable"
        case .condition: "condition"
        case .accent: "accent"
        case .label: "label"
        case .row: "row"
        case .cell: "cell"
        case .whole: "whole"
        case .quantity: "quantity"
        case .unit: "unit"
        case .presubscript: "presubscript"
        case .presuperscript: "presuperscript"
        case .bra: "bra"
        case .ket: "ket"
        }
    }
    private static let numbers: [String: SemanticRole] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

/// A property name as a number: every name the analysis writes (documented on ``SemanticKind``). A
/// name outside this list (only in a tree built by hand) is numbered per tree, after these.
package enum PropertyName: UInt16, CaseIterable, Sendable {
    // Leaves
    case letter, greek, capital, variant, font, setName, word, functionClass, `class`, unitName, direction, centered
    case command, integer, decimal, value, digits, repeatingDecimal, repeatingDigits, repeatingCount
    // Operations
    case operators, hasModulo, possibleFunction, appliedElsewhere, `operator`
    // Fractions and scripts
    case common, numeratorValue, denominatorValue, simpleNumerator, simpleDenominator, containsFraction
    case fractionDepth, simple, derivative, partialDerivative, order, linethicknessZero, continued
    case exponentKind, exponentValue, nested, numeric, combination, permutation, square, indexValue, rootDepth
    case count, scale, unitPower, unitPowerDenominator, singular, primeUnit, afterDegrees, currency, unitFirst, scriptedBase, unitBase
    // Fences
    case open, close, stretchy, nesting, items, empty, simpleContent, contentKind, silentAsBase
    case lowerClosed, upperClosed, lowerInfinite, upperInfinite, separator
    // Functions and big operators
    case argumentFenced, inverse, power, powerValue, powerKind, logBase, functionName, simpleArgument
    case operatorName, differential, limitsPlacement, lower, upper, bar, fence, mark, upright
    // Accents, decorations, tables, other
    case accentName, position, baseLetters, baseClass, notation, color, background
    case rows, columns, simpleCells, side, environment, parenthesised, form, fixity, explicit, equations, tokenCells
    case zeroCells, chemical
    // Chemistry
    case ion, sign, state, arrow, bond, nuclide
    // Numbers written with commas between their digits (`13,000`; `1{,}5`): added after the others, an
    // atom's number being its place
    case grouped
    // A power whose base a later factor of the same product repeats (`x^T A x`): added after the others
    case baseRepeats
    // A number written in two or more capital letters (`<mn>IV</mn>`, a Roman numeral): added after the others
    case capitals
    // A run of underscores written as one token, a blank to fill in (`<mo>___</mo>`): added after the others
    case blank
    // Parentheses after a possible function that hold one argument or a list of them (`s(t)`): added after the others
    case oneArgument
    // Angle brackets holding a vector's components, not an inner product's vectors (`⟨1, 2⟩`): added after the others
    case components

    /// The name as rule files spell it (`set-name`, `exponent-kind`).
    package var name: String { PropertyName.names[Int(rawValue)] }

    /// The property named `name`, if it is one of these.
    package init?(name: String) {
        guard let n = PropertyName.numbers[name] else { return nil }
        self = n
    }

    private static let names: [String] = allCases.map(\.spelled)
    /// The name as rule files spell it, spelled out (a switch, not `"\(p)"` turned into kebab case:
    /// reflection costs every start-up ~4 M instructions, `BENCHMARKS.md`).
    private var spelled: String {
        switch self {
        case .letter: "letter"
        case .nuclide: "nuclide"
        case .grouped: "grouped"
        case .baseRepeats: "base-repeats"
        case .capitals: "capitals"
        case .blank: "blank"
        case .oneArgument: "one-argument"
        case .components: "components"
        case .greek: "greek"
        case .capital: "capital"
        case .variant: "variant"
        case .font: "font"
        case .setName: "set-name"
        case .word: "word"
        case .functionClass: "function-class"
        case .`class`: "class"
        case .unitName: "unit-name"
        case .direction: "direction"
        case .centered: "centered"
        case .command: "command"
        case .integer: "integer"
        case .decimal: "decimal"
        case .value: "value"
        case .digits: "digits"
        case .repeatingDecimal: "repeating-decimal"
        case .repeatingDigits: "repeating-digits"
        case .repeatingCount: "repeating-count"
        case .operators: "operators"
        case .hasModulo: "has-modulo"
        case .possibleFunction: "possible-function"
        case .appliedElsewhere: "applied-elsewhere"
        case .`operator`: "operator"
        case .common: "common"
        case .numeratorValue: "numerator-value"
        case .denominatorValue: "denominator-value"
        case .simpleNumerator: "simple-numerator"
        case .simpleDenominator: "simple-denominator"
        case .containsFraction: "contains-fraction"
        case .fractionDepth: "fraction-depth"
        case .simple: "simple"
        case .derivative: "derivative"
        case .partialDerivative: "partial-derivative"
        case .order: "order"
        case .linethicknessZero: "linethickness-zero"
        case .continued: "continued"
        case .exponentKind: "exponent-kind"
        case .exponentValue: "exponent-value"
        case .nested: "nested"
        case .numeric: "numeric"
        case .combination: "combination"
        case .permutation: "permutation"
        case .square: "square"
        case .indexValue: "index-value"
        case .rootDepth: "root-depth"
        case .count: "count"
        case .scale: "scale"
        case .unitPower: "unit-power"
        case .unitPowerDenominator: "unit-power-denominator"
        case .singular: "singular"
        case .primeUnit: "prime-unit"
        case .afterDegrees: "after-degrees"
        case .currency: "currency"
        case .unitFirst: "unit-first"
        case .scriptedBase: "scripted-base"
        case .unitBase: "unit-base"
        case .open: "open"
        case .close: "close"
        case .stretchy: "stretchy"
        case .nesting: "nesting"
        case .items: "items"
        case .empty: "empty"
        case .simpleContent: "simple-content"
        case .contentKind: "content-kind"
        case .silentAsBase: "silent-as-base"
        case .lowerClosed: "lower-closed"
        case .upperClosed: "upper-closed"
        case .lowerInfinite: "lower-infinite"
        case .upperInfinite: "upper-infinite"
        case .separator: "separator"
        case .argumentFenced: "argument-fenced"
        case .inverse: "inverse"
        case .power: "power"
        case .powerValue: "power-value"
        case .powerKind: "power-kind"
        case .logBase: "log-base"
        case .functionName: "function-name"
        case .simpleArgument: "simple-argument"
        case .operatorName: "operator-name"
        case .differential: "differential"
        case .limitsPlacement: "limits-placement"
        case .lower: "lower"
        case .upper: "upper"
        case .bar: "bar"
        case .fence: "fence"
        case .mark: "mark"
        case .upright: "upright"
        case .accentName: "accent-name"
        case .position: "position"
        case .baseLetters: "base-letters"
        case .baseClass: "base-class"
        case .notation: "notation"
        case .color: "color"
        case .background: "background"
        case .rows: "rows"
        case .columns: "columns"
        case .simpleCells: "simple-cells"
        case .side: "side"
        case .environment: "environment"
        case .parenthesised: "parenthesised"
        case .form: "form"
        case .fixity: "fixity"
        case .explicit: "explicit"
        case .equations: "equations"
        case .tokenCells: "token-cells"
        case .zeroCells: "zero-cells"
        case .chemical: "chemical"
        case .ion: "ion"
        case .sign: "sign"
        case .state: "state"
        case .arrow: "arrow"
        case .bond: "bond"
        }
    }
    private static let numbers: [String: PropertyName] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

/// A property value the analysis writes from a fixed set (kinds of exponent, function classes, accent
/// names…), stored as a number. Values outside this set are stored as strings; which form a value
/// takes never changes what it means (a value is its string).
package enum PropertyAtom: UInt16, CaseIterable, Sendable {
    // Atom classes (`class`, `base-class`): AtomClass raw values.
    case ord, op, bin, rel, open, close, punct, inner
    // `exponent-kind`, `power-kind`
    case squared, cubed, ordinal, negativeInteger, letter, symbol, simple, complex
    // `function-class`
    case trig, hyperbolic, log, ln, exp, named, limit, generic, transform
    // `operator` of a prefix
    case negative, positive, plusMinus, minusPlus, not, nabla, forAll, exists, notExists, angle, measuredAngle
    case triangle, rightAngle
    // `operator-name`
    case sum, product, coproduct, union, intersection, directSum, tensorProduct, circledDot, multisetUnion
    case squareUnion, squareIntersection, join, meet, integral, doubleIntegral, tripleIntegral, quadrupleIntegral
    case contourIntegral, surfaceIntegral, volumeIntegral, clockwiseIntegral, counterclockwiseIntegral, largeOperator
    // `accent-name`
    case bar, overline, hat, vector, leftArrow, leftRightArrow, rightHarpoon, leftHarpoon, dot, doubleDot
    case tripleDot, tilde, check, breve, acute, grave, ring, overbrace, overbracket, overparen, overgroup
    case underline, underTilde, underLeftArrow, underRightArrow, underLeftRightArrow, underbrace, underbracket
    case underparen, undergroup, underDot, arrow
    // `content-kind`
    case number, negativeNumber, negativeLetter, commonFraction, simpleFraction, simpleProduct, other
    // `fence`
    case parentheses, brackets, braces, bars, doubleBars, noFence
    // `direction`
    case horizontal, vertical, diagonal, antiDiagonal
    // `set-name`
    case naturals, integers, rationals, reals, complexes
    // `variant`: MathVariant raw values not listed above.
    case normal, bold, italic, boldItalic, doubleStruck, boldFraktur, script, boldScript, fraktur, sansSerif
    case boldSansSerif, sansSerifItalic, sansSerifBoldItalic, monospace
    // `font`: the fonts and enclosures of styled characters MathML has no variant for (the names of
    // ``UnicodeMath/fontNames`` that are not MathVariant raw values; `squared` is the exponent kind's).
    case circled, circledItalic, circledSansSerif, comma, doubleCircled, doubleStruckItalic, fullStop, fullwidth
    case negativeCircled, negativeCircledSansSerif, negativeSquared, parenthesized, regionalIndicatorSymbol
    case reversedSansSerif, segmented, `subscript`, superscript, tortoiseShellBracketed, turned
    case turnedSansSerif
    // `font`: MathJax's calligraphic alphabets (`mathvariant="-tex-calligraphic"`).
    case calligraphic, boldCalligraphic
    // `form`, `limits-placement`, `position`, `scale`, `side`, `mark`
    case bmod, mod, pmod, underOver, scripts, under, celsius, fahrenheit, right, d
    // `exponent-kind` (added after the others: an atom's number is its place)
    case label
    // `scale` (degrees Kelvin, `300^\circ K`, as older texts write it)
    case kelvin
    // `operator` of a prefix: `#` before a set, the number of its elements (`\#\{i : x_i > 0\}`)
    case cardinality
    // `operator` of a prefix: `∃!`, there exists a unique
    case existsUnique

    /// The value's string (`negative-integer`, `under-over`).
    package var string: String { PropertyAtom.strings[Int(rawValue)] }

    /// The atom whose string is `string` (exactly, byte for byte), if there is one.
    package init?(string: String) {
        guard let a = PropertyAtom.numbers[string] else { return nil }
        self = a
    }

    /// Every atom's string, by number: the case name in kebab case (`negativeInteger` →
    /// `negative-integer`), `none` for ``noFence``. Written out, so the table costs nothing to make.
    package static let strings: [String] = [
        "ord", "op", "bin", "rel", "open", "close", "punct", "inner", "squared", "cubed", "ordinal",
        "negative-integer", "letter", "symbol", "simple", "complex", "trig", "hyperbolic", "log", "ln", "exp",
        "named", "limit", "generic", "transform", "negative", "positive", "plus-minus", "minus-plus", "not", "nabla", "for-all",
        "exists", "not-exists", "angle", "measured-angle", "triangle", "right-angle", "sum", "product", "coproduct",
        "union", "intersection", "direct-sum", "tensor-product", "circled-dot", "multiset-union", "square-union",
        "square-intersection", "join", "meet", "integral", "double-integral", "triple-integral",
        "quadruple-integral", "contour-integral", "surface-integral", "volume-integral", "clockwise-integral",
        "counterclockwise-integral", "large-operator", "bar", "overline", "hat", "vector", "left-arrow",
        "left-right-arrow", "right-harpoon", "left-harpoon", "dot", "double-dot", "triple-dot", "tilde", "check",
        "breve", "acute", "grave", "ring", "overbrace", "overbracket", "overparen", "overgroup", "underline",
        "under-tilde", "under-left-arrow", "under-right-arrow", "under-left-right-arrow", "underbrace",
        "underbracket", "underparen", "undergroup", "under-dot", "arrow", "number", "negative-number",
        "negative-letter", "common-fraction", "simple-fraction", "simple-product", "other", "parentheses",
        "brackets", "braces", "bars", "double-bars", "none", "horizontal", "vertical", "diagonal", "anti-diagonal",
        "naturals", "integers", "rationals", "reals", "complexes", "normal", "bold", "italic", "bold-italic",
        "double-struck", "bold-fraktur", "script", "bold-script", "fraktur", "sans-serif", "bold-sans-serif",
        "sans-serif-italic", "sans-serif-bold-italic", "monospace", "circled", "circled-italic",
        "circled-sans-serif", "comma", "double-circled", "double-struck-italic", "full-stop", "fullwidth",
        "negative-circled", "negative-circled-sans-serif", "negative-squared", "parenthesized",
        "regional-indicator-symbol", "reversed-sans-serif", "segmented", "subscript", "superscript",
        "tortoise-shell-bracketed", "turned", "turned-sans-serif", "calligraphic", "bold-calligraphic", "bmod", "mod", "pmod", "under-over", "scripts",
        "under", "celsius", "fahrenheit", "right", "d", "label", "kelvin", "cardinality",
        "exists-unique"
    ]
    private static let numbers: [String: PropertyAtom] = {
        var d: [String: PropertyAtom] = [:]
        for a in allCases { d[a.string] = a }
        return d
    }()
}

extension AtomClass {
    /// The atom for this class's name (`bin`, `rel`…).
    package var atom: PropertyAtom {
        switch self {
        case .ord: .ord
        case .op: .op
        case .bin: .bin
        case .rel: .rel
        case .open: .open
        case .close: .close
        case .punct: .punct
        case .inner: .inner
        }
    }
}

extension MathVariant {
    /// The atom for this variant's MathML name.
    package var atom: PropertyAtom {
        switch self {
        case .normal: .normal
        case .bold: .bold
        case .italic: .italic
        case .boldItalic: .boldItalic
        case .doubleStruck: .doubleStruck
        case .boldFraktur: .boldFraktur
        case .script: .script
        case .boldScript: .boldScript
        case .fraktur: .fraktur
        case .sansSerif: .sansSerif
        case .boldSansSerif: .boldSansSerif
        case .sansSerifItalic: .sansSerifItalic
        case .sansSerifBoldItalic: .sansSerifBoldItalic
        case .monospace: .monospace
        }
    }
}
