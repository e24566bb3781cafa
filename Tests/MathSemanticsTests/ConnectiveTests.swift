import Testing
import MathSyntax
@testable import MathSemantics

/// Logical connectives bind looser than the relations they join: each clause of `b ∈ C ⟺ Ax = b` is a
/// relation of its own (a language that puts the verb last says each clause whole).
@Suite struct ConnectiveTests {
    @Test(arguments: [
        (#"\mathbf{b} \in C \iff A\mathbf{x} = \mathbf{b}"#, "⟺", ["∈", "="]),
        (#"x = 1 \Rightarrow y = 2"#, "⇒", ["=", "="]),
        (#"a < b \implies f(a) < f(b) \implies c \le d"#, "⟹", ["<", "<", "≤"]),
    ])
    func connectivesJoinWholeRelations(_ tex: String, _ connective: String, _ clauses: [String]) {
        let root = analyze(tex)
        #expect(root.kind == .relation && root.properties["operators"] == connective, "\(tex)")
        #expect(root.items.map { $0.properties["operators"] ?? "" } == clauses, "\(tex)")
        #expect(root.items.allSatisfy { $0.kind == .relation }, "\(tex)")
    }

    @Test func aConnectiveAloneOrBetweenLettersStaysOneRelation() {
        // Only connectives: one relation, as before; an arrow that is not a connective (→) is a relation.
        #expect(analyze(#"p \Leftrightarrow q \Rightarrow r"#).items.count == 3)
        let limit = analyze(#"x \to 0 \Rightarrow y = 1"#)
        #expect(limit.properties["operators"] == "⇒" && limit.items.first?.properties["operators"] == "→")
    }
}
