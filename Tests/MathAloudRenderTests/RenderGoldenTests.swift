import Foundation
import Testing
import MathAloud
import TestSupport
@testable import MathAloudRender

/// Golden box trees for ~110 constructs: any change in layout shows up as a diff in Golden/boxes.txt.
/// Record with `MATHALOUD_RECORD=1 swift test --filter RenderGolden` and review the diff.
@Suite struct RenderGoldenTests {
    @Test func boxTrees() throws {
        let golden = try GoldenFile("boxes.txt")
        #expect(golden.cases.count >= 100)
        let renderer = Renderers.text
        var outputs: [String] = []
        for c in golden.cases {
            let formula = renderer.render(tex: c.input)
            outputs.append(formula.box.dump())
        }
        if GoldenFile.recording {
            try golden.record(outputs)
            return
        }
        for (c, output) in zip(golden.cases, outputs) where output != c.expected {
            Issue.record("boxes.txt:\(c.line): \(c.input)\nexpected:\n\(c.expected)\nactual:\n\(output)")
        }
    }
}
