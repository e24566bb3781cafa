import MathSyntax

// Rows: flatten nested rows, merge a few multi-item patterns, match fences, turn items into tokens.
// The precedence parse over the tokens is in RowParser.swift.

/// One token of a row, ready for the precedence parse: a plain record of numbers (nodes of the tree
/// being built, fence groups and big-operator parts by their number in the analysis run).
struct Token {
    enum Kind: UInt8 {
        /// Something that stands for a value.
        case operand
        /// A relation (`=`, `<`, `\overset{?}{=}`, an unmatched `|`).
        case relation
        /// `,` `;` and the invisible separator.
        case punctuation
        /// A binary operator of the additive level (`+ − ± ∪ ∩ ⊕ ∘ …`): every binary operator that is
        /// not multiplicative.
        case additive
        /// `× ÷ ⋅ * /`.
        case multiplicative
        /// `mod` (`\bmod`, `\mod`, inside `\pmod`).
        case modulo
        /// `¬ ∀ ∃ ∄`: prefixes of one factor.
        case prefix
        /// `!` `%` `′` `°` after an operand.
        case postfix
        /// A large operator waiting for its body.
        case bigOperator
        /// `lim`, `max` with scripts… waiting for the body.
        case limit
        /// A named function waiting for its argument.
        case function
        /// A multi-letter identifier that is a function only when a parenthesised argument follows.
        case word
        /// `d x` inside an integral, `\mathrm{d}x` anywhere.
        case differential
        /// U+2061 FUNCTION APPLICATION.
        case apply
        /// `\Big|_{a}^{b}` after an expression.
        case evaluationBar
        /// A wide space (`\quad`): separates relations like a comma when there are several.
        case wideSpace
    }

    var kind: Kind
    /// Followed by U+2061: the next operand is its argument.
    var forcedFunction = false
    /// Followed by a written U+2062 INVISIBLE TIMES: the author says the next operand is a factor, so
    /// parentheses after it are not a function's argument (`t⁢(x)` is t times x).
    var explicitTimes = false
    /// An operator the author marked `form="infix"` (MathML): a binary operator even where a sign
    /// would be read (first in a row, a table cell that continues the line above: "plus e").
    var writtenInfix = false
    // Stored compactly (the token stacks copy tokens often): see ``postfix`` and ``isDifferentialMark``.
    private var postfixKind: UInt8 = 0
    private var differentialMark: UInt8 = 0
    var node: Analyzer.NodeID
    /// The node whose text is the operator text of an operator token (-1: no text).
    var textNode: Analyzer.NodeID = -1
    /// An operand that came from a fence group: the group's number in ``Analyzer/groups`` (-1: none).
    var fence: Int32 = -1
    /// Big operator, limit or evaluation bar parts: their number in ``Analyzer/bigs`` (-1: none).
    var big: Int32 = -1
    private var postfixCount: Int32 = 0
    /// Properties a function head gives its application.
    var application = ApplicationFacts()

    init(_ kind: Kind, _ node: Analyzer.NodeID, text textNode: Analyzer.NodeID = -1) {
        self.kind = kind
        self.node = node
        self.textNode = textNode
    }

    enum Postfix { case factorial(Int), percent, primes(Int), degrees }

    /// Postfix kind.
    var postfix: Postfix? {
        get {
            switch postfixKind {
            case 1: return .factorial(Int(postfixCount))
            case 2: return .percent
            case 3: return .primes(Int(postfixCount))
            case 4: return .degrees
            default: return nil
            }
        }
        set {
            switch newValue {
            case .factorial(let n)?: (postfixKind, postfixCount) = (1, Int32(n))
            case .percent?: (postfixKind, postfixCount) = (2, 0)
            case .primes(let n)?: (postfixKind, postfixCount) = (3, Int32(n))
            case .degrees?: (postfixKind, postfixCount) = (4, 0)
            case nil: (postfixKind, postfixCount) = (0, 0)
            }
        }
    }

    /// For an identifier leaf's token: whether it is `d` or `ⅆ`, the mark of a differential (nil when
    /// the token does not know: ``Analyzer/isDifferentialMark(_:)`` then reads the tree).
    var isDifferentialMark: Bool? {
        get { differentialMark == 0 ? nil : differentialMark == 2 }
        set { differentialMark = newValue.map { $0 ? 2 : 1 } ?? 0 }
    }
}

/// The properties an application gets from its function (ClearSpeak "Trigonometric functions",
/// "Logarithms", "Functions"): `function-class`, `log-base`, the power facts, `argument-fenced`.
struct ApplicationFacts {
    var functionClass: PropertyAtom = .named
    var logBase = false
    var argumentFenced = false
    var power = PowerFacts()
}

/// `inverse` for an exponent −1, otherwise `power` with `power-value` (integers) and `power-kind`
/// (Trig_TrigInverse, ClearSpeak "Trigonometric functions"). Stored in 12 bytes.
struct PowerFacts {
    var inverse = false
    var power = false
    private var hasValue = false
    private var storedKind: UInt16 = .max
    private var storedValue: Int32 = 0

    /// `power-value`: an integer exponent (read from a tree integer, so it fits in 32 bits).
    var value: Int? {
        get { hasValue ? Int(storedValue) : nil }
        set {
            hasValue = newValue != nil
            storedValue = Int32(truncatingIfNeeded: newValue ?? 0)
        }
    }

    /// `power-kind`.
    var kind: PropertyAtom? {
        get { storedKind == .max ? nil : PropertyAtom(rawValue: storedKind) }
        set { storedKind = newValue?.rawValue ?? .max }
    }
}

/// A fence group: its node, the plain `fenced` reading (for function arguments), and scripts
/// written on the closing fence (`(x+1)^2`). A plain record: the fences are kept as their sole
/// scalars (every fence the readings test is one character).
struct FenceGroup {
    var node: Analyzer.NodeID
    var plain: Analyzer.NodeID
    /// The opening and closing fences' sole scalars (nil for none, or for a longer text).
    var open: Unicode.Scalar?
    var close: Unicode.Scalar?
    /// No closing fence (`\left( … \right.`).
    var closeIsEmpty: Bool
    var scripts: Analyzer.Scripts? = nil
    var scriptsRange: SourceRange? = nil
    /// `(` or `[` with `)` or `]`.
    var parenLike: Bool
    /// Parentheses or brackets read as a plain group or interval: what can follow a function.
    var isArgumentLike: Bool
}

/// Parts of a big operator, a limit or an evaluation bar.
struct BigParts {
    var head: Analyzer.NodeID
    var lower: Analyzer.NodeID?
    var upper: Analyzer.NodeID?
    /// `operator-name` of a big operator.
    var name: PropertyAtom
    var integrals: Int
    var placement: PropertyAtom?
    var range: SourceRange?
}

/// An item of a flattened row, looked at once when it is made — what kind of node it is, the sole
/// scalar of its text, its fence role — so that the row's passes (merging, fence matching,
/// tokens) read these instead of the node; with its fence-matching state. A plain record of 24
/// bytes: a raw item's node is held unretained (the input tree outlives the analysis), so the row
/// stacks copy items freely.
struct RowItem {
    /// What an item is: a presentation node as it is (by the kind of node), a wide space, or an
    /// operand merged from several items (pre-scripts, a repeating decimal, a measurement).
    enum Kind: UInt8 {
        case `operator`, identifier, number, scripts, underOver, fraction, other
        /// A node that is not an item as it is (never on the item stack): ``Analyzer/flatten(_:from:)``
        /// splices it (rows, pass-through styles, padding, `semantics`), drops it or turns it into a
        /// separator (spaces, blank text).
        case splice
        case wideSpace, operand
    }

    /// The fence character an item is (``Analyzer/FenceRole``), as a number.
    enum Role: UInt8 { case notFence, open, close, bar }

    let kind: Kind
    let role: Role
    /// Bit 0: for a bar, whether it carries scripts; for an item that is not a fence, whether it ends an
    /// operand (so that a bar after it closes rather than opens). Bit 1: a raw item's node has MathML
    /// attributes (noted once, so that the row passes need not read the node for them). Bit 2: scripts
    /// on a leaf with a text (``scriptsOnText``). Bit 3: ``mayOpenWithCoefficient``. Bit 4: ``isNumeralText``.
    /// Bit 5: ``mayStartMerge``.
    private var bits: UInt8
    private var flag: Bool { bits & 1 != 0 }
    /// For an identifier of several scalars, its ``Vocabulary/nameClass(_:)`` (a ``PropertyAtom``
    /// number; ``RowItem/noClass`` for none, and for other items).
    private var nameClassValue: UInt8 = RowItem.noClass
    /// The sole scalar of an operator's or identifier's text, or the fence character of a fence
    /// carrying scripts; 0x110000 for none.
    private let scalarValue: UInt32
    /// The node of a raw item or a wide space.
    private let node: Unmanaged<MathNode>?
    /// A merged operand's node in the tree being built (-1 for other items).
    let operand: Analyzer.NodeID
    /// For an opening item, the index of its closing item; otherwise ``RowItem/unmatched``,
    /// ``RowItem/looseBar`` or ``RowItem/looseFence``.
    var match: Int32 = RowItem.unmatched

    private static let none: UInt32 = 0x11_0000
    private static let noClass: UInt8 = 0xFF

    private init(_ kind: Kind, _ role: Role, _ flag: Bool, _ scalar: Unicode.Scalar?, node: Unmanaged<MathNode>?,
                 operand: Analyzer.NodeID) {
        self.kind = kind
        self.role = role
        self.bits = flag ? 1 : 0
        self.scalarValue = scalar?.value ?? RowItem.none
        self.node = node
        self.operand = operand
    }

    /// A presentation node as one item.
    init(raw m: __shared MathNode) {
        self.init(raw: Unmanaged.passUnretained(m))
    }

    /// A presentation node, held by its tree, as one item.
    init(raw unmanaged: Unmanaged<MathNode>) {
        self = unmanaged._withUnsafeGuaranteedRef { m in
            var item = RowItem(classifying: m, unmanaged)
            if m.attributes != nil { item.bits |= 2 }
            // (Scripts are noted by the classification.)
            if item.kind == .number || item.kind == .fraction || item.isNumeralText || item.mayStartUnit || item.mayBeCurrencyCheaply {
                item.bits |= 32
            }
            return item
        }
    }

    /// `m` (whose reference is `unmanaged`) as one item: its kind, its text's sole scalar and its
    /// fence role.
    private init(classifying m: __shared MathNode, _ unmanaged: Unmanaged<MathNode>) {
        // Narrow views of the kind: a switch binding payloads would copy the whole kind.
        if let (cls, u) = m.operatorClassAndScalar {
            if let u {
                if let (role, ends) = RowItem.asciiOperatorRole(u, cls) {
                    // Most operators are one ASCII character (checked against the general tests in debug builds).
                    assert(RowItem(operator: u, cls, nil).role == role && RowItem(operator: u, cls, nil).flag == ends,
                           "the general tests classify the ASCII operator \(u) otherwise")
                    self.init(.operator, role, ends, u, node: unmanaged, operand: -1)
                } else {
                    self.init(operator: u, cls, unmanaged)
                }
            } else {
                self = RowItem(longOperator: m, cls, unmanaged)
            }
            return
        }
        if let t = m.identifierText {
            let u = t.soleScalar
            if u != nil {
                self.init(.identifier, .notFence, true, u, node: unmanaged, operand: -1)
                return
            }
            self = RowItem(name: t, unmanaged)
            return
        }
        let k = m.itemKind
        let role: Analyzer.FenceRole
        var onText = false
        var coefficient = false
        var numeral = false
        var slash = false
        var onNumber = false
        switch k {
        // The base read unretained: the tree holds it.
        case .scripts:
            (role, onText, coefficient, onNumber) = m.children.unretained(0)._withUnsafeGuaranteedRef {
                (Analyzer.fenceRole(ofBase: $0, scripted: true), $0.isTextLeaf, Analyzer.opensWithDigit(base: $0),
                 { if case .number = $0.kind { true } else { false } }($0))
            }
        case .underOver: role = m.children.unretained(0)._withUnsafeGuaranteedRef { Analyzer.fenceRole(ofBase: $0, scripted: false) }
        default:
            role = .notFence(endsOperand: true)
            if case .text(let t, _) = m.kind {
                coefficient = Analyzer.opensWithDigit(base: m)
                numeral = RowItem.isNumeral(text: m)
                slash = t.containsASCII(0x2F) || Analyzer.isDegreeSignText(t)
            }
        }
        self.init(k, role.role, role.scripted, role.scalar, node: unmanaged, operand: -1)
        if onText { bits |= 4 }
        if coefficient { bits |= 8 }
        if numeral { bits |= 16 }
        if slash { bits |= 64 }
        // Scripts on a letter or an operator (`x^2`, the commonest scripts) start no pattern of
        // ``Analyzer/premerge(from:_:)``: those on nothing or on a group may be pre-scripts or a formula's
        // scripts, and those on a number a quantity (``Analyzer/isQuantity(_:)``).
        if k == .scripts && (!onText || onNumber) { bits |= 32 }
    }

    // The items every row has (an operator of one character, a letter, scripts) are classified in the
    // initialiser above; the rarer ones (a name, an operator of several characters, of one character
    // beyond ASCII) in initialisers of their own, called, so that the common paths' code stays small (the
    // classification missed the instruction cache ~14 times a formula with them inlined, `MathAloudBench
    // stages` under callgrind, session 45).

    /// An identifier of several scalars, `t`: a function or limit name (looked up once, for the token
    /// too) does not end an operand.
    @inline(never)
    private init(name t: __shared String, _ unmanaged: Unmanaged<MathNode>) {
        let nameClass = Vocabulary.nameClass(t)
        let ends = (nameClass == nil || nameClass == .limit) && t != "mod"
        self.init(.identifier, .notFence, ends, nil, node: unmanaged, operand: -1)
        nameClassValue = nameClass.map { UInt8($0.rawValue) } ?? RowItem.noClass
    }

    /// An operator `m` of class `cls` whose text is not one scalar.
    @inline(never)
    private init(longOperator m: __shared MathNode, _ cls: AtomClass, _ unmanaged: Unmanaged<MathNode>) {
        self.init(.operator, .notFence, Analyzer.endsOperand(m.operatorText!, nil, cls), nil, node: unmanaged, operand: -1)
    }

    /// An operator of one scalar `u` and atom class `cls`: its fence role, or whether it ends an operand.
    @inline(never)
    private init(operator u: Unicode.Scalar, _ cls: AtomClass, _ unmanaged: Unmanaged<MathNode>?) {
        if let role = Analyzer.fenceRole(u, cls, scripted: false) {
            self.init(.operator, role.role, role.scripted, u, node: unmanaged, operand: -1)
        } else {
            // One scalar: the text is not read (``Analyzer/endsOperand(_:_:_:)`` tests the scalar).
            self.init(.operator, .notFence, Analyzer.endsOperand("", u, cls), u, node: unmanaged, operand: -1)
        }
    }

    /// For an operator of one ASCII character other than `|`, `!`, `%` and `'`, of class `cls`: its fence
    /// role and whether it ends an operand, as ``init(operator:_:_:)`` finds them (nil for other
    /// characters). (Most operators are one ASCII character; the general tests, two calls, cost ~40
    /// instructions an operator; a table of their results by class and character missed the data
    /// cache, `MathAloudBench stages` under callgrind, session 39.)
    @inline(__always)
    private static func asciiOperatorRole(_ u: Unicode.Scalar, _ cls: AtomClass) -> (Role, Bool)? {
        let v = u.value
        guard v < 0x80 else { return nil }
        let bit: UInt64 = 1 << UInt64(v & 63)
        // `!`, `%` and `'` end an operand whatever their class; how a bar `|` pairs depends on its class.
        let general: UInt64 = v < 64 ? 1 << 0x21 | 1 << 0x25 | 1 << 0x27 : 1 << (0x7C - 64)
        if general & bit != 0 { return nil }
        // A relation, a binary operator or punctuation is no fence and ends no operand.
        if cls == .rel || cls == .bin || cls == .punct { return (.notFence, false) }
        // The opening `(`, `[`, `{` and closing `)`, `]`, `}` (``Vocabulary/isOpener(_:)``, ``Vocabulary/isCloser(_:)``).
        let opens: UInt64 = v < 64 ? 1 << 0x28 : 1 << (0x5B - 64) | 1 << (0x7B - 64)
        let closes: UInt64 = v < 64 ? 1 << 0x29 : 1 << (0x5D - 64) | 1 << (0x7D - 64)
        if opens & bit != 0 { return (.open, false) }
        if closes & bit != 0 { return (.close, false) }
        return (.notFence, cls == .ord || cls == .close || cls == .inner)
    }

    /// A wide space (`m`, a space node) kept as a separator.
    init(wideSpace m: __shared MathNode) {
        self.init(.wideSpace, .notFence, false, nil, node: Unmanaged.passUnretained(m), operand: -1)
    }

    /// An operand merged from several items.
    init(operand n: Analyzer.NodeID) {
        self.init(.operand, .notFence, true, nil, node: nil, operand: n)
    }

    /// The sole scalar of an operator's or identifier's text (nil for a longer or empty text, and
    /// for other items that are not fences).
    var scalar: Unicode.Scalar? { scalarValue == RowItem.none ? nil : Unicode.Scalar(scalarValue) }

    /// For an identifier of several scalars, its ``Vocabulary/nameClass(_:)``: `.some(nil)` for
    /// none; nil for other items. (Read for every item's token: inline, a call cost ~7 instructions an
    /// item, `MathAloudBench stages` under callgrind, session 37.)
    @inline(__always)
    var nameClass: PropertyAtom?? {
        guard kind == .identifier, scalarValue == RowItem.none else { return nil }
        return .some(nameClassValue == RowItem.noClass ? nil : PropertyAtom(rawValue: UInt16(nameClassValue)))
    }

    /// For an item that is not a fence, whether it ends an operand.
    var endsOperand: Bool { role == .notFence && flag }

    /// For a fence character, its scalar.
    var fenceScalar: Unicode.Scalar? { role == .notFence ? nil : Unicode.Scalar(scalarValue) }

    /// The fence character the item is, if any; for other items, whether they end an operand.
    var fenceRole: Analyzer.FenceRole {
        switch role {
        case .notFence: return .notFence(endsOperand: flag)
        case .open: return .open(Unicode.Scalar(scalarValue)!)
        case .close: return .close(Unicode.Scalar(scalarValue)!)
        case .bar: return .bar(Unicode.Scalar(scalarValue)!, scripted: flag)
        }
    }

    /// Whether the item is a presentation node with MathML attributes.
    var hasAttributes: Bool { bits & 2 != 0 }

    /// Whether the item is a text, or scripts on one, that opens with a digit (bit 3): a coefficient typed with
    /// its formula may be there (``Analyzer/coefficientSplit(_:)``).
    var mayOpenWithCoefficient: Bool { bits & 8 != 0 }

    /// Whether the item is scripts on a leaf with a text (`x^2`, `\sum_i`): a base that shows something, so
    /// no pre-scripts, no degree ring on nothing and no scripts to join to what precedes them
    /// (``Analyzer/premerge(from:_:)`` skips those tests).
    var scriptsOnText: Bool { bits & 4 != 0 }

    /// Whether the item is a presentation node as it is.
    var isRaw: Bool { kind.rawValue < Kind.wideSpace.rawValue }

    /// A raw item's presentation node.
    var raw: MathNode? { isRaw ? node!.takeUnretainedValue() : nil }

    /// `body` of a raw item's node, borrowed for the call (no reference counting); nil for other items.
    @inline(__always)
    func withRaw<R>(_ body: (MathNode) -> R) -> R? {
        guard isRaw else { return nil }
        return node!._withUnsafeGuaranteedRef(body)
    }

    /// A wide space's source range.
    var spaceRange: SourceRange? { node!._withUnsafeGuaranteedRef(\.range) }

    /// Whether a multi-item pattern (pre-scripts, a repeating decimal, a measurement) can start at
    /// the item: scripts, a number or a fraction.
    var mayStartPattern: Bool { kind == .scripts || kind == .number || kind == .fraction }

    /// Whether the item is a number set as text (`<mtext>800</mtext>`), the quantity of a measurement.
    /// (Noted when the item is made, which reads the node anyway.)
    var isNumeralText: Bool { bits & 16 != 0 }

    /// Whether the item is a text with a slash (`<mtext>m/s</mtext>`, `<mtext>m/</mtext>`) or a degree sign alone
    /// (`<mtext>°</mtext>`, before `<mtext>C/s</mtext>`): a quotient of units may start there without a quantity, a product
    /// of units, the denominator or the scale's letter after it (``Analyzer/unitAt(_:_:_:names:)``).
    var mayStartUnit: Bool { bits & 64 != 0 }

    /// Whether `m`, a text, is a number (``isNumeralText``).
    private static func isNumeral(text m: MathNode) -> Bool {
        if case .text(let t, _) = m.kind { t.isDecimalNumeral } else { false }
    }

    /// Whether ``Analyzer/premerge(from:_:)`` may start a pattern at the item: ``mayStartPattern`` (but not
    /// scripts on a letter or an operator), ``mayBeCurrency`` or ``isNumeralText``, noted once when a raw
    /// item is made. (Its scan of a row tested the three an item, with a look at the node of a text, and
    /// the pass's loop tested every identifier and every scripted letter further: premerge was the stage's
    /// most mispredicted function, `MathAloudBench stages` under callgrind, session 45.)
    var mayStartMerge: Bool { bits & 32 != 0 }

    /// ``mayBeCurrency`` where it needs no look-up of a scalar's general category, and true where it
    /// would (`premerge` then tests it): noted for every raw item, the look-up cost ~40 instructions an
    /// item, `MathAloudBench stages` under callgrind, session 45.
    /// (Read on the stored number, ASCII first: through `Unicode.Scalar`'s checked initialiser it cost
    /// ~8.7 k mispredicted branches of 3,000 analyses, `MathAloudBench stages` under callgrind, session 45.)
    @inline(__always)
    private var mayBeCurrencyCheaply: Bool {
        // A currency sign set as an operator (`<mo>$</mo>`) is the sign alone (no attributes). (Inlined: a
        // call of this test for every item cost +0.7 M instructions of 3,000 analyses, `MathAloudBench
        // stages` under callgrind, session 45.)
        let v = scalarValue
        // ``RowItem/none`` (no sole scalar) is above every scalar.
        let sign = v < RowItem.none && Unicode.Scalar.mayBeCurrencySign(v)
        if kind == .operator { return sign }
        return (kind == .identifier || kind == .other) && (sign || hasAttributes)
    }

    /// Whether the item may be a currency written before its amount (which starts a measurement): a
    /// currency sign (also set as an operator, as publishers' MathML writes `<mo>$</mo><mn>1,250.00</mn>`:
    /// it was "dollar 1,250.00"), or a MathML leaf with attributes (a unit may be marked on it).
    var mayBeCurrency: Bool {
        if kind == .operator { return scalar?.isCurrencySign ?? false }
        guard kind == .identifier || kind == .other else { return false }
        if let u = scalar, u.isCurrencySign { return true }
        return hasAttributes
    }

    static let unmatched: Int32 = -1, looseBar: Int32 = -2, looseFence: Int32 = -3
}

extension Analyzer.FenceRole {
    /// The role as a ``RowItem/Role`` number.
    var role: RowItem.Role {
        switch self {
        case .notFence: return .notFence
        case .open: return .open
        case .close: return .close
        case .bar: return .bar
        }
    }

    /// A bar's `scripted`, or a non-fence's `endsOperand`.
    var scripted: Bool {
        switch self {
        case .notFence(let ends): return ends
        case .bar(_, let scripted): return scripted
        default: return false
        }
    }

    /// The fence character (nil for an item that is not a fence).
    var scalar: Unicode.Scalar? {
        switch self {
        case .notFence: return nil
        case .open(let u), .close(let u), .bar(let u, _): return u
        }
    }
}

/// A row being spliced by ``Analyzer/flatten(_:from:)``: its nodes and the next one to take.
struct FlattenFrame {
    var nodes: MathNode.Children
    var index: Int
    var end: Int
}

/// A fence still open while ``Analyzer/matchFences(from:_:)`` scans a row.
struct OpenFence {
    var index: Int
    var scalar: Unicode.Scalar
    var bar: Bool
    /// A bar that opened right after an operand (`2|x|`, `a ∣ b`).
    var afterOperand = false
}

extension Analyzer {
    // MARK: Entry

    /// The meaning of a sequence of presentation nodes (the items of a row, from `start`).
    mutating func sequence(_ nodes: MathNode.Children, from start: Int = 0, range: SourceRange?, _ ctx: Context) -> NodeID {
        // The row being analysed is opened here, so a self-contained group row is analysed as a row.
        // (The innermost such row is kept, not its children: copying those cost a switch and a
        // retain a child.)
        let base = items.count
        if nodes.count - start == 1, case .row = nodes[start].kind, Analyzer.chemistryMark(nodes[start]) == nil {
            var group = nodes[start]
            while group.children.count == 1, case .row = group.children[0].kind, Analyzer.chemistryMark(group.children[0]) == nil {
                group = group.children[0]
            }
            flatten(group.children, from: 0)
        } else {
            flatten(nodes, from: start)
        }
        return row(from: base, range: range, ctx)
    }

    /// Whether a number's text is words (MathML `<mn><mglyph alt="my glyph"/></mn>`): a space and a letter.
    static func numberIsWords(_ t: String) -> Bool {
        t.containsASCII(0x20) && t.unicodeScalars.contains(where: { $0.properties.isAlphabetic })
    }

    /// The meaning of a number or an identifier read as a row (nil for other nodes): one item that is
    /// not a fence, with nothing to merge or match, so its token decides (``oneTokenRow(_:range:_:)``).
    mutating func leafRow(_ m: MathNode, _ ctx: Context) -> NodeID? {
        // MathML attributes may change what a leaf means (a unit): the general path reads them.
        if m.attributes != nil { return nil }
        // A number's token is an operand with the number's own range: the number itself (words, from a
        // glyph's alt text, take the general path).
        if case .number(let t, let v) = m.kind {
            if let n = plainNumber(t, variant: v, range: m.range) { return n }
            return Self.numberIsWords(t) ? nil : otherNumber(t, variant: v, range: m.range)
        }
        guard let (t, v) = m.identifierParts else { return nil }
        var row = ctx
        row.level += 1
        row.groupDepth = 0
        return oneTokenRow(identifierToken(t, v, sole: t.soleScalar, font: m.attributes == nil ? nil : Analyzer.attributeFont(m),
                                           range: m.range), range: m.range, row)
    }

    /// The meaning of one presentation node read as a row.
    mutating func sequence(single m: MathNode, range: SourceRange?, _ ctx: Context) -> NodeID {
        if m.attributes != nil, Analyzer.chemistryMark(m) != nil { return chemistry(m, ctx) }
        if m.attributes != nil, Analyzer.hasIntent(m) { return intentNode(m, ctx) }
        if case .row = m.kind { return sequence(m.children, range: range, ctx) }
        if case .text = m.kind, let formula = Self.drawnStructuralFormula(m) { return chemistry(formula, ctx) }
        let base = items.count
        let item = RowItem(raw: m)
        if item.kind != .splice {
            items.push(item)
        } else {
            flatten(MathNode.Children(m), from: 0)
        }
        return row(from: base, range: range, ctx)
    }

    /// Analyses the row whose items are `items[base...]` and removes them.
    private mutating func row(from base: Int, range: SourceRange?, _ ctx: Context) -> NodeID {
        var ctx = ctx
        ctx.level += 1
        ctx.groupDepth = 0
        defer { items.truncate(to: base) }
        let count = items.count - base
        if count == 0 { return empty(range) }
        let tokenBase = tokens.count
        var period: NodeID? = nil
        if count == 1, items[base].role == .notFence, let m = items[base].raw {
            // One item that is not a fence character: no pattern to merge, no fence to match; its token
            // is the row's only token (``oneTokenRow(_:range:_:)``). The row's tokens start here (a group
            // in it follows no function of an outer row).
            let outerRowStart = rowStart
            rowStart = tokenBase
            let token = classify(m, items[base].kind, scalar: items[base].scalar, nameClass: items[base].nameClass, ctx)
            rowStart = outerRowStart
            if let t = token { return oneTokenRow(t, range: range, ctx) }
        } else {
            premerge(from: base, ctx)
            matchFences(from: base, ctx)
            period = tokenize(base..<items.count, ctx)
        }
        var result = parse(tokenBase..<tokens.count, range: period == nil ? range : nil, ctx)
        tokens.truncate(to: tokenBase)
        if let period {
            // The sentence's full stop stays, after what it ends: a list of the one item and the
            // stop as its punctuation (styles that read punctuation say it; others leave it out).
            let mark = b.mark()
            b.add(child: result, .item)
            b.add(child: period, .operator)
            result = b.finish(.list, mark, range: range)
        }
        if self.range(result) == nil, let range { return b.copy(result, range: range) }
        return result
    }

    /// The meaning of a row whose only token is `t` (`ctx` is the row's): an operand alone is the
    /// meaning itself unless it is a fence group or a differential mark.
    mutating func oneTokenRow(_ t: Token, range: SourceRange?, _ ctx: Context) -> NodeID {
        if t.kind == .operand, t.fence < 0, !isDifferentialMark(t) {
            if self.range(t.node) == nil, let range { return b.copy(t.node, range: range) }
            return t.node
        }
        let tokenBase = tokens.count
        if t.kind != .apply { tokens.push(t) }
        let result = parse(tokenBase..<tokens.count, range: range, ctx)
        tokens.truncate(to: tokenBase)
        if self.range(result) == nil, let range { return b.copy(result, range: range) }
        return result
    }

    // MARK: Flattening

    /// Splices nested rows, pass-through styles (display/script level, size), padding and
    /// `semantics` into one list of items on ``items``; drops thin spaces and blank text; keeps wide
    /// spaces (≥ 1 em) as separators. Iterative, so deep rows cost no stack.
    mutating func flatten(_ nodes: MathNode.Children, from start: Int) {
        let base = items.count
        // Most rows hold nothing to splice or drop: their items are the nodes (a node to splice
        // sends the row to the general path below).
        var i = start
        while i < nodes.count {
            let item = RowItem(raw: nodes.unretained(i))
            if item.kind == .splice || item.hasAttributes { break }
            // A text, or scripts on one, that may open with a coefficient (``coefficientSplit(_:)``).
            if item.mayOpenWithCoefficient { break }
            if item.kind == .other, let formula = Self.drawnStructuralFormula(nodes.unretained(i).takeUnretainedValue()) {
                items.push(RowItem(operand: chemistry(formula, Context())))
                i += 1
                continue
            }
            pushScripted(item, base: base)
            i += 1
        }
        if i == nodes.count { return }
        flatten(nodes, splicingFrom: i, base: base)
    }

    /// ``flatten(_:from:)`` from node `i`, which is not an item as it is (the items of `items[base...]`
    /// before it are made). Called apart, so that the rows with nothing to splice run only the loop above.
    /// (As one function, the splicing's code and the registers it saves were read for every row: the
    /// function missed the instruction cache ~9 times a formula, `MathAloudBench stages` under callgrind,
    /// session 45.)
    @inline(never)
    private mutating func flatten(_ nodes: MathNode.Children, splicingFrom i: Int, base: Int) {
        // The items before node `i` are made: go on from it.
        flattenFrames.truncate(to: 0)
        flattenFrames.push(FlattenFrame(nodes: nodes, index: i, end: nodes.count))
        while flattenFrames.count > 0 {
            let top = flattenFrames.count - 1
            if flattenFrames[top].index >= flattenFrames[top].end { flattenFrames.pop(); continue }
            let m = flattenFrames[top].nodes[flattenFrames[top].index]
            flattenFrames[top].index += 1
            // An element with an author's intent is one operand: what the intent says it is.
            if m.attributes != nil, Analyzer.hasIntent(m) {
                items.push(RowItem(operand: intentNode(m, Context())))
                continue
            }
            let item = RowItem(raw: m)
            if item.kind != .splice {
                if item.mayOpenWithCoefficient, let (count, rest) = Self.coefficientSplit(m) {
                    items.push(madeItem(count))
                    items.push(madeItem(rest))
                    continue
                }
                if item.kind == .other, let formula = Self.drawnStructuralFormula(m) {
                    items.push(RowItem(operand: chemistry(formula, Context())))
                    continue
                }
                pushScripted(item, base: base)
                continue
            }
            switch m.kind {
            case .row:
                // A row that is one bracketed group by construction (`\bra{ψ}`, `\ket{ϕ}`, a macro's
                // "(#1,#2)") stays one item, so its brackets cannot pair with brackets outside it.
                if Analyzer.isSelfContainedGroup(m) { items.push(item); continue }
                // A word with its own spaces (`\mathrm{~and~}`, `\mathrm{\ if\ }`) is prose between
                // formulas, as `\text{ and }` is: never a function's name.
                if let word = Analyzer.spacedWord(m) {
                    items.push(madeItem(word))
                    continue
                }
                // A unit's letters set each as an upright identifier in a row of their own after a number (`<mn>25</mn>
                // <mrow><mi mathvariant="normal">k</mi><mi mathvariant="normal">g</mi></mrow>`, as OpenStax's Polish physics sets
                // 555 units: "25 k g", textbook sweep 17) are the unit they spell, as `<mi mathvariant="normal">kg</mi>` is; so is
                // the group TeX makes of `\mathrm{k\Omega}` (a letter it does not join to the others: "5 k Omega" before).
                if items.count > 0, items[items.count - 1].kind == .number, let unit = uprightLettersUnit(m) {
                    items.push(madeItem(unit))
                    continue
                }
                if !m.children.isEmpty { flattenFrames.push(FlattenFrame(nodes: m.children, index: 0, end: m.children.count)) }
            case .semantics:
                if !m.children.isEmpty { flattenFrames.push(FlattenFrame(nodes: m.children, index: 0, end: 1)) }
            case .space(let w):
                // After a number and a full stop that begin the row (`<mn>2.</mn><mspace width="0.4em"/>`, `2.\;`, an
                // exercise's or a step's number: 72 formulas of OpenStax's algebra books), a space of TeX's `\;` or more sets
                // the number apart, as a wide space does: it was "2 dot 17 equals y minus 13".
                if items.count > base, w >= 0.9 || (w >= MathNode.stepNumberSpace && items.count == base + 2 && items[base].kind == .number
                                                    && items[base + 1].kind == .operator && items[base + 1].scalar == ".") {
                    if items[items.count - 1].kind != .wideSpace { items.push(RowItem(wideSpace: m)) }
                }
            case .text:
                continue    // blank text
            case .phantom, .subscript, .superscript, .subSuperscript:
                continue    // invisible content (a phantom; scripts of phantoms only)
            default:
                flattenFrames.push(FlattenFrame(nodes: m.children, index: 0, end: m.children.count))    // pass-through style, padding
            }
        }
        if items.count > base, items[items.count - 1].kind == .wideSpace { items.pop() }
    }

    /// The row `m` of two to four upright one-letter identifiers as the one upright identifier they spell, when that is a
    /// unit's symbol (`k`, `g` → `kg`; `P`, `a` → `Pa`); nil otherwise.
    func uprightLettersUnit(_ m: MathNode) -> MathNode? {
        guard m.children.count >= 2, m.children.count <= 4, m.attributes == nil else { return nil }
        var symbol = ""
        for c in m.children {
            guard case .identifier(let letter, .normal) = c.kind, c.attributes == nil, let u = letter.soleScalar, u.properties.isAlphabetic else { return nil }
            symbol.unicodeScalars.append(u)
        }
        guard Vocabulary.unitKey(symbol, names: unitNames) != nil else { return nil }
        return MathNode(.identifier(symbol, variant: .normal), range: m.range)
    }

    /// Whether `base` (a text, or a script's base) is a text, or a row of one, that opens with a digit from 1 to 9:
    /// the cheap test before ``coefficientSplit(_:)``, made when an item is classified (read unretained).
    @inline(__always)
    static func opensWithDigit(base: MathNode) -> Bool {
        func opensWithDigit(_ n: MathNode) -> Bool {
            guard case .text(let t, _) = n.kind, let first = t.utf8.first else { return false }
            return first >= 0x31 && first <= 0x39
        }
        guard case .row = base.kind else { return opensWithDigit(base) }
        return base.children.count == 1 && base.children.unretained(0)._withUnsafeGuaranteedRef(opensWithDigit)
    }

    /// A coefficient set in one text with the formula it counts, as publishers' MathML writes chemical equations
    /// (`<mtext>4Ag</mtext>`, `<msub><mtext>2H</mtext><mn>2</mn></msub>`, `<msup><mtext>3Mg</mtext><mn>2+</mn></msup>`):
    /// the number, and the element symbols with the scripts that were on the whole text (they count or charge the
    /// formula, not the coefficient). A text whose rest spells no element symbols stays (`2nd`, `3D`, `10 mL`), and so
    /// does one without scripts whose symbols are a unit's (`5V`).
    static func coefficientSplit(_ m: MathNode) -> (MathNode, MathNode)? {
        let isText: Bool
        if case .text = m.kind { isText = true } else { isText = false }
        guard let t = isText ? m : m.children.first.map(unwrapped), case .text(let text, let variant) = t.kind else { return nil }
        let digits = text.utf8.prefix(while: { $0 >= 0x30 && $0 <= 0x39 })
        guard digits.count >= 1, digits.count <= 3, digits.count < text.utf8.count else { return nil }
        let rest = String(text.utf8.dropFirst(digits.count))!
        guard SemanticTree.Records.elementRunCount(rest) != nil else { return nil }
        // A text alone whose symbols are a unit's too (`5V`, `2H`, `10K`) may be a measurement: it stays as written.
        // With a count or a charge (`<msub><mtext>3H</mtext><mn>2</mn></msub>`) it is a formula's.
        if isText, UnitSymbols.symbol(abbreviation: rest) != nil { return nil }
        let count = MathNode(.number(String(digits)!, variant: nil), range: t.range)
        let symbols = MathNode(.text(rest, variant: variant), range: t.range, attributes: t.attributes)
        if isText { return (count, symbols) }
        return (count, MathNode(m.kind, [symbols] + m.children.dropFirst(), range: m.range, attributes: m.attributes))
    }

    /// A row of one word of two or more letters (an identifier) with spaces of positive width on both
    /// sides: the word as text with spaces around it (prose, as `\text{ and }` is). A space on one side
    /// only is a unit's (`\mathrm{~meV}`) or a function name's (`\mathrm{dim~}`, `\mathrm{Tr\,}`).
    static func spacedWord(_ m: MathNode) -> MathNode? {
        let c = m.children
        guard c.count >= 3, c.count <= 5 else { return nil }
        func isSpace(_ child: MathNode) -> Bool {
            var n = child
            while case .row = n.kind, n.children.count == 1 { n = n.children[0] }
            if case .space(let w) = n.kind { return w > 0 }
            return false
        }
        guard isSpace(c[0]), isSpace(c[c.count - 1]) else { return nil }
        var word: MathNode? = nil
        for child in c {
            var n = child
            while case .row = n.kind, n.children.count == 1 { n = n.children[0] }
            switch n.kind {
            case .space(let w) where w > 0: continue
            case .identifier(let t, let v) where word == nil && t.unicodeScalars.count >= 2
                && t.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }):
                // A function, limit or unit name keeps its reading (`\mathrm{~mod~}`, `\mathrm{~kg~}`).
                if Vocabulary.nameClass(t) != nil || t == "mod" || UnitSymbols.symbol(abbreviation: t) != nil
                    || UnitSymbols.writtenKey(t) != nil { return nil }
                word = MathNode(.text(" " + t + " ", variant: v), [], range: n.range)
            default: return nil
            }
        }
        return word
    }

    /// A row of three or more items whose first item opens a bracket and whose last closes one.
    static func isSelfContainedGroup(_ m: MathNode) -> Bool {
        // Chemistry is read as a whole (a species, an equation).
        if m.attributes != nil, chemistryMark(m) != nil { return true }
        guard m.children.count >= 3, case .operator(let o, let op) = m.children[0].kind,
              case .operator(let c, let cp) = m.children[m.children.count - 1].kind,
              let u = o.soleScalar, Vocabulary.isOpener(u) else { return false }
        let opens = op.atomClass == .open || Vocabulary.isBar(u) || op.fence
        let v = c.soleScalar
        let closes = cp.atomClass == .close || v.map { Vocabulary.isBar($0) || Vocabulary.isCloser($0) } == true
        return opens && closes
    }

    // MARK: Multi-item patterns

    /// Merges patterns that span several items before fences are matched: pre-scripts
    /// (`{}_{n}C_{k}`), repeating decimals (`0.\overline{3}`) and measurements (`5\,\text{cm}`,
    /// `3\,\mathrm{m/s}`). Rewrites `items[base...]` in place.
    ///
    /// The scan for an item where a pattern may start (``RowItem/mayStartMerge``, noted when the item was
    /// made) is inlined where rows are read; the merging, a large function, is called from that item on.
    /// (The whole pass, called for every row and testing every item, missed the instruction cache ~17
    /// times a formula, the most of any function of the stage; now ~9, with the merging called for ~38 %
    /// of the rows of several items of the arXiv list, `MathAloudBench stages` under callgrind, session 45.)
    @inline(__always)
    mutating func premerge(from base: Int, _ ctx: Context) {
        let end = items.count
        var first = base
        while first < end, !items[first].mayStartMerge { first += 1 }
        if first == end { return }
        mergePatterns(from: base, first: first, ctx)
    }

    /// ``premerge(from:_:)`` from `first`, the first item of `items[base...]` where a pattern may start.
    @inline(never)
    private mutating func mergePatterns(from base: Int, first: Int, _ ctx: Context) {
        let end = items.count
        var w = first
        var i = first
        // The item last made of an identifier and the scripts on nothing after it, and what it was made of.
        var scripted: (Int, MathNode)? = nil
        // Whether every comma of the row stands between digit groups, found once, at the first number that
        // a comma follows (``commasSeparateGroups(base:written:from:end:)``): a row is scanned once.
        var rowCommasSeparateGroups: Bool? = nil
        func rowCommasSeparateGroupsFrom(_ from: Int) -> Bool {
            if let known = rowCommasSeparateGroups { return known }
            let found = commasSeparateGroups(base: base, written: w, from: from, end: end)
            rowCommasSeparateGroups = found
            return found
        }
        while i < end {
            // Every pattern continues with the next item, of a kind it names: pre-scripts with the
            // base (not an operator), a repeating decimal with `.` or the overlined digits, a
            // measurement with its unit (an identifier, a text, a unit squared or cubed).
            let kind = items[i].kind
            // An item that neither starts a pattern nor may be a currency (operators, most items) starts none.
            if !items[i].mayStartMerge {
                if w != i { items[w] = items[i] }
                w += 1
                i += 1
                continue
            }
            let next = i + 1 < end ? items[i + 1].kind : .operand
            // Scripts on a base of no width right after an identifier are its scripts (`H{}_2O`;
            // MathJax's mhchem output for H₂: `H`, then `_2` on a phantom padded to width 0), not
            // pre-scripts of what follows. Scripts on a space stay apart from what precedes them
            // (`3p~^{4}D`: the term symbol ⁴D), but for primes raised on a small space right after a letter
            // (`f\,'(x)`, `g\mkern1.35mu'(x)`, `F_1\,'(x)`: a book's macro keeps the prime off the letter's slant, and
            // TeX raises it on the space), which are the letter's: "f prime of x", not "f prime times x" (APEX Calculus's
            // `\fp`: its formulas saying "prime times" 767 → 41, session 54); so is an order in parentheses
            // (`f\,^{(n+1)}(z)`, the same book's derivatives).
            // (Scripts on a letter, a number or an operator, most scripts, are none of the three patterns of
            // scripts on nothing below: the tests are skipped, `MathAloudBench stages` under callgrind, session 37.)
            let onText = items[i].scriptsOnText
            if kind == .scripts, w > base, let p = items[w - 1].raw, let m = items[i].raw, let b = m.children.first,
               (!onText && items[w - 1].kind == .identifier && Self.hasNoWidth(b) && Analyzer.prescriptParts(m) != nil
                && Analyzer.degreeRingOnNothing(m) == nil) || (Self.isPrimesOnSmallSpace(m) && Self.takesPrime(p)) {
                let joined = MathNode(m.kind, [p] + m.children.dropFirst(), range: SourceRange.union(p.range, m.range),
                                      attributes: m.attributes)
                items[w - 1] = RowItem(operand: node(joined, ctx))
                scripted = (w - 1, joined)
                i += 1
                continue
            }
            // Scripts on nothing right after a bracketed group or its closing bracket are the group's (`Ca(NO_3){}_2(aq)`, as
            // OpenStax's chemistry sets `<mrow><mo>(</mo>…<mo>)</mo></mrow><msub><mrow/><mn>2</mn></msub>`: "close paren, sub 2,
            // times, open paren, a q"), as `(NO_3)_2` is.
            // Before a base that shows something they are its pre-scripts (`{}^7\mathrm{Be}(\alpha,p){}^{10}\mathrm{B}`), below.
            if kind == .scripts, !onText, w > base, i + 1 == end || next == .operator, let p = items[w - 1].raw,
               Self.endsWithClosingBracket(p), let m = items[i].raw,
               let b = m.children.first, Self.hasNoWidth(b), Analyzer.prescriptParts(m) != nil, Analyzer.degreeRingOnNothing(m) == nil {
                let joined = MathNode(m.kind, [p] + m.children.dropFirst(), range: SourceRange.union(p.range, m.range),
                                      attributes: m.attributes)
                items[w - 1] = madeItem(joined)
                scripted = nil
                i += 1
                continue
            }
            // A superscript on nothing right after a subscript is the same base's: after one so joined (MathJax's
            // mhchem output for SO₄²⁺: `SO`, `_4` and `^{2+}` each on a padded phantom), or a charge after a counted
            // formula, as publishers' MathML writes an ion (`<msub><mtext>SO</mtext><mn>4</mn></msub><msup><mrow/><mn>2−</mn></msup>`,
            // ``isChargeScript(_:)``, ``isCountedFormula(_:)``): `SO_4^{2-}`. Staggered scripts that are no charge stay
            // apart (`T_i{}^j`).
            if kind == .scripts, !onText, w > base, let m = items[i].raw, case .superscript = m.kind, m.children.count == 2,
               Self.hasNoWidth(m.children[0]) {
                var sub: MathNode? = nil
                if let (at, joined) = scripted, at == w - 1, case .subscript = joined.kind {
                    sub = joined
                } else if items[w - 1].kind == .scripts, Self.isChargeScript(m.children[1]), let p = items[w - 1].raw, Self.isCountedFormula(p) {
                    sub = p
                }
                if let sub {
                    let both = MathNode(.subSuperscript, sub.children + [m.children[1]], range: SourceRange.union(sub.range, m.range),
                                        attributes: sub.attributes)
                    items[w - 1] = RowItem(operand: node(both, ctx))
                    scripted = nil
                    i += 1
                    continue
                }
            }
            // Pre-scripts need a base that shows something: scripts on nothing followed by more
            // scripts on nothing (MathJax's mhchem output for SO₄²⁺: `SO`, then `_4` and `^{2+}` each
            // on a padded phantom) belong to what precedes them.
            // Nor before a space or words (`r_i{}^2` then `\text{ becomes }`, OpenStax's Física universitaria): no base.
            let prescripts = kind == .scripts && !onText && next != .operator && next != .operand && next != .wideSpace
                && !(next == .other && (items[i + 1].raw.map(Self.isWords) ?? false))
                && !(items[i].raw.map { Analyzer.degreeRingOnNothing($0) != nil } ?? false)
                && !(next == .scripts && (items[i + 1].raw.map { Analyzer.prescriptParts($0) != nil } ?? false))
            let repeating = kind == .number && (next == .operator || next == .underOver)
            let unit = next == .identifier || next == .other || next == .scripts || next == .fraction
                || (next == .operator && items[i + 1].scalar == "\u{2062}" && i + 2 < end)
                // A currency sign set as an operator after an amount (`<mn>50</mn><mo>¢</mo>`), as `<mi>¢</mi>` is.
                || (next == .operator && kind == .number && items[i + 1].mayBeCurrency)
            let currencyFirst = next == .number && items[i].mayBeCurrency
            // A unit whose slash is typed at the end of its numerator's text, without a quantity (`<mtext>m/</mtext><msup><mtext>s
            // </mtext><mn>2</mn></msup>` after a vector's components, as OpenStax's physics sets it: "close paren, m/ s squared"):
            // the unit, as after a quantity (textbook sweep 13). So is a degree sign before a scale's quotient (`<mtext>°</mtext><mtext>C/s
            // </mtext>`: "degrees C/s"), where the quotient alone would be coulombs per second, and a quotient before a product of
            // units (`<mtext>J/mol</mtext><mo>·</mo><mtext>K</mtext>` after a value's uncertainty in parentheses: "J/mol times K").
            if items[i].mayStartUnit, let u = Analyzer.unitAt(items, i, end, names: unitNames), u.key.containsASCII(0x2F) {
                items[w] = RowItem(operand: unitLeaf(u.text, key: u.key, range: u.range))
                w += 1
                i += u.used
                continue
            }
            guard items[i].mayStartPattern || currencyFirst || (unit && items[i].isNumeralText), prescripts || repeating || unit || currencyFirst,
                  let m = items[i].raw else {
                if w != i { items[w] = items[i] }
                w += 1
                i += 1
                continue
            }
            // Pre-scripts: scripts on an empty base followed by the base.
            if prescripts, let pre = Analyzer.prescriptParts(m), let next = items[i + 1].raw {
                let n = self.prescripts(pre, next, range: SourceRange.union(m.range, next.range), ctx)
                items[w] = RowItem(operand: n)
                w += 1
                i += 2
                continue
            }
            if repeating, case .number(let digits, _) = m.kind {
                // Repeating decimal: 0.\overline{3}, 0.1\overline{6}.
                if let (n, used) = repeatingDecimal(digits, m, i, end) {
                    items[w] = RowItem(operand: n)
                    w += 1
                    i += used
                    continue
                }
                // Digits grouped by commas: one number, put where its last group was and read from
                // there on (a unit may follow: `13,000~\mathrm{K}`).
                if i + 2 < end, items[i + 1].scalar == ",", items[i + 2].kind == .number,
                   rowCommasSeparateGroupsFrom(i),
                   let (joined, last) = digitGroups(digits, m, i, base: base, written: w, end: end) {
                    items[last] = madeItem(joined)
                    i = last
                    continue
                }
            }
            // A currency written before an amount in digit groups (`\$1,000`): the groups first, as one
            // number right after the sign, which is read again with it.
            if currencyFirst, i + 3 < end, items[i + 2].scalar == ",", items[i + 3].kind == .number,
               let amount = items[i + 1].raw, case .number(let digits, _) = amount.kind,
               rowCommasSeparateGroupsFrom(i + 1),
               let (joined, last) = digitGroups(digits, amount, i + 1, base: base, written: w, end: end) {
                items[last] = madeItem(joined)
                items[last - 1] = items[i]
                i = last - 1
                continue
            }
            // A currency written before its amount: `$5`.
            if currencyFirst, let (n, used) = currencyMeasurement(m, i, ctx) {
                items[w] = RowItem(operand: n)
                w += 1
                i += used
                continue
            }
            if unit, Analyzer.isQuantity(m) {
                if let (n, used) = measurement(m, i, end, ctx) {
                    items[w] = RowItem(operand: n)
                    w += 1
                    i += used
                    continue
                }
                reciprocalUnits(after: i, end, ctx)
            }
            if w != i { items[w] = items[i] }
            w += 1
            i += 1
        }
        items.truncate(to: w)
    }

    /// Whether `m` is a closing bracket (`)`, `]`), or a row that is one bracketed group (``isSelfContainedGroup(_:)``:
    /// `<mrow><mo>(</mo>…<mo>)</mo></mrow>`).
    static func endsWithClosingBracket(_ m: MathNode) -> Bool {
        if case .operator(let t, _) = m.kind { return t == ")" || t == "]" }
        if case .row = m.kind { return isSelfContainedGroup(m) }
        return false
    }

    /// The unit that a degree sign and a scale's letter written as one text are, spaces around and between them aside
    /// (`°F`, `<mtext>° C</mtext>`): `°C` or `°F` as the unit table writes them; nil for any other text.
    static func degreeScale(_ t: String) -> String? {
        let tt = t.trimmingSpaces
        guard tt.hasPrefix("°"), case let scale = String(tt.dropFirst()).trimmingSpaces, scale.count == 1,
              UnitSymbols.key("°" + scale) != nil else { return nil }
        return "°" + scale
    }

    /// Whether a text is the degree sign alone, spaces around it aside (`<mtext>°</mtext>`).
    @inline(__always)
    static func isDegreeSignText(_ t: String) -> Bool { t.utf8.count <= 8 && t.trimmingSpaces == "°" }

    /// The ring of a superscript that is only a degree ring (``isDegreeRing(_:)``) on a base that shows
    /// nothing (`\,^{\circ}`, `{}^\circ`): a degree sign, never a pre-superscript of what follows.
    static func degreeRingOnNothing(_ m: MathNode) -> MathNode? {
        guard case .superscript = m.kind else { return nil }
        let c = m.children
        guard c.count == 2, isNone(c[0]) else { return nil }
        var ring = c[1]
        while case .row = ring.kind, ring.children.count == 1 { ring = ring.children[0] }
        guard case .operator(let t, _) = ring.kind, isDegreeRing(t.soleScalar) else { return nil }
        return ring
    }

    /// Whether a script is an ion's charge as one presentation node: a sign (`+`, `-`, `−`, `–`), a count
    /// from 2 to 9 and its sign in one leaf (`<mn>2−</mn>`), or the count and the sign side by side
    /// (`<mn>2</mn><mo>−</mo>`), in rows of one child or not (as the analysis's
    /// ``SemanticTree/Records/isIonCharge(_:)`` reads a charge).
    static func isChargeScript(_ m: MathNode) -> Bool {
        let isSign = SemanticTree.Records.isChargeSign
        let n = unwrapped(m)
        switch n.kind {
        case .operator(let t, _), .number(let t, _), .text(let t, _):
            return SemanticTree.Records.isChargeText(t, signAlone: true)
        case .row where n.children.count == 2:
            guard case .number(let count, _) = n.children[0].kind, count.unicodeScalars.count == 1,
                  let digit = count.unicodeScalars.first, ("2" ... "9").contains(digit),
                  case .operator(let sign, _) = n.children[1].kind, let s = sign.soleScalar else { return false }
            return isSign(s)
        default:
            return false
        }
    }

    /// Whether `m` is a superscript or both scripts whose superscript is a charge (``isChargeScript(_:)``).
    static func isCharged(_ m: MathNode) -> Bool {
        switch m.kind {
        case .superscript where m.children.count == 2: return isChargeScript(m.children[1])
        case .subSuperscript where m.children.count == 3: return isChargeScript(m.children[2])
        default: return false
        }
    }

    /// Whether `m` is a subscript that counts a formula's part: a count of 2 or more (`<mn>4</mn>`) on element
    /// symbols set as text or as an identifier (`SO`, `Hg`, `O`), or on a bracketed group of them
    /// (`(CN)`, `(OH)`), the bases chemistry counts.
    static func isCountedFormula(_ m: MathNode) -> Bool {
        guard case .subscript = m.kind, m.children.count == 2, case .number(let count, _) = unwrapped(m.children[1]).kind,
              let c = Int(count), c >= 2 else { return false }
        func isSymbols(_ n: MathNode) -> Bool {
            switch n.kind {
            case .text(let t, _), .identifier(let t, _): return SemanticTree.Records.elementRunCount(t) != nil
            default: return false
            }
        }
        let b = unwrapped(m.children[0])
        if isSymbols(b) { return true }
        // A bracketed group: `(`, element symbols (counted or not), `)`.
        guard case .row = b.kind, b.children.count >= 3, case .operator(let o, _) = b.children[0].kind,
              case .operator(let c, _) = b.children[b.children.count - 1].kind,
              (o == "(" && c == ")") || (o == "[" && c == "]") else { return false }
        return b.children.dropFirst().dropLast().allSatisfy { part in
            let p = unwrapped(part)
            if isSymbols(p) { return true }
            guard case .subscript = p.kind, p.children.count == 2, case .number = unwrapped(p.children[1]).kind else { return false }
            return isSymbols(unwrapped(p.children[0]))
        }
    }

    /// Whether `m` takes no width: `none`, an empty row, or padding of width 0 (around a phantom), alone
    /// in rows. A space or a phantom of something has width.
    static func hasNoWidth(_ m: MathNode) -> Bool {
        var m = m
        for _ in 0 ..< 8 {
            switch m.kind {
            case .none: return true
            case .row:
                guard m.children.count <= 1, let only = m.children.first else { return m.children.isEmpty }
                m = only
            case .padded(let p): return p.width == 0
            default: return false
            }
        }
        return false
    }

    /// Sub/superscripts on an empty base (`{}_{m}`), as (sub, sup).
    static func prescriptParts(_ m: MathNode) -> (MathNode?, MathNode?)? {
        switch m.kind {
        case .subscript where m.children.count == 2 && Analyzer.isNone(m.children[0]): return (m.children[1], nil)
        case .superscript where m.children.count == 2 && Analyzer.isNone(m.children[0]): return (nil, m.children[1])
        case .subSuperscript where m.children.count == 3 && Analyzer.isNone(m.children[0]): return (m.children[1], m.children[2])
        default: return nil
        }
    }

    /// Pushes `item` on ``items``. A degree sign set apart from its scale's letter under a power (`<mtext>°</mtext>
    /// <msup><mtext>C</mtext><mn>−1</mn></msup>`, a coefficient of expansion as OpenStax's Spanish physics sets it) is the
    /// degree Celsius under the power, as `<msup><mtext>°C</mtext>…</msup>` is: "per degree Celsius", it was "degrees per
    /// coulomb" (``degreeSignUnderScalePower(_:_:)``).
    @inline(__always)
    private mutating func pushScripted(_ item: RowItem, base: Int) {
        if item.kind == .scripts, items.count > base, let joined = Self.degreeSignUnderScalePower(items[items.count - 1].raw, item.raw) {
            items[items.count - 1] = madeItem(joined)
        } else {
            items.push(item)
        }
    }

    /// A structural formula set as one text (`<mtext>C═O</mtext>`, `<mtext>HC≡C</mtext>`, `<mtext>O=C–C</mtext>`,
    /// `<mtext>–CH═O</mtext>`, as OpenStax's Organic Chemistry sets 60 of its formulas): element symbols with their
    /// counts joined by bonds (`=` and `═` double, `≡` triple, `–`, `−` and `─` single; not a word's hyphen), one at
    /// least between two elements, nothing else (no space, no other letter): the formula mhchem's `\ce{C=O}` writes,
    /// its parts marked as chemistry (``chemistry(_:_:)``), so that it reads "C double bond O". Nil for any other text
    /// (`x=y`, `pH=7`, `C(CH`, `–B`, `I-V`).
    static func drawnStructuralFormula(_ m: MathNode) -> MathNode? {
        guard case .text(let t, _) = m.kind, t.utf8.count <= 48,
              t.utf8.contains(where: { $0 == 0x3D || $0 == 0xE2 }) else { return nil }
        var children: [MathNode] = [], interiorBonds = 0, elements = 0
        let scalars = Array(t.unicodeScalars)
        var k = 0
        func element(_ symbol: String) -> MathNode {
            MathNode(.text(symbol, variant: nil), [], range: m.range, attributes: ["data-chem": "element"])
        }
        while k < scalars.count {
            let u = scalars[k]
            let bond: String?
            switch u {
            case "=", "═": bond = "2"
            case "≡": bond = "3"
            case "–", "−", "─": bond = "1"
            default: bond = nil
            }
            if let bond {
                // Two bonds side by side are no formula.
                if let last = children.last, last.attributes?["data-chem"] == "bond" { return nil }
                children.append(MathNode(.operator(String(u), OperatorProperties(atomClass: .ord)), [], range: m.range,
                                         attributes: ["data-chem": "bond", "data-chem-bond": bond]))
                k += 1
                // A bond between two elements: one at an end alone (`–B`, a negated vector; `C=` before a value) is
                // no formula, unless it is a bond only chemistry draws (`H₂C═`, `HC≡`).
                if elements > 0, u == "═" || u == "≡" || k < scalars.count && ("A" ... "Z").contains(scalars[k]) { interiorBonds += 1 }
                continue
            }
            // An element's symbol: a capital and perhaps a small letter, then perhaps its count.
            guard ("A" ... "Z").contains(u) else { return nil }
            var symbol = String(u)
            k += 1
            if k < scalars.count, ("a" ... "z").contains(scalars[k]) {
                symbol.unicodeScalars.append(scalars[k])
                k += 1
            }
            guard SemanticTree.Records.isElementSymbol(symbol) else { return nil }
            elements += 1
            var digits = ""
            while k < scalars.count, ("0" ... "9").contains(scalars[k]) {
                digits.unicodeScalars.append(scalars[k])
                k += 1
            }
            if digits.isEmpty {
                children.append(element(symbol))
            } else {
                children.append(MathNode(.subscript, [element(symbol),
                                                      MathNode(.number(digits), [], range: m.range, attributes: ["data-chem": "count"])],
                                         range: m.range, attributes: ["data-chem-scripted": "1"]))
            }
        }
        guard interiorBonds > 0 else { return nil }
        return MathNode(.row, children, range: m.range, attributes: ["data-chem": "formula"])
    }

    /// The degree sign `sign` (or TeX's ring raised on nothing, `{}^\circ`) and a power of a scale's upright
    /// letter after it (`°`, `C^{-1}`) as the power of the one unit `°C` or `°F`; nil for anything else.
    static func degreeSignUnderScalePower(_ sign: MathNode?, _ scripts: MathNode?) -> MathNode? {
        // The scale's upright letter first: most scripts are on an italic letter, told by its variant.
        guard let sign, let scripts, case .superscript = scripts.kind, scripts.children.count == 2 else { return nil }
        let base = scripts.children[0].groupContent
        let scale: String
        switch base.kind {
        case .text(let t, _): scale = t
        case .identifier(let t, let v) where v == .normal: scale = t
        default: return nil
        }
        // A power (`−1`, `2`), not a footnote's mark (`C^{[2]}`).
        guard scale == "C" || scale == "F", sign.leafText?.trimmingSpaces == "°" || Analyzer.degreeRingOnNothing(sign) != nil,
              unitPower(scripts.children[1]) != nil else { return nil }
        return MathNode(.superscript, [MathNode(.text("°" + scale, variant: nil), [], range: SourceRange.union(sign.range, base.range)),
                                       scripts.children[1]],
                        range: SourceRange.union(sign.range, scripts.range), attributes: scripts.attributes)
    }

    /// Whether `m` is text of words that does not begin with an element's symbol (`se convierte en`, `becomes`;
    /// not `C (PET)`, `He is more tightly bound`, a nuclide's symbol and words after it): no base of pre-scripts.
    static func isWords(_ m: MathNode) -> Bool {
        guard case .text(let t, _) = m.kind else { return false }
        let words = t.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\u{A0}" })
        guard let first = words.first else { return false }
        // One word: a small letter first, no symbol (`becomes`, `and`).
        if words.count == 1 { return first.count > 1 && ("a" ... "z").contains(first[first.startIndex]) }
        return !SemanticTree.Records.isElementSymbol(String(first))
    }

    /// `{}_{n}C_{k}` → ``SemanticKind/prescripts`` (`combination` for C, `permutation` for P).
    mutating func prescripts(_ pre: (MathNode?, MathNode?), _ next: MathNode, range: SourceRange?, _ ctx: Context) -> NodeID {
        let preSub = pre.0.map { node($0, ctx) }
        let preSup = pre.1.map { node($0, ctx) }
        var baseNode = next
        var post: (MathNode?, MathNode?) = (nil, nil)
        switch next.kind {
        case .subscript where next.children.count == 2: baseNode = next.children[0]; post = (next.children[1], nil)
        case .superscript where next.children.count == 2: baseNode = next.children[0]; post = (nil, next.children[1])
        case .subSuperscript where next.children.count == 3:
            baseNode = next.children[0]; post = (next.children[1], next.children[2])
        default: break
        }
        let base = node(baseNode, ctx)
        let postSub = post.0.map { node($0, ctx) }
        let postSup = post.1.map { node($0, ctx) }
        return prescriptsNode(preSub: preSub, preSup: preSup, base: base, sub: postSub, sup: postSup, range: range)
    }

    /// A ``SemanticKind/prescripts`` node of analysed parts. A combination or permutation (`{}_nC_k`,
    /// `{}_nP_k`, or with the total written above, `{}^nP_k`: one pre-script and a subscript on C or P,
    /// nothing else) keeps its subscript as a child, the total in the role it is written in; otherwise
    /// the base carries its own scripts (`{}_2F_1`: base `F_1`, a subscript).
    mutating func prescriptsNode(preSub: NodeID?, preSup: NodeID?, base: NodeID, sub: NodeID?, sup: NodeID?,
                                 range: SourceRange?) -> NodeID {
        var counting: PropertyName? = nil
        // The counts are whole numbers or expressions of them (`{}_{10}C_3`, `{}_nP_k`, `{}_{n+1}C_k`): a
        // fraction or a decimal as an index is a label (the spectroscopic term `{}^4P_{3/2}`), not a count.
        func isCount(_ n: NodeID?) -> Bool {
            guard let n else { return false }
            switch kind(n) {
            case .fraction: return false
            case .number: return tree.integerValue(n) != nil
            case .infix: return !(tree.string(n, .operators)?.contains("/") ?? false)
            default: return true
            }
        }
        if (preSub != nil) != (preSup != nil), let sub, sup == nil, kind(base) == .identifier,
           isCount(sub), isCount(preSub ?? preSup) {
            switch scalar(base) {
            case "C": counting = .combination
            case "P": counting = .permutation
            default: break
            }
        }
        var core = base
        if counting == nil {
            if let sub { core = subscriptNode(core, sub) }
            if let sup { core = power(core, sup, range: nil) }
        }
        // A nuclide (`{}^{14}_{6}C`, isotope notation): `nuclide`, so that ClearSpeak reads it as mhchem's
        // `\ce{^{14}_{6}C}` is read ("C with mass number 14 and atomic number 6"); MathSpeak reads the
        // scripts as written.
        let nuclide = counting == nil && sub == nil && sup == nil && tree.isNuclide(preSub: preSub, preSup: preSup, base: base)
        let mark = b.mark()
        if let preSub { b.add(child: preSub, .presubscript) }
        if let preSup { b.add(child: preSup, .presuperscript) }
        b.add(child: core, .base)
        if let counting {
            b.add(child: sub!, .subscript)
            b.flag(counting)
        }
        if nuclide { b.flag(.nuclide) }
        return b.finish(.prescripts, mark, range: range)
    }

    /// Whether the row's commas all stand between digit groups — none among the items already written
    /// (`base..<written`), and each from `from` on between a number and three digits (another number's
    /// groups, `1,000 + 2,500`) — so that numbers there may be merged (``digitGroups``); a list
    /// (`\{10, 100, 1000\}`, `x_1, 250`) has other commas.
    func commasSeparateGroups(base: Int, written: Int, from: Int, end: Int) -> Bool {
        func isComma(_ k: Int) -> Bool { items[k].kind == .operator && items[k].scalar == "," }
        func isThreeDigits(_ k: Int) -> Bool {
            guard k < end, items[k].kind == .number, let g = items[k].raw, case .number(let t, _) = g.kind else { return false }
            return t.isDigitGroup
        }
        for k in base ..< written where isComma(k) { return false }
        for k in from ..< end where isComma(k) && !(k > from && items[k - 1].kind == .number && isThreeDigits(k + 1)) {
            // A comma that ends the row or comes before a wide space is punctuation (`N = 10,000,`).
            if k + 1 == end || items[k + 1].kind == .wideSpace { continue }
            return false
        }
        return true
    }

    /// A number written with commas between groups of three digits, `25,164,858` or `50,000`, as one
    /// number (as TeX's `50{,}000` and MathML's `<mn>50,000</mn>` are): item `i` (`digits`, one to
    /// three digits, not led by a zero: `0,100` is a pair or a decimal comma), then `,` and three digits
    /// (the last group may go on with a decimal part, `1,234.5`), once or more. Only when the row's
    /// commas all separate digit groups (``commasSeparateGroups(base:written:from:end:)``: `\{10, 100,
    /// 1000\}` and `x_1, 250` stay lists) and the groups are not alone between brackets (`f(1,000)`, `(2,500)` may be pairs). `written` is where premerge writes its next
    /// item: the row's items before it are final, those from `i` on not yet read. Returns the number and
    /// the index of the last item it takes.
    func digitGroups(_ digits: String, _ m: MathNode, _ i: Int, base: Int, written: Int, end: Int) -> (MathNode, Int)? {
        func isComma(_ k: Int) -> Bool { items[k].kind == .operator && items[k].scalar == "," }
        guard i + 2 < end, isComma(i + 1), digits.utf8.count <= 3, case .number(_, let variant) = m.kind else { return nil }
        var j = i
        var text = digits
        // Groups of three digits, a decimal part on the last only.
        while j + 2 < end, isComma(j + 1), items[j + 2].kind == .number, let g = items[j + 2].raw,
              case .number(let t, let v) = g.kind, v == variant, t.isDigitGroup {
            text += "," + t
            j += 2
            if t.utf8.count > 3 { break }
        }
        // The number as written with its commas is one (the first group not led by a zero: `0,100` is not).
        guard j > i, text.commasSeparateDigitGroups else { return nil }
        // A number after a comma is inside a run already declined (`\{100, 100, 100\}`): not a start.
        if written > base, isComma(written - 1) { return nil }
        // The whole content of a `\left(…\right)` pair, as of `(2,500)`: may be a pair.
        if base == fenceContentBase, i == base, j + 1 == end { return nil }
        if written > base, items[written - 1].role == .open, j + 1 < end, items[j + 1].role == .close { return nil }
        guard let last = items[j].raw else { return nil }
        return (MathNode(.number(text, variant: variant), [], range: SourceRange.union(m.range, last.range)), j)
    }

    /// A number followed by an overlined (or barred) run of digits: the repeating decimal, as a
    /// ``SemanticKind/number`` with `repeating-decimal` (ClearSpeak "Repeating decimals").
    mutating func repeatingDecimal(_ digits: String, _ m: MathNode, _ i: Int, _ end: Int) -> (NodeID, Int)? {
        var j = i + 1
        var written = digits
        if j < end, items[j].kind == .operator, items[j].scalar == "." {
            written += "."
            j += 1
        }
        guard written.containsASCII(0x2E), j < end, let over = items[j].raw, case .over = over.kind,
              over.children.count == 2, case .number(let rep, _) = Analyzer.unwrapped(over.children[0]).kind,
              Self.isBarMark(over.children[1])
        else { return nil }
        let range = SourceRange.union(m.range, over.range)
        let head = number(written, range: m.range)
        let tail = number(rep, range: over.children[0].range)
        let all = written + rep
        let start = b.mark()
        b.add(child: head, .whole)
        b.add(child: tail, .item)
        b.add(Analyzer.numberProperties(all))
        b.flag(.repeatingDecimal)
        b.string(.repeatingDigits, rep)
        b.integer(.repeatingCount, rep.unicodeScalars.count)
        let n = b.finish(.number, start, text: all, range: range, rangeFromChildren: false)
        return (n, j - i + 1)
    }

    /// The mark of a bar over digits: an overline or a macron (`‾`, `¯`, or a run of them), or a dash or a run
    /// of dashes set over them (`<mtext>—</mtext>`, `<mtext>–––</mtext>`: OpenStax's algebra books mark a
    /// repeating decimal's digits so, textbook sweep 11).
    static func isBarMark(_ m: MathNode) -> Bool {
        if let (mark, _) = Analyzer.accentLeaf(m), let name = Vocabulary.accentName(mark, over: true, stretchy: true),
           name == .overline || name == .bar {
            return true
        }
        guard let (u, _) = unwrapped(m).leafText?.repeatedScalar else { return false }
        switch u {
        case "\u{2014}", "\u{2013}", "\u{2012}", "\u{2015}", "\u{2212}", "-", "_": return true
        default: return false
        }
    }

    /// A node without the rows of one child around it (MathML `<mrow><mn>134</mn></mrow>`).
    static func unwrapped(_ m: MathNode) -> MathNode {
        var n = m
        while case .row = n.kind, n.children.count == 1 { n = n.children[0] }
        return n
    }

    /// Whether a node can be the quantity of a measurement: a number, a power of ten or a numeric fraction.
    /// A part in a row of its own is that part (`{10}^{6}`, MathML's `<msup><mrow><mn>10</mn></mrow>…`, as
    /// publishers write scientific notation: the unit after it was left as letters, "10 to the sixth power m").
    static func isQuantity(_ m: MathNode) -> Bool {
        switch m.kind {
        case .number: return true
        // A number set as text (`<mtext>800</mtext>`, `\text{800}`, as publishers' MathML writes amounts).
        case .text(let t, _): return t.isDecimalNumeral
        case .superscript:
            if m.children.count == 2, case .number = unwrapped(m.children[0]).kind, !Analyzer.isPrimeOrRing(m.children[1]) { return true }
            return false
        case .fraction:
            if m.children.count == 2, case .number = unwrapped(m.children[0]).kind, case .number = unwrapped(m.children[1]).kind { return true }
            return false
        default: return false
        }
    }

    /// Whether `p` is a letter, a letter with a subscript or a letter under an accent (`f`, `F_1`, `\vec r`): what a
    /// prime raised on a small space after it belongs to (``isPrimesOnSmallSpace(_:)``).
    static func takesPrime(_ p: MathNode) -> Bool {
        switch p.kind {
        case .identifier: return true
        case .subscript, .over:
            guard p.children.count == 2, case .identifier = p.children[0].kind else { return false }
            if case .over(let props) = p.kind { return props.accent }
            return true
        default: return false
        }
    }

    /// Whether `m` is a superscript of primes only, or of an order in parentheses, on a space of at most a thick space
    /// (5/18 em) either way (`\,'`, `\mkern1.35mu''`, `\,^{(4)}`).
    static func isPrimesOnSmallSpace(_ m: MathNode) -> Bool {
        guard case .superscript = m.kind, m.children.count == 2, case .space(let width) = m.children[0].kind,
              abs(width) <= 5.0 / 18 + 1e-9 else { return false }
        let script = m.children[1]
        // A derivative's order in parentheses (`f\,^{(n+1)}(z)`) is the letter's too.
        if case .fenced(let open, let close) = script.kind, open == "(", close == ")" { return true }
        if script.kind == .row, script.children.count >= 2, case .operator(let o, _) = script.children.first!.kind, o == "(",
           case .operator(let c, _) = script.children.last!.kind, c == ")" { return true }
        let parts = script.kind == .row ? Array(script.children) : [script]
        return !parts.isEmpty && parts.allSatisfy { part in
            if case .operator(let t, _) = part.kind { return primeCount(t, t.soleScalar) != nil }
            return false
        }
    }

    static func isPrimeOrRing(_ m: MathNode) -> Bool {
        var n = m
        while case .row = n.kind, let f = n.children.first { n = f }
        if case .operator(let t, _) = n.kind {
            let u = t.soleScalar
            return primeCount(t, u) != nil || isDegreeRing(u)
        }
        return false
    }

    /// A unit written after a quantity (its text, `unit-name` key, powers and range).
    struct Unit {
        var text: String
        var key: String
        var power: Int?
        var powerDenominator: Int?
        var range: SourceRange?
        var used: Int
    }

    /// A unit written after a quantity: upright identifiers (`\mathrm{kg}`), text (`\text{cm}`), their
    /// squares and cubes, and a quotient of two (`m/s`).
    static func unitAt(_ items: LentStack<RowItem>, _ start: Int, _ end: Int, names: UnitNames) -> Unit? {
        func single(_ k: Int) -> (text: String, key: String, power: Int?, range: SourceRange?)? {
            guard k < end, let m = items[k].raw else { return nil }
            // A function's name that is also a unit's symbol is the unit where no argument follows it:
            // at the row's end, or before an operator that opens nothing or a wide space
            // (`1\,\mathrm{arcsec}`, `5\,\mathrm{sec} < t`); `2\,\mathrm{arcsec}\,x` is the function.
            let argumentFollows = k + 1 < end && items[k + 1].kind != .wideSpace
                && !(items[k + 1].kind == .operator && items[k + 1].role != .open)
            return unit(m, nameMayBeUnit: !argumentFollows)
        }
        // One unit symbol, perhaps with a power: the item after a quantity, or a part of a fraction of units.
        func unit(_ m: MathNode, nameMayBeUnit: Bool = false) -> (text: String, key: String, power: Int?, range: SourceRange?)? {
            // A unit marked in MathML is one whatever its symbol (its key is the symbol when unknown).
            if let attributes = m.attributes, Analyzer.isMarkedUnit(attributes), let t = m.leafText {
                let written = t.trimmingSpaces
                return (written, UnitSymbols.markedKey(written), nil, m.range)
            }
            if case .superscript = m.kind, m.children.count == 2, let attributes = m.children[0].attributes,
               Analyzer.isMarkedUnit(attributes), let t = m.children[0].leafText,
               let p = unitPower(m.children[1]), p > 0 {
                let written = t.trimmingSpaces
                let key = UnitSymbols.markedKey(written)
                return (written + "^\(p)", key + powerSign(p), p, m.range)
            }
            switch m.kind {
            case .text(let t, _):
                let tt = t.trimmingSpaces
                // A text with spaces on both sides is a word between others (`2 \text{ at } t = 0`,
                // `(1 a 1)`): a unit only when it is a unit's name, not a symbol's look-alike.
                if let first = t.unicodeScalars.first, first.isSpace, let last = t.unicodeScalars.last, last.isSpace {
                    return names.key(tt).map { (tt, $0, nil, m.range) }
                }
                // A function's name set as text before its argument (`4<mtext>sec</mtext><mi>t</mi>`, as OpenStax's Spanish calculus
                // books set 32 secants: "4 seconds, t", textbook sweep 17) is the function, as an upright identifier's is.
                if !nameMayBeUnit, let c = Vocabulary.nameClass(tt), c != .limit, c != .named { return nil }
                if UnitSymbols.notWhenText.contains(tt) { return nil }
                if let key = Vocabulary.unitKey(tt, names: names) { return (tt, key, nil, m.range) }
                // The degree sign and the scale's letter with a space between (`<mtext>° C</mtext>`): `°C`.
                if let written = Analyzer.degreeScale(tt), let key = UnitSymbols.key(written) { return (written, key, nil, m.range) }
                return nil
            case .identifier(let t, let v):
                // An upright name, or a currency sign after an amount (`5€`); not the name of a
                // trigonometric, hyperbolic, logarithmic or exponential function when an argument may
                // follow (`3\mathrm{ch}\,x`, the hyperbolic cosine, not chains; `min` and `deg` stay units).
                guard v == .normal || (v == nil && t.hasSeveralScalars) || UnitSymbols.isCurrency(t) else { return nil }
                if !nameMayBeUnit, let c = Vocabulary.nameClass(t), c != .limit, c != .named { return nil }
                if let key = Vocabulary.unitKey(t, names: names) { return (t, key, nil, m.range) }
                return nil
            case .operator(let t, _):
                // A currency sign after an amount set as an operator (`<mn>50</mn><mo>¢</mo>`, and `<mtext>¢</mtext>`, which
                // the reader makes one), as the identifier `<mi>¢</mi>` is ("50 cents"; it was the sign's word, "50 cent").
                guard UnitSymbols.isCurrency(t), let key = Vocabulary.unitKey(t, names: names) else { return nil }
                return (t, key, nil, m.range)
            case .superscript where m.children.count == 2:
                guard let p = unitPower(m.children[1]), p > 0,
                      let (base, key) = poweredUnit(m.children[0].groupContent, names: names) else { return nil }
                // Keys write powers as the lexicon does: cm², m/s².
                return (base + "^\(p)", key + powerSign(p), p, m.range)
            default:
                return nil
            }
        }
        // An upright symbol: an upright identifier's or a text's (`\mathrm{F}`, MathML `<mtext>F</mtext>`).
        func uprightSymbol(_ n: MathNode) -> String? {
            switch n.kind {
            case .identifier(let t, let v) where v == .normal: return t
            case .text(let t, _):
                let symbol = t.trimmingSpaces
                return symbol.isEmpty || symbol.count != t.count ? nil : symbol
            default: return nil
            }
        }
        // The degree sign and the scale's letter written apart (`<mtext>°</mtext><mtext>C</mtext>`,
        // `<mi>°</mi><mi mathvariant="normal">F</mi>`, `\mathrm{°C}`): the one unit `°C` or `°F` of the unit
        // table, as `°C` written in one piece is, not degrees times coulombs.
        // A scale's letter in a quotient's text (`<mtext>°</mtext><mtext>C/s</mtext>`, as OpenStax's books set a rate of
        // heating) is the unit `°C/s`, not degrees times coulombs per second (textbook sweep 13).
        func degreesOfScale(_ k: Int) -> (text: String, key: String, power: Int?, range: SourceRange?)? {
            guard k + 1 < end, let m = items[k].raw, uprightSymbol(m) == "°" || m.kind == .identifier("°", variant: nil),
                  let next = items[k + 1].raw, let t = uprightSymbol(next),
                  let key = t.containsASCII(0x2F) ? UnitSymbols.writtenKey("°" + t) : UnitSymbols.key("°" + t) else { return nil }
            return ("°" + t, key, nil, SourceRange.union(m.range, next.range))
        }
        // The micro prefix written as a Greek letter before an upright unit symbol (`5\,\mu\mathrm{m}`,
        // `\mathrm{\mu m}`, `\mu\mathrm{s}^2`, MathML `<mi>μ</mi><mtext>F</mtext>`), or another prefix
        // written upright apart from its unit (`<mtext>k</mtext><mtext>Ω</mtext>`, as publishers' MathML
        // writes them: "10 M Omega", "2.0 mu F"): one prefixed unit, as `µm` or `kΩ` written in one piece is.
        func microPrefixed(_ k: Int) -> (text: String, key: String, power: Int?, range: SourceRange?)? {
            guard k + 1 < end, let m = items[k].raw, let next = items[k + 1].raw else { return nil }
            let prefix: String
            if case .identifier(let mu, _) = m.kind, mu == "μ" || mu == "µ" {
                prefix = "µ"
            } else if case .text(let p, _) = m.kind, UnitSymbols.prefixesWrittenApart.contains(p),
                      case .text = (next.kind == .superscript && next.children.count == 2 ? next.children[0] : next).groupContent.kind,
                      let end = m.range?.upperBound, end == next.range?.lowerBound {
                // Another prefix only as MathML texts side by side, nothing between them in the source: `m`
                // and `s` with a space between (`\mathrm{m\,s}`, `<mspace/>`) are meters and seconds.
                prefix = p == "μ" ? "µ" : p
            } else {
                return nil
            }
            var unitNode = next
            var power: Int? = nil
            if case .superscript = next.kind, next.children.count == 2, let p = unitPower(next.children[1]), p > 0 {
                unitNode = next.children[0].groupContent
                power = p
            }
            guard let t = uprightSymbol(unitNode) else { return nil }
            // The prefix's unit may be a quotient's numerator (`<mi>μ</mi><msup><mtext>C/m</mtext><mn>2</mn></msup>`, as OpenStax's
            // physics sets a charge density: "30 mu coulombs per square meter", textbook sweep 13); the power is then the denominator's.
            let quotient = t.containsASCII(0x2F)
            let numerator = quotient ? String(t.prefix(while: { $0 != "/" })) : t
            guard UnitSymbols.prefixable.contains(numerator) || UnitSymbols.symbol(abbreviation: numerator) != nil
                    || UnitSymbols.plain.contains(prefix + numerator) else { return nil }
            // Written as the unit table reads a power (`µm^2` → `µm²`).
            let written = prefix + t + (power.map { "^\($0)" } ?? "")
            guard let key = UnitSymbols.writtenKey(written) else { return nil }
            return (written, key, quotient ? nil : power, SourceRange.union(m.range, next.range))
        }
        func reciprocal(_ k: Int) -> (text: String, key: String, range: SourceRange?)? {
            guard let m = items[k].raw else { return nil }
            return reciprocalUnit(m, names: names)
        }
        // `\mathrm{km\,s}^{-1}`: a group of units with a negative power on its last.
        func group(_ k: Int) -> (text: String, key: String, power: Int?, range: SourceRange?)? {
            guard let r = reciprocal(k), !r.key.hasPrefix("/") else { return nil }
            return (r.text, r.key, nil, r.range)
        }
        // A quotient of unit symbols typeset as a fraction after the quantity (`5\,\frac{\mathrm{m}}{\mathrm{s}}`,
        // `\frac{\mathrm{km}}{\mathrm{h}^2}`, `5\,\frac{€}{\mathrm{h}}`): the unit `m/s`, as `\mathrm{m/s}` is. A
        // stack without a rule (`\genfrac` with no line) is no quotient; units MathML marks in a fraction
        // (`intent=":unit"`) are read by the fraction's own rules, as before.
        if start < end, let m = items[start].raw, case .fraction(let f) = m.kind, f.lineThickness != 0, m.children.count == 2,
           !m.children.contains(where: { Analyzer.isMarkedUnitOrItsPower($0) }),
           let num = unit(m.children[0].groupContent), let den = unit(m.children[1].groupContent) {
            var unit = Unit(text: num.text + "/" + den.text, key: num.key + "/" + den.key, power: num.power, range: m.range, used: 1)
            unit.powerDenominator = den.power
            return unit
        }
        // A quotient of two unit symbols in one group raised as a whole (`9.8\,\mathrm{ft/sec}^2`,
        // `\mathrm{m/s}^2`, as the sciences typeset an acceleration): the power is the denominator's, as
        // `\mathrm{m}/\mathrm{s}^2` writes it ("feet per second squared"; it was "ft divided by secant
        // squared"). The group ends at the denominator, so a function's name there is the unit (`sec`).
        if start < end, let m = items[start].raw, case .superscript = m.kind, m.children.count == 2,
           let p = unitPower(m.children[1]), p > 0, case let base = m.children[0].groupContent, case .row = base.kind,
           base.children.count == 3, Analyzer.isUnitSlash(base.children[1]),
           let num = unit(base.children[0]), num.power == nil, !num.key.contains("/"),
           let den = unit(base.children[2], nameMayBeUnit: true), den.power == nil, !den.key.contains("/") {
            var unit = Unit(text: num.text + "/" + den.text + "^\(p)", key: num.key + "/" + den.key + powerSign(p),
                            power: nil, range: m.range, used: 1)
            unit.powerDenominator = p
            return unit
        }
        var firstUsed = 1
        var firstPowerDenominator: Int? = nil
        // A degree sign or a prefix written apart is tried first: `<mtext>M</mtext><mtext>Ω</mtext>` is megohms,
        // not molar and Ω; `<mtext>°</mtext><mtext>C</mtext>` degrees Celsius, not degrees and coulombs.
        var first = degreesOfScale(start) ?? microPrefixed(start)
        if first != nil {
            firstUsed = 2
        } else if start + 1 < end, let m = items[start].raw, let num = unitBeforeSlash(m, names: names) {
            // A quotient whose slash is typed at the end of the numerator's text, the denominator in scripts of its own
            // (`<mtext>m/</mtext><msup><mtext>s</mtext><mn>2</mn></msup>`, `<mtext>J/</mtext><mtext>°C</mtext>`, as OpenStax's
            // physics sets them: "2.1 m/ s squared"): the unit `m/s²`, as `\mathrm{m/s^2}` is (textbook sweep 13).
            var used = 2
            let degrees = degreesOfScale(start + 1)
            if degrees != nil { used = 3 }
            guard let den = degrees ?? single(start + 1), !den.key.contains("/"), (den.power ?? 1) > 0 else { return nil }
            first = (num.written + "/" + den.text, num.key + "/" + den.key, nil, SourceRange.union(m.range, den.range))
            firstUsed = used
            firstPowerDenominator = den.power
        } else {
            first = single(start) ?? group(start)
        }
        guard let first else { return nil }
        // An upright d right before a variable is the mark of a differential (`3\,\mathrm{d}x`), not days.
        if first.key == "d", start + 1 < end, items[start + 1].kind == .identifier || items[start + 1].kind == .scripts {
            return nil
        }
        // A one-letter symbol before an opening parenthesis is a function's name (`3\,\mathrm{P}(A)`).
        if first.text.unicodeScalars.count == 1, start + firstUsed < end, items[start + firstUsed].scalar == "(" {
            return nil
        }
        var unit = Unit(text: first.text, key: first.key, power: first.power, range: first.range, used: firstUsed)
        unit.powerDenominator = firstPowerDenominator
        // A unit symbol (with a positive power or none) as a factor of a product at `k`: its parts and how
        // many items it takes (two for the micro sign written apart).
        // With `quotient`, a quotient of units too (`<mtext>m/s</mtext>`, the last factor of `kg·m/s`).
        func factor(_ k: Int, quotient: Bool = false) -> (text: String, key: String, power: Int?, range: SourceRange?, used: Int)? {
            var used = 1
            let degrees = degreesOfScale(k)
            if degrees != nil { used = 2 }
            guard !isMarked(k), let f = degrees ?? single(k) ?? { used = 2; return microPrefixed(k) }(), quotient || !f.key.contains("/"),
                  (f.power ?? 1) > 0 else { return nil }
            // An upright d before a variable is a differential's mark (`\mathrm{N\,m\,d}x`); a one-letter
            // symbol before a parenthesis a function's name (`\mathrm{m}\,\mathrm{P}(A)`).
            if k + used < end, f.key == "d", items[k + used].kind == .identifier || items[k + used].kind == .scripts { return nil }
            if k + used < end, f.text.unicodeScalars.count == 1, items[k + used].scalar == "(" { return nil }
            return (f.text, f.key, f.power, f.range, used)
        }
        // The product sign between two factors, if `k` is one (`\cdot`, the middle dot, an invisible times).
        func productSign(_ k: Int) -> Bool {
            guard k < end, items[k].kind == .operator, let u = items[k].scalar else { return false }
            return u == "⋅" || u == "·" || u == "∙" || u == "\u{2062}"
        }
        // Factors of a product after `k` (each after a product sign or right after the previous one, as
        // the spaces `\,`, `~` and juxtaposition write it): their texts, keys (joined by a space, `kg m²`),
        // range and the index after the last. Two element symbols side by side are chemistry (`2\,\mathrm{H}\mathrm{I}`),
        // not a product of units (the measurement's own test says so).
        // With `quotient`, the last factor may be a quotient of units set as one (`<mtext>kg</mtext><mo>·</mo><mtext>m/s</mtext>`,
        // as OpenStax's physics sets a momentum: "kilograms, times m/s"): its slash ends the product, `kg m/s`, "kilogram meters per
        // second" (textbook sweep 13).
        func product(after k: Int, previous: Int, quotient: Bool = false) -> (text: String, key: String, range: SourceRange?, next: Int)? {
            var k = k, previous = previous
            var text = "", key = "", range: SourceRange? = nil
            while true {
                let sign = productSign(k)
                let at = sign ? k + 1 : k
                guard at < end, let f = factor(at, quotient: quotient) else { break }
                if !sign, Analyzer.isUnmarkedElement(items[previous].raw), Analyzer.isElementPart(items[at].raw) { break }
                text += (sign ? "·" : " ") + f.text
                key += " " + f.key
                range = SourceRange.union(range, f.range)
                previous = at
                k = at + f.used
                if quotient, f.key.contains("/") { break }
            }
            return key.isEmpty ? nil : (text, key, range, k)
        }
        // A unit MathML marks (`intent=":unit"`, alone or under its power): units so marked side by side
        // are read by the rules of marked units, as before (a locale's "kilogram per square meter").
        func isMarked(_ k: Int) -> Bool { Analyzer.isMarkedUnitOrItsPower(items[k].raw) }
        // A product of units (`\mathrm{N\cdot m}`, `\mathrm{kg\,m^2}`, `\mathrm{kg}\,\mathrm{m}^2`): one
        // unit whose key names the factors in order, a space between them (`N m`, `kg m²`), as a group under
        // a negative power makes (`\mathrm{kg\,m\,s}^{-2}`: `kg m/s²`). The power is a factor's, not the unit's.
        if !first.key.contains("/"), !isMarked(start), let more = product(after: start + firstUsed, previous: start + firstUsed - 1, quotient: true) {
            unit.text += more.text
            unit.key += more.key
            unit.range = SourceRange.union(unit.range, more.range)
            unit.used = more.next - start
            unit.power = nil
        }
        // One `/` followed by a unit (`m/s`, `m/s^2`) or a product of units in parentheses
        // (`\mathrm{J/(kg\,K)}`: `J/kg K`, "joules per kilogram kelvin").
        let slash = start + unit.used
        // The slash may be written as text (`<mtext>m</mtext><mtext>/</mtext><mtext>s</mtext>`, as publishers'
        // MathML writes m/s: it was "meters, divided by s").
        if slash + 1 < end, items[slash].raw.map(Analyzer.isUnitSlash) ?? false,
           !unit.key.contains("/") {
            if let second = single(slash + 1) {
                unit.text += "/" + second.text
                unit.key += "/" + second.key
                unit.range = SourceRange.union(unit.range, second.range)
                unit.used += 2
                unit.powerDenominator = second.power
            } else if items[slash + 1].scalar == "(", let f = factor(slash + 2),
                      let more = product(after: slash + 2 + f.used, previous: slash + 2) ?? (f.power == nil ? ("", "", nil, slash + 2 + f.used) : nil),
                      more.next < end, items[more.next].scalar == ")" {
                unit.text += "/(" + f.text + more.text + ")"
                unit.key += "/" + f.key + more.key
                unit.range = SourceRange.union(unit.range, items[more.next].raw?.range)
                unit.used = more.next + 1 - start
            }
        } else if slash < end, !unit.key.contains("/"), let m = items[slash].raw, let den = Analyzer.unitAfterSlash(m, names: names) {
            // The slash typed at the start of the denominator's text (`<mtext>/s</mtext>`, `<msup><mtext>/kg</mtext><mn>2</mn></msup>`,
            // as OpenStax's physics sets `cm³/s` and `N·m²/kg²`: "cubic centimeters, /s", textbook sweep 13).
            unit.text += "/" + den.written
            unit.key += "/" + den.key
            unit.range = SourceRange.union(unit.range, m.range)
            unit.used += 1
            unit.powerDenominator = den.power
        }
        // A second slash and a unit after a quotient (`<mtext>km</mtext><mtext>/</mtext><mtext>s</mtext><mtext>/</mtext><mtext>Mpc
        // </mtext>`, the Hubble constant as OpenStax's physics sets it: "kilometers per second, divided by Mpc"): one more
        // denominator, "per megaparsec" (textbook sweep 13).
        let second = start + unit.used
        if unit.powerDenominator == nil, unit.key.containsASCII(0x2F), second + 1 < end, items[second].raw.map(Analyzer.isUnitSlash) ?? false,
           let more = single(second + 1), !more.key.contains("/"), (more.power ?? 1) > 0 {
            unit.text += "/" + more.text
            unit.key += "/" + more.key
            unit.range = SourceRange.union(unit.range, more.range)
            unit.used += 2
            unit.powerDenominator = more.power
        }
        // A quotient followed by a product of units (`\mathrm{J/kg\cdot K}`, `<mtext>J/kg</mtext><mo>·</mo><mtext>°C</mtext>`,
        // as physics writes a specific heat): the factors continue the denominator, as in `J/(kg\,K)`:
        // "joules per kilogram kelvin", not "joules per kilogram, times kelvins".
        if unit.powerDenominator == nil, let slashAt = unit.key.firstIndex(of: "/"),
           case let denominator = unit.key[unit.key.index(after: slashAt)...], !denominator.contains("/"), !denominator.contains(" "),
           let more = product(after: start + unit.used, previous: start + unit.used - 1) {
            unit.text += more.text
            unit.key += more.key
            unit.range = SourceRange.union(unit.range, more.range)
            unit.used = more.next - start
        }
        // Units after it with a negative power, as the sciences write a quotient (`km\,s^{-1}`,
        // `erg\,s^{-1}\,cm^{-2}`, `\mathrm{kg\cdot m^2\cdot s^{-2}}`, and `\mathrm{km\,s}^{-1}`, where the
        // power is typeset on the last unit of the group): each is a unit after a `/` (`km/s`, `erg/s/cm²`).
        var k = start + unit.used
        while true {
            let at = productSign(k) ? k + 1 : k
            guard at < end, let d = reciprocal(at) else { break }
            unit.text += " " + d.text
            unit.key += d.key
            unit.range = SourceRange.union(unit.range, d.range)
            unit.used = at + 1 - start
            k = at + 1
        }
        return unit
    }

    /// The power a unit's superscript writes: 2 or 3 (`cm^2`), or -1 to -3 (`s^{-1}`, `cm^{-2}`); nil
    /// for any other. A power in a row of its own is that power (`<msup><mrow><mtext>m/s</mtext></mrow><mrow><mn>2</mn></mrow></msup>`,
    /// as OpenStax's physics sets some of its units' powers: "0.550 m/s squared" said the quotient as written, textbook sweep 13).
    static func unitPower(_ e: MathNode) -> Int? {
        if case .number(let p, _) = e.kind { return p == "2" ? 2 : p == "3" ? 3 : nil }
        var e = e
        while case .row = e.kind, e.children.count == 1 { e = e.children[0] }
        if case .number(let p, _) = e.kind { return p == "2" ? 2 : p == "3" ? 3 : nil }
        guard case .row = e.kind, e.children.count == 2, case .operator(let minus, _) = e.children[0].kind,
              minus == "−" || minus == "-", case .number(let p, _) = e.children[1].kind else { return nil }
        return p == "1" ? -1 : p == "2" ? -2 : p == "3" ? -3 : nil
    }

    /// A unit symbol typed with a quotient's slash at the end of its text (`<mtext>m/</mtext>`, `<mtext>J/</mtext>`, as
    /// OpenStax's physics sets `m/s²`, the denominator in scripts of its own): the symbol as written and its key; nil
    /// for any other text (`1/`, a word's `and/`).
    static func unitBeforeSlash(_ m: MathNode, names: UnitNames) -> (written: String, key: String)? {
        guard case .text(let t, _) = m.kind, t.utf8.last == 0x2F else { return nil }
        let head = String(t.dropLast()).trimmingSpaces
        guard !head.isEmpty, let key = Vocabulary.unitKey(head, names: names), !key.contains("/") else { return nil }
        return (head, key)
    }

    /// A denominator typed with its slash in one text (`<mtext>/s</mtext>`), perhaps raised as a whole
    /// (`<msup><mrow><mtext>/kg</mtext></mrow><mn>2</mn></msup>`), as OpenStax's physics sets `cm³/s` and `N·m²/kg²`: the unit
    /// as written (a power with a caret), its key (`kg²`) and its power; nil for any other node (`/2`).
    static func unitAfterSlash(_ m: MathNode, names: UnitNames) -> (written: String, key: String, power: Int?)? {
        var base = m
        var power: Int? = nil
        if case .superscript = m.kind, m.children.count == 2 {
            guard let p = unitPower(m.children[1]), p > 0 else { return nil }
            base = m.children[0].groupContent
            power = p
        }
        guard case .text(let t, _) = base.kind, t.utf8.first == 0x2F else { return nil }
        let tail = String(t.dropFirst()).trimmingSpaces
        guard !tail.isEmpty, let key = Vocabulary.unitKey(tail, names: names) ?? degreeScale(tail).flatMap(UnitSymbols.key),
              !key.contains("/") else { return nil }
        return (tail + (power.map { "^\($0)" } ?? ""), key + (power.map(powerSign) ?? ""), power)
    }

    /// A slash between two units in one group: an operator (`/`, the division slash) or a text
    /// (`<mtext>/</mtext>`, as publishers' MathML writes it).
    static func isUnitSlash(_ n: MathNode) -> Bool {
        switch n.kind {
        case .operator(let o, _): return o == "/" || o == "∕"
        case .text(let t, _): return t.trimmingSpaces == "/"
        default: return false
        }
    }

    /// How a unit key writes a power (the lexicon's `cm²`, `s³`; nothing for the first power).
    static func powerSign(_ p: Int) -> String { abs(p) == 2 ? "²" : abs(p) == 3 ? "³" : "" }

    /// A unit symbol that carries a power (an upright identifier or a text under a superscript): as
    /// written, and its key.
    static func poweredUnit(_ n: MathNode, names: UnitNames) -> (written: String, key: String)? {
        // A space that opens the base is the unit's from its amount (`2\mathrm{\,cm}^3`, `<msup><mrow><mspace/><mtext>cm
        // </mtext></mrow><mn>3</mn></msup>`, as OpenStax's calculus books set 35 powers of units: "2 cm cubed").
        var n = n
        if case .row = n.kind, n.children.count == 2, case .space = n.children[0].kind { n = n.children[1] }
        // The degree sign and a scale's letter under one power (`<msup><mrow><mi>°</mi><mi>C</mi></mrow><mrow><mo>−</mo><mn>1</mn>
        // </mrow></msup>`, a coefficient of expansion as OpenStax's Polish physics sets it): the degree Celsius, not degrees
        // times coulombs (textbook sweep 17).
        if case .row = n.kind, n.children.count == 2, n.children[0].leafText == "°", let scale = n.children[1].leafText,
           let key = UnitSymbols.key("°" + scale) {
            return ("°" + scale, key)
        }
        let base: String
        switch n.kind {
        case .identifier(let t, let v) where v == .normal || (v == nil && t.hasSeveralScalars): base = t
        case .text(let t, _): base = t.trimmingSpaces
        default: return nil
        }
        return Vocabulary.unitKey(base, names: names).map { (base, $0) }
    }

    /// A unit or units after a quantity with a negative power of 1 to 3 on the last
    /// (`s^{-1}`, `cm^{-2}`, `\mathrm{km\,s}^{-1}`): the keys to add to a unit's, each after a `/`
    /// (`/s`, `/cm²`; `km/s` for a group whose first unit is not a reciprocal).
    static func reciprocalUnit(_ m: MathNode, names: UnitNames) -> (text: String, key: String, range: SourceRange?)? {
        guard case .superscript = m.kind, m.children.count == 2, let p = unitPower(m.children[1]), p < 0 else { return nil }
        let base = m.children[0].groupContent
        if let (written, key) = poweredUnit(base, names: names) { return ("\(written)^\(p)", "/" + key + powerSign(p), m.range) }
        // `\mathrm{km\,s}^{-1}`: units side by side (spaces between them), the power on the last.
        guard case .row = base.kind else { return nil }
        var written: [String] = [], keys: [String] = []
        for part in base.children {
            if case .space = part.kind { continue }
            guard let (w, k) = poweredUnit(part, names: names) else { return nil }
            written.append(w)
            keys.append(k)
        }
        // One unit with a space before or after it in its group (`\mathrm{\,Hz}^{-1}`) is that unit.
        if keys.count == 1 { return ("\(written[0])^\(p)", "/" + keys[0] + powerSign(p), m.range) }
        guard keys.count >= 2 else { return nil }
        return (written.joined(separator: " ") + "^\(p)", keys.dropLast().joined(separator: " ") + "/" + keys.last! + powerSign(p), m.range)
    }

    /// A unit symbol raised to a negative power right after the quantity at `i`, with no unit before it
    /// (`30\,\mathrm{cm}^{-1}`, `0.3\,\mathrm{Mpc}^{-1}`), and each such unit right after it
    /// (`3\,\mathrm{in}^{-1}\,\mathrm{mm}^{-1}`): no measurement of one unit, but the item becomes the
    /// power of a unit, as MathML's `<msup><mi intent=":unit">` is ("30 reciprocal centimeters").
    mutating func reciprocalUnits(after i: Int, _ end: Int, _ ctx: Context) {
        var k = i + 1
        while true {
            if k + 1 < end && items[k].scalar == "\u{2062}" { k += 1 }
            guard k < end, let s = items[k].raw, case .superscript = s.kind, s.children.count == 2,
                  let p = Analyzer.unitPower(s.children[1]), p < 0 else { return }
            let base = s.children[0].groupContent
            guard let (written, _) = Analyzer.poweredUnit(base, names: unitNames) else { return }
            let leaf = unitLeaf(written, range: base.range)
            items[k] = RowItem(operand: apply(scripts(sub: nil, sup: s.children[1], ctx), to: leaf, range: s.range))
            k += 1
        }
    }

    /// A quantity followed by a unit → ``SemanticKind/measurement``.
    mutating func measurement(_ m: MathNode, _ i: Int, _ end: Int, _ ctx: Context) -> (NodeID, Int)? {
        // An invisible times between the quantity and its unit (MathML `1⁢mm`) changes nothing.
        let gap = i + 2 < end && items[i + 1].scalar == "\u{2062}" ? 1 : 0
        guard var u = Analyzer.unitAt(items, i + 1 + gap, end, names: unitNames) else { return nil }
        // A count or a charge on the symbol (`3 H_2`, `6 H^+`, `2 F^-`, a coefficient set before its formula) is
        // chemistry's: no unit carries either.
        if let scripted = items[i + 1 + gap].raw, Analyzer.isCountedFormula(scripted) || Analyzer.isCharged(scripted) { return nil }
        u.used += gap
        // `6 H F`, `2 H Cl`, `2 H O_2`: an element symbol after a number, followed by another element (with
        // its count or not), starts a chemical formula with its coefficient (SiO₂ + 6 HF → …), not a unit
        // ("6 henrys").
        // An invisible separator or times between the two (`2⁢H⁣I`, MathML of `\ce{2HI}`) changes nothing.
        if Analyzer.isUnmarkedElement(items[i + 1 + gap].raw), i + 1 + u.used < end {
            var next = i + 1 + u.used
            if next + 1 < end, items[next].scalar == "\u{2063}" || items[next].scalar == "\u{2062}" { next += 1 }
            if Analyzer.isElementPart(items[next].raw) { return nil }
        }
        return (measurementNode(node(m, ctx), u), u.used + 1)
    }

    /// A ``SemanticKind/measurement`` of quantity `q` in unit `u`.
    mutating func measurementNode(_ q: NodeID, _ u: Unit) -> NodeID {
        let unitMark = b.mark()
        if let p = u.power { b.integer(.unitPower, p) }
        if let p = u.powerDenominator { b.integer(.unitPowerDenominator, p) }
        b.string(.unitName, u.key)
        // A unit with a written superscript (`ft^2`): the unit it raises, for a reading of the layout
        // ("feet squared").
        if u.power != nil, u.powerDenominator == nil, let last = u.key.unicodeScalars.last, last == "²" || last == "³" {
            b.string(.unitBase, String(String.UnicodeScalarView(u.key.unicodeScalars.dropLast())))
        }
        if UnitSymbols.isCurrency(u.key) { b.flag(.currency) }
        let unit = b.finish(.unit, unitMark, text: u.text, range: u.range, rangeFromChildren: false)
        let mark = b.mark()
        b.add(child: q, .quantity)
        b.add(child: unit, .unit)
        b.string(.unitName, u.key)
        if let p = u.power { b.integer(.unitPower, p) }
        if let p = u.powerDenominator { b.integer(.unitPowerDenominator, p) }
        if kind(q) == .number && text(q) == "1" { b.flag(.singular) }
        return b.finish(.measurement, mark)
    }

    /// A measurement over a unit, as a fraction writes a rate (`\frac{5\,\mathrm{m}}{\mathrm{s}}`,
    /// `\frac{2\,\mathrm{J}}{\mathrm{kg\,K}}`): the measurement in the quotient of the units (`m/s`,
    /// `J/kg K`), as `5\,\mathrm{m/s}` and `5\,\frac{\mathrm{m}}{\mathrm{s}}` are, so every locale
    /// says "5 meters per second". Nil unless `num` (the analysed numerator of fraction `m`) is a
    /// measurement of a unit symbol after its quantity and the denominator is all units (with no `/`).
    mutating func measurementOverUnit(_ m: MathNode, numerator num: NodeID) -> NodeID? {
        guard kind(num) == .measurement, !has(num, .currency), !has(num, .unitFirst), !has(num, .primeUnit),
              case .fraction(let f) = m.kind, f.lineThickness != 0, m.children.count == 2,
              let q = child(num, .quantity), let numUnit = child(num, .unit),
              let key = tree.string(num, .unitName) else { return nil }
        let base = items.count
        defer { items.truncate(to: base) }
        flatten(MathNode.Children(m.children[1]), from: 0)
        // Units MathML marks in a fraction are read by the fraction's own rules, as they are after a number.
        guard items.count > base, !(base..<items.count).contains(where: { Analyzer.isMarkedUnitOrItsPower(items[$0].raw) }),
              let den = Analyzer.unitAt(items, base, items.count, names: unitNames),
              den.used == items.count - base, !den.key.contains("/") else { return nil }
        var u = Unit(text: text(numUnit) + "/" + den.text, key: key + "/" + den.key, power: tree.integer(num, .unitPower),
                     range: SourceRange.union(range(numUnit), den.range), used: 0)
        u.powerDenominator = den.power
        return measurementNode(q, u)
    }

    /// A currency sign (unmarked, or marked as a unit in MathML) written before its amount (`\$5`,
    /// `€ 2.50`) → a ``SemanticKind/measurement`` with `unit-first`.
    mutating func currencyMeasurement(_ m: MathNode, _ i: Int, _ ctx: Context) -> (NodeID, Int)? {
        guard let t = m.leafText, let key = UnitSymbols.key(t.trimmingSpaces), UnitSymbols.isCurrency(key),
              m.attributes.map(Analyzer.isMarkedUnit) ?? true, let quantity = items[i + 1].raw else { return nil }
        let unitMark = b.mark()
        b.string(.unitName, key)
        b.flag(.currency)
        let unit = b.finish(.unit, unitMark, text: t.trimmingSpaces, range: m.range, rangeFromChildren: false)
        let q = node(quantity, ctx)
        let mark = b.mark()
        b.add(child: q, .quantity)
        b.add(child: unit, .unit)
        b.string(.unitName, key)
        b.flag(.unitFirst)
        if kind(q) == .number && text(q) == "1" { b.flag(.singular) }
        return (b.finish(.measurement, mark), 2)
    }

    /// Whether `m` is an identifier spelling one element symbol (`H`, `Cl`) that MathML does not mark
    /// as a unit.
    static func isUnmarkedElement(_ m: MathNode?) -> Bool {
        guard let m, case .identifier(let t, _) = m.kind else { return false }
        return !(m.attributes.map(isMarkedUnit) ?? false) && SemanticTree.Records.isElementSymbol(t)
    }

    /// Whether `m` is an element symbol, alone or with scripts (`F`, `O_2`, `H_2`, `Fe^{II}` written with
    /// `mmultiscripts` too).
    static func isElementPart(_ m: MathNode?) -> Bool {
        guard let m else { return false }
        switch m.kind {
        case .subscript, .superscript, .subSuperscript, .multiscripts(prescriptPairs: 0): return isUnmarkedElement(m.children.first)
        default: return isUnmarkedElement(m)
        }
    }

    /// Whether a node (or the group it is), or the base of the power it is, is a unit MathML marks
    /// (``isMarkedUnit(_:)``): units so marked keep the rules of marked units, in a product, a quotient or
    /// a fraction after a quantity.
    static func isMarkedUnitOrItsPower(_ m: MathNode?) -> Bool {
        guard var n = m?.groupContent else { return false }
        if case .superscript = n.kind, let base = n.children.first { n = base.groupContent }
        return n.attributes.map(isMarkedUnit) ?? false
    }

    /// Whether MathML attributes mark a unit of measure: `class="MathML-Unit"` (the class MathJax and
    /// SRE use) or the `unit` property of MathML 4 `intent` (`intent=":unit"`).
    static func isMarkedUnit(_ attributes: [String: String]) -> Bool {
        if let c = attributes["class"], c.split(separator: " ").contains("MathML-Unit") { return true }
        if let i = attributes["intent"], i.contains(":unit") { return true }
        return false
    }

    // MARK: Fence matching

    /// The fence character an item is, if any; for other items, whether they end an operand (so a
    /// following bar closes rather than opens).
    enum FenceRole {
        case notFence(endsOperand: Bool)
        case open(Unicode.Scalar)
        case close(Unicode.Scalar)
        case bar(Unicode.Scalar, scripted: Bool)
    }

    /// The fence role of a script or under/over node from its base (`m`): a fence operator carrying
    /// subscripts or superscripts (`\big|_0^1`, `)^2`) is that fence; other bases end an operand when
    /// they are closing or ordinary operators or no operator at all.
    static func fenceRole(ofBase base: MathNode, scripted: Bool) -> FenceRole {
        // A bar in a row of its own or sized by a style around it (MathML `<mrow><mo>|</mo></mrow>`,
        // `<mstyle mathsize="140%"><mo>|</mo></mstyle>`) is the bar. (Looked into by a call on the child:
        // a variable walking down held a reference of its own, a retain and a release for every scripted
        // item; with the base of `scriptToken` by subscript, 141.70 → 141.40 M instructions,
        // `MathAloudBench stages` under callgrind, session 41.)
        if base.children.count == 1, base.kind == .row || { if case .style = base.kind { return true } else { return false } }() {
            return fenceRole(ofBase: base.children[0], scripted: scripted)
        }
        guard let (t, cls, _) = base.operatorParts else { return .notFence(endsOperand: true) }
        if scripted, let u = t.soleScalar, let role = fenceRole(u, cls, scripted: true) { return role }
        return .notFence(endsOperand: cls == .close || cls == .ord)
    }

    /// The fence role of an operator character (every fence character is one scalar), nil when it
    /// is none.
    static func fenceRole(_ u: Unicode.Scalar, _ cls: AtomClass, scripted: Bool) -> FenceRole? {
        if Vocabulary.isBar(u) {
            switch cls {
            // ∥ and ⫴ are relations (parallel to) unless they pair around a norm, ∣ (divides, given) unless
            // it pairs around an absolute value. A relation bar with scripts (`\biggm|_0^1`, `\mid_{x=0}`)
            // is an evaluation bar, as a bar is.
            case .rel where !Vocabulary.isRelationBar(u): return scripted ? .bar(u, scripted: true) : nil
            case .open: return scripted ? nil : .open(u)
            case .close: return .close(u)
            default: return .bar(u, scripted: scripted)
            }
        }
        if cls == .rel || cls == .bin || cls == .punct { return nil }
        if !scripted, Vocabulary.isOpener(u) { return .open(u) }
        if Vocabulary.isCloser(u) { return .close(u) }
        return nil
    }

    /// Whether an operator (text `t`, sole scalar `u`) ends an operand: `!`, `%`, primes, ellipses,
    /// and ordinary symbols other than the invisible operators.
    static func endsOperand(_ t: String, _ u: Unicode.Scalar?, _ cls: AtomClass) -> Bool {
        if u == "!" || u == "%" { return true }
        if Analyzer.primeCount(t, u) != nil || Analyzer.isEllipsis(t, u) { return true }
        switch cls {
        case .bin, .rel, .punct, .open, .op: return false
        default:
            let first = u ?? t.unicodeScalars.first
            return !(first.map { (0x2061...0x2064).contains($0.value) } ?? false)
        }
    }

    /// Matches brackets over the items of one row (`items[base...]`) in a single pass with a stack.
    /// Parentheses and brackets pair with each other (`(0, 1]`, interval candidates); a bar closes the
    /// innermost open bar when an operand precedes it (`|a||b|`, `2|y|`) and otherwise opens; bars
    /// left over are relations (`a | b`, `\{x | x > 0\}`, `P(A | B)`), or evaluation bars when they
    /// carry scripts. The result is each item's ``RowItem/match``.
    ///
    /// The scan for a fence character is inlined where rows are read, and the matching is called only
    /// when there is one (for ~58 % of the rows of several items of the arXiv list; as
    /// ``premerge(from:_:)``).
    @inline(__always)
    mutating func matchFences(from base: Int, _ ctx: Context) {
        let end = items.count
        var i = base
        while i < end, items[i].role == .notFence { i += 1 }
        if i == end { return }
        matchFences(from: base, first: i, ctx)
    }

    /// ``matchFences(from:_:)`` from `first`, the first fence character of `items[base...]`.
    @inline(never)
    private mutating func matchFences(from base: Int, first i: Int, _ ctx: Context) {
        let end = items.count
        let maxNesting = max(0, min(Analyzer.maxGroupDepth - ctx.groupDepth, Analyzer.maxLevel - ctx.level))
        openFences.truncate(to: 0)
        var previousEnds = i > base && items[i - 1].endsOperand
        // Whether a square bracket opened (its bars may separate columns: ``markColumnBars(_:)``).
        var bracketOpened = false
        for i in i..<end {
            // Items that are not fences only say whether they end an operand.
            if items[i].role == .notFence {
                previousEnds = items[i].endsOperand
                // An operator alone between two bars of the same kind stands for an operand (the
                // placeholder of |·| and ‖·‖): the second bar closes.
                if !previousEnds, items[i].kind == .operator, i + 1 < end, items[i + 1].role == .bar,
                   let top = openFences.last, top.bar, top.index == i - 1, items[i + 1].fenceScalar == top.scalar {
                    previousEnds = true
                }
                continue
            }
            switch items[i].fenceRole {
            case .notFence(let ends):
                previousEnds = ends
            case .open(let u):
                if u == "[" { bracketOpened = true }
                if openFences.count < maxNesting {
                    openFences.push(OpenFence(index: i, scalar: u, bar: false))
                } else {
                    items[i].match = RowItem.looseFence
                }
                previousEnds = false
            case .close(let t):
                // Prefer the nearest compatible opener that is not a bar (⟨a|b⟩), then a bar (|ψ⟩).
                var found = -1
                var k = openFences.count - 1
                while k >= 0 {
                    if !openFences[k].bar, Vocabulary.closes(openFences[k].scalar, t) { found = k; break }
                    k -= 1
                }
                if found < 0 {
                    k = openFences.count - 1
                    while k >= 0 {
                        if openFences[k].bar, Vocabulary.closes(openFences[k].scalar, t) { found = k; break }
                        k -= 1
                    }
                }
                if found >= 0 {
                    let opener = openFences[found].index
                    dropOpenFences(above: found + 1)
                    openFences.pop()
                    items[opener].match = Int32(i)
                } else {
                    items[i].match = RowItem.looseFence
                }
                previousEnds = true
            case .bar(let t, let scripted):
                // A relation bar opened after an operand closes no pair that an operand follows: `a ∣ b ∣ c`
                // is divisibility twice and `ℓ ∥ m ∥ n` parallels (the bars of `2∣x∣`, `3∣x−1∣+2`, `2∥v∥` pair).
                if Vocabulary.isRelationBar(t), !scripted, let top = openFences.last, top.bar, top.scalar == t, top.afterOperand,
                   i + 1 < end, items[i + 1].kind != .operator, items[i + 1].kind != .wideSpace {
                    items[i].match = RowItem.looseBar
                    previousEnds = false
                    continue
                }
                if let top = openFences.last, top.bar, top.scalar == t, previousEnds {
                    openFences.pop()
                    items[top.index].match = Int32(i)
                    previousEnds = true
                } else if scripted {
                    items[i].match = RowItem.looseBar
                    previousEnds = true
                } else if openFences.count < maxNesting {
                    openFences.push(OpenFence(index: i, scalar: t, bar: true, afterOperand: previousEnds))
                    previousEnds = false
                } else {
                    items[i].match = RowItem.looseBar
                    previousEnds = false
                }
            }
        }
        // A bra ⟨ψ| that nothing after it closes: an angle bracket closed by a bar, at the end of the row
        // or before what it acts on (`|0⟩⟨0|X`, a projector applied to X).
        let n = openFences.count
        if n >= 2, openFences[n - 1].bar, !openFences[n - 2].bar,
           Vocabulary.isAngleOpen(openFences[n - 2].scalar) {
            items[openFences[n - 2].index].match = Int32(openFences[n - 1].index)
            openFences.truncate(to: n - 2)
        }
        dropOpenFences(above: 0)
        // Bars between the columns of square brackets written in the row (`[A|b]`).
        guard bracketOpened else { return }
        var k = base
        while k < end {
            if items[k].role == .open, items[k].fenceScalar == "[", items[k].match > Int32(k + 1) {
                markColumnBars(Int(k + 1) ..< Int(items[k].match))
            }
            k += 1
        }
    }

    /// Bars that separate what square brackets hold (`items[r]`, the content) into columns: `[A|b]`, an
    /// augmented matrix; `[\mathbf x_1|\mathbf x_2|\ldots|\mathbf x_n]`, a matrix by its columns. Every
    /// bar at the content's own level stands between two operands, none first or last and none with
    /// scripts: they are not absolute values (`|x_2|`) but loose bars, read as the bar they are (the
    /// rules' VerticalLine readings; "vertical bar" between columns). `[2|y| + 1]` and `[|x|]` keep their
    /// absolute values.
    mutating func markColumnBars(_ r: Range<Int>) {
        guard r.count >= 3 else { return }
        // Checked first, then marked (no list of the bars is kept: most brackets hold none).
        for pass in 0..<2 {
            let marking = pass == 1
            var j = r.lowerBound
            while j < r.upperBound {
                let item = items[j]
                if item.role == .open, item.match > Int32(j) { j = Int(item.match) + 1; continue }
                if item.role == .bar {
                    if marking {
                        items[j].match = RowItem.looseBar
                    } else {
                        if case .bar(_, let scripted) = item.fenceRole, scripted { return }
                        guard j > r.lowerBound, j + 1 < r.upperBound else { return }
                        let before = items[j - 1], after = items[j + 1]
                        guard before.endsOperand || before.role == .close,
                              after.role == .open || after.endsOperand || (after.role == .notFence && after.kind != .operator) else { return }
                    }
                }
                j += 1
            }
        }
    }

    /// Marks the fences open above the first `k` as loose (bars, or other fence characters).
    private mutating func dropOpenFences(above k: Int) {
        while openFences.count > k {
            let e = openFences.pop()
            items[e.index].match = e.bar ? RowItem.looseBar : RowItem.looseFence
        }
    }
}

// Narrow views of a node's kind for the row passes, which look at every item: each copies only the
// payload it returns (a switch over the whole kind copies all of it).
extension MathNode {
    /// An operator leaf's text, atom class and whether it is a large operator: what the rows read of
    /// an operator. (Binding text and properties together copies them through the value witness of
    /// their tuple, about a hundred instructions; one at a time they are plain loads.)
    @inline(__always)
    var operatorParts: (text: String, atomClass: AtomClass, largeOperator: Bool)? {
        guard let p = operatorProperties else { return nil }
        return (operatorText!, p.atomClass, p.largeOperator)
    }


    /// An operator leaf's atom class and the sole scalar of its text (nil for a longer or empty text),
    /// read in one look at the kind, without handing the text out (``RowItem``'s classification of
    /// every operator item).
    @inline(never)
    var operatorClassAndScalar: (AtomClass, Unicode.Scalar?)? {
        if case .operator(let t, let p) = kind { return (p.atomClass, t.soleScalar) }
        return nil
    }

    /// An operator's properties.
    @inline(never)
    var operatorProperties: OperatorProperties? {
        if case .operator(_, let p) = kind { return p }
        return nil
    }

    /// An operator's text.
    @inline(never)
    var operatorText: String? {
        if case .operator(let t, _) = kind { return t }
        return nil
    }

    /// Whether the node is a leaf with a text (identifier, number, operator, text: ``MathNode/leafText``
    /// is not nil), read from the kind alone.
    @inline(__always)
    var isTextLeaf: Bool {
        switch kind {
        case .identifier, .number, .operator, .text: return true
        default: return false
        }
    }

    /// An identifier's text.
    var identifierText: String? {
        if case .identifier(let t, _) = kind { return t }
        return nil
    }

    /// An identifier's text and variant.
    @inline(__always)
    var identifierParts: (text: String, variant: MathVariant?)? {
        if case .identifier(let t, let v) = kind { return (t, v) }
        return nil
    }

    /// A number's digits as written.
    var numberText: String? {
        if case .number(let t, _) = kind { return t }
        return nil
    }

    /// The kind of row item a node other than an operator or identifier is (see ``RowItem/Kind``).
    @inline(__always)
    var itemKind: RowItem.Kind {
        switch kind {
        case .number: return .number
        // Scripts that show nothing (mhchem's aligning phantoms) are dropped like a phantom.
        case .subscript, .superscript, .subSuperscript: return Analyzer.isInvisible(self) ? .splice : .scripts
        case .phantom: return .splice
        case .under, .over, .underOver: return .underOver
        case .fraction: return .fraction
        case .row, .padded, .semantics, .space: return .splice
        // Colour is kept as one item; other styles (display/script level, size) pass through.
        case .style(let p): return p.color != nil || p.background != nil ? .other : .splice
        // Blank text is dropped.
        case .text(let t, _): return t.unicodeScalars.allSatisfy(\.isSpace) ? .splice : .other
        default: return .other
        }
    }
}
