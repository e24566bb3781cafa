import MathSyntax

/// Chemistry: mhchem's `\ce{…}` (formulas and equations) and `\pu{…}` (physical units), read by
/// ``MhchemReader`` (mhchem 4's input syntax, https://mhchem.github.io/MathJax-mhchem/).
enum ChemistryCommands {
    static let all: [CommandDefinition] = [
        CommandDefinition(["ce"], [], modes: .both) { core, call in core.mhchem(call, units: false) },
        CommandDefinition(["pu"], [], modes: .both) { core, call in core.mhchem(call, units: true) },
    ]
}

extension ParserCore {
    /// Reads the argument of `\ce` or `\pu` and builds its tree.
    mutating func mhchem(_ call: Invocation, units: Bool) -> MathNode? {
        let t = peekNonSpace()
        guard let tokens = expander.readArgument() else {
            error("tex.missing-argument", "\\\(call.name) needs an argument in braces", at: call.range)
            return nil
        }
        // The argument's exact text when it comes straight from the input (spaces matter to mhchem);
        // the tokens written back when it came from a macro.
        let written = sourceText(tokens)
        var text = written
        var base: Int?
        if let first = tokens.first, let last = tokens.last, first.range.lowerBound < last.range.upperBound,
           last.range.upperBound <= bytes.count {
            let slice = sourceText(SourceRange(first.range.lowerBound, last.range.upperBound))
            if slice.filter({ !$0.isWhitespace }) == written.filter({ !$0.isWhitespace }) {
                text = slice
                base = first.range.lowerBound
            }
        } else if tokens.isEmpty {
            base = t.range.upperBound
        }
        guard options.chemistryNesting < texLimits.maxChemistryNesting else {
            error("tex.too-deep", "\\\(call.name) nested in \\ce or \\pu more than \(texLimits.maxChemistryNesting) deep", at: call.range)
            return MathNode(.error("\\\(call.name)"), range: call.range)
        }
        guard enterNesting(at: call.range) else { return MathNode(.error("\\\(call.name)"), range: call.range) }
        defer { depth -= 1 }
        let spent = expander.spent
        var reader = MhchemReader(text: text, base: base, commandRange: call.range, options: options,
                                  depthLeft: texLimits.maxDepth - depth,
                                  budget: (texLimits.maxExpansions - spent.expansions, texLimits.maxExpandedTokens - spent.tokens))
        let node = units ? reader.physicalUnit() : reader.equation()
        expander.charge(expansions: reader.spent.expansions, tokens: reader.spent.tokens)
        diagnostics += reader.diagnostics
        let end = tokens.last.map { max($0.range.upperBound + 1, call.range.upperBound) } ?? call.range.upperBound
        return MathNode(node.kind, children: node.children, range: SourceRange(call.range.lowerBound, end), attributes: node.attributes)
    }
}
