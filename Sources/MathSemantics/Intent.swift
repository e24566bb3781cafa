import MathSyntax

/// A MathML 4 `intent` attribute, parsed (MathML 4 §5.1, "The intent attribute"):
///
///     intent      := self-property-list | expression
///     expression  := term property-list [ '(' arguments ')' ]
///     term        := concept-or-literal | number | reference
///     reference   := '$' NCName        literal := '_' NCName?        property := ':' NCName
///
/// An author's intent overrides what the analysis would infer: `intent="transpose($m)"` is read as
/// the concept "transpose" applied to the element marked `arg="m"`, whatever the layout looks like.
struct IntentExpression: Equatable {
    indirect enum Head: Equatable {
        /// A concept name (`transpose`, `open-interval`).
        case concept(String)
        /// A literal (`_total`): its name is said as written; `_` alone says nothing.
        case literal(String)
        /// A number.
        case number(String)
        /// A reference to a descendant with `arg="name"`.
        case reference(String)
    }

    /// What the expression names; nil for a self-property-list (`:unit`, `:silent`).
    var head: Head?
    /// Properties (`unit`, `silent`, `prefix`, `infix`, `postfix`, `function`…), without the colon.
    var properties: [String]
    /// The arguments, when parentheses follow the head.
    var arguments: [IntentExpression]?

    /// Parses an intent attribute; nil when it is not well formed (it is then ignored, as MathML says
    /// a malformed intent is).
    init?(parsing text: String) {
        var p = Parser(Array(text.unicodeScalars))
        guard let e = p.intent(depth: 0), p.atEnd else { return nil }
        self = e
    }

    init(head: Head?, properties: [String], arguments: [IntentExpression]?) {
        self.head = head
        self.properties = properties
        self.arguments = arguments
    }

    private struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        var atEnd: Bool {
            mutating get { skipSpace(); return i >= s.count }
        }

        mutating func skipSpace() {
            while i < s.count, s[i].isSpace { i += 1 }
        }

        static func isNameStart(_ u: Unicode.Scalar) -> Bool { u.properties.isAlphabetic || u == "_" }
        static func isName(_ u: Unicode.Scalar) -> Bool {
            u.properties.isAlphabetic || u.properties.numericType != nil || u == "_" || u == "-" || u == "."
        }

        mutating func name() -> String? {
            let start = i
            guard i < s.count, Parser.isNameStart(s[i]) || s[i] == "-" else { return nil }
            while i < s.count, Parser.isName(s[i]) { i += 1 }
            return String(String.UnicodeScalarView(s[start..<i]))
        }

        mutating func properties() -> [String]? {
            var list: [String] = []
            while true {
                skipSpace()
                guard i < s.count, s[i] == ":" else { return list }
                i += 1
                guard let n = name() else { return nil }
                list.append(n)
            }
        }

        mutating func intent(depth: Int) -> IntentExpression? {
            guard depth < 32 else { return nil }
            skipSpace()
            guard i < s.count else { return nil }
            var head: Head? = nil
            if s[i] == ":" {
                // A self-property-list.
                guard let props = properties() else { return nil }
                return IntentExpression(head: nil, properties: props, arguments: nil)
            } else if s[i] == "$" {
                i += 1
                guard let n = name() else { return nil }
                head = .reference(n)
            } else if s[i] == "_" {
                i += 1
                head = .literal(name() ?? "")
            } else if s[i].properties.numericType != nil {
                let start = i
                while i < s.count, s[i].properties.numericType != nil || s[i] == "." { i += 1 }
                head = .number(String(String.UnicodeScalarView(s[start..<i])))
            } else if let n = name() {
                head = .concept(n)
            } else {
                return nil
            }
            guard let props = properties() else { return nil }
            skipSpace()
            var args: [IntentExpression]? = nil
            if i < s.count, s[i] == "(" {
                i += 1
                var list: [IntentExpression] = []
                skipSpace()
                if i < s.count, s[i] == ")" {
                    i += 1
                } else {
                    while true {
                        guard let a = intent(depth: depth + 1) else { return nil }
                        list.append(a)
                        skipSpace()
                        guard i < s.count else { return nil }
                        if s[i] == "," { i += 1; continue }
                        if s[i] == ")" { i += 1; break }
                        return nil
                    }
                }
                args = list
            }
            return IntentExpression(head: head, properties: props, arguments: args)
        }
    }
}

extension Analyzer {
    /// Whether a presentation node carries an author's meaning: an accessible name (`aria-label`) or an
    /// intent that changes its meaning (not only properties the analysis reads elsewhere, such as
    /// `:unit`).
    static func hasIntent(_ m: MathNode) -> Bool {
        if authorSpeech(m) != nil { return true }
        guard let text = m.attributes?["intent"], let e = IntentExpression(parsing: text) else { return false }
        if e.head != nil { return true }
        return e.properties.contains("silent")
    }

    /// The words the author gave an element to say instead of its content: its accessible name
    /// (`aria-label`), or speech stored with it by an authoring tool (`exact-speech`, Speech Rule
    /// Engine's attribute). Nil when neither is given or both are blank.
    static func authorSpeech(_ m: MathNode) -> String? {
        guard let attributes = m.attributes else { return nil }
        for name in ["aria-label", "exact-speech"] {
            if let label = attributes[name], !label.trimmingSpaces.isEmpty { return label }
        }
        return nil
    }

    /// The semantic node of a presentation node with an intent (``hasIntent(_:)``): the author's
    /// meaning replaces the inferred one. A concept is an ``SemanticKind/intent`` node (text: the
    /// concept, children: its arguments, in order, role `argument`, property `fixity`); a reference
    /// is the referenced element read as usual; a literal says its name; `:silent` says nothing (or
    /// only its arguments).
    mutating func intentNode(_ m: MathNode, _ ctx: Context) -> NodeID {
        // An accessible name the author gave (`aria-label`) is what the element says.
        if let label = Analyzer.authorSpeech(m) {
            return text(label, range: m.range)
        }
        guard let text = m.attributes?["intent"], let e = IntentExpression(parsing: text) else {
            return node(Analyzer.withoutIntent(m), ctx)
        }
        return intentNode(e, element: m, ctx, depth: 0)
    }

    private mutating func intentNode(_ e: IntentExpression, element m: MathNode, _ ctx: Context, depth: Int) -> NodeID {
        if depth > 16 { return empty(m.range) }
        let fixity = e.properties.first { ["prefix", "postfix", "infix", "function", "silent", "nofix"].contains($0) }
        // `:silent` alone: nothing is said.
        if e.head == nil {
            return fixity == "silent" ? empty(m.range) : node(Analyzer.withoutIntent(m), ctx)
        }
        var arguments: [NodeID] = []
        for a in e.arguments ?? [] {
            arguments.append(intentNode(a, element: m, ctx, depth: depth + 1))
        }
        var concept = ""
        switch e.head! {
        case .reference(let name):
            guard let target = Analyzer.argument(named: name, in: m) else { return empty(m.range) }
            let t = target === m ? node(Analyzer.withoutIntent(m), ctx) : node(target, ctx)
            // `$op($x)` where op's own intent names a concept: that concept applied to the arguments.
            if e.arguments != nil, kind(t) == .intent, tree.childCount(t) == 0 {
                concept = text(t)
            } else if e.arguments == nil {
                return t
            } else {
                arguments.insert(t, at: 0)
                return intentComposite(concept: "", arguments: arguments, fixity: "function", range: m.range)
            }
        case .literal(let name):
            if name.isEmpty {
                // `_`: the arguments alone (or nothing).
                return intentComposite(concept: "", arguments: arguments, fixity: "silent", range: m.range)
            }
            concept = name
        case .number(let n):
            if e.arguments == nil { return number(n, range: m.range) }
            concept = n
        case .concept(let name):
            concept = name
            // A concept named without arguments on a function's name (`<mi intent="sine">sin</mi>`)
            // replaces its words, not its part in the row: it is still a function head.
            if fixity == nil, e.arguments == nil, depth == 0, Analyzer.isFunctionName(m) {
                return intentComposite(concept: concept, arguments: [], fixity: "function", range: m.range)
            }
        }
        return intentComposite(concept: concept, arguments: arguments,
                               fixity: fixity ?? (e.arguments == nil ? nil : "function"), range: m.range)
    }

    private mutating func intentComposite(concept: String, arguments: [NodeID], fixity: String?, range: SourceRange?) -> NodeID {
        // The interval concepts of MathML's core list are intervals, said as intervals are.
        let intervals: [String: (Bool, Bool)] = ["open-interval": (false, false), "closed-interval": (true, true),
                                                 "open-closed-interval": (false, true), "closed-open-interval": (true, false)]
        if arguments.count == 2, let (lowerClosed, upperClosed) = intervals[concept] {
            let mark = b.mark()
            b.add(child: arguments[0], .lower)
            b.add(child: arguments[1], .upper)
            b.string(.open, lowerClosed ? "[" : "(")
            b.string(.close, upperClosed ? "]" : ")")
            if lowerClosed { b.flag(.lowerClosed) }
            if upperClosed { b.flag(.upperClosed) }
            if tree.isInfinite(arguments[0]) { b.flag(.lowerInfinite) }
            if tree.isInfinite(arguments[1]) { b.flag(.upperInfinite) }
            b.flag(.explicit)
            return b.finish(.interval, mark, range: range, rangeFromChildren: false)
        }
        let mark = b.mark()
        for (k, a) in arguments.enumerated() {
            // Infix: the concept between each two arguments, as an operator child ("a perpendicular to b").
            if k > 0 && fixity == "infix" {
                b.add(child: b.leaf(.text, text: concept, range: nil), .operator)
            }
            b.add(child: a, .argument)
        }
        if let fixity { b.string(.fixity, fixity) }
        return b.finish(.intent, mark, text: concept, range: range, rangeFromChildren: false)
    }

    /// Whether an element (through rows of one child) is an identifier naming a function (`sin`, `log`;
    /// not a limit name).
    static func isFunctionName(_ m: MathNode) -> Bool {
        guard case .identifier(let t, _) = unwrapped(m).kind, let c = Vocabulary.nameClass(t) else { return false }
        return c != .limit
    }

    /// The descendant of `m` (or `m` itself) marked `arg="name"`, searched depth first.
    static func argument(named name: String, in m: MathNode) -> MathNode? {
        var stack: [MathNode] = [m]
        var seen = 0
        while let n = stack.popLast(), seen < 100_000 {
            seen += 1
            if n.attributes?["arg"] == name { return n }
            stack.append(contentsOf: n.children.reversed())
        }
        return nil
    }

    /// The node without its intent attribute (read as the layout says).
    static func withoutIntent(_ m: MathNode) -> MathNode {
        var attributes = m.attributes ?? [:]
        attributes["intent"] = nil
        return MathNode(m.kind, children: m.children, range: m.range, attributes: attributes.isEmpty ? nil : attributes)
    }
}
