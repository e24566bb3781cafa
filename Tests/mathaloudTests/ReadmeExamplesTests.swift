import Foundation
import Testing

/// Every `console` block of README.md is run: each `$ mathaloud …` line (optionally fed by
/// `echo '…' |`) must print exactly the lines that follow it.
@Suite struct ReadmeExamplesTests {
    struct Example: Sendable, CustomStringConvertible {
        let command: String
        let expected: String
        let line: Int
        var description: String { "README.md:\(line): \(command)" }
    }

    static func examples(file: String = #filePath) -> [Example] {
        let readme = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var inConsole = false
        var current: (String, [String], Int)? = nil
        func flush() {
            if let c = current { examples.append(Example(command: c.0, expected: c.1.joined(separator: "\n"), line: c.2)) }
            current = nil
        }
        for (i, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```console") { inConsole = true; continue }
            if inConsole && line.hasPrefix("```") { flush(); inConsole = false; continue }
            guard inConsole else { continue }
            // `curl` examples need a running server: ServeCommandTests runs them against one.
            if line.hasPrefix("$ curl") || line.hasPrefix("$ printf") && line.contains("| curl") {
                flush()
                continue
            }
            if line.hasPrefix("$ ") {
                flush()
                current = (String(line.dropFirst(2)), [], i + 1)
            } else {
                current?.1.append(line)
            }
        }
        return examples
    }

    @Test func readmeHasExamples() { #expect(Self.examples().count >= 3) }

    @Test(arguments: examples())
    func example(_ e: Example) throws {
        let binary = mathaloudURL().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", e.command.replacingOccurrences(of: "mathaloud ", with: "'\(binary)' ")]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try launch(process)
        let data = out.fileHandleForReading.readToEndRetrying()
        process.waitUntilExit()
        let got = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        #expect(got == e.expected, "\(e)\n--- got\n\(got)\n--- expected\n\(e.expected)")
    }
}
