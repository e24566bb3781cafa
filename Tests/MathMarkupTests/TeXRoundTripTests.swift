import Foundation
import Testing
import MathSyntax
import MathTeX
@testable import MathMarkup

/// TeX → tree → MathML → tree gives the same tree (ranges aside), for every arXiv formula and every
/// golden parser input.
@Suite struct TeXRoundTripTests {
    static func texInputs(file: String = #filePath) throws -> [String] {
        let tests = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
        var inputs: [String] = []
        let arxiv = try String(contentsOf: tests.appendingPathComponent("MathTeXTests/Fixtures/arxiv-public.txt"), encoding: .utf8)
        inputs += arxiv.split(separator: "\n").map(String.init)
        let golden = tests.appendingPathComponent("MathTeXTests/Golden")
        for name in try FileManager.default.contentsOfDirectory(atPath: golden.path).sorted() where name != "errors.txt" {
            let text = try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
            inputs += text.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
        }
        return inputs
    }

    /// MathML trims white space at the ends of token elements, and the writer keeps edge spaces of
    /// `mtext` as no-break spaces (see `MathMLWriter`), so token texts are compared trimmed.
    static func normalizingTokenSpace(_ node: MathNode) -> MathNode {
        func trim(_ s: String) -> String {
            s.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{00A0}")))
        }
        let kind: MathNode.Kind
        switch node.kind {
        case let .text(s, v): kind = .text(trim(s), variant: v)
        case let .identifier(s, v): kind = .identifier(trim(s), variant: v)
        case let .operator(s, p): kind = .operator(trim(s), p)
        default: kind = node.kind
        }
        return MathNode(kind, node.children.map(normalizingTokenSpace), range: nil, attributes: node.attributes)
    }

    @Test func roundTrip() throws {
        let inputs = try Self.texInputs()
        #expect(inputs.count > 4300)
        let parser = TeXParser()
        let writer = MathMLWriter()
        // The writer's own styles (`\textsc` as font-variant: small-caps) are read back: the MathML is ours,
        // so the reader trusts it (styles are dropped from untrusted MathML, TrustPolicy).
        var readerOptions = MathMLReader.Options()
        readerOptions.trust = .trusted
        let reader = MathMLReader(options: readerOptions)
        var failures = 0
        for tex in inputs {
            let tree = parser.parse(tex).root.strippingRanges()
            let mathml = writer.write(tree)
            let back = reader.read(mathml)
            let errors = back.diagnostics.filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(tex): \(errors.map(\.message))")
            if Self.normalizingTokenSpace(back.root.strippingRanges()) != Self.normalizingTokenSpace(tree) {
                failures += 1
                if failures <= 10 {
                    Issue.record("round trip differs for \(tex)\n--- TeX tree\n\(tree.treeDump(ranges: false))--- read back\n\(back.root.strippingRanges().treeDump(ranges: false))")
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(inputs.count) formulas differ after TeX → MathML → tree")
    }
}
