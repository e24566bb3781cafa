import MathSyntax
import Testing

/// One expected dictionary entry.
private struct OperatorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let atomClass: AtomClass
    var stretchy = false
    var fence = false
    var separator = false
    var largeOperator = false
    var movableLimits = false

    var testDescription: String { "\(text) → \(atomClass)" }
}

private let knownOperators: [OperatorCase] = [
    .init(text: "+", atomClass: .bin),
    .init(text: "-", atomClass: .bin),
    .init(text: "−", atomClass: .bin),
    .init(text: "±", atomClass: .bin),
    .init(text: "∓", atomClass: .bin),
    .init(text: "×", atomClass: .bin),
    .init(text: "÷", atomClass: .bin),
    .init(text: "·", atomClass: .bin),
    .init(text: "⋅", atomClass: .bin),
    .init(text: "∘", atomClass: .bin),
    .init(text: "⊕", atomClass: .bin),
    .init(text: "∪", atomClass: .bin),
    .init(text: "∧", atomClass: .bin),
    .init(text: "∖", atomClass: .bin),
    .init(text: "⨿", atomClass: .bin),
    .init(text: "=", atomClass: .rel),
    .init(text: "<", atomClass: .rel),
    .init(text: ":", atomClass: .rel),
    .init(text: "≤", atomClass: .rel),
    .init(text: "≠", atomClass: .rel),
    .init(text: "≡", atomClass: .rel),
    .init(text: "∈", atomClass: .rel),
    .init(text: "⊆", atomClass: .rel),
    .init(text: "⊥", atomClass: .rel),
    .init(text: "⩽", atomClass: .rel),
    .init(text: "⫋", atomClass: .rel),
    .init(text: "→", atomClass: .rel, stretchy: true),
    .init(text: "⟹", atomClass: .rel, stretchy: true),
    .init(text: "↦", atomClass: .rel, stretchy: true),
    .init(text: "⤏", atomClass: .rel, stretchy: true),
    .init(text: "↺", atomClass: .rel),
    .init(text: ",", atomClass: .punct, separator: true),
    .init(text: ";", atomClass: .punct, separator: true),
    .init(text: "\u{2063}", atomClass: .punct, separator: true),
    .init(text: "(", atomClass: .open, stretchy: true, fence: true),
    .init(text: ")", atomClass: .close, stretchy: true, fence: true),
    .init(text: "[", atomClass: .open, stretchy: true, fence: true),
    .init(text: "}", atomClass: .close, stretchy: true, fence: true),
    .init(text: "⟨", atomClass: .open, stretchy: true, fence: true),
    .init(text: "⟩", atomClass: .close, stretchy: true, fence: true),
    .init(text: "⌊", atomClass: .open, stretchy: true, fence: true),
    .init(text: "⌉", atomClass: .close, stretchy: true, fence: true),
    .init(text: "⟦", atomClass: .open, stretchy: true, fence: true),
    .init(text: "⦄", atomClass: .close, stretchy: true, fence: true),
    .init(text: "\u{2329}", atomClass: .open, stretchy: true, fence: true),
    .init(text: "⌜", atomClass: .open, fence: true),
    .init(text: "|", atomClass: .ord, stretchy: true, fence: true),
    .init(text: "‖", atomClass: .ord, stretchy: true, fence: true),
    .init(text: "∑", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "∏", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "∐", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⋃", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⋂", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⋁", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⋀", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⨁", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⨂", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⨀", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⨄", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "⨆", atomClass: .op, largeOperator: true, movableLimits: true),
    .init(text: "∫", atomClass: .op, largeOperator: true),
    .init(text: "∬", atomClass: .op, largeOperator: true),
    .init(text: "∭", atomClass: .op, largeOperator: true),
    .init(text: "∮", atomClass: .op, largeOperator: true),
    .init(text: "∯", atomClass: .op, largeOperator: true),
    .init(text: "∰", atomClass: .op, largeOperator: true),
    .init(text: "⨌", atomClass: .op, largeOperator: true),
    .init(text: "⨖", atomClass: .op, largeOperator: true),
    .init(text: "…", atomClass: .inner),
    .init(text: "⋯", atomClass: .inner),
    .init(text: "⋱", atomClass: .inner),
    .init(text: "!", atomClass: .close),
    .init(text: "/", atomClass: .ord),
    .init(text: "∠", atomClass: .ord),
    .init(text: "∀", atomClass: .ord),
    .init(text: "¬", atomClass: .ord),
    .init(text: "′", atomClass: .ord),
    .init(text: "¯", atomClass: .ord, stretchy: true),
    .init(text: "⏞", atomClass: .ord, stretchy: true),
    .init(text: "lim", atomClass: .op, movableLimits: true),
    .init(text: "max", atomClass: .op, movableLimits: true),
    .init(text: ":=", atomClass: .rel),
    .init(text: "::", atomClass: .rel),
    .init(text: "...", atomClass: .inner),
    // Negation overlays and variation selectors keep the base character's properties.
    .init(text: "=\u{338}", atomClass: .rel),
    .init(text: "⩽\u{338}", atomClass: .rel),
    .init(text: "⊊\u{FE00}", atomClass: .rel),
    .init(text: "→\u{338}", atomClass: .rel, stretchy: true),
]

@Test func operatorTableParsesWithoutProblems() {
    #expect(OperatorDictionary.tableProblems == [])
}

@Test(arguments: knownOperators)
private func knownOperatorProperties(_ expected: OperatorCase) {
    let properties = OperatorDictionary.properties(for: expected.text)
    #expect(properties.atomClass == expected.atomClass)
    #expect(properties.stretchy == expected.stretchy)
    #expect(properties.fence == expected.fence)
    #expect(properties.separator == expected.separator)
    #expect(properties.largeOperator == expected.largeOperator)
    #expect(properties.movableLimits == expected.movableLimits)
    #expect(properties.size == nil)
    if expected.text.unicodeScalars.count == 1 {
        #expect(OperatorDictionary.atomClass(for: expected.text.unicodeScalars.first!) == expected.atomClass)
    }
}

/// Identifiers: letters, digits, Greek, and the symbols that name things rather than operate.
@Test(arguments: ["x", "A", "7", "α", "Ω", "∞", "∂", "∅", "ℵ", "∇", "∆", "⊤", "ℝ", "𝑥", "ℏ", "ⅆ", "∎", "⦰", "△", "°"])
func identifiersAreNotOperators(_ text: String) {
    #expect(OperatorDictionary.atomClass(for: text.unicodeScalars.first!) == nil)
    #expect(OperatorDictionary.properties(for: text) == .ordinary)
}

@Test func unknownTextIsOrdinary() {
    #expect(OperatorDictionary.properties(for: "xyz") == .ordinary)
    #expect(OperatorDictionary.properties(for: "") == .ordinary)
    #expect(OperatorDictionary.properties(for: "ab\u{338}") == .ordinary)
}

/// Counts the scalars of a range that have an atom class, by class.
private func classes(in range: ClosedRange<UInt32>) -> [AtomClass: Int] {
    var counts: [AtomClass: Int] = [:]
    for value in range {
        if let atomClass = OperatorDictionary.atomClass(for: Unicode.Scalar(value)!) {
            counts[atomClass, default: 0] += 1
        }
    }
    return counts
}

@Test func blocksAreCoveredWithSaneClasses() {
    // Arrows and the supplemental arrow blocks: every character is a relation.
    #expect(classes(in: 0x2190...0x21FF) == [.rel: 112])
    #expect(classes(in: 0x27F0...0x27FF) == [.rel: 16])
    #expect(classes(in: 0x2900...0x297F) == [.rel: 128])
    // Mathematical Operators: all but the seven identifiers (∂ ∅ ∆ ∇ ∎ ∞ ⊤).
    let mathOperators = classes(in: 0x2200...0x22FF)
    #expect(mathOperators.values.reduce(0, +) == 256 - 7)
    #expect(mathOperators[.rel, default: 0] > 150)
    #expect(mathOperators[.bin, default: 0] > 45)
    #expect(mathOperators[.op] == 16)
    #expect(mathOperators[.inner] == 3)
    // Supplemental Mathematical Operators: every character.
    let supplemental = classes(in: 0x2A00...0x2AFF)
    #expect(supplemental.values.reduce(0, +) == 256)
    #expect(supplemental[.op] == 11 + 18 + 4)
    #expect(supplemental[.rel, default: 0] > 130)
    // Fences come in pairs.
    var opens = 0, closes = 0
    for value in UInt32(0)...0x3_0000 {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let properties = OperatorDictionary.properties(for: String(Character(scalar)))
        if properties.atomClass == .open { opens += 1; #expect(properties.fence) }
        if properties.atomClass == .close, properties.fence { closes += 1 }
        if properties.movableLimits { #expect(properties.atomClass == .op) }
        if properties.largeOperator { #expect(properties.atomClass == .op) }
        if properties.separator { #expect(properties.atomClass == .punct) }
    }
    #expect(opens == closes)
    #expect(opens == 39)
}

@Test func integralsHaveNoMovableLimits() {
    for value in UInt32(0x222B)...0x2233 {
        let properties = OperatorDictionary.properties(for: String(Character(Unicode.Scalar(value)!)))
        #expect(properties.largeOperator && !properties.movableLimits)
    }
    for value in UInt32(0x2A0B)...0x2A1C {
        let properties = OperatorDictionary.properties(for: String(Character(Unicode.Scalar(value)!)))
        #expect(properties.largeOperator && !properties.movableLimits)
    }
}
