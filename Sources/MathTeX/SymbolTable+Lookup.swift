import MathSyntax

extension SymbolTable {
    /// The leaf of the symbol whose text is `text` (for Unicode characters typed directly: `≤` is `\leq`).
    /// Where several names share a text, the one whose class agrees with the operator dictionary wins
    /// (typed `⊥` is the relation `\perp`, not the identifier `\bot`), then the first name in sorted order.
    /// The parser's leaf is prepared once per text (made on first use), so that a typed character
    /// makes no object.
    static func leaf(forText text: String) -> SymbolLeaf? {
        leavesByText[text]
    }

    private static let leavesByText: [String: SymbolLeaf] = {
        var map: [String: TeXSymbol] = [:]
        for name in allMathNames.sorted() {
            guard let symbol = math(name) else { continue }
            guard let existing = map[symbol.text] else {
                map[symbol.text] = symbol
                continue
            }
            if !agreesWithDictionary(existing), agreesWithDictionary(symbol) { map[symbol.text] = symbol }
        }
        return map.mapValues(SymbolLeaf.init)
    }()

    private static func agreesWithDictionary(_ symbol: TeXSymbol) -> Bool {
        guard symbol.text.unicodeScalars.count == 1, let scalar = symbol.text.unicodeScalars.first else { return true }
        let dictionary = OperatorDictionary.atomClass(for: scalar)
        switch symbol.symbolClass {
        case .ord: return dictionary == nil
        case .ordOperator: return dictionary == .ord
        case .bin: return dictionary == .bin
        case .rel: return dictionary == .rel
        case .open: return dictionary == .open
        case .close: return dictionary == .close
        case .punct: return dictionary == .punct
        case .inner: return dictionary == .inner
        case .largeOperator: return dictionary == .op
        }
    }
}
