import Foundation

/// Golden files: `> input` lines, each followed by the expected output up to a blank line.
/// Set `MATHALOUD_RECORD=1` to rewrite the files from the current output (then review the diff).
struct GoldenFile {
    struct Case {
        var input: String
        var expected: String
        var line: Int
    }

    let url: URL
    var header: [String] = []
    var cases: [Case] = []

    static var recording: Bool { ProcessInfo.processInfo.environment["MATHALOUD_RECORD"] == "1" }

    init(_ name: String, directory: String = "Golden", file: String = #filePath) throws {
        url = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(directory).appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var current: Case? = nil
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("> ") {
                if let c = current { cases.append(c) }
                current = Case(input: String(line.dropFirst(2)), expected: "", line: index + 1)
            } else if current == nil {
                if !line.isEmpty { header.append(line) }
            } else if !line.isEmpty {
                current!.expected += line + "\n"
            }
        }
        if let c = current { cases.append(c) }
    }

    /// Writes the file back with new outputs (recording mode).
    func record(_ outputs: [String]) throws {
        var text = header.map { $0 + "\n" }.joined()
        if !header.isEmpty { text += "\n" }
        for (c, output) in zip(cases, outputs) {
            text += "> \(c.input)\n\(output)"
            if !output.hasSuffix("\n") { text += "\n" }
            text += "\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}

/// A fixture file of the TeX front end's tests (`Tests/MathTeXTests/Fixtures`).
func texFixtureURL(_ name: String, file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MathTeXTests").appendingPathComponent("Fixtures").appendingPathComponent(name)
}
