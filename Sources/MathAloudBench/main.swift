import Foundation
import MathAloud

// MathAloud benchmarks (build with -c release). Each benchmark runs its peer in the same invocation
// and prints the ratio, because absolute times on shared machines drift between runs.
//
//   swift run -c release MathAloudBench parse [--corpus FILE] [--repeat N] [--peers DIR]

struct Options {
    var corpus = "Tests/MathTeXTests/Fixtures/arxiv-public.txt"
    var repeatCount = 5
    var peers = "../shared/bench"
}

func parseOptions(_ args: ArraySlice<String>) -> Options {
    var o = Options()
    var i = args.startIndex
    while i < args.endIndex {
        let a = args[i]
        let v = i + 1 < args.endIndex ? args[i + 1] : ""
        switch a {
        case "--corpus": o.corpus = v; i += 1
        case "--repeat": o.repeatCount = max(1, Int(v) ?? 5); i += 1
        case "--peers": o.peers = v; i += 1
        default: FileHandle.standardError.write(Data("unknown option \(a)\n".utf8)); exit(2)
        }
        i += 1
    }
    return o
}

func loadLines(_ path: String) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        exit(3)
    }
    return text.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
}

/// Best-of-N seconds for one pass of `body` over the corpus (after one warm-up pass).
func bestOf(_ n: Int, _ body: () -> Void) -> Double {
    body()
    var best = Double.infinity
    for _ in 0..<n {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

/// Runs a command and returns its standard output (nil if it cannot run).
func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
}

func benchParse(_ o: Options) {
    let lines = loadLines(o.corpus)
    let parser = TeXParser()
    var accepted = 0
    var rejected: [Int] = []
    for (i, line) in lines.enumerated() {
        if parser.parse(line).hasErrors { rejected.append(i) } else { accepted += 1 }
    }
    var sink = 0
    let parseSeconds = bestOf(o.repeatCount) {
        for line in lines { sink &+= parser.parse(line).root.children.count }
    }
    let writer = MathMLWriter()
    let mathMLSeconds = bestOf(o.repeatCount) {
        for line in lines { sink &+= writer.write(parser.parse(line).root).utf8.count }
    }
    let ours = Double(lines.count) / parseSeconds
    let oursMathML = Double(lines.count) / mathMLSeconds
    print("corpus: \(o.corpus) (\(lines.count) formulas)")
    print(String(format: "mathaloud-parse:        %d accepted, best of %d: %.3f s, %.0f formulas/s", accepted, o.repeatCount, parseSeconds, ours))
    print(String(format: "mathaloud-parse+mathml: best of %d: %.3f s, %.0f formulas/s", o.repeatCount, mathMLSeconds, oursMathML))

    let env = ["NODE_PATH": "/usr/share/nodejs"]
    if let json = run("node", ["\(o.peers)/katex-peer.js", o.corpus, "--json", "--repeat", String(o.repeatCount)], environment: env),
       let data = json.data(using: .utf8),
       let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]],
       let katex = object["katex-mathml"], let perSecond = katex["perSecond"] as? Double {
        let katexAccepted = katex["accepted"] as? Int ?? 0
        print(String(format: "katex-mathml (peer):    %d accepted, %.0f formulas/s", katexAccepted, perSecond))
        print(String(format: "ratio parse / katex-mathml:        %.2f×", ours / perSecond))
        print(String(format: "ratio parse+mathml / katex-mathml: %.2f×", oursMathML / perSecond))
    } else {
        print("katex-mathml (peer): not run (needs node, Debian package katex and \(o.peers)/katex-peer.js)")
    }
    if let flags = run("node", ["bench/katex-acceptance.js", o.corpus], environment: env) {
        let katexAccepts = flags.split(separator: "\n").map { $0 == "1" }
        let missed = rejected.filter { $0 < katexAccepts.count && katexAccepts[$0] }
        print("formulas KaTeX accepts and MathAloud rejects: \(missed.count)")
        for i in missed.prefix(20) { print("  line \(i + 1): \(lines[i])") }
    }
    if sink == 42 { print("") }
}

let args = CommandLine.arguments.dropFirst()
switch args.first {
case "parse":
    benchParse(parseOptions(args.dropFirst()))
default:
    print("usage: MathAloudBench parse [--corpus FILE] [--repeat N] [--peers DIR]")
    exit(args.isEmpty ? 0 : 2)
}
