import Foundation
import MathSyntax
import MathSemantics

/// The items of a description being spoken; those from `start` on are a description of their own
/// (a template part spoken alone before it is joined to the words before it, see
/// ``SpeechRun/render(rule:_:depth:prosody:into:)``).
struct SpeechBuilder {
    /// The items so far. Words and pauses are added, joined and removed through the methods below,
    /// which keep the contraction screen (``watching``) true to them.
    var items: [SpeechDescription.Item] = []
    var start = 0
    /// UTF-8 bytes of words appended so far (for ``SpeechLimits/maxOutputBytes``).
    var bytes = 0
    /// Script levels (styles that declare `levels`): the level of the words being appended, the level
    /// of the last words appended, and per level the indicator said when words change to it (level 0
    /// is the baseline; empty when the style does not track levels).
    var level: Int32 = 0
    var spokenLevel: Int32 = 0
    var indicators: [String] = []
    /// The locale's contraction tests (``Contractions/Screen``), asked of words as they are appended
    /// while ``watching``.
    private let screen: Contractions.Screen
    /// Whether the items are screened: the locale has contractions that allow it (``Contractions/screens``).
    private let screened: Bool
    /// Whether words are still screened: they are, and no contraction could change the items so far.
    private(set) var watching: Bool
    /// How the last item ends: ``endsOther`` (words that do not end in a byte a contraction's first
    /// word ends in, a pause, no item), ``endsInFirst``, or ``endsUnread``: words noted without their
    /// bytes read (``note(_:)``), read when the next item may start a pair with them.
    private var lastEnd = SpeechBuilder.endsOther
    private static let endsOther: UInt8 = 0, endsInFirst: UInt8 = 1, endsUnread: UInt8 = 2

    /// A builder whose items are screened with `screen` when `screened` (``Contractions/screens``).
    init(capacity: Int, screen: Contractions.Screen, screened: Bool) {
        items.reserveCapacity(capacity)
        self.screen = screen
        self.screened = screened
        watching = screened
    }

    /// Whether the contractions may change the items: not when every item was screened and none
    /// held a pair or met the next in one (``Contractions/apply(to:isVariable:)`` then has nothing to do).
    var mayContract: Bool { !screened || !watching }

    /// Appends words, which the screen reads, unless they are blank.
    @inline(__always)
    mutating func append(words: consuming String, range: SourceRange?, prosody: SpeechDescription.Prosody?) {
        append(words: words, marks: Contractions.Screen.unmarked, range: range, prosody: prosody)
    }

    /// Appends words with their marks (``Contractions/Screen/marks(of:)``; ``Contractions/Screen/unmarked``:
    /// the words are screened as ``append(words:range:prosody:)`` screens them), unless they are blank.
    @inline(__always)
    mutating func append(words: consuming String, marks: UInt8, range: SourceRange?, prosody: SpeechDescription.Prosody?) {
        bytes &+= words.utf8.count
        guard !SpeechDescription.isBlank(words) else { return }
        if level != spokenLevel { changeLevel(range: range) }
        if watching { if marks == Contractions.Screen.unmarked { note(words) } else { note(marks: marks) } }
        items.append(.words(words, range: range, prosody: prosody))
    }

    /// Appends words known not to be blank, with their marks (see ``append(words:marks:range:prosody:)``).
    @inline(__always)
    mutating func append(nonBlank words: consuming String, marks: UInt8, range: SourceRange?, prosody: SpeechDescription.Prosody?) {
        bytes &+= words.utf8.count
        if level != spokenLevel { changeLevel(range: range) }
        if watching { note(marks: marks) }
        items.append(.words(words, range: range, prosody: prosody))
    }

    /// ``note(_:)`` for words whose marks were made before: a few instructions, where reading the
    /// words' bytes cost 45 per item (`MathAloudBench stages` under callgrind, session 15).
    @inline(__always)
    mutating func note(marks: UInt8) {
        if marks & Contractions.Screen.holdsPair != 0 || (marks & Contractions.Screen.startsSecondWord != 0 && lastEndsInFirst()) {
            watching = false
        }
        lastEnd = marks & Contractions.Screen.endsInFirstWord != 0 ? SpeechBuilder.endsInFirst : SpeechBuilder.endsOther
    }

    /// Whether the last item ends in a byte a contraction's first word ends in (read now when it was
    /// not: ``endsUnread``).
    @inline(__always)
    private func lastEndsInFirst() -> Bool {
        lastEnd == SpeechBuilder.endsInFirst || (lastEnd == SpeechBuilder.endsUnread && lastItemEndsInFirst())
    }

    /// Whether the last item is words that end in a byte a contraction's first word ends in.
    @inline(never)
    private func lastItemEndsInFirst() -> Bool {
        guard let last = items.last, case .words(let w, _, _) = last else { return false }
        return w.withBytes { bytes in bytes.last.map { screen.endsFirstWord($0) } ?? false }
    }

    /// Screens words about to be appended as an item of their own: a pair inside them, or a pair
    /// across them and the last item, stops the watching (the contractions are then applied). Their
    /// bytes are read only where a pair may be: the first after words that may end a first word, all
    /// of them when they are as long as a needle; the last is left unread (``endsUnread``) until an
    /// item after them may start a pair (reading both ends of every item cost 45 instructions an
    /// item). Out of line: inlined at every append, it grew the template loop past what the compiler
    /// inlines into it, which cost more than the call (`MathAloudBench stages` under callgrind,
    /// session 15).
    @inline(never)
    mutating func note(_ words: String) {
        let screen = self.screen, count = words.utf8.count
        guard count > 0 else {
            lastEnd = SpeechBuilder.endsOther
            return
        }
        if lastEnd != SpeechBuilder.endsOther, screen.mayStartSecondWord(words.withBytes { $0[0] }), lastEndsInFirst() {
            watching = false
            return
        }
        if count >= screen.window, words.withBytes({ screen.holdsNeedle($0) }) {
            watching = false
            return
        }
        lastEnd = SpeechBuilder.endsUnread
    }

    /// Screens the last item again after its words changed (a join): a pair inside it, and how it ends.
    private mutating func renoteLast() {
        guard let last = items.last, case .words(let w, _, _) = last else {
            lastEnd = SpeechBuilder.endsOther
            return
        }
        let marks = screen.marks(of: w)
        if marks & Contractions.Screen.holdsPair != 0 { watching = false }
        lastEnd = marks & Contractions.Screen.endsInFirstWord != 0 ? SpeechBuilder.endsInFirst : SpeechBuilder.endsOther
    }

    /// Says the indicator of ``level`` before words spoken at it after words at another level
    /// (MathSpeak rules 8.3, 8.4: a level continues until another is stated, and indicators name
    /// the absolute level).
    mutating func changeLevel(range: SourceRange?) {
        spokenLevel = level
        let i = Int(level)
        if i < indicators.count, !indicators[i].isEmpty {
            if watching { note(indicators[i]) }
            items.append(.words(indicators[i], range: range, prosody: nil))
        }
    }

    @inline(__always)
    mutating func append(pause: SpeechDescription.Pause) {
        // The pause is appended or merged (then it is last), or dropped (nothing changes).
        if items.count > start { lastEnd = SpeechBuilder.endsOther }
        SpeechDescription.append(pause: pause, to: &items, from: start)
    }

    mutating func join(_ text: String, words: String, range: SourceRange?) {
        bytes &+= text.utf8.count
        // How the last item ends is read before the join may append an item after it.
        if watching && lastEnd == SpeechBuilder.endsUnread {
            lastEnd = lastItemEndsInFirst() ? SpeechBuilder.endsInFirst : SpeechBuilder.endsOther
        }
        let count = items.count
        SpeechDescription.join(text, words: words, range: range, to: &items, from: start)
        guard watching else { return }
        if items.count > count, case .words(let w, _, _) = items[count] {
            // Appended as an item of its own after the last one.
            note(w)
        } else {
            renoteLast()
        }
    }

    /// The items, moved out of the builder (the description is done): copied out, the array was
    /// retained for the description and released with the builder (0.07 M of 145.9 M instructions,
    /// `MathAloudBench stages` under callgrind, session 38).
    mutating func takeItems() -> [SpeechDescription.Item] {
        var taken: [SpeechDescription.Item] = []
        swap(&taken, &items)
        return taken
    }

    /// Removes the items from `mark` on (a part spoken alone, about to be joined).
    mutating func removeItems(from mark: Int) {
        items.removeSubrange(mark...)
        if watching { renoteLast() }
    }
}

/// A semantic tree read through raw buffers of its records, for the speech run, which reads them
/// many times per node. The accessors are ``SemanticTree``'s read helpers again: those are not
/// inlined across modules, and calling one on the tree through a pointer copies the tree. Their
/// loops step with wrapping arithmetic (as ``propertyNames(_:)``): with checked steps and sums, those
/// of ``property(_:_:)``, ``child(_:role:)`` and the children's roles and names cost 0.34 M
/// instructions more a pass of `MathAloudBench stages` (2,000 speaks; callgrind, session 17).
struct TreeView {
    typealias NodeID = SemanticTree.NodeID

    let nodes: UnsafeBufferPointer<SemanticTree.Node>
    let links: UnsafeBufferPointer<SemanticTree.Link>
    let properties: UnsafeBufferPointer<SemanticTree.Property>
    let strings: UnsafeBufferPointer<String>
    /// The tree's property names and roles outside the vocabulary, and how many the vocabulary has.
    let extraNames: UnsafeBufferPointer<String>
    let extraRoles: UnsafeBufferPointer<String>
    let vocabularyNames: Int
    let vocabularyRoles: Int

    /// Runs `body` on a view of `tree` (valid during the call).
    static func with<R>(_ tree: SemanticTree, vocabularyNames: Int, vocabularyRoles: Int, _ body: (TreeView) -> R) -> R {
        tree.nodes.withUnsafeBufferPointer { nodes in
            tree.links.withUnsafeBufferPointer { links in
                tree.properties.withUnsafeBufferPointer { properties in
                    tree.strings.withUnsafeBufferPointer { strings in
                        tree.extraNames.withUnsafeBufferPointer { extraNames in
                            tree.extraRoles.withUnsafeBufferPointer { extraRoles in
                                body(TreeView(nodes: nodes, links: links, properties: properties, strings: strings, extraNames: extraNames,
                                              extraRoles: extraRoles, vocabularyNames: vocabularyNames, vocabularyRoles: vocabularyRoles))
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always) func kind(_ n: NodeID) -> SemanticKind { nodes[Int(n)].kind }

    @inline(__always) func childCount(_ n: NodeID) -> Int { Int(nodes[Int(n)].childCount) }

    /// Child `i`'s link.
    @inline(__always) func child(_ n: NodeID, at i: Int) -> SemanticTree.Link { links[Int(nodes[Int(n)].firstChild) + i] }

    @inline(__always)
    func text(_ n: NodeID) -> String {
        let t = nodes[Int(n)].text
        return t < 0 ? "" : strings[Int(t)]
    }

    @inline(__always)
    func range(_ n: NodeID) -> SourceRange? {
        let node = nodes[Int(n)]
        return node.lowerBound < 0 ? nil : SourceRange(node.lowerBound, node.upperBound)
    }

    /// The first child whose role has number `role`.
    @inline(__always)
    func child(_ n: NodeID, role: UInt16) -> NodeID? {
        let node = nodes[Int(n)]
        var i = Int(node.firstChild)
        let end = i &+ Int(node.childCount)
        while i < end {
            if links[i].role == role { return links[i].node }
            i &+= 1
        }
        return nil
    }

    /// The property with name number `number`.
    @inline(__always)
    func property(_ n: NodeID, _ number: UInt16) -> SemanticTree.Property? {
        let node = nodes[Int(n)]
        var i = Int(node.firstProperty)
        let end = i &+ Int(node.propertyCount)
        while i < end {
            if properties[i].name == number { return properties[i] }
            i &+= 1
        }
        return nil
    }

    /// A property's value as a string: ``SemanticTree``'s `string(of:)`, reading the strings in place
    /// (a call of a method on the tree itself copies it).
    func string(of p: SemanticTree.Property) -> String {
        switch p.form {
        case .flag: return "true"
        case .integer: return String(p.payload)
        case .atom: return PropertyAtom(rawValue: UInt16(p.payload))?.string ?? ""
        case .string: return strings[Int(p.payload)]
        }
    }

    // The names and numbers of roles and property names: ``SemanticTree``'s `name(ofRole:)`,
    // `name(ofProperty:)`, `roleNumber(_:)` and `propertyNumber(_:)`, reading the names in place.

    func name(ofRole number: UInt16) -> String {
        Int(number) < vocabularyRoles ? SemanticRole(rawValue: number)!.name : extraRoles[Int(number) - vocabularyRoles]
    }

    func name(ofProperty number: UInt16) -> String {
        Int(number) < vocabularyNames ? PropertyName(rawValue: number)!.name : extraNames[Int(number) - vocabularyNames]
    }

    func roleNumber(_ name: String) -> UInt16? {
        if let r = SemanticRole(name: name) { return r.rawValue }
        return extraRoles.firstIndex(of: name).map { UInt16(vocabularyRoles + $0) }
    }

    func propertyNumber(_ name: String) -> UInt16? {
        if let p = PropertyName(name: name) { return p.rawValue }
        return extraNames.firstIndex(of: name).map { UInt16(vocabularyNames + $0) }
    }

    /// The roles of the node's children below 64, as bits by number, and the names of the
    /// children's properties.
    @inline(__always)
    func childRolesAndNames(_ n: NodeID) -> (roles: UInt64, names: NameSet) {
        var roles: UInt64 = 0
        var names = NameSet()
        let node = nodes[Int(n)]
        var i = Int(node.firstChild)
        let end = i &+ Int(node.childCount)
        while i < end {
            if links[i].role < 64 { roles |= 1 << UInt64(links[i].role) }
            let child = nodes[Int(links[i].node)]
            var p = Int(child.firstProperty)
            let last = p &+ Int(child.propertyCount)
            while p < last {
                names.insert(properties[p].name)
                p &+= 1
            }
            i &+= 1
        }
        return (roles, names)
    }

    /// The roles of the node's children below 64, as bits by number.
    @inline(__always)
    func childRoles(_ n: NodeID) -> UInt64 {
        var roles: UInt64 = 0
        let node = nodes[Int(n)]
        var i = Int(node.firstChild)
        let end = i &+ Int(node.childCount)
        while i < end {
            if links[i].role < 64 { roles |= 1 << UInt64(links[i].role) }
            i &+= 1
        }
        return roles
    }

    /// The names of the node's properties. A loop with wrapping steps, not over a range of checked
    /// sums: the range's overflow checks and bounds cost ``SpeechRun``'s matching 0.47 M instructions
    /// a pass of `MathAloudBench stages` (2,000 speaks; callgrind, session 17).
    @inline(__always)
    func propertyNames(_ n: NodeID) -> NameSet {
        var names = NameSet()
        let node = nodes[Int(n)]
        var i = Int(node.firstProperty)
        let end = i &+ Int(node.propertyCount)
        while i < end {
            names.insert(properties[i].name)
            i &+= 1
        }
        return names
    }
}

/// The state of one speech run: a walk down the tree from the root, speaking each node by the first
/// rule whose conditions hold (DESIGN.md §5). A node is reached by a link, which gives its role; its
/// parent, siblings and ancestors come from the walk (``ancestors``).
///
/// Methods that only read are `mutating` too: called from a mutating method, a non-mutating one
/// gets a copy of the whole run (a few hundred bytes) on every call.
struct SpeechRun {
    typealias NodeID = SemanticTree.NodeID
    typealias Prosody = SpeechDescription.Prosody

    let tree: TreeView
    /// What the run reads of the engine. The caller holds both for the whole run (unowned: a run
    /// costs no reference counting of them).
    unowned(unsafe) let core: SpeechEngine.Core
    unowned(unsafe) let preferences: RunPreferences
    /// This run's results of preference tests (``RunPreferences/results``, then filled in as
    /// conditions are tested when the preferences were not tested up front), in memory the caller
    /// gives.
    private let preferenceResults: UnsafeMutablePointer<UInt8>
    let tracing: Bool
    /// Words looked up once for the run's variant, read in place (``WordCache/reader``; nil when the
    /// engine's are for another variant).
    let words: UnsafePointer<WordCache.Reader>?
    /// The numbers in this tree of the property names and roles rules name outside the vocabulary
    /// (``RuleTable/extraPropertyNames``, then ``RuleTable/extraRoleNames``), in memory the caller
    /// gives.
    private let extraNumbers: UnsafeMutablePointer<UInt16>
    private let extraRoleStart: Int
    /// Per string of the tree, its text number (see ``Scratch/textIDs``), in memory the caller gives.
    private let textIDs: UnsafeMutablePointer<Int32>
    private static let unknownTextID: Int32 = -2
    var diagnostics: [Diagnostic] = []
    var trace: [RuleTrace] = []
    /// Nodes spoken so far, the limits, whether the run stopped at one, and the rule whose template is
    /// being said (for the diagnostic that names it).
    private var steps = 0
    private(set) var stopped = false
    private var currentRule = -1
    /// The parents of the nodes being spoken, root first, each with the role it was reached by:
    /// `ancestors[0 ..< ancestorCount]`, in memory the caller gives (room for one per node: a walk
    /// goes down links, and the tree has no cycles).
    private let ancestors: UnsafeMutablePointer<Frame>
    private var ancestorCount = 0
    /// Per condition path, where it led from the node being matched (`resolvedFrames`, node -1:
    /// nowhere) when its `resolvedEpochs` entry is the current `epoch` (every node matched is a new
    /// epoch), in memory the caller gives (see ``Scratch/resolvedEpochs``).
    private let resolvedEpochs: UnsafeMutablePointer<Int32>
    private let resolvedFrames: UnsafeMutablePointer<Frame>
    private var epoch = 0
    /// The characters reported missing so far (made when the first is).
    private var reported: Set<String>? = nil
    /// ``SpeechEngine/Core``'s numbers of the vocabulary, and the NFC table, at hand.
    private let roleCount: Int
    private let kindCount: Int
    private let exponentRole: UInt16
    private let subscriptRole: UInt16
    private let commandProperty: UInt16
    /// The time limit in force (FormulaDeadline), read once per run and checked every 32 nodes; once
    /// it has passed the nodes left are skipped.
    private let deadline: FormulaDeadline? = FormulaDeadline.current
    private let normalization: Normalization.Table
    /// Whether `text` names the pseudo-property for every node (no property of the tree has that name).
    private let textIsPseudo: Bool
    /// Script levels met in this run (level 0, the baseline, is not listed): level `i + 1` is level
    /// name `levels[i].name` (a ``RuleTable/levelNames`` number) inside level `levels[i].outer`.
    private var levels: [(outer: Int32, name: Int32)] = []
    /// The rule table's and the candidates' arrays (kept alive by `core` and `preferences`).
    private let table: RuleTable.Reader
    private let lists: RuleTable.Candidates.Reader
    /// The marks of the table's part texts (``SpeechEngine/Core/partMarks``).
    private let partMarks: UnsafePointer<UInt8>

    /// Memory a run works in, given by its caller: room for the ancestors, the paths followed,
    /// the preference results and the numbers of names outside the vocabulary.
    struct Scratch {
        let ancestors: UnsafeMutablePointer<Frame>
        /// Per path, the epoch it was last followed in and where it led (``SpeechRun/resolve(_:_:)``),
        /// side by side rather than in one 12-byte record: each table then fits the 1,024 bytes
        /// `withUnsafeTemporaryAllocation` takes from the stack for up to 128 paths (as records, up
        /// to 85, which English ClearSpeak's 90 paths outgrew: a `malloc` and `free` of 1,080 bytes
        /// per speak, 3.7 M of 156.2 M instructions with the `malloc_consolidate` they set off;
        /// `MathAloudBench stages` under callgrind, session 37). An epoch counts the nodes matched
        /// in one run: 32 bits hold it.
        let resolvedEpochs: UnsafeMutablePointer<Int32>
        let resolvedFrames: UnsafeMutablePointer<Frame>
        let preferenceResults: UnsafeMutablePointer<UInt8>
        let extraNumbers: UnsafeMutablePointer<UInt16>
        /// Per string of the tree, its number among the texts of `text` tests (``RuleTable/textIDTable``;
        /// -1: none; ``unknownTextID``: not looked up yet).
        let textIDs: UnsafeMutablePointer<Int32>

        /// Runs `body` with memory for a run on a tree of `nodeCount` nodes and `stringCount` strings
        /// with `table`'s rules, on the stack (unless a part is large).
        static func with<R>(_ table: RuleTable, nodeCount: Int, stringCount: Int, _ body: (Scratch) -> R) -> R {
            let names = table.extraNameCount, results = table.preferenceTestCount, paths = table.pathCount
            return withUnsafeTemporaryAllocation(of: Frame.self, capacity: nodeCount + 1) { ancestors in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: paths) { epochs in
                    withUnsafeTemporaryAllocation(of: Frame.self, capacity: paths) { frames in
                        // The names' numbers, then the results (one more for a non-empty allocation).
                        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: results + names + 1) { words in
                            withUnsafeTemporaryAllocation(of: Int32.self, capacity: stringCount + 1) { textIDs in
                                let numbers = words.baseAddress!
                                return body(Scratch(ancestors: ancestors.baseAddress!, resolvedEpochs: epochs.baseAddress!,
                                                    resolvedFrames: frames.baseAddress!,
                                                    preferenceResults: UnsafeMutableRawPointer(numbers + names).bindMemory(
                                                        to: UInt8.self, capacity: results),
                                                    extraNumbers: numbers, textIDs: textIDs.baseAddress!))
                            }
                        }
                    }
                }
            }
        }
    }

    /// A node reached by a link: the node and its role.
    struct Frame {
        let node: NodeID
        let role: UInt16
    }

    /// The node being matched: its role, its parent (-1 for the root) and its index there.
    struct Context {
        let node: NodeID
        let role: UInt16
        let parent: NodeID
        let index: Int
    }

    /// Inlined into its one caller: called, it built the run (664 bytes) in a temporary that was then
    /// copied, and the core and preferences were retained and released around the call (0.46 M of
    /// 147.0 M instructions, `MathAloudBench stages` under callgrind, session 38).
    @inline(__always)
    init(core: SpeechEngine.Core, tree: TreeView, preferences: RunPreferences, tracing: Bool, scratch: Scratch) {
        let rules = core.table
        ancestors = scratch.ancestors
        // Every path unresolved: epoch 0 is never a node's (``epoch`` counts up before the first
        // match), so the epochs are zeroed in one `memset`, not written per path (150 instructions a
        // formula with 40 paths; `MathAloudBench rules-profile` under callgrind, session 14); a path's
        // frame is written before it is read.
        resolvedEpochs = scratch.resolvedEpochs
        resolvedEpochs.initialize(repeating: 0, count: rules.pathCount)
        resolvedFrames = scratch.resolvedFrames
        preferenceResults = scratch.preferenceResults
        if !preferences.candidates.preferencesTested {
            // Otherwise no preference condition is left to test.
            let results = scratch.preferenceResults
            preferences.results.withUnsafeBufferPointer { results.initialize(from: $0.baseAddress!, count: $0.count) }
        }
        extraNumbers = scratch.extraNumbers
        extraRoleStart = rules.extraPropertyNameCount
        textIDs = scratch.textIDs
        textIDs.initialize(repeating: SpeechRun.unknownTextID, count: tree.strings.count)
        extraNumbers.initialize(repeating: .absent, count: rules.extraNameCount)
        if !tree.extraNames.isEmpty || !tree.extraRoles.isEmpty {
            for (i, name) in rules.extraPropertyNames.enumerated() { extraNumbers[i] = tree.propertyNumber(name) ?? .absent }
            for (i, name) in rules.extraRoleNames.enumerated() { extraNumbers[extraRoleStart + i] = tree.roleNumber(name) ?? .absent }
            textIsPseudo = tree.propertyNumber("text") == nil
        } else {
            textIsPseudo = true
        }
        words = core.words.variant == preferences.variant ? core.words.reader : nil
        table = rules.reader
        partMarks = core.partMarks.base
        lists = preferences.candidates.reader
        self.tree = tree
        self.core = core
        self.preferences = preferences
        self.tracing = tracing
        roleCount = core.roleCount
        kindCount = core.kindCount
        exponentRole = core.exponentRole
        subscriptRole = core.subscriptRole
        commandProperty = core.commandProperty
        normalization = Normalization.table
    }

    // The table's arrays by name.
    private var tests: UnsafePointer<CompiledCondition> { table.tests }
    private var pathStart: UnsafePointer<Int> { table.pathStart }
    private var pathSteps: UnsafePointer<CompiledCondition.Step> { table.pathSteps }
    private var properties: UnsafePointer<PropertyReference> { table.properties }
    private var valueTests: UnsafePointer<CompiledValueTest.Facts> { table.valueTests }
    /// The value tests themselves, for testing a string value.
    private var stringTests: UnsafePointer<CompiledValueTest> { table.stringTests }
    private var integerValues: UnsafePointer<Int32> { table.integerValues }
    private var roleSets: UnsafePointer<RoleSet> { table.roleSets }
    private var templateStart: UnsafePointer<Int> { table.templateStart }
    private var parts: UnsafePointer<CompiledPart> { table.parts }
    private var templatePathStart: UnsafePointer<Int> { table.templatePathStart }
    private var templatePathRoles: UnsafePointer<NameNumber> { table.templatePathRoles }
    private var candidates: UnsafePointer<RuleTable.Candidate.Probe> { lists.rules }
    private var candidateMasks: UnsafePointer<UInt64> { lists.masks }
    private var candidatesByKind: UnsafePointer<RuleTable.KindCandidates> { lists.byKind }
    private var candidateLists: UnsafePointer<RuleTable.CandidateList> { lists.lists }
    private var candidatesByScalar: ScalarMap<Int32>.Reader { lists.byScalar }

    // MARK: Nodes

    /// Speaks node `node`, reached with `role` as child `index` of `parent`.
    mutating func speak(_ node: NodeID, role: UInt16, parent: Frame?, index: Int, depth: Int, prosody: Prosody?,
                        into out: inout SpeechBuilder) {
        // Bounded work and output per formula (SpeechLimits), and the request's deadline
        // (FormulaDeadline, checked every 32 nodes): a rule that says its children many times over, on
        // nested nodes, would otherwise grow without end.
        if stopped { return }
        steps &+= 1
        if steps & 31 == 0, let deadline, deadline.hasPassed {
            stopped = true
            diagnostics.append(deadline.diagnostic(at: nil))
            return
        }
        if steps > core.limits.maxRuleSteps || out.bytes > core.limits.maxOutputBytes {
            stop(steps > core.limits.maxRuleSteps, node: node)
            return
        }
        let context = Context(node: node, role: role, parent: parent?.node ?? -1, index: index)
        if let parent {
            ancestors[ancestorCount] = parent
            ancestorCount += 1
        }
        defer { if parent != nil { ancestorCount -= 1 } }
        guard tracing else {
            if let rule = matchingRule(context) {
                render(rule: rule, context, depth: depth, prosody: prosody, into: &out)
            } else {
                speakDefault(context, depth: depth, prosody: prosody, into: &out)
            }
            return
        }
        // Traced: the node is spoken into `out` as it is untraced (so a pause it begins with still
        // follows the words before it), and the items it added are its trace's speech.
        let rule = matchingRule(context)
        let traceIndex = trace.count
        trace.append(traceEntry(context, depth: depth, rule: rule))
        let mark = out.items.count
        if let rule {
            render(rule: rule, context, depth: depth, prosody: prosody, into: &out)
        } else {
            speakDefault(context, depth: depth, prosody: prosody, into: &out)
        }
        var first = min(mark, out.items.count)
        while first < out.items.count, case .pause = out.items[first] { first += 1 }
        trace[traceIndex].speech = tracedSpeech(out.items[first...])
    }

    /// The run's diagnostics and trace, moved out of it (the run is done): read in place, the run
    /// (664 bytes) was copied to read them (0.29 M of 146.5 M instructions, `MathAloudBench stages`
    /// under callgrind, session 38).
    mutating func finish() -> (diagnostics: [Diagnostic], trace: [RuleTrace]) {
        var d: [Diagnostic] = [], t: [RuleTrace] = []
        swap(&d, &diagnostics)
        swap(&t, &trace)
        return (d, t)
    }

    /// The source ranges and texts of the identifiers named by a letter (`a`, `α`; not a symbol read as
    /// words, `∅`): an item saying exactly such a text at such a range is a variable's own name, which
    /// no pair of words joins (``Contractions/apply(to:isVariable:)``, which asks only of the items of a
    /// matched pair, so that this is gathered at most once a formula and mostly never: noting the items
    /// as they were appended cost 0.5–2 k instructions a formula, through what the compiler then
    /// inlined; `MathAloudBench stages` under callgrind, session 17).
    func letterWords() -> Set<LetterWords> {
        var letters: Set<LetterWords> = []
        for n in 0 ..< tree.nodes.count where tree.nodes[n].kind == .identifier {
            let node = NodeID(n)
            if tree.property(node, core.letterProperty) != nil, let r = tree.range(node) {
                letters.insert(LetterWords(range: r, words: tree.text(node)))
            }
        }
        return letters
    }

    /// A letter identifier's source range and text (``letterWords()``).
    struct LetterWords: Hashable {
        let range: SourceRange
        let words: String
    }

    /// A traced node's speech: its items with the contractions applied as to the whole speech. Out of
    /// line and mutating (a non-mutating call copied the run; `MathAloudBench stages` under callgrind,
    /// session 17).
    @inline(never)
    private mutating func tracedSpeech(_ items: ArraySlice<SpeechDescription.Item>) -> String {
        guard core.hasContractions else { return SpeechDescription.plainText(items) }
        var contracted = Array(items)
        contract(&contracted)
        return SpeechDescription.plainText(contracted[...])
    }

    /// Applies the contractions to speech items, no pair joining a variable's own name (the letter
    /// identifiers, ``letterWords()``, gathered on the first question and only then). Out of line: the
    /// engine calls it for a formula's speech when the builder's screen found a possible pair, and
    /// ``tracedSpeech(_:)`` for each traced node.
    @inline(never)
    mutating func contract(_ items: inout [SpeechDescription.Item]) {
        var letters: Set<LetterWords>? = nil
        core.applyContractions(to: &items) { words, range in
            if letters == nil { letters = letterWords() }
            return letters!.contains(LetterWords(range: range, words: words))
        }
    }

    /// The first candidate rule whose conditions hold. Rules with a `text = …` condition that cannot
    /// match the node's text are not candidates at all (see ``RuleTable/Candidates``), nor are rules
    /// that test a property the node does not have (``RuleTable/requirements``).
    private mutating func matchingRule(_ context: Context, from firstRule: Int = 0) -> Int? {
        let kind = tree.kind(context.node).number
        // The kind's lists and each candidate are read in place through their pointers: copying a
        // candidate per rule tried, and the kind's lists per node, cost more than the tests that read
        // a few of their fields (rules stage, session 9); a candidate is its 48-byte probe
        // (``RuleTable/Candidate/Probe``).
        let split = candidatesByKind + kind
        // The empty text (most inner nodes') is decided here: a call of ``candidates(kind:string:_:)``
        // costs about twenty instructions before it looks (`MathAloudBench stages` under callgrind,
        // session 13).
        let text = Int(tree.nodes[Int(context.node)].text)
        let chosen = !split.pointee.split ? -1
            : text < 0 ? (split.pointee.hasEmptyList ? split.pointee.emptyList : -1)
            : candidates(kind: kind, string: text, split)
        let list = candidateLists + Int(chosen >= 0 ? chosen : split.pointee.other)
        if list.pointee.rules.isEmpty { return nil }
        // In a list chosen by the node's text, each rule's `text = …` condition holds (unless a
        // property of the tree is named `text`); a rule with one is in no other list (the `other`
        // lists hold the rules without), so its ``RuleTable/Candidate/Probe/skipPseudo`` skips it.
        // The list's decision rows for the node's role (none outside the vocabulary: not filtered) and
        // its parent's kind (or the root): the rules whose role and parent conditions hold, as bits
        // (``RuleTable/CandidateList/roleRow``).
        // Rows are found with wrapping arithmetic (their places are in bounds when the lists are made):
        // the overflow checks of each sum and product, here and in ``RequirementRows/clear(_:block:blocks:present:masks:)``,
        // cost 1.25 M of 142.3 M instructions and 57 k mispredicted branches a pass of `MathAloudBench
        // stages` (callgrind, session 41).
        let blocks = Int(list.pointee.blocks)
        let hasParent = context.parent >= 0
        let roleRow: UnsafePointer<UInt64>? = list.pointee.roleRow >= 0 && Int(context.role) < roleCount
            ? candidateMasks + (Int(list.pointee.roleRow) &+ Int(context.role) &* blocks) : nil
        let parentRow: UnsafePointer<UInt64>? = list.pointee.parentRow >= 0
            ? candidateMasks + (Int(list.pointee.parentRow) &+ (hasParent ? tree.kind(context.parent).number : kindCount) &* blocks) : nil
        // The first block's rules whose role and parent conditions hold. A list of one block (most) whose
        // role and parent rows leave no rule is left before the names and paths below are gathered: one
        // node in six that has rules (5.2 k of 31.9 k a pass of `MathAloudBench stages`, session 41).
        var bits: UInt64 = blocks == 1 ? list.pointee.lastBlock : ~0
        if let roleRow { bits &= roleRow[0] }
        if let parentRow { bits &= parentRow[0] }
        if blocks == 1 && bits == 0 { return nil }
        let present = list.pointee.requiresAny ? tree.propertyNames(context.node) : NameSet()
        if !list.pointee.needsOneOf.isEmpty && !list.pointee.needsOneOf.intersects(present) { return nil }
        let parentNames = hasParent && list.pointee.needsParentNames ? tree.propertyNames(context.parent) : NameSet()
        // The grandparent (``follow(_:_:)``'s `parent(levels: 2)`), when there is one.
        let grandparentNames = list.pointee.needsGrandparentNames && ancestorCount >= 2
            ? tree.propertyNames(ancestors[ancestorCount - 2].node) : NameSet()
        // The rules that require a property the node, its parent or its grandparent lack are not
        // visited (``RuleTable/CandidateList/requirementRows``); read only when the rows above left
        // a rule (one block in seven had none: 0.17 M of 147.8 M instructions, `MathAloudBench
        // stages` under callgrind, session 38). For the first block they are read here, and a list
        // of one block left with no rule returns before the children's names, the atom and the keys
        // are gathered: most identifiers (8.8 k of 10.4 k a pass) have none of the names their
        // list's rules require. 0.91 M of 139.84 M instructions a pass of `MathAloudBench stages`
        // (callgrind, session 42); estimated cycles and wall time level.
        if bits != 0 {
            if list.pointee.requiresAny {
                list.pointee.requirementRows.clear(&bits, block: 0, blocks: blocks, present: present, masks: candidateMasks)
            }
            if list.pointee.needsParentNames {
                list.pointee.parentRequirementRows.clear(&bits, block: 0, blocks: blocks, present: parentNames, masks: candidateMasks)
            }
            if list.pointee.needsGrandparentNames {
                list.pointee.grandparentRequirementRows.clear(&bits, block: 0, blocks: blocks, present: grandparentNames,
                                                             masks: candidateMasks)
            }
            if blocks == 1 && bits == 0 { return nil }
        }
        // The roles of the node's children (vocabulary roles), their names, for the rules' path
        // requirements (``RuleTable/Candidate/Probe/childRoles``), gathered only when a rule of the list
        // has them.
        var missingChildRoles: UInt64 = 0, childNames = NameSet()
        if list.pointee.needsChildNames {
            let (roles, names) = tree.childRolesAndNames(context.node)
            missingChildRoles = ~roles
            childNames = names
        } else if list.pointee.needsChildRoles {
            missingChildRoles = ~tree.childRoles(context.node)
        }
        // The node's place, for rules testing it (``RuleTable/Candidate/positionBits``): the place bits
        // it lacks.
        if list.pointee.needsPosition {
            let first = context.index == 0
            let followed = hasParent && context.index < tree.childCount(context.parent) &- 1
            missingChildRoles = missingChildRoles & ~RuleTable.Candidate.positionBits
                | (first ? RuleTable.Candidate.positionNotFirst : RuleTable.Candidate.positionFirst)
                | (followed ? RuleTable.Candidate.positionNotFollowed : RuleTable.Candidate.positionFollowed)
        }
        // The rules whose tests of the list's atom property pass for the node's atom
        // (``RuleTable/CandidateList/atomRow``).
        var atomRow: UnsafePointer<UInt64>? = nil
        // The form is matched, not compared with `==`: ``SemanticTree/ValueForm``'s `==` (another
        // module's) was a call through its Equatable witness, 8 instructions a node with the list's
        // property (`MathAloudBench stages` under callgrind, session 17).
        if list.pointee.atomRow >= 0, let p = tree.property(context.node, list.pointee.atomName), case .atom = p.form, p.payload >= 0 {
            atomRow = candidateMasks + (Int(list.pointee.atomRow) &+ min(Int(p.payload), Int(list.pointee.atomRows) &- 1) &* blocks)
        }
        epoch &+= 1
        // The rules whose tests of the text (kind) at the list's key path pass for the text (kind)
        // there (``RuleTable/CandidateList/keyRow``; its last two rows: no node there, a text no test
        // names), unless the key is text and a property of the tree is named `text`.
        // The other keys' rows (``RuleTable/CandidateList/secondKeyPath``) are read at their distance
        // from the first's (0: the same row again), a word more a block rather than a row pointer more.
        var keyRow: UnsafePointer<UInt64>? = nil
        var secondKeyDistance = 0, thirdKeyDistance = 0
        if list.pointee.keyPath >= 0 && (list.pointee.keyIsKind || textIsPseudo) {
            let byKind = list.pointee.keyIsKind
            let row = resolve(Int(list.pointee.keyPath), context).map { byKind ? tree.kind($0.node).number : Int(textID($0.node)) } ?? -2
            let start = Int(list.pointee.keyRow) &+ (row >= 0 ? row : Int(list.pointee.keyRows) &+ row) &* blocks
            keyRow = candidateMasks + start
            if list.pointee.secondKeyPath >= 0 {
                let kind = resolve(Int(list.pointee.secondKeyPath), context).map { tree.kind($0.node).number } ?? kindCount
                secondKeyDistance = Int(list.pointee.secondKeyRow) &+ kind &* blocks &- start
                if list.pointee.thirdKeyPath >= 0 {
                    let kind = resolve(Int(list.pointee.thirdKeyPath), context).map { tree.kind($0.node).number } ?? kindCount
                    thirdKeyDistance = Int(list.pointee.thirdKeyRow) &+ kind &* blocks &- start
                }
            }
        }
        let first = candidates + list.pointee.rules.lowerBound
        var block = 0
        while true {
            if let atomRow { bits &= atomRow[block] }
            if let keyRow { bits &= keyRow[block] & keyRow[block + secondKeyDistance] & keyRow[block + thirdKeyDistance] }
            if bits != 0 && list.pointee.needsChildNames {
                list.pointee.childRequirementRows.clear(&bits, block: block, blocks: blocks, present: childNames, masks: candidateMasks)
            }
            let offset = block << 6
            block &+= 1
            rules: while bits != 0 {
                let candidate = first + (offset | bits.trailingZeroBitCount)
                bits &= bits &- 1
                guard candidate.pointee.childRoles & missingChildRoles == 0,
                      Int(candidate.pointee.rule) >= firstRule else { continue }
                let kindPath = candidate.pointee.kindPath
                if kindPath >= 0 {
                    let kind = resolve(Int(kindPath), context).map { tree.kind($0.node).number } ?? kindCount
                    guard kind < kindCount, candidate.pointee.pathKinds.contains(number: kind) else {
                        // The later rules of the block whose test of the same path fails are cleared:
                        // those testing it (the last row) whose test does not hold for this kind.
                        let rows = candidateMasks + (Int(candidate.pointee.pathRow) &+ offset >> 6)
                        bits &= ~rows[(kindCount &+ 1) &* blocks] | rows[kind &* blocks]
                        continue
                    }
                }
                // The tests the list's rows decided are skipped (``RuleTable/Candidate/Probe/skipPseudo``).
                var skipped = textIsPseudo ? candidate.pointee.skipPseudo : candidate.pointee.skipAlways
                var t = candidate.pointee.firstTest
                let endTest = candidate.pointee.endTest
                while t < endTest {
                    if skipped & 1 == 0 && !holds(tests + Int(t), context) { continue rules }
                    skipped >>= 1
                    t &+= 1
                }
                // The tests the list's rows decide (``RuleTable/Candidate/Probe/endTest``), for a role
                // they do not know.
                if roleRow == nil && Int(context.role) >= roleCount {
                    let end = core.table.testStart.base[Int(candidate.pointee.rule) + 1]
                    while Int(t) < end {
                        if !holds(tests + Int(t), context) { continue rules }
                        t += 1
                    }
                }
                return Int(candidate.pointee.rule)
            }
            // The next block's rules whose role, parent and name requirements hold.
            if block == blocks { return nil }
            bits = block == blocks &- 1 ? list.pointee.lastBlock : ~0
            if let roleRow { bits &= roleRow[block] }
            if let parentRow { bits &= parentRow[block] }
            if bits != 0 {
                if list.pointee.requiresAny {
                    list.pointee.requirementRows.clear(&bits, block: block, blocks: blocks, present: present, masks: candidateMasks)
                }
                if list.pointee.needsParentNames {
                    list.pointee.parentRequirementRows.clear(&bits, block: block, blocks: blocks, present: parentNames, masks: candidateMasks)
                }
                if list.pointee.needsGrandparentNames {
                    list.pointee.grandparentRequirementRows.clear(&bits, block: block, blocks: blocks, present: grandparentNames,
                                                                 masks: candidateMasks)
                }
            }
        }
    }

    /// The number of the candidate list (``RuleTable/Candidates/lists``; -1: the kind's `other` list) of
    /// a node of kind number `kind` whose text is string `t` of the tree (not -1, the empty text), in a kind
    /// whose lists are split by text (see ``RuleTable/KindCandidates``). The
    /// string is read in place: passing it was a reference count up and down per node (rules stage,
    /// session 9).
    @inline(__always)
    private mutating func candidates(kind: Int, string t: Int, _ split: UnsafePointer<RuleTable.KindCandidates>) -> Int32 {
        enum Decision { case list(Int32), scalar(UInt32), other, table, empty }
        let decidesOneByte = split.pointee.decidesOneByte, decidesASCII = split.pointee.decidesASCII
        let oneByteStart = Int(split.pointee.oneByteStart), oneByte = lists.oneByte
        let decision: Decision = tree.strings[t].withBytes { bytes in
            guard let first = bytes.first else { return .empty }
            if first < 0x80 {
                // The map's answer for the byte, read from the kind's table of them.
                if bytes.count == 1 && decidesOneByte { return .list(oneByte[oneByteStart + Int(first)]) }
                if decidesASCII && !bytes.contains(where: { $0 >= 0x80 }) { return .other }
            } else if let scalar = Normalization.singleNonASCIIScalar(bytes) {
                return .scalar(scalar)
            }
            return .table
        }
        switch decision {
        case .list(let list): return list
        case .scalar(let scalar):
            // A key of the map is a text rules name, so a hit is that text byte for byte, whose list
            // the look-up by text would give too: whether the scalar is in NFC (a binary search) is
            // asked only on a miss (`MathAloudBench stages` under callgrind, session 13).
            if let list = candidatesByScalar[UInt32(kind) << 21 | scalar] { return list }
            // No rule names the scalar: decided when it is in NFC and every non-ASCII text rules name
            // is one scalar in NFC too; otherwise a canonically equivalent text may be named.
            if split.pointee.decidesNFCScalars && normalization.isNFC(scalar) { return -1 }
            return TextTable.lookUp(lists.byText + kind, tree.strings[t]) ?? -1
        case .other: return -1
        case .empty: return split.pointee.hasEmptyList ? split.pointee.emptyList : -1
        case .table: return TextTable.lookUp(lists.byText + kind, tree.strings[t]) ?? -1
        }
    }

    /// What is said when no rule matches: a leaf's words, or the children in order.
    private mutating func speakDefault(_ context: Context, depth: Int, prosody: Prosody?, into out: inout SpeechBuilder) {
        let node = context.node
        if tree.childCount(node) == 0 {
            let (words, marks) = markedLeafWords(node)
            out.append(words: words, marks: marks, range: tree.range(node), prosody: prosody)
        } else {
            speakChildren(context, depth: depth, prosody: prosody, into: &out)
        }
    }

    /// Speaks every child in order.
    private mutating func speakChildren(_ context: Context, depth: Int, prosody: Prosody?, into out: inout SpeechBuilder) {
        let frame = Frame(node: context.node, role: context.role)
        for i in 0 ..< tree.childCount(context.node) {
            if stopped { return }
            let link = tree.child(context.node, at: i)
            speak(link.node, role: link.role, parent: frame, index: i, depth: depth + 1,
                  prosody: childProsody(link.role, prosody), into: &out)
        }
    }

    /// Scripts are spoken with their prosody; other children inherit their parent's.
    @inline(__always)
    private mutating func childProsody(_ role: UInt16, _ inherited: Prosody?) -> Prosody? {
        switch role {
        case exponentRole: return .superscript
        case subscriptRole: return .subscript
        default: return inherited
        }
    }

    // MARK: Words

    /// The words of a leaf: numbers as written (a number written with a symbol that has words, such as
    /// `²`, says them), letters as themselves, symbols and names through the lexicon, with a readable
    /// fallback (reported once per character); with the words' marks for the builder
    /// (``Contractions/Screen/marks(of:)``): a leaf's cached words have theirs (``WordCache``), other
    /// words are ``Contractions/Screen/unmarked``.
    @inline(__always)
    mutating func markedLeafWords(_ node: NodeID) -> (String, UInt8) {
        let kind = tree.kind(node)
        // Most leaves are one character with cached words (``symbolWords(_:range:)`` looks there
        // first): read in place, without a counted copy of the text (rules stage, session 9).
        switch kind {
        case .number, .text, .empty, .unknown, .functionName: break
        default:
            let t = Int(tree.nodes[Int(node)].text)
            if t >= 0, let words, let found = tree.strings[t].withBytes({ words.pointee.markedSymbolWords(bytes: $0) }) { return found }
        }
        return (leafWords(node, kind), Contractions.Screen.unmarked)
    }

    /// ``markedLeafWords(_:)`` past the cached words, out of line (the cached leaves, most of them, no longer
    /// pay for its frame).
    @inline(never)
    private mutating func leafWords(_ node: NodeID, _ kind: SemanticKind) -> String {
        let text = tree.text(node)
        switch kind {
        case .number:
            if text.utf8.contains(where: { $0 >= 0x80 }), let w = core.lexicon.symbol(text, variant: preferences.variant) { return w }
            return text
        case .text: return text
        case .empty: return ""
        case .unknown:
            if let command = tree.property(node, commandProperty).map(tree.string(of:)) {
                return command.hasPrefix("\\") ? String(command.dropFirst()) : command
            }
            return text.isEmpty ? "" : symbolWords(text, range: tree.range(node))
        case .functionName:
            if let w = functionWords(text, range: tree.range(node)) { return w }
            return symbolWords(text, range: tree.range(node))
        default:
            return symbolWords(text, range: tree.range(node))
        }
    }

    /// Words for symbol text (see ``symbolWords(_:lexicon:variant:missing:)``); a character without
    /// words is read by its name and reported (at `range`) once.
    mutating func symbolWords(_ text: String, range: SourceRange?) -> String {
        if let words, let w = words.pointee.symbolWords(text) { return w }
        // Never nil: every character without words gets its name.
        return SpeechRun.symbolWords(text, lexicon: core.lexicon, variant: preferences.variant) { scalar, s in
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
            if let (words, parent) = core.lexicon.foreignWords(s, in: "symbols", variant: preferences.variant) {
                report(s, .speechFallbackWord, "no \(core.locale) word for '\(s)' (\(code)); said in \(parent): '\(words)'", at: range)
                return words
            }
            if let (words, entry) = core.lexicon.otherLanguageStyleWord(s, variants: preferences.variant.map { [$0] } ?? []) {
                report(s, .speechMissingWord, "no \(core.locale) word for '\(s)' (\(code)); read as '\(words)' (\(entry.origin))", at: range)
                return words
            }
            let name = core.lexicon.readableName(s)
            report(s, .speechMissingWord, "no \(core.locale) word for '\(s)' (\(code)); read as '\(name)'", at: range)
            return name
        }!
    }

    /// Words for a function name: the style's and the locale's, then a parent locale of another
    /// language (reported as `speech.fallback-word`); nil when none has it.
    mutating func functionWords(_ key: String, range: SourceRange?) -> String? {
        if let w = core.lexicon.function(key, variant: preferences.variant) { return w }
        if let (words, parent) = core.lexicon.foreignWords(key, in: "functions", variant: preferences.variant) {
            report(key, .speechFallbackWord, "no \(core.locale) word for the function '\(key)'; said in \(parent): '\(words)'", at: range)
            return words
        }
        guard let (words, entry) = core.lexicon.otherLanguageStyleWord("fn." + key, variants: preferences.variant.map { [$0] } ?? [])
        else { return nil }
        report(key, .speechMissingWord, "no \(core.locale) word for the function '\(key)'; read as '\(words)' (\(entry.origin))", at: range)
        return words
    }

    /// Reports a missing or borrowed word once per key (a warning at `range`).
    mutating func report(_ key: String, _ id: DiagnosticID, _ message: String, at range: SourceRange?) {
        guard reported?.contains(key) != true else { return }
        reported = (reported ?? []).union([key])
        diagnostics.append(.warning(id, message, at: range))
    }

    /// Words by key (`{@key}`, an atom's `name.value`), in the first of `variants` the entry has: the
    /// style's words and the locale's; then a parent locale of another language (reported). A key
    /// missing everywhere is reported and said as its words (`ms.start-fraction` → "start fraction"),
    /// a key that is a symbol as the symbol is read.
    mutating func keyedWords(_ key: String, variants: [String], range: SourceRange?) -> String {
        if let w = core.lexicon.keyed(key, variants: variants) { return w.trimmingSpaces }
        if let (words, parent) = core.lexicon.foreignWords(key, in: "symbols", variant: variants.first)
            ?? core.lexicon.foreignWords(key, in: "numbers", variant: variants.first) {
            report(key, .speechFallbackWord, "no \(core.locale) word for key '\(key)'; said in \(parent): '\(words)'", at: range)
            return words.trimmingSpaces
        }
        if let (words, entry) = core.lexicon.otherLanguageStyleWord(key, variants: variants) {
            report(key, .speechMissingWord, "no \(core.locale) word for key '\(key)'; read as '\(words.trimmingSpaces)' (\(entry.origin))", at: range)
            return words.trimmingSpaces
        }
        guard key.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "." || $0 == "-" || $0 == "_" }),
              key.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) else {
            return symbolWords(key, range: range).trimmingSpaces
        }
        let said = key.split(separator: ".").last.map { $0.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ") } ?? key
        report(key, .speechMissingWord, "no \(core.locale) word for key '\(key)'; read as '\(said)'", at: range)
        return said
    }

    /// Words for symbol text: the whole text, else character by character; ASCII letters and digits
    /// stand for themselves, marks and spaces say nothing, and `missing` gives the words of any other
    /// character (nil from it: no words for the text).
    static func symbolWords(_ text: String, lexicon: Lexicon, variant: String?,
                            missing: (Unicode.Scalar, String) -> String?) -> String? {
        if text.isEmpty { return "" }
        if let w = lexicon.symbol(text, variant: variant) { return w }
        if let w = lexicon.function(text, variant: variant) { return w }
        if text.utf8.allSatisfy(isASCIILetterOrDigit) {
            return text
        }
        var words: [String] = []
        for scalar in text.unicodeScalars {
            let s = String(Character(scalar))
            if let w = lexicon.symbol(s, variant: variant) {
                if !w.isEmpty { words.append(w) }
            } else if scalar.isASCII && isASCIILetterOrDigit(UInt8(scalar.value)) {
                words.append(s)
            } else if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.isWhitespace {
                continue
            } else if let w = lexicon.styledCharacter(scalar, variant: variant) {
                words.append(w)
            } else if isLetter(scalar), lexicon.otherLanguageStyleWord(s, variants: []) == nil {
                // A letter of any script that the locale has no word for is said as written (`á`, `Я`,
                // `若` in text): a voice of the language reads it, where its Unicode name would be English.
                // A letter a style of another language names (English MathSpeak's `ℶ  bet`) is `missing`'s:
                // said by that name and reported.
                words.append(s)
            } else {
                guard let w = missing(scalar, s) else { return nil }
                words.append(w)
            }
        }
        return words.joined(separator: " ")
    }

    /// A letter (upper, lower, title case or other; not a modifier letter such as `ʺ`, which is a symbol).
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter: return true
        default: return false
        }
    }

    // MARK: Templates

    /// Says rule `rule`'s template for the node. A joiner (`}-{`) speaks the part after it alone and
    /// glues its words onto the words before.
    private mutating func render(rule: Int, _ context: Context, depth: Int, prosody: Prosody?,
                                 into out: inout SpeechBuilder) {
        // The pending joiner's text (a ``RuleTable/partTexts`` number; -1: none): a number, not the
        // text, so the loop holds no string to retain and release.
        var joiner: Int32 = -1
        let outerRule = currentRule
        currentRule = rule
        defer { currentRule = outerRule }
        // The parts counted with wrapping arithmetic, as ``follow(_:_:)``'s steps: over a checked range,
        // 0.14 M of 140.8 M instructions more (`MathAloudBench stages` under callgrind, session 39).
        var i = templateStart[rule]
        let end = templateStart[rule + 1]
        while i < end {
            defer { i &+= 1 }
            if stopped { return }
            if joiner >= 0 {
                let text = table.partTexts[Int(joiner)]
                joiner = -1
                let mark = out.items.count, outerStart = out.start
                out.start = mark
                render(part: i, context, depth: depth, prosody: prosody, into: &out)
                out.start = outerStart
                let words = SpeechDescription.plainText(out.items[mark...])
                out.removeItems(from: mark)
                if !words.isEmpty { out.join(text, words: words, range: tree.range(context.node)) }
            } else if table.partTags[i] == 1, case .joiner(let text) = parts[i] {
                joiner = text
            } else if table.partTags[i] == 2 {
                // The first rule of a later file that matches the node speaks it.
                if let inherited = matchingRule(context, from: core.table.inheritedStart.base[rule]) {
                    render(rule: inherited, context, depth: depth, prosody: prosody, into: &out)
                } else {
                    speakDefault(context, depth: depth, prosody: prosody, into: &out)
                }
            } else {
                render(part: i, context, depth: depth, prosody: prosody, into: &out)
            }
        }
    }

    /// One part of a template (a joiner is handled by the template loop): the usual parts — words, a
    /// pause, the children with a role (more than four in five parts spoken on arXiv formulas) — here,
    /// the others out of line (``render(otherPart:_:depth:prosody:into:)``), whose frame the usual
    /// ones no longer pay for. Inlined into the template loop by force: the compiler's own choice
    /// flipped with a few instructions more in a part (the contraction screen's note), and the call
    /// then cost 0.7 k instructions a formula (`MathAloudBench stages` under callgrind, session 15).
    @inline(__always)
    private mutating func render(part: Int, _ context: Context, depth: Int, prosody: Prosody?, into out: inout SpeechBuilder) {
        switch parts[part] {
        case .words(let w):
            out.append(nonBlank: table.partTexts[Int(w)], marks: partMarks[Int(w)], range: tree.range(context.node), prosody: prosody)
        case .pause(let p):
            out.append(pause: p)
        case let .child(role, format):
            let node = context.node
            let role = roleNumber(role)
            let frame = Frame(node: node, role: context.role)
            for i in 0 ..< tree.childCount(node) where tree.child(node, at: i).role == role {
                speak(child: tree.child(node, at: i).node, role: role, parent: frame, index: i, format: format,
                      owner: context, depth: depth, prosody: prosody, into: &out)
            }
        default:
            render(otherPart: part, context, depth: depth, prosody: prosody, into: &out)
        }
    }

    /// The parts ``render(part:_:depth:prosody:into:)`` leaves out of line.
    @inline(never)
    private mutating func render(otherPart part: Int, _ context: Context, depth: Int, prosody: Prosody?, into out: inout SpeechBuilder) {
        let node = context.node
        switch parts[part] {
        case .joiner, .nothing, .inherited:
            break
        case .words(let w):
            out.append(nonBlank: table.partTexts[Int(w)], marks: partMarks[Int(w)], range: tree.range(node), prosody: prosody)
        case .pause(let p):
            out.append(pause: p)
        case .children:
            speakChildren(context, depth: depth, prosody: prosody, into: &out)
        case let .path(path, format):
            speakPath(path, format: format, context, depth: depth, prosody: prosody, into: &out)
        case let .end(last, format):
            let count = tree.childCount(node)
            guard count > 0 else { break }
            let i = last ? count - 1 : 0
            let link = tree.child(node, at: i)
            speak(child: link.node, role: link.role, parent: Frame(node: node, role: context.role), index: i, format: format,
                  owner: context, depth: depth, prosody: prosody, into: &out)
        case let .child(role, format):
            let role = roleNumber(role)
            let frame = Frame(node: node, role: context.role)
            for i in 0 ..< tree.childCount(node) where tree.child(node, at: i).role == role {
                speak(child: tree.child(node, at: i).node, role: role, parent: frame, index: i, format: format,
                      owner: context, depth: depth, prosody: prosody, into: &out)
            }
        case .text(let format):
            if let format, let (words, marks) = markedWordFormat(tree.text(node), format) {
                out.append(words: words, marks: marks, range: tree.range(node), prosody: prosody)
            } else if let format, let words = formatted(tree.text(node), format: format, node: node, context) {
                out.append(words: words, range: tree.range(node), prosody: prosody)
            } else {
                let (words, marks) = markedLeafWords(node)
                out.append(words: words, marks: marks, range: tree.range(node), prosody: prosody)
            }
        case let .property(property, format):
            let target = Frame(node: node, role: context.role)
            let value = propertyValue(property, of: target, isSelf: true, context) ?? ""
            if let format, let (words, marks) = markedWordFormat(value, format) {
                out.append(words: words, marks: marks, range: tree.range(node), prosody: prosody)
            } else if let format, format.kind != .none, let words = formatted(value, format: format, node: -1, context) {
                out.append(words: words, range: tree.range(node), prosody: prosody)
            } else {
                out.append(words: propertyWords(property, value, of: target, selector: Int(format?.selector ?? -1), context),
                           range: tree.range(node), prosody: prosody)
            }
        case let .countedLookup(k, property):
            let value = propertyValue(property, of: Frame(node: node, role: context.role), isSelf: true, context)
            let n = value.flatMap(SpeechRun.integer) ?? 0
            let found = words?.pointee.countedWords(k, n) ?? core.countedWords(k, n, variant: preferences.variant)
            out.append(words: found, range: tree.range(node), prosody: prosody)
        case let .leveledChild(role, level):
            let role = roleNumber(role)
            let frame = Frame(node: node, role: context.role)
            let outer = out.level
            out.level = innerLevel(outer, level, &out)
            defer { out.level = outer }
            for i in 0 ..< tree.childCount(node) where tree.child(node, at: i).role == role {
                speak(child: tree.child(node, at: i).node, role: role, parent: frame, index: i, format: nil,
                      owner: context, depth: depth, prosody: prosody, into: &out)
            }
        case let .leveledPath(path, level):
            let outer = out.level
            out.level = innerLevel(outer, level, &out)
            defer { out.level = outer }
            speakPath(path, format: nil, context, depth: depth, prosody: prosody, into: &out)
        case .levelMark:
            if out.level != out.spokenLevel { out.changeLevel(range: tree.range(node)) }
        case .levelSilent:
            out.spokenLevel = out.level
        case let .lookup(k, selector):
            if selector < 0, let cached = words?.pointee.lookupWords(k) {
                out.append(words: cached, range: tree.range(node), prosody: prosody)
                return
            }
            let key = core.table.lookupKeys[k]
            let found = keyedWords(key, variants: variants(selector, context, withVerbosity: true), range: tree.range(node))
            out.append(words: found, range: tree.range(node), prosody: prosody)
        }
    }

    /// The words ``formatted(_:format:node:_:)`` says for `value` in a `word` format without a variant
    /// when the cache has them (a character's words), with their marks for the builder: said so,
    /// the words are noted without reading them (a third of the words appended through
    /// ``SpeechBuilder/append(words:range:prosody:)`` on arXiv formulas; `MathAloudBench stages` under
    /// callgrind, session 15). Nil otherwise: ``formatted(_:format:node:_:)`` says them.
    @inline(__always)
    private func markedWordFormat(_ value: String, _ format: CompiledFormat) -> (String, UInt8)? {
        guard format.kind == .word, format.selector < 0, let words else { return nil }
        return value.withBytes { words.pointee.markedSymbolWords(bytes: $0) }
    }

    /// What `{=name}` says without a format: an integer as digits; a value from the analysis's fixed
    /// set (an atom: `plus-minus`, `overline`) by its words, the entry `name.value` (reported when
    /// missing); any other value by such an entry when the locale has one (`notation.box`), else as written.
    private mutating func propertyWords(_ property: Int, _ value: String, of target: Frame, selector: Int, _ context: Context) -> String {
        guard !value.isEmpty else { return value }
        let stored = tree.property(target.node, propertyNumber(properties[property].number))
        if let stored, stored.form == .integer || stored.form == .flag { return value }
        let key = ruleName(ofProperty: properties[property].number) + "." + value
        if stored?.form == .atom { return keyedWords(key, variants: variants(selector, context, withVerbosity: true), range: tree.range(target.node)) }
        return core.lexicon.keyed(key, variants: variants(selector, context, withVerbosity: true))?.trimmingSpaces ?? value
    }

    /// The variant names to try for variant selector `selector` (-1: none) of the node in `context`
    /// (see ``VariantSelector``), with the verbosity's variant (`brief`) last when asked for.
    /// The variant a `word` or `function` format names after `@` (`{=function-name:function@arc}`); nil
    /// without one. An entry without that variant gives its main words (Locales/README.md, "Variants").
    mutating func namedVariant(_ format: CompiledFormat, _ owner: Context) -> String? {
        guard format.selector >= 0 else { return nil }
        return variants(Int(format.selector), owner, withVerbosity: false).first
    }

    mutating func variants(_ selector: Int, _ context: Context, withVerbosity: Bool) -> [String] {
        let verbosity = withVerbosity ? preferences.variant : nil
        guard selector >= 0 else { return verbosity.map { [$0] } ?? [] }
        let s = core.table.variantSelectors[selector]
        if let fixed = s.fixed, verbosity == nil { return fixed }
        var components: [[String]] = s.components.map { component in
            switch component {
            case .named(let name): return [name]
            case .plural(let source):
                let category = core.lexicon.pluralCategory(of: countText(source, context))
                return category == "one" ? ["one"] : [category, "plural"]
            }
        }
        if let verbosity { components.append([verbosity]) }
        return variantCandidates(components)
    }

    /// The number a `@plural(…)` variant counts, as written (empty when there is none).
    private mutating func countText(_ source: VariantSelector.CountSource, _ context: Context) -> String {
        let frame = Frame(node: context.node, role: context.role)
        switch source {
        case .text: return tree.text(context.node)
        case .property(let p): return propertyValue(p, of: frame, isSelf: true, context) ?? ""
        case .path(let path):
            var target = context.node
            for step in templatePathStart[path] ..< templatePathStart[path + 1] {
                guard let next = tree.child(target, role: roleNumber(templatePathRoles[step])) else { return "" }
                target = next
            }
            return tree.text(target)
        }
    }

    /// Speaks the first node a template path of roles leads to (`{function.subscript}`).
    private mutating func speakPath(_ path: Int, format: CompiledFormat?, _ context: Context, depth: Int, prosody: Prosody?,
                                    into out: inout SpeechBuilder) {
        let node = context.node
        // A path of roles: speak the first node it leads to.
        var step = templatePathStart[path]
        let end = templatePathStart[path + 1]
        guard step < end else { return }
        // The nodes passed on the way are ancestors of the one spoken (for its `parent.parent`
        // and `within` tests), as they are when it is reached child by child.
        var target = Frame(node: node, role: context.role)
        let outerAncestors = ancestorCount
        defer { ancestorCount = outerAncestors }
        while step < end - 1 {
            let role = roleNumber(templatePathRoles[step])
            guard let next = tree.child(target.node, role: role) else { return }
            ancestors[ancestorCount] = target
            ancestorCount += 1
            target = Frame(node: next, role: role)
            step += 1
        }
        let last = roleNumber(templatePathRoles[end - 1])
        for i in 0 ..< tree.childCount(target.node) where tree.child(target.node, at: i).role == last {
            speak(child: tree.child(target.node, at: i).node, role: last, parent: target, index: i, format: format,
                  owner: context, depth: depth, prosody: prosody, into: &out)
            return
        }
    }

    /// The number of the script level `name` (a ``RuleTable/levelNames`` number) inside level `outer`,
    /// made with its indicator words when first met.
    private mutating func innerLevel(_ outer: Int32, _ name: Int32, _ out: inout SpeechBuilder) -> Int32 {
        for (i, l) in levels.enumerated() where l.outer == outer && l.name == name { return Int32(i + 1) }
        levels.append((outer, name))
        var path: [Int32] = [name]
        var o = outer
        while o > 0 { path.insert(levels[Int(o) - 1].name, at: 0); o = levels[Int(o) - 1].outer }
        if out.indicators.isEmpty { out.indicators.append(core.levelIndicator([], variant: preferences.variant)) }
        while out.indicators.count < levels.count { out.indicators.append("") }
        out.indicators.append(core.levelIndicator(path, variant: preferences.variant))
        return Int32(levels.count)
    }

    /// A child named in a template (`{numerator}`, `{denominator:ordinal}`): a leaf with a format
    /// that applies says the formatted words, anything else is spoken.
    private mutating func speak(child: NodeID, role: UInt16, parent: Frame, index: Int, format: CompiledFormat?, owner: Context,
                                depth: Int, prosody: Prosody?, into out: inout SpeechBuilder) {
        if let format, tree.childCount(child) == 0, let words = formatted(tree.text(child), format: format, node: child, owner) {
            out.append(words: words, range: tree.range(child), prosody: childProsody(role, prosody))
        } else {
            speak(child, role: role, parent: parent, index: index, depth: depth + 1, prosody: childProsody(role, prosody),
                  into: &out)
        }
    }

    /// Formats a value (see ``ValueFormat``); `node` is the leaf it is the text of (-1 for a property
    /// value), `owner` the node whose template names it (for `@plural(…)` variants). Nil when the format
    /// does not apply.
    mutating func formatted(_ value: String, format: CompiledFormat, node: NodeID, _ owner: Context) -> String? {
        let kind = format.kind
        switch kind {
        case .raw: return value
        case .cardinal, .ordinal, .ordinalPlural, .denominator, .denominatorPlural, .rootIndex, .ordinalNumeral, .power:
            if let n = SpeechRun.integer(value) {
                if format.selector < 0 {
                    if let words, let cached = words.pointee.integerWords(n, kind) { return cached }
                    return SpeechRun.integerWords(n, kind, variants: kind.impliedVariant.map { [$0] } ?? [], lexicon: core.lexicon)
                }
                return SpeechRun.integerWords(n, kind, variants: variants(Int(format.selector), owner, withVerbosity: false),
                                              lexicon: core.lexicon)
            }
            // A letter used as an ordinal or root index ("n-th").
            // Without a selector the variants are none: the engine's affixes (``SpeechEngine/Core/letterOrdinal``).
            // A property's value (`{=order:ordinal}`, node -1) is such a letter when it is one letter.
            guard kind == .ordinal || kind == .rootIndex,
                  node >= 0 ? tree.kind(node) == .identifier && tree.childCount(node) == 0
                      : value.soleScalarValue.flatMap(Unicode.Scalar.init).map(SpeechRun.isLetter) == true,
                  let affixes = format.selector < 0 ? core.letterOrdinal
                      : core.lexicon.letterOrdinalAffixes(variants: variants(Int(format.selector), owner, withVerbosity: false))
            else { return nil }
            return affixes.prefix + symbolWords(value, range: node >= 0 ? tree.range(node) : nil) + affixes.suffix
        case .word:
            // A symbol's words: symbolWords looks the whole text up first. `{operator:word@article}` asks
            // for the entry's variant of that name (German `∫  Integral | article: das Integral`).
            if let variant = namedVariant(format, owner), let w = core.lexicon.symbol(value, variant: variant) { return w }
            return symbolWords(value, range: node >= 0 ? tree.range(node) : nil)
        case .function:
            // `{=function-name:function@arc}`: the variant of that name (German `sin  Sinus | arc: Arkussinus`).
            if let variant = namedVariant(format, owner), let w = core.lexicon.function(value, variant: variant) { return w }
            let range = node >= 0 ? tree.range(node) : nil
            if let w = functionWords(value, range: range) { return w }
            // A function named by one character that is not a function word (`\iota^{-1}`, `\phi^{-1}`):
            // that character's words, never the character itself.
            if let u = value.soleScalarValue, u >= 0x80 { return symbolWords(value, range: range) }
            return nil
        case .font:
            // `{=font:font@feminine}`: the variant of that name (German `bold  fettes | feminine: fette`).
            if let variant = namedVariant(format, owner), let w = core.lexicon.font(value, variant: variant) { return w }
            if let w = core.lexicon.font(value, variant: preferences.variant) { return w }
            // A font without words is read by its name and reported (as a character without words is).
            let name = value.replacingOccurrences(of: "-", with: " ")
            if reported?.contains(value) != true {
                reported = (reported ?? []).union([value])
                diagnostics.append(.warning("speech.missing-word",
                    "no \(core.locale) word for the font '\(value)'; read as '\(name)'", at: tree.range(node >= 0 ? node : owner.node)))
            }
            return name
        case .unit, .unitPlural:
            let names = format.selector < 0 ? (kind == .unitPlural ? ["plural"] : []) : variants(Int(format.selector), owner, withVerbosity: false)
            if let w = core.lexicon.unit(value, variants: names) { return w }
            // A unit of one sign without unit words (`<mi class="MathML-Unit">%</mi>`, as OpenStax's Contemporary Mathematics marks
            // its units): the sign's words, as a function named by one character is read (it was "95 %").
            if let u = value.unicodeScalars.first, value.unicodeScalars.count == 1, !u.properties.isAlphabetic, u.properties.numericType == nil,
               let w = core.lexicon.symbol(value, variant: preferences.variant) {
                return w
            }
            // A unit without words is said as written and reported, as a character without words is.
            if !value.isEmpty, reported?.contains(value) != true {
                reported = (reported ?? []).union([value])
                diagnostics.append(.warning("speech.missing-word",
                    "no \(core.locale) word for the unit '\(value)'; read as written", at: tree.range(node >= 0 ? node : owner.node)))
            }
            return nil
        case .spell: return value.map { String($0) }.joined(separator: " ")
        case .characters:
            // Every character by its words ("number-sign F F 0 0").
            let range = node >= 0 ? tree.range(node) : nil
            return value.unicodeScalars.filter { !$0.properties.isWhitespace }
                .map { symbolWords(String(Character($0)), range: range) }.filter { !$0.isEmpty }.joined(separator: " ")
        case .name:
            // A function's words when the locale has them, else the letters of a name in capitals
            // ("P M F"); other names as they are.
            if let words = functionWords(value, range: node >= 0 ? tree.range(node) : nil) { return words }
            guard value.unicodeScalars.allSatisfy({ !$0.properties.isLowercase }) else { return nil }
            return formatted(value, format: CompiledFormat(kind: .letters, selector: -1), node: node, owner)
        case .letters:
            // Letter by letter, as one-letter identifiers, when a letter is a capital ("Upper S i");
            // a capital after the words of the key `letters.capital` when the style or locale has it,
            // or before the words of `letters.capital-after` in a language that names the capital
            // after its letter (French "S majuscule i"). A name in small letters stays a word ("mol", "eff").
            guard value.unicodeScalars.contains(where: { $0.properties.isUppercase }) else { return nil }
            let range = node >= 0 ? tree.range(node) : nil
            let after = core.lexicon.symbol("letters.capital-after", variant: preferences.variant)?.trimmingSpaces
            let capital = core.lexicon.structureWord("letters.capital", variant: preferences.variant)?.trimmingSpaces
            return value.unicodeScalars.filter { !$0.properties.isWhitespace }.map { scalar -> String in
                let words = symbolWords(String(Character(scalar)), range: range)
                guard scalar.properties.isUppercase else { return words }
                if let after, !after.isEmpty { return words + " " + after }
                guard let capital, !capital.isEmpty else { return words }
                return capital + " " + words
            }.filter { !$0.isEmpty }.joined(separator: " ")
        case .punctuation:
            // Words as written, punctuation by its words ("are colon").
            let range = node >= 0 ? tree.range(node) : nil
            var out = ""
            for scalar in value.unicodeScalars {
                let category = scalar.properties.generalCategory
                let isPunctuation = category == .otherPunctuation || category == .dashPunctuation || category == .openPunctuation
                    || category == .closePunctuation || category == .initialPunctuation || category == .finalPunctuation
                if isPunctuation {
                    out += " " + symbolWords(String(Character(scalar)), range: range) + " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out.split(separator: " ").joined(separator: " ")
        case .concept:
            // An intent's concept: the locale's words for it (`concept.NAME` in functions.txt), or its
            // name with the hyphens as spaces ("perpendicular-to" → "perpendicular to"): the author's name.
            if value.isEmpty { return "" }
            return core.lexicon.function("concept." + value, variant: preferences.variant)
                ?? value.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        case .notation:
            // Enclosure notations (`menclose`), one name after another: the locale's words for each
            // (`notation.NAME` in functions.txt), else the name as written.
            return value.split(separator: " ").map { name in
                core.lexicon.function("notation." + name, variant: preferences.variant) ?? String(name)
            }.joined(separator: " ")
        case .decimal:
            // A number with the locale's marks (`decimal-mark` and `group-mark` in numbers.txt) in place
            // of the source's: German `decimal-mark  ,` says 3.14 as "3,14". The source's marks are the
            // request's DecimalSeparators and BlockSeparators (``SpeechStyle/numberPreferences``), else
            // "." and ",", unless the number writes both with a comma last ("1.234,56", a decimal comma).
            // A locale that writes a decimal comma and names no group mark joins the groups ("13000"): a
            // comma there would be heard as the decimal one.
            let decimalMark = core.lexicon.number("decimal-mark") ?? "."
            let groupMark = core.lexicon.number("group-mark") ?? (decimalMark == "," ? "" : ",")
            var decimals = ".", blocks = ","
            if let comma = value.lastIndex(of: ","), let point = value.lastIndex(of: "."), comma > point { (decimals, blocks) = (",", ".") }
            // Commas and no point: groups of three digits (`13,000`); else one comma is a decimal comma
            // (`1{,}5`, as German writes it in TeX), and several are said as written (`1,00,000`).
            if !value.contains("."), value.contains(","), !value.commasSeparateDigitGroups {
                if value.utf8.lazy.filter({ $0 == 0x2C }).count > 1 { return value }
                (decimals, blocks) = (",", "")
            }
            if let d = preferences.decimalSeparators { (decimals, blocks) = (d, "") }
            if let b = preferences.blockSeparators { blocks = b }
            var out = ""
            for c in value {
                // A mark named in both is the decimal one.
                if decimals.contains(c) { out += decimalMark } else if blocks.contains(c) { out += groupMark } else { out.append(c) }
            }
            return out
        case .unknown, .none: return nil
        }
    }

    /// The words of integer `n` in one of the formats for integers, in the first of `variants` that
    /// applies (nil when there are none; see ``NumberForm``). With `spellOut` false a number that
    /// needs spelling out has none and sets `needsSpellOut`.
    static func integerWords(_ n: Int, _ format: ValueFormat, variants: [String], lexicon: Lexicon, spellOut: Bool = true,
                             needsSpellOut: inout Bool) -> String? {
        if format == .ordinalNumeral { return lexicon.ordinalNumeral(n, variants: variants) }
        guard let form = format.numberForm else { return nil }
        return lexicon.numberWords(n, form, variants: variants, spellOut: spellOut, needsSpellOut: &needsSpellOut)
    }

    /// ``integerWords(_:_:variants:lexicon:spellOut:needsSpellOut:)``, spelling out as needed.
    static func integerWords(_ n: Int, _ format: ValueFormat, variants: [String], lexicon: Lexicon) -> String? {
        var needsSpellOut = false
        return integerWords(n, format, variants: variants, lexicon: lexicon, needsSpellOut: &needsSpellOut)
    }

    /// `Int(value)`, read directly for the usual short digit strings.
    @inline(__always)
    static func integer(_ value: String) -> Int? {
        let utf8 = value.utf8
        guard utf8.count <= 18 else { return Int(value) }
        var n = 0
        for b in utf8 {
            guard b >= 0x30 && b <= 0x39 else { return Int(value) }
            n = n * 10 + Int(b - 0x30)
        }
        return utf8.isEmpty ? nil : n
    }

    // MARK: Conditions

    /// A role's number in this tree (see ``NameNumber``).
    @inline(__always)
    private mutating func roleNumber(_ role: NameNumber) -> UInt16 {
        role < .extraBase ? role : extraNumbers[extraRoleStart + Int(role - .extraBase)]
    }

    /// The name of property reference `name` as the rule files spell it. Read from the rule table,
    /// not the tree: a tree holding no such property (a pseudo-property such as `position` or
    /// `count`) has no number for it (``NameNumber/absent``).
    private func ruleName(ofProperty name: NameNumber) -> String {
        name < .extraBase ? PropertyName(rawValue: name)!.name : core.table.extraPropertyNames[Int(name - .extraBase)]
    }

    /// A property name's number in this tree (see ``NameNumber``).
    @inline(__always)
    private mutating func propertyNumber(_ name: NameNumber) -> UInt16 {
        name < .extraBase ? name : extraNumbers[Int(name - .extraBase)]
    }

    /// Follows condition path `path` from the node being matched; the first step may be `next`,
    /// `previous` (siblings) or `parent` (repeated: ancestors). Each path is followed once per node
    /// (``resolvedFrames``), however many rules test it.
    @inline(__always)
    private mutating func resolve(_ path: Int, _ context: Context) -> Frame? {
        if resolvedEpochs[path] == Int32(truncatingIfNeeded: epoch) { return resolvedFrames[path].node < 0 ? nil : resolvedFrames[path] }
        let frame = follow(path, context)
        resolvedEpochs[path] = Int32(truncatingIfNeeded: epoch)
        resolvedFrames[path] = frame ?? Frame(node: -1, role: 0)
        return frame
    }

    /// ``resolve(_:_:)`` without the memory. The steps are counted with wrapping arithmetic, not over
    /// a range: the range's checks of its bounds and of each step cost 0.12 M of 140.9 M instructions
    /// a pass of `MathAloudBench stages` (callgrind, session 39); so are the path's end, a sibling's
    /// index and an ancestor's place (in bounds by the guards; 0.11 M more, session 41).
    private mutating func follow(_ path: Int, _ context: Context) -> Frame? {
        var current = Frame(node: context.node, role: context.role)
        var s = pathStart[path]
        let end = pathStart[path &+ 1]
        while s < end {
            switch pathSteps[s] {
            case .child(let role):
                let role = roleNumber(role)
                guard let next = tree.child(current.node, role: role) else { return nil }
                current = Frame(node: next, role: role)
            case .lastChild:
                let count = tree.childCount(current.node)
                guard count > 0 else { return nil }
                let link = tree.child(current.node, at: count - 1)
                current = Frame(node: link.node, role: link.role)
            case .firstChild:
                guard tree.childCount(current.node) > 0 else { return nil }
                let link = tree.child(current.node, at: 0)
                current = Frame(node: link.node, role: link.role)
            case .parent(let levels):
                guard context.parent >= 0, levels <= ancestorCount else { return nil }
                current = ancestors[ancestorCount &- levels]
            case .sibling(let offset):
                let i = context.index &+ offset
                guard context.parent >= 0, i >= 0, i < tree.childCount(context.parent) else { return nil }
                let link = tree.child(context.parent, at: i)
                current = Frame(node: link.node, role: link.role)
            }
            s &+= 1
        }
        return current
    }

    /// Whether property `property` of `target` passes value test `test`: a property the node has is
    /// tested in its stored form; otherwise the pseudo-property of that name (`text`, `kind`, `role`,
    /// `count`, and for the node being spoken, `isSelf`, `position` and `script-path`).
    @inline(__always)
    private mutating func property(_ property: Int, of target: Frame, passes test: Int, isSelf: Bool, _ context: Context) -> Bool {
        let node = target.node
        if let p = tree.property(node, propertyNumber(properties[property].number)) {
            switch p.form {
            case .flag: return valueTests[test].onFlag
            case .integer: return valueTests[test].passes(integer: p.payload, integerValues)
            case .atom: return valueTests[test].atoms.contains(p.payload)
            case .string:
                if valueTests[test].byTextID { return valueTests[test].passes(textID: textID(string: Int(p.payload)), table.textIDValues) }
                return CompiledValueTest.passes(stringTests + test, tree.strings[Int(p.payload)])
            }
        }
        if properties[property].pseudo == .none { return valueTests[test].onMissing }
        return pseudoProperty(property, of: target, passes: test, isSelf: isSelf, context)
    }

    /// The number of the node's text among the texts of `text` tests (-1: none of them), looked up
    /// once per string of the tree.
    @inline(__always)
    private mutating func textID(_ node: NodeID) -> Int32 {
        let t = Int(tree.nodes[Int(node)].text)
        if t < 0 { return core.table.emptyTextID }
        return textID(string: t)
    }

    /// The number of string `t` of the tree among the texts of tests by number
    /// (``CompiledValueTest/Facts/byTextID``; -1: none of them), looked up once per string.
    @inline(__always)
    private mutating func textID(string t: Int) -> Int32 {
        if textIDs[t] == SpeechRun.unknownTextID { lookUpTextID(string: t) }
        return textIDs[t]
    }

    /// ``textID(string:)``'s look-up, out of line: with the table's code inlined, the test of a
    /// property against a number was a call of its own (`property(_:of:passes:isSelf:_:)`, no longer
    /// inlined into ``holds(_:_:)``), and `textID` another: 0.6 M of 155.3 M instructions
    /// (`MathAloudBench stages` under callgrind, session 36).
    @inline(never)
    private mutating func lookUpTextID(string t: Int) {
        textIDs[t] = TextTable.lookUp(table.textIDTable, tree.strings[t]) ?? -1
    }

    /// ``property(_:of:passes:isSelf:_:)`` for a pseudo-property.
    private mutating func pseudoProperty(_ property: Int, of target: Frame, passes test: Int, isSelf: Bool, _ context: Context) -> Bool {
        let node = target.node
        switch properties[property].pseudo {
        case .none: return valueTests[test].onMissing
        case .text:
            if valueTests[test].byTextID { return valueTests[test].passes(textID: textID(node), table.textIDValues) }
            return CompiledValueTest.passes(stringTests + test, tree.text(node))
        case .kind: return valueTests[test].kinds.contains(tree.kind(node))
        case .role:
            if Int(target.role) < roleCount { return valueTests[test].roles >> UInt64(target.role) & 1 != 0 }
            return CompiledValueTest.passes(stringTests + test, tree.name(ofRole: target.role))
        case .count:
            return valueTests[test].passes(integer: Int32(tree.childCount(node)), integerValues)
        case .position:
            guard isSelf, context.parent >= 0 else { return valueTests[test].onMissing }
            return valueTests[test].passes(integer: Int32(position(context)), integerValues)
        case .scriptPath:
            guard isSelf else { return valueTests[test].onMissing }
            return CompiledValueTest.passes(stringTests + test, scriptPath(context))
        }
    }

    /// The value of property `property` of `target` as a string (for `{=name}`): as
    /// ``property(_:of:passes:isSelf:_:)`` reads it.
    private mutating func propertyValue(_ property: Int, of target: Frame, isSelf: Bool, _ context: Context) -> String? {
        let node = target.node
        if let p = tree.property(node, propertyNumber(properties[property].number)) { return tree.string(of: p) }
        switch properties[property].pseudo {
        case .none: return nil
        case .text: return tree.text(node)
        case .kind: return tree.kind(node).rawValue
        case .role: return tree.name(ofRole: target.role)
        case .count: return String(tree.childCount(node))
        case .scriptPath: return isSelf ? scriptPath(context) : nil
        case .position: return isSelf && context.parent >= 0 ? String(position(context)) : nil
        }
    }

    /// The node's position among its parent's children with its role (1-based).
    private mutating func position(_ context: Context) -> Int {
        var same = 0
        for i in 0 ..< context.index where tree.child(context.parent, at: i).role == context.role { same += 1 }
        return same + 1
    }

    /// The scripts the node sits in, outermost first: "super", "sub", "super.sub"… (the roles of the
    /// ancestors below the root, then its own).
    private mutating func scriptPath(_ context: Context) -> String {
        var path = ""
        func add(_ role: UInt16) {
            let script = role == exponentRole ? "super" : role == subscriptRole ? "sub" : nil
            guard let script else { return }
            if !path.isEmpty { path += "." }
            path += script
        }
        for i in 1 ..< max(ancestorCount, 1) { add(ancestors[i].role) }
        add(context.role)
        return path
    }

    /// Whether `condition` holds for the node. The condition is read in place, through a pointer into
    /// the rule table's frozen storage (``RuleTable/Reader``), which outlives the run: copying it to
    /// the stack per test cost 0.3M of 156.7M instructions (`MathAloudBench stages`, first 1,000 arXiv
    /// formulas, callgrind; session 9).
    @inline(__always)
    private mutating func holds(_ condition: UnsafePointer<CompiledCondition>, _ context: Context) -> Bool {
        // Read in place: a condition passed by value is copied to the stack per test (rules stage,
        // session 9).
        let negated = condition.pointee.negated
        switch condition.pointee.test {
        case let .property(path, name, test):
            if path < 0 {
                return property(name, of: Frame(node: context.node, role: context.role), passes: test, isSelf: true, context) != negated
            }
            guard let target = resolve(path, context) else { return negated }
            return property(name, of: target, passes: test, isSelf: false, context) != negated
        case let .preference(slot):
            return preferences.holds(slot, core.table, results: preferenceResults) != negated
        case let .kind(path, kinds):
            if path < 0 { return kinds.contains(tree.kind(context.node)) != negated }
            guard let target = resolve(path, context) else { return negated }
            return kinds.contains(tree.kind(target.node)) != negated
        case let .parentKind(kinds):
            guard context.parent >= 0 else { return negated }
            return kinds.contains(tree.kind(context.parent)) != negated
        case let .role(set):
            if Int(context.role) < roleCount { return (roleSets[set].bits >> UInt64(context.role) & 1 != 0) != negated }
            return roleSets[set].extraNames.contains(tree.name(ofRole: context.role)) != negated
        case .followed:
            guard context.parent >= 0 else { return negated }
            return (context.index < tree.childCount(context.parent) - 1) != negated
        case .first:
            return (context.index == 0) != negated
        case let .within(kinds):
            for i in 0 ..< ancestorCount where kinds.contains(tree.kind(ancestors[i].node)) { return !negated }
            return negated
        case let .withinThrough(kinds, throughSet):
            // The nearest ancestor not of a `through` kind decides.
            let through = table.throughKinds[throughSet]
            var i = ancestorCount - 1
            while i >= 0 {
                let kind = tree.kind(ancestors[i].node)
                if kinds.contains(kind) { return !negated }
                if !through.contains(kind) { return negated }
                i -= 1
            }
            return negated
        }
    }

    // MARK: Limits

    /// Stops the run at a limit: reports `speech.step-limit` or `speech.output-limit`, naming the rule
    /// whose template was being said (its file and line), at the node reached.
    private mutating func stop(_ steps: Bool, node: NodeID) {
        stopped = true
        let limits = core.limits
        let what = steps ? "more than \(limits.maxRuleSteps) rule steps" : "more than \(limits.maxOutputBytes) bytes of speech"
        var message = "speaking the formula took \(what); stopped"
        if currentRule >= 0 {
            let rule = core.rules[currentRule]
            message += " in rule \(rule.name) (\(rule.file):\(rule.line)), which may say its children too many times"
        }
        diagnostics.append(.error(steps ? "speech.step-limit" : "speech.output-limit", message, at: tree.range(node)))
    }

    // MARK: Traces

    /// The trace entry of a node: what conditions can test, and the rule that speaks it (the speech
    /// is filled in after).
    private mutating func traceEntry(_ context: Context, depth: Int, rule: Int?) -> RuleTrace {
        let node = context.node
        var properties: [String: String] = [:]
        let record = tree.nodes[Int(node)]
        for i in Int(record.firstProperty) ..< Int(record.firstProperty + record.propertyCount) {
            properties[tree.name(ofProperty: tree.properties[i].name)] = tree.string(of: tree.properties[i])
        }
        let spoken = rule.map { core.rules[$0] }
        return RuleTrace(depth: depth, kind: tree.kind(node).rawValue, text: tree.text(node), range: tree.range(node),
                         role: tree.name(ofRole: context.role), properties: properties, rule: spoken?.name,
                         location: spoken.map { "\($0.file):\($0.line)" }, conditions: spoken?.conditions.map(SpeechRun.describe) ?? [],
                         speech: "")
    }

    /// A condition as written in a rule file.
    static func describe(_ condition: RuleCondition) -> String {
        func t(_ t: ValueTest) -> String {
            switch t {
            case .present: return ""
            case .oneOf(let v): return v.count == 1 ? " = \(v[0])" : " in \(v.joined(separator: ", "))"
            case .less(let n): return " < \(n)"
            case .greater(let n): return " > \(n)"
            }
        }
        switch condition {
        case let .property(path, name, test, negated):
            return (negated ? "not " : "") + (path + [name]).joined(separator: ".") + t(test)
        case let .preference(name, test, negated): return (negated ? "not " : "") + "pref \(name)" + t(test)
        case let .kind(path, kinds, negated):
            return (path.isEmpty ? "self" : path.joined(separator: ".")) + (negated ? " is not " : " is ") + kinds.joined(separator: ", ")
        case let .parentKind(kinds, negated): return "parent" + (negated ? " is not " : " is ") + kinds.joined(separator: ", ")
        case let .role(roles, negated): return "role" + (negated ? " is not " : " is ") + roles.joined(separator: ", ")
        case let .followed(negated): return negated ? "not followed" : "followed"
        case let .first(negated): return negated ? "not first" : "first"
        case let .within(kinds, negated): return (negated ? "not " : "") + "within " + kinds.joined(separator: ", ")
        case let .withinThrough(kinds, through, negated):
            return (negated ? "not " : "") + "within " + kinds.joined(separator: ", ") + " through " + through.joined(separator: ", ")
        }
    }
}
