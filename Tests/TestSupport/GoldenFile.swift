import Foundation

/// Golden files: `> input` lines, each followed by the expected output up to a blank line.
/// Set `MATHALOUD_RECORD=1` to rewrite the files from the current output (then review the diff).
public struct GoldenFile {
    /// One case: the input line, the expected output and the 1-based line of the input.
    public struct Case: Sendable {
        public var input: String
        public var expected: String
        public var line: Int
    }

    /// The file.
    public let url: URL
    /// Comment lines before the first case.
    public var header: [String] = []
    /// The cases in file order.
    public var cases: [Case] = []

    /// Whether `MATHALOUD_RECORD=1` asks for the files to be rewritten.
    public static var recording: Bool { ProcessInfo.processInfo.environment["MATHALOUD_RECORD"] == "1" }

    /// Reads `directory/name` beside the calling test file.
    public init(_ name: String, directory: String = "Golden", file: String = #filePath) throws {
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
    public func record(_ outputs: [String]) throws {
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


/// The inputs kept under `Fuzz/regressions/<target>/` (found by the fuzzers), as file paths, sorted.
/// The repository root is found from the calling test file.
public func fuzzRegressionInputs(_ target: String, file: String = #filePath) -> [String] {
    let folder = repositoryRoot(file).appendingPathComponent("Fuzz/regressions/\(target)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0).path }
}

/// The repository's folder (the one holding Package.swift), found from a source file's path.
func repositoryRoot(_ file: String) -> URL {
    var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path), dir.path != "/" {
        dir = dir.deletingLastPathComponent()
    }
    return dir
}

/// The formulas a fuzz harness speaks (`Fuzz/<target>-formulas.txt`, one per line), so that a test can
/// speak the same ones.
public func fuzzFormulas(_ target: String, file: String = #filePath) -> [String] {
    let url = repositoryRoot(file).appendingPathComponent("Fuzz/\(target)-formulas.txt")
    return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
}
