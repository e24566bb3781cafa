import Foundation

// Writes one Swift file from README.md: each ```swift block (but a package manifest) becomes `static func exampleN() throws` of
// `enum ReadmeExamples` (with `#sourceLocation` pointing at the README, so a compile error names the
// README's line), and `ReadmeExamples.all` lists them. The blocks' imports go to the top of the file.
// A line that is only an expression (`spoken.text   // "1 over 2"`) is prefixed with `_ = `, so the
// README can show values without the compiler warning that they are unused (so a multi-line closure
// whose body is one expression needs an explicit `return` in the README).
// Usage: ReadmeExamplesTool README.md OUTPUT.swift

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ReadmeExamplesTool README.md OUTPUT.swift\n".utf8))
    exit(2)
}
let readme = URL(fileURLWithPath: arguments[1])
let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""

struct Block { let line: Int; var lines: [String] }
var blocks: [Block] = []
var current: Block? = nil
for (i, line) in text.components(separatedBy: "\n").enumerated() {
    if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
        current = Block(line: i + 2, lines: [])
    } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
        // A package manifest is Swift for SwiftPM, not for a test target: it is checked by SwiftPM.
        if !current!.lines.contains(where: { $0.contains("import PackageDescription") }) { blocks.append(current!) }
        current = nil
    } else if current != nil {
        current!.lines.append(line)
    }
}

/// Whether a line is a statement made of one expression whose value the example shows.
func isBareExpression(_ line: String) -> Bool {
    let code = line.components(separatedBy: "//")[0].trimmingCharacters(in: .whitespaces)
    guard let first = code.first, first.isLetter || first == "_" || first == "(" else { return false }
    if code.hasSuffix("{") || code.hasSuffix(",") || code.hasSuffix("(") { return false }
    let firstWord = String(code.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    let keywords: Set<String> = ["let", "var", "if", "guard", "for", "while", "switch", "case", "default", "import", "func",
                                 "struct", "enum", "class", "return", "print", "do", "catch", "defer", "throw", "_"]
    if keywords.contains(firstWord) { return false }
    // An assignment (`options.x = 1`), not a comparison.
    if code.range(of: #"[^=!<>]=[^=]"#, options: .regularExpression) != nil { return false }
    return true
}

var imports: Set<String> = ["Foundation"]
var out = "// Generated from README.md by ReadmeExamplesTool: do not edit.\n"
var body = ""
for (n, block) in blocks.enumerated() {
    body += "    /// README.md:\(block.line)\n    static func example\(n + 1)() throws {\n"
    body += "#sourceLocation(file: \"\(readme.path)\", line: \(block.line))\n"
    var depth = 0     // open ( and [ : a line inside them continues an expression
    for line in block.lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("import ") {
            imports.insert(String(trimmed.dropFirst(7)))
            body += "\n"
            continue
        }
        var code = line
        if depth == 0 && isBareExpression(line) {
            let indent = line.prefix { $0 == " " }
            code = indent + "_ = " + line.dropFirst(indent.count)
        }
        body += code + "\n"
        let plain = line.components(separatedBy: "//")[0]
        depth += plain.filter { $0 == "(" || $0 == "[" }.count - plain.filter { $0 == ")" || $0 == "]" }.count
    }
    body += "#sourceLocation()\n    }\n\n"
}
for i in imports.sorted() { out += "import \(i)\n" }
out += "\n/// The README's Swift examples, in order.\nenum ReadmeExamples {\n"
out += "    /// (README line, example).\n    static let all: [(line: Int, run: @Sendable () throws -> Void)] = [\n"
for (n, block) in blocks.enumerated() { out += "        (\(block.line), example\(n + 1)),\n" }
out += "    ]\n\n" + body + "}\n"
do {
    try Data(out.utf8).write(to: URL(fileURLWithPath: arguments[2]))
} catch {
    FileHandle.standardError.write(Data("ReadmeExamplesTool: cannot write \(arguments[2]): \(error)\n".utf8))
    exit(1)
}
