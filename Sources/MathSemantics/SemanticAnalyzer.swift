import Foundation
import MathSyntax

/// Turns a presentation tree (``MathNode``) into a semantic tree: what the formula means,
/// independent of any language (DESIGN.md §4).
///
/// The analysis is total: every tree, including error nodes, trees read from MathML and huge or
/// deeply nested trees, yields a semantic tree. Recursion follows the input tree's own depth (plus
/// a bounded number of bracket levels inside one row); rows are analysed by a single pass that
/// matches fences and then parses operator precedence over an array of tokens.
///
/// ```swift
/// let tree = SemanticAnalyzer().tree(of: TeXParser().parse(#"\frac{3}{4}"#).root)
/// tree.root.kind                 // .fraction
/// tree.root.has("common")        // true
/// ```
public struct SemanticAnalyzer: Sendable {
    /// Switches for the analysis.
    public struct Options: Sendable {
        /// Unit names written out in words (`\text{meters}`) and the unit symbols they stand for: a
        /// language's words, so they come from the speaking locale (its `units.txt`), given as a
        /// language-neutral fact (word → unit symbol). None by default: only unit symbols are units.
        public var unitNames: UnitNames

        /// Whether to mark `applied-elsewhere` on a possible function (``SemanticKind/impliedTimes``) whose
        /// letter the formula writes before a sum or a product elsewhere. Finding it searches the whole
        /// formula where a letter stands before parentheses (2.2 k instructions a formula on average,
        /// 8 % of the analysis, `MathAloudBench stages` under callgrind, session 45), so it is done only
        /// for a style whose rules read the property (SimpleSpeak's). Off by default.
        public var marksAppliedElsewhere: Bool = false

        /// The default options.
        public init() { unitNames = UnitNames() }

        /// Options with unit names, and ``marksAppliedElsewhere``.
        public init(unitNames: UnitNames, marksAppliedElsewhere: Bool = false) {
            self.unitNames = unitNames
            self.marksAppliedElsewhere = marksAppliedElsewhere
        }
    }

    /// The options this analyser was created with.
    public let options: Options

    /// Creates an analyser.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// The semantic tree of a presentation tree, built flat (``SemanticTree``): the form the speech
    /// rules read. Never fails; parts it cannot understand become ``SemanticKind/unknown`` or
    /// ``SemanticKind/row`` nodes.
    public func tree(of root: MathNode) -> SemanticTree {
        // The analysis recurses once per level of the input tree (a few frames each). Shallow trees —
        // nearly all formulas — run on the caller's stack; deep ones on a thread with a large stack,
        // so a 200-deep tree is safe even on a 512 KiB secondary thread. The node knows its tree's
        // height and size (``MathNode/treeHeight``, ``MathNode/nodeCount``, counted as it was made): a
        // walk of the tree for them cost ~1.25 M instructions of 2,000 whole speaks (`MathAloudBench
        // stages` under callgrind, session 38). The size only sizes the room the tree reserves: capped,
        // since a tree built by hand that shares a subtree counts it once per parent.
        let nodes = min(root.nodeCount, SemanticAnalyzer.reservedNodesLimit)
        if root.treeHeight < SemanticAnalyzer.callerStackDepth {
            return Analyzer.tree(of: root, inputNodes: nodes, unitNames: options.unitNames,
                                 marksAppliedElsewhere: options.marksAppliedElsewhere)
        }
        return LargeStack.run { [nodes, options] in
            Analyzer.tree(of: root, inputNodes: nodes, unitNames: options.unitNames, marksAppliedElsewhere: options.marksAppliedElsewhere)
        }
    }

    /// The semantic tree of a presentation tree as linked ``SemanticNode``s (``tree(of:)``'s
    /// ``SemanticTree/root``).
    public func analyze(_ root: MathNode) -> SemanticNode {
        tree(of: root).root
    }

    /// Trees at least this deep are analysed on a thread with a large stack.
    static let callerStackDepth = 24
    /// The most nodes the tree being built reserves room for before it starts (it grows beyond).
    static let reservedNodesLimit = 1 << 20
}

/// Runs work on a thread with a large stack and waits for it.
enum LargeStack {
    /// Stack size for deep trees (address space only; pages are committed as they are touched).
    static let stackSize = 512 << 20

    /// The result slot: written once by the worker thread before it signals, read by the caller after
    /// the wait, so the semaphore orders every access (hence `@unchecked Sendable`).
    final class Box: @unchecked Sendable {
        var value: SemanticTree?
        let done = DispatchSemaphore(value: 0)
    }

    /// Runs `work` on a new thread with ``stackSize`` bytes of stack and returns its result. Blocks
    /// the calling thread meanwhile (only trees deeper than ``SemanticAnalyzer/callerStackDepth`` get here).
    static func run(_ work: @escaping @Sendable () -> SemanticTree) -> SemanticTree {
        let box = Box()
        let deadline = FormulaDeadline.current   // the caller's time limit goes with the work
        let thread = Thread {
            box.value = FormulaDeadline.$current.withValue(deadline) { work() }
            box.done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        box.done.wait()
        return box.value ?? SemanticTree(SemanticNode(.unknown))
    }
}


/// What the analysis of one node needs to know about where it sits.
struct Context {
    /// How many parentheses or brackets enclose the node (ClearSpeak Paren_SpeakNestingLevel).
    var parenDepth = 0
    /// How many bracket groups of rows enclose the node (bounds recursion inside one row).
    var groupDepth = 0
    /// How many rows and bracket groups enclose the node in the whole analysis. Brackets nest as
    /// structure only while this stays below ``Analyzer/maxLevel``, so the recursion stays within a
    /// small multiple of the input tree's depth.
    var level = 0
    /// The node is the whole content of a fence: a table of one cell stays a table there (a 1 by 1
    /// matrix), where on its own it is just its cell. Cleared for the table's cells.
    var soleFenceContent = false
    /// The node is a script (a subscript or superscript): an operator there with nothing to its left is
    /// a mark on what it follows (`V^{\otimes n}`, a tensor power), not a large operator.
    var script = false
}

/// The memory one analysis lends its stacks (``Analyzer``, ``SemanticTree/Builder``): seven blocks of
/// ``LentMemory/blockSize`` bytes on the call stack (the largest `withUnsafeTemporaryAllocation` keeps there),
/// four for the tree being built and three for the scratch stacks, each stack at a place fixed when the code
/// is compiled. (Handed out by a ``LentMemory`` one stack at a time, each place was computed and checked
/// when the analysis began: the start of an analysis cost ~470 instructions a formula more, `MathAloudBench
/// stages` under callgrind, session 37.)
struct AnalysisMemory {
    typealias Block = UnsafeMutableRawPointer
    /// The tree's blocks: nodes, links, properties, and the children and properties being gathered.
    let tree: (Block, Block, Block, Block)
    /// The scratch blocks: tokens; items and factors; the smaller stacks.
    let scratch: (Block, Block, Block)

    /// Runs `body` with the seven blocks (uninitialised, valid for the call only; one allocation each: each
    /// stays at the size the call stack takes without a check).
    @inline(__always)
    static func with<R>(_ body: (AnalysisMemory) -> R) -> R {
        withBlock { t0 in withBlock { t1 in withBlock { t2 in withBlock { t3 in
            withBlock { s0 in withBlock { s1 in withBlock { s2 in
                body(AnalysisMemory(tree: (t0, t1, t2, t3), scratch: (s0, s1, s2)))
            } } }
        } } } }
    }

    /// Runs `body` with one block on the call stack.
    @inline(__always)
    private static func withBlock<R>(_ body: (Block) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: LentMemory.blockSize, alignment: 16) { body($0.baseAddress!) }
    }

    /// The first offset aligned for `Element` after `count` elements of `Before` at `offset` (a constant
    /// when the arguments are).
    @inline(__always)
    static func place<Element, Before>(_ type: Element.Type, after count: Int, _ before: Before.Type, at offset: Int) -> Int {
        let end = offset + count * MemoryLayout<Before>.stride
        let alignment = MemoryLayout<Element>.alignment
        return (end + alignment - 1) & -alignment
    }
}

extension LentStack {
    /// A stack of `capacity` elements at byte `offset` of `block` (one of ``AnalysisMemory``'s), which outlives it.
    @inline(__always)
    init(in block: UnsafeMutableRawPointer, at offset: Int, capacity: Int) {
        self.init(memory: UnsafeMutableBufferPointer(start: (block + offset).bindMemory(to: Element.self, capacity: capacity),
                                                     count: capacity))
    }
}

/// One run of the analysis: the tree it builds and the scratch buffers its rows share.
///
/// Nodes are numbers in the tree being built (``SemanticTree/Builder``); a node is never changed
/// once made (a changed node is a new record). The rows being analysed keep their items, tokens,
/// factors and operator texts on stacks shared by the run: each row pushes its own above its
/// enclosing rows' and removes them when done, so no row allocates arrays of its own.
struct Analyzer {
    typealias NodeID = SemanticTree.NodeID

    /// Deepest bracket nesting analysed as structure inside one row; deeper brackets stay flat.
    static let maxGroupDepth = 48
    /// Deepest nesting of big-operator and limit bodies within one row.
    static let maxBodyDepth = 32
    /// Deepest nesting of rows and bracket groups together (see ``Context/level``).
    static let maxLevel = 320

    /// The tree being built.
    var b: SemanticTree.Builder
    /// The items of the rows being analysed, innermost row last.
    var items: LentStack<RowItem>
    /// The tokens of the rows being parsed, innermost row last.
    var tokens: LentStack<Token>
    /// Fence groups made by this run (``Token/fence`` numbers them).
    var groups: LentStack<FenceGroup>
    /// Big-operator, limit and evaluation-bar parts made by this run (``Token/big`` numbers them).
    var bigs: LentStack<BigParts>
    /// The factors of the products being parsed, innermost last.
    var factors: LentStack<NodeID>
    /// The distinct operator texts of the infix and relation nodes being built, innermost last.
    var operatorTexts: LentStack<NodeID>
    /// Scratch for ``flatten(_:from:)``: the rows being spliced.
    var flattenFrames: LentStack<FlattenFrame>
    /// Scratch for ``matchFences(from:_:)``: the fences still open.
    var openFences: LentStack<OpenFence>
    /// Unit names written out in words (``SemanticAnalyzer/Options/unitNames``).
    let unitNames: UnitNames
    /// The formula's root, and the letters it applies to a simple argument somewhere and writes before
    /// brackets holding more (found by ``appliesElsewhere(_:_:)`` and ``appliedToMoreElsewhere(_:)``
    /// when first needed).
    var root: Unmanaged<MathNode>? = nil
    var lettersApplied: AppliedLetters? = nil
    /// ``SemanticAnalyzer/Options/marksAppliedElsewhere``.
    var marksAppliedElsewhere = false
    /// Presentation nodes this run made from several items and reads as raw items (``digitGroups``):
    /// held here, since items hold their nodes unretained. Made items through ``madeItem(_:)`` only.
    var madeNodes: [MathNode] = []

    /// The row item of a presentation node this run made, the node held in ``madeNodes``: an item holds its node
    /// unretained, so a node only put in an item was freed under it (a join of scripts on nothing made so crashed
    /// in 4 runs of 5 on OpenStax's chemistry, session 48).
    mutating func madeItem(_ m: MathNode) -> RowItem {
        madeNodes.append(m)
        return RowItem(raw: m)
    }
    /// Where the tokens of the row being tokenized start (``tokenize(_:_:)``; the rows inside it restore it).
    var rowStart = 0
    /// The first item of the content of the `\left…\right` pair being read (``fencedGroup``), -1 outside:
    /// digits grouped by commas that are the whole content may be a pair (``digitGroups``).
    var fenceContentBase = -1

    /// An analysis whose tree and scratch stacks start in `memory`, for an input of `inputNodes` nodes.
    init(memory: AnalysisMemory, inputNodes: Int, unitNames: UnitNames) {
        self.unitNames = unitNames
        // A block for the tokens, one for the items and factors, one for the rest (see ``SemanticTree/Builder``
        // for the tree's), each stack at a fixed place.
        let block = LentMemory.blockSize
        let factorsAt = AnalysisMemory.place(NodeID.self, after: 40, RowItem.self, at: 0)
        let bigsAt = AnalysisMemory.place(BigParts.self, after: 4, FenceGroup.self, at: 0)
        let framesAt = AnalysisMemory.place(FlattenFrame.self, after: 4, BigParts.self, at: bigsAt)
        let textsAt = AnalysisMemory.place(NodeID.self, after: 4, FlattenFrame.self, at: framesAt)
        let fencesAt = AnalysisMemory.place(OpenFence.self, after: 8, NodeID.self, at: textsAt)
        // (Constants: the test costs nothing.)
        precondition(factorsAt + 16 * MemoryLayout<NodeID>.stride <= block && fencesAt + 8 * MemoryLayout<OpenFence>.stride <= block,
                     "the scratch stacks overflow their blocks")
        tokens = LentStack(in: memory.scratch.0, at: 0, capacity: block / MemoryLayout<Token>.stride)
        items = LentStack(in: memory.scratch.1, at: 0, capacity: 40)
        factors = LentStack(in: memory.scratch.1, at: factorsAt, capacity: 16)
        groups = LentStack(in: memory.scratch.2, at: 0, capacity: 4)
        bigs = LentStack(in: memory.scratch.2, at: bigsAt, capacity: 4)
        flattenFrames = LentStack(in: memory.scratch.2, at: framesAt, capacity: 4)
        operatorTexts = LentStack(in: memory.scratch.2, at: textsAt, capacity: 8)
        openFences = LentStack(in: memory.scratch.2, at: fencesAt, capacity: 8)
        b = SemanticTree.Builder(memory: memory, inputNodes: inputNodes)
    }

    /// The semantic tree of `root`, a tree of `inputNodes` nodes.
    static func tree(of root: MathNode, inputNodes: Int, unitNames: UnitNames, marksAppliedElsewhere: Bool = false) -> SemanticTree {
        // The records being built and the scratch stacks start in memory on the call stack. The closures
        // reach the root and the unit names through references they do not own (captured as they are,
        // each was retained and released four times a call: `MathAloudBench semantics-profile` under
        // callgrind); the caller holds both throughout.
        let rootReference = Unmanaged.passUnretained(root)
        let names = unitNames
        return AnalysisMemory.with { memory in
            var analyzer = Analyzer(memory: memory, inputNodes: inputNodes, unitNames: names)
            analyzer.root = rootReference
            analyzer.marksAppliedElsewhere = marksAppliedElsewhere
            let id = rootReference._withUnsafeGuaranteedRef { analyzer.node($0, Context()) }
            return analyzer.finish(root: id)
        }
    }

    /// Ends the run: the tree with root `root`; frees what the stacks allocated.
    private mutating func finish(root: NodeID) -> SemanticTree {
        items.release()
        tokens.release()
        groups.release()
        bigs.release()
        factors.release()
        operatorTexts.release()
        flattenFrames.release()
        openFences.release()
        return b.takeTree(root: root)
    }

    // MARK: Reading the tree being built (``SemanticTree``'s readers, on the nodes made so far)

    @inline(__always) var tree: SemanticTree.Records { b.records }
    @inline(__always) func kind(_ n: NodeID) -> SemanticKind { b.records.kind(n) }
    @inline(__always) func range(_ n: NodeID) -> SourceRange? { b.records.range(n) }
    @inline(__always) func child(_ n: NodeID, _ role: SemanticRole) -> NodeID? { b.records.child(n, role) }
    @inline(__always) func has(_ n: NodeID, _ name: PropertyName) -> Bool { b.records.has(n, name) }
    @inline(__always) func atom(_ n: NodeID, _ name: PropertyName) -> PropertyAtom? { b.records.atom(n, name) }
    /// A leaf's text (interned from the input, so reading it costs a reference count at most).
    @inline(__always) func text(_ n: NodeID) -> String { b.records.text(n) }
    /// The only Unicode scalar of a node's text, if it has exactly one.
    @inline(__always) func scalar(_ n: NodeID) -> Unicode.Scalar? { b.records.soleScalar(n) }

    /// An empty node.
    @inline(__always) mutating func empty(_ range: SourceRange?) -> NodeID { b.leaf(.empty, range: range) }

    // MARK: Dispatch

    /// The meaning of any presentation node.
    mutating func node(_ m: MathNode, _ ctx: Context) -> NodeID {
        if m.attributes != nil, Analyzer.hasIntent(m) { return intentNode(m, ctx) }
        if let n = leafRow(m, ctx) { return n }
        if m.attributes != nil, Analyzer.chemistryMark(m) != nil { return chemistry(m, ctx) }
        switch m.kind {
        case .identifier, .number, .text:
            return sequence(single: m, range: m.range, ctx)
        case .fraction(let p):
            return fraction(m, p, ctx)
        case .squareRoot, .root:
            return root(m, ctx)
        case .table(let p):
            return table(m, p, ctx)
        case .enclose(let notation):
            let content = sequence(m.children, range: m.range, ctx)
            let mark = b.mark()
            b.add(child: content, .content)
            // Notations as a list of names, one space apart (`" box  circle "` → `box circle`).
            // (MathML's default notation is `longdiv`). The attribute is a set (MathML 4 §3.3.9):
            // the names are put in one order and repeats dropped, so that the same enclosure
            // reads the same whatever order its author wrote the names in.
            let names = SemanticAnalyzer.canonicalNotations(notation.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }))
            b.string(.notation, names.isEmpty ? "longdiv" : names.joined(separator: " "))
            return b.finish(.enclosed, mark, range: m.range)
        case .style(let p) where p.color != nil || p.background != nil:
            let content = sequence(m.children, range: m.range, ctx)
            let mark = b.mark()
            b.add(child: content, .content)
            if let c = p.color { b.string(.color, c) }
            if let c = p.background { b.string(.background, c) }
            return b.finish(.styled, mark, range: m.range)
        case .phantom, .none, .space:
            return empty(m.range)
        case .error(let source):
            return unknown(source, range: m.range)
        case .semantics:
            guard let first = m.children.first else { return empty(m.range) }
            return node(first, ctx)
        case .tableRow, .tableCell:
            return sequence(m.children, range: m.range, ctx)
        default:
            return sequence(single: m, range: m.range, ctx)
        }
    }

    /// An ``SemanticKind/unknown`` node for an error node's source; `command` names an unknown command.
    mutating func unknown(_ source: String, range: SourceRange?) -> NodeID {
        let mark = b.mark()
        if source.hasPrefix("\\") {
            var name = ""
            for u in source.unicodeScalars.dropFirst() {
                if u.properties.isAlphabetic || (name.isEmpty && !u.isSpace) { name.unicodeScalars.append(u) } else { break }
                if name.count == 1 && !u.properties.isAlphabetic { break }
            }
            if !name.isEmpty { b.string(.command, name) }
        }
        return b.finish(.unknown, mark, text: source, range: range, rangeFromChildren: false)
    }

    // MARK: Leaves

    /// An identifier leaf (letters, Greek, double-struck set names); `word` for a name of several
    /// letters that is not applied as a function.
    /// `sole` is the text's sole scalar when the caller has it.
    /// A styled letter (`Ⓐ`, `ℓ`, `ᵃ`: those the front ends leave as written) is its plain letter with
    /// `font` (and a styled number, `①`, a number); `font` is given for an alphabet MathML has no variant for (``attributeFont(_:)``).
    mutating func identifier(_ text: String, _ variant: MathVariant?, sole: Unicode.Scalar?? = nil, font: PropertyAtom? = nil,
                             range: SourceRange?, word: Bool = false) -> NodeID {
        if let font {
            var properties = Analyzer.identifierProperties(text, variant: variant, font: font, sole: sole)
            if word { properties.append(.flag(.word)) }
            return b.leaf(.identifier, text: text, range: range, properties)
        }
        // (A sole scalar of no styled alphabet, a Greek letter say, is not styled: no look at the text.)
        if sole.map({ u in u.map { UnicodeMath.alphabet(of: $0) != nil } ?? true }) ?? true, let styled = Analyzer.styledText(text) {
            // An enclosed or styled number written as an identifier (`<mi>①</mi>`, `⑲` typed in TeX) is a number.
            if styled.text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                var properties = Analyzer.numberProperties(styled.text)
                properties.append(.atom(.font, styled.font))
                return b.leaf(.number, text: styled.text, range: range, properties)
            }
            var properties = Analyzer.identifierProperties(styled.text, variant: variant, font: styled.font)
            if word { properties.append(.flag(.word)) }
            return b.leaf(.identifier, text: styled.text, range: range, properties)
        }
        var properties = Analyzer.identifierProperties(text, variant: variant, sole: sole)
        if word { properties.append(.flag(.word)) }
        return b.leaf(.identifier, text: text, range: range, properties)
    }

    /// A number leaf; `font` for digits in an alphabet (`variant`, or styled digits and numbers that the
    /// front ends leave as written: `⑲` is 19 `circled`, `⁷` is 7 `superscript`).
    /// Spaces inside a number (`<mn>1 234 567</mn>`, thin or no-break spaces) only group its digits,
    /// in every convention: the number's text is its digits without them, as a speech engine must
    /// read it ("1234567", not "1 234 567").
    mutating func number(_ text: String, variant: MathVariant? = nil, range: SourceRange?) -> NodeID {
        plainNumber(text, variant: variant, range: range) ?? otherNumber(text, variant: variant, range: range)
    }

    /// ``number(_:variant:range:)`` of a text ``plainNumber(_:variant:range:)`` declines (not printable
    /// ASCII): spaces dropped, a vulgar fraction character, styled digits.
    mutating func otherNumber(_ text: String, variant: MathVariant?, range: SourceRange?) -> NodeID {
        var text = text
        if text.unicodeScalars.contains(where: { $0.isSpace }) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.isSpace }))
        }
        if variant == nil, let u = text.soleScalar, let parts = Analyzer.vulgarFraction(u) {
            return vulgarFractionNode(parts, range: range)
        }
        if variant == nil, let styled = Analyzer.styledText(text) {
            var properties = Analyzer.numberProperties(styled.text)
            properties.append(.atom(.font, styled.font))
            return b.leaf(.number, text: styled.text, range: range, properties)
        }
        var properties = Analyzer.numberProperties(text)
        if let variant { properties.append(.atom(.font, variant.atom)) }
        return b.leaf(.number, text: text, range: range, properties)
    }

    /// ``number(_:variant:range:)`` of a text of printable ASCII, nearly every number (no space to drop, no
    /// styled character, no words), nil for any other text: its bytes are looked at once, for that and for its
    /// properties (a look for spaces first, then one for the properties, and one for words where a row is the
    /// number, cost ~50 instructions a number more: `MathAloudBench stages` under callgrind, session 37).
    @inline(__always)
    mutating func plainNumber(_ text: String, variant: MathVariant?, range: SourceRange?) -> NodeID? {
        guard var properties = Analyzer.plainNumberProperties(text) else { return nil }
        if let variant { properties.append(.atom(.font, variant.atom)) }
        return b.leaf(.number, text: text, range: range, properties)
    }

    /// The numerator and denominator of a vulgar fraction character (`½` is 1 over 2, `⅞` 7 over 8:
    /// its compatibility decomposition, digits, U+2044 FRACTION SLASH, digits), nil for any other scalar.
    static func vulgarFraction(_ u: Unicode.Scalar) -> (numerator: String, denominator: String)? {
        guard (0xBC...0xBE).contains(u.value) || (0x2150...0x215F).contains(u.value) || u.value == 0x2189 else { return nil }
        let mapping = String(Character(u)).decomposedStringWithCompatibilityMapping
        let parts = mapping.split(separator: "\u{2044}", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = parts.first, let d = parts.last, !n.isEmpty, !d.isEmpty,
              (n + d).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return (String(n), String(d))
    }

    /// A vulgar fraction character (``vulgarFraction(_:)``) as the fraction it is, so that `½` typed in
    /// TeX or MathML reads as `\frac{1}{2}` does, in every language and style: its parts carry the
    /// character's range.
    mutating func vulgarFractionNode(_ parts: (numerator: String, denominator: String), range: SourceRange?) -> NodeID {
        let num = number(parts.numerator, range: range)
        let den = number(parts.denominator, range: range)
        let mark = b.mark()
        b.add(child: num, .numerator)
        b.add(child: den, .denominator)
        addFractionProperties(num, den, FractionProperties())
        return b.finish(.fraction, mark, range: range)
    }

    /// An operator leaf with its class.
    mutating func operatorLeaf(_ text: String, _ cls: AtomClass, range: SourceRange?) -> NodeID {
        b.leaf(.operator, text: text, range: range, .atom(.class, cls.atom))
    }

    /// A function-name leaf (`sin`, `log`, `lim`, `\operatorname{rank}`).
    mutating func functionName(_ text: String, range: SourceRange?) -> NodeID {
        functionName(text, range: range, nameClass: Vocabulary.nameClass(text))
    }

    /// A function-name leaf whose name's ``Vocabulary/nameClass(_:)`` is `nameClass`.
    mutating func functionName(_ text: String, range: SourceRange?, nameClass: PropertyAtom?) -> NodeID {
        b.leaf(.functionName, text: text, range: range, .atom(.functionClass, nameClass ?? .named))
    }

    /// A text leaf, trimmed; `unit-name` when it spells out a unit (`meters`), `font` when it is set
    /// in a font other than upright (`<mtext mathvariant="bold-fraktur">`, `\textbf`).
    mutating func text(_ raw: String, range: SourceRange?, variant: MathVariant? = nil) -> NodeID {
        let t = Analyzer.plainText(raw).trimmingSpaces.collapsingSpaces
        if t.isEmpty { return empty(range) }
        let variant = variant == .normal ? nil : variant
        // A text of one letter of another script (`<mtext>Δ</mtext>`), or of one letter or one number set
        // in a font (`\textbf{x}`, `\textbf{\textit{0}}`, `<mtext mathvariant="bold">x</mtext>`: a bold vector,
        // the zero vector), is that letter or number in that font, as `\mathbf{x}` is (italic is how letters
        // are set: `\textit{x}` is `x`); words stay text.
        if let u = t.soleScalar, u.properties.isAlphabetic, !u.isASCII || variant != nil {
            return identifier(t, variant, sole: u, range: range)
        }
        if variant != nil, t.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return number(t, variant: variant, range: range) }
        // A label ending in a colon ("Step 1:"): the words, then the colon as the symbol it is.
        if t.unicodeScalars.count > 1, t.unicodeScalars.last == ":" {
            let words = text(String(t.dropLast()), range: range)
            let colon = operatorLeaf(":", .punct, range: nil)
            let mark = b.mark()
            b.add(child: words, .item)
            b.add(child: colon, .item)
            return b.finish(.row, mark, range: range, rangeFromChildren: false)
        }
        let mark = b.mark()
        if let key = unitNames.key(t) { b.string(.unitName, key) }
        if let variant { b.atom(.font, variant.atom) }
        return b.finish(.text, mark, text: t, range: range, rangeFromChildren: false)
    }

    /// An ellipsis leaf with its `direction`.
    mutating func ellipsis(_ text: String, range: SourceRange?) -> NodeID {
        let direction: PropertyAtom
        let u = text.soleScalar
        switch u {
        case "⋮": direction = .vertical
        case "⋱": direction = .diagonal
        case "⋰": direction = .antiDiagonal
        default: direction = .horizontal
        }
        let mark = b.mark()
        b.atom(.direction, direction)
        if u == "⋯" { b.flag(.centered) }
        return b.finish(.ellipsis, mark, text: text, range: range, rangeFromChildren: false)
    }

    /// Whether a text (whose sole scalar, if any, is `u`) is an ellipsis.
    static func isEllipsis(_ text: String, _ u: Unicode.Scalar?) -> Bool {
        guard let u else { return text == "..." }
        return u == "…" || u == "⋯" || u == "⋮" || u == "⋱" || u == "⋰"
    }

    // MARK: Fractions and roots

    /// `mfrac` → ``SemanticKind/fraction`` with ClearSpeak's fraction facts (see
    /// ``addFractionProperties(_:_:_:)``).
    mutating func fraction(_ m: MathNode, _ p: FractionProperties, _ ctx: Context) -> NodeID {
        let num = m.children.count > 0 ? node(m.children[0], ctx) : empty(m.range)
        // A measurement over a unit is a rate (`\frac{5\,\mathrm{m}}{\mathrm{s}}`: 5 m/s).
        if let rate = measurementOverUnit(m, numerator: num) { return rate }
        let den = m.children.count > 1 ? node(m.children[1], ctx) : empty(m.range)
        let mark = b.mark()
        b.add(child: num, .numerator)
        b.add(child: den, .denominator)
        addFractionProperties(num, den, p)
        return b.finish(.fraction, mark, range: m.range)
    }

    /// `msqrt`/`mroot` → ``SemanticKind/root``: `square`, `index-value` for an integer index,
    /// `nested` when the radicand holds another root (MathSpeak "NestedStartRoot").
    mutating func root(_ m: MathNode, _ ctx: Context) -> NodeID {
        let radicand: NodeID
        var index: NodeID? = nil
        var square = false
        var indexValue: Int? = nil
        if case .squareRoot = m.kind {
            radicand = sequence(m.children, range: m.range, ctx)
            square = true
        } else {
            radicand = m.children.count > 0 ? node(m.children[0], ctx) : empty(m.range)
            if m.children.count > 1 {
                let i = node(m.children[1], ctx)
                if let v = tree.integerValue(i) {
                    indexValue = v
                    if v == 2 { square = true }
                }
                index = i
            }
        }
        let depth = tree.rootDepth(radicand)
        let mark = b.mark()
        b.add(child: radicand, .radicand)
        if let index { b.add(child: index, .index) }
        if square { b.flag(.square) }
        if let indexValue { b.integer(.indexValue, indexValue) }
        if depth > 0 {
            b.integer(.rootDepth, depth)
            b.flag(.nested)
        }
        return b.finish(.root, mark, range: m.range)
    }

    // MARK: Scripts

    /// Scripts after a base, analysed once and applied to whatever the base turns out to be.
    struct Scripts {
        var sub: NodeID?
        var sup: NodeID?
        var primes = 0
        var degrees = false
        var range: SourceRange?
        var isEmpty: Bool { sub == nil && sup == nil && primes == 0 && !degrees }
    }

    /// Analyses a subscript and a superscript: primes (`′`, `′′`, `\prime`) and degree rings (`∘`, `°`)
    /// at the start of the superscript are split off.
    mutating func scripts(sub: MathNode?, sup: MathNode?, _ ctx: Context) -> Scripts {
        var s = Scripts()
        var ctx = ctx
        ctx.script = true
        if let sub, !Analyzer.isNone(sub) {
            s.sub = node(sub, ctx)
            s.range = SourceRange.union(s.range, sub.range)
        }
        if let sup, !Analyzer.isNone(sup) {
            s.range = SourceRange.union(s.range, sup.range)
            // The superscript's items: a row's children, or the superscript itself.
            let isRow: Bool
            if case .row = sup.kind { isRow = true } else { isRow = false }
            let count = isRow ? sup.children.count : 1
            func item(_ i: Int) -> MathNode { isRow ? sup.children[i] : sup }
            var i = 0
            while i < count, let n = Analyzer.primes(item(i)) {
                s.primes += n
                i += 1
            }
            if s.primes == 0, count == 1, Analyzer.isDegreeScript(item(0)) {
                s.degrees = true
                i = 1
            }
            if i == 0 {
                s.sup = node(sup, ctx)
            } else if i < count {
                s.sup = sequence(sup.children, from: i, range: nil, ctx)
            }
        }
        return s
    }

    /// The ring of degrees written as a superscript: `^\circ`, `°`, `^\bigcirc`.
    static func isDegreeRing(_ u: Unicode.Scalar?) -> Bool { u == "∘" || u == "°" || u == "○" }

    /// A superscript that is a degree ring: the operator (``isDegreeRing(_:)``), or the degree sign set as text or as an
    /// identifier (`<msup><mn>2800</mn><mtext>°</mtext></msup>`, as OpenStax's books set some: "2800 superscript °" before).
    static func isDegreeScript(_ n: MathNode) -> Bool {
        switch n.kind {
        case .operator(let t, _): return isDegreeRing(t.soleScalar)
        case .text(let t, _), .identifier(let t, _): return isDegreeSignText(t)
        default: return false
        }
    }

    /// How many primes an operator text stands for (`′` 1, `″` 2, `‴` 3, `⁗` 4, `'` 1, `ʹ` 1), also
    /// several written in one text (`'''` 3).
    static func primeCount(_ text: String) -> Int? { primeCount(text, text.soleScalar) }

    /// ``primeCount(_:)`` of a text whose sole scalar (if any) is `u`.
    @inline(__always)
    static func primeCount(_ text: String, _ u: Unicode.Scalar?) -> Int? {
        if let u { return primeCount(of: u) }
        return primeCount(several: text)
    }

    /// ``primeCount(_:)`` of a text of several scalars (or none).
    static func primeCount(several text: String) -> Int? {
        var total = 0
        for s in text.unicodeScalars {
            guard let n = primeCount(of: s) else { return nil }
            total += n
        }
        return total > 0 ? total : nil
    }

    /// The primes one character stands for.
    @inline(__always)
    static func primeCount(of u: Unicode.Scalar) -> Int? {
        switch u.value {
        case 0x2032, 0x27, 0x2019, 0x2B9: return 1  // ′ ' ’ ʹ
        case 0x2033: return 2                       // ″
        case 0x2034: return 3                       // ‴
        case 0x2057: return 4                       // ⁗
        default: return nil
        }
    }

    /// The primes a script item stands for: an operator of prime characters, or a number or
    /// identifier written with them (`<mn>'</mn>`).
    static func primes(_ m: MathNode) -> Int? {
        switch m.kind {
        case .operator(let t, _), .number(let t, _), .identifier(let t, _): return primeCount(t)
        default: return nil
        }
    }

    /// Whether a script or base shows nothing: `none`, an empty row, or only invisible content
    /// (``isInvisible(_:)``) — mhchem's nuclides put their pre-scripts on a padded phantom base.
    static func isNone(_ m: MathNode) -> Bool {
        if case .none = m.kind { return true }
        return m.isEmptyRow || isInvisible(m)
    }

    /// Whether a node shows nothing at all (MathML 4 §3.3.7 `mphantom` renders invisibly): a
    /// phantom, `none`, a space, or rows, padding and scripts made only of those. MathJax's mhchem
    /// output aligns nuclide scripts with such parts (`<msubsup>` of phantoms, a `<mpadded width="0">`
    /// phantom base); they are not read. Bounded by the node's depth: it stops at the first visible
    /// leaf, and the walk is iterative.
    @inline(__always)
    static func isInvisible(_ m: MathNode) -> Bool {
        // Most nodes show a leaf first (`x^2`): answered without a walk, and without the walk's frame
        // (`MathAloudBench stages` under callgrind).
        if m.leafText != nil || m.children.first?.leafText != nil { return false }
        return isInvisibleByWalk(m)
    }

    /// ``isInvisible(_:)`` for a node that does not show a leaf first.
    @inline(never)
    static func isInvisibleByWalk(_ m: MathNode) -> Bool {
        // The nodes still to look at, last first, held unretained (the tree `m` holds them) on a stack
        // that starts on the call stack: an array here allocated for a quarter of the scripted items
        // (`MathAloudBench stages` under callgrind).
        return withUnsafeTemporaryAllocation(of: Unmanaged<MathNode>.self, capacity: 16) { memory in
            var stack = LentStack(memory: memory)
            defer { stack.release() }
            stack.push(Unmanaged.passUnretained(m))
            var seen = 0
            while let top = stack.popIfAny() {
                seen += 1
                if seen > 4096 { return false }
                let visible = top._withUnsafeGuaranteedRef { n -> Bool in
                    switch n.kind {
                    case .phantom, .none, .space: return false
                    case .row, .padded, .subscript, .superscript, .subSuperscript:
                        let children = n.children
                        for i in 0 ..< children.count { stack.push(children.unretained(i)) }
                        return false
                    default: return true
                    }
                }
                if visible { return false }
            }
            return true
        }
    }

    /// Applies analysed scripts to an analysed base: subscript, then primes (a number with primes is a
    /// measurement in feet/inches or minutes/seconds — ClearSpeak Prime preference), then degrees, then
    /// the power.
    mutating func apply(_ s: Scripts, to base: NodeID, range: SourceRange?) -> NodeID {
        var n = base
        let whole = SourceRange.union(self.range(base), range ?? s.range)
        if let sub = s.sub { n = subscriptNode(n, sub) }
        if s.primes > 0 {
            if kind(n) == .number && s.sup == nil {
                let unit = operatorLeaf(String(repeating: "′", count: s.primes), .ord, range: s.range)
                let mark = b.mark()
                b.add(child: n, .quantity)
                b.add(child: unit, .unit)
                b.integer(.primeUnit, s.primes)
                b.string(.unitName, s.primes == 1 ? "ft" : "in")
                if text(n) == "1" { b.flag(.singular) }
                n = b.finish(.measurement, mark, range: whole)
            } else {
                let mark = b.mark()
                b.add(child: n, .base)
                b.integer(.count, s.primes)
                n = b.finish(.primes, mark, range: s.sup == nil ? whole : nil)
            }
        }
        if s.degrees {
            let mark = b.mark()
            b.add(child: n, .quantity)
            n = b.finish(.degrees, mark, range: whole)
        }
        if let sup = s.sup {
            // A superscript on a base that brought its own subscript (`{x_a}^b`) is not the pair of
            // scripts of `x_a^b` (MathSpeak 8: "x Sub a Base Sup b").
            let scriptedBase = s.sub == nil && s.primes == 0 && !s.degrees && kind(base) == .subscript
            n = power(n, sup, range: whole, scriptedBase: scriptedBase)
        }
        if self.range(n) == nil, whole != nil { return b.copy(n, range: whole) }
        return n
    }

    /// A subscript (`numeric` for a number written with digits).
    mutating func subscriptNode(_ base: NodeID, _ sub: NodeID) -> NodeID {
        var base = base
        // A compound alone (`\mathrm{KClO}_3`, `<msub><mtext>CO</mtext><mn>2</mn></msub>`): its element symbols,
        // marked `chemical` (``SemanticTree/Records/isCompoundAlone(base:count:)``).
        let compound = kind(sub) == .number && tree.isCompoundAlone(base: base, count: sub)
        if compound { base = elementsOfWords(base) }
        let mark = b.mark()
        b.add(child: base, .base)
        b.add(child: sub, .subscript)
        if kind(sub) == .number, has(sub, .integer) || has(sub, .decimal) { b.flag(.numeric) }
        if compound { b.flag(.chemical) }
        return b.finish(.subscript, mark, range: SourceRange.union(self.range(base), self.range(sub)))
    }

    /// A power with ClearSpeak's exponent facts. A Roman numeral on an element symbol (`Fe^{II}`) is an
    /// oxidation state, as mhchem's `\ce{Fe^{II}}` is (``SemanticTree/Records/oxidationState(base:exponent:)``),
    /// and a charge on a compound or a symbol of two letters (`\mathrm{SO}_4^{2-}`) an ion, marked `chemical`.
    mutating func power(_ base: NodeID, _ exp: NodeID, range: SourceRange?, scriptedBase: Bool = false) -> NodeID {
        var exp = exp, base = base
        // An ion alone (`\mathrm{SO}_4^{2-}`, as MathJax's mhchem output writes it) is a formula.
        let ion = tree.isIonBase(base) && tree.isIonCharge(exp)
        if ion { base = elementsOfWords(base) }
        if ion || tree.isBracketedFormula(base), tree.isChargeLeaf(exp) { exp = chargeOfLeaf(exp) }
        if let v = tree.oxidationState(base: base, exponent: exp) {
            let mark = b.mark()
            b.integer(.value, v)
            exp = b.finish(.chemicalOxidation, mark, text: text(exp), range: self.range(exp), rangeFromChildren: false)
        }
        let mark = b.mark()
        b.add(child: base, .base)
        b.add(child: exp, .exponent)
        addExponentProperties(exp, base: base)
        if scriptedBase { b.flag(.scriptedBase) }
        if ion { b.flag(.chemical) }
        return b.finish(.power, mark, range: range ?? SourceRange.union(self.range(base), self.range(exp)))
    }

    /// A charge written as one leaf (`<mn>2+</mn>`, `<mtext>3−</mtext>`): the count and the sign, as
    /// TeX's `^{2+}` makes them (``SemanticTree/Records/isChargeLeaf(_:)``).
    mutating func chargeOfLeaf(_ leaf: NodeID) -> NodeID {
        let scalars = Array(text(leaf).unicodeScalars)
        let r = self.range(leaf)
        // A sign alone (`<mn>+</mn>`): the operator.
        if scalars.count == 1 { return b.leaf(.operator, text: scalars[0] == "+" ? "+" : "\u{2212}", range: r, .atom(.class, .bin)) }
        let count = number(String(scalars[0]), range: r)
        let sign = scalars[1] == "+" ? "+" : "\u{2212}"
        let op = b.leaf(.operator, text: sign, range: r, .atom(.class, .bin))
        let mark = b.mark()
        b.add(child: count, .item)
        b.add(child: op, .operator)
        b.string(.operators, sign)
        return b.finish(.infix, mark, range: r)
    }

    // MARK: Accents and stacking

    /// `mover`/`munder`/`munderover` that are not big operators or limits: accents, braces with labels,
    /// stacked symbols.
    mutating func underOver(_ m: MathNode, base: NodeID, lower: MathNode?, upper: MathNode?, _ ctx: Context,
                            baseClass: AtomClass?) -> NodeID {
        let props: UnderOverProperties
        switch m.kind {
        case .under(let p), .over(let p), .underOver(let p): props = p
        default: props = UnderOverProperties()
        }
        // An accent: the script is one accent character.
        if lower == nil, let upper, let (text, stretchy) = Analyzer.accentLeaf(upper),
           let name = Vocabulary.accentName(text, over: true, stretchy: stretchy), baseClass != .rel, props.accent || baseClass == nil {
            // An accent the author named (`aria-label`) says the author's words, and is no longer the
            // mark its character draws.
            let labelled = upper.attributes != nil && Analyzer.hasIntent(upper)
            let accent = labelled ? intentNode(upper, ctx) : b.leaf(.operator, text: text, range: upper.range, .atom(.class, .ord))
            let letters = tree.isLetterSequence(base)
            let mark = b.mark()
            b.add(child: base, .base)
            b.add(child: accent, .accent)
            if !labelled { b.atom(.accentName, name) }
            if letters { b.flag(.baseLetters) }
            return b.finish(.accent, mark, range: m.range)
        }
        if upper == nil, let lower, let (text, _) = Analyzer.accentLeaf(lower),
           let name = Vocabulary.accentName(text, over: false, stretchy: true), baseClass != .rel, props.accentUnder || baseClass == nil {
            let labelled = lower.attributes != nil && Analyzer.hasIntent(lower)
            let accent: NodeID
            if labelled {
                accent = intentNode(lower, ctx)
            } else {
                let mark = b.mark()
                b.atom(.class, .ord)
                b.atom(.position, .under)
                accent = b.finish(.operator, mark, text: text, range: lower.range, rangeFromChildren: false)
            }
            let outer = b.mark()
            b.add(child: base, .base)
            b.add(child: accent, .accent)
            if !labelled { b.atom(.accentName, name) }
            b.atom(.position, .under)
            return b.finish(.accent, outer, range: m.range)
        }
        // A brace with a label: the base is itself a brace accent.
        var core = base
        var braceName: PropertyAtom? = nil
        if kind(base) == .accent, let name = atom(base, .accentName),
           name == .overbrace || name == .underbrace || name == .overbracket || name == .underbracket
            || name == .overparen || name == .underparen,
           let inner = child(base, .base) {
            core = inner
            braceName = name
        }
        let lowerNode = lower.map { node($0, ctx) }
        let upperNode = upper.map { node($0, ctx) }
        let mark = b.mark()
        b.add(child: core, .base)
        if let lowerNode { b.add(child: lowerNode, .lower) }
        if let upperNode { b.add(child: upperNode, .upper) }
        if let braceName { b.atom(.accentName, braceName) }
        if let baseClass { b.atom(.baseClass, baseClass.atom) }
        return b.finish(.stacked, mark, range: m.range)
    }

    /// The accent character of a script that is one operator (or one identifier such as `.`).
    static func accentLeaf(_ m: MathNode) -> (String, Bool)? {
        var n = m
        // A row of one child, or of one child and empty rows (`<mrow><mrow/><mo>‾</mo></mrow>`).
        while case .row = n.kind {
            let filled = n.children.filter { !$0.isEmptyRow }
            guard filled.count == 1 else { break }
            n = filled[0]
        }
        switch n.kind {
        case .operator(let t, let p): return lineRun(t).map { ($0, true) } ?? (t, p.stretchy)
        case .identifier(let t, _) where t.soleScalar != nil: return (t, false)
        case .text(let t, _) where t.soleScalar != nil: return (t, false)
        // A mark set as a number (`<mover><mi>y</mi><mn>^</mn></mover>`, as OpenStax's statistics books set a fitted value's
        // hat: "y with ^ over it").
        case .number(let t, _) where t.soleScalar.map({ $0.properties.numericType == nil }) == true: return (t, false)
        case .identifier(let t, _), .text(let t, _): return lineRun(t).map { ($0, true) }
        default: return nil
        }
    }

    /// A line drawn as a run of one line character (`____` under the last addend of a sum written in columns,
    /// `‾‾‾`; OpenStax's prealgebra, textbook sweep 11): that character, the line's accent (it was said "69 with
    /// ____ under it").
    static func lineRun(_ t: String) -> String? {
        guard let (u, count) = t.repeatedScalar, count >= 2, u == "_" || u == "\u{203E}" || u == "\u{AF}" else { return nil }
        return String(u)
    }

    // MARK: Tables

    /// A table, classified by its structure alone (never by the TeX environment it was written with, so
    /// TeX and MathML read the same): a table on its own is a multi-line layout (ClearSpeak "Multi-line
    /// Expressions": "2 lines, line 1, …"); the fences around it make it a matrix, a determinant or
    /// cases (``fencedTable(_:open:close:range:)``). An unlabelled table of one cell is that cell.
    mutating func table(_ m: MathNode, _ p: TableProperties, _ context: Context) -> NodeID {
        let ctx = context
        var cellContext = context
        cellContext.soleFenceContent = false
        let tableMark = b.mark()
        // Rows marked as continuing the row before them (MathML intent ":continued-row"); rare.
        let hasContinuedRows = m.children.contains { $0.attributes?["intent"] != nil }
        var rows = 0
        var columns = 0
        var allSimple = true
        var allTokens = true
        var allZero = true
        var labelled = false
        var firstRow: NodeID = -1
        // Whether the row before was an equation of vectors (``vectorEquationRow(_:continuing:)``).
        var vectorEquationContinues = false
        for r in m.children {
            // A row the author marked `intent=":continued-row"` goes on the row before it: its cells
            // join that row's cells.
            if hasContinuedRows, rows > 0, let intent = r.attributes?["intent"],
               IntentExpression(parsing: intent)?.properties.contains("continued-row") == true {
                continue
            }
            let rowMark = b.mark()
            var cells = 0
            var first = 0
            if case .tableRow(let hasLabel) = r.kind, hasLabel, !r.children.isEmpty {
                let label = tagLabel(r.children[0], cellContext)
                b.add(child: label, .label)
                labelled = true
                first = 1
            }
            let continuation = hasContinuedRows ? Analyzer.continuedCells(after: r, in: m) : []
            let lastCell = r.children.count - 1
            var contents: [NodeID] = []
            contents.reserveCapacity(r.children.count - first)
            for k in first..<r.children.count {
                let c = r.children[k]
                let content: NodeID
                if k == lastCell && !continuation.isEmpty {
                    // The continued rows' cells go on this row's last cell: "y" then "+ 1" is "y plus 1".
                    let items = (c.kind == .tableCell ? Array(c.children) : [c])
                        + continuation.flatMap { $0.kind == .tableCell ? Array($0.children) : [$0] }
                    content = sequence(MathNode.Children(items), range: c.range, cellContext)
                } else if c.kind == .tableCell, c.attributes != nil, Analyzer.hasIntent(c) {
                    // The author's intent on the cell (`<mtd intent="_">`: an empty cell that says
                    // nothing, not "blank").
                    content = intentNode(c, cellContext)
                } else {
                    content = c.kind == .tableCell ? sequence(c.children, range: c.range, cellContext)
                        : sequence(single: c, range: c.range, cellContext)
                }
                contents.append(content)
            }
            vectorEquationContinues = vectorEquationRow(&contents, continuing: vectorEquationContinues)
            for (k, content) in zip(first..<r.children.count, contents) {
                let c = r.children[k]
                let isEmpty = kind(content) == .empty
                if !isEmpty && !tree.isSimple(content) { allSimple = false }
                if isEmpty || !(kind(content) == .number || kind(content) == .identifier) { allTokens = false }
                if isEmpty || kind(content) != .number || tree.integerValue(content) != 0 { allZero = false }
                let cellMark = b.mark()
                if !isEmpty { b.add(child: content, .item) }
                b.add(child: b.finish(.tableCell, cellMark, range: c.range, rangeFromChildren: false), .cell)
                cells += 1
            }
            columns = max(columns, cells)
            let row = b.finish(.tableRow, rowMark, range: r.range, rangeFromChildren: false)
            if rows == 0 { firstRow = row }
            b.add(child: row, .row)
            rows += 1
        }
        // A single unlabelled cell (`\begin{equation}x = 1\end{equation}`) is just its content, unless
        // fences make it a 1 by 1 matrix.
        if rows == 1 && columns == 1 && !labelled && !ctx.soleFenceContent, tree.childCount(firstRow) > 0 {
            let cell = tree.child(firstRow, at: 0).node
            if tree.childCount(cell) > 0 {
                b.discard(tableMark)
                return tree.child(cell, at: 0).node
            }
        }
        if allSimple { b.flag(.simpleCells) }
        if allTokens { b.flag(.tokenCells) }
        if allZero && rows > 0 { b.flag(.zeroCells) }
        b.integer(.rows, rows)
        b.integer(.columns, columns)
        // The author says what the lines are (MathML 4 intent ":system-of-equations").
        if let intent = m.attributes?["intent"], IntentExpression(parsing: intent)?.properties.contains("system-of-equations") == true {
            b.flag(.equations)
        }
        return b.finish(.lines, tableMark, range: m.range)
    }

    /// The non-empty cells of the rows marked `:continued-row` right after row `r` of table `m`.
    static func continuedCells(after r: MathNode, in m: MathNode) -> [MathNode] {
        guard let k = m.children.firstIndex(where: { $0 === r }) else { return [] }
        var cells: [MathNode] = []
        var j = k + 1
        while j < m.children.count, let intent = m.children[j].attributes?["intent"],
              IntentExpression(parsing: intent)?.properties.contains("continued-row") == true {
            cells += m.children[j].children.filter { cell in !cell.children.isEmpty }
            j += 1
        }
        return cells
    }

    /// The label of a numbered row (`\tag{A}` → text `A`, property `parenthesised` when it is shown in
    /// parentheses). Labels that hold math are analysed as math.
    mutating func tagLabel(_ cell: MathNode, _ ctx: Context) -> NodeID {
        var text = ""
        var allText = true
        cell.walk { n in
            switch n.kind {
            case .text(let t, _): text += t
            case .row, .tableCell: break
            default: allText = false
            }
        }
        guard allText else { return sequence(cell.children, range: cell.range, ctx) }
        let mark = b.mark()
        let scalars = text.unicodeScalars
        if scalars.count >= 2, scalars.first == "(", scalars.last == ")" {
            text = String(String.UnicodeScalarView(scalars.dropFirst().dropLast()))
            b.flag(.parenthesised)
        }
        return b.finish(.text, mark, text: text.trimmingSpaces, range: cell.range, rangeFromChildren: false)
    }

    /// A table found between fences: a matrix with its fence, or cases after a lone brace.
    mutating func fencedTable(_ t: NodeID, open: String, close: String, range: SourceRange?) -> NodeID {
        let mark = b.mark()
        if (open == "{" && close.isEmpty) || (open.isEmpty && close == "}") {
            b.copyProperties(of: t, except: [.fence, .simpleCells])
            if close == "}" { b.add(.atom(.side, .right), since: mark) }
            return b.copy(t, kind: .cases, propertiesSince: mark, range: range)
        }
        let fence: PropertyAtom
        switch (open.soleScalar, close.soleScalar) {
        case ("(", ")"): fence = .parentheses
        case ("[", "]"): fence = .brackets
        case ("{", "}"): fence = .braces
        case ("|", "|"): fence = .bars
        case ("‖", "‖"): fence = .doubleBars
        default: fence = .other
        }
        b.copyProperties(of: t)
        b.add(.atom(.fence, fence), since: mark)
        if fence == .other {
            b.remove(.open, since: mark)
            b.remove(.close, since: mark)
            b.string(.open, open)
            b.string(.close, close)
        }
        return b.copy(t, kind: .matrix, propertiesSince: mark, range: range)
    }
}

extension String {
    /// The string with each run of white space (spaces, no-break spaces, tabs, line breaks) as one
    /// space: how text reads aloud, whether TeX wrote `~~` or `\ \ ` or MathML `&#xA0;&#xA0;`.
    var collapsingSpaces: String {
        var previousSpace = false
        var needed = false
        for u in unicodeScalars {
            let space = u.isSpace
            if space && (previousSpace || u != " ") { needed = true; break }
            previousSpace = space
        }
        guard needed else { return self }
        var out = String.UnicodeScalarView()
        previousSpace = false
        for u in unicodeScalars {
            if u.isSpace {
                if !previousSpace { out.append(" ") }
                previousSpace = true
            } else {
                out.append(u)
                previousSpace = false
            }
        }
        return String(out)
    }

    /// The string without leading and trailing white space (no Foundation needed).
    var trimmingSpaces: String {
        let s = unicodeScalars
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi, s[lo].isSpace { lo = s.index(after: lo) }
        while hi > lo, s[s.index(before: hi)].isSpace { hi = s.index(before: hi) }
        if lo == s.startIndex && hi == s.endIndex { return self }
        return String(s[lo..<hi])
    }
}

extension SemanticAnalyzer {
    /// The order notation names of `menclose` are put in: frames, strikes, marks, then arrows
    /// (names not listed keep their written order after these).
    static let notationOrder: [String: Int] = Dictionary(uniqueKeysWithValues: [
        "box", "roundedbox", "circle", "left", "right", "top", "bottom",
        "updiagonalstrike", "downdiagonalstrike", "verticalstrike", "horizontalstrike",
        "longdiv", "radical", "actuarial", "phasorangle", "madruwb", "madrub", "updiagonalarrow",
        "uparrow", "downarrow", "leftarrow", "rightarrow",
        "northeastarrow", "southeastarrow", "southwestarrow", "northwestarrow",
        "updownarrow", "leftrightarrow", "northeastsouthwestarrow", "northwestsoutheastarrow",
    ].enumerated().map { ($0.element, $0.offset) })

    /// The names of a `notation` attribute in ``notationOrder``, each once.
    static func canonicalNotations<S: StringProtocol>(_ names: [S]) -> [String] {
        var seen = Set<String>()
        var keyed: [(key: Int, name: String)] = []
        for name in names.map({ String($0) }) where seen.insert(name).inserted {
            keyed.append((notationOrder[name] ?? notationOrder.count + keyed.count, name))
        }
        return keyed.sorted { $0.key < $1.key }.map { $0.name }
    }
}
