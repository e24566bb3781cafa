import MathMarkup
import MathSyntax
import Testing

// Small builders for expected trees. Operator properties come from the operator dictionary, so
// the expectations hold whatever defaults it assigns.

func mi(_ text: String, _ variant: MathVariant? = nil, attributes: [String: String]? = nil) -> MathNode {
    MathNode(.identifier(text, variant: variant), attributes: attributes)
}

func mn(_ text: String) -> MathNode { MathNode(.number(text)) }

func mo(_ text: String, attributes: [String: String]? = nil,
        _ change: (inout OperatorProperties) -> Void = { _ in }) -> MathNode {
    var props = OperatorDictionary.properties(for: text)
    change(&props)
    return MathNode(.operator(text, props), attributes: attributes)
}

func mtext(_ text: String, _ variant: MathVariant? = nil) -> MathNode { MathNode(.text(text, variant: variant)) }

func row(_ children: MathNode..., attributes: [String: String]? = nil) -> MathNode {
    MathNode(.row, children, attributes: attributes)
}

func node(_ kind: MathNode.Kind, _ children: MathNode..., attributes: [String: String]? = nil) -> MathNode {
    MathNode(kind, children, attributes: attributes)
}

/// Reads `mathml` with the default reader.
func read(_ mathml: String, options: MathMLReader.Options = .init()) -> MathMLReadResult {
    MathMLReader(options: options).read(mathml)
}

/// The ids of the diagnostics.
func ids(_ result: MathMLReadResult) -> [String] { result.diagnostics.map(\.id.rawValue) }

/// The byte offset of the first occurrence of `needle` in `text`.
func offset(of needle: String, in text: String, occurrence: Int = 1) -> Int? {
    let hay = Array(text.utf8), pin = Array(needle.utf8)
    var seen = 0
    guard pin.count <= hay.count else { return nil }
    for start in 0...(hay.count - pin.count) where Array(hay[start..<(start + pin.count)]) == pin {
        seen += 1
        if seen == occurrence { return start }
    }
    return nil
}

/// Finds the first node (pre-order) for which `match` holds.
func firstNode(in root: MathNode, where match: (MathNode) -> Bool) -> MathNode? {
    var found: MathNode?
    root.walk { if found == nil, match($0) { found = $0 } }
    return found
}
