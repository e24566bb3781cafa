/// What follows a reference's name in a template (Rules/README.md, "Templates"): a format and word
/// variants, `{index:ordinal@feminine}`, `{=unit-name:unit@plural(quantity)}`, `{@row@plural(=rows)}`.
///
/// A variant picks a form of the words where they come from a word file: the variant of that name of
/// the entry (`cardinal.1  eins | feminine: eine`), or for `@plural(SOURCE)` the variant named by the
/// plural category (CLDR `one`, `few`, `many`, `other`…) of a number: a child's text (`quantity`,
/// `numerator.base`), a property's value (`=rows`) or the node's own text (`text`).
public struct TemplateFormat: Hashable, Sendable, CustomStringConvertible {
    /// A word variant.
    public enum Variant: Hashable, Sendable, CustomStringConvertible {
        /// A fixed variant (`feminine`, `genitive`, `plural`).
        case named(String)
        /// The plural category of a number.
        case plural(of: CountSource)

        public var description: String {
            switch self {
            case .named(let n): return n
            case .plural(let s): return "plural(\(s))"
            }
        }
    }

    /// Where the number of a `@plural(…)` variant comes from.
    public enum CountSource: Hashable, Sendable, CustomStringConvertible {
        /// A property of the node (`=rows`).
        case property(String)
        /// The first child reached by these roles (`quantity`, `numerator.base`): its text.
        case path([String])
        /// The node's own text.
        case text

        public var description: String {
            switch self {
            case .property(let p): return "=" + p
            case .path(let roles): return roles.joined(separator: ".")
            case .text: return "text"
            }
        }
    }

    /// The format's name (`cardinal`, `unit-plural`); nil when only variants are given.
    public let name: String?
    /// The variants, in the order written (the words file's variant names join them with `.`).
    public let variants: [Variant]

    /// A format and variants.
    public init(name: String?, variants: [Variant] = []) {
        self.name = name
        self.variants = variants
    }

    /// `NAME@VARIANT@…`, `@VARIANT…` or `NAME`.
    init(parsing text: String) throws(RuleSyntaxError) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        name = parts[0].isEmpty ? nil : parts[0]
        variants = try parts.dropFirst().map { (part: String) throws(RuleSyntaxError) -> Variant in try TemplateFormat.variant(part) }
        if name == nil && variants.isEmpty { throw RuleSyntaxError(message: "empty format after ':'") }
    }

    /// One variant: `NAME` or `plural(SOURCE)`.
    static func variant(_ part: String) throws(RuleSyntaxError) -> Variant {
        guard !part.isEmpty else { throw RuleSyntaxError(message: "empty variant after '@'") }
        if part.hasPrefix("plural(") {
            guard part.hasSuffix(")") else { throw RuleSyntaxError(message: "'\(part)' is not closed; write @plural(ROLE), @plural(=PROPERTY) or @plural(text)") }
            let source = String(part.dropFirst("plural(".count).dropLast()).trimmingSpaces
            if source.isEmpty { throw RuleSyntaxError(message: "@plural() needs a number: a role, =property or text") }
            if source == "text" { return .plural(of: .text) }
            if source.hasPrefix("=") {
                let name = String(source.dropFirst())
                if name.isEmpty { throw RuleSyntaxError(message: "@plural(=) needs a property name") }
                return .plural(of: .property(name))
            }
            let roles = source.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if roles.contains(where: \.isEmpty) { throw RuleSyntaxError(message: "'\(source)' is not a path of roles") }
            return .plural(of: .path(roles))
        }
        guard part.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw RuleSyntaxError(message: "'\(part)' is not a variant name (letters, digits, - and .)")
        }
        return .named(part)
    }

    /// Splits a look-up reference's text (`row@plural(=rows)`, after the `@` that marks a look-up)
    /// into its key and variants.
    static func lookup(_ text: String) throws(RuleSyntaxError) -> (key: String, variants: [Variant]) {
        // The key is all of the text up to the first `@` after its first character (a key may be `@`).
        guard let first = text.first else { throw RuleSyntaxError(message: "empty key after '@'") }
        let rest = text.dropFirst()
        guard let at = rest.firstIndex(of: "@") else { return (text, []) }
        let key = String(first) + String(rest[..<at])
        let variants = try rest[rest.index(after: at)...].split(separator: "@", omittingEmptySubsequences: false)
            .map { (part: Substring) throws(RuleSyntaxError) -> Variant in try TemplateFormat.variant(part.trimmingSpaces) }
        return (key, variants)
    }

    public var description: String { ([name ?? ""] + variants.map(\.description)).joined(separator: "@") }
}
