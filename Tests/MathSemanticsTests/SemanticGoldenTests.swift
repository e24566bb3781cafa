import Foundation
import Testing
import TestSupport
import MathSyntax
import MathTeX
@testable import MathSemantics

/// Golden semantic dumps (Golden/*.txt): each `> TeX` line is parsed, analysed and dumped without
/// ranges. `corpus.txt` holds every input of the English ClearSpeak and MathSpeak conformance
/// corpora; the other files cover each kind and property family.
@Suite struct SemanticGoldenTests {
    static let families = [
        "corpus.txt", "operators.txt", "functions.txt", "fences.txt", "fractions.txt", "scripts.txt",
        "bigoperators.txt", "tables.txt", "units.txt", "decorations.txt", "robustness.txt",
    ]

    /// The unit names written out in English (`meters`), as the English speaker gives them to the
    /// analysis: read here from `Locales/en/units.txt` (forms after `| written:` first, then each
    /// symbol entry's words and variants), so the goldens show English text read as units.
    static let englishUnitNames: UnitNames = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let text = try? String(contentsOf: root.appendingPathComponent("Locales/en/units.txt"), encoding: .utf8) else { return UnitNames() }
        var written: [(name: String, unit: String)] = [], words: [(name: String, unit: String)] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, UnitNames.isSymbol(String(fields[0])) else { continue }
            let key = String(fields[0])
            for (i, part) in fields[1].split(separator: "|").enumerated() {
                let p = part.trimmingCharacters(in: .whitespaces)
                if i == 0 { words.append((p, key)); continue }
                guard let colon = p.firstIndex(of: ":") else { continue }
                let value = p[p.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if p.hasPrefix("written") {
                    written += value.split(separator: ",").map { ($0.trimmingCharacters(in: .whitespaces), key) }
                } else {
                    words.append((value, key))
                }
            }
        }
        return UnitNames(written + words)
    }()

    @Test(arguments: families)
    func family(_ name: String) throws {
        let golden = try GoldenFile(name)
        #expect(!golden.cases.isEmpty)
        var outputs: [String] = []
        let analyzer = SemanticAnalyzer(options: .init(unitNames: Self.englishUnitNames))
        for c in golden.cases {
            let tree = analyzer.analyze(TeXParser().parse(c.input).root)
            let output = tree.dump()
            outputs.append(output)
            if !GoldenFile.recording {
                #expect(output == c.expected, "\(name):\(c.line): \(c.input)")
            }
        }
        if GoldenFile.recording { try golden.record(outputs) }
    }
}
