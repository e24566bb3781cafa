import Foundation
import Testing

/// `mathaloud parse`: output formats, exit codes, batch contract, hostile input.
@Suite(.serialized) struct ParseCommandTests {
    @Test func treeOutput() throws {
        let r = try runCLI(["parse", "x^2"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("msup @0..<3"))
    }

    @Test func mathmlOutput() throws {
        let r = try runCLI(["parse", #"\frac{a}{b}"#, "--to", "mathml"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("<mfrac><mi>a</mi><mi>b</mi></mfrac>"))
        #expect(r.stdout.contains(#"<annotation encoding="application/x-tex">\frac{a}{b}</annotation>"#))
    }

    @Test func jsonOutput() throws {
        let r = try runCLI(["parse", "x}", "--to", "json"])
        #expect(r.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let diagnostics = object?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["id"] as? String == "tex.unmatched-brace")
        #expect(r.stderr.contains("<formula>:1:2: error: unmatched }"))
    }

    @Test func mathmlInput() throws {
        let r = try runCLI(["parse", "--mathml", "<math><mi>x</mi><mo>&le;</mo><mn>1</mn></math>"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#"mo "≤" rel"#))
    }

    @Test func standardInput() throws {
        let r = try runCLI(["parse"], stdin: Data(#"\sqrt{2}"#.utf8))
        #expect(r.status == 0)
        #expect(r.stdout.contains("msqrt"))
    }

    @Test func usageErrors() throws {
        #expect(try runCLI(["parse", "x", "--to", "pdf"]).status == 2)
        #expect(try runCLI(["parse", "--nope"]).status == 2)
        #expect(try runCLI(["frobnicate"]).status == 2)
    }

    @Test func textMode() throws {
        let r = try runCLI(["parse", "--text", "--to", "json"], stdin: Data("Let $x^2$ and \\[y\\] but $5.".utf8))
        let segments = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        let math = segments?.compactMap { $0["math"] as? String }
        #expect(math == ["x^2", "y"])
        #expect(segments?.last?["text"] as? String == " but $5.")
    }

    @Test func batchKeepsOrderAndSurvivesBadLines() throws {
        let input = """
        {"id": 1, "tex": "x^2"}
        this is not json
        {"id": "b", "mathml": "<mi>y</mi>"}
        {"id": 4}
        {"id": 5, "tex": "\\\\frac{1}{"}
        """
        let r = try runCLI(["parse", "--batch", "--to", "mathml"], stdin: Data(input.utf8))
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 5)
        #expect(lines[0]?["id"] as? Int == 1)
        #expect((lines[0]?["mathml"] as? String)?.contains("<msup>") == true)
        #expect(lines[1]?["error"] != nil)
        #expect(lines[2]?["id"] as? String == "b")
        #expect(lines[3]?["error"] as? String == #"the object needs a "tex", "mathml" or "text" string"#)
        let diagnostics = lines[4]?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["id"] as? String == "tex.missing-brace")
    }

    @Test func invalidUTF8AndNulBytes() throws {
        let bytes: [UInt8] = [0x78, 0x2B, 0xFF, 0xFE, 0x00, 0x79, 0xC3]
        let r = try runCLI(["parse"], stdin: Data(bytes))
        #expect(r.status == 1)
        #expect(r.stderr.contains("tex.invalid-character"))
        #expect(r.stdout.contains(#"mi "y""#))
        let batch = try runCLI(["parse", "--batch"], stdin: Data([0x7B, 0xFF, 0x00, 0x0A] + Array(#"{"id":2,"tex":"a"}"#.utf8)))
        #expect(batch.stdout.split(separator: "\n").count == 2)
    }

    @Test func hostileFormulasAreBounded() throws {
        let nested = String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)
        let r = try runCLI(["parse", "--to", "json"], stdin: Data(nested.utf8))
        #expect(r.status == 1)
        #expect(r.stdout.contains("tex.too-deep"))
        let big = String(repeating: "x", count: 1 << 20)
        let r2 = try runCLI(["parse"], stdin: Data(big.utf8))
        #expect(r2.stderr.contains("tex.input-too-large"))
    }
}
