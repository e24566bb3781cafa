import Foundation
import MathAloud
import MathAloudRender
import Testing

private let manualExamples: [String] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MathTeXTests/Fixtures/mhchem-manual.txt")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("%") && !$0.isEmpty }
}()

@Suite("Chemistry rendering")
struct ChemistryRenderTests {
    /// Every manual example is drawn (no error parts), labelled, and its element symbols are upright
    /// text, its charges and counts scripts of one base (aligned).
    @Test func everyManualExampleRenders() throws {
        let renderer = try Renderer()
        for tex in manualExamples {
            let formula = renderer.render(tex: tex)
            #expect(formula.box.width > 0, "\(tex)")
            #expect(!formula.diagnostics.containsError, "\(tex): \(formula.diagnostics.map(\.message))")
            #expect(!formula.label.isEmpty)
            #expect(renderer.svg(formula).contains("<title"))
        }
    }

    @Test func chargeAndCountShareOneBase() throws {
        let renderer = try Renderer()
        let dump = renderer.render(tex: #"\ce{SO4^2-}"#).box.dump()
        #expect(dump.contains("scripts"))
        let parsed = TeXParser().parse(#"\ce{SO4^2-}"#).root.treeDump(ranges: false)
        #expect(parsed.contains("msubsup"))
        #expect(parsed.contains("mtext \"S\""))
    }
}
