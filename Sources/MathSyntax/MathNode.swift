/// One node of the presentation tree: the shape of the formula, modelled on presentation MathML.
///
/// The tree is immutable: every stage that needs a different tree builds a new one. Each node
/// built from input carries the ``SourceRange`` it came from (nil for nodes built in code).
/// The children's meaning depends on ``kind``; each case documents its children.
///
/// A node is a reference (a final class with constant fields): the parser, the semantic analysis
/// and the layout pass nodes around and pattern-match them constantly, and sharing one costs a
/// reference count where copying a value would copy and retain every field. Equality and hashing
/// are structural, as for a value.
///
/// A node holds up to three children in itself and more in an array (``Children``): scripts,
/// fractions, roots, accents and groups of up to three items, most of the nodes with children, need
/// no array buffer of their own, an allocation and a free fewer each (a formula of the arXiv corpus
/// has ~28 nodes, ~5 of them such): 156.06 → 154.44 M instructions for 2,000 whole speaks,
/// `MathAloudBench stages` under callgrind, session 37.
public final class MathNode: Hashable, Sendable {
    /// What the node is, with the properties that belong to that kind.
    public let kind: Kind
    /// The node's children, in the order its ``Kind`` documents.
    public let children: Children
    /// Where in the source this node came from.
    public let range: SourceRange?
    /// Attributes kept from MathML input that the tree has no field for (`intent`, `arg`, `id`, …).
    /// Nil for nodes built from TeX.
    public let attributes: [String: String]?
    /// ``treeHeight`` and ``nodeCount``, counted as the node is made from its children's, so that
    /// neither needs a walk of the tree. The semantic analysis needs both before it starts, and its
    /// walk for them cost ~1.25 M instructions of 2,000 whole speaks; counting them here costs ~0.34 M
    /// (`MathAloudBench stages` under callgrind, session 38: 148.08 → 148.42 M, and 147.11 M with the
    /// analysis reading them instead of walking). The two take room the node had to spare: its 112
    /// bytes and these 120 are both one 128-byte malloc chunk. (A tree the parsers build cannot overflow
    /// them: 2³² nodes take 512 GiB. A tree built by hand that shares a subtree counts it once per
    /// parent, and its count may wrap: readers take it as a size hint, as `SemanticAnalyzer` does.)
    @usableFromInline let storedHeight: UInt32
    @usableFromInline let storedCount: UInt32

    /// Creates a node.
    @inlinable
    public convenience init(_ kind: Kind, _ children: [MathNode], range: SourceRange? = nil,
                            attributes: [String: String]? = nil) {
        self.init(kind, children: Children(children), range: range, attributes: attributes)
    }

    /// Creates a node with children held as ``Children`` (up to three without an array), or a leaf.
    @inlinable
    public init(_ kind: Kind, children: Children = Children(), range: SourceRange? = nil,
                attributes: [String: String]? = nil) {
        self.kind = kind
        self.children = children
        self.range = range
        self.attributes = attributes
        let below = children.heightAndCount
        storedHeight = below.height &+ 1
        storedCount = below.count &+ 1
    }

    /// The number of levels of the tree this node heads: 1 for a leaf, one more than its deepest
    /// child's otherwise. Known when the node is made (no walk of the tree).
    public var treeHeight: Int { Int(storedHeight) }

    /// The number of nodes in the tree this node heads, itself included. Known when the node is made
    /// (no walk of the tree).
    public var nodeCount: Int { Int(storedCount) }

    public static func == (a: MathNode, b: MathNode) -> Bool {
        if a === b { return true }
        return a.kind == b.kind && a.range == b.range && a.attributes == b.attributes && a.children == b.children
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(children)
        hasher.combine(range)
        hasher.combine(attributes)
    }

    /// A node's children: up to three held in the node, more in an array. A random-access
    /// collection of nodes, as the array it replaces was; `Array(children)` is the node's own
    /// array when it has more than three (no copy).
    public struct Children: RandomAccessCollection, Hashable, Sendable {
        @usableFromInline
        enum Storage: Sendable {
            case empty
            case one(MathNode)
            case two(MathNode, MathNode)
            case three(MathNode, MathNode, MathNode)
            case many([MathNode])
        }

        @usableFromInline let storage: Storage

        /// No children.
        @inlinable public init() { storage = .empty }
        /// One child.
        @inlinable public init(_ a: MathNode) { storage = .one(a) }
        /// Two children.
        @inlinable public init(_ a: MathNode, _ b: MathNode) { storage = .two(a, b) }
        /// Three children.
        @inlinable public init(_ a: MathNode, _ b: MathNode, _ c: MathNode) { storage = .three(a, b, c) }
        /// The children in `nodes`.
        @inlinable
        public init(_ nodes: [MathNode]) {
            switch nodes.count {
            case 0: storage = .empty
            case 1: storage = .one(nodes[0])
            case 2: storage = .two(nodes[0], nodes[1])
            case 3: storage = .three(nodes[0], nodes[1], nodes[2])
            default: storage = .many(nodes)
            }
        }

        public typealias Index = Int
        public typealias Indices = Range<Int>

        /// Zero.
        @inlinable public var startIndex: Int { 0 }
        /// The count.
        @inlinable public var endIndex: Int { count }
        /// `0 ..< count`.
        @inlinable public var indices: Range<Int> { 0 ..< count }

        /// The number of children.
        @inlinable
        public var count: Int {
            switch storage {
            case .empty: return 0
            case .one: return 1
            case .two: return 2
            case .three: return 3
            case .many(let nodes): return nodes.count
            }
        }

        /// Whether there are no children.
        @inlinable
        public var isEmpty: Bool {
            if case .empty = storage { return true }
            return false
        }

        /// `i + 1`.
        @inlinable @inline(__always) public func index(after i: Int) -> Int { i + 1 }
        /// `i - 1`.
        @inlinable @inline(__always) public func index(before i: Int) -> Int { i - 1 }

        /// Child `i`.
        @inlinable
        public subscript(i: Int) -> MathNode {
            switch storage {
            case .one(let a) where i == 0: return a
            case .two(let a, let b) where UInt(bitPattern: i) < 2: return i == 0 ? a : b
            case .three(let a, let b, let c) where UInt(bitPattern: i) < 3: return i == 0 ? a : i == 1 ? b : c
            case .many(let nodes): return nodes[i]
            default: preconditionFailure("index out of range")
            }
        }

        /// Child `i`, unretained: the node holds it.
        @inlinable @inline(__always)
        package func unretained(_ i: Int) -> Unmanaged<MathNode> {
            switch storage {
            case .one(let a) where i == 0: return .passUnretained(a)
            case .two(let a, let b) where UInt(bitPattern: i) < 2: return .passUnretained(i == 0 ? a : b)
            case .three(let a, let b, let c) where UInt(bitPattern: i) < 3:
                return .passUnretained(i == 0 ? a : i == 1 ? b : c)
            case .many(let nodes): return nodes.unretained(i)
            default: preconditionFailure("index out of range")
            }
        }

        /// The greatest ``MathNode/treeHeight`` of the children and the sum of their
        /// ``MathNode/nodeCount``s (zero for none). Inlined into the node's initialiser, where the
        /// children are read in place (outlined, each read retained and released its child).
        @inlinable @inline(__always)
        var heightAndCount: (height: UInt32, count: UInt32) {
            switch storage {
            case .empty: return (0, 0)
            case .one(let a): return (a.storedHeight, a.storedCount)
            case .two(let a, let b): return (Swift.max(a.storedHeight, b.storedHeight), a.storedCount &+ b.storedCount)
            case .three(let a, let b, let c):
                return (Swift.max(a.storedHeight, b.storedHeight, c.storedHeight), a.storedCount &+ b.storedCount &+ c.storedCount)
            case .many(let nodes): return Children.heightAndCount(nodes)
            }
        }

        /// ``heightAndCount`` of more than three children.
        @usableFromInline @inline(never)
        static func heightAndCount(_ nodes: [MathNode]) -> (height: UInt32, count: UInt32) {
            var height: UInt32 = 0, count: UInt32 = 0
            for i in nodes.indices {
                nodes.unretained(i)._withUnsafeGuaranteedRef {
                    height = Swift.max(height, $0.storedHeight)
                    count &+= $0.storedCount
                }
            }
            return (height, count)
        }

        /// The array of more than three children, nil for fewer.
        @inlinable
        var manyArray: [MathNode]? {
            if case .many(let nodes) = storage { return nodes }
            return nil
        }

        /// Whether the children are equal, one by one.
        @inlinable
        public static func == (a: Children, b: Children) -> Bool {
            let n = a.count
            guard n == b.count else { return false }
            var i = 0
            while i < n {
                if a[i] != b[i] { return false }
                i += 1
            }
            return true
        }

        /// Hashes as an array of the children does.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for child in self { hasher.combine(child) }
        }
    }

    /// The kinds of node.
    ///
    /// The payloads of the rare kinds with large properties (tables, styles, padding) are held
    /// indirectly, so that a kind takes the room of an operator's text and properties: every node
    /// stores one, and the leaves, which are most nodes, are copied and allocated smaller.
    public enum Kind: Hashable, Sendable {
        /// A horizontal group (`mrow`). Children: the items.
        case row
        /// An identifier (`mi`): a letter, a name like `sin`, a symbol of identifier class.
        /// The variant is nil when the MathML default applies (italic for one letter, upright otherwise).
        case identifier(String, variant: MathVariant?)
        /// A number (`mn`), digits kept as written (`3.14`, `1{,}000` → `1,000`). The variant is nil for
        /// the default, upright digits (`\mathbf{12}`, `𝟏𝟐` and `<mn mathvariant="bold">12</mn>` are "12"
        /// in ``MathVariant/bold``).
        case number(String, variant: MathVariant? = nil)
        /// An operator, relation, fence or separator (`mo`). The text is the Unicode character(s).
        case `operator`(String, OperatorProperties)
        /// Text (`mtext`).
        case text(String, variant: MathVariant?)
        /// Horizontal space (`mspace`), width in em (negative for `\!`).
        case space(width: Double)
        /// A fraction (`mfrac`). Children: numerator, denominator.
        case fraction(FractionProperties)
        /// A square root (`msqrt`). Children: the radicand.
        case squareRoot
        /// A root with an index (`mroot`). Children: radicand, index.
        case root
        /// Subscript (`msub`). Children: base, subscript.
        case `subscript`
        /// Superscript (`msup`). Children: base, superscript.
        case superscript
        /// Both (`msubsup`). Children: base, subscript, superscript.
        case subSuperscript
        /// Under script (`munder`). Children: base, under script.
        case under(UnderOverProperties)
        /// Over script (`mover`). Children: base, over script.
        case over(UnderOverProperties)
        /// Both (`munderover`). Children: base, under script, over script.
        case underOver(UnderOverProperties)
        /// Pre- and post-scripts (`mmultiscripts`). Children: base, then post-script pairs
        /// (subscript, superscript)…, then pre-script pairs; `prescriptPairs` counts the latter.
        /// An absent script is a ``Kind/none`` node.
        case multiscripts(prescriptPairs: Int)
        /// An empty script position (`none` in `mmultiscripts`).
        case none
        /// Content between matching delimiters that stretch (`\left…\right`, matrix delimiters).
        /// Children: the content items; a `\middle` delimiter appears as an operator child whose
        /// properties have `fence == true`. An empty string means no delimiter (`\left.`).
        case fenced(open: String, close: String)
        /// A table (`mtable`). Children: ``Kind/tableRow`` nodes.
        indirect case table(TableProperties)
        /// A table row (`mtr`/`mlabeledtr`). Children: ``Kind/tableCell`` nodes; when `labeled`, the
        /// first child is the label cell (`\tag`).
        case tableRow(labeled: Bool)
        /// A table cell (`mtd`). Children: the cell content items.
        case tableCell
        /// A notation around its content (`menclose`): `box`, `updiagonalstrike`, `downdiagonalstrike`,
        /// `horizontalstrike`, `roundedbox`, `circle`, …; several separated by spaces. Children: content.
        case enclose(notation: String)
        /// Style applied to the children (`mstyle`): colour, background, display/script level, size.
        indirect case style(StyleProperties)
        /// Invisible content that takes up its space (`mphantom`). Children: content.
        case phantom
        /// Content whose box is adjusted (`mpadded`): `\smash`, `\hphantom`, `\vphantom`, `\llap`…
        /// Children: content.
        indirect case padded(PaddedProperties)
        /// Input that could not be parsed (`merror`); the text is the raw source. A diagnostic says why.
        case error(String)
        /// MathML `semantics`: child 0 is the presentation; annotations are kept as (encoding, text).
        case semantics(annotations: [Annotation])
    }
}

extension Array where Element == MathNode {
    /// Node `i`, unretained: the array holds it (read in place, without the retain and release a
    /// subscript's copy costs: the analysis's row passes and ``MathNode/Children/unretained(_:)``).
    @inlinable @inline(__always)
    package func unretained(_ i: Int) -> Unmanaged<MathNode> {
        precondition(i >= 0 && i < count)
        return withUnsafeBufferPointer {
            UnsafeRawPointer($0.baseAddress!).load(fromByteOffset: i * MemoryLayout<MathNode>.stride, as: Unmanaged<MathNode>.self)
        }
    }

    /// The children as an array: the node's own array when it has more than three (no copy).
    @inlinable
    public init(_ children: MathNode.Children) {
        if let nodes = children.manyArray {
            self = nodes
        } else {
            self.init()
            reserveCapacity(children.count)
            for child in children { append(child) }
        }
    }
}

/// An annotation kept from MathML `semantics` (e.g. `application/x-tex`).
public struct Annotation: Hashable, Sendable {
    /// The `encoding` attribute.
    public var encoding: String
    /// The annotation text.
    public var text: String
    /// Creates an annotation.
    public init(encoding: String, text: String) {
        self.encoding = encoding
        self.text = text
    }
}

/// The TeX atom classes (TeXbook ch. 17), which decide spacing and meaning of an operator.
public enum AtomClass: String, Hashable, Sendable, Codable {
    case ord, op, bin, rel, open, close, punct, inner
}

/// Properties of an operator node (`mo` attributes plus the TeX atom class).
public struct OperatorProperties: Hashable, Sendable {
    /// The TeX class: binary, relation, large operator, fence…
    public var atomClass: AtomClass
    /// Grows to fit its content (`\left(`, extensible arrows, stretchy accents).
    public var stretchy: Bool
    /// A large operator (`\sum`, `\int`).
    public var largeOperator: Bool
    /// Limits move to scripts in text style (`\sum`, `\lim`).
    public var movableLimits: Bool
    /// A fence (parenthesis, bracket, bar used as delimiter).
    public var fence: Bool
    /// A separator (comma, semicolon).
    public var separator: Bool
    /// Explicit size in em from `\big`, `\Big`, `\bigg`, `\Bigg` (1.2, 1.8, 2.4, 3.0); nil otherwise.
    public var size: Double?

    /// Creates operator properties.
    public init(atomClass: AtomClass, stretchy: Bool = false, largeOperator: Bool = false,
                movableLimits: Bool = false, fence: Bool = false, separator: Bool = false,
                size: Double? = nil) {
        self.atomClass = atomClass
        self.stretchy = stretchy
        self.largeOperator = largeOperator
        self.movableLimits = movableLimits
        self.fence = fence
        self.separator = separator
        self.size = size
    }

    /// A binary operator (`+`, `\times`).
    public static let binary = OperatorProperties(atomClass: .bin)
    /// A relation (`=`, `\leq`, arrows).
    public static let relation = OperatorProperties(atomClass: .rel)
    /// Punctuation (`,`, `;`).
    public static let punctuation = OperatorProperties(atomClass: .punct, separator: true)
    /// An opening delimiter that does not stretch.
    public static let open = OperatorProperties(atomClass: .open, fence: true)
    /// A closing delimiter that does not stretch.
    public static let close = OperatorProperties(atomClass: .close, fence: true)
    /// An ordinary symbol written as an operator (`/`, `|` outside fences, `'`).
    public static let ordinary = OperatorProperties(atomClass: .ord)
}

/// Properties of a fraction.
public struct FractionProperties: Hashable, Sendable {
    /// Rule thickness: nil = default, 0 = none (`\binom`, `\atop`), otherwise em.
    public var lineThickness: Double?
    /// Display style forced (`\dfrac` true, `\tfrac` false) or inherited (nil).
    public var displayStyle: Bool?
    /// A continued fraction (`\cfrac`).
    public var continued: Bool
    /// Numerator alignment for `\cfrac[l]`/`[r]`: "left", "right", or nil (centre).
    public var numeratorAlign: String?

    /// Creates fraction properties.
    public init(lineThickness: Double? = nil, displayStyle: Bool? = nil, continued: Bool = false,
                numeratorAlign: String? = nil) {
        self.lineThickness = lineThickness
        self.displayStyle = displayStyle
        self.continued = continued
        self.numeratorAlign = numeratorAlign
    }
}

/// Properties of under/over scripts.
public struct UnderOverProperties: Hashable, Sendable {
    /// The over script is an accent (`\hat`, `\overline`): `accent="true"`.
    public var accent: Bool
    /// The under script is an accent (`\underline`, `\utilde`): `accentunder="true"`.
    public var accentUnder: Bool
    /// Creates under/over properties.
    public init(accent: Bool = false, accentUnder: Bool = false) {
        self.accent = accent
        self.accentUnder = accentUnder
    }
}

/// Column alignment in a table.
public enum ColumnAlignment: String, Hashable, Sendable, Codable {
    case left, center, right
}

/// A rule between rows or columns of a table.
public enum TableLine: String, Hashable, Sendable, Codable {
    case none, solid, dashed
}

/// Properties of a table.
public struct TableProperties: Hashable, Sendable {
    /// The TeX environment it came from (`pmatrix`, `cases`, `align`, `array`…) or `mtable` for MathML.
    public var environment: String
    /// Per-column alignment (repeats the last for extra columns).
    public var columnAlignments: [ColumnAlignment]
    /// Rules between columns (count = columns − 1 when set).
    public var columnLines: [TableLine]
    /// Rules between rows (count = rows − 1 when set).
    public var rowLines: [TableLine]
    /// Rules around the table (`\hline` first/last).
    public var frame: TableLine
    /// A rule on the table's left edge (`|` first in an `array` column specification).
    public var leftLine: TableLine
    /// A rule on the table's right edge (`|` last in an `array` column specification).
    public var rightLine: TableLine
    /// Display style in cells (`align`, `dcases`, `gathered`).
    public var displayStyle: Bool
    /// Equation numbering is on (`align`, `gather`, `equation` without star).
    public var numbered: Bool

    /// Creates table properties.
    public init(environment: String, columnAlignments: [ColumnAlignment] = [], columnLines: [TableLine] = [],
                rowLines: [TableLine] = [], frame: TableLine = .none, leftLine: TableLine = .none,
                rightLine: TableLine = .none, displayStyle: Bool = false, numbered: Bool = false) {
        self.environment = environment
        self.columnAlignments = columnAlignments
        self.columnLines = columnLines
        self.rowLines = rowLines
        self.frame = frame
        self.leftLine = leftLine
        self.rightLine = rightLine
        self.displayStyle = displayStyle
        self.numbered = numbered
    }
}

/// Properties of a style node. Nil fields are inherited.
public struct StyleProperties: Hashable, Sendable {
    /// Text colour (`\color`, `\textcolor`): a name or `#rrggbb`.
    public var color: String?
    /// Background colour (`\colorbox`).
    public var background: String?
    /// Display style on/off (`\displaystyle`, `\textstyle`…).
    public var displayStyle: Bool?
    /// Script level (0 text, 1 script, 2 scriptscript).
    public var scriptLevel: Int?
    /// Size scale relative to normal (`\Large` = 1.44…).
    public var mathSize: Double?

    /// Creates style properties.
    public init(color: String? = nil, background: String? = nil, displayStyle: Bool? = nil,
                scriptLevel: Int? = nil, mathSize: Double? = nil) {
        self.color = color
        self.background = background
        self.displayStyle = displayStyle
        self.scriptLevel = scriptLevel
        self.mathSize = mathSize
    }
}

/// Adjustments of an `mpadded` box, in em; nil keeps the content's own dimension.
public struct PaddedProperties: Hashable, Sendable {
    /// Width (0 for `\vphantom`, `\llap`, `\rlap`, `\clap`).
    public var width: Double?
    /// Height above the baseline (0 for `\smash`, `\hphantom`).
    public var height: Double?
    /// Depth below the baseline (0 for `\smash`, `\hphantom`).
    public var depth: Double?
    /// Horizontal offset of the content, in em (MathML `lspace="0.5em"`).
    public var leftShift: Double?
    /// Horizontal offset of the content as a multiple of the content's own width: −1 for `\llap`
    /// (the content ends at the box's origin), −½ for `\clap`; MathML's `lspace="-1width"`. Added to
    /// ``leftShift``.
    public var leftShiftWidths: Double?

    /// Creates padding properties.
    public init(width: Double? = nil, height: Double? = nil, depth: Double? = nil, leftShift: Double? = nil,
                leftShiftWidths: Double? = nil) {
        self.width = width
        self.height = height
        self.depth = depth
        self.leftShift = leftShift
        self.leftShiftWidths = leftShiftWidths
    }
}

/// MathML `mathvariant` values: the alphabet a letter is drawn from.
public enum MathVariant: String, Hashable, Sendable, Codable, CaseIterable {
    case normal
    case bold
    case italic
    case boldItalic = "bold-italic"
    case doubleStruck = "double-struck"
    case boldFraktur = "bold-fraktur"
    case script
    case boldScript = "bold-script"
    case fraktur
    case sansSerif = "sans-serif"
    case boldSansSerif = "bold-sans-serif"
    case sansSerifItalic = "sans-serif-italic"
    case sansSerifBoldItalic = "sans-serif-bold-italic"
    case monospace
}

extension MathVariant {
    /// The variant a MathML `mathvariant` value names: the values of MathML (surrounding spaces
    /// ignored), and the spellings other tools write for them — `sans-serif-bold` for
    /// `bold-sans-serif`, and MathJax's `-tex-mathit` (``italic``), `-tex-oldstyle` (``normal``) and
    /// `-tex-bold-oldstyle` (``bold``). Nil for other values, MathJax's calligraphic alphabets
    /// (`-tex-calligraphic`) among them: MathML has no variant for them (the semantic analysis reads
    /// them from the attribute).
    public init?(mathML value: String) {
        var value = Substring(value)
        while value.first == " " || value.first == "\t" { value.removeFirst() }
        while value.last == " " || value.last == "\t" { value.removeLast() }
        if let v = MathVariant(rawValue: String(value)) {
            self = v
            return
        }
        switch value {
        case "sans-serif-bold": self = .boldSansSerif
        case "-tex-mathit": self = .italic
        case "-tex-oldstyle": self = .normal
        case "-tex-bold-oldstyle": self = .bold
        default: return nil
        }
    }
}

extension MathNode {
    /// The least space (em) that sets a step's or an exercise's number apart from what follows it when a full stop ends the
    /// number at the start of a row (`2.\;17 = y - 13`, `<mn>2.</mn><mspace width="0.4em"/>`): TeX's `\;` (0.2778 em) or more.
    /// A quantity's thinner space before its unit (`30.\,\mathrm{A}`, `<mspace width="0.2em"/>`) does not.
    package static let stepNumberSpace = 0.25

    /// A letter or digits struck through (TeX's `\not x`, MathML's `<mn>2̸</mn>` and `<mi>x̸</mi>`, a cancelled common factor): the
    /// token inside an up-diagonal strike, as `\cancel` makes it. Nil when `token` is not an identifier or a number of letters and
    /// digits alone: a relation so struck (`≠`, `\not=`) is its negation.
    package static func struckOut(_ token: MathNode, range: SourceRange?) -> MathNode? {
        switch token.kind {
        case .identifier(let text, _), .number(let text, _):
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0" ... "9").contains($0) }) else { return nil }
            return MathNode(.enclose(notation: "updiagonalstrike"), [token], range: range)
        default:
            return nil
        }
    }
}
