import MathSyntax

/// A semantic tree stored flat: every node of one formula in one array, children and properties in
/// two more, texts and string values in a fourth (DESIGN.md §7: "arrays of nodes").
///
/// This is the form the analysis builds and the speech rules read. A ``SemanticNode`` tree holds the
/// same meaning as linked objects, convenient to inspect and to build by hand; ``root`` gives it, and
/// ``init(_:)`` turns one into a tree. Building a formula's meaning as objects cost an allocation, a
/// children array and a property array per node, with reference counting on every step of the
/// analysis and of the rules; here a node is a record of plain numbers, roles and property names are
/// numbers (``SemanticRole``, ``PropertyName``) and most values are too (flags, integers,
/// ``PropertyAtom``s).
///
/// A child's role belongs to its link from the parent, not to the child, so one subtree can be a
/// child in two places (a fence's content is also its plain reading's content) and giving a node a
/// role costs nothing. Records never change once made: the analysis makes a new record to change a
/// node (which may share the old one's children).
///
/// ```swift
/// let tree = SemanticAnalyzer().tree(of: TeXParser().parse(#"\frac{3}{4}"#).root)
/// tree.root.kind                 // .fraction
/// tree.root.has("common")        // true
/// ```
public struct SemanticTree: Sendable {
    /// A node's number in its tree.
    package typealias NodeID = Int32

    /// One node: what it means and where its children, properties and text are.

    @usableFromInline
    package struct Node: Sendable {
        package var kind: SemanticKind
        /// `links[firstChild ..< firstChild + childCount]` are the children, in order.
        package var firstChild: Int32
        package var childCount: Int32
        /// `properties[firstProperty ..< firstProperty + propertyCount]`; names are distinct.
        package var firstProperty: Int32
        package var propertyCount: Int32
        /// `strings[text]`; -1 for no text (the empty string).
        package var text: Int32
        /// The source range's bounds, in 32 bits so that a record is 32 bytes, half a cache line (at 40
        /// bytes, D1 read misses were 2.5 % more and mispredicted branches 5 %, mostly the rules' reads of
        /// nodes, `MathAloudBench stages` under callgrind, session 39); `lower` is -1 when there is none. Positions stay below 2³¹
        /// (an input of 2 GiB would need a syntax tree no machine holds), so they are stored as they are
        /// (clamped, the bounds' two comparisons kept the commonest leaves from being inlined).
        @usableFromInline var lower: Int32
        @usableFromInline var upper: Int32

        package init(kind: SemanticKind, firstChild: Int32, childCount: Int32, firstProperty: Int32, propertyCount: Int32,
                     text: Int32, lowerBound: Int, upperBound: Int) {
            self.kind = kind
            self.firstChild = firstChild
            self.childCount = childCount
            self.firstProperty = firstProperty
            self.propertyCount = propertyCount
            self.text = text
            self.lower = Int32(truncatingIfNeeded: lowerBound)
            self.upper = Int32(truncatingIfNeeded: upperBound)
        }

        /// The source range's bounds; `lowerBound` is -1 when there is none.
        @inlinable package var lowerBound: Int {
            @inline(__always) get { Int(lower) }
            @inline(__always) set { lower = Int32(truncatingIfNeeded: newValue) }
        }
        @inlinable package var upperBound: Int {
            @inline(__always) get { Int(upper) }
            @inline(__always) set { upper = Int32(truncatingIfNeeded: newValue) }
        }

        @inlinable package var range: SourceRange? {
            lower < 0 ? nil : SourceRange(Int(lower), Int(upper))
        }
    }

    /// A child and the role it plays.

    @usableFromInline
    package struct Link: Sendable {
        package var node: NodeID
        /// A ``SemanticRole`` number, or (from ``SemanticRole/allCases``.count on) `extraRoles`.
        package var role: UInt16

        package init(node: NodeID, role: UInt16) {
            self.node = node
            self.role = role
        }

        package init(_ node: NodeID, _ role: SemanticRole) {
            self.node = node
            self.role = role.rawValue
        }
    }

    /// How a property's value is stored.
    package enum ValueForm: UInt8, Sendable {
        /// `true` (a flag).
        case flag
        /// An integer (`payload`), whose string is its decimal digits (`-1`, `42`).
        case integer
        /// A ``PropertyAtom`` (number `payload`).
        case atom
        /// `strings[payload]`.
        case string
    }

    /// One property of a node.

    @usableFromInline
    package struct Property: Sendable {
        /// A ``PropertyName`` number, or (from ``PropertyName/allCases``.count on) `extraNames`.
        package var name: UInt16
        package var form: ValueForm
        package var payload: Int32

        package init(name: UInt16, form: ValueForm, payload: Int32) {
            self.name = name
            self.form = form
            self.payload = payload
        }

        /// A flag (`true`).
        package static func flag(_ name: PropertyName) -> Property { Property(name: name.rawValue, form: .flag, payload: 0) }
        /// An atom value.
        package static func atom(_ name: PropertyName, _ value: PropertyAtom) -> Property {
            Property(name: name.rawValue, form: .atom, payload: Int32(value.rawValue))
        }
        /// An integer value that fits in 32 bits (others are stored as strings by ``SemanticTree/Builder``).
        package static func integer(_ name: PropertyName, _ value: Int32) -> Property {
            Property(name: name.rawValue, form: .integer, payload: value)
        }
    }

    /// The nodes, links and properties, side by side in one allocation (nil for a tree with none). Never
    /// changed once made, so shared between threads safely (a `ManagedBuffer` is not `Sendable`).
    @usableFromInline nonisolated(unsafe) var records: RecordStorage?
    /// The nodes, links and properties, read in place (``RecordList``).
    @inlinable package var nodes: RecordList<Node> { records.map { RecordList($0, at: 0, count: $0.counts.nodes) } ?? RecordList() }
    @inlinable package var links: RecordList<Link> { records.map { RecordList($0, at: $0.counts.linksAt, count: $0.counts.links) } ?? RecordList() }
    @inlinable package var properties: RecordList<Property> {
        records.map { RecordList($0, at: $0.counts.propertiesAt, count: $0.counts.properties) } ?? RecordList()
    }
    /// Texts and string values.
    package var strings: [String] = []
    /// Property names and roles outside the analysis's vocabulary (only in trees made from hand-built
    /// ``SemanticNode``s).
    package var extraNames: [String] = []
    package var extraRoles: [String] = []
    /// The root node (-1 while a tree is being built).
    package var rootID: NodeID = -1

    /// An empty tree, ready to be built.
    package init() {}

    /// A finished tree (``Builder/takeTree(root:)``).
    init(records: RecordStorage, strings: [String], extraNames: [String], extraRoles: [String], rootID: NodeID) {
        self.records = records
        self.strings = strings
        self.extraNames = extraNames
        self.extraRoles = extraRoles
        self.rootID = rootID
    }

    /// How many nodes the tree holds (including any the analysis made and then left out).
    public var nodeCount: Int { nodes.count }

    // MARK: Reading

    /// A property name number's string.
    package func name(ofProperty number: UInt16) -> String {
        let known = PropertyName.allCases.count
        return Int(number) < known ? PropertyName(rawValue: number)!.name : extraNames[Int(number) - known]
    }

    /// A role number's string.
    package func name(ofRole number: UInt16) -> String {
        let known = SemanticRole.allCases.count
        return Int(number) < known ? SemanticRole(rawValue: number)!.name : extraRoles[Int(number) - known]
    }

    /// The number of a property name in this tree (a ``PropertyName``, or one of `extraNames`).
    package func propertyNumber(_ name: String) -> UInt16? {
        if let p = PropertyName(name: name) { return p.rawValue }
        return extraNames.firstIndex(of: name).map { UInt16(PropertyName.allCases.count + $0) }
    }

    /// The number of a role in this tree (a ``SemanticRole``, or one of `extraRoles`).
    package func roleNumber(_ name: String) -> UInt16? {
        if let r = SemanticRole(name: name) { return r.rawValue }
        return extraRoles.firstIndex(of: name).map { UInt16(SemanticRole.allCases.count + $0) }
    }

    /// The number of role `name` in this tree; a role outside the vocabulary that the tree does not
    /// hold yet is added to `extraRoles` (numbered after the others).
    package mutating func addRole(_ name: String) -> UInt16 {
        if let n = roleNumber(name) { return n }
        extraRoles.append(name)
        return UInt16(SemanticRole.allCases.count + extraRoles.count - 1)
    }

    // MARK: Objects

    /// The tree as linked ``SemanticNode``s (built on each call).
    public var root: SemanticNode {
        rootID < 0 ? SemanticNode(.empty) : node(rootID, role: SemanticNode.Role.none)
    }

    /// Node `n` as a ``SemanticNode`` playing `role`, with its subtree.
    package func node(_ n: NodeID, role: SemanticNode.Role) -> SemanticNode {
        // Built bottom-up with an explicit stack, so any depth is safe.
        struct Frame {
            let id: NodeID
            let role: SemanticNode.Role
            var next = 0
            var built: [SemanticNode] = []
        }
        var stack = [Frame(id: n, role: role)]
        while true {
            let top = stack.count - 1
            let record = nodes[Int(stack[top].id)]
            if stack[top].next < Int(record.childCount) {
                let link = links[Int(record.firstChild) + stack[top].next]
                stack[top].next += 1
                stack.append(Frame(id: link.node, role: SemanticNode.Role(rawValue: name(ofRole: link.role))))
                continue
            }
            let frame = stack.removeLast()
            var props = SemanticProperties()
            for i in Int(record.firstProperty) ..< Int(record.firstProperty + record.propertyCount) {
                props[name(ofProperty: properties[i].name)] = string(of: properties[i])
            }
            let made = SemanticNode(record.kind, text: text(frame.id), children: frame.built, role: frame.role,
                                    properties: props, range: record.range)
            if stack.isEmpty { return made }
            stack[stack.count - 1].built.append(made)
        }
    }

    /// The tree of a ``SemanticNode`` (its roles and properties numbered, its values stored in their
    /// compact forms).
    public init(_ root: SemanticNode) {
        var b = Builder()
        // Post-order with an explicit stack: children are made before their parent.
        struct Frame {
            let node: SemanticNode
            var next = 0
            var made: [Link] = []
        }
        var stack = [Frame(node: root)]
        while true {
            let top = stack.count - 1
            let node = stack[top].node
            if stack[top].next < node.children.count {
                let child = node.children[stack[top].next]
                stack[top].next += 1
                stack.append(Frame(node: child))
                continue
            }
            let frame = stack.removeLast()
            let mark = b.mark()
            for link in frame.made { b.add(child: link.node, roleNumber: link.role) }
            for (key, value) in node.properties { b.add(named: key, value: value) }
            let id = b.finish(node.kind, mark, text: node.text, range: node.range, rangeFromChildren: false)
            if stack.isEmpty {
                self = b.finish(root: id)
                return
            }
            stack[stack.count - 1].made.append(Link(node: id, role: b.roleNumber(node.role.rawValue)))
        }
    }
}

/// Reading the records of a flat semantic tree: a finished ``SemanticTree`` and the tree a
/// ``SemanticTree/Builder`` is building share these readers (the analysis reads what it has built).
package protocol SemanticRecords {
    /// Node `n`'s record.
    func record(_ n: SemanticTree.NodeID) -> SemanticTree.Node
    /// Link `i` of the tree's links.
    func link(at i: Int) -> SemanticTree.Link
    /// Property `i` of the tree's properties.
    func property(at i: Int) -> SemanticTree.Property
    /// String `i` of the tree's texts and string values.
    func string(at i: Int) -> String
}

extension SemanticTree: SemanticRecords {
    @inline(__always) package func record(_ n: NodeID) -> Node { nodes[Int(n)] }
    @inline(__always) package func link(at i: Int) -> Link { links[i] }
    @inline(__always) package func property(at i: Int) -> Property { properties[i] }
    @inline(__always) package func string(at i: Int) -> String { strings[i] }
}

extension SemanticRecords {
    package typealias NodeID = SemanticTree.NodeID
    package typealias Property = SemanticTree.Property

    @inline(__always)
    package func kind(_ n: NodeID) -> SemanticKind { record(n).kind }

    @inline(__always)
    package func text(_ n: NodeID) -> String {
        let t = record(n).text
        return t < 0 ? "" : string(at: Int(t))
    }

    @inline(__always)
    package func range(_ n: NodeID) -> SourceRange? { record(n).range }

    @inline(__always)
    package func childCount(_ n: NodeID) -> Int { Int(record(n).childCount) }

    /// Child `i`'s link.
    @inline(__always)
    package func child(_ n: NodeID, at i: Int) -> SemanticTree.Link { link(at: Int(record(n).firstChild) + i) }

    /// The first child with `role`, if any.
    package func child(_ n: NodeID, _ role: SemanticRole) -> NodeID? {
        let node = record(n)
        var i = Int(node.firstChild)
        let end = i + Int(node.childCount)
        while i < end {
            let l = link(at: i)
            if l.role == role.rawValue { return l.node }
            i += 1
        }
        return nil
    }

    /// The property `name` of node `n`, if set.
    @inline(__always)
    package func property(_ n: NodeID, _ name: PropertyName) -> Property? {
        property(n, number: name.rawValue)
    }

    /// The property with name number `number` of node `n`, if set.
    package func property(_ n: NodeID, number: UInt16) -> Property? {
        let node = record(n)
        var i = Int(node.firstProperty)
        let end = i + Int(node.propertyCount)
        while i < end {
            let p = property(at: i)
            if p.name == number { return p }
            i += 1
        }
        return nil
    }

    /// Whether flag `name` is set: present with a value other than `false` and the empty string (as
    /// ``SemanticNode/has(_:)``).
    package func has(_ n: NodeID, _ name: PropertyName) -> Bool {
        guard let p = property(n, name) else { return false }
        return isSet(p)
    }

    /// Whether a property counts as set (its value is not `false` or empty).
    package func isSet(_ p: Property) -> Bool {
        switch p.form {
        case .flag, .integer: return true
        case .atom: return true        // no atom is `false` or empty
        case .string:
            let s = string(at: Int(p.payload))
            return !s.isEmpty && s != "false"
        }
    }

    /// The atom value of `name`, if it is stored as one.
    package func atom(_ n: NodeID, _ name: PropertyName) -> PropertyAtom? {
        guard let p = property(n, name), p.form == .atom else { return nil }
        return PropertyAtom(rawValue: UInt16(p.payload))
    }

    /// The integer value of `name`, if it is stored as one.
    package func integer(_ n: NodeID, _ name: PropertyName) -> Int? {
        guard let p = property(n, name), p.form == .integer else { return nil }
        return Int(p.payload)
    }

    /// A property's value as a string (what a ``SemanticNode`` holds).
    package func string(of p: Property) -> String {
        switch p.form {
        case .flag: return "true"
        case .integer: return String(p.payload)
        case .atom: return PropertyAtom(rawValue: UInt16(p.payload))?.string ?? ""
        case .string: return string(at: Int(p.payload))
        }
    }

    /// The value of `name` as a string, if set.
    package func string(_ n: NodeID, _ name: PropertyName) -> String? {
        property(n, name).map(string(of:))
    }
}

extension SemanticTree {
    /// The records of a tree being built, read in place (``Builder/records``): four addresses, so
    /// passing them around costs nothing. Valid until the builder makes its next record.
    package struct Records: SemanticRecords {
        let nodes: UnsafeMutablePointer<Node>
        let links: UnsafeMutablePointer<Link>
        let properties: UnsafeMutablePointer<Property>
        let strings: UnsafeMutablePointer<String>

        @inline(__always) package func record(_ n: NodeID) -> Node { nodes[Int(n)] }
        @inline(__always) package func link(at i: Int) -> Link { links[i] }
        @inline(__always) package func property(at i: Int) -> Property { properties[i] }
        @inline(__always) package func string(at i: Int) -> String { strings[i] }

        /// The children's links, in order.
        @inline(__always)
        package func children(_ n: NodeID) -> UnsafeBufferPointer<Link> {
            let node = nodes[Int(n)]
            return UnsafeBufferPointer(start: links + Int(node.firstChild), count: Int(node.childCount))
        }
    }
}

extension SemanticTree {
    /// Builds a ``SemanticTree`` bottom-up: children first, then their parent.
    ///
    /// A parent's children and properties are gathered on two scratch stacks between ``mark()`` and
    /// ``finish(_:_:text:range:rangeFromChildren:)``, then copied into the tree side by side. Building a
    /// child in between (after the parent's mark) is fine: it takes its own mark above the parent's
    /// entries and removes only what it added.
    ///
    /// The records being built are kept on ``LentStack``s (in memory the caller lends, or on the heap)
    /// and moved into the tree's arrays, each allocated once at its final size, by
    /// ``takeTree(root:)``, which every builder must end with (it frees what the stacks allocated);
    /// the strings are gathered in the array the tree takes. The records made so far are read through
    /// ``records``. Every member but that array is a plain record or a stack of them.
    package struct Builder {
        private var nodes: LentStack<Node>
        private var links: LentStack<Link>
        private var properties: LentStack<Property>
        /// The tree's strings, in the array it takes whole. (Gathered on a stack, they were moved one by one
        /// into an array at the end: ~200 instructions a formula more, `MathAloudBench stages` under callgrind,
        /// session 37.)
        private var strings: [String]
        private var extraNames: LentStack<String>
        private var extraRoles: LentStack<String>
        /// The children and properties of the nodes being built.
        private var linkStack: LentStack<Link>
        private var propertyStack: LentStack<Property>

        /// Where a node's children and properties start on the scratch stacks.
        package struct Mark: Sendable {
            fileprivate let links: Int
            fileprivate let properties: Int
        }

        /// A builder whose records are on the heap.
        package init() {
            nodes = LentStack()
            links = LentStack()
            properties = LentStack()
            strings = []
            extraNames = LentStack()
            extraRoles = LentStack()
            linkStack = LentStack()
            propertyStack = LentStack()
        }

        /// A builder whose records start in an analysis's memory (a block each for the nodes, links and
        /// properties, one for the scratch stacks), with room reserved for the tree of an input of
        /// `inputNodes` nodes.
        init(memory: AnalysisMemory, inputNodes: Int) {
            let block = LentMemory.blockSize
            nodes = LentStack(in: memory.tree.0, at: 0, capacity: block / MemoryLayout<Node>.stride)
            links = LentStack(in: memory.tree.1, at: 0, capacity: block / MemoryLayout<Link>.stride)
            properties = LentStack(in: memory.tree.2, at: 0, capacity: block / MemoryLayout<Property>.stride)
            linkStack = LentStack(in: memory.tree.3, at: 0, capacity: 64)
            let propertiesAt = AnalysisMemory.place(Property.self, after: 64, Link.self, at: 0)
            precondition(propertiesAt + 64 * MemoryLayout<Property>.stride <= block, "the builder's stacks overflow their block")
            propertyStack = LentStack(in: memory.tree.3, at: propertiesAt, capacity: 64)
            strings = []
            extraNames = LentStack()
            extraRoles = LentStack()
            // On the arXiv corpus, 99 % of the trees have fewer records than these multiples of
            // their input's nodes (nodes 1.54, links 1.50, properties 2.80, strings 1.40). Room is
            // reserved ahead only beyond twice what the lent memory holds: below that a stack moves to
            // the heap only if the tree needs it (most such trees fit), and then grows once.
            // (`MathAloudBench semantics-profile` under callgrind: half the trees reserved room on the heap.)
            func reserve<Element>(_ stack: inout LentStack<Element>, _ n: Int) {
                if n > 2 * (block / MemoryLayout<Element>.stride) { stack.reserve(n) }
            }
            reserve(&nodes, inputNodes + inputNodes / 2 + 4)
            reserve(&links, inputNodes + inputNodes / 2 + 4)
            reserve(&properties, 3 * inputNodes)
            strings.reserveCapacity(inputNodes + inputNodes / 2 + 4)
        }

        // MARK: Reading what was built

        /// The records made so far, read in place (valid until the next record is made).
        @inline(__always)
        package var records: Records {
            // The strings' address as the stacks' addresses are read: valid until the next string is stored.
            Records(nodes: nodes.start, links: links.start, properties: properties.start,
                    strings: strings.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeMutablePointer.init(mutating:)) ?? .neverRead })
        }

        // MARK: Building

        /// Starts a node: its children and properties follow.
        @inline(__always)
        package func mark() -> Mark { Mark(links: linkStack.count, properties: propertyStack.count) }

        /// Adds a child with `role` to the node being built.
        @inline(__always)
        package mutating func add(child: NodeID, _ role: SemanticRole) {
            linkStack.push(Link(node: child, role: role.rawValue))
        }

        package mutating func add(child: NodeID, roleNumber: UInt16) {
            linkStack.push(Link(node: child, role: roleNumber))
        }

        /// Adds (or replaces, within the node being built since `mark`) a property.
        @inline(__always)
        package mutating func add(_ p: Property, since mark: Mark) {
            var i = mark.properties
            while i < propertyStack.count {
                if propertyStack[i].name == p.name { propertyStack[i] = p; return }
                i += 1
            }
            propertyStack.push(p)
        }

        /// Adds a property known not to be set yet on the node being built.
        @inline(__always)
        package mutating func add(_ p: Property) { propertyStack.push(p) }

        /// Adds a flag.
        @inline(__always)
        package mutating func flag(_ name: PropertyName) { propertyStack.push(.flag(name)) }

        /// Adds an atom value.
        @inline(__always)
        package mutating func atom(_ name: PropertyName, _ value: PropertyAtom) { propertyStack.push(.atom(name, value)) }

        /// Adds an integer value (stored as a string when it does not fit in 32 bits).
        @inline(__always)
        package mutating func integer(_ name: PropertyName, _ value: Int) {
            if let v = Int32(exactly: value) {
                propertyStack.push(.integer(name, v))
            } else {
                string(name, String(value))
            }
        }

        /// Adds a string value (stored as a flag, an integer or an atom when it is one's string).
        package mutating func string(_ name: PropertyName, _ value: String) {
            add(value: value, number: name.rawValue)
        }

        /// Adds a property by name string (a name outside the vocabulary is numbered for this tree).
        package mutating func add(named name: String, value: String) {
            add(value: value, number: propertyNumber(name))
        }

        private mutating func add(value: String, number: UInt16) {
            // `true` and every atom's string start with a lower-case ASCII letter, an integer with a digit
            // or `-`: other values (operators, fences) skip the tests.
            let first = value.utf8.withContiguousStorageIfAvailable { $0.first ?? 0 } ?? value.utf8.first ?? 0
            let letter = first >= 0x61 && first <= 0x7A
            if letter && value == "true" {
                propertyStack.push(Property(name: number, form: .flag, payload: 0))
            } else if !letter, first == 0x2D || (first >= 0x30 && first <= 0x39), let v = SemanticTree.canonicalInteger(value) {
                propertyStack.push(Property(name: number, form: .integer, payload: v))
            } else if letter, let a = PropertyAtom(string: value) {
                propertyStack.push(Property(name: number, form: .atom, payload: Int32(a.rawValue)))
            } else {
                propertyStack.push(Property(name: number, form: .string, payload: intern(value)))
            }
        }

        /// Copies node `n`'s properties onto the node being built, except those named in `except`.
        package mutating func copyProperties(of n: NodeID, except: [PropertyName] = []) {
            let node = nodes[Int(n)]
            for i in Int(node.firstProperty) ..< Int(node.firstProperty + node.propertyCount) {
                let p = properties[i]
                if except.contains(where: { $0.rawValue == p.name }) { continue }
                propertyStack.push(p)
            }
        }

        /// Removes property `name` from the node being built (since `mark`).
        package mutating func remove(_ name: PropertyName, since mark: Mark) {
            var i = mark.properties
            while i < propertyStack.count {
                if propertyStack[i].name == name.rawValue {
                    // Later entries move down one.
                    var k = i
                    while k + 1 < propertyStack.count {
                        propertyStack[k] = propertyStack[k + 1]
                        k += 1
                    }
                    propertyStack.truncate(to: propertyStack.count - 1)
                    return
                }
                i += 1
            }
        }

        /// Stores a string and returns its number.
        @inline(__always)
        package mutating func intern(_ s: String) -> Int32 {
            strings.append(s)
            return Int32(truncatingIfNeeded: strings.count &- 1)
        }

        /// Makes the node whose children and properties were added since `mark`. With
        /// `rangeFromChildren`, a missing range is the union of the children's ranges.
        package mutating func finish(_ kind: SemanticKind, _ mark: Mark, text: String = "", range: SourceRange? = nil,
                                     rangeFromChildren: Bool = true) -> NodeID {
            // Counts stay far below 2^31 (every record comes from the input), so the arithmetic
            // below need not be checked.
            let firstChild = links.count
            let childCount = linkStack.count &- mark.links
            var lower = -1, upper = -1
            if let range { (lower, upper) = (range.lowerBound, range.upperBound) }
            if childCount > 0 {
                let joinRanges = range == nil && rangeFromChildren
                let source = linkStack.start + mark.links
                let target = links.extend(by: childCount)
                let records = nodes.start
                for i in 0 ..< childCount {
                    let link = source[i]
                    (target + i).initialize(to: link)
                    if joinRanges {
                        let child = records + Int(link.node)
                        let childLower = child.pointee.lowerBound
                        if childLower < 0 { continue }
                        if lower < 0 || childLower < lower { lower = childLower }
                        upper = max(upper, child.pointee.upperBound)
                    }
                }
                linkStack.truncate(to: mark.links)
            }
            let firstProperty = properties.count
            let propertyCount = propertyStack.count &- mark.properties
            if propertyCount > 0 {
                properties.extend(by: propertyCount).initialize(from: propertyStack.start + mark.properties, count: propertyCount)
                propertyStack.truncate(to: mark.properties)
            }
            return append(Node(kind: kind, firstChild: Int32(truncatingIfNeeded: firstChild),
                               childCount: Int32(truncatingIfNeeded: childCount),
                               firstProperty: Int32(truncatingIfNeeded: firstProperty),
                               propertyCount: Int32(truncatingIfNeeded: propertyCount),
                               text: text.isEmpty ? -1 : intern(text), lowerBound: lower, upperBound: upper))
        }

        /// A leaf with one property. (Inlined: its property is most often a constant; called, as the
        /// inliner chose once the record's bounds were 32 bits, it cost ~65 instructions a leaf more,
        /// `MathAloudBench stages` under callgrind, session 39.)
        @inline(__always)
        package mutating func leaf(_ kind: SemanticKind, text: String, range: SourceRange?, _ property: Property) -> NodeID {
            let first = Int32(properties.count)
            properties.push(property)
            return append(Node(kind: kind, firstChild: 0, childCount: 0, firstProperty: first, propertyCount: 1,
                               text: text.isEmpty ? -1 : intern(text), lowerBound: range?.lowerBound ?? -1,
                               upperBound: range?.upperBound ?? -1))
        }

        /// A leaf with two properties.
        package mutating func leaf(_ kind: SemanticKind, text: String, range: SourceRange?, _ p0: Property,
                                   _ p1: Property) -> NodeID {
            let first = Int32(properties.count)
            properties.push(p0)
            properties.push(p1)
            return append(Node(kind: kind, firstChild: 0, childCount: 0, firstProperty: first, propertyCount: 2,
                               text: text.isEmpty ? -1 : intern(text), lowerBound: range?.lowerBound ?? -1,
                               upperBound: range?.upperBound ?? -1))
        }

        /// Drops the children and properties added since `mark` (a node begun and then not made).
        package mutating func discard(_ mark: Mark) {
            linkStack.truncate(to: mark.links)
            propertyStack.truncate(to: mark.properties)
        }

        /// The one child added since `mark`, taken off the node being built (which is then not made).
        package mutating func takeOnlyChild(_ mark: Mark) -> NodeID {
            precondition(linkStack.count == mark.links + 1, "takeOnlyChild(_:) needs exactly one child")
            let child = linkStack.pop().node
            propertyStack.truncate(to: mark.properties)
            return child
        }

        /// A leaf with a few properties, written straight into the tree (no scratch stack).
        package mutating func leaf(_ kind: SemanticKind, text: String, range: SourceRange?,
                                   _ leafProperties: LeafProperties) -> NodeID {
            let first = Int32(truncatingIfNeeded: properties.count)
            leafProperties.copy(to: properties.extend(by: leafProperties.count))
            return append(Node(kind: kind, firstChild: 0, childCount: 0, firstProperty: first,
                               propertyCount: Int32(truncatingIfNeeded: leafProperties.count), text: text.isEmpty ? -1 : intern(text),
                               lowerBound: range?.lowerBound ?? -1, upperBound: range?.upperBound ?? -1))
        }

        /// Adds properties known not to be set yet on the node being built.
        package mutating func add(_ leafProperties: LeafProperties) {
            leafProperties.copy(to: propertyStack.extend(by: leafProperties.count))
        }

        /// A leaf without properties.
        package mutating func leaf(_ kind: SemanticKind, text: String = "", range: SourceRange?) -> NodeID {
            append(Node(kind: kind, firstChild: 0, childCount: 0, firstProperty: Int32(properties.count), propertyCount: 0,
                        text: text.isEmpty ? -1 : intern(text), lowerBound: range?.lowerBound ?? -1,
                        upperBound: range?.upperBound ?? -1))
        }

        /// A copy of node `n` with another range (children, properties and text shared).
        package mutating func copy(_ n: NodeID, range: SourceRange?) -> NodeID {
            var node = nodes[Int(n)]
            node.lowerBound = range?.lowerBound ?? -1
            node.upperBound = range?.upperBound ?? -1
            return append(node)
        }

        /// A copy of node `n` with another kind and the properties added since `mark` instead of its own
        /// (children, text and range shared). The children added since `mark` must be none.
        package mutating func copy(_ n: NodeID, kind: SemanticKind, propertiesSince mark: Mark) -> NodeID {
            precondition(linkStack.count == mark.links, "copy(_:kind:propertiesSince:) takes no children")
            var node = nodes[Int(n)]
            node.kind = kind
            node.firstProperty = Int32(properties.count)
            node.propertyCount = Int32(propertyStack.count - mark.properties)
            properties.push(movingFrom: &propertyStack, from: mark.properties)
            return append(node)
        }

        /// A copy of node `n` with another kind, another range and the properties added since `mark`
        /// instead of its own (children and text shared). The children added since `mark` must be none.
        package mutating func copy(_ n: NodeID, kind: SemanticKind, propertiesSince mark: Mark, range: SourceRange?) -> NodeID {
            let id = copy(n, kind: kind, propertiesSince: mark)
            nodes[Int(id)].lowerBound = range?.lowerBound ?? -1
            nodes[Int(id)].upperBound = range?.upperBound ?? -1
            return id
        }

        @inline(__always)
        private mutating func append(_ node: Node) -> NodeID {
            nodes.push(node)
            return NodeID(truncatingIfNeeded: nodes.count &- 1)
        }

        /// The number of property name `name` in this tree (numbered after the vocabulary when it is
        /// not in it).
        package mutating func propertyNumber(_ name: String) -> UInt16 {
            if let p = PropertyName(name: name) { return p.rawValue }
            for i in 0 ..< extraNames.count where extraNames[i] == name { return UInt16(PropertyName.allCases.count + i) }
            extraNames.push(name)
            return UInt16(PropertyName.allCases.count + extraNames.count - 1)
        }

        /// The number of role `name` in this tree (numbered after the vocabulary when it is not in it).
        package mutating func roleNumber(_ name: String) -> UInt16 {
            if let r = SemanticRole(name: name) { return r.rawValue }
            for i in 0 ..< extraRoles.count where extraRoles[i] == name { return UInt16(SemanticRole.allCases.count + i) }
            extraRoles.push(name)
            return UInt16(SemanticRole.allCases.count + extraRoles.count - 1)
        }

        /// Ends building: `root` is the tree's root.
        package consuming func finish(root: NodeID) -> SemanticTree {
            takeTree(root: root)
        }

        /// Ends building: the records are copied into one allocation of their size (``RecordStorage``), the
        /// strings move into the tree, the builder's heap memory is freed and the builder is left empty.
        package mutating func takeTree(root: NodeID) -> SemanticTree {
            let records = RecordStorage.make(nodes.start, nodes.count, links.start, links.count, properties.start, properties.count)
            var taken: [String] = []
            swap(&taken, &strings)
            let names = extraNames.takeAll(), roles = extraRoles.takeAll()
            nodes.release()
            links.release()
            properties.release()
            extraNames.release()
            extraRoles.release()
            linkStack.release()
            propertyStack.release()
            return SemanticTree(records: records, strings: taken, extraNames: names, extraRoles: roles, rootID: root)
        }
    }

    /// The value of a canonical integer string (`0`, `42`, `-1`; not `007`, `+1`, `-0`) that fits in
    /// 32 bits: a value stored as that integer reads back as the same string.
    package static func canonicalInteger(_ s: String) -> Int32? {
        var utf8 = s.utf8[...]
        guard let first = utf8.first else { return nil }
        var negative = false
        if first == 0x2D {
            negative = true
            utf8 = utf8.dropFirst()
        }
        guard let lead = utf8.first, lead >= 0x30, lead <= 0x39, utf8.count <= 10 else { return nil }
        if lead == 0x30 && (utf8.count > 1 || negative) { return nil }
        var v: Int64 = 0
        for b in utf8 {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            v = v * 10 + Int64(b - 0x30)
        }
        if negative { v = -v }
        return Int32(exactly: v)
    }
}

extension SemanticTree {
    /// One allocation holding a finished tree's nodes, links and properties, in that order (each a plain
    /// record, so nothing to destroy), with their numbers. (Three arrays, one for each, cost two allocations
    /// and two frees a tree more, and the nodes' array, 1 KiB or more for one tree in four, set off
    /// `malloc_consolidate`: with the tree's three references copied where one is now, 2.6 M instructions
    /// for 2,000 formulas, `MathAloudBench stages` under callgrind, session 38.)
    @usableFromInline
    final class RecordStorage: ManagedBuffer<RecordCounts, UInt64> {
        /// The numbers, read at their address. (Read as `header`, a class's stored property, each read
        /// was checked for exclusive access: ~57 instructions, `MathAloudBench stages` under callgrind,
        /// session 38.)
        @inlinable
        var counts: RecordCounts { withUnsafeMutablePointerToHeader { $0.pointee } }

        /// A new storage holding copies of `count` records at each address.
        static func make(_ nodes: UnsafePointer<Node>, _ nodeCount: Int, _ links: UnsafePointer<Link>, _ linkCount: Int,
                         _ properties: UnsafePointer<Property>, _ propertyCount: Int) -> RecordStorage {
            // Every record's size is a multiple of 8 bytes, which the words are aligned to.
            precondition(MemoryLayout<Node>.stride % 8 == 0 && MemoryLayout<Link>.stride == 8 && MemoryLayout<Property>.stride == 8)
            let linksAt = nodeCount * (MemoryLayout<Node>.stride / 8)
            let propertiesAt = linksAt + linkCount
            let storage = unsafeDowncast(RecordStorage.create(minimumCapacity: propertiesAt + propertyCount) { _ in
                RecordCounts(nodes: nodeCount, links: linkCount, properties: propertyCount, linksAt: linksAt, propertiesAt: propertiesAt)
            }, to: RecordStorage.self)
            storage.withUnsafeMutablePointerToElements { words in
                let raw = UnsafeMutableRawPointer(words)
                raw.bindMemory(to: Node.self, capacity: nodeCount).initialize(from: nodes, count: nodeCount)
                (raw + 8 * linksAt).bindMemory(to: Link.self, capacity: linkCount).initialize(from: links, count: linkCount)
                (raw + 8 * propertiesAt).bindMemory(to: Property.self, capacity: propertyCount)
                    .initialize(from: properties, count: propertyCount)
            }
            return storage
        }
    }

    /// How many records of each kind a ``RecordStorage`` holds, and where its links and properties start
    /// (in 8-byte words).
    @usableFromInline
    struct RecordCounts {
        @usableFromInline let nodes: Int, links: Int, properties: Int
        @usableFromInline let linksAt: Int, propertiesAt: Int
    }

    /// A finished tree's records of one kind, read in place in their ``RecordStorage`` (which the list
    /// keeps alive); the records never change. (Inlinable, as an array's readers are: the speech rules read
    /// the records through ``withUnsafeBufferPointer(_:)``, which, called generically, cost ~0.8 M
    /// instructions for 2,000 formulas, `MathAloudBench stages` under callgrind, session 38.)
    @usableFromInline
    package struct RecordList<Element>: RandomAccessCollection, @unchecked Sendable {
        @usableFromInline let storage: RecordStorage?
        @usableFromInline let base: UnsafePointer<Element>
        /// The number of records.
        @usableFromInline package let count: Int

        /// No records.
        @inlinable
        package init() {
            storage = nil
            base = UnsafePointer(UnsafeMutablePointer<Element>.neverRead)
            count = 0
        }

        /// The `count` records from word `offset` of `storage`.
        @inlinable
        init(_ storage: RecordStorage, at offset: Int, count: Int) {
            self.storage = storage
            base = storage.withUnsafeMutablePointerToElements {
                UnsafePointer(UnsafeMutableRawPointer($0 + offset).assumingMemoryBound(to: Element.self))
            }
            self.count = count
        }

        @inlinable package var startIndex: Int { 0 }
        @inlinable package var endIndex: Int { count }

        /// Record `i` (below ``count``).
        @inlinable
        package subscript(i: Int) -> Element {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "index out of range")
            return base[i]
        }

        /// Runs `body` on the records in place.
        @inlinable
        package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
            defer { withExtendedLifetime(storage) {} }
            return try body(UnsafeBufferPointer(start: base, count: count))
        }
    }
}

extension SemanticTree {
    /// Up to four properties of a leaf, gathered in place (no array) before the leaf is made.
    package struct LeafProperties: Sendable {
        /// How many properties there are.
        package private(set) var count = 0
        private var p0 = Property.flag(.letter), p1 = Property.flag(.letter)
        private var p2 = Property.flag(.letter), p3 = Property.flag(.letter)
        private var p4 = Property.flag(.letter), p5 = Property.flag(.letter)

        /// No properties.
        package init() {}

        /// Adds a property (names must be distinct); at most six (a styled capital Greek letter has
        /// `letter`, `greek`, `capital`, `variant` and `font`).
        package mutating func append(_ p: Property) {
            switch count {
            case 0: p0 = p
            case 1: p1 = p
            case 2: p2 = p
            case 3: p3 = p
            case 4: p4 = p
            default:
                precondition(count == 5, "a leaf takes at most six properties")
                p5 = p
            }
            count += 1
        }

        /// Writes the properties, in order, to `target` (room for ``count``).
        @inline(__always)
        package func copy(to target: UnsafeMutablePointer<Property>) {
            if count > 0 { target.initialize(to: p0) }
            if count > 1 { (target + 1).initialize(to: p1) }
            if count > 2 { (target + 2).initialize(to: p2) }
            if count > 3 { (target + 3).initialize(to: p3) }
            if count > 4 { (target + 4).initialize(to: p4) }
            if count > 5 { (target + 5).initialize(to: p5) }
        }
    }
}
